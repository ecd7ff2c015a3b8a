#pragma once

// DAPO's dynamic sampling (Yu et al. 2025, §3.2): a group whose rewards are all equal has
// all-zero advantages and contributes no gradient, so it is dropped and more prompts are
// sampled (up to a budget, the trainer's job). Internal to core (includes libtorch). A pure
// function on tensors; any thread may call it.
//
// Shape legend: B = prompts (groups), G = group size, R = B·G rows (group-contiguous).
//
// Rule: keep group b  ⇔  std_b > kZeroStdTolerance, with std_b the Bessel-corrected std of
// its G rewards (advantages.h). DAPO states it as 0 < |{o_i correct}| < G; for rewards in
// [0, 1] that are not just 0/1 the std test is the general form. The same test gives
// frac_reward_zero_std, so "dropped" and "zero std" always agree. G = 1 keeps nothing.

#include <cstdint>
#include <torch/torch.h>
#include <vector>

namespace rwb::train {

struct GroupSelection {
    std::vector<int64_t> keptGroups; // indices in [0, B), ascending
    torch::Tensor keepGroup;         // [B] bool
    torch::Tensor keepRow;           // [R] bool: keepGroup repeated G times
};

// Throws c10::Error as groupAdvantages does for bad rewards or group size. None rewards
// (NaN) are left out of a group's std, as there.
GroupSelection informativeGroups(const torch::Tensor &rewards, int64_t groupSize);

} // namespace rwb::train
