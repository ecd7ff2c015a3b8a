#pragma once

#include "storedocument.h"
#include "trainingcontroller.h"

#include "store/storetypes.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

class QTimer;

namespace rwb::store {
class RunStore;
}
namespace rwb::task {
class Task;
}

namespace rwb::widgets {

// The run the workbench shows, as a document (Tiled's Document to its editors): one run of
// one store file (its StoreDocument, whose read-only connection the GUI thread reads
// through), and what changed. The views bind to it (RunView) and read what they show
// through store(); none opens the file itself. A run that is still being written is followed: this window's own training
// hands its steps in (beginLive, addLiveStep, endLive), a run another process writes
// (`rwb grpo`, `rwb serve`) is polled once a second. Either way the views hear the same
// signals: stepAdded for each new step's metrics, rowsAdded when rollouts or judge calls
// may have arrived, ended when the run stops being written. GUI thread only.
class RunSession : public QObject {
    Q_OBJECT
public:
    // Opens run `runId` of the store at `storePath` read-only. Null with `error` naming the
    // file and the run when the file does not open or has no such run. A run whose status
    // is "running" is followed as another process's until beginLive says it is this one's.
    static std::unique_ptr<RunSession> open(std::shared_ptr<StoreDocument> document, qint64 runId, QString *error);
    // The same, opening the store's document first.
    static std::unique_ptr<RunSession> open(const QString &storePath, qint64 runId, QString *error);
    ~RunSession() override;

    const std::shared_ptr<StoreDocument> &document() const { return m_document; }
    QString storePath() const { return m_document->path(); }
    qint64 runId() const { return m_runId; }
    // As read at open and at each poll.
    const store::RunInfo &info() const { return m_info; }
    // The one connection of the GUI thread (the document's); read-only.
    const store::RunStore &store() const { return m_document->store(); }
    // What a worker thread (a view's background loader) calls to get a read-only
    // connection of its own (SQLite connections are not shared between threads); it may
    // outlive the session. The function throws store::StoreError.
    using Reader = StoreDocument::Connection;
    Reader reader() const { return m_document->reader(); }
    // The run's task in the process's catalog; null when this build lacks it.
    const task::Task *task() const { return m_task; }
    // The name of its headline metric as stored ("eval/f1"; "" when the task is unknown).
    QString headlineMetric() const;

    // Whether another process is writing the run (polled).
    bool isFollowing() const;
    // This process's trainer writes the run: polling for steps stops; rowsAdded comes once
    // a second until endLive.
    void beginLive();
    void addLiveStep(const TrainingStep &step);
    // The run ended: rowsAdded and ended (isLive() still true while they are handled).
    void endLive(const QString &status, const QString &message);
    bool isLive() const { return m_live; }

Q_SIGNALS:
    void stepAdded(const rwb::widgets::TrainingStep &step);
    void rowsAdded();
    void ended(const QString &status, const QString &message);
    // A problem while following (the file went away), for the log.
    void problem(const QString &message);

private:
    RunSession(std::shared_ptr<StoreDocument> document, qint64 runId, store::RunInfo info);
    void poll();

    std::shared_ptr<StoreDocument> m_document;
    qint64 m_runId = 0;
    store::RunInfo m_info;
    const task::Task *m_task = nullptr;
    QTimer *m_followTimer = nullptr; // another process's run: steps and rows
    QTimer *m_rowsTimer = nullptr;   // this process's run: rows
    qint64 m_followedStep = -1;      // the last step the views have
    bool m_live = false;
};

// A view of the open run: the curves, the group advantages, the rollouts, the failures,
// the judge decisions. setSession(null) empties it. The session outlives the binding (the
// main window drops the views' bindings before it deletes a session).
class RunView {
public:
    virtual ~RunView() = default;
    // Shows the session's run and follows its signals; false with `error` (what the view
    // could not show; it is then empty).
    virtual bool setSession(RunSession *session, QString *error) = 0;
};

} // namespace rwb::widgets
