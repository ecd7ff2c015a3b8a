#include "util/subprocess.h"

#include "util/sigpipeguard.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace rwb::util {

namespace {

// How much one read() takes.
constexpr size_t kReadChunk = 64 * 1024;

std::string systemError(int error)
{
    return std::strerror(error);
}

void closeFd(int &fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

void setNonBlocking(int fd)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Milliseconds from now to `deadline` for poll(): rounded up, -1 for no deadline.
int pollMs(Subprocess::Clock::time_point deadline)
{
    if (deadline == Subprocess::Clock::time_point::max())
        return -1;
    const auto left = deadline - Subprocess::Clock::now();
    if (left <= Subprocess::Clock::duration::zero())
        return 0;
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
    return static_cast<int>(std::min<long long>(ms, INT_MAX));
}

// posix_spawn's attribute and file-action objects, destroyed on every path.
struct SpawnSetup {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    SpawnSetup()
    {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
    }
    ~SpawnSetup()
    {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
};

} // namespace

std::string ExitStatus::describe() const
{
    if (exited)
        return "exit code " + std::to_string(code);
    if (signal > 0) {
        const char *name = ::strsignal(signal);
        return "killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : std::string());
    }
    return "ended (how is unknown)";
}

Subprocess::Subprocess(const Options &options)
{
    if (options.argv.empty() || options.argv[0].empty())
        throw std::invalid_argument("Subprocess: no program to start");
    const std::string &program = options.argv[0];
    if (!options.workingDir.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(options.workingDir, ec))
            throw std::runtime_error("cannot start " + program + ": the working directory " + options.workingDir +
                                     " does not exist");
    }

    // Every descriptor close-on-exec, so that no other child started meanwhile (by another
    // thread) inherits one and holds a pipe open.
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    auto closeAll = [&] {
        for (int *p : {in, out, err})
            for (int i = 0; i < 2; ++i)
                closeFd(p[i]);
    };
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        const int e = errno;
        closeAll();
        throw std::runtime_error("cannot start " + program + ": " + systemError(e));
    }

    SpawnSetup setup;
    posix_spawn_file_actions_adddup2(&setup.actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&setup.actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&setup.actions, err[1], 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    // Descriptors a library opened without close-on-exec stay ours too.
    posix_spawn_file_actions_addclosefrom_np(&setup.actions, 3);
#endif
    if (!options.workingDir.empty())
        posix_spawn_file_actions_addchdir_np(&setup.actions, options.workingDir.c_str());
    // A process group of its own (kill() ends its children too), no blocked signals, and
    // the default action for the signals a parent may ignore (`rwb serve` ignores SIGPIPE).
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&setup.attr, &none);
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int s : {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM})
        sigaddset(&defaults, s);
    posix_spawnattr_setsigdefault(&setup.attr, &defaults);
    posix_spawnattr_setpgroup(&setup.attr, 0);
    posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> envStrings;
    for (char **e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        const std::string_view name = entry.substr(0, entry.find('='));
        const bool replaced = std::any_of(options.env.begin(), options.env.end(),
                                          [&](const auto &kv) { return kv.first == name; });
        if (!replaced)
            envStrings.emplace_back(entry);
    }
    for (const auto &[name, value] : options.env)
        envStrings.push_back(name + "=" + value);
    std::vector<char *> envp;
    for (std::string &s : envStrings)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> argvStrings = options.argv;
    std::vector<char *> argv;
    for (std::string &s : argvStrings)
        argv.push_back(s.data());
    argv.push_back(nullptr);

    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, program.c_str(), &setup.actions, &setup.attr, argv.data(), envp.data());
    if (rc != 0) {
        closeAll();
        throw std::runtime_error("cannot start " + program + ": " + systemError(rc));
    }
    m_pid = pid;
    closeFd(in[0]);
    closeFd(out[1]);
    closeFd(err[1]);
    m_stdin = in[1];
    m_stdout = out[0];
    m_stderr = err[0];
    setNonBlocking(m_stdin);
    setNonBlocking(m_stdout);
    setNonBlocking(m_stderr);
}

Subprocess::~Subprocess()
{
    kill();
}

