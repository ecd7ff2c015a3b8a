// core/eval: the reward-hacking monitor. Every series is built by hand and every expected
// alert worked out in the comments (window W = 20 unless stated: first half steps
// [from, from + 9], second half [to − 9, to]). Values compared with a tolerance of 1e-9.
#include "eval/hackingmonitor.h"

#include <QtTest>

#include <cmath>

using namespace rwb::eval;

namespace {

constexpr double kTol = 1e-9;

// A step function: `low` up to step 10, `high` from step 11, at steps 1…last.
std::vector<std::pair<int64_t, double>> stepUp(double low, double high, int64_t last)
{
    std::vector<std::pair<int64_t, double>> p;
    for (int64_t s = 1; s <= last; ++s)
        p.emplace_back(s, s <= 10 ? low : high);
    return p;
}

std::vector<std::pair<int64_t, double>> flat(double v, int64_t last)
{
    std::vector<std::pair<int64_t, double>> p;
    for (int64_t s = 1; s <= last; ++s)
        p.emplace_back(s, v);
    return p;
}

bool near(double a, double b)
{
    return std::abs(a - b) < kTol;
}

// exist 0.40 (steps 1–10) → 0.60 (steps 11–20), partial flat 0.50, F1 0.22 at step 0 and
// `f1At20` at step 20.
MetricSeries existRun(double f1At20)
{
    MetricSeries m;
    m["rewards/exist/mean"] = stepUp(0.40, 0.60, 20);
    m["rewards/partial/mean"] = flat(0.50, 20);
    m["eval/f1"] = {{0, 0.22}, {20, f1At20}};
    return m;
}

// Feeds a run to a monitor step by step, every metric of a step together.
void feed(HackingMonitor &monitor, const MetricSeries &series)
{
    std::map<int64_t, std::vector<std::pair<std::string, double>>> bySteps;
    for (const auto &[name, points] : series)
        for (const auto &[step, value] : points)
            bySteps[step].emplace_back(name, value);
    for (const auto &[step, metrics] : bySteps)
        monitor.update(step, metrics);
}

} // namespace

class TestHackingMonitor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void risingComponentFallingF1();
    void risingComponentRisingF1();
    void flatRun();
    void disagreementWithoutEval();
    void collapseDistinctAnswers();
    void collapseTopShare();
    void thresholdsMoveTriggers();
    void consecutiveAlertsMerge();
    void noisyButFlat();
    void incrementalMatchesScan();
    void f1SlidingAtEveryEvaluation();
    void anotherTasksValidationMetric();
};

void TestHackingMonitor::f1SlidingAtEveryEvaluation()
{
    // marker 0.50 up to step 40, then +0.008 a step (0.82 at step 80); F1 evaluated every
    // 20 steps: 0.056 at 0–40, then 0.04, 0.02, 0.01 at 60, 80, 100. No two neighbouring
    // evaluations differ by more than 0.02, but F1 fell from its best.
    MetricSeries m;
    for (int64_t s = 1; s <= 100; ++s)
        m["rewards/marker/mean"].emplace_back(s, s <= 40 ? 0.5 : 0.5 + 0.008 * static_cast<double>(s - 40));
    m["eval/f1"] = {{0, 0.044}, {20, 0.05}, {40, 0.056}, {60, 0.04}, {80, 0.02}, {100, 0.01}};
    const auto alerts = HackingMonitor::scan(m);
    QCOMPARE(alerts.size(), size_t(1));
    const HackingAlert &a = alerts.front();
    QCOMPARE(a.kind, AlertKind::Hacking);
    // The first window judged with a rise above 0.05 and an evaluation inside is [42, 61]:
    // halves [42, 51] and [52, 61], means 0.5 + 0.008·(6.5) = 0.552 and 0.5 + 0.008·16.5 =
    // 0.632 (rise 0.08); F1 at 60 is 0.04, the best at or before 42 is 0.056 (drop 0.016,
    // not enough). Window [61, 80]: rise 0.08, F1 0.02 at 80 against the best before 61,
    // 0.056 (drop 0.036): the alert starts at 61 and grows to the run's end.
    QCOMPARE(a.from, int64_t(61));
    QCOMPARE(a.to, int64_t(100));
    QVERIFY(near(a.otherBefore, 0.056));
    QVERIFY(near(a.otherAfter, 0.01));
}

