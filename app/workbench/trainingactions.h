#pragma once

#include "workspace.h"

#include <QObject>
#include <QString>
#include <QVector>

#include <functional>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QProgressBar;
class QWidget;
class RewardDesigner;

namespace rwb::train {
struct GrpoConfig;
}
namespace rwb::widgets {
class JobRunner;
class CurvePanel;
class RunSession;
class RunSetupForm;
class TrainingController;
struct TrainingStep;
} // namespace rwb::widgets

// GRPO training from the workbench: Start (the training setup with the Designer's
// weights), Pause, Resume, Stop, resuming a stored run from its checkpoint; the training
// controller (its own thread); the live weight changes the Designer asks for, confirmed
// and marked on the curves; the status bar's run line and step bar. The main window shows
// the run it starts (runStarted) and hands this window's live steps to the run session.
// GUI thread only.
class TrainingActions : public QObject {
    Q_OBJECT
public:
    struct Views {
        RewardDesigner *designer;
        rwb::widgets::RunSetupForm *form;
        QDockWidget *formDock;
        rwb::widgets::CurvePanel *curves;
    };
    // `window` parents the widgets; `workspace` and `session` give the open workspace and
    // the run shown; `confirm` asks the user (title, text).
    TrainingActions(QWidget *window, Views views, std::function<const std::optional<rwb::widgets::Workspace> &()> workspace,
                    std::function<rwb::widgets::RunSession *()> session,
                    std::function<bool(const QString &, const QString &)> confirm);

    rwb::widgets::TrainingController *controller() const { return m_controller; }
    // The job runner a run of more than one process (the form's Processes) goes through:
    // `rwb grpo --nproc N --control F` in the background, steered through F.
    void setJobRunner(rwb::widgets::JobRunner *runner);
    // Whether a multi-process run started here is going on (its run id, 0 before it is known).
    bool isExternalRunning() const { return m_external; }
    qint64 externalRunId() const { return m_externalRun; }
    // Its control file ("" when none).
    QString controlPath() const { return m_controlPath; }
    // Start, Pause, Resume, Stop.
    QList<QAction *> runActions() const;
    QAction *startAction() const { return m_start; }
    QList<QWidget *> statusWidgets() const;
    void retranslate();

    // Starts a GRPO run; `error` names the file or field at fault.
    bool startTraining(const rwb::train::GrpoConfig &config, QString *error);
    // Reads a GRPO config file (as `rwb grpo --config` takes) and starts it.
    bool startTrainingFromFile(const QString &path, QString *error);
    // Continues a stopped or crashed GRPO run of a store from its last checkpoint.
    bool resumeRun(const QString &storePath, qint64 runId, QString *error);
    // Whether run `runId` of `storePath` is the one this window is training.
    bool isTraining(const QString &storePath, qint64 runId) const;
    // The form's reward config follows the Designer's (a value, no file).
    void syncFormRewardConfig();

Q_SIGNALS:
    void log(const QString &line);
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);
    void runStarted(const QString &storePath, qint64 runId);
    // A step or the run's end was stored (the run list changes).
    void stored();
    // The training controller went idle or busy.
    void stateChanged(bool idle);

private:
    void startFromForm();
    // `fromDesigner`: the config's reward config is the Designer's own (not loaded into it again).
    bool startTraining(const rwb::train::GrpoConfig &config, QString *error, bool fromDesigner);
    void onStarted(qint64 runId, qint64 totalSteps);
    void onStep(const rwb::widgets::TrainingStep &step);
    void onApplyWeightsRequested(const QVector<double> &weights);
    void onWeightsApplied(qint64 atStep, const QVector<double> &weights);
    void onFinished(const QString &status, const QString &message);
    void updateActions();
    // The form's run in N processes (`rwb grpo --nproc N --control F`).
    bool startExternal(const rwb::train::GrpoConfig &config, int processes, QString *error);
    // Writes the control file: pause, stop when asked, and the weights when `withWeights`.
    bool writeControl(bool withWeights = false);
    void pause();
    void resume();
    void stop();

    QWidget *m_window;
    Views m_views;
    std::function<const std::optional<rwb::widgets::Workspace> &()> m_workspace;
    std::function<rwb::widgets::RunSession *()> m_session;
    std::function<bool(const QString &, const QString &)> m_confirm;
    rwb::widgets::TrainingController *m_controller;
    QString m_liveStorePath; // the store of the run in training
    QString m_liveRunName;
    QAction *m_start;
    QAction *m_pause;
    QAction *m_resume;
    QAction *m_stop;
    QLabel *m_status;
    QProgressBar *m_progress;
    rwb::widgets::JobRunner *m_jobs = nullptr;
    bool m_external = false;        // a multi-process run of this window goes on
    bool m_externalPaused = false;
    bool m_externalStopping = false;
    qint64 m_externalRun = 0;
    QString m_controlPath;
    QVector<double> m_externalWeights; // the last weights sent through the control file
};
