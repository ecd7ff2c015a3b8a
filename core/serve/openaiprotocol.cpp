#include "serve/openaiprotocol.h"

#include "text/utf8.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>

namespace rwb::serve {

namespace {

using json = nlohmann::json;
// Answers keep OpenAI's field order (id, object, created, …), for people who read them.
using ordered = nlohmann::ordered_json;

// OpenAI's limits: alternatives per token, texts per embeddings request.
constexpr int kMaxTopLogprobs = 20;
constexpr size_t kMaxEmbeddingInputs = 2048;
// Stop strings per request (OpenAI allows 4; vLLM any number).
constexpr size_t kMaxStops = 64;
// JSON nesting a request may have (a json_schema's included).
constexpr int kMaxDepth = 64;

std::string typeName(const json &v)
{
    if (v.is_number_integer())
        return "an integer";
    if (v.is_number())
        return "a number";
    if (v.is_string())
        return "a string";
    if (v.is_boolean())
        return "a boolean";
    if (v.is_array())
        return "an array";
    if (v.is_object())
        return "an object";
    return "null";
}

ApiError wrongType(const std::string &field, const std::string &expected, const json &v)
{
    return ApiError::invalid(field, "'" + field + "' must be " + expected + ", not " + typeName(v), "invalid_type");
}

json parseObject(const std::string &body)
{
    // Deeper JSON than any request needs is refused before it is kept (util/boundedjson.h).
    bool tooDeep = false;
    json j = util::parseJsonOrDiscarded(body, &tooDeep, kMaxDepth);
    if (tooDeep)
        throw ApiError(400, "invalid_request_error", "", "invalid_json",
                       "The body of the request nests JSON deeper than " + std::to_string(kMaxDepth) + " levels.");
    if (j.is_discarded())
        throw ApiError(400, "invalid_request_error", "", "invalid_json",
                       "The body of the request is not valid JSON (" + std::to_string(body.size()) + " bytes).");
    if (!j.is_object())
        throw ApiError(400, "invalid_request_error", "", "invalid_json",
                       "The body of the request must be a JSON object, not " + typeName(j) + ".");
    return j;
}

// The field, or nullptr when it is absent or null.
const json *field(const json &j, const char *key)
{
    const auto it = j.find(key);
    return it == j.end() || it->is_null() ? nullptr : &*it;
}

// 2 as "2", 0.5 as "0.5".
std::string numberText(double x)
{
    if (std::floor(x) == x && std::abs(x) < 1e15)
        return std::to_string(static_cast<int64_t>(x));
    return json(x).dump();
}

double number(const json &v, const std::string &name, double low, double high)
{
    if (!v.is_number())
        throw wrongType(name, "a number", v);
    const double x = v.get<double>();
    if (!(x >= low && x <= high))
        throw ApiError::invalid(name, "'" + name + "' must be " + numberText(low) + " to " + numberText(high) +
                                          ", not " + v.dump());
    return x;
}

int64_t integer(const json &v, const std::string &name, int64_t low, int64_t high)
{
    if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
                                    std::abs(v.get<double>()) < 9e15))
        throw wrongType(name, "an integer", v);
    const int64_t x = v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)
                          ? INT64_MAX
                          : (v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(v.get<double>()));
    if (x < low || x > high)
        throw ApiError::invalid(name, "'" + name + "' must be " + std::to_string(low) +
                                          (high == INT64_MAX ? " or more" : " to " + std::to_string(high)) +
                                          ", not " + v.dump());
    return x;
}

bool boolean(const json &v, const std::string &name)
{
    if (!v.is_boolean())
        throw wrongType(name, "a boolean", v);
    return v.get<bool>();
}

std::string string(const json &v, const std::string &name)
{
    if (!v.is_string())
        throw wrongType(name, "a string", v);
    return v.get<std::string>();
}

