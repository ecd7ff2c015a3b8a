#pragma once

#include "jobkinds.h"
#include "workspace.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QAction;
class QLabel;
class QProgressBar;
class QToolButton;
class QWidget;

namespace rwb::widgets {
class JobForm;
class JobRunner;
class JobView;
class RunSession;
} // namespace rwb::widgets

// The workbench's background jobs (Training menu: synthesize e-mails, train a tokenizer,
// a new tiny model, SFT from a config, evaluate a checkpoint; Cancel; and the Jobs menu's
// kinds, jobkinds.h: MCTS search, pairs and judge labels, PRM training, RFT, a judge's
// evaluation, imports): their actions and forms, the job runner, the Jobs dock's view and
// the status-bar widgets that show the job running. One job at a time. GUI thread only.
class JobActions : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs; `workspace` and `session` give the open workspace and
    // the run shown (what a job writes into and evaluates).
    JobActions(QWidget *window, std::function<const std::optional<rwb::widgets::Workspace> &()> workspace,
               std::function<rwb::widgets::RunSession *()> session);

    rwb::widgets::JobRunner *runner() const { return m_jobs; }
    // In menu order: synthesize, tokenizer, model, SFT, evaluate, cancel.
    QList<QAction *> actions() const;
    // The Jobs menu: one action per kind (object name "job-<id>").
    QList<QAction *> kindActions() const { return m_kindActions; }
    // What the kinds may open in the window (the main window fills it).
    void setOpeners(const JobOpeners &openers) { m_openers = openers; }
    // The Jobs dock's content.
    rwb::widgets::JobView *view() const { return m_view; }
    // Opens kind `id`'s form (non-modal; Start runs the job). nullptr when the kind is
    // unknown, another job runs (a notice says so) or the kind cannot start from here.
    rwb::widgets::JobForm *openForm(const QString &id);
    // Starts the job of a form openForm made (what Start does); false with a notice when
    // it cannot (invalid, the config not written, another job running).
    bool startForm(rwb::widgets::JobForm *form);
    // The form of the job running or last run (nullptr before one).
    rwb::widgets::JobForm *currentForm() const { return m_form; }
    // What the window has open, for a form's defaults.
    JobContext context() const;
    // The run the job running writes, as its progress lines name it (0: none or not yet).
    qint64 runningRunId() const { return m_runningRunId; }
    // The status bar's job label, progress bar and cancel button (hidden but while a job runs).
    QList<QWidget *> statusWidgets() const;
    void retranslate();

Q_SIGNALS:
    void log(const QString &line);
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);
    // A job finished: new data, models or runs may be there.
    void jobFinished(bool ok);
    // An evaluation's predictions file, written: checkpoint `checkpointStep` of run
    // `runId` of the store at `storePath`, evaluated.
    void predictionsWritten(const QString &path, const QString &storePath, qint64 runId, qint64 checkpointStep);

private:
    bool needWorkspace(const QString &title);
    void synthesizeDialog();
    void trainTokenizerDialog();
    void initModelDialog();
    void sftDialog();
    void evaluateDialog();
    void onJobStarted(const QString &title);
    void onJobProgress(qint64 done, qint64 total, const QString &detail);
    void onJobFinished(bool ok, const QString &message);
    const JobKind *kind(const QString &id) const;

    QWidget *m_window;
    std::function<const std::optional<rwb::widgets::Workspace> &()> m_workspace;
    std::function<rwb::widgets::RunSession *()> m_session;
    rwb::widgets::JobRunner *m_jobs;
    QString m_pendingPredictions; // the evaluation job's output, announced when it finishes
    std::vector<JobKind> m_kinds;
    QList<QAction *> m_kindActions;
    JobOpeners m_openers;
    rwb::widgets::JobForm *m_form = nullptr;  // the form of the job running or last run
    QString m_formKind;                       // its kind's id ("" for the Training menu's jobs)
    bool m_kindJobRunning = false;
    qint64 m_runningRunId = 0;
    int m_commandsRun = 0;                    // the kind job's commands started (JobKind::next)
    QString m_pendingStore;       // … of this store's run and checkpoint
    qint64 m_pendingRun = 0;
    qint64 m_pendingStep = 0;
    QAction *m_synthesize;
    QAction *m_trainTokenizer;
    QAction *m_initModel;
    QAction *m_sft;
    QAction *m_evaluate;
    QAction *m_cancel;
    QLabel *m_status;
    QProgressBar *m_progress;
    QToolButton *m_cancelButton;
    rwb::widgets::JobView *m_view; // made after the status widgets (initialisation order)
};
