#pragma once

// A Hugging Face model folder run as a text encoder by our own engine: the torch-free
// face of core/model/encoder.h (BERT, RoBERTa, XLM-RoBERTa) and of the decoder of
// transformer.h used the Qwen3-Embedding way (causal, last token). Tokenizing, prompts
// and normalization are the caller's (core/embed/hfembedder.h).

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::model {

// How a text's token vectors become one vector (sentence-transformers' Pooling module).
enum class Pooling {
    Cls,       // the first token's ([CLS], <s>)
    Mean,      // the mean over the text's tokens, special tokens included (padding not)
    LastToken, // the last real token's (Qwen3-Embedding: the appended <|endoftext|>)
};

// "cls", "mean", "lasttoken" (as sentence-transformers' pooling_mode_* keys end).
std::string_view poolingName(Pooling pooling);
// The inverse of poolingName(); std::nullopt for any other string.
std::optional<Pooling> parsePooling(std::string_view name);

// What a loaded folder holds.
struct TextEncoderInfo {
    std::string modelType;         // "bert", "roberta", "xlm-roberta" or "qwen3"
    bool causal = false;           // qwen3: a decoder, fed left-padded
    int64_t hiddenSize = 0;        // the vector's dimension
    int64_t numLayers = 0;
    int64_t maxTokens = 0;         // the most tokens one text may have, special tokens included
    int64_t vocabSize = 0;         // rows of the embedding table: token ids must be below it
    int64_t parameters = 0;
};

class TextEncoderInternals; // libtorch side

// Loads and runs the network of a model folder: config.json, and model.safetensors (or a
// sharded model.safetensors.index.json). Runs in float32 on the CPU (F16 and BF16
// weights are converted when loading).
//
// Accepted config.json model_type:
// - "bert", "roberta", "xlm-roberta": encoders. Weights named as BertModel /
//   RobertaModel / XLMRobertaModel write them, with or without a "bert." / "roberta." /
//   "model." prefix (…ForMaskedLM checkpoints: their heads are ignored).
// - "qwen3": the decoder of transformer.h, weights with or without the "model." prefix
//   (Qwen3-Embedding stores Qwen3Model without it) and no lm_head needed.
//
// Errors are data::InputException naming the file and the field or tensor:
//   "DIR/config.json: model_type \"t5\" is not an encoder Reward Workbench runs (bert,
//    roberta, xlm-roberta, qwen3)", "DIR/model.safetensors: tensor
//    encoder.layer.0.attention.self.query.weight missing", a shape that does not match
//   the config, a folder with only pytorch_model.bin.
//
// Threads: encode() may be called from several threads at once; calls take turns (one
// forward pass at a time, each using libtorch's intra-op threads).
class TextEncoder {
public:
    // `threads` > 0 sets libtorch's CPU threads (process-wide, as ModelOptions::threads
    // does); 0 leaves them as they are.
    static std::unique_ptr<TextEncoder> load(const std::string &folder, int threads = 0);
    ~TextEncoder();
    TextEncoder(const TextEncoder &) = delete;
    TextEncoder &operator=(const TextEncoder &) = delete;

    const TextEncoderInfo &info() const { return m_info; }

    // One pooled vector (hiddenSize floats, NOT normalized) per sequence of token ids.
    // Each sequence is what the model sees: special tokens ([CLS] … [SEP], <s> … </s>,
    // a trailing <|endoftext|>) already added, between 1 and info().maxTokens ids, each
    // in [0, info().vocabSize). The sequences of one call form one padded batch (right
    // padding for encoders, left padding for decoders; the result does not depend on it
    // beyond float rounding). Throws std::invalid_argument for a sequence out of those
    // bounds; std::runtime_error when libtorch fails.
    std::vector<std::vector<float>> encode(const std::vector<std::vector<int32_t>> &sequences, Pooling pooling) const;

    // The last hidden states [T][hiddenSize] of one sequence (after the decoder's final
    // norm; an encoder's last layer), for tests and tools.
    std::vector<std::vector<float>> tokenStates(const std::vector<int32_t> &sequence) const;

private:
    TextEncoder();
    void check(const std::vector<int32_t> &sequence, size_t index) const;

    TextEncoderInfo m_info;
    std::unique_ptr<TextEncoderInternals> m_d;
    mutable std::mutex m_mutex; // one forward pass at a time
};

} // namespace rwb::model
