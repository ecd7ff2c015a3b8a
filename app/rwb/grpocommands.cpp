#include "cli.h"
#include "stopsignals.h"
#include "commands.h"

#include "distlaunch.h"

#include "dist/processgroup.h"
#include "data/jsonl.h"
#include "engine/job.h"
#include "eval/bootstrap.h"
#include "eval/revisits.h"
#include "eval/smoothing.h"
#include "model/precision.h"
#include "model/threads.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "tasks/user/usertask.h"
#include "train/grpo.h"
#include "util/duration.h"
#include "util/boundedjson.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace rwb::cli {

namespace {

namespace fs = std::filesystem;

const char *const kGrpoHelp = R"(rwb grpo — GRPO on the extraction task, every rollout kept in the run store

Usage: rwb grpo --config C.json [--quiet] [--resume CHECKPOINT_DIR] [--nproc N] [--control F.json]
       rwb grpo table --store S.sqlite [--run ID ...] [--markdown]

The config (JSON; every key in docs/training.md, defaults from the first paper's table 4):
  model, init_adapter, train_data, eval_data, reward_config, store, output, run_name
  num_generations (G, 8), prompts_per_step (8), temperature (1.0), top_p (1.0), top_k,
  max_completion_length (64)
  lora (true), lora_r (8), lora_alpha (32), lora_dropout (0.05), lora_target_modules,
  learning_rate (3e-5), weight_decay, max_grad_norm, schedule, warmup_ratio, max_steps,
  micro_batch
  loss_type (grpo | bnpo | dr_grpo | dapo), scale_rewards (group | batch | none),
  epsilon (0.2), epsilon_high (= epsilon), beta (0.0), num_iterations (μ, 1),
  mask_truncated_completions, overlong_penalty, overlong_cache, dynamic_sampling,
  max_sampling_rounds
  eval_every, eval_limit, eval_batch, eval_max_completion_length, checkpoint_every,
  seed, resume_from, dtype, precision (bf16), device, threads

Prints a progress line (step, reward, F1, tokens/s, ETA) on stderr and one JSON object at
the end: {"run_id", "status", "steps", "store", "output", "message", "metrics"}. Ctrl-C
or SIGTERM stops after the step in flight (with a checkpoint when checkpoint_every > 0); --resume
continues from a checkpoint folder. Exit 0 when finished or stopped, 1 when training
failed (a NaN loss names its step), 2 for a bad config.

--control F.json steers the run from outside, as the workbench does its own: whenever the
file's content changes, its keys apply at the next step boundary —
  {"weights": [w1, w2, …]}  new reward weights in the reward config's component order
                            (recorded in the store with the step they start at)
  {"pause": true | false}   wait at the boundary, or go on
  {"stop": true}            stop after the step in flight, as Ctrl-C does
Write it whole and rename it into place. A file that is not such JSON is reported on
stderr and ignored; the run goes on.

Data parallel (docs/scale.md): --nproc N runs N processes here, each sampling, scoring and
back-propagating its share of every step, their gradients summed over c10d (Gloo); or
start one process per rank yourself, or with torchrun, with RANK, WORLD_SIZE, MASTER_ADDR
and MASTER_PORT set. Every rank reads the same config; rank 0 alone writes the store, the
checkpoints and the final model, prints the progress line and the JSON. A rank that stops
stops the others with an error that names it; RWB_DIST_TIMEOUT (seconds, default 300)
bounds every wait for a peer.
)";

const char *const kGrpoStepHelp = R"(rwb bench grpo-step — where the time of a GRPO step goes

Usage: rwb bench grpo-step [--config C.json] [--steps N] [--work DIR] [--precision auto|bf16|fp32]
                           [--nproc N]

Without --config: makes the demo's setup in DIR (default: a temporary folder) — 600
synthetic e-mails, a byte-level BPE tokenizer of 1,024 tokens and the tiny default model
with random weights — and runs N GRPO steps (default 5) with the paper's G = 8 and
8 prompts per step. With --config: that run, max_steps set to N, its store and output
moved into DIR. --precision overrides the config's (default auto: bf16 only where this
machine runs it fast); the precision used and why go to stderr and into the JSON.
Prints one JSON object: the precision and its reason, seconds per step in each phase (generate, reward, prm (the
process reward model's forwards when the config names one), logprobs,
backward, optimizer, store, eval, checkpoint, communicate), their shares of the step, and
"reward_and_store_share" (target: under 5 %); "wall_seconds_per_step" is the steps' own
clock, "cpu_seconds_per_step" the CPU time this process spent in them, all its threads
together (a judge in another process, such as rwb serve, is not counted). --nproc N:
the same steps data parallel in N processes here (docs/scale.md), the figures rank 0's,
"communicate" the time spent sharing samples and gradients and waiting for the other
ranks there.
)";

