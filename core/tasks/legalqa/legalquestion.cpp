#include "tasks/legalqa/legalquestion.h"

#include "judge/rubric.h"

#include "data/jsonfields.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace rwb::data {

namespace jf = jsonfields;

namespace {

// An optional string field: "" when absent, an error when present with another type.
std::string optionalString(const nlohmann::json &obj, const char *field, const jf::Place &place)
{
    auto it = obj.find(field);
    return it == obj.end() ? std::string() : jf::asString(*it, field, place);
}

std::vector<LegalFact> readFacts(const nlohmann::json &value, const std::vector<int64_t> &lawCodes,
                                 const jf::Place &place)
{
    if (!value.is_array())
        jf::fail(place, std::string("field \"facts\" must be an array of objects, not ") + value.type_name());
    std::vector<LegalFact> facts;
    for (size_t i = 0; i < value.size(); ++i) {
        const std::string path = "facts[" + std::to_string(i) + "]";
        const nlohmann::json &f = value[i];
        if (!f.is_object())
            jf::fail(place, "field \"" + path + "\" must be an object, not " + f.type_name());
        LegalFact fact;
        auto need = [&](const char *name) -> const nlohmann::json & {
            auto it = f.find(name);
            if (it == f.end())
                jf::fail(place, "missing field \"" + path + "." + name + "\"");
            return *it;
        };
        fact.lawCode = jf::asInteger(need("law_code"), path + ".law_code", place);
        fact.slot = jf::asString(need("slot"), path + ".slot", place);
        fact.value = jf::asString(need("value"), path + ".value", place);
        if (std::find(lawCodes.begin(), lawCodes.end(), fact.lawCode) == lawCodes.end())
            jf::fail(place, "field \"" + path + ".law_code\" is " + std::to_string(fact.lawCode) +
                                ", which \"law_codes\" does not list");
        if (fact.slot.empty() || fact.value.empty())
            jf::fail(place, "field \"" + path + "\" has an empty slot or value");
        facts.push_back(std::move(fact));
    }
    return facts;
}

} // namespace

