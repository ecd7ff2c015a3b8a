#include "workspaceactions.h"

#include "rewarddesigner.h"
#include "runlistmodel.h"
#include "runsetupform.h"
#include "storedocument.h"

#include "data/jsonl.h"
#include "store/rolloutimport.h"
#include "store/runstore.h"
#include "train/grpo.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStyle>

using namespace rwb::widgets;

WorkspaceActions::WorkspaceActions(QWidget *window, Views views, std::function<QString()> currentStore)
    : QObject(window)
    , m_window(window)
    , m_views(views)
    , m_currentStore(std::move(currentStore))
    , m_newWorkspace(new QAction(QApplication::style()->standardIcon(QStyle::SP_FileDialogNewFolder), QString(), this))
    , m_openWorkspace(new QAction(QApplication::style()->standardIcon(QStyle::SP_DirOpenIcon), QString(), this))
    , m_openStore(new QAction(this))
    , m_importRollouts(new QAction(this))
{
    connect(m_newWorkspace, &QAction::triggered, this, &WorkspaceActions::newWorkspaceDialog);
    connect(m_openWorkspace, &QAction::triggered, this, &WorkspaceActions::openWorkspaceDialog);
    connect(m_openStore, &QAction::triggered, this, &WorkspaceActions::openStoreDialog);
    connect(m_importRollouts, &QAction::triggered, this, &WorkspaceActions::importRolloutsDialog);
    retranslate();
}

QList<QAction *> WorkspaceActions::actions() const
{
    return {m_newWorkspace, m_openWorkspace, m_openStore, m_importRollouts};
}

void WorkspaceActions::retranslate()
{
    m_newWorkspace->setText(tr("&New workspace…"));
    m_openWorkspace->setText(tr("Open &workspace…"));
    m_openStore->setText(tr("Open run s&tore…"));
    m_importRollouts->setText(tr("&Import rollouts of verl, TRL, OpenRLHF, prime-rl or NeMo-RL…"));
    m_importRollouts->setStatusTip(tr("Read another trainer's rollout dump folder into a run of the open run store"));
}

bool WorkspaceActions::openWorkspace(const QString &dir, QString *error)
{
    auto ws = Workspace::open(dir, error);
    if (!ws)
        return false;
    m_workspace = std::move(ws);
    m_views.form->setWorkspace(*m_workspace);
    // The Designer's judge calls are kept with the workspace (the Judge tab shows them).
    m_views.designer->setJudgeLogPath(QDir(m_workspace->dir()).filePath(QStringLiteral("designer.sqlite")));
    // The form starts from the workspace's last GRPO run (a new run like it is one click
    // away), and trains with the Designer's weights.
    try {
        const auto runs = m_workspace->store()->store().runs();
        for (auto it = runs.rbegin(); it != runs.rend(); ++it)
            if (it->kind == "grpo") {
                rwb::train::GrpoConfig last = rwb::train::parseGrpoConfig(it->configJson, m_workspace->storePath().toStdString());
                last.resumeFrom.clear();
                m_views.form->setConfig(last);
                break;
            }
    } catch (const std::exception &e) {
        Q_EMIT log(QString::fromUtf8(e.what()));
    }
    QString listError;
    if (!m_views.runs->open(m_workspace->store(), &listError))
        Q_EMIT log(listError);
    Q_EMIT workspaceOpened();
    Q_EMIT statusMessage(tr("Opened workspace %1").arg(m_workspace->dir()));
    return true;
}

bool WorkspaceActions::createWorkspace(const QString &dir, QString *error)
{
    if (!Workspace::create(dir, error))
        return false;
    return openWorkspace(dir, error);
}


void WorkspaceActions::newWorkspaceDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("New workspace (an empty folder)"));
    if (dir.isEmpty())
        return;
    QString error;
    if (!createWorkspace(dir, &error))
        Q_EMIT notice(tr("New workspace"), error);
}

void WorkspaceActions::openWorkspaceDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Open workspace"));
    if (dir.isEmpty())
        return;
    QString error;
    if (!openWorkspace(dir, &error))
        Q_EMIT notice(tr("Open workspace"), error);
}

void WorkspaceActions::openStoreDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open run store"), QString(),
                                                      tr("Run stores (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!m_views.runs->open(path, &error)) {
        Q_EMIT notice(tr("Open run store"), error);
        return;
    }
    if (m_views.runs->rowCount() > 0)
        Q_EMIT runRequested(path, m_views.runs->runId(m_views.runs->rowCount() - 1));
}

void WorkspaceActions::importRolloutsDialog()
{
    const QString title = tr("Import rollouts");
    const QString dump = QFileDialog::getExistingDirectory(
        m_window, tr("The rollout dump folder (verl's rollout_data_dir, TRL's completions, OpenRLHF's samples, "
                     "prime-rl's rollouts, NeMo-RL's log folder)"));
    if (dump.isEmpty())
        return;
    QString storePath = m_currentStore();
    if (storePath.isEmpty() && m_workspace)
        storePath = m_workspace->storePath();
    if (storePath.isEmpty())
        storePath = QFileDialog::getSaveFileName(m_window, tr("Run store to import into"), QDir(dump).filePath("runs.sqlite"),
                                                 tr("Run stores (*.sqlite *.db);;All files (*)"), nullptr,
                                                 QFileDialog::DontConfirmOverwrite);
    if (storePath.isEmpty())
        return;
    QString error;
    const qint64 run = importRollouts(dump, storePath, &error);
    if (run == 0)
        Q_EMIT notice(title, error);
    else
        Q_EMIT runRequested(storePath, run);
}

qint64 WorkspaceActions::importRollouts(const QString &dump, const QString &storePath, QString *error)
{
    rwb::store::ImportReport report;
    std::shared_ptr<rwb::widgets::StoreDocument> document;
    QString failure;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    Q_EMIT statusMessage(tr("Importing %1…").arg(dump));
    try {
        document = rwb::widgets::StoreDocument::get(storePath, rwb::widgets::StoreDocument::Missing::Create);
        report = rwb::store::importRollouts(document->writable(), {dump.toStdString()}, {});
    } catch (const rwb::data::InputException &e) {
        failure = QString::fromStdString(e.error().toString());
    } catch (const std::exception &e) {
        failure = QString::fromUtf8(e.what());
    }
    QApplication::restoreOverrideCursor();
    if (!failure.isEmpty()) {
        if (error)
            *error = tr("Nothing was imported: %1").arg(failure);
        return 0;
    }
    Q_EMIT log(tr("Imported %1 (%2): %n step(s), %3 rollouts in %4 groups, as run %5 of %6.", nullptr,
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
        Q_EMIT log(tr("Kept only in each rollout's details: %1").arg(unmapped.join(QStringLiteral(", "))));
    for (const std::string &s : report.skipped)
        Q_EMIT log(tr("Skipped: %1").arg(QString::fromStdString(s)));
    document->announceChange();
    if (m_views.runs->document() != document && !m_views.runs->open(document, error))
        return 0;
    return report.runId;
}

