#pragma once

// Group-relative advantages for GRPO. Internal to core (includes libtorch). Pure
// functions on tensors: no model, no I/O; any thread may call them.
//
// Shape legend: B = prompts (groups), G = group size (completions per prompt),
// R = B·G rows (row i belongs to group i / G; a group's rows are contiguous).
//
// Formulas (TRL GRPOTrainer's conventions):
//   mean_b = (1/G) Σ_j r_{b,j}                                  group mean
//   std_b  = √( Σ_j (r_{b,j} − mean_b)² / (G − 1) )             Bessel-corrected; 0 when G = 1
//   std_batch = √( Σ_i (r_i − mean_all)² / (R − 1) )            over all R rows; 0 when R = 1
//   group: A_i = (r_i − mean_b(i)) / (std_b(i) + eps)
//   batch: A_i = (r_i − mean_b(i)) / (std_batch + eps)          the mean is still the group's
//   none:  A_i =  r_i − mean_b(i)                               Dr. GRPO: no division
//   eps = 1e-4 (kDefaultStdEpsilon). With eps = 0 a zero denominator gives A = 0, not NaN.
//   A group has zero std when std_b ≤ kZeroStdTolerance (all its rewards equal): its
//   advantages are all exactly 0 (not the mean's rounding error) and it teaches nothing.
//   frac_reward_zero_std = (#such groups) / B.
//   None rewards (NaN: a judge that failed, reward/reward.h): mean_b, std_b and std_batch
//   are taken over the other rows (G_b of them in group b, Bessel with G_b − 1; std 0 when
//   G_b < 2), and a None row's advantage is 0.

#include <optional>
#include <string>
#include <string_view>
#include <torch/torch.h>

namespace rwb::train {

// TRL's epsilon added to the std before dividing.
inline constexpr double kDefaultStdEpsilon = 1e-4;
// A std at or below this is zero (torch.isclose(std, 0)'s absolute tolerance, as TRL tests it).
inline constexpr double kZeroStdTolerance = 1e-8;

enum class ScaleRewards { Group, Batch, None };

// "group" | "batch" | "none"; nullopt for anything else.
std::optional<ScaleRewards> scaleRewardsFromString(std::string_view name);
std::string toString(ScaleRewards scale);

struct GroupAdvantages {
    torch::Tensor advantages; // [R] float, same dtype as the rewards (float64 stays float64)
    torch::Tensor groupMean;  // [B]
    torch::Tensor groupStd;   // [B] Bessel-corrected, whatever the scaling (for reward_std)
    torch::Tensor zeroStd;    // [B] bool: std_b ≤ kZeroStdTolerance
    double batchStd = 0.0;    // std over all R rewards (Bessel-corrected; 0 when R = 1)
    double fracRewardZeroStd = 0.0; // zeroStd's mean: TRL's frac_reward_zero_std
};

// Throws c10::Error (TORCH_CHECK) when rewards is not 1-D floating point, its size is not a
// positive multiple of groupSize, groupSize < 1, eps < 0, or a reward is infinite. NaN is
// None (above).
// Note: TRL computes frac_reward_zero_std from the batch std under scale_rewards=batch; we
// always count groups, so the metric keeps meaning "groups whose rewards are all equal".
GroupAdvantages groupAdvantages(const torch::Tensor &rewards, int64_t groupSize,
                                ScaleRewards scale = ScaleRewards::Group, double eps = kDefaultStdEpsilon);

} // namespace rwb::train
