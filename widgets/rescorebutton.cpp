#include "rescorebutton.h"

#include <QEvent>
#include <QMenu>

namespace rwb::widgets {

RescoreButton::RescoreButton(QWidget *parent) : QToolButton(parent)
{
    setObjectName(QStringLiteral("rescoreButton"));
    setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(this);
    m_filtered = menu->addAction(QString(), this, [this] { Q_EMIT requested(Filtered); });
    m_group = menu->addAction(QString(), this, [this] { Q_EMIT requested(Group); });
    m_step = menu->addAction(QString(), this, [this] { Q_EMIT requested(Step); });
    m_filtered->setObjectName(QStringLiteral("rescoreFiltered"));
    m_group->setObjectName(QStringLiteral("rescoreGroup"));
    m_step->setObjectName(QStringLiteral("rescoreStep"));
    setMenu(menu);
    setCurrentAvailable(false);
    retranslate();
}

void RescoreButton::setScopes(int scopes)
{
    m_filtered->setVisible(scopes & Filtered);
    m_group->setVisible(scopes & Group);
    m_step->setVisible(scopes & Step);
}

void RescoreButton::setCurrentAvailable(bool available)
{
    m_group->setEnabled(available);
    m_step->setEnabled(available);
}

QAction *RescoreButton::action(Scope scope) const
{
    return scope == Filtered ? m_filtered : scope == Group ? m_group : m_step;
}

void RescoreButton::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QToolButton::changeEvent(event);
}

void RescoreButton::retranslate()
{
    setText(tr("Re-score…"));
    setToolTip(tr("What if: score these rollouts again with the Designer's reward config and compare the advantages"));
    m_filtered->setText(tr("Re-score the filtered rollouts with the Designer's config…"));
    m_group->setText(tr("Re-score the current rollout's group with the Designer's config…"));
    m_step->setText(tr("Re-score the current rollout's step with the Designer's config…"));
}

} // namespace rwb::widgets
