#include "mctsoutcome.h"

#include "mctstreelistmodel.h"

#include <QCoreApplication>

namespace rwb::widgets {

MctsOutcome mctsOutcome(const mcts::Node &n)
{
    if (!n.terminal)
        return MctsOutcome::None;
    if (n.terminalValue >= MctsTreeListModel::kCorrectValue)
        return MctsOutcome::Right;
    return n.terminalValue > 0 ? MctsOutcome::Partial : MctsOutcome::Wrong;
}

QString mctsOutcomeName(MctsOutcome o)
{
    switch (o) {
    case MctsOutcome::Right: return QCoreApplication::translate("MctsOutcome", "right");
    case MctsOutcome::Partial: return QCoreApplication::translate("MctsOutcome", "partial");
    case MctsOutcome::Wrong: return QCoreApplication::translate("MctsOutcome", "wrong");
    case MctsOutcome::None: break;
    }
    return {};
}

QColor mctsOutcomeColour(MctsOutcome o)
{
    switch (o) {
    case MctsOutcome::Right: return QColor(46, 125, 50);
    case MctsOutcome::Partial: return QColor(239, 108, 0);
    case MctsOutcome::Wrong: return QColor(198, 40, 40);
    case MctsOutcome::None: break;
    }
    return {};
}

} // namespace rwb::widgets
