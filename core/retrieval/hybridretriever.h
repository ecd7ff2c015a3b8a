#pragma once

#include "retrieval/retriever.h"

#include <memory>
#include <string>
#include <vector>

namespace rwb::retrieval {

// A weighted fusion of retrievers' scores (the legal-QA paper mixes BGE-M3's dense,
// sparse and ColBERT scores 0.4 / 0.2 / 0.4).
//
// For a query, each retriever i returns its top N = max(k, candidates) hits. Its scores
// are min-max normalized over its own list:
//   s_i(p) = (score_i(p) − min_i) / (max_i − min_i)     p in retriever i's list
//   s_i(p) = 1                                          every p, when max_i = min_i
//                                                       (one hit, or all scores equal)
//   s_i(p) = 0                                          p not in retriever i's list
// and a passage's fused score is Σ_i w_i · s_i(p), over the union of all lists. So the
// last of a list and a passage missing from it both get 0 from that retriever: scores
// of different scales (BM25 ~ 0–30, cosine ~ 0–1) become comparable without
// calibration, at the price of depending on which passages made the top N.
// Weights need not sum to 1 (fused scores then lie in [0, Σ w_i]).
// Ties in the fused score go to the passage that appears first when the lists are read
// in order (retriever 1's list top to bottom, then retriever 2's, …).
//
// Threads: search() is as thread-safe as the retrievers it holds (all of ours are).
// It rethrows what a retriever throws.
class HybridRetriever : public Retriever {
public:
    struct Component {
        std::shared_ptr<const Retriever> retriever;
        double weight = 1.0;
    };
    // Hits asked of each retriever when k is smaller.
    static constexpr int kDefaultCandidates = 50;

    // Throws std::invalid_argument for no components, a null retriever, a negative or
    // non-finite weight, or candidates < 1.
    explicit HybridRetriever(std::vector<Component> components, int candidates = kDefaultCandidates);

    std::string name() const override { return "hybrid"; }
    std::vector<Hit> search(const std::string &query, int k) const override;

    // The fusion alone: lists[i] weighted by weights[i] (same sizes), the top k fused hits.
    static std::vector<Hit> fuse(const std::vector<std::vector<Hit>> &lists, const std::vector<double> &weights, int k);

private:
    std::vector<Component> m_components;
    int m_candidates;
};

} // namespace rwb::retrieval
