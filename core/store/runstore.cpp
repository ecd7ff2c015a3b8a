#include "store/runstore.h"
#include "store/runstoreimpl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include "store/blobcodec.h"
#include "store/schema.h"
#include "store/searchindex.h"
#include "store/storeerror.h"

#include <sqlite3.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace rwb::store {

namespace {

// How long a connection waits for another writer's lock before failing (ms). Readers in
// WAL mode never wait for the writer; this covers two writers and schema creation.
constexpr int kBusyTimeoutMs = 10000;
// The WAL file is truncated back to this size after a checkpoint (bytes).
constexpr int64_t kJournalSizeLimit = 64 * 1024 * 1024;
// The writer's page cache (KiB): the indexes' hot pages stay in memory between steps.
constexpr int kWriterCacheKiB = 64 * 1024;
// Pages in the WAL before an automatic checkpoint (default 1000): fewer checkpoints
// copy the same hot index pages into the database less often.
constexpr int kAutoCheckpointPages = 8192;

// A per-token array as a BLOB: the vector's own bytes on little-endian hosts (no copy),
// otherwise the encoded copy kept in `scratch`.
template <typename T>
std::string_view blobView(const std::vector<T> &v, std::string &scratch)
{
    if constexpr (std::endian::native == std::endian::little) {
        return {reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T)};
    } else {
        scratch = BlobCodec::encode(v);
        return scratch;
    }
}

} // namespace


namespace {

const char *opSql(ComponentCondition::Op op)
{
    switch (op) {
    case ComponentCondition::Op::Less: return "<";
    case ComponentCondition::Op::LessEqual: return "<=";
    case ComponentCondition::Op::Greater: return ">";
    case ComponentCondition::Op::GreaterEqual: return ">=";
    case ComponentCondition::Op::Equal: return "=";
    case ComponentCondition::Op::NotEqual: return "<>";
    }
    return "<";
}

// Binds and runs one judge decision (a prepared insertDecision statement).
void insertJudgeDecision(Statement &q, int64_t runId, int64_t step, int64_t rolloutId, const std::string &exampleId,
                         const judge::Decision &d)
{
    q.bind(1, runId);
    q.bind(2, step);
    if (rolloutId > 0)
        q.bind(3, rolloutId);
    else
        q.bindNull(3);
    q.bindText(4, exampleId);
    q.bindText(5, d.reward);
    q.bindText(6, d.part);
    q.bindText(7, d.backend);
    q.bindText(8, d.request);
    q.bindText(9, d.reply);
    q.bindText(10, d.verdict);
    q.bindText(11, d.error);
    if (std::isnan(d.value))
        q.bindNull(12);
    else
        q.bind(12, d.value);
    q.bind(13, d.latencySeconds);
    q.bind(14, d.promptTokens);
    q.bind(15, d.completionTokens);
    q.bind(16, d.cost);
    q.bind(17, d.cacheHit ? 1 : 0);
    q.bind(18, d.attempts);
    q.run();
}

constexpr const char *kInsertDecision =
    "INSERT INTO judge_decisions(run_id, step, rollout_id, example_id, reward, part, backend, request, reply, verdict, "
    "error, value, latency, prompt_tokens, completion_tokens, cost, cache_hit, attempts) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

// The columns every rollout listing reads, in the order readSummary() expects, for a file
// of schema `version` (a file before version 4 read as it is has no details_json).
std::string rolloutColumns(int version)
{
    return std::string("r.id, r.run_id, r.step, p.prompt_id, r.group_index, r.sample_index, r.completion, r.answer, "
                       "r.reward, r.rewards_json, r.advantage, r.completion_tokens, r.truncated, p.text, p.gold, ") +
           (version >= 4 ? "r.details_json" : "'{}'");
}

StoredRollout readSummary(const Statement &s)
{
    StoredRollout out;
    out.id = s.columnInt(0);
    out.runId = s.columnInt(1);
    out.step = s.columnInt(2);
    Rollout &r = out.rollout;
    r.promptId = s.columnText(3);
    r.groupIndex = static_cast<int>(s.columnInt(4));
    r.sampleIndex = static_cast<int>(s.columnInt(5));
    r.completion = s.columnText(6);
    r.answer = s.columnText(7);
    r.reward = s.isNull(8) ? std::numeric_limits<double>::quiet_NaN() : s.columnDouble(8); // NULL: None
    r.rewardsJson = s.columnText(9);
    r.advantage = s.columnDouble(10);
    r.completionTokens = static_cast<int>(s.columnInt(11));
    r.truncated = s.columnInt(12) != 0;
    out.prompt = s.columnText(13);
    out.gold = s.columnText(14);
    r.detailsJson = s.columnText(15);
    return out;
}

} // namespace

RunStore::RunStore(const std::string &path, OpenMode mode) : d(std::make_unique<Impl>())
{
    d->path = path;
    d->readOnly = mode == OpenMode::ReadOnly;
    sqlite::Connection::Options options;
    options.busyTimeoutMs = kBusyTimeoutMs;
    options.openContext = d->readOnly ? "cannot open the run store for reading" : "cannot open or create the run store";
    d->connection = std::make_unique<sqlite::Connection>(
        path, d->readOnly ? sqlite::Connection::Mode::ReadOnly : sqlite::Connection::Mode::Create, options);
    d->db = d->connection->handle();

    {
        // Reading the header is the first access: a file that is not SQLite fails here.
        d->version = static_cast<int>(d->scalarInt("PRAGMA user_version"));
        if (d->version > Schema::kVersion)
            throw StoreError(path, "the run store was written by a newer version of Reward Workbench (schema " +
                                       std::to_string(d->version) + "; this build reads up to " +
                                       std::to_string(Schema::kVersion) + ")");
        if (!d->readOnly) {
            Statement wal(d->db, "PRAGMA journal_mode=WAL", path);
            if (!wal.step() || wal.columnText(0) != "wal")
                throw StoreError(path, "cannot switch the run store to WAL mode");
            d->exec("PRAGMA synchronous=NORMAL", "cannot set synchronous=NORMAL");
            d->exec(("PRAGMA journal_size_limit=" + std::to_string(kJournalSizeLimit)).c_str(),
                    "cannot set the journal size limit");
            d->exec(("PRAGMA cache_size=-" + std::to_string(kWriterCacheKiB)).c_str(), "cannot set the cache size");
            d->exec(("PRAGMA wal_autocheckpoint=" + std::to_string(kAutoCheckpointPages)).c_str(),
                    "cannot set the checkpoint interval");
        } else {
            d->exec("PRAGMA query_only=ON", "cannot make the connection read-only");
        }
        if (d->version == 0) {
            if (d->readOnly)
                throw StoreError(path, "not a run store (no schema); open it for writing once to create one");
            Transaction t(d->db, d->path);
            // Checked again inside the lock: another process may have created it meanwhile.
            d->version = static_cast<int>(d->scalarInt("PRAGMA user_version"));
            if (d->version == 0) {
                if (d->scalarInt("SELECT count(*) FROM sqlite_schema") != 0)
                    throw StoreError(path, "not a run store: an SQLite database with other tables and no "
                                           "run-store schema version");
                d->exec(Schema::createSql().c_str(), "cannot create the run-store schema");
                d->exec(("PRAGMA user_version=" + std::to_string(Schema::kVersion)).c_str(),
                        "cannot set the schema version");
                d->version = Schema::kVersion;
            }
            t.commit();
        }
        if (d->version < Schema::kVersion && !d->readOnly) {
            Transaction t(d->db, d->path);
            // Checked again inside the lock: another process may have upgraded it meanwhile.
            d->version = static_cast<int>(d->scalarInt("PRAGMA user_version"));
            if (d->version < Schema::kVersion) {
                d->exec(Schema::upgradeSql(d->version).c_str(),
                        ("cannot upgrade the run store from schema " + std::to_string(d->version)).c_str());
                d->exec(("PRAGMA user_version=" + std::to_string(Schema::kVersion)).c_str(),
                        "cannot set the schema version");
                d->version = Schema::kVersion;
            }
            t.commit();
        }
    }
    // Foreign keys only after an upgrade: one rebuilds a referenced table (runs, 5 → 6),
    // and dropping it with them on would cascade into every table that refers to it.
    if (!d->readOnly)
        d->exec("PRAGMA foreign_keys=ON", "cannot turn on foreign keys");
    d->search = std::make_unique<SearchIndex>(d->db, d->path, d->readOnly, /*lazy=*/d->version >= 2);
}

