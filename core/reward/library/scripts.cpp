#include "reward/library/scripts.h"

#include <algorithm>
#include <iterator>
#include <utf8proc.h>

namespace rwb::reward::library {

namespace {

struct Range {
    char32_t first;
    char32_t last;
    Script script;
};

// The blocks of each script (Unicode 15's Scripts.txt, whole blocks where a block's letters
// are all of one script), sorted and disjoint. Only letters are looked up here.
constexpr Range kRanges[] = {
    {0x0041, 0x005A, Script::Latin},       {0x0061, 0x007A, Script::Latin},
    {0x00AA, 0x00AA, Script::Latin},       {0x00BA, 0x00BA, Script::Latin},
    {0x00C0, 0x00D6, Script::Latin},       {0x00D8, 0x00F6, Script::Latin},
    {0x00F8, 0x02B8, Script::Latin},       {0x02B9, 0x02DF, Script::Common},
    {0x02E0, 0x02E4, Script::Latin},       {0x0370, 0x03E1, Script::Greek},
    {0x03F0, 0x03FF, Script::Greek},       {0x0400, 0x052F, Script::Cyrillic},
    {0x0531, 0x058F, Script::Armenian},    {0x0591, 0x05F4, Script::Hebrew},
    {0x0600, 0x063F, Script::Arabic},      {0x0640, 0x0640, Script::Common},
    {0x0641, 0x06FF, Script::Arabic},      {0x0750, 0x077F, Script::Arabic},
    {0x0870, 0x08FF, Script::Arabic},      {0x0900, 0x097F, Script::Devanagari},
    {0x0980, 0x09FF, Script::Bengali},     {0x0A00, 0x0B7F, Script::OtherIndic},
    {0x0B80, 0x0BFF, Script::Tamil},       {0x0C00, 0x0DFF, Script::OtherIndic},
    {0x0E01, 0x0E5B, Script::Thai},        {0x0E81, 0x0EDF, Script::Lao},
    {0x10A0, 0x10FF, Script::Georgian},    {0x1100, 0x11FF, Script::Hangul},
    {0x1C80, 0x1C88, Script::Cyrillic},    {0x1C90, 0x1CBF, Script::Georgian},
    {0x1D00, 0x1D25, Script::Latin},       {0x1D26, 0x1D2A, Script::Greek},
    {0x1D2B, 0x1D2B, Script::Cyrillic},    {0x1D2C, 0x1D5C, Script::Latin},
    {0x1D5D, 0x1D61, Script::Greek},       {0x1D62, 0x1D65, Script::Latin},
    {0x1D66, 0x1D6A, Script::Greek},       {0x1D6B, 0x1D77, Script::Latin},
    {0x1D78, 0x1D78, Script::Cyrillic},    {0x1D79, 0x1DBE, Script::Latin},
    {0x1DBF, 0x1DBF, Script::Greek},       {0x1E00, 0x1EFF, Script::Latin},
    {0x1F00, 0x1FFE, Script::Greek},       {0x2071, 0x2071, Script::Latin},
    {0x207F, 0x207F, Script::Latin},       {0x2090, 0x209C, Script::Latin},
    {0x2126, 0x2126, Script::Greek},       {0x212A, 0x212B, Script::Latin},
    {0x2132, 0x2132, Script::Latin},       {0x214E, 0x214E, Script::Latin},
    {0x2C60, 0x2C7F, Script::Latin},       {0x2D00, 0x2D2D, Script::Georgian},
    {0x2DE0, 0x2DFF, Script::Cyrillic},    {0x2E80, 0x2FD5, Script::Han},
    {0x3005, 0x3005, Script::Han},         {0x3006, 0x3006, Script::Han},
    {0x3007, 0x3007, Script::Han},         {0x3021, 0x3029, Script::Han},
    {0x3031, 0x3035, Script::Common},      {0x3038, 0x303B, Script::Han},
    {0x3041, 0x3096, Script::Hiragana},    {0x309D, 0x309F, Script::Hiragana},
    {0x30A1, 0x30FA, Script::Katakana},    {0x30FC, 0x30FC, Script::Common},
    {0x30FD, 0x30FF, Script::Katakana},    {0x3131, 0x318E, Script::Hangul},
    {0x31F0, 0x31FF, Script::Katakana},    {0x3400, 0x4DBF, Script::Han},
    {0x4E00, 0x9FFF, Script::Han},         {0xA640, 0xA69F, Script::Cyrillic},
    {0xA722, 0xA7FF, Script::Latin},       {0xA8E0, 0xA8FF, Script::Devanagari},
    {0xA960, 0xA97C, Script::Hangul},      {0xAB30, 0xAB64, Script::Latin},
    {0xAB65, 0xAB65, Script::Greek},       {0xAC00, 0xD7A3, Script::Hangul},
    {0xD7B0, 0xD7FB, Script::Hangul},      {0xF900, 0xFAFF, Script::Han},
    {0xFB00, 0xFB06, Script::Latin},       {0xFB13, 0xFB17, Script::Armenian},
    {0xFB1D, 0xFB4F, Script::Hebrew},      {0xFB50, 0xFDFF, Script::Arabic},
    {0xFE70, 0xFEFF, Script::Arabic},      {0xFF21, 0xFF3A, Script::Latin},
    {0xFF41, 0xFF5A, Script::Latin},       {0xFF66, 0xFF6F, Script::Katakana},
    {0xFF70, 0xFF70, Script::Common},      {0xFF71, 0xFF9D, Script::Katakana},
    {0xFF9E, 0xFF9F, Script::Common},      {0xFFA0, 0xFFDC, Script::Hangul},
    {0x1AFF0, 0x1AFFE, Script::Katakana},  {0x1B000, 0x1B000, Script::Katakana},
    {0x1B001, 0x1B11F, Script::Hiragana},  {0x1B120, 0x1B122, Script::Katakana},
    {0x1B150, 0x1B152, Script::Hiragana},  {0x1B164, 0x1B167, Script::Katakana},
    {0x1EE00, 0x1EEFF, Script::Arabic},    {0x20000, 0x2FA1F, Script::Han},
    {0x30000, 0x323AF, Script::Han},
};

constexpr bool sortedAndDisjoint()
{
    for (size_t i = 0; i < std::size(kRanges); ++i)
        if (kRanges[i].first > kRanges[i].last || (i > 0 && kRanges[i - 1].last >= kRanges[i].first))
            return false;
    return true;
}
static_assert(sortedAndDisjoint(), "kRanges must be sorted and disjoint (scriptOf searches it)");

} // namespace

bool isLetter(char32_t c)
{
    switch (utf8proc_category(static_cast<utf8proc_int32_t>(c))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
        return true;
    default:
        return false;
    }
}

Script scriptOf(char32_t c)
{
    const auto it = std::upper_bound(std::begin(kRanges), std::end(kRanges), c,
                                     [](char32_t v, const Range &r) { return v < r.first; });
    if (it == std::begin(kRanges))
        return Script::Other;
    const Range &r = *std::prev(it);
    return c <= r.last ? r.script : Script::Other;
}

std::string_view scriptName(Script script)
{
    switch (script) {
    case Script::Latin: return "Latin";
    case Script::Greek: return "Greek";
    case Script::Cyrillic: return "Cyrillic";
    case Script::Armenian: return "Armenian";
    case Script::Hebrew: return "Hebrew";
    case Script::Arabic: return "Arabic";
    case Script::Devanagari: return "Devanagari";
    case Script::Bengali: return "Bengali";
    case Script::Tamil: return "Tamil";
    case Script::OtherIndic: return "other Indic";
    case Script::Thai: return "Thai";
    case Script::Lao: return "Lao";
    case Script::Georgian: return "Georgian";
    case Script::Hangul: return "Hangul";
    case Script::Hiragana: return "Hiragana";
    case Script::Katakana: return "Katakana";
    case Script::Han: return "Han";
    case Script::Common: return "common";
    case Script::Other: return "other";
    }
    return "other";
}

} // namespace rwb::reward::library
