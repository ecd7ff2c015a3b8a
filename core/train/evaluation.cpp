#include "train/evaluation.h"

#include "data/jsonl.h"
#include "model/causallm.h"
#include "task/catalog.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/environmentrollout.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace rwb::train {

EvaluationResult runEvaluation(const EvaluationOptions &options, const EvaluationCallback &callback)
{
    return runEvaluation(options, task::Catalog::builtin(), callback);
}

EvaluationResult runEvaluation(const EvaluationOptions &options, const task::Catalog &catalog,
                               const EvaluationCallback &callback)
{
    if (options.batch < 1)
        throw data::InputException({options.data, 0, "batch must be ≥ 1"});
    const task::Task &task = catalog.get(options.task, options.data, "task");
    task::ReadOptions ro;
    ro.limit = options.limit > 0 ? static_cast<size_t>(options.limit) : 0;
    const std::vector<task::Record> records = task.read(options.data, ro);

    const auto tokenizer = tokenizer::loadTokenizer(options.model);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(options.model, *tokenizer);
    model::ModelOptions mo;
    mo.dtype = options.dtype;
    mo.device = options.device;
    mo.threads = options.threads;
    auto lm = model::CausalLM::load(options.model, mo);
    if (!options.adapter.empty())
        lm->loadAdapter(options.adapter);

    const bool thinking = options.thinking;
    const std::unique_ptr<task::Environment> environment = task.environment(options.environment);
    RolloutOptions rollout;
    model::SamplingOptions &so = rollout.sampling;
    so.temperature = 0.0;
    so.maxNewTokens = options.maxNewTokens > 0 ? options.maxNewTokens : (thinking ? 256 : 48);
    so.stopTokens = format.stopTokenIds(*tokenizer);
    so.padToken = tokenizer->padId().value_or(tokenizer->eosId().value_or(0));
    so.vocabLimit = tokenizer->vocabSize();
    rollout.environment = environment.get();
    rollout.maxTurns = options.environment.maxTurns;
    rollout.maxTurnTokens = options.environment.maxTurnTokens;

    std::ofstream out;
    const std::string &outputPath = options.output;
    const std::string partPath = outputPath + ".part";
    if (!outputPath.empty()) {
        out.open(partPath, std::ios::binary | std::ios::trunc);
        if (!out)
            throw data::InputException({outputPath, 0, "cannot write"});
    }
    EvaluationResult result;
    const std::unique_ptr<task::MetricSet> metrics = task.metrics();
    double outputTokens = 0.0;
    const size_t batch = static_cast<size_t>(options.batch);
    const auto start = std::chrono::steady_clock::now();
    for (size_t from = 0; from < records.size(); from += batch) {
        const size_t to = std::min(records.size(), from + batch);
        std::vector<std::vector<int32_t>> prompts;
        std::vector<const task::Example *> examples;
        for (size_t i = from; i < to; ++i) {
            prompts.push_back(tokenizer->encode(task.prompt(*records[i].example, format, thinking)));
            examples.push_back(records[i].example.get());
        }
        std::vector<RolloutRow> rows = generateRollouts(*lm, *tokenizer, examples, prompts, 1, rollout);
        for (size_t i = from; i < to; ++i) {
            RolloutRow &row = rows[i - from];
            outputTokens += static_cast<double>(row.policyTokens);
            const task::Example &example = *records[i].example;
            const auto parsed = task.parse(example, std::move(row.text), thinking);
            metrics->add(example, *parsed);
            if (out.is_open())
                out << task.predictionLine(example, parsed->text()) << '\n';
        }
        result.examples = to;
        if (callback && !callback({to, records.size()})) {
            result.stopped = to < records.size();
            if (result.stopped)
                break;
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (out.is_open()) {
        out.close();
        if (result.stopped)
            std::filesystem::remove(partPath);
        else if (!out)
            throw data::InputException({outputPath, 0, "write failed (disk full?)"});
        else
            std::filesystem::rename(partPath, outputPath);
    }
    result.metrics = metrics->result();
    result.counts = metrics->counts();
    const double n = static_cast<double>(std::max<size_t>(1, result.examples));
    result.meanOutputTokens = outputTokens / n;
    result.secondsPerSample = seconds / n;
    return result;
}

} // namespace rwb::train
