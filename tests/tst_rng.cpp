// util::Rng (xoshiro256** seeded through splitmix64) and util::fnv1a64 against values
// computed independently with a 20-line Python transcription of the reference C code
// (Vigna's splitmix64.c and xoshiro256starstar.c; FNV-1a with the 64-bit offset basis and
// prime). Exact integers: no tolerance. The synthetic corpus relies on these bits being
// the same on every platform.
#include "util/rng.h"

#include <QtTest>

#include <map>
#include <stdexcept>

using rwb::util::Rng;

class TestRng : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void splitMix64Reference();
    void xoshiroReference_data();
    void xoshiroReference();
    void forStreamReference();
    void belowReference();
    void fnv1aReference();
    void belowIsUniformEnough();
    void weightedFollowsWeights();
    void badArguments();
};

void TestRng::splitMix64Reference()
{
    uint64_t state = 0;
    QCOMPARE(rwb::util::splitMix64(state), 0xe220a8397b1dcdafULL);
    QCOMPARE(rwb::util::splitMix64(state), 0x6e789e6aa1b965f4ULL);
    QCOMPARE(rwb::util::splitMix64(state), 0x06c45d188009454fULL);
}

void TestRng::xoshiroReference_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<quint64>("first");
    QTest::addColumn<quint64>("second");
    QTest::addColumn<quint64>("third");
    QTest::newRow("seed 0") << quint64(0) << quint64(0x99ec5f36cb75f2b4ULL) << quint64(0xbf6e1f784956452aULL)
                            << quint64(0x1a5f849d4933e6e0ULL);
    QTest::newRow("seed 12345") << quint64(12345) << quint64(0xbe6a36374160d49bULL) << quint64(0x214aaa0637a688c6ULL)
                                << quint64(0xf69d16de9954d388ULL);
}

void TestRng::xoshiroReference()
{
    QFETCH(quint64, seed);
    QFETCH(quint64, first);
    QFETCH(quint64, second);
    QFETCH(quint64, third);
    Rng rng(seed);
    QCOMPARE(quint64(rng.next()), first);
    QCOMPARE(quint64(rng.next()), second);
    QCOMPARE(quint64(rng.next()), third);
}

void TestRng::forStreamReference()
{
    // s = 1; m = splitmix(s); s = m ^ 2; m = splitmix(s); s = m ^ 3; Rng(splitmix(s)).
    Rng rng = Rng::forStream(1, 2, 3);
    QCOMPARE(rng.next(), 0xca69c028e6e283e8ULL);
    QCOMPARE(rng.next(), 0xc86df1a5f8f50802ULL);
    // Different streams differ.
    QVERIFY(Rng::forStream(1, 2, 3).next() != Rng::forStream(1, 2, 4).next());
    QVERIFY(Rng::forStream(1, 2, 3).next() != Rng::forStream(1, 3, 3).next());
}

void TestRng::belowReference()
{
    // Rejection below 2^64 mod 10 = 6, then r mod 10.
    Rng rng(7);
    const uint64_t expected[] = {4, 4, 8, 4, 4, 1, 6, 6};
    for (uint64_t e : expected)
        QCOMPARE(rng.below(10), e);
}

void TestRng::fnv1aReference()
{
    QCOMPARE(rwb::util::fnv1a64(""), 0xcbf29ce484222325ULL);
    QCOMPARE(rwb::util::fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
    QCOMPARE(rwb::util::fnv1a64("株式会社"), 0xbaddfb610dc25b96ULL);
}

void TestRng::belowIsUniformEnough()
{
    // 60,000 draws in 6 bins: each bin 10,000 ± 400 (about 4.4 standard deviations).
    Rng rng(2024);
    std::map<uint64_t, int> counts;
    for (int i = 0; i < 60000; ++i)
        ++counts[rng.below(6)];
    QCOMPARE(counts.size(), size_t(6));
    for (const auto &[bin, n] : counts)
        QVERIFY2(n > 9600 && n < 10400, qPrintable(QString("bin %1: %2").arg(bin).arg(n)));
    // between() is inclusive at both ends.
    bool sawLo = false, sawHi = false;
    for (int i = 0; i < 1000; ++i) {
        const int64_t v = rng.between(-2, 2);
        QVERIFY(v >= -2 && v <= 2);
        sawLo = sawLo || v == -2;
        sawHi = sawHi || v == 2;
    }
    QVERIFY(sawLo && sawHi);
}

void TestRng::weightedFollowsWeights()
{
    // Weights 1 : 0 : 3 over 40,000 draws: index 1 never, index 2 in 30,000 ± 450.
    Rng rng(99);
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < 40000; ++i)
        ++counts[rng.weighted({1, 0, 3})];
    QCOMPARE(counts[1], 0);
    QVERIFY2(counts[2] > 29550 && counts[2] < 30450, qPrintable(QString::number(counts[2])));
    // chance() at the edges.
    QVERIFY(!rng.chance(0.0));
    QVERIFY(rng.chance(1.0));
}

void TestRng::badArguments()
{
    Rng rng(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rng.below(0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rng.weighted({0, 0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rng.between(3, 2));
}

QTEST_APPLESS_MAIN(TestRng)
#include "tst_rng.moc"
