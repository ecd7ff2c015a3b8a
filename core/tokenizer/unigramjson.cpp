#include "tokenizer/unigramjson.h"

#include "text/unicodeform.h"
#include "text/utf8.h"
#include "tokenizer/hfnormalizer.h"
#include "tokenizer/jsonfieldreader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace rwb::tokenizer {

namespace {

// The escaped space, U+2581 LOWER ONE EIGHTH BLOCK.
constexpr std::string_view kSpaceMark = "\xE2\x96\x81";
// tokenizers' (and sentencepiece's) penalty for an unknown character in the lattice.
constexpr double kUnkPenalty = 10.0;

enum class Prepend { Always, First, Never };

std::string typeOf(const nlohmann::json &obj)
{
    if (!obj.is_object())
        return {};
    auto it = obj.find("type");
    return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool isBytePiece(const std::string &piece)
{
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); };
    return piece.size() == 6 && piece.compare(0, 3, "<0x") == 0 && hex(piece[3]) && hex(piece[4]) && piece[5] == '>';
}

bool startsWithMark(std::string_view s)
{
    return s.substr(0, kSpaceMark.size()) == kSpaceMark;
}

// A Metaspace (pre-tokenizer or decoder): its replacement must be "▁"; prepend_scheme, or
// the older add_prefix_space.
Prepend readPrepend(const JsonFieldReader &r, const nlohmann::json &obj, const std::string &path)
{
    if (const nlohmann::json *rep = r.optional(obj, "replacement"))
        if (r.string(*rep, JsonFieldReader::join(path, "replacement")) != kSpaceMark)
            r.fail(JsonFieldReader::join(path, "replacement"), "only \"▁\" (U+2581) is supported");
    if (const nlohmann::json *scheme = r.optional(obj, "prepend_scheme")) {
        const std::string s = r.string(*scheme, JsonFieldReader::join(path, "prepend_scheme"));
        if (s == "always")
            return Prepend::Always;
        if (s == "first")
            return Prepend::First;
        if (s == "never")
            return Prepend::Never;
        r.fail(JsonFieldReader::join(path, "prepend_scheme"), "\"" + s + "\" is not always, first or never");
    }
    return r.optionalBoolean(obj, path, "add_prefix_space", true) ? Prepend::Always : Prepend::Never;
}

class UnigramJsonTokenizer : public SentencePieceTokenizer {
public:
    UnigramJsonTokenizer(SentencePieceModel model, const std::string &fileName, HfNormalizer normalizer,
                         bool whitespaceSplit, Prepend prepend, Prepend decodePrepend, double unknownScore)
        : SentencePieceTokenizer(std::move(model), fileName),
          m_normalizer(std::move(normalizer)),
          m_whitespaceSplit(whitespaceSplit),
          m_prepend(prepend),
          m_decodePrepend(decodePrepend)
    {
        setUnknownScore(unknownScore);
    }

    std::string kind() const override { return "unigram"; }

protected:
    bool normalizesFirst() const override { return true; }

    std::string normalizeText(std::string_view raw, bool &keepsStart) const override
    {
        return m_normalizer.apply(text::validUtf8(raw), &keepsStart);
    }

    void encodePlain(std::string_view text, bool atStart, std::vector<int32_t> &out) const override
    {
        if (!m_whitespaceSplit) {
            metaspace(text, atStart, out);
            return;
        }
        // WhitespaceSplit: the words between runs of White_Space; only a word at offset 0
        // still starts the text.
        size_t i = 0, wordBegin = std::string_view::npos;
        while (i <= text.size()) {
            const auto [c, len] = i < text.size() ? text::decodeCharAt(text, i) : std::pair<char32_t, size_t>{U' ', 1};
            if (text::isWhiteSpace(c)) {
                if (wordBegin != std::string_view::npos)
                    metaspace(text.substr(wordBegin, i - wordBegin), atStart && wordBegin == 0, out);
                wordBegin = std::string_view::npos;
            } else if (wordBegin == std::string_view::npos) {
                wordBegin = i;
            }
            i += len;
        }
    }

    bool appendModelToken(int32_t id, bool &first, std::string &out) const override
    {
        if (id < 0 || id >= modelVocabSize())
            return false;
        if (model().pieces[id].type == PieceType::Byte)
            return SentencePieceTokenizer::appendModelToken(id, first, out);
        appendDecoded(model().pieces[id].piece, first, out);
        return true;
    }

