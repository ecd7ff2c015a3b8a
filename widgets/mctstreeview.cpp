#include "mctstreeview.h"

#include "colourscale.h"
#include "mctsoutcome.h"
#include "mctstreelistmodel.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionGraphicsItem>
#include <QTextStream>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace rwb::widgets {

namespace {

// Colours of the drawing (the Q scale is colourscale.h's diverging one).
constexpr QRgb kEdgeColour = qRgb(184, 190, 196);
constexpr QRgb kBestPathColour = qRgb(38, 50, 56);
constexpr QRgb kIterationColour = qRgb(194, 24, 91);
constexpr QRgb kNodeBorder = qRgb(69, 90, 100);
constexpr QRgb kMarkColour = qRgb(253, 216, 53);
constexpr QRgb kSelectionColour = qRgb(21, 101, 192);
constexpr QRgb kPriorTrack = qRgb(214, 219, 223);
constexpr QRgb kPriorBar = qRgb(55, 71, 79);
// The prior bar's full width and height, and its distance below the disc (scene units).
constexpr double kPriorWidth = 14.0;
constexpr double kPriorHeight = 3.0;
constexpr double kPriorGap = 3.0;
// The id label's pixel size in scene units.
constexpr int kLabelPixels = 9;
// Below this many pixels of radius a node is a plain square: nothing else would show.
constexpr double kTinyPixels = 1.5;
// From this scale on, prior bars; from this one, id labels; a glyph from this radius in pixels.
constexpr double kPriorLod = 0.45;
constexpr double kLabelLod = 0.9;
constexpr double kGlyphPixels = 6.0;
// Zoom bounds and step (+ / −, one wheel notch is 120 units of angle).
constexpr double kMaxZoom = 8.0;
constexpr double kZoomStep = 1.25;
// Fitting a small tree enlarges it at most this much.
constexpr double kMaxFitZoom = 1.5;
constexpr double kWheelBase = 1.0015;
// The overview's least scale (nodes 2.5 to 8 pixels wide, colours and shapes still clear).
constexpr double kOverviewMinZoom = 0.5;

using Outcome = MctsOutcome;

QColor outcomeColour(Outcome o)
{
    return o == Outcome::None ? QColor(kNodeBorder) : mctsOutcomeColour(o);
}

QString outcomeGlyph(Outcome o)
{
    switch (o) {
    case Outcome::Right: return QStringLiteral("✓");
    case Outcome::Partial: return QStringLiteral("≈");
    case Outcome::Wrong: return QStringLiteral("✗");
    case Outcome::None: break;
    }
    return {};
}

// Q from 0 (red) through 0.5 (white) to 1 (blue); grey while unvisited.
QColor qColour(const mcts::Node &n)
{
    return divergingColour(n.visits > 0 ? 2.0 * n.q() - 1.0 : std::numeric_limits<double>::quiet_NaN());
}

QPen cosmeticPen(QRgb colour, double width, Qt::PenStyle style = Qt::SolidLine)
{
    QPen pen(QColor(colour), width, style, Qt::RoundCap, Qt::RoundJoin);
    pen.setCosmetic(true);
    return pen;
}

QString svgColour(const QColor &c)
{
    return c.name(QColor::HexRgb);
}

} // namespace

// The scene's one item: the whole tree, painting only what is exposed (a few thousand
// items would each cost a paint call, a bounding rect and an index entry per frame).
class MctsTreeItem : public QGraphicsItem {
public:
    explicit MctsTreeItem(const MctsTreeView *view) : m_view(view)
    {
        setFlag(ItemUsesExtendedStyleOption); // for option->exposedRect
        setAcceptedMouseButtons(Qt::NoButton); // the view handles clicks and drags
        // No cache: a cached pixmap of a tree 100,000 units wide would be re-rendered on
        // every zoom step anyway, and painting only the exposed part is cheap.
        setCacheMode(NoCache);
    }
    QRectF boundingRect() const override { return m_view->m_layout.bounds(); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *) override
    {
        m_view->paintTree(painter, option->exposedRect,
                          QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()));
    }
    void geometryChanged() { prepareGeometryChange(); }

private:
    const MctsTreeView *m_view;
};

namespace {

// The legend over the viewport's bottom-left corner. A child of the view, not of its
// viewport, so that scrolling (which moves the viewport's pixels and children) leaves it
// in place.
class LegendOverlay : public QWidget {
public:
    explicit LegendOverlay(MctsTreeView *view) : QWidget(view), m_view(view)
    {
        setAttribute(Qt::WA_TransparentForMouseEvents);
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        m_view->paintLegend(p, rect());
    }

private:
    MctsTreeView *m_view;
};

} // namespace

