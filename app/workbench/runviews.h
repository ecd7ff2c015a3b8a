#pragma once

#include <QObject>
#include <QString>

#include <memory>

class QLabel;
class QWidget;
class RewardDesigner;

namespace rwb::widgets {
class CurvePanel;
class FailureExplorer;
class GroupAdvantageView;
class JudgeDecisionView;
class RolloutBrowser;
class RunSession;
class TokenView;
} // namespace rwb::widgets

// The views of the open run — the curves, the group advantages, the rollouts, the failures,
// the judge decisions and the token view — with the run session (RunSession) they all
// bind to, and how they follow one another: a step picked on the curves shows its groups,
// a sample clicked in a group opens in the rollout browser and the token view, a rollout's
// judge calls list in the judge view, the reward-hacking alert opens its rollouts or the
// checkpoints around it. The main window places them (tabs, a dock) and asks for a run.
// GUI thread only.
class RunViews : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs; `designer` is the Reward Designer, whose judge calls
    // the judge view shows on request.
    RunViews(QWidget *window, RewardDesigner *designer);
    ~RunViews() override;

    rwb::widgets::CurvePanel *curves() const { return m_curves; }
    rwb::widgets::GroupAdvantageView *groups() const { return m_groups; }
    rwb::widgets::RolloutBrowser *rollouts() const { return m_rollouts; }
    rwb::widgets::FailureExplorer *failures() const { return m_failures; }
    rwb::widgets::JudgeDecisionView *judge() const { return m_judge; }
    rwb::widgets::TokenView *tokens() const { return m_tokens; }
    // The status bar's reward-hacking alert: a link to the curves.
    QLabel *alertStatus() const { return m_alertStatus; }
    // The open run (null: none).
    rwb::widgets::RunSession *session() const { return m_session.get(); }

    // Opens run `runId` of a store in every view (through one new session). False with
    // `error` when the curves cannot show it (the views keep the run they had).
    bool openRun(const QString &storePath, qint64 runId, QString *error);
    // Lets the open run go (it was deleted): every view empties, the session ends.
    void closeRun();
    // Adds a run of a store to the curves for comparison.
    bool overlayRun(const QString &storePath, qint64 runId, QString *error);
    // File → Export curves: PNG or CSV.
    void exportCurves(bool png);
    void retranslate();

Q_SIGNALS:
    // A view asks to be shown (the window raises its tab).
    void viewRequested(QWidget *view);
    void log(const QString &line);
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);
    // The run shown ended (its last steps are in; the run list changes).
    void runEnded();

private:
    void compareCheckpointsForAlert(qint64 beforeStep, qint64 latestStep);
    void updateAlertStatus();
    void restoreAlertSettings();
    void saveAlertSettings() const;

    QWidget *m_window;
    RewardDesigner *m_designer;
    rwb::widgets::CurvePanel *m_curves;
    rwb::widgets::GroupAdvantageView *m_groups;
    rwb::widgets::RolloutBrowser *m_rollouts;
    rwb::widgets::FailureExplorer *m_failures;
    rwb::widgets::JudgeDecisionView *m_judge;
    rwb::widgets::TokenView *m_tokens;
    QLabel *m_alertStatus;
    std::unique_ptr<rwb::widgets::RunSession> m_session;
    // The judge view's own when it shows the Designer's judge calls.
    std::unique_ptr<rwb::widgets::RunSession> m_judgeSession;
};