    // tokenizers hands added tokens to the decoder with the others: they are "the first
    // token" when they come first.
    void appendAddedToken(const std::string &content, bool &first, std::string &out) const override
    {
        appendDecoded(content, first, out);
    }

private:
    // Metaspace: spaces → "▁", the prepend scheme, then a cut before every "▁"; each piece
    // through the Unigram lattice.
    void metaspace(std::string_view word, bool atStart, std::vector<int32_t> &out) const
    {
        std::string s;
        s.reserve(word.size() + 8);
        if (m_prepend == Prepend::Always || (m_prepend == Prepend::First && atStart))
            if (!word.empty() && word[0] != ' ' && !startsWithMark(word))
                s += kSpaceMark;
        for (char c : word) {
            if (c == ' ')
                s += kSpaceMark;
            else
                s.push_back(c);
        }
        const std::string_view v(s);
        size_t from = 0;
        for (size_t at = v.find(kSpaceMark, 1); at != std::string_view::npos;
             at = v.find(kSpaceMark, at + kSpaceMark.size())) {
            if (at > from) {
                encodeUnigram(v.substr(from, at - from), out);
                from = at;
            }
        }
        if (from < v.size())
            encodeUnigram(v.substr(from), out);
    }

    void appendDecoded(std::string_view token, bool &first, std::string &out) const
    {
        const bool drop = first && m_decodePrepend != Prepend::Never;
        for (size_t at = 0; at < token.size();) {
            if (startsWithMark(token.substr(at))) {
                if (!drop)
                    out.push_back(' ');
                at += kSpaceMark.size();
            } else {
                out.push_back(token[at++]);
            }
        }
        first = false;
    }

    HfNormalizer m_normalizer;
    bool m_whitespaceSplit;
    Prepend m_prepend;
    Prepend m_decodePrepend;
};

} // namespace

bool isUnigramJson(const nlohmann::json &doc)
{
    return doc.is_object() && doc.contains("model") && typeOf(doc["model"]) == "Unigram";
}

