// rwb serve's reward endpoints for other trainers (serve/rewardservice.h): OpenRLHF's remote
// reward model, verl's compute_score and TRL's reward functions, the Python clients of
// docs/handoff.md run as printed there, bad requests, the port in use, and the run the
// served rewards are logged to (store/externalrun.h).
#include "data/jsonl.h"
#include "reward/compositereward.h"
#include "reward/rewardconfig.h"
#include "serve/openaiserver.h"
#include "serve/rewardservice.h"
#include "store/externalrun.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "task/task.h"
#include "testtime.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>
#include <QTemporaryDir>
#include <QtTest>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <csignal>
#include <fstream>
#include <map>
#include <regex>

using namespace rwb;
using json = nlohmann::json;

namespace {

const std::string kConfig = RWB_TEST_DATA "/cli_config.json"; // partial 20 + marker 80
const std::string kData = RWB_TEST_DATA "/cli_input.jsonl";   // c1 … c5 with completions

// The records of kData by id, with their dataset line's text.
std::map<std::string, std::string> dataLines()
{
    std::map<std::string, std::string> out;
    data::forEachLine(data::readTextFile(kData), [&](size_t, std::string_view line) {
        json j = json::parse(line);
        const std::string id = j["id"].get<std::string>();
        j.erase("completion");
        out[id] = j.dump();
        return true;
    });
    return out;
}

// The total and components of (record id, completion) scored by the library directly:
// the values the server must give through any protocol.
std::pair<double, std::vector<double>> direct(const std::string &id, const std::string &completion)
{
    const task::Catalog &catalog = task::Catalog::builtin();
    const reward::RewardConfig config = reward::loadRewardConfig(kConfig, catalog.rewards());
    const reward::CompositeReward composite(config, kConfig, catalog.rewards());
    const task::Task &task = catalog.get(config.task, kConfig, "task");
    for (const task::Record &r : task.read(kData, {}))
        if (r.example->id() == id) {
            const auto parsed = task.parse(*r.example, completion, config.thinking);
            const auto s = composite.score(*r.example, *parsed);
            return {s.total, s.components};
        }
    throw std::runtime_error("no record " + id);
}

struct Server {
    std::shared_ptr<serve::RewardService> rewards;
    std::unique_ptr<serve::OpenAiServer> http;
    std::unique_ptr<httplib::Client> client;

    explicit Server(const std::string &storePath = {}, double gap = 5.0, int64_t stepRollouts = 0)
    {
        serve::RewardServiceOptions o;
        o.configPath = kConfig;
        o.dataPath = kData;
        o.storePath = storePath;
        o.runName = "trainer";
        o.stepGapSeconds = gap;
        o.stepRollouts = stepRollouts;
        rewards = std::make_shared<serve::RewardService>(o, task::Catalog::builtin());
        serve::ServerOptions so;
        so.port = 0;
        http = std::make_unique<serve::OpenAiServer>(so);
        http->start();
        http->setModels(nullptr, {}, rewards);
        client = std::make_unique<httplib::Client>("127.0.0.1", http->port());
        client->set_read_timeout(60, 0);
    }
    std::pair<int, json> post(const std::string &path, const json &body) const
    {
        const auto res = client->Post(path, body.dump(), "application/json");
        if (!res)
            throw std::runtime_error("no answer from " + path);
        return {res->status, json::parse(res->body)};
    }
};

// The ```python blocks of docs/handoff.md that start with "# file: NAME.py", by name.
std::map<std::string, std::string> handoffClients()
{
    const std::string doc = data::readTextFile(RWB_SOURCE_DIR "/docs/handoff.md");
    std::map<std::string, std::string> out;
    const std::regex block("```python\n# file: ([a-z_]+\\.py)[^\n]*\n([\\s\\S]*?)```");
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), block); it != std::sregex_iterator(); ++it)
        out[(*it)[1].str()] = (*it)[2].str();
    return out;
}

// A raw TCP connection to the server (a client cpp-httplib's own would not be: half a
// head, a chunked body), or -1.
int connectLoopback(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0)
        return fd;
    if (fd >= 0)
        ::close(fd);
    return -1;
}

// The answer on `fd` (its first 64 KB), read until the server closes or 10 s pass
// without a byte; then closes `fd`.
std::string readUntilClose(int fd)
{
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string answer;
    char buffer[4096];
    for (ssize_t n; answer.size() < 65536 && (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;)
        answer.append(buffer, static_cast<size_t>(n));
    ::close(fd);
    return answer;
}

// Sends `bytes` on a new connection and returns the answer, read until the server closes
// the connection (its refusals say Connection: close) or 10 s pass without a byte.
std::string sendRaw(int port, const std::string &bytes)
{
    const int fd = connectLoopback(port);
    if (fd < 0)
        return {};
    (void)::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    return readUntilClose(fd);
}

// As a client that uploads a whole request before it reads the answer (cpp-httplib's,
// Python's requests): sends `head` and then `flood` bytes more, then reads the answer until
// the server closes. A send that fails (the server reset the connection) is the answer
// "send failed: …".
std::string sendAllThenRead(int port, const std::string &head, size_t flood)
{
    const int fd = connectLoopback(port);
    if (fd < 0)
        return {};
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    std::string all = head + std::string(flood, 'x');
    for (size_t sent = 0; sent < all.size();) {
        const ssize_t n = ::send(fd, all.data() + sent, all.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            return "send failed after " + std::to_string(sent) + " bytes: " + why;
        }
        sent += static_cast<size_t>(n);
    }
    ::shutdown(fd, SHUT_WR);
    return readUntilClose(fd);
}

} // namespace

