// The annotation view for preference pairs (widgets/preferenceannotator.h), driven by key
// presses offscreen: label, reason, undo, skip, the queue's filters, the agreement matrix
// and its filter, several annotators in one store, the guidelines file, the step diff;
// the queue and matrix models under QAbstractItemModelTester; the tree viewer's "compare
// with" opening the view on a new manual pair.
#include "agreementmatrixmodel.h"
#include "languagemanager.h"
#include "mainwindow.h"
#include "mctssiblingsview.h"
#include "mctsviewer.h"
#include "pairqueuemodel.h"
#include "preferenceannotator.h"
#include "rolloutdetailview.h"
#include "stepdiff.h"

#include "mcts/searchrecord.h"
#include "prm/agreement.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolButton>
#include <QtTest>

#include <cmath>

using namespace rwb;
using namespace rwb::widgets;
using prm::Choice;

namespace {

const char *kStepGood = "<step>Find where Ann works.</step><subquery>Ann employer</subquery><retrieval>Ann works at "
                        "Kite Foods.</retrieval><subanswer>Ann works at Kite Foods.</subanswer>";
const char *kStepBad = "<step>Find where Ann works.</step><subquery>Ann employer</subquery><retrieval>Ann works at "
                       "Kite Foods.</retrieval><subanswer>Ann works at Kite Books.</subanswer>";

// Four pairs of one set: tree labels A A B B; a judge's A B B B.
void makeStore(const std::string &path)
{
    store::RunStore s(path);
    std::vector<prm::StepPair> pairs;
    for (int i = 0; i < 4; ++i) {
        prm::StepPair p;
        p.set = "demo";
        p.questionId = "q" + std::to_string(i % 2);
        p.question = i % 2 ? "Where was Bo born?" : "Who founded Ann's employer?";
        if (i >= 2)
            p.history = {kStepGood};
        p.stepA = i == 1 ? kStepBad : kStepGood;
        p.stepB = i == 1 ? kStepGood : kStepBad;
        p.stepB += std::to_string(i); // distinct pairs
        p.valueA = 0.8;
        p.valueB = 0.2;
        p.visitsA = 4;
        p.visitsB = 2;
        pairs.push_back(p);
    }
    s.addPairs(pairs);
    std::vector<prm::Label> labels;
    const char *tree = "AABB", *judge = "ABBB";
    for (int i = 0; i < 4; ++i) {
        prm::Label t;
        t.pairId = pairs[static_cast<size_t>(i)].id;
        t.source = prm::Source::Tree;
        t.annotator = "tree";
        t.choice = tree[i] == 'A' ? Choice::A : Choice::B;
        labels.push_back(t);
        prm::Label j = t;
        j.source = prm::Source::Judge;
        j.annotator = "m";
        j.choice = judge[i] == 'A' ? Choice::A : Choice::B;
        j.reason = "judge reason " + std::to_string(i);
        labels.push_back(j);
    }
    s.setLabels(labels);
}

// The row of a rater in the matrix.
int raterRow(const AgreementMatrixModel &m, const QString &rater)
{
    for (int i = 0; i < m.rowCount(); ++i)
        if (m.rater(i) == rater)
            return i;
    return -1;
}

} // namespace

