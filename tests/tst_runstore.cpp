// core/store: the SQLite run store. Values written are read back exactly (doubles
// through SQLite REAL are exact; per-token arrays bit for bit); filter results are
// checked against counts computed here from the same generated data.
#include "store/blobcodec.h"
#include "store/runstore.h"
#include "store/schema.h"
#include "store/storeerror.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <QDateTime>
#include <QTimeZone>

#include <csignal>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

using namespace rwb::store;
namespace judge = rwb::judge;

namespace {

// Group size and groups per step of the generated runs.
constexpr int kGroup = 4;
constexpr int kGroups = 3;
// Tokens per generated completion.
constexpr int kTokens = 12;

Prompt makePrompt(int i)
{
    return {"p" + std::to_string(i),
            "次のメールから送信者の会社名を抽出してください。\n株式会社きらめき商事" + std::to_string(i) + "の山田です。",
            "株式会社きらめき商事", R"({"split":"train"})"};
}

// Rollout `s` of group `g` at `step`: rewards and flags vary so every filter selects a
// known, non-trivial subset.
Rollout makeRollout(int step, int g, int s)
{
    Rollout r;
    r.promptId = "p" + std::to_string(step * kGroups + g);
    r.groupIndex = g;
    r.sampleIndex = s;
    r.completion = s % 2 == 0 ? "<answer>株式会社きらめき商事</answer>" : "<answer>東和物産</answer> sample " + std::to_string(s);
    r.answer = s % 2 == 0 ? "株式会社きらめき商事" : "東和物産";
    for (int t = 0; t < kTokens; ++t) {
        r.tokenIds.push_back(1000 * step + 100 * g + 10 * s + t);
        r.logprobsOld.push_back(-0.1f * static_cast<float>(t + 1) - 1e-7f * static_cast<float>(s));
        r.logprobsNew.push_back(std::nextafter(r.logprobsOld.back(), 0.0f));
        r.logprobsRef.push_back(t == 0 ? -0.0f : (t == 1 ? 1e-42f /* subnormal */ : -3.25f));
        r.advantages.push_back(static_cast<float>(s) / 3.0f - 0.5f);
        r.entropies.push_back(t == 0 ? 0.0f : 0.25f * static_cast<float>(t) + 1e-3f * static_cast<float>(s));
    }
    const double marker = s % 2 == 0 ? 1.0 : 0.25 * s;
    const double partial = 0.1 * (s + 1);
    r.rewardsJson = "{\"partial\":" + std::to_string(partial) + ",\"marker\":" + std::to_string(marker) + "}";
    r.reward = 0.2 * partial + 0.8 * marker;
    r.advantage = s / 3.0 - 0.5;
    r.completionTokens = kTokens;
    r.truncated = s == kGroup - 1;
    return r;
}

std::vector<Metric> makeMetrics(int step)
{
    return {{"reward", 0.5 + step}, {"kl", 1e-3 * step}, {"rewards/marker/mean", 0.25 * step}};
}

// Writes steps [from, to) of a run: prompts, metrics and kGroups × kGroup rollouts each;
// with `completion`, every rollout has that text instead of makeRollout()'s.
void writeSteps(RunStore &store, int64_t run, int from, int to, const char *completion = nullptr)
{
    for (int step = from; step < to; ++step) {
        std::vector<Prompt> prompts;
        std::vector<Rollout> rollouts;
        for (int g = 0; g < kGroups; ++g) {
            prompts.push_back(makePrompt(step * kGroups + g));
            for (int s = 0; s < kGroup; ++s) {
                rollouts.push_back(makeRollout(step, g, s));
                if (completion)
                    rollouts.back().completion = completion;
            }
        }
        store.writeStep(run, step, makeMetrics(step), rollouts, prompts);
    }
}

// Rows of makeRollout()'s steps whose completion names きらめき商事 (the even samples).
constexpr int kKirameki = kGroups * kGroup / 2;
// Rows writeSteps() adds per step: rollouts and prompts.
constexpr int kRowsPerStep = kGroups * kGroup + kGroups;

// How many rollouts of `run` a search finds, over every page.
int searchCount(const RunStore &store, int64_t run, const std::string &completion, const std::string &prompt = {})
{
    RolloutFilter f;
    f.runId = run;
    f.completionMatch = completion;
    f.promptMatch = prompt;
    int n = 0;
    int64_t after = 0;
    for (;;) {
        const RolloutPage page = store.rollouts(f, after, 50);
        n += static_cast<int>(page.rows.size());
        if (!page.more)
            return n;
        after = page.nextAfterId;
    }
}

bool sameBits(const std::vector<float> &a, const std::vector<float> &b)
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * 4) == 0);
}

// Runs SQL on a plain SQLite connection (the "other process").
void rawExec(sqlite3 *db, const char *sql)
{
    char *error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const QString message = QString::fromUtf8(error ? error : "?");
        sqlite3_free(error);
        QFAIL(qPrintable(message));
    }
}

// The schema of version 1 as that release created it (search indexes kept complete by
// insert triggers, metrics keyed by name first), for the upgrade test.
const char *const kSchemaVersion1 = R"SQL(
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

int64_t count(const RunStore &store, const std::string &sql)
{
    int64_t n = -1;
    store.query(sql, [&](const auto &, const std::vector<SqlValue> &v) {
        n = v.at(0).integer;
        return false;
    });
    return n;
}

std::string text(const RunStore &store, const std::string &sql)
{
    std::string t = "(no row)";
    store.query(sql, [&](const auto &, const std::vector<SqlValue> &v) {
        t = v.at(0).type == SqlValue::Type::Null ? "NULL" : v.at(0).bytes;
        return false;
    });
    return t;
}

// v_runs as version 8 made it (before its tags), for the upgrade test.
const char *const kRunsViewVersion8 = R"SQL(
CREATE VIEW v_runs AS
  SELECT r.id AS run_id, r.name, r.created, r.kind, r.status, r.message, r.finished, r.config_json,
         (SELECT count(*) FROM steps s WHERE s.run_id = r.id) AS steps,
         (SELECT max(step) FROM steps s WHERE s.run_id = r.id) AS last_step,
         r.task
  FROM runs r;
)SQL";

// What fillRun() writes for one run, counted by hand: steps 0 and 1 of writeSteps() (3
// prompts, 12 rollouts and 3 metrics each) and step 2 (one rollout of prompt p0, one
// metric); the judge calls of that rollout and of one evaluation prediction.
constexpr int64_t kFilledSteps = 3, kFilledMetrics = 7, kFilledRollouts = 25, kFilledPrompts = 6,
                  kFilledRewardConfigs = 1, kFilledCheckpoints = 1, kFilledPredictions = 2, kFilledDecisions = 2,
                  kFilledTrees = 1, kFilledNodes = 2, kFilledIterations = 1, kFilledTags = 2;

// Everything a run can hold: the rows counted above, a search tree (2 nodes, 1 iteration)
// with a preference pair made from it, and two tags. Every rollout's text is `completion`.
void fillRun(RunStore &store, int64_t run, const char *completion)
{
    writeSteps(store, run, 0, 2, completion);
    judge::Decision decision;
    decision.reward = "coverage";
    decision.request = R"({"messages":[]})";
    decision.value = 1.0;
    Rollout judged = makeRollout(2, 0, 0);
    judged.promptId = "p0";
    judged.completion = completion;
    judged.judgeDecisions = {decision};
    store.writeStep(run, 2, {{"reward", 1.0}}, {judged});
    store.recordRewardConfig(run, 0, R"({"components":{"marker":1}})");
    store.addCheckpoint(run, 2, "/tmp/checkpoint-" + std::to_string(run));
    EvalPrediction right{"e1", "きらめき商事", "きらめき商事", true};
    right.judgeDecisions = {decision};
    store.writeEvalPredictions(run, 2, {right, EvalPrediction{"e2", "東和物産", "きらめき商事", false}});
    const std::string id = std::to_string(run);
    const auto exec = [&](const std::string &sql) { store.query(sql, [](auto &, auto &) { return true; }); };
    exec("INSERT INTO mcts_trees(run_id, question_id, question, gold) VALUES (" + id + ", 'q" + id + "', 'Q', 'G')");
    const std::string tree = std::to_string(count(store, "SELECT max(id) FROM mcts_trees"));
    exec("INSERT INTO mcts_nodes(tree_id, node, parent, depth, action, prior, visits, value_sum, terminal, iteration) "
         "VALUES (" + tree + ", 0, -1, 0, '', 1, 1, 0.5, 0, 0), (" + tree + ", 1, 0, 1, 'step', 0.5, 1, 0.5, 1, 1)");
    exec("INSERT INTO mcts_iterations(tree_id, iteration, selected_json, expanded, created_json, backed_up_json, "
         "value, terminal_depth) VALUES (" + tree + ", 1, '[0]', 0, '[1]', '[1,0]', 0.5, 1)");
    rwb::prm::StepPair pair;
    pair.set = "pairs of run " + id;
    pair.treeId = std::stoll(tree);
    pair.questionId = "q" + id;
    pair.question = "Q";
    pair.stepA = "a";
    pair.stepB = "b";
    std::vector<rwb::prm::StepPair> pairs{pair};
    store.addPairs(pairs);
    store.setRunTags(run, {"baseline", "run " + id});
}

} // namespace

class TestRunStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void blobCodec();
    void roundTripViews();
    void judgeDecisionsAndNoneRewards();
    void roundTripApi();
    void paging();
    void filters_data();
    void filters();
    void fullTextJapanese();
    void searchAcrossRuns();
    void readerNeverBlocks();
    void stepIsAtomic();
    void schemaVersion();
    void badFiles();
    void crashLosesAtMostOneStep();
    void promptsOfADeletedRun();
    void searchIsCompleteWithoutIndexing();
    void searchAfterDeletes();
    void searchAfterResume();
    void upgradeFromOlderVersions_data();
    void upgradeFromOlderVersions();
    void renameAndTags();
    void deleteRun();
    void deleteRunningRun();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string file(const char *name) const { return m_dir->filePath(name).toStdString(); }
};

void TestRunStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestRunStore::blobCodec()
{
    const std::vector<float> f{0.0f, -0.0f, 1.5f, -3.25e-38f, std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(), 1e-45f};
    const std::string bytes = BlobCodec::encode(f);
    QCOMPARE(bytes.size(), f.size() * 4);
    // 1.5f is 0x3FC00000: little-endian bytes 00 00 C0 3F.
    QCOMPARE(static_cast<unsigned char>(bytes[8 + 2]), 0xC0u);
    QCOMPARE(static_cast<unsigned char>(bytes[8 + 3]), 0x3Fu);
    QVERIFY(sameBits(BlobCodec::decodeFloats(bytes), f));
    const std::vector<int32_t> ids{0, 1, -1, 151643, std::numeric_limits<int32_t>::min()};
    QVERIFY(BlobCodec::decodeInts(BlobCodec::encode(ids)) == ids);
    QCOMPARE(static_cast<unsigned char>(BlobCodec::encode(ids)[4]), 1u);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BlobCodec::decodeFloats("abc"));
}

// Schema 5: a None reward (NaN) is stored as NULL and read back as NaN; judge decisions go
// with their rollout (deleted with it), and with evaluation predictions (replaced with them).
void TestRunStore::judgeDecisionsAndNoneRewards()
{
    const std::string path = file("judge.sqlite");
    RunStore store(path);
    const int64_t run = store.beginRun("judged", RunKind::Grpo, "{}", "legal_qa");
    judge::Decision ok;
    ok.reward = "coverage";
    ok.backend = "http http://127.0.0.1:8000/v1/chat/completions";
    ok.request = R"({"messages":[]})";
    ok.reply = R"({"coverage": {"score": "full-coverage"}})";
    ok.verdict = R"({"coverage":1})";
    ok.value = 1.0;
    ok.latencySeconds = 0.25;
    ok.promptTokens = 120;
    ok.completionTokens = 30;
    ok.cost = 0.001;
    ok.attempts = 1;
    judge::Decision failed = ok;
    failed.reply.clear();
    failed.verdict.clear();
    failed.error = "judge http://…: HTTP 500; gave up after 3 attempts";
    failed.value = std::numeric_limits<double>::quiet_NaN();
    failed.attempts = 3;
    failed.part = "items[2]";
    Rollout a = makeRollout(0, 0, 0);
    a.judgeDecisions = {ok};
    Rollout b = makeRollout(0, 0, 1);
    b.reward = std::numeric_limits<double>::quiet_NaN();
    b.judgeDecisions = {ok, failed};
    store.writeStep(run, 0, {{"reward", 0.5}}, {a, b}, {makePrompt(0)});
    const auto rollouts = store.stepRollouts(run, 0);
    QCOMPARE(rollouts.size(), size_t(2));
    QVERIFY(!std::isnan(rollouts[0].rollout.reward));
    QVERIFY(std::isnan(rollouts[1].rollout.reward));
    QCOMPARE(count(store, "SELECT count(*) FROM v_rollouts WHERE reward IS NULL"), int64_t(1));

    const auto all = store.judgeDecisions(run);
    QCOMPARE(all.size(), size_t(3));
    QCOMPARE(all[0].rolloutId, rollouts[0].id);
    QCOMPARE(all[2].rolloutId, rollouts[1].id);
    QCOMPARE(all[0].decision.reply, ok.reply);
    QCOMPARE(all[0].decision.promptTokens, int64_t(120));
    QCOMPARE(all[0].decision.latencySeconds, 0.25);
    QCOMPARE(all[2].decision.part, std::string("items[2]"));
    QCOMPARE(all[2].decision.attempts, 3);
    QVERIFY(std::isnan(all[2].decision.value));
    QCOMPARE(all[2].step, int64_t(0));
    JudgeDecisionFilter f;
    f.rolloutId = rollouts[1].id;
    QCOMPARE(store.judgeDecisions(run, f).size(), size_t(2));
    f.failuresOnly = true;
    QCOMPARE(store.judgeDecisions(run, f).size(), size_t(1));
    JudgeDecisionFilter byReward;
    byReward.reward = "consistency";
    QVERIFY(store.judgeDecisions(run, byReward).empty());
    QCOMPARE(count(store, "SELECT count(*) FROM v_judge_decisions WHERE error <> '' AND value IS NULL"), int64_t(1));

    // Evaluation decisions: replaced with their prediction, separate from the rollouts'.
    EvalPrediction p{"e1", "x", "y", false, "{}"};
    p.judgeDecisions = {ok, ok};
    store.writeEvalPredictions(run, 0, {p});
    p.judgeDecisions = {failed};
    store.writeEvalPredictions(run, 0, {p});
    JudgeDecisionFilter eval;
    eval.evaluation = true;
    const auto evals = store.judgeDecisions(run, eval);
    QCOMPARE(evals.size(), size_t(1));
    QCOMPARE(evals[0].exampleId, std::string("e1"));
    QCOMPARE(evals[0].rolloutId, int64_t(0));
    QCOMPARE(store.judgeDecisions(run).size(), size_t(3));
    // Resuming from before the step drops the step's decisions with its rollouts.
    store.discardAfter(run, -1);
    QVERIFY(store.judgeDecisions(run).empty());
    QVERIFY(store.judgeDecisions(run, eval).empty());
}

void TestRunStore::roundTripViews()
{
    const std::string path = file("views.sqlite");
    {
        RunStore store(path);
        const int64_t run = store.beginRun("demo グループ", RunKind::Grpo, R"({"lr":3e-5})", "company_extraction");
        store.recordRewardConfig(run, 0, R"({"partial":20,"marker":80})");
        store.recordRewardConfig(run, 1, R"({"partial":50,"marker":50})");
        writeSteps(store, run, 0, 2);
        store.addCheckpoint(run, 1, "/tmp/ckpt-1");
        store.writeEvalPredictions(run, 1, {{"e1", "株式会社きらめき商事", "株式会社きらめき商事", true, R"({"f1":1})"},
                                            {"e2", "東和物産", "株式会社きらめき商事", false, "{}"}});
        store.finishRun(run, RunStatus::Finished, "done");
    }
    const RunStore store(path, RunStore::OpenMode::ReadOnly);
    // v_runs
    int rows = 0;
    store.query("SELECT run_id, name, kind, status, message, config_json, steps, last_step FROM v_runs",
                [&](const std::vector<std::string> &c, const std::vector<SqlValue> &v) {
                    ++rows;
                    [&] {
                        QCOMPARE(c.at(1), std::string("name"));
                        QCOMPARE(v[0].integer, int64_t(1));
                        QCOMPARE(v[1].bytes, std::string("demo グループ"));
                        QCOMPARE(v[2].bytes, std::string("grpo"));
                        QCOMPARE(v[3].bytes, std::string("finished"));
                        QCOMPARE(v[4].bytes, std::string("done"));
                        QCOMPARE(v[5].bytes, std::string(R"({"lr":3e-5})"));
                        QCOMPARE(v[6].integer, int64_t(2));
                        QCOMPARE(v[7].integer, int64_t(1));
                    }();
                    return true;
                });
    QCOMPARE(rows, 1);
    // v_metrics: every value exactly.
    rows = 0;
    store.query("SELECT step, name, value FROM v_metrics WHERE run_id = 1 ORDER BY step, name",
                [&](const auto &, const std::vector<SqlValue> &v) {
                    const int step = static_cast<int>(v[0].integer);
                    for (const Metric &m : makeMetrics(step))
                        if (m.name == v[1].bytes) {
                            ++rows;
                            if (v[2].real != m.value)
                                qWarning("metric %s differs", m.name.c_str());
                            else
                                ++rows;
                        }
                    return true;
                });
    QCOMPARE(rows, 2 * 2 * 3);
    // v_rollouts: every column of every rollout.
    rows = 0;
    store.query("SELECT run_id, step, prompt_id, sample_index, prompt, completion, answer, gold, reward, rewards_json, "
                "advantage, completion_tokens, truncated, group_index FROM v_rollouts ORDER BY rollout_id",
                [&](const auto &, const std::vector<SqlValue> &v) {
                    const int step = static_cast<int>(v[1].integer);
                    const int g = static_cast<int>(v[13].integer);
                    const int s = static_cast<int>(v[3].integer);
                    const Rollout r = makeRollout(step, g, s);
                    const Prompt p = makePrompt(step * kGroups + g);
                    const bool same = v[0].integer == 1 && v[2].bytes == r.promptId && v[4].bytes == p.text &&
                                      v[5].bytes == r.completion && v[6].bytes == r.answer && v[7].bytes == p.gold &&
                                      v[8].real == r.reward && v[9].bytes == r.rewardsJson &&
                                      v[10].real == r.advantage && v[11].integer == r.completionTokens &&
                                      v[12].integer == (r.truncated ? 1 : 0);
                    rows += same ? 1 : 1000;
                    return true;
                });
    QCOMPARE(rows, 2 * kGroups * kGroup);
    // Prompts are stored once, not per rollout.
    QCOMPARE(count(store, "SELECT count(*) FROM prompts"), int64_t(2 * kGroups));
    // v_reward_configs, checkpoints, v_eval_predictions
    std::string configs;
    store.query("SELECT step, config_json FROM v_reward_configs ORDER BY step", [&](const auto &, const auto &v) {
        configs += std::to_string(v[0].integer) + v[1].bytes + ";";
        return true;
    });
    QCOMPARE(configs, std::string(R"(0{"partial":20,"marker":80};1{"partial":50,"marker":50};)"));
    std::string preds;
    store.query("SELECT checkpoint_step, example_id, prediction, gold, correct, rewards_json FROM v_eval_predictions "
                "ORDER BY example_id",
                [&](const auto &, const auto &v) {
                    preds += std::to_string(v[0].integer) + "|" + v[1].bytes + "|" + v[2].bytes + "|" + v[3].bytes +
                             "|" + std::to_string(v[4].integer) + "|" + v[5].bytes + ";";
                    return true;
                });
    QCOMPARE(preds, std::string("1|e1|株式会社きらめき商事|株式会社きらめき商事|1|{\"f1\":1};"
                                "1|e2|東和物産|株式会社きらめき商事|0|{};"));
    QCOMPARE(count(store, "SELECT count(*) FROM checkpoints WHERE path = '/tmp/ckpt-1' AND step = 1"), int64_t(1));
    // Token arrays straight from the table are the documented little-endian layout.
    std::string blob;
    store.query("SELECT logprobs_ref FROM rollouts ORDER BY id LIMIT 1", [&](const auto &, const auto &v) {
        blob = v[0].bytes;
        return false;
    });
    QVERIFY(sameBits(BlobCodec::decodeFloats(blob), makeRollout(0, 0, 0).logprobsRef));
}

