// The coverage and consistency judge kinds: one NitiBench-style call grades both the
// answer's coverage of the reference's points and whether it contradicts them.
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

class LegalKind final : public JudgeKind {
public:
    explicit LegalKind(bool coverage) : m_coverage(coverage) {}
    std::string_view name() const override { return m_coverage ? "coverage" : "consistency"; }
    std::vector<std::string_view> options() const override { return {}; }
    void check(const task::JudgedExample &e, const JudgeRewardOptions &, const std::string &id) const override
    {
        if (e.judgeReference().empty())
            throw std::invalid_argument("example " + id + " has no reference answer to judge against");
    }
    std::vector<JudgeAsk> asks(const task::JudgedExample &e, const task::Completion &c, const JudgeRewardOptions &o,
                               const std::string &id) const override
    {
        check(e, o, id);
        JudgeAsk a;
        a.messages = judge::legalCoverageMessages(e.judgeQuestion(), e.judgeReference(), c.answer());
        a.schema = judge::legalSchema();
        return {a};
    }
    ReadReply read(const JudgeAsk &, const judge::ChatChoice &choice, const JudgeRewardOptions &) const override
    {
        return readLegalReply(m_coverage, choice.content);
    }

private:
    bool m_coverage;
};

} // namespace

std::shared_ptr<const JudgeKind> judgekinds::legal(bool coverage)
{
    return std::make_shared<LegalKind>(coverage);
}

ReadReply readLegalReply(bool coverage, const std::string &content)
{
    const judge::LegalVerdict v = judge::parseLegalReply(content);
    ReadReply r;
    r.value = coverage ? v.coverage : (v.contradiction ? 0.0 : 1.0);
    r.verdict = dumpVerdict({{"coverage", v.coverage},
                             {"contradiction", v.contradiction},
                             {"student_points", v.studentPoints},
                             {"reference_points", v.referencePoints},
                             {"coverage_thought", v.coverageThought},
                             {"contradiction_thought", v.contradictionThought},
                             {"fallback", v.usedFallback},
                             {"span", span(v.location)}});
    return r;
}

} // namespace rwb::reward
