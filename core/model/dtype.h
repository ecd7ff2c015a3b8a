#pragma once

// Element types of tensors as the safetensors format names them, and the bit-exact
// conversions between the 16-bit floats and float. Plain C++ (no libtorch), so that
// tools and tests can use it too. Every function is pure and may be called from any
// thread.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rwb::model {

// The dtypes of the safetensors format (the names in the file are in dtypeName()).
// F8_E4M3 and F8_E5M2 are read and written as raw bytes; nothing here computes with them.
enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL, F8_E4M3, F8_E5M2 };

// Bytes per element (BOOL is one byte).
size_t dtypeSize(DType type);

// The name used in a safetensors header: "F64", "F32", "F16", "BF16", "I64", "I32",
// "I16", "I8", "U8", "BOOL", "F8_E4M3", "F8_E5M2".
std::string_view dtypeName(DType type);

// The inverse of dtypeName(); exact and case-sensitive, as the format is.
// std::nullopt for any other string.
std::optional<DType> parseDType(std::string_view name);

// bfloat16 → float: exact (bf16 is the upper half of a float).
float bf16ToFloat(uint16_t bits);

// float → bfloat16, rounding to nearest, ties to even; values beyond the largest bf16
// round to ±inf as IEEE rounding says; NaN stays NaN (quiet, sign kept).
uint16_t floatToBf16(float value);

// IEEE half → float: exact, including subnormals, ±inf and NaN.
float f16ToFloat(uint16_t bits);

// float → IEEE half, rounding to nearest, ties to even: |x| ≥ 65520 becomes ±inf,
// values below the smallest normal become subnormals (or ±0), NaN stays NaN (quiet).
uint16_t floatToF16(float value);

} // namespace rwb::model
