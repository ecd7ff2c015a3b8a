// core/embed: HttpEmbedder against a scripted loopback server (cpp-httplib on
// 127.0.0.1, an ephemeral port, in a thread of this process), and makeEmbedder.
//
// Expected vectors are worked out by hand in the comments: the server sends vectors of
// small integers and the embedder must return them L2-normalized and in input order.
// Tolerance for those floats: 1e-6 (float32 rounding of values of size ≤ 1).
// Timing: the whole test takes about 2 s (the Retry-After test waits 1 s, the timeout
// test 0.3 s); backoff is 0.01 s wherever a retry is expected.
#include "embed/embedderfactory.h"
#include "embed/httpembedder.h"
#include "embed/lexicalembedder.h"

#include <QElapsedTimer>
#include <QtTest>

#include "loopbackserver.h"

#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

using namespace rwb;
using embed::EmbedRole;
using embed::HttpEmbedder;
using json = nlohmann::json;
using rwbtest::ScriptedServer;
using rwbtest::RawServer;
using rwbtest::SeenRequest;
using rwbtest::closedPort;

namespace {

// Absolute tolerance for normalized float32 components.
constexpr double kTol = 1e-6;
// The environment variable the API-key tests set.
constexpr const char *kKeyEnv = "RWB_TEST_EMBED_KEY";

// An OpenAI-style answer: entry k of "data" is {"index": order[k], "embedding":
// vectors[order[k]]} (order empty: 0, 1, …).
std::string answer(const std::vector<json> &vectors, std::vector<int> order = {}, int promptTokens = 0)
{
    if (order.empty())
        for (size_t i = 0; i < vectors.size(); ++i)
            order.push_back(static_cast<int>(i));
    json data = json::array();
    for (int i : order)
        data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", vectors[static_cast<size_t>(i)]}});
    return json{{"object", "list"},
                {"data", data},
                {"model", "test-model"},
                {"usage", {{"prompt_tokens", promptTokens}, {"total_tokens", promptTokens}}}}
        .dump();
}

void reply(httplib::Response &res, const std::string &body, int status = 200)
{
    res.status = status;
    res.set_content(body, "application/json");
}

// Answers every request with vector [1, k] for the text "tK" (k = 0…), so that order
// shows after normalization: v[1] / v[0] = k.
void indexVectors(int, const SeenRequest &request, httplib::Response &res)
{
    std::vector<json> vectors;
    for (const std::string &text : request.inputs())
        vectors.push_back(json::array({1, std::stoi(text.substr(text.find('t') + 1))}));
    reply(res, answer(vectors));
}

HttpEmbedder::Options options(const std::string &url)
{
    HttpEmbedder::Options o;
    o.server.url = url;
    o.model = "test-model";
    o.server.retry.backoffSeconds = 0.01;
    o.server.retry.timeoutSeconds = 5.0;
    return o;
}

// The message of the std::runtime_error that `fn` throws; "(no exception)" when none.
QString errorOf(const std::function<void()> &fn)
{
    try {
        fn();
    } catch (const std::runtime_error &e) {
        return QString::fromStdString(e.what());
    }
    return "(no exception)";
}

QString errorOfInvalid(const std::function<void()> &fn)
{
    try {
        fn();
    } catch (const std::invalid_argument &e) {
        return QString::fromStdString(e.what());
    }
    return "(no exception)";
}

// "" when `v` is `expected` within kTol, else what differs.
QString compareVector(const std::vector<float> &v, const std::vector<double> &expected)
{
    if (v.size() != expected.size())
        return QString("got %1 values, expected %2").arg(v.size()).arg(expected.size());
    for (size_t i = 0; i < v.size(); ++i)
        if (std::abs(v[i] - expected[i]) > kTol)
            return QString("value %1: got %2, expected %3").arg(i).arg(v[i], 0, 'g', 9).arg(expected[i], 0, 'g', 9);
    return {};
}

std::vector<std::string> texts(int n)
{
    std::vector<std::string> out;
    for (int k = 0; k < n; ++k)
        out.push_back("t" + std::to_string(k));
    return out;
}

// "" when vectors[k] is [1, k] normalized for every k, else what differs.
QString checkIndexVectors(const std::vector<std::vector<float>> &vectors, size_t n)
{
    if (vectors.size() != n)
        return QString("got %1 vectors, expected %2").arg(vectors.size()).arg(n);
    for (size_t k = 0; k < n; ++k) {
        const double norm = std::sqrt(1.0 + double(k) * double(k));
        const QString diff = compareVector(vectors[k], {1.0 / norm, double(k) / norm});
        if (!diff.isEmpty())
            return QString("vector %1: %2").arg(k).arg(diff);
    }
    return {};
}

} // namespace

class TestHttpEmbedder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void endpointUrl_data();
    void endpointUrl();
    void badOptions();
    void floatsInIndexOrder();
    void base64Answer();
    void batching();
    void retryOn500();
    void retryAfterHonoured();
    void clientErrorNotRetried();
    void hugeAnswerCutOff();
    void badAnswer_data();
    void badAnswer();
    void wrongDimensionInLaterBatch();
    void droppedConnection();
    void staleKeepAliveConnection();
    void resetWhileSending();
    void timeout();
    void connectionRefused();
    void apiKeyFromEnvironment();
    void prefixesByRole();
    void blankTexts();
    void dimensionOptionAndProbe();
    void concurrentCalls();
    void tls();
    void factory_data();
    void factory();
    void factoryLexical();
};

