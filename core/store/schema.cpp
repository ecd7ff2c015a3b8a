#include "store/schema.h"

namespace rwb::store {

const char *Schema::createSql()
{
    return R"SQL(
CREATE TABLE runs(
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  created     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  kind        TEXT NOT NULL CHECK (kind IN ('sft','grpo','eval')),
  config_json TEXT NOT NULL DEFAULT '{}',
  status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running','finished','failed','stopped')),
  message     TEXT NOT NULL DEFAULT '',
  finished    TEXT
);

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

-- Long format: one row per (run, step, name).
CREATE TABLE metrics(
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step   INTEGER NOT NULL,
  name   TEXT NOT NULL,
  value  REAL,
  PRIMARY KEY (run_id, name, step)
) WITHOUT ROWID;
CREATE INDEX metrics_by_step ON metrics(run_id, step);

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

CREATE TABLE rollouts(
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
  reward            REAL NOT NULL,
  rewards_json      TEXT NOT NULL DEFAULT '{}',
  advantage         REAL NOT NULL,
  completion_tokens INTEGER NOT NULL,
  truncated         INTEGER NOT NULL CHECK (truncated IN (0,1))
);
CREATE INDEX rollouts_by_step ON rollouts(run_id, step);
CREATE INDEX rollouts_by_prompt ON rollouts(prompt);

CREATE TABLE eval_predictions(
  run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  checkpoint_step INTEGER NOT NULL,
  example_id      TEXT NOT NULL,
  prediction      TEXT NOT NULL,
  gold            TEXT NOT NULL,
  correct         INTEGER NOT NULL CHECK (correct IN (0,1)),
  rewards_json    TEXT NOT NULL DEFAULT '{}',
  PRIMARY KEY (run_id, checkpoint_step, example_id)
) WITHOUT ROWID;

-- Full-text search (trigram tokenizer: substrings of 3+ characters, any script,
-- case-insensitive). External content: the text lives once, in the tables above.
CREATE VIRTUAL TABLE prompts_fts USING fts5(text, content='prompts', content_rowid='id', tokenize='trigram');
CREATE VIRTUAL TABLE rollouts_fts USING fts5(completion, content='rollouts', content_rowid='id', tokenize='trigram');

CREATE TRIGGER prompts_fts_insert AFTER INSERT ON prompts BEGIN
  INSERT INTO prompts_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER prompts_fts_delete AFTER DELETE ON prompts BEGIN
  INSERT INTO prompts_fts(prompts_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER prompts_fts_update AFTER UPDATE OF text ON prompts BEGIN
  INSERT INTO prompts_fts(prompts_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO prompts_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER rollouts_fts_insert AFTER INSERT ON rollouts BEGIN
  INSERT INTO rollouts_fts(rowid, completion) VALUES (new.id, new.completion);
END;
CREATE TRIGGER rollouts_fts_delete AFTER DELETE ON rollouts BEGIN
  INSERT INTO rollouts_fts(rollouts_fts, rowid, completion) VALUES ('delete', old.id, old.completion);
END;
CREATE TRIGGER rollouts_fts_update AFTER UPDATE OF completion ON rollouts BEGIN
  INSERT INTO rollouts_fts(rollouts_fts, rowid, completion) VALUES ('delete', old.id, old.completion);
  INSERT INTO rollouts_fts(rowid, completion) VALUES (new.id, new.completion);
END;

-- Stable views for other tools: columns are only ever appended.
CREATE VIEW v_runs AS
  SELECT r.id AS run_id, r.name, r.created, r.kind, r.status, r.message, r.finished, r.config_json,
         (SELECT count(*) FROM steps s WHERE s.run_id = r.id) AS steps,
         (SELECT max(step) FROM steps s WHERE s.run_id = r.id) AS last_step
  FROM runs r;

CREATE VIEW v_metrics AS
  SELECT run_id, step, name, value FROM metrics;

CREATE VIEW v_rollouts AS
  SELECT r.run_id, r.step, p.prompt_id, r.sample_index, p.text AS prompt, r.completion, r.answer, p.gold,
         r.reward, r.rewards_json, r.advantage, r.completion_tokens, r.truncated,
         r.id AS rollout_id, r.group_index
  FROM rollouts r JOIN prompts p ON p.id = r.prompt;

CREATE VIEW v_reward_configs AS
  SELECT run_id, step, config_json FROM reward_configs;

CREATE VIEW v_eval_predictions AS
  SELECT run_id, checkpoint_step, example_id, prediction, gold, correct, rewards_json FROM eval_predictions;
)SQL";
}

} // namespace rwb::store
