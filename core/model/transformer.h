#pragma once

// The decoder as libtorch modules. Internal to core (includes libtorch): the public,
// torch-free face of a model is causallm.h. Parameter names match the Hugging Face
// checkpoints ("model.layers.0.self_attn.q_proj.weight", "lm_head.weight").
//
// Shape legend: B = rows (prompts × samples), T = new tokens, S = cached + new tokens,
// H = hidden size, N = query heads, K = KV heads, G = N / K, D = head dim, V = vocab.

#include "model/modelconfig.h"

#include <memory>
#include <torch/torch.h>
#include <vector>

namespace rwb::model {

// Whether LoRA adapters take part in the forward pass. Shared by every LoRA layer of
// a model: switched off, the model is the reference policy (no second copy in memory).
struct AdapterSwitch {
    bool enabled = true;
};

// A linear layer (weight [out, in], optional bias [out]) with an optional LoRA adapter:
// y = x Wᵀ + b + scale · dropout(x) Aᵀ Bᵀ, A [r, in] Kaiming-uniform (a = √5), B [out, r] zeros.
class LoraLinearImpl : public torch::nn::Module {
public:
    LoraLinearImpl(int64_t in, int64_t out, bool bias, std::shared_ptr<AdapterSwitch> adapters);
    torch::Tensor forward(const torch::Tensor &x);
    void addLora(int64_t rank, double scale, double dropout);
    bool hasLora() const { return m_loraA.defined(); }
    // W += scale · B A, then drop the adapter.
    void mergeLora();