RunStore::~RunStore() = default;

const std::string &RunStore::path() const { return d->path; }
bool RunStore::readOnly() const { return d->readOnly; }
int RunStore::schemaVersion() const { return d->version; }

int64_t RunStore::beginRun(const std::string &name, RunKind kind, const std::string &configJson, const std::string &task)
{
    d->requireWritable("begin a run");
    // Above every id ever given: a deleted run's id is not given again (deleted_runs).
    Statement s(d->db,
                "INSERT INTO runs(id, name, kind, config_json, task) VALUES (max(coalesce((SELECT max(id) FROM runs), 0), "
                "coalesce((SELECT max(id) FROM deleted_runs), 0)) + 1, ?, ?, ?, ?)",
                d->path);
    s.bindText(1, name);
    s.bindText(2, toString(kind));
    s.bindText(3, configJson.empty() ? std::string_view("{}") : std::string_view(configJson));
    s.bindText(4, task);
    s.run();
    return sqlite3_last_insert_rowid(d->db);
}

void RunStore::writeStep(int64_t runId, int64_t step, const std::vector<Metric> &metrics,
                         const std::vector<Rollout> &rollouts, const std::vector<Prompt> &prompts)
{
    d->requireWritable("write a step");
    const std::string where = "cannot write step " + std::to_string(step) + " of run " + std::to_string(runId);
    for (size_t i = 0; i < rollouts.size(); ++i) {
        const Rollout &r = rollouts[i];
        const size_t n = r.tokenIds.size();
        for (const auto *a : {&r.logprobsOld, &r.logprobsNew, &r.logprobsRef, &r.advantages, &r.entropies})
            if (!a->empty() && a->size() != n)
                throw StoreError(d->path, where, "rollout " + std::to_string(i) + " has a per-token array of " +
                                                     std::to_string(a->size()) + " values for " +
                                                     std::to_string(n) + " token ids");
    }
    std::unordered_map<std::string, int64_t> added;
    try {
        Transaction t(d->db, d->path);
        Statement &dataVersion = d->prepared(d->dataVersion, "PRAGMA data_version");
        const int64_t version = dataVersion.step() ? dataVersion.columnInt(0) : -1;
        dataVersion.reset();
        if (version != d->promptIdsVersion) {
            d->promptIds.clear();
            d->promptIdsVersion = version;
        }
        auto &known = d->promptIds[runId];
        Statement &insertStep = d->prepared(d->insertStep, "INSERT INTO steps(run_id, step) VALUES (?, ?)");
        insertStep.bind(1, runId);
        insertStep.bind(2, step);
        insertStep.run();

        Statement &insertMetric =
            d->prepared(d->insertMetric, "INSERT INTO metrics(run_id, step, name, value) VALUES (?, ?, ?, ?)");
        for (const Metric &m : metrics) {
            insertMetric.bind(1, runId);
            insertMetric.bind(2, step);
            insertMetric.bindText(3, m.name);
            if (m.value == m.value)
                insertMetric.bind(4, m.value);
            else
                insertMetric.bindNull(4); // SQLite has no NaN: stored as NULL
            insertMetric.run();
        }

        Statement &insertPrompt = d->prepared(
            d->insertPrompt, "INSERT INTO prompts(run_id, prompt_id, text, gold, meta_json) VALUES (?, ?, ?, ?, ?) "
                             "ON CONFLICT(run_id, prompt_id) DO NOTHING");
        Statement &findPrompt =
            d->prepared(d->findPrompt, "SELECT id FROM prompts WHERE run_id = ? AND prompt_id = ?");
        auto lookup = [&](const std::string &promptId) -> int64_t {
            if (auto it = known.find(promptId); it != known.end())
                return it->second;
            if (auto it = added.find(promptId); it != added.end())
                return it->second;
            findPrompt.bind(1, runId);
            findPrompt.bindText(2, promptId);
            const int64_t id = findPrompt.step() ? findPrompt.columnInt(0) : 0;
            findPrompt.reset();
            if (id != 0)
                added.emplace(promptId, id);
            return id;
        };
        for (const Prompt &p : prompts) {
            if (lookup(p.promptId) != 0)
                continue;
            insertPrompt.bind(1, runId);
            insertPrompt.bindText(2, p.promptId);
            insertPrompt.bindText(3, p.text);
            insertPrompt.bindText(4, p.gold);
            insertPrompt.bindText(5, p.metaJson.empty() ? std::string_view("{}") : std::string_view(p.metaJson));
            insertPrompt.run();
            added.emplace(p.promptId, sqlite3_last_insert_rowid(d->db));
        }

        Statement &insertRollout = d->prepared(
            d->insertRollout,
            "INSERT INTO rollouts(run_id, step, prompt, group_index, sample_index, completion, answer, token_ids, "
            "logprobs_old, logprobs_new, logprobs_ref, token_advantages, reward, rewards_json, advantage, "
            "completion_tokens, truncated, entropies, details_json) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        std::string scratch[6];
        for (const Rollout &r : rollouts) {
            const int64_t prompt = lookup(r.promptId);
            if (prompt == 0)
                throw StoreError(d->path, where,
                                 "a rollout names prompt \"" + r.promptId + "\", which was never given for this run");
            insertRollout.bind(1, runId);
            insertRollout.bind(2, step);
            insertRollout.bind(3, prompt);
            insertRollout.bind(4, r.groupIndex);
            insertRollout.bind(5, r.sampleIndex);
            insertRollout.bindText(6, r.completion);
            insertRollout.bindText(7, r.answer);
            insertRollout.bindBlob(8, blobView(r.tokenIds, scratch[0]));
            insertRollout.bindBlob(9, blobView(r.logprobsOld, scratch[1]));
            insertRollout.bindBlob(10, blobView(r.logprobsNew, scratch[2]));
            insertRollout.bindBlob(11, blobView(r.logprobsRef, scratch[3]));
            insertRollout.bindBlob(12, blobView(r.advantages, scratch[4]));
            if (std::isnan(r.reward))
                insertRollout.bindNull(13); // None: a judge failed
            else
                insertRollout.bind(13, r.reward);
            insertRollout.bindText(14, r.rewardsJson.empty() ? std::string_view("{}") : std::string_view(r.rewardsJson));
            insertRollout.bind(15, r.advantage);
            insertRollout.bind(16, r.completionTokens);
            insertRollout.bind(17, r.truncated ? 1 : 0);
            insertRollout.bindBlob(18, blobView(r.entropies, scratch[5]));
            insertRollout.bindText(19, r.detailsJson.empty() ? std::string_view("{}") : std::string_view(r.detailsJson));
            insertRollout.run();
            if (!r.judgeDecisions.empty()) {
                const int64_t rolloutId = sqlite3_last_insert_rowid(d->db);
                Statement &insertDecision = d->prepared(d->insertDecision, kInsertDecision);
                for (const judge::Decision &jd : r.judgeDecisions)
                    insertJudgeDecision(insertDecision, runId, step, rolloutId, "", jd);
            }
        }
        t.commit();
    } catch (const StoreError &e) {
        for (auto *s : {&d->insertStep, &d->insertMetric, &d->insertPrompt, &d->findPrompt, &d->insertRollout,
                        &d->insertDecision, &d->dataVersion})
            if (*s)
                (*s)->reset();
        if (e.what() == d->path + ": " + where + ": " + e.sqliteMessage())
            throw;
        throw StoreError(d->path, where, e.sqliteMessage().empty() ? e.what() : e.sqliteMessage());
    }
    // Only now are the new prompts known to exist.
    d->promptIds[runId].merge(added);
}

void RunStore::recordRewardConfig(int64_t runId, int64_t step, const std::string &configJson)
{
    d->requireWritable("record a reward config");
    Statement s(d->db, "INSERT OR REPLACE INTO reward_configs(run_id, step, config_json) VALUES (?, ?, ?)", d->path);
    s.bind(1, runId);
    s.bind(2, step);
    s.bindText(3, configJson);
    s.run();
}

void RunStore::addCheckpoint(int64_t runId, int64_t step, const std::string &path)
{
    d->requireWritable("add a checkpoint");
    Statement s(d->db, "INSERT OR REPLACE INTO checkpoints(run_id, step, path) VALUES (?, ?, ?)", d->path);
    s.bind(1, runId);
    s.bind(2, step);
    s.bindText(3, path);
    s.run();
}

void RunStore::writeEvalPredictions(int64_t runId, int64_t checkpointStep,
                                    const std::vector<EvalPrediction> &predictions)
{
    d->requireWritable("write evaluation predictions");
    Transaction t(d->db, d->path);
    Statement s(d->db,
                "INSERT OR REPLACE INTO eval_predictions(run_id, checkpoint_step, example_id, prediction, gold, "
                "correct, rewards_json, details_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                d->path);
    for (const EvalPrediction &p : predictions) {
        s.bind(1, runId);
        s.bind(2, checkpointStep);
        s.bindText(3, p.exampleId);
        s.bindText(4, p.prediction);
        s.bindText(5, p.gold);
        s.bind(6, p.correct ? 1 : 0);
        s.bindText(7, p.rewardsJson.empty() ? std::string_view("{}") : std::string_view(p.rewardsJson));
        s.bindText(8, p.detailsJson.empty() ? std::string_view("{}") : std::string_view(p.detailsJson));
        s.run();
        if (d->version >= 5) {
            // The prediction replaced an earlier one of this checkpoint: so do its decisions.
            Statement del(d->db,
                          "DELETE FROM judge_decisions WHERE run_id = ? AND step = ? AND rollout_id IS NULL "
                          "AND example_id = ?",
                          d->path);
            del.bind(1, runId);
            del.bind(2, checkpointStep);
            del.bindText(3, p.exampleId);
            del.run();
            if (!p.judgeDecisions.empty()) {
                Statement ins(d->db, kInsertDecision, d->path);
                for (const judge::Decision &jd : p.judgeDecisions)
                    insertJudgeDecision(ins, runId, checkpointStep, 0, p.exampleId, jd);
            }
        }
    }
    t.commit();
}

int64_t RunStore::writeMctsTree(int64_t runId, const mcts::SearchRecord &r, int64_t treeId)
{
    d->requireWritable("write a search tree");
    const std::string where = "cannot write the search tree of question " + r.questionId;
    if (d->version < 6)
        throw StoreError(d->path, where, "the store's schema predates search trees (open it for writing to upgrade)");
    const mcts::TreeSummary sum = mcts::summarize(r);
    Transaction t(d->db, d->path);
    if (treeId == 0) {
        Statement s(d->db, "INSERT INTO mcts_trees(run_id, question_id, question, gold) VALUES (?, ?, ?, ?)", d->path);
        s.bind(1, runId);
        s.bindText(2, r.questionId);
        s.bindText(3, r.question);
        s.bindText(4, r.goldAnswer);
        s.run();
        treeId = sqlite3_last_insert_rowid(d->db);
    } else {
        for (const char *sql : {"DELETE FROM mcts_nodes WHERE tree_id = ?", "DELETE FROM mcts_iterations WHERE tree_id = ?"}) {
            Statement s(d->db, sql, d->path);
            s.bind(1, treeId);
            s.run();
        }
    }
    {
        Statement s(d->db,
                    "UPDATE mcts_trees SET gold_passages = ?, hops = ?, params_json = ?, iterations = ?, nodes = ?, "
                    "depth = ?, best_answer = ?, best_value = ?, found_value = ?, complete = ?, "
                    "updated = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?",
                    d->path);
        // bindText keeps a view: the texts must outlive run().
        const std::string gold = nlohmann::json(r.goldPassages).dump(), params = mcts::toJson(r.params).dump();
        s.bindText(1, gold);
        s.bind(2, r.hops);
        s.bindText(3, params);
        s.bind(4, sum.iterations);
        s.bind(5, sum.nodes);
        s.bind(6, sum.depth);
        s.bindText(7, sum.bestAnswer);
        s.bind(8, sum.bestValue);
        s.bind(9, sum.foundValue);
        s.bind(10, sum.complete ? 1 : 0);
        s.bind(11, treeId);
        s.run();
        if (sqlite3_changes(d->db) != 1)
            throw StoreError(d->path, where, "no tree " + std::to_string(treeId));
    }
    Statement node(d->db,
                   "INSERT INTO mcts_nodes(tree_id, node, parent, depth, action, tokens, log_prob, retrieved_json, "
                   "prior, visits, value_sum, terminal, terminal_value, answer, iteration) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   d->path);
    for (const mcts::Node &n : r.tree.nodes()) {
        node.reset();
        node.bind(1, treeId);
        node.bind(2, n.id);
        node.bind(3, n.parent);
        node.bind(4, n.depth);
        node.bindText(5, n.step);
        node.bind(6, n.tokens);
        node.bind(7, n.logProb);
        const std::string retrieved = nlohmann::json(n.retrieved).dump();
        node.bindText(8, retrieved);
        node.bind(9, n.prior);
        node.bind(10, n.visits);
        node.bind(11, n.valueSum);
        node.bind(12, n.terminal ? 1 : 0);
        node.bind(13, n.terminalValue);
        node.bindText(14, n.answer);
        node.bind(15, n.iterationCreated);
        node.run();
    }
    Statement iter(d->db,
                   "INSERT INTO mcts_iterations(tree_id, iteration, selected_json, expanded, created_json, "
                   "backed_up_json, value, terminal_depth, simulation, simulation_answer, seconds) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   d->path);
    for (const mcts::Iteration &it : r.iterations) {
        iter.reset();
        iter.bind(1, treeId);
        iter.bind(2, it.index);
        const std::string selected = nlohmann::json(it.selected).dump(), created = nlohmann::json(it.created).dump(),
                          backedUp = nlohmann::json(it.backedUp).dump();
        iter.bindText(3, selected);
        iter.bind(4, it.expanded);
        iter.bindText(5, created);
        iter.bindText(6, backedUp);
        iter.bind(7, it.value);
        iter.bind(8, it.terminalDepth);
        iter.bindText(9, it.simulation);
        iter.bindText(10, it.simulationAnswer);
        iter.bind(11, it.seconds);
        iter.run();
    }
    t.commit();
    return treeId;
}

std::vector<mcts::TreeSummary> RunStore::mctsTrees(int64_t runId) const
{
    std::vector<mcts::TreeSummary> out;
    if (d->version < 6)
        return out;
    Statement q(d->db,
                "SELECT id, question_id, question, gold, hops, best_answer, best_value, found_value, nodes, depth, "
                "iterations, complete FROM mcts_trees WHERE run_id = ? ORDER BY id",
                d->path);
    q.bind(1, runId);
    while (q.step()) {
        mcts::TreeSummary s;
        s.treeId = q.columnInt(0);
        s.questionId = q.columnText(1);
        s.question = q.columnText(2);
        s.goldAnswer = q.columnText(3);
        s.hops = static_cast<int>(q.columnInt(4));
        s.bestAnswer = q.columnText(5);
        s.bestValue = q.columnDouble(6);
        s.foundValue = q.columnDouble(7);
        s.nodes = static_cast<int>(q.columnInt(8));
        s.depth = static_cast<int>(q.columnInt(9));
        s.iterations = static_cast<int>(q.columnInt(10));
        s.complete = q.columnInt(11) != 0;
        out.push_back(std::move(s));
    }
    return out;
}

mcts::SearchRecord RunStore::mctsTree(int64_t treeId) const
{
    // Rebuilt through the record's JSON reader, so a stored tree is checked as a file is.
    const std::string source = d->path + ": tree " + std::to_string(treeId);
    nlohmann::json j;
    {
        if (d->version < 6)
            throw StoreError(d->path, "no search tree " + std::to_string(treeId) + " (the store predates them)");
        Statement q(d->db, "SELECT question_id, question, gold, gold_passages, hops, params_json FROM mcts_trees WHERE id = ?",
                    d->path);
        q.bind(1, treeId);
        if (!q.step())
            throw StoreError(d->path, "no search tree " + std::to_string(treeId));
        j["format"] = "rwb-mcts-record";
        j["question"] = {{"id", q.columnText(0)},
                         {"text", q.columnText(1)},
                         {"answer", q.columnText(2)},
                         {"gold_passages", util::parseJson(q.columnText(3))},
                         {"hops", q.columnInt(4)}};
        j["params"] = util::parseJson(q.columnText(5));
    }
    std::vector<nlohmann::json> nodes;
    {
        Statement q(d->db,
                    "SELECT node, parent, depth, action, tokens, log_prob, retrieved_json, prior, visits, value_sum, "
                    "terminal, terminal_value, answer, iteration FROM mcts_nodes WHERE tree_id = ? ORDER BY node",
                    d->path);
        q.bind(1, treeId);
        while (q.step()) {
            nlohmann::json n;
            if (q.columnInt(0) != static_cast<int64_t>(nodes.size()))
                throw StoreError(d->path, "search tree " + std::to_string(treeId) + " skips node " +
                                              std::to_string(nodes.size()));
            n["id"] = q.columnInt(0);
            n["parent"] = q.columnInt(1);
            n["depth"] = q.columnInt(2);
            n["action"] = q.columnText(3);
            n["tokens"] = q.columnInt(4);
            n["log_prob"] = q.columnDouble(5);
            n["retrieved"] = util::parseJson(q.columnText(6));
            n["prior"] = q.columnDouble(7);
            n["n"] = q.columnInt(8);
            n["q"] = q.columnDouble(9);
            n["terminal"] = q.columnInt(10) != 0;
            if (q.columnInt(10) != 0) {
                n["value"] = q.columnDouble(11);
                n["answer"] = q.columnText(12);
            }
            n["iteration"] = q.columnInt(13);
            n["children"] = nlohmann::json::array();
            nodes.push_back(std::move(n));
        }
    }
    if (nodes.empty())
        throw StoreError(d->path, "search tree " + std::to_string(treeId) + " has no root");
    // Nest the rows (children in id order, as they were added), deepest first.
    for (size_t i = nodes.size(); i-- > 1;) {
        const int64_t parent = nodes[i]["parent"].get<int64_t>();
        if (parent < 0 || parent >= static_cast<int64_t>(i))
            throw StoreError(d->path, "search tree " + std::to_string(treeId) + ": node " + std::to_string(i) +
                                          " has parent " + std::to_string(parent));
        nodes[i].erase("parent");
        auto &children = nodes[static_cast<size_t>(parent)]["children"];
        children.insert(children.begin(), std::move(nodes[i]));
    }
    nodes[0].erase("parent");
    j["mcts_tree"] = std::move(nodes[0]);
    nlohmann::json iterations = nlohmann::json::array();
    {
        Statement q(d->db,
                    "SELECT iteration, selected_json, expanded, created_json, backed_up_json, value, terminal_depth, "
                    "simulation, simulation_answer, seconds FROM mcts_iterations WHERE tree_id = ? ORDER BY iteration",
                    d->path);
        q.bind(1, treeId);
        while (q.step())
            iterations.push_back({{"index", q.columnInt(0)},
                                  {"selected", util::parseJson(q.columnText(1))},
                                  {"expanded", q.columnInt(2)},
                                  {"created", util::parseJson(q.columnText(3))},
                                  {"backed_up", util::parseJson(q.columnText(4))},
                                  {"value", q.columnDouble(5)},
                                  {"terminal_depth", q.columnInt(6)},
                                  {"simulation", q.columnText(7)},
                                  {"simulation_answer", q.columnText(8)},
                                  {"seconds", q.columnDouble(9)}});
    }
    j["iterations"] = std::move(iterations);
    return mcts::fromRecordJson(j, source);
}

void RunStore::finishRun(int64_t runId, RunStatus status, const std::string &message)
{
    d->requireWritable("finish a run");
    Statement s(d->db,
                "UPDATE runs SET status = ?, message = ?, finished = strftime('%Y-%m-%dT%H:%M:%fZ','now') "
                "WHERE id = ?",
                d->path);
    s.bindText(1, toString(status));
    s.bindText(2, message);
    s.bind(3, runId);
    s.run();
    if (sqlite3_changes(d->db) == 0)
        throw StoreError(d->path, "cannot finish run " + std::to_string(runId) + ": there is no such run");
    // Leave the file's search index complete for the readers to come. Best effort: the
    // run is finished either way, and a search indexes whatever is left itself.
    try {
        indexPending();
    } catch (const StoreError &) {
    }
}

int64_t RunStore::indexPending(int64_t maxRows)
{
    d->requireWritable("update the search index");
    int64_t done = 0;
    for (const auto table : {SearchIndex::Table::Prompts, SearchIndex::Table::Rollouts})
        done += d->search->catchUp(table, maxRows < 0 ? -1 : maxRows - done);
    return done;
}

int64_t RunStore::pendingIndexRows() const
{
    return d->search->pending(SearchIndex::Table::Prompts) + d->search->pending(SearchIndex::Table::Rollouts);
}

void RunStore::discardAfter(int64_t runId, int64_t step)
{
    d->requireWritable("discard steps");
    Transaction t(d->db, d->path);
    static const char *const kDeletes[] = {
        "DELETE FROM rollouts WHERE run_id = ? AND step > ?",
        "DELETE FROM metrics WHERE run_id = ? AND step > ?",
        "DELETE FROM steps WHERE run_id = ? AND step > ?",
        "DELETE FROM reward_configs WHERE run_id = ? AND step > ?",
        "DELETE FROM checkpoints WHERE run_id = ? AND step > ?",
        "DELETE FROM eval_predictions WHERE run_id = ? AND checkpoint_step > ?",
    };
    for (const char *sql : kDeletes) {
        Statement s(d->db, sql, d->path);
        s.bind(1, runId);
        s.bind(2, step);
        s.run();
    }
    if (d->version >= 5) { // the rollouts' decisions went with them; the evaluations' go here
        Statement del(d->db, "DELETE FROM judge_decisions WHERE run_id = ? AND step > ?", d->path);
        del.bind(1, runId);
        del.bind(2, step);
        del.run();
    }
    Statement s(d->db, "UPDATE runs SET status = 'running', message = '', finished = NULL WHERE id = ?", d->path);
    s.bind(1, runId);
    s.run();
    if (sqlite3_changes(d->db) == 0)
        throw StoreError(d->path, "cannot resume run " + std::to_string(runId) + ": there is no such run");
    t.commit();
}

namespace {
// What separates a run's tags in runColumns()' list (a tag holds no control character).
constexpr char kTagSeparator = '\x1f';

// A file before version 4 read as it is has no task column: its runs are all extraction
// runs; before 9 no run has tags.
std::string runColumns(int version)
{
    return std::string("SELECT id, name, created, kind, config_json, status, message, coalesce(finished, ''), "
                       "(SELECT count(*) FROM steps s WHERE s.run_id = runs.id), "
                       "coalesce((SELECT max(step) FROM steps s WHERE s.run_id = runs.id), -1), ") +
           (version >= 4 ? "task" : "'company_extraction'") + ", " +
           (version >= 9 ? "(SELECT group_concat(t.tag, char(31)) FROM run_tags t WHERE t.run_id = runs.id)" : "NULL") +
           " FROM runs";
}

RunInfo readRun(const Statement &s)
{
    RunInfo r;
    r.id = s.columnInt(0);
    r.name = s.columnText(1);
    r.created = s.columnText(2);
    r.kind = s.columnText(3);
    r.configJson = s.columnText(4);
    r.status = s.columnText(5);
    r.message = s.columnText(6);
    r.finished = s.columnText(7);
    r.steps = s.columnInt(8);
    r.lastStep = s.columnInt(9);
    r.task = s.columnText(10);
    if (!s.isNull(11)) {
        const std::string tags = s.columnText(11);
        for (size_t from = 0;;) {
            const size_t to = tags.find(kTagSeparator, from);
            r.tags.push_back(tags.substr(from, to == std::string::npos ? std::string::npos : to - from));
            if (to == std::string::npos)
                break;
            from = to + 1;
        }
        std::sort(r.tags.begin(), r.tags.end());
    }
    return r;
}

// Blanks a tag loses at either end.
constexpr const char *kTagBlanks = " \t";

// Seconds from the run's last write (its creation, its newest step, checkpoint or search
// tree: the stored UTC times) to now; never negative. The run must exist.
double secondsSinceWrite(sqlite3 *db, const std::string &path, int version, int64_t runId)
{
    const std::string sql =
        std::string("SELECT max(0, (julianday('now') - julianday(max(r.created, "
                    "coalesce((SELECT written FROM steps WHERE run_id = ?1 ORDER BY step DESC LIMIT 1), ''), "
                    "coalesce((SELECT max(created) FROM checkpoints WHERE run_id = ?1), '')") +
        (version >= 6 ? ", coalesce((SELECT max(updated) FROM mcts_trees WHERE run_id = ?1), '')" : "") +
        "))) * 86400.0) FROM runs r WHERE r.id = ?1";
    Statement q(db, sql, path);
    q.bind(1, runId);
    return q.step() && !q.isNull(0) ? q.columnDouble(0) : 0.0;
}
} // namespace

void RunStore::renameRun(int64_t runId, const std::string &name)
{
    d->requireWritable("rename a run");
    const std::string where = "cannot rename run " + std::to_string(runId);
    if (name.find_first_not_of(" \t\r\n") == std::string::npos)
        throw StoreError(d->path, where, "the new name is blank");
    Statement s(d->db, "UPDATE runs SET name = ? WHERE id = ?", d->path);
    s.bindText(1, name);
    s.bind(2, runId);
    s.run();
    if (sqlite3_changes(d->db) == 0)
        throw StoreError(d->path, where, "there is no such run");
}

void RunStore::setRunTags(int64_t runId, const std::vector<std::string> &tags)
{
    d->requireWritable("tag a run");
    const std::string where = "cannot set the tags of run " + std::to_string(runId);
    std::vector<std::string> clean;
    for (const std::string &tag : tags) {
        const size_t first = tag.find_first_not_of(kTagBlanks);
        if (first == std::string::npos)
            throw StoreError(d->path, where, "a tag is blank");
        std::string t = tag.substr(first, tag.find_last_not_of(kTagBlanks) - first + 1);
        for (const char c : t)
            if (c == ',' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                throw StoreError(d->path, where, "the tag \"" + t + "\" holds a comma or a control character");
        clean.push_back(std::move(t));
    }
    Transaction t(d->db, d->path);
    {
        Statement q(d->db, "SELECT 1 FROM runs WHERE id = ?", d->path);
        q.bind(1, runId);
        if (!q.step())
            throw StoreError(d->path, where, "there is no such run");
    }
    {
        Statement del(d->db, "DELETE FROM run_tags WHERE run_id = ?", d->path);
        del.bind(1, runId);
        del.run();
    }
    Statement ins(d->db, "INSERT OR IGNORE INTO run_tags(run_id, tag) VALUES (?, ?)", d->path);
    for (const std::string &tag : clean) {
        ins.bind(1, runId);
        ins.bindText(2, tag);
        ins.run();
    }
    t.commit();
}

RunContents RunStore::runContents(int64_t runId) const
{
    RunContents c;
    Transaction snapshot(d->db, d->path, Transaction::Kind::Read);
    {
        Statement q(d->db, "SELECT 1 FROM runs WHERE id = ?", d->path);
        q.bind(1, runId);
        if (!q.step())
            throw StoreError(d->path, "there is no run " + std::to_string(runId));
    }
    const auto countOf = [&](const char *sql) {
        Statement q(d->db, sql, d->path);
        q.bind(1, runId);
        return q.step() ? q.columnInt(0) : int64_t(0);
    };
    c.steps = countOf("SELECT count(*) FROM steps WHERE run_id = ?");
    c.metrics = countOf("SELECT count(*) FROM metrics WHERE run_id = ?");
    c.rollouts = countOf("SELECT count(*) FROM rollouts WHERE run_id = ?");
    c.prompts = countOf("SELECT count(*) FROM prompts WHERE run_id = ?");
    c.rewardConfigs = countOf("SELECT count(*) FROM reward_configs WHERE run_id = ?");
    c.checkpoints = countOf("SELECT count(*) FROM checkpoints WHERE run_id = ?");
    c.evalPredictions = countOf("SELECT count(*) FROM eval_predictions WHERE run_id = ?");
    if (d->version >= 5)
        c.judgeDecisions = countOf("SELECT count(*) FROM judge_decisions WHERE run_id = ?");
    if (d->version >= 6)
        c.searchTrees = countOf("SELECT count(*) FROM mcts_trees WHERE run_id = ?");
    c.secondsSinceWrite = secondsSinceWrite(d->db, d->path, d->version, runId);
    snapshot.commit();
    return c;
}

void RunStore::deleteRun(int64_t runId, int64_t staleAfterSeconds)
{
    d->requireWritable("delete a run");
    const std::string where = "cannot delete run " + std::to_string(runId);
    Transaction t(d->db, d->path);
    {
        Statement q(d->db, "SELECT status FROM runs WHERE id = ?", d->path);
        q.bind(1, runId);
        if (!q.step())
            throw StoreError(d->path, where, "there is no such run");
        if (q.columnText(0) == "running" && staleAfterSeconds > 0) {
            const double idle = secondsSinceWrite(d->db, d->path, d->version, runId);
            if (idle < static_cast<double>(staleAfterSeconds))
                throw StoreError(d->path, where,
                                 "it is running: it last wrote " + std::to_string(static_cast<int64_t>(idle)) +
                                     " s ago, and a running run may be deleted only after " +
                                     std::to_string(staleAfterSeconds) + " s without a write (stop it first)");
        }
    }
    t.commit();
    // The bulk (rollouts and prompts, each row also leaving the search index) goes in
    // batches, each its own short transaction: a trainer writing another run of the file
    // waits for one batch, never for the whole delete. Stopped halfway (a crash), the run
    // is there with fewer rows, and deleting it again finishes the job.
    for (const char *table : {"rollouts", "prompts"}) {
        const std::string sql = std::string("DELETE FROM ") + table + " WHERE id IN (SELECT id FROM " + table +
                                " WHERE run_id = ? LIMIT " + std::to_string(kDeleteBatch) + ")";
        for (;;) {
            Transaction batch(d->db, d->path);
            Statement del(d->db, sql, d->path);
            del.bind(1, runId);
            del.run();
            const int n = sqlite3_changes(d->db);
            batch.commit();
            if (n == 0)
                break;
        }
    }
    // Children first, each by its run (what the foreign keys would cascade to, row by row).
    // A read-write store is always at the current schema: every table is there.
    Transaction last(d->db, d->path);
    static const char *const kDeletes[] = {
        "DELETE FROM judge_decisions WHERE run_id = ?",
        "UPDATE prm_pairs SET tree_id = NULL WHERE tree_id IN (SELECT id FROM mcts_trees WHERE run_id = ?)",
        "DELETE FROM mcts_nodes WHERE tree_id IN (SELECT id FROM mcts_trees WHERE run_id = ?)",
        "DELETE FROM mcts_iterations WHERE tree_id IN (SELECT id FROM mcts_trees WHERE run_id = ?)",
        "DELETE FROM mcts_trees WHERE run_id = ?",
        "DELETE FROM rollouts WHERE run_id = ?",
        "DELETE FROM prompts WHERE run_id = ?",
        "DELETE FROM eval_predictions WHERE run_id = ?",
        "DELETE FROM metrics WHERE run_id = ?",
        "DELETE FROM steps WHERE run_id = ?",
        "DELETE FROM reward_configs WHERE run_id = ?",
        "DELETE FROM checkpoints WHERE run_id = ?",
        "DELETE FROM run_tags WHERE run_id = ?",
        "DELETE FROM runs WHERE id = ?",
        "INSERT OR IGNORE INTO deleted_runs(id) VALUES (?)",
    };
    for (const char *sql : kDeletes) {
        Statement s(d->db, sql, d->path);
        s.bind(1, runId);
        s.run();
    }
    last.commit();
    d->promptIds.erase(runId);
}

std::vector<RunInfo> RunStore::runs() const
{
    Statement s(d->db, runColumns(d->version) + " ORDER BY id", d->path);
    std::vector<RunInfo> out;
    while (s.step())
        out.push_back(readRun(s));
    return out;
}

int64_t RunStore::lastRun(RunKind kind) const
{
    Statement s(d->db, "SELECT COALESCE(MAX(id), 0) FROM runs WHERE kind = ?", d->path);
    const std::string name = toString(kind);
    s.bindText(1, name);
    return s.step() ? s.columnInt(0) : 0;
}

RunInfo RunStore::run(int64_t runId) const
{
    Statement s(d->db, runColumns(d->version) + " WHERE id = ?", d->path);
    s.bind(1, runId);
    if (!s.step())
        throw StoreError(d->path, "there is no run " + std::to_string(runId));
    return readRun(s);
}

std::vector<MetricPoint> RunStore::metrics(int64_t runId, const std::string &name, int64_t afterStep) const
{
    Statement s(d->db,
                name.empty() ? "SELECT step, name, value FROM metrics WHERE run_id = ? AND step > ? ORDER BY step, name"
                             : "SELECT step, name, value FROM metrics WHERE run_id = ? AND step > ? AND name = ? ORDER BY step",
                d->path);
    s.bind(1, runId);
    s.bind(2, afterStep);
    if (!name.empty())
        s.bindText(3, name);
    std::vector<MetricPoint> out;
    while (s.step())
        out.push_back({s.columnInt(0), s.columnText(1),
                       s.isNull(2) ? std::numeric_limits<double>::quiet_NaN() : s.columnDouble(2)});
    return out;
}

std::vector<std::string> RunStore::metricNames(int64_t runId) const
{
    Statement s(d->db, "SELECT DISTINCT name FROM metrics WHERE run_id = ? ORDER BY name", d->path);
    s.bind(1, runId);
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.columnText(0));
    return out;
}

std::vector<RewardConfigVersion> RunStore::rewardConfigs(int64_t runId) const
{
    Statement s(d->db, "SELECT step, config_json FROM reward_configs WHERE run_id = ? ORDER BY step", d->path);
    s.bind(1, runId);
    std::vector<RewardConfigVersion> out;
    while (s.step())
        out.push_back({s.columnInt(0), s.columnText(1)});
    return out;
}

std::vector<Checkpoint> RunStore::checkpoints(int64_t runId) const
{
    Statement s(d->db, "SELECT step, path, created FROM checkpoints WHERE run_id = ? ORDER BY step", d->path);
    s.bind(1, runId);
    std::vector<Checkpoint> out;
    while (s.step())
        out.push_back({s.columnInt(0), s.columnText(1), s.columnText(2)});
    return out;
}

std::vector<StoredJudgeDecision> RunStore::judgeDecisions(int64_t runId, const JudgeDecisionFilter &f) const
{
    std::vector<StoredJudgeDecision> out;
    if (d->version < 5)
        return out;
    std::string sql = "SELECT id, run_id, step, coalesce(rollout_id, 0), example_id, reward, part, backend, request, "
                      "reply, verdict, error, value, latency, prompt_tokens, completion_tokens, cost, cache_hit, "
                      "attempts FROM judge_decisions WHERE run_id = ?";
    sql += f.evaluation ? " AND rollout_id IS NULL" : " AND rollout_id IS NOT NULL";
    if (f.rolloutId)
        sql += " AND rollout_id = ?";
    if (f.step)
        sql += " AND step = ?";
    if (f.exampleId)
        sql += " AND example_id = ?";
    if (f.reward)
        sql += " AND reward = ?";
    if (f.failuresOnly)
        sql += " AND error <> ''";
    sql += " ORDER BY id";
    if (f.limit > 0)
        sql += " LIMIT " + std::to_string(f.limit);
    Statement q(d->db, sql, d->path);
    int k = 1;
    q.bind(k++, runId);
    if (f.rolloutId)
        q.bind(k++, *f.rolloutId);
    if (f.step)
        q.bind(k++, *f.step);
    if (f.exampleId)
        q.bindText(k++, *f.exampleId);
    if (f.reward)
        q.bindText(k++, *f.reward);
    while (q.step()) {
        StoredJudgeDecision r;
        r.id = q.columnInt(0);
        r.runId = q.columnInt(1);
        r.step = q.columnInt(2);
        r.rolloutId = q.columnInt(3);
        r.exampleId = q.columnText(4);
        judge::Decision &x = r.decision;
        x.reward = q.columnText(5);
        x.part = q.columnText(6);
        x.backend = q.columnText(7);
        x.request = q.columnText(8);
        x.reply = q.columnText(9);
        x.verdict = q.columnText(10);
        x.error = q.columnText(11);
        x.value = q.isNull(12) ? std::numeric_limits<double>::quiet_NaN() : q.columnDouble(12);
        x.latencySeconds = q.columnDouble(13);
        x.promptTokens = q.columnInt(14);
        x.completionTokens = q.columnInt(15);
        x.cost = q.columnDouble(16);
        x.cacheHit = q.columnInt(17) != 0;
        x.attempts = static_cast<int>(q.columnInt(18));
        out.push_back(std::move(r));
    }
    return out;
}

namespace {

// The grade the reference grader stored in a details JSON, or NULL. Malformed JSON gives
// NULL rather than failing the whole page.
std::string gradeSql(const char *table, const char *key)
{
    return std::string("CASE WHEN json_valid(") + table + ".details_json) THEN json_extract(" + table +
           ".details_json, '$." + key + "') END";
}

} // namespace

std::vector<JudgeDecisionListing> RunStore::judgeDecisionListing(int64_t runId, int64_t afterId, int limit,
                                                                 const std::function<bool()> &keepGoing) const
{
    std::vector<JudgeDecisionListing> out;
    if (d->version < 5) // written before judge decisions were stored
        return out;
    const std::string sql =
        "SELECT d.id, d.step, coalesce(d.rollout_id, 0), d.example_id, d.reward, d.part, d.verdict, d.error, d.value, "
        "d.latency, d.prompt_tokens, d.completion_tokens, d.cost, d.cache_hit, d.attempts, d.reply <> '', "
        "CASE WHEN d.rollout_id IS NOT NULL THEN " + gradeSql("r", "coverage") + " ELSE " + gradeSql("e", "coverage") +
        " END, CASE WHEN d.rollout_id IS NOT NULL THEN " + gradeSql("r", "consistency") + " ELSE " +
        gradeSql("e", "consistency") + " END, coalesce(r.group_index, -1), coalesce(r.sample_index, -1) "
        "FROM judge_decisions d LEFT JOIN rollouts r ON r.id = d.rollout_id "
        "LEFT JOIN eval_predictions e ON d.rollout_id IS NULL AND e.run_id = d.run_id AND "
        "e.checkpoint_step = d.step AND e.example_id = d.example_id "
        "WHERE d.run_id = ?1 AND d.id > ?2 ORDER BY d.id LIMIT ?3";
    Statement q(d->db, sql, d->path);
    q.bind(1, runId);
    q.bind(2, afterId);
    q.bind(3, static_cast<int64_t>(std::max(0, limit)));
    const auto real = [&](int c) { return q.isNull(c) ? std::numeric_limits<double>::quiet_NaN() : q.columnDouble(c); };
    while ((!keepGoing || keepGoing()) && q.step()) {
        JudgeDecisionListing r;
        r.id = q.columnInt(0);
        r.step = q.columnInt(1);
        r.rolloutId = q.columnInt(2);
        r.exampleId = q.columnText(3);
        r.reward = q.columnText(4);
        r.part = q.columnText(5);
        r.verdict = q.columnText(6);
        r.error = q.columnText(7);
        r.value = real(8);
        r.latencySeconds = real(9);
        r.promptTokens = q.columnInt(10);
        r.completionTokens = q.columnInt(11);
        r.cost = real(12);
        r.cacheHit = q.columnInt(13) != 0;
        r.attempts = static_cast<int>(q.columnInt(14));
        r.hasReply = q.columnInt(15) != 0;
        r.coverageGrade = real(16);
        r.consistencyGrade = real(17);
        r.groupIndex = static_cast<int>(q.columnInt(18));
        r.sampleIndex = static_cast<int>(q.columnInt(19));
        out.push_back(std::move(r));
    }
    return out;
}

int64_t RunStore::firstStep(int64_t runId) const
{
    Statement q(d->db, "SELECT min(step) FROM steps WHERE run_id = ?1", d->path);
    q.bind(1, runId);
    return q.step() && !q.isNull(0) ? q.columnInt(0) : -1;
}

std::string RunStore::rolloutPromptMeta(int64_t rolloutId) const
{
    Statement q(d->db, "SELECT p.meta_json FROM rollouts r JOIN prompts p ON p.id = r.prompt WHERE r.id = ?1", d->path);
    q.bind(1, rolloutId);
    return q.step() && !q.isNull(0) ? q.columnText(0) : std::string();
}

std::vector<StoredEvalPrediction> RunStore::evalPredictions(int64_t runId, int64_t checkpointStep) const
{
    Statement s(d->db,
                std::string("SELECT checkpoint_step, example_id, prediction, gold, correct, rewards_json, ") +
                    (d->version >= 4 ? "details_json" : "'{}'") + " FROM eval_predictions "
                "WHERE run_id = ?1 AND (?2 < 0 OR checkpoint_step = ?2) ORDER BY checkpoint_step, example_id",
                d->path);
    s.bind(1, runId);
    s.bind(2, checkpointStep);
    std::vector<StoredEvalPrediction> out;
    while (s.step()) {
        StoredEvalPrediction p;
        p.checkpointStep = s.columnInt(0);
        p.prediction = {s.columnText(1), s.columnText(2), s.columnText(3), s.columnInt(4) != 0, s.columnText(5),
                        s.columnText(6)};
        out.push_back(std::move(p));
    }
    return out;
}

RolloutPage RunStore::rollouts(const RolloutFilter &filter, int64_t afterId, int limit) const
{
    const bool byText = !filter.completionMatch.empty() || !filter.promptMatch.empty();
    if (!byText)
        return d->listRollouts(filter, afterId, limit, {}, {});
    // A text search sees every committed row: a read-write store first brings the file's
    // index up to date (kept for later searches); then, in one snapshot, the rows above
    // its watermark (committed by another connection meanwhile, or by a writer on a
    // read-only store) are matched through this connection's private index.
    if (!d->readOnly) {
        if (!filter.promptMatch.empty())
            d->search->catchUp(SearchIndex::Table::Prompts);
        if (!filter.completionMatch.empty())
            d->search->catchUp(SearchIndex::Table::Rollouts);
    }
    try {
        Transaction snapshot(d->db, d->path, Transaction::Kind::Read);
        SearchIndex::Match completions, prompts;
        if (!filter.completionMatch.empty())
            completions = d->search->matchSql(SearchIndex::Table::Rollouts);
        if (!filter.promptMatch.empty())
            prompts = d->search->matchSql(SearchIndex::Table::Prompts);
        RolloutPage page = d->listRollouts(filter, afterId, limit, completions, prompts);
        snapshot.commit();
        d->search->commit();
        return page;
    } catch (...) {
        d->search->rollback();
        throw;
    }
}

RolloutPage RunStore::Impl::listRollouts(const RolloutFilter &filter, int64_t afterId, int limit,
                                         const SearchIndex::Match &completions, const SearchIndex::Match &prompts) const
{
    const bool byStep = filter.stepMin || filter.stepMax;
    // Without a step range, walk the rowid from afterId (no sort); with one, the
    // (run_id, step) index narrows first.
    // Across runs (allRuns) there is no run to narrow by: the rowid walk from afterId.
    const char *run = filter.allRuns ? "" : byStep ? "r.run_id = ? AND " : "+r.run_id = ? AND ";
    std::string sql = "SELECT " + rolloutColumns(version) + " FROM rollouts r JOIN prompts p ON p.id = r.prompt WHERE " +
                      run + "r.id > ?";
    if (filter.stepMin)
        sql += " AND r.step >= ?";
    if (filter.stepMax)
        sql += " AND r.step <= ?";
    if (filter.rewardMin)
        sql += " AND r.reward >= ?";
    if (filter.rewardMax)
        sql += " AND r.reward <= ?";
    for (const ComponentCondition &c : filter.components) {
        if (c.component.empty() || c.component.find('"') != std::string::npos)
            throw StoreError(path, "bad reward component name \"" + c.component + "\" in a rollout filter");
        sql += std::string(" AND json_extract(r.rewards_json, ?) ") + opSql(c.op) + " ?";
    }
    if (filter.truncated)
        sql += " AND r.truncated = ?";
    if (!filter.completionMatch.empty())
        sql += " AND r.id IN (" + completions.sql + ")";
    if (!filter.promptMatch.empty())
        sql += " AND r.prompt IN (" + prompts.sql + ")";
    sql += " ORDER BY r.id LIMIT ?";

    Statement s(db, sql, path);
    int i = 1;
    if (!filter.allRuns)
        s.bind(i++, filter.runId);
    s.bind(i++, afterId);
    if (filter.stepMin)
        s.bind(i++, *filter.stepMin);
    if (filter.stepMax)
        s.bind(i++, *filter.stepMax);
    if (filter.rewardMin)
        s.bind(i++, *filter.rewardMin);
    if (filter.rewardMax)
        s.bind(i++, *filter.rewardMax);
    std::vector<std::string> paths;
    paths.reserve(filter.components.size());
    for (const ComponentCondition &c : filter.components) {
        paths.push_back("$.\"" + c.component + "\"");
        s.bindText(i++, paths.back());
        s.bind(i++, c.value);
    }
    if (filter.truncated)
        s.bind(i++, *filter.truncated ? 1 : 0);
    if (!filter.completionMatch.empty())
        for (int k = 0; k < completions.parameters; ++k)
            s.bindText(i++, filter.completionMatch);
    if (!filter.promptMatch.empty())
        for (int k = 0; k < prompts.parameters; ++k)
            s.bindText(i++, filter.promptMatch);
    s.bind(i++, limit);

    RolloutPage page;
    page.nextAfterId = afterId;
    while (s.step())
        page.rows.push_back(readSummary(s));
    if (!page.rows.empty())
        page.nextAfterId = page.rows.back().id;
    page.more = limit > 0 && page.rows.size() == static_cast<size_t>(limit);
    return page;
}

std::vector<StoredRollout> RunStore::stepRollouts(int64_t runId, int64_t step) const
{
    Statement s(d->db,
                "SELECT " + rolloutColumns(d->version) +
                    " FROM rollouts r JOIN prompts p ON p.id = r.prompt WHERE r.run_id = ? AND r.step = ? "
                    "ORDER BY r.group_index, r.sample_index, r.id",
                d->path);
    s.bind(1, runId);
    s.bind(2, step);
    std::vector<StoredRollout> out;
    while (s.step())
        out.push_back(readSummary(s));
    return out;
}

StoredRollout RunStore::rollout(int64_t rolloutId) const
{
    Statement s(d->db,
                "SELECT " + rolloutColumns(d->version) +
                    ", r.token_ids, r.logprobs_old, r.logprobs_new, r.logprobs_ref, r.token_advantages, " +
                    // A file before version 3 read as it is has no entropies.
                    (d->version >= 3 ? "r.entropies " : "x'' ") +
                    "FROM rollouts r JOIN prompts p ON p.id = r.prompt WHERE r.id = ?",
                d->path);
    s.bind(1, rolloutId);
    if (!s.step())
        throw StoreError(d->path, "there is no rollout " + std::to_string(rolloutId));
    StoredRollout out = readSummary(s);
    try {
        out.rollout.tokenIds = BlobCodec::decodeInts(s.columnBlob(16));
        out.rollout.logprobsOld = BlobCodec::decodeFloats(s.columnBlob(17));
        out.rollout.logprobsNew = BlobCodec::decodeFloats(s.columnBlob(18));
        out.rollout.logprobsRef = BlobCodec::decodeFloats(s.columnBlob(19));
        out.rollout.advantages = BlobCodec::decodeFloats(s.columnBlob(20));
        out.rollout.entropies = BlobCodec::decodeFloats(s.columnBlob(21));
    } catch (const std::invalid_argument &e) {
        throw StoreError(d->path, "rollout " + std::to_string(rolloutId) + " is damaged", e.what());
    }
    return out;
}

void RunStore::query(const std::string &sql, const RowCallback &row) const
{
    if (!d->readOnly)
        d->promptIds.clear(); // the statement may delete prompts
    Statement s(d->db, sql, d->path);
    std::vector<std::string> columns;
    for (int c = 0; c < s.columnCount(); ++c)
        columns.push_back(s.columnName(c));
    std::vector<SqlValue> values(columns.size());
    while (s.step()) {
        for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
            SqlValue &v = values[c];
            switch (s.columnType(c)) {
            case SQLITE_INTEGER:
                v.type = SqlValue::Type::Integer;
                v.integer = s.columnInt(c);
                break;
            case SQLITE_FLOAT:
                v.type = SqlValue::Type::Real;
                v.real = s.columnDouble(c);
                break;
            case SQLITE_TEXT:
                v.type = SqlValue::Type::Text;
                v.bytes = s.columnText(c);
                break;
            case SQLITE_BLOB:
                v.type = SqlValue::Type::Blob;
                v.bytes = std::string(s.columnBlob(c));
                break;
            default:
                v.type = SqlValue::Type::Null;
                break;
            }
        }
        if (!row(columns, values))
            break;
    }
}

std::string RunStore::integrityCheck() const
{
    Statement s(d->db, "PRAGMA integrity_check", d->path);
    std::string out;
    while (s.step())
        out += (out.empty() ? "" : "\n") + s.columnText(0);
    return out;
}

} // namespace rwb::store