void TestRunStore::roundTripApi()
{
    RunStore store(file("api.sqlite"));
    const int64_t run = store.beginRun("api", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, run, 0, 3);
    store.recordRewardConfig(run, 2, R"({"marker":1})");
    store.addCheckpoint(run, 2, "ckpt");
    store.writeEvalPredictions(run, 2, {{"a", "x", "y", false, "{}"}});

    const auto runs = store.runs();
    QCOMPARE(runs.size(), size_t(1));
    QCOMPARE(runs[0].status, std::string("running"));
    QCOMPARE(runs[0].steps, int64_t(3));
    QCOMPARE(runs[0].lastStep, int64_t(2));
    QCOMPARE(store.metricNames(run), (std::vector<std::string>{"kl", "reward", "rewards/marker/mean"}));
    const auto reward = store.metrics(run, "reward");
    QCOMPARE(reward.size(), size_t(3));
    for (int step = 0; step < 3; ++step) {
        QCOMPARE(reward[step].step, int64_t(step));
        QCOMPARE(reward[step].value, 0.5 + step);
    }
    QCOMPARE(store.metrics(run).size(), size_t(9));
    QCOMPARE(store.rewardConfigs(run).at(0).step, int64_t(2));
    QCOMPARE(store.checkpoints(run).at(0).path, std::string("ckpt"));
    QCOMPARE(store.evalPredictions(run, 2).size(), size_t(1));
    QCOMPARE(store.evalPredictions(run, 5).size(), size_t(0));

    const auto step1 = store.stepRollouts(run, 1);
    QCOMPARE(step1.size(), size_t(kGroups * kGroup));
    for (const StoredRollout &row : step1) {
        const StoredRollout full = store.rollout(row.id);
        const Rollout expected = makeRollout(1, row.rollout.groupIndex, row.rollout.sampleIndex);
        QCOMPARE(full.step, int64_t(1));
        QCOMPARE(full.rollout.completion, expected.completion);
        QCOMPARE(full.prompt, makePrompt(kGroups + row.rollout.groupIndex).text);
        QVERIFY(full.rollout.tokenIds == expected.tokenIds);
        QVERIFY(sameBits(full.rollout.logprobsOld, expected.logprobsOld));
        QVERIFY(sameBits(full.rollout.logprobsNew, expected.logprobsNew));
        QVERIFY(sameBits(full.rollout.logprobsRef, expected.logprobsRef));
        QVERIFY(sameBits(full.rollout.advantages, expected.advantages));
        QCOMPARE(full.rollout.entropies.size(), size_t(kTokens));
        QVERIFY(sameBits(full.rollout.entropies, expected.entropies));
        QCOMPARE(full.rollout.entropies[2], 0.5f + 1e-3f * static_cast<float>(row.rollout.sampleIndex));
        QVERIFY(row.rollout.tokenIds.empty()); // listings leave the arrays out
    }
    QVERIFY_THROWS_EXCEPTION(StoreError, store.rollout(999999));
    store.finishRun(run, RunStatus::Stopped, "by user");
    QCOMPARE(store.run(run).status, std::string("stopped"));
    QVERIFY(!store.run(run).finished.empty());
    QVERIFY_THROWS_EXCEPTION(StoreError, store.finishRun(42, RunStatus::Failed));
}

void TestRunStore::paging()
{
    RunStore store(file("paging.sqlite"));
    const int64_t run = store.beginRun("paging", RunKind::Grpo, "{}", "company_extraction");
    const int64_t other = store.beginRun("other", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, run, 0, 2);
    writeSteps(store, other, 0, 1);
    writeSteps(store, run, 2, 3);
    const int total = 3 * kGroups * kGroup;
    RolloutFilter filter;
    filter.runId = run;
    std::vector<int64_t> ids;
    int64_t after = 0;
    int pages = 0;
    for (;;) {
        const RolloutPage page = store.rollouts(filter, after, 7);
        for (const auto &r : page.rows) {
            QCOMPARE(r.runId, run);
            ids.push_back(r.id);
        }
        ++pages;
        QCOMPARE(page.more, page.rows.size() == 7);
        if (!page.more)
            break;
        after = page.nextAfterId;
    }
    QCOMPARE(ids.size(), size_t(total));
    QCOMPARE(pages, total / 7 + 1);
    QVERIFY(std::is_sorted(ids.begin(), ids.end()));
    QVERIFY(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
}

void TestRunStore::filters_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("step range") << 0;
    QTest::newRow("reward range") << 1;
    QTest::newRow("marker < 0.5") << 2;
    QTest::newRow("partial >= 0.3 and marker = 1") << 3;
    QTest::newRow("truncated") << 4;
    QTest::newRow("not truncated") << 5;
    QTest::newRow("completion FTS") << 6;
    QTest::newRow("prompt FTS") << 7;
    QTest::newRow("everything at once") << 8;
}

void TestRunStore::filters()
{
    QFETCH(int, kind);
    RunStore store(file("filters.sqlite"));
    const int64_t run = store.beginRun("filters", RunKind::Grpo, "{}", "company_extraction");
    constexpr int kSteps = 4;
    writeSteps(store, run, 0, kSteps);

    RolloutFilter f;
    f.runId = run;
    std::function<bool(int, int, int)> want; // (step, group, sample)
    auto marker = [](int s) { return s % 2 == 0 ? 1.0 : 0.25 * s; };
    auto reward = [](int step, int g, int s) { return makeRollout(step, g, s).reward; };
    switch (kind) {
    case 0:
        f.stepMin = 1;
        f.stepMax = 2;
        want = [](int step, int, int) { return step >= 1 && step <= 2; };
        break;
    case 1:
        f.rewardMin = 0.3;
        f.rewardMax = 0.7;
        want = [&](int step, int g, int s) { return reward(step, g, s) >= 0.3 && reward(step, g, s) <= 0.7; };
        break;
    case 2:
        f.components = {{"marker", ComponentCondition::Op::Less, 0.5}};
        want = [&](int, int, int s) { return marker(s) < 0.5; };
        break;
    case 3:
        f.components = {{"partial", ComponentCondition::Op::GreaterEqual, 0.3},
                        {"marker", ComponentCondition::Op::Equal, 1.0}};
        want = [&](int, int, int s) { return 0.1 * (s + 1) >= 0.3 - 1e-12 && marker(s) == 1.0; };
        break;
    case 4:
        f.truncated = true;
        want = [](int, int, int s) { return s == kGroup - 1; };
        break;
    case 5:
        f.truncated = false;
        want = [](int, int, int s) { return s != kGroup - 1; };
        break;
    case 6:
        f.completionMatch = "\"きらめき商事\"";
        want = [](int, int, int s) { return s % 2 == 0; };
        break;
    case 7:
        f.promptMatch = "\"きらめき商事7の\"";
        want = [](int step, int g, int) { return step * kGroups + g == 7; };
        break;
    case 8:
        f.stepMin = 1;
        f.components = {{"marker", ComponentCondition::Op::Less, 0.5}};
        f.completionMatch = "東和物産";
        f.truncated = false;
        want = [&](int step, int, int s) { return step >= 1 && marker(s) < 0.5 && s % 2 == 1 && s != kGroup - 1; };
        break;
    }
    int expected = 0;
    for (int step = 0; step < kSteps; ++step)
        for (int g = 0; g < kGroups; ++g)
            for (int s = 0; s < kGroup; ++s)
                expected += want(step, g, s) ? 1 : 0;
    QVERIFY(expected > 0);
    QVERIFY(expected < kSteps * kGroups * kGroup);
    const RolloutPage page = store.rollouts(f, 0, 10000);
    QCOMPARE(static_cast<int>(page.rows.size()), expected);
    for (const StoredRollout &r : page.rows)
        QVERIFY(want(static_cast<int>(r.step), r.rollout.groupIndex, r.rollout.sampleIndex));
}

void TestRunStore::fullTextJapanese()
{
    // The FTS5 indexes use the trigram tokenizer (SQLite ≥ 3.34; Debian bookworm has
    // 3.40.1): any substring of 3 or more characters matches, in any script.
    RunStore store(file("fts.sqlite"));
    const int64_t run = store.beginRun("fts", RunKind::Grpo, "{}", "company_extraction");
    Rollout a = makeRollout(0, 0, 0);
    a.completion = "送信者は株式会社ひまわり電機の営業部です";
    Rollout b = makeRollout(0, 0, 1);
    b.completion = "Sender: Himawari Denki Co., Ltd.";
    store.writeStep(run, 0, {}, {a, b}, {makePrompt(0)});
    auto hits = [&](const std::string &query) {
        RolloutFilter f;
        f.runId = run;
        f.completionMatch = query;
        return store.rollouts(f).rows.size();
    };
    QCOMPARE(hits("ひまわり電機"), size_t(1));
    QCOMPARE(hits("営業部"), size_t(1));
    QCOMPARE(hits("himawari"), size_t(1)); // case-insensitive
    QCOMPARE(hits("ひまわり電気"), size_t(0));
    QCOMPARE(hits("\"Denki\" OR \"電機の\""), size_t(2));
    QVERIFY_THROWS_EXCEPTION(StoreError, hits("\"unbalanced"));
}

