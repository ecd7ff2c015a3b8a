#include "model/encoder.h"

#include <cmath>

namespace rwb::model {

namespace F = torch::nn::functional;

namespace {
// The additive bias of a masked key: finite, so that a padding query row (every key of
// its text is real, so never all masked) can never turn into NaN either.
constexpr float kMasked = -1e30f;
// Standard deviation of the random initialisation (transformers' initializer_range).
constexpr double kInitStd = 0.02;

torch::nn::LayerNorm layerNorm(const EncoderConfig &c)
{
    return torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.hiddenSize}).eps(c.layerNormEps));
}
} // namespace

// ---- embeddings

EncoderEmbeddingsImpl::EncoderEmbeddingsImpl(const EncoderConfig &c)
{
    word_embeddings = register_module("word_embeddings", Embedding(c.vocabSize, c.hiddenSize));
    position_embeddings = register_module("position_embeddings", Embedding(c.maxPositions, c.hiddenSize));
    token_type_embeddings = register_module("token_type_embeddings", Embedding(c.typeVocabSize, c.hiddenSize));
    LayerNorm = register_module("LayerNorm", layerNorm(c));
}

torch::Tensor EncoderEmbeddingsImpl::forward(const torch::Tensor &ids, const torch::Tensor &positions)
{
    // Token type 0 for every token: row 0 of the table, broadcast over [B, T, H].
    const torch::Tensor type0 = token_type_embeddings->weight[0];                          // [H]
    return LayerNorm(word_embeddings(ids) + position_embeddings(positions) + type0); // [B, T, H]
}

// ---- attention

EncoderSelfAttentionImpl::EncoderSelfAttentionImpl(const EncoderConfig &c)
    : m_heads(c.numHeads), m_headDim(c.headDim())
{
    query = register_module("query", LoraLinear(c.hiddenSize, c.hiddenSize, /*bias=*/true, nullptr));
    key = register_module("key", LoraLinear(c.hiddenSize, c.hiddenSize, /*bias=*/true, nullptr));
    value = register_module("value", LoraLinear(c.hiddenSize, c.hiddenSize, /*bias=*/true, nullptr));
}

torch::Tensor EncoderSelfAttentionImpl::forward(const torch::Tensor &x, const torch::Tensor &bias)
{
    const int64_t b = x.size(0);
    const int64_t t = x.size(1);
    const torch::Tensor q = query(x).view({b, t, m_heads, m_headDim}).transpose(1, 2); // [B, N, T, D]
    const torch::Tensor k = key(x).view({b, t, m_heads, m_headDim}).transpose(1, 2);
    const torch::Tensor v = value(x).view({b, t, m_heads, m_headDim}).transpose(1, 2);
    torch::Tensor scores = torch::matmul(q, k.transpose(-1, -2));                // [B, N, T, T]
    scores = scores * (1.0 / std::sqrt(static_cast<double>(m_headDim))) + bias;  // bias [B, 1, 1, T]
    const torch::Tensor probs = torch::softmax(scores, /*dim=*/-1);
    return torch::matmul(probs, v)                  // [B, N, T, D]
        .transpose(1, 2)
        .reshape({b, t, m_heads * m_headDim});      // [B, T, H]
}

EncoderOutputImpl::EncoderOutputImpl(int64_t in, const EncoderConfig &c)
{
    dense = register_module("dense", LoraLinear(in, c.hiddenSize, /*bias=*/true, nullptr));
    LayerNorm = register_module("LayerNorm", layerNorm(c));
}

torch::Tensor EncoderOutputImpl::forward(const torch::Tensor &x, const torch::Tensor &residual)
{
    return LayerNorm(dense(x) + residual);
}

EncoderAttentionImpl::EncoderAttentionImpl(const EncoderConfig &c)
{
    self = register_module("self", EncoderSelfAttention(c));
    output = register_module("output", EncoderOutput(c.hiddenSize, c));
}

