// eval/smoothing: the debiased EMA the curves view draws and `rwb grpo table` reports,
// and eval/revisits: the training reward on the prompts drawn more than once, both on
// values worked out by hand.
#include "eval/revisits.h"
#include "eval/smoothing.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace rwb::eval;

namespace {
constexpr double kTol = 1e-12;
}

class TestSmoothing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void emaDebiased();
    void weightForSteps();
    void riseOverARun();
    void riseNeedsEnoughPoints();
    void revisitsPairTheSamePrompts();
    void revisitsNeedTwoVisits();
};

void TestSmoothing::emaDebiased()
{
    // w = 0.5 on [1, 0, 1, 0]: last = 0.5, 0.25, 0.625, 0.3125; 1 − w^k = 0.5, 0.75,
    // 0.875, 0.9375; smoothed = 1, 1/3, 5/7, 1/3.
    const std::vector<double> s = emaSmooth({1, 0, 1, 0}, 0.5);
    QCOMPARE(s.size(), size_t(4));
    QVERIFY(std::abs(s[0] - 1.0) < kTol);
    QVERIFY(std::abs(s[1] - 1.0 / 3.0) < kTol);
    QVERIFY(std::abs(s[2] - 5.0 / 7.0) < kTol);
    QVERIFY(std::abs(s[3] - 1.0 / 3.0) < kTol);
    // Weight 0: unchanged.
    QCOMPARE(emaSmooth({1, 0, 1}, 0.0), (std::vector<double>{1, 0, 1}));
    // A NaN passes through and does not move the average: [1, NaN, 0] → 1, NaN, 0.25 / 0.75.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> g = emaSmooth({1, nan, 0}, 0.5);
    QVERIFY(std::abs(g[0] - 1.0) < kTol);
    QVERIFY(std::isnan(g[1]));
    QVERIFY(std::abs(g[2] - 1.0 / 3.0) < kTol);
}

void TestSmoothing::weightForSteps()
{
    QCOMPARE(emaWeightForSteps(10), 0.9);
    QCOMPARE(emaWeightForSteps(4), 0.75);
    QCOMPARE(emaWeightForSteps(1), 0.0);
    QCOMPARE(emaWeightForSteps(0), 0.0);
}

void TestSmoothing::riseOverARun()
{
    // A constant 0.5 for steps 1–10 and then 0.8 for steps 11–30, w = 0.9:
    // at step 10 every point seen is 0.5, so the debiased EMA is exactly 0.5.
    // At step 30: last_30 = 0.8 (1 − 0.9^20) + 0.9^20 · last_10, last_10 = 0.5 (1 − 0.9^10),
    // debiased by 1 − 0.9^30.
    std::vector<int64_t> steps;
    std::vector<double> values;
    for (int s = 1; s <= 30; ++s) {
        steps.push_back(s);
        values.push_back(s <= 10 ? 0.5 : 0.8);
    }
    const auto r = emaRise(steps, values, 0.9, 10);
    QVERIFY(r.has_value());
    QCOMPARE(r->fromStep, int64_t(10));
    QCOMPARE(r->toStep, int64_t(30));
    QVERIFY(std::abs(r->from - 0.5) < kTol);
    const double last10 = 0.5 * (1 - std::pow(0.9, 10));
    const double last30 = 0.8 * (1 - std::pow(0.9, 20)) + std::pow(0.9, 20) * last10;
    const double expected = last30 / (1 - std::pow(0.9, 30)); // 0.7752 (0.74233 / 0.95761)
    QVERIFY(std::abs(r->to - expected) < kTol);
    QVERIFY(std::abs(r->rise() - (expected - 0.5)) < kTol);
    QVERIFY(r->rise() > 0.275 && r->rise() < 0.276); // 0.2752
}

void TestSmoothing::riseNeedsEnoughPoints()
{
    // Ten points: the 10th is both ends — no rise to report.
    std::vector<int64_t> steps{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    std::vector<double> values(10, 0.4);
    QVERIFY(!emaRise(steps, values, 0.9, 10).has_value());
    steps.push_back(11);
    values.push_back(0.4);
    const auto r = emaRise(steps, values, 0.9, 10);
    QVERIFY(r.has_value());
    QVERIFY(std::abs(r->rise()) < kTol);
    // A non-finite point is skipped when counting: the 10th finite point is step 11.
    values[3] = std::numeric_limits<double>::quiet_NaN();
    steps.push_back(12);
    values.push_back(0.4);
    QCOMPARE(emaRise(steps, values, 0.9, 10)->fromStep, int64_t(11));
    // Mismatched lengths are a programming error.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, emaRise({1, 2}, {0.1}, 0.9, 1));
}

void TestSmoothing::revisitsPairTheSamePrompts()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // a: drawn at steps 1 (0, 1: mean 0.5), 4 (0) and 5 (1, 1: mean 1) → first 0.5, last 1.
    // b: drawn at steps 2 (0.2) and 3 (0.4, NaN left out: 0.4) → first 0.2, last 0.4.
    // c: drawn at step 6 only, twice → left out. d: its step 7 has only a NaN → one visit, left out.
    // Given out of order: the visits are sorted by step, not by arrival.
    const std::vector<PromptVisit> visits = {
        {"a", 5, 1.0}, {"b", 3, 0.4}, {"a", 1, 0.0}, {"c", 6, 0.9}, {"a", 4, 0.0}, {"b", 2, 0.2},
        {"a", 1, 1.0}, {"b", 3, nan}, {"c", 6, 0.1}, {"a", 5, 1.0}, {"d", 7, nan}, {"d", 8, 0.3}};
    const auto r = revisitRise(visits);
    QVERIFY(r.has_value());
    QCOMPARE(r->prompts, size_t(2));
    QVERIFY(std::abs(r->first - 0.35) < kTol);  // (0.5 + 0.2) / 2
    QVERIFY(std::abs(r->last - 0.7) < kTol);    // (1 + 0.4) / 2
    QVERIFY(std::abs(r->difference.estimate - 0.35) < kTol);
    // Resamples of the two differences {0.5, 0.2} have means 0.2, 0.35 or 0.5: the
    // interval lies within [0.2, 0.5] and holds the estimate.
    QVERIFY(r->difference.low >= 0.2 - kTol && r->difference.high <= 0.5 + kTol);
    QVERIFY(r->difference.low <= 0.35 && r->difference.high >= 0.35);
}

void TestSmoothing::revisitsNeedTwoVisits()
{
    QVERIFY(!revisitRise({}).has_value());
    // Many completions of each prompt, but every prompt at one step only.
    QVERIFY(!revisitRise({{"a", 1, 0.1}, {"a", 1, 0.9}, {"b", 2, 0.5}}).has_value());
}

QTEST_APPLESS_MAIN(TestSmoothing)
#include "tst_smoothing.moc"
