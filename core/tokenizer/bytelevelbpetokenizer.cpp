#include "tokenizer/bytelevelbpetokenizer.h"

#include "data/jsonl.h"
#include "tokenizer/bytelevel.h"
#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/regexsplitter.h"

#include <mutex>
#include <queue>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {

// Words are cached up to this many entries; the cache is then emptied and refilled.
constexpr size_t kCacheLimit = 1 << 16;
// Longer pieces (runs of spaces, long Japanese runs) are not cached.
constexpr size_t kCacheMaxWordBytes = 256;
// How far the largest vocabulary id may exceed twice the vocabulary's size.
constexpr size_t kMaxIdHoles = 1 << 16;

uint64_t pairKey(int32_t left, int32_t right)
{
    return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}

// Length in bytes of the UTF-8 character starting with `lead` (1 for a stray byte).
size_t utf8Length(unsigned char lead)
{
    if (lead < 0x80)
        return 1;
    if ((lead & 0xE0) == 0xC0)
        return 2;
    if ((lead & 0xF0) == 0xE0)
        return 3;
    if ((lead & 0xF8) == 0xF0)
        return 4;
    return 1;
}

char32_t decodeOne(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    switch (s.size()) {
    case 1: return p[0];
    case 2: return ((p[0] & 0x1F) << 6) | (p[1] & 0x3F);
    case 3: return ((p[0] & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
    default: return ((p[0] & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F);
    }
}

std::vector<std::string_view> splitLiteral(std::string_view text, std::string_view pattern, bool removeMatches)
{
    std::vector<std::string_view> out;
    if (pattern.empty()) {
        out.push_back(text);
        return out;
    }
    size_t last = 0;
    size_t at;
    while ((at = text.find(pattern, last)) != std::string_view::npos) {
        if (at > last)
            out.push_back(text.substr(last, at - last));
        if (!removeMatches)
            out.push_back(text.substr(at, pattern.size()));
        last = at + pattern.size();
    }
    if (last < text.size())
        out.push_back(text.substr(last));
    return out;
}

// obj["type"] when obj is an object with a string "type", else "". Never throws.
std::string typeOf(const nlohmann::json &obj)
{
    if (!obj.is_object())
        return {};
    auto it = obj.find("type");
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

ByteLevelBpeTokenizer::PreTokenizerStep ByteLevelBpeTokenizer::PreTokenizerStep::split(std::string regex)
{
    PreTokenizerStep s;
    s.kind = Kind::Split;
    s.pattern = std::move(regex);
    return s;
}

ByteLevelBpeTokenizer::PreTokenizerStep ByteLevelBpeTokenizer::PreTokenizerStep::byteLevel(bool useRegex)
{
    PreTokenizerStep s;
    s.kind = Kind::ByteLevel;
    s.useRegex = useRegex;
    return s;
}

ByteLevelBpeTokenizer::Options ByteLevelBpeTokenizer::qwenOptions()
{
    Options o;
    o.normalizer = {text::UnicodeForm::NFC};
    o.preTokenizer = {PreTokenizerStep::split(kQwenSplitRegex), PreTokenizerStep::byteLevel(false)};
    return o;
}

ByteLevelBpeTokenizer::ByteLevelBpeTokenizer(std::unordered_map<std::string, int32_t> vocab,
                                             const std::vector<std::pair<std::string, std::string>> &merges,
                                             Options options)
    : m_options(std::move(options)), m_vocab(std::make_move_iterator(vocab.begin()), std::make_move_iterator(vocab.end()))
{
    bool hasByteLevel = false;
    for (size_t i = 0; i < m_options.preTokenizer.size(); ++i) {
        const PreTokenizerStep &step = m_options.preTokenizer[i];
        std::unique_ptr<RegexSplitter> splitter;
        if (step.kind == PreTokenizerStep::Kind::Split && !step.literal) {
            try {
                splitter = std::make_unique<RegexSplitter>(step.pattern);
            } catch (const std::invalid_argument &e) {
                throw std::invalid_argument("pre_tokenizer step " + std::to_string(i) + ": " + e.what());
            }
        }
        if (step.kind == PreTokenizerStep::Kind::ByteLevel) {
            hasByteLevel = true;
            if (step.useRegex && !m_gpt2)
                m_gpt2 = std::make_unique<RegexSplitter>(kGpt2SplitRegex);
        }
        m_splitters.push_back(std::move(splitter));
    }
    if (!hasByteLevel)
        throw std::invalid_argument("pre_tokenizer: no ByteLevel step, so this is not a byte-level BPE tokenizer");

    int32_t maxId = -1;
    for (const auto &[token, id] : m_vocab) {
        if (id < 0)
            throw std::invalid_argument("vocab: \"" + token + "\" has a negative id");
        maxId = std::max(maxId, id);
    }
    // Ids index a table: a stray huge id would ask for gigabytes.
    if (static_cast<size_t>(maxId) >= 2 * m_vocab.size() + kMaxIdHoles)
        throw std::invalid_argument("vocab: id " + std::to_string(maxId) + " is far beyond the " +
                                    std::to_string(m_vocab.size()) + " tokens of the vocabulary");
    m_idToToken.assign(static_cast<size_t>(maxId + 1), std::string());
    m_hasId.assign(static_cast<size_t>(maxId + 1), false);
    for (const auto &[token, id] : m_vocab) {
        if (m_hasId[id])
            throw std::invalid_argument("vocab: id " + std::to_string(id) + " is both \"" + m_idToToken[id] +
                                        "\" and \"" + token + "\"");
        m_idToToken[id] = token;
        m_hasId[id] = true;
    }
    m_idBytes.resize(m_idToToken.size());
    for (size_t id = 0; id < m_idToToken.size(); ++id)
        m_idBytes[id] = byteLevelToBytes(m_idToToken[id]);
    for (int b = 0; b < 256; ++b) {
        const std::string c = bytesToByteLevel(std::string(1, static_cast<char>(b)));
        auto it = m_vocab.find(c);
        m_byteId[b] = it == m_vocab.end() ? -1 : it->second;
    }
    if (!m_options.unkToken.empty()) {
        auto it = m_vocab.find(m_options.unkToken);
        if (it == m_vocab.end())
            throw std::invalid_argument("unk_token: \"" + m_options.unkToken + "\" is not in the vocabulary");
        m_unkId = it->second;
    }

    m_merges.reserve(merges.size());
    for (size_t rank = 0; rank < merges.size(); ++rank) {
        const auto &[a, b] = merges[rank];
        const std::string where = "merges[" + std::to_string(rank) + "]";
        auto ia = m_vocab.find(a);
        auto ib = m_vocab.find(b);
        if (ia == m_vocab.end())
            throw std::invalid_argument(where + ": \"" + a + "\" is not in the vocabulary");
        if (ib == m_vocab.end())
            throw std::invalid_argument(where + ": \"" + b + "\" is not in the vocabulary");
        auto ir = m_vocab.find(a + b);
        if (ir == m_vocab.end())
            throw std::invalid_argument(where + ": the merged token \"" + a + b + "\" is not in the vocabulary");
        // A pair listed twice keeps its first (lowest) rank, as Hugging Face does.
        m_merges.emplace(pairKey(ia->second, ib->second), Merge{static_cast<int32_t>(rank), ir->second});
    }
    m_mergeCount = merges.size();
}

ByteLevelBpeTokenizer::~ByteLevelBpeTokenizer() = default;

std::unique_ptr<ByteLevelBpeTokenizer> ByteLevelBpeTokenizer::fromFile(const std::string &path)
{
    return fromJsonText(data::readTextFile(path), path);
}

std::unique_ptr<ByteLevelBpeTokenizer> ByteLevelBpeTokenizer::fromJsonText(std::string_view json,
                                                                       const std::string &fileName)
{
    return fromJson(JsonFieldReader(fileName).parse(json), fileName);
}

bool ByteLevelBpeTokenizer::isByteLevelBpe(const nlohmann::json &doc)
{
    if (!doc.is_object() || !doc.contains("model") || typeOf(doc["model"]) != "BPE" || !doc.contains("pre_tokenizer"))
        return false;
    const nlohmann::json &pre = doc["pre_tokenizer"];
    if (typeOf(pre) == "ByteLevel")
        return true;
    if (typeOf(pre) == "Sequence" && pre.contains("pretokenizers") && pre["pretokenizers"].is_array())
        for (const nlohmann::json &step : pre["pretokenizers"])
            if (typeOf(step) == "ByteLevel")
                return true;
    return false;
}

std::unique_ptr<ByteLevelBpeTokenizer> ByteLevelBpeTokenizer::fromJson(const nlohmann::json &doc,
                                                                       const std::string &fileName)
{
    const JsonFieldReader r(fileName);
    r.object(doc, "");
    Options options;
    options.normalizer.clear();

    // normalizer: null, one of the Unicode forms, or a Sequence of them.
    auto readForm = [&](const nlohmann::json &n, const std::string &path) {
        const std::string type = r.string(r.required(n, path, "type"), JsonFieldReader::join(path, "type"));
        if (type == "NFC")
            options.normalizer.push_back(text::UnicodeForm::NFC);
        else if (type == "NFD")
            options.normalizer.push_back(text::UnicodeForm::NFD);
        else if (type == "NFKC")
            options.normalizer.push_back(text::UnicodeForm::NFKC);
        else if (type == "NFKD")
            options.normalizer.push_back(text::UnicodeForm::NFKD);
        else
            r.fail(JsonFieldReader::join(path, "type"),
                   "normalizer \"" + type + "\" is not supported (NFC, NFD, NFKC, NFKD or a Sequence of them)");
    };
    if (const nlohmann::json *n = r.optional(doc, "normalizer")) {
        const std::string type = r.string(r.required(*n, "normalizer", "type"), "normalizer.type");
        if (type == "Sequence") {
            const nlohmann::json &list = r.array(r.required(*n, "normalizer", "normalizers"), "normalizer.normalizers");
            for (size_t i = 0; i < list.size(); ++i)
                readForm(list[i], JsonFieldReader::index("normalizer.normalizers", i));
        } else {
            readForm(*n, "normalizer");
        }
    }

    // pre_tokenizer: Split and ByteLevel steps, alone or in a Sequence.
    auto readStep = [&](const nlohmann::json &p, const std::string &path) {
        const std::string typePath = JsonFieldReader::join(path, "type");
        const std::string type = r.string(r.required(p, path, "type"), typePath);
        PreTokenizerStep step;
        if (type == "Split") {
            step.kind = PreTokenizerStep::Kind::Split;
            const std::string patternPath = JsonFieldReader::join(path, "pattern");
            const nlohmann::json &pattern = r.object(r.required(p, path, "pattern"), patternPath);
            if (const nlohmann::json *re = r.optional(pattern, "Regex")) {
                step.pattern = r.string(*re, JsonFieldReader::join(patternPath, "Regex"));
            } else if (const nlohmann::json *s = r.optional(pattern, "String")) {
                step.pattern = r.string(*s, JsonFieldReader::join(patternPath, "String"));
                step.literal = true;
            } else {
                r.fail(patternPath, "expected {\"Regex\": …} or {\"String\": …}");
            }
            const std::string behaviorPath = JsonFieldReader::join(path, "behavior");
            const std::string behavior =
                p.contains("behavior") ? r.string(p["behavior"], behaviorPath) : std::string("Isolated");
            if (behavior == "Removed")
                step.removeMatches = true;
            else if (behavior != "Isolated")
                r.fail(behaviorPath, "behaviour \"" + behavior + "\" is not supported (Isolated or Removed)");
            if (r.optionalBoolean(p, path, "invert", false))
                r.fail(JsonFieldReader::join(path, "invert"), "inverted splits are not supported");
            // Compile here so that a bad regex is reported with its field.
            if (!step.literal) {
                try {
                    RegexSplitter check(step.pattern);
                } catch (const std::invalid_argument &e) {
                    r.fail(JsonFieldReader::join(patternPath, "Regex"), e.what());
                }
            }
        } else if (type == "ByteLevel") {
            step.kind = PreTokenizerStep::Kind::ByteLevel;
            step.addPrefixSpace = r.optionalBoolean(p, path, "add_prefix_space", false);
            step.useRegex = r.optionalBoolean(p, path, "use_regex", true);
        } else {
            r.fail(typePath, "pre-tokenizer \"" + type + "\" is not supported (Split, ByteLevel or a Sequence of them)");
        }
        options.preTokenizer.push_back(std::move(step));
    };
    const nlohmann::json *pre = r.optional(doc, "pre_tokenizer");
    if (!pre)
        r.fail("pre_tokenizer", "missing: only byte-level BPE (a ByteLevel pre-tokenizer) is supported");
    {
        const std::string type = r.string(r.required(*pre, "pre_tokenizer", "type"), "pre_tokenizer.type");
        if (type == "Sequence") {
            const nlohmann::json &list =
                r.array(r.required(*pre, "pre_tokenizer", "pretokenizers"), "pre_tokenizer.pretokenizers");
            for (size_t i = 0; i < list.size(); ++i)
                readStep(list[i], JsonFieldReader::index("pre_tokenizer.pretokenizers", i));
        } else {
            readStep(*pre, "pre_tokenizer");
        }
    }
    bool hasByteLevel = false;
    for (const PreTokenizerStep &s : options.preTokenizer)
        hasByteLevel = hasByteLevel || s.kind == PreTokenizerStep::Kind::ByteLevel;
    if (!hasByteLevel)
        r.fail("pre_tokenizer", "no ByteLevel step: only byte-level BPE tokenizers are supported");

    // model
    const nlohmann::json &model = r.object(r.required(doc, "", "model"), "model");
    const std::string modelType = r.string(r.required(model, "model", "type"), "model.type");
    if (modelType != "BPE")
        r.fail("model.type", "\"" + modelType + "\" is not supported (only BPE)");
    for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        if (const nlohmann::json *v = r.optional(model, key))
            if (!r.string(*v, JsonFieldReader::join("model", key)).empty())
                r.fail(JsonFieldReader::join("model", key), "is not supported (must be empty)");
    }
    if (r.optionalBoolean(model, "model", "byte_fallback", false))
        r.fail("model.byte_fallback", "byte fallback is not supported in a byte-level BPE");
    options.ignoreMerges = r.optionalBoolean(model, "model", "ignore_merges", false);
    if (const nlohmann::json *unk = r.optional(model, "unk_token"))
        options.unkToken = r.string(*unk, "model.unk_token");

    std::unordered_map<std::string, int32_t> vocab;
    const nlohmann::json &vocabJson = r.object(r.required(model, "model", "vocab"), "model.vocab");
    vocab.reserve(vocabJson.size());
    for (auto it = vocabJson.begin(); it != vocabJson.end(); ++it)
        vocab.emplace(it.key(), r.int32(it.value(), "model.vocab[\"" + it.key() + "\"]"));

    std::vector<std::pair<std::string, std::string>> merges;
    const nlohmann::json &mergesJson = r.array(r.required(model, "model", "merges"), "model.merges");
    merges.reserve(mergesJson.size());
    for (size_t i = 0; i < mergesJson.size(); ++i) {
        const nlohmann::json &m = mergesJson[i];
        const std::string path = JsonFieldReader::index("model.merges", i);
        if (m.is_string()) {
            const std::string s = m.get<std::string>();
            const size_t space = s.find(' ');
            if (space == std::string::npos || space == 0 || space + 1 >= s.size() ||
                s.find(' ', space + 1) != std::string::npos)
                r.fail(path, "expected \"left right\" (two tokens and one space), found \"" + s + "\"");
            merges.emplace_back(s.substr(0, space), s.substr(space + 1));
        } else if (m.is_array() && m.size() == 2) {
            merges.emplace_back(r.string(m[0], JsonFieldReader::index(path, 0)),
                                r.string(m[1], JsonFieldReader::index(path, 1)));
        } else {
            r.fail(path, "expected \"left right\" or [\"left\", \"right\"], found " + m.dump());
        }
    }

    std::unique_ptr<ByteLevelBpeTokenizer> tokenizer;
    try {
        tokenizer = std::make_unique<ByteLevelBpeTokenizer>(std::move(vocab), merges, std::move(options));
    } catch (const std::invalid_argument &e) {
        r.fail("model", e.what());
    }

    // added_tokens: [{id, content, special, lstrip, rstrip, …}]
    if (const std::vector<AddedToken> tokens = readAddedTokens(r, doc); !tokens.empty()) {
        try {
            tokenizer->addAddedTokens(tokens);
        } catch (const std::invalid_argument &e) {
            r.fail("added_tokens", e.what());
        }
    }

    // post_processor: a TemplateProcessing that starts every sequence with a special
    // token (Llama 3's <|begin_of_text|>) means the model expects a BOS.
    if (const nlohmann::json *post = r.optional(doc, "post_processor")) {
        if (typeOf(*post) == "TemplateProcessing" && post->contains("single") &&
            (*post)["single"].is_array() && !(*post)["single"].empty()) {
            const nlohmann::json &firstItem = (*post)["single"][0];
            if (firstItem.is_object() && firstItem.contains("SpecialToken") && firstItem["SpecialToken"].is_object()) {
                const nlohmann::json &st = firstItem["SpecialToken"];
                if (st.contains("id") && st["id"].is_string())
                    if (auto id = tokenizer->tokenToId(st["id"].get<std::string>())) {
                        tokenizer->setBosId(*id);
                        tokenizer->setAddsBos(true);
                    }
            }
        }
    }
    return tokenizer;
}

void ByteLevelBpeTokenizer::encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const
{
    std::string normalized = text::validUtf8(text);
    if (!m_options.normalizer.empty())
        normalized = text::toUnicodeForms(normalized, m_options.normalizer);

    std::vector<std::string> pieces{std::move(normalized)};
    std::vector<std::string> next;
    for (size_t s = 0; s < m_options.preTokenizer.size(); ++s) {
        const PreTokenizerStep &step = m_options.preTokenizer[s];
        next.clear();
        for (std::string &piece : pieces) {
            if (step.kind == PreTokenizerStep::Kind::Split) {
                const std::vector<std::string_view> parts =
                    step.literal ? splitLiteral(piece, step.pattern, step.removeMatches)
                    : step.removeMatches ? m_splitters[s]->splitRemoved(piece)
                                         : m_splitters[s]->splitIsolated(piece);
                for (std::string_view p : parts)
                    next.emplace_back(p);
            } else {
                if (step.addPrefixSpace && (piece.empty() || piece[0] != ' '))
                    piece.insert(piece.begin(), ' ');
                if (step.useRegex) {
                    for (std::string_view p : m_gpt2->splitIsolated(piece))
                        next.push_back(bytesToByteLevel(p));
                } else {
                    next.push_back(bytesToByteLevel(piece));
                }
            }
        }
        pieces.swap(next);
    }
    for (const std::string &word : pieces)
        if (!word.empty())
            encodeWord(word, out);
}

void ByteLevelBpeTokenizer::encodeWord(const std::string &word, std::vector<int32_t> &out) const
{
    if (m_options.ignoreMerges) {
        if (auto it = m_vocab.find(word); it != m_vocab.end()) {
            out.push_back(it->second);
            return;
        }
    }
    const bool cacheable = word.size() <= kCacheMaxWordBytes;
    if (cacheable) {
        std::shared_lock<std::shared_mutex> lock(m_cacheMutex);
        if (auto it = m_cache.find(word); it != m_cache.end()) {
            out.insert(out.end(), it->second.begin(), it->second.end());
            return;
        }
    }
    std::vector<int32_t> ids = bpe(word);
    out.insert(out.end(), ids.begin(), ids.end());
    if (cacheable) {
        std::unique_lock<std::shared_mutex> lock(m_cacheMutex);
        if (m_cache.size() >= kCacheLimit)
            m_cache.clear();
        m_cache.emplace(word, std::move(ids));
    }
}

const ByteLevelBpeTokenizer::Merge *ByteLevelBpeTokenizer::findMerge(int32_t left, int32_t right) const
{
    auto it = m_merges.find(pairKey(left, right));
    return it == m_merges.end() ? nullptr : &it->second;
}

std::vector<int32_t> ByteLevelBpeTokenizer::bpe(const std::string &word) const
{
    // The word's characters as ids. Characters with no id become the unknown token, or
    // are dropped when there is none.
    std::vector<int32_t> ids;
    ids.reserve(word.size());
    for (size_t i = 0; i < word.size();) {
        const size_t len = std::min(utf8Length(static_cast<unsigned char>(word[i])), word.size() - i);
        const std::string_view ch(word.data() + i, len);
        int32_t id = -1;
        const char32_t cp = decodeOne(ch);
        const int b = charToByte(cp);
        if (b >= 0 && ch.size() == (cp < 0x80 ? 1u : 2u)) // the shortest form, as the alphabet is written
            id = m_byteId[b];
        if (id < 0)
            if (auto it = m_vocab.find(ch); it != m_vocab.end())
                id = it->second;
        if (id < 0)
            id = m_unkId;
        if (id >= 0)
            ids.push_back(id);
        i += len;
    }
    const size_t n = ids.size();
    if (n < 2)
        return ids;

    // Merge the adjacent pair of lowest rank (leftmost among equals) until none applies.
    // Symbols form a linked list; candidates sit in a min-heap and are checked when popped.
    std::vector<int32_t> prev(n), next(n);
    std::vector<bool> alive(n, true);
    for (size_t i = 0; i < n; ++i) {
        prev[i] = static_cast<int32_t>(i) - 1;
        next[i] = i + 1 < n ? static_cast<int32_t>(i + 1) : -1;
    }
    struct Candidate {
        int32_t rank;
        int32_t pos;   // left symbol
        int32_t left;  // ids expected at pos and next[pos] when popped
        int32_t right;
        bool operator>(const Candidate &o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
    auto consider = [&](int32_t pos) {
        if (pos < 0 || next[pos] < 0)
            return;
        if (const Merge *m = findMerge(ids[pos], ids[next[pos]]))
            heap.push({m->rank, pos, ids[pos], ids[next[pos]]});
    };
    for (size_t i = 0; i + 1 < n; ++i)
        consider(static_cast<int32_t>(i));
    while (!heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        const int32_t r = next[c.pos];
        if (!alive[c.pos] || r < 0 || ids[c.pos] != c.left || ids[r] != c.right)
            continue; // stale: one of the two symbols has changed since
        ids[c.pos] = findMerge(c.left, c.right)->result;
        alive[r] = false;
        next[c.pos] = next[r];
        if (next[r] >= 0)
            prev[next[r]] = c.pos;
        consider(prev[c.pos]);
        consider(c.pos);
    }
    std::vector<int32_t> result;
    for (int32_t i = 0; i >= 0; i = next[i])
        result.push_back(ids[i]);
    return result;
}

bool ByteLevelBpeTokenizer::appendModelToken(int32_t id, bool &first, std::string &out) const
{
    if (id < 0 || static_cast<size_t>(id) >= m_hasId.size() || !m_hasId[id])
        return false;
    out += m_idBytes[id];
    first = false;
    return true;
}

std::optional<int32_t> ByteLevelBpeTokenizer::modelTokenToId(std::string_view token) const
{
    auto it = m_vocab.find(token);
    if (it == m_vocab.end())
        return std::nullopt;
    return it->second;
}

std::string ByteLevelBpeTokenizer::modelIdToToken(int32_t id) const
{
    if (id < 0 || static_cast<size_t>(id) >= m_idToToken.size())
        return {};
    return m_idToToken[id];
}

} // namespace rwb::tokenizer
