#include "store/schema.h"

#include <string>

namespace rwb::store {

namespace {

// The triggers that keep the lazily filled search indexes right when indexed rows are
// deleted or changed (version 2). A row above indexed_id is not in the index and must
// not be "deleted" from it (FTS5 would corrupt its index). A delete also lowers
// indexed_id to the highest id left, so that ids SQLite hands out again after the
// table's last rows went are indexed when they come back.
std::string triggerSql(const char *table, const char *column)
{
    const std::string t = table, c = column, fts = t + "_fts";
    const std::string indexed = " FROM search_progress WHERE name = '" + t + "' AND ";
    return "CREATE TRIGGER " + fts + "_delete AFTER DELETE ON " + t + " BEGIN\n"
           "  INSERT INTO " + fts + "(" + fts + ", rowid, " + c + ") SELECT 'delete', old.id, old." + c + indexed +
           "old.id <= indexed_id;\n"
           "  UPDATE search_progress SET generation = generation + 1,\n"
           "    indexed_id = min(indexed_id, (SELECT coalesce(max(id), 0) FROM " + t + ")) WHERE name = '" + t + "';\n"
           "END;\n"
           "CREATE TRIGGER " + fts + "_update AFTER UPDATE OF id, " + c + " ON " + t + " BEGIN\n"
           "  INSERT INTO " + fts + "(" + fts + ", rowid, " + c + ") SELECT 'delete', old.id, old." + c + indexed +
           "old.id <= indexed_id;\n"
           "  INSERT INTO " + fts + "(rowid, " + c + ") SELECT new.id, new." + c + indexed + "new.id <= indexed_id;\n"
           "  UPDATE search_progress SET generation = generation + 1 WHERE name = '" + t + "';\n"
           "END;\n";
}

std::string rolloutsSql(const char *name)
{
    return std::string("CREATE TABLE ") + name + R"SQL((
  id                INTEGER PRIMARY KEY,
  run_id            INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step              INTEGER NOT NULL,
  prompt            INTEGER NOT NULL REFERENCES prompts(id) ON DELETE CASCADE,
  group_index       INTEGER NOT NULL,
  sample_index      INTEGER NOT NULL,
  completion        TEXT NOT NULL,
  answer            TEXT NOT NULL DEFAULT '',
  token_ids         BLOB NOT NULL DEFAULT x'',
  logprobs_old      BLOB NOT NULL DEFAULT x'',
  logprobs_new      BLOB NOT NULL DEFAULT x'',
  logprobs_ref      BLOB NOT NULL DEFAULT x'',
  token_advantages  BLOB NOT NULL DEFAULT x'',
  entropies         BLOB NOT NULL DEFAULT x'',
  reward            REAL,
  rewards_json      TEXT NOT NULL DEFAULT '{}',
  advantage         REAL NOT NULL,
  completion_tokens INTEGER NOT NULL,
  truncated         INTEGER NOT NULL CHECK (truncated IN (0,1)),
  details_json      TEXT NOT NULL DEFAULT '{}'
);
)SQL";
}

// The columns of rollouts, in their version-5 order (older files appended some).
constexpr const char *kRolloutColumns =
    "id, run_id, step, prompt, group_index, sample_index, completion, answer, token_ids, logprobs_old, "
    "logprobs_new, logprobs_ref, token_advantages, entropies, reward, rewards_json, advantage, completion_tokens, "
    "truncated, details_json";

constexpr const char *kRolloutIndexes = R"SQL(
CREATE INDEX rollouts_by_step ON rollouts(run_id, step);
CREATE INDEX rollouts_by_prompt ON rollouts(prompt);
)SQL";

