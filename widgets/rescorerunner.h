#pragma once

#include "storedocument.h"

#include "reward/rewardconfig.h"
#include "train/rescore.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

class QThread;

namespace rwb::widgets {

// Runs one what-if re-score (train::rescore) at a time on its own thread, with a read-only
// connection of its own (StoreDocument::reader()). Progress reaches the runner's thread as
// queued signals, at most 20 a second (the last always comes); finished() comes once per
// job. cancel() stops it between batches of rollouts (a judge call in flight ends first)
// or while it collects them; it then finishes with cancelled = true. The destructor
// cancels and waits. GUI thread.
class RescoreRunner : public QObject {
    Q_OBJECT
public:
    explicit RescoreRunner(QObject *parent = nullptr);
    ~RescoreRunner() override;

    // False (nothing emitted) while a job runs. `task` is the run's, resolved on this
    // thread beforehand (train::rescoreTaskOf: it may install it in the task catalog,
    // which the worker must not see happen).
    bool start(StoreDocument::Connection reader, train::RescoreScope scope, const task::Task *task,
               reward::RewardConfig config, QString source);
    bool isRunning() const { return m_thread != nullptr; }
    // The last finished job's result (null before one, or after a failure or a cancel).
    std::shared_ptr<const train::RescoreResult> result() const { return m_result; }

public Q_SLOTS:
    void cancel();

Q_SIGNALS:
    void progress(qint64 done, qint64 total);
    // ok false: `message` says why (a config that does not build, the store), or cancelled.
    void finished(bool ok, bool cancelled, const QString &message);

private:
    void threadDone();

    QThread *m_thread = nullptr;
    std::atomic<bool> m_cancel{false};
    // Written by the worker before its thread ends; read after.
    std::shared_ptr<const train::RescoreResult> m_result;
    bool m_cancelled = false;
    QString m_message;
};

} // namespace rwb::widgets