void TestHttpEmbedder::endpointUrl_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("endpoint"); // empty: rejected

    QTest::newRow("host only") << "http://127.0.0.1:8000" << "http://127.0.0.1:8000/v1/embeddings";
    QTest::newRow("root slash") << "http://127.0.0.1:8000/" << "http://127.0.0.1:8000/v1/embeddings";
    QTest::newRow("v1") << "http://localhost:8000/v1" << "http://localhost:8000/v1/embeddings";
    QTest::newRow("v1 slash") << "http://localhost:8000/v1/" << "http://localhost:8000/v1/embeddings";
    QTest::newRow("full") << "https://api.example.com/v1/embeddings" << "https://api.example.com/v1/embeddings";
    QTest::newRow("other version") << "http://h:9/api/v2" << "http://h:9/api/v2/embeddings";
    QTest::newRow("other path") << "http://h/openai" << "http://h/openai/v1/embeddings";
    QTest::newRow("case") << "HTTP://Host.Example:80/v1" << "http://host.example:80/v1/embeddings";
    QTest::newRow("ipv6") << "http://[::1]:8080/v1" << "http://[::1]:8080/v1/embeddings";
    QTest::newRow("query") << "http://h/v1?api-version=2" << "http://h/v1/embeddings?api-version=2";
    QTest::newRow("no scheme") << "localhost:8000/v1" << "";
    QTest::newRow("ftp") << "ftp://h/v1" << "";
    QTest::newRow("credentials") << "http://user:secret@h/v1" << "";
    QTest::newRow("port range") << "http://h:99999/v1" << "";
    QTest::newRow("empty port") << "http://h:/v1" << "";
    QTest::newRow("no host") << "http:///v1" << "";
    QTest::newRow("fragment") << "http://h/v1#x" << "";
}

void TestHttpEmbedder::endpointUrl()
{
    QFETCH(QString, url);
    QFETCH(QString, endpoint);
    if (endpoint.isEmpty()) {
        const QString message = errorOfInvalid([&] { HttpEmbedder::endpointUrl(url.toStdString()); });
        if (url.contains("secret")) // a password is never shown
            QVERIFY2(message.contains("http://…@h/v1") && !message.contains("secret"), qPrintable(message));
        else
            QVERIFY2(message.contains(url), qPrintable(message));
        QVERIFY2(!message.contains("(no exception)"), qPrintable(message));
        return;
    }
    QCOMPARE(QString::fromStdString(HttpEmbedder::endpointUrl(url.toStdString())), endpoint);
    HttpEmbedder::Options o;
    o.server.url = url.toStdString();
    o.model = "m";
    QCOMPARE(QString::fromStdString(HttpEmbedder(o).name()), "http:" + endpoint + "#m");
}

void TestHttpEmbedder::badOptions()
{
    const auto message = [](const std::function<void(HttpEmbedder::Options &)> &change) {
        HttpEmbedder::Options o = options("http://127.0.0.1:1/v1");
        change(o);
        return errorOfInvalid([&] { HttpEmbedder e(o); });
    };
    QVERIFY(message([](auto &o) { o.batchSize = 0; }).contains("batch size"));
    QVERIFY(message([](auto &o) { o.server.retry.timeoutSeconds = 0; }).contains("timeout"));
    QVERIFY(message([](auto &o) { o.server.retry.maxRetries = -1; }).contains("retries"));
    QVERIFY(message([](auto &o) { o.encodingFormat = "binary"; }).contains("\"binary\""));
    QVERIFY(message([](auto &o) { o.dimensions = -2; }).contains("dimensions"));
    QCOMPARE(message([](auto &) {}), QString("(no exception)"));
}

