#include "samplefilterproxy.h"

#include "rewardvalue.h"
#include "samplescoremodel.h"

SampleFilterProxy::SampleFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SampleScoreModel::ValueRole);
    setDynamicSortFilter(true);
}

void SampleFilterProxy::setText(const QString &text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void SampleFilterProxy::setCondition(int column, Comparison comparison, double threshold)
{
    if (column == m_column && comparison == m_comparison && threshold == m_threshold)
        return;
    m_column = column;
    m_comparison = comparison;
    m_threshold = threshold;
    invalidateFilter();
}

bool SampleFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *m = sourceModel();
    if (!m_text.isEmpty()) {
        bool found = false;
        for (int c : {SampleScoreModel::IdColumn, SampleScoreModel::KindColumn, SampleScoreModel::AnswerColumn,
                      SampleScoreModel::GoldColumn}) {
            if (m->index(sourceRow, c, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive)) {
                found = true;
                break;
            }
        }
        if (!found)
            return false;
    }
    if (m_column >= 0 && m_column < m->columnCount(sourceParent)) {
        const double v = m->index(sourceRow, m_column, sourceParent).data(SampleScoreModel::ValueRole).toDouble();
        switch (m_comparison) {
        case Comparison::Less: return v < m_threshold;
        case Comparison::LessOrEqual: return v <= m_threshold;
        case Comparison::Greater: return v > m_threshold;
        case Comparison::GreaterOrEqual: return v >= m_threshold;
        }
    }
    return true;
}

bool SampleFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(SampleScoreModel::ValueRole);
    const QVariant r = right.data(SampleScoreModel::ValueRole);
    // None (and a judge cell not scored yet) holds NaN: after every number, either way.
    return RewardValue::lessThan(l, r, sortOrder());
}
