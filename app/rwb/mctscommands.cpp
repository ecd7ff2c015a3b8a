// rwb mcts run / export / import, and rwb bench mcts: ProRAG's tree search over reasoning
// steps with the local policy and retriever (core/mcts).
#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "mcts/mctsrun.h"
#include "mcts/searchrecord.h"
#include "mcts/treejson.h"
#include "store/runstore.h"
#include "task/multihoptask.h"
#include "util/duration.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace rwb::cli {

namespace {

const char *const kMctsHelp = R"(rwb mcts — Monte-Carlo tree search over reasoning steps (ProRAG §3.2)

Subcommands:
  run      search every question of a multi-hop set; trees into the run store
  export   a stored tree (or every tree of a run) as JSON: our record, or ProRAG's shape
  import   record or ProRAG JSON files into a run store, to view them in the workbench

Run "rwb mcts <subcommand> --help" for its options. Documentation: docs/mcts.md
)";

const char *const kRunHelp = R"(rwb mcts run — tree search over a question set

Usage: rwb mcts run --config mcts.json [--quiet]

The config (docs/mcts.md): model (the SFT policy), index (BM25 index of the knowledge
base), questions (multihop JSONL with gold answers), store, and the search's
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
                       [--run-name NAME]

Reads record files (rwb mcts export) or bare ProRAG trees and adds them as one run of
kind "mcts". A file that does not parse stops the command before anything is written,
with the file and the JSON path of the problem. Prints {"run_id", "trees"}.
)";

const char *const kBenchHelp = R"(rwb bench mcts — how fast the search runs, and where the time goes

Usage: rwb bench mcts --model DIR --index index.sqlite --questions Q.jsonl
                      [--questions-limit 4] [--simulations 12] [--expansions 3]
                      [--max-depth 6] [--threads N]

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
    const mcts::MctsRunResult r = mcts::runMcts(config, [&](const mcts::MctsRunProgress &p) {
        if (!quiet) {
            std::fprintf(stderr, "\rmcts question %d/%d  iteration %d/%d  best-path F1 %.3f  greedy F1 %.3f  %s   ",
                         p.question, p.questions, p.iteration, p.iterations, p.meanBestF1, p.meanGreedyF1,
                         util::formatDuration(p.elapsedSeconds).c_str());
            std::fflush(stderr);
        }
        return true;
    });
    if (!quiet)
        std::fprintf(stderr, "\n");
    nlohmann::ordered_json j;
    j["run_id"] = r.runId;
    j["questions"] = r.questions;
    j["greedy"] = {{"em", r.greedyEm}, {"f1", r.greedyF1}};
    j["mcts"] = {{"em", r.bestEm}, {"f1", r.bestF1}, {"found_f1", r.foundF1}};
    j["seconds"] = r.seconds;
    const nlohmann::ordered_json stats = statsJson(r.stats, r.questions * config.params.simulations);
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
    const Args args(argv, {{"store", "input", "run-name"}, {"help"}});
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
                                         nlohmann::ordered_json{{"imported", inputs}}.dump(), "multihop");
    for (const mcts::SearchRecord &r : records)
        store.writeMctsTree(runId, r);
    store.finishRun(runId, store::RunStatus::Finished);
    std::cout << nlohmann::ordered_json{{"run_id", runId}, {"trees", records.size()}}.dump() << std::endl;
    return kExitOk;
}

} // namespace

int mctsCommand(const std::vector<std::string> &args)
{
    return dispatch("mcts", kMctsHelp, args, {{"run", run}, {"export", exportTrees}, {"import", importTrees}});
}

int mctsBench(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "index", "questions", "questions-limit", "simulations", "expansions", "max-depth",
                            "threads"},
                           {"help"}});
    if (args.has("help")) {
        std::cout << kBenchHelp;
        return kExitOk;
    }
    const task::MultihopTask task;
    task::ReadOptions ro;
    ro.limit = static_cast<size_t>(args.number("questions-limit", 4));
    const std::vector<task::Record> records = task.read(args.required("questions"), ro);
    mcts::SearchParams params = mcts::presetParams("small");
    params.simulations = static_cast<int>(args.number("simulations", 12));
    params.expansions = static_cast<int>(args.number("expansions", 3));
    params.maxDepth = static_cast<int>(args.number("max-depth", params.maxDepth));
    nlohmann::ordered_json j;
    double seconds[2] = {0, 0};
    for (int shared = 1; shared >= 0; --shared) {
        mcts::PolicyOptions po;
        po.model = args.required("model");
        po.index = args.required("index");
        po.threads = static_cast<int>(args.number("threads", 0));
        po.sharePrefill = shared == 1;
        mcts::StepPolicy policy(po);
        mcts::SearchStats stats;
        for (size_t i = 0; i < records.size(); ++i) {
            mcts::SearchParams p = params;
            p.seed = params.seed + i;
            mcts::runSearch(policy, task::as<task::MultihopExample>(*records[i].example), p, stats);
        }
        seconds[shared] = stats.total;
        j[shared ? "shared" : "unshared"] = statsJson(stats, static_cast<int>(records.size()) * params.simulations);
    }
    j["prefill_sharing_speedup"] = seconds[1] > 0 ? seconds[0] / seconds[1] : 0.0;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace rwb::cli
