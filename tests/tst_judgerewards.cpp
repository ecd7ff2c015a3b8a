// reward/judgerewards: the judge rewards (coverage, consistency, rubric_explicit in both
// modes, rubric_implicit, the Likert baselines, G-Eval) scored through a scripted
// loopback judge, the None a failed judge gives, the decisions logged, the composite's
// None total, and the reward config's "judge" and "options".
//
// The scripted judge answers from the request it gets (the answer under judgement is
// in the user message), so each expected value is worked out from the script by hand in
// the comments. Tolerance 1e-12 (exact arithmetic on small fractions).
#include "data/jsonl.h"
#include "task/catalog.h"
#include "tasks/legalqa/legaljudgeagreement.h"
#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"
#include "judge/rubric.h"
#include "judge/rubricgen.h"
#include "tasks/legalqa/legalrubric.h"
#include "tasks/legalqa/legaljudgedata.h"
#include "judge/judgeprompts.h"
#include "tasks/legalqa/legalgrader.h"
#include "reward/compositereward.h"
#include "reward/judgekind.h"
#include "reward/judgerewards.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "tasks/legalqa/legalqatask.h"
#include "task/rubricoverride.h"

#include <QTemporaryDir>
#include <QtTest>

#include "loopbackserver.h"
#include "scriptedjudge.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>

using namespace rwb;
using rwbtest::ScriptedServer;
using rwbtest::SeenRequest;
using rwbtest::client;
using rwbtest::completion;
using rwbtest::judgeScript;
using rwbtest::output;
using rwbtest::question;
using rwbtest::userText;
using json = nlohmann::json;

namespace {

constexpr double kTol = 1e-12;
constexpr const char *kPath = rwbtest::kJudgePath;
std::unique_ptr<reward::Reward> make(const std::string &name, std::shared_ptr<const judge::JudgeClient> c,
                                     const std::string &options = "")
{
    return reward::makeJudgeReward(name, std::move(c), reward::parseJudgeRewardOptions(name, options, ""));
}

} // namespace

class TestJudgeRewards : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void legal();
    void requestLoggedAsSent();
    void rubricExplicit();
    void rubricOverride();
    void rubricImplicitAndLikert();
    void geval();
    void failuresAreNone();
    void compositeAndConfig();
    void badOptions();
    void explicitAgainstReferenceGrader();
    void judgeTrainingData();
    void agreementWithLabels();
    void aProgramsOwnKind();
};

void TestJudgeRewards::legal()
{
    ScriptedServer server(judgeScript, false, kPath);
    const auto c = client(server);
    const auto coverage = make("coverage", c);
    const auto consistency = make("consistency", c);
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion right(e, output("30日以内に届出が必要です。"));
    const task::LegalQaCompletion wrong(e, output("14日以内に届出が必要です。"));
    const task::LegalQaCompletion both(e, output("30日以内、または14日以内です。"));
    std::vector<double> cov, con;
    reward::ScoreLog log;
    coverage->scoreBatch({&e, &e, &e}, {&right, &wrong, &both}, cov, &log);
    consistency->scoreBatch({&e, &e, &e}, {&right, &wrong, &both}, con, &log);
    // right: full coverage, no contradiction; wrong: none, contradiction; both: full, contradiction.
    QCOMPARE(cov, (std::vector<double>{1.0, 0.0, 1.0}));
    QCOMPARE(con, (std::vector<double>{1.0, 0.0, 0.0}));
    // coverage and consistency ask the same thing: 3 requests, not 6.
    QCOMPARE(server.requests().size(), size_t(3));
    const std::vector<reward::JudgeDecision> d = log.take();
    QCOMPARE(d.size(), size_t(6));
    QCOMPARE(d[0].reward, std::string("coverage"));
    QCOMPARE(d[3].reward, std::string("consistency"));
    QVERIFY(!d[0].cacheHit && d[3].cacheHit);
    QCOMPARE(d[0].promptTokens, int64_t(50));
    QCOMPARE(d[3].promptTokens, int64_t(0)); // a hit costs nothing
    QVERIFY(d[0].reply.find("```json") == 0);
    const json verdict = json::parse(d[0].verdict);
    QCOMPARE(verdict["coverage"].get<double>(), 1.0);
    QCOMPARE(verdict["span"]["form"].get<std::string>(), std::string("fenced"));
    QVERIFY(json::parse(d[0].request)["messages"].size() == 2);
    // The judge sees the question and the reference, not the retrieved sections.
    const std::string user = userText(server.requests()[0]);
    QVERIFY(user.find("届出はいつまでに必要ですか。") != std::string::npos);
    QVERIFY(user.find("30日以内に届け出なければなりません。") != std::string::npos);
    QVERIFY(user.find("甲法 第3条") == std::string::npos);
    // explain() gives the same value and the call.
    const reward::Explanation x = coverage->explain(e, wrong);
    QCOMPARE(x.value, 0.0);
    QCOMPARE(x.reason, reward::Reason::JudgeVerdict);
    QCOMPARE(x.decisions.size(), size_t(1));
}

