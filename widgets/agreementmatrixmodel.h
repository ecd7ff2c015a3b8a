#pragma once

#include "prm/agreement.h"

#include <QAbstractTableModel>
#include <QString>

namespace rwb::widgets {

// The agreement between every two raters of a pair set (prm::agreementTable): a row and a
// column per rater (the tree, each judge, each person, the people's majority); a cell the
// share of the pairs both labelled that got the same label, Cohen's κ and how many pairs,
// shaded by κ; the diagonal says how many pairs the rater labelled. Clicking a cell off
// the diagonal filters the annotation queue to the pairs those two raters disagree on.
// GUI thread only.
class AgreementMatrixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit AgreementMatrixModel(QObject *parent = nullptr);

    void setTable(prm::AgreementTable table);
    const prm::AgreementTable &table() const { return m_table; }
    QString rater(int i) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A rater's name as headers show it: "tree", "judge: m", "ann", "people (majority)".
    static QString displayName(const QString &rater);

private:
    prm::AgreementTable m_table;
};

} // namespace rwb::widgets
