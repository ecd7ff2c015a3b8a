// rwb mcts run / export / import, and rwb bench mcts: ProRAG's tree search over reasoning
// steps with the local policy and retriever (core/mcts).
#include "cli.h"
#include "stopsignals.h"
#include "commands.h"

#include "data/jsonl.h"
#include "eval/bootstrap.h"
#include "engine/mctsrun.h"
#include "mcts/searchrecord.h"
#include "mcts/treejson.h"
#include "model/threads.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "util/duration.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace rwb::cli {

namespace {

const char *const kMctsHelp = R"(rwb mcts — Monte-Carlo tree search over reasoning steps (ProRAG §3.2)

Subcommands:
  run      search every question of a multi-hop set; trees into the run store
  export   a stored tree (or every tree of a run) as JSON: our record, or ProRAG's shape
  import   record or ProRAG JSON files into a run store, to view them in the workbench
  table    answer EM / F1 of greedy SFT and of the search, by hops, from the run store

Run "rwb mcts <subcommand> --help" for its options. Documentation: docs/mcts.md
)";

const char *const kRunHelp = R"(rwb mcts run — tree search over a question set

Usage: rwb mcts run --config mcts.json [--quiet]

The config (docs/mcts.md): task (one that declares reasoning steps; default the first
such task, multi-hop QA), model (the SFT policy), index (its environment's retrieval
index: BM25 of the knowledge base), questions (the task's JSONL with gold answers),
store, and the search's
parameters: preset "small" (24 simulations, K 3, depth 6) or "paper" (§4.3: 200
simulations, K 5, depth 10), simulations, expansions, max_depth, c_puct (2.5), gamma
(0.99), temperature (1), max_step_tokens, top_k (2), seed, limit, greedy (true: also the
greedy SFT trajectory of each question).

Every tree goes to the run store as it grows (a run of kind "mcts"); the workbench
follows it live. A progress line on stderr; one JSON object on stdout at the end:
  {"run_id", "questions", "greedy": {"em", "f1"}, "mcts": {"em", "f1", "found_f1"},
   "seconds", "simulations_per_second", "shares": {"generation", "retrieval", "tree"}}
mcts em / f1 are the most visited path's answer; found_f1 the best terminal the search
reached (chosen with the gold answer: an upper bound, not a prediction).
)";

const char *const kExportHelp = R"(rwb mcts export — stored search trees as JSON

Usage: rwb mcts export --store runs.sqlite (--tree ID | --run ID) --out PATH [--prorag]

  --tree ID   one tree: written to PATH (a file)
  --run ID    every tree of the run: PATH is a folder, one <question id>.json each
  --prorag    only the nested tree in the shape ProRAG's code writes
              ({action, q, n, prior, depth, children}; q is the value sum)
By default the whole record: the question, the parameters, the iteration log and the
tree, which `rwb mcts import` and the workbench (--mcts) read back.
)";

const char *const kImportHelp = R"(rwb mcts import — search trees from JSON into a run store

Usage: rwb mcts import --store runs.sqlite --input tree.json [--input more.json …]
                       [--run-name NAME] [--task NAME]

Reads record files (rwb mcts export) or bare ProRAG trees and adds them as one run of
kind "mcts" of the task --task (one that declares reasoning steps; default the first
such task, multi-hop QA). A file that does not parse stops the command before anything is written,
with the file and the JSON path of the problem. Prints {"run_id", "trees"}.
)";

const char *const kTableHelp = R"(rwb mcts table — what the search found against the greedy SFT policy

Usage: rwb mcts table --store runs.sqlite [--run ID] [--markdown]

For one MCTS run (default: the store's last), by the questions' number of hops and in
all: the questions, answer EM and answer F1 of the policy's greedy trajectory
("greedy SFT", when the run had greedy on), of the search's most visited path ("MCTS")
and the best terminal it reached ("found": chosen with the gold answer, an upper bound).
The search's values are F1 against gold (ProRAG §3.2: the tree is supervision, built
with the answers known), so its path is not a test-time prediction: the table says how
much better than greedy decoding the trajectories are that the tree holds for the PRM.
Questions a stopped run did not finish are left out. --markdown: a Markdown table.
Below it, the search's path against greedy decoding on the same questions: the paired
difference of EM and of F1 with its 95 % bootstrap interval (2,000 resamples).
)";

const char *const kBenchHelp = R"(rwb bench mcts — how fast the search runs, and where the time goes

Usage: rwb bench mcts --model DIR --index index.sqlite --questions Q.jsonl
                      [--task NAME] [--questions-limit 4] [--simulations 12]
                      [--expansions 3] [--max-depth 6] [--threads N]

