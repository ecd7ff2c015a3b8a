#pragma once

// The GRPO trainer behind runGrpo() (grpo.h), internal to core (includes libtorch). Its
// work is split along the data flow of a step, one file each:
//   grposampling.cpp  the prompts' order, G completions per prompt (dynamic sampling's rounds)
//   grposcoring.cpp   parsing by the task, the composite reward, the over-long penalty; evaluation
//   grpoupdate.cpp    group advantages, old / reference log-probs, the μ clipped updates
//   grpobookkeeping.cpp  the step's metrics, its rows for the run store, checkpoints
//   grpotrainer.cpp   set-up and the step loop (pause, stop, new weights, events)
// The trainer knows the task only through task::Task (task/task.h).
//
// Shape legend: B = groups (prompts) trained on, G = group size, R = B·G rows,
// T = the longest completion of a micro-batch, L = prompt + completion tokens, padded.

#include "model/causallminternals.h"
#include "model/precision.h"
#include "reward/compositereward.h"
#include "store/storetypes.h"
#include "task/environment.h"
#include "task/task.h"
#include "tokenizer/promptformat.h"
#include "train/advantages.h"
#include "train/environmentrollout.h"
#include "util/stats.h"
#include "train/grpo.h"
#include "train/grpoloss.h"
#include "train/nonerewards.h"
#include "train/policygradient.h"
#include "train/processrewardmodel.h"
#include "util/duration.h"

#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rwb::dist {
class ProcessGroup;
}
namespace rwb::store {
class RunStore;
}
namespace rwb::task {
class Catalog;
}
namespace rwb::tokenizer {
class Tokenizer;
}