// A judge on a server that refuses max_tokens (OpenAI's reasoning models): the client asks
// again with max_completion_tokens, and the judge log keeps the request as it was sent,
// not with the max_tokens the server refused.
void TestJudgeRewards::requestLoggedAsSent()
{
    ScriptedServer server(
        [](int n, const SeenRequest &r, httplib::Response &res) {
            if (r.body.contains("max_tokens")) {
                res.status = 400;
                res.set_content(R"({"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with )"
                                R"(this model. Use 'max_completion_tokens' instead.", "param": "max_tokens"}})",
                                "application/json");
                return;
            }
            judgeScript(n, r, res);
        },
        false, kPath);
    const auto coverage = make("coverage", client(server));
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion right(e, output("30日以内に届出が必要です。"));
    std::vector<double> v;
    reward::ScoreLog log;
    coverage->scoreBatch({&e}, {&right}, v, &log);
    QCOMPARE(v, std::vector<double>{1.0});
    QCOMPARE(server.requests().size(), size_t(2));
    const std::vector<reward::JudgeDecision> d = log.take();
    QCOMPARE(d.size(), size_t(1));
    const json sent = json::parse(d[0].request);
    QVERIFY2(sent.contains("max_completion_tokens") && !sent.contains("max_tokens"), d[0].request.c_str());
    QCOMPARE(sent["max_completion_tokens"], server.requests()[1].body["max_completion_tokens"]);
}

void TestJudgeRewards::rubricExplicit()
{
    ScriptedServer server(judgeScript, false, kPath);
    const auto c = client(server);
    const task::LegalQaExample e(question());
    // Rubric: E5 "30日以内", I3 "届出", P−2 "14日以内"; Σw⁺ = 8.
    //   right ("30日以内に届出"):       (5 + 3) / 8 = 1
    //   wrong ("14日以内に届出"):       (3 − 2) / 8 = 0.125
    //   bare  ("30日以内です"):          5 / 8 = 0.625
    //   worse ("14日以内です"):          −2 / 8 → clamped to 0
    const task::LegalQaCompletion right(e, output("30日以内に届出が必要です。"));
    const task::LegalQaCompletion wrong(e, output("14日以内に届出が必要です。"));
    const task::LegalQaCompletion bare(e, output("30日以内です。"));
    const task::LegalQaCompletion worse(e, output("14日以内です。"));
    const std::vector<double> expected{1.0, 0.125, 0.625, 0.0};
    for (const char *options : {"", R"({"mode": "all_items"})"}) {
        const auto r = make("rubric_explicit", c, options);
        std::vector<double> out;
        reward::ScoreLog log;
        r->scoreBatch({&e, &e, &e, &e}, {&right, &wrong, &bare, &worse}, out, &log);
        for (size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(std::abs(out[i] - expected[i]) < kTol, qPrintable(QString("%1 %2: %3").arg(options).arg(i).arg(out[i])));
        const std::vector<reward::JudgeDecision> d = log.take();
        if (std::string(options).empty()) {
            QCOMPARE(d.size(), size_t(12)); // one call per item
            QCOMPARE(d[2].part, std::string("items[2]"));
            const json v = json::parse(d[1].verdict);
            QCOMPARE(v["weight"].get<double>(), 3.0);
            QCOMPARE(v["category"].get<std::string>(), std::string("important"));
            QVERIFY(std::abs(v["contribution"].get<double>() - 3.0 / 8.0) < kTol);
        } else {
            QCOMPARE(d.size(), size_t(4)); // one call per answer
            const json v = json::parse(d[1].verdict);
            QCOMPARE(v["items"].size(), size_t(3));
            QVERIFY(std::abs(v["items"][2]["contribution"].get<double>() + 2.0 / 8.0) < kTol);
            QVERIFY(std::abs(v["score"].get<double>() - 0.125) < kTol);
        }
    }
    // A shared rubric file serves examples without their own rubric.
    QTemporaryDir dir;
    const QString file = dir.filePath("rubric.json");
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"rubrics": [{"criterion": "States that the deadline is 30日以内.", "points": 4, "tags": []},
                               {"criterion": "States that the deadline is 14日以内.", "points": -4, "tags": []}]})");
    }
    const task::LegalQaExample plain(question(/*withRubric=*/false));
    const task::LegalQaCompletion plainWrong(plain, output("14日以内に届出が必要です。"));
    const auto shared = reward::makeJudgeReward(
        "rubric_explicit", c,
        reward::parseJudgeRewardOptions("rubric_explicit", R"({"rubric_file": "rubric.json"})", dir.path().toStdString()));
    const task::LegalQaCompletion plainRight(plain, output("30日以内です。"));
    QCOMPARE(shared->score(plain, plainRight), 1.0); // 4 / 4
    QCOMPARE(shared->score(plain, plainWrong), 0.0); // −4 / 4 → 0
    // Without either: a clear error naming the example.
    try {
        make("rubric_explicit", c)->score(plain, plainRight);
        QFAIL("no rubric was accepted");
    } catch (const std::invalid_argument &ex) {
        QVERIFY2(QString(ex.what()).contains("example q1 has no rubric"), ex.what());
    }
}

