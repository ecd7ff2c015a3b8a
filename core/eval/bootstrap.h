#pragma once

// Paired bootstrap intervals for "did the model get better": the same examples scored by
// two checkpoints (a = before, b = after), resampled together with replacement, so that
// the interval is that of the difference b − a on these examples' population.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwb::eval {

struct Interval {
    double estimate = 0.0; // the difference on the examples themselves
    double low = 0.0;      // 2.5th percentile of the resampled differences
    double high = 0.0;     // 97.5th percentile
};

// One example's part of the first paper's F1 (extractionmetrics.h): whether the
// prediction named a company (counts in N_output), the gold names one (N_exist), and the
// prediction equals it (N_tp).
struct F1Counts {
    bool output = false;
    bool exist = false;
    bool tp = false;
};

// F1 of a set of examples' counts.
double f1Of(const std::vector<F1Counts> &counts, const std::vector<size_t> &pick);

// mean(b) − mean(a) over paired values (a[i], b[i] from the same example) with its 95 %
// interval from `resamples` resamples; deterministic for a seed. a and b have the same size.
Interval pairedMeanDifference(const std::vector<double> &a, const std::vector<double> &b, int resamples = 2000,
                              uint64_t seed = 1);

// F1(b) − F1(a) over paired examples, likewise.
Interval pairedF1Difference(const std::vector<F1Counts> &a, const std::vector<F1Counts> &b, int resamples = 2000,
                            uint64_t seed = 1);

} // namespace rwb::eval
