// core/model: the decoder (RoPE, GQA, KV cache, LoRA, sampling, log-probs) on tiny
// random models. Values worked out by hand are noted beside each check.
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/modelconfig.h"
#include "model/transformer.h"
#include "data/jsonl.h"

#include <QtTest>

using namespace rwb::model;

namespace {

ModelConfig tinyConfig(Family family = Family::Qwen3)
{
    ModelConfig c;
    c.family = family;
    c.qkNorm = family == Family::Qwen3;
    c.qkvBias = family == Family::Qwen2;
    c.vocabSize = 50;
    c.hiddenSize = 32;
    c.intermediateSize = 64;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 8;
    c.ropeTheta = 10000.0;
    c.maxPositions = 256;
    c.tieWordEmbeddings = family != Family::Llama;
    return c;
}

torch::Tensor fullLogits(Transformer &m, const torch::Tensor &ids)
{
    const torch::Tensor mask = torch::ones_like(ids);
    return m->logits(m->hidden(ids, positionsFromMask(mask), mask, nullptr)).to(torch::kFloat32);
}

} // namespace

class TestTransformer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void ropeFrequencies_data();
    void ropeFrequencies();
    void ropeRotation();
    void gqaHeadMapping();
    void kvCacheMatchesFullRecompute_data();
    void kvCacheMatchesFullRecompute();
    void leftPaddingDoesNotChangeLogits();
    void paddingQueriesSeeThemselves();
    void sharedPrefixMatchesRepeatedRows_data();
    void sharedPrefixMatchesRepeatedRows();
    void loraZeroBEqualsBase();
    void samplingIsSeeded();
    void greedyFollowsArgmax();
    void scoreTokensMatchesLogSoftmax();
    void groupedLogProbsMatchFullSequences();
    void configParsing();
    void configErrors_data();
    void configErrors();
};

void TestTransformer::ropeFrequencies_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<double>("theta");
    QTest::addColumn<QList<double>>("expected");
    QTest::addColumn<double>("scaling");
    // d = 8: inv_freq_i = θ^(−2i/8).
    QTest::newRow("default") << "default" << 500000.0
                             << QList<double>{1.0, 0.03760603093, 0.001414213562, 5.318295897e-05} << 1.0;
    // linear, factor 2: every frequency halved (θ = 10000: 1, 0.1, 0.01, 0.001).
    QTest::newRow("linear") << "linear" << 10000.0 << QList<double>{0.5, 0.05, 0.005, 0.0005} << 1.0;
    // llama3, factor 8, low 1, high 4, original 8192 (θ = 500000): wavelengths 6.28 and 167 stay,
    // 4443 lies between 2048 and 8192 → smooth = (8192/4443 − 1)/3 = 0.2813, inv·(0.7187/8 + 0.2813);
    // 118143 > 8192 → inv / 8.
    QTest::newRow("llama3") << "llama3" << 500000.0
                            << QList<double>{1.0, 0.03760603093, 0.0005248461610, 6.647869871e-06} << 1.0;
    // yarn, factor 4, original 4096, β 32 / 1 (θ = 10000): low = floor(1.31) = 1, high = ceil(2.81) = 3;
    // ramp (i − 1)/2 clamped → extrapolate i = 0, 1; half-half at i = 2 (0.5/400 + 0.5/100); interpolate i = 3.
    // attention factor 0.1·ln 4 + 1 = 1.1386.
    QTest::newRow("yarn") << "yarn" << 10000.0 << QList<double>{1.0, 0.1, 0.00625, 0.00025} << 1.138629436;
}

