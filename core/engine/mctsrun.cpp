#include "engine/mctsrun.h"

#include "data/configreader.h"
#include "data/jsonl.h"
#include "store/runstore.h"
#include "task/catalog.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>

namespace rwb::mcts {

SearchParams presetParams(std::string_view name)
{
    SearchParams p; // the paper's §4.3: 200 simulations, K 5, depth 10, c_puct 2.5, γ 0.99
    if (name == "small") {
        p.simulations = 24;
        p.expansions = 3;
        p.maxDepth = 6;
        p.maxStepTokens = 64;
    }
    return p;
}

MctsRunConfig parseMctsRunConfig(std::string_view json, const std::string &source)
{
    const data::ConfigReader r(json, source,
                               {"task", "model", "index", "questions", "store", "run_name", "preset", "simulations",
                                "expansions", "max_depth", "c_puct", "gamma", "temperature", "max_step_tokens", "top_k",
                                "seed", "value", "limit", "greedy", "write_every", "device", "threads"});
    MctsRunConfig c;
    c.source = source;
    c.task = r.text("task", "");
    // The task is checked here, so that a config names its mistake before a model loads.
    (void)task::Catalog::builtin().getWithSteps(c.task, source, "task");
    c.model = r.path("model", true);
    c.index = r.path("index", false);
    c.questions = r.path("questions", true);
    c.store = r.path("store", true);
    c.runName = r.text("run_name", "");
    c.preset = r.choice("preset", c.preset, {"small", "paper"});
    SearchParams &p = c.params;
    p = presetParams(c.preset);
    p.simulations = r.integer("simulations", p.simulations, 1, 100000);
    p.expansions = r.integer("expansions", p.expansions, 1, 64);
    p.maxDepth = r.integer("max_depth", p.maxDepth, 1, 64);
    p.cPuct = r.number("c_puct", p.cPuct, 0, 1000);
    p.gamma = r.number("gamma", p.gamma, 0.01, 1);
    p.temperature = r.number("temperature", p.temperature, 0.01, 10);
    p.maxStepTokens = r.integer("max_step_tokens", p.maxStepTokens, 4, 4096);
    p.topK = r.integer("top_k", p.topK, 1, 20);
    p.seed = static_cast<uint64_t>(r.integer("seed", static_cast<int>(p.seed), 0, 1 << 30));
    p.value = r.choice("value", p.value, {"f1", "em"});
    c.limit = r.integer("limit", 0, 0, 1 << 30);
    c.greedy = r.boolean("greedy", c.greedy);
    c.writeEvery = r.integer("write_every", c.writeEvery, 1, 100000);
    c.device = r.choice("device", c.device, {"cpu", "cuda", "auto"});
    c.threads = r.integer("threads", 0, 0, 1024);
    return c;
}

MctsRunConfig loadMctsRunConfig(const std::string &path)
{
    return parseMctsRunConfig(data::readTextFile(path), path);
}

MctsRunResult runMcts(const MctsRunConfig &c, const MctsRunCallback &callback)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    MctsRunResult result;
    const task::Task &task = task::Catalog::builtin().getWithSteps(c.task, "mcts config", "task");
    result.task = task.name();
    task::ReadOptions ro;
    ro.limit = c.limit > 0 ? static_cast<size_t>(c.limit) : 0;
    const std::vector<task::Record> records = task.read(c.questions, ro);

    PolicyOptions po;
    po.model = c.model;
    po.index = c.index;
    po.topK = c.params.topK;
    po.source = c.source.empty() ? std::string("index") : c.source + ": index";
    po.device = c.device;
    po.threads = c.threads;
    StepPolicy policy(po, task);

    store::RunStore store(c.store);
    nlohmann::ordered_json config{{"task", std::string(task.name())}, {"model", c.model}, {"index", c.index},
                                  {"questions", c.questions}, {"preset", c.preset}};
    config.update(toJson(c.params));
    const std::string name =
        c.runName.empty() ? "mcts " + std::filesystem::path(c.questions).filename().string() : c.runName;
    result.runId = store.beginRun(name, store::RunKind::Mcts, config.dump(), std::string(task.name()));

    MctsRunProgress progress;
    progress.runId = result.runId;
    progress.questions = static_cast<int>(records.size());
    double greedyF1 = 0, bestF1 = 0;
    try {
        for (size_t i = 0; i < records.size() && !result.stopped; ++i) {
            const task::Example &example = *records[i].example;
            progress.question = static_cast<int>(i) + 1;
            std::vector<store::Metric> metrics;
            if (c.greedy) {
                const GreedyResult g = greedyRollout(policy, example, c.params, result.greedyStats);
                result.greedyEm += g.em;
                greedyF1 += g.f1;
                metrics.push_back({"greedy/em", g.em});
                metrics.push_back({"greedy/f1", g.f1});
                metrics.push_back({"greedy/format", g.wellFormed ? 1.0 : 0.0});
            }
            SearchParams params = c.params;
            params.seed = c.params.seed + i; // each question its own streams, the same for a rerun
            int64_t treeId = 0;
            const SearchRecord record = runSearch(policy, example, params, result.stats, [&](const SearchRecord &r) {
                progress.iteration = static_cast<int>(r.iterations.size());
                progress.iterations = params.simulations;
                progress.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
                if ((progress.iteration == 1 || progress.iteration % c.writeEvery == 0) && progress.iteration < params.simulations)
                    treeId = store.writeMctsTree(result.runId, r, treeId);
                if (callback && !callback(progress)) {
                    result.stopped = true;
                    return false;
                }
                return true;
            });
            treeId = store.writeMctsTree(result.runId, record, treeId);
            const TreeSummary s = summarize(record, treeId);
            const Node *best = record.bestTerminal();
            const task::Steps &steps = policy.steps();
            const double em = best ? steps.answerScore(example, best->answer, "em") : 0.0;
            const double f1 = best ? steps.answerScore(example, best->answer, "f1") : 0.0;
            result.bestEm += em;
            bestF1 += f1;
            const double found =
                record.bestFoundScore([&](const std::string &answer) { return steps.answerScore(example, answer, "f1"); });
            result.foundF1 += found;
            metrics.push_back({"mcts/best_em", em});
            metrics.push_back({"mcts/best_f1", f1});
            metrics.push_back({"mcts/found_f1", found});
            metrics.push_back({"mcts/nodes", static_cast<double>(s.nodes)});
            metrics.push_back({"mcts/depth", static_cast<double>(s.depth)});
            store.writeStep(result.runId, static_cast<int64_t>(i) + 1, metrics, {}, {});
            ++result.questions;
            progress.meanBestF1 = bestF1 / result.questions;
            progress.meanGreedyF1 = greedyF1 / result.questions;
        }
    } catch (const std::exception &e) {
        store.finishRun(result.runId, store::RunStatus::Failed, e.what());
        throw;
    }
    const double n = result.questions > 0 ? result.questions : 1;
    result.greedyEm /= n;
    result.greedyF1 = greedyF1 / n;
    result.bestEm /= n;
    result.bestF1 = bestF1 / n;
    result.foundF1 /= n;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    store.finishRun(result.runId, result.stopped ? store::RunStatus::Stopped : store::RunStatus::Finished);
    return result;
}

} // namespace rwb::mcts
