#pragma once

// The search tree of ProRAG's MCTS (§3.2, eq. 2 and 3), without the model: nodes with
// their statistics, PUCT selection and the discounted back-up. The search that expands
// and evaluates nodes with a policy and a retriever drives it; the tree viewer reads it.
//
// A node is a state: the question plus the steps taken to reach it (depth = steps). The
// edge into a node is the action (one generated step block), so a node's statistics are
// the edge's: P its prior, N its visits, W the sum of the values backed up through it,
// Q = W / N (0 while N = 0, as ProRAG's code has it).

#include <string>
#include <vector>

namespace rwb::mcts {

struct Node {
    int id = 0;
    int parent = -1;      // -1 for the root
    int depth = 0;        // steps from the root
    std::string step;     // the action into this node ("" for the root)
    double prior = 1.0;   // P(s, a): the policy's probability of the step, normalized over siblings
    int visits = 0;       // N(s, a)
    double valueSum = 0;  // W(s, a)
    bool terminal = false;
    double terminalValue = 0; // the answer's value (F1 against gold) when terminal
    int iterationCreated = 0;
    std::vector<int> children;
    // What the search knows of the action beyond its text (0 / empty for a tree read
    // from a file that lacks them): the tokens the policy wrote (not the retrieval's), the
    // sum of their log-probabilities, the passages the environment retrieved for the
    // step's sub-query (ids, best first) and, for a terminal node, its parsed answer.
    int tokens = 0;
    double logProb = 0;
    std::vector<std::string> retrieved;
    std::string answer;

    double q() const { return visits > 0 ? valueSum / visits : 0.0; }
};

// The terms of a child's PUCT score (eq. 2), as the viewer shows them on hover:
// score = Q + U, U = c_puct · P · √(Σ_siblings N) / (1 + N).
struct PuctTerms {
    double q = 0, u = 0, p = 0;
    int n = 0;
    double score = 0;
};

class SearchTree {
public:
    SearchTree();
    const std::vector<Node> &nodes() const { return m_nodes; }
    const Node &node(int id) const { return m_nodes.at(static_cast<size_t>(id)); }
    static constexpr int kRoot = 0;

    // Adds a child of `parent` and returns its id. Throws std::invalid_argument for an
    // unknown parent or a prior outside [0, 1].
    int addChild(int parent, std::string step, double prior, int iteration);
    // The node to fill in the fields addChild does not take (tokens, logProb, retrieved,
    // answer). Statistics go through backup() and setStatistics().
    Node &detail(int id) { return m_nodes.at(static_cast<size_t>(id)); }
    void setTerminal(int id, double value);
    // Sets a node's N and W (a tree read back from a file). Throws std::invalid_argument
    // for N < 0 or a W that is not finite.
    void setStatistics(int id, int visits, double valueSum);

    PuctTerms puct(int child, double cPuct) const;
    // The child of `node` with the largest PUCT score; ties go to the larger prior, then
    // to the child added first. -1 when it has no child.
    int selectChild(int node, double cPuct) const;
    // From the root down, the selected child at each node, to a node that is terminal or
    // has no children (the one to expand or evaluate): [root, …, leaf].
    std::vector<int> selectPath(double cPuct) const;

    // Eq. 3 along `path` ([root, …, leaf]): each node at depth d gets γ^(T − d) · v added
    // to W and 1 to N, T being the depth of the terminal state v was measured at: the
    // leaf's own depth by default (the leaf gets v itself; the root too is counted), or
    // deeper when a simulation went on from the leaf (terminalDepth). Throws
    // std::invalid_argument when `path` is not a root-to-node chain or terminalDepth is
    // shallower than the leaf.
    void backup(const std::vector<int> &path, double value, double gamma, int terminalDepth = -1);

    // The path the search recommends: from the root, the child with the most visits (ties:
    // the larger Q, then the one added first), to a node without children.
    std::vector<int> mostVisitedPath() const;
    // The nodes as they stood when only the first `count` existed (ids 0 … count−1, the
    // ones created up to some iteration), with children beyond them dropped and the
    // statistics zeroed: the start of a replay (SearchRecord::treeAt).
    SearchTree prefix(int count) const;

private:
    std::vector<Node> m_nodes;
};

} // namespace rwb::mcts
