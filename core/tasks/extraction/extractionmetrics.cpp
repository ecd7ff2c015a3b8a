#include "tasks/extraction/extractionmetrics.h"

#include "tasks/extraction/extraction.h"
#include "text/normalize.h"

namespace rwb::eval {

void ExtractionScorer::add(std::string_view prediction, std::string_view gold)
{
    static const std::u32string unknown = text::normalize32(reward::kUnknownAnswer);
    const std::u32string p = text::normalize32(prediction);
    const std::u32string g = text::normalize32(gold);
    ++m_m.count;
    if (p != unknown)
        ++m_m.nOutput;
    if (g != unknown) {
        ++m_m.nExist;
        if (p == g)
            ++m_m.nTp;
    }
}

ExtractionMetrics ExtractionScorer::result() const
{
    ExtractionMetrics m = m_m;
    m.precision = m.nOutput ? static_cast<double>(m.nTp) / static_cast<double>(m.nOutput) : 0.0;
    m.recall = m.nExist ? static_cast<double>(m.nTp) / static_cast<double>(m.nExist) : 0.0;
    m.f1 = (m.precision + m.recall) > 0.0 ? 2.0 * m.precision * m.recall / (m.precision + m.recall) : 0.0;
    return m;
}

} // namespace rwb::eval
