#pragma once

#include <QToolButton>

class QAction;

namespace rwb::widgets {

// "Re-score…": a tool button whose menu asks for a what-if re-score (RescoreView) of the
// filtered rollouts, the current rollout's group or its step, with the Designer's reward
// config. A view shows the entries it has (setScopes) and turns the current-rollout ones
// on and off as a rollout is current. GUI thread only.
class RescoreButton : public QToolButton {
    Q_OBJECT
public:
    enum Scope { Filtered = 1, Group = 2, Step = 4 };

    explicit RescoreButton(QWidget *parent = nullptr);
    // Which entries the menu has (an OR of Scope).
    void setScopes(int scopes);
    // Whether there is a current group and step (the group and step entries).
    void setCurrentAvailable(bool available);
    QAction *action(Scope scope) const;

Q_SIGNALS:
    void requested(rwb::widgets::RescoreButton::Scope scope);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();

    QAction *m_filtered = nullptr;
    QAction *m_group = nullptr;
    QAction *m_step = nullptr;
};

} // namespace rwb::widgets
