#include "tasks/legalqa/legaljudgedata.h"

#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/legalgrader.h"
#include "judge/judgeprompts.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace rwb::judge {

namespace {

// The vague wording that takes a fact's value's place ("14日以内" → "所定の期間内").
std::string vagueFor(const std::string &slot)
{
    if (slot == "deadline" || slot == "notice" || slot == "validity" || slot == "retention" || slot == "interval" ||
        slot == "duration")
        return "所定の期間";
    if (slot == "authority" || slot == "party")
        return "所管の行政庁";
    if (slot == "fee" || slot == "deposit" || slot == "fine")
        return "所定の額";
    return "所定の基準";
}

// `text` with its first occurrence of `from` replaced; false when there is none.
bool replaceFirst(std::string &text, const std::string &from, const std::string &to)
{
    const size_t at = text.find(from);
    if (at == std::string::npos || from.empty())
        return false;
    text.replace(at, from.size(), to);
    return true;
}

} // namespace

std::string legalVerdictTarget(double coverage, bool contradiction, const std::vector<std::string> &studentPoints,
                               const std::vector<std::string> &referencePoints)
{
    nlohmann::ordered_json j;
    j["point_thought"] = "Compare the facts of both answers.";
    j["student_points"] = studentPoints;
    j["reference_points"] = referencePoints;
    j["coverage"] = {{"thought", coverage >= 1.0   ? "Every reference point is stated."
                                 : coverage > 0.0 ? "Some reference points are stated."
                                                  : "No reference point is stated."},
                     {"score", coverage >= 1.0 ? "full-coverage" : coverage > 0.0 ? "partial-coverage" : "no-coverage"}};
    j["contradiction"] = {{"thought", contradiction ? "A stated value conflicts with the reference."
                                                    : "No stated value conflicts with the reference."},
                          {"score", contradiction ? "contradiction" : "no-contradiction"}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<JudgeExample> legalJudgeExamples(const data::LegalQuestion &q, const std::vector<std::string> &others,
                                             uint64_t seed, uint64_t index)
{
    util::Rng rng = util::Rng::forStream(seed, 0x4A554447 /* "JUDG" */, index);
    const eval::LegalReferenceGrader grader(q.slotValues);
    std::vector<std::string> referencePoints;
    for (const data::LegalFact &f : q.facts)
        referencePoints.push_back(f.value);

    // A wrong value for fact k: another value of its slot, drawn.
    const auto wrongValue = [&](size_t k) -> std::string {
        const auto it = q.slotValues.find(q.facts[k].slot);
        if (it == q.slotValues.end())
            return {};
        std::vector<std::string> v;
        for (const std::string &x : it->second)
            if (x != q.facts[k].value)
                v.push_back(x);
        return v.empty() ? std::string() : v[rng.below(v.size())];
    };

    std::vector<std::pair<std::string, std::string>> answers; // kind, text
    answers.emplace_back("right", q.referenceAnswer);
    if (!q.facts.empty()) {
        const size_t k = rng.below(q.facts.size());
        std::string vague = q.referenceAnswer;
        if (replaceFirst(vague, q.facts[k].value, vagueFor(q.facts[k].slot)))
            answers.emplace_back("vague", vague);
        std::string wrong = q.referenceAnswer;
        const std::string w = wrongValue(k);
        if (!w.empty() && replaceFirst(wrong, q.facts[k].value, w)) {
            answers.emplace_back("wrong", wrong);
            if (q.facts.size() > 1) {
                const size_t k2 = (k + 1 + rng.below(q.facts.size() - 1)) % q.facts.size();
                std::string both = wrong;
                if (replaceFirst(both, q.facts[k2].value, vagueFor(q.facts[k2].slot)))
                    answers.emplace_back("wrong_vague", both);
            }
        }
    }
    if (!others.empty()) {
        const std::string &other = others[rng.below(others.size())];
        if (other != q.referenceAnswer)
            answers.emplace_back("other", other);
    }

    std::vector<JudgeExample> out;
    for (const auto &[kind, answer] : answers) {
        const eval::LegalGrade g = grader.grade(answer, q.facts);
        JudgeExample e;
        e.id = q.id + "-" + kind;
        e.kind = kind;
        e.answer = answer;
        e.coverage = g.coverage;
        e.contradiction = g.consistency == 0.0;
        e.facts = static_cast<int>(q.facts.size());
        std::vector<std::string> studentPoints;
        for (const eval::FactGrade &f : g.facts)
            if (f.stated)
                studentPoints.push_back(f.fact.value);
        for (const eval::ValueMention &m : g.contradictions)
            if (std::find(studentPoints.begin(), studentPoints.end(), m.value) == studentPoints.end())
                studentPoints.push_back(m.value);
        e.messages = legalCoverageMessages(q.question, q.referenceAnswer, answer);
        e.target = legalVerdictTarget(e.coverage, e.contradiction, studentPoints, referencePoints);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace rwb::judge
