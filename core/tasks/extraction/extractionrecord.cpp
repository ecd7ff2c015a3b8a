#include "tasks/extraction/extractionrecord.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::data {

namespace {

std::string requireString(const nlohmann::json &obj, const char *field, const std::string &source, size_t lineNo)
{
    auto it = obj.find(field);
    if (it == obj.end())
        throw InputException({source, lineNo, std::string("missing field \"") + field + "\""});
    if (!it->is_string())
        throw InputException({source, lineNo, std::string("field \"") + field + "\" must be a string, not " +
                                                  it->type_name()});
    return it->get<std::string>();
}

} // namespace

ExtractionRecord parseExtractionLine(std::string_view line, const std::string &source, size_t lineNo,
                                     bool requireCompletion)
{
    nlohmann::json obj;
    try {
        obj = util::parseJson(line);
    } catch (const nlohmann::json::parse_error &e) {
        // e.byte is 1-based within the line.
        throw InputException({source, lineNo, "not valid JSON at column " + std::to_string(e.byte)});
    }
    if (!obj.is_object())
        throw InputException({source, lineNo, std::string("expected a JSON object, found ") + obj.type_name()});

    ExtractionRecord r;
    r.line = lineNo;
    auto id = obj.find("id");
    if (id == obj.end())
        throw InputException({source, lineNo, "missing field \"id\""});
    if (id->is_string())
        r.id = id->get<std::string>();
    else if (id->is_number_integer())
        r.id = std::to_string(id->get<long long>());
    else
        throw InputException({source, lineNo, std::string("field \"id\" must be a string or an integer, not ") +
                                                  id->type_name()});
    if (obj.contains("task")) {
        r.task = requireString(obj, "task", source, lineNo);
        if (r.task != kCompanyExtractionTask)
            throw InputException({source, lineNo, "unknown task \"" + r.task + "\" (allowed: company_extraction)"});
    }
    r.senderEmail = requireString(obj, "sender_email", source, lineNo);
    r.emailText = requireString(obj, "email_text", source, lineNo);
    r.gold = requireString(obj, "gold", source, lineNo);
    if (requireCompletion || obj.contains("completion"))
        r.completion = requireString(obj, "completion", source, lineNo);
    if (auto k = obj.find("kind"); k != obj.end() && k->is_string())
        r.kind = k->get<std::string>();
    if (obj.contains("recipient_company")) {
        r.recipientCompany = requireString(obj, "recipient_company", source, lineNo);
        r.partiesKnown = true;
    }
    if (auto o = obj.find("other_companies"); o != obj.end()) {
        if (!o->is_array())
            throw InputException({source, lineNo, std::string("field \"other_companies\" must be an array of strings, not ") +
                                                      o->type_name()});
        for (size_t i = 0; i < o->size(); ++i) {
            const nlohmann::json &v = (*o)[i];
            if (!v.is_string())
                throw InputException({source, lineNo, "field \"other_companies[" + std::to_string(i) +
                                                          "]\" must be a string, not " + v.type_name()});
            r.otherCompanies.push_back(v.get<std::string>());
        }
        r.partiesKnown = true;
    }
    if (obj.contains("reasoning"))
        r.reasoning = requireString(obj, "reasoning", source, lineNo);
    return r;
}

ExtractionReadResult parseExtractionJsonl(std::string_view text, const std::string &source,
                                          const ExtractionReadOptions &options)
{
    ExtractionReadResult result;
    forEachRecordLine(text, options.skipInvalid ? &result.skipped : nullptr, [&](size_t lineNo, std::string_view line) {
        result.records.push_back(parseExtractionLine(line, source, lineNo, options.requireCompletion));
    });
    return result;
}

ExtractionReadResult readExtractionJsonl(const std::string &path, const ExtractionReadOptions &options)
{
    return parseExtractionJsonl(readTextFile(path), path, options);
}

std::string toJsonLine(const ExtractionRecord &r, bool withCompletion)
{
    nlohmann::ordered_json j;
    j["id"] = r.id;
    j["task"] = r.task;
    j["sender_email"] = r.senderEmail;
    j["email_text"] = r.emailText;
    if (withCompletion)
        j["completion"] = r.completion;
    j["gold"] = r.gold;
    if (r.partiesKnown) {
        j["recipient_company"] = r.recipientCompany;
        j["other_companies"] = r.otherCompanies;
    }
    if (!r.reasoning.empty())
        j["reasoning"] = r.reasoning;
    if (!r.kind.empty())
        j["kind"] = r.kind;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rwb::data
