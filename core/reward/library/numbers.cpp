#include "reward/library/numbers.h"

#include "text/normalize.h"
#include "text/unicodeform.h"

#include <charconv>
#include <cmath>

namespace rwb::reward::library {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isAsciiAlnum(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// U+2212 MINUS SIGN, which NFKC keeps.
constexpr std::string_view kMinusSign = "\xE2\x88\x92";

size_t digitsFrom(std::string_view s, size_t i)
{
    while (i < s.size() && isDigit(s[i]))
        ++i;
    return i;
}

std::optional<double> toDouble(const std::string &plain)
{
    double v = 0.0;
    const auto r = std::from_chars(plain.data(), plain.data() + plain.size(), v);
    if (r.ec != std::errc() || r.ptr != plain.data() + plain.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

// The number that starts at `i` (a digit, or a '.' before one), its sign looked for before
// `i`; sets `end` to the byte after it. None when what is there reads as no finite number.
std::optional<FoundNumber> numberAt(std::string_view s, size_t i, size_t &end)
{
    // The sign: directly before, itself not after a letter or digit ("x-5" and "3-5" read 5).
    size_t begin = i;
    bool negative = false;
    if (i >= 1 && (s[i - 1] == '-' || s[i - 1] == '+') && (i < 2 || !isAsciiAlnum(s[i - 2]))) {
        begin = i - 1;
        negative = s[i - 1] == '-';
    } else if (i >= kMinusSign.size() && s.substr(i - kMinusSign.size(), kMinusSign.size()) == kMinusSign &&
               (i == kMinusSign.size() || !isAsciiAlnum(s[i - kMinusSign.size() - 1]))) {
        begin = i - kMinusSign.size();
        negative = true;
    }

    std::string plain = negative ? "-" : "";
    size_t j = i;
    bool whole = true; // digits only, no separators, decimals or exponent: a fraction's part
    if (isDigit(s[j])) {
        const size_t intEnd = digitsFrom(s, j);
        plain.append(s.substr(j, intEnd - j));
        j = intEnd;
        // Thousands separators: 1 to 3 digits, then groups of exactly three.
        if (intEnd - i <= 3)
            while (j + 4 <= s.size() && s[j] == ',' && digitsFrom(s, j + 1) == j + 4) {
                plain.append(s.substr(j + 1, 3));
                j += 4;
                whole = false;
            }
    }
    if (j + 1 < s.size() && s[j] == '.' && isDigit(s[j + 1])) {
        const size_t fracEnd = digitsFrom(s, j + 1);
        plain.append(s.substr(j, fracEnd - j));
        j = fracEnd;
        whole = false;
    }
    if (j < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        size_t k = j + 1;
        if (k < s.size() && (s[k] == '+' || s[k] == '-'))
            ++k;
        if (k < s.size() && isDigit(s[k])) {
            const size_t expEnd = digitsFrom(s, k);
            plain += 'e';
            plain.append(s.substr(j + 1, expEnd - j - 1));
            j = expEnd;
            whole = false;
        }
    }
    std::optional<double> value = toDouble(plain);
    if (whole && j + 1 < s.size() && s[j] == '/' && isDigit(s[j + 1])) {
        const size_t denEnd = digitsFrom(s, j + 1);
        const std::optional<double> den = toDouble(std::string(s.substr(j + 1, denEnd - j - 1)));
        if (value && den && *den != 0.0) {
            value = *value / *den;
            j = denEnd;
        }
    }
    if (j < s.size() && s[j] == '%')
        ++j;
    end = j;
    if (!value)
        return std::nullopt;
    return FoundNumber{*value, std::string(s.substr(begin, j - begin))};
}

} // namespace

std::optional<FoundNumber> lastNumber(std::string_view text)
{
    const std::string s = text::nfkc(text::validUtf8(text));
    std::optional<FoundNumber> last;
    size_t i = 0;
    while (i < s.size()) {
        const bool startsDigit = isDigit(s[i]);
        // ".5", but not the ".3" of "1.2.3", whose "1.2" was read before it.
        const bool startsDecimal =
            s[i] == '.' && i + 1 < s.size() && isDigit(s[i + 1]) && (i == 0 || !isDigit(s[i - 1]));
        if (!startsDigit && !startsDecimal) {
            ++i;
            continue;
        }
        size_t end = i + 1;
        if (std::optional<FoundNumber> n = numberAt(s, i, end))
            last = std::move(n);
        i = end;
    }
    return last;
}

} // namespace rwb::reward::library
