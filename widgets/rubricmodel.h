#pragma once

#include "judge/rubric.h"

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <vector>

namespace rwb::widgets {

// The items of one rubric as an editable table, for the rubric editor: category, weight,
// title and criterion of each item (editable), and — for one sample — the judge's verdict
// on the item and its share of the explicit score (read-only).
//
// Edits follow the pitfall convention of judge/rubric.h: making an item a Pitfall makes its
// weight negative; a negative weight makes an item a Pitfall; an item taken out of Pitfall
// gets |w|. A weight of 0 or one that is not finite is refused (setData returns false).
// An edit of an item's category, weight or criterion changes what its judge call asks, so
// it clears that item's verdict; moves carry verdicts with their items.
//
// Columns: category, weight, title, criterion, verdict (met / not met, or c for a
// continuous judge; "—" when there is none), contribution (w·c / Σw⁺). ValueRole gives
// the category's RubricCategory as an int, the weight, and c (NaN for none). Rows move
// with moveRows(). GUI thread only.
class RubricModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { CategoryColumn, WeightColumn, TitleColumn, CriterionColumn, VerdictColumn, ContributionColumn, ColumnCount };
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit RubricModel(QObject *parent = nullptr);

    // Replaces the items; no verdicts, not modified.
    void setRubric(const rwb::judge::Rubric &rubric);
    // The items as edited (perhaps not valid: see problem()).
    rwb::judge::Rubric rubric() const;
    // What judge::validateRubric says of the items ("" when they are valid).
    QString problem() const;

    // Edited since setRubric() or setModified(false).
    bool isModified() const { return m_modified; }
    void setModified(bool modified);

    // The judge's verdicts c_i ∈ [0, 1] on the items for one sample, in item order (a
    // missing one: nullopt); a list of another length clears them.
    void setVerdicts(const std::vector<std::optional<double>> &verdicts);
    std::optional<double> verdict(int row) const;
    // The explicit score clamp(Σ w·c / Σ w⁺, 0, 1) (judge::explicitScore) when every item
    // has a verdict and the rubric is valid; nullopt otherwise.
    std::optional<double> score() const;

    // Appends an item (Important, weight 3, no criterion yet: problem() says so until one
    // is written) and returns its row.
    int appendItem();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    bool insertRows(int row, int count, const QModelIndex &parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex &parent = {}) override;
    bool moveRows(const QModelIndex &sourceParent, int sourceRow, int count, const QModelIndex &destinationParent,
                  int destinationChild) override;

    // The category's translated name ("Essential", …).
    static QString categoryName(rwb::judge::RubricCategory category);

Q_SIGNALS:
    void modifiedChanged(bool modified);
    // Items or verdicts changed (the score line follows).
    void changed();

private:
    void edited(int row);

    std::vector<rwb::judge::RubricItem> m_items;
    std::vector<std::optional<double>> m_verdicts; // one per item
    bool m_modified = false;
};

} // namespace rwb::widgets
