#include "reward/library/matchrewards.h"

#include "reward/library/componentoptions.h"
#include "reward/library/numbers.h"
#include "reward/library/textforms.h"
#include "text/unicodeform.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::reward {

using namespace library;

namespace {

std::string inQuotes(const std::string &s)
{
    return "\"" + clipped(s) + "\"";
}

std::vector<std::string> inQuotesAll(const std::vector<std::string> &items)
{
    std::vector<std::string> out;
    for (const std::string &s : items)
        out.push_back(inQuotes(s));
    return out;
}

} // namespace

// ---- exact_match

ExactMatchReward::ExactMatchReward(const RewardOptions &options) : LibraryReward("exact_match", options)
{
    const ComponentOptions o(options.componentOptions, {"column", "target", "normalize", "case_sensitive"});
    readColumn(o);
    readTarget(o, LibraryTarget::Answer);
    m_normalize = o.boolean("normalize", true);
    m_caseSensitive = o.boolean("case_sensitive", false);
}

Explanation ExactMatchReward::evaluate(const task::Example &example, const task::Completion &completion) const
{
    Explanation why;
    const std::optional<std::string> ref = reference(example, why);
    if (!ref)
        return why;
    const std::string answer = comparisonForm(target(completion), m_normalize, m_caseSensitive);
    const std::string gold = comparisonForm(*ref, m_normalize, m_caseSensitive);
    const bool equal = answer == gold;
    Explanation x = said(equal ? 1.0 : 0.0, equal ? "exact_match.equal" : "exact_match.different",
                         {clipped(answer), clipped(gold)});
    x.answer = answer;
    x.gold = gold;
    return x;
}

// ---- contains

ContainsReward::ContainsReward(const RewardOptions &options) : LibraryReward("contains", options)
{
    const ComponentOptions o(options.componentOptions,
                             {"strings", "column", "forbidden", "mode", "case_sensitive", "target"});
    readColumn(o);
    readTarget(o, LibraryTarget::Text);
    m_strings = o.strings("strings").value_or(std::vector<std::string>{});
    m_forbidden = o.strings("forbidden").value_or(std::vector<std::string>{});
    m_any = o.choice("mode", "all", {"all", "any"}) == "any";
    m_caseSensitive = o.boolean("case_sensitive", false);
    if (!column().empty() && !m_strings.empty())
        ComponentOptions::fail("column", "give the required strings either in strings or from a column, not both");
    if (column().empty() && m_strings.empty() && m_forbidden.empty())
        ComponentOptions::fail("strings", "missing: give strings (a list), column (the column that holds the string) "
                                          "or at least forbidden");
}

Explanation ContainsReward::evaluate(const task::Example &example, const task::Completion &completion) const
{
    std::vector<std::string> required = m_strings;
    if (!column().empty()) {
        Explanation why;
        const std::optional<std::string> ref = reference(example, why);
        if (!ref)
            return why;
        // A column that holds a list of strings gives them all; any other value, itself.
        const nlohmann::json list = util::parseJsonOrDiscarded(*ref);
        if (list.is_array() && !list.empty() &&
            std::all_of(list.begin(), list.end(), [](const nlohmann::json &s) { return s.is_string(); }))
            for (const nlohmann::json &s : list)
                required.push_back(s.get<std::string>());
        else
            required.push_back(*ref);
        required.erase(std::remove(required.begin(), required.end(), std::string()), required.end());
        if (required.empty())
            return said(kNone, "contains.empty_column", {column()});
    }
    const auto folded = [&](const std::string &s) { return m_caseSensitive ? s : lowerCase(s); };
    const std::string reply = folded(text::validUtf8(target(completion)));
    for (const std::string &f : m_forbidden)
        if (reply.find(folded(f)) != std::string::npos)
            return said(0.0, "contains.forbidden", {inQuotes(f)});
    if (required.empty())
        return said(1.0, "contains.nothing_forbidden", {listed(inQuotesAll(m_forbidden))});
    std::vector<std::string> found, missing;
    for (const std::string &s : required)
        (reply.find(folded(s)) != std::string::npos ? found : missing).push_back(s);
    const std::string n = std::to_string(required.size());
    if (m_any)
        return found.empty() ? said(0.0, "contains.any_missing", {n, listed(inQuotesAll(missing))})
                             : said(1.0, "contains.any_found", {inQuotes(found.front()), n});
    const double value = static_cast<double>(found.size()) / static_cast<double>(required.size());
    return said(value, "contains.all",
                {std::to_string(found.size()), n, listed(inQuotesAll(missing)), formatShare(value)});
}

// ---- regex

