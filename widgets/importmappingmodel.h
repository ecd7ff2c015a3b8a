#pragma once

#include "store/rolloutimport.h"

#include <QAbstractTableModel>

#include <vector>

namespace rwb::widgets {

// What an import makes of a dump's fields (store::ImportReport's mapped and unmapped):
// a row per field of the dump, in order of first sight, the fields read into the store's
// columns first, then those kept only in each rollout's details (or not imported), shown
// grey: the field, what it becomes, and how many of the rows read had it. GUI thread only.
class ImportMappingModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { FieldColumn, TargetColumn, RowsColumn, ColumnCount };
    // bool: the field is read into a column of the store (not only kept in the details).
    static constexpr int MappedRole = Qt::UserRole + 1;

    explicit ImportMappingModel(QObject *parent = nullptr);

    void setMapping(const std::vector<store::FieldMapping> &mapped, const std::vector<store::FieldMapping> &unmapped);
    // The target of `field` ("" when the dump has no such field).
    QString target(const QString &field) const;
    // A target as the import wrote it (English), in the user's language where it is known.
    static QString translatedTarget(const std::string &target);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        store::FieldMapping field;
        bool mapped = false;
    };
    std::vector<Row> m_rows;
};

} // namespace rwb::widgets
