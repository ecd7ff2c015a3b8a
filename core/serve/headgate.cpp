#include "serve/headgate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace rwb::serve {

namespace {

using Clock = std::chrono::steady_clock;

int millisUntil(Clock::time_point t)
{
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 1'000'000));
}

bool waitFor(socket_t sock, short events, int ms)
{
    pollfd p{sock, events, 0};
    for (;;) {
        const int r = ::poll(&p, 1, ms);
        if (r < 0 && errno == EINTR)
            continue;
        return r > 0 && (p.revents & (events | POLLHUP | POLLERR)) != 0;
    }
}

void ipAndPort(const sockaddr_storage &a, std::string &ip, int &port)
{
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
        const auto *v4 = reinterpret_cast<const sockaddr_in *>(&a);
        ::inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
        port = ntohs(v4->sin_port);
    } else if (a.ss_family == AF_INET6) {
        const auto *v6 = reinterpret_cast<const sockaddr_in6 *>(&a);
        ::inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
        port = ntohs(v6->sin6_port);
    }
    ip = text;
}

// The head read at the gate, then the socket: what cpp-httplib's request processing reads
// from. Reads and writes wait at most the server's per-operation timeouts, and reads stop
// at the request's deadline (the body's).
class GateStream : public httplib::Stream {
public:
    GateStream(socket_t sock, std::string head, Clock::time_point deadline, int readMs, int writeMs)
        : m_sock(sock), m_buffer(std::move(head)), m_deadline(deadline), m_readMs(readMs), m_writeMs(writeMs)
    {
    }

    bool is_readable() const override
    {
        return m_offset < m_buffer.size() || waitFor(m_sock, POLLIN, std::min(m_readMs, millisUntil(m_deadline)));
    }
    bool is_writable() const override { return waitFor(m_sock, POLLOUT, m_writeMs); }

    ssize_t read(char *ptr, size_t size) override
    {
        if (m_offset < m_buffer.size()) {
            const size_t n = std::min(size, m_buffer.size() - m_offset);
            std::memcpy(ptr, m_buffer.data() + m_offset, n);
            m_offset += n;
            return static_cast<ssize_t>(n);
        }
        for (;;) {
            const int ms = std::min(m_readMs, millisUntil(m_deadline));
            if (ms <= 0 || !waitFor(m_sock, POLLIN, ms))
                return -1;
            const ssize_t n = ::recv(m_sock, ptr, size, 0);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
                continue;
            return n;
        }
    }

    ssize_t write(const char *ptr, size_t size) override
    {
        for (;;) {
            if (!waitFor(m_sock, POLLOUT, m_writeMs))
                return -1;
            const ssize_t n = ::send(m_sock, ptr, size, MSG_NOSIGNAL);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
                continue;
            return n;
        }
    }

    void get_remote_ip_and_port(std::string &ip, int &port) const override
    {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (::getpeername(m_sock, reinterpret_cast<sockaddr *>(&a), &len) == 0)
            ipAndPort(a, ip, port);
    }
    void get_local_ip_and_port(std::string &ip, int &port) const override
    {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (::getsockname(m_sock, reinterpret_cast<sockaddr *>(&a), &len) == 0)
            ipAndPort(a, ip, port);
    }
    socket_t socket() const override { return m_sock; }

    // What was read at the gate but not by the request (a pipelined next request).
    std::string unread() const { return m_buffer.substr(m_offset); }

private:
    socket_t m_sock;
    std::string m_buffer;
    size_t m_offset = 0;
    Clock::time_point m_deadline;
    int m_readMs, m_writeMs;
};

// An answer the gate writes itself before closing (best effort: the socket may be full).
void refuse(socket_t sock, int status, const char *reason, const std::string &code, const std::string &message)
{
    const std::string body = R"({"error":{"message":")" + message + R"(","type":"invalid_request_error","param":null,"code":")" +
                             code + "\"}}";
    const std::string text = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                             "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
                             "\r\nConnection: close\r\n\r\n" + body;
    (void)::send(sock, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

void closeSocket(socket_t sock)
{
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
}

// Where a complete head ends ("\r\n\r\n", or "\n\n" from a lax client), or npos.
size_t headEnd(const std::string &b)
{
    const size_t crlf = b.find("\r\n\r\n");
    const size_t lf = b.find("\n\n");
    if (crlf == std::string::npos)
        return lf == std::string::npos ? lf : lf + 2;
    return lf == std::string::npos || crlf < lf ? crlf + 4 : lf + 2;
}

// How long a refused connection is read and dropped before it is closed (lingering close).
constexpr std::chrono::milliseconds kLinger{5'000};

// The socket of the request this worker thread answers, or -1.
thread_local socket_t t_clientSocket = -1;
// Set by closeAfterThisRequest() while the request is answered.
thread_local bool t_closeAfter = false;

} // namespace

void GatedServer::closeAfterThisRequest()
{
    t_closeAfter = true;
}

bool GatedServer::clientHungUp()
{
    if (t_clientSocket < 0)
        return false;
    pollfd p{t_clientSocket, POLLIN | POLLRDHUP, 0};
    if (::poll(&p, 1, 0) <= 0)
        return false;
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR))
        return true;
    char byte;
    return ::recv(t_clientSocket, &byte, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
}