void TestTransformer::ropeFrequencies()
{
    QFETCH(QString, type);
    QFETCH(double, theta);
    QFETCH(QList<double>, expected);
    QFETCH(double, scaling);
    ModelConfig c = tinyConfig();
    c.ropeTheta = theta;
    if (type == "linear") {
        c.ropeScaling.type = RopeScaling::Type::Linear;
        c.ropeScaling.factor = 2.0;
    } else if (type == "llama3") {
        c.ropeScaling.type = RopeScaling::Type::Llama3;
        c.ropeScaling.factor = 8.0;
        c.ropeScaling.lowFreqFactor = 1.0;
        c.ropeScaling.highFreqFactor = 4.0;
        c.ropeScaling.originalMaxPositions = 8192;
    } else if (type == "yarn") {
        c.ropeScaling.type = RopeScaling::Type::Yarn;
        c.ropeScaling.factor = 4.0;
        c.ropeScaling.originalMaxPositions = 4096;
    }
    const Rope rope(c);
    QCOMPARE(rope.invFreq().size(0), int64_t(4));
    for (int i = 0; i < 4; ++i) {
        const double got = rope.invFreq()[i].item<double>();
        QVERIFY2(std::abs(got - expected[i]) <= 1e-6 * std::max(1.0, std::abs(expected[i])) + 1e-12,
                 qPrintable(QString("%1: %2 vs %3").arg(i).arg(got).arg(expected[i])));
    }
    QVERIFY(std::abs(rope.attentionScaling() - scaling) < 1e-6);
}

void TestTransformer::ropeRotation()
{
    // d = 4, θ = 10000: inv = [1, 0.01]. Position 1 rotates x = [1, 2, 3, 4] to
    // [1·cos1 − 3·sin1, 2·cos.01 − 4·sin.01, 3·cos1 + 1·sin1, 4·cos.01 + 2·sin.01].
    ModelConfig c = tinyConfig();
    c.headDim = 4;
    const Rope rope(c);
    const auto [cos, sin] = rope.cosSin(torch::tensor({{1}}, torch::kLong));
    const torch::Tensor x = torch::tensor({1.f, 2.f, 3.f, 4.f}).view({1, 1, 1, 4});
    const torch::Tensor y = applyRope(x, cos, sin).flatten();
    const double expected[] = {std::cos(1.0) - 3 * std::sin(1.0), 2 * std::cos(0.01) - 4 * std::sin(0.01),
                               3 * std::cos(1.0) + std::sin(1.0), 4 * std::cos(0.01) + 2 * std::sin(0.01)};
    for (int i = 0; i < 4; ++i)
        QVERIFY(std::abs(y[i].item<double>() - expected[i]) < 1e-6);
    // Position 0 is the identity.
    const auto [cos0, sin0] = rope.cosSin(torch::tensor({{0}}, torch::kLong));
    QVERIFY(torch::allclose(applyRope(x, cos0, sin0), x));
}

void TestTransformer::gqaHeadMapping()
{
    // 4 query heads on 2 KV heads (G = 2), head dim 2, hidden 8. One token: softmax over one
    // key is 1, so each query head's output is the value of its KV head h / 2. With x = e₀,
    // v = first column of W_v = [1, 2 | 3, 4] and o_proj = I, the output is [1,2, 1,2, 3,4, 3,4].
    ModelConfig c = tinyConfig(Family::Llama);
    c.hiddenSize = 8;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 2;
    torch::NoGradGuard noGrad;
    Attention attn(c, std::make_shared<AdapterSwitch>());
    // Modules alone allocate their weights without drawing them (Transformer does that).
    attn->q_proj->weight.zero_();
    attn->k_proj->weight.zero_();
    attn->v_proj->weight.zero_();
    attn->v_proj->weight.select(1, 0).copy_(torch::tensor({1.f, 2.f, 3.f, 4.f}));
    attn->o_proj->weight.copy_(torch::eye(8));
    const torch::Tensor x = torch::zeros({1, 1, 8});
    x[0][0][0] = 1.f;
    const Rope rope(c);
    const auto [cos, sin] = rope.cosSin(torch::zeros({1, 1}, torch::kLong));
    const torch::Tensor bias = attentionBias(torch::ones({1, 1}, torch::kLong), 1);
    const torch::Tensor out = attn(x, cos, sin, bias, nullptr, 0).flatten();
    const torch::Tensor expected = torch::tensor({1.f, 2.f, 1.f, 2.f, 3.f, 4.f, 3.f, 4.f});
    QVERIFY2(torch::allclose(out, expected), qPrintable(QString::fromStdString(c10::str(out))));
}

void TestTransformer::kvCacheMatchesFullRecompute_data()
{
    QTest::addColumn<int>("family");
    QTest::newRow("qwen3") << int(Family::Qwen3);
    QTest::newRow("qwen2") << int(Family::Qwen2);
    QTest::newRow("llama") << int(Family::Llama);
}

