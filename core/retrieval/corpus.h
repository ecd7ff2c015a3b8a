#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

namespace rwb::retrieval {

// One passage of a retrieval corpus (a law article, a manual section).
struct Passage {
    std::string id;    // unique within the corpus
    std::string title; // "" when the line had none
    std::string text;
    std::string meta = "{}"; // a JSON object (compact), never empty
};

// The passages to retrieve from, in file order, with a lookup by id.
//
// JSONL, one passage per line (blank lines skipped):
//   {"id": "709", "title": "民法 第七百九条", "text": "故意又は過失によって…", "meta": {"law": "民法"}}
// - id: a string (not empty) or an integer (kept as its decimal digits); required, unique.
// - text: a string; required (it may be empty).
// - title: a string or null; optional.
// - meta: an object or null; optional.
// - any other field is kept in meta under its own name (after meta's own fields), so
//   nothing on the line is lost; a field that is both at top level and in meta is an error.
// Every problem throws data::InputException "file:line: field \"name\": reason"
// (line 0 for the whole file: cannot read it, no passages). Nothing is kept from a
// file with an error.
//
// Immutable after construction: const methods are thread-safe.
class Corpus {
public:
    Corpus() = default;
    // Throws std::invalid_argument for an empty or duplicate id.
    explicit Corpus(std::vector<Passage> passages);

    static Corpus readJsonl(const std::string &path);

    const std::vector<Passage> &passages() const { return m_passages; }
    size_t size() const { return m_passages.size(); }
    bool empty() const { return m_passages.empty(); }
    // nullptr when no passage has this id.
    const Passage *find(const std::string &id) const;
    // What embedders see of a passage: "title\ntext", or the text alone when it has no title.
    static std::string embeddingText(const Passage &p);

private:
    std::vector<Passage> m_passages;
    std::unordered_map<std::string, size_t> m_byId;
};

} // namespace rwb::retrieval
