#pragma once

#include <QObject>
#include <QString>
#include <QVector>
#include <memory>
#include <utility>

namespace rwb::engine {
class Job;
}
namespace rwb::train {
struct GrpoConfig;
}

namespace rwb::widgets {

// One finished training step as the GUI sees it (a copy of engine::StepReport).
struct TrainingStep {
    qint64 runId = 0;
    qint64 step = 0; // 0: the evaluation before training
    qint64 totalSteps = 0;
    QVector<std::pair<QString, double>> metrics; // TRL names: "reward", "kl", "eval/f1", …
    int rolloutsWritten = 0;
    double elapsedSeconds = 0.0;
    double etaSeconds = 0.0;
    double tokensPerSecond = 0.0;

    // The value of a metric, or NaN when the step did not log it.
    double value(const QString &name) const;
};

// The Qt bridge to a training job (DESIGN.md, Threads): runs a GRPO job on its worker
// thread, implements the engine's event sink by posting every event to the thread the
// controller lives in, and forwards pause / resume / stop / new weights to the job's
// control block (they take effect at the next step boundary). One job at a time.
class TrainingController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Stopping };
    Q_ENUM(State)

    explicit TrainingController(QObject *parent = nullptr);
    ~TrainingController() override; // asks a running job to stop and waits for it

    // Starts a GRPO run. Returns false (and emits nothing) when a job is already running.
    // Bad inputs (files, configs) surface as failed() then finished("failed", …).
    bool startGrpo(const rwb::train::GrpoConfig &config);
    State state() const { return m_state; }
    qint64 runId() const { return m_runId; }
    bool isActive() const { return m_state != State::Idle; }

public Q_SLOTS:
    void pause();
    void resume();
    void stop();
    // New weights in the running reward config's component order.
    void setRewardWeights(const QVector<double> &weights);

Q_SIGNALS:
    void started(qint64 runId, qint64 totalSteps);
    void stepFinished(const rwb::widgets::TrainingStep &step);
    void logLine(const QString &line);
    void pausedAt(qint64 step);
    void weightsApplied(qint64 atStep, const QVector<double> &weights);
    void failed(const QString &message);
    // status: "finished", "stopped" or "failed".
    void finished(const QString &status, const QString &message);
    void stateChanged(rwb::widgets::TrainingController::State state);

private:
    class Sink;
    void setState(State state);
    void jobEnded(const QString &status, const QString &message);

    std::unique_ptr<Sink> m_sink;
    std::unique_ptr<engine::Job> m_job;
    State m_state = State::Idle;
    qint64 m_runId = 0;
};

} // namespace rwb::widgets

Q_DECLARE_METATYPE(rwb::widgets::TrainingStep)
