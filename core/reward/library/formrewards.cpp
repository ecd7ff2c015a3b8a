#include "reward/library/formrewards.h"

#include "reward/library/componentoptions.h"
#include "reward/library/textforms.h"
#include "text/utf8.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace rwb::reward {

using namespace library;

namespace {

struct Language {
    const char *code;
    std::vector<Script> scripts;
};

// The languages `language` knows, each with the scripts its letters are written in.
const std::vector<Language> &languages()
{
    static const std::vector<Language> kLanguages = {
        {"en", {Script::Latin}},
        {"ja", {Script::Hiragana, Script::Katakana, Script::Han}},
        {"zh", {Script::Han}},
        {"ko", {Script::Hangul}},
        {"ru", {Script::Cyrillic}},
        {"ar", {Script::Arabic}},
        {"hi", {Script::Devanagari}},
        {"th", {Script::Thai}},
        {"el", {Script::Greek}},
        {"he", {Script::Hebrew}},
    };
    return kLanguages;
}

// Characters allowed in a tag name: letters, digits and _ - : . (what XML-like tags use).
bool isTagName(const std::string &name)
{
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.';
    });
}

// How often `needle` occurs in `text` (without overlaps), and where first.
std::pair<size_t, size_t> occurrences(std::string_view text, std::string_view needle)
{
    size_t count = 0, first = std::string_view::npos;
    for (size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + needle.size())) {
        if (count++ == 0)
            first = at;
    }
    return {count, first};
}

} // namespace

// ---- tag_format

TagFormatReward::TagFormatReward(const RewardOptions &options) : LibraryReward("tag_format", options)
{
    const ComponentOptions o(options.componentOptions, {"tags", "exact", "partial"});
    m_tags = o.strings("tags").value_or(std::vector<std::string>{"think", "answer"});
    m_exact = o.boolean("exact", false);
    m_partial = o.boolean("partial", false);
    for (size_t i = 0; i < m_tags.size(); ++i) {
        if (!isTagName(m_tags[i]))
            ComponentOptions::fail("tags[" + std::to_string(i) + "]",
                                   "must be a tag's name without < > (letters, digits, _ - : .), found \"" + m_tags[i] + "\"");
        if (std::find(m_tags.begin(), m_tags.begin() + static_cast<std::ptrdiff_t>(i), m_tags[i]) !=
            m_tags.begin() + static_cast<std::ptrdiff_t>(i))
            ComponentOptions::fail("tags[" + std::to_string(i) + "]", "\"" + m_tags[i] + "\" is listed twice");
    }
}

Explanation TagFormatReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    const std::string &reply = completion.text();
    struct Problem {
        std::string key;
        std::vector<std::string> args;
    };
    std::optional<Problem> first; // the first problem, in the order of the tags
    std::vector<std::pair<size_t, size_t>> blocks; // [begin, end) of each block in place
    size_t inPlace = 0;
    size_t lastEnd = 0;
    std::string lastTag;
    for (const std::string &tag : m_tags) {
        const std::string open = "<" + tag + ">", close = "</" + tag + ">";
        const auto [opens, openAt] = occurrences(reply, open);
        const auto [closes, closeAt] = occurrences(reply, close);
        std::optional<Problem> problem;
        if (opens == 0)
            problem = Problem{"tag_format.missing", {tag}};
        else if (opens > 1)
            problem = Problem{"tag_format.repeated", {tag, std::to_string(opens)}};
        else if (closes == 0)
            problem = Problem{"tag_format.unclosed", {tag}};
        else if (closes > 1)
            problem = Problem{"tag_format.repeated_close", {tag, std::to_string(closes)}};
        else if (closeAt < openAt)
            problem = Problem{"tag_format.close_first", {tag}};
        else if (openAt < lastEnd)
            problem = Problem{"tag_format.order", {tag, lastTag}};
        if (problem) {
            if (!first)
                first = std::move(problem);
            continue;
        }
        ++inPlace;
        lastEnd = closeAt + close.size();
        lastTag = tag;
        blocks.emplace_back(openAt, lastEnd);
    }
    size_t checks = m_tags.size(), passed = inPlace;
    if (m_exact) {
        // The first text that is not white space outside the blocks in place.
        ++checks;
        std::optional<std::string_view> stray; // from the first such character to the next block
        size_t at = 0;
        for (size_t b = 0; b <= blocks.size() && !stray; ++b) {
            const size_t end = b < blocks.size() ? blocks[b].first : reply.size();
            for (size_t i = at; i < end && !stray;) {
                const auto [c, len] = text::decodeCharAt(reply, i);
                if (!text::isWhiteSpace(c))
                    stray = std::string_view(reply).substr(i, end - i);
                i += len;
            }
            if (b < blocks.size())
                at = blocks[b].second;
        }
        if (!stray)
            ++passed;
        else if (!first)
            first = Problem{"tag_format.outside", {clipped(text::trimmed(*stray), 30)}};
    }
    if (passed == checks) {
        std::vector<std::string> shown;
        for (const std::string &tag : m_tags)
            shown.push_back("<" + tag + ">");
        return said(1.0, m_exact ? "tag_format.ok_exact" : "tag_format.ok", {listed(shown)});
    }
    const double value = m_partial ? static_cast<double>(passed) / static_cast<double>(checks) : 0.0;
    first->args.push_back(formatShare(value));
    return said(value, first->key, first->args);
}