const char *const kGrpoTableHelp = R"(rwb grpo table — evaluation results of GRPO runs, from the run store

Usage: rwb grpo table --store S.sqlite [--run ID ...] [--markdown]

For every GRPO run (or the --run ones) that evaluated (eval_every > 0): its start (the
evaluation at step 0, e.g. the SFT model) and its last evaluation, with its task's
summary metrics — company_extraction: precision, recall, F1 (the first paper's tables
1–3); legal_qa: citation precision, recall and F1, coverage, consistency, joint (the
legal-QA paper's table 1) — then the mean reward (the run's composite), mean output
tokens and seconds per sample; one table per task. The reward config is the one in
force at the run's first step.

Below the table, for each run evaluated at step 0 and later on the same examples: the
paired difference last − start of the mean reward (and of F1, for a task whose F1 is a
ratio of counts, as extraction's) on those examples, with a 95 % bootstrap interval (2,000
resamples of the examples, both checkpoints resampled together; eval/bootstrap.h), e.g.
  demo: step 0 → 100 on 500 examples: reward +0.061 [+0.048, +0.075], F1 +0.012 [-0.006, +0.030]

Then, for each run that trained at least 11 steps: its training reward (the mean over the
step's rollouts) smoothed as the workbench's curves smooth it — a debiased exponential
moving average over 10 steps (weight 0.9; eval/smoothing.h) — at step 10 and at the last
step, e.g.
  demo: training reward (EMA over 10 steps) 0.489 at step 10 → 0.612 at step 300 (+0.123)
)";

// One evaluated checkpoint: its task's summary metrics (Task::summaryMetrics), then the
// mean reward, output tokens and seconds per sample.
struct EvalRow {
    std::string label;
    std::string task;
    std::vector<double> metrics;
    double reward = 0, tokens = 0, seconds = 0;
};

// One evaluated checkpoint's per-example composite reward and, for a task whose F1 is a
// ratio of counts, the example's counts, by example id.
struct ScoredExample {
    double reward = 0.0;
    std::optional<eval::F1Counts> f1;
};

// The counts a set F1 is a ratio of, when a task's metrics report them for one example
// (MetricSet::counts: n_output, n_exist, n_tp; P = tp / output, R = tp / exist).
std::optional<eval::F1Counts> f1Counts(const std::vector<std::pair<std::string, int64_t>> &counts)
{
    std::optional<int64_t> output, exist, tp;
    for (const auto &[name, n] : counts) {
        if (name == "n_output")
            output = n;
        else if (name == "n_exist")
            exist = n;
        else if (name == "n_tp")
            tp = n;
    }
    if (!output || !exist || !tp)
        return std::nullopt;
    return eval::F1Counts{*output == 1, *exist == 1, *tp == 1};
}

std::map<std::string, ScoredExample> scoredExamples(const store::RunStore &s, int64_t runId, int64_t step,
                                                    const reward::RewardConfig &config, const task::Task &task)
{
    std::map<std::string, ScoredExample> out;
    for (const store::StoredEvalPrediction &sp : s.evalPredictions(runId, step)) {
        const store::EvalPrediction &p = sp.prediction;
        ScoredExample e;
        const auto components = util::parseJsonOrDiscarded(p.rewardsJson);
        // As CompositeReward::combine: a component of weight 0 counts for nothing, one a
        // judge could not give (null, None) makes the total None.
        double num = 0.0, den = 0.0;
        bool none = false;
        for (const reward::RewardComponent &c : config.components)
            if (c.weight != 0.0 && components.is_object() && components.contains(c.label())) {
                const nlohmann::json &v = components[c.label()];
                if (!v.is_number()) {
                    none = true;
                    continue;
                }
                num += c.weight * v.get<double>();
                den += c.weight;
            }
        e.reward = none ? std::nan("") : den > 0.0 ? num / den : 0.0;
        // The example's counts, from the gold the store kept (a task that cannot score
        // without the example's input has none).
        if (const std::shared_ptr<const task::Example> example = task.exampleFromGold(p.gold)) {
            const std::unique_ptr<task::MetricSet> one = task.metrics();
            one->add(*example, *task.parse(*example, p.prediction, config.thinking));
            e.f1 = f1Counts(one->counts());
        }
        out[p.exampleId] = e;
    }
    return out;
}

