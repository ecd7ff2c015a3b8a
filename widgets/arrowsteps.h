#pragma once

#include <QEvent>
#include <QKeyEvent>

namespace rwb::widgets {

// The step a key press asks a list view for: +1 for → and −1 for ← pressed without
// modifiers (the keypad's too), 0 for anything else. The rollout browser and the judge
// view step through their lists with it.
inline int arrowStep(const QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return 0;
    const auto *key = static_cast<const QKeyEvent *>(event);
    if (key->modifiers() != Qt::NoModifier && key->modifiers() != Qt::KeypadModifier)
        return 0;
    return key->key() == Qt::Key_Right ? 1 : key->key() == Qt::Key_Left ? -1 : 0;
}

} // namespace rwb::widgets
