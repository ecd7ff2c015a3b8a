#pragma once

// The chat layer's wire format: OpenAI's chat-completions request and response bodies.

#include "llm/chat.h"

#include <string>

namespace rwb::llm {

// The request field that carries the token limit (SamplingParams::maxTokens).
enum class TokenLimitField {
    // Send "max_tokens", and once "max_completion_tokens" instead when a server refuses
    // "max_tokens" by name with a 400 (HttpBackend; then it keeps the one that worked).
    Auto,
    MaxTokens,           // "max_tokens": vLLM, llama.cpp, rwb serve, OpenAI's older models
    MaxCompletionTokens, // "max_completion_tokens": OpenAI's reasoning models accept only this
};

// "auto", "max_tokens", "max_completion_tokens".
std::string tokenLimitFieldName(TokenLimitField field);

// The request as the OpenAI chat-completions body for `model` (what is sent, and with
// the backend's identity what the judge's cache key hashes, always with the default
// field): model, messages, temperature, top_p, max_tokens (or max_completion_tokens:
// `field`; Auto sends max_tokens), n, and seed, stop, response_format, logprobs /
// top_logprobs when set.
std::string requestJson(const ChatRequest &request, const std::string &model,
                        TokenLimitField field = TokenLimitField::MaxTokens);

// Parses an OpenAI chat-completions response body. Throws std::runtime_error naming the
// field ("choices[0].message.content is null").
ChatReply parseChatReply(const std::string &body);
// The inverse, for servers and caches: {"id", "object", "model", "choices", "usage"}.
std::string chatReplyJson(const ChatReply &reply);

} // namespace rwb::llm