void TestHackingMonitor::anotherTasksValidationMetric()
{
    // A legal-QA run logs eval/joint, not eval/f1: with the task's headline among the
    // validation metrics, the same run (citation_f1 rising, joint 0.22 → 0.17) is hacking,
    // named by that metric; with the default (eval/f1 only) nothing validates it, and the
    // one rising component with no falling one is no disagreement either.
    MetricSeries m;
    m["rewards/citation_f1/mean"] = stepUp(0.40, 0.60, 20);
    m["rewards/xml_format/mean"] = flat(0.90, 20);
    m["eval/joint"] = {{0, 0.22}, {20, 0.17}};
    QVERIFY(HackingMonitor::scan(m).empty());
    HackingSettings settings;
    settings.validationMetrics = {"eval/f1", "eval/joint"};
    const auto alerts = HackingMonitor::scan(m, settings);
    QCOMPARE(alerts.size(), size_t(1));
    QCOMPARE(alerts[0].kind, AlertKind::Hacking);
    QCOMPARE(alerts[0].validationMetric, std::string("eval/joint"));
    QCOMPARE(alerts[0].values, std::string("citation_f1 0.40 → 0.60 while joint 0.22 → 0.17"));
    QCOMPARE(alerts[0].message, std::string("Possible reward hacking: citation_f1 rose 0.40 → 0.60 while validation joint "
                                            "fell 0.22 → 0.17 (steps 1–20)"));
}

void TestHackingMonitor::risingComponentFallingF1()
{
    // At step 20 the window is [1, 20]: exist's halves 0.40 and 0.60 (rise 0.20 > 0.05);
    // F1 at or before step 1 is step 0's 0.22, the last in (1, 20] is step 20's 0.17 (a
    // drop of 0.05 > 0.02). partial is flat. Before step 20 the run is younger than the
    // window: nothing is judged.
    const std::vector<HackingAlert> alerts = HackingMonitor::scan(existRun(0.17));
    QCOMPARE(alerts.size(), size_t(1));
    const HackingAlert &a = alerts[0];
    QCOMPARE(a.kind, AlertKind::Hacking);
    QCOMPARE(a.components, std::vector<std::string>{"exist"});
    QCOMPARE(a.metric, std::string("rewards/exist/mean"));
    QCOMPARE(a.from, int64_t(1));
    QCOMPARE(a.to, int64_t(20));
    QVERIFY(near(a.before, 0.40));
    QVERIFY(near(a.after, 0.60));
    QVERIFY(near(a.otherBefore, 0.22));
    QVERIFY(near(a.otherAfter, 0.17));
    QCOMPARE(a.values, std::string("exist 0.40 → 0.60 while F1 0.22 → 0.17"));
    QCOMPARE(a.message,
             std::string("Possible reward hacking: exist rose 0.40 → 0.60 while validation F1 fell 0.22 → 0.17 (steps 1–20)"));
}

void TestHackingMonitor::risingComponentRisingF1()
{
    // The same rise of exist, but F1 goes 0.22 → 0.30: the reward is earned honestly.
    QVERIFY(HackingMonitor::scan(existRun(0.30)).empty());
    // F1 0.22 → 0.21: a drop of 0.01, within the evaluation's jitter (≤ 0.02).
    QVERIFY(HackingMonitor::scan(existRun(0.21)).empty());
}

void TestHackingMonitor::flatRun()
{
    // 60 steps, every component flat, F1 flat at every 10th step, collapse metrics healthy.
    MetricSeries m;
    m["rewards/exist/mean"] = flat(0.7, 60);
    m["rewards/partial/mean"] = flat(0.4, 60);
    m["completions/distinct_answers_per_group"] = flat(3.0, 60);
    m["completions/top_answer_share"] = flat(0.2, 60);
    for (int64_t s = 0; s <= 60; s += 10)
        m["eval/f1"].emplace_back(s, 0.5);
    QVERIFY(HackingMonitor::scan(m).empty());
}

