// train::rescore (what-if re-scoring, issue 43) on a run written here whose old and new
// rewards, advantages, flips, best completions and correlations are worked out by hand
// below; the scope growing to whole groups; a judge that does not answer giving each
// rollout its error; saving the re-score as an evaluation run, the run itself untouched.
#include "store/runstore.h"
#include "train/rescore.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "task/catalog.h"

#include "rescorerun.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace rwb;
using namespace rwbtest::rescorerun;

namespace {

// The advantages are compared to 1e-9 (hand values carried to 16 digits).
constexpr double kTolerance = 1e-9;

// Stored config: total = 0.2·partial + 0.8·marker. Edited: total = 0.8·partial + 0.2·marker.
const char *const kEditedConfig = R"({"task": "company_extraction", "components": [{"reward": "partial", "weight": 80}, {"reward": "marker", "weight": 20}]})";

// The run of rescorerun.h (partial = 2·LCS / (|answer| + |gold|), marker the same without
// the legal-entity markers).
//
// Group 0 (step 1), gold ミハル包装 (5 characters):
//   s0 株式会社ミハル包装  partial 2·5/(9+5) = 5/7   marker 1      old 0.2·5/7 + 0.8 = 0.9428571428571429
//                                                                 new 0.8·5/7 + 0.2 = 0.7714285714285714
//   s1 ミハル包          partial 2·4/(4+5) = 8/9   marker 8/9    old = new = 0.8888888888888888
//   s2 不明              partial 0                 marker 0      old = new = 0
//   s3 包装              partial 2·2/(2+5) = 4/7   marker 4/7    old = new = 0.5714285714285714
//   old mean 2.4031746/4 = 0.6007936507936509, std (Bessel) 0.4327515135871483
//   new mean 2.2317460/4 = 0.5579365079365080, std 0.3943701823996536
//   A = (r − mean) / (std + 1e-4):
//     old  0.7902559684468392  0.6655752124041824  −1.3879901812395763  −0.0678409996114459
//     new  0.5412121701907655  0.8389794608533424  −1.4143946306472412   0.0342029996031337
//   s3 flips (−0.068 → +0.034): 0.5714 is below the old mean 0.6008, above the new 0.5579.
//   Best: old s0 (0.943), new s1 (0.889 > 0.771): the best completion changes.
// Group 1 (step 1), gold サンプル商事 (6 characters):
//   s0 サンプル商事         1, 1                         old = new = 1
//   s1 株式会社サンプル商事 partial 2·6/(10+6) = 0.75, marker 1   old 0.15 + 0.8 = 0.95, new 0.6 + 0.2 = 0.8
//   s2 サンプル            partial = marker = 2·4/(4+6) = 0.8     old = new = 0.8
//   s3 不明                0, 0                         old = new = 0
//   old mean 0.6875, std 0.4661455423648999; new mean 0.65, std 0.4434711565216690
//     old  0.6702476948410727  0.5630080636665012   0.2412891701427864  −1.4745449286503610
//     new  0.7890504034224823  0.3381644586096354   0.3381644586096354  −1.4653793206417530
//   No flip; best s0 both times.
// Summary over the 8 rows:
//   Pearson r(old A, new A) = 0.985214868539654
//   ranks old 8 6 2 3 | 7 5 4 1, new 6 8 2 3 | 7 4.5 4.5 1 → Spearman ρ = 0.8982196964349443
//   mean total change = (−0.1714286 + 0 + 0 + 0 − 0.15 + 0 + 0 + 0)/8 = −0.0401785714285714
const double kOldTotal[8] = {0.9428571428571429, 0.8888888888888888, 0, 0.5714285714285714, 1, 0.95, 0.8, 0};
const double kNewTotal[8] = {0.7714285714285714, 0.8888888888888888, 0, 0.5714285714285714, 1, 0.8, 0.8, 0};
const double kOldAdv[8] = {0.7902559684468392, 0.6655752124041824, -1.3879901812395763, -0.0678409996114459,
                           0.6702476948410727, 0.5630080636665012, 0.2412891701427864,  -1.4745449286503610};
const double kNewAdv[8] = {0.5412121701907655, 0.8389794608533424, -1.4143946306472412, 0.0342029996031337,
                           0.7890504034224823, 0.3381644586096354, 0.3381644586096354,  -1.4653793206417530};

// Step 1: the two groups above (rollout ids 1 … 8); step 2: group 0 again (ids 9 … 12),
// so that a scope of one step leaves the other out.
// `runConfig` is the run's stored GRPO config; `edit` changes each rollout before it is
// written.
int64_t writeRun(const QString &path, const char *runConfig = R"({"scale_rewards": "group"})",
                 const std::function<void(store::Rollout &)> &edit = {})
{
    store::RunStore s(path.toStdString());
    const int64_t run = s.beginRun("known", store::RunKind::Grpo, runConfig, "company_extraction");
    s.recordRewardConfig(run, 1, kStoredConfig);
    for (int step = 1; step <= 2; ++step) {
        std::vector<store::Rollout> rows;
        for (int g = 0; g < (step == 1 ? 2 : 1); ++g)
            for (int j = 0; j < 4; ++j) {
                const Row &k = kGroups[g][j];
                store::Rollout r;
                r.promptId = "p" + std::to_string(g);
                r.groupIndex = g;
                r.sampleIndex = j;
                r.completion = r.answer = k.answer;
                r.reward = kOldTotal[g * 4 + j];
                r.rewardsJson = nlohmann::json{{"partial", k.partial}, {"marker", k.marker}}.dump();
                r.advantage = kOldAdv[g * 4 + j];
                if (edit)
                    edit(r);
                rows.push_back(r);
            }
        s.writeStep(run, step, {{"reward", 0.5}}, rows, prompts());
    }
    s.finishRun(run, store::RunStatus::Finished);
    return run;
}

reward::RewardConfig edited()
{
    return reward::parseRewardConfig(kEditedConfig, "edited", task::Catalog::builtin().rewards());
}

} // namespace

