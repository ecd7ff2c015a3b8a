#pragma once

// Rubrics made deterministically from a legal question's reference facts (the demo's
// rubric task: so that explicit aggregation can be checked against the reference grader).

#include "judge/rubric.h"

#include <string>
#include <string_view>

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

} // namespace rwb::judge
