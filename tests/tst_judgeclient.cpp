// core/judge: the judge client (requests, the cache key, replies, retries, the circuit
// breaker, the persistent cache, costs) against a scripted loopback server, and the
// fault cases the judge issue names: timeouts, 429 with Retry-After, 500s, truncated
// JSON, a body that is not JSON, a slow trickle, a dropped connection.
//
// Expected counts are worked out from the scripts: with maxRetries r a call makes at most
// r + 1 attempts. Backoff is 0.01 s wherever a retry is expected; the whole test takes
// about 3 s (Retry-After 0.3 s, timeouts of 0.3 s, a 0.6 s trickle).
#include "judge/judgeclient.h"
#include "judge/judgecache.h"
#include "judge/judgeconfig.h"
#include "llm/chatjson.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include "loopbackserver.h"

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

using namespace rwb;
using namespace rwb::judge;
using rwb::llm::chatReplyJson;
using rwb::llm::parseChatReply;
using rwb::llm::requestJson;
using rwbtest::RawServer;
using rwbtest::ScriptedServer;
using rwbtest::SeenRequest;
using json = nlohmann::json;

namespace {

constexpr const char *kPath = "/v1/chat/completions";

// A chat completion whose only choice says `content`.
std::string completion(const std::string &content, int promptTokens = 100, int completionTokens = 20)
{
    return json{{"id", "chatcmpl-1"},
                {"object", "chat.completion"},
                {"model", "judge-test"},
                {"choices",
                 json::array({{{"index", 0},
                               {"message", {{"role", "assistant"}, {"content", content}}},
                               {"finish_reason", "stop"}}})},
                {"usage",
                 {{"prompt_tokens", promptTokens},
                  {"completion_tokens", completionTokens},
                  {"total_tokens", promptTokens + completionTokens}}}}
        .dump();
}

ChatRequest request(const std::string &text = "Is the sky blue?")
{
    ChatRequest r;
    r.messages = {{"system", "You are a strict grader."}, {"user", text}};
    r.sampling.temperature = 0.0;
    r.sampling.maxTokens = 64;
    return r;
}

// `n` requests whose user messages are prefix0, prefix1, …
std::vector<ChatRequest> numberedRequests(const std::string &prefix, int n)
{
    std::vector<ChatRequest> out;
    for (int i = 0; i < n; ++i)
        out.push_back(request(prefix + std::to_string(i)));
    return out;
}

// Options for a server at `url`: fast retries, no persistent cache.
JudgeOptions options(const std::string &url, int retries = 3)
{
    JudgeOptions o;
    o.server.url = url;
    o.model = "judge-test";
    o.server.retry.maxRetries = retries;
    o.server.retry.backoffSeconds = 0.01;
    o.server.retry.backoffMaxSeconds = 0.01;
    o.server.retry.timeoutSeconds = 2.0;
    o.server.retry.deadlineSeconds = 10.0;
    o.server.breaker.threshold = 0;
    return o;
}

std::string serverUrl(const ScriptedServer &s)
{
    return s.url(); // http://127.0.0.1:port/v1
}

} // namespace

class TestJudgeClient : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void requestShape();
    void cacheKey();
    void parseReplies();
    void success();
    void retryAfter();
    void serverErrors();
    void clientErrorNotRetried();
    void truncatedAndNotJson();
    void timeout();
    void slowTrickle();
    void droppedConnection();
    void circuitBreaker();
    void breakerHalfOpenLetsOneTrialThrough();
    void clientErrorsDoNotOpenTheBreaker();
    void failuresAndCutRepliesAreNotKept();
    void duplicatesAndMemo();
    void persistentCache();
    void concurrency();
    void cancelSending();
    void cancelCutsAWaitingCallShort();
    void cancelEndsTheWaitBeforeARetry();
    void badOptions();
    void tokenLimitField();
    void tokenLimitFieldAuto();
};

void TestJudgeClient::requestShape()
{
    ChatRequest r = request();
    r.sampling.seed = 7;
    r.sampling.stop = {"</verdict>"};
    r.sampling.logprobs = true;
    r.sampling.topLogprobs = 5;
    r.sampling.responseFormat = ResponseFormat::JsonSchema;
    r.sampling.schemaName = "coverage";
    r.sampling.schema = R"({"type":"object","properties":{"score":{"type":"integer"}}})";
    const json j = json::parse(requestJson(r, "m"));
    QCOMPARE(j["model"].get<std::string>(), std::string("m"));
    QCOMPARE(j["messages"].size(), size_t(2));
    QCOMPARE(j["messages"][1]["content"].get<std::string>(), std::string("Is the sky blue?"));
    QCOMPARE(j["temperature"].get<double>(), 0.0);
    QCOMPARE(j["max_tokens"].get<int>(), 64);
    QCOMPARE(j["seed"].get<int>(), 7);
    QCOMPARE(j["stop"][0].get<std::string>(), std::string("</verdict>"));
    QCOMPARE(j["logprobs"].get<bool>(), true);
    QCOMPARE(j["top_logprobs"].get<int>(), 5);
    QCOMPARE(j["response_format"]["type"].get<std::string>(), std::string("json_schema"));
    QCOMPARE(j["response_format"]["json_schema"]["name"].get<std::string>(), std::string("coverage"));
    QCOMPARE(j["response_format"]["json_schema"]["schema"]["type"].get<std::string>(), std::string("object"));
    // Unset options are not sent.
    const json plain = json::parse(requestJson(request(), ""));
    QVERIFY(!plain.contains("model") && !plain.contains("seed") && !plain.contains("stop") &&
            !plain.contains("logprobs") && !plain.contains("response_format"));
}

