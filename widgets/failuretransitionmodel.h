#pragma once

#include "eval/failureanalysis.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace rwb::widgets {

class TaskPresenter;

// How the examples moved between categories from checkpoint A (rows) to B (columns):
// cell (a, b) counts the examples in category a at A and b at B (blank for 0; the
// diagonal is shaded, off-diagonal cells into the right category green, out of it red). CountRole
// gives the number. Headers are the short category names. GUI thread.
class FailureTransitionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int CountRole = Qt::UserRole + 1; // qlonglong

    explicit FailureTransitionModel(QObject *parent = nullptr);

    // The task's categories (rows and columns; category 0 is "right"), named by the task's
    // presenter (the headers are its short names). The default task's until set.
    void setCategories(const std::vector<rwb::task::FailureCategory> &categories, const TaskPresenter &presenter);
    void setComparison(const rwb::eval::FailureComparison &comparison);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    rwb::eval::FailureComparison m_comparison;
    bool m_empty = true;
    QStringList m_short, m_names;
};

} // namespace rwb::widgets
