#include "model/causallm.h"
#include "util/duration.h"

#include "model/causallminternals.h"
#include "model/fusedops.h"
#include "model/workers.h"
#include "model/precision.h"
#include "model/rowdraw.h"
#include "model/threads.h"

#include <ATen/CPUGeneratorImpl.h>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <thread>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace rwb::model {

namespace {

using util::Clock;
using util::secondsSince;

} // namespace

torch::Device pickDevice(const std::string &name)
{
    if (name == "cpu")
        return torch::kCPU;
    if (name == "cuda") {
        if (!torch::cuda::is_available())
            throw std::runtime_error("device \"cuda\" was asked for, but this libtorch has no CUDA or no GPU is visible");
        return torch::Device(torch::kCUDA, 0);
    }
    return torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
}

namespace {

// glibc gives large blocks back to the kernel when they are freed (mmap above a
// threshold that starts at 128 KiB, and trimming the heap's top), so every training step
// faulted in and zeroed its activations' pages afresh: 6 % of an SFT step's samples were
// in the kernel's page-fault path (perf, tiny model, one thread). Keeping up to 256 MiB of
// freed memory in the heap, as PyTorch's caching allocators do on GPUs, reuses the pages.
void keepFreedMemory()
{
#ifdef __GLIBC__
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, 32 << 20); // glibc's largest; blocks above it are still mapped
        mallopt(M_TRIM_THRESHOLD, 256 << 20);
    });
#endif
}

} // namespace

void applyThreads(int threads)
{
    keepFreedMemory();
    // 0: "every core" as model/threads.h decides it ($RWB_THREADS, or a timed check: a
    // second thread made the tiny model slower with Debian's libtorch 1.13 on a Zen 3).
    at::set_num_threads(threads > 0 ? threads : resolveThreads(0).threads);
}

void useCpuThreads(int threads)
{
    applyThreads(threads);
}

namespace {

// One draw per row from probabilities [R, V] (fp32, CPU) by the inverse CDF, row r from
// its own stream (model/rowdraw.h: as the batch decoder draws).
torch::Tensor sampleFromProbs(const torch::Tensor &probs, std::vector<std::mt19937_64> &generators)
{
    const torch::Tensor p = probs.contiguous();
    const int64_t rows = p.size(0), v = p.size(1);
    torch::Tensor ids = torch::empty({rows}, torch::kInt64);
    auto idsA = ids.accessor<int64_t, 1>();
    const float *data = p.data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r)
        idsA[r] = drawIndex(data + r * v, v, uniform(generators[static_cast<size_t>(r)]));
    return ids;
}