void TestJudgeClient::cacheKey()
{
    const std::string id = "http http://127.0.0.1:1/v1/chat/completions";
    const std::string k = judge::cacheKey(id, request(), "m");
    QCOMPARE(k.size(), size_t(64)); // hex SHA-256
    QCOMPARE(judge::cacheKey(id, request(), "m"), k);
    ChatRequest warmer = request();
    warmer.sampling.temperature = 0.7; // a changed temperature misses
    QVERIFY(judge::cacheKey(id, warmer, "m") != k);
    ChatRequest seeded = request();
    seeded.sampling.seed = 1;
    QVERIFY(judge::cacheKey(id, seeded, "m") != k);
    ChatRequest longer = request();
    longer.sampling.maxTokens = 65;
    QVERIFY(judge::cacheKey(id, longer, "m") != k);
    QVERIFY(judge::cacheKey(id, request("Is the sky green?"), "m") != k);
    QVERIFY(judge::cacheKey(id, request(), "other-model") != k);
    QVERIFY(judge::cacheKey("http http://other/v1/chat/completions", request(), "m") != k);
    // Every other sampling parameter takes part too.
    const std::vector<std::function<void(SamplingParams &)>> changes = {
        [](SamplingParams &s) { s.topP = 0.9; },
        [](SamplingParams &s) { s.stop = {"}"}; },
        [](SamplingParams &s) { s.n = 2; },
        [](SamplingParams &s) { s.responseFormat = ResponseFormat::JsonObject; },
        [](SamplingParams &s) {
            s.responseFormat = ResponseFormat::JsonSchema;
            s.schema = R"({"type":"object"})";
        },
        [](SamplingParams &s) { s.logprobs = true; },
        [](SamplingParams &s) {
            s.logprobs = true;
            s.topLogprobs = 5;
        },
    };
    std::set<std::string> keys{k};
    for (const auto &change : changes) {
        ChatRequest r = request();
        change(r.sampling);
        keys.insert(judge::cacheKey(id, r, "m"));
    }
    QCOMPARE(keys.size(), changes.size() + 1); // all different
    ChatRequest otherSchema = request();
    otherSchema.sampling.responseFormat = ResponseFormat::JsonSchema;
    otherSchema.sampling.schema = R"({"type":"object","properties":{}})";
    QVERIFY(!keys.count(judge::cacheKey(id, otherSchema, "m"))); // a changed schema misses
    // The API key is in neither the key nor the body.
    qputenv("RWB_TEST_JUDGE_KEY", "sk-secret");
    QVERIFY(requestJson(request(), "m").find("sk-secret") == std::string::npos);
    qunsetenv("RWB_TEST_JUDGE_KEY");
}

void TestJudgeClient::parseReplies()
{
    const ChatReply r = parseChatReply(completion("{\"rating\": 7}", 11, 5));
    QCOMPARE(r.choices.size(), size_t(1));
    QCOMPARE(r.choices[0].content, std::string("{\"rating\": 7}"));
    QCOMPARE(r.choices[0].finishReason, std::string("stop"));
    QCOMPARE(r.promptTokens, int64_t(11));
    QCOMPARE(r.completionTokens, int64_t(5));
    // Logprobs in the OpenAI shape, and choices put in index order.
    const json withLogprobs = {
        {"choices",
         json::array({{{"index", 1}, {"message", {{"content", "B"}}}},
                      {{"index", 0},
                       {"message", {{"content", "7"}}},
                       {"logprobs",
                        {{"content",
                          json::array({{{"token", "7"},
                                        {"logprob", -0.5},
                                        {"top_logprobs", json::array({{{"token", "7"}, {"logprob", -0.5}},
                                                                      {{"token", "8"}, {"logprob", -1.2}}})}}})}}}}})}};
    const ChatReply l = parseChatReply(withLogprobs.dump());
    QCOMPARE(l.choices[0].content, std::string("7"));
    QCOMPARE(l.choices[1].content, std::string("B"));
    QCOMPARE(l.choices[0].logprobs.size(), size_t(1));
    QCOMPARE(l.choices[0].logprobs[0].top.size(), size_t(2));
    QCOMPARE(l.choices[0].logprobs[0].top[1].token, std::string("8"));
    QCOMPARE(l.choices[0].logprobs[0].top[1].logprob, -1.2);
    // Round trip through the cache's form.
    const ChatReply back = parseChatReply(chatReplyJson(l));
    QCOMPARE(back.choices[0].logprobs[0].top[1].logprob, -1.2);
    QCOMPARE(back.choices[1].content, std::string("B"));

    const auto error = [](const std::string &body) {
        try {
            parseChatReply(body);
        } catch (const std::runtime_error &e) {
            return QString::fromStdString(e.what());
        }
        return QString("(no exception)");
    };
    QVERIFY2(error("{}").contains("no \"choices\""), qPrintable(error("{}")));
    QVERIFY(error(R"({"error": {"message": "overloaded"}})").contains("overloaded"));
    QVERIFY(error(R"({"choices": []})").contains("non-empty"));
    QVERIFY(error(R"({"choices": [{"message": {"content": null}}]})").contains("choices[0].message.content is null"));
    QVERIFY(error(R"({"choices": [{"message": {"content": null, "refusal": "no"}}]})").contains("refused"));
    QVERIFY(error(R"({"choices": [{"message": {"content": 3}}]})").contains("not a string"));
    QVERIFY(error(R"({"choices": [{"index": 5, "message": {"content": "x"}}]})").contains("choices[0].index"));
    QVERIFY(error("[1]").contains("not an object"));
}