std::string signedNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.3f", v);
    return buf;
}

// "step 0 → 100 on 500 examples: reward +0.061 [+0.048, +0.075], F1 …", or "" when the run
// has no two evaluations of the same examples.
std::string pairedComparison(const store::RunStore &s, int64_t runId, int64_t from, int64_t to,
                             const reward::RewardConfig &config, const task::Task &task)
{
    const auto a = scoredExamples(s, runId, from, config, task);
    const auto b = scoredExamples(s, runId, to, config, task);
    std::vector<double> ra, rb;
    std::vector<eval::F1Counts> fa, fb;
    bool counts = true; // every joined example has F1 counts at both checkpoints
    for (const auto &[id, x] : a)
        if (auto it = b.find(id); it != b.end() && !std::isnan(x.reward) && !std::isnan(it->second.reward)) {
            ra.push_back(x.reward);
            rb.push_back(it->second.reward);
            counts = counts && x.f1 && it->second.f1;
            if (counts) {
                fa.push_back(*x.f1);
                fb.push_back(*it->second.f1);
            }
        }
    if (ra.empty())
        return {};
    const eval::Interval dr = eval::pairedMeanDifference(ra, rb);
    std::string line = "step " + std::to_string(from) + " → " + std::to_string(to) + " on " + std::to_string(ra.size()) +
                       " examples: reward " + signedNumber(dr.estimate) + " [" + signedNumber(dr.low) + ", " +
                       signedNumber(dr.high) + "]";
    if (counts) { // F1 is a ratio of counts: resampled as counts
        const eval::Interval df = eval::pairedF1Difference(fa, fb);
        line += ", F1 " + signedNumber(df.estimate) + " [" + signedNumber(df.low) + ", " + signedNumber(df.high) + "]";
    }
    return line;
}

std::string shortNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

