#include "text/utf8.h"

namespace rwb::text {

namespace {
// Substituted for anything that is not valid UTF-8 or not a scalar value.
constexpr char32_t kReplacement = 0xFFFD;
} // namespace

std::pair<char32_t, size_t> decodeCharAt(std::string_view s, size_t i)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const size_t n = s.size();
    const unsigned char c = p[i];
    if (c < 0x80)
        return {c, 1};
    // The well-formed sequences of Unicode's table 3-7: the lead byte fixes the length
    // and the range of the second byte (which rules out overlong forms, surrogates
    // and values above U+10FFFF); later bytes are plain continuation bytes.
    int len = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    if (len == 0) // C0, C1, F5..FF and a stray continuation byte start no well-formed sequence
        return {kReplacement, 1};
    // A sequence broken after k bytes costs one U+FFFD for its maximal subpart (the
    // longest prefix that could still have been well-formed), and decoding resumes at
    // the byte that broke it (Unicode §3.9, "U+FFFD substitution of maximal subparts").
    char32_t cp = c & (0xFF >> (len + 1));
    int k = 1;
    while (k < len && i + k < n) {
        const unsigned char b = p[i + k];
        if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF))
            break;
        cp = (cp << 6) | (b & 0x3F);
        ++k;
    }
    return {k < len ? kReplacement : cp, static_cast<size_t>(k)};
}

std::u32string decodeUtf8(std::string_view s)
{
    std::u32string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const auto [c, len] = decodeCharAt(s, i);
        out.push_back(c);
        i += len;
    }
    return out;
}

std::string encodeUtf8(std::u32string_view cps)
{
    std::string out;
    out.reserve(cps.size() * 3);
    for (char32_t c : cps) {
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            c = kReplacement;
        if (c < 0x80) {
            out.push_back(static_cast<char>(c));
        } else if (c < 0x800) {
            out.push_back(static_cast<char>(0xC0 | (c >> 6)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else if (c < 0x10000) {
            out.push_back(static_cast<char>(0xE0 | (c >> 12)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        } else {
            out.push_back(static_cast<char>(0xF0 | (c >> 18)));
            out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
            out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
    }
    return out;
}

bool isWhiteSpace(char32_t c)
{
    if (c <= 0x20)
        return c == 0x20 || (c >= 0x09 && c <= 0x0D);
    if (c < 0x85)
        return false;
    switch (c) {
    case 0x85: case 0xA0: case 0x1680: case 0x2028: case 0x2029:
    case 0x202F: case 0x205F: case 0x3000:
        return true;
    default:
        return c >= 0x2000 && c <= 0x200A;
    }
}

bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trimmedAscii(std::string_view s)
{
    while (!s.empty() && isAsciiSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isAsciiSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

std::string trimmed(std::string_view s)
{
    const std::u32string cps = decodeUtf8(s);
    size_t b = 0;
    size_t e = cps.size();
    while (b < e && isWhiteSpace(cps[b]))
        ++b;
    while (e > b && isWhiteSpace(cps[e - 1]))
        --e;
    // Fast path: nothing to trim and the input was valid; keep the original bytes.
    if (b == 0 && e == cps.size() && encodeUtf8(cps).size() == s.size())
        return std::string(s);
    return encodeUtf8(std::u32string_view(cps).substr(b, e - b));
}

} // namespace rwb::text