Searches the first questions twice, children sharing their parent's prefill (the
default) and each child prefilling the prefix itself, and prints one JSON object:
  {"shared": {"simulations_per_second", "seconds", "shares": {"generation",
   "retrieval", "tree"}, "prefilled_tokens", "decoded_tokens"}, "unshared": {…},
   "prefill_sharing_speedup"}
The two runs sample the same trees (same seeds), so the difference is the prefills.
)";

nlohmann::ordered_json statsJson(const mcts::SearchStats &s, int simulations)
{
    nlohmann::ordered_json j;
    j["simulations"] = simulations;
    j["seconds"] = s.total;
    j["simulations_per_second"] = s.total > 0 ? simulations / s.total : 0.0;
    const double t = s.total > 0 ? s.total : 1.0;
    j["shares"] = {{"generation", s.generation / t}, {"retrieval", s.retrieval / t}, {"tree", s.tree / t}};
    j["prefilled_tokens"] = s.prefilledTokens;
    j["decoded_tokens"] = s.decodedTokens;
    j["expansions"] = s.expansions;
    j["simulated_steps"] = s.simulatedSteps;
    return j;
}

int run(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config"}, {"quiet", "help"}});
    if (args.has("help")) {
        std::cout << kRunHelp;
        return kExitOk;
    }
    const mcts::MctsRunConfig config = mcts::loadMctsRunConfig(args.required("config"));
    const bool quiet = args.has("quiet");
    // Ctrl-C and SIGTERM stop after the iteration in flight: the run is marked stopped,
    // the questions finished so far stay in the store.
    StopSignals signals;
    const mcts::MctsRunResult r = mcts::runMcts(config, [&](const mcts::MctsRunProgress &p) {
        if (signals.takeRequest()) {
            std::fprintf(stderr, "\n%s: stopping after the iteration in flight\n", signals.lastSignal());
            return false;
        }
        if (jsonProgress()) {
            // Progress over all questions' iterations.
            const int64_t total = static_cast<int64_t>(p.questions) * p.iterations;
            const int64_t done = static_cast<int64_t>(p.question - 1) * p.iterations + p.iteration;
            char detail[160];
            std::snprintf(detail, sizeof detail, "question %d/%d, best-path F1 %.3f, greedy F1 %.3f", p.question,
                          p.questions, p.meanBestF1, p.meanGreedyF1);
            printJsonProgress(done, total, detail, {}, {{"run_id", p.runId}});
        } else if (!quiet) {
            std::fprintf(stderr, "\rmcts question %d/%d  iteration %d/%d  best-path F1 %.3f  greedy F1 %.3f  %s   ",
                         p.question, p.questions, p.iteration, p.iterations, p.meanBestF1, p.meanGreedyF1,
                         util::formatDuration(p.elapsedSeconds).c_str());
            std::fflush(stderr);
        }
        return true;
    });
    const nlohmann::ordered_json stats = statsJson(r.stats, r.questions * config.params.simulations);
    if (!quiet && !jsonProgress()) {
        std::fprintf(stderr, "\n%d questions in %s: %.2f simulations/s; time in generation %.1f %%, retrieval %.1f %%, "
                             "tree %.2f %%\n",
                     r.questions, util::formatDuration(r.seconds).c_str(), stats["simulations_per_second"].get<double>(),
                     100 * stats["shares"]["generation"].get<double>(), 100 * stats["shares"]["retrieval"].get<double>(),
                     100 * stats["shares"]["tree"].get<double>());
        std::fprintf(stderr, "greedy SFT: EM %.3f, F1 %.3f; MCTS most visited path: EM %.3f, F1 %.3f (rwb mcts table "
                             "--store … --run %lld: by hops)\n",
                     r.greedyEm, r.greedyF1, r.bestEm, r.bestF1, static_cast<long long>(r.runId));
    }
    nlohmann::ordered_json j;
    j["run_id"] = r.runId;
    j["questions"] = r.questions;
    j["greedy"] = {{"em", r.greedyEm}, {"f1", r.greedyF1}};
    j["mcts"] = {{"em", r.bestEm}, {"f1", r.bestF1}, {"found_f1", r.foundF1}};
    j["seconds"] = r.seconds;
    j["simulations_per_second"] = stats["simulations_per_second"];
    j["shares"] = stats["shares"];
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int exportTrees(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "tree", "run", "out"}, {"prorag", "help"}});
    if (args.has("help")) {
        std::cout << kExportHelp;
        return kExitOk;
    }
    const std::string storePath = args.required("store");
    if (!std::filesystem::exists(storePath))
        throw data::InputException({storePath, 0, "no such run store"});
    const store::RunStore store(storePath, store::RunStore::OpenMode::ReadOnly);
    const std::string out = args.required("out");
    const bool prorag = args.has("prorag");
    const auto json = [&](const mcts::SearchRecord &r) {
        return prorag ? nlohmann::ordered_json(mcts::toProragJson(r.tree)) : mcts::toRecordJson(r);
    };
    if (args.has("tree") == args.has("run"))
        throw UsageError{"give --tree ID or --run ID"};
    if (args.has("tree")) {
        const mcts::SearchRecord r = store.mctsTree(static_cast<int64_t>(args.number("tree", 0)));
        writeOutput(out, [&](std::ostream &o) { o << json(r).dump(1) << "\n"; });
        std::cout << nlohmann::ordered_json{{"trees", 1}, {"out", out}}.dump() << std::endl;
        return kExitOk;
    }
    const int64_t runId = static_cast<int64_t>(args.number("run", 0));
    const std::vector<mcts::TreeSummary> trees = store.mctsTrees(runId);
    if (trees.empty())
        throw data::InputException({storePath, 0, "run " + std::to_string(runId) + " has no search tree"});
    std::filesystem::create_directories(out);
    for (const mcts::TreeSummary &t : trees) {
        const std::string name = t.questionId.empty() ? "tree-" + std::to_string(t.treeId) : t.questionId;
        writeOutput((std::filesystem::path(out) / (name + ".json")).string(),
                    [&](std::ostream &o) { o << json(store.mctsTree(t.treeId)).dump(1) << "\n"; });
    }
    std::cout << nlohmann::ordered_json{{"trees", trees.size()}, {"out", out}}.dump() << std::endl;
    return kExitOk;
}

