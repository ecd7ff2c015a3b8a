// The GRPO config (parsing, JSON) and runGrpo(); the trainer is in grpotrainer.h and the
// files it names.

#include "train/grpo.h"

#include "data/configreader.h"
#include "data/jsonl.h"
#include "engine/job.h"
#include "task/catalog.h"
#include "train/grpotrainer.h"
#include "train/sft.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace rwb::train {

GrpoConfig parseGrpoConfig(std::string_view json, const std::string &source)
{
    const data::ConfigReader r(
        json, source,
        {"model", "init_adapter", "train_data", "eval_data", "reward_config", "store", "output", "run_name",
         "num_generations", "prompts_per_step", "temperature", "top_p", "top_k", "max_completion_length",
         "retrieval_index", "eval_retrieval_index", "retrieval_top_k", "max_turns", "max_turn_tokens", "prm",
         "prm_beta", "prm_format_bonus", "prm_score", "prm_batch", "prm_reference", "lora",
         "lora_r", "lora_alpha", "lora_dropout", "lora_target_modules", "use_rslora", "learning_rate", "weight_decay",
         "max_grad_norm", "schedule", "warmup_ratio", "max_steps", "micro_batch", "loss_type", "scale_rewards",
         "epsilon", "epsilon_high", "beta", "use_bias_correction_kl", "num_iterations", "mask_truncated_completions", "none_rewards", "none_stop_fraction", "overlong_penalty",
         "overlong_cache", "dynamic_sampling", "max_sampling_rounds", "eval_every", "eval_limit", "eval_batch",
         "eval_max_completion_length", "checkpoint_every", "seed", "resume_from", "dtype", "precision", "device",
         "threads", "thread_split", "debug_nan_step"});
    GrpoConfig c;
    c.model = r.path("model", true);
    c.initAdapter = r.path("init_adapter", false);
    c.trainData = r.path("train_data", true);
    c.evalData = r.path("eval_data", false);
    // A file, or the reward config itself (an object: inline in a config, or stored with a run).
    // Read here; checked against the trainer's catalog by rewardConfigOf.
    if (const std::string inline_ = r.raw("reward_config"); !inline_.empty() && inline_.front() == '{') {
        const std::string baseDir =
            (source.empty() ? std::filesystem::current_path() : std::filesystem::absolute(source).parent_path())
                .lexically_normal()
                .string();
        c.reward = reward::readRewardConfigJson(inline_, source + ": reward_config", baseDir);
        c.reward->baseDir = baseDir;
    } else {
        c.rewardConfig = r.path("reward_config", true);
    }
    c.store = r.path("store", true);
    c.output = r.path("output", true);
    c.runName = r.text("run_name", "");
    c.groupSize = r.integer("num_generations", c.groupSize, 2, 1024);
    c.promptsPerStep = r.integer("prompts_per_step", c.promptsPerStep, 1, 4096);
    c.temperature = r.number("temperature", c.temperature, 0.01, 100);
    c.topP = r.number("top_p", c.topP, 0.0001, 1);
    c.topK = r.integer("top_k", c.topK, 0, 1 << 30);
    c.maxNewTokens = r.integer("max_completion_length", c.maxNewTokens, 1, 1 << 20);
    c.environment.source = source;
    c.environment.index = r.path("retrieval_index", false);
    c.evalRetrievalIndex = r.path("eval_retrieval_index", false);
    c.environment.topK = r.integer("retrieval_top_k", c.environment.topK, 1, 1000);
    c.environment.maxTurns = r.integer("max_turns", c.environment.maxTurns, 0, 1000);
    c.environment.maxTurnTokens = r.integer("max_turn_tokens", c.environment.maxTurnTokens, 0, 1 << 20);
    c.processRewardModel = r.path("prm", false);
    c.processReference = r.boolean("prm_reference", false);
    if (c.processReference && !c.processRewardModel.empty())
        r.fail("prm_reference", "and \"prm\" both give step scores: name one");
    c.processBeta = r.number("prm_beta", c.processBeta, 0, 100);
    c.processFormatBonus = r.number("prm_format_bonus", c.processFormatBonus, 0, 100);
    c.processSigmoid = r.choice("prm_score", c.processSigmoid ? "sigmoid" : "raw", {"sigmoid", "raw"}) == "sigmoid";
    c.processBatch = r.integer("prm_batch", c.processBatch, 1, 4096);
    readTrainerKeys(r, c);
    c.maxSteps = r.integer("max_steps", c.maxSteps, 1, 100000000);
    c.microBatch = r.integer("micro_batch", c.microBatch, 0, 65536);
    c.lossType = r.choice("loss_type", c.lossType, {"grpo", "bnpo", "dr_grpo", "dapo"});
    c.scaleRewards = r.choice("scale_rewards", c.scaleRewards, {"group", "batch", "none"});
    c.epsLow = r.number("epsilon", c.epsLow, 0, 0.999);
    c.epsHigh = r.number("epsilon_high", c.epsLow, 0, 100);
    c.beta = r.number("beta", c.beta, 0, 1000);
    c.klBiasCorrection = r.boolean("use_bias_correction_kl", c.klBiasCorrection);
    c.iterations = r.integer("num_iterations", c.iterations, 1, 64);
    c.maskTruncated = r.boolean("mask_truncated_completions", c.maskTruncated);
    c.noneRewards = r.choice("none_rewards", c.noneRewards, {"skip", "zero", "stop"});
    c.noneStopFraction = r.number("none_stop_fraction", c.noneStopFraction, 0, 1);
    c.overlongPenalty = r.boolean("overlong_penalty", c.overlongPenalty);
    c.overlongCache = r.integer("overlong_cache", c.overlongCache, 0, 1 << 20);
    if (c.overlongCache > c.maxNewTokens)
        r.fail("overlong_cache", "must not exceed max_completion_length (" + std::to_string(c.maxNewTokens) + ")");
    c.dynamicSampling = r.boolean("dynamic_sampling", c.dynamicSampling);
    c.maxSamplingRounds = r.integer("max_sampling_rounds", c.maxSamplingRounds, 1, 1000);
    c.evalEvery = r.integer("eval_every", c.evalEvery, 0, 100000000);
    c.evalLimit = r.integer("eval_limit", c.evalLimit, 0, 100000000);
    c.evalBatch = r.integer("eval_batch", c.evalBatch, 1, 65536);
    c.evalMaxNewTokens = r.integer("eval_max_completion_length", c.evalMaxNewTokens, 0, 1 << 20);
    c.checkpointEvery = r.integer("checkpoint_every", c.checkpointEvery, 0, 100000000);
    c.seed = static_cast<uint64_t>(r.number("seed", 0, 0, 9.0e15));
    c.resumeFrom = r.path("resume_from", false);
    c.dtype = r.choice("dtype", c.dtype, {"float32", "bfloat16", "auto"});
    c.precision = r.choice("precision", c.precision, {"auto", "bf16", "fp32"});
    c.device = r.choice("device", c.device, {"auto", "cpu", "cuda"});
    c.threads = r.integer("threads", 0, 0, 1024);
    c.threadSplit = r.choice("thread_split", c.threadSplit, {"batches", "operations"});
    c.debugNanStep = r.integer("debug_nan_step", 0, 0, 100000000);
    if (c.evalEvery > 0 && c.evalData.empty())
        r.fail("eval_every", "needs eval_data");
    return c;
}

