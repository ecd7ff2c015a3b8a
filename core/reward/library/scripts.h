#pragma once

// Which writing system a letter belongs to: the Unicode Script property, for the scripts
// `language` tells apart and a few more it names in its explanation. Script identification
// only: it cannot tell English from French, or Japanese kanji from Chinese hanzi.

#include <string_view>

namespace rwb::reward::library {

enum class Script {
    Latin,
    Greek,
    Cyrillic,
    Armenian,
    Hebrew,
    Arabic,
    Devanagari,
    Bengali,
    Tamil,
    OtherIndic, // Gurmukhi, Gujarati, Oriya, Telugu, Kannada, Malayalam, Sinhala
    Thai,
    Lao,
    Georgian,
    Hangul,
    Hiragana,
    Katakana,
    Han,
    Common, // a letter of no one script (ー, the Arabic tatweel): counted in no share
    Other,  // a letter of a script not listed here
};

// True for a letter: Unicode general category L* (Lu, Ll, Lt, Lm, Lo).
bool isLetter(char32_t c);
// The script of a letter; Other for one of a script not listed (and for a non-letter).
Script scriptOf(char32_t c);
// "Latin", "Hiragana", "other Indic", "other".
std::string_view scriptName(Script script);

} // namespace rwb::reward::library
