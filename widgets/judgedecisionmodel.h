#pragma once

#include "runsession.h"

#include "eval/confusionmatrix.h"
#include "judgeagreement.h"
#include "judgeverdictsummary.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <atomic>
#include <limits>
#include <memory>
#include <vector>

class QThread;

namespace rwb::widgets {

using eval::ConfusionMatrix;

// One judge call of a run as the decisions table lists it: everything but the request and
// the raw reply (JudgeDecisionDetailView reads those for the one shown), with the verdict
// read into a summary and, for the legal-QA judges, the labels of the judge and of the
// reference grader (the rollout's or evaluation prediction's details_json).
struct JudgeDecisionRow {
    enum class Failure { None, Call, Parse };

    qint64 id = 0;          // judge_decisions.id
    qint64 step = 0;        // the rollout's step, or the evaluated checkpoint's
    qint64 rolloutId = 0;   // 0 for a decision on an evaluation prediction
    QString exampleId;      // the evaluation prediction's example ("" for rollouts)
    int groupIndex = -1;    // the rollout's group and sample (−1 for evaluations)
    int sampleIndex = -1;
    QString reward;         // the component ("coverage", "rubric_explicit")
    QString part;           // "" or "items[3]"
    double value = std::numeric_limits<double>::quiet_NaN(); // NaN: None
    double latencySeconds = 0.0;
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;
    double cost = 0.0;
    bool cacheHit = false;
    int attempts = 0;
    QString error;          // "" when a verdict was read
    bool hasReply = false;  // the judge answered (a parse failure) or not (a call failure)
    JudgeVerdictSummary verdict;
    GradedQuantity graded = GradedQuantity::None;
    int judgedLabel = -1;    // JudgeAgreement::label of the value (−1: None)
    int referenceLabel = -1; // … of the grader's grade (−1: no grade stored)

    // Call: the call failed after its retries (no reply); Parse: the reply did not parse.
    Failure failure() const
    {
        return error.isEmpty() ? Failure::None : hasReply ? Failure::Parse : Failure::Call;
    }
};

// The agreement of one graded reward's judge with the reference grader.
struct JudgeAgreementCounts {
    GradedQuantity quantity = GradedQuantity::None;
    ConfusionMatrix matrix;  // rows: the grader's label, columns: the judge's
    int decisions = 0;       // every decision of the reward
    int noVerdict = 0;       // left out: the judge gave None
    int noReference = 0;     // left out: no grade stored with the rollout
};

// Every judge decision of one run (its rollouts' and its evaluations'), in the order they
// were written, as a table. Rows come from a worker thread that reads the store through
// its own read-only connection in pages of a few thousand (`WHERE id > ? ORDER BY id
// LIMIT ?`) and hands each page to the GUI thread, so the table fills while it stays
// responsive on tens of thousands of decisions; refresh() appends what a live run wrote
// since. Columns: step, rollout / example, reward, part, value (None shown as "None"),
// verdict, latency, tokens, cost, cache hit, attempts, error. ValueRole gives the number
// behind a cell (NaN for None) or its text, for sorting (RewardValue::lessThan) and
// filtering. The model itself lives on the GUI thread.
class JudgeDecisionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        StepColumn,
        TargetColumn,
        RewardColumn,
        PartColumn,
        ValueColumn,
        VerdictColumn,
        LatencyColumn,
        TokensColumn,
        CostColumn,
        CacheColumn,
        AttemptsColumn,
        ErrorColumn,
        ColumnCount
    };
    static constexpr int ValueRole = Qt::UserRole + 1;      // the number (double, NaN = None) or text behind a cell
    static constexpr int DecisionIdRole = Qt::UserRole + 2; // judge_decisions.id (qint64)
    static constexpr int RolloutIdRole = Qt::UserRole + 3;  // the rollout judged (qint64; 0 for evaluations)

    explicit JudgeDecisionModel(QObject *parent = nullptr);
    ~JudgeDecisionModel() override; // stops the worker and waits for it

    // Shows the session's run: empties the table and starts reading the run's decisions
    // on a worker thread (through a reader of the session's); rows arrive page by page,
    // then loadingFinished(). Throws store::StoreError when the run is not in the store
    // (checked here, before anything changes).
    void open(const RunSession &session);
    // Stops any reading and shows nothing.
    void close();
    // Reads decisions written after the last row (a live run). Does nothing while a read
    // is under way or when no run is open.
    void refresh();
    bool isLoading() const { return m_thread != nullptr; }
    QString storePath() const { return m_path; }
    qint64 runId() const { return m_runId; }
    void setPageSize(int rows) { m_pageSize = rows > 0 ? rows : 1; }

    const JudgeDecisionRow &decision(int row) const { return m_rows[static_cast<size_t>(row)]; }
    // The row of a decision id, −1 when not loaded.
    int rowOfDecision(qint64 id) const;
    // The rewards that have decisions, in the order of their first decision.
    const QStringList &rewards() const { return m_rewards; }
    // The rewards whose decisions the reference grader can check (JudgeAgreement), in
    // the same order.
    QStringList gradedRewards() const;
    // The confusion matrix of a graded reward's decisions that have both labels.
    JudgeAgreementCounts agreement(const QString &reward) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The verdict column's text for a row: the summary, or what failed.
    static QString verdictText(const JudgeDecisionRow &row);

Q_SIGNALS:
    // The worker read every decision there was (`rows` in the table now).
    void loadingFinished(int rows);
    // The worker stopped on an error (the rows read before it stay).
    void loadingFailed(const QString &message);

private:
    void startWorker(qint64 afterId);
    void stopWorker();
    void appendRows(int generation, std::shared_ptr<std::vector<JudgeDecisionRow>> rows);
    void workerDone(int generation, const QString &error);

    std::vector<JudgeDecisionRow> m_rows;
    QStringList m_rewards;
    QString m_path;
    RunSession::Reader m_reader;
    qint64 m_runId = 0;
    int m_pageSize = 2000;
    int m_generation = 0;                       // bumped by every open / close: late pages are dropped
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic_bool> m_cancel; // the running worker's stop flag
};

} // namespace rwb::widgets
