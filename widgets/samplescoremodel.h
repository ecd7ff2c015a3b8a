#pragma once

#include "storedocument.h"

#include "reward/reward.h"
#include "task/task.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

class QTimer;

namespace rwb::reward {
class SynonymTable;
} // namespace rwb::reward
namespace rwb::judge {
struct Rubric;
} // namespace rwb::judge
namespace rwb::widgets {
class JudgeScorer;
class JudgeSetup;
struct JudgeCellResult;
} // namespace rwb::widgets

// Every sample (one completion of one task input: an e-mail, a legal question with its
// sections) scored by every registered reward of the samples' task. Rule components are
// computed when samples, the thinking mode or the synonym table change; a weight change
// only recomputes the totals, so the table follows a slider without re-scoring. Embedding
// rewards (legal QA's `semantic`) use the `lexical` embedder fitted on the samples' gold
// texts and answers: the Designer contacts no embedding server.
//
// Judge components (coverage, consistency, rubric_*, likert_*) need a judge (setJudge()) and
// are scored in the background by a JudgeScorer, only where their weight is above 0 (a
// call costs seconds and money): their cells read "…" until the verdicts arrive, batch by
// batch, then the value, or None when the judge failed. A weight change re-sends nothing;
// a weight raised from 0 asks for that component's cells; an edited rubric (a rubric
// override) asks again for its samples' cells, and the judge client's memory and cache
// answer every request that did not change. Each re-score's calls go to a run store
// (setJudgeLog) as an evaluation run "Designer", which the Judge tab reads.
//
// Columns: id, kind, answer, gold, one per component (registry order), total. The total
// is Σ w·r / Σ w over the weighted components: None when one of them is None, unknown
// ("—", or "…" while one is pending) when one has no value yet. Lives on the GUI thread.
class SampleScoreModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, KindColumn, AnswerColumn, GoldColumn, FirstComponentColumn };
    // The raw number of a score cell (double; NaN for None and for a cell without a value),
    // for sorting and filtering.
    static constexpr int ValueRole = Qt::UserRole + 1;

    // What a score cell holds.
    enum class CellState {
        Value,         // a value, or None (its judge gave no verdict; the note says why)
        Pending,       // asked of the judge, no answer yet
        NotScored,     // a judge component of weight 0 (not sent), or a re-score cancelled
        NoJudge,       // a judge component without a judge set up
        NotApplicable, // the reward cannot judge this sample (no rubric, no reference)
    };

    explicit SampleScoreModel(QObject *parent = nullptr);
    ~SampleScoreModel() override;

    // The samples of `task` (a task of task::Catalog::builtin()); a task other than the
    // current one changes the components (and resets the weights to 0). Rubric overrides
    // are dropped.
    void setSamples(const rwb::task::Task &task, std::vector<rwb::task::Record> records);
    // The samples' task (the catalog's default task before any is set).
    const rwb::task::Task &task() const { return *m_task; }
    void setThinking(bool thinking);
    bool thinking() const { return m_thinking; }
    // The table for `domain`; null means the bundled one.
    void setSynonyms(std::shared_ptr<const rwb::reward::SynonymTable> synonyms);
    // One weight per component, in componentNames() order; the sum may be 0 (totals are then 0).
    void setWeights(const QVector<double> &weights);
    const QVector<double> &weights() const { return m_weights; }

    // The judge of the judge components (null: none). With `rescore` every weighted judge
    // cell is asked again (another server or other request settings); without, the values
    // stay and only later calls use it (concurrency, the cache file).
    void setJudge(std::shared_ptr<const rwb::widgets::JudgeSetup> judge, bool rescore = true);
    const std::shared_ptr<const rwb::widgets::JudgeSetup> &judge() const { return m_judge; }
    // A column of the table: a reward component under its label (RewardComponent::label).
    struct Component {
        QString label;
        std::string reward;
        std::string options;
    };
    // The columns: by default the task's own rewards (setSamples); a config that lists
    // generic components (reward/library/library.h), or one under a name of its own,
    // brings them. Resets the weights to 0 and scores every cell anew.
    void setComponents(const std::vector<Component> &components);
    // The registry's reward of a column (its label unless the config named it).
    const std::string &componentReward(int component) const { return m_rewardNames[static_cast<size_t>(component)]; }
    // The task's own rewards as columns (what setSamples starts from).
    static std::vector<Component> taskComponents(const rwb::task::Task &task);
    // A component's options (a JSON object, "" for none; reward config "options"). A
    // judge component's weighted cells are asked again; a rule component is made anew
    // with them and scores its column again.
    void setComponentOptions(int component, const QString &options);
    QString componentOptions(int component) const;
    bool isJudgeComponent(int component) const;
    bool hasJudgeComponents() const;

    // The rubric the judge sees for `rows` (null: their own again); their judge cells are
    // asked again. The records are not changed.
    void setRubricOverride(const std::vector<int> &rows, std::shared_ptr<const rwb::judge::Rubric> rubric);
    // The rubric the judge sees for a row: its override, else its own (null: none).
    std::shared_ptr<const rwb::judge::Rubric> rubric(int row) const;
    bool hasRubricOverride(int row) const;
    // The rows of the same question as `row` (the same question and reference answer as a
    // judge sees them), `row` included, in row order.
    std::vector<int> questionRows(int row) const;

    // Asks again for every weighted judge cell (after a cancel, or a judge that failed).
    void rescoreJudges();
    // Stops the judge calls; pending cells become "not scored".
    void cancelJudging();
    bool isJudging() const;
    rwb::widgets::JudgeScorer *scorer() const { return m_scorer; }
    // Where each re-score's judge calls are logged ("" none): a run store file, created
    // when missing. The first re-score after this (or after samples of another task) adds
    // an evaluation run "Designer" of the samples' task; each re-score is one of its steps.
    void setJudgeLog(const QString &storePath);
    QString judgeLogPath() const { return m_logPath; }
    qint64 judgeLogRun() const { return m_logRun; }

    const QStringList &componentNames() const { return m_names; }
    int componentColumn(int component) const { return FirstComponentColumn + component; }
    int totalColumn() const { return FirstComponentColumn + static_cast<int>(m_names.size()); }

    const rwb::task::Record &record(int row) const { return m_records[static_cast<size_t>(row)]; }
    const rwb::task::Completion &completion(int row) const { return *m_completions[static_cast<size_t>(row)]; }
    QString answer(int row) const;
    // NaN for None and for a cell without a value (see cellState()).
    double componentValue(int row, int component) const;
    CellState cellState(int row, int component) const;
    // Why a cell holds no number, or the error of a None; "" otherwise. Translated.
    QString cellNote(int row, int component) const;
    // The judge calls behind a judge cell's value (empty for rule cells and cells without one).
    const std::vector<rwb::reward::JudgeDecision> &judgeDecisions(int row, int component) const;
    // The judge's verdict c on each item of the row's rubric, from rubric_explicit's calls
    // (either mode); nullopt for an item without one. Empty without a rubric.
    std::vector<std::optional<double>> rubricVerdicts(int row) const;
    // NaN when None or unknown (see totalState()).
    double total(int row) const { return m_totals[static_cast<size_t>(row)]; }
    // Value (a number or None), Pending (a weighted judge cell is pending) or NotScored (one
    // has no value).
    CellState totalState(int row) const { return m_totalStates[static_cast<size_t>(row)]; }
    // Every component's explanation for a row: rule components computed on demand, judge
    // components from the calls already made (none is sent for it).
    std::vector<rwb::reward::Explanation> explain(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    // A re-score asked the judge for `cells` cells.
    void judgingStarted(int cells);
    void judgingProgress(int done, int total);
    // `failures` cells got None; `message`: the first error ("" none).
    void judgingFinished(bool cancelled, int failures, const QString &message);
    // Judge calls of a re-score are in the log store.
    void judgeCallsLogged(const QString &storePath, qint64 runId);

private:
    size_t cellIndex(int row, int component) const
    {
        return static_cast<size_t>(row) * static_cast<size_t>(m_names.size()) + static_cast<size_t>(component);
    }
    void useComponents(const std::vector<Component> &components);
    void makeRewards();
    void parseCompletions();
    void scoreRules();
    // Puts the judge cells of `rows` × `components` in the state the judge, the weights
    // and the samples call for (pending cells are asked for).
    void resetJudgeCells(const std::vector<int> &rows, const std::vector<int> &components);
    void scheduleJudging();
    void startJudging();
    void applyResults(const std::vector<rwb::widgets::JudgeCellResult> &results);
    void onJudgingFinished(bool cancelled, int failures, const QString &message);
    void recomputeTotals();
    void emitScoresChanged();
    std::vector<int> allRows() const;
    std::vector<int> judgeComponents() const;

    const rwb::task::Task *m_task = nullptr;
    QStringList m_names;                                    // labels, per component
    std::vector<std::string> m_rewardNames;                 // the registry's reward, per component
    std::vector<std::string> m_makeErrors;                  // per component: why it could not be made ("" none)
    std::vector<bool> m_isJudge;                            // per component
    std::vector<std::string> m_options;                     // per component
    std::vector<std::unique_ptr<rwb::reward::Reward>> m_rewards; // per component; null for judge components
    std::vector<rwb::task::Record> m_records;
    std::vector<std::shared_ptr<const rwb::task::Completion>> m_completions; // parsed per row
    std::vector<std::shared_ptr<const rwb::judge::Rubric>> m_overrides;       // per row; null: none
    std::vector<double> m_values;                           // row-major: rows × components
    std::vector<CellState> m_states;                        // the same
    std::vector<quint64> m_versions;                        // the same: set anew when a cell is asked again
    quint64 m_lastVersion = 0;                              // never reused, across samples
    std::unordered_map<size_t, QString> m_notes;            // by cell: reason or error
    std::unordered_map<size_t, std::vector<rwb::reward::JudgeDecision>> m_decisions; // by cell
    std::vector<double> m_totals;
    std::vector<CellState> m_totalStates;
    QVector<double> m_weights;
    std::shared_ptr<const rwb::reward::SynonymTable> m_synonyms;
    bool m_thinking = false;

    std::shared_ptr<const rwb::widgets::JudgeSetup> m_judge;
    rwb::widgets::JudgeScorer *m_scorer = nullptr;
    QTimer *m_judgeTimer = nullptr; // coalesces the edits of one event-loop turn into one re-score
    QString m_logPath;
    std::shared_ptr<rwb::widgets::StoreDocument> m_log; // m_logPath's, opened (created) at the first re-score
    qint64 m_logRun = 0;
    std::string m_logTask;          // the task of m_logRun
    qint64 m_logStep = 0;
};
