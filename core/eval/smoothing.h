#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace rwb::eval {

// TensorBoard's smoothing: an exponential moving average with the start-up bias removed,
//   last_n = w · last_{n−1} + (1 − w) · x_n   (last_0 = 0),
//   smoothed_n = last_n / (1 − w^k)           (k = finite points seen so far),
// so the first smoothed point equals the first raw one instead of being pulled to 0.
// `weight` w is clamped to [0, 0.999]; 0 returns the values unchanged. A NaN or infinite
// value stays as it is in the output and does not move the average.
// Example, w = 0.5 on [1, 0, 1, 0]: [1, 1/3, 5/7, 1/3].
std::vector<double> emaSmooth(const std::vector<double> &values, double weight);

// The weight of an EMA "over N steps" (time constant N): w = 1 − 1/N, e.g. 0.9 for 10.
double emaWeightForSteps(int steps);

// How far a smoothed training curve moved over a run: its debiased EMA at the
// `warmup`-th finite point (where the average has seen `warmup` points, about one time
// constant) against the EMA at the last point. For a training reward logged once a step,
// warmup = N and weight = emaWeightForSteps(N) give "the EMA over N steps at step N →
// at the last step". Empty when the curve has fewer than warmup + 1 finite points.
struct CurveRise {
    int64_t fromStep = 0;
    int64_t toStep = 0;
    double from = 0.0;
    double to = 0.0;
    double rise() const { return to - from; }
};
std::optional<CurveRise> emaRise(const std::vector<int64_t> &steps, const std::vector<double> &values, double weight,
                                 int warmup);

} // namespace rwb::eval