class TestPreferenceAnnotator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void diffMarksWhatDiffers()
    {
        const TextDiff d = diffTexts(QStringLiteral("Kite Foods"), QStringLiteral("Kite Books"));
        // LCS "Kite oos": F/o changed on one side, B/o… on the other.
        QString firstChanged, secondChanged;
        for (const DiffSpan &s : d.first)
            if (s.changed)
                firstChanged += s.text;
        for (const DiffSpan &s : d.second)
            if (s.changed)
                secondChanged += s.text;
        QCOMPARE(firstChanged, QStringLiteral("Fd"));
        QCOMPARE(secondChanged, QStringLiteral("Bk"));
        const TextDiff same = diffTexts(QStringLiteral("同じ"), QStringLiteral("同じ"));
        QCOMPARE(same.first.size(), size_t(1));
        QVERIFY(!same.first[0].changed);
        // Japanese by code point: 翠光書房 vs 翠光食品 differ in the last two characters.
        const TextDiff ja = diffTexts(QStringLiteral("翠光書房"), QStringLiteral("翠光食品"));
        QCOMPARE(ja.first.size(), size_t(2));
        QCOMPARE(ja.first[1].text, QStringLiteral("書房"));
        QVERIFY(ja.first[1].changed);
        // The step's HTML marks only the sub-answer's difference.
        const QString html = stepBlockHtml(kStepBad, kStepGood, true);
        QVERIFY(html.contains(QStringLiteral("&lt;subanswer&gt;")));
        QCOMPARE(html.count(QStringLiteral("background:#ffd966")), 2); // "B" and "k"
    }

    void labelsUndoSkipAndFilterByKeys()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
        makeStore(path.toStdString());
        PreferenceAnnotator view;
        QAbstractItemModelTester queueTester(view.queue(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester filterTester(view.filter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester matrixTester(view.matrix(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(view.open(path));
        QCOMPARE(view.set(), QStringLiteral("demo"));
        view.setAnnotator(QStringLiteral("ann"));
        view.resize(1500, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.queue()->rowCount(), 4);
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("0 of 4 labelled by you"));
        const qint64 first = view.currentPair();
        QVERIFY(first > 0);
        QVERIFY(view.stepBBrowser()->toPlainText().contains(QStringLiteral("Kite Books")));
        QVERIFY(view.historyToggle()->text().contains(QStringLiteral("0 step")));
        QVERIFY(view.othersLabel()->text().contains(QStringLiteral("judge reason 0")));
        // Tree vs judge before any person: 3 of 4 agree; κ = (0.75 − 0.5) / 0.5 = 0.5 (shares
        // tree A .5 B .5, judge A .25 B .75: p_e = .125 + .375 = .5).
        const AgreementMatrixModel &m = *view.matrix();
        QCOMPARE(m.rowCount(), 2);
        const int tree = raterRow(m, QStringLiteral("tree")), judge = raterRow(m, QStringLiteral("judge: m"));
        QVERIFY(std::abs(m.table().matrix[size_t(tree)][size_t(judge)].kappa - 0.5) < 1e-12);
        QCOMPARE(m.index(tree, judge).data().toString(), QStringLiteral("75 % · κ 0.50\n4 pair(s)"));

        // A with a reason: written to the store under ann, the queue moves on.
        view.queueView()->setFocus();
        view.reasonEdit()->setText(QStringLiteral("the sub-answer copies the passage"));
        QTest::keyClick(view.queueView(), Qt::Key_A);
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("1 of 4 labelled by you"));
        QVERIFY(view.currentPair() != first);
        QVERIFY(view.reasonEdit()->text().isEmpty());
        {
            const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
            const auto labels = s.labels("demo");
            const auto it = std::find_if(labels.begin(), labels.end(),
                                         [](const prm::Label &l) { return l.source == prm::Source::Human; });
            QVERIFY(it != labels.end());
            QCOMPARE(it->annotator, std::string("ann"));
            QCOMPARE(it->pairId, first);
            QCOMPARE(it->choice, Choice::A);
            QCOMPARE(it->reason, std::string("the sub-answer copies the passage"));
            QVERIFY(!it->created.empty());
        }
        // Letters typed in the reason field are text, not keys.
        view.reasonEdit()->setFocus();
        QTest::keyClicks(view.reasonEdit(), QStringLiteral("bat"));
        QCOMPARE(view.reasonEdit()->text(), QStringLiteral("bat"));
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("1 of 4 labelled by you"));
        view.reasonEdit()->clear();
        QTest::keyClick(view.reasonEdit(), Qt::Key_Return); // back to the keys
        QVERIFY(!view.reasonEdit()->hasFocus());

        // B on the second pair, then undo: the label goes, the view is back on that pair.
        const qint64 second = view.currentPair();
        QTest::keyClick(view.queueView(), Qt::Key_B);
        QCOMPARE(view.queue()->mine(second)->choice, Choice::B);
        QTest::keyClick(view.queueView(), Qt::Key_U);
        QCOMPARE(view.currentPair(), second);
        QVERIFY(view.queue()->mine(second) == nullptr);
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("1 of 4 labelled by you"));
        {
            const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
            int human = 0;
            for (const prm::Label &l : s.labels("demo"))
                human += l.source == prm::Source::Human ? 1 : 0;
            QCOMPARE(human, 1);
        }
        // Skip labels nothing but counts as seen; T is a tie.
        QTest::keyClick(view.queueView(), Qt::Key_S);
        QCOMPARE(view.queue()->mine(second)->choice, Choice::Skip);
        const qint64 third = view.currentPair();
        QTest::keyClick(view.queueView(), Qt::Key_T);
        QCOMPARE(view.queue()->mine(third)->choice, Choice::Tie);
        // Undo twice: the tie and the skip go, in that order.
        QTest::keyClick(view.queueView(), Qt::Key_U);
        QVERIFY(view.queue()->mine(third) == nullptr);
        QTest::keyClick(view.queueView(), Qt::Key_U);
        QVERIFY(view.queue()->mine(second) == nullptr);
        // ← / → move through the queue.
        QCOMPARE(view.currentPair(), second);
        QTest::keyClick(view.queueView(), Qt::Key_Left);
        QCOMPARE(view.currentPair(), first);
        QTest::keyClick(view.queueView(), Qt::Key_Right);
        QCOMPARE(view.currentPair(), second);

        // The "unlabelled by you" filter: three pairs; labelling one leaves two and keeps
        // the place in the queue.
        view.modeBox()->setCurrentIndex(1);
        QCOMPARE(view.filter()->rowCount(), 3);
        QTest::keyClick(view.queueView(), Qt::Key_B); // the first unlabelled: the second pair
        QCOMPARE(view.filter()->rowCount(), 2);
        QCOMPARE(view.currentPair(), third);
        // Disagreements: pairs whose labels differ (pair 2: tree A, judge B, ann B).
        view.modeBox()->setCurrentIndex(2);
        QCOMPARE(view.filter()->rowCount(), 1);
        QCOMPARE(view.filter()->index(0, 0).data(PairQueueModel::PairIdRole).toLongLong(), second);
        view.modeBox()->setCurrentIndex(0);
        // By question.
        view.questionFilter()->setText(QStringLiteral("Bo born"));
        QCOMPARE(view.filter()->rowCount(), 2);
        view.questionFilter()->clear();

        // A second annotator in the same store: bob's labels beside ann's.
        view.setAnnotator(QStringLiteral("bob"));
        QCOMPARE(view.progressLabel()->text(), QStringLiteral("0 of 4 labelled by you"));
        QVERIFY(view.showPair(first));
        QTest::keyClick(view.queueView(), Qt::Key_B); // disagrees with ann's A
        QTest::keyClick(view.queueView(), Qt::Key_B); // pair 2: agrees with ann's B
        // The matrix: tree, judge, ann, bob, people (majority); ann vs bob 1 of 2, κ 0
        // (ann A B, bob B B: p_o .5; p_e = .5·1 + .5·0... = .5: κ 0).
        QCOMPARE(m.rowCount(), 5);
        const int ann = raterRow(m, QStringLiteral("human: ann")), bob = raterRow(m, QStringLiteral("human: bob"));
        QVERIFY(ann >= 0 && bob >= 0);
        const prm::PairwiseAgreement ab = m.table().matrix[size_t(ann)][size_t(bob)];
        QCOMPARE(ab.n, size_t(2));
        QCOMPARE(ab.agree, size_t(1));
        QVERIFY(std::abs(ab.kappa) < 1e-12);
        QCOMPARE(m.headerData(ann, Qt::Horizontal).toString(), QStringLiteral("ann"));
        QVERIFY(view.alphaLabel()->text().contains(QStringLiteral("2 pairs labelled by two or more")));
        // Clicking the ann × bob cell: the queue lists the pair they disagree on.
        const QRect cell = view.matrixView()->visualRect(m.index(ann, bob));
        QTest::mouseClick(view.matrixView()->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(view.filter()->rowCount(), 1);
        QCOMPARE(view.currentPair(), first);
        QVERIFY(view.raterFilterLabel()->text().contains(QStringLiteral("ann and bob disagree")));
        view.clearRaterFilter();
        QCOMPARE(view.filter()->rowCount(), 4);
        // The queue's columns for the first pair.
        const int row = view.queue()->rowOf(first);
        QCOMPARE(view.queue()->index(row, PairQueueModel::TreeColumn).data().toString(), QStringLiteral("A"));
        QCOMPARE(view.queue()->index(row, PairQueueModel::MineColumn).data().toString(), QStringLiteral("B"));
        QCOMPARE(view.queue()->index(row, PairQueueModel::PeopleColumn).data().toInt(), 2);
        QCOMPARE(view.queue()->index(row, PairQueueModel::StatusColumn).data().toString(), QStringLiteral("disagree"));

        // Undo takes back the label of whoever gave it, not the annotator's now: ann labels
        // the fourth pair, bob takes over, U removes ann's label and leaves bob's.
        view.setAnnotator(QStringLiteral("ann"));
        const qint64 fourth = view.queue()->pair(3).id;
        QVERIFY(view.showPair(fourth));
        QTest::keyClick(view.queueView(), Qt::Key_A);
        QCOMPARE(view.queue()->mine(fourth)->choice, Choice::A);
        view.setAnnotator(QStringLiteral("bob"));
        const prm::Label bobFirst = *view.queue()->mine(first);
        QTest::keyClick(view.queueView(), Qt::Key_U);
        view.setAnnotator(QStringLiteral("ann"));
        QVERIFY(view.queue()->mine(fourth) == nullptr);
        view.setAnnotator(QStringLiteral("bob"));
        QCOMPARE(view.queue()->mine(first)->choice, bobFirst.choice);
        // A view opened afterwards reads every label back.
        PreferenceAnnotator again;
        QVERIFY(again.open(path, QStringLiteral("demo")));
        QCOMPARE(again.matrix()->rowCount(), 5);
    }

    void guidelinesAndErrors()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
        makeStore(path.toStdString());
        PreferenceAnnotator view;
        QVERIFY(view.open(path));
        QCOMPARE(view.guidelinesPath(), dir.filePath(QStringLiteral("annotation-guidelines.md")));
        QVERIFY(view.guidelinesEdit()->toPlainText().startsWith(QStringLiteral("# Guidelines")));
        view.guidelinesEdit()->setPlainText(QStringLiteral("# Ours\nPrefer grounded sub-answers.\n"));
        QVERIFY(view.saveGuidelines());
        PreferenceAnnotator other;
        QVERIFY(other.open(path));
        QCOMPARE(other.guidelinesEdit()->toPlainText(), QStringLiteral("# Ours\nPrefer grounded sub-answers.\n"));
        // A set that does not exist, a store without pairs: named, nothing shown.
        QString error;
        QVERIFY(!view.open(path, QStringLiteral("nope"), &error));
        QVERIFY2(error.contains(QStringLiteral("no pair set \"nope\"")), qPrintable(error));
        QVERIFY(view.errorLabel()->isVisibleTo(&view));
        const QString empty = dir.filePath(QStringLiteral("empty.sqlite"));
        { store::RunStore s(empty.toStdString()); }
        QVERIFY(!view.open(empty, {}, &error));
        QVERIFY2(error.contains(QStringLiteral("rwb prm pairs")), qPrintable(error));
    }

    void rolloutDetailShowsProcessRewards()
    {
        // A dual-granularity GRPO rollout: its steps' PRM scores, step rewards and process
        // advantages, and the token advantage A_out + β·A_proc of each step.
        RolloutDetailView view;
        RolloutDetailView::Content c;
        c.rollout.rollout.advantage = 0.5;
        c.rollout.rollout.completion = kStepGood;
        c.rollout.rollout.detailsJson =
            R"({"format": "ok", "process": {"scores": [1.25, -0.5], "step_rewards": [0.777, 0.378], "advantages": [1.0, -1.0], "beta": 0.3}})";
        view.showRollout(c);
        const QString text = view.plainText();
        QVERIFY2(text.contains(QStringLiteral("Process rewards (dual-granularity GRPO)")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("1.250")));
        QVERIFY(text.contains(QStringLiteral("0.800"))); // 0.5 + 0.3 · 1
        QVERIFY(text.contains(QStringLiteral("0.200"))); // 0.5 − 0.3
        // Without process rewards: no such section.
        c.rollout.rollout.detailsJson = R"({"format": "ok"})";
        view.showRollout(c);
        QVERIFY(!view.plainText().contains(QStringLiteral("Process rewards")));
    }

    void compareSiblingsFromTheTreeViewer()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("runs.sqlite"));
        qint64 treeId = 0;
        {
            mcts::SearchRecord r;
            r.questionId = "q1";
            r.question = "Who?";
            r.goldAnswer = "Ann";
            const int a = r.tree.addChild(0, kStepGood, 0.5, 1), b = r.tree.addChild(0, kStepBad, 0.5, 1);
            r.tree.setStatistics(a, 3, 2.4);
            r.tree.setStatistics(b, 1, 0.0);
            r.iterations.resize(0);
            store::RunStore s(path.toStdString());
            const int64_t run = s.beginRun("search", store::RunKind::Mcts, "{}", "multihop");
            treeId = s.writeMctsTree(run, r);
            s.finishRun(run, store::RunStatus::Finished);
        }
        LanguageManager lang;
        lang.setChoice("en");
        MainWindow window(&lang);
        window.annotator()->setAnnotator(QStringLiteral("ann"));
        QString error;
        QVERIFY2(window.openSearchTrees(path, &error), qPrintable(error));
        MctsViewer *trees = window.searchTrees();
        trees->selectNode(1);
        QCOMPARE(trees->siblings()->columnCount(), 2);
        // The sibling's "compare with #1" link.
        Q_EMIT trees->siblings()->compareRequested(1, 2);
        PreferenceAnnotator *a = window.annotator();
        QCOMPARE(a->set(), QStringLiteral("manual pairs"));
        QCOMPARE(a->queue()->rowCount(), 1);
        const prm::StepPair &p = a->queue()->pair(0);
        QCOMPARE(p.origin, std::string("manual"));
        QCOMPARE(p.nodeA, 1);
        QCOMPARE(p.nodeB, 2);
        QCOMPARE(p.treeId, treeId);
        QCOMPARE(a->currentPair(), p.id);
        QCOMPARE(a->queue()->index(0, PairQueueModel::TreeColumn).data().toString(), QStringLiteral("A")); // Q 0.8 vs 0
        // Comparing the same two again adds nothing.
        Q_EMIT trees->siblings()->compareRequested(1, 2);
        QCOMPARE(a->queue()->rowCount(), 1);
    }
};

QTEST_MAIN(TestPreferenceAnnotator)
#include "tst_preferenceannotator.moc"
