#include "runsession.h"

#include "store/runstore.h"
#include "task/catalog.h"
#include "tasks/user/usertask.h"

#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <exception>

namespace rwb::widgets {

std::unique_ptr<RunSession> RunSession::open(std::shared_ptr<StoreDocument> document, qint64 runId, QString *error)
{
    const QString storePath = document->path();
    try {
        store::RunInfo info = document->store().run(runId);
        return std::unique_ptr<RunSession>(new RunSession(std::move(document), runId, std::move(info)));
    } catch (const std::exception &e) {
        if (error)
            *error = tr("%1: cannot show run %2: %3").arg(storePath).arg(runId).arg(QString::fromUtf8(e.what()));
        return nullptr;
    }
}

std::unique_ptr<RunSession> RunSession::open(const QString &storePath, qint64 runId, QString *error)
{
    QString why;
    std::shared_ptr<StoreDocument> document = StoreDocument::open(storePath, &why);
    if (!document) {
        if (error)
            *error = tr("%1: cannot show run %2: %3").arg(storePath).arg(runId).arg(why);
        return nullptr;
    }
    return open(std::move(document), runId, error);
}

namespace {

// The run's task: the catalog's, or a user's task its stored configs describe (installed).
const task::Task *taskOf(const StoreDocument &document, qint64 runId, const store::RunInfo &info)
{
    std::vector<std::string> configs{info.configJson};
    try {
        for (const store::RewardConfigVersion &v : document.store().rewardConfigs(runId))
            configs.push_back(v.configJson);
    } catch (const std::exception &) {
        // An older store without versions: the run's own config alone.
    }
    return task::findOrInstallTask(info.task, configs);
}

} // namespace

RunSession::RunSession(std::shared_ptr<StoreDocument> document, qint64 runId, store::RunInfo info)
    : m_document(std::move(document))
    , m_runId(runId)
    , m_info(std::move(info))
    , m_task(taskOf(*m_document, runId, m_info))
    , m_followTimer(new QTimer(this))
    , m_rowsTimer(new QTimer(this))
{
    m_followTimer->setInterval(1000);
    m_rowsTimer->setInterval(1000);
    connect(m_followTimer, &QTimer::timeout, this, &RunSession::poll);
    connect(m_rowsTimer, &QTimer::timeout, this, &RunSession::rowsAdded);
    if (m_info.status == "running") {
        m_followedStep = m_info.lastStep;
        m_followTimer->start();
    }
}

RunSession::~RunSession() = default;

QString RunSession::headlineMetric() const
{
    return m_task ? QStringLiteral("eval/") + QString::fromUtf8(m_task->headlineMetric().data(),
                                                               static_cast<qsizetype>(m_task->headlineMetric().size()))
                  : QString();
}

bool RunSession::isFollowing() const
{
    return m_followTimer->isActive();
}

void RunSession::beginLive()
{
    m_followTimer->stop();
    m_live = true;
    m_rowsTimer->start();
}

void RunSession::addLiveStep(const TrainingStep &step)
{
    if (step.runId == m_runId)
        Q_EMIT stepAdded(step);
}

void RunSession::endLive(const QString &status, const QString &message)
{
    m_rowsTimer->stop();
    try {
        m_info = store().run(m_runId);
    } catch (const std::exception &e) {
        Q_EMIT problem(QString::fromUtf8(e.what()));
    }
    // Still live while the views hear the end (isLive() tells them it was this window's run).
    Q_EMIT rowsAdded();
    Q_EMIT ended(status, message);
    m_live = false;
}

void RunSession::poll()
{
    std::vector<store::MetricPoint> points;
    try {
        m_info = store().run(m_runId);
        if (m_info.lastStep > m_followedStep)
            points = store().metrics(m_runId, {}, m_followedStep);
    } catch (const std::exception &e) {
        // The writer may hold the file for a moment; a store that went away ends the follow.
        if (!QFileInfo::exists(storePath())) {
            m_followTimer->stop();
            Q_EMIT problem(QString::fromUtf8(e.what()));
        }
        return;
    }
    // Each new step as the live training's steps come.
    for (size_t i = 0; i < points.size();) {
        TrainingStep step;
        step.runId = m_runId;
        step.step = points[i].step;
        for (; i < points.size() && points[i].step == step.step; ++i)
            step.metrics.append({QString::fromStdString(points[i].name), points[i].value});
        m_followedStep = std::max(m_followedStep, step.step);
        Q_EMIT stepAdded(step);
    }
    if (!points.empty() || m_info.status != "running")
        Q_EMIT rowsAdded();
    if (m_info.status != "running") {
        m_followTimer->stop();
        Q_EMIT ended(QString::fromStdString(m_info.status), QString::fromStdString(m_info.message));
    }
}

} // namespace rwb::widgets