void TestJudgeRewards::rubricOverride()
{
    // The question's rubric is E5 "30日以内", I3 "届出", P−2 "14日以内". The same examples
    // seen through a RubricOverrideExample with the Essential item at 4 and the Important
    // at 4 (Σw⁺ = 8) score by the edited rubric:
    //   right ("30日以内に届出"): (4 + 4) / 8 = 1
    //   wrong ("14日以内に届出"): (4 − 2) / 8 = 0.25
    //   bare  ("30日以内です"):   4 / 8 = 0.5
    //   worse ("14日以内です"):  −2 / 8 → 0
    // Per item, a request shows the item's weight and criterion: the two edited items are
    // new requests, the pitfall's are the same ones and come from the client's memory.
    ScriptedServer server(judgeScript, false, kPath);
    const auto c = client(server);
    const auto e = std::make_shared<const task::LegalQaExample>(question());
    const task::LegalQaCompletion right(*e, output("30日以内に届出が必要です。"));
    const task::LegalQaCompletion wrong(*e, output("14日以内に届出が必要です。"));
    const task::LegalQaCompletion bare(*e, output("30日以内です。"));
    const task::LegalQaCompletion worse(*e, output("14日以内です。"));
    const auto r = make("rubric_explicit", c);
    std::vector<double> out;
    r->scoreBatch({e.get(), e.get(), e.get(), e.get()}, {&right, &wrong, &bare, &worse}, out);
    QCOMPARE(server.requests().size(), size_t(12));

    auto edited = std::make_shared<judge::Rubric>(*e->judgeRubric());
    edited->items[0].weight = 4;
    edited->items[1].weight = 4;
    const task::RubricOverrideExample o(e, edited);
    QCOMPARE(o.id(), std::string("q1"));
    QCOMPARE(o.judgeReference(), e->judgeReference());
    QCOMPARE(o.judgeRubric()->items[1].weight, 4.0);
    QCOMPARE(e->judgeRubric()->items[1].weight, 3.0); // the original is untouched
    reward::ScoreLog log;
    r->scoreBatch({&o, &o, &o, &o}, {&right, &wrong, &bare, &worse}, out, &log);
    const std::vector<double> expected{1.0, 0.25, 0.5, 0.0};
    for (size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(std::abs(out[i] - expected[i]) < kTol, qPrintable(QString("%1: %2").arg(i).arg(out[i])));
    QCOMPARE(server.requests().size(), size_t(12 + 8));
    const std::vector<reward::JudgeDecision> d = log.take();
    QCOMPARE(d.size(), size_t(12));
    for (size_t k = 0; k < d.size(); ++k)
        QCOMPARE(d[k].cacheHit, d[k].part == "items[2]");
    // A weight of the override shows in the verdict's contribution: 4 / 8.
    QVERIFY(std::abs(json::parse(d[0].verdict)["contribution"].get<double>() - 0.5) < kTol);

    // The task's own rewards refuse it; a null rubric or a task without judges is refused.
    QVERIFY_THROWS_EXCEPTION(std::logic_error, task::Catalog::builtin().rewards().create("citation_f1")->score(o, right));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, task::RubricOverrideExample(e, nullptr));
}

void TestJudgeRewards::rubricImplicitAndLikert()
{
    ScriptedServer server(judgeScript, false, kPath);
    const auto c = client(server);
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion right(e, output("30日以内です。"));
    const task::LegalQaCompletion wrong(e, output("14日以内です。"));
    // Ratings 9 and 2: (9 − 1) / 9 = 8/9, (2 − 1) / 9 = 1/9.
    for (const char *name : {"rubric_implicit", "likert_simple", "likert_reference"}) {
        const auto r = make(name, c);
        QVERIFY2(std::abs(r->score(e, right) - 8.0 / 9.0) < kTol, name);
        QVERIFY2(std::abs(r->score(e, wrong) - 1.0 / 9.0) < kTol, name);
    }
    // What each one shows the judge: the rubric, the reference, or neither.
    const std::vector<SeenRequest> seen = server.requests();
    QCOMPARE(seen.size(), size_t(6));
    QVERIFY(userText(seen[0]).find("30日以内.") != std::string::npos);                       // implicit: the rubric
    QVERIFY(userText(seen[2]).find("30日以内に届け出なければなりません。") == std::string::npos); // simple: no reference
    QVERIFY(userText(seen[4]).find("30日以内に届け出なければなりません。") != std::string::npos); // reference
}

void TestJudgeRewards::geval()
{
    // The reply writes 7, but the score token's top logprobs say 7 (0.6), 8 (0.3),
    // "x" (0.05, not a score), 9 (0.005, below 0.01): G-Eval 7.333…, (7.333… − 1) / 9.
    const json logprobs = {
        {"content",
         json::array({{{"token", "{\"rating\": "}, {"logprob", 0.0}, {"top_logprobs", json::array()}},
                      {{"token", "7"},
                       {"logprob", std::log(0.6)},
                       {"top_logprobs", json::array({{{"token", "7"}, {"logprob", std::log(0.6)}},
                                                     {{"token", "8"}, {"logprob", std::log(0.3)}},
                                                     {{"token", "x"}, {"logprob", std::log(0.05)}},
                                                     {{"token", "9"}, {"logprob", std::log(0.005)}}})}},
                      {{"token", "}"}, {"logprob", 0.0}, {"top_logprobs", json::array()}}})}};
    ScriptedServer server([&](int, const SeenRequest &, httplib::Response &res) {
        res.set_content(completion("{\"rating\": 7}", logprobs), "application/json");
    }, false, kPath);
    const auto c = client(server);
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion a(e, output("30日以内です。"));
    const double g = (7 * 0.6 + 8 * 0.3) / 0.9;
    QVERIFY(std::abs(make("likert_simple", c, R"({"geval": true})")->score(e, a) - (g - 1) / 9) < 1e-9);
    const SeenRequest asked = server.requests().front();
    QVERIFY(asked.body.value("logprobs", false));
    QVERIFY(asked.body.value("top_logprobs", 0) >= 5);
    // Without geval the rating written counts: (7 − 1) / 9.
    QVERIFY(std::abs(make("likert_simple", c)->score(e, a) - 6.0 / 9.0) < kTol);
}

