#include "tokenizer/sequencetemplate.h"

#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>

namespace rwb::tokenizer {

namespace {

// Appends the template of one post-processor to prefix / suffix.
void readProcessor(const JsonFieldReader &r, const nlohmann::json &p, const std::string &path,
                   const Tokenizer &tokenizer, std::vector<int32_t> &prefix, std::vector<int32_t> &suffix)
{
    const std::string typePath = JsonFieldReader::join(path, "type");
    const std::string type = r.string(r.required(p, path, "type"), typePath);
    if (type == "ByteLevel")
        return;
    if (type == "Sequence") {
        const std::string listPath = JsonFieldReader::join(path, "processors");
        const nlohmann::json &list = r.array(r.required(p, path, "processors"), listPath);
        for (size_t i = 0; i < list.size(); ++i)
            readProcessor(r, list[i], JsonFieldReader::index(listPath, i), tokenizer, prefix, suffix);
        return;
    }
    if (type == "BertProcessing" || type == "RobertaProcessing") {
        // "cls": ["[CLS]", 101]: the id as written, which must agree with the vocabulary.
        auto token = [&](const char *key) {
            const std::string field = JsonFieldReader::join(path, key);
            const nlohmann::json &pair = r.array(r.required(p, path, key), field);
            if (pair.size() != 2)
                r.fail(field, "expected [token, id]");
            const std::string content = r.string(pair[0], JsonFieldReader::index(field, 0));
            const int32_t id = r.int32(pair[1], JsonFieldReader::index(field, 1));
            if (auto known = tokenizer.tokenToId(content); known && *known != id)
                r.fail(field, "\"" + content + "\" is token " + std::to_string(*known) + ", not " + std::to_string(id));
            if (id < 0 || id >= tokenizer.vocabSize())
                r.fail(JsonFieldReader::index(field, 1), std::to_string(id) + " is not a token id");
            return id;
        };
        prefix.push_back(token("cls"));
        suffix.push_back(token("sep"));
        return;
    }
    if (type != "TemplateProcessing")
        r.fail(typePath, "post-processor \"" + type +
                             "\" is not supported (TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel "
                             "or a Sequence of them)");
    const std::string singlePath = JsonFieldReader::join(path, "single");
    const nlohmann::json &single = r.array(r.required(p, path, "single"), singlePath);
    const nlohmann::json *specials = r.optional(p, "special_tokens");
    bool seenSequence = false;
    for (size_t i = 0; i < single.size(); ++i) {
        const std::string itemPath = JsonFieldReader::index(singlePath, i);
        const nlohmann::json &item = r.object(single[i], itemPath);
        if (item.contains("Sequence")) {
            if (seenSequence)
                r.fail(itemPath, "a second $A in a single-sequence template");
            seenSequence = true;
            continue;
        }
        const std::string specialPath = JsonFieldReader::join(itemPath, "SpecialToken");
        const nlohmann::json &special = r.object(r.required(item, itemPath, "SpecialToken"), specialPath);
        const std::string name = r.string(r.required(special, specialPath, "id"), JsonFieldReader::join(specialPath, "id"));
        std::vector<int32_t> ids;
        if (const nlohmann::json *entry = specials ? r.optional(*specials, name.c_str()) : nullptr) {
            const std::string entryPath = JsonFieldReader::join(JsonFieldReader::join(path, "special_tokens"), name);
            const std::string idsPath = JsonFieldReader::join(entryPath, "ids");
            const nlohmann::json &list = r.array(r.required(*entry, entryPath, "ids"), idsPath);
            for (size_t k = 0; k < list.size(); ++k) {
                const int32_t id = r.int32(list[k], JsonFieldReader::index(idsPath, k));
                if (id < 0 || id >= tokenizer.vocabSize())
                    r.fail(JsonFieldReader::index(idsPath, k), std::to_string(id) + " is not a token id");
                ids.push_back(id);
            }
        } else if (auto id = tokenizer.tokenToId(name)) {
            ids.push_back(*id);
        } else {
            r.fail(JsonFieldReader::join(specialPath, "id"), "\"" + name + "\" is not a token");
        }
        std::vector<int32_t> &side = seenSequence ? suffix : prefix;
        side.insert(side.end(), ids.begin(), ids.end());
    }
    if (!seenSequence)
        r.fail(singlePath, "no {\"Sequence\": …} item: the template has no place for the text");
}

} // namespace

SequenceTemplate::SequenceTemplate(std::vector<int32_t> prefix, std::vector<int32_t> suffix)
    : m_prefix(std::move(prefix)), m_suffix(std::move(suffix))
{
}

SequenceTemplate SequenceTemplate::fromTokenizerJson(const nlohmann::json &doc, const Tokenizer &tokenizer,
                                                     const std::string &fileName)
{
    const JsonFieldReader r(fileName);
    r.object(doc, "");
    SequenceTemplate t;
    if (const nlohmann::json *p = r.optional(doc, "post_processor"))
        readProcessor(r, *p, "post_processor", tokenizer, t.m_prefix, t.m_suffix);
    return t;
}

std::vector<int32_t> SequenceTemplate::apply(const std::vector<int32_t> &ids, size_t maxLength) const
{
    size_t keep = ids.size();
    if (maxLength > 0)
        keep = std::min(keep, maxLength > addedCount() ? maxLength - addedCount() : 0);
    std::vector<int32_t> out;
    out.reserve(addedCount() + keep);
    out.insert(out.end(), m_prefix.begin(), m_prefix.end());
    out.insert(out.end(), ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(keep));
    out.insert(out.end(), m_suffix.begin(), m_suffix.end());
    return out;
}

} // namespace rwb::tokenizer
