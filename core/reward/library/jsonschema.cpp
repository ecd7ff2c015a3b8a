#include "reward/library/jsonschema.h"

#include "reward/library/textforms.h"
#include "text/utf8.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::reward::library {

namespace {

using Json = nlohmann::ordered_json;

// What each keyword wants of its value, for the checks made while compiling.
constexpr const char *kSupported = "type, properties, required, additionalProperties, items, enum, const, minimum, "
                                   "maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, "
                                   "minItems, maxItems";
constexpr const char *kAnnotations[] = {"$schema", "$id", "$comment", "title", "description", "default", "examples"};
constexpr const char *kTypes[] = {"null", "boolean", "object", "array", "number", "integer", "string"};

std::string escapeToken(const std::string &key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

std::string child(const std::string &pointer, const std::string &token)
{
    return pointer + "/" + escapeToken(token);
}

std::string at(const std::string &pointer)
{
    return pointer == "#" ? std::string() : " at " + pointer;
}

[[noreturn]] void bad(const std::string &keyword, const std::string &pointer, const std::string &what)
{
    throw std::invalid_argument(keyword + at(pointer) + " " + what);
}

bool isInteger(const Json &v)
{
    if (v.is_number_integer())
        return true;
    if (!v.is_number_float())
        return false;
    const double d = v.get<double>();
    return std::isfinite(d) && d == std::floor(d);
}

bool isCount(const Json &v)
{
    return isInteger(v) && v.get<double>() >= 0.0;
}

bool hasType(const Json &value, const std::string &type)
{
    if (type == "integer")
        return isInteger(value);
    if (type == "number")
        return value.is_number();
    return jsonTypeName(value) == type;
}

std::string shown(const Json &v)
{
    return clipped(v.dump(), 60);
}

size_t codePoints(const std::string &s)
{
    return text::decodeUtf8(s).size();
}

} // namespace

std::string jsonTypeName(const Json &value)
{
    if (value.is_number())
        return isInteger(value) ? "integer" : "number";
    return value.type_name(); // null, boolean, object, array, string
}

std::string jsonErrorMessage(const Json::exception &e)
{
    std::string what = e.what();
    if (const size_t cut = what.find("] "); what.rfind("[json.exception", 0) == 0 && cut != std::string::npos)
        what.erase(0, cut + 2);
    return what;
}

bool jsonEqual(const Json &a, const Json &b, bool normalizeStrings)
{
    if (a.is_number() && b.is_number()) {
        if (a.is_number_float() || b.is_number_float())
            return a.get<double>() == b.get<double>();
        if (a.is_number_unsigned() || b.is_number_unsigned())
            return (a.is_number_unsigned() || a.get<int64_t>() >= 0) && (b.is_number_unsigned() || b.get<int64_t>() >= 0) &&
                   a.get<uint64_t>() == b.get<uint64_t>();
        return a.get<int64_t>() == b.get<int64_t>();
    }
    if (a.type() != b.type())
        return false;
    if (a.is_string())
        return normalizeStrings ? comparisonForm(a.get<std::string>(), true, false) ==
                                      comparisonForm(b.get<std::string>(), true, false)
                                : a == b;
    if (a.is_array()) {
        if (a.size() != b.size())
            return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!jsonEqual(a[i], b[i], normalizeStrings))
                return false;
        return true;
    }
    if (a.is_object()) {
        if (a.size() != b.size())
            return false;
        for (auto it = a.begin(); it != a.end(); ++it) {
            const auto other = b.find(it.key());
            if (other == b.end() || !jsonEqual(it.value(), *other, normalizeStrings))
                return false;
        }
        return true;
    }
    return a == b; // null, boolean
}

JsonSchema::JsonSchema(Json schema) : m_schema(std::move(schema))
{
    compile(m_schema, "#");
}

void JsonSchema::compile(const Json &schema, const std::string &pointer)
{
    if (schema.is_boolean())
        return;
    if (!schema.is_object())
        throw std::invalid_argument("the schema" + at(pointer) + " must be an object (or true or false), found " +
                                    schema.type_name());
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        const std::string &k = it.key();
        const Json &v = it.value();
        const std::string here = child(pointer, k);
        if (std::find(std::begin(kAnnotations), std::end(kAnnotations), k) != std::end(kAnnotations))
            continue;
        if (k == "type") {
            const auto known = [](const Json &t) {
                return t.is_string() && std::find(std::begin(kTypes), std::end(kTypes), t.get<std::string>()) != std::end(kTypes);
            };
            const bool ok = known(v) || (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), known));
            if (!ok)
                bad(k, pointer, "must be a type name or a list of them (null, boolean, object, array, number, integer, "
                                "string), found " + shown(v));
        } else if (k == "properties") {
            if (!v.is_object())
                bad(k, pointer, "must be an object of schemas");
            for (auto p = v.begin(); p != v.end(); ++p)
                compile(p.value(), child(here, p.key()));
        } else if (k == "required") {
            if (!v.is_array() || !std::all_of(v.begin(), v.end(), [](const Json &s) { return s.is_string(); }))
                bad(k, pointer, "must be a list of property names");
        } else if (k == "additionalProperties") {
            if (!v.is_boolean())
                bad(k, pointer, "must be true or false (a schema as its value is not supported)");
        } else if (k == "items") {
            if (v.is_array())
                bad(k, pointer, "must be one schema for every item (a list of schemas is not supported)");
            compile(v, here);
        } else if (k == "enum") {
            if (!v.is_array() || v.empty())
                bad(k, pointer, "must be a non-empty list");
        } else if (k == "const") {
        } else if (k == "minimum" || k == "maximum" || k == "exclusiveMinimum" || k == "exclusiveMaximum") {
            if (!v.is_number())
                bad(k, pointer, "must be a number" +
                                    std::string(v.is_boolean() ? " (draft 4's true / false form is not supported)" : ""));
        } else if (k == "minLength" || k == "maxLength" || k == "minItems" || k == "maxItems") {
            if (!isCount(v))
                bad(k, pointer, "must be a whole number ≥ 0, found " + shown(v));
        } else if (k == "pattern") {
            if (!v.is_string())
                bad(k, pointer, "must be a string (a regular expression)");
            const std::string p = v.get<std::string>();
            if (!m_patterns.count(p)) {
                try {
                    m_patterns.emplace(p, text::Regex(p));
                } catch (const std::invalid_argument &e) {
                    bad(k, pointer, std::string("does not compile: ") + e.what());
                }
            }
        } else {
            throw std::invalid_argument("the keyword \"" + k + "\"" + at(pointer) + " is not supported (supported: " +
                                        kSupported + "; annotations: $schema, $id, $comment, title, description, "
                                        "default, examples)");
        }
    }
}

