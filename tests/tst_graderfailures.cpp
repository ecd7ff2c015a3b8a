// Grader failures kept apart from the policy's (issue 43): None rewards — a judge that
// failed, a Python reward that raised, a remote reward that failed — as their own failure
// category (core/eval/failureanalysis, the failure explorer), their own metric
// (reward_none_frac, written for external runs here and by GRPO's bookkeeping), ignored
// by the collapse metrics and the hacking monitor, and GRPO's none_rewards option
// (train/nonerewards.h) on advantages worked out by hand. Tolerance 1e-9 unless stated.
#include "failurecategorymodel.h"
#include "failureexamplemodel.h"
#include "failureexplorer.h"
#include "runsessions.h"
#include "runsetupform.h"

#include "data/jsonl.h"
#include "eval/failureanalysis.h"
#include "eval/hackingmonitor.h"
#include "store/externalrun.h"
#include "store/runstore.h"
#include "tasks/extraction/extractionrecord.h"
#include "train/advantages.h"
#include "train/collapsemetrics.h"
#include "train/grpo.h"
#include "train/nonerewards.h"
#include "util/stats.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <limits>

using namespace rwb;

namespace {

constexpr double kTol = 1e-9;
const double kNan = std::numeric_limits<double>::quiet_NaN();

data::ExtractionRecord record(const char *id, const char *body, const char *gold)
{
    data::ExtractionRecord r;
    r.id = id;
    r.senderEmail = "中島 <n@miharu.jp>";
    r.emailText = body;
    r.gold = gold;
    return r;
}

// A store with run 1 (company extraction): eval predictions at step 0 of three e-mails —
// b1 right, c1 whose judge failed (its component null, the decision's error), u1 whose
// Python reward raised (details' reward_errors) — and at step 10 all three right. The
// examples file beside it. Returns the store's path.
QString makeStore(const QString &dir)
{
    {
        std::ofstream f((dir + "/test.jsonl").toStdString(), std::ios::binary);
        f << data::toJsonLine(record("b1", "いつもお世話になっております。\n株式会社ミハル包装の中島です。", "株式会社ミハル包装"), false)
          << '\n'
          << data::toJsonLine(record("c1", "はじめまして。ナツメ株式会社の中川です。", "ナツメ株式会社"), false) << '\n'
          << data::toJsonLine(record("u1", "三伸化学株式会社の浜口です。", "三伸化学株式会社"), false) << '\n';
    }
    const QString storePath = dir + "/runs.sqlite";
    store::RunStore st(storePath.toStdString());
    const int64_t run = st.beginRun("graders", store::RunKind::Grpo, R"({"eval_data": "test.jsonl"})", "company_extraction");
    judge::Decision failed;
    failed.reward = "judge_exact";
    failed.error = "timed out after 30 s";
    st.writeEvalPredictions(
        run, 0,
        {{"b1", "株式会社ミハル包装", "株式会社ミハル包装", true, R"({"exact": 1.0})"},
         {"c1", "ナツメ株式会社", "ナツメ株式会社", true, R"({"exact": 1.0, "judge_exact": null})", "{}", {failed}},
         {"u1", "三伸化学株式会社", "三伸化学株式会社", true, R"({"mine": null})",
          R"({"reward_errors": {"mine": "ZeroDivisionError: division by zero"}})"}});
    st.writeEvalPredictions(run, 10,
                            {{"b1", "株式会社ミハル包装", "株式会社ミハル包装", true, R"({"exact": 1.0})"},
                             {"c1", "ナツメ株式会社", "ナツメ株式会社", true, R"({"exact": 1.0, "judge_exact": 1.0})"},
                             {"u1", "三伸化学株式会社", "三伸化学株式会社", true, R"({"mine": 1.0})"}});
    st.finishRun(run, store::RunStatus::Finished);
    return storePath;
}

} // namespace