// Three texts; the server answers in index order 2, 0, 1 with unnormalized vectors:
//   t0 → [3, 0, 4]  |·| = 5  → [0.6, 0, 0.8]
//   t1 → [0, 2, 0]  |·| = 2  → [0, 1, 0]
//   t2 → [1, 2, 2]  |·| = 3  → [1/3, 2/3, 2/3]
void TestHttpEmbedder::floatsInIndexOrder()
{
    ScriptedServer server([](int, const SeenRequest &request, httplib::Response &res) {
        std::map<std::string, json> byText{
            {"t0", {3, 0, 4}}, {"t1", {0, 2, 0}}, {"t2", {1, 2, 2}}};
        std::vector<json> vectors;
        for (const std::string &text : request.inputs())
            vectors.push_back(byText.at(text));
        reply(res, answer(vectors, /*order=*/{2, 0, 1}, /*promptTokens=*/12));
    });
    QVERIFY(server.ok());
    HttpEmbedder embedder(options(server.url()));
    QCOMPARE(QString::fromStdString(embedder.name()), "http:" + QString::fromStdString(server.endpoint()) + "#test-model");

    const std::vector<std::vector<float>> v = embedder.embed({"t0", "t1", "t2"}, EmbedRole::Document);
    QCOMPARE(v.size(), size_t(3));
    QCOMPARE(compareVector(v[0], {0.6, 0.0, 0.8}), QString());
    QCOMPARE(compareVector(v[1], {0.0, 1.0, 0.0}), QString());
    QCOMPARE(compareVector(v[2], {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0}), QString());
    QCOMPARE(embedder.dimension(), 3);

    const std::vector<SeenRequest> seen = server.requests();
    QCOMPARE(seen.size(), size_t(1));
    QCOMPARE(seen[0].path, std::string("/v1/embeddings"));
    QCOMPARE(seen[0].body.value("model", json()), json("test-model"));
    QCOMPARE(seen[0].body.value("encoding_format", json()), json("float"));
    QVERIFY(!seen[0].body.contains("dimensions"));
    QCOMPARE(seen[0].inputs(), (std::vector<std::string>{"t0", "t1", "t2"}));
    QVERIFY(!seen[0].hasAuthorization);

    const embed::HttpEmbedderStats stats = embedder.stats();
    QCOMPARE(stats.requests, uint64_t(1));
    QCOMPARE(stats.retries, uint64_t(0));
    QCOMPARE(stats.failures, uint64_t(0));
    QCOMPARE(stats.texts, uint64_t(3));
    QCOMPARE(stats.promptTokens, uint64_t(12));
    QVERIFY(stats.seconds > 0.0);
}

// Base64 of little-endian float32, by hand:
//   [3, 4]:  3.0f = 0x40400000, 4.0f = 0x40800000 → bytes 00 00 40 40 00 00 80 40
//            (00 00 40) → AABA, (40 00 00) → QAAA, (80 40) → gEA= → "AABAQAAAgEA="
//            normalized: [0.6, 0.8]
//   [0, -2]: 0.0f = 0, -2.0f = 0xC0000000 → bytes 00 00 00 00 00 00 00 C0
//            → AAAA AAAA, (00 C0) → AMA= → "AAAAAAAAAMA="; normalized: [0, −1]
void TestHttpEmbedder::base64Answer()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        reply(res, answer({"AABAQAAAgEA=", "AAAAAAAAAMA="}));
    });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.encodingFormat = "base64";
    HttpEmbedder embedder(o);
    const std::vector<std::vector<float>> v = embedder.embed({"a", "b"}, EmbedRole::Document);
    QCOMPARE(v.size(), size_t(2));
    QCOMPARE(compareVector(v[0], {0.6, 0.8}), QString());
    QCOMPARE(compareVector(v[1], {0.0, -1.0}), QString());
    QCOMPARE(server.requests().at(0).body.value("encoding_format", json()), json("base64"));
}

// 7 texts with batch 3: requests of 3, 3 and 1 texts, in order.
void TestHttpEmbedder::batching()
{
    ScriptedServer server(indexVectors);
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.batchSize = 3;
    HttpEmbedder embedder(o);
    const std::vector<std::vector<float>> v = embedder.embed(texts(7), EmbedRole::Document);
    QCOMPARE(checkIndexVectors(v, 7), QString());

    const std::vector<SeenRequest> seen = server.requests();
    QCOMPARE(seen.size(), size_t(3));
    QCOMPARE(seen[0].inputs(), (std::vector<std::string>{"t0", "t1", "t2"}));
    QCOMPARE(seen[1].inputs(), (std::vector<std::string>{"t3", "t4", "t5"}));
    QCOMPARE(seen[2].inputs(), (std::vector<std::string>{"t6"}));
    QCOMPARE(embedder.stats().requests, uint64_t(3));
    QCOMPARE(embedder.stats().texts, uint64_t(7));
}

void TestHttpEmbedder::retryOn500()
{
    ScriptedServer server([](int n, const SeenRequest &request, httplib::Response &res) {
        if (n == 0)
            reply(res, R"({"error": {"message": "worker crashed"}})", 500);
        else
            indexVectors(n, request, res);
    });
    QVERIFY(server.ok());
    HttpEmbedder embedder(options(server.url()));
    QCOMPARE(checkIndexVectors(embedder.embed(texts(2), EmbedRole::Document), 2), QString());
    QCOMPARE(server.requests().size(), size_t(2));
    QCOMPARE(server.requests().at(1).inputs(), (std::vector<std::string>{"t0", "t1"}));
    QCOMPARE(embedder.stats().requests, uint64_t(2));
    QCOMPARE(embedder.stats().retries, uint64_t(1));
}

// Backoff is 0.01 s: a wait of about 1 s can only come from Retry-After.
void TestHttpEmbedder::retryAfterHonoured()
{
    ScriptedServer server([](int n, const SeenRequest &request, httplib::Response &res) {
        if (n == 0) {
            res.set_header("Retry-After", "1");
            reply(res, R"({"error": {"message": "too many requests"}})", 429);
        } else {
            indexVectors(n, request, res);
        }
    });
    QVERIFY(server.ok());
    HttpEmbedder embedder(options(server.url()));
    QElapsedTimer timer;
    timer.start();
    QCOMPARE(checkIndexVectors(embedder.embed(texts(1), EmbedRole::Document), 1), QString());
    const qint64 ms = timer.elapsed();
    QVERIFY2(ms >= 950 && ms < 3000, qPrintable(QString("took %1 ms").arg(ms)));
    QCOMPARE(server.requests().size(), size_t(2));
    QCOMPARE(embedder.stats().retries, uint64_t(1));
}

