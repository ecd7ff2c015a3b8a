#include "runfilterproxy.h"

#include "runlistmodel.h"

namespace rwb::widgets {

RunFilterProxy::RunFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    // A rename or new tags change whether a row passes.
    setDynamicSortFilter(true);
}

void RunFilterProxy::setText(const QString &text)
{
    // simplified(): any Unicode blank (a Japanese keyboard's U+3000 too) separates words.
    const QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateFilter();
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *model = qobject_cast<const RunListModel *>(sourceModel());
    if (!model || sourceParent.isValid() || m_words.isEmpty())
        return true;
    const store::RunInfo *r = model->run(sourceRow);
    if (!r)
        return false;
    QStringList fields{QString::fromStdString(r->name), QString::fromStdString(r->kind)};
    for (const std::string &t : r->tags)
        fields << QString::fromStdString(t);
    for (const QString &word : m_words) {
        bool found = false;
        for (const QString &f : fields)
            if (f.contains(word, Qt::CaseInsensitive)) {
                found = true;
                break;
            }
        if (!found)
            return false;
    }
    return true;
}

} // namespace rwb::widgets