// allRuns: a search finds the rollouts of every run, each naming its run, in id order and
// a page at a time; without it, the run's own only.
void TestRunStore::searchAcrossRuns()
{
    const std::string path = file("runs.sqlite");
    RunStore store(path);
    const int64_t first = store.beginRun("first", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, first, 0, 2);
    const int64_t second = store.beginRun("second", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, second, 0, 1);
    const int64_t third = store.beginRun("third", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, third, 0, 1, "<answer>不明</answer>"); // no きらめき商事 in a completion

    // Through a read-only connection as the GUI searches: the rows are not indexed yet.
    const RunStore reader(path, RunStore::OpenMode::ReadOnly);
    RolloutFilter f;
    f.runId = second;
    f.completionMatch = "\"きらめき商事\"";
    QCOMPARE(static_cast<int>(reader.rollouts(f).rows.size()), kKirameki); // the second run's step
    f.allRuns = true;
    const RolloutPage all = reader.rollouts(f, 0, 1000);
    // Three steps (two of the first run, one of the second) of kKirameki each.
    QCOMPARE(static_cast<int>(all.rows.size()), 3 * kKirameki);
    QVERIFY(!all.more);
    int ofFirst = 0, ofSecond = 0;
    for (size_t i = 0; i < all.rows.size(); ++i) {
        const StoredRollout &r = all.rows[i];
        QVERIFY(r.runId == first || r.runId == second);
        (r.runId == first ? ofFirst : ofSecond) += 1;
        QVERIFY(r.rollout.completion.find("きらめき商事") != std::string::npos);
        if (i > 0)
            QVERIFY(r.id > all.rows[i - 1].id);
    }
    QCOMPARE(ofFirst, 2 * kKirameki);
    QCOMPARE(ofSecond, kKirameki);
    // Bounded: a page of 4 says there is more, and the pages together are the whole.
    const RolloutPage page = reader.rollouts(f, 0, 4);
    QCOMPARE(page.rows.size(), size_t(4));
    QVERIFY(page.more);
    QCOMPARE(page.rows.back().id, all.rows[3].id);
    const RolloutPage rest = reader.rollouts(f, page.nextAfterId, 1000);
    QCOMPARE(rest.rows.size(), all.rows.size() - 4);
    // Other filters still narrow; the run id is ignored.
    f.runId = 0;
    f.stepMin = f.stepMax = 1;
    QCOMPARE(static_cast<int>(reader.rollouts(f).rows.size()), kKirameki); // the first run's step 1
    f.stepMin.reset();
    f.stepMax.reset();
    f.completionMatch.clear();
    f.promptMatch = "\"きらめき商事0の\""; // prompt p0: step 0, group 0 of every run
    QCOMPARE(static_cast<int>(reader.rollouts(f).rows.size()), 3 * kGroup);
    // No text: every rollout of the store.
    f.promptMatch.clear();
    QCOMPARE(static_cast<int>(reader.rollouts(f).rows.size()), 4 * kGroups * kGroup);
}

void TestRunStore::readerNeverBlocks()
{
    const std::string path = file("wal.sqlite");
    RunStore writer(path);
    const int64_t run = writer.beginRun("wal", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, run, 0, 1);

    // Another connection holds the write lock with an uncommitted step 1.
    sqlite3 *other = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
    rawExec(other, "BEGIN IMMEDIATE");
    rawExec(other, "INSERT INTO steps(run_id, step) VALUES (1, 1)");
    rawExec(other, "INSERT INTO metrics(run_id, step, name, value) VALUES (1, 1, 'reward', 9)");

    QElapsedTimer timer;
    timer.start();
    const RunStore reader(path, RunStore::OpenMode::ReadOnly);
    const auto runs = reader.runs();
    const auto reward = reader.metrics(run, "reward");
    const auto rows = reader.stepRollouts(run, 0);
    const qint64 ms = timer.elapsed();
    QVERIFY2(ms < 1000, qPrintable(QString("the reader waited %1 ms").arg(ms)));
    QCOMPARE(runs.at(0).steps, int64_t(1)); // the last committed step, not the one in flight
    QCOMPARE(reward.size(), size_t(1));
    QCOMPARE(rows.size(), size_t(kGroups * kGroup));
    rawExec(other, "ROLLBACK");

    // A reader in the middle of a read transaction does not block the writer either.
    rawExec(other, "BEGIN");
    int64_t seen = 0;
    sqlite3_exec(
        other, "SELECT count(*) FROM steps",
        [](void *p, int, char **v, char **) {
            *static_cast<int64_t *>(p) = std::atoll(v[0]);
            return 0;
        },
        &seen, nullptr);
    QCOMPARE(seen, int64_t(1));
    timer.restart();
    writeSteps(writer, run, 1, 3);
    QVERIFY2(timer.elapsed() < 1000, "the writer waited for a reader");
    QCOMPARE(reader.runs().at(0).steps, int64_t(3));
    rawExec(other, "COMMIT");
    sqlite3_close(other);
}

void TestRunStore::stepIsAtomic()
{
    RunStore store(file("atomic.sqlite"));
    const int64_t run = store.beginRun("atomic", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, run, 0, 1);
    // A step whose last rollout names an unknown prompt writes nothing at all.
    std::vector<Rollout> rollouts{makeRollout(1, 0, 0), makeRollout(1, 0, 1)};
    rollouts.back().promptId = "nowhere";
    try {
        store.writeStep(run, 1, makeMetrics(1), rollouts, {makePrompt(kGroups)});
        QFAIL("no exception");
    } catch (const StoreError &e) {
        QVERIFY2(std::string(e.what()).find("nowhere") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(store.path()) == 0, e.what());
    }
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE step = 1"), int64_t(0));
    QCOMPARE(count(store, "SELECT count(*) FROM metrics WHERE step = 1"), int64_t(0));
    QCOMPARE(count(store, "SELECT count(*) FROM prompts"), int64_t(kGroups));
    // Writing a step twice is refused; the first stays as it was.
    QVERIFY_THROWS_EXCEPTION(StoreError, writeSteps(store, run, 0, 1));
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts"), int64_t(kGroups * kGroup));
    // Mismatched per-token arrays are refused before anything is written.
    Rollout bad = makeRollout(1, 0, 0);
    bad.logprobsNew.pop_back();
    QVERIFY_THROWS_EXCEPTION(StoreError, store.writeStep(run, 1, {}, {bad}, {makePrompt(kGroups)}));
    // The rolled-back prompt is not remembered: a retry of the step works.
    writeSteps(store, run, 1, 2);
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE step = 1"), int64_t(kGroups * kGroup));
    // A read-only store refuses writes.
    const RunStore reader(store.path(), RunStore::OpenMode::ReadOnly);
    QVERIFY_THROWS_EXCEPTION(StoreError, reader.query("DELETE FROM rollouts", [](const auto &, const auto &) {
        return true;
    }));
}

void TestRunStore::schemaVersion()
{
    const std::string path = file("version.sqlite");
    {
        RunStore store(path);
        QCOMPARE(store.schemaVersion(), Schema::kVersion);
        QCOMPARE(count(store, "PRAGMA user_version"), int64_t(Schema::kVersion));
        std::string mode;
        store.query("PRAGMA journal_mode", [&](const auto &, const auto &v) {
            mode = v[0].bytes;
            return false;
        });
        QCOMPARE(mode, std::string("wal"));
        QCOMPARE(count(store, "PRAGMA foreign_keys"), int64_t(1));
        QCOMPARE(count(store, "PRAGMA synchronous"), int64_t(1)); // NORMAL
    }
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    rawExec(db, "PRAGMA user_version = 99");
    sqlite3_close(db);
    for (auto mode : {RunStore::OpenMode::ReadWrite, RunStore::OpenMode::ReadOnly}) {
        try {
            RunStore store(path, mode);
            QFAIL("a newer schema was accepted");
        } catch (const StoreError &e) {
            const std::string what = e.what();
            QVERIFY2(what.find(path) != std::string::npos && what.find("newer") != std::string::npos, e.what());
        }
    }
}

void TestRunStore::badFiles()
{
    // Missing file, read-only.
    QVERIFY_THROWS_EXCEPTION(StoreError, RunStore(file("missing.sqlite"), RunStore::OpenMode::ReadOnly));
    // Not SQLite at all.
    const std::string text = file("text.sqlite");
    {
        QFile f(QString::fromStdString(text));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
    }
    try {
        RunStore store(text);
        QFAIL("a text file was accepted");
    } catch (const StoreError &e) {
        QVERIFY2(std::string(e.what()).find(text) == 0, e.what());
    }
    // Some other SQLite database.
    const std::string foreign = file("foreign.sqlite");
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
    rawExec(db, "CREATE TABLE t(x)");
    sqlite3_close(db);
    QVERIFY_THROWS_EXCEPTION(StoreError, RunStore{foreign});
    // A directory that does not exist.
    QVERIFY_THROWS_EXCEPTION(StoreError, RunStore{file("no/such/dir/x.sqlite")});
}

