#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rwb::tokenizer {

// The pre-tokenizer regex of Qwen2 / Qwen3 (and the BPE trainer): contractions, letters
// with one leading non-letter, digits one at a time, punctuation runs, line breaks, spaces.
inline constexpr const char *kQwenSplitRegex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

// The regex of GPT-2's ByteLevel pre-tokenizer (used when use_regex is true).
inline constexpr const char *kGpt2SplitRegex =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// A compiled Oniguruma regex over UTF-8 (Oniguruma syntax, no options: \s, \p{L}, \p{N}
// are Unicode-aware; (?i:…) and look-ahead work), as Hugging Face tokenizers runs it.
//
// Compiling is serialized on a process-wide mutex (text::onigurumaLock(), which text::Regex
// shares: Oniguruma forbids compiling on several threads at once); once built, matches()
// and split() may be called from any number of threads at the same time. Not copyable;
// movable.
class RegexSplitter {
public:
    // Throws std::invalid_argument with Oniguruma's message when the pattern does not compile.
    explicit RegexSplitter(const std::string &pattern);
    ~RegexSplitter();
    RegexSplitter(RegexSplitter &&other) noexcept;
    RegexSplitter &operator=(RegexSplitter &&other) noexcept;
    RegexSplitter(const RegexSplitter &) = delete;
    RegexSplitter &operator=(const RegexSplitter &) = delete;

    const std::string &pattern() const { return m_pattern; }

    // The non-empty matches in `text` (well-formed UTF-8), left to right, as [begin, end)
    // byte offsets. Empty matches are skipped.
    std::vector<std::pair<size_t, size_t>> matches(std::string_view text) const;

    // Hugging Face's Split with behaviour "Isolated": every match is a piece and so is
    // every stretch of text between matches. The pieces concatenate to `text`.
    std::vector<std::string_view> splitIsolated(std::string_view text) const;

    // Behaviour "Removed": only the stretches between matches are kept.
    std::vector<std::string_view> splitRemoved(std::string_view text) const;

private:
    std::string m_pattern;
    void *m_regex = nullptr; // OnigRegex; void* keeps oniguruma.h out of this header
};

} // namespace rwb::tokenizer
