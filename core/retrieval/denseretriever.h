#pragma once

#include "embed/embedder.h"
#include "retrieval/corpus.h"
#include "retrieval/retriever.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::retrieval {

// Brute-force cosine top-k over a corpus's passage vectors from any embed::Embedder.
//
// Vectors are computed once (build(): Corpus::embeddingText of each passage, role
// Document) and can be stored in a Bm25Index file (save()) so that re-opening it
// (load()) does not embed again. In memory and in the file a vector is kept sparse
// (indices + values) when at most half of its entries are non-zero (the lexical
// embedder's hashed vectors), dense otherwise (neural embedders).
//
// In the index file:
//   embedders(name PRIMARY KEY, dimension, state BLOB)  state: what the embedder needs
//                                                       to be rebuilt (lexical: its idf)
//   vectors(embedder, seq, indices BLOB, vals BLOB)     seq = passages.seq; indices
//                                                       NULL for a dense row, else
//                                                       uint32 LE; vals float32 LE
//
// score = cosine(query vector, passage vector) in [−1, 1] (0 when either is zero).
// search() returns min(k, passages) hits, zero scores included, best first, ties by
// passage order.
//
// Threads: immutable after build()/load(); search() may run on several threads at once
// when the embedder allows it (every Embedder must). Failures: see each method.
class DenseRetriever : public Retriever {
public:
    // (done, total) passages embedded, on the calling thread; false cancels.
    using Progress = std::function<bool(size_t done, size_t total)>;
    // Passages embedded per Embedder::embed() call while building.
    static constexpr size_t kBatch = 64;
    // A stored embedder of an index file.
    struct StoredEmbedder {
        std::string name;
        int dimension = 0;
        std::string state;
        size_t vectors = 0;
    };

    // Embeds every passage of `corpus`. Returns nullptr when `progress` cancelled.
    // Rethrows what the embedder throws; std::runtime_error when it returns the wrong
    // number or length of vectors.
    static std::unique_ptr<DenseRetriever> build(std::shared_ptr<const embed::Embedder> embedder, const Corpus &corpus,
                                                 const Progress &progress = {});
    // The vectors stored in `indexPath` under embedder->name(). Throws
    // data::InputException naming the file when it is not an index, holds no vectors
    // for that name, or they do not fit (dimension, count, blob sizes).
    static std::unique_ptr<DenseRetriever> load(const std::string &indexPath,
                                                std::shared_ptr<const embed::Embedder> embedder);
    // The embedders whose vectors `indexPath` holds (none for a BM25-only index).
    // Throws data::InputException when it is not an index.
    static std::vector<StoredEmbedder> stored(const std::string &indexPath);

    // Writes the vectors into the index file at `indexPath` (a finished index, or the
    // PATH.part Bm25Index::build hands to BuildOptions::extend) in one transaction,
    // replacing vectors stored under the same name, with `embedderState` (may be empty).
    // Throws data::InputException when the file is not an index or its passages are not
    // this corpus's ids; std::runtime_error for SQLite failures.
    void save(const std::string &indexPath, std::string_view embedderState = {}) const;

    // "dense:" + the embedder's name.
    std::string name() const override;
    std::vector<Hit> search(const std::string &query, int k) const override;
    // The same for a query vector already computed (dimension() floats).
    std::vector<Hit> searchVector(const std::vector<float> &query, int k) const;

    const embed::Embedder &embedder() const { return *m_embedder; }
    size_t size() const { return m_ids.size(); }

private:
    // One passage's vector: sparse when `indices` is not empty (or when values is empty:
    // the zero vector), else dense with dimension() values.
    struct Row {
        std::vector<uint32_t> indices;
        std::vector<float> values;
        double norm = 0.0;
    };

    explicit DenseRetriever(std::shared_ptr<const embed::Embedder> embedder);
    static Row makeRow(const std::vector<float> &v);
    double dot(const std::vector<float> &query, const Row &row) const;

    std::shared_ptr<const embed::Embedder> m_embedder;
    int m_dimension = 0;
    std::vector<std::string> m_ids; // corpus order
    std::vector<Row> m_rows;        // one per id
};

} // namespace rwb::retrieval
