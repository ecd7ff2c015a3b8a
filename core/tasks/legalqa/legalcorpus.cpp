#include "tasks/legalqa/legalcorpus.h"

#include "data/jsonfields.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace rwb::data {

namespace jf = jsonfields;

LegalCorpus::LegalCorpus(std::vector<LegalSection> sections) : m_sections(std::move(sections))
{
    for (size_t i = 0; i < m_sections.size(); ++i)
        if (!m_index.emplace(m_sections[i].code, i).second)
            throw std::invalid_argument("law code " + std::to_string(m_sections[i].code) + " repeats");
}

const LegalSection *LegalCorpus::find(int64_t code) const
{
    auto it = m_index.find(code);
    return it == m_index.end() ? nullptr : &m_sections[it->second];
}

std::vector<std::string> LegalCorpus::statuteIds(std::optional<DataSplit> split) const
{
    std::vector<std::string> out;
    for (const LegalSection &s : m_sections) {
        if (split && s.split != split)
            continue;
        if (std::find(out.begin(), out.end(), s.statuteId) == out.end())
            out.push_back(s.statuteId);
    }
    return out;
}

SlotUniverse LegalCorpus::slotUniverse() const
{
    std::map<std::string, std::set<std::string>> sets;
    for (const LegalSection &s : m_sections)
        for (const LegalFact &f : s.facts)
            sets[f.slot].insert(f.value);
    SlotUniverse out;
    for (auto &[slot, values] : sets)
        out[slot].assign(values.begin(), values.end());
    return out;
}

LegalSection parseLegalSectionLine(std::string_view line, const std::string &source, size_t lineNo)
{
    const jf::Place place{source, lineNo};
    const nlohmann::json obj = jf::parseObject(line, place);
    LegalSection s;
    s.line = lineNo;
    s.code = jf::asInteger(jf::require(obj, "id", place), "id", place);
    s.title = jf::asString(jf::require(obj, "title", place), "title", place);
    s.text = jf::asString(jf::require(obj, "text", place), "text", place);
    auto m = obj.find("meta");
    if (m == obj.end())
        return s;
    if (!m->is_object())
        jf::fail(place, std::string("field \"meta\" must be an object, not ") + m->type_name());
    const nlohmann::json &meta = *m;
    auto str = [&](const char *name, std::string &out) {
        if (auto it = meta.find(name); it != meta.end())
            out = jf::asString(*it, std::string("meta.") + name, place);
    };
    str("statute", s.statute);
    str("statute_id", s.statuteId);
    str("heading", s.heading);
    str("kind", s.kind);
    if (auto it = meta.find("section"); it != meta.end()) {
        const int64_t n = jf::asInteger(*it, "meta.section", place);
        if (n < 0 || n > 1'000'000)
            jf::fail(place, "field \"meta.section\" is out of range");
        s.section = static_cast<int>(n);
    }
    if (auto it = meta.find("split"); it != meta.end()) {
        const std::string word = jf::asString(*it, "meta.split", place);
        s.split = parseSplit(word);
        if (!s.split)
            jf::fail(place, "field \"meta.split\" is \"" + word + "\" (allowed: train, val, test)");
    }
    if (auto it = meta.find("similar_to"); it != meta.end())
        s.similarTo = jf::asIntegerArray(*it, "meta.similar_to", place);
    if (auto it = meta.find("refers_to"); it != meta.end())
        s.refersTo = jf::asIntegerArray(*it, "meta.refers_to", place);
    if (auto it = meta.find("facts"); it != meta.end()) {
        if (!it->is_array())
            jf::fail(place, std::string("field \"meta.facts\" must be an array of objects, not ") + it->type_name());
        for (size_t i = 0; i < it->size(); ++i) {
            const std::string path = "meta.facts[" + std::to_string(i) + "]";
            const nlohmann::json &f = (*it)[i];
            if (!f.is_object())
                jf::fail(place, "field \"" + path + "\" must be an object, not " + f.type_name());
            LegalFact fact;
            fact.lawCode = s.code;
            for (const char *name : {"slot", "value"})
                if (!f.contains(name))
                    jf::fail(place, "missing field \"" + path + "." + name + "\"");
            fact.slot = jf::asString(f["slot"], path + ".slot", place);
            fact.value = jf::asString(f["value"], path + ".value", place);
            s.facts.push_back(std::move(fact));
        }
    }
    return s;
}

LegalCorpus parseLegalCorpus(std::string_view text, const std::string &source)
{
    std::vector<LegalSection> sections;
    std::unordered_map<int64_t, size_t> lineOf;
    forEachLine(text, [&](size_t lineNo, std::string_view line) {
        LegalSection s = parseLegalSectionLine(line, source, lineNo);
        auto [it, added] = lineOf.emplace(s.code, lineNo);
        if (!added)
            throw InputException({source, lineNo, "field \"id\": law code " + std::to_string(s.code) +
                                                      " is already defined on line " + std::to_string(it->second)});
        sections.push_back(std::move(s));
        return true;
    });
    if (sections.empty())
        throw InputException({source, 0, "no sections"});
    return LegalCorpus(std::move(sections));
}

LegalCorpus readLegalCorpus(const std::string &path)
{
    return parseLegalCorpus(readTextFile(path), path);
}

std::string toJsonLine(const LegalSection &s)
{
    nlohmann::ordered_json j;
    j["id"] = s.code;
    j["title"] = s.title;
    j["text"] = s.text;
    nlohmann::ordered_json meta;
    meta["statute"] = s.statute;
    meta["statute_id"] = s.statuteId;
    meta["section"] = s.section;
    meta["heading"] = s.heading;
    meta["kind"] = s.kind;
    if (s.split)
        meta["split"] = std::string(splitName(*s.split));
    if (!s.similarTo.empty())
        meta["similar_to"] = s.similarTo;
    if (!s.refersTo.empty())
        meta["refers_to"] = s.refersTo;
    nlohmann::ordered_json facts = nlohmann::ordered_json::array();
    for (const LegalFact &f : s.facts) {
        nlohmann::ordered_json o;
        o["slot"] = f.slot;
        o["value"] = f.value;
        facts.push_back(std::move(o));
    }
    meta["facts"] = std::move(facts);
    j["meta"] = std::move(meta);
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace rwb::data
