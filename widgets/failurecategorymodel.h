#pragma once

#include "eval/failureanalysis.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <optional>

namespace rwb::widgets {

class TaskPresenter;

// The failure categories of one checkpoint (A) as rows — the task's categories
// (extraction: exact, marker only, recipient, …; legal QA: right, format, wrong
// citation, …) — with name, count and share of all predictions; in compare mode (a second checkpoint B) the columns are A, B and B − A,
// and two rows follow the categories: "Fixed" (wrong at A, exact at B) and "Broke"
// (exact at A, wrong at B). FilterRole gives what a row selects (a category index, or
// FixedFilter / BrokeFilter). GUI thread.
class FailureCategoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int FilterRole = Qt::UserRole + 1; // int: category index, FixedFilter, BrokeFilter
    static constexpr int CountRole = Qt::UserRole + 2;  // qlonglong: count at A (Fixed/Broke: their count)
    static constexpr int FixedFilter = 100;
    static constexpr int BrokeFilter = 101;

    explicit FailureCategoryModel(QObject *parent = nullptr);

    // The task's categories (task::Task::failureCategories; category 0 is "right"),
    // named and explained by the task's presenter; the rows follow them. The default
    // task's until set.
    void setCategories(const std::vector<rwb::task::FailureCategory> &categories, const TaskPresenter &presenter);
    int categoryCount() const { return static_cast<int>(m_keys.size()); }
    // The key, translated name and explanation of category `i` of the current task.
    QString key(int i) const { return m_keys.value(i); }
    QString name(int i) const { return m_names.value(i); }
    QString explanation(int i) const { return m_explanations.value(i); }

    // Counts at A; with `b` and `comparison`, compare mode.
    void setCounts(const rwb::eval::FailureCounts &a, const std::optional<rwb::eval::FailureCounts> &b = {},
                   const rwb::eval::FailureComparison &comparison = {});
    void clear();
    bool compareMode() const { return m_b.has_value(); }
    // The row of a filter value (-1: none).
    int rowOf(int filter) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    rwb::eval::FailureCounts m_a;
    std::optional<rwb::eval::FailureCounts> m_b;
    rwb::eval::FailureComparison m_comparison;
    bool m_empty = true;
    QStringList m_keys, m_names, m_explanations;
};

} // namespace rwb::widgets
