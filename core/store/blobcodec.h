#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::store {

// The run store keeps per-token arrays as compact BLOBs: the values back to back as
// little-endian float32 or int32, 4 bytes each, no header (length = bytes / 4). These
// functions are exact: decode(encode(v)) == v bit for bit, NaN payloads included.
class BlobCodec {
public:
    static std::string encode(const std::vector<float> &values);
    static std::string encode(const std::vector<int32_t> &values);
    // Throw std::invalid_argument when the size is not a multiple of 4.
    static std::vector<float> decodeFloats(std::string_view bytes);
    static std::vector<int32_t> decodeInts(std::string_view bytes);
};

} // namespace rwb::store
