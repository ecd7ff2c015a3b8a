#include "train/rft.h"

#include "data/configreader.h"
#include "data/jsonl.h"
#include "model/causallm.h"
#include "task/catalog.h"
#include "task/environment.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/environmentrollout.h"
#include "train/evaluation.h"
#include "train/processrewardmodel.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

namespace rwb::train {

namespace fs = std::filesystem;

RftConfig parseRftConfig(std::string_view text, const std::string &source)
{
    const data::ConfigReader r(text, source,
                               {"policy", "prm", "task", "questions", "index", "output", "data_output", "samples", "temperature",
                                "top_p", "top_k", "max_completion_length", "max_turns", "max_turn_tokens",
                                "retrieval_top_k", "answer", "min_f1", "threshold", "filter", "dedupe", "limit", "batch",
                                "seed", "device", "threads", "sft", "eval_questions", "eval_index", "eval_limit"});
    RftConfig c;
    c.policy = r.path("policy", true);
    c.prm = r.path("prm", true);
    c.task = std::string(task::Catalog::builtin().getWithSteps(r.text("task", ""), source, "task").name());
    c.questions = r.path("questions", true);
    c.index = r.path("index", true);
    c.output = r.path("output", true);
    c.dataOutput = r.path("data_output", false);
    if (c.dataOutput.empty())
        c.dataOutput = c.output + ".rft.jsonl";
    c.samples = r.integer("samples", c.samples, 1, 1024);
    c.temperature = r.number("temperature", c.temperature, 0.01, 10);
    c.topP = r.number("top_p", c.topP, 0.01, 1);
    c.topK = r.integer("top_k", c.topK, 0, 1 << 20);
    c.maxCompletionLength = r.integer("max_completion_length", c.maxCompletionLength, 1, 1 << 20);
    c.maxTurns = r.integer("max_turns", c.maxTurns, 1, 1000);
    c.maxTurnTokens = r.integer("max_turn_tokens", c.maxTurnTokens, 0, 1 << 20);
    c.retrievalTopK = r.integer("retrieval_top_k", c.retrievalTopK, 1, 100);
    c.answer = r.choice("answer", c.answer, {"em", "f1"});
    c.minF1 = r.number("min_f1", c.minF1, 0, 1);
    c.threshold = r.number("threshold", c.threshold, -1e9, 1e9);
    c.filter = r.choice("filter", c.filter, {"step", "trajectory"});
    c.dedupe = r.boolean("dedupe", c.dedupe);
    c.limit = r.integer("limit", 0, 0, 1000000000);
    c.batch = r.integer("batch", c.batch, 1, 4096);
    c.seed = static_cast<uint64_t>(r.number("seed", 1, 0, 9.0e15));
    c.device = r.choice("device", c.device, {"auto", "cpu", "cuda"});
    c.threads = r.integer("threads", 0, 0, 1024);
    c.evalQuestions = r.path("eval_questions", false);
    c.evalIndex = r.path("eval_index", false);
    c.evalLimit = r.integer("eval_limit", 0, 0, 1000000000);
    // The fine-tuning: SFT's keys, with the policy, the output and the kept data filled in.
    nlohmann::json sft = nlohmann::json::object();
    if (r.has("sft")) {
        sft = util::parseJsonOrDiscarded(r.raw("sft"));
        if (!sft.is_object())
            r.fail("sft", "must be an object of SFT keys (docs/training.md)");
        for (const char *k : {"model", "output", "train_data", "task"})
            if (sft.contains(k))
                r.fail(std::string("sft.") + k, "is set by rwb prm rft (the policy, the output, the kept data)");
    }
    sft["model"] = fs::absolute(c.policy).string();
    sft["output"] = fs::absolute(c.output).string();
    sft["train_data"] = fs::absolute(c.dataOutput).string();
    sft["task"] = c.task;
    if (!sft.contains("lora"))
        sft["lora"] = false;
    if (!sft.contains("threads") && c.threads > 0)
        sft["threads"] = c.threads;
    c.sft = parseSftConfig(sft.dump(), source + " (sft)");
    return c;
}

RftConfig loadRftConfig(const std::string &path) { return parseRftConfig(data::readTextFile(path), path); }

std::vector<uint8_t> rftSteps(const std::vector<double> &scores, double threshold, const std::string &filter)
{
    std::vector<uint8_t> keep;
    bool any = false, all = true;
    for (double s : scores) {
        const bool pass = s > threshold;
        keep.push_back(pass ? 1 : 0);
        any = any || pass;
        all = all && pass;
    }
    if (scores.empty() || !any || (filter == "trajectory" && !all))
        return {};
    return keep;
}

RftResult runRft(const RftConfig &c, const RftCallback &callback)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    RftResult result;
    bool stop = false;
    const auto report = [&](const char *phase, size_t done, size_t total) {
        if (callback && !stop)
            stop = !callback({phase, done, total, elapsed()});
    };

