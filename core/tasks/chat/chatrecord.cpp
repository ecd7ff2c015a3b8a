#include "tasks/chat/chatrecord.h"

#include "data/jsonfields.h"

namespace rwb::data {

namespace jf = jsonfields;

ChatRecord parseChatLine(std::string_view text, const std::string &source, size_t lineNumber, bool requireCompletion)
{
    const jf::Place place{source, lineNumber};
    ChatRecord r;
    r.line = jf::parseObject(text, place);
    r.lineNumber = lineNumber;
    const nlohmann::json &obj = r.line;
    r.id = jf::requireId(obj, place);
    if (auto t = obj.find("task"); t != obj.end() && jf::asString(*t, "task", place) != kChatTask)
        jf::fail(place, "unknown task \"" + t->get<std::string>() + "\" (allowed: chat)");

    const nlohmann::json &messages = jf::require(obj, "messages", place);
    if (!messages.is_array())
        jf::fail(place, std::string("field \"messages\" must be an array, not ") + messages.type_name());
    if (messages.empty())
        jf::fail(place, "field \"messages\" is empty");
    for (size_t i = 0; i < messages.size(); ++i) {
        const std::string path = "messages[" + std::to_string(i) + "]";
        const nlohmann::json &m = messages[i];
        if (!m.is_object())
            jf::fail(place, "field \"" + path + "\" must be an object, not " + m.type_name());
        tokenizer::ChatMessage message;
        message.role = jf::asString(jf::require(m, "role", place), path + ".role", place);
        if (message.role != "system" && message.role != "user" && message.role != "assistant")
            jf::fail(place, "field \"" + path + ".role\" is \"" + message.role +
                                "\" (allowed: system, user, assistant)");
        message.content = jf::asString(jf::require(m, "content", place), path + ".content", place);
        r.messages.push_back(std::move(message));
    }

    if (auto c = obj.find("completion"); c != obj.end()) {
        r.completion = jf::asString(*c, "completion", place);
        r.hasCompletion = true;
    } else if (r.messages.size() > 1 && r.messages.back().role == "assistant") {
        r.completion = r.messages.back().content;
        r.messages.pop_back();
        r.hasCompletion = true;
        // As if written with "completion": the line's messages are the prompt's.
        r.line["messages"].erase(r.line["messages"].size() - 1);
        r.line["completion"] = r.completion;
    }
    if (requireCompletion && !r.hasCompletion)
        jf::fail(place, "missing field \"completion\" (or a last message of the assistant)");
    if (auto l = obj.find("label"); l != obj.end())
        r.label = jf::asString(*l, "label", place);
    return r;
}

std::string chatLineWithCompletion(const ChatRecord &record, const std::string &completion)
{
    nlohmann::json line = record.line;
    line["completion"] = completion;
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rwb::data