class TestRewardServer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void openRlhfProtocol();
    void verlAndTrlProtocols();
    void trlToolCallCompletions();
    void pythonClientsFromTheDocs();
    void badRequests_data();
    void badRequests();
    void apiKey();
    void hostAndOriginGuard();
    void answeredRolloutsSurviveACrash();
    void chunkedBodiesAndHeaderFloodsRefused();
    void slowClientsCostASocket();
    void refusalsReachAClientStillSending();
    void portInUse();
    void loggedRunWithoutSteps();
    void loggedRunWithTrainerSteps();
    void loggedRunByRolloutCount();
};

void TestRewardServer::openRlhfProtocol()
{
    Server s;
    const auto lines = dataLines();
    // c1 named by id, c2 by its whole record (as JSON text), c3 as a JSON object; end
    // markers and the prompt are not part of the response.
    const json body = {{"query", {"P1株式会社みどり製作所<|im_end|>", "P2みどり製作<|im_end|><|endoftext|>", "P3SKYネット"}},
                       {"prompts", {"P1", "P2", "P3"}},
                       {"labels", {"c1", lines.at("c2"), json::parse(lines.at("c3"))}}};
    const auto [status, out] = s.post("/reward", body);
    QCOMPARE(status, 200);
    const std::vector<std::pair<std::string, std::string>> expect = {
        {"c1", "株式会社みどり製作所"}, {"c2", "みどり製作"}, {"c3", "SKYネット"}};
    for (size_t i = 0; i < expect.size(); ++i) {
        const auto [total, comps] = direct(expect[i].first, expect[i].second);
        QCOMPARE(out["rewards"][i].get<double>(), total);
        QCOMPARE(out["scores"][i].get<double>(), std::clamp(total, 0.0, 1.0));
        QCOMPARE(out["extra_logs"]["partial"][i].get<double>(), comps[0]);
        QCOMPARE(out["extra_logs"]["marker"][i].get<double>(), comps[1]);
    }
    // By hand: the gold itself scores partial 1 and marker 1, so 1. c3's "SKYネット"
    // against "ＳＫＹネット株式会社" (NFKC: 6 and 10 characters, 6 in common): partial
    // 2·6 / 16 = 0.75; without the marker the two are equal, marker 1; 0.2·0.75 + 0.8 = 0.95.
    QCOMPARE(out["rewards"][0].get<double>(), 1.0);
    QVERIFY(std::abs(out["rewards"][2].get<double>() - 0.95) < 1e-12);
    // OpenRLHF's own path answers the same.
    QCOMPARE(s.post("/get_reward", body).second, out);
}

void TestRewardServer::verlAndTrlProtocols()
{
    Server s;
    const auto lines = dataLines();
    const auto [t4, c4] = direct("c4", "（株）さくら運送");
    // verl, one rollout: the record from ground_truth.
    auto [st1, one] = s.post("/reward/verl", {{"data_source", "mail"}, {"solution_str", "（株）さくら運送"},
                                              {"ground_truth", lines.at("c4")}, {"extra_info", {{"index", 3}}}});
    QCOMPARE(st1, 200);
    QCOMPARE(one["score"].get<double>(), t4);
    QCOMPARE(one["partial"].get<double>(), c4[0]);
    QCOMPARE(one["reward_none"].get<int>(), 0);
    // verl, a batch: the record from extra_info.record wins over ground_truth.
    auto [st2, batch] = s.post("/reward/verl", {{"data_sources", {"mail", "mail"}},
                                                {"solution_strs", {"（株）さくら運送", "株式会社ひまわり工業"}},
                                                {"ground_truths", {"ignored", "c5"}},
                                                {"extra_infos", {{{"record", json::parse(lines.at("c4"))}}, nullptr}}});
    QCOMPARE(st2, 200);
    QCOMPARE(batch.size(), size_t(2));
    QCOMPARE(batch[0]["score"].get<double>(), t4);
    QCOMPARE(batch[1]["score"].get<double>(), direct("c5", "株式会社ひまわり工業").first);
    // TRL: conversational completions, the dataset's columns as lists.
    json row5 = json::parse(lines.at("c5"));
    json body = {{"prompts", {{{{"role", "user"}, {"content", "who sent it?"}}}}},
                 {"completions", {{{{"role", "assistant"}, {"content", "株式会社あおぞら商会"}}}}}};
    for (auto it = row5.begin(); it != row5.end(); ++it)
        body[it.key()] = json::array({it.value()});
    auto [st3, trl] = s.post("/reward/trl", body);
    QCOMPARE(st3, 200);
    QCOMPARE(trl["rewards"][0].get<double>(), direct("c5", "株式会社あおぞら商会").first);
    QCOMPARE(trl["rewards"][0].get<double>(), 1.0); // the gold: partial 1, marker 1
    QCOMPARE(trl["components"]["marker"][0].get<double>(), 1.0);
}

