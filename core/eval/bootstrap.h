#pragma once

// Paired bootstrap intervals for "did the model get better": the same examples scored by
// two checkpoints (a = before, b = after), resampled together with replacement, so that
// the interval is that of the difference b − a on these examples' population.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace rwb::eval {

struct Interval {
    double estimate = 0.0; // the difference on the examples themselves
    double low = 0.0;      // 2.5th percentile of the resampled differences
    double high = 0.0;     // 97.5th percentile
    double standardError = 0.0; // standard deviation of the resampled differences
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

// Several statistics of the same resamples at once: `differences(pick)` returns, for the
// examples `pick` (indices below n, repeats allowed), one b − a value per statistic, the
// same number every call. Each statistic gets its interval and standard error; the
// estimate is its value on every example. Deterministic for a seed.
std::vector<Interval> pairedDifferences(size_t n,
                                        const std::function<std::vector<double>(const std::vector<size_t> &)> &differences,
                                        int resamples = 2000, uint64_t seed = 1);

// Power of a paired comparison, from a difference's standard error on n examples: the
// smallest true difference that a two-sided test at the 5 % level detects with 80 %
// power on `examples` examples, (z₀.₉₇₅ + z₀.₈₀) · se · √(n / examples) = 2.80 · se ·
// √(n / examples); and the examples needed to detect `effect` so, n · (2.80 · se / effect)².
// The standard error shrinks as 1 / √examples: a new sample must be drawn as this one was.
constexpr double kPowerZ = 1.959963985 + 0.841621234;
double detectableEffect(double standardError, size_t n, size_t examples);
double examplesNeeded(double standardError, size_t n, double effect); // whole, rounded up

} // namespace rwb::eval
