#include "llm/chatjson.h"

#include "net/httpjsonclient.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace rwb::llm {

namespace {

using json = nlohmann::json;

// Reads an optional non-negative integer field of usage.
int64_t usageField(const json &usage, const char *key)
{
    const auto it = usage.find(key);
    return it != usage.end() && it->is_number_integer() && it->get<int64_t>() >= 0 ? it->get<int64_t>() : 0;
}

struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<TokenLogprob> readLogprobs(const json &logprobs, const std::string &field)
{
    std::vector<TokenLogprob> out;
    if (logprobs.is_null())
        return out;
    if (!logprobs.is_object())
        throw Malformed(field + " is " + logprobs.type_name() + ", not an object");
    const auto content = logprobs.find("content");
    if (content == logprobs.end() || content->is_null())
        return out;
    if (!content->is_array())
        throw Malformed(field + ".content is " + content->type_name() + ", not an array");
    for (size_t k = 0; k < content->size(); ++k) {
        const json &t = (*content)[k];
        const std::string f = field + ".content[" + std::to_string(k) + "]";
        if (!t.is_object() || !t.contains("token") || !t["token"].is_string() || !t.contains("logprob") ||
            !t["logprob"].is_number())
            throw Malformed(f + " is not {\"token\": string, \"logprob\": number}");
        TokenLogprob tl;
        tl.token = t["token"].get<std::string>();
        tl.logprob = t["logprob"].get<double>();
        const auto top = t.find("top_logprobs");
        if (top != t.end() && top->is_array())
            for (size_t m = 0; m < top->size(); ++m) {
                const json &a = (*top)[m];
                if (!a.is_object() || !a.contains("token") || !a["token"].is_string() || !a.contains("logprob") ||
                    !a["logprob"].is_number())
                    throw Malformed(f + ".top_logprobs[" + std::to_string(m) +
                                    "] is not {\"token\": string, \"logprob\": number}");
                tl.top.push_back({a["token"].get<std::string>(), a["logprob"].get<double>()});
            }
        out.push_back(std::move(tl));
    }
    return out;
}

} // namespace

std::string tokenLimitFieldName(TokenLimitField field)
{
    switch (field) {
    case TokenLimitField::Auto:
        return "auto";
    case TokenLimitField::MaxTokens:
        return "max_tokens";
    case TokenLimitField::MaxCompletionTokens:
        return "max_completion_tokens";
    }
    return "auto";
}

