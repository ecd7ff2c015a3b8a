#pragma once

#include "eval/confusionmatrix.h"
#include "judgeagreement.h"

#include <QAbstractTableModel>

namespace rwb::widgets {

using eval::ConfusionMatrix;

// One graded reward's confusion matrix as a table: a row per label of the reference grader
// and a column per label of the judge, the counts in the cells (the diagonal, where they
// agree, green; the rest red, darker with more), and a Total row and column. Each cell
// tells which labels it stands for (ReferenceLabelRole, JudgedLabelRole: −1 for a total,
// "any"), so that a click can filter the decisions to it. GUI thread only.
class JudgeConfusionModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int ReferenceLabelRole = Qt::UserRole + 1; // int, −1 = any
    static constexpr int JudgedLabelRole = Qt::UserRole + 2;    // int, −1 = any
    static constexpr int CountRole = Qt::UserRole + 3;          // int

    explicit JudgeConfusionModel(QObject *parent = nullptr);

    void setMatrix(GradedQuantity quantity, const ConfusionMatrix &matrix);
    GradedQuantity quantity() const { return m_quantity; }
    const ConfusionMatrix &matrix() const { return m_matrix; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    GradedQuantity m_quantity = GradedQuantity::None;
    ConfusionMatrix m_matrix;
};

} // namespace rwb::widgets
