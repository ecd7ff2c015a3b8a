// core/model/fusedops: the fused RMSNorm, RoPE, SwiGLU, dropout, few-rows, decode-attention
// and sampling-softmax kernels against the ATen compositions or formulas they replace,
// values and gradients, in fp32, bf16 and f64, on one thread and on two (the split must
// not change a result), and the dropout's mask statistics.
#include "model/fusedops.h"
#include "model/modelconfig.h"
#include "model/transformer.h"
#include "torchtest.h"

#include <QtTest>

#include <ATen/Parallel.h>

#include <cmath>
#include <thread>

using namespace rwb::model;
using rwbtest::ThreadCount;

namespace {


double maxAbs(const torch::Tensor &a, const torch::Tensor &b)
{
    return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}

// The reference RMSNorm: the formula, in ATen operations (autograd differentiates it).
torch::Tensor rmsNormReference(const torch::Tensor &x, const torch::Tensor &w, double eps)
{
    return w * (x * torch::rsqrt(x.pow(2).mean(-1, true) + eps));
}

} // namespace

class TestFusedOps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rmsNormMatchesFormula_data();
    void rmsNormMatchesFormula();
    void ropeMatchesApplyRope_data();
    void ropeMatchesApplyRope();
    void swiGluMatchesSiluTimesUp_data();
    void swiGluMatchesSiluTimesUp();
    void dropoutKeepsOneMinusP();
    void dropoutIsSeededAndThreadIndependent();
    void dropoutGeneratorScope_data();
    void dropoutGeneratorScope();
    void otherDtypesTakeAtensPath();
    void fewRowsLinearMatchesLinear();
    void decodeAttentionMatchesSoftmaxFormula_data();
    void decodeAttentionMatchesSoftmaxFormula();
    void decodeAttentionLeavesOtherCasesToAten();
    void temperedExpIsSoftmaxUpToItsSum();
};

void TestFusedOps::rmsNormMatchesFormula_data()
{
    QTest::addColumn<bool>("f64");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("weightGrad");
    QTest::addColumn<int>("rows");
    // 700 rows: more than one task of 256 rows, so two threads split them.
    QTest::newRow("fp32, 1 thread") << false << 1 << true << 700;
    QTest::newRow("fp32, 2 threads") << false << 2 << true << 700;
    QTest::newRow("fp32, frozen weight") << false << 2 << false << 700;
    QTest::newRow("f64, 2 threads") << true << 2 << true << 700;
    QTest::newRow("f64, 3 rows") << true << 1 << true << 3;
}

void TestFusedOps::rmsNormMatchesFormula()
{
    QFETCH(bool, f64);
    QFETCH(int, threads);
    QFETCH(bool, weightGrad);
    QFETCH(int, rows);
    ThreadCount tc(threads);
    torch::manual_seed(1);
    const auto dt = f64 ? torch::kFloat64 : torch::kFloat32;
    const torch::Tensor x0 = torch::randn({rows, 2, 64}, dt) * 3.0;
    const torch::Tensor w0 = torch::rand({64}, dt) + 0.5;
    const torch::Tensor g = torch::randn({rows, 2, 64}, dt);
    const double eps = 1e-6;

    torch::Tensor x = x0.clone().requires_grad_(true), w = w0.clone().requires_grad_(weightGrad);
    QVERIFY(fusedKernelsApply(x));
    const torch::Tensor y = rmsNorm(x, w, eps);
    (y * g).sum().backward();
    torch::Tensor xr = x0.clone().requires_grad_(true), wr = w0.clone().requires_grad_(weightGrad);
    const torch::Tensor yr = rmsNormReference(xr, wr, eps);
    (yr * g).sum().backward();

    // fp32: a few ulps of values near 1 (the row sum's order differs); f64: 1e-12.
    const double tol = f64 ? 1e-12 : 2e-5;
    QVERIFY2(maxAbs(y, yr) < tol, qPrintable(QString::number(maxAbs(y, yr))));
    QVERIFY2(maxAbs(x.grad(), xr.grad()) < tol * 10, qPrintable(QString::number(maxAbs(x.grad(), xr.grad()))));
    if (weightGrad) {
        // Σ over 2·rows products of order 1: relative to the sum's size.
        const double scale = std::max(1.0, wr.grad().abs().max().item<double>());
        QVERIFY2(maxAbs(w.grad(), wr.grad()) < tol * 10 * scale, qPrintable(QString::number(maxAbs(w.grad(), wr.grad()))));
    } else {
        QVERIFY(!w.grad().defined());
    }
}

