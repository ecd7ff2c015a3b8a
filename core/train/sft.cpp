#include "train/sft.h"

#include "data/extractionrecord.h"
#include "data/jsonl.h"
#include "model/causallminternals.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "util/rng.h"

#include <ATen/autocast_mode.h>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

// Shape legend: B = sequences in a micro-batch, L = their padded length.

namespace rwb::train {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string &source, const std::string &field, const std::string &what)
{
    throw data::InputException({source, 0, field + ": " + what});
}

struct Example {
    std::vector<int32_t> prompt;
    std::vector<int32_t> target;
    std::vector<float> weights; // per target token
};

// Autocast to bf16 for the forward pass while alive (CPU or CUDA), restored after.
class AutocastScope {
public:
    AutocastScope(bool enabled, const torch::Device &device) : m_cuda(device.is_cuda())
    {
        m_wasEnabled = m_cuda ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
        if (!enabled)
            return;
        if (m_cuda) {
            at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
            at::autocast::set_enabled(true);
        } else {
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
            at::autocast::set_cpu_enabled(true);
        }
    }
    ~AutocastScope()
    {
        if (m_cuda)
            at::autocast::set_enabled(m_wasEnabled);
        else
            at::autocast::set_cpu_enabled(m_wasEnabled);
        at::autocast::clear_cache();
    }
    AutocastScope(const AutocastScope &) = delete;
    AutocastScope &operator=(const AutocastScope &) = delete;

private:
    bool m_cuda;
    bool m_wasEnabled = false;
};

double learningRateAt(const SftConfig &c, int step, int totalSteps)
{
    const int warmup = static_cast<int>(std::ceil(c.warmupRatio * totalSteps));
    if (step < warmup)
        return c.learningRate * static_cast<double>(step + 1) / static_cast<double>(warmup);
    if (c.schedule == "cosine" && totalSteps > warmup) {
        const double progress = static_cast<double>(step - warmup) / static_cast<double>(totalSteps - warmup);
        return c.learningRate * 0.5 * (1.0 + std::cos(M_PI * progress));
    }
    return c.learningRate;
}

} // namespace

double weightedNll(const std::vector<float> &logProbs, const std::vector<float> &weights)
{
    if (logProbs.empty())
        return 0.0;
    double s = 0.0;
    for (size_t i = 0; i < logProbs.size(); ++i)
        s += static_cast<double>(weights[i]) * logProbs[i];
    return -s / static_cast<double>(logProbs.size());
}

