// Continuous batching's model side. Shape legend: B = rows in the batch, L = prompt
// tokens, S = the longest row + 1, V = vocabulary, H = hidden size.
#include "model/batchdecoder.h"

#include "model/causallminternals.h"
#include "model/rowdraw.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace rwb::model {

namespace {

// The most alternatives a token may report (OpenAI's top_logprobs limit).
constexpr int kMaxTopLogprobs = 20;

void checkSampling(const std::vector<RowSampling> &rows)
{
    for (const RowSampling &s : rows) {
        if (!(s.temperature >= 0.0) || !std::isfinite(s.temperature))
            throw std::invalid_argument("batch decoder: temperature must be a finite number ≥ 0");
        if (!(s.topP > 0.0 && s.topP <= 1.0))
            throw std::invalid_argument("batch decoder: top_p must be in (0, 1]");
        if (s.topK < 0)
            throw std::invalid_argument("batch decoder: top_k must be ≥ 0");
        if (!(s.minP >= 0.0 && s.minP <= 1.0))
            throw std::invalid_argument("batch decoder: min_p must be in [0, 1]");
        if (s.topLogprobs < 0 || s.topLogprobs > kMaxTopLogprobs)
            throw std::invalid_argument("batch decoder: top_logprobs must be 0 to 20");
    }
}

} // namespace

struct BatchDecoder::Impl {
    struct Row {
        int handle = -1;
        RowSampling sampling;
        std::mt19937_64 generator;
        int32_t last = 0; // the token sampled last, fed at the next step
    };

    CausalLmInternals &lm;
    int64_t vocabLimit = 0;
    RaggedKvCache cache;
    std::vector<Row> rows; // in the cache's row order
    int nextHandle = 0;
    int64_t prefilled = 0;
    int64_t steps = 0;
    int64_t decoded = 0;

    Impl(CausalLM &model, int64_t limit)
        : lm(model.internals()), cache(model.config(), lm.dtype, lm.device)
    {
        const int64_t vocab = model.config().vocabSize;
        vocabLimit = limit > 0 && limit < vocab ? limit : vocab;
    }

    int64_t contextLength() const { return std::max<int64_t>(0, lm.module->config().maxPositions); }