// Samples one token per row from logits [R, V] (fp32, CPU). Returns ids [R] and the
// log-prob of each under softmax(logits / T).
std::pair<torch::Tensor, torch::Tensor> sampleRows(torch::Tensor logits, const SamplingOptions &o,
                                                   std::vector<std::mt19937_64> &generators)
{
    if (o.vocabLimit > 0 && o.vocabLimit < logits.size(1))
        logits.narrow(1, o.vocabLimit, logits.size(1) - o.vocabLimit).fill_(-INFINITY);
    if (o.temperature <= 0.0) {
        const torch::Tensor ids = logits.argmax(/*dim=*/1);
        const torch::Tensor lp = torch::log_softmax(logits, 1).gather(1, ids.unsqueeze(1)).squeeze(1);
        return {ids, lp};
    }
    const bool filters = (o.topK > 0 && o.topK < logits.size(1)) || o.minP > 0.0 || o.topP < 1.0;
    if (!filters && logits.device().is_cpu() && logits.scalar_type() == torch::kFloat32) {
        // Two passes a row (temperedExp): the same inverse-CDF draw from p ∝ exp(x/T − m)
        // where ATen's composition made five passes and four tensors.
        const torch::Tensor x = logits.contiguous();
        const int64_t rows = x.size(0), v = x.size(1);
        const float t = static_cast<float>(o.temperature);
        torch::Tensor ids = torch::empty({rows}, torch::kInt64);
        torch::Tensor lp = torch::empty({rows}, torch::kFloat32);
        auto idsA = ids.accessor<int64_t, 1>();
        auto lpA = lp.accessor<float, 1>();
        std::vector<float> e(static_cast<size_t>(v));
        const float *data = x.data_ptr<float>();
        for (int64_t r = 0; r < rows; ++r) {
            const float *row = data + r * v;
            const float logNormaliser = temperedExp(row, v, o.temperature, e.data());
            const int64_t i = drawIndex(e.data(), v, uniform(generators[static_cast<size_t>(r)]));
            idsA[r] = i;
            lpA[r] = row[i] / t - logNormaliser;
        }
        return {ids, lp};
    }
    const torch::Tensor scaled = logits / o.temperature;
    const torch::Tensor logProbs = torch::log_softmax(scaled, 1); // [R, V]
    if (!filters) {
        const torch::Tensor ids = sampleFromProbs(logProbs.exp(), generators);
        return {ids, logProbs.gather(1, ids.unsqueeze(1)).squeeze(1)};
    }
    torch::Tensor filtered = scaled.clone();
    if (o.topK > 0 && o.topK < filtered.size(1)) {
        const torch::Tensor kth = std::get<0>(filtered.topk(o.topK, 1)).narrow(1, o.topK - 1, 1); // [R, 1]
        filtered.masked_fill_(filtered < kth, -INFINITY);
    }
    if (o.minP > 0.0) {
        const torch::Tensor probs = torch::softmax(filtered, 1);
        const torch::Tensor maxP = std::get<0>(probs.max(1, /*keepdim=*/true));
        filtered.masked_fill_(probs < maxP * o.minP, -INFINITY);
    }
    if (o.topP < 1.0) {
        const auto [sorted, order] = filtered.sort(/*dim=*/1, /*descending=*/true);
        const torch::Tensor sortedProbs = torch::softmax(sorted, 1);
        // Drop a token when the tokens before it already hold more than top_p (the first always stays).
        const torch::Tensor before = sortedProbs.cumsum(1) - sortedProbs;
        const torch::Tensor dropSorted = before > o.topP;
        filtered.scatter_(1, order, sorted.masked_fill(dropSorted, -INFINITY));
    }
    const torch::Tensor ids = sampleFromProbs(torch::softmax(filtered, 1), generators);
    return {ids, logProbs.gather(1, ids.unsqueeze(1)).squeeze(1)};
}

} // namespace

CausalLM::CausalLM() : m_d(std::make_unique<CausalLmInternals>()) {}
CausalLM::~CausalLM() = default;

std::unique_ptr<CausalLM> CausalLM::random(const ModelConfig &config, const ModelOptions &options)
{
    applyThreads(options.threads);
    std::unique_ptr<CausalLM> lm(new CausalLM);
    torch::manual_seed(options.seed);
    lm->m_d->module = Transformer(config);
    lm->m_d->device = pickDevice(options.device);
    lm->m_d->dtype = parseDtype(resolveDtype(options.dtype, config.torchDtype, options.device));
    lm->m_d->module->to(lm->m_d->device, lm->m_d->dtype);
    lm->m_d->module->eval();
    return lm;
}

const ModelConfig &CausalLM::config() const
{
    return m_d->module->config();
}

std::string CausalLM::deviceName() const
{
    return m_d->device.str();
}

std::string CausalLM::dtypeName() const
{
    return m_d->dtype == torch::kBFloat16 ? "bfloat16" : m_d->dtype == torch::kFloat64 ? "float64" : "float32";
}

int64_t CausalLM::parameterCount() const
{
    int64_t n = 0;
    for (const auto &p : m_d->module->parameters())
        n += p.numel();
    return n;
}

int64_t CausalLM::weightBytes() const
{
    int64_t n = 0;
    for (const auto &p : m_d->module->parameters())
        n += p.numel() * static_cast<int64_t>(p.element_size());
    return n;
}

CausalLmInternals &CausalLM::internals()
{
    return *m_d;
}

