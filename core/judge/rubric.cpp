#include "judge/rubric.h"

#include "judge/verdict.h"
#include "text/utf8.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <cstdint>
#include <cmath>

using nlohmann::json;

namespace rwb::judge {

namespace {

using text::isAsciiSpace;
constexpr auto trim = text::trimmedAscii;

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Whether `s` starts at `i` with `word`, ignoring ASCII case; advances `i` past it if so.
bool eatWord(std::string_view s, size_t &i, std::string_view word)
{
    if (s.size() - i < word.size())
        return false;
    for (size_t k = 0; k < word.size(); ++k)
        if (lower(s[i + k]) != word[k])
            return false;
    i += word.size();
    return true;
}

void eatSpaces(std::string_view s, size_t &i)
{
    while (i < s.size() && isAsciiSpace(s[i]))
        ++i;
}

// RaR's description prefix: the category and the length of "  Essential  Criteria :".
struct Prefix {
    RubricCategory category;
    size_t length;
};

std::optional<Prefix> matchPrefix(std::string_view description)
{
    static const struct {
        const char *word;
        RubricCategory category;
    } kWords[] = {{"essential", RubricCategory::Essential},
                  {"important", RubricCategory::Important},
                  {"optional", RubricCategory::Optional},
                  {"pitfall", RubricCategory::Pitfall}};
    for (const auto &w : kWords) {
        size_t i = 0;
        eatSpaces(description, i);
        if (!eatWord(description, i, w.word))
            continue;
        eatSpaces(description, i);
        if (!eatWord(description, i, "criteria") && !eatWord(description, i, "criterion"))
            continue;
        eatSpaces(description, i);
        if (i < description.size() && description[i] == ':')
            return Prefix{w.category, i + 1};
    }
    return std::nullopt;
}

// A weight as a JSON integer when it is a whole number (RaR's and HealthBench's data are
// integers), else as a double.
json weightJson(double w)
{
    // Beyond 2^53 doubles are all whole numbers, and int64 conversion would lose nothing
    // useful; keep them as doubles.
    constexpr double kExactIntegerLimit = 9007199254740992.0;
    if (std::trunc(w) == w && std::fabs(w) < kExactIntegerLimit)
        return static_cast<int64_t>(w);
    return w;
}

[[noreturn]] void fail(const std::string &where, const std::string &what)
{
    throw RubricError(where + ": " + what);
}

// The checks shared by parseRubric and validateRubric; items are named `arrayName[i]`.
void checkItems(const Rubric &rubric, const std::string &where, const std::string &arrayName)
{
    if (rubric.items.empty())
        fail(where, "the rubric is empty (" + arrayName + " has no items)");
    for (size_t i = 0; i < rubric.items.size(); ++i) {
        const RubricItem &item = rubric.items[i];
        const std::string name = arrayName + "[" + std::to_string(i) + "]";
        if (trim(item.criterion).empty())
            fail(where, name + " has an empty criterion");
        if (!std::isfinite(item.weight))
            fail(where, name + ".weight is not a finite number");
        if (item.weight == 0.0)
            fail(where, name + ".weight is 0: an item of weight 0 counts for nothing whatever the verdict; remove it "
                               "or give it a weight");
        if (item.category == RubricCategory::Pitfall && item.weight > 0.0)
            fail(where, name + ".weight is " + formatNumber(item.weight)
                            + ", but the item is a pitfall: pitfall weights are negative (a met pitfall subtracts)");
        if (item.weight < 0.0 && item.category != RubricCategory::Pitfall)
            fail(where, name + ".weight is " + formatNumber(item.weight) + ", but the item is "
                            + toString(item.category) + ": only pitfall items may have a negative weight");
    }
    if (!(rubric.positiveWeight() > 0.0))
        fail(where, "all-zero weights refused: no item has a positive weight (every item is a pitfall), so no response "
                    "could earn anything and the score would be undefined");
}

RubricItem parseItem(const json &j, const std::string &where, const std::string &name)
{
    if (!j.is_object())
        fail(where, name + " is " + describeJson(j) + ", not an object");
    const bool hasCriterion = j.contains("criterion");
    const bool hasDescription = j.contains("description");
    if (hasCriterion && hasDescription)
        fail(where, name + " has both \"criterion\" (HealthBench) and \"description\" (RaR); keep one");
    if (!hasCriterion && !hasDescription) {
        std::string keys;
        for (auto it = j.begin(); it != j.end(); ++it)
            keys += (keys.empty() ? "" : ", ") + it.key();
        fail(where, name + " is neither a RaR item {title, description, weight} nor a HealthBench item {criterion, "
                           "points, tags}; its keys: "
                        + (keys.empty() ? std::string("none") : keys));
    }
    const char *textKey = hasCriterion ? "criterion" : "description";
    const json &textValue = j.at(textKey);
    if (!textValue.is_string())
        fail(where, name + "." + textKey + " is " + describeJson(textValue) + ", not a string");

    RubricItem item;
    std::string_view text = textValue.get_ref<const std::string &>();
    std::optional<RubricCategory> category;
    std::string prefixText;
    if (hasDescription) {
        if (const auto prefix = matchPrefix(text)) {
            category = prefix->category;
            prefixText = std::string(trim(text.substr(0, prefix->length)));
            text.remove_prefix(prefix->length);
        }
    }
    item.criterion = std::string(trim(text));
    if (item.criterion.empty())
        fail(where, name + "." + textKey + " is empty"
                        + (prefixText.empty() ? std::string() : " after its \"" + prefixText + "\" prefix"));

    if (const auto it = j.find("category"); it != j.end()) {
        const auto explicitCategory = it->is_string() ? rubricCategoryFromString(it->get_ref<const std::string &>())
                                                      : std::nullopt;
        if (!explicitCategory)
            fail(where, name + ".category is " + describeJson(*it)
                            + ", not one of \"essential\", \"important\", \"optional\", \"pitfall\", \"unspecified\"");
        if (category && *category != *explicitCategory)
            fail(where, name + ".category is \"" + toString(*explicitCategory) + "\" but the description starts with \""
                            + prefixText + "\"");
        category = explicitCategory;
    }

    const char *formWeightKey = hasCriterion ? "points" : "weight";
    const bool hasWeight = j.contains("weight");
    const bool hasPoints = j.contains("points");
    if (hasWeight && hasPoints)
        fail(where, name + " has both \"weight\" and \"points\"; keep one");
    if (!hasWeight && !hasPoints)
        fail(where, name + "." + formWeightKey + " is missing");
    const char *weightKey = hasWeight ? "weight" : "points";
    const json &w = j.at(weightKey);
    if (!w.is_number())
        fail(where, name + "." + weightKey + " is " + describeJson(w) + ", not a number");
    item.weight = w.get<double>();
    if (!std::isfinite(item.weight))
        fail(where, name + "." + weightKey + " is not a finite number");
    if (item.weight == 0.0)
        fail(where, name + "." + weightKey
                        + " is 0: an item of weight 0 counts for nothing whatever the verdict; remove it or give it a "
                          "weight");

    // The pitfall convention (rubric.h).
    if (!category || *category == RubricCategory::Unspecified)
        item.category = item.weight < 0.0 ? RubricCategory::Pitfall : RubricCategory::Unspecified;
    else
        item.category = *category;
    if (item.category == RubricCategory::Pitfall)
        item.weight = -std::fabs(item.weight);
    else if (item.weight < 0.0)
        fail(where, name + "." + weightKey + " is " + formatNumber(item.weight) + ", but the item is "
                        + toString(item.category) + ": only pitfall items may have a negative weight");

    if (const auto it = j.find("title"); it != j.end()) {
        if (!it->is_string())
            fail(where, name + ".title is " + describeJson(*it) + ", not a string");
        item.title = it->get<std::string>();
    }
    if (const auto it = j.find("tags"); it != j.end()) {
        if (!it->is_array())
            fail(where, name + ".tags is " + describeJson(*it) + ", not an array of strings");
        for (size_t k = 0; k < it->size(); ++k) {
            const json &tag = (*it)[k];
            if (!tag.is_string())
                fail(where, name + ".tags[" + std::to_string(k) + "] is " + describeJson(tag) + ", not a string");
            item.tags.push_back(tag.get<std::string>());
        }
    }
    return item;
}

} // namespace

const char *toString(RubricCategory category)
{
    switch (category) {
    case RubricCategory::Essential:
        return "essential";
    case RubricCategory::Important:
        return "important";
    case RubricCategory::Optional:
        return "optional";
    case RubricCategory::Pitfall:
        return "pitfall";
    case RubricCategory::Unspecified:
        return "unspecified";
    }
    return "?";
}

std::optional<RubricCategory> rubricCategoryFromString(std::string_view text)
{
    text = trim(text);
    for (RubricCategory c : {RubricCategory::Essential, RubricCategory::Important, RubricCategory::Optional,
                             RubricCategory::Pitfall, RubricCategory::Unspecified}) {
        size_t i = 0;
        const std::string_view word = toString(c);
        if (text.size() == word.size() && eatWord(text, i, word))
            return c;
    }
    return std::nullopt;
}

const char *categoryPrefix(RubricCategory category)
{
    switch (category) {
    case RubricCategory::Essential:
        return "Essential Criteria: ";
    case RubricCategory::Important:
        return "Important Criteria: ";
    case RubricCategory::Optional:
        return "Optional Criteria: ";
    case RubricCategory::Pitfall:
        return "Pitfall Criteria: ";
    case RubricCategory::Unspecified:
        return "";
    }
    return "";
}

double Rubric::positiveWeight() const
{
    double sum = 0.0;
    for (const RubricItem &item : items)
        if (item.weight > 0.0)
            sum += item.weight;
    return sum;
}

Rubric parseRubric(const json &j, const std::string &where)
{
    const json *array = &j;
    std::string arrayName = "items";
    if (j.is_object()) {
        const bool hasRubric = j.contains("rubric");
        const bool hasRubrics = j.contains("rubrics");
        if (hasRubric && hasRubrics)
            fail(where, "has both \"rubric\" and \"rubrics\"; which one is the rubric?");
        if (!hasRubric && !hasRubrics)
            fail(where, "expected an array of rubric items, or an object with \"rubric\" or \"rubrics\" holding one");
        arrayName = hasRubric ? "rubric" : "rubrics";
        array = &j.at(arrayName);
        if (!array->is_array())
            fail(where, arrayName + " is " + describeJson(*array) + ", not an array of rubric items");
    } else if (!j.is_array()) {
        fail(where, "expected an array of rubric items, or an object with \"rubric\" or \"rubrics\"; found "
                        + describeJson(j));
    }

    Rubric rubric;
    for (size_t i = 0; i < array->size(); ++i)
        rubric.items.push_back(parseItem((*array)[i], where, arrayName + "[" + std::to_string(i) + "]"));
    checkItems(rubric, where, arrayName);
    return rubric;
}

Rubric parseRubricText(std::string_view text, const std::string &where)
{
    json j;
    try {
        j = util::parseJson(text);
    } catch (const json::exception &e) {
        throw RubricError(where + ": not valid JSON: " + e.what());
    }
    return parseRubric(j, where);
}

void validateRubric(const Rubric &rubric, const std::string &where)
{
    checkItems(rubric, where, "items");
}

json toRaR(const Rubric &rubric)
{
    json out = json::array();
    for (const RubricItem &item : rubric.items) {
        json j = {{"title", item.title},
                  {"description", categoryPrefix(item.category) + item.criterion},
                  {"weight", weightJson(item.weight)}};
        if (!item.tags.empty())
            j["tags"] = item.tags;
        out.push_back(std::move(j));
    }
    return out;
}

json toHealthBench(const Rubric &rubric)
{
    json out = json::array();
    for (const RubricItem &item : rubric.items) {
        json j = {{"criterion", item.criterion}, {"points", weightJson(item.weight)}, {"tags", item.tags}};
        if (!item.title.empty())
            j["title"] = item.title;
        if (item.category != RubricCategory::Unspecified)
            j["category"] = toString(item.category);
        out.push_back(std::move(j));
    }
    return out;
}

// ---- Aggregation ---------------------------------------------------------------------------

namespace {

// The checks of explicitScore and explicitBreakdown.
void checkVerdicts(const Rubric &rubric, const std::vector<std::optional<double>> &c, const char *caller)
{
    if (c.size() != rubric.items.size())
        throw std::invalid_argument(std::string(caller) + ": " + std::to_string(c.size()) + " verdicts for a rubric of "
                                    + std::to_string(rubric.items.size()) + " items");
    validateRubric(rubric, caller);
    for (size_t i = 0; i < c.size(); ++i)
        if (c[i] && !(*c[i] >= 0.0 && *c[i] <= 1.0))
            throw std::invalid_argument(std::string(caller) + ": the verdict on items[" + std::to_string(i) + "] is "
                                        + formatNumber(*c[i]) + ", not within 0–1");
}

} // namespace

std::optional<double> explicitScore(const Rubric &rubric, const std::vector<std::optional<double>> &c)
{
    checkVerdicts(rubric, c, "explicitScore");
    double earned = 0.0;
    for (size_t i = 0; i < c.size(); ++i) {
        if (!c[i])
            return std::nullopt;
        earned += rubric.items[i].weight * *c[i];
    }
    return std::clamp(earned / rubric.positiveWeight(), 0.0, 1.0);
}

std::vector<ItemContribution> explicitBreakdown(const Rubric &rubric, const std::vector<std::optional<double>> &c)
{
    checkVerdicts(rubric, c, "explicitBreakdown");
    const double denominator = rubric.positiveWeight();
    std::vector<ItemContribution> out;
    out.reserve(c.size());
    for (size_t i = 0; i < c.size(); ++i) {
        ItemContribution ic;
        ic.weight = rubric.items[i].weight;
        ic.verdict = c[i];
        ic.contribution = c[i] ? ic.weight * *c[i] / denominator : 0.0;
        out.push_back(ic);
    }
    return out;
}

double likertToUnit(double r)
{
    if (std::isnan(r))
        throw std::invalid_argument("likertToUnit: the rating is NaN");
    return (std::clamp(r, 1.0, 10.0) - 1.0) / 9.0;
}

} // namespace rwb::judge
