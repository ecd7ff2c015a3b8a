#include "judge/rubricgen.h"

#include "tasks/legalqa/legalquestion.h"
#include "judge/verdict.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rwb::judge {

std::string slotLabel(std::string_view slot)
{
    static const std::map<std::string, std::string, std::less<>> labels = {
        {"deadline", "期限"},         {"notice", "通知の期限"},    {"fee", "手数料"},
        {"deposit", "供託する金額"},   {"fine", "罰則"},           {"validity", "有効期間"},
        {"retention", "保存期間"},     {"interval", "実施の間隔"},  {"count", "必要な人数"},
        {"capacity", "定員"},          {"age", "年齢の要件"},       {"rate", "割合"},
        {"ratio", "議決に必要な割合"}, {"closing_time", "終了時刻"}, {"opening_time", "開始時刻"},
        {"duration", "時間"},          {"distance", "距離"},        {"temperature", "温度"},
        {"party", "相手方"},           {"authority", "届出先"},     {"exception", "例外"},
    };
    const auto it = labels.find(slot);
    return it == labels.end() ? std::string(slot) : it->second;
}

Rubric rubricFromFacts(const data::LegalQuestion &q)
{
    if (q.facts.empty())
        throw std::invalid_argument("question " + q.id + " has no facts to make a rubric from");
    Rubric r;
    const int64_t first = q.lawCodes.empty() ? q.facts.front().lawCode : q.lawCodes.front();
    for (const data::LegalFact &f : q.facts) {
        RubricItem item;
        item.title = f.slot;
        item.criterion = "回答は" + slotLabel(f.slot) + "を「" + f.value + "」と述べている。";
        item.category = f.lawCode == first ? RubricCategory::Essential : RubricCategory::Important;
        item.weight = f.lawCode == first ? 5.0 : 3.0;
        r.items.push_back(std::move(item));
    }
    for (const data::LegalFact &f : q.facts) {
        const auto values = q.slotValues.find(f.slot);
        if (values == q.slotValues.end() || values->second.size() < 2)
            continue;
        const std::vector<std::string> &v = values->second;
        const auto at = std::find(v.begin(), v.end(), f.value);
        const size_t next = at == v.end() ? 0 : static_cast<size_t>(at - v.begin() + 1) % v.size();
        if (v[next] == f.value)
            continue;
        RubricItem item;
        item.title = f.slot + "_wrong";
        item.criterion = "回答は" + slotLabel(f.slot) + "を「" + v[next] + "」と述べている。";
        item.category = RubricCategory::Pitfall;
        item.weight = -2.0;
        r.items.push_back(std::move(item));
    }
    return r;
}

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
