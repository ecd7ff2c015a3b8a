#pragma once

// The company-extraction task's failure categories (what the failure explorer and
// `rwb eval failures` group its predictions by), the parties of an e-mail they are
// decided against, and the spans of an e-mail the explorer highlights.

#include "tasks/extraction/extractionrecord.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::reward {
class ExtractionPrompt;
}

namespace rwb::eval {

// What went wrong with one prediction of the company-extraction task (what the failure
// explorer groups by). "prediction" is the extracted answer (reward::extractAnswer), and
// every comparison is made on normalized text (text::normalize: NFKC, white space
// removed); the "core" of a name is its normalized form with the legal-entity markers
// removed (text::stripMarkers; 一般 / 公益 before 社団法人 / 財団法人 go with them), or the
// normalized form when nothing would be left.
//
// Exactly one category applies, the first that fits in this order:
//   Exact             prediction == gold (also 不明 for 不明): the only right answer
//   NoAnswer          the prediction is empty (no <answer> block in thinking mode)
//   Missed            the prediction is 不明, the gold a company ("said 不明 wrongly")
//   MarkerOnly        core(prediction) == core(gold): differs by legal-entity markers only
//   NamedWhereUnknown the gold is 不明, the prediction a company (where it came from is in
//                     FailureCase::source: the recipient's, a third party's, invented …)
//   Recipient         the prediction names the recipient's company (see namesCompany)
//   ThirdParty        the prediction names another company of the e-mail (not sender's,
//                     not recipient's)
//   Invented          neither the normalized prediction nor its core occurs in the
//                     normalized sender header + "\n" + e-mail text
//   OtherWrong        in the input but none of the above (a partial or overlapping span,
//                     a department, a person, the gold with extra text …)
enum class FailureCategory {
    Exact,
    NoAnswer,
    Missed,
    MarkerOnly,
    NamedWhereUnknown,
    Recipient,
    ThirdParty,
    Invented,
    OtherWrong,
};
inline constexpr size_t kFailureCategoryCount = 9;

// Where a prediction that names a company comes from (for every category; None for
// empty and 不明 predictions). The first that fits: Gold (core equal to, or containing
// or contained in, the gold's), Recipient, ThirdParty, InText (occurs in the input),
// NotInText.
enum class PredictionSource { None, Gold, Recipient, ThirdParty, InText, NotInText };

// "exact", "no_answer", "missed", "marker_only", "named_where_unknown", "recipient",
// "third_party", "invented", "other_wrong" (stable keys for JSON and tests).
const char *categoryKey(FailureCategory category);
// "none", "gold", "recipient", "third_party", "in_text", "not_in_text".
const char *sourceKey(PredictionSource source);

// The recipient's company and the other companies of one e-mail.
struct EmailParties {
    bool fromData = false;          // true: the record's own fields; false: guessParties
    std::string recipient;          // "" when none is known
    std::vector<std::string> others; // neither the sender's nor the recipient's
};

// The record's "recipient_company" / "other_companies" when it has them
// (record.partiesKnown), else guessParties.
EmailParties partiesOf(const data::ExtractionRecord &record);

// The heuristic for data without those fields.
// Recipient: the addressee block is the body's lines from the top (after blank lines
// and a subject line: 件名…, 【…】, Subject…) up to the first blank
// line or the first greeting line (お世話になって…, お世話になります, お疲れ様, はじめまして,
// 突然のメール, いつも…, Dear …: the greeting line itself is not part of it except the
// "Dear X様（会社 部署）" form), at most 4 lines; it counts only when one of its lines ends
// with an honorific (様, 御中, さん, 殿, 各位, へ). In it the company is:
//   - the first line, when the block has two or more lines and that line does not end
//     with an honorific: its first word, a legal-entity
//     marker standing alone joined to its neighbour (株式会社 ミハル → one name);
//   - else the first word of the addressee line ("X 部署 御中", "X株式会社 浜口様") when
//     the line has three or more words, ends with 御中, or its first word holds a marker
//     ("三伸化学 浜口様" is not taken: it cannot be told from "浜口 太郎様");
//   - in "Dear 浜口様（X 部署）", the first word inside the brackets.
// Others: every company-like span in the header and body (a legal-entity marker with the
// run of name characters before or after it: kanji, katakana, Latin letters, digits,
// ー・&, and a hiragana stem of up to 6 characters at the far end, not a particle that
// follows a word: 配送業務は|ひなた商事株式会社, 株式会社こがね運輸|の), minus the ones
// whose core matches the gold's or the recipient's.
EmailParties guessParties(std::string_view senderEmail, std::string_view emailText, std::string_view gold);

// Whether `prediction` names `company`: equal cores, or one core contains the other
// and the shorter has two or more code points. Empty names never match.
bool namesCompany(std::string_view prediction, std::string_view company);

// One prediction, categorized.
struct FailureCase {
    FailureCategory category = FailureCategory::OtherWrong;
    PredictionSource source = PredictionSource::None;
};

// Categorizes `answer` (the extracted answer) for the e-mail of `record` (its gold,
// sender header and text; its completion is not read).
FailureCase categorize(const data::ExtractionRecord &record, std::string_view answer, const EmailParties &parties);
// The same for a prepared e-mail (its normalized gold and text computed once).
FailureCase categorize(const reward::ExtractionPrompt &email, std::string_view answer, const EmailParties &parties);

// Half-open ranges of code points in the original (not normalized) text.
struct CodePointRange {
    size_t begin = 0;
    size_t end = 0;
    bool operator==(const CodePointRange &o) const { return begin == o.begin && end == o.end; }
};

// Where `needle` occurs in `text` when both are compared normalized (NFKC per code
// point, white space skipped), as ranges of `text`'s code points; non-overlapping, in
// order. A needle whose normalized form is empty occurs nowhere. (NFKC applied one code
// point at a time can differ from the whole string's for combining marks: such spans may
// not be found; categorize() is not affected.)
std::vector<CodePointRange> findNormalized(std::string_view text, std::string_view needle);

// What a highlighted span shows.
enum class SpanRole { Gold, Prediction, ComparedPrediction, Recipient, ThirdParty };
enum class SpanField { Sender, Body };
struct HighlightSpan {
    SpanRole role = SpanRole::Gold;
    SpanField field = SpanField::Body;
    CodePointRange range;
};

// The spans to highlight in the sender header and the body: the gold (its normalized
// form, or where that is not found its core), the prediction (the same way, skipped for
// 不明 and empty ones, and for cores shorter than two code points), the recipient and each
// other party. `compared` (optional, may be empty) is a second checkpoint's prediction.
std::vector<HighlightSpan> highlightSpans(const data::ExtractionRecord &record, const EmailParties &parties,
                                          std::string_view answer, std::string_view compared = {});

} // namespace rwb::eval
