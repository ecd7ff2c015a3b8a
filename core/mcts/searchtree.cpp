#include "mcts/searchtree.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::mcts {

SearchTree::SearchTree()
{
    m_nodes.emplace_back(); // the root: id 0, depth 0
}

int SearchTree::addChild(int parent, std::string step, double prior, int iteration)
{
    if (parent < 0 || parent >= static_cast<int>(m_nodes.size()))
        throw std::invalid_argument("search tree: no node " + std::to_string(parent));
    if (!(prior >= 0.0 && prior <= 1.0))
        throw std::invalid_argument("search tree: a prior must be within 0–1, not " + std::to_string(prior));
    Node n;
    n.id = static_cast<int>(m_nodes.size());
    n.parent = parent;
    n.depth = m_nodes[static_cast<size_t>(parent)].depth + 1;
    n.step = std::move(step);
    n.prior = prior;
    n.iterationCreated = iteration;
    m_nodes.push_back(std::move(n));
    m_nodes[static_cast<size_t>(parent)].children.push_back(m_nodes.back().id);
    return m_nodes.back().id;
}

void SearchTree::setTerminal(int id, double value)
{
    Node &n = m_nodes.at(static_cast<size_t>(id));
    n.terminal = true;
    n.terminalValue = value;
}

void SearchTree::setStatistics(int id, int visits, double valueSum)
{
    if (visits < 0 || !std::isfinite(valueSum))
        throw std::invalid_argument("search tree: visits must be ≥ 0 and the value sum finite");
    Node &n = m_nodes.at(static_cast<size_t>(id));
    n.visits = visits;
    n.valueSum = valueSum;
}

PuctTerms SearchTree::puct(int child, double cPuct) const
{
    const Node &c = node(child);
    int siblingVisits = 0;
    if (c.parent >= 0)
        for (int s : node(c.parent).children)
            siblingVisits += node(s).visits;
    PuctTerms t;
    t.q = c.q();
    t.p = c.prior;
    t.n = c.visits;
    t.u = cPuct * c.prior * std::sqrt(static_cast<double>(siblingVisits)) / (1.0 + c.visits);
    t.score = t.q + t.u;
    return t;
}

int SearchTree::selectChild(int id, double cPuct) const
{
    int best = -1;
    PuctTerms bestTerms;
    for (int c : node(id).children) {
        const PuctTerms t = puct(c, cPuct);
        if (best < 0 || t.score > bestTerms.score || (t.score == bestTerms.score && t.p > bestTerms.p)) {
            best = c;
            bestTerms = t;
        }
    }
    return best;
}

std::vector<int> SearchTree::selectPath(double cPuct) const
{
    std::vector<int> path{kRoot};
    for (;;) {
        const Node &n = node(path.back());
        if (n.terminal || n.children.empty())
            return path;
        path.push_back(selectChild(n.id, cPuct));
    }
}

void SearchTree::backup(const std::vector<int> &path, double value, double gamma, int terminalDepth)
{
    if (path.empty() || path.front() != kRoot)
        throw std::invalid_argument("search tree: a back-up path starts at the root");
    for (size_t i = 1; i < path.size(); ++i)
        if (path[i] < 0 || path[i] >= static_cast<int>(m_nodes.size()) || node(path[i]).parent != path[i - 1])
            throw std::invalid_argument("search tree: node " + std::to_string(path[i]) + " is not a child of node " +
                                        std::to_string(path[i - 1]));
    const int leafDepth = node(path.back()).depth;
    if (terminalDepth < 0)
        terminalDepth = leafDepth;
    if (terminalDepth < leafDepth)
        throw std::invalid_argument("search tree: the terminal depth " + std::to_string(terminalDepth) +
                                    " is above the leaf's " + std::to_string(leafDepth));
    for (int id : path) {
        Node &n = m_nodes[static_cast<size_t>(id)];
        n.valueSum += std::pow(gamma, terminalDepth - n.depth) * value;
        ++n.visits;
    }
}

std::vector<int> SearchTree::mostVisitedPath() const
{
    std::vector<int> path{kRoot};
    for (;;) {
        const Node &n = node(path.back());
        int best = -1;
        for (int c : n.children) {
            const Node &k = node(c);
            if (best < 0 || k.visits > node(best).visits || (k.visits == node(best).visits && k.q() > node(best).q()))
                best = c;
        }
        if (best < 0)
            return path;
        path.push_back(best);
    }
}

SearchTree SearchTree::prefix(int count) const
{
    SearchTree out;
    out.m_nodes.assign(m_nodes.begin(), m_nodes.begin() + std::clamp<int>(count, 1, static_cast<int>(m_nodes.size())));
    const int n = static_cast<int>(out.m_nodes.size());
    for (Node &node : out.m_nodes) {
        node.visits = 0;
        node.valueSum = 0;
        std::erase_if(node.children, [n](int c) { return c >= n; });
    }
    return out;
}

} // namespace rwb::mcts
