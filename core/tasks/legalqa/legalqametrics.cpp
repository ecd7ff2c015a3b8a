#include "tasks/legalqa/legalqametrics.h"

namespace rwb::eval {

std::vector<std::pair<std::string, double>> LegalQaMetrics::values() const
{
    return {{"citation_f1", citation.macroF1},
            {"citation_precision", citation.macroPrecision},
            {"citation_recall", citation.macroRecall},
            {"citation_micro_f1", citation.microF1},
            {"citation_micro_precision", citation.microPrecision},
            {"citation_micro_recall", citation.microRecall},
            {"coverage", coverage},
            {"consistency", consistency},
            {"joint", joint},
            {"format_ok", formatOk}};
}

LegalQaExampleScore LegalQaScorer::add(const LegalOutput &output, const std::vector<int64_t> &gold,
                                       const LegalGrade &grade)
{
    LegalQaExampleScore s;
    s.citation = m_citations.add(output.citedCodes, gold);
    s.coverage = grade.coverage;
    s.consistency = grade.consistency;
    s.joint = legalJointScore(s.citation.f1, s.coverage, s.consistency);
    s.formatOk = output.formatOk();

    m_sum.count += 1;
    m_sum.coverage += s.coverage;
    m_sum.consistency += s.consistency;
    m_sum.joint += s.joint;
    m_sum.formatOk += s.formatOk ? 1.0 : 0.0;
    if (s.coverage == 1.0)
        ++m_sum.coverageFull;
    else if (s.coverage == 0.0)
        ++m_sum.coverageNone;
    else
        ++m_sum.coveragePartial;
    if (s.consistency == 0.0)
        ++m_sum.contradicted;
    return s;
}

LegalQaMetrics LegalQaScorer::result() const
{
    LegalQaMetrics m = m_sum;
    m.citation = m_citations.result();
    if (m.count == 0)
        return m;
    const double n = static_cast<double>(m.count);
    m.coverage /= n;
    m.consistency /= n;
    m.joint /= n;
    m.formatOk /= n;
    return m;
}

} // namespace rwb::eval
