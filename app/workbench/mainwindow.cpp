#include "mainwindow.h"
#include "designeractions.h"
#include "guidedtour.h"
#include "jobactions.h"
#include "jobrunner.h"
#include "jobview.h"
#include "notice.h"
#include "workspaceactions.h"
#include "runsession.h"
#include "runviews.h"
#include "trainingactions.h"

#include "curvepanel.h"
#include "failureexplorer.h"
#include "groupadvantageview.h"
#include "judgedecisionview.h"
#include "judgesettingswidget.h"
#include "languagemanager.h"
#include "rewarddesigner.h"
#include "rolloutbrowser.h"
#include "runlistmodel.h"
#include "runsetupform.h"
#include "runtableview.h"
#include "samplescoremodel.h"
#include "tokenview.h"
#include "trainingcontroller.h"

#include "taskpresenter.h"
#include "task/catalog.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>



using namespace rwb::widgets;

namespace {
// Narrower than this (pixels), the window has no right dock column.
constexpr int kWideWindow = 1500;
} // namespace

MainWindow::MainWindow(LanguageManager *language, QWidget *parent) : QMainWindow(parent), m_language(language)
{
    setObjectName(QStringLiteral("mainWindow"));
    setDockNestingEnabled(true);

    m_jobActions = new JobActions(this, [this]() -> const std::optional<Workspace> & { return workspace(); },
                                  [this] { return m_runViews->session(); });
    m_jobs = m_jobActions->runner();
    createViews();
    createDocks();
    m_training = new TrainingActions(this, {m_designer, m_runForm, m_trainingDock, m_curves},
                                     [this]() -> const std::optional<Workspace> & { return workspace(); },
                                     [this] { return m_runViews->session(); },
                                     [this](const QString &title, const QString &text) { return confirm(title, text); });
    m_training->setJobRunner(m_jobs); // a run of several processes goes through it
    createActions();
    createStatusBar();
    connectTraining();
    retranslate();
    // 1600 × 950, or the screen's free area less a title bar where that is smaller.
    QSize size(1600, 950);
    if (const QScreen *s = screen())
        size = size.boundedTo(s->availableGeometry().size() - QSize(0, 40));
    resize(size);
    // On a laptop's screen the views need the width: the token view and the log join the
    // left docks' tabs instead of a column of their own (View ▸ Reset layout keeps this).
    if (size.width() < kWideWindow) {
        for (QDockWidget *d : {m_tokensDock, m_logDock, m_jobsDock}) {
            addDockWidget(Qt::LeftDockWidgetArea, d);
            tabifyDockWidget(m_runsDock, d);
        }
        m_componentsDock->raise();
    }
    m_defaultState = saveState();
    restoreLayout();
}

// The run's views go first, while the status bar and the docks they reach are alive.
MainWindow::~MainWindow()
{
    delete m_runViews;
}