void TestTransformer::kvCacheMatchesFullRecompute()
{
    QFETCH(int, family);
    torch::manual_seed(1);
    Transformer m(tinyConfig(static_cast<Family>(family)));
    torch::NoGradGuard noGrad;
    const torch::Tensor ids = torch::randint(0, 50, {1, 10}, torch::kLong);
    const torch::Tensor full = fullLogits(m, ids); // [1, 10, V]
    // Prefill 4 tokens, then one token at a time through the cache.
    KvCache cache(m->config(), 1, 16, torch::kFloat32, torch::kCPU);
    torch::Tensor mask = torch::ones({1, 4}, torch::kLong);
    torch::Tensor h = m->hidden(ids.narrow(1, 0, 4), positionsFromMask(mask), mask, &cache);
    QVERIFY(torch::allclose(m->logits(h), full.narrow(1, 0, 4), 0, 1e-4));
    for (int64_t t = 4; t < 10; ++t) {
        mask = torch::ones({1, t + 1}, torch::kLong);
        h = m->hidden(ids.narrow(1, t, 1), torch::full({1, 1}, t, torch::kLong), mask, &cache);
        const double diff = (m->logits(h).select(1, 0) - full.select(1, t)).abs().max().item<double>();
        QVERIFY2(diff < 1e-4, qPrintable(QString("step %1: %2").arg(t).arg(diff)));
    }
}

void TestTransformer::leftPaddingDoesNotChangeLogits()
{
    torch::manual_seed(2);
    Transformer m(tinyConfig());
    torch::NoGradGuard noGrad;
    const torch::Tensor a = torch::randint(0, 50, {1, 6}, torch::kLong);
    const torch::Tensor alone = fullLogits(m, a).select(1, 5);
    // The same prompt left-padded by 3 in a batch with a longer one.
    torch::Tensor ids = torch::zeros({2, 9}, torch::kLong);
    ids[0].narrow(0, 3, 6).copy_(a[0]);
    ids[1].copy_(torch::randint(0, 50, {9}, torch::kLong));
    torch::Tensor mask = torch::ones({2, 9}, torch::kLong);
    mask[0].narrow(0, 0, 3).zero_();
    const torch::Tensor batched = m->logits(m->hidden(ids, positionsFromMask(mask), mask, nullptr)).select(1, 8)[0];
    QVERIFY((batched - alone[0]).abs().max().item<double>() < 1e-4);
}

// attentionBias on a row left-padded by 2 of 4 positions, written out by hand: real queries
// see the real keys up to themselves; padding queries, which would see no key (and made
// cuDNN's attention backward return NaN in bf16 on an H200), see themselves alone; every
// other row is as causal masking and the key mask make it. Decoding one new token after
// the 4: it sees the real keys and itself.
void TestTransformer::paddingQueriesSeeThemselves()
{
    const float m = -1e30f;
    const torch::Tensor mask = torch::tensor({{0, 0, 1, 1}}, torch::kLong);
    const torch::Tensor expected = torch::tensor({{0.f, m, m, m},   // padding: itself
                                                  {m, 0.f, m, m},   // padding: itself
                                                  {m, m, 0.f, m},   // first real token
                                                  {m, m, 0.f, 0.f}}); // second
    const torch::Tensor bias = attentionBias(mask, 4);
    QCOMPARE(bias.sizes().vec(), (std::vector<int64_t>{1, 1, 4, 4}));
    QVERIFY2(torch::equal(bias[0][0], expected), qPrintable(QString::fromStdString(c10::str(bias))));
    const torch::Tensor decode = attentionBias(torch::tensor({{0, 0, 1, 1, 1}}, torch::kLong), 1);
    QVERIFY(torch::equal(decode[0][0][0], torch::tensor({m, m, 0.f, 0.f, 0.f})));
    // A query whose own key is masked but that sees earlier keys (right padding) is left
    // as it was: it does not see itself (batched decoding masks such keys on purpose).
    const torch::Tensor right = attentionBias(torch::tensor({{1, 1, 0}}, torch::kLong), 3);
    QVERIFY(torch::equal(right[0][0][2], torch::tensor({0.f, 0.f, m})));

    // Every row of a left-padded batch's bias has a key to see, so the gradient through the
    // padded rows is finite wherever the attention kernel runs.
    torch::manual_seed(3);
    Transformer tm(tinyConfig());
    torch::Tensor ids = torch::randint(1, 50, {2, 6}, torch::kLong);
    torch::Tensor keys = torch::ones({2, 6}, torch::kLong);
    keys[0].narrow(0, 0, 4).zero_();
    const torch::Tensor loss = tm->logits(tm->hidden(ids, positionsFromMask(keys), keys, nullptr)).select(1, 5).sum();
    loss.backward();
    for (const auto &p : tm->parameters())
        if (p.grad().defined())
            QVERIFY(p.grad().isfinite().all().item<bool>());
}

