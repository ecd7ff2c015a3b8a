// The main window's workspace, runs, training and background jobs.
#include "mainwindow.h"
#include "runsession.h"

#include "curvepanel.h"
#include "failureexplorer.h"
#include "groupadvantageview.h"
#include "jobrunner.h"
#include "judgedecisionview.h"
#include "rewarddesigner.h"
#include "rolloutbrowser.h"
#include "runlistmodel.h"
#include "runsetupform.h"
#include "tokenview.h"
#include "trainingcontroller.h"

#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "data/jsonl.h"
#include "store/rolloutimport.h"
#include "store/runstore.h"
#include "train/evaluation.h"
#include "train/grpo.h"
#include "train/sft.h"
#include "util/duration.h"
#include "task/catalog.h"

#include <QApplication>
#include <QDateTime>
#include <QDockWidget>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>

#include <cmath>
#include <utility>

using namespace rwb::widgets;

namespace {

// The reward config a GRPO config names, read as the trainer reads it.
std::optional<rwb::reward::RewardConfig> readRewardConfig(const std::string &path, QString *error)
{
    try {
        return rwb::reward::loadRewardConfig(path, rwb::task::Catalog::builtin().rewards());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

} // namespace

// ---- workspace ------------------------------------------------------------------------

bool MainWindow::openWorkspace(const QString &dir, QString *error)
{
    auto ws = Workspace::open(dir, error);
    if (!ws)
        return false;
    m_workspace = std::move(ws);
    m_runForm->setWorkspace(*m_workspace);
    // The Designer's judge calls are kept with the workspace (the Judge tab shows them).
    m_designer->setJudgeLogPath(QDir(m_workspace->dir()).filePath(QStringLiteral("designer.sqlite")));
    // The form starts from the workspace's last GRPO run (a new run like it is one click
    // away), and trains with the Designer's weights.
    try {
        const rwb::store::RunStore store(m_workspace->storePath().toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        const auto runs = store.runs();
        for (auto it = runs.rbegin(); it != runs.rend(); ++it)
            if (it->kind == "grpo") {
                rwb::train::GrpoConfig last = rwb::train::parseGrpoConfig(it->configJson, m_workspace->storePath().toStdString());
                last.resumeFrom.clear();
                m_runForm->setConfig(last);
                break;
            }
    } catch (const std::exception &e) {
        appendLog(QString::fromUtf8(e.what()));
    }
    syncFormRewardConfig();
    QString listError;
    if (QFileInfo::exists(m_workspace->storePath()) && !m_runList->open(m_workspace->storePath(), &listError))
        appendLog(listError);
    retranslate();
    statusBar()->showMessage(tr("Opened workspace %1").arg(m_workspace->dir()), 5000);
    return true;
}

bool MainWindow::createWorkspace(const QString &dir, QString *error)
{
    if (!Workspace::create(dir, error))
        return false;
    return openWorkspace(dir, error);
}

void MainWindow::restoreWorkspace()
{
    QSettings s;
    const QString dir = s.value(QStringLiteral("workspace")).toString();
    QString error;
    if (!dir.isEmpty() && !openWorkspace(dir, &error))
        appendLog(tr("The last workspace did not open: %1").arg(error));
    const QString store = s.value(QStringLiteral("store")).toString();
    const qint64 run = s.value(QStringLiteral("run"), 0).toLongLong();
    if (!store.isEmpty() && run > 0 && QFileInfo::exists(store) && !openRun(store, run, &error))
        appendLog(tr("The last run did not open: %1").arg(error));
}

void MainWindow::newWorkspaceDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("New workspace (an empty folder)"));
    if (dir.isEmpty())
        return;
    QString error;
    if (!createWorkspace(dir, &error))
        notify(tr("New workspace"), error);
}

void MainWindow::openWorkspaceDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open workspace"));
    if (dir.isEmpty())
        return;
    QString error;
    if (!openWorkspace(dir, &error))
        notify(tr("Open workspace"), error);
}

