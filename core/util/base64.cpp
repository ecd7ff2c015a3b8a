#include "util/base64.h"

#include <array>
#include <cstdint>

namespace rwb::util {

bool decodeBase64(const std::string &text, std::string &out)
{
    static const auto table = [] {
        std::array<int8_t, 256> t{};
        t.fill(-1);
        const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < 64; ++i)
            t[static_cast<unsigned char>(alphabet[i])] = static_cast<int8_t>(i);
        return t;
    }();
    size_t n = text.size();
    while (n > 0 && text[n - 1] == '=')
        --n;
    if (text.size() - n > 2 || n % 4 == 1)
        return false;
    out.clear();
    out.reserve(n * 3 / 4);
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; ++i) {
        const int v = table[static_cast<unsigned char>(text[i])];
        if (v < 0)
            return false;
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return true;
}

} // namespace rwb::util
