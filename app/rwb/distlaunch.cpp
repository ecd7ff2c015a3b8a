#include "distlaunch.h"

#include "cli.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

extern char **environ;

namespace rwb::cli {

namespace {

// A port nobody listens on now (the kernel's choice for port 0).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 29500;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    int port = 29500;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

bool isGroupVariable(const char *entry)
{
    for (const char *name : {"RANK=", "WORLD_SIZE=", "MASTER_ADDR=", "MASTER_PORT=", "LOCAL_RANK=", "LOCAL_WORLD_SIZE="})
        if (std::strncmp(entry, name, std::strlen(name)) == 0)
            return true;
    return false;
}

std::string describe(int status)
{
    if (WIFSIGNALED(status))
        return "was killed by signal " + std::to_string(WTERMSIG(status));
    return "exited with status " + std::to_string(WEXITSTATUS(status));
}

struct Child {
    int rank = 0;
    pid_t pid = 0;
    bool done = false;
    int status = 0;
};

// SIGTERM, which a rank takes as "stop after this step" (stopsignals.h); a rank that has
// not gone 10 s later (one blocked in a collective whose peer is gone) gets SIGKILL.
void terminate(pid_t pid, int *status)
{
    ::kill(pid, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    int s = 0;
    while (::waitpid(pid, &s, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &s, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (status)
        *status = s;
}

} // namespace

int launchRanks(const std::vector<std::string> &args, int nproc, const std::function<int()> &rank0)
{
    const int port = freePort();
    std::vector<std::string> common;
    for (char **e = environ; *e; ++e)
        if (!isGroupVariable(*e))
            common.emplace_back(*e);
    common.push_back("WORLD_SIZE=" + std::to_string(nproc));
    common.push_back("LOCAL_WORLD_SIZE=" + std::to_string(nproc)); // the ranks share this machine's cores
    common.push_back("MASTER_ADDR=127.0.0.1");
    common.push_back("MASTER_PORT=" + std::to_string(port));

    std::vector<std::string> argvStrings{"rwb"};
    argvStrings.insert(argvStrings.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (std::string &a : argvStrings)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<Child> children;
    for (int rank = 1; rank < nproc; ++rank) {
        std::vector<std::string> env = common;
        env.push_back("RANK=" + std::to_string(rank));
        env.push_back("LOCAL_RANK=" + std::to_string(rank));
        std::vector<char *> envp;
        for (std::string &e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        pid_t pid = 0;
        const int rc = ::posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), envp.data());
        if (rc != 0) {
            printError("cannot start rank " + std::to_string(rank) + ": " + std::strerror(rc));
            for (Child &c : children)
                terminate(c.pid, nullptr);
            return kExitFailure;
        }
        children.push_back({rank, pid});
    }
    ::setenv("WORLD_SIZE", std::to_string(nproc).c_str(), 1);
    ::setenv("RANK", "0", 1);
    ::setenv("LOCAL_RANK", "0", 1);
    ::setenv("LOCAL_WORLD_SIZE", std::to_string(nproc).c_str(), 1);
    ::setenv("MASTER_ADDR", "127.0.0.1", 1);
    ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);

    // Reports a rank that stops with an error while rank 0 still works.
    std::mutex mutex;
    std::atomic<bool> stop{false};
    std::thread watcher([&] {
        while (!stop.load()) {
            {
                std::lock_guard lock(mutex);
                for (Child &c : children) {
                    if (c.done)
                        continue;
                    int status = 0;
                    if (::waitpid(c.pid, &status, WNOHANG) == c.pid) {
                        c.done = true;
                        c.status = status;
                        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0))
                            printError("rank " + std::to_string(c.rank) + " " + describe(status));
                    }
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });

    const int code = rank0();

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(code == kExitOk ? 600 : 10);
    for (;;) {
        bool all = true;
        {
            std::lock_guard lock(mutex);
            for (const Child &c : children)
                all = all && c.done;
        }
        if (all || std::chrono::steady_clock::now() >= deadline)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    stop = true;
    watcher.join();
    bool othersFailed = false;
    for (Child &c : children) {
        if (!c.done) {
            terminate(c.pid, &c.status);
            c.done = true;
            printError("rank " + std::to_string(c.rank) + " was stopped after rank 0 " +
                       (code == kExitOk ? "finished" : "failed"));
            othersFailed = true;
        } else if (!(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0)) {
            othersFailed = true;
        }
    }
    return code != kExitOk ? code : othersFailed ? kExitFailure : kExitOk;
}

int nprocOption(const Args &args)
{
    const double nproc = args.number("nproc", 1);
    if (nproc < 1 || nproc > 64 || nproc != static_cast<int>(nproc))
        throw UsageError{"--nproc must be a whole number from 1 to 64"};
    if (nproc > 1 && std::getenv("WORLD_SIZE"))
        throw UsageError{"--nproc starts its own group: unset WORLD_SIZE (and RANK) or leave --nproc out"};
    return static_cast<int>(nproc);
}

std::vector<std::string> withoutOptions(const std::vector<std::string> &argv, const std::vector<std::string> &names)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < argv.size(); ++i) {
        if (std::find(names.begin(), names.end(), argv[i]) != names.end()) {
            ++i;
            continue;
        }
        out.push_back(argv[i]);
    }
    return out;
}

} // namespace rwb::cli
