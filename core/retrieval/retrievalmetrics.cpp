#include "retrieval/retrievalmetrics.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace rwb::retrieval {

RetrievalMetrics computeRetrievalMetrics(const std::vector<RankedQuery> &queries, const std::vector<int> &ks)
{
    RetrievalMetrics m;
    m.ks = ks;
    m.recall.assign(ks.size(), 0.0);
    m.hit.assign(ks.size(), 0.0);
    for (int k : ks)
        if (k < 1)
            throw std::invalid_argument("retrieval metrics: k must be at least 1, not " + std::to_string(k));
    for (const RankedQuery &q : queries) {
        const std::unordered_set<std::string> gold(q.gold.begin(), q.gold.end());
        if (gold.empty()) {
            ++m.skipped;
            continue;
        }
        ++m.queries;
        // found[r] = distinct gold ids among the first r + 1 ranked ids.
        std::vector<size_t> found(q.ranked.size());
        std::unordered_set<std::string> seen;
        size_t firstRank = 0;
        for (size_t r = 0; r < q.ranked.size(); ++r) {
            if (gold.count(q.ranked[r]) && seen.insert(q.ranked[r]).second && firstRank == 0)
                firstRank = r + 1;
            found[r] = seen.size();
        }
        for (size_t i = 0; i < ks.size(); ++i) {
            const size_t top = std::min(q.ranked.size(), static_cast<size_t>(ks[i]));
            const size_t hits = top == 0 ? 0 : found[top - 1];
            m.recall[i] += static_cast<double>(hits) / static_cast<double>(gold.size());
            m.hit[i] += hits > 0 ? 1.0 : 0.0;
        }
        m.mrr += firstRank > 0 ? 1.0 / static_cast<double>(firstRank) : 0.0;
    }
    if (m.queries > 0) {
        const double n = static_cast<double>(m.queries);
        for (size_t i = 0; i < ks.size(); ++i) {
            m.recall[i] /= n;
            m.hit[i] /= n;
        }
        m.mrr /= n;
    }
    return m;
}

} // namespace rwb::retrieval
