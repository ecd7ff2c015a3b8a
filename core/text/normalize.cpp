#include "text/normalize.h"

#include "text/unicodeform.h"
#include "text/utf8.h"


namespace rwb::text {

namespace {

bool isAscii(std::string_view s)
{
    for (unsigned char c : s)
        if (c >= 0x80)
            return false;
    return true;
}

} // namespace

std::string nfkc(std::string_view utf8)
{
    return toUnicodeForm(utf8, UnicodeForm::NFKC);
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
