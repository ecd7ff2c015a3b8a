#include "tasks/legalqa/legaljudgedata.h"

#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/legalgrader.h"
#include "tasks/legalqa/legalrubric.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <optional>
#include <stdexcept>

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

// A request's messages as the chat lines write them.
nlohmann::json messagesJson(const std::vector<ChatMessage> &messages)
{
    nlohmann::json out = nlohmann::json::array();
    for (const ChatMessage &m : messages)
        out.push_back({{"role", m.role}, {"content", m.content}});
    return out;
}

// Why question.rubric is not rubricFromFacts(question); "" when it is, or is empty.
std::string rubricFromFactsMismatch(const data::LegalQuestion &q)
{
    if (q.rubric.empty())
        return {};
    Rubric own;
    try {
        own = parseRubricText(q.rubric, "its \"rubric\"");
    } catch (const std::exception &e) {
        return e.what();
    }
    const nlohmann::json ownRaR = toRaR(own), factsRaR = toRaR(rubricFromFacts(q));
    if (ownRaR == factsRaR)
        return {};
    if (ownRaR.size() != factsRaR.size())
        return "its \"rubric\" has " + std::to_string(ownRaR.size()) + " items, its rubric from facts " +
               std::to_string(factsRaR.size());
    for (size_t i = 0; i < ownRaR.size(); ++i)
        if (ownRaR[i] != factsRaR[i])
            return "item " + std::to_string(i) + " of its \"rubric\" is " + ownRaR[i].dump() +
                   ", of its rubric from facts " + factsRaR[i].dump();
    return "its \"rubric\" differs from its rubric from facts";
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

std::vector<std::string> defaultLegalAnswerKinds()
{
    return {"right", "vague", "wrong", "wrong_vague", "other"};
}

std::vector<JudgeExample> legalJudgeExamples(const data::LegalQuestion &q, const std::vector<std::string> &others,
                                             uint64_t seed, uint64_t index, const std::vector<std::string> &answerKinds)
{
    for (const std::string &kind : answerKinds)
        if (std::find(std::begin(kLegalAnswerKinds), std::end(kLegalAnswerKinds), kind) == std::end(kLegalAnswerKinds))
            throw std::invalid_argument("unknown answer kind \"" + kind + "\"");
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
    // Made after every draw above, so that asking for it changes no other answer.
    if (!q.facts.empty()) {
        std::string terse;
        for (const data::LegalFact &f : q.facts)
            terse += (terse.empty() ? "" : "、") + f.value;
        answers.emplace_back("terse", terse + "。");
    }
    std::erase_if(answers, [&](const auto &a) {
        return std::find(answerKinds.begin(), answerKinds.end(), a.first) == answerKinds.end();
    });

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

bool isRubricJudgeKind(std::string_view name)
{
    return name == "rubric_explicit" || name == "rubric_implicit" || name == "likert_simple" ||
           name == "likert_reference";
}

std::string judgeDataKindList()
{
    std::string out;
    for (const char *k : kJudgeDataKinds)
        out += (out.empty() ? "" : ", ") + std::string(k);
    return out;
}

void requireRubricFromFacts(const data::LegalQuestion &q, const std::string &source)
{
    if (q.facts.empty())
        return; // no rubric or rating lines are made for it
    const std::string why = rubricFromFactsMismatch(q);
    if (!why.empty())
        throw data::InputException(
            {source, q.line,
             "question " + q.id + ": " + why +
                 "; the rubric and rating targets are defined for the rubric from facts only (remove \"rubric\", "
                 "or write it with rwb rubric generate --from-facts)"});
}

int targetRating(double score)
{
    return 1 + static_cast<int>(std::floor(9.0 * std::clamp(score, 0.0, 1.0) + 0.5));
}

RubricTruth legalRubricTruth(const data::LegalQuestion &q, std::string_view answer)
{
    return legalRubricTruth(q, eval::LegalReferenceGrader(q.slotValues).grade(answer, q.facts));
}

RubricTruth legalRubricTruth(const data::LegalQuestion &q, const eval::LegalGrade &g)
{
    const Rubric rubric = rubricFromFacts(q); // throws for a question without facts
    const std::vector<FactRubricItem> items = factRubricItems(q);
    RubricTruth t;
    std::vector<std::optional<double>> c;
    for (const FactRubricItem &item : items) {
        const eval::FactGrade &f = g.facts.at(item.fact);
        bool met = f.stated;
        if (item.pitfall) {
            const std::string wrong = eval::comparisonForm(item.value);
            met = std::any_of(f.contradictions.begin(), f.contradictions.end(),
                              [&](const eval::ValueMention &m) { return m.value == wrong; });
        }
        t.met.push_back(met);
        c.emplace_back(met ? 1.0 : 0.0);
    }
    t.score = *explicitScore(rubric, c);
    t.rating = targetRating(t.score);
    return t;
}

std::vector<RubricJudgeExample> legalRubricJudgeExamples(const data::LegalQuestion &q, const JudgeExample &answer,
                                                         std::string_view judgeKind)
{
    if (!isRubricJudgeKind(judgeKind))
        throw std::invalid_argument("\"" + std::string(judgeKind) + "\" is not a rubric or rating judge kind");
    const Rubric rubric = rubricFromFacts(q); // throws for a question without facts
    if (const std::string why = rubricFromFactsMismatch(q); !why.empty())
        throw std::invalid_argument("question " + q.id + ": " + why);
    return legalRubricJudgeExamples(q, answer, judgeKind, rubric, legalRubricTruth(q, answer.answer));
}

std::vector<RubricJudgeExample> legalRubricJudgeExamples(const data::LegalQuestion &q, const JudgeExample &answer,
                                                         std::string_view judgeKind, const Rubric &rubric,
                                                         const RubricTruth &truth)
{
    if (!isRubricJudgeKind(judgeKind))
        throw std::invalid_argument("\"" + std::string(judgeKind) + "\" is not a rubric or rating judge kind");
    if (truth.met.size() != rubric.items.size())
        throw std::invalid_argument("legalRubricJudgeExamples: " + std::to_string(truth.met.size()) +
                                    " true verdicts for a rubric of " + std::to_string(rubric.items.size()) +
                                    " items");
    RubricJudgeExample base;
    base.judgeKind = judgeKind;
    base.answerId = answer.id;
    base.questionId = q.id;
    base.kind = answer.kind;
    base.score = truth.score;
    base.rating = truth.rating;
    std::vector<RubricJudgeExample> out;
    if (judgeKind == "rubric_explicit") {
        for (size_t k = 0; k < rubric.items.size(); ++k) {
            RubricJudgeExample e = base;
            e.id = answer.id + "-" + e.judgeKind + "-" + std::to_string(k);
            e.messages =
                rubricItemMessages(q.question, answer.answer, rubric.items[k], ItemMode::Binary, q.referenceAnswer);
            e.item = static_cast<int>(k);
            e.items = static_cast<int>(rubric.items.size());
            e.weight = rubric.items[k].weight;
            e.met = truth.met[k];
            nlohmann::ordered_json reply;
            reply["explanation"] = e.met ? "The response states the value the criterion names."
                                         : "The response does not state the value the criterion names.";
            reply["criteria_met"] = e.met;
            e.target = reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            out.push_back(std::move(e));
        }
        return out;
    }
    RubricJudgeExample e = base;
    e.id = answer.id + "-" + e.judgeKind;
    if (judgeKind == "rubric_implicit")
        e.messages = rubricImplicitMessages(q.question, answer.answer, rubric);
    else if (judgeKind == "likert_simple")
        e.messages = likertSimpleMessages(q.question, answer.answer);
    else
        e.messages = likertReferenceMessages(q.question, q.referenceAnswer, answer.answer);
    e.target = nlohmann::json{{"rating", truth.rating}}.dump();
    out.push_back(std::move(e));
    return out;
}

std::string rubricJudgeLine(const RubricJudgeExample &e)
{
    nlohmann::ordered_json line;
    line["id"] = e.id;
    line["task"] = "chat";
    line["messages"] = messagesJson(e.messages);
    line["completion"] = e.target;
    line["label"] = e.kind;
    line["kind"] = e.kind;
    line["judge_kind"] = e.judgeKind;
    line["answer_id"] = e.answerId;
    line["question_id"] = e.questionId;
    line["score"] = e.score;
    if (e.item < 0) {
        line["rating"] = e.rating;
    } else {
        line["item"] = e.item;
        line["items"] = e.items;
        line["weight"] = e.weight;
        line["met"] = e.met;
    }
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string legalCoverageLine(const JudgeExample &e)
{
    nlohmann::ordered_json line;
    line["id"] = e.id;
    line["task"] = "chat";
    line["messages"] = messagesJson(e.messages);
    line["completion"] = e.target;
    line["label"] = e.kind;
    line["coverage"] = e.coverage;
    line["contradiction"] = e.contradiction;
    line["facts"] = e.facts;
    // The answer judged, as it is inside the request: for scoring the same answers with
    // another reward (scripts/reproduce.sh 002 --part ood scores them with semantic).
    line["answer"] = e.answer;
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rwb::judge
