#include "model/transformer.h"

#include "model/fusedops.h"

#include <torch/version.h>

#include <cmath>

namespace rwb::model {

namespace F = torch::nn::functional;

namespace {
// The additive bias for a masked attention score. Finite, so that a row with every key
// masked (a padding query) gives a harmless uniform row instead of NaN.
constexpr float kMasked = -1e30f;
// Standard deviation of the random initialisation (transformers' initializer_range).
constexpr double kInitStd = 0.02;
} // namespace

torch::Dtype computeDtype(torch::Dtype dtype)
{
    return dtype == torch::kFloat64 ? torch::kFloat64 : torch::kFloat32;
}

// ---- LoRA linear

LoraLinearImpl::LoraLinearImpl(int64_t in, int64_t out, bool withBias, std::shared_ptr<AdapterSwitch> adapters)
    : m_adapters(std::move(adapters))
{
    weight = register_parameter("weight", torch::empty({out, in}));
    if (withBias)
        bias = register_parameter("bias", torch::zeros({out}));
}

torch::Tensor LoraLinearImpl::forward(const torch::Tensor &input)
{
    // 2-D products: libtorch 1.13's CPU linear is several times slower on [B, T, in] than
    // on the same data as [B·T, in], most of all for the single rows of decoding.
    auto outShape = input.sizes().vec();
    outShape.back() = weight.size(0);
    const torch::Tensor x = input.reshape({-1, input.size(-1)});
    torch::Tensor y;
    const int64_t rows = x.size(0);
    const bool inference = !torch::GradMode::is_enabled() || (!x.requires_grad() && !weight.requires_grad());
    // Decode steps have few rows and are bound by reading W: fewRowsLinear
    // (model/fusedops.h) reads it once for all of them.
    if (inference && rows <= fewRowsMax(weight.scalar_type())) {
        y = fewRowsLinear(x, weight);
        if (bias.defined())
            y = y + bias;
    } else {
        y = F::linear(x, weight, bias.defined() ? bias : torch::Tensor());
    }
    if (m_loraA.defined() && m_adapters && m_adapters->enabled) {
        torch::Tensor h = x.to(m_loraA.scalar_type());
        if (is_training() && m_dropout > 0.0)
            h = model::dropout(h, m_dropout);
        // y + scale · (h Aᵀ) Bᵀ as one product-and-add (addmm), forward and backward.
        const torch::Tensor down = F::linear(h, m_loraA);
        y = y.scalar_type() == down.scalar_type() ? torch::addmm(y, down, m_loraB.t(), 1.0, m_scale)
                                                  : y + (F::linear(down, m_loraB) * m_scale).to(y.scalar_type());
    }
    return y.view(outShape);
}

void LoraLinearImpl::addLora(int64_t rank, double scale, double dropout)
{
    TORCH_CHECK(rank > 0, "LoRA rank must be > 0");
    const int64_t out = weight.size(0);
    const int64_t in = weight.size(1);
    // Adapters train in fp32 whatever the base dtype (f64 for a f64 model: gradient checks).
    const auto opts = torch::TensorOptions().dtype(computeDtype(weight.scalar_type())).device(weight.device());
    m_loraA = torch::empty({rank, in}, opts);
    torch::nn::init::kaiming_uniform_(m_loraA, std::sqrt(5.0));
    m_loraA.requires_grad_(true);
    m_loraB = torch::zeros({out, rank}, opts).requires_grad_(true);
    m_scale = scale;
    m_dropout = dropout;
    weight.requires_grad_(false);
    if (bias.defined())
        bias.requires_grad_(false);
}

void LoraLinearImpl::mergeLora()
{
    if (!m_loraA.defined())
        return;
    torch::NoGradGuard noGrad;
    weight.add_((torch::matmul(m_loraB, m_loraA) * m_scale).to(weight.scalar_type()));
    m_loraA = torch::Tensor();
    m_loraB = torch::Tensor();
}

// ---- RMSNorm

RmsNormImpl::RmsNormImpl(int64_t dim, double eps) : m_eps(eps)
{
    weight = register_parameter("weight", torch::ones({dim}));
}

torch::Tensor RmsNormImpl::forward(const torch::Tensor &x)
{
    return rmsNorm(x, weight, m_eps);
}

// ---- RoPE

Rope::Rope(const ModelConfig &c)
{
    const int64_t d = c.headDim;
    const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);
    const torch::Tensor exponent = torch::arange(0, d, 2, f64) / static_cast<double>(d); // [D/2]
    const torch::Tensor posFreqs = torch::pow(c.ropeTheta, exponent);
    torch::Tensor inv = 1.0 / posFreqs;
    const RopeScaling &s = c.ropeScaling;
    switch (s.type) {
    case RopeScaling::Type::Default:
        break;
    case RopeScaling::Type::Linear:
        inv = inv / s.factor;
        break;
    case RopeScaling::Type::Llama3: {
        const double oldContext = static_cast<double>(s.originalMaxPositions);
        const double lowWavelen = oldContext / s.lowFreqFactor;
        const double highWavelen = oldContext / s.highFreqFactor;
        const torch::Tensor wavelen = 2.0 * M_PI / inv;
        torch::Tensor scaled = torch::where(wavelen > lowWavelen, inv / s.factor, inv);
        const torch::Tensor smooth = (oldContext / wavelen - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
        const torch::Tensor smoothed = (1.0 - smooth) * scaled / s.factor + smooth * scaled;
        const torch::Tensor medium = (wavelen >= highWavelen) & (wavelen <= lowWavelen);
        inv = torch::where(medium, smoothed, scaled);
        break;
    }
    case RopeScaling::Type::Yarn: {
        const double base = c.ropeTheta;
        const double maxPos = static_cast<double>(s.originalMaxPositions);
        auto correctionDim = [&](double rotations) {
            return (static_cast<double>(d) * std::log(maxPos / (rotations * 2.0 * M_PI))) / (2.0 * std::log(base));
        };
        double low = std::floor(correctionDim(s.betaFast));
        double high = std::ceil(correctionDim(s.betaSlow));
        low = std::max(low, 0.0);
        high = std::min(high, static_cast<double>(d - 1));
        if (low == high)
            high += 0.001; // avoid a division by zero, as transformers does
        const torch::Tensor ramp = ((torch::arange(0, d / 2, f64) - low) / (high - low)).clamp(0.0, 1.0);
        const torch::Tensor extrapolationFactor = 1.0 - ramp;
        const torch::Tensor extrapolation = 1.0 / posFreqs;
        const torch::Tensor interpolation = 1.0 / (s.factor * posFreqs);
        inv = interpolation * (1.0 - extrapolationFactor) + extrapolation * extrapolationFactor;
        m_attentionScaling = s.attentionFactor > 0.0 ? s.attentionFactor
                                                      : (s.factor > 1.0 ? 0.1 * std::log(s.factor) + 1.0 : 1.0);
        break;
    }
    }
    m_invFreq = inv.to(torch::kFloat32);
    m_invFreq64 = inv;
}

std::pair<torch::Tensor, torch::Tensor> Rope::cosSin(const torch::Tensor &positions, torch::Dtype dtype) const
{
    const torch::Dtype ct = computeDtype(dtype);
    const torch::Tensor inv = (ct == torch::kFloat64 ? m_invFreq64 : m_invFreq).to(positions.device());
    const torch::Tensor freqs = positions.to(ct).unsqueeze(-1) * inv; // [B, T, D/2]
    const torch::Tensor emb = torch::cat({freqs, freqs}, /*dim=*/-1);             // [B, T, D]
    torch::Tensor cos = emb.cos().unsqueeze(1);                                   // [B, 1, T, D]
    torch::Tensor sin = emb.sin().unsqueeze(1);
    if (m_attentionScaling != 1.0) {
        cos = cos * m_attentionScaling;
        sin = sin * m_attentionScaling;
    }
    return {cos, sin};
}

torch::Tensor applyRope(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin)
{
    const int64_t half = x.size(-1) / 2;
    const torch::Tensor x1 = x.narrow(-1, 0, half);
    const torch::Tensor x2 = x.narrow(-1, half, half);
    const torch::Tensor rotated = torch::cat({-x2, x1}, /*dim=*/-1);
    return x * cos.to(x.scalar_type()) + rotated * sin.to(x.scalar_type());
}

// ---- KV cache

KvCache::KvCache(const ModelConfig &c, int64_t rows, int64_t capacity, torch::Dtype dtype, torch::Device device)
    : m_rows(rows), m_capacity(capacity)
{
    const auto opts = torch::TensorOptions().dtype(dtype).device(device);
    for (int64_t l = 0; l < c.numLayers; ++l) {
        m_k.push_back(torch::zeros({rows, c.numKvHeads, capacity, c.headDim}, opts));
        m_v.push_back(torch::zeros({rows, c.numKvHeads, capacity, c.headDim}, opts));
    }
}

std::pair<torch::Tensor, torch::Tensor> KvCache::append(size_t layer, const torch::Tensor &k, const torch::Tensor &v)
{
    const int64_t t = k.size(2);
    TORCH_CHECK(m_length + t <= m_capacity, "KV cache full: ", m_length, " + ", t, " > ", m_capacity);
    TORCH_CHECK(k.size(0) == m_rows, "KV cache has ", m_rows, " rows, got ", k.size(0));
    m_k[layer].narrow(2, m_length, t).copy_(k);
    m_v[layer].narrow(2, m_length, t).copy_(v);
    return {m_k[layer].narrow(2, 0, m_length + t), m_v[layer].narrow(2, 0, m_length + t)};
}

torch::Tensor KvCache::keys(size_t layer) const
{
    TORCH_CHECK(m_prefix.empty(), "KvCache::keys: the rows share a prefix");
    return m_k[layer].narrow(2, 0, m_length);
}

torch::Tensor KvCache::values(size_t layer) const
{
    TORCH_CHECK(m_prefix.empty(), "KvCache::values: the rows share a prefix");
    return m_v[layer].narrow(2, 0, m_length);
}

void KvCache::shareRows(int64_t times)
{
    TORCH_CHECK(m_prefix.empty(), "KvCache::shareRows: the rows already share a prefix");
    TORCH_CHECK(times >= 1, "KvCache::shareRows: times must be ≥ 1");
    m_prefix.resize(m_k.size());
    for (size_t l = 0; l < m_k.size(); ++l) {
        m_prefix[l] = {m_k[l].narrow(2, 0, m_length), m_v[l].narrow(2, 0, m_length), times};
        const auto sizes = m_k[l].sizes();
        m_k[l] = torch::zeros({sizes[0] * times, sizes[1], m_capacity - m_length, sizes[3]}, m_k[l].options());
        m_v[l] = torch::zeros({sizes[0] * times, sizes[1], m_capacity - m_length, sizes[3]}, m_v[l].options());
    }
    m_rows *= times;
    m_capacity -= m_length;
    m_prefixLength = m_length;
    m_length = 0;
}

void KvCache::repeatRows(int64_t times)
{
    TORCH_CHECK(m_prefix.empty(), "KvCache::repeatRows: the rows share a prefix");
    for (auto &t : m_k)
        t = t.repeat_interleave(times, /*dim=*/0);
    for (auto &t : m_v)
        t = t.repeat_interleave(times, /*dim=*/0);
    m_rows *= times;
}

// ---- ragged KV cache (continuous batching)

namespace {
// Columns are added in steps of this many tokens, so that a growing row does not copy
// the cache at every step.
constexpr int64_t kRaggedGrowth = 128;
} // namespace

RaggedKvCache::RaggedKvCache(const ModelConfig &c, torch::Dtype dtype, torch::Device device)
    : m_layers(c.numLayers), m_kvHeads(c.numKvHeads), m_headDim(c.headDim),
      m_options(torch::TensorOptions().dtype(dtype).device(device))
{
}

void RaggedKvCache::reserve(int64_t rows, int64_t columns)
{
    if (rows <= m_rowCapacity && columns <= m_capacity)
        return;
    const int64_t rowCapacity = rows <= m_rowCapacity ? m_rowCapacity : std::max(rows, 2 * m_rowCapacity);
    const int64_t capacity = columns <= m_capacity ? m_capacity
                                                   : (columns + kRaggedGrowth - 1) / kRaggedGrowth * kRaggedGrowth;
    const int64_t used = this->rows();
    for (std::vector<torch::Tensor> *store : {&m_k, &m_v}) {
        for (int64_t l = 0; l < m_layers; ++l) {
            torch::Tensor grown = torch::zeros({rowCapacity, m_kvHeads, capacity, m_headDim}, m_options); // [R, K, C, D]
            if (used > 0)
                grown.narrow(0, 0, used).narrow(2, 0, m_capacity).copy_((*store)[static_cast<size_t>(l)].narrow(0, 0, used));
            if (static_cast<int64_t>(store->size()) <= l)
                store->push_back(grown);
            else
                (*store)[static_cast<size_t>(l)] = grown;
        }
    }
    m_rowCapacity = rowCapacity;
    m_capacity = capacity;
}

void RaggedKvCache::addRows(const KvCache &prefill, int64_t copies)
{
    TORCH_CHECK(copies >= 1, "RaggedKvCache::addRows: copies must be ≥ 1");
    const int64_t length = prefill.length();
    const int64_t first = rows();
    reserve(first + copies, length + 1);
    for (int64_t l = 0; l < m_layers; ++l) {
        const size_t i = static_cast<size_t>(l);
        for (auto [store, source] : {std::pair{&m_k, prefill.keys(i)}, std::pair{&m_v, prefill.values(i)}})
            (*store)[i].narrow(0, first, copies).narrow(2, 0, length).copy_(source.narrow(0, 0, 1).expand({copies, -1, -1, -1}));
    }
    m_lengths.insert(m_lengths.end(), static_cast<size_t>(copies), length);
}

KvCache RaggedKvCache::rowCache(int64_t r, int64_t extra) const
{
    TORCH_CHECK(r >= 0 && r < rows(), "RaggedKvCache::rowCache: no row ", r);
    const int64_t length = m_lengths[static_cast<size_t>(r)];
    ModelConfig shape;
    shape.numLayers = m_layers;
    shape.numKvHeads = m_kvHeads;
    shape.headDim = m_headDim;
    KvCache out(shape, 1, length + extra, m_options.dtype().toScalarType(), m_options.device());
    for (int64_t l = 0; l < m_layers; ++l) {
        const size_t i = static_cast<size_t>(l);
        out.append(i, m_k[i].narrow(0, r, 1).narrow(2, 0, length), m_v[i].narrow(0, r, 1).narrow(2, 0, length));
    }
    out.advance(length);
    return out;
}

void RaggedKvCache::replaceRow(int64_t r, const KvCache &source)
{
    TORCH_CHECK(r >= 0 && r < rows(), "RaggedKvCache::replaceRow: no row ", r);
    const int64_t length = source.length();
    reserve(rows(), length + 1);
    for (int64_t l = 0; l < m_layers; ++l) {
        const size_t i = static_cast<size_t>(l);
        m_k[i].narrow(0, r, 1).narrow(2, 0, length).copy_(source.keys(i).narrow(0, 0, 1));
        m_v[i].narrow(0, r, 1).narrow(2, 0, length).copy_(source.values(i).narrow(0, 0, 1));
    }
    m_lengths[static_cast<size_t>(r)] = length;
}

void RaggedKvCache::removeRow(int64_t r)
{
    TORCH_CHECK(r >= 0 && r < rows(), "RaggedKvCache::removeRow: no row ", r);
    const int64_t last = rows() - 1;
    if (last == 0) { // free the memory of an idle batch
        m_k.clear();
        m_v.clear();
        m_rowCapacity = 0;
        m_capacity = 0;
        m_lengths.clear();
        return;
    }
    if (r != last) {
        for (auto &t : m_k)
            t[r].copy_(t[last]);
        for (auto &t : m_v)
            t[r].copy_(t[last]);
        m_lengths[static_cast<size_t>(r)] = m_lengths[static_cast<size_t>(last)];
    }
    m_lengths.pop_back();
}

torch::Tensor RaggedKvCache::beginStep()
{
    int64_t longest = 0;
    for (int64_t n : m_lengths)
        longest = std::max(longest, n);
    reserve(rows(), longest + 1);
    m_span = longest + 1;
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    m_lengthsT = torch::tensor(m_lengths, longOpts).to(m_options.device());             // [B]
    const torch::Tensor columns = torch::arange(m_span, longOpts.device(m_options.device())); // [S]
    return (columns.unsqueeze(0) <= m_lengthsT.unsqueeze(1)).to(torch::kLong);           // [B, S]
}

torch::Tensor RaggedKvCache::stepPositions() const
{
    return torch::tensor(m_lengths, torch::TensorOptions().dtype(torch::kLong)).to(m_options.device()).unsqueeze(1); // [B, 1]
}

std::pair<torch::Tensor, torch::Tensor> RaggedKvCache::append(size_t layer, const torch::Tensor &k, const torch::Tensor &v)
{
    TORCH_CHECK(k.size(2) == 1, "RaggedKvCache takes one new token per row, got ", k.size(2));
    TORCH_CHECK(k.size(0) == rows(), "RaggedKvCache has ", rows(), " rows, got ", k.size(0));
    TORCH_CHECK(m_lengthsT.defined() && m_span <= m_capacity, "RaggedKvCache: beginStep() first");
    const torch::Tensor index = m_lengthsT.view({-1, 1, 1, 1}).expand({rows(), m_kvHeads, 1, m_headDim}); // [B, K, 1, D]
    torch::Tensor keys = m_k[layer].narrow(0, 0, rows());   // [B, K, C, D], a view
    torch::Tensor values = m_v[layer].narrow(0, 0, rows());
    keys.scatter_(/*dim=*/2, index, k.to(keys.scalar_type()));
    values.scatter_(/*dim=*/2, index, v.to(values.scalar_type()));
    return {keys.narrow(2, 0, m_span), values.narrow(2, 0, m_span)};
}

void RaggedKvCache::advance(int64_t tokens)
{
    for (int64_t &n : m_lengths)
        n += tokens;
    m_lengthsT = torch::Tensor();
}

// ---- Attention, MLP, layer

namespace {

// New tokens after a prefix that groups of G consecutive rows share (KvCache::shareRows,
// groupedCompletionLogProbs): q [R, N, T, D], the rows' own keys and values k, v
// [R, K, L, D], the prefix [B, K, P, D] with R = B·G, bias [R, 1, T, P + L]. Returns
// [R, N, T, D] in `ct`. The prefix is read once per group: its scores and weighted sums are
// B·K products of G·(N/K)·T query rows each, where the repeated prefix made R·K products of
// (N/K)·T rows each. Decoding (T = 1): tens of thousands of tiny products per generation,
// which dominated it. Training (the completions of a GRPO group after their prompt): one
// product per group and head instead of flash attention over G copies of the prompt.
torch::Tensor sharedPrefixAttention(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v,
                                    const KvStore::SharedPrefix &prefix, const torch::Tensor &bias, torch::Dtype ct)
{
    const int64_t r = q.size(0), n = q.size(1), t = q.size(2), d = q.size(3);
    const int64_t kv = k.size(1), g = n / kv, groups = prefix.groupSize, b = r / groups;
    const int64_t p = prefix.keys.size(2), own = k.size(2);
    const int64_t rowsPerHead = g * t; // a KV head's queries in one row: its N/K heads × T tokens
    const torch::Tensor qc = q.to(ct);
    // [B, K, G·g·T, D]: a group's queries for each KV head side by side.
    const torch::Tensor qp =
        qc.reshape({b, groups, kv, rowsPerHead, d}).transpose(1, 2).reshape({b, kv, groups * rowsPerHead, d});
    const torch::Tensor sp = torch::matmul(qp, prefix.keys.to(ct).transpose(-1, -2)) // [B, K, G·g·T, P]
                                 .reshape({b, kv, groups, rowsPerHead, p})
                                 .transpose(1, 2)
                                 .reshape({r, kv, rowsPerHead, p});
    const torch::Tensor qs = qc.reshape({r, kv, rowsPerHead, d});
    const torch::Tensor so = torch::matmul(qs, k.to(ct).transpose(-1, -2)); // [R, K, g·T, L]
    // The bias [R, 1, T, P + L] broadcast over the KV heads and the N/K heads of each.
    const torch::Tensor scores = torch::cat({sp, so}, -1).view({r, kv, g, t, p + own})
                                     * (1.0 / std::sqrt(static_cast<double>(d)))
                                 + bias.to(ct).unsqueeze(2);
    const torch::Tensor probs = torch::softmax(scores, -1).view({r, kv, rowsPerHead, p + own});
    const torch::Tensor pp = probs.narrow(-1, 0, p)
                                 .reshape({b, groups, kv, rowsPerHead, p})
                                 .transpose(1, 2)
                                 .reshape({b, kv, groups * rowsPerHead, p});
    const torch::Tensor fromPrefix = torch::matmul(pp, prefix.values.to(ct)) // [B, K, G·g·T, D]
                                         .reshape({b, kv, groups, rowsPerHead, d})
                                         .transpose(1, 2)
                                         .reshape({r, kv, rowsPerHead, d});
    const torch::Tensor fromOwn = torch::matmul(probs.narrow(-1, p, own), v.to(ct)); // [R, K, g·T, D]
    return (fromPrefix + fromOwn).reshape({r, n, t, d});
}

} // namespace

AttentionImpl::AttentionImpl(const ModelConfig &c, std::shared_ptr<AdapterSwitch> adapters)
    : m_heads(c.numHeads), m_kvHeads(c.numKvHeads), m_headDim(c.headDim)
{
    const bool qkvBias = c.qkvBias || c.attentionBias;
    q_proj = register_module("q_proj", LoraLinear(c.hiddenSize, c.numHeads * c.headDim, qkvBias, adapters));
    k_proj = register_module("k_proj", LoraLinear(c.hiddenSize, c.numKvHeads * c.headDim, qkvBias, adapters));
    v_proj = register_module("v_proj", LoraLinear(c.hiddenSize, c.numKvHeads * c.headDim, qkvBias, adapters));
    o_proj = register_module("o_proj", LoraLinear(c.numHeads * c.headDim, c.hiddenSize, c.attentionBias, adapters));
    if (c.qkNorm) {
        q_norm = register_module("q_norm", RmsNorm(c.headDim, c.rmsNormEps));
        k_norm = register_module("k_norm", RmsNorm(c.headDim, c.rmsNormEps));
    }
}

torch::Tensor AttentionImpl::forward(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin,
                                     const torch::Tensor &bias, KvStore *cache, size_t layer)
{
    const int64_t b = x.size(0);
    const int64_t t = x.size(1);
    torch::Tensor q = q_proj(x).view({b, t, m_heads, m_headDim});   // [B, T, N, D]
    torch::Tensor k = k_proj(x).view({b, t, m_kvHeads, m_headDim}); // [B, T, K, D]
    torch::Tensor v = v_proj(x).view({b, t, m_kvHeads, m_headDim});
    if (q_norm) {
        q = q_norm(q);
        k = k_norm(k);
    }
    q = rope(q, cos, sin); // [B, N, T, D]
    k = rope(k, cos, sin); // [B, K, T, D]
    v = v.transpose(1, 2);
    if (cache)
        std::tie(k, v) = cache->append(layer, k, v); // [B, K, S, D]
    const KvStore::SharedPrefix *shared = cache ? cache->sharedPrefix(layer) : nullptr;
    if (t == 1) { // decoding: one fused kernel where it applies (fusedops.h)
        const torch::Tensor out = shared ? decodeAttention(q, k, v, shared->keys, shared->values, shared->groupSize, bias)
                                         : decodeAttention(q, k, v, {}, {}, 1, bias);
        if (out.defined())
            return o_proj(out);
    }
    if (shared)
        return o_proj(sharedPrefixAttention(q, k, v, *shared, bias, computeDtype(x.scalar_type()))
                          .transpose(1, 2)
                          .reshape({b, t, m_heads * m_headDim})
                          .to(x.scalar_type()));
    // The attention products run in fp32 whatever the weights' dtype: their shapes change
    // at every decode step, and on CPU each new bf16 shape costs a oneDNN kernel build.
    const torch::Dtype ct = computeDtype(x.scalar_type());
    torch::Tensor out;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 5)
    // libtorch 2.5+, several new tokens (training, prefill): one fused kernel (flash
    // attention on CPU) forward and backward, GQA included; it never holds the
    // [B, N, T, S] scores that the products below write, scale, bias and softmax in four
    // passes. Measured in isolation (AVX2, one thread, B 16, T = S = 150): 1.7× the
    // forward, 1.2× with backward; SFT on the quick demo +15 % tokens/s. Not for one new
    // token: there it makes one matrix-vector product per row and head, and 64 rows'
    // decode spent half its time in them (perf, GRPO bench).
    if (t > 1)
        out = at::scaled_dot_product_attention(q.to(ct), k.to(ct), v.to(ct), bias.to(ct), /*dropout_p=*/0.0,
                                               /*is_causal=*/false, /*scale=*/std::nullopt, /*enable_gqa=*/true)
                  .transpose(1, 2)
                  .reshape({b, t, m_heads * m_headDim})
                  .to(x.scalar_type());
#endif
    if (!out.defined()) {
        const int64_t g = m_heads / m_kvHeads;
        const int64_t s = k.size(2);
        // GQA: query head h uses KV head h / G; fold the G heads of a group into the query length.
        const torch::Tensor qg = q.reshape({b, m_kvHeads, g * t, m_headDim}).to(ct); // [B, K, G·T, D]
        torch::Tensor scores = torch::matmul(qg, k.to(ct).transpose(-1, -2));       // [B, K, G·T, S]
        scores = scores * (1.0 / std::sqrt(static_cast<double>(m_headDim)));
        const torch::Tensor groupBias = bias.unsqueeze(2).expand({b, 1, g, t, s}).reshape({b, 1, g * t, s});
        const torch::Tensor probs = torch::softmax(scores + groupBias, /*dim=*/-1);
        out = torch::matmul(probs, v.to(ct))             // [B, K, G·T, D]
                  .reshape({b, m_heads, t, m_headDim})   // [B, N, T, D]
                  .transpose(1, 2)
                  .reshape({b, t, m_heads * m_headDim})
                  .to(x.scalar_type());
    }
    return o_proj(out);
}

