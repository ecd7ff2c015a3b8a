#pragma once

#include "store/rolloutimport.h"

#include <QAbstractTableModel>

#include <vector>

namespace rwb::widgets {

// The first rollouts of a dump as the import reads them (store::previewImport's rows):
// where each comes from (file and line), its step, prompt, completion, reward (None where
// the dump has none), the trainer's advantage (or that GRPO's is worked out on import),
// each reward component, the gold answer and the group. Long texts show their start on
// one line; the tooltip holds them whole. GUI thread only.
class ImportPreviewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        WhereColumn,
        StepColumn,
        PromptColumn,
        CompletionColumn,
        RewardColumn,
        AdvantageColumn,
        ComponentsColumn,
        GoldColumn,
        GroupColumn,
        ColumnCount
    };
    // RewardColumn, AdvantageColumn: the number (NaN: None / not in the dump).
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit ImportPreviewModel(QObject *parent = nullptr);

    void setRows(std::vector<store::ImportPreviewRow> rows);
    const store::ImportPreviewRow &row(int i) const { return m_rows.at(static_cast<size_t>(i)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<store::ImportPreviewRow> m_rows;
};

} // namespace rwb::widgets
