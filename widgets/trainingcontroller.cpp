#include "trainingcontroller.h"

#include "engine/job.h"
#include "train/grpo.h"

#include <QMetaObject>
#include <QPointer>
#include <cmath>
#include <limits>

namespace rwb::widgets {

double TrainingStep::value(const QString &name) const
{
    for (const auto &[n, v] : metrics)
        if (n == name)
            return v;
    return std::numeric_limits<double>::quiet_NaN();
}

// Runs on the worker thread: copies each event and posts it to the controller's thread.
class TrainingController::Sink : public engine::EventSink {
public:
    explicit Sink(TrainingController *owner) : m_owner(owner) {}

    void started(int64_t runId, int64_t totalSteps) override
    {
        post([runId, totalSteps](TrainingController *c) {
            c->m_runId = runId;
            Q_EMIT c->started(runId, totalSteps);
        });
    }
    void step(const engine::StepReport &r) override
    {
        TrainingStep s;
        s.runId = r.runId;
        s.step = r.step;
        s.totalSteps = r.totalSteps;
        for (const auto &[name, value] : r.metrics)
            s.metrics.append({QString::fromStdString(name), value});
        s.rolloutsWritten = r.rolloutsWritten;
        s.elapsedSeconds = r.elapsedSeconds;
        s.etaSeconds = r.etaSeconds;
        s.tokensPerSecond = r.tokensPerSecond;
        post([s](TrainingController *c) { Q_EMIT c->stepFinished(s); });
    }
    void log(const std::string &line) override
    {
        post([l = QString::fromStdString(line)](TrainingController *c) { Q_EMIT c->logLine(l); });
    }
    void paused(int64_t atStep) override
    {
        post([atStep](TrainingController *c) {
            c->setState(State::Paused);
            Q_EMIT c->pausedAt(atStep);
        });
    }
    void weightsChanged(int64_t atStep, const std::vector<double> &weights) override
    {
        QVector<double> w(weights.begin(), weights.end());
        post([atStep, w](TrainingController *c) { Q_EMIT c->weightsApplied(atStep, w); });
    }
    void error(const std::string &message) override
    {
        post([m = QString::fromStdString(message)](TrainingController *c) { Q_EMIT c->failed(m); });
    }
    void finished(const engine::JobOutcome &o) override
    {
        post([s = QString::fromLatin1(engine::toString(o.status)), m = QString::fromStdString(o.message)](
                 TrainingController *c) { c->jobEnded(s, m); });
    }

private:
    template <typename F>
    void post(F f)
    {
        // Queued: runs on the controller's thread; dropped if the controller is gone.
        QMetaObject::invokeMethod(
            m_owner, [o = QPointer<TrainingController>(m_owner), f] {
                if (o)
                    f(o.data());
            },
            Qt::QueuedConnection);
    }
    TrainingController *m_owner;
};

TrainingController::TrainingController(QObject *parent) : QObject(parent), m_sink(std::make_unique<Sink>(this))
{
    qRegisterMetaType<rwb::widgets::TrainingStep>();
}

TrainingController::~TrainingController()
{
    m_job.reset(); // stops at the next boundary and joins
}

bool TrainingController::startGrpo(const train::GrpoConfig &config)
{
    if (m_state != State::Idle)
        return false;
    m_job.reset(); // the previous, finished job's thread
    m_job = std::make_unique<engine::Job>(
        [config](engine::JobControl &control, engine::EventSink &sink) { return train::runGrpo(config, control, sink); },
        *m_sink);
    m_runId = 0;
    setState(State::Running);
    m_job->start();
    return true;
}

void TrainingController::pause()
{
    if (m_state == State::Running && m_job)
        m_job->control().pause();
}

void TrainingController::resume()
{
    if (!m_job || (m_state != State::Paused && m_state != State::Running))
        return;
    m_job->control().resume();
    setState(State::Running);
}

void TrainingController::stop()
{
    if (!m_job || m_state == State::Idle)
        return;
    m_job->control().stop();
    setState(State::Stopping);
}

void TrainingController::setRewardWeights(const QVector<double> &weights)
{
    if (m_job && m_state != State::Idle)
        m_job->control().setRewardWeights(std::vector<double>(weights.begin(), weights.end()));
}

void TrainingController::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    Q_EMIT stateChanged(state);
}

void TrainingController::jobEnded(const QString &status, const QString &message)
{
    if (m_job)
        m_job->wait(); // the thread is past finished(): joins at once
    setState(State::Idle);
    Q_EMIT finished(status, message);
}

} // namespace rwb::widgets
