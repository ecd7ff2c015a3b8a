#include "text/utf8.h"

namespace rwb::text {

namespace {
// Substituted for anything that is not valid UTF-8 or not a scalar value.
constexpr char32_t kReplacement = 0xFFFD;
} // namespace

std::u32string decodeUtf8(std::string_view s)
{
    std::u32string out;
    out.reserve(s.size());
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const size_t n = s.size();
    size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            out.push_back(c);
            ++i;
            continue;
        }
        int len = 0;
        char32_t cp = 0;
        char32_t min = 0;
        if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
        else { out.push_back(kReplacement); ++i; continue; }
        // A truncated or broken sequence costs one U+FFFD for its valid prefix
        // (the "maximal subpart" practice of Unicode §3.9).
        int k = 1;
        while (k < len && i + k < n && (p[i + k] & 0xC0) == 0x80) {
            cp = (cp << 6) | (p[i + k] & 0x3F);
            ++k;
        }
        if (k < len) {
            out.push_back(kReplacement);
            i += k;
            continue;
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            out.push_back(kReplacement);
            i += len;
            continue;
        }
        out.push_back(cp);
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
