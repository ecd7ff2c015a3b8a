#pragma once

#include "tasks/legalqa/citationmetrics.h"
#include "tasks/legalqa/legalgrader.h"
#include "tasks/legalqa/legaloutput.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace rwb::eval {

// One example's scores, as the second paper's table 1 reports them.
struct LegalQaExampleScore {
    CitationScore citation;
    double coverage = 0.0;
    double consistency = 1.0;
    double joint = 0.0; // legalJointScore(citation.f1, coverage, consistency)
    bool formatOk = false;
};

// Means over examples. `joint` is the mean of the examples' joint scores, which equals the
// mean of macro citation F1, coverage and consistency.
struct LegalQaMetrics {
    CitationMetrics citation;
    double coverage = 0.0;
    double consistency = 0.0;
    double joint = 0.0;
    double formatOk = 0.0; // share of completions whose format holds
    size_t count = 0;
    size_t coverageFull = 0, coveragePartial = 0, coverageNone = 0;
    size_t contradicted = 0; // examples with consistency 0

    // The metrics in a fixed order, for a task's MetricSet and the CLI:
    // citation_f1 (macro), citation_precision, citation_recall (macro),
    // citation_micro_f1, citation_micro_precision, citation_micro_recall,
    // coverage, consistency, joint, format_ok.
    std::vector<std::pair<std::string, double>> values() const;
};

// Accumulates examples. Scores are taken from what the lenient parser extracts whether or
// not the format holds (the format is reported apart, as format_ok): a completion without
// a citation block cites nothing, one without an answer block states nothing (coverage 0,
// consistency 1: nothing is contradicted). Not thread-safe.
class LegalQaScorer {
public:
    // `gold`: the question's law codes; `grade`: the reference grade of output.answerText.
    LegalQaExampleScore add(const LegalOutput &output, const std::vector<int64_t> &gold, const LegalGrade &grade);
    LegalQaMetrics result() const;

private:
    CitationScorer m_citations;
    LegalQaMetrics m_sum; // sums of coverage, consistency, joint, formatOk; counts
};

} // namespace rwb::eval