void TestRunStore::crashLosesAtMostOneStep()
{
    // Odd rounds also bring the search index up to date after every step, in batches of
    // 100 rows, so that some kills land inside an indexing transaction.
    const std::string path = file("crash.sqlite");
    constexpr int kRounds = 6;
    constexpr int kRollouts = 64;
    std::mt19937 rng(20240611);
    for (int round = 0; round < kRounds; ++round) {
        int pipeFd[2];
        QCOMPARE(pipe(pipeFd), 0);
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            // The child: a trainer writing steps of 64 rollouts as fast as it can.
            close(pipeFd[0]);
            try {
                RunStore store(path);
                const int64_t run = store.beginRun("crash " + std::to_string(round), RunKind::Grpo, "{}", "company_extraction");
                std::vector<Prompt> prompts;
                for (int p = 0; p < kRollouts / 8; ++p)
                    prompts.push_back(makePrompt(p));
                for (int step = 0;; ++step) {
                    std::vector<Rollout> rollouts;
                    for (int i = 0; i < kRollouts; ++i) {
                        Rollout r = makeRollout(step, 0, i % 8);
                        r.promptId = "p" + std::to_string(i / 8);
                        r.groupIndex = i / 8;
                        r.tokenIds.resize(40, 7);
                        r.logprobsOld.resize(40, -1.0f);
                        r.logprobsNew.resize(40, -1.0f);
                        r.logprobsRef.resize(40, -1.0f);
                        r.advantages.resize(40, 0.5f);
                        r.entropies.resize(40, 1.0f);
                        rollouts.push_back(std::move(r));
                    }
                    store.writeStep(run, step, makeMetrics(step), rollouts, step == 0 ? prompts : std::vector<Prompt>{});
                    if (round % 2 == 1)
                        while (store.indexPending(100) > 0) {
                        }
                    const char c = 1;
                    if (write(pipeFd[1], &c, 1) != 1)
                        _exit(3);
                }
            } catch (...) {
                _exit(2);
            }
            _exit(0);
        }
        close(pipeFd[1]);
        // Let it commit a few steps, then kill it at a random moment inside the next ones.
        const int waitSteps = 1 + static_cast<int>(rng() % 5);
        char c = 0;
        for (int i = 0; i < waitSteps; ++i)
            QCOMPARE(read(pipeFd[0], &c, 1), ssize_t(1));
        usleep(rng() % 20000);
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        close(pipeFd[0]);
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the writer ended before it was killed");

        const std::string run = std::to_string(round + 1);
        {
            // A reader first: it cannot recover the WAL's leftovers into the file, but sees
            // every committed step, and its search finds all of their rollouts (half name
            // きらめき商事) whatever the file's index holds.
            const RunStore reader(path, RunStore::OpenMode::ReadOnly);
            const RunInfo info = reader.run(round + 1);
            QCOMPARE(searchCount(reader, info.id, "きらめき商事"), static_cast<int>(info.steps * kRollouts / 2));
            // The file's index holds exactly the rows up to its watermark: an indexing batch
            // is all there or absent.
            QCOMPARE(count(reader, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき商事'"),
                     count(reader, "SELECT count(*) FROM rollouts WHERE completion LIKE '%きらめき商事%' AND id <= "
                                   "(SELECT indexed_id FROM search_progress WHERE name = 'rollouts')"));
            if (round % 2 == 1)
                QVERIFY(count(reader, "SELECT indexed_id FROM search_progress WHERE name = 'rollouts'") > 0);
        }
        RunStore store(path); // recovers the WAL
        QCOMPARE(store.integrityCheck(), std::string("ok"));
        store.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) {
            return true;
        });
        const RunInfo info = store.runs().at(round);
        QVERIFY(info.steps >= waitSteps);
        QCOMPARE(info.lastStep, info.steps - 1);
        // Every step is whole: 64 rollouts and 3 metrics where the step is marked, nothing elsewhere.
        QCOMPARE(std::to_string(info.id), run);
        QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE run_id = " + run), info.steps * kRollouts);
        QCOMPARE(count(store, "SELECT count(*) FROM metrics WHERE run_id = " + run), info.steps * 3);
        QCOMPARE(count(store, "SELECT count(*) FROM (SELECT step FROM rollouts WHERE run_id = " + run +
                                  " GROUP BY step HAVING count(*) <> " + std::to_string(kRollouts) + ")"),
                 int64_t(0));
        QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE run_id = " + run +
                                  " AND step NOT IN (SELECT step FROM steps WHERE run_id = " + run + ")"),
                 int64_t(0));
        // A read-write store's search indexes the rest into the file.
        QCOMPARE(searchCount(store, info.id, "きらめき商事"), static_cast<int>(info.steps * kRollouts / 2));
        QCOMPARE(count(store, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき商事' AND rowid IN "
                              "(SELECT id FROM rollouts WHERE run_id = " + run + ")"),
                 info.steps * kRollouts / 2);
        QCOMPARE(info.status, std::string("running")); // killed: never finished
    }
}

void TestRunStore::promptsOfADeletedRun()
{
    // The writer remembers the ids of the prompts it wrote. A deleted run's id comes back
    // for the next run, with the same prompt ids but new rows: writeStep() must not use
    // the old ones, whether this store deleted the run or another connection did.
    const std::string path = file("reuse.sqlite");
    RunStore store(path);
    const int64_t first = store.beginRun("first", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, first, 0, 2);
    store.query("DELETE FROM runs WHERE id = " + std::to_string(first), [](auto &, auto &) { return true; });
    const int64_t second = store.beginRun("second", RunKind::Grpo, "{}", "company_extraction");
    QCOMPARE(second, first);
    writeSteps(store, second, 0, 1);

    RunStore other(path);
    other.query("DELETE FROM runs WHERE id = " + std::to_string(second), [](auto &, auto &) { return true; });
    const int64_t third = store.beginRun("third", RunKind::Grpo, "{}", "company_extraction");
    QCOMPARE(third, first);
    writeSteps(store, third, 0, 2);
    QCOMPARE(count(store, "SELECT count(*) FROM v_rollouts WHERE run_id = " + std::to_string(third)),
             int64_t(2 * kGroups * kGroup));
    QCOMPARE(store.integrityCheck(), std::string("ok"));
}

