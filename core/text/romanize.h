#pragma once

#include <string>
#include <string_view>

namespace rwb::text {

// Kanji and kana to lower-case romaji with KAKASI (Hepburn, as KAKASI writes it):
// the text is NFKC-folded, converted to EUC-JP, romanized, lower-cased, and every
// character that is not an ASCII letter or digit is dropped (including the `^`
// KAKASI writes for the long-vowel mark ー). Characters that EUC-JP cannot hold
// are dropped. ASCII letters and digits pass through lower-cased.
//
// Thread-safe: KAKASI keeps global state, so calls are serialized behind a mutex
// and results are cached (the cache is bounded).
// Throws std::runtime_error if KAKASI's dictionary cannot be opened.
std::string romanize(std::string_view utf8);

} // namespace rwb::text
