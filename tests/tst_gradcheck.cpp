// The gradients the trainers take, checked against central finite differences in f64 on
// a tiny decoder (2 layers, hidden 32, LoRA on all seven projections): GRPO's policy loss
// through policyLossBackward, the very path rwb grpo takes (prompts shared by each group,
// micro-batches weighted into the batch's loss), for every loss type, with β > 0 and with
// μ > 1 (ratios away from 1, some tokens clipped), with retrieved tokens marked inside
// completions (a multi-step task's: no loss, no gradient, not counted); the grouped
// prompt against every row run on its own (where the retrievals are masked by hand); SFT's
// loss with λ on control tags and the prompt in the loss.
//
// Tolerances: relative error ‖g − g_fd‖ / ‖g_fd‖ ≤ 1e-6 per parameter tensor, g_fd by the
// five-point stencil with h = 1e-4 in f64 (truncation O(h⁴), rounding about 1e-12; central
// differences erred by 1.1e-4 at h = 1e-4 and 1.1e-6 at 1e-5, as h², measured), and 1e-10
// between the grouped and the row-by-row gradients (the same sums in another order).
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/transformer.h"
#include "train/devicecheck.h"
#include "train/gradientcheck.h"
#include "train/policygradient.h"
#include "train/sftloss.h"
#include "torchtest.h"

#include <QtTest>

#include <random>

using namespace rwb;
using namespace rwb::model;
using namespace rwb::train;
using rwbtest::tinyConfig;

namespace {

constexpr double kStep = 1e-4;
constexpr double kRelTol = 1e-6;

// A f64 model; with LoRA on every projection, its A and B random (B starts at 0 in
// training, where A's gradient would be 0 too).
std::unique_ptr<CausalLM> tinyModel(bool lora, double loraDropout = 0.0)
{
    ModelOptions o;
    o.dtype = "float64";
    o.device = "cpu";
    o.threads = 1;
    o.seed = 7;
    auto lm = CausalLM::random(tinyConfig(), o);
    if (lora) {
        LoraOptions lo;
        lo.rank = 2;
        lo.alpha = 4.0;
        lo.dropout = loraDropout;
        lo.targetModules = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
        lm->addLora(lo);
        torch::NoGradGuard noGrad;
        torch::manual_seed(11);
        for (auto &[name, t] : lm->internals().loraTensors())
            t.normal_(0.0, 0.3);
    }
    lm->internals().module->train();
    return lm;
}

std::vector<int32_t> tokens(std::mt19937 &rng, size_t n)
{
    std::uniform_int_distribution<int32_t> id(1, 39);
    std::vector<int32_t> v(n);
    for (auto &t : v)
        t = id(rng);
    return v;
}

// Two prompts (5 and 3 tokens) × G = 3 completions of 4, 1, 6 and 2, 5, 3 tokens.
PolicyBatch makeBatch()
{
    std::mt19937 rng(3);
    PolicyBatch b;
    b.groupPrompts = {tokens(rng, 5), tokens(rng, 3)};
    for (size_t n : {4, 1, 6, 2, 5, 3})
        b.completions.push_back(tokens(rng, n));
    b.advantages = {0.9, -1.2, 0.3, 1.5, -0.4, -1.1};
    return b;
}

struct Case {
    LossType loss = LossType::Grpo;
    double beta = 0.0;
    bool oldPolicy = false; // μ > 1: old log-probs that differ from the current ones
    bool maskRow = false;   // row 4 masked (a truncated completion with masking on)
    double epsHigh = 0.2;
    bool environment = false; // rows 0, 2 and 5 hold tokens the environment wrote (retrievals)
    bool perToken = false;    // dual-granularity GRPO: every token its own advantage (A_out + β·A_proc of its step)
};

PolicyStepOptions optionsFor(const Case &k, int microRows)
{
    PolicyStepOptions o;
    o.loss.lossType = k.loss;
    o.loss.beta = k.beta;
    o.loss.epsHigh = k.epsHigh;
    o.loss.maxCompletionLength = 8;
    o.groupSize = 3;
    o.microRows = microRows;
    return o;
}

// The gradient of every trainable tensor after one policyLossBackward (flattened copies).
std::vector<torch::Tensor> gradients(CausalLM &lm, const PolicyBatch &b, const PolicyStepOptions &o, double *loss = nullptr,
                                     double *clipped = nullptr)
{
    auto params = lm.internals().trainableParameters();
    for (auto &p : params)
        if (p.grad().defined())
            p.grad().zero_();
    double clip = 0.0, tokens = 0.0;
    const double l = policyLossBackward(lm.internals(), b, o, [&](const MicroBatch &mb) {
        clip += mb.loss.clipRatioRegion * static_cast<double>(mb.loss.activeTokens);
        tokens += static_cast<double>(mb.loss.activeTokens);
    });
    if (loss)
        *loss = l;
    if (clipped)
        *clipped = clip / tokens;
    std::vector<torch::Tensor> g;
    for (auto &p : params)
        g.push_back(p.grad().detach().clone().flatten());
    return g;
}

// The batch's rows run one by one as whole sequences (prompt + completion, no KV sharing),
// their completion log-probs [R, T] taken from sequenceLogProbs.
torch::Tensor rowByRowLogProbs(CausalLmInternals &d, const PolicyBatch &b, int groupSize, torch::Tensor *mask)
{
    std::vector<std::vector<int32_t>> prompts;
    int64_t width = 1;
    for (size_t r = 0; r < b.completions.size(); ++r) {
        prompts.push_back(b.groupPrompts[r / static_cast<size_t>(groupSize)]);
        width = std::max<int64_t>(width, static_cast<int64_t>(b.completions[r].size()));
    }
    std::vector<torch::Tensor> rows, masks;
    for (size_t r = 0; r < b.completions.size(); ++r) {
        const auto batch = d.makeBatch({prompts[r]}, {b.completions[r]}, 0);
        const torch::Tensor lp = d.sequenceLogProbs(batch, 1.0, 128, nullptr)[0]; // [L − 1]
        const int64_t n = static_cast<int64_t>(b.completions[r].size());
        const torch::Tensor c = lp.narrow(0, batch.completionStart[0] - 1, n);
        rows.push_back(torch::nn::functional::pad(c, torch::nn::functional::PadFuncOptions({0, width - n})));
        masks.push_back(torch::cat({torch::ones({n}, c.options()), torch::zeros({width - n}, c.options())}));
    }
    *mask = torch::stack(masks);
    return torch::stack(rows);
}

} // namespace

class TestGradCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void grpoLossGradient_data();
    void grpoLossGradient();
    void sharedPromptEqualsRowByRow_data();
    void sharedPromptEqualsRowByRow();
    void workersGiveTheSameGradient_data();
    void workersGiveTheSameGradient();
    void sftLossGradient_data();
    void sftLossGradient();
    void sftLossWithNothingWeighted();
    void finiteDifferencesSeeAWrongGradient();
    void deviceCheckPassesOnTheCpu_data();
    void deviceCheckPassesOnTheCpu();
};

namespace {
void addCases()
{
    QTest::addColumn<int>("loss");
    QTest::addColumn<double>("beta");
    QTest::addColumn<bool>("oldPolicy");
    QTest::addColumn<bool>("maskRow");
    QTest::addColumn<double>("epsHigh");
    QTest::addColumn<bool>("environment");
    QTest::addColumn<bool>("perToken");
    QTest::newRow("grpo μ=1") << int(LossType::Grpo) << 0.0 << false << false << 0.2 << false << false;
    QTest::newRow("grpo β=0.1 μ>1") << int(LossType::Grpo) << 0.1 << true << false << 0.2 << false << false;
    QTest::newRow("bnpo β=0.04") << int(LossType::Bnpo) << 0.04 << false << false << 0.2 << false << false;
    QTest::newRow("dr_grpo μ>1") << int(LossType::DrGrpo) << 0.0 << true << false << 0.2 << false << false;
    QTest::newRow("dapo μ>1 clip-higher masked row") << int(LossType::Dapo) << 0.0 << true << true << 0.28 << false << false;
    // Multi-step rollouts: retrieved tokens inside completions get no loss and no gradient.
    QTest::newRow("grpo μ>1 retrievals") << int(LossType::Grpo) << 0.0 << true << false << 0.2 << true << false;
    QTest::newRow("dapo β=0.04 retrievals masked row") << int(LossType::Dapo) << 0.04 << false << true << 0.2 << true << false;
    // Dual-granularity GRPO (ProRAG eq. 8): advantages per token, retrieved tokens masked.
    QTest::newRow("grpo μ>1 retrievals per-token advantages") << int(LossType::Grpo) << 0.0 << true << false << 0.2 << true << true;
    QTest::newRow("dapo β=0.04 per-token advantages masked row") << int(LossType::Dapo) << 0.04 << false << true << 0.2 << true << true;
}

Case caseFromData()
{
    Case k;
    QFETCH(int, loss);
    QFETCH(double, beta);
    QFETCH(bool, oldPolicy);
    QFETCH(bool, maskRow);
    QFETCH(double, epsHigh);
    QFETCH(bool, environment);
    QFETCH(bool, perToken);
    k.environment = environment;
    k.perToken = perToken;
    k.loss = static_cast<LossType>(loss);
    k.beta = beta;
    k.oldPolicy = oldPolicy;
    k.maskRow = maskRow;
    k.epsHigh = epsHigh;
    return k;
}

// The batch of a case: old log-probs perturbed by N(0, 0.3²) for μ > 1 (so that ratios
// leave [0.8, 1.2]), the adapters-off model's log-probs as the reference for β > 0.
PolicyBatch batchFor(CausalLM &lm, const Case &k)
{
    PolicyBatch b = makeBatch();
    if (k.maskRow)
        b.masked = {false, false, false, false, true, false};
    if (k.environment) // completions of 4, 1, 6, 2, 5, 3 tokens; row 1 has no marks at all
        b.environment = {{0, 1, 1, 0}, {}, {0, 0, 1, 1, 1, 0}, {0, 0}, {0, 1, 0, 0, 0}, {1, 0, 0}};
    if (k.perToken) // each token of row r: A_r + 0.3·((t mod 3) − 1), as steps of different process advantages
        for (size_t r = 0; r < b.completions.size(); ++r) {
            std::vector<double> a;
            for (size_t t = 0; t < b.completions[r].size(); ++t)
                a.push_back(b.advantages[r] + 0.3 * (static_cast<double>(t % 3) - 1.0));
            b.tokenAdvantages.push_back(a);
        }
    const PolicyStepOptions o = optionsFor(k, 3);
    if (k.oldPolicy) {
        torch::manual_seed(17);
        const torch::Tensor now = noGradLogProbs(lm.internals(), b, o, 6);
        b.oldLogProbs = now + 0.3 * torch::randn_like(now);
    }
    if (k.beta > 0.0) {
        lm.setAdaptersEnabled(false);
        b.refLogProbs = noGradLogProbs(lm.internals(), b, o, 6);
        lm.setAdaptersEnabled(true);
    }
    return b;
}
} // namespace

