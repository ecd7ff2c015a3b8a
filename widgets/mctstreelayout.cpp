#include "mctstreelayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rwb::widgets {

namespace {
// Room under a disc for the prior bar and the id label, in scene units.
constexpr double kBelowDisc = 20.0;
} // namespace

MctsTreeLayout::MctsTreeLayout(const mcts::SearchTree &tree, const Options &options, int maxVisits)
    : m_options(options), m_maxVisits(maxVisits)
{
    const std::vector<mcts::Node> &nodes = tree.nodes();
    const size_t n = nodes.size();
    for (const mcts::Node &node : nodes)
        m_maxVisits = std::max(m_maxVisits, node.visits);

    m_slots.resize(n);
    for (size_t i = 0; i < n; ++i)
        m_slots[i] = std::max(2.0 * radius(nodes[i].visits), m_options.minSlot) + m_options.gap;

    // Bottom up (a child always has a larger id than its parent: SearchTree::addChild
    // appends, so going down the ids meets children before parents, with no recursion
    // whatever the depth). Each subtree's contour: per depth below its root, the left and
    // right ends of its slots, relative to its root's x. A parent's children go side by
    // side, each as close to those before as the contours allow at every depth they
    // share; the parent sits over the middle of its first and last child.
    std::vector<std::vector<double>> left(n), right(n);
    std::vector<double> offset(n, 0.0); // x relative to the parent
    for (size_t i = n; i-- > 0;) {
        const mcts::Node &node = nodes[i];
        const double half = m_slots[i] / 2.0;
        std::vector<double> accLeft, accRight, at;
        for (int c : node.children) {
            std::vector<double> &cl = left[static_cast<size_t>(c)], &cr = right[static_cast<size_t>(c)];
            double shift = 0;
            if (!accRight.empty()) {
                shift = -std::numeric_limits<double>::infinity();
                for (size_t k = 0; k < std::min(accRight.size(), cl.size()); ++k)
                    shift = std::max(shift, accRight[k] - cl[k] + m_options.subtreeGap);
            }
            at.push_back(shift);
            for (size_t k = 0; k < cl.size(); ++k) {
                if (k < accRight.size()) {
                    accRight[k] = cr[k] + shift;
                } else {
                    accLeft.push_back(cl[k] + shift);
                    accRight.push_back(cr[k] + shift);
                }
            }
            std::vector<double>().swap(cl); // merged: its memory goes
            std::vector<double>().swap(cr);
        }
        const double mid = at.empty() ? 0.0 : (at.front() + at.back()) / 2.0;
        for (size_t j = 0; j < node.children.size(); ++j)
            offset[static_cast<size_t>(node.children[j])] = at[j] - mid;
        left[i].reserve(accLeft.size() + 1);
        right[i].reserve(accRight.size() + 1);
        left[i].push_back(-half);
        right[i].push_back(half);
        for (double x : accLeft)
            left[i].push_back(x - mid);
        for (double x : accRight)
            right[i].push_back(x - mid);
    }

    // Top down: absolute places, then the whole moved right of the margin.
    std::vector<double> x(n, 0.0);
    for (size_t i = 0; i < n; ++i)
        for (int c : nodes[i].children)
            x[static_cast<size_t>(c)] = x[i] + offset[static_cast<size_t>(c)];
    double minLeft = 0, maxRight = 0;
    for (size_t i = 0; i < n; ++i) {
        minLeft = std::min(minLeft, x[i] - m_slots[i] / 2.0);
        maxRight = std::max(maxRight, x[i] + m_slots[i] / 2.0);
    }
    m_centres.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const mcts::Node &node = nodes[i];
        m_centres[i] = QPointF(x[i] - minLeft + m_options.margin,
                               m_options.margin + m_options.maxRadius + node.depth * m_options.levelGap);
        const size_t d = static_cast<size_t>(node.depth);
        if (m_rows.size() <= d)
            m_rows.resize(d + 1);
        m_rows[d].push_back(static_cast<int>(i));
    }
    for (std::vector<int> &row : m_rows)
        std::sort(row.begin(), row.end(), [this](int a, int b) { return centre(a).x() < centre(b).x(); });
    // How far a row's fans of edges reach left and right of their parents.
    m_fanLeft.assign(m_rows.size(), 0.0);
    m_fanRight.assign(m_rows.size(), 0.0);
    for (size_t i = 0; i < n; ++i) {
        const size_t d = static_cast<size_t>(nodes[i].depth);
        for (int c : nodes[i].children) {
            const double dx = centre(c).x() - m_centres[i].x();
            m_fanLeft[d] = std::max(m_fanLeft[d], -dx);
            m_fanRight[d] = std::max(m_fanRight[d], dx);
        }
    }
    m_bounds = QRectF(0, 0, maxRight - minLeft + 2 * m_options.margin,
                      2 * m_options.margin + m_options.maxRadius +
                          static_cast<double>(std::max<size_t>(m_rows.size(), 1) - 1) * m_options.levelGap + slotBelow());
}

