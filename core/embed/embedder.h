#pragma once

#include <string>
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
};

// Cosine similarity of two vectors of the same length: a·b / (|a| |b|), accumulated in
// double; 0 when either is the zero vector. Throws std::invalid_argument when the lengths differ.
double cosine(const std::vector<float> &a, const std::vector<float> &b);

} // namespace rwb::embed
