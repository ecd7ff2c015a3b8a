#pragma once

#include "storedocument.h"

#include "reward/reward.h"
#include "task/task.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

class QThread;

namespace rwb::widgets {

class JudgeSetup;

// What a judge gave one cell (a sample and a judge component) of the Designer's table.
struct JudgeCellResult {
    enum class Status {
        Scored,        // `value` is the reward's value, or None (kNone) when its judge failed
        NotApplicable, // the reward cannot judge this sample (`reason`: no rubric, no reference)
    };
    int row = 0;
    int component = 0;
    quint64 version = 0; // as the job gave it: the model drops a result for an older version
    Status status = Status::Scored;
    double value = reward::kNone;
    QString reason;      // NotApplicable: why; a None: the first error
    std::vector<reward::JudgeDecision> decisions; // every call made for the cell, in order
};

// Scores the Designer's judge cells on a worker thread, in batches of a few samples
// (the judge's concurrency), so that rule rewards stay instant and judge columns fill
// in batch by batch. Each batch's calls go through the JudgeSetup's client (its memory
// and cache answer a request asked before) and, when a store is given, are written to it
// as one evaluation prediction per sample with its judge decisions (checkpoint step =
// the job's step), so that the Judge tab reads them as it reads a run's.
//
// cancel() stops sending: the flag is checked between components and batches, and the
// client's cancelSending() keeps back the calls of the batch in flight that are not sent
// yet and cuts those waiting for an http judge's answer short. That batch's results are
// dropped (the verdicts that came stay in the client's memory); finished(cancelled =
// true) follows.
//
// start() while a job runs cancels it and starts the new one once it has stopped (no
// finished() for the one replaced). Signals come on the thread the scorer lives in; the
// destructor cancels a running job and waits for it: at once for an http judge, after
// the generation in progress for a local one. GUI thread only.
class JudgeScorer : public QObject {
    Q_OBJECT
public:
    // A sample: the model's row, what the judge rewards see of it (a RubricOverrideExample
    // when its rubric was edited) and its parsed completion, shared with the model.
    struct Sample {
        int row = 0;
        std::shared_ptr<const task::Example> example;
        std::shared_ptr<const task::Completion> completion;
    };
    // A judge component: its column index, registry name and options (JSON, "" none).
    struct Component {
        int index = 0;
        std::string name;
        std::string options;
    };
    // One cell to judge: indices into Job::samples and Job::components.
    struct Cell {
        int sample = 0;
        int component = 0;
        quint64 version = 0;
    };
    struct Job {
        std::shared_ptr<const JudgeSetup> setup;
        std::vector<Sample> samples;
        std::vector<Component> components;
        std::vector<Cell> cells;
        // Where the calls are logged (an empty function: not logged): what opens the run
        // store's writing connection on the scorer's thread (StoreDocument::writer), the
        // store's path, and its evaluation run.
        StoreDocument::Connection log;
        QString logPath;
        qint64 runId = 0;
        qint64 step = 0;
        int batchSamples = 0; // samples per batch; 0: the judge's concurrency
    };

    explicit JudgeScorer(QObject *parent = nullptr);
    ~JudgeScorer() override;

    // Starts `job` (see the class comment when one runs). A job without cells finishes at once.
    void start(Job job);
    // Stops the job (and forgets one waiting to start); finished(cancelled = true) follows.
    void cancel();
    bool isRunning() const { return m_thread != nullptr; }

Q_SIGNALS:
    void started(int cells);
    // Results of one batch (a cell of the batch whose reward threw gets None and the message).
    void cellsScored(const std::vector<rwb::widgets::JudgeCellResult> &cells);
    void progress(int done, int total);
    // A batch's decisions are in the store.
    void logged(const QString &storePath, qint64 runId);
    // `failures`: cells that got None; `message`: the first error (a judge that did not
    // answer names its URL) or a store that could not be written; "" when none.
    void finished(bool cancelled, int failures, const QString &message);

private:
    void launch(Job job);
    void threadDone();

    QThread *m_thread = nullptr;
    std::shared_ptr<const JudgeSetup> m_running; // the running job's setup (to cancel its client)
    std::atomic<bool> m_cancel{false};
    std::unique_ptr<Job> m_next;                 // starts when the running job has stopped
    // Written by the worker before its thread ends; read after.
    int m_failures = 0;
    QString m_message;
};

} // namespace rwb::widgets
