// The task interface (task/task.h): a task defined here, in the test — its records, prompt,
// parsing, gold, metric and reward are all this file's — trains for two GRPO steps, is
// fine-tuned with SFT and evaluated, through the same entry points as extraction and
// without the trainers knowing anything of it. What reaches the run store is checked
// against this file's own definitions. Also: the built-in catalog, and a reward given
// another task's data.
#include "data/jsonl.h"
#include "engine/job.h"
#include "tasks/extraction/companyrewards.h"
#include "reward/judgerewards.h"
#include "store/runstore.h"
#include "reward/rewardconfig.h"
#include "task/catalog.h"
#include "tasks/extraction/extractiontask.h"
#include "tokenizer/promptformat.h"
#include "train/evaluation.h"
#include "train/grpo.h"
#include "train/sft.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>

#include "echotask.h"
#include "loopbackserver.h"
#include "tinygrpo.h"

using namespace rwb;
using namespace rwbtest;


class TestTask : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void builtinCatalog();
    void catalogAddsATasksRewardsWholeOrNot();
    void rewardRefusesAnotherTasksData();
    void unknownTaskIsNamed();
    void aTaskOfTheTestTrainsWithGrpo();
    void aTaskOfTheTestFineTunesAndEvaluates();
    void aJudgedRunGoesOnThroughJudgeFailures();
    void chatTask();

private:
    QTemporaryDir m_dir;
};

void TestTask::initTestCase()
{
    // The tiny model and tokenizer of the GRPO tests (made by rwb from synthetic e-mails).
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_dir.path(), 40, 4, 5));
    QVERIFY(writeFile(m_dir.path() + "/echo.jsonl", "{\"id\": \"w1\", \"word\": \"きらめき\"}\n"
                                                    "{\"id\": \"w2\", \"word\": \"ひまわり\"}\n"
                                                    "{\"id\": \"w3\", \"word\": \"東和\"}\n"));
    QVERIFY(writeFile(m_dir.path() + "/echo_reward.json",
                      R"({"task": "echo", "components": [{"reward": "echo_overlap", "weight": 1}]})"));
}

// A task brings its rewards (Task::addRewards) when it is added; a reward name already
// taken refuses the whole task and leaves the catalog as it was. The first task added is
// the default one, for the catalog (find("")) and its registry's reward configs alike.
void TestTask::catalogAddsATasksRewardsWholeOrNot()
{
    class Bringing : public EchoTask {
    public:
        explicit Bringing(std::vector<std::string> names) : m_names(std::move(names)) {}
        void addRewards(reward::Registry &registry) const override
        {
            for (const std::string &n : m_names)
                registry.add({n, "echo", "a reward of the test",
                              [](const reward::RewardOptions &) { return std::make_unique<EchoOverlap>(); }});
        }

    private:
        std::vector<std::string> m_names;
    };
    task::Catalog c;
    QVERIFY(!c.find(""));
    c.addTask(std::make_shared<Bringing>(std::vector<std::string>{"echo_a", "echo_b"}));
    // The task's own rewards first, then the generic ones every task has (docs/rewards.md).
    const std::vector<std::string> names = c.rewards().names("echo");
    QVERIFY(names.size() > 2);
    QCOMPARE(std::vector<std::string>(names.begin(), names.begin() + 2), (std::vector<std::string>{"echo_a", "echo_b"}));
    QCOMPARE(names[2], std::string("exact_match"));
    QCOMPARE(std::string(c.find("")->name()), std::string("echo"));
    QCOMPARE(c.rewards().defaultTask(), std::string("echo"));
    QCOMPARE(reward::parseRewardConfig(R"({"components": [{"reward": "echo_a", "weight": 1}]})", "c.json", c.rewards()).task,
             std::string("echo"));

    task::Catalog builtin = task::Catalog::builtin();
    const size_t before = builtin.rewards().entries().size();
    class Clashing : public Bringing {
    public:
        Clashing() : Bringing({"echo_new", "partial"}) {}
        std::string_view name() const override { return "clash"; }
    };
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, builtin.addTask(std::make_shared<Clashing>()));
    QCOMPARE(builtin.rewards().entries().size(), before); // not even echo_new
    QVERIFY(!builtin.find("clash"));
    QCOMPARE(std::string(builtin.find("")->name()), std::string("company_extraction"));
    QCOMPARE(builtin.rewards().defaultTask(), std::string("company_extraction"));
}

