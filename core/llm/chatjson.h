#pragma once

// The chat layer's wire format: OpenAI's chat-completions request and response bodies.

#include "llm/chat.h"

#include <string>

namespace rwb::llm {

// The request as the OpenAI chat-completions body for `model` (what is sent, and with
// the backend's identity what the judge's cache key hashes): model, messages,
// temperature, top_p, max_tokens, n, and seed, stop, response_format, logprobs /
// top_logprobs when set.
std::string requestJson(const ChatRequest &request, const std::string &model);

// Parses an OpenAI chat-completions response body. Throws std::runtime_error naming the
// field ("choices[0].message.content is null").
ChatReply parseChatReply(const std::string &body);
// The inverse, for servers and caches: {"id", "object", "model", "choices", "usage"}.
std::string chatReplyJson(const ChatReply &reply);

} // namespace rwb::llm