void TestHttpEmbedder::clientErrorNotRetried()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        reply(res, R"({"error": {"message": "This model's maximum context length is 512 tokens", "type": "BadRequestError"}})",
              400);
    });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.maxRetries = 3;
    HttpEmbedder embedder(o);
    const QString message = errorOf([&] { embedder.embed(texts(2), EmbedRole::Document); });
    QVERIFY2(message.startsWith("http embedder " + QString::fromStdString(server.endpoint()) + ": "), qPrintable(message));
    QVERIFY2(message.contains("HTTP 400"), qPrintable(message));
    QVERIFY2(message.contains("maximum context length is 512 tokens"), qPrintable(message));
    QVERIFY2(message.contains("not retried"), qPrintable(message));
    QCOMPARE(server.requests().size(), size_t(1));
    QCOMPARE(embedder.stats().failures, uint64_t(1));
}

// A server that answers 80 MB (chunked: no Content-Length to refuse it by) costs at most
// the 64 MiB cap, and the call fails at once (issue 38: the client had no cap).
void TestHttpEmbedder::hugeAnswerCutOff()
{
    ScriptedServer server([](int, const SeenRequest &, httplib::Response &res) {
        res.set_chunked_content_provider("application/json", [](size_t offset, httplib::DataSink &sink) {
            static const std::string block(1 << 20, ' ');
            if (offset >= 80u << 20) {
                sink.done();
                return true;
            }
            return sink.write(block.data(), block.size());
        });
    });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.maxRetries = 3;
    HttpEmbedder embedder(o);
    const QString message = errorOf([&] { embedder.embed(texts(2), EmbedRole::Document); });
    QVERIFY2(message.contains("the answer is larger than 64 MiB; it was cut off there (not retried)"), qPrintable(message));
    QCOMPARE(server.requests().size(), size_t(1));
}

void TestHttpEmbedder::badAnswer_data()
{
    QTest::addColumn<QString>("body");    // the answer to three texts (HTTP 200)
    QTest::addColumn<QString>("message"); // what the error must say

    const auto entries = [](const std::string &data) { return QString::fromStdString(R"({"data": )" + data + "}"); };
    QTest::newRow("not JSON") << "<html>502 Bad Gateway</html>" << "not JSON";
    QTest::newRow("array") << "[1, 2, 3]" << "a JSON array";
    QTest::newRow("no data") << R"({"object": "list"})" << "no \"data\"";
    QTest::newRow("data not array") << R"({"data": {"embedding": [1]}})" << "\"data\" is object";
    QTest::newRow("too few") << entries(R"([{"index": 0, "embedding": [1]}, {"index": 1, "embedding": [1]}])")
                             << "\"data\" has 2 entries for 3 texts";
    QTest::newRow("not a number")
        << entries(R"([{"index": 0, "embedding": [1, 2]}, {"index": 1, "embedding": [1, "x"]}, {"index": 2, "embedding": [1, 2]}])")
        << "data[1].embedding[1] is string";
    QTest::newRow("short vector")
        << entries(R"([{"index": 0, "embedding": [1, 2, 3]}, {"index": 1, "embedding": [1, 2, 3]}, {"index": 2, "embedding": [1, 2]}])")
        << "data[2].embedding has 2 values, but data[0].embedding has 3";
    QTest::newRow("empty vector")
        << entries(R"([{"index": 0, "embedding": []}, {"index": 1, "embedding": [1]}, {"index": 2, "embedding": [1]}])")
        << "data[0].embedding is empty";
    QTest::newRow("bad base64")
        << entries(R"([{"index": 0, "embedding": "@@@@"}, {"index": 1, "embedding": [1]}, {"index": 2, "embedding": [1]}])")
        << "data[0].embedding is a string but not valid base64";
    // "AAAAAAAA": 8 characters → 6 bytes.
    QTest::newRow("base64 length")
        << entries(R"([{"index": 0, "embedding": [1, 2]}, {"index": 1, "embedding": "AAAAAAAA"}, {"index": 2, "embedding": [1, 2]}])")
        << "data[1].embedding decodes to 6 bytes";
    // "AADAfwAAgD8=": 0x7FC00000 (NaN), 1.0f.
    QTest::newRow("NaN")
        << entries(R"([{"index": 0, "embedding": "AADAfwAAgD8="}, {"index": 1, "embedding": [1, 2]}, {"index": 2, "embedding": [1, 2]}])")
        << "data[0].embedding[0] is not a finite float32";
    QTest::newRow("index range")
        << entries(R"([{"index": 5, "embedding": [1]}, {"index": 1, "embedding": [1]}, {"index": 2, "embedding": [1]}])")
        << "data[0].index is 5, not 0 to 2";
    QTest::newRow("index repeated")
        << entries(R"([{"index": 0, "embedding": [1]}, {"index": 0, "embedding": [1]}, {"index": 2, "embedding": [1]}])")
        << "data[1].index 0 repeats data[0].index";
    QTest::newRow("no embedding")
        << entries(R"([{"index": 0}, {"index": 1, "embedding": [1]}, {"index": 2, "embedding": [1]}])")
        << "data[0] has no \"embedding\"";
    QTest::newRow("embedding object")
        << entries(R"([{"index": 0, "embedding": {"x": 1}}, {"index": 1, "embedding": [1]}, {"index": 2, "embedding": [1]}])")
        << "data[0].embedding is object";
}

