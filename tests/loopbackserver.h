#pragma once

// Loopback servers for the tests of HTTP clients (the http: embedder, the judge client):
// a scripted cpp-httplib server, a raw TCP server that misbehaves, and a closed port.
// Header-only; include it in one test file each.

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rwbtest {

using json = nlohmann::json;

// One request as the scripted server saw it.
struct SeenRequest {
    std::string path;
    json body; // discarded when not JSON
    bool hasAuthorization = false;
    std::string authorization;

    std::vector<std::string> inputs() const
    {
        return body.is_object() && body.contains("input") && body["input"].is_array()
                   ? body["input"].get<std::vector<std::string>>()
                   : std::vector<std::string>{};
    }
};

// A cpp-httplib server on 127.0.0.1 whose POST `path` runs a script; it records every
// request. Destroy the client before the server (declare it after), so that no
// keep-alive connection holds a server thread.
class ScriptedServer {
public:
    // Answers request n (0-based, counting every request this server got).
    using Script = std::function<void(int n, const SeenRequest &request, httplib::Response &res)>;

    explicit ScriptedServer(Script script, bool tls = false, const std::string &path = "/v1/embeddings")
        : m_script(std::move(script))
    {
        if (tls)
            m_server = std::make_unique<httplib::SSLServer>(RWB_TEST_DATA "/tls/loopback.crt",
                                                            RWB_TEST_DATA "/tls/loopback.key");
        else
            m_server = std::make_unique<httplib::Server>();
        m_server->set_keep_alive_timeout(1);
        m_server->Post(path, [this](const httplib::Request &req, httplib::Response &res) {
            SeenRequest seen{req.path, json::parse(req.body, nullptr, /*allow_exceptions=*/false),
                             req.has_header("Authorization"), req.get_header_value("Authorization")};
            int n = 0;
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                n = static_cast<int>(m_requests.size());
                m_requests.push_back(seen);
            }
            m_script(n, seen, res);
        });
        m_port = m_server->bind_to_any_port("127.0.0.1");
        m_thread = std::thread([this] { m_server->listen_after_bind(); });
        // stop() only stops a server that is running.
        while (!m_server->is_running())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~ScriptedServer()
    {
        m_server->stop();
        m_thread.join();
    }

    bool ok() const { return m_port > 0; }
    // The base URL ("/embeddings" is appended by the embedder).
    std::string url(const char *scheme = "http") const
    {
        return std::string(scheme) + "://127.0.0.1:" + std::to_string(m_port) + "/v1";
    }
    std::string endpoint(const char *scheme = "http") const { return url(scheme) + "/embeddings"; }
    std::vector<SeenRequest> requests() const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_requests;
    }

private:
    Script m_script;
    std::unique_ptr<httplib::Server> m_server;
    int m_port = -1;
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<SeenRequest> m_requests;
};

// A TCP server that misbehaves: Drop reads a whole request, then closes the connection;
// Reset closes it at once (FIN, then a reset as data arrives), reading nothing; Silent
// reads the request and keeps the connection open until destroyed; AnswerOnce answers
// a connection's first request with `answer` (HTTP 200, JSON, keep-alive), then closes
// it when the second arrives, unanswered: a keep-alive timeout that runs out just as the
// client reuses the connection.
class RawServer {
public:
    enum class Mode { Drop, Reset, Silent, AnswerOnce };

    explicit RawServer(Mode mode, std::string answer = {}) : m_mode(mode), m_answer(std::move(answer))
    {
        m_fd = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        socklen_t len = sizeof addr;
        if (bind(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 && listen(m_fd, 16) == 0 &&
            getsockname(m_fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
            m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { run(); });
    }
    ~RawServer()
    {
        m_stop = true;
        m_thread.join();
        for (int c : m_held)
            close(c);
        close(m_fd);
    }

    bool ok() const { return m_port > 0; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }
    int connections() const { return m_connections; }
    int answered() const { return m_answered; } // AnswerOnce: the answers sent

private:
    void run()
    {
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (poll(&p, 1, 10) <= 0)
                continue;
            const int c = accept(m_fd, nullptr, nullptr);
            if (c < 0)
                continue;
            ++m_connections;
            if (m_mode == Mode::Reset) {
                shutdown(c, SHUT_WR); // FIN first: the client's next write then fails with EPIPE
            } else if (m_mode == Mode::AnswerOnce) {
                // One connection at a time is enough for the tests that use it.
                readRequest(c);
                const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                                         std::to_string(m_answer.size()) + "\r\n\r\n";
                const std::string whole = head + m_answer;
                if (send(c, whole.data(), whole.size(), MSG_NOSIGNAL) == ssize_t(whole.size()))
                    ++m_answered;
                readRequest(c, 5000);
            } else {
                readRequest(c);
            }
            if (m_mode != Mode::Silent)
                close(c);
            else
                m_held.push_back(c);
        }
    }
    // Reads the head and Content-Length bytes of body (`waitMs` for each piece at most).
    static void readRequest(int c, int waitMs = 1000)
    {
        std::string data;
        char buf[4096];
        size_t want = std::string::npos;
        while (data.size() < want) {
            pollfd q{c, POLLIN, 0};
            if (poll(&q, 1, waitMs) <= 0)
                return;
            const ssize_t r = recv(c, buf, sizeof buf, 0);
            if (r <= 0)
                return;
            data.append(buf, static_cast<size_t>(r));
            const size_t head = data.find("\r\n\r\n");
            if (head != std::string::npos && want == std::string::npos) {
                const size_t cl = data.find("Content-Length: ");
                want = head + 4 + (cl < head ? std::stoul(data.substr(cl + 16)) : 0);
            }
        }
    }

    Mode m_mode;
    std::string m_answer;
    int m_fd = -1;
    int m_port = -1;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_connections{0};
    std::atomic<int> m_answered{0};
    std::vector<int> m_held;
};

// A port on 127.0.0.1 that nothing listens on (bound, then closed).
inline int closedPort()
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
    getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
    close(fd);
    return ntohs(addr.sin_port);
}

} // namespace rwbtest
