#pragma once

// The model's side of continuous batching: a decode batch whose rows come and go between
// steps. A row is one completion: it joins with its prompt prefilled (add), gets one new
// token per step() together with every other row, and leaves when its owner says so
// (remove). No libtorch in this header.

#include <cstdint>
#include <memory>
#include <vector>

namespace rwb::model {

class CausalLM;

// How one row picks its tokens.
struct RowSampling {
    double temperature = 0.0; // 0: greedy (the most likely token)
    double topP = 1.0;        // nucleus sampling: the smallest set of tokens holding top_p
    int topK = 0;             // > 0: only the k most likely tokens
    double minP = 0.0;        // > 0: only tokens with p ≥ min_p · p_max
    uint64_t seed = 0;        // the row's own random stream (unused when greedy)
    int topLogprobs = 0;      // alternatives reported with each token (0 to 20)
    // The sampled token's log-probability under softmax(logits / temperature) (what GRPO's
    // trainer scores, CausalLM::generate's convention) instead of temperature 1 (see
    // SampledToken). Greedy rows report temperature 1 either way.
    bool logProbsAtTemperature = false;
};

struct TokenLogProb {
    int32_t id = 0;
    float logProb = 0.0f;
};

// One token of one row. Log-probabilities are the model's own distribution,
// log softmax(logits) at temperature 1 over the allowed vocabulary, whatever the row's
// temperature and top_p (what vLLM reports by default; llama.cpp reports them before
// sampling, too), so that a judge's probability-weighted score does not depend on how
// it was sampled.
struct SampledToken {
    int row = -1;                  // the row's handle (from add())
    int32_t id = 0;
    float logProb = 0.0f;
    std::vector<TokenLogProb> top; // the row's topLogprobs most likely tokens, most likely first
};

// Not thread-safe: one thread (a scheduler's) uses a decoder and its model at a time; the
// model must outlive the decoder, and nothing else may run the model meanwhile. Errors
// are exceptions (std::invalid_argument for a bad prompt or sampling, c10::Error from
// libtorch); after one from step() the batch should be cleared (remove every row).
class BatchDecoder {
public:
    // `vocabLimit` > 0: ids ≥ it are never sampled nor reported (embedding rows beyond
    // the tokenizer's vocabulary).
    explicit BatchDecoder(CausalLM &model, int64_t vocabLimit = 0);
    ~BatchDecoder();
    BatchDecoder(const BatchDecoder &) = delete;
    BatchDecoder &operator=(const BatchDecoder &) = delete;

    // Prefills `prompt` once and adds one row per entry of `rows`, which continue it with
    // their own sampling (n choices of one request share the prefill). Returns each new
    // row's first token, sampled from the prefill. Throws std::invalid_argument for an
    // empty prompt, ids outside the model's vocabulary, a prompt that leaves no room in
    // the context (contextLength()), no rows, or sampling out of range.
    std::vector<SampledToken> add(const std::vector<int32_t> &prompt, const std::vector<RowSampling> &rows);

    // Feeds every row its last token in one forward pass and samples each row's next
    // token. Returns one token per row (in the batch's order, which remove() changes:
    // the handles say which row each is). A row that has
    // reached contextLength() tokens must be removed first (throws std::logic_error).
    std::vector<SampledToken> step();

    // Feeds row `row` its last token and then `tokens` (text the row's owner inserts: the
    // retrieved passages of a multi-step rollout) in one forward on that row alone, its
    // KV cache kept, and samples the row's next token from after them. The row then goes
    // on with step() as before; what it decodes is what one uninterrupted forward of the
    // same tokens gives (tst_serve). Throws std::invalid_argument for an unknown row, ids
    // outside the vocabulary, or tokens that do not fit in the context.
    SampledToken extend(int row, const std::vector<int32_t> &tokens);
    // extend() for a search's expansion: after the same forward, the row is replaced by
    // one new row per entry of `children`, each with the row's KV cache and its own
    // sampling, each sampling its first token from the same logits (the children of a
    // tree node share their parent's prefix instead of prefilling it each). The row's
    // handle leaves the batch. `tokens` may be empty (branch where the row stands).
    std::vector<SampledToken> branch(int row, const std::vector<int32_t> &tokens,
                                     const std::vector<RowSampling> &children);
    // The rows leave the batch (the last row's keys and values move into each freed
    // slot: one row is copied, not the cache). Unknown handles are ignored.
    void remove(const std::vector<int> &rows);

    int rows() const;
    // Tokens a row holds: its prompt and every token sampled for it so far, the last one
    // included (it is fed at the next step). -1 for an unknown handle.
    int64_t length(int row) const;
    // The most tokens a row may hold: the model's max_position_embeddings (0: no limit).
    int64_t contextLength() const;
    // Prompt tokens prefilled and tokens decoded by step() (one per row per step), since construction.
    int64_t prefilledTokens() const;
    int64_t steps() const;
    int64_t decodedTokens() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_d;
};

} // namespace rwb::model
