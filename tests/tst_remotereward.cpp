// core/reward/remote: the `remote` component, an OpenRLHF-style remote reward server asked
// over HTTP. Against a scripted loopback server (tests/loopbackserver.h): the request's
// query / prompts / labels, batching, a 500 then an answer, garbage, the wrong number of
// rewards, NaN and other non-numbers, a dead server, the circuit breaker, the cache (in
// memory and in a file), OpenRLHF's reply shape with extra_logs; and once end to end
// against our own `rwb serve` reward route, in-process. Values are the server's numbers
// passed through (tolerance 0: JSON numbers keep a double exactly) or, end to end, the
// library's own scores of the same completions.
#include "reward/compositereward.h"
#include "reward/library/library.h"
#include "reward/library/libraryreward.h"
#include "reward/registry.h"
#include "reward/remote/remotereward.h"
#include "reward/rewardconfig.h"
#include "serve/openaiserver.h"
#include "serve/rewardservice.h"
#include "task/catalog.h"
#include "task/task.h"

#include "loopbackserver.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include "recorditem.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace rwb::reward;
using nlohmann::json;
using rwbtest::ScriptedServer;
using rwbtest::SeenRequest;

namespace {

// An example of a built-in task: an id and a gold, no record.
class GoldItem : public rwb::task::Example {
public:
    GoldItem(std::string id, std::string gold)
        : m_id(std::move(id))
        , m_gold(std::move(gold))
    {
    }
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    std::string metaJson() const override { return "{}"; }

private:
    std::string m_id;
    std::string m_gold;
};

class Text : public rwb::task::Completion {
public:
    explicit Text(std::string text)
        : m_text(std::move(text))
    {
    }
    const std::string &text() const override { return m_text; }
    const std::string &answer() const override { return m_text; }

private:
    std::string m_text;
};

// A batch: examples and completions side by side, owned.
struct Batch {
    std::vector<std::unique_ptr<rwb::task::Example>> owned;
    std::vector<std::unique_ptr<rwb::task::Completion>> texts;
    std::vector<const rwb::task::Example *> examples;
    std::vector<const rwb::task::Completion *> completions;