// TRL's tool-calling completions: an assistant message of tool calls only (no "content",
// or content null) was refused with 400 ("with string content"). Its text is now the calls
// as <tool_call>{"name", "arguments"}</tool_call> (data/messagetext.h), content given as
// parts is their text, and the tool's answer is a message of the completion like any other.
void TestRewardServer::trlToolCallCompletions()
{
    Server s;
    const json row5 = json::parse(dataLines().at("c5"));
    // OpenAI's form: arguments as JSON text. transformers' form: arguments as an object,
    // content null. Both render the same call text (the keys in the order written).
    const json openai = {{"role", "assistant"},
                         {"tool_calls", {{{"id", "call_1"}, {"type", "function"},
                                          {"function", {{"name", "lookup"}, {"arguments", R"({"q": "差出人"})"}}}}}}};
    const json hf = {{"role", "assistant"}, {"content", nullptr},
                     {"tool_calls", {{{"type", "function"}, {"function", {{"name", "lookup"}, {"arguments", {{"q", "差出人"}}}}}}}}};
    const json tool = {{"role", "tool"}, {"name", "lookup"}, {"content", {{{"type", "text"}, {"text", "株式会社あおぞら商会"}}}}};
    const json answer = {{"role", "assistant"}, {"content", "株式会社あおぞら商会"}};
    json body = {{"prompts", {"q", "q", "q"}},
                 {"completions", {json::array({openai}), json::array({hf}), json::array({hf, tool, answer})}}};
    for (auto it = row5.begin(); it != row5.end(); ++it)
        body[it.key()] = json::array({it.value(), it.value(), it.value()});
    auto [status, out] = s.post("/reward/trl", body);
    QVERIFY2(status == 200, out.dump().c_str());
    const std::string call = R"(<tool_call>{"name":"lookup","arguments":{"q":"差出人"}}</tool_call>)";
    QCOMPARE(out["rewards"][0].get<double>(), direct("c5", call).first);
    QCOMPARE(out["rewards"][1].get<double>(), direct("c5", call).first);
    // The calls, the tool's text, the answer: one per line.
    QCOMPARE(out["rewards"][2].get<double>(), direct("c5", call + "\n株式会社あおぞら商会\n株式会社あおぞら商会").first);
    // Arguments as JSON text nested 100,000 deep (a string, so the request's own depth
    // limit never saw it) crashed the server copying the parsed value; now kept as text.
    {
        const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
        json deepCall = {{"role", "assistant"}, {"tool_calls", {{{"function", {{"name", "f"}, {"arguments", deep}}}}}}};
        json one = {{"prompts", {"q"}}, {"completions", {json::array({deepCall})}}};
        for (auto it = row5.begin(); it != row5.end(); ++it)
            one[it.key()] = json::array({it.value()});
        const auto [st, o] = s.post("/reward/trl", one);
        QCOMPARE(st, 200);
        QVERIFY(o["rewards"][0].is_number());
    }
    // A call without a name is still refused, and the field named.
    body["completions"] = {json::array({{{"role", "assistant"}, {"tool_calls", {{{"function", {{"arguments", "{}"}}}}}}}})};
    body["prompts"] = {"q"};
    for (auto it = row5.begin(); it != row5.end(); ++it)
        body[it.key()] = json::array({it.value()});
    std::tie(status, out) = s.post("/reward/trl", body);
    QCOMPARE(status, 400);
    QCOMPARE(QString::fromStdString(out["error"]["param"].get<std::string>()), QStringLiteral("completions[0][0]"));
    QVERIFY2(out["error"]["message"].get<std::string>().find("tool_calls[0] has no function name") != std::string::npos,
             out.dump().c_str());
}