// A 200 whose body is no valid answer: an error naming the URL and the field, after one
// request (not retried), and nothing returned.
void TestHttpEmbedder::badAnswer()
{
    QFETCH(QString, body);
    QFETCH(QString, message);
    const std::string text = body.toStdString();
    ScriptedServer server([&](int, const SeenRequest &, httplib::Response &res) { reply(res, text); });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.maxRetries = 3;
    HttpEmbedder embedder(o);
    std::vector<std::vector<float>> v;
    const QString error = errorOf([&] { v = embedder.embed(texts(3), EmbedRole::Document); });
    QVERIFY2(error.startsWith("http embedder " + QString::fromStdString(server.endpoint()) + ": "), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY2(error.contains("not retried"), qPrintable(error));
    QVERIFY(v.empty());
    QCOMPARE(server.requests().size(), size_t(1));
}

// Batch 2 of 4 texts: the first answer has 3 values per vector, the second 4.
void TestHttpEmbedder::wrongDimensionInLaterBatch()
{
    ScriptedServer server([](int n, const SeenRequest &, httplib::Response &res) {
        if (n == 0)
            reply(res, answer({json{1, 0, 0}, json{0, 1, 0}}));
        else
            reply(res, answer({json{1, 0, 0, 0}, json{0, 1, 0, 0}}));
    });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.batchSize = 2;
    HttpEmbedder embedder(o);
    std::vector<std::vector<float>> v;
    const QString error = errorOf([&] { v = embedder.embed(texts(4), EmbedRole::Document); });
    QVERIFY2(error.contains(QString::fromStdString(server.endpoint())), qPrintable(error));
    QVERIFY2(error.contains("data[0].embedding has 4 values, expected 3"), qPrintable(error));
    QVERIFY(v.empty());
    QCOMPARE(server.requests().size(), size_t(2));
    QCOMPARE(embedder.dimension(), 3);
}

// The server reads each request and closes the connection: retried, then an error.
void TestHttpEmbedder::droppedConnection()
{
    RawServer server(RawServer::Mode::Drop);
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.maxRetries = 1;
    HttpEmbedder embedder(o);
    const QString error = errorOf([&] { embedder.embed(texts(2), EmbedRole::Document); });
    QVERIFY2(error.startsWith("http embedder " + QString::fromStdString(server.url()) + "/embeddings: "),
             qPrintable(error));
    QVERIFY2(error.contains("the connection was closed"), qPrintable(error));
    QVERIFY2(error.contains("gave up after 2 attempts"), qPrintable(error));
    QCOMPARE(server.connections(), 2);
    QCOMPARE(embedder.stats().requests, uint64_t(2));
}

// The second call reuses the first call's keep-alive connection, which the server closes
// as the request arrives: the call goes again on a new connection at once, neither an
// attempt nor a retry, so it succeeds even with no retries allowed.
void TestHttpEmbedder::staleKeepAliveConnection()
{
    RawServer server(RawServer::Mode::AnswerOnce, answer({json::array({1, 0})}));
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.maxRetries = 0;
    HttpEmbedder embedder(o);
    for (EmbedRole role : {EmbedRole::Document, EmbedRole::Query}) {
        std::vector<std::vector<float>> v;
        QCOMPARE(errorOf([&] { v = embedder.embed(texts(1), role); }), QString("(no exception)"));
        QCOMPARE(checkIndexVectors(v, 1), QString());
    }
    QCOMPARE(server.connections(), 2);
    QCOMPARE(server.answered(), 2);
    QCOMPARE(embedder.stats().requests, uint64_t(2));
    QCOMPARE(embedder.stats().retries, uint64_t(0));
}

// The server closes each connection unread while a 4 MB request is being sent: an error
// that says so, after the retry, and no SIGPIPE (which would end this process; cpp-httplib
// checks the socket before each write, and the embedder blocks SIGPIPE around a request
// for the writes that race with the close).
void TestHttpEmbedder::resetWhileSending()
{
    RawServer server(RawServer::Mode::Reset);
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.maxRetries = 1;
    HttpEmbedder embedder(o);
    const QString error = errorOf([&] { embedder.embed({std::string(4 << 20, 'x')}, EmbedRole::Document); });
    QVERIFY2(error.startsWith("http embedder " + QString::fromStdString(server.url()) + "/embeddings: "),
             qPrintable(error));
    QVERIFY2(error.contains("the connection was closed"), qPrintable(error));
    QVERIFY2(error.contains("gave up after 2 attempts"), qPrintable(error));
}

// The server reads the request and never answers: a timeout after 0.3 s.
void TestHttpEmbedder::timeout()
{
    RawServer server(RawServer::Mode::Silent);
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.retry.timeoutSeconds = 0.3;
    o.server.retry.maxRetries = 0;
    HttpEmbedder embedder(o);
    QElapsedTimer timer;
    timer.start();
    const QString error = errorOf([&] { embedder.embed(texts(1), EmbedRole::Document); });
    const qint64 ms = timer.elapsed();
    QVERIFY2(error.contains(QString::fromStdString(server.url())), qPrintable(error));
    QVERIFY2(error.contains("no answer within 0.3 s (timeout)"), qPrintable(error));
    QVERIFY2(error.contains("gave up after 1 attempt "), qPrintable(error));
    QVERIFY2(ms >= 280 && ms < 2000, qPrintable(QString("took %1 ms").arg(ms)));
    QCOMPARE(server.connections(), 1);
}

void TestHttpEmbedder::connectionRefused()
{
    const std::string url = "http://127.0.0.1:" + std::to_string(closedPort()) + "/v1";
    HttpEmbedder::Options o = options(url);
    o.server.retry.maxRetries = 2;
    HttpEmbedder embedder(o);
    const QString error = errorOf([&] { embedder.embed(texts(1), EmbedRole::Document); });
    QVERIFY2(error.startsWith(QString::fromStdString("http embedder " + url + "/embeddings: ")), qPrintable(error));
    QVERIFY2(error.contains("could not connect (connection refused"), qPrintable(error));
    QVERIFY2(error.contains("gave up after 3 attempts"), qPrintable(error));
    QCOMPARE(embedder.stats().requests, uint64_t(3));
    QCOMPARE(embedder.stats().retries, uint64_t(2));
    // dimension() must learn it from the server, and cannot.
    const QString probe = errorOf([&] { embedder.dimension(); });
    QVERIFY2(probe.contains("while learning the dimension"), qPrintable(probe));
}

// The key goes in "Authorization: Bearer …" when the named variable is set, nowhere
// else; a 401 without a key says which variable is missing.
void TestHttpEmbedder::apiKeyFromEnvironment()
{
    ScriptedServer server([](int n, const SeenRequest &request, httplib::Response &res) {
        if (!request.hasAuthorization)
            reply(res, R"({"error": {"message": "missing API key"}})", 401);
        else
            indexVectors(n, request, res);
    });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.server.apiKeyEnv = kKeyEnv;
    HttpEmbedder embedder(o);

    qputenv(kKeyEnv, "sk-test-1234");
    QCOMPARE(checkIndexVectors(embedder.embed(texts(1), EmbedRole::Document), 1), QString());
    QCOMPARE(server.requests().at(0).authorization, std::string("Bearer sk-test-1234"));
    QVERIFY(embedder.name().find("sk-test") == std::string::npos);

    qunsetenv(kKeyEnv);
    const QString error = errorOf([&] { embedder.embed(texts(1), EmbedRole::Document); });
    QCOMPARE(server.requests().size(), size_t(2));
    QVERIFY(!server.requests().at(1).hasAuthorization);
    QVERIFY2(error.contains("HTTP 401"), qPrintable(error));
    QVERIFY2(error.contains("missing API key"), qPrintable(error));
    QVERIFY2(error.contains(QString("environment variable %1 is unset").arg(kKeyEnv)), qPrintable(error));
    QVERIFY(!error.contains("sk-test"));
}

void TestHttpEmbedder::prefixesByRole()
{
    ScriptedServer server([](int, const SeenRequest &request, httplib::Response &res) {
        std::vector<json> vectors(request.inputs().size(), json{1, 0});
        reply(res, answer(vectors));
    });
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.queryPrefix = "Instruct: Given a question, retrieve passages that answer it\nQuery:";
    o.documentPrefix = "passage: ";
    HttpEmbedder embedder(o);
    embedder.embed({"民法709条とは"}, EmbedRole::Query);
    embedder.embed({"故意又は過失によって", "損害"}, EmbedRole::Document);
    const std::vector<SeenRequest> seen = server.requests();
    QCOMPARE(seen.size(), size_t(2));
    QCOMPARE(seen[0].inputs(),
             (std::vector<std::string>{"Instruct: Given a question, retrieve passages that answer it\nQuery:民法709条とは"}));
    QCOMPARE(seen[1].inputs(), (std::vector<std::string>{"passage: 故意又は過失によって", "passage: 損害"}));
}

// Blank texts are not sent and get the zero vector; when nothing else tells the
// dimension, one probe request does.
void TestHttpEmbedder::blankTexts()
{
    ScriptedServer server([](int, const SeenRequest &request, httplib::Response &res) {
        std::vector<json> vectors(request.inputs().size(), json{0, 3, 4});
        reply(res, answer(vectors));
    });
    QVERIFY(server.ok());
    HttpEmbedder embedder(options(server.url()));
    std::vector<std::vector<float>> v = embedder.embed({"", " \t\n", "\u3000"}, EmbedRole::Query);
    QCOMPARE(server.requests().size(), size_t(1)); // the probe
    QCOMPARE(server.requests().at(0).inputs(), (std::vector<std::string>{"dimension probe"}));
    QCOMPARE(v.size(), size_t(3));
    for (const std::vector<float> &x : v)
        QCOMPARE(compareVector(x, {0.0, 0.0, 0.0}), QString());

    v = embedder.embed({"a", "  ", "b"}, EmbedRole::Document);
    QCOMPARE(server.requests().size(), size_t(2));
    QCOMPARE(server.requests().at(1).inputs(), (std::vector<std::string>{"a", "b"}));
    QCOMPARE(compareVector(v[0], {0.0, 0.6, 0.8}), QString());
    QCOMPARE(compareVector(v[1], {0.0, 0.0, 0.0}), QString());
    QCOMPARE(compareVector(v[2], {0.0, 0.6, 0.8}), QString());
}

void TestHttpEmbedder::dimensionOptionAndProbe()
{
    ScriptedServer server([](int, const SeenRequest &request, httplib::Response &res) {
        std::vector<json> vectors(request.inputs().size(), json{1, 1, 1});
        reply(res, answer(vectors));
    });
    QVERIFY(server.ok());
    {
        HttpEmbedder::Options o = options(server.url());
        o.dimensions = 3;
        HttpEmbedder embedder(o);
        QCOMPARE(embedder.dimension(), 3);
        QCOMPARE(server.requests().size(), size_t(0));
        embedder.embed({"x"}, EmbedRole::Document);
        QCOMPARE(server.requests().at(0).body.value("dimensions", json()), json(3));
    }
    {
        HttpEmbedder::Options o = options(server.url());
        o.dimensions = 2; // the server ignores it and sends 3 values
        HttpEmbedder embedder(o);
        const QString error = errorOf([&] { embedder.embed({"x"}, EmbedRole::Document); });
        QVERIFY2(error.contains("data[0].embedding has 3 values, expected 2 (the dimensions option)"), qPrintable(error));
    }
    {
        HttpEmbedder embedder(options(server.url()));
        const size_t before = server.requests().size();
        QCOMPARE(embedder.dimension(), 3);
        QCOMPARE(embedder.dimension(), 3);
        QCOMPARE(server.requests().size(), before + 1);
        QCOMPARE(embedder.stats().requests, uint64_t(1));
    }
}

// Four threads embedding at once on one instance.
void TestHttpEmbedder::concurrentCalls()
{
    ScriptedServer server(indexVectors);
    QVERIFY(server.ok());
    HttpEmbedder::Options o = options(server.url());
    o.batchSize = 2;
    HttpEmbedder embedder(o);
    std::atomic<int> good{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 5; ++i)
                if (checkIndexVectors(embedder.embed(texts(3), EmbedRole::Document), 3).isEmpty())
                    ++good;
        });
    for (std::thread &t : threads)
        t.join();
    QCOMPARE(good.load(), 20);
    QCOMPARE(embedder.stats().requests, uint64_t(40));
    QCOMPARE(server.requests().size(), size_t(40));
}