GrpoConfig loadGrpoConfig(const std::string &path)
{
    return parseGrpoConfig(data::readTextFile(path), path);
}

std::string rewardConfigSource(const GrpoConfig &c)
{
    if (!c.reward || !c.rewardConfig.empty())
        return c.rewardConfig;
    // Inline: named by the GRPO config it was read from, when there was one.
    return c.environment.source.empty() ? std::string("reward_config") : c.environment.source + ": reward_config";
}

reward::RewardConfig rewardConfigOf(const GrpoConfig &c, const reward::Registry &registry)
{
    if (c.reward) {
        reward::RewardConfig rc = *c.reward;
        reward::validateRewardConfig(rc, rewardConfigSource(c), registry);
        if (rc.task.empty())
            rc.task = registry.defaultTask();
        return rc;
    }
    if (!std::filesystem::exists(c.rewardConfig))
        throw data::InputException({c.rewardConfig, 0, "reward_config: the file does not exist"});
    return reward::loadRewardConfig(c.rewardConfig, registry);
}

std::string toJson(const GrpoConfig &c)
{
    nlohmann::ordered_json j;
    j["model"] = c.model;
    if (!c.initAdapter.empty())
        j["init_adapter"] = c.initAdapter;
    j["train_data"] = c.trainData;
    if (!c.evalData.empty())
        j["eval_data"] = c.evalData;
    if (c.reward)
        j["reward_config"] = nlohmann::ordered_json::parse(reward::toJson(reward::withAbsolutePaths(*c.reward)));
    else
        j["reward_config"] = c.rewardConfig;
    j["store"] = c.store;
    j["output"] = c.output;
    if (!c.runName.empty())
        j["run_name"] = c.runName;
    j["num_generations"] = c.groupSize;
    j["prompts_per_step"] = c.promptsPerStep;
    j["temperature"] = c.temperature;
    j["top_p"] = c.topP;
    j["top_k"] = c.topK;
    j["max_completion_length"] = c.maxNewTokens;
    if (!c.environment.index.empty())
        j["retrieval_index"] = c.environment.index;
    if (!c.evalRetrievalIndex.empty())
        j["eval_retrieval_index"] = c.evalRetrievalIndex;
    j["retrieval_top_k"] = c.environment.topK;
    j["max_turns"] = c.environment.maxTurns;
    j["max_turn_tokens"] = c.environment.maxTurnTokens;
    if (!c.processRewardModel.empty() || c.processReference) {
        if (c.processReference)
            j["prm_reference"] = true;
        else
            j["prm"] = c.processRewardModel;
        j["prm_beta"] = c.processBeta;
        j["prm_format_bonus"] = c.processFormatBonus;
        j["prm_score"] = c.processSigmoid ? "sigmoid" : "raw";
        j["prm_batch"] = c.processBatch;
    }
    j["lora"] = c.lora;
    j["lora_r"] = c.loraOptions.rank;
    j["lora_alpha"] = c.loraOptions.alpha;
    j["lora_dropout"] = c.loraOptions.dropout;
    j["lora_target_modules"] = c.loraOptions.targetModules;
    j["use_rslora"] = c.loraOptions.rslora;
    j["learning_rate"] = c.learningRate;
    j["weight_decay"] = c.weightDecay;
    j["max_grad_norm"] = c.maxGradNorm;
    j["schedule"] = c.schedule;
    j["warmup_ratio"] = c.warmupRatio;
    j["max_steps"] = c.maxSteps;
    j["micro_batch"] = c.microBatch;
    j["loss_type"] = c.lossType;
    j["scale_rewards"] = c.scaleRewards;
    j["epsilon"] = c.epsLow;
    j["epsilon_high"] = c.epsHigh;
    j["beta"] = c.beta;
    j["use_bias_correction_kl"] = c.klBiasCorrection;
    j["num_iterations"] = c.iterations;
    j["mask_truncated_completions"] = c.maskTruncated;
    j["none_rewards"] = c.noneRewards;
    j["none_stop_fraction"] = c.noneStopFraction;
    j["overlong_penalty"] = c.overlongPenalty;
    j["overlong_cache"] = c.overlongCache;
    j["dynamic_sampling"] = c.dynamicSampling;
    j["max_sampling_rounds"] = c.maxSamplingRounds;
    j["eval_every"] = c.evalEvery;
    j["eval_limit"] = c.evalLimit;
    j["eval_batch"] = c.evalBatch;
    j["eval_max_completion_length"] = c.evalMaxNewTokens;
    j["checkpoint_every"] = c.checkpointEvery;
    j["seed"] = c.seed;
    j["dtype"] = c.dtype;
    j["precision"] = c.precision;
    j["device"] = c.device;
    j["threads"] = c.threads;
    j["thread_split"] = c.threadSplit;
    return j.dump(2);
}

engine::JobOutcome runGrpo(const GrpoConfig &config, engine::JobControl &control, engine::EventSink &sink,
                           GrpoRunResult *result)
{
    return runGrpo(config, task::Catalog::builtin(), control, sink, result);
}

engine::JobOutcome runGrpo(const GrpoConfig &config, const task::Catalog &catalog, engine::JobControl &control,
                           engine::EventSink &sink, GrpoRunResult *result)
{
    grpo::Trainer trainer(config, catalog, control, sink);
    return trainer.run(result);
}

engine::JobOutcome runGrpo(const GrpoConfig &config, const task::Catalog &catalog, engine::JobControl &control,
                           engine::EventSink &sink, dist::ProcessGroup &group, GrpoRunResult *result)
{
    grpo::Trainer trainer(config, catalog, control, sink, &group);
    return trainer.run(result);
}

} // namespace rwb::train