    void add(std::unique_ptr<rwb::task::Example> example, std::unique_ptr<rwb::task::Completion> completion)
    {
        examples.push_back(example.get());
        owned.push_back(std::move(example));
        completions.push_back(completion.get());
        texts.push_back(std::move(completion));
    }
    // A record with a plain-text prompt "Q<i>: " and the gold "g<i>".
    void addRecord(const std::string &completion, json record = json::object(), json prompt = nullptr)
    {
        const std::string i = std::to_string(examples.size());
        if (prompt.is_null())
            prompt = "Q" + i + ": ";
        add(std::make_unique<RecordItem>("r" + i, std::move(record), std::move(prompt), "g" + i),
            std::make_unique<Text>(completion));
    }
    std::vector<double> score(const Reward &reward, ScoreLog *log = nullptr) const
    {
        std::vector<double> out;
        reward.scoreBatch(examples, completions, out, log);
        return out;
    }
};

// The full endpoint of a scripted server listening on `path`.
std::string endpoint(const ScriptedServer &s, const std::string &path = "/get_reward")
{
    std::string url = s.url(); // http://127.0.0.1:port/v1
    return url.substr(0, url.size() - 3) + path;
}

// Options for the tests: no waits between attempts, no breaker unless asked.
json fast(const std::string &url, json extra = json::object())
{
    json o = {{"url", url}, {"backoff", 0}, {"backoff_max", 0}, {"timeout", 5}, {"deadline", 10},
              {"breaker_threshold", 0}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o[it.key()] = it.value();
    return o;
}

std::unique_ptr<RemoteReward> make(const json &options, const std::string &label = {})
{
    return std::make_unique<RemoteReward>(parseRemoteRewardOptions(options.dump(), {}), label);
}

// An answer: {"rewards": values}.
void answer(httplib::Response &res, const json &body)
{
    res.set_content(body.dump(), "application/json");
}

// The reward a scripted server gives an item: the number the completion (what follows
// the prompt in the query) is.
json numbersOf(const json &request)
{
    json out = json::array();
    for (size_t i = 0; i < request["query"].size(); ++i) {
        const std::string q = request["query"][i].get<std::string>();
        const std::string p = request["prompts"][i].get<std::string>();
        out.push_back(std::stod(q.substr(p.size())));
    }
    return out;
}

bool has(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestRemoteReward : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void badOptions_data();
    void badOptions();
    void optionDefaultsAndSpellings();
    void registered();
    void requestBody();
    void labelsFromColumnsIdsAndRecords();
    void batching();
    void retryAfter500();
    void garbageJson();
    void wrongLength();
    void nanAndOtherNonNumbers();
    void deadServer();
    void breakerOpens();
    void cacheHitsAndDuplicates();
    void cacheFileSharedByComponents();
    void openRlhfReplyShape();
    void explanations();
    void checkExample();
    void endToEndAgainstRwbServe();
};

void TestRemoteReward::badOptions_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("message");
    QTest::newRow("no url") << R"({})" << "options.url: missing";
    QTest::newRow("empty url") << R"({"url": ""})" << "options.url: must be a non-empty string";
    QTest::newRow("scheme") << R"({"url": "ftp://h/x"})" << "options.url: URL \"ftp://h/x\" has scheme \"ftp\"";
    QTest::newRow("no path") << R"({"url": "http://h:5000"})" << "options.url: \"http://h:5000\" has no path";
    QTest::newRow("key in url") << R"({"url": "http://h/r?api_key=x"})" << "has a key in its query";
    QTest::newRow("unknown") << R"({"url": "http://h/r", "timeout_ms": 3})" << "options.timeout_ms: unknown option";
    QTest::newRow("query") << R"({"url": "http://h/r", "query": "prompt"})"
                           << "options.query: unknown value \"prompt\" (allowed: prompt+completion, completion)";
    QTest::newRow("labels $") << R"({"url": "http://h/r", "labels": "$gld"})" << "options.labels: unknown value \"$gld\"";
    QTest::newRow("both spellings") << R"({"url": "http://h/r", "timeout": 3, "timeout_s": 3})"
                                    << "options.timeout_s: give timeout or timeout_s, not both";
    QTest::newRow("timeout 0") << R"({"url": "http://h/r", "timeout_s": 0})" << "options.timeout_s: must be at least";
    QTest::newRow("retries") << R"({"url": "http://h/r", "retries": -1})" << "options.retries: must be at least 0";
    QTest::newRow("batch") << R"({"url": "http://h/r", "batch": 1.5})" << "options.batch: must be a whole number";
    QTest::newRow("concurrency") << R"({"url": "http://h/r", "concurrency": 0})" << "options.concurrency: must be at least 1";
    QTest::newRow("cache") << R"({"url": "http://h/r", "cache": "yes"})" << "options.cache: must be true or false";
    QTest::newRow("cache_file without cache") << R"({"url": "http://h/r", "cache": false, "cache_file": "c.sqlite"})"
                                              << "options.cache_file: set, but \"cache\" is false";
    QTest::newRow("field") << R"({"url": "http://h/r", "field": 3})" << "options.field: must be a non-empty string";
    QTest::newRow("not an object") << R"([1])" << "options: must be a JSON object";
}

void TestRemoteReward::badOptions()
{
    QFETCH(QString, options);
    QFETCH(QString, message);
    try {
        parseRemoteRewardOptions(options.toStdString(), "/cfg");
        QFAIL("no exception");
    } catch (const std::invalid_argument &e) {
        if (!has(e.what(), message.toStdString()))
            QFAIL(qPrintable(QString("got: ") + e.what()));
    }
}

void TestRemoteReward::optionDefaultsAndSpellings()
{
    const RemoteRewardOptions d = parseRemoteRewardOptions(R"({"url": "http://h:5000/get_reward"})", "/cfg");
    QCOMPARE(d.server.url, std::string("http://h:5000/get_reward"));
    QCOMPARE(d.server.breaker.threshold, 20); // as the judge's
    QCOMPARE(d.server.breaker.cooldownSeconds, 30.0);
    QCOMPARE(d.server.retry.timeoutSeconds, 60.0);
    QCOMPARE(d.server.retry.deadlineSeconds, 300.0);
    QCOMPARE(d.server.retry.maxRetries, 4);
    QCOMPARE(d.server.retry.backoffSeconds, 1.0);
    QCOMPARE(d.server.retry.backoffMaxSeconds, 30.0);
    QVERIFY(d.query == RemoteQuery::PromptAndCompletion);
    QVERIFY(d.labels == RemoteLabels::Gold);
    QCOMPARE(d.field, std::string("rewards"));
    QCOMPARE(d.batch, size_t(0));
    QCOMPARE(d.concurrency, 4);
    QVERIFY(d.cache);
    QVERIFY(d.cacheFile.empty());

    // The judge's names and the "_s" spellings; paths from the config's folder.
    const RemoteRewardOptions o = parseRemoteRewardOptions(
        R"({"url": "https://h/r", "timeout_s": 7, "deadline": 70, "backoff_s": 0.5, "backoff_max": 2,
            "retries": 1, "breaker_threshold": 3, "breaker_cooldown_s": 9, "api_key_env": "K",
            "ca_cert": "ca.pem", "cache_file": "c.sqlite", "labels": "answer", "query": "completion",
            "batch": 8, "concurrency": 2, "field": "scores"})",
        "/cfg");
    QCOMPARE(o.server.retry.timeoutSeconds, 7.0);
    QCOMPARE(o.server.retry.deadlineSeconds, 70.0);
    QCOMPARE(o.server.retry.backoffSeconds, 0.5);
    QCOMPARE(o.server.retry.backoffMaxSeconds, 2.0);
    QCOMPARE(o.server.retry.maxRetries, 1);
    QCOMPARE(o.server.breaker.threshold, 3);
    QCOMPARE(o.server.breaker.cooldownSeconds, 9.0);
    QCOMPARE(o.server.apiKeyEnv, std::string("K"));
    QCOMPARE(o.server.caCertPath, std::string("/cfg/ca.pem"));
    QCOMPARE(o.cacheFile, std::string("/cfg/c.sqlite"));
    QVERIFY(o.labels == RemoteLabels::Column);
    QCOMPARE(o.labelColumn, std::string("answer"));
    QVERIFY(o.query == RemoteQuery::Completion);
    QCOMPARE(o.batch, size_t(8));
    QCOMPARE(o.concurrency, 2);
    QCOMPARE(o.field, std::string("scores"));
    QVERIFY(parseRemoteRewardOptions(R"({"url": "http://h/r", "labels": "$id"})", "").labels == RemoteLabels::Id);
    QVERIFY(parseRemoteRewardOptions(R"({"url": "http://h/r", "labels": "$record"})", "").labels ==
            RemoteLabels::Record);
    QVERIFY(parseRemoteRewardOptions(R"({"url": "http://h/r", "labels": "$gold"})", "").labels == RemoteLabels::Gold);
}

void TestRemoteReward::registered()
{
    Registry registry;
    addLibraryRewards(registry);
    const Registry::Entry *e = registry.find("remote");
    QVERIFY(e);
    QVERIFY(e->task.empty()); // generic: every task
    RewardOptions options;
    options.componentOptions = R"({"url": "http://127.0.0.1:9/get_reward"})";
    options.label = "rm";
    const std::unique_ptr<Reward> r = registry.create("remote", options); // contacts nothing
    QCOMPARE(std::string(r->name()), std::string("rm"));
    options.label.clear();
    QCOMPARE(std::string(registry.create("remote", options)->name()), std::string("remote"));
    options.componentOptions = R"({"url": "http://127.0.0.1:9/get_reward", "retry": 1})";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, registry.create("remote", options));
    // Both tables have the component's sentences.
    QCOMPARE(libraryDetail("remote.value", {"http://h/r", "0.5"}), std::string("The reward server http://h/r gave 0.5."));
    QCOMPARE(libraryDetail("remote.none", {"http://h/r", "HTTP 500"}),
             std::string("The reward server http://h/r gave no value: HTTP 500."));
}

void TestRemoteReward::requestBody()
{
    ScriptedServer server(
        [](int, const SeenRequest &, httplib::Response &res) { answer(res, {{"rewards", {0.25, 1.0, -0.5}}}); },
        false, "/get_reward");
    QVERIFY(server.ok());
    qputenv("RWB_TEST_REMOTE_KEY", "k-123");
    Batch b;
    b.addRecord("A: 4", json::object(), "What is 2+2? ");
    // A conversational prompt: its contents, one message per line.
    b.addRecord("Tokyo", json::object(),
                json::array({json{{"role", "system"}, {"content", "Be brief."}},
                             json{{"role", "user"}, {"content", json::array({json{{"type", "text"}, {"text", "Capital"}},
                                                                             json{{"type", "text"}, {"text", " of Japan?"}}})}}}));
    // A built-in task's example: no prompt.
    b.add(std::make_unique<GoldItem>("c1", "株式会社みどり製作所"), std::make_unique<Text>("みどり"));
    auto reward = make(fast(endpoint(server), {{"api_key_env", "RWB_TEST_REMOTE_KEY"}}));
    const std::vector<double> v = b.score(*reward);
    // Passed through as given: not clipped to [0, 1].
    QCOMPARE(v, (std::vector<double>{0.25, 1.0, -0.5}));
    const auto seen = server.requests();
    QCOMPARE(seen.size(), size_t(1));
    QCOMPARE(seen[0].path, std::string("/get_reward"));
    QCOMPARE(seen[0].authorization, std::string("Bearer k-123"));
    const json expected = {{"query", {"What is 2+2? A: 4", "Be brief.\nCapital of Japan?Tokyo", "みどり"}},
                           {"prompts", {"What is 2+2? ", "Be brief.\nCapital of Japan?", ""}},
                           {"labels", {"g0", "g1", "株式会社みどり製作所"}}};
    QCOMPARE(seen[0].body, expected);
    qunsetenv("RWB_TEST_REMOTE_KEY");

    // "query": "completion": the completion alone; the prompt still goes in "prompts".
    auto plain = make(fast(endpoint(server), {{"query", "completion"}, {"cache", false}}));
    QCOMPARE(b.score(*plain), (std::vector<double>{0.25, 1.0, -0.5}));
    const json second = server.requests().back().body;
    QCOMPARE(second["query"], json({"A: 4", "Tokyo", "みどり"}));
    QCOMPARE(second["prompts"], expected["prompts"]);
    QVERIFY(!server.requests().back().hasAuthorization);
}

void TestRemoteReward::labelsFromColumnsIdsAndRecords()
{
    ScriptedServer server([](int, const SeenRequest &r, httplib::Response &res) {
        (void)r;
        answer(res, {{"rewards", {1.0, 0.0}}});
    }, false, "/get_reward");
    Batch b;
    b.addRecord("x", {{"answer", "42"}, {"meta", {{"k", 1}}}});
    b.addRecord("y", {{"answer", "7"}, {"meta", {{"k", 2}}}});
    const auto labels = [&](const json &extra) {
        auto reward = make(fast(endpoint(server), extra));
        b.score(*reward);
        return server.requests().back().body["labels"];
    };
    QCOMPARE(labels({{"labels", "answer"}}), json({"42", "7"}));
    QCOMPARE(labels({{"labels", "meta"}}), json({R"({"k":1})", R"({"k":2})"})); // not a string: its JSON text
    QCOMPARE(labels({{"labels", "$id"}}), json({"r0", "r1"}));
    QCOMPARE(labels({{"labels", "$record"}}),
             json({R"({"answer":"42","meta":{"k":1}})", R"({"answer":"7","meta":{"k":2}})"}));
    QCOMPARE(labels({{"labels", "$gold"}}), json({"g0", "g1"}));

    // An item without its label is None and is not sent; the others are.
    Batch c;
    c.addRecord("x", {{"answer", "42"}});
    c.addRecord("y", {{"other", 1}});
    c.addRecord("z", {{"answer", "9"}});
    const size_t before = server.requests().size();
    auto reward = make(fast(endpoint(server), {{"labels", "answer"}}));
    const std::vector<double> v = c.score(*reward);
    QCOMPARE(server.requests().size(), before + 1);
    QCOMPARE(server.requests().back().body["labels"], json({"42", "9"}));
    QCOMPARE(v[0], 1.0);
    QVERIFY(isNone(v[1]));
    QCOMPARE(v[2], 0.0);
    const RemoteBatchResult r = reward->lastBatch();
    QVERIFY(has(r.errors[1], "example \"r1\" has no column \"answer\""));
    QVERIFY(has(r.errors[1], endpoint(server)));
}

void TestRemoteReward::batching()
{
    ScriptedServer server([](int, const SeenRequest &r, httplib::Response &res) { answer(res, {{"rewards", numbersOf(r.body)}}); },
                          false, "/get_reward");
    Batch b;
    for (const char *x : {"0.5", "0.25", "1", "0.125", "2"})
        b.addRecord(x);
    // batch 2: requests of 2, 2 and 1 items, in order.
    auto reward = make(fast(endpoint(server), {{"batch", 2}, {"concurrency", 1}, {"cache", false}}));
    QCOMPARE(b.score(*reward), (std::vector<double>{0.5, 0.25, 1.0, 0.125, 2.0}));
    auto seen = server.requests();
    QCOMPARE(seen.size(), size_t(3));
    QCOMPARE(seen[0].body["query"], json({"Q0: 0.5", "Q1: 0.25"}));
    QCOMPARE(seen[1].body["query"], json({"Q2: 1", "Q3: 0.125"}));
    QCOMPARE(seen[2].body["query"], json({"Q4: 2"}));
    QCOMPARE(reward->lastBatch().requests, size_t(3));
    // batch 1 with 3 requests in flight: each value still lands on its own item.
    auto parallel = make(fast(endpoint(server), {{"batch", 1}, {"concurrency", 3}, {"cache", false}}));
    QCOMPARE(b.score(*parallel), (std::vector<double>{0.5, 0.25, 1.0, 0.125, 2.0}));
    QCOMPARE(server.requests().size(), size_t(3 + 5));
    // batch 0 (the default): one request for the whole batch.
    auto whole = make(fast(endpoint(server), {{"cache", false}}));
    QCOMPARE(b.score(*whole), (std::vector<double>{0.5, 0.25, 1.0, 0.125, 2.0}));
    QCOMPARE(server.requests().size(), size_t(3 + 5 + 1));
    QCOMPARE(server.requests().back().body["query"].size(), size_t(5));
}

void TestRemoteReward::retryAfter500()
{
    ScriptedServer server([](int n, const SeenRequest &r, httplib::Response &res) {
        if (n == 0) {
            res.status = 500;
            res.set_content(R"({"detail": "CUDA out of memory"})", "application/json");
            return;
        }
        answer(res, {{"rewards", numbersOf(r.body)}});
    }, false, "/get_reward");
    Batch b;
    b.addRecord("0.75");
    b.addRecord("0.5");
    auto reward = make(fast(endpoint(server), {{"retries", 2}}));
    QCOMPARE(b.score(*reward), (std::vector<double>{0.75, 0.5}));
    QCOMPARE(server.requests().size(), size_t(2)); // the same request again
    QCOMPARE(server.requests()[0].body, server.requests()[1].body);
    const rwb::net::ClientStats s = reward->clientStats();
    QCOMPARE(s.calls, uint64_t(1));
    QCOMPARE(s.retries, uint64_t(1));
    QCOMPARE(s.failures, uint64_t(0));
    QVERIFY(reward->lastBatch().errors[0].empty());
}

void TestRemoteReward::garbageJson()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.set_content("<html><body>502 Bad Gateway</body></html>", "text/html");
    }, false, "/get_reward");
    Batch b;
    b.addRecord("0.5");
    b.addRecord("0.25");
    auto reward = make(fast(endpoint(server), {{"retries", 1}}));
    ScoreLog log;
    const std::vector<double> v = b.score(*reward, &log);
    QVERIFY(isNone(v[0]) && isNone(v[1])); // never 0
    QCOMPARE(server.requests().size(), size_t(2)); // a body that is not JSON is retried (a proxy's page)
    const RemoteBatchResult r = reward->lastBatch();
    for (const std::string &e : r.errors) {
        QVERIFY2(has(e, "remote reward " + endpoint(server) + ": the answer is not JSON"), e.c_str());
        QVERIFY2(has(e, "502 Bad Gateway"), e.c_str());
        QVERIFY2(has(e, "gave up after 2 attempts"), e.c_str());
    }
    // Each item's error in the log, under the component's name.
    const std::vector<ItemNote> notes = log.takeNotes();
    QCOMPARE(notes.size(), size_t(2));
    QCOMPARE(notes[0].component, std::string("remote"));
    QCOMPARE(notes[1].item, size_t(1));
    QCOMPARE(notes[1].error, r.errors[1]);
    QVERIFY(notes[1].extraJson.empty());
    // A None is not cached: the next call asks again.
    b.score(*reward);
    QCOMPARE(server.requests().size(), size_t(4));
}

void TestRemoteReward::wrongLength()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) { answer(res, {{"rewards", {0.5, 0.5}}}); },
                          false, "/get_reward");
    Batch b;
    b.addRecord("a");
    b.addRecord("b");
    b.addRecord("c");
    auto reward = make(fast(endpoint(server), {{"retries", 3}}));
    const std::vector<double> v = b.score(*reward);
    QVERIFY(isNone(v[0]) && isNone(v[1]) && isNone(v[2]));
    QCOMPARE(server.requests().size(), size_t(1)); // a wrong server: not retried
    const std::string e = reward->lastBatch().errors[2];
    QVERIFY2(has(e, endpoint(server) + ": \"rewards\" has 2 rewards for 3 items (not retried)"), e.c_str());

    // No "rewards" at all, and rewards that are no list.
    ScriptedServer other([](int n, const SeenRequest &, httplib::Response &res) {
        answer(res, n == 0 ? json{{"score", {1, 2, 3}}} : json{{"rewards", 0.5}});
    }, false, "/get_reward");
    auto r2 = make(fast(endpoint(other), {{"cache", false}}));
    QVERIFY(isNone(b.score(*r2)[0]));
    QVERIFY2(has(r2->lastBatch().errors[0], "the answer has no \"rewards\""), r2->lastBatch().errors[0].c_str());
    QVERIFY(isNone(b.score(*r2)[0]));
    QVERIFY2(has(r2->lastBatch().errors[0], "\"rewards\" is a number, not a list"), r2->lastBatch().errors[0].c_str());
}