class TestRescore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void handWorked();
    void scopeGrowsToGroups();
    void correlations_data();
    void correlations();
    void unreachableJudge();
    void cancelAndSave();
    void cancelWhileCollecting();
    void overlongPenalty();
    void batchWithSkippedGroup();
    void dynamicSamplingDropped();
};

void TestRescore::handWorked()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path);
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    train::RescoreScope scope;
    scope.filter.runId = run;
    scope.filter.stepMin = scope.filter.stepMax = 1;
    const train::RescoreResult r = train::rescore(s, scope, train::rescoreTaskOf(s, run), edited(), "edited");
    QVERIFY(!r.cancelled);
    QCOMPARE(r.settings.scaleRewards, std::string("group"));
    QVERIFY(r.settings.fromConfig);
    QCOMPARE(r.components, (std::vector<std::string>{"partial", "marker"}));
    QCOMPARE(r.rows.size(), size_t(8));
    QCOMPARE(r.groups.size(), size_t(2));
    for (size_t i = 0; i < 8; ++i) {
        const train::RescoredRollout &row = r.rows[i];
        QVERIFY2(row.rescored, row.error.c_str());
        QVERIFY(row.selected);
        QCOMPARE(row.rolloutId, int64_t(i + 1));
        QVERIFY2(std::abs(row.oldTotal - kOldTotal[i]) < kTolerance, qPrintable(QString::number(i)));
        QVERIFY2(std::abs(row.newTotal - kNewTotal[i]) < kTolerance,
                 qPrintable(QString("%1: %2").arg(i).arg(row.newTotal, 0, 'g', 17)));
        QVERIFY2(std::abs(row.newComponents[0] - kGroups[i / 4][i % 4].partial) < kTolerance, qPrintable(QString::number(i)));
        QVERIFY2(std::abs(row.newComponents[1] - kGroups[i / 4][i % 4].marker) < kTolerance, qPrintable(QString::number(i)));
        QVERIFY2(std::abs(row.oldAdvantage - kOldAdv[i]) < kTolerance,
                 qPrintable(QString("%1: %2").arg(i).arg(row.oldAdvantage, 0, 'g', 17)));
        QVERIFY2(std::abs(row.newAdvantage - kNewAdv[i]) < kTolerance,
                 qPrintable(QString("%1: %2").arg(i).arg(row.newAdvantage, 0, 'g', 17)));
        QCOMPARE(row.flipped, i == 3);
        QCOMPARE(row.newBest, i == 1 || i == 4);
        QCOMPARE(row.oldBest, i == 0 || i == 4);
    }
    QCOMPARE(r.groups[0].oldBestSample, 0);
    QCOMPARE(r.groups[0].newBestSample, 1);
    QVERIFY(r.groups[0].bestChanged);
    QCOMPARE(r.groups[0].flips, 1);
    QVERIFY(!r.groups[1].bestChanged);
    QCOMPARE(r.groups[1].flips, 0);
    const train::RescoreSummary &m = r.summary;
    QCOMPARE(m.rollouts, 8);
    QCOMPARE(m.groupsRescored, 2);
    QCOMPARE(m.bestChanged, 1);
    QCOMPARE(m.flips, 1);
    QCOMPARE(m.skipped, 0);
    QCOMPARE(m.correlatedRows, 8);
    QVERIFY2(std::abs(m.pearson - 0.985214868539654) < kTolerance, qPrintable(QString::number(m.pearson, 'g', 17)));
    QVERIFY2(std::abs(m.spearman - 0.8982196964349443) < kTolerance, qPrintable(QString::number(m.spearman, 'g', 17)));
    QVERIFY2(std::abs(m.meanTotalChange - (-0.0401785714285714)) < kTolerance,
             qPrintable(QString::number(m.meanTotalChange, 'g', 17)));
}

