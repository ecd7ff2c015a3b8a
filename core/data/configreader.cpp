#include "data/configreader.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace rwb::data {

namespace fs = std::filesystem;

struct ConfigReader::Impl {
    nlohmann::json j;
};

namespace {

// 1-based line and column of byte offset `byte` (nlohmann reports the byte after the error).
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

std::string formatNumber(double v)
{
    if (std::abs(v) < 1e15 && v == std::floor(v))
        return std::to_string(static_cast<long long>(v));
    std::string s = std::to_string(v);
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    return s;
}

} // namespace

ConfigReader::ConfigReader(std::string_view json, std::string source, std::initializer_list<const char *> allowedKeys)
    : d(std::make_unique<Impl>()), m_source(std::move(source))
{
    try {
        d->j = util::parseJson(json);
    } catch (const nlohmann::json::parse_error &e) {
        const auto [line, column] = lineColumn(json, e.byte);
        throw InputException({m_source, line, "not valid JSON (column " + std::to_string(column) + ")"});
    }
    if (!d->j.is_object())
        fail("(top level)", "expected a JSON object");
    std::string allowed;
    for (const char *k : allowedKeys)
        allowed += (allowed.empty() ? "" : ", ") + std::string(k);
    for (auto it = d->j.begin(); it != d->j.end(); ++it) {
        bool known = false;
        for (const char *k : allowedKeys)
            known = known || it.key() == k;
        if (!known)
            fail(it.key(), "unknown key (allowed: " + allowed + ")");
    }
}

ConfigReader::~ConfigReader() = default;

void ConfigReader::fail(const std::string &field, const std::string &what) const
{
    throw InputException({m_source, 0, field + ": " + what});
}

bool ConfigReader::has(const char *key) const
{
    return d->j.contains(key);
}

std::string ConfigReader::path(const char *key, bool required) const
{
    auto it = d->j.find(key);
    if (it == d->j.end()) {
        if (required)
            fail(key, "missing");
        return {};
    }
    if (!it->is_string() || it->get<std::string>().empty())
        fail(key, "must be a non-empty string (a path)");
    const fs::path p(it->get<std::string>());
    const fs::path base = fs::path(m_source).parent_path();
    // Absolute, so that the config stored with a run still names its files when read from
    // another folder (the workbench reopening a run).
    return fs::absolute(p.is_relative() ? base / p : p).lexically_normal().string();
}

std::string ConfigReader::text(const char *key, const std::string &fallback) const
{
    auto it = d->j.find(key);
    if (it == d->j.end())
        return fallback;
    if (!it->is_string())
        fail(key, std::string("must be a string, found ") + it->type_name());
    return it->get<std::string>();
}

double ConfigReader::number(const char *key, double fallback, double min, double max) const
{
    auto it = d->j.find(key);
    if (it == d->j.end())
        return fallback;
    if (!it->is_number())
        fail(key, std::string("must be a number, found ") + it->type_name());
    const double v = it->get<double>();
    if (!(v >= min && v <= max))
        fail(key, "must be between " + formatNumber(min) + " and " + formatNumber(max));
    return v;
}

int ConfigReader::integer(const char *key, int fallback, int min, int max) const
{
    auto it = d->j.find(key);
    if (it == d->j.end())
        return fallback;
    if (!it->is_number_integer() && !(it->is_number_float() && it->get<double>() == std::floor(it->get<double>())))
        fail(key, std::string("must be a whole number, found ") + (it->is_number() ? it->dump() : it->type_name()));
    return static_cast<int>(number(key, fallback, min, max));
}

bool ConfigReader::boolean(const char *key, bool fallback) const
{
    auto it = d->j.find(key);
    if (it == d->j.end())
        return fallback;
    if (!it->is_boolean())
        fail(key, "must be true or false");
    return it->get<bool>();
}

std::string ConfigReader::choice(const char *key, const std::string &fallback,
                                 std::initializer_list<const char *> choices) const
{
    auto it = d->j.find(key);
    if (it == d->j.end())
        return fallback;
    const std::string v = it->is_string() ? it->get<std::string>() : std::string();
    std::string list;
    for (const char *c : choices) {
        if (v == c)
            return v;
        list += (list.empty() ? "" : ", ") + std::string(c);
    }
    fail(key, "must be one of " + list);
}

std::vector<std::string> ConfigReader::strings(const char *key, std::vector<std::string> fallback) const
{
    auto it = d->j.find(key);
    if (it == d->j.end())
        return fallback;
    if (!it->is_array())
        fail(key, "must be a list of strings");
    std::vector<std::string> out;
    for (const auto &x : *it) {
        if (!x.is_string())
            fail(key, "must be a list of strings");
        out.push_back(x.get<std::string>());
    }
    return out;
}

std::string ConfigReader::raw(const char *key) const
{
    auto it = d->j.find(key);
    return it == d->j.end() ? std::string() : it->dump();
}

} // namespace rwb::data