std::string messageContent(const json &m, const std::string &name)
{
    const json *content = field(m, "content");
    if (!content)
        return {};
    if (content->is_string())
        return content->get<std::string>();
    if (!content->is_array())
        throw wrongType(name + ".content", "a string or an array of text parts", *content);
    std::string text;
    for (size_t k = 0; k < content->size(); ++k) {
        const json &part = (*content)[k];
        const std::string p = name + ".content[" + std::to_string(k) + "]";
        if (!part.is_object())
            throw wrongType(p, "an object", part);
        const json *type = field(part, "type");
        if (!type)
            throw ApiError::invalid(p + ".type", "'" + p + ".type' is missing", "missing_required_parameter");
        const std::string t = string(*type, p + ".type");
        if (t != "text")
            throw ApiError::invalid(p + ".type", "'" + p + ".type' is \"" + t + "\"; only text parts are supported",
                                    "unsupported_value");
        const json *partText = field(part, "text");
        if (!partText)
            throw ApiError::invalid(p + ".text", "'" + p + ".text' is missing", "missing_required_parameter");
        if (k > 0)
            text += "\n";
        text += string(*partText, p + ".text");
    }
    return text;
}

void refuseNonZero(const json &j, const char *key)
{
    if (const json *v = field(j, key)) {
        if (number(*v, key, -2.0, 2.0) != 0.0)
            throw ApiError::invalid(key, std::string("'") + key + "' is not supported by rwb serve (send 0 or leave it out)",
                                    "unsupported_parameter");
    }
}

ordered tokenJson(const CompletionToken &t)
{
    ordered bytes = ordered::array();
    for (unsigned char c : t.bytes)
        bytes.push_back(static_cast<int>(c));
    const double lp = std::isfinite(t.logprob) ? t.logprob : -9999.0; // JSON has no -inf
    return ordered{{"token", text::encodeUtf8(text::decodeUtf8(t.bytes))}, {"logprob", lp}, {"bytes", std::move(bytes)}};
}

// A choice's "logprobs": {content: [{token, logprob, bytes, top_logprobs}], refusal: null}.
ordered logprobsJson(const std::vector<CompletionLogprob> &logprobs)
{
    ordered content = ordered::array();
    for (const CompletionLogprob &lp : logprobs) {
        ordered t = tokenJson(lp.token);
        ordered top = ordered::array();
        for (const CompletionToken &a : lp.top)
            top.push_back(tokenJson(a));
        t["top_logprobs"] = std::move(top);
        content.push_back(std::move(t));
    }
    return ordered{{"content", std::move(content)}, {"refusal", nullptr}};
}

} // namespace

