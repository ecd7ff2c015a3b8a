#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwb::eval {

// Citation precision, recall and F1 of one example: the cited set C (law codes, repeats
// ignored) against the gold set G.
//   TP = |C ∩ G|, FP = |C \ G| (codes not in the gold, whether or not they exist),
//   FN = |G \ C|;  P = TP / |C|,  R = TP / |G|,  F1 = 2·TP / (2·TP + FP + FN).
// Empty sets, decided so that citing nothing never earns credit when something should be
// cited, and citing nothing is perfect when nothing should be:
//   C = ∅, G = ∅: P = R = F1 = 1;
//   C = ∅, G ≠ ∅: P = R = F1 = 0;
//   C ≠ ∅, G = ∅: P = R = F1 = 0.
// (Equivalently: a 0/0 ratio is 1 when both sets are empty and 0 otherwise.)
struct CitationScore {
    double precision = 0.0;
    double recall = 0.0;
    double f1 = 0.0;
    size_t tp = 0;
    size_t fp = 0;
    size_t fn = 0;
};

CitationScore scoreCitations(const std::vector<int64_t> &cited, const std::vector<int64_t> &gold);

// The aggregate over examples, both ways the literature reports it:
//   micro: P, R and F1 of the pooled counts ΣTP, ΣFP, ΣFN (the empty rules above applied
//          to the pooled sets: all examples empty on both sides gives 1);
//   macro: the mean over examples of each example's P, R and F1 (the second paper's
//          "Citation F1", and the one its joint score averages). 0 examples: all 0.
struct CitationMetrics {
    double microPrecision = 0.0, microRecall = 0.0, microF1 = 0.0;
    double macroPrecision = 0.0, macroRecall = 0.0, macroF1 = 0.0;
    size_t tp = 0, fp = 0, fn = 0;
    size_t count = 0;      // examples added
    size_t emptyCited = 0; // examples that cited nothing
};

// Accumulates per-example citation scores. Not thread-safe.
class CitationScorer {
public:
    // Scores one example and adds it; returns its score.
    CitationScore add(const std::vector<int64_t> &cited, const std::vector<int64_t> &gold);
    CitationMetrics result() const;

private:
    CitationMetrics m_sum; // tp, fp, fn, count, emptyCited, and sums of the per-example values
};

} // namespace rwb::eval
