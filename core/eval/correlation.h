#pragma once

// Correlations of paired values: how far one measurement orders things as another does
// (a re-scored run's advantages against the old ones, a judge's scores against the truth).
// Pure functions; any thread.

#include <vector>

namespace rwb::eval {

// Values this close are tied in Spearman's ranks (the same value reached by two
// roundings, 0.8·0.75 + 0.2·1 against 0.8·0.8 + 0.2·0.8).
inline constexpr double kRankTieTolerance = 1e-12;

// The ranks of `v` from 1, ties (within kRankTieTolerance) given their mean rank.
std::vector<double> ranks(const std::vector<double> &v);

// Pearson's r and Spearman's ρ (Pearson's r of the ranks) of paired values x[i], y[i]
// (the first min(x.size(), y.size()) of each); NaN for fewer than two pairs or a side
// whose values are all equal.
double pearson(const std::vector<double> &x, const std::vector<double> &y);
double spearman(const std::vector<double> &x, const std::vector<double> &y);

} // namespace rwb::eval
