#include "cli.h"
#include "commands.h"

#include "train/evaluation.h"
#include "train/sft.h"
#include "util/duration.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

const char *const kSftHelp = R"(rwb sft — supervised fine-tuning on a task's dataset

Usage: rwb sft --config C.json [--quiet]

The config (JSON; see docs/training.md):
  model, output, train_data          paths (relative to the config's folder)
  task                               the dataset's task (default company_extraction)
  thinking                           the paper's fig. 3 format (default false: fig. 2)
  lora, lora_r, lora_alpha, lora_dropout, lora_target_modules
                                     default LoRA r 8, α 32, dropout 0.05 on q/k/v/o
  learning_rate, weight_decay, max_grad_norm, schedule (constant_with_warmup | cosine),
  warmup_ratio, epochs, batch_size, gradient_accumulation, max_length
  control_tags, control_token_weight ProRAG eq. 1: λ on the tokens of these tags
  seed, dtype, device, threads, limit

Prints a progress line (step, loss, learning rate, tokens/s, ETA) on stderr and one JSON
object at the end: {"steps", "final_loss", "examples", "skipped_too_long", "seconds", "output"}.
)";

const char *const kEvalRunHelp = R"(rwb eval run — a model's metrics on a task's dataset (extraction: precision / recall / F1)

Usage: rwb eval run --model DIR [--adapter DIR] --data F.jsonl [--task T] [--thinking] [--limit N]
                    [--batch B] [--max-new-tokens N] [--output predictions.jsonl]
                    [--dtype D] [--device D] [--threads T]
                    [--retrieval-index F [--retrieval-top-k K] [--max-turns N] [--max-turn-tokens N]]

Generates greedily (temperature 0) for every line, B prompts at a time, parses each
completion as the task does (--task, default company_extraction: the answer, or the text
of the first <answer>…</answer> with --thinking), and prints one JSON object: the task's
metrics and counts (extraction: "precision", "recall", "f1", "n_output", "n_exist",
"n_tp"), then "examples", "mean_output_tokens", "seconds_per_sample". --output writes
every prediction as its dataset line with the model's output as "completion", which
rwb reward score and the workbench read.

A multi-step task (--task multihop) retrieves while it answers: generation pauses at each
</subquery>, the index's top K passages (default 2) are appended as a <retrieval> block and
generation resumes; --max-turns (default 6) and --max-turn-tokens (0: no limit) end runaway
completions, and --max-new-tokens counts the model's tokens only.
)";

int sft(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"config"}, {"quiet", "help"}});
    if (args.has("help")) {
        std::cout << kSftHelp;
        return kExitOk;
    }
    const train::SftConfig config = train::loadSftConfig(args.required("config"));
    const bool quiet = args.has("quiet");
    const train::SftResult r = train::runSft(config, [&](const train::SftProgress &p) {
        if (!quiet && p.step == 1 && p.precision)
            std::fprintf(stderr, "sft precision %s\n", p.precision->c_str());
        if (!quiet) {
            const double remaining = p.elapsedSeconds / p.step * (p.totalSteps - p.step);
            std::fprintf(stderr, "\rsft step %d/%d  loss %.4f  lr %.2e  %.0f tok/s  ETA %s   ", p.step, p.totalSteps,
                         p.loss, p.learningRate, p.tokensPerSecond, util::formatDuration(remaining).c_str());
            std::fflush(stderr);
        }
        return true;
    });
    if (!quiet)
        std::fprintf(stderr, "\n");
    nlohmann::ordered_json j;
    j["steps"] = r.steps;
    j["final_loss"] = r.finalLoss;
    j["examples"] = r.examples;
    j["skipped_too_long"] = r.skippedTooLong;
    j["seconds"] = r.seconds;
    j["precision"] = r.precision;
    j["output"] = config.output;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int evalRun(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "adapter", "data", "task", "limit", "batch", "max-new-tokens", "output", "dtype",
                            "device", "threads", "retrieval-index", "retrieval-top-k", "max-turns", "max-turn-tokens"},
                           {"thinking", "help"}});
    if (args.has("help")) {
        std::cout << kEvalRunHelp;
        return kExitOk;
    }
    train::EvaluationOptions o;
    o.model = args.required("model");
    o.data = args.required("data");
    o.task = args.value("task", o.task);
    o.thinking = args.has("thinking");
    o.limit = static_cast<int>(args.number("limit", 0));
    o.batch = static_cast<int>(args.number("batch", 8));
    if (o.batch < 1)
        throw UsageError{"--batch must be ≥ 1"};
    o.adapter = args.value("adapter");
    o.maxNewTokens = static_cast<int>(args.number("max-new-tokens", 0)); // 0: the evaluation's default
    o.output = args.value("output");
    o.dtype = args.value("dtype", "auto");
    o.device = args.value("device", "auto");
    o.threads = static_cast<int>(args.number("threads", 0));
    o.environment.source = "rwb eval run";
    o.environment.index = args.value("retrieval-index");
    o.environment.topK = static_cast<int>(args.number("retrieval-top-k", 2));
    o.environment.maxTurns = static_cast<int>(args.number("max-turns", 6));
    o.environment.maxTurnTokens = static_cast<int>(args.number("max-turn-tokens", 0));
    if (o.environment.topK < 1 || o.environment.maxTurns < 0 || o.environment.maxTurnTokens < 0)
        throw UsageError{"--retrieval-top-k must be ≥ 1, --max-turns and --max-turn-tokens ≥ 0"};
    const train::EvaluationResult r = train::runEvaluation(o, [](const train::EvaluationProgress &p) {
        std::fprintf(stderr, "\reval %zu/%zu", p.done, p.total);
        std::fflush(stderr);
        return true;
    });
    std::fprintf(stderr, "\n");
    nlohmann::ordered_json j;
    for (const auto &[name, value] : r.metrics)
        j[name] = value;
    for (const auto &[name, value] : r.counts)
        j[name] = value;
    j["examples"] = r.examples;
    j["mean_output_tokens"] = r.meanOutputTokens;
    j["seconds_per_sample"] = r.secondsPerSample;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace

int sftCommand(const std::vector<std::string> &args)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << kSftHelp;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    return guarded("sft", [&] { return sft(args); });
}

int evalRunCommand(const std::vector<std::string> &args)
{
    return evalRun(args);
}

} // namespace rwb::cli
