#pragma once

#include <QString>
#include <QVariant>

// How a reward value reads wherever the workbench shows one. A value may be None — a
// judge that failed after its retries, or whose reply did not parse (core/reward/reward.h,
// kNone: a quiet NaN; NULL in the run store, null in rewards_json). None is shown as a
// translated "None", sorts after every number whichever way a column is sorted, and is
// left out of every mean (as GRPO leaves it out of its group statistics). GUI thread only
// (tr()).
namespace RewardValue {

// "None", translated.
QString noneText();
// The value with `decimals` decimals, or noneText() for NaN.
QString format(double value, int decimals = 3);
// Whether a value is None.
bool isNone(double value);
// For QSortFilterProxyModel::lessThan on values held as doubles (or other QVariants):
// numbers by value with NaN after every number under `order` (a proxy sorting in
// descending order inverts lessThan, so NaN then counts as the smallest); numbers before
// texts likewise; texts by locale-aware comparison; anything else by QVariant::compare.
bool lessThan(const QVariant &left, const QVariant &right, Qt::SortOrder order);

} // namespace RewardValue