std::optional<JsonSchema::Violation> JsonSchema::firstViolation(const Json &value) const
{
    return check(m_schema, value, "#");
}

std::optional<JsonSchema::Violation> JsonSchema::check(const Json &schema, const Json &value,
                                                       const std::string &pointer) const
{
    using V = Violation;
    if (schema.is_boolean())
        return schema.get<bool>() ? std::nullopt : std::optional<V>(V{pointer, "false", {}});
    if (const auto t = schema.find("type"); t != schema.end()) {
        bool ok = false;
        std::string expected;
        for (const Json &name : t->is_array() ? *t : Json::array({*t})) {
            ok = ok || hasType(value, name.get<std::string>());
            expected += (expected.empty() ? "" : " or ") + name.get<std::string>();
        }
        if (!ok)
            return V{pointer, "type", {jsonTypeName(value), expected}};
    }
    if (const auto e = schema.find("enum"); e != schema.end())
        if (std::none_of(e->begin(), e->end(), [&](const Json &option) { return jsonEqual(value, option); }))
            return V{pointer, "enum", {shown(value), shown(*e)}};
    if (const auto c = schema.find("const"); c != schema.end())
        if (!jsonEqual(value, *c))
            return V{pointer, "const", {shown(value), shown(*c)}};
    if (value.is_number()) {
        const double v = value.get<double>();
        const auto bound = [&](const char *keyword) -> std::optional<double> {
            const auto b = schema.find(keyword);
            return b == schema.end() ? std::nullopt : std::optional<double>(b->get<double>());
        };
        if (const auto b = bound("minimum"); b && !(v >= *b))
            return V{pointer, "minimum", {shown(value), formatNumber(*b)}};
        if (const auto b = bound("maximum"); b && !(v <= *b))
            return V{pointer, "maximum", {shown(value), formatNumber(*b)}};
        if (const auto b = bound("exclusiveMinimum"); b && !(v > *b))
            return V{pointer, "exclusive_minimum", {shown(value), formatNumber(*b)}};
        if (const auto b = bound("exclusiveMaximum"); b && !(v < *b))
            return V{pointer, "exclusive_maximum", {shown(value), formatNumber(*b)}};
    }
    if (value.is_string()) {
        const std::string &s = value.get_ref<const std::string &>();
        const size_t length = codePoints(s);
        if (const auto b = schema.find("minLength"); b != schema.end() && length < b->get<double>())
            return V{pointer, "min_length", {std::to_string(length), formatNumber(b->get<double>())}};
        if (const auto b = schema.find("maxLength"); b != schema.end() && length > b->get<double>())
            return V{pointer, "max_length", {std::to_string(length), formatNumber(b->get<double>())}};
        if (const auto p = schema.find("pattern"); p != schema.end()) {
            const text::Regex &regex = m_patterns.at(p->get<std::string>());
            try {
                if (!regex.search(s))
                    return V{pointer, "pattern", {clipped(regex.pattern())}};
            } catch (const text::RegexLimitError &e) {
                return V{pointer, "gave_up", {clipped(regex.pattern())}, e.what()};
            }
        }
    }
    if (value.is_array()) {
        const double n = static_cast<double>(value.size());
        if (const auto b = schema.find("minItems"); b != schema.end() && n < b->get<double>())
            return V{pointer, "min_items", {std::to_string(value.size()), formatNumber(b->get<double>())}};
        if (const auto b = schema.find("maxItems"); b != schema.end() && n > b->get<double>())
            return V{pointer, "max_items", {std::to_string(value.size()), formatNumber(b->get<double>())}};
        if (const auto items = schema.find("items"); items != schema.end())
            for (size_t i = 0; i < value.size(); ++i)
                if (auto v = check(*items, value[i], child(pointer, std::to_string(i))))
                    return v;
    }
    if (value.is_object()) {
        const auto properties = schema.find("properties");
        if (const auto r = schema.find("required"); r != schema.end())
            for (const Json &name : *r)
                if (!value.contains(name.get<std::string>()))
                    return V{pointer, "required", {name.get<std::string>()}};
        if (const auto a = schema.find("additionalProperties"); a != schema.end() && !a->get<bool>())
            for (auto it = value.begin(); it != value.end(); ++it)
                if (properties == schema.end() || !properties->contains(it.key()))
                    return V{pointer, "additional", {it.key()}};
        if (properties != schema.end())
            for (auto p = properties->begin(); p != properties->end(); ++p)
                if (const auto member = value.find(p.key()); member != value.end())
                    if (auto v = check(p.value(), *member, child(pointer, p.key())))
                        return v;
    }
    return std::nullopt;
}

} // namespace rwb::reward::library
