#include "train/collapsemetrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace rwb::train {

CollapseMetrics collapseMetrics(const std::vector<std::string> &answers, const std::vector<double> &rewards, int G)
{
    if (G < 1)
        throw std::invalid_argument("collapseMetrics: group size " + std::to_string(G) + " (must be ≥ 1)");
    if (answers.size() != rewards.size())
        throw std::invalid_argument("collapseMetrics: " + std::to_string(answers.size()) + " answers but " +
                                    std::to_string(rewards.size()) + " rewards");
    const size_t g = static_cast<size_t>(G);
    if (answers.size() % g != 0)
        throw std::invalid_argument("collapseMetrics: " + std::to_string(answers.size()) +
                                    " completions are not whole groups of " + std::to_string(G));
    CollapseMetrics m;
    if (answers.empty())
        return m;
    const size_t groups = answers.size() / g;
    std::map<std::string, size_t> notFull;
    double distinct = 0.0;
    for (size_t b = 0; b < groups; ++b) {
        std::set<std::string> inGroup;
        for (size_t j = 0; j < g; ++j) {
            const size_t i = b * g + j;
            inGroup.insert(answers[i]);
            if (!std::isnan(rewards[i]) && rewards[i] < kFullReward) // None (a failed judge) is not wrong
                ++notFull[answers[i]];
        }
        distinct += static_cast<double>(inGroup.size());
    }
    size_t top = 0;
    for (const auto &[answer, n] : notFull)
        top = std::max(top, n);
    m.distinctAnswersPerGroup = distinct / static_cast<double>(groups);
    // Of the completions that have a reward: a None (its grader failed) shifts no share.
    size_t scored = 0;
    for (double r : rewards)
        scored += std::isnan(r) ? 0 : 1;
    m.topAnswerShare = scored == 0 ? 0.0 : static_cast<double>(top) / static_cast<double>(scored);
    return m;
}

} // namespace rwb::train
