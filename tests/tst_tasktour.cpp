// A task the engine and the workbench know nothing of — the echo task, defined in the tests
// (tests/echotask.h) — installed in the process's catalog, trained for two GRPO steps with a
// rule and an LLM judge (a scripted loopback server), then shown by every view of the
// workbench (the Reward Designer, the curves, the group advantages, the tokens, the
// rollouts, the failure explorer, the judge view) and run through the CLI's generic
// commands in-process. Every expected value comes from echotask.h's own definitions.
#include "commands.h"
#include "runsessions.h"
#include "curvepanel.h"
#include "failurecategorymodel.h"
#include "failureexplorer.h"
#include "groupadvantagemodel.h"
#include "groupadvantageview.h"
#include "judgedecisionmodel.h"
#include "judgedecisionview.h"
#include "rewarddesigner.h"
#include "rolloutbrowser.h"
#include "rolloutdetailview.h"
#include "rollouttablemodel.h"
#include "samplescoremodel.h"
#include "tokenview.h"

#include "engine/job.h"
#include "store/runstore.h"
#include "train/grpo.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include "curveqcp.h"

#include <iostream>
#include <sstream>

#include "echotask.h"
#include "testtime.h"
#include "loopbackserver.h"
#include "tinygrpo.h"

using namespace rwb;
using namespace rwbtest;

namespace {

// A CLI command run in-process: its exit code and what it printed.
struct CliRun {
    int code = -1;
    std::string out;
    std::string err;
};

CliRun runCli(int (*command)(const std::vector<std::string> &), const std::vector<std::string> &args)
{
    std::ostringstream out, err;
    std::streambuf *oldOut = std::cout.rdbuf(out.rdbuf());
    std::streambuf *oldErr = std::cerr.rdbuf(err.rdbuf());
    CliRun r;
    try {
        r.code = command(args);
    } catch (...) {
        r.code = -2;
    }
    std::cout.rdbuf(oldOut);
    std::cerr.rdbuf(oldErr);
    r.out = out.str();
    r.err = err.str();
    return r;
}

std::vector<nlohmann::json> jsonLines(const std::string &text)
{
    std::vector<nlohmann::json> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty())
            out.push_back(nlohmann::json::parse(line));
    return out;
}

const char *const kWords[] = {"きらめき", "ひまわり", "東和"};
const char *const kCompletions[] = {"きらめき", "ひま", "xyz"}; // the samples' completions

} // namespace

class TestTaskTour : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void designer();
    void curves();
    void groups();
    void tokens();
    void rollouts();
    void failures();
    void judgeView();
    void cliGenericCommands();

private:
    QTemporaryDir m_dir;
    QString m_store;
    qint64 m_run = 0;
    std::unique_ptr<rwbtest::ScriptedServer> m_judge;
};

void TestTaskTour::initTestCase()
{
    // The echo task joins the process's catalog, as a program's own task would: the views
    // and the CLI's commands look tasks up there.
    task::Catalog::install([](task::Catalog &c) { addEcho(c); });
    QVERIFY(task::Catalog::builtin().find("echo"));

    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_dir.path(), 40, 4, 5));
    QByteArray words;
    for (int i = 0; i < 3; ++i)
        words += QByteArray::fromStdString(nlohmann::json{{"id", "w" + std::to_string(i + 1)}, {"word", kWords[i]}}.dump()) + "\n";
    QVERIFY(writeFile(m_dir.path() + "/echo.jsonl", words));
    // Completions of the same words, for the Designer and the CLI.
    QByteArray samples;
    for (int i = 0; i < 3; ++i)
        samples += QByteArray::fromStdString(nlohmann::json{{"id", "s" + std::to_string(i + 1)},
                                                            {"task", "echo"},
                                                            {"word", kWords[i]},
                                                            {"completion", kCompletions[i]}}
                                                 .dump()) +
                   "\n";
    QVERIFY(writeFile(m_dir.path() + "/echo_samples.jsonl", samples));
    // The judge rates 10 an answer that holds the word, 3 one that does not.
    m_judge = std::make_unique<rwbtest::ScriptedServer>(
        [](int, const rwbtest::SeenRequest &req, httplib::Response &res) { answerEchoJudge(readEchoJudgeRequest(req), res); },
        false, "/v1/chat/completions");
    const nlohmann::json rewardConfig = {
        {"task", "echo"},
        {"components", {{{"reward", "echo_overlap"}, {"weight", 1}}, {{"reward", "echo_judge"}, {"weight", 1}}}},
        {"judge", {{"url", m_judge->url()}, {"retries", 0}}}};
    QVERIFY(writeFile(m_dir.path() + "/echo_reward.json", QByteArray::fromStdString(rewardConfig.dump())));

    train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "tour", 2, 4);
    c.trainData = (m_dir.path() + "/echo.jsonl").toStdString();
    c.evalData = c.trainData;
    c.evalEvery = 2;
    c.rewardConfig = (m_dir.path() + "/echo_reward.json").toStdString();
    engine::JobControl control;
    RecordingSink sink;
    const engine::JobOutcome out = train::runGrpo(c, task::Catalog::builtin(), control, sink);
    QVERIFY2(sink.errors.empty(), sink.errors.empty() ? "" : sink.errors[0].c_str());
    QCOMPARE(engine::toString(out.status), "finished");
    m_store = QString::fromStdString(c.store);
    m_run = out.runId;
}