MctsTreeView::MctsTreeView(QWidget *parent) : QGraphicsView(parent)
{
    m_scene = new QGraphicsScene(this);
    // One item: an index of one rectangle would only cost its upkeep.
    m_scene->setItemIndexMethod(QGraphicsScene::NoIndex);
    m_item = new MctsTreeItem(this);
    m_scene->addItem(m_item);
    setScene(m_scene);
    setBackgroundBrush(Qt::white); // the node colours are made for a light canvas
    setRenderHint(QPainter::Antialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
    setOptimizationFlag(QGraphicsView::DontSavePainterState);
    setFocusPolicy(Qt::StrongFocus);
    m_legend = new LegendOverlay(this);
    m_legend->hide();
}

MctsTreeView::~MctsTreeView() = default;

void MctsTreeView::clear()
{
    setRecord(nullptr);
}

void MctsTreeView::setRecord(std::shared_ptr<const mcts::SearchRecord> record, int iteration, bool keepView)
{
    const bool keep = keepView && m_record && record;
    m_record = std::move(record);
    if (!keep || !m_record || m_selected >= static_cast<int>(m_record->tree.nodes().size()))
        m_selected = -1;
    m_marked.clear();
    m_maxVisits = 0;
    m_legend->setVisible(m_record != nullptr);
    placeLegend();
    if (!m_record) {
        m_tree = mcts::SearchTree();
        m_selectionTree.reset();
        m_iteration = 0;
        relayout(-1);
        updateFlags();
        viewport()->update();
        Q_EMIT iterationChanged(0);
        return;
    }
    for (const mcts::Node &n : m_record->tree.nodes())
        m_maxVisits = std::max(m_maxVisits, n.visits);
    m_iteration = -1;
    showIteration(iteration < 0 ? iterationCount() : iteration, keep);
    if (!keep)
        showOverview();
}

int MctsTreeView::iterationCount() const
{
    return m_record ? static_cast<int>(m_record->iterations.size()) : 0;
}

const mcts::Iteration *MctsTreeView::currentIteration() const
{
    if (!m_record || m_iteration < 1 || m_iteration > iterationCount())
        return nullptr;
    return &m_record->iterations[static_cast<size_t>(m_iteration - 1)];
}

void MctsTreeView::setIteration(int iteration)
{
    if (!m_record)
        return;
    const int i = std::clamp(iteration, 0, iterationCount());
    if (i != m_iteration)
        showIteration(i, /*keepAnchor=*/true);
}

void MctsTreeView::showIteration(int i, bool keepAnchor)
{
    // The node that stays where it is on the screen while the tree is laid out anew: the
    // selected one, else the root.
    const int anchor = keepAnchor ? (isShown(m_selected) ? m_selected : shownCount() > 0 ? 0 : -1) : -1;
    m_iteration = i;
    m_selectionTree.reset();
    // The last iteration is the final tree itself: a record without a log (a bare ProRAG
    // tree) shows its statistics, and a long log is not replayed to open a record.
    if (i == iterationCount()) {
        m_tree = m_record->tree;
    } else {
        try {
            m_tree = m_record->treeAt(i);
        } catch (const std::exception &e) {
            m_tree = m_record->tree;
            Q_EMIT problem(tr("Iteration %1 cannot be replayed (%2); the final tree is shown.")
                               .arg(i)
                               .arg(QString::fromUtf8(e.what())));
        }
    }
    relayout(anchor);
    updateFlags();
    viewport()->update();
    Q_EMIT iterationChanged(i);
}

void MctsTreeView::relayout(int anchor)
{
    const bool keep = anchor >= 0 && anchor < m_layout.size();
    const QPointF before = keep ? viewportTransform().map(m_layout.centre(anchor)) : QPointF();
    m_item->geometryChanged();
    m_layout = m_record ? MctsTreeLayout(m_tree, MctsTreeLayout::Options{}, m_maxVisits) : MctsTreeLayout();
    if (!keep || anchor >= m_layout.size()) {
        m_scene->setSceneRect(m_layout.bounds());
        return;
    }
    // The part of the scene the viewport must show for the anchor to stay put; the scene
    // grows to hold it (a tree smaller than the viewport would be centred otherwise, and
    // scroll bars cannot move past the scene's edge).
    const double z = std::max(zoom(), 1e-9);
    const QSizeF size(viewport()->width() / z, viewport()->height() / z);
    const QRectF shown(m_layout.centre(anchor) - QPointF(before.x() / z, before.y() / z), size);
    m_scene->setSceneRect(m_layout.bounds() | shown);
    centerOn(shown.center());
}

void MctsTreeView::updateFlags()
{
    m_flags.assign(static_cast<size_t>(m_layout.size()), 0);
    const auto mark = [this](int id, Flag f) {
        if (id >= 0 && id < static_cast<int>(m_flags.size()))
            m_flags[static_cast<size_t>(id)] |= f;
    };
    for (int id : m_tree.mostVisitedPath())
        mark(id, BestPath);
    if (const mcts::Iteration *it = currentIteration()) {
        for (int id : it->selected)
            mark(id, Selected);
        for (int id : it->created)
            mark(id, Created);
        mark(it->expanded, Expanded);
        if (it->backedUp.size() > it->selected.size())
            mark(it->backedUp.back(), Evaluated);
    }
    for (int id : m_marked)
        mark(id, Marked);
}

void MctsTreeView::setMarkedNodes(const std::vector<int> &ids)
{
    m_marked = ids;
    if (m_record)
        updateFlags();
    viewport()->update();
}

void MctsTreeView::selectNode(int id)
{
    if (!m_record || id < -1 || id >= static_cast<int>(m_record->tree.nodes().size()))
        id = -1;
    if (id == m_selected)
        return;
    m_selected = id;
    viewport()->update();
    Q_EMIT nodeSelected(id);
}

void MctsTreeView::centreOnNode(int id)
{
    if (id >= 0 && id < m_layout.size())
        centerOn(m_layout.centre(id));
}

int MctsTreeView::nodeAt(const QPoint &viewportPos) const
{
    if (!m_record)
        return -1;
    // A few pixels of slack, however far out the view is zoomed.
    const double tolerance = 3.0 / std::max(zoom(), 1e-6);
    return m_layout.nodeAt(mapToScene(viewportPos), shownCount(), [this](int id) { return visitsOf(id); }, tolerance);
}

QRect MctsTreeView::nodeViewportRect(int id) const
{
    if (!isShown(id))
        return {};
    const double r = m_layout.radius(visitsOf(id));
    const QPointF c = m_layout.centre(id);
    return mapFromScene(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)).boundingRect();
}