void TestFusedOps::ropeMatchesApplyRope_data()
{
    QTest::addColumn<bool>("f64");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("sharedAngles");
    QTest::newRow("fp32, positions per row") << false << 1 << false;
    QTest::newRow("fp32, 2 threads") << false << 2 << false;
    QTest::newRow("fp32, one row of angles for all") << false << 2 << true;
    QTest::newRow("f64") << true << 1 << false;
}

void TestFusedOps::ropeMatchesApplyRope()
{
    QFETCH(bool, f64);
    QFETCH(int, threads);
    QFETCH(bool, sharedAngles);
    ThreadCount tc(threads);
    torch::manual_seed(2);
    ModelConfig c;
    c.headDim = 16;
    c.ropeTheta = 10000.0;
    const Rope rope(c);
    const int64_t b = 3, t = 70, h = 4, d = 16;
    const auto dt = f64 ? torch::kFloat64 : torch::kFloat32;
    // Left-padded rows: positions start at different offsets.
    const torch::Tensor positions = sharedAngles ? torch::arange(t, torch::kLong).unsqueeze(0)
                                                 : torch::arange(t, torch::kLong).unsqueeze(0) + torch::tensor({{0}, {5}, {17}});
    const auto [cos, sin] = rope.cosSin(positions, dt); // [B or 1, 1, T, D]
    // x as the projection gives it: [B, T, H, D], a view of [B, T, H·D].
    const torch::Tensor x0 = torch::randn({b, t, h * d}, dt).view({b, t, h, d});
    const torch::Tensor g = torch::randn({b, h, t, d}, dt);

    torch::Tensor x = x0.clone().requires_grad_(true);
    const torch::Tensor y = rwb::model::rope(x, cos, sin);
    QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{b, h, t, d}));
    (y * g).sum().backward();
    torch::Tensor xr = x0.clone().requires_grad_(true);
    const torch::Tensor yr = applyRope(xr.transpose(1, 2), cos, sin);
    (yr * g).sum().backward();

    const double tol = f64 ? 1e-12 : 1e-5;
    QVERIFY2(maxAbs(y, yr) < tol, qPrintable(QString::number(maxAbs(y, yr))));
    QVERIFY2(maxAbs(x.grad(), xr.grad()) < tol, qPrintable(QString::number(maxAbs(x.grad(), xr.grad()))));
}

void TestFusedOps::swiGluMatchesSiluTimesUp_data()
{
    QTest::addColumn<bool>("f64");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("upGrad");
    // 100 000 elements: more than one task of 2¹⁵.
    QTest::newRow("fp32, 1 thread") << false << 1 << true;
    QTest::newRow("fp32, 2 threads") << false << 2 << true;
    QTest::newRow("fp32, up frozen") << false << 2 << false;
    QTest::newRow("f64") << true << 2 << true;
}

void TestFusedOps::swiGluMatchesSiluTimesUp()
{
    QFETCH(bool, f64);
    QFETCH(int, threads);
    QFETCH(bool, upGrad);
    ThreadCount tc(threads);
    torch::manual_seed(5);
    const auto dt = f64 ? torch::kFloat64 : torch::kFloat32;
    // Gates from −12 to 12: σ saturates at both ends.
    const torch::Tensor g0 = torch::randn({100, 1000}, dt) * 4.0;
    const torch::Tensor u0 = torch::randn({100, 1000}, dt);
    const torch::Tensor go = torch::randn({100, 1000}, dt);
    torch::Tensor g = g0.clone().requires_grad_(true), u = u0.clone().requires_grad_(upGrad);
    const torch::Tensor y = swiGlu(g, u);
    (y * go).sum().backward();
    // Reference: silu written out, g · 1 / (1 + e^−g), differentiated by autograd.
    torch::Tensor gr = g0.clone().requires_grad_(true), ur = u0.clone().requires_grad_(upGrad);
    const torch::Tensor yr = gr / (1.0 + torch::exp(-gr)) * ur;
    (yr * go).sum().backward();
    const double tol = f64 ? 1e-12 : 1e-5;
    QVERIFY2(maxAbs(y, yr) < tol * 10, qPrintable(QString::number(maxAbs(y, yr))));
    QVERIFY2(maxAbs(g.grad(), gr.grad()) < tol * 10, qPrintable(QString::number(maxAbs(g.grad(), gr.grad()))));
    if (upGrad)
        QVERIFY2(maxAbs(u.grad(), ur.grad()) < tol * 10, qPrintable(QString::number(maxAbs(u.grad(), ur.grad()))));
    else
        QVERIFY(!u.grad().defined());
}

