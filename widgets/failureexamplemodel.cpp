#include "failureexamplemodel.h"

#include "failurecategorymodel.h"

namespace rwb::widgets {

FailureExampleModel::FailureExampleModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FailureExampleModel::setRows(std::vector<Row> rows, bool compareMode)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_compare = compareMode;
    endResetModel();
}

void FailureExampleModel::clear()
{
    setRows({}, false);
}

int FailureExampleModel::rowOf(const QString &id) const
{
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id)
            return static_cast<int>(i);
    return -1;
}

FailureExampleModel::Column FailureExampleModel::columnKind(int column) const
{
    if (!m_compare && column >= PredictionBColumn)
        return static_cast<Column>(column + 1);
    return static_cast<Column>(column);
}

int FailureExampleModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int FailureExampleModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : (m_compare ? 5 : 4);
}

QVariant FailureExampleModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Row &r = m_rows[static_cast<size_t>(index.row())];
    if (role == IdRole)
        return r.id;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const auto shown = [](const QString &answer) { return answer.isEmpty() ? tr("(empty)") : answer; };
    switch (columnKind(index.column())) {
    case IdColumn:
        return r.id;
    case PredictionAColumn:
        return shown(r.answerA);
    case PredictionBColumn:
        return shown(r.answerB);
    case GoldColumn:
        return r.gold;
    case CategoryColumn:
        if (m_compare)
            return tr("%1 → %2").arg(r.categoryA, r.categoryB);
        return r.categoryA;
    }
    return {};
}

QVariant FailureExampleModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (columnKind(section)) {
    case IdColumn:
        return tr("ID");
    case PredictionAColumn:
        return m_compare ? tr("Prediction A") : tr("Prediction");
    case PredictionBColumn:
        return tr("Prediction B");
    case GoldColumn:
        return tr("Gold");
    case CategoryColumn:
        return m_compare ? tr("Category A → B") : tr("Category");
    }
    return {};
}

} // namespace rwb::widgets