void TestGradCheck::grpoLossGradient_data()
{
    addCases();
}

void TestGradCheck::grpoLossGradient()
{
    const Case k = caseFromData();
    auto lm = tinyModel(true);
    PolicyBatch b = batchFor(*lm, k);
    const PolicyStepOptions o = optionsFor(k, 3); // two micro-batches of one group each, as the trainer splits
    double loss = 0.0, clipped = 0.0;
    const std::vector<torch::Tensor> g = gradients(*lm, b, o, &loss, &clipped);
    QVERIFY(std::isfinite(loss));
    if (k.oldPolicy) { // ratios ≠ 1: some tokens clipped, not all
        QVERIFY2(clipped > 0.0 && clipped < 1.0, qPrintable(QString::number(clipped)));
    }

    // The loss as a function of the parameters. With μ = 1 the trainer's old log-probs are
    // the new ones detached; the function they differentiate holds them at today's values.
    PolicyBatch fixed = b;
    if (!k.oldPolicy)
        fixed.oldLogProbs = noGradLogProbs(lm->internals(), b, o, 6);
    auto f = [&] {
        double l = 0.0;
        gradients(*lm, fixed, o, &l);
        return l;
    };
    QVERIFY(std::abs(f() - loss) < 1e-12); // the same value at the base point
    std::string where;
    const double err = worstRelativeError(lm->internals().trainableParameters(), g, f, 4, kStep, 5, &where);
    qInfo("worst relative error %.3g at %s", err, where.c_str());
    QVERIFY2(err <= kRelTol, qPrintable(QString("relative error %1 at %2").arg(err).arg(QString::fromStdString(where))));
}