MlpImpl::MlpImpl(const ModelConfig &c, std::shared_ptr<AdapterSwitch> adapters)
{
    gate_proj = register_module("gate_proj", LoraLinear(c.hiddenSize, c.intermediateSize, false, adapters));
    up_proj = register_module("up_proj", LoraLinear(c.hiddenSize, c.intermediateSize, false, adapters));
    down_proj = register_module("down_proj", LoraLinear(c.intermediateSize, c.hiddenSize, false, adapters));
}

torch::Tensor MlpImpl::forward(const torch::Tensor &x)
{
    return down_proj(swiGlu(gate_proj(x), up_proj(x)));
}

DecoderLayerImpl::DecoderLayerImpl(const ModelConfig &c, std::shared_ptr<AdapterSwitch> adapters)
{
    self_attn = register_module("self_attn", Attention(c, adapters));
    mlp = register_module("mlp", Mlp(c, adapters));
    input_layernorm = register_module("input_layernorm", RmsNorm(c.hiddenSize, c.rmsNormEps));
    post_attention_layernorm = register_module("post_attention_layernorm", RmsNorm(c.hiddenSize, c.rmsNormEps));
}

torch::Tensor DecoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin,
                                        const torch::Tensor &bias, KvStore *cache, size_t layer)
{
    const torch::Tensor h = x + self_attn(input_layernorm(x), cos, sin, bias, cache, layer);
    return h + mlp(post_attention_layernorm(h));
}