void MainWindow::createViews()
{
    m_designer = new RewardDesigner(this);
    m_runViews = new RunViews(this, m_designer);
    m_curves = m_runViews->curves();
    m_groups = m_runViews->groups();
    m_rollouts = m_runViews->rollouts();
    m_failures = m_runViews->failures();
    m_judge = m_runViews->judge();
    m_tokens = m_runViews->tokens();

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("views"));
    m_tabs->setDocumentMode(true);
    // The Designer's samples and the selected sample's details side by side in its tab,
    // the rubric editor under both.
    auto *samples = new QSplitter(Qt::Horizontal);
    samples->setObjectName(QStringLiteral("designSplitter"));
    samples->addWidget(m_designer->samplesPanel());
    samples->addWidget(m_designer->detailPanel());
    samples->setStretchFactor(0, 1);
    samples->setStretchFactor(1, 1);
    samples->setSizes({520, 440});
    auto *design = new QSplitter(Qt::Vertical);
    design->setObjectName(QStringLiteral("designRubricSplitter"));
    design->setChildrenCollapsible(false);
    design->addWidget(samples);
    design->addWidget(m_designer->rubricPanel());
    design->setStretchFactor(0, 3);
    design->setStretchFactor(1, 2);
    design->setSizes({520, 300});
    // Each view in a scroll area of its own: where the window is narrower or shorter than
    // a view asks for (a laptop's 1280 × 800 screen, the docks open), the view scrolls
    // instead of holding the window larger than the screen.
    for (QWidget *view : {static_cast<QWidget *>(design), static_cast<QWidget *>(m_curves),
                          static_cast<QWidget *>(m_groups), static_cast<QWidget *>(m_rollouts),
                          static_cast<QWidget *>(m_failures), static_cast<QWidget *>(m_judge)}) {
        auto *page = new QScrollArea;
        page->setObjectName(view->objectName().isEmpty() ? QStringLiteral("viewPage") : view->objectName() + QStringLiteral("Page"));
        page->setWidgetResizable(true);
        page->setFrameShape(QFrame::NoFrame);
        page->setWidget(view);
        m_tabs->addTab(page, QString());
    }
    // The guided tour's panel above the views (GuidedTour fills it; hidden until opened).
    m_tourPanel = new TourPanel;
    auto *central = new QWidget;
    central->setObjectName(QStringLiteral("centralArea"));
    auto *centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_tourPanel);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    connect(m_runViews, &RunViews::viewRequested, m_tabs, [this](QWidget *view) {
        for (int i = 0; i < m_tabs->count(); ++i)
            if (static_cast<QScrollArea *>(m_tabs->widget(i))->widget() == view)
                m_tabs->setCurrentIndex(i);
    });
    connect(m_runViews, &RunViews::log, this, &MainWindow::appendLog);
    connect(m_runViews, &RunViews::notice, this, &MainWindow::notify);
    connect(m_runViews, &RunViews::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_runViews, &RunViews::runEnded, this, [this] { m_runList->refresh(); });
}

