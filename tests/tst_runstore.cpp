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

#include <csignal>
#include <cstring>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

using namespace rwb::store;

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

// Writes steps [from, to) of a run: prompts, metrics and kGroups × kGroup rollouts each.
void writeSteps(RunStore &store, int64_t run, int from, int to)
{
    for (int step = from; step < to; ++step) {
        std::vector<Prompt> prompts;
        std::vector<Rollout> rollouts;
        for (int g = 0; g < kGroups; ++g) {
            prompts.push_back(makePrompt(step * kGroups + g));
            for (int s = 0; s < kGroup; ++s)
                rollouts.push_back(makeRollout(step, g, s));
        }
        store.writeStep(run, step, makeMetrics(step), rollouts, prompts);
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

int64_t count(const RunStore &store, const std::string &sql)
{
    int64_t n = -1;
    store.query(sql, [&](const auto &, const std::vector<SqlValue> &v) {
        n = v.at(0).integer;
        return false;
    });
    return n;
}

} // namespace

class TestRunStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void blobCodec();
    void roundTripViews();
    void roundTripApi();
    void paging();
    void filters_data();
    void filters();
    void fullTextJapanese();
    void readerNeverBlocks();
    void stepIsAtomic();
    void schemaVersion();
    void badFiles();
    void crashLosesAtMostOneStep();
    void promptsOfADeletedRun();

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

void TestRunStore::roundTripViews()
{
    const std::string path = file("views.sqlite");
    {
        RunStore store(path);
        const int64_t run = store.beginRun("demo グループ", RunKind::Grpo, R"({"lr":3e-5})");
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
    const int64_t run = store.beginRun("api", RunKind::Grpo, "{}");
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
    const int64_t run = store.beginRun("paging", RunKind::Grpo, "{}");
    const int64_t other = store.beginRun("other", RunKind::Grpo, "{}");
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
    const int64_t run = store.beginRun("filters", RunKind::Grpo, "{}");
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
    const int64_t run = store.beginRun("fts", RunKind::Grpo, "{}");
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

void TestRunStore::readerNeverBlocks()
{
    const std::string path = file("wal.sqlite");
    RunStore writer(path);
    const int64_t run = writer.beginRun("wal", RunKind::Grpo, "{}");
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
    const int64_t run = store.beginRun("atomic", RunKind::Grpo, "{}");
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
                const int64_t run = store.beginRun("crash " + std::to_string(round), RunKind::Grpo, "{}");
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
                        rollouts.push_back(std::move(r));
                    }
                    store.writeStep(run, step, makeMetrics(step), rollouts, step == 0 ? prompts : std::vector<Prompt>{});
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

        RunStore store(path); // recovers the WAL
        QCOMPARE(store.integrityCheck(), std::string("ok"));
        const RunInfo info = store.runs().at(round);
        QVERIFY(info.steps >= waitSteps);
        QCOMPARE(info.lastStep, info.steps - 1);
        // Every step is whole: 64 rollouts and 3 metrics where the step is marked, nothing elsewhere.
        const std::string run = std::to_string(info.id);
        QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE run_id = " + run), info.steps * kRollouts);
        QCOMPARE(count(store, "SELECT count(*) FROM metrics WHERE run_id = " + run), info.steps * 3);
        QCOMPARE(count(store, "SELECT count(*) FROM (SELECT step FROM rollouts WHERE run_id = " + run +
                                  " GROUP BY step HAVING count(*) <> " + std::to_string(kRollouts) + ")"),
                 int64_t(0));
        QCOMPARE(count(store, "SELECT count(*) FROM rollouts WHERE run_id = " + run +
                                  " AND step NOT IN (SELECT step FROM steps WHERE run_id = " + run + ")"),
                 int64_t(0));
        QCOMPARE(count(store, "SELECT count(*) FROM rollouts_fts WHERE rollouts_fts MATCH 'きらめき'") > 0, true);
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
    const int64_t first = store.beginRun("first", RunKind::Grpo, "{}");
    writeSteps(store, first, 0, 2);
    store.query("DELETE FROM runs WHERE id = " + std::to_string(first), [](auto &, auto &) { return true; });
    const int64_t second = store.beginRun("second", RunKind::Grpo, "{}");
    QCOMPARE(second, first);
    writeSteps(store, second, 0, 1);

    RunStore other(path);
    other.query("DELETE FROM runs WHERE id = " + std::to_string(second), [](auto &, auto &) { return true; });
    const int64_t third = store.beginRun("third", RunKind::Grpo, "{}");
    QCOMPARE(third, first);
    writeSteps(store, third, 0, 2);
    QCOMPARE(count(store, "SELECT count(*) FROM v_rollouts WHERE run_id = " + std::to_string(third)),
             int64_t(2 * kGroups * kGroup));
    QCOMPARE(store.integrityCheck(), std::string("ok"));
}

QTEST_APPLESS_MAIN(TestRunStore)
#include "tst_runstore.moc"
