#pragma once

#include "data/datasplit.h"
#include "tasks/legalqa/legalquestion.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rwb::data {

// One section of a (fictional) statute: one line of a legal corpus file,
// {"id": <law_code>, "title": "…法 第N条（見出し）", "text": "…", "meta": {…}}.
struct LegalSection {
    int64_t code = 0;      // the law_code: unique in the corpus, the key citations use
    std::string title;     // "浮島観光事業法 第8条（代表者の変更の届出）"
    std::string text;      // the section's text
    // meta (optional in a file; what the generator knows about the section)
    std::string statute;   // "浮島観光事業法"
    std::string statuteId; // "S03"
    int section = 0;       // N of 第N条
    std::string heading;   // "代表者の変更の届出"
    std::string kind;      // the generator's rule kind ("change_notice", "penalty", …)
    std::optional<DataSplit> split;  // the statute's split, when the file says
    std::vector<int64_t> similarTo;  // near-duplicates and amendments of this section
    std::vector<int64_t> refersTo;   // sections this one cites (第N条) by law code
    std::vector<LegalFact> facts;    // the concrete facts the text states (lawCode = code)
    size_t line = 0;                 // 1-based line in the file it came from
};

// A whole corpus: every section of every statute, in file order, with an index by law code.
class LegalCorpus {
public:
    LegalCorpus() = default;
    // Takes the sections; throws std::invalid_argument when a law code repeats.
    explicit LegalCorpus(std::vector<LegalSection> sections);

    const std::vector<LegalSection> &sections() const { return m_sections; }
    size_t size() const { return m_sections.size(); }
    // The section with this law code, or nullptr.
    const LegalSection *find(int64_t code) const;
    // Statute ids in order of first appearance; with a split, only that split's statutes.
    std::vector<std::string> statuteIds(std::optional<DataSplit> split = std::nullopt) const;
    // Every value each slot takes in the sections' facts (sorted, no repeats).
    SlotUniverse slotUniverse() const;

private:
    std::vector<LegalSection> m_sections;
    std::unordered_map<int64_t, size_t> m_index;
};

// Parses one corpus line; throws InputException "source:lineNo: reason" naming the field:
// "id" missing or not an integer, "title" or "text" missing or not strings, "meta" not an
// object, meta fields of the wrong type ("meta.section" an integer, "meta.similar_to" and
// "meta.refers_to" arrays of integers, "meta.facts" an array of {"slot", "value"} string
// objects, "meta.split" one of train / val / test). Unknown fields are ignored.
LegalSection parseLegalSectionLine(std::string_view line, const std::string &source, size_t lineNo);

// Parses a corpus file's text; throws InputException at the first bad line, and for a law
// code defined twice (naming both lines) or a file without sections (line 0).
LegalCorpus parseLegalCorpus(std::string_view text, const std::string &source);
LegalCorpus readLegalCorpus(const std::string &path);

// The section as one compact JSON line (no newline).
std::string toJsonLine(const LegalSection &section);

} // namespace rwb::data