SftConfig parseSftConfig(std::string_view text, const std::string &source)
{
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        throw data::InputException({source, 0, "not valid JSON (byte " + std::to_string(e.byte) + ")"});
    }
    if (!j.is_object())
        fail(source, "(top level)", "expected a JSON object");
    static const char *const kKeys[] = {
        "model", "output", "train_data", "thinking", "lora", "lora_r", "lora_alpha", "lora_dropout",
        "lora_target_modules", "learning_rate", "weight_decay", "max_grad_norm", "schedule", "warmup_ratio",
        "epochs", "batch_size", "gradient_accumulation", "max_length", "control_tags", "control_token_weight",
        "seed", "dtype", "precision", "device", "threads", "limit", "prompt_loss_weight"};
    std::string allowed;
    for (const char *k : kKeys)
        allowed += (allowed.empty() ? "" : ", ") + std::string(k);
    for (auto it = j.begin(); it != j.end(); ++it) {
        bool known = false;
        for (const char *k : kKeys)
            known = known || it.key() == k;
        if (!known)
            fail(source, it.key(), "unknown key (allowed: " + allowed + ")");
    }
    const fs::path base = fs::path(source).parent_path();
    auto path = [&](const char *key, bool required) {
        auto it = j.find(key);
        if (it == j.end()) {
            if (required)
                fail(source, key, "missing");
            return std::string();
        }
        if (!it->is_string() || it->get<std::string>().empty())
            fail(source, key, "must be a non-empty string (a path)");
        fs::path p(it->get<std::string>());
        return (p.is_relative() ? base / p : p).lexically_normal().string();
    };
    auto number = [&](const char *key, double fallback, double min, double max) {
        auto it = j.find(key);
        if (it == j.end())
            return fallback;
        if (!it->is_number())
            fail(source, key, std::string("must be a number, found ") + it->type_name());
        const double v = it->get<double>();
        if (!(v >= min && v <= max))
            fail(source, key, "must be between " + std::to_string(min) + " and " + std::to_string(max));
        return v;
    };
    auto boolean = [&](const char *key, bool fallback) {
        auto it = j.find(key);
        if (it == j.end())
            return fallback;
        if (!it->is_boolean())
            fail(source, key, "must be true or false");
        return it->get<bool>();
    };
    auto string = [&](const char *key, const std::string &fallback, std::initializer_list<const char *> choices) {
        auto it = j.find(key);
        if (it == j.end())
            return fallback;
        const std::string v = it->is_string() ? it->get<std::string>() : std::string();
        std::string list;
        for (const char *c : choices) {
            if (v == c)
                return v;
            list += (list.empty() ? "" : ", ") + std::string(c);
        }
        fail(source, key, "must be one of " + list);
    };
    auto strings = [&](const char *key, std::vector<std::string> fallback) {
        auto it = j.find(key);
        if (it == j.end())
            return fallback;
        if (!it->is_array())
            fail(source, key, "must be a list of strings");
        std::vector<std::string> out;
        for (const auto &x : *it) {
            if (!x.is_string())
                fail(source, key, "must be a list of strings");
            out.push_back(x.get<std::string>());
        }
        return out;
    };

    SftConfig c;
    c.model = path("model", true);
    c.output = path("output", true);
    c.trainData = path("train_data", true);
    c.thinking = boolean("thinking", c.thinking);
    c.lora = boolean("lora", c.lora);
    c.loraOptions.rank = static_cast<int>(number("lora_r", c.loraOptions.rank, 1, 1024));
    c.loraOptions.alpha = number("lora_alpha", c.loraOptions.alpha, 0, 1e6);
    c.loraOptions.dropout = number("lora_dropout", c.loraOptions.dropout, 0, 0.99);
    c.loraOptions.targetModules = strings("lora_target_modules", c.loraOptions.targetModules);
    static const char *const kModules[] = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
    for (const std::string &m : c.loraOptions.targetModules) {
        bool ok = false;
        for (const char *k : kModules)
            ok = ok || m == k;
        if (!ok)
            fail(source, "lora_target_modules",
                 "\"" + m + "\" is not a module (q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj)");
    }
    c.learningRate = number("learning_rate", c.learningRate, 0, 10);
    c.weightDecay = number("weight_decay", c.weightDecay, 0, 10);
    c.maxGradNorm = number("max_grad_norm", c.maxGradNorm, 0, 1e9);
    c.schedule = string("schedule", c.schedule, {"constant_with_warmup", "cosine"});
    c.warmupRatio = number("warmup_ratio", c.warmupRatio, 0, 1);
    c.epochs = static_cast<int>(number("epochs", c.epochs, 1, 1000));
    c.batchSize = static_cast<int>(number("batch_size", c.batchSize, 1, 4096));
    c.gradientAccumulation = static_cast<int>(number("gradient_accumulation", c.gradientAccumulation, 1, 4096));
    c.maxLength = static_cast<int>(number("max_length", c.maxLength, 8, 1 << 20));
    c.controlTags = strings("control_tags", c.controlTags);
    c.controlTokenWeight = number("control_token_weight", c.controlTokenWeight, 0, 1000);
    c.promptLossWeight = number("prompt_loss_weight", c.promptLossWeight, 0, 1000);
    c.seed = static_cast<uint64_t>(number("seed", 0, 0, 9.0e15));
    c.dtype = string("dtype", c.dtype, {"float32", "bfloat16", "auto"});
    c.precision = string("precision", c.precision, {"bf16", "fp32"});
    c.device = string("device", c.device, {"auto", "cpu", "cuda"});
    c.threads = static_cast<int>(number("threads", 0, 0, 1024));
    c.limit = static_cast<int>(number("limit", 0, 0, 1e9));
    return c;
}

SftConfig loadSftConfig(const std::string &path)
{
    return parseSftConfig(data::readTextFile(path), path);
}

