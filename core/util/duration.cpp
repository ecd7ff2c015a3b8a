#include "util/duration.h"

#include <cmath>
#include <cstdio>

namespace rwb::util {

std::string formatDuration(double seconds)
{
    if (!std::isfinite(seconds) || seconds < 0.0)
        return "–";
    const long long s = std::llround(seconds);
    char buf[48];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
    return buf;
}

} // namespace rwb::util
