#include "trainingactions.h"

#include "curvepanel.h"
#include "jobrunner.h"
#include "outputfolder.h"
#include "rewarddesigner.h"
#include "runsession.h"
#include "storedocument.h"
#include "runsetupform.h"
#include "trainingcontroller.h"

#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "train/grpo.h"
#include "util/duration.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QKeySequence>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>

#include <cmath>
#include <utility>

using namespace rwb::widgets;


TrainingActions::TrainingActions(QWidget *window, Views views, std::function<const std::optional<Workspace> &()> workspace,
                                 std::function<RunSession *()> session,
                                 std::function<bool(const QString &, const QString &)> confirm)
    : QObject(window)
    , m_window(window)
    , m_views(views)
    , m_workspace(std::move(workspace))
    , m_session(std::move(session))
    , m_confirm(std::move(confirm))
    , m_controller(new TrainingController(this))
    , m_start(new QAction(QApplication::style()->standardIcon(QStyle::SP_MediaPlay), QString(), this))
    , m_pause(new QAction(QApplication::style()->standardIcon(QStyle::SP_MediaPause), QString(), this))
    , m_resume(new QAction(QApplication::style()->standardIcon(QStyle::SP_MediaSeekForward), QString(), this))
    , m_stop(new QAction(QApplication::style()->standardIcon(QStyle::SP_MediaStop), QString(), this))
    , m_status(new QLabel(window))
    , m_progress(new QProgressBar(window))
{
    m_start->setObjectName(QStringLiteral("startTraining"));
    m_pause->setObjectName(QStringLiteral("pauseTraining"));
    m_resume->setObjectName(QStringLiteral("resumeTraining"));
    m_stop->setObjectName(QStringLiteral("stopTraining"));
    m_start->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(m_start, &QAction::triggered, this, &TrainingActions::startFromForm);
    connect(m_pause, &QAction::triggered, this, &TrainingActions::pause);
    connect(m_resume, &QAction::triggered, this, &TrainingActions::resume);
    connect(m_stop, &QAction::triggered, this, &TrainingActions::stop);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_progress->setObjectName(QStringLiteral("stepProgress"));
    m_progress->setMaximumWidth(160);
    m_progress->hide();

    RewardDesigner *designer = m_views.designer;
    connect(designer, &RewardDesigner::applyToRunRequested, this, &TrainingActions::onApplyWeightsRequested);
    connect(designer, &RewardDesigner::configLoaded, this, &TrainingActions::syncFormRewardConfig);
    // The training setup says which judge the run will call: the Designer's.
    connect(designer, &RewardDesigner::judgeChanged, this, &TrainingActions::syncFormRewardConfig);
    connect(m_controller, &TrainingController::started, this, &TrainingActions::onStarted);
    connect(m_controller, &TrainingController::stepFinished, this, &TrainingActions::onStep);
    connect(m_controller, &TrainingController::weightsApplied, this, &TrainingActions::onWeightsApplied);
    connect(m_controller, &TrainingController::finished, this, &TrainingActions::onFinished);
    connect(m_controller, &TrainingController::logLine, this, &TrainingActions::log);
    connect(m_controller, &TrainingController::failed, this, [this](const QString &m) {
        Q_EMIT log(tr("Error: %1").arg(m));
        Q_EMIT notice(tr("Training failed"), m);
    });
    connect(m_controller, &TrainingController::pausedAt, this,
            [this](qint64 step) { Q_EMIT statusMessage(tr("Paused after step %1").arg(step)); });
    connect(m_controller, &TrainingController::stateChanged, this, &TrainingActions::updateActions);
    connect(m_views.form, &RunSetupForm::validityChanged, this, &TrainingActions::updateActions);
    syncFormRewardConfig();
    retranslate();
    updateActions();
}

QList<QAction *> TrainingActions::runActions() const
{
    return {m_start, m_pause, m_resume, m_stop};
}

QList<QWidget *> TrainingActions::statusWidgets() const
{
    return {m_status, m_progress};
}

