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
    bool stream = false;       // answer as server-sent events (chatChunkJson)
    bool includeUsage = false; // stream_options.include_usage: a last chunk with the usage
};

// A /v1/chat/completions body. Read: model, messages (role system / developer (as
// system) / user / assistant; content a string, null, or text parts), temperature (0–2,
// default 1), top_p (0–1, default 1; 0 keeps only the most likely token),
// max_completion_tokens or max_tokens (≥ 1; the first wins), n (≥ 1), stop (a string or a
// list of non-empty strings), seed (an integer), logprobs, top_logprobs (0–20, with
// logprobs), response_format (text, json_object, json_schema: accepted, not enforced),
// stream (a boolean), stream_options ({include_usage: boolean}; read only with stream).
// Refused with 400: tools / functions, non-zero
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

// What every chunk of one streamed chat completion repeats.
struct ChunkHead {
    std::string id; // "chatcmpl-…"
    int64_t created = 0;
    std::string model;
    bool usage = false; // stream_options.include_usage: "usage": null in every chunk but the last
};

// The data of one server-sent event of a streamed chat completion: {id, object
// "chat.completion.chunk", created, model, system_fingerprint, choices [{index, delta,
// logprobs, finish_reason}]} (and "usage": null with head.usage). `delta` is {role
// "assistant", content ""} for a choice's first chunk (`first`), else {content} or {} when
// the delta has no text; logprobs null, or {content: [its tokens], refusal: null} with
// `logprobs`; finish_reason null until the choice's last chunk. One line: no newline in it.
std::string chatChunkJson(const ChunkHead &head, const CompletionDelta &delta, bool first, bool logprobs);
// The last chunk with stream_options.include_usage: choices [] and usage {prompt_tokens,
// completion_tokens, total_tokens}.
std::string chatUsageChunkJson(const ChunkHead &head, int64_t promptTokens, int64_t completionTokens);

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
