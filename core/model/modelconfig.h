#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rwb::model {

// The decoder families one code path serves (transformers' modeling_qwen3/qwen2/llama).
enum class Family { Qwen3, Qwen2, Llama };

// RoPE frequency scaling (config.json "rope_scaling" / "rope_parameters").
struct RopeScaling {
    enum class Type { Default, Linear, Llama3, Yarn };
    Type type = Type::Default;
    double factor = 1.0;
    double lowFreqFactor = 1.0;            // llama3
    double highFreqFactor = 4.0;           // llama3
    int64_t originalMaxPositions = 8192;   // llama3, yarn
    double betaFast = 32.0;                // yarn
    double betaSlow = 1.0;                 // yarn
    double attentionFactor = 0.0;          // yarn; 0 means 0.1·ln(factor) + 1
};

// A decoder's shape and options, read from a Hugging Face config.json.
struct ModelConfig {
    Family family = Family::Qwen3;
    int64_t vocabSize = 0;
    int64_t hiddenSize = 0;
    int64_t intermediateSize = 0;
    int64_t numLayers = 0;
    int64_t numHeads = 0;
    int64_t numKvHeads = 0;
    int64_t headDim = 0;                   // from config when present, else hidden / heads
    double rmsNormEps = 1e-6;
    double ropeTheta = 10000.0;
    RopeScaling ropeScaling;
    int64_t maxPositions = 32768;
    bool tieWordEmbeddings = false;
    bool qkNorm = false;                   // Qwen3: RMSNorm over head_dim on q and k
    bool qkvBias = false;                  // Qwen2: bias on q, k, v
    bool attentionBias = false;            // Llama "attention_bias": bias on q, k, v and o
    std::string torchDtype = "float32";    // as stored ("bfloat16", "float32", "float16")
    int64_t bosTokenId = -1;
    int64_t eosTokenId = -1;

    int64_t groups() const { return numHeads / numKvHeads; } // query heads per KV head
    // Parameters of the decoder (embeddings and head counted once when tied).
    int64_t parameterCount() const;
};

// Parses config.json. Throws data::InputException naming `source` and the field
// ("num_key_value_heads: must divide num_attention_heads (14 / 3)").
ModelConfig parseModelConfig(std::string_view json, const std::string &source);
ModelConfig loadModelConfig(const std::string &folder);
// The config.json text for a config (the architectures and model_type of its family).
std::string toJson(const ModelConfig &config);

std::string_view familyName(Family family); // "qwen3", "qwen2", "llama"

} // namespace rwb::model

namespace rwb::model {

// The demo's default policy: a Qwen3-architecture decoder of a few million parameters
// (hidden 256, 4 layers, 4 query / 2 KV heads of 64, FFN 768, tied embeddings) for a
// tokenizer of `vocabSize` tokens. Trains from scratch on a 2-core CPU in minutes.
ModelConfig tinyDefaultConfig(int64_t vocabSize);

// A model of Qwen3-0.6B's shape (for benchmarks with random weights).
ModelConfig qwen3_0_6bConfig();

} // namespace rwb::model
