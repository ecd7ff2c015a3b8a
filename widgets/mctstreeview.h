#pragma once

#include "mctstreelayout.h"

#include "mcts/searchrecord.h"

#include <QGraphicsView>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QGraphicsScene;
class QPainter;

namespace rwb::widgets {

// One search tree drawn top down (MctsTreeLayout), as it stood after one iteration of the
// search: a disc per node, its area growing with the node's visits, its colour its Q (red
// 0, white 0.5, blue 1; grey unvisited), a small bar under it for its prior; terminal
// nodes are squares framed green (right, value ≥ 0.999), amber (partial) or red (wrong).
// The most visited path's edges are drawn thick; the iteration's selected path magenta,
// the node it expanded ringed and the children it created dashed. Search matches get a
// yellow halo, the selected node a blue ring. A legend sits in the bottom-left corner.
//
// Zoom with Ctrl+wheel (under the mouse), + / − and 0 (fit); pan by dragging or with the
// scroll bars; click selects a node, double-click centres it. Hovering a node shows its
// statistics and its PUCT terms at the iteration's selection (Q, U, P, N, score with the
// record's c_puct, computed on the tree before the iteration as the search saw it), so
// one sees why a child was or was not chosen.
//
// Stays fluid on trees of many thousand nodes: the scene holds one item that paints only
// the exposed part (the layout finds it in O(rows · log n)), and draws nodes as plain
// squares without text when they are a pixel or two wide. Replaying an iteration rebuilds
// the tree with SearchRecord::treeAt (O(nodes + iterations · depth)) and lays it out anew
// (O(nodes · depth)): an early iteration of a large search is as compact as it can be.
// The selected node (else the root) keeps its place on the screen from one iteration to
// the next, so the eye can follow the tree growing around it. GUI thread only.
class MctsTreeView : public QGraphicsView {
    Q_OBJECT
public:
    enum class ExportScope { Visible, Whole };

    explicit MctsTreeView(QWidget *parent = nullptr);
    ~MctsTreeView() override;

    // Shows `record` at `iteration` (−1: the last). Keeps the zoom when `keepView` and the
    // view showed a tree before (a live tree that grew), else shows the upper rows of the
    // whole width, centred on the most visited path. A null record clears the view.
    void setRecord(std::shared_ptr<const mcts::SearchRecord> record, int iteration = -1, bool keepView = false);
    void clear();
    const mcts::SearchRecord *record() const { return m_record.get(); }
    std::shared_ptr<const mcts::SearchRecord> sharedRecord() const { return m_record; }
    const MctsTreeLayout &treeLayout() const { return m_layout; }

    // The iteration shown: 0 (before the first) … iterationCount().
    int iteration() const { return m_iteration; }
    int iterationCount() const;
    // The tree as it stood after iteration() (SearchRecord::treeAt; the record's final
    // tree at the last iteration).
    const mcts::SearchTree &tree() const { return m_tree; }
    // The log entry of the iteration shown (null at iteration 0 or without a log).
    const mcts::Iteration *currentIteration() const;
    // Nodes 0 … shownCount() − 1 exist at the iteration shown.
    int shownCount() const { return static_cast<int>(m_tree.nodes().size()); }
    bool isShown(int id) const { return id >= 0 && id < shownCount(); }
    // The node under a point of the viewport (−1: none).
    int nodeAt(const QPoint &viewportPos) const;
    // The node's disc as drawn now, in viewport coordinates.
    QRect nodeViewportRect(int id) const;

    int selectedNode() const { return m_selected; }
    // Node `id`'s PUCT terms when iteration() selected among its siblings (computed on
    // the tree after the iteration before); nullopt for the root, at iteration 0, for a
    // node created by this iteration and for a record without a log.
    std::optional<mcts::PuctTerms> selectionTerms(int id) const;
    // The tree iteration() selected on (after the iteration before; made on first use);
    // null at iteration 0, without a log, or when the log cannot be replayed.
    const mcts::SearchTree *selectionTree() const;
    // What hovering node `id` shows.
    QString nodeToolTip(int id) const;

    // Nodes to mark (search matches); ids that do not exist yet are kept and shown once
    // they do.
    void setMarkedNodes(const std::vector<int> &ids);
    const std::vector<int> &markedNodes() const { return m_marked; }

    double zoom() const;
    // Scales the view to `zoom` (clamped to what the tree allows) about the view's centre
    // or the mouse (the transformation anchor).
    void setZoom(double zoom);
    // Writes the view to `path`, a PNG or (for a .svg name) an SVG written by hand (no
    // Qt SVG module needed): what the viewport shows, or the whole tree (PNG scaled down
    // to at most kMaxExportPixels). On failure returns false with a message naming the
    // file in `error`.
    bool exportImage(const QString &path, ExportScope scope, QString *error = nullptr) const;
    static constexpr double kMaxExportPixels = 40e6;

    // Paints the legend into `area` (its size from legendSize()), for the overlay and the
    // exported images.
    void paintLegend(QPainter &painter, const QRect &area) const;
    QSize legendSize() const;

public Q_SLOTS:
    void setIteration(int iteration);
    // Selects node `id` (−1: none) and emits nodeSelected() when it changes.
    void selectNode(int id);
    // Scrolls so that node `id` is in the middle of the viewport.
    void centreOnNode(int id);
    void zoomIn();
    void zoomOut();
    // The whole tree in the viewport.
    void zoomToFit();
    // The upper rows of the tree, as wide as the viewport shows at a readable size,
    // centred on the most visited path (the view a record opens with).
    void showOverview();

Q_SIGNALS:
    void nodeSelected(int id);
    void iterationChanged(int iteration);
    void zoomChanged(double zoom);
    // Replaying an iteration failed (an inconsistent log); the final tree is shown.
    void problem(const QString &message);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    friend class MctsTreeItem;
    enum Flag : uint8_t {
        BestPath = 1,   // on the most visited path of the tree shown
        Selected = 2,   // on the iteration's selected path
        Created = 4,    // created by the iteration
        Expanded = 8,   // the leaf the iteration expanded
        Evaluated = 16, // the child the iteration evaluated (the end of its back-up)
        Marked = 32,    // a search match
    };
    void paintTree(QPainter *painter, const QRectF &rect, double lod) const;
    QSize layoutLegend(QPainter *painter, const QRect &area) const;
    void writeSvg(QIODevice *device, const QRectF &rect) const;
    void updateFlags();
    void showIteration(int iteration, bool keepAnchor);
    // Lays out the tree shown; `anchor` (a node id, −1: none) keeps its place on screen.
    void relayout(int anchor);
    double fitZoom() const;
    void placeLegend();
    int visitsOf(int id) const { return m_tree.node(id).visits; }
    bool has(int id, Flag f) const { return (m_flags[static_cast<size_t>(id)] & f) != 0; }

    std::shared_ptr<const mcts::SearchRecord> m_record;
    MctsTreeLayout m_layout;
    mcts::SearchTree m_tree;
    // The tree before the iteration shown (its selection's PUCT), made on first hover.
    mutable std::optional<mcts::SearchTree> m_selectionTree;
    int m_iteration = 0;
    int m_maxVisits = 0; // the final tree's most visits: one disc scale for every iteration
    int m_selected = -1;
    std::vector<int> m_marked;
    std::vector<uint8_t> m_flags; // by node id of the final tree

    QGraphicsScene *m_scene = nullptr;
    class MctsTreeItem *m_item = nullptr;
    QWidget *m_legend = nullptr;
    QPoint m_pressPos;
    bool m_overviewPending = false; // showOverview() once the viewport has its size
};

} // namespace rwb::widgets
