#pragma once

#include "train/rescore.h"

#include <QAbstractTableModel>

#include <memory>

namespace rwb::widgets {

// The groups of a what-if re-score, one row each: step, group, rollouts, mean total stored
// and new, the best completion's sample before and after (marked when it changes), the
// sign flips, and whether the group could be re-scored. Qt::UserRole gives a cell's number.
// GUI thread only.
class RescoreGroupModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Step, Group, Rollouts, OldMean, NewMean, OldBest, NewBest, Flips, ColumnCount };

    explicit RescoreGroupModel(QObject *parent = nullptr);

    void setResult(std::shared_ptr<const train::RescoreResult> result);
    const train::RescoredGroup &groupAt(int row) const { return m_result->groups[static_cast<size_t>(row)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void retranslate();

private:
    std::shared_ptr<const train::RescoreResult> m_result;
};

} // namespace rwb::widgets