void TestRewardServer::pythonClientsFromTheDocs()
{
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    QVERIFY2(!python.isEmpty(), "python3 is installed by scripts/setup.sh");
    const auto clients = handoffClients();
    QCOMPARE(clients.size(), size_t(3));
    for (const auto &[name, code] : clients) {
        // Short enough to paste: about 20 lines; verl's serves its batch manager, its
        // per-sample reward loop and an async function.
        QVERIFY2(std::count(code.begin(), code.end(), '\n') <= (name == "rwb_verl.py" ? 36 : 22), name.c_str());
    }
    QTemporaryDir dir;
    for (const auto &[name, code] : clients)
        std::ofstream(dir.filePath(QString::fromStdString(name)).toStdString()) << code;
    const auto lines = dataLines();
    // The driver calls each client as its trainer would, with the records as that trainer
    // passes them, and prints what the functions return.
    const std::string driver = R"PY(
import json, sys
import rwb_openrlhf, rwb_verl, rwb_trl
recs = json.loads(sys.argv[1])
class State:
    global_step = 4
out = {}
o = rwb_openrlhf.reward_func(["Q株式会社みどり製作所<|im_end|>", "Qみどり製作"], ["Q", "Q"], [recs["c1"], "c2"])
out["openrlhf"] = {"rewards": list(o["rewards"]), "scores": list(o["scores"]),
                   "partial": list(o["extra_logs"]["partial"])}
out["verl"] = rwb_verl.compute_score(data_sources=["mail"], solution_strs=["SKYネット"], ground_truths=[recs["c3"]],
                                     extra_infos=[{"index": 2}])
out["verl1"] = rwb_verl.compute_score(data_source="mail", solution_str="SKYネット", ground_truth=recs["c3"],
                                      extra_info={"index": 2, "num_turns": None, "rollout_reward_scores": {}})
cols = {k: [json.loads(recs["c4"])[k]] for k in json.loads(recs["c4"])}
out["trl"] = rwb_trl.rwb_reward(prompts=["Q"], completions=["（株）さくら運送"], completion_ids=[[1, 2]],
                                trainer_state=State(), **cols)
print(json.dumps(out))
)PY";
    std::ofstream(dir.filePath(QStringLiteral("driver.py")).toStdString()) << driver;
    Server s;
    QProcess p;
    p.setWorkingDirectory(dir.path());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RWB_REWARD_URL"), QStringLiteral("http://127.0.0.1:%1/reward").arg(s.http->port()));
    p.setProcessEnvironment(env);
    p.start(python, {QStringLiteral("driver.py"), QString::fromStdString(json(lines).dump())});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
    const QByteArray err = p.readAllStandardError();
    QVERIFY2(p.exitCode() == 0, err.constData());
    const json out = json::parse(p.readAllStandardOutput().toStdString());
    const auto [t1, c1] = direct("c1", "株式会社みどり製作所");
    const auto [t2, c2] = direct("c2", "みどり製作");
    QCOMPARE(out["openrlhf"]["rewards"][0].get<double>(), t1);
    QCOMPARE(out["openrlhf"]["rewards"][1].get<double>(), t2);
    QCOMPARE(out["openrlhf"]["partial"][1].get<double>(), c2[0]);
    QCOMPARE(out["verl"][0]["score"].get<double>(), direct("c3", "SKYネット").first);
    QCOMPARE(out["verl1"]["score"].get<double>(), direct("c3", "SKYネット").first);
    QCOMPARE(out["trl"][0].get<double>(), direct("c4", "（株）さくら運送").first);
}

void TestRewardServer::badRequests_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("param");
    QTest::addColumn<QString>("says");
    QTest::newRow("not JSON") << "/reward" << QByteArray("{\"query\": [") << "" << "not a JSON object";
    QTest::newRow("no query") << "/reward" << QByteArray(R"({"prompts": []})") << "query" << "Missing";
    QTest::newRow("labels short") << "/reward" << QByteArray(R"({"query": ["a", "b"], "prompts": ["", ""], "labels": ["c1"]})")
                                  << "labels" << "has 1 entries; expected 2";
    QTest::newRow("unknown id") << "/reward" << QByteArray(R"({"query": ["a", "b"], "prompts": ["", ""], "labels": ["c1", "zz9"]})")
                                << "labels[1]" << "nor the id of a record of";
    QTest::newRow("record lacks a field")
        << "/reward" << QByteArray(R"({"query": ["a"], "prompts": [""], "labels": [{"id": "x", "gold": "g"}]})")
        << "labels[0]" << "sender_email";
    QTest::newRow("verl: solution not a string")
        << "/reward/verl" << QByteArray(R"({"solution_strs": [3], "ground_truths": ["c1"]})") << "solution_strs[0]"
        << "Expected a string";
    QTest::newRow("trl: bad message") << "/reward/trl"
                                      << QByteArray(R"({"prompts": ["q"], "completions": [[{"role": "assistant"}]], "id": ["c1"]})")
                                      << "completions[0][0]" << "content";
    QTest::newRow("trl: step") << "/reward/trl" << QByteArray(R"({"prompts": [], "completions": [], "step": -2})")
                               << "step" << "non-negative";
    // A label nested 100,000 levels deep (200 KB) crashed the server on every shape: it was
    // parsed whole and then dumped and copied recursively (issue 38). Refused while parsing.
    const QByteArray deep = QByteArray(100'000, '[') + QByteArray(100'000, ']');
    const QString tooDeep = "nests JSON deeper than 128 levels";
    QTest::newRow("deep: openrlhf labels") << "/reward" << (R"({"query": ["a"], "prompts": [""], "labels": [)" + deep + "]}")
                                           << "" << tooDeep;
    QTest::newRow("deep: verl ground_truths")
        << "/reward/verl" << (R"({"solution_strs": ["a"], "ground_truths": [)" + deep + "]}") << "" << tooDeep;
    QTest::newRow("deep: verl extra_info")
        << "/reward/verl" << (R"({"solution_strs": ["a"], "ground_truths": ["c1"], "extra_infos": [)" + deep + "]}")
        << "" << tooDeep;
    QTest::newRow("deep: trl column") << "/reward/trl"
                                      << (R"({"prompts": ["q"], "completions": ["a"], "id": ["c1"], "extra": [)" + deep + "]}")
                                      << "" << tooDeep;
    QTest::newRow("deep: 200 levels") << "/reward"
                                      << (R"({"query": ["a"], "prompts": [""], "labels": [)" + QByteArray(200, '[') +
                                          QByteArray(200, ']') + "]}")
                                      << "" << tooDeep;
}

