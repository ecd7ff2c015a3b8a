#include "tokenizer/tokenizer.h"

#include "text/unicodeform.h"

#include <algorithm>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {
// What an id outside the vocabulary decodes to: U+FFFD.
constexpr std::string_view kReplacementUtf8 = "\xEF\xBF\xBD";
} // namespace

Tokenizer::~Tokenizer() = default;

std::vector<int32_t> Tokenizer::encode(std::string_view text) const
{
    if (m_matcher.empty())
        return encodeOrdinary(text);
    std::vector<int32_t> out;
    for (const AddedTokenMatcher::Segment &s : m_matcher.split(text)) {
        if (s.id >= 0)
            out.push_back(s.id);
        else
            encodePlain(text.substr(s.begin, s.end - s.begin), /*atStart=*/s.begin == 0, out);
    }
    return out;
}

std::vector<int32_t> Tokenizer::encodeOrdinary(std::string_view text) const
{
    std::vector<int32_t> out;
    if (!text.empty())
        encodePlain(text, /*atStart=*/true, out);
    return out;
}

std::string Tokenizer::decodeBytes(const std::vector<int32_t> &ids, bool skipSpecial, bool atStart) const
{
    std::string out;
    bool first = atStart;
    for (int32_t id : ids) {
        if (auto it = m_addedById.find(id); it != m_addedById.end()) {
            const AddedToken &t = m_added[it->second];
            if (!(skipSpecial && t.special))
                appendAddedToken(t.content, first, out);
            continue;
        }
        if (id < 0) {
            out += kReplacementUtf8;
            continue;
        }
        if (skipSpecial && modelIsSpecial(id))
            continue;
        if (!appendModelToken(id, first, out))
            out += kReplacementUtf8;
    }
    return out;
}

void Tokenizer::appendAddedToken(const std::string &content, bool &first, std::string &out) const
{
    (void)first;
    out += content;
}

std::string Tokenizer::decode(const std::vector<int32_t> &ids, bool skipSpecial) const
{
    return text::validUtf8(decodeBytes(ids, skipSpecial));
}

int32_t Tokenizer::vocabSize() const
{
    int32_t n = modelVocabSize();
    for (const AddedToken &t : m_added)
        n = std::max(n, t.id + 1);
    return n;
}

std::optional<int32_t> Tokenizer::tokenToId(std::string_view token) const
{
    if (auto it = m_addedByContent.find(std::string(token)); it != m_addedByContent.end())
        return it->second;
    return modelTokenToId(token);
}

std::string Tokenizer::idToToken(int32_t id) const
{
    if (auto it = m_addedById.find(id); it != m_addedById.end())
        return m_added[it->second].content;
    if (id < 0)
        return {};
    return modelIdToToken(id);
}

bool Tokenizer::isSpecial(int32_t id) const
{
    if (auto it = m_addedById.find(id); it != m_addedById.end())
        return m_added[it->second].special;
    return id >= 0 && modelIsSpecial(id);
}

void Tokenizer::addAddedToken(const AddedToken &token)
{
    addAddedTokens({token});
}

void Tokenizer::addAddedTokens(const std::vector<AddedToken> &tokens)
{
    for (const AddedToken &t : tokens) {
        if (t.id < 0)
            throw std::invalid_argument("added token \"" + t.content + "\" has a negative id");
        if (t.content.empty())
            throw std::invalid_argument("added token " + std::to_string(t.id) + " has no content");
        if (auto it = m_addedById.find(t.id); it != m_addedById.end()) {
            AddedToken &old = m_added[it->second];
            if (old.content != t.content)
                throw std::invalid_argument("id " + std::to_string(t.id) + " is both \"" + old.content + "\" and \"" +
                                            t.content + "\"");
            old = t; // same token, maybe other flags: the later description wins
            continue;
        }
        if (auto it = m_addedByContent.find(t.content); it != m_addedByContent.end())
            throw std::invalid_argument("\"" + t.content + "\" has two ids, " + std::to_string(it->second) + " and " +
                                        std::to_string(t.id));
        m_addedById[t.id] = m_added.size();
        m_addedByContent[t.content] = t.id;
        m_added.push_back(t);
    }
    rebuildMatcher();
}

void Tokenizer::rebuildMatcher()
{
    std::vector<AddedTokenMatcher::Entry> entries;
    entries.reserve(m_added.size());
    for (const AddedToken &t : m_added)
        entries.push_back({t.content, t.id, t.lstrip, t.rstrip, t.singleWord});
    m_matcher = AddedTokenMatcher(std::move(entries));
}

} // namespace rwb::tokenizer
