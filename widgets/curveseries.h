#pragma once

#include <cstdint>
#include <vector>

namespace rwb::widgets {

// One metric of one run as the curves plot it: points ordered by step, at most one per
// step. Plain C++ (no Qt) so the arithmetic is testable on its own.
class CurveSeries {
public:
    // Adds the value of `step`, or replaces it when the step is already there (a live
    // point that the store read already delivered). Keeps the points ordered by step.
    void set(int64_t step, double value);
    // The value at `step`; NaN when the series has no point there.
    double valueAt(int64_t step) const;
    void clear();

    const std::vector<int64_t> &steps() const { return m_steps; }
    const std::vector<double> &values() const { return m_values; }
    bool isEmpty() const { return m_steps.empty(); }
    int size() const { return static_cast<int>(m_steps.size()); }

private:
    std::vector<int64_t> m_steps;
    std::vector<double> m_values;
};

// TensorBoard's smoothing: an exponential moving average with the start-up bias removed,
//   last_n = w · last_{n−1} + (1 − w) · x_n   (last_0 = 0),
//   smoothed_n = last_n / (1 − w^k)           (k = finite points seen so far),
// so the first smoothed point equals the first raw one instead of being pulled to 0.
// `weight` w is clamped to [0, 0.999]; 0 returns the values unchanged. A NaN or infinite
// value stays as it is in the output and does not move the average.
// Example, w = 0.5 on [1, 0, 1, 0]: [1, 1/3, 5/7, 1/3].
std::vector<double> emaSmooth(const std::vector<double> &values, double weight);

} // namespace rwb::widgets