void TestRemoteReward::nanAndOtherNonNumbers()
{
    // As Python's json.dumps writes them (Flask): bare NaN and Infinity, not JSON.
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.set_content(R"({"rewards": [0.5, NaN, "high", null, -Infinity, true, 1e-3],
                            "note": "NaN in a string stays"})", "application/json");
    }, false, "/get_reward");
    Batch b;
    for (int i = 0; i < 7; ++i)
        b.addRecord("c" + std::to_string(i));
    auto reward = make(fast(endpoint(server)));
    const std::vector<double> v = b.score(*reward);
    QCOMPARE(v[0], 0.5);
    QCOMPARE(v[6], 0.001);
    for (int i = 1; i <= 5; ++i)
        QVERIFY2(isNone(v[i]), qPrintable(QString::number(i)));
    const RemoteBatchResult r = reward->lastBatch();
    const std::string prefix = "remote reward " + endpoint(server) + ": ";
    QCOMPARE(r.errors[0], std::string());
    QCOMPARE(r.errors[1], prefix + "rewards[1] is NaN, not a finite number");
    QCOMPARE(r.errors[2], prefix + "rewards[2] is \"high\" (string), not a number");
    QCOMPARE(r.errors[3], prefix + "rewards[3] is null, not a number");
    QCOMPARE(r.errors[4], prefix + "rewards[4] is -Infinity, not a finite number");
    QCOMPARE(r.errors[5], prefix + "rewards[5] is true (boolean), not a number");
    QCOMPARE(server.requests().size(), size_t(1)); // an answer: not retried
}

