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

double noneFraction(const std::vector<double> &v)
{
    size_t none = 0;
    for (double x : v)
        none += std::isnan(x) ? 1 : 0;
    return v.empty() ? 0.0 : static_cast<double>(none) / static_cast<double>(v.size());
}

RewardStats rewardStats(const std::vector<std::vector<double>> &groups)
{
    constexpr double kZeroStd = 1e-8; // torch.isclose(std, 0)'s absolute tolerance, as TRL tests it
    RewardStats s;
    std::vector<double> all, stds;
    double zero = 0.0;
    for (const auto &g : groups) {
        all.insert(all.end(), g.begin(), g.end());
        stds.push_back(stdOf(g));
        zero += stds.back() <= kZeroStd ? 1.0 : 0.0;
    }
    s.mean = meanOf(all);
    s.std = stdOf(all);
    s.groupStdMean = meanOf(stds);
    s.fracZeroStd = groups.empty() ? 0.0 : zero / static_cast<double>(groups.size());
    return s;
}

} // namespace rwb::util