void TrainingActions::retranslate()
{
    m_start->setText(tr("&Start"));
    m_start->setToolTip(tr("Start GRPO training with the training setup and the Designer's reward weights"));
    m_pause->setText(tr("&Pause"));
    m_pause->setToolTip(tr("Pause after the step in flight"));
    m_resume->setText(tr("&Resume"));
    m_stop->setText(tr("St&op"));
    m_stop->setToolTip(tr("Stop after the step in flight and save a checkpoint"));
}

void TrainingActions::setJobRunner(JobRunner *runner)
{
    m_jobs = runner;
    // A multi-process run's progress lines: the run to show, the step bar.
    connect(m_jobs, &JobRunner::progressData, this, [this](const QJsonObject &p) {
        if (!m_external)
            return;
        const qint64 runId = p.value(QStringLiteral("run_id")).toInteger();
        if (runId > 0 && m_externalRun != runId) {
            m_externalRun = runId;
            Q_EMIT runStarted(m_liveStorePath, runId);
        }
        const qint64 step = p.value(QStringLiteral("done")).toInteger();
        const qint64 total = p.value(QStringLiteral("total")).toInteger();
        m_progress->setRange(0, static_cast<int>(std::max<qint64>(1, total)));
        m_progress->setValue(static_cast<int>(step));
        m_progress->show();
        const QJsonValue eta = p.value(QStringLiteral("eta_seconds")); // rwb grpo's own estimate
        m_status->setText(tr("%1 · %2 processes · step %3/%4 · %5%6")
                              .arg(m_liveRunName)
                              .arg(m_views.form->processes())
                              .arg(step)
                              .arg(total)
                              .arg(p.value(QStringLiteral("detail")).toString())
                              .arg(eta.isDouble() && step > 0
                                       ? tr(" · ETA %1").arg(QString::fromStdString(rwb::util::formatDuration(eta.toDouble())))
                                       : QString()));
        if (step > 0)
            Q_EMIT stored();
    });
    connect(m_jobs, &JobRunner::finished, this, [this](bool ok, const QString &message) {
        if (!std::exchange(m_external, false))
            return;
        const QString status = m_jobs->result().value(QStringLiteral("status")).toString(ok ? QStringLiteral("finished")
                                                                                            : QStringLiteral("failed"));
        onFinished(status, ok ? m_jobs->result().value(QStringLiteral("message")).toString() : message);
    });
}

bool TrainingActions::startExternal(const rwb::train::GrpoConfig &config, int processes, QString *error)
{
    if (!m_jobs || m_jobs->isRunning()) {
        if (error)
            *error = tr("Another background job is running (Jobs dock): a run of several processes goes through the "
                        "job runner; cancel the job or wait for it.");
        return false;
    }
    // The config as `rwb grpo` reads it (paths absolute, the Designer's reward config
    // inline) and its control file, beside each other in the workspace's jobs folder.
    const std::optional<Workspace> &ws = m_workspace();
    const QDir dir(ws ? QDir(ws->dir()).filePath(QStringLiteral("jobs"))
                      : QFileInfo(QString::fromStdString(config.output)).absolutePath());
    dir.mkpath(QStringLiteral("."));
    const QString stem = dir.filePath(QStringLiteral("grpo-") +
                                      QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString configPath = stem + QStringLiteral(".json");
    m_controlPath = stem + QStringLiteral(".control.json");
    QFile::remove(m_controlPath);
    QSaveFile file(configPath);
    const QByteArray json = QByteArray::fromStdString(rwb::train::toJson(config));
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        if (error)
            *error = tr("%1: cannot write the run's config (%2)").arg(configPath, file.errorString());
        return false;
    }
    m_externalRun = 0;
    m_externalPaused = false;
    m_externalStopping = false;
    m_externalWeights.clear();
    m_external = true;
    const QStringList args{QStringLiteral("grpo"),  QStringLiteral("--config"),  configPath, QStringLiteral("--nproc"),
                           QString::number(processes), QStringLiteral("--control"), m_controlPath};
    if (!m_jobs->runCommand(tr("GRPO in %1 processes: %2").arg(processes).arg(m_liveRunName), args)) {
        m_external = false;
        if (error)
            *error = tr("Another background job is running.");
        return false;
    }
    m_status->setText(tr("%1: starting %2 processes…").arg(m_liveRunName).arg(processes));
    updateActions();
    return true;
}