// Version 5: every judge call with the rollout (or evaluation prediction) it judged.
constexpr const char *kJudgeSql = R"SQL(
CREATE TABLE judge_decisions(
  id                INTEGER PRIMARY KEY,
  run_id            INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step              INTEGER NOT NULL,
  rollout_id        INTEGER REFERENCES rollouts(id) ON DELETE CASCADE,
  example_id        TEXT NOT NULL DEFAULT '',
  reward            TEXT NOT NULL,
  part              TEXT NOT NULL DEFAULT '',
  backend           TEXT NOT NULL DEFAULT '',
  request           TEXT NOT NULL,
  reply             TEXT NOT NULL DEFAULT '',
  verdict           TEXT NOT NULL DEFAULT '',
  error             TEXT NOT NULL DEFAULT '',
  value             REAL,
  latency           REAL NOT NULL DEFAULT 0,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  cost              REAL NOT NULL DEFAULT 0,
  cache_hit         INTEGER NOT NULL DEFAULT 0 CHECK (cache_hit IN (0,1)),
  attempts          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX judge_decisions_by_rollout ON judge_decisions(rollout_id);
CREATE INDEX judge_decisions_by_step ON judge_decisions(run_id, step);
)SQL";

// The runs table (rebuilt by the upgrades to 6, whose kinds gained 'mcts', and to 8,
// 'external').
std::string runsSql(const char *name)
{
    return std::string("CREATE TABLE ") + name + R"SQL((
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  kind        TEXT NOT NULL CHECK (kind IN ('sft','grpo','eval','mcts','external')),
  config_json TEXT NOT NULL DEFAULT '{}',
  status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running','finished','failed','stopped')),
  message     TEXT NOT NULL DEFAULT '',
  finished    TEXT,
  task        TEXT NOT NULL DEFAULT 'company_extraction'
);
)SQL";
}

// Version 6: MCTS searches (runs of kind 'mcts'): one row per question's tree, its nodes
// and its iteration log, so that any iteration can be replayed (mcts/searchrecord.h).
constexpr const char *kMctsSql = R"SQL(
CREATE TABLE mcts_trees(
  id            INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  question_id   TEXT NOT NULL,
  question      TEXT NOT NULL,
  gold          TEXT NOT NULL,
  gold_passages TEXT NOT NULL DEFAULT '[]',
  hops          INTEGER NOT NULL DEFAULT 0,
  params_json   TEXT NOT NULL DEFAULT '{}',
  iterations    INTEGER NOT NULL DEFAULT 0,
  nodes         INTEGER NOT NULL DEFAULT 0,
  depth         INTEGER NOT NULL DEFAULT 0,
  best_answer   TEXT NOT NULL DEFAULT '',
  best_value    REAL NOT NULL DEFAULT 0,
  found_value   REAL NOT NULL DEFAULT 0,
  complete      INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0,1)),
  updated       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
CREATE INDEX mcts_trees_by_run ON mcts_trees(run_id);
CREATE TABLE mcts_nodes(
  tree_id        INTEGER NOT NULL REFERENCES mcts_trees(id) ON DELETE CASCADE,
  node           INTEGER NOT NULL,
  parent         INTEGER NOT NULL,
  depth          INTEGER NOT NULL,
  action         TEXT NOT NULL,
  tokens         INTEGER NOT NULL DEFAULT 0,
  log_prob       REAL NOT NULL DEFAULT 0,
  retrieved_json TEXT NOT NULL DEFAULT '[]',
  prior          REAL NOT NULL,
  visits         INTEGER NOT NULL,
  value_sum      REAL NOT NULL,
  terminal       INTEGER NOT NULL CHECK (terminal IN (0,1)),
  terminal_value REAL NOT NULL DEFAULT 0,
  answer         TEXT NOT NULL DEFAULT '',
  iteration      INTEGER NOT NULL,
  PRIMARY KEY (tree_id, node)
) WITHOUT ROWID;
CREATE TABLE mcts_iterations(
  tree_id           INTEGER NOT NULL REFERENCES mcts_trees(id) ON DELETE CASCADE,
  iteration         INTEGER NOT NULL,
  selected_json     TEXT NOT NULL,
  expanded          INTEGER NOT NULL,
  created_json      TEXT NOT NULL,
  backed_up_json    TEXT NOT NULL,
  value             REAL NOT NULL,
  terminal_depth    INTEGER NOT NULL,
  simulation        TEXT NOT NULL DEFAULT '',
  simulation_answer TEXT NOT NULL DEFAULT '',
  seconds           REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (tree_id, iteration)
) WITHOUT ROWID;
)SQL";