void TestTransformer::sharedPrefixMatchesRepeatedRows_data()
{
    QTest::addColumn<int>("family");
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<bool>("tinyDefault"); // the demo's shape: hidden 256, heads 4 / 2 of 64
    QTest::addColumn<int>("prompts");
    QTest::newRow("qwen3 (GQA 4/2)") << static_cast<int>(Family::Qwen3) << false << false << 3;
    QTest::newRow("llama") << static_cast<int>(Family::Llama) << false << false << 3;
    QTest::newRow("qwen3 bf16") << static_cast<int>(Family::Qwen3) << true << false << 3;
    QTest::newRow("tiny default") << static_cast<int>(Family::Qwen3) << false << true << 3;
    // One prompt: the attention's output came out in a layout that a view could not take
    // (tst_tinymodel found it).
    QTest::newRow("one prompt") << static_cast<int>(Family::Qwen3) << false << false << 1;
}

// KvCache::shareRows (each prompt's keys read once per group, generate's decode) against
// repeatRows (copied per row): the same logits at every step, one new token at a time and
// then two at once (the shared prefix repeated for them), left-padded prompts of
// different lengths.
void TestTransformer::sharedPrefixMatchesRepeatedRows()
{
    QFETCH(int, family);
    QFETCH(bool, bf16);
    QFETCH(bool, tinyDefault);
    QFETCH(int, prompts);
    torch::manual_seed(4);
    Transformer m(tinyDefault ? tinyDefaultConfig(50) : tinyConfig(static_cast<Family>(family)));
    const torch::Dtype dtype = bf16 ? torch::kBFloat16 : torch::kFloat32;
    m->to(dtype);
    torch::NoGradGuard noGrad;
    const int64_t b = prompts, g = 4, len = 7, steps = 5;
    const torch::Tensor ids = torch::randint(0, 50, {b, len}, torch::kLong);
    torch::Tensor mask = torch::ones({b, len}, torch::kLong);
    mask[0].narrow(0, 0, 3).zero_(); // prompt 0: 4 tokens, left-padded
    if (b > 2)
        mask[2].narrow(0, 0, 1).zero_();
    KvCache repeated(m->config(), b, len + steps + 2, dtype, torch::kCPU);
    KvCache shared(m->config(), b, len + steps + 2, dtype, torch::kCPU);
    const torch::Tensor positions = positionsFromMask(mask);
    m->hidden(ids, positions, mask, &repeated);
    m->hidden(ids, positions, mask, &shared);
    repeated.repeatRows(g);
    shared.shareRows(g);
    QCOMPARE(shared.rows(), b * g);
    QCOMPARE(shared.length(), len);
    QVERIFY(shared.sharedPrefix(0) != nullptr && repeated.sharedPrefix(0) == nullptr);
    torch::Tensor rowMask = mask.repeat_interleave(g, 0);
    torch::Tensor next = positions.select(1, len - 1).repeat_interleave(g, 0).unsqueeze(1) + 1; // [R, 1]
    for (int64_t step = 0; step < steps + 1; ++step) {
        const int64_t t = step < steps ? 1 : 2;
        const torch::Tensor fed = torch::randint(0, 50, {b * g, t}, torch::kLong); // every row its own tokens
        rowMask = torch::cat({rowMask, torch::ones({b * g, t}, torch::kLong)}, 1);
        const torch::Tensor pos = next + torch::arange(t).unsqueeze(0);
        const torch::Tensor a = m->logits(m->hidden(fed, pos, rowMask, &repeated)).to(torch::kFloat32);
        const torch::Tensor s = m->logits(m->hidden(fed, pos, rowMask, &shared)).to(torch::kFloat32);
        const double diff = (a - s).abs().max().item<double>();
        // fp32: rounding only; bf16: the two orders of summation round the projections differently.
        QVERIFY2(diff < (bf16 ? 5e-2 : 1e-5), qPrintable(QString("step %1 (%2 new): %3").arg(step).arg(t).arg(diff)));
        next = next + t;
    }
    QCOMPARE(shared.length(), len + steps + 2);
}

