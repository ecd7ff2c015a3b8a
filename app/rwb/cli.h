#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace rwb::cli {

// Exit codes of every rwb command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // something went wrong that is not the input's fault
inline constexpr int kExitBadInput = 2; // bad input or usage

// A command's options: "--name value" pairs and "--flag" switches, parsed against
// what the command declares. Anything else is a usage error.
class Args {
public:
    struct Spec {
        std::vector<std::string> valued;   // take a value (may repeat: values are collected)
        std::vector<std::string> switches; // take none
    };

    // Throws UsageError on an unknown option, a missing value or a stray word.
    Args(const std::vector<std::string> &argv, const Spec &spec);

    bool has(const std::string &name) const;
    std::string value(const std::string &name, const std::string &fallback = {}) const;
    const std::vector<std::string> &values(const std::string &name) const;
    // The value of a required option; throws UsageError when it is missing.
    std::string required(const std::string &name) const;
    // A number option; throws UsageError when it is not a number.
    double number(const std::string &name, double fallback) const;

private:
    std::map<std::string, std::vector<std::string>> m_values;
    std::vector<std::string> m_switches;
};

struct UsageError {
    std::string message;
};

// The whole numbers of a comma-separated option value ("1,8,32"), each from 1 to `max`;
// throws UsageError naming --option for anything else, or for an empty list.
std::vector<int> positiveList(const std::string &text, const std::string &option, int max = 100000);

// A bundled resource ("samples/company_samples.jsonl"): looked up under $RWB_RESOURCES,
// next to the installed program (../share/reward-workbench/resources), then in the source tree.
// Returns "" when it is nowhere.
std::string findResource(const std::string &relative);

// Writes "rwb: message" to stderr.
void printError(const std::string &message);

// Runs a command body and turns exceptions into messages and exit codes:
// UsageError and data::InputException → 2, anything else → 1.
int guarded(const std::string &command, const std::function<int()> &body);

// A command word's subcommands ("reward" → score, compare, list).
struct Subcommand {
    std::string name;
    std::function<int(const std::vector<std::string> &)> run;
};

// Runs args[0] among `subcommands` (guarded), prints `help` for none / --help, and
// reports an unknown subcommand with the list of known ones (exit 2).
int dispatch(const std::string &command, const char *help, const std::vector<std::string> &args,
             const std::vector<Subcommand> &subcommands);

// Writes `write(out)` to `path` through PATH.part, renamed when complete (to standard
// output when `path` is empty); data::InputException naming the path when it cannot.
void writeOutput(const std::string &path, const std::function<void(std::ostream &)> &write);


// True when the stream is a terminal (for progress lines).
bool stderrIsTerminal();

// Progress for a program that runs a command and reads its progress: with the environment
// variable RWB_PROGRESS=json (the workbench's jobs set it), long commands write their
// progress to stderr as one JSON object per line instead of the terminal's line:
//   {"progress": {"done": 3, "total": 20, "detail": "loss 0.41", "metrics": {"loss": 0.41}}}
// ("total" 0: unknown; "metrics" only when there are some: numbers to plot over "done";
// a command may add keys of its own, e.g. "run_id" of the run it writes).
bool jsonProgress();
// Writes one such line; `extra`'s keys go into "progress" too. Lines without metrics
// come at most 10 a second (the last, done == total, always); lines with metrics always.
void printJsonProgress(int64_t done, int64_t total, const std::string &detail,
                       const nlohmann::ordered_json &metrics = nlohmann::ordered_json(),
                       const nlohmann::ordered_json &extra = nlohmann::ordered_json());

} // namespace rwb::cli
