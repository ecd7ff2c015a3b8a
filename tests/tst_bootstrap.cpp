// eval/bootstrap: paired bootstrap intervals of a mean difference and of an F1
// difference, on data whose answers are known by hand.
#include "eval/bootstrap.h"

#include <QtTest>

using namespace rwb::eval;

class TestBootstrap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameScoresGiveZero();
    void constantShiftIsExact();
    void intervalCoversTheEstimate();
    void deterministicPerSeed();
    void f1OfCounts();
    void f1Difference();
    void mismatchedSizesAreRefused();
};

void TestBootstrap::sameScoresGiveZero()
{
    const std::vector<double> a{0.1, 0.5, 0.9, 0.3};
    const Interval i = pairedMeanDifference(a, a, 500, 3);
    QCOMPARE(i.estimate, 0.0);
    QCOMPARE(i.low, 0.0);
    QCOMPARE(i.high, 0.0);
}

void TestBootstrap::constantShiftIsExact()
{
    // Every example gains 0.25: every resample's mean difference is 0.25.
    const std::vector<double> a{0.0, 0.5, 0.25, 0.75};
    std::vector<double> b;
    for (double x : a)
        b.push_back(x + 0.25);
    const Interval i = pairedMeanDifference(a, b, 500, 3);
    QCOMPARE(i.estimate, 0.25);
    QCOMPARE(i.low, 0.25);
    QCOMPARE(i.high, 0.25);
}

void TestBootstrap::intervalCoversTheEstimate()
{
    // 100 examples, half gain 1, half lose nothing: the difference is 0.5, and the
    // resampled share of gainers has sd √(0.25/100) = 0.05, so the 95 % interval is
    // about 0.5 ± 0.098 (±0.03 for the bootstrap's own noise).
    std::vector<double> a(100, 0.0), b(100, 0.0);
    for (int i = 0; i < 50; ++i)
        b[static_cast<size_t>(i)] = 1.0;
    const Interval i = pairedMeanDifference(a, b, 4000, 7);
    QCOMPARE(i.estimate, 0.5);
    QVERIFY2(std::abs(i.low - 0.402) < 0.03, qPrintable(QString::number(i.low)));
    QVERIFY2(std::abs(i.high - 0.598) < 0.03, qPrintable(QString::number(i.high)));
}

void TestBootstrap::deterministicPerSeed()
{
    const std::vector<double> a{0.1, 0.2, 0.3, 0.4, 0.5}, b{0.3, 0.1, 0.6, 0.4, 0.9};
    const Interval x = pairedMeanDifference(a, b, 300, 11);
    const Interval y = pairedMeanDifference(a, b, 300, 11);
    QCOMPARE(x.low, y.low);
    QCOMPARE(x.high, y.high);
    QCOMPARE(x.estimate, (0.2 - 0.1 + 0.3 + 0.0 + 0.4) / 5.0);
    QVERIFY(x.low <= x.estimate && x.estimate <= x.high);
}

void TestBootstrap::f1OfCounts()
{
    // 4 examples: 3 outputs, 3 golds that exist, 2 right: P = 2/3, R = 2/3, F1 = 2/3.
    const std::vector<F1Counts> c{{true, true, true}, {true, true, true}, {true, false, false}, {false, true, false}};
    QCOMPARE(f1Of(c, {0, 1, 2, 3}), 2.0 / 3.0);
    // Example 0 twice and 3 once: P = 2/2, R = 2/3, F1 = 0.8.
    QCOMPARE(f1Of(c, {0, 0, 3}), 0.8);
    QCOMPARE(f1Of(c, {2, 3}), 0.0);
}

void TestBootstrap::f1Difference()
{
    // Before: 1 of 4 right; after: 3 of 4 right (every example outputs, every gold exists).
    const std::vector<F1Counts> a{{true, true, true}, {true, true, false}, {true, true, false}, {true, true, false}};
    const std::vector<F1Counts> b{{true, true, true}, {true, true, true}, {true, true, true}, {true, true, false}};
    const Interval i = pairedF1Difference(a, b, 1000, 5);
    QCOMPARE(i.estimate, 0.5);
    // Each example's difference is 0 or +1 and F1 = accuracy here, so no resample is below 0 or above 1.
    QVERIFY(i.low >= 0.0 && i.high <= 1.0 && i.low <= 0.5 && i.high >= 0.5);
}

void TestBootstrap::mismatchedSizesAreRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairedMeanDifference({1.0}, {1.0, 2.0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pairedMeanDifference({}, {}));
}

QTEST_APPLESS_MAIN(TestBootstrap)
#include "tst_bootstrap.moc"
