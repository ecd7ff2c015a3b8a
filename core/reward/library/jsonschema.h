#pragma once

#include "text/regex.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace rwb::reward::library {

// A JSON Schema of the subset `json_schema` supports (docs/rewards.md, "json_schema"):
// type (one name or a list; "integer" takes 1.0 too), properties, required,
// additionalProperties (true or false), items (one schema for every item), enum, const,
// minimum, maximum, exclusiveMinimum, exclusiveMaximum (numbers, as in draft 6 and
// later), minLength, maxLength (code points), pattern (searched, Python's syntax),
// minItems, maxItems; the schemas true and false; and the annotations $schema, $id,
// $comment, title, description, default, examples, which check nothing. Immutable after
// construction; safe to use from several threads.
class JsonSchema {
public:
    // Throws std::invalid_argument naming the keyword and where it stands ("the keyword
    // \"format\" at #/properties/email is not supported (supported: …)", "minimum at
    // #/properties/age must be a number") for anything outside the subset.
    explicit JsonSchema(nlohmann::ordered_json schema);

    // Where a value breaks the schema: the JSON pointer of the value ("#" the whole,
    // "#/items/0/name"), which keyword it breaks ("type", "required", "exclusive_minimum",
    // …) and what fills the keyword's sentence after the pointer (the value, the bound).
    // The keyword "gave_up" says that a pattern gave up backtracking on the string there
    // (text::RegexLimitError, whose message is then in `error`): no verdict.
    struct Violation {
        std::string pointer;
        std::string keyword;
        std::vector<std::string> args{};
        std::string error{};
    };

    // The first violation, checking each value's own keywords before its items' and
    // properties' (in the order the schema lists them), or none when `value` matches.
    std::optional<Violation> firstViolation(const nlohmann::ordered_json &value) const;

private:
    std::optional<Violation> check(const nlohmann::ordered_json &schema, const nlohmann::ordered_json &value,
                                   const std::string &pointer) const;
    void compile(const nlohmann::ordered_json &schema, const std::string &pointer);

    nlohmann::ordered_json m_schema;
    std::map<std::string, text::Regex> m_patterns; // every "pattern", compiled, by its text
};

// Whether two JSON values are equal as JSON Schema's enum and const see them: numbers by
// value (1 and 1.0 alike), objects whatever the order of their keys, arrays item by item.
// With `normalizeStrings`, strings are compared in exact_match's comparison form
// (comparisonForm(s, true, false)).
bool jsonEqual(const nlohmann::ordered_json &a, const nlohmann::ordered_json &b, bool normalizeStrings = false);

// A value's JSON Schema type name: "null", "boolean", "object", "array", "string",
// "integer" (a number without a fraction) or "number".
std::string jsonTypeName(const nlohmann::ordered_json &value);

// The message of a nlohmann parse error without its "[json.exception…] " prefix.
std::string jsonErrorMessage(const nlohmann::ordered_json::exception &e);

} // namespace rwb::reward::library
