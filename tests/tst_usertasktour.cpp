// A user's own task, no C++: records in TRL's shape, a JSON task description (a file with
// // comments), a TRL reward function in a Python file and two generic components —
// trained for two GRPO steps, then shown by every view of the workbench: the Reward
// Designer (which switches to the task when its config is opened, then scores the user's
// samples with the Python function), the curves (the components, the function's own
// metric, each component's time, the task's headline metric), the groups, the tokens, the
// rollouts (the function's extra values in the details), the failure explorer (the
// description's categories). Expected values come from the Python function below.
#include "runsessions.h"
#include "curvepanel.h"
#include "failurecategorymodel.h"
#include "failureexplorer.h"
#include "groupadvantagemodel.h"
#include "groupadvantageview.h"
#include "rewarddesigner.h"
#include "rolloutbrowser.h"
#include "rolloutdetailview.h"
#include "rollouttablemodel.h"
#include "samplescoremodel.h"
#include "tokenview.h"

#include "engine/job.h"
#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "tasks/user/usertask.h"
#include "train/grpo.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include "curveqcp.h"

#include "tinygrpo.h"

using namespace rwb;
using namespace rwbtest;

namespace {

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// What the run reports: its errors. After its first step it changes the reward's
// weights, as the workbench does while a run trains.
class RecordingSink : public engine::EventSink {
public:
    explicit RecordingSink(engine::JobControl &control) : m_control(control) {}
    std::vector<std::string> errors;
    void error(const std::string &m) override { errors.push_back(m); }
    void step(const engine::StepReport &report) override
    {
        if (report.step == 1)
            m_control.setRewardWeights({1.0, 1.0, 2.0});
    }

private:
    engine::JobControl &m_control;
};

const char *const kWords[] = {"きらめき", "ひまわり", "東和"};
const char *const kCompletions[] = {"きらめき", "ひま", "xyz"}; // the samples' completions

// The user's reward function, as TRL takes it: 1 when the reply holds the solution, else
// the share of the solution's characters it holds; its length per item as an extra value,
// and the share of exact hits as a metric.
const char *const kRewards = R"(
def echo_reward(completions, solution, log_extra=None, log_metric=None, **kwargs):
    rewards = []
    for completion, want in zip(completions, solution):
        if want in completion:
            rewards.append(1.0)
        else:
            rewards.append(sum(1 for ch in want if ch in completion) / len(want))
    if log_extra is not None:
        log_extra("reply_chars", [len(c) for c in completions])
    if log_metric is not None:
        log_metric("hits", sum(1 for r in rewards if r == 1.0) / len(rewards))
    return rewards


def echoed(completions, solution, **kwargs):
    # A failure check of the user's: 1 when the reply holds the word.
    return [1.0 if want in completion else 0.0 for completion, want in zip(completions, solution)]
)";

double expected(const std::string &completion, const std::string &want)
{
    if (completion.find(want) != std::string::npos)
        return 1.0;
    // Python counts characters (code points): each of these words' is 3 bytes.
    const QString w = QString::fromStdString(want), c = QString::fromStdString(completion);
    int in = 0;
    for (const QChar ch : w)
        in += c.contains(ch) ? 1 : 0;
    return static_cast<double>(in) / static_cast<double>(w.size());
}

} // namespace

class TestUserTaskTour : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void designer();
    void curves();
    void groups();
    void tokens();
    void rollouts();
    void failures();
    void weightsChangedWhileTraining();
    void storedRunKeepsTheTask();

private:
    QTemporaryDir m_dir;
    QString m_store;
    qint64 m_run = 0;
};

