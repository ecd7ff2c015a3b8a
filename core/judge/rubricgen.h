#pragma once

// Rubrics for questions: made deterministically from a legal question's reference facts
// (the demo's rubric task: so that explicit aggregation can be checked against the
// reference grader), or asked of an LLM judge from a question and its reference answer
// following Rubrics as Rewards' four principles (`rwb rubric generate`; docs/judges.md).

#include "judge/chat.h"
#include "judge/rubric.h"

#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {
struct LegalQuestion;
}

namespace rwb::judge {

// One item per reference fact — the facts of the first gold section Essential (weight 5),
// the others Important (weight 3), "回答は<slot>を「<value>」と述べている。" — and one
// Pitfall per fact (weight −2): the same slot with a plausible wrong value, the value
// after the right one in the question's slot_values (wrapping; none when the slot has no
// other value). The same question always gets the same rubric. Throws
// std::invalid_argument when the question has no facts.
Rubric rubricFromFacts(const data::LegalQuestion &question);

// A slot's Japanese label as the rubric writes it ("deadline" → "期限"); the slot name
// itself when it has none.
std::string slotLabel(std::string_view slot);

// The request for a judge to write a rubric of minItems–maxItems items for a question
// with its reference answer: grounded in the reference (expert guidance), covering facts,
// reasoning, completeness, style and common pitfalls, with categorical weights
// (Essential 5, Important 3–4, Optional 1–2, Pitfall −1/−2), each item self-contained.
// The reply is RaR's form: {"rubric": [{"title", "description", "weight"}]}.
std::vector<ChatMessage> rubricGenerationMessages(std::string_view question, std::string_view reference,
                                                  int minItems, int maxItems);

// Parses a generation reply (extractJson, then parseRubric) and checks the item count.
// Throws VerdictError or RubricError naming what is wrong.
Rubric parseGeneratedRubric(std::string_view reply, int minItems, int maxItems);

} // namespace rwb::judge