// The Designer takes the echo task's samples: its rewards become the components and score
// each sample as echotask.h says.
void TestTaskTour::designer()
{
    RewardDesigner view;
    QString error;
    QVERIFY2(view.loadSamples(m_dir.path() + "/echo_samples.jsonl", &error), qPrintable(error));
    SampleScoreModel *model = view.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 3);
    const int overlap = model->componentNames().indexOf("echo_overlap");
    QVERIFY2(overlap >= 0, qPrintable(model->componentNames().join(", ")));
    QVERIFY(model->componentNames().contains("echo_judge"));
    for (int row = 0; row < 3; ++row)
        QCOMPARE(model->componentValue(row, overlap), echoOverlap(kCompletions[row], kWords[row]));
    QCOMPARE(model->componentValue(0, overlap), 1.0);
    QCOMPARE(model->componentValue(2, overlap), 0.0);
}

// The curves: the reward and the components of the echo run, and its headline metric
// ("exact", the task's) in the evaluation plot.
void TestTaskTour::curves()
{
    widgets::CurvePanel panel;
    QString error;
    QVERIFY2(rwbtest::showRun(panel, m_store, m_run, &error), qPrintable(error));
    QCustomPlot *reward = panel.plot(widgets::CurvePanel::RewardPlot);
    QVERIFY(reward->graphCount() > 0);
    bool twoSteps = false;
    for (int g = 0; g < reward->graphCount(); ++g)
        twoSteps = twoSteps || reward->graph(g)->dataCount() == 2;
    QVERIFY(twoSteps);
    QCustomPlot *components = panel.plot(widgets::CurvePanel::ComponentsPlot);
    QStringList names;
    for (int g = 0; g < components->graphCount(); ++g)
        names << components->graph(g)->name();
    QVERIFY2(names.join(" ").contains("echo_overlap") && names.join(" ").contains("echo_judge"), qPrintable(names.join(", ")));
    QCustomPlot *headline = panel.plot(widgets::CurvePanel::F1Plot);
    int points = 0;
    for (int g = 0; g < headline->graphCount(); ++g)
        points += headline->graph(g)->dataCount();
    QVERIFY2(points >= 2, "the task's headline metric (eval/exact) at steps 0 and 2");
}

// The groups: G = 4 rollouts of each of 2 prompts, advantages from the stored rewards.
void TestTaskTour::groups()
{
    widgets::GroupAdvantageView view;
    QString error;
    QVERIFY2(rwbtest::showRun(view, m_store, m_run, &error), qPrintable(error));
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(view.model()->groupSize(), 4);
    QCOMPARE(view.model()->rowCount(), 2);
}

// The tokens of a rollout: they decode to its completion.
void TestTaskTour::tokens()
{
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const auto rows = s.stepRollouts(m_run, 1);
    QVERIFY(!rows.empty());
    widgets::TokenView view;
    QString error;
    QVERIFY2(rwbtest::showRollout(view, m_store, rows[0].id, &error), qPrintable(error));
    QVERIFY(view.tokenCount() > 0);
}

