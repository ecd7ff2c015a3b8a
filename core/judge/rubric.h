#pragma once

// Rubrics as rewards: the items of a per-question rubric (Rubrics as Rewards, RaR; and
// HealthBench), reading them from the two published JSON forms, writing them back, and
// turning a judge's per-item verdicts or overall rating into a reward in [0, 1].
// No Qt; all functions are pure and may be called from any thread.
//
// Pitfall convention (decided; every function here follows it):
//   A judge's verdict c_i on item i always means "the criterion as written is met" (1 =
//   met, 0 = not met, or in between for a continuous judge). Pitfall items are written as
//   the mistake ("States that the limitation period is 5 years") and carry a negative
//   weight, so a met pitfall subtracts |w_i|. Hence:
//     - an item whose category is Pitfall has weight −|w|, whatever sign was written;
//     - an item with a negative weight and no category is a Pitfall;
//     - an item with a negative weight and another category (Essential, …) is refused.
//   This is HealthBench's convention (a met negative item subtracts its points) and
//   matches RaR's data (Pitfall Criteria: weights −1 / −2). It is not Oumi's (judge 1 =
//   avoided) nor a TORCH-RaR port's (c = 1 = avoided, divided by Σ|w|).

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::judge {

// A rubric that cannot be used. The message names where it came from, the item and the
// field: "rubric.json: rubrics[3].weight is \"high\", not a number".
class RubricError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// RaR's importance levels; Unspecified for items that carry none (HealthBench's positive
// items).
enum class RubricCategory { Essential, Important, Optional, Pitfall, Unspecified };

// "essential", "important", "optional", "pitfall", "unspecified".
const char *toString(RubricCategory category);
// The inverse of toString, ignoring ASCII case and surrounding white space; nullopt for
// anything else.
std::optional<RubricCategory> rubricCategoryFromString(std::string_view text);
// RaR's description prefix: "Essential Criteria: ", …, "Pitfall Criteria: "; "" for
// Unspecified.
const char *categoryPrefix(RubricCategory category);

struct RubricItem {
    std::string title;     // RaR's short label; "" when none
    std::string criterion; // what the judge checks, without the "Essential Criteria:" prefix
    double weight = 0.0;   // non-zero and finite; negative exactly for pitfalls
    RubricCategory category = RubricCategory::Unspecified;
    std::vector<std::string> tags; // HealthBench's tags ("axis:accuracy"); may be empty
};

struct Rubric {
    std::vector<RubricItem> items;

    // Σ of the positive weights: the most a response can earn, the denominator of
    // explicitScore.
    double positiveWeight() const;
};

// Reads a rubric. `j` is a JSON array of items, or an object holding that array under
// "rubric" (RaR's rows) or "rubrics" (HealthBench's rows; so a whole dataset row may be
// passed, its other keys ignored). Both keys at once are refused. Items, each an object:
//  - RaR form: {"title", "description", "weight"}. The category is "category" when given
//    (case-insensitive essential / important / optional / pitfall / unspecified), else
//    read from the description's prefix "Essential Criteria:", "Important Criteria:",
//    "Optional Criteria:" or "Pitfall Criteria:" (ASCII case ignored, spaces allowed
//    around the words and before the colon, "Criterion" accepted for "Criteria"). The
//    criterion is the description less that prefix, trimmed. A "category" that disagrees
//    with the prefix is refused.
//  - HealthBench form: {"criterion", "points", "tags"}. The category is "category" when
//    given, else Pitfall when points < 0, else Unspecified.
// The weight is "weight" or "points" in either form (one of them, not both), a JSON number
// (strings are refused). "title" and "tags" (an array of strings) are optional in either
// form. Other keys are ignored. Then the pitfall convention above sets the sign.
// Throws RubricError naming `where`, the item ("rubrics[3]") and the field on: an item
// that is not an object or is neither form (or both: "criterion" and "description"); a
// missing or empty criterion / description; a missing weight or one that is not a number,
// not finite, or 0 (an item of weight 0 counts for nothing either way: remove it); an
// unknown category; a category contradicting the weight's sign; an empty rubric; and a
// rubric whose positive weights sum to 0 ("all-zero weights refused": every item is a
// pitfall, so no response could earn anything and the score is undefined).
Rubric parseRubric(const nlohmann::json &j, const std::string &where);

// The same from JSON text; a syntax error is reported as "<where>: not valid JSON: …".
Rubric parseRubricText(std::string_view text, const std::string &where);

// Checks a rubric built in code against the rules parseRubric enforces (a non-empty
// criterion, a finite non-zero weight, a sign that agrees with the category, at least one
// item, a positive weight sum). Throws RubricError naming `where` and "items[i]".
void validateRubric(const Rubric &rubric, const std::string &where);

// RaR form: an array of {"title", "description", "weight"} with the description prefixed
// by categoryPrefix(), weights as JSON integers when they are whole numbers, and "tags"
// only when an item has some. Unspecified items get no prefix.
nlohmann::json toRaR(const Rubric &rubric);
// HealthBench form: an array of {"criterion", "points", "tags"}, plus "title" when an
// item has one and "category" unless Unspecified, so that parseRubric reads back the
// same rubric.
nlohmann::json toHealthBench(const Rubric &rubric);

// ---- Aggregation -----------------------------------------------------------------------

// Explicit aggregation (RaR §2.2, HealthBench's per-example score clamped):
//     score = clamp( Σ_i w_i·c_i / Σ_{i: w_i > 0} w_i , 0, 1 )
// with c_i ∈ [0, 1] the verdict on item i ("the criterion is met": 0/1 from a binary
// judge, or a fraction from a continuous one) and w_i < 0 for pitfalls, so a met pitfall
// subtracts. With every c_i ∈ [0, 1] the ratio is at most 1; it goes below 0 when the
// pitfalls met outweigh the items earned, and is clamped there (RuscaRL's choice;
// HealthBench leaves examples unclipped and clips only the dataset mean).
// Returns nullopt when any verdict is missing (a judge call failed or could not be
// parsed): a score from the other items alone would not be honest. Throws
// std::invalid_argument when c.size() differs from the item count, when a verdict is not
// within [0, 1], or when the rubric fails validateRubric.
std::optional<double> explicitScore(const Rubric &rubric, const std::vector<std::optional<double>> &c);

// One item's share of the explicit score, for a viewer.
struct ItemContribution {
    double weight = 0.0;
    std::optional<double> verdict; // c_i; nullopt when missing
    double contribution = 0.0;     // w_i·c_i / Σ_{w>0} w; 0 when the verdict is missing
};

// Every item's contribution, in rubric order. Their sum is the explicit score before the
// clamp (when no verdict is missing). Same checks as explicitScore, but a missing verdict
// is shown rather than making the whole breakdown empty.
std::vector<ItemContribution> explicitBreakdown(const Rubric &rubric, const std::vector<std::optional<double>> &c);

// Implicit aggregation (RaR-Implicit) and the Likert baselines: a judge's overall 1–10
// rating r becomes
//     (clamp(r, 1, 10) − 1) / 9
// so the worst rating maps to 0 and the best to 1 (decided: the paper only says
// "normalized to [0, 1]"; Oumi's r/10 would give the worst answer 0.1). 5.5 → 0.5.
// Throws std::invalid_argument when r is NaN.
double likertToUnit(double r);

} // namespace rwb::judge