Generation CausalLM::generate(const std::vector<std::vector<int32_t>> &prompts, int samplesPerPrompt,
                              const SamplingOptions &o, const GenerationProgress &progress)
{
    TORCH_CHECK(!prompts.empty(), "generate: no prompt");
    TORCH_CHECK(samplesPerPrompt >= 1, "generate: samplesPerPrompt must be ≥ 1");
    if (o.workers > 1 && prompts.size() > 1 && !progress) {
        // The prompts in blocks, each block's rows generated on a worker thread; each row
        // keeps its stream (firstRow), so a row samples what it would in the whole batch.
        // The blocks cut by the positions a prompt's forwards run: its prefill and its rows'
        // new tokens. Cut at equal counts, two blocks of four prompts each held 782 and 1,067
        // prompt tokens (prefill 82 and 126 ms a step); a block's decode went with its rows.
        std::vector<double> costs;
        for (const auto &p : prompts)
            costs.push_back(static_cast<double>(p.size()) +
                            static_cast<double>(samplesPerPrompt) * static_cast<double>(std::max(0, o.maxNewTokens)));
        const std::vector<WorkerBlock> blocks = balancedBlocks(costs, o.workers);
        const int W = static_cast<int>(blocks.size());
        std::vector<Generation> parts(static_cast<size_t>(W));
        runOnWorkers(W, static_cast<size_t>(W), [&](size_t w) {
            const WorkerBlock &block = blocks[w];
            SamplingOptions part = o;
            part.workers = 1;
            part.firstRow = o.firstRow + block.first * static_cast<uint64_t>(samplesPerPrompt);
            parts[w] = generate(std::vector<std::vector<int32_t>>(prompts.begin() + static_cast<std::ptrdiff_t>(block.first),
                                                                  prompts.begin() + static_cast<std::ptrdiff_t>(block.last)),
                                samplesPerPrompt, part);
        });
        Generation out;
        for (Generation &p : parts) {
            for (size_t r = 0; r < p.tokens.size(); ++r) {
                out.tokens.push_back(std::move(p.tokens[r]));
                out.logProbs.push_back(std::move(p.logProbs[r]));
                out.truncated.push_back(p.truncated[r]);
            }
            out.prefillSeconds = std::max(out.prefillSeconds, p.prefillSeconds); // side by side: the longest
            out.decodeSeconds = std::max(out.decodeSeconds, p.decodeSeconds);
            out.promptTokens += p.promptTokens;
            out.generatedTokens += p.generatedTokens;
        }
        return out;
    }
    torch::InferenceMode inference;
    Transformer &m = m_d->module;
    const auto dev = m_d->device;
    const int64_t b = static_cast<int64_t>(prompts.size());
    const int64_t g = samplesPerPrompt;
    int64_t longest = 0;
    Generation out;
    for (const auto &p : prompts) {
        TORCH_CHECK(!p.empty(), "generate: an empty prompt");
        longest = std::max<int64_t>(longest, static_cast<int64_t>(p.size()));
        out.promptTokens += static_cast<int64_t>(p.size());
    }
    const int64_t maxNew = std::max(0, o.maxNewTokens);
    TORCH_CHECK(longest + maxNew <= m->config().maxPositions || m->config().maxPositions <= 0,
                "prompt (", longest, ") + max new tokens (", maxNew, ") exceed max_position_embeddings (",
                m->config().maxPositions, ")");

    // Left-padded prompts: ids, mask [B, L].
    std::vector<int64_t> ids(static_cast<size_t>(b * longest), o.padToken);
    std::vector<int64_t> mask(static_cast<size_t>(b * longest), 0);
    for (int64_t r = 0; r < b; ++r) {
        const auto &p = prompts[static_cast<size_t>(r)];
        const int64_t off = longest - static_cast<int64_t>(p.size());
        for (size_t i = 0; i < p.size(); ++i) {
            ids[static_cast<size_t>(r * longest + off) + i] = p[i];
            mask[static_cast<size_t>(r * longest + off) + i] = 1;
        }
    }
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    torch::Tensor idsT = torch::from_blob(ids.data(), {b, longest}, longOpts).to(dev);
    torch::Tensor maskT = torch::from_blob(mask.data(), {b, longest}, longOpts).to(dev);
    const torch::Tensor positions = positionsFromMask(maskT);

    auto start = Clock::now();
    KvCache cache(m->config(), b, longest + maxNew, m_d->dtype, dev);
    torch::Tensor h = m->hidden(idsT, positions, maskT, &cache);            // [B, L, H]
    torch::Tensor logits = m->logits(h.select(1, longest - 1)).to(torch::kFloat32); // [B, V]
    if (g > 1)
        cache.shareRows(g); // each prompt's keys read once per group at every decode step
    maskT = maskT.repeat_interleave(g, 0);                                  // [B·G, L]
    logits = logits.repeat_interleave(g, 0).to(torch::kCPU);                // [B·G, V]
    torch::Tensor nextPos = positions.select(1, longest - 1).repeat_interleave(g, 0) + 1; // [B·G]
    out.prefillSeconds = secondsSince(start);

    const int64_t rows = b * g;
    out.tokens.assign(static_cast<size_t>(rows), {});
    out.logProbs.assign(static_cast<size_t>(rows), {});
    out.truncated.assign(static_cast<size_t>(rows), false);
    std::vector<bool> finished(static_cast<size_t>(rows), false);
    std::vector<std::mt19937_64> generators;
    for (int64_t r = 0; r < rows; ++r)
        generators.emplace_back(rowSeed(o.seed, o.firstRow + static_cast<uint64_t>(r)));
    start = Clock::now();
    for (int64_t step = 0; step < maxNew; ++step) {
        auto [next, lp] = sampleRows(logits, o, generators); // [R], CPU
        const auto nextA = next.accessor<int64_t, 1>();
        const auto lpA = lp.accessor<float, 1>();
        std::vector<int64_t> fed(static_cast<size_t>(rows), o.padToken);
        bool allDone = true;
        for (int64_t r = 0; r < rows; ++r) {
            if (finished[static_cast<size_t>(r)])
                continue;
            const auto tok = static_cast<int32_t>(nextA[r]);
            out.tokens[static_cast<size_t>(r)].push_back(tok);
            out.logProbs[static_cast<size_t>(r)].push_back(lpA[r]);
            ++out.generatedTokens;
            fed[static_cast<size_t>(r)] = tok;
            if (std::find(o.stopTokens.begin(), o.stopTokens.end(), tok) != o.stopTokens.end())
                finished[static_cast<size_t>(r)] = true;
            else
                allDone = false;
        }
        if (allDone || step + 1 == maxNew)
            break;
        if (progress && !progress(static_cast<int>(step + 1), static_cast<int>(maxNew)))
            break;
        const torch::Tensor fedT = torch::from_blob(fed.data(), {rows, 1}, longOpts).to(dev);
        maskT = torch::cat({maskT, torch::ones({rows, 1}, maskT.options())}, 1);
        h = m->hidden(fedT, nextPos.unsqueeze(1), maskT, &cache); // [R, 1, H]
        nextPos = nextPos + 1;
        logits = m->logits(h.select(1, 0)).to(torch::kFloat32).to(torch::kCPU);
    }
    out.decodeSeconds = secondsSince(start);
    for (int64_t r = 0; r < rows; ++r) {
        const auto &t = out.tokens[static_cast<size_t>(r)];
        const bool stopped = !t.empty() && std::find(o.stopTokens.begin(), o.stopTokens.end(), t.back()) != o.stopTokens.end();
        out.truncated[static_cast<size_t>(r)] = !stopped;
    }
    return out;
}

