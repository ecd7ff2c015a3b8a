#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rwb::text {

// Oniguruma's process-wide state (its UTF-8 tables) is set up once, and its compiler and
// onig_free are not thread-safe: whoever calls onig_new or onig_free holds this lock, which
// also sets Oniguruma up on first use. Shared by Regex and tokenizer::RegexSplitter.
// Matching needs no lock.
std::unique_lock<std::mutex> onigurumaLock();

// Thrown by Regex::search and Regex::fullMatch when the match backtracks more than
// Regex::kRetryLimitInMatch times at one position or Regex::kRetryLimitInSearch times in
// all (catastrophic backtracking, "(a+)+$"): the match ends with this error instead of
// running for minutes. Most patterns give up within milliseconds; nested unbounded
// repetitions over a long text ("(?s)a.*b.*c.*z" over 40 kB) can still take seconds,
// since a backtracking step may rescan the text.
class RegexLimitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A compiled regular expression over UTF-8 in Python's `re` syntax, as Oniguruma's
// ONIG_SYNTAX_PYTHON reads it: (?P<name>…), (?P=name), (?i) and the other inline flags,
// look-around, \d \w \s Unicode-aware, `.` not matching a line break without (?s), `$`
// also before a final line break, \Z the very end.
//
// Compiling takes onigurumaLock(); once built, search() and fullMatch() may be called from
// any number of threads at the same time. Not copyable; movable.
class Regex {
public:
    // Backtracking steps allowed at one start position, and in one search over all of them:
    // far more than a linear pattern ("(?s)^<think>.*</think>") takes over a long reply, far
    // fewer than exponential backtracking takes.
    static constexpr unsigned long kRetryLimitInMatch = 1'000'000;
    static constexpr unsigned long kRetryLimitInSearch = 100'000'000;

    // A match: the byte range [begin, end) of the text searched.
    struct Match {
        size_t begin = 0;
        size_t end = 0;
    };

    // Throws std::invalid_argument with Oniguruma's message ("regex does not compile:
    // unmatched close parenthesis") when `pattern` does not compile.
    explicit Regex(const std::string &pattern);
    ~Regex();
    Regex(Regex &&other) noexcept;
    Regex &operator=(Regex &&other) noexcept;
    Regex(const Regex &) = delete;
    Regex &operator=(const Regex &) = delete;

    const std::string &pattern() const { return m_pattern; }

    // The leftmost match in `text` (Python's re.search), none when there is none. Invalid
    // UTF-8 in `text` is read as U+FFFD; the offsets then count the replaced text. Throws
    // RegexLimitError (above).
    std::optional<Match> search(std::string_view text) const;
    // The text of group `group` (0: the whole match) of the last of the non-overlapping
    // matches in `text`, as Python's re.findall walks them; none when there is no match or
    // that match left the group unset. Throws RegexLimitError.
    std::optional<std::string> lastMatch(std::string_view text, int group = 0) const;
    // The pattern's capturing groups.
    int groupCount() const;
    // Whether the whole of `text` matches (Python's re.fullmatch). Throws RegexLimitError.
    bool fullMatch(std::string_view text) const;

private:
    std::string m_pattern;
    void *m_regex = nullptr; // OnigRegex; void* keeps oniguruma.h out of this header
    void *m_full = nullptr;  // the pattern anchored at the end, (?:pattern)\Z, for fullMatch
};

} // namespace rwb::text