// One rollout of group 1 asks for its group, not for group 0; a step scope not for step 2.
void TestRescore::scopeGrowsToGroups()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path);
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    train::RescoreScope scope;
    scope.filter.runId = run;
    scope.rolloutIds = {6};
    const train::RescoreResult r = train::rescore(s, scope, train::rescoreTaskOf(s, run), edited(), "edited");
    QCOMPARE(r.rows.size(), size_t(4));
    QCOMPARE(r.summary.selected, 1);
    for (const train::RescoredRollout &row : r.rows) {
        QCOMPARE(row.group, 1);
        QCOMPARE(row.selected, row.rolloutId == 6);
    }
    // The group alone gives the same advantages as with its step (scale_rewards = group).
    QVERIFY(std::abs(r.rows[1].newAdvantage - kNewAdv[5]) < kTolerance);
    // A filter on the marker: the rows of step 2 (ids 9 … 12) with marker < 0.5 bring group 0 of step 2.
    train::RescoreScope filtered;
    filtered.filter.runId = run;
    filtered.filter.stepMin = 2;
    filtered.filter.components = {{"marker", store::ComponentCondition::Op::Less, 0.5}};
    const train::RescoreResult f = train::rescore(s, filtered, train::rescoreTaskOf(s, run), edited(), "edited");
    QCOMPARE(f.rows.size(), size_t(4));
    QCOMPARE(f.summary.selected, 1); // 不明 only
    QCOMPARE(f.rows[0].step, int64_t(2));
    QVERIFY(f.groups[0].bestChanged);
}

void TestRescore::correlations_data()
{
    QTest::addColumn<QVector<double>>("x");
    QTest::addColumn<QVector<double>>("y");
    QTest::addColumn<double>("pearson");
    QTest::addColumn<double>("spearman");
    // x = 1 2 3, y = 2 4 6: both 1.
    QTest::newRow("linear") << QVector<double>{1, 2, 3} << QVector<double>{2, 4, 6} << 1.0 << 1.0;
    // y = x³ on −1 0 1 2: ranks equal (ρ 1); r = Σ(x−0.5)(y−2) / √(Σ(x−0.5)² Σ(y−2)²)
    //   = (4.5 + 1 − 0.5 + 9) / √(5 · (9 + 4 + 1 + 36)) = 14 / √250 = 0.8854377448471462
    QTest::newRow("cubic") << QVector<double>{-1, 0, 1, 2} << QVector<double>{-1, 0, 1, 8} << 0.8854377448471462 << 1.0;
    // Ties: y's ranks 1.5 1.5 3 against 1 2 3: ρ = r(1 2 3, 1.5 1.5 3) = 1.5 / √(2 · 1.5) = 0.8660254037844386;
    // r(1 2 3, 0 0 1) the same.
    QTest::newRow("tie") << QVector<double>{1, 2, 3} << QVector<double>{0, 0, 1} << 0.8660254037844386 << 0.8660254037844386;
    QTest::newRow("constant") << QVector<double>{1, 2, 3} << QVector<double>{1, 1, 1} << qQNaN() << qQNaN();
}