    torch::Tensor weight;
    torch::Tensor bias;
    torch::Tensor m_loraA; // [r, in]
    torch::Tensor m_loraB; // [out, r]
    double m_scale = 0.0;
    double m_dropout = 0.0;

private:
    std::shared_ptr<AdapterSwitch> m_adapters;
};
TORCH_MODULE(LoraLinear);

// RMSNorm computed in fp32, cast back to the input dtype, then multiplied by the weight.
class RmsNormImpl : public torch::nn::Module {
public:
    RmsNormImpl(int64_t dim, double eps);
    torch::Tensor forward(const torch::Tensor &x);
    torch::Tensor weight;

private:
    double m_eps;
};
TORCH_MODULE(RmsNorm);

// cos/sin tables of rotary embeddings for any positions, with default, linear, llama3
// and yarn frequency scaling (transformers' modeling_rope_utils).
class Rope {
public:
    explicit Rope(const ModelConfig &config);
    // positions [B, T] (int64) → cos, sin [B, 1, T, D] in fp32 (yarn's attention factor applied).
    // cos and sin [B, 1, T, D] in fp32, or in f64 for a f64 model (gradient checks).
    std::pair<torch::Tensor, torch::Tensor> cosSin(const torch::Tensor &positions, torch::Dtype dtype = torch::kFloat32) const;
    const torch::Tensor &invFreq() const { return m_invFreq; } // [D/2] fp32
    double attentionScaling() const { return m_attentionScaling; }

private:
    torch::Tensor m_invFreq;
    torch::Tensor m_invFreq64;
    double m_attentionScaling = 1.0;
};

// x [B, *, T, D] rotated: x·cos + rotate_half(x)·sin, rotate_half(x) = cat(−x₂, x₁).
torch::Tensor applyRope(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin);

// Where attention layers keep the keys and values of earlier tokens: the layers append
// the new tokens' keys and values and attend to what the store returns.
class KvStore {
public:
    // Keys and values that groups of `groupSize` consecutive rows share ahead of their own
    // (one prompt's, for its G samples): [B, K, P, D] for B·groupSize rows.
    struct SharedPrefix {
        torch::Tensor keys;
        torch::Tensor values;
        int64_t groupSize = 1;
    };
    virtual ~KvStore() = default;
    // Stores k, v [B, K, T, D] of a layer; returns the keys and values [B, K, S, D] to attend
    // to: all of them, or those after the shared prefix when sharedPrefix() gives one.
    virtual std::pair<torch::Tensor, torch::Tensor> append(size_t layer, const torch::Tensor &k, const torch::Tensor &v) = 0;
    // After every layer has appended T tokens.
    virtual void advance(int64_t tokens) = 0;
    // The layer's shared prefix, or null when every row's keys are in what append returns.
    virtual const SharedPrefix *sharedPrefix(size_t /*layer*/) const { return nullptr; }
};

// Keys and values of every layer for B rows, preallocated to a capacity; every row has
// the same length (left-padded prompts).
class KvCache : public KvStore {
public:
    KvCache(const ModelConfig &config, int64_t rows, int64_t capacity, torch::Dtype dtype, torch::Device device);
    int64_t length() const { return m_prefixLength + m_length; }
    int64_t capacity() const { return m_prefixLength + m_capacity; }
    int64_t rows() const { return m_rows; }
    // Appends k, v [B, K, T, D] for a layer at the current length; returns the views [B, K, S, D]
    // to attend to (after shareRows: the rows' own, past the shared prefix).
    std::pair<torch::Tensor, torch::Tensor> append(size_t layer, const torch::Tensor &k, const torch::Tensor &v) override;
    void advance(int64_t tokens) override { m_length += tokens; }
    const SharedPrefix *sharedPrefix(size_t layer) const override
    {
        return m_prefix.empty() ? nullptr : &m_prefix[layer];
    }
    // Each row repeated `times` times in place of the cache (prefill once, sample G): rows → rows·times.
    void repeatRows(int64_t times);
    // The same, without the copies: what is stored becomes a prefix that each row shares
    // with its `times` continuations, and later tokens go to rows·times rows of their own.
    // A decode step then reads each prompt's keys once per group instead of once per row.
    void shareRows(int64_t times);
    // A layer's keys / values stored so far: [B, K, length, D] views (not after shareRows).
    torch::Tensor keys(size_t layer) const;
    torch::Tensor values(size_t layer) const;

private:
    std::vector<torch::Tensor> m_k; // [B, K, capacity, D]
    std::vector<torch::Tensor> m_v;
    std::vector<SharedPrefix> m_prefix; // per layer, after shareRows
    int64_t m_rows;
    int64_t m_capacity;
    int64_t m_length = 0;
    int64_t m_prefixLength = 0;
};

// Keys and values of rows that each have their own length, for continuous batching: a
// row's tokens sit at columns [0, length) of its row, and a decode step writes each row's
// one new token at its own column. Rows join (addRows, from a prefill) and leave
// (removeRow) between steps. Storage is kept for more rows and columns than are in use,
// so that neither costs a copy of the whole cache: rows are added into free row slots,
// a removed row's slot gets the last row, and the columns grow in steps of 128.
class RaggedKvCache : public KvStore {
public:
    RaggedKvCache(const ModelConfig &config, torch::Dtype dtype, torch::Device device);
    int64_t rows() const { return static_cast<int64_t>(m_lengths.size()); }
    const std::vector<int64_t> &lengths() const { return m_lengths; }
    int64_t capacity() const { return m_capacity; }
    // Appends `copies` rows holding the first `length` tokens of a prefill's cache (row 0 of it).
    void addRows(const KvCache &prefill, int64_t copies);
    // Drops row r; the last row takes its place (its index becomes r). With no row left,
    // the storage is freed.
    void removeRow(int64_t r);
    // Row r's tokens as a one-row cache with room for `extra` more, so that a forward of
    // several tokens can run on that row alone (BatchDecoder::extend), and back: the row
    // becomes what `source` holds (row 0, its length).
    KvCache rowCache(int64_t r, int64_t extra) const;
    void replaceRow(int64_t r, const KvCache &source);
    // Starts a decode step: makes room for one more token in every row (the columns grow
    // when the longest row needs it) and returns the step's key mask [B, S] (1 where a
    // row has a token, its new one at column `length` included; S = the longest row + 1).
    torch::Tensor beginStep();
    // The new tokens' positions [B, 1]: each row's length.
    torch::Tensor stepPositions() const;
    // T must be 1: each row's new key and value go to its own column.
    std::pair<torch::Tensor, torch::Tensor> append(size_t layer, const torch::Tensor &k, const torch::Tensor &v) override;
    void advance(int64_t tokens) override;

private:
    // Storage for at least `rows` rows of `columns` tokens (what is stored is kept).
    void reserve(int64_t rows, int64_t columns);

    int64_t m_layers, m_kvHeads, m_headDim;
    torch::TensorOptions m_options;
    std::vector<torch::Tensor> m_k; // [row capacity, K, capacity, D]; rows [0, B) in use
    std::vector<torch::Tensor> m_v;
    std::vector<int64_t> m_lengths; // per row in use
    torch::Tensor m_lengthsT;       // [B] int64 on the device, set by beginStep()
    int64_t m_rowCapacity = 0;
    int64_t m_capacity = 0;         // columns
    int64_t m_span = 0;             // columns attended to in this step: the longest row + 1
};

class AttentionImpl : public torch::nn::Module {
public:
    AttentionImpl(const ModelConfig &config, std::shared_ptr<AdapterSwitch> adapters);
    // x [B, T, H]; bias [B, 1, T, S] additive mask (0 or −inf), fp32.
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin,
                          const torch::Tensor &bias, KvStore *cache, size_t layer);

