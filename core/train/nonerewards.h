#pragma once

// What GRPO does with None rewards (reward/reward.h, kNone): rollouts whose grader failed —
// a judge that errored or timed out, a Python reward that raised or timed out, a remote
// reward that failed — so that the grader's failure is not trained on as the policy's.
// Pure functions of a step's rewards; no libtorch; any thread may call them.
//
// GrpoConfig::noneRewards (train/grpo.h, docs/config.md "none_rewards"):
//   skip  the default: a None row is left out of its group's mean and std and gets
//         advantage 0 (train/advantages.h);
//   zero  a None row is scored 0 in the advantages (the stored reward stays None, so the
//         failure explorer and reward_none_frac still see it);
//   stop  as skip, and a step whose share of None rewards is above
//         GrpoConfig::noneStopFraction stops the run before its update.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::train {

enum class NoneRewards { Skip, Zero, Stop };

// "skip" | "zero" | "stop"; nullopt for anything else.
std::optional<NoneRewards> noneRewardsFromString(std::string_view name);

// The rewards the advantages are computed from: under Zero each None (NaN) becomes 0;
// otherwise unchanged (groupAdvantages leaves None rows out).
std::vector<double> advantageRewards(std::vector<double> rewards, NoneRewards mode);

// Whether a step with these rewards stops the run: mode Stop and the share of None
// rewards (util::noneFraction) above `maxFraction` (0: any None stops it).
bool stopsOnNone(const std::vector<double> &rewards, NoneRewards mode, double maxFraction);

} // namespace rwb::train