void MainWindow::createDocks()
{
    m_componentsDock = new QDockWidget(this);
    m_componentsDock->setObjectName(QStringLiteral("rewardComponentsDock"));
    m_componentsDock->setWidget(m_designer->componentsPanel());
    addDockWidget(Qt::LeftDockWidgetArea, m_componentsDock);

    // The training setup: the GRPO form and the buttons that start and steer a run.
    auto *training = new QWidget;
    auto *trainingLayout = new QVBoxLayout(training);
    trainingLayout->setContentsMargins(0, 0, 0, 0);
    m_runForm = new RunSetupForm;
    m_runForm->setObjectName(QStringLiteral("runSetupForm"));
    trainingLayout->addWidget(m_runForm, 1); // it scrolls its own fields
    m_trainingDock = new QDockWidget(this);
    m_trainingDock->setObjectName(QStringLiteral("trainingDock"));
    m_trainingDock->setWidget(training);
    addDockWidget(Qt::LeftDockWidgetArea, m_trainingDock);
    tabifyDockWidget(m_componentsDock, m_trainingDock);
    // One judge editor, the Designer's: the form's "Edit" goes there.
    connect(m_runForm, &RunSetupForm::judgeEditRequested, this, [this] {
        m_componentsDock->show();
        m_componentsDock->raise();
        m_designer->judgeSettings()->setFocus();
    });

    m_runList = new RunListModel(this);
    // The runs with their management (rename, tags, delete, configs): RunTableView.
    m_runTable = new RunTableView;
    m_runTable->setObjectName(QStringLiteral("runTable"));
    m_runTable->setModel(m_runList);
    m_runTable->setConfirmationHandler([this](const QString &title, const QString &text) { return confirm(title, text); });
    // A run this window writes, itself or through a background job, is not deleted under it.
    m_runTable->setRunInUse([this](qint64 run) {
        return m_training && (m_training->isTraining(m_runList->storePath(), run) ||
                              (m_training->isExternalRunning() && m_training->externalRunId() == run) ||
                              (m_jobs->isRunning() && m_jobActions->runningRunId() == run));
    });
    connect(m_runTable, &RunTableView::activated, this, &MainWindow::activateRunRow);
    connect(m_runTable, &RunTableView::notice, this, &MainWindow::notify);
    // The run shown, deleted: the views let it go.
    connect(m_runTable, &RunTableView::runDeleted, this, [this](const QString &store, qint64 run) {
        if (run == m_runId && QFileInfo(store) == QFileInfo(m_storePath)) {
            m_runViews->closeRun();
            m_runId = 0;
        }
        statusBar()->showMessage(tr("Run %1 deleted").arg(run), 5000);
    });
    m_runsDock = new QDockWidget(this);
    m_runsDock->setObjectName(QStringLiteral("runsDock"));
    m_runsDock->setWidget(m_runTable);
    addDockWidget(Qt::LeftDockWidgetArea, m_runsDock);
    tabifyDockWidget(m_trainingDock, m_runsDock);
    m_componentsDock->raise();

    m_tokensDock = new QDockWidget(this);
    m_tokensDock->setObjectName(QStringLiteral("tokensDock"));
    m_tokensDock->setWidget(m_tokens);
    addDockWidget(Qt::RightDockWidgetArea, m_tokensDock);

    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("log"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(5000);
    m_logDock = new QDockWidget(this);
    m_logDock->setObjectName(QStringLiteral("logDock"));
    m_logDock->setWidget(m_log);
    addDockWidget(Qt::RightDockWidgetArea, m_logDock);
    tabifyDockWidget(m_tokensDock, m_logDock);
    // The Jobs menu's jobs, followed: progress, curves, result.
    m_jobsDock = new QDockWidget(this);
    m_jobsDock->setObjectName(QStringLiteral("jobsDock"));
    m_jobsDock->setWidget(m_jobActions->view());
    addDockWidget(Qt::RightDockWidgetArea, m_jobsDock);
    tabifyDockWidget(m_logDock, m_jobsDock);
    m_tokensDock->raise();

    resizeDocks({m_componentsDock, m_tokensDock}, {330, 300}, Qt::Horizontal);
}

void MainWindow::createActions()
{
    const auto action = [this](QStyle::StandardPixmap icon = QStyle::SP_CustomBase) {
        auto *a = new QAction(this);
        if (icon != QStyle::SP_CustomBase)
            a->setIcon(style()->standardIcon(icon));
        return a;
    };
    m_workspaceActions = new WorkspaceActions(this, {m_designer, m_runForm, m_runList}, [this] { return m_storePath; });
    connect(m_workspaceActions, &WorkspaceActions::workspaceOpened, this, [this] {
        m_training->syncFormRewardConfig();
        retranslate();
    });
    connect(m_workspaceActions, &WorkspaceActions::runRequested, this, [this](const QString &store, qint64 run) {
        QString error;
        if (!openRun(store, run, &error))
            notify(tr("Open run store"), error);
    });
    connect(m_workspaceActions, &WorkspaceActions::log, this, &MainWindow::appendLog);
    connect(m_workspaceActions, &WorkspaceActions::notice, this, &MainWindow::notify);
    connect(m_workspaceActions, &WorkspaceActions::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 5000); });
    m_treeWindows = new TreeWindows(this, [this] { return m_storePath; });
    m_designerActions = new DesignerActions(this, m_designer, [this] { return workspace() ? workspace()->dir() : QString(); });
    connect(m_designerActions, &DesignerActions::notice, this, &MainWindow::notify);
    connect(m_designerActions, &DesignerActions::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m); });
    m_exportPng = action();
    connect(m_exportPng, &QAction::triggered, m_runViews, [this] { m_runViews->exportCurves(true); });
    m_exportCsv = action();
    connect(m_exportCsv, &QAction::triggered, m_runViews, [this] { m_runViews->exportCurves(false); });
    m_quit = action();
    m_quit->setShortcut(QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);

    m_resumeRun = action();
    connect(m_resumeRun, &QAction::triggered, this, &MainWindow::resumeSelectedRun);
    m_overlayRun = action();
    connect(m_overlayRun, &QAction::triggered, this, &MainWindow::overlaySelectedRun);
    m_runTable->addRunActions({m_overlayRun, m_resumeRun});
    connect(m_jobActions, &JobActions::log, this, &MainWindow::appendLog);
    connect(m_jobActions, &JobActions::notice, this, &MainWindow::notify);
    connect(m_jobActions, &JobActions::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_jobActions, &JobActions::jobFinished, this, [this] {
        if (workspace())
            m_runForm->setWorkspace(*workspace()); // new data or models to choose from
        m_runList->refresh();
    });
    // What the Jobs menu's jobs open when they run and end.
    JobOpeners openers;
    openers.searchTreesRun = [this](const QString &store, qint64 run, QString *error) {
        return m_treeWindows->openSearchTreesRun(store, run, error);
    };
    openers.annotator = [this](const QString &store, const QString &set, QString *error) {
        return m_treeWindows->openAnnotator(store, set, error);
    };
    openers.run = [this](const QString &store, qint64 run, QString *error) { return openRun(store, run, error); };
    openers.notice = [this](const QString &title, const QString &text) { notify(title, text); };
    m_jobActions->setOpeners(openers);
    connect(m_jobs, &rwb::widgets::JobRunner::started, this, [this] {
        m_jobsDock->show();
        m_jobsDock->raise();
    });
    // An evaluation run here: beside the run's stored evaluations in the failure explorer.
    connect(m_jobActions, &JobActions::predictionsWritten, this,
            [this](const QString &predictions, const QString &store, qint64 run, qint64 step) {
                QString error;
                if (m_failures->openEvaluation(predictions, store, run, step, &error))
                    showView(View::Failures);
                else
                    appendLog(error);
            });
    // A search across runs: a rollout of another run opens that run in every view.
    connect(
        m_rollouts, &RolloutBrowser::runRequested, this,
        [this](const QString &store, qint64 run, qint64 rollout) {
            QString error;
            if (!openRun(store, run, &error)) {
                notify(tr("Open run"), error);
                return;
            }
            m_rollouts->selectRollout(rollout);
            showView(View::Rollouts);
        },
        Qt::QueuedConnection); // the browser's session goes while its table's event is handled
    m_resetLayout = action();
    connect(m_resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    m_about = action();
    connect(m_about, &QAction::triggered, this, &MainWindow::showAbout);

    m_languageGroup = new QActionGroup(this);
    m_langSystem = new QAction(this);
    m_langEnglish = new QAction(QStringLiteral("English"), this);
    m_langJapanese = new QAction(QStringLiteral("日本語"), this);
    for (auto [a, code] : {std::pair{m_langSystem, "system"}, {m_langEnglish, "en"}, {m_langJapanese, "ja"}}) {
        a->setCheckable(true);
        a->setData(QString::fromLatin1(code));
        m_languageGroup->addAction(a);
        a->setChecked(m_language && m_language->choice() == QLatin1String(code));
    }
    connect(m_languageGroup, &QActionGroup::triggered, this, [this](QAction *a) {
        if (m_language)
            m_language->setChoice(a->data().toString());
    });

    m_fileMenu = menuBar()->addMenu(QString());
    m_fileMenu->addActions(m_workspaceActions->actions());
    m_fileMenu->addSeparator();
    m_fileMenu->addActions({m_treeWindows->openRecordAction(), m_treeWindows->openFolderAction(),
                            m_treeWindows->annotateAction()});
    m_fileMenu->addSeparator();
    m_fileMenu->addActions(m_designerActions->sampleActions());
    m_fileMenu->addSeparator();
    m_fileMenu->addActions(m_designerActions->configActions());
    m_fileMenu->addSeparator();
    m_fileMenu->addActions({m_exportPng, m_exportCsv});
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quit);
    m_trainingMenu = menuBar()->addMenu(QString());
    m_trainingMenu->addActions(m_training->runActions());
    m_trainingMenu->addSeparator();
    m_trainingMenu->addActions({m_resumeRun, m_overlayRun});
    m_trainingMenu->addSeparator();
    m_trainingMenu->addActions(m_jobActions->actions());
    m_jobsMenu = menuBar()->addMenu(QString());
    m_jobsMenu->addActions(m_jobActions->kindActions());
    m_jobsMenu->addSeparator();
    m_jobsMenu->addAction(m_jobsDock->toggleViewAction());
    m_jobsMenu->addAction(m_jobActions->actions().constLast()); // Cancel
    m_viewMenu = menuBar()->addMenu(QString());
    for (QDockWidget *d : {m_componentsDock, m_trainingDock, m_runsDock, m_tokensDock, m_logDock})
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_treeWindows->showTreesAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayout);
    m_settingsMenu = menuBar()->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageMenu->addActions(m_languageGroup->actions());
    m_helpMenu = menuBar()->addMenu(QString());
    m_helpActions = new HelpActions(this);
    m_helpMenu->addActions(m_helpActions->actions());
    m_tour = new GuidedTour(this, m_tourPanel,
                            {m_tabs, m_componentsDock, m_trainingDock, m_runsDock, m_tokensDock,
                             m_training->startAction(), m_treeWindows->showTreesAction(), m_treeWindows->annotateAction(),
                             m_jobActions->kindActions().value(0), m_helpActions->actions().value(0)});
    m_helpMenu->addAction(m_tour->action());
    m_helpMenu->addSeparator();
    m_helpMenu->addAction(m_about);

    m_toolBar = addToolBar(QString());
    m_toolBar->setObjectName(QStringLiteral("trainingToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addActions({m_workspaceActions->openWorkspaceAction()});
    m_toolBar->addSeparator();
    m_toolBar->addActions(m_training->runActions());
}

void MainWindow::createStatusBar()
{
    m_workspaceStatus = new QLabel(this);
    m_alertStatus = m_runViews->alertStatus();
    statusBar()->addPermanentWidget(m_alertStatus);
    for (QWidget *w : m_training->statusWidgets() + m_jobActions->statusWidgets())
        statusBar()->addPermanentWidget(w);
    statusBar()->addPermanentWidget(m_workspaceStatus);
    statusBar()->addPermanentWidget(m_designerActions->samplesStatus());

}

void MainWindow::connectTraining()
{
    connect(m_designer, &RewardDesigner::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 5000); });
    connect(m_designer, &RewardDesigner::configLoaded, this, [this](const QString &path) {
        const QString name = QString::fromStdString(m_designer->currentConfig().name);
        statusBar()->showMessage(tr("Reward config: %1").arg(name.isEmpty() ? path : name), 5000);
    });
    connect(m_training, &TrainingActions::log, this, &MainWindow::appendLog);
    connect(m_training, &TrainingActions::notice, this, &MainWindow::notify);
    connect(m_training, &TrainingActions::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 5000); });
    connect(m_training, &TrainingActions::stored, this, [this] { m_runList->refresh(); });
    connect(m_training, &TrainingActions::stateChanged, m_resumeRun, &QAction::setEnabled);
    // The run this window starts shows in every view, its steps handed to its session.
    connect(m_training, &TrainingActions::runStarted, this, [this](const QString &storePath, qint64 runId) {
        QString error;
        if (!openRun(storePath, runId, &error))
            appendLog(error);
        showView(View::Curves);
    });

}

