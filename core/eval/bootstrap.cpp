#include "eval/bootstrap.h"

#include "util/rng.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>

namespace rwb::eval {

namespace {

// The estimate on every example, and the 2.5 / 97.5 percentiles (linear interpolation
// between order statistics, as numpy's default) of the statistic on `resamples` resamples.
Interval percentileInterval(size_t n, int resamples, uint64_t seed,
                            const std::function<double(const std::vector<size_t> &)> &statistic)
{
    if (n == 0)
        throw std::invalid_argument("bootstrap: no example");
    std::vector<size_t> all(n);
    std::iota(all.begin(), all.end(), size_t{0});
    Interval out;
    out.estimate = statistic(all);
    util::Rng rng(seed);
    std::vector<double> stats;
    std::vector<size_t> pick(n);
    for (int r = 0; r < resamples; ++r) {
        for (auto &p : pick)
            p = static_cast<size_t>(rng.below(n));
        stats.push_back(statistic(pick));
    }
    std::sort(stats.begin(), stats.end());
    auto percentile = [&](double q) {
        if (stats.empty())
            return out.estimate;
        const double pos = q * static_cast<double>(stats.size() - 1);
        const auto lo = static_cast<size_t>(pos);
        const size_t hi = std::min(lo + 1, stats.size() - 1);
        return stats[lo] + (pos - static_cast<double>(lo)) * (stats[hi] - stats[lo]);
    };
    out.low = percentile(0.025);
    out.high = percentile(0.975);
    return out;
}

} // namespace

double f1Of(const std::vector<F1Counts> &counts, const std::vector<size_t> &pick)
{
    double output = 0.0, exist = 0.0, tp = 0.0;
    for (size_t i : pick) {
        output += counts[i].output ? 1.0 : 0.0;
        exist += counts[i].exist ? 1.0 : 0.0;
        tp += counts[i].tp ? 1.0 : 0.0;
    }
    const double p = output > 0.0 ? tp / output : 0.0;
    const double r = exist > 0.0 ? tp / exist : 0.0;
    return p + r > 0.0 ? 2.0 * p * r / (p + r) : 0.0;
}

Interval pairedMeanDifference(const std::vector<double> &a, const std::vector<double> &b, int resamples, uint64_t seed)
{
    if (a.size() != b.size())
        throw std::invalid_argument("bootstrap: the two checkpoints scored different numbers of examples");
    return percentileInterval(a.size(), resamples, seed, [&](const std::vector<size_t> &pick) {
        double s = 0.0;
        for (size_t i : pick)
            s += b[i] - a[i];
        return s / static_cast<double>(pick.size());
    });
}

Interval pairedF1Difference(const std::vector<F1Counts> &a, const std::vector<F1Counts> &b, int resamples, uint64_t seed)
{
    if (a.size() != b.size())
        throw std::invalid_argument("bootstrap: the two checkpoints scored different numbers of examples");
    return percentileInterval(a.size(), resamples, seed,
                              [&](const std::vector<size_t> &pick) { return f1Of(b, pick) - f1Of(a, pick); });
}

} // namespace rwb::eval
