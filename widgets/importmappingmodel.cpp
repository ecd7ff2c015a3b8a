#include "importmappingmodel.h"

#include <QBrush>
#include <QPalette>
#include <QGuiApplication>

namespace rwb::widgets {

ImportMappingModel::ImportMappingModel(QObject *parent) : QAbstractTableModel(parent) {}

void ImportMappingModel::setMapping(const std::vector<store::FieldMapping> &mapped,
                                    const std::vector<store::FieldMapping> &unmapped)
{
    beginResetModel();
    m_rows.clear();
    for (const store::FieldMapping &m : mapped)
        m_rows.push_back({m, true});
    for (const store::FieldMapping &m : unmapped)
        m_rows.push_back({m, false});
    endResetModel();
}

QString ImportMappingModel::target(const QString &field) const
{
    for (const Row &r : m_rows)
        if (QString::fromStdString(r.field.field) == field)
            return QString::fromStdString(r.field.target);
    return {};
}

int ImportMappingModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ImportMappingModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImportMappingModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row &r = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case FieldColumn:
            return QString::fromStdString(r.field.field);
        case TargetColumn:
            return QString::fromStdString(r.field.target);
        case RowsColumn:
            return static_cast<qlonglong>(r.field.rows);
        default:
            return {};
        }
    case MappedRole:
        return r.mapped;
    case Qt::ForegroundRole:
        if (!r.mapped)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == RowsColumn ? Qt::AlignRight | Qt::AlignVCenter
                                                                : Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ImportMappingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case FieldColumn: return tr("Field of the dump");
        case TargetColumn: return tr("Becomes");
        case RowsColumn: return tr("Rows");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && section == RowsColumn)
        return tr("How many of the rows read have the field");
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace rwb::widgets
