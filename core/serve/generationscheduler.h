#pragma once

// Continuous batching: one scheduler thread owns a model and decodes every active
// completion together, one token per row per iteration. Requests submitted from any
// thread wait in a queue; between two iterations the scheduler prefills the waiting ones
// (as many as the batch has room for) and their rows join the batch; a row leaves as soon
// as it is finished (a stop token, a stop string, its token limit), and a request is
// answered when all its choices are. See docs/serve.md.

#include "model/batchdecoder.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace rwb::model {
class CausalLM;
}
namespace rwb::tokenizer {
class Tokenizer;
}

namespace rwb::serve {

// What a request gets when the scheduler stops before answering it.
struct SchedulerStopped : std::runtime_error {
    SchedulerStopped() : std::runtime_error("the model's scheduler is shutting down") {}
};

// submit() when the queue already holds SchedulerOptions::maxQueued requests: the server
// answers 503 with Retry-After rather than letting the queue (and the wait) grow without end.
struct SchedulerBusy : std::runtime_error {
    explicit SchedulerBusy(int queued)
        : std::runtime_error("the server is busy: " + std::to_string(queued) +
                             " requests are waiting already; try again shortly")
    {
    }
};

// The future of a request whose client asked it to stop (GenerationRequest::cancelled),
// while it waited or ran: its rows left the batch at the next step.
struct SchedulerCancelled : std::runtime_error {
    SchedulerCancelled() : std::runtime_error("the request was cancelled (its client went away)") {}
};

struct SchedulerOptions {
    // Rows decoded together (a request with n choices takes n rows). 1 turns batching off:
    // one completion at a time, in order of arrival.
    int maxBatch = 32;
    // Prompt tokens prefilled between two decode steps (at least one request is admitted
    // when there is room): bounds the pause that long prompts cause to running rows.
    int64_t prefillTokensPerStep = 4096;
    // Requests waiting for the batch at most; one more gets SchedulerBusy (503). 0: no bound.
    int maxQueued = 256;
    // libtorch CPU threads of the scheduler thread; 0: auto (model/threads.h).
    int threads = 0;
};

// What one sampled token added to a choice, for a request that streams
// (GenerationRequest::onPiece). A choice's pieces' texts, joined, are its text.
struct GeneratedPiece {
    size_t choice = 0;
    model::SampledToken token;
    bool stopToken = false; // `token` is a stop token: it ends the choice and is not in the text
    // The text this token settled: whole UTF-8 characters (a character whose bytes span
    // tokens comes whole with the token that completes it), never part of a stop string
    // (the last bytes that could start one are held back until they cannot). May be empty.
    std::string text;
    std::string finishReason; // "" while the choice runs; "stop" or "length" in its last piece
};

struct GenerationRequest {
    std::vector<int32_t> prompt;
    std::vector<model::RowSampling> choices; // one row per choice; at least one
    int maxTokens = 16;                      // tokens per choice, stop token included; ≥ 1
    std::vector<int32_t> stopTokens;         // end a choice (finish "stop"); not in its text
    std::vector<std::string> stopStrings;    // cut the text before the first one (finish "stop")
    // Set (from any thread) to stop the request: it leaves the queue or the batch before
    // the next step, and its future gets SchedulerCancelled. May be null.
    std::shared_ptr<std::atomic<bool>> cancelled;
    // Called on the scheduler thread for each token of each choice, in order, before the
    // request's future is set (so a reader that sees the future ready has had every
    // piece). It runs between the decode steps of the whole batch: it must be quick (queue
    // the piece and return) and must not throw. Not called for a request that fails or is
    // cancelled after its last piece. May be empty.
    std::function<void(GeneratedPiece)> onPiece;
};

struct GeneratedChoice {
    // Every token sampled, a final stop token included; a stop string's token is the last one.
    std::vector<model::SampledToken> tokens;
    // The text (UTF-8; special tokens left out, bytes that do not form UTF-8 as U+FFFD), cut
    // before a stop string.
    std::string text;
    std::string finishReason; // "stop" or "length"
    bool endedByStopToken = false; // tokens.back() is a stop token
};

struct GenerationResult {
    std::vector<GeneratedChoice> choices;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0; // over all choices
    double queueSeconds = 0.0;    // from submit() to the prefill
    double totalSeconds = 0.0;    // from submit() to the answer
};

// Counters since construction.
struct SchedulerStats {
    uint64_t submitted = 0;
    uint64_t completed = 0;
    uint64_t failed = 0;
    uint64_t cancelled = 0;      // requests whose client went away first
    int64_t steps = 0;           // decode iterations
    int64_t decodedTokens = 0;   // rows × steps: the mean batch is decodedTokens / steps
    int64_t prefilledTokens = 0;
    double prefillSeconds = 0.0; // the scheduler thread's time in prefills (tokenizing excluded)
    double decodeSeconds = 0.0;  // … in decode steps, sampling included
    int peakRows = 0;
    int activeRows = 0;          // now
    int queued = 0;              // now
};

// Where the text of a choice may be cut while it is still growing: the end of the
// characters of bytes[from, limit) whose decoding more bytes cannot change (as
// text::decodeCharAt reads them: a complete character, or an ill-formed sequence that a
// following byte ends); `from` must be such an end. Never splits a multi-byte character.
// Examples: "a\xE3\x81" → 1 (the character is not complete), "a\xE3\x81\x82" → 4,
// "\xFF" → 0 and "\xFF" "a" → 2 (U+FFFD, then "a").
size_t settledUtf8End(std::string_view bytes, size_t from, size_t limit);

// The scheduler's thread is the only one that touches the model. submit() and stats()
// may be called from any thread. Destroying the scheduler shuts it down.
class GenerationScheduler {
public:
    // Takes the model; starts the thread. The tokenizer gives the texts (stop strings).
    // Throws std::invalid_argument for options out of range.
    GenerationScheduler(std::unique_ptr<model::CausalLM> model, std::shared_ptr<const tokenizer::Tokenizer> tokenizer,
                        const SchedulerOptions &options);
    ~GenerationScheduler();
    GenerationScheduler(const GenerationScheduler &) = delete;
    GenerationScheduler &operator=(const GenerationScheduler &) = delete;

