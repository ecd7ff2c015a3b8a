#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

// Reads the flat JSON object of a training config (SFT, GRPO) with validation: every
// problem throws InputException naming the file and the field ("lora_r: must be between
// 1 and 1024"). Unknown keys are rejected with the list of allowed ones. Relative paths
// resolve against the config file's folder and come back absolute.
class ConfigReader {
public:
    // Throws for invalid JSON (naming the line and column) or a top level that is not
    // an object, and for any key not in `allowedKeys`.
    ConfigReader(std::string_view json, std::string source, std::initializer_list<const char *> allowedKeys);
    ~ConfigReader();

    const std::string &source() const { return m_source; }
    bool has(const char *key) const;

    // A path; "" when absent and not required.
    std::string path(const char *key, bool required) const;
    std::string text(const char *key, const std::string &fallback) const;
    double number(const char *key, double fallback, double min, double max) const;
    int integer(const char *key, int fallback, int min, int max) const;
    bool boolean(const char *key, bool fallback) const;
    std::string choice(const char *key, const std::string &fallback, std::initializer_list<const char *> choices) const;
    std::vector<std::string> strings(const char *key, std::vector<std::string> fallback) const;
    // The value of `key` as compact JSON ("" when absent), for nested objects.
    std::string raw(const char *key) const;

    [[noreturn]] void fail(const std::string &field, const std::string &what) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    std::string m_source;
};

} // namespace rwb::data
