#pragma once

// The judge client: sends chat requests to a judge backend (an OpenAI-compatible HTTP
// server, or a model folder run in-process by our engine), at most `concurrency` at a
// time, through a persistent cache, and accounts for every call: attempts, latency,
// tokens, cost, cache hits, failures. The judge rewards (judgerewards.h) build the
// requests and parse the replies; this layer knows nothing of verdicts.
//
// A call that fails after its retries is not an exception here: its JudgeCall carries
// the error, and the reward it was for gives None for that rollout. See docs/judges.md.

#include "judge/chat.h"
#include "llm/backend.h"
#include "net/httpjsonclient.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace rwb::judge {

class JudgeCache;

using llm::BackendError;
using llm::ChatBackend;

// The settings of a judge (a reward config's "judge" object; see judgeconfig.h).
struct JudgeOptions {
    std::string backend = "http"; // a registered chat backend (llm/backend.h): "http" | "local"
    // http: the server (its base URL, "http://127.0.0.1:8000/v1"; the NAME of the
    // environment variable with the key; the CAs; one attempt's timeout, one call's
    // deadline with its retries and waits, the back-off; the circuit breaker, which opens
    // after 20 failed calls in a row by default)
    net::EndpointOptions server = defaultServer();
    std::string model;            // http: sent as "model"; local: "" (the folder's name)
    std::string folder;           // local: the model folder
    SamplingParams sampling;      // every request's sampling (the rewards may set logprobs)
    // http: the field max_tokens is sent in (llm::BackendOptions::tokenLimitField). Not
    // part of the cache key: the request asks the same either way.
    llm::TokenLimitField tokenLimitField = llm::TokenLimitField::Auto;
    int concurrency = 4;          // calls in flight at once
    std::string cachePath;        // SQLite file of the persistent cache; "": none
    bool noCache = false;         // neither read nor write the persistent cache
    // Keep replies in this client's memory for the run, so that the same request (a
    // consistency reward asking what coverage asked, an answer written twice) is answered
    // without a call. false: every call is sent (what the judge costs with no reuse).
    bool memo = true;
    double cacheExpiryDays = 0.0; // entries older than this are not used; 0: never expire
    double pricePromptPerMillion = 0.0;     // cost of 1,000,000 prompt tokens (any currency)
    double priceCompletionPerMillion = 0.0; // … and of completion tokens

    // What its backend is made from (llm::makeBackend).
    llm::BackendOptions backendOptions() const;

    static net::EndpointOptions defaultServer()
    {
        net::EndpointOptions o;
        o.breaker.threshold = 20;
        return o;
    }
};

// The error of a call that JudgeClient::cancelSending() kept from being sent.
inline constexpr const char *kCancelledError = "cancelled before it was answered";

// One call as it happened: what was asked, what came back or why nothing did.
struct JudgeCall {
    ChatRequest request;
    std::optional<ChatReply> reply; // absent when the call failed
    std::string error;              // why it failed ("" when it did not)
    std::string key;                // the cache key (hex SHA-256)
    int attempts = 0;               // HTTP attempts (0 for a cache hit)
    double latencySeconds = 0.0;    // the call's wall time (0 for a cache hit)
    bool cacheHit = false;          // answered from the cache (persistent or this client's memory)
    bool cancelled = false;         // not sent or cut short: cancelSending() (error is kCancelledError)
    double cost = 0.0;              // tokens × prices; 0 for a cache hit
    bool ok() const { return reply.has_value(); }
};

// Counters since construction.
struct JudgeStats {
    uint64_t calls = 0;       // run() items
    uint64_t cacheHits = 0;
    uint64_t failures = 0;
    uint64_t attempts = 0;
    uint64_t promptTokens = 0;     // of calls sent (cache hits not counted)
    uint64_t completionTokens = 0;
    double cost = 0.0;
    double seconds = 0.0;     // wall time of run() calls
    uint64_t cacheWriteFailures = 0; // replies the cache file could not store (a full disk)
};

// The cache key: hex SHA-256 of the backend's identity and requestJson().
std::string cacheKey(const std::string &backendIdentity, const ChatRequest &request, const std::string &model);