void TestRewardServer::badRequests()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(QString, param);
    QFETCH(QString, says);
    QTemporaryDir dir;
    const std::string store = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    Server s(store);
    const auto res = s.client->Post(path.toStdString(), body.toStdString(), "application/json");
    QVERIFY(res);
    QCOMPARE(res->status, 400);
    const json e = json::parse(res->body)["error"];
    QCOMPARE(QString::fromStdString(e["param"].is_null() ? "" : e["param"].get<std::string>()), param);
    QVERIFY2(QString::fromStdString(e["message"].get<std::string>()).contains(says), e.dump().c_str());
    // The server goes on answering.
    const auto health = s.client->Get("/health");
    QVERIFY(health);
    QCOMPARE(health->status, 200);
    // Nothing of a refused request is logged.
    s.rewards->flush();
    QCOMPARE(store::RunStore(store, store::RunStore::OpenMode::ReadOnly).stepRollouts(s.rewards->runId(), 0).size(),
             size_t(0));
}

void TestRewardServer::apiKey()
{
    serve::RewardServiceOptions o;
    o.configPath = kConfig;
    o.dataPath = kData;
    auto rewards = std::make_shared<serve::RewardService>(o, task::Catalog::builtin());
    serve::ServerOptions so;
    so.port = 0;
    so.apiKey = "sesame";
    serve::OpenAiServer http(so);
    http.start();
    http.setModels(nullptr, {}, rewards);
    httplib::Client c("127.0.0.1", http.port());
    const std::string body = R"({"query": ["x"], "prompts": [""], "labels": ["c1"]})";
    QCOMPARE(c.Post("/reward", body, "application/json")->status, 401);
    QCOMPARE(c.Post("/reward?api_key=wrong", body, "application/json")->status, 401);
    QCOMPARE(c.Post("/reward?api_key=sesame", body, "application/json")->status, 200);
    httplib::Headers h{{"Authorization", "Bearer sesame"}};
    QCOMPARE(c.Post("/reward/verl", h, R"({"solution_str": "x", "ground_truth": "c1"})", "application/json")->status, 200);
}

// With no key, a web page's request (Origin) or a rebound name (Host: evil.example,
// resolving to 127.0.0.1) was scored and stored (issue 38). Refused now, /health aside.
void TestRewardServer::hostAndOriginGuard()
{
    QTemporaryDir dir;
    const std::string store = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    Server s(store);
    const std::string body = R"({"query": ["x"], "prompts": [""], "labels": ["c1"]})";
    auto post = [&](const httplib::Headers &h) { return s.client->Post("/reward", h, body, "text/plain"); };
    const auto rebound = post({{"Host", "evil.example:8000"}, {"Origin", "http://evil.example:8000"}});
    QVERIFY(rebound);
    QCOMPARE(rebound->status, 403);
    QCOMPARE(QString::fromStdString(json::parse(rebound->body)["error"]["code"].get<std::string>()),
             QString("forbidden_host"));
    QVERIFY(QString::fromStdString(rebound->body).contains("--allow-host evil.example"));
    const auto page = post({{"Origin", "http://evil.example"}});
    QCOMPARE(page->status, 403);
    QCOMPARE(QString::fromStdString(json::parse(page->body)["error"]["code"].get<std::string>()),
             QString("forbidden_origin"));
    QCOMPARE(s.client->Get("/health", {{"Host", "evil.example"}})->status, 200);
    // Addresses and localhost pass.
    for (const char *host : {"127.0.0.1:1", "localhost", "LOCALHOST:8000", "[::1]:8000", "10.1.2.3"})
        QCOMPARE(post({{"Host", host}})->status, 200);
    s.rewards->flush();
    QCOMPARE(store::RunStore(store, store::RunStore::OpenMode::ReadOnly).stepRollouts(s.rewards->runId(), 0).size(),
             size_t(5)); // the five let through, not the two refused
    // Allowed by name and origin.
    serve::ServerOptions so;
    so.port = 0;
    so.allowedHosts = {"Trainer.internal"};
    so.allowedOrigins = {"https://lab.example"};
    serve::OpenAiServer http(so);
    http.start();
    http.setModels(nullptr, {}, s.rewards);
    httplib::Client c("127.0.0.1", http.port());
    QCOMPARE(c.Post("/reward", {{"Host", "trainer.internal:8000"}}, body, "application/json")->status, 200);
    QCOMPARE(c.Post("/reward", {{"Origin", "https://lab.example"}}, body, "application/json")->status, 200);
    QCOMPARE(c.Post("/reward", {{"Host", "other.internal"}}, body, "application/json")->status, 403);
}

