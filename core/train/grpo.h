#pragma once

// GRPO on any task (task/task.h; the first paper's §3, TRL's GRPOTrainer conventions):
// each step samples G completions for each of B prompts, scores them with the reward
// config's weighted composite, turns the rewards into group-relative advantages and
// takes a clipped policy-gradient step (docs/grpo.md has every formula). Every rollout,
// metric, reward-config version, checkpoint and evaluation prediction goes to the run
// store (docs/store.md).

#include "model/causallm.h"
#include "reward/rewardconfig.h"
#include "task/environment.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::task {
class Catalog;
}
namespace rwb::reward {
class Registry;
}

namespace rwb::engine {
class JobControl;
class EventSink;
struct JobOutcome;
} // namespace rwb::engine

namespace rwb::dist {
class ProcessGroup;
}

namespace rwb::train {

struct GrpoConfig {
    // ---- inputs and outputs (relative paths resolve against the config's folder)
    std::string model;        // the policy's starting point: a model folder (e.g. the SFT output)
    std::string initAdapter;  // optional: a LoRA adapter (e.g. SFT's) merged into the model first
    std::string trainData;    // the task's JSONL: the prompts
    std::string evalData;     // optional: validation JSONL for precision / recall / F1
    std::string rewardConfig; // reward config JSON (its "task" names the task, "thinking" the format)
    // The reward config itself, when the caller has it as a value (the workbench hands in
    // the Designer's; a config file may hold it inline as "reward_config": {…}, and a run
    // stores it so): then no file is read and rewardConfig, when set, only names it in
    // messages. Its baseDir resolves its relative paths.
    std::optional<reward::RewardConfig> reward;
    std::string store;        // the run store (SQLite); created when missing
    std::string output;       // run folder: checkpoints and the final adapter
    std::string runName;      // "" = the output folder's name

    // ---- sampling (the first paper's table 4)
    int groupSize = 8;        // G, num_generations
    int promptsPerStep = 8;   // B: 8 × 8 = the paper's 64 completions per step
    double temperature = 1.0;
    double topP = 1.0;
    int topK = 0;
    int maxNewTokens = 64;    // the completion limit (a completion that reaches it is truncated);
                              // the policy's tokens only: a multi-step task's retrievals do not count

    // ---- the environment of a multi-step task (task/environment.h): ignored by tasks without one
    task::EnvironmentOptions environment; // retrieval_index, retrieval_top_k, max_turns, max_turn_tokens
    std::string evalRetrievalIndex;       // eval_data's index when its questions are about another
                                          // knowledge base; "" = retrieval_index

    // ---- dual-granularity advantages (ProRAG §3.4; train/processadvantages.h): a PRM
    // folder turns them on (a multi-step task only); "" = the outcome's advantage alone
    std::string processRewardModel; // prm
    bool processReference = false;   // prm_reference: the task's reference step scores instead of a PRM (an oracle)
    double processBeta = 0.3;        // prm_beta: β of eq. 8 (the paper's 0.3)
    double processFormatBonus = 0.0; // prm_format_bonus: ν1 of eq. 5
    bool processSigmoid = true;      // prm_score: "sigmoid" (σ(R), a probability) or "raw" (R)
    int processBatch = 16;           // prm_batch: trajectories per PRM forward

    // ---- optimisation
    bool lora = true;
    model::LoraOptions loraOptions; // r 8, α 32, dropout 0.05
    double learningRate = 3e-5;
    double weightDecay = 0.0;
    double maxGradNorm = 1.0;
    std::string schedule = "constant_with_warmup"; // or "cosine"
    double warmupRatio = 0.0;
    int maxSteps = 100;
    // Rows per forward / backward (memory, not maths), rounded down to whole groups (at
    // least one). 0 (the default): 8 in fp32, 16 under bf16 autocast. On the bench's step
    // (docs/results.md, "Two cores against one") fp32 ran 3-8 % faster in micro-batches of
    // one group of 8, each padded to its own group's longest; bf16 ran 3-6 % slower, each
    // micro-batch casting every weight to bf16 again.
    int microBatch = 0;
    static constexpr int kMicroBatchFp32 = 8, kMicroBatchBf16 = 16;

    // ---- the loss (docs/grpo.md)
    std::string lossType = "grpo";    // grpo | bnpo | dr_grpo | dapo
    std::string scaleRewards = "group"; // group | batch | none
    double epsLow = 0.2;
    double epsHigh = 0.2;
    double beta = 0.0;        // k3 KL weight against the reference (adapters off)
    bool klBiasCorrection = true; // use_bias_correction_kl: the KL term times the ratio (TRL's default)
    int iterations = 1;       // μ: updates per generation batch, against stored old log-probs
    bool maskTruncated = false; // truncated completions get no gradient
    // Rollouts whose reward is None (a grader failed: a judge error, a Python reward that
    // raised or timed out, a remote reward that failed; reward/reward.h, kNone):
    //   "skip" (the default) its group's mean and std over the other rows, advantage 0;
    //   "zero" scored as reward 0 in the advantages (the stored reward stays None);
    //   "stop" as "skip", but a step whose share of None rewards is above
    //          noneStopFraction stops the run: its rollouts are stored, not trained on.
    std::string noneRewards = "skip"; // skip | zero | stop
    double noneStopFraction = 0.0;    // "stop": the largest share of a step's rollouts allowed None
    bool overlongPenalty = false; // DAPO's soft over-long punishment added to the reward
    int overlongCache = 0;        // L_cache; L_max = maxNewTokens
    bool dynamicSampling = false; // DAPO: drop groups with equal rewards and sample more
    int maxSamplingRounds = 3;    // generation rounds per step at most (dynamic sampling)