std::string requestJson(const ChatRequest &request, const std::string &model, TokenLimitField field)
{
    const SamplingParams &s = request.sampling;
    json j = json::object();
    if (!model.empty())
        j["model"] = model;
    json messages = json::array();
    for (const ChatMessage &m : request.messages)
        messages.push_back({{"role", m.role}, {"content", m.content}});
    j["messages"] = std::move(messages);
    j["temperature"] = s.temperature;
    j["top_p"] = s.topP;
    j[field == TokenLimitField::MaxCompletionTokens ? "max_completion_tokens" : "max_tokens"] = s.maxTokens;
    j["n"] = s.n;
    if (s.seed)
        j["seed"] = *s.seed;
    if (!s.stop.empty())
        j["stop"] = s.stop;
    if (s.responseFormat == ResponseFormat::JsonObject) {
        j["response_format"] = {{"type", "json_object"}};
    } else if (s.responseFormat == ResponseFormat::JsonSchema) {
        json schema = util::parseJsonOrDiscarded(s.schema);
        if (schema.is_discarded())
            schema = json::object();
        j["response_format"] = {{"type", "json_schema"},
                                {"json_schema",
                                 {{"name", s.schemaName.empty() ? "verdict" : s.schemaName},
                                  {"schema", std::move(schema)},
                                  {"strict", true}}}};
    }
    if (s.logprobs) {
        j["logprobs"] = true;
        if (s.topLogprobs > 0)
            j["top_logprobs"] = s.topLogprobs;
    }
    // Invalid UTF-8 in a message becomes U+FFFD rather than an exception.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

ChatReply parseChatReply(const std::string &body)
{
    const json j = util::parseJsonOrDiscarded(body);
    if (j.is_discarded())
        throw Malformed("not JSON");
    if (!j.is_object())
        throw Malformed(std::string("a JSON ") + j.type_name() + ", not an object");
    ChatReply reply;
    if (j.contains("model") && j["model"].is_string())
        reply.model = j["model"].get<std::string>();
    const auto usage = j.find("usage");
    if (usage != j.end() && usage->is_object()) {
        reply.promptTokens = usageField(*usage, "prompt_tokens");
        reply.completionTokens = usageField(*usage, "completion_tokens");
    }
    const auto choices = j.find("choices");
    if (choices == j.end())
        throw Malformed(j.contains("error") ? "an error object instead of \"choices\": " + net::excerpt(j["error"].dump())
                                            : std::string("no \"choices\""));
    if (!choices->is_array() || choices->empty())
        throw Malformed("\"choices\" is not a non-empty array");
    std::vector<ChatChoice> ordered(choices->size());
    std::vector<bool> seen(choices->size(), false);
    for (size_t i = 0; i < choices->size(); ++i) {
        const json &c = (*choices)[i];
        const std::string field = "choices[" + std::to_string(i) + "]";
        if (!c.is_object())
            throw Malformed(field + " is not an object");
        size_t index = i;
        if (c.contains("index")) {
            if (!c["index"].is_number_unsigned() || c["index"].get<size_t>() >= choices->size())
                throw Malformed(field + ".index is " + c["index"].dump() + ", not 0 to " +
                                std::to_string(choices->size() - 1));
            index = c["index"].get<size_t>();
        }
        if (seen[index])
            throw Malformed(field + ".index " + std::to_string(index) + " repeats");
        seen[index] = true;
        const auto message = c.find("message");
        if (message == c.end() || !message->is_object())
            throw Malformed(field + ".message is missing or not an object");
        const auto content = message->find("content");
        if (content == message->end() || content->is_null())
            throw Malformed(field + ".message.content is " + (content == message->end() ? "missing" : "null") +
                            (message->contains("refusal") ? " (the model refused: " +
                                                                net::excerpt(message->at("refusal").dump()) + ")"
                                                          : std::string()));
        if (!content->is_string())
            throw Malformed(field + ".message.content is " + content->type_name() + ", not a string");
        ChatChoice choice;
        choice.content = content->get<std::string>();
        if (c.contains("finish_reason") && c["finish_reason"].is_string())
            choice.finishReason = c["finish_reason"].get<std::string>();
        if (c.contains("logprobs"))
            choice.logprobs = readLogprobs(c["logprobs"], field + ".logprobs");
        ordered[index] = std::move(choice);
    }
    reply.choices = std::move(ordered);
    return reply;
}

std::string chatReplyJson(const ChatReply &reply)
{
    json choices = json::array();
    for (size_t i = 0; i < reply.choices.size(); ++i) {
        const ChatChoice &c = reply.choices[i];
        json choice = {{"index", i},
                       {"message", {{"role", "assistant"}, {"content", c.content}}},
                       {"finish_reason", c.finishReason.empty() ? json(nullptr) : json(c.finishReason)}};
        if (!c.logprobs.empty()) {
            json content = json::array();
            for (const TokenLogprob &t : c.logprobs) {
                json top = json::array();
                for (const TopLogprob &a : t.top)
                    top.push_back({{"token", a.token}, {"logprob", a.logprob}});
                content.push_back({{"token", t.token}, {"logprob", t.logprob}, {"top_logprobs", std::move(top)}});
            }
            choice["logprobs"] = {{"content", std::move(content)}};
        }
        choices.push_back(std::move(choice));
    }
    json j = {{"object", "chat.completion"},
              {"model", reply.model},
              {"choices", std::move(choices)},
              {"usage",
               {{"prompt_tokens", reply.promptTokens},
                {"completion_tokens", reply.completionTokens},
                {"total_tokens", reply.promptTokens + reply.completionTokens}}}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace rwb::llm