void TestRemoteReward::deadServer()
{
    const std::string url = "http://127.0.0.1:" + std::to_string(rwbtest::closedPort()) + "/get_reward";
    Batch b;
    b.addRecord("0.5");
    auto reward = make(fast(url, {{"retries", 1}}), "rm");
    QElapsedTimer t;
    t.start();
    ScoreLog log;
    const std::vector<double> v = b.score(*reward, &log);
    QVERIFY(isNone(v[0]));
    QVERIFY(t.elapsed() < 5000);
    const std::string e = reward->lastBatch().errors[0];
    QVERIFY2(has(e, "remote reward rm " + url + ": could not connect (connection refused or host unreachable); "
                    "gave up after 2 attempts"), e.c_str());
    QCOMPARE(log.takeNotes().at(0).component, std::string("rm"));
    // score() and explain() too: None, no exception.
    QVERIFY(isNone(reward->score(*b.examples[0], *b.completions[0])));
}

void TestRemoteReward::breakerOpens()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.status = 503;
        res.set_content(R"({"error": {"message": "loading"}})", "application/json");
    }, false, "/get_reward");
    Batch b;
    b.addRecord("0.5");
    // Two failed calls in a row open the breaker for a minute; the third sends nothing.
    auto reward = make(fast(endpoint(server), {{"retries", 0}, {"breaker_threshold", 2}, {"breaker_cooldown", 60}}));
    QVERIFY(isNone(b.score(*reward)[0]));
    QVERIFY2(has(reward->lastBatch().errors[0], "HTTP 503"), reward->lastBatch().errors[0].c_str());
    QVERIFY(isNone(b.score(*reward)[0]));
    QCOMPARE(server.requests().size(), size_t(2));
    QVERIFY(isNone(b.score(*reward)[0]));
    QCOMPARE(server.requests().size(), size_t(2));
    const std::string e = reward->lastBatch().errors[0];
    QVERIFY2(has(e, endpoint(server) + ": circuit breaker open after 2 failed calls in a row"), e.c_str());
    QVERIFY2(has(e, "(nothing sent)"), e.c_str());
    QCOMPARE(reward->clientStats().breakerRefusals, uint64_t(1));
}

