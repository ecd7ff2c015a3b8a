#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rwb::reward {

// A table of company-name synonyms for the `domain` reward.
//
// File format (UTF-8 text): one group of names for the same company per line, the
// names separated by TAB; lines starting with '#' and blank lines are ignored; a
// group needs at least two names. Names are looked up by their normalized form with
// legal-entity markers stripped, so "株式会社きらめき商事" finds the group of "きらめき商事".
class SynonymTable {
public:
    SynonymTable() = default;

    // Parses the text; throws data::InputException naming `source` and the line.
    static SynonymTable parse(std::string_view text, const std::string &source);
    // Reads a file; throws data::InputException naming the file (and line).
    static SynonymTable load(const std::string &path);
    // The table bundled with the program (resources/synonyms/company_synonyms.tsv).
    static std::shared_ptr<const SynonymTable> bundled();

    // The other names of every group holding `strippedNormalized` (a normalized name
    // with markers stripped), each once, in file order. Empty when it is in none.
    std::vector<std::string> synonymsOf(std::u32string_view strippedNormalized) const;

    size_t groupCount() const { return m_groups.size(); }

private:
    std::vector<std::vector<std::string>> m_groups;
    std::unordered_map<std::u32string, std::vector<size_t>> m_index; // key → groups
};

// The bundled table's text, compiled in from resources/synonyms/company_synonyms.tsv.
std::string_view bundledSynonymText();

} // namespace rwb::reward