struct GatedServer::Connection {
    socket_t sock = -1;
    std::string buffer;           // bytes read at the gate
    Clock::time_point deadline;   // of the head (once a byte came) or of the idle wait
    bool started = false;         // a byte of this request came
    size_t served = 0;            // requests answered on this connection
    // Answered and shut for writing; what the client still sends is read and dropped
    // until it closes or `deadline` (lingering close, as nginx does: closing a socket with
    // unread bytes sends a reset, and the client may then lose the answer it was sent).
    bool lingering = false;
};

GatedServer::GatedServer(GateLimits limits, int workers)
    : m_limits(limits)
{
    if (::pipe2(m_wakeFds, O_CLOEXEC | O_NONBLOCK) != 0)
        throw std::runtime_error(std::string("cannot create the gate's pipe: ") + std::strerror(errno));
    // cpp-httplib's own pool only hands sockets over: two threads are plenty.
    new_task_queue = [] { return new httplib::ThreadPool(2); };
    m_gate = std::thread([this] { gateLoop(); });
    for (int i = 0; i < std::max(1, workers); ++i)
        m_workers.emplace_back([this] { workerLoop(); });
}

GatedServer::~GatedServer()
{
    stopGate();
    ::close(m_wakeFds[0]);
    ::close(m_wakeFds[1]);
}

void GatedServer::stopGate()
{
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping && !m_gate.joinable())
            return;
        m_stopping = true;
    }
    wake();
    m_ready.notify_all();
    if (m_gate.joinable())
        m_gate.join();
    for (std::thread &t : m_workers)
        if (t.joinable())
            t.join();
    std::lock_guard lock(m_mutex);
    for (auto &c : m_incoming)
        closeSocket(c->sock);
    m_incoming.clear();
    for (auto &c : m_complete)
        closeSocket(c->sock);
    m_complete.clear();
}

void GatedServer::raiseBacklog(int backlog)
{
    const socket_t sock = svr_sock_;
    if (sock != INVALID_SOCKET)
        ::listen(sock, backlog);
}

GatedServer::Counters GatedServer::counters() const
{
    std::lock_guard lock(m_mutex);
    return m_counters;
}

void GatedServer::wake()
{
    const char byte = 1;
    (void)::write(m_wakeFds[1], &byte, 1);
}

void GatedServer::lingerAfter(Connection &c, Clock::time_point now)
{
    ::shutdown(c.sock, SHUT_WR); // the answer is sent, then the end of the stream
    c.lingering = true;
    c.buffer.clear();
    c.buffer.shrink_to_fit();
    c.deadline = now + kLinger;
}

bool GatedServer::process_and_close_socket(socket_t sock)
{
    ::fcntl(sock, F_SETFL, ::fcntl(sock, F_GETFL) | O_NONBLOCK);
    auto c = std::make_unique<Connection>();
    c->sock = sock;
    c->deadline = Clock::now() + m_limits.headDeadline;
    c->started = true; // a new connection is expected to send its request now
    toGate(std::move(c));
    return true;
}

void GatedServer::toGate(std::unique_ptr<Connection> c)
{
    std::unique_lock lock(m_mutex);
    if (m_stopping) {
        lock.unlock();
        closeSocket(c->sock);
        return;
    }
    // A pipelined request already whole: straight to a worker.
    if (!c->lingering && !c->buffer.empty() && headEnd(c->buffer) != std::string::npos) {
        m_complete.push_back(std::move(c));
        lock.unlock();
        m_ready.notify_one();
        return;
    }
    if (m_atGate + m_incoming.size() >= m_limits.maxConnections) {
        if (c->lingering) { // no room to linger: close now
            lock.unlock();
            ::close(c->sock);
            return;
        }
        ++m_counters.refusedFull;
        lock.unlock();
        refuse(c->sock, 503, "Service Unavailable", "server_busy", "Too many connections; try again shortly.");
        closeSocket(c->sock);
        return;
    }
    m_incoming.push_back(std::move(c));
    lock.unlock();
    wake();
}

