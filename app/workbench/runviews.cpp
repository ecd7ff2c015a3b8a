#include "runviews.h"

#include "curvepanel.h"
#include "failureexplorer.h"
#include "groupadvantageview.h"
#include "judgedecisionview.h"
#include "rescoreview.h"
#include "rewarddesigner.h"
#include "rolloutbrowser.h"
#include "runsession.h"
#include "tokenview.h"

#include <QFileDialog>
#include <QLabel>
#include <QSettings>

#include <algorithm>
#include <cmath>
#include <initializer_list>

using namespace rwb::widgets;

RunViews::RunViews(QWidget *window, RewardDesigner *designer)
    : QObject(window)
    , m_window(window)
    , m_designer(designer)
    , m_curves(new CurvePanel)
    , m_groups(new GroupAdvantageView)
    , m_rollouts(new RolloutBrowser)
    , m_failures(new FailureExplorer)
    , m_judge(new JudgeDecisionView)
    , m_tokens(new TokenView)
    , m_alertStatus(new QLabel(window))
{
    m_curves->setObjectName(QStringLiteral("curvePanel"));
    m_groups->setObjectName(QStringLiteral("groupAdvantageView"));
    m_rollouts->setObjectName(QStringLiteral("rolloutBrowser"));
    m_failures->setObjectName(QStringLiteral("failureExplorer"));
    m_judge->setObjectName(QStringLiteral("judgeDecisionView"));
    m_tokens->setObjectName(QStringLiteral("tokenView"));

    // A step picked on the curves shows its groups; a sample clicked in a group opens it
    // in the rollout browser and the token view.
    connect(m_curves, &CurvePanel::stepCursorChanged, m_groups, &GroupAdvantageView::showStep);
    connect(m_groups, &GroupAdvantageView::stepChanged, m_curves, &CurvePanel::setStepCursor);
    connect(m_groups, &GroupAdvantageView::rolloutActivated, this, [this](qint64 id) {
        m_rollouts->selectRollout(id);
        Q_EMIT viewRequested(m_rollouts);
    });
    // A rollout's "judge calls" lists them in the judge view; a judge call's rollout opens
    // in the browser.
    connect(m_rollouts, &RolloutBrowser::judgeCallsRequested, this, [this](qint64 id) {
        // The judge view may show the Designer's calls: back to the open run's first.
        if (m_judgeSession && m_session) {
            QString error;
            if (!m_judge->setSession(m_session.get(), &error) && !error.isEmpty())
                Q_EMIT log(error);
            m_judgeSession.reset();
        }
        m_judge->showRollout(id);
        Q_EMIT viewRequested(m_judge);
    });
    connect(m_judge, &JudgeDecisionView::rolloutRequested, this, [this](qint64 id) {
        m_rollouts->selectRollout(id);
        Q_EMIT viewRequested(m_rollouts);
    });
    connect(m_rollouts, &RolloutBrowser::rolloutSelected, this, [this](qint64 id) {
        QString error;
        if (m_session && !m_tokens->showRollout(*m_session, id, &error))
            Q_EMIT statusMessage(error);
    });
    // What if: the rollout browser's "Re-score…" opens a window re-scoring its scope with
    // the Designer's config; a rollout activated there opens in the browser.
    connect(m_rollouts, &RolloutBrowser::rescoreRequested, this,
            [this](const rwb::train::RescoreScope &scope, const QString &text) {
                if (!m_session)
                    return;
                // The run the browser shows (the scope's), in the session's store.
                RescoreView *view =
                    RescoreView::openWindow(m_window, m_session->document(), scope, m_designer->currentConfig(), text);
                connect(view, &RescoreView::rolloutActivated, this, [this](qint64 id) {
                    m_rollouts->selectRollout(id);
                    Q_EMIT viewRequested(m_rollouts);
                });
            });
    // The Designer's judge calls (its re-scores are an evaluation run of their own store)
    // open in the judge view, and follow it while it shows them.
    connect(m_designer, &RewardDesigner::judgeCallsRequested, this, [this](const QString &store, qint64 run) {
        QString error;
        std::unique_ptr<RunSession> session = RunSession::open(store, run, &error);
        if (!session) { // the view as it was
            Q_EMIT notice(tr("Judge calls"), error);
            return;
        }
        if (!m_judge->setSession(session.get(), &error)) {
            QString again; // what it showed before
            m_judge->setSession(m_judgeSession ? m_judgeSession.get() : m_session.get(), &again);
            Q_EMIT notice(tr("Judge calls"), error);
            return;
        }
        connect(session.get(), &RunSession::problem, this, &RunViews::log);
        m_judgeSession = std::move(session);
        Q_EMIT viewRequested(m_judge);
    });
    connect(m_designer, &RewardDesigner::judgeCallsLogged, this, [this](const QString &store, qint64 run) {
        if (m_judge->storePath() == store && m_judge->runId() == run)
            m_judge->refresh();
    });
    // The reward-hacking alert's banner opens the rollouts of its steps, or the failure
    // explorer comparing the checkpoints around it; its status-bar link the curves.
    connect(m_curves, &CurvePanel::rolloutsRequested, this, [this](qint64 from, qint64 to) {
        m_rollouts->showSteps(from, to);
        Q_EMIT viewRequested(m_rollouts);
    });
    connect(m_curves, &CurvePanel::checkpointComparisonRequested, this, &RunViews::compareCheckpointsForAlert);
    connect(m_curves, &CurvePanel::alertSettingsEdited, this, &RunViews::saveAlertSettings);
    connect(m_curves, &CurvePanel::alertsChanged, this, &RunViews::updateAlertStatus);
    m_alertStatus->setObjectName(QStringLiteral("alertStatus"));
    m_alertStatus->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; border: 1px solid #e0a800; padding: 0 4px; }"));
    m_alertStatus->setTextFormat(Qt::RichText);
    m_alertStatus->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    m_alertStatus->hide();
    connect(m_alertStatus, &QLabel::linkActivated, this, [this] { Q_EMIT viewRequested(m_curves); });
    restoreAlertSettings();
}