void TestRemoteReward::cacheHitsAndDuplicates()
{
    ScriptedServer server([](int, const SeenRequest &r, httplib::Response &res) {
        json extra = json::array();
        for (size_t i = 0; i < r.body["query"].size(); ++i)
            extra.push_back(static_cast<int>(i));
        answer(res, {{"rewards", numbersOf(r.body)}, {"extra_logs", {{"position", extra}}}});
    }, false, "/get_reward");
    Batch b;
    b.addRecord("0.5");
    b.addRecord("0.25");
    auto reward = make(fast(endpoint(server)));
    const std::vector<double> first = b.score(*reward);
    QCOMPARE(first, (std::vector<double>{0.5, 0.25}));
    QCOMPARE(server.requests().size(), size_t(1));
    QCOMPARE(reward->lastBatch().cacheHits, size_t(0));
    // The same call again: no request; the values and their extra values from the cache.
    ScoreLog log;
    QCOMPARE(b.score(*reward, &log), first);
    QCOMPARE(server.requests().size(), size_t(1));
    QCOMPARE(reward->lastBatch().cacheHits, size_t(2));
    QCOMPARE(reward->lastBatch().requests, size_t(0));
    QCOMPARE(log.takeNotes().at(1).extraJson, std::string(R"({"position":1})"));
    // explain() of an item scored in a batch: from the cache too.
    const Explanation x = reward->explain(*b.examples[1], *b.completions[1]);
    QCOMPARE(x.value, 0.25);
    QVERIFY(has(x.detail, "(cached)"));
    QCOMPARE(server.requests().size(), size_t(1));

    // Within a batch, an item asked twice (same prompt, completion and label) is sent once;
    // one new item goes alone.
    Batch d;
    d.addRecord("0.5");     // cached (Q0: 0.5, gold g0)
    d.addRecord("0.75");    // new
    d.addRecord("0.75");    // Q2 ≠ Q1: new as well
    d.add(std::make_unique<RecordItem>("r1b", json::object(), "Q1: ", "g1"), std::make_unique<Text>("0.75")); // = item 1
    QCOMPARE(d.score(*reward), (std::vector<double>{0.5, 0.75, 0.75, 0.75}));
    QCOMPARE(server.requests().size(), size_t(2));
    QCOMPARE(server.requests().back().body["query"], json({"Q1: 0.75", "Q2: 0.75"}));
    QCOMPARE(reward->lastBatch().cacheHits, size_t(2)); // item 0 (cached), item 3 (item 1's answer)

    // "cache": false: every call asks, duplicates included.
    auto uncached = make(fast(endpoint(server), {{"cache", false}}));
    d.score(*uncached);
    d.score(*uncached);
    QCOMPARE(server.requests().size(), size_t(4));
    QCOMPARE(server.requests().back().body["query"].size(), size_t(4));
    QCOMPARE(uncached->lastBatch().cacheHits, size_t(0));
}

