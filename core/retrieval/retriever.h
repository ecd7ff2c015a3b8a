#pragma once

#include <string>
#include <vector>

namespace rwb::retrieval {

// One retrieved passage.
struct Hit {
    std::string id;     // the passage's id
    double score = 0.0; // larger is better; the scale depends on the retriever
    int rank = 0;       // 1-based position in the result list
};

// Anything that ranks a corpus's passages for a question: Bm25Index, DenseRetriever,
// HybridRetriever.
//
// search() returns at most k hits (fewer when fewer passages qualify), best first, ranks
// 1, 2, …; ties in score are broken by a fixed rule each implementation states (the
// passage's position in the corpus for BM25 and dense), so results are deterministic.
// k <= 0 gives no hits. Implementations say which threads may call them and what they throw.
class Retriever {
public:
    virtual ~Retriever();

    // "bm25", "dense:lexical", "hybrid".
    virtual std::string name() const = 0;
    virtual std::vector<Hit> search(const std::string &query, int k) const = 0;
};

} // namespace rwb::retrieval
