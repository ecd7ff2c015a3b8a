// GRPO's bookkeeping: a step's metrics (TRL's names), its prompts and rollouts as the run
// store keeps them, and checkpoints with the trainer's state (grpotrainer.h, docs/store.md).

#include "train/grpotrainer.h"
#include "tokenizer/tokenizer.h"

#include "data/jsonl.h"
#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "train/collapsemetrics.h"
#include "util/boundedjson.h"
#include "util/durablefile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace rwb::train::grpo {

namespace fs = std::filesystem;


// {"partial": 0.8, "marker": 1, ("overlong": −0.25)}: each component's value, as stored.
std::string Trainer::rewardsJson(const std::vector<double> &components, const double *overlong) const
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (size_t c = 0; c < m_reward->size(); ++c)
        j[m_reward->componentName(c)] = components[c];
    if (overlong)
        j["overlong"] = *overlong;
    return j.dump();
}

Metrics Trainer::stepMetrics(const SampledStep &step, const UpdateResult &u) const
{
    const int G = c.groupSize;
    const std::vector<Sample> &samples = step.samples;
    const size_t groups = samples.size() / static_cast<size_t>(G);
    Metrics metrics;
    // ---- over every group sampled this step
    std::vector<double> lengths;
    std::vector<std::vector<double>> perComponent(m_reward->size()), groupRewards(groups);
    double clipped = 0.0;
    for (size_t g = 0; g < groups; ++g) {
        for (int j = 0; j < G; ++j) {
            const Sample &s = samples[g * G + static_cast<size_t>(j)];
            groupRewards[g].push_back(s.reward);
            lengths.push_back(static_cast<double>(s.policyTokens));
            clipped += s.truncated ? 1.0 : 0.0;
            for (size_t k = 0; k < m_reward->size(); ++k)
                perComponent[k].push_back(s.components[k]);
        }
    }
    const util::RewardStats rs = util::rewardStats(groupRewards);
    std::vector<double> totals;
    for (const Sample &s : samples)
        totals.push_back(s.reward);
    // The means are over the rows that have a reward: a step whose every row is None logs
    // none (a 0 would read as a fall, to the eye and to the hacking monitor).
    const double noneFrac = util::noneFraction(totals);
    if (noneFrac < 1.0) {
        metrics.emplace_back("reward", rs.mean);
        metrics.emplace_back("reward_std", rs.std);
        metrics.emplace_back("group_reward_std", rs.groupStdMean);
    }
    for (size_t k = 0; k < m_reward->size(); ++k) {
        if (util::noneFraction(perComponent[k]) >= 1.0)
            continue;
        metrics.emplace_back("rewards/" + m_reward->componentName(k) + "/mean", meanOf(perComponent[k]));
        metrics.emplace_back("rewards/" + m_reward->componentName(k) + "/std", stdOf(perComponent[k]));
    }
    metrics.emplace_back("frac_reward_zero_std", rs.fracZeroStd);
    // Grader failures apart from the policy's: the share of the step's rollouts whose total
    // is None (a judge, Python or remote reward of weight > 0 gave no value).
    metrics.emplace_back("reward_none_frac", noneFrac);
    // ---- every update's tokens (clip ratios, kl) and the first's (entropy)
    const double uc = std::max(1.0, u.updateTokens);
    if (c.beta > 0.0)
        metrics.emplace_back("kl", u.kl / uc);
    metrics.emplace_back("entropy", u.entropy / std::max(1.0, u.tokens));
    metrics.emplace_back("clip_ratio/low_mean", u.clipLow / uc);
    metrics.emplace_back("clip_ratio/high_mean", u.clipHigh / uc);
    metrics.emplace_back("clip_ratio/region_mean", u.clipRegion / uc);
    metrics.emplace_back("clip_ratio/low_min", std::isfinite(u.clipLowMin) ? u.clipLowMin : 0.0);
    metrics.emplace_back("clip_ratio/high_max", std::isfinite(u.clipHighMax) ? u.clipHighMax : 0.0);
    metrics.emplace_back("completions/mean_length", meanOf(lengths));
    metrics.emplace_back("completions/min_length", *std::min_element(lengths.begin(), lengths.end()));
    metrics.emplace_back("completions/max_length", *std::max_element(lengths.begin(), lengths.end()));
    metrics.emplace_back("completions/clipped_ratio", clipped / static_cast<double>(lengths.size()));
    // Collapse: how many different answers a group gives, and the step's most common wrong
    // answer's share (collapsemetrics.h).
    {
        std::vector<std::string> answers;
        std::vector<double> rewards;
        answers.reserve(samples.size());
        rewards.reserve(samples.size());
        for (const auto &s : samples) {
            answers.push_back(s.parsed->answer());
            rewards.push_back(s.reward);
        }
        const CollapseMetrics cm = collapseMetrics(answers, rewards, G);
        metrics.emplace_back("completions/distinct_answers_per_group", cm.distinctAnswersPerGroup);
        metrics.emplace_back("completions/top_answer_share", cm.topAnswerShare);
    }
    if (m_prm || c.processReference) {
        // Dual-granularity advantages (docs/grpo.md, "Process rewards").
        metrics.emplace_back("prm/score_mean", u.prmScoreMean);
        metrics.emplace_back("prm/step_reward_mean", u.stepRewardMean);
        metrics.emplace_back("prm/steps_per_completion", u.stepsPerRow);
        metrics.emplace_back("prm/process_advantage_abs_mean", u.processAdvantageAbsMean);
    }
    metrics.emplace_back("policy_loss", u.policyLoss);
    metrics.emplace_back("grad_norm", u.gradNorm);
    metrics.emplace_back("learning_rate", u.learningRate);
    if (c.overlongPenalty) {
        std::vector<double> pen;
        for (const Sample &s : samples)
            pen.push_back(s.overlong);
        metrics.emplace_back("rewards/overlong/mean", meanOf(pen));
    }
    metrics.emplace_back("reward_time", step.rewardSeconds);
    {
        // What the components logged: each one's seconds summed over the step's rounds,
        // a Python function's own metrics (log_metric) averaged over its calls.
        std::vector<std::string> order;
        std::map<std::string, std::pair<double, int>> byName;
        for (const auto &[name, value] : step.rewardMetrics) {
            auto [it, added] = byName.try_emplace(name, 0.0, 0);
            if (added)
                order.push_back(name);
            it->second.first += value;
            it->second.second += 1;
        }
        for (const std::string &name : order) {
            const auto &[sum, n] = byName[name];
            metrics.emplace_back(name, name.rfind("reward_time/", 0) == 0 ? sum : sum / n);
        }
    }
    if (m_judged) {
        // The judge's share of the step (docs/judges.md, "Metrics"): every call made for
        // the step's samples, cache hits included.
        double calls = 0, failures = 0, hits = 0, latency = 0, sent = 0, promptTokens = 0, completionTokens = 0,
               cost = 0, none = 0;
        for (const Sample &s : samples) {
            none += std::isnan(s.reward) ? 1.0 : 0.0;
            for (const reward::JudgeDecision &d : s.decisions) {
                calls += 1;
                failures += d.error.empty() ? 0.0 : 1.0;
                hits += d.cacheHit ? 1.0 : 0.0;
                if (d.attempts > 0) { // sent: not a hit, a repeat of a failure or a refusal
                    latency += d.latencySeconds;
                    sent += 1;
                }
                promptTokens += static_cast<double>(d.promptTokens);
                completionTokens += static_cast<double>(d.completionTokens);
                cost += d.cost;
            }
        }
        metrics.emplace_back("judge/calls", calls);
        metrics.emplace_back("judge/failures", failures);
        metrics.emplace_back("judge/none_rewards", none);
        metrics.emplace_back("judge/cache_hits", hits);
        metrics.emplace_back("judge/latency_mean", sent > 0 ? latency / sent : 0.0);
        metrics.emplace_back("judge/prompt_tokens", promptTokens);
        metrics.emplace_back("judge/completion_tokens", completionTokens);
        metrics.emplace_back("judge/cost", cost);
    }
    if (c.dynamicSampling) {
        metrics.emplace_back("dynamic_sampling/rounds", step.rounds);
        metrics.emplace_back("dynamic_sampling/groups_trained", static_cast<double>(step.trainedGroups.size()));
    }
    return metrics;
}

