#pragma once

// Rubrics asked of an LLM judge from a question and its reference answer following
// Rubrics as Rewards' four principles (`rwb rubric generate`; docs/judges.md). The
// legal-QA task makes its own from a question's reference facts (tasks/legalqa/legalrubric.h).

#include "judge/chat.h"
#include "judge/rubric.h"

#include <string>
#include <string_view>
#include <vector>

namespace rwb::judge {

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