void TestGradCheck::workersGiveTheSameGradient_data()
{
    addCases();
}

// Micro-batches on two worker threads (model/workers.h) against one after the other: the
// same gradient, loss and metrics to rounding (f64: 1e-12 relative), with LoRA dropout
// drawn per micro-batch from (seed, micro-batch); and two runs on two workers agree to the
// bit. Micro-batches of one group (3 rows): two of them, one per worker.
void TestGradCheck::workersGiveTheSameGradient()
{
    const Case k = caseFromData();
    auto lm = tinyModel(true, 0.1);
    const PolicyBatch b = batchFor(*lm, k);
    PolicyStepOptions o = optionsFor(k, 3);
    o.dropoutSeed = 99;
    double loss1 = 0.0, loss2 = 0.0, loss2again = 0.0, clip1 = 0.0, clip2 = 0.0;
    const std::vector<torch::Tensor> one = gradients(*lm, b, o, &loss1, &clip1);
    o.workers = 2;
    const std::vector<torch::Tensor> two = gradients(*lm, b, o, &loss2, &clip2);
    const std::vector<torch::Tensor> again = gradients(*lm, b, o, &loss2again);
    QCOMPARE(one.size(), two.size());
    double scale = 0.0;
    for (const torch::Tensor &g : one)
        scale = std::max(scale, g.abs().max().item<double>());
    QVERIFY(scale > 1e-3); // a gradient worth comparing
    for (size_t i = 0; i < one.size(); ++i) {
        const double diff = (one[i] - two[i]).abs().max().item<double>();
        QVERIFY2(diff <= 1e-12 * scale, qPrintable(QString("tensor %1: %2").arg(i).arg(diff)));
        QVERIFY(torch::equal(two[i], again[i]));
    }
    QVERIFY(std::abs(loss1 - loss2) <= 1e-12 * std::max(1.0, std::abs(loss1)));
    QCOMPARE(loss2, loss2again);
    QVERIFY(std::abs(clip1 - clip2) <= 1e-12);
    // Dropout is on: another seed gives another gradient.
    o.dropoutSeed = 100;
    const std::vector<torch::Tensor> otherSeed = gradients(*lm, b, o);
    double moved = 0.0;
    for (size_t i = 0; i < one.size(); ++i)
        moved = std::max(moved, (otherSeed[i] - two[i]).abs().max().item<double>());
    QVERIFY(moved > 1e-6 * scale);
}

void TestGradCheck::sharedPromptEqualsRowByRow_data()
{
    addCases();
}

