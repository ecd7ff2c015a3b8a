#include "tasks/legalqa/citationmetrics.h"

#include <algorithm>

namespace rwb::eval {

namespace {

std::vector<int64_t> asSet(std::vector<int64_t> codes)
{
    std::sort(codes.begin(), codes.end());
    codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
    return codes;
}

// num / den, with 0/0 = 1 when nothing was cited and nothing was due, else 0.
double ratio(size_t num, size_t den, bool bothEmpty)
{
    if (den == 0)
        return bothEmpty ? 1.0 : 0.0;
    return static_cast<double>(num) / static_cast<double>(den);
}

void fillRatios(double &p, double &r, double &f1, size_t tp, size_t fp, size_t fn)
{
    const bool bothEmpty = tp + fp == 0 && tp + fn == 0;
    p = ratio(tp, tp + fp, bothEmpty);
    r = ratio(tp, tp + fn, bothEmpty);
    f1 = ratio(2 * tp, 2 * tp + fp + fn, bothEmpty);
}

} // namespace

CitationScore scoreCitations(const std::vector<int64_t> &cited, const std::vector<int64_t> &gold)
{
    const std::vector<int64_t> c = asSet(cited), g = asSet(gold);
    CitationScore s;
    for (int64_t code : c)
        (std::binary_search(g.begin(), g.end(), code) ? s.tp : s.fp) += 1;
    s.fn = g.size() - s.tp;
    fillRatios(s.precision, s.recall, s.f1, s.tp, s.fp, s.fn);
    return s;
}

CitationScore CitationScorer::add(const std::vector<int64_t> &cited, const std::vector<int64_t> &gold)
{
    const CitationScore s = scoreCitations(cited, gold);
    m_sum.tp += s.tp;
    m_sum.fp += s.fp;
    m_sum.fn += s.fn;
    m_sum.count += 1;
    if (s.tp + s.fp == 0)
        m_sum.emptyCited += 1;
    m_sum.macroPrecision += s.precision;
    m_sum.macroRecall += s.recall;
    m_sum.macroF1 += s.f1;
    return s;
}

CitationMetrics CitationScorer::result() const
{
    CitationMetrics m = m_sum;
    if (m.count == 0)
        return CitationMetrics{};
    const double n = static_cast<double>(m.count);
    m.macroPrecision /= n;
    m.macroRecall /= n;
    m.macroF1 /= n;
    fillRatios(m.microPrecision, m.microRecall, m.microF1, m.tp, m.fp, m.fn);
    return m;
}

} // namespace rwb::eval