// The views go before their sessions would: each lets its session go first.
RunViews::~RunViews()
{
    disconnect(m_curves, nullptr, this, nullptr);
    for (RunView *view : std::initializer_list<RunView *>{m_curves, m_groups, m_rollouts, m_failures, m_judge})
        view->setSession(nullptr, nullptr);
}

bool RunViews::openRun(const QString &storePath, qint64 runId, QString *error)
{
    std::unique_ptr<RunSession> session = RunSession::open(storePath, runId, error);
    // The curves decide whether the run shows; the other views show what it has.
    if (!session || !m_curves->setSession(session.get(), error))
        return false;
    for (RunView *view : std::initializer_list<RunView *>{m_groups, m_rollouts, m_failures, m_judge}) {
        QString e;
        if (!view->setSession(session.get(), &e) && !e.isEmpty())
            Q_EMIT log(e);
    }
    m_judgeSession.reset();
    m_tokens->clear();
    m_session = std::move(session);
    RunSession *s = m_session.get();
    connect(s, &RunSession::problem, this, &RunViews::log);
    connect(s, &RunSession::ended, this, [this, s](const QString &status, const QString &message) {
        Q_EMIT runEnded();
        if (s->isLive())
            return;
        const QString what = status == QLatin1String("finished")  ? tr("finished")
                             : status == QLatin1String("stopped") ? tr("stopped")
                                                                  : tr("failed");
        Q_EMIT log(message.isEmpty() ? tr("Run %1 (written by another process): %2").arg(s->runId()).arg(what)
                                     : tr("Run %1 (written by another process): %2: %3").arg(s->runId()).arg(what, message));
    });
    return true;
}

void RunViews::closeRun()
{
    for (RunView *view : std::initializer_list<RunView *>{m_curves, m_groups, m_rollouts, m_failures, m_judge})
        view->setSession(nullptr, nullptr);
    m_judgeSession.reset();
    m_tokens->clear();
    m_session.reset();
}

bool RunViews::overlayRun(const QString &storePath, qint64 runId, QString *error)
{
    const std::unique_ptr<RunSession> session = RunSession::open(storePath, runId, error);
    return session && m_curves->addOverlay(*session, error);
}

void RunViews::compareCheckpointsForAlert(qint64 beforeStep, qint64 latestStep)
{
    // Evaluations stored since the explorer opened the run (a live run) count too.
    QString error;
    if (m_session && !m_failures->setSession(m_session.get(), &error) && !error.isEmpty())
        Q_EMIT log(error);
    const QList<qint64> steps = m_failures->checkpointSteps();
    if (steps.size() < 2) {
        Q_EMIT statusMessage(tr("The run has no two evaluated checkpoints to compare yet."));
        return;
    }
    // A: the last checkpoint at or before the alert's start; B: the last at or before the
    // latest evaluation. A comes before B (the first two when B is the first).
    const auto atOrBefore = [&steps](qint64 step, int fallback) {
        int index = fallback;
        for (int k = 0; k < steps.size(); ++k)
            if (steps[k] <= step)
                index = k;
        return index;
    };
    const int b = std::max(1, atOrBefore(latestStep, static_cast<int>(steps.size()) - 1));
    const int a = std::min(atOrBefore(beforeStep, 0), b - 1);
    m_failures->showCheckpoint(steps[a]);
    m_failures->compareWith(steps[b]);
    Q_EMIT viewRequested(m_failures);
}

void RunViews::exportCurves(bool png)
{
    const QString path = png ? QFileDialog::getSaveFileName(m_window, tr("Export curves"), QString(), tr("PNG images (*.png)"))
                             : QFileDialog::getSaveFileName(m_window, tr("Export curves"), QString(), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!(png ? m_curves->exportPng(path, &error) : m_curves->exportCsv(path, &error)))
        Q_EMIT notice(tr("Export curves"), error);
    else
        Q_EMIT statusMessage(tr("Saved %1").arg(path));
}

void RunViews::retranslate()
{
    updateAlertStatus();
}

void RunViews::updateAlertStatus()
{
    const auto &alerts = m_curves->alerts();
    m_alertStatus->setVisible(!alerts.empty());
    if (alerts.empty())
        return;
    m_alertStatus->setText(QStringLiteral("<a href=\"curves\" style=\"color: #664d03;\">%1</a>")
                               .arg(tr("⚠ Reward-hacking alert").toHtmlEscaped()));
    m_alertStatus->setToolTip(tr("%1\nClick to see it on the curves.").arg(CurvePanel::alertText(*m_curves->headlineAlert())));
}

void RunViews::restoreAlertSettings()
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

void RunViews::saveAlertSettings() const
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