class TestGraderFailures : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void noneFraction();
    void advantagesSkipAndZero();
    void stopsOnNone_data();
    void stopsOnNone();
    void config();
    void collapseIgnoresNone();
    void monitorIgnoresNone();
    void graderErrorOf();
    void failureCategory();
    void explorerShowsGraderFailures();
    void externalRunMetric();
    void runSetupRow();
    // Manual: with RWB_GRADER_FAILURES_STORE set, writes makeStore's files into that
    // folder (for the screenshots in docs/images/grader-failures-*.png).
    void writeDemoStore();
};

void TestGraderFailures::noneFraction()
{
    QCOMPARE(util::noneFraction({}), 0.0);
    QCOMPARE(util::noneFraction({1.0, 0.0}), 0.0);
    QCOMPARE(util::noneFraction({1.0, kNan, 0.0, kNan}), 0.5);
    QCOMPARE(util::noneFraction({kNan}), 1.0);
}

void TestGraderFailures::advantagesSkipAndZero()
{
    // One group of G = 4: rewards 1, None, 0, 1.
    const std::vector<double> rewards{1.0, kNan, 0.0, 1.0};
    // skip: over 1, 0, 1: mean 2/3, std √((1/9 + 4/9 + 1/9) / 2) = √(1/3);
    // A = (r − 2/3) / (√(1/3) + 1e-4); the None row 0.
    {
        const std::vector<double> r = train::advantageRewards(rewards, train::NoneRewards::Skip);
        QVERIFY(std::isnan(r[1]));
        const auto adv = train::groupAdvantages(torch::tensor(r, torch::kFloat64), 4);
        const double d = std::sqrt(1.0 / 3.0) + 1e-4;
        const double expected[] = {(1.0 / 3.0) / d, 0.0, (-2.0 / 3.0) / d, (1.0 / 3.0) / d};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(adv.advantages[i].item<double>() - expected[i]) < kTol, qPrintable(QString::number(i)));
        QVERIFY(std::abs(adv.advantages[0].item<double>() - 0.577250) < 1e-6);
    }
    // zero: 1, 0, 0, 1: mean 1/2, std √(4 · 1/4 / 3) = √(1/3); A = ±0.5 / (√(1/3) + 1e-4).
    {
        const std::vector<double> r = train::advantageRewards(rewards, train::NoneRewards::Zero);
        QCOMPARE(r, (std::vector<double>{1.0, 0.0, 0.0, 1.0}));
        const auto adv = train::groupAdvantages(torch::tensor(r, torch::kFloat64), 4);
        const double a = 0.5 / (std::sqrt(1.0 / 3.0) + 1e-4);
        const double expected[] = {a, -a, -a, a};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(adv.advantages[i].item<double>() - expected[i]) < kTol, qPrintable(QString::number(i)));
        QVERIFY(std::abs(a - 0.865876) < 1e-6);
    }
    // stop trains as skip.
    QVERIFY(std::isnan(train::advantageRewards(rewards, train::NoneRewards::Stop)[1]));
}

void TestGraderFailures::stopsOnNone_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<double>("limit");
    QTest::addColumn<int>("none"); // of 4 rewards
    QTest::addColumn<bool>("stops");
    QTest::newRow("stop, 0, none") << "stop" << 0.0 << 0 << false;
    QTest::newRow("stop, 0, one") << "stop" << 0.0 << 1 << true;
    QTest::newRow("stop, 25 %, one (not above)") << "stop" << 0.25 << 1 << false;
    QTest::newRow("stop, 25 %, two") << "stop" << 0.25 << 2 << true;
    QTest::newRow("stop, 100 %, all") << "stop" << 1.0 << 4 << false;
    QTest::newRow("skip, 0, all") << "skip" << 0.0 << 4 << false;
    QTest::newRow("zero, 0, all") << "zero" << 0.0 << 4 << false;
}

void TestGraderFailures::stopsOnNone()
{
    QFETCH(QString, mode);
    QFETCH(double, limit);
    QFETCH(int, none);
    QFETCH(bool, stops);
    std::vector<double> rewards{1.0, 0.5, 0.0, 1.0};
    for (int i = 0; i < none; ++i)
        rewards[static_cast<size_t>(i)] = kNan;
    const auto m = train::noneRewardsFromString(mode.toStdString());
    QVERIFY(m);
    QCOMPARE(train::stopsOnNone(rewards, *m, limit), stops);
}

