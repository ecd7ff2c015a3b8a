#include "judgescorer.h"

#include "judgesetup.h"

#include "judge/judgeclient.h"
#include "store/runstore.h"

#include <nlohmann/json.hpp>

#include <QDeadlineTimer>
#include <QMetaObject>
#include <QThread>

#include <algorithm>
#include <map>

namespace rwb::widgets {

namespace {

// The first error among a cell's decisions ("" when none).
QString firstError(const std::vector<reward::JudgeDecision> &decisions)
{
    for (const reward::JudgeDecision &d : decisions)
        if (!d.error.empty())
            return QString::fromStdString(d.error);
    return {};
}

} // namespace

JudgeScorer::JudgeScorer(QObject *parent) : QObject(parent) {}

JudgeScorer::~JudgeScorer()
{
    m_next.reset();
    if (m_thread) {
        m_cancel = true;
        // Cancelled again while it runs: a call caught between taking its connection and
        // sending misses the first cut (JsonHttpClient::cancel).
        do {
            if (m_running)
                m_running->cancelSending();
        } while (!m_thread->wait(QDeadlineTimer(100)));
        delete m_thread;
        if (m_running)
            m_running->resumeSending();
    }
}

void JudgeScorer::start(Job job)
{
    if (m_thread) {
        m_next = std::make_unique<Job>(std::move(job));
        m_cancel = true;
        if (m_running)
            m_running->cancelSending();
        return;
    }
    launch(std::move(job));
}

void JudgeScorer::cancel()
{
    m_next.reset();
    if (!m_thread)
        return;
    m_cancel = true;
    if (m_running)
        m_running->cancelSending();
}

void JudgeScorer::launch(Job job)
{
    m_cancel = false;
    m_failures = 0;
    m_message.clear();
    m_running = job.setup;
    const int total = static_cast<int>(job.cells.size());
    if (total == 0 || !job.setup) {
        m_running.reset();
        Q_EMIT started(0);
        Q_EMIT finished(false, 0, QString());
        return;
    }
    m_thread = QThread::create([this, job = std::move(job), total] {
        // The cells by sample, in sample order, so that a batch is a few samples with
        // every component asked of them.
        std::vector<std::vector<const Cell *>> bySample(job.samples.size());
        for (const Cell &c : job.cells)
            bySample[static_cast<size_t>(c.sample)].push_back(&c);
        std::vector<int> order;
        for (size_t s = 0; s < bySample.size(); ++s)
            if (!bySample[s].empty())
                order.push_back(static_cast<int>(s));

        std::shared_ptr<const judge::JudgeClient> client;
        try {
            client = job.setup->client();
        } catch (const std::exception &e) {
            // No judge at all: every cell is None, with the reason.
            auto cells = std::make_shared<std::vector<JudgeCellResult>>();
            for (const Cell &c : job.cells) {
                JudgeCellResult r;
                r.row = job.samples[static_cast<size_t>(c.sample)].row;
                r.component = job.components[static_cast<size_t>(c.component)].index;
                r.version = c.version;
                r.reason = QString::fromStdString(e.what());
                cells->push_back(std::move(r));
            }
            m_failures = total;
            m_message = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(
                this, [this, cells, total] {
                    Q_EMIT cellsScored(*cells);
                    Q_EMIT progress(total, total);
                },
                Qt::QueuedConnection);
            return;
        }
        if (m_cancel.load())
            return;
        const int perBatch = job.batchSamples > 0 ? job.batchSamples : std::max(1, client->options().concurrency);
        std::unique_ptr<store::RunStore> log;
        if (job.log) {
            try {
                log = job.log();
            } catch (const std::exception &e) {
                m_message = QString::fromStdString(e.what());
            }
        }
        int done = 0;
        for (size_t first = 0; first < order.size() && !m_cancel.load(); first += static_cast<size_t>(perBatch)) {
            const size_t last = std::min(order.size(), first + static_cast<size_t>(perBatch));
            auto cells = std::make_shared<std::vector<JudgeCellResult>>();
            for (size_t ci = 0; ci < job.components.size() && !m_cancel.load(); ++ci) {
                const Component &component = job.components[ci];
                // This component's cells among the batch's samples.
                std::vector<const Cell *> asked;
                for (size_t k = first; k < last; ++k)
                    for (const Cell *c : bySample[static_cast<size_t>(order[k])])
                        if (c->component == static_cast<int>(ci))
                            asked.push_back(c);
                if (asked.empty())
                    continue;
                const auto result = [&](const Cell &c) {
                    JudgeCellResult r;
                    r.row = job.samples[static_cast<size_t>(c.sample)].row;
                    r.component = component.index;
                    r.version = c.version;
                    return r;
                };
                std::shared_ptr<const reward::Reward> reward;
                try {
                    reward = job.setup->reward(component.name, component.options);
                } catch (const std::exception &e) {
                    for (const Cell *c : asked) {
                        JudgeCellResult r = result(*c);
                        r.reason = QString::fromStdString(component.name + ": " + e.what());
                        cells->push_back(std::move(r));
                    }
                    continue;
                }
                // Samples the reward cannot judge (no rubric, no reference) are not asked.
                std::vector<const Cell *> judged;
                std::vector<const task::Example *> examples;
                std::vector<const task::Completion *> completions;
                for (const Cell *c : asked) {
                    const Sample &s = job.samples[static_cast<size_t>(c->sample)];
                    try {
                        reward->checkExample(*s.example);
                    } catch (const std::exception &e) {
                        JudgeCellResult r = result(*c);
                        r.status = JudgeCellResult::Status::NotApplicable;
                        r.reason = QString::fromStdString(e.what());
                        cells->push_back(std::move(r));
                        continue;
                    }
                    judged.push_back(c);
                    examples.push_back(s.example.get());
                    completions.push_back(s.completion.get());
                }
                if (judged.empty())
                    continue;
                std::vector<double> values;
                reward::ScoreLog scoreLog;
                QString error;
                try {
                    reward->scoreBatch(examples, completions, values, &scoreLog);
                } catch (const std::exception &e) {
                    error = QString::fromStdString(component.name + ": " + e.what());
                    values.assign(judged.size(), reward::kNone);
                }
                std::vector<std::vector<reward::JudgeDecision>> decisions(judged.size());
                for (reward::JudgeDecision &d : scoreLog.take())
                    if (d.item < decisions.size())
                        decisions[d.item].push_back(std::move(d));
                for (size_t i = 0; i < judged.size(); ++i) {
                    JudgeCellResult r = result(*judged[i]);
                    r.value = values[i];
                    r.decisions = std::move(decisions[i]);
                    if (reward::isNone(r.value))
                        r.reason = error.isEmpty() ? firstError(r.decisions) : error;
                    cells->push_back(std::move(r));
                }
            }
            if (m_cancel.load())
                break; // calls kept back make Nones that are not the judge's: drop the batch
            for (const JudgeCellResult &r : *cells)
                if (r.status == JudgeCellResult::Status::Scored && reward::isNone(r.value)) {
                    ++m_failures;
                    if (m_message.isEmpty())
                        m_message = r.reason;
                }
            done += static_cast<int>(cells->size());
            bool written = false;
            if (log) {
                // One evaluation prediction per sample, with every judge call made for it.
                std::map<int, store::EvalPrediction> predictions; // by row
                std::map<int, nlohmann::json> values;
                for (size_t k = first; k < last; ++k) {
                    const Sample &s = job.samples[static_cast<size_t>(order[k])];
                    store::EvalPrediction &p = predictions[s.row];
                    p.exampleId = s.example->id();
                    p.prediction = s.completion->answer();
                    p.gold = s.example->goldText();
                    const std::string details = s.completion->detailsJson();
                    p.detailsJson = details.empty() ? "{}" : details;
                }
                for (const JudgeCellResult &r : *cells) {
                    const std::string name = [&] {
                        for (const Component &c : job.components)
                            if (c.index == r.component)
                                return c.name;
                        return std::string();
                    }();
                    if (r.status == JudgeCellResult::Status::Scored)
                        values[r.row][name] = reward::isNone(r.value) ? nlohmann::json(nullptr) : nlohmann::json(r.value);
                    auto &d = predictions[r.row].judgeDecisions;
                    for (reward::JudgeDecision x : r.decisions) {
                        x.item = 0;
                        d.push_back(std::move(x));
                    }
                }
                std::vector<store::EvalPrediction> rows;
                for (auto &[row, p] : predictions) {
                    p.rewardsJson = values[row].is_null() ? "{}" : values[row].dump();
                    rows.push_back(std::move(p));
                }
                try {
                    log->writeEvalPredictions(job.runId, job.step, rows);
                    written = true;
                } catch (const std::exception &e) {
                    if (m_message.isEmpty())
                        m_message = QString::fromStdString(e.what());
                    log.reset(); // one message is enough: stop logging this job
                }
            }
            const QString storePath = job.logPath;
            const qint64 runId = job.runId;
            QMetaObject::invokeMethod(
                this, [this, cells, done, total, written, storePath, runId] {
                    Q_EMIT cellsScored(*cells);
                    Q_EMIT progress(done, total);
                    if (written)
                        Q_EMIT logged(storePath, runId);
                },
                Qt::QueuedConnection);
        }
    });
    connect(m_thread, &QThread::finished, this, &JudgeScorer::threadDone);
    m_thread->start();
    Q_EMIT started(total); // isRunning() is true from here
}

void JudgeScorer::threadDone()
{
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    if (m_running)
        m_running->resumeSending(); // nothing of the stopped job is still sending
    m_running.reset();
    if (m_next) {
        std::unique_ptr<Job> next = std::move(m_next);
        launch(std::move(*next));
        return;
    }
    const bool cancelled = m_cancel.load();
    Q_EMIT finished(cancelled, m_failures, m_message);
}

} // namespace rwb::widgets