void TestRescore::correlations()
{
    QFETCH(QVector<double>, x);
    QFETCH(QVector<double>, y);
    QFETCH(double, pearson);
    QFETCH(double, spearman);
    const std::vector<double> xs(x.begin(), x.end()), ys(y.begin(), y.end());
    const double r = train::pearson(xs, ys), rho = train::spearman(xs, ys);
    if (std::isnan(pearson)) {
        QVERIFY(std::isnan(r));
        QVERIFY(std::isnan(rho));
        return;
    }
    QVERIFY2(std::abs(r - pearson) < 1e-12, qPrintable(QString::number(r, 'g', 17)));
    QVERIFY2(std::abs(rho - spearman) < 1e-12, qPrintable(QString::number(rho, 'g', 17)));
}

// A judge nobody answers (port 1, no retries) on a legal QA run (the first sample line of
// resources/samples as its prompt): every rollout's new total is None with the judge's
// error; the advantages follow the run's none_rewards ("skip": all None, all 0).
void TestRescore::unreachableJudge()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    QFile samples(QStringLiteral(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl"));
    QVERIFY(samples.open(QIODevice::ReadOnly));
    const std::string line = samples.readLine().trimmed().toStdString();
    const nlohmann::json q = nlohmann::json::parse(line);
    int64_t run = 0;
    {
        store::RunStore w(path.toStdString());
        run = w.beginRun("legal", store::RunKind::Grpo, "{}", "legal_qa");
        w.recordRewardConfig(run, 1, R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1}]})");
        std::vector<store::Rollout> rows;
        for (int j = 0; j < 2; ++j) {
            store::Rollout r;
            r.promptId = "q";
            r.sampleIndex = j;
            r.completion = j == 0 ? "<reasoning>r</reasoning><answer>" + q["reference_answer"].get<std::string>() +
                                        "</answer><citation>1296</citation>"
                                  : "わかりません";
            r.reward = j == 0 ? 1.0 : 0.0;
            r.rewardsJson = nlohmann::json{{"xml_format", r.reward}}.dump();
            rows.push_back(r);
        }
        w.writeStep(run, 1, {}, rows, {{"q", q["question"].get<std::string>(), q["reference_answer"].get<std::string>(), line}});
    }
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const reward::RewardConfig config = reward::parseRewardConfig(
        R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1}, {"reward": "coverage", "weight": 1}],
            "judge": {"url": "http://127.0.0.1:1/v1", "model": "m", "retries": 0, "breaker_threshold": 0}})",
        "judged", task::Catalog::builtin().rewards());
    train::RescoreScope scope;
    scope.filter.runId = run;
    const train::RescoreResult r = train::rescore(s, scope, train::rescoreTaskOf(s, run), config, "judged");
    QCOMPARE(r.rows.size(), size_t(2));
    for (const train::RescoredRollout &row : r.rows) {
        QVERIFY2(row.rescored, row.error.c_str());
        QVERIFY(std::isnan(row.newTotal));
        QVERIFY2(row.error.rfind("coverage: ", 0) == 0, row.error.c_str());
        QVERIFY(!row.judgeDecisions.empty());
        QCOMPARE(row.newAdvantage, 0.0);
        QVERIFY(!std::isnan(row.newComponents[0])); // xml_format scored all the same
    }
    QCOMPARE(r.summary.newNone, 2);
    QVERIFY(std::isnan(r.summary.pearson)); // the new advantages are all 0
}

