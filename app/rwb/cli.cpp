#include "cli.h"

#include "data/jsonl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string_view>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace rwb::cli {

namespace {
bool contains(const std::vector<std::string> &v, const std::string &s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}
} // namespace

Args::Args(const std::vector<std::string> &argv, const Spec &spec)
{
    for (size_t i = 0; i < argv.size(); ++i) {
        std::string a = argv[i];
        if (a.rfind("--", 0) != 0)
            throw UsageError{"unexpected argument \"" + a + "\""};
        std::string name = a.substr(2);
        std::string inlineValue;
        bool hasInline = false;
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasInline = true;
        }
        if (contains(spec.switches, name)) {
            if (hasInline)
                throw UsageError{"--" + name + " takes no value"};
            m_switches.push_back(name);
        } else if (contains(spec.valued, name)) {
            if (!hasInline) {
                if (i + 1 >= argv.size())
                    throw UsageError{"--" + name + " needs a value"};
                inlineValue = argv[++i];
            }
            m_values[name].push_back(inlineValue);
        } else {
            throw UsageError{"unknown option --" + name};
        }
    }
}

bool Args::has(const std::string &name) const
{
    return contains(m_switches, name) || m_values.count(name) > 0;
}

std::string Args::value(const std::string &name, const std::string &fallback) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second.back();
}

const std::vector<std::string> &Args::values(const std::string &name) const
{
    static const std::vector<std::string> none;
    auto it = m_values.find(name);
    return it == m_values.end() ? none : it->second;
}

std::string Args::required(const std::string &name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        throw UsageError{"--" + name + " is required"};
    return it->second.back();
}

double Args::number(const std::string &name, double fallback) const
{
    if (!m_values.count(name))
        return fallback;
    const std::string v = value(name);
    char *end = nullptr;
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0')
        throw UsageError{"--" + name + " must be a number, not \"" + v + "\""};
    return d;
}

std::vector<int> positiveList(const std::string &text, const std::string &option, int max)
{
    std::vector<int> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        char *end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 1 || v > max)
            throw UsageError{"--" + option + " must be whole numbers from 1 to " + std::to_string(max) +
                             ", separated by commas, not \"" + text + "\""};
        out.push_back(static_cast<int>(v));
    }
    if (out.empty())
        throw UsageError{"--" + option + " is empty"};
    return out;
}

std::string findResource(const std::string &relative)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> roots;
    if (const char *env = std::getenv("RWB_RESOURCES"); env && *env)
        roots.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        roots.push_back(exe.parent_path() / ".." / "share" / "reward-workbench" / "resources");
    }
    roots.emplace_back(RWB_SOURCE_RESOURCES);
    for (const fs::path &root : roots) {
        const fs::path p = root / relative;
        if (fs::exists(p, ec))
            return fs::weakly_canonical(p, ec).string();
    }
    return {};
}

void printError(const std::string &message)
{
    std::cerr << "rwb: " << message << std::endl;
}

int guarded(const std::string &command, const std::function<int()> &body)
{
    try {
        return body();
    } catch (const UsageError &e) {
        printError(command + ": " + e.message + " (see rwb " + command + " --help)");
        return kExitBadInput;
    } catch (const data::InputException &e) {
        std::cerr << e.what() << std::endl;
        return kExitBadInput;
    } catch (const std::exception &e) {
        // libtorch's errors carry a C++ backtrace after their message: the message is
        // what a user can act on.
        std::string message = e.what();
        if (const size_t trace = message.find("\nException raised from "); trace != std::string::npos)
            message.resize(trace);
        printError(command + ": " + message);
        return kExitFailure;
    }
}

int dispatch(const std::string &command, const char *help, const std::vector<std::string> &args,
             const std::vector<Subcommand> &subcommands)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << help;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    std::string names;
    for (const Subcommand &s : subcommands) {
        if (s.name == args[0])
            return guarded(command + " " + s.name, [&] { return s.run(rest); });
        names += (names.empty() ? "" : ", ") + s.name;
    }
    printError(command + ": unknown subcommand \"" + args[0] + "\" (" + names + ")");
    return kExitBadInput;
}

// Writes `write(out)` to `path` through path.part, renamed when complete; to standard
// output when path is empty.
void writeOutput(const std::string &path, const std::function<void(std::ostream &)> &write)
{
    if (path.empty()) {
        write(std::cout);
        return;
    }
    data::writeFileAtomically(path, write);
}

bool stderrIsTerminal()
{
    return isatty(STDERR_FILENO) == 1;
}

bool jsonProgress()
{
    static const bool json = [] {
        const char *v = std::getenv("RWB_PROGRESS");
        return v && std::string_view(v) == "json";
    }();
    return json;
}

void printJsonProgress(int64_t done, int64_t total, const std::string &detail, const nlohmann::ordered_json &metrics,
                       const nlohmann::ordered_json &extra)
{
    using Clock = std::chrono::steady_clock;
    static Clock::time_point last{};
    const bool hasMetrics = metrics.is_object() && !metrics.empty();
    const Clock::time_point now = Clock::now();
    if (!hasMetrics && !(total > 0 && done >= total) && now - last < std::chrono::milliseconds(100))
        return;
    last = now;
    nlohmann::ordered_json p;
    p["done"] = done;
    p["total"] = total;
    p["detail"] = detail;
    if (hasMetrics)
        p["metrics"] = metrics;
    if (extra.is_object())
        for (const auto &[key, value] : extra.items())
            p[key] = value;
    // One write per line: the reader takes whole lines.
    const std::string line = nlohmann::ordered_json{{"progress", p}}.dump(-1, ' ', false,
                                                                       nlohmann::json::error_handler_t::replace) +
                             "\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

} // namespace rwb::cli
