#pragma once

// The rewards of the multi-hop task (tasks/multihop/multihoptask.h): the fourth paper's outcome
// reward and its format check (ProRAG §3.2–3.3: the value of a finished trajectory is its
// answer's F1 against the gold answer when the trajectory is in the step format).
// Split into components so that a user weighs the format on its own: answer_f1 and
// answer_em score the <answer> block wherever it stands; step_format says whether the
// whole completion follows the step format.

#include "reward/reward.h"
#include "tasks/multihop/multihoptask.h"

namespace rwb::reward {

using MultihopReward = TaskReward<task::MultihopExample, task::MultihopCompletion>;

// answer_f1: F1 of the answer's tokens against the gold answer's (task::answerF1: mixed
// segmentation, numbers and Latin words whole); 0 without an <answer> block.
class AnswerF1Reward final : public MultihopReward {
public:
    std::string_view name() const override { return "answer_f1"; }
    double score(const task::MultihopExample &e, const task::MultihopCompletion &c) const override;
    Explanation explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const override;
};

// answer_em: 1 when the answer equals the gold answer after normalization
// (task::exactMatch), else 0; 0 without an <answer> block.
class AnswerEmReward final : public MultihopReward {
public:
    std::string_view name() const override { return "answer_em"; }
    double score(const task::MultihopExample &e, const task::MultihopCompletion &c) const override;
    Explanation explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const override;
};

// step_format: 1 when the completion follows the step format (task::parseTrajectory)
// through at least one retrieval hop to an <answer>, else 0.
class StepFormatReward final : public MultihopReward {
public:
    std::string_view name() const override { return "step_format"; }
    double score(const task::MultihopExample &e, const task::MultihopCompletion &c) const override;
    Explanation explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const override;
};

} // namespace rwb::reward
