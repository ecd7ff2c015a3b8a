// widgets: the MCTS tree viewer on a hand-built search record (five nodes, three
// iterations, the shape of tst_mcts's handRecord with multi-hop step texts): the tree
// list model and its filter under QAbstractItemModelTester, the file source (a file, a
// folder with a bad file, a missing path), the layout's invariants, replaying an
// iteration (exactly the nodes created up to it), the hover tooltip's PUCT terms against
// SearchTree::puct, the detail panel's gold mark, EM and F1, the siblings side
// by side, the node search, ← / → and the slider, PNG and SVG export, Follow picking up a
// tree that grew and a new file, bad input shown in the viewer, and a 5,000-node
// synthetic tree loading and painting within a generous bound (the real figures come
// from `reward-workbench --bench-tree-view 5000`).
#include "languagemanager.h"
#include "mainwindow.h"
#include "mctsnodedetail.h"
#include "mctssiblingsview.h"
#include "mctssynthetic.h"
#include "mctstreefilter.h"
#include "mctstreelayout.h"
#include "mctstreelistmodel.h"
#include "mctstreesource.h"
#include "storedocument.h"
#include "mctstreeview.h"
#include "mctsviewer.h"

#include "data/jsonl.h"
#include "mcts/searchrecord.h"
#include "store/runstore.h"
#include "tasks/multihop/multihopformat.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>

using namespace rwb;
using rwb::mcts::SearchTree;
using rwb::widgets::MctsFileSource;
using rwb::widgets::MctsNodeDetail;
using rwb::widgets::MctsSiblingsView;
using rwb::widgets::MctsTreeFilter;
using rwb::widgets::MctsTreeLayout;
using rwb::widgets::MctsTreeListModel;
using rwb::widgets::MctsTreeView;
using rwb::widgets::MctsViewer;

namespace {

// The nodes of handRecord(): the root, a and b (iteration 1), a1 (2), b1 (3).
constexpr int kA = 1, kB = 2, kA1 = 3, kB1 = 4;

// Node a retrieves a gold passage (kb-O001) and one that is not (kb-C003); a1 answers
// "City 45" against the gold "City 4" (F1 by hand: the tokens {city, 45} and {city, 4}
// share one of two, P = R = 1/2, F1 0.5; EM 0); its value 0.5 is
// what the search gave it. The statistics are those of tst_mcts's handRecord, whose
// logged selections are what PUCT picks on the replayed trees.
mcts::SearchRecord handRecord()
{
    mcts::SearchRecord r;
    r.questionId = "test-000001";
    r.question = "Where was the founder of Org 1 born?";
    r.goldAnswer = "City 4";
    r.goldPassages = {"kb-O001", "kb-P002"};
    r.hops = 2;
    r.params.cPuct = 2.5;
    r.params.gamma = 0.9;
    r.params.simulations = 3;
    SearchTree &t = r.tree;
    const int a = t.addChild(SearchTree::kRoot,
                             "<step>Find the founder of Org 1.</step><subquery>Org 1 founder</subquery>"
                             "<retrieval>[kb-O001] Org 1 was founded by Person 2.\n[kb-C003] City 3 is a port."
                             "</retrieval><subanswer>Person 2 founded it.</subanswer>",
                             0.6, 1);
    const int b = t.addChild(SearchTree::kRoot,
                             "<step>Look for Org 1 in the news.</step><subquery>Org 1 news</subquery>"
                             "<retrieval>[kb-P009] Person 9 reads the news.</retrieval><subanswer>Nothing useful."
                             "</subanswer>",
                             0.4, 1);
    t.detail(a).retrieved = {"kb-O001", "kb-C003"};
    t.detail(a).tokens = 12;
    t.detail(a).logProb = -3.5;
    t.detail(b).retrieved = {"kb-P009"};
    r.iterations.push_back({1, {0}, 0, {a, b}, {0, a}, 1.0, 2, "<step>x</step><answer>City 4</answer>", "City 4", 0.1});
    t.backup({0, a}, 1.0, 0.9, 2);
    const int a1 = t.addChild(a, "<step>Person 2 was born in City 45.</step><answer>City 45</answer>", 1.0, 2);
    t.setTerminal(a1, 0.5);
    t.detail(a1).answer = "City 45";
    r.iterations.push_back({2, {0, a}, a, {a1}, {0, a, a1}, 0.5, 2, "", "", 0.1});
    t.backup({0, a, a1}, 0.5, 0.9);
    const int b1 = t.addChild(b,
                              "<step>Search for the founder instead.</step><subquery>Org 1 founder</subquery>"
                              "<retrieval>[kb-O001] Org 1 was founded by Person 2.</retrieval>"
                              "<subanswer>Person 2.</subanswer>",
                              1.0, 3);
    t.detail(b1).retrieved = {"kb-O001"};
    r.iterations.push_back({3, {0, b}, b, {b1}, {0, b, b1}, 0.0, 3, "<step>e</step><answer>Z</answer>", "Z", 0.1});
    t.backup({0, b, b1}, 0.0, 0.9, 3);
    return r;
}

// The record as it stood after its first `n` iterations (what a live search had written).
mcts::SearchRecord firstIterations(const mcts::SearchRecord &r, int n)
{
    mcts::SearchRecord out = r;
    out.tree = r.treeAt(n);
    out.iterations.resize(static_cast<size_t>(n));
    return out;
}

void writeRecord(const QString &path, const mcts::SearchRecord &r)
{
    std::ofstream f(path.toStdString(), std::ios::binary | std::ios::trunc);
    f << mcts::toRecordJson(r).dump(1);
}

void writeText(const QString &path, const char *text)
{
    std::ofstream f(path.toStdString(), std::ios::binary | std::ios::trunc);
    f << text;
}

mcts::TreeSummary summary(int64_t id, const char *qid, const char *question, double best, int nodes)
{
    mcts::TreeSummary s;
    s.treeId = id;
    s.questionId = qid;
    s.question = question;
    s.goldAnswer = "gold";
    s.bestAnswer = best > 0 ? "answer" : "";
    s.bestValue = best;
    s.foundValue = best;
    s.nodes = nodes;
    s.depth = 2;
    s.iterations = nodes / 2;
    s.complete = true;
    return s;
}

std::set<int> shownSet(const MctsTreeView &view)
{
    std::set<int> out;
    for (int id = 0; id < static_cast<int>(view.record()->tree.nodes().size()); ++id)
        if (view.isShown(id))
            out.insert(id);
    return out;
}

// Pixels that are not the white canvas.
int inkPixels(const QImage &image)
{
    int ink = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            if ((image.pixel(x, y) & 0xffffff) != 0xffffff)
                ++ink;
    return ink;
}

} // namespace

