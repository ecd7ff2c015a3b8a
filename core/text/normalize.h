#pragma once

#include <string>
#include <string_view>

namespace rwb::text {

// The comparison form of the first paper (§2.4): Unicode NFKC, then every
// white-space character removed (ASCII white space, newlines, U+3000, ...).
// NFKC folds full-width letters and digits to ASCII and turns ㈱ and （株） into (株).
// Case is kept. Invalid UTF-8 is replaced by U+FFFD first. Thread-safe.
std::u32string normalize32(std::string_view utf8);
std::string normalize(std::string_view utf8);

// NFKC alone, without removing white space.
std::string nfkc(std::string_view utf8);

} // namespace rwb::text
