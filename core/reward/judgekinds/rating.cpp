// The rating judge kinds: one 1–10 rating, as (r − 1) / 9 (or G-Eval's weighted rating).
// rubric_implicit rates against the whole rubric, likert_simple the answer alone,
// likert_reference against the reference answer.
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

class RatingKind final : public JudgeKind {
public:
    explicit RatingKind(std::string name) : m_name(std::move(name)) {}
    std::string_view name() const override { return m_name; }
    std::vector<std::string_view> options() const override
    {
        if (m_name == "rubric_implicit")
            return {"geval", "rubric_file"};
        return {"geval"};
    }
    void check(const task::JudgedExample &e, const JudgeRewardOptions &o, const std::string &id) const override
    {
        if (m_name == "rubric_implicit")
            rubricOf(e, o, id);
        else if (m_name == "likert_reference" && e.judgeReference().empty())
            throw std::invalid_argument("example " + id + " has no reference answer");
    }
    std::vector<JudgeAsk> asks(const task::JudgedExample &e, const task::Completion &c, const JudgeRewardOptions &o,
                               const std::string &id) const override
    {
        check(e, o, id);
        JudgeAsk a;
        if (m_name == "rubric_implicit")
            a.messages = judge::rubricImplicitMessages(e.judgeQuestion(), c.answer(), rubricOf(e, o, id));
        else if (m_name == "likert_reference")
            a.messages = judge::likertReferenceMessages(e.judgeQuestion(), e.judgeReference(), c.answer());
        else
            a.messages = judge::likertSimpleMessages(e.judgeQuestion(), c.answer());
        a.schema = judge::ratingSchema();
        return {a};
    }
    ReadReply read(const JudgeAsk &, const judge::ChatChoice &choice, const JudgeRewardOptions &o) const override
    {
        return readRatingReply(choice, o.geval);
    }

private:
    std::string m_name;
};

} // namespace

std::shared_ptr<const JudgeKind> judgekinds::rating(std::string name)
{
    return std::make_shared<RatingKind>(std::move(name));
}

ReadReply readRatingReply(const judge::ChatChoice &choice, bool geval)
{
    const judge::RatingVerdict v = judge::parseRatingReply(choice.content);
    double value = v.unit;
    json verdict = {{"rating", v.rating}, {"span", span(v.location)}};
    if (geval) {
        judge::GevalDetail detail;
        if (const std::optional<double> g = judge::gevalScore(choice.logprobs, 1, 10, judge::kRatingKey, &detail)) {
            value = judge::likertToUnit(*g);
            verdict["geval"] = *g;
            json used = json::array();
            for (const auto &[s, prob] : detail.used)
                used.push_back({s, prob});
            verdict["geval_used"] = std::move(used);
        } else {
            verdict["geval"] = nullptr; // no logprobs came back: the written rating counts
        }
    }
    verdict["unit"] = value;
    return {value, dumpVerdict(verdict)};
}

} // namespace rwb::reward