class TestMctsViewer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void listModel();
    void fileSource();
    void splitPassages_data();
    void splitPassages();
    void layoutInvariants();
    void replayShowsCreatedNodes();
    void tooltipPuct();
    void zoomKeys();
    void detailPanel();
    void siblings();
    void viewerSearchAndKeys();
    void exportImages();
    void followLiveSource();
    void followStoreRun();
    void badInput();
    void syntheticRecord();
    void largeTree();
    void mainWindowAndLanguage();
    // Manual: with RWB_MCTS_DEMO_DIR set, writes the hand record and synthetic searches of
    // 300 and 5,000 nodes there (for `reward-workbench --mcts DIR --screenshot …`), and
    // the 300-node tree at iteration 60 exported whole as PNG and SVG.
    void writeDemoRecords();
};

void TestMctsViewer::initTestCase()
{
    // The main window's test reads and writes settings: not the user's.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("RewardWorkbenchTest");
    QCoreApplication::setApplicationName("tst_mctsviewer");
    QSettings().clear();
}

void TestMctsViewer::listModel()
{
    MctsTreeListModel model;
    MctsTreeFilter filter;
    filter.setSourceModel(&model);
    QAbstractItemModelTester t1(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setTrees({summary(0, "q-2", "Who founded Org 2?", 1.0, 40), summary(1, "q-10", "Where is City 9?", 0.25, 9)});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, MctsTreeListModel::IdColumn).data().toString(), QString("q-2"));
    QCOMPARE(model.index(1, MctsTreeListModel::BestValueColumn).data().toString(), QString("0.25"));
    QCOMPARE(model.index(1, MctsTreeListModel::BestAnswerColumn).data().toString(), QString("answer"));
    QCOMPARE(model.index(0, 0).data(MctsTreeListModel::CorrectRole).toBool(), true);
    QCOMPARE(model.index(1, 0).data(MctsTreeListModel::CorrectRole).toBool(), false);

    // A live source that grew: rows change in place and one is appended, no reset.
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setTrees({summary(0, "q-2", "Who founded Org 2?", 1.0, 40), summary(1, "q-10", "Where is City 9?", 0.5, 12),
                    summary(2, "q-3", "Who runs Org 3?", 0.0, 100)});
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(changed.count(), 1); // only row 1 changed
    QCOMPARE(model.rowOf(2), 2);
    // Another list: a reset.
    model.setTrees({summary(5, "x", "X?", 0.0, 3)});
    QCOMPARE(resets.count(), 1);
    model.setTrees({summary(0, "q-2", "Who founded Org 2?", 1.0, 40), summary(1, "q-10", "Where is City 9?", 0.5, 12),
                    summary(2, "q-3", "Who runs Org 3?", 0.0, 100)});

    // Sorting by nodes is numeric (100 > 40 > 12, not "100" < "12" < "40").
    filter.sort(MctsTreeListModel::NodesColumn, Qt::DescendingOrder);
    QCOMPARE(filter.index(0, MctsTreeListModel::NodesColumn).data().toInt(), 100);
    QCOMPARE(filter.index(2, MctsTreeListModel::NodesColumn).data().toInt(), 12);
    // Text over id and question, case-insensitive; wrong only.
    filter.setText(QStringLiteral("city 9"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, 0).data().toString(), QString("q-10"));
    filter.setText(QStringLiteral("Q-3"));
    QCOMPARE(filter.rowCount(), 1);
    filter.setText(QString());
    filter.setWrongOnly(true);
    QCOMPARE(filter.rowCount(), 2); // 0.5 and 0.0, not 1.0
    filter.setText(QStringLiteral("org"));
    QCOMPARE(filter.rowCount(), 1);
    QCOMPARE(filter.index(0, 0).data().toString(), QString("q-3"));
}

void TestMctsViewer::fileSource()
{
    QTemporaryDir dir;
    const mcts::SearchRecord r = handRecord();
    writeRecord(dir.filePath("a.json"), r);
    mcts::SearchRecord other = firstIterations(r, 1);
    other.questionId = "test-000002";
    writeRecord(dir.filePath("c.json"), other);
    writeText(dir.filePath("b.json"), "{\n  \"mcts_tree\": {\n    \"q\": 0,,\n");
    writeText(dir.filePath("notes.txt"), "not a record");

    MctsFileSource folder(dir.path().toStdString());
    const std::vector<mcts::TreeSummary> trees = folder.trees();
    QCOMPARE(trees.size(), size_t(2));
    // ids by name order, the bad file keeping its place: a 0, b 1 (left out), c 2.
    QCOMPARE(trees[0].treeId, int64_t(0));
    QCOMPARE(trees[0].questionId, std::string("test-000001"));
    QCOMPARE(trees[0].nodes, 5);
    QCOMPARE(trees[0].iterations, 3);
    QCOMPARE(trees[1].treeId, int64_t(2));
    QCOMPARE(trees[1].nodes, 3);
    QCOMPARE(folder.problems().size(), size_t(1));
    const std::string problem = folder.problems().front();
    QVERIFY2(problem.find("b.json:3:") != std::string::npos, problem.c_str());
    QCOMPARE(folder.record(2).questionId, std::string("test-000002"));
    QCOMPARE(folder.fileOf(0), dir.filePath("a.json").toStdString());
    QVERIFY_THROWS_EXCEPTION(data::InputException, folder.record(1));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, folder.record(7));

    MctsFileSource single(dir.filePath("a.json").toStdString());
    QCOMPARE(single.trees().size(), size_t(1));
    QCOMPARE(single.record(0).tree.nodes().size(), size_t(5));
    MctsFileSource bad(dir.filePath("b.json").toStdString());
    QVERIFY_THROWS_EXCEPTION(data::InputException, bad.trees());
    MctsFileSource missing(dir.filePath("none.json").toStdString());
    QVERIFY_THROWS_EXCEPTION(data::InputException, missing.trees());
}

