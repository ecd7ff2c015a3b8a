#pragma once

// Plain records that go into and come out of the run store (see docs/store.md for the
// tables and views they map to). Units: steps are optimizer steps from 0 or 1 as the
// trainer counts them; log-probs are natural logarithms; times are ISO 8601 UTC text.
#include "judge/decision.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace rwb::store {

// External: a run some other trainer did (verl, OpenRLHF, TRL): rewards `rwb serve`
// scored for it, or rollouts `rwb import` read from its dumps.
enum class RunKind { Sft, Grpo, Eval, Mcts, External };
enum class RunStatus { Running, Finished, Failed, Stopped };

// "sft" | "grpo" | "eval" | "mcts" | "external" and "running" | "finished" | "failed" | "stopped", as stored.
const char *toString(RunKind kind);
const char *toString(RunStatus status);

// One named value of one step ("reward", "rewards/marker/mean", "kl", …).
struct Metric {
    std::string name;
    double value = 0.0;
};

// A prompt of a run, stored once however many rollouts it has.
struct Prompt {
    std::string promptId; // the dataset's id, unique within a run
    std::string text;     // the prompt as the policy saw it
    std::string gold;     // the expected answer ("" when there is none)
    std::string metaJson; // anything else, a JSON object ("{}" when empty)
};

// One sampled completion with everything GRPO computed for it. The per-token arrays
// have one value per completion token (or are empty when not computed, e.g. no
// reference policy at β = 0).
struct Rollout {
    std::string promptId;  // must name a Prompt given in this or an earlier step of the run
    int groupIndex = 0;    // which group of the step (one group per prompt)
    int sampleIndex = 0;   // 0 … G-1 within the group
    std::string completion;
    std::string answer;    // the answer the task parsed from the completion
    std::vector<int32_t> tokenIds;
    std::vector<float> logprobsOld; // sampling policy
    std::vector<float> logprobsNew; // policy after the update's forward pass
    std::vector<float> logprobsRef; // reference policy (adapters off)
    std::vector<float> advantages;  // per token, as used in the loss
    std::vector<float> entropies;   // per token: the policy's entropy (nats) in the update's forward pass
    double reward = 0.0;            // the weighted composite actually optimized; NaN: None (NULL in the file)
    std::string rewardsJson = "{}"; // each component's value: {"partial":0.8,"marker":1}
    double advantage = 0.0;         // the sequence-level advantage of this sample
    int completionTokens = 0;
    bool truncated = false;         // hit the token limit before the stop token
    std::string detailsJson = "{}"; // what the task parsed beyond the answer (citations, …), a JSON object
    // The judge calls its rewards made (judge_decisions, written with the rollout).
    std::vector<judge::Decision> judgeDecisions{};
};

struct EvalPrediction {
    std::string exampleId;
    std::string prediction;
    std::string gold;
    bool correct = false;
    std::string rewardsJson = "{}";
    std::string detailsJson = "{}"; // what the task parsed beyond the answer
    std::vector<judge::Decision> judgeDecisions{}; // the judge calls its rewards made
};

struct RunInfo {
    int64_t id = 0;
    std::string name;
    std::string created;
    std::string kind;
    std::string configJson;
    std::string status;
    std::string message;
    std::string finished; // "" while running
    int64_t steps = 0;    // steps written (writeStep calls that committed)
    int64_t lastStep = -1; // -1 when none
    std::string task;     // the task's name, as its catalog knows it
    std::vector<std::string> tags; // alphabetical (byte order), each once; none before schema 9
};

// What a run holds, for a person about to delete it: row counts of each kind of data, and
// how long ago the run last wrote (its creation, its newest step, checkpoint or search tree).
struct RunContents {
    int64_t steps = 0;
    int64_t metrics = 0;
    int64_t rollouts = 0;
    int64_t prompts = 0;
    int64_t rewardConfigs = 0;
    int64_t checkpoints = 0;       // rows only: the checkpoint folders are files of their own
    int64_t evalPredictions = 0;
    int64_t judgeDecisions = 0;
    int64_t searchTrees = 0;
    double secondsSinceWrite = 0.0; // from the stored UTC times to now (≥ 0)
};

