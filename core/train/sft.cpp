#include "train/sft.h"

#include "data/configreader.h"
#include "task/catalog.h"
#include "reward/rewardconfig.h"
#include "data/jsonl.h"
#include "model/causallminternals.h"
#include "model/fusedops.h"
#include "model/precision.h"
#include "model/workers.h"
#include "tokenizer/promptformat.h"
#include "train/sftloss.h"
#include "train/trainingcommon.h"
#include "tokenizer/tokenizer.h"
#include "util/rng.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

// Shape legend: B = sequences in a micro-batch, L = their padded length.

namespace rwb::train {

namespace fs = std::filesystem;

namespace {

// util::Rng::forStream(seed, kSftDropoutStream + step, micro-batch): SFT's dropout.
constexpr uint64_t kSftDropoutStream = 0x5f7d'0000'0000'0000ULL;
// util::Rng::forStream(seed, kSftLoraInitStream, 0): the adapters' random start.
constexpr uint64_t kSftLoraInitStream = 0x5f7e'0000'0000'0000ULL;

using Example = SftSequence;

// On the CPU, sequences a forward / backward takes at most: a micro-batch of 16 pads all
// to its longest. The quick demo's SFT (2,000 e-mails, 16 a step, fp32, AMD EPYC) took
// 56 s in one piece on 1 thread, 47 s in 2 pieces of similar lengths, 45 s in 4, 44 s in
// 8; on 2 threads 27 s in 2 pieces, 25 s in 4 or 6, 27 s in 16 (docs/results.md).
constexpr size_t kCpuPieceSequences = 4;

} // namespace

double weightedNll(const std::vector<float> &logProbs, const std::vector<float> &weights)
{
    double s = 0.0;
    size_t n = 0; // the policy's tokens: weight 0 marks the environment's
    for (size_t i = 0; i < logProbs.size(); ++i) {
        s += static_cast<double>(weights[i]) * logProbs[i];
        n += weights[i] != 0.0f ? 1 : 0;
    }
    return n ? -s / static_cast<double>(n) : 0.0;
}

torch::Tensor sftLoss(model::CausalLmInternals &d, const std::vector<std::vector<int32_t>> &prompts,
                      const std::vector<std::vector<int32_t>> &targets,
                      const std::vector<std::vector<float>> &targetWeights, double promptLossWeight,
                      double targetTokens, int32_t padToken, bool bf16)
{
    const auto b = d.makeBatch(prompts, targets, padToken);
    // Weights [B, L−1]: target token i of row r is predicted at position start + i − 1.
    const int64_t rows = static_cast<int64_t>(prompts.size());
    const int64_t cols = b.ids.size(1) - 1;
    std::vector<double> w(static_cast<size_t>(rows * cols), 0.0);
    for (size_t r = 0; r < prompts.size(); ++r) {
        const int64_t first = b.completionStart[r] - 1;
        const size_t row = static_cast<size_t>(static_cast<int64_t>(r) * cols);
        for (size_t i = 0; i < targetWeights[r].size(); ++i)
            w[row + static_cast<size_t>(first) + i] = targetWeights[r][i];
        for (int64_t i = 0; promptLossWeight > 0.0 && i < first; ++i)
            w[row + static_cast<size_t>(i)] = promptLossWeight;
    }
    const torch::Tensor weights = torch::tensor(w, torch::kFloat64).view({rows, cols});
    torch::Tensor lp;
    {
        const AutocastScope autocast(bf16, d.device);
        // Only the weighted positions through the head: with the loss on the target alone
        // that is a few percent of them.
        lp = d.sequenceLogProbs(b, 1.0, 128, nullptr, (weights != 0.0).to(d.device)); // [B, L−1]
    }
    lp = lp.to(model::computeDtype(lp.scalar_type()));
    return -(lp * weights.to(lp.options())).sum() / targetTokens;
}

SftConfig parseSftConfig(std::string_view text, const std::string &source)
{
    const data::ConfigReader r(
        text, source,
        {"model", "output", "train_data", "task", "thinking", "lora", "lora_r", "lora_alpha", "lora_dropout",
         "lora_target_modules", "use_rslora", "learning_rate", "weight_decay", "max_grad_norm", "schedule", "warmup_ratio", "epochs",
         "batch_size", "gradient_accumulation", "max_length", "control_tags", "control_token_weight", "seed", "dtype",
         "precision", "device", "threads", "thread_split", "limit", "prompt_loss_weight"});
    SftConfig c;
    c.model = r.path("model", true);
    c.output = r.path("output", true);
    c.trainData = r.path("train_data", true);
    c.task = r.text("task", c.task);
    if (reward::isTaskDescriptionPath(c.task))
        c.task = r.path("task", false); // a user's task description, relative to the config's folder
    c.thinking = r.boolean("thinking", c.thinking);
    readTrainerKeys(r, c);
    c.epochs = r.integer("epochs", c.epochs, 1, 1000);
    c.batchSize = r.integer("batch_size", c.batchSize, 1, 4096);
    c.gradientAccumulation = r.integer("gradient_accumulation", c.gradientAccumulation, 1, 4096);
    c.maxLength = r.integer("max_length", c.maxLength, 8, 1 << 20);
    c.controlTags = r.strings("control_tags", c.controlTags);
    c.controlTokenWeight = r.number("control_token_weight", c.controlTokenWeight, 0, 1000);
    c.promptLossWeight = r.number("prompt_loss_weight", c.promptLossWeight, 0, 1000);
    c.seed = static_cast<uint64_t>(r.number("seed", 0, 0, 9.0e15));
    c.dtype = r.choice("dtype", c.dtype, {"float32", "bfloat16", "auto"});
    c.precision = r.choice("precision", c.precision, {"auto", "bf16", "fp32"});
    c.device = r.choice("device", c.device, {"auto", "cpu", "cuda"});
    c.threads = r.integer("threads", 0, 0, 1024);
    c.threadSplit = r.choice("thread_split", c.threadSplit, {"batches", "operations"});
    c.limit = r.integer("limit", 0, 0, 1000000000);
    return c;
}

model::LoraOptions readLoraOptions(const data::ConfigReader &r, model::LoraOptions o)
{
    o.rank = r.integer("lora_r", o.rank, 1, 1024);
    o.alpha = r.number("lora_alpha", o.alpha, 0, 1e6);
    o.dropout = r.number("lora_dropout", o.dropout, 0, 0.99);
    o.rslora = r.boolean("use_rslora", o.rslora);
    o.targetModules = r.strings("lora_target_modules", o.targetModules);
    static const char *const kModules[] = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
    for (const std::string &m : o.targetModules) {
        bool ok = false;
        for (const char *k : kModules)
            ok = ok || m == k;
        if (!ok)
            r.fail("lora_target_modules",
                   "\"" + m + "\" is not a module (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj)");
    }
    return o;
}

SftConfig loadSftConfig(const std::string &path)
{
    return parseSftConfig(data::readTextFile(path), path);
}

SftResult runSft(const SftConfig &config, const SftCallback &callback)
{
    return runSft(config, task::Catalog::builtin(), callback);
}

SftSequence sftSequence(const task::Task &task, const task::Example &example, const tokenizer::Tokenizer &tokenizer,
                        const tokenizer::PromptFormat &format, const SftConfig &c)
{
    std::vector<int32_t> controlIds;
    for (const std::string &tag : c.controlTags)
        if (auto id = tokenizer.tokenToId(tag))
            controlIds.push_back(*id);
    SftSequence e;
    e.prompt = tokenizer.encode(task.prompt(example, format, c.thinking));
    // The target span by span: what the environment wrote (retrieved passages), and
    // steps an example keeps as context only, get weight 0, no loss and no gradient; the
    // rest the policy's weights (λ on control tags). Encoding the spans apart is what a rollout does: it appends the
    // retrieval's tokens to the policy's.
    const std::string target = task.sftTarget(example, c.thinking);
    size_t at = 0;
    const auto append = [&](std::string_view text, bool environment) {
        for (int32_t t : tokenizer.encode(text)) {
            e.target.push_back(t);
            e.policyTokens += environment ? 0 : 1;
            e.weights.push_back(environment ? 0.0f
                                : std::find(controlIds.begin(), controlIds.end(), t) != controlIds.end()
                                    ? static_cast<float>(c.controlTokenWeight)
                                    : 1.0f);
        }
    };
    for (const task::TextSpan &span : task.noLossSpans(example, target)) {
        append(std::string_view(target).substr(at, span.begin - at), false);
        append(std::string_view(target).substr(span.begin, span.end - span.begin), true);
        at = span.end;
    }
    append(std::string_view(target).substr(at), false);
    append(format.endOfCompletion(tokenizer), false);
    return e;
}

SftGradient sftGradient(model::CausalLM &lm, const std::vector<SftSequence> &sequences, double normaliser, int32_t pad)
{
    model::CausalLmInternals &d = lm.internals();
    std::vector<torch::Tensor> params = d.trainableParameters();
    for (torch::Tensor &p : params)
        if (p.grad().defined())
            p.mutable_grad().zero_();
    std::vector<std::vector<int32_t>> prompts, targets;
    std::vector<std::vector<float>> weights;
    for (const SftSequence &s : sequences) {
        prompts.push_back(s.prompt);
        targets.push_back(s.target);
        weights.push_back(s.weights);
    }
    const torch::Tensor loss = sftLoss(d, prompts, targets, weights, 0.0, normaliser, pad, false);
    loss.backward();
    SftGradient g;
    g.loss = loss.item<double>();
    for (torch::Tensor &p : params) {
        const torch::Tensor flat = p.grad().defined() ? p.grad().detach().to(torch::kFloat32).contiguous().view(-1)
                                                      : torch::zeros({p.numel()}, torch::kFloat32);
        g.gradient.insert(g.gradient.end(), flat.data_ptr<float>(), flat.data_ptr<float>() + flat.numel());
        if (p.grad().defined())
            p.mutable_grad().zero_();
    }
    return g;
}

SftResult runSft(const SftConfig &c, const task::Catalog &catalog, const SftCallback &callback)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SftResult result;