void TestFusedOps::dropoutKeepsOneMinusP()
{
    // n = 2²⁰ elements, p = 0.25: the kept share's standard deviation is
    // sqrt(p(1 − p)/n) = 4.2e-4; 0.003 is seven of them. Kept values are x / (1 − p).
    torch::manual_seed(3);
    const int64_t n = 1 << 20;
    const double p = 0.25;
    const torch::Tensor x = (torch::rand({n / 256, 256}) + 1.0).requires_grad_(true);
    const torch::Tensor y = rwb::model::dropout(x, p);
    const torch::Tensor kept = y != 0;
    const double share = kept.to(torch::kFloat64).mean().item<double>();
    QVERIFY2(std::abs(share - (1.0 - p)) < 0.003, qPrintable(QString::number(share)));
    QVERIFY(maxAbs(y.masked_select(kept), x.detach().masked_select(kept) / (1.0 - p)) < 1e-6);
    // Neighbouring elements are not correlated: the share of kept pairs (i, i + 1) is (1 − p)².
    const torch::Tensor flat = kept.flatten().to(torch::kFloat64);
    const double pairs = (flat.narrow(0, 0, n - 1) * flat.narrow(0, 1, n - 1)).mean().item<double>();
    QVERIFY2(std::abs(pairs - (1.0 - p) * (1.0 - p)) < 0.003, qPrintable(QString::number(pairs)));
    // The gradient goes through the same mask, scaled alike.
    y.sum().backward();
    QVERIFY(torch::equal(x.grad() != 0, kept));
    QVERIFY(maxAbs(x.grad().masked_select(kept), torch::full({kept.sum().item<int64_t>()}, 1.0 / (1.0 - p))) < 1e-6);
    // p = 0 is the identity; p = 1 drops everything.
    QVERIFY(torch::equal(rwb::model::dropout(x, 0.0), x));
    QCOMPARE(rwb::model::dropout(x, 1.0).abs().sum().item<double>(), 0.0);
}

void TestFusedOps::dropoutIsSeededAndThreadIndependent()
{
    const torch::Tensor x = torch::ones({300, 256});
    torch::Tensor first, second, twoThreads, otherSeed;
    {
        ThreadCount tc(1);
        torch::manual_seed(7);
        first = rwb::model::dropout(x, 0.1);
        second = rwb::model::dropout(x, 0.1); // the generator moved on: another mask
        torch::manual_seed(8);
        otherSeed = rwb::model::dropout(x, 0.1);
    }
    {
        ThreadCount tc(2);
        torch::manual_seed(7);
        twoThreads = rwb::model::dropout(x, 0.1);
    }
    QVERIFY(torch::equal(first, twoThreads));
    QVERIFY(!torch::equal(first, second));
    QVERIFY(!torch::equal(first, otherSeed));
}

void TestFusedOps::dropoutGeneratorScope_data()
{
    QTest::addColumn<bool>("bf16");
    QTest::newRow("fp32 (fused)") << false;
    QTest::newRow("bf16 (ATen)") << true;
}

// A scope's masks are the default generator's after torch::manual_seed of the same seed, on
// either path; the default generator is neither read nor moved meanwhile; nested scopes
// apply the innermost and give the outer one back; two threads, each in its own scope,
// draw at once what each draws alone.
void TestFusedOps::dropoutGeneratorScope()
{
    QFETCH(bool, bf16);
    const torch::Tensor x = torch::ones({300, 256}, bf16 ? torch::kBFloat16 : torch::kFloat32);
    QCOMPARE(fusedKernelsApply(x), !bf16);
    torch::manual_seed(21);
    const torch::Tensor a = rwb::model::dropout(x, 0.1), a2 = rwb::model::dropout(x, 0.1);
    torch::manual_seed(22);
    const torch::Tensor b = rwb::model::dropout(x, 0.1);
    torch::manual_seed(5);
    const torch::Tensor untouched = torch::rand({4});

    torch::manual_seed(5);
    {
        const DropoutGeneratorScope outer(21);
        QVERIFY(torch::equal(rwb::model::dropout(x, 0.1), a));
        {
            const DropoutGeneratorScope inner(22);
            QVERIFY(torch::equal(rwb::model::dropout(x, 0.1), b));
        }
        QVERIFY(torch::equal(rwb::model::dropout(x, 0.1), a2)); // the outer scope, moved on once
    }
    QVERIFY(torch::equal(torch::rand({4}), untouched));

    torch::Tensor fromThread[2];
    std::thread workers[2];
    for (int k = 0; k < 2; ++k)
        workers[k] = std::thread([&, k] {
            const DropoutGeneratorScope scope(21 + static_cast<uint64_t>(k));
            torch::Tensor y;
            for (int i = 0; i < 20; ++i) // long enough for the two to overlap
                y = rwb::model::dropout(x, 0.1);
            const DropoutGeneratorScope again(21 + static_cast<uint64_t>(k));
            fromThread[k] = rwb::model::dropout(x, 0.1);
        });
    for (std::thread &w : workers)
        w.join();
    QVERIFY(torch::equal(fromThread[0], a));
    QVERIFY(torch::equal(fromThread[1], b));
}

