#include "rewardvalue.h"

#include <QCoreApplication>

#include <cmath>

namespace RewardValue {

QString noneText()
{
    return QCoreApplication::translate("RewardValue", "None");
}

bool isNone(double value)
{
    return std::isnan(value);
}

QString format(double value, int decimals)
{
    return isNone(value) ? noneText() : QString::number(value, 'f', decimals);
}

bool lessThan(const QVariant &left, const QVariant &right, Qt::SortOrder order)
{
    const auto isNumber = [](const QVariant &v) {
        switch (v.typeId()) {
        case QMetaType::Double:
        case QMetaType::Float:
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong:
        case QMetaType::Bool:
            return true;
        default:
            return false;
        }
    };
    if (isNumber(left) && isNumber(right)) {
        const double l = left.toDouble(), r = right.toDouble();
        const bool ln = std::isnan(l), rn = std::isnan(r);
        if (ln || rn) {
            if (ln && rn)
                return false;
            // Ascending: a number before None. Descending (the proxy inverts): None "smaller".
            return order == Qt::AscendingOrder ? rn : ln;
        }
        return l < r;
    }
    if (isNumber(left) != isNumber(right)) // a column of numbers and texts: the numbers first
        return order == Qt::AscendingOrder ? isNumber(left) : isNumber(right);
    if (left.typeId() == QMetaType::QString && right.typeId() == QMetaType::QString)
        return QString::localeAwareCompare(left.toString(), right.toString()) < 0;
    return QVariant::compare(left, right) == QPartialOrdering::Less;
}

} // namespace RewardValue