    const auto tokenizer = tokenizer::loadTokenizer(c.model);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(c.model, *tokenizer);
    const int32_t pad = tokenizer->padId().value_or(tokenizer->eosId().value_or(0));

    const task::Task &task = catalog.get(c.task, c.trainData, "task");
    const auto records = task.read(c.trainData, task::ReadOptions{});
    std::vector<Example> examples;
    for (const auto &r : records) {
        if (c.limit > 0 && static_cast<int>(examples.size()) >= c.limit)
            break;
        Example e = sftSequence(task, *r.example, *tokenizer, format, c);
        if (static_cast<int>(e.prompt.size() + e.target.size()) > c.maxLength) {
            ++result.skippedTooLong;
            continue;
        }
        examples.push_back(std::move(e));
    }
    if (examples.empty())
        throw data::InputException({c.trainData, 0, "no example fits max_length (" + std::to_string(c.maxLength) + ")"});
    result.examples = static_cast<int>(examples.size());

    model::ModelOptions mo;
    mo.dtype = c.dtype;
    mo.device = c.device;
    mo.threads = c.threads;
    const model::PrecisionChoice precision = model::resolvePrecision(c.precision, c.device);
    result.precision = precision.name();
    result.precisionReason = precision.reason;
    const std::string precisionLine = precision.name() + ": " + precision.reason;
    auto lm = model::CausalLM::load(c.model, mo);
    if (c.lora) {
        // A's random start from the run's seed, not from whatever drew from torch's
        // generator before: two runs of one config in one process (the workbench) agree.
        torch::manual_seed(static_cast<int64_t>(util::Rng::forStream(c.seed, kSftLoraInitStream, 0).next() >> 1));
        lm->addLora(c.loraOptions);
    }
    model::CausalLmInternals &d = lm->internals();
    d.module->train();
    std::vector<torch::Tensor> params = d.trainableParameters();
    const int workers = model::batchWorkers(c.threadSplit, d.device);
    torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(c.learningRate).weight_decay(c.weightDecay));

    const int microBatches = static_cast<int>((examples.size() + c.batchSize - 1) / c.batchSize);
    const int stepsPerEpoch = (microBatches + c.gradientAccumulation - 1) / c.gradientAccumulation;
    const int totalSteps = stepsPerEpoch * c.epochs;
    util::Rng rng(c.seed);
    std::vector<size_t> order(examples.size());
    int step = 0;
    double tokens = 0.0;
    bool stop = false;
    for (int epoch = 0; epoch < c.epochs && !stop; ++epoch) {
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        for (size_t i = order.size(); i > 1; --i) // Fisher–Yates with our own generator (platform-stable)
            std::swap(order[i - 1], order[static_cast<size_t>(rng.below(i))]);
        for (int s = 0; s < stepsPerEpoch && !stop; ++s) {
            // The micro-batches of this optimizer step, and their target tokens for the mean.
            std::vector<std::vector<size_t>> batches;
            double targetTokens = 0.0;
            for (int m = 0; m < c.gradientAccumulation; ++m) {
                const size_t from = static_cast<size_t>((s * c.gradientAccumulation + m) * c.batchSize);
                if (from >= order.size())
                    break;
                const size_t to = std::min(order.size(), from + static_cast<size_t>(c.batchSize));
                batches.emplace_back(order.begin() + static_cast<long>(from), order.begin() + static_cast<long>(to));
                for (size_t k = from; k < to; ++k) {
                    targetTokens += static_cast<double>(examples[order[k]].policyTokens);
                    if (c.promptLossWeight > 0.0) // every prompt token but the first is predicted
                        targetTokens += static_cast<double>(examples[order[k]].prompt.size() - 1);
                }
            }
            const auto length = [&](size_t k) {
                return static_cast<double>(examples[k].prompt.size() + examples[k].target.size());
            };
            for (const auto &batch : batches)
                for (size_t k : batch)
                    tokens += length(k);
            // The micro-batches one after the other, or pieces of them side by side
            // (model/workers.h): the loss is a sum over sequences divided by the step's
            // target tokens, so a micro-batch cut in pieces has the same gradient. A
            // micro-batch is cut in as many pieces as it takes to give every worker one,
            // and on the CPU into pieces of at most kCpuPieceSequences: its sequences
            // longest first, cut where the pieces' padded positions (sequences × the
            // longest) come out most even. A piece then pads only to sequences of its own
            // length, and the workers finish together. Each piece draws its dropout from
            // (seed, step, piece), whichever thread runs it.
            const size_t cuts = workers > static_cast<int>(batches.size())
                                    ? (static_cast<size_t>(workers) + batches.size() - 1) / batches.size()
                                    : 1;
            std::vector<std::vector<size_t>> pieces;
            std::vector<double> pieceCosts;
            for (std::vector<size_t> batch : batches) {
                const size_t n = std::max(cuts, d.device.is_cpu() ? (batch.size() + kCpuPieceSequences - 1) / kCpuPieceSequences
                                                                  : size_t(1));
                if (n > 1)
                    std::stable_sort(batch.begin(), batch.end(),
                                     [&](size_t a, size_t b) { return length(a) > length(b); });
                const auto padded = [&](size_t first, size_t last) {
                    return static_cast<double>(last - first) * length(batch[first]);
                };
                for (const model::WorkerBlock &block : model::balancedBlocks(batch.size(), static_cast<int>(n), padded)) {
                    pieces.emplace_back(batch.begin() + static_cast<long>(block.first),
                                        batch.begin() + static_cast<long>(block.last));
                    pieceCosts.push_back(padded(block.first, block.last));
                }
            }
            std::vector<double> values(pieces.size(), 0.0);
            model::backwardOnWorkers(workers, pieces.size(), params, [&](size_t m) {
                std::vector<std::vector<int32_t>> prompts;
                std::vector<std::vector<int32_t>> targets;
                std::vector<std::vector<float>> weights;
                for (size_t k : pieces[m]) {
                    prompts.push_back(examples[k].prompt);
                    targets.push_back(examples[k].target);
                    weights.push_back(examples[k].weights);
                }
                const model::DropoutGeneratorScope dropout(
                    util::Rng::forStream(c.seed, kSftDropoutStream + static_cast<uint64_t>(step), m).next() >> 1);
                torch::Tensor loss =
                    sftLoss(d, prompts, targets, weights, c.promptLossWeight, targetTokens, pad, precision.bf16);
                const double value = loss.item<double>();
                if (!std::isfinite(value))
                    throw std::runtime_error("SFT step " + std::to_string(step + 1) + ": the loss is " +
                                             (std::isnan(value) ? "NaN" : "infinite") + "; nothing was saved");
                values[m] = value;
                return loss;
            }, pieceCosts);
            double stepLoss = 0.0;
            for (double v : values)
                stepLoss += v;
            const double gradNorm = c.maxGradNorm > 0.0
                                        ? torch::nn::utils::clip_grad_norm_(params, c.maxGradNorm)
                                        : torch::nn::utils::clip_grad_norm_(params, 1e30);
            const double lr = scheduledLearningRate(c.learningRate, c.schedule, c.warmupRatio, step, totalSteps);
            setLearningRate(optimizer, lr);
            optimizer.step();
            optimizer.zero_grad();
            ++step;
            result.finalLoss = stepLoss;
            if (callback) {
                SftProgress p;
                p.step = step;
                p.totalSteps = totalSteps;
                p.epoch = epoch;
                p.loss = stepLoss;
                p.learningRate = lr;
                p.gradNorm = gradNorm;
                p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
                p.tokensPerSecond = tokens / std::max(1e-9, p.elapsedSeconds);
                p.precision = &precisionLine;
                stop = !callback(p);
            }
        }
    }
    result.steps = step;
    d.module->eval();
    fs::create_directories(c.output);
    if (c.lora) {
        lm->saveAdapter(c.output);
    } else {
        lm->save(c.output);
        tokenizer::copyTokenizerFiles(c.model, c.output);
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

} // namespace rwb::train