    LoraLinear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, o_proj{nullptr};
    RmsNorm q_norm{nullptr}, k_norm{nullptr};

private:
    int64_t m_heads, m_kvHeads, m_headDim;
};
TORCH_MODULE(Attention);

class MlpImpl : public torch::nn::Module {
public:
    MlpImpl(const ModelConfig &config, std::shared_ptr<AdapterSwitch> adapters);
    torch::Tensor forward(const torch::Tensor &x); // down(silu(gate(x)) · up(x))
    LoraLinear gate_proj{nullptr}, up_proj{nullptr}, down_proj{nullptr};
};
TORCH_MODULE(Mlp);

class DecoderLayerImpl : public torch::nn::Module {
public:
    DecoderLayerImpl(const ModelConfig &config, std::shared_ptr<AdapterSwitch> adapters);
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin,
                          const torch::Tensor &bias, KvStore *cache, size_t layer);
    Attention self_attn{nullptr};
    Mlp mlp{nullptr};
    RmsNorm input_layernorm{nullptr}, post_attention_layernorm{nullptr};
};
TORCH_MODULE(DecoderLayer);

// A lookup table [V, H] ("weight"), allocated but not initialised.
class EmbeddingImpl : public torch::nn::Module {
public:
    EmbeddingImpl(int64_t count, int64_t dim);
    torch::Tensor forward(const torch::Tensor &ids);
    torch::Tensor weight;
};
TORCH_MODULE(Embedding);

class DecoderImpl : public torch::nn::Module {
public:
    DecoderImpl(const ModelConfig &config, std::shared_ptr<AdapterSwitch> adapters);
    Embedding embed_tokens{nullptr};
    torch::nn::ModuleList layers{nullptr};
    RmsNorm norm{nullptr};
};
TORCH_MODULE(Decoder);

// The causal language model: "model" (the decoder) and "lm_head" (absent when tied).
class TransformerImpl : public torch::nn::Module {
public:
    // Weights are allocated; with randomInit they are drawn (normal, std 0.02; norms 1,
    // biases 0), else left for a loader to fill.
    explicit TransformerImpl(const ModelConfig &config, bool randomInit = true);

    // ids [B, T] int64; positions [B, T] int64; keyMask [B, S] (1 real, 0 padding) for
    // every key position including the T new ones; cache may be null (then S = T).
    // Returns the final hidden states [B, T, H].
    torch::Tensor hidden(const torch::Tensor &ids, const torch::Tensor &positions, const torch::Tensor &keyMask,
                         KvStore *cache);
    // hidden [.., H] → logits [.., V] in the weights' dtype.
    torch::Tensor logits(const torch::Tensor &hidden);
    const torch::Tensor &headWeight(); // [V, H]: lm_head or the tied embeddings

    const ModelConfig &config() const { return m_config; }
    const Rope &rope() const { return m_rope; }
    AdapterSwitch &adapters() { return *m_adapters; }
    // Every LoRA-capable linear layer with its Hugging Face module path ("model.layers.0.self_attn.q_proj").
    std::vector<std::pair<std::string, LoraLinear>> linearLayers();

    Decoder model{nullptr};
    LoraLinear lm_head{nullptr};

private:
    ModelConfig m_config;
    Rope m_rope;
    std::shared_ptr<AdapterSwitch> m_adapters;
};
TORCH_MODULE(Transformer);

// The additive attention bias [B, 1, T, S] (fp32): query t (absolute index S − T + t)
// sees key s when s ≤ S − T + t and keyMask[b, s] = 1.
torch::Tensor attentionBias(const torch::Tensor &keyMask, int64_t newTokens);

// Positions from a padding mask [B, S]: cumsum(mask) − 1, clamped at 0.
torch::Tensor positionsFromMask(const torch::Tensor &mask);

torch::Dtype parseDtype(const std::string &name); // "float32" / "bfloat16" / "float64" / "float16"(→ float32 on CPU)
// The dtype that norms, attention products, adapters and log-probs compute in: f64 for
// a f64 model (gradient checks), fp32 for everything else.
torch::Dtype computeDtype(torch::Dtype dtype);

} // namespace rwb::model
