#pragma once

// ProRAG's Monte-Carlo tree search over reasoning steps (§3.2) with the environment in
// the loop, on the local policy, for any task that declares steps (task::Steps). No
// libtorch in this header.
//
// A state is the question's prompt plus the actions so far; an action is one step of the
// task (for the multi-hop task one hop of its step format: the policy writes <step> and
// <subquery>, generation pauses at </subquery>, the environment appends <retrieval> (the
// retriever's top-k passages for the sub-query), and generation resumes, the KV cache
// kept, to </subanswer>) — or a final step, ending at Steps::answerEnd() with the answer,
// a terminal action. A step that runs past maxStepTokens, or reaches the end of the
// completion without an answer, is terminal with value 0.
//
// One iteration (runSearch):
//  1. selection: from the root, the PUCT child (eq. 2) down to a leaf;
//  2. expansion: K actions sampled from the SFT policy at the leaf, sharing one prefill
//     of its prefix (BatchDecoder::add); identical actions are one child; the prior P of
//     a child is the softmax over its siblings of its mean token log-probability (the
//     policy's probability of the step, per token, so that long and short steps compare);
//  3. simulation: from the child PUCT picks among the new ones (the largest prior), the
//     policy samples actions to a terminal state (or the depth limit);
//  4. back-up (eq. 3): v = the answer's score against the gold answer (Steps::answerScore,
//     F1 or exact match) if the whole trajectory is well formed, else 0; every node of the path gets γ^(T − d) · v,
//     T the depth of the terminal state reached.
// A selected leaf that is terminal backs up its own value; one at the depth limit backs
// up 0. Deterministic for a seed: the sampling seeds are a function of (seed, iteration,
// child) and the model runs on one thread's order of operations.

#include "mcts/searchrecord.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rwb::task {
class Environment;
class Example;
class Steps;
class Task;
}

namespace rwb::mcts {

// One action as generated.
struct StepBlock {
    std::string text;             // the action's text, the environment's retrieval included
    std::vector<int32_t> tokens;  // every token of the action (the policy's and the retrieval's), in order
    std::vector<uint8_t> fromEnvironment; // per token: 1 where the environment wrote it (no loss falls there)
    int policyTokens = 0;         // tokens the policy sampled
    double logProb = 0;           // their summed log-probabilities
    std::vector<std::string> retrieved; // passage ids of the retrieval, best first
    bool terminal = false;        // ends the trajectory (an answer, the end of the completion, or a runaway step)
    std::string answer;           // the <answer> block's text when there is one
    bool ranOut = false;          // the step hit maxStepTokens or the context
};

// Where the time of a search goes (seconds) and how many tokens it decoded.
struct SearchStats {
    double generation = 0; // prefill and decode
    double retrieval = 0;  // retriever searches and encoding their text
    double tree = 0;       // selection, back-up, priors, values
    double total = 0;
    int64_t prefilledTokens = 0;
    int64_t decodedTokens = 0;
    int64_t expansions = 0;
    int64_t simulatedSteps = 0;
    void add(const SearchStats &other);
};

struct PolicyOptions {
    std::string model;          // model folder (tokenizer beside it)
    std::string index;          // the task environment's retrieval index (`rwb retrieve index`), when it has one
    int topK = 2;               // passages an environment reply holds (SearchParams::topK of the searches)
    std::string source = "index"; // what names the index in messages ("mcts.json: index")
    std::string device = "cpu";
    std::string dtype = "float32";
    int threads = 0;
    // Sampling with prefix sharing (false: every child prefills the prefix itself; for the
    // benchmark's comparison).
    bool sharePrefill = true;
};

// The SFT policy and the task's environment. Not thread-safe.
class StepPolicy {
public:
    // Loads the model and its tokenizer, and makes the task's environment (when it has one)
    // with options.index and options.topK (a search with another topK makes its own).
    // `task` must declare steps (Task::steps()). Throws data::InputException naming the
    // folder, the index, or the task that has no steps.
    StepPolicy(const PolicyOptions &options, const task::Task &task);
    ~StepPolicy();
    StepPolicy(const StepPolicy &) = delete;
    StepPolicy &operator=(const StepPolicy &) = delete;

    const task::Task &task() const;
    const task::Steps &steps() const;
    // The prompt tokens of an example (the task's prompt in the model's format).
    std::vector<int32_t> promptTokens(const task::Example &example) const;
    // `n` actions from the state `prefix` (prompt + earlier actions' tokens; `prefixText`
    // the earlier actions' text, which the environment reads), each with its own sampling
    // stream seeded (seed, i).
    std::vector<StepBlock> sample(const task::Example &example, const std::vector<int32_t> &prefix,
                                  const std::string &prefixText, int n, double temperature, uint64_t seed,
                                  const SearchParams &params, SearchStats &stats);
    // Actions, one after another in one row (no second prefill), until a terminal one or
    // `maxActions` of them.
    std::vector<StepBlock> rollout(const task::Example &example, const std::vector<int32_t> &prefix,
                                   const std::string &prefixText, int maxActions, double temperature, uint64_t seed,
                                   const SearchParams &params, SearchStats &stats);
    // The task's environment for `topK` passages a reply (null for a task without one).
    const task::Environment *environment(int topK) const;
    std::string decode(const std::vector<int32_t> &tokens) const;
    int64_t contextLength() const;
    const PolicyOptions &options() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_d;
};

// The value of a trajectory (the actions' texts joined) for `example`: when the task's
// steps read it as well formed with an answer, the answer's score against the gold
// (metric "f1" or "em"); else 0.
double trajectoryValue(const task::Steps &steps, const task::Example &example, const std::string &trajectory,
                       const std::string &metric = "f1");

// Called after every iteration with the record so far; return false to stop early.
using IterationCallback = std::function<bool(const SearchRecord &)>;

// Searches one example. The record holds its question (Steps::stepQuestionRecord: id,
// text, gold answer and sources), `params`, the tree and every iteration.
SearchRecord runSearch(StepPolicy &policy, const task::Example &example, const SearchParams &params,
                       SearchStats &stats, const IterationCallback &callback = {});

// The greedy trajectory (temperature 0) of the policy: the SFT baseline, measured by the
// task's own metrics (Task::metrics on the trajectory as a completion).
struct GreedyResult {
    std::string text;
    std::string answer; // of a well-formed trajectory (Steps::trajectoryAnswer), else ""
    std::vector<std::pair<std::string, double>> metrics; // the task's, for this one trajectory
    double em = 0;      // its metrics "em", "f1" and "format" (0 when the task has none)
    double f1 = 0;
    bool wellFormed = false;
    int actions = 0;
};
GreedyResult greedyRollout(StepPolicy &policy, const task::Example &example, const SearchParams &params,
                           SearchStats &stats);

} // namespace rwb::mcts