int grpoTable(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "run"}, {"markdown", "help"}});
    if (args.has("help")) {
        std::cout << kGrpoTableHelp;
        return kExitOk;
    }
    const std::string path = args.required("store");
    if (!fs::exists(path))
        throw data::InputException({path, 0, "no such run store"});
    const store::RunStore s(path, store::RunStore::OpenMode::ReadOnly);
    std::vector<int64_t> ids;
    for (const std::string &v : args.values("run"))
        ids.push_back(std::stoll(v));
    if (ids.empty())
        for (const store::RunInfo &r : s.runs())
            if (r.kind == "grpo")
                ids.push_back(r.id);
    std::vector<EvalRow> rows;
    std::vector<std::string> comparisons;
    std::vector<std::string> rises;
    for (int64_t id : ids) {
        const store::RunInfo run = s.run(id);
        std::string rewardName = "?";
        const auto configs = s.rewardConfigs(id);
        std::optional<reward::RewardConfig> firstConfig;
        if (!configs.empty()) {
            try {
                firstConfig = reward::parseRewardConfig(configs.front().configJson, path, task::Catalog::builtin().rewards());
            } catch (const data::InputException &) {
                // a component this build does not know: no paired comparison for this run
            }
            const auto j = util::parseJsonOrDiscarded(configs.front().configJson);
            if (j.is_object()) {
                rewardName.clear();
                for (const auto &c : j.value("components", nlohmann::json::array()))
                    rewardName += (rewardName.empty() ? "" : " + ") +
                                  c.value("name", c.value("reward", std::string("?"))) + " " +
                                  shortNumber(c.value("weight", 0.0));
            }
        }
        {
            constexpr int kEmaSteps = 10;
            std::vector<int64_t> steps;
            std::vector<double> values;
            for (const store::MetricPoint &m : s.metrics(id, "reward"))
                if (m.step > 0) {
                    steps.push_back(m.step);
                    values.push_back(m.value);
                }
            if (const auto r = eval::emaRise(steps, values, eval::emaWeightForSteps(kEmaSteps), kEmaSteps)) {
                char line[256];
                std::snprintf(line, sizeof line, "%.3f at step %lld → %.3f at step %lld (%+.3f)", r->from,
                              static_cast<long long>(r->fromStep), r->to, static_cast<long long>(r->toStep), r->rise());
                rises.push_back(run.name + ": training reward (EMA over " + std::to_string(kEmaSteps) + " steps) " + line);
            }
            // The same prompts early and late: free of how hard the first and last steps' prompts were.
            std::vector<eval::PromptVisit> visits;
            store::RolloutFilter filter;
            filter.runId = id;
            int64_t after = 0;
            for (;;) {
                const store::RolloutPage page = s.rollouts(filter, after, 5000);
                for (const store::StoredRollout &r : page.rows)
                    if (!std::isnan(r.rollout.reward)) // None: a judge gave nothing to compare
                        visits.push_back({r.rollout.promptId, r.step, r.rollout.reward});
                if (!page.more)
                    break;
                after = page.nextAfterId;
            }
            if (const auto r = eval::revisitRise(visits)) {
                char line[256];
                std::snprintf(line, sizeof line, "%.3f at their first draw → %.3f at their last (%+.3f [%+.3f, %+.3f])",
                              r->first, r->last, r->difference.estimate, r->difference.low, r->difference.high);
                rises.push_back(run.name + ": training reward on the " + std::to_string(r->prompts) +
                                " prompts drawn more than once " + line);
            }
        }
        std::map<int64_t, EvalRow> byStep;
        // "": the default task; a user's task is installed from the run's stored config.
        std::vector<std::string> storedConfigs{run.configJson};
        for (const store::RewardConfigVersion &v : s.rewardConfigs(id))
            storedConfigs.push_back(v.configJson);
        const task::Task *task = task::findOrInstallTask(run.task, storedConfigs);
        const std::string taskName = task ? std::string(task->name()) : run.task;
        if (!task) {
            std::cerr << path << ": run " << id << " is of the task \"" << taskName
                      << "\", which this build does not have: left out\n";
            continue;
        }
        const std::vector<std::string> names = task->summaryMetrics();
        for (size_t i = 0; i < names.size(); ++i)
            for (const store::MetricPoint &m : s.metrics(id, "eval/" + names[i])) {
                EvalRow &row = byStep[m.step];
                row.task = taskName;
                row.metrics.resize(names.size());
                row.metrics[i] = m.value;
            }
        const std::pair<const char *, double EvalRow::*> fields[] = {{"eval/reward", &EvalRow::reward},
                                                                    {"eval/mean_output_tokens", &EvalRow::tokens},
                                                                    {"eval/seconds_per_sample", &EvalRow::seconds}};
        for (const auto &[name, field] : fields)
            for (const store::MetricPoint &m : s.metrics(id, name)) {
                EvalRow &row = byStep[m.step];
                row.task = taskName;
                row.metrics.resize(names.size());
                row.*field = m.value;
            }
        if (byStep.empty())
            continue;
        if (byStep.begin()->first == 0 && byStep.size() > 1) {
            EvalRow start = byStep.begin()->second;
            start.label = run.name + ": start (step 0)";
            rows.push_back(start);
            if (firstConfig) {
                const std::string c = pairedComparison(s, id, 0, byStep.rbegin()->first, *firstConfig, *task);
                if (!c.empty())
                    comparisons.push_back(run.name + ": " + c);
            }
        }
        EvalRow last = byStep.rbegin()->second;
        last.label = run.name + ": GRPO " + rewardName + " (step " + std::to_string(byStep.rbegin()->first) + ")";
        rows.push_back(last);
    }
    if (rows.empty())
        throw data::InputException({path, 0, "no GRPO run with evaluations (set eval_every and eval_data)"});
    const bool md = args.has("markdown");
    size_t width = 5;
    for (const auto &r : rows)
        width = std::max(width, r.label.size());
    char buf[512];
    // One table per task (its own metric columns), in the order the runs come.
    std::vector<std::string> tasks;
    for (const auto &r : rows)
        if (std::find(tasks.begin(), tasks.end(), r.task) == tasks.end())
            tasks.push_back(r.task);
    for (const std::string &taskName : tasks) {
        std::vector<std::string> columns = task::Catalog::builtin().get(taskName, path, "task").summaryMetrics();
        for (std::string &c : columns)
            if (c == "f1")
                c = "F1";
        if (tasks.size() > 1 || taskName != task::Catalog::builtin().find("")->name())
            std::cout << (&taskName == &tasks.front() ? "" : "\n") << (md ? "Task " : "task ") << taskName << ":\n";
        if (md) {
            std::cout << "| model |";
            for (const std::string &c : columns)
                std::cout << ' ' << c << " |";
            std::cout << " mean reward | mean output tokens | s / sample |\n| --- |";
            for (size_t i = 0; i < columns.size() + 3; ++i)
                std::cout << " ---: |";
            std::cout << '\n';
        } else {
            std::snprintf(buf, sizeof buf, "%-*s", static_cast<int>(width), "model");
            std::cout << buf;
            for (const std::string &c : columns) {
                std::snprintf(buf, sizeof buf, " %*s", static_cast<int>(std::max<size_t>(9, c.size())), c.c_str());
                std::cout << buf;
            }
            std::snprintf(buf, sizeof buf, " %9s %9s %10s\n", "reward", "tokens", "s/sample");
            std::cout << buf;
        }
        for (const auto &r : rows) {
            if (r.task != taskName)
                continue;
            if (md) {
                std::cout << "| " << r.label << " |";
                for (double v : r.metrics) {
                    std::snprintf(buf, sizeof buf, " %.3f |", v);
                    std::cout << buf;
                }
                std::snprintf(buf, sizeof buf, " %.3f | %.1f | %.4f |\n", r.reward, r.tokens, r.seconds);
            } else {
                std::snprintf(buf, sizeof buf, "%-*s", static_cast<int>(width), r.label.c_str());
                std::cout << buf;
                for (size_t i = 0; i < r.metrics.size(); ++i) {
                    std::snprintf(buf, sizeof buf, " %*.3f", static_cast<int>(std::max<size_t>(9, columns[i].size())), r.metrics[i]);
                    std::cout << buf;
                }
                std::snprintf(buf, sizeof buf, " %9.3f %9.1f %10.4f\n", r.reward, r.tokens, r.seconds);
            }
            std::cout << buf;
        }
    }
    if (!comparisons.empty()) {
        std::cout << (md ? "\n" : "") << "Paired difference, last − start, with its 95 % bootstrap interval (2,000 resamples):\n";
        for (const std::string &c : comparisons)
            std::cout << (md ? "- " : "  ") << c << '\n';
    }
    if (!rises.empty()) {
        std::cout << (md ? "\n" : "") << "Training reward over the run, smoothed as the curves view smooths it:\n";
        for (const std::string &r : rises)
            std::cout << (md ? "- " : "  ") << r << '\n';
    }
    return kExitOk;
}