void TestMctsViewer::splitPassages_data()
{
    QTest::addColumn<QString>("retrieval");
    QTest::addColumn<QStringList>("ids");
    // "id|text|gold" per passage
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("named") << "[kb-C003] City 3.\n[kb-O001] Org 1." << QStringList{"kb-O001", "kb-C003"}
                           << QStringList{"kb-O001|Org 1.|1", "kb-C003|City 3.|0"};
    QTest::newRow("named, colon") << "kb-O001: Org 1.\nSee kb-C003 too." << QStringList{"kb-O001", "kb-C003"}
                                  << QStringList{"kb-O001|Org 1.|1", "kb-C003|See kb-C003 too.|0"};
    QTest::newRow("by order") << "Org 1 was founded.\n\n  City 3 is a port.  " << QStringList{"kb-O001", "kb-C003"}
                              << QStringList{"kb-O001|Org 1 was founded.|1", "kb-C003|City 3 is a port.|0"};
    QTest::newRow("unmatched") << "One paragraph about Org 1 and City 3." << QStringList{"kb-O001", "kb-C003"}
                               << QStringList{"kb-O001||1", "kb-C003||0", "|One paragraph about Org 1 and City 3.|0"};
    QTest::newRow("no ids") << "Some text." << QStringList{} << QStringList{"|Some text.|0"};
    QTest::newRow("nothing") << "" << QStringList{} << QStringList{};
}

void TestMctsViewer::splitPassages()
{
    QFETCH(QString, retrieval);
    QFETCH(QStringList, ids);
    QFETCH(QStringList, expected);
    std::vector<std::string> idv;
    for (const QString &id : ids)
        idv.push_back(id.toStdString());
    const auto passages = MctsNodeDetail::splitPassages(retrieval.toStdString(), idv, {"kb-O001", "kb-P002"});
    QStringList got;
    for (const auto &p : passages)
        got << QStringLiteral("%1|%2|%3").arg(QString::fromStdString(p.id), QString::fromStdString(p.text)).arg(p.gold);
    QCOMPARE(got, expected);
}

void TestMctsViewer::layoutInvariants()
{
    for (const mcts::SearchRecord &r : {handRecord(), widgets::syntheticSearchRecord(600, 7)}) {
        const MctsTreeLayout layout(r.tree);
        const auto &nodes = r.tree.nodes();
        QCOMPARE(layout.size(), static_cast<int>(nodes.size()));
        for (const mcts::Node &n : nodes) {
            const QPointF c = layout.centre(n.id);
            QVERIFY(layout.bounds().contains(c));
            if (n.parent >= 0) // parents above their children
                QVERIFY(layout.centre(n.parent).y() < c.y());
            if (!n.children.empty()) { // centred over the first and the last
                const double mid = (layout.centre(n.children.front()).x() + layout.centre(n.children.back()).x()) / 2;
                QVERIFY(std::abs(c.x() - mid) < 1e-6);
            }
        }
        // No two nodes of a row overlap, however large their discs grow (their final
        // size); siblings in particular, and in the order they were created.
        for (int d = 0; d < layout.rowCount(); ++d) {
            const std::vector<int> &row = layout.row(d);
            for (size_t i = 1; i < row.size(); ++i) {
                const double gap = layout.centre(row[i]).x() - layout.centre(row[i - 1]).x();
                const double need = layout.radius(nodes[static_cast<size_t>(row[i])].visits) +
                                    layout.radius(nodes[static_cast<size_t>(row[i - 1])].visits);
                QVERIFY2(gap >= need, qPrintable(QStringLiteral("nodes %1 and %2").arg(row[i - 1]).arg(row[i])));
            }
        }
        for (const mcts::Node &n : nodes)
            for (size_t k = 1; k < n.children.size(); ++k)
                QVERIFY(layout.centre(n.children[k - 1]).x() < layout.centre(n.children[k]).x());
        // The root is the largest disc; an unvisited node the smallest.
        QCOMPARE(layout.radius(nodes[0].visits), layout.options().maxRadius);
        QCOMPARE(layout.radius(0), layout.options().minRadius);
        // Tidy: narrower than leaves side by side (the synthetic tree's are many).
        double leaves = 0;
        for (const mcts::Node &n : nodes)
            if (n.children.empty())
                leaves += layout.slotWidth(n.id);
        if (nodes.size() > 100)
            QVERIFY2(layout.bounds().width() < 0.8 * leaves,
                     qPrintable(QStringLiteral("%1 vs %2").arg(layout.bounds().width()).arg(leaves)));
        // The edge query misses no edge that crosses a rectangle (checked against every
        // edge, on rectangles across the tree).
        const QRectF b = layout.bounds();
        for (int k = 0; k < 24; ++k) {
            const QRectF rect(b.left() + b.width() * (k % 6) / 6.0, b.top() + b.height() * (k / 6) / 4.0,
                              b.width() / 13.0, b.height() / 5.0);
            std::set<int> parents;
            layout.forEachParentIn(rect, [&](int id) { parents.insert(id); });
            for (const mcts::Node &n : nodes) {
                if (n.parent < 0)
                    continue;
                const QLineF edge(layout.centre(n.parent), layout.centre(n.id));
                bool crosses = rect.contains(edge.p1()) || rect.contains(edge.p2());
                for (const QLineF &side : {QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.topRight(), rect.bottomRight()),
                                           QLineF(rect.bottomRight(), rect.bottomLeft()), QLineF(rect.bottomLeft(), rect.topLeft())})
                    crosses = crosses || edge.intersects(side, nullptr) == QLineF::BoundedIntersection;
                if (crosses)
                    QVERIFY2(parents.count(n.parent), qPrintable(QStringLiteral("edge %1 → %2").arg(n.parent).arg(n.id)));
            }
        }
        // The rectangle query finds what is inside and only that.
        const QPointF c = layout.centre(static_cast<int>(nodes.size()) - 1);
        std::vector<int> found;
        layout.forEachNodeIn(QRectF(c - QPointF(1, 1), QSizeF(2, 2)), [&](int id) { found.push_back(id); });
        QCOMPARE(found, std::vector<int>{static_cast<int>(nodes.size()) - 1});
    }
}

