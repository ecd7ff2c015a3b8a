#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::tokenizer {

// Reads the fields of one JSON file (tokenizer.json, tokenizer_config.json) and reports
// every problem as data::InputException "file: field.path: reason" (a syntax error as
// "file:line: …"). Paths are written the way a user finds them in the file:
// "model.merges[3]", "added_tokens_decoder.151643.content".
class JsonFieldReader {
public:
    explicit JsonFieldReader(std::string file) : m_file(std::move(file)) {}

    const std::string &file() const { return m_file; }

    // Parses `text`; a syntax error names the line.
    nlohmann::json parse(std::string_view text) const;
    // Reads and parses the file.
    nlohmann::json parseFile() const;

    [[noreturn]] void fail(const std::string &path, const std::string &reason) const;

    // obj[key], which must be present and not null.
    const nlohmann::json &required(const nlohmann::json &obj, const std::string &objPath, const char *key) const;
    // obj[key], or nullptr when absent or null.
    const nlohmann::json *optional(const nlohmann::json &obj, const char *key) const;

    const nlohmann::json &object(const nlohmann::json &v, const std::string &path) const;
    const nlohmann::json &array(const nlohmann::json &v, const std::string &path) const;
    std::string string(const nlohmann::json &v, const std::string &path) const;
    bool boolean(const nlohmann::json &v, const std::string &path) const;
    // An integer that fits in int32_t.
    int32_t int32(const nlohmann::json &v, const std::string &path) const;

    // The optional boolean obj[key], or `fallback`.
    bool optionalBoolean(const nlohmann::json &obj, const std::string &objPath, const char *key, bool fallback) const;

    static std::string join(const std::string &path, std::string_view key);
    static std::string index(const std::string &path, size_t i);

private:
    std::string m_file;
};

struct AddedToken;

// tokenizer.json's "added_tokens": [{id, content, special, lstrip, rstrip, …}] (none
// when the key is absent); fails through `r` naming the element and field for a bad one.
std::vector<AddedToken> readAddedTokens(const JsonFieldReader &r, const nlohmann::json &doc);

} // namespace rwb::tokenizer