void TestGraderFailures::config()
{
    const std::string base =
        R"({"model": "m", "train_data": "t.jsonl", "reward_config": "r.json", "store": "s.sqlite", "output": "o")";
    const train::GrpoConfig d = train::parseGrpoConfig(base + "}", "c.json");
    QCOMPARE(d.noneRewards, std::string("skip")); // today's behaviour stays the default
    QCOMPARE(d.noneStopFraction, 0.0);
    const train::GrpoConfig c =
        train::parseGrpoConfig(base + R"(, "none_rewards": "stop", "none_stop_fraction": 0.1})", "c.json");
    QCOMPARE(c.noneRewards, std::string("stop"));
    QCOMPARE(c.noneStopFraction, 0.1);
    // toJson writes them back
    const train::GrpoConfig again = train::parseGrpoConfig(train::toJson(c), "c.json");
    QCOMPARE(again.noneRewards, std::string("stop"));
    QCOMPARE(again.noneStopFraction, 0.1);
    QVERIFY_THROWS_EXCEPTION(data::InputException, train::parseGrpoConfig(base + R"(, "none_rewards": "drop"})", "c.json"));
    QVERIFY_THROWS_EXCEPTION(data::InputException,
                             train::parseGrpoConfig(base + R"(, "none_stop_fraction": 1.5})", "c.json"));
}

void TestGraderFailures::collapseIgnoresNone()
{
    // Two groups of 2: a (0), a (None) | b (0), b (None). Not full: a once, b once; top 1 of
    // the 2 rows that have a reward → 0.5 (0.25 if the None rows counted).
    const train::CollapseMetrics m = train::collapseMetrics({"a", "a", "b", "b"}, {0.0, kNan, 0.0, kNan}, 2);
    QCOMPARE(m.topAnswerShare, 0.5);
    QCOMPARE(m.distinctAnswersPerGroup, 1.0);
    QCOMPARE(train::collapseMetrics({"a", "b"}, {kNan, kNan}, 2).topAnswerShare, 0.0);
}

void TestGraderFailures::monitorIgnoresNone()
{
    // No validation metric: exist rises 0.40 → 0.60 at step 11 while partial falls 0.60 →
    // 0.40: one disagreement over [1, 20]. Fed again with steps 21–30 whose rewards were all
    // None (no component means, reward_none_frac 1): the same alert with the same values. Had those steps
    // logged means of 0 (the old meanOf of nothing), exist would "fall" and partial too.
    const auto feed = [](eval::HackingMonitor &m, bool noneSteps) {
        for (int64_t s = 1; s <= 20; ++s)
            m.update(s, {{"rewards/exist/mean", s <= 10 ? 0.4 : 0.6},
                         {"rewards/partial/mean", s <= 10 ? 0.6 : 0.4},
                         {"reward_none_frac", 0.0}});
        if (noneSteps)
            for (int64_t s = 21; s <= 30; ++s)
                m.update(s, {{"rewards/exist/mean", kNan}, {"reward_none_frac", 1.0}, {"frac_reward_zero_std", 1.0}});
    };
    eval::HackingMonitor plain, withNone;
    feed(plain, false);
    feed(withNone, true);
    QCOMPARE(plain.alerts().size(), size_t(1));
    QCOMPARE(withNone.alerts().size(), plain.alerts().size());
    const eval::HackingAlert &a = plain.alerts()[0], &b = withNone.alerts()[0];
    QCOMPARE(int(b.kind), int(eval::AlertKind::Disagreement));
    QCOMPARE(b.from, a.from);
    QVERIFY(b.to >= a.to); // judged again over the steps that have values: the same means
    QVERIFY(std::abs(b.before - 0.4) < kTol && std::abs(b.after - 0.6) < kTol);
    QVERIFY(std::abs(b.otherBefore - 0.6) < kTol && std::abs(b.otherAfter - 0.4) < kTol);
    // reward_none_frac is not a component: a step of all None raises nothing on its own.
    eval::HackingMonitor onlyNone;
    for (int64_t s = 1; s <= 40; ++s)
        onlyNone.update(s, {{"rewards/exist/mean", 0.5}, {"reward_none_frac", s <= 20 ? 0.0 : 1.0}});
    QVERIFY(onlyNone.alerts().empty());
}