EmbeddingImpl::EmbeddingImpl(int64_t count, int64_t dim)
{
    weight = register_parameter("weight", torch::empty({count, dim}));
}

torch::Tensor EmbeddingImpl::forward(const torch::Tensor &ids)
{
    return F::embedding(ids, weight);
}

DecoderImpl::DecoderImpl(const ModelConfig &c, std::shared_ptr<AdapterSwitch> adapters)
{
    embed_tokens = register_module("embed_tokens", Embedding(c.vocabSize, c.hiddenSize));
    layers = register_module("layers", torch::nn::ModuleList());
    for (int64_t i = 0; i < c.numLayers; ++i)
        layers->push_back(DecoderLayer(c, adapters));
    norm = register_module("norm", RmsNorm(c.hiddenSize, c.rmsNormEps));
}

// ---- the model

TransformerImpl::TransformerImpl(const ModelConfig &c, bool randomInit)
    : m_config(c), m_rope(c), m_adapters(std::make_shared<AdapterSwitch>())
{
    model = register_module("model", Decoder(c, m_adapters));
    // The head never takes an adapter: LoRA targets the decoder's projections.
    if (!c.tieWordEmbeddings)
        lm_head = register_module("lm_head", LoraLinear(c.hiddenSize, c.vocabSize, false, nullptr));
    if (randomInit) {
        torch::NoGradGuard noGrad;
        for (auto &p : named_parameters()) {
            const std::string &name = p.key();
            if (name.size() >= 11 && name.compare(name.size() - 11, 11, "norm.weight") == 0)
                p.value().fill_(1.0);
            else if (name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0)
                p.value().zero_();
            else
                p.value().normal_(0.0, kInitStd);
        }
    }
}

