#include "rescorerunner.h"

#include "data/jsonl.h"
#include "store/runstore.h"

#include <QThread>

#include <chrono>

namespace rwb::widgets {

namespace {
// Progress signals at most this often (the last one always comes).
constexpr std::chrono::milliseconds kProgressInterval{50};
} // namespace

RescoreRunner::RescoreRunner(QObject *parent) : QObject(parent) {}

RescoreRunner::~RescoreRunner()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->requestInterruption();
        m_thread->wait();
        delete m_thread;
    }
}

bool RescoreRunner::start(StoreDocument::Connection reader, train::RescoreScope scope, const task::Task *task,
                          reward::RewardConfig config, QString source)
{
    if (m_thread)
        return false;
    m_cancel = false;
    m_cancelled = false;
    m_result.reset();
    m_message.clear();
    m_thread = QThread::create([this, reader = std::move(reader), scope = std::move(scope), task, config = std::move(config),
                                source = source.toStdString()] {
        using Clock = std::chrono::steady_clock;
        Clock::time_point last{};
        try {
            const std::unique_ptr<store::RunStore> store = reader();
            auto result = std::make_shared<train::RescoreResult>(
                train::rescore(*store, scope, task, config, source, [&](size_t done, size_t total) {
                    const Clock::time_point now = Clock::now();
                    // (total 0: still collecting the rollouts; the bar stays busy)
                    if (total > 0 && (done >= total || now - last >= kProgressInterval)) {
                        last = now;
                        QMetaObject::invokeMethod(
                            this, [this, done, total] { Q_EMIT progress(qint64(done), qint64(total)); },
                            Qt::QueuedConnection);
                    }
                    return !m_cancel.load() && !QThread::currentThread()->isInterruptionRequested();
                }));
            m_cancelled = result->cancelled;
            if (!m_cancelled)
                m_result = std::move(result);
        } catch (const data::InputException &e) {
            m_message = QString::fromStdString(e.error().toString());
        } catch (const std::exception &e) {
            m_message = QString::fromStdString(e.what());
        }
    });
    connect(m_thread, &QThread::finished, this, &RescoreRunner::threadDone);
    m_thread->start();
    return true;
}

void RescoreRunner::cancel()
{
    m_cancel = true;
}

void RescoreRunner::threadDone()
{
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    Q_EMIT finished(m_result != nullptr, m_cancelled, m_message);
}

} // namespace rwb::widgets