void MainWindow::retranslate()
{
    const std::optional<Workspace> &ws = workspace();
    setWindowTitle(ws ? tr("Reward Workbench — %1").arg(QFileInfo(ws->dir()).fileName())
                               : tr("Reward Workbench"));
    m_tabs->setTabText(0, tr("Reward design"));
    m_tabs->setTabText(1, tr("Curves"));
    m_tabs->setTabText(2, tr("Group advantages"));
    m_tabs->setTabText(3, tr("Rollouts"));
    m_tabs->setTabText(4, tr("Failures"));
    m_tabs->setTabText(5, tr("Judge"));
    m_componentsDock->setWindowTitle(tr("Reward components"));
    m_trainingDock->setWindowTitle(tr("Training setup"));
    m_runsDock->setWindowTitle(tr("Runs"));
    m_tokensDock->setWindowTitle(tr("Tokens"));
    m_logDock->setWindowTitle(tr("Log"));
    m_jobsDock->setWindowTitle(tr("Jobs"));
    m_jobsMenu->setTitle(tr("&Jobs"));
    m_toolBar->setWindowTitle(tr("Training"));
    m_fileMenu->setTitle(tr("&File"));
    m_trainingMenu->setTitle(tr("&Training"));
    m_viewMenu->setTitle(tr("&View"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_languageMenu->setTitle(tr("&Language"));
    m_helpMenu->setTitle(tr("&Help"));
    m_workspaceActions->retranslate();
    m_treeWindows->retranslate();
    m_designerActions->retranslate();
    m_exportPng->setText(tr("Export curves as &PNG…"));
    m_exportCsv->setText(tr("Export curves as &CSV…"));
    m_quit->setText(tr("&Quit"));
    m_training->retranslate();
    m_resumeRun->setText(tr("Resume the selected run from its last checkpoint"));
    m_overlayRun->setText(tr("Overlay the selected run on the curves"));
    m_jobActions->retranslate();
    m_resetLayout->setText(tr("&Reset layout"));
    m_about->setText(tr("&About Reward Workbench"));
    if (m_helpActions)
        m_helpActions->retranslate();
    m_langSystem->setText(tr("System language"));
    m_workspaceStatus->setText(ws ? tr("Workspace: %1").arg(QFileInfo(ws->dir()).fileName())
                                           : tr("No workspace"));
    m_runViews->retranslate();
    m_tour->retranslate(); // after the menus and docks it names
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    for (QDockWidget *d : {m_componentsDock, m_trainingDock, m_runsDock, m_tokensDock, m_logDock})
        d->show();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Reward Workbench"),
                       tr("<h3>Reward Workbench %1</h3><p>Design rewards for GRPO fine-tuning, see what each component "
                          "gives on real samples, and debug failed extractions.</p>")
                           .arg(QStringLiteral(RWB_VERSION)));
}

void MainWindow::showView(View view)
{
    m_tabs->setCurrentIndex(static_cast<int>(view));
}

MainWindow::View MainWindow::currentView() const
{
    return static_cast<View>(m_tabs->currentIndex());
}

void MainWindow::setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler)
{
    m_confirm = std::move(handler);
}

