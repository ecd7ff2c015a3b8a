#pragma once

#include "data/configreader.h"
#include "model/causallm.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::task {
class Catalog;
class Example;
class Task;
}
namespace rwb::tokenizer {
class PromptFormat;
class Tokenizer;
}

namespace rwb::train {

// Supervised fine-tuning on (prompt, target) pairs of a task (task/task.h): the prompt is
// the task's prompt of a JSONL line (for extraction the first paper's template, fig. 2 or
// fig. 3 in thinking mode), the target the task's SFT target (the gold answer, with an
// empty <thinking></thinking> in thinking mode) and the end-of-completion token. The loss
// counts target tokens only (and the prompt's with promptLossWeight > 0).
struct SftConfig {
    std::string model;              // model folder (Hugging Face layout, tokenizer beside it)
    std::string output;             // where the adapter (LoRA) or the full model is written
    std::string trainData;          // the task's JSONL ("completion" not needed)
    std::string task; // the task's name; "" the catalog's default task (task/catalog.h)
    bool thinking = false;
    bool lora = true;               // false: full fine-tuning
    model::LoraOptions loraOptions; // r 8, α 32, dropout 0.05 (the paper's table 4)
    double learningRate = 3e-5;
    double weightDecay = 0.0;
    double maxGradNorm = 1.0;       // ≤ 0: no clipping
    std::string schedule = "constant_with_warmup"; // or "cosine"
    double warmupRatio = 0.03;      // of the optimizer steps
    int epochs = 1;
    int batchSize = 8;              // sequences per micro-batch
    int gradientAccumulation = 2;   // micro-batches per optimizer step
    int maxLength = 1024;           // prompt + target tokens; longer examples are skipped (counted)
    // ProRAG eq. 1: tokens of these tags weigh controlTokenWeight (λ) in the loss.
    std::vector<std::string> controlTags{"<thinking>", "</thinking>", "<answer>", "</answer>"};
    double controlTokenWeight = 1.0;
    // Weight of the prompt's tokens in the loss (0: target only, as in instruction tuning).
    // A model trained from scratch learns the e-mails' language, and to copy from them,
    // far faster with the prompt in the loss.
    double promptLossWeight = 0.0;
    uint64_t seed = 0;
    std::string dtype = "float32";  // the weights' dtype (master weights)
    // Mixed precision of the products: "auto" (bf16 autocast where the machine runs it
    // fast, fp32 elsewhere: model/precision.h), "bf16" (the paper's table 4; fp32 master
    // weights) or "fp32".
    std::string precision = "auto";
    std::string device = "auto";
    int threads = 0;
    // How training uses its CPU threads: "batches" (micro-batches, and generation's prompts,
    // side by side, one thread each: model/workers.h) or "operations" (one at a time, each
    // operation spread over the threads by libtorch). Only the CPU; the loss is the same.
    std::string threadSplit = "batches";
    int limit = 0;                  // > 0: use only the first N examples
};

// Parses and validates a JSON config (keys as in docs/training.md); throws
// data::InputException naming `source` and the field. Relative paths resolve against
// the config's folder.
SftConfig parseSftConfig(std::string_view json, const std::string &source);
SftConfig loadSftConfig(const std::string &path);

// lora_r, lora_alpha, lora_dropout and lora_target_modules of a config (SFT, GRPO), over `defaults`.
model::LoraOptions readLoraOptions(const data::ConfigReader &reader, model::LoraOptions defaults);

// The keys every trainer's config shares (SFT, GRPO, the PRM): lora and its options, and
// the optimizer's learning_rate, weight_decay, max_grad_norm, schedule and warmup_ratio,
// each over the value `c` holds.
template <class Config> void readTrainerKeys(const data::ConfigReader &r, Config &c)
{
    c.lora = r.boolean("lora", c.lora);
    c.loraOptions = readLoraOptions(r, c.loraOptions);
    c.learningRate = r.number("learning_rate", c.learningRate, 0, 10);
    c.weightDecay = r.number("weight_decay", c.weightDecay, 0, 10);
    c.maxGradNorm = r.number("max_grad_norm", c.maxGradNorm, 0, 1e9);
    c.schedule = r.choice("schedule", c.schedule, {"constant_with_warmup", "cosine"});
    c.warmupRatio = r.number("warmup_ratio", c.warmupRatio, 0, 1);
}

struct SftProgress {
    int step = 0;               // optimizer steps done
    int totalSteps = 0;
    int epoch = 0;
    double loss = 0.0;          // mean over the tokens of the last optimizer step (weighted)
    double learningRate = 0.0;
    double gradNorm = 0.0;      // before clipping
    double tokensPerSecond = 0.0; // target + prompt tokens processed
    double elapsedSeconds = 0.0;
    const std::string *precision = nullptr; // "bf16: why" or "fp32: why", as resolved for this run
};

struct SftResult {
    int steps = 0;
    double finalLoss = 0.0;
    int examples = 0;
    int skippedTooLong = 0;
    double seconds = 0.0;
    std::string precision;       // "bf16" or "fp32", as resolved
    std::string precisionReason; // why
};

// Called on the training thread after every optimizer step; return false to stop
// (the model trained so far is still saved).
using SftCallback = std::function<bool(const SftProgress &)>;

// Trains and writes config.output. Throws data::InputException for bad inputs and
// std::runtime_error naming the step when the loss becomes NaN or infinite (nothing
// is written then).
SftResult runSft(const SftConfig &config, const SftCallback &callback = {});
// The same with the tasks of `catalog`.
SftResult runSft(const SftConfig &config, const task::Catalog &catalog, const SftCallback &callback = {});

// One SFT training sequence: the prompt's tokens, the target's (the task's SFT target and
// the end-of-completion marker, encoded span by span around the environment's spans), the
// loss weight of each target token (0 on what the environment wrote, λ on control tags,
// else 1), and how many target tokens the policy wrote (the loss's normaliser N).
struct SftSequence {
    std::vector<int32_t> prompt;
    std::vector<int32_t> target;
    std::vector<float> weights;
    size_t policyTokens = 0;
};
SftSequence sftSequence(const task::Task &task, const task::Example &example, const tokenizer::Tokenizer &tokenizer,
                        const tokenizer::PromptFormat &format, const SftConfig &config);

// The loss of eq. 1 over `sequences` in one batch, divided by `normaliser`, and its
// gradient with respect to every trainable parameter, flattened in parameter order: what
// one SFT step on these sequences follows (fp32, no prompt loss). For tests.
struct SftGradient {
    double loss = 0;
    std::vector<float> gradient;
};
SftGradient sftGradient(model::CausalLM &lm, const std::vector<SftSequence> &sequences, double normaliser, int32_t pad);

// The loss of eq. 1, normalised by the number of target tokens the policy wrote (prompt
// tokens, when promptLossWeight > 0, add w·log p to the sum and count in the normaliser;
// tokens the environment wrote weigh 0 and do not count):
//   L = −(Σ_{t ∉ ctrl} log p_t + λ Σ_{t ∈ ctrl} log p_t) / N_target.
// logProbs and weights are per target token; exposed for tests.
double weightedNll(const std::vector<float> &logProbs, const std::vector<float> &weights);

} // namespace rwb::train