    const auto evaluate = [&](const std::string &model, const char *phase, double &em, double &f1) {
        EvaluationOptions eo;
        eo.model = model;
        eo.data = c.evalQuestions;
        eo.task = c.task;
        eo.limit = c.evalLimit;
        eo.maxNewTokens = c.maxCompletionLength;
        eo.device = c.device;
        eo.threads = c.threads;
        eo.environment.index = c.evalIndex.empty() ? c.index : c.evalIndex;
        eo.environment.topK = c.retrievalTopK;
        eo.environment.maxTurns = c.maxTurns;
        eo.environment.maxTurnTokens = c.maxTurnTokens;
        eo.environment.source = "eval_index";
        const EvaluationResult r = runEvaluation(eo, [&](const EvaluationProgress &p) {
            report(phase, p.done, p.total);
            return true;
        });
        for (const auto &[name, value] : r.metrics) {
            if (name == "em")
                em = value;
            else if (name == "f1")
                f1 = value;
        }
        result.evalExamples = r.examples;
    };
    if (!c.evalQuestions.empty()) {
        evaluate(c.policy, "before", result.emBefore, result.f1Before);
        result.evaluated = true;
    }

    // Sampling, scoring, filtering.
    const task::Task &task = task::Catalog::builtin().getWithSteps(c.task, c.questions, "task");
    const task::Steps &taskSteps = *task.steps();
    // A trajectory is right when its answer is: the task's own verdict (em), or its "f1"
    // metric over that one example at least min_f1.
    const auto right = [&](const task::Example &example, const task::Completion &completion) {
        if (completion.answer().empty())
            return false;
        if (c.answer == "em")
            return task.metrics()->correct(example, completion);
        const std::unique_ptr<task::MetricSet> one = task.metrics();
        one->add(example, completion);
        for (const auto &[name, value] : one->result())
            if (name == "f1")
                return value >= c.minF1;
        throw data::InputException({c.questions, 0, "answer: the task " + c.task + " has no \"f1\" metric; use \"em\""});
    };
    task::ReadOptions ro;
    ro.limit = c.limit > 0 ? static_cast<size_t>(c.limit) : 0;
    const std::vector<task::Record> records = task.read(c.questions, ro);
    result.questions = records.size();
    {
        const auto tokenizer = tokenizer::loadTokenizer(c.policy);
        const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(c.policy, *tokenizer);
        model::ModelOptions mo;
        mo.device = c.device;
        mo.threads = c.threads;
        auto lm = model::CausalLM::load(c.policy, mo);
        const std::unique_ptr<ProcessRewardModel> prm = ProcessRewardModel::load(c.prm, mo);
        task::EnvironmentOptions eo;
        eo.index = c.index;
        eo.topK = c.retrievalTopK;
        eo.maxTurns = c.maxTurns;
        eo.maxTurnTokens = c.maxTurnTokens;
        eo.source = "index";
        const std::unique_ptr<task::Environment> environment = task.environment(eo);
        RolloutOptions rollout;
        model::SamplingOptions &so = rollout.sampling;
        so.temperature = c.temperature;
        so.topP = c.topP;
        so.topK = c.topK;
        so.maxNewTokens = c.maxCompletionLength;
        so.stopTokens = format.stopTokenIds(*tokenizer);
        so.padToken = tokenizer->padId().value_or(tokenizer->eosId().value_or(0));
        so.vocabLimit = tokenizer->vocabSize();
        rollout.environment = environment.get();
        rollout.maxTurns = c.maxTurns;
        rollout.maxTurnTokens = c.maxTurnTokens;

        fs::create_directories(fs::absolute(c.dataOutput).parent_path());
        const std::string part = c.dataOutput + ".part";
        std::ofstream out(part, std::ios::binary | std::ios::trunc);
        if (!out)
            throw data::InputException({c.dataOutput, 0, "cannot write"});
        double scoreSum = 0;
        size_t scoreCount = 0;
        const size_t batch = static_cast<size_t>(c.batch);
        for (size_t from = 0; from < records.size() && !stop; from += batch) {
            const size_t to = std::min(records.size(), from + batch);
            std::vector<std::vector<int32_t>> prompts;
            std::vector<const task::Example *> examples;
            for (size_t i = from; i < to; ++i) {
                prompts.push_back(tokenizer->encode(task.prompt(*records[i].example, format, false)));
                examples.push_back(records[i].example.get());
            }
            so.seed = c.seed * 1000003ULL + from;
            const std::vector<RolloutRow> rows = generateRollouts(*lm, *tokenizer, examples, prompts, c.samples, rollout);
            for (size_t i = from; i < to; ++i) {
                const task::Example &example = *records[i].example;
                std::vector<std::string> texts;
                std::vector<std::vector<std::string>> steps;
                std::set<std::string> seen;
                for (int g = 0; g < c.samples; ++g) {
                    const RolloutRow &row = rows[(i - from) * static_cast<size_t>(c.samples) + static_cast<size_t>(g)];
                    ++result.sampled;
                    if (row.truncated || !right(example, *task.parse(example, row.text, false)))
                        continue;
                    ++result.right;
                    if (c.dedupe && !seen.insert(row.text).second) {
                        ++result.duplicates;
                        continue;
                    }
                    texts.push_back(row.text);
                    steps.push_back(taskSteps.split(row.text));
                }
                std::vector<PrmInput> inputs;
                for (const auto &s : steps)
                    inputs.push_back(prm->input(taskSteps.stepQuestion(example), s));
                const std::vector<std::vector<double>> scores = prm->score(inputs);
                size_t keptHere = 0;
                for (size_t k = 0; k < texts.size(); ++k) {
                    for (double s : scores[k]) {
                        scoreSum += s;
                        ++scoreCount;
                    }
                    const std::vector<uint8_t> keep = rftSteps(scores[k], c.threshold, c.filter);
                    if (keep.empty()) {
                        ++result.droppedByPrm;
                        continue;
                    }
                    std::vector<int> context;
                    for (size_t s = 0; s < keep.size(); ++s) {
                        if (keep[s])
                            ++result.keptSteps;
                        else {
                            ++result.contextSteps;
                            context.push_back(static_cast<int>(s));
                        }
                    }
                    out << taskSteps.keptTrajectoryLine(example, example.id() + "#" + std::to_string(k), texts[k], context)
                        << "\n";
                    ++result.kept;
                    ++keptHere;
                }
                result.questionsKept += keptHere > 0 ? 1 : 0;
            }
            report("sampling", to, records.size());
        }
        out.close();
        if (!out)
            throw data::InputException({c.dataOutput, 0, "cannot write"});
        fs::rename(part, c.dataOutput);
        result.meanStepScore = scoreCount ? scoreSum / static_cast<double>(scoreCount) : 0.0;
    }
    if (result.kept == 0)
        throw data::InputException(
            {c.questions, 0,
             "no trajectory kept to fine-tune on: " + std::to_string(result.sampled) + " sampled, " +
                 std::to_string(result.right) + " with a right answer, " + std::to_string(result.droppedByPrm) +
                 " dropped by the PRM (threshold " + std::to_string(c.threshold) + ", filter " + c.filter + ")"});

    stop = false;
    result.sft = runSft(c.sft, [&](const SftProgress &p) {
        report("training", static_cast<size_t>(p.step), static_cast<size_t>(p.totalSteps));
        return !stop;
    });
    if (result.evaluated) {
        stop = false;
        evaluate(c.output, "after", result.emAfter, result.f1After);
    }
    result.seconds = elapsed();
    return result;
}

} // namespace rwb::train