void TestRemoteReward::cacheFileSharedByComponents()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    ScriptedServer server([](int, const SeenRequest &r, httplib::Response &res) {
        answer(res, {{"rewards", numbersOf(r.body)}, {"extra_logs", {{"dummy_scores", numbersOf(r.body)}}}});
    }, false, "/get_reward");
    Batch b;
    b.addRecord("0.5");
    b.addRecord("0.375");
    const json options = fast(endpoint(server), {{"cache_file", "remote_cache.sqlite"}});
    {
        auto first = std::make_unique<RemoteReward>(parseRemoteRewardOptions(options.dump(), dir.path().toStdString()));
        QCOMPARE(b.score(*first), (std::vector<double>{0.5, 0.375}));
    }
    QVERIFY(QFile::exists(dir.filePath("remote_cache.sqlite")));
    // A new component (a later run) reads the file: no request.
    auto second = std::make_unique<RemoteReward>(parseRemoteRewardOptions(options.dump(), dir.path().toStdString()));
    QCOMPARE(b.score(*second), (std::vector<double>{0.5, 0.375}));
    QCOMPARE(server.requests().size(), size_t(1));
    QCOMPARE(second->lastBatch().extra[1], std::string(R"({"dummy_scores":0.375})"));
    // Another field is another key: asked again.
    json scores = options;
    scores["field"] = "extra_logs.dummy_scores";
    auto third = std::make_unique<RemoteReward>(parseRemoteRewardOptions(scores.dump(), dir.path().toStdString()));
    QCOMPARE(b.score(*third), (std::vector<double>{0.5, 0.375}));
    QCOMPARE(server.requests().size(), size_t(2));
    // A file that is not SQLite: a clear error at construction.
    const QString bad = dir.filePath("bad.sqlite");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(4096, 'x'));
    f.close();
    json badOptions = options;
    badOptions["cache_file"] = bad.toStdString();
    try {
        RemoteReward r(parseRemoteRewardOptions(badOptions.dump(), {}));
        QFAIL("no exception");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(has(e.what(), "options.cache_file: "), e.what());
    }
}

