#pragma once

#include "data/jsonl.h"

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

// Typed field readers for one JSONL line, shared by the legal-QA readers. Every failure
// throws InputException {source, line, reason} with the field's path in the reason
// ("field \"law_codes[1]\" must be an integer, not string"), so a user can fix the line.
namespace rwb::data::jsonfields {

// Where the line came from, for the messages.
struct Place {
    const std::string &source;
    size_t line;
};

// Parses a line that must hold one JSON object ("not valid JSON at column N",
// "expected a JSON object, found array").
nlohmann::json parseObject(std::string_view line, const Place &place);

// obj[field], which must exist ("missing field \"question\"").
const nlohmann::json &require(const nlohmann::json &obj, const char *field, const Place &place);

// The value as a string, integer, …; `path` names it in messages ("facts[0].slot").
std::string asString(const nlohmann::json &value, const std::string &path, const Place &place);
int64_t asInteger(const nlohmann::json &value, const std::string &path, const Place &place);
std::vector<int64_t> asIntegerArray(const nlohmann::json &value, const std::string &path, const Place &place);
std::vector<std::string> asStringArray(const nlohmann::json &value, const std::string &path, const Place &place);

// The line's "id": a string, or an integer read as its decimal string ("missing field",
// "field \"id\" must be a string or an integer, not array").
std::string requireId(const nlohmann::json &obj, const Place &place);

// Throws InputException {place, reason}.
[[noreturn]] void fail(const Place &place, const std::string &reason);

} // namespace rwb::data::jsonfields
