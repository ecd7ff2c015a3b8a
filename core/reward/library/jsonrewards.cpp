#include "reward/library/jsonrewards.h"

#include "reward/library/componentoptions.h"
#include "reward/library/textforms.h"
#include "util/boundedjson.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rwb::reward {

using namespace library;
using Json = nlohmann::ordered_json;

namespace {

// What a JSON component read of the reply: the value, or the parser's message.
struct Parsed {
    std::optional<Json> value;
    std::string error;
};

Parsed parseReply(std::string_view text, bool fences)
{
    try {
        return {util::parseJson<Json>(jsonPayload(text, fences)), {}};
    } catch (const Json::exception &e) {
        return {std::nullopt, clipped(jsonErrorMessage(e), 160)};
    }
}

// 1-based line and column of nlohmann's error byte (1-based, the byte after the error).
std::pair<size_t, size_t> lineColumn(std::string_view text, size_t byte)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

// The schema file `file` names, relative to `baseDir`.
std::string schemaPath(const std::string &file, const std::string &baseDir)
{
    std::filesystem::path path(file);
    if (path.is_relative() && !baseDir.empty())
        path = std::filesystem::path(baseDir) / path;
    return path.lexically_normal().string();
}

Json readSchemaFile(const std::string &shownPath)
{
    namespace fs = std::filesystem;
    const fs::path path(shownPath);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        ComponentOptions::fail("schema_file", shownPath + ": no such file");
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (!in)
        ComponentOptions::fail("schema_file", shownPath + ": cannot be read");
    const std::string content = buffer.str();
    try {
        return util::parseJson<Json>(content);
    } catch (const Json::parse_error &e) {
        const auto [line, column] = lineColumn(content, e.byte);
        ComponentOptions::fail("schema_file", shownPath + ":" + std::to_string(line) + ": not valid JSON (column " +
                                                  std::to_string(column) + ": " + jsonErrorMessage(e) + ")");
    } catch (const Json::exception &e) {
        ComponentOptions::fail("schema_file", shownPath + ": not valid JSON (" + jsonErrorMessage(e) + ")");
    }
}

} // namespace

// ---- json_valid

JsonValidReward::JsonValidReward(const RewardOptions &options) : LibraryReward("json_valid", options)
{
    const ComponentOptions o(options.componentOptions, {"target", "type", "fences"});
    readTarget(o, LibraryTarget::Answer);
    m_type = o.choice("type", "any", {"any", "object", "array"});
    m_fences = o.boolean("fences", true);
}

Explanation JsonValidReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    const Parsed p = parseReply(target(completion), m_fences);
    if (!p.value)
        return said(0.0, "json.invalid", {p.error});
    const std::string type = jsonTypeName(*p.value);
    if ((m_type == "object" && !p.value->is_object()) || (m_type == "array" && !p.value->is_array()))
        return said(0.0, "json_valid.wrong_type", {type, m_type == "object" ? "an object" : "an array"});
    return said(1.0, "json_valid.ok", {type});
}

// ---- json_schema

JsonSchemaReward::JsonSchemaReward(const RewardOptions &options) : LibraryReward("json_schema", options)
{
    const ComponentOptions o(options.componentOptions, {"schema", "schema_file", "target", "fences"});
    readTarget(o, LibraryTarget::Answer);
    m_fences = o.boolean("fences", true);
    const nlohmann::json *given = o.value("schema");
    const std::optional<std::string> file = o.string("schema_file");
    if (given && file)
        ComponentOptions::fail("schema_file", "give either schema or schema_file, not both");
    if (!given && !file)
        ComponentOptions::fail("schema", "missing (give schema, a JSON Schema object, or schema_file, the path of one)");
    if (given && !given->is_object() && !given->is_boolean())
        ComponentOptions::fail("schema", std::string("must be a JSON Schema object, found ") + given->type_name());
    // ComponentOptions holds nlohmann::json, whose objects forget their order: the schema is
    // read again in order, so that "the first violation" follows the schema as written.
    const std::string path = file ? schemaPath(*file, options.baseDir) : std::string();
    Json schema = given ? util::parseJson<Json>(options.componentOptions).at("schema") : readSchemaFile(path);
    try {
        m_schema.emplace(std::move(schema));
    } catch (const std::invalid_argument &e) {
        if (file)
            ComponentOptions::fail("schema_file", path + ": " + e.what());
        ComponentOptions::fail("schema", e.what());
    }
}

