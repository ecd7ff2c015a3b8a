#pragma once

#include <string>

namespace rwb::store {

// The run store's schema: tables, indexes, the FTS5 indexes with the triggers that keep
// their indexed rows right, and the stable views. docs/store.md documents every column.
// Bump kVersion for any change a reader could notice, and add an upgrade step for older
// files.
//
// Versions: 1 kept the search indexes up to date with insert triggers and keyed metrics
// by (run, name, step). 2 fills the search indexes lazily (search_progress) and keys
// metrics by (run, step, name). 3 adds rollouts.entropies (per-token entropy). 4 adds tasks:
// runs.task, rollouts.details_json and eval_predictions.details_json, and the views'
// columns for them. 5 lets rollouts.reward be NULL (None: a judge failed) and adds
// judge_decisions and v_judge_decisions. 6 adds MCTS runs (runs.kind 'mcts'), mcts_trees,
// mcts_nodes, mcts_iterations, v_mcts_trees and v_mcts_nodes. 7 adds preference pairs
// for the process reward model: prm_pairs, prm_labels, v_prm_pairs and v_prm_labels. 8 adds
// runs of other trainers (runs.kind 'external'). 9 adds run tags: run_tags and v_runs.tags.
// Readers of this build read all nine (a file read as it is without an upgrade has no
// entropies before 3, before 4 only extraction runs and no details, before 5 no judge
// decisions, and before 9 no tags).
class Schema {
public:
    // PRAGMA user_version of a file written by this build.
    static constexpr int kVersion = 9;
    // The SQL that creates version kVersion in an empty database (one script).
    static const std::string &createSql();
    // The SQL that brings a file of `fromVersion` (1 … kVersion-1) to kVersion; run it in
    // one write transaction. "" when there is nothing to do.
    static std::string upgradeSql(int fromVersion);
};

} // namespace rwb::store