// `rwb grpo --control F`: whenever F's content changes, its keys become JobControl calls.
// Read by the watcher thread every 100 ms; a content that does not parse is reported once.
class ControlFile {
public:
    // `components`: the reward config's component names, to check a weights array's length
    // against (empty: not known, the trainer checks).
    ControlFile(std::string path, engine::JobControl &control, std::vector<std::string> components)
        : m_path(std::move(path)), m_control(control), m_components(std::move(components))
    {
    }
    void poll()
    {
        if (m_path.empty())
            return;
        std::ifstream in(m_path, std::ios::binary);
        if (!in)
            return; // not written yet
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text == m_last)
            return;
        m_last = text;
        try {
            const nlohmann::json j = util::parseJson(text);
            if (!j.is_object())
                throw std::invalid_argument("expected a JSON object");
            for (const auto &[key, value] : j.items())
                if (key != "weights" && key != "pause" && key != "stop")
                    throw std::invalid_argument("unknown key \"" + key + "\" (weights, pause, stop)");
            if (j.contains("weights")) {
                const nlohmann::json &w = j.at("weights");
                if (!w.is_array() || w.empty())
                    throw std::invalid_argument("weights: expected an array of numbers");
                std::vector<double> weights;
                for (const nlohmann::json &x : w) {
                    if (!x.is_number())
                        throw std::invalid_argument("weights: expected an array of numbers");
                    weights.push_back(x.get<double>());
                }
                if (!m_components.empty() && weights.size() != m_components.size()) {
                    std::string names;
                    for (const std::string &c : m_components)
                        names += (names.empty() ? "" : ", ") + c;
                    throw std::invalid_argument("weights: " + std::to_string(weights.size()) + " numbers for " +
                                                std::to_string(m_components.size()) + " components (" + names + ")");
                }
                m_control.setRewardWeights(weights);
            }
            if (j.contains("pause")) {
                if (!j.at("pause").is_boolean())
                    throw std::invalid_argument("pause: expected true or false");
                j.at("pause").get<bool>() ? m_control.pause() : m_control.resume();
            }
            if (j.contains("stop")) {
                if (!j.at("stop").is_boolean())
                    throw std::invalid_argument("stop: expected true or false");
                if (j.at("stop").get<bool>()) {
                    m_control.stop();
                    std::fprintf(stderr, "\n%s: stopping after the step in flight…\n", m_path.c_str());
                }
            }
        } catch (const std::exception &e) {
            std::string message = e.what();
            if (const auto *pe = dynamic_cast<const nlohmann::json::parse_error *>(&e))
                message = "not valid JSON (byte " + std::to_string(pe->byte) + ")";
            std::fprintf(stderr, "\n%s: %s; ignored, the run goes on\n", m_path.c_str(), message.c_str());
        }
    }