torch::Tensor EncoderAttentionImpl::forward(const torch::Tensor &x, const torch::Tensor &bias)
{
    return output(self(x, bias), x);
}

// ---- feed-forward and layer

EncoderIntermediateImpl::EncoderIntermediateImpl(const EncoderConfig &c) : m_activation(c.activation)
{
    dense = register_module("dense", LoraLinear(c.hiddenSize, c.intermediateSize, /*bias=*/true, nullptr));
}

torch::Tensor EncoderIntermediateImpl::forward(const torch::Tensor &x)
{
    const torch::Tensor h = dense(x); // [B, T, I]
    switch (m_activation) {
    case EncoderActivation::GeluErf: return torch::gelu(h);
    case EncoderActivation::GeluTanh: return torch::gelu(h, "tanh");
    case EncoderActivation::Relu: return torch::relu(h);
    }
    return torch::gelu(h);
}

EncoderLayerImpl::EncoderLayerImpl(const EncoderConfig &c)
{
    attention = register_module("attention", EncoderAttention(c));
    intermediate = register_module("intermediate", EncoderIntermediate(c));
    output = register_module("output", EncoderOutput(c.intermediateSize, c));
}

torch::Tensor EncoderLayerImpl::forward(const torch::Tensor &x, const torch::Tensor &bias)
{
    const torch::Tensor a = attention(x, bias); // [B, T, H]
    return output(intermediate(a), a);
}

EncoderStackImpl::EncoderStackImpl(const EncoderConfig &c)
{
    layer = register_module("layer", torch::nn::ModuleList());
    for (int64_t i = 0; i < c.numLayers; ++i)
        layer->push_back(EncoderLayer(c));
}

// ---- the encoder

EncoderImpl::EncoderImpl(const EncoderConfig &c, bool randomInit) : m_config(c)
{
    embeddings = register_module("embeddings", EncoderEmbeddings(c));
    encoder = register_module("encoder", EncoderStack(c));
    if (randomInit) {
        torch::NoGradGuard noGrad;
        for (auto &p : named_parameters()) {
            const std::string &name = p.key();
            const bool isNorm = name.find("LayerNorm") != std::string::npos;
            if (isNorm && name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0)
                p.value().fill_(1.0);
            else if (isNorm || (name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0))
                p.value().zero_();
            else
                p.value().normal_(0.0, kInitStd);
        }
    }
}

torch::Tensor EncoderImpl::forward(const torch::Tensor &ids, const torch::Tensor &mask)
{
    TORCH_CHECK(ids.dim() == 2 && mask.sizes() == ids.sizes(), "encoder: ids and mask must be [B, T], got ",
                ids.sizes(), " and ", mask.sizes());
    TORCH_CHECK(ids.size(1) <= m_config.maxTokens(), "encoder: ", ids.size(1), " tokens exceed the model's ",
                m_config.maxTokens());
    const torch::Tensor positions = encoderPositions(m_config, mask);  // [B, T]
    torch::Tensor x = embeddings(ids, positions);                      // [B, T, H]
    // Additive key mask [B, 1, 1, T]: 0 for real keys, kMasked for padding.
    const torch::Tensor bias = (1.0 - mask.to(torch::kFloat32)).mul(kMasked).unsqueeze(1).unsqueeze(1);
    for (size_t i = 0; i < encoder->layer->size(); ++i)
        x = encoder->layer[i]->as<EncoderLayerImpl>()->forward(x, bias);
    return x;
}

torch::Tensor encoderPositions(const EncoderConfig &c, const torch::Tensor &mask)
{
    if (c.family == EncoderFamily::Bert)
        return torch::arange(mask.size(1), torch::TensorOptions().dtype(torch::kLong).device(mask.device()))
            .unsqueeze(0)
            .expand({mask.size(0), mask.size(1)});
    const torch::Tensor m = mask.to(torch::kLong);
    return m.cumsum(/*dim=*/1) * m + c.padTokenId;
}

} // namespace rwb::model