    // One token per row of `logits` [B, V] (fp32, CPU) for rows[first + b].
    std::vector<SampledToken> sample(torch::Tensor logits, size_t first)
    {
        const int64_t b = logits.size(0);
        const int64_t v = logits.size(1);
        if (vocabLimit < v)
            logits.narrow(1, vocabLimit, v - vocabLimit).fill_(-INFINITY);
        const torch::Tensor logProbs = torch::log_softmax(logits, /*dim=*/1).contiguous(); // [B, V]
        int maxTop = 0;
        for (int64_t r = 0; r < b; ++r)
            maxTop = std::max(maxTop, rows[first + static_cast<size_t>(r)].sampling.topLogprobs);
        maxTop = static_cast<int>(std::min<int64_t>(maxTop, vocabLimit));
        torch::Tensor topValues, topIds; // [B, k]
        if (maxTop > 0)
            std::tie(topValues, topIds) = logProbs.topk(maxTop, /*dim=*/1);
        std::vector<SampledToken> out;
        for (int64_t r = 0; r < b; ++r) {
            Row &row = rows[first + static_cast<size_t>(r)];
            const RowSampling &s = row.sampling;
            const torch::Tensor lp = logProbs[r]; // [V]
            int64_t id = 0;
            if (s.temperature <= 0.0) {
                id = lp.argmax().item<int64_t>();
            } else if (s.topK > 0 || s.minP > 0.0) {
                // The filters in CausalLM::generate's order: top-k, min-p, then top-p.
                torch::Tensor scaled = (logits[r] / s.temperature).clone(); // [V]
                if (s.topK > 0 && s.topK < vocabLimit) {
                    const torch::Tensor kth = std::get<0>(scaled.topk(s.topK)).narrow(0, s.topK - 1, 1);
                    scaled.masked_fill_(scaled < kth, -INFINITY);
                }
                if (s.minP > 0.0) {
                    const torch::Tensor probs = torch::softmax(scaled, 0);
                    scaled.masked_fill_(probs < probs.max() * s.minP, -INFINITY);
                }
                if (s.topP >= 1.0) { // no sort needed
                    const torch::Tensor probs = torch::softmax(scaled, 0).contiguous();
                    id = drawIndex(probs.data_ptr<float>(), v, uniform(row.generator));
                } else {
                    const auto [sorted, order] = scaled.sort(/*dim=*/0, /*descending=*/true); // [V]
                    torch::Tensor probs = torch::softmax(sorted, 0);
                    const torch::Tensor before = probs.cumsum(0) - probs;
                    probs = probs.masked_fill(before > s.topP, 0.0f).contiguous();
                    const int64_t k = drawIndex(probs.data_ptr<float>(), v, uniform(row.generator));
                    id = order[k].item<int64_t>();
                }
            } else if (s.topP >= 1.0) {
                const torch::Tensor probs = torch::softmax(logits[r] / s.temperature, 0).contiguous(); // [V]
                id = drawIndex(probs.data_ptr<float>(), v, uniform(row.generator));
            } else {
                // Keep the most likely tokens until the ones before a token hold more than top_p.
                const auto [sorted, order] = (logits[r] / s.temperature).sort(/*dim=*/0, /*descending=*/true); // [V]
                torch::Tensor probs = torch::softmax(sorted, 0);
                const torch::Tensor before = probs.cumsum(0) - probs;
                probs = probs.masked_fill(before > s.topP, 0.0f).contiguous();
                const int64_t k = drawIndex(probs.data_ptr<float>(), v, uniform(row.generator));
                id = order[k].item<int64_t>();
            }
            SampledToken t;
            t.row = row.handle;
            t.id = static_cast<int32_t>(id);
            t.logProb = s.logProbsAtTemperature && s.temperature > 0.0
                            ? torch::log_softmax(logits[r] / s.temperature, 0)[id].item<float>()
                            : lp[id].item<float>();
            if (s.topLogprobs > 0) {
                const int k = std::min(s.topLogprobs, maxTop);
                const torch::Tensor rowValues = topValues[r].contiguous(); // [k]
                const torch::Tensor rowIds = topIds[r].contiguous();
                const float *values = rowValues.data_ptr<float>();
                const int64_t *ids = rowIds.data_ptr<int64_t>();
                for (int i = 0; i < k; ++i)
                    t.top.push_back(TokenLogProb{static_cast<int32_t>(ids[i]), values[i]});
            }
            row.last = t.id;
            out.push_back(std::move(t));
        }
        return out;
    }

    torch::Tensor forwardRow(size_t at, const std::vector<int32_t> &tokens, int handle, int64_t context);

    // One new row per entry of `samplings`, each holding `prefix`'s tokens and sampling
    // its first token from `logits` [1, V]; returns those tokens.
    std::vector<SampledToken> addRows(const KvCache &prefix, const std::vector<RowSampling> &samplings,
                                      const torch::Tensor &logits)
    {
        const int64_t copies = static_cast<int64_t>(samplings.size());
        cache.addRows(prefix, copies);
        const size_t first = rows.size();
        for (const RowSampling &s : samplings) {
            Row row;
            row.handle = nextHandle++;
            row.sampling = s;
            row.generator.seed(s.seed);
            rows.push_back(std::move(row));
        }
        return sample(logits.expand({copies, -1}).clone(), first); // [copies, V]
    }

    size_t indexOf(int handle) const
    {
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].handle == handle)
                return i;
        return rows.size();
    }
};

BatchDecoder::BatchDecoder(CausalLM &model, int64_t vocabLimit) : m_d(std::make_unique<Impl>(model, vocabLimit)) {}

