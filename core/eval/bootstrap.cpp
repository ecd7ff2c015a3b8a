#include "eval/bootstrap.h"

#include "util/rng.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>

namespace rwb::eval {

namespace {

// The 2.5 / 97.5 percentiles (linear interpolation between order statistics, as numpy's
// default) and the standard deviation of `stats`, which this sorts.
void summarize(std::vector<double> &stats, Interval &out)
{
    if (stats.empty()) {
        out.low = out.high = out.estimate;
        return;
    }
    std::sort(stats.begin(), stats.end());
    auto percentile = [&](double q) {
        const double pos = q * static_cast<double>(stats.size() - 1);
        const auto lo = static_cast<size_t>(pos);
        const size_t hi = std::min(lo + 1, stats.size() - 1);
        return stats[lo] + (pos - static_cast<double>(lo)) * (stats[hi] - stats[lo]);
    };
    out.low = percentile(0.025);
    out.high = percentile(0.975);
    double mean = 0.0;
    for (double x : stats)
        mean += x;
    mean /= static_cast<double>(stats.size());
    double ss = 0.0;
    for (double x : stats)
        ss += (x - mean) * (x - mean);
    out.standardError = stats.size() > 1 ? std::sqrt(ss / static_cast<double>(stats.size() - 1)) : 0.0;
}

Interval percentileInterval(size_t n, int resamples, uint64_t seed,
                            const std::function<double(const std::vector<size_t> &)> &statistic)
{
    const std::vector<Interval> one = pairedDifferences(
        n, [&](const std::vector<size_t> &pick) { return std::vector<double>{statistic(pick)}; }, resamples, seed);
    return one.front();
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

std::vector<Interval> pairedDifferences(size_t n,
                                        const std::function<std::vector<double>(const std::vector<size_t> &)> &differences,
                                        int resamples, uint64_t seed)
{
    if (n == 0)
        throw std::invalid_argument("bootstrap: no example");
    std::vector<size_t> all(n);
    std::iota(all.begin(), all.end(), size_t{0});
    const std::vector<double> estimates = differences(all);
    std::vector<Interval> out(estimates.size());
    for (size_t k = 0; k < out.size(); ++k)
        out[k].estimate = estimates[k];
    std::vector<std::vector<double>> stats(out.size());
    util::Rng rng(seed);
    std::vector<size_t> pick(n);
    for (int r = 0; r < resamples; ++r) {
        for (auto &p : pick)
            p = static_cast<size_t>(rng.below(n));
        const std::vector<double> d = differences(pick);
        if (d.size() != out.size())
            throw std::invalid_argument("bootstrap: the statistic changed its number of values");
        for (size_t k = 0; k < d.size(); ++k)
            stats[k].push_back(d[k]);
    }
    for (size_t k = 0; k < out.size(); ++k)
        summarize(stats[k], out[k]);
    return out;
}

double detectableEffect(double standardError, size_t n, size_t examples)
{
    if (examples == 0)
        throw std::invalid_argument("power: no example");
    return kPowerZ * standardError * std::sqrt(static_cast<double>(n) / static_cast<double>(examples));
}

double examplesNeeded(double standardError, size_t n, double effect)
{
    if (!(effect > 0.0))
        throw std::invalid_argument("power: the effect must be above 0");
    const double ratio = kPowerZ * standardError / effect;
    // A double: a tiny effect needs more examples than a size_t holds.
    return std::ceil(static_cast<double>(n) * ratio * ratio);
}

} // namespace rwb::eval
