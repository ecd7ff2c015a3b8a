#pragma once

#include "mcts/searchrecord.h"
#include "prm/preference.h"
#include "store/storetypes.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rwb::store {

// The SQLite run store: one file holds any number of runs (SFT, GRPO, evaluation) with
// their configs, reward-config versions, per-step metrics, every rollout, checkpoints
// and evaluation predictions. docs/store.md documents the schema and its views.
//
// Guarantees
// - WAL mode, synchronous=NORMAL: a committed step survives the process being killed at
//   any moment (a power cut may lose the last few commits, never corrupt the file).
// - writeStep() writes a step's metrics, prompts and rollouts in ONE transaction, so
//   killing the writer loses at most the step in flight: a step is all there or absent.
// - Readers (OpenMode::ReadOnly, e.g. the GUI) never block the writer and are never
//   blocked by it; they see the last committed step.
// - Full-text search is off the writer's path: writeStep() indexes nothing. A search
//   (rollouts() with completionMatch / promptMatch) still sees every committed rollout:
//   the rows not yet in the file's index are indexed on the spot (see indexPending()).
//
// Threads: a RunStore is one SQLite connection; use it from one thread at a time. Open
// one RunStore per thread (the trainer writes through one, the GUI reads through
// another). Every failure throws StoreError (the file path plus SQLite's message); the
// store is left as it was before the failed call.
class RunStore {
public:
    enum class OpenMode {
        ReadWrite, // creates the file and the schema when needed
        ReadOnly,  // the file must exist; queries only
    };

    // Opens `path`. Throws StoreError when it cannot be opened, is not a run store, or was
    // written by a newer version (its PRAGMA user_version > Schema::kVersion).
    explicit RunStore(const std::string &path, OpenMode mode = OpenMode::ReadWrite);
    ~RunStore();
    RunStore(const RunStore &) = delete;
    RunStore &operator=(const RunStore &) = delete;

    const std::string &path() const;
    bool readOnly() const;
    // The file's schema version (PRAGMA user_version).
    int schemaVersion() const;

    // ---- writing (ReadWrite only; each call is one transaction) ----

    // A new run with status "running" of the task named `task`; returns its id.
    int64_t beginRun(const std::string &name, RunKind kind, const std::string &configJson,
                     const std::string &task);
    // One step: its metrics, the prompts first seen in it (a prompt already stored for the
    // run is kept as it was), and its rollouts. All or nothing. Throws StoreError for a
    // rollout whose prompt id is unknown, a step written twice, or a SQLite failure.
    void writeStep(int64_t runId, int64_t step, const std::vector<Metric> &metrics,
                   const std::vector<Rollout> &rollouts, const std::vector<Prompt> &prompts = {});
    // The reward config that takes effect at `step` (replaces one recorded for the same step).
    void recordRewardConfig(int64_t runId, int64_t step, const std::string &configJson);
    void addCheckpoint(int64_t runId, int64_t step, const std::string &path);
    // Predictions of the model saved at `checkpointStep`, in one transaction.
    void writeEvalPredictions(int64_t runId, int64_t checkpointStep, const std::vector<EvalPrediction> &predictions);
    // Also brings the file's search index up to date (indexPending(); if that fails the
    // run is finished all the same and searches index the rest themselves).
    // Writes one question's search tree of an MCTS run: its nodes and iteration log
    // (schema 6). treeId 0 adds a tree and returns its id; another id replaces that tree's
    // rows in one transaction (a search in progress writes its tree as it grows, and a
    // reader follows it). Throws StoreError for a read-only store or a file before 6.
    int64_t writeMctsTree(int64_t runId, const mcts::SearchRecord &record, int64_t treeId = 0);
    // The trees of a run, in the order written (none before schema 6).
    std::vector<mcts::TreeSummary> mctsTrees(int64_t runId) const;
    // One tree with its nodes and iterations. Throws StoreError for an unknown id.
    mcts::SearchRecord mctsTree(int64_t treeId) const;

