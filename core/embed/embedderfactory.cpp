#include "embed/embedderfactory.h"

#include "embed/lexicalembedder.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace rwb::embed {

namespace {

using json = nlohmann::json;

// The forms of a spec, for messages.
constexpr const char *kForms =
    "\"lexical\", \"http:http://host:port/v1\" (or https://), \"hf:DIR\"";

std::invalid_argument error(const std::string &source, const std::string &what)
{
    return std::invalid_argument(source.empty() ? what : source + ": " + what);
}

// An embedder's options object and its typed values, each failure naming the key and
// what it allows. Empty or white-space-only text is no options.
class OptionReader {
public:
    OptionReader(std::string_view optionsJson, std::string source) : m_source(std::move(source))
    {
        if (optionsJson.find_first_not_of(" \t\r\n") == std::string_view::npos)
            return;
        m_json = util::parseJsonOrDiscarded(optionsJson);
        if (m_json.is_discarded() || !m_json.is_object())
            throw error(m_source, "embedder options must be a JSON object");
    }
    // The options' (key, value) pairs; none for no options.
    const json &object() const { return m_json; }

    std::invalid_argument bad(const std::string &key, const std::string &allowed, const json &value) const
    {
        return error(m_source, "embedder option \"" + key + "\" must be " + allowed + ", not " + value.dump());
    }
    std::string text(const std::string &key, const json &v) const
    {
        if (!v.is_string())
            throw bad(key, "a string", v);
        return v.get<std::string>();
    }
    int integer(const std::string &key, const json &v, int min) const
    {
        if (!v.is_number_integer() || v.get<int64_t>() < min || v.get<int64_t>() > std::numeric_limits<int>::max())
            throw bad(key, "an integer of at least " + std::to_string(min), v);
        return static_cast<int>(v.get<int64_t>());
    }
    double seconds(const std::string &key, const json &v, bool zeroAllowed) const
    {
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0.0 ||
            (!zeroAllowed && v.get<double>() == 0.0))
            throw bad(key, zeroAllowed ? "0 or more seconds" : "a positive number of seconds", v);
        return v.get<double>();
    }

private:
    std::string m_source;
    json m_json = json::object();
};

} // namespace

HttpEmbedderOptions parseHttpEmbedderOptions(const std::string &url, std::string_view optionsJson,
                                             const std::string &source)
{
    HttpEmbedderOptions o;
    o.server.url = url;
    const OptionReader r(optionsJson, source);
    for (const auto &[key, v] : r.object().items()) {
        if (key == "model")
            o.model = r.text(key, v);
        else if (key == "api_key_env")
            o.server.apiKeyEnv = r.text(key, v);
        else if (key == "batch")
            o.batchSize = r.integer(key, v, 1);
        else if (key == "timeout_s")
            o.server.retry.timeoutSeconds = r.seconds(key, v, false);
        else if (key == "deadline_s")
            o.server.retry.deadlineSeconds = r.seconds(key, v, false);
        else if (key == "retries")
            o.server.retry.maxRetries = r.integer(key, v, 0);
        else if (key == "backoff_s")
            o.server.retry.backoffSeconds = r.seconds(key, v, true);
        else if (key == "dimensions")
            o.dimensions = r.integer(key, v, 0);
        else if (key == "encoding_format") {
            o.encodingFormat = r.text(key, v);
            if (o.encodingFormat != "float" && o.encodingFormat != "base64")
                throw r.bad(key, "\"float\" or \"base64\"", v);
        } else if (key == "query_prefix")
            o.queryPrefix = r.text(key, v);
        else if (key == "document_prefix")
            o.documentPrefix = r.text(key, v);
        else if (key == "ca_cert")
            o.server.caCertPath = r.text(key, v);
        else if (key == "api_key")
            throw error(source, "embedder option \"api_key\" is not accepted: put the key in an environment "
                                "variable and give its name in \"api_key_env\"");
        else
            throw error(source, "unknown embedder option \"" + key +
                                    "\" (allowed: model, api_key_env, batch, timeout_s, deadline_s, retries, "
                                    "backoff_s, dimensions, encoding_format, query_prefix, document_prefix, ca_cert)");
    }
    return o;
}

