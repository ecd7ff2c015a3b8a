#include "reward/synonymtable.h"

#include "data/jsonl.h"
#include "text/markers.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <algorithm>

namespace rwb::reward {

namespace {

std::u32string keyOf(std::string_view name)
{
    return text::stripMarkers(text::normalize32(name)).text;
}

} // namespace

SynonymTable SynonymTable::parse(std::string_view text, const std::string &source)
{
    SynonymTable table;
    data::forEachLine(text, [&](size_t lineNo, std::string_view line) {
        const std::string t = text::trimmed(line);
        if (t.empty() || t[0] == '#')
            return true;
        std::vector<std::string> group;
        size_t start = 0;
        while (start <= line.size()) {
            const size_t tab = line.find('\t', start);
            const std::string name =
                text::trimmed(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
            if (!name.empty() && std::find(group.begin(), group.end(), name) == group.end())
                group.push_back(name);
            if (tab == std::string_view::npos)
                break;
            start = tab + 1;
        }
        if (group.size() < 2)
            throw data::InputException(
                {source, lineNo, "a synonym group needs at least two names separated by TAB characters"});
        const size_t index = table.m_groups.size();
        for (const std::string &name : group) {
            std::vector<size_t> &groups = table.m_index[keyOf(name)];
            if (groups.empty() || groups.back() != index)
                groups.push_back(index);
        }
        table.m_groups.push_back(std::move(group));
        return true;
    });
    return table;
}

SynonymTable SynonymTable::load(const std::string &path)
{
    return parse(data::readTextFile(path), path);
}

std::shared_ptr<const SynonymTable> SynonymTable::bundled()
{
    static const std::shared_ptr<const SynonymTable> table =
        std::make_shared<const SynonymTable>(parse(bundledSynonymText(), "company_synonyms.tsv (bundled)"));
    return table;
}

std::vector<std::string> SynonymTable::synonymsOf(std::u32string_view strippedNormalized) const
{
    std::vector<std::string> out;
    auto it = m_index.find(std::u32string(strippedNormalized));
    if (it == m_index.end())
        return out;
    for (size_t g : it->second) {
        for (const std::string &name : m_groups[g]) {
            if (keyOf(name) == strippedNormalized)
                continue;
            if (std::find(out.begin(), out.end(), name) == out.end())
                out.push_back(name);
        }
    }
    return out;
}

} // namespace rwb::reward
