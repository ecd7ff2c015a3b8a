#include "tasks/multihop/multihoprewards.h"

namespace rwb::reward {

namespace {

// What answer_f1 and answer_em saw: the answer and the gold, or that there is no answer.
Explanation answerExplanation(std::string reward, double value, Reason reason, const task::MultihopExample &e,
                              const task::MultihopCompletion &c)
{
    Explanation x;
    x.reward = std::move(reward);
    x.gold = e.question().answer;
    if (!c.trajectory().answer) {
        x.reason = Reason::NoAnswer;
        x.detail = "no <answer> block: 0";
        return x;
    }
    x.value = value;
    x.reason = reason;
    x.answer = c.answer();
    return x;
}

} // namespace

double AnswerF1Reward::score(const task::MultihopExample &, const task::MultihopCompletion &c) const
{
    return c.trajectory().answer ? c.f1() : 0.0;
}

Explanation AnswerF1Reward::explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const
{
    Explanation x = answerExplanation("answer_f1", score(e, c), Reason::AnswerF1, e, c);
    if (x.reason == Reason::AnswerF1) {
        const task::AnswerOverlap o = task::answerOverlap(x.answer, x.gold);
        x.precision = o.precision;
        x.recall = o.recall;
        x.detail = "answer tokens against gold tokens: F1 " + std::to_string(x.value);
    }
    return x;
}

double AnswerEmReward::score(const task::MultihopExample &, const task::MultihopCompletion &c) const
{
    return c.trajectory().answer ? c.em() : 0.0;
}

Explanation AnswerEmReward::explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const
{
    Explanation x = answerExplanation("answer_em", score(e, c), Reason::AnswerEm, e, c);
    if (x.reason == Reason::AnswerEm)
        x.detail = x.value == 1.0 ? "the answer equals the gold answer: 1" : "the answer is not the gold answer: 0";
    return x;
}

double StepFormatReward::score(const task::MultihopExample &, const task::MultihopCompletion &c) const
{
    const task::Trajectory &t = c.trajectory();
    return t.wellFormed && t.answer && !t.hops.empty() ? 1.0 : 0.0;
}

Explanation StepFormatReward::explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const
{
    const task::Trajectory &t = c.trajectory();
    Explanation x;
    x.reward = "step_format";
    x.value = score(e, c);
    if (x.value == 1.0) {
        x.reason = Reason::StepFormatOk;
        x.detail = "the step format through " + std::to_string(t.hops.size()) + " hop(s) to an answer: 1";
    } else {
        x.reason = Reason::StepFormatBad;
        x.formatName = !t.wellFormed ? t.problem : !t.answer ? std::string("no <answer> block") : std::string("no retrieval hop before the answer");
        x.detail = "format broken: " + x.formatName;
    }
    x.hops = static_cast<int>(t.hops.size());
    return x;
}

} // namespace rwb::reward
