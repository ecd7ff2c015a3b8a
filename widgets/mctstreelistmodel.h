#pragma once

#include "mcts/searchrecord.h"

#include <QAbstractTableModel>

#include <vector>

namespace rwb::widgets {

// The search trees of a source (MctsTreeSource::trees()), one row each: the question's id
// and text, its hops, the answer the most visited path ends with, that answer's value,
// the best value the search found anywhere, the tree's nodes and depth and the iterations
// run. A tree whose search has not run all its simulations is shown in italics.
// SortRole gives numbers as numbers (MctsTreeFilter sorts by it). GUI thread only.
class MctsTreeListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, QuestionColumn, HopsColumn, BestAnswerColumn, BestValueColumn, FoundValueColumn,
                  NodesColumn, DepthColumn, IterationsColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for the numeric columns, text for the others
        TreeIdRole,                  // qint64
        CorrectRole,                 // bool: the best path's answer is right (value ≥ kCorrectValue)
    };
    // The value from which an answer counts as right (F1 1 up to rounding).
    static constexpr double kCorrectValue = 0.999;

    explicit MctsTreeListModel(QObject *parent = nullptr);

    // Replaces the rows. When the new list starts with the same trees as the rows shown
    // (a live source that grew), rows are updated and appended in place so that the
    // selection and the scroll position survive; otherwise the model resets.
    void setTrees(std::vector<mcts::TreeSummary> trees);
    const std::vector<mcts::TreeSummary> &trees() const { return m_trees; }
    const mcts::TreeSummary &tree(int row) const { return m_trees.at(static_cast<size_t>(row)); }
    // The row of tree `treeId`, −1 when there is none.
    int rowOf(qint64 treeId) const;

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<mcts::TreeSummary> m_trees;
};

} // namespace rwb::widgets
