#pragma once

// POSTing JSON to an HTTP(S) server the way every client of an OpenAI-compatible server
// in this project does it (the http: embedder, the judge client): keep-alive connections
// reused across threads, an API key read from a named environment variable, timeouts per
// attempt and a deadline per call, retries with exponential backoff and jitter that honour
// Retry-After, a circuit breaker, and messages that say what happened and after how many
// attempts. cpp-httplib (Debian's libcpp-httplib-dev) does the HTTP; see docs/judges.md
// for why it and not libcurl.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace rwb::net {

// http(s)://host[:port][/path][?query], split. No user:password@ part and no fragment.
struct Url {
    bool https = false;
    std::string host;     // an IPv6 address without its brackets
    int port = 0;         // 80 / 443 when not written
    std::string hostPort; // as written (lower case), for messages and the URL's text
    std::string path;     // without trailing slashes and without the query ("" or "/v1")
    std::string query;    // "" or "?…"

    // scheme://hostPort + path + query
    std::string text() const;
};

// Parses `url`. Throws std::invalid_argument starting "<who>: URL "<url>" " and saying
// what is wrong (a user:password@ part is shown as "…@").
Url parseUrl(const std::string &url, const std::string &who);

// The URL of an OpenAI-compatible endpoint from a base URL: a path that already ends in
// "/<endpoint>" is kept; one whose last part is a version ("/v1", "/v2") gets
// "/<endpoint>"; any other path (none included) gets "/v1/<endpoint>". `endpoint` is
// "embeddings" or "chat/completions".
Url endpointUrl(Url base, const std::string &endpoint);

// `url` with a user:password@ part shown as "…@", for messages.
std::string redacted(const std::string &url);

// At most 300 bytes of `text` on one line (cut at a UTF-8 boundary, "…" added).
std::string excerpt(const std::string &text);

struct RetryOptions {
    // One attempt: connecting, and each wait for data while sending or reading
    // (cpp-httplib's timeouts are per socket operation, not per response).
    double timeoutSeconds = 60.0;
    // One call, all its attempts and waits together: a retry that would start after it
    // is not made.
    double deadlineSeconds = 300.0;
    // Attempts after the first one (0: never retry).
    int maxRetries = 4;
    // The wait before retry n (n = 1, 2, …) is min(backoffMaxSeconds,
    // backoffSeconds·2^(n−1)), times a random factor in [0.5, 1) (jitter), unless a 429 or
    // 503 says Retry-After: <seconds>, which is then waited as given.
    double backoffSeconds = 1.0;
    double backoffMaxSeconds = 30.0;
};

// After `threshold` calls in a row have found no working server (no connection, timeouts,
// 408, 429, 5xx, after all their attempts), the breaker opens: calls fail at once, sending
// nothing, for `cooldownSeconds`. Then one trial call is let through while the others are
// refused; its answer closes the breaker, its failure opens it again. A 4xx or an answer
// that is not what was asked counts as an answer (the server is up). threshold 0: none.
struct BreakerOptions {
    int threshold = 0;
    double cooldownSeconds = 30.0;
};

// How to reach one OpenAI-compatible server: what the judge's and the http embedder's
// options hold (JudgeOptions::server, HttpEmbedderOptions::server), and what a client
// for one of its endpoints is made from (clientOptions).
struct EndpointOptions {
    // http:// or https://, host, optional port and path: the server's base URL
    // (endpointUrl makes an endpoint's URL of it). No user:password@ part.
    std::string url;
    // The NAME of an environment variable holding the API key (see ClientOptions).
    std::string apiKeyEnv;
    std::string caCertPath; // PEM of the CAs to trust for https; "": the system's store
    RetryOptions retry;
    BreakerOptions breaker;
};

struct ClientOptions {
    std::string who; // "http embedder", "judge": starts every message
    Url target;      // the endpoint itself (endpointUrl)
    // The NAME of an environment variable holding the API key, read at each call and sent
    // as "Authorization: Bearer <key>"; empty, unset or empty variable: none sent. The key
    // is never stored, logged or put in a message.
    std::string apiKeyEnv;
    std::string caCertPath; // PEM of the CAs to trust for https; "": the system's store
    RetryOptions retry;
    BreakerOptions breaker;
    // A reply body larger than this (chunked or not) is cut off and the call fails, not
    // retried: a server answering garbage cannot fill the memory. 64 MiB holds an
    // embeddings batch of 2,048 × 4,096 floats as JSON text.
    size_t maxReplyBytes = 64u << 20;
};

// The options of a client of `server`'s `endpoint` ("chat/completions", "embeddings");
// `who` starts its messages. Throws std::invalid_argument for a URL that does not parse
// (naming `who`).
ClientOptions clientOptions(const EndpointOptions &server, const std::string &who, const std::string &endpoint);