void TestTask::builtinCatalog()
{
    const task::Catalog &c = task::Catalog::builtin();
    QCOMPARE(c.names(), (std::vector<std::string>{"company_extraction", "legal_qa", "chat", "multihop"}));
    const task::Task &t = c.get("company_extraction", "x", "task");
    // Extraction as a task: the prompt, target, parse and metrics of the first paper.
    const task::ExtractionExample e([] {
        data::ExtractionRecord r;
        r.id = "e1";
        r.senderEmail = "a@kirameki.co.jp";
        r.emailText = "株式会社きらめき商事の山田です。";
        r.gold = "株式会社きらめき商事";
        return r;
    }());
    const tokenizer::PromptFormat plain;
    QCOMPARE(t.prompt(e, plain, false), tokenizer::PromptFormat::paperPrompt(e.senderEmail(), e.emailText(), false));
    QCOMPARE(t.sftTarget(e, true), std::string("<thinking></thinking><answer>株式会社きらめき商事</answer>"));
    // A line's "reasoning" (rwb data synth --reasoning templated) goes inside <thinking>,
    // and only in thinking mode.
    const task::Record withReasoning = t.readLine(
        R"({"id": "e2", "sender_email": "a@kirameki.co.jp", "email_text": "株式会社きらめき商事の山田です。", "gold": "株式会社きらめき商事", "reasoning": "署名にある。"})",
        "x.jsonl", 1, false);
    QCOMPARE(t.sftTarget(*withReasoning.example, true),
             std::string("<thinking>署名にある。</thinking><answer>株式会社きらめき商事</answer>"));
    QCOMPARE(t.sftTarget(*withReasoning.example, false), std::string("株式会社きらめき商事"));
    const auto parsed = t.parse(e, "<thinking>x</thinking><answer> 株式会社きらめき商事 </answer>", true);
    QCOMPARE(parsed->answer(), std::string("株式会社きらめき商事"));
    auto m = t.metrics();
    QVERIFY(m->correct(e, *parsed));
    m->add(e, *parsed);
    m->add(e, *t.parse(e, "不明", false));
    // P = 1 / 1 (不明 is no output), R = 1 / 2 golds, F1 = 2/3.
    const auto r = m->result();
    QCOMPARE(r.size(), size_t(3));
    QCOMPARE(r[0].second, 1.0);
    QCOMPARE(r[1].second, 0.5);
    QVERIFY(std::abs(r[2].second - 2.0 / 3.0) < 1e-12);
    QVERIFY(QString::fromStdString(t.predictionLine(e, "きらめき")).contains(R"("completion":"きらめき")"));
}

void TestTask::rewardRefusesAnotherTasksData()
{
    const reward::PartialReward partial;
    const EchoExample e("w1", "きらめき");
    const EchoCompletion c("きらめき");
    const reward::Reward &generic = partial;
    QVERIFY_THROWS_EXCEPTION(std::logic_error, generic.score(e, c));
}

void TestTask::unknownTaskIsNamed()
{
    const task::Catalog catalog = echoCatalog();
    QCOMPARE(catalog.names(), (std::vector<std::string>{"company_extraction", "legal_qa", "chat", "multihop", "echo"}));
    try {
        catalog.get("legal", "cfg.json", "task");
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        QCOMPARE(QString::fromStdString(e.error().toString()),
                 QString("cfg.json: task: unknown task \"legal\" (allowed: company_extraction, legal_qa, chat, multihop, echo)"));
    }
}

