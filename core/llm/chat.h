#pragma once

// The chat layer's vocabulary: a request in the shape of an OpenAI-compatible
// /v1/chat/completions call and the reply it gets, whatever backend answers it (an HTTP
// server, or a model folder run in-process: llm/backend.h). The judge asks in it, rwb
// serve answers in it. See docs/judges.md.

#include "tokenizer/promptformat.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rwb::llm {

// One turn: role "system" | "user" | "assistant", UTF-8 content (the type prompt formats
// render, so a request's messages go to a model as they are).
using ChatMessage = tokenizer::ChatMessage;

enum class ResponseFormat {
    Text,       // no response_format sent
    JsonObject, // {"type": "json_object"}
    JsonSchema, // {"type": "json_schema", "json_schema": {"name", "schema", "strict": true}}
};

// Every sampling parameter of a request: all of them take part in the cache key.
struct SamplingParams {
    double temperature = 0.0;
    double topP = 1.0;
    int maxTokens = 512;
    std::optional<int64_t> seed;
    std::vector<std::string> stop;
    ResponseFormat responseFormat = ResponseFormat::Text;
    std::string schemaName; // JsonSchema: json_schema.name
    std::string schema;     // JsonSchema: json_schema.schema, as JSON text
    bool logprobs = false;
    int topLogprobs = 0; // 0–20; sent only with logprobs
    int n = 1;           // choices per request
};

struct ChatRequest {
    std::vector<ChatMessage> messages;
    SamplingParams sampling;
};

struct TopLogprob {
    std::string token;
    double logprob = 0.0;
};

// One generated token with its log-probability and the most likely alternatives at its
// position (choices[i].logprobs.content[k] of the OpenAI shape).
struct TokenLogprob {
    std::string token;
    double logprob = 0.0;
    std::vector<TopLogprob> top;
};

struct ChatChoice {
    std::string content;
    std::string finishReason; // "stop" | "length" | …; "" when the server sent none
    std::vector<TokenLogprob> logprobs; // empty unless asked for and sent
};

struct ChatReply {
    std::vector<ChatChoice> choices; // at least one
    std::string model;               // as the server named it
    int64_t promptTokens = 0;        // usage; 0 when the server sent none
    int64_t completionTokens = 0;
};

} // namespace rwb::llm