private:
    std::string m_path;
    engine::JobControl &m_control;
    std::vector<std::string> m_components;
    std::string m_last;
};

// Prints the progress line and keeps the last metrics.
class TerminalSink : public engine::EventSink {
public:
    // `headline`: the task's headline metric ("f1"), shown as the last evaluation's value.
    TerminalSink(bool quiet, std::string headline) : m_quiet(quiet), m_headline(std::move(headline)) {}
    void started(int64_t runId, int64_t totalSteps) override
    {
        // A reader of the JSON progress learns the run before its first step ends.
        if (jsonProgress() && !m_quiet)
            printJsonProgress(0, totalSteps, "started", nlohmann::ordered_json(), {{"run_id", runId}});
    }
    void step(const engine::StepReport &r) override
    {
        for (const auto &[name, value] : r.metrics) {
            m_last[name] = value;
            if (name == "eval/" + m_headline)
                m_f1 = value;
        }
        if (jsonProgress() && !m_quiet) {
            nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
            for (const auto &[name, value] : r.metrics)
                metrics[name] = value;
            char detail[96];
            std::snprintf(detail, sizeof detail, "reward %.3f, %.0f tokens/s", m_last.value("reward", 0.0),
                          r.tokensPerSecond);
            printJsonProgress(r.step, r.totalSteps, detail, metrics,
                              {{"eta_seconds", r.etaSeconds}, {"run_id", r.runId}});
            return;
        }
        if (m_quiet)
            return;
        char f1[32] = "-";
        if (m_f1 >= 0.0)
            std::snprintf(f1, sizeof f1, "%.3f", m_f1);
        const std::string label = m_headline == "f1" ? "F1" : m_headline;
        std::fprintf(stderr, "\rgrpo step %lld/%lld  reward %.3f  %s %s  %.0f tok/s  ETA %s   ",
                     static_cast<long long>(r.step), static_cast<long long>(r.totalSteps), m_last.value("reward", 0.0),
                     label.c_str(), f1, r.tokensPerSecond, util::formatDuration(r.etaSeconds).c_str());
        std::fflush(stderr);
    }
    void log(const std::string &line) override
    {
        if (!m_quiet)
            std::fprintf(stderr, "\n%s\n", line.c_str());
    }
    void weightsChanged(int64_t atStep, const std::vector<double> &) override
    {
        log("reward weights changed at step " + std::to_string(atStep));
    }
    nlohmann::ordered_json m_last = nlohmann::ordered_json::object();

private:
    bool m_quiet;
    std::string m_headline;
    double m_f1 = -1.0;
};