void TestGraderFailures::graderErrorOf()
{
    QCOMPARE(eval::graderErrorOf(R"({"exact": 1})", "{}", {}), std::string());
    // A judge error without a None component (a retry that succeeded): not a failure.
    QCOMPARE(eval::graderErrorOf(R"({"j": 0.5})", "{}", {"first try timed out"}), std::string());
    QCOMPARE(eval::graderErrorOf(R"({"exact": 1, "j": null})", "{}", {"", "timed out"}), std::string("judge: timed out"));
    QCOMPARE(eval::graderErrorOf(R"({"mine": null})", R"({"reward_errors": {"mine": "KeyError: 'x'"}})", {}),
             std::string("mine: KeyError: 'x'"));
    QCOMPARE(eval::graderErrorOf(R"({"remote": null, "b": null})", "", {}), std::string("b: no reward; remote: no reward"));
    QCOMPARE(eval::graderErrorOf("not json", "nor this", {}), std::string());
    // A weight-0 diagnostic judge that timed out leaves the total standing: not a grader
    // failure of the prediction (review of 475e6c4); a weighted one still is.
    const std::set<std::string> weightless =
        eval::weightlessComponents(R"({"components": [{"reward": "exact", "weight": 1},
                                                      {"reward": "coverage", "name": "diag", "weight": 0}]})");
    QCOMPARE(weightless, (std::set<std::string>{"diag"}));
    QCOMPARE(eval::graderErrorOf(R"({"exact": 1, "diag": null})", R"({"reward_errors": {"diag": "timed out"}})", {},
                                 weightless),
             std::string());
    QCOMPARE(eval::graderErrorOf(R"({"exact": null, "diag": null})", "{}", {}, weightless), std::string("exact: no reward"));
    QCOMPARE(eval::weightlessComponents("nope"), std::set<std::string>{});
}

void TestGraderFailures::failureCategory()
{
    QTemporaryDir dir;
    const QString storePath = makeStore(dir.path());
    const eval::FailureData data = eval::loadRunFailures(storePath.toStdString(), 1);
    const size_t g = data.graderCategory();
    QVERIFY(g != eval::kNoCategory);
    QCOMPARE(g, data.categories.size() - 1); // after the task's own
    QCOMPARE(data.categories[g].key, std::string("grader_failure"));
    const auto &at0 = data.checkpoints.at(0);
    QCOMPARE(at0.size(), size_t(3));
    // b1 right (category 0); c1 and u1 grader failures with their stored errors, although
    // their answers equal the gold: the grader did not judge them.
    QCOMPARE(at0[0].exampleId, std::string("b1"));
    QCOMPARE(at0[0].category, size_t(0));
    QVERIFY(at0[0].graderError.empty());
    QCOMPARE(at0[1].category, g);
    QCOMPARE(at0[1].graderError, std::string("judge: timed out after 30 s"));
    QCOMPARE(at0[2].category, g);
    QCOMPARE(at0[2].graderError, std::string("mine: ZeroDivisionError: division by zero"));
    const eval::FailureCounts n0 = eval::countFailures(at0, data.categories.size());
    QCOMPARE(n0.of(0), size_t(1));
    QCOMPARE(n0.of(g), size_t(2));
    // 0 → 10: c1 and u1 go from grader failure to right: not "fixed" (never judged wrong).
    const eval::FailureComparison c =
        eval::compareFailures(at0, data.checkpoints.at(10), data.categories.size(), g);
    QCOMPARE(c.fixed, size_t(0));
    QCOMPARE(c.broke, size_t(0));
    QCOMPARE(c.transitions[g][0], size_t(2));
}

