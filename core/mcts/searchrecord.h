#pragma once

// One question's search, as it is stored and replayed: the final tree, the log of its
// iterations (what each selected, expanded and backed up) and what the viewer needs of
// the question (its gold answer and gold passages). Any iteration can be replayed: the
// tree after iteration i is the nodes created up to i with the back-ups of iterations
// 1 … i applied again (treeAt). Without Qt or libtorch; the search (mcts/search.h)
// writes records, the run store keeps them, the tree viewer reads them.

#include "mcts/searchtree.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rwb::mcts {

// One iteration of the search (selection, expansion, simulation, back-up).
struct Iteration {
    int index = 0;          // 1-based
    std::vector<int> selected; // the path selection walked: [root, …, leaf]
    int expanded = -1;      // the leaf whose children this iteration added (-1: none, the leaf was terminal or at the depth limit)
    std::vector<int> created; // the children added
    // The path the value was backed up along: `selected`, plus the child evaluated when
    // the leaf was expanded.
    std::vector<int> backedUp;
    double value = 0;       // v: the answer's value at the terminal state reached
    int terminalDepth = 0;  // T of eq. 3: the depth of that terminal state
    // The continuation a simulation wrote after backedUp's last node to reach a terminal
    // state ("" when that node was terminal itself), and the answer it ended with.
    std::string simulation;
    std::string simulationAnswer;
    double seconds = 0;     // wall time of the iteration
};

struct SearchParams {
    int simulations = 200;  // iterations
    int expansions = 5;     // K: children sampled per expansion
    int maxDepth = 10;      // steps; a node at this depth is not expanded
    double cPuct = 2.5;
    double gamma = 0.99;
    double temperature = 1.0; // of the expansion's and the simulation's sampling
    int maxStepTokens = 96;   // per generated step block (a runaway step ends there)
    int topK = 2;             // passages retrieved per sub-query
    uint64_t seed = 1;
    // A terminal's value: "f1", its answer's F1 against the gold (the paper's; partial
    // credit for a wrong name sharing a suffix, 鏡見市 for 灯見市 0.67), or "em", exact
    // match (1 or 0). docs/results.md compares the two.
    std::string value = "f1";
};

struct SearchRecord {
    std::string questionId;
    std::string question;
    std::string goldAnswer;
    std::vector<std::string> goldPassages;
    int hops = 0;
    SearchParams params;
    SearchTree tree;                  // after the last iteration
    std::vector<Iteration> iterations;

    // The tree as it stood after iteration i (0: before the first; nodes keep their ids).
    // Throws std::out_of_range for i outside 0 … iterations.size().
    SearchTree treeAt(int i) const;
    // The most visited path's last node's answer ("" when it is not terminal) and its value.
    const Node *bestTerminal() const;
    // The largest terminal value the search found (0 when none): an upper bound, since the
    // values use the gold answer.
    double bestFoundValue() const;
    // The best score among the answers the search reached (its terminal nodes' and its
    // simulations'), `score` saying how good one is (the task's F1 against the gold:
    // bestFoundValue() under the "f1" value, and still the F1 when the search valued
    // exact matches).
    double bestFoundScore(const std::function<double(const std::string &answer)> &score) const;
    int maxDepth() const;
};

// The parameters as JSON ({"simulations", "expansions", "max_depth", "c_puct", "gamma",
// "temperature", "max_step_tokens", "top_k", "seed"}): the record's "params", the store's
// params_json and a run's config.
nlohmann::ordered_json toJson(const SearchParams &params);

// A line of a run's tree list: what the list shows and sorts by.
struct TreeSummary {
    int64_t treeId = 0;       // the store's id (0 for a record read from a file)
    std::string questionId;
    std::string question;
    std::string goldAnswer;
    int hops = 0;
    std::string bestAnswer;   // the most visited path's answer ("" when it ends before an answer)
    double bestValue = 0;     // its value (answer F1 × the format check); 0 when no answer
    double foundValue = 0;    // bestFoundValue()
    int nodes = 0;
    int depth = 0;            // maxDepth()
    int iterations = 0;
    bool complete = false;    // every simulation of params.simulations ran
};
TreeSummary summarize(const SearchRecord &record, int64_t treeId = 0);

// The record as JSON: {"format": "rwb-mcts-record", "version": 1, "question": {id, text,
// answer, gold_passages, hops}, "params": {…}, "iterations": [{index, selected, expanded,
// created, backed_up, value, terminal_depth, simulation, simulation_answer, seconds}],
// "mcts_tree": the ProRAG-shaped nested tree (treejson.h) with our fields}.
nlohmann::ordered_json toRecordJson(const SearchRecord &record);
// Throws data::InputException naming `source` and the JSON path of the first problem.
// A file holding only a ProRAG tree (a nested node) is read as a record without a
// question or iterations.
SearchRecord fromRecordJson(const nlohmann::json &root, const std::string &source);

// Reads a record file (one JSON document). Throws data::InputException naming the file
// (and the line and column of a JSON syntax error).
SearchRecord readRecordFile(const std::string &path);

// How deep a tree file's JSON may nest: each step of the tree is two levels (its node and
// its children), so 256 takes trees of up to 126 steps, twice the deepest a search makes
// (max_depth ≤ 64). A deeper file is refused while it is read (util/boundedjson.h).
inline constexpr int kMaxTreeFileDepth = 256;

} // namespace rwb::mcts
