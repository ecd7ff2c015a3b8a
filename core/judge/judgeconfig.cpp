#include "judge/judgeconfig.h"

#include "llm/backend.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <cmath>
#include <filesystem>

namespace rwb::judge {

namespace {

using json = nlohmann::json;

[[noreturn]] void fail(const std::string &source, const std::string &field, const std::string &what)
{
    throw data::InputException({source, 0, "judge." + field + ": " + what});
}

std::string resolve(const std::string &path, const std::string &baseDir)
{
    namespace fs = std::filesystem;
    if (path.empty())
        return path;
    fs::path p(path);
    if (p.is_relative() && !baseDir.empty())
        p = fs::path(baseDir) / p;
    std::error_code ec;
    const fs::path a = fs::absolute(p, ec);
    return (ec ? p : a).lexically_normal().string();
}

constexpr const char *kKeys[] = {"backend", "url", "model", "folder", "api_key_env", "ca_cert", "temperature",
                                 "top_p", "max_tokens", "token_limit_field", "seed", "stop", "response_format",
                                 "logprobs", "top_logprobs", "concurrency", "timeout", "deadline", "retries",
                                 "backoff", "backoff_max", "breaker_threshold", "breaker_cooldown", "cache",
                                 "cache_expiry_days", "memo", "price"};

} // namespace

JudgeOptions parseJudgeOptions(const std::string &text, const std::string &source, const std::string &baseDir)
{
    const json j = util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        throw data::InputException({source, 0, "judge: must be a JSON object"});
    std::string allowed;
    for (const char *k : kKeys)
        allowed += (allowed.empty() ? "" : ", ") + std::string(k);
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char *k : kKeys)
            known = known || it.key() == k;
        if (!known)
            fail(source, it.key(), "unknown key (allowed: " + allowed + ")");
    }
    JudgeOptions o;
    const auto str = [&](const char *key, std::string &out) {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_string())
                fail(source, key, std::string("must be a string, found ") + it->type_name());
            out = it->get<std::string>();
        }
    };
    const auto number = [&](const json &obj, const char *key, double &out, double lo, double hi,
                            const std::string &prefix = "") {
        if (auto it = obj.find(key); it != obj.end()) {
            if (!it->is_number())
                fail(source, prefix + key, std::string("must be a number, found ") + it->type_name());
            const double v = it->get<double>();
            if (!std::isfinite(v) || v < lo || v > hi)
                fail(source, prefix + key, "must be within " + std::to_string(lo) + "–" + std::to_string(hi) +
                                               ", not " + it->dump());
            out = v;
        }
    };
    const auto boolean = [&](const char *key, bool &out) {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_boolean())
                fail(source, key, "must be true or false");
            out = it->get<bool>();
        }
    };
    const auto integer = [&](const char *key, int &out, int lo, int hi) {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_number_integer())
                fail(source, key, std::string("must be an integer, found ") + it->dump());
            const int64_t v = it->get<int64_t>();
            if (v < lo || v > hi)
                fail(source, key, "must be within " + std::to_string(lo) + "–" + std::to_string(hi) + ", not " +
                                      std::to_string(v));
            out = static_cast<int>(v);
        }
    };
    str("backend", o.backend);
    if (const std::vector<std::string> names = llm::backendNames();
        std::find(names.begin(), names.end(), o.backend) == names.end()) {
        std::string allowed;
        for (const std::string &n : names)
            allowed += (allowed.empty() ? "" : ", ") + n;
        fail(source, "backend", "\"" + o.backend + "\" is not a chat backend of this program (allowed: " + allowed + ")");
    }
    str("url", o.server.url);
    str("model", o.model);
    str("folder", o.folder);
    str("api_key_env", o.server.apiKeyEnv);
    str("ca_cert", o.server.caCertPath);
    if (o.backend == "http" && o.server.url.empty())
        fail(source, "url", "missing: the http backend needs the server's base URL (\"http://127.0.0.1:8000/v1\")");
    if (o.backend == "local" && o.folder.empty())
        fail(source, "folder", "missing: the local backend needs a model folder");
    o.folder = resolve(o.folder, baseDir);
    o.server.caCertPath = resolve(o.server.caCertPath, baseDir);

    SamplingParams &s = o.sampling;
    number(j, "temperature", s.temperature, 0.0, 2.0);
    number(j, "top_p", s.topP, 0.0, 1.0);
    if (s.topP == 0.0)
        fail(source, "top_p", "must be > 0");
    integer("max_tokens", s.maxTokens, 1, 1 << 20);
    std::string limitField = "auto";
    str("token_limit_field", limitField);
    if (limitField == "auto")
        o.tokenLimitField = llm::TokenLimitField::Auto;
    else if (limitField == "max_tokens")
        o.tokenLimitField = llm::TokenLimitField::MaxTokens;
    else if (limitField == "max_completion_tokens")
        o.tokenLimitField = llm::TokenLimitField::MaxCompletionTokens;
    else
        fail(source, "token_limit_field",
             "\"" + limitField + "\" is not one of auto, max_tokens, max_completion_tokens");
    if (auto it = j.find("seed"); it != j.end()) {
        if (!it->is_number_integer())
            fail(source, "seed", std::string("must be an integer, found ") + it->dump());
        s.seed = it->get<int64_t>();
    }
    if (auto it = j.find("stop"); it != j.end()) {
        if (it->is_string())
            s.stop = {it->get<std::string>()};
        else if (it->is_array() && std::all_of(it->begin(), it->end(), [](const json &x) { return x.is_string(); }))
            s.stop = it->get<std::vector<std::string>>();
        else
            fail(source, "stop", "must be a string or a list of strings");
    }
    std::string format = "json_schema";
    str("response_format", format);
    if (format == "text")
        s.responseFormat = ResponseFormat::Text;
    else if (format == "json_object")
        s.responseFormat = ResponseFormat::JsonObject;
    else if (format == "json_schema")
        s.responseFormat = ResponseFormat::JsonSchema;
    else
        fail(source, "response_format", "\"" + format + "\" is not one of text, json_object, json_schema");
    boolean("logprobs", s.logprobs);
    integer("top_logprobs", s.topLogprobs, 0, 20);
    if (s.topLogprobs > 0)
        s.logprobs = true;

    integer("concurrency", o.concurrency, 1, 1024);
    number(j, "timeout", o.server.retry.timeoutSeconds, 1e-3, 86400.0);
    number(j, "deadline", o.server.retry.deadlineSeconds, 1e-3, 7 * 86400.0);
    integer("retries", o.server.retry.maxRetries, 0, 100);
    number(j, "backoff", o.server.retry.backoffSeconds, 0.0, 3600.0);
    number(j, "backoff_max", o.server.retry.backoffMaxSeconds, 0.0, 3600.0);
    integer("breaker_threshold", o.server.breaker.threshold, 0, 1000000);
    number(j, "breaker_cooldown", o.server.breaker.cooldownSeconds, 0.0, 86400.0);
    str("cache", o.cachePath);
    o.cachePath = resolve(o.cachePath, baseDir);
    number(j, "cache_expiry_days", o.cacheExpiryDays, 0.0, 36500.0);
    boolean("memo", o.memo);
    if (auto it = j.find("price"); it != j.end()) {
        if (!it->is_object())
            fail(source, "price", "must be an object {\"prompt_per_million\", \"completion_per_million\"}");
        for (auto p = it->begin(); p != it->end(); ++p)
            if (p.key() != "prompt_per_million" && p.key() != "completion_per_million")
                fail(source, "price." + p.key(), "unknown key (allowed: prompt_per_million, completion_per_million)");
        number(*it, "prompt_per_million", o.pricePromptPerMillion, 0.0, 1e9, "price.");
        number(*it, "completion_per_million", o.priceCompletionPerMillion, 0.0, 1e9, "price.");
    }
    return o;
}

std::string judgeWithAbsolutePaths(const std::string &text, const std::string &baseDir)
{
    json j = util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        return text;
    for (const char *key : {"cache", "folder", "ca_cert"})
        if (auto it = j.find(key); it != j.end() && it->is_string())
            *it = resolve(it->get<std::string>(), baseDir);
    return j.dump();
}

} // namespace rwb::judge
