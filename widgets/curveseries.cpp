#include "curveseries.h"

#include <algorithm>
#include <limits>

namespace rwb::widgets {

void CurveSeries::set(int64_t step, double value)
{
    // Live points arrive in step order: append without searching.
    if (m_steps.empty() || step > m_steps.back()) {
        m_steps.push_back(step);
        m_values.push_back(value);
        return;
    }
    const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), step);
    const auto i = static_cast<size_t>(it - m_steps.begin());
    if (it != m_steps.end() && *it == step) {
        m_values[i] = value;
        return;
    }
    m_steps.insert(it, step);
    m_values.insert(m_values.begin() + static_cast<std::ptrdiff_t>(i), value);
}

double CurveSeries::valueAt(int64_t step) const
{
    const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), step);
    if (it == m_steps.end() || *it != step)
        return std::numeric_limits<double>::quiet_NaN();
    return m_values[static_cast<size_t>(it - m_steps.begin())];
}

void CurveSeries::clear()
{
    m_steps.clear();
    m_values.clear();
}

} // namespace rwb::widgets