void TestJudgeRewards::failuresAreNone()
{
    ScriptedServer server(judgeScript, false, kPath);
    const auto c = client(server, /*retries=*/1);
    const auto coverage = make("coverage", c);
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion ok(e, output("30日以内です。"));
    const task::LegalQaCompletion failing(e, output("FAIL"));
    const task::LegalQaCompletion garbled(e, output("GARBLE"));
    std::vector<double> out;
    reward::ScoreLog log;
    coverage->scoreBatch({&e, &e, &e}, {&ok, &failing, &garbled}, out, &log);
    QCOMPARE(out[0], 1.0);
    QVERIFY(reward::isNone(out[1]));
    QVERIFY(reward::isNone(out[2]));
    const std::vector<reward::JudgeDecision> d = log.take();
    QCOMPARE(d.size(), size_t(3));
    QCOMPARE(d[1].attempts, 2); // 500, retried once, given up
    QVERIFY2(d[1].error.find("HTTP 500") != std::string::npos, d[1].error.c_str());
    QVERIFY(d[1].reply.empty());
    QCOMPARE(d[2].attempts, 1); // answered, but no JSON in it: not retried, a parse failure
    QCOMPARE(d[2].reply, std::string("I think it is fine."));
    QVERIFY2(d[2].error.find("could not be read") != std::string::npos, d[2].error.c_str());
    QVERIFY(reward::isNone(d[2].value));
    // consistency asks what coverage just asked: the failure is not sent again.
    const size_t before = server.requests().size();
    std::vector<double> con;
    make("consistency", c)->scoreBatch({&e}, {&failing}, con, nullptr);
    QVERIFY(reward::isNone(con[0]));
    QCOMPARE(server.requests().size(), before);
    const reward::Explanation x = coverage->explain(e, failing);
    QCOMPARE(x.reason, reward::Reason::JudgeFailed);
    QVERIFY(x.detail.find("HTTP 500") != std::string::npos);
}

void TestJudgeRewards::compositeAndConfig()
{
    ScriptedServer server(judgeScript, false, kPath);
    QTemporaryDir dir;
    const std::string cfg = R"({"task": "legal_qa", "components": [
        {"reward": "citation_f1", "weight": 1},
        {"reward": "coverage", "weight": 1},
        {"reward": "consistency", "weight": 1},
        {"reward": "rubric_explicit", "weight": 0, "options": {"mode": "all_items"}}],
      "judge": {"url": ")" + server.url() + R"(", "model": "scripted", "retries": 0,
                "cache": "judge_cache.sqlite", "price": {"prompt_per_million": 1}}})";
    reward::RewardConfig rc = reward::parseRewardConfig(cfg, "cfg.json", task::Catalog::builtin().rewards());
    rc.baseDir = dir.path().toStdString();
    QCOMPARE(rc.components[3].options, std::string(R"({"mode":"all_items"})"));
    // Stored with absolute paths; read back the same.
    const reward::RewardConfig stored = reward::withAbsolutePaths(rc);
    QVERIFY(json::parse(stored.judge)["cache"].get<std::string>() == dir.filePath("judge_cache.sqlite").toStdString());
    const reward::RewardConfig back = reward::parseRewardConfig(reward::toJson(stored), "back", task::Catalog::builtin().rewards());
    QCOMPARE(back.judge, stored.judge);
    QCOMPARE(back.components[3].options, rc.components[3].options);

    const reward::CompositeReward composite(rc, "cfg.json", task::Catalog::builtin().rewards());
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion right(e, output("30日以内です。"));
    const task::LegalQaCompletion failing(e, output("FAIL"));
    std::vector<std::vector<double>> components;
    reward::ScoreLog log;
    const std::vector<double> totals = composite.scoreBatch({&e, &e}, {&right, &failing}, components, &log);
    // right: citation 1, coverage 1, consistency 1; rubric weighs 0 → (1 + 1 + 1) / 3 = 1.
    QVERIFY(std::abs(totals[0] - 1.0) < kTol);
    // failing: coverage and consistency None → the total is None.
    QVERIFY(reward::isNone(totals[1]));
    QVERIFY(reward::isNone(components[1][1]));
    QCOMPARE(components[1][0], 1.0); // the citation is still scored
    QVERIFY(QFile::exists(dir.filePath("judge_cache.sqlite")));
    QVERIFY(log.take().size() >= 4);
    // A config naming a judge reward without a judge.
    const std::string noJudge = R"({"task": "legal_qa", "components": [{"reward": "coverage", "weight": 1}]})";
    try {
        reward::CompositeReward r(reward::parseRewardConfig(noJudge, "nj.json", task::Catalog::builtin().rewards()), "nj.json", task::Catalog::builtin().rewards());
        QFAIL("a judge reward without a judge was built");
    } catch (const data::InputException &ex) {
        QVERIFY2(QString(ex.what()).contains("nj.json") && QString(ex.what()).contains("judge: missing"), ex.what());
    }
}