const mcts::SearchTree *MctsTreeView::selectionTree() const
{
    if (!currentIteration())
        return nullptr;
    if (!m_selectionTree) {
        try {
            m_selectionTree = m_record->treeAt(m_iteration - 1);
        } catch (const std::exception &) {
            return nullptr;
        }
    }
    return &*m_selectionTree;
}

std::optional<mcts::PuctTerms> MctsTreeView::selectionTerms(int id) const
{
    const mcts::SearchTree *before = id > mcts::SearchTree::kRoot ? selectionTree() : nullptr;
    if (!before || id >= static_cast<int>(before->nodes().size()))
        return std::nullopt;
    return before->puct(id, m_record->params.cPuct);
}

QString MctsTreeView::nodeToolTip(int id) const
{
    if (!isShown(id))
        return {};
    const mcts::Node &n = m_tree.node(id);
    QStringList lines;
    lines << (id == mcts::SearchTree::kRoot
                  ? tr("Root · the question")
                  : tr("Node #%1 · depth %2 · created at iteration %3").arg(id).arg(n.depth).arg(n.iterationCreated));
    lines << tr("N %1 · Q %2 · W %3 · P %4").arg(n.visits).arg(mctsNumber(n.q()), mctsNumber(n.valueSum), mctsNumber(n.prior));
    if (n.terminal) {
        const Outcome o = mctsOutcome(n);
        const QString verdict = mctsOutcomeName(o);
        lines << tr("Answer: %1 · value %2 (%3)")
                     .arg(n.answer.empty() ? tr("(none)") : QString::fromStdString(n.answer), mctsNumber(n.terminalValue, 2),
                          verdict);
    }
    if (const mcts::Iteration *it = currentIteration(); it && id != mcts::SearchTree::kRoot) {
        if (const std::optional<mcts::PuctTerms> t = selectionTerms(id)) {
            lines << tr("At iteration %1's selection (c_puct %2):").arg(m_iteration).arg(mctsNumber(m_record->params.cPuct, 2));
            lines << tr("score %1 = Q %2 + U %3 (P %4, N %5)")
                         .arg(mctsNumber(t->score), mctsNumber(t->q), mctsNumber(t->u), mctsNumber(t->p))
                         .arg(t->n);
            // Where it stood among its siblings, and whether the search went through it.
            const mcts::SearchTree &before = *m_selectionTree;
            const std::vector<int> &siblings = before.node(n.parent).children;
            int rank = 1;
            for (int s : siblings)
                if (s != id && before.puct(s, m_record->params.cPuct).score > t->score)
                    ++rank;
            const auto onPath = [&](int node) {
                return std::find(it->selected.begin(), it->selected.end(), node) != it->selected.end();
            };
            const bool compared = onPath(n.parent) && it->selected.back() != n.parent;
            if (!compared) {
                lines << tr("Rank %1 of %2 by score; not compared this iteration (its parent was not selected)")
                             .arg(rank)
                             .arg(siblings.size());
            } else if (onPath(id)) {
                lines << tr("Chosen: rank %1 of %2 by score").arg(rank).arg(siblings.size());
            } else {
                const int chosen = before.selectChild(n.parent, m_record->params.cPuct);
                lines << tr("Not chosen: rank %1 of %2; #%3 scored %4")
                             .arg(rank)
                             .arg(siblings.size())
                             .arg(chosen)
                             .arg(mctsNumber(before.puct(chosen, m_record->params.cPuct).score));
            }
        } else if (has(id, Created)) {
            lines << tr("Created by this iteration (no PUCT score before it)");
        }
    }
    return lines.join(QLatin1Char('\n'));
}

