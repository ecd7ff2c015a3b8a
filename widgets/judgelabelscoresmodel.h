#pragma once

#include "eval/confusionmatrix.h"
#include "judgeagreement.h"

#include <QAbstractTableModel>

namespace rwb::widgets {

// The per-label figures of one graded quantity's confusion matrix (eval::ConfusionMatrix):
// a row per label (none, partial, full; or contradiction, consistent) with its precision
// (of what the judge called the label, the share the reference grader called so), recall
// (of what the grader called the label, the share the judge called so), F1, support (how
// many requests the grader gave the label) and how many the judge gave it. A figure with
// nothing to divide by shows "—". GUI thread only.
class JudgeLabelScoresModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { LabelColumn, PrecisionColumn, RecallColumn, F1Column, SupportColumn, JudgedColumn, ColumnCount };
    // The figure as a number: a double for the three ratios (NaN for "—"), an int for the counts.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit JudgeLabelScoresModel(QObject *parent = nullptr);

    void setMatrix(GradedQuantity quantity, const eval::ConfusionMatrix &matrix);
    const eval::ConfusionMatrix &matrix() const { return m_matrix; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    GradedQuantity m_quantity = GradedQuantity::None;
    eval::ConfusionMatrix m_matrix;
};

} // namespace rwb::widgets