BatchDecoder::~BatchDecoder() = default;

std::vector<SampledToken> BatchDecoder::add(const std::vector<int32_t> &prompt, const std::vector<RowSampling> &rows)
{
    if (prompt.empty())
        throw std::invalid_argument("batch decoder: an empty prompt");
    if (rows.empty())
        throw std::invalid_argument("batch decoder: no row to add");
    const int64_t vocab = m_d->lm.module->config().vocabSize;
    for (int32_t id : prompt)
        if (id < 0 || id >= vocab)
            throw std::invalid_argument("batch decoder: token id " + std::to_string(id) + " is outside the vocabulary (" +
                                        std::to_string(vocab) + ")");
    const int64_t n = static_cast<int64_t>(prompt.size());
    const int64_t context = contextLength();
    if (context > 0 && n >= context)
        throw std::invalid_argument("batch decoder: a prompt of " + std::to_string(n) +
                                    " tokens leaves no room in the context of " + std::to_string(context));
    checkSampling(rows);

    torch::InferenceMode inference;
    CausalLmInternals &lm = m_d->lm;
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    const std::vector<int64_t> ids64(prompt.begin(), prompt.end());
    const torch::Tensor ids = torch::tensor(ids64, longOpts).view({1, n}).to(lm.device); // [1, L]
    const torch::Tensor mask = torch::ones({1, n}, longOpts.device(lm.device));         // [1, L]
    const torch::Tensor positions = torch::arange(n, longOpts.device(lm.device)).unsqueeze(0); // [1, L]
    KvCache prefill(lm.module->config(), 1, n, lm.dtype, lm.device);
    const torch::Tensor h = lm.module->hidden(ids, positions, mask, &prefill);             // [1, L, H]
    const torch::Tensor logits = lm.module->logits(h.select(1, n - 1)).to(torch::kFloat32).to(torch::kCPU); // [1, V]
    m_d->prefilled += n;
    return m_d->addRows(prefill, rows, logits);
}

std::vector<SampledToken> BatchDecoder::step()
{
    if (m_d->rows.empty())
        return {};
    const int64_t context = contextLength();
    const std::vector<int64_t> &lengths = m_d->cache.lengths();
    for (size_t i = 0; i < lengths.size(); ++i)
        if (context > 0 && lengths[i] + 1 >= context) // holds lengths[i] + 1 tokens with its last one
            throw std::logic_error("batch decoder: row " + std::to_string(m_d->rows[i].handle) +
                                   " has filled the context of " + std::to_string(context) + " tokens");
    torch::InferenceMode inference;
    CausalLmInternals &lm = m_d->lm;
    const int64_t b = static_cast<int64_t>(m_d->rows.size());
    std::vector<int64_t> last;
    for (const Impl::Row &row : m_d->rows)
        last.push_back(row.last);
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    const torch::Tensor keyMask = m_d->cache.beginStep();                           // [B, S]
    const torch::Tensor positions = m_d->cache.stepPositions();                    // [B, 1]
    const torch::Tensor ids = torch::tensor(last, longOpts).view({b, 1}).to(lm.device); // [B, 1]
    const torch::Tensor h = lm.module->hidden(ids, positions, keyMask, &m_d->cache); // [B, 1, H]
    const torch::Tensor logits = lm.module->logits(h.select(1, 0)).to(torch::kFloat32).to(torch::kCPU).contiguous(); // [B, V]
    ++m_d->steps;
    m_d->decoded += b;
    return m_d->sample(logits, 0);
}

