// The main window's workspace, runs, training and background jobs.
#include "mainwindow.h"
#include "runsession.h"
#include "runviews.h"

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
    m_training->syncFormRewardConfig();
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

bool MainWindow::openRun(const QString &storePath, qint64 runId, QString *error)
{
    if (!m_runViews->openRun(storePath, runId, error))
        return false;
    m_storePath = storePath;
    m_runId = runId;
    RunSession *s = m_runViews->session();
    connect(s, &RunSession::stepAdded, m_runList, [this] { m_runList->refresh(); });
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
    if (m_training->isTraining(storePath, runId))
        s->beginLive();
    else if (s->isFollowing())
        statusBar()->showMessage(
            tr("Following run %1 of %2 as another process writes it").arg(runId).arg(QFileInfo(storePath).fileName()), 5000);
    return true;
}

bool MainWindow::isFollowingStoredRun() const
{
    return m_runViews->session() && m_runViews->session()->isFollowing();
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
    if (!m_runViews->overlayRun(m_runList->storePath(), id, &error))
        notify(tr("Overlay run"), error);
    else
        showView(View::Curves);
}

void MainWindow::resumeSelectedRun()
{
    const qint64 id = selectedRunId();
    QString error;
    if (id > 0 && !m_training->resumeRun(m_runList->storePath(), id, &error))
        notify(tr("Resume run"), error);
}

