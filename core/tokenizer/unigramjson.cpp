#include "tokenizer/unigramjson.h"

#include "tokenizer/jsonfieldreader.h"

#include <cmath>
#include <set>

namespace rwb::tokenizer {

namespace {

// The escaped space, U+2581 LOWER ONE EIGHTH BLOCK.
constexpr std::string_view kSpaceMark = "\xE2\x96\x81";

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
    o.escapeWhitespaces = true;
    o.bosId = o.eosId = o.padId = -1;

    // normalizer
    auto readNormalizer = [&](const nlohmann::json &n, const std::string &path) {
        const std::string typePath = JsonFieldReader::join(path, "type");
        const std::string type = r.string(r.required(n, path, "type"), typePath);
        if (type == "Precompiled" || type == "NFKC") {
            o.normalizerName = "nmt_nfkc";
        } else if (type == "Replace") {
            const std::string patternPath = JsonFieldReader::join(path, "pattern");
            const nlohmann::json &pattern = r.object(r.required(n, path, "pattern"), patternPath);
            std::string what;
            if (const nlohmann::json *re = r.optional(pattern, "Regex"))
                what = r.string(*re, JsonFieldReader::join(patternPath, "Regex"));
            else if (const nlohmann::json *s = r.optional(pattern, "String"))
                what = r.string(*s, JsonFieldReader::join(patternPath, "String"));
            const std::string content = r.string(r.required(n, path, "content"), JsonFieldReader::join(path, "content"));
            if (!((what == " {2,}" || what == "  " || what == " +") && content == " "))
                r.fail(path, "only a Replace of runs of spaces by one space is supported, not \"" + what + "\" → \"" +
                                 content + "\"");
            o.removeExtraWhitespaces = true;
        } else if (type == "Strip") {
            o.removeExtraWhitespaces = true;
        } else {
            r.fail(typePath, "normalizer \"" + type +
                                 "\" is not supported in a Unigram tokenizer (Precompiled, NFKC, Replace of spaces, "
                                 "Strip or a Sequence of them)");
        }
    };
    if (const nlohmann::json *n = r.optional(doc, "normalizer")) {
        if (r.string(r.required(*n, "normalizer", "type"), "normalizer.type") == "Sequence") {
            const nlohmann::json &list = r.array(r.required(*n, "normalizer", "normalizers"), "normalizer.normalizers");
            for (size_t i = 0; i < list.size(); ++i)
                readNormalizer(list[i], JsonFieldReader::index("normalizer.normalizers", i));
        } else {
            readNormalizer(*n, "normalizer");
        }
    }

    // pre_tokenizer: Metaspace, maybe after WhitespaceSplit
    const nlohmann::json *pre = r.optional(doc, "pre_tokenizer");
    if (!pre)
        r.fail("pre_tokenizer", "missing: a Unigram tokenizer needs a Metaspace pre-tokenizer");
    bool metaspace = false;
    auto readPre = [&](const nlohmann::json &p, const std::string &path) {
        const std::string typePath = JsonFieldReader::join(path, "type");
        const std::string type = r.string(r.required(p, path, "type"), typePath);
        if (type == "WhitespaceSplit")
            return; // the Viterbi segmentation never joins words across the "▁" it puts in
        if (type != "Metaspace")
            r.fail(typePath, "pre-tokenizer \"" + type + "\" is not supported in a Unigram tokenizer (Metaspace)");
        metaspace = true;
        if (const nlohmann::json *rep = r.optional(p, "replacement"))
            if (r.string(*rep, JsonFieldReader::join(path, "replacement")) != kSpaceMark)
                r.fail(JsonFieldReader::join(path, "replacement"), "only \"▁\" (U+2581) is supported");
        if (const nlohmann::json *scheme = r.optional(p, "prepend_scheme")) {
            const std::string s = r.string(*scheme, JsonFieldReader::join(path, "prepend_scheme"));
            if (s != "always" && s != "first" && s != "never")
                r.fail(JsonFieldReader::join(path, "prepend_scheme"), "\"" + s + "\" is not always, first or never");
            o.addDummyPrefix = s != "never";
        } else {
            o.addDummyPrefix = r.optionalBoolean(p, path, "add_prefix_space", true);
        }
    };
    if (r.string(r.required(*pre, "pre_tokenizer", "type"), "pre_tokenizer.type") == "Sequence") {
        const nlohmann::json &list = r.array(r.required(*pre, "pre_tokenizer", "pretokenizers"), "pre_tokenizer.pretokenizers");
        for (size_t i = 0; i < list.size(); ++i)
            readPre(list[i], JsonFieldReader::index("pre_tokenizer.pretokenizers", i));
    } else {
        readPre(*pre, "pre_tokenizer");
    }
    if (!metaspace)
        r.fail("pre_tokenizer", "no Metaspace step: a Unigram tokenizer needs one");

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
        p.score = entry[1].get<float>();
        const auto id = static_cast<int32_t>(i);
        if (id == o.unkId)
            p.type = PieceType::Unknown;
        else if (control.count(id))
            p.type = PieceType::Control;
        else if (o.byteFallback && isBytePiece(p.piece))
            p.type = PieceType::Byte;
        m.pieces.push_back(std::move(p));
    }

    auto tokenizer = std::make_unique<SentencePieceTokenizer>(std::move(m), fileName);
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
