#include "tokenizer/addedtokenmatcher.h"

#include <algorithm>

namespace rwb::tokenizer {

namespace {

bool isAsciiSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
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
        size_t plainEnd = i;
        if (hit->lstrip)
            while (plainEnd > plainBegin && isAsciiSpace(text[plainEnd - 1]))
                --plainEnd;
        if (plainEnd > plainBegin)
            out.push_back({plainBegin, plainEnd, -1});
        size_t end = i + hit->content.size();
        out.push_back({i, end, hit->id});
        if (hit->rstrip)
            while (end < text.size() && isAsciiSpace(text[end]))
                ++end;
        plainBegin = i = end;
    }
    if (plainBegin < text.size())
        out.push_back({plainBegin, text.size(), -1});
    return out;
}

} // namespace rwb::tokenizer