bool TrainingActions::writeControl(bool withWeights)
{
    // The run applies every key of each new content: the weights go only in the write that
    // changes them (written again, the run would store the same weights as a new version).
    QJsonObject j;
    if (withWeights) {
        QJsonArray w;
        for (double v : std::as_const(m_externalWeights))
            w.append(v);
        j.insert(QStringLiteral("weights"), w);
    }
    j.insert(QStringLiteral("pause"), m_externalPaused);
    if (m_externalStopping)
        j.insert(QStringLiteral("stop"), true);
    // Whole, then renamed into place: the run never reads half a file.
    QSaveFile file(m_controlPath);
    const QByteArray bytes = QJsonDocument(j).toJson(QJsonDocument::Compact);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        Q_EMIT notice(tr("Training"), tr("%1: cannot write the run's control file (%2)").arg(m_controlPath, file.errorString()));
        return false;
    }
    return true;
}

void TrainingActions::pause()
{
    if (!m_external) {
        m_controller->pause();
        return;
    }
    m_externalPaused = true;
    if (writeControl())
        Q_EMIT statusMessage(tr("The run pauses after the step in flight"));
    updateActions();
}

void TrainingActions::resume()
{
    if (!m_external) {
        m_controller->resume();
        return;
    }
    m_externalPaused = false;
    writeControl();
    updateActions();
}

void TrainingActions::stop()
{
    if (!m_external) {
        m_controller->stop();
        return;
    }
    m_externalPaused = false;
    m_externalStopping = true;
    if (writeControl())
        Q_EMIT statusMessage(tr("The run stops after the step in flight"));
    updateActions();
}

bool TrainingActions::isTraining(const QString &storePath, qint64 runId) const
{
    return m_controller->isActive() && storePath == m_liveStorePath && runId == m_controller->runId();
}

