#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace rwb::util {

// One step of splitmix64 (Steele, Lea, Flood 2014): advances `state` and returns a
// well-mixed 64-bit value. Used to seed Rng and to derive independent streams.
uint64_t splitMix64(uint64_t &state);

// FNV-1a over the bytes of `bytes`, 64-bit. Stable across platforms and runs (unlike
// std::hash), so it can decide things that must never change, such as data splits.
uint64_t fnv1a64(std::string_view bytes);

// xoshiro256** (Blackman, Vigna 2018), seeded through splitmix64.
//
// Every result is defined by this code alone, bit for bit, on every platform:
// no std::*_distribution (their algorithms are implementation-defined), only integer
// arithmetic and one exact conversion to double. Not thread-safe; one Rng per thread.
class Rng {
public:
    explicit Rng(uint64_t seed);
    // An independent stream for (seed, a, b): e.g. (user seed, split, item index), so
    // that item i comes out the same whatever was drawn for the items before it.
    static Rng forStream(uint64_t seed, uint64_t a, uint64_t b);

    uint64_t next();
    // Uniform in [0, n); n must be > 0. Unbiased (rejection sampling).
    uint64_t below(uint64_t n);
    // Uniform in [lo, hi], inclusive.
    int64_t between(int64_t lo, int64_t hi);
    // Uniform in [0, 1), 53 random bits.
    double unit();
    // True with probability p (p ≤ 0: never, p ≥ 1: always).
    bool chance(double p);
    // An index drawn with probability weights[i] / Σ weights (integers, so that no
    // floating-point rounding can differ between compilers); not all zero.
    size_t weighted(std::initializer_list<uint32_t> weights);
    size_t weighted(const std::vector<uint32_t> &weights);

    // A uniformly chosen element of a non-empty container.
    template <typename C>
    const auto &pick(const C &items)
    {
        return items[static_cast<size_t>(below(static_cast<uint64_t>(std::size(items))))];
    }

private:
    uint64_t m_s[4];
};

} // namespace rwb::util