void TestRescore::cancelAndSave()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path);
    train::RescoreScope scope;
    scope.filter.runId = run;
    {
        const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
        int calls = 0;
        size_t seenTotal = 0;
        const train::RescoreResult c = train::rescore(s, scope, train::rescoreTaskOf(s, run), edited(), "edited", [&](size_t, size_t total) -> bool {
            if (total == 0) // still collecting the rollouts
                return true;
            seenTotal = total;
            return ++calls < 2; // stop after the first batch
        });
        QCOMPARE(seenTotal, size_t(12));
        QCOMPARE(calls, 2);
        QVERIFY(c.cancelled);
        QVERIFY(c.rows.empty());
    }
    store::RunStore w(path.toStdString());
    const train::RescoreResult r = train::rescore(w, scope, train::rescoreTaskOf(w, run), edited(), "edited");
    QCOMPARE(r.rows.size(), size_t(12));
    const auto before = w.runs().size();
    const int64_t eval = train::saveRescoreAsEvaluation(w, r, edited(), "What-if");
    QCOMPARE(w.runs().size(), before + 1);
    const store::RunInfo info = w.run(eval);
    QCOMPARE(info.kind, std::string("eval"));
    QCOMPARE(info.task, std::string("company_extraction"));
    const std::vector<store::StoredEvalPrediction> p = w.evalPredictions(eval);
    QCOMPARE(p.size(), size_t(12));
    auto prediction = [&](const std::string &id) { // ordered by example id as text: "rollout 10" < "rollout 2"
        for (const store::StoredEvalPrediction &e : p)
            if (e.prediction.exampleId == id)
                return e.prediction;
        return store::EvalPrediction{};
    };
    const nlohmann::json details = nlohmann::json::parse(prediction("rollout 4").detailsJson);
    QCOMPARE(details["rollout_id"].get<int64_t>(), int64_t(4));
    QVERIFY(details["flipped"].get<bool>());
    QVERIFY(std::abs(nlohmann::json::parse(prediction("rollout 1").rewardsJson)["partial"].get<double>() - 5.0 / 7) < kTolerance);
    // The re-scored run is as it was.
    QCOMPARE(w.run(run).steps, int64_t(2));
    QCOMPARE(w.stepRollouts(run, 1)[0].rollout.reward, kOldTotal[0]);
}

// A callback that says stop at once: the re-score ends while it still collects the
// rollouts (total 0), before any is scored.
void TestRescore::cancelWhileCollecting()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path);
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    train::RescoreScope scope;
    scope.filter.runId = run;
    std::vector<size_t> totals;
    const train::RescoreResult c = train::rescore(s, scope, train::rescoreTaskOf(s, run), edited(), "edited",
                                                  [&](size_t, size_t total) {
                                                      totals.push_back(total);
                                                      return false;
                                                  });
    QVERIFY(c.cancelled);
    QVERIFY(c.rows.empty());
    QCOMPARE(totals, std::vector<size_t>{0});
}

// DAPO's over-long penalty on: the stored "overlong" component (s0 −0.5, s3 −0.25 of group
// 0, 0 elsewhere) was in the stored total and is added to the new one:
//   s0 0.7714285714285714 − 0.5 = 0.2714285714285714, s1 0.8888888888888888, s2 0,
//   s3 0.5714285714285714 − 0.25 = 0.3214285714285714 (group 1 as in handWorked).
void TestRescore::overlongPenalty()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const double kPenalty[4] = {-0.5, 0, 0, -0.25};
    const int64_t run = writeRun(path, R"({"scale_rewards": "group", "overlong_penalty": true})", [&](store::Rollout &r) {
        const double p = r.groupIndex == 0 ? kPenalty[r.sampleIndex] : 0.0;
        nlohmann::json j = nlohmann::json::parse(r.rewardsJson);
        j["overlong"] = p;
        r.rewardsJson = j.dump();
        r.reward += p;
    });
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    train::RescoreScope scope;
    scope.filter.runId = run;
    scope.filter.stepMin = scope.filter.stepMax = 1;
    const train::RescoreResult r = train::rescore(s, scope, train::rescoreTaskOf(s, run), edited(), "edited");
    QVERIFY(r.settings.overlongPenalty);
    QCOMPARE(r.rows.size(), size_t(8));
    const double expected[8] = {0.2714285714285714, 0.8888888888888888, 0, 0.3214285714285714, 1, 0.8, 0.8, 0};
    const auto column = static_cast<size_t>(std::find(r.components.begin(), r.components.end(), "overlong") - r.components.begin());
    QVERIFY(column < r.components.size());
    for (size_t i = 0; i < 8; ++i) {
        QVERIFY2(std::abs(r.rows[i].newTotal - expected[i]) < kTolerance,
                 qPrintable(QString("%1: %2").arg(i).arg(r.rows[i].newTotal, 0, 'g', 17)));
        QCOMPARE(r.rows[i].newComponents[column], i < 4 ? kPenalty[i] : 0.0);
    }
    // The change of the total is the reward's alone (the penalty on both sides):
    // (−0.1714285714285714 − 0.15) / 8, as in handWorked.
    QVERIFY2(std::abs(r.summary.meanTotalChange - (-0.0401785714285714)) < kTolerance,
             qPrintable(QString::number(r.summary.meanTotalChange, 'g', 17)));
}