void TestTask::aTaskOfTheTestTrainsWithGrpo()
{
    const task::Catalog catalog = echoCatalog();
    train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "echo", 2, 3);
    c.trainData = (m_dir.path() + "/echo.jsonl").toStdString();
    c.evalData = c.trainData;
    c.evalEvery = 1;
    c.rewardConfig = (m_dir.path() + "/echo_reward.json").toStdString();
    engine::JobControl control;
    RecordingSink sink;
    const engine::JobOutcome out = train::runGrpo(c, catalog, control, sink);
    QVERIFY2(sink.errors.empty(), sink.errors.empty() ? "" : sink.errors[0].c_str());
    QCOMPARE(engine::toString(out.status), "finished");
    QCOMPARE(out.lastStep, int64_t(2));
    QCOMPARE(sink.steps, 3); // the evaluation before training, then 2 steps

    // The built-in catalog does not know the task: the reward config names it, and fails.
    QVERIFY_THROWS_EXCEPTION(data::InputException, train::runGrpo(c, control, sink));

    const store::RunStore s(c.store, store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(s.run(out.runId).task, std::string("echo"));
    std::set<std::string> words{"きらめき", "ひまわり", "東和"};
    for (int step = 1; step <= 2; ++step) {
        const auto rows = s.stepRollouts(out.runId, step);
        QCOMPARE(rows.size(), size_t(8)); // 2 prompts × G 4
        double sum = 0.0;
        for (const auto &r : rows) {
            // This file's parse, gold, details and reward, as stored.
            QVERIFY(words.count(r.gold));
            QCOMPARE(r.prompt, "単語: " + r.gold + "\n答え: ");
            const EchoCompletion parsed(r.rollout.completion);
            QCOMPARE(r.rollout.answer, parsed.answer());
            QCOMPARE(r.rollout.detailsJson, parsed.detailsJson());
            const double expected = echoOverlap(parsed.answer(), r.gold);
            QVERIFY(std::abs(r.rollout.reward - expected) < 1e-12);
            const auto rewards = nlohmann::json::parse(r.rollout.rewardsJson);
            QCOMPARE(rewards.size(), size_t(1));
            QVERIFY(std::abs(rewards.at("echo_overlap").get<double>() - expected) < 1e-12);
            sum += expected;
        }
        double stored = std::nan("");
        for (const auto &m : s.metrics(out.runId, "reward"))
            if (m.step == step)
                stored = m.value;
        QVERIFY(std::abs(stored - sum / 8.0) < 1e-9);
    }
    // The task's metric, under eval/, and its predictions with its own "correct".
    for (int step : {0, 1, 2}) {
        bool found = false;
        for (const auto &m : s.metrics(out.runId, "eval/exact"))
            found = found || m.step == step;
        QVERIFY(found);
        const auto preds = s.evalPredictions(out.runId, step);
        QCOMPARE(preds.size(), size_t(3));
        for (const auto &p : preds) {
            const EchoCompletion parsed(p.prediction.prediction);
            QCOMPARE(p.prediction.correct, parsed.answer() == p.prediction.gold);
            QCOMPARE(p.prediction.detailsJson, parsed.detailsJson());
        }
    }
    QVERIFY(s.metrics(out.runId, "eval/f1").empty());
    int metaRows = 0;
    s.query("SELECT json_extract(meta_json, '$.echo_word') = gold FROM prompts", [&](auto &, auto &v) {
        metaRows += v[0].integer == 1 ? 1 : 0;
        return true;
    });
    QVERIFY(metaRows >= 1);
}

