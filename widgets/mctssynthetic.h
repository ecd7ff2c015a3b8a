#pragma once

#include "mcts/searchrecord.h"

#include <cstdint>

namespace rwb::widgets {

// A made-up search of about `nodes` nodes for the tree viewer's benchmark and tests: real
// PUCT selection, K = 5 children per expansion with random priors, English step texts in
// the multi-hop format (sub-query, retrieved passages "[kb-…] text" one per line,
// sub-answer; a final step with an answer more likely deeper down), answers that are the
// gold year more often in branches whose quality (drifting down each branch) is high,
// valued by their answer F1 against the gold as the search values them, and an
// iteration log that SearchRecord::treeAt replays to the same final tree. Stops at `nodes` nodes (the
// last expansion may add fewer children) or after 20 · nodes iterations. Deterministic
// for (nodes, seed).
mcts::SearchRecord syntheticSearchRecord(int nodes, uint64_t seed = 1);

} // namespace rwb::widgets
