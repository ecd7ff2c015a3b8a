#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rwb::text {

// The Unicode normalization forms a tokenizer's normalizer may ask for.
enum class UnicodeForm { NFC, NFD, NFKC, NFKD };

// True when `text` is well-formed UTF-8 (no overlongs, surrogates or values above U+10FFFF).
bool isValidUtf8(std::string_view text);

// `text` with every ill-formed sequence replaced by U+FFFD (text::decodeUtf8's rules);
// well-formed text comes back unchanged.
std::string validUtf8(std::string_view text);

// `text` (well-formed UTF-8) brought to `form` by utf8proc. ASCII text is returned as is.
// Thread-safe.
std::string toUnicodeForm(std::string_view text, UnicodeForm form);

// Applies the forms one after the other (a normalizer "Sequence").
std::string toUnicodeForms(std::string_view text, const std::vector<UnicodeForm> &forms);

} // namespace rwb::text