RegexReward::RegexReward(const RewardOptions &options) : LibraryReward("regex", options)
{
    const ComponentOptions o(options.componentOptions, {"pattern", "target", "full"});
    readTarget(o, LibraryTarget::Text);
    m_full = o.boolean("full", false);
    const std::optional<std::string> pattern = o.string("pattern");
    if (!pattern)
        ComponentOptions::fail("pattern", "missing (a regular expression in Python's syntax)");
    try {
        m_regex.emplace(*pattern);
    } catch (const std::invalid_argument &e) {
        ComponentOptions::fail("pattern", e.what());
    }
}

Explanation RegexReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    const std::string pattern = clipped(m_regex->pattern());
    const std::string reply = text::validUtf8(target(completion));
    try {
        if (m_full) {
            const bool ok = m_regex->fullMatch(reply);
            return said(ok ? 1.0 : 0.0, ok ? "regex.full_match" : "regex.no_full_match", {pattern});
        }
        if (const auto m = m_regex->search(reply)) {
            Explanation x = said(1.0, "regex.match", {pattern, clipped(reply.substr(m->begin, m->end - m->begin))});
            x.answer = reply.substr(m->begin, m->end - m->begin);
            return x;
        }
        return said(0.0, "regex.no_match", {pattern});
    } catch (const text::RegexLimitError &e) {
        Explanation x = said(kNone, "regex.gave_up", {pattern});
        x.error = e.what();
        return x;
    }
}

// ---- numeric

NumericReward::NumericReward(const RewardOptions &options) : LibraryReward("numeric", options)
{
    const ComponentOptions o(options.componentOptions, {"column", "target", "tolerance", "relative"});
    readColumn(o);
    readTarget(o, LibraryTarget::Answer);
    m_tolerance = o.number("tolerance", 0.0).value_or(1e-6);
    m_relative = o.number("relative", 0.0).value_or(0.0);
}

Explanation NumericReward::evaluate(const task::Example &example, const task::Completion &completion) const
{
    Explanation why;
    const std::optional<std::string> ref = reference(example, why);
    if (!ref)
        return why;
    const std::optional<FoundNumber> gold = lastNumber(*ref);
    if (!gold) {
        Explanation x = column().empty() ? said(kNone, "numeric.no_gold_number")
                                         : said(kNone, "numeric.no_column_number", {column()});
        x.gold = *ref;
        return x;
    }
    const std::optional<FoundNumber> answer = lastNumber(target(completion));
    if (!answer) {
        Explanation x = said(0.0, "numeric.no_answer_number", {formatNumber(gold->value)});
        x.gold = gold->written;
        return x;
    }
    const double difference = std::abs(answer->value - gold->value);
    const double allowed = std::max(m_tolerance, m_relative * std::abs(gold->value));
    const bool within = difference <= allowed;
    Explanation x = said(within ? 1.0 : 0.0, within ? "numeric.equal" : "numeric.different",
                         {formatNumber(answer->value), formatNumber(gold->value), formatNumber(difference),
                          formatNumber(allowed)});
    x.answer = answer->written;
    x.gold = gold->written;
    return x;
}

// ---- f1

F1Reward::F1Reward(const RewardOptions &options) : LibraryReward("f1", options)
{
    const ComponentOptions o(options.componentOptions, {"column", "target", "unit"});
    readColumn(o);
    readTarget(o, LibraryTarget::Answer);
    m_chars = o.choice("unit", "token", {"token", "char"}) == "char";
}

Explanation F1Reward::evaluate(const task::Example &example, const task::Completion &completion) const
{
    Explanation why;
    const std::optional<std::string> ref = reference(example, why);
    if (!ref)
        return why;
    const std::vector<std::string> answer = m_chars ? f1Chars(target(completion)) : f1Tokens(target(completion));
    const std::vector<std::string> gold = m_chars ? f1Chars(*ref) : f1Tokens(*ref);
    const Overlap o = overlap(answer, gold);
    Explanation x;
    if (answer.empty() && gold.empty())
        x = said(1.0, "f1.both_empty");
    else if (answer.empty())
        x = said(0.0, "f1.reply_empty");
    else if (gold.empty())
        x = said(0.0, "f1.reference_empty");
    else
        x = said(o.f1, m_chars ? "f1.chars" : "f1.tokens",
                 {std::to_string(o.common), std::to_string(answer.size()), std::to_string(gold.size()),
                  formatShare(o.precision), formatShare(o.recall), formatShare(o.f1)});
    x.precision = o.precision;
    x.recall = o.recall;
    const std::string separator = m_chars ? "" : " ";
    for (const std::string &u : answer)
        x.answer += (x.answer.empty() ? "" : separator) + u;
    for (const std::string &u : gold)
        x.gold += (x.gold.empty() ? "" : separator) + u;
    return x;
}

} // namespace rwb::reward