Subprocess::Io Subprocess::write(std::string_view data, Clock::time_point deadline)
{
    if (m_stdin < 0)
        return Io::Closed;
    const util::SigpipeGuard guard;
    while (!data.empty()) {
        const ssize_t n = ::write(m_stdin, data.data(), data.size());
        if (n > 0) {
            data.remove_prefix(static_cast<size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            return Io::Closed; // EPIPE: the child closed its stdin or ended
        // The pipe is full: wait until it takes more, reading stderr meanwhile (a child
        // that writes much to stderr before it reads would otherwise block us both).
        pollfd fds[2] = {{m_stdin, POLLOUT, 0}, {m_stderr, POLLIN, 0}};
        const int timeout = pollMs(deadline);
        if (timeout == 0)
            return Io::Timeout;
        const int r = ::poll(fds, m_stderr >= 0 ? 2 : 1, timeout);
        if (r < 0 && errno != EINTR)
            return Io::Closed;
        if (m_stderr >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            drainStderr();
        if (fds[0].revents & (POLLERR | POLLHUP | POLLNVAL))
            return Io::Closed;
    }
    return Io::Ok;
}

Subprocess::Io Subprocess::writeLine(std::string_view line, Clock::time_point deadline)
{
    std::string data;
    data.reserve(line.size() + 1);
    data.append(line);
    data.push_back('\n');
    return write(data, deadline);
}

void Subprocess::closeStdin()
{
    closeFd(m_stdin);
}

Subprocess::Io Subprocess::readLine(std::string &line, Clock::time_point deadline)
{
    size_t searched = 0;
    while (true) {
        if (const size_t nl = m_outBuffer.find('\n', searched); nl != std::string::npos) {
            line.assign(m_outBuffer, 0, nl);
            m_outBuffer.erase(0, nl + 1);
            return Io::Ok;
        }
        searched = m_outBuffer.size();
        if (m_outBuffer.size() > kMaxLine) {
            m_outBuffer.clear();
            return Io::TooLong;
        }
        if (m_stdout < 0) {
            line = std::exchange(m_outBuffer, {});
            return Io::Closed;
        }
        char chunk[kReadChunk];
        const ssize_t n = ::read(m_stdout, chunk, sizeof chunk);
        if (n > 0) {
            m_outBuffer.append(chunk, static_cast<size_t>(n));
            continue;
        }
        if (n == 0) {
            closeFd(m_stdout);
            continue;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            closeFd(m_stdout);
            continue;
        }
        pollfd fds[2] = {{m_stdout, POLLIN, 0}, {m_stderr, POLLIN, 0}};
        const int timeout = pollMs(deadline);
        if (timeout == 0)
            return Io::Timeout;
        const int r = ::poll(fds, m_stderr >= 0 ? 2 : 1, timeout);
        if (r < 0 && errno != EINTR) {
            closeFd(m_stdout);
            continue;
        }
        if (m_stderr >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            drainStderr();
    }
}

void Subprocess::drainStderr()
{
    while (m_stderr >= 0) {
        char chunk[kReadChunk];
        const ssize_t n = ::read(m_stderr, chunk, sizeof chunk);
        if (n > 0) {
            keepStderr(chunk, static_cast<size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
            closeFd(m_stderr); // end of file: the child (and all that shared its stderr) closed it
        return;
    }
}

void Subprocess::keepStderr(const char *data, size_t size)
{
    m_err.append(data, size);
    // Trimmed in bulk, not on every read.
    if (m_err.size() > 2 * kStderrKeep)
        m_err.erase(0, m_err.size() - kStderrKeep);
}

std::string Subprocess::stderrTail()
{
    drainStderr();
    return m_err.size() > kStderrKeep ? m_err.substr(m_err.size() - kStderrKeep) : m_err;
}

std::string Subprocess::takeStderr()
{
    std::string tail = stderrTail();
    m_err.clear();
    return tail;
}

bool Subprocess::reapIfEnded(bool block)
{
    if (m_status)
        return true;
    if (m_pid <= 0)
        return false;
    // Look without reaping first: while the child is a zombie its process group id cannot
    // be reused, so what it left running in its group can be ended safely.
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    int r;
    do
        r = ::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOWAIT | (block ? 0 : WNOHANG));
    while (r != 0 && errno == EINTR);
    if (r != 0) {
        // ECHILD: reaped elsewhere (a SIGCHLD set to SIG_IGN): gone, how is unknown.
        m_status = ExitStatus{};
        return true;
    }
    if (info.si_pid != m_pid)
        return false;
    ::kill(-m_pid, SIGKILL);
    int status = 0;
    pid_t w;
    do
        w = ::waitpid(m_pid, &status, 0);
    while (w < 0 && errno == EINTR);
    ExitStatus s;
    if (w == m_pid && WIFEXITED(status)) {
        s.exited = true;
        s.code = WEXITSTATUS(status);
    } else if (w == m_pid && WIFSIGNALED(status)) {
        s.signal = WTERMSIG(status);
    }
    m_status = s;
    return true;
}

bool Subprocess::running()
{
    return !reapIfEnded(/*block=*/false);
}

bool Subprocess::waitForExit(Clock::time_point deadline)
{
    while (!reapIfEnded(/*block=*/false)) {
        const int timeout = pollMs(deadline);
        if (timeout == 0)
            return false;
        // Sleep in small steps, reading stderr meanwhile.
        pollfd fd{m_stderr, POLLIN, 0};
        const int step = std::min(timeout < 0 ? 10 : timeout, 10);
        if (m_stderr >= 0) {
            if (::poll(&fd, 1, step) > 0)
                drainStderr();
        } else {
            ::poll(nullptr, 0, step);
        }
    }
    return true;
}

ExitStatus Subprocess::kill()
{
    if (!m_status && m_pid > 0) {
        ::kill(-m_pid, SIGKILL);
        ::kill(m_pid, SIGKILL);
        reapIfEnded(/*block=*/true);
    }
    closeFd(m_stdin);
    // What the child wrote before it ended is still in the pipe.
    drainStderr();
    closeFd(m_stdout);
    closeFd(m_stderr);
    return m_status.value_or(ExitStatus{});
}

} // namespace rwb::util