void TestHackingMonitor::disagreementWithoutEval()
{
    // No eval/f1: marker 0.41 → 0.58 (rise 0.17 > 0.05) while partial 0.60 → 0.50 (falls
    // 0.10 > 0.05) over [1, 20].
    MetricSeries m;
    m["rewards/marker/mean"] = stepUp(0.41, 0.58, 20);
    m["rewards/partial/mean"] = stepUp(0.60, 0.50, 20);
    std::vector<HackingAlert> alerts = HackingMonitor::scan(m);
    QCOMPARE(alerts.size(), size_t(1));
    const HackingAlert &a = alerts[0];
    QCOMPARE(a.kind, AlertKind::Disagreement);
    QCOMPARE(a.components, (std::vector<std::string>{"marker", "partial"}));
    QCOMPARE(a.from, int64_t(1));
    QCOMPARE(a.to, int64_t(20));
    QVERIFY(near(a.before, 0.41));
    QVERIFY(near(a.after, 0.58));
    QVERIFY(near(a.otherBefore, 0.60));
    QVERIFY(near(a.otherAfter, 0.50));
    QCOMPARE(a.values, std::string("marker 0.41 → 0.58 while partial 0.60 → 0.50"));

    // partial falls only 0.03 (≤ 0.05): the components still agree.
    m["rewards/partial/mean"] = stepUp(0.60, 0.57, 20);
    QVERIFY(HackingMonitor::scan(m).empty());

    // With validation metrics the F1 rule decides, and a flat F1 clears the run.
    m["rewards/partial/mean"] = stepUp(0.60, 0.50, 20);
    m["eval/f1"] = {{0, 0.3}, {20, 0.3}};
    QVERIFY(HackingMonitor::scan(m).empty());

    // The length penalty is no component: its rise against partial's fall says nothing.
    MetricSeries o;
    o["rewards/overlong/mean"] = stepUp(-0.5, -0.1, 20);
    o["rewards/partial/mean"] = stepUp(0.60, 0.50, 20);
    QVERIFY(HackingMonitor::scan(o).empty());
}

void TestHackingMonitor::collapseDistinctAnswers()
{
    // 3.0 distinct answers per group except step 7 (1.2 ≤ 1.5): one alert at step 7.
    MetricSeries m;
    m["completions/distinct_answers_per_group"] = flat(3.0, 10);
    m["completions/distinct_answers_per_group"][6].second = 1.2;
    std::vector<HackingAlert> alerts = HackingMonitor::scan(m);
    QCOMPARE(alerts.size(), size_t(1));
    QCOMPARE(alerts[0].kind, AlertKind::Collapse);
    QCOMPARE(alerts[0].metric, std::string("completions/distinct_answers_per_group"));
    QVERIFY(alerts[0].components.empty());
    QCOMPARE(alerts[0].from, int64_t(7));
    QCOMPARE(alerts[0].to, int64_t(7));
    QVERIFY(near(alerts[0].after, 1.2));
    QVERIFY(near(alerts[0].threshold, 1.5));
    QCOMPARE(alerts[0].message, std::string("Completions collapsing: distinct answers per group 1.20 (≤ 1.50) (step 7)"));

    // The threshold itself counts (≤); just above it does not.
    m["completions/distinct_answers_per_group"][6].second = 1.5;
    QCOMPARE(HackingMonitor::scan(m).size(), size_t(1));
    m["completions/distinct_answers_per_group"][6].second = 1.51;
    QVERIFY(HackingMonitor::scan(m).empty());
}

void TestHackingMonitor::collapseTopShare()
{
    // Top answer share 0.2, then 0.55, 0.6, 0.7 at steps 4–6 (> 0.5), then 0.5 (not above):
    // one alert over [4, 6] from 0.55 to 0.70.
    MetricSeries m;
    m["completions/top_answer_share"] = {{1, 0.2}, {2, 0.2}, {3, 0.2}, {4, 0.55}, {5, 0.6}, {6, 0.7}, {7, 0.5}};
    const std::vector<HackingAlert> alerts = HackingMonitor::scan(m);
    QCOMPARE(alerts.size(), size_t(1));
    QCOMPARE(alerts[0].kind, AlertKind::Collapse);
    QCOMPARE(alerts[0].metric, std::string("completions/top_answer_share"));
    QCOMPARE(alerts[0].from, int64_t(4));
    QCOMPARE(alerts[0].to, int64_t(6));
    QVERIFY(near(alerts[0].before, 0.55));
    QVERIFY(near(alerts[0].after, 0.70));
    QCOMPARE(alerts[0].values, std::string("top answer share 0.55 → 0.70 (> 0.50)"));

    // A single step at 0.6.
    MetricSeries one;
    one["completions/top_answer_share"] = {{1, 0.2}, {2, 0.6}, {3, 0.2}};
    QCOMPARE(HackingMonitor::scan(one).size(), size_t(1));
    QCOMPARE(HackingMonitor::scan(one)[0].from, int64_t(2));
}

