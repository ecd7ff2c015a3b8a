#pragma once

#include <vector>

namespace rwb::util {

// The mean of the values that are not NaN (None: a failed judge is left out); 0 for none.
double meanOf(const std::vector<double> &v);
// Their standard deviation, Bessel-corrected (torch.std's default, as TRL's reward_std);
// 0 for fewer than two.
double stdOf(const std::vector<double> &v);

} // namespace rwb::util
