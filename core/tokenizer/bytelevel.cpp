#include "tokenizer/bytelevel.h"

#include <array>

namespace rwb::tokenizer {

namespace {

// Bytes that stand for themselves in GPT-2's alphabet.
constexpr bool isPrintableByte(int b)
{
    return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

struct Tables {
    std::array<char32_t, 256> toChar{};
    // Indexed by code point for U+0000..U+0143; -1 where not in the alphabet.
    std::array<int16_t, 0x144> toByte{};
};

constexpr Tables makeTables()
{
    Tables t;
    for (auto &b : t.toByte)
        b = -1;
    int n = 0;
    for (int b = 0; b < 256; ++b) {
        const char32_t c = isPrintableByte(b) ? static_cast<char32_t>(b) : static_cast<char32_t>(0x100 + n++);
        t.toChar[b] = c;
        t.toByte[c] = static_cast<int16_t>(b);
    }
    return t;
}

constexpr Tables kTables = makeTables();
static_assert(kTables.toChar[' '] == 0x120 && kTables.toChar['\n'] == 0x10A && kTables.toChar[0xAD] == 0x143);

void appendUtf8(std::string &out, char32_t c)
{
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        // Only code points below U+0800 occur in the alphabet.
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

} // namespace

char32_t byteToChar(uint8_t byte)
{
    return kTables.toChar[byte];
}

int charToByte(char32_t c)
{
    return c < kTables.toByte.size() ? kTables.toByte[c] : -1;
}

std::string bytesToByteLevel(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (unsigned char b : bytes)
        appendUtf8(out, kTables.toChar[b]);
    return out;
}

std::string byteLevelToBytes(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            const int b = charToByte(c);
            out.push_back(static_cast<char>(b >= 0 ? b : c));
            ++i;
            continue;
        }
        // The alphabet only has one- and two-byte characters; anything else is copied.
        if ((c & 0xE0) == 0xC0 && i + 1 < s.size() && (p[i + 1] & 0xC0) == 0x80) {
            const char32_t cp = (static_cast<char32_t>(c & 0x1F) << 6) | (p[i + 1] & 0x3F);
            const int b = charToByte(cp);
            if (b >= 0) {
                out.push_back(static_cast<char>(b));
            } else {
                out.append(s.substr(i, 2));
            }
            i += 2;
            continue;
        }
        out.push_back(static_cast<char>(c));
        ++i;
    }
    return out;
}

} // namespace rwb::tokenizer
