#include "eval/correlation.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>

namespace rwb::eval {

std::vector<double> ranks(const std::vector<double> &v)
{
    std::vector<size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> out(v.size());
    for (size_t i = 0; i < order.size();) {
        size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] - v[order[i]] <= kRankTieTolerance)
            ++j;
        const double mean = (static_cast<double>(i) + static_cast<double>(j)) / 2.0 + 1.0;
        for (size_t k = i; k <= j; ++k)
            out[order[k]] = mean;
        i = j + 1;
    }
    return out;
}

double pearson(const std::vector<double> &x, const std::vector<double> &y)
{
    constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
    const size_t n = std::min(x.size(), y.size());
    if (n < 2)
        return kNan;
    double mx = 0.0, my = 0.0;
    for (size_t i = 0; i < n; ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    double sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (!(sxx > 0.0) || !(syy > 0.0))
        return kNan;
    return sxy / std::sqrt(sxx * syy);
}

double spearman(const std::vector<double> &x, const std::vector<double> &y)
{
    const size_t n = std::min(x.size(), y.size());
    return pearson(ranks(std::vector<double>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n))),
                   ranks(std::vector<double>(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n))));
}

} // namespace rwb::eval