CausalLmInternals::Batch CausalLmInternals::makeBatch(const std::vector<std::vector<int32_t>> &prompts,
                                                      const std::vector<std::vector<int32_t>> &completions,
                                                      int32_t padToken) const
{
    TORCH_CHECK(prompts.size() == completions.size(), "prompts and completions differ in number");
    Batch batch;
    const int64_t b = static_cast<int64_t>(prompts.size());
    int64_t longest = 1;
    for (size_t i = 0; i < prompts.size(); ++i)
        longest = std::max<int64_t>(longest, static_cast<int64_t>(prompts[i].size() + completions[i].size()));
    std::vector<int64_t> ids(static_cast<size_t>(b * longest), padToken);
    std::vector<int64_t> mask(static_cast<size_t>(b * longest), 0);
    for (int64_t r = 0; r < b; ++r) {
        size_t k = static_cast<size_t>(r * longest);
        for (int32_t t : prompts[static_cast<size_t>(r)]) {
            ids[k] = t;
            mask[k++] = 1;
        }
        for (int32_t t : completions[static_cast<size_t>(r)]) {
            ids[k] = t;
            mask[k++] = 1;
        }
        batch.completionStart.push_back(static_cast<int64_t>(prompts[static_cast<size_t>(r)].size()));
        batch.completionLength.push_back(static_cast<int64_t>(completions[static_cast<size_t>(r)].size()));
    }
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    batch.ids = torch::from_blob(ids.data(), {b, longest}, longOpts).clone().to(device);
    batch.mask = torch::from_blob(mask.data(), {b, longest}, longOpts).clone().to(device);
    return batch;
}