// ---- length

LengthReward::LengthReward(const RewardOptions &options) : LibraryReward("length", options)
{
    const ComponentOptions o(options.componentOptions, {"unit", "min", "max", "slack", "target"});
    readTarget(o, LibraryTarget::Text);
    m_chars = o.choice("unit", "words", {"words", "chars"}) == "chars";
    m_min = o.integer("min", 0);
    m_max = o.integer("max", 0);
    const std::optional<double> slack = o.number("slack", 0.0);
    if (!m_min && !m_max)
        ComponentOptions::fail("min", "missing: give min, max or both");
    if (m_min && m_max && *m_max < *m_min)
        ComponentOptions::fail("max", "must be at least min (" + std::to_string(*m_min) + "), found " +
                                          std::to_string(*m_max));
    if (slack && !m_max)
        ComponentOptions::fail("slack", "applies above max only: give max too");
    if (slack && *slack <= 0.0)
        ComponentOptions::fail("slack", "must be above 0, found " + formatNumber(*slack));
    m_slack = slack.value_or(std::max<double>(1.0, static_cast<double>(m_max.value_or(1))));
}

Explanation LengthReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    const std::string &t = target(completion);
    const int64_t length = static_cast<int64_t>(m_chars ? text::decodeUtf8(text::trimmed(t)).size() : wordsOf(t).size());
    const std::string unit = m_chars ? "chars" : "words";
    const std::string n = std::to_string(length);
    if (m_max && length > *m_max) {
        const int64_t over = length - *m_max;
        const double value = std::max(0.0, 1.0 - static_cast<double>(over) / m_slack);
        return said(value, "length." + unit + "_above",
                    {n, std::to_string(over), std::to_string(*m_max), formatNumber(m_slack), formatShare(value)});
    }
    if (m_min && length < *m_min) {
        const double value = static_cast<double>(length) / static_cast<double>(*m_min);
        return said(value, "length." + unit + "_below", {n, std::to_string(*m_min), formatShare(value)});
    }
    const std::string range = m_min && m_max ? "[" + std::to_string(*m_min) + ", " + std::to_string(*m_max) + "]"
                              : m_min        ? "≥ " + std::to_string(*m_min)
                                             : "≤ " + std::to_string(*m_max);
    return said(1.0, "length." + unit + "_within", {n, range});
}

// ---- language

LanguageReward::LanguageReward(const RewardOptions &options) : LibraryReward("language", options)
{
    const ComponentOptions o(options.componentOptions, {"language", "target"});
    readTarget(o, LibraryTarget::Text);
    std::vector<std::string> codes;
    for (const Language &l : languages())
        codes.push_back(l.code);
    if (!o.has("language"))
        ComponentOptions::fail("language", "missing (allowed: " + joinNames(codes) + ")");
    m_language = o.choice("language", "", codes);
    for (const Language &l : languages())
        if (m_language == l.code)
            m_scripts = l.scripts;
}

