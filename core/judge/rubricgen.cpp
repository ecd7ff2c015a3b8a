#include "judge/rubricgen.h"

#include "judge/verdict.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rwb::judge {

std::vector<ChatMessage> rubricGenerationMessages(std::string_view question, std::string_view reference, int minItems,
                                                  int maxItems)
{
    const std::string system =
        "You write grading rubrics for answers to questions. The question and its reference answer may be in "
        "Japanese; write each item's description in the language of the question. Follow four principles:\n"
        "1. Grounded in expert guidance: derive every item from the reference answer, which stands for an expert.\n"
        "2. Comprehensive: cover the facts the answer must state, the reasoning, completeness, style, and the "
        "common mistakes a wrong answer makes.\n"
        "3. Weighted by importance: start each description with its category and give its weight: "
        "\"Essential Criteria:\" (weight 5), \"Important Criteria:\" (3 or 4), \"Optional Criteria:\" (1 or 2), "
        "\"Pitfall Criteria:\" (-1 or -2; describe the mistake itself, e.g. \"Pitfall Criteria: States that the "
        "deadline is 14 days.\").\n"
        "4. Self-contained: each item can be checked on its own by reading the answer, without the other items.\n"
        "Reply with JSON only, in this shape: {\"rubric\": [{\"title\": str, \"description\": str, \"weight\": int}]}.";
    std::string user = "Write between " + std::to_string(minItems) + " and " + std::to_string(maxItems) +
                       " rubric items.\n\n<question>\n";
    user.append(question).append("\n</question>\n\n<reference_answer>\n").append(reference).append(
        "\n</reference_answer>\n");
    return {{"system", system}, {"user", user}};
}

Rubric parseGeneratedRubric(std::string_view reply, int minItems, int maxItems)
{
    const JsonExtract ex = extractJson(reply);
    if (!ex.ok())
        throw VerdictError(ex.error);
    Rubric r = parseRubric(ex.value, "the generated rubric");
    const int n = static_cast<int>(r.items.size());
    if (n < minItems || n > maxItems)
        throw VerdictError("the generated rubric has " + std::to_string(n) + " items, not " + std::to_string(minItems) +
                           "–" + std::to_string(maxItems));
    return r;
}

} // namespace rwb::judge