namespace rwb::train::grpo {

using util::Clock;
using util::secondsSince;
using Metrics = std::vector<std::pair<std::string, double>>;

using util::meanOf;
using util::stdOf;

// Stream tags of the run's seed, so that every random draw of step s depends on (seed, s)
// alone: a resumed run draws what an uninterrupted one would.
enum Stream : uint64_t { kShuffle = 1, kSampling = 2, kDropout = 3, kLoraInit = 4 };
uint64_t streamSeed(uint64_t seed, uint64_t stream, uint64_t index);

// The prompts in a deterministic order: epoch e is a Fisher–Yates shuffle seeded by
// (seed, e); position p of the run is item order(p / N)[p % N].
class PromptOrder {
public:
    PromptOrder(size_t n, uint64_t seed) : m_n(n), m_seed(seed) {}
    size_t at(uint64_t position);

private:
    size_t m_n;
    uint64_t m_seed;
    uint64_t m_epoch = std::numeric_limits<uint64_t>::max();
    std::vector<size_t> m_order;
};

// A prompt of the task, encoded once.
struct Item {
    std::shared_ptr<const task::Example> example;
    std::string promptText;
    std::vector<int32_t> promptIds;
};

// One sampled completion and what the task and the rewards made of it.
struct Sample {
    size_t item = 0;
    std::vector<int32_t> tokens; // with the stop token when it stopped; a multi-step task's retrievals included
    std::vector<float> samplingLogProbs;
    std::vector<uint8_t> fromEnvironment; // per token: 1 where the environment wrote it (no loss); empty: none
    int policyTokens = 0;        // tokens the policy sampled (what max_completion_length limits)
    bool truncated = false;
    std::string decoded; // the completion's text, without the stop token (until parsed)
    std::unique_ptr<task::Completion> parsed; // what the task made of it
    std::vector<double> components;
    double overlong = 0.0;
    double reward = 0.0; // the weighted composite (+ the over-long penalty), what is optimized; NaN: None
    std::vector<reward::JudgeDecision> decisions; // the judge calls its rewards made
    // What its components said beside their values (reward::ItemNote), for the rollout's
    // details: {"reward_extra": {component: {…}}, "reward_errors": {component: "…"}}; "" none.
    std::string notesJson;
};

// A step's samples: every group sampled, and which of them are trained on.
struct SampledStep {
    std::vector<Sample> samples;     // groups of G, in sampling order
    std::vector<size_t> trainedGroups; // indices of groups in `samples`
    int rounds = 0;                  // generation rounds (dynamic sampling)
    double rewardSeconds = 0.0;      // wall time of scoring (judges included)
    // What the components logged for the step (reward::ScoreLog::takeMetrics): each
    // component's seconds ("reward_time/<component>") and a Python function's metrics,
    // summed over the rounds (seconds) or averaged (the rest) when the step is recorded.
    std::vector<std::pair<std::string, double>> rewardMetrics;
};

// What the update made of the rows trained on (rows = trainedGroups' samples, in order).
struct UpdateResult {
    std::vector<const Sample *> rows;
    std::vector<double> advantages;                // [R]
    std::vector<std::vector<float>> oldLogProbs;   // [R] μ > 1 only
    std::vector<std::vector<float>> newLogProbs;   // [R] the first update's
    std::vector<std::vector<float>> refLogProbs;   // [R] β > 0 only
    std::vector<std::vector<float>> entropies;     // [R]
    // Dual-granularity GRPO (a PRM given): [R] per token, A_out + β·A_proc of its step;
    // empty otherwise. And what the process rewards were.
    std::vector<std::vector<double>> tokenAdvantages;
    double prmScoreMean = 0.0, stepRewardMean = 0.0, stepsPerRow = 0.0, processAdvantageAbsMean = 0.0;
    // [R] per row: {"scores", "step_rewards", "advantages", "beta"} for the rollout's details.
    std::vector<std::string> processJson;
    double policyLoss = 0.0, gradNorm = 0.0, learningRate = 0.0;
    // Token-weighted sums over every update's micro-batches (μ > 1: the later updates are
    // where ratios leave 1 and clip, as TRL's logs average its μ steps), and their tokens.
    double clipLow = 0.0, clipHigh = 0.0, clipRegion = 0.0, kl = 0.0, updateTokens = 0.0;
    // The rows' extremes over every update (TRL's clip_ratio/low_min, high_max); +inf and
    // −inf until a row with an active token is seen.
    double clipLowMin = std::numeric_limits<double>::infinity();
    double clipHighMax = -std::numeric_limits<double>::infinity();
    // The first update's entropy (its forward pass computes them), token-weighted, and its tokens.
    double entropy = 0.0, tokens = 0.0;
};

struct TrainerState {
    int step = 0;           // the last step done
    uint64_t cursor = 0;    // prompts consumed
    int64_t runId = 0;
    std::string rewardConfigJson;
    double numTokens = 0.0; // TRL's num_tokens so far
};

// The state a checkpoint folder holds (trainer_state.json); throws data::InputException.
TrainerState readState(const std::string &dir);

class Trainer {
public:
    // `group`: this process is one rank of a data-parallel group (grpodist.cpp); null: alone.
    Trainer(const GrpoConfig &c, const task::Catalog &catalog, engine::JobControl &control, engine::EventSink &sink,
            dist::ProcessGroup *group = nullptr);
    ~Trainer();
    engine::JobOutcome run(GrpoRunResult *result);

private:
    // grpotrainer.cpp
    // CPU threads of this process: the config's, or the machine's shared by its ranks.
    int threads() const;
    void setUp();
    void loadModel();
    // grposampling.cpp
    SampledStep sample(int stepIndex);
    // Rows are numbered from `firstRow` in the round (their sampling streams).
    std::vector<Sample> sampleGroups(int stepIndex, int round, const std::vector<size_t> &items, uint64_t firstRow = 0);
    // The run's sampling with its task's environment (train/environmentrollout.h).
    RolloutOptions rolloutOptions(bool evaluation = false) const;
    // grposcoring.cpp
    // Parses every sample (its decoded text moves into `parsed`) and scores it.
    // Scores `samples`; what the components log goes to `rewardMetrics` when given.
    void score(std::vector<Sample> &samples, std::vector<std::pair<std::string, double>> *rewardMetrics = nullptr) const;
    // Greedy predictions on the eval set, scored: every rank generates and scores a
    // contiguous share of the batches one process makes; rank 0 gathers them, writes the
    // predictions and returns the metrics (the other ranks return none).
    Metrics evaluate(int stepIndex);
    // One eval example's prediction as a rank made it: the raw completion, its policy
    // tokens, its reward, components and judge calls, and (on the rank that made it) the
    // parsed completion; rank 0 parses the other ranks' texts again.
    struct EvalRow {
        size_t index = 0; // in m_eval
        std::string text;
        int policyTokens = 0;
        double reward = 0.0;
        std::vector<double> components;
        std::vector<reward::JudgeDecision> decisions;
        std::unique_ptr<task::Completion> parsed; // not sent to other ranks
        std::string notesJson; // as Sample::notesJson: the reward components' errors and extras
    };
    // Every rank's rows in rank order (grpodist.cpp).
    std::vector<EvalRow> shareEvalRows(std::vector<EvalRow> mine);
    // grpoupdate.cpp
    UpdateResult update(int stepIndex, const SampledStep &step);
    // The process advantages of the rows (grpoupdate.cpp): fills u.tokenAdvantages.
    void processAdvantages(UpdateResult &u);
    PolicyStepOptions policyOptions() const;
    // Rows per forward / backward: micro_batch rounded down to whole groups (at least one).
    // c.microBatch, or its default for the precision (grpo.h), in whole groups.
    int microRows() const
    {
        const int rows = c.microBatch > 0 ? c.microBatch
                                          : (m_precision.bf16 ? GrpoConfig::kMicroBatchBf16 : GrpoConfig::kMicroBatchFp32);
        return std::max(1, rows / c.groupSize) * c.groupSize;
    }
    // grpodist.cpp: the ranks of a data-parallel group (docs/scale.md); alone, rank 0 of 1.
    int rank() const;
    int worldSize() const;
    // This rank's contiguous share of a round's groups, and of the update's rows (whole
    // micro-batches), as [first, last).
    std::pair<size_t, size_t> groupShare(size_t groups) const;
    std::pair<size_t, size_t> rowShare(size_t rows) const;
    // This rank's contiguous share [first, last) of n eval batches.
    std::pair<size_t, size_t> batchShare(size_t batches) const;
    // The same model on every rank (checked), starting from rank 0's trainable weights.
    void syncModel();
    // Every rank's scored samples, in rank order (each rank passes its share).
    std::vector<Sample> shareSamples(std::vector<Sample> mine);
    // Every row's PRM step scores when each rank scored rows [from, from + mine.size())
    // of `rows`: the shares put together in row order, on every rank.
    std::vector<std::vector<double>> shareRowScores(const std::vector<std::vector<double>> &mine, size_t from,
                                                    size_t rows);
    // Sums the trainable parameters' gradients over the ranks.
    void allReduceGradients();
    // The update's sums over the ranks; rank 0 also gets the other ranks' rows (log-probs,
    // entropies) for the store. [from, to): this rank's rows.
    void gatherUpdate(UpdateResult &u, size_t from, size_t to);
    // Whether to go on to step `stepIndex`, and new reward weights: rank 0's JobControl
    // decides for every rank.
    struct StepCommand {
        bool go = true;
        std::optional<std::vector<double>> weights;
    };
    StepCommand stepCommand(int stepIndex);
    // grpobookkeeping.cpp
    Metrics stepMetrics(const SampledStep &step, const UpdateResult &update) const;
    void storeRows(const SampledStep &step, UpdateResult &update, std::vector<store::Rollout> &rollouts,
                   std::vector<store::Prompt> &prompts);
    std::string rewardsJson(const std::vector<double> &components, const double *overlong = nullptr) const;
    void saveCheckpoint(int stepIndex);