HfEmbedderOptions parseHfEmbedderOptions(std::string_view optionsJson, const std::string &source)
{
    HfEmbedderOptions o;
    const OptionReader r(optionsJson, source);
    for (const auto &[key, v] : r.object().items()) {
        if (key == "batch")
            o.batchSize = r.integer(key, v, 1);
        else if (key == "max_length")
            o.maxLength = r.integer(key, v, 0);
        else if (key == "pooling") {
            o.pooling = r.text(key, v);
            if (o.pooling != "cls" && o.pooling != "mean" && o.pooling != "lasttoken")
                throw r.bad(key, "\"cls\", \"mean\" or \"lasttoken\"", v);
        } else if (key == "query_prefix")
            o.queryPrefix = r.text(key, v);
        else if (key == "document_prefix")
            o.documentPrefix = r.text(key, v);
        else if (key == "threads")
            o.threads = r.integer(key, v, 0);
        else
            throw error(source, "unknown embedder option \"" + key +
                                    "\" for hf: (allowed: batch, max_length, pooling, query_prefix, document_prefix, "
                                    "threads)");
    }
    return o;
}

std::unique_ptr<Embedder> makeEmbedder(const std::string &spec, const EmbedderContext &ctx)
{
    const auto startsWith = [&](const char *prefix) { return spec.rfind(prefix, 0) == 0; };
    const auto noOptions = [&]() {
        const json j = util::parseJsonOrDiscarded(ctx.options);
        const bool none = ctx.options.find_first_not_of(" \t\r\n") == std::string::npos ||
                          (!j.is_discarded() && j.is_object() && j.empty());
        if (!none)
            throw error(ctx.source, "embedder \"" + spec + "\" takes no options (they are for http: and hf: embedders)");
    };

    if (spec == "lexical") {
        noOptions();
        if (!ctx.lexicalState.empty())
            return std::make_unique<LexicalEmbedder>(LexicalEmbedder::fromState(
                ctx.lexicalState, ctx.source.empty() ? "embedder lexical" : ctx.source + " (embedder lexical)"));
        return std::make_unique<LexicalEmbedder>(ctx.corpusTexts);
    }
    if (startsWith("http:") && (startsWith("http:http://") || startsWith("http:https://"))) {
        const HttpEmbedderOptions options = parseHttpEmbedderOptions(spec.substr(5), ctx.options, ctx.source);
        try {
            return std::make_unique<HttpEmbedder>(options);
        } catch (const std::invalid_argument &e) {
            throw error(ctx.source, e.what());
        }
    }
    if (startsWith("http:") || startsWith("https:"))
        throw error(ctx.source, "embedder \"" + spec + "\": write \"http:\" and then the whole URL, as in "
                                "\"http:http://localhost:8000/v1\" or \"http:https://host/v1\"");
    if (startsWith("hf:")) {
        const HfEmbedderOptions options = parseHfEmbedderOptions(ctx.options, ctx.source);
        std::filesystem::path dir(spec.substr(3));
        if (dir.empty())
            throw error(ctx.source, "embedder \"hf:\" needs a model folder after \"hf:\", as in \"hf:models/bge-m3\"");
        if (dir.is_relative() && !ctx.baseDir.empty())
            dir = std::filesystem::path(ctx.baseDir) / dir;
        try {
            return std::make_unique<HfEmbedder>(dir.string(), options);
        } catch (const std::invalid_argument &e) {
            throw error(ctx.source, e.what());
        }
    }
    throw error(ctx.source, "unknown embedder \"" + spec + "\" (allowed: " + kForms + ")");
}

} // namespace rwb::embed
