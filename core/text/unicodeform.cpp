#include "text/unicodeform.h"

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

} // namespace

bool isValidUtf8(std::string_view text)
{
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len = 0;
        char32_t cp = 0;
        char32_t min = 0;
        if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return false;
        if (i + len > n)
            return false;
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

std::string validUtf8(std::string_view text)
{
    if (isValidUtf8(text))
        return std::string(text);
    return encodeUtf8(decodeUtf8(text));
}

std::string toUnicodeForm(std::string_view text, UnicodeForm form)
{
    if (isAscii(text))
        return std::string(text);
    int options = UTF8PROC_STABLE;
    switch (form) {
    case UnicodeForm::NFC: options |= UTF8PROC_COMPOSE; break;
    case UnicodeForm::NFD: options |= UTF8PROC_DECOMPOSE; break;
    case UnicodeForm::NFKC: options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT; break;
    case UnicodeForm::NFKD: options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT; break;
    }
    // utf8proc rejects ill-formed input as a whole: repair it first.
    const std::string valid = validUtf8(text);
    utf8proc_uint8_t *out = nullptr;
    const utf8proc_ssize_t n =
        utf8proc_map(reinterpret_cast<const utf8proc_uint8_t *>(valid.data()), static_cast<utf8proc_ssize_t>(valid.size()),
                     &out, static_cast<utf8proc_option_t>(options));
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> guard(out, &std::free);
    if (n < 0)
        return valid; // out of memory or a utf8proc bug: keep the text rather than lose it
    return std::string(reinterpret_cast<const char *>(out), static_cast<size_t>(n));
}

std::string toUnicodeForms(std::string_view text, const std::vector<UnicodeForm> &forms)
{
    std::string s(text);
    for (UnicodeForm f : forms)
        s = toUnicodeForm(s, f);
    return s;
}

} // namespace rwb::text