const torch::Tensor &TransformerImpl::headWeight()
{
    return lm_head ? lm_head->weight : model->embed_tokens->weight;
}

torch::Tensor TransformerImpl::hidden(const torch::Tensor &ids, const torch::Tensor &positions,
                                      const torch::Tensor &keyMask, KvStore *cache)
{
    TORCH_CHECK(ids.dim() == 2, "ids must be [B, T], got ", ids.sizes());
    const int64_t t = ids.size(1);
    torch::Tensor x = model->embed_tokens(ids); // [B, T, H]
    const auto [cos, sin] = m_rope.cosSin(positions, x.scalar_type());
    const torch::Tensor bias = attentionBias(keyMask, t);
    for (size_t i = 0; i < model->layers->size(); ++i)
        x = model->layers[i]->as<DecoderLayerImpl>()->forward(x, cos, sin, bias, cache, i);
    if (cache)
        cache->advance(t);
    return model->norm(x);
}

torch::Tensor TransformerImpl::logits(const torch::Tensor &hidden)
{
    // Decoding's few rows: the head is the largest matrix read at every step. fewRowsLinear
    // takes F::linear itself for more rows or with gradients.
    if (hidden.dim() == 2)
        return fewRowsLinear(hidden, headWeight());
    return F::linear(hidden, headWeight());
}

