#pragma once

#include "mcts/searchtree.h"

#include <QPointF>
#include <QRectF>

#include <functional>
#include <vector>

namespace rwb::widgets {

// Where the tree viewer draws each node of a search tree, top down: depth d on row
// d · levelGap, each parent centred over its first and last child, subtrees pushed
// together as far as their outlines allow at every depth they share (Reingold and
// Tilford's tidy tree, with a slot per node as wide as its disc at its final size, since
// discs grow with visits, plus a gap). No two nodes of a row overlap; siblings keep the
// order they were created in. O(nodes · depth).
//
// The tree view lays out each iteration's tree on its own, so that an early iteration of
// a large search is as compact as it can be, and keeps the disc sizes on the final tree's
// scale (maxVisits).
//
// It also answers "what is inside this rectangle" in O(rows · log n + found) for painting
// only the exposed part of a large tree: a row's nodes are sorted by x and their slots are
// disjoint. Immutable once made; any thread.
class MctsTreeLayout {
public:
    struct Options {
        double minRadius = 5.0;  // a node with no visit
        double maxRadius = 17.0; // the node with the most visits (the root)
        double minSlot = 18.0;   // the least width a node takes (its prior bar and label)
        double gap = 6.0;        // between neighbouring slots
        double subtreeGap = 4.0; // more between the subtrees of neighbouring siblings
        double levelGap = 64.0;  // between rows
        double margin = 40.0;    // around the tree
    };

    MctsTreeLayout() = default;
    // `maxVisits`: the visits of the largest disc (0: the tree's most visited node); a
    // replay passes the final tree's, so that discs keep one scale across iterations.
    explicit MctsTreeLayout(const mcts::SearchTree &tree, const Options &options, int maxVisits = 0);
    explicit MctsTreeLayout(const mcts::SearchTree &tree) : MctsTreeLayout(tree, Options{}) {}

    const Options &options() const { return m_options; }
    int size() const { return static_cast<int>(m_centres.size()); }
    // Where node `id` is drawn (its disc's centre), in scene coordinates.
    QPointF centre(int id) const { return m_centres[static_cast<size_t>(id)]; }
    // The horizontal room node `id` has (its disc at its final size, or minSlot, plus gap).
    double slotWidth(int id) const { return m_slots[static_cast<size_t>(id)]; }
    // The disc radius for `visits`, area proportional to visits (the largest: maxVisits).
    double radius(int visits) const;
    int maxVisits() const { return m_maxVisits; }
    // The whole tree with its margin.
    QRectF bounds() const { return m_bounds; }
    int rowCount() const { return static_cast<int>(m_rows.size()); }
    const std::vector<int> &row(int depth) const { return m_rows[static_cast<size_t>(depth)]; }

    // Calls fn(id) for the nodes whose slot (the disc, its prior bar and label) meets
    // `rect`, row by row, left to right.
    void forEachNodeIn(const QRectF &rect, const std::function<void(int)> &fn) const;
    // Calls fn(parent) for the parents whose fan of edges to their children may cross
    // `rect` (a superset: the painter clips).
    void forEachParentIn(const QRectF &rect, const std::function<void(int)> &fn) const;
    // The node whose disc (at radius(visits(id))) holds `point`, within `tolerance`; −1
    // when none. Only nodes with id < `count` are considered (an iteration's tree).
    int nodeAt(const QPointF &point, int count, const std::function<int(int)> &visits, double tolerance = 2.0) const;

    // The vertical extent of a row's slots below and above the disc centres: the largest
    // disc, the prior bar and the label.
    double slotAbove() const;
    double slotBelow() const;

private:
    Options m_options;
    std::vector<QPointF> m_centres;
    std::vector<double> m_slots;
    std::vector<std::vector<int>> m_rows;    // node ids by depth, by x
    std::vector<double> m_fanLeft, m_fanRight; // per row: how far its parents' edges reach left and right
    int m_maxVisits = 0;
    QRectF m_bounds;
};

} // namespace rwb::widgets