void TestJudgeRewards::badOptions()
{
    const auto configError = [](const std::string &judgeJson, const std::string &options = "") {
        const std::string cfg = R"({"task": "legal_qa", "components": [{"reward": "rubric_explicit", "weight": 1)" +
                                (options.empty() ? "" : ", \"options\": " + options) + "}], \"judge\": " + judgeJson +
                                "}";
        try {
            reward::CompositeReward r(reward::parseRewardConfig(cfg, "bad.json", task::Catalog::builtin().rewards()), "bad.json", task::Catalog::builtin().rewards());
        } catch (const std::exception &e) {
            return QString(e.what());
        }
        return QString("(no exception)");
    };
    const QString url = R"("url": "http://127.0.0.1:9/v1")";
    QVERIFY2(configError("{}").contains("judge.url: missing"), qPrintable(configError("{}")));
    QVERIFY(configError(R"({"backend": "grpc"})").contains("judge.backend"));
    QVERIFY(configError("{" + url.toStdString() + R"(, "timeout": -1})").contains("judge.timeout"));
    QVERIFY(configError("{" + url.toStdString() + R"(, "temprature": 0})").contains("judge.temprature: unknown key"));
    QVERIFY(configError("{" + url.toStdString() + R"(, "response_format": "xml"})").contains("judge.response_format"));
    QVERIFY(configError("{" + url.toStdString() + R"(, "top_logprobs": 30})").contains("judge.top_logprobs"));
    QVERIFY(configError("{" + url.toStdString() + R"(, "price": {"per_token": 1}})").contains("judge.price.per_token"));
    QVERIFY2(configError("{" + url.toStdString() + "}", R"({"mode": "every"})").contains("components[0]: options.mode"),
             qPrintable(configError("{" + url.toStdString() + "}", R"({"mode": "every"})")));
    QVERIFY(configError("{" + url.toStdString() + "}", R"({"mode": "all_items", "verdicts": "continuous"})")
                .contains("continuous"));
    QVERIFY(configError("{" + url.toStdString() + "}", R"({"rubric_file": "/nonexistent/r.json"})")
                .contains("/nonexistent/r.json"));
    QVERIFY(configError("{" + url.toStdString() + "}", R"({"temperature": 1})").contains("not an option of rubric_explicit"));
    QVERIFY(configError("{" + url.toStdString() + "}", R"({"geval": true})").contains("continuous"));
    // checkExample: an example a component could never score is found before scoring.
    {
        const std::string cfg = R"({"task": "legal_qa", "components": [{"reward": "rubric_explicit", "weight": 1}],
                                   "judge": {"url": "http://127.0.0.1:9/v1"}})";
        const reward::CompositeReward r(reward::parseRewardConfig(cfg, "c.json", task::Catalog::builtin().rewards()), "c.json", task::Catalog::builtin().rewards());
        const task::LegalQaExample withRubric(question(true)), without(question(false));
        r.checkExamples({&withRubric}, "c.json on d.jsonl");
        try {
            r.checkExamples({&withRubric, &without}, "c.json on d.jsonl");
            QFAIL("an example without a rubric passed");
        } catch (const data::InputException &e) {
            QVERIFY2(QString(e.what()).contains("c.json on d.jsonl: components[0] (rubric_explicit): example q1 has no rubric"),
                     e.what());
        }
    }
    // The cache path must be a file SQLite can open.
    QVERIFY(configError("{" + url.toStdString() + R"(, "cache": "/nonexistent/dir/c.sqlite"})").contains("c.sqlite"));
}

