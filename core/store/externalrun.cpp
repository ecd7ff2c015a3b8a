#include "store/externalrun.h"

#include "store/runstore.h"
#include "util/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace rwb::store {

namespace {

// GRPO's epsilon (train/advantages.h, without its libtorch).
constexpr double kStdEpsilon = 1e-4;

} // namespace

std::string promptIdOf(const std::string &prompt)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : prompt) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "p-%016llx", static_cast<unsigned long long>(h));
    return buf;
}

void writeExternalStep(RunStore &store, int64_t runId, int64_t step, std::vector<ExternalSample> samples,
                       const std::vector<Metric> &extra)
{
    // Groups in order of first appearance.
    std::vector<std::vector<size_t>> groups;
    std::unordered_map<std::string, size_t> groupOf;
    for (size_t i = 0; i < samples.size(); ++i) {
        ExternalSample &s = samples[i];
        if (s.promptId.empty())
            s.promptId = promptIdOf(s.prompt);
        const std::string &key = s.group.empty() ? s.promptId : s.group;
        auto [it, added] = groupOf.emplace(key, groups.size());
        if (added)
            groups.emplace_back();
        groups[it->second].push_back(i);
    }

    std::vector<Rollout> rollouts;
    std::vector<Prompt> prompts;
    std::unordered_map<std::string, bool> promptSeen;
    std::vector<double> lengths;
    std::vector<std::vector<double>> groupRewards;
    std::vector<std::string> componentNames;
    std::map<std::string, std::vector<double>> perComponent;
    double clipped = 0.0;
    for (size_t g = 0; g < groups.size(); ++g) {
        std::vector<double> rewards;
        for (size_t i : groups[g])
            rewards.push_back(samples[i].reward);
        const double mean = util::meanOf(rewards);
        const double sd = util::stdOf(rewards);
        groupRewards.push_back(rewards);
        int sampleIndex = 0;
        for (size_t i : groups[g]) {
            ExternalSample &s = samples[i];
            if (promptSeen.emplace(s.promptId, true).second)
                prompts.push_back({s.promptId, s.prompt, s.gold, s.metaJson.empty() ? "{}" : s.metaJson});
            Rollout r;
            r.promptId = s.promptId;
            r.groupIndex = static_cast<int>(g);
            r.sampleIndex = sampleIndex++;
            r.completion = std::move(s.completion);
            r.answer = std::move(s.answer);
            r.reward = s.reward;
            nlohmann::ordered_json comps = nlohmann::ordered_json::object();
            for (const auto &[name, value] : s.components) {
                comps[name] = value; // NaN is written as null
                if (!perComponent.count(name))
                    componentNames.push_back(name);
                perComponent[name].push_back(value);
            }
            r.rewardsJson = comps.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            if (s.advantage)
                r.advantage = *s.advantage;
            else if (std::isnan(s.reward) || rewards.size() < 2)
                r.advantage = 0.0;
            else
                r.advantage = (s.reward - mean) / (sd + kStdEpsilon);
            r.completionTokens = s.completionTokens;
            r.truncated = s.truncated;
            r.detailsJson = s.detailsJson.empty() ? "{}" : s.detailsJson;
            r.judgeDecisions = std::move(s.judgeDecisions);
            lengths.push_back(static_cast<double>(s.completionTokens));
            clipped += s.truncated ? 1.0 : 0.0;
            rollouts.push_back(std::move(r));
        }
    }

    std::vector<Metric> metrics;
    if (!samples.empty()) {
        const util::RewardStats rs = util::rewardStats(groupRewards);
        metrics.push_back({"reward", rs.mean});
        metrics.push_back({"reward_std", rs.std});
        metrics.push_back({"group_reward_std", rs.groupStdMean});
        for (const std::string &name : componentNames) {
            metrics.push_back({"rewards/" + name + "/mean", util::meanOf(perComponent[name])});
            metrics.push_back({"rewards/" + name + "/std", util::stdOf(perComponent[name])});
        }
        metrics.push_back({"frac_reward_zero_std", rs.fracZeroStd});
        // Lengths only where the trainer told them: a curve of zeros would say the
        // completions were empty.
        if (*std::max_element(lengths.begin(), lengths.end()) > 0.0) {
            metrics.push_back({"completions/mean_length", util::meanOf(lengths)});
            metrics.push_back({"completions/min_length", *std::min_element(lengths.begin(), lengths.end())});
            metrics.push_back({"completions/max_length", *std::max_element(lengths.begin(), lengths.end())});
            metrics.push_back({"completions/clipped_ratio", clipped / static_cast<double>(lengths.size())});
        }
    }
    for (const Metric &m : extra)
        metrics.push_back(m);
    store.writeStep(runId, step, metrics, rollouts, prompts);
}

} // namespace rwb::store
