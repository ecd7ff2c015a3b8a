#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::embed {

// What a text is embedded as. Asymmetric models (E5, BGE with an instruction) encode a
// question differently from a passage; symmetric backends (lexical) ignore it.
enum class EmbedRole { Query, Document };

// A text embedding backend: "lexical" (model-free, LexicalEmbedder), "http:"
// (HttpEmbedder, an OpenAI-compatible server) and "hf:" (HfEmbedder, a Hugging Face
// model folder run by our engine). A dense retriever asks it for passage vectors once,
// at build time, and for one query vector per search.
//
// Contract for every backend:
// - embed() returns one vector per text, in order, each of dimension() floats, with L2
//   norm 1 (within float rounding) — or the zero vector for a text with no features
//   (an empty text, white space only). So the cosine of two vectors is their dot product.
// - name() identifies the backend and its configuration ("lexical",
//   "hf:bge-m3"): vectors stored under one name are only ever compared with query
//   vectors from an embedder of the same name.
// - Thread-safe: embed() may be called from several threads at once on one instance.
// - Failures (a model that cannot run, a server that does not answer) throw
//   std::runtime_error with the reason; an embedder never returns a partial batch.
class Embedder {
public:
    virtual ~Embedder();

    virtual std::string name() const = 0;
    virtual int dimension() const = 0;
    // texts.size() vectors, each of dimension() floats (row-major: one row per text).
    virtual std::vector<std::vector<float>> embed(const std::vector<std::string> &texts, EmbedRole role) const = 0;

    // What a backend can do beyond embed(), asked instead of its type (as TEI's backend
    // trait does):

    // The similarity of two documents: by default the cosine of their embeddings (one
    // embed() call); a backend with an exact, cheaper form overrides it (lexical: the
    // sparse vectors' cosine).
    virtual double similarity(std::string_view a, std::string_view b) const;
    // Whether similarity() of one pair costs less than embedding many texts in one call,
    // so that batch scorers should go pair by pair (lexical: true).
    virtual bool pairwise() const { return false; }
    // The number of tokens the backend's model reads of `text` (usage figures); -1 when
    // it runs no tokenizer here (lexical, an outside server).
    virtual int64_t tokenCount(const std::string &text, EmbedRole role) const
    {
        (void)text;
        (void)role;
        return -1;
    }
    // What must be stored beside vectors to make this embedder again (lexical: its fitted
    // document frequencies); empty when the name says it all.
    virtual std::string state() const { return {}; }
    // The model behind it, when one runs in this process (hf:): its type ("bert",
    // "qwen3"), pooling ("cls", "mean", "lasttoken") and longest input in tokens.
    struct ModelInfo {
        std::string type;
        std::string pooling;
        int maxLength = 0;
    };
    virtual std::optional<ModelInfo> model() const { return std::nullopt; }
};

// Cosine similarity of two vectors of the same length: a·b / (|a| |b|), accumulated in
// double; 0 when either is the zero vector. Throws std::invalid_argument when the lengths differ.
double cosine(const std::vector<float> &a, const std::vector<float> &b);

} // namespace rwb::embed