void TestUserTaskTour::initTestCase()
{
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_dir.path(), 40, 4, 5));
    QByteArray records;
    for (int i = 0; i < 3; ++i)
        records += QByteArray::fromStdString(
                       nlohmann::json{{"prompt", std::string("Repeat the word: ") + kWords[i]}, {"solution", kWords[i]}}
                           .dump()) +
                   "\n";
    QVERIFY(writeFile(m_dir.path() + "/words.jsonl", records));
    QByteArray samples;
    for (int i = 0; i < 3; ++i)
        samples += QByteArray::fromStdString(nlohmann::json{{"id", "s" + std::to_string(i + 1)},
                                                            {"prompt", std::string("Repeat the word: ") + kWords[i]},
                                                            {"solution", kWords[i]},
                                                            {"completion", kCompletions[i]}}
                                                 .dump()) +
                   "\n";
    QVERIFY(writeFile(m_dir.path() + "/samples.jsonl", samples));
    QVERIFY(writeFile(m_dir.path() + "/rewards.py", kRewards));
    QVERIFY(writeFile(m_dir.path() + "/words.task.json", R"(// Echo a word: the tour's own task.
{
  "name": "user_echo",
  "records": "trl",
  "reference": "solution",  // the column the metrics compare with
  "metrics": [{"reward": "exact_match", "name": "exact"},
              {"reward": "python", "name": "echoed", "options": {"file": "rewards.py", "function": "echoed"}},
              {"reward": "length", "name": "short", "options": {"max": 8, "unit": "chars"}}],
  // A failure category may come from the user's own function (a python metric).
  "failures": [{"key": "not_echoed", "name": "word missing", "when": "echoed"},
               {"key": "long", "name": "too long", "when": "short"},
               {"key": "wrong", "name": "wrong word", "when": "exact"}]
})"));
    QVERIFY(writeFile(m_dir.path() + "/reward.json", R"({
  "task": "words.task.json",
  "components": [
    {"reward": "python", "name": "echo_reward", "weight": 3, "options": {"file": "rewards.py", "function": "echo_reward"}},
    {"reward": "f1", "weight": 1, "options": {"unit": "char"}},
    {"reward": "repetition", "weight": 0}
  ]
})"));
    train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "user tour", 2, 4);
    c.trainData = (m_dir.path() + "/words.jsonl").toStdString();
    c.evalData = c.trainData;
    c.evalEvery = 2;
    c.rewardConfig = (m_dir.path() + "/reward.json").toStdString();
    engine::JobControl control;
    RecordingSink sink(control);
    const engine::JobOutcome out = train::runGrpo(c, task::Catalog::builtin(), control, sink);
    QVERIFY2(sink.errors.empty(), sink.errors.empty() ? "" : sink.errors[0].c_str());
    QCOMPARE(engine::toString(out.status), "finished");
    m_store = QString::fromStdString(c.store);
    m_run = out.runId;
}

// The Designer: opening the config switches it to the user's task, whose columns are the
// config's components; the user's samples (no "task" in them) are of that task, and the
// Python function scores them.
void TestUserTaskTour::designer()
{
    RewardDesigner view;
    QString error;
    QVERIFY2(view.loadConfig(m_dir.path() + "/reward.json", &error), qPrintable(error));
    QCOMPARE(std::string(view.model()->task().name()), std::string("user_echo"));
    QVERIFY2(view.loadSamples(m_dir.path() + "/samples.jsonl", &error), qPrintable(error));
    SampleScoreModel *model = view.model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->componentNames(), (QStringList{"echo_reward", "f1", "repetition"}));
    QCOMPARE(model->componentReward(0), std::string("python"));
    for (int row = 0; row < 3; ++row)
        QCOMPARE(model->componentValue(row, 0), expected(kCompletions[row], kWords[row]));
    // ひま of ひまわり: 2 of 4 characters.
    QCOMPARE(model->componentValue(1, 0), 0.5);
    // The weights are the config's, and the config goes on with its task.
    QCOMPARE(model->weights(), (QVector<double>{3.0, 1.0, 0.0}));
    const reward::RewardConfig back = view.currentConfig();
    QCOMPARE(back.task, std::string("user_echo"));
    QVERIFY(!back.taskDescription.empty());
    QCOMPARE(back.components.size(), size_t(2)); // repetition has weight 0
    QCOMPARE(back.components[0].label(), std::string("echo_reward"));
    QCOMPARE(back.components[0].reward, std::string("python"));
    // The Python component explains itself.
    const std::vector<reward::Explanation> e = model->explain(1);
    QCOMPARE(e[0].key, std::string("python.value"));
}