void TestMctsViewer::replayShowsCreatedNodes()
{
    const auto record = std::make_shared<const mcts::SearchRecord>(handRecord());
    MctsTreeView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy changed(&view, &MctsTreeView::iterationChanged);
    view.setRecord(record);
    QCOMPARE(view.iterationCount(), 3);
    QCOMPARE(view.iteration(), 3);
    QCOMPARE(changed.count(), 1);
    for (int i = 0; i <= 3; ++i) {
        view.setIteration(i);
        QCOMPARE(view.iteration(), i);
        std::set<int> expected;
        for (const mcts::Node &n : record->tree.nodes())
            if (n.id == 0 || n.iterationCreated <= i)
                expected.insert(n.id);
        QCOMPARE(shownSet(view), expected);
        // The statistics are the replayed ones; what is laid out and can be hit is that.
        const SearchTree replay = record->treeAt(i);
        for (int id : expected)
            QCOMPARE(view.tree().node(id).visits, replay.node(id).visits);
        QCOMPARE(view.treeLayout().size(), static_cast<int>(expected.size()));
        for (int id : expected) {
            view.centreOnNode(id);
            QCOMPARE(view.nodeAt(view.mapFromScene(view.treeLayout().centre(id))), id);
        }
        const QRectF all = view.treeLayout().bounds();
        for (double x = all.left(); x < all.right(); x += 4)
            for (double y = all.top(); y < all.bottom(); y += 4) {
                view.centerOn(x, y);
                QVERIFY(view.nodeAt(view.mapFromScene(QPointF(x, y))) < static_cast<int>(expected.size()));
            }
    }
    // Iteration 2's selection, expansion and creation.
    view.setIteration(2);
    QVERIFY(view.currentIteration());
    QCOMPARE(view.currentIteration()->expanded, kA);
    QCOMPARE(view.currentIteration()->created, std::vector<int>{kA1});
    QCOMPARE(MctsViewer::iterationText(*record, 2),
             QString("Iteration 2: selected 0 → 1 · expanded #1 into #3 · evaluated #3 · backed up 0.500 from depth 2 "
                     "(γ 0.9) · 0.10 s"));
    QCOMPARE(MctsViewer::iterationText(*record, 0), QString("Before the first iteration: only the root."));
    view.setIteration(99); // clamped
    QCOMPARE(view.iteration(), 3);
    view.setIteration(-4);
    QCOMPARE(view.iteration(), 0);

    // The selected node keeps its place on the screen as the tree is laid out anew.
    view.setIteration(3);
    view.selectNode(kA);
    view.centreOnNode(kA);
    const QPoint at = view.mapFromScene(view.treeLayout().centre(kA));
    for (int i : {2, 1, 3}) {
        view.setIteration(i);
        QVERIFY((view.mapFromScene(view.treeLayout().centre(kA)) - at).manhattanLength() <= 2);
    }

    // Clicking a node selects it.
    view.setIteration(3);
    QSignalSpy selected(&view, &MctsTreeView::nodeSelected);
    view.centreOnNode(kB1);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.nodeViewportRect(kB1).center());
    QCOMPARE(view.selectedNode(), kB1);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.first().first().toInt(), kB1);
}

void TestMctsViewer::tooltipPuct()
{
    const mcts::SearchRecord r = handRecord();
    const auto record = std::make_shared<const mcts::SearchRecord>(r);
    MctsTreeView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setRecord(record);
    const auto sameTerms = [](const mcts::PuctTerms &a, const mcts::PuctTerms &b) {
        return a.q == b.q && a.u == b.u && a.p == b.p && a.n == b.n && a.score == b.score;
    };
    // Iteration 3 selected [0, b] on the tree after iteration 2.
    view.setIteration(3);
    const SearchTree before = r.treeAt(2);
    for (int id : {kA, kB}) {
        const std::optional<mcts::PuctTerms> t = view.selectionTerms(id);
        QVERIFY(t);
        const mcts::PuctTerms ref = before.puct(id, r.params.cPuct);
        QVERIFY(sameTerms(*t, ref));
        const QString tip = view.nodeToolTip(id);
        QVERIFY2(tip.contains(QStringLiteral("score %1 = Q %2 + U %3 (P %4, N %5)")
                                  .arg(QString::number(ref.score, 'f', 3), QString::number(ref.q, 'f', 3),
                                       QString::number(ref.u, 'f', 3), QString::number(ref.p, 'f', 3))
                                  .arg(ref.n)),
                 qPrintable(tip));
        QVERIFY(tip.contains("c_puct 2.50"));
    }
    // By hand: a has Q 1.35/2 = 0.675, U 2.5·0.6·√2/3 = 0.7071, score 1.3821; b is
    // unvisited, U 2.5·0.4·√2 = 1.4142: b wins.
    QVERIFY(std::abs(view.selectionTerms(kA)->score - (0.675 + 2.5 * 0.6 * std::sqrt(2.0) / 3)) < 1e-12);
    QVERIFY(std::abs(view.selectionTerms(kB)->score - 2.5 * 0.4 * std::sqrt(2.0)) < 1e-12);
    QVERIFY(view.nodeToolTip(kB).contains("Chosen: rank 1 of 2"));
    QVERIFY(view.nodeToolTip(kA).contains("Not chosen: rank 2 of 2; #2 scored 1.414"));
    // The child this iteration created has no score before it; the root none at all.
    QVERIFY(!view.selectionTerms(kB1));
    QVERIFY(view.nodeToolTip(kB1).contains("Created by this iteration"));
    QVERIFY(!view.selectionTerms(0));
    // Iteration 2 selected a (on the tree after iteration 1).
    view.setIteration(2);
    QVERIFY(sameTerms(*view.selectionTerms(kA), r.treeAt(1).puct(kA, r.params.cPuct)));
    QVERIFY(view.nodeToolTip(kA).contains("Chosen"));
    view.setIteration(0);
    QVERIFY(!view.selectionTerms(kA));

    // Hovering shows it.
    view.setIteration(3);
    view.centreOnNode(kA);
    const QPoint at = view.nodeViewportRect(kA).center();
    QHelpEvent help(QEvent::ToolTip, at, view.viewport()->mapToGlobal(at));
    QApplication::sendEvent(view.viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), view.nodeToolTip(kA));
    QToolTip::hideText();
}

