#pragma once

// The generic components that read a reply as JSON: json_valid, json_schema, json_fields.
// docs/rewards.md defines each with an example; library.h registers them.

#include "reward/library/jsonschema.h"
#include "reward/library/libraryreward.h"

#include <optional>
#include <string>
#include <vector>

namespace rwb::reward {

// json_valid: 1 when the reply (library::jsonPayload: inside its ``` fence) parses as JSON
// of the wanted type, else 0. Options: target ("answer"), type ("any" | "object" |
// "array"), fences (true).
class JsonValidReward : public LibraryReward {
public:
    explicit JsonValidReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::string m_type = "any";
    bool m_fences = true;
};

// json_schema: 1 when the reply is JSON that matches the schema (library::JsonSchema's
// subset), else 0 with the first violation. Options: schema (an object) or schema_file (a
// path, relative to the config's folder), target ("answer"), fences (true).
class JsonSchemaReward : public LibraryReward {
public:
    // Throws std::invalid_argument for a schema outside the subset, a schema file that
    // cannot be read or does not parse (naming the file and the line).
    explicit JsonSchemaReward(const RewardOptions &options);

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::optional<library::JsonSchema> m_schema; // always set; optional only to build it in the constructor body
    bool m_fences = true;
};

// json_fields: the share of the reference object's top-level fields (or of `fields`) that
// the reply's object has equal (library::jsonEqual; strings in comparison form when
// normalize). The reference is the gold or a column, an object or its JSON text. Options:
// column, target ("answer"), fields, normalize (true), fences (true).
class JsonFieldsReward : public LibraryReward {
public:
    explicit JsonFieldsReward(const RewardOptions &options);
    // Beyond the column: throws when the example's reference is not a JSON object.
    void checkExample(const task::Example &example) const override;

protected:
    Explanation evaluate(const task::Example &example, const task::Completion &completion) const override;

private:
    std::vector<std::string> m_fields; // empty: every field of the reference
    bool m_normalize = true;
    bool m_fences = true;
};

} // namespace rwb::reward