// Version 7: preference pairs of sibling steps for the process reward model and their
// labels, each label with its source and annotator (prm/preference.h). A pair outlives
// its tree (tree_id becomes NULL when the tree's run is deleted): labels are people's work.
constexpr const char *kPrmSql = R"SQL(
CREATE TABLE prm_pairs(
  id           INTEGER PRIMARY KEY,
  pair_set     TEXT NOT NULL,
  tree_id      INTEGER REFERENCES mcts_trees(id) ON DELETE SET NULL,
  question_id  TEXT NOT NULL,
  question     TEXT NOT NULL,
  gold         TEXT NOT NULL DEFAULT '',
  history_json TEXT NOT NULL DEFAULT '[]',
  parent_node  INTEGER NOT NULL DEFAULT -1,
  node_a       INTEGER NOT NULL DEFAULT -1,
  node_b       INTEGER NOT NULL DEFAULT -1,
  step_a       TEXT NOT NULL,
  step_b       TEXT NOT NULL,
  value_a      REAL NOT NULL DEFAULT 0,
  value_b      REAL NOT NULL DEFAULT 0,
  visits_a     INTEGER NOT NULL DEFAULT 0,
  visits_b     INTEGER NOT NULL DEFAULT 0,
  origin       TEXT NOT NULL CHECK (origin IN ('tree','manual','import')),
  created      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
CREATE INDEX prm_pairs_by_set ON prm_pairs(pair_set, id);
CREATE UNIQUE INDEX prm_pairs_unique ON prm_pairs(pair_set, question_id, min(step_a, step_b), max(step_a, step_b), history_json);
CREATE TABLE prm_labels(
  id         INTEGER PRIMARY KEY,
  pair_id    INTEGER NOT NULL REFERENCES prm_pairs(id) ON DELETE CASCADE,
  source     TEXT NOT NULL CHECK (source IN ('tree','judge','human','import')),
  annotator  TEXT NOT NULL,
  choice     TEXT NOT NULL CHECK (choice IN ('a','b','tie','skip')),
  reason     TEXT NOT NULL DEFAULT '',
  created    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  UNIQUE (pair_id, source, annotator)
);
CREATE VIEW v_prm_pairs AS
  SELECT p.id AS pair_id, p.pair_set, p.tree_id, t.run_id, p.question_id, p.question, p.gold, p.history_json,
         p.parent_node, p.node_a, p.node_b, p.step_a, p.step_b, p.value_a, p.value_b, p.visits_a, p.visits_b,
         p.origin, p.created
  FROM prm_pairs p LEFT JOIN mcts_trees t ON t.id = p.tree_id;
CREATE VIEW v_prm_labels AS
  SELECT l.id AS label_id, l.pair_id, p.pair_set, p.question_id, l.source, l.annotator, l.choice, l.reason, l.created
  FROM prm_labels l JOIN prm_pairs p ON p.id = l.pair_id;
)SQL";

// Version 9: a run's tags (labels a person gives runs to find and group them), one row
// per tag; they go with their run. And the ids of deleted runs, never given again.
constexpr const char *kRunTagsSql = R"SQL(
CREATE TABLE run_tags(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tag    TEXT NOT NULL,
  PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
-- The ids of deleted runs (version 9): a new run's id is above every id ever given, so a
-- checkpoint, a link or a window that names a deleted run never reaches another one.
CREATE TABLE deleted_runs(
  id      INTEGER PRIMARY KEY,
  deleted TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
)SQL";

// v_runs (its tags appended in version 9: a JSON array, in the key's order, alphabetical).
constexpr const char *kRunsViewSql = R"SQL(
CREATE VIEW v_runs AS
  SELECT r.id AS run_id, r.name, r.created, r.kind, r.status, r.message, r.finished, r.config_json,
         (SELECT count(*) FROM steps s WHERE s.run_id = r.id) AS steps,
         (SELECT max(step) FROM steps s WHERE s.run_id = r.id) AS last_step,
         r.task,
         (SELECT json_group_array(t.tag) FROM run_tags t WHERE t.run_id = r.id) AS tags
  FROM runs r;
)SQL";

