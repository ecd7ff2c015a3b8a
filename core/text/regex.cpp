#include "text/regex.h"

#include "text/unicodeform.h"

#include <memory>
#include <oniguruma.h>
#include <utility>

namespace rwb::text {

namespace {

struct RegionDeleter {
    void operator()(OnigRegion *r) const { onig_region_free(r, 1); }
};
struct MatchParamDeleter {
    void operator()(OnigMatchParam *p) const { onig_free_match_param(p); }
};

std::string onigMessage(int code, OnigErrorInfo *info)
{
    OnigUChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
    if (info)
        onig_error_code_to_str(message, code, info);
    else
        onig_error_code_to_str(message, code);
    return reinterpret_cast<const char *>(message);
}

// Compiles under the lock; the error code (ONIG_NORMAL on success) and its message.
std::pair<OnigRegex, std::string> compile(const std::string &pattern)
{
    auto lock = onigurumaLock();
    OnigRegex regex = nullptr;
    OnigErrorInfo info;
    const auto *begin = reinterpret_cast<const OnigUChar *>(pattern.data());
    const int r = onig_new(&regex, begin, begin + pattern.size(), ONIG_OPTION_NONE, ONIG_ENCODING_UTF8,
                           ONIG_SYNTAX_PYTHON, &info);
    if (r != ONIG_NORMAL)
        return {nullptr, onigMessage(r, &info)};
    return {regex, {}};
}

void release(void *regex)
{
    if (regex) {
        auto lock = onigurumaLock();
        onig_free(static_cast<OnigRegex>(regex));
    }
}

std::unique_ptr<OnigMatchParam, MatchParamDeleter> matchParam()
{
    std::unique_ptr<OnigMatchParam, MatchParamDeleter> p(onig_new_match_param());
    onig_initialize_match_param(p.get());
    onig_set_retry_limit_in_match_of_match_param(p.get(), Regex::kRetryLimitInMatch);
    onig_set_retry_limit_in_search_of_match_param(p.get(), Regex::kRetryLimitInSearch);
    return p;
}

// ONIG_MISMATCH → false; a match → true; anything else (the retry limits) throws.
bool matched(int r, const std::string &pattern)
{
    if (r >= 0)
        return true;
    if (r == ONIG_MISMATCH)
        return false;
    if (r == ONIGERR_RETRY_LIMIT_IN_MATCH_OVER || r == ONIGERR_RETRY_LIMIT_IN_SEARCH_OVER)
        throw RegexLimitError("the regex \"" + pattern + "\" gave up after too much backtracking (" + onigMessage(r, nullptr) +
                              "); simplify nested repetitions such as (a+)+");
    throw RegexLimitError("the regex \"" + pattern + "\" failed: " + onigMessage(r, nullptr));
}

} // namespace

std::unique_lock<std::mutex> onigurumaLock()
{
    static std::mutex m;
    static std::once_flag once;
    std::call_once(once, [] {
        OnigEncoding encodings[1] = {ONIG_ENCODING_UTF8};
        onig_initialize(encodings, 1);
    });
    return std::unique_lock<std::mutex>(m);
}

Regex::Regex(const std::string &pattern) : m_pattern(pattern)
{
    auto [regex, error] = compile(pattern);
    if (!regex)
        throw std::invalid_argument("regex does not compile: " + error);
    m_regex = regex;
    // Anchored at the very end for fullMatch. The pattern compiled on its own, so the group
    // cannot pair with a parenthesis of it; the line break closes a trailing (?x) comment,
    // which would otherwise swallow the ")".
    auto [full, fullError] = compile("(?:" + pattern + ")\\Z");
    if (!full)
        std::tie(full, fullError) = compile("(?:" + pattern + "\n)\\Z");
    if (!full) {
        release(m_regex);
        throw std::invalid_argument("regex does not compile: " + fullError);
    }
    m_full = full;
}

Regex::~Regex()
{
    release(m_regex);
    release(m_full);
}

Regex::Regex(Regex &&other) noexcept
    : m_pattern(std::move(other.m_pattern)), m_regex(std::exchange(other.m_regex, nullptr)),
      m_full(std::exchange(other.m_full, nullptr))
{
}

Regex &Regex::operator=(Regex &&other) noexcept
{
    if (this != &other) {
        std::swap(m_pattern, other.m_pattern);
        std::swap(m_regex, other.m_regex);
        std::swap(m_full, other.m_full);
    }
    return *this;
}

std::optional<Regex::Match> Regex::search(std::string_view text) const
{
    if (!m_regex)
        return std::nullopt;
    std::string valid;
    if (!isValidUtf8(text)) {
        valid = validUtf8(text);
        text = valid;
    }
    std::unique_ptr<OnigRegion, RegionDeleter> region(onig_region_new());
    const auto param = matchParam();
    const auto *str = reinterpret_cast<const OnigUChar *>(text.data());
    const OnigUChar *end = str + text.size();
    const int r = onig_search_with_param(static_cast<OnigRegex>(m_regex), str, end, str, end, region.get(),
                                         ONIG_OPTION_NONE, param.get());
    if (!matched(r, m_pattern))
        return std::nullopt;
    return Match{static_cast<size_t>(region->beg[0]), static_cast<size_t>(region->end[0])};
}

int Regex::groupCount() const
{
    return m_regex ? onig_number_of_captures(static_cast<OnigRegex>(m_regex)) : 0;
}

std::optional<std::string> Regex::lastMatch(std::string_view text, int group) const
{
    if (!m_regex)
        return std::nullopt;
    std::string valid;
    if (!isValidUtf8(text)) {
        valid = validUtf8(text);
        text = valid;
    }
    std::unique_ptr<OnigRegion, RegionDeleter> region(onig_region_new());
    const auto param = matchParam();
    const auto *str = reinterpret_cast<const OnigUChar *>(text.data());
    const OnigUChar *end = str + text.size();
    std::optional<std::string> last;
    for (const OnigUChar *start = str; start <= end;) {
        onig_region_clear(region.get());
        const int r = onig_search_with_param(static_cast<OnigRegex>(m_regex), str, end, start, end, region.get(),
                                             ONIG_OPTION_NONE, param.get());
        if (!matched(r, m_pattern))
            break;
        if (group < region->num_regs && region->beg[group] >= 0)
            last = std::string(text.substr(static_cast<size_t>(region->beg[group]),
                                           static_cast<size_t>(region->end[group] - region->beg[group])));
        // The next search starts after this match (a character on, after an empty one).
        const OnigUChar *next = str + region->end[0];
        if (next > start) {
            start = next;
        } else if (start == end) {
            break;
        } else {
            const unsigned char lead = *start;
            start += lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
            if (start > end)
                break;
        }
    }
    return last;
}

bool Regex::fullMatch(std::string_view text) const
{
    if (!m_full)
        return false;
    std::string valid;
    if (!isValidUtf8(text)) {
        valid = validUtf8(text);
        text = valid;
    }
    const auto param = matchParam();
    const auto *str = reinterpret_cast<const OnigUChar *>(text.data());
    const int r = onig_match_with_param(static_cast<OnigRegex>(m_full), str, str + text.size(), str, nullptr,
                                        ONIG_OPTION_NONE, param.get());
    return matched(r, m_pattern);
}

} // namespace rwb::text
