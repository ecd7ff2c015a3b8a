#include "reward/library/textforms.h"

#include "text/normalize.h"
#include "text/unicodeform.h"
#include "text/utf8.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <utf8proc.h>

namespace rwb::reward::library {

namespace {

char32_t lower(char32_t c)
{
    return static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c)));
}

// Unicode general categories P* (punctuation) and S* (symbols).
bool isPunctuationOrSymbol(char32_t c)
{
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
    case UTF8PROC_CATEGORY_SM:
    case UTF8PROC_CATEGORY_SC:
    case UTF8PROC_CATEGORY_SK:
    case UTF8PROC_CATEGORY_SO:
        return true;
    default:
        return false;
    }
}

// NFKC, lower case, punctuation and symbols removed: what both f1 units start from.
std::u32string f1Form(std::string_view text)
{
    std::u32string out;
    for (char32_t c : text::decodeUtf8(text::nfkc(text::validUtf8(text))))
        if (!isPunctuationOrSymbol(c))
            out.push_back(lower(c));
    return out;
}

std::vector<std::string> split(std::u32string_view cps)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < cps.size()) {
        while (i < cps.size() && text::isWhiteSpace(cps[i]))
            ++i;
        const size_t start = i;
        while (i < cps.size() && !text::isWhiteSpace(cps[i]))
            ++i;
        if (i > start)
            out.push_back(text::encodeUtf8(cps.substr(start, i - start)));
    }
    return out;
}

} // namespace

std::string lowerCase(std::string_view text)
{
    std::u32string cps = text::decodeUtf8(text);
    for (char32_t &c : cps)
        c = lower(c);
    return text::encodeUtf8(cps);
}

std::string collapseWhiteSpace(std::string_view text)
{
    std::string out;
    for (const std::string &w : split(text::decodeUtf8(text)))
        out += (out.empty() ? "" : " ") + w;
    return out;
}

std::string comparisonForm(std::string_view text, bool normalize, bool caseSensitive)
{
    std::string s(text);
    if (normalize) {
        s = collapseWhiteSpace(text::nfkc(text::validUtf8(s)));
        // "。" is U+3002, three bytes E3 80 82.
        for (bool cut = true; cut;) {
            cut = false;
            if (!s.empty() && (s.back() == '.' || s.back() == ' ')) {
                s.pop_back();
                cut = true;
            } else if (s.size() >= 3 && s.compare(s.size() - 3, 3, "\xE3\x80\x82") == 0) {
                s.resize(s.size() - 3);
                cut = true;
            }
        }
    }
    return caseSensitive ? s : lowerCase(s);
}

std::vector<std::string> wordsOf(std::string_view text)
{
    return split(text::decodeUtf8(text));
}

std::vector<std::string> f1Tokens(std::string_view text)
{
    std::vector<std::string> out;
    for (std::string &t : split(f1Form(text)))
        if (t != "a" && t != "an" && t != "the")
            out.push_back(std::move(t));
    return out;
}

std::vector<std::string> f1Chars(std::string_view text)
{
    std::vector<std::string> out;
    for (char32_t c : f1Form(text))
        if (!text::isWhiteSpace(c))
            out.push_back(text::encodeUtf8(std::u32string(1, c)));
    return out;
}

Overlap overlap(const std::vector<std::string> &answer, const std::vector<std::string> &reference)
{
    Overlap o;
    if (answer.empty() || reference.empty()) {
        const double v = answer.empty() && reference.empty() ? 1.0 : 0.0;
        o.precision = o.recall = o.f1 = v;
        return o;
    }
    std::map<std::string_view, size_t> counts;
    for (const std::string &u : reference)
        ++counts[u];
    for (const std::string &u : answer) {
        auto it = counts.find(u);
        if (it != counts.end() && it->second > 0) {
            --it->second;
            ++o.common;
        }
    }
    if (o.common == 0)
        return o;
    o.precision = static_cast<double>(o.common) / static_cast<double>(answer.size());
    o.recall = static_cast<double>(o.common) / static_cast<double>(reference.size());
    o.f1 = 2.0 * o.precision * o.recall / (o.precision + o.recall);
    return o;
}

std::string_view jsonPayload(std::string_view text, bool fences)
{
    if (fences) {
        const size_t open = text.find("```");
        if (open != std::string_view::npos) {
            size_t start = open + 3;
            // An opening line that holds only a language name ("json", "JSON", "") ends at its
            // line break; anything else there is already the content (```{"a": 1}```).
            size_t nameEnd = start;
            while (nameEnd < text.size() && (std::isalnum(static_cast<unsigned char>(text[nameEnd])) ||
                                             text[nameEnd] == '-' || text[nameEnd] == '_' || text[nameEnd] == '+'))
                ++nameEnd;
            size_t lineEnd = nameEnd;
            while (lineEnd < text.size() && (text[lineEnd] == ' ' || text[lineEnd] == '\t' || text[lineEnd] == '\r'))
                ++lineEnd;
            if (lineEnd < text.size() && text[lineEnd] == '\n')
                start = lineEnd + 1;
            const size_t close = text.find("```", start);
            text = text.substr(start, close == std::string_view::npos ? std::string_view::npos : close - start);
        }
    }
    return text::trimmedAscii(text);
}

std::string formatNumber(double value)
{
    if (value == 0.0)
        return "0"; // and not "-0"
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value);
    return std::string(buf, r.ptr);
}

std::string formatShare(double value)
{
    return formatNumber(std::round(value * 1000.0) / 1000.0);
}

std::string clipped(std::string_view text, size_t maxChars)
{
    const std::u32string cps = text::decodeUtf8(text);
    std::u32string out;
    for (size_t i = 0; i < cps.size() && i < maxChars; ++i)
        out += cps[i] == U'\n' ? U'⏎' : cps[i];
    std::string s = text::encodeUtf8(out);
    if (cps.size() > maxChars)
        s += "…";
    return s;
}

std::string listed(const std::vector<std::string> &items)
{
    if (items.empty())
        return "—";
    std::string out;
    for (const std::string &i : items)
        out += (out.empty() ? "" : ", ") + i;
    return out;
}

} // namespace rwb::reward::library