bool TrainingActions::resumeRun(const QString &storePath, qint64 runId, QString *error)
{
    rwb::train::GrpoConfig config;
    try {
        const std::shared_ptr<rwb::widgets::StoreDocument> document = rwb::widgets::StoreDocument::get(storePath);
        const rwb::store::RunStore &store = document->store();
        const rwb::store::RunInfo info = store.run(runId);
        if (info.kind != "grpo") {
            if (error)
                *error = tr("Run %1 is a %2 run; only GRPO runs resume here.").arg(runId).arg(QString::fromStdString(info.kind));
            return false;
        }
        const auto checkpoints = store.checkpoints(runId);
        if (checkpoints.empty()) {
            if (error)
                *error = tr("Run %1 has no checkpoint to resume from.").arg(runId);
            return false;
        }
        // The stored config names its files absolutely; an older one resolves against the store's folder.
        config = rwb::train::parseGrpoConfig(info.configJson, storePath.toStdString());
        config.resumeFrom = checkpoints.back().path;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    return startTraining(config, error);
}

bool TrainingActions::startTrainingFromFile(const QString &path, QString *error)
{
    try {
        const rwb::train::GrpoConfig config = rwb::train::loadGrpoConfig(path.toStdString());
        m_views.form->setConfig(config);
        m_views.formDock->raise(); // the config in force, beside the curves
        return startTraining(config, error);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool TrainingActions::startTraining(const rwb::train::GrpoConfig &config, QString *error)
{
    return startTraining(config, error, /*fromDesigner=*/false);
}

bool TrainingActions::startTraining(const rwb::train::GrpoConfig &requested, QString *error, bool fromDesigner)
{
    if (m_controller->isActive() || m_external) {
        if (error)
            *error = tr("A training run is already in progress.");
        return false;
    }
    rwb::train::GrpoConfig config = requested;
    // A new run gets a folder of its own: one that already holds a run's checkpoints or
    // final adapter is left alone and the run writes beside it (OUTPUT-2, …). A resumed
    // run goes on in its own folder.
    if (config.resumeFrom.empty()) {
        const QString asked = QString::fromStdString(config.output);
        const QString fresh = freshOutputFolder(asked);
        if (fresh != asked) {
            config.output = fresh.toStdString();
            Q_EMIT log(tr("%1 already holds files; this run writes to %2").arg(QDir::toNativeSeparators(asked),
                                                                               QDir::toNativeSeparators(fresh)));
            // A config from a file shows in the form as the run goes: with its folder.
            if (!fromDesigner)
                m_views.form->setConfig(config);
        }
    }
    // The reward config as the trainer will read it.
    std::optional<rwb::reward::RewardConfig> reward;
    try {
        reward = rwb::train::rewardConfigOf(config, rwb::task::Catalog::builtin().rewards());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    // The Designer shows the weights the run starts with (a config from a file or a stored
    // run is loaded into it), and from now on edits reach the run only when confirmed.
    if (!fromDesigner) {
        QString loadError;
        if (!m_views.designer->setConfig(*reward, QString::fromStdString(rwb::train::rewardConfigSource(config)), &loadError))
            Q_EMIT log(loadError);
    }
    m_liveStorePath = QString::fromStdString(config.store);
    m_liveRunName = QString::fromStdString(config.runName);
    if (m_liveRunName.isEmpty()) // the trainer names it after its output folder
        m_liveRunName = QFileInfo(QString::fromStdString(config.output)).fileName();
    // More than one process: `rwb grpo --nproc` in the background, the views following its run.
    const int processes = fromDesigner ? m_views.form->processes() : 1;
    if (processes > 1) {
        if (!startExternal(config, processes, error))
            return false;
    } else if (!m_controller->startGrpo(config)) {
        if (error)
            *error = tr("A training run is already in progress.");
        return false;
    }
    m_views.designer->setRunningConfig(*reward);
    Q_EMIT log(tr("Starting GRPO: %1").arg(m_liveRunName));
    updateActions();
    return true;
}

// The form trains with the Designer's reward config, handed over as a value: no file is
// written for a run, and the judge is the Designer's.
void TrainingActions::syncFormRewardConfig()
{
    m_views.form->setRewardConfig(m_views.designer->currentConfig());
}

void TrainingActions::startFromForm()
{
    syncFormRewardConfig(); // the Designer's weights at this moment
    QStringList problems;
    if (!m_views.form->validate(&problems)) {
        m_views.formDock->show();
        m_views.formDock->raise();
        Q_EMIT notice(tr("Start training"), tr("The training setup has problems:\n%1").arg(problems.join(QLatin1Char('\n'))));
        return;
    }
    QString error;
    if (!startTraining(m_views.form->config(), &error, /*fromDesigner=*/true))
        Q_EMIT notice(tr("Start training"), error);
}

void TrainingActions::onStarted(qint64 runId, qint64 totalSteps)
{
    Q_EMIT runStarted(m_liveStorePath, runId);
    m_progress->setRange(0, static_cast<int>(std::max<qint64>(1, totalSteps)));
    m_progress->setValue(0);
    m_progress->show();
    m_status->setText(tr("%1: starting…").arg(m_liveRunName));
}

void TrainingActions::onStep(const TrainingStep &step)
{
    RunSession *session = m_session();
    if (session && session->isLive() && isTraining(session->storePath(), step.runId))
        session->addLiveStep(step);
    m_progress->setValue(static_cast<int>(step.step));
    const double reward = step.value(QStringLiteral("reward"));
    if (step.step == 0) { // the evaluation before training: no step timed yet
        // The task's headline metric ("eval/f1" for extraction, "eval/em" for multi-hop).
        const QString metric = session ? session->headlineMetric() : QString();
        const double value = metric.isEmpty() ? std::nan("") : step.value(metric);
        m_status->setText(tr("%1 · evaluated the start (%2 %3) · training…")
                                      .arg(m_liveRunName, metric.mid(5))
                                      .arg(value, 0, 'f', 3));
        Q_EMIT stored();
        return;
    }
    m_status->setText(
        tr("%1 · step %2/%3 · reward %4 · %5 tok/s · ETA %6")
            .arg(m_liveRunName)
            .arg(step.step)
            .arg(step.totalSteps)
            .arg(std::isfinite(reward) ? QString::number(reward, 'f', 3) : QStringLiteral("–"))
            .arg(step.tokensPerSecond, 0, 'f', 0)
            .arg(QString::fromStdString(rwb::util::formatDuration(step.etaSeconds))));
    Q_EMIT stored();
}

void TrainingActions::onApplyWeightsRequested(const QVector<double> &weights)
{
    const auto &running = m_views.designer->runningConfig();
    if (!running || !(m_controller->isActive() || m_external))
        return;
    QStringList parts;
    for (int i = 0; i < weights.size() && i < static_cast<int>(running->components.size()); ++i)
        parts << QStringLiteral("%1 %2 → %3")
                     .arg(QString::fromStdString(running->components[static_cast<size_t>(i)].label()))
                     .arg(running->components[static_cast<size_t>(i)].weight)
                     .arg(weights[i]);
    if (!m_confirm(tr("Change reward weights"),
                 tr("Apply these weights to the run “%1” from its next step?\n\n%2\n\nThe change is stored with its "
                    "step and marked on the curves.")
                     .arg(m_liveRunName, parts.join(QLatin1Char('\n')))))
        return;
    if (m_external) {
        // The run reads them at its next step boundary and stores them with that step.
        m_externalWeights = weights;
        if (!writeControl(/*withWeights=*/true))
            return;
        QStringList w;
        for (double v : weights)
            w << QString::number(v);
        Q_EMIT log(tr("Reward weights sent to the run: %1").arg(w.join(QStringLiteral(", "))));
    } else {
        m_controller->setRewardWeights(weights);
    }
    m_views.designer->setWeightsSentToRun(weights);
    Q_EMIT statusMessage(tr("New weights go to the run at its next step"));
}

void TrainingActions::onWeightsApplied(qint64 atStep, const QVector<double> &weights)
{
    auto running = m_views.designer->runningConfig();
    if (running) {
        for (int i = 0; i < weights.size() && i < static_cast<int>(running->components.size()); ++i)
            running->components[static_cast<size_t>(i)].weight = weights[i];
        m_views.designer->setRunningConfig(running);
    }
    if (RunSession *session = m_session(); session && isTraining(session->storePath(), session->runId()))
        m_views.curves->markWeightChange(atStep, weights);
    QStringList w;
    for (double v : weights)
        w << QString::number(v);
    Q_EMIT log(tr("Reward weights changed at step %1: %2").arg(atStep).arg(w.join(QStringLiteral(", "))));
}

void TrainingActions::onFinished(const QString &status, const QString &message)
{
    m_views.designer->setRunningConfig(std::nullopt);
    m_progress->hide();
    const QString what = status == QLatin1String("finished")  ? tr("finished")
                         : status == QLatin1String("stopped") ? tr("stopped")
                                                              : tr("failed");
    m_status->setText(tr("%1: %2").arg(m_liveRunName, what));
    Q_EMIT log(message.isEmpty() ? tr("Run %1").arg(what) : tr("Run %1: %2").arg(what, message));
    // Everything the run stored, the final evaluation included.
    if (RunSession *session = m_session(); session && session->isLive())
        session->endLive(status, message);
    Q_EMIT stored();
    updateActions();
}

void TrainingActions::updateActions()
{
    const auto state = m_controller->state();
    const bool idle = state == TrainingController::State::Idle && !m_external;
    const bool running =
        state == TrainingController::State::Running || (m_external && !m_externalPaused && !m_externalStopping);
    const bool paused =
        state == TrainingController::State::Paused || (m_external && m_externalPaused && !m_externalStopping);
    m_start->setEnabled(idle);
    m_pause->setEnabled(running);
    m_resume->setEnabled(paused);
    m_stop->setEnabled(running || paused);
    m_views.form->setEnabled(idle);
    Q_EMIT stateChanged(idle);
}