void TestJudgeClient::success()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("{\"criteria_met\": true}", 1000, 500), "application/json");
    }, false, kPath);
    QVERIFY(server.ok());
    JudgeOptions o = options(serverUrl(server));
    o.pricePromptPerMillion = 2.0;     // 1,000 prompt tokens: 0.002
    o.priceCompletionPerMillion = 8.0; // 500 completion tokens: 0.004
    o.server.apiKeyEnv = "RWB_TEST_JUDGE_KEY";
    qputenv("RWB_TEST_JUDGE_KEY", "sk-judge");
    JudgeClient client(o);
    const JudgeCall call = client.run(request());
    qunsetenv("RWB_TEST_JUDGE_KEY");
    QVERIFY2(call.ok(), call.error.c_str());
    QCOMPARE(call.reply->choices[0].content, std::string("{\"criteria_met\": true}"));
    QCOMPARE(call.attempts, 1);
    QVERIFY(!call.cacheHit);
    QVERIFY(std::abs(call.cost - 0.006) < 1e-12);
    QVERIFY(call.latencySeconds > 0.0);
    const std::vector<SeenRequest> seen = server.requests();
    QCOMPARE(seen.size(), size_t(1));
    QCOMPARE(seen[0].path, std::string(kPath));
    QCOMPARE(seen[0].authorization, std::string("Bearer sk-judge"));
    QCOMPARE(seen[0].body["model"].get<std::string>(), std::string("judge-test"));
    const JudgeStats st = client.stats();
    QCOMPARE(st.calls, uint64_t(1));
    QCOMPARE(st.promptTokens, uint64_t(1000));
    QCOMPARE(st.completionTokens, uint64_t(500));
    QCOMPARE(st.failures, uint64_t(0));
    QVERIFY(std::abs(st.cost - 0.006) < 1e-12);
    QCOMPARE(client.backend().identity(), "http " + server.url() + "/chat/completions");
}

