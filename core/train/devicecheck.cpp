#include "train/devicecheck.h"

#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/modelconfig.h"
#include "model/transformer.h"
#include "train/gradientcheck.h"
#include "train/policygradient.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>

namespace rwb::train {

namespace {

using model::CausalLM;
using model::Family;
using model::ModelConfig;
using model::ModelOptions;
using model::Transformer;

model::ModelConfig tinyConfig(Family family)
{
    ModelConfig c;
    c.family = family;
    c.qkNorm = family == Family::Qwen3;
    c.qkvBias = family == Family::Qwen2;
    c.vocabSize = 96;
    c.hiddenSize = 64;
    c.intermediateSize = 128;
    c.numLayers = 2;
    c.numHeads = 4;
    c.numKvHeads = 2;
    c.headDim = 16;
    c.ropeTheta = 10000.0;
    c.maxPositions = 128;
    c.tieWordEmbeddings = family != Family::Llama;
    return c;
}

// Logits [B, L, V] of whole sequences (no cache), as f64 on the CPU.
torch::Tensor fullLogits(Transformer &m, const torch::Tensor &ids, const torch::Tensor &mask)
{
    torch::NoGradGuard noGrad;
    return m->logits(m->hidden(ids, model::positionsFromMask(mask), mask, nullptr)).to(torch::kCPU, torch::kFloat64);
}

double scaleOf(const torch::Tensor &t)
{
    return std::max(t.abs().max().item<double>(), 1e-12);
}

struct Timer {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    double seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
};

class Checker {
public:
    Checker(DeviceCheckReport &report, const std::function<void(const DeviceCheckResult &)> &each)
        : m_report(report), m_each(each)
    {
    }
    void add(std::string check, std::string model, std::string measure, double value, double tolerance, double seconds)
    {
        DeviceCheckResult r;
        r.check = std::move(check);
        r.model = std::move(model);
        r.measure = std::move(measure);
        r.value = value;
        r.tolerance = tolerance;
        r.passed = std::isfinite(value) && value <= tolerance;
        r.seconds = seconds;
        m_report.results.push_back(r);
        if (m_each)
            m_each(r);
    }

private:
    DeviceCheckReport &m_report;
    const std::function<void(const DeviceCheckResult &)> &m_each;
};

const char *const kRelative = "max |Δlogit| / max |logit|";

// The forward checks of one model: `reference` in f64 on the CPU, `lm` on the device in
// the dtype under check, both with the same weights.
void checkForward(CausalLM &reference, CausalLM &lm, const std::string &name, double tolerance, uint64_t seed,
                  Checker &out)
{
    Transformer &ref = reference.internals().module;
    Transformer &dev = lm.internals().module;
    const torch::Device device = lm.internals().device;
    const int64_t vocab = std::min<int64_t>(lm.config().vocabSize, 4096);
    torch::manual_seed(seed);
    const int64_t length = 12;
    const torch::Tensor ids = torch::randint(1, vocab, {2, length}, torch::kLong);
    const torch::Tensor ones = torch::ones({2, length}, torch::kLong);

    { // The device against the f64 CPU reference.
        Timer t;
        const torch::Tensor want = fullLogits(ref, ids, ones);
        const torch::Tensor got = fullLogits(dev, ids.to(device), ones.to(device));
        out.add("logits", name, std::string(kRelative) + ", against float64 on the CPU",
                (got - want).abs().max().item<double>() / scaleOf(want), tolerance, t.seconds());
    }
    { // Prefill 4 tokens, then one at a time through the KV cache, against the full sequence.
        Timer t;
        torch::NoGradGuard noGrad;
        const torch::Tensor row = ids.narrow(0, 0, 1).to(device);
        const torch::Tensor full = fullLogits(dev, row, ones.narrow(0, 0, 1).to(device));
        model::KvCache cache(dev->config(), 1, length + 4, lm.internals().dtype, device);
        torch::Tensor mask = torch::ones({1, 4}, torch::TensorOptions(torch::kLong).device(device));
        torch::Tensor h = dev->hidden(row.narrow(1, 0, 4), model::positionsFromMask(mask), mask, &cache);
        double worst = (dev->logits(h).to(torch::kCPU, torch::kFloat64) - full.narrow(1, 0, 4)).abs().max().item<double>();
        for (int64_t p = 4; p < length; ++p) {
            mask = torch::ones({1, p + 1}, torch::TensorOptions(torch::kLong).device(device));
            const torch::Tensor position = torch::full({1, 1}, p, torch::TensorOptions(torch::kLong).device(device));
            h = dev->hidden(row.narrow(1, p, 1), position, mask, &cache);
            worst = std::max(worst, (dev->logits(h).to(torch::kCPU, torch::kFloat64).select(1, 0) - full.select(1, p))
                                        .abs()
                                        .max()
                                        .item<double>());
        }
        out.add("kv_cache", name, std::string(kRelative) + ", cached decoding against the whole sequence",
                worst / scaleOf(full), tolerance, t.seconds());
    }
    { // Row 0 left-padded by 3 in a batch with a longer row, against row 0 alone.
        Timer t;
        const int64_t pad = 3;
        const torch::Tensor alone = fullLogits(dev, ids.narrow(0, 0, 1).to(device), ones.narrow(0, 0, 1).to(device));
        torch::Tensor batch = torch::zeros({2, length + pad}, torch::kLong);
        batch[0].narrow(0, pad, length).copy_(ids[0]);
        batch[1].copy_(torch::randint(1, vocab, {length + pad}, torch::kLong));
        torch::Tensor mask = torch::ones({2, length + pad}, torch::kLong);
        mask[0].narrow(0, 0, pad).zero_();
        const torch::Tensor padded = fullLogits(dev, batch.to(device), mask.to(device)).narrow(1, pad, length)[0];
        out.add("left_padding", name, std::string(kRelative) + ", a left-padded row against the row alone",
                (padded - alone[0]).abs().max().item<double>() / scaleOf(alone), tolerance, t.seconds());
    }
    { // Greedy decoding picks, at every step, a token whose logit (by the whole sequence) is
      // the largest up to the tolerance.
        Timer t;
        std::vector<int32_t> prompt;
        for (int64_t i = 0; i < 5; ++i)
            prompt.push_back(static_cast<int32_t>(ids[1][i].item<int64_t>()));
        model::SamplingOptions so;
        so.temperature = 0.0;
        so.maxNewTokens = 8;
        so.seed = seed;
        const model::Generation g = lm.generate({prompt}, 1, so);
        std::vector<int64_t> all(prompt.begin(), prompt.end());
        all.insert(all.end(), g.tokens[0].begin(), g.tokens[0].end());
        const int64_t n = static_cast<int64_t>(all.size());
        const torch::Tensor seq = torch::tensor(all, torch::kLong).unsqueeze(0);
        const torch::Tensor logits = fullLogits(dev, seq.to(device), torch::ones({1, n}, torch::kLong).to(device))[0];
        double worst = g.tokens[0].empty() ? INFINITY : 0.0;
        for (size_t i = 0; i < g.tokens[0].size(); ++i) {
            const torch::Tensor step = logits[static_cast<int64_t>(prompt.size() + i) - 1];
            worst = std::max(worst, step.max().item<double>() - step[g.tokens[0][i]].item<double>());
        }
        out.add("greedy", name, "max over steps of (largest logit − the chosen token's) / max |logit|",
                worst / scaleOf(logits), tolerance, t.seconds());
    }
    { // The same seed samples the same tokens.
        Timer t;
        std::vector<std::vector<int32_t>> prompts(2);
        for (int64_t i = 0; i < 4; ++i) {
            prompts[0].push_back(static_cast<int32_t>(ids[0][i].item<int64_t>()));
            prompts[1].push_back(static_cast<int32_t>(ids[1][i + 2].item<int64_t>()));
        }
        model::SamplingOptions so;
        so.temperature = 1.0;
        so.maxNewTokens = 8;
        so.seed = seed + 1;
        const model::Generation a = lm.generate(prompts, 4, so);
        const model::Generation b = lm.generate(prompts, 4, so);
        double differing = a.tokens.size() == b.tokens.size() ? 0.0 : 1.0;
        for (size_t r = 0; r < std::min(a.tokens.size(), b.tokens.size()); ++r)
            for (size_t i = 0; i < std::max(a.tokens[r].size(), b.tokens[r].size()); ++i)
                if (i >= a.tokens[r].size() || i >= b.tokens[r].size() || a.tokens[r][i] != b.tokens[r][i])
                    differing += 1.0;
        out.add("seeded_sampling", name, "tokens that differ between two samplings with one seed (8 rows × 8)",
                differing, 0.0, t.seconds());
    }
}

// A tiny Qwen3 with LoRA on all seven projections, A and B random so that both get a
// gradient, with std 0.05, as a trained adapter's might be. (With tst_gradcheck's 0.3
// the adapters dominate the 0.02 base weights and the activations grow so large that
// bf16's products lose the gradient altogether: 171 % off float64 on the worst tensor
// against 2.3 % at 0.05, measured; f64 finite differences do not mind either.)
std::unique_ptr<CausalLM> loraModel(const std::string &device, const std::string &dtype, int threads)
{
    ModelConfig c = tinyConfig(Family::Qwen3);
    c.vocabSize = 40;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.headDim = 8;
    ModelOptions o;
    o.dtype = dtype;
    o.device = device;
    o.threads = threads;
    o.seed = 7;
    auto lm = CausalLM::random(c, o);
    model::LoraOptions lo;
    lo.rank = 2;
    lo.alpha = 4.0;
    lo.dropout = 0.0;
    lo.targetModules = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
    lm->addLora(lo);
    torch::NoGradGuard noGrad;
    torch::manual_seed(11);
    for (auto &[name, t] : lm->internals().loraTensors())
        t.copy_(torch::randn(t.sizes(), torch::kFloat64) * 0.05); // drawn on the CPU: the same on every device
    lm->internals().module->train();
    return lm;
}

PolicyBatch gradientBatch()
{
    std::mt19937 rng(3);
    std::uniform_int_distribution<int32_t> id(1, 39);
    auto tokens = [&](size_t n) {
        std::vector<int32_t> v(n);
        for (auto &t : v)
            t = id(rng);
        return v;
    };
    PolicyBatch b;
    b.groupPrompts = {tokens(5), tokens(3)};
    for (size_t n : {4, 1, 6, 2, 5, 3})
        b.completions.push_back(tokens(n));
    b.advantages = {0.9, -1.2, 0.3, 1.5, -0.4, -1.1};
    return b;
}

PolicyStepOptions gradientOptions()
{
    PolicyStepOptions o;
    o.loss.lossType = LossType::Grpo;
    o.loss.beta = 0.04;
    o.loss.maxCompletionLength = 8;
    o.groupSize = 3;
    o.microRows = 3; // two micro-batches, weighted into the batch's loss as the trainer does
    return o;
}

// Old log-probs away from the current ones (ratios leave the clip range), and the
// adapters-off model as the reference (β > 0), computed once on the CPU in f64 so that
// every device sees the same batch.
PolicyBatch completeBatch(CausalLM &cpu64)
{
    PolicyBatch b = gradientBatch();
    const PolicyStepOptions o = gradientOptions();
    const torch::Tensor now = noGradLogProbs(cpu64.internals(), b, o, 6);
    torch::manual_seed(17);
    b.oldLogProbs = now + 0.3 * torch::randn_like(now);
    cpu64.setAdaptersEnabled(false);
    b.refLogProbs = noGradLogProbs(cpu64.internals(), b, o, 6);
    cpu64.setAdaptersEnabled(true);
    return b;
}

PolicyBatch onDevice(PolicyBatch b, const torch::Device &device)
{
    if (b.oldLogProbs.defined())
        b.oldLogProbs = b.oldLogProbs.to(device);
    if (b.refLogProbs.defined())
        b.refLogProbs = b.refLogProbs.to(device);
    return b;
}

std::vector<torch::Tensor> gradientsOf(CausalLM &lm, const PolicyBatch &b, double *loss, bool bf16 = false,
                                       int microRows = 0)
{
    PolicyStepOptions o = gradientOptions();
    o.bf16 = bf16;
    if (microRows > 0)
        o.microRows = microRows;
    auto params = lm.internals().trainableParameters();
    for (auto &p : params)
        if (p.grad().defined())
            p.grad().zero_();
    const double l = policyLossBackward(lm.internals(), b, o);
    if (loss)
        *loss = l;
    std::vector<torch::Tensor> g;
    for (auto &p : params)
        g.push_back(p.grad().detach().to(torch::kCPU, torch::kFloat64).flatten().clone());
    return g;
}

void checkGradients(const DeviceCheckOptions &options, Checker &out)
{
    const char *const name = "qwen3 + LoRA (random)";
    auto cpu64 = loraModel("cpu", "float64", options.threads);
    const PolicyBatch batch = completeBatch(*cpu64);
    // gradient_vs_cpu compares rounding, so its batch has μ = 1 (the old log-probs are the
    // new ones, detached, as in a run with one iteration per batch): clipped ratios would
    // make the loss kinked, and a token that crosses the clip edge by rounding would switch
    // its whole term on or off.
    PolicyBatch smooth = batch;
    smooth.oldLogProbs = torch::Tensor();
    const std::vector<torch::Tensor> want = gradientsOf(*cpu64, smooth, nullptr);

    { // GRPO's loss (β 0.04, ratios clipped) on the device in f64, against finite differences.
        Timer t;
        auto lm = loraModel(options.device, "float64", options.threads);
        const PolicyBatch b = onDevice(batch, lm->internals().device);
        double loss = 0.0;
        const std::vector<torch::Tensor> g = gradientsOf(*lm, b, &loss);
        auto f = [&] {
            double l = 0.0;
            gradientsOf(*lm, b, &l);
            return l;
        };
        const double err = worstRelativeError(lm->internals().trainableParameters(), g, f, 2, 1e-4, options.seed);
        out.add("gradient", name,
                "worst ‖g − g_fd‖ / ‖g_fd‖ over the LoRA tensors, float64 on the device, five-point differences",
                err, 1e-6, t.seconds());
    }
    { // The same gradient as the trainer takes it in the dtype under check (bfloat16:
      // float32 weights, the products autocast to bf16), against float64 on the CPU.
        Timer t;
        const bool bf16 = options.dtype == "bfloat16";
        auto lm = loraModel(options.device, bf16 ? "float32" : options.dtype, options.threads);
        const PolicyBatch b = onDevice(smooth, lm->internals().device);
        const std::vector<torch::Tensor> g = gradientsOf(*lm, b, nullptr, bf16);
        double worst = 0.0;
        for (size_t k = 0; k < g.size(); ++k) {
            const double norm = want[k].norm().item<double>();
            if (norm > 0.0)
                worst = std::max(worst, (g[k] - want[k]).norm().item<double>() / norm);
        }
        out.add("gradient_vs_cpu", name,
                "worst ‖g − g_cpu‖ / ‖g_cpu‖ over the LoRA tensors, against float64 on the CPU", worst,
                gradientTolerance(options.dtype), t.seconds());
    }
    { // The same, both groups in one micro-batch: the shorter prompt is left-padded, so
      // padding queries see no real key (cuDNN's bf16 attention backward returned NaN for
      // such rows on an H200 until a query that sees no key was made to see itself: model/transformer.cpp). A NaN
      // anywhere fails the check (its error is then NaN).
        Timer t;
        const bool bf16 = options.dtype == "bfloat16";
        auto lm = loraModel(options.device, bf16 ? "float32" : options.dtype, options.threads);
        const PolicyBatch b = onDevice(smooth, lm->internals().device);
        const std::vector<torch::Tensor> g = gradientsOf(*lm, b, nullptr, bf16, 6);
        double worst = 0.0;
        for (size_t k = 0; k < g.size(); ++k) {
            const double norm = want[k].norm().item<double>();
            const double err = (g[k] - want[k]).norm().item<double>();
            if (!std::isfinite(err))
                worst = std::numeric_limits<double>::quiet_NaN();
            else if (norm > 0.0 && !std::isnan(worst))
                worst = std::max(worst, err / norm);
        }
        out.add("gradient_padded", name,
                "as gradient_vs_cpu, both groups in one left-padded micro-batch", worst,
                gradientTolerance(options.dtype), t.seconds());
    }
}

} // namespace

double gradientTolerance(const std::string &dtype)
{
    if (dtype == "float64")
        return 1e-9;
    if (dtype == "float32")
        return 1e-4;
    if (dtype == "bfloat16")
        return 0.1;
    return forwardTolerance(dtype); // throws for a dtype it does not know
}

bool DeviceCheckReport::passed() const
{
    for (const DeviceCheckResult &r : results)
        if (!r.passed)
            return false;
    return !results.empty();
}

double forwardTolerance(const std::string &dtype)
{
    if (dtype == "float64")
        return 1e-10;
    if (dtype == "float32")
        return 1e-4;
    if (dtype == "bfloat16")
        return 5e-2;
    throw std::runtime_error("dtype \"" + dtype + "\" is not one the check knows (float32, bfloat16, float64)");
}

DeviceCheckReport checkDevice(const DeviceCheckOptions &options, const std::function<void(const DeviceCheckResult &)> &each)
{
    const double tolerance = forwardTolerance(options.dtype);
    DeviceCheckReport report;
    report.dtype = options.dtype;
    report.device = model::pickDevice(options.device).str();
    Checker out(report, each);
    ModelOptions ref;
    ref.dtype = "float64";
    ref.device = "cpu";
    ref.threads = options.threads;
    ref.seed = options.seed;
    ModelOptions dev = ref;
    dev.dtype = options.dtype;
    dev.device = options.device;
    if (options.modelDir.empty()) {
        for (Family family : {Family::Qwen3, Family::Qwen2, Family::Llama}) {
            const ModelConfig c = tinyConfig(family);
            auto reference = CausalLM::random(c, ref);
            auto lm = CausalLM::random(c, dev);
            checkForward(*reference, *lm, std::string(model::familyName(family)) + " (random)", tolerance,
                         options.seed, out);
        }
    } else {
        auto reference = CausalLM::load(options.modelDir, ref);
        auto lm = CausalLM::load(options.modelDir, dev);
        checkForward(*reference, *lm, options.modelDir, tolerance, options.seed, out);
    }
    checkGradients(options, out);
    return report;
}

} // namespace rwb::train
