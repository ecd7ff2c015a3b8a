#include "reward/python/pythonworker.h"

#include "util/boundedjson.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rwb::reward {

namespace {

using Clock = util::Subprocess::Clock;
using Io = util::Subprocess::Io;

// What `python -c` runs: reads the worker script's N bytes (argv[1]) from stdin, unbuffered
// so that nothing of the requests after it is taken, and runs it under its own file name.
constexpr const char *kBoot = "import os, sys\n"
                              "n = int(sys.argv[1])\n"
                              "b = bytearray()\n"
                              "while len(b) < n:\n"
                              "    c = os.read(0, n - len(b))\n"
                              "    if not c:\n"
                              "        sys.exit('rwb_reward_worker: its script was cut short')\n"
                              "    b += c\n"
                              "sys.argv = ['rwb_reward_worker.py'] + sys.argv[2:]\n"
                              "del n, c\n"
                              "exec(compile(bytes(b), 'rwb_reward_worker.py', 'exec'))\n";

Clock::time_point after(double seconds)
{
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// "60", "1.5"
std::string formatSeconds(double s)
{
    std::ostringstream out;
    out << s;
    return out.str();
}

std::string dumpRequest(const nlohmann::json &request)
{
    // A completion cut inside a UTF-8 sequence must not make the request fail.
    return request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string jsonString(const nlohmann::json &j, const char *key)
{
    if (auto it = j.find(key); it != j.end() && it->is_string())
        return it->get<std::string>();
    return {};
}

// The registry of live workers: weak, so that a worker ends with its last component.
std::mutex &registryMutex()
{
    static std::mutex m;
    return m;
}
std::map<PythonWorker::Key, std::weak_ptr<PythonWorker>> &registry()
{
    static std::map<PythonWorker::Key, std::weak_ptr<PythonWorker>> r;
    return r;
}

// "/x/rewards.py defines no function "acc" (it defines: a, b)"
std::string noFunction(const std::string &file, const std::string &function, const std::vector<std::string> &defined)
{
    std::string list;
    for (const std::string &f : defined)
        list += (list.empty() ? "" : ", ") + f;
    return file + " defines no function \"" + function + "\" (it defines: " + (list.empty() ? "none" : list) + ")";
}

} // namespace

std::string textTail(const std::string &text, size_t bytes)
{
    if (text.size() <= bytes)
        return text;
    size_t cut = text.size() - bytes;
    // Start at a line when one starts within the first quarter of what is kept.
    if (const size_t nl = text.find('\n', cut); nl != std::string::npos && nl - cut < bytes / 4)
        cut = nl + 1;
    while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        ++cut;
    return "…\n" + text.substr(cut);
}

std::shared_ptr<PythonWorker> PythonWorker::get(const Key &key, const std::string &function, double helloSeconds)
{
    std::shared_ptr<PythonWorker> worker;
    {
        std::lock_guard<std::mutex> lock(registryMutex());
        auto &all = registry();
        for (auto it = all.begin(); it != all.end();)
            it = it->second.expired() ? all.erase(it) : std::next(it);
        if (auto it = all.find(key); it != all.end())
            worker = it->second.lock();
        if (!worker) {
            worker.reset(new PythonWorker(key));
            all[key] = worker;
        }
    }
    // Started outside the registry's lock: loading a file may take seconds, and other
    // files' workers need not wait. A second caller of this key waits on m_mutex.
    std::lock_guard<std::mutex> lock(worker->m_mutex);
    if (!worker->m_process || !worker->m_process->running())
        worker->start(helloSeconds, function);
    const std::vector<std::string> &defined = worker->m_functions;
    if (std::find(defined.begin(), defined.end(), function) == defined.end())
        throw PythonWorkerError(PythonWorkerError::Kind::Function, noFunction(key.file, function, defined));
    return worker;
}

PythonWorker::PythonWorker(Key key)
    : m_key(std::move(key))
{
}

PythonWorker::~PythonWorker()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_process)
        return;
    m_process->closeStdin();
    if (!m_process->waitForExit(after(1.0)))
        m_process->kill();
}

std::vector<std::string> PythonWorker::functions() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_functions;
}

std::string PythonWorker::pythonVersion() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_version;
}

int PythonWorker::pid() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_process && !m_process->exitStatus() ? static_cast<int>(m_process->pid()) : -1;
}