Explanation LanguageReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    std::array<size_t, static_cast<size_t>(Script::Other) + 1> counts{};
    for (char32_t c : text::decodeUtf8(target(completion)))
        if (isLetter(c))
            ++counts[static_cast<size_t>(scriptOf(c))];
    counts[static_cast<size_t>(Script::Common)] = 0; // counted in no share
    size_t letters = 0, in = 0;
    for (size_t s = 0; s < counts.size(); ++s)
        letters += counts[s];
    for (Script s : m_scripts)
        in += counts[static_cast<size_t>(s)];
    if (letters == 0)
        return said(0.0, "language.no_letters");
    std::vector<std::string> names;
    for (Script s : m_scripts)
        names.emplace_back(scriptName(s));
    const double value = static_cast<double>(in) / static_cast<double>(letters);
    if (in == letters)
        return said(1.0, "language.all", {std::to_string(letters), m_language, listed(names)});
    // The script with the most letters outside the language's (there is one: in < letters).
    size_t other = 0, otherCount = 0;
    for (size_t s = 0; s < counts.size(); ++s)
        if (std::find(m_scripts.begin(), m_scripts.end(), static_cast<Script>(s)) == m_scripts.end() &&
            counts[s] > otherCount) {
            other = s;
            otherCount = counts[s];
        }
    return said(value, "language.share",
                {std::to_string(in), std::to_string(letters), m_language, listed(names),
                 std::string(scriptName(static_cast<Script>(other))), std::to_string(otherCount), formatShare(value)});
}

// ---- repetition

RepetitionReward::RepetitionReward(const RewardOptions &options) : LibraryReward("repetition", options)
{
    const ComponentOptions o(options.componentOptions, {"n", "unit", "target"});
    readTarget(o, LibraryTarget::Text);
    m_n = static_cast<size_t>(o.integer("n", 1).value_or(3));
    m_chars = o.choice("unit", "words", {"words", "chars"}) == "chars";
}

Explanation RepetitionReward::evaluate(const task::Example &, const task::Completion &completion) const
{
    std::vector<std::string> units;
    if (m_chars) {
        for (char32_t c : text::decodeUtf8(target(completion)))
            if (!text::isWhiteSpace(c))
                units.push_back(text::encodeUtf8(std::u32string(1, c)));
    } else {
        units = wordsOf(target(completion));
    }
    const std::string unit = m_chars ? "chars" : "words";
    const std::string n = std::to_string(m_n);
    if (units.size() < m_n)
        return said(1.0, "repetition." + unit + "_short", {std::to_string(units.size()), n});
    const size_t total = units.size() - m_n + 1;
    struct Seen {
        size_t count = 0;
        size_t first = 0;
    };
    std::unordered_map<std::string, Seen> grams;
    const std::string separator = m_chars ? "" : " ";
    size_t top = 0; // the first n-gram of the most repeated, by where it first occurs
    std::string topText;
    size_t topCount = 0;
    for (size_t i = 0; i < total; ++i) {
        std::string gram;
        for (size_t k = 0; k < m_n; ++k)
            gram += (k ? separator : "") + units[i + k];
        Seen &s = grams[gram];
        if (s.count++ == 0)
            s.first = i;
        if (s.count > topCount || (s.count == topCount && s.first < top)) {
            topCount = s.count;
            top = s.first;
            topText = gram;
        }
    }
    const double value = static_cast<double>(grams.size()) / static_cast<double>(total);
    if (grams.size() == total)
        return said(1.0, "repetition." + unit + "_distinct", {std::to_string(total), n});
    return said(value, "repetition." + unit,
                {std::to_string(grams.size()), std::to_string(total), n, clipped(topText, 40), std::to_string(topCount),
                 formatShare(value)});
}

} // namespace rwb::reward
