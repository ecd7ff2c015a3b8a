#include "tokenizer/wordpiecetokenizer.h"

#include "data/jsonl.h"
#include "text/utf8.h"
#include "tokenizer/hfnormalizer.h"
#include "tokenizer/jsonfieldreader.h"

#include <utf8proc.h>

#include <limits>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {

// How far the largest vocabulary id may exceed twice the vocabulary's size.
constexpr size_t kMaxIdHoles = 1 << 16;

utf8proc_category_t category(char32_t c)
{
    return utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

// BertNormalizer's white space: tab, newline, carriage return, and Unicode White_Space.
bool isBertWhitespace(char32_t c)
{
    return c == U'\t' || c == U'\n' || c == U'\r' || text::isWhiteSpace(c);
}

// BertNormalizer's control characters: the "Other" categories Cc, Cf, Co and Cs but tab,
// newline and carriage return, which count as white space. Unassigned code points (Cn)
// stay, as tokenizers keeps them (checked against it: tests/data/hf/tokenizers/wordpiece).
bool isBertControl(char32_t c)
{
    if (c == U'\t' || c == U'\n' || c == U'\r')
        return false;
    switch (category(c)) {
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_CS: return true;
    default: return false;
    }
}

// The CJK Unified Ideographs blocks (and their extensions and compatibility blocks) that
// BERT puts spaces around: kana and hangul are not among them.
bool isChineseChar(char32_t c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// BertPreTokenizer's punctuation: every ASCII punctuation mark (also $, +, <, =, >, ^,
// `, |, ~, which Unicode calls symbols) and Unicode's P* categories.
bool isBertPunctuation(char32_t c)
{
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126))
        return true;
    switch (category(c)) {
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO: return true;
    default: return false;
    }
}