void GatedServer::gateLoop()
{
    std::vector<std::unique_ptr<Connection>> conns; // the gate thread's own
    std::vector<pollfd> fds;
    char chunk[16 * 1024];
    for (;;) {
        {
            std::lock_guard lock(m_mutex);
            if (m_stopping)
                break;
            for (auto &c : m_incoming)
                conns.push_back(std::move(c));
            m_incoming.clear();
            m_atGate = conns.size();
        }
        fds.assign(1, pollfd{m_wakeFds[0], POLLIN, 0});
        Clock::time_point next = Clock::now() + std::chrono::milliseconds(500);
        for (const auto &c : conns) {
            fds.push_back(pollfd{c->sock, POLLIN, 0});
            next = std::min(next, c->deadline);
        }
        const int r = ::poll(fds.data(), fds.size(), std::max(1, millisUntil(next)));
        if (r < 0 && errno != EINTR)
            break;
        if (fds[0].revents & POLLIN)
            while (::read(m_wakeFds[0], chunk, sizeof chunk) > 0) {
            }
        const Clock::time_point now = Clock::now();
        std::vector<std::unique_ptr<Connection>> keep;
        keep.reserve(conns.size());
        for (size_t i = 0; i < conns.size(); ++i) {
            std::unique_ptr<Connection> &c = conns[i];
            const short ev = fds[i + 1].revents;
            bool closeIt = false;
            bool refused = false; // answered 4xx here: close lingering
            if (c->lingering) {
                if (ev & (POLLIN | POLLHUP | POLLERR)) {
                    const ssize_t n = ::recv(c->sock, chunk, sizeof chunk, 0);
                    closeIt = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
                }
                if (closeIt || now >= c->deadline)
                    ::close(c->sock);
                else
                    keep.push_back(std::move(c));
                continue;
            }
            if (ev & (POLLIN | POLLHUP | POLLERR)) {
                const ssize_t n = ::recv(c->sock, chunk, sizeof chunk, 0);
                if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                    closeIt = true;
                } else if (n > 0) {
                    if (!c->started) { // the next request of a kept-alive connection begins
                        c->started = true;
                        c->deadline = now + m_limits.headDeadline;
                    }
                    c->buffer.append(chunk, static_cast<size_t>(n));
                }
            }
            if (!closeIt && !c->buffer.empty()) {
                const size_t lineEnd = c->buffer.find('\n');
                const size_t end = headEnd(c->buffer);
                if ((lineEnd == std::string::npos ? c->buffer.size() : lineEnd) > m_limits.maxRequestLine) {
                    refuse(c->sock, 414, "URI Too Long", "request_line_too_long",
                           "The request line is longer than " + std::to_string(m_limits.maxRequestLine) + " bytes.");
                    std::lock_guard lock(m_mutex);
                    ++m_counters.linesTooLong;
                    closeIt = refused = true;
                } else if (end != std::string::npos) {
                    std::lock_guard lock(m_mutex);
                    m_complete.push_back(std::move(c));
                    m_ready.notify_one();
                    continue;
                } else if (c->buffer.size() > m_limits.maxHead) {
                    refuse(c->sock, 431, "Request Header Fields Too Large", "headers_too_large",
                           "The request's headers are larger than " + std::to_string(m_limits.maxHead) + " bytes.");
                    std::lock_guard lock(m_mutex);
                    ++m_counters.headsTooLarge;
                    closeIt = refused = true;
                }
            }
            if (!closeIt && now >= c->deadline) {
                if (!c->buffer.empty()) { // a head that never ended: 408, as nginx answers
                    refuse(c->sock, 408, "Request Timeout", "request_timeout",
                           "The request's headers did not arrive within " +
                               std::to_string(m_limits.headDeadline.count() / 1000) + " s.");
                    std::lock_guard lock(m_mutex);
                    ++m_counters.headsTimedOut;
                    refused = true;
                }
                closeIt = true; // an idle kept-alive connection closes quietly
            }
            if (closeIt && refused) {
                lingerAfter(*c, now);
                keep.push_back(std::move(c));
            } else if (closeIt) {
                closeSocket(c->sock);
            } else {
                keep.push_back(std::move(c));
            }
        }
        conns.swap(keep);
    }
    for (auto &c : conns)
        closeSocket(c->sock);
}

void GatedServer::workerLoop()
{
    for (;;) {
        std::unique_ptr<Connection> c;
        {
            std::unique_lock lock(m_mutex);
            m_ready.wait(lock, [this] { return m_stopping || !m_complete.empty(); });
            if (m_complete.empty())
                return; // stopping, nothing left
            c = std::move(m_complete.front());
            m_complete.pop_front();
        }
        serve(std::move(c));
    }
}

void GatedServer::serve(std::unique_ptr<Connection> c)
{
    const int readMs = static_cast<int>(read_timeout_sec_ * 1000 + read_timeout_usec_ / 1000);
    const int writeMs = static_cast<int>(write_timeout_sec_ * 1000 + write_timeout_usec_ / 1000);
    GateStream stream(c->sock, std::move(c->buffer), Clock::now() + m_limits.bodyDeadline, std::max(1, readMs),
                      std::max(1, writeMs));
    const bool last = ++c->served >= std::min(m_limits.maxRequestsPerConnection, keep_alive_max_count_);
    bool closed = false;
    t_clientSocket = c->sock;
    t_closeAfter = false;
    const bool ok = process_request(stream, last, closed, nullptr);
    t_clientSocket = -1;
    closed = closed || t_closeAfter;
    bool stopping;
    {
        std::lock_guard lock(m_mutex);
        stopping = m_stopping;
    }
    if (ok && t_closeAfter && !stopping) { // refused before its body was read: close lingering
        lingerAfter(*c, Clock::now());
        toGate(std::move(c));
        return;
    }
    if (!ok || closed || last || stopping) {
        closeSocket(c->sock);
        return;
    }
    c->buffer = stream.unread();
    c->started = !c->buffer.empty();
    c->deadline = Clock::now() + (c->started ? m_limits.headDeadline : m_limits.idle);
    toGate(std::move(c));
}

} // namespace rwb::serve
