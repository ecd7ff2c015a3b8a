#pragma once

// Training data for a small legal-QA judge (the demo's judge, issue 12): answers to legal
// questions made from their reference answers — right, with a fact left vague, with a
// fact's value changed, both, or another question's answer — each labelled by the
// reference grader (tasks/legalqa/legalgrader.h) with coverage and contradiction, and rendered as
// the exact request the coverage / consistency rewards send (legalCoverageMessages) and the
// verdict JSON a judge should reply. `rwb judge data` writes them as chat-task lines for
// `rwb sft`; docs/judges.md, "A judge the demo can afford".
//
// The same answers also make the requests of the rubric and rating judges (Rubrics as
// Rewards' comparison at judge level): rubric_explicit (one request per item of the
// question's rubric from facts, tasks/legalqa/legalrubric.h), rubric_implicit,
// likert_simple and likert_reference (one rating each), with the reply a perfect judge
// would give, worked out from the reference grader's truth (legalRubricTruth).
// legaljudgeranking.h reads them back and measures a judge on them.

#include "judge/chat.h"
#include "tasks/legalqa/legalgrader.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {
struct LegalQuestion;
}

namespace rwb::judge {

struct Rubric;

struct JudgeExample {
    std::string id;                    // "<question id>-<kind>"
    std::string kind;                  // one of kLegalAnswerKinds
    std::string answer;                // the answer judged
    std::vector<ChatMessage> messages; // the request's messages
    std::string target;                // the verdict JSON (compact)
    double coverage = 0.0;             // the reference grader's: 0, 0.5 or 1
    bool contradiction = false;        // the reference grader's
    int facts = 0;                     // the reference answer's facts (points)
};

// The kinds of answer made from a question's reference answer: right (the reference
// itself), vague (a fact's value replaced by vague wording), wrong (a fact's value replaced
// by another value of its slot), wrong_vague (both, on two facts), other (another
// question's reference answer), and terse: the facts' values alone, "30日以内、甲局長。",
// right in substance with little of the reference's wording. terse and wrong are where
// lexical overlap and correctness diverge (the reference's words with a wrong value
// against the right values in few words); terse is made only when asked for.
inline constexpr const char *kLegalAnswerKinds[] = {"right", "vague", "wrong", "wrong_vague", "other", "terse"};
// The kinds made when none are named: every kLegalAnswerKinds but terse.
std::vector<std::string> defaultLegalAnswerKinds();

// The answers of `answerKinds` to `question` (kinds that cannot be made are left out:
// "wrong" needs a slot with another value, "other" needs `others`, "terse" facts), in
// kLegalAnswerKinds' order, deterministic for (seed, index) and the same text for a kind
// whichever others are asked for. `others` are other questions' reference answers to draw
// "other" from. Throws std::invalid_argument for a kind not in kLegalAnswerKinds.
std::vector<JudgeExample> legalJudgeExamples(const data::LegalQuestion &question,
                                             const std::vector<std::string> &others, uint64_t seed,
                                             uint64_t index,
                                             const std::vector<std::string> &answerKinds = defaultLegalAnswerKinds());

// The verdict JSON for a graded answer: the points are the facts' values as stated (the
// student's) and as the reference has them; thoughts are short fixed sentences; the
// labels NitiBench's.
std::string legalVerdictTarget(double coverage, bool contradiction, const std::vector<std::string> &studentPoints,
                               const std::vector<std::string> &referencePoints);

// ---- Rubric and rating judges ---------------------------------------------------------

// The judge kinds `rwb judge data --kinds` makes requests for: "coverage" (the coverage /
// consistency rewards' one request, JudgeExample) and the rubric and rating kinds below,
// each named as its judge reward is (reward/judgekinds).
inline constexpr const char *kJudgeDataKinds[] = {"coverage", "rubric_explicit", "rubric_implicit", "likert_simple",
                                                  "likert_reference"};
// Whether `name` is one of the rubric and rating kinds (every kJudgeDataKinds but coverage).
bool isRubricJudgeKind(std::string_view name);
// kJudgeDataKinds as the messages name them: "coverage, rubric_explicit, …".
std::string judgeDataKindList();

// The rubric and rating targets are defined for rubricFromFacts(question) only. A
// question line may already carry a rubric (its "rubric", which the judge rewards use);
// when it does and that rubric is not rubricFromFacts(question) — compared in RaR form
// (toRaR) after reading it as the task reads it — `rwb judge data` stops: this throws
// data::InputException naming `source`, the question's line and id, and the first item
// that differs. No rubric, or the facts' own, passes.
void requireRubricFromFacts(const data::LegalQuestion &question, const std::string &source);

// What a perfect judge knows of one answer against rubricFromFacts(question), from the
// reference grader (tasks/legalqa/legalgrader.h):
//   - the item of fact k (Essential / Important) is met iff the grader finds fact k's
//     value stated (FactGrade::stated: it occurs, whether or not a wrong value does too);
//   - the Pitfall of fact k is met iff the answer states that pitfall's wrong value as a
//     value of the fact's slot: a contradiction of fact k (FactGrade::contradictions)
//     with that value, compared in the grader's comparison form. A wrong value that the
//     pitfall does not name meets nothing (the rubric names one plausible wrong value
//     per fact); a value equal to another reference fact's is no contradiction.
// score = s* = clamp(Σ w·c* / Σ w⁺, 0, 1) (judge::explicitScore), rating = r* =
// 1 + round(9 · s*) (rounded half up), the rating whose (r − 1) / 9 is nearest s*.
// Throws std::invalid_argument when the question has no facts.
struct RubricTruth {
    std::vector<bool> met; // c*, one per item of the rubric, in its order
    double score = 0.0;    // s*
    int rating = 1;        // r*
};
RubricTruth legalRubricTruth(const data::LegalQuestion &question, std::string_view answer);
// The same from the answer's grade by the question's grader (grade.facts in question.facts'
// order), for a caller that graded it already.
RubricTruth legalRubricTruth(const data::LegalQuestion &question, const eval::LegalGrade &grade);

// The rating a perfect judge gives an answer of true score s: 1 + round(9 · s).
int targetRating(double score);

// One request of a rubric or rating judge about one answer, with the reply it should get.
struct RubricJudgeExample {
    std::string id;         // "<answer id>-<judge kind>", plus "-<item>" for rubric_explicit
    std::string judgeKind;  // rubric_explicit | rubric_implicit | likert_simple | likert_reference
    std::string answerId;   // the answer's JudgeExample::id
    std::string questionId; // its question's id
    std::string kind;       // the answer's kind: right | vague | wrong | wrong_vague | other
    std::vector<ChatMessage> messages; // the request's, exactly as the reward builds them
    std::string target;     // the reply: {"explanation", "criteria_met"} or {"rating"} (compact)
    double score = 0.0;     // s* of the answer
    int rating = 1;         // r* of the answer
    // rubric_explicit only: the item (index within the rubric, of `items`), its weight
    // and its true verdict; item −1 for the rating kinds.
    int item = -1;
    int items = 0;
    double weight = 0.0;
    bool met = false;
};

// The requests the reward of `judgeKind` sends for `answer` (an answer of
// legalJudgeExamples(question, …)), on the legal-QA task whose question line carries
// toRaR(rubricFromFacts(question)) as its rubric (`rwb rubric generate --from-facts`):
//   rubric_explicit   one per item, per-item binary mode: rubricItemMessages(question,
//                     answer, item, Binary, reference), the target met as legalRubricTruth
//   rubric_implicit   rubricImplicitMessages(question, answer, rubric)       → r*
//   likert_simple     likertSimpleMessages(question, answer)                  → r*
//   likert_reference  likertReferenceMessages(question, reference, answer)    → r*
// Every rating kind's target is the same r*: likert_simple sees no reference, so a judge
// cannot know the facts, which is what the comparison measures (docs/judges.md). Throws
// std::invalid_argument for a kind not isRubricJudgeKind, or a question without facts.
// Throws std::invalid_argument, too, for a question whose own rubric is not the facts'
// (requireRubricFromFacts).
std::vector<RubricJudgeExample> legalRubricJudgeExamples(const data::LegalQuestion &question,
                                                         const JudgeExample &answer, std::string_view judgeKind);
// The same with the rubric and the answer's truth already made (rubricFromFacts(question)
// and legalRubricTruth(question, answer.answer)), for a caller that asks several kinds of
// one answer; the question's own rubric is not checked here. Throws
// std::invalid_argument for a kind not isRubricJudgeKind, or a truth whose verdicts are
// not one per item of `rubric`.
std::vector<RubricJudgeExample> legalRubricJudgeExamples(const data::LegalQuestion &question,
                                                         const JudgeExample &answer, std::string_view judgeKind,
                                                         const Rubric &rubric, const RubricTruth &truth);

// The chat-task line of an example (`rwb judge data`): {"id", "task": "chat", "messages",
// "completion", "label", "kind", "judge_kind", "answer_id", "question_id", "score"}, then
// "rating" for the rating kinds or "item", "items", "weight", "met" for rubric_explicit;
// "label" and "kind" are both the answer's kind ("label" is what the chat task's views
// and the coverage lines count by). Compact, one line, no newline.
std::string rubricJudgeLine(const RubricJudgeExample &example);

// The chat-task line of a coverage example (`rwb judge data`, kind coverage): {"id",
// "task": "chat", "messages", "completion", "label", "coverage", "contradiction",
// "facts", "answer"}. Compact, one line, no newline.
std::string legalCoverageLine(const JudgeExample &example);

} // namespace rwb::judge