// rwb serve --store killed with SIGKILL after answering: the rollouts it answered were
// held in memory and lost, and the run stayed "running" (issue 38). Now each request's
// rollouts are on the disk before the 200, and the next server on the store writes them.
void TestRewardServer::answeredRolloutsSurviveACrash()
{
    QTemporaryDir dir;
    const std::string store = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    QProcess p;
    p.start(RWB_BINARY, {"serve", "--reward-config", QString::fromStdString(kConfig), "--reward-data",
                         QString::fromStdString(kData), "--store", QString::fromStdString(store), "--port", "0",
                         "--quiet"});
    QVERIFY(p.waitForStarted());
    QVERIFY2(p.waitForReadyRead(60000), p.readAllStandardError().constData());
    const json ready = json::parse(p.readLine().toStdString(), nullptr, false);
    QVERIFY2(ready.is_object() && ready.contains("url"), p.readAllStandardError().constData());
    const std::string url = ready["url"].get<std::string>(); // http://127.0.0.1:PORT/v1
    const int port = std::stoi(url.substr(url.rfind(':') + 1));
    httplib::Client c("127.0.0.1", port);
    const std::string body = R"({"query": ["株式会社みどり製作所", "x", "y"], "prompts": ["", "", ""], "labels": ["c1", "c2", "c3"]})";
    const auto answered = c.Post("/reward", body, "application/json");
    QVERIFY(answered);
    QCOMPARE(answered->status, 200);
    // Another server opened on the same store meanwhile leaves the live one's run alone.
    int64_t crashedRun = 0;
    {
        serve::RewardServiceOptions o;
        o.configPath = kConfig;
        o.storePath = store;
        o.runName = "second";
        serve::RewardService second(o, task::Catalog::builtin());
        const store::RunStore st(store, store::RunStore::OpenMode::ReadOnly);
        for (const store::RunInfo &r : st.runs())
            if (r.name == "served rewards")
                crashedRun = r.id;
        QVERIFY(crashedRun > 0);
        QCOMPARE(QString::fromStdString(st.run(crashedRun).status), QString("running"));
    }
    ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(10000)));
    QVERIFY(QFile::exists(QString::fromStdString(store::PendingLog::pathFor(store, crashedRun))));
    {
        serve::RewardServiceOptions o;
        o.configPath = kConfig;
        o.storePath = store;
        o.runName = "third";
        std::vector<std::string> logged;
        o.log = [&](const std::string &line) { logged.push_back(line); };
        serve::RewardService third(o, task::Catalog::builtin());
        QCOMPARE(logged.size(), size_t(1));
        QVERIFY2(QString::fromStdString(logged[0]).contains("3 rollouts it had answered were recovered"),
                 logged[0].c_str());
    }
    const store::RunStore st(store, store::RunStore::OpenMode::ReadOnly);
    const store::RunInfo run = st.run(crashedRun);
    QCOMPARE(QString::fromStdString(run.status), QString("failed"));
    QVERIFY(QString::fromStdString(run.message).contains("the server stopped without finishing the run"));
    const auto rows = st.stepRollouts(crashedRun, run.lastStep);
    QCOMPARE(rows.size(), size_t(3));
    QCOMPARE(QString::fromStdString(rows[0].rollout.completion), QString("株式会社みどり製作所"));
    QVERIFY(!QFile::exists(QString::fromStdString(store::PendingLog::pathFor(store, crashedRun))));
    QCOMPARE(QString::fromStdString(st.integrityCheck()), QString("ok"));
}

// A chunked body has no length to hold against the 32 MiB cap: cpp-httplib read 300 MB
// of one (issue 38). Refused with 411 before its body is read; 100,000 headers with 431.
void TestRewardServer::chunkedBodiesAndHeaderFloodsRefused()
{
    Server s;
    // Headers that announce a chunked body of 1 MB, then 16 bytes of it: the answer comes
    // without waiting for the rest. (Only a little is sent: a server that closes with unread
    // bytes resets the connection, and the client may lose the answer to that race.)
    const std::string answer = sendRaw(s.http->port(), "POST /reward HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                                       "Content-Type: application/json\r\n"
                                                       "Transfer-Encoding: chunked\r\n\r\n100000\r\n" +
                                                           std::string(16, '['));
    QVERIFY2(answer.rfind("HTTP/1.1 411", 0) == 0, answer.c_str());
    QVERIFY2(answer.find("send the body with a Content-Length") != std::string::npos, answer.c_str());
    // 1,000 headers.
    httplib::Headers many;
    for (int i = 0; i < 1000; ++i)
        many.emplace("X-H" + std::to_string(i), "v");
    httplib::Client c("127.0.0.1", s.http->port());
    const auto flooded = c.Post("/reward", many, R"({"query": ["x"], "prompts": [""], "labels": ["c1"]})",
                                "application/json");
    QVERIFY(flooded);
    QCOMPARE(flooded->status, 431);
    QCOMPARE(s.client->Get("/health")->status, 200);
}

