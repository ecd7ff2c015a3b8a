#include "cli.h"
#include "commands.h"

#include "data/extractionrecord.h"
#include "data/jsonl.h"
#include "eval/extractionmetrics.h"
#include "model/causallm.h"
#include "reward/extraction.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/sft.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

const char *const kSftHelp = R"(rwb sft — supervised fine-tuning on the extraction task

Usage: rwb sft --config C.json [--quiet]

The config (JSON; see docs/training.md):
  model, output, train_data          paths (relative to the config's folder)
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

const char *const kEvalRunHelp = R"(rwb eval run — a model's precision / recall / F1 on an extraction dataset

Usage: rwb eval run --model DIR [--adapter DIR] --data F.jsonl [--thinking] [--limit N]
                    [--batch B] [--max-new-tokens N] [--output predictions.jsonl]
                    [--dtype D] [--device D] [--threads T]

Generates greedily (temperature 0) for every line, B prompts at a time, extracts the
answer (the text of the first <answer>…</answer> with --thinking), and prints one JSON
object: {"precision", "recall", "f1", "n_output", "n_exist", "n_tp", "examples",
"mean_output_tokens", "seconds_per_sample"}. --output writes every prediction as an
extraction line (the model's output as "completion"), which rwb reward score and the
workbench read.
)";

std::string eta(double seconds)
{
    char buf[32];
    const int s = static_cast<int>(seconds);
    std::snprintf(buf, sizeof buf, "%d:%02d", s / 60, s % 60);
    return buf;
}

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
        if (!quiet) {
            const double remaining = p.elapsedSeconds / p.step * (p.totalSteps - p.step);
            std::fprintf(stderr, "\rsft step %d/%d  loss %.4f  lr %.2e  %.0f tok/s  ETA %s   ", p.step, p.totalSteps,
                         p.loss, p.learningRate, p.tokensPerSecond, eta(remaining).c_str());
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
    j["output"] = config.output;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int evalRun(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "adapter", "data", "limit", "batch", "max-new-tokens", "output", "dtype", "device",
                            "threads"},
                           {"thinking", "help"}});
    if (args.has("help")) {
        std::cout << kEvalRunHelp;
        return kExitOk;
    }
    const std::string dir = args.required("model");
    const std::string dataPath = args.required("data");
    const bool thinking = args.has("thinking");
    const int limit = static_cast<int>(args.number("limit", 0));
    const int batch = static_cast<int>(args.number("batch", 8));
    if (batch < 1)
        throw UsageError{"--batch must be ≥ 1"};
    data::ExtractionReadOptions ro;
    ro.requireCompletion = false;
    std::vector<data::ExtractionRecord> records = data::readExtractionJsonl(dataPath, ro).records;
    if (limit > 0 && static_cast<int>(records.size()) > limit)
        records.resize(static_cast<size_t>(limit));
    if (records.empty())
        throw data::InputException({dataPath, 0, "no example"});

    const auto tokenizer = tokenizer::loadTokenizer(dir);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(dir, *tokenizer);
    model::ModelOptions mo;
    mo.dtype = args.value("dtype", "auto");
    mo.device = args.value("device", "auto");
    mo.threads = static_cast<int>(args.number("threads", 0));
    auto lm = model::CausalLM::load(dir, mo);
    if (args.has("adapter"))
        lm->loadAdapter(args.value("adapter"));

    model::SamplingOptions so;
    so.temperature = 0.0;
    so.maxNewTokens = static_cast<int>(args.number("max-new-tokens", thinking ? 256 : 48));
    so.stopTokens = format.stopTokenIds(*tokenizer);
    so.padToken = tokenizer->padId().value_or(tokenizer->eosId().value_or(0));
    so.vocabLimit = tokenizer->vocabSize();

    std::ofstream out;
    const std::string outputPath = args.value("output");
    if (!outputPath.empty()) {
        out.open(outputPath + ".part", std::ios::binary | std::ios::trunc);
        if (!out)
            throw data::InputException({outputPath, 0, "cannot write"});
    }
    eval::ExtractionScorer scorer;
    double outputTokens = 0.0;
    const auto start = std::chrono::steady_clock::now();
    for (size_t from = 0; from < records.size(); from += static_cast<size_t>(batch)) {
        const size_t to = std::min(records.size(), from + static_cast<size_t>(batch));
        std::vector<std::vector<int32_t>> prompts;
        for (size_t i = from; i < to; ++i)
            prompts.push_back(tokenizer->encode(format.extractionPrompt(records[i].senderEmail, records[i].emailText, thinking)));
        const model::Generation g = lm->generate(prompts, 1, so);
        for (size_t i = from; i < to; ++i) {
            std::vector<int32_t> ids = g.tokens[i - from];
            outputTokens += static_cast<double>(ids.size());
            if (!ids.empty() && !g.truncated[i - from])
                ids.pop_back();
            data::ExtractionRecord pred = records[i];
            pred.completion = tokenizer->decode(ids, /*skipSpecial=*/true);
            scorer.add(reward::extractAnswer(pred.completion, thinking), pred.gold);
            if (out.is_open())
                out << data::toJsonLine(pred) << '\n';
        }
        std::fprintf(stderr, "\reval %zu/%zu", to, records.size());
        std::fflush(stderr);
    }
    std::fprintf(stderr, "\n");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (out.is_open()) {
        out.close();
        std::filesystem::rename(outputPath + ".part", outputPath);
    }
    const eval::ExtractionMetrics m = scorer.result();
    nlohmann::ordered_json j = metricsJson(m);
    j["examples"] = records.size();
    j["mean_output_tokens"] = outputTokens / static_cast<double>(records.size());
    j["seconds_per_sample"] = seconds / static_cast<double>(records.size());
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