void TestFusedOps::otherDtypesTakeAtensPath()
{
    // bf16 is not fused: the composition runs, with the same values as the fp32 kernel
    // within bf16's 8 bits of mantissa (relative 2⁻⁸ on values of order 1).
    torch::manual_seed(4);
    const torch::Tensor x = torch::randn({5, 64});
    const torch::Tensor w = torch::rand({64}) + 0.5;
    QVERIFY(!fusedKernelsApply(x.to(torch::kBFloat16)));
    const torch::Tensor viaBf16 = rmsNorm(x.to(torch::kBFloat16), w.to(torch::kBFloat16), 1e-6);
    QCOMPARE(viaBf16.scalar_type(), torch::kBFloat16);
    QVERIFY(maxAbs(viaBf16, rmsNorm(x, w, 1e-6)) < 0.05);
    QVERIFY(!fusedKernelsApply(torch::ones({2}, torch::kLong)));
}

// fewRowsLinear against F::linear: 1–64 rows, output rows not a multiple of the kernel's
// tile of 4, an odd inner size, on 1 thread and on 2 (the split over output rows must not
// change a value); fp32 within 1e-5 relative to the largest value (the sums run in
// another order), bf16 within its rounding; with gradients on, F::linear itself.
void TestFusedOps::fewRowsLinearMatchesLinear()
{
    torch::manual_seed(9);
    torch::NoGradGuard noGrad;
    for (int threads : {1, 2}) {
        const ThreadCount tc(threads);
        for (int64_t m : {1, 2, 5, 7, 8, 16, 33, 64})
            for (auto [out, in] : std::vector<std::pair<int64_t, int64_t>>{{37, 70}, {256, 64}, {3, 1024}, {6, 33}}) {
                const torch::Tensor w = torch::randn({out, in}), x = torch::randn({m, in});
                const torch::Tensor want = torch::nn::functional::linear(x, w);
                const torch::Tensor got = fewRowsLinear(x, w);
                QCOMPARE(got.sizes(), want.sizes());
                const double scale = want.abs().max().item<double>();
                QVERIFY2(maxAbs(got, want) <= 1e-5 * scale,
                         qPrintable(QString("m %1, %2 × %3: %4").arg(m).arg(out).arg(in).arg(maxAbs(got, want))));
                // bf16: against the fp32 product of the same bf16 values. The products are
                // exact in fp32 and summed in fp32 in any order (1e-5 of Σ|w·x|), then the
                // result is rounded to bf16 once (2⁻⁸ of it).
                const torch::Tensor wb = w.to(torch::kBFloat16), xb = x.to(torch::kBFloat16);
                const torch::Tensor viaBf16 = fewRowsLinear(xb, wb);
                QCOMPARE(viaBf16.scalar_type(), torch::kBFloat16);
                QCOMPARE(viaBf16.sizes(), want.sizes());
                const torch::Tensor exact = torch::nn::functional::linear(xb.to(torch::kFloat64), wb.to(torch::kFloat64));
                const torch::Tensor mass = torch::nn::functional::linear(xb.to(torch::kFloat64).abs(), wb.to(torch::kFloat64).abs());
                const torch::Tensor err = (viaBf16.to(torch::kFloat64) - exact).abs();
                const torch::Tensor allowed = exact.abs() * std::ldexp(1.0, -8) + mass * 1e-5;
                QVERIFY2((err <= allowed).all().item<bool>(),
                         qPrintable(QString("bf16 (%1) m %2, %3 × %4: worst excess %5")
                                        .arg(fewRowsKernel(torch::kBFloat16)).arg(m).arg(out).arg(in)
                                        .arg((err - allowed).max().item<double>())));
            }
    }
    torch::GradMode::set_enabled(true);
    const torch::Tensor w = torch::randn({9, 16}, torch::requires_grad()), x = torch::randn({4, 16});
    const torch::Tensor y = fewRowsLinear(x, w);
    QVERIFY(y.requires_grad()); // F::linear, differentiable
    QVERIFY(maxAbs(y, torch::nn::functional::linear(x, w)) == 0.0);
}