void TestRunStore::searchIsCompleteWithoutIndexing()
{
    // writeStep() indexes nothing; a search still finds every committed rollout: a
    // read-only reader through its private index, a read-write store by indexing the file.
    const std::string path = file("lazy.sqlite");
    RunStore writer(path);
    const int64_t run = writer.beginRun("lazy", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, run, 0, 2);
    QCOMPARE(writer.pendingIndexRows(), int64_t(2 * kRowsPerStep));
    QCOMPARE(count(writer, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき'"), int64_t(0));

    const RunStore reader(path, RunStore::OpenMode::ReadOnly);
    QCOMPARE(searchCount(reader, run, "きらめき商事"), 2 * kKirameki);
    QCOMPARE(searchCount(reader, run, {}, "\"きらめき商事4の\""), kGroup); // prompt p4: step 1, group 1
    QCOMPARE(writer.pendingIndexRows(), int64_t(2 * kRowsPerStep));       // the reader wrote nothing
    // Rows committed after the reader's last search are found by its next one.
    writeSteps(writer, run, 2, 3);
    QCOMPARE(searchCount(reader, run, "きらめき商事"), 3 * kKirameki);
    QCOMPARE(searchCount(reader, run, {}, "\"きらめき商事7の\""), kGroup);
    // Part of the rows indexed into the file, then more written: found once each.
    QCOMPARE(writer.indexPending(20), int64_t(20));
    QCOMPARE(writer.pendingIndexRows(), int64_t(3 * kRowsPerStep - 20));
    writeSteps(writer, run, 3, 4);
    QCOMPARE(searchCount(reader, run, "きらめき商事"), 4 * kKirameki);
    QCOMPARE(searchCount(reader, run, "東和物産"), 4 * kGroups * kGroup - 4 * kKirameki);
    QCOMPARE(searchCount(reader, run, "東和物産", "\"きらめき商事10の\""), kGroup / 2);
    // Everything in the file's index: it alone answers, for other tools too.
    QCOMPARE(writer.indexPending(), int64_t(4 * kRowsPerStep - 20));
    QCOMPARE(writer.pendingIndexRows(), int64_t(0));
    QCOMPARE(count(reader, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき商事'"),
             int64_t(4 * kKirameki));
    QCOMPARE(searchCount(reader, run, "きらめき商事"), 4 * kKirameki);
    // A read-write store's search indexes the file first (only the table it searches).
    writeSteps(writer, run, 4, 5);
    QCOMPARE(searchCount(writer, run, "きらめき商事"), 5 * kKirameki);
    QCOMPARE(writer.pendingIndexRows(), int64_t(kGroups));
    // A bad query fails and leaves the reader's private index as it was.
    writeSteps(writer, run, 5, 6);
    QVERIFY_THROWS_EXCEPTION(StoreError, searchCount(reader, run, "\"unbalanced"));
    QCOMPARE(searchCount(reader, run, "きらめき商事"), 6 * kKirameki);
    // finishRun() leaves the file's index complete, and FTS5 agrees with it.
    writer.finishRun(run, RunStatus::Finished);
    QCOMPARE(writer.pendingIndexRows(), int64_t(0));
    QCOMPARE(count(writer, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき商事'"),
             int64_t(6 * kKirameki));
    writer.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) {
        return true;
    });
    writer.query("INSERT INTO prompts_fts(prompts_fts) VALUES ('integrity-check')", [](auto &, auto &) {
        return true;
    });
    QVERIFY_THROWS_EXCEPTION(StoreError, const_cast<RunStore &>(reader).indexPending());
}

void TestRunStore::searchAfterDeletes()
{
    // Deleting the newest run gives its ids back to SQLite, and the next rows reuse them.
    // Neither the file's index nor a reader's private one may then answer with the old
    // text: the delete trigger removes indexed rows and lowers the watermark, and bumps a
    // generation that makes readers rebuild.
    const std::string path = file("deletes.sqlite");
    RunStore writer(path);
    const RunStore reader(path, RunStore::OpenMode::ReadOnly);
    auto deleteRun = [&](int64_t run) {
        writer.query("DELETE FROM runs WHERE id = " + std::to_string(run), [](auto &, auto &) { return true; });
    };
    auto firstId = [&](int64_t run) {
        return count(writer, "SELECT min(id) FROM rollouts WHERE run_id = " + std::to_string(run));
    };
    constexpr const char *kOther = "<answer>ひまわり電機</answer>";
    constexpr int kRows = 2 * kGroups * kGroup;
    const int64_t keep = writer.beginRun("keep", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, keep, 0, 1);

    // In the file's index when deleted.
    const int64_t a = writer.beginRun("a", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, a, 0, 2);
    const int64_t aFirst = firstId(a);
    writer.indexPending();
    QCOMPARE(searchCount(reader, a, "きらめき商事"), 2 * kKirameki);
    deleteRun(a);
    QCOMPARE(count(writer, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき商事'"),
             int64_t(kKirameki)); // run `keep`'s only
    const int64_t b = writer.beginRun("b", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, b, 0, 2, kOther);
    QCOMPARE(firstId(b), aFirst); // the ids came back
    QCOMPARE(searchCount(reader, b, "きらめき商事"), 0);
    QCOMPARE(searchCount(reader, b, "ひまわり電機"), kRows);
    QCOMPARE(searchCount(writer, b, "きらめき商事"), 0);
    QCOMPARE(searchCount(writer, b, "ひまわり電機"), kRows);
    QCOMPARE(searchCount(reader, keep, "きらめき商事"), kKirameki);

    // Only in the reader's private index when deleted.
    const int64_t c = writer.beginRun("c", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, c, 0, 2);
    const int64_t cFirst = firstId(c);
    QCOMPARE(searchCount(reader, c, "きらめき商事"), 2 * kKirameki);
    deleteRun(c);
    const int64_t d = writer.beginRun("d", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, d, 0, 2, kOther);
    QCOMPARE(firstId(d), cFirst);
    QCOMPARE(searchCount(reader, d, "きらめき商事"), 0);
    QCOMPARE(searchCount(reader, d, "ひまわり電機"), kRows);
    QCOMPARE(searchCount(reader, keep, "きらめき商事"), kKirameki);

    // A changed completion is searched by its new text.
    writer.indexPending();
    writer.query("UPDATE rollouts SET completion = 'なし' WHERE run_id = " + std::to_string(keep),
                 [](auto &, auto &) { return true; });
    QCOMPARE(searchCount(reader, keep, "きらめき商事"), 0);
    QCOMPARE(searchCount(writer, keep, "きらめき商事"), 0);
    QCOMPARE(writer.integrityCheck(), std::string("ok"));
    writer.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) {
        return true;
    });
}

void TestRunStore::searchAfterResume()
{
    // Resuming from a checkpoint deletes the steps after it (discardAfter) and writes them
    // again, under the same rollout ids: searches must see the new text only.
    const std::string path = file("resume.sqlite");
    RunStore writer(path);
    const RunStore reader(path, RunStore::OpenMode::ReadOnly);
    const int64_t run = writer.beginRun("resume", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(writer, run, 0, 2);
    writer.indexPending();     // steps 0–1 in the file's index
    writeSteps(writer, run, 2, 4);
    QCOMPARE(searchCount(reader, run, "きらめき商事"), 4 * kKirameki); // steps 2–3 in the reader's own
    writer.discardAfter(run, 0);
    QCOMPARE(writer.run(run).steps, int64_t(1));
    QCOMPARE(searchCount(reader, run, "きらめき商事"), kKirameki);
    QCOMPARE(searchCount(writer, run, "きらめき商事"), kKirameki);
    writeSteps(writer, run, 1, 4, "<answer>ひまわり電機</answer>");
    QCOMPARE(searchCount(reader, run, "きらめき商事"), kKirameki);
    QCOMPARE(searchCount(reader, run, "ひまわり電機"), 3 * kGroups * kGroup);
    writer.finishRun(run, RunStatus::Finished);
    QCOMPARE(writer.pendingIndexRows(), int64_t(0));
    QCOMPARE(count(reader, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき商事'"),
             int64_t(kKirameki));
    QCOMPARE(count(reader, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'ひまわり電機'"),
             int64_t(3 * kGroups * kGroup));
    writer.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) {
        return true;
    });
}

void TestRunStore::upgradeFromOlderVersions_data()
{
    QTest::addColumn<int>("version");
    QTest::newRow("version 1 (wave 1)") << 1;
    QTest::newRow("version 2") << 2;
    QTest::newRow("version 3") << 3;
    QTest::newRow("version 4") << 4;
    QTest::newRow("version 5") << 5;
    QTest::newRow("version 6") << 6;
    QTest::newRow("version 7") << 7;
    QTest::newRow("version 8") << 8;
}

void TestRunStore::upgradeFromOlderVersions()
{
    QFETCH(int, version);
    const std::string path = file("old.sqlite");
    sqlite3 *db = nullptr;
    if (version >= 2) {
        // A file as version 4 wrote it: version 5's schema without the judge decisions
        // (rollouts.reward NOT NULL is not forged). Version 3: also without the task
        // columns (the views, which name them, go too; the upgrade makes them again).
        // Version 2: also without rollouts.entropies.
        { RunStore created(path); }
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        // Version 8: without the run tags and the deleted runs' ids, and v_runs without its tags column.
        rawExec(db, "DROP VIEW v_runs; DROP TABLE run_tags; DROP TABLE deleted_runs");
        rawExec(db, kRunsViewVersion8);
        // Version 7: runs without the kind 'external' (the CHECK forged as 7 wrote it).
        if (version <= 7)
            rawExec(db, "PRAGMA writable_schema=ON; UPDATE sqlite_schema SET sql = replace(sql, ',''external''', '') "
                        "WHERE name = 'runs'; PRAGMA writable_schema=OFF");
        // Version 6: also without the preference pairs.
        if (version <= 6)
            rawExec(db, "DROP VIEW v_prm_labels; DROP VIEW v_prm_pairs; DROP TABLE prm_labels; DROP TABLE prm_pairs");
        // Version 5: also without the search trees, and runs without the kind 'mcts' (the
        // CHECK as version 5 wrote it, forged through the schema table).
        if (version <= 5) {
            rawExec(db, "DROP VIEW v_mcts_nodes; DROP VIEW v_mcts_trees; DROP TABLE mcts_iterations; "
                        "DROP TABLE mcts_nodes; DROP TABLE mcts_trees");
            rawExec(db, "PRAGMA writable_schema=ON; UPDATE sqlite_schema SET sql = replace(sql, ',''mcts''', '') "
                        "WHERE name = 'runs'; PRAGMA writable_schema=OFF");
        }
        if (version <= 4)
            rawExec(db, "DROP VIEW v_judge_decisions; DROP TABLE judge_decisions");
        if (version <= 3)
            rawExec(db, "DROP VIEW v_runs; DROP VIEW v_rollouts; DROP VIEW v_eval_predictions; "
                        "ALTER TABLE runs DROP COLUMN task; ALTER TABLE rollouts DROP COLUMN details_json; "
                        "ALTER TABLE eval_predictions DROP COLUMN details_json");
        if (version == 2)
            rawExec(db, "ALTER TABLE rollouts DROP COLUMN entropies");
        rawExec(db, ("PRAGMA user_version=" + std::to_string(version)).c_str());
    } else {
        // A file as version 1 wrote it: search indexes kept complete by triggers.
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        rawExec(db, "PRAGMA journal_mode=WAL");
        rawExec(db, kSchemaVersion1);
        rawExec(db, "PRAGMA user_version=1");
    }
    rawExec(db, "INSERT INTO runs(name, kind) VALUES ('old', 'grpo')");
    rawExec(db, "INSERT INTO steps(run_id, step) VALUES (1, 0), (1, 1)");
    rawExec(db, "INSERT INTO metrics(run_id, step, name, value) VALUES (1, 0, 'reward', 0.25), (1, 1, 'reward', 0.5), "
                "(1, 0, 'kl', 0.125), (1, 1, 'kl', NULL)");
    rawExec(db, "INSERT INTO prompts(run_id, prompt_id, text) VALUES (1, 'p0', 'ひまわり電機からのメール')");
    rawExec(db, "INSERT INTO rollouts(run_id, step, prompt, group_index, sample_index, completion, reward, advantage, "
                "completion_tokens, truncated) VALUES (1, 0, 1, 0, 0, '<answer>ひまわり電機</answer>', 1, 0.5, 5, 0), "
                "(1, 1, 1, 0, 1, '<answer>東和物産</answer>', 0, -0.5, 5, 0)");
    rawExec(db, "INSERT INTO eval_predictions(run_id, checkpoint_step, example_id, prediction, gold, correct) "
                "VALUES (1, 0, 'e0', 'ひまわり電機', 'ひまわり電機', 1)");
    if (version >= 2) // versions 2 and 3 index lazily: as their writer would have once caught up
        rawExec(db, "INSERT INTO prompts_fts(prompts_fts) VALUES ('rebuild'); "
                    "INSERT INTO rollouts_fts(rollouts_fts) VALUES ('rebuild'); "
                    "UPDATE search_progress SET indexed_id = 1 WHERE name = 'prompts'; "
                    "UPDATE search_progress SET indexed_id = 2 WHERE name = 'rollouts'");
    sqlite3_close(db);
    {
        // This build reads the old version as it is: rollouts without entropies or details,
        // every run an extraction run.
        const RunStore reader(path, RunStore::OpenMode::ReadOnly);
        QCOMPARE(reader.schemaVersion(), version);
        QVERIFY(reader.rollout(1).rollout.entropies.empty());
        QCOMPARE(reader.rollout(1).rollout.detailsJson, std::string("{}"));
        QCOMPARE(reader.stepRollouts(1, 1).at(0).rollout.detailsJson, std::string("{}"));
        QCOMPARE(reader.run(1).task, std::string("company_extraction"));
        QCOMPARE(reader.evalPredictions(1).at(0).prediction.detailsJson, std::string("{}"));
        QCOMPARE(reader.rollout(2).rollout.completion, std::string("<answer>東和物産</answer>"));
        QCOMPARE(reader.pendingIndexRows(), int64_t(0));
        QCOMPARE(searchCount(reader, 1, "ひまわり電機"), 1);
        QCOMPARE(searchCount(reader, 1, {}, "ひまわり電機"), 2);
        QCOMPARE(reader.metrics(1, "reward").size(), size_t(2));
        QVERIFY(reader.run(1).tags.empty()); // no tags before 9
        QCOMPARE(reader.runs().at(0).name, std::string("old"));
    }
    RunStore store(path); // upgrades
    QCOMPARE(store.schemaVersion(), Schema::kVersion);
    {
        // Version 9's tags work in the upgraded file, and v_runs has them at its end.
        QCOMPARE(text(store, "SELECT tags FROM v_runs WHERE run_id = 1"), std::string("[]"));
        store.setRunTags(1, {"old", "baseline"});
        QCOMPARE(store.run(1).tags, (std::vector<std::string>{"baseline", "old"}));
        QCOMPARE(text(store, "SELECT tags FROM v_runs WHERE run_id = 1"), std::string(R"(["baseline","old"])"));
        store.renameRun(1, "old, renamed");
        QCOMPARE(store.run(1).name, std::string("old, renamed"));
        store.renameRun(1, "old");
        const RunStore reader(path, RunStore::OpenMode::ReadOnly);
        QCOMPARE(reader.schemaVersion(), Schema::kVersion);
        QCOMPARE(reader.run(1).tags, (std::vector<std::string>{"baseline", "old"}));
        store.setRunTags(1, {});
    }
    {
        // Version 7's preference pairs work in the upgraded file.
        rwb::prm::StepPair p;
        p.set = "s";
        p.questionId = "q";
        p.question = "Q";
        p.stepA = "a";
        p.stepB = "b";
        std::vector<rwb::prm::StepPair> ps{p};
        QCOMPARE(store.addPairs(ps), size_t(1));
        QCOMPARE(count(store, "SELECT count(*) FROM v_prm_pairs"), int64_t(1));
        store.deletePairSet("s");
    }
    QCOMPARE(count(store, "PRAGMA user_version"), int64_t(Schema::kVersion));
    QCOMPARE(store.pendingIndexRows(), int64_t(0)); // what the old version indexed stays indexed
    QVERIFY(store.rollout(1).rollout.entropies.empty()); // old rows: none
    // Old runs are extraction runs; old rows have no details; the views have the new columns.
    QCOMPARE(store.run(1).task, std::string("company_extraction"));
    QCOMPARE(store.rollout(2).rollout.detailsJson, std::string("{}"));
    QCOMPARE(store.evalPredictions(1).at(0).prediction.detailsJson, std::string("{}"));
    QCOMPARE(count(store, "SELECT count(*) FROM v_runs WHERE task = 'company_extraction'"), int64_t(1));
    QCOMPARE(count(store, "SELECT count(*) FROM v_rollouts WHERE details_json = '{}' AND gold = ''"), int64_t(2));
    QCOMPARE(count(store, "SELECT count(*) FROM v_eval_predictions WHERE details_json = '{}' AND correct = 1"),
             int64_t(1));
    QCOMPARE(searchCount(store, 1, "ひまわり電機"), 1);
    QCOMPARE(searchCount(store, 1, {}, "ひまわり電機"), 2);
    const auto metrics = store.metrics(1);
    QCOMPARE(metrics.size(), size_t(4));
    QCOMPARE(metrics[0].name + metrics[1].name + metrics[2].name + metrics[3].name, std::string("klrewardklreward"));
    QCOMPARE(metrics[0].value, 0.125);
    QCOMPARE(metrics[3].value, 0.5);
    QVERIFY(std::isnan(metrics[2].value));
    QCOMPARE(count(store, "SELECT count(*) FROM v_metrics WHERE run_id = 1 AND name = 'reward' AND step = 1 AND "
                          "value = 0.5"),
             int64_t(1));
    // Written after the upgrade: not indexed by the write, found by a search.
    Rollout r = makeRollout(2, 0, 0);
    r.promptId = "p0";
    r.completion = "送信者はひまわり電機です";
    r.detailsJson = R"({"citations":[3]})";
    Rollout none = makeRollout(2, 0, 1);
    none.promptId = "p0";
    none.reward = std::numeric_limits<double>::quiet_NaN(); // None: needs the rebuilt column
    store.writeStep(1, 2, {{"reward", 1.0}}, {r, none});
    QCOMPARE(count(store, "SELECT count(*) FROM v_rollouts WHERE json_extract(details_json, '$.citations[0]') = 3"),
             int64_t(1));
    const int64_t next = store.beginRun("legal", RunKind::Grpo, "{}", "legal_qa");
    QCOMPARE(store.run(next).task, std::string("legal_qa"));
    QCOMPARE(count(store, "SELECT count(*) FROM v_runs WHERE task = 'legal_qa'"), int64_t(1));
    // The rebuilt runs table takes tree searches, and keeps its rows and their ids.
    QCOMPARE(count(store, "SELECT count(*) FROM sqlite_schema WHERE name = 'runs' AND sql LIKE '%''mcts''%'"),
             int64_t(1));
    const int64_t search = store.beginRun("search", RunKind::Mcts, "{}", "multihop");
    QCOMPARE(store.run(search).kind, std::string("mcts"));
    // … and, since 8, other trainers' runs.
    QCOMPARE(count(store, "SELECT count(*) FROM sqlite_schema WHERE name = 'runs' AND sql LIKE '%''external''%'"),
             int64_t(1));
    const int64_t external = store.beginRun("verl", RunKind::External, "{}", "multihop");
    QCOMPARE(store.run(external).kind, std::string("external"));
    QCOMPARE(count(store, "SELECT count(*) FROM v_runs WHERE kind = 'external'"), int64_t(1));
    QCOMPARE(store.run(1).name, std::string("old"));
    QVERIFY(store.mctsTrees(search).empty());
    QCOMPARE(store.pendingIndexRows(), int64_t(2));
    // New rows keep their entropies: 0, 0.25, 0.5, … as makeRollout() wrote them.
    const auto written = store.stepRollouts(1, 2);
    QCOMPARE(written.size(), size_t(2));
    QVERIFY(std::isnan(written[1].rollout.reward)); // stored as NULL after the upgrade
    const std::vector<float> entropies = store.rollout(written[0].id).rollout.entropies;
    QCOMPARE(entropies.size(), size_t(kTokens));
    QCOMPARE(entropies[0], 0.0f);
    QCOMPARE(entropies[1], 0.25f);
    QCOMPARE(entropies[3], 0.75f);
    const RunStore reader(path, RunStore::OpenMode::ReadOnly);
    QCOMPARE(searchCount(reader, 1, "ひまわり電機"), 2);
    QCOMPARE(searchCount(store, 1, "ひまわり電機"), 2);
    // Deleting rows the old version indexed keeps the index right.
    store.query("DELETE FROM runs WHERE id = 1", [](auto &, auto &) { return true; });
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'ひまわり'"), int64_t(0));
    QCOMPARE(count(store, "SELECT count(*) FROM prompts_fts WHERE prompts_fts MATCH 'ひまわり'"), int64_t(0));
    store.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) {
        return true;
    });
    QCOMPARE(store.integrityCheck(), std::string("ok"));
}