// The stable views for other tools (version 4): columns are only ever appended.
std::string viewsSql()
{
    return std::string(kRunsViewSql) + R"SQL(
CREATE VIEW v_metrics AS
  SELECT run_id, step, name, value FROM metrics;

CREATE VIEW v_rollouts AS
  SELECT r.run_id, r.step, p.prompt_id, r.sample_index, p.text AS prompt, r.completion, r.answer, p.gold,
         r.reward, r.rewards_json, r.advantage, r.completion_tokens, r.truncated,
         r.id AS rollout_id, r.group_index, r.details_json
  FROM rollouts r JOIN prompts p ON p.id = r.prompt;

CREATE VIEW v_reward_configs AS
  SELECT run_id, step, config_json FROM reward_configs;

CREATE VIEW v_eval_predictions AS
  SELECT run_id, checkpoint_step, example_id, prediction, gold, correct, rewards_json, details_json
  FROM eval_predictions;

CREATE VIEW v_judge_decisions AS
  SELECT id AS decision_id, run_id, step, rollout_id, example_id, reward, part, backend, request, reply, verdict,
         error, value, latency, prompt_tokens, completion_tokens, cost, cache_hit, attempts
  FROM judge_decisions;

CREATE VIEW v_mcts_trees AS
  SELECT id AS tree_id, run_id, question_id, question, gold, hops, iterations, nodes, depth, best_answer,
         best_value, found_value, complete
  FROM mcts_trees;

CREATE VIEW v_mcts_nodes AS
  SELECT n.tree_id, t.run_id, t.question_id, n.node, n.parent, n.depth, n.action, n.prior, n.visits,
         n.value_sum, CASE WHEN n.visits > 0 THEN n.value_sum / n.visits ELSE 0 END AS q, n.terminal,
         n.terminal_value, n.answer, n.iteration, n.tokens, n.log_prob, n.retrieved_json
  FROM mcts_nodes n JOIN mcts_trees t ON t.id = n.tree_id;
)SQL";
}

} // namespace