void TestFusedOps::decodeAttentionMatchesSoftmaxFormula_data()
{
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<int>("groupSize"); // rows sharing a prefix; 0: no prefix
    QTest::addColumn<int>("dim");
    // G = 8 rows × 2 query heads per KV head: 16 queries, one vector's lanes; G = 9: 18,
    // one full block and one of 2; 24 dims: not a multiple of a vector.
    QTest::newRow("fp32, G 8, D 64") << false << 8 << 64;
    QTest::newRow("fp32, G 9, D 24") << false << 9 << 24;
    QTest::newRow("fp32, G 3, D 16") << false << 3 << 16;
    QTest::newRow("fp32, no prefix, D 64") << false << 0 << 64;
    QTest::newRow("bf16, G 8, D 64") << true << 8 << 64;
    QTest::newRow("bf16, no prefix, D 24") << true << 0 << 24;
}

// decodeAttention against the definition, computed in f64 from the same (rounded) values:
// for row r and query head h (KV head h / (N/K)), the keys are its group's prefix then its
// own; softmax(q·k / √D + bias) weights the values. Keys and values are views of a larger
// cache (its first columns), some prefix positions are padding (bias −inf). fp32 within
// 1e-5 of the largest |value| (sums in another order); bf16 also within its rounding of
// the result (2⁻⁸). One thread and two give the same bits: each output is one task's.
void TestFusedOps::decodeAttentionMatchesSoftmaxFormula()
{
    QFETCH(bool, bf16);
    QFETCH(int, groupSize);
    QFETCH(int, dim);
    torch::manual_seed(21);
    torch::NoGradGuard noGrad;
    const auto dtype = bf16 ? torch::kBFloat16 : torch::kFloat32;
    const int64_t groups = 2, g = std::max(groupSize, 1), rows = groups * g, heads = 4, kvHeads = 2, d = dim;
    // 21 own keys: more than the 16 lanes of a vector.
    const int64_t prefix = groupSize > 0 ? 7 : 0, own = 21, capacity = 24;
    const torch::Tensor q = torch::randn({rows, heads, 1, d}).to(dtype);
    const torch::Tensor kCache = torch::randn({rows, kvHeads, capacity, d}).to(dtype);
    const torch::Tensor vCache = torch::randn({rows, kvHeads, capacity, d}).to(dtype);
    const torch::Tensor k = kCache.narrow(2, 0, own), v = vCache.narrow(2, 0, own);
    torch::Tensor pk, pv;
    if (prefix > 0) {
        pk = torch::randn({groups, kvHeads, capacity, d}).to(dtype).narrow(2, 0, prefix);
        pv = torch::randn({groups, kvHeads, capacity, d}).to(dtype).narrow(2, 0, prefix);
    }
    // The second group's prompt was left-padded by 2 (with a prefix); else row 0's first own key.
    torch::Tensor bias = torch::zeros({rows, 1, 1, prefix + own});
    if (prefix > 0)
        bias.narrow(0, g, g).narrow(3, 0, 2).fill_(-INFINITY);
    else
        bias[0][0][0][0] = -INFINITY;

    torch::Tensor want = torch::empty({rows, 1, heads * d}, torch::kFloat64);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t h = 0; h < heads; ++h) {
            const int64_t kh = h / (heads / kvHeads);
            torch::Tensor keys = k[r][kh].to(torch::kFloat64), values = v[r][kh].to(torch::kFloat64);
            if (prefix > 0) {
                keys = torch::cat({pk[r / g][kh].to(torch::kFloat64), keys});
                values = torch::cat({pv[r / g][kh].to(torch::kFloat64), values});
            }
            const torch::Tensor scores = keys.matmul(q[r][h][0].to(torch::kFloat64)) / std::sqrt(static_cast<double>(d)) +
                                         bias[r][0][0].to(torch::kFloat64);
            want[r][0].narrow(0, h * d, d).copy_(torch::softmax(scores, 0).matmul(values));
        }
    const double largest = (prefix > 0 ? torch::maximum(v.abs().max(), pv.abs().max()) : v.abs().max()).item<double>();

    torch::Tensor first;
    for (int threads : {1, 2}) {
        const ThreadCount tc(threads);
        const torch::Tensor got = decodeAttention(q, k, v, pk, pv, std::max(groupSize, 1), bias);
        QVERIFY(got.defined());
        QCOMPARE(got.scalar_type(), dtype);
        QCOMPARE(got.sizes(), want.sizes());
        const torch::Tensor err = (got.to(torch::kFloat64) - want).abs();
        const torch::Tensor allowed = want.abs() * (bf16 ? std::ldexp(1.0, -8) : 0.0) + 1e-5 * largest;
        QVERIFY2((err <= allowed).all().item<bool>(),
                 qPrintable(QString("threads %1: worst excess %2").arg(threads).arg((err - allowed).max().item<double>())));
        if (!first.defined())
            first = got;
        else
            QVERIFY(torch::equal(got, first));
    }
}

