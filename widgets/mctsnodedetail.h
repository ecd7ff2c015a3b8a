#pragma once

#include "mcts/searchrecord.h"
#include "tasks/multihop/multihopformat.h"

#include <QString>
#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QTextBrowser;

namespace rwb::widgets {

// Everything about one node of a search tree, read-only and selectable: its statistics at
// the iteration shown (N, Q, W, P, the policy's tokens and log-probability), the question
// with its gold answer and passages, the history from the root to the node (each
// ancestor's step text parsed into its blocks: step, sub-query, retrieved passages,
// sub-answer), the node's own step in full with the passages it retrieved (gold ones
// marked ★), and for a terminal node its answer against the gold answer (exact match and
// answer F1, tasks/multihop/multihopformat.h) with the value the search gave it. A step that
// breaks the format is shown raw with the parser's complaint. GUI thread only.
class MctsNodeDetail : public QWidget {
    Q_OBJECT
public:
    // One passage of a step's <retrieval> block.
    struct Passage {
        std::string id;   // "" when the block's text could not be matched to the ids
        std::string text; // "" when only the id is known
        bool gold = false;
    };

    explicit MctsNodeDetail(QWidget *parent = nullptr);

    // Shows node `nodeId` of `record` with its statistics in `tree` (the tree at
    // `iteration`); a node that `tree` does not have yet is shown from the final tree,
    // with a note.
    void showNode(std::shared_ptr<const mcts::SearchRecord> record, const mcts::SearchTree &tree, int iteration,
                  int nodeId);
    void clear();
    int nodeId() const { return m_nodeId; }
    // The PRM's scores of the tree's steps (node id → R; empty: none), shown beside the
    // tree's values from the next showNode on.
    void setPrmScores(std::map<int, double> scores);

    // The HTML given to the browser (for tests), and what it shows as plain text.
    QString sourceHtml() const { return m_html; }
    QString plainText() const;
    QTextBrowser *browser() const { return m_browser; }

    // Pairs a <retrieval> block's text with the retrieved ids: by a line naming the id
    // ("[kb-P017] …" or "kb-P017: …", that prefix dropped), else line by line when there
    // are as many lines as ids, else the ids without text and the whole block as one
    // passage without an id.
    // A node's step text parsed: one action, a hop (step, sub-query, retrieval,
    // sub-answer) or a final step with its answer. parseTrajectory alone would call a lone
    // hop unfinished (a whole trajectory ends with an answer); here it is well formed.
    static task::Trajectory parseStep(const std::string &step);

    static std::vector<Passage> splitPassages(const std::string &retrieval, const std::vector<std::string> &ids,
                                              const std::vector<std::string> &gold);

protected:
    void changeEvent(QEvent *event) override;

private:
    QString render(const mcts::SearchTree &tree) const;
    QString passagesHtml(const std::string &retrieval, const std::vector<std::string> &ids) const;
    QString stepHtml(const mcts::Node &node) const;

    QTextBrowser *m_browser = nullptr;
    std::shared_ptr<const mcts::SearchRecord> m_record;
    int m_iteration = 0;
    int m_nodeId = -1;
    std::map<int, double> m_prmScores;
    QString m_html;
};

} // namespace rwb::widgets