double MctsTreeView::zoom() const
{
    return transform().m11();
}

double MctsTreeView::fitZoom() const
{
    const QRectF b = m_layout.bounds();
    const QSize vp = viewport()->size();
    if (b.isEmpty() || vp.isEmpty())
        return 1.0;
    return std::min(vp.width() / b.width(), vp.height() / b.height());
}

void MctsTreeView::setZoom(double z)
{
    const double least = std::min(0.5 * fitZoom(), 0.05);
    z = std::clamp(z, least, kMaxZoom);
    if (std::abs(z - zoom()) < 1e-12)
        return;
    setTransform(QTransform::fromScale(z, z));
    Q_EMIT zoomChanged(z);
}

void MctsTreeView::zoomIn()
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    setZoom(zoom() * kZoomStep);
    setTransformationAnchor(anchor);
}

void MctsTreeView::zoomOut()
{
    const ViewportAnchor anchor = transformationAnchor();
    setTransformationAnchor(AnchorViewCenter);
    setZoom(zoom() / kZoomStep);
    setTransformationAnchor(anchor);
}

void MctsTreeView::zoomToFit()
{
    m_overviewPending = false;
    if (!m_record)
        return;
    setZoom(std::min(fitZoom() * 0.98, kMaxFitZoom));
    centerOn(m_layout.bounds().center());
}

void MctsTreeView::showOverview()
{
    if (!m_record)
        return;
    const QSize vp = viewport()->size();
    if (!isVisible() || vp.isEmpty()) {
        m_overviewPending = true; // once the viewport has its size
        return;
    }
    m_overviewPending = false;
    if (fitZoom() >= kOverviewMinZoom) { // it all fits at a readable size
        zoomToFit();
        return;
    }
    // The most visited path from the root to its end, as large as fits (up to 1:1, down
    // to kOverviewMinZoom); when even that is too wide, its end: the answer the search
    // recommends.
    const std::vector<int> path = m_tree.mostVisitedPath();
    QRectF around;
    for (int id : path) {
        const QPointF c = m_layout.centre(id);
        around |= QRectF(c.x() - m_layout.options().maxRadius, c.y() - m_layout.slotAbove(),
                         2 * m_layout.options().maxRadius, m_layout.slotAbove() + m_layout.slotBelow());
    }
    around.adjust(-m_layout.options().margin, -m_layout.options().margin, m_layout.options().margin,
                  m_layout.options().margin);
    const double z = std::clamp(std::min(vp.width() / around.width(), vp.height() / around.height()),
                                kOverviewMinZoom, 1.0);
    setZoom(z);
    const double halfWidth = vp.width() / (2.0 * zoom()), halfHeight = vp.height() / (2.0 * zoom());
    const double x = around.width() * zoom() <= vp.width() ? around.center().x()
                                                            : m_layout.centre(path.back()).x();
    const double y = around.height() * zoom() <= vp.height() ? around.center().y()
                                                              : m_layout.centre(path.back()).y();
    // Never beyond the tree's top or left when there is room to show it.
    centerOn(std::max(x, m_layout.bounds().left() + halfWidth), std::max(y, m_layout.bounds().top() + halfHeight));
}

void MctsTreeView::wheelEvent(QWheelEvent *event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        setZoom(zoom() * std::pow(kWheelBase, event->angleDelta().y()));
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void MctsTreeView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        return;
    case Qt::Key_Minus:
        zoomOut();
        return;
    case Qt::Key_0:
        zoomToFit();
        return;
    default:
        QGraphicsView::keyPressEvent(event);
    }
}

