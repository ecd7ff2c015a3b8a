#include "metriclistmodel.h"

#include <algorithm>

namespace rwb::widgets {

MetricListModel::MetricListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void MetricListModel::setMetrics(const QStringList &names)
{
    QStringList all = names;
    for (const QString &name : m_checked)
        all << name;
    all.removeAll(QString());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (all == m_names)
        return;
    beginResetModel();
    m_names = all;
    endResetModel();
}

QStringList MetricListModel::checkedMetrics() const
{
    QStringList out(m_checked.begin(), m_checked.end());
    std::sort(out.begin(), out.end());
    return out;
}

void MetricListModel::setChecked(const QString &name, bool checked)
{
    if (name.isEmpty() || m_checked.contains(name) == checked)
        return;
    if (checked)
        m_checked.insert(name);
    else
        m_checked.remove(name);
    if (const int row = rowOf(name); row >= 0) {
        const QModelIndex i = index(row);
        Q_EMIT dataChanged(i, i, {Qt::CheckStateRole});
    } else {
        setMetrics(m_names);
    }
    Q_EMIT checkedChanged(name, checked);
}

void MetricListModel::setNotes(const QHash<QString, QString> &notes)
{
    m_notes = notes;
    if (!m_names.isEmpty())
        Q_EMIT dataChanged(index(0), index(static_cast<int>(m_names.size()) - 1), {Qt::ToolTipRole});
}

int MetricListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_names.size());
}

QVariant MetricListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QString &name = m_names.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return name;
    case Qt::CheckStateRole:
        return m_checked.contains(name) ? Qt::Checked : Qt::Unchecked;
    case Qt::ToolTipRole: {
        const QString note = m_notes.value(name);
        return note.isEmpty() ? name : name + QLatin1Char('\n') + note;
    }
    default:
        return {};
    }
}

bool MetricListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::CheckStateRole || !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    setChecked(m_names.at(index.row()), value.toInt() == Qt::Checked);
    return true;
}

Qt::ItemFlags MetricListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable | Qt::ItemNeverHasChildren;
}

} // namespace rwb::widgets