void TestTransformer::loraZeroBEqualsBase()
{
    ModelOptions o;
    o.seed = 3;
    auto lm = CausalLM::random(tinyConfig(), o);
    Transformer &m = lm->internals().module;
    torch::NoGradGuard noGrad;
    const torch::Tensor ids = torch::randint(0, 50, {2, 7}, torch::kLong);
    const torch::Tensor base = fullLogits(m, ids);
    LoraOptions lora;
    lora.targetModules = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
    lm->addLora(lora);
    // B = 0: exactly the base, bit for bit.
    QVERIFY(torch::equal(fullLogits(m, ids), base));
    QCOMPARE(lm->internals().loraTensors().size(), size_t(2 * 7 * 2)); // A and B, 7 modules, 2 layers
    for (auto &[name, t] : lm->internals().loraTensors())
        if (QString::fromStdString(name).contains("lora_B"))
            t.normal_(0.0, 0.05);
    const torch::Tensor adapted = fullLogits(m, ids);
    QVERIFY(!torch::allclose(adapted, base));
    // Adapters off: the reference policy, exactly the base.
    lm->setAdaptersEnabled(false);
    QVERIFY(torch::equal(fullLogits(m, ids), base));
    lm->setAdaptersEnabled(true);
    // Merged into the base: the adapted model.
    lm->mergeLora();
    QVERIFY((fullLogits(m, ids) - adapted).abs().max().item<double>() < 1e-5);
}

void TestTransformer::samplingIsSeeded()
{
    ModelOptions o;
    o.seed = 4;
    auto lm = CausalLM::random(tinyConfig(), o);
    SamplingOptions s;
    s.maxNewTokens = 12;
    s.seed = 99;
    s.topP = 0.9;
    s.topK = 20;
    const std::vector<std::vector<int32_t>> prompts{{1, 2, 3}, {4, 5, 6, 7, 8}};
    const Generation a = lm->generate(prompts, 4, s);
    const Generation b = lm->generate(prompts, 4, s);
    QCOMPARE(a.tokens.size(), size_t(8));
    QCOMPARE(a.tokens, b.tokens);
    QCOMPARE(a.logProbs, b.logProbs);
    s.seed = 100;
    const Generation c = lm->generate(prompts, 4, s);
    QVERIFY(c.tokens != a.tokens);
    // No stop token: every row is truncated at 12.
    for (size_t r = 0; r < a.tokens.size(); ++r) {
        QCOMPARE(a.tokens[r].size(), size_t(12));
        QVERIFY(a.truncated[r]);
    }
    // A stop token ends a row and is kept; that row is not truncated.
    // (Row 0 stops at the first occurrence of its third token.)
    s.stopTokens = {a.tokens[0][2]};
    s.seed = 99;
    const Generation d = lm->generate(prompts, 4, s);
    const size_t firstStop = std::find(a.tokens[0].begin(), a.tokens[0].end(), a.tokens[0][2]) - a.tokens[0].begin();
    QCOMPARE(d.tokens[0].size(), firstStop + 1);
    QVERIFY(!d.truncated[0]);
}

void TestTransformer::greedyFollowsArgmax()
{
    ModelOptions o;
    o.seed = 5;
    auto lm = CausalLM::random(tinyConfig(), o);
    SamplingOptions s;
    s.temperature = 0.0;
    s.maxNewTokens = 5;
    const std::vector<int32_t> prompt{3, 1, 4, 1, 5};
    const Generation g = lm->generate({prompt}, 1, s);
    std::vector<int64_t> seq(prompt.begin(), prompt.end());
    torch::NoGradGuard noGrad;
    for (int i = 0; i < 5; ++i) {
        const torch::Tensor ids = torch::tensor(seq, torch::kLong).unsqueeze(0);
        const int64_t next = fullLogits(lm->internals().module, ids)[0][-1].argmax().item<int64_t>();
        QCOMPARE(int64_t(g.tokens[0][static_cast<size_t>(i)]), next);
        seq.push_back(next);
    }
}

