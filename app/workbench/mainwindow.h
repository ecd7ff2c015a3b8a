#pragma once

#include "workspace.h"

#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>

class LanguageManager;
class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QProgressBar;
class QTabWidget;
class QTableView;
class QTimer;
class QToolBar;
class QToolButton;
class RewardDesigner;

namespace rwb::train {
struct GrpoConfig;
}
namespace rwb::widgets {
class CurvePanel;
class FailureExplorer;
class GroupAdvantageView;
class JobRunner;
class JudgeDecisionView;
class MctsViewer;
class PreferenceAnnotator;
class RolloutBrowser;
class RunListModel;
class RunSession;
class RunSetupForm;
class TokenView;
class TrainingController;
struct TrainingStep;
} // namespace rwb::widgets

// The workbench's main window. The centre holds one tab per task: the Reward Designer,
// the live curves, the group advantages, the rollout browser, the failure explorer and
// the judge decisions.
// Docks hold the reward components, the training setup and the runs of the workspace
// (left), the token view and the log (right). The MCTS tree viewer has a window of its
// own (a search tree wants the whole screen), opened from the File and View menus. A
// training run goes through the TrainingController (its own thread); every view follows
// its steps. Restores its layout, the workspace, the open run, the open files and the
// language at the next start.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // In tab order (the index is remembered between sessions: append new views at the end).
    enum class View { Design, Curves, Groups, Rollouts, Failures, Judge };

    explicit MainWindow(LanguageManager *language, QWidget *parent = nullptr);
    ~MainWindow() override;

    RewardDesigner *designer() const { return m_designer; }
    rwb::widgets::TrainingController *controller() const { return m_controller; }
    rwb::widgets::CurvePanel *curves() const { return m_curves; }
    rwb::widgets::GroupAdvantageView *groups() const { return m_groups; }
    rwb::widgets::RolloutBrowser *rollouts() const { return m_rollouts; }
    rwb::widgets::RunListModel *runList() const { return m_runList; }
    rwb::widgets::FailureExplorer *failures() const { return m_failures; }
    rwb::widgets::JudgeDecisionView *judge() const { return m_judge; }
    rwb::widgets::TokenView *tokens() const { return m_tokens; }
    rwb::widgets::RunSetupForm *runForm() const { return m_runForm; }
    rwb::widgets::JobRunner *jobs() const { return m_jobs; }
    // The MCTS tree viewer's window (made on first use; hidden until opened).
    rwb::widgets::MctsViewer *searchTrees();
    // The annotation view's window for preference pairs (made on first use; hidden until opened).
    rwb::widgets::PreferenceAnnotator *annotator();
    const std::optional<rwb::widgets::Workspace> &workspace() const { return m_workspace; }
    QString storePath() const { return m_storePath; }
    qint64 runId() const { return m_runId; }
    // Reads another trainer's rollout dump (a folder or file) into a new run of the store
    // at `storePath` and opens it; logs what was skipped or kept only in the details.
    // Returns the run's id, or 0 with `error` naming the file, line and field (nothing
    // imported).
    qint64 importRollouts(const QString &dump, const QString &storePath, QString *error);

    // Opens the samples and the config given on the command line, else those of the
    // last session, else the bundled sample set and the paper's best preset (table 2 *).
    void openInitialFiles(const QString &samples, const QString &config);
    // The workspace of the last session, when there is one and it still opens.
    void restoreWorkspace();

    bool openWorkspace(const QString &dir, QString *error);
    bool createWorkspace(const QString &dir, QString *error);
    // Shows a run of a store (the workspace's or any other) in every view. A run that
    // another process is writing (`rwb grpo`, with --nproc or not, `rwb serve`) is
    // followed: its new steps, rollouts and judge calls appear once a second until it ends.
    bool openRun(const QString &storePath, qint64 runId, QString *error);
    // Whether the run shown is followed as another process writes it.
    bool isFollowingStoredRun() const;
    // Starts a GRPO run; the views follow it. `error` names the file or field at fault.
    bool startTraining(const rwb::train::GrpoConfig &config, QString *error);
    // Reads a GRPO config file (as `rwb grpo --config` takes) and starts it.
    bool startTrainingFromFile(const QString &path, QString *error);
    // Shows the search records of `path` (a record file, a folder of them, or a run store:
    // its last MCTS run) in the tree viewer's window. On failure the window still opens,
    // with the message naming the file and place, which `error` gets too.
    bool openSearchTrees(const QString &path, QString *error);
    // Shows the trees of MCTS run `runId` of a store; a run still searching is followed
    // (Follow on), so its trees appear and grow as `rwb mcts run` writes them.
    bool openSearchTreesRun(const QString &storePath, qint64 runId, QString *error);
    // Opens pair set `set` of a store (the first when empty) in the annotation view's
    // window. On failure the window still opens with the message, which `error` gets too.
    bool openAnnotator(const QString &storePath, const QString &set, QString *error);
    // A pair of sibling steps of a stored tree (the tree viewer's "Compare siblings"):
    // added to the set "manual pairs" of the store when new, then shown for annotation.
    bool compareSiblings(const QString &storePath, qint64 treeId, int nodeA, int nodeB, QString *error);
    // Continues a stopped or crashed run of a store from its last checkpoint.
    bool resumeRun(const QString &storePath, qint64 runId, QString *error);

    void showView(View view);
    View currentView() const;

    // Asks the user to confirm (title, text); a test or a scripted run may answer instead.
    void setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler);

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createViews();
    void createDocks();
    void createActions();
    void createStatusBar();
    void connectTraining();
    void retranslate();
    void restoreLayout();
    void saveLayout();
    void restoreAlertSettings();
    void saveAlertSettings() const;
    void updateAlertStatus();
    void compareCheckpointsForAlert(qint64 beforeStep, qint64 latestStep);
    void openBundledSamples();
    void resetLayout();
    void showAbout();
    void onSamplesLoaded(const QString &path, int count);

    void newWorkspaceDialog();
    void openWorkspaceDialog();
    void openStoreDialog();
    // File → Import rollouts: another trainer's dump folder into a run of the open store.
    void importRolloutsDialog();
    void openSearchTreesDialog(bool folder);
    void openAnnotatorDialog();
    void showSearchTrees();
    QString treesTitle() const;
    void startFromForm();
    QString saveDesignerConfigForRun(QString *error);
    void syncFormRewardConfig();
    void onTrainingStarted(qint64 runId, qint64 totalSteps);
    void onStepFinished(const rwb::widgets::TrainingStep &step);
    void onWeightsApplied(qint64 atStep, const QVector<double> &weights);
    void onTrainingFinished(const QString &status, const QString &message);
    void onApplyWeightsRequested(const QVector<double> &weights);
    void updateTrainingActions();
    void activateRunRow(const QModelIndex &index);
    qint64 selectedRunId() const;
    void overlaySelectedRun();
    void resumeSelectedRun();
    void synthesizeDialog();
    void trainTokenizerDialog();
    void initModelDialog();
    void sftDialog();
    bool needWorkspace(const QString &title);
    void evaluateDialog();
    void onJobStarted(const QString &title);
    void onJobProgress(qint64 done, qint64 total, const QString &detail);
    void onJobFinished(bool ok, const QString &message);
    void exportCurves(bool png);
    void appendLog(const QString &line);
    void notify(const QString &title, const QString &text);
    bool confirm(const QString &title, const QString &text);

    LanguageManager *m_language = nullptr;
    RewardDesigner *m_designer = nullptr;
    rwb::widgets::TrainingController *m_controller = nullptr;
    rwb::widgets::JobRunner *m_jobs = nullptr;
    rwb::widgets::CurvePanel *m_curves = nullptr;
    rwb::widgets::GroupAdvantageView *m_groups = nullptr;
    rwb::widgets::RolloutBrowser *m_rollouts = nullptr;
    rwb::widgets::FailureExplorer *m_failures = nullptr;
    rwb::widgets::JudgeDecisionView *m_judge = nullptr;
    rwb::widgets::MctsViewer *m_trees = nullptr;
    rwb::widgets::PreferenceAnnotator *m_annotator = nullptr;
    QString m_treesPath; // what the tree viewer shows
    qint64 m_treesRun = 0; // its run, when it shows a store's
    rwb::widgets::TokenView *m_tokens = nullptr;
    rwb::widgets::RunSetupForm *m_runForm = nullptr;
    rwb::widgets::RunListModel *m_runList = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_runTable = nullptr;
    QPlainTextEdit *m_log = nullptr;
    // The run shown, as a document the views bind to (null: none); the judge view's own
    // when it shows the Designer's judge calls.
    std::unique_ptr<rwb::widgets::RunSession> m_session;
    std::unique_ptr<rwb::widgets::RunSession> m_judgeSession;
    // Binds every run view to `session` (null: none); false when the curves cannot show it.
    bool bindViews(rwb::widgets::RunSession *session, QString *error);

    QDockWidget *m_componentsDock = nullptr;
    QDockWidget *m_trainingDock = nullptr;
    QDockWidget *m_runsDock = nullptr;
    QDockWidget *m_tokensDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    QByteArray m_defaultState;

    std::optional<rwb::widgets::Workspace> m_workspace;
    QString m_storePath;      // the store of the run shown
    qint64 m_runId = 0;       // the run shown (0: none)
    QString m_liveStorePath;  // the store of the run in training
    QString m_liveRunName;
    qint64 m_liveTotalSteps = 0;
    QString m_pendingPredictions; // the evaluation job's output, opened when it finishes
    std::function<bool(const QString &, const QString &)> m_confirm;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_trainingMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QToolBar *m_toolBar = nullptr;
    QAction *m_newWorkspace = nullptr;
    QAction *m_openWorkspace = nullptr;
    QAction *m_openStore = nullptr;
    QAction *m_importRollouts = nullptr;
    QAction *m_openTrees = nullptr;
    QAction *m_openTreesFolder = nullptr;
    QAction *m_showTrees = nullptr;
    QAction *m_annotate = nullptr;
    QAction *m_openSamples = nullptr;
    QAction *m_openBundled = nullptr;
    QAction *m_openBundledLegal = nullptr;
    QAction *m_loadConfig = nullptr;
    QAction *m_saveConfig = nullptr;
    QAction *m_exportPng = nullptr;
    QAction *m_exportCsv = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_start = nullptr;
    QAction *m_pause = nullptr;
    QAction *m_resume = nullptr;
    QAction *m_stop = nullptr;
    QAction *m_resumeRun = nullptr;
    QAction *m_overlayRun = nullptr;
    QAction *m_synthesize = nullptr;
    QAction *m_trainTokenizer = nullptr;
    QAction *m_initModel = nullptr;
    QAction *m_sft = nullptr;
    QAction *m_evaluate = nullptr;
    QAction *m_cancelJob = nullptr;
    QAction *m_resetLayout = nullptr;
    QAction *m_about = nullptr;
    QActionGroup *m_languageGroup = nullptr;
    QAction *m_langSystem = nullptr;
    QAction *m_langEnglish = nullptr;
    QAction *m_langJapanese = nullptr;

    QLabel *m_alertStatus = nullptr; // the reward-hacking alert, a link to the curves
    QLabel *m_samplesStatus = nullptr;
    QLabel *m_workspaceStatus = nullptr;
    QLabel *m_trainingStatus = nullptr;
    QProgressBar *m_stepProgress = nullptr;
    QLabel *m_jobStatus = nullptr;
    QProgressBar *m_jobProgress = nullptr;
    QToolButton *m_cancelJobButton = nullptr;
};