std::vector<std::pair<std::string, LoraLinear>> TransformerImpl::linearLayers()
{
    std::vector<std::pair<std::string, LoraLinear>> out;
    for (const auto &item : named_modules(/*name_prefix=*/"", /*include_self=*/false)) {
        if (item.key() == "lm_head")
            continue;
        if (auto lin = std::dynamic_pointer_cast<LoraLinearImpl>(item.value()))
            out.emplace_back(item.key(), LoraLinear(lin));
    }
    return out;
}

torch::Tensor attentionBias(const torch::Tensor &keyMask, int64_t newTokens)
{
    const int64_t s = keyMask.size(1);
    const auto dev = keyMask.device();
    const torch::Tensor qpos = torch::arange(s - newTokens, s, torch::TensorOptions().dtype(torch::kLong).device(dev));
    const torch::Tensor kpos = torch::arange(0, s, torch::TensorOptions().dtype(torch::kLong).device(dev));
    const torch::Tensor causal = kpos.unsqueeze(0) <= qpos.unsqueeze(1);                   // [T, S]
    torch::Tensor allowed = causal.unsqueeze(0) & keyMask.to(torch::kBool).unsqueeze(1); // [B, T, S]
    // A query that sees no key at all (left padding: only padding before it) sees itself.
    // Its output is never read, but a row with every key masked made cuDNN's attention
    // backward return NaN in bf16 (an H200, 2026-11-30). Every other row is unchanged.
    const torch::Tensor self = (kpos.unsqueeze(0) == qpos.unsqueeze(1)).unsqueeze(0);     // [1, T, S]
    const torch::Tensor empty = allowed.any(/*dim=*/2, /*keepdim=*/true).logical_not();   // [B, T, 1]
    allowed = allowed | (self & empty);
    return torch::zeros(allowed.sizes(), torch::TensorOptions().dtype(torch::kFloat32).device(dev))
        .masked_fill(allowed.logical_not(), kMasked)
        .unsqueeze(1); // [B, 1, T, S]
}

torch::Tensor positionsFromMask(const torch::Tensor &mask)
{
    return (mask.to(torch::kLong).cumsum(/*dim=*/1) - 1).clamp_min(0);
}

torch::Dtype parseDtype(const std::string &name)
{
    if (name == "bfloat16" || name == "bf16")
        return torch::kBFloat16;
    if (name == "float64" || name == "double") // gradient checks
        return torch::kFloat64;
    // float16 compute is not implemented on CPU in libtorch 1.13: F16 weights become f32.
    return torch::kFloat32;
}

} // namespace rwb::model
