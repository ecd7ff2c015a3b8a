#pragma once

// cpp-httplib 0.11 (Debian's) reads each request's line and headers on a worker thread,
// with a timeout per read but none for the whole head and no cap on the request line: a
// client that sends a byte a second holds a worker for as long as it likes, and a request
// line of 100 MB is buffered whole. GatedServer puts a gate in front of the workers: one
// thread, with poll(), reads every connection's head under a deadline and size caps, and
// only a complete head goes to a worker, which then runs cpp-httplib's own request
// processing on it (Server::process_request, on a stream that first replays the head).
// Between two requests of a kept-alive connection the connection waits at the gate again,
// so an idle or slow client costs a socket, never a worker.
//
// Internal to serve/: includes httplib.h.

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace rwb::serve {

struct GateLimits {
    std::chrono::milliseconds headDeadline{10'000}; // from a request's first byte to its blank line
    std::chrono::milliseconds idle{2'000};          // a kept-alive connection's wait for the next request
    std::chrono::milliseconds bodyDeadline{60'000}; // from the head to the end of the body
    size_t maxRequestLine = 8 * 1024;               // 414 above
    size_t maxHead = 64 * 1024;                     // 431 above
    size_t maxConnections = 1024;                   // at the gate at once; more are closed at once
    size_t maxRequestsPerConnection = 10'000;
};

class GatedServer : public httplib::Server {
public:
    // `workers` threads run the requests whose heads are complete.
    GatedServer(GateLimits limits, int workers);
    ~GatedServer() override;

    // Stops the gate and the workers: connections waiting are closed, requests running
    // finish first. Call after Server::stop(); idempotent.
    void stopGate();

    // After binding: cpp-httplib 0.11 listens with a backlog of 5, so a burst of
    // connections (or a busy accept thread) drops SYNs, and clients wait a second for the
    // retry. Linux takes a second listen() as a new backlog.
    void raiseBacklog(int backlog);

    // On a worker, while it answers a request: whether that request's client has hung up
    // (its socket says end of file or an error; a pipelined next request is not that).
    // False anywhere else.
    static bool clientHungUp();
    // From a handler: close the connection after this answer (a request refused before its
    // body was read: what is left of the body must not be taken for the next request).
    static void closeAfterThisRequest();

    // Counters for tests and the log.
    struct Counters {
        uint64_t headsTimedOut = 0;
        uint64_t linesTooLong = 0;
        uint64_t headsTooLarge = 0;
        uint64_t refusedFull = 0;
    };
    Counters counters() const;

private:
    struct Connection;
    // Called by cpp-httplib's accept loop for each new socket (on its task queue): hands
    // the socket to the gate and returns at once.
    bool process_and_close_socket(socket_t sock) override;

    void gateLoop();
    void workerLoop();
    void serve(std::unique_ptr<Connection> c);
    void toGate(std::unique_ptr<Connection> c);
    static void lingerAfter(Connection &c, std::chrono::steady_clock::time_point now);
    void wake();

    GateLimits m_limits;
    mutable std::mutex m_mutex;
    std::condition_variable m_ready;
    std::vector<std::unique_ptr<Connection>> m_incoming; // handed over, not yet polled
    std::deque<std::unique_ptr<Connection>> m_complete;  // heads read, waiting for a worker
    size_t m_atGate = 0;
    bool m_stopping = false;
    int m_wakeFds[2] = {-1, -1};
    std::thread m_gate;
    std::vector<std::thread> m_workers;
    Counters m_counters;
};

} // namespace rwb::serve
