#pragma once

#include "train/rescore.h"

#include <QAbstractTableModel>

#include <memory>

namespace rwb::widgets {

// The rows of a what-if re-score (train::RescoreResult), one per rollout: step, group,
// sample, the answer, stored and new total, old and new advantage, the sign flip, the
// best completion before and after, each component stored and new, and the error of a
// rollout skipped or scored None. Qt::UserRole gives a cell's number (NaN: none) for
// sorting and tests. GUI thread only.
class RescoreTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Step, Group, Sample, Answer, StoredTotal, NewTotal, OldAdvantage, NewAdvantage, Flip, Best, FirstComponent };

    explicit RescoreTableModel(QObject *parent = nullptr);

    void setResult(std::shared_ptr<const train::RescoreResult> result);
    const train::RescoreResult *result() const { return m_result.get(); }
    // The error column comes after the two columns of each component.
    int errorColumn() const;
    // The result's row of a table row.
    const train::RescoredRollout &rolloutAt(int row) const { return m_result->rows[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The header's words changed (a language switch).
    void retranslate();

private:
    std::shared_ptr<const train::RescoreResult> m_result;
};

} // namespace rwb::widgets
