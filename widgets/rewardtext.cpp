#include "rewardtext.h"

#include "tasks/extraction/extraction.h"
#include "reward/reward.h"

#include <QCoreApplication>

namespace RewardText {

namespace {
QString num(double v)
{
    return QString::number(v, 'f', 3);
}

// "{17, 22}", "{}" for none.
QString codes(const std::vector<int64_t> &v)
{
    QStringList parts;
    for (int64_t c : v)
        parts << QString::number(c);
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}
// A generic component's sentence (Reason::Library), translated by its key: the sentences
// of the components in core/reward/library/, %1, %2, … filled with Explanation::args.
// A key this table does not know shows the English detail.
struct Sentence {
    const char *key;
    const char *text;
};
// One entry per key the library's components set, the English exactly as core's
// (rwb::reward::librarySentences(); tests/tst_rewardlibrary checks that they agree).
static const Sentence kSentences[] = {
    {"column.not_a_record", QT_TRANSLATE_NOOP("RewardText", "The example has no columns (it is not a record of a user's task), so the column \"%1\" cannot be read: None.")},
    {"column.missing", QT_TRANSLATE_NOOP("RewardText", "The example has no column \"%1\": None.")},
    {"exact_match.equal", QT_TRANSLATE_NOOP("RewardText", "The reply \"%1\" equals the reference \"%2\": 1.")},
    {"exact_match.different", QT_TRANSLATE_NOOP("RewardText", "The reply \"%1\" differs from the reference \"%2\": 0.")},
    {"contains.forbidden", QT_TRANSLATE_NOOP("RewardText", "The reply contains the forbidden string %1: 0.")},
    {"contains.nothing_forbidden", QT_TRANSLATE_NOOP("RewardText", "The reply contains none of the forbidden strings %1: 1.")},
    {"contains.all", QT_TRANSLATE_NOOP("RewardText", "%1 of the %2 required strings occur in the reply (missing: %3): %4.")},
    {"contains.any_found", QT_TRANSLATE_NOOP("RewardText", "The reply contains %1, one of the %2 required strings: 1.")},
    {"contains.any_missing", QT_TRANSLATE_NOOP("RewardText", "The reply contains none of the %1 required strings (%2): 0.")},
    {"contains.empty_column", QT_TRANSLATE_NOOP("RewardText", "The column \"%1\" is empty, so there is no string to look for: None.")},
    {"regex.match", QT_TRANSLATE_NOOP("RewardText", "The pattern %1 matches \"%2\" in the reply: 1.")},
    {"regex.no_match", QT_TRANSLATE_NOOP("RewardText", "The pattern %1 matches nowhere in the reply: 0.")},
    {"regex.full_match", QT_TRANSLATE_NOOP("RewardText", "The whole reply matches the pattern %1: 1.")},
    {"regex.no_full_match", QT_TRANSLATE_NOOP("RewardText", "The whole reply does not match the pattern %1: 0.")},
    {"regex.gave_up", QT_TRANSLATE_NOOP("RewardText", "The pattern %1 backtracked too much on the reply and gave up: None.")},
    {"numeric.equal", QT_TRANSLATE_NOOP("RewardText", "The reply's number %1 is within %4 of the reference's %2 (difference %3): 1.")},
    {"numeric.different", QT_TRANSLATE_NOOP("RewardText", "The reply's number %1 is not within %4 of the reference's %2 (difference %3): 0.")},
    {"numeric.no_answer_number", QT_TRANSLATE_NOOP("RewardText", "The reply holds no number (the reference's is %1): 0.")},
    {"numeric.no_gold_number", QT_TRANSLATE_NOOP("RewardText", "The gold holds no number: None.")},
    {"numeric.no_column_number", QT_TRANSLATE_NOOP("RewardText", "The column \"%1\" holds no number: None.")},
    {"f1.tokens", QT_TRANSLATE_NOOP("RewardText", "%1 tokens shared, of the reply's %2 and the reference's %3: precision %4, recall %5, F1 %6.")},
    {"f1.chars", QT_TRANSLATE_NOOP("RewardText", "%1 characters shared, of the reply's %2 and the reference's %3: precision %4, recall %5, F1 %6.")},
    {"f1.both_empty", QT_TRANSLATE_NOOP("RewardText", "The reply and the reference are both empty: 1.")},
    {"f1.reply_empty", QT_TRANSLATE_NOOP("RewardText", "The reply is empty: 0.")},
    {"f1.reference_empty", QT_TRANSLATE_NOOP("RewardText", "The reference is empty: 0.")},
    {"json.invalid", QT_TRANSLATE_NOOP("RewardText", "The reply is not valid JSON (%1): 0.")},
    {"json_valid.ok", QT_TRANSLATE_NOOP("RewardText", "The reply is valid JSON (%1): 1.")},
    {"json_valid.wrong_type", QT_TRANSLATE_NOOP("RewardText", "The reply is valid JSON, but %1, not %2: 0.")},
    {"json_schema.ok", QT_TRANSLATE_NOOP("RewardText", "The reply is valid JSON and matches the schema: 1.")},
    {"json_schema.false", QT_TRANSLATE_NOOP("RewardText", "At %1 the schema allows no value: 0.")},
    {"json_schema.type", QT_TRANSLATE_NOOP("RewardText", "At %1 the value is %2, not %3: 0.")},
    {"json_schema.enum", QT_TRANSLATE_NOOP("RewardText", "At %1 the value %2 is none of %3: 0.")},
    {"json_schema.const", QT_TRANSLATE_NOOP("RewardText", "At %1 the value %2 is not %3: 0.")},
    {"json_schema.minimum", QT_TRANSLATE_NOOP("RewardText", "At %1 the value %2 is below the minimum %3: 0.")},
    {"json_schema.maximum", QT_TRANSLATE_NOOP("RewardText", "At %1 the value %2 is above the maximum %3: 0.")},
    {"json_schema.exclusive_minimum", QT_TRANSLATE_NOOP("RewardText", "At %1 the value %2 is not above %3: 0.")},
    {"json_schema.exclusive_maximum", QT_TRANSLATE_NOOP("RewardText", "At %1 the value %2 is not below %3: 0.")},
    {"json_schema.min_length", QT_TRANSLATE_NOOP("RewardText", "At %1 the string has %2 characters, fewer than %3: 0.")},
    {"json_schema.max_length", QT_TRANSLATE_NOOP("RewardText", "At %1 the string has %2 characters, more than %3: 0.")},
    {"json_schema.pattern", QT_TRANSLATE_NOOP("RewardText", "At %1 the string does not match the pattern %2: 0.")},
    {"json_schema.min_items", QT_TRANSLATE_NOOP("RewardText", "At %1 the array has %2 items, fewer than %3: 0.")},
    {"json_schema.max_items", QT_TRANSLATE_NOOP("RewardText", "At %1 the array has %2 items, more than %3: 0.")},
    {"json_schema.required", QT_TRANSLATE_NOOP("RewardText", "At %1 the required property \"%2\" is missing: 0.")},
    {"json_schema.additional", QT_TRANSLATE_NOOP("RewardText", "At %1 the property \"%2\" is not allowed: 0.")},
    {"json_schema.gave_up", QT_TRANSLATE_NOOP("RewardText", "At %1 the pattern %2 backtracked too much and gave up: None.")},
    {"json_fields.compared", QT_TRANSLATE_NOOP("RewardText", "%1 of %2 fields agree (agree: %3; differ: %4): %5.")},
    {"json_fields.not_object", QT_TRANSLATE_NOOP("RewardText", "The reply is valid JSON, but %1, not an object: 0.")},
    {"json_fields.gold_not_object", QT_TRANSLATE_NOOP("RewardText", "The gold is not a JSON object: None.")},
    {"json_fields.column_not_object", QT_TRANSLATE_NOOP("RewardText", "The column \"%1\" does not hold a JSON object: None.")},
    {"json_fields.no_fields", QT_TRANSLATE_NOOP("RewardText", "The reference object has no fields to compare: None.")},
    {"tag_format.ok", QT_TRANSLATE_NOOP("RewardText", "Each of %1 occurs once, in that order: 1.")},
    {"tag_format.ok_exact", QT_TRANSLATE_NOOP("RewardText", "The reply is %1, once each and in that order, with nothing else: 1.")},
    {"tag_format.missing", QT_TRANSLATE_NOOP("RewardText", "The reply has no <%1>: %2.")},
    {"tag_format.repeated", QT_TRANSLATE_NOOP("RewardText", "<%1> occurs %2 times: %3.")},
    {"tag_format.unclosed", QT_TRANSLATE_NOOP("RewardText", "<%1> is not closed by </%1>: %2.")},
    {"tag_format.repeated_close", QT_TRANSLATE_NOOP("RewardText", "</%1> occurs %2 times: %3.")},
    {"tag_format.close_first", QT_TRANSLATE_NOOP("RewardText", "</%1> comes before <%1>: %2.")},
    {"tag_format.order", QT_TRANSLATE_NOOP("RewardText", "<%1> does not come after </%2>: %3.")},
    {"tag_format.outside", QT_TRANSLATE_NOOP("RewardText", "The reply has text outside the tags (\"%1\"): %2.")},
    {"length.words_within", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 words, within %2: 1.")},
    {"length.words_above", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 words, %2 more than the maximum %3: 1 − %2 / %4 = %5.")},
    {"length.words_below", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 words, fewer than the minimum %2: %1 / %2 = %3.")},
    {"length.chars_within", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 characters, within %2: 1.")},
    {"length.chars_above", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 characters, %2 more than the maximum %3: 1 − %2 / %4 = %5.")},
    {"length.chars_below", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 characters, fewer than the minimum %2: %1 / %2 = %3.")},
    {"language.all", QT_TRANSLATE_NOOP("RewardText", "All %1 letters of the reply are in the scripts of %2 (%3): 1.")},
    {"language.share", QT_TRANSLATE_NOOP("RewardText", "%1 of the reply's %2 letters are in the scripts of %3 (%4); most of the others are %5 (%6): %7.")},
    {"language.no_letters", QT_TRANSLATE_NOOP("RewardText", "The reply has no letters: 0.")},
    {"repetition.words", QT_TRANSLATE_NOOP("RewardText", "%1 of the %2 word %3-grams are distinct; the most repeated, \"%4\", occurs %5 times: %6.")},
    {"repetition.chars", QT_TRANSLATE_NOOP("RewardText", "%1 of the %2 character %3-grams are distinct; the most repeated, \"%4\", occurs %5 times: %6.")},
    {"repetition.words_distinct", QT_TRANSLATE_NOOP("RewardText", "All %1 word %2-grams are distinct: 1.")},
    {"repetition.chars_distinct", QT_TRANSLATE_NOOP("RewardText", "All %1 character %2-grams are distinct: 1.")},
    {"repetition.words_short", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 words, fewer than %2: 1.")},
    {"repetition.chars_short", QT_TRANSLATE_NOOP("RewardText", "The reply has %1 characters, fewer than %2: 1.")},
    {"python.value", QT_TRANSLATE_NOOP("RewardText", "The function gave %1.")},
    {"python.none", QT_TRANSLATE_NOOP("RewardText", "The function gave no value: %1.")},
    {"remote.value", QT_TRANSLATE_NOOP("RewardText", "The reward server %1 gave %2.")},
    {"remote.none", QT_TRANSLATE_NOOP("RewardText", "The reward server %1 gave no value: %2.")},
};

QString libraryText(const rwb::reward::Explanation &e)
{
    for (const Sentence &s : kSentences) {
        if (e.key != s.key)
            continue;
        // %1, %2, … filled in one pass, as core's libraryDetail does: chained QString::arg
        // would read a "%2" inside an argument (a regex, a reply) as a marker.
        const QString text = QCoreApplication::translate("RewardText", s.text);
        QString out;
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text[i] == QLatin1Char('%') && i + 1 < text.size() && text[i + 1] >= QLatin1Char('1') &&
                text[i + 1] <= QLatin1Char('9')) {
                size_t n = static_cast<size_t>(text[i + 1].unicode() - '0');
                qsizetype used = 2;
                if (i + 2 < text.size() && text[i + 2].isDigit() && text[i + 2].unicode() < 0x80) {
                    n = n * 10 + static_cast<size_t>(text[i + 2].unicode() - '0');
                    used = 3;
                }
                if (n <= e.args.size()) {
                    out += QString::fromStdString(e.args[n - 1]);
                    i += used - 1;
                    continue;
                }
            }
            out += text[i];
        }
        return out;
    }
    return QString::fromStdString(e.detail);
}

} // namespace

QString description(const QString &reward)
{
    if (reward == QLatin1String("partial"))
        return QCoreApplication::translate("RewardText", "Longest common substring of answer and gold: 2·LCS / (|answer| + |gold|).");
    if (reward == QLatin1String("marker"))
        return QCoreApplication::translate("RewardText", "Like partial, after removing legal-entity markers (株式会社, (株), …) from both.");
    if (reward == QLatin1String("exist"))
        return QCoreApplication::translate("RewardText", "1 when the answer occurs in the sender header or the e-mail body (or both are 不明).");
    if (reward == QLatin1String("format"))
        return QCoreApplication::translate("RewardText", "1 when the completion is <thinking>…</thinking> followed by <answer>…</answer>.");
    if (reward == QLatin1String("domain"))
        return QCoreApplication::translate("RewardText", "Best match between the romanized answer (or a synonym) and the sender's e-mail domain.");
    if (reward == QLatin1String("xml_format"))
        return QCoreApplication::translate("RewardText", "1 when the completion is <reasoning>…</reasoning>, <answer>…</answer> and <citation>…</citation>, in that order and nothing else.");
    if (reward == QLatin1String("non_hallucination"))
        return QCoreApplication::translate("RewardText", "0.5 when the format holds and at least one cited law code is among the sections in the prompt.");
    if (reward == QLatin1String("citation_f1"))
        return QCoreApplication::translate("RewardText", "F1 of the cited law codes against the gold law codes.");
    if (reward == QLatin1String("coverage"))
        return QCoreApplication::translate("RewardText", "An LLM judge's coverage of the reference answer's points: none 0, partial 0.5, full 1.");
    if (reward == QLatin1String("consistency"))
        return QCoreApplication::translate("RewardText", "1 when an LLM judge finds nothing in the answer that contradicts the reference answer, else 0.");
    if (reward == QLatin1String("rubric_explicit"))
        return QCoreApplication::translate("RewardText", "Each rubric item judged met or not; Σ weight·verdict over the positive weights (a met pitfall subtracts).");
    if (reward == QLatin1String("rubric_implicit"))
        return QCoreApplication::translate("RewardText", "An LLM judge's 1–10 rating given the whole rubric, mapped to (r − 1) / 9.");
    if (reward == QLatin1String("likert_simple"))
        return QCoreApplication::translate("RewardText", "An LLM judge's 1–10 rating of the answer alone, mapped to (r − 1) / 9.");
    if (reward == QLatin1String("likert_reference"))
        return QCoreApplication::translate("RewardText", "An LLM judge's 1–10 rating of the answer against the reference answer, mapped to (r − 1) / 9.");
    if (reward == QLatin1String("answer_f1"))
        return QCoreApplication::translate("RewardText", "F1 of the answer's tokens against the gold answer's (numbers and Latin words whole, other characters one by one); 0 without an answer.");
    if (reward == QLatin1String("answer_em"))
        return QCoreApplication::translate("RewardText", "1 when the answer equals the gold answer after normalization, else 0.");
    if (reward == QLatin1String("step_format"))
        return QCoreApplication::translate("RewardText", "1 when the completion follows the step format (<step>, <subquery>, <retrieval>, <subanswer>) through at least one retrieval to an <answer>.");
    if (reward == QLatin1String("semantic"))
        return QCoreApplication::translate("RewardText", "Cosine similarity of the answer and the reference answer under the configured embedding (negative counts as 0).");
    // the generic components (core/reward/library/)
    if (reward == QLatin1String("exact_match"))
        return QCoreApplication::translate("RewardText", "1 when the answer equals the reference (the gold or a column) after normalization, else 0.");
    if (reward == QLatin1String("contains"))
        return QCoreApplication::translate("RewardText", "The share of the required strings found in the completion (or 1 when any is); 0 when a forbidden string occurs.");
    if (reward == QLatin1String("regex"))
        return QCoreApplication::translate("RewardText", "1 when the regular expression (Python syntax) matches the completion, else 0.");
    if (reward == QLatin1String("numeric"))
        return QCoreApplication::translate("RewardText", "1 when the answer's last number equals the reference's within the tolerance, else 0.");
    if (reward == QLatin1String("f1"))
        return QCoreApplication::translate("RewardText", "F1 of the answer's tokens (or characters) against the reference's, as SQuAD counts them.");
    if (reward == QLatin1String("json_valid"))
        return QCoreApplication::translate("RewardText", "1 when the answer is valid JSON (of the wanted type), else 0.");
    if (reward == QLatin1String("json_schema"))
        return QCoreApplication::translate("RewardText", "1 when the answer is JSON that matches the JSON Schema (a documented subset), else 0.");
    if (reward == QLatin1String("json_fields"))
        return QCoreApplication::translate("RewardText", "The share of the reference object's fields that the answer's JSON object has equal.");
    if (reward == QLatin1String("tag_format"))
        return QCoreApplication::translate("RewardText", "1 when each of the tags (<think>, <answer>, …) occurs exactly once, in order, else 0.");
    if (reward == QLatin1String("length"))
        return QCoreApplication::translate("RewardText", "1 when the completion's length in words or characters is within [min, max], falling off outside.");
    if (reward == QLatin1String("language"))
        return QCoreApplication::translate("RewardText", "The share of the completion's letters written in the language's scripts (script identification, not language identification).");
    if (reward == QLatin1String("repetition"))
        return QCoreApplication::translate("RewardText", "Distinct n-grams / all n-grams of the completion (1: nothing repeats).");
    if (reward == QLatin1String("python"))
        return QCoreApplication::translate("RewardText", "Your Python reward function (TRL's or verl's signature), run unchanged in a worker process.");
    if (reward == QLatin1String("remote"))
        return QCoreApplication::translate("RewardText", "A remote reward server of OpenRLHF's kind (OpenRLHF's serve_rm, rwb serve's /reward, your own), asked over HTTP with retries, a circuit breaker and a cache.");
    return {};
}

QString explanation(const rwb::reward::Explanation &e)
{
    using rwb::reward::Reason;
    switch (e.reason) {
    case Reason::Compared:
        return QCoreApplication::translate("RewardText", "Common substring of %1 characters; answer %2, gold %3 characters: 2·%1 / (%2 + %3) = %4.")
            .arg(e.answerSpan.length)
            .arg(QString::fromStdString(e.answer).size())
            .arg(QString::fromStdString(e.gold).size())
            .arg(num(e.value));
    case Reason::BothEmpty:
        return QCoreApplication::translate("RewardText", "Answer and gold are both empty: 1.");
    case Reason::OneEmpty:
        return e.answer.empty() ? QCoreApplication::translate("RewardText", "The compared answer is empty: 0.") : QCoreApplication::translate("RewardText", "The compared gold is empty: 0.");
    case Reason::MarkersOnly:
        return QCoreApplication::translate("RewardText", "Both are only legal-entity markers, so the unstripped strings are compared: %1.").arg(num(e.value));
    case Reason::BothUnknown:
        return QCoreApplication::translate("RewardText", "Gold and answer are both 不明: 1.");
    case Reason::FoundInSource:
        return QCoreApplication::translate("RewardText", "The answer occurs in the sender header or the e-mail body: 1.");
    case Reason::NotInSource:
        return QCoreApplication::translate("RewardText", "The answer occurs nowhere in the sender header or the e-mail body: 0.");
    case Reason::EmptyAnswer:
        return QCoreApplication::translate("RewardText", "The answer is empty: 0.");
    case Reason::FormatOk:
        return QCoreApplication::translate("RewardText", "The completion is <thinking>…</thinking> followed by <answer>…</answer>: 1.");
    case Reason::FormatBad:
        switch (static_cast<rwb::reward::FormatCheck>(e.formatCheck)) {
        case rwb::reward::FormatCheck::NoThinkingOpen:
            return QCoreApplication::translate("RewardText", "The completion does not start with <thinking>: 0.");
        case rwb::reward::FormatCheck::NoThinkingClose:
            return QCoreApplication::translate("RewardText", "</thinking> is missing: 0.");
        case rwb::reward::FormatCheck::NoAnswerOpen:
            return QCoreApplication::translate("RewardText", "</thinking> is not followed by <answer>: 0.");
        case rwb::reward::FormatCheck::NoAnswerClose:
            return QCoreApplication::translate("RewardText", "</answer> is missing: 0.");
        case rwb::reward::FormatCheck::TrailingText:
            return QCoreApplication::translate("RewardText", "There is text after </answer>: 0.");
        case rwb::reward::FormatCheck::NestedTag:
            return QCoreApplication::translate("RewardText", "A block contains another opening tag: 0.");
        case rwb::reward::FormatCheck::Ok:
            break;
        }
        return QCoreApplication::translate("RewardText", "The format does not match: 0.");
    case Reason::UnknownAnswer:
        return QCoreApplication::translate("RewardText", "The answer is 不明, so there is nothing to compare with the domain: 0.");
    case Reason::NoAddress:
        return QCoreApplication::translate("RewardText", "The sender header has no e-mail address: 0.");
    case Reason::BestCandidate: {
        const int n = static_cast<int>(e.candidates.size());
        return QCoreApplication::translate("RewardText", "Best of %n romanized candidate(s) against the domain \"%1\": %2.",
                                           nullptr, n)
            .arg(QString::fromStdString(e.domain), num(e.value));
    }
    case Reason::XmlFormatOk:
        return QCoreApplication::translate("RewardText", "The completion has the <reasoning>, <answer>, <citation> format: 1.");
    case Reason::XmlFormatBad:
        return QCoreApplication::translate("RewardText", "The format does not hold (%1): 0.").arg(QString::fromStdString(e.formatName));
    case Reason::CitedRetrieved:
        return QCoreApplication::translate("RewardText", "Cites %1; at least one of them is in the prompt (%2): 0.5.")
            .arg(codes(e.cited), codes(e.retrievedCodes));
    case Reason::NothingRetrievedCited:
        return QCoreApplication::translate("RewardText", "Cites %1; none of them is in the prompt (%2): 0.")
            .arg(codes(e.cited), codes(e.retrievedCodes));
    case Reason::FormatBroken:
        return QCoreApplication::translate("RewardText", "The format does not hold (%1), so no citation counts: 0.")
            .arg(QString::fromStdString(e.formatName));
    case Reason::CitationsCompared:
        return QCoreApplication::translate("RewardText", "Cited %1 against gold %2: precision %3, recall %4, F1 %5.")
            .arg(codes(e.cited), codes(e.goldCodes), num(e.precision), num(e.recall), num(e.value));
    case Reason::SemanticCompared:
        return QCoreApplication::translate("RewardText", "Similarity of the answer to the reference answer under %1: %2.")
            .arg(QString::fromStdString(e.embedder), num(e.value));
    case Reason::AnswerF1:
        return QCoreApplication::translate("RewardText", "Answer \"%1\" against gold \"%2\": precision %3, recall %4, F1 %5.")
            .arg(QString::fromStdString(e.answer), QString::fromStdString(e.gold), num(e.precision), num(e.recall), num(e.value));
    case Reason::AnswerEm:
        return e.value == 1.0 ? QCoreApplication::translate("RewardText", "The answer \"%1\" equals the gold answer: 1.").arg(QString::fromStdString(e.answer))
                              : QCoreApplication::translate("RewardText", "The answer \"%1\" is not the gold answer \"%2\": 0.")
                                    .arg(QString::fromStdString(e.answer), QString::fromStdString(e.gold));
    case Reason::NoAnswer:
        return QCoreApplication::translate("RewardText", "The completion has no <answer> block: 0.");
    case Reason::StepFormatOk:
        return QCoreApplication::translate("RewardText", "The step format holds through %n retrieval hop(s) to an answer: 1.", nullptr, e.hops);
    case Reason::StepFormatBad:
        return QCoreApplication::translate("RewardText", "The step format does not hold (%1): 0.").arg(QString::fromStdString(e.formatName));
    case Reason::JudgeVerdict: {
        const int calls = static_cast<int>(e.decisions.size());
        return QCoreApplication::translate("RewardText", "The judge's verdict gives %1 (%n call(s)).", nullptr, calls)
            .arg(num(e.value));
    }
    case Reason::Library:
        return libraryText(e);
    case Reason::Custom:
        return QString::fromStdString(e.detail);
    case Reason::JudgeFailed:
        return QCoreApplication::translate("RewardText", "The judge gave no verdict, so the reward is None and GRPO leaves this rollout out of its group: %1")
            .arg(QString::fromStdString(e.detail));
    }
    return {};
}

QStringList librarySentenceKeys()
{
    QStringList keys;
    for (const Sentence &s : kSentences)
        if (*s.key)
            keys << QString::fromLatin1(s.key);
    return keys;
}

} // namespace RewardText
