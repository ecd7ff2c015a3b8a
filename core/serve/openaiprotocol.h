#pragma once

// The bodies of OpenAI's HTTP API as rwb serve reads and writes them: requests parsed
// and checked field by field (an ApiError names the field at fault), answers in the
// official shapes. No HTTP here (openaiserver.h). See docs/serve.md for what is and is
// not supported.

#include "llm/chat.h"
#include "serve/apierror.h"
#include "serve/chatengine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rwb::serve {

struct ChatCompletionRequest {
    std::string model;       // "" when the request names none
    llm::ChatRequest chat; // sampling.maxTokens 0: not given (up to the context's end)
};

// A /v1/chat/completions body. Read: model, messages (role system / developer (as
// system) / user / assistant; content a string, null, or text parts), temperature (0–2,
// default 1), top_p (0–1, default 1; 0 keeps only the most likely token),
// max_completion_tokens or max_tokens (≥ 1; the first wins), n (≥ 1), stop (a string or a
// list of non-empty strings), seed (an integer), logprobs, top_logprobs (0–20, with
// logprobs), response_format (text, json_object, json_schema: accepted, not enforced).
// Refused with 400: stream true (no streaming), tools / functions, non-zero
// frequency_penalty / presence_penalty, a non-empty logit_bias, other content parts than
// text, roles tool and function. Other fields are ignored. Throws ApiError 400 naming the field.
ChatCompletionRequest parseChatCompletionRequest(const std::string &body);

struct EmbeddingsRequest {
    std::string model;              // "" when the request names none
    std::vector<std::string> input; // at least one text
    bool base64 = false;            // encoding_format "base64"
    int dimensions = 0;             // 0: not given
};

// A /v1/embeddings body: input (a string or a list of 1 to 2048 strings; token ids are
// refused), model, encoding_format (float, base64), dimensions, user (ignored). Throws
// ApiError 400 naming the field.
EmbeddingsRequest parseEmbeddingsRequest(const std::string &body);

// The answer to a chat request: {id, object "chat.completion", created, model,
// system_fingerprint, choices [{index, message {role, content, refusal}, logprobs
// (null, or {content: [{token, logprob, bytes, top_logprobs: [{token, logprob, bytes}]}]}),
// finish_reason}], usage {prompt_tokens, completion_tokens, total_tokens}}. Token texts
// are their bytes as UTF-8 (U+FFFD for a piece of a character); `bytes` has them exactly.
std::string chatCompletionJson(const ChatCompletion &completion, bool logprobs, const std::string &id,
                               int64_t created);

// {object "list", data [{object "embedding", index, embedding}], model, usage
// {prompt_tokens, total_tokens}}; each embedding a list of numbers or, with base64, the
// base64 of its little-endian float32 bytes (what OpenAI's SDKs ask for and decode).
std::string embeddingsJson(const std::vector<std::vector<float>> &vectors, bool base64, const std::string &model,
                           int64_t promptTokens);

// {"error": {"message", "type", "param", "code"}} (param and code null when empty).
std::string errorJson(const ApiError &error);

// Standard base64 (with padding) of the floats' little-endian float32 bytes.
std::string base64Floats(const std::vector<float> &values);

} // namespace rwb::serve