double MctsTreeLayout::radius(int visits) const
{
    if (m_maxVisits <= 0 || visits <= 0)
        return m_options.minRadius;
    const double t = std::sqrt(std::min(1.0, static_cast<double>(visits) / m_maxVisits));
    return m_options.minRadius + (m_options.maxRadius - m_options.minRadius) * t;
}

double MctsTreeLayout::slotAbove() const
{
    return m_options.maxRadius;
}

double MctsTreeLayout::slotBelow() const
{
    return m_options.maxRadius + kBelowDisc;
}

void MctsTreeLayout::forEachNodeIn(const QRectF &rect, const std::function<void(int)> &fn) const
{
    for (size_t d = 0; d < m_rows.size(); ++d) {
        const std::vector<int> &row = m_rows[d];
        if (row.empty())
            continue;
        const double y = centre(row.front()).y();
        if (y + slotBelow() < rect.top() || y - slotAbove() > rect.bottom())
            continue;
        // Slots are disjoint and sorted, so their right ends are sorted too.
        auto it = std::partition_point(row.begin(), row.end(), [&](int id) {
            return centre(id).x() + slotWidth(id) / 2.0 < rect.left();
        });
        for (; it != row.end() && centre(*it).x() - slotWidth(*it) / 2.0 <= rect.right(); ++it)
            fn(*it);
    }
}

void MctsTreeLayout::forEachParentIn(const QRectF &rect, const std::function<void(int)> &fn) const
{
    for (size_t d = 0; d + 1 < m_rows.size(); ++d) {
        const std::vector<int> &row = m_rows[d];
        if (row.empty())
            continue;
        const double y = centre(row.front()).y();
        if (y + m_options.levelGap < rect.top() || y > rect.bottom())
            continue;
        // Fans of neighbouring parents may overlap (a leaf's neighbour can spread its
        // children under it), so search by the parents' places widened by the row's
        // widest reach.
        const double from = rect.left() - m_fanRight[d], to = rect.right() + m_fanLeft[d];
        auto it = std::partition_point(row.begin(), row.end(), [&](int id) { return centre(id).x() < from; });
        for (; it != row.end() && centre(*it).x() <= to; ++it)
            fn(*it);
    }
}

int MctsTreeLayout::nodeAt(const QPointF &point, int count, const std::function<int(int)> &visits,
                           double tolerance) const
{
    int found = -1;
    double best = 0;
    const double reach = m_options.maxRadius + tolerance;
    forEachNodeIn(QRectF(point.x() - reach, point.y() - reach, 2 * reach, 2 * reach), [&](int id) {
        if (id >= count)
            return;
        const QPointF d = centre(id) - point;
        const double dist = std::hypot(d.x(), d.y());
        if (dist <= radius(visits(id)) + tolerance && (found < 0 || dist < best)) {
            found = id;
            best = dist;
        }
    });
    return found;
}

} // namespace rwb::widgets
