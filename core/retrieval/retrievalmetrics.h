#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rwb::retrieval {

// One evaluated question: the passage ids that answer it and what a retriever returned.
struct RankedQuery {
    std::vector<std::string> gold;   // duplicates count once
    std::vector<std::string> ranked; // retrieved ids, best first
};

// Retrieval quality over a set of questions, each figure the mean over the questions
// that have at least one gold id (the others are counted in `skipped`, not averaged):
//   recall@k = |gold ∩ top k| / |gold|    a question with 3 gold passages, 2 of them in
//                                         the top k, scores 2/3 (the standard IR recall,
//                                         not "any gold found")
//   hit@k    = 1 if any gold id is in the top k, else 0
//   MRR      = 1 / (rank of the first gold id in the ranked list), 0 when none is in it;
//              computed over the list given, so over the top max(k) when the list was
//              cut there (MRR@max k)
// All are 0 when no question has a gold id.
struct RetrievalMetrics {
    std::vector<int> ks;        // as asked, in that order
    std::vector<double> recall; // recall[i] is recall@ks[i]
    std::vector<double> hit;    // hit[i] is hit@ks[i]
    double mrr = 0.0;
    size_t queries = 0; // questions averaged
    size_t skipped = 0; // questions without a gold id
};

// Throws std::invalid_argument for a k < 1.
RetrievalMetrics computeRetrievalMetrics(const std::vector<RankedQuery> &queries, const std::vector<int> &ks);

} // namespace rwb::retrieval
