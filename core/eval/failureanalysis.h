#pragma once

// Failure analysis of any task: an evaluation's predictions, parsed by the task and put in
// its failure categories, counted per checkpoint and compared between two (what the
// failure explorer and `rwb eval failures` show). A task's own categories and the details
// behind them live with the task (tasks/extraction/emailfailures.h for company extraction).

#include "task/catalog.h"
#include "task/task.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace rwb::store {
class RunStore;
}

namespace rwb::eval {

// One evaluated prediction joined with its example.
struct AnalyzedPrediction {
    std::string exampleId;
    std::string completion; // what the model wrote
    std::string answer;     // the extracted answer
    // Its category: an index in FailureData::categories (the task's; category 0 is the
    // right answer).
    size_t category = 0;
    std::string detailsJson; // what the task says besides (Task::failureDetailsJson), "" none
    // Why its grader gave no reward ("" when it gave one): a judge's error, a Python or
    // remote reward's error, or "no reward" when only the None value was stored. Such a
    // prediction is in the grader-failure category, not the task's.
    std::string graderError;
};

// The category of predictions whose reward is None because a grader failed (a judge that
// errored or timed out, a Python reward that raised or timed out, a remote reward that
// failed): infrastructure, not the policy. FailureData appends it after the task's
// categories when a checkpoint has such a prediction.
inline constexpr const char *kGraderFailureKey = "grader_failure";
task::FailureCategory graderFailureCategory();

// Why a stored prediction or rollout got no reward, "" when its grader did not fail (no
// None (null) component in its rewards, no "reward_errors" in its details): its details'
// "reward_errors" ({component: error}) and the errors of its judge decisions, joined with
// "; "; "<component>: no reward" when neither says more. `rewardsJson` is the stored
// {component: value} object, `detailsJson` the stored details, `judgeErrors` the errors of
// its judge decisions ("" entries are ignored). Components named in `weightless` (weight 0
// in the config in force: a diagnostic judge, say) do not count: their failure leaves the
// total standing. Never throws (malformed JSON is ignored).
std::string graderErrorOf(const std::string &rewardsJson, const std::string &detailsJson,
                          const std::vector<std::string> &judgeErrors, const std::set<std::string> &weightless = {});

// The components of weight 0 in a reward config's JSON, by the name they are stored under
// ("name", else "reward"). Malformed JSON: none.
std::set<std::string> weightlessComponents(const std::string &rewardConfigJson);

// Predictions per category (counts[i] for category i).
struct FailureCounts {
    std::vector<size_t> counts;
    size_t total = 0;
    size_t of(size_t category) const { return category < counts.size() ? counts[category] : 0; }
};
// Counts over `categories` categories.
FailureCounts countFailures(const std::vector<AnalyzedPrediction> &predictions, size_t categories);
// The sentinel for "no grader-failure category" (compareFailures' graderCategory).
inline constexpr size_t kNoCategory = static_cast<size_t>(-1);

// Two checkpoints' predictions of the same examples, joined by example id.
struct FailureComparison {
    size_t joined = 0;  // ids in both
    // A grader failure (graderCategory) at A or B is neither fixed nor broke: the policy's
    // answer was not judged.
    size_t fixed = 0;   // not right (category 0) at A, right at B
    size_t broke = 0;   // right at A, not right at B
    size_t onlyA = 0;   // ids in A only
    size_t onlyB = 0;
    // transitions[a][b]: examples in category a at A and b at B (categories × categories)
    std::vector<std::vector<size_t>> transitions;
};
FailureComparison compareFailures(const std::vector<AnalyzedPrediction> &a, const std::vector<AnalyzedPrediction> &b,
                                  size_t categories, size_t graderCategory = kNoCategory);

// The examples and every checkpoint's predictions of one evaluation, each prediction
// parsed by the task and put in one of its failure categories (task::Task::failureCategories).
struct FailureData {
    std::string task;                              // the task's name
    std::vector<task::FailureCategory> categories; // the task's, in its order
    std::string examplesPath;                      // where the examples came from
    std::map<std::string, std::shared_ptr<const task::Example>> examples; // by id
    std::map<int64_t, std::vector<AnalyzedPrediction>> checkpoints;       // by step, in id order
    size_t withoutExample = 0; // predictions whose id is not among the examples (left out)
    // The run's thinking mode: 1 on, 0 off, -1 unknown (then a completion that holds an
    // <answer> block, the thinking format's, is parsed in thinking mode).
    int thinking = -1;

    // The gold of an example as text ("" for an unknown id).
    std::string goldOf(const std::string &id) const;
    // Whether `completion` is parsed in thinking mode (`thinking` above).
    bool thinkingFor(const std::string &completion) const;
    // The index of the grader-failure category in `categories` (kNoCategory: none so far).
    size_t graderCategory() const;
};

// Adds checkpoint `step`: each (example id, completion) parsed and categorized by `task`
// (the task of data.examples); an id not among data.examples is counted in
// withoutExample and left out. `graderErrors` (empty, or one per prediction): a non-empty
// entry puts its prediction in the grader-failure category (appended to data.categories
// the first time) with that error.
void addCheckpoint(FailureData &data, const task::Task &task, int64_t step,
                   const std::vector<std::pair<std::string, std::string>> &predictions,
                   const std::vector<std::string> &graderErrors = {});

// A run of a run store: its config's "eval_data" (relative paths resolve against the
// store file's folder) gives the examples, read by the run's task (of `catalog`) and
// joined by id with store.evalPredictions(runId) (a prediction whose grader failed —
// graderErrorOf its rewards, details and judge decisions — in the grader-failure
// category); "reward_config" (a path, or an inline
// object) gives "thinking" when it can be read (else -1 above). Throws
// data::InputException naming the store, the run or the file: no such run, a task the
// catalog lacks, no "eval_data" in its config, a missing or malformed examples file.
FailureData loadRunFailures(const std::string &storePath, int64_t runId,
                            const task::Catalog &catalog = task::Catalog::builtin());
// The same through an open connection `store` to the file at `storePath`.
FailureData loadRunFailures(const store::RunStore &store, const std::string &storePath, int64_t runId,
                            const task::Catalog &catalog = task::Catalog::builtin());

// Predictions files as `rwb eval run --output` writes them: `first` as step 0, `second`
// (optional, "" for none) as step 1; the task is the first line's "task" (the catalog's
// default without one); each file's lines are its examples, the first file's kept for an
// id in both. Throws data::InputException naming the file.
FailureData loadPredictionFailures(const std::string &first, const std::string &second = {},
                                   const task::Catalog &catalog = task::Catalog::builtin());

// Adds a predictions file (as `rwb eval run --output` and the workbench's "Evaluate a
// checkpoint" write it) to `data` as checkpoint `key` (replacing one there), so that it
// compares with the evaluations already there: read by data.task's task (of `catalog`);
// a line whose id data.examples lacks brings its example in. Throws
// data::InputException naming the file: unreadable, malformed, or of another task (its
// first line's "task"); `data` is left as it was.
void addPredictionsFile(FailureData &data, const std::string &path, int64_t key,
                        const task::Catalog &catalog = task::Catalog::builtin());

} // namespace rwb::eval
