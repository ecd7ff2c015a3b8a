#include "tokenizer/regexsplitter.h"

#include "text/regex.h"

#include <memory>
#include <oniguruma.h>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {

struct RegionDeleter {
    void operator()(OnigRegion *r) const { onig_region_free(r, 1); }
};

} // namespace

RegexSplitter::RegexSplitter(const std::string &pattern) : m_pattern(pattern)
{
    auto lock = text::onigurumaLock();
    OnigRegex regex = nullptr;
    OnigErrorInfo info;
    const auto *begin = reinterpret_cast<const OnigUChar *>(pattern.data());
    const int r = onig_new(&regex, begin, begin + pattern.size(), ONIG_OPTION_NONE, ONIG_ENCODING_UTF8,
                           ONIG_SYNTAX_ONIGURUMA, &info);
    if (r != ONIG_NORMAL) {
        OnigUChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
        onig_error_code_to_str(message, r, &info);
        throw std::invalid_argument(std::string("regex does not compile: ") + reinterpret_cast<char *>(message));
    }
    m_regex = regex;
}

RegexSplitter::~RegexSplitter()
{
    if (m_regex) {
        auto lock = text::onigurumaLock();
        onig_free(static_cast<OnigRegex>(m_regex));
    }
}

RegexSplitter::RegexSplitter(RegexSplitter &&other) noexcept
    : m_pattern(std::move(other.m_pattern)), m_regex(other.m_regex)
{
    other.m_regex = nullptr;
}

RegexSplitter &RegexSplitter::operator=(RegexSplitter &&other) noexcept
{
    if (this != &other) {
        std::swap(m_pattern, other.m_pattern);
        std::swap(m_regex, other.m_regex);
    }
    return *this;
}

std::vector<std::pair<size_t, size_t>> RegexSplitter::matches(std::string_view text) const
{
    std::vector<std::pair<size_t, size_t>> out;
    if (!m_regex || text.empty())
        return out;
    auto regex = static_cast<OnigRegex>(m_regex);
    std::unique_ptr<OnigRegion, RegionDeleter> region(onig_region_new());
    const auto *str = reinterpret_cast<const OnigUChar *>(text.data());
    const OnigUChar *end = str + text.size();
    size_t pos = 0;
    while (pos < text.size()) {
        const int r = onig_search(regex, str, end, str + pos, end, region.get(), ONIG_OPTION_NONE);
        if (r < 0) // ONIG_MISMATCH, or an error such as a too-deep backtrack: no more matches
            break;
        const auto b = static_cast<size_t>(region->beg[0]);
        const auto e = static_cast<size_t>(region->end[0]);
        if (e > b) {
            out.emplace_back(b, e);
            pos = e;
        } else {
            // An empty match: step over one UTF-8 character.
            pos = b + 1;
            while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80)
                ++pos;
        }
        onig_region_clear(region.get());
    }
    return out;
}

std::vector<std::string_view> RegexSplitter::splitIsolated(std::string_view text) const
{
    std::vector<std::string_view> pieces;
    size_t last = 0;
    for (const auto &[b, e] : matches(text)) {
        if (b > last)
            pieces.push_back(text.substr(last, b - last));
        pieces.push_back(text.substr(b, e - b));
        last = e;
    }
    if (last < text.size())
        pieces.push_back(text.substr(last));
    return pieces;
}

std::vector<std::string_view> RegexSplitter::splitRemoved(std::string_view text) const
{
    std::vector<std::string_view> pieces;
    size_t last = 0;
    for (const auto &[b, e] : matches(text)) {
        if (b > last)
            pieces.push_back(text.substr(last, b - last));
        last = e;
    }
    if (last < text.size())
        pieces.push_back(text.substr(last));
    return pieces;
}

} // namespace rwb::tokenizer
