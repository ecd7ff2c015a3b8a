#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rwb::reward {

// A generic component's "options" object (RewardOptions::componentOptions), read strictly:
// an unknown key or a value of the wrong type throws std::invalid_argument
// "options.<key>: <what is wrong> (allowed: …)", which CompositeReward prefixes with the
// component ("components[2].options.mode: …"). Used by the factories only; not kept.
class ComponentOptions {
public:
    // Parses `json` ("" = no options). Throws for text that is not a JSON object and for
    // any key not in `allowed`.
    ComponentOptions(const std::string &json, std::vector<std::string> allowed);

    bool has(const char *key) const;
    // The value as given; null when absent.
    const nlohmann::json *value(const char *key) const;

    bool boolean(const char *key, bool fallback) const;
    // A non-empty string; none when absent.
    std::optional<std::string> string(const char *key) const;
    // One of `choices`; `fallback` when absent.
    std::string choice(const char *key, const std::string &fallback, const std::vector<std::string> &choices) const;
    // A non-empty list of non-empty strings; none when absent.
    std::optional<std::vector<std::string>> strings(const char *key) const;
    // A finite number ≥ `min`; none when absent.
    std::optional<double> number(const char *key, double min) const;
    // A whole number ≥ `min` (2 and 2.0 both); none when absent.
    std::optional<int64_t> integer(const char *key, int64_t min) const;

    // Throws "options.<key>: <what>".
    [[noreturn]] static void fail(const std::string &key, const std::string &what);

private:
    nlohmann::json m_options;
};

} // namespace rwb::reward