void TestJudgeClient::retryAfter()
{
    // 429 with Retry-After: 0.3, then an answer: 2 attempts, and the wait honoured.
    ScriptedServer server([](int n, const SeenRequest &, httplib::Response &res) {
        if (n == 0) {
            res.status = 429;
            res.set_header("Retry-After", "0.3");
            res.set_content(R"({"error": {"message": "rate limited"}})", "application/json");
            return;
        }
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeClient client(options(serverUrl(server)));
    QElapsedTimer t;
    t.start();
    const JudgeCall call = client.run(request());
    QVERIFY2(call.ok(), call.error.c_str());
    QCOMPARE(call.attempts, 2);
    QVERIFY2(t.elapsed() >= 290, qPrintable(QString::number(t.elapsed())));
    QCOMPARE(server.requests().size(), size_t(2));
}

void TestJudgeClient::serverErrors()
{
    // Two 500s, then an answer: 3 attempts.
    {
        ScriptedServer server([](int n, const SeenRequest &, httplib::Response &res) {
            if (n < 2) {
                res.status = 500;
                res.set_content("internal error", "text/plain");
                return;
            }
            res.set_content(completion("ok"), "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY2(call.ok(), call.error.c_str());
        QCOMPARE(call.attempts, 3);
    }
    // Always 503 with 2 retries: the call fails after 3 attempts, counted, nothing thrown.
    {
        ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
            res.status = 503;
            res.set_content(R"({"error": {"message": "model is loading"}})", "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server), /*retries=*/2));
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(call.attempts, 3);
        QVERIFY2(QString::fromStdString(call.error).contains("HTTP 503"), call.error.c_str());
        QVERIFY2(QString::fromStdString(call.error).contains("model is loading"), call.error.c_str());
        QVERIFY2(QString::fromStdString(call.error).contains("gave up after 3 attempts"), call.error.c_str());
        QCOMPARE(server.requests().size(), size_t(3));
        QCOMPARE(client.stats().failures, uint64_t(1));
        QCOMPARE(client.stats().attempts, uint64_t(3));
    }
}

void TestJudgeClient::clientErrorNotRetried()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.status = 401;
        res.set_content(R"({"error": {"message": "invalid api key"}})", "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.server.apiKeyEnv = "RWB_TEST_JUDGE_UNSET";
    qunsetenv("RWB_TEST_JUDGE_UNSET");
    JudgeClient client(o);
    const JudgeCall call = client.run(request());
    QVERIFY(!call.ok());
    QCOMPARE(call.attempts, 1);
    QVERIFY2(QString::fromStdString(call.error).contains("not retried"), call.error.c_str());
    QVERIFY2(QString::fromStdString(call.error).contains("RWB_TEST_JUDGE_UNSET is unset"), call.error.c_str());
}

void TestJudgeClient::truncatedAndNotJson()
{
    // A truncated chat completion (with a right Content-Length), then a whole one: the
    // truncated body is retried.
    {
        const std::string whole = completion("ok");
        ScriptedServer server([whole](int n, const SeenRequest &, httplib::Response &res) {
            res.set_content(n == 0 ? whole.substr(0, whole.size() / 2) : whole, "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY2(call.ok(), call.error.c_str());
        QCOMPARE(call.attempts, 2);
    }
    // A body that is never JSON (an HTML page from a proxy): retried, then given up.
    {
        ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
            res.set_content("<html><body>Bad gateway</body></html>", "text/html");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server), /*retries=*/1));
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(call.attempts, 2);
        QVERIFY2(QString::fromStdString(call.error).contains("not JSON"), call.error.c_str());
        QVERIFY2(QString::fromStdString(call.error).contains("Bad gateway"), call.error.c_str());
    }
    // JSON that is not a chat completion: a wrong server, not retried.
    {
        ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
            res.set_content(R"({"data": [{"embedding": [1, 2]}]})", "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(call.attempts, 1);
        QVERIFY2(QString::fromStdString(call.error).contains("not a chat completion"), call.error.c_str());
    }
}

void TestJudgeClient::timeout()
{
    // The first answer comes after 0.6 s with a 0.3 s timeout; the second at once.
    ScriptedServer server([](int n, const SeenRequest &, httplib::Response &res) {
        if (n == 0)
            std::this_thread::sleep_for(std::chrono::milliseconds(600));
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.server.retry.timeoutSeconds = 0.3;
    JudgeClient client(o);
    const JudgeCall call = client.run(request());
    QVERIFY2(call.ok(), call.error.c_str());
    QCOMPARE(call.attempts, 2);
    // With no retries the timeout is the error.
    JudgeOptions once = o;
    once.server.retry.maxRetries = 0;
    ScriptedServer slow([](int, const SeenRequest &, httplib::Response &res) {
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    once.server.url = serverUrl(slow);
    JudgeClient c2(once);
    const JudgeCall failed = c2.run(request());
    QVERIFY(!failed.ok());
    QVERIFY2(QString::fromStdString(failed.error).contains("(timeout)"), failed.error.c_str());
}

void TestJudgeClient::slowTrickle()
{
    // The body comes 8 bytes every 0.1 s: each read is within the 0.3 s timeout, but the
    // whole answer is not, so the attempt is cancelled at 0.3 s instead of taking ~10 s.
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        auto body = std::make_shared<std::string>(completion("ok"));
        res.set_content_provider(body->size(), "application/json",
                                 [body](size_t offset, size_t, httplib::DataSink &sink) {
                                     std::this_thread::sleep_for(std::chrono::milliseconds(100));
                                     sink.write(body->data() + offset, std::min<size_t>(8, body->size() - offset));
                                     return true;
                                 });
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server), /*retries=*/1);
    o.server.retry.timeoutSeconds = 0.3;
    JudgeClient client(o);
    QElapsedTimer t;
    t.start();
    const JudgeCall call = client.run(request());
    QVERIFY(!call.ok());
    QCOMPARE(call.attempts, 2);
    QVERIFY2(QString::fromStdString(call.error).contains("slow trickle"), call.error.c_str());
    QVERIFY2(t.elapsed() < 3000, qPrintable(QString::number(t.elapsed())));
}

void TestJudgeClient::droppedConnection()
{
    RawServer server(RawServer::Mode::Drop);
    QVERIFY(server.ok());
    JudgeClient client(options(server.url(), /*retries=*/1));
    const JudgeCall call = client.run(request());
    QVERIFY(!call.ok());
    QCOMPARE(call.attempts, 2);
    QCOMPARE(server.connections(), 2);
    QVERIFY2(QString::fromStdString(call.error).contains("the connection was closed"), call.error.c_str());
}

void TestJudgeClient::circuitBreaker()
{
    // Threshold 2: two failed calls open the breaker; the third is refused without a
    // request; after the cooldown one trial goes through and, answered, closes it.
    std::atomic<bool> healthy{false};
    ScriptedServer server([&healthy](int, const SeenRequest &, httplib::Response &res) {
        if (!healthy) {
            res.status = 500;
            return;
        }
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server), /*retries=*/0);
    o.server.breaker.threshold = 2;
    o.server.breaker.cooldownSeconds = 0.3;
    JudgeClient client(o);
    QVERIFY(!client.run(request("a")).ok());
    QVERIFY(!client.run(request("b")).ok());
    const JudgeCall refused = client.run(request("c"));
    QVERIFY(!refused.ok());
    QCOMPARE(refused.attempts, 0);
    QVERIFY2(QString::fromStdString(refused.error).contains("circuit breaker open"), refused.error.c_str());
    QCOMPARE(server.requests().size(), size_t(2));
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    healthy = true;
    QVERIFY(client.run(request("d")).ok());
    QVERIFY(client.run(request("e")).ok());
    QCOMPARE(server.requests().size(), size_t(4));
    QCOMPARE(client.stats().failures, uint64_t(3));
}

void TestJudgeClient::breakerHalfOpenLetsOneTrialThrough()
{
    // Opened by two failures; after the cooldown, 4 concurrent calls: exactly one is sent
    // (the trial, answered slowly), the other three are refused while it is in flight.
    std::atomic<bool> healthy{false};
    ScriptedServer server([&healthy](int, const SeenRequest &, httplib::Response &res) {
        if (!healthy) {
            res.status = 503;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server), /*retries=*/0);
    o.server.breaker.threshold = 2;
    o.server.breaker.cooldownSeconds = 0.2;
    o.concurrency = 4;
    JudgeClient client(o);
    QVERIFY(!client.run(request("a")).ok());
    QVERIFY(!client.run(request("b")).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    healthy = true;
    const std::vector<JudgeCall> calls = client.run({request("c"), request("d"), request("e"), request("f")});
    int sent = 0, refused = 0;
    for (const JudgeCall &c : calls) {
        sent += c.ok() ? 1 : 0;
        refused += QString::fromStdString(c.error).contains("a trial call is under way") ? 1 : 0;
    }
    QCOMPARE(sent, 1);
    QCOMPARE(refused, 3);
    QCOMPARE(server.requests().size(), size_t(3));
    // The trial's answer closed the breaker: everything goes through again.
    QVERIFY(client.run(request("g")).ok());
}

void TestJudgeClient::clientErrorsDoNotOpenTheBreaker()
{
    // Twenty 400s in a row (a prompt too long, say): the server is up, the breaker stays
    // closed (threshold 2) and every call is sent.
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.status = 400;
        res.set_content(R"({"error": {"message": "maximum context length exceeded"}})", "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server), /*retries=*/0);
    o.server.breaker.threshold = 2;
    JudgeClient client(o);
    for (int i = 0; i < 5; ++i) {
        const JudgeCall c = client.run(request("q" + std::to_string(i)));
        QVERIFY(!c.ok());
        QCOMPARE(c.attempts, 1);
    }
    QCOMPARE(server.requests().size(), size_t(5));
}

void TestJudgeClient::failuresAndCutRepliesAreNotKept()
{
    // A failed request is answered with its failure for a while, not sent again.
    ScriptedServer down([](int, const SeenRequest &, httplib::Response &res) { res.status = 500; }, false, kPath);
    JudgeClient c1(options(serverUrl(down), /*retries=*/0));
    QVERIFY(!c1.run(request()).ok());
    const JudgeCall again = c1.run(request());
    QVERIFY(!again.ok());
    QCOMPARE(again.attempts, 0);
    QVERIFY(QString::fromStdString(again.error).contains("HTTP 500"));
    QCOMPARE(down.requests().size(), size_t(1));
    // A reply cut off by max_tokens is neither remembered nor cached: asked again, sent again.
    QTemporaryDir dir;
    ScriptedServer cut([](int, const SeenRequest &, httplib::Response &res) {
        json j = json::parse(completion("{\"rating\": "));
        j["choices"][0]["finish_reason"] = "length";
        res.set_content(j.dump(), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(cut));
    o.cachePath = dir.filePath("c.sqlite").toStdString();
    JudgeClient c2(o);
    QVERIFY(c2.run(request()).ok());
    QVERIFY(!c2.run(request()).cacheHit);
    QCOMPARE(cut.requests().size(), size_t(2));
    QCOMPARE(JudgeCache(o.cachePath).size(), int64_t(0));
    // forget(): a kept reply goes from memory and file.
    ScriptedServer fine([](int, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("garble"), "application/json");
    }, false, kPath);
    o.server.url = serverUrl(fine);
    JudgeClient c3(o);
    const JudgeCall first = c3.run(request("x"));
    QVERIFY(c3.run(request("x")).cacheHit);
    c3.forget(first.key);
    QVERIFY(!c3.run(request("x")).cacheHit);
    QCOMPARE(fine.requests().size(), size_t(2));
}

void TestJudgeClient::duplicatesAndMemo()
{
    ScriptedServer server([](int n, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("answer " + std::to_string(n)), "application/json");
    }, false, kPath);
    JudgeClient client(options(serverUrl(server)));
    // Three requests, two identical: two sent, the copy a hit.
    const std::vector<JudgeCall> calls = client.run({request("x"), request("y"), request("x")});
    QCOMPARE(server.requests().size(), size_t(2));
    QVERIFY(!calls[0].cacheHit && !calls[1].cacheHit && calls[2].cacheHit);
    QCOMPARE(calls[2].reply->choices[0].content, calls[0].reply->choices[0].content);
    QCOMPARE(calls[2].attempts, 0);
    // Asked again later: answered from memory.
    const JudgeCall again = client.run(request("y"));
    QVERIFY(again.cacheHit);
    QCOMPARE(server.requests().size(), size_t(2));
    QCOMPARE(client.stats().cacheHits, uint64_t(2));
    QCOMPARE(client.stats().calls, uint64_t(4));

    // With the memo off ("memo": false) nothing is reused: the same three requests and the
    // later one are four calls sent, no hit, each copy its own server answer.
    ScriptedServer every([](int n, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("answer " + std::to_string(n)), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(every));
    o.memo = false;
    JudgeClient noMemo(o);
    const std::vector<JudgeCall> sent = noMemo.run({request("x"), request("y"), request("x")});
    QCOMPARE(every.requests().size(), size_t(3));
    for (const JudgeCall &c : sent) {
        QVERIFY(c.ok() && !c.cacheHit);
        QCOMPARE(c.attempts, 1);
    }
    QVERIFY(sent[0].reply->choices[0].content != sent[2].reply->choices[0].content);
    QVERIFY(!noMemo.run(request("y")).cacheHit);
    QCOMPARE(every.requests().size(), size_t(4));
    QCOMPARE(noMemo.stats().cacheHits, uint64_t(0));
    QCOMPARE(noMemo.stats().calls, uint64_t(4));

    // The config key: on by default, a boolean, anything else refused naming it.
    const auto memo = [](const std::string &value) {
        return parseJudgeOptions(R"({"url": "http://127.0.0.1:9/v1")" +
                                     (value.empty() ? std::string() : R"(, "memo": )" + value) + "}",
                                 "r.json", "")
            .memo;
    };
    QVERIFY(memo(""));
    QVERIFY(memo("true"));
    QVERIFY(!memo("false"));
    try {
        memo("0");
        QFAIL("no exception");
    } catch (const std::exception &e) {
        QVERIFY2(QString(e.what()).contains("judge.memo") && QString(e.what()).contains("true or false"), e.what());
    }
}

void TestJudgeClient::persistentCache()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("judge_cache.sqlite").toStdString();
    ScriptedServer server([](int n, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("answer " + std::to_string(n)), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.cachePath = path;
    {
        JudgeClient first(o);
        QVERIFY(first.run(request()).ok());
    }
    QCOMPARE(JudgeCache(path).size(), int64_t(1));
    {
        JudgeClient second(o); // a new process, in effect: only the file remembers
        const JudgeCall call = second.run(request());
        QVERIFY(call.cacheHit);
        QCOMPARE(call.reply->choices[0].content, std::string("answer 0"));
        QCOMPARE(server.requests().size(), size_t(1));
        ChatRequest warmer = request();
        warmer.sampling.temperature = 0.5; // another key: a miss
        QVERIFY(!second.run(warmer).cacheHit);
        QCOMPARE(server.requests().size(), size_t(2));
    }
    QCOMPARE(JudgeCache(path).size(), int64_t(2));
    {
        JudgeOptions off = o;
        off.noCache = true; // --no-cache: the file is neither read nor written
        JudgeClient third(off);
        QVERIFY(!third.run(request()).cacheHit);
        QCOMPARE(server.requests().size(), size_t(3));
    }
    {
        // Expiry: an entry older than the expiry is not used.
        JudgeOptions expiring = o;
        expiring.cacheExpiryDays = 1e-9; // 86 µs
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        JudgeClient fourth(expiring);
        QVERIFY(!fourth.run(request()).cacheHit);
    }
    // A file that is not SQLite: a clear error naming it.
    const std::string bad = dir.filePath("not_a_cache.txt").toStdString();
    {
        FILE *f = std::fopen(bad.c_str(), "w");
        std::fputs("this is not a database, just some text that is long enough to have a header page", f);
        std::fclose(f);
    }
    JudgeOptions wrong = o;
    wrong.cachePath = bad;
    try {
        JudgeClient c(wrong);
        QFAIL("a text file was opened as a cache");
    } catch (const std::runtime_error &e) {
        QVERIFY2(QString(e.what()).contains(QString::fromStdString(bad)), e.what());
    }
}

void TestJudgeClient::concurrency()
{
    // 8 requests, concurrency 4, each answer 0.2 s: about 0.4 s, never more than 4 at once.
    std::atomic<int> inFlight{0}, most{0};
    ScriptedServer server([&](int, const SeenRequest &, httplib::Response &res) {
        const int now = ++inFlight;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        --inFlight;
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.concurrency = 4;
    JudgeClient client(o);
    const std::vector<ChatRequest> requests = numberedRequests("q", 8);
    QElapsedTimer t;
    t.start();
    const std::vector<JudgeCall> calls = client.run(requests);
    for (const JudgeCall &c : calls)
        QVERIFY2(c.ok(), c.error.c_str());
    QVERIFY2(most.load() <= 4 && most.load() >= 2, qPrintable(QString::number(most.load())));
    QVERIFY2(t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
    // The calls come back in request order.
    for (int i = 0; i < 8; ++i)
        QCOMPARE(calls[size_t(i)].request.messages[1].content, "q" + std::to_string(i));
}

void TestJudgeClient::cancelSending()
{
    // Concurrency 1, every answer 0.3 s: the first call is in flight when the test cancels,
    // and is cut short; the other five are not sent and fail at once as cancelled, without
    // counting as failures or being remembered. After resumeSending() the same six
    // requests send all six again.
    std::atomic<int> seen{0};
    ScriptedServer server([&](int, const SeenRequest &, httplib::Response &res) {
        ++seen;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.concurrency = 1;
    JudgeClient client(o);
    const std::vector<ChatRequest> requests = numberedRequests("c", 6);
    std::vector<JudgeCall> calls;
    std::thread worker([&] { calls = client.run(requests); });
    QElapsedTimer t;
    t.start();
    while (seen.load() == 0 && t.elapsed() < 5000)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    client.cancelSending();
    QVERIFY(client.sendingCancelled());
    worker.join();
    QCOMPARE(seen.load(), 1);
    QCOMPARE(calls.size(), size_t(6));
    for (size_t i = 0; i < 6; ++i) {
        QVERIFY(!calls[i].ok() && calls[i].cancelled);
        QCOMPARE(calls[i].error, std::string(kCancelledError));
        QCOMPARE(calls[i].attempts, i == 0 ? 1 : 0);
    }
    QCOMPARE(client.stats().failures, uint64_t(0));
    QCOMPARE(client.stats().calls, uint64_t(6));
    // While cancelled, nothing is sent.
    QVERIFY(client.run(requests[1]).cancelled);
    QCOMPARE(seen.load(), 1);
    client.resumeSending();
    calls = client.run(requests);
    for (const JudgeCall &c : calls)
        QVERIFY2(c.ok() && !c.cacheHit, c.error.c_str());
    QCOMPARE(seen.load(), 7);
    // Memory answers while cancelled.
    client.cancelSending();
    QVERIFY(client.run(requests[0]).ok());
    client.resumeSending();
}

// A server that holds each request until the test lets it go (or 20 s pass), so that a
// call is surely waiting for its answer when the test cancels.
struct HeldServer {
    std::mutex mutex;
    std::condition_variable released;
    bool let = false;
    std::atomic<int> seen{0};
    void hold()
    {
        ++seen;
        std::unique_lock<std::mutex> lock(mutex);
        released.wait_for(lock, std::chrono::seconds(20), [&] { return let; });
    }
    void letGo()
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            let = true;
        }
        released.notify_all();
    }
    void waitForRequests(int n)
    {
        QElapsedTimer t;
        t.start();
        while (seen.load() < n && t.elapsed() < 5000)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
};

void TestJudgeClient::cancelCutsAWaitingCallShort()
{
    // The server takes the requests and does not answer (a judge busy for minutes): with
    // a 60 s attempt timeout and a 300 s deadline, cancelSending() still ends the calls
    // at once — the workbench closing during a re-score does not wait them out. Without
    // the cut they would take 60 s; 5 s leaves room for a busy machine.
    HeldServer held;
    ScriptedServer server([&](int, const SeenRequest &, httplib::Response &res) {
        held.hold();
        res.set_content(completion("late"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.concurrency = 2;
    o.server.retry.timeoutSeconds = 60;
    o.server.retry.deadlineSeconds = 300;
    o.server.breaker.threshold = 1; // a cancelled call must not open it
    JudgeClient client(o);
    const std::vector<ChatRequest> requests = numberedRequests("w", 2);
    std::vector<JudgeCall> calls;
    std::thread worker([&] { calls = client.run(requests); });
    held.waitForRequests(2);
    QCOMPARE(held.seen.load(), 2);
    QElapsedTimer t;
    t.start();
    client.cancelSending();
    worker.join();
    const qint64 took = t.elapsed();
    held.letGo();
    QVERIFY2(took < 5000, qPrintable(QString::number(took)));
    for (const JudgeCall &c : calls) {
        QVERIFY(c.cancelled);
        QCOMPARE(c.error, std::string(kCancelledError));
        QCOMPARE(c.attempts, 1);
    }
    QCOMPARE(client.stats().failures, uint64_t(0));
    // Resumed: neither remembered as failed nor refused by a breaker; both asked again.
    client.resumeSending();
    calls = client.run(requests);
    for (const JudgeCall &c : calls)
        QVERIFY2(c.ok(), c.error.c_str());
    QCOMPARE(held.seen.load(), 4);
}

void TestJudgeClient::cancelEndsTheWaitBeforeARetry()
{
    // 503 with Retry-After: 30: the client waits 30 s before its second attempt, unless
    // cancelled, which ends the wait at once with the call cancelled after 1 attempt.
    std::atomic<int> seen{0};
    ScriptedServer server([&](int, const SeenRequest &, httplib::Response &res) {
        ++seen;
        res.status = 503;
        res.set_header("Retry-After", "30");
        res.set_content(R"({"error": {"message": "busy"}})", "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.server.retry.maxRetries = 3;
    o.server.retry.deadlineSeconds = 300;
    JudgeClient client(o);
    JudgeCall call;
    std::thread worker([&] { call = client.run(numberedRequests("r", 1)[0]); });
    QElapsedTimer t;
    t.start();
    while (seen.load() == 0 && t.elapsed() < 5000)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // into the wait
    client.cancelSending();
    worker.join();
    QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
    QVERIFY2(call.cancelled, call.error.c_str());
    QCOMPARE(call.attempts, 1);
    QCOMPARE(seen.load(), 1);
    QCOMPARE(client.stats().failures, uint64_t(0));
    client.resumeSending();
}

void TestJudgeClient::badOptions()
{
    const auto message = [](JudgeOptions o) {
        try {
            JudgeClient c(o);
        } catch (const std::exception &e) {
            return QString(e.what());
        }
        return QString("(no exception)");
    };
    JudgeOptions o = options("http://127.0.0.1:9/v1");
    JudgeOptions noUrl = o;
    noUrl.server.url.clear();
    QVERIFY(message(noUrl).contains("needs a url"));
    JudgeOptions badUrl = o;
    badUrl.server.url = "ftp://x";
    QVERIFY2(message(badUrl).contains("scheme"), qPrintable(message(badUrl)));
    JudgeOptions keyInUrl = o;
    keyInUrl.server.url = "http://127.0.0.1:9/v1?api_key=sk-x";
    QVERIFY2(message(keyInUrl).contains("api_key_env") && !message(keyInUrl).contains("sk-x"),
             qPrintable(message(keyInUrl)));
    JudgeOptions backend = o;
    backend.backend = "grpc";
    QVERIFY(message(backend).contains("\"grpc\""));
    JudgeOptions conc = o;
    conc.concurrency = 0;
    QVERIFY(message(conc).contains("concurrency"));
    JudgeOptions price = o;
    price.pricePromptPerMillion = -1;
    QVERIFY(message(price).contains("prices"));
}

// The field max_tokens is sent in: as told, in the body and in a judge config.
void TestJudgeClient::tokenLimitField()
{
    const json plain = json::parse(requestJson(request(), "m"));
    QCOMPARE(plain["max_tokens"].get<int>(), 64);
    QVERIFY(!plain.contains("max_completion_tokens"));
    const json auto_ = json::parse(requestJson(request(), "m", llm::TokenLimitField::Auto));
    QCOMPARE(auto_, plain);
    const json newer = json::parse(requestJson(request(), "m", llm::TokenLimitField::MaxCompletionTokens));
    QCOMPARE(newer["max_completion_tokens"].get<int>(), 64);
    QVERIFY(!newer.contains("max_tokens"));
    json rest = newer;
    rest.erase("max_completion_tokens");
    json plainRest = plain;
    plainRest.erase("max_tokens");
    QCOMPARE(rest, plainRest); // nothing else changes

    // Sent as configured; the cache key does not depend on it.
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("ok"), "application/json");
    }, false, kPath);
    JudgeOptions o = options(serverUrl(server));
    o.tokenLimitField = llm::TokenLimitField::MaxCompletionTokens;
    JudgeClient client(o);
    const JudgeCall call = client.run(request());
    QVERIFY2(call.ok(), call.error.c_str());
    QCOMPARE(server.requests().at(0).body["max_completion_tokens"].get<int>(), 64);
    QVERIFY(!server.requests().at(0).body.contains("max_tokens"));
    QCOMPARE(call.key, judge::cacheKey(client.backend().identity(), request(), "judge-test"));

    // The config key: auto by default, the two names, anything else refused naming it.
    const auto parsed = [](const std::string &field) {
        return parseJudgeOptions(R"({"url": "http://127.0.0.1:9/v1")" +
                                     (field.empty() ? std::string() : R"(, "token_limit_field": ")" + field + "\"") + "}",
                                 "r.json", "")
            .tokenLimitField;
    };
    QCOMPARE(int(parsed("")), int(llm::TokenLimitField::Auto));
    QCOMPARE(int(parsed("auto")), int(llm::TokenLimitField::Auto));
    QCOMPARE(int(parsed("max_tokens")), int(llm::TokenLimitField::MaxTokens));
    QCOMPARE(int(parsed("max_completion_tokens")), int(llm::TokenLimitField::MaxCompletionTokens));
    try {
        parsed("max_new_tokens");
        QFAIL("no exception");
    } catch (const std::exception &e) {
        QVERIFY2(QString(e.what()).contains("judge.token_limit_field") && QString(e.what()).contains("max_new_tokens"),
                 e.what());
    }
}

// Auto: max_tokens first; a server that refuses it by name (OpenAI's reasoning models'
// words) gets the call once more with max_completion_tokens, and every later call with
// it. A 400 that names max_tokens for another reason, and a backend told max_tokens, are
// not sent again.
void TestJudgeClient::tokenLimitFieldAuto()
{
    // OpenAI's answer to max_tokens for o1 / o3 / gpt-5, as its API sends it.
    const std::string refusal =
        R"({"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use )"
        R"('max_completion_tokens' instead.", "type": "invalid_request_error", "param": "max_tokens", )"
        R"("code": "unsupported_parameter"}})";
    const auto reasoningModel = [refusal](int, const SeenRequest &r, httplib::Response &res) {
        if (r.body.contains("max_tokens")) {
            res.status = 400;
            res.set_content(refusal, "application/json");
            return;
        }
        res.set_content(completion("ok"), "application/json");
    };
    {
        ScriptedServer server(reasoningModel, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall first = client.run(request("first"));
        QVERIFY2(first.ok(), first.error.c_str());
        QCOMPARE(first.attempts, 2);
        const JudgeCall second = client.run(request("second"));
        QVERIFY2(second.ok(), second.error.c_str());
        QCOMPARE(second.attempts, 1);
        const std::vector<SeenRequest> seen = server.requests();
        QCOMPARE(seen.size(), size_t(3));
        QVERIFY(seen[0].body.contains("max_tokens"));
        QCOMPARE(seen[1].body["max_completion_tokens"].get<int>(), 64);
        QCOMPARE(seen[2].body["max_completion_tokens"].get<int>(), 64);
        QCOMPARE(seen[1].body["messages"], seen[0].body["messages"]);
    }
    // Told max_tokens: the refusal is the call's failure, after one request.
    {
        ScriptedServer server(reasoningModel, false, kPath);
        JudgeOptions o = options(serverUrl(server));
        o.tokenLimitField = llm::TokenLimitField::MaxTokens;
        JudgeClient client(o);
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(call.attempts, 1);
        QVERIFY2(QString::fromStdString(call.error).contains("HTTP 400"), call.error.c_str());
        QCOMPARE(server.requests().size(), size_t(1));
    }
    // A limit beyond the context (vLLM's words name both fields): not sent again.
    {
        ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
            res.status = 400;
            res.set_content(R"({"error": {"message": "'max_tokens' or 'max_completion_tokens' is too large: 64. This )"
                            R"(model's maximum context length is 32 tokens and your request has 40 input tokens", )"
                            R"("type": "BadRequestError", "param": null, "code": 400}})",
                            "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(call.attempts, 1);
        QCOMPARE(server.requests().size(), size_t(1));
    }
    // FastAPI's 422 for another field ("seed" not permitted) beside one that echoes the
    // body, max_tokens and all: not a refusal of max_tokens, so not sent again.
    {
        ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
            res.status = 422;
            res.set_content(R"({"detail": [{"type": "extra_forbidden", "loc": ["body", "seed"], "msg": "Extra inputs )"
                            R"(are not permitted", "input": 7}, {"type": "missing", "loc": ["body", "messages", 0, )"
                            R"("role"], "msg": "Field required", "input": {"model": "m", "max_tokens": 64}}]})",
                            "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(server.requests().size(), size_t(1));
    }
    // … and FastAPI's 422 that does refuse it: sent again with max_completion_tokens.
    {
        ScriptedServer server([](int, const SeenRequest &r, httplib::Response &res) {
            if (r.body.contains("max_tokens")) {
                res.status = 422;
                res.set_content(R"({"detail": [{"type": "extra_forbidden", "loc": ["body", "max_tokens"], )"
                                R"("msg": "Extra inputs are not permitted", "input": 64}]})",
                                "application/json");
                return;
            }
            res.set_content(completion("ok"), "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY2(call.ok(), call.error.c_str());
        QCOMPARE(server.requests().size(), size_t(2));
        QCOMPARE(server.requests().at(1).body["max_completion_tokens"].get<int>(), 64);
    }
    // A server that refuses both: two requests, and the message says what was tried.
    {
        ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
            res.status = 400;
            res.set_content(R"({"error": {"message": "Unsupported parameter: 'max_tokens' and 'max_completion_tokens' )"
                            R"(are not supported"}})",
                            "application/json");
        }, false, kPath);
        JudgeClient client(options(serverUrl(server)));
        const JudgeCall call = client.run(request());
        QVERIFY(!call.ok());
        QCOMPARE(call.attempts, 2);
        QCOMPARE(server.requests().size(), size_t(2));
        QVERIFY2(QString::fromStdString(call.error).contains("sent with max_completion_tokens after the server refused "
                                                             "max_tokens"),
                 call.error.c_str());
    }
}

QTEST_GUILESS_MAIN(TestJudgeClient)
#include "tst_judgeclient.moc"
