#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "reward/compositereward.h"
#include "reward/registry.h"
#include "task/catalog.h"
#include "text/utf8.h"
#include "util/boundedjson.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rwb::cli {

namespace {

const char *const kScoreHelp = R"(rwb reward score — score completions with a reward config

Usage: rwb reward score --config C.json --input I.jsonl [--output O.jsonl]
                        [--skip-invalid] [--explain] [--summary] [--no-cache]

  --config C.json    reward config: {"task", "thinking", "components": [{"reward", "weight"}]}
  --input I.jsonl    one line per completion, a dataset line of the config's task with
                     "completion": for company_extraction
                     {"id", "task", "sender_email", "email_text", "completion", "gold"};
                     for legal_qa {"id", "question", "reference_answer", "law_codes",
                     "retrieved", …, "completion"} (docs/data-legal-qa.md)
  --output O.jsonl   where to write the scores (default: standard output); written to
                     O.jsonl.part first and renamed when complete
  --skip-invalid     report malformed lines on stderr and go on (default: stop, exit 2)
  --explain          add "explanations": {component: why} to each output line
  --summary          print a table of component statistics (to stdout with --output,
                     else to stderr), and for judge rewards the calls, failures, cache
                     hits, tokens and cost
  --no-cache         do not read or write the judge's cache file (docs/judges.md)

Output, one line per input line in order:
  {"id": …, "total": x, "components": {"partial": x, …}}
total = Σ wᵢ·rᵢ / Σ wᵢ; a component a judge could not give is null (None), and so is the
total then. Errors: "file:line: reason", exit code 2.
)";

const char *const kCompareHelp = R"(rwb reward compare — how several reward configs rank the same completions

Usage: rwb reward compare --input I.jsonl --config A.json [--config B.json …] [--skip-invalid]

Prints one row per config: the mean total over all lines and over the lines of each
"kind" (correct, marker_only, recipient, third_party, invented, unknown, …) when the
input labels its lines with "kind", as the bundled sample set does.
)";

const char *const kListHelp = R"(rwb reward list — the registered reward components

Usage: rwb reward list
Prints one JSON object per line: {"name", "task", "description"}; "task" is "any" for
the generic components (docs/rewards.md), which score every task, and "any_task": true
marks a task's reward that scores other tasks too (semantic, the judge rewards).
)";

const char *const kRewardHelp = R"(rwb reward — reward components and configs

Subcommands:
  score    score completions with a reward config
  compare  compare reward configs on the same completions
  list     the registered reward components
Run "rwb reward <subcommand> --help" for its options.
)";

// The completions to score: the task's lines, each with "completion"; with skipInvalid,
// bad lines are reported on stderr and left out.
std::vector<task::Record> readCompletions(const task::Task &task, const std::string &path, bool skipInvalid)
{
    std::vector<data::InputError> skipped;
    task::ReadOptions options;
    options.requireCompletion = true;
    if (skipInvalid)
        options.skipped = &skipped;
    std::vector<task::Record> records = task.read(path, options);
    for (const data::InputError &e : skipped)
        std::cerr << e.toString() << " (skipped)" << std::endl;
    if (!skipped.empty())
        printError("skipped " + std::to_string(skipped.size()) + " malformed line(s) of " + path);
    return records;
}

struct Stat {
    double sum = 0, sumSq = 0, min = INFINITY, max = -INFINITY;
    size_t n = 0, none = 0;
    void add(double v)
    {
        if (std::isnan(v)) { // None: a judge gave no verdict
            ++none;
            return;
        }
        sum += v;
        sumSq += v * v;
        min = std::min(min, v);
        max = std::max(max, v);
        ++n;
    }
    double mean() const { return n ? sum / n : 0.0; }
    double stdev() const { return n ? std::sqrt(std::max(0.0, sumSq / n - mean() * mean())) : 0.0; }
};

std::string fixed(double v, int prec = 3)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(prec) << v;
    return s.str();
}

// Columns on a terminal: East Asian wide characters take two cells, the rest one.
size_t displayWidth(const std::string &s)
{
    size_t w = 0;
    for (char32_t c : text::decodeUtf8(s)) {
        const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) ||
                          (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
                          (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) || (c >= 0xFFE0 && c <= 0xFFE6);
        w += wide ? 2 : 1;
    }
    return w;
}

std::string pad(const std::string &s, size_t width)
{
    const size_t w = displayWidth(s);
    return w >= width ? s : s + std::string(width - w, ' ');
}

