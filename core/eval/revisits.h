#pragma once

// The training reward on the prompts a run drew more than once: each such prompt's mean
// reward the first time it was drawn against the last time, paired. Unlike the EMA of the
// step means, this compares the same prompts, so it does not move with how hard the
// prompts of the first and the last steps happened to be.

#include "eval/bootstrap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rwb::eval {

// One scored completion: the prompt it answered, the step that drew it, its reward.
struct PromptVisit {
    std::string prompt;
    int64_t step = 0;
    double reward = 0.0;
};

struct RevisitRise {
    size_t prompts = 0;  // prompts drawn at two or more steps
    double first = 0.0;  // mean over them of their mean reward at the first step that drew them
    double last = 0.0;   // … at the last step that drew them
    Interval difference; // last − first, with its paired bootstrap interval
};

// A prompt drawn at only one step is left out (a group of G completions at one step is
// one visit). Empty when no prompt was drawn twice. Non-finite rewards are left out of a
// visit's mean; a visit without a finite reward does not count as a visit.
std::optional<RevisitRise> revisitRise(const std::vector<PromptVisit> &visits, int resamples = 2000,
                                       uint64_t seed = 1);

} // namespace rwb::eval
