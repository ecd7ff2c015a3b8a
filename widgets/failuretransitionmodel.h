#pragma once

#include "eval/failureanalysis.h"

#include <QAbstractTableModel>

namespace rwb::widgets {

// How the e-mails moved between categories from checkpoint A (rows) to B (columns):
// cell (a, b) counts the e-mails in category a at A and b at B (blank for 0; the
// diagonal is shaded, off-diagonal cells into Exact green, out of it red). CountRole
// gives the number. Headers are the short category names. GUI thread.
class FailureTransitionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int CountRole = Qt::UserRole + 1; // qlonglong

    explicit FailureTransitionModel(QObject *parent = nullptr);

    void setComparison(const rwb::eval::FailureComparison &comparison);
    void clear();

    // A short name of a category for the matrix headers.
    static QString shortName(rwb::eval::FailureCategory category);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    rwb::eval::FailureComparison m_comparison;
    bool m_empty = true;
};

} // namespace rwb::widgets
