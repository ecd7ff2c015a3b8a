#pragma once

#include "tasks/legalqa/legaljudgeagreement.h"

#include <QAbstractTableModel>

#include <vector>

namespace rwb::widgets {

// The requests of a judge's evaluation (the lines `rwb judge eval --out` writes), one a
// row: the request's id, its kind of answer and number of reference facts, the reference
// grader's label and the judge's for coverage and for contradiction (a disagreement
// tinted), and the judge's raw reply or why it failed. GUI thread only.
class JudgeEvalItemModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, KindColumn, FactsColumn, CoverageColumn, ContradictionColumn, ReplyColumn, ColumnCount };

    explicit JudgeEvalItemModel(QObject *parent = nullptr);

    void setItems(std::vector<judge::AgreementItem> items);
    const std::vector<judge::AgreementItem> &items() const { return m_items; }
    const judge::AgreementItem &item(int row) const { return m_items.at(static_cast<size_t>(row)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<judge::AgreementItem> m_items;
};

} // namespace rwb::widgets
