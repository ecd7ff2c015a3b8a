#pragma once

// Runs of other trainers (verl, OpenRLHF, TRL) in the run store: the rollouts whose rewards
// `rwb serve` scored for them, or that `rwb import` read from their dumps, written as a
// run of kind "external" so that the workbench's curves, groups, browser and failure
// explorer work on them as on a GRPO run of ours. Without Qt or libtorch.

#include "store/storetypes.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rwb::store {

class RunStore;

// One rollout another trainer made.
struct ExternalSample {
    std::string promptId;          // the dataset row's id; "" → "p-" and a hash of `prompt`
    std::string prompt;            // the prompt as the trainer sent it (chat template and all)
    std::string gold;              // the gold answer as one line, when known
    std::string metaJson = "{}";   // what the task keeps of the example (Example::metaJson)
    std::string group;             // the trainer's group id; "" → the prompt id
    std::string completion;
    std::string answer;            // what the task parsed from it, when a task did
    double reward = std::numeric_limits<double>::quiet_NaN(); // NaN: none (a judge failed)
    std::vector<std::pair<std::string, double>> components;   // each reward's value, in order
    std::optional<double> advantage; // the trainer's own; none → GRPO's, from the group's rewards
    int completionTokens = 0;
    bool truncated = false;
    std::string detailsJson = "{}";
    std::vector<judge::Decision> judgeDecisions{};
    // Per token of the completion, where the trainer logged them (rwb import): each array
    // empty or as long as tokenIds (store::Rollout's columns; NaN where a token lacks it).
    std::vector<int32_t> tokenIds{};
    std::vector<float> logprobsOld{}; // the sampling policy's (the inference engine's)
    std::vector<float> logprobsNew{}; // the trainer's forward pass
    std::vector<float> logprobsRef{}; // the reference policy's
    std::vector<float> advantages{};  // as the loss used them
    std::vector<float> entropies{};
};

// A prompt id made from a prompt's text: stable across runs and processes ("p-" and 16
// hex digits of its 64-bit FNV-1a hash).
std::string promptIdOf(const std::string &prompt);

// Writes one step of another trainer to `runId` (a run of kind External) as a GRPO step
// is written: the samples grouped by group id in order of first appearance (group
// sizes may differ), and the metrics a GRPO step has where they can be known from the
// rollouts alone (util::rewardStats): reward, reward_std (over every row, as TRL),
// group_reward_std (mean of the groups' stds), rewards/<name>/mean and
// /std, frac_reward_zero_std, and where some sample's completionTokens is known (> 0)
// completions/mean_length, min_length, max_length, clipped_ratio; then `extra` (the trainer's own, e.g. "kl"). A sample without an
// advantage gets GRPO's (r − group mean) / (group std + 1e-4), Bessel-corrected, 0 for a
// group of one or a None reward. Throws store::StoreError as RunStore::writeStep does
// (a step written twice).
void writeExternalStep(RunStore &store, int64_t runId, int64_t step, std::vector<ExternalSample> samples,
                       const std::vector<Metric> &extra = {});

// The write-ahead file of the step `rwb serve` holds in memory for an external run, so
// that a rollout it has answered survives a crash before its step is written: beside the
// store, "<store>.pending-run<id>.jsonl", one line per request ({"step": the trainer's
// step or null, "samples": […]}), each flushed to the disk (fdatasync) before the answer
// goes out, and emptied once the step is in the store.
class PendingLog {
public:
    static std::string pathFor(const std::string &storePath, int64_t runId);

    // Opens (creates) the file for appending. Throws std::runtime_error naming it.
    explicit PendingLog(std::string path);
    ~PendingLog();
    PendingLog(const PendingLog &) = delete;
    PendingLog &operator=(const PendingLog &) = delete;

    const std::string &path() const { return m_path; }
    // One request's samples, on the disk when this returns. Throws std::runtime_error.
    void append(const std::vector<ExternalSample> &samples, std::optional<int64_t> step);
    // Empties the file (its step is in the store). Throws std::runtime_error.
    void clear();

    // A file a server left: its requests in order, a torn last line (the crash came while
    // it was written: that request was never answered) left out. Throws
    // data::InputException naming the file and line for anything else.
    struct Request {
        std::optional<int64_t> step;
        std::vector<ExternalSample> samples;
    };
    static std::vector<Request> read(const std::string &path);

private:
    std::string m_path;
    int m_fd = -1;
};

// For every pending file beside `storePath` whose run is still "running" (its server
// stopped without finishing it: a crash, SIGKILL, a power cut): writes what it holds as
// the run's next steps (consecutive requests of one trainer step, or all of them when the
// trainer sent none, make one step), marks the run failed saying so, and removes the
// file. Files of runs that are not running are removed. Returns one sentence per run
// recovered, for the log.
std::vector<std::string> recoverPendingExternalRuns(RunStore &store, const std::string &storePath);

} // namespace rwb::store