// scale_rewards = "batch", one group of the step not re-scored (its prompt's input is not
// readable and legal QA cannot explain a completion from the gold alone): the other group
// gets no new advantages (a batch std over one group is not the trainer's), with a note;
// under "group" it gets them.
void TestRescore::batchWithSkippedGroup()
{
    QFile samples(QStringLiteral(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl"));
    QVERIFY(samples.open(QIODevice::ReadOnly));
    const std::string line = samples.readLine().trimmed().toStdString();
    const nlohmann::json q = nlohmann::json::parse(line);
    for (const char *scale : {"batch", "group"}) {
        QTemporaryDir dir;
        const QString path = dir.filePath("runs.sqlite");
        int64_t run = 0;
        {
            store::RunStore w(path.toStdString());
            run = w.beginRun("legal", store::RunKind::Grpo, nlohmann::json{{"scale_rewards", scale}}.dump(), "legal_qa");
            w.recordRewardConfig(run, 1, R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1}]})");
            std::vector<store::Rollout> rows;
            for (int g = 0; g < 2; ++g)
                for (int j = 0; j < 2; ++j) {
                    store::Rollout r;
                    r.promptId = g == 0 ? "q" : "broken";
                    r.groupIndex = g;
                    r.sampleIndex = j;
                    r.completion = j == 0 ? "<reasoning>r</reasoning><answer>a</answer><citation>1</citation>" : "わかりません";
                    r.reward = j == 0 ? 1.0 : 0.0;
                    r.rewardsJson = nlohmann::json{{"xml_format", r.reward}}.dump();
                    rows.push_back(r);
                }
            w.writeStep(run, 1, {}, rows,
                        {{"q", q["question"].get<std::string>(), q["reference_answer"].get<std::string>(), line},
                         {"broken", "?", "", "{}"}});
        }
        const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
        train::RescoreScope scope;
        scope.filter.runId = run;
        scope.rolloutIds = {1};
        const train::RescoreResult r = train::rescore(
            s, scope, train::rescoreTaskOf(s, run),
            reward::parseRewardConfig(R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1}]})",
                                      "same", task::Catalog::builtin().rewards()),
            "same");
        const bool batch = std::string(scale) == "batch";
        QCOMPARE(r.rows.size(), size_t(batch ? 4 : 2)); // "batch" brings the whole step
        QVERIFY2(r.groups[0].rescored, r.rows[0].error.c_str());
        QVERIFY(!std::isnan(r.rows[0].oldAdvantage));
        if (batch) {
            QVERIFY(!r.groups[1].rescored);
            QVERIFY(std::isnan(r.rows[0].newAdvantage));
            QVERIFY(std::isnan(r.rows[1].newAdvantage));
            const bool noted = std::any_of(r.notes.begin(), r.notes.end(), [](const std::string &n) {
                return n.find("step 1: 1 of 2 groups not re-scored") != std::string::npos;
            });
            QVERIFY(noted);
            QCOMPARE(r.summary.correlatedRows, 0);
        } else {
            QVERIFY(!std::isnan(r.rows[0].newAdvantage));
            QVERIFY(!std::isnan(r.rows[1].newAdvantage));
            QVERIFY(r.notes.empty());
        }
    }
}

// Dynamic sampling on: group 1 of each step stored with advantages all 0 (the trainer
// dropped it) is marked and noted; group 0 is not.
void TestRescore::dynamicSamplingDropped()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path, R"({"scale_rewards": "group", "dynamic_sampling": true})", [](store::Rollout &r) {
        if (r.groupIndex == 1)
            r.advantage = 0.0;
    });
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    train::RescoreScope scope;
    scope.filter.runId = run;
    scope.filter.stepMin = scope.filter.stepMax = 1;
    const train::RescoreResult r = train::rescore(s, scope, train::rescoreTaskOf(s, run), edited(), "edited");
    QVERIFY(r.settings.dynamicSampling);
    QCOMPARE(r.groups.size(), size_t(2));
    QVERIFY(!r.groups[0].dropped);
    QVERIFY(r.groups[1].dropped);
    QCOMPARE(r.notes, (std::vector<std::string>{
                          "step 1: group(s) 1 dropped by dynamic sampling (stored advantages all 0): not trained on."}));
}

QTEST_APPLESS_MAIN(TestRescore)
#include "tst_rescore.moc"