// GRPO with a judge that fails on about half the requests (HTTP 500 for answers of odd
// length, no retries): the run finishes; a failed call makes that rollout's reward None
// (NULL in the store) with advantage 0; the others are rated 10 when they contain the
// word and 3 otherwise, (r − 1) / 9; every call is stored with its rollout and counted.
void TestTask::aJudgedRunGoesOnThroughJudgeFailures()
{
    rwbtest::ScriptedServer judgeServer(
        [](int, const rwbtest::SeenRequest &req, httplib::Response &res) {
            const EchoJudgeRequest r = readEchoJudgeRequest(req);
            if (r.response.size() % 2 == 1) {
                res.status = 500;
                return;
            }
            answerEchoJudge(r, res);
        },
        false, "/v1/chat/completions");
    const nlohmann::json rewardConfig = {
        {"task", "echo"},
        {"components", {{{"reward", "echo_judge"}, {"weight", 1}}}},
        {"judge", {{"url", judgeServer.url()}, {"retries", 0}, {"breaker_threshold", 0}}}};
    QVERIFY(writeFile(m_dir.path() + "/judged_reward.json", QByteArray::fromStdString(rewardConfig.dump())));
    const task::Catalog catalog = echoCatalog();
    train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "judged", 2, 4);
    c.trainData = (m_dir.path() + "/echo.jsonl").toStdString();
    c.evalData = c.trainData;
    c.evalEvery = 2;
    c.rewardConfig = (m_dir.path() + "/judged_reward.json").toStdString();
    engine::JobControl control;
    RecordingSink sink;
    const engine::JobOutcome out = train::runGrpo(c, catalog, control, sink);
    QVERIFY2(sink.errors.empty(), sink.errors.empty() ? "" : sink.errors[0].c_str());
    QCOMPARE(engine::toString(out.status), "finished");

    const store::RunStore s(c.store, store::RunStore::OpenMode::ReadOnly);
    int none = 0, rated = 0;
    for (int step = 1; step <= 2; ++step) {
        const auto rows = s.stepRollouts(out.runId, step);
        QCOMPARE(rows.size(), size_t(8));
        double failures = 0, sum = 0;
        int given = 0;
        for (const auto &r : rows) {
            store::JudgeDecisionFilter f;
            f.rolloutId = r.id;
            const auto decisions = s.judgeDecisions(out.runId, f);
            QCOMPARE(decisions.size(), size_t(1)); // one Reference-Likert call per rollout
            const judge::Decision &d = decisions[0].decision;
            QCOMPARE(d.reward, std::string("echo_judge"));
            const EchoCompletion parsed(r.rollout.completion);
            const bool odd = parsed.answer().size() % 2 == 1;
            QCOMPARE(!d.error.empty(), odd);
            if (odd) {
                ++none;
                failures += 1;
                QVERIFY(std::isnan(r.rollout.reward));
                QCOMPARE(r.rollout.advantage, 0.0);
                QVERIFY(d.error.find("HTTP 500") != std::string::npos);
            } else {
                ++rated;
                ++given;
                const double expected = parsed.answer().find(r.gold) != std::string::npos ? 1.0 : 2.0 / 9.0;
                QVERIFY2(std::abs(r.rollout.reward - expected) < 1e-12, qPrintable(QString::number(r.rollout.reward)));
                sum += expected;
            }
        }
        const auto metric = [&](const std::string &name) {
            for (const auto &m : s.metrics(out.runId, name))
                if (m.step == step)
                    return m.value;
            return std::nan("");
        };
        QCOMPARE(metric("judge/failures"), failures);
        QCOMPARE(metric("judge/none_rewards"), failures);
        QCOMPARE(metric("judge/calls"), 8.0);
        if (given > 0)
            QVERIFY(std::abs(metric("reward") - sum / given) < 1e-9); // the mean of the rewards given
    }
    // The judge answered some and failed some: both paths ran.
    QVERIFY2(none > 0 && rated > 0, qPrintable(QString("%1 None, %2 rated").arg(none).arg(rated)));
    // The evaluations' calls are stored with their predictions.
    store::JudgeDecisionFilter eval;
    eval.evaluation = true;
    QCOMPARE(s.judgeDecisions(out.runId, eval).size(), size_t(6)); // 3 predictions at steps 0 and 2
}