void TestGradCheck::sharedPromptEqualsRowByRow()
{
    const Case k = caseFromData();
    auto lm = tinyModel(true);
    const PolicyBatch b = batchFor(*lm, k);
    // One micro-batch of all rows: bnpo's token mean is per micro-batch by definition.
    const PolicyStepOptions o = optionsFor(k, 6);
    double grouped = 0.0;
    const std::vector<torch::Tensor> g = gradients(*lm, b, o, &grouped);

    auto params = lm->internals().trainableParameters();
    for (auto &p : params)
        p.grad().zero_();
    torch::Tensor mask;
    const torch::Tensor lp = rowByRowLogProbs(lm->internals(), b, 3, &mask);
    GrpoLossInputs in;
    in.newLogProbs = lp;
    in.oldLogProbs = b.oldLogProbs.defined() ? b.oldLogProbs.narrow(1, 0, lp.size(1)) : lp.detach();
    if (b.refLogProbs.defined())
        in.refLogProbs = b.refLogProbs.narrow(1, 0, lp.size(1));
    in.advantages = torch::tensor(b.advantages, torch::kFloat64);
    if (k.perToken) { // [R, T]: the row's own per token, 0 past its end
        in.advantages = torch::zeros({lp.size(0), lp.size(1)}, torch::kFloat64);
        for (size_t r = 0; r < b.tokenAdvantages.size(); ++r)
            for (size_t t = 0; t < b.tokenAdvantages[r].size(); ++t)
                in.advantages[static_cast<int64_t>(r)][static_cast<int64_t>(t)] = b.tokenAdvantages[r][t];
    }
    if (k.maskRow)
        mask[4].zero_();
    for (size_t r = 0; r < b.environment.size(); ++r) // the environment's tokens count for nothing
        for (size_t t = 0; t < b.environment[r].size(); ++t)
            if (b.environment[r][t])
                mask[static_cast<int64_t>(r)][static_cast<int64_t>(t)] = 0.0;
    in.mask = mask;
    GrpoLossOptions lo = o.loss;
    lo.dapoGlobalTokens = mask.sum().item<double>();
    const torch::Tensor loss = grpoLoss(in, lo).loss;
    loss.backward();
    QVERIFY2(std::abs(loss.item<double>() - grouped) <= 1e-12,
             qPrintable(QString("%1 vs %2").arg(loss.item<double>(), 0, 'g', 17).arg(grouped, 0, 'g', 17)));
    for (size_t i = 0; i < params.size(); ++i) {
        const torch::Tensor rowByRow = params[i].grad().flatten();
        const double scale = std::max(1e-12, g[i].abs().max().item<double>());
        const double diff = (g[i] - rowByRow).abs().max().item<double>() / scale;
        QVERIFY2(diff <= 1e-10, qPrintable(QString("tensor %1: %2").arg(i).arg(diff)));
    }
    if (k.perToken) { // the per-token advantages matter: the row's alone give another gradient
        PolicyBatch sequence = b;
        sequence.tokenAdvantages.clear();
        const std::vector<torch::Tensor> u = gradients(*lm, sequence, o);
        double apart = 0.0;
        for (size_t i = 0; i < g.size(); ++i)
            apart = std::max(apart, (g[i] - u[i]).abs().max().item<double>() / std::max(1e-12, g[i].abs().max().item<double>()));
        QVERIFY2(apart > 1e-2, qPrintable(QString::number(apart)));
    }
    if (k.environment) { // the marks matter: without them the retrieved tokens would pull the gradient
        PolicyBatch unmarked = b;
        unmarked.environment.clear();
        const std::vector<torch::Tensor> u = gradients(*lm, unmarked, o);
        double apart = 0.0;
        for (size_t i = 0; i < g.size(); ++i)
            apart = std::max(apart, (g[i] - u[i]).abs().max().item<double>() / std::max(1e-12, g[i].abs().max().item<double>()));
        QVERIFY2(apart > 1e-2, qPrintable(QString::number(apart)));
    }
}

// A micro-batch whose tokens all have weight 0 (what the environment wrote, say): the
// head runs on no position, and the loss is still 0 with a backward that gives zeros
// (it threw "does not require grad" when the head first skipped unweighted positions).
void TestGradCheck::sftLossWithNothingWeighted()
{
    auto lm = tinyModel(true);
    CausalLmInternals &d = lm->internals();
    std::mt19937 rng(3);
    const std::vector<std::vector<int32_t>> prompts{tokens(rng, 4), tokens(rng, 2)};
    const std::vector<std::vector<int32_t>> targets{tokens(rng, 3), tokens(rng, 5)};
    const std::vector<std::vector<float>> weights{std::vector<float>(3, 0.0f), std::vector<float>(5, 0.0f)};
    const torch::Tensor l = sftLoss(d, prompts, targets, weights, 0.0, 1.0, 0, false);
    QCOMPARE(l.item<double>(), 0.0);
    l.backward();
    for (const torch::Tensor &p : d.trainableParameters())
        QVERIFY(!p.grad().defined() || p.grad().abs().max().item<double>() == 0.0);
}