// The demo's rubric task: the bundled legal samples with rubrics made from their facts
// (rubricFromFacts), judged item by item by an oracle that says "met" exactly when the
// item's quoted value (「…」) occurs in the answer as written. Explicit aggregation must
// then give, for every sample,
//   max(0, (Σ_facts w·present − 2·(pitfall values present)) / Σ_facts w),
// and where the reference grader's fact verdicts ("stated", after its normalization) are
// used for "present", the same value except where the answer writes a value in another
// form: exactly two samples, q25-c4 (3ヶ月以内 for 3か月以内) and q39-c1 (1000万円 for
// 1,000万円) — which the oracle, like a literal judge, misses and the grader does not.
void TestJudgeRewards::explicitAgainstReferenceGrader()
{
    ScriptedServer oracle([](int, const SeenRequest &req, httplib::Response &res) {
        const std::string user = userText(req);
        const auto sectionOf = [&](const std::string &tag) {
            const size_t open = user.find("<" + tag + ">\n"), close = user.find("\n</" + tag + ">");
            return user.substr(open + tag.size() + 3, close - open - tag.size() - 3);
        };
        const std::string item = sectionOf("rubric_item"), response = sectionOf("response");
        const size_t a = item.find("「"), b = item.find("」");
        const std::string value = item.substr(a + 3, b - a - 3);
        const bool met = response.find(value) != std::string::npos;
        res.set_content(completion(json{{"explanation", "oracle"}, {"criteria_met", met}}.dump()), "application/json");
    }, false, kPath);
    const auto c = client(oracle);
    const auto r = make("rubric_explicit", c);
    const data::LegalQuestionReadResult read =
        data::readLegalQuestions(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl");
    QCOMPARE(read.questions.size(), size_t(188));
    int rightFull = 0, rightTotal = 0, exact = 0, contradictionsBelowOne = 0, contradictions = 0;
    std::vector<std::string> differ;
    // Scored in one batch (the judge client runs the ~750 item calls 4 at a time).
    std::vector<std::unique_ptr<task::LegalQaExample>> examples;
    std::vector<std::unique_ptr<task::LegalQaCompletion>> completions;
    std::vector<const task::Example *> ex;
    std::vector<const task::Completion *> co;
    for (data::LegalQuestion q : read.questions) {
        q.rubric = judge::toRaR(judge::rubricFromFacts(q)).dump();
        examples.push_back(std::make_unique<task::LegalQaExample>(q));
        completions.push_back(std::make_unique<task::LegalQaCompletion>(*examples.back(), q.completion));
        ex.push_back(examples.back().get());
        co.push_back(completions.back().get());
    }
    std::vector<double> scores;
    r->scoreBatch(ex, co, scores, nullptr);
    for (size_t i = 0; i < examples.size(); ++i) {
        const data::LegalQuestion &q = examples[i]->question();
        const task::LegalQaExample &e = *examples[i];
        const task::LegalQaCompletion &comp = *completions[i];
        const double score = scores[i];
        // The grader's fact verdicts and the rubric's pitfalls.
        const judge::Rubric &rubric = *e.judgeRubric();
        const auto present = [&](const judge::RubricItem &item) {
            const size_t a = item.criterion.find("「"), b = item.criterion.find("」");
            return comp.answer().find(item.criterion.substr(a + 3, b - a - 3)) != std::string::npos;
        };
        double earned = 0, graderEarned = 0, total = 0;
        size_t k = 0;
        for (const eval::FactGrade &f : comp.grade().facts) {
            const judge::RubricItem &item = rubric.items[k++];
            total += item.weight;
            earned += present(item) ? item.weight : 0.0;
            graderEarned += f.stated ? item.weight : 0.0;
        }
        for (; k < rubric.items.size(); ++k)
            if (present(rubric.items[k])) {
                earned += rubric.items[k].weight;
                graderEarned += rubric.items[k].weight;
            }
        QVERIFY2(std::abs(score - std::max(0.0, earned / total)) < kTol, q.id.c_str());
        if (std::abs(score - std::max(0.0, graderEarned / total)) < kTol)
            ++exact;
        else
            differ.push_back(q.id);
        if (q.label == "right") {
            ++rightTotal;
            rightFull += std::abs(score - 1.0) < kTol ? 1 : 0;
        }
        if (comp.grade().consistency == 0.0) {
            ++contradictions;
            contradictionsBelowOne += score < 1.0 ? 1 : 0;
        }
    }
    QCOMPARE(exact, 186);
    QCOMPARE(differ, (std::vector<std::string>{"q25-c4", "q39-c1"}));
    QCOMPARE(rightFull, rightTotal - 1); // every right answer earns 1 but q39-c1 (q25-c4 is a duplicate citation)
    // A contradiction the deterministic pitfall names costs points; a wrong value that is
    // not the named pitfall does not (the rubric names one plausible wrong value per fact,
    // the grader knows every value of the slot).
    QCOMPARE(contradictions, 42);
    QCOMPARE(contradictionsBelowOne, 42);
}

// rwb judge data's examples: the answers made from a reference answer get the grader's
// labels (worked out by hand for this question below), and each target is a reply the
// coverage / consistency rewards read back to the same labels.
void TestJudgeRewards::judgeTrainingData()
{
    data::LegalQuestion q = question(false);
    q.referenceAnswer = "30日以内に、甲局長に届け出なければなりません。";
    q.facts = {{12, "deadline", "30日以内"}, {12, "authority", "甲局長"}};
    q.slotValues = {{"deadline", {"14日以内", "30日以内"}}, {"authority", {"乙局長", "甲局長"}}};
    const std::vector<std::string> others{"手数料は5,000円です。"};
    const std::vector<judge::JudgeExample> examples = judge::legalJudgeExamples(q, others, 1, 0);
    std::map<std::string, const judge::JudgeExample *> byKind;
    for (const judge::JudgeExample &e : examples)
        byKind[e.kind] = &e;
    QCOMPARE(byKind.size(), size_t(5)); // right, vague, wrong, wrong_vague, other
    // right: both facts stated, nothing else → full, no contradiction.
    QCOMPARE(byKind["right"]->coverage, 1.0);
    QVERIFY(!byKind["right"]->contradiction);
    // vague: one of the two facts replaced by a vague phrase → partial, no contradiction.
    QCOMPARE(byKind["vague"]->coverage, 0.5);
    QVERIFY(!byKind["vague"]->contradiction);
    // wrong: one value replaced by the slot's other value → the other fact still stated:
    // partial, and a contradiction.
    QCOMPARE(byKind["wrong"]->coverage, 0.5);
    QVERIFY(byKind["wrong"]->contradiction);
    // wrong_vague: one wrong, the other vague → none, contradiction.
    QCOMPARE(byKind["wrong_vague"]->coverage, 0.0);
    QVERIFY(byKind["wrong_vague"]->contradiction);
    // other: another question's answer, no value of these slots → none, no contradiction.
    QCOMPARE(byKind["other"]->coverage, 0.0);
    QVERIFY(!byKind["other"]->contradiction);
    for (const judge::JudgeExample &e : examples) {
        const judge::LegalVerdict v = judge::parseLegalReply(e.target);
        QCOMPARE(v.coverage, e.coverage);
        QCOMPARE(v.contradiction, e.contradiction);
        QVERIFY(!v.usedFallback);
        // The request is the one the rewards send for that answer.
        const auto sent = judge::legalCoverageMessages(q.question, q.referenceAnswer, e.answer);
        QCOMPARE(e.messages.size(), sent.size());
        QCOMPARE(e.messages[1].content, sent[1].content);
    }
    // Deterministic for (seed, index); another index draws again.
    QCOMPARE(judge::legalJudgeExamples(q, others, 1, 0)[2].answer, examples[2].answer);

    // terse, asked for: the two values alone, in the facts' order → full, no contradiction,
    // though it shares little of the reference's wording. Asking for it (and leaving
    // kinds out) changes none of the other answers.
    const std::vector<judge::JudgeExample> withTerse =
        judge::legalJudgeExamples(q, others, 1, 0, {"wrong", "terse", "right"});
    QCOMPARE(withTerse.size(), size_t(3));
    QCOMPARE(withTerse[0].kind, std::string("right")); // kLegalAnswerKinds' order, not the list's
    QCOMPARE(withTerse[1].kind, std::string("wrong"));
    QCOMPARE(withTerse[1].answer, byKind["wrong"]->answer);
    QCOMPARE(withTerse[2].kind, std::string("terse"));
    QCOMPARE(withTerse[2].answer, std::string("30日以内、甲局長。"));
    QCOMPARE(withTerse[2].coverage, 1.0);
    QVERIFY(!withTerse[2].contradiction);
    QCOMPARE(withTerse[2].id, q.id + "-terse");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::legalJudgeExamples(q, others, 1, 0, {"short"}));
}