int grpo(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config", "resume", "nproc", "control"}, {"quiet", "help"}});
    if (args.has("help")) {
        std::cout << kGrpoHelp;
        return kExitOk;
    }
    const std::string controlFile = args.value("control", "");
    const int nproc = nprocOption(args);
    if (nproc > 1) {
        train::loadGrpoConfig(args.required("config")); // a bad config fails here, once, not in every rank
        const std::vector<std::string> rank0Args = withoutOptions(argv, {"--nproc"});
        std::vector<std::string> childArgs{"grpo"};
        childArgs.insert(childArgs.end(), rank0Args.begin(), rank0Args.end());
        return launchRanks(childArgs, nproc, [&] { return guarded("grpo", [&] { return grpo(rank0Args); }); });
    }
    // One rank of a group the environment describes (--nproc's children, torchrun's).
    std::unique_ptr<dist::ProcessGroup> group;
    if (const std::optional<dist::Rendezvous> r = dist::rendezvousFromEnvironment(); r && r->worldSize > 1)
        group = std::make_unique<dist::ProcessGroup>(*r);
    const int rank = group ? group->rank() : 0;
    train::GrpoConfig config = train::loadGrpoConfig(args.required("config"));
    if (args.has("resume"))
        config.resumeFrom = args.value("resume");
    // The progress line shows the task's headline metric (the reward config names the task;
    // a config that does not load fails in runGrpo with its own message).
    std::string headline = "f1";
    std::vector<std::string> components;
    try {
        const reward::RewardConfig rc = train::rewardConfigOf(config, task::Catalog::builtin().rewards());
        if (const task::Task *t = task::Catalog::builtin().find(rc.task))
            headline = std::string(t->headlineMetric());
        for (const reward::RewardComponent &c : rc.components)
            components.push_back(c.label());
    } catch (const std::exception &) {
    }
    TerminalSink sink(args.has("quiet") || rank != 0, headline);
    engine::JobControl control;
    // Ctrl-C and SIGTERM stop after the step in flight; a watcher thread turns the flag
    // into a stop request.
    StopSignals signals;
    std::atomic<bool> done{false};
    // Rank 0's control decides for the group, so only rank 0 reads the control file.
    ControlFile steering(rank == 0 ? controlFile : std::string(), control, components);
    std::thread watcher([&] {
        while (!done.load()) {
            if (signals.takeRequest()) {
                control.stop();
                std::fprintf(stderr, "\n%s: stopping after the step in flight…\n", signals.lastSignal());
            }
            steering.poll();
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    engine::JobOutcome outcome;
    auto restore = [&] {
        done = true;
        watcher.join();
    };
    try {
        outcome = group ? train::runGrpo(config, task::Catalog::builtin(), control, sink, *group)
                        : train::runGrpo(config, control, sink);
    } catch (...) {
        restore();
        throw;
    }
    restore();
    if (rank != 0) {
        if (outcome.status == engine::JobStatus::Failed) {
            printError("grpo: " + outcome.message);
            return kExitFailure;
        }
        return kExitOk;
    }
    if (!args.has("quiet"))
        std::fprintf(stderr, "\n");
    nlohmann::ordered_json j;
    j["run_id"] = outcome.runId;
    j["status"] = engine::toString(outcome.status);
    j["steps"] = outcome.lastStep;
    j["store"] = config.store;
    j["output"] = config.output;
    j["message"] = outcome.message;
    j["metrics"] = sink.m_last;
    std::cout << j.dump() << std::endl;
    if (outcome.status == engine::JobStatus::Failed) {
        printError("grpo: " + outcome.message);
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

int grpoCommand(const std::vector<std::string> &args)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << kGrpoHelp;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    if (args[0] == "table")
        return guarded("grpo table", [&] { return grpoTable({args.begin() + 1, args.end()}); });
    return guarded("grpo", [&] { return grpo(args); });
}

int grpoStepBench(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config", "steps", "work", "precision", "nproc"}, {"help"}});
    if (args.has("help")) {
        std::cout << kGrpoStepHelp;
        return kExitOk;
    }
    const int nproc = nprocOption(args);
    // A rank of a group (--nproc's children): rank 0 alone writes the store and prints.
    std::unique_ptr<dist::ProcessGroup> group;
    if (nproc == 1)
        if (const std::optional<dist::Rendezvous> r = dist::rendezvousFromEnvironment(); r && r->worldSize > 1)
            group = std::make_unique<dist::ProcessGroup>(*r);
    const int rank = group ? group->rank() : 0;
    const int steps = static_cast<int>(args.number("steps", 5));
    if (steps < 1)
        throw UsageError{"--steps must be ≥ 1"};
    fs::path work = args.value("work");
    if (work.empty())
        work = fs::temp_directory_path() / ("rwb-bench-grpo-" + std::to_string(::getpid()));
    fs::create_directories(work);
    train::GrpoConfig c;
    if (args.has("config")) {
        c = train::loadGrpoConfig(args.value("config"));
    } else {
        const std::string w = work.string();
        // The set-up commands' own JSON lines would come before the benchmark's one object
        // on standard output: they go nowhere (their errors still reach stderr).
        auto quietly = [](const std::function<int(const std::vector<std::string> &)> &cmd,
                          const std::vector<std::string> &a) {
            std::ostringstream discarded;
            std::streambuf *const stdoutBuffer = std::cout.rdbuf(discarded.rdbuf());
            int rc = kExitFailure;
            try {
                rc = cmd(a);
            } catch (...) {
                std::cout.rdbuf(stdoutBuffer);
                throw;
            }
            std::cout.rdbuf(stdoutBuffer);
            if (rc != kExitOk)
                throw std::runtime_error("bench set-up failed");
        };
        if (!fs::exists(work / "tiny/config.json")) {
            quietly(dataCommand, {"synth", "--task", std::string(task::Catalog::builtin().find("")->name()), "--n", "600", "--seed", "7", "--split",
                                  "train", "--out", w + "/train.jsonl"});
            quietly(dataCommand, {"corpus", "--input", w + "/train.jsonl", "--out", w + "/corpus.txt"});
            quietly(tokenizerCommand, {"train", "--input", w + "/corpus.txt", "--vocab-size", "1024", "--out", w + "/tok"});
            quietly(modelCommand, {"init", "--tokenizer", w + "/tok", "--out", w + "/tiny", "--seed", "1"});
        }
        c.model = w + "/tiny";
        c.trainData = w + "/train.jsonl";
        c.rewardConfig = findResource("presets/table2_star_partial20_marker80.json");
        c.maxNewTokens = 32;
    }
    if (args.has("precision")) {
        c.precision = args.value("precision");
        if (c.precision != "auto" && c.precision != "bf16" && c.precision != "fp32")
            throw UsageError{"--precision must be auto, bf16 or fp32"};
    }
    if (nproc > 1) {
        // The set-up above is made once, here; the ranks find it in the same folder.
        std::vector<std::string> childArgs{"bench", "grpo-step", "--work", work.string()};
        for (const std::string &a : withoutOptions(argv, {"--nproc", "--work"}))
            childArgs.push_back(a);
        const std::vector<std::string> rank0Args(childArgs.begin() + 2, childArgs.end());
        return launchRanks(childArgs, nproc,
                           [&] { return guarded("bench grpo-step", [&] { return grpoStepBench(rank0Args); }); });
    }
    const model::PrecisionChoice precision = model::resolvePrecision(c.precision, c.device);
    if (rank == 0)
        std::cerr << "precision " << precision.name() << ": " << precision.reason << std::endl;
    c.store = (work / "bench.sqlite").string();
    c.output = (work / "run").string();
    c.maxSteps = steps;
    c.evalEvery = 0;
    c.checkpointEvery = 0;
    c.resumeFrom.clear();
    if (rank == 0)
        fs::remove(c.store);
    engine::EventSink sink;
    engine::JobControl control;
    train::GrpoRunResult result;
    const engine::JobOutcome outcome = group ? train::runGrpo(c, task::Catalog::builtin(), control, sink, *group, &result)
                                             : train::runGrpo(c, control, sink, &result);
    if (outcome.status == engine::JobStatus::Failed)
        throw std::runtime_error(outcome.message);
    if (rank != 0)
        return kExitOk;
    const train::GrpoTimings &t = result.timings;
    const double n = std::max(1, t.steps);
    const double total = t.generate + t.reward + t.prm + t.logprobs + t.backward + t.optimizer + t.store + t.eval +
                         t.checkpoint + t.communicate;
    nlohmann::ordered_json j;
    j["precision"] = precision.name();
    j["precision_reason"] = precision.reason;
    const model::ThreadsChoice threads = model::resolveThreads(c.threads);
    j["threads"] = threads.threads;
    j["threads_reason"] = threads.reason;
    // How the threads were used: micro-batches side by side or each operation spread.
    j["thread_split"] = c.threadSplit;
    j["processes"] = group ? group->worldSize() : 1;
    j["steps"] = t.steps;
    j["rows_per_step"] = c.groupSize * c.promptsPerStep;
    j["seconds_per_step"] = total / n;
    j["wall_seconds_per_step"] = t.wall / n;
    // What a step cost this process's cores (2 threads busy for a second: 2 s); a judge
    // served by another process (rwb serve) is not in it.
    j["cpu_seconds_per_step"] = t.cpu / n;
    nlohmann::ordered_json phases, shares;
    // "prm": the process reward model's forwards (dual-granularity advantages; 0 without "prm").
    const std::pair<const char *, double> parts[] = {{"generate", t.generate}, {"reward", t.reward},
                                                     {"prm", t.prm},           {"logprobs", t.logprobs},
                                                     {"backward", t.backward}, {"optimizer", t.optimizer},
                                                     {"store", t.store},       {"communicate", t.communicate}};
    for (const auto &[name, value] : parts) {
        phases[name] = value / n;
        shares[name] = total > 0 ? value / total : 0.0;
    }
    j["seconds"] = phases;
    j["share"] = shares;
    j["reward_and_store_share"] = total > 0 ? (t.reward + t.store) / total : 0.0;
    j["target_share"] = 0.05;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace rwb::cli
