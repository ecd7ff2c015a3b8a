#include "reward/library/libraryreward.h"

#include "reward/library/componentoptions.h"

#include <stdexcept>

namespace rwb::reward {

namespace {

// The English sentence of every key, %1, %2, … standing for Explanation::args. The
// workbench translates the same sentences (widgets/rewardtext.cpp, libraryText); tests
// check that the two agree.
const std::vector<std::pair<std::string_view, std::string_view>> kSentences = {
    // the reference's column (every component with the option "column")
    {"column.not_a_record", "The example has no columns (it is not a record of a user's task), so the column \"%1\" cannot be read: None."},
    {"column.missing", "The example has no column \"%1\": None."},
    // exact_match
    {"exact_match.equal", "The reply \"%1\" equals the reference \"%2\": 1."},
    {"exact_match.different", "The reply \"%1\" differs from the reference \"%2\": 0."},
    // contains
    {"contains.forbidden", "The reply contains the forbidden string %1: 0."},
    {"contains.nothing_forbidden", "The reply contains none of the forbidden strings %1: 1."},
    {"contains.all", "%1 of the %2 required strings occur in the reply (missing: %3): %4."},
    {"contains.any_found", "The reply contains %1, one of the %2 required strings: 1."},
    {"contains.any_missing", "The reply contains none of the %1 required strings (%2): 0."},
    {"contains.empty_column", "The column \"%1\" is empty, so there is no string to look for: None."},
    // regex
    {"regex.match", "The pattern %1 matches \"%2\" in the reply: 1."},
    {"regex.no_match", "The pattern %1 matches nowhere in the reply: 0."},
    {"regex.full_match", "The whole reply matches the pattern %1: 1."},
    {"regex.no_full_match", "The whole reply does not match the pattern %1: 0."},
    {"regex.gave_up", "The pattern %1 backtracked too much on the reply and gave up: None."},
    // numeric
    {"numeric.equal", "The reply's number %1 is within %4 of the reference's %2 (difference %3): 1."},
    {"numeric.different", "The reply's number %1 is not within %4 of the reference's %2 (difference %3): 0."},
    {"numeric.no_answer_number", "The reply holds no number (the reference's is %1): 0."},
    {"numeric.no_gold_number", "The gold holds no number: None."},
    {"numeric.no_column_number", "The column \"%1\" holds no number: None."},
    // f1
    {"f1.tokens", "%1 tokens shared, of the reply's %2 and the reference's %3: precision %4, recall %5, F1 %6."},
    {"f1.chars", "%1 characters shared, of the reply's %2 and the reference's %3: precision %4, recall %5, F1 %6."},
    {"f1.both_empty", "The reply and the reference are both empty: 1."},
    {"f1.reply_empty", "The reply is empty: 0."},
    {"f1.reference_empty", "The reference is empty: 0."},
    // the JSON components
    {"json.invalid", "The reply is not valid JSON (%1): 0."},
    {"json_valid.ok", "The reply is valid JSON (%1): 1."},
    {"json_valid.wrong_type", "The reply is valid JSON, but %1, not %2: 0."},
    {"json_schema.ok", "The reply is valid JSON and matches the schema: 1."},
    {"json_schema.false", "At %1 the schema allows no value: 0."},
    {"json_schema.type", "At %1 the value is %2, not %3: 0."},
    {"json_schema.enum", "At %1 the value %2 is none of %3: 0."},
    {"json_schema.const", "At %1 the value %2 is not %3: 0."},
    {"json_schema.minimum", "At %1 the value %2 is below the minimum %3: 0."},
    {"json_schema.maximum", "At %1 the value %2 is above the maximum %3: 0."},
    {"json_schema.exclusive_minimum", "At %1 the value %2 is not above %3: 0."},
    {"json_schema.exclusive_maximum", "At %1 the value %2 is not below %3: 0."},
    {"json_schema.min_length", "At %1 the string has %2 characters, fewer than %3: 0."},
    {"json_schema.max_length", "At %1 the string has %2 characters, more than %3: 0."},
    {"json_schema.pattern", "At %1 the string does not match the pattern %2: 0."},
    {"json_schema.min_items", "At %1 the array has %2 items, fewer than %3: 0."},
    {"json_schema.max_items", "At %1 the array has %2 items, more than %3: 0."},
    {"json_schema.required", "At %1 the required property \"%2\" is missing: 0."},
    {"json_schema.additional", "At %1 the property \"%2\" is not allowed: 0."},
    {"json_schema.gave_up", "At %1 the pattern %2 backtracked too much and gave up: None."},
    {"json_fields.compared", "%1 of %2 fields agree (agree: %3; differ: %4): %5."},
    {"json_fields.not_object", "The reply is valid JSON, but %1, not an object: 0."},
    {"json_fields.gold_not_object", "The gold is not a JSON object: None."},
    {"json_fields.column_not_object", "The column \"%1\" does not hold a JSON object: None."},
    {"json_fields.no_fields", "The reference object has no fields to compare: None."},
    // tag_format
    {"tag_format.ok", "Each of %1 occurs once, in that order: 1."},
    {"tag_format.ok_exact", "The reply is %1, once each and in that order, with nothing else: 1."},
    {"tag_format.missing", "The reply has no <%1>: %2."},
    {"tag_format.repeated", "<%1> occurs %2 times: %3."},
    {"tag_format.unclosed", "<%1> is not closed by </%1>: %2."},
    {"tag_format.repeated_close", "</%1> occurs %2 times: %3."},
    {"tag_format.close_first", "</%1> comes before <%1>: %2."},
    {"tag_format.order", "<%1> does not come after </%2>: %3."},
    {"tag_format.outside", "The reply has text outside the tags (\"%1\"): %2."},
    // length
    {"length.words_within", "The reply has %1 words, within %2: 1."},
    {"length.words_above", "The reply has %1 words, %2 more than the maximum %3: 1 − %2 / %4 = %5."},
    {"length.words_below", "The reply has %1 words, fewer than the minimum %2: %1 / %2 = %3."},
    {"length.chars_within", "The reply has %1 characters, within %2: 1."},
    {"length.chars_above", "The reply has %1 characters, %2 more than the maximum %3: 1 − %2 / %4 = %5."},
    {"length.chars_below", "The reply has %1 characters, fewer than the minimum %2: %1 / %2 = %3."},
    // language
    {"language.all", "All %1 letters of the reply are in the scripts of %2 (%3): 1."},
    {"language.share", "%1 of the reply's %2 letters are in the scripts of %3 (%4); most of the others are %5 (%6): %7."},
    {"language.no_letters", "The reply has no letters: 0."},
    // repetition
    {"repetition.words", "%1 of the %2 word %3-grams are distinct; the most repeated, \"%4\", occurs %5 times: %6."},
    {"repetition.chars", "%1 of the %2 character %3-grams are distinct; the most repeated, \"%4\", occurs %5 times: %6."},
    {"repetition.words_distinct", "All %1 word %2-grams are distinct: 1."},
    {"repetition.chars_distinct", "All %1 character %2-grams are distinct: 1."},
    {"repetition.words_short", "The reply has %1 words, fewer than %2: 1."},
    {"repetition.chars_short", "The reply has %1 characters, fewer than %2: 1."},
    // The `python` component (reward/python/pythonreward.h).
    {"python.value", "The function gave %1."},
    {"python.none", "The function gave no value: %1."},
    // The `remote` component (reward/remote/remotereward.h): %1 is the server's URL.
    {"remote.value", "The reward server %1 gave %2."},
    {"remote.none", "The reward server %1 gave no value: %2."},
};

} // namespace

const std::vector<std::pair<std::string_view, std::string_view>> &librarySentences()
{
    return kSentences;
}

std::string libraryDetail(std::string_view key, const std::vector<std::string> &args)
{
    for (const auto &[k, sentence] : kSentences) {
        if (k != key)
            continue;
        std::string out;
        for (size_t i = 0; i < sentence.size(); ++i) {
            // %N (N of one or two digits, as QString::arg reads it) → args[N − 1]
            if (sentence[i] == '%' && i + 1 < sentence.size() && sentence[i + 1] >= '1' && sentence[i + 1] <= '9') {
                size_t n = static_cast<size_t>(sentence[i + 1] - '0');
                size_t used = 2;
                if (i + 2 < sentence.size() && sentence[i + 2] >= '0' && sentence[i + 2] <= '9') {
                    n = n * 10 + static_cast<size_t>(sentence[i + 2] - '0');
                    used = 3;
                }
                if (n <= args.size()) {
                    out += args[n - 1];
                    i += used - 1;
                    continue;
                }
            }
            out += sentence[i];
        }
        return out;
    }
    throw std::logic_error("the reward library has no sentence for the key \"" + std::string(key) + "\"");
}

LibraryReward::LibraryReward(std::string_view registeredName, const RewardOptions &options)
    : m_name(options.label.empty() ? std::string(registeredName) : options.label)
{
}

double LibraryReward::score(const task::Example &example, const task::Completion &completion) const
{
    return evaluate(example, completion).value;
}

Explanation LibraryReward::explain(const task::Example &example, const task::Completion &completion) const
{
    Explanation x = evaluate(example, completion);
    x.reward = m_name;
    x.reason = Reason::Library;
    x.detail = libraryDetail(x.key, x.args);
    return x;
}

void LibraryReward::checkExample(const task::Example &example) const
{
    if (m_column.empty())
        return;
    const auto *record = dynamic_cast<const task::RecordExample *>(&example);
    if (!record)
        throw std::invalid_argument(m_name + ": the option \"column\": \"" + m_column +
                                    "\" needs examples read from records (a user's task), but example \"" +
                                    example.id() + "\" has no columns");
    if (!record->column(m_column))
        throw std::invalid_argument(m_name + ": example \"" + example.id() + "\" has no column \"" + m_column + "\"");
}

void LibraryReward::readTarget(const ComponentOptions &options, LibraryTarget fallback)
{
    const std::string t = options.choice("target", fallback == LibraryTarget::Answer ? "answer" : "text", {"answer", "text"});
    m_target = t == "answer" ? LibraryTarget::Answer : LibraryTarget::Text;
}

void LibraryReward::readColumn(const ComponentOptions &options)
{
    m_column = options.string("column").value_or("");
}

const std::string &LibraryReward::target(const task::Completion &completion) const
{
    return m_target == LibraryTarget::Answer ? completion.answer() : completion.text();
}

std::optional<std::string> LibraryReward::reference(const task::Example &example, Explanation &why) const
{
    if (m_column.empty())
        return example.goldText();
    const auto *record = dynamic_cast<const task::RecordExample *>(&example);
    if (!record) {
        why = said(kNone, "column.not_a_record", {m_column});
        return std::nullopt;
    }
    std::optional<std::string> value = record->column(m_column);
    if (!value)
        why = said(kNone, "column.missing", {m_column});
    return value;
}

Explanation LibraryReward::said(double value, std::string key, std::vector<std::string> args)
{
    Explanation x;
    x.value = value;
    x.key = std::move(key);
    x.args = std::move(args);
    return x;
}

} // namespace rwb::reward
