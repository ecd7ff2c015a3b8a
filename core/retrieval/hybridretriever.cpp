#include "retrieval/hybridretriever.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace rwb::retrieval {

HybridRetriever::HybridRetriever(std::vector<Component> components, int candidates)
    : m_components(std::move(components)), m_candidates(candidates)
{
    if (m_components.empty())
        throw std::invalid_argument("hybrid retriever: no retrievers");
    for (const Component &c : m_components) {
        if (!c.retriever)
            throw std::invalid_argument("hybrid retriever: a null retriever");
        if (!(c.weight >= 0.0) || !std::isfinite(c.weight))
            throw std::invalid_argument("hybrid retriever: weight of " + c.retriever->name() +
                                        " must be a finite number >= 0");
    }
    if (m_candidates < 1)
        throw std::invalid_argument("hybrid retriever: candidates must be at least 1");
}

std::vector<Hit> HybridRetriever::search(const std::string &query, int k) const
{
    if (k <= 0)
        return {};
    const int n = std::max(k, m_candidates);
    std::vector<std::vector<Hit>> lists;
    std::vector<double> weights;
    for (const Component &c : m_components) {
        lists.push_back(c.retriever->search(query, n));
        weights.push_back(c.weight);
    }
    return fuse(lists, weights, k);
}

std::vector<Hit> HybridRetriever::fuse(const std::vector<std::vector<Hit>> &lists, const std::vector<double> &weights,
                                       int k)
{
    if (lists.size() != weights.size())
        throw std::invalid_argument("hybrid retriever: " + std::to_string(lists.size()) + " lists but " +
                                    std::to_string(weights.size()) + " weights");
    if (k <= 0)
        return {};
    struct Candidate {
        std::string id;
        double score = 0.0;
        size_t firstSeen = 0;
    };
    std::vector<Candidate> candidates;
    std::unordered_map<std::string, size_t> indexOf;
    for (size_t l = 0; l < lists.size(); ++l) {
        const std::vector<Hit> &list = lists[l];
        if (list.empty())
            continue;
        const auto [lo, hi] = std::minmax_element(list.begin(), list.end(),
                                                  [](const Hit &a, const Hit &b) { return a.score < b.score; });
        const double min = lo->score, range = hi->score - lo->score;
        for (const Hit &h : list) {
            const double normalized = range > 0.0 ? (h.score - min) / range : 1.0;
            const auto [it, added] = indexOf.emplace(h.id, candidates.size());
            if (added)
                candidates.push_back({h.id, 0.0, candidates.size()});
            candidates[it->second].score += weights[l] * normalized;
        }
    }
    const size_t n = std::min(candidates.size(), static_cast<size_t>(k));
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n), candidates.end(),
                      [](const Candidate &a, const Candidate &b) {
                          return a.score != b.score ? a.score > b.score : a.firstSeen < b.firstSeen;
                      });
    std::vector<Hit> hits;
    hits.reserve(n);
    for (size_t i = 0; i < n; ++i)
        hits.push_back({candidates[i].id, candidates[i].score, static_cast<int>(i) + 1});
    return hits;
}

} // namespace rwb::retrieval
