#include "store/blobcodec.h"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace rwb::store {

namespace {

template <typename T>
std::string encodeWords(const std::vector<T> &values)
{
    static_assert(sizeof(T) == 4);
    std::string out(values.size() * 4, '\0');
    if constexpr (std::endian::native == std::endian::little) {
        if (!values.empty())
            std::memcpy(out.data(), values.data(), out.size());
    } else {
        for (size_t i = 0; i < values.size(); ++i) {
            const auto w = std::bit_cast<uint32_t>(values[i]);
            for (int b = 0; b < 4; ++b)
                out[4 * i + b] = static_cast<char>((w >> (8 * b)) & 0xffu);
        }
    }
    return out;
}

template <typename T>
std::vector<T> decodeWords(std::string_view bytes)
{
    if (bytes.size() % 4 != 0)
        throw std::invalid_argument("a per-token array of " + std::to_string(bytes.size()) +
                                    " bytes is not a whole number of 4-byte values");
    std::vector<T> out(bytes.size() / 4);
    if constexpr (std::endian::native == std::endian::little) {
        if (!out.empty())
            std::memcpy(out.data(), bytes.data(), bytes.size());
    } else {
        for (size_t i = 0; i < out.size(); ++i) {
            uint32_t w = 0;
            for (int b = 0; b < 4; ++b)
                w |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[4 * i + b])) << (8 * b);
            out[i] = std::bit_cast<T>(w);
        }
    }
    return out;
}

} // namespace

std::string BlobCodec::encode(const std::vector<float> &values) { return encodeWords(values); }
std::string BlobCodec::encode(const std::vector<int32_t> &values) { return encodeWords(values); }
std::vector<float> BlobCodec::decodeFloats(std::string_view bytes) { return decodeWords<float>(bytes); }
std::vector<int32_t> BlobCodec::decodeInts(std::string_view bytes) { return decodeWords<int32_t>(bytes); }

} // namespace rwb::store