// What a caller's check of a 2xx body throws when the answer is not what was asked for.
// `retry`: whether another attempt may help (a truncated or garbled body from a proxy);
// by default not (a wrong URL or server, which waiting does not fix).
struct BadAnswer : std::runtime_error {
    explicit BadAnswer(const std::string &what, bool retry = false) : std::runtime_error(what), retry(retry) {}
    bool retry;
};

// A call that failed: the message starts "<who> <URL>: " and says what happened and
// after how many attempts; nothing partial was returned.
struct CallError : std::runtime_error {
    CallError(const std::string &what, int attempts, bool breakerOpen, bool cancelled = false)
        : std::runtime_error(what), attempts(attempts), breakerOpen(breakerOpen), cancelled(cancelled)
    {
    }
    int attempts = 0;         // HTTP attempts made (0 when the breaker was open)
    bool breakerOpen = false; // refused by the open breaker, nothing sent
    bool cancelled = false;   // cut short by cancel(): no answer of the server's, not its failure
};

struct CallResult {
    std::string body;    // the accepted 2xx body
    int status = 200;
    int attempts = 1;    // HTTP attempts made, the accepted one included
    double seconds = 0;  // the whole call, waits between attempts included
};

// Counters since construction, summed over threads.
struct ClientStats {
    uint64_t calls = 0;       // post() calls that sent at least one request
    uint64_t requests = 0;    // HTTP attempts
    uint64_t retries = 0;     // attempts after a call's first
    uint64_t failures = 0;    // calls that threw
    uint64_t breakerRefusals = 0; // calls refused by the open breaker (also failures)
    uint64_t cancelled = 0;   // calls cut short or refused by cancel() (not failures)
    uint64_t staleConnections = 0; // idle keep-alive connections found closed and replaced (not attempts)
    double seconds = 0.0;     // wall time in calls, waits included
};

// Thread-safe: post() may be called from several threads at once; each call uses its own
// connection (idle ones are kept for reuse).
class JsonHttpClient {
public:
    // Throws std::invalid_argument (starting with `who`) for options out of range.
    explicit JsonHttpClient(ClientOptions options);
    ~JsonHttpClient();
    JsonHttpClient(const JsonHttpClient &) = delete;
    JsonHttpClient &operator=(const JsonHttpClient &) = delete;

    // Checks a 2xx body; throws BadAnswer to reject it. May be called once per attempt.
    using Check = std::function<void(const std::string &body, int status)>;

    // POSTs `body` (JSON) to the target. Retried: no connection, a timeout, a connection
    // dropped before a whole response, HTTP 408, 429 and 5xx, and a BadAnswer with retry.
    // Not retried: other 4xx, 3xx (redirects are not followed), TLS failures, a BadAnswer
    // without retry. Throws CallError.
    CallResult post(const std::string &body, const Check &check) const;

    // Cancels the calls in flight and refuses new ones, until resume(): a call waiting for
    // an answer has its socket shut down, one waiting to retry wakes, and each throws a
    // CallError with `cancelled` at once ("… cancelled"), which does not count towards the
    // breaker. For a program that must stop now (the workbench closing during a re-score)
    // without waiting out a judge's deadline. Thread-safe; may be called again (a call
    // caught between taking its connection and sending is stopped by the next cancel()).
    void cancel() const;
    void resume() const;
    bool cancelled() const { return m_cancelled.load(); }

    const ClientOptions &options() const { return m_options; }
    // The endpoint's URL, as messages show it.
    const std::string &endpoint() const { return m_endpoint; }
    ClientStats stats() const;

private:
    class Connection;
    std::shared_ptr<Connection> takeConnection() const;
    void returnConnection(std::shared_ptr<Connection> connection) const;
    // Whether the breaker lets a call through now (`trial`: as the one trial of a half-open
    // breaker); on refusal, `why` says when it reopens.
    bool admit(std::string &why, bool &trial) const;
    // A call ended: the server answered (anything) or could not be reached / timed out /
    // failed with 408, 429 or 5xx. Only the latter count towards opening the breaker.
    void settle(bool serverAnswered, bool trial) const;

    ClientOptions m_options;
    std::string m_endpoint;
    mutable std::mutex m_poolMutex; // the pool, the busy list and the cancel flag's waits
    mutable std::vector<std::shared_ptr<Connection>> m_pool;
    mutable std::vector<std::shared_ptr<Connection>> m_busy; // sending or waiting for an answer
    mutable std::condition_variable m_wake;   // wakes the waits between attempts on cancel()
    mutable std::atomic<bool> m_cancelled{false};
    mutable std::mutex m_stateMutex; // the breaker and the stats
    mutable int m_failuresInRow = 0;
    mutable double m_openUntil = 0.0; // seconds on the steady clock
    mutable bool m_trialInFlight = false;
    mutable ClientStats m_stats;
};

} // namespace rwb::net