namespace {

// log p(targets) under softmax(head(h) / temperature) at the positions `needed` marks,
// 0 elsewhere: h [B, T, H], targets [B, T] int64, needed [B, T] bool (undefined: every
// position). Returns [B, T] in the compute dtype, and the entropies (no gradient) when
// `entropy` is given. The head runs only on the needed positions, in chunks of at most
// `chunkRows` of them: a vocabulary-wide row costs V / H times a hidden row, and an SFT
// batch whose loss is on the target only needs a few percent of its positions.
// log_softmax rather than logits − logsumexp: one fused kernel each way where the latter
// is five passes over [rows, V] (max, sub, exp, sum, and exp, sub, mul backwards).
torch::Tensor headLogProbs(const torch::Tensor &h, const torch::Tensor &w, const torch::Tensor &targets,
                           const torch::Tensor &needed, double temperature, int64_t chunkRows, torch::Dtype ct,
                           torch::Tensor *entropy)
{
    const int64_t b = h.size(0), t = h.size(1);
    const torch::Tensor flatH = h.reshape({b * t, h.size(2)});
    const torch::Tensor flatTargets = targets.reshape({b * t});
    const bool all = !needed.defined();
    const torch::Tensor index = all ? torch::Tensor() : needed.reshape({b * t}).nonzero().squeeze(1).to(h.device());
    const int64_t rows = all ? b * t : index.size(0);
    const auto options = h.options().dtype(ct);
    if (rows == 0) {
        // Nothing needed (an SFT micro-batch whose tokens all have weight 0): zeros that
        // still hang on the graph, so that the caller's backward runs and gives 0.
        const torch::Tensor zeros = torch::zeros({b, t}, options);
        if (entropy)
            *entropy = torch::zeros({b, t}, options);
        return h.requires_grad() ? zeros + h.sum().to(ct) * 0.0 : zeros;
    }
    // Dividing the hidden rows by the temperature is the same product as dividing the logits, H / V the work.
    const double invTemperature = temperature > 0.0 && temperature != 1.0 ? 1.0 / temperature : 1.0;
    std::vector<torch::Tensor> lps, ents;
    for (int64_t r0 = 0; r0 < rows; r0 += chunkRows) {
        const int64_t n = std::min(chunkRows, rows - r0);
        torch::Tensor hs = all ? flatH.narrow(0, r0, n) : flatH.index_select(0, index.narrow(0, r0, n));
        const torch::Tensor ts = all ? flatTargets.narrow(0, r0, n) : flatTargets.index_select(0, index.narrow(0, r0, n));
        if (invTemperature != 1.0)
            hs = hs * invTemperature;
        const torch::Tensor logp = torch::log_softmax(torch::nn::functional::linear(hs, w).to(ct), -1); // [n, V]
        lps.push_back(logp.gather(-1, ts.unsqueeze(-1)).squeeze(-1));
        if (entropy) {
            torch::NoGradGuard noGrad;
            const torch::Tensor d = logp.detach();
            ents.push_back(-(d.exp() * d).sum(-1));
        }
    }
    // The chunks back into [B, T] (rows > 0 here, so there is at least one chunk).
    const auto spread = [&](const std::vector<torch::Tensor> &parts) {
        const torch::Tensor flat = torch::cat(parts, 0);
        if (all)
            return flat.view({b, t});
        return torch::zeros({b * t}, flat.options()).index_copy(0, index, flat).view({b, t});
    };
    if (entropy) {
        torch::NoGradGuard noGrad;
        *entropy = spread(ents);
    }
    return spread(lps);
}

} // namespace

torch::Tensor CausalLmInternals::sequenceLogProbs(const Batch &batch, double temperature, int64_t chunk,
                                                  torch::Tensor *entropy, const torch::Tensor &needed)
{
    const int64_t len = batch.ids.size(1);
    const torch::Tensor positions = positionsFromMask(batch.mask);
    const torch::Tensor h = module->hidden(batch.ids, positions, batch.mask, nullptr); // [B, L, H]
    const torch::Tensor targets = batch.ids.narrow(1, 1, len - 1);                    // [B, L−1]
    const int64_t b = batch.ids.size(0);
    return headLogProbs(h.narrow(1, 0, len - 1), module->headWeight(), targets, needed, temperature,
                        std::max<int64_t>(1, chunk) * b, computeDtype(dtype), entropy);
}