// The curves: the total, the components under their names, the function's metric and the
// task's headline metric (eval/exact).
void TestUserTaskTour::curves()
{
    widgets::CurvePanel panel;
    QString error;
    QVERIFY2(rwbtest::showRun(panel, m_store, m_run, &error), qPrintable(error));
    QCustomPlot *components = panel.plot(widgets::CurvePanel::ComponentsPlot);
    QStringList names;
    for (int g = 0; g < components->graphCount(); ++g)
        names << components->graph(g)->name();
    QVERIFY2(names.join(" ").contains("echo_reward") && names.join(" ").contains("f1"), qPrintable(names.join(", ")));
    // … and what the function logged (log_metric), beside them.
    QVERIFY2(names.contains("echo_reward/hits"), qPrintable(names.join(", ")));
    QCustomPlot *headline = panel.plot(widgets::CurvePanel::F1Plot);
    int points = 0;
    for (int g = 0; g < headline->graphCount(); ++g)
        points += headline->graph(g)->dataCount();
    QVERIFY2(points >= 2, "the task's headline metric (eval/exact) at steps 0 and 2");
    // What the function and the components logged, as the step's metrics.
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(s.metrics(m_run, "reward_metric/echo_reward/hits").size(), size_t(2));
    QCOMPARE(s.metrics(m_run, "reward_time/echo_reward").size(), size_t(2));
    for (const store::MetricPoint &m : s.metrics(m_run, "reward_metric/echo_reward/hits"))
        QVERIFY(m.value >= 0.0 && m.value <= 1.0);
}

void TestUserTaskTour::groups()
{
    widgets::GroupAdvantageView view;
    QString error;
    QVERIFY2(rwbtest::showRun(view, m_store, m_run, &error), qPrintable(error));
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(view.model()->groupSize(), 4);
    QCOMPARE(view.model()->rowCount(), 2);
}

void TestUserTaskTour::tokens()
{
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const auto rows = s.stepRollouts(m_run, 1);
    QVERIFY(!rows.empty());
    widgets::TokenView view;
    QString error;
    QVERIFY2(rwbtest::showRollout(view, m_store, rows[0].id, &error), qPrintable(error));
    QVERIFY(view.tokenCount() > 0);
}

