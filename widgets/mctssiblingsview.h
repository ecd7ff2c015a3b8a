#pragma once

#include "mcts/searchrecord.h"

#include <QString>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QHBoxLayout;
class QLabel;
class QScrollArea;

namespace rwb::widgets {

// A node and its siblings (the steps the policy offered at the same place) side by side,
// a column each in the order they were created: P, N and Q at the iteration shown, the
// PUCT score at that iteration's selection when there was one, the outcome of a terminal
// node, then the step, sub-query and sub-answer or answer. The material a person (or a
// judge) reads to pick the better of two steps for a preference pair. The node shown is
// framed; clicking another column's title selects it, and its "compare with" link asks
// for the two as a preference pair (compareRequested). GUI thread only.
class MctsSiblingsView : public QWidget {
    Q_OBJECT
public:
    explicit MctsSiblingsView(QWidget *parent = nullptr);

    // The siblings of `nodeId` that exist in `tree` (the tree at `iteration`; `before`
    // the tree the iteration selected on, null at iteration 0). Nothing for the root.
    void showSiblings(std::shared_ptr<const mcts::SearchRecord> record, const mcts::SearchTree &tree,
                      const mcts::SearchTree *before, int iteration, int nodeId);
    void clear();
    // The PRM's scores (node id → R) shown in each column's statistics from the next
    // showSiblings on; empty: none.
    void setPrmScores(std::map<int, double> scores) { m_prmScores = std::move(scores); }

    int columnCount() const { return static_cast<int>(m_columns.size()); }
    int columnNode(int column) const { return m_nodes.at(static_cast<size_t>(column)); }
    QString columnText(int column) const;
    QLabel *titleLabel() const { return m_title; }

Q_SIGNALS:
    void nodeActivated(int id);
    // "compare with #…" in a sibling's column: the node shown (A) and that sibling (B), to
    // be annotated as a preference pair.
    void compareRequested(int nodeA, int nodeB);

protected:
    void changeEvent(QEvent *event) override;

private:
    void rebuild();

    QLabel *m_title = nullptr;
    QScrollArea *m_scroll = nullptr;
    QWidget *m_strip = nullptr;
    QHBoxLayout *m_stripLayout = nullptr;
    std::vector<QLabel *> m_columns;
    std::vector<int> m_nodes;

    // What is shown, to render again on a language change.
    std::shared_ptr<const mcts::SearchRecord> m_record;
    struct Column {
        int id = 0;
        mcts::Node node;   // its statistics at the iteration shown
        bool hasScore = false;
        double score = 0;
    };
    std::vector<Column> m_shown;
    int m_iteration = 0;
    int m_nodeId = -1;
    std::map<int, double> m_prmScores;
};

} // namespace rwb::widgets