int importTrees(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "input", "run-name", "task"}, {"help"}});
    if (args.has("help")) {
        std::cout << kImportHelp;
        return kExitOk;
    }
    const std::vector<std::string> &inputs = args.values("input");
    if (inputs.empty())
        throw UsageError{"--input is required"};
    std::vector<mcts::SearchRecord> records;
    for (const std::string &path : inputs) // all read before anything is written
        records.push_back(mcts::readRecordFile(path));
    store::RunStore store(args.required("store"));
    const int64_t runId = store.beginRun(args.value("run-name", "imported trees"), store::RunKind::Mcts,
                                         nlohmann::ordered_json{{"imported", inputs}}.dump(),
                                         std::string(task::Catalog::builtin()
                                                         .getWithSteps(args.value("task"), "rwb mcts import", "--task")
                                                         .name()));
    for (const mcts::SearchRecord &r : records)
        store.writeMctsTree(runId, r);
    store.finishRun(runId, store::RunStatus::Finished);
    std::cout << nlohmann::ordered_json{{"run_id", runId}, {"trees", records.size()}}.dump() << std::endl;
    return kExitOk;
}

int table(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "run"}, {"markdown", "help"}});
    if (args.has("help")) {
        std::cout << kTableHelp;
        return kExitOk;
    }
    const std::string path = args.required("store");
    const store::RunStore s(path, store::RunStore::OpenMode::ReadOnly);
    int64_t runId = static_cast<int64_t>(args.number("run", 0));
    if (runId == 0)
        runId = s.lastRun(store::RunKind::Mcts);
    if (runId == 0)
        throw data::InputException({path, 0, "no MCTS run (rwb mcts run writes them)"});
    const store::RunInfo info = s.run(runId);
    if (info.kind != "mcts")
        throw data::InputException({path, 0, "run " + std::to_string(runId) + " is a " + info.kind + " run, not an MCTS run"});
    // Step i's metrics are question i's (the i-th tree written).
    std::map<int64_t, std::map<std::string, double>> byStep;
    for (const store::MetricPoint &m : s.metrics(runId))
        byStep[m.step][m.name] = m.value;
    const std::vector<mcts::TreeSummary> trees = s.mctsTrees(runId);
    struct Row {
        int n = 0, greedyN = 0;
        double greedyEm = 0, greedyF1 = 0, em = 0, f1 = 0, found = 0;
    };
    std::map<int, Row> rows; // by hops; 0 = all
    // Per question with a greedy trajectory: greedy and search EM / F1, for the paired interval.
    std::vector<double> greedyEm, greedyF1, searchEm, searchF1;
    for (size_t i = 0; i < trees.size(); ++i) {
        const auto it = byStep.find(static_cast<int64_t>(i) + 1);
        if (it == byStep.end() || !it->second.count("mcts/best_f1"))
            continue; // not finished
        const auto &m = it->second;
        if (m.count("greedy/f1")) {
            greedyEm.push_back(m.at("greedy/em"));
            greedyF1.push_back(m.at("greedy/f1"));
            searchEm.push_back(m.at("mcts/best_em"));
            searchF1.push_back(m.at("mcts/best_f1"));
        }
        for (const int key : {trees[i].hops, 0}) {
            Row &r = rows[key];
            ++r.n;
            r.em += m.at("mcts/best_em");
            r.f1 += m.at("mcts/best_f1");
            r.found += m.count("mcts/found_f1") ? m.at("mcts/found_f1") : 0.0;
            if (m.count("greedy/f1")) {
                ++r.greedyN;
                r.greedyEm += m.at("greedy/em");
                r.greedyF1 += m.at("greedy/f1");
            }
        }
    }
    if (rows.empty())
        throw data::InputException({path, 0, "run " + std::to_string(runId) + " has no finished question yet"});
    const bool md = args.has("markdown");
    std::printf("MCTS run %lld (%s), %d questions\n", static_cast<long long>(runId), info.name.c_str(), rows[0].n);
    if (md) {
        std::printf("\n| hops | questions | greedy SFT EM | greedy SFT F1 | MCTS EM | MCTS F1 | found F1 |\n");
        std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    } else {
        std::printf("%-6s %9s %13s %13s %8s %8s %9s\n", "hops", "questions", "greedy SFT EM", "greedy SFT F1", "MCTS EM",
                    "MCTS F1", "found F1");
    }
    const auto cell = [](double sum, int n) {
        char b[32];
        if (n == 0)
            std::snprintf(b, sizeof b, "–");
        else
            std::snprintf(b, sizeof b, "%.3f", sum / n);
        return std::string(b);
    };
    const auto print = [&](const std::string &label, const Row &r) {
        const std::string cells[] = {cell(r.greedyEm, r.greedyN), cell(r.greedyF1, r.greedyN), cell(r.em, r.n),
                                     cell(r.f1, r.n), cell(r.found, r.n)};
        std::printf(md ? "| %s | %d | %s | %s | %s | %s | %s |\n" : "%-6s %9d %13s %13s %8s %8s %9s\n", label.c_str(), r.n,
                    cells[0].c_str(), cells[1].c_str(), cells[2].c_str(), cells[3].c_str(), cells[4].c_str());
    };
    for (const auto &[hops, r] : rows)
        if (hops > 0)
            print(std::to_string(hops), r);
    print(md ? "**all**" : "all", rows[0]);
    if (!greedyF1.empty()) {
        // The search against greedy decoding on the same questions (core/eval/bootstrap.h).
        const eval::Interval em = eval::pairedMeanDifference(greedyEm, searchEm);
        const eval::Interval f1 = eval::pairedMeanDifference(greedyF1, searchF1);
        std::printf("\nMCTS − greedy SFT, paired over %zu questions (95 %% bootstrap interval, 2,000 resamples): "
                    "EM %+.3f [%+.3f, %+.3f], F1 %+.3f [%+.3f, %+.3f]\n",
                    greedyF1.size(), em.estimate, em.low, em.high, f1.estimate, f1.low, f1.high);
    }
    return kExitOk;
}

} // namespace

