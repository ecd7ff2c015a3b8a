#include "tasks/legalqa/legalrubric.h"

#include "tasks/legalqa/legalgrader.h"
#include "tasks/legalqa/legalquestion.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <vector>

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

std::vector<FactRubricItem> factRubricItems(const data::LegalQuestion &q)
{
    std::vector<FactRubricItem> out;
    std::vector<std::string> rightForms; // every reference fact's value, as the grader compares it
    for (size_t k = 0; k < q.facts.size(); ++k) {
        out.push_back({k, q.facts[k].value, false});
        rightForms.push_back(eval::comparisonForm(q.facts[k].value));
    }
    for (size_t k = 0; k < q.facts.size(); ++k) {
        const data::LegalFact &f = q.facts[k];
        const auto values = q.slotValues.find(f.slot);
        if (values == q.slotValues.end() || values->second.size() < 2)
            continue;
        const std::vector<std::string> &v = values->second;
        const auto at = std::find(v.begin(), v.end(), f.value);
        const size_t next = at == v.end() ? 0 : static_cast<size_t>(at - v.begin() + 1) % v.size();
        // A "wrong" value the grader takes for a right one (this fact's written otherwise,
        // "5000円" for "5,000円", or another fact's) is no mistake: no pitfall.
        const std::string wrongForm = eval::comparisonForm(v[next]);
        if (std::find(rightForms.begin(), rightForms.end(), wrongForm) != rightForms.end())
            continue;
        out.push_back({k, v[next], true});
    }
    return out;
}

Rubric rubricFromFacts(const data::LegalQuestion &q)
{
    if (q.facts.empty())
        throw std::invalid_argument("question " + q.id + " has no facts to make a rubric from");
    Rubric r;
    const int64_t first = q.lawCodes.empty() ? q.facts.front().lawCode : q.lawCodes.front();
    for (const FactRubricItem &fi : factRubricItems(q)) {
        const data::LegalFact &f = q.facts[fi.fact];
        RubricItem item;
        item.title = fi.pitfall ? f.slot + "_wrong" : f.slot;
        item.criterion = "回答は" + slotLabel(f.slot) + "を「" + fi.value + "」と述べている。";
        if (fi.pitfall) {
            item.category = RubricCategory::Pitfall;
            item.weight = -2.0;
        } else {
            item.category = f.lawCode == first ? RubricCategory::Essential : RubricCategory::Important;
            item.weight = f.lawCode == first ? 5.0 : 3.0;
        }
        r.items.push_back(std::move(item));
    }
    return r;
}

} // namespace rwb::judge
