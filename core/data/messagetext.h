#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

// The text of a chat message as trainers log and send it (TRL's conversational
// completions, OpenAI's message objects): what a reward reads and what a view shows.
namespace rwb::data {

// One message's text:
//  - "content" a string: that string;
//  - "content" a list of parts: the "text" of each {"type": "text"} part, in order (other
//    parts, such as images, are left out);
//  - "tool_calls" (with or without content, as OpenAI and TRL write a call): each call
//    after the content as `<tool_call>{"name": …, "arguments": …}</tool_call>` on its own
//    line, the form Qwen's and Hermes' chat templates render. "arguments" may be an object
//    (TRL, transformers) or its JSON text (OpenAI); text that holds JSON is shown parsed.
// Throws std::invalid_argument saying what is wrong ("expected a message object",
// "content must be a string, a list of parts or null", "tool_calls[1] has no function
// name") without a field path: the caller names the field.
std::string messageText(const nlohmann::json &message);

// A list of messages: their texts, one per line; a string is its own text. Throws
// std::invalid_argument as above, the message prefixed by the index ("[2]: …").
std::string messagesText(const nlohmann::json &messages);

} // namespace rwb::data