// https with tests/data/tls/loopback.crt (self-signed for IP 127.0.0.1): trusted when
// given as ca_cert, refused (and not retried) otherwise.
void TestHttpEmbedder::tls()
{
    ScriptedServer server(indexVectors, /*tls=*/true);
    QVERIFY(server.ok());
    {
        HttpEmbedder::Options o = options(server.url("https"));
        o.server.caCertPath = RWB_TEST_DATA "/tls/loopback.crt";
        HttpEmbedder embedder(o);
        QCOMPARE(checkIndexVectors(embedder.embed(texts(2), EmbedRole::Document), 2), QString());
    }
    QCOMPARE(server.requests().size(), size_t(1));
    {
        HttpEmbedder::Options o = options(server.url("https"));
        o.server.retry.maxRetries = 2;
        HttpEmbedder embedder(o);
        const QString error = errorOf([&] { embedder.embed(texts(2), EmbedRole::Document); });
        QVERIFY2(error.startsWith("http embedder " + QString::fromStdString(server.endpoint("https"))), qPrintable(error));
        QVERIFY2(error.contains("certificate could not be verified"), qPrintable(error));
        QVERIFY2(error.contains("not retried"), qPrintable(error));
        QCOMPARE(embedder.stats().requests, uint64_t(1));
    }
    QCOMPARE(server.requests().size(), size_t(1));
}

