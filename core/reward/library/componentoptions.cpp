#include "reward/library/componentoptions.h"

#include "reward/library/textforms.h"
#include "reward/registry.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::reward {

namespace {

std::string found(const nlohmann::json &v)
{
    return v.is_string() || v.is_number() || v.is_boolean() ? v.dump() : std::string(v.type_name());
}

} // namespace

ComponentOptions::ComponentOptions(const std::string &json, std::vector<std::string> allowed)
{
    if (json.empty()) {
        m_options = nlohmann::json::object();
        return;
    }
    try {
        m_options = util::parseJson(json);
    } catch (const nlohmann::json::exception &) {
        throw std::invalid_argument("options: not valid JSON");
    }
    if (m_options.is_null())
        m_options = nlohmann::json::object();
    if (!m_options.is_object())
        throw std::invalid_argument(std::string("options: must be a JSON object, found ") + m_options.type_name());
    for (auto it = m_options.begin(); it != m_options.end(); ++it)
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
            fail(it.key(), "unknown option (allowed: " + joinNames(allowed) + ")");
}

void ComponentOptions::fail(const std::string &key, const std::string &what)
{
    throw std::invalid_argument("options." + key + ": " + what);
}

bool ComponentOptions::has(const char *key) const
{
    return m_options.contains(key);
}

const nlohmann::json *ComponentOptions::value(const char *key) const
{
    auto it = m_options.find(key);
    return it == m_options.end() ? nullptr : &*it;
}

bool ComponentOptions::boolean(const char *key, bool fallback) const
{
    const nlohmann::json *v = value(key);
    if (!v)
        return fallback;
    if (!v->is_boolean())
        fail(key, "must be true or false, found " + found(*v) + " (allowed: true, false)");
    return v->get<bool>();
}

std::optional<std::string> ComponentOptions::string(const char *key) const
{
    const nlohmann::json *v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_string() || v->get<std::string>().empty())
        fail(key, "must be a non-empty string, found " + found(*v));
    return v->get<std::string>();
}

std::string ComponentOptions::choice(const char *key, const std::string &fallback,
                                     const std::vector<std::string> &choices) const
{
    const nlohmann::json *v = value(key);
    if (!v)
        return fallback;
    if (!v->is_string())
        fail(key, "must be a string, found " + found(*v) + " (allowed: " + joinNames(choices) + ")");
    if (std::find(choices.begin(), choices.end(), v->get<std::string>()) == choices.end())
        fail(key, "unknown value " + v->dump() + " (allowed: " + joinNames(choices) + ")");
    return v->get<std::string>();
}

std::optional<std::vector<std::string>> ComponentOptions::strings(const char *key) const
{
    const nlohmann::json *v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_array() || v->empty())
        fail(key, "must be a non-empty list of strings, found " + found(*v));
    std::vector<std::string> out;
    for (size_t i = 0; i < v->size(); ++i) {
        const nlohmann::json &s = (*v)[i];
        if (!s.is_string() || s.get<std::string>().empty())
            fail(std::string(key) + "[" + std::to_string(i) + "]", "must be a non-empty string, found " + found(s));
        out.push_back(s.get<std::string>());
    }
    return out;
}

std::optional<double> ComponentOptions::number(const char *key, double min) const
{
    const nlohmann::json *v = value(key);
    if (!v)
        return std::nullopt;
    if (!v->is_number())
        fail(key, "must be a number, found " + found(*v));
    const double d = v->get<double>();
    if (!std::isfinite(d) || d < min)
        fail(key, "must be at least " + library::formatNumber(min) + ", found " + v->dump());
    return d;
}

std::optional<int64_t> ComponentOptions::integer(const char *key, int64_t min) const
{
    const nlohmann::json *v = value(key);
    if (!v)
        return std::nullopt;
    const bool whole = v->is_number_integer() ||
                       (v->is_number_float() && std::isfinite(v->get<double>()) &&
                        v->get<double>() == std::floor(v->get<double>()) && std::abs(v->get<double>()) < 9e15);
    if (!whole)
        fail(key, "must be a whole number, found " + found(*v));
    const int64_t i = v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX)
                          ? INT64_MAX
                          : (v->is_number_float() ? static_cast<int64_t>(v->get<double>()) : v->get<int64_t>());
    if (i < min)
        fail(key, "must be at least " + std::to_string(min) + ", found " + v->dump());
    return i;
}

} // namespace rwb::reward