void TestGradCheck::sftLossGradient_data()
{
    QTest::addColumn<bool>("lora");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<double>("promptWeight");
    QTest::newRow("lora, λ = 2.5 on control tags") << true << 2.5 << 0.0;
    QTest::newRow("full, λ = 0.5, prompt weight 0.3") << false << 0.5 << 0.3;
}

void TestGradCheck::sftLossGradient()
{
    QFETCH(bool, lora);
    QFETCH(double, lambda);
    QFETCH(double, promptWeight);
    auto lm = tinyModel(lora);
    CausalLmInternals &d = lm->internals();
    std::mt19937 rng(9);
    // Two micro-batches of one optimizer step; tokens 1 and 2 play the control tags.
    std::vector<std::vector<std::vector<int32_t>>> prompts(2), targets(2);
    std::vector<std::vector<std::vector<float>>> weights(2);
    double targetTokens = 0.0;
    for (int m = 0; m < 2; ++m)
        for (size_t n : {3 + m, 5 - m}) {
            prompts[m].push_back(tokens(rng, n));
            std::vector<int32_t> t = tokens(rng, n + 1);
            t.front() = 1;
            t.back() = 2;
            targets[m].push_back(t);
            std::vector<float> w;
            for (int32_t id : t)
                w.push_back(id == 1 || id == 2 ? static_cast<float>(lambda) : 1.0f);
            weights[m].push_back(w);
            targetTokens += static_cast<double>(t.size());
            if (promptWeight > 0.0)
                targetTokens += static_cast<double>(n - 1);
        }
    auto step = [&](bool backward) {
        double total = 0.0;
        for (int m = 0; m < 2; ++m) {
            const torch::Tensor l = sftLoss(d, prompts[m], targets[m], weights[m], promptWeight, targetTokens, 0, false);
            if (backward)
                l.backward();
            total += l.item<double>();
        }
        return total;
    };

    // The value, worked out from the logits by hand: −(Σ w·log p) / N.
    {
        torch::NoGradGuard noGrad;
        double s = 0.0;
        for (int m = 0; m < 2; ++m)
            for (size_t r = 0; r < prompts[m].size(); ++r) {
                std::vector<int64_t> ids(prompts[m][r].begin(), prompts[m][r].end());
                ids.insert(ids.end(), targets[m][r].begin(), targets[m][r].end());
                const torch::Tensor t = torch::tensor(ids, torch::kLong).unsqueeze(0);
                const torch::Tensor mask = torch::ones_like(t);
                const torch::Tensor logp =
                    torch::log_softmax(d.module->logits(d.module->hidden(t, positionsFromMask(mask), mask, nullptr)), -1)[0];
                const size_t p = prompts[m][r].size();
                for (size_t i = 1; i < ids.size(); ++i) {
                    const double w = i >= p ? weights[m][r][i - p] : promptWeight;
                    s += w * logp[static_cast<int64_t>(i - 1)][ids[i]].item<double>();
                }
            }
        QVERIFY(std::abs(step(false) + s / targetTokens) < 1e-12);
    }

    auto params = d.trainableParameters();
    for (auto &p : params)
        if (p.grad().defined())
            p.grad().zero_();
    step(true);
    std::vector<torch::Tensor> g;
    for (auto &p : params)
        g.push_back(p.grad().detach().clone().flatten());
    std::string where;
    const double err = worstRelativeError(params, g, [&] { return step(false); }, 3, kStep, 5, &where);
    qInfo("worst relative error %.3g at %s", err, where.c_str());
    QVERIFY2(err <= kRelTol, qPrintable(QString("relative error %1 at %2").arg(err).arg(QString::fromStdString(where))));
}

QTEST_APPLESS_MAIN(TestGradCheck)
#include "tst_gradcheck.moc"

