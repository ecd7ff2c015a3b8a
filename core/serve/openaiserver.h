#pragma once

// rwb serve's HTTP side: an OpenAI-compatible server (cpp-httplib) in front of a
// ChatEngine and embedders. Endpoints: POST /v1/chat/completions (with stream: true as
// server-sent events, written as the scheduler hands the text over), POST /v1/embeddings,
// GET /v1/models, GET /v1/models/{id}, GET /health; with a RewardService, the reward
// endpoints for other trainers: POST /reward (OpenRLHF; also /get_reward), /reward/verl,
// /reward/trl. Errors in OpenAI's shape {"error": {"message", "type", "param", "code"}}.
// See docs/serve.md and docs/handoff.md.

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}
namespace rwb::embed {
class Embedder;
}

namespace rwb::serve {

class ChatEngine;
class RewardService;

struct ServerOptions {
    // The address to listen on: loopback unless told otherwise ("0.0.0.0" opens it to the
    // network; then set an API key).
    std::string host = "127.0.0.1";
    int port = 8000; // 0: any free port (port() tells which)
    // When not empty, every /v1 and /reward request needs "Authorization: Bearer <apiKey>"
    // (compared in constant time; never logged); /health does not. A reward request may
    // carry it as ?api_key=… instead (OpenRLHF's client sends no headers).
    std::string apiKey;
    // HTTP worker threads: each open connection holds one while it is kept alive, and a
    // request waiting for its completion holds one, so more than the batch's rows are
    // needed for the batch to fill. 0: 2 × 32 + 8.
    int threads = 0;
    size_t maxBodyBytes = 32u << 20; // a larger body gets 413
    // A guard against DNS rebinding: a request whose Host header names this server by a
    // name (not an IP address) is refused with 403 unless the name is "localhost" or one
    // of these. /health is not guarded.
    std::vector<std::string> allowedHosts;
    // Browsers send Origin; a request that carries one is refused with 403 unless it is
    // one of these ("*": any). Trainers, curl and the OpenAI SDKs send none.
    std::vector<std::string> allowedOrigins;
    // One line per answered request (method, path, status, seconds; no key, no bodies),
    // called on HTTP threads. Empty: nothing logged.
    std::function<void(const std::string &)> log;
};

// A served embedding model: its id in requests and what embeds for it.
struct EmbeddingModel {
    std::string name;
    std::shared_ptr<const embed::Embedder> embedder;
};

// start() and stop() from one thread (the owner's); setModels() from any. Requests are
// answered on the server's own threads.
class OpenAiServer {
public:
    // Throws std::invalid_argument for options out of range. Listens to nothing yet.
    explicit OpenAiServer(ServerOptions options);
    ~OpenAiServer(); // stop()
    OpenAiServer(const OpenAiServer &) = delete;
    OpenAiServer &operator=(const OpenAiServer &) = delete;

    // Binds host:port and answers on a thread of its own. Until setModels(), /health says
    // 503 {"status": "loading"} and /v1 requests get 503. Throws std::runtime_error naming
    // the address when it cannot bind.
    void start();
    // What answers from now on; `chat` may be null (no chat model: 404), `embeddings`
    // empty (no /v1/embeddings: 404). The engine's and embedders' lifetimes are shared
    // with requests in flight.
    void setModels(std::shared_ptr<ChatEngine> chat, std::vector<EmbeddingModel> embeddings,
                   std::shared_ptr<RewardService> rewards = nullptr);
    // Stops listening and waits for the requests in flight (shut the engine down first to
    // make long ones end at once). Idempotent.
    void stop();

    const std::string &host() const { return m_options.host; }
    int port() const { return m_port; } // after start()
    std::string baseUrl() const;        // "http://127.0.0.1:8000/v1"
    bool running() const;

private:
    struct Models;
    std::shared_ptr<const Models> models() const;
    void routes();

    ServerOptions m_options;
    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    int m_port = 0;
    mutable std::mutex m_mutex;
    std::shared_ptr<const Models> m_models; // null while loading
};

} // namespace rwb::serve
