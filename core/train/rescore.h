#pragma once

// What-if re-scoring (issue 43): the rollouts a run already made, scored again with an
// edited reward config, and the group advantages recomputed from the new totals with the
// run's own advantage settings, beside the stored ones — before training on the config.
// Nothing is written to the run: saveRescoreAsEvaluation() stores a result as an
// evaluation run of its own when asked. No libtorch in this header.
//
// Groups are re-scored whole (an advantage is relative to its group): the rollouts asked
// for bring the rest of their (step, group); under scale_rewards = "batch" the rest of
// their steps too, since the batch std is the step's. A rollout whose example cannot be
// rebuilt from the store (its task missing from this build, a prompt without its input)
// is skipped with a reason, and its group gets no new advantages. A component that gives
// None (a judge that failed or is unreachable, a Python reward that raised) makes the
// new total None, with the error kept per rollout; the run's none_rewards decides what
// the advantages do with it, as in training.

#include "judge/decision.h"
#include "reward/rewardconfig.h"
#include "store/storetypes.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace rwb::store {
class RunStore;
}

namespace rwb::task {
class Task;
}

namespace rwb::train {

// Which rollouts of a run: the ids when any are given, else every rollout `filter`
// matches (the rollout browser's filter; a step is stepMin = stepMax). filter.runId
// names the run either way.
struct RescoreScope {
    store::RolloutFilter filter;
    std::vector<int64_t> rolloutIds;
};

// The run's advantage settings as its config stored them (GrpoConfig's defaults for what
// it does not name: an imported run's config names none).
struct AdvantageSettings {
    std::string scaleRewards = "group"; // group | batch | none
    std::string noneRewards = "skip";   // skip | zero | stop
    double epsilon = 1e-4;              // train::kDefaultStdEpsilon
    bool dualGranularity = false;       // the run had a PRM: β·A_proc rides on A_out
    double processBeta = 0.0;
    // DAPO's over-long penalty: the trainer added the rollout's stored "overlong" component
    // to its total, and the re-score adds it to each new total that is not None.
    bool overlongPenalty = false;
    // DAPO's dynamic sampling: groups of equal rewards were dropped (stored advantages 0).
    bool dynamicSampling = false;
    bool fromConfig = false;            // false: the run's config names none of them
};

// One rollout, stored and re-scored. Component vectors follow RescoreResult::components;
// NaN where a value is absent (the stored JSON lacks it) or None.
struct RescoredRollout {
    int64_t rolloutId = 0;
    int64_t step = 0;
    int group = 0;
    int sample = 0;
    bool selected = false;   // in the scope (false: brought along by its group or step)
    bool rescored = false;   // false: skipped (see error)
    std::string error;       // why skipped, or why the new total is None ("" none)
    std::string answer;      // the answer the task parses under the new config
    std::string gold;        // as stored
    bool correct = false;    // the task's first failure category ("right") for the answer
    double oldTotal = std::numeric_limits<double>::quiet_NaN(); // as stored (NaN: None)
    double newTotal = std::numeric_limits<double>::quiet_NaN();
    double storedAdvantage = 0.0; // the advantage column as the run wrote it
    // Both from the same function with the run's settings: the old from the stored
    // totals, the new from the new ones, so that they differ by the reward alone. NaN
    // when the group got none (a rollout of it skipped).
    double oldAdvantage = std::numeric_limits<double>::quiet_NaN();
    double newAdvantage = std::numeric_limits<double>::quiet_NaN();
    bool flipped = false;    // old and new advantage of opposite signs (a zero is no sign)
    bool oldBest = false;    // among the group's best by stored total
    bool newBest = false;    // the group's best by new total (the first on ties)
    std::vector<double> oldComponents;
    std::vector<double> newComponents;
    std::vector<judge::Decision> judgeDecisions; // the judge calls the re-score made
};

struct RescoredGroup {
    int64_t step = 0;
    int group = 0;
    size_t firstRow = 0;     // its rows in RescoreResult::rows: [firstRow, firstRow + rows)
    size_t rows = 0;
    bool rescored = false;   // every rollout re-scored: new advantages computed (but see
                             // RescoreResult::notes: under "batch", none when its step was
                             // not re-scored whole)
    // Dynamic sampling was on and every stored advantage of the group is 0: the trainer
    // dropped it (or did not need it) and did not train on it.
    bool dropped = false;
    // The sample index of the best completion (highest total, first on ties; None
    // totals left out); -1 when none.
    int oldBestSample = -1;
    int newBestSample = -1;
    // The new best completion is not among the old best ones (tied at the old highest).
    bool bestChanged = false;
    int flips = 0;
    double oldMean = 0.0, newMean = 0.0; // of the totals that are not None
};

struct RescoreSummary {
    int rollouts = 0;        // rows (selected and brought along)
    int selected = 0;
    int skipped = 0;
    int newNone = 0;         // rows whose new total is None
    int groups = 0;
    int groupsRescored = 0;
    int bestChanged = 0;
    int flips = 0;
    // Of old against new advantage over the rows of re-scored groups whose advantages
    // are both defined; NaN with fewer than two such rows or a constant side.
    double pearson = std::numeric_limits<double>::quiet_NaN();
    double spearman = std::numeric_limits<double>::quiet_NaN();
    int correlatedRows = 0;
    // mean(new total − stored total) over the rows where neither is None; 0 when none.
    double meanTotalChange = 0.0;
};

struct RescoreResult {
    int64_t runId = 0;
    std::string runName;
    std::string task;
    AdvantageSettings settings;
    // The union of the stored components (the run's reward config in force, else the
    // stored JSON's keys) and the new config's, stored first then new, by label.
    std::vector<std::string> components;
    std::vector<RescoredRollout> rows;   // by step, group, sample
    std::vector<RescoredGroup> groups;   // by step, group
    RescoreSummary summary;
    std::vector<std::string> notes;      // English lines for the view (settings, what was left out)
    bool cancelled = false;              // the callback said stop: rows and groups are empty
};

// Progress between batches of rollouts: `done` of `total` rollouts re-scored (total 0
// while the rollouts are still being collected). Called on the thread that runs
// rescore(); return false to cancel (a judge call in flight ends first).
using RescoreProgress = std::function<bool(size_t done, size_t total)>;

// The task rescore() rebuilds a run's examples with: the process catalog's, or the user's
// task the run's stored configs describe, installed in the catalog first
// (task::findOrInstallTask). Null when the run was imported without a task or this build
// has no task of its name. Installing writes the catalog, which no other thread may read
// meanwhile: call it on the thread that installs tasks (the GUI thread) before running
// rescore() elsewhere. The task stays valid for the process (the catalog keeps it alive).
// Throws store::StoreError.
const task::Task *rescoreTaskOf(const store::RunStore &store, int64_t runId);

// Re-scores `scope` of a run with `config` (validated against the process's task
// catalog; `source` names it in messages), rebuilding examples with `task`
// (rescoreTaskOf(); null: every rollout is skipped with the reason). Reads `store` only
// and never writes the task catalog. Judge components go
// through the config's judge client (its cache answers a request asked before). Throws
// data::InputException for a config that does not build (naming `source`),
// store::StoreError for the store, std::invalid_argument for a scope without a run.
// Any thread, with its own RunStore.
RescoreResult rescore(const store::RunStore &store, const RescoreScope &scope, const task::Task *task,
                      const reward::RewardConfig &config, const std::string &source,
                      const RescoreProgress &progress = {});

// The run's advantage settings from its stored config (a GRPO config's JSON).
AdvantageSettings advantageSettingsOf(const std::string &runConfigJson);

// Pearson's r and Spearman's ρ (Pearson's r of the ranks, values within 1e-12 tied and given their mean rank) of
// paired values; NaN for fewer than two pairs or a side whose values are all equal.
double pearson(const std::vector<double> &x, const std::vector<double> &y);
double spearman(const std::vector<double> &x, const std::vector<double> &y);

// Stores `result` in `store` as an evaluation run named `name` of the run's task (one
// checkpoint step 0, one prediction per re-scored rollout: example "rollout <id>", the
// new components and total as its rewards, the old and new totals and advantages in its
// details, its judge calls), with `config` recorded as its reward config. The re-scored
// run is not touched. Returns the new run's id. Throws store::StoreError.
int64_t saveRescoreAsEvaluation(store::RunStore &store, const RescoreResult &result,
                                const reward::RewardConfig &config, const std::string &name);

} // namespace rwb::train
