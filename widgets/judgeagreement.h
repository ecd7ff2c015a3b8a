#pragma once

#include <QString>

namespace rwb::widgets {

struct JudgeVerdictSummary;

// What a judge reward's decisions can be checked against: the legal-QA task's reference
// grader, whose per-answer "coverage" (0, 0.5, 1) and "consistency" (1 − contradiction:
// 1 or 0) the task stores in each rollout's (and evaluation prediction's) details_json
// (core/tasks/legalqa/legalqatask.h).
enum class GradedQuantity { None, Coverage, Consistency };

// The labels both sides are put in, so that a judge and the grader can be counted in one
// confusion matrix (ConfusionMatrix). GUI thread for the names (tr()); the rest anywhere.
namespace JudgeAgreement {

// Which quantity a decision of `reward` grades: Coverage for the reward "coverage",
// Consistency for "consistency"; for a reward registered under another name whose verdict
// has the legal shape, Coverage when its value is the verdict's coverage, else
// Consistency; None for every other reward.
GradedQuantity quantity(const QString &reward, const JudgeVerdictSummary &verdict, double value);
// 3 for Coverage, 2 for Consistency, 0 for None.
int labelCount(GradedQuantity q);
// A value's label, the judge's value and the grader's bucketed the same way:
//   Coverage:    0 "none" (v ≤ 0), 1 "partial" (0 < v < 1), 2 "full" (v ≥ 1)
//   Consistency: 0 "contradiction" (v < 0.5), 1 "consistent" (v ≥ 0.5)
// −1 for NaN (None, or no grade) and for GradedQuantity::None.
int label(GradedQuantity q, double value);
// The label's name, translated ("none", "partial", "full"; "contradiction", "consistent").
QString labelName(GradedQuantity q, int label);

} // namespace JudgeAgreement

} // namespace rwb::widgets
