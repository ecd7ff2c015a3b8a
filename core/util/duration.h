#pragma once

#include <string>

namespace rwb::util {

// A duration for progress lines: "m:ss" under an hour, "h:mm:ss" from an hour on, and
// "–" when it is not known (negative or not finite). Rounds to the nearest second.
std::string formatDuration(double seconds);

} // namespace rwb::util
