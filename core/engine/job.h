#pragma once

// Background jobs (training, evaluation) with a control handle and an event sink. No Qt:
// the workbench adapts EventSink to queued signals; the CLI prints from it.
//
// Threads: a Job runs its work on one worker thread. JobControl is thread-safe (any
// thread may pause, resume, stop or change weights; the worker reads them at step
// boundaries). EventSink methods are called on the worker thread, in order.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace rwb::engine {

// What the user asks of a running job. Requests take effect at the next step boundary.
class JobControl {
public:
    void pause();
    void resume();
    void stop(); // also ends a pause
    bool paused() const;
    bool stopRequested() const;
    // New reward weights, in the reward config's component order; applied before the
    // next step and recorded in the run store with that step. A later call before the
    // boundary replaces an earlier one.
    void setRewardWeights(std::vector<double> weights);

    // ---- the worker's side ----
    // Blocks while paused; returns false when a stop was requested. `onPause` is called
    // once when the wait begins (to report it).
    bool waitAtBoundary(const std::function<void()> &onPause = {});
    std::optional<std::vector<double>> takeRewardWeights();

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_paused = false;
    bool m_stop = false;
    std::optional<std::vector<double>> m_weights;
};

// One training step, as reported to the sink.
struct StepReport {
    int64_t runId = 0;
    int64_t step = 0;        // 1-based optimizer step (0: the evaluation before training)
    int64_t totalSteps = 0;
    std::vector<std::pair<std::string, double>> metrics; // TRL names ("reward", "kl", …)
    int rolloutsWritten = 0;
    double elapsedSeconds = 0.0;
    double etaSeconds = 0.0;
    double tokensPerSecond = 0.0; // prompt + completion tokens through the policy, per second
};

enum class JobStatus { Finished, Stopped, Failed };
const char *toString(JobStatus status);

struct JobOutcome {
    JobStatus status = JobStatus::Finished;
    std::string message;   // why it failed or stopped ("" when finished)
    int64_t runId = 0;     // the run in the store (0 when none)
    int64_t lastStep = 0;  // the last step written
};

// Receives what a job does. Default implementations ignore everything.
class EventSink {
public:
    virtual ~EventSink();
    virtual void started(int64_t runId, int64_t totalSteps);
    virtual void step(const StepReport &report);
    virtual void log(const std::string &line);
    virtual void paused(int64_t atStep);
    virtual void weightsChanged(int64_t atStep, const std::vector<double> &weights);
    // A failure that ends the job (a NaN loss, a store that cannot be written, …), just
    // before finished() reports the Failed outcome with the same message.
    virtual void error(const std::string &message);
    virtual void finished(const JobOutcome &outcome);
};

// Runs `work` on a worker thread. An exception escaping `work` becomes a Failed outcome
// whose message is the exception's text (reported through error() first); finished() is
// always called exactly once.
class Job {
public:
    using Work = std::function<JobOutcome(JobControl &, EventSink &)>;
    Job(Work work, EventSink &sink);
    ~Job(); // requests a stop and joins
    Job(const Job &) = delete;
    Job &operator=(const Job &) = delete;

    void start();
    void wait();
    bool running() const;
    JobControl &control() { return m_control; }
    // Valid after wait() (or once finished() was called).
    const JobOutcome &outcome() const { return m_outcome; }

private:
    Work m_work;
    EventSink &m_sink;
    JobControl m_control;
    JobOutcome m_outcome;
    std::thread m_thread;
    mutable std::mutex m_mutex;
    bool m_running = false;
};

} // namespace rwb::engine
