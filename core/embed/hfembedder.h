#pragma once

#include "embed/embedder.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rwb::embed {

// The settings of an HfEmbedder (outside the class so it can be a default argument).
struct HfEmbedderOptions {
    // Texts per forward pass. Texts are sorted by length first, so a batch holds texts
    // of similar length and little padding.
    int batchSize = 32;
    // Tokens per text, special tokens and prefix included; longer texts are cut at the
    // end (before the closing special token). 0: sentence_bert_config.json's
    // max_seq_length when the folder has one, else all the model's positions, and at
    // most 8192 either way. Never more than the model's positions.
    int maxLength = 0;
    // Texts per forward pass (above) is also bounded by length: a batch holds at most
    // 2^22 (query, key) token pairs (B · T²), so long texts go in small batches.
    // "cls", "mean" or "lasttoken" instead of what the folder's pooling config says
    // (empty: the folder's; see HfEmbedder).
    std::string pooling;
    // Put before each query / document instead of config_sentence_transformers.json's
    // prompts (std::nullopt: the folder's prompt, if any; "": none).
    std::optional<std::string> queryPrefix;
    std::optional<std::string> documentPrefix;
    // libtorch CPU threads (process-wide); 0 leaves libtorch's setting as it is.
    int threads = 0;
};

// "hf:DIR": a Hugging Face model folder run by our own engine (core/model/textencoder.h)
// in float32 on the CPU. Folders that work:
// - BERT-family encoders (config.json model_type "bert", "roberta", "xlm-roberta"):
//   sentence-transformers MiniLM, multilingual-e5, BGE-M3 (its dense vector), LaBSE
//   without its Dense head is NOT one (see modules.json below);
// - Qwen3-Embedding (model_type "qwen3", with a sentence-transformers pooling config).
// What is read from the folder:
//   config.json + model.safetensors   the network (TextEncoder::load)
//   tokenizer.json (or tokenizer.model) the tokenizer (tokenizer::loadTokenizer): byte-level
//                                     BPE, WordPiece, Unigram, sentencepiece; its
//                                     post_processor says which special tokens go around
//                                     a text ([CLS] … [SEP], <s> … </s>, … <|endoftext|>;
//                                     a qwen3 folder whose file adds none gets
//                                     <|endoftext|> appended, as Qwen3-Embedding expects)
//   modules.json                      sentence-transformers' pipeline: Transformer,
//                                     Pooling and Normalize modules are run; any other
//                                     (Dense, LayerNorm, …) is an error, since leaving
//                                     it out would give other vectors than the model's.
//                                     A Transformer module with a path (older folders:
//                                     0_Transformer/) is where config.json, the weights,
//                                     the tokenizer and sentence_bert_config.json are
//   1_Pooling/config.json             (or the Pooling module's path) pooling_mode_cls_token,
//                                     pooling_mode_mean_tokens or pooling_mode_lasttoken;
//                                     without one an encoder pools CLS (BERT's habit) and
//                                     a qwen3 folder is refused unless options.pooling says
//   config_sentence_transformers.json "prompts": "query" before queries; "document" (or
//                                     "passage", "corpus") before documents;
//                                     "default_prompt_name" for a role without its own
//   sentence_bert_config.json         max_seq_length (the default maxLength), do_lower_case
// Every vector is L2-normalized (whatever modules.json says: the Embedder contract).
// A text that is empty or white space only gets the zero vector without running the model.
//
// name() is "hf:" + the folder's name ("hf:bge-m3"); dimension() the hidden size.
//
// Errors: the constructor throws data::InputException naming the file and field at fault
// ("…/config.json: model_type \"t5\" is not an encoder Reward Workbench runs (bert,
// roberta, xlm-roberta, qwen3)", "…/modules.json: [2].type: …Dense is not supported …",
// "…/model.safetensors: tensor … missing") and std::invalid_argument for options out of
// range; embed() throws std::runtime_error starting "hf:NAME: ". Nothing partial is
// returned.
//
// Threads: every const member may be called from several threads at once; forward
// passes take turns (each uses libtorch's intra-op threads).
class HfEmbedder : public Embedder {
public:
    using Options = HfEmbedderOptions;

    explicit HfEmbedder(const std::string &folder, const Options &options = {});
    ~HfEmbedder() override;
    HfEmbedder(const HfEmbedder &) = delete;
    HfEmbedder &operator=(const HfEmbedder &) = delete;

    std::string name() const override;
    int dimension() const override;
    std::vector<std::vector<float>> embed(const std::vector<std::string> &texts, EmbedRole role) const override;

    // What was read from the folder (tests, tools, messages).
    const std::string &folder() const;
    std::string modelType() const;       // "bert", "roberta", "xlm-roberta", "qwen3"
    std::string pooling() const;         // "cls", "mean", "lasttoken"
    std::string poolingSource() const;   // the file it came from, "option", or "default (…)"
    const std::string &prefix(EmbedRole role) const;
    int maxLength() const;
    // The token ids the model sees for `text` as `role`: prefix + text, tokenized, cut to
    // maxLength(), special tokens around. Empty for a blank text.
    std::vector<int32_t> tokenIds(const std::string &text, EmbedRole role) const;
    int64_t tokenCount(const std::string &text, EmbedRole role) const override
    {
        return static_cast<int64_t>(tokenIds(text, role).size());
    }
    std::optional<ModelInfo> model() const override { return ModelInfo{modelType(), pooling(), maxLength()}; }

private:
    struct Impl;
    std::unique_ptr<Impl> m_d;
};

} // namespace rwb::embed