ChatCompletionRequest parseChatCompletionRequest(const std::string &body)
{
    const json j = parseObject(body);
    ChatCompletionRequest out;
    llm::SamplingParams &s = out.chat.sampling;
    s.temperature = 1.0; // OpenAI's defaults
    s.topP = 1.0;
    s.maxTokens = 0;

    if (const json *stream = field(j, "stream"))
        out.stream = boolean(*stream, "stream");
    if (const json *options = field(j, "stream_options")) {
        if (!options->is_object())
            throw wrongType("stream_options", "an object", *options);
        if (const json *usage = field(*options, "include_usage"))
            out.includeUsage = boolean(*usage, "stream_options.include_usage") && out.stream;
    }
    if (const json *model = field(j, "model"))
        out.model = string(*model, "model");

    const json *messages = field(j, "messages");
    if (!messages)
        throw ApiError::invalid("messages", "'messages' is missing", "missing_required_parameter");
    if (!messages->is_array())
        throw wrongType("messages", "an array", *messages);
    if (messages->empty())
        throw ApiError::invalid("messages", "'messages' must hold at least one message");
    for (size_t i = 0; i < messages->size(); ++i) {
        const json &m = (*messages)[i];
        const std::string name = "messages[" + std::to_string(i) + "]";
        if (!m.is_object())
            throw wrongType(name, "an object", m);
        const json *role = field(m, "role");
        if (!role)
            throw ApiError::invalid(name + ".role", "'" + name + ".role' is missing", "missing_required_parameter");
        std::string r = string(*role, name + ".role");
        if (r == "developer")
            r = "system";
        if (r != "system" && r != "user" && r != "assistant")
            throw ApiError::invalid(name + ".role",
                                    "'" + name + ".role' is \"" + r +
                                        "\"; rwb serve takes system, developer, user and assistant messages",
                                    "unsupported_value");
        if (!field(m, "content") && !(r == "assistant"))
            throw ApiError::invalid(name + ".content", "'" + name + ".content' is missing", "missing_required_parameter");
        if (const json *calls = field(m, "tool_calls"); calls && !(calls->is_array() && calls->empty()))
            throw ApiError::invalid(name + ".tool_calls", "'" + name + ".tool_calls': tool calls are not supported by rwb serve",
                                    "unsupported_parameter");
        out.chat.messages.push_back({r, messageContent(m, name)});
    }

    if (const json *v = field(j, "temperature"))
        s.temperature = number(*v, "temperature", 0.0, 2.0);
    if (const json *v = field(j, "top_p")) {
        s.topP = number(*v, "top_p", 0.0, 1.0);
        if (s.topP == 0.0) // only the most likely token stays
            s.topP = std::numeric_limits<double>::min();
    }
    if (const json *v = field(j, "max_tokens"))
        s.maxTokens = static_cast<int>(integer(*v, "max_tokens", 1, INT32_MAX));
    if (const json *v = field(j, "max_completion_tokens"))
        s.maxTokens = static_cast<int>(integer(*v, "max_completion_tokens", 1, INT32_MAX));
    if (const json *v = field(j, "n"))
        s.n = static_cast<int>(integer(*v, "n", 1, 128));
    if (const json *v = field(j, "seed"))
        s.seed = v->is_number_unsigned() ? static_cast<int64_t>(v->get<uint64_t>())
                                         : integer(*v, "seed", INT64_MIN, INT64_MAX);
    if (const json *v = field(j, "stop")) {
        if (v->is_string()) {
            if (!v->get<std::string>().empty())
                s.stop.push_back(v->get<std::string>());
        } else if (v->is_array()) {
            if (v->size() > kMaxStops)
                throw ApiError::invalid("stop", "'stop' may hold at most " + std::to_string(kMaxStops) + " strings");
            for (size_t i = 0; i < v->size(); ++i) {
                const std::string name = "stop[" + std::to_string(i) + "]";
                const std::string stop = string((*v)[i], name);
                if (stop.empty())
                    throw ApiError::invalid(name, "'" + name + "' is empty");
                s.stop.push_back(stop);
            }
        } else {
            throw wrongType("stop", "a string or an array of strings", *v);
        }
    }
    if (const json *v = field(j, "logprobs"))
        s.logprobs = boolean(*v, "logprobs");
    if (const json *v = field(j, "top_logprobs")) {
        s.topLogprobs = static_cast<int>(integer(*v, "top_logprobs", 0, kMaxTopLogprobs));
        if (s.topLogprobs > 0 && !s.logprobs)
            throw ApiError::invalid("top_logprobs", "'top_logprobs' needs 'logprobs': true");
    }
    if (const json *v = field(j, "response_format")) {
        if (!v->is_object())
            throw wrongType("response_format", "an object", *v);
        const json *type = field(*v, "type");
        if (!type)
            throw ApiError::invalid("response_format.type", "'response_format.type' is missing",
                                    "missing_required_parameter");
        const std::string t = string(*type, "response_format.type");
        if (t == "text") {
            s.responseFormat = llm::ResponseFormat::Text;
        } else if (t == "json_object") {
            s.responseFormat = llm::ResponseFormat::JsonObject;
        } else if (t == "json_schema") {
            s.responseFormat = llm::ResponseFormat::JsonSchema;
            const json *schema = field(*v, "json_schema");
            if (!schema)
                throw ApiError::invalid("response_format.json_schema", "'response_format.json_schema' is missing",
                                        "missing_required_parameter");
            if (!schema->is_object())
                throw wrongType("response_format.json_schema", "an object", *schema);
            if (const json *name = field(*schema, "name"))
                s.schemaName = string(*name, "response_format.json_schema.name");
            if (const json *body = field(*schema, "schema")) {
                if (!body->is_object())
                    throw wrongType("response_format.json_schema.schema", "an object", *body);
                s.schema = body->dump();
            }
        } else {
            throw ApiError::invalid("response_format.type",
                                    "'response_format.type' must be text, json_object or json_schema, not \"" + t + "\"");
        }
    }
    for (const char *key : {"tools", "functions"})
        if (const json *v = field(j, key); v && !(v->is_array() && v->empty()))
            throw ApiError::invalid(key, std::string("'") + key + "' (tool calling) is not supported by rwb serve",
                                    "unsupported_parameter");
    refuseNonZero(j, "frequency_penalty");
    refuseNonZero(j, "presence_penalty");
    if (const json *v = field(j, "logit_bias"); v && !(v->is_object() && v->empty()))
        throw ApiError::invalid("logit_bias", "'logit_bias' is not supported by rwb serve", "unsupported_parameter");
    return out;
}