// rwb judge eval's core: six labelled requests, a judge scripted to answer five of them
// with chosen grades and the sixth with no JSON. Worked by hand (rows: reference):
//   coverage over the 5 read: full → {full 1, partial 1}; partial → {partial 1}; none → {none 2}
//     full     P 1/1,  R 1/2, F1 2·1/(1+2) = 0.667
//     partial  P 1/2,  R 1/1, F1 2·1/(2+1) = 0.667
//     none     P 2/2,  R 2/2, F1 1;   agreement 4/5
//   contradiction: contradiction → {contradiction 1, consistent 1}; consistent → {consistent 3}
//     contradiction  P 1/1, R 1/2, F1 0.667;  consistent  P 3/4, R 3/3, F1 6/7 = 0.857
void TestJudgeRewards::agreementWithLabels()
{
    struct Case {
        const char *id, *kind;
        double coverage;
        bool contradiction;
        double judgedCoverage;
        bool judgedContradiction;
        int facts; // the reference answer's; A4's line has no "facts": its target's 3 points count
    };
    const std::vector<Case> cases{
        {"A1", "right", 1.0, false, 1.0, false, 2},  {"A2", "right", 1.0, false, 0.5, false, 2},
        {"A3", "wrong", 0.5, true, 0.5, true, 1},    {"A4", "wrong_vague", 0.0, true, 0.0, false, 3},
        {"A5", "other", 0.0, false, 0.0, false, 1},  {"A6", "vague", 0.5, false, 0.0, false, 1}};
    QTemporaryDir dir;
    const std::string path = dir.filePath("labelled.jsonl").toStdString();
    {
        std::ofstream out(path);
        for (const Case &c : cases) {
            json messages = json::array();
            for (const judge::ChatMessage &m : judge::legalCoverageMessages("届出の期限は。", "30日以内です。", c.id))
                messages.push_back({{"role", m.role}, {"content", m.content}});
            json line{{"id", c.id}, {"task", "chat"}, {"messages", messages}, {"completion", "{}"},
                      {"label", c.kind}, {"coverage", c.coverage}, {"contradiction", c.contradiction}};
            if (std::string(c.id) == "A4")
                line["completion"] = R"({"reference_points": ["a", "b", "c"]})";
            else
                line["facts"] = c.facts;
            out << line.dump() << "\n";
        }
    }
    ScriptedServer server([&](int, const SeenRequest &req, httplib::Response &res) {
        const std::string user = userText(req);
        for (const Case &c : cases)
            if (user.find(std::string("<student_answer>\n") + c.id + "\n") != std::string::npos) {
                const std::string reply = std::string(c.id) == "A6"
                                              ? "I cannot grade this."
                                              : judge::legalVerdictTarget(c.judgedCoverage, c.judgedContradiction, {},
                                                                          {"30日以内"});
                res.set_content(completion(reply), "application/json");
                return;
            }
        res.status = 400;
    }, false, kPath);
    const std::vector<judge::LabelledRequest> requests = judge::readLabelledRequests(path);
    QCOMPARE(requests.size(), size_t(6));
    QCOMPARE(requests[2].kind, std::string("wrong"));
    size_t progressed = 0;
    const judge::LegalAgreement a =
        judge::measureLegalAgreement(*client(server), requests, 4, [&](size_t done, size_t total) {
            QCOMPARE(total, size_t(6));
            progressed = done;
        });
    QCOMPARE(progressed, size_t(6));
    QCOMPARE(a.requests, size_t(6));
    QCOMPARE(a.failed, size_t(1));
    QVERIFY(!a.items[5].ok);
    QVERIFY2(a.items[5].error.find("could not be read") != std::string::npos, a.items[5].error.c_str());
    QCOMPARE(a.coverage.total(), 5);
    QCOMPARE(a.coverage.precision(2), 1.0);
    QCOMPARE(a.coverage.recall(2), 0.5);
    QVERIFY(std::abs(a.coverage.f1(2) - 2.0 / 3.0) < 1e-12);
    QCOMPARE(a.coverage.precision(1), 0.5);
    QCOMPARE(a.coverage.recall(1), 1.0);
    QCOMPARE(a.coverage.f1(0), 1.0);
    QCOMPARE(a.coverage.agreement(), 0.8);
    QCOMPARE(a.consistency.precision(0), 1.0);
    QCOMPARE(a.consistency.recall(0), 0.5);
    QCOMPARE(a.consistency.precision(1), 0.75);
    QVERIFY(std::abs(a.consistency.f1(1) - 6.0 / 7.0) < 1e-12);
    QCOMPARE(a.byKind.at("right").n, size_t(2));
    QCOMPARE(a.byKind.at("right").coverageAgrees, size_t(1));
    QCOMPARE(a.byKind.at("wrong_vague").consistencyAgrees, size_t(0));
    QCOMPARE(a.byKind.at("vague").coverageAgrees, size_t(0)); // failed: counted as a disagreement
    // By the reference's facts: 1 fact A3, A5 (both agree) and A6 (failed); 2 facts A1
    // (agrees) and A2 (coverage full → partial); 3 facts A4 (contradiction missed).
    QCOMPARE(a.byFacts.size(), size_t(3));
    QCOMPARE(a.byFacts.at(1).n, size_t(3));
    QCOMPARE(a.byFacts.at(1).coverageAgrees, size_t(2));
    QCOMPARE(a.byFacts.at(1).consistencyAgrees, size_t(2));
    QCOMPARE(a.byFacts.at(2).n, size_t(2));
    QCOMPARE(a.byFacts.at(2).coverageAgrees, size_t(1));
    QCOMPARE(a.byFacts.at(2).consistencyAgrees, size_t(2));
    QCOMPARE(a.byFacts.at(3).n, size_t(1));
    QCOMPARE(a.byFacts.at(3).coverageAgrees, size_t(1));
    QCOMPARE(a.byFacts.at(3).consistencyAgrees, size_t(0));
    QCOMPARE(a.items[3].facts, 3);

    // Bad labels are named with their file, line and field.
    {
        std::ofstream out(path, std::ios::app);
        out << R"({"id": "B1", "messages": [{"role": "user", "content": "x"}], "coverage": "high", "contradiction": false})"
            << "\n";
    }
    try {
        judge::readLabelledRequests(path);
        QFAIL("a bad coverage label was read");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().line, size_t(7));
        QVERIFY2(std::string(e.what()).find("field \"coverage\" must be a number within 0–1") != std::string::npos,
                 e.what());
    }
}