int mctsCommand(const std::vector<std::string> &args)
{
    return dispatch("mcts", kMctsHelp, args, {{"run", run}, {"export", exportTrees}, {"import", importTrees}, {"table", table}});
}

int mctsBench(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"task", "model", "index", "questions", "questions-limit", "simulations", "expansions",
                            "max-depth", "threads"},
                           {"help"}});
    if (args.has("help")) {
        std::cout << kBenchHelp;
        return kExitOk;
    }
    const task::Task &task = task::Catalog::builtin().getWithSteps(args.value("task"), "rwb bench mcts", "--task");
    task::ReadOptions ro;
    ro.limit = static_cast<size_t>(args.number("questions-limit", 4));
    const std::vector<task::Record> records = task.read(args.required("questions"), ro);
    mcts::SearchParams params = mcts::presetParams("small");
    params.simulations = static_cast<int>(args.number("simulations", 12));
    params.expansions = static_cast<int>(args.number("expansions", 3));
    params.maxDepth = static_cast<int>(args.number("max-depth", params.maxDepth));
    nlohmann::ordered_json j;
    const model::ThreadsChoice threads = model::resolveThreads(static_cast<int>(args.number("threads", 0)));
    j["threads"] = threads.threads;
    j["threads_reason"] = threads.reason;
    double seconds[2] = {0, 0};
    for (int shared = 1; shared >= 0; --shared) {
        mcts::PolicyOptions po;
        po.model = args.required("model");
        po.index = args.value("index");
        po.topK = params.topK;
        po.source = "--index";
        po.threads = static_cast<int>(args.number("threads", 0));
        po.sharePrefill = shared == 1;
        mcts::StepPolicy policy(po, task);
        mcts::SearchStats stats;
        for (size_t i = 0; i < records.size(); ++i) {
            mcts::SearchParams p = params;
            p.seed = params.seed + i;
            mcts::runSearch(policy, *records[i].example, p, stats);
        }
        seconds[shared] = stats.total;
        j[shared ? "shared" : "unshared"] = statsJson(stats, static_cast<int>(records.size()) * params.simulations);
    }
    j["prefill_sharing_speedup"] = seconds[1] > 0 ? seconds[0] / seconds[1] : 0.0;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace rwb::cli