void TestHttpEmbedder::factory_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("result"); // the embedder's name, or "error: " + part of the message

    QTest::newRow("lexical") << "lexical" << "" << "lexical";
    QTest::newRow("lexical empty options") << "lexical" << "{}" << "lexical";
    QTest::newRow("lexical with options") << "lexical" << R"({"batch": 3})" << "error: reward.json: embedder \"lexical\" takes no options";
    QTest::newRow("http") << "http:http://127.0.0.1:8000/v1" << R"({"model": "BAAI/bge-m3", "batch": 8})"
                          << "http:http://127.0.0.1:8000/v1/embeddings#BAAI/bge-m3";
    QTest::newRow("https full") << "http:https://example.com/api/v1/embeddings" << ""
                                << "http:https://example.com/api/v1/embeddings#";
    QTest::newRow("bare URL") << "http://127.0.0.1:8000/v1" << "" << "error: write \"http:\" and then the whole URL";
    QTest::newRow("bad URL") << "http:http://h:0/v1" << "" << "error: reward.json: http embedder: URL \"http://h:0/v1\" has a port out of range";
    // hf: folders themselves are tst_hfencoder's; here only what the factory checks first.
    QTest::newRow("hf without folder") << "hf:" << "" << "error: reward.json: embedder \"hf:\" needs a model folder after \"hf:\"";
    QTest::newRow("hf bad pooling") << "hf:/models/bge-m3" << R"({"pooling": "max"})"
                                    << "error: reward.json: embedder option \"pooling\" must be \"cls\", \"mean\" or \"lasttoken\", not \"max\"";
    QTest::newRow("hf http option") << "hf:/models/bge-m3" << R"({"api_key_env": "K"})"
                                    << "error: reward.json: unknown embedder option \"api_key_env\" for hf: (allowed: batch,";
    QTest::newRow("unknown") << "sbert" << "" << "error: unknown embedder \"sbert\" (allowed: \"lexical\", \"http:http://host:port/v1\"";
    QTest::newRow("batch 0") << "http:http://h/v1" << R"({"batch": 0})" << "error: embedder option \"batch\" must be an integer of at least 1, not 0";
    QTest::newRow("timeout text") << "http:http://h/v1" << R"({"timeout_s": "10"})" << "error: \"timeout_s\" must be a positive number of seconds, not \"10\"";
    QTest::newRow("format") << "http:http://h/v1" << R"({"encoding_format": "int8"})" << "error: \"encoding_format\" must be \"float\" or \"base64\"";
    QTest::newRow("unknown key") << "http:http://h/v1" << R"({"modle": "x"})" << "error: unknown embedder option \"modle\" (allowed: model,";
    QTest::newRow("api_key") << "http:http://h/v1" << R"({"api_key": "sk-1"})" << "error: give its name in \"api_key_env\"";
    QTest::newRow("not object") << "http:http://h/v1" << R"(["model"])" << "error: embedder options must be a JSON object";
}

