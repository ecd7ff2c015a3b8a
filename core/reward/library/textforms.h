#pragma once

// The text forms the generic components compare (docs/rewards.md gives each definition).
// Every function takes any bytes: invalid UTF-8 is read as U+FFFD. Thread-safe.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::reward::library {

// Lower case, code point by code point (Unicode's simple case mapping).
std::string lowerCase(std::string_view text);

// White space (Unicode White_Space) removed at both ends and each run of it inside made
// one space.
std::string collapseWhiteSpace(std::string_view text);

// exact_match's comparison form. With `normalize`: Unicode NFKC, white space trimmed and
// collapsed, every trailing '.' and '。' (and white space left before them) removed. Then,
// unless `caseSensitive`, lower case. Without either, the text as it is.
std::string comparisonForm(std::string_view text, bool normalize, bool caseSensitive);

// The pieces of `text` between runs of white space.
std::vector<std::string> wordsOf(std::string_view text);

// f1's units. Tokens, as SQuAD's evaluation script makes them: NFKC, lower case,
// punctuation and symbols (Unicode categories P* and S*) removed, split at white space,
// the articles "a", "an" and "the" dropped. Characters: NFKC, lower case, punctuation,
// symbols and white space removed, each code point left one unit.
std::vector<std::string> f1Tokens(std::string_view text);
std::vector<std::string> f1Chars(std::string_view text);

// Multiset overlap of two unit lists: |A ∩ B| / |A| (precision), / |B| (recall), and their
// harmonic mean. Both empty: all 1; exactly one empty or nothing shared: all 0.
struct Overlap {
    size_t common = 0;
    double precision = 0.0;
    double recall = 0.0;
    double f1 = 0.0;
};
Overlap overlap(const std::vector<std::string> &answer, const std::vector<std::string> &reference);

// What a JSON component parses of a reply: with `fences`, the inside of the first
// ``` fenced block (its opening line may name a language, ```json) when the text has one;
// otherwise, or without `fences`, the whole text; white space trimmed either way.
std::string_view jsonPayload(std::string_view text, bool fences);

// The number written shortest so that it reads back the same ("0.1", "1234", "1e+21").
std::string formatNumber(double value);
// A value in [0, 1] rounded to 3 decimals, trailing zeros dropped ("0.667", "1").
std::string formatShare(double value);
// At most `maxChars` code points of `text`, "…" added when cut; line breaks shown as "⏎".
std::string clipped(std::string_view text, size_t maxChars = 60);
// The items joined by ", "; "—" when there are none.
std::string listed(const std::vector<std::string> &items);

} // namespace rwb::reward::library