// Where the kernel does not apply it returns nothing and the caller composes ATen's:
// gradients wanted, several new tokens, f64, keys of another dtype than q.
void TestFusedOps::decodeAttentionLeavesOtherCasesToAten()
{
    torch::manual_seed(22);
    const torch::Tensor k = torch::randn({2, 1, 3, 16}), v = torch::randn({2, 1, 3, 16});
    const torch::Tensor bias = torch::zeros({2, 1, 1, 3});
    {
        torch::NoGradGuard noGrad;
        QVERIFY(decodeAttention(torch::randn({2, 2, 1, 16}), k, v, {}, {}, 1, bias).defined());
        QVERIFY(!decodeAttention(torch::randn({2, 2, 2, 16}), k, v, {}, {}, 1, torch::zeros({2, 1, 2, 3})).defined());
        QVERIFY(!decodeAttention(torch::randn({2, 2, 1, 16}, torch::kFloat64), k.to(torch::kFloat64),
                                 v.to(torch::kFloat64), {}, {}, 1, bias).defined());
        QVERIFY(!decodeAttention(torch::randn({2, 2, 1, 16}).to(torch::kBFloat16), k, v, {}, {}, 1, bias).defined());
    }
    const torch::Tensor q = torch::randn({2, 2, 1, 16}, torch::requires_grad());
    QVERIFY(!decodeAttention(q, k, v, {}, {}, 1, bias).defined());
}

// temperedExp against softmax and log_softmax of x / T in f64: e / Σ e within 1e-6 of each
// probability plus 1e-6 of the largest, the log-normaliser within 1e-5; a −inf logit
// (a token masked out) gives 0 exactly. Rows of 4,096 (the tiny vocabulary) and 37 (not a
// multiple of a vector), T 1, 0.7 and 1.5, logits spread like a model's (σ 4).
void TestFusedOps::temperedExpIsSoftmaxUpToItsSum()
{
    torch::manual_seed(23);
    for (int64_t n : {4096, 37})
        for (double t : {1.0, 0.7, 1.5}) {
            torch::Tensor x = torch::randn({n}) * 4.0;
            x[n / 3] = -INFINITY;
            std::vector<float> e(static_cast<size_t>(n));
            const float logNormaliser = temperedExp(x.data_ptr<float>(), n, t, e.data());
            const torch::Tensor scaled = x.to(torch::kFloat64) / t;
            const torch::Tensor want = torch::softmax(scaled, 0);
            const double lse = torch::logsumexp(scaled, 0).item<double>();
            const torch::Tensor got = torch::from_blob(e.data(), {n}).to(torch::kFloat64);
            const torch::Tensor p = got / got.sum();
            QVERIFY2(((p - want).abs() <= want * 1e-6 + want.max() * 1e-6).all().item<bool>(),
                     qPrintable(QString("n %1, T %2: worst %3").arg(n).arg(t).arg((p - want).abs().max().item<double>())));
            QVERIFY2(std::abs(logNormaliser - lse) <= 1e-5 * std::max(1.0, std::abs(lse)),
                     qPrintable(QString("n %1, T %2: %3 against %4").arg(n).arg(t).arg(logNormaliser).arg(lse)));
            QCOMPARE(e[static_cast<size_t>(n / 3)], 0.0f);
        }
}

QTEST_APPLESS_MAIN(TestFusedOps)
#include "tst_fusedops.moc"
