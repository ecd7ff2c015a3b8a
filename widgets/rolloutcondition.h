#pragma once

#include "store/storetypes.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace rwb::widgets {

// The rollout browser's component filter as typed: conditions joined by "and" (or
// "&&" or ","), each `name op number` with op one of < <= > >= == = !=, e.g.
//   marker < 0.5
//   partial>=0.8 and format == 1
// Empty text is no condition. Messages are translated in the context "RolloutCondition".
class RolloutCondition {
public:
    // The conditions, or nullopt with a translated message naming the problem in
    // `error` ("unknown component 'markr' (known: partial, marker)"). `known` are the
    // run's component names; an empty list accepts any name.
    static std::optional<std::vector<store::ComponentCondition>> parse(const QString &text, const QStringList &known,
                                                                       QString *error = nullptr);
};

} // namespace rwb::widgets
