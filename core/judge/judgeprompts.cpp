#include "judge/judgeprompts.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

using nlohmann::json;
using nlohmann::ordered_json;

namespace rwb::judge {

namespace {

// ---- Prompt text -----------------------------------------------------------------------

// The system message of every judge.
constexpr const char *kSystem =
    "You are a careful, impartial grader. You follow the grading instructions exactly and reply with a single JSON "
    "object and nothing else.";

// The first bullet of every "How to grade" list.
constexpr const char *kLanguageNote =
    "- The texts may be in Japanese (or another language); grade what they mean, whatever the language.\n";

// The last bullet: JSON only, then the exact shape on the next line.
constexpr const char *kJsonOnly =
    "- Reply with a JSON object only, with no other text before or after it, in exactly this shape:\n";

// "<tag>\n" text "\n</tag>\n\n".
std::string section(std::string_view tag, std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2 * tag.size() + 8);
    out.append("<").append(tag).append(">\n").append(text).append("\n</").append(tag).append(">\n\n");
    return out;
}

// "Essential", …; "" for Unspecified.
const char *categoryLabel(RubricCategory c)
{
    switch (c) {
    case RubricCategory::Essential:
        return "Essential";
    case RubricCategory::Important:
        return "Important";
    case RubricCategory::Optional:
        return "Optional";
    case RubricCategory::Pitfall:
        return "Pitfall";
    case RubricCategory::Unspecified:
        return "";
    }
    return "";
}

// "1. [Essential, weight 5] criterion\n" for each item.
std::string numberedItems(const Rubric &rubric)
{
    std::string out;
    for (size_t i = 0; i < rubric.items.size(); ++i) {
        const RubricItem &item = rubric.items[i];
        const std::string label = categoryLabel(item.category);
        out += std::to_string(i + 1) + ". [" + (label.empty() ? "" : label + ", ") + "weight "
               + formatNumber(item.weight) + "] " + item.criterion + "\n";
    }
    if (!out.empty())
        out.pop_back(); // section() adds the line end
    return out;
}

bool hasPitfall(const Rubric &rubric)
{
    for (const RubricItem &item : rubric.items)
        if (item.category == RubricCategory::Pitfall || item.weight < 0.0)
            return true;
    return false;
}

std::vector<ChatMessage> messages(std::string user)
{
    return {{"system", kSystem}, {"user", std::move(user)}};
}

constexpr const char *kCriterionParts =
    "If the criterion has several parts, it is met only when all of them are. Where it gives examples (\"such as\", "
    "\"for example\", \"including\"), the response need not mention every example.";

constexpr const char *kReferenceUse =
    "- The reference answer shows what a good answer contains; use it to check facts, but grade the response against "
    "the rubric only.\n";

// ---- Reply reading -----------------------------------------------------------------------

// The reply's JSON object; throws VerdictError with extractJson's message.
JsonExtract extractOrThrow(std::string_view reply)
{
    JsonExtract ex = extractJson(reply);
    if (!ex.ok())
        throw VerdictError(ex.error);
    return ex;
}

JsonLocation locationOf(const JsonExtract &ex)
{
    return {ex.form, ex.begin, ex.end};
}

// An informational text field: "" when missing or null, a string as it is, anything else
// as its JSON text. Sets `lenient` when it was not a string.
std::string optionalText(const json &root, std::string_view path, bool *lenient = nullptr)
{
    const json *v = findPath(root, path);
    const bool isString = v && v->is_string();
    if (lenient && !isString)
        *lenient = true;
    if (!v || v->is_null())
        return {};
    return isString ? v->get<std::string>() : v->dump();
}

// A whole number within [lo, hi] (numbers and numeric strings, as readNumber).
long readInteger(const json &root, std::string_view path, long lo, long hi)
{
    const double x = readNumber(root, path, static_cast<double>(lo), static_cast<double>(hi));
    if (std::trunc(x) != x)
        throw VerdictError(std::string(path) + " is " + formatNumber(x) + ", not a whole number");
    return static_cast<long>(x);
}

// Lower-cased, trimmed, with ' ' and '_' read as '-' and runs of them as one
// ("Full  Coverage" → "full-coverage").
std::string normalizeLabel(std::string_view s)
{
    std::string out;
    for (char c : s) {
        if (c == ' ' || c == '_' || c == '-' || c == '\t' || c == '\n' || c == '\r')
            c = '-';
        else if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        if (c == '-' && (out.empty() || out.back() == '-'))
            continue;
        out += c;
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

double readCoverage(const json &v, const std::string &path, bool &fallback)
{
    if (v.is_string()) {
        const std::string &s = v.get_ref<const std::string &>();
        if (s == "no-coverage")
            return 0.0;
        if (s == "partial-coverage")
            return 0.5;
        if (s == "full-coverage")
            return 1.0;
        const std::string w = normalizeLabel(s);
        if (w == "no-coverage" || w == "none" || w == "no") {
            fallback = true;
            return 0.0;
        }
        if (w == "partial-coverage" || w == "partial") {
            fallback = true;
            return 0.5;
        }
        if (w == "full-coverage" || w == "full") {
            fallback = true;
            return 1.0;
        }
    }
    if (const auto x = numberIn(v)) {
        fallback = true;
        if (*x == 0.0)
            return 0.0;
        if (*x == 0.5 || *x == 50.0)
            return 0.5;
        if (*x == 1.0 || *x == 100.0)
            return 1.0;
    }
    throw VerdictError(path + " is " + describeJson(v)
                       + ", not one of \"no-coverage\", \"partial-coverage\", \"full-coverage\" (also read: none / "
                         "partial / full, 0 / 0.5 / 1, 0 / 50 / 100)");
}

bool readContradiction(const json &v, const std::string &path, bool &fallback)
{
    if (v.is_string()) {
        const std::string &s = v.get_ref<const std::string &>();
        if (s == "no-contradiction")
            return false;
        if (s == "contradiction")
            return true;
        const std::string w = normalizeLabel(s);
        if (w == "no-contradiction" || w == "false" || w == "no") {
            fallback = true;
            return false;
        }
        if (w == "contradiction" || w == "true" || w == "yes") {
            fallback = true;
            return true;
        }
    }
    if (v.is_boolean()) {
        fallback = true;
        return v.get<bool>();
    }
    if (const auto x = numberIn(v); x && (*x == 0.0 || *x == 1.0)) {
        fallback = true;
        return *x == 1.0;
    }
    throw VerdictError(path + " is " + describeJson(v)
                       + ", not \"no-contradiction\" or \"contradiction\" (also read: true / false, yes / no, 0 / 1)");
}

// A point list under `key` or its singular spelling, read leniently (parseLegalReply in
// judgeprompts.h lists what is accepted).
std::vector<std::string> readPoints(const json &root, const std::string &key, bool &fallback)
{
    const std::string singular = key.substr(0, key.size() - 1);
    const json *v = findPath(root, key);
    if (!v) {
        v = findPath(root, singular);
        fallback = true;
    }
    std::vector<std::string> points;
    if (!v || v->is_null())
        return points;
    if (v->is_string()) {
        fallback = true;
        points.push_back(v->get<std::string>());
        return points;
    }
    if (!v->is_array()) {
        fallback = true;
        points.push_back(v->dump());
        return points;
    }
    for (const json &p : *v) {
        if (p.is_string()) {
            points.push_back(p.get<std::string>());
        } else {
            fallback = true;
            points.push_back(p.dump());
        }
    }
    return points;
}

// ---- Schemas -------------------------------------------------------------------------------

ordered_json stringSchema()
{
    return {{"type", "string"}};
}

ordered_json integerEnum(int lo, int hi)
{
    ordered_json values = ordered_json::array();
    for (int v = lo; v <= hi; ++v)
        values.push_back(v);
    return {{"type", "integer"}, {"enum", values}};
}

// {"type": "object", "properties": …, "required": [every key, in order], "additionalProperties": false}
ordered_json objectSchema(const ordered_json &properties)
{
    ordered_json required = ordered_json::array();
    for (const auto &p : properties.items())
        required.push_back(p.key());
    return {{"type", "object"}, {"properties", properties}, {"required", required}, {"additionalProperties", false}};
}

} // namespace

// ---- One rubric item ---------------------------------------------------------------------------

std::vector<ChatMessage> rubricItemMessages(std::string_view question, std::string_view response,
                                            const RubricItem &item, ItemMode mode, std::string_view reference)
{
    const bool pitfall = item.category == RubricCategory::Pitfall || item.weight < 0.0;
    std::string u = "Grade the response below against one rubric item.\n\n";
    u += section("question", question);
    if (!reference.empty())
        u += section("reference_answer", reference);
    u += section("response", response);
    u += section("rubric_item", "[" + formatNumber(item.weight) + "] " + item.criterion);
    u += "How to grade:\n";
    u += kLanguageNote;
    if (mode == ItemMode::Binary)
        u += std::string("- Decide whether the response meets the criterion of the rubric item as written. ")
             + kCriterionParts + "\n";
    else
        u += std::string("- Decide how fully the response meets the criterion of the rubric item as written, from 0 "
                         "(not at all) to 10 (completely). ")
             + kCriterionParts + "\n";
    if (!reference.empty())
        u += kReferenceUse;
    if (pitfall) {
        if (mode == ItemMode::Binary)
            u += "- This rubric item describes a mistake (a pitfall, shown with a negative weight). \"criteria_met\" "
                 "is true when the response makes this mistake and false when it avoids it: report whether the "
                 "criterion as written is met, not whether the response is good.\n";
        else
            u += "- This rubric item describes a mistake (a pitfall, shown with a negative weight). \"score\" is how "
                 "fully the response makes this mistake: 0 when it avoids it, 10 when it plainly makes it. Report how "
                 "far the criterion as written is met, not how good the response is.\n";
    }
    u += kJsonOnly;
    if (mode == ItemMode::Binary)
        u += "{\"explanation\": \"<one or two sentences on why the criterion is or is not met>\", \"criteria_met\": "
             "<true or false>}";
    else
        u += "{\"explanation\": \"<one or two sentences on how far the criterion is met>\", \"score\": <integer from "
             "0 to 10>}";
    return messages(std::move(u));
}

ItemVerdict parseRubricItemReply(std::string_view reply, ItemMode mode)
{
    const JsonExtract ex = extractOrThrow(reply);
    ItemVerdict v;
    v.location = locationOf(ex);
    if (mode == ItemMode::Binary) {
        v.met = readBool(ex.value, "criteria_met");
        v.c = *v.met ? 1.0 : 0.0;
    } else {
        v.score = readNumber(ex.value, "score", 0.0, 10.0);
        v.c = *v.score / 10.0;
    }
    v.explanation = optionalText(ex.value, "explanation");
    return v;
}

JudgeSchema rubricItemSchema(ItemMode mode)
{
    ordered_json properties = {{"explanation", stringSchema()}};
    if (mode == ItemMode::Binary)
        properties["criteria_met"] = {{"type", "boolean"}};
    else
        properties["score"] = integerEnum(0, 10);
    return {mode == ItemMode::Binary ? "rubric_item_verdict" : "rubric_item_score", objectSchema(properties).dump()};
}

// ---- All items in one call ------------------------------------------------------------------

std::vector<ChatMessage> rubricAllItemsMessages(std::string_view question, std::string_view response,
                                                const Rubric &rubric, std::string_view reference)
{
    if (rubric.items.empty())
        throw std::invalid_argument("rubricAllItemsMessages: the rubric is empty");
    const std::string k = std::to_string(rubric.items.size());
    std::string u = "Grade the response below against each item of a rubric.\n\n";
    u += section("question", question);
    if (!reference.empty())
        u += section("reference_answer", reference);
    u += section("response", response);
    u += section("rubric", numberedItems(rubric));
    u += "How to grade:\n";
    u += kLanguageNote;
    u += std::string("- For each item, decide whether the response meets its criterion as written. ") + kCriterionParts
         + "\n";
    if (hasPitfall(rubric))
        u += "- Pitfall items (negative weight) describe mistakes: \"met\" is true when the response makes the mistake "
             "and false when it avoids it. Report whether each criterion as written is met, not whether the response "
             "is good.\n";
    u += "- Judge each item on its own. The weights show how much each item matters; they must not change whether an "
         "item is met.\n";
    if (!reference.empty())
        u += kReferenceUse;
    u += "- Give exactly one entry for each of the " + k + " items, with ids 1 to " + k + " in order.\n";
    u += kJsonOnly;
    u += "{\"items\": [{\"id\": 1, \"explanation\": \"<one sentence>\", \"met\": <true or false>}, ...]}";
    return messages(std::move(u));
}

std::vector<std::optional<double>> AllItemsVerdict::verdicts() const
{
    std::vector<std::optional<double>> out;
    out.reserve(met.size());
    for (bool m : met)
        out.emplace_back(m ? 1.0 : 0.0);
    return out;
}

AllItemsVerdict parseRubricAllItemsReply(std::string_view reply, size_t itemCount)
{
    if (itemCount == 0)
        throw std::invalid_argument("parseRubricAllItemsReply: itemCount is 0");
    const JsonExtract ex = extractOrThrow(reply);
    const json &root = ex.value;
    AllItemsVerdict v;
    v.location = locationOf(ex);
    v.met.assign(itemCount, false);
    v.explanations.assign(itemCount, {});
    std::vector<std::string> answeredBy(itemCount); // the path that answered each id
    const long n = static_cast<long>(itemCount);

    const auto answer = [&](long id, const std::string &path, bool met) {
        std::string &by = answeredBy[static_cast<size_t>(id - 1)];
        if (!by.empty())
            throw VerdictError(path + " answers id " + std::to_string(id) + " again (" + by + " did already)");
        by = path;
        v.met[static_cast<size_t>(id - 1)] = met;
    };

    if (root.contains("items")) {
        const json &items = root.at("items");
        if (!items.is_array())
            throw VerdictError("items is " + describeJson(items) + ", not an array");
        for (size_t k = 0; k < items.size(); ++k) {
            const std::string at = "items[" + std::to_string(k) + "]";
            const long id = readInteger(root, at + ".id", 1, n);
            answer(id, at, readBool(root, at + ".met"));
            v.explanations[static_cast<size_t>(id - 1)] = optionalText(root, at + ".explanation");
        }
    } else {
        v.usedFallback = true;
        for (auto it = root.begin(); it != root.end(); ++it) {
            long id = 0;
            const std::string &key = it.key();
            const auto r = std::from_chars(key.data(), key.data() + key.size(), id);
            if (key.empty() || r.ec != std::errc() || r.ptr != key.data() + key.size())
                throw VerdictError("the reply has no \"items\" array, and its key \"" + key
                                   + "\" is not an item id (the fallback form is {\"1\": true, \"2\": false, …})");
            if (id < 1 || id > n)
                throw VerdictError("id " + key + " is not within 1–" + std::to_string(n));
            answer(id, key, readBool(root, key));
        }
    }

    std::string missing;
    size_t missingCount = 0;
    for (size_t i = 0; i < itemCount; ++i) {
        if (answeredBy[i].empty()) {
            missing += (missing.empty() ? "" : ", ") + std::to_string(i + 1);
            ++missingCount;
        }
    }
    if (missingCount > 0)
        throw VerdictError(std::string(missingCount == 1 ? "no verdict for id " : "no verdict for ids ") + missing
                           + " (the rubric has " + std::to_string(itemCount) + " items)");
    return v;
}

JudgeSchema rubricAllItemsSchema(size_t itemCount)
{
    const ordered_json entry = objectSchema({{"id", integerEnum(1, static_cast<int>(itemCount))},
                                             {"explanation", stringSchema()},
                                             {"met", {{"type", "boolean"}}}});
    const ordered_json items = {{"type", "array"}, {"items", entry}};
    return {"rubric_verdicts", objectSchema({{"items", items}}).dump()};
}

// ---- Ratings ---------------------------------------------------------------------------------------

namespace {

constexpr const char *kRatingShape = "{\"rating\": <integer from 1 to 10>}";

} // namespace

std::vector<ChatMessage> rubricImplicitMessages(std::string_view question, std::string_view response,
                                                const Rubric &rubric)
{
    if (rubric.items.empty())
        throw std::invalid_argument("rubricImplicitMessages: the rubric is empty");
    std::string u = "Rate the response below on a scale from 1 to 10, using the rubric as your guide.\n\n";
    u += section("question", question);
    u += section("response", response);
    u += section("rubric", numberedItems(rubric));
    u += "How to rate:\n";
    u += kLanguageNote;
    u += "- The rubric lists what a good response to this question does. Essential items are required, Important items "
         "matter a lot, Optional items are nice to have, and Pitfall items (negative weights) are mistakes that lower "
         "the rating when the response makes them. The weights show how much each item matters.\n";
    u += "- Weigh the items together into one overall rating: 10 when the response meets every essential and important "
         "item and makes no pitfall mistake, 1 when it meets none of the essential items or makes serious mistakes.\n";
    u += kJsonOnly;
    u += kRatingShape;
    return messages(std::move(u));
}

std::vector<ChatMessage> likertSimpleMessages(std::string_view question, std::string_view response)
{
    std::string u = "Rate the response below to the question on a scale from 1 to 10.\n\n";
    u += section("question", question);
    u += section("response", response);
    u += "How to rate:\n";
    u += kLanguageNote;
    u += "- Consider how correct, complete, clear and helpful the response is as an answer to the question. 10 "
         "means an excellent response with no errors; 1 means a response that is wrong, unhelpful or does not answer the "
         "question.\n";
    u += kJsonOnly;
    u += kRatingShape;
    return messages(std::move(u));
}

std::vector<ChatMessage> likertReferenceMessages(std::string_view question, std::string_view reference,
                                                 std::string_view response)
{
    if (reference.empty())
        throw std::invalid_argument("likertReferenceMessages: the reference answer is empty");
    std::string u = "Rate the response below to the question on a scale from 1 to 10, by comparing it with a "
                    "reference answer written by an expert.\n\n";
    u += section("question", question);
    u += section("reference_answer", reference);
    u += section("response", response);
    u += "How to rate:\n";
    u += kLanguageNote;
    u += "- Consider how far the response states what the reference answer states, and whether it contradicts it; "
         "wording, order and length need not match. 10 means the response is as correct and complete as the reference "
         "answer; 1 means it is wrong, contradicts the reference answer on its main points, or does not answer the "
         "question.\n";
    u += kJsonOnly;
    u += kRatingShape;
    return messages(std::move(u));
}

RatingVerdict parseRatingReply(std::string_view reply)
{
    const JsonExtract ex = extractOrThrow(reply);
    RatingVerdict v;
    v.location = locationOf(ex);
    v.rating = readNumber(ex.value, "rating", 1.0, 10.0);
    v.unit = likertToUnit(v.rating);
    return v;
}

JudgeSchema ratingSchema()
{
    return {"rating", objectSchema({{"rating", integerEnum(1, 10)}}).dump()};
}

// ---- Legal coverage and contradiction --------------------------------------------------------------

std::vector<ChatMessage> legalCoverageMessages(std::string_view question, std::string_view reference,
                                               std::string_view answer)
{
    if (reference.empty())
        throw std::invalid_argument("legalCoverageMessages: the reference answer is empty");
    std::string u = "Grade a student's answer to a legal question against a reference answer written by a legal "
                    "expert.\n\n";
    u += section("question", question);
    u += section("reference_answer", reference);
    u += section("student_answer", answer);
    u += "How to grade:\n";
    u += kLanguageNote;
    u += "- First, in \"point_thought\", work out the atomic points of each answer: single claims such as a rule, a "
         "condition, a period, an amount, a party's right or duty, or a conclusion. List the student's points in "
         "\"student_points\" and the reference answer's in \"reference_points\", one point per string.\n";
    u += "- Coverage: how many of the reference points does the student's answer state, in any wording? Reason in the "
         "\"thought\" of \"coverage\", then set its \"score\" to \"full-coverage\" if it states all of them, "
         "\"partial-coverage\" if it states some but not all, and \"no-coverage\" if it states none.\n";
    u += "- Contradiction: does any point of the student's answer conflict with a point of the reference answer (a "
         "different period, amount, condition, party or conclusion)? Reason in the \"thought\" of \"contradiction\", "
         "then set its \"score\" to \"contradiction\" if at least one does and \"no-contradiction\" otherwise. A "
         "point the student leaves out is not a contradiction, nor is an extra point the reference answer does not "
         "address, unless it conflicts with the reference answer.\n";
    u += kJsonOnly;
    u += "{\"point_thought\": \"<your analysis>\",\n"
         " \"student_points\": [\"<point>\", ...],\n"
         " \"reference_points\": [\"<point>\", ...],\n"
         " \"coverage\": {\"thought\": \"<reasoning>\", \"score\": \"<no-coverage, partial-coverage or "
         "full-coverage>\"},\n"
         " \"contradiction\": {\"thought\": \"<reasoning>\", \"score\": \"<no-contradiction or contradiction>\"}}";
    return messages(std::move(u));
}

LegalVerdict parseLegalReply(std::string_view reply)
{
    const JsonExtract ex = extractOrThrow(reply);
    const json &root = ex.value;
    LegalVerdict v;
    v.location = locationOf(ex);
    bool fallback = false;

    // One of the two graded parts: {"thought", "score"}, or (fallback) the score alone.
    const auto part = [&](const char *key, std::string &thought) -> std::pair<const json *, std::string> {
        const json *p = findPath(root, key);
        if (!p || p->is_null())
            throw VerdictError(std::string(key) + " is missing (NitiBench would count it as 0; here the reply is a "
                                                  "parse failure and the reward is None)");
        if (!p->is_object()) {
            fallback = true;
            return {p, key};
        }
        const std::string scorePath = std::string(key) + ".score";
        thought = optionalText(root, std::string(key) + ".thought", &fallback);
        return {&requirePath(root, scorePath), scorePath};
    };
    const auto [coverage, coveragePath] = part("coverage", v.coverageThought);
    v.coverage = readCoverage(*coverage, coveragePath, fallback);
    const auto [contradiction, contradictionPath] = part("contradiction", v.contradictionThought);
    v.contradiction = readContradiction(*contradiction, contradictionPath, fallback);

    v.studentPoints = readPoints(root, "student_points", fallback);
    v.referencePoints = readPoints(root, "reference_points", fallback);
    v.pointThought = optionalText(root, "point_thought", &fallback);
    v.usedFallback = fallback;
    return v;
}

JudgeSchema legalSchema()
{
    const ordered_json points = {{"type", "array"}, {"items", stringSchema()}};
    const ordered_json coverage = objectSchema(
        {{"thought", stringSchema()},
         {"score", {{"type", "string"}, {"enum", {"no-coverage", "partial-coverage", "full-coverage"}}}}});
    const ordered_json contradiction =
        objectSchema({{"thought", stringSchema()},
                      {"score", {{"type", "string"}, {"enum", {"no-contradiction", "contradiction"}}}}});
    return {"legal_coverage_contradiction", objectSchema({{"point_thought", stringSchema()},
                                                          {"student_points", points},
                                                          {"reference_points", points},
                                                          {"coverage", coverage},
                                                          {"contradiction", contradiction}})
                                                .dump()};
}

ChatRequest rewardRequest(const SamplingParams &sampling, std::vector<ChatMessage> messages, const JudgeSchema &schema,
                          bool geval)
{
    ChatRequest r;
    r.messages = std::move(messages);
    r.sampling = sampling;
    if (r.sampling.responseFormat == ResponseFormat::JsonSchema) {
        r.sampling.schemaName = schema.name;
        r.sampling.schema = schema.schema;
    }
    if (geval) {
        r.sampling.logprobs = true;
        r.sampling.topLogprobs = std::max(r.sampling.topLogprobs, 5);
    }
    return r;
}

} // namespace rwb::judge