void MctsTreeView::mousePressEvent(QMouseEvent *event)
{
    m_pressPos = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void MctsTreeView::mouseReleaseEvent(QMouseEvent *event)
{
    QGraphicsView::mouseReleaseEvent(event);
    // A click, not the end of a drag: select what is under it (nothing: keep the selection).
    if (event->button() == Qt::LeftButton &&
        (event->position().toPoint() - m_pressPos).manhattanLength() < QApplication::startDragDistance()) {
        const int id = nodeAt(event->position().toPoint());
        if (id >= 0)
            selectNode(id);
    }
}

void MctsTreeView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const int id = nodeAt(event->position().toPoint());
    if (id >= 0) {
        selectNode(id);
        centreOnNode(id);
        event->accept();
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

bool MctsTreeView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int id = nodeAt(help->pos());
        if (id < 0) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), nodeToolTip(id), viewport(), nodeViewportRect(id));
        }
        return true;
    }
    return QGraphicsView::viewportEvent(event);
}

void MctsTreeView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    placeLegend();
    if (m_overviewPending)
        showOverview();
}

void MctsTreeView::showEvent(QShowEvent *event)
{
    QGraphicsView::showEvent(event);
    placeLegend();
    if (m_overviewPending)
        showOverview();
}

void MctsTreeView::placeLegend()
{
    const QSize s = legendSize();
    const QRect vp = viewport()->geometry();
    m_legend->setGeometry(vp.left() + 6, vp.bottom() - s.height() - 5, s.width(), s.height());
    m_legend->raise();
}

// ---- painting ----

void MctsTreeView::paintTree(QPainter *p, const QRectF &rect, double lod) const
{
    if (!m_record || m_tree.nodes().empty())
        return;
    const int count = shownCount();
    const std::vector<mcts::Node> &nodes = m_tree.nodes();

    // Edges, one batch per style: plain, the most visited path, the iteration's path
    // (selected, then to the child evaluated), the children it created.
    QVector<QLineF> plain, best, iteration, created;
    // An edge leaves its parent under the prior bar and label (when drawn) and ends at the
    // child's disc, so that neither is crossed.
    const double below = lod >= kLabelLod ? kPriorGap + kPriorHeight + kLabelPixels + 3
                         : lod >= kPriorLod ? kPriorGap + kPriorHeight + 1
                                            : 0.0;
    m_layout.forEachParentIn(rect, [&](int parent) {
        if (parent >= count)
            return;
        const QPointF at = m_layout.centre(parent);
        const QPointF from(at.x(), at.y() + m_layout.radius(nodes[static_cast<size_t>(parent)].visits) + below);
        for (int c : nodes[static_cast<size_t>(parent)].children) {
            const QPointF to = m_layout.centre(c);
            const QLineF line(from, QPointF(to.x(), to.y() - m_layout.radius(nodes[static_cast<size_t>(c)].visits)));
            if (has(c, BestPath))
                best << line;
            if (has(c, Selected) || has(c, Evaluated))
                iteration << line;
            else if (has(c, Created))
                created << line;
            else if (!has(c, BestPath))
                plain << line;
        }
    });
    p->setBrush(Qt::NoBrush);
    p->setPen(cosmeticPen(kEdgeColour, 1.0));
    p->drawLines(plain);
    p->setPen(cosmeticPen(kBestPathColour, 4.0));
    p->drawLines(best);
    p->setPen(cosmeticPen(kIterationColour, 1.5, Qt::DashLine));
    p->drawLines(created);
    p->setPen(cosmeticPen(kIterationColour, 2.0));
    p->drawLines(iteration);

    QFont labelFont = font();
    labelFont.setPixelSize(kLabelPixels);
    const QFontMetricsF labelMetrics(labelFont);
    const QPen border = cosmeticPen(kNodeBorder, 1.0);
    const double onePixel = 1.0 / std::max(lod, 1e-6);
    m_layout.forEachNodeIn(rect, [&](int id) {
        if (id >= count)
            return;
        const mcts::Node &n = nodes[static_cast<size_t>(id)];
        const double r = m_layout.radius(n.visits);
        const QPointF c = m_layout.centre(id);
        const QRectF disc(c.x() - r, c.y() - r, 2 * r, 2 * r);
        const Outcome o = mctsOutcome(n);
        const QColor fill = qColour(n);
        // Halos and rings keep a few pixels of size however far out the view is.
        if (has(id, Marked)) {
            const double h = std::max(r + 6.0, r + 4 * onePixel);
            p->setPen(Qt::NoPen);
            p->setBrush(QColor(kMarkColour));
            p->drawEllipse(c, h, h);
        }
        if (r * lod < kTinyPixels) {
            p->fillRect(disc, o == Outcome::None ? fill : outcomeColour(o));
        } else {
            p->setBrush(fill);
            if (o != Outcome::None) {
                p->setPen(cosmeticPen(outcomeColour(o).rgb(), 2.5));
                p->drawRoundedRect(disc, r * 0.25, r * 0.25);
            } else {
                p->setPen(border);
                p->drawEllipse(c, r, r);
            }
        }
        p->setBrush(Qt::NoBrush);
        if (has(id, Expanded)) {
            p->setPen(cosmeticPen(kIterationColour, 2.0));
            p->drawEllipse(c, r + 4.0, r + 4.0);
        } else if (has(id, Created) && r * lod >= kTinyPixels) {
            p->setPen(cosmeticPen(kIterationColour, 1.2, Qt::DashLine));
            p->drawEllipse(c, r + 3.0, r + 3.0);
        }
        if (id == m_selected) {
            const double h = std::max(r + 6.0, r + 5 * onePixel);
            p->setPen(cosmeticPen(kSelectionColour, 2.5));
            p->drawEllipse(c, h, h);
        }
        if (lod >= kPriorLod) {
            const QRectF track(c.x() - kPriorWidth / 2, c.y() + r + kPriorGap, kPriorWidth, kPriorHeight);
            p->fillRect(track, QColor(kPriorTrack));
            p->fillRect(QRectF(track.left(), track.top(), kPriorWidth * std::clamp(n.prior, 0.0, 1.0), kPriorHeight),
                        QColor(kPriorBar));
        }
        if (o != Outcome::None && r * lod >= kGlyphPixels) {
            QFont glyphFont = font();
            glyphFont.setPixelSize(std::max(6, static_cast<int>(r * 1.2)));
            p->setFont(glyphFont);
            p->setPen(textColourOn(fill));
            p->drawText(disc, Qt::AlignCenter, outcomeGlyph(o));
        }
        if (lod >= kLabelLod) {
            const QString label = QStringLiteral("#%1").arg(id);
            const double w = labelMetrics.horizontalAdvance(label);
            if (w <= m_layout.slotWidth(id) - 1 || id == m_selected) {
                p->setFont(labelFont);
                p->setPen(QColor(kNodeBorder));
                p->drawText(QRectF(c.x() - w / 2 - 1, c.y() + r + kPriorGap + kPriorHeight + 1, w + 2,
                                   labelMetrics.height()),
                            Qt::AlignCenter, label);
            }
        }
    });
}