Explanation JsonSchemaReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    const Parsed p = parseReply(target(completion), m_fences);
    if (!p.value)
        return said(0.0, "json.invalid", {p.error});
    const std::optional<JsonSchema::Violation> v = m_schema->firstViolation(*p.value);
    if (!v)
        return said(1.0, "json_schema.ok");
    std::vector<std::string> args{v->pointer};
    args.insert(args.end(), v->args.begin(), v->args.end());
    Explanation x = said(v->error.empty() ? 0.0 : kNone, "json_schema." + v->keyword, std::move(args));
    x.error = v->error;
    return x;
}

// ---- json_fields

JsonFieldsReward::JsonFieldsReward(const RewardOptions &options) : LibraryReward("json_fields", options)
{
    const ComponentOptions o(options.componentOptions, {"column", "target", "fields", "normalize", "fences"});
    readColumn(o);
    readTarget(o, LibraryTarget::Answer);
    m_fields = o.strings("fields").value_or(std::vector<std::string>{});
    m_normalize = o.boolean("normalize", true);
    m_fences = o.boolean("fences", true);
}

void JsonFieldsReward::checkExample(const task::Example &example) const
{
    LibraryReward::checkExample(example);
    Explanation why;
    const std::optional<std::string> ref = reference(example, why);
    if (ref && !util::parseJsonOrDiscarded<Json>(*ref).is_object())
        throw std::invalid_argument(std::string(name()) + ": the " +
                                    (column().empty() ? std::string("gold") : "column \"" + column() + "\"") +
                                    " of example \"" + example.id() + "\" is not a JSON object");
}

Explanation JsonFieldsReward::evaluate(const task::Example &example, const task::Completion &completion) const
{
    Explanation why;
    const std::optional<std::string> ref = reference(example, why);
    if (!ref)
        return why;
    const Json gold = util::parseJsonOrDiscarded<Json>(*ref);
    if (!gold.is_object())
        return column().empty() ? said(kNone, "json_fields.gold_not_object")
                                : said(kNone, "json_fields.column_not_object", {column()});
    std::vector<std::string> fields = m_fields;
    if (fields.empty())
        for (auto it = gold.begin(); it != gold.end(); ++it)
            fields.push_back(it.key());
    if (fields.empty())
        return said(kNone, "json_fields.no_fields");
    const Parsed p = parseReply(target(completion), m_fences);
    if (!p.value)
        return said(0.0, "json.invalid", {p.error});
    if (!p.value->is_object())
        return said(0.0, "json_fields.not_object", {jsonTypeName(*p.value)});
    std::vector<std::string> agree, differ;
    for (const std::string &f : fields) {
        const auto g = gold.find(f);
        const auto a = p.value->find(f);
        // A listed field the reference lacks agrees when the reply lacks it too.
        const bool same = g == gold.end() ? a == p.value->end()
                                          : a != p.value->end() && jsonEqual(*a, *g, m_normalize);
        (same ? agree : differ).push_back(f);
    }
    const double value = static_cast<double>(agree.size()) / static_cast<double>(fields.size());
    Explanation x = said(value, "json_fields.compared",
                         {std::to_string(agree.size()), std::to_string(fields.size()), listed(agree), listed(differ),
                          formatShare(value)});
    x.answer = p.value->dump();
    x.gold = gold.dump();
    return x;
}

} // namespace rwb::reward
