#pragma once

// A child process with pipes on its stdin, stdout and stderr (POSIX): what the `python`
// reward component runs a user's reward functions in (reward/python/pythonworker.h).
//
// The child runs in a process group of its own, so that kill() ends it and whatever it
// started. Writing to a child that has gone is an error (Io::Closed), never SIGPIPE. While
// a call waits on stdin or stdout it also drains stderr, so that a chatty child never
// blocks on a full stderr pipe; the last 64 KiB of stderr are kept.
//
// Not thread-safe: one thread at a time (the owner serializes). The destructor kills the
// group and reaps the child.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/types.h>

namespace rwb::util {

// How a child ended.
struct ExitStatus {
    bool exited = false; // exit() (code) rather than a signal
    int code = 0;        // exit code, when exited
    int signal = 0;      // the signal that ended it, when not exited
    // "exit code 3", "killed by signal 9 (Killed)"
    std::string describe() const;
};

class Subprocess {
public:
    using Clock = std::chrono::steady_clock;

    struct Options {
        // The program and its arguments; argv[0] is looked up on PATH when it has no '/'.
        std::vector<std::string> argv;
        // Variables set in the child's environment over ours (NAME, value).
        std::vector<std::pair<std::string, std::string>> env;
        // The child's working directory; "" = ours.
        std::string workingDir;
    };

    // What a read or a write came to.
    enum class Io {
        Ok,
        Timeout, // the deadline passed first
        Closed,  // the child closed its end (usually: it ended)
        TooLong, // readLine: more than kMaxLine bytes came without a newline
    };
    // A line longer than this is not read into memory (a child writing without end).
    static constexpr size_t kMaxLine = size_t(256) << 20;

    // Starts the child. Throws std::runtime_error naming argv[0] and the system's reason
    // ("cannot start python3.99: No such file or directory"), or the working directory.
    explicit Subprocess(const Options &options);
    ~Subprocess();
    Subprocess(const Subprocess &) = delete;
    Subprocess &operator=(const Subprocess &) = delete;

    pid_t pid() const { return m_pid; }

    // Writes all of `data` to the child's stdin before `deadline`.
    Io write(std::string_view data, Clock::time_point deadline);
    // `line` and a newline.
    Io writeLine(std::string_view line, Clock::time_point deadline);
    // Closes the child's stdin: it reads end of file.
    void closeStdin();
    // The next line of the child's stdout, without its newline. On Closed, `line` holds
    // what came after the last newline (usually nothing). TooLong when kMaxLine bytes came
    // without a newline (the child should then be stopped).
    Io readLine(std::string &line, Clock::time_point deadline);

    // Reads what stderr has now and returns the last 64 KiB of everything it wrote
    // since the last takeStderr().
    std::string stderrTail();
    // The same, and forgets it.
    std::string takeStderr();

    // Whether the child still runs; reaps it when it has ended.
    bool running();
    // How it ended; none while it runs (or before running() or kill() saw it end).
    const std::optional<ExitStatus> &exitStatus() const { return m_status; }
    // Waits until the child ends by itself, at most until `deadline`; true when it did.
    bool waitForExit(Clock::time_point deadline);
    // SIGKILL to the child's process group, then reaps the child; returns how it ended
    // (its own exit when it had ended before). Safe to call again.
    ExitStatus kill();

    // How much of stderr is kept.
    static constexpr size_t kStderrKeep = 64 * 1024;

private:
    void drainStderr();
    void keepStderr(const char *data, size_t size);
    // Reaps the child if it has ended (after killing what is left of its group).
    bool reapIfEnded(bool block);

    pid_t m_pid = -1;
    int m_stdin = -1;
    int m_stdout = -1;
    int m_stderr = -1;
    std::string m_outBuffer; // stdout read past the last line returned
    std::string m_err;       // stderr kept (≤ kStderrKeep after each read)
    std::optional<ExitStatus> m_status;
};

} // namespace rwb::util
