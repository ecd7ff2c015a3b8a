// The rubric_explicit judge kind (Rubrics as Rewards): each item of the rubric judged met
// or not (or scored 0–10), one call per item or all items in one call, the value
// Σ w·c / Σ w⁺.
#include "reward/judgekinds/builtin.h"

#include "reward/judgerewards.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "judge/verdict.h"
#include "task/task.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>

namespace rwb::reward {

using judgekinds::dumpVerdict;
using judgekinds::span;
using json = nlohmann::json;

namespace {

judge::ItemMode itemMode(const JudgeRewardOptions &o)
{
    return o.verdicts == "continuous" ? judge::ItemMode::Continuous : judge::ItemMode::Binary;
}

class RubricExplicitKind final : public JudgeKind {
public:
    std::string_view name() const override { return "rubric_explicit"; }
    std::vector<std::string_view> options() const override { return {"geval", "mode", "verdicts", "rubric_file"}; }
    void check(const task::JudgedExample &e, const JudgeRewardOptions &o, const std::string &id) const override
    {
        rubricOf(e, o, id);
    }
    std::vector<JudgeAsk> asks(const task::JudgedExample &e, const task::Completion &c, const JudgeRewardOptions &o,
                               const std::string &id) const override
    {
        const judge::Rubric &rubric = rubricOf(e, o, id);
        std::vector<JudgeAsk> out;
        if (o.mode == "all_items") {
            JudgeAsk a;
            a.messages = judge::rubricAllItemsMessages(e.judgeQuestion(), c.answer(), rubric, e.judgeReference());
            a.schema = judge::rubricAllItemsSchema(rubric.items.size());
            a.rubric = &rubric;
            out.push_back(std::move(a));
            return out;
        }
        for (size_t k = 0; k < rubric.items.size(); ++k) {
            JudgeAsk a;
            a.part = "items[" + std::to_string(k) + "]";
            a.messages = judge::rubricItemMessages(e.judgeQuestion(), c.answer(), rubric.items[k], itemMode(o),
                                                   e.judgeReference());
            a.schema = judge::rubricItemSchema(itemMode(o));
            a.item = k;
            a.rubric = &rubric;
            out.push_back(std::move(a));
        }
        return out;
    }
    ReadReply read(const JudgeAsk &a, const judge::ChatChoice &choice, const JudgeRewardOptions &o) const override
    {
        if (o.mode == "all_items")
            return readRubricAllItemsReply(*a.rubric, choice.content);
        return readRubricItemReply(*a.rubric, a.item, itemMode(o), choice, o.geval);
    }
    double aggregate(const std::vector<JudgeAsk> &asks, const std::vector<double> &values,
                     const JudgeRewardOptions &o) const override
    {
        if (o.mode == "all_items")
            return values.front();
        std::vector<std::optional<double>> c(values.begin(), values.end());
        return *judge::explicitScore(*asks.front().rubric, c);
    }
};

} // namespace

std::shared_ptr<const JudgeKind> judgekinds::rubricExplicit()
{
    return std::make_shared<RubricExplicitKind>();
}

ReadReply readRubricItemReply(const judge::Rubric &rubric, size_t item, judge::ItemMode mode,
                              const judge::ChatChoice &choice, bool geval)
{
    const judge::RubricItem &it = rubric.items.at(item);
    judge::ItemVerdict v = judge::parseRubricItemReply(choice.content, mode);
    if (geval && mode == judge::ItemMode::Continuous)
        if (const std::optional<double> g = judge::gevalScore(choice.logprobs, 0, 10, judge::kItemScoreKey, nullptr))
            v.c = *g / 10.0;
    json verdict = {{"criterion", it.criterion},
                    {"category", judge::toString(it.category)},
                    {"weight", it.weight},
                    {"c", v.c},
                    {"contribution", it.weight * v.c / rubric.positiveWeight()},
                    {"explanation", v.explanation},
                    {"span", span(v.location)}};
    if (v.met)
        verdict["met"] = *v.met;
    if (v.score)
        verdict["score"] = *v.score;
    return {v.c, dumpVerdict(verdict)};
}

ReadReply readRubricAllItemsReply(const judge::Rubric &rubric, const std::string &content)
{
    const judge::AllItemsVerdict v = judge::parseRubricAllItemsReply(content, rubric.items.size());
    const std::vector<std::optional<double>> c = v.verdicts();
    const std::vector<judge::ItemContribution> parts = judge::explicitBreakdown(rubric, c);
    json items = json::array();
    for (size_t k = 0; k < rubric.items.size(); ++k)
        items.push_back({{"criterion", rubric.items[k].criterion},
                         {"category", judge::toString(rubric.items[k].category)},
                         {"weight", rubric.items[k].weight},
                         {"c", *c[k]},
                         {"contribution", parts[k].contribution},
                         {"explanation", v.explanations[k]}});
    ReadReply r;
    r.value = *judge::explicitScore(rubric, c);
    r.verdict = dumpVerdict({{"items", std::move(items)}, {"score", r.value}, {"fallback", v.usedFallback},
                             {"span", span(v.location)}});
    return r;
}

} // namespace rwb::reward