void MainWindow::openStoreDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open run store"), QString(),
                                                      tr("Run stores (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_runList->open(path, &error)) {
        notify(tr("Open run store"), error);
        return;
    }
    if (m_runList->rowCount() > 0 && !openRun(path, m_runList->runId(m_runList->rowCount() - 1), &error))
        notify(tr("Open run store"), error);
}

void MainWindow::importRolloutsDialog()
{
    const QString title = tr("Import rollouts");
    const QString dump = QFileDialog::getExistingDirectory(
        this, tr("The rollout dump folder (verl's rollout_data_dir, TRL's completions, OpenRLHF's samples)"));
    if (dump.isEmpty())
        return;
    QString storePath = m_storePath;
    if (storePath.isEmpty() && m_workspace)
        storePath = m_workspace->storePath();
    if (storePath.isEmpty())
        storePath = QFileDialog::getSaveFileName(this, tr("Run store to import into"), QDir(dump).filePath("runs.sqlite"),
                                                 tr("Run stores (*.sqlite *.db);;All files (*)"), nullptr,
                                                 QFileDialog::DontConfirmOverwrite);
    if (storePath.isEmpty())
        return;
    QString error;
    if (importRollouts(dump, storePath, &error) == 0)
        notify(title, error);
}

qint64 MainWindow::importRollouts(const QString &dump, const QString &storePath, QString *error)
{
    rwb::store::ImportReport report;
    QString failure;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    statusBar()->showMessage(tr("Importing %1…").arg(dump));
    try {
        rwb::store::RunStore store(storePath.toStdString());
        report = rwb::store::importRollouts(store, {dump.toStdString()}, {});
    } catch (const rwb::data::InputException &e) {
        failure = QString::fromStdString(e.error().toString());
    } catch (const std::exception &e) {
        failure = QString::fromUtf8(e.what());
    }
    QApplication::restoreOverrideCursor();
    statusBar()->clearMessage();
    if (!failure.isEmpty()) {
        if (error)
            *error = tr("Nothing was imported: %1").arg(failure);
        return 0;
    }
    appendLog(tr("Imported %1 (%2): %n step(s), %3 rollouts in %4 groups, as run %5 of %6.", nullptr,
                 static_cast<int>(report.steps))
                  .arg(dump, QString::fromUtf8(rwb::store::dumpFormatName(report.format)))
                  .arg(report.rollouts)
                  .arg(report.groups)
                  .arg(report.runId)
                  .arg(storePath));
    QStringList unmapped;
    for (const rwb::store::FieldMapping &m : report.unmapped)
        unmapped << QString::fromStdString(m.field);
    if (!unmapped.isEmpty())
        appendLog(tr("Kept only in each rollout's details: %1").arg(unmapped.join(QStringLiteral(", "))));
    for (const std::string &s : report.skipped)
        appendLog(tr("Skipped: %1").arg(QString::fromStdString(s)));
    if (!m_runList->open(storePath, error) || !openRun(storePath, report.runId, error))
        return 0;
    return report.runId;
}

// ---- runs -------------------------------------------------------------------------------

bool MainWindow::bindViews(RunSession *session, QString *error)
{
    // The curves decide whether the run shows; the other views show what it has.
    if (!m_curves->setSession(session, error))
        return false;
    for (RunView *view : std::initializer_list<RunView *>{m_groups, m_rollouts, m_failures, m_judge}) {
        QString e;
        if (!view->setSession(session, &e) && !e.isEmpty())
            appendLog(e);
    }
    m_judgeSession.reset();
    m_tokens->clear();
    return true;
}

