#include "mainwindow.h"
#include "runsession.h"

#include "curvepanel.h"
#include "failureexplorer.h"
#include "groupadvantageview.h"
#include "jobrunner.h"
#include "judgedecisionview.h"
#include "languagemanager.h"
#include "mctstreesource.h"
#include "mctsviewer.h"
#include "preferenceannotator.h"
#include "prm/preference.h"
#include "store/runstore.h"
#include "rewarddesigner.h"
#include "rolloutbrowser.h"
#include "runlistmodel.h"
#include "runsetupform.h"
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
#include <QFileDialog>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QInputDialog>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {
// The bundled sample sets: the default task's, opened on a first start, and legal QA's.
const char *const kBundledSamples = ":/samples/company_samples.jsonl";
const char *const kBundledLegalSamples = ":/samples/legal_qa_samples.jsonl";

// The catalog's default task: the bundled samples' task.
std::string_view defaultTask()
{
    return rwb::task::Catalog::builtin().find("")->name();
}

// The preset the Designer falls back to for the samples' task: the task's own (its
// presenter's), else the default task's.
QString defaultPresetFor(std::string_view task)
{
    const QString own = rwb::widgets::TaskPresenter::forTask(task).defaultPreset();
    return own.isEmpty() ? rwb::widgets::TaskPresenter::forTask(defaultTask()).defaultPreset() : own;
}
} // namespace

using namespace rwb::widgets;