std::u32string toForm(const std::u32string &s, text::UnicodeForm form)
{
    return text::decodeUtf8(text::toUnicodeForm(text::encodeUtf8(s), form));
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

WordPieceTokenizer::WordPieceTokenizer(std::unordered_map<std::string, int32_t> vocab, Options options)
    : m_options(std::move(options)),
      m_vocab(std::make_move_iterator(vocab.begin()), std::make_move_iterator(vocab.end()))
{
    if (m_vocab.empty())
        throw std::invalid_argument("vocab: empty");
    if (m_options.maxInputCharsPerWord < 1)
        throw std::invalid_argument("max_input_chars_per_word: must be at least 1");
    int32_t maxId = -1;
    for (const auto &[token, id] : m_vocab) {
        if (id < 0)
            throw std::invalid_argument("vocab: \"" + token + "\" has a negative id");
        if (token.empty())
            throw std::invalid_argument("vocab: an empty token");
        maxId = std::max(maxId, id);
    }
    // Ids index a table: a stray huge id would ask for gigabytes.
    if (static_cast<size_t>(maxId) >= 2 * m_vocab.size() + kMaxIdHoles)
        throw std::invalid_argument("vocab: id " + std::to_string(maxId) + " is far beyond the " +
                                    std::to_string(m_vocab.size()) + " tokens of the vocabulary");
    m_idToToken.assign(static_cast<size_t>(maxId) + 1, std::string());
    for (const auto &[token, id] : m_vocab) {
        if (!m_idToToken[id].empty())
            throw std::invalid_argument("vocab: id " + std::to_string(id) + " is both \"" + m_idToToken[id] +
                                        "\" and \"" + token + "\"");
        m_idToToken[id] = token;
    }
    auto unk = m_vocab.find(m_options.unkToken);
    if (unk == m_vocab.end())
        throw std::invalid_argument("unk_token: \"" + m_options.unkToken + "\" is not in the vocabulary");
    m_unkId = unk->second;
}

bool WordPieceTokenizer::isWordPiece(const nlohmann::json &doc)
{
    return doc.is_object() && doc.contains("model") && typeOf(doc["model"]) == "WordPiece";
}

std::unique_ptr<WordPieceTokenizer> WordPieceTokenizer::fromJson(const nlohmann::json &doc, const std::string &fileName)
{
    const JsonFieldReader r(fileName);
    r.object(doc, "");
    Options options;
    options.normalizer.clear();

    // normalizer
    auto readStep = [&](const nlohmann::json &n, const std::string &path) {
        const std::string typePath = JsonFieldReader::join(path, "type");
        const std::string type = r.string(r.required(n, path, "type"), typePath);
        NormalizerStep step;
        if (type == "BertNormalizer") {
            step.kind = NormalizerStep::Kind::Bert;
            step.cleanText = r.optionalBoolean(n, path, "clean_text", true);
            step.handleChineseChars = r.optionalBoolean(n, path, "handle_chinese_chars", true);
            step.lowercase = r.optionalBoolean(n, path, "lowercase", true);
            step.stripAccents = r.optionalBoolean(n, path, "strip_accents", step.lowercase);
        } else if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
            step.kind = NormalizerStep::Kind::Form;
            step.form = type == "NFC"   ? text::UnicodeForm::NFC
                        : type == "NFD" ? text::UnicodeForm::NFD
                        : type == "NFKC" ? text::UnicodeForm::NFKC
                                         : text::UnicodeForm::NFKD;
        } else if (type == "Lowercase") {
            step.kind = NormalizerStep::Kind::Lowercase;
        } else if (type == "StripAccents") {
            step.kind = NormalizerStep::Kind::StripAccents;
        } else {
            r.fail(typePath, "normalizer \"" + type +
                                 "\" is not supported in a WordPiece tokenizer (BertNormalizer, NFC, NFD, NFKC, NFKD, "
                                 "Lowercase, StripAccents or a Sequence of them)");
        }
        options.normalizer.push_back(step);
    };
    if (const nlohmann::json *n = r.optional(doc, "normalizer")) {
        const std::string type = r.string(r.required(*n, "normalizer", "type"), "normalizer.type");
        if (type == "Sequence") {
            const nlohmann::json &list = r.array(r.required(*n, "normalizer", "normalizers"), "normalizer.normalizers");
            for (size_t i = 0; i < list.size(); ++i)
                readStep(list[i], JsonFieldReader::index("normalizer.normalizers", i));
        } else {
            readStep(*n, "normalizer");
        }
    }

    // pre_tokenizer: BertPreTokenizer or WhitespaceSplit, alone or as a Sequence of one.
    const nlohmann::json *pre = r.optional(doc, "pre_tokenizer");
    if (!pre)
        r.fail("pre_tokenizer", "missing: model.type \"WordPiece\" needs BertPreTokenizer or WhitespaceSplit");
    {
        std::string path = "pre_tokenizer";
        const nlohmann::json *step = pre;
        if (r.string(r.required(*pre, path, "type"), "pre_tokenizer.type") == "Sequence") {
            const nlohmann::json &list =
                r.array(r.required(*pre, path, "pretokenizers"), "pre_tokenizer.pretokenizers");
            if (list.size() != 1)
                r.fail("pre_tokenizer.pretokenizers", "a Sequence of " + std::to_string(list.size()) +
                                                          " pre-tokenizers is not supported with model.type "
                                                          "\"WordPiece\" (one: BertPreTokenizer or WhitespaceSplit)");
            path = "pre_tokenizer.pretokenizers[0]";
            step = &list[0];
        }
        const std::string typePath = JsonFieldReader::join(path, "type");
        const std::string type = r.string(r.required(*step, path, "type"), typePath);
        if (type == "BertPreTokenizer")
            options.splitPunctuation = true;
        else if (type == "WhitespaceSplit")
            options.splitPunctuation = false;
        else
            r.fail(typePath, "pre-tokenizer \"" + type +
                                 "\" is not supported with model.type \"WordPiece\" (BertPreTokenizer or WhitespaceSplit)");
    }

    // model
    const nlohmann::json &model = r.object(r.required(doc, "", "model"), "model");
    const std::string modelType = r.string(r.required(model, "model", "type"), "model.type");
    if (modelType != "WordPiece")
        r.fail("model.type", "\"" + modelType + "\" is not WordPiece");
    if (const nlohmann::json *v = r.optional(model, "unk_token"))
        options.unkToken = r.string(*v, "model.unk_token");
    if (const nlohmann::json *v = r.optional(model, "continuing_subword_prefix"))
        options.continuingSubwordPrefix = r.string(*v, "model.continuing_subword_prefix");
    if (const nlohmann::json *v = r.optional(model, "max_input_chars_per_word")) {
        options.maxInputCharsPerWord = r.int32(*v, "model.max_input_chars_per_word");
        if (options.maxInputCharsPerWord < 1)
            r.fail("model.max_input_chars_per_word", "must be at least 1");
    }
    // decoder: WordPiece (prefix, cleanup) or null (tokens joined by spaces).
    const nlohmann::json *decoder = r.optional(doc, "decoder");
    if (!decoder || decoder->is_null()) {
        options.decodePrefix.clear();
        options.decodeCleanup = false;
    } else {
        const nlohmann::json &d = r.object(*decoder, "decoder");
        const std::string type = r.string(r.required(d, "decoder", "type"), "decoder.type");
        if (type != "WordPiece")
            r.fail("decoder.type", "decoder \"" + type + "\" is not supported with model.type \"WordPiece\" (WordPiece or null)");
        if (const nlohmann::json *v = r.optional(d, "prefix"))
            options.decodePrefix = r.string(*v, "decoder.prefix");
        if (const nlohmann::json *v = r.optional(d, "cleanup"))
            options.decodeCleanup = r.boolean(*v, "decoder.cleanup");
    }
    std::unordered_map<std::string, int32_t> vocab;
    const nlohmann::json &vocabJson = r.object(r.required(model, "model", "vocab"), "model.vocab");
    vocab.reserve(vocabJson.size());
    for (auto it = vocabJson.begin(); it != vocabJson.end(); ++it)
        vocab.emplace(it.key(), r.int32(it.value(), "model.vocab[\"" + it.key() + "\"]"));

    std::unique_ptr<WordPieceTokenizer> tokenizer;
    try {
        tokenizer = std::make_unique<WordPieceTokenizer>(std::move(vocab), std::move(options));
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
    // The usual names of BERT's special tokens, when present, for callers that pad.
    if (auto id = tokenizer->tokenToId("[PAD]"))
        tokenizer->setPadId(id);
    return tokenizer;
}

std::string WordPieceTokenizer::normalize(std::string_view input) const
{
    std::u32string s = text::decodeUtf8(text::validUtf8(input));
    for (const NormalizerStep &step : m_options.normalizer) {
        switch (step.kind) {
        case NormalizerStep::Kind::Bert: {
            if (step.cleanText) {
                std::u32string t;
                t.reserve(s.size());
                for (char32_t c : s) {
                    if (c == 0 || c == 0xFFFD || isBertControl(c))
                        continue;
                    t.push_back(isBertWhitespace(c) ? U' ' : c);
                }
                s.swap(t);
            }
            if (step.handleChineseChars) {
                std::u32string t;
                t.reserve(s.size());
                for (char32_t c : s) {
                    if (isChineseChar(c)) {
                        t.push_back(U' ');
                        t.push_back(c);
                        t.push_back(U' ');
                    } else {
                        t.push_back(c);
                    }
                }
                s.swap(t);
            }
            if (step.stripAccents)
                s = withoutNonspacingMarks(toForm(s, text::UnicodeForm::NFD));
            if (step.lowercase)
                s = unicodeLowercase(s);
            break;
        }
        case NormalizerStep::Kind::Form: s = toForm(s, step.form); break;
        case NormalizerStep::Kind::Lowercase: s = unicodeLowercase(s); break;
        case NormalizerStep::Kind::StripAccents: s = withoutNonspacingMarks(s); break;
        }
    }
    return text::encodeUtf8(s);
}

std::vector<std::string> WordPieceTokenizer::preTokenize(std::string_view normalized) const
{
    const std::u32string s = text::decodeUtf8(normalized);
    std::vector<std::string> words;
    std::u32string word;
    auto flush = [&]() {
        if (!word.empty())
            words.push_back(text::encodeUtf8(word));
        word.clear();
    };
    for (char32_t c : s) {
        if (isBertWhitespace(c)) {
            flush();
        } else if (m_options.splitPunctuation && isBertPunctuation(c)) {
            flush();
            words.push_back(text::encodeUtf8(std::u32string(1, c)));
        } else {
            word.push_back(c);
        }
    }
    flush();
    return words;
}

void WordPieceTokenizer::encodePlain(std::string_view text, bool /*atStart*/, std::vector<int32_t> &out) const
{
    for (const std::string &word : preTokenize(normalize(text)))
        encodeWord(word, out);
}

void WordPieceTokenizer::encodeWord(std::string_view word, std::vector<int32_t> &out) const
{
    // Byte offsets of the word's characters, plus its end.
    std::vector<size_t> starts;
    for (size_t i = 0; i < word.size();) {
        starts.push_back(i);
        const auto lead = static_cast<unsigned char>(word[i]);
        i += lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 1;
    }
    const size_t n = starts.size();
    starts.push_back(word.size());
    if (n > static_cast<size_t>(m_options.maxInputCharsPerWord)) {
        out.push_back(m_unkId);
        return;
    }
    std::vector<int32_t> pieces;
    std::string candidate;
    size_t begin = 0;
    while (begin < n) {
        // The longest entry starting at `begin` ("##"-prefixed after the first piece).
        int32_t found = -1;
        size_t end = n;
        for (; end > begin; --end) {
            candidate.assign(begin > 0 ? m_options.continuingSubwordPrefix : std::string());
            candidate.append(word.substr(starts[begin], starts[end] - starts[begin]));
            if (auto it = m_vocab.find(candidate); it != m_vocab.end()) {
                found = it->second;
                break;
            }
        }
        if (found < 0) { // a rest that no entry covers: the whole word is unknown
            out.push_back(m_unkId);
            return;
        }
        pieces.push_back(found);
        begin = end;
    }
    out.insert(out.end(), pieces.begin(), pieces.end());
}

namespace {

// tokenizers' WordPiece decoder clean-up, applied to each token with its leading space.
std::string cleanUpPiece(std::string piece)
{
    static const std::pair<std::string_view, std::string_view> kReplacements[] = {
        {" .", "."},     {" ?", "?"},     {" !", "!"},     {" ,", ","},        {" ' ", "'"},   {" n't", "n't"},
        {" 'm", "'m"},   {" do not", " don't"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}};
    for (const auto &[from, to] : kReplacements) {
        for (size_t at = piece.find(from); at != std::string::npos; at = piece.find(from, at + to.size()))
            piece.replace(at, from.size(), to);
    }
    return piece;
}

} // namespace

void WordPieceTokenizer::appendAddedToken(const std::string &content, bool &first, std::string &out) const
{
    // Hugging Face's decoders see added tokens as tokens: "[CLS] hello [SEP]".
    std::string piece = content;
    const std::string &prefix = m_options.decodePrefix;
    if (!first) {
        if (!prefix.empty() && piece.compare(0, prefix.size(), prefix) == 0)
            piece.erase(0, prefix.size());
        else
            piece.insert(piece.begin(), ' ');
    }
    out += m_options.decodeCleanup ? cleanUpPiece(std::move(piece)) : piece;
    first = false;
}

bool WordPieceTokenizer::appendModelToken(int32_t id, bool &first, std::string &out) const
{
    if (id < 0 || static_cast<size_t>(id) >= m_idToToken.size() || m_idToToken[id].empty())
        return false;
    appendAddedToken(m_idToToken[id], first, out);
    return true;
}

std::optional<int32_t> WordPieceTokenizer::modelTokenToId(std::string_view token) const
{
    auto it = m_vocab.find(token);
    if (it == m_vocab.end())
        return std::nullopt;
    return it->second;
}

std::string WordPieceTokenizer::modelIdToToken(int32_t id) const
{
    if (id < 0 || static_cast<size_t>(id) >= m_idToToken.size())
        return {};
    return m_idToToken[id];
}

} // namespace rwb::tokenizer