QSize MctsTreeView::legendSize() const
{
    return layoutLegend(nullptr, QRect());
}

void MctsTreeView::paintLegend(QPainter &painter, const QRect &area) const
{
    layoutLegend(&painter, area);
}

// Two lines of swatches and words; without a painter it only measures.
QSize MctsTreeView::layoutLegend(QPainter *p, const QRect &area) const
{
    QFont f = font();
    f.setPointSizeF(std::max(7.0, f.pointSizeF() * 0.85));
    const QFontMetrics fm(f);
    const int pad = 6, sw = 14, gap = 4, sep = 12, lineH = std::max(fm.height(), sw) + 2;
    const QPoint origin = area.topLeft() + QPoint(pad, pad);
    int x = 0, y = 0, width = 0;
    const auto word = [&](const QString &text) {
        if (p) {
            p->setPen(QColor(kBestPathColour));
            p->drawText(QRect(origin.x() + x, origin.y() + y, fm.horizontalAdvance(text) + 2, lineH),
                        Qt::AlignLeft | Qt::AlignVCenter, text);
        }
        x += fm.horizontalAdvance(text) + sep;
        width = std::max(width, x);
    };
    const auto swatch = [&](int w, const std::function<void(const QRect &)> &draw) {
        if (p)
            draw(QRect(origin.x() + x, origin.y() + y + (lineH - sw) / 2, w, sw));
        x += w + gap;
    };
    if (p) {
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        p->setFont(f);
        p->setPen(QColor(kEdgeColour));
        p->setBrush(QColor(255, 255, 255, 230));
        p->drawRoundedRect(QRectF(area).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    }
    // Line 1: Q, unvisited, size, prior.
    swatch(48, [&](const QRect &r) {
        QLinearGradient g(r.topLeft(), r.topRight());
        for (double t : {0.0, 0.5, 1.0})
            g.setColorAt(t, divergingColour(2 * t - 1));
        p->setPen(QColor(kNodeBorder));
        p->setBrush(g);
        p->drawRect(r);
    });
    word(tr("Q 0 → 1"));
    swatch(sw, [&](const QRect &r) {
        p->setPen(QColor(kNodeBorder));
        p->setBrush(divergingColour(std::numeric_limits<double>::quiet_NaN()));
        p->drawEllipse(r.adjusted(2, 2, -2, -2));
    });
    word(tr("unvisited"));
    swatch(sw + 8, [&](const QRect &r) {
        p->setPen(QColor(kNodeBorder));
        p->setBrush(Qt::white);
        p->drawEllipse(QRect(r.left(), r.center().y() - 2, 5, 5));
        p->drawEllipse(QRect(r.left() + 8, r.top(), sw, sw));
    });
    word(tr("size: visits"));
    swatch(sw, [&](const QRect &r) {
        p->fillRect(QRect(r.left(), r.center().y() - 1, r.width(), 3), QColor(kPriorTrack));
        p->fillRect(QRect(r.left(), r.center().y() - 1, r.width() * 3 / 5, 3), QColor(kPriorBar));
    });
    word(tr("prior"));
    // Line 2: answers, paths.
    x = 0;
    y += lineH + 2;
    for (const Outcome outcome : {Outcome::Right, Outcome::Partial, Outcome::Wrong}) {
        const QString text = mctsOutcomeName(outcome);
        swatch(sw, [&](const QRect &r) {
            p->setPen(QPen(outcomeColour(outcome), 2.5));
            p->setBrush(Qt::white);
            p->drawRoundedRect(r.adjusted(2, 2, -2, -2), 2, 2);
        });
        word(text);
    }
    swatch(22, [&](const QRect &r) {
        p->setPen(QPen(QColor(kBestPathColour), 4, Qt::SolidLine, Qt::RoundCap));
        p->drawLine(r.left() + 2, r.center().y(), r.right() - 2, r.center().y());
    });
    word(tr("most visited path"));
    swatch(22, [&](const QRect &r) {
        p->setPen(QPen(QColor(kIterationColour), 2));
        p->drawLine(r.left() + 2, r.center().y(), r.right() - 2, r.center().y());
    });
    word(tr("this iteration's path"));
    if (p)
        p->restore();
    return QSize(width + 2 * pad - sep, y + lineH + 2 * pad);
}

// ---- export ----

bool MctsTreeView::exportImage(const QString &path, ExportScope scope, QString *error) const
{
    const auto fail = [&](const QString &why) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), why);
        return false;
    };
    if (!m_record)
        return fail(tr("no tree is shown"));
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect().intersected(m_layout.bounds());
    const QRectF rect = scope == ExportScope::Whole ? m_layout.bounds() : visible;
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return fail(f.errorString());
        writeSvg(&f, rect);
        f.close();
        if (f.error() != QFileDevice::NoError)
            return fail(f.errorString());
        return true;
    }
    QImage image;
    const QSize legend = legendSize();
    if (scope == ExportScope::Visible) {
        image = viewport()->grab().toImage();
        QPainter p(&image);
        p.setFont(font());
        paintLegend(p, QRect(QPoint(6, image.height() / image.devicePixelRatio() - legend.height() - 5), legend));
    } else {
        // The whole tree at 1:1, scaled down until it is at most kMaxExportPixels; the
        // legend under it.
        const double s = std::min(1.0, std::sqrt(kMaxExportPixels / (rect.width() * rect.height())));
        const QSize size(std::max(legend.width() + 12, static_cast<int>(std::ceil(rect.width() * s))),
                         static_cast<int>(std::ceil(rect.height() * s)) + legend.height() + 12);
        image = QImage(size, QImage::Format_RGB32);
        if (image.isNull())
            return fail(tr("the image would be too large"));
        image.fill(Qt::white);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(s, s);
        p.translate(-rect.topLeft());
        paintTree(&p, rect, s);
        p.resetTransform();
        paintLegend(p, QRect(QPoint(6, size.height() - legend.height() - 6), legend));
    }
    if (!image.save(path))
        return fail(tr("the image could not be saved (is the name's extension .png?)"));
    return true;
}

