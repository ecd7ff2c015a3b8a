#pragma once

// The shape of a bidirectional text encoder (BERT, RoBERTa, XLM-RoBERTa) read from a
// Hugging Face config.json. No libtorch here: the network is core/model/encoder.h.

#include <cstdint>
#include <string>
#include <string_view>

namespace rwb::model {

// The encoder families one code path serves (transformers' modeling_bert.py and
// modeling_roberta.py / modeling_xlm_roberta.py, which share BERT's layers).
enum class EncoderFamily {
    Bert,    // positions 0, 1, 2, … for every row
    Roberta, // "roberta" and "xlm-roberta": positions pad+1, pad+2, … for real tokens, pad for padding
};

// How the feed-forward block's activation is computed (config.json "hidden_act").
enum class EncoderActivation {
    GeluErf,  // "gelu": x·Φ(x) with the exact erf
    GeluTanh, // "gelu_new", "gelu_pytorch_tanh", "gelu_fast": the tanh approximation
    Relu,     // "relu"
};

struct EncoderConfig {
    EncoderFamily family = EncoderFamily::Bert;
    std::string modelType = "bert";        // as written: "bert", "roberta", "xlm-roberta"
    int64_t vocabSize = 0;
    int64_t hiddenSize = 0;
    int64_t intermediateSize = 0;
    int64_t numLayers = 0;
    int64_t numHeads = 0;
    int64_t maxPositions = 512;            // rows of the position table
    int64_t typeVocabSize = 2;             // rows of the token-type table (RoBERTa: 1)
    int64_t padTokenId = 0;                // BERT 0; RoBERTa / XLM-R 1 (also the position offset)
    double layerNormEps = 1e-12;
    EncoderActivation activation = EncoderActivation::GeluErf;

    int64_t headDim() const { return hiddenSize / numHeads; }
    // The most tokens one text may have (special tokens included): the position table's
    // rows, less the pad+1 rows RoBERTa never uses for real tokens (514 − 2 = 512).
    int64_t maxTokens() const;
    // Parameters of the network (the pooler head, which embeddings do not use, not counted).
    int64_t parameterCount() const;
};

// Parses config.json of model_type "bert", "roberta" or "xlm-roberta". Throws
// data::InputException naming `source` and the field ("num_attention_heads: must divide
// hidden_size (384 / 5)", "position_embedding_type: \"relative_key\" is not supported").
// A model_type of another kind is an error too (callers that also run decoders check it
// first: TextEncoder::load).
EncoderConfig parseEncoderConfig(std::string_view json, const std::string &source);

// The config.json text for a config (BertModel / RobertaModel / XLMRobertaModel).
std::string toJson(const EncoderConfig &config);

// A model_type parseEncoderConfig accepts.
bool isEncoderModelType(std::string_view modelType);

} // namespace rwb::model
