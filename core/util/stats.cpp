#include "util/stats.h"

#include <cmath>
#include <cstddef>

namespace rwb::util {

double meanOf(const std::vector<double> &v)
{
    double s = 0.0;
    size_t n = 0;
    for (double x : v)
        if (!std::isnan(x)) { // None (a failed judge) is left out
            s += x;
            ++n;
        }
    return n == 0 ? 0.0 : s / static_cast<double>(n);
}

double stdOf(const std::vector<double> &v)
{
    const double m = meanOf(v);
    double s = 0.0;
    size_t n = 0;
    for (double x : v)
        if (!std::isnan(x)) {
            s += (x - m) * (x - m);
            ++n;
        }
    return n < 2 ? 0.0 : std::sqrt(s / static_cast<double>(n - 1));
}

} // namespace rwb::util