// The rollouts: each one's stored value of the function equals what it gives for the
// rollout's text; its extra value is in the details; the detail view shows the record.
void TestUserTaskTour::rollouts()
{
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const auto rows = s.stepRollouts(m_run, 1);
    QCOMPARE(rows.size(), size_t(8)); // 2 prompts × G 4
    for (const auto &stored : rows) {
        const store::Rollout &r = stored.rollout;
        const nlohmann::json values = nlohmann::json::parse(r.rewardsJson);
        QCOMPARE(values["echo_reward"].get<double>(), expected(r.completion, stored.gold));
        const nlohmann::json details = nlohmann::json::parse(r.detailsJson);
        QVERIFY2(details.contains("reward_extra"), r.detailsJson.c_str());
        QCOMPARE(details["reward_extra"]["echo_reward"]["reply_chars"].get<int>(),
                 static_cast<int>(QString::fromStdString(r.completion).toUcs4().size()));
    }
    widgets::RolloutBrowser browser;
    QString error;
    QVERIFY2(rwbtest::showRun(browser, m_store, m_run, &error), qPrintable(error));
    QAbstractItemModelTester tester(browser.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(browser.model()->rowCount(), 16);
    const qint64 id = browser.model()->index(0, 0).data(widgets::RolloutTableModel::RolloutIdRole).toLongLong();
    browser.selectRollout(id);
    const QString text = browser.detail()->plainText();
    QVERIFY2(text.contains("echo_reward") && text.contains("Repeat the word"), qPrintable(text));
    // The function's log_extra value for this rollout, among the values it logged.
    QVERIFY2(text.contains("Values the reward functions logged") && text.contains("reply_chars"), qPrintable(text));
}

// The failures: the description's categories, every prediction in one.
void TestUserTaskTour::failures()
{
    widgets::FailureExplorer explorer;
    QString error;
    QVERIFY2(rwbtest::showRun(explorer, m_store, m_run, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointSteps(), (QList<qint64>{0, 2}));
    widgets::FailureCategoryModel *cats = explorer.categoryModel();
    QAbstractItemModelTester tester(cats, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(cats->categoryCount(), 4);
    QCOMPARE(cats->name(0), QString("right"));
    QCOMPARE(cats->name(1), QString("word missing"));
    QCOMPARE(cats->name(2), QString("too long"));
    QCOMPARE(cats->name(3), QString("wrong word"));
    int count = 0;
    for (int c = 0; c < 4; ++c)
        count += cats->index(c, 1).data().toInt();
    QCOMPARE(count, 3);
    // The user's function decides "word missing": each stored prediction without its word is there.
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    int missing = 0;
    for (const auto &p : s.evalPredictions(m_run, 0))
        missing += p.prediction.prediction.find(p.prediction.gold) == std::string::npos ? 1 : 0;
    QCOMPARE(cats->index(1, 1).data().toInt(), missing);
}

// The weights changed after step 1 (the sink's) apply from step 2: a second version of
// the config, its components still under their names, with the new weights, and the
// task's description kept with it.
void TestUserTaskTour::weightsChangedWhileTraining()
{
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const std::vector<store::RewardConfigVersion> versions = s.rewardConfigs(m_run);
    QCOMPARE(versions.size(), size_t(2));
    QCOMPARE(versions[1].step, int64_t(2));
    const nlohmann::json v = nlohmann::json::parse(versions[1].configJson);
    QCOMPARE(v["components"][0]["name"].get<std::string>(), std::string("echo_reward"));
    QCOMPARE(v["components"][0]["weight"].get<double>(), 1.0);
    QCOMPARE(v["components"][2]["weight"].get<double>(), 2.0);
    QCOMPARE(v["task"]["name"].get<std::string>(), std::string("user_echo"));
    // Step 2's totals are the new weights' mean of the components: (1·python + 1·f1 + 2·repetition) / 4.
    for (const auto &stored : s.stepRollouts(m_run, 2)) {
        const nlohmann::json c = nlohmann::json::parse(stored.rollout.rewardsJson);
        const double total = (c["echo_reward"].get<double>() + c["f1"].get<double>() + 2.0 * c["repetition"].get<double>()) / 4.0;
        QVERIFY2(std::abs(stored.rollout.reward - total) < 1e-9, stored.rollout.rewardsJson.c_str());
    }
}

// The run keeps the description: a process that never read the config gets the task back
// from the store (findOrInstallTask), here under a name no catalog has yet.
void TestUserTaskTour::storedRunKeepsTheTask()
{
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    std::vector<std::string> configs;
    for (const store::RewardConfigVersion &v : s.rewardConfigs(m_run))
        configs.push_back(v.configJson);
    QVERIFY(!configs.empty());
    nlohmann::json renamed = nlohmann::json::parse(configs.front());
    QVERIFY(renamed["task"].is_object());
    QCOMPARE(renamed["task"]["name"].get<std::string>(), std::string("user_echo"));
    renamed["task"]["name"] = "user_echo_elsewhere";
    QVERIFY(!task::Catalog::builtin().find("user_echo_elsewhere"));
    const task::Task *t = task::findOrInstallTask("user_echo_elsewhere", {renamed.dump()});
    QVERIFY(t);
    QCOMPARE(std::string(t->headlineMetric()), std::string("exact"));
}

QTEST_MAIN(TestUserTaskTour)
#include "tst_usertasktour.moc"
