#pragma once

// The collapse metrics GRPO logs each step (docs/grpo.md#metrics), as pure functions of the
// step's extracted answers and rewards so that they are tested on their own. No libtorch;
// any thread may call them.
//
// Shape legend: B = prompts (groups), G = group size, R = B·G completions, group-contiguous.

#include <string>
#include <vector>

namespace rwb::train {

struct CollapseMetrics {
    // Mean over the groups of the number of different answers among their G completions.
    double distinctAnswersPerGroup = 0.0;
    // The step's most common answer among the completions that did not earn the full reward,
    // as a share of the R completions that have a reward (None, a grader's failure, is
    // neither wrong nor counted). Answers that earn the full reward are left out: a
    // right answer given for many prompts (不明 where the e-mails name no sender, which is
    // most of a step now and then) is not a policy that answers the same whatever it reads.
    double topAnswerShare = 0.0;
};

// A completion has the full reward when its reward is at least kFullReward (the composite
// reward is a weighted mean of components in [0, 1]).
inline constexpr double kFullReward = 1.0 - 1e-9;

// answers and rewards have R = B·G entries; G ≥ 1 and R a multiple of G, else
// std::invalid_argument. R = 0 gives zeros.
CollapseMetrics collapseMetrics(const std::vector<std::string> &answers, const std::vector<double> &rewards, int G);

} // namespace rwb::train
