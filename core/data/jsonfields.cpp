#include "data/jsonfields.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::data::jsonfields {

void fail(const Place &place, const std::string &reason)
{
    throw InputException({place.source, place.line, reason});
}

nlohmann::json parseObject(std::string_view line, const Place &place)
{
    nlohmann::json obj;
    try {
        obj = util::parseJson(line);
    } catch (const nlohmann::json::parse_error &e) {
        // e.byte is 1-based within the line.
        fail(place, "not valid JSON at column " + std::to_string(e.byte));
    }
    if (!obj.is_object())
        fail(place, std::string("expected a JSON object, found ") + obj.type_name());
    return obj;
}

const nlohmann::json &require(const nlohmann::json &obj, const char *field, const Place &place)
{
    auto it = obj.find(field);
    if (it == obj.end())
        fail(place, std::string("missing field \"") + field + "\"");
    return *it;
}

std::string asString(const nlohmann::json &value, const std::string &path, const Place &place)
{
    if (!value.is_string())
        fail(place, "field \"" + path + "\" must be a string, not " + value.type_name());
    return value.get<std::string>();
}

int64_t asInteger(const nlohmann::json &value, const std::string &path, const Place &place)
{
    // is_number_integer is false for booleans and for 1.5; true for 2 (not 2.0).
    if (!value.is_number_integer())
        fail(place, "field \"" + path + "\" must be an integer, not " +
                        (value.is_number() ? std::string("a fraction") : std::string(value.type_name())));
    if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))
        fail(place, "field \"" + path + "\" is too large");
    return value.get<int64_t>();
}

std::vector<int64_t> asIntegerArray(const nlohmann::json &value, const std::string &path, const Place &place)
{
    if (!value.is_array())
        fail(place, "field \"" + path + "\" must be an array of integers, not " + value.type_name());
    std::vector<int64_t> out;
    for (size_t i = 0; i < value.size(); ++i)
        out.push_back(asInteger(value[i], path + "[" + std::to_string(i) + "]", place));
    return out;
}

std::vector<std::string> asStringArray(const nlohmann::json &value, const std::string &path, const Place &place)
{
    if (!value.is_array())
        fail(place, "field \"" + path + "\" must be an array of strings, not " + value.type_name());
    std::vector<std::string> out;
    for (size_t i = 0; i < value.size(); ++i)
        out.push_back(asString(value[i], path + "[" + std::to_string(i) + "]", place));
    return out;
}

std::string requireId(const nlohmann::json &obj, const Place &place)
{
    const nlohmann::json &id = require(obj, "id", place);
    if (id.is_string())
        return id.get<std::string>();
    if (id.is_number_integer())
        return std::to_string(id.get<long long>());
    fail(place, std::string("field \"id\" must be a string or an integer, not ") + id.type_name());
}

} // namespace rwb::data::jsonfields