torch::Tensor CausalLmInternals::groupedCompletionLogProbs(const std::vector<std::vector<int32_t>> &prompts,
                                                           const std::vector<std::vector<int32_t>> &completions,
                                                           int64_t groupSize, int32_t padToken, double temperature,
                                                           torch::Tensor *mask, torch::Tensor *entropy)
{
    const int64_t b = static_cast<int64_t>(prompts.size());
    const int64_t g = groupSize;
    TORCH_CHECK(b > 0 && g > 0 && static_cast<int64_t>(completions.size()) == b * g,
                "groupedCompletionLogProbs: ", completions.size(), " completions for ", b, " prompts × ", g);
    int64_t lp = 0, tc = 1;
    for (const auto &p : prompts) {
        TORCH_CHECK(!p.empty(), "groupedCompletionLogProbs: an empty prompt");
        lp = std::max<int64_t>(lp, static_cast<int64_t>(p.size()));
    }
    for (const auto &c : completions) {
        TORCH_CHECK(!c.empty(), "groupedCompletionLogProbs: an empty completion");
        tc = std::max<int64_t>(tc, static_cast<int64_t>(c.size()));
    }
    const int64_t rows = b * g;
    // Left-padded prompts [B, Lp]; right-padded completions [R, Tc].
    std::vector<int64_t> pIds(static_cast<size_t>(b * lp), padToken), pMask(static_cast<size_t>(b * lp), 0);
    for (int64_t r = 0; r < b; ++r) {
        const auto &p = prompts[static_cast<size_t>(r)];
        const int64_t off = lp - static_cast<int64_t>(p.size());
        for (size_t i = 0; i < p.size(); ++i) {
            pIds[static_cast<size_t>(r * lp + off) + i] = p[i];
            pMask[static_cast<size_t>(r * lp + off) + i] = 1;
        }
    }
    std::vector<int64_t> cIds(static_cast<size_t>(rows * tc), padToken), cMask(static_cast<size_t>(rows * tc), 0);
    for (int64_t r = 0; r < rows; ++r) {
        const auto &c = completions[static_cast<size_t>(r)];
        for (size_t i = 0; i < c.size(); ++i) {
            cIds[static_cast<size_t>(r * tc) + i] = c[i];
            cMask[static_cast<size_t>(r * tc) + i] = 1;
        }
    }
    // Cloned: autograd keeps the index tensors for the backward pass, after these vectors are gone.
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    const torch::Tensor promptIds = torch::from_blob(pIds.data(), {b, lp}, longOpts).clone().to(device);
    torch::Tensor keyMask = torch::from_blob(pMask.data(), {b, lp}, longOpts).clone().to(device);
    const torch::Tensor compIds = torch::from_blob(cIds.data(), {rows, tc}, longOpts).clone().to(device);
    const torch::Tensor compMask = torch::from_blob(cMask.data(), {rows, tc}, longOpts).clone().to(device);
    const torch::Tensor positions = positionsFromMask(keyMask);

    KvCache cache(module->config(), b, lp + tc, dtype, device);
    const torch::Tensor hp = module->hidden(promptIds, positions, keyMask, &cache);  // [B, Lp, H]
    std::vector<torch::Tensor> hs{hp.select(1, lp - 1).repeat_interleave(g, 0).unsqueeze(1)}; // [R, 1, H]
    if (tc > 1) {
        cache.repeatRows(g);
        keyMask = torch::cat({keyMask.repeat_interleave(g, 0), compMask.narrow(1, 0, tc - 1)}, 1); // [R, Lp + Tc − 1]
        const torch::Tensor start = positions.select(1, lp - 1).repeat_interleave(g, 0).unsqueeze(1) + 1; // [R, 1]
        const torch::Tensor compPos = start + torch::arange(tc - 1, longOpts.device(device)).unsqueeze(0);
        hs.push_back(module->hidden(compIds.narrow(1, 0, tc - 1), compPos, keyMask, &cache)); // [R, Tc − 1, H]
    }
    const torch::Tensor h = torch::cat(hs, 1); // [R, Tc, H]: position t predicts completion token t
    // The head only on real tokens: completions of a group differ in length, and the
    // positions past a row's end are cut by the mask anyway.
    const torch::Tensor out = headLogProbs(h, module->headWeight(), compIds, compMask.to(torch::kBool), temperature,
                                           2048, computeDtype(dtype), entropy);
    if (mask)
        *mask = compMask.to(computeDtype(dtype));
    return out;
}

