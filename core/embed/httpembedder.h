#pragma once

#include "embed/embedder.h"
#include "net/httpjsonclient.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace rwb::net {
class JsonHttpClient;
}

namespace rwb::embed {

// The settings of an HttpEmbedder (outside the class so it can be a default argument).
struct HttpEmbedderOptions {
    // The server: its base URL (a path ending in "/embeddings" is used as is; one ending
    // in "/v1" (any "/v<digits>") gets "/embeddings" appended; any other path, none
    // included, gets "/v1/embeddings"; no user:password@ part), the NAME of the
    // environment variable holding the API key (read at each embed() call and sent as
    // "Authorization: Bearer <key>"; the key itself is never stored, logged or put in a
    // message), the CAs to trust for https, and the retries (one attempt's timeout; one
    // batch's deadline, all its attempts and waits together: per batch, not per embed()
    // call, since embedding a whole corpus may legitimately take hours; see HttpEmbedder
    // for what is retried). No circuit breaker.
    net::EndpointOptions server;
    // Sent as "model"; left out of the request when empty (TEI and llama.cpp serve one
    // model and ignore it; vLLM and Ollama need it).
    std::string model;
    // Texts per request.
    int batchSize = 32;
    // "float" (JSON numbers) or "base64" (little-endian float32, about 4 times smaller
    // on the wire). Either kind of answer is accepted whatever was asked for.
    std::string encodingFormat = "float";
    // Sent as "dimensions" (Matryoshka truncation) when > 0; every vector must then
    // have this many values.
    int dimensions = 0;
    // Prepended to every text by role: E5's "query: " / "passage: ", or Qwen3-Embedding's
    // "Instruct: <task>\nQuery:" for queries and nothing for documents.
    std::string queryPrefix;
    std::string documentPrefix;
};

// Counters since construction, summed over threads (a snapshot; see HttpEmbedder::stats).
struct HttpEmbedderStats {
    uint64_t requests = 0;     // HTTP attempts made, retries and the dimension probe included
    uint64_t retries = 0;      // attempts after a batch's first
    uint64_t failures = 0;     // batches given up on (embed() threw)
    uint64_t texts = 0;        // texts sent and embedded (blank texts are not sent)
    uint64_t promptTokens = 0; // sum of usage.prompt_tokens (servers that report it)
    double seconds = 0.0;      // wall time spent on batches, waits between retries included
};

// "http:URL#model": an OpenAI-compatible embeddings endpoint (POST /v1/embeddings) —
// vLLM, llama.cpp's llama-server, Ollama's /v1 endpoint, text-embeddings-inference.
//
// Request: {"model", "input": [texts], "encoding_format", "dimensions"?}; a text is
// role's prefix + text. Texts that are empty or white space only are not sent: their
// vector is the zero vector (the Embedder contract; many servers reject empty input).
// The rest go in batches of batchSize, one after the other, in order.
//
// Response: {"data": [{"index", "embedding"}], "usage": {"prompt_tokens"}}. Entries are
// put in `index` order (missing indexes: array order); "embedding" is an array of numbers
// or a base64 string of little-endian float32. Every vector is L2-normalized here,
// because servers differ: TEI and llama.cpp normalize by default, vLLM per model
// (its pooler config), Ollama on /api/embed but not /api/embeddings, and a vector cut
// by `dimensions` is no longer of norm 1. A zero vector stays zero.
//
// The dimension is `dimensions` when set, otherwise learned from the first response and
// then checked on every later one (within a response and across responses). dimension()
// called before any embed() sends one probe request to learn it.
//
// Retried (up to maxRetries, with backoff, within deadlineSeconds): no connection
// (refused, host not found, unreachable), a timeout, a connection dropped before a
// whole response, HTTP 408, 429 and 5xx. Not retried: other 4xx, 3xx (redirects are
// not followed), TLS certificate failures, and a 200 whose body is not a valid answer
// (not JSON, no `data`, wrong count, a bad vector): those point at a wrong URL or
// server, which waiting does not fix.
//
// Failures: embed() and dimension() throw std::runtime_error starting
// "http embedder <URL>: " and saying what happened (the server's error.message for an
// HTTP error, the JSON field such as "data[3].embedding" for a bad answer) and after how
// many attempts. Nothing partial is ever returned. The constructor contacts no server;
// it throws std::invalid_argument for options out of range (a bad URL, batchSize < 1…).
//
// Threads: embed(), dimension(), name() and stats() may be called from several threads
// at once; each call uses its own connection (idle ones are kept for reuse).
class HttpEmbedder : public Embedder {
public:
    using Options = HttpEmbedderOptions;

    explicit HttpEmbedder(const Options &options);
    ~HttpEmbedder() override;
    HttpEmbedder(const HttpEmbedder &) = delete;
    HttpEmbedder &operator=(const HttpEmbedder &) = delete;

    // The endpoint a base URL resolves to (the rules at Options::url). Throws
    // std::invalid_argument for a URL that is not http(s)://host[:port][/path].
    static std::string endpointUrl(const std::string &url);

    // "http:" + endpoint URL + "#" + model.
    std::string name() const override;
    // See the class comment: may send a probe request, and then may throw.
    int dimension() const override;
    std::vector<std::vector<float>> embed(const std::vector<std::string> &texts, EmbedRole role) const override;

    const Options &options() const { return m_options; }
    const std::string &endpoint() const { return m_endpoint; }
    HttpEmbedderStats stats() const;

private:
    // Embeds one batch (texts with prefixes applied, none blank), with retries.
    std::vector<std::vector<float>> embedBatch(const std::vector<std::string> &inputs) const;
    // Sets the dimension if still unknown; throws (naming `field`) when `n` differs.
    void checkDimension(int n, const std::string &field) const;

    Options m_options;
    std::string m_endpoint; // the full URL
    std::unique_ptr<net::JsonHttpClient> m_client;

    mutable std::atomic<int> m_dimension{0}; // 0: not known yet
    mutable std::mutex m_probeMutex;         // one probe at a time
    mutable std::mutex m_statsMutex;
    mutable HttpEmbedderStats m_stats;
};

} // namespace rwb::embed
