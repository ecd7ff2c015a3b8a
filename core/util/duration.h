#pragma once

#include <chrono>
#include <string>

namespace rwb::util {

using Clock = std::chrono::steady_clock;

// Seconds from `t` to now, on the steady clock.
inline double secondsSince(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// A duration for progress lines: "m:ss" under an hour, "h:mm:ss" from an hour on, and
// "–" when it is not known (negative or not finite). Rounds to the nearest second.
std::string formatDuration(double seconds);

} // namespace rwb::util
