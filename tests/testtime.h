#pragma once

// Time limits in tests, scaled for slow builds. A build under AddressSanitizer and
// UndefinedBehaviorSanitizer runs 3–10 times slower than Release (ctest sets
// RWB_TEST_TIME_SCALE=8 there, and Qt Test's function timeout to match: tests/CMakeLists.txt);
// a limit meant to catch a hang must not fail there on a run that is only slow. Unset or
// out of 1–100: 1.
#include <cstdlib>

namespace rwbtest {

inline int timeScale()
{
    static const int scale = [] {
        const char *s = std::getenv("RWB_TEST_TIME_SCALE");
        const int v = s ? std::atoi(s) : 1;
        return v >= 1 && v <= 100 ? v : 1;
    }();
    return scale;
}

// `ms` times the scale.
inline int scaledMs(int ms)
{
    return ms * timeScale();
}

} // namespace rwbtest