void TestMctsViewer::zoomKeys()
{
    MctsTreeView view;
    view.resize(600, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setRecord(std::make_shared<const mcts::SearchRecord>(widgets::syntheticSearchRecord(300, 3)));
    const double z0 = view.zoom();
    QTest::keyClick(&view, Qt::Key_Plus);
    QVERIFY(std::abs(view.zoom() - z0 * 1.25) < 1e-9);
    QTest::keyClick(&view, Qt::Key_Minus);
    QVERIFY(std::abs(view.zoom() - z0) < 1e-9);
    QTest::keyClick(&view, Qt::Key_0); // fit: the whole tree inside the viewport
    const QRectF shown = view.mapToScene(view.viewport()->rect()).boundingRect();
    QVERIFY(shown.adjusted(-1, -1, 1, 1).contains(view.treeLayout().bounds()));
    // Ctrl+wheel zooms in, a plain wheel does not.
    const double fit = view.zoom();
    const QPointF mid = view.viewport()->rect().center();
    QWheelEvent ctrl(mid, view.viewport()->mapToGlobal(mid), {}, {0, 120}, Qt::NoButton, Qt::ControlModifier,
                     Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.viewport(), &ctrl);
    QVERIFY(view.zoom() > fit * 1.1);
}

void TestMctsViewer::detailPanel()
{
    const mcts::SearchRecord r = handRecord();
    const auto record = std::make_shared<const mcts::SearchRecord>(r);
    MctsNodeDetail detail;
    detail.showNode(record, r.tree, 3, kA);
    const QString text = detail.plainText();
    // The gold passage marked, the other not; the step's blocks.
    QVERIFY2(text.contains("kb-O001 ★ gold · Org 1 was founded by Person 2."), qPrintable(text));
    QVERIFY(text.contains("kb-C003 · City 3 is a port."));
    QVERIFY(!text.contains("kb-C003 ★"));
    QVERIFY(text.contains("Org 1 founder"));
    QVERIFY(text.contains("Person 2 founded it."));
    QVERIFY(text.contains("12 tokens, log-prob -3.50 (-0.292 per token)"));
    QVERIFY(text.contains("gold passages: kb-O001, kb-P002"));
    QVERIFY(!text.contains("does not follow the format"));

    // One action per node: a lone hop is well formed, a broken one is not (shown raw).
    const task::Trajectory hop = MctsNodeDetail::parseStep(r.tree.node(kA).step);
    QVERIFY(hop.wellFormed);
    QCOMPARE(hop.hops.size(), size_t(1));
    QCOMPARE(hop.hops[0].subquery, std::string("Org 1 founder"));
    QVERIFY(!hop.answer);
    QVERIFY(MctsNodeDetail::parseStep(r.tree.node(kA1).step).answer == std::string("City 45"));
    QVERIFY(!MctsNodeDetail::parseStep("<step>a</step><subquery>b</subquery>").wellFormed);
    mcts::SearchRecord broken = r;
    broken.tree.detail(kB).step = "<step>a</step><subquery>b</subquery> stray";
    detail.showNode(std::make_shared<const mcts::SearchRecord>(broken), broken.tree, 3, kB);
    QVERIFY(detail.plainText().contains("The step does not follow the format: expected <retrieval>"));
    QVERIFY(detail.plainText().contains("<step>a</step><subquery>b</subquery> stray"));

    // A terminal node: its history (a's step parsed), its answer against the gold.
    detail.showNode(record, r.tree, 3, kA1);
    const QString t1 = detail.plainText();
    QVERIFY(t1.contains("History (root → this node)"));
    QVERIFY(t1.contains("Find the founder of Org 1."));
    QVERIFY(t1.contains("kb-O001 ★ gold"));
    QVERIFY(t1.contains("Answer: City 45"));
    QVERIFY(t1.contains("Gold answer: City 4"));
    QCOMPARE(task::answerF1("City 45", "City 4"), 0.5); // {city, 45} against {city, 4}
    QVERIFY2(t1.contains("Exact match 0 · F1 0.500 · value 0.500"), qPrintable(t1));
    QVERIFY(t1.contains("partial"));

    // A node not created yet at the iteration shown.
    detail.showNode(record, r.treeAt(1), 1, kB1);
    QVERIFY(detail.plainText().contains("does not exist yet at iteration 1: it is created at iteration 3"));
    detail.showNode(record, r.tree, 3, 0);
    QVERIFY(detail.plainText().startsWith("Root"));
    detail.clear();
    QCOMPARE(detail.nodeId(), -1);
}

void TestMctsViewer::siblings()
{
    const mcts::SearchRecord r = handRecord();
    const auto record = std::make_shared<const mcts::SearchRecord>(r);
    MctsSiblingsView view;
    const SearchTree before = r.treeAt(2);
    view.showSiblings(record, r.tree, &before, 3, kA);
    QCOMPARE(view.columnCount(), 2);
    QCOMPARE(view.columnNode(0), kA);
    QCOMPARE(view.columnNode(1), kB);
    QVERIFY(view.columnText(0).contains("Find the founder of Org 1."));
    QVERIFY(view.columnText(1).contains("Org 1 news"));
    QVERIFY(view.columnText(0).contains(QStringLiteral("P 0.600 · N 2 · Q %1").arg(r.tree.node(kA).q(), 0, 'f', 3)));
    QVERIFY(view.columnText(1).contains(
        QStringLiteral("PUCT score at iteration 3: %1").arg(before.puct(kB, 2.5).score, 0, 'f', 3)));
    QSignalSpy activated(&view, &MctsSiblingsView::nodeActivated);
    auto *label = view.findChild<QLabel *>(QStringLiteral("mctsSibling%1").arg(kB));
    QVERIFY(label);
    Q_EMIT label->linkActivated(QStringLiteral("node:%1").arg(kB));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toInt(), kB);
    // The only child has one column; the root none.
    view.showSiblings(record, r.tree, nullptr, 3, kA1);
    QCOMPARE(view.columnCount(), 1);
    QVERIFY(view.columnText(0).contains("right") == false);
    QVERIFY(view.columnText(0).contains("partial · value 0.50"));
    view.showSiblings(record, r.tree, nullptr, 3, 0);
    QCOMPARE(view.columnCount(), 0);
}