// Feeds row `at` its last token and then `tokens` in one forward on that row alone and
// returns the logits [1, V] (fp32, CPU) after them; the row's cache holds them all.
torch::Tensor BatchDecoder::Impl::forwardRow(size_t at, const std::vector<int32_t> &tokens, int handle, int64_t context)
{
    const int64_t vocab = lm.module->config().vocabSize;
    for (int32_t id : tokens)
        if (id < 0 || id >= vocab)
            throw std::invalid_argument("batch decoder: token id " + std::to_string(id) + " is outside the vocabulary (" +
                                        std::to_string(vocab) + ")");
    const int64_t cached = cache.lengths()[at];
    const int64_t n = 1 + static_cast<int64_t>(tokens.size()); // the row's last token, then `tokens`
    if (context > 0 && cached + n >= context)
        throw std::invalid_argument("batch decoder: " + std::to_string(tokens.size()) + " more tokens leave row " +
                                    std::to_string(handle) + " no room in the context of " + std::to_string(context));
    const auto longOpts = torch::TensorOptions().dtype(torch::kLong);
    std::vector<int64_t> ids64{rows[at].last};
    ids64.insert(ids64.end(), tokens.begin(), tokens.end());
    const torch::Tensor ids = torch::tensor(ids64, longOpts).view({1, n}).to(lm.device);                      // [1, T]
    const torch::Tensor positions = torch::arange(cached, cached + n, longOpts.device(lm.device)).unsqueeze(0); // [1, T]
    const torch::Tensor mask = torch::ones({1, cached + n}, longOpts.device(lm.device));                       // [1, S]
    KvCache one = cache.rowCache(static_cast<int64_t>(at), n);
    const torch::Tensor h = lm.module->hidden(ids, positions, mask, &one);                                     // [1, T, H]
    const torch::Tensor logits = lm.module->logits(h.select(1, n - 1)).to(torch::kFloat32).to(torch::kCPU);   // [1, V]
    cache.replaceRow(static_cast<int64_t>(at), one);
    prefilled += n;
    return logits.contiguous();
}

SampledToken BatchDecoder::extend(int row, const std::vector<int32_t> &tokens)
{
    const size_t at = m_d->indexOf(row);
    if (at == m_d->rows.size())
        throw std::invalid_argument("batch decoder: no row " + std::to_string(row));
    torch::InferenceMode inference;
    const torch::Tensor logits = m_d->forwardRow(at, tokens, row, contextLength());
    return m_d->sample(logits, at).front();
}

std::vector<SampledToken> BatchDecoder::branch(int row, const std::vector<int32_t> &tokens,
                                               const std::vector<RowSampling> &children)
{
    const size_t at = m_d->indexOf(row);
    if (at == m_d->rows.size())
        throw std::invalid_argument("batch decoder: no row " + std::to_string(row));
    if (children.empty())
        throw std::invalid_argument("batch decoder: no child to branch into");
    checkSampling(children);
    torch::InferenceMode inference;
    const torch::Tensor logits = m_d->forwardRow(at, tokens, row, contextLength());
    std::vector<SampledToken> out = m_d->addRows(m_d->cache.rowCache(static_cast<int64_t>(at), 0), children, logits);
    remove({row});
    return out;
}

void BatchDecoder::remove(const std::vector<int> &handles)
{
    torch::InferenceMode inference;
    for (int handle : handles) {
        const size_t at = m_d->indexOf(handle);
        if (at == m_d->rows.size())
            continue;
        m_d->cache.removeRow(static_cast<int64_t>(at)); // the last row moves to `at`, in both
        m_d->rows[at] = std::move(m_d->rows.back());
        m_d->rows.pop_back();
    }
}

int BatchDecoder::rows() const
{
    return static_cast<int>(m_d->rows.size());
}

int64_t BatchDecoder::length(int row) const
{
    const size_t at = m_d->indexOf(row);
    return at == m_d->rows.size() ? -1 : m_d->cache.lengths()[at] + 1;
}

int64_t BatchDecoder::contextLength() const
{
    return m_d->contextLength();
}

int64_t BatchDecoder::prefilledTokens() const
{
    return m_d->prefilled;
}

int64_t BatchDecoder::steps() const
{
    return m_d->steps;
}

int64_t BatchDecoder::decodedTokens() const
{
    return m_d->decoded;
}

} // namespace rwb::model
