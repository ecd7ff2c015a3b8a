#include "train/nonerewards.h"

#include "util/stats.h"

#include <cmath>

namespace rwb::train {

std::optional<NoneRewards> noneRewardsFromString(std::string_view name)
{
    if (name == "skip")
        return NoneRewards::Skip;
    if (name == "zero")
        return NoneRewards::Zero;
    if (name == "stop")
        return NoneRewards::Stop;
    return std::nullopt;
}

std::vector<double> advantageRewards(std::vector<double> rewards, NoneRewards mode)
{
    if (mode == NoneRewards::Zero)
        for (double &r : rewards)
            if (std::isnan(r))
                r = 0.0;
    return rewards;
}

bool stopsOnNone(const std::vector<double> &rewards, NoneRewards mode, double maxFraction)
{
    return mode == NoneRewards::Stop && util::noneFraction(rewards) > maxFraction;
}

} // namespace rwb::train