std::vector<TokenScores> CausalLM::scoreTokens(const std::vector<std::vector<int32_t>> &prompts,
                                               const std::vector<std::vector<int32_t>> &completions,
                                               double temperature, bool withEntropy, int64_t chunk)
{
    torch::InferenceMode inference;
    const CausalLmInternals::Batch batch = m_d->makeBatch(prompts, completions, 0);
    torch::Tensor ent;
    const torch::Tensor lp = m_d->sequenceLogProbs(batch, temperature, chunk, withEntropy ? &ent : nullptr).to(torch::kCPU);
    if (withEntropy)
        ent = ent.to(torch::kCPU);
    std::vector<TokenScores> out(prompts.size());
    for (size_t r = 0; r < prompts.size(); ++r) {
        // The completion token at sequence index i is predicted at position i − 1.
        const int64_t start = batch.completionStart[r] - 1;
        for (int64_t i = 0; i < batch.completionLength[r]; ++i) {
            out[r].logProbs.push_back(lp[static_cast<int64_t>(r)][start + i].item<float>());
            if (withEntropy)
                out[r].entropy.push_back(ent[static_cast<int64_t>(r)][start + i].item<float>());
        }
    }
    return out;
}

namespace {

bool endsWithModule(const std::string &name, const std::string &key)
{
    return name == key || (name.size() > key.size() && name.compare(name.size() - key.size(), key.size(), key) == 0 &&
                           name[name.size() - key.size() - 1] == '.');
}

// PEFT's get_pattern_key: the first key k with re.match(r"(.*\.)?(k)$", name).
template <typename T>
const T *patternValue(const std::vector<std::pair<std::string, T>> &pattern, const std::string &name)
{
    for (const auto &[key, value] : pattern)
        if (std::regex_match(name, std::regex("(.*\\.)?(" + key + ")")))
            return &value;
    return nullptr;
}

} // namespace

bool loraTargets(const LoraOptions &options, const std::string &module)
{
    if (!options.targetRegex.empty())
        return std::regex_match(module, std::regex(options.targetRegex));
    for (const std::string &t : options.targetModules)
        if (endsWithModule(module, t))
            return true;
    return false;
}

void CausalLM::addLora(const LoraOptions &options)
{
    int matched = 0;
    for (auto &[name, layer] : m_d->module->linearLayers()) {
        if (!loraTargets(options, name))
            continue;
        const int *rank = patternValue(options.rankPattern, name);
        const double *alpha = patternValue(options.alphaPattern, name);
        const int r = rank ? *rank : options.rank;
        const double a = alpha ? *alpha : options.alpha;
        if (r <= 0)
            throw std::invalid_argument("LoRA rank of " + name + " must be > 0");
        layer->addLora(r, options.rslora ? a / std::sqrt(static_cast<double>(r)) : a / static_cast<double>(r),
                       options.dropout);
        ++matched;
    }
    if (matched == 0)
        throw std::invalid_argument("LoRA's target modules match no linear layer of the model");
    for (auto &p : m_d->module->parameters())
        p.requires_grad_(false);
    m_d->lora = options;
    m_d->hasLora = true;
}

bool CausalLM::hasLora() const
{
    return m_d->hasLora;
}

void CausalLM::setAdaptersEnabled(bool enabled)
{
    m_d->module->adapters().enabled = enabled;
}

void CausalLM::mergeLora()
{
    for (auto &[name, layer] : m_d->module->linearLayers())
        layer->mergeLora();
    m_d->hasLora = false;
}

std::vector<std::pair<std::string, torch::Tensor>> CausalLmInternals::loraTensors()
{
    std::vector<std::pair<std::string, torch::Tensor>> out;
    for (auto &[name, layer] : module->linearLayers()) {
        if (!layer->hasLora())
            continue;
        out.emplace_back("base_model.model." + name + ".lora_A.weight", layer->m_loraA);
        out.emplace_back("base_model.model." + name + ".lora_B.weight", layer->m_loraB);
    }
    return out;
}

std::vector<torch::Tensor> CausalLmInternals::trainableParameters()
{
    std::vector<torch::Tensor> out;
    if (hasLora) {
        for (auto &[name, t] : loraTensors())
            out.push_back(t);
        return out;
    }
    for (auto &p : module->parameters())
        if (p.requires_grad())
            out.push_back(p);
    return out;
}

} // namespace rwb::model