// The rollouts: every rollout of the run, and one's detail explained by the echo task's
// rule (its detail text) with the generic presenter.
void TestTaskTour::rollouts()
{
    widgets::RolloutBrowser browser;
    QString error;
    QVERIFY2(rwbtest::showRun(browser, m_store, m_run, &error), qPrintable(error));
    QAbstractItemModelTester tester(browser.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(browser.model()->rowCount(), 16); // 2 steps × 2 prompts × G 4
    const qint64 id = browser.model()->index(0, 0).data(widgets::RolloutTableModel::RolloutIdRole).toLongLong();
    browser.selectRollout(id);
    QCOMPARE(browser.currentRolloutId(), id);
    const QString text = browser.detail()->plainText();
    QVERIFY2(text.contains("echo_overlap") && text.contains("bytes of the word in the answer"), qPrintable(text));
}

// The failures: the evaluations at steps 0 and 2, in the echo task's two categories.
void TestTaskTour::failures()
{
    widgets::FailureExplorer explorer;
    QString error;
    QVERIFY2(rwbtest::showRun(explorer, m_store, m_run, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointSteps(), (QList<qint64>{0, 2}));
    widgets::FailureCategoryModel *cats = explorer.categoryModel();
    QAbstractItemModelTester tester(cats, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(cats->categoryCount(), 2);
    QCOMPARE(cats->name(0), QString("echoed"));
    QCOMPARE(cats->name(1), QString("other"));
    // Each checkpoint's three predictions fall in one of the two.
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    int echoed = 0;
    for (const auto &p : s.evalPredictions(m_run, 0))
        echoed += EchoCompletion(p.prediction.prediction).answer() == p.prediction.gold ? 1 : 0;
    const int countA = cats->index(0, 1).data().toInt() + cats->index(1, 1).data().toInt();
    QCOMPARE(countA, 3);
    QCOMPARE(cats->index(0, 1).data().toInt(), echoed);
    QVERIFY(explorer.selectCategory(1) || explorer.selectCategory(0));
}

// The judge view: every call, one per rollout and per evaluated prediction.
void TestTaskTour::judgeView()
{
    widgets::JudgeDecisionView view;
    QString error;
    QVERIFY2(rwbtest::showRun(view, m_store, m_run, &error), qPrintable(error));
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    store::JudgeDecisionFilter evaluations;
    evaluations.evaluation = true;
    const size_t training = s.judgeDecisions(m_run, store::JudgeDecisionFilter{}).size();
    const size_t evaluated = s.judgeDecisions(m_run, evaluations).size();
    QCOMPARE(training, size_t(16)); // one Reference-Likert call per rollout
    QCOMPARE(evaluated, size_t(6)); // and per prediction, at steps 0 and 2
    const size_t stored = training + evaluated;
    // The model reads on a thread of its own.
    QTRY_COMPARE_WITH_TIMEOUT(static_cast<size_t>(view.model()->rowCount()), stored, rwbtest::scaledMs(20000));
    QTRY_VERIFY_WITH_TIMEOUT(view.currentDecisionId() > 0, rwbtest::scaledMs(20000));
}

// The CLI's generic commands, in-process, on the echo task: scoring completions with its
// reward config, its metric, its failure categories, the run in the results table.
void TestTaskTour::cliGenericCommands()
{
    const std::string samples = (m_dir.path() + "/echo_samples.jsonl").toStdString();
    // rwb eval score: the task's metric over the file.
    CliRun r = runCli(cli::evalCommand, {"score", "--task", "echo", "--input", samples});
    QVERIFY2(r.code == 0, r.err.c_str());
    nlohmann::json j = nlohmann::json::parse(r.out);
    QCOMPARE(j.value("exact", -1.0), 1.0 / 3.0); // きらめき only

    // rwb eval failures: its categories, per line.
    r = runCli(cli::evalCommand, {"failures", "--predictions", samples, "--examples"});
    QVERIFY2(r.code == 0, r.err.c_str());
    std::vector<nlohmann::json> lines = jsonLines(r.out);
    QCOMPARE(lines.size(), size_t(4));
    QCOMPARE(lines[0].value("task", std::string()), std::string("echo"));
    QCOMPARE(lines[0]["counts"].value("echoed", -1), 1);
    QCOMPARE(lines[0]["counts"].value("other", -1), 2);
    QCOMPARE(lines[1].value("category", std::string()), std::string("echoed"));

    // rwb reward score: the rule through a reward config of the echo task (the judge left out).
    const std::string config = (m_dir.path() + "/echo_rule.json").toStdString();
    QVERIFY(writeFile(QString::fromStdString(config), R"({"task": "echo", "components": [{"reward": "echo_overlap", "weight": 1}]})"));
    r = runCli(cli::rewardCommand, {"score", "--config", config, "--input", samples});
    QVERIFY2(r.code == 0, r.err.c_str());
    lines = jsonLines(r.out);
    QCOMPARE(lines.size(), size_t(3));
    for (size_t i = 0; i < 3; ++i)
        QVERIFY2(std::abs(lines[i].value("total", -1.0) - echoOverlap(kCompletions[i], kWords[i])) < 1e-12,
                 lines[i].dump().c_str());

    // rwb grpo table: the run with the task's summary metric.
    r = runCli(cli::grpoCommand, {"table", "--store", m_store.toStdString()});
    QVERIFY2(r.code == 0, r.err.c_str());
    // One table for the task, its column the task's metric.
    QVERIFY2(r.out.rfind("task echo:", 0) == 0, r.out.c_str());
    QVERIFY2(r.out.find("exact") != std::string::npos, r.out.c_str());

    // rwb store info: the run, of the echo task, with its rollouts.
    r = runCli(cli::storeCommand, {"info", "--store", m_store.toStdString()});
    QVERIFY2(r.code == 0, r.err.c_str());
    j = nlohmann::json::parse(r.out);
    QCOMPARE(j["runs"].size(), size_t(1));
    QCOMPARE(j["runs"][0].value("task", std::string()), std::string("echo"));
    QCOMPARE(j["runs"][0].value("rollouts", 0), 16);
}

QTEST_MAIN(TestTaskTour)
#include "tst_tasktour.moc"
