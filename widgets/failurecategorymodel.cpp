#include "failurecategorymodel.h"

#include <QBrush>
#include <QColor>

#include "taskpresenter.h"
#include "task/catalog.h"

namespace rwb::widgets {

FailureCategoryModel::FailureCategoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    const task::Task &task = *task::Catalog::builtin().find("");
    setCategories(task.failureCategories(), TaskPresenter::forTask(task.name()));
}

void FailureCategoryModel::setCategories(const std::vector<task::FailureCategory> &categories,
                                         const TaskPresenter &presenter)
{
    beginResetModel();
    m_keys.clear();
    m_names.clear();
    m_explanations.clear();
    for (const task::FailureCategory &c : categories) {
        const QString key = QString::fromStdString(c.key);
        m_keys << key;
        m_names << presenter.categoryName(key, QString::fromStdString(c.name));
        m_explanations << presenter.categoryExplanation(key, QString::fromStdString(c.explanation));
    }
    endResetModel();
}

void FailureCategoryModel::setCounts(const eval::FailureCounts &a, const std::optional<eval::FailureCounts> &b,
                                     const eval::FailureComparison &comparison)
{
    beginResetModel();
    m_a = a;
    m_b = b;
    m_comparison = comparison;
    m_empty = false;
    endResetModel();
}

void FailureCategoryModel::clear()
{
    beginResetModel();
    m_a = {};
    m_b.reset();
    m_comparison = {};
    m_empty = true;
    endResetModel();
}

int FailureCategoryModel::rowOf(int filter) const
{
    if (m_empty)
        return -1;
    if (filter >= 0 && filter < categoryCount())
        return filter;
    if (!m_b)
        return -1;
    if (filter == FixedFilter)
        return categoryCount();
    if (filter == BrokeFilter)
        return categoryCount() + 1;
    return -1;
}

int FailureCategoryModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || m_empty)
        return 0;
    return categoryCount() + (m_b ? 2 : 0);
}

int FailureCategoryModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_b ? 4 : 3;
}

QVariant FailureCategoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const int n = categoryCount();
    if (row >= n) {
        const bool fixed = row == n;
        const size_t count = fixed ? m_comparison.fixed : m_comparison.broke;
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == 0)
                return fixed ? tr("Fixed (wrong at A, right at B)") : tr("Broke (right at A, wrong at B)");
            if (index.column() == 1)
                return QString::number(count);
            return {};
        case FilterRole:
            return fixed ? FixedFilter : BrokeFilter;
        case CountRole:
            return static_cast<qlonglong>(count);
        case Qt::TextAlignmentRole:
            return index.column() == 0 ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::ForegroundRole:
            return QBrush(fixed ? QColor(0x1e, 0x84, 0x49) : QColor(0xc0, 0x39, 0x2b));
        case Qt::ToolTipRole:
            return tr("%1 of %2 examples evaluated at both checkpoints").arg(count).arg(m_comparison.joined);
        default:
            return {};
        }
    }
    const size_t a = m_a.of(static_cast<size_t>(row));
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case 0:
            return name(row);
        case 1:
            return QString::number(a);
        case 2:
            if (m_b)
                return QString::number(m_b->of(static_cast<size_t>(row)));
            return m_a.total ? QString::number(100.0 * static_cast<double>(a) / static_cast<double>(m_a.total), 'f', 1) +
                                   QLatin1String(" %")
                             : QString();
        case 3: {
            const long long d = static_cast<long long>(m_b->of(static_cast<size_t>(row))) - static_cast<long long>(a);
            return d > 0 ? QStringLiteral("+%1").arg(d) : QString::number(d);
        }
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == 0 ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return explanation(row);
    case FilterRole:
        return row;
    case CountRole:
        return static_cast<qlonglong>(a);
    default:
        return {};
    }
}

QVariant FailureCategoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case 0:
        return tr("Category");
    case 1:
        return m_b ? tr("A") : tr("Count");
    case 2:
        return m_b ? tr("B") : tr("Share");
    case 3:
        return tr("B − A");
    default:
        return {};
    }
}

} // namespace rwb::widgets
