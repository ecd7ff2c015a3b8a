#include "text/normalize.h"

#include "text/utf8.h"

#include <cstdlib>
#include <memory>
#include <utf8proc.h>

namespace rwb::text {

namespace {

bool isAscii(std::string_view s)
{
    for (unsigned char c : s)
        if (c >= 0x80)
            return false;
    return true;
}

std::string nfkcValid(std::string_view utf8)
{
    utf8proc_uint8_t *out = nullptr;
    const auto options = static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT);
    const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t *>(utf8.data()),
                                            static_cast<utf8proc_ssize_t>(utf8.size()), &out, options);
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> guard(out, &std::free);
    if (n < 0)
        return {};
    return std::string(reinterpret_cast<const char *>(out), static_cast<size_t>(n));
}

} // namespace

std::string nfkc(std::string_view utf8)
{
    if (isAscii(utf8))
        return std::string(utf8);
    // utf8proc rejects invalid UTF-8 as a whole; repair it first so that one bad
    // byte costs one U+FFFD, not the whole string.
    const std::string valid = encodeUtf8(decodeUtf8(utf8));
    return nfkcValid(valid);
}

std::u32string normalize32(std::string_view utf8)
{
    std::u32string out;
    if (isAscii(utf8)) {
        out.reserve(utf8.size());
        for (unsigned char c : utf8)
            if (!isWhiteSpace(c))
                out.push_back(c);
        return out;
    }
    const std::u32string cps = decodeUtf8(nfkc(utf8));
    out.reserve(cps.size());
    for (char32_t c : cps)
        if (!isWhiteSpace(c))
            out.push_back(c);
    return out;
}

std::string normalize(std::string_view utf8)
{
    return encodeUtf8(normalize32(utf8));
}

} // namespace rwb::text
