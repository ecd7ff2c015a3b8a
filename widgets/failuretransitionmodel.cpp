#include "failuretransitionmodel.h"

#include "failurecategorymodel.h"
#include "taskpresenter.h"

#include "task/catalog.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace rwb::widgets {

FailureTransitionModel::FailureTransitionModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    const task::Task &task = *task::Catalog::builtin().find("");
    setCategories(task.failureCategories(), TaskPresenter::forTask(task.name()));
}

void FailureTransitionModel::setCategories(const std::vector<task::FailureCategory> &categories,
                                           const TaskPresenter &presenter)
{
    beginResetModel();
    m_short.clear();
    m_names.clear();
    for (const task::FailureCategory &c : categories) {
        const QString key = QString::fromStdString(c.key);
        const QString name = presenter.categoryName(key, QString::fromStdString(c.name));
        m_short << presenter.categoryShortName(key, name);
        m_names << name;
    }
    endResetModel();
}

void FailureTransitionModel::setComparison(const eval::FailureComparison &comparison)
{
    beginResetModel();
    m_comparison = comparison;
    m_empty = false;
    endResetModel();
}

void FailureTransitionModel::clear()
{
    beginResetModel();
    m_comparison = {};
    m_empty = true;
    endResetModel();
}

int FailureTransitionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_empty ? 0 : static_cast<int>(std::min<size_t>(m_comparison.transitions.size(), m_names.size()));
}

int FailureTransitionModel::columnCount(const QModelIndex &parent) const
{
    return rowCount(parent);
}

QVariant FailureTransitionModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const size_t a = static_cast<size_t>(index.row()), b = static_cast<size_t>(index.column());
    const size_t n = m_comparison.transitions[a][b];
    const size_t exact = 0; // the right category
    switch (role) {
    case Qt::DisplayRole:
        return n ? QString::number(n) : QString();
    case CountRole:
        return static_cast<qlonglong>(n);
    case Qt::TextAlignmentRole:
        return int(Qt::AlignCenter);
    case Qt::BackgroundRole:
        if (a == b)
            return QBrush(QColor(0xee, 0xee, 0xee));
        if (n && b == exact)
            return QBrush(QColor(0xd5, 0xf0, 0xdc));
        if (n && a == exact)
            return QBrush(QColor(0xf8, 0xd7, 0xd3));
        return {};
    case Qt::ToolTipRole:
        return tr("%n example(s): %1 at A, %2 at B", nullptr, static_cast<int>(n))
            .arg(m_names.value(static_cast<int>(a)), m_names.value(static_cast<int>(b)));
    default:
        return {};
    }
}

QVariant FailureTransitionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section < 0 || section >= m_names.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return m_short.value(section);
    if (role == Qt::ToolTipRole)
        return m_names.value(section);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace rwb::widgets