int score(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config", "input", "output"}, {"skip-invalid", "explain", "summary", "no-cache", "help"}});
    if (args.has("help")) {
        std::cout << kScoreHelp;
        return kExitOk;
    }
    const std::string configPath = args.required("config");
    const std::string inputPath = args.required("input");
    const std::string outputPath = args.value("output");
    const task::Catalog &catalog = task::Catalog::builtin();
    reward::RewardConfig config = reward::loadRewardConfig(configPath, catalog.rewards());
    if (args.has("no-cache") && !config.judge.empty()) {
        nlohmann::json judge = util::parseJson(config.judge);
        judge.erase("cache"); // neither read nor written; the client still answers repeats once
        config.judge = judge.dump();
    }
    const reward::CompositeReward composite(config, configPath, catalog.rewards());
    const task::Task &task = catalog.get(config.task, configPath, "task");
    const std::vector<task::Record> records = readCompletions(task, inputPath, args.has("skip-invalid"));
    {
        std::vector<const task::Example *> examples;
        for (const task::Record &r : records)
            examples.push_back(r.example.get());
        composite.checkExamples(examples, configPath + " on " + inputPath);
    }

    std::ofstream file;
    const std::string partPath = outputPath + ".part";
    if (!outputPath.empty()) {
        file.open(partPath, std::ios::binary | std::ios::trunc);
        if (!file)
            throw data::InputException({outputPath, 0, "cannot write"});
    }
    std::ostream &out = outputPath.empty() ? std::cout : file;

    std::vector<Stat> stats(composite.size() + 1);
    const bool progress = stderrIsTerminal() && records.size() >= 1000;
    const auto start = std::chrono::steady_clock::now();
    const std::unique_ptr<task::MetricSet> metrics = task.metrics();
    // In batches, so that a judge's calls (and an embedding endpoint's) go out together.
    constexpr size_t kBatch = 256;
    std::vector<reward::JudgeDecision> decisions;
    for (size_t from = 0; from < records.size(); from += kBatch) {
        const size_t to = std::min(records.size(), from + kBatch);
        std::vector<std::unique_ptr<task::Completion>> parsed;
        std::vector<const task::Example *> examples;
        std::vector<const task::Completion *> completions;
        for (size_t i = from; i < to; ++i) {
            parsed.push_back(task.parse(*records[i].example, records[i].completion, config.thinking));
            examples.push_back(records[i].example.get());
            completions.push_back(parsed.back().get());
        }
        std::vector<std::vector<double>> components;
        reward::ScoreLog log;
        const std::vector<double> totals = composite.scoreBatch(examples, completions, components, &log);
        for (reward::JudgeDecision &d : log.take())
            decisions.push_back(std::move(d));
        for (size_t k = 0; k < examples.size(); ++k) {
            const task::Example &example = *examples[k];
            nlohmann::ordered_json j;
            j["id"] = example.id();
            j["total"] = totals[k]; // None (a judge failed) is written as null
            nlohmann::ordered_json comps = nlohmann::ordered_json::object();
            for (size_t c = 0; c < composite.size(); ++c) {
                comps[composite.componentName(c)] = components[k][c];
                stats[c].add(components[k][c]);
            }
            stats.back().add(totals[k]);
            j["components"] = std::move(comps);
            if (args.has("explain")) {
                nlohmann::ordered_json ex = nlohmann::ordered_json::object();
                for (const reward::Explanation &e : composite.explain(example, *parsed[k]))
                    ex[e.reward] = e.detail;
                j["explanations"] = std::move(ex);
            }
            metrics->add(example, *parsed[k]);
            out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        }
        if (progress)
            std::cerr << "\rscored " << to << "/" << records.size() << std::flush;
    }
    if (progress)
        std::cerr << "\n";
    if (!outputPath.empty()) {
        file.close();
        if (!file)
            throw data::InputException({outputPath, 0, "write failed (disk full?)"});
        std::filesystem::rename(partPath, outputPath);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (args.has("summary")) {
        std::ostream &sum = outputPath.empty() ? std::cerr : std::cout;
        sum << "\n" << (config.name.empty() ? configPath : config.name) << " — " << records.size()
            << " completions scored in " << fixed(seconds, 3) << " s"
            << (config.thinking ? " (thinking mode)" : "") << "\n\n";
        sum << pad("component", 12) << pad("weight", 9) << pad("share", 8) << pad("mean", 8) << pad("std", 8)
            << pad("min", 8) << pad("max", 8) << "\n";
        const double wsum = config.weightSum();
        for (size_t c = 0; c <= composite.size(); ++c) {
            const bool total = c == composite.size();
            const Stat &st = stats[c];
            sum << pad(total ? "total" : composite.componentName(c), 12)
                << pad(total ? "" : fixed(composite.weight(c), 0), 9)
                << pad(total ? "" : fixed(composite.weight(c) / wsum * 100.0, 1) + "%", 8) << pad(fixed(st.mean()), 8)
                << pad(fixed(st.stdev()), 8) << pad(fixed(st.n ? st.min : 0), 8) << pad(fixed(st.n ? st.max : 0), 8)
                << "\n";
        }
        // The task's metrics of the completions taken as predictions, e.g. for extraction
        // "precision 0.198  recall 0.224  F1 0.210  (N_output 197, N_exist 174, N_tp 39)".
        sum << "\nthe completions taken as predictions (as rwb eval score does):";
        for (const auto &[name, value] : metrics->result())
            sum << " " << (name == "f1" ? std::string("F1") : name) << " " << fixed(value) << " ";
        std::string counts;
        for (const auto &[name, value] : metrics->counts())
            counts += (counts.empty() ? "" : ", ") + (name.rfind("n_", 0) == 0 ? "N_" + name.substr(2) : name) + " " +
                      std::to_string(value);
        sum << (counts.empty() ? "" : " (" + counts + ")") << "\n";
        if (!decisions.empty()) {
            size_t failures = 0, hits = 0;
            int64_t promptTokens = 0, completionTokens = 0;
            double cost = 0.0, latency = 0.0;
            for (const reward::JudgeDecision &d : decisions) {
                failures += d.error.empty() ? 0 : 1;
                hits += d.cacheHit ? 1 : 0;
                promptTokens += d.promptTokens;
                completionTokens += d.completionTokens;
                cost += d.cost;
                latency += d.latencySeconds;
            }
            const size_t sent = decisions.size() - hits;
            sum << "judge: " << decisions.size() << " calls (" << hits << " answered from memory or the cache), " << failures
                << " failed; " << promptTokens << " prompt + " << completionTokens << " completion tokens, cost "
                << fixed(cost, 4) << "; mean latency " << fixed(sent ? latency / sent : 0.0, 2) << " s; "
                << stats.back().none << " totals None\n";
        }
    }
    return kExitOk;
}

int compare(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config", "input"}, {"skip-invalid", "help"}});
    if (args.has("help")) {
        std::cout << kCompareHelp;
        return kExitOk;
    }
    const std::string inputPath = args.required("input");
    if (args.values("config").empty())
        throw UsageError{"--config is required (one or more)"};
    // Every config must score the same task: the input is read as that task's lines.
    const task::Catalog &catalog = task::Catalog::builtin();
    const std::vector<std::string> &paths = args.values("config");
    std::vector<reward::RewardConfig> configs;
    for (const std::string &path : paths) {
        configs.push_back(reward::loadRewardConfig(path, catalog.rewards()));
        if (configs.back().task != configs.front().task)
            throw data::InputException({path, 0, "task: \"" + configs.back().task + "\" differs from \"" +
                                                     configs.front().task + "\" of " + paths.front() +
                                                     " (the configs compared must score one task)"});
    }
    const task::Task &task = catalog.get(configs.front().task, paths.front(), "task");
    const std::vector<task::Record> records = readCompletions(task, inputPath, args.has("skip-invalid"));
    // Kinds in the order first seen.
    std::vector<std::string> kinds;
    for (const auto &r : records)
        if (!r.kind.empty() && std::find(kinds.begin(), kinds.end(), r.kind) == kinds.end())
            kinds.push_back(r.kind);

    size_t nameWidth = 8;
    std::vector<std::pair<std::string, std::vector<double>>> rows;
    for (size_t c = 0; c < configs.size(); ++c) {
        const reward::RewardConfig &config = configs[c];
        const std::string &path = paths[c];
        const reward::CompositeReward composite(config, path, catalog.rewards());
        Stat all;
        std::map<std::string, Stat> perKind;
        for (const auto &r : records) {
            const auto parsed = task.parse(*r.example, r.completion, config.thinking);
            const double t = composite.score(*r.example, *parsed).total;
            all.add(t);
            if (!r.kind.empty())
                perKind[r.kind].add(t);
        }
        std::vector<double> row{all.mean()};
        for (const std::string &k : kinds)
            row.push_back(perKind[k].mean());
        std::string name = config.name.empty() ? std::filesystem::path(path).stem().string() : config.name;
        nameWidth = std::max(nameWidth, displayWidth(name) + 2);
        rows.emplace_back(std::move(name), std::move(row));
    }
    std::cout << "mean total reward by completion kind (" << records.size() << " completions)\n\n";
    std::cout << pad("config", nameWidth) << pad("all", 8);
    for (const std::string &k : kinds)
        std::cout << pad(k, std::max<size_t>(k.size() + 2, 8));
    std::cout << "\n";
    for (const auto &[name, row] : rows) {
        std::cout << pad(name, nameWidth) << pad(fixed(row[0]), 8);
        for (size_t k = 0; k < kinds.size(); ++k)
            std::cout << pad(fixed(row[k + 1]), std::max<size_t>(kinds[k].size() + 2, 8));
        std::cout << "\n";
    }
    return kExitOk;
}

int list(const std::vector<std::string> &argv)
{
    const Args args(argv, {{}, {"help"}});
    if (args.has("help")) {
        std::cout << kListHelp;
        return kExitOk;
    }
    for (const auto &e : task::Catalog::builtin().rewards().entries()) {
        nlohmann::ordered_json j;
        j["name"] = e.name;
        j["task"] = e.task.empty() ? std::string("any") : e.task; // a generic component scores every task
        if (e.anyTask)
            j["any_task"] = true; // a task's own that scores other tasks' completions too
        j["description"] = e.description;
        std::cout << j.dump(-1, ' ', false) << "\n";
    }
    return kExitOk;
}

} // namespace

int rewardCommand(const std::vector<std::string> &args)
{
    return dispatch("reward", kRewardHelp, args, {{"score", score}, {"compare", compare}, {"list", list}});
}

} // namespace rwb::cli
