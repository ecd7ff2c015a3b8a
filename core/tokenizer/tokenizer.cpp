#include "tokenizer/tokenizer.h"

#include "text/unicodeform.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {
// What an id outside the vocabulary decodes to: U+FFFD.
constexpr std::string_view kReplacementUtf8 = "\xEF\xBF\xBD";
} // namespace

Tokenizer::~Tokenizer() = default;

std::vector<int32_t> Tokenizer::encode(std::string_view text) const
{
    std::vector<int32_t> out;
    if (m_matcher.empty()) {
        if (!text.empty())
            encodeStretch(text, /*atStart=*/true, /*findTokens=*/true, out);
        return out;
    }
    for (const AddedTokenMatcher::Segment &s : m_matcher.split(text)) {
        if (s.id >= 0)
            out.push_back(s.id);
        else
            encodeStretch(text.substr(s.begin, s.end - s.begin), /*atStart=*/s.begin == 0, /*findTokens=*/true, out);
    }
    return out;
}

std::vector<int32_t> Tokenizer::encodeOrdinary(std::string_view text) const
{
    std::vector<int32_t> out;
    if (!text.empty())
        encodeStretch(text, /*atStart=*/true, /*findTokens=*/false, out);
    return out;
}

void Tokenizer::encodeStretch(std::string_view raw, bool atStart, bool findTokens, std::vector<int32_t> &out) const
{
    if (!normalizesFirst()) {
        encodePlain(raw, atStart, out);
        return;
    }
    bool keepsStart = true;
    const std::string normalized = normalizeText(raw, keepsStart);
    atStart = atStart && keepsStart;
    if (normalized.empty())
        return;
    if (!findTokens || m_normalizedMatcher.empty()) {
        encodePlain(normalized, atStart, out);
        return;
    }
    const std::string_view n(normalized);
    for (const AddedTokenMatcher::Segment &s : m_normalizedMatcher.split(n)) {
        if (s.id >= 0)
            out.push_back(s.id);
        else
            encodePlain(n.substr(s.begin, s.end - s.begin), atStart && s.begin == 0, out);
    }
}

std::string Tokenizer::decodeBytes(const std::vector<int32_t> &ids, bool skipSpecial, bool atStart) const
{
    std::string out;
    bool first = atStart;
    for (int32_t id : ids) {
        if (auto it = m_addedById.find(id); it != m_addedById.end()) {
            const AddedToken &t = m_added[it->second];
            if (!(skipSpecial && t.special)) {
                const auto n = m_normalizedContent.find(id);
                appendAddedToken(n == m_normalizedContent.end() ? t.content : n->second, first, out);
            }
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

std::vector<std::string> Tokenizer::notes() const
{
    // tokenizers gives an added token that the model does not know the id after the
    // highest added id so far, or the vocabulary's size when that is higher.
    std::vector<const AddedToken *> sorted;
    for (const AddedToken &t : m_added)
        sorted.push_back(&t);
    std::sort(sorted.begin(), sorted.end(), [](const AddedToken *a, const AddedToken *b) { return a->id < b->id; });
    const int32_t vocab = modelVocabSize();
    std::optional<int32_t> highest; // the highest id tokenizers has given so far
    std::vector<std::string> notes;
    for (const AddedToken *t : sorted) {
        if (t->id < vocab) {
            highest = std::max(highest.value_or(t->id), t->id);
            continue;
        }
        const int32_t theirs = highest && *highest >= vocab ? *highest + 1 : vocab;
        if (t->id != theirs)
            notes.push_back("added token \"" + t->content + "\" has id " + std::to_string(t->id) +
                            ", after unused ids: tokenizers and transformers would renumber it to " +
                            std::to_string(theirs) + "; this engine keeps " + std::to_string(t->id) +
                            ", the embedding row the file names");
        highest = theirs;
    }
    return notes;
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
    std::vector<AddedTokenMatcher::Entry> raw, normalized;
    const bool twoSteps = normalizesFirst();
    m_normalizedContent.clear();
    for (const AddedToken &t : m_added) {
        if (!(twoSteps && t.normalized)) {
            raw.push_back({t.content, t.id, t.lstrip, t.rstrip, t.singleWord});
            continue;
        }
        // As tokenizers does: looked for, and decoded, as the normalizer writes it ("ACME"
        // behind a Lowercase is "acme").
        bool keepsStart = true;
        std::string content = normalizeText(t.content, keepsStart);
        normalized.push_back({content, t.id, t.lstrip, t.rstrip, t.singleWord});
        m_normalizedContent[t.id] = std::move(content);
    }
    m_matcher = AddedTokenMatcher(std::move(raw));
    m_normalizedMatcher = AddedTokenMatcher(std::move(normalized));
}

} // namespace rwb::tokenizer