void TestMctsViewer::viewerSearchAndKeys()
{
    QTemporaryDir dir;
    writeRecord(dir.filePath("a.json"), handRecord());
    MctsViewer viewer;
    viewer.resize(1400, 900);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QString error;
    QVERIFY2(viewer.setSource(std::make_shared<MctsFileSource>(dir.filePath("a.json").toStdString()), &error),
             qPrintable(error));
    QAbstractItemModelTester t1(viewer.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(viewer.filter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(viewer.currentTreeId(), qint64(0));
    QCOMPARE(viewer.table()->currentIndex().row(), 0);
    QCOMPARE(viewer.view()->iteration(), 3);
    QCOMPARE(viewer.slider()->value(), 3);
    QCOMPARE(viewer.slider()->maximum(), 3);
    // It opens on the most visited path's end: a1, with its detail and siblings.
    QCOMPARE(viewer.view()->selectedNode(), kA1);
    QCOMPARE(viewer.detail()->nodeId(), kA1);
    QVERIFY(viewer.questionLabel()->text().contains("Where was the founder of Org 1 born?"));

    // ← / → step through the iterations (from the view, the list and the slider alike).
    viewer.view()->setFocus();
    QTest::keyClick(viewer.view(), Qt::Key_Left);
    QCOMPARE(viewer.view()->iteration(), 2);
    QCOMPARE(viewer.slider()->value(), 2);
    QVERIFY(viewer.infoLabel()->text().startsWith("Iteration 2: selected 0 → 1 · expanded #1 into #3"));
    viewer.table()->setFocus();
    QTest::keyClick(viewer.table(), Qt::Key_Left);
    QCOMPARE(viewer.view()->iteration(), 1);
    QVERIFY(viewer.detail()->plainText().contains("does not exist yet at iteration 1"));
    QTest::keyClick(viewer.table(), Qt::Key_Home);
    QCOMPARE(viewer.view()->iteration(), 0);
    QTest::keyClick(viewer.table(), Qt::Key_End);
    QCOMPARE(viewer.view()->iteration(), 3);
    viewer.slider()->setValue(1);
    QCOMPARE(viewer.view()->iteration(), 1);
    QTest::keyClick(viewer.slider(), Qt::Key_Right);
    QCOMPARE(viewer.view()->iteration(), 2);

    // Search: typed text runs after a pause; Enter jumps to the next match.
    viewer.view()->setIteration(3);
    viewer.searchEdit()->setFocus();
    QTest::keyClicks(viewer.searchEdit(), "news");
    QTRY_COMPARE(viewer.searchMatches(), std::vector<int>{kB});
    QCOMPARE(viewer.view()->markedNodes(), std::vector<int>{kB});
    QCOMPARE(viewer.searchCountLabel()->text(), QString("1 match(es)"));
    // ← in the search box moves its cursor, not the iteration.
    QTest::keyClick(viewer.searchEdit(), Qt::Key_Left);
    QCOMPARE(viewer.view()->iteration(), 3);
    QTest::keyClick(viewer.searchEdit(), Qt::Key_Return);
    QCOMPARE(viewer.view()->selectedNode(), kB);
    QCOMPARE(viewer.detail()->nodeId(), kB);
    QCOMPARE(viewer.searchCountLabel()->text(), QString("match 1 of 1"));
    QVERIFY(viewer.view()->viewport()->rect().contains(viewer.view()->nodeViewportRect(kB).center()));
    // A passage id is searchable; matches follow the iteration (b1 exists from iteration 3).
    viewer.searchEdit()->setText("Search for the founder");
    viewer.runSearch();
    QCOMPARE(viewer.searchMatches(), std::vector<int>{kB1});
    viewer.setIteration(2);
    QCOMPARE(viewer.searchMatches(), std::vector<int>{});
    viewer.searchEdit()->setText("kb-O001");
    viewer.runSearch();
    QCOMPARE(viewer.searchMatches(), std::vector<int>{kA});
    viewer.setIteration(3);
    QCOMPARE(viewer.searchMatches(), (std::vector<int>{kA, kB1}));
    // Siblings follow the selection.
    viewer.selectNode(kB);
    QCOMPARE(viewer.siblings()->columnCount(), 2);
    QCOMPARE(viewer.siblings()->columnNode(1), kB);
}

void TestMctsViewer::exportImages()
{
    const auto record = std::make_shared<const mcts::SearchRecord>(widgets::syntheticSearchRecord(200, 5));
    MctsTreeView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setRecord(record);
    view.selectNode(3);
    QTemporaryDir dir;
    QString error;
    for (auto scope : {MctsTreeView::ExportScope::Visible, MctsTreeView::ExportScope::Whole}) {
        const QString png = dir.filePath(scope == MctsTreeView::ExportScope::Whole ? "whole.png" : "visible.png");
        QVERIFY2(view.exportImage(png, scope, &error), qPrintable(error));
        QVERIFY(QFileInfo(png).size() > 1000);
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(inkPixels(image) > 200); // nodes and edges, not a white page
        if (scope == MctsTreeView::ExportScope::Whole) // the whole tree at 1:1 (it is small)
            QVERIFY(image.width() >= static_cast<int>(view.treeLayout().bounds().width()));
    }
    const QString svg = dir.filePath("whole.svg");
    QVERIFY2(view.exportImage(svg, MctsTreeView::ExportScope::Whole, &error), qPrintable(error));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    QVERIFY(text.startsWith("<?xml"));
    QVERIFY(text.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    QCOMPARE(text.count("<g><title>"), static_cast<int>(record->tree.nodes().size())); // every node
    QVERIFY(text.contains("<g><title>Node #3 · depth"));
    QVERIFY(text.trimmed().endsWith("</svg>"));
    // A folder that does not exist: a message naming the file.
    QVERIFY(!view.exportImage(dir.filePath("none/x.png"), MctsTreeView::ExportScope::Visible, &error));
    QVERIFY2(error.contains("none/x.png"), qPrintable(error));
}

void TestMctsViewer::followLiveSource()
{
    QTemporaryDir dir;
    const mcts::SearchRecord r = handRecord();
    writeRecord(dir.filePath("001.json"), firstIterations(r, 2));
    MctsViewer viewer;
    viewer.resize(1200, 800);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QVERIFY(viewer.setSource(std::make_shared<MctsFileSource>(dir.path().toStdString())));
    QCOMPARE(viewer.view()->iterationCount(), 2);
    viewer.setPollInterval(30);
    viewer.setFollow(true);
    QVERIFY(viewer.followBox()->isChecked());
    viewer.setIteration(1);
    viewer.selectNode(kA);
    // The search wrote its third iteration: read again, shown at its last iteration, the
    // selection kept.
    writeRecord(dir.filePath("001.json"), r);
    QTRY_COMPARE(viewer.view()->iterationCount(), 3);
    QCOMPARE(viewer.view()->iteration(), 3);
    QCOMPARE(viewer.slider()->maximum(), 3);
    QCOMPARE(viewer.view()->selectedNode(), kA);
    QCOMPARE(viewer.model()->tree(0).iterations, 3);
    // A second search: a new row, and the viewer, which showed the newest tree, moves on.
    mcts::SearchRecord other = firstIterations(r, 1);
    other.questionId = "test-000002";
    writeRecord(dir.filePath("002.json"), other);
    QTRY_COMPARE(viewer.model()->rowCount(), 2);
    QTRY_COMPARE(viewer.currentTreeId(), qint64(1));
    QCOMPARE(viewer.view()->record()->questionId, std::string("test-000002"));
    viewer.setFollow(false);
    QVERIFY(!viewer.follow());
    // Choosing the other row shows it.
    viewer.table()->setCurrentIndex(viewer.filter()->index(0, 0));
    QCOMPARE(viewer.currentTreeId(), qint64(0));
    QCOMPARE(viewer.view()->record()->questionId, std::string("test-000001"));
}

// A search writing into a run store (as `rwb mcts run` does): the viewer follows the run,
// sees its tree grow, moves on to the next question's tree when the search does, and the
// main window opens MCTS runs from the store (the run list, --mcts runs.sqlite).
void TestMctsViewer::followStoreRun()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    const mcts::SearchRecord r = handRecord();
    mcts::SearchRecord second = firstIterations(r, 1);
    second.questionId = "test-000002";
    int64_t run = 0, first = 0;
    store::RunStore writer(path);
    const int64_t grpo = writer.beginRun("grpo", store::RunKind::Grpo, "{}", "company_extraction");
    run = writer.beginRun("search", store::RunKind::Mcts, "{}", "multihop");
    first = writer.writeMctsTree(run, firstIterations(r, 2));
    const std::shared_ptr<widgets::StoreDocument> document = widgets::StoreDocument::get(QString::fromStdString(path));
    QCOMPARE(widgets::lastMctsRun(*document), run);

    MctsViewer viewer;
    viewer.resize(1200, 800);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    auto source = std::make_shared<widgets::MctsStoreSource>(document, run);
    QString error;
    QVERIFY2(viewer.setSource(source, &error), qPrintable(error));
    QCOMPARE(source->runStatus(), std::string("running"));
    QCOMPARE(viewer.model()->rowCount(), 1);
    QCOMPARE(viewer.currentTreeId(), qint64(first));
    QCOMPARE(viewer.view()->iterationCount(), 2);
    QVERIFY(!viewer.model()->tree(0).complete);
    viewer.setPollInterval(30);
    viewer.setFollow(true);
    // The search's third iteration, written over the same tree: shown at its last iteration.
    writer.writeMctsTree(run, r, first);
    QTRY_COMPARE(viewer.view()->iterationCount(), 3);
    QCOMPARE(viewer.view()->iteration(), 3);
    // The next question: the viewer was on the newest tree, so it moves on.
    const int64_t next = writer.writeMctsTree(run, second);
    QTRY_COMPARE(viewer.model()->rowCount(), 2);
    QTRY_COMPARE(viewer.currentTreeId(), qint64(next));
    QCOMPARE(viewer.view()->record()->questionId, std::string("test-000002"));
    // Back on the first tree, the user stays there while the search writes a third one.
    viewer.table()->setCurrentIndex(viewer.filter()->index(0, 0));
    QCOMPARE(viewer.currentTreeId(), qint64(first));
    mcts::SearchRecord third = second;
    third.questionId = "test-000003";
    writer.writeMctsTree(run, third);
    QTRY_COMPARE(viewer.model()->rowCount(), 3);
    QTest::qWait(100);
    QCOMPARE(viewer.currentTreeId(), qint64(first));
    viewer.setFollow(false);
    writer.finishRun(run, store::RunStatus::Finished);
    QVERIFY(viewer.refresh());
    QCOMPARE(source->runStatus(), std::string("finished"));

    // Not an MCTS run: the message names the store and the run.
    QVERIFY(!viewer.setSource(std::make_shared<widgets::MctsStoreSource>(document, grpo), &error));
    QVERIFY2(error.contains(QString::fromStdString(path)) && error.contains(QString("run %1 is a grpo run").arg(grpo)),
             qPrintable(error));

    // The main window: --mcts on a store opens its last MCTS run; opening that run from
    // the run list opens the viewer on it too.
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QVERIFY2(w.openSearchTrees(dir.filePath("runs.sqlite"), &error), qPrintable(error));
    QCOMPARE(w.searchTrees()->windowTitle(), QString("Search trees — run %1 of runs.sqlite").arg(run));
    QCOMPARE(w.searchTrees()->model()->rowCount(), 3);
    QVERIFY(!w.searchTrees()->follow()); // finished: nothing to follow
    w.searchTrees()->hide();
    QVERIFY2(w.openRun(dir.filePath("runs.sqlite"), run, &error), qPrintable(error));
    QVERIFY(w.searchTrees()->isVisible());
    // A store without MCTS runs: said so, naming the file.
    store::RunStore("" + dir.filePath("empty.sqlite").toStdString());
    QVERIFY(!w.openSearchTrees(dir.filePath("empty.sqlite"), &error));
    QVERIFY2(error.contains("empty.sqlite has no tree search runs"), qPrintable(error));
}

void TestMctsViewer::badInput()
{
    QTemporaryDir dir;
    writeText(dir.filePath("bad.json"), "{\n  \"mcts_tree\": {\n    \"q\": 0,,\n");
    MctsViewer viewer;
    QString error;
    QVERIFY(!viewer.setSource(std::make_shared<MctsFileSource>(dir.filePath("bad.json").toStdString()), &error));
    QVERIFY2(error.contains(dir.filePath("bad.json") + ":3: not valid JSON"), qPrintable(error));
    QVERIFY(!viewer.errorLabel()->isHidden());
    QCOMPARE(viewer.errorLabel()->text(), error);
    QCOMPARE(viewer.model()->rowCount(), 0);

    // A record whose JSON is fine but whose content is not: the JSON path.
    nlohmann::json j = nlohmann::json::parse(mcts::toRecordJson(handRecord()).dump());
    j["iterations"][1]["backed_up"] = {0, 2, 3};
    writeText(dir.filePath("content.json"), j.dump().c_str());
    QVERIFY(!viewer.setSource(std::make_shared<MctsFileSource>(dir.filePath("content.json").toStdString()), &error));
    QVERIFY2(error.contains("iterations[1].backed_up[2]: node 3 is not a child of node 2"), qPrintable(error));

    QVERIFY(!viewer.setSource(std::make_shared<MctsFileSource>(dir.filePath("missing.json").toStdString()), &error));
    QVERIFY2(error.contains("missing.json") && error.contains("no such file"), qPrintable(error));

    // A folder with a good and a bad file: the good one listed and shown, the bad named.
    writeRecord(dir.filePath("good.json"), handRecord());
    QVERIFY(viewer.setSource(std::make_shared<MctsFileSource>(dir.path().toStdString()), &error));
    QCOMPARE(viewer.model()->rowCount(), 1);
    QCOMPARE(viewer.view()->record()->questionId, std::string("test-000001"));
    QVERIFY(viewer.errorLabel()->isHidden());
    auto *problems = viewer.findChild<QLabel *>("mctsProblems");
    QVERIFY(problems && !problems->isHidden());
    QVERIFY2(problems->text().startsWith("2 file(s) could not be read"), qPrintable(problems->text()));
    QVERIFY(problems->toolTip().contains("bad.json:3:"));
    QVERIFY(problems->toolTip().contains("content.json: iterations[1]"));

    // A tree that became unreadable after it was listed: the message, and the tree kept.
    writeText(dir.filePath("good.json"), "[1, 2");
    QVERIFY(!viewer.showTree(viewer.currentTreeId(), &error));
    QVERIFY2(error.contains("good.json:1: not valid JSON"), qPrintable(error));
    QVERIFY(!viewer.errorLabel()->isHidden());
    QCOMPARE(viewer.view()->record()->questionId, std::string("test-000001"));
}

void TestMctsViewer::syntheticRecord()
{
    const mcts::SearchRecord r = widgets::syntheticSearchRecord(500, 11);
    QCOMPARE(r.tree.nodes().size(), size_t(500));
    QVERIFY(r.iterations.size() > 50);
    // The log replays to the final tree, and the record survives its JSON form.
    const SearchTree last = r.treeAt(static_cast<int>(r.iterations.size()));
    for (size_t i = 0; i < last.nodes().size(); ++i)
        QCOMPARE(last.nodes()[i].visits, r.tree.nodes()[i].visits);
    const mcts::SearchRecord back = mcts::fromRecordJson(nlohmann::json::parse(mcts::toRecordJson(r).dump()), "x.json");
    QCOMPARE(back.tree.nodes().size(), size_t(500));
    int terminal = 0, wellFormed = 0;
    for (const mcts::Node &n : r.tree.nodes()) {
        terminal += n.terminal;
        wellFormed += n.id == 0 || MctsNodeDetail::parseStep(n.step).wellFormed;
    }
    QVERIFY(terminal > 10);
    QCOMPARE(wellFormed, 500);
    // Deterministic.
    QCOMPARE(mcts::toRecordJson(widgets::syntheticSearchRecord(500, 11)).dump(), mcts::toRecordJson(r).dump());
}

void TestMctsViewer::largeTree()
{
    // A 5,000-node tree opens, paints and replays. The bound is generous (on the 2-core
    // development machine each took under 10 ms; --bench-tree-view 5000 gives the real
    // figures): it catches a layout or a paint gone quadratic, not a slow machine.
    constexpr double kBoundMs = 3000;
    QElapsedTimer t;
    t.start();
    const auto record = std::make_shared<const mcts::SearchRecord>(widgets::syntheticSearchRecord(5000, 1));
    const double makeMs = t.nsecsElapsed() / 1e6;
    qInfo("the synthetic search took %zu iterations", record->iterations.size());
    QCOMPARE(record->tree.nodes().size(), size_t(5000));
    MctsViewer viewer;
    viewer.resize(1400, 900);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    t.restart();
    viewer.view()->setRecord(record);
    viewer.view()->viewport()->repaint();
    const double openMs = t.nsecsElapsed() / 1e6;
    t.restart();
    viewer.view()->zoomToFit(); // every node in view
    viewer.view()->viewport()->repaint();
    const double fitMs = t.nsecsElapsed() / 1e6;
    t.restart();
    for (int i = 0; i < 10; ++i) {
        viewer.setIteration(static_cast<int>(record->iterations.size()) * i / 10);
        viewer.view()->viewport()->repaint();
    }
    const double stepMs = t.nsecsElapsed() / 1e6 / 10;
    qInfo("5,000 nodes: made in %.0f ms, opened and painted in %.1f ms, fit %.1f ms, an iteration %.1f ms", makeMs,
          openMs, fitMs, stepMs);
    QVERIFY(openMs < kBoundMs);
    QVERIFY(fitMs < kBoundMs);
    QVERIFY(stepMs < kBoundMs);
    QCOMPARE(shownSet(*viewer.view()).size(),
             static_cast<size_t>(std::count_if(record->tree.nodes().begin(), record->tree.nodes().end(),
                                               [&](const mcts::Node &n) { return n.iterationCreated <= viewer.view()->iteration(); })));
}

void TestMctsViewer::mainWindowAndLanguage()
{
    QTemporaryDir dir;
    writeRecord(dir.filePath("a.json"), handRecord());
    writeText(dir.filePath("bad.json"), "{\n  \"mcts_tree\": {\n    \"q\": 0,,\n");
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openSearchTrees(dir.filePath("a.json"), &error), qPrintable(error));
    MctsViewer *trees = w.searchTrees();
    QVERIFY(trees->isWindow());
    QVERIFY(trees->isVisible());
    QCOMPARE(trees->windowTitle(), QString("Search trees — a.json"));
    QCOMPARE(trees->view()->record()->questionId, std::string("test-000001"));
    // A bad file: false, the message naming the file and line, shown in the viewer.
    QVERIFY(!w.openSearchTrees(dir.filePath("bad.json"), &error));
    QVERIFY2(error.contains("bad.json:3: not valid JSON"), qPrintable(error));
    QVERIFY(!trees->errorLabel()->isHidden());
    QVERIFY(trees->isVisible());

    // Switching the language retranslates the viewer (its strings are in the .ts).
    QVERIFY(w.openSearchTrees(dir.filePath("a.json"), &error));
    lang.setChoice("ja");
    const QString follow = QCoreApplication::translate("rwb::widgets::MctsViewer", "Follow");
    QVERIFY(follow != "Follow");
    QTRY_COMPARE(trees->followBox()->text(), follow);
    QCOMPARE(trees->view()->nodeToolTip(kA).section('\n', 0, 0),
             QCoreApplication::translate("rwb::widgets::MctsTreeView", "Node #%1 · depth %2 · created at iteration %3")
                 .arg(kA)
                 .arg(1)
                 .arg(1));
    QVERIFY(trees->detail()->plainText().contains(QCoreApplication::translate("rwb::widgets::MctsNodeDetail", "This step")));
    lang.setChoice("en");
    QTRY_COMPARE(trees->followBox()->text(), QString("Follow"));
}

void TestMctsViewer::writeDemoRecords()
{
    const QString dir = qEnvironmentVariable("RWB_MCTS_DEMO_DIR");
    if (dir.isEmpty())
        QSKIP("RWB_MCTS_DEMO_DIR is not set");
    QVERIFY(QDir().mkpath(dir));
    writeRecord(QDir(dir).filePath("hand.json"), handRecord());
    writeRecord(QDir(dir).filePath("synthetic-300.json"), widgets::syntheticSearchRecord(300, 2));
    writeRecord(QDir(dir).filePath("synthetic-5000.json"), widgets::syntheticSearchRecord(5000, 1));
    // And the 300-node tree exported whole, as PNG and SVG, to look at.
    MctsTreeView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setRecord(std::make_shared<const mcts::SearchRecord>(widgets::syntheticSearchRecord(300, 2)));
    view.setIteration(60);
    QString error;
    QVERIFY2(view.exportImage(QDir(dir).filePath("synthetic-300.png"), MctsTreeView::ExportScope::Whole, &error),
             qPrintable(error));
    QVERIFY2(view.exportImage(QDir(dir).filePath("synthetic-300.svg"), MctsTreeView::ExportScope::Whole, &error),
             qPrintable(error));
}

QTEST_MAIN(TestMctsViewer)
#include "tst_mctsviewer.moc"
