#pragma once

// ProRAG's Monte-Carlo tree search over reasoning steps (§3.2) with retrieval in the
// loop, on the local policy and retriever. No libtorch in this header.
//
// A state is the question's prompt plus the actions so far; an action is one step block
// of the step format (tasks/multihop/multihopformat.h): the policy writes <step> and <subquery>,
// generation stops at </subquery>, the environment appends <retrieval> (the retriever's
// top-k passages for the sub-query), and generation resumes, the KV cache kept, to
// </subanswer> — or the policy writes <step> and <answer>, a terminal action. A step
// that runs past maxStepTokens, or reaches the end of the completion without an answer,
// is terminal with value 0.
//
// One iteration (runSearch):
//  1. selection: from the root, the PUCT child (eq. 2) down to a leaf;
//  2. expansion: K actions sampled from the SFT policy at the leaf, sharing one prefill
//     of its prefix (BatchDecoder::add); identical actions are one child; the prior P of
//     a child is the softmax over its siblings of its mean token log-probability (the
//     policy's probability of the step, per token, so that long and short steps compare);
//  3. simulation: from the child PUCT picks among the new ones (the largest prior), the
//     policy samples actions to a terminal state (or the depth limit);
//  4. back-up (eq. 3): v = the answer's F1 against the gold answer if the whole
//     trajectory is in the step format, else 0; every node of the path gets γ^(T − d) · v,
//     T the depth of the terminal state reached.
// A selected leaf that is terminal backs up its own value; one at the depth limit backs
// up 0. Deterministic for a seed: the sampling seeds are a function of (seed, iteration,
// child) and the model runs on one thread's order of operations.

#include "mcts/searchrecord.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rwb::task {
class MultihopExample;
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
    std::string index;          // BM25 index of the knowledge base (`rwb retrieve index`)
    std::string device = "cpu";
    std::string dtype = "float32";
    int threads = 0;
    // Sampling with prefix sharing (false: every child prefills the prefix itself; for the
    // benchmark's comparison).
    bool sharePrefill = true;
};

// The SFT policy and the retrieval environment. Not thread-safe.
class StepPolicy {
public:
    // Loads the model and its tokenizer, and opens the index. Throws data::InputException
    // naming the folder or the index file ("… no such file: run `rwb retrieve index`").
    explicit StepPolicy(const PolicyOptions &options);
    ~StepPolicy();
    StepPolicy(const StepPolicy &) = delete;
    StepPolicy &operator=(const StepPolicy &) = delete;

    // The prompt tokens of a question (the multihop task's prompt in the model's format).
    std::vector<int32_t> promptTokens(const task::MultihopExample &example) const;
    // `n` actions from the state `prefix` (prompt + earlier actions' tokens), each with
    // its own sampling stream seeded (seed, i).
    std::vector<StepBlock> sample(const std::vector<int32_t> &prefix, int n, double temperature, uint64_t seed,
                                  const SearchParams &params, SearchStats &stats);
    // Actions, one after another in one row (no second prefill), until a terminal one or
    // `maxActions` of them.
    std::vector<StepBlock> rollout(const std::vector<int32_t> &prefix, int maxActions, double temperature,
                                   uint64_t seed, const SearchParams &params, SearchStats &stats);
    // The retrieval block the environment appends for a sub-query, and the passage ids.
    std::pair<std::string, std::vector<std::string>> retrieve(const std::string &subquery, int topK) const;
    std::string decode(const std::vector<int32_t> &tokens) const;
    int64_t contextLength() const;
    const PolicyOptions &options() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_d;
};

// The value of a trajectory (the actions' texts joined): when the text is in the step
// format and ends with an answer, its answer's F1 against `gold` (metric "f1")
// or its exact match (metric "em"); else 0.
double trajectoryValue(const std::string &trajectory, const std::string &gold, const std::string &metric = "f1");

// Called after every iteration with the record so far; return false to stop early.
using IterationCallback = std::function<bool(const SearchRecord &)>;

// Searches one question. The record holds the question (id, text, gold answer and
// passages), `params`, the tree and every iteration.
SearchRecord runSearch(StepPolicy &policy, const task::MultihopExample &example, const SearchParams &params,
                       SearchStats &stats, const IterationCallback &callback = {});

// The greedy trajectory (temperature 0) of the policy: the SFT baseline.
struct GreedyResult {
    std::string text;
    std::string answer;
    double em = 0;
    double f1 = 0;
    bool wellFormed = false;
    int actions = 0;
};
GreedyResult greedyRollout(StepPolicy &policy, const task::MultihopExample &example, const SearchParams &params,
                           SearchStats &stats);

} // namespace rwb::mcts
