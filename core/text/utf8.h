#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace rwb::text {

// Decodes UTF-8 into code points. Invalid or truncated sequences become U+FFFD;
// decoding never fails and never reads past the input.
std::u32string decodeUtf8(std::string_view utf8);

// The character that starts at byte `i` of `utf8` (i < size) and the bytes it takes: a
// well-formed character, or U+FFFD for the maximal subpart of an ill-formed sequence (at
// least one byte). decodeUtf8 is this, character after character.
std::pair<char32_t, size_t> decodeCharAt(std::string_view utf8, size_t i);

// Encodes code points as UTF-8. Surrogates and values above U+10FFFF become U+FFFD.
std::string encodeUtf8(std::u32string_view codePoints);

// True for the Unicode White_Space property (ASCII white space, U+0085, U+00A0,
// U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F and the ideographic space U+3000).
bool isWhiteSpace(char32_t c);

// The text with white space removed from both ends (Unicode White_Space).
std::string trimmed(std::string_view utf8);

// ASCII white space: space, \t, \n, \r, \f, \v (whatever the C locale).
bool isAsciiSpace(char c);

// The text less ASCII white space at both ends (a view into `s`).
std::string_view trimmedAscii(std::string_view s);

} // namespace rwb::text