void MctsTreeView::writeSvg(QIODevice *device, const QRectF &rect) const
{
    QTextStream out(device);
    out.setEncoding(QStringConverter::Utf8);
    const auto n1 = [](double v) { return QString::number(v, 'f', 1); };
    out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << n1(rect.width()) << "\" height=\""
        << n1(rect.height()) << "\" viewBox=\"" << n1(rect.left()) << ' ' << n1(rect.top()) << ' '
        << n1(rect.width()) << ' ' << n1(rect.height()) << "\" font-family=\"sans-serif\">\n";
    if (m_record)
        out << "<title>" << QString::fromStdString(m_record->question).toHtmlEscaped() << "</title>\n";
    out << "<rect x=\"" << n1(rect.left()) << "\" y=\"" << n1(rect.top()) << "\" width=\"" << n1(rect.width())
        << "\" height=\"" << n1(rect.height()) << "\" fill=\"#ffffff\"/>\n";
    if (!m_record) {
        out << "</svg>\n";
        return;
    }
    const int count = shownCount();
    const std::vector<mcts::Node> &nodes = m_tree.nodes();
    QString plain, best, iteration, created;
    m_layout.forEachParentIn(rect, [&](int parent) {
        if (parent >= count)
            return;
        // As painted: from under the parent's label to the child's disc.
        const QPointF a = m_layout.centre(parent) +
                          QPointF(0, m_layout.radius(nodes[static_cast<size_t>(parent)].visits) + kPriorGap +
                                         kPriorHeight + kLabelPixels + 3);
        for (int c : nodes[static_cast<size_t>(parent)].children) {
            const QPointF b = m_layout.centre(c) - QPointF(0, m_layout.radius(nodes[static_cast<size_t>(c)].visits));
            const QString seg = QStringLiteral("M%1 %2L%3 %4").arg(n1(a.x()), n1(a.y()), n1(b.x()), n1(b.y()));
            if (has(c, BestPath))
                best += seg;
            if (has(c, Selected) || has(c, Evaluated))
                iteration += seg;
            else if (has(c, Created))
                created += seg;
            else if (!has(c, BestPath))
                plain += seg;
        }
    });
    const auto path = [&](const QString &d, QRgb colour, double width, const char *extra = "") {
        if (!d.isEmpty())
            out << "<path d=\"" << d << "\" fill=\"none\" stroke=\"" << svgColour(QColor(colour)) << "\" stroke-width=\""
                << width << "\" stroke-linecap=\"round\"" << extra << "/>\n";
    };
    path(plain, kEdgeColour, 1);
    path(best, kBestPathColour, 4);
    path(created, kIterationColour, 1.5, " stroke-dasharray=\"4 3\"");
    path(iteration, kIterationColour, 2);
    m_layout.forEachNodeIn(rect, [&](int id) {
        if (id >= count)
            return;
        const mcts::Node &n = nodes[static_cast<size_t>(id)];
        const double r = m_layout.radius(n.visits);
        const QPointF c = m_layout.centre(id);
        const Outcome o = mctsOutcome(n);
        // What hovering the node shows in the view, for an SVG viewer's tooltip.
        out << "<g><title>" << nodeToolTip(id).toHtmlEscaped() << "</title>";
        if (has(id, Marked))
            out << "<circle cx=\"" << n1(c.x()) << "\" cy=\"" << n1(c.y()) << "\" r=\"" << n1(r + 6)
                << "\" fill=\"" << svgColour(QColor(kMarkColour)) << "\"/>";
        if (o != Outcome::None)
            out << "<rect x=\"" << n1(c.x() - r) << "\" y=\"" << n1(c.y() - r) << "\" width=\"" << n1(2 * r)
                << "\" height=\"" << n1(2 * r) << "\" rx=\"" << n1(r * 0.25) << "\" fill=\"" << svgColour(qColour(n))
                << "\" stroke=\"" << svgColour(outcomeColour(o)) << "\" stroke-width=\"2.5\"/>";
        else
            out << "<circle cx=\"" << n1(c.x()) << "\" cy=\"" << n1(c.y()) << "\" r=\"" << n1(r) << "\" fill=\""
                << svgColour(qColour(n)) << "\" stroke=\"" << svgColour(QColor(kNodeBorder)) << "\"/>";
        if (has(id, Expanded))
            out << "<circle cx=\"" << n1(c.x()) << "\" cy=\"" << n1(c.y()) << "\" r=\"" << n1(r + 4)
                << "\" fill=\"none\" stroke=\"" << svgColour(QColor(kIterationColour)) << "\" stroke-width=\"2\"/>";
        if (id == m_selected)
            out << "<circle cx=\"" << n1(c.x()) << "\" cy=\"" << n1(c.y()) << "\" r=\"" << n1(r + 6)
                << "\" fill=\"none\" stroke=\"" << svgColour(QColor(kSelectionColour)) << "\" stroke-width=\"2.5\"/>";
        const double barTop = c.y() + r + kPriorGap;
        out << "<rect x=\"" << n1(c.x() - kPriorWidth / 2) << "\" y=\"" << n1(barTop) << "\" width=\""
            << n1(kPriorWidth) << "\" height=\"" << n1(kPriorHeight) << "\" fill=\"" << svgColour(QColor(kPriorTrack))
            << "\"/><rect x=\"" << n1(c.x() - kPriorWidth / 2) << "\" y=\"" << n1(barTop) << "\" width=\""
            << n1(kPriorWidth * std::clamp(n.prior, 0.0, 1.0)) << "\" height=\"" << n1(kPriorHeight) << "\" fill=\""
            << svgColour(QColor(kPriorBar)) << "\"/>";
        out << "<text x=\"" << n1(c.x()) << "\" y=\"" << n1(barTop + kPriorHeight + kLabelPixels) << "\" font-size=\""
            << kLabelPixels << "\" text-anchor=\"middle\" fill=\"" << svgColour(QColor(kNodeBorder)) << "\">#" << id
            << "</text></g>\n";
    });
    out << "</svg>\n";
}

} // namespace rwb::widgets