bool MainWindow::openRun(const QString &storePath, qint64 runId, QString *error)
{
    std::unique_ptr<RunSession> session = RunSession::open(storePath, runId, error);
    if (!session || !bindViews(session.get(), error))
        return false;
    m_session = std::move(session);
    m_storePath = storePath;
    m_runId = runId;
    RunSession *s = m_session.get();
    connect(s, &RunSession::problem, this, &MainWindow::appendLog);
    connect(s, &RunSession::stepAdded, m_runList, [this] { m_runList->refresh(); });
    connect(s, &RunSession::ended, this, [this, s](const QString &status, const QString &message) {
        m_runList->refresh();
        if (s->isLive())
            return;
        const QString what = status == QLatin1String("finished")  ? tr("finished")
                             : status == QLatin1String("stopped") ? tr("stopped")
                                                                  : tr("failed");
        appendLog(message.isEmpty() ? tr("Run %1 (written by another process): %2").arg(s->runId()).arg(what)
                                    : tr("Run %1 (written by another process): %2: %3").arg(s->runId()).arg(what, message));
    });
    QString listError;
    if (m_runList->storePath() != storePath && !m_runList->open(storePath, &listError))
        appendLog(listError);
    if (const int row = m_runList->rowOfRun(runId); row >= 0) {
        m_runTable->selectRow(row);
        // A tree search's results are its trees: the viewer's window opens on them.
        if (const rwb::store::RunInfo *info = m_runList->run(row); info && info->kind == "mcts") {
            QString treesError;
            if (!openSearchTreesRun(storePath, runId, &treesError))
                appendLog(treesError);
        }
    }
    statusBar()->showMessage(tr("Run %1 of %2").arg(runId).arg(QFileInfo(storePath).fileName()), 5000);
    // A run still being written, not by this window's own training: followed.
    const bool ownLive = m_controller->isActive() && storePath == m_liveStorePath && runId == m_controller->runId();
    if (ownLive)
        s->beginLive();
    else if (s->isFollowing())
        statusBar()->showMessage(
            tr("Following run %1 of %2 as another process writes it").arg(runId).arg(QFileInfo(storePath).fileName()), 5000);
    return true;
}

bool MainWindow::isFollowingStoredRun() const
{
    return m_session && m_session->isFollowing();
}

qint64 MainWindow::selectedRunId() const
{
    const QModelIndex i = m_runTable->selectionModel()->currentIndex();
    return i.isValid() ? m_runList->runId(i.row()) : 0;
}

void MainWindow::activateRunRow(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    QString error;
    if (!openRun(m_runList->storePath(), m_runList->runId(index.row()), &error))
        notify(tr("Open run"), error);
    else
        showView(View::Curves);
}

void MainWindow::overlaySelectedRun()
{
    const qint64 id = selectedRunId();
    if (id <= 0)
        return;
    QString error;
    const std::unique_ptr<RunSession> session = RunSession::open(m_runList->storePath(), id, &error);
    if (!session || !m_curves->addOverlay(*session, &error))
        notify(tr("Overlay run"), error);
    else
        showView(View::Curves);
}

void MainWindow::compareCheckpointsForAlert(qint64 beforeStep, qint64 latestStep)
{
    // Evaluations stored since the explorer opened the run (a live run) count too.
    QString error;
    if (m_session && !m_failures->setSession(m_session.get(), &error) && !error.isEmpty())
        appendLog(error);
    const QList<qint64> steps = m_failures->checkpointSteps();
    if (steps.size() < 2) {
        statusBar()->showMessage(tr("The run has no two evaluated checkpoints to compare yet."), 8000);
        return;
    }
    // A: the last checkpoint at or before the alert's start; B: the last at or before the
    // latest evaluation. A comes before B (the first two when B is the first).
    const auto atOrBefore = [&steps](qint64 step, int fallback) {
        int index = fallback;
        for (int k = 0; k < steps.size(); ++k)
            if (steps[k] <= step)
                index = k;
        return index;
    };
    const int b = std::max(1, atOrBefore(latestStep, static_cast<int>(steps.size()) - 1));
    const int a = std::min(atOrBefore(beforeStep, 0), b - 1);
    m_failures->showCheckpoint(steps[a]);
    m_failures->compareWith(steps[b]);
    showView(View::Failures);
}

