#include "model/dtype.h"

#include <array>
#include <bit>
#include <cmath>
#include <utility>

namespace rwb::model {

namespace {
// The table behind dtypeSize(), dtypeName() and parseDType(), in enum order.
constexpr std::array<std::pair<std::string_view, size_t>, 12> kDTypes = {{
    {"F64", 8},
    {"F32", 4},
    {"F16", 2},
    {"BF16", 2},
    {"I64", 8},
    {"I32", 4},
    {"I16", 2},
    {"I8", 1},
    {"U8", 1},
    {"BOOL", 1},
    {"F8_E4M3", 1},
    {"F8_E5M2", 1},
}};
} // namespace

size_t dtypeSize(DType type)
{
    return kDTypes.at(static_cast<size_t>(type)).second;
}

std::string_view dtypeName(DType type)
{
    return kDTypes.at(static_cast<size_t>(type)).first;
}

std::optional<DType> parseDType(std::string_view name)
{
    for (size_t i = 0; i < kDTypes.size(); ++i) {
        if (kDTypes[i].first == name)
            return static_cast<DType>(i);
    }
    return std::nullopt;
}

float bf16ToFloat(uint16_t bits)
{
    return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint16_t floatToBf16(float value)
{
    const uint32_t x = std::bit_cast<uint32_t>(value);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) // NaN: keep the sign and the top payload bits, set quiet
        return static_cast<uint16_t>((x >> 16) | 0x0040u);
    // Adding 0x7FFF plus the lowest kept bit rounds to nearest with ties to even; a carry
    // out of the mantissa moves into the exponent, which is what rounding up should do.
    const uint32_t rounded = x + 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(rounded >> 16);
}

float f16ToFloat(uint16_t bits)
{
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    const uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0) {
        // ±0 or a subnormal: mantissa × 2^-24, exact in float.
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) // ±inf or NaN (the payload moves to the top of float's mantissa)
        return std::bit_cast<float>(sign | 0x7F800000u | (mantissa << 13));
    // Rebias the exponent from 15 to 127.
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToF16(float value)
{
    const uint32_t x = std::bit_cast<uint32_t>(value);
    const auto sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t ax = x & 0x7FFFFFFFu;
    if (ax > 0x7F800000u) // NaN: quiet, top payload bits kept
        return static_cast<uint16_t>(sign | 0x7E00u | ((ax >> 13) & 0x3FFu));
    // 65520 is halfway between 65504 (the largest half) and 65536; 65504's mantissa is odd,
    // so the tie and everything above it round to infinity.
    if (ax >= 0x477FF000u)
        return static_cast<uint16_t>(sign | 0x7C00u);
    const uint32_t exponent = ax >> 23; // biased by 127
    const uint32_t mantissa = ax & 0x7FFFFFu;
    if (exponent < 113) {
        // Below 2^-14, the smallest normal half: a subnormal in units of 2^-24.
        // With the implicit bit, value = m × 2^(exponent - 150), so units = m >> (126 - exponent).
        const uint32_t shift = 126 - exponent;
        if (shift > 24) // below 2^-25, half the smallest subnormal: rounds to ±0
            return sign;
        const uint32_t m = mantissa | 0x800000u;
        uint32_t units = m >> shift;
        const uint32_t rest = m & ((1u << shift) - 1);
        const uint32_t half = 1u << (shift - 1);
        if (rest > half || (rest == half && (units & 1u)))
            ++units; // may become 0x400, which is the encoding of the smallest normal
        return static_cast<uint16_t>(sign | units);
    }
    uint32_t h = ((exponent - 112) << 10) | (mantissa >> 13);
    const uint32_t rest = mantissa & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h; // a carry into the exponent is correct rounding; 65520 and up were handled above
    return static_cast<uint16_t>(sign | h);
}

} // namespace rwb::model