void TestRemoteReward::openRlhfReplyShape()
{
    // OpenRLHF's serve_rm answers {"rewards", "scores", "extra_logs"}; a reward_func's
    // extra_logs may hold one number for the batch (math_accuracy).
    ScriptedServer server([](int n, const SeenRequest &r, httplib::Response &res) {
        const json values = numbersOf(r.body);
        json scores = json::array();
        for (const json &v : values)
            scores.push_back(std::clamp(v.get<double>(), 0.0, 1.0));
        const json full = {{"rewards", values},
                           {"scores", scores},
                           {"extra_logs", {{"dummy_scores", values}, {"math_accuracy", n == 0 ? 0.5 : 1.0},
                                           {"short", {1, 2, 3}}, {"tag", "x"}}}};
        if (n == 2)
            answer(res, values); // a bare list
        else if (n == 3)
            answer(res, {{"data", {{"values", {0.1, 0.2}}}}});
        else
            answer(res, full);
    }, false, "/get_reward");
    Batch b;
    b.addRecord("1.5");
    b.addRecord("-0.5");
    ScoreLog log;
    auto rewards = make(fast(endpoint(server), {{"batch", 1}, {"concurrency", 1}, {"cache", false}}), "rm");
    // batch 1: two requests, the first answer's [0] and the second's [1].
    QCOMPARE(b.score(*rewards, &log), (std::vector<double>{1.5, -0.5}));
    const std::vector<ItemNote> notes = log.takeNotes();
    QCOMPARE(notes.size(), size_t(2));
    QCOMPARE(notes[0].extraJson, std::string(R"({"dummy_scores":1.5})"));
    QCOMPARE(notes[1].extraJson, std::string(R"({"dummy_scores":-0.5})"));
    QVERIFY(notes[0].error.empty());
    // One number per request: a metric, averaged over the requests: (0.5 + 1) / 2.
    const auto metrics = log.takeMetrics();
    QCOMPARE(metrics.size(), size_t(1));
    QCOMPARE(metrics[0].first, std::string("reward_metric/rm/math_accuracy"));
    QCOMPARE(metrics[0].second, 0.75);
    // A bare list; a dotted field.
    auto bare = make(fast(endpoint(server), {{"cache", false}}));
    QCOMPARE(b.score(*bare), (std::vector<double>{1.5, -0.5}));
    auto dotted = make(fast(endpoint(server), {{"cache", false}, {"field", "data.values"}}));
    QCOMPARE(b.score(*dotted), (std::vector<double>{0.1, 0.2}));
    // "scores" instead of "rewards".
    auto scores = make(fast(endpoint(server), {{"cache", false}, {"field", "scores"}}));
    QCOMPARE(b.score(*scores), (std::vector<double>{1.0, 0.0}));

    // rwb serve's OpenRLHF answer: None is sent as 0 with extra_logs.reward_none 1.
    ScriptedServer ours([](int, const SeenRequest &, httplib::Response &res) {
        answer(res, {{"rewards", {0.0, 0.95}}, {"scores", {0.0, 0.95}},
                     {"extra_logs", {{"partial", {0.0, 0.75}}, {"reward_none", {1.0, 0.0}}}}});
    }, false, "/reward");
    auto served = make(fast(endpoint(ours, "/reward")));
    const std::vector<double> v = b.score(*served);
    QVERIFY(isNone(v[0]));
    QCOMPARE(v[1], 0.95);
    const RemoteBatchResult r = served->lastBatch();
    QVERIFY2(has(r.errors[0], "the server marked the value None (extra_logs.reward_none = 1.0"), r.errors[0].c_str());
    QCOMPARE(r.extra[1], std::string(R"({"partial":0.75})"));
}

void TestRemoteReward::explanations()
{
    ScriptedServer server([](int, const SeenRequest &r, httplib::Response &res) { answer(res, {{"rewards", numbersOf(r.body)}}); },
                          false, "/get_reward");
    Batch b;
    b.addRecord("0.625");
    auto reward = make(fast(endpoint(server)), "rm");
    const Explanation x = reward->explain(*b.examples[0], *b.completions[0]);
    QCOMPARE(x.reward, std::string("rm"));
    QVERIFY(x.reason == Reason::Library);
    QCOMPARE(x.value, 0.625);
    QCOMPARE(x.key, std::string("remote.value"));
    QCOMPARE(x.args, (std::vector<std::string>{endpoint(server), "0.625"}));
    QCOMPARE(x.detail, "rm (" + endpoint(server) + ") gave 0.625");
    QVERIFY(x.error.empty());

    const std::string dead = "http://127.0.0.1:" + std::to_string(rwbtest::closedPort()) + "/get_reward";
    auto down = make(fast(dead, {{"retries", 0}}));
    const Explanation n = down->explain(*b.examples[0], *b.completions[0]);
    QVERIFY(isNone(n.value));
    QCOMPARE(n.key, std::string("remote.none"));
    QCOMPARE(n.args.size(), size_t(2));
    QCOMPARE(n.args[0], dead);
    QVERIFY2(n.args[1].rfind("could not connect", 0) == 0, n.args[1].c_str()); // the URL not repeated
    QVERIFY(has(n.error, "remote reward " + dead + ": could not connect"));
    QVERIFY(has(n.detail, "gave None: could not connect"));
}

