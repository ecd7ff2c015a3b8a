#pragma once

// A chat model run by our engine: a Hugging Face model folder (Qwen3 / Qwen2 / Llama
// families), its tokenizer and chat format, and a GenerationScheduler that batches the
// requests of every thread. What rwb serve's /v1/chat/completions and the judge's
// "local" backend answer with. See docs/serve.md.

#include "llm/chat.h"
#include "model/causallm.h"
#include "serve/generationscheduler.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace rwb::tokenizer {
class Tokenizer;
class PromptFormat;
} // namespace rwb::tokenizer

namespace rwb::serve {

struct ChatEngineOptions {
    model::ModelOptions model;  // dtype, device (threads: see scheduler.threads)
    SchedulerOptions scheduler; // batch size, prefill budget, the scheduler's CPU threads
    std::string name;           // the model's id in requests and answers; "": the folder's name
};

// A token as the model wrote it: its raw bytes (a piece of a multi-byte character is
// possible) and its log-probability (see model::SampledToken: log softmax(logits) at
// temperature 1, before top_p).
struct CompletionToken {
    int32_t id = 0;
    std::string bytes;
    double logprob = 0.0;
};

struct CompletionLogprob {
    CompletionToken token;
    std::vector<CompletionToken> top; // the most likely tokens at its position, most likely first
};

struct CompletionChoice {
    std::string text;          // UTF-8, cut before a stop string
    std::string finishReason;  // "stop" (a stop token or string) or "length"
    // One per generated token, a final stop token left out; empty unless logprobs were asked for.
    std::vector<CompletionLogprob> logprobs;
};

struct ChatCompletion {
    std::string model;
    std::vector<CompletionChoice> choices;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0; // every generated token of every choice, stop tokens included
};

// One piece of a streamed choice (ChatEngine::Stream).
struct CompletionDelta {
    size_t choice = 0;
    std::string text; // what the choice's text grew by: whole UTF-8 characters; may be empty
    // The tokens sampled since the choice's last delta, when logprobs were asked for (a final
    // stop token left out, as in CompletionChoice::logprobs).
    std::vector<CompletionLogprob> logprobs;
    std::string finishReason; // "" while the choice runs; "stop" or "length" in its last delta
};

// Thread-safe: complete() may be called from any number of threads at once; their
// requests are decoded together. Destroying the engine stops its scheduler (requests
// still running fail with ApiError 503).
class ChatEngine {
public:
    // Loads the folder (seconds for a large model). Throws data::InputException naming the
    // file and field for a folder that cannot be run, std::invalid_argument for options out
    // of range.
    ChatEngine(const std::string &folder, const ChatEngineOptions &options = {});
    ~ChatEngine();
    ChatEngine(const ChatEngine &) = delete;
    ChatEngine &operator=(const ChatEngine &) = delete;

    const std::string &name() const { return m_name; }
    const std::string &folder() const { return m_folder; }
    int64_t contextLength() const;
    int maxBatch() const;
    std::string formatName() const;       // "chatml" or "plain"
    std::string description() const;     // family, parameters, dtype, device, format (for logs)
    const tokenizer::Tokenizer &tokenizer() const { return *m_tokenizer; }

    // The prompt's token ids for `messages` (tokenizer::PromptFormat::chatPromptIds).
    std::vector<int32_t> promptIds(const std::vector<llm::ChatMessage> &messages) const;

    // Answers a chat request; blocks until every choice is done. sampling.maxTokens ≤ 0
    // means "up to the end of the context"; seed absent: a fresh random seed per choice;
    // choice i of a seeded request samples with its own stream of that seed, so a seed
    // gives the same choices whatever else is in the batch. responseFormat is not enforced
    // (no constrained decoding: docs/serve.md). Throws ApiError: 400 for a role other than
    // system / user / assistant, n out of 1..maxBatch(), sampling out of range, and
    // (code "context_length_exceeded") a prompt that fills the context or leaves less room
    // than max tokens asks for; 503 when the engine is shutting down. Throws
    // std::runtime_error for an engine failure.
    // `clientGone`, when given, is asked every 10 ms while the request waits or runs:
    // true stops it (its rows leave the batch) and complete() throws ApiError 499.
    ChatCompletion complete(const llm::ChatRequest &request, const std::function<bool()> &clientGone = {});

    // A completion that is read while it is generated (stream()). One thread reads it.
    // Destroying it cancels the generation if it still runs (its rows leave the batch at
    // the next step); it may outlive the engine.
    class Stream {
    public:
        ~Stream();
        Stream(const Stream &) = delete;
        Stream &operator=(const Stream &) = delete;

        // Waits up to `wait` for new text and appends what came, at most one delta per
        // choice (a choice's pieces since the last call joined; choices in the order of
        // their first piece among them). Returns true while the completion runs (`out` may then be unchanged),
        // false once it is over and every delta was taken. Throws ApiError when it ended
        // otherwise (499 after cancel(), 503 when the engine stopped first), or the
        // engine's own exception (std::runtime_error) when it failed.
        bool next(std::vector<CompletionDelta> &out, std::chrono::milliseconds wait);
        // Stops the generation (from the reading thread; e.g. its client went away).
        void cancel();
        // The counts, once next() returned false: as ChatCompletion's.
        int64_t promptTokens() const { return m_promptTokens; }
        int64_t completionTokens() const { return m_completionTokens; }

    private:
        friend class ChatEngine;
        struct Pieces;
        Stream() = default;
        std::shared_ptr<const tokenizer::Tokenizer> m_tokenizer;
        std::shared_ptr<Pieces> m_pieces; // shared with the scheduler's callback
        std::shared_ptr<std::atomic<bool>> m_cancelled;
        std::future<GenerationResult> m_future;
        bool m_logprobs = false;
        bool m_over = false;
        int64_t m_promptTokens = 0;
        int64_t m_completionTokens = 0;
    };

    // Starts a chat request whose choices are read as they are generated. Checks the
    // request as complete() does and throws the same ApiErrors before anything is
    // generated (400, 503 for a full queue or an engine shutting down).
    std::unique_ptr<Stream> stream(const llm::ChatRequest &request);

    SchedulerStats stats() const;
    // Stops the scheduler (see GenerationScheduler::shutdown). Idempotent.
    void shutdown();

private:
    // The scheduler's request for `request` (prompt, limits, one row per choice); throws
    // ApiError 400 as complete() documents.
    GenerationRequest prepare(const llm::ChatRequest &request) const;

    std::string m_folder;
    std::string m_name;
    std::string m_description;
    std::shared_ptr<const tokenizer::Tokenizer> m_tokenizer;
    std::unique_ptr<tokenizer::PromptFormat> m_format;
    std::vector<int32_t> m_stopTokens;
    std::unique_ptr<GenerationScheduler> m_scheduler;
};

} // namespace rwb::serve