    // ---- preference pairs for the process reward model (schema 7; prm/preference.h) ----
    // Adds pairs to their sets (each pair's `set`) in one transaction. A pair its set
    // already holds (the same question, history and two steps, in either order) is not
    // added again: it gets the stored pair's id and, when the stored pair has the steps
    // the other way round, its order (A and B swapped, with their values, visits and
    // nodes; a caller holding a label of the pair as it was must flip it). Returns how
    // many were added.
    // Throws StoreError for a read-only store or a file before 7.
    size_t addPairs(std::vector<prm::StepPair> &pairs);
    // Writes labels in one transaction, each replacing the label its source and annotator
    // gave the same pair (a person changing their mind keeps one label). Sets each
    // label's id. Throws StoreError for an unknown pair.
    void setLabels(std::vector<prm::Label> &labels);
    // Removes a source and annotator's label of a pair (undo); false when there was none.
    bool removeLabel(int64_t pairId, prm::Source source, const std::string &annotator);
    // Deletes a set's pairs and their labels.
    void deletePairSet(const std::string &set);
    void finishRun(int64_t runId, RunStatus status, const std::string &message = {});
    // Gives a run another name (any non-blank text, kept as given). Throws StoreError for a
    // blank name or no such run.
    void renameRun(int64_t runId, const std::string &name);
    // Replaces a run's tags (schema 9; opening a file read-write upgrades it). Each tag is
    // trimmed of ASCII blanks; duplicates count once. Throws StoreError, changing nothing,
    // for a tag that is blank or holds a comma or a control character, or no such run.
    void setRunTags(int64_t runId, const std::vector<std::string> &tags);
    // A run whose status is "running" but that has written nothing for this long (seconds)
    // counts as stale: its process was most likely killed (a run whose process dies stays
    // "running"), and deleteRun() takes it. A live trainer writes each step, a search its
    // tree every few iterations, far more often.
    static constexpr int64_t kStaleRunSeconds = 3600;
    // Deletes a run and everything that refers to it: its steps, metrics, prompts,
    // rollouts (and their search-index entries), reward configs, checkpoint rows (not the
    // folders on disk), evaluation predictions, judge decisions, search trees with their
    // nodes and iterations, and tags; its id is never given again (deleted_runs).
    // Preference pairs made from its trees stay, without their tree (labels are people's
    // work). Throws StoreError, deleting nothing, for no such run, or a run whose status
    // is "running" that wrote within the last `staleAfterSeconds` (0: any running run may
    // go). Rollouts and prompts go first, kDeleteBatch rows per transaction, then the rest
    // in one: a trainer writing another run of the file waits for one batch at a time. A
    // delete stopped halfway leaves the run with fewer rows; deleting again finishes it.
    void deleteRun(int64_t runId, int64_t staleAfterSeconds = kStaleRunSeconds);
    static constexpr int kDeleteBatch = 2000;
    // Resuming from the checkpoint of `step`: deletes what the run wrote after it (steps,
    // metrics, rollouts, reward configs, checkpoints, evaluations) and marks it running.
    void discardAfter(int64_t runId, int64_t step);

    // ---- the search index (filled lazily, never by writeStep) ----

    // Indexes up to `maxRows` committed prompts and rollouts that the file's full-text
    // index lacks (< 0: all of them) and returns how many. Batches of a few thousand
    // rows, each one short write transaction: a trainer writing the same file waits at
    // most one batch, and killing the process at any moment leaves the index consistent.
    // finishRun() calls it; call it between steps, or from a second read-write RunStore,
    // to keep searches on a long run quick. ReadWrite only.
    int64_t indexPending(int64_t maxRows = -1);
    // Committed prompts and rollouts not in the file's index yet.
    int64_t pendingIndexRows() const;

