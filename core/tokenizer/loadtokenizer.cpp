// loadTokenizer(): which file of a model folder holds the tokenizer, and what
// tokenizer_config.json adds to it.
#include "tokenizer/tokenizer.h"

#include "data/jsonl.h"
#include "tokenizer/bytelevelbpetokenizer.h"
#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/sentencepiecetokenizer.h"
#include "tokenizer/unigramjson.h"
#include "tokenizer/wordpiecetokenizer.h"

#include <cstdint>
#include <filesystem>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {

namespace fs = std::filesystem;

// The content of a token field: "<|im_end|>" or {"content": "<|im_end|>", …}.
std::string tokenContent(const JsonFieldReader &r, const nlohmann::json &v, const std::string &path)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_object())
        return r.string(r.required(v, path, "content"), JsonFieldReader::join(path, "content"));
    r.fail(path, std::string("expected a string or {\"content\": …}, found ") + v.type_name());
}

void addTokens(Tokenizer &tokenizer, const JsonFieldReader &r, const std::vector<AddedToken> &tokens,
               const std::string &path)
{
    try {
        tokenizer.addAddedTokens(tokens);
    } catch (const std::invalid_argument &e) {
        r.fail(path, e.what());
    }
}

// A token named by a field must exist; it becomes a special added token (matched in the
// raw text), as Hugging Face does with a model's special tokens. Returns its id.
int32_t requireSpecial(Tokenizer &tokenizer, const JsonFieldReader &r, const std::string &content,
                       const std::string &path)
{
    const std::optional<int32_t> id = tokenizer.tokenToId(content);
    if (!id)
        r.fail(path, "\"" + content + "\" is not in the vocabulary");
    bool known = false;
    for (const AddedToken &t : tokenizer.addedTokens())
        known = known || t.id == *id;
    if (!known) {
        AddedToken t;
        t.id = *id;
        t.content = content;
        t.special = true;
        addTokens(tokenizer, r, {t}, path);
    }
    return *id;
}

void applyTokenizerConfig(Tokenizer &tokenizer, const std::string &path)
{
    const JsonFieldReader r(path);
    const nlohmann::json doc = r.parseFile();
    r.object(doc, "");

    if (const nlohmann::json *decoder = r.optional(doc, "added_tokens_decoder")) {
        r.object(*decoder, "added_tokens_decoder");
        std::vector<AddedToken> tokens;
        for (auto it = decoder->begin(); it != decoder->end(); ++it) {
            const std::string field = JsonFieldReader::join("added_tokens_decoder", it.key());
            AddedToken t;
            try {
                size_t used = 0;
                const long id = std::stol(it.key(), &used);
                if (used != it.key().size() || id < 0 || id > INT32_MAX)
                    throw std::invalid_argument("");
                t.id = static_cast<int32_t>(id);
            } catch (const std::exception &) {
                r.fail(field, "the key must be a token id (a non-negative integer)");
            }
            const nlohmann::json &v = r.object(it.value(), field);
            t.content = r.string(r.required(v, field, "content"), JsonFieldReader::join(field, "content"));
            if (t.content.empty())
                r.fail(JsonFieldReader::join(field, "content"), "empty");
            t.special = r.optionalBoolean(v, field, "special", false);
            t.lstrip = r.optionalBoolean(v, field, "lstrip", false);
            t.rstrip = r.optionalBoolean(v, field, "rstrip", false);
            t.singleWord = r.optionalBoolean(v, field, "single_word", false);
            t.normalized = r.optionalBoolean(v, field, "normalized", !t.special);
            tokens.push_back(std::move(t));
        }
        addTokens(tokenizer, r, tokens, "added_tokens_decoder");
    }
    if (const nlohmann::json *extra = r.optional(doc, "additional_special_tokens")) {
        r.array(*extra, "additional_special_tokens");
        for (size_t i = 0; i < extra->size(); ++i) {
            const std::string field = JsonFieldReader::index("additional_special_tokens", i);
            requireSpecial(tokenizer, r, tokenContent(r, (*extra)[i], field), field);
        }
    }
    auto special = [&](const char *key) -> std::optional<int32_t> {
        const nlohmann::json *v = r.optional(doc, key);
        if (!v)
            return std::nullopt;
        return requireSpecial(tokenizer, r, tokenContent(r, *v, key), key);
    };
    if (auto id = special("bos_token"))
        tokenizer.setBosId(id);
    if (auto id = special("eos_token"))
        tokenizer.setEosId(id);
    if (auto id = special("pad_token"))
        tokenizer.setPadId(id);
    special("unk_token");
    if (const nlohmann::json *addBos = r.optional(doc, "add_bos_token"))
        tokenizer.setAddsBos(r.boolean(*addBos, "add_bos_token") && tokenizer.bosId().has_value());
}

} // namespace

std::unique_ptr<Tokenizer> loadTokenizer(const std::string &modelDir)
{
    const fs::path dir(modelDir);
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw data::InputException({modelDir, 0, "not a folder"});
    const std::string jsonPath = (dir / "tokenizer.json").string();
    const std::string modelPath = (dir / "tokenizer.model").string();
    const std::string configPath = (dir / "tokenizer_config.json").string();
    const bool hasJson = fs::exists(jsonPath, ec);
    const bool hasModel = fs::exists(modelPath, ec);

    std::unique_ptr<Tokenizer> tokenizer;
    if (hasJson) {
        const nlohmann::json doc = JsonFieldReader(jsonPath).parseFile();
        // A tokenizer.json of another kind (Unigram, WordPiece, sentencepiece-style BPE)
        // with a tokenizer.model beside it: the sentencepiece model is the same tokenizer.
        if (ByteLevelBpeTokenizer::isByteLevelBpe(doc))
            tokenizer = ByteLevelBpeTokenizer::fromJson(doc, jsonPath);
        else if (!hasModel && WordPieceTokenizer::isWordPiece(doc))
            tokenizer = WordPieceTokenizer::fromJson(doc, jsonPath);
        else if (!hasModel && isUnigramJson(doc))
            tokenizer = unigramTokenizerFromJson(doc, jsonPath);
        else if (!hasModel)
            tokenizer = ByteLevelBpeTokenizer::fromJson(doc, jsonPath); // reports what it cannot read
    }
    if (!tokenizer && hasModel)
        tokenizer = SentencePieceTokenizer::fromFile(modelPath);
    if (!tokenizer)
        throw data::InputException({modelDir, 0, "no tokenizer.json or tokenizer.model in this folder"});
    if (fs::exists(configPath, ec))
        applyTokenizerConfig(*tokenizer, configPath);
    return tokenizer;
}

void copyTokenizerFiles(const std::string &fromDir, const std::string &toDir)
{
    namespace fs = std::filesystem;
    for (const char *f : {"tokenizer.json", "tokenizer.model", "tokenizer_config.json", "special_tokens_map.json"}) {
        const fs::path from = fs::path(fromDir) / f, to = fs::path(toDir) / f;
        if (fs::exists(from) && fs::absolute(from) != fs::absolute(to))
            fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    }
}

} // namespace rwb::tokenizer