SftResult runSft(const SftConfig &c, const SftCallback &callback)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    SftResult result;

    const auto tokenizer = tokenizer::loadTokenizer(c.model);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(c.model, *tokenizer);
    std::vector<int32_t> controlIds;
    for (const std::string &tag : c.controlTags)
        if (auto id = tokenizer->tokenToId(tag))
            controlIds.push_back(*id);
    const int32_t pad = tokenizer->padId().value_or(tokenizer->eosId().value_or(0));

    data::ExtractionReadOptions readOptions;
    readOptions.requireCompletion = false;
    const auto records = data::readExtractionJsonl(c.trainData, readOptions).records;
    std::vector<Example> examples;
    for (const auto &r : records) {
        if (c.limit > 0 && static_cast<int>(examples.size()) >= c.limit)
            break;
        Example e;
        e.prompt = tokenizer->encode(format.extractionPrompt(r.senderEmail, r.emailText, c.thinking));
        e.target = tokenizer->encode(tokenizer::PromptFormat::paperCompletion(r.gold, "", c.thinking) +
                                     format.endOfCompletion(*tokenizer));
        if (static_cast<int>(e.prompt.size() + e.target.size()) > c.maxLength) {
            ++result.skippedTooLong;
            continue;
        }
        for (int32_t t : e.target)
            e.weights.push_back(std::find(controlIds.begin(), controlIds.end(), t) != controlIds.end()
                                    ? static_cast<float>(c.controlTokenWeight)
                                    : 1.0f);
        examples.push_back(std::move(e));
    }
    if (examples.empty())
        throw data::InputException({c.trainData, 0, "no example fits max_length (" + std::to_string(c.maxLength) + ")"});
    result.examples = static_cast<int>(examples.size());

    model::ModelOptions mo;
    mo.dtype = c.dtype;
    mo.device = c.device;
    mo.threads = c.threads;
    auto lm = model::CausalLM::load(c.model, mo);
    if (c.lora)
        lm->addLora(c.loraOptions);
    model::CausalLmInternals &d = lm->internals();
    d.module->train();
    std::vector<torch::Tensor> params = d.trainableParameters();
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
                    targetTokens += static_cast<double>(examples[order[k]].target.size());
                    if (c.promptLossWeight > 0.0) // every prompt token but the first is predicted
                        targetTokens += static_cast<double>(examples[order[k]].prompt.size() - 1);
                }
            }
            double stepLoss = 0.0;
            for (const auto &batch : batches) {
                std::vector<std::vector<int32_t>> prompts;
                std::vector<std::vector<int32_t>> targets;
                for (size_t k : batch) {
                    prompts.push_back(examples[k].prompt);
                    targets.push_back(examples[k].target);
                    tokens += static_cast<double>(examples[k].prompt.size() + examples[k].target.size());
                }
                const auto b = d.makeBatch(prompts, targets, pad);
                torch::Tensor lp;
                {
                    const AutocastScope autocast(c.precision == "bf16", d.device);
                    lp = d.sequenceLogProbs(b, 1.0, 128, nullptr).to(torch::kFloat32); // [B, L−1]
                }
                // Weights [B, L−1]: target token i of row r is predicted at position start + i − 1.
                std::vector<float> w(static_cast<size_t>(lp.numel()), 0.0f);
                const int64_t cols = lp.size(1);
                for (size_t r = 0; r < batch.size(); ++r) {
                    const Example &e = examples[batch[r]];
                    const int64_t first = b.completionStart[r] - 1;
                    for (size_t i = 0; i < e.weights.size(); ++i)
                        w[static_cast<size_t>(static_cast<int64_t>(r) * cols + first) + i] = e.weights[i];
                    for (int64_t i = 0; c.promptLossWeight > 0.0 && i < first; ++i)
                        w[static_cast<size_t>(static_cast<int64_t>(r) * cols + i)] = static_cast<float>(c.promptLossWeight);
                }
                const torch::Tensor weights =
                    torch::from_blob(w.data(), lp.sizes(), torch::kFloat32).clone().to(lp.device());
                const torch::Tensor loss = -(lp * weights).sum() / targetTokens;
                const double value = loss.item<double>();
                if (!std::isfinite(value))
                    throw std::runtime_error("SFT step " + std::to_string(step + 1) + ": the loss is " +
                                             (std::isnan(value) ? "NaN" : "infinite") + "; nothing was saved");
                loss.backward();
                stepLoss += value;
            }
            const double gradNorm = c.maxGradNorm > 0.0
                                        ? torch::nn::utils::clip_grad_norm_(params, c.maxGradNorm)
                                        : torch::nn::utils::clip_grad_norm_(params, 1e30);
            const double lr = learningRateAt(c, step, totalSteps);
            for (auto &group : optimizer.param_groups())
                static_cast<torch::optim::AdamWOptions &>(group.options()).lr(lr);
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
        for (const char *f : {"tokenizer.json", "tokenizer.model", "tokenizer_config.json", "special_tokens_map.json"}) {
            const fs::path from = fs::path(c.model) / f;
            if (fs::exists(from) && fs::absolute(from) != fs::absolute(fs::path(c.output) / f))
                fs::copy_file(from, fs::path(c.output) / f, fs::copy_options::overwrite_existing);
        }
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

} // namespace rwb::train
