#pragma once

// `rwb mcts run`: searches a question set of a task with steps with the SFT policy and
// the task's environment (the multi-hop task's: the local retriever),
// writes every tree to the run store (run kind "mcts", as it grows, so the workbench can
// follow it live), and measures the greedy SFT baseline on the same questions. No
// libtorch in this header. docs/mcts.md.

#include "mcts/search.h"

#include <functional>
#include <string>
#include <string_view>

namespace rwb::mcts {

struct MctsRunConfig {
    std::string source;    // the config file (messages)
    std::string task;      // a task that declares steps; "": the catalog's first that does
    std::string model;     // the SFT policy's folder
    std::string index;     // the task environment's retrieval index (BM25 of the knowledge base); "" none
    std::string questions; // the task's JSONL (gold answers required)
    std::string store;     // run store (SQLite); created when missing
    std::string runName;   // "" → "mcts <questions file name>"
    std::string preset = "small"; // "paper" (§4.3: 200 simulations, K 5, depth 10) or "small"
    SearchParams params;   // the preset's, then the config's keys over it
    int limit = 0;         // > 0: the first N questions
    bool greedy = true;    // also run the greedy SFT trajectory of every question
    int writeEvery = 5;    // iterations between live writes of a tree in progress
    std::string device = "cpu";
    int threads = 0;
};

// The presets: "paper" is ProRAG §4.3's; "small" fits a tiny model on 2 cores (docs/mcts.md).
SearchParams presetParams(std::string_view name);

// Keys: model, questions, store (required), task, index, run_name, preset, simulations,
// expansions, max_depth, c_puct, gamma, temperature, max_step_tokens, top_k, seed, limit,
// greedy, write_every, device, threads. Relative paths resolve against the config's
// folder. Throws data::InputException naming `source` and the key.
MctsRunConfig parseMctsRunConfig(std::string_view json, const std::string &source);
MctsRunConfig loadMctsRunConfig(const std::string &path);

struct MctsRunProgress {
    int64_t runId = 0;  // the store's run the trees go to
    int question = 0;   // 1-based, of `questions`
    int questions = 0;
    int iteration = 0;  // of the question's search
    int iterations = 0;
    double meanBestF1 = 0;   // over the finished questions: the most visited path's answer F1
    double meanGreedyF1 = 0; // the greedy baseline's
    double elapsedSeconds = 0;
};

struct MctsRunResult {
    int64_t runId = 0;
    int questions = 0;
    std::string task;    // the task searched
    // Answer metrics over the questions (the answer's EM and F1, Steps::answerScore):
    double greedyEm = 0, greedyF1 = 0;     // greedy SFT
    double bestEm = 0, bestF1 = 0;         // the most visited path (no gold used to pick it)
    double foundF1 = 0;                    // the best terminal the search reached (uses the gold: an upper bound)
    SearchStats stats;                     // the searches'
    SearchStats greedyStats;               // the greedy baselines'
    double seconds = 0;
    bool stopped = false;
};

// Called on the searching thread after every iteration; return false to stop (the run is
// then marked stopped; the trees so far are kept).
using MctsRunCallback = std::function<bool(const MctsRunProgress &)>;

MctsRunResult runMcts(const MctsRunConfig &config, const MctsRunCallback &callback = {});

} // namespace rwb::mcts
