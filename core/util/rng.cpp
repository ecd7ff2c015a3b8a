#include "util/rng.h"

#include <stdexcept>

namespace rwb::util {

namespace {

uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

} // namespace

uint64_t splitMix64(uint64_t &state)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t fnv1a64(std::string_view bytes)
{
    uint64_t h = 0xCBF29CE484222325ULL;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001B3ULL;
    }
    return h;
}

Rng::Rng(uint64_t seed)
{
    uint64_t s = seed;
    for (uint64_t &word : m_s)
        word = splitMix64(s);
}

Rng Rng::forStream(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t s = seed;
    uint64_t mixed = splitMix64(s);
    s = mixed ^ a;
    mixed = splitMix64(s);
    s = mixed ^ b;
    return Rng(splitMix64(s));
}

uint64_t Rng::next()
{
    const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

uint64_t Rng::below(uint64_t n)
{
    if (n == 0)
        throw std::invalid_argument("Rng::below: n must be > 0");
    // Reject the lowest (2^64 mod n) values so that every residue is equally likely.
    const uint64_t threshold = (0 - n) % n;
    for (;;) {
        const uint64_t r = next();
        if (r >= threshold)
            return r % n;
    }
}

int64_t Rng::between(int64_t lo, int64_t hi)
{
    if (hi < lo)
        throw std::invalid_argument("Rng::between: hi < lo");
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    if (span == UINT64_MAX)
        return static_cast<int64_t>(next());
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + below(span + 1));
}

double Rng::unit()
{
    // 53 bits → exactly representable; the product by 2^-53 is exact.
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

bool Rng::chance(double p)
{
    if (p <= 0.0)
        return false;
    if (p >= 1.0)
        return true;
    return unit() < p;
}

size_t Rng::weighted(std::initializer_list<uint32_t> weights)
{
    return weighted(std::vector<uint32_t>(weights));
}

size_t Rng::weighted(const std::vector<uint32_t> &weights)
{
    uint64_t total = 0;
    for (uint32_t w : weights)
        total += w;
    if (total == 0)
        throw std::invalid_argument("Rng::weighted: no positive weight");
    uint64_t x = below(total);
    for (size_t i = 0; i < weights.size(); ++i) {
        if (x < weights[i])
            return i;
        x -= weights[i];
    }
    return weights.size() - 1; // unreachable
}

} // namespace rwb::util