void TestHackingMonitor::thresholdsMoveTriggers()
{
    const MetricSeries run = existRun(0.17); // rise 0.20, F1 drop 0.05 (see above)
    HackingSettings s;
    s.riseThreshold = 0.25; // above the rise
    QVERIFY(HackingMonitor::scan(run, s).empty());
    s = {};
    s.f1DropThreshold = 0.06; // above the drop
    QVERIFY(HackingMonitor::scan(run, s).empty());
    s = {};
    // W = 10: at step 20 the window [11, 20] is all 0.60; at step 15 ([6, 15], halves
    // 0.40 / 0.60) no evaluation lies in (6, 15], so F1 cannot judge it.
    s.window = 10;
    QVERIFY(HackingMonitor::scan(run, s).empty());

    // Collapse: with min 1.0 the 1.2 step passes; with min 3.0 every step (3.0 ≤ 3.0)
    // collapses, one alert over [1, 10]; with max share 0.8 the 0.6 step passes.
    MetricSeries c;
    c["completions/distinct_answers_per_group"] = flat(3.0, 10);
    c["completions/distinct_answers_per_group"][6].second = 1.2;
    c["completions/top_answer_share"] = {{1, 0.2}, {2, 0.6}};
    s = {};
    s.minDistinctAnswers = 1.0;
    s.maxTopAnswerShare = 0.8;
    QVERIFY(HackingMonitor::scan(c, s).empty());
    s.minDistinctAnswers = 3.0;
    const std::vector<HackingAlert> all = HackingMonitor::scan(c, s);
    QCOMPARE(all.size(), size_t(1));
    QCOMPARE(all[0].from, int64_t(1));
    QCOMPARE(all[0].to, int64_t(10));

    // setSettings judges the steps already fed again.
    HackingMonitor monitor;
    feed(monitor, run);
    QCOMPARE(monitor.alerts().size(), size_t(1));
    HackingSettings strict;
    strict.riseThreshold = 0.25;
    monitor.setSettings(strict);
    QVERIFY(monitor.alerts().empty());
    monitor.setSettings({});
    QCOMPARE(monitor.alerts().size(), size_t(1));
    QCOMPARE(monitor.alerts()[0].to, int64_t(20));
}

void TestHackingMonitor::consecutiveAlertsMerge()
{
    // exist 0.40 → 0.60 as above but to step 22; F1 0.22 at step 0, 0.17 at 20, 21, 22.
    //   step 20, window [1, 20]: halves 0.40 / 0.60, F1 0.22 → 0.17: alert [1, 20];
    //   step 21, window [2, 21]: first half (9 × 0.40 + 0.60) / 10 = 0.42, second 0.60;
    //   step 22, window [3, 22]: first half 0.44, second 0.60.
    // Each window overlaps the alert: one alert over [1, 22], from exist 0.40 (the first
    // window's first half) to 0.60, F1 0.22 → 0.17.
    MetricSeries m;
    m["rewards/exist/mean"] = stepUp(0.40, 0.60, 22);
    m["eval/f1"] = {{0, 0.22}, {20, 0.17}, {21, 0.17}, {22, 0.17}};
    const std::vector<HackingAlert> alerts = HackingMonitor::scan(m);
    QCOMPARE(alerts.size(), size_t(1));
    QCOMPARE(alerts[0].from, int64_t(1));
    QCOMPARE(alerts[0].to, int64_t(22));
    QVERIFY(near(alerts[0].before, 0.40));
    QVERIFY(near(alerts[0].after, 0.60));
    QCOMPARE(alerts[0].message,
             std::string("Possible reward hacking: exist rose 0.40 → 0.60 while validation F1 fell 0.22 → 0.17 (steps 1–22)"));

    // Collapse at steps 3, 4 and again at 6: steps 3–4 merge, step 6 is a new alert.
    MetricSeries c;
    c["completions/top_answer_share"] = {{1, 0.2}, {2, 0.2}, {3, 0.9}, {4, 0.9}, {5, 0.2}, {6, 0.9}};
    const std::vector<HackingAlert> two = HackingMonitor::scan(c);
    QCOMPARE(two.size(), size_t(2));
    QCOMPARE(two[0].from, int64_t(3));
    QCOMPARE(two[0].to, int64_t(4));
    QCOMPARE(two[1].from, int64_t(6));
    QCOMPARE(two[1].to, int64_t(6));
}

