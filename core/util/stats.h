#pragma once

#include <vector>

namespace rwb::util {

// The mean of the values that are not NaN (None: a failed judge is left out); 0 for none.
double meanOf(const std::vector<double> &v);
// Their standard deviation, Bessel-corrected (torch.std's default, as TRL's reward_std);
// 0 for fewer than two.
double stdOf(const std::vector<double> &v);
// The share of the values that are NaN (None: no reward, its grader failed); 0 for none.
// GRPO's reward_none_frac.
double noneFraction(const std::vector<double> &v);

// A GRPO step's reward statistics, from its rewards in groups (NaN: None, left out):
//   reward              mean over every row                            TRL's reward
//   reward_std          std over every row (Bessel), the batch's spread TRL's reward_std
//   group_reward_std    mean over groups of each group's std: what scale_rewards=group
//                       divides by (not a TRL metric; this engine logged it as reward_std
//                       before 2026-11-28)
//   frac_reward_zero_std  share of groups whose std ≤ 1e-8 (all rewards equal, no
//                       signal); TRL's under scale_rewards=group (it counts the batch's std
//                       under scale_rewards=batch: 0 or 1)
struct RewardStats {
    double mean = 0.0;
    double std = 0.0;
    double groupStdMean = 0.0;
    double fracZeroStd = 0.0;
};
RewardStats rewardStats(const std::vector<std::vector<double>> &groups);

} // namespace rwb::util
