#pragma once

#include "store/storetypes.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

// The rollouts of one run as a table, read page by page from the run store through the
// model's own read-only connection (it never blocks a trainer writing the same file).
// Views fetch more rows as they scroll (canFetchMore / fetchMore), so millions of
// rollouts cost only what is on screen; poll() appends rows committed since.
//
// Columns: run (what a search across the store's runs needs; the rollout browser hides
// it otherwise), step, group, sample, reward, advantage, one per reward component (from
// the run's reward configs), answer, gold, tokens, truncated, completion. A reward or
// component that is None (a judge gave no verdict) shows as "None" (RewardValue), its
// ValueRole NaN; a component the rollout has no value for shows empty.
//
// A row limit (setRowLimit) keeps a search bounded: the model reads no further than that
// many rows, in pages, and says when more matched (limitReached()). Lives on the GUI
// thread.
class RolloutTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { RunColumn, StepColumn, GroupColumn, SampleColumn, RewardColumn, AdvantageColumn, FirstComponentColumn };
    static constexpr int ValueRole = Qt::UserRole + 1;     // the number behind a cell (double), or the text
    static constexpr int RolloutIdRole = Qt::UserRole + 2; // the row id in the store (qint64)

    explicit RolloutTableModel(QObject *parent = nullptr);
    ~RolloutTableModel() override;

    // Shows `runId` of `store` (a run session's connection, which must outlive the model's
    // use of it: close() lets it go) with `filter` (its runId is replaced). Throws
    // store::StoreError when the run does not exist.
    void open(const store::RunStore &store, qint64 runId, store::RolloutFilter filter = {});
    // Shows nothing and closes the connection.
    void close();
    // A new filter on the same run, or on every run of the store (filter.allRuns), from
    // the first page again. Throws store::StoreError for a bad full-text query, leaving the
    // table as it was.
    void setFilter(store::RolloutFilter filter);
    const store::RolloutFilter &filter() const { return m_filter; }
    void setPageSize(int rows) { m_pageSize = rows > 0 ? rows : 1; }
    // At most `rows` rows from the next filter on (0: no limit, the default).
    void setRowLimit(int rows) { m_rowLimit = rows > 0 ? rows : 0; }
    int rowLimit() const { return m_rowLimit; }
    // Whether more rows match than the limit let in.
    bool limitReached() const { return m_limitReached; }
    // Appends rows matching the filter that were committed after the last one shown,
    // once every earlier page has been fetched. Returns how many were added.
    int poll();

    const QStringList &componentNames() const { return m_components; }
    int componentColumn(int component) const { return FirstComponentColumn + component; }
    int answerColumn() const { return FirstComponentColumn + static_cast<int>(m_components.size()); }
    int goldColumn() const { return answerColumn() + 1; }
    int tokensColumn() const { return answerColumn() + 2; }
    int truncatedColumn() const { return answerColumn() + 3; }
    int completionColumn() const { return answerColumn() + 4; }
    // A row's rollout without its prompt text and rewards JSON (read them with
    // RunStore::rollout(id)); the component values are componentValue().
    const store::StoredRollout &rollout(int row) const { return m_rows[static_cast<size_t>(row)].stored; }
    // NaN when the component is None (its judge gave no verdict: null in rewards_json) or
    // the rollout has no such component (componentRecorded() tells which).
    double componentValue(int row, int component) const;
    bool componentRecorded(int row, int component) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

private:
    struct Row {
        store::StoredRollout stored;
        // nullopt where the rollout has no such component, NaN where it is None (null)
        std::vector<std::optional<double>> components;
    };
    Row makeRow(store::StoredRollout r) const;
    // The page of `store` after `afterId` under `filter` when `shown` rows are in: one page, or what
    // the row limit leaves (one more row read to know whether more match: `limited`).
    store::RolloutPage readPage(const store::RunStore &store, const store::RolloutFilter &filter, int64_t afterId,
                                size_t shown, bool *limited) const;
    void appendPage(store::RolloutPage page);
    // Reads the page after the last row and inserts it; returns how many rows came.
    int insertNextPage();
    // Shows `first` as the whole table under `filter` (one model reset, inside which
    // `alsoChange` runs too).
    void resetTo(store::RolloutFilter filter, store::RolloutPage first, bool limited,
                 const std::function<void()> &alsoChange = {});

    const store::RunStore *m_store = nullptr;
    store::RolloutFilter m_filter;
    int m_rowLimit = 0;
    bool m_limitReached = false;
    QStringList m_components;
    std::vector<Row> m_rows;
    int64_t m_afterId = 0;
    bool m_more = false;
    int m_pageSize = 500;
    bool m_changing = false; // inside a reset or an insert (their notifications may call back)
};

} // namespace rwb::widgets
