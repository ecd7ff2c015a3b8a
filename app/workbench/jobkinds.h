#pragma once

#include "jobform.h"
#include "workspace.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

// The jobs of the Jobs menu that run an `rwb` command (JobRunner::runCommand): each kind
// says how to build its form from what the window has open, and what to open while and
// after it runs. JobActions owns the menu, the runner and the Jobs dock; a kind never
// touches the window itself: it asks through JobOpeners, which the main window fills.

// What the window has open when a form is made: the defaults a form starts from.
struct JobContext {
    std::optional<rwb::widgets::Workspace> workspace;
    QString storePath;      // the run store shown ("" when none)
    qint64 runId = 0;       // the run shown (0 when none)
    QString runKind;        // its kind ("grpo", "mcts", "import", …)
    QString runConfigJson;  // its config as stored ("" when none): a form may start from it
    // A folder for the job's config and output: WORKSPACE/jobs (the current folder
    // without a workspace). Each job writes under baseDir()/<kind>-<time>.
    QString jobsDir() const;
    // A fresh, not yet existing path jobsDir()/<stem>-YYYYMMDD-HHMMSS[-N]<suffix>.
    QString freshPath(const QString &stem, const QString &suffix = {}) const;
    // The workspace's models (folders with config.json), newest first; for choices.
    QStringList models() const;
};

// What a job may open in the window. Each returns false with *error when it cannot.
struct JobOpeners {
    std::function<bool(const QString &store, qint64 runId, QString *error)> searchTreesRun; // follows it live
    std::function<bool(const QString &store, const QString &set, QString *error)> annotator;
    std::function<bool(const QString &store, qint64 runId, QString *error)> run;             // the run's views
    std::function<void(const QString &title, const QString &text)> notice;
    // Shows a kind's own view of the result in the Jobs dock, under the job's summary
    // (the dock takes the widget; the next job's result replaces it).
    std::function<void(QWidget *view)> resultView;
};

// A command a job runs after another of its commands ended ok: its title (the Jobs dock's
// and the status bar's) and its rwb arguments.
struct JobFollowUp {
    QString title;
    QStringList arguments;
};

struct JobKind {
    QString id;                                   // "mcts", "prm-train", … (object names, tests)
    std::function<QString()> menuText;            // translated when called
    // The form, its fields filled from the context; nullptr (after a notice through
    // `openers`) when the job cannot start from here.
    std::function<rwb::widgets::JobForm *(const JobContext &, const JobOpeners &openers, QWidget *parent)> form;
    // The job's title in the status bar and the Jobs dock, from its form.
    std::function<QString(const rwb::widgets::JobForm &)> title;
    // Each progress line while it runs (optional): e.g. the MCTS run's id to follow it.
    std::function<void(const QJsonObject &progress, const rwb::widgets::JobForm &, const JobOpeners &)> progress;
    // When it ended (ok, or cancelled with whatever it printed): open its output.
    std::function<void(bool ok, const QJsonObject &result, const rwb::widgets::JobForm &, const JobOpeners &)> finished;
    // A command to run next (optional), asked when the job's `ran`-th command (1: the
    // form's) ended ok, with its result; nullopt ends the job. The follow-up is the same
    // job: the dock takes its title, `progress` its lines, Cancel stops the chain, and
    // `finished` comes once, after the last command (or the first that failed or was
    // cancelled), with that command's result.
    std::function<std::optional<JobFollowUp>(int ran, const QJsonObject &result, const rwb::widgets::JobForm &)> next;
    // Metrics of the progress lines to plot in the Jobs dock: their axis title (translated
    // when called; none: no curves), and which (names starting with one of these; empty: all).
    std::function<QString()> curvesTitle;
    // The Jobs dock's line for a progress line (optional; default: its "detail", the
    // command's English words), e.g. a phase named in the user's language.
    std::function<QString(const QJsonObject &progress)> describe;
    QStringList curvePrefixes;
};

// The kinds, in menu order. Each file defines its own.
std::vector<JobKind> mctsJobKinds();        // MCTS search
std::vector<JobKind> prmJobKinds();         // preference pairs + judge labels, PRM training, RFT
std::vector<JobKind> judgeEvalJobKinds();   // a judge's evaluation
std::vector<JobKind> importJobKinds();      // other trainers' rollouts
