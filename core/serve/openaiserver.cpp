#include "serve/openaiserver.h"

#include "embed/embedder.h"
#include "serve/apierror.h"
#include "serve/chatengine.h"
#include "serve/headgate.h"
#include "serve/openaiprotocol.h"
#include "serve/rewardservice.h"

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/socket.h>

// Debian's libcpp-httplib is a compiled library built with TLS, and its classes change
// layout without this macro: every file that includes httplib.h must get pkg-config
// cpp-httplib's flags (CMake: PkgConfig::HTTPLIB).
#ifndef CPPHTTPLIB_OPENSSL_SUPPORT
#error "compile with the flags of pkg-config cpp-httplib (CPPHTTPLIB_OPENSSL_SUPPORT)"
#endif

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <set>

namespace rwb::serve {

namespace {

using Clock = std::chrono::steady_clock;

// Worker threads when the options say 0: room for a full default batch (32 rows) of
// waiting requests, as many idle keep-alive connections, and a few more.
constexpr int kDefaultThreads = 2 * 32 + 8;
// An idle kept-alive connection is closed after this long (stop() waits for it too).
constexpr time_t kKeepAliveSeconds = 2;
// Requests on one kept-alive connection before it is closed.
constexpr size_t kKeepAliveRequests = 10000;

const char *const kJson = "application/json";

void sendError(httplib::Response &res, const ApiError &e)
{
    res.status = e.status;
    res.set_content(errorJson(e), kJson);
    if (e.status == 401)
        res.set_header("WWW-Authenticate", "Bearer");
    if (e.status == 503) // loading, shutting down or busy: OpenAI's SDKs wait this long and retry
        res.set_header("Retry-After", "1");
}

ApiError loading()
{
    return ApiError(503, "server_error", "", "model_loading", "The model is still loading; try again shortly.");
}

std::string sha256(const std::string &text)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
    return std::string(reinterpret_cast<const char *>(digest), length);
}

// "Bearer <key>" against the key: both hashed, then compared in constant time, so neither
// the time nor a length difference tells how much of a guess was right.
bool isRewardPath(const std::string &path)
{
    return path.rfind("/reward", 0) == 0 || path == "/get_reward";
}

std::string lowered(std::string s)
{
    for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The Host header's name without its port; "" when it is an IP address (v4, or v6 in
// brackets) or absent: an address cannot be rebound.
std::string hostName(const std::string &header)
{
    if (header.empty() || header[0] == '[')
        return {};
    std::string name = lowered(header.substr(0, header.find(':')));
    if (!name.empty() && name.back() == '.')
        name.pop_back();
    if (name.find_first_not_of("0123456789.") == std::string::npos)
        return {};
    return name;
}

// A request path as the log may show it: control characters (a %0A would forge a line)
// and bytes above 0x7E written as %XX.
std::string loggablePath(const std::string &path)
{
    std::string out;
    for (unsigned char c : path) {
        if (c < 0x20 || c > 0x7E) {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
    return out;
}

bool authorized(const httplib::Request &req, const std::string &keyDigest)
{
    if (isRewardPath(req.path) && req.has_param("api_key")) {
        const std::string digest = sha256(req.get_param_value("api_key"));
        return digest.size() == keyDigest.size() &&
               CRYPTO_memcmp(digest.data(), keyDigest.data(), digest.size()) == 0;
    }
    const std::string header = req.get_header_value("Authorization");
    static const std::string kBearer = "bearer ";
    if (header.size() <= kBearer.size())
        return false;
    std::string scheme = header.substr(0, kBearer.size());
    std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
    if (scheme != kBearer)
        return false;
    size_t start = kBearer.size();
    while (start < header.size() && header[start] == ' ')
        ++start;
    const std::string digest = sha256(header.substr(start));
    return digest.size() == keyDigest.size() && CRYPTO_memcmp(digest.data(), keyDigest.data(), digest.size()) == 0;
}

std::string randomHex(size_t digits)
{
    static thread_local std::mt19937_64 generator{std::random_device{}()};
    static const char *hex = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < digits; ++i)
        s += hex[generator() & 15];
    return s;
}

int64_t unixNow()
{
    return static_cast<int64_t>(std::time(nullptr));
}

// How long a streaming answer waits for new text before it looks at its client's socket.
constexpr std::chrono::milliseconds kStreamPoll{10};

// Writes a streamed chat completion as server-sent events: each choice's role chunk, the
// deltas as the scheduler hands them over, the usage chunk (include_usage), "[DONE]". On
// the HTTP worker, from cpp-httplib's content provider (after the 200 and its headers
// went out). A client that hangs up, or whose socket takes no more, cancels the
// generation (logged as 499); an engine that fails or stops sends {"error": …} as the last
// event. Returns false when the connection is to be dropped.
bool writeStream(ChatEngine::Stream &stream, const ChunkHead &head, int choices, bool logprobs,
                 httplib::DataSink &sink, httplib::Response &res)
{
    const auto send = [&](const std::string &data) {
        const std::string event = "data: " + data + "\n\n";
        return sink.write(event.data(), event.size());
    };
    const auto gone = [&] {
        stream.cancel();
        res.status = 499; // for the log: the client saw a 200 cut short
        return false;
    };
    for (int i = 0; i < choices; ++i) {
        CompletionDelta role;
        role.choice = static_cast<size_t>(i);
        if (!send(chatChunkJson(head, role, /*first=*/true, logprobs)))
            return gone();
    }
    try {
        std::vector<CompletionDelta> deltas;
        for (bool more = true; more;) {
            deltas.clear();
            more = stream.next(deltas, kStreamPoll);
            for (const CompletionDelta &d : deltas)
                if (!send(chatChunkJson(head, d, /*first=*/false, logprobs)))
                    return gone();
            if (more && GatedServer::clientHungUp())
                return gone();
        }
    } catch (const std::exception &e) {
        const ApiError *api = dynamic_cast<const ApiError *>(&e);
        const ApiError error =
            api ? *api : ApiError(500, "server_error", "", "", std::string("The model failed: ") + e.what());
        res.status = error.status; // for the log; the client saw a 200 and gets the error as the last event
        GatedServer::closeAfterThisRequest();
        if (send(errorJson(error)))
            sink.done();
        return true;
    }
    if (head.usage && !send(chatUsageChunkJson(head, stream.promptTokens(), stream.completionTokens())))
        return gone();
    if (!send("[DONE]"))
        return gone();
    sink.done();
    return true;
}

// Answers a chat request with stream: true. Errors found before the stream starts (the
// request's checks, a full queue) are thrown as ApiError and answered as plain JSON.
void streamChat(ChatEngine &engine, const ChatCompletionRequest &r, httplib::Response &res)
{
    std::shared_ptr<ChatEngine::Stream> stream = engine.stream(r.chat);
    ChunkHead head;
    head.id = "chatcmpl-" + randomHex(24);
    head.created = unixNow();
    head.model = engine.name();
    head.usage = r.includeUsage;
    const int choices = r.chat.sampling.n;
    const bool logprobs = r.chat.sampling.logprobs;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no"); // a proxy (nginx) in front must not hold the events back
    // Exactly "text/event-stream": cpp-httplib compresses other text/ types, which would
    // hold the events back until the end.
    res.set_chunked_content_provider(
        "text/event-stream",
        [stream, head, choices, logprobs, &res](size_t, httplib::DataSink &sink) {
            return writeStream(*stream, head, choices, logprobs, sink, res);
        },
        // Called when the answer is done or dropped, written or not: a generation that
        // still runs (the headers could not be sent) is cancelled.
        [stream](bool) { stream->cancel(); });
}

// When the request being answered on this thread started (for the log).
thread_local Clock::time_point t_requestStart;
// More headers than any client sends (browsers send about 20).
constexpr size_t kMaxHeaders = 100;

} // namespace

struct OpenAiServer::Models {
    std::shared_ptr<ChatEngine> chat;
    std::vector<EmbeddingModel> embeddings;
    std::shared_ptr<RewardService> rewards;
    int64_t created = 0;

    std::string list() const
    {
        std::string s;
        if (chat)
            s += chat->name() + " (chat)";
        for (const EmbeddingModel &e : embeddings)
            s += (s.empty() ? "" : ", ") + e.name + " (embeddings)";
        if (rewards)
            s += (s.empty() ? "" : ", ") + rewards->configName() + " (rewards)";
        return s.empty() ? "none" : s;
    }
    ApiError unknown(const std::string &name, const std::string &kind) const
    {
        return ApiError(404, "invalid_request_error", "model", "model_not_found",
                        "The model `" + name + "` does not exist or is not a" + kind + " model here. Models: " + list() +
                            ".");
    }
};

OpenAiServer::OpenAiServer(ServerOptions options) : m_options(std::move(options))
{
    if (m_options.port < 0 || m_options.port > 65535)
        throw std::invalid_argument("port " + std::to_string(m_options.port) + " is not 0 to 65535");
    if (m_options.threads < 0)
        throw std::invalid_argument("HTTP threads must be 0 (the default) or more");
    if (m_options.host.empty())
        throw std::invalid_argument("no host to listen on");
}

OpenAiServer::~OpenAiServer()
{
    stop();
}

std::string OpenAiServer::baseUrl() const
{
    const std::string host = m_options.host.find(':') != std::string::npos ? "[" + m_options.host + "]" : m_options.host;
    return "http://" + host + ":" + std::to_string(m_port) + "/v1";
}

bool OpenAiServer::running() const
{
    return m_server && m_server->is_running();
}

void OpenAiServer::setModels(std::shared_ptr<ChatEngine> chat, std::vector<EmbeddingModel> embeddings,
                             std::shared_ptr<RewardService> rewards)
{
    auto m = std::make_shared<Models>();
    m->chat = std::move(chat);
    m->embeddings = std::move(embeddings);
    m->rewards = std::move(rewards);
    m->created = unixNow();
    std::lock_guard<std::mutex> lock(m_mutex);
    m_models = std::move(m);
}

std::shared_ptr<const OpenAiServer::Models> OpenAiServer::models() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_models;
}

void OpenAiServer::start()
{
    if (m_server)
        throw std::logic_error("the server was started already");
    const int threads = m_options.threads > 0 ? m_options.threads : kDefaultThreads;
    // Heads are read at a gate (headgate.h) under a deadline and size caps; only whole
    // requests reach the `threads` workers, so slow or idle clients cost a socket.
    GateLimits limits;
    limits.idle = std::chrono::seconds(kKeepAliveSeconds);
    limits.maxRequestsPerConnection = kKeepAliveRequests;
    m_server = std::make_unique<GatedServer>(limits, threads);
    m_server->set_keep_alive_timeout(kKeepAliveSeconds);
    // cpp-httplib closes a connection after 5 requests by default; under load (32 clients
    // waiting for their turn) clients then lost requests on connections being closed.
    m_server->set_keep_alive_max_count(kKeepAliveRequests);
    // An answer's headers and body are two writes: without this, Nagle's algorithm holds
    // the body until the client's delayed ACK (40 ms on Linux).
    m_server->set_tcp_nodelay(true);
    // cpp-httplib's default also sets SO_REUSEPORT, with which a second server binds the
    // same port and silently takes half of the connections: SO_REUSEADDR only (a restart
    // may bind while old connections wait in TIME_WAIT).
    m_server->set_socket_options([](socket_t sock) {
        const int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    m_server->set_payload_max_length(m_options.maxBodyBytes);
    routes();
    const int port = m_options.port == 0 ? m_server->bind_to_any_port(m_options.host)
                                         : (m_server->bind_to_port(m_options.host, m_options.port) ? m_options.port : -1);
    if (port <= 0) {
        m_server.reset();
        throw std::runtime_error("cannot listen on " + m_options.host + ":" + std::to_string(m_options.port) +
                                 " (in use, or not an address of this machine)");
    }
    m_port = port;
    static_cast<GatedServer &>(*m_server).raiseBacklog(1024);
    m_thread = std::thread([this] { m_server->listen_after_bind(); });
    // stop() only stops a server that is already listening: wait for it to be.
    for (int i = 0; i < 5000 && !m_server->is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void OpenAiServer::stop()
{
    if (!m_server)
        return;
    m_server->stop();
    if (m_thread.joinable())
        m_thread.join();
    static_cast<GatedServer &>(*m_server).stopGate();
}

void OpenAiServer::routes()
{
    httplib::Server &s = *m_server;
    const std::string keyDigest = m_options.apiKey.empty() ? std::string() : sha256(m_options.apiKey);

    std::set<std::string> hosts{"localhost"};
    for (const std::string &h : m_options.allowedHosts)
        hosts.insert(lowered(h));
    if (const std::string served = hostName(m_options.host); !served.empty())
        hosts.insert(served);
    const std::set<std::string> origins(m_options.allowedOrigins.begin(), m_options.allowedOrigins.end());
    s.set_pre_routing_handler([keyDigest, hosts, origins](const httplib::Request &req, httplib::Response &res) {
        t_requestStart = Clock::now();
        // Before the body is read (cpp-httplib reads it after this handler): a chunked body
        // has no length to hold against maxBodyBytes, and cpp-httplib 0.11 reads it whole
        // (300 MB were read and kept). Trainers' clients (requests, httpx, aiohttp, the
        // OpenAI SDKs) send a Content-Length.
        if (req.get_header_value("Transfer-Encoding").find("chunked") != std::string::npos) {
            sendError(res, ApiError(411, "invalid_request_error", "", "length_required",
                                    "Chunked request bodies are not accepted: send the body with a Content-Length."));
            res.set_header("Connection", "close");
            GatedServer::closeAfterThisRequest();
            return httplib::Server::HandlerResponse::Handled;
        }
        if (req.headers.size() > kMaxHeaders) {
            sendError(res, ApiError(431, "invalid_request_error", "", "too_many_headers",
                                    "The request has " + std::to_string(req.headers.size()) + " headers; at most " +
                                        std::to_string(kMaxHeaders) + " are accepted."));
            res.set_header("Connection", "close");
            GatedServer::closeAfterThisRequest();
            return httplib::Server::HandlerResponse::Handled;
        }
        if (req.path != "/health") {
            // A web page (or a name rebound to 127.0.0.1) must not reach the routes: they
            // score, log to the store and decode on this machine's account.
            const std::string name = hostName(req.get_header_value("Host"));
            if (!name.empty() && !hosts.count(name)) {
                sendError(res, ApiError(403, "invalid_request_error", "", "forbidden_host",
                                        "Host '" + name.substr(0, 100) +
                                            "' is not a name this server answers to (a guard against DNS "
                                            "rebinding): call it by IP address or localhost, or start rwb serve "
                                            "with --allow-host " + name.substr(0, 100) + "."));
                return httplib::Server::HandlerResponse::Handled;
            }
            const std::string origin = req.get_header_value("Origin");
            if (!origin.empty() && !origins.count("*") && !origins.count(origin)) {
                sendError(res, ApiError(403, "invalid_request_error", "", "forbidden_origin",
                                        "Requests from a web page (Origin '" + origin.substr(0, 100) +
                                            "') are refused: start rwb serve with --allow-origin to accept them."));
                return httplib::Server::HandlerResponse::Handled;
            }
        }
        if (!keyDigest.empty() && (req.path.rfind("/v1", 0) == 0 || isRewardPath(req.path)) &&
            !authorized(req, keyDigest)) {
            const bool none = req.get_header_value("Authorization").empty();
            sendError(res, ApiError(401, "invalid_request_error", "", "invalid_api_key",
                                    none ? "You didn't provide an API key. Send it as 'Authorization: Bearer <key>'."
                                         : "Incorrect API key provided."));
            return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });

    if (m_options.log) {
        auto log = m_options.log;
        s.set_logger([log](const httplib::Request &req, const httplib::Response &res) {
            // A request refused before routing (413, an unreadable one) never set the start.
            char line[64];
            if (t_requestStart == Clock::time_point()) {
                std::snprintf(line, sizeof line, " %d", res.status);
            } else {
                const double seconds = std::chrono::duration<double>(Clock::now() - t_requestStart).count();
                std::snprintf(line, sizeof line, " %d %.3f s", res.status, seconds);
            }
            t_requestStart = Clock::time_point();
            log(loggablePath(req.method) + " " + loggablePath(req.path) + line);
        });
    }

    s.set_error_handler([](const httplib::Request &req, httplib::Response &res) {
        if (!res.body.empty())
            return;
        if (res.status == 413)
            sendError(res, ApiError(413, "invalid_request_error", "", "request_too_large",
                                    "The request body is larger than the server accepts."));
        else if (res.status == 404 || res.status == 405)
            sendError(res, ApiError(404, "invalid_request_error", "", "unknown_url",
                                    "Unknown request URL: " + req.method + " " + req.path +
                                        ". rwb serve answers POST /v1/chat/completions, POST /v1/embeddings, "
                                        "GET /v1/models, GET /health and, with --reward-config, POST /reward, "
                                        "/reward/verl and /reward/trl."));
        else
            sendError(res, ApiError(res.status, "invalid_request_error", "", "", "The request could not be read."));
    });

    s.set_exception_handler([](const httplib::Request &, httplib::Response &res, std::exception_ptr ep) {
        std::string what = "unknown error";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception &e) {
            what = e.what();
        } catch (...) {
        }
        sendError(res, ApiError(500, "server_error", "", "", "The server failed: " + what));
    });

    s.Get("/health", [this](const httplib::Request &, httplib::Response &res) {
        const bool ready = models() != nullptr;
        res.status = ready ? 200 : 503;
        res.set_content(ready ? R"({"status":"ok"})" : R"({"status":"loading"})", kJson);
    });

    const auto modelJson = [](const std::string &id, int64_t created) {
        return nlohmann::ordered_json{{"id", id}, {"object", "model"}, {"created", created}, {"owned_by", "rwb"}};
    };

    s.Get("/v1/models", [this, modelJson](const httplib::Request &, httplib::Response &res) {
        const auto m = models();
        if (!m)
            return sendError(res, loading());
        nlohmann::ordered_json data = nlohmann::ordered_json::array();
        if (m->chat)
            data.push_back(modelJson(m->chat->name(), m->created));
        for (const EmbeddingModel &e : m->embeddings)
            data.push_back(modelJson(e.name, m->created));
        res.set_content(nlohmann::ordered_json{{"object", "list"}, {"data", std::move(data)}}.dump(), kJson);
    });

    s.Get(R"(/v1/models/(.+))", [this, modelJson](const httplib::Request &req, httplib::Response &res) {
        const auto m = models();
        if (!m)
            return sendError(res, loading());
        const std::string id = req.matches[1];
        bool found = m->chat && id == m->chat->name(); // the model's name
        for (const EmbeddingModel &e : m->embeddings)
            found = found || e.name == id;
        if (!found)
            return sendError(res, m->unknown(id, ""));
        res.set_content(modelJson(id, m->created).dump(), kJson);
    });

    s.Post("/v1/chat/completions", [this](const httplib::Request &req, httplib::Response &res) {
        const auto m = models();
        try {
            if (!m)
                throw loading();
            const ChatCompletionRequest r = parseChatCompletionRequest(req.body);
            if (!m->chat || (!r.model.empty() && r.model != m->chat->name()))
                throw m->unknown(r.model.empty() ? std::string("(none)") : r.model, " chat");
            if (r.stream)
                return streamChat(*m->chat, r, res);
            const ChatCompletion c = m->chat->complete(r.chat, [] { return GatedServer::clientHungUp(); });
            res.set_content(chatCompletionJson(c, r.chat.sampling.logprobs, "chatcmpl-" + randomHex(24), unixNow()),
                            kJson);
        } catch (const ApiError &e) {
            sendError(res, e);
        } catch (const std::exception &e) {
            sendError(res, ApiError(500, "server_error", "", "", std::string("The model failed: ") + e.what()));
        }
    });

    s.Post("/v1/embeddings", [this](const httplib::Request &req, httplib::Response &res) {
        const auto m = models();
        try {
            if (!m)
                throw loading();
            if (m->embeddings.empty())
                throw ApiError(404, "invalid_request_error", "model", "model_not_found",
                               "No embedding model is served (start rwb serve with --embed hf:DIR). Models: " +
                                   m->list() + ".");
            const EmbeddingsRequest r = parseEmbeddingsRequest(req.body);
            const EmbeddingModel *model = &m->embeddings.front();
            if (!r.model.empty()) {
                model = nullptr;
                for (const EmbeddingModel &e : m->embeddings)
                    if (e.name == r.model)
                        model = &e;
                if (!model)
                    throw m->unknown(r.model, "n embedding");
            }
            const int dimension = model->embedder->dimension();
            if (r.dimensions != 0 && r.dimensions != dimension)
                throw ApiError::invalid("dimensions", "The model `" + model->name + "` gives " +
                                                          std::to_string(dimension) +
                                                          " dimensions and cannot shorten them; send 'dimensions': " +
                                                          std::to_string(dimension) + " or leave it out.",
                                        "unsupported_value");
            const std::vector<std::vector<float>> vectors = model->embedder->embed(r.input, embed::EmbedRole::Document);
            int64_t tokens = 0;
            for (const std::string &t : r.input) // none counted for a backend without a tokenizer here
                tokens += std::max<int64_t>(0, model->embedder->tokenCount(t, embed::EmbedRole::Document));
            res.set_content(embeddingsJson(vectors, r.base64, model->name, tokens), kJson);
        } catch (const ApiError &e) {
            sendError(res, e);
        } catch (const std::exception &e) {
            sendError(res, ApiError(500, "server_error", "", "", std::string("The embedder failed: ") + e.what()));
        }
    });

    // Rewards for other trainers (serve/rewardservice.h, docs/handoff.md).
    auto rewardRoute = [this](RewardProtocol protocol) {
        return [this, protocol](const httplib::Request &req, httplib::Response &res) {
            const auto m = models();
            try {
                if (!m)
                    throw loading();
                if (!m->rewards)
                    throw ApiError(404, "invalid_request_error", "", "no_reward_config",
                                   "No reward config is served (start rwb serve with --reward-config C.json).");
                res.set_content(m->rewards->handle(protocol, req.body), kJson);
            } catch (const ApiError &e) {
                sendError(res, e);
            } catch (const std::exception &e) {
                sendError(res, ApiError(500, "server_error", "", "", std::string("The rewards failed: ") + e.what()));
            }
        };
    };
    s.Post("/reward", rewardRoute(RewardProtocol::OpenRlhf));
    s.Post("/get_reward", rewardRoute(RewardProtocol::OpenRlhf)); // OpenRLHF's own serve_rm path
    s.Post("/reward/verl", rewardRoute(RewardProtocol::Verl));
    s.Post("/reward/trl", rewardRoute(RewardProtocol::Trl));
}

} // namespace rwb::serve
