#include "eval/smoothing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::eval {

std::vector<double> emaSmooth(const std::vector<double> &values, double weight)
{
    // The largest weight accepted: at 1 the average would never move.
    constexpr double kMaxWeight = 0.999;
    const double w = std::clamp(weight, 0.0, kMaxWeight);
    if (w == 0.0)
        return values;
    std::vector<double> out;
    out.reserve(values.size());
    double last = 0.0;
    double bias = 1.0; // w^k
    for (const double x : values) {
        if (!std::isfinite(x)) {
            out.push_back(x);
            continue;
        }
        last = w * last + (1.0 - w) * x;
        bias *= w;
        out.push_back(last / (1.0 - bias));
    }
    return out;
}

double emaWeightForSteps(int steps)
{
    return steps <= 1 ? 0.0 : 1.0 - 1.0 / steps;
}

std::optional<CurveRise> emaRise(const std::vector<int64_t> &steps, const std::vector<double> &values, double weight,
                                 int warmup)
{
    if (steps.size() != values.size())
        throw std::invalid_argument("emaRise: steps and values differ in length");
    const std::vector<double> smooth = emaSmooth(values, weight);
    std::optional<size_t> first, last;
    int seen = 0;
    for (size_t i = 0; i < smooth.size(); ++i) {
        if (!std::isfinite(values[i]))
            continue;
        if (++seen == std::max(warmup, 1))
            first = i;
        last = i;
    }
    if (!first || !last || *last == *first)
        return std::nullopt;
    return CurveRise{steps[*first], steps[*last], smooth[*first], smooth[*last]};
}

} // namespace rwb::eval