void TestHttpEmbedder::factory()
{
    QFETCH(QString, spec);
    QFETCH(QString, options);
    QFETCH(QString, result);
    embed::EmbedderContext ctx;
    ctx.corpusTexts = {"不法行為", "債務履行"};
    ctx.options = options.toStdString();
    ctx.source = "reward.json";
    if (result.startsWith("error: ")) {
        const QString message = errorOfInvalid([&] { embed::makeEmbedder(spec.toStdString(), ctx); });
        QVERIFY2(message.contains(result.mid(7)), qPrintable(message));
        QVERIFY2(message.startsWith("reward.json: "), qPrintable(message));
        QVERIFY(!message.contains("sk-1"));
        return;
    }
    const std::unique_ptr<embed::Embedder> e = embed::makeEmbedder(spec.toStdString(), ctx);
    QVERIFY(e);
    QCOMPARE(QString::fromStdString(e->name()), result);
}

void TestHttpEmbedder::factoryLexical()
{
    const std::vector<std::string> corpus{"不法行為", "債務履行", "行為能力"};
    const embed::LexicalEmbedder reference(corpus);

    embed::EmbedderContext fitted;
    fitted.corpusTexts = corpus;
    const auto a = embed::makeEmbedder("lexical", fitted);
    embed::EmbedderContext loaded;
    loaded.lexicalState = reference.state();
    const auto b = embed::makeEmbedder("lexical", loaded);
    const auto c = embed::makeEmbedder("lexical", {}); // fitted on nothing: other idf
    const std::string query = "不法な行為";
    const std::vector<float> expected = reference.embed({query}, EmbedRole::Query).at(0);
    QVERIFY(a->embed({query}, EmbedRole::Query).at(0) == expected);
    QVERIFY(b->embed({query}, EmbedRole::Query).at(0) == expected);
    QVERIFY(c->embed({query}, EmbedRole::Query).at(0) != expected);

    // The options of an http: spec, key by key.
    const embed::HttpEmbedderOptions o = embed::parseHttpEmbedderOptions(
        "http://h/v1",
        R"({"model": "intfloat/multilingual-e5-large", "api_key_env": "KEY", "batch": 8, "timeout_s": 2.5,
            "deadline_s": 30, "retries": 1, "backoff_s": 0, "dimensions": 256, "encoding_format": "base64",
            "query_prefix": "query: ", "document_prefix": "passage: ", "ca_cert": "/ca.pem"})");
    QCOMPARE(o.server.url, std::string("http://h/v1"));
    QCOMPARE(o.model, std::string("intfloat/multilingual-e5-large"));
    QCOMPARE(o.server.apiKeyEnv, std::string("KEY"));
    QCOMPARE(o.batchSize, 8);
    QCOMPARE(o.server.retry.timeoutSeconds, 2.5);
    QCOMPARE(o.server.retry.deadlineSeconds, 30.0);
    QCOMPARE(o.server.retry.maxRetries, 1);
    QCOMPARE(o.server.retry.backoffSeconds, 0.0);
    QCOMPARE(o.dimensions, 256);
    QCOMPARE(o.encodingFormat, std::string("base64"));
    QCOMPARE(o.queryPrefix, std::string("query: "));
    QCOMPARE(o.documentPrefix, std::string("passage: "));
    QCOMPARE(o.server.caCertPath, std::string("/ca.pem"));
}

QTEST_APPLESS_MAIN(TestHttpEmbedder)
#include "tst_httpembedder.moc"