EmbeddingsRequest parseEmbeddingsRequest(const std::string &body)
{
    const json j = parseObject(body);
    EmbeddingsRequest out;
    if (const json *model = field(j, "model"))
        out.model = string(*model, "model");
    const json *input = field(j, "input");
    if (!input)
        throw ApiError::invalid("input", "'input' is missing", "missing_required_parameter");
    const auto tokenIds = [] {
        return ApiError::invalid("input", "'input' as token ids is not supported by rwb serve; send text",
                                 "unsupported_value");
    };
    if (input->is_string()) {
        out.input.push_back(input->get<std::string>());
    } else if (input->is_array()) {
        if (input->empty())
            throw ApiError::invalid("input", "'input' must hold at least one text");
        if (input->size() > kMaxEmbeddingInputs)
            throw ApiError::invalid("input", "'input' may hold at most " + std::to_string(kMaxEmbeddingInputs) + " texts");
        const json &first = (*input)[0];
        if (first.is_number_integer() || (first.is_array() && !first.empty() && first[0].is_number_integer()))
            throw tokenIds(); // [1, 2, 3] or [[1, 2], [3]]
        for (size_t i = 0; i < input->size(); ++i)
            out.input.push_back(string((*input)[i], "input[" + std::to_string(i) + "]"));
    } else {
        throw wrongType("input", "a string or an array of strings", *input);
    }
    if (const json *v = field(j, "encoding_format")) {
        const std::string f = string(*v, "encoding_format");
        if (f != "float" && f != "base64")
            throw ApiError::invalid("encoding_format", "'encoding_format' must be float or base64, not \"" + f + "\"");
        out.base64 = f == "base64";
    }
    if (const json *v = field(j, "dimensions"))
        out.dimensions = static_cast<int>(integer(*v, "dimensions", 1, 1 << 20));
    return out;
}

std::string chatCompletionJson(const ChatCompletion &completion, bool logprobs, const std::string &id, int64_t created)
{
    ordered choices = ordered::array();
    for (size_t i = 0; i < completion.choices.size(); ++i) {
        const CompletionChoice &c = completion.choices[i];
        ordered choice;
        choice["index"] = i;
        choice["message"] = ordered{{"role", "assistant"}, {"content", c.text}, {"refusal", nullptr}};
        choice["logprobs"] = logprobs ? logprobsJson(c.logprobs) : ordered(nullptr);
        choice["finish_reason"] = c.finishReason;
        choices.push_back(std::move(choice));
    }
    const ordered j = {{"id", id},
                    {"object", "chat.completion"},
                    {"created", created},
                    {"model", completion.model},
                    {"system_fingerprint", "rwb"},
                    {"choices", std::move(choices)},
                    {"usage",
                     ordered{{"prompt_tokens", completion.promptTokens},
                      {"completion_tokens", completion.completionTokens},
                      {"total_tokens", completion.promptTokens + completion.completionTokens}}}};
    return j.dump(-1, ' ', false, ordered::error_handler_t::replace);
}