const std::string &Schema::createSql()
{
    static const std::string sql = [] {
        std::string s = R"SQL(
@RUNS@

-- One row per committed writeStep: the marker that a step is complete.
CREATE TABLE steps(
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step    INTEGER NOT NULL,
  written TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

CREATE TABLE reward_configs(
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step        INTEGER NOT NULL,
  config_json TEXT NOT NULL,
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

-- Long format: one row per (run, step, name). Keyed by step first, so that a step's
-- metrics are neighbours and writing a step touches one or two pages (keyed by name
-- first, each of a step's ~21 names was an insertion point of its own).
CREATE TABLE metrics(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step   INTEGER NOT NULL,
  name   TEXT NOT NULL,
  value  REAL,
  PRIMARY KEY (run_id, step, name)
) WITHOUT ROWID;

CREATE TABLE checkpoints(
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step    INTEGER NOT NULL,
  path    TEXT NOT NULL,
  created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

CREATE TABLE prompts(
  id        INTEGER PRIMARY KEY,
  run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  prompt_id TEXT NOT NULL,
  text      TEXT NOT NULL,
  gold      TEXT NOT NULL DEFAULT '',
  meta_json TEXT NOT NULL DEFAULT '{}',
  UNIQUE (run_id, prompt_id)
);

@ROLLOUTS@
@JUDGE@
CREATE TABLE eval_predictions(
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  checkpoint_step INTEGER NOT NULL,
  example_id      TEXT NOT NULL,
  prediction      TEXT NOT NULL,
  gold            TEXT NOT NULL,
  correct         INTEGER NOT NULL CHECK (correct IN (0,1)),
  rewards_json    TEXT NOT NULL DEFAULT '{}',
  details_json    TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (run_id, checkpoint_step, example_id)
) WITHOUT ROWID;

-- Full-text search (trigram tokenizer: substrings of 3+ characters, any script,
-- case-insensitive). External content: the text lives once, in the tables above.
-- The indexes are filled lazily, off the writer's path (SearchIndex): every row with
-- id <= search_progress.indexed_id is in the index, no row above it. The triggers keep
-- the indexed rows in step with deletes and updates; `generation` counts those changes
-- so that a reader's private index of the rows above indexed_id knows to rebuild.
CREATE TABLE search_progress(
  name       TEXT PRIMARY KEY CHECK (name IN ('prompts','rollouts')),
  indexed_id INTEGER NOT NULL DEFAULT 0,
  generation INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO search_progress(name) VALUES ('prompts'), ('rollouts');

CREATE VIRTUAL TABLE prompts_fts USING fts5(text, content='prompts', content_rowid='id', tokenize='trigram');
CREATE VIRTUAL TABLE rollouts_fts USING fts5(completion, content='rollouts', content_rowid='id', tokenize='trigram');

@TRIGGERS@
@VIEWS@
)SQL";
        const std::string triggers = triggerSql("prompts", "text") + triggerSql("rollouts", "completion");
        s.replace(s.find("@TRIGGERS@"), 10, triggers);
        s.replace(s.find("@VIEWS@"), 7, viewsSql());
        s.replace(s.find("@ROLLOUTS@"), 10, rolloutsSql("rollouts") + kRolloutIndexes);
        s.replace(s.find("@JUDGE@"), 7, std::string(kJudgeSql) + kMctsSql + kPrmSql + kRunTagsSql);
        s.replace(s.find("@RUNS@"), 6, runsSql("runs"));
        return s;
    }();
    return sql;
}

std::string Schema::upgradeSql(int fromVersion)
{
    std::string s;
    if (fromVersion < 2) {
        // 1 → 2: metrics keyed by step first; the search indexes filled lazily instead of
        // by insert triggers (everything written so far is indexed already).
        s += R"SQL(
DROP VIEW v_metrics;
CREATE TABLE metrics_v2(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step   INTEGER NOT NULL,
  name   TEXT NOT NULL,
  value  REAL,
  PRIMARY KEY (run_id, step, name)
) WITHOUT ROWID;
INSERT INTO metrics_v2(run_id, step, name, value) SELECT run_id, step, name, value FROM metrics;
DROP TABLE metrics;
ALTER TABLE metrics_v2 RENAME TO metrics;
CREATE VIEW v_metrics AS
  SELECT run_id, step, name, value FROM metrics;

CREATE TABLE search_progress(
  name       TEXT PRIMARY KEY CHECK (name IN ('prompts','rollouts')),
  indexed_id INTEGER NOT NULL DEFAULT 0,
  generation INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO search_progress(name, indexed_id) VALUES
  ('prompts', (SELECT coalesce(max(id), 0) FROM prompts)),
  ('rollouts', (SELECT coalesce(max(id), 0) FROM rollouts));
DROP TRIGGER prompts_fts_insert;
DROP TRIGGER prompts_fts_delete;
DROP TRIGGER prompts_fts_update;
DROP TRIGGER rollouts_fts_insert;
DROP TRIGGER rollouts_fts_delete;
DROP TRIGGER rollouts_fts_update;
)SQL";
        s += triggerSql("prompts", "text") + triggerSql("rollouts", "completion");
    }
    if (fromVersion < 3) {
        // 2 → 3: per-token entropies of the update's forward pass; older rows have none.
        s += "ALTER TABLE rollouts ADD COLUMN entropies BLOB NOT NULL DEFAULT x'';\n";
    }
    if (fromVersion < 4) {
        // 3 → 4: tasks. Every run so far extracted companies; what a task parses beyond the
        // answer goes to details_json; the views gain the new columns at their ends.
        s += R"SQL(
ALTER TABLE runs ADD COLUMN task TEXT NOT NULL DEFAULT 'company_extraction';
ALTER TABLE rollouts ADD COLUMN details_json TEXT NOT NULL DEFAULT '{}';
ALTER TABLE eval_predictions ADD COLUMN details_json TEXT NOT NULL DEFAULT '{}';
DROP VIEW IF EXISTS v_runs;
DROP VIEW IF EXISTS v_metrics;
DROP VIEW IF EXISTS v_rollouts;
DROP VIEW IF EXISTS v_reward_configs;
DROP VIEW IF EXISTS v_eval_predictions;
)SQL";
        // the views come back at the end of 4 → 5
    }
    if (fromVersion < 5) {
        // 4 → 5: a rollout's reward may be None (NULL: a judge failed); the table is
        // rebuilt because SQLite cannot drop a NOT NULL. Its search triggers and the
        // views that read it go and come back; the rows keep their ids, so the search
        // index stays right. And the judge decisions.
        s += "DROP VIEW IF EXISTS v_rollouts;\n"
             "DROP TRIGGER IF EXISTS rollouts_fts_delete;\n"
             "DROP TRIGGER IF EXISTS rollouts_fts_update;\n";
        s += rolloutsSql("rollouts_v5");
        s += std::string("INSERT INTO rollouts_v5(") + kRolloutColumns + ") SELECT " + kRolloutColumns +
             " FROM rollouts;\nDROP TABLE rollouts;\nALTER TABLE rollouts_v5 RENAME TO rollouts;\n";
        s += kRolloutIndexes;
        s += triggerSql("rollouts", "completion");
        s += kJudgeSql;
    }
    if (fromVersion < 6) {
        // 5 → 6: MCTS runs. runs is rebuilt for its kind CHECK (SQLite cannot alter one);
        // the store turns foreign keys on only after an upgrade, so dropping the old table
        // cascades nowhere, and the rows keep their ids. The views come back last, once,
        // for every older version.
        s += "DROP VIEW IF EXISTS v_runs;\nDROP VIEW IF EXISTS v_metrics;\nDROP VIEW IF EXISTS v_rollouts;\n"
             "DROP VIEW IF EXISTS v_reward_configs;\nDROP VIEW IF EXISTS v_eval_predictions;\n"
             "DROP VIEW IF EXISTS v_judge_decisions;\n";
        s += kMctsSql; // runs is rebuilt once, by 7 → 8
    }
    if (fromVersion < 7) {
        // 6 → 7: preference pairs and their labels (new tables and views only).
        s += kPrmSql;
    }
    if (fromVersion < 8) {
        // 7 → 8: runs of other trainers (kind 'external': rewards served to them, rollouts
        // imported from their dumps). runs is rebuilt for its kind CHECK as 5 → 6 did; the
        // views go first and all come back last.
        s += "DROP VIEW IF EXISTS v_runs;\nDROP VIEW IF EXISTS v_metrics;\nDROP VIEW IF EXISTS v_rollouts;\n"
             "DROP VIEW IF EXISTS v_reward_configs;\nDROP VIEW IF EXISTS v_eval_predictions;\n"
             "DROP VIEW IF EXISTS v_judge_decisions;\nDROP VIEW IF EXISTS v_mcts_trees;\n"
             "DROP VIEW IF EXISTS v_mcts_nodes;\n";
        s += runsSql("runs_v8");
        s += "INSERT INTO runs_v8(id, name, created, kind, config_json, status, message, finished, task) "
             "SELECT id, name, created, kind, config_json, status, message, finished, task FROM runs;\n"
             "DROP TABLE runs;\nALTER TABLE runs_v8 RENAME TO runs;\n";
    }
    if (fromVersion < 9) {
        // 8 → 9: run tags (a new table); v_runs gains `tags`, appended. A file of 8 has
        // every view: only v_runs is made again.
        s += kRunTagsSql;
        if (fromVersion == 8)
            s += std::string("DROP VIEW IF EXISTS v_runs;\n") + kRunsViewSql;
    }
    if (fromVersion < 8)
        s += viewsSql(); // the views older upgrades dropped come back last, once
    return s;
}

} // namespace rwb::store