// The judge's backend from its options (llm::makeBackend); throws std::invalid_argument
// naming the field for bad options (local needs a folder; http needs a URL). Contacts nothing.
std::shared_ptr<const ChatBackend> makeBackend(const JudgeOptions &options);

class JudgeClient;

// What a test call of a judge gave (checkJudge).
struct CheckResult {
    bool ok = false;
    std::string error;  // why not, when not ok
    std::string model;  // as the server named it
    std::string reply;  // the reply text
    double seconds = 0.0;
    int attempts = 0;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
};

// Sends one small request ("reply with {\"ok\": true}") straight to the client's backend,
// past every cache: whether the judge answers, how fast, and as which model. Never throws
// for a judge that does not answer (see CheckResult::error).
CheckResult checkJudge(const JudgeClient &client);

class JudgeClient {
public:
    // Opens the cache when options.cachePath is set (throws std::runtime_error naming the
    // file when it cannot). Throws std::invalid_argument for options out of range.
    JudgeClient(JudgeOptions options, std::shared_ptr<const ChatBackend> backend);
    explicit JudgeClient(JudgeOptions options);
    ~JudgeClient();
    JudgeClient(const JudgeClient &) = delete;
    JudgeClient &operator=(const JudgeClient &) = delete;

    const JudgeOptions &options() const { return m_options; }
    const ChatBackend &backend() const { return *m_backend; }

    // Runs every request, at most options().concurrency at once (across every run() of
    // this client), and returns one call per request in order. Identical requests (the
    // same key) within a run or after an earlier one are answered once; a request that
    // failed is answered with its failure, not sent again, for 60 s (so that consistency
    // does not wait again for the call coverage just gave up on). A reply cut off by
    // max_tokens (finish_reason "length") is neither remembered nor cached. Never throws
    // for a failed call (see JudgeCall::error).
    std::vector<JudgeCall> run(const std::vector<ChatRequest> &requests) const;
    JudgeCall run(const ChatRequest &request) const;

    JudgeStats stats() const;

    // Forgets a reply (memory and cache file): a reward calls it when the reply could not
    // be read, so that the next run asks again instead of reading the same garble.
    void forget(const std::string &key) const;

    // Cancellation (the workbench's Cancel while a re-score runs, or its window closing):
    // from cancelSending() until resumeSending(), a call that would go to the backend is
    // not sent — also one waiting for a free `concurrency` slot — and fails at once with
    // kCancelledError (JudgeCall::cancelled). Calls in flight are cut short where the
    // backend can (http: at once, waits between retries included; local: after the
    // generation in progress) and end the same way. Answers from this client's memory or
    // the cache still come. A cancelled call is neither counted as a failure nor
    // remembered as one: the next run() after resumeSending() sends it. Any thread.
    void cancelSending() const;
    void resumeSending() const;
    bool sendingCancelled() const { return m_cancelled.load(); }

private:
    JudgeCall callOne(const ChatRequest &request, const std::string &key) const;
    // Holds one of the `concurrency` slots while alive.
    // held() is false when sending was cancelled while it waited (no slot taken).
    class SlotGuard {
    public:
        explicit SlotGuard(const JudgeClient &client);
        ~SlotGuard();
        bool held() const { return m_held; }

    private:
        const JudgeClient &m_client;
        bool m_held = false;
    };

    JudgeOptions m_options;
    std::shared_ptr<const ChatBackend> m_backend;
    std::unique_ptr<JudgeCache> m_cache;
    mutable std::mutex m_mutex; // the memo and the stats
    mutable std::unordered_map<std::string, ChatReply> m_memo; // replies this client got, by key
    // Requests that failed: their error and when.
    mutable std::unordered_map<std::string, std::pair<std::string, std::chrono::steady_clock::time_point>> m_failed;
    mutable JudgeStats m_stats;
    mutable std::mutex m_slotMutex;
    mutable std::condition_variable m_slotFree;
    mutable int m_inFlight = 0;
    mutable std::atomic<bool> m_cancelled{false};
};

} // namespace rwb::judge