// 200 clients that have sent half a request held every HTTP worker (72) and /health timed
// out; a request line of 100 MB was buffered whole (issue 38). Heads are read at a gate
// now: the workers stay free, and an over-long line gets 414 at 8 KB.
void TestRewardServer::slowClientsCostASocket()
{
    Server s;
    std::vector<int> slow;
    for (int i = 0; i < 200; ++i) {
        const int fd = connectLoopback(s.http->port());
        QVERIFY(fd >= 0);
        const std::string half = "POST /reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-";
        QVERIFY(::send(fd, half.data(), half.size(), MSG_NOSIGNAL) > 0);
        slow.push_back(fd);
    }
    httplib::Client c("127.0.0.1", s.http->port());
    c.set_connection_timeout(1, 0);
    c.set_read_timeout(1, 0);
    QElapsedTimer t;
    t.start();
    const auto health = c.Get("/health");
    QVERIFY(health);
    QCOMPARE(health->status, 200);
    QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed()) + " ms"));
    const auto scored = c.Post("/reward", R"({"query": ["x"], "prompts": [""], "labels": ["c1"]})", "application/json");
    QVERIFY(scored);
    QCOMPARE(scored->status, 200);
    for (int fd : slow)
        ::close(fd);
    // A request line that goes on: 414 once it passes 8 KB, not buffered on (9 KB are sent,
    // all read by the server, for the reason above; probe-serve.py sends 100 MB).
    const std::string answer = sendRaw(s.http->port(), "GET /" + std::string(9000, 'a'));
    QVERIFY2(answer.rfind("HTTP/1.1 414", 0) == 0, answer.c_str());
}

// A request refused while its client is still sending (a chunked body, a request line or
// headers that go on): a server that closes a socket with bytes unread sends a reset, and
// a client that sends its whole request before reading fails on send and never reads the
// answer. The server shuts its side after the answer and reads and drops what still comes
// before closing (lingering close), so the client's upload ends and it reads the answer.
void TestRewardServer::refusalsReachAClientStillSending()
{
    Server s;
    const std::string chunked = "POST /reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                "Transfer-Encoding: chunked\r\n\r\n800000\r\n";
    const struct {
        std::string head;
        const char *status;
    } cases[] = {{chunked, "HTTP/1.1 411"},
                 {"GET /" + std::string(16 * 1024, 'a'), "HTTP/1.1 414"},
                 {"POST /reward HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ", "HTTP/1.1 431"}};
    for (const auto &c : cases)
        for (int attempt = 0; attempt < 5; ++attempt) {
            const std::string answer = sendAllThenRead(s.http->port(), c.head, 8u << 20);
            QVERIFY2(answer.rfind(c.status, 0) == 0, qPrintable(QString("%1, attempt %2: %3")
                                                                     .arg(c.status)
                                                                     .arg(attempt)
                                                                     .arg(QString::fromStdString(answer.substr(0, 80)))));
        }
    QCOMPARE(s.client->Get("/health")->status, 200);
}

void TestRewardServer::portInUse()
{
    Server first;
    serve::ServerOptions so;
    so.port = first.http->port();
    serve::OpenAiServer second(so);
    try {
        second.start();
        QFAIL("a second server bound a port in use");
    } catch (const std::runtime_error &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QString::number(so.port)), e.what());
    }
    // The first one still answers.
    QCOMPARE(first.post("/reward/verl", {{"solution_str", "x"}, {"ground_truth", "c1"}}).first, 200);
}