void TestRunStore::renameAndTags()
{
    const std::string path = file("tags.sqlite");
    RunStore store(path);
    const int64_t a = store.beginRun("grpo-a", RunKind::Grpo, "{}", "company_extraction");
    const int64_t b = store.beginRun("grpo-b", RunKind::Grpo, "{}", "company_extraction");
    QVERIFY(store.run(a).tags.empty());

    // Renamed: seen by runs(), run(), v_runs and a second connection; the other run as it was.
    store.renameRun(a, "lr 1e-5, β=0.04 (baseline)");
    QCOMPARE(store.runs().at(0).name, std::string("lr 1e-5, β=0.04 (baseline)"));
    QCOMPARE(store.runs().at(1).name, std::string("grpo-b"));
    QCOMPARE(text(store, "SELECT name FROM v_runs WHERE run_id = " + std::to_string(a)),
             std::string("lr 1e-5, β=0.04 (baseline)"));
    QCOMPARE(RunStore(path, RunStore::OpenMode::ReadOnly).run(a).name, std::string("lr 1e-5, β=0.04 (baseline)"));
    // A blank name or an unknown run: refused, nothing changed.
    QVERIFY_THROWS_EXCEPTION(StoreError, store.renameRun(a, " \t"));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.renameRun(999, "x"));
    QCOMPARE(store.run(a).name, std::string("lr 1e-5, β=0.04 (baseline)"));

    // Tags: trimmed, each once, in byte order (ASCII before kana); the JSON array in v_runs.
    store.setRunTags(a, {" sweep ", "ベースライン", "lr=1e-5", "sweep"});
    const std::vector<std::string> expected{"lr=1e-5", "sweep", "ベースライン"};
    QCOMPARE(store.run(a).tags, expected);
    QCOMPARE(store.runs().at(0).tags, expected);
    QVERIFY(store.runs().at(1).tags.empty());
    QCOMPARE(text(store, "SELECT tags FROM v_runs WHERE run_id = " + std::to_string(a)),
             std::string(R"(["lr=1e-5","sweep","ベースライン"])"));
    QCOMPARE(count(store, "SELECT count(*) FROM run_tags"), int64_t(3));
    store.setRunTags(b, {"sweep"});
    QCOMPARE(count(store, "SELECT count(*) FROM v_runs WHERE EXISTS (SELECT 1 FROM json_each(tags) WHERE value = "
                          "'sweep')"),
             int64_t(2));
    // Replaced, not added to.
    store.setRunTags(a, {"best"});
    QCOMPARE(store.run(a).tags, std::vector<std::string>{"best"});
    // A tag with a comma, a control character or nothing in it: refused, the tags kept.
    for (const std::string bad : {"a,b", "", "  ", "line\nbreak"}) {
        QVERIFY_THROWS_EXCEPTION(StoreError, store.setRunTags(a, {"fine", bad}));
        QCOMPARE(store.run(a).tags, std::vector<std::string>{"best"});
    }
    QVERIFY_THROWS_EXCEPTION(StoreError, store.setRunTags(999, {"x"}));
    store.setRunTags(a, {});
    QVERIFY(store.run(a).tags.empty());
    QCOMPARE(store.run(b).tags, std::vector<std::string>{"sweep"});
    // Read-only: nothing can be written.
    RunStore reader(path, RunStore::OpenMode::ReadOnly);
    QVERIFY_THROWS_EXCEPTION(StoreError, reader.renameRun(a, "x"));
    QVERIFY_THROWS_EXCEPTION(StoreError, reader.setRunTags(a, {"x"}));
    QVERIFY_THROWS_EXCEPTION(StoreError, reader.deleteRun(a));
}

