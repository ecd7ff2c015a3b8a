#include "reward/reward.h"

#include "text/lcs.h"

namespace rwb::reward {

void Reward::scoreBatch(const std::vector<const task::Example *> &examples,
                        const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                        ScoreLog *) const
{
    out.resize(examples.size());
    for (size_t i = 0; i < examples.size(); ++i)
        out[i] = score(*examples[i], *completions[i]);
}

void logBatch(ScoreLog &log, const std::string &component, const std::vector<std::string> &errors,
              const std::vector<std::string> &extra, const std::vector<std::pair<std::string, double>> &metrics)
{
    for (size_t i = 0; i < errors.size() || i < extra.size(); ++i) {
        const std::string error = i < errors.size() ? errors[i] : std::string();
        const std::string values = i < extra.size() && extra[i] != "{}" ? extra[i] : std::string();
        if (!error.empty() || !values.empty())
            log.addNote({component, i, error, values});
    }
    for (const auto &[metric, value] : metrics)
        log.addMetric("reward_metric/" + component + "/" + metric, value);
}

double partialRatio(std::u32string_view a, std::u32string_view b, Span *spanA, Span *spanB)
{
    if (spanA)
        *spanA = {};
    if (spanB)
        *spanB = {};
    if (a.empty() && b.empty())
        return 1.0;
    if (a.empty() || b.empty())
        return 0.0;
    const text::CommonSubstring cs = text::longestCommonSubstring(a, b);
    if (spanA)
        *spanA = {cs.posA, cs.length};
    if (spanB)
        *spanB = {cs.posB, cs.length};
    return 2.0 * static_cast<double>(cs.length) / static_cast<double>(a.size() + b.size());
}

} // namespace rwb::reward