bool MainWindow::confirm(const QString &title, const QString &text)
{
    if (m_confirm)
        return m_confirm(title, text);
    return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::No, QMessageBox::No) ==
           QMessageBox::Yes;
}

// A message that does not block the event loop (training events keep arriving while it
// is shown); it is also in the log.
void MainWindow::notify(const QString &title, const QString &text)
{
    showNotice(this, title, text);
}

void MainWindow::appendLog(const QString &line)
{
    m_log->appendPlainText(line);
}

void MainWindow::restoreLayout()
{
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(s.value(QStringLiteral("window/view"), 0).toInt());
}

// The alert's thresholds (docs/guide.md, Reward-hacking alert); a missing or bad value
// keeps its default.
void MainWindow::saveLayout()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/view"), m_tabs->currentIndex());
    s.setValue(QStringLiteral("samples"), m_designer->samplesPath());
    s.setValue(QStringLiteral("config"), m_designer->configPath());
    // Weights edited and not saved: reapplied to that config at the next start.
    s.setValue(QStringLiteral("configEdits"), m_designer->edits());
    s.setValue(QStringLiteral("workspace"), workspace() ? workspace()->dir() : QString());
    s.setValue(QStringLiteral("store"), m_storePath);
    s.setValue(QStringLiteral("run"), m_runId);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_training->controller()->isActive() &&
        !confirm(tr("Quit"), tr("A training run is in progress. Stop it after the step in flight (a checkpoint is "
                                "saved) and quit?"))) {
        event->ignore();
        return;
    }
    // A background job (a Jobs menu command, or a run of several processes) is asked to
    // stop as Ctrl-C would, so that it keeps what it did; the window closes when it has.
    if (m_jobs->isRunning()) {
        if (!m_closingAfterJob &&
            !confirm(tr("Quit"), tr("“%1” is running in the background. Stop it at its next step (what it did so far "
                                    "is kept where the command allows) and quit?")
                                     .arg(m_jobs->title()))) {
            event->ignore();
            return;
        }
        if (!m_closingAfterJob) {
            m_closingAfterJob = true;
            connect(m_jobs, &rwb::widgets::JobRunner::finished, this, &QWidget::close, Qt::QueuedConnection);
            m_jobs->cancel();
            statusBar()->showMessage(tr("Stopping “%1” before quitting…").arg(m_jobs->title()));
        }
        event->ignore();
        return;
    }
    saveLayout();
    event->accept();
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
        m_runTable->selectRun(runId);
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
    return m_runTable->currentRunId();
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

qint64 MainWindow::importRollouts(const QString &dump, const QString &storePath, QString *error)
{
    const qint64 run = m_workspaceActions->importRollouts(dump, storePath, error);
    return run > 0 && openRun(storePath, run, error) ? run : 0;
}