void TestHackingMonitor::noisyButFlat()
{
    // Components at a constant plus a period-4 noise (+0.05, −0.03, +0.02, −0.04; sum 0),
    // 100 steps. Any 10 consecutive steps hold two whole periods and two neighbours of the
    // pattern, which sum to 0.02, −0.01, −0.02 or 0.01: a half-window mean is within 0.002
    // of the constant and no rise exceeds 0.004, although single steps jump by up to 0.09.
    // F1 jitters by up to 0.04 at every 10th step, and the collapse metrics stay healthy.
    const double noise[4] = {0.05, -0.03, 0.02, -0.04};
    MetricSeries m;
    for (int64_t s = 1; s <= 100; ++s) {
        m["rewards/exist/mean"].emplace_back(s, 0.6 + noise[s % 4]);
        m["rewards/partial/mean"].emplace_back(s, 0.4 - noise[(s + 1) % 4]);
        m["completions/distinct_answers_per_group"].emplace_back(s, 2.0 + noise[s % 4]);
        m["completions/top_answer_share"].emplace_back(s, 0.40 + noise[(s + 2) % 4]);
    }
    const double f1[4] = {0.30, 0.27, 0.31, 0.28};
    for (int64_t s = 0; s <= 100; s += 10)
        m["eval/f1"].emplace_back(s, f1[(s / 10) % 4]);
    QVERIFY(HackingMonitor::scan(m).empty());
    // Without F1, the disagreement rule sees the same flat components.
    m.erase("eval/f1");
    QVERIFY(HackingMonitor::scan(m).empty());
}

void TestHackingMonitor::incrementalMatchesScan()
{
    // Fed step by step: nothing until step 20, then one alert whose range grows; a step
    // delivered again (a store read racing the live feed) is not judged twice.
    MetricSeries m;
    m["rewards/exist/mean"] = stepUp(0.40, 0.60, 22);
    m["eval/f1"] = {{0, 0.22}, {20, 0.17}, {21, 0.17}, {22, 0.17}};
    HackingMonitor monitor;
    monitor.update(0, {{"eval/f1", 0.22}});
    for (int64_t s = 1; s <= 22; ++s) {
        std::vector<std::pair<std::string, double>> metrics{{"rewards/exist/mean", s <= 10 ? 0.40 : 0.60}};
        if (s >= 20)
            metrics.emplace_back("eval/f1", 0.17);
        QCOMPARE(monitor.update(s, metrics), s >= 20); // added at 20, extended at 21 and 22
        QVERIFY(!monitor.update(s, metrics));
        QCOMPARE(monitor.lastStep(), s);
        QCOMPARE(monitor.alerts().size(), size_t(s < 20 ? 0 : 1));
        if (s >= 20)
            QCOMPARE(monitor.alerts()[0].to, s);
    }
    const std::vector<HackingAlert> scanned = HackingMonitor::scan(m);
    QCOMPARE(scanned.size(), size_t(1));
    QCOMPARE(scanned[0].message, monitor.alerts()[0].message);
    // NaN and infinite values are ignored.
    monitor.update(23, {{"rewards/exist/mean", std::nan("")}, {"completions/top_answer_share", INFINITY}});
    QCOMPARE(monitor.alerts().size(), size_t(1));
    monitor.reset();
    QVERIFY(monitor.alerts().empty());
    QCOMPARE(monitor.lastStep(), int64_t(-1));
}

QTEST_APPLESS_MAIN(TestHackingMonitor)
#include "tst_hackingmonitor.moc"