    // ---- evaluation, checkpoints, reproducibility
    int evalEvery = 0;        // > 0: evaluate before training and every N steps (and at the end)
    int evalLimit = 200;      // validation e-mails per evaluation
    int evalBatch = 16;
    int evalMaxNewTokens = 0; // 0 = maxNewTokens
    int checkpointEvery = 0;  // > 0: a checkpoint every N steps (and at the end)
    uint64_t seed = 0;
    std::string resumeFrom;   // a checkpoint folder: continue that run
    std::string dtype = "float32";
    std::string precision = "auto"; // autocast of the training forward: "auto" (bf16 where the
                                    // machine runs it fast, model/precision.h), "bf16" or "fp32"
    std::string device = "auto";
    int threads = 0;
    // How training uses its CPU threads: "batches" (micro-batches, and generation's prompts,
    // side by side, one thread each: model/workers.h) or "operations" (one at a time, each
    // operation spread over the threads by libtorch). Only the CPU; the loss is the same.
    std::string threadSplit = "batches";
    int debugNanStep = 0;     // > 0: the loss of this step is made NaN (tests of the NaN stop)
};

// Parses and validates (field-named data::InputException); relative paths resolve
// against the config's folder.
GrpoConfig parseGrpoConfig(std::string_view json, const std::string &source);
GrpoConfig loadGrpoConfig(const std::string &path);
// The config as JSON (stored with the run, and read back by parseGrpoConfig). A reward
// config held as a value is written inline, its paths absolute.
std::string toJson(const GrpoConfig &config);
// The run's reward config, validated: the value when the config holds one, else the file
// read. Throws data::InputException naming rewardConfigSource().
reward::RewardConfig rewardConfigOf(const GrpoConfig &config, const reward::Registry &registry);
// What messages call the reward config: its file, or for a value "<the GRPO config>: reward_config"
// (just "reward_config" for one built in code).
std::string rewardConfigSource(const GrpoConfig &config);

// Where a step's time went (seconds, summed over the steps run).
struct GrpoTimings {
    double generate = 0.0;
    double reward = 0.0;
    double logprobs = 0.0;  // no-grad forwards: old (μ > 1) and reference (β > 0) policies
    double backward = 0.0;  // forward with gradients + backward
    double optimizer = 0.0; // clipping and the AdamW step
    double store = 0.0;     // building the rows and writing them
    double eval = 0.0;
    double checkpoint = 0.0;
    double prm = 0.0;       // the PRM's forwards of the process rewards
    // Data parallel: sharing samples and rows, summing gradients, and waiting for the
    // slowest rank there (0 alone).
    double communicate = 0.0;
    double wall = 0.0;      // the steps' wall time (their step_time), all of the above and the rest
    double cpu = 0.0;       // this process's CPU time (all threads, user + system) over the same span
    int steps = 0;
};

struct GrpoRunResult {
    int64_t runId = 0;
    int lastStep = 0;
    GrpoTimings timings;
};

// Runs the config as a job step: the control is polled at every step boundary, the
// sink gets every step. Returns the outcome (Failed with a message naming the step for a
// NaN loss; what was written before stays). Throws data::InputException for bad inputs
// before the first step.
engine::JobOutcome runGrpo(const GrpoConfig &config, engine::JobControl &control, engine::EventSink &sink,
                           GrpoRunResult *result = nullptr);
// The same with the tasks and rewards of `catalog` (task/catalog.h): the reward config's
// "task" names the task, whose dataset lines train_data and eval_data hold.
engine::JobOutcome runGrpo(const GrpoConfig &config, const task::Catalog &catalog, engine::JobControl &control,
                           engine::EventSink &sink, GrpoRunResult *result = nullptr);
// As one rank of a data-parallel group (docs/scale.md): every rank runs this with the same
// config; each samples, scores and back-propagates its share of every step, the gradients
// are summed over the group, and rank 0 alone writes the run store, the checkpoints and
// the final model (the others' outcome has run id 0). Rank 0's `control` stops, pauses
// and re-weighs the whole group.
engine::JobOutcome runGrpo(const GrpoConfig &config, const task::Catalog &catalog, engine::JobControl &control,
                           engine::EventSink &sink, dist::ProcessGroup &group, GrpoRunResult *result = nullptr);

} // namespace rwb::train
