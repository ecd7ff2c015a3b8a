#include "engine/job.h"

#include <exception>

namespace rwb::engine {

void JobControl::pause()
{
    std::lock_guard lock(m_mutex);
    m_paused = true;
}

void JobControl::resume()
{
    {
        std::lock_guard lock(m_mutex);
        m_paused = false;
    }
    m_wake.notify_all();
}

void JobControl::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
}

bool JobControl::paused() const
{
    std::lock_guard lock(m_mutex);
    return m_paused;
}

bool JobControl::stopRequested() const
{
    std::lock_guard lock(m_mutex);
    return m_stop;
}

void JobControl::setRewardWeights(std::vector<double> weights)
{
    std::lock_guard lock(m_mutex);
    m_weights = std::move(weights);
}

bool JobControl::waitAtBoundary(const std::function<void()> &onPause)
{
    std::unique_lock lock(m_mutex);
    if (m_paused && !m_stop && onPause) {
        lock.unlock();
        onPause();
        lock.lock();
    }
    m_wake.wait(lock, [this] { return !m_paused || m_stop; });
    return !m_stop;
}

std::optional<std::vector<double>> JobControl::takeRewardWeights()
{
    std::lock_guard lock(m_mutex);
    std::optional<std::vector<double>> w;
    w.swap(m_weights);
    return w;
}

const char *toString(JobStatus status)
{
    switch (status) {
    case JobStatus::Finished:
        return "finished";
    case JobStatus::Stopped:
        return "stopped";
    case JobStatus::Failed:
        return "failed";
    }
    return "failed";
}

EventSink::~EventSink() = default;
void EventSink::started(int64_t, int64_t) {}
void EventSink::step(const StepReport &) {}
void EventSink::log(const std::string &) {}
void EventSink::paused(int64_t) {}
void EventSink::weightsChanged(int64_t, const std::vector<double> &) {}
void EventSink::error(const std::string &) {}
void EventSink::finished(const JobOutcome &) {}

Job::Job(Work work, EventSink &sink) : m_work(std::move(work)), m_sink(sink) {}

Job::~Job()
{
    m_control.stop();
    if (m_thread.joinable())
        m_thread.join();
}

void Job::start()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_running || m_thread.joinable())
            return;
        m_running = true;
    }
    m_thread = std::thread([this] {
        JobOutcome outcome;
        try {
            outcome = m_work(m_control, m_sink);
        } catch (const std::exception &e) {
            outcome.status = JobStatus::Failed;
            outcome.message = e.what();
            m_sink.error(outcome.message);
        } catch (...) {
            outcome.status = JobStatus::Failed;
            outcome.message = "unknown error";
            m_sink.error(outcome.message);
        }
        {
            std::lock_guard lock(m_mutex);
            m_outcome = outcome;
        }
        m_sink.finished(outcome);
        std::lock_guard lock(m_mutex);
        m_running = false;
    });
}

void Job::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool Job::running() const
{
    std::lock_guard lock(m_mutex);
    return m_running;
}

} // namespace rwb::engine