void TestTransformer::scoreTokensMatchesLogSoftmax()
{
    ModelOptions o;
    o.seed = 6;
    auto lm = CausalLM::random(tinyConfig(), o);
    const std::vector<std::vector<int32_t>> prompts{{1, 2, 3}, {9}};
    const std::vector<std::vector<int32_t>> completions{{4, 5}, {7, 8, 10, 11}};
    const auto scores = lm->scoreTokens(prompts, completions, 0.7, true, 128);
    const auto chunked = lm->scoreTokens(prompts, completions, 0.7, true, 1);
    torch::NoGradGuard noGrad;
    for (size_t r = 0; r < prompts.size(); ++r) {
        std::vector<int64_t> seq(prompts[r].begin(), prompts[r].end());
        seq.insert(seq.end(), completions[r].begin(), completions[r].end());
        const torch::Tensor logits = fullLogits(lm->internals().module, torch::tensor(seq, torch::kLong).unsqueeze(0))[0] / 0.7;
        const torch::Tensor lsm = torch::log_softmax(logits, -1);
        QCOMPARE(scores[r].logProbs.size(), completions[r].size());
        for (size_t i = 0; i < completions[r].size(); ++i) {
            const int64_t pos = static_cast<int64_t>(prompts[r].size() + i) - 1;
            const double ref = lsm[pos][completions[r][i]].item<double>();
            QVERIFY(std::abs(scores[r].logProbs[i] - ref) < 1e-5);
            QVERIFY(std::abs(chunked[r].logProbs[i] - ref) < 1e-5);
            const double ent = -(lsm[pos].exp() * lsm[pos]).sum().item<double>();
            QVERIFY(std::abs(scores[r].entropy[i] - ent) < 1e-4);
        }
    }
}

void TestTransformer::groupedLogProbsMatchFullSequences()
{
    // Two prompts of different lengths (left padding inside), G = 3 completions each of
    // different lengths: the shared-prefix pass must give what each full sequence gives,
    // values and gradients (LoRA on, so the prompt's keys and values carry gradient too).
    ModelOptions o;
    o.seed = 8;
    auto lm = CausalLM::random(tinyConfig(), o);
    LoraOptions lora;
    lora.rank = 4;
    lora.dropout = 0.0;
    lm->addLora(lora);
    auto &d = lm->internals();
    torch::manual_seed(3);
    for (auto &[name, t] : d.loraTensors()) // B ≠ 0, so the adapters change the output
        t.data().normal_(0.0, 0.1);
    const std::vector<std::vector<int32_t>> prompts{{1, 2, 3, 4, 5}, {9, 8}};
    const std::vector<std::vector<int32_t>> completions{{4, 5}, {7}, {7, 8, 10, 11}, {3, 3, 3}, {12, 13}, {6}};
    std::vector<std::vector<int32_t>> rowPrompts;
    for (size_t r = 0; r < completions.size(); ++r)
        rowPrompts.push_back(prompts[r / 3]);
    torch::Tensor mask, entropy;
    const torch::Tensor grouped = d.groupedCompletionLogProbs(prompts, completions, 3, 0, 0.7, &mask, &entropy);
    QCOMPARE(grouped.size(0), int64_t(6));
    QCOMPARE(grouped.size(1), int64_t(4));
    const auto batch = d.makeBatch(rowPrompts, completions, 0);
    torch::Tensor fullEntropy;
    const torch::Tensor full = d.sequenceLogProbs(batch, 0.7, 128, &fullEntropy); // [R, L − 1]
    torch::Tensor expected = torch::zeros_like(grouped);
    torch::Tensor expectedEntropy = torch::zeros_like(grouped);
    for (int64_t r = 0; r < 6; ++r)
        for (int64_t t = 0; t < batch.completionLength[static_cast<size_t>(r)]; ++t) {
            expected[r][t] = full[r][batch.completionStart[static_cast<size_t>(r)] - 1 + t];
            expectedEntropy[r][t] = fullEntropy[r][batch.completionStart[static_cast<size_t>(r)] - 1 + t];
        }
    QVERIFY2((grouped - expected).abs().max().item<double>() < 1e-5,
             qPrintable(QString::number((grouped - expected).abs().max().item<double>())));
    QVERIFY((entropy - expectedEntropy).abs().max().item<double>() < 1e-4);
    QCOMPARE(mask.sum().item<double>(), 2.0 + 1 + 4 + 3 + 2 + 1);
    QCOMPARE(grouped[1][1].item<double>(), 0.0); // past the end of a one-token completion
    // Gradients of a weighted sum with respect to the adapters agree.
    const torch::Tensor weights = torch::arange(24, torch::kFloat32).reshape({6, 4}) * mask;
    auto params = d.trainableParameters();
    const auto g1 = torch::autograd::grad({(grouped * weights).sum()}, params);
    const auto g2 = torch::autograd::grad({(expected * weights).sum()}, params);
    double worst = 0.0;
    for (size_t i = 0; i < params.size(); ++i)
        worst = std::max(worst, (g1[i] - g2[i]).abs().max().item<double>());
    QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
}

