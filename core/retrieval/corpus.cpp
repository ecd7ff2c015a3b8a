#include "retrieval/corpus.h"

#include "data/jsonl.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace rwb::retrieval {

namespace {

using Json = nlohmann::ordered_json;

// Fields a passage line may have; anything else goes into meta.
const char *const kKnownFields[] = {"id", "title", "text", "meta"};

bool isKnown(const std::string &name)
{
    for (const char *k : kKnownFields)
        if (name == k)
            return true;
    return false;
}

} // namespace

Corpus::Corpus(std::vector<Passage> passages) : m_passages(std::move(passages))
{
    for (size_t i = 0; i < m_passages.size(); ++i) {
        const std::string &id = m_passages[i].id;
        if (id.empty())
            throw std::invalid_argument("passage " + std::to_string(i + 1) + " has an empty id");
        if (!m_byId.emplace(id, i).second)
            throw std::invalid_argument("duplicate passage id \"" + id + "\"");
    }
}

Corpus Corpus::readJsonl(const std::string &path)
{
    const std::string content = data::readTextFile(path);
    std::vector<Passage> passages;
    std::unordered_map<std::string, size_t> firstLine; // id → line it was first seen on
    data::forEachLine(content, [&](size_t lineNo, std::string_view line) {
        auto fail = [&](const std::string &reason) { return data::InputException({path, lineNo, reason}); };
        auto fieldError = [&](const std::string &field, const std::string &reason) {
            return fail("field \"" + field + "\": " + reason);
        };
        Json j;
        try {
            j = Json::parse(line);
        } catch (const nlohmann::json::parse_error &e) {
            throw fail(std::string("invalid JSON: ") + e.what());
        }
        if (!j.is_object())
            throw fail("expected a JSON object (one passage per line)");

        Passage p;
        const auto id = j.find("id");
        if (id == j.end())
            throw fieldError("id", "missing");
        if (id->is_string())
            p.id = id->get<std::string>();
        else if (id->is_number_integer())
            p.id = id->dump();
        else
            throw fieldError("id", "must be a string or an integer, not " + std::string(id->type_name()));
        if (p.id.empty())
            throw fieldError("id", "empty");

        const auto text = j.find("text");
        if (text == j.end())
            throw fieldError("text", "missing");
        if (!text->is_string())
            throw fieldError("text", "must be a string, not " + std::string(text->type_name()));
        p.text = text->get<std::string>();

        if (const auto title = j.find("title"); title != j.end() && !title->is_null()) {
            if (!title->is_string())
                throw fieldError("title", "must be a string, not " + std::string(title->type_name()));
            p.title = title->get<std::string>();
        }

        Json meta = Json::object();
        if (const auto m = j.find("meta"); m != j.end() && !m->is_null()) {
            if (!m->is_object())
                throw fieldError("meta", "must be an object, not " + std::string(m->type_name()));
            meta = *m;
        }
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (isKnown(it.key()))
                continue;
            if (meta.contains(it.key()))
                throw fieldError(it.key(), "is both a top-level field and a field of meta");
            meta[it.key()] = it.value();
        }
        p.meta = meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

        if (const auto [seen, added] = firstLine.emplace(p.id, lineNo); !added)
            throw fieldError("id", "duplicate id \"" + p.id + "\" (first on line " + std::to_string(seen->second) + ")");
        passages.push_back(std::move(p));
        return true;
    });
    if (passages.empty())
        throw data::InputException({path, 0, "no passages"});
    return Corpus(std::move(passages));
}

const Passage *Corpus::find(const std::string &id) const
{
    const auto it = m_byId.find(id);
    return it == m_byId.end() ? nullptr : &m_passages[it->second];
}

std::string Corpus::embeddingText(const Passage &p)
{
    return p.title.empty() ? p.text : p.title + "\n" + p.text;
}

} // namespace rwb::retrieval
