#pragma once

// Rewards an LLM judge gives (docs/judges.md): the legal-QA paper's coverage and
// consistency (002 §3.2, NitiBench's grades), and Rubrics as Rewards (001): explicit
// aggregation of per-item verdicts, implicit aggregation (one rating for the whole
// rubric), and the Simple-Likert and Reference-Likert baselines.
//
// Each scores examples that are task::JudgedExample (the question, the reference answer,
// the rubric) against the completion's parsed answer. Requests go through the reward
// config's judge client (judge/judgeclient.h), concurrently, cached; identical requests
// are sent once (coverage and consistency share their call). A call that fails after its
// retries, or a reply that does not parse, makes the value None (reward.h, kNone) — never
// a silent 0 — and every call is logged as a JudgeDecision.

#include "reward/reward.h"

#include <memory>
#include <string>
#include <vector>

namespace rwb::llm {
struct ChatChoice;
}
namespace rwb::judge {
class JudgeClient;
struct Rubric;
using llm::ChatChoice;
enum class ItemMode;
} // namespace rwb::judge

namespace rwb::reward {

// The component options (RewardComponent::options) a judge reward reads:
//   rubric_explicit: "mode": "per_item" (one call per item, the default) | "all_items";
//                    "verdicts": "binary" (the default) | "continuous" (0–10 per item)
//   rubric_explicit, rubric_implicit: "rubric_file": a rubric shared by every example
//                    without its own (RaR or HealthBench JSON)
//   rubric_implicit, likert_simple, likert_reference, continuous items: "geval": true —
//                    the score is Σ s·p over the score token's top logprobs (G-Eval);
//                    needs a server that returns logprobs
struct JudgeRewardOptions {
    std::string mode = "per_item";
    std::string verdicts = "binary";
    std::shared_ptr<const judge::Rubric> rubric; // from rubric_file
    bool geval = false;
};

// Reads the options JSON ("" = none); throws std::invalid_argument naming the key.
// `baseDir` resolves a relative rubric_file.
JudgeRewardOptions parseJudgeRewardOptions(const std::string &reward, const std::string &json,
                                           const std::string &baseDir);

// A judge reward of one of the kinds coverage, consistency, rubric_explicit,
// rubric_implicit, likert_simple, likert_reference, registered under `name` (the kind
// when empty: another task may register a kind under its own name). Throws
// std::invalid_argument for an unknown kind, or when `client` is null.
// What a judge reward reads from one reply: the value of its part and what was read, as
// the JSON kept in judge_decisions.verdict (docs/store.md). Each throws (judge::VerdictError)
// when the reply cannot be read — the reward's value is then None.
struct ReadReply {
    double value = 0.0;
    std::string verdict;
};
// coverage (true) or consistency (false) from one NitiBench-style reply.
ReadReply readLegalReply(bool coverage, const std::string &content);
// rubric_explicit, one item (per_item); G-Eval over the logprobs for continuous verdicts.
ReadReply readRubricItemReply(const judge::Rubric &rubric, size_t item, judge::ItemMode mode,
                              const judge::ChatChoice &choice, bool geval);
// rubric_explicit, all items in one reply (all_items): the value is the rubric's score.
ReadReply readRubricAllItemsReply(const judge::Rubric &rubric, const std::string &content);
// A 1–10 rating (rubric_implicit, likert_simple, likert_reference) as a value in [0, 1].
ReadReply readRatingReply(const judge::ChatChoice &choice, bool geval);

std::unique_ptr<Reward> makeJudgeReward(const std::string &kind, std::shared_ptr<const judge::JudgeClient> client,
                                        JudgeRewardOptions options, const std::string &name = {});

} // namespace rwb::reward
