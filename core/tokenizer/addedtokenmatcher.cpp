#include "tokenizer/addedtokenmatcher.h"

#include "text/utf8.h"
#include "tokenizer/regexsplitter.h"

#include <algorithm>

namespace rwb::tokenizer {

namespace {

constexpr char32_t kIllFormed = 0xFFFD;

// The character that ends at byte `end` (> 0) and the byte it starts at. A byte that does
// not end a well-formed character counts as one ill-formed character of its own.
std::pair<char32_t, size_t> charBefore(std::string_view text, size_t end)
{
    size_t b = end - 1;
    while (b > 0 && end - b < 4 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80)
        --b;
    const auto [c, len] = text::decodeCharAt(text, b);
    if (b + len == end)
        return {c, b};
    return {kIllFormed, end - 1};
}

// A word character as Hugging Face's single_word test finds one: Rust regex's Unicode \w,
// that is Alphabetic, any mark, a decimal digit, connector punctuation ('_', U+203F …) or a
// joiner (U+200C, U+200D). Other numbers (², ①) are not.
bool isWordChar(char32_t c)
{
    if (c < 0x80)
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (c == kIllFormed)
        return false;
    if (c == 0x200C || c == 0x200D)
        return true;
    static const RegexSplitter word(R"([\p{Alphabetic}\p{M}\p{Nd}\p{Pc}])");
    return !word.matches(text::encodeUtf8(std::u32string(1, c))).empty();
}

} // namespace

AddedTokenMatcher::AddedTokenMatcher(std::vector<Entry> entries)
{
    for (Entry &e : entries)
        if (!e.content.empty())
            m_entries.push_back(std::move(e));
    for (uint32_t i = 0; i < m_entries.size(); ++i)
        m_byFirstByte[static_cast<unsigned char>(m_entries[i].content[0])].push_back(i);
    for (auto &list : m_byFirstByte)
        std::stable_sort(list.begin(), list.end(), [this](uint32_t a, uint32_t b) {
            return m_entries[a].content.size() > m_entries[b].content.size();
        });
}

std::vector<AddedTokenMatcher::Segment> AddedTokenMatcher::split(std::string_view text) const
{
    std::vector<Segment> out;
    size_t plainBegin = 0; // start of the pending plain stretch
    size_t i = 0;
    while (i < text.size()) {
        const auto &candidates = m_byFirstByte[static_cast<unsigned char>(text[i])];
        const Entry *hit = nullptr;
        for (uint32_t k : candidates) {
            const Entry &e = m_entries[k];
            if (text.compare(i, e.content.size(), e.content) == 0) {
                hit = &e;
                break; // longest first
            }
        }
        if (!hit) {
            ++i;
            continue;
        }
        size_t end = i + hit->content.size();
        if (hit->singleWord && ((i > 0 && isWordChar(charBefore(text, i).first)) ||
                                (end < text.size() && isWordChar(text::decodeCharAt(text, end).first)))) {
            i = end; // rejected: the match stays plain text and the search goes on after it
            continue;
        }
        size_t plainEnd = i;
        if (hit->lstrip)
            while (plainEnd > plainBegin) {
                const auto [c, start] = charBefore(text, plainEnd);
                if (!text::isWhiteSpace(c))
                    break;
                plainEnd = std::max(start, plainBegin);
            }
        if (plainEnd > plainBegin)
            out.push_back({plainBegin, plainEnd, -1});
        out.push_back({i, end, hit->id});
        if (hit->rstrip)
            while (end < text.size()) {
                const auto [c, len] = text::decodeCharAt(text, end);
                if (!text::isWhiteSpace(c))
                    break;
                end += len;
            }
        plainBegin = i = end;
    }
    if (plainBegin < text.size())
        out.push_back({plainBegin, text.size(), -1});
    return out;
}

} // namespace rwb::tokenizer
