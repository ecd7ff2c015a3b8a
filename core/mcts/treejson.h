#pragma once

// Search trees as JSON in the shape ProRAG's code writes (lilinwz/ProRAG,
// prorag/prm/mcts.py; docs: ../shared/notes/formats-and-protocols.md §6): a nested node
// {"action", "q", "n", "prior", "depth", "children": [...]}, where "q" is the SUM of the
// values backed up through the node (their PUCT divides it by n), "n" the visits and
// "action" the step text ("" at the root). We add "terminal", "value" (the terminal's
// answer value), "iteration" (when the node was created), "id", "tokens" and "log_prob"
// (the policy's tokens of the step and their summed log-probability), "retrieved" (the
// passage ids) and "answer" (a terminal's parsed answer), which ProRAG's reader ignores;
// reading accepts files without them. docs/mcts.md.

#include "mcts/searchtree.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace rwb::mcts {

nlohmann::ordered_json toProragJson(const SearchTree &tree);

// Reads a nested node. Throws data::InputException naming `source` and the JSON path of
// the first problem ("mcts_tree.children[2].n: expected a whole number ≥ 0, found -1").
SearchTree fromProragJson(const nlohmann::json &root, const std::string &source,
                          const std::string &path = "mcts_tree");

} // namespace rwb::mcts
