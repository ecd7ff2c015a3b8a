#pragma once

#include "embed/embedder.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::embed {

// "lexical": a model-free embedder. A text is its character n-grams, TF-IDF weighted the
// way scikit-learn's TfidfVectorizer(analyzer="char", ngram_range=(1, 3),
// sublinear_tf=True, smooth_idf=True, norm="l2", lowercase=False) weights them:
//
//   text   → text::normalize (NFKC, white space removed; case kept), then code points
//   w(t)   = (1 + ln tf(t)) · idf(t)       tf: occurrences of n-gram t in the text
//   idf(t) = ln((1 + N) / (1 + df(t))) + 1 N: texts fitted on, df: how many contain t
//   v      = w / |w|₂
//
// One difference from scikit-learn: an n-gram never seen while fitting is not dropped
// but gets df = 0, the largest idf (ln(1 + N) + 1). A reward comparing an answer with a
// reference thus still sees the answer's words that the corpus lacks.
//
// Why characters: Japanese has no spaces, and n = 1..3 covers kanji words (mostly 2 to
// 3 characters) without a morphological analyser; unigrams keep partial overlap alive.
//
// Features are keyed by a 64-bit hash of the n-gram (FNV-1a over the code points, then
// the splitmix64 finalizer): different n-grams collide with probability ~2⁻⁶⁴ per pair,
// so the sparse path below is exact in practice. Two ways to use it:
// - embedSparse() / similarity(): the exact sparse vector and cosine. This is the path
//   for rewards: 128 answer/reference pairs of 100 characters take about 2.5 ms on one
//   core (200 characters: about 5 ms), whatever the vocabulary size. A reference shared
//   by a group's G answers can be embedded once: cosine(ref, embedSparse(answer)).
// - embed() (the Embedder interface): the sparse vector hashed into dimension() = 2^16
//   floats, bucket from the key's low bits and sign from its top bit (signed feature
//   hashing, scikit-learn's alternate_sign), then L2-normalized again. Collisions
//   cancel in expectation: for two texts of a few hundred features each, the cosine
//   typically differs from the exact one by about 1/√65536 ≈ 0.004, and not at all
//   when no two of their features share a bucket. 2^16 keeps a passage's collisions
//   rare (a 1000-feature passage: ~8 shared buckets) while a dense vector stays 256 KB;
//   DenseRetriever stores such mostly-zero vectors sparsely.
//
// Fitting is deterministic (the same texts give the same state, byte for byte). After
// construction the object is immutable: every const method is thread-safe.
// The lexical embedder's settings (outside the class so it can be a default argument).
struct LexicalOptions {
    int minN = 1;           // shortest n-gram, in code points
    int maxN = 3;           // longest n-gram
    int dimensionBits = 16; // embed() returns 2^dimensionBits floats
};

class LexicalEmbedder : public Embedder {
public:
    using Options = LexicalOptions;
    // The exact vector: keys sorted ascending, values the L2-normalized weights (empty
    // for a text with no features).
    struct SparseVector {
        std::vector<uint64_t> keys;
        std::vector<double> values;
    };

    // The longest n-gram allowed.
    static constexpr int kMaxN = 8;
    // The range of dimensionBits.
    static constexpr int kMinDimensionBits = 4;
    static constexpr int kMaxDimensionBits = 24;

    // Fits the document frequencies on `texts` (the task's corpus: passages, references).
    // Throws std::invalid_argument for options out of range.
    explicit LexicalEmbedder(const std::vector<std::string> &texts, const Options &options = {});

    // The fitted state as bytes (options, N, every n-gram key with its df; little-endian,
    // keys ascending) and back. fromState() throws data::InputException naming `source`
    // (a file, or "index.sqlite: embedder lexical") when the bytes are not such a state.
    std::string state() const override;
    static LexicalEmbedder fromState(std::string_view state, const std::string &source);
    // state() in a file (written to PATH.part, then renamed) and back. Failures throw
    // data::InputException naming the file.
    void save(const std::string &path) const;
    static LexicalEmbedder load(const std::string &path);

    std::string name() const override { return "lexical"; }
    int dimension() const override { return 1 << m_options.dimensionBits; }
    // `role` is ignored: the embedding is symmetric.
    std::vector<std::vector<float>> embed(const std::vector<std::string> &texts, EmbedRole role) const override;

    SparseVector embedSparse(std::string_view text) const;
    // Cosine of two sparse vectors from embedSparse() (their dot product; 0 if either is empty).
    static double cosine(const SparseVector &a, const SparseVector &b);
    // cosine(embedSparse(a), embedSparse(b)).
    double similarity(std::string_view a, std::string_view b) const override;
    // Exact and without a dense vector: pair by pair.
    bool pairwise() const override { return true; }

    const Options &options() const { return m_options; }
    // N: how many texts it was fitted on.
    uint64_t documentCount() const { return m_documents; }
    // Distinct n-grams seen while fitting.
    size_t vocabularySize() const { return m_size; }
    // idf of one n-gram as written (normalized first; not of the length range: df 0).
    double idf(std::string_view ngram) const;

private:
    // One slot of the open-addressing table key → df (key 0: empty).
    struct Slot {
        uint64_t key = 0;
        uint32_t df = 0;
    };

    LexicalEmbedder() = default;
    static void checkOptions(const Options &options);
    // Every n-gram key of the normalized text, in text order (repeats kept).
    std::vector<uint64_t> ngramKeys(std::string_view text) const;
    void buildTable(const std::vector<std::pair<uint64_t, uint32_t>> &dfs);
    uint32_t df(uint64_t key) const;

    Options m_options;
    uint64_t m_documents = 0;
    size_t m_size = 0;
    std::vector<Slot> m_slots;      // power-of-two size, at most half full
    std::vector<double> m_idfByDf;  // idf for df = 0 … max df
};

} // namespace rwb::embed
