#include "data/messagetext.h"

#include "util/boundedjson.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace rwb::data {

using json = nlohmann::json;

namespace {

std::string contentText(const json &content)
{
    if (content.is_null())
        return {};
    if (content.is_string())
        return content.get<std::string>();
    if (!content.is_array())
        throw std::invalid_argument("content must be a string, a list of parts or null, not " +
                                    std::string(content.type_name()));
    std::string out;
    for (size_t i = 0; i < content.size(); ++i) {
        const json &part = content[i];
        if (!part.is_object())
            throw std::invalid_argument("content[" + std::to_string(i) + "] must be an object {\"type\", …}");
        auto type = part.find("type");
        if (type == part.end() || *type != "text")
            continue; // an image or audio part: no text
        auto text = part.find("text");
        if (text == part.end() || !text->is_string())
            throw std::invalid_argument("content[" + std::to_string(i) + "] is a text part without a string \"text\"");
        out += text->get<std::string>();
    }
    return out;
}

std::string toolCallText(const json &call, size_t i)
{
    const std::string where = "tool_calls[" + std::to_string(i) + "]";
    if (!call.is_object())
        throw std::invalid_argument(where + " must be an object");
    // OpenAI: {"type": "function", "function": {"name", "arguments"}}; some loggers keep
    // the function's fields at the top.
    const json &fn = call.contains("function") && call["function"].is_object() ? call["function"] : call;
    auto name = fn.find("name");
    if (name == fn.end() || !name->is_string())
        throw std::invalid_argument(where + " has no function name");
    json arguments = fn.value("arguments", json::object());
    if (arguments.is_string()) {
        // Text from outside (a request, a dump): parsed within util::kMaxJsonDepth, so that
        // arguments nested 100,000 deep stay text instead of overflowing the stack when
        // copied and written.
        json parsed = util::parseJsonOrDiscarded(arguments.get<std::string>());
        if (!parsed.is_discarded())
            arguments = std::move(parsed);
    }
    nlohmann::ordered_json shown; // the name first, as chat templates write a call
    shown["name"] = name->get<std::string>();
    shown["arguments"] = arguments;
    return "<tool_call>" + shown.dump(-1, ' ', false, json::error_handler_t::replace) + "</tool_call>";
}

} // namespace

std::string messageText(const json &message)
{
    if (!message.is_object())
        throw std::invalid_argument("expected a message object {\"role\", \"content\"}, not " +
                                    std::string(message.type_name()));
    auto content = message.find("content");
    auto calls = message.find("tool_calls");
    const bool hasCalls = calls != message.end() && !calls->is_null();
    if (content == message.end() && !hasCalls)
        throw std::invalid_argument("the message has neither \"content\" nor \"tool_calls\"");
    std::string out = content == message.end() ? std::string() : contentText(*content);
    if (hasCalls) {
        if (!calls->is_array())
            throw std::invalid_argument("tool_calls must be a list");
        for (size_t i = 0; i < calls->size(); ++i)
            out += (out.empty() ? "" : "\n") + toolCallText((*calls)[i], i);
    }
    return out;
}

std::string messagesText(const json &messages)
{
    if (messages.is_string())
        return messages.get<std::string>();
    if (!messages.is_array())
        throw std::invalid_argument("expected a string or a list of messages, not " + std::string(messages.type_name()));
    std::string out;
    for (size_t i = 0; i < messages.size(); ++i) {
        try {
            const std::string text = messageText(messages[i]);
            if (!text.empty())
                out += (out.empty() ? "" : "\n") + text;
        } catch (const std::invalid_argument &e) {
            throw std::invalid_argument("[" + std::to_string(i) + "]: " + e.what());
        }
    }
    return out;
}

} // namespace rwb::data