    // Queues a request. Throws std::invalid_argument (nothing queued) for an empty prompt,
    // no choice or more than maxBatch, maxTokens < 1, a prompt + maxTokens beyond the
    // context, ids outside the vocabulary, sampling out of range; SchedulerStopped after
    // shutdown(); SchedulerBusy when maxQueued requests wait already. The future gets the result, or the exception that ended it:
    // SchedulerStopped when the scheduler stopped first, or the engine's error (the batch goes on without
    // the failed request's rows).
    std::future<GenerationResult> submit(GenerationRequest request);

    // Stops the thread: requests still queued or running fail with SchedulerStopped.
    // Idempotent; called by the destructor.
    void shutdown();

    const SchedulerOptions &options() const { return m_options; }
    // The most tokens a prompt and its completion may hold (0: no limit).
    int64_t contextLength() const { return m_context; }
    int64_t vocabSize() const { return m_vocab; }
    SchedulerStats stats() const;

private:
    struct Pending;
    struct Active;
    void run();
    void admit(std::vector<std::unique_ptr<Pending>> &admitted);
    void accept(Active &request, size_t choice, const model::SampledToken &token);
    void finishDone();
    void dropCancelled();
    void failAll(const std::exception_ptr &error);

    std::unique_ptr<model::CausalLM> m_model;
    std::shared_ptr<const tokenizer::Tokenizer> m_tokenizer;
    SchedulerOptions m_options;
    int64_t m_context = 0;
    int64_t m_vocab = 0;

    mutable std::mutex m_mutex; // the queue, the flag and the stats
    std::condition_variable m_wake;
    std::deque<std::unique_ptr<Pending>> m_queue;
    bool m_stopping = false;
    SchedulerStats m_stats;

    // The scheduler thread's own (no lock).
    std::unique_ptr<model::BatchDecoder> m_decoder;
    std::vector<std::unique_ptr<Active>> m_active;
    std::thread m_thread;
};

} // namespace rwb::serve