// The stencil against a function whose gradient is known by hand: f(x, y) = Σ sin(xᵢ)·yᵢ²,
// ∂f/∂xᵢ = cos(xᵢ)·yᵢ², ∂f/∂yᵢ = 2·sin(xᵢ)·yᵢ. The right gradient passes at 1e-9; one 1 %
// too large errs by 1e-2 (the error is relative, so a uniform scale shows as itself); one
// with a single element's sign flipped errs by far more than the tolerance.
void TestGradCheck::finiteDifferencesSeeAWrongGradient()
{
    torch::manual_seed(3);
    const torch::Tensor x = torch::randn({5}, torch::kFloat64);
    const torch::Tensor y = torch::randn({5}, torch::kFloat64);
    auto f = [&] { return (torch::sin(x) * y * y).sum().item<double>(); };
    const std::vector<torch::Tensor> right{torch::cos(x) * y * y, 2.0 * torch::sin(x) * y};
    QVERIFY(worstRelativeError({x, y}, right, f, 5, kStep, 1) < 1e-9);
    const std::vector<torch::Tensor> scaled{right[0] * 1.01, right[1]};
    std::string where;
    QVERIFY(std::abs(worstRelativeError({x, y}, scaled, f, 5, kStep, 1, &where) - 1e-2) < 1e-8);
    QVERIFY2(where.rfind("tensor 0 ", 0) == 0, where.c_str());
    torch::Tensor flipped = right[1].clone();
    flipped[2] = -flipped[2];
    // Every element is probed with 40 draws of 5, so the flipped one is among them.
    QVERIFY(worstRelativeError({x, y}, {right[0], flipped}, f, 40, kStep, 1, &where) > 1e-2);
    QVERIFY2(where.rfind("tensor 1 ", 0) == 0, where.c_str());
}

void TestGradCheck::deviceCheckPassesOnTheCpu_data()
{
    QTest::addColumn<QString>("dtype");
    QTest::newRow("float32") << "float32";
    QTest::newRow("bfloat16") << "bfloat16";
}

// rwb model check on the CPU: every check runs and passes, and each figure is near what a
// correct decoder gives in that dtype (measured: float32 ≤ 5e-7 forward and gradient,
// bf16 ≤ 0.011 forward and 0.023 gradient; f64 finite differences 6e-9).
void TestGradCheck::deviceCheckPassesOnTheCpu()
{
    QFETCH(QString, dtype);
    train::DeviceCheckOptions o;
    o.device = "cpu";
    o.dtype = dtype.toStdString();
    o.threads = 1;
    int seen = 0;
    const train::DeviceCheckReport report = train::checkDevice(o, [&](const train::DeviceCheckResult &) { ++seen; });
    QCOMPARE(report.device, std::string("cpu"));
    QCOMPARE(seen, 18);
    QCOMPARE(report.results.size(), size_t(18));
    QStringList checks;
    for (const train::DeviceCheckResult &r : report.results) {
        checks << QString::fromStdString(r.check + " " + r.model);
        QVERIFY2(r.passed && r.value <= r.tolerance,
                 qPrintable(QString("%1 on %2: %3 > %4").arg(r.check.c_str(), r.model.c_str()).arg(r.value).arg(r.tolerance)));
        QVERIFY(!r.measure.empty());
    }
    for (const char *family : {"qwen3", "qwen2", "llama"})
        for (const char *check : {"logits", "kv_cache", "left_padding", "greedy", "seeded_sampling"})
            QVERIFY2(checks.contains(QString("%1 %2 (random)").arg(check, family)), qPrintable(checks.join(", ")));
    QVERIFY(checks.contains("gradient qwen3 + LoRA (random)"));
    QVERIFY(checks.contains("gradient_vs_cpu qwen3 + LoRA (random)"));
    QVERIFY(checks.contains("gradient_padded qwen3 + LoRA (random)"));
    QVERIFY(report.passed());
    // The tolerances are the dtype's, and the figures are not suspiciously exact where the
    // dtype rounds (a check that compared a tensor with itself would give 0).
    QCOMPARE(report.results[0].tolerance, dtype == "float32" ? 1e-4 : 5e-2);
    QVERIFY(report.results[0].value > (dtype == "float32" ? 1e-8 : 1e-4));
    QVERIFY(report.results.back().value > (dtype == "float32" ? 1e-8 : 1e-3));
    QVERIFY_EXCEPTION_THROWN(train::forwardTolerance("float16"), std::runtime_error);
}