    const GrpoConfig &c;
    const task::Catalog &m_catalog;
    engine::JobControl &m_control;
    engine::EventSink &m_sink;
    dist::ProcessGroup *m_group = nullptr;

    const task::Task *m_task = nullptr;
    std::unique_ptr<task::Environment> m_env;     // a multi-step task's; null for others
    std::unique_ptr<task::Environment> m_evalEnv; // eval_data's, when eval_retrieval_index names another
    std::unique_ptr<ProcessRewardModel> m_prm;    // dual-granularity advantages: the PRM (null: outcome only)
    int32_t m_stepEnd = -1;                       // the token that ends a step (task::Steps::stepEnd)
    std::unique_ptr<tokenizer::Tokenizer> m_tok;
    tokenizer::PromptFormat m_format;
    std::unique_ptr<reward::CompositeReward> m_reward;
    bool m_judged = false; // a component of the reward asks an LLM judge (judge/* metrics)
    std::vector<Item> m_train;
    std::vector<Item> m_eval;
    std::unique_ptr<PromptOrder> m_order;
    std::unique_ptr<model::CausalLM> m_lm;
    std::unique_ptr<model::CausalLM> m_ref; // full fine-tuning with beta > 0 only
    std::unique_ptr<torch::optim::AdamW> m_optimizer;
    std::vector<torch::Tensor> m_params;
    std::unique_ptr<store::RunStore> m_store;
    std::set<std::string> m_storedPrompts;
    LossType m_lossType = LossType::Grpo;
    ScaleRewards m_scale = ScaleRewards::Group;
    NoneRewards m_none = NoneRewards::Skip; // c.noneRewards
    bool m_thinking = false;
    int32_t m_pad = 0;
    model::SamplingOptions m_sampling; // its `workers` also sets the update's (thread_split)
    TrainerState m_state;
    model::PrecisionChoice m_precision;
    GrpoTimings m_timings;
    double m_tokensThisRun = 0.0;
    int m_killAtStep = -1; // RWB_DEBUG_KILL_AT: the step this rank dies in (tests)
};

} // namespace rwb::train::grpo
