#include "tokenizer/jsonfieldreader.h"

#include "tokenizer/tokenizer.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <limits>

namespace rwb::tokenizer {

namespace {

const char *typeName(const nlohmann::json &v)
{
    return v.type_name();
}

} // namespace

nlohmann::json JsonFieldReader::parse(std::string_view text) const
{
    try {
        return util::parseJson(text);
    } catch (const nlohmann::json::parse_error &e) {
        const size_t at = std::min<size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
        std::string reason = e.what();
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line …"
        if (const size_t colon = reason.find("]"); colon != std::string::npos)
            reason = reason.substr(colon + 2);
        throw data::InputException({m_file, line, "not valid JSON: " + reason});
    }
}

nlohmann::json JsonFieldReader::parseFile() const
{
    return parse(data::readTextFile(m_file));
}

void JsonFieldReader::fail(const std::string &path, const std::string &reason) const
{
    throw data::InputException({m_file, 0, path.empty() ? reason : path + ": " + reason});
}

const nlohmann::json &JsonFieldReader::required(const nlohmann::json &obj, const std::string &objPath,
                                                const char *key) const
{
    const std::string path = join(objPath, key);
    if (!obj.is_object())
        fail(objPath, std::string("expected an object, found ") + typeName(obj));
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        fail(path, "missing");
    return *it;
}

const nlohmann::json *JsonFieldReader::optional(const nlohmann::json &obj, const char *key) const
{
    if (!obj.is_object())
        return nullptr;
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return nullptr;
    return &*it;
}

const nlohmann::json &JsonFieldReader::object(const nlohmann::json &v, const std::string &path) const
{
    if (!v.is_object())
        fail(path, std::string("expected an object, found ") + typeName(v));
    return v;
}

const nlohmann::json &JsonFieldReader::array(const nlohmann::json &v, const std::string &path) const
{
    if (!v.is_array())
        fail(path, std::string("expected an array, found ") + typeName(v));
    return v;
}

std::string JsonFieldReader::string(const nlohmann::json &v, const std::string &path) const
{
    if (!v.is_string())
        fail(path, std::string("expected a string, found ") + typeName(v));
    return v.get<std::string>();
}

bool JsonFieldReader::boolean(const nlohmann::json &v, const std::string &path) const
{
    if (!v.is_boolean())
        fail(path, std::string("expected true or false, found ") + typeName(v));
    return v.get<bool>();
}

int32_t JsonFieldReader::int32(const nlohmann::json &v, const std::string &path) const
{
    if (v.is_number_unsigned()) {
        const auto u = v.get<uint64_t>();
        if (u <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
            return static_cast<int32_t>(u);
    } else if (v.is_number_integer()) {
        const auto i = v.get<int64_t>();
        if (i >= std::numeric_limits<int32_t>::min() && i <= std::numeric_limits<int32_t>::max())
            return static_cast<int32_t>(i);
    } else {
        fail(path, std::string("expected an integer, found ") + typeName(v));
    }
    fail(path, "integer out of range: " + v.dump());
}

bool JsonFieldReader::optionalBoolean(const nlohmann::json &obj, const std::string &objPath, const char *key,
                                      bool fallback) const
{
    const nlohmann::json *v = optional(obj, key);
    return v ? boolean(*v, join(objPath, key)) : fallback;
}

std::string JsonFieldReader::join(const std::string &path, std::string_view key)
{
    return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string JsonFieldReader::index(const std::string &path, size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

std::vector<AddedToken> readAddedTokens(const JsonFieldReader &r, const nlohmann::json &doc)
{
    std::vector<AddedToken> tokens;
    const nlohmann::json *added = r.optional(doc, "added_tokens");
    if (!added)
        return tokens;
    r.array(*added, "added_tokens");
    for (size_t i = 0; i < added->size(); ++i) {
        const std::string path = JsonFieldReader::index("added_tokens", i);
        const nlohmann::json &a = r.object((*added)[i], path);
        AddedToken t;
        t.id = r.int32(r.required(a, path, "id"), JsonFieldReader::join(path, "id"));
        t.content = r.string(r.required(a, path, "content"), JsonFieldReader::join(path, "content"));
        t.special = r.optionalBoolean(a, path, "special", false);
        t.lstrip = r.optionalBoolean(a, path, "lstrip", false);
        t.rstrip = r.optionalBoolean(a, path, "rstrip", false);
        t.singleWord = r.optionalBoolean(a, path, "single_word", false);
        t.normalized = r.optionalBoolean(a, path, "normalized", !t.special);
        if (t.id < 0)
            r.fail(JsonFieldReader::join(path, "id"), "negative id");
        if (t.content.empty())
            r.fail(JsonFieldReader::join(path, "content"), "empty");
        tokens.push_back(std::move(t));
    }
    return tokens;
}

} // namespace rwb::tokenizer