std::unique_ptr<SentencePieceTokenizer> unigramTokenizerFromJson(const nlohmann::json &doc, const std::string &fileName)
{
    const JsonFieldReader r(fileName);
    r.object(doc, "");
    SentencePieceModel m;
    SentencePieceOptions &o = m.options;
    o.algorithm = SentencePieceAlgorithm::Unigram;
    o.normalizerName = "identity";
    o.removeExtraWhitespaces = false;
    o.addDummyPrefix = false;
    o.escapeWhitespaces = false;
    o.bosId = o.eosId = o.padId = -1;

    HfNormalizer normalizer = HfNormalizer::fromJson(r, r.optional(doc, "normalizer"));

    // pre_tokenizer: Metaspace, maybe after WhitespaceSplit
    const nlohmann::json *pre = r.optional(doc, "pre_tokenizer");
    if (!pre)
        r.fail("pre_tokenizer", "missing: a Unigram tokenizer needs a Metaspace pre-tokenizer");
    std::vector<std::pair<const nlohmann::json *, std::string>> steps;
    r.object(*pre, "pre_tokenizer");
    if (r.string(r.required(*pre, "pre_tokenizer", "type"), "pre_tokenizer.type") == "Sequence") {
        const nlohmann::json &list = r.array(r.required(*pre, "pre_tokenizer", "pretokenizers"), "pre_tokenizer.pretokenizers");
        for (size_t i = 0; i < list.size(); ++i)
            steps.emplace_back(&list[i], JsonFieldReader::index("pre_tokenizer.pretokenizers", i));
    } else {
        steps.emplace_back(pre, "pre_tokenizer");
    }
    bool whitespaceSplit = false, metaspace = false;
    Prepend prepend = Prepend::Always;
    for (const auto &[p, path] : steps) {
        r.object(*p, path);
        const std::string typePath = JsonFieldReader::join(path, "type");
        const std::string type = r.string(r.required(*p, path, "type"), typePath);
        if (type == "WhitespaceSplit" && !metaspace && !whitespaceSplit) {
            whitespaceSplit = true;
        } else if (type == "Metaspace" && !metaspace) {
            metaspace = true;
            prepend = readPrepend(r, *p, path);
            if (!r.optionalBoolean(*p, path, "split", true))
                r.fail(JsonFieldReader::join(path, "split"), "false is not supported (the pieces are cut at \"▁\")");
        } else {
            r.fail(typePath, "pre-tokenizer \"" + type +
                                 "\" is not supported here: a Unigram tokenizer takes a Metaspace, alone or after "
                                 "one WhitespaceSplit");
        }
    }
    if (!metaspace)
        r.fail("pre_tokenizer", "no Metaspace step: a Unigram tokenizer needs one");

    // decoder: Metaspace (absent: as the pre-tokenizer's)
    Prepend decodePrepend = prepend;
    if (const nlohmann::json *d = r.optional(doc, "decoder")) {
        r.object(*d, "decoder");
        const std::string type = r.string(r.required(*d, "decoder", "type"), "decoder.type");
        if (type != "Metaspace")
            r.fail("decoder.type", "decoder \"" + type + "\" is not supported here: a Unigram tokenizer takes a Metaspace");
        decodePrepend = readPrepend(r, *d, "decoder");
    }

    // model
    const nlohmann::json &model = r.object(r.required(doc, "", "model"), "model");
    const std::string modelType = r.string(r.required(model, "model", "type"), "model.type");
    if (modelType != "Unigram")
        r.fail("model.type", "\"" + modelType + "\" is not Unigram");
    o.byteFallback = r.optionalBoolean(model, "model", "byte_fallback", false);
    const nlohmann::json &vocab = r.array(r.required(model, "model", "vocab"), "model.vocab");
    if (vocab.empty())
        r.fail("model.vocab", "empty");
    const nlohmann::json *unk = r.optional(model, "unk_id");
    if (!unk)
        r.fail("model.unk_id", "missing: a Unigram model without an unknown token is not supported");
    o.unkId = r.int32(*unk, "model.unk_id");
    if (o.unkId < 0 || static_cast<size_t>(o.unkId) >= vocab.size())
        r.fail("model.unk_id", std::to_string(o.unkId) + " is not an index of model.vocab (" +
                                   std::to_string(vocab.size()) + " entries)");

    // Special added tokens inside the vocabulary: CONTROL pieces.
    std::set<int32_t> control;
    std::vector<AddedToken> addedTokens = readAddedTokens(r, doc);
    for (const AddedToken &t : addedTokens)
        if (t.special)
            control.insert(t.id);

    // tokenizers scores an unknown character by the lowest score of the whole vocabulary.
    double minScore = std::numeric_limits<double>::max();
    m.pieces.reserve(vocab.size());
    for (size_t i = 0; i < vocab.size(); ++i) {
        const std::string path = JsonFieldReader::index("model.vocab", i);
        const nlohmann::json &entry = r.array(vocab[i], path);
        if (entry.size() != 2)
            r.fail(path, "expected [piece, score]");
        SentencePiece p;
        p.piece = r.string(entry[0], JsonFieldReader::index(path, 0));
        if (!entry[1].is_number() || !std::isfinite(entry[1].get<double>()))
            r.fail(JsonFieldReader::index(path, 1), "the score must be a finite number");
        p.score = entry[1].get<double>();
        minScore = std::min(minScore, p.score);
        const auto id = static_cast<int32_t>(i);
        if (id == o.unkId)
            p.type = PieceType::Unknown;
        else if (control.count(id))
            p.type = PieceType::Control;
        else if (o.byteFallback && isBytePiece(p.piece))
            p.type = PieceType::Byte;
        m.pieces.push_back(std::move(p));
    }

    auto tokenizer = std::make_unique<UnigramJsonTokenizer>(std::move(m), fileName, std::move(normalizer),
                                                            whitespaceSplit, prepend, decodePrepend,
                                                            minScore - kUnkPenalty);
    if (!addedTokens.empty()) {
        try {
            tokenizer->addAddedTokens(addedTokens);
        } catch (const std::invalid_argument &e) {
            r.fail("added_tokens", e.what());
        }
    }
    if (auto id = tokenizer->tokenToId("<s>"))
        tokenizer->setBosId(id);
    if (auto id = tokenizer->tokenToId("</s>"))
        tokenizer->setEosId(id);
    if (auto id = tokenizer->tokenToId("<pad>"))
        tokenizer->setPadId(id);
    tokenizer->setAddsBos(false);
    return tokenizer;
}

} // namespace rwb::tokenizer
