#pragma once

#include "reward/reward.h"

#include <QString>
#include <QVector>

#include <string>

// HTML pieces shared by the detail panes that explain a reward (the Reward Designer's
// SampleDetailView, the rollout browser's RolloutDetailView): escaping, highlighted
// spans, the component table and the three-colour comparison of answer and gold.
// Colours are chosen for the light page both panes keep. GUI thread only (tr()).
namespace RewardHtml {

// Highlight colours.
inline constexpr const char *kCommonColour = "#ffe08a";  // the common substring (Reward Designer)
inline constexpr const char *kSameColour = "#bfe8c0";    // in both answer and gold (green)
inline constexpr const char *kExtraColour = "#f7b8b8";   // in the answer, not in the gold (red)
inline constexpr const char *kMissingColour = "#ffd59a"; // in the gold, missing from the answer (orange)

// HTML-escaped, line breaks as <br>.
QString escape(const QString &text);

// `utf8` with code points [span.begin, span.begin + span.length) on `colour`; "∅" in
// italics when the text is empty.
QString highlightSpan(const std::string &utf8, rwb::reward::Span span, const char *colour);

// `utf8` with its code points [span.begin, span.begin + span.length) on `inside` and
// every other code point on `outside` (either colour may be null: no background).
// "∅" in italics when the text is empty.
QString markSpan(const std::string &utf8, rwb::reward::Span span, const char *inside, const char *outside);

// One line of the component table.
struct ComponentRow {
    QString name;
    double value = 0.0;   // NaN: not recorded ("—"), or None when `none`
    double weight = 0.0;
    QString why;          // plain text (escaped here)
    bool none = false;    // the value is None: a judge gave no verdict ("None", in red)
};
// The table Reward | Value | Weight | Contribution | Why with a Total line
// (Σ weight·value / Σ weight; a NaN total shows as "None"). Components of weight 0 are grey.
QString componentTable(const QVector<ComponentRow> &rows, double total);

} // namespace RewardHtml