void Trainer::storeRows(const SampledStep &step, UpdateResult &u, std::vector<store::Rollout> &rollouts,
                        std::vector<store::Prompt> &prompts)
{
    const int G = c.groupSize;
    const std::vector<Sample> &samples = step.samples;
    // Every sampled group, trained or dropped; rowOf: the sample's row in the update.
    std::vector<int> rowOf(samples.size(), -1);
    for (size_t i = 0; i < u.rows.size(); ++i)
        rowOf[static_cast<size_t>(u.rows[i] - samples.data())] = static_cast<int>(i);
    for (size_t i = 0; i < samples.size(); ++i) {
        const Sample &s = samples[i];
        const Item &item = m_train[s.item];
        if (m_storedPrompts.insert(item.example->id()).second) {
            store::Prompt p;
            p.promptId = item.example->id();
            p.text = item.promptText;
            p.gold = item.example->goldText();
            p.metaJson = item.example->metaJson();
            prompts.push_back(std::move(p));
        }
        store::Rollout r;
        r.promptId = item.example->id();
        r.groupIndex = static_cast<int>(i / static_cast<size_t>(G));
        r.sampleIndex = static_cast<int>(i % static_cast<size_t>(G));
        r.completion = s.parsed->text();
        r.answer = s.parsed->answer();
        r.detailsJson = s.parsed->detailsJson();
        if (!s.notesJson.empty()) { // what the reward components said beside their values
            nlohmann::ordered_json details =
                util::parseJsonOrDiscarded<nlohmann::ordered_json>(r.detailsJson.empty() ? "{}" : r.detailsJson);
            if (!details.is_object())
                details = nlohmann::ordered_json::object();
            const nlohmann::ordered_json notes = util::parseJson<nlohmann::ordered_json>(s.notesJson);
            for (auto it = notes.begin(); it != notes.end(); ++it) // (the parsed value outlives the loop)
                details[it.key()] = it.value();
            r.detailsJson = details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
        r.tokenIds = s.tokens;
        r.logprobsOld = s.samplingLogProbs;
        r.reward = s.reward;
        r.rewardsJson = rewardsJson(s.components, c.overlongPenalty ? &s.overlong : nullptr);
        r.completionTokens = static_cast<int>(s.tokens.size());
        r.truncated = s.truncated;
        r.judgeDecisions = s.decisions;
        if (rowOf[i] >= 0) {
            const auto k = static_cast<size_t>(rowOf[i]);
            if (!u.oldLogProbs[k].empty())
                r.logprobsOld = std::move(u.oldLogProbs[k]);
            r.logprobsNew = std::move(u.newLogProbs[k]);
            r.logprobsRef = std::move(u.refLogProbs[k]);
            r.entropies = std::move(u.entropies[k]);
            r.advantage = u.advantages[k];
            if (!u.tokenAdvantages.empty())
                r.advantages.assign(u.tokenAdvantages[k].begin(), u.tokenAdvantages[k].end());
            if (!u.processJson.empty()) { // the process rewards beside the task's details
                nlohmann::ordered_json details = util::parseJsonOrDiscarded<nlohmann::ordered_json>(r.detailsJson.empty() ? "{}" : r.detailsJson);
                if (!details.is_object())
                    details = nlohmann::ordered_json::object();
                details["process"] = util::parseJson<nlohmann::ordered_json>(u.processJson[k]);
                r.detailsJson = details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            }
        }
        rollouts.push_back(std::move(r));
    }
}

TrainerState readState(const std::string &dir)
{
    const std::string path = (fs::path(dir) / "trainer_state.json").string();
    nlohmann::json j;
    try {
        j = util::parseJson(data::readTextFile(path));
        TrainerState s;
        s.step = j.at("step").get<int>();
        s.cursor = j.at("cursor").get<uint64_t>();
        s.runId = j.at("run_id").get<int64_t>();
        s.rewardConfigJson = j.at("reward_config").get<std::string>();
        s.numTokens = j.value("num_tokens", 0.0);
        return s;
    } catch (const data::InputException &) {
        throw;
    } catch (const std::exception &e) {
        throw data::InputException({path, 0, std::string("not a GRPO checkpoint state: ") + e.what()});
    }
}

void Trainer::saveCheckpoint(int stepIndex)
{
    const auto t0 = Clock::now();
    const fs::path dir = fs::path(c.output) / ("checkpoint-" + std::to_string(stepIndex));
    const fs::path tmp = fs::path(c.output) / ("checkpoint-" + std::to_string(stepIndex) + ".part");
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    if (c.lora) {
        m_lm->saveAdapter(tmp.string());
    } else {
        m_lm->save(tmp.string());
        tokenizer::copyTokenizerFiles(c.model, tmp.string());
    }
    torch::save(*m_optimizer, (tmp / "optimizer.pt").string());
    nlohmann::ordered_json j;
    j["step"] = stepIndex;
    j["cursor"] = m_state.cursor;
    j["run_id"] = m_state.runId;
    j["seed"] = c.seed;
    j["num_tokens"] = m_state.numTokens;
    j["reward_config"] = reward::toJson(reward::withAbsolutePaths(m_reward->config()));
    j["note"] = "every random draw of step s is seeded by (seed, s); cursor = prompts consumed";
    // Checked and fsync'ed: a resume trusts this file (a full disk used to leave it empty
    // or cut short, unnoticed).
    util::writeFileDurably((tmp / "trainer_state.json").string(), j.dump(2) + "\n");
    fs::remove_all(dir);
    fs::rename(tmp, dir);
    util::syncFolder(c.output);
    m_store->addCheckpoint(m_state.runId, stepIndex, fs::absolute(dir).string());
    m_timings.checkpoint += secondsSince(t0);
}

} // namespace rwb::train::grpo