void MainWindow::resumeSelectedRun()
{
    const qint64 id = selectedRunId();
    QString error;
    if (id > 0 && !resumeRun(m_runList->storePath(), id, &error))
        notify(tr("Resume run"), error);
}

bool MainWindow::resumeRun(const QString &storePath, qint64 runId, QString *error)
{
    rwb::train::GrpoConfig config;
    try {
        const rwb::store::RunStore store(storePath.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
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

// ---- training ---------------------------------------------------------------------------

bool MainWindow::startTrainingFromFile(const QString &path, QString *error)
{
    try {
        const rwb::train::GrpoConfig config = rwb::train::loadGrpoConfig(path.toStdString());
        m_runForm->setConfig(config);
        m_trainingDock->raise(); // the config in force, beside the curves
        return startTraining(config, error);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool MainWindow::startTraining(const rwb::train::GrpoConfig &config, QString *error)
{
    if (m_controller->isActive()) {
        if (error)
            *error = tr("A training run is already in progress.");
        return false;
    }
    // The Designer shows the weights the run starts with, and from now on edits reach the
    // run only when confirmed.
    const auto reward = readRewardConfig(config.rewardConfig, error);
    if (!reward)
        return false;
    QString loadError;
    m_designer->loadConfig(QString::fromStdString(config.rewardConfig), &loadError);
    m_liveStorePath = QString::fromStdString(config.store);
    m_liveRunName = QString::fromStdString(config.runName);
    if (!m_controller->startGrpo(config)) {
        if (error)
            *error = tr("A training run is already in progress.");
        return false;
    }
    m_designer->setRunningConfig(*reward);
    appendLog(tr("Starting GRPO: %1").arg(m_liveRunName));
    updateTrainingActions();
    return true;
}

QString MainWindow::saveDesignerConfigForRun(QString *error)
{
    const QString path = QDir(m_workspace->configsDir())
                             .filePath(QStringLiteral("reward-%1.json")
                                           .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    return m_designer->saveConfig(path, error) ? path : QString();
}

// The form names the Designer's reward config (saved into the workspace as
// configs/designer.json), so that it validates; a run started from the form gets its own
// copy of the weights at that moment.
void MainWindow::syncFormRewardConfig()
{
    if (!m_workspace)
        return;
    const QString path = QDir(m_workspace->configsDir()).filePath(QStringLiteral("designer.json"));
    QString error;
    if (m_designer->saveConfig(path, &error))
        m_runForm->setRewardConfigPath(path);
    else
        appendLog(error);
}

void MainWindow::startFromForm()
{
    // The run trains with the Designer's weights: saved next to the workspace's configs.
    QString runReward;
    if (m_workspace) {
        QString error;
        runReward = saveDesignerConfigForRun(&error);
        if (runReward.isEmpty()) {
            notify(tr("Start training"), error);
            return;
        }
        m_runForm->setRewardConfigPath(runReward);
    }
    QStringList problems;
    if (!m_runForm->validate(&problems)) {
        m_trainingDock->show();
        m_trainingDock->raise();
        notify(tr("Start training"), tr("The training setup has problems:\n%1").arg(problems.join(QLatin1Char('\n'))));
        return;
    }
    rwb::train::GrpoConfig config = m_runForm->config();
    QString error;
    // The form's judge settings, when the reward config has judge rewards.
    const QString reward = m_runForm->rewardConfigForRun(&error);
    if (reward.isEmpty()) {
        notify(tr("Start training"), error);
        return;
    }
    config.rewardConfig = reward.toStdString();
    if (!startTraining(config, &error))
        notify(tr("Start training"), error);
}

void MainWindow::onTrainingStarted(qint64 runId, qint64 totalSteps)
{
    m_liveTotalSteps = totalSteps;
    QString error;
    if (!openRun(m_liveStorePath, runId, &error))
        appendLog(error);
    else
        m_session->beginLive(); // this window's own run: its steps come from the controller
    m_stepProgress->setRange(0, static_cast<int>(std::max<qint64>(1, totalSteps)));
    m_stepProgress->setValue(0);
    m_stepProgress->show();
    m_trainingStatus->setText(tr("%1: starting…").arg(m_liveRunName));
    showView(View::Curves);
}

void MainWindow::onStepFinished(const TrainingStep &step)
{
    if (m_session && m_session->isLive() && m_storePath == m_liveStorePath)
        m_session->addLiveStep(step);
    m_stepProgress->setValue(static_cast<int>(step.step));
    const double reward = step.value(QStringLiteral("reward"));
    if (step.step == 0) { // the evaluation before training: no step timed yet
        // The task's headline metric ("eval/f1" for extraction, "eval/em" for multi-hop).
        const QString metric = m_session ? m_session->headlineMetric() : QString();
        const double value = metric.isEmpty() ? std::nan("") : step.value(metric);
        m_trainingStatus->setText(tr("%1 · evaluated the start (%2 %3) · training…")
                                      .arg(m_liveRunName, metric.mid(5))
                                      .arg(value, 0, 'f', 3));
        m_runList->refresh();
        return;
    }
    m_trainingStatus->setText(
        tr("%1 · step %2/%3 · reward %4 · %5 tok/s · ETA %6")
            .arg(m_liveRunName)
            .arg(step.step)
            .arg(step.totalSteps)
            .arg(std::isfinite(reward) ? QString::number(reward, 'f', 3) : QStringLiteral("–"))
            .arg(step.tokensPerSecond, 0, 'f', 0)
            .arg(QString::fromStdString(rwb::util::formatDuration(step.etaSeconds))));
    m_runList->refresh();
}

void MainWindow::onApplyWeightsRequested(const QVector<double> &weights)
{
    const auto &running = m_designer->runningConfig();
    if (!running || !m_controller->isActive())
        return;
    QStringList parts;
    for (int i = 0; i < weights.size() && i < static_cast<int>(running->components.size()); ++i)
        parts << QStringLiteral("%1 %2 → %3")
                     .arg(QString::fromStdString(running->components[static_cast<size_t>(i)].reward))
                     .arg(running->components[static_cast<size_t>(i)].weight)
                     .arg(weights[i]);
    if (!confirm(tr("Change reward weights"),
                 tr("Apply these weights to the run “%1” from its next step?\n\n%2\n\nThe change is stored with its "
                    "step and marked on the curves.")
                     .arg(m_liveRunName, parts.join(QLatin1Char('\n')))))
        return;
    m_controller->setRewardWeights(weights);
    statusBar()->showMessage(tr("New weights go to the run at its next step"), 5000);
}

void MainWindow::onWeightsApplied(qint64 atStep, const QVector<double> &weights)
{
    auto running = m_designer->runningConfig();
    if (running) {
        for (int i = 0; i < weights.size() && i < static_cast<int>(running->components.size()); ++i)
            running->components[static_cast<size_t>(i)].weight = weights[i];
        m_designer->setRunningConfig(running);
    }
    if (m_storePath == m_liveStorePath && m_runId == m_controller->runId())
        m_curves->markWeightChange(atStep, weights);
    QStringList w;
    for (double v : weights)
        w << QString::number(v);
    appendLog(tr("Reward weights changed at step %1: %2").arg(atStep).arg(w.join(QStringLiteral(", "))));
}

void MainWindow::onTrainingFinished(const QString &status, const QString &message)
{
    m_designer->setRunningConfig(std::nullopt);
    m_stepProgress->hide();
    const QString what = status == QLatin1String("finished")  ? tr("finished")
                         : status == QLatin1String("stopped") ? tr("stopped")
                                                              : tr("failed");
    m_trainingStatus->setText(tr("%1: %2").arg(m_liveRunName, what));
    appendLog(message.isEmpty() ? tr("Run %1").arg(what) : tr("Run %1: %2").arg(what, message));
    // Everything the run stored, the final evaluation included.
    if (m_session && m_session->isLive())
        m_session->endLive(status, message);
    m_runList->refresh();
    updateTrainingActions();
}

void MainWindow::updateTrainingActions()
{
    const auto state = m_controller->state();
    const bool idle = state == TrainingController::State::Idle;
    m_start->setEnabled(idle);
    m_pause->setEnabled(state == TrainingController::State::Running);
    m_resume->setEnabled(state == TrainingController::State::Paused);
    m_stop->setEnabled(state == TrainingController::State::Running || state == TrainingController::State::Paused);
    m_resumeRun->setEnabled(idle);
    m_runForm->setEnabled(idle);
}

void MainWindow::exportCurves(bool png)
{
    const QString path = png ? QFileDialog::getSaveFileName(this, tr("Export curves"), QString(), tr("PNG images (*.png)"))
                             : QFileDialog::getSaveFileName(this, tr("Export curves"), QString(), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!(png ? m_curves->exportPng(path, &error) : m_curves->exportCsv(path, &error)))
        notify(tr("Export curves"), error);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

// ---- background jobs ----------------------------------------------------------------------

void MainWindow::onJobStarted(const QString &title)
{
    m_jobStatus->setText(title);
    m_jobProgress->setRange(0, 0);
    for (QWidget *w : std::initializer_list<QWidget *>{m_jobStatus, m_jobProgress, m_cancelJobButton})
        w->show();
    appendLog(title);
}

void MainWindow::onJobProgress(qint64 done, qint64 total, const QString &detail)
{
    if (total > 0) {
        // QProgressBar counts in int; scale large totals.
        const double scale = total > 1000000 ? 1000000.0 / static_cast<double>(total) : 1.0;
        m_jobProgress->setRange(0, static_cast<int>(static_cast<double>(total) * scale));
        m_jobProgress->setValue(static_cast<int>(static_cast<double>(done) * scale));
    }
    if (!detail.isEmpty())
        m_jobProgress->setToolTip(detail);
}

void MainWindow::onJobFinished(bool ok, const QString &message)
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_jobStatus, m_jobProgress, m_cancelJobButton})
        w->hide();
    appendLog(message);
    if (!ok)
        notify(tr("Background job"), message);
    else
        statusBar()->showMessage(message, 8000);
    if (m_workspace)
        m_runForm->setWorkspace(*m_workspace); // new data or models to choose from
    // An evaluation's predictions open in the failure explorer.
    const QString predictions = std::exchange(m_pendingPredictions, QString());
    if (ok && !predictions.isEmpty()) {
        QString error;
        if (m_failures->openPredictions(predictions, {}, &error))
            showView(View::Failures);
        else
            appendLog(error);
    }
    m_runList->refresh();
}

bool MainWindow::needWorkspace(const QString &title)
{
    if (!m_workspace)
        notify(title, tr("Open or create a workspace first: data, models and configs go into its folders."));
    return m_workspace.has_value();
}

void MainWindow::synthesizeDialog()
{
    if (!needWorkspace(tr("Synthesize e-mails")))
        return;
    bool ok = false;
    const int count = QInputDialog::getInt(this, tr("Synthesize e-mails"), tr("How many e-mails (split into train, "
                                                                             "validation and test):"),
                                           2000, 10, 1000000, 100, &ok);
    if (ok && !m_jobs->synthesize(m_workspace->dataDir(), count, 42))
        notify(tr("Synthesize e-mails"), tr("Another background job is running."));
}

void MainWindow::trainTokenizerDialog()
{
    const QString title = tr("Train a tokenizer");
    if (!needWorkspace(title))
        return;
    const QString data = QFileDialog::getOpenFileName(this, tr("Train a tokenizer: the training data"),
                                                      m_workspace->dataDir(), tr("Extraction data (*.jsonl)"));
    if (data.isEmpty())
        return;
    bool ok = false;
    const int vocab = QInputDialog::getInt(this, title, tr("Vocabulary size:"), 2048, 300, 262144, 256, &ok);
    if (ok && !m_jobs->trainTokenizer(data, QDir(m_workspace->modelsDir()).filePath(QStringLiteral("tokenizer")), vocab))
        notify(title, tr("Another background job is running."));
}

void MainWindow::initModelDialog()
{
    const QString title = tr("New tiny model");
    if (!needWorkspace(title))
        return;
    const QString tokenizer = QFileDialog::getExistingDirectory(
        this, tr("New tiny model: the tokenizer folder"), QDir(m_workspace->modelsDir()).filePath(QStringLiteral("tokenizer")));
    if (tokenizer.isEmpty())
        return;
    if (!m_jobs->initModel(tokenizer, QDir(m_workspace->modelsDir()).filePath(QStringLiteral("tiny"))))
        notify(title, tr("Another background job is running."));
}

void MainWindow::sftDialog()
{
    const QString title = tr("SFT from a config");
    const QString path = QFileDialog::getOpenFileName(this, tr("SFT: the config (JSON, as rwb sft takes)"),
                                                      m_workspace ? m_workspace->configsDir() : QString(),
                                                      tr("SFT configs (*.json)"));
    if (path.isEmpty())
        return;
    try {
        if (!m_jobs->trainSft(rwb::train::loadSftConfig(path.toStdString())))
            notify(title, tr("Another background job is running."));
    } catch (const std::exception &e) {
        notify(title, QString::fromUtf8(e.what()));
    }
}

void MainWindow::evaluateDialog()
{
    // A checkpoint of the run shown, on its evaluation data, as the trainer evaluates.
    if (m_runId <= 0) {
        notify(tr("Evaluate a checkpoint"), tr("Open a GRPO run first (Runs, or File → Open run store)."));
        return;
    }
    rwb::train::EvaluationOptions options;
    QStringList items;
    std::vector<rwb::store::Checkpoint> checkpoints;
    rwb::train::GrpoConfig config;
    try {
        const rwb::store::RunStore store(m_storePath.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        const rwb::store::RunInfo run = store.run(m_runId);
        config = rwb::train::parseGrpoConfig(run.configJson, m_storePath.toStdString());
        if (!run.task.empty())
            options.task = run.task;
        checkpoints = store.checkpoints(m_runId);
    } catch (const std::exception &e) {
        notify(tr("Evaluate a checkpoint"), QString::fromUtf8(e.what()));
        return;
    }
    if (checkpoints.empty()) {
        notify(tr("Evaluate a checkpoint"), tr("Run %1 has no checkpoint.").arg(m_runId));
        return;
    }
    for (const auto &c : checkpoints)
        items << tr("step %1 — %2").arg(c.step).arg(QString::fromStdString(c.path));
    bool ok = false;
    const QString item = QInputDialog::getItem(this, tr("Evaluate a checkpoint"), tr("Checkpoint:"), items,
                                               static_cast<int>(items.size()) - 1, false, &ok);
    if (!ok)
        return;
    const auto &checkpoint = checkpoints[static_cast<size_t>(items.indexOf(item))];
    const QString dir = QString::fromStdString(checkpoint.path);
    if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("adapter_config.json")))) {
        options.model = config.model;
        options.adapter = checkpoint.path;
    } else {
        options.model = checkpoint.path;
    }
    options.data = config.evalData.empty() ? config.trainData : config.evalData;
    options.limit = config.evalLimit;
    options.maxNewTokens = config.maxNewTokens;
    // A multi-step task answers from the index its evaluations used.
    options.environment = config.environment;
    if (!config.evalData.empty() && !config.evalRetrievalIndex.empty())
        options.environment.index = config.evalRetrievalIndex;
    options.output = QDir(dir).filePath(QStringLiteral("predictions.jsonl")).toStdString();
    if (!m_jobs->evaluate(options)) {
        notify(tr("Evaluate a checkpoint"), tr("Another background job is running."));
        return;
    }
    m_pendingPredictions = QString::fromStdString(options.output);
}
