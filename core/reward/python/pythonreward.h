#pragma once

// The generic reward component `python`: a user's Python reward function, unchanged, run
// in a long-lived worker process (pythonworker.h) — a TRL GRPOTrainer reward function
// (`f(prompts, completions, completion_ids, **kwargs) -> list[float | None]`, one call per
// batch) or a verl `compute_score(data_source, solution_str, ground_truth, extra_info)`
// (one call per item). docs/python-rewards.md has the calling conventions, the options
// and the wire protocol.
//
// A value the function gives as None, NaN or infinity, or not as a number, and every
// value of a batch whose call failed (an exception, a timeout, a worker that died) is
// None (kNone), never 0; the error, its traceback and the function's extra values
// (log_extra, verl's dict keys) are kept per item (lastBatch). Values are passed on as
// the function gives them: not clipped to [0, 1].

#include "reward/reward.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace rwb::reward {

class PythonWorker;
class Registry;

// The component's options (RewardComponent::options), strict: an unknown key is an error.
struct PythonRewardOptions {
    std::string file;              // required; absolute after parsing (relative to the config's folder)
    std::string function;          // required
    std::string signature = "trl"; // "trl" | "verl"
    // The interpreter: "python3" (looked up on PATH), or a path (a venv's bin/python; a
    // relative path with a '/' is taken from the config's folder). Default: $RWB_PYTHON,
    // else "python3".
    std::string python;
    double timeoutSeconds = 60.0;  // timeout_s: per request
    size_t batch = 0;              // items per request; 0 = the whole batch
    std::vector<std::pair<std::string, std::string>> env; // extra environment, sorted by name
    // verl: the record columns (dotted paths) that give data_source, ground_truth and
    // extra_info. Defaults: "data_source", the gold (Example::goldText), "extra_info";
    // a column named here must exist in every example (checkExample).
    std::string dataSourceColumn = "data_source";
    std::string groundTruthColumn;  // "" = the gold
    std::string extraInfoColumn = "extra_info";
    bool dataSourceExplicit = false;
    bool extraInfoExplicit = false;
};

// Reads the options JSON. Throws std::invalid_argument "options.<key>: …" for an unknown
// key, a wrong type or value, a missing `file` or `function`, or a file that does not exist.
PythonRewardOptions parsePythonRewardOptions(const std::string &json, const std::string &baseDir);

// What one scoring call (scoreBatch, score, explain) produced besides the values: what a
// ScoreLog should carry for the views and the run store.
struct PythonBatchResult {
    std::vector<double> values;     // per item; kNone for None
    // Per item: "" or why its value is None (or, for a value kept, what was wrong beside
    // it): the message on the first line, then the traceback when there is one.
    std::vector<std::string> errors;
    // Per item: its extra values (TRL's log_extra columns, a verl dict's other keys) as a
    // JSON object's text; "{}" when none.
    std::vector<std::string> extra;
    // log_metric's values, averaged over the calls (as TRL does; a request's several calls
    // are averaged first), sorted by name.
    std::vector<std::pair<std::string, double>> metrics;
    std::string error;              // the batch's errors with their tracebacks, "" when none
    std::string output;             // what the function printed (stdout and stderr), at most 64 KiB per request
    size_t requests = 0;            // how many requests it took (options.batch)
    double seconds = 0.0;           // wall time of the whole call
};

class PythonReward : public Reward {
public:
    // Starts the worker of (python, file, the file's folder, env), or joins the one that
    // runs, so that a config check reports a bad file at once. `label` is the component's
    // name in the config ("" = "python"). Throws std::invalid_argument naming the problem:
    // an interpreter that cannot be started, a file that does not load (its file and line,
    // and the traceback), a function it does not define.
    PythonReward(PythonRewardOptions options, std::string label = {});
    ~PythonReward() override;

    std::string_view name() const override { return m_name; }
    double score(const task::Example &example, const task::Completion &completion) const override;
    // Scores one item: reason Library, key "python.value" (args: the value) or "python.none"
    // (args: the error's first line), detail in English, error the full traceback.
    Explanation explain(const task::Example &example, const task::Completion &completion) const override;
    // One request per options.batch items (all of them when 0). Never throws for what the
    // function does. `log`, when given, gets a note per item with an error or extra values
    // and the function's metrics as "reward_metric/<name>/<metric>".
    void scoreBatch(const std::vector<const task::Example *> &examples,
                    const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                    ScoreLog *log = nullptr) const override;
    // verl with a column named in options.columns: throws std::invalid_argument when the
    // example has no such column.
    void checkExample(const task::Example &example) const override;

    // What the most recent call on this component (from any thread) produced.
    PythonBatchResult lastBatch() const;
    const PythonRewardOptions &options() const { return m_options; }
    // The worker's process id (-1 when none runs): components that share a worker agree.
    int workerPid() const;

private:
    PythonBatchResult run(const std::vector<const task::Example *> &examples,
                          const std::vector<const task::Completion *> &completions) const;

    PythonRewardOptions m_options;
    std::string m_name;
    std::shared_ptr<PythonWorker> m_worker;
    mutable std::mutex m_lastMutex;
    mutable PythonBatchResult m_last;
};

// Registers `python` as a generic component (for every task).
void addPythonRewards(Registry &registry);

} // namespace rwb::reward