void TestTask::aTaskOfTheTestFineTunesAndEvaluates()
{
    const task::Catalog catalog = echoCatalog();
    train::SftConfig sft;
    sft.model = (m_dir.path() + "/tiny").toStdString();
    sft.output = (m_dir.path() + "/echo_sft").toStdString();
    sft.trainData = (m_dir.path() + "/echo.jsonl").toStdString();
    sft.task = "echo";
    sft.batchSize = 3;
    sft.gradientAccumulation = 1;
    sft.threads = 1;
    const train::SftResult r = train::runSft(sft, catalog);
    QCOMPARE(r.examples, 3);
    QCOMPARE(r.steps, 1);
    QVERIFY(std::isfinite(r.finalLoss));

    train::EvaluationOptions o;
    o.model = (m_dir.path() + "/tiny").toStdString();
    o.adapter = sft.output;
    o.data = sft.trainData;
    o.task = "echo";
    o.maxNewTokens = 4;
    o.threads = 1;
    o.output = (m_dir.path() + "/echo_pred.jsonl").toStdString();
    const train::EvaluationResult e = train::runEvaluation(o, catalog);
    QCOMPARE(e.examples, size_t(3));
    QCOMPARE(e.metrics.size(), size_t(1));
    QCOMPARE(e.metrics[0].first, std::string("exact"));
    // The predictions file holds this task's lines, and its metric agrees with them.
    QFile f(QString::fromStdString(o.output));
    QVERIFY(f.open(QIODevice::ReadOnly));
    int lines = 0, right = 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        const QJsonObject j = QJsonDocument::fromJson(line).object();
        QVERIFY(j.contains("word") && j.contains("completion"));
        ++lines;
        right += EchoCompletion(j.value("completion").toString().toStdString()).answer() ==
                         j.value("word").toString().toStdString()
                     ? 1
                     : 0;
    }
    QCOMPARE(lines, 3);
    QCOMPARE(e.metrics[0].second, right / 3.0);
}

