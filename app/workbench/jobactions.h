#pragma once

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
class JobRunner;
class RunSession;
} // namespace rwb::widgets

// The workbench's background jobs (Training menu: synthesize e-mails, train a tokenizer,
// a new tiny model, SFT from a config, evaluate a checkpoint; Cancel): their actions and
// dialogs, the job runner, and the status-bar widgets that show the job running. One job
// at a time. GUI thread only.
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
    // The status bar's job label, progress bar and cancel button (hidden but while a job runs).
    QList<QWidget *> statusWidgets() const;
    void retranslate();

Q_SIGNALS:
    void log(const QString &line);
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);
    // A job finished: new data, models or runs may be there.
    void jobFinished(bool ok);
    // An evaluation's predictions file, written.
    void predictionsWritten(const QString &path);

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

    QWidget *m_window;
    std::function<const std::optional<rwb::widgets::Workspace> &()> m_workspace;
    std::function<rwb::widgets::RunSession *()> m_session;
    rwb::widgets::JobRunner *m_jobs;
    QString m_pendingPredictions; // the evaluation job's output, announced when it finishes
    QAction *m_synthesize;
    QAction *m_trainTokenizer;
    QAction *m_initModel;
    QAction *m_sft;
    QAction *m_evaluate;
    QAction *m_cancel;
    QLabel *m_status;
    QProgressBar *m_progress;
    QToolButton *m_cancelButton;
};
