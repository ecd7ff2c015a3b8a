#pragma once

// Rubrics made deterministically from a legal question's reference facts (the demo's
// rubric task: so that explicit aggregation can be checked against the reference grader).

#include "judge/rubric.h"

#include <cstddef>
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
// other value, nor when that value is, in the reference grader's comparison form
// (eval::comparisonForm), any reference fact's value: "5000円" beside "5,000円", or
// another fact's value, which the grader never counts as a mistake). So a question has
// between one and two items per fact. The same question always gets the same rubric. Throws
// std::invalid_argument when the question has no facts.
Rubric rubricFromFacts(const data::LegalQuestion &question);

// What each item of rubricFromFacts(question) checks, in the rubric's order: the reference
// fact it was made from (an index into question.facts) and the value it names — the
// fact's own for an Essential / Important item, the plausible wrong one for a Pitfall.
// What a perfect judge's verdicts are follows from it (legaljudgedata.h, legalRubricTruth).
struct FactRubricItem {
    size_t fact = 0;
    std::string value;
    bool pitfall = false;
};
std::vector<FactRubricItem> factRubricItems(const data::LegalQuestion &question);

// A slot's Japanese label as the rubric writes it ("deadline" → "期限"); the slot name
// itself when it has none.
std::string slotLabel(std::string_view slot);

} // namespace rwb::judge