MainWindow::MainWindow(LanguageManager *language, QWidget *parent) : QMainWindow(parent), m_language(language)
{
    setObjectName(QStringLiteral("mainWindow"));
    setDockNestingEnabled(true);
    m_controller = new TrainingController(this);
    m_jobs = new JobRunner(this);
    createViews();
    createDocks();
    createActions();
    createStatusBar();
    connectTraining();
    restoreAlertSettings();
    retranslate();
    updateTrainingActions();
    resize(1600, 950);
    m_defaultState = saveState();
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews()
{
    m_designer = new RewardDesigner(this);
    m_curves = new CurvePanel;
    m_curves->setObjectName(QStringLiteral("curvePanel"));
    m_groups = new GroupAdvantageView;
    m_groups->setObjectName(QStringLiteral("groupAdvantageView"));
    m_rollouts = new RolloutBrowser;
    m_rollouts->setObjectName(QStringLiteral("rolloutBrowser"));
    m_failures = new FailureExplorer;
    m_failures->setObjectName(QStringLiteral("failureExplorer"));
    m_judge = new JudgeDecisionView;
    m_judge->setObjectName(QStringLiteral("judgeDecisionView"));

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
    m_tabs->addTab(design, QString());
    m_tabs->addTab(m_curves, QString());
    m_tabs->addTab(m_groups, QString());
    m_tabs->addTab(m_rollouts, QString());
    m_tabs->addTab(m_failures, QString());
    m_tabs->addTab(m_judge, QString());
    setCentralWidget(m_tabs);

    // The views follow one another: a step picked on the curves shows its groups, a
    // sample clicked in a group opens it in the rollout browser and the token view.
    connect(m_curves, &CurvePanel::stepCursorChanged, m_groups, &GroupAdvantageView::showStep);
    connect(m_groups, &GroupAdvantageView::stepChanged, m_curves, &CurvePanel::setStepCursor);
    connect(m_groups, &GroupAdvantageView::rolloutActivated, this, [this](qint64 id) {
        m_rollouts->selectRollout(id);
        showView(View::Rollouts);
    });
    // A rollout's "judge calls" lists them in the judge view; a judge call's rollout opens
    // in the browser.
    connect(m_rollouts, &RolloutBrowser::judgeCallsRequested, this, [this](qint64 id) {
        m_judge->showRollout(id);
        showView(View::Judge);
    });
    // The Designer's judge calls (its re-scores are an evaluation run of their own store)
    // open in the judge view, and follow it while it shows them.
    connect(m_designer, &RewardDesigner::judgeCallsRequested, this, [this](const QString &store, qint64 run) {
        QString error;
        std::unique_ptr<RunSession> session = RunSession::open(store, run, &error);
        if (!session || !m_judge->setSession(session.get(), &error)) {
            notify(tr("Judge calls"), error);
            return;
        }
        m_judgeSession = std::move(session);
        showView(View::Judge);
    });
    connect(m_designer, &RewardDesigner::judgeCallsLogged, this, [this](const QString &store, qint64 run) {
        if (m_judge->storePath() == store && m_judge->runId() == run)
            m_judge->refresh();
    });
    connect(m_judge, &JudgeDecisionView::rolloutRequested, this, [this](qint64 id) {
        m_rollouts->selectRollout(id);
        showView(View::Rollouts);
    });
    connect(m_rollouts, &RolloutBrowser::rolloutSelected, this, [this](qint64 id) {
        QString error;
        if (m_session && !m_tokens->showRollout(*m_session, id, &error))
            statusBar()->showMessage(error, 8000);
    });
    // The reward-hacking alert's banner opens the rollouts of its steps, or the failure
    // explorer comparing the checkpoints around it.
    connect(m_curves, &CurvePanel::rolloutsRequested, this, [this](qint64 from, qint64 to) {
        m_rollouts->showSteps(from, to);
        showView(View::Rollouts);
    });
    connect(m_curves, &CurvePanel::checkpointComparisonRequested, this, &MainWindow::compareCheckpointsForAlert);
    connect(m_curves, &CurvePanel::alertSettingsEdited, this, &MainWindow::saveAlertSettings);
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

    m_runList = new RunListModel(this);
    m_runTable = new QTableView;
    m_runTable->setObjectName(QStringLiteral("runTable"));
    m_runTable->setModel(m_runList);
    m_runTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runTable->verticalHeader()->setVisible(false);
    m_runTable->horizontalHeader()->setStretchLastSection(true);
    m_runTable->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_runTable, &QTableView::activated, this, &MainWindow::activateRunRow);
    // Columns fit what they show whenever the list is read again (a few runs: cheap).
    connect(m_runList, &QAbstractItemModel::modelReset, m_runTable, &QTableView::resizeColumnsToContents);
    connect(m_runList, &QAbstractItemModel::rowsInserted, m_runTable, &QTableView::resizeColumnsToContents);
    m_runsDock = new QDockWidget(this);
    m_runsDock->setObjectName(QStringLiteral("runsDock"));
    m_runsDock->setWidget(m_runTable);
    addDockWidget(Qt::LeftDockWidgetArea, m_runsDock);
    tabifyDockWidget(m_trainingDock, m_runsDock);
    m_componentsDock->raise();

    m_tokens = new TokenView;
    m_tokens->setObjectName(QStringLiteral("tokenView"));
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
    m_newWorkspace = action(QStyle::SP_FileDialogNewFolder);
    connect(m_newWorkspace, &QAction::triggered, this, &MainWindow::newWorkspaceDialog);
    m_openWorkspace = action(QStyle::SP_DirOpenIcon);
    connect(m_openWorkspace, &QAction::triggered, this, &MainWindow::openWorkspaceDialog);
    m_openStore = action();
    connect(m_openStore, &QAction::triggered, this, &MainWindow::openStoreDialog);
    m_importRollouts = action();
    connect(m_importRollouts, &QAction::triggered, this, &MainWindow::importRolloutsDialog);
    m_openTrees = action();
    connect(m_openTrees, &QAction::triggered, this, [this] { openSearchTreesDialog(false); });
    m_openTreesFolder = action();
    connect(m_openTreesFolder, &QAction::triggered, this, [this] { openSearchTreesDialog(true); });
    m_showTrees = action();
    m_showTrees->setObjectName(QStringLiteral("showSearchTrees"));
    connect(m_showTrees, &QAction::triggered, this, &MainWindow::showSearchTrees);
    m_annotate = action();
    m_annotate->setObjectName(QStringLiteral("annotatePairs"));
    connect(m_annotate, &QAction::triggered, this, &MainWindow::openAnnotatorDialog);
    m_openSamples = action();
    m_openSamples->setShortcut(QKeySequence::Open);
    connect(m_openSamples, &QAction::triggered, m_designer, &RewardDesigner::openSamplesDialog);
    m_openBundled = action();
    connect(m_openBundled, &QAction::triggered, this, &MainWindow::openBundledSamples);
    m_openBundledLegal = action();
    connect(m_openBundledLegal, &QAction::triggered, this, [this] {
        QString error;
        if (!m_designer->loadSamples(QString::fromLatin1(kBundledLegalSamples), &error) ||
            !m_designer->loadConfig(defaultPresetFor(m_designer->model()->task().name()), &error))
            notify(tr("Open samples"), error);
        m_designer->selectRow(0);
    });
    m_loadConfig = action();
    m_loadConfig->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_loadConfig, &QAction::triggered, m_designer, &RewardDesigner::openConfigDialog);
    m_saveConfig = action();
    m_saveConfig->setShortcut(QKeySequence::Save);
    connect(m_saveConfig, &QAction::triggered, m_designer, &RewardDesigner::saveConfigDialog);
    m_exportPng = action();
    connect(m_exportPng, &QAction::triggered, this, [this] { exportCurves(true); });
    m_exportCsv = action();
    connect(m_exportCsv, &QAction::triggered, this, [this] { exportCurves(false); });
    m_quit = action();
    m_quit->setShortcut(QKeySequence::Quit);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);

    m_start = action(QStyle::SP_MediaPlay);
    m_start->setObjectName(QStringLiteral("startTraining"));
    m_start->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(m_start, &QAction::triggered, this, &MainWindow::startFromForm);
    m_pause = action(QStyle::SP_MediaPause);
    connect(m_pause, &QAction::triggered, m_controller, &TrainingController::pause);
    m_resume = action(QStyle::SP_MediaSeekForward);
    connect(m_resume, &QAction::triggered, m_controller, &TrainingController::resume);
    m_stop = action(QStyle::SP_MediaStop);
    connect(m_stop, &QAction::triggered, m_controller, &TrainingController::stop);
    m_resumeRun = action();
    connect(m_resumeRun, &QAction::triggered, this, &MainWindow::resumeSelectedRun);
    m_overlayRun = action();
    connect(m_overlayRun, &QAction::triggered, this, &MainWindow::overlaySelectedRun);
    m_runTable->addActions({m_overlayRun, m_resumeRun});
    m_synthesize = action();
    connect(m_synthesize, &QAction::triggered, this, &MainWindow::synthesizeDialog);
    m_trainTokenizer = action();
    connect(m_trainTokenizer, &QAction::triggered, this, &MainWindow::trainTokenizerDialog);
    m_initModel = action();
    connect(m_initModel, &QAction::triggered, this, &MainWindow::initModelDialog);
    m_sft = action();
    connect(m_sft, &QAction::triggered, this, &MainWindow::sftDialog);
    m_evaluate = action();
    connect(m_evaluate, &QAction::triggered, this, &MainWindow::evaluateDialog);
    m_cancelJob = action(QStyle::SP_DialogCancelButton);
    connect(m_cancelJob, &QAction::triggered, m_jobs, &JobRunner::cancel);
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
    m_fileMenu->addActions({m_newWorkspace, m_openWorkspace, m_openStore, m_importRollouts});
    m_fileMenu->addSeparator();
    m_fileMenu->addActions({m_openTrees, m_openTreesFolder, m_annotate});
    m_fileMenu->addSeparator();
    m_fileMenu->addActions({m_openSamples, m_openBundled, m_openBundledLegal});
    m_fileMenu->addSeparator();
    m_fileMenu->addActions({m_loadConfig, m_saveConfig});
    m_fileMenu->addSeparator();
    m_fileMenu->addActions({m_exportPng, m_exportCsv});
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quit);
    m_trainingMenu = menuBar()->addMenu(QString());
    m_trainingMenu->addActions({m_start, m_pause, m_resume, m_stop});
    m_trainingMenu->addSeparator();
    m_trainingMenu->addActions({m_resumeRun, m_overlayRun});
    m_trainingMenu->addSeparator();
    m_trainingMenu->addActions({m_synthesize, m_trainTokenizer, m_initModel, m_sft, m_evaluate, m_cancelJob});
    m_viewMenu = menuBar()->addMenu(QString());
    for (QDockWidget *d : {m_componentsDock, m_trainingDock, m_runsDock, m_tokensDock, m_logDock})
        m_viewMenu->addAction(d->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_showTrees);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayout);
    m_settingsMenu = menuBar()->addMenu(QString());
    m_languageMenu = m_settingsMenu->addMenu(QString());
    m_languageMenu->addActions(m_languageGroup->actions());
    m_helpMenu = menuBar()->addMenu(QString());
    m_helpMenu->addAction(m_about);

    m_toolBar = addToolBar(QString());
    m_toolBar->setObjectName(QStringLiteral("trainingToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->addActions({m_openWorkspace});
    m_toolBar->addSeparator();
    m_toolBar->addActions({m_start, m_pause, m_resume, m_stop});
}

void MainWindow::createStatusBar()
{
    m_trainingStatus = new QLabel(this);
    m_trainingStatus->setObjectName(QStringLiteral("trainingStatus"));
    m_stepProgress = new QProgressBar(this);
    m_stepProgress->setObjectName(QStringLiteral("stepProgress"));
    m_stepProgress->setMaximumWidth(160);
    m_stepProgress->hide();
    m_jobStatus = new QLabel(this);
    m_jobProgress = new QProgressBar(this);
    m_jobProgress->setObjectName(QStringLiteral("jobProgress"));
    m_jobProgress->setMaximumWidth(160);
    m_cancelJobButton = new QToolButton(this);
    m_cancelJobButton->setDefaultAction(m_cancelJob);
    m_cancelJobButton->setAutoRaise(true);
    for (QWidget *w : std::initializer_list<QWidget *>{m_jobStatus, m_jobProgress, m_cancelJobButton})
        w->hide();
    m_workspaceStatus = new QLabel(this);
    m_samplesStatus = new QLabel(this);
    m_alertStatus = new QLabel(this);
    m_alertStatus->setObjectName(QStringLiteral("alertStatus"));
    m_alertStatus->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; border: 1px solid #e0a800; padding: 0 4px; }"));
    m_alertStatus->setTextFormat(Qt::RichText);
    m_alertStatus->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    m_alertStatus->hide();
    connect(m_alertStatus, &QLabel::linkActivated, this, [this] { showView(View::Curves); });
    connect(m_curves, &CurvePanel::alertsChanged, this, &MainWindow::updateAlertStatus);
    statusBar()->addPermanentWidget(m_alertStatus);
    statusBar()->addPermanentWidget(m_trainingStatus);
    statusBar()->addPermanentWidget(m_stepProgress);
    statusBar()->addPermanentWidget(m_jobStatus);
    statusBar()->addPermanentWidget(m_jobProgress);
    statusBar()->addPermanentWidget(m_cancelJobButton);
    statusBar()->addPermanentWidget(m_workspaceStatus);
    statusBar()->addPermanentWidget(m_samplesStatus);

    connect(m_jobs, &JobRunner::started, this, &MainWindow::onJobStarted);
    connect(m_jobs, &JobRunner::progress, this, &MainWindow::onJobProgress);
    connect(m_jobs, &JobRunner::finished, this, &MainWindow::onJobFinished);
}

void MainWindow::connectTraining()
{
    connect(m_designer, &RewardDesigner::samplesLoaded, this, &MainWindow::onSamplesLoaded);
    connect(m_designer, &RewardDesigner::statusMessage, this, [this](const QString &m) { statusBar()->showMessage(m, 5000); });
    connect(m_designer, &RewardDesigner::configLoaded, this, [this](const QString &path) {
        const QString name = QString::fromStdString(m_designer->currentConfig().name);
        statusBar()->showMessage(tr("Reward config: %1").arg(name.isEmpty() ? path : name), 5000);
    });
    connect(m_designer, &RewardDesigner::applyToRunRequested, this, &MainWindow::onApplyWeightsRequested);
    connect(m_designer, &RewardDesigner::configLoaded, this, &MainWindow::syncFormRewardConfig);
    // The training setup's judge settings follow the Designer's judge.
    connect(m_designer, &RewardDesigner::judgeChanged, this, &MainWindow::syncFormRewardConfig);

    connect(m_controller, &TrainingController::started, this, &MainWindow::onTrainingStarted);
    connect(m_controller, &TrainingController::stepFinished, this, &MainWindow::onStepFinished);
    connect(m_controller, &TrainingController::weightsApplied, this, &MainWindow::onWeightsApplied);
    connect(m_controller, &TrainingController::finished, this, &MainWindow::onTrainingFinished);
    connect(m_controller, &TrainingController::logLine, this, &MainWindow::appendLog);
    connect(m_controller, &TrainingController::failed, this, [this](const QString &m) {
        appendLog(tr("Error: %1").arg(m));
        notify(tr("Training failed"), m);
    });
    connect(m_controller, &TrainingController::pausedAt, this, [this](qint64 step) {
        statusBar()->showMessage(tr("Paused after step %1").arg(step), 5000);
    });
    connect(m_controller, &TrainingController::stateChanged, this, &MainWindow::updateTrainingActions);
    connect(m_runForm, &RunSetupForm::validityChanged, this, &MainWindow::updateTrainingActions);

}

void MainWindow::retranslate()
{
    setWindowTitle(m_workspace ? tr("Reward Workbench — %1").arg(QFileInfo(m_workspace->dir()).fileName())
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
    m_toolBar->setWindowTitle(tr("Training"));
    m_fileMenu->setTitle(tr("&File"));
    m_trainingMenu->setTitle(tr("&Training"));
    m_viewMenu->setTitle(tr("&View"));
    m_settingsMenu->setTitle(tr("&Settings"));
    m_languageMenu->setTitle(tr("&Language"));
    m_helpMenu->setTitle(tr("&Help"));
    m_newWorkspace->setText(tr("&New workspace…"));
    m_openWorkspace->setText(tr("Open &workspace…"));
    m_openStore->setText(tr("Open run s&tore…"));
    m_importRollouts->setText(tr("&Import rollouts of verl, TRL or OpenRLHF…"));
    m_importRollouts->setStatusTip(tr("Read another trainer's rollout dump folder into a run of the open run store"));
    m_openTrees->setText(tr("Open a search tree &record…"));
    m_openTreesFolder->setText(tr("Open a folder of search tree records…"));
    m_showTrees->setText(tr("Search &trees"));
    m_annotate->setText(tr("&Annotate preference pairs…"));
    if (m_annotator)
        m_annotator->setWindowTitle(tr("Preference pairs"));
    if (m_trees)
        m_trees->setWindowTitle(treesTitle());
    m_openSamples->setText(tr("&Open samples…"));
    m_openBundled->setText(tr("Open the &bundled samples"));
    m_openBundledLegal->setText(tr("Open the bundled &legal-QA samples"));
    m_loadConfig->setText(tr("&Load reward config…"));
    m_saveConfig->setText(tr("&Save reward config as…"));
    m_exportPng->setText(tr("Export curves as &PNG…"));
    m_exportCsv->setText(tr("Export curves as &CSV…"));
    m_quit->setText(tr("&Quit"));
    m_start->setText(tr("&Start"));
    m_start->setToolTip(tr("Start GRPO training with the training setup and the Designer's reward weights"));
    m_pause->setText(tr("&Pause"));
    m_pause->setToolTip(tr("Pause after the step in flight"));
    m_resume->setText(tr("&Resume"));
    m_stop->setText(tr("St&op"));
    m_stop->setToolTip(tr("Stop after the step in flight and save a checkpoint"));
    m_resumeRun->setText(tr("Resume the selected run from its last checkpoint"));
    m_overlayRun->setText(tr("Overlay the selected run on the curves"));
    m_synthesize->setText(tr("S&ynthesize e-mails…"));
    m_trainTokenizer->setText(tr("Train a &tokenizer…"));
    m_initModel->setText(tr("New tiny &model…"));
    m_sft->setText(tr("S&FT from a config…"));
    m_evaluate->setText(tr("&Evaluate a checkpoint…"));
    m_cancelJob->setText(tr("Cancel"));
    m_cancelJob->setToolTip(tr("Cancel the background job"));
    m_resetLayout->setText(tr("&Reset layout"));
    m_about->setText(tr("&About Reward Workbench"));
    m_langSystem->setText(tr("System language"));
    m_workspaceStatus->setText(m_workspace ? tr("Workspace: %1").arg(QFileInfo(m_workspace->dir()).fileName())
                                           : tr("No workspace"));
    if (m_designer->model())
        onSamplesLoaded(m_designer->samplesPath(), -1);
    updateAlertStatus();
}

void MainWindow::updateAlertStatus()
{
    const auto &alerts = m_curves->alerts();
    m_alertStatus->setVisible(!alerts.empty());
    if (alerts.empty())
        return;
    m_alertStatus->setText(QStringLiteral("<a href=\"curves\" style=\"color: #664d03;\">%1</a>")
                               .arg(tr("⚠ Reward-hacking alert").toHtmlEscaped()));
    m_alertStatus->setToolTip(tr("%1\nClick to see it on the curves.").arg(CurvePanel::alertText(*m_curves->headlineAlert())));
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::onSamplesLoaded(const QString &path, int count)
{
    if (path.isEmpty()) {
        m_samplesStatus->clear();
        return;
    }
    Q_UNUSED(count);
    const QString name = path.startsWith(QLatin1String(":/")) ? tr("bundled samples") : QFileInfo(path).fileName();
    m_samplesStatus->setText(tr("%1 · %n sample(s)", nullptr, m_designer->model()->rowCount(QModelIndex())).arg(name));
}

void MainWindow::openInitialFiles(const QString &samples, const QString &config)
{
    QSettings s;
    QString samplesPath = samples.isEmpty() ? s.value(QStringLiteral("samples")).toString() : samples;
    QString configPath = config.isEmpty() ? s.value(QStringLiteral("config")).toString() : config;
    QString error;
    QStringList problems;
    if (samplesPath.isEmpty() || !m_designer->loadSamples(samplesPath, &error, &problems)) {
        if (!samplesPath.isEmpty())
            notify(tr("Open samples"), error + QLatin1Char('\n') + tr("The bundled samples are shown instead."));
        m_designer->loadSamples(QString::fromLatin1(kBundledSamples), &error);
    } else if (!problems.isEmpty()) {
        statusBar()->showMessage(tr("%n malformed line(s) skipped: %1", nullptr, static_cast<int>(problems.size()))
                                     .arg(problems.first()));
    }
    if (configPath.isEmpty() || !m_designer->loadConfig(configPath, &error)) {
        if (!configPath.isEmpty())
            notify(tr("Load reward config"), error + QLatin1Char('\n') + tr("The paper's best preset is used instead."));
        m_designer->loadConfig(defaultPresetFor(m_designer->model()->task().name()), &error);
    }
    m_designer->selectRow(0);
}

void MainWindow::openBundledSamples()
{
    QString error;
    const bool otherTask = &m_designer->model()->task() != rwb::task::Catalog::builtin().find("");
    if (!m_designer->loadSamples(QString::fromLatin1(kBundledSamples), &error) ||
        (otherTask && !m_designer->loadConfig(defaultPresetFor(defaultTask()), &error)))
        notify(tr("Open samples"), error);
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

MctsViewer *MainWindow::searchTrees()
{
    if (!m_trees) {
        // A window of its own, closed with the main window; closing it only hides it.
        m_trees = new MctsViewer(this);
        m_trees->setObjectName(QStringLiteral("mctsViewer"));
        m_trees->setWindowFlag(Qt::Window);
        m_trees->setWindowTitle(tr("Search trees"));
        m_trees->resize(1500, 950);
        connect(m_trees, &MctsViewer::compareSiblings, this, [this](qint64 treeId, int a, int b) {
            const auto *source = dynamic_cast<const rwb::widgets::MctsStoreSource *>(m_trees->source().get());
            if (!source) {
                notify(tr("Compare siblings"), tr("Preference pairs live in a run store: open the trees from a run "
                                                  "store (File → Open run store, or --mcts store.sqlite) to annotate them."));
                return;
            }
            QString error;
            compareSiblings(QString::fromStdString(source->storePath()), treeId, a, b, &error);
        });
    }
    return m_trees;
}

PreferenceAnnotator *MainWindow::annotator()
{
    if (!m_annotator) {
        // A window of its own, like the tree viewer's.
        m_annotator = new PreferenceAnnotator(this);
        m_annotator->setObjectName(QStringLiteral("preferenceAnnotator"));
        m_annotator->setWindowFlag(Qt::Window);
        m_annotator->setWindowTitle(tr("Preference pairs"));
        m_annotator->resize(1600, 950);
        const QString name = QSettings().value(QStringLiteral("annotation/annotator")).toString();
        if (!name.isEmpty())
            m_annotator->setAnnotator(name);
        connect(m_annotator, &PreferenceAnnotator::labelled, this,
                [this] { QSettings().setValue(QStringLiteral("annotation/annotator"), m_annotator->annotator()); });
    }
    return m_annotator;
}

bool MainWindow::openAnnotator(const QString &storePath, const QString &set, QString *error)
{
    PreferenceAnnotator *a = annotator();
    const bool ok = a->open(storePath, set, error);
    a->show();
    a->raise();
    a->activateWindow();
    if (ok && a->annotator().isEmpty())
        QTimer::singleShot(0, a, [a] { a->chooseAnnotator(); });
    return ok;
}

void MainWindow::openAnnotatorDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Annotate the preference pairs of a run store"),
                                                      m_storePath, tr("Run stores (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty())
        return;
    QString set;
    try {
        const rwb::store::RunStore s(path.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        QStringList sets;
        for (const auto &info : s.pairSets())
            sets << QString::fromStdString(info.name);
        if (sets.size() > 1) {
            bool ok = false;
            set = QInputDialog::getItem(this, tr("Pair set"), tr("The pair set to annotate:"), sets, 0, false, &ok);
            if (!ok)
                return;
        }
    } catch (const std::exception &e) {
        notify(tr("Annotate preference pairs"), QString::fromUtf8(e.what()));
        return;
    }
    QString error;
    openAnnotator(path, set, &error); // the view shows what went wrong
}

bool MainWindow::compareSiblings(const QString &storePath, qint64 treeId, int nodeA, int nodeB, QString *error)
{
    const QString set = QStringLiteral("manual pairs");
    qint64 pairId = 0;
    try {
        rwb::store::RunStore s(storePath.toStdString());
        std::vector<rwb::prm::StepPair> pairs{
            rwb::prm::manualPair(s.mctsTree(treeId), nodeA, nodeB, treeId, set.toStdString())};
        s.addPairs(pairs);
        std::vector<rwb::prm::Label> tree{rwb::prm::treeLabel(pairs.front(), 0.0)};
        s.setLabels(tree);
        pairId = pairs.front().id;
    } catch (const std::exception &e) {
        const QString message = tr("Cannot compare nodes %1 and %2: %3").arg(nodeA).arg(nodeB).arg(QString::fromUtf8(e.what()));
        if (error)
            *error = message;
        notify(tr("Compare siblings"), message);
        return false;
    }
    if (!openAnnotator(storePath, set, error))
        return false;
    return annotator()->showPair(pairId);
}

void MainWindow::showSearchTrees()
{
    MctsViewer *viewer = searchTrees();
    viewer->show();
    viewer->raise();
    viewer->activateWindow();
}

QString MainWindow::treesTitle() const
{
    if (m_treesPath.isEmpty())
        return tr("Search trees");
    if (m_treesRun > 0)
        return tr("Search trees — run %1 of %2").arg(m_treesRun).arg(QFileInfo(m_treesPath).fileName());
    return tr("Search trees — %1").arg(QFileInfo(m_treesPath).fileName());
}

namespace {

// A run store is an SQLite file; a record is JSON. The first 16 bytes tell them apart
// whatever the file is called.
bool isSqliteFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) && f.read(16) == QByteArray("SQLite format 3\0", 16);
}

} // namespace

bool MainWindow::openSearchTrees(const QString &path, QString *error)
{
    if (isSqliteFile(path)) {
        qint64 run = 0;
        QString e;
        try {
            run = rwb::widgets::lastMctsRun(path.toStdString());
            if (run == 0)
                e = tr("%1 has no tree search runs (rwb mcts run writes them).").arg(path);
        } catch (const std::exception &ex) {
            e = QString::fromUtf8(ex.what());
        }
        if (run > 0)
            return openSearchTreesRun(path, run, error);
        if (error)
            *error = e;
        notify(tr("Search trees"), e);
        return false;
    }
    MctsViewer *viewer = searchTrees();
    m_treesPath = path;
    m_treesRun = 0;
    viewer->setWindowTitle(treesTitle());
    const bool ok = viewer->setSource(std::make_shared<MctsFileSource>(path.toStdString()), error);
    showSearchTrees();
    return ok;
}

bool MainWindow::openSearchTreesRun(const QString &storePath, qint64 runId, QString *error)
{
    MctsViewer *viewer = searchTrees();
    m_treesPath = storePath;
    m_treesRun = runId;
    viewer->setWindowTitle(treesTitle());
    auto source = std::make_shared<rwb::widgets::MctsStoreSource>(storePath.toStdString(), runId);
    const bool ok = viewer->setSource(source, error);
    // setSource read the run's status: a search still writing is followed.
    viewer->setFollow(ok && source->runStatus() == "running");
    showSearchTrees();
    return ok;
}

void MainWindow::openSearchTreesDialog(bool folder)
{
    const QString path =
        folder ? QFileDialog::getExistingDirectory(this, tr("Open a folder of search tree records"))
               : QFileDialog::getOpenFileName(this, tr("Open a search tree record"), QString(),
                                              tr("Search tree records (*.json);;Run stores (*.sqlite *.db);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    openSearchTrees(path, &error); // the viewer shows what went wrong
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
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
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
void MainWindow::restoreAlertSettings()
{
    QSettings s;
    s.beginGroup(QStringLiteral("hackingAlert"));
    rwb::eval::HackingSettings a;
    const auto read = [&s](const char *key, double fallback, double min) {
        bool ok = false;
        const double v = s.value(QLatin1String(key)).toDouble(&ok);
        return ok && std::isfinite(v) && v >= min ? v : fallback;
    };
    a.window = static_cast<int>(std::min(read("window", a.window, 2), 1e5)); // as the dialog allows
    a.riseThreshold = read("riseThreshold", a.riseThreshold, 0);
    a.f1DropThreshold = read("f1DropThreshold", a.f1DropThreshold, 0);
    a.fallThreshold = read("fallThreshold", a.fallThreshold, 0);
    a.minDistinctAnswers = read("minDistinctAnswers", a.minDistinctAnswers, 0);
    a.maxTopAnswerShare = read("maxTopAnswerShare", a.maxTopAnswerShare, 0);
    m_curves->setAlertSettings(a);
}

void MainWindow::saveAlertSettings() const
{
    const rwb::eval::HackingSettings &a = m_curves->alertSettings();
    QSettings s;
    s.beginGroup(QStringLiteral("hackingAlert"));
    s.setValue(QStringLiteral("window"), a.window);
    s.setValue(QStringLiteral("riseThreshold"), a.riseThreshold);
    s.setValue(QStringLiteral("f1DropThreshold"), a.f1DropThreshold);
    s.setValue(QStringLiteral("fallThreshold"), a.fallThreshold);
    s.setValue(QStringLiteral("minDistinctAnswers"), a.minDistinctAnswers);
    s.setValue(QStringLiteral("maxTopAnswerShare"), a.maxTopAnswerShare);
}

void MainWindow::saveLayout()
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/view"), m_tabs->currentIndex());
    s.setValue(QStringLiteral("samples"), m_designer->samplesPath());
    s.setValue(QStringLiteral("config"), m_designer->configPath());
    s.setValue(QStringLiteral("workspace"), m_workspace ? m_workspace->dir() : QString());
    s.setValue(QStringLiteral("store"), m_storePath);
    s.setValue(QStringLiteral("run"), m_runId);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_controller->isActive() &&
        !confirm(tr("Quit"), tr("A training run is in progress. Stop it after the step in flight (a checkpoint is "
                                "saved) and quit?"))) {
        event->ignore();
        return;
    }
    saveLayout();
    event->accept();
}