void TestRunStore::deleteRun()
{
    const std::string path = file("delete.sqlite");
    RunStore store(path);
    const int64_t a = store.beginRun("doomed", RunKind::Grpo, R"({"lr":1e-5})", "company_extraction");
    fillRun(store, a, "ひまわり電機の田中です");
    const int64_t b = store.beginRun("kept", RunKind::Grpo, R"({"lr":2e-5})", "company_extraction");
    fillRun(store, b, "東和物産の佐藤です");
    store.finishRun(a, RunStatus::Finished);
    store.finishRun(b, RunStatus::Finished);

    // What a confirmation names, counted by hand (fillRun()).
    const RunContents c = store.runContents(a);
    QCOMPARE(c.steps, kFilledSteps);
    QCOMPARE(c.metrics, kFilledMetrics);
    QCOMPARE(c.rollouts, kFilledRollouts);
    QCOMPARE(c.prompts, kFilledPrompts);
    QCOMPARE(c.rewardConfigs, kFilledRewardConfigs);
    QCOMPARE(c.checkpoints, kFilledCheckpoints);
    QCOMPARE(c.evalPredictions, kFilledPredictions);
    QCOMPARE(c.judgeDecisions, kFilledDecisions);
    QCOMPARE(c.searchTrees, kFilledTrees);
    QVERIFY2(c.secondsSinceWrite >= 0.0 && c.secondsSinceWrite < 60.0, qPrintable(QString::number(c.secondsSinceWrite)));
    QVERIFY_THROWS_EXCEPTION(StoreError, store.runContents(999));

    // Every table that has a run_id column, as this schema has them: a new one must be
    // added to deleteRun() (and here).
    std::vector<std::string> tables;
    store.query("SELECT m.name FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table' AND "
                "p.name = 'run_id' ORDER BY m.name",
                [&](auto &, const std::vector<SqlValue> &v) {
                    tables.push_back(v[0].bytes);
                    return true;
                });
    QCOMPARE(tables, (std::vector<std::string>{"checkpoints", "eval_predictions", "judge_decisions", "mcts_trees",
                                               "metrics", "prompts", "reward_configs", "rollouts", "run_tags",
                                               "steps"}));
    const std::map<std::string, int64_t> perRun{
        {"checkpoints", kFilledCheckpoints}, {"eval_predictions", kFilledPredictions},
        {"judge_decisions", kFilledDecisions}, {"mcts_trees", kFilledTrees}, {"metrics", kFilledMetrics},
        {"prompts", kFilledPrompts}, {"reward_configs", kFilledRewardConfigs}, {"rollouts", kFilledRollouts},
        {"run_tags", kFilledTags}, {"steps", kFilledSteps}};
    const auto rowsOf = [&](const std::string &table, int64_t run) {
        return count(store, "SELECT count(*) FROM " + table + " WHERE run_id = " + std::to_string(run));
    };
    const auto treeRowsOf = [&](const char *table, int64_t run) {
        return count(store, std::string("SELECT count(*) FROM ") + table +
                                " WHERE tree_id IN (SELECT id FROM mcts_trees WHERE run_id = " + std::to_string(run) + ")");
    };
    for (const std::string &t : tables) {
        QCOMPARE(rowsOf(t, a), perRun.at(t));
        QCOMPARE(rowsOf(t, b), perRun.at(t));
    }
    QCOMPARE(treeRowsOf("mcts_nodes", a), kFilledNodes);
    QCOMPARE(treeRowsOf("mcts_iterations", a), kFilledIterations);
    store.indexPending(); // a's rows in the file's search index: the delete must take them out
    QCOMPARE(searchCount(store, a, "ひまわり電機"), int(kFilledRollouts));
    const int64_t treeOfA = count(store, "SELECT id FROM mcts_trees WHERE run_id = " + std::to_string(a));

    store.deleteRun(a);

    // a: no row left anywhere; b: every row as it was.
    QCOMPARE(store.runs().size(), size_t(1));
    QCOMPARE(store.runs().at(0).id, b);
    QVERIFY_THROWS_EXCEPTION(StoreError, store.run(a));
    for (const std::string &t : tables) {
        QCOMPARE(rowsOf(t, a), int64_t(0));
        QCOMPARE(rowsOf(t, b), perRun.at(t));
    }
    QCOMPARE(count(store, "SELECT count(*) FROM mcts_nodes WHERE tree_id = " + std::to_string(treeOfA)), int64_t(0));
    QCOMPARE(count(store, "SELECT count(*) FROM mcts_iterations WHERE tree_id = " + std::to_string(treeOfA)), int64_t(0));
    QCOMPARE(treeRowsOf("mcts_nodes", b), kFilledNodes);
    QCOMPARE(treeRowsOf("mcts_iterations", b), kFilledIterations);
    QCOMPARE(count(store, "SELECT count(*) FROM v_runs"), int64_t(1));
    // The preference pair made from a's tree stays, without its tree; b's keeps its tree.
    QCOMPARE(count(store, "SELECT count(*) FROM prm_pairs"), int64_t(2));
    QCOMPARE(count(store, "SELECT count(*) FROM v_prm_pairs WHERE tree_id IS NULL AND run_id IS NULL"), int64_t(1));
    QCOMPARE(count(store, "SELECT count(*) FROM v_prm_pairs WHERE run_id = " + std::to_string(b)), int64_t(1));
    // The search index lost a's texts and kept b's.
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'ひまわり電機'"), int64_t(0));
    QCOMPARE(searchCount(store, b, "東和物産"), int(kFilledRollouts));
    QCOMPARE(searchCount(RunStore(path, RunStore::OpenMode::ReadOnly), b, "東和物産"), int(kFilledRollouts));
    store.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) { return true; });
    store.query("INSERT INTO prompts_fts(prompts_fts) VALUES ('integrity-check')", [](auto &, auto &) { return true; });
    QCOMPARE(store.integrityCheck(), std::string("ok"));
    QCOMPARE(count(store, "SELECT count(*) FROM pragma_foreign_key_check"), int64_t(0));

    // Gone: deleting it again says so. A new run starts empty.
    QVERIFY_THROWS_EXCEPTION(StoreError, store.deleteRun(a));
    const int64_t next = store.beginRun("next", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, next, 0, 1);
    QCOMPARE(count(store, "SELECT count(*) FROM v_rollouts WHERE run_id = " + std::to_string(next)),
             int64_t(kGroups * kGroup));
    QVERIFY(store.run(next).tags.empty());
    // A deleted run's id is never given again, not even the newest's: a checkpoint or a
    // window that names it cannot reach another run (ids 1, 2, 3 given; 3 deleted → 4).
    QCOMPARE(next, b + 1);
    store.finishRun(next, RunStatus::Finished);
    store.deleteRun(next);
    QCOMPARE(store.beginRun("after", RunKind::Grpo, "{}", "company_extraction"), next + 1);
    QCOMPARE(RunStore(path).beginRun("reopened", RunKind::Grpo, "{}", "company_extraction"), next + 2);

    // A run bigger than one batch (400 steps: 4,800 rollouts, 1,200 prompts; batches of
    // 2,000 rows): every row goes, the other run's stay, the search index stays whole.
    const int64_t big = store.beginRun("big", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, big, 0, 400);
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE run_id = " + std::to_string(big)),
             int64_t(400 * kGroups * kGroup));
    QVERIFY(400 * kGroups * kGroup > 2 * RunStore::kDeleteBatch);
    store.finishRun(big, RunStatus::Finished);
    store.deleteRun(big);
    for (const char *t : {"rollouts", "prompts", "steps", "metrics"})
        QCOMPARE(count(store, std::string("SELECT count(*) FROM ") + t + " WHERE run_id = " + std::to_string(big)), int64_t(0));
    QCOMPARE(searchCount(store, b, "東和物産"), int(kFilledRollouts));
    store.query("INSERT INTO rollouts_fts(rollouts_fts) VALUES ('integrity-check')", [](auto &, auto &) { return true; });
    QCOMPARE(store.integrityCheck(), std::string("ok"));
}

void TestRunStore::deleteRunningRun()
{
    const std::string path = file("running.sqlite");
    RunStore store(path);
    const auto exec = [&](const std::string &sql) { store.query(sql, [](auto &, auto &) { return true; }); };
    const int64_t live = store.beginRun("live", RunKind::Grpo, "{}", "company_extraction");
    writeSteps(store, live, 0, 1);
    // Running and written just now: refused with a message that says why; nothing deleted.
    try {
        store.deleteRun(live);
        QFAIL("a running run was deleted");
    } catch (const StoreError &e) {
        const std::string what = e.what();
        QVERIFY2(what.find(path) != std::string::npos && what.find("running") != std::string::npos, e.what());
    }
    QCOMPARE(store.runs().size(), size_t(1));
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts"), int64_t(kGroups * kGroup));

    // Its last write long ago (created 2000-01-01, its step 2000-01-02, UTC): stale. The
    // idle time is from the newest of them to now (±5 s).
    exec("UPDATE runs SET created = '2000-01-01T00:00:00.000Z'");
    exec("UPDATE steps SET written = '2000-01-02T00:00:00.000Z'");
    const double expected = static_cast<double>(
        QDateTime(QDate(2000, 1, 2), QTime(0, 0), QTimeZone::utc()).secsTo(QDateTime::currentDateTimeUtc()));
    QVERIFY2(std::abs(store.runContents(live).secondsSinceWrite - expected) < 5.0,
             qPrintable(QString::number(store.runContents(live).secondsSinceWrite, 'f', 1) + " vs " +
                        QString::number(expected, 'f', 1)));
    // … but a checkpoint written now is a write: not stale.
    store.addCheckpoint(live, 0, "/tmp/checkpoint");
    QVERIFY(store.runContents(live).secondsSinceWrite < 60.0);
    QVERIFY_THROWS_EXCEPTION(StoreError, store.deleteRun(live));
    exec("UPDATE checkpoints SET created = '2000-01-03T00:00:00.000Z'");
    // A staleness longer than its idle time: still refused. The default's: deleted.
    QVERIFY_THROWS_EXCEPTION(StoreError, store.deleteRun(live, /*staleAfterSeconds=*/int64_t(expected) + 86400));
    QCOMPARE(store.runs().size(), size_t(1));
    store.deleteRun(live);
    QVERIFY(store.runs().empty());
    QCOMPARE(count(store, "SELECT count(*) FROM rollouts"), int64_t(0));

    // 0: any running run may go. A finished one goes however recent.
    const int64_t forced = store.beginRun("forced", RunKind::Grpo, "{}", "company_extraction");
    store.deleteRun(forced, /*staleAfterSeconds=*/0);
    const int64_t done = store.beginRun("done", RunKind::Eval, "{}", "company_extraction");
    store.finishRun(done, RunStatus::Failed, "killed");
    store.deleteRun(done);
    QVERIFY(store.runs().empty());
}

QTEST_APPLESS_MAIN(TestRunStore)
#include "tst_runstore.moc"
