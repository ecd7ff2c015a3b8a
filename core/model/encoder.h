#pragma once

// The BERT-family encoder as libtorch modules. Internal to core (includes libtorch): the
// public, torch-free face is textencoder.h. Parameter names match the Hugging Face
// checkpoints of BertModel / RobertaModel / XLMRobertaModel without their "bert." /
// "roberta." prefix ("embeddings.word_embeddings.weight",
// "encoder.layer.0.attention.self.query.weight"); the loader adds the prefix a file uses.
//
// Shape legend: B = texts, T = tokens, H = hidden size, N = heads, D = head dim,
// I = intermediate size.

#include "model/encoderconfig.h"
#include "model/transformer.h"

#include <torch/torch.h>

namespace rwb::model {

// word + position + token-type embeddings, then LayerNorm.
class EncoderEmbeddingsImpl : public torch::nn::Module {
public:
    explicit EncoderEmbeddingsImpl(const EncoderConfig &config);
    // ids, positions [B, T] int64 → [B, T, H]. Every token has type 0 (one text per row).
    torch::Tensor forward(const torch::Tensor &ids, const torch::Tensor &positions);

    Embedding word_embeddings{nullptr}, position_embeddings{nullptr}, token_type_embeddings{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};
};
TORCH_MODULE(EncoderEmbeddings);

// query, key, value projections with biases (HF BertSelfAttention).
class EncoderSelfAttentionImpl : public torch::nn::Module {
public:
    explicit EncoderSelfAttentionImpl(const EncoderConfig &config);
    // x [B, T, H]; bias [B, 1, 1, T] additive (0 or very negative) → context [B, T, H].
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &bias);

    LoraLinear query{nullptr}, key{nullptr}, value{nullptr};

private:
    int64_t m_heads, m_headDim;
};
TORCH_MODULE(EncoderSelfAttention);

// dense, then LayerNorm of (dense + residual) (HF BertSelfOutput and BertOutput).
class EncoderOutputImpl : public torch::nn::Module {
public:
    EncoderOutputImpl(int64_t in, const EncoderConfig &config);
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &residual);

    LoraLinear dense{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};
};
TORCH_MODULE(EncoderOutput);

class EncoderAttentionImpl : public torch::nn::Module {
public:
    explicit EncoderAttentionImpl(const EncoderConfig &config);
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &bias);

    EncoderSelfAttention self{nullptr};
    EncoderOutput output{nullptr};
};
TORCH_MODULE(EncoderAttention);

// dense H → I, then the activation (HF BertIntermediate).
class EncoderIntermediateImpl : public torch::nn::Module {
public:
    explicit EncoderIntermediateImpl(const EncoderConfig &config);
    torch::Tensor forward(const torch::Tensor &x);

    LoraLinear dense{nullptr};

private:
    EncoderActivation m_activation;
};
TORCH_MODULE(EncoderIntermediate);

// A post-norm layer: a = LN(x + attention(x)); y = LN(a + dense(act(dense(a)))).
class EncoderLayerImpl : public torch::nn::Module {
public:
    explicit EncoderLayerImpl(const EncoderConfig &config);
    torch::Tensor forward(const torch::Tensor &x, const torch::Tensor &bias);

    EncoderAttention attention{nullptr};
    EncoderIntermediate intermediate{nullptr};
    EncoderOutput output{nullptr};
};
TORCH_MODULE(EncoderLayer);

class EncoderStackImpl : public torch::nn::Module {
public:
    explicit EncoderStackImpl(const EncoderConfig &config);
    torch::nn::ModuleList layer{nullptr};
};
TORCH_MODULE(EncoderStack);

// The whole encoder: "embeddings" and "encoder.layer.{i}". The pooler head of a
// checkpoint (pooler.dense) is not part of it: sentence embeddings pool the last hidden
// states (sentence-transformers' Pooling module), they do not use the pooler.
class EncoderImpl : public torch::nn::Module {
public:
    // Weights are allocated; with randomInit drawn (normal, std 0.02; LayerNorms 1 and 0;
    // biases 0), else left for a loader to fill.
    explicit EncoderImpl(const EncoderConfig &config, bool randomInit = false);

    // ids [B, T] int64 (right-padded), mask [B, T] (1 real, 0 padding) → the last hidden
    // states [B, T, H] (rows at padding positions are computed but mean nothing).
    torch::Tensor forward(const torch::Tensor &ids, const torch::Tensor &mask);

    const EncoderConfig &config() const { return m_config; }

    EncoderEmbeddings embeddings{nullptr};
    EncoderStack encoder{nullptr};

private:
    EncoderConfig m_config;
};
TORCH_MODULE(Encoder);

// Position ids of a right-padded batch. BERT: 0, 1, 2, … in every row. RoBERTa /
// XLM-R: cumsum(mask)·mask + pad — the first real token gets pad + 1, padding gets pad.
torch::Tensor encoderPositions(const EncoderConfig &config, const torch::Tensor &mask);

} // namespace rwb::model
