#include "eval/revisits.h"

#include <cmath>
#include <map>

namespace rwb::eval {

std::optional<RevisitRise> revisitRise(const std::vector<PromptVisit> &visits, int resamples, uint64_t seed)
{
    struct Sum {
        double total = 0.0;
        int count = 0;
    };
    // prompt → step → the sum of that step's rewards for it; std::map keeps both in order,
    // so the result does not depend on the order of `visits`.
    std::map<std::string, std::map<int64_t, Sum>> byPrompt;
    for (const PromptVisit &v : visits) {
        if (!std::isfinite(v.reward))
            continue;
        Sum &s = byPrompt[v.prompt][v.step];
        s.total += v.reward;
        ++s.count;
    }
    std::vector<double> first;
    std::vector<double> last;
    for (const auto &[prompt, steps] : byPrompt) {
        if (steps.size() < 2)
            continue;
        const Sum &a = steps.begin()->second;
        const Sum &b = steps.rbegin()->second;
        first.push_back(a.total / a.count);
        last.push_back(b.total / b.count);
    }
    if (first.empty())
        return std::nullopt;
    RevisitRise r;
    r.prompts = first.size();
    for (size_t i = 0; i < first.size(); ++i) {
        r.first += first[i];
        r.last += last[i];
    }
    r.first /= static_cast<double>(first.size());
    r.last /= static_cast<double>(last.size());
    r.difference = pairedMeanDifference(first, last, resamples, seed);
    return r;
}

} // namespace rwb::eval