struct MetricPoint {
    int64_t step = 0;
    std::string name;
    double value = 0.0;
};

struct RewardConfigVersion {
    int64_t step = 0; // the first step the config applied to
    std::string configJson;
};

struct Checkpoint {
    int64_t step = 0;
    std::string path;
    std::string created;
};

struct StoredEvalPrediction {
    int64_t checkpointStep = 0;
    EvalPrediction prediction;
};

// A rollout as read back: its row id (for paging), where it belongs, and the prompt.
struct StoredRollout {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t step = 0;
    std::string prompt; // the prompt's text
    std::string gold;
    Rollout rollout;    // token arrays are filled only by RunStore::rollout(id)
};

// A condition on one reward component: json_extract(rewards_json, '$."name"') op value.
struct ComponentCondition {
    enum class Op { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
    std::string component;
    Op op = Op::Less;
    double value = 0.0;
};

// Which rollouts of a run to list. Every set field narrows the result (AND).
struct RolloutFilter {
    int64_t runId = 0;
    // Every run of the store instead of runId's (a search across runs); rows still come
    // in id order, a page at a time.
    bool allRuns = false;
    std::optional<int64_t> stepMin, stepMax;   // inclusive
    std::optional<double> rewardMin, rewardMax; // inclusive
    std::vector<ComponentCondition> components;
    std::optional<bool> truncated;
    std::string completionMatch; // an FTS5 query over completion text ("" = any)
    std::string promptMatch;     // an FTS5 query over prompt text ("" = any)
};

// One page of rollouts in id order; pass `nextAfterId` back to get the next page.
struct RolloutPage {
    std::vector<StoredRollout> rows;
    int64_t nextAfterId = 0;
    bool more = false; // true when the page was full (there may be more)
};

// One value of an ad-hoc query's row.
struct SqlValue {
    enum class Type { Null, Integer, Real, Text, Blob };
    Type type = Type::Null;
    int64_t integer = 0;
    double real = 0.0;
    std::string bytes; // Text (UTF-8) or Blob
};

// A judge decision as stored: the decision and what it belongs to.
struct StoredJudgeDecision {
    int64_t id = 0;
    int64_t runId = 0;
    int64_t step = 0;          // the rollout's step, or the checkpoint step of an evaluation
    int64_t rolloutId = 0;     // 0 for a decision on an evaluation prediction
    std::string exampleId;     // the evaluation prediction's example ("" for rollouts)
    judge::Decision decision;  // decision.item is 0
};

// One judge decision as a list of them shows it (the judge view): without the request
// and the reply, with where it stands (the rollout's group and sample) and the reference
// grader's grades stored with what it judged (NaN when none).
struct JudgeDecisionListing {
    int64_t id = 0;
    int64_t step = 0;
    int64_t rolloutId = 0;       // 0 for an evaluation prediction
    std::string exampleId;       // the evaluation prediction's ("" for rollouts)
    int groupIndex = -1;         // the rollout's (−1 for evaluations)
    int sampleIndex = -1;
    std::string reward, part, verdict, error;
    double value = std::numeric_limits<double>::quiet_NaN(); // NaN: None
    double latencySeconds = 0.0;
    int64_t promptTokens = 0, completionTokens = 0;
    double cost = 0.0;
    bool cacheHit = false;
    int attempts = 0;
    bool hasReply = false;       // the judge answered
    double coverageGrade = std::numeric_limits<double>::quiet_NaN();
    double consistencyGrade = std::numeric_limits<double>::quiet_NaN();
};

// Which judge decisions of a run to list; every set field narrows the result (AND).
struct JudgeDecisionFilter {
    std::optional<int64_t> rolloutId;
    std::optional<int64_t> step;
    std::optional<std::string> exampleId; // evaluation predictions of this example
    bool evaluation = false;              // true: evaluation decisions only; false: rollouts' only
    std::optional<std::string> reward;
    bool failuresOnly = false;            // with an error
    int limit = 0;                        // 0: all
};

} // namespace rwb::store