// The chat task (tasks/chat/chattask.h): lines in the OpenAI messages shape, the prompt the
// model's chat prompt, the reply the target; metrics worked by hand; bad lines named; a
// stored example rebuilt; SFT and evaluation run on it.
void TestTask::chatTask()
{
    const task::Task &t = task::Catalog::builtin().get("chat", "x", "task");
    const QString path = m_dir.path() + "/chat.jsonl";
    QVERIFY(writeFile(path,
                      R"({"id": "c1", "task": "chat", "messages": [{"role": "system", "content": "Grade."}, {"role": "user", "content": "A?"}], "completion": "{\"score\": 1, \"why\": \"ok\"}", "label": "right", "coverage": 1.0})" "\n"
                      R"({"id": 2, "messages": [{"role": "user", "content": "B?"}, {"role": "assistant", "content": "plain"}]})" "\n"));
    const std::vector<task::Record> records = t.read(path.toStdString(), {});
    QCOMPARE(records.size(), size_t(2));
    QCOMPARE(records[0].kind, std::string("right"));
    QVERIFY(records[1].hasCompletion); // the last assistant message
    QCOMPARE(records[1].completion, std::string("plain"));
    const task::Example &e1 = *records[0].example;
    const task::Example &e2 = *records[1].example;
    QCOMPARE(e2.id(), std::string("2"));
    const tokenizer::PromptFormat plain;
    QCOMPARE(t.prompt(e1, plain, false), plain.chatPrompt({{"system", "Grade."}, {"user", "A?"}}));
    QCOMPARE(t.prompt(e2, plain, false), plain.chatPrompt({{"user", "B?"}})); // the reply is not in the prompt
    QCOMPARE(t.sftTarget(e1, false), std::string(R"({"score": 1, "why": "ok"})"));

    // Metrics. e1's gold is a JSON object of 2 fields, e2's is text.
    //   e1 exact (spaces aside)            → exact, json, fields 2/2
    //   e1 {"score": 1, "why": "no"}       → json, fields 1/2
    //   e1 "score 1"                       → not JSON, fields 0
    //   e2 "plain "                        → exact (not counted in json_valid / field_match)
    // exact_match 2/4; json_valid 2/3; field_match (1 + 0.5 + 0) / 3 = 0.5.
    auto m = t.metrics();
    const auto exact = t.parse(e1, "  {\"score\": 1, \"why\": \"ok\"}\n", false);
    const auto half = t.parse(e1, R"({"why": "no", "score": 1})", false);
    const auto text = t.parse(e1, "score 1", false);
    const auto other = t.parse(e2, "plain ", false);
    for (const auto &[e, c] : std::vector<std::pair<const task::Example *, const task::Completion *>>{
             {&e1, exact.get()}, {&e1, half.get()}, {&e1, text.get()}, {&e2, other.get()}})
        m->add(*e, *c);
    const auto r = m->result();
    QCOMPARE(r[0], (std::pair<std::string, double>{"exact_match", 0.5}));
    QCOMPARE(r[1].first, std::string("json_valid"));
    QVERIFY(std::abs(r[1].second - 2.0 / 3.0) < 1e-12);
    QCOMPARE(r[2], (std::pair<std::string, double>{"field_match", 0.5}));
    QVERIFY(m->correct(e1, *exact));
    QVERIFY(!m->correct(e1, *half));
    const auto categories = t.failureCategories();
    QCOMPARE(categories[t.failureCategory(e1, *exact)].key, std::string("exact"));
    QCOMPARE(categories[t.failureCategory(e1, *half)].key, std::string("field_mismatch"));
    QCOMPARE(categories[t.failureCategory(e1, *text)].key, std::string("not_json"));
    QCOMPARE(categories[t.failureCategory(e2, *t.parse(e2, "other", false))].key, std::string("different"));

    // The prediction line keeps the line's other fields; the stored example comes back.
    const nlohmann::json line = nlohmann::json::parse(t.predictionLine(e1, "x"));
    QCOMPARE(line["completion"].get<std::string>(), std::string("x"));
    QCOMPARE(line["coverage"].get<double>(), 1.0);
    const auto back = t.exampleFromStore(e1.metaJson(), e1.goldText(), "store");
    QCOMPARE(t.prompt(*back, plain, false), t.prompt(e1, plain, false));
    QCOMPARE(back->goldText(), e1.goldText());
    QVERIFY(nlohmann::json::parse(e2.metaJson())["messages"].size() == 1);

    // Bad lines: named by file, line and field.
    const auto refused = [&](const char *text, const std::string &reason) {
        QVERIFY(writeFile(m_dir.path() + "/bad.jsonl", QByteArray(text) + "\n"));
        try {
            t.read((m_dir.path() + "/bad.jsonl").toStdString(), {});
            QFAIL(text);
        } catch (const data::InputException &e) {
            QVERIFY2(e.error().line == 1 && e.error().reason == reason, e.what());
        }
    };
    refused(R"({"id": "a", "messages": []})", "field \"messages\" is empty");
    refused(R"({"id": "a", "messages": [{"role": "bot", "content": "x"}]})",
            "field \"messages[0].role\" is \"bot\" (allowed: system, user, assistant)");
    refused(R"({"id": "a", "messages": [{"role": "user"}]})", "missing field \"content\"");
    refused(R"({"id": "a", "task": "legal_qa", "messages": [{"role": "user", "content": "x"}]})",
            "unknown task \"legal_qa\" (allowed: chat)");

    // SFT on the replies and evaluation with the task's metrics.
    train::SftConfig sft;
    sft.model = (m_dir.path() + "/tiny").toStdString();
    sft.output = (m_dir.path() + "/chat_sft").toStdString();
    sft.trainData = path.toStdString();
    sft.task = "chat";
    sft.batchSize = 2;
    sft.threads = 1;
    const train::SftResult s = train::runSft(sft, task::Catalog::builtin());
    QCOMPARE(s.examples, 2);
    QVERIFY(std::isfinite(s.finalLoss));
    train::EvaluationOptions o;
    o.model = (m_dir.path() + "/tiny").toStdString();
    o.adapter = sft.output;
    o.data = path.toStdString();
    o.task = "chat";
    o.maxNewTokens = 4;
    o.threads = 1;
    const train::EvaluationResult ev = train::runEvaluation(o, task::Catalog::builtin());
    QCOMPARE(ev.examples, size_t(2));
    QCOMPARE(ev.metrics.size(), size_t(3));
    QCOMPARE(ev.metrics[2].first, std::string("field_match"));
}

QTEST_APPLESS_MAIN(TestTask)
#include "tst_task.moc"