void PythonWorker::start(double helloSeconds, const std::string &required)
{
    m_process.reset();
    const std::string_view script = pythonWorkerScript();
    util::Subprocess::Options o;
    o.argv = {m_key.interpreter, "-u", "-c", kBoot, std::to_string(script.size())};
    if (!required.empty()) {
        o.argv.emplace_back("--require");
        o.argv.push_back(required);
    }
    o.argv.push_back(m_key.file);
    o.env = m_key.env;
    o.workingDir = m_key.workingDir;
    std::unique_ptr<util::Subprocess> process;
    try {
        process = std::make_unique<util::Subprocess>(o);
    } catch (const std::exception &e) { // "cannot start python3.99: No such file or directory"
        throw PythonWorkerError(PythonWorkerError::Kind::Start, e.what());
    }

    const Clock::time_point deadline = after(helloSeconds);
    const std::string who = m_key.interpreter + " (" + m_key.file + ")";
    auto ended = [&](const std::string &what) {
        process->waitForExit(after(kExitGraceSeconds));
        const util::ExitStatus s = process->kill();
        const std::string tail = textTail(process->stderrTail(), kErrorTailBytes);
        return PythonWorkerError(PythonWorkerError::Kind::Start, who + " " + what + " (" + s.describe() + ")" +
                                                                     (tail.empty() ? std::string() : ":\n" + tail));
    };
    std::string line;
    Io io = process->write(script, deadline);
    // The hello is the first JSON object line; a few lines before it (what a
    // sitecustomize or a .pth file prints as Python starts) are passed over.
    for (int skipped = 0; io == Io::Ok; ++skipped) {
        io = process->readLine(line, deadline);
        if (io != Io::Ok || skipped >= 20 || util::parseJsonOrDiscarded(line).is_object())
            break;
    }
    if (io == Io::Timeout) {
        process->kill();
        throw PythonWorkerError(PythonWorkerError::Kind::Load,
                                who + " was not ready within " + formatSeconds(helloSeconds) +
                                    " s (loading the file takes too long, or it waits for something)");
    }
    if (io == Io::TooLong) {
        process->kill();
        throw PythonWorkerError(PythonWorkerError::Kind::Load, who + " wrote more than " +
                                                                  std::to_string(util::Subprocess::kMaxLine >> 20) +
                                                                  " MiB without a line break before it was ready");
    }
    if (io == Io::Closed)
        throw ended("ended before it was ready (is it Python 3.8 or later? did the file end the process as it "
                    "loaded?)");
    const nlohmann::json hello = util::parseJsonOrDiscarded(line);
    if (!hello.is_object() || !hello.contains("ready"))
        throw ended("did not start the worker: it wrote \"" + textTail(line, 200) + "\"");
    std::vector<std::string> functions;
    if (auto it = hello.find("functions"); it != hello.end() && it->is_array())
        for (const nlohmann::json &f : *it)
            if (f.is_string())
                functions.push_back(f.get<std::string>());
    if (hello["ready"] != true && hello.contains("functions")) { // it loaded, but lacks `required`
        process->kill();
        throw PythonWorkerError(PythonWorkerError::Kind::Function, noFunction(m_key.file, required, functions));
    }
    if (hello["ready"] != true) {
        std::string where = jsonString(hello, "file");
        if (where.empty())
            where = m_key.file;
        if (auto it = hello.find("line"); it != hello.end() && it->is_number_integer())
            where += ", line " + std::to_string(it->get<long long>());
        std::string message = where + ": " + jsonString(hello, "error");
        const std::string trace = jsonString(hello, "traceback");
        if (!trace.empty())
            message += "\n" + trace;
        process->kill();
        throw PythonWorkerError(PythonWorkerError::Kind::Load, message);
    }
    m_functions = std::move(functions);
    m_version = jsonString(hello, "python");
    process->takeStderr(); // what loading the file printed is not any request's output
    m_process = std::move(process);
}

std::string PythonWorker::stop(const std::string &why)
{
    if (!m_process)
        return why;
    m_process->kill();
    const std::string tail = textTail(m_process->stderrTail(), kErrorTailBytes);
    m_process.reset();
    return why + (tail.empty() ? std::string() : "; its last output:\n" + tail);
}

PythonWorker::Outcome PythonWorker::call(nlohmann::json request, double timeoutSeconds)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    Outcome out;
    const Clock::time_point begun = Clock::now();
    auto finish = [&](std::string error) {
        out.error = std::move(error);
        out.seconds = secondsSince(begun);
        return out;
    };

    if (!m_process || !m_process->running()) {
        try {
            start(std::max(kHelloSeconds, timeoutSeconds), {});
        } catch (const std::exception &e) {
            return finish(std::string("the Python worker could not be restarted: ") + e.what());
        }
    }
    const long long id = ++m_nextId;
    request["id"] = id;
    m_process->takeStderr();
    const Clock::time_point deadline = after(timeoutSeconds);
    const std::string timedOut = "timed out after " + formatSeconds(timeoutSeconds) +
                                 " s; the worker was stopped and starts again at the next request";
    auto died = [&] {
        m_process->waitForExit(after(kExitGraceSeconds));
        const util::ExitStatus s = m_process->kill();
        out.output = m_process->stderrTail();
        const std::string tail = textTail(out.output, kErrorTailBytes);
        m_process.reset();
        return finish("the Python worker ended (" + s.describe() + ") while scoring" +
                      (tail.empty() ? std::string() : "; its last output:\n" + tail));
    };

    Io io = m_process->writeLine(dumpRequest(request), deadline);
    std::string line;
    while (io == Io::Ok) {
        io = m_process->readLine(line, deadline);
        if (io != Io::Ok)
            break;
        nlohmann::json reply = util::parseJsonOrDiscarded(line);
        if (!reply.is_object() || !reply.contains("rewards")) {
            out.output = m_process->stderrTail();
            return finish(stop("the Python worker wrote something that is not a reply: \"" + textTail(line, 200) +
                               "\"; it was stopped"));
        }
        if (reply.value("id", nlohmann::json()) != nlohmann::json(id))
            continue; // not this request's (none should come: a worker that timed out was killed)
        out.output = m_process->takeStderr();
        out.reply = std::move(reply);
        return finish({});
    }
    if (io == Io::Timeout) {
        out.output = m_process->stderrTail();
        return finish(stop(timedOut));
    }
    if (io == Io::TooLong) {
        out.output = m_process->stderrTail();
        return finish(stop("the Python worker's reply was longer than " +
                           std::to_string(util::Subprocess::kMaxLine >> 20) + " MiB; it was stopped"));
    }
    return died();
}

} // namespace rwb::reward
