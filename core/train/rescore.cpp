#include "train/rescore.h"

#include "data/jsonl.h"
#include "eval/correlation.h"
#include "reward/compositereward.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "task/task.h"
#include "tasks/user/usertask.h"
#include "train/advantages.h"
#include "train/grpo.h"
#include "train/nonerewards.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

namespace rwb::train {

namespace {

using json = nlohmann::json;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
// Rollouts scored per call of the composite (a judge sends them at its concurrency);
// progress and cancellation are checked between batches.
constexpr size_t kBatchRows = 16;
// Values this close are tied for the best completion, as in Spearman's ranks (the same
// reward reached by two roundings, 0.8·0.75 + 0.2·1 against 0.8·0.8 + 0.2·0.8).
constexpr double kTieTolerance = eval::kRankTieTolerance;

// A rollout's stored component values by label (NaN for null: None).
std::map<std::string, double> storedComponents(const std::string &rewardsJson)
{
    std::map<std::string, double> out;
    const json j = util::parseJsonOrDiscarded(rewardsJson);
    if (!j.is_object())
        return out;
    for (auto it = j.begin(); it != j.end(); ++it)
        out[it.key()] = it->is_number() ? it->get<double>() : kNan;
    return out;
}

// The labels of a stored reward config's components, read leniently (it may name a
// reward this build lacks).
std::vector<std::string> storedLabels(const std::string &configJson)
{
    std::vector<std::string> out;
    const json j = util::parseJsonOrDiscarded(configJson);
    if (!j.is_object() || !j.contains("components") || !j["components"].is_array())
        return out;
    for (const json &c : j["components"]) {
        if (!c.is_object())
            continue;
        std::string label = c.value("name", std::string());
        if (label.empty())
            label = c.value("reward", std::string());
        if (!label.empty())
            out.push_back(label);
    }
    return out;
}

void addUnique(std::vector<std::string> &names, const std::string &name)
{
    if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
}

json numberOrNull(double v)
{
    return std::isnan(v) ? json(nullptr) : json(v);
}

// Group advantages of `rewards` (groups of `sizes[g]` rows, contiguous) with the run's
// settings, through the trainer's own function (train/advantages.h). Groups of equal
// size go in one call, so that scale_rewards = "batch" divides by the std over all of
// them as the trainer did over its step.
std::vector<double> advantagesOf(std::vector<double> rewards, const std::vector<size_t> &sizes,
                                 const AdvantageSettings &s)
{
    const ScaleRewards scale = scaleRewardsFromString(s.scaleRewards).value_or(ScaleRewards::Group);
    const NoneRewards none = noneRewardsFromString(s.noneRewards).value_or(NoneRewards::Skip);
    rewards = advantageRewards(std::move(rewards), none);
    std::vector<double> out(rewards.size(), kNan);
    if (rewards.empty())
        return out;
    const bool uniform = std::all_of(sizes.begin(), sizes.end(), [&](size_t n) { return n == sizes.front(); });
    auto run = [&](size_t from, size_t count, size_t groupSize) {
        std::vector<double> part(rewards.begin() + static_cast<std::ptrdiff_t>(from),
                                 rewards.begin() + static_cast<std::ptrdiff_t>(from + count));
        const GroupAdvantages adv = groupAdvantages(torch::tensor(part, torch::kFloat64),
                                                    static_cast<int64_t>(groupSize), scale, s.epsilon);
        const torch::Tensor a = adv.advantages.contiguous(); // [count] float64
        const double *p = a.data_ptr<double>();
        std::copy(p, p + count, out.begin() + static_cast<std::ptrdiff_t>(from));
    };
    if (uniform) {
        run(0, rewards.size(), sizes.front());
    } else { // groups of different sizes: each alone (a batch std then is the group's)
        size_t from = 0;
        for (size_t n : sizes) {
            run(from, n, n);
            from += n;
        }
    }
    return out;
}

// The index among `totals` of the first highest that is not None; -1 when none.
int bestOf(const std::vector<double> &totals)
{
    int best = -1;
    for (size_t i = 0; i < totals.size(); ++i)
        if (!std::isnan(totals[i]) && (best < 0 || totals[i] > totals[static_cast<size_t>(best)] + kTieTolerance))
            best = static_cast<int>(i);
    return best;
}

// The stored component the trainer writes for DAPO's over-long penalty.
constexpr const char *kOverlong = "overlong";

RescoreResult cancelledResult()
{
    RescoreResult r;
    r.cancelled = true;
    return r;
}

// A rollout's example, rebuilt once per prompt.
struct ExampleSlot {
    std::shared_ptr<const task::Example> example;
    std::string error;
};

} // namespace

AdvantageSettings advantageSettingsOf(const std::string &runConfigJson)
{
    AdvantageSettings s;
    const GrpoConfig defaults;
    s.scaleRewards = defaults.scaleRewards;
    s.noneRewards = defaults.noneRewards;
    s.epsilon = kDefaultStdEpsilon;
    const json j = util::parseJsonOrDiscarded(runConfigJson);
    if (!j.is_object())
        return s;
    if (auto it = j.find("scale_rewards"); it != j.end() && it->is_string() && scaleRewardsFromString(it->get<std::string>())) {
        s.scaleRewards = it->get<std::string>();
        s.fromConfig = true;
    }
    if (auto it = j.find("none_rewards"); it != j.end() && it->is_string() && noneRewardsFromString(it->get<std::string>())) {
        s.noneRewards = it->get<std::string>();
        s.fromConfig = true;
    }
    if (auto it = j.find("prm"); it != j.end() && it->is_string() && !it->get<std::string>().empty()) {
        s.dualGranularity = true;
        s.processBeta = j.value("prm_beta", defaults.processBeta);
    }
    if (auto it = j.find("overlong_penalty"); it != j.end() && it->is_boolean())
        s.overlongPenalty = it->get<bool>();
    if (auto it = j.find("dynamic_sampling"); it != j.end() && it->is_boolean())
        s.dynamicSampling = it->get<bool>();
    return s;
}

// Kept here for the rescore's callers; the functions are eval's (eval/correlation.h).
double pearson(const std::vector<double> &x, const std::vector<double> &y)
{
    return eval::pearson(x, y);
}

double spearman(const std::vector<double> &x, const std::vector<double> &y)
{
    return eval::spearman(x, y);
}

const task::Task *rescoreTaskOf(const store::RunStore &store, int64_t runId)
{
    const store::RunInfo run = store.run(runId);
    if (run.task.empty() && run.kind == "external")
        return nullptr; // imported without a task
    std::vector<std::string> configJsons{run.configJson};
    for (const store::RewardConfigVersion &v : store.rewardConfigs(runId))
        configJsons.push_back(v.configJson);
    const task::Task *task = task::findOrInstallTask(run.task, configJsons);
    if (!task && run.task.empty())
        task = task::Catalog::builtin().find("");
    return task;
}

RescoreResult rescore(const store::RunStore &store, const RescoreScope &scope, const task::Task *task,
                      const reward::RewardConfig &config, const std::string &source, const RescoreProgress &progress)
{
    const int64_t runId = scope.filter.runId;
    if (runId <= 0)
        throw std::invalid_argument("rescore: the scope names no run");
    const store::RunInfo run = store.run(runId);
    RescoreResult result;
    result.runId = runId;
    result.runName = run.name;
    result.settings = advantageSettingsOf(run.configJson);

    // ---- the rollouts of the scope, then their whole groups (or steps, under "batch")
    // (a whole run's worth of reads: the callback may cancel between pages and rollouts)
    auto stopped = [&] { return progress && !progress(0, 0); };
    std::vector<int64_t> ids = scope.rolloutIds;
    if (ids.empty()) {
        int64_t after = 0;
        for (;;) {
            if (stopped())
                return cancelledResult();
            const store::RolloutPage page = store.rollouts(scope.filter, after, 1000);
            for (const store::StoredRollout &r : page.rows)
                ids.push_back(r.id);
            if (!page.more)
                break;
            after = page.nextAfterId;
        }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::map<int64_t, std::vector<int>> groupsOfStep; // step → the groups asked for
    for (size_t k = 0; k < ids.size(); ++k) {
        const int64_t id = ids[k];
        if (k % kBatchRows == 0 && stopped())
            return cancelledResult();
        const store::StoredRollout r = store.rollout(id);
        if (r.runId != runId)
            throw std::invalid_argument("rescore: rollout " + std::to_string(id) + " is not of run " + std::to_string(runId));
        groupsOfStep[r.step].push_back(r.rollout.groupIndex);
    }
    const bool wholeSteps = result.settings.scaleRewards == "batch";
    std::vector<store::StoredRollout> stored;
    for (auto &[step, groups] : groupsOfStep) {
        if (stopped())
            return cancelledResult();
        std::vector<store::StoredRollout> rows = store.stepRollouts(runId, step); // by group, sample
        for (store::StoredRollout &r : rows)
            if (wholeSteps || std::find(groups.begin(), groups.end(), r.rollout.groupIndex) != groups.end())
                stored.push_back(std::move(r));
    }

    // ---- the task, the new composite, the component columns
    const std::vector<store::RewardConfigVersion> versions = store.rewardConfigs(runId);
    const bool untasked = run.task.empty() && run.kind == "external";
    result.task = task ? std::string(task->name()) : run.task;
    const reward::CompositeReward composite(config, source, task::Catalog::builtin().rewards());
    for (const store::RewardConfigVersion &v : versions)
        for (const std::string &label : storedLabels(v.configJson))
            addUnique(result.components, label);
    for (const store::StoredRollout &r : stored)
        for (const auto &[name, value] : storedComponents(r.rollout.rewardsJson))
            addUnique(result.components, name);
    for (size_t c = 0; c < composite.size(); ++c)
        addUnique(result.components, composite.componentName(c));
    std::vector<size_t> newColumn(composite.size());
    for (size_t c = 0; c < composite.size(); ++c)
        newColumn[c] = static_cast<size_t>(std::find(result.components.begin(), result.components.end(),
                                                     composite.componentName(c)) - result.components.begin());

    // ---- rows as stored, and what scoring them needs
    std::map<std::string, ExampleSlot> examples; // by prompt id
    std::vector<std::shared_ptr<const task::Completion>> completions(stored.size());
    std::vector<const task::Example *> rowExample(stored.size(), nullptr);
    std::vector<std::string> golds(stored.size());
    // The stored over-long penalty of each row (0 when not stored), added to its new total
    // when the run had it on, as the trainer added it (train/grposcoring.cpp).
    std::vector<double> overlong(stored.size(), 0.0);
    const auto overlongColumn = static_cast<size_t>(
        std::find(result.components.begin(), result.components.end(), kOverlong) - result.components.begin());
    if (result.settings.overlongPenalty)
        result.notes.push_back("overlong_penalty: each rollout's stored \"overlong\" penalty is added to its new total, "
                               "as the trainer added it (the completion's length is the same).");
    const std::vector<int64_t> asked(ids.begin(), ids.end());
    for (size_t i = 0; i < stored.size(); ++i) {
        const store::StoredRollout &s = stored[i];
        RescoredRollout row;
        row.rolloutId = s.id;
        row.step = s.step;
        row.group = s.rollout.groupIndex;
        row.sample = s.rollout.sampleIndex;
        row.selected = std::binary_search(asked.begin(), asked.end(), s.id);
        row.oldTotal = s.rollout.reward;
        row.storedAdvantage = s.rollout.advantage;
        row.oldComponents.assign(result.components.size(), kNan);
        row.newComponents.assign(result.components.size(), kNan);
        const std::map<std::string, double> old = storedComponents(s.rollout.rewardsJson);
        for (size_t c = 0; c < result.components.size(); ++c)
            if (auto it = old.find(result.components[c]); it != old.end())
                row.oldComponents[c] = it->second;
        if (result.settings.overlongPenalty)
            if (auto it = old.find(kOverlong); it != old.end() && std::isfinite(it->second)) {
                overlong[i] = it->second;
                row.newComponents[overlongColumn] = it->second;
            }
        golds[i] = s.gold;
        if (!task) {
            row.error = untasked ? "the run was imported without a task: its examples cannot be rebuilt"
                                 : "this build has no task \"" + run.task + "\"";
        } else {
            auto [slot, fresh] = examples.try_emplace(s.rollout.promptId);
            if (fresh) {
                const std::string meta = store.rolloutPromptMeta(s.id);
                try {
                    slot->second.example = task->exampleFromStore(meta.empty() ? "{}" : meta, s.gold,
                                                                  "run " + std::to_string(runId) + ", prompt " +
                                                                      s.rollout.promptId);
                } catch (const std::exception &e) {
                    slot->second.example = task->exampleFromGold(s.gold);
                    if (!slot->second.example)
                        slot->second.error = std::string("the prompt's example cannot be rebuilt: ") + e.what();
                }
            }
            if (slot->second.example) {
                rowExample[i] = slot->second.example.get();
                completions[i] = task->parse(*slot->second.example, s.rollout.completion, composite.thinking());
                row.answer = completions[i]->answer();
            } else {
                row.error = slot->second.error;
            }
        }
        result.rows.push_back(std::move(row));
    }

    // ---- scoring, in batches (a judge sends each batch at its concurrency): the rows whose
    // example could be rebuilt; the others keep their reason and no new total.
    std::vector<size_t> scorable;
    for (size_t i = 0; i < stored.size(); ++i)
        if (rowExample[i])
            scorable.push_back(i);
    size_t done = 0;
    if (progress && !progress(0, scorable.size()))
        return cancelledResult();
    for (size_t from = 0; from < scorable.size(); from += kBatchRows) {
        const size_t to = std::min(scorable.size(), from + kBatchRows);
        std::vector<const task::Example *> ex;
        std::vector<const task::Completion *> co;
        for (size_t k = from; k < to; ++k) {
            ex.push_back(rowExample[scorable[k]]);
            co.push_back(completions[scorable[k]].get());
        }
        std::vector<std::vector<double>> values;
        reward::ScoreLog log;
        try {
            const std::vector<double> totals = composite.scoreBatch(ex, co, values, &log);
            for (size_t k = from; k < to; ++k) {
                RescoredRollout &row = result.rows[scorable[k]];
                row.rescored = true;
                row.newTotal = totals[k - from];
                if (result.settings.overlongPenalty && !reward::isNone(row.newTotal))
                    row.newTotal += overlong[scorable[k]];
                for (size_t c = 0; c < composite.size(); ++c)
                    row.newComponents[newColumn[c]] = values[k - from][c];
            }
            for (judge::Decision &d : log.take()) {
                if (d.item >= to - from)
                    continue;
                RescoredRollout &row = result.rows[scorable[from + d.item]];
                if (row.error.empty() && !d.error.empty())
                    row.error = d.reward + ": " + d.error;
                row.judgeDecisions.push_back(std::move(d));
            }
            for (const reward::ItemNote &n : log.takeNotes()) {
                if (n.item >= to - from || n.error.empty())
                    continue;
                RescoredRollout &row = result.rows[scorable[from + n.item]];
                if (row.error.empty())
                    row.error = n.component + ": " + n.error;
            }
            for (size_t k = from; k < to; ++k) {
                RescoredRollout &row = result.rows[scorable[k]];
                if (reward::isNone(row.newTotal) && row.error.empty())
                    row.error = "a component gave None";
            }
        } catch (const std::exception &e) { // a reward that throws: the batch is not re-scored
            for (size_t k = from; k < to; ++k)
                result.rows[scorable[k]].error = e.what();
        }
        done = to;
        if (progress && !progress(done, scorable.size()))
            return cancelledResult();
    }
    for (size_t i = 0; i < stored.size(); ++i)
        if (task && rowExample[i] && completions[i] && result.rows[i].rescored) {
            result.rows[i].correct = task->failureCategory(*rowExample[i], *completions[i]) == 0;
            result.rows[i].gold = golds[i];
        } else {
            result.rows[i].gold = golds[i];
        }

    // ---- groups, and their advantages step by step
    for (size_t i = 0; i < result.rows.size();) {
        RescoredGroup g;
        g.step = result.rows[i].step;
        g.group = result.rows[i].group;
        g.firstRow = i;
        while (i < result.rows.size() && result.rows[i].step == g.step && result.rows[i].group == g.group)
            ++i;
        g.rows = i - g.firstRow;
        g.rescored = true;
        g.dropped = result.settings.dynamicSampling;
        for (size_t k = g.firstRow; k < i; ++k) {
            g.rescored = g.rescored && result.rows[k].rescored;
            g.dropped = g.dropped && result.rows[k].storedAdvantage == 0.0;
        }
        result.groups.push_back(g);
    }
    for (size_t gi = 0; gi < result.groups.size();) {
        const int64_t step = result.groups[gi].step;
        size_t gEnd = gi;
        while (gEnd < result.groups.size() && result.groups[gEnd].step == step)
            ++gEnd;
        // Old: every group of the step from its stored totals; new: the groups re-scored.
        // Under "batch" the std is the step's: a step not re-scored whole gets no new
        // advantages, rather than a std over fewer groups than the old one's.
        size_t skippedGroups = 0;
        std::string droppedGroups;
        for (size_t k = gi; k < gEnd; ++k) {
            skippedGroups += result.groups[k].rescored ? 0 : 1;
            if (result.groups[k].dropped)
                droppedGroups += (droppedGroups.empty() ? "" : ", ") + std::to_string(result.groups[k].group);
        }
        const bool newForStep = !(result.settings.scaleRewards == "batch" && skippedGroups > 0);
        if (!newForStep)
            result.notes.push_back("step " + std::to_string(step) + ": " + std::to_string(skippedGroups) + " of " +
                                   std::to_string(gEnd - gi) +
                                   " groups not re-scored: no new advantages (the batch std is the whole step's).");
        if (!droppedGroups.empty())
            result.notes.push_back("step " + std::to_string(step) + ": group(s) " + droppedGroups +
                                   " dropped by dynamic sampling (stored advantages all 0): not trained on.");
        std::vector<double> oldRewards, newRewards;
        std::vector<size_t> oldSizes, newSizes;
        for (size_t k = gi; k < gEnd; ++k) {
            const RescoredGroup &g = result.groups[k];
            for (size_t r = g.firstRow; r < g.firstRow + g.rows; ++r) {
                oldRewards.push_back(result.rows[r].oldTotal);
                if (g.rescored)
                    newRewards.push_back(result.rows[r].newTotal);
            }
            oldSizes.push_back(g.rows);
            if (g.rescored)
                newSizes.push_back(g.rows);
        }
        try {
            const std::vector<double> oldAdv = advantagesOf(oldRewards, oldSizes, result.settings);
            const std::vector<double> newAdv =
                newForStep ? advantagesOf(newRewards, newSizes, result.settings) : std::vector<double>(newRewards.size(), kNan);
            size_t o = 0, n = 0;
            for (size_t k = gi; k < gEnd; ++k) {
                const RescoredGroup &g = result.groups[k];
                for (size_t r = g.firstRow; r < g.firstRow + g.rows; ++r) {
                    result.rows[r].oldAdvantage = oldAdv[o++];
                    if (g.rescored)
                        result.rows[r].newAdvantage = newAdv[n++];
                }
            }
        } catch (const std::exception &e) { // an infinite reward (c10::Error)
            result.notes.push_back("step " + std::to_string(step) + ": advantages not computed: " + e.what());
        }
        gi = gEnd;
    }

    // ---- best completions, flips, the summary
    RescoreSummary &s = result.summary;
    std::vector<double> oldAdv, newAdv;
    double changeSum = 0.0;
    int changeCount = 0;
    for (RescoredGroup &g : result.groups) {
        std::vector<double> oldTotals, newTotals;
        for (size_t r = g.firstRow; r < g.firstRow + g.rows; ++r) {
            oldTotals.push_back(result.rows[r].oldTotal);
            newTotals.push_back(g.rescored ? result.rows[r].newTotal : kNan);
        }
        const int oldBest = bestOf(oldTotals);
        const int newBest = bestOf(newTotals);
        double oldSum = 0.0, newSum = 0.0;
        int oldCount = 0, newCount = 0;
        for (size_t k = 0; k < g.rows; ++k) {
            RescoredRollout &row = result.rows[g.firstRow + k];
            row.oldBest = oldBest >= 0 && !std::isnan(oldTotals[k]) &&
                          std::abs(oldTotals[k] - oldTotals[static_cast<size_t>(oldBest)]) <= kTieTolerance;
            row.newBest = static_cast<int>(k) == newBest;
            if (!std::isnan(oldTotals[k])) {
                oldSum += oldTotals[k];
                ++oldCount;
            }
            if (!std::isnan(newTotals[k])) {
                newSum += newTotals[k];
                ++newCount;
            }
            if (g.rescored && !std::isnan(row.oldAdvantage) && !std::isnan(row.newAdvantage)) {
                row.flipped = (row.oldAdvantage > 0.0 && row.newAdvantage < 0.0) ||
                              (row.oldAdvantage < 0.0 && row.newAdvantage > 0.0);
                g.flips += row.flipped ? 1 : 0;
                oldAdv.push_back(row.oldAdvantage);
                newAdv.push_back(row.newAdvantage);
            }
            if (row.rescored && !std::isnan(row.oldTotal) && !std::isnan(row.newTotal)) {
                changeSum += row.newTotal - row.oldTotal;
                ++changeCount;
            }
            s.rollouts++;
            s.selected += row.selected ? 1 : 0;
            s.skipped += row.rescored ? 0 : 1;
            s.newNone += row.rescored && std::isnan(row.newTotal) ? 1 : 0;
        }
        g.oldBestSample = oldBest >= 0 ? result.rows[g.firstRow + static_cast<size_t>(oldBest)].sample : -1;
        g.newBestSample = newBest >= 0 ? result.rows[g.firstRow + static_cast<size_t>(newBest)].sample : -1;
        g.bestChanged = g.rescored && newBest >= 0 && oldBest >= 0 && !result.rows[g.firstRow + static_cast<size_t>(newBest)].oldBest;
        g.oldMean = oldCount > 0 ? oldSum / oldCount : 0.0;
        g.newMean = newCount > 0 ? newSum / newCount : 0.0;
        s.groups++;
        s.groupsRescored += g.rescored ? 1 : 0;
        s.bestChanged += g.bestChanged ? 1 : 0;
        s.flips += g.flips;
    }
    s.correlatedRows = static_cast<int>(oldAdv.size());
    s.pearson = pearson(oldAdv, newAdv);
    s.spearman = spearman(oldAdv, newAdv);
    s.meanTotalChange = changeCount > 0 ? changeSum / changeCount : 0.0;
    return result;
}

int64_t saveRescoreAsEvaluation(store::RunStore &store, const RescoreResult &result, const reward::RewardConfig &config,
                                const std::string &name)
{
    const json runConfig = {{"rescore_of_run", result.runId},
                            {"scale_rewards", result.settings.scaleRewards},
                            {"none_rewards", result.settings.noneRewards},
                            {"reward_config", json::parse(reward::toJson(reward::withAbsolutePaths(config)))}};
    const int64_t id = store.beginRun(name, store::RunKind::Eval, runConfig.dump(), result.task);
    try {
        store.recordRewardConfig(id, 0, reward::toJson(reward::withAbsolutePaths(config)));
        std::vector<store::EvalPrediction> predictions;
        for (const RescoredRollout &row : result.rows) {
            if (!row.rescored)
                continue;
            store::EvalPrediction p;
            p.exampleId = "rollout " + std::to_string(row.rolloutId);
            p.prediction = row.answer;
            p.gold = row.gold;
            p.correct = row.correct;
            json rewards = json::object();
            for (size_t c = 0; c < result.components.size(); ++c)
                if (c < row.newComponents.size() && std::find_if(config.components.begin(), config.components.end(), [&](const reward::RewardComponent &k) {
                        return k.label() == result.components[c];
                    }) != config.components.end())
                    rewards[result.components[c]] = numberOrNull(row.newComponents[c]);
            p.rewardsJson = rewards.dump();
            p.detailsJson = json{{"rollout_id", row.rolloutId},
                                 {"step", row.step},
                                 {"group", row.group},
                                 {"sample", row.sample},
                                 {"old_total", numberOrNull(row.oldTotal)},
                                 {"new_total", numberOrNull(row.newTotal)},
                                 {"stored_advantage", row.storedAdvantage},
                                 {"old_advantage", numberOrNull(row.oldAdvantage)},
                                 {"new_advantage", numberOrNull(row.newAdvantage)},
                                 {"flipped", row.flipped},
                                 {"error", row.error}}
                                .dump();
            p.judgeDecisions = row.judgeDecisions;
            predictions.push_back(std::move(p));
        }
        store.writeEvalPredictions(id, 0, predictions);
        store.finishRun(id, store::RunStatus::Finished);
    } catch (...) {
        store.finishRun(id, store::RunStatus::Failed, "the re-score could not be stored");
        throw;
    }
    return id;
}

} // namespace rwb::train
