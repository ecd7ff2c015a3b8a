#pragma once

#include "reward/reward.h"
#include "task/task.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <QVector>

#include <memory>
#include <vector>

namespace rwb::reward {
class SynonymTable;
} // namespace rwb::reward

// Every sample (one completion of one task input: an e-mail, a legal question with its
// sections) scored by every registered reward of the samples' task. Component values
// are computed when samples, the thinking mode or the synonym table change; a weight
// change only recomputes the totals, so the table follows a slider without re-scoring.
// Embedding rewards (legal QA's `semantic`) use the `lexical` embedder fitted on the
// samples' gold texts and answers: the Designer contacts no server.
//
// Columns: id, kind, answer, gold, one per component (registry order), total.
// Lives on the GUI thread.
class SampleScoreModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, KindColumn, AnswerColumn, GoldColumn, FirstComponentColumn };
    // The raw number of a score cell (double), for sorting and filtering.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit SampleScoreModel(QObject *parent = nullptr);
    ~SampleScoreModel() override;

    // The samples of `task` (a task of task::Catalog::builtin()); a task other than the
    // current one changes the components (and resets the weights to 0).
    void setSamples(const rwb::task::Task &task, std::vector<rwb::task::Record> records);
    // The samples' task ("company_extraction" before any is set).
    const rwb::task::Task &task() const { return *m_task; }
    void setThinking(bool thinking);
    bool thinking() const { return m_thinking; }
    // The table for `domain`; null means the bundled one.
    void setSynonyms(std::shared_ptr<const rwb::reward::SynonymTable> synonyms);
    // One weight per component, in componentNames() order; the sum may be 0 (totals are then 0).
    void setWeights(const QVector<double> &weights);
    const QVector<double> &weights() const { return m_weights; }

    const QStringList &componentNames() const { return m_names; }
    int componentColumn(int component) const { return FirstComponentColumn + component; }
    int totalColumn() const { return FirstComponentColumn + static_cast<int>(m_names.size()); }

    const rwb::task::Record &record(int row) const { return m_records[static_cast<size_t>(row)]; }
    const rwb::task::Completion &completion(int row) const { return *m_completions[static_cast<size_t>(row)]; }
    QString answer(int row) const;
    double componentValue(int row, int component) const;
    double total(int row) const { return m_totals[static_cast<size_t>(row)]; }
    // Every component's explanation for a row (computed on demand).
    std::vector<rwb::reward::Explanation> explain(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void makeRewards();
    void rescore();
    void recomputeTotals();

    const rwb::task::Task *m_task = nullptr;
    QStringList m_names;
    std::vector<std::unique_ptr<rwb::reward::Reward>> m_rewards;
    std::vector<rwb::task::Record> m_records;
    std::vector<std::unique_ptr<rwb::task::Completion>> m_completions; // parsed per row
    std::vector<double> m_values;                                           // row-major: rows × components
    std::vector<double> m_totals;
    QVector<double> m_weights;
    std::shared_ptr<const rwb::reward::SynonymTable> m_synonyms;
    bool m_thinking = false;
};
