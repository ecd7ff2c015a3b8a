#pragma once

// One long-lived Python process that runs a user's reward functions for the `python`
// reward component (pythonreward.h), over the pipe protocol of docs/python-rewards.md:
// newline-delimited JSON, a hello after the file has loaded, then one reply per request.
//
// The worker script (python/rwb_reward_worker.py) is compiled into the binary
// (pythonWorkerScript) and started as `PYTHON -u -c BOOT N [--require F] FILE`: the
// short BOOT program reads the script's N bytes from stdin and runs it, and the protocol
// follows on the same pipe. So nothing needs to be found on disk at run time, no temporary
// file is left behind by a crash, the command line stays short (ps, /proc) and tracebacks
// name the script by its file name.
//
// A worker is shared process-wide by its Key (interpreter, file, working directory,
// environment): several components, and the copies of a config's components, use one
// process. Thread-safe: requests are serialized under a mutex, one at a time.

#include "util/subprocess.h"

#include <nlohmann/json.hpp>

#include <compare>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rwb::reward {

// The text of python/rwb_reward_worker.py, embedded at build time.
std::string_view pythonWorkerScript();

// Why a worker could not be had: what PythonWorker::get throws.
class PythonWorkerError : public std::runtime_error {
public:
    enum class Kind {
        Start,    // the interpreter could not be started, or is not a Python 3.8+
        Load,     // the file did not load: a syntax error, an import error, an exception
        Function, // it loaded but defines no such function
    };
    PythonWorkerError(Kind kind, const std::string &message)
        : std::runtime_error(message)
        , m_kind(kind)
    {
    }
    Kind kind() const { return m_kind; }

private:
    Kind m_kind;
};

class PythonWorker {
public:
    struct Key {
        std::string interpreter; // "python3", or a path (a venv's bin/python)
        std::string file;        // the user's file, absolute
        std::string workingDir;  // the process's working directory
        std::vector<std::pair<std::string, std::string>> env; // extra variables, sorted by name
        // The file as it was (its modification time and size): an edited file gets a new
        // worker, which loads it anew, rather than the old one's code.
        std::string fileVersion;
        auto operator<=>(const Key &) const = default;
    };

    // What one request came to.
    struct Outcome {
        // The worker's reply (an object with "rewards", …) when it answered; null otherwise.
        nlohmann::json reply;
        // Why there is no reply: "timed out after 60 s …", "the Python worker ended (exit code 3) …",
        // "the Python worker could not be restarted: …"; "" when it answered.
        std::string error;
        // What the worker wrote to stderr meanwhile (the user's prints; at most 64 KiB, the last).
        std::string output;
        double seconds = 0.0;
    };

    // The process-wide worker of `key`, started now when none runs, that defines
    // `function`. Throws PythonWorkerError when Python cannot be started, when the file
    // does not load (the message names the file and line: "/x/rewards.py, line 3:
    // SyntaxError: invalid syntax", then the traceback), or when it defines no `function`.
    // Loading may take `helloSeconds` (kHelloSeconds or more).
    static std::shared_ptr<PythonWorker> get(const Key &key, const std::string &function,
                                             double helloSeconds = kHelloSeconds);

    // Stops the process: end of file on its stdin, then SIGKILL after 1 s.
    ~PythonWorker();
    PythonWorker(const PythonWorker &) = delete;
    PythonWorker &operator=(const PythonWorker &) = delete;

    // Sends `request` (a JSON object; its "id" is set here) and waits at most
    // `timeoutSeconds` for the reply. On a timeout the process is killed; a process that
    // ended is started again at the next call (the call it ended on gets the error). Never
    // throws for what the worker does; blocks other callers meanwhile.
    Outcome call(nlohmann::json request, double timeoutSeconds);

    const Key &key() const { return m_key; }
    // The callables the file defines (from the last hello), sorted.
    std::vector<std::string> functions() const;
    // "3.11.2"
    std::string pythonVersion() const;
    // The process id of the running worker; -1 when none runs.
    int pid() const;

    // How long the worker may take to start and load the file (a file that imports torch
    // takes seconds): at least this, or the call's timeout when longer.
    static constexpr double kHelloSeconds = 60.0;
    // How long a worker whose output closed may take to end by itself before it is killed
    // (so that its own exit code is what is reported).
    static constexpr double kExitGraceSeconds = 2.0;
    // How much of the worker's stderr an error message quotes.
    static constexpr size_t kErrorTailBytes = 2000;

private:
    explicit PythonWorker(Key key);
    // Starts the process and reads its hello; m_mutex held. `required` ("" for none) is a
    // function the file must define. Throws PythonWorkerError.
    void start(double helloSeconds, const std::string &required);
    // Kills the process and forgets it; returns how it ended and the end of its stderr.
    std::string stop(const std::string &why);

    const Key m_key;
    mutable std::mutex m_mutex;
    std::unique_ptr<util::Subprocess> m_process;
    std::vector<std::string> m_functions;
    std::string m_version;
    long long m_nextId = 0;
};

// The last `bytes` of `text` (at most), starting at a line when one starts close to the cut
// and never inside a UTF-8 sequence; "…\n" in front when cut.
std::string textTail(const std::string &text, size_t bytes);

} // namespace rwb::reward
