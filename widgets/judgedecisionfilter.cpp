#include "judgedecisionfilter.h"

#include "judgedecisionmodel.h"
#include "rewardvalue.h"

namespace rwb::widgets {

JudgeDecisionFilter::JudgeDecisionFilter(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(JudgeDecisionModel::ValueRole);
    setDynamicSortFilter(true);
}

void JudgeDecisionFilter::setReward(const QString &reward)
{
    if (reward == m_reward)
        return;
    m_reward = reward;
    invalidateFilter();
}

void JudgeDecisionFilter::setText(const QString &text)
{
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    invalidateFilter();
}

void JudgeDecisionFilter::setFailures(Failures f)
{
    if (f == m_failures)
        return;
    m_failures = f;
    invalidateFilter();
}

void JudgeDecisionFilter::setCache(Cache c)
{
    if (c == m_cache)
        return;
    m_cache = c;
    invalidateFilter();
}

void JudgeDecisionFilter::setMinLatency(double seconds)
{
    const double s = seconds > 0.0 ? seconds : 0.0;
    if (s == m_minLatency)
        return;
    m_minLatency = s;
    invalidateFilter();
}

void JudgeDecisionFilter::setRolloutId(qint64 rolloutId)
{
    const qint64 id = rolloutId > 0 ? rolloutId : 0;
    if (id == m_rolloutId)
        return;
    m_rolloutId = id;
    invalidateFilter();
}

void JudgeDecisionFilter::setAgreementCell(const AgreementCell &cell)
{
    if (cell == m_cell)
        return;
    m_cell = cell;
    invalidateFilter();
}

void JudgeDecisionFilter::clearConditions()
{
    m_reward.clear();
    m_text.clear();
    m_failures = Failures::Any;
    m_cache = Cache::Any;
    m_minLatency = 0.0;
    m_rolloutId = 0;
    m_cell = {};
    invalidateFilter();
}

bool JudgeDecisionFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const JudgeDecisionModel *>(sourceModel());
    if (!model || sourceParent.isValid())
        return true;
    const JudgeDecisionRow &r = model->decision(sourceRow);
    if (!m_reward.isEmpty() && r.reward != m_reward)
        return false;
    if (m_rolloutId > 0 && r.rolloutId != m_rolloutId)
        return false;
    switch (m_failures) {
    case Failures::Any: break;
    case Failures::Failed:
        if (r.failure() == JudgeDecisionRow::Failure::None)
            return false;
        break;
    case Failures::CallFailed:
        if (r.failure() != JudgeDecisionRow::Failure::Call)
            return false;
        break;
    case Failures::ParseFailed:
        if (r.failure() != JudgeDecisionRow::Failure::Parse)
            return false;
        break;
    case Failures::NotFailed:
        if (r.failure() != JudgeDecisionRow::Failure::None)
            return false;
        break;
    }
    if ((m_cache == Cache::Hits && !r.cacheHit) || (m_cache == Cache::Misses && r.cacheHit))
        return false;
    if (m_minLatency > 0.0 && !(r.latencySeconds >= m_minLatency))
        return false;
    if (!m_cell.reward.isEmpty()) {
        if (r.reward != m_cell.reward || r.judgedLabel < 0 || r.referenceLabel < 0)
            return false;
        if (m_cell.referenceLabel >= 0 && r.referenceLabel != m_cell.referenceLabel)
            return false;
        if (m_cell.judgedLabel >= 0 && r.judgedLabel != m_cell.judgedLabel)
            return false;
    }
    if (!m_text.isEmpty()) {
        const QString shown[] = {RewardValue::format(r.value, 3), JudgeDecisionModel::verdictText(r), r.part, r.error};
        bool found = false;
        for (const QString &s : shown)
            if (s.contains(m_text, Qt::CaseInsensitive)) {
                found = true;
                break;
            }
        if (!found)
            return false;
    }
    return true;
}

bool JudgeDecisionFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    return RewardValue::lessThan(left.data(sortRole()), right.data(sortRole()), sortOrder());
}

} // namespace rwb::widgets
