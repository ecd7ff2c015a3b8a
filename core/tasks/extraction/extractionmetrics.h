#pragma once

#include <cstddef>
#include <string_view>

namespace rwb::eval {

// Precision, recall and F1 of the first paper (§2.4), where 不明 means "not stated":
//   N_output: predictions whose normalized form is not 不明 (an empty prediction counts),
//   N_exist:  golds that are not 不明,
//   N_tp:     predictions equal to their gold after normalization, the gold not 不明;
//   P = N_tp / N_output, R = N_tp / N_exist, F1 = 2PR / (P + R), each 0 when its denominator is 0.
struct ExtractionMetrics {
    double precision = 0.0;
    double recall = 0.0;
    double f1 = 0.0;
    size_t nOutput = 0;
    size_t nExist = 0;
    size_t nTp = 0;
    size_t count = 0; // predictions added
};

// Accumulates predictions (extracted answers, not raw completions) and their golds.
class ExtractionScorer {
public:
    void add(std::string_view prediction, std::string_view gold);
    ExtractionMetrics result() const;

private:
    ExtractionMetrics m_m;
};

} // namespace rwb::eval
