#include "mctstreefilter.h"

#include "mctstreelistmodel.h"

namespace rwb::widgets {

MctsTreeFilter::MctsTreeFilter(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(MctsTreeListModel::SortRole);
    setSortLocaleAware(true);
    // A live source updates rows in place: the order and the filter follow.
    setDynamicSortFilter(true);
}

void MctsTreeFilter::setText(const QString &text)
{
    const QString t = text.trimmed();
    if (t == m_text)
        return;
    m_text = t;
    invalidateFilter();
}

void MctsTreeFilter::setWrongOnly(bool wrongOnly)
{
    if (wrongOnly == m_wrongOnly)
        return;
    m_wrongOnly = wrongOnly;
    invalidateFilter();
}

bool MctsTreeFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const MctsTreeListModel *>(sourceModel());
    if (!model || sourceParent.isValid())
        return true;
    const mcts::TreeSummary &t = model->tree(sourceRow);
    if (m_wrongOnly && t.bestValue >= MctsTreeListModel::kCorrectValue)
        return false;
    if (m_text.isEmpty())
        return true;
    for (const std::string *s : {&t.questionId, &t.question, &t.goldAnswer, &t.bestAnswer})
        if (QString::fromStdString(*s).contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace rwb::widgets