void TestTransformer::configParsing()
{
    // Qwen3-0.6B's shape: head_dim 128 although 1024 / 16 = 64.
    const ModelConfig c = parseModelConfig(R"({"model_type": "qwen3", "vocab_size": 151936, "hidden_size": 1024,
        "intermediate_size": 3072, "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 8,
        "head_dim": 128, "rms_norm_eps": 1e-6, "rope_theta": 1000000, "tie_word_embeddings": true,
        "torch_dtype": "bfloat16", "eos_token_id": 151645})", "config.json");
    QCOMPARE(c.headDim, int64_t(128));
    QVERIFY(c.qkNorm);
    QCOMPARE(c.groups(), int64_t(2));
    // ≈ 596M parameters (engine-facts): embeddings 155.6M + 28 × 15.7M + norm.
    QVERIFY(std::abs(double(c.parameterCount()) - 596e6) < 2e6);
    const ModelConfig back = parseModelConfig(toJson(c), "x");
    QCOMPARE(back.headDim, c.headDim);
    QCOMPARE(back.parameterCount(), c.parameterCount());
    const ModelConfig l = parseModelConfig(R"({"model_type": "llama", "vocab_size": 100, "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 1, "num_attention_heads": 4,
        "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192}})", "l.json");
    QCOMPARE(l.numKvHeads, int64_t(4));
    QCOMPARE(l.headDim, int64_t(16));
    QVERIFY(!l.tieWordEmbeddings);
    QVERIFY(l.ropeScaling.type == RopeScaling::Type::Llama3);
    QCOMPARE(l.torchDtype, std::string("float32")); // neither key: float32
    // transformers 4.56 and later write "dtype" where earlier versions wrote "torch_dtype".
    const ModelConfig n = parseModelConfig(R"({"model_type": "qwen2", "vocab_size": 100, "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 1, "num_attention_heads": 4, "dtype": "bfloat16"})", "n.json");
    QCOMPARE(n.torchDtype, std::string("bfloat16"));
    QCOMPARE(c.torchDtype, std::string("bfloat16"));
}

void TestTransformer::configErrors_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown family") << R"({"model_type": "gpt2"})" << "model_type: \"gpt2\" is not supported";
    QTest::newRow("missing") << R"({"model_type": "qwen2", "vocab_size": 10})" << "hidden_size: missing";
    QTest::newRow("kv heads")
        << R"({"model_type": "qwen2", "vocab_size": 10, "hidden_size": 28, "intermediate_size": 8, "num_hidden_layers": 1, "num_attention_heads": 14, "num_key_value_heads": 3})"
        << "num_key_value_heads: must divide num_attention_heads (14 / 3)";
    QTest::newRow("rope type")
        << R"({"model_type": "llama", "vocab_size": 10, "hidden_size": 8, "intermediate_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2, "rope_scaling": {"type": "dynamic", "factor": 2}})"
        << "rope_scaling.rope_type: \"dynamic\" is not supported";
    QTest::newRow("not json") << "{" << "not valid JSON";
}

void TestTransformer::configErrors()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    try {
        parseModelConfig(json.toStdString(), "m/config.json");
        QFAIL("expected an error");
    } catch (const rwb::data::InputException &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        QVERIFY(QString::fromStdString(e.what()).startsWith("m/config.json"));
    }
}

QTEST_APPLESS_MAIN(TestTransformer)
#include "tst_transformer.moc"
