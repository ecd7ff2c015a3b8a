#pragma once

// Training data for a small legal-QA judge (the demo's judge, issue 12): answers to legal
// questions made from their reference answers — right, with a fact left vague, with a
// fact's value changed, both, or another question's answer — each labelled by the
// reference grader (tasks/legalqa/legalgrader.h) with coverage and contradiction, and rendered as
// the exact request the coverage / consistency rewards send (legalCoverageMessages) and the
// verdict JSON a judge should reply. `rwb judge data` writes them as chat-task lines for
// `rwb sft`; docs/judges.md, "A judge the demo can afford".

#include "judge/chat.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rwb::data {
struct LegalQuestion;
}

namespace rwb::judge {

struct JudgeExample {
    std::string id;                    // "<question id>-<kind>"
    std::string kind;                  // right | vague | wrong | wrong_vague | other
    std::string answer;                // the answer judged
    std::vector<ChatMessage> messages; // the request's messages
    std::string target;                // the verdict JSON (compact)
    double coverage = 0.0;             // the reference grader's: 0, 0.5 or 1
    bool contradiction = false;        // the reference grader's
    int facts = 0;                     // the reference answer's facts (points)
};

// Up to five answers to `question` (kinds that cannot be made are left out: "wrong" needs
// a slot with another value, "other" needs `others`), deterministic for (seed, index).
// `others` are other questions' reference answers to draw "other" from.
std::vector<JudgeExample> legalJudgeExamples(const data::LegalQuestion &question,
                                             const std::vector<std::string> &others, uint64_t seed,
                                             uint64_t index);

// The verdict JSON for a graded answer: the points are the facts' values as stated (the
// student's) and as the reference has them; thoughts are short fixed sentences; the
// labels NitiBench's.
std::string legalVerdictTarget(double coverage, bool contradiction, const std::vector<std::string> &studentPoints,
                               const std::vector<std::string> &referencePoints);

} // namespace rwb::judge