void TestRewardServer::loggedRunWithoutSteps()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    int64_t run = 0;
    {
        Server s(path, /*gap=*/3600.0);
        run = s.rewards->runId();
        // One sample per request, as OpenRLHF sends them: c1 twice (one group), c2 once.
        for (const auto &[completion, id] : std::vector<std::pair<std::string, std::string>>{
                 {"株式会社みどり製作所", "c1"}, {"みどり製作", "c1"}, {"みどり製作", "c2"}})
            QCOMPARE(s.post("/reward", {{"query", {"P" + completion}}, {"prompts", {"P"}}, {"labels", {id}}}).first, 200);
        // The server stops: the step in memory is written and the run finished.
    }
    const store::RunStore st(path, store::RunStore::OpenMode::ReadOnly);
    const store::RunInfo info = st.run(run);
    QCOMPARE(info.kind, std::string("external"));
    QCOMPARE(info.status, std::string("finished"));
    QCOMPARE(info.task, std::string("company_extraction"));
    const auto rows = st.stepRollouts(run, 0);
    QCOMPARE(rows.size(), size_t(3));
    const double r1 = direct("c1", "株式会社みどり製作所").first, r2 = direct("c1", "みどり製作").first;
    // Group 0 = c1's two samples: advantages ±(r1 − r2)/2 / (std + 1e-4), std = |r1 − r2|/√2.
    const double sd = std::fabs(r1 - r2) / std::sqrt(2.0);
    QCOMPARE(rows[0].rollout.groupIndex, 0);
    QCOMPARE(rows[1].rollout.groupIndex, 0);
    QCOMPARE(rows[2].rollout.groupIndex, 1);
    QCOMPARE(rows[1].rollout.sampleIndex, 1);
    QVERIFY(std::fabs(rows[0].rollout.advantage - (r1 - r2) / 2 / (sd + 1e-4)) < 1e-9);
    QVERIFY(std::fabs(rows[1].rollout.advantage + (r1 - r2) / 2 / (sd + 1e-4)) < 1e-9);
    QCOMPARE(rows[2].rollout.advantage, 0.0); // a group of one
    QCOMPARE(rows[0].rollout.completion, std::string("株式会社みどり製作所"));
    QVERIFY(json::parse(rows[1].rollout.rewardsJson).contains("marker"));
    const auto reward = st.metrics(run, "reward");
    QCOMPARE(reward.size(), size_t(1));
    QVERIFY(std::fabs(reward[0].value - (r1 + r2 + direct("c2", "みどり製作").first) / 3) < 1e-12);
    QCOMPARE(st.metrics(run, "frac_reward_zero_std")[0].value, 0.5); // c2's group of one has std 0
    QCOMPARE(st.rewardConfigs(run).size(), size_t(1));
}

void TestRewardServer::loggedRunWithTrainerSteps()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    Server s(path);
    const auto lines = dataLines();
    auto trl = [&](int step, const std::string &completion) {
        const json rec = json::parse(lines.at("c3"));
        json body = {{"prompts", {"Q"}}, {"completions", {completion}}, {"step", step}, {"group", {"g"}}};
        for (auto it = rec.begin(); it != rec.end(); ++it)
            body[it.key()] = json::array({it.value()});
        QCOMPARE(s.post("/reward/trl", body).first, 200);
    };
    trl(7, "ＳＫＹネット株式会社"); // two calls of step 7 (gradient accumulation) …
    trl(7, "SKYネット");
    {
        const store::RunStore st(path, store::RunStore::OpenMode::ReadOnly);
        QCOMPARE(st.stepRollouts(s.rewards->runId(), 7).size(), size_t(0)); // … held until step 8 starts
    }
    trl(8, "SKY");
    trl(3, "SKY"); // a trainer resumed from a checkpoint: step 3 is before what was written
    s.rewards->flush();
    const store::RunStore st(path, store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(st.stepRollouts(s.rewards->runId(), 7).size(), size_t(2));
    QCOMPARE(st.stepRollouts(s.rewards->runId(), 8).size(), size_t(1));
    QCOMPARE(st.stepRollouts(s.rewards->runId(), 9).size(), size_t(1)); // the next free step
    QCOMPARE(st.stepRollouts(s.rewards->runId(), 7)[1].rollout.groupIndex, 0); // one group "g"
}

QTEST_APPLESS_MAIN(TestRewardServer)
// OpenRLHF with --train.async_enable scores the next step's samples while the last one
// trains: no pause marks a step. With --step-rollouts 3, each 3 rollouts are a step,
// whatever the pauses (here none at all, and a gap of 1 ms that would otherwise split
// every request); the last, partial step is written when the server stops.
void TestRewardServer::loggedRunByRolloutCount()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("s.sqlite")).toStdString();
    int64_t run = 0;
    {
        Server s(path, /*gap=*/0.001, /*stepRollouts=*/3);
        run = s.rewards->runId();
        for (int i = 0; i < 7; ++i) {
            const std::string id = i % 3 == 2 ? "c2" : "c1";
            QCOMPARE(s.post("/reward", {{"query", {"P株式会社"}}, {"prompts", {"P"}}, {"labels", {id}}}).first, 200);
            QThread::msleep(5); // longer than the gap: pauses do not end steps
        }
    }
    const store::RunStore st(path, store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(st.stepRollouts(run, 0).size(), size_t(3));
    QCOMPARE(st.stepRollouts(run, 1).size(), size_t(3));
    QCOMPARE(st.stepRollouts(run, 2).size(), size_t(1)); // written at the stop
    QCOMPARE(st.stepRollouts(run, 3).size(), size_t(0));
    // Step 0: c1, c1, c2: two groups.
    const auto rows = st.stepRollouts(run, 0);
    QCOMPARE(rows[0].rollout.groupIndex, rows[1].rollout.groupIndex);
    QVERIFY(rows[2].rollout.groupIndex != rows[0].rollout.groupIndex);
}

#include "tst_rewardserver.moc"
