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

} // namespace rwb::widgets
