#pragma once

// Blocks SIGPIPE on this thread while it lives and swallows one raised meanwhile, so that
// a write to a pipe or a socket whose reader has gone (a dead Python worker; a server
// that closed the connection, which OpenSSL writes to without MSG_NOSIGNAL) fails with
// EPIPE instead of ending the process. The process's signal handlers are untouched
// (libpq does the same). Used by util/subprocess.cpp and net/httpjsonclient.cpp.

#include <csignal>
#include <ctime>
#include <pthread.h>

namespace rwb::util {

class SigpipeGuard {
public:
    SigpipeGuard()
    {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, &m_old);
        sigset_t pending;
        sigpending(&pending);
        m_wasPending = sigismember(&pending, SIGPIPE) == 1;
    }
    ~SigpipeGuard()
    {
        sigset_t pending;
        sigpending(&pending);
        if (!m_wasPending && sigismember(&pending, SIGPIPE) == 1) {
            sigset_t pipe;
            sigemptyset(&pipe);
            sigaddset(&pipe, SIGPIPE);
            const timespec zero{0, 0};
            sigtimedwait(&pipe, nullptr, &zero);
        }
        pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
    }
    SigpipeGuard(const SigpipeGuard &) = delete;
    SigpipeGuard &operator=(const SigpipeGuard &) = delete;

private:
    sigset_t m_old;
    bool m_wasPending = false;
};

} // namespace rwb::util