// A judge kind a program registers (reward/judgekind.h): it asks what likert_simple asks
// (so the scripted judge answers it, and the client's memory serves the second ask) and
// reads the rating upside down. Its value is 1 − likert_simple's; its options are its own.
void TestJudgeRewards::aProgramsOwnKind()
{
    class InvertedRating final : public reward::JudgeKind {
    public:
        std::string_view name() const override { return "inverted_rating"; }
        std::vector<std::string_view> options() const override { return {"geval"}; }
        void check(const task::JudgedExample &, const reward::JudgeRewardOptions &, const std::string &) const override {}
        std::vector<reward::JudgeAsk> asks(const task::JudgedExample &e, const task::Completion &c,
                                           const reward::JudgeRewardOptions &, const std::string &) const override
        {
            reward::JudgeAsk a;
            a.messages = judge::likertSimpleMessages(e.judgeQuestion(), c.answer());
            a.schema = judge::ratingSchema();
            return {a};
        }
        reward::ReadReply read(const reward::JudgeAsk &, const judge::ChatChoice &choice,
                               const reward::JudgeRewardOptions &o) const override
        {
            reward::ReadReply r = reward::readRatingReply(choice, o.geval);
            r.value = 1.0 - r.value;
            return r;
        }
    };
    reward::registerJudgeKind(std::make_shared<InvertedRating>());
    const std::vector<std::string> kinds = reward::judgeKindNames();
    for (const char *k : {"consistency", "coverage", "inverted_rating", "likert_reference", "likert_simple",
                          "rubric_explicit", "rubric_implicit"})
        QVERIFY2(std::find(kinds.begin(), kinds.end(), k) != kinds.end(), k);

    ScriptedServer server(judgeScript, false, kPath);
    const auto c = client(server);
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion right(e, output("30日以内に届出が必要です。"));
    const double likert = make("likert_simple", c)->score(e, right);
    const size_t asked = server.requests().size();
    reward::ScoreLog log;
    std::vector<double> out;
    make("inverted_rating", c)->scoreBatch({&e}, {&right}, out, &log);
    QVERIFY(std::abs(out.front() - (1.0 - likert)) < kTol);
    QCOMPARE(server.requests().size(), asked); // the same request: from the client's memory
    const std::vector<reward::JudgeDecision> d = log.take();
    QCOMPARE(d.size(), size_t(1));
    QCOMPARE(d[0].reward, std::string("inverted_rating"));
    QVERIFY(json::parse(d[0].verdict).contains("rating"));
    // Its options are the ones it names; an unknown kind lists the kinds there are.
    try {
        reward::parseJudgeRewardOptions("inverted_rating", R"({"mode": "all_items"})", "");
        QFAIL("an option the kind does not read was accepted");
    } catch (const std::invalid_argument &ex) {
        QCOMPARE(std::string(ex.what()), std::string("options.mode: not an option of inverted_rating"));
    }
    try {
        reward::makeJudgeReward("nope", c, {});
        QFAIL("an unknown kind was accepted");
    } catch (const std::invalid_argument &ex) {
        QVERIFY2(QString(ex.what()).contains("\"nope\" is not a judge reward") && QString(ex.what()).contains("inverted_rating"),
                 ex.what());
    }
}

QTEST_GUILESS_MAIN(TestJudgeRewards)
#include "tst_judgerewards.moc"