void TestGraderFailures::explorerShowsGraderFailures()
{
    QTemporaryDir dir;
    const QString storePath = makeStore(dir.path());
    widgets::FailureExplorer explorer;
    QAbstractItemModelTester t1(explorer.categoryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(explorer.exampleModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    explorer.compareWith(-1);
    explorer.showCheckpoint(0);
    const widgets::FailureCategoryModel *cats = explorer.categoryModel();
    const int g = cats->categoryCount() - 1;
    QCOMPARE(cats->key(g), QStringLiteral("grader_failure"));
    QCOMPARE(cats->name(g), QStringLiteral("grader failure (no reward)"));
    QCOMPARE(cats->index(g, 1).data().toString().toInt(), 2);
    QVERIFY(explorer.selectCategory(g));
    QCOMPARE(explorer.exampleModel()->rowCount(), 2);
    QVERIFY(explorer.selectExample(QStringLiteral("u1")));
    const auto *explanation = explorer.findChild<QLabel *>(QStringLiteral("failureExplanation"));
    QVERIFY(explanation);
    QVERIFY2(explanation->text().contains(QStringLiteral("ZeroDivisionError: division by zero")),
             qPrintable(explanation->text()));
    QVERIFY(explanation->text().contains(QStringLiteral("grader failure (no reward)")));
}

void TestGraderFailures::externalRunMetric()
{
    QTemporaryDir dir;
    store::RunStore st(dir.filePath("runs.sqlite").toStdString());
    const int64_t run = st.beginRun("ext", store::RunKind::Grpo, "{}", "company_extraction");
    const auto sample = [](const char *group, double reward, double component) {
        store::ExternalSample s;
        s.prompt = group;
        s.group = group;
        s.completion = "x";
        s.reward = reward;
        s.components = {{"judge", component}};
        return s;
    };
    // Step 1: 1 of 4 None → 0.25; reward mean over 1, 0, 1 = 2/3. Step 2: all None → 1, and
    // no reward or component means (not 0).
    store::writeExternalStep(st, run, 1,
                             {sample("a", 1.0, 1.0), sample("a", kNan, kNan), sample("b", 0.0, 0.0), sample("b", 1.0, 1.0)});
    store::writeExternalStep(st, run, 2, {sample("a", kNan, kNan), sample("a", kNan, kNan)});
    const auto none = st.metrics(run, "reward_none_frac");
    QCOMPARE(none.size(), size_t(2));
    QCOMPARE(none[0].value, 0.25);
    QCOMPARE(none[1].value, 1.0);
    const auto reward = st.metrics(run, "reward");
    QCOMPARE(reward.size(), size_t(1));
    QVERIFY(std::abs(reward[0].value - 2.0 / 3.0) < kTol);
    QCOMPARE(st.metrics(run, "rewards/judge/mean").size(), size_t(1));
}

void TestGraderFailures::runSetupRow()
{
    widgets::RunSetupForm form;
    auto *choice = form.findChild<QComboBox *>(QStringLiteral("none_rewards"));
    QVERIFY(choice);
    QCOMPARE(choice->currentText(), QStringLiteral("skip"));
    train::GrpoConfig c = form.config();
    c.noneRewards = "stop";
    c.noneStopFraction = 0.2;
    form.setConfig(c);
    QCOMPARE(choice->currentText(), QStringLiteral("stop"));
    QCOMPARE(form.json().value(QStringLiteral("none_stop_fraction")).toDouble(), 0.2);
    QCOMPARE(form.json().value(QStringLiteral("none_rewards")).toString(), QStringLiteral("stop"));
}

void TestGraderFailures::writeDemoStore()
{
    const QString out = qEnvironmentVariable("RWB_GRADER_FAILURES_STORE");
    if (out.isEmpty())
        QSKIP("set RWB_GRADER_FAILURES_STORE to a folder to write the demo store");
    QDir().mkpath(out);
    QVERIFY(QFileInfo::exists(makeStore(out)));
}

QTEST_MAIN(TestGraderFailures)
#include "tst_graderfailures.moc"
