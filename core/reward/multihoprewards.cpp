#include "reward/multihoprewards.h"

#include <algorithm>
#include <map>

namespace rwb::reward {

namespace {

// Precision and recall of the answer's tokens against the gold's (multisets).
std::pair<double, double> tokenOverlap(const std::string &answer, const std::string &gold)
{
    const std::vector<std::u32string> a = task::answerTokens(answer), g = task::answerTokens(gold);
    std::map<std::u32string, int> counts;
    for (const std::u32string &t : g)
        ++counts[t];
    double common = 0;
    for (const std::u32string &t : a)
        if (auto it = counts.find(t); it != counts.end() && it->second > 0) {
            --it->second;
            ++common;
        }
    return {a.empty() ? 0.0 : common / static_cast<double>(a.size()),
            g.empty() ? 0.0 : common / static_cast<double>(g.size())};
}

Explanation noAnswer(std::string reward, const task::MultihopExample &e)
{
    Explanation x;
    x.reward = std::move(reward);
    x.value = 0.0;
    x.reason = Reason::NoAnswer;
    x.gold = e.question().answer;
    x.detail = "no <answer> block: 0";
    return x;
}

} // namespace

double AnswerF1Reward::score(const task::MultihopExample &, const task::MultihopCompletion &c) const
{
    return c.trajectory().answer ? c.f1() : 0.0;
}

Explanation AnswerF1Reward::explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const
{
    if (!c.trajectory().answer)
        return noAnswer("answer_f1", e);
    Explanation x;
    x.reward = "answer_f1";
    x.value = score(e, c);
    x.reason = Reason::AnswerF1;
    x.answer = c.answer();
    x.gold = e.question().answer;
    std::tie(x.precision, x.recall) = tokenOverlap(x.answer, x.gold);
    x.detail = "answer tokens against gold tokens: F1 " + std::to_string(x.value);
    return x;
}

double AnswerEmReward::score(const task::MultihopExample &, const task::MultihopCompletion &c) const
{
    return c.trajectory().answer ? c.em() : 0.0;
}

Explanation AnswerEmReward::explain(const task::MultihopExample &e, const task::MultihopCompletion &c) const
{
    if (!c.trajectory().answer)
        return noAnswer("answer_em", e);
    Explanation x;
    x.reward = "answer_em";
    x.value = score(e, c);
    x.reason = Reason::AnswerEm;
    x.answer = c.answer();
    x.gold = e.question().answer;
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
