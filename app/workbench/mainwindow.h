#pragma once

#include "designeractions.h"
#include "helpactions.h"
#include "trainingactions.h"
#include "treewindows.h"
#include "workspaceactions.h"
#include "workspace.h"

#include <QMainWindow>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>

class GuidedTour;
class JobActions;
class RunViews;
class TrainingActions;
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
class RunTableView;
class TokenView;
class TourPanel;
class TrainingController;
struct TrainingStep;
} // namespace rwb::widgets

// The workbench's main window. The centre holds one tab per task: the Reward Designer,
// the live curves, the group advantages, the rollout browser, the failure explorer and
// the judge decisions; the guided tour's panel sits above them while it is open.
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
    rwb::widgets::TrainingController *controller() const { return m_training->controller(); }
    rwb::widgets::CurvePanel *curves() const { return m_curves; }
    rwb::widgets::GroupAdvantageView *groups() const { return m_groups; }
    rwb::widgets::RolloutBrowser *rollouts() const { return m_rollouts; }
    rwb::widgets::RunListModel *runList() const { return m_runList; }
    rwb::widgets::FailureExplorer *failures() const { return m_failures; }
    rwb::widgets::JudgeDecisionView *judge() const { return m_judge; }
    rwb::widgets::TokenView *tokens() const { return m_tokens; }
    rwb::widgets::RunSetupForm *runForm() const { return m_runForm; }
    rwb::widgets::JobRunner *jobs() const { return m_jobs; }
    JobActions *jobActions() const { return m_jobActions; }
    // The guided tour above the views (Help ▸ Guided tour, --tour).
    GuidedTour *tour() const { return m_tour; }
    // The MCTS tree viewer's window and the annotation view's (treewindows.h).
    rwb::widgets::MctsViewer *searchTrees() { return m_treeWindows->searchTrees(); }
    rwb::widgets::PreferenceAnnotator *annotator() { return m_treeWindows->annotator(); }
    const std::optional<rwb::widgets::Workspace> &workspace() const { return m_workspaceActions->workspace(); }
    QString storePath() const { return m_storePath; }
    qint64 runId() const { return m_runId; }
    // Reads another trainer's rollout dump (a folder or file) into a new run of the store
    // at `storePath` and opens it (WorkspaceActions::importRollouts). The run's id, or 0
    // with `error` naming the file, line and field (nothing imported).
    qint64 importRollouts(const QString &dump, const QString &storePath, QString *error);

    // Opens the samples and the config given on the command line, else those of the
    // last session, else the bundled sample set and the paper's best preset (table 2 *).
    void openInitialFiles(const QString &samples, const QString &config)
    {
        m_designerActions->openInitialFiles(samples, config);
    }
    // The workspace of the last session, when there is one and it still opens.
    void restoreWorkspace();
    // File → New task from data, opened on `dataPath` (DesignerActions::openNewTaskDialog).
    NewTaskDialog *openNewTaskDialog(const QString &dataPath) { return m_designerActions->openNewTaskDialog(dataPath); }

    bool openWorkspace(const QString &dir, QString *error) { return m_workspaceActions->openWorkspace(dir, error); }
    bool createWorkspace(const QString &dir, QString *error) { return m_workspaceActions->createWorkspace(dir, error); }
    // Shows a run of a store (the workspace's or any other) in every view. A run that
    // another process is writing (`rwb grpo`, with --nproc or not, `rwb serve`) is
    // followed: its new steps, rollouts and judge calls appear once a second until it ends.
    bool openRun(const QString &storePath, qint64 runId, QString *error);
    // Whether the run shown is followed as another process writes it.
    bool isFollowingStoredRun() const;
    // Starts a GRPO run (a config, or a config file as `rwb grpo --config` takes); the
    // views follow it. `error` names the file or field at fault (TrainingActions).
    bool startTraining(const rwb::train::GrpoConfig &config, QString *error) { return m_training->startTraining(config, error); }
    bool startTrainingFromFile(const QString &path, QString *error) { return m_training->startTrainingFromFile(path, error); }
    // The tree viewer's and the annotation view's (TreeWindows).
    bool openSearchTrees(const QString &path, QString *error) { return m_treeWindows->openSearchTrees(path, error); }
    bool openSearchTreesRun(const QString &storePath, qint64 runId, QString *error)
    {
        return m_treeWindows->openSearchTreesRun(storePath, runId, error);
    }
    bool openAnnotator(const QString &storePath, const QString &set, QString *error)
    {
        return m_treeWindows->openAnnotator(storePath, set, error);
    }
    // Continues a stopped or crashed run of a store from its last checkpoint.
    bool resumeRun(const QString &storePath, qint64 runId, QString *error) { return m_training->resumeRun(storePath, runId, error); }

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
    void resetLayout();
    void showAbout();

    void activateRunRow(const QModelIndex &index);
    qint64 selectedRunId() const;
    void overlaySelectedRun();
    void resumeSelectedRun();
    void appendLog(const QString &line);
    void notify(const QString &title, const QString &text);
    bool confirm(const QString &title, const QString &text);

    LanguageManager *m_language = nullptr;
    RewardDesigner *m_designer = nullptr;
    rwb::widgets::JobRunner *m_jobs = nullptr;
    rwb::widgets::CurvePanel *m_curves = nullptr;
    rwb::widgets::GroupAdvantageView *m_groups = nullptr;
    rwb::widgets::RolloutBrowser *m_rollouts = nullptr;
    rwb::widgets::FailureExplorer *m_failures = nullptr;
    rwb::widgets::JudgeDecisionView *m_judge = nullptr;
    TreeWindows *m_treeWindows = nullptr;
    JobActions *m_jobActions = nullptr;
    TrainingActions *m_training = nullptr;
    rwb::widgets::TokenView *m_tokens = nullptr;
    rwb::widgets::RunSetupForm *m_runForm = nullptr;
    rwb::widgets::RunListModel *m_runList = nullptr;
    QTabWidget *m_tabs = nullptr;
    rwb::widgets::RunTableView *m_runTable = nullptr; // the Runs dock
    QPlainTextEdit *m_log = nullptr;
    // The run's views and the run session they bind to.
    RunViews *m_runViews = nullptr;
    WorkspaceActions *m_workspaceActions = nullptr;
    DesignerActions *m_designerActions = nullptr;

    QDockWidget *m_componentsDock = nullptr;
    QDockWidget *m_trainingDock = nullptr;
    QDockWidget *m_runsDock = nullptr;
    QDockWidget *m_tokensDock = nullptr;
    QDockWidget *m_logDock = nullptr;
    QDockWidget *m_jobsDock = nullptr;
    QMenu *m_jobsMenu = nullptr;
    bool m_closingAfterJob = false; // the window closes when the job it stopped has ended
    QByteArray m_defaultState;

    QString m_storePath;      // the store of the run shown
    qint64 m_runId = 0;       // the run shown (0: none)
    std::function<bool(const QString &, const QString &)> m_confirm;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_trainingMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QToolBar *m_toolBar = nullptr;
    QAction *m_exportPng = nullptr;
    QAction *m_exportCsv = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_resumeRun = nullptr;
    QAction *m_overlayRun = nullptr;
    QAction *m_resetLayout = nullptr;
    QAction *m_about = nullptr;
    HelpActions *m_helpActions = nullptr; // User guide, CLI reference
    rwb::widgets::TourPanel *m_tourPanel = nullptr; // above the views, hidden until the tour opens
    GuidedTour *m_tour = nullptr;
    QActionGroup *m_languageGroup = nullptr;
    QAction *m_langSystem = nullptr;
    QAction *m_langEnglish = nullptr;
    QAction *m_langJapanese = nullptr;

    QLabel *m_alertStatus = nullptr; // the reward-hacking alert, a link to the curves
    QLabel *m_workspaceStatus = nullptr;
};
