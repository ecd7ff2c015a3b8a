#pragma once

// One sampled token per row from its own random stream: the batch decoder and
// CausalLM::generate draw the same way, so a row's completion depends on its seed only,
// not on which other rows share its batch (a data-parallel rank sampling its share of a
// step gets the rollouts one process gets). Internal to core/model; without libtorch.

#include "util/rng.h"

#include <cstdint>
#include <random>

namespace rwb::model {

// The seed of row `row`'s stream under a call's seed.
inline uint64_t rowSeed(uint64_t seed, uint64_t row)
{
    return util::Rng::forStream(seed, row, 0).next();
}

// A uniform double in [0, 1) from 53 random bits: the same on every platform (unlike
// std::uniform_real_distribution), so a seed gives the same text everywhere.
inline double uniform(std::mt19937_64 &generator)
{
    return static_cast<double>(generator() >> 11) * (1.0 / 9007199254740992.0);
}

// The first index whose running sum of `probs` exceeds u · Σ probs (inverse CDF). The
// last index with a positive probability when rounding leaves u · Σ above every sum.
inline int64_t drawIndex(const float *probs, int64_t n, double u)
{
    double total = 0.0;
    for (int64_t i = 0; i < n; ++i)
        total += probs[i];
    const double target = u * total;
    double sum = 0.0;
    int64_t lastPositive = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (probs[i] > 0.0f)
            lastPositive = i;
        sum += probs[i];
        if (sum > target)
            return i;
    }
    return lastPositive;
}

} // namespace rwb::model
