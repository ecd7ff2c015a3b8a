#pragma once

#include <QString>

#include <limits>
#include <optional>
#include <string>

namespace rwb::widgets {

// What a stored judge verdict says, read from the decision's `verdict` JSON as the judge
// rewards write it (core/reward/judgerewards.cpp):
//   legal (coverage, consistency): {"coverage", "contradiction", "student_points", …,
//       "fallback", "span"}
//   rubric_explicit, one item per call: {"criterion", "category", "weight", "c",
//       "contribution", "explanation", "met" | "score", "span"}
//   rubric_explicit, all items in one call: {"items": [{"criterion", "category", "weight",
//       "c", "contribution", "explanation"}], "score", "fallback", "span"}
//   ratings (rubric_implicit, likert_*): {"rating", "unit", "geval"?, "geval_used"?, "span"}
// and the byte range of the reply the verdict's JSON object was read from ("span": begin and
// end are byte offsets into the UTF-8 reply). A plain value: cheap to copy, any thread may
// read one; text() translates, so call it on the GUI thread.
struct JudgeVerdictSummary {
    enum class Kind {
        Missing,        // no verdict (the call failed or the reply did not parse)
        Legal,
        RubricItem,
        RubricAllItems,
        Rating,
        Other,          // a JSON object of another shape (shown as compact JSON)
    };
    Kind kind = Kind::Missing;
    // Legal: 0, 0.5 or 1, and whether the judge found a contradiction.
    double coverage = std::numeric_limits<double>::quiet_NaN();
    bool contradiction = false;
    // RubricItem: a binary verdict (met) or a continuous one (score 0–10); c is what
    // entered the rubric's score (0–1).
    std::optional<bool> met;
    std::optional<double> score;
    double c = std::numeric_limits<double>::quiet_NaN();
    // RubricAllItems: items whose verdict c is at least 0.5, of all items.
    int itemsMet = 0;
    int items = 0;
    // Rating: 1–10 as written, and the G-Eval weighted rating when one was computed.
    double rating = std::numeric_limits<double>::quiet_NaN();
    std::optional<double> geval;
    // The reply was not exactly the shape asked for but a documented fallback read it.
    bool fallback = false;
    // Where the verdict's JSON object was in the reply: bytes [spanBegin, spanEnd) of the
    // UTF-8 reply, -1 when unknown; and how it was found ("bare", "fenced", "embedded").
    qint64 spanBegin = -1;
    qint64 spanEnd = -1;
    QString spanForm;
    // Other: the verdict as compact JSON, shortened.
    QString other;

    // Reads a stored verdict ("" or unreadable JSON: Missing). A verdict of another shape
    // is shown by the line its judge kind gives (JudgeKind::verdictLine; the kind named
    // `reward`, the decision's reward, when there is one), else as compact JSON.
    static JudgeVerdictSummary read(const std::string &verdictJson, const std::string &reward = {});
    // One short line: "full / no contradiction", "met", "score 7/10", "3 of 5 met",
    // "rating 7", "" when Missing. Translated.
    QString text() const;
};

} // namespace rwb::widgets