LegalQuestion parseLegalQuestionLine(std::string_view line, const std::string &source, size_t lineNo,
                                     bool requireCompletion)
{
    const jf::Place place{source, lineNo};
    const nlohmann::json obj = jf::parseObject(line, place);

    LegalQuestion q;
    q.line = lineNo;
    q.id = jf::requireId(obj, place);
    if (obj.contains("task")) {
        q.task = jf::asString(obj["task"], "task", place);
        if (q.task != kLegalQaTask)
            jf::fail(place, "unknown task \"" + q.task + "\" (allowed: legal_qa)");
    }
    q.question = jf::asString(jf::require(obj, "question", place), "question", place);
    if (q.question.find_first_not_of(" \t\r\n") == std::string::npos)
        jf::fail(place, "field \"question\" is empty");
    q.referenceAnswer = jf::asString(jf::require(obj, "reference_answer", place), "reference_answer", place);
    q.lawCodes = jf::asIntegerArray(jf::require(obj, "law_codes", place), "law_codes", place);
    for (size_t i = 0; i < q.lawCodes.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (q.lawCodes[i] == q.lawCodes[j])
                jf::fail(place, "field \"law_codes\" lists " + std::to_string(q.lawCodes[i]) + " twice");
    if (auto f = obj.find("facts"); f != obj.end())
        q.facts = readFacts(*f, q.lawCodes, place);
    q.kind = optionalString(obj, "kind", place);
    q.pattern = optionalString(obj, "pattern", place);
    q.label = optionalString(obj, "label", place);
    q.reasoning = optionalString(obj, "reasoning", place);
    if (auto s = obj.find("statutes"); s != obj.end())
        q.statutes = jf::asStringArray(*s, "statutes", place);
    if (auto r = obj.find("rubric"); r != obj.end()) {
        try {
            judge::parseRubric(*r, "field \"rubric\""); // checked here, parsed again by the task
        } catch (const judge::RubricError &e) {
            jf::fail(place, e.what());
        }
        q.rubric = r->dump();
    }
    if (auto v = obj.find("slot_values"); v != obj.end()) {
        if (!v->is_object())
            jf::fail(place, std::string("field \"slot_values\" must be an object, not ") + v->type_name());
        for (auto it = v->begin(); it != v->end(); ++it)
            q.slotValues[it.key()] = jf::asStringArray(it.value(), "slot_values." + it.key(), place);
    }
    if (auto r = obj.find("retrieved"); r != obj.end()) {
        if (!r->is_array())
            jf::fail(place, std::string("field \"retrieved\" must be an array, not ") + r->type_name());
        for (size_t i = 0; i < r->size(); ++i) {
            const std::string path = "retrieved[" + std::to_string(i) + "]";
            const nlohmann::json &e = (*r)[i];
            if (!e.is_object())
                jf::fail(place, "field \"" + path + "\" must be an object, not " + e.type_name());
            RetrievedSection sec;
            const nlohmann::json &id = jf::require(e, "id", place);
            if (id.is_string() && !id.get<std::string>().empty() &&
                id.get<std::string>().find_first_not_of("0123456789") == std::string::npos &&
                id.get<std::string>().size() <= 18)
                sec.lawCode = std::stoll(id.get<std::string>());
            else
                sec.lawCode = jf::asInteger(id, path + ".id", place);
            if (auto t = e.find("title"); t != e.end() && !t->is_null())
                sec.title = jf::asString(*t, path + ".title", place);
            sec.text = jf::asString(jf::require(e, "text", place), path + ".text", place);
            if (auto sc = e.find("score"); sc != e.end()) {
                if (!sc->is_number())
                    jf::fail(place, "field \"" + path + ".score\" must be a number, not " + sc->type_name());
                sec.score = sc->get<double>();
            }
            q.retrieved.push_back(std::move(sec));
        }
    }
    if (requireCompletion || obj.contains("completion")) {
        q.completion = jf::asString(jf::require(obj, "completion", place), "completion", place);
        q.hasCompletion = true;
    }
    return q;
}

LegalQuestionReadResult parseLegalQuestions(std::string_view text, const std::string &source,
                                            const LegalQuestionReadOptions &options)
{
    LegalQuestionReadResult result;
    forEachRecordLine(text, options.skipInvalid ? &result.skipped : nullptr, [&](size_t lineNo, std::string_view line) {
        result.questions.push_back(parseLegalQuestionLine(line, source, lineNo, options.requireCompletion));
    });
    return result;
}

LegalQuestionReadResult readLegalQuestions(const std::string &path, const LegalQuestionReadOptions &options)
{
    return parseLegalQuestions(readTextFile(path), path, options);
}

std::string toJsonLine(const LegalQuestion &q)
{
    nlohmann::ordered_json j;
    j["id"] = q.id;
    j["task"] = q.task;
    j["question"] = q.question;
    j["reference_answer"] = q.referenceAnswer;
    j["law_codes"] = q.lawCodes;
    nlohmann::ordered_json facts = nlohmann::ordered_json::array();
    for (const LegalFact &f : q.facts) {
        nlohmann::ordered_json o;
        o["law_code"] = f.lawCode;
        o["slot"] = f.slot;
        o["value"] = f.value;
        facts.push_back(std::move(o));
    }
    j["facts"] = std::move(facts);
    if (!q.kind.empty())
        j["kind"] = q.kind;
    if (!q.pattern.empty())
        j["pattern"] = q.pattern;
    if (!q.label.empty())
        j["label"] = q.label;
    if (!q.statutes.empty())
        j["statutes"] = q.statutes;
    if (!q.reasoning.empty())
        j["reasoning"] = q.reasoning;
    if (!q.rubric.empty())
        j["rubric"] = util::parseJson<nlohmann::ordered_json>(q.rubric);
    if (!q.slotValues.empty())
        j["slot_values"] = q.slotValues;
    if (!q.retrieved.empty()) {
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        for (const RetrievedSection &sec : q.retrieved) {
            nlohmann::ordered_json o;
            o["id"] = std::to_string(sec.lawCode);
            o["title"] = sec.title;
            o["text"] = sec.text;
            o["score"] = sec.score;
            arr.push_back(std::move(o));
        }
        j["retrieved"] = std::move(arr);
    }
    if (q.hasCompletion)
        j["completion"] = q.completion;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rwb::data
