// core/train: group advantages, the over-long penalty, dynamic sampling and the clipped GRPO
// loss in each variant, against values worked out by hand in the comments beside each check.
// Tensors are float64 so that the hand values hold to 1e-9 (kTol) unless a check says otherwise.
//
// Shape legend: B = prompts, G = group size, R = B·G rows, T = completion tokens.
#include "train/advantages.h"
#include "train/collapsemetrics.h"
#include "train/dynamicsampling.h"
#include "train/grpoloss.h"
#include "train/overlongpenalty.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace rwb::train;

namespace {

// Tolerance for float64 comparisons against hand values.
constexpr double kTol = 1e-9;

torch::Tensor f64(const std::vector<double> &v)
{
    return torch::tensor(v, torch::dtype(torch::kFloat64));
}

torch::Tensor mat64(const std::vector<std::vector<double>> &rows)
{
    std::vector<torch::Tensor> t;
    for (const auto &r : rows)
        t.push_back(f64(r));
    return torch::stack(t);
}

bool near(double a, double b, double tol = kTol)
{
    return std::abs(a - b) <= tol;
}

#define QNEAR(actual, expected)                                                                       \
    do {                                                                                              \
        const double a_ = (actual), e_ = (expected);                                                  \
        if (!near(a_, e_))                                                                            \
            QFAIL(qPrintable(QStringLiteral("%1 = %2, expected %3").arg(#actual).arg(a_, 0, 'g', 12).arg(e_, 0, 'g', 12))); \
    } while (0)

// The loss batch: R = 6 rows (2 groups of 3), T = 4, old log-prob −1 everywhere and
// new = old + log r, so each active token's ratio r is the number written below.
// Padding tokens get r = 5 (would be clipped and counted if the mask leaked).
//
//   row  A     |o|  ratios (active)        per-token loss −min(r·A, clip(r, 0.8, 1.2)·A)
//   0   +1     2   1.1, 1.3               −1.1, −1.2 (1.3 clipped high)      sum −2.3  mean −1.15
//   1   −1     3   0.7, 1.3, 1.0          +0.8 (0.7 clipped low), +1.3, +1.0 sum  3.1  mean  1.0333…
//   2    0     4   1.5, 0.5, 1.0, 1.0      0, 0, 0, 0 (A = 0: never clipped) sum  0    mean  0
//   3   +2     2   0.9, 1.25              −1.8, −2.4 (1.25 clipped high)     sum −4.2  mean −2.1
//   4   −2     3   0.75, 1.1, 1.0         +1.6 (0.75 clipped low), +2.2, +2  sum  5.8  mean  1.9333…
//   5   +0.5   4   1.0, 1.1, 1.0, 0.9     −0.5, −0.55, −0.5, −0.45           sum −2.0  mean −0.5
//
// N = 2+3+4+2+3+4 = 18 active tokens; Σ = −2.3+3.1+0−4.2+5.8−2.0 = 0.4.
const std::vector<std::vector<double>> kRatios = {
    {1.1, 1.3, 5, 5}, {0.7, 1.3, 1.0, 5}, {1.5, 0.5, 1.0, 1.0},
    {0.9, 1.25, 5, 5}, {0.75, 1.1, 1.0, 5}, {1.0, 1.1, 1.0, 0.9}};
const std::vector<double> kAdvantages = {1, -1, 0, 2, -2, 0.5};
const std::vector<int64_t> kLengths = {2, 3, 4, 2, 3, 4};

GrpoLossInputs lossBatch()
{
    GrpoLossInputs in;
    in.oldLogProbs = torch::full({6, 4}, -1.0, torch::kFloat64); // [R, T]
    in.newLogProbs = (in.oldLogProbs + mat64(kRatios).log()).requires_grad_(true);
    in.advantages = f64(kAdvantages); // [R]
    in.mask = torch::zeros({6, 4}, torch::kBool);
    for (int64_t i = 0; i < 6; ++i)
        in.mask[i].slice(/*dim=*/0, /*start=*/0, /*end=*/kLengths[i]).fill_(true);
    return in;
}

std::string errorOf(const std::function<void()> &f)
{
    try {
        f();
    } catch (const c10::Error &e) {
        return e.what_without_backtrace();
    }
    return {};
}

} // namespace

class TestGrpoLoss : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void advantages_data();
    void advantages();
    void advantagesGroupStats();
    void groupOfOne();
    void equalRewardsGiveExactlyZero();
    void advantagesRejectBadInput();
    void names();
    void overlongPenalty_data();
    void overlongPenalty();
    void dynamicSampling();
    void collapse();
    void lossVariants_data();
    void lossVariants();
    void clipHigher();
    void clipRatios();
    void perTokenAdvantages();
    void advantagesWithNone();
    void klZeroWhenRefEqualsNew();
    void klHandPicked();
    void klNonNegative();
    void entropyMetric();
    void gradientIsPolicyGradient_data();
    void gradientIsPolicyGradient();
    void gradientZeroOnClippedTokens();
    void paddingMayHoldInfinity();
    void nanIsCaught_data();
    void nanIsCaught();
    void badOptions();
};

// Rewards, 2 groups of 3: group 0 = {1, 0, 0.5}, group 1 = {1, 1, 1} (all equal).
//   group 0: mean 0.5, deviations {0.5, −0.5, 0}, Bessel var (0.25 + 0.25 + 0)/2 = 0.25, std 0.5
//   group 1: mean 1, std 0
//   batch:   mean 4.5/6 = 0.75, squared deviations 0.0625, 0.5625, 0.0625, 3 × 0.0625 → 0.875,
//            var 0.875/5 = 0.175, std √0.175 = 0.41833001326704
// group: A = 0.5/(0.5 + 1e-4) = 0.99980003999 for row 0, its negative for row 1, 0 elsewhere;
//        group 1's 0/(0 + 1e-4) = 0.
// batch: A = 0.5/(0.41833001326704 + 1e-4) = 1.19494296333 (the mean stays the group's).
// none:  A = r − group mean = {0.5, −0.5, 0, 0, 0, 0}.
void TestGrpoLoss::advantages_data()
{
    QTest::addColumn<int>("scale");
    QTest::addColumn<std::vector<double>>("expected");
    const double g = 0.5 / 0.5001;
    const double b = 0.5 / (std::sqrt(0.175) + 1e-4);
    QTest::newRow("group") << int(ScaleRewards::Group) << std::vector<double>{g, -g, 0, 0, 0, 0};
    QTest::newRow("batch") << int(ScaleRewards::Batch) << std::vector<double>{b, -b, 0, 0, 0, 0};
    QTest::newRow("none") << int(ScaleRewards::None) << std::vector<double>{0.5, -0.5, 0, 0, 0, 0};
}

void TestGrpoLoss::advantages()
{
    QFETCH(int, scale);
    QFETCH(std::vector<double>, expected);
    const GroupAdvantages a = groupAdvantages(f64({1, 0, 0.5, 1, 1, 1}), /*groupSize=*/3, ScaleRewards(scale));
    QCOMPARE(a.advantages.sizes(), torch::IntArrayRef({6}));
    QCOMPARE(a.advantages.scalar_type(), torch::kFloat64);
    for (int i = 0; i < 6; ++i)
        QNEAR(a.advantages[i].item<double>(), expected[size_t(i)]);
    // Whatever the scaling, the group statistics and the zero-std count are the same.
    QNEAR(a.groupMean[0].item<double>(), 0.5);
    QNEAR(a.groupMean[1].item<double>(), 1.0);
    QNEAR(a.groupStd[0].item<double>(), 0.5);
    QNEAR(a.groupStd[1].item<double>(), 0.0);
    QNEAR(a.batchStd, std::sqrt(0.175));
    QCOMPARE(a.zeroStd[0].item<bool>(), false);
    QCOMPARE(a.zeroStd[1].item<bool>(), true);
    QNEAR(a.fracRewardZeroStd, 0.5); // 1 of 2 groups
}

// 3 groups of 2 from float32 rewards: {0, 1} → mean 0.5, std √((0.25 + 0.25)/1) = 0.70710678;
// {0.3, 0.3} → zero std; {2, 2} → zero std. frac_reward_zero_std = 2/3.
// group A row 0 = −0.5/(0.70710678 + 1e-4) = −0.70700679 (float32: tolerance 1e-6).
void TestGrpoLoss::advantagesGroupStats()
{
    const torch::Tensor r = torch::tensor({0.0f, 1.0f, 0.3f, 0.3f, 2.0f, 2.0f});
    const GroupAdvantages a = groupAdvantages(r, /*groupSize=*/2);
    QCOMPARE(a.advantages.scalar_type(), torch::kFloat32);
    QVERIFY(near(a.groupStd[0].item<double>(), std::sqrt(0.5), 1e-6));
    QVERIFY(near(a.advantages[0].item<double>(), -0.5 / (std::sqrt(0.5) + 1e-4), 1e-6));
    QVERIFY(near(a.advantages[1].item<double>(), 0.5 / (std::sqrt(0.5) + 1e-4), 1e-6));
    QCOMPARE(a.advantages.slice(0, 2).abs().max().item<double>(), 0.0);
    QVERIFY(near(a.fracRewardZeroStd, 2.0 / 3.0, 1e-12));
}

// G = 1: torch's Bessel std of one value is NaN; ours is 0, so every advantage is 0, every
// group counts as zero std, and dynamic sampling keeps nothing. R = 1 in batch mode: the same.
void TestGrpoLoss::groupOfOne()
{
    for (const ScaleRewards s : {ScaleRewards::Group, ScaleRewards::Batch, ScaleRewards::None}) {
        const GroupAdvantages a = groupAdvantages(f64({0.2, 0.9}), /*groupSize=*/1, s);
        QVERIFY(a.advantages.isfinite().all().item<bool>());
        QCOMPARE(a.advantages.abs().max().item<double>(), 0.0);
        QCOMPARE(a.groupStd.abs().max().item<double>(), 0.0);
        QNEAR(a.fracRewardZeroStd, 1.0);
    }
    const GroupAdvantages single = groupAdvantages(f64({0.7}), /*groupSize=*/1, ScaleRewards::Batch);
    QCOMPARE(single.batchStd, 0.0);
    QCOMPARE(single.advantages[0].item<double>(), 0.0);
    QVERIFY(informativeGroups(f64({0.2, 0.9}), /*groupSize=*/1).keptGroups.empty());
    // eps = 0 with a zero-std group: 0 rather than 0/0 = NaN.
    const GroupAdvantages noEps = groupAdvantages(f64({1, 1, 0, 1}), /*groupSize=*/2, ScaleRewards::Group, /*eps=*/0.0);
    QVERIFY(noEps.advantages.isfinite().all().item<bool>());
    QNEAR(noEps.advantages[2].item<double>(), -0.5 / std::sqrt(0.5)); // {0, 1}: std √0.5, no eps
}

// Three rewards of 0.7: the f64 mean is 0.6999999999999998, not 0.7, so r − mean is
// 2.2e-16 and divided by std + 1e-4 an advantage of 2.2e-12 — positive, and counted by
// clip_ratio/high as a token with A > 0. A zero-std group's advantages are exactly 0.
void TestGrpoLoss::equalRewardsGiveExactlyZero()
{
    QVERIFY(torch::full({3}, 0.7, torch::kFloat64).mean().item<double>() != 0.7); // the premise
    for (ScaleRewards s : {ScaleRewards::Group, ScaleRewards::Batch, ScaleRewards::None}) {
        const GroupAdvantages a = groupAdvantages(f64({1.0, 0.0, 0.5, 0.7, 0.7, 0.7}), /*groupSize=*/3, s);
        for (int64_t i = 3; i < 6; ++i)
            QCOMPARE(a.advantages[i].item<double>(), 0.0);
        QVERIFY(a.advantages[0].item<double>() >= 0.5); // 0.9998 (group), 1.52 (batch), 0.5 (none)
    }
}

void TestGrpoLoss::advantagesWithNone()
{
    // None (NaN, a failed judge): statistics over the group's other rows, advantage 0.
    // Group 0 = {1, None, 3}: mean 2, std √(((1−2)² + (3−2)²) / 1) = √2.
    // Group 1 = {None, 5, None}: one row left, std 0 → zero-std group, all 0.
    // Group 2 = {None, None, None}: nothing left, all 0.
    const GroupAdvantages g = groupAdvantages(f64({1, NAN, 3, NAN, 5, NAN, NAN, NAN, NAN}), /*groupSize=*/3);
    const double s = std::sqrt(2.0) + kDefaultStdEpsilon;
    const std::vector<double> expected{-1 / s, 0, 1 / s, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < expected.size(); ++i)
        QNEAR(g.advantages[static_cast<int64_t>(i)].item<double>(), expected[i]);
    QNEAR(g.groupMean[0].item<double>(), 2.0);
    QNEAR(g.groupMean[1].item<double>(), 5.0);
    QNEAR(g.groupStd[0].item<double>(), std::sqrt(2.0));
    QCOMPARE(g.groupStd[1].item<double>(), 0.0);
    QNEAR(g.fracRewardZeroStd, 2.0 / 3.0);
    // The batch std is over the three rewards given: {1, 3, 5} → std 2.
    QNEAR(g.batchStd, 2.0);
    const GroupAdvantages b = groupAdvantages(f64({1, NAN, 3, NAN, 5, NAN, NAN, NAN, NAN}), 3, ScaleRewards::Batch);
    QNEAR(b.advantages[0].item<double>(), -1.0 / (2.0 + kDefaultStdEpsilon));
    QCOMPARE(b.advantages[1].item<double>(), 0.0);
    // The same rewards without the None rows give the same advantages to the rows given.
    const GroupAdvantages plain = groupAdvantages(f64({1, 3}), /*groupSize=*/2);
    QNEAR(plain.advantages[0].item<double>(), g.advantages[0].item<double>());
}

void TestGrpoLoss::advantagesRejectBadInput()
{
    QVERIFY(errorOf([] { groupAdvantages(f64({1, 2, 3}), /*groupSize=*/2); }).find("multiple of the group size") != std::string::npos);
    QVERIFY(errorOf([] { groupAdvantages(f64({1, INFINITY}), /*groupSize=*/2); }).find("infinite") != std::string::npos);
    QVERIFY(!errorOf([] { groupAdvantages(torch::tensor({1, 2}), /*groupSize=*/2); }).empty()); // integers
    QVERIFY(!errorOf([] { groupAdvantages(f64({1, 2}), /*groupSize=*/0); }).empty());
}

void TestGrpoLoss::names()
{
    for (const char *n : {"grpo", "bnpo", "dr_grpo", "dapo"})
        QCOMPARE(toString(*lossTypeFromString(n)), std::string(n));
    for (const char *n : {"group", "batch", "none"})
        QCOMPARE(toString(*scaleRewardsFromString(n)), std::string(n));
    QVERIFY(!lossTypeFromString("GRPO"));
    QVERIFY(!scaleRewardsFromString("std"));
}

// L_max = 10, L_cache = 4: no penalty up to 6, then (6 − L)/4: 7 → −0.25, 8 → −0.5, 9 → −0.75,
// 10 → −1; beyond 10 clipped at −1. L_cache = 0: a step at L_max. L_cache = L_max: the ramp
// starts at 0 (1 → −0.1 for L_max = 10).
void TestGrpoLoss::overlongPenalty_data()
{
    QTest::addColumn<int>("maxLen");
    QTest::addColumn<int>("cacheLen");
    QTest::addColumn<std::vector<double>>("lengths");
    QTest::addColumn<std::vector<double>>("expected");
    QTest::newRow("before the ramp") << 10 << 4 << std::vector<double>{0, 3, 6} << std::vector<double>{0, 0, 0};
    QTest::newRow("on the ramp") << 10 << 4 << std::vector<double>{7, 8, 9, 10} << std::vector<double>{-0.25, -0.5, -0.75, -1};
    QTest::newRow("after the ramp") << 10 << 4 << std::vector<double>{11, 100} << std::vector<double>{-1, -1};
    QTest::newRow("no cache: a step") << 10 << 0 << std::vector<double>{9, 10, 11} << std::vector<double>{0, 0, -1};
    QTest::newRow("cache = max") << 10 << 10 << std::vector<double>{0, 1, 5, 10} << std::vector<double>{0, -0.1, -0.5, -1};
}

void TestGrpoLoss::overlongPenalty()
{
    QFETCH(int, maxLen);
    QFETCH(int, cacheLen);
    QFETCH(std::vector<double>, lengths);
    QFETCH(std::vector<double>, expected);
    std::vector<int64_t> ints(lengths.begin(), lengths.end());
    const torch::Tensor p = rwb::train::overlongPenalty(torch::tensor(ints), maxLen, cacheLen); // int64 in
    QCOMPARE(p.scalar_type(), torch::kFloat32);
    for (size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(near(p[int64_t(i)].item<double>(), expected[i], 1e-6), qPrintable(QString::number(lengths[i])));
    const torch::Tensor p64 = rwb::train::overlongPenalty(f64(lengths), maxLen, cacheLen); // float64 in
    for (size_t i = 0; i < expected.size(); ++i)
        QNEAR(p64[int64_t(i)].item<double>(), expected[i]);
}

// 4 groups of 3: {1, 0, 1} keep, {1, 1, 1} drop, {0, 0, 0} drop, {0.2, 0.2, 0.5} keep.
void TestGrpoLoss::dynamicSampling()
{
    const GroupSelection s = informativeGroups(f64({1, 0, 1, 1, 1, 1, 0, 0, 0, 0.2, 0.2, 0.5}), /*groupSize=*/3);
    QCOMPARE(s.keptGroups, (std::vector<int64_t>{0, 3}));
    QCOMPARE(s.keepGroup.sizes(), torch::IntArrayRef({4}));
    const std::vector<int> rows = {1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1};
    QCOMPARE(s.keepRow.sizes(), torch::IntArrayRef({12}));
    for (int64_t i = 0; i < 12; ++i)
        QCOMPARE(s.keepRow[i].item<bool>(), bool(rows[size_t(i)]));
    // None rows (NaN) are left out of a group's std: {1, None} has one reward left and
    // teaches nothing; {1, None, 0} still differs.
    QVERIFY(informativeGroups(f64({1, NAN}), /*groupSize=*/2).keptGroups.empty());
    QCOMPARE(informativeGroups(f64({1, NAN, 0, 1, 1, NAN}), /*groupSize=*/3).keptGroups, (std::vector<int64_t>{0}));
}

// The batch above (kRatios), eps 0.2 / 0.2, beta 0:
//   grpo    = (−1.15 + 1.033333 + 0 − 2.1 + 1.933333 − 0.5)/6 = −0.783333/6 = −0.130555…
//   bnpo    = 0.4/18 = 0.022222…
//   dr_grpo = 0.4/(R·L_max) = 0.4/(6·4) = 0.016666…   (L_max = 4)
//             0.4/(6·8) = 0.008333…                    (L_max = 8: padded T does not matter)
//   dapo    = 0.4/18 = 0.022222…                       (N of this call)
//             0.4/36 = 0.011111…                       (the whole batch had 36 active tokens)
void TestGrpoLoss::lossVariants_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("maxCompletionLength");
    QTest::addColumn<double>("globalTokens");
    QTest::addColumn<double>("expected");
    QTest::newRow("grpo") << int(LossType::Grpo) << 0 << 0.0 << (-1.15 + 3.1 / 3 + 0 - 2.1 + 5.8 / 3 - 0.5) / 6;
    QTest::newRow("bnpo") << int(LossType::Bnpo) << 0 << 0.0 << 0.4 / 18;
    QTest::newRow("dr_grpo L=4") << int(LossType::DrGrpo) << 4 << 0.0 << 0.4 / 24;
    QTest::newRow("dr_grpo L=8") << int(LossType::DrGrpo) << 8 << 0.0 << 0.4 / 48;
    QTest::newRow("dapo") << int(LossType::Dapo) << 0 << 0.0 << 0.4 / 18;
    QTest::newRow("dapo global") << int(LossType::Dapo) << 0 << 36.0 << 0.4 / 36;
}

void TestGrpoLoss::lossVariants()
{
    QFETCH(int, type);
    QFETCH(int, maxCompletionLength);
    QFETCH(double, globalTokens);
    QFETCH(double, expected);
    GrpoLossOptions o;
    o.lossType = LossType(type);
    o.maxCompletionLength = maxCompletionLength;
    o.dapoGlobalTokens = globalTokens;
    const GrpoLossResult r = grpoLoss(lossBatch(), o);
    QCOMPARE(r.loss.dim(), 0);
    QVERIFY(r.loss.requires_grad());
    QNEAR(r.loss.item<double>(), expected);
    QCOMPARE(r.activeTokens, int64_t(18));
    QVERIFY(!r.kl.has_value());
    QVERIFY(!r.entropy.has_value());
}

// eps_high 0.28 (DAPO's clip-higher): only tokens with A > 0 and 1.2 < r change:
//   row 0 token 1, r = 1.3 > 1.28: still clipped, now at 1.28 → −1.28 (was −1.2)
//   row 3 token 1, r = 1.25 < 1.28: no longer clipped → −2.5 (was −2.4)
// Row 1 token 1 (r = 1.3, A < 0) keeps its unclipped +1.3. Σ = 0.4 − 0.08 − 0.1 = 0.22;
// dapo = 0.22/18; clip_ratio/high_mean = 1/18.
void TestGrpoLoss::clipHigher()
{
    GrpoLossOptions sym;
    sym.lossType = LossType::Dapo;
    GrpoLossOptions higher = sym;
    higher.epsHigh = 0.28;
    const GrpoLossResult a = grpoLoss(lossBatch(), sym);
    const GrpoLossResult b = grpoLoss(lossBatch(), higher);
    const torch::Tensor diff = (b.perTokenLoss - a.perTokenLoss).detach(); // [R, T]
    QNEAR(diff[0][1].item<double>(), -0.08);
    QNEAR(diff[3][1].item<double>(), -0.1);
    diff[0][1] = 0.0;
    diff[3][1] = 0.0;
    QVERIFY(diff.abs().max().item<double>() < kTol); // nothing else moved
    QNEAR(b.perTokenLoss[1][1].item<double>(), 1.3);
    QNEAR(b.loss.item<double>(), 0.22 / 18);
    QNEAR(b.clipRatioHigh, 1.0 / 18);
    QNEAR(b.clipRatioLow, 2.0 / 18);
}

// eps 0.2 / 0.2: low-clipped (r < 0.8, A < 0): row 1 r = 0.7, row 4 r = 0.75 → 2/18;
// high-clipped (r > 1.2, A > 0): row 0 r = 1.3, row 3 r = 1.25 → 2/18; region 4/18.
// Not counted: row 1's r = 1.3 (A < 0), row 2's 1.5 and 0.5 (A = 0), padding's r = 5.
// eps_low 0.28: r = 0.7 < 0.72 still low-clipped, 0.75 no longer → low 1/18.
void TestGrpoLoss::clipRatios()
{
    const GrpoLossResult r = grpoLoss(lossBatch());
    QNEAR(r.clipRatioLow, 2.0 / 18);
    QNEAR(r.clipRatioHigh, 2.0 / 18);
    QNEAR(r.clipRatioRegion, 4.0 / 18);
    GrpoLossOptions o;
    o.epsLow = 0.28;
    const GrpoLossResult wide = grpoLoss(lossBatch(), o);
    QNEAR(wide.clipRatioLow, 1.0 / 18);
    QNEAR(wide.clipRatioRegion, 3.0 / 18);
    // Row 4 token 0 unclipped: −min(0.75·(−2), …) = 1.5 instead of 1.6.
    QNEAR(wide.perTokenLoss[4][0].item<double>(), 1.5);
}

// [R, T] advantages equal to the [R] ones broadcast give the same loss; changing one token's
// advantage moves only that token: row 5 token 0 (r = 1) A 0.5 → 3: loss −0.5 → −3.
void TestGrpoLoss::perTokenAdvantages()
{
    GrpoLossInputs in = lossBatch();
    const double perRow = grpoLoss(in).loss.item<double>();
    in.advantages = f64(kAdvantages).unsqueeze(1).expand({6, 4}).clone(); // [R, T]
    QNEAR(grpoLoss(in).loss.item<double>(), perRow);
    in.advantages[5][0] = 3.0;
    const GrpoLossResult r = grpoLoss(in);
    QNEAR(r.perTokenLoss[5][0].item<double>(), -3.0);
    QNEAR(r.loss.item<double>(), perRow + (-3.0 + 0.5) / 4 / 6); // row 5's mean moves by −2.5/4
}

// ref = new: ρ = 1, kl = 1 − 0 − 1 = 0, and beta > 0 leaves the loss unchanged.
void TestGrpoLoss::klZeroWhenRefEqualsNew()
{
    GrpoLossInputs in = lossBatch();
    in.refLogProbs = in.newLogProbs.detach().clone();
    GrpoLossOptions o;
    o.beta = 0.5;
    const GrpoLossResult r = grpoLoss(in, o);
    QVERIFY(r.kl.has_value());
    QCOMPARE(*r.kl, 0.0);
    QNEAR(r.loss.item<double>(), grpoLoss(lossBatch()).loss.item<double>());
}

// ref − new = log 2 on every token: ρ = 2, kl = 2 − ln 2 − 1 = 0.30685281944.
// ref − new = −log 2:               ρ = 0.5, kl = 0.5 + ln 2 − 1 = 0.19314718056.
// With A = 0 the clipped term vanishes; beta = 0.1, grpo: loss = 0.1 · kl (every row's mean).
// Mixed, R = 2, row 0 (2 tokens) ρ = 2, row 1 (1 active token of 2) ρ = 0.5:
//   kl metric = (2·0.30685281944 + 0.19314718056)/3 = 0.26895094
//   grpo loss = 0.1·(0.30685281944 + 0.19314718056)/2 = 0.025
void TestGrpoLoss::klHandPicked()
{
    const double k2 = 2.0 - std::log(2.0) - 1.0;
    const double kHalf = 0.5 + std::log(2.0) - 1.0;
    GrpoLossInputs in;
    in.newLogProbs = mat64({{-1.0, -2.0}, {-0.5, -3.0}}).requires_grad_(true); // [R=2, T=2]
    in.oldLogProbs = in.newLogProbs.detach();
    in.refLogProbs = in.newLogProbs.detach() + mat64({{std::log(2.0), std::log(2.0)}, {-std::log(2.0), 7.0}});
    in.advantages = f64({0.0, 0.0});
    in.mask = mat64({{1, 1}, {1, 0}});
    GrpoLossOptions o;
    o.beta = 0.1;
    const GrpoLossResult r = grpoLoss(in, o);
    QNEAR(*r.kl, (2 * k2 + kHalf) / 3);
    QNEAR(r.loss.item<double>(), 0.1 * (k2 + kHalf) / 2);
    QNEAR(0.1 * (k2 + kHalf) / 2, 0.025); // ln 2 cancels: k2 + kHalf = (1 − ln 2) + (ln 2 − 0.5) = 0.5
    // beta = 0 with ref given: kl is still reported, the loss ignores it.
    const GrpoLossResult noBeta = grpoLoss(in);
    QNEAR(noBeta.loss.item<double>(), 0.0);
    QNEAR(*noBeta.kl, (2 * k2 + kHalf) / 3);
}

// k3 = ρ − log ρ − 1 ≥ 0 for any ρ > 0 (equality at ρ = 1): random log-ratios in [−5, 5].
void TestGrpoLoss::klNonNegative()
{
    torch::manual_seed(7);
    GrpoLossInputs in;
    in.newLogProbs = (torch::rand({16, 8}, torch::kFloat64) * -6.0).requires_grad_(true);
    in.oldLogProbs = in.newLogProbs.detach();
    in.refLogProbs = in.newLogProbs.detach() + (torch::rand({16, 8}, torch::kFloat64) * 10.0 - 5.0);
    in.advantages = torch::zeros({16}, torch::kFloat64);
    in.mask = torch::ones({16, 8}, torch::kFloat64);
    GrpoLossOptions o;
    o.beta = 1.0;
    const GrpoLossResult r = grpoLoss(in, o);
    QVERIFY(*r.kl > 0.0);
    QVERIFY((r.perTokenLoss >= 0).all().item<bool>());
}

// Entropy over active tokens only: rows {0.5, 1.5 | pad 9}, {2.0 | pad 9, pad 9} → (0.5 + 1.5 + 2)/3.
void TestGrpoLoss::entropyMetric()
{
    GrpoLossInputs in;
    in.newLogProbs = torch::zeros({2, 3}, torch::kFloat64).requires_grad_(true);
    in.oldLogProbs = torch::zeros({2, 3}, torch::kFloat64);
    in.advantages = f64({1.0, -1.0});
    in.mask = mat64({{1, 1, 0}, {1, 0, 0}});
    in.entropy = mat64({{0.5, 1.5, 9.0}, {2.0, 9.0, 9.0}});
    const GrpoLossResult r = grpoLoss(in);
    QVERIFY(r.entropy.has_value());
    QNEAR(*r.entropy, 4.0 / 3);
}

// μ = 1, old = new.detach(): r = 1 everywhere, nothing is clipped, and ∂loss/∂new_{i,t} is the
// plain policy gradient of −Σ A_i·new_{i,t} under each aggregation. R = 2, row 0 has 2 active
// tokens with A = 1.5, row 1 has 3 with A = −0.6 (T = 3):
//   grpo:    −A_i/(R·|o_i|): row 0 −1.5/(2·2) = −0.375, row 1 0.6/(2·3) = 0.1
//   bnpo, dapo: −A_i/N (N = 5): −0.3, 0.12
//   dr_grpo (L_max = 10): −A_i/(R·10): −0.075, 0.03
// Padding gets 0.
void TestGrpoLoss::gradientIsPolicyGradient_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<double>("g0");
    QTest::addColumn<double>("g1");
    QTest::newRow("grpo") << int(LossType::Grpo) << -0.375 << 0.1;
    QTest::newRow("bnpo") << int(LossType::Bnpo) << -0.3 << 0.12;
    QTest::newRow("dr_grpo") << int(LossType::DrGrpo) << -0.075 << 0.03;
    QTest::newRow("dapo") << int(LossType::Dapo) << -0.3 << 0.12;
}

void TestGrpoLoss::gradientIsPolicyGradient()
{
    QFETCH(int, type);
    QFETCH(double, g0);
    QFETCH(double, g1);
    GrpoLossOptions o;
    o.lossType = LossType(type);
    o.maxCompletionLength = 10;
    GrpoLossInputs in;
    in.newLogProbs = mat64({{-0.3, -2.0, -1.0}, {-1.2, -0.7, -0.1}}).requires_grad_(true); // [R=2, T=3]
    in.oldLogProbs = in.newLogProbs.detach();
    in.advantages = f64({1.5, -0.6});
    in.mask = mat64({{1, 1, 0}, {1, 1, 1}});
    const GrpoLossResult r = grpoLoss(in, o);
    QNEAR(r.clipRatioRegion, 0.0);
    r.loss.backward();
    const torch::Tensor g = in.newLogProbs.grad(); // [R, T]
    const torch::Tensor expected = mat64({{g0, g0, 0.0}, {g1, g1, g1}});
    std::ostringstream printed;
    printed << g;
    QVERIFY2(torch::allclose(g, expected, /*rtol=*/0.0, /*atol=*/kTol), printed.str().c_str());
    // The same as the gradient of the plain surrogate −Σ w_{i,t}·A_i·new_{i,t} written directly.
    torch::Tensor pg = in.newLogProbs.detach().clone().requires_grad_(true);
    const torch::Tensor m = in.mask;
    const torch::Tensor weighted = -(pg * in.advantages.unsqueeze(1) * m);
    torch::Tensor plain;
    switch (o.lossType) {
    case LossType::Grpo: plain = (weighted.sum(1) / m.sum(1)).mean(); break;
    case LossType::DrGrpo: plain = weighted.sum() / 20.0; break;
    default: plain = weighted.sum() / m.sum(); break;
    }
    plain.backward();
    QVERIFY(torch::allclose(g, pg.grad(), /*rtol=*/0.0, /*atol=*/kTol));
}

// A clipped token's gradient is 0 (the min picks the constant clip value): row 0 token 1
// (r = 1.3, A = 1) and row 3 token 1 (r = 1.25, A = 2); an unclipped one's is −A·r/(R·|o_i|):
// row 0 token 0 (r = 1.1): −1·1.1/(6·2) = −0.0916667; row 1 token 1 (r = 1.3, A = −1, not
// clipped): 1.3/(6·3) = 0.0722222.
void TestGrpoLoss::gradientZeroOnClippedTokens()
{
    GrpoLossInputs in = lossBatch();
    grpoLoss(in).loss.backward();
    const torch::Tensor g = in.newLogProbs.grad();
    QNEAR(g[0][1].item<double>(), 0.0);
    QNEAR(g[3][1].item<double>(), 0.0);
    QNEAR(g[0][0].item<double>(), -1.1 / 12);
    QNEAR(g[1][1].item<double>(), 1.3 / 18);
    QNEAR(g[0][3].item<double>(), 0.0); // padding
}

// −inf old log-probs on padding would make exp(new − old) infinite, and inf·0 = NaN through a
// mask multiply; the loss masks the log-ratio first, so loss and gradient stay finite.
void TestGrpoLoss::paddingMayHoldInfinity()
{
    GrpoLossInputs in = lossBatch();
    in.oldLogProbs = in.oldLogProbs.clone();
    in.oldLogProbs[0][3] = -INFINITY;
    in.refLogProbs = in.newLogProbs.detach().clone();
    in.refLogProbs[1][3] = INFINITY;
    GrpoLossOptions o;
    o.beta = 0.1;
    const GrpoLossResult r = grpoLoss(in, o);
    QVERIFY(std::isfinite(r.loss.item<double>()));
    QNEAR(r.loss.item<double>(), grpoLoss(lossBatch()).loss.item<double>());
    r.loss.backward();
    QVERIFY(in.newLogProbs.grad().isfinite().all().item<bool>());
}

void TestGrpoLoss::nanIsCaught_data()
{
    QTest::addColumn<QString>("tensor");
    QTest::addColumn<QString>("message");
    QTest::newRow("new") << "new" << "grpoLoss: newLogProbs is NaN at [1, 2]";
    QTest::newRow("old") << "old" << "grpoLoss: oldLogProbs is NaN at [1, 2]";
    QTest::newRow("ref") << "ref" << "grpoLoss: refLogProbs is NaN at [1, 2]";
    QTest::newRow("advantages") << "adv" << "grpoLoss: advantages is NaN at [1]";
    QTest::newRow("entropy") << "entropy" << "grpoLoss: entropy is NaN at [1, 2]";
}

void TestGrpoLoss::nanIsCaught()
{
    QFETCH(QString, tensor);
    QFETCH(QString, message);
    GrpoLossInputs in = lossBatch();
    in.refLogProbs = in.newLogProbs.detach().clone();
    in.entropy = torch::ones({6, 4}, torch::kFloat64);
    QVERIFY(std::isfinite(grpoLoss(in).loss.item<double>())); // finite before the NaN goes in
    if (tensor == "new") {
        torch::Tensor n = in.newLogProbs.detach().clone();
        n[1][2] = NAN;
        in.newLogProbs = n.requires_grad_(true);
    } else if (tensor == "old") {
        in.oldLogProbs = in.oldLogProbs.clone();
        in.oldLogProbs[1][2] = NAN;
    } else if (tensor == "ref") {
        in.refLogProbs[1][2] = NAN;
    } else if (tensor == "adv") {
        in.advantages = in.advantages.clone();
        in.advantages[1] = NAN;
    } else {
        in.entropy[1][2] = NAN;
    }
    const std::string error = errorOf([&] { grpoLoss(in); });
    QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
}

void TestGrpoLoss::badOptions()
{
    GrpoLossOptions drNoLength;
    drNoLength.lossType = LossType::DrGrpo;
    QVERIFY(errorOf([&] { grpoLoss(lossBatch(), drNoLength); }).find("maxCompletionLength") != std::string::npos);
    GrpoLossOptions betaNoRef;
    betaNoRef.beta = 0.04;
    QVERIFY(errorOf([&] { grpoLoss(lossBatch(), betaNoRef); }).find("refLogProbs") != std::string::npos);
    GrpoLossInputs wrongShape = lossBatch();
    wrongShape.oldLogProbs = torch::zeros({6, 3}, torch::kFloat64);
    QVERIFY(errorOf([&] { grpoLoss(wrongShape); }).find("oldLogProbs has shape") != std::string::npos);
    GrpoLossInputs wrongAdv = lossBatch();
    wrongAdv.advantages = torch::zeros({5}, torch::kFloat64);
    QVERIFY(errorOf([&] { grpoLoss(wrongAdv); }).find("advantages have shape") != std::string::npos);
    GrpoLossInputs infAdv = lossBatch();
    infAdv.advantages = f64({1, INFINITY, 0, 0, 0, 0});
    QVERIFY(errorOf([&] { grpoLoss(infAdv); }).find("infinite") != std::string::npos);
    // An empty mask: no active token, loss 0 (every aggregation clamps its count at 1).
    GrpoLossInputs empty = lossBatch();
    empty.mask = torch::zeros({6, 4}, torch::kBool);
    for (const LossType t : {LossType::Grpo, LossType::Bnpo, LossType::Dapo}) {
        GrpoLossOptions o;
        o.lossType = t;
        const GrpoLossResult r = grpoLoss(empty, o);
        QCOMPARE(r.loss.item<double>(), 0.0);
        QCOMPARE(r.clipRatioRegion, 0.0);
    }
}

void TestGrpoLoss::collapse()
{
    // B = 3 prompts, G = 4. Groups 0 and 2: 不明, right (reward 1), as for e-mails that name no
    // sender — a right answer repeated is not collapse. Group 1: 株式会社X ×3 (0.5) and Y (0.2).
    const std::vector<std::string> answers = {"不明", "不明", "不明", "不明",          //
                                              "株式会社X", "株式会社X", "株式会社X", "Y", //
                                              "不明", "不明", "不明", "Z"};
    const std::vector<double> rewards = {1, 1, 1, 1, 0.5, 0.5, 0.5, 0.2, 1, 1, 1, 0.0};
    const CollapseMetrics m = collapseMetrics(answers, rewards, 4);
    // Distinct per group: 1, 2, 2 → 5 / 3.
    QVERIFY(near(m.distinctAnswersPerGroup, 5.0 / 3.0));
    // Without the full-reward ones: 株式会社X ×3, Y ×1, Z ×1 → 3 of 12 (counting 不明 would give
    // 7 of 12, an alarm at the 0.5 threshold for a policy that is right).
    QVERIFY(near(m.topAnswerShare, 3.0 / 12.0));
    // Every completion right: no wrong answer to collapse onto.
    const CollapseMetrics allRight = collapseMetrics({"不明", "不明"}, {1.0, 1.0}, 2);
    QVERIFY(near(allRight.topAnswerShare, 0.0));
    QVERIFY(near(allRight.distinctAnswersPerGroup, 1.0));
    // The same answer, wrong, for every prompt: share 1.
    QVERIFY(near(collapseMetrics({"A", "A", "A", "A"}, {0.3, 0.3, 0.1, 0.0}, 2).topAnswerShare, 1.0));
    QVERIFY(near(collapseMetrics({}, {}, 8).topAnswerShare, 0.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, collapseMetrics({"a", "b", "c"}, {0, 0, 0}, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, collapseMetrics({"a"}, {0, 0}, 1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, collapseMetrics({"a"}, {0}, 0));
}

QTEST_APPLESS_MAIN(TestGrpoLoss)
#include "tst_grpoloss.moc"