void TestRemoteReward::checkExample()
{
    auto byColumn = make(fast("http://127.0.0.1:9/r", {{"labels", "answer"}}), "rm");
    const RecordItem with("r1", {{"answer", "1"}}, "Q");
    const RecordItem without("r2", {{"other", "1"}}, "Q");
    const GoldItem gold("c1", "x");
    byColumn->checkExample(with);
    try {
        byColumn->checkExample(without);
        QFAIL("no exception");
    } catch (const std::invalid_argument &e) {
        QCOMPARE(std::string(e.what()), std::string(R"(rm: example "r2" has no column "answer" ("labels"))"));
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, byColumn->checkExample(gold));
    auto byRecord = make(fast("http://127.0.0.1:9/r", {{"labels", "$record"}}));
    byRecord->checkExample(with);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, byRecord->checkExample(gold));
    auto byId = make(fast("http://127.0.0.1:9/r", {{"labels", "$id"}}));
    byId->checkExample(gold);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, byId->checkExample(GoldItem("", "x")));
    make(fast("http://127.0.0.1:9/r"))->checkExample(gold); // the gold: every example has one
}

void TestRemoteReward::endToEndAgainstRwbServe()
{
    // rwb serve --reward-config cli_config.json --reward-data cli_input.jsonl, in-process;
    // the remote component names each record by its id ("labels": "$id").
    const std::string config = RWB_TEST_DATA "/cli_config.json"; // partial 20 + marker 80
    const std::string data = RWB_TEST_DATA "/cli_input.jsonl";   // c1 … c5 (company_extraction)
    const rwb::task::Catalog &catalog = rwb::task::Catalog::builtin();
    rwb::serve::RewardServiceOptions so;
    so.configPath = config;
    so.dataPath = data;
    auto service = std::make_shared<rwb::serve::RewardService>(so, catalog);
    rwb::serve::ServerOptions http;
    http.port = 0;
    rwb::serve::OpenAiServer server(http);
    server.start();
    server.setModels(nullptr, {}, service);

    const RewardConfig cfg = loadRewardConfig(config, catalog.rewards());
    const CompositeReward composite(cfg, config, catalog.rewards());
    const rwb::task::Task &task = catalog.get(cfg.task, config, "task");
    std::vector<rwb::task::Record> records = task.read(data, {});
    QVERIFY(records.size() >= 3);
    const std::vector<std::string> replies = {"株式会社みどり製作所", "みどり製作", "SKYネット"};
    std::vector<std::unique_ptr<rwb::task::Completion>> parsed;
    std::vector<const rwb::task::Example *> examples;
    std::vector<const rwb::task::Completion *> completions;
    for (size_t i = 0; i < replies.size(); ++i) {
        parsed.push_back(task.parse(*records[i].example, replies[i], cfg.thinking));
        examples.push_back(records[i].example.get());
        completions.push_back(parsed.back().get());
    }
    const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/reward";
    auto remote = make(fast(url, {{"labels", "$id"}}), "served");
    std::vector<double> values;
    ScoreLog log;
    remote->scoreBatch(examples, completions, values, &log);
    QCOMPARE(values.size(), replies.size());
    const std::vector<ItemNote> notes = log.takeNotes();
    QCOMPARE(notes.size(), replies.size());
    for (size_t i = 0; i < replies.size(); ++i) {
        const auto direct = composite.score(*examples[i], *completions[i]);
        QCOMPARE(values[i], direct.total);
        const json extra = json::parse(notes[i].extraJson);
        QCOMPARE(extra["partial"].get<double>(), direct.components[0]);
        QCOMPARE(extra["marker"].get<double>(), direct.components[1]);
        QVERIFY(!extra.contains("reward_none"));
    }
    // By hand (tst_rewardserver): the gold scores 1; c3's "SKYネット" 0.2·0.75 + 0.8 = 0.95.
    QCOMPARE(values[0], 1.0);
    QVERIFY(std::abs(values[2] - 0.95) < 1e-12);
    // The gold as the label is no record and no id: the server's 400 names the field.
    auto wrong = make(fast(url, {{"retries", 2}}));
    std::vector<double> none;
    wrong->scoreBatch(examples, completions, none);
    QVERIFY(isNone(none[0]));
    const std::string e = wrong->lastBatch().errors[0];
    QVERIFY2(has(e, url + ": HTTP 400") && has(e, "(not retried)"), e.c_str());
    server.stop();
}

QTEST_APPLESS_MAIN(TestRemoteReward)
#include "tst_remotereward.moc"