    // ---- reading (either mode) ----
    // The pair sets, by name, with how many pairs and labels each holds (none before 7).
    struct PairSetInfo {
        std::string name;
        int64_t pairs = 0;
        int64_t labels = 0;
    };
    std::vector<PairSetInfo> pairSets() const;
    // A set's pairs in id order ("" for every set's).
    std::vector<prm::StepPair> pairs(const std::string &set) const;
    // A set's labels (every source's), by pair, then source and annotator ("" every set's).
    std::vector<prm::Label> labels(const std::string &set) const;

    std::vector<RunInfo> runs() const;
    // Throws StoreError when there is no such run.
    RunInfo run(int64_t runId) const;
    // Row counts of what a run holds and how long ago it last wrote (RunContents). Throws
    // StoreError when there is no such run.
    RunContents runContents(int64_t runId) const;
    // The newest run of `kind` (the largest id), 0 when the store has none.
    int64_t lastRun(RunKind kind) const;
    // Ordered by step, then name. `name` "" = every metric; steps after `afterStep` only
    // (what a follower of a live run has not read yet).
    std::vector<MetricPoint> metrics(int64_t runId, const std::string &name = {}, int64_t afterStep = -1) const;
    std::vector<std::string> metricNames(int64_t runId) const;
    std::vector<RewardConfigVersion> rewardConfigs(int64_t runId) const;
    std::vector<Checkpoint> checkpoints(int64_t runId) const;
    // `checkpointStep` < 0: every checkpoint. Ordered by checkpoint, then example id.
    std::vector<StoredEvalPrediction> evalPredictions(int64_t runId, int64_t checkpointStep = -1) const;
    // The judge decisions of a run matching `filter`, in the order they were written (a
    // file before schema 5 has none). Throws StoreError for a SQLite failure.
    std::vector<StoredJudgeDecision> judgeDecisions(int64_t runId, const JudgeDecisionFilter &filter = {}) const;
    // The decisions of a run with id > afterId (training and evaluation alike), in id
    // order, at most `limit`, as the judge view lists them. Throws StoreError.
    // `keepGoing` (optional) is asked before each row; false ends the list there (a reader
    // on another thread that was cancelled).
    std::vector<JudgeDecisionListing> judgeDecisionListing(int64_t runId, int64_t afterId, int limit,
                                                           const std::function<bool()> &keepGoing = {}) const;
    // The first step the run wrote (its `steps` rows); -1 when none.
    int64_t firstStep(int64_t runId) const;
    // The stored example a rollout answered (its prompt's meta_json); "" when none.
    std::string rolloutPromptMeta(int64_t rolloutId) const;
    // Rollouts matching `filter` (of its run, or of every run with filter.allRuns: a
    // search across runs, each row naming its run) with id > afterId, in id order, at
    // most `limit`; a caller keeps a search across a big store bounded with it. Token
    // arrays are left empty (use rollout(id)). Throws StoreError for a bad FTS query or
    // a component name containing '"'.
    // A text filter (completionMatch / promptMatch) sees every committed row. On a
    // ReadWrite store the search first runs indexPending() for the tables it matches; on a
    // ReadOnly one it never writes the file: rows the file's index lacks go into a
    // private index of this connection (built on the first search, extended with the rows
    // committed since on later ones), so the first search after a long unindexed run
    // takes time in proportion to it (about 10 µs a rollout).
    RolloutPage rollouts(const RolloutFilter &filter, int64_t afterId = 0, int limit = 1000) const;
    // Every rollout of one step, in (group, sample) order, without token arrays.
    std::vector<StoredRollout> stepRollouts(int64_t runId, int64_t step) const;
    // One rollout with its token arrays decoded; throws StoreError when there is none.
    StoredRollout rollout(int64_t rolloutId) const;

    // Runs one SQL statement and calls `row` for each result row (return false to stop).
    // On a ReadOnly store nothing can be written. Throws StoreError for bad SQL.
    using RowCallback = std::function<bool(const std::vector<std::string> &columns, const std::vector<SqlValue> &values)>;
    void query(const std::string &sql, const RowCallback &row) const;
    // PRAGMA integrity_check: "ok" or SQLite's list of problems.
    std::string integrityCheck() const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace rwb::store
