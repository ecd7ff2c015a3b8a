#pragma once

// How a terminal node of a search tree fared, and how its numbers are written: what the
// tree view frames, and what the node detail and the siblings panels name, in one place (value ≥
// MctsTreeListModel::kCorrectValue is right, above 0 partial, 0 wrong).

#include "mcts/searchtree.h"

#include <QColor>
#include <QString>

namespace rwb::widgets {

enum class MctsOutcome { None, Right, Partial, Wrong };

// None for a node that is not terminal.
MctsOutcome mctsOutcome(const mcts::Node &node);
// "right", "partial", "wrong", translated; "" for None.
QString mctsOutcomeName(MctsOutcome outcome);
// Green, amber, red; invalid for None.
QColor mctsOutcomeColour(MctsOutcome outcome);

// A value (Q, P, U, F1) as the tree's panels write it: fixed, 3 decimals unless told.
inline QString mctsNumber(double v, int decimals = 3)
{
    return QString::number(v, 'f', decimals);
}

} // namespace rwb::widgets