namespace {

ordered chunkJson(const ChunkHead &head, ordered choices)
{
    ordered j = {{"id", head.id},
                 {"object", "chat.completion.chunk"},
                 {"created", head.created},
                 {"model", head.model},
                 {"system_fingerprint", "rwb"},
                 {"choices", std::move(choices)}};
    if (head.usage)
        j["usage"] = nullptr;
    return j;
}

} // namespace

std::string chatChunkJson(const ChunkHead &head, const CompletionDelta &delta, bool first, bool logprobs)
{
    ordered d = ordered::object();
    if (first)
        d = ordered{{"role", "assistant"}, {"content", delta.text}};
    else if (!delta.text.empty())
        d["content"] = delta.text;
    ordered choice = {{"index", delta.choice}, {"delta", std::move(d)}};
    choice["logprobs"] = logprobs && !first ? logprobsJson(delta.logprobs) : ordered(nullptr);
    choice["finish_reason"] = delta.finishReason.empty() ? ordered(nullptr) : ordered(delta.finishReason);
    return chunkJson(head, ordered::array({std::move(choice)})).dump(-1, ' ', false, ordered::error_handler_t::replace);
}

std::string chatUsageChunkJson(const ChunkHead &head, int64_t promptTokens, int64_t completionTokens)
{
    ordered j = chunkJson(head, ordered::array());
    j["usage"] = ordered{{"prompt_tokens", promptTokens},
                         {"completion_tokens", completionTokens},
                         {"total_tokens", promptTokens + completionTokens}};
    return j.dump(-1, ' ', false, ordered::error_handler_t::replace);
}

std::string base64Floats(const std::vector<float> &values)
{
    static const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string bytes;
    bytes.reserve(values.size() * 4);
    for (float f : values) {
        uint32_t u = 0;
        std::memcpy(&u, &f, sizeof u);
        for (int k = 0; k < 4; ++k) // little-endian whatever the machine
            bytes += static_cast<char>((u >> (8 * k)) & 0xff);
    }
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t chunk = 0;
        for (size_t k = 0; k < 3; ++k)
            chunk = (chunk << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        out += alphabet[(chunk >> 18) & 63];
        out += alphabet[(chunk >> 12) & 63];
        out += n > 1 ? alphabet[(chunk >> 6) & 63] : '=';
        out += n > 2 ? alphabet[chunk & 63] : '=';
    }
    return out;
}

std::string embeddingsJson(const std::vector<std::vector<float>> &vectors, bool base64, const std::string &model,
                           int64_t promptTokens)
{
    ordered data = ordered::array();
    for (size_t i = 0; i < vectors.size(); ++i) {
        ordered e = {{"object", "embedding"}, {"index", i}};
        if (base64)
            e["embedding"] = base64Floats(vectors[i]);
        else
            e["embedding"] = vectors[i];
        data.push_back(std::move(e));
    }
    const ordered j = {{"object", "list"},
                    {"data", std::move(data)},
                    {"model", model},
                    {"usage", ordered{{"prompt_tokens", promptTokens}, {"total_tokens", promptTokens}}}};
    return j.dump(-1, ' ', false, ordered::error_handler_t::replace);
}

std::string errorJson(const ApiError &error)
{
    const ordered j = {{"error",
                     ordered{{"message", error.what()},
                      {"type", error.type},
                      {"param", error.param.empty() ? ordered(nullptr) : ordered(error.param)},
                      {"code", error.code.empty() ? ordered(nullptr) : ordered(error.code)}}}};
    return j.dump(-1, ' ', false, ordered::error_handler_t::replace);
}

} // namespace rwb::serve
