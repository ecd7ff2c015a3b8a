// widgets/JudgeDecisionView and JudgeDecisionDetailView, offscreen, on the hand-worked
// judge run of tests/judgestore.h: the first call shown once the worker has read them, its
// reply's JSON highlighted exactly (the verdict's span is in bytes of a reply that starts
// with Japanese text), ← / → on the list, Alt+← / Alt+→ from the detail and the buttons
// walking the filtered list, the filter bar, a click on a confusion-matrix cell listing
// the calls behind it, the agreement figures shown, one rollout's calls, the rubric items
// with their total (None when an item has no verdict), the prompt messages, the rollout
// judged and its link.
//
// With RWB_JUDGE_DEMO_STORE=<path>, demoStore writes the screenshots' store (the larger
// demo run of judgestore.h; RWB_JUDGE_DEMO_STEPS steps, 6 by default) there and nothing
// else is checked; otherwise it is skipped.
#include "judgedecisiondetailview.h"
#include "runsessions.h"
#include "judgedecisionfilter.h"
#include "judgedecisionmodel.h"
#include "judgedecisionview.h"
#include "judgestore.h"
#include "store/runstore.h"
#include "testtime.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QtTest>

using namespace rwb;
using rwb::widgets::JudgeDecisionDetailView;
using rwb::widgets::JudgeDecisionFilter;
using rwb::widgets::JudgeDecisionModel;
using rwb::widgets::JudgeDecisionView;

namespace {

// The text of every fragment of `doc` whose background is `colour`, blocks joined by '\n'.
QStringList highlighted(const QTextDocument *doc, const QColor &colour)
{
    QStringList out;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().background().style() != Qt::NoBrush &&
                it.fragment().charFormat().background().color() == colour)
                out << it.fragment().text();
    return out;
}

bool openAndWait(JudgeDecisionView &view, const QString &path, qint64 run)
{
    QSignalSpy finished(view.model(), &JudgeDecisionModel::loadingFinished);
    if (!rwbtest::showRun(view, path, run))
        return false;
    return finished.wait(rwbtest::scaledMs(20000));
}

} // namespace

class TestJudgeDecisionView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void utf16Range();
    void showsTheFirstCallWithItsSpanHighlighted();
    void walksTheFilteredList();
    void filterBar();
    void matrixCellFilters();
    void oneRollout();
    void rubricItems();
    void rolloutJudged();
    void badRun();
    void demoStore();

private:
    QTemporaryDir m_dir;
    QString m_path;
    qint64 m_run = 0;
};

void TestJudgeDecisionView::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.path() + "/runs.sqlite";
    store::RunStore s(m_path.toStdString());
    m_run = rwbtest::writeKnownJudgeRun(s, RWB_RESOURCES_DIR);
}

void TestJudgeDecisionView::utf16Range()
{
    // "判定" (3 bytes each, 1 UTF-16 unit each), "😀" (4 bytes, 2 units), then "{}".
    const std::string s = "判定😀{}";
    QCOMPARE(JudgeDecisionDetailView::utf16Range(s, 10, 12), std::make_pair(qsizetype(4), qsizetype(6)));
    QCOMPARE(JudgeDecisionDetailView::utf16Range(s, 0, 3), std::make_pair(qsizetype(0), qsizetype(1)));
    QCOMPARE(JudgeDecisionDetailView::utf16Range(s, 6, 10), std::make_pair(qsizetype(2), qsizetype(4))); // the emoji
    // Inside a character: back to its first byte; past the end: clamped.
    QCOMPARE(JudgeDecisionDetailView::utf16Range(s, 4, 99), std::make_pair(qsizetype(1), qsizetype(6)));
    QCOMPARE(JudgeDecisionDetailView::utf16Range(s, 5, 5), std::make_pair(qsizetype(0), qsizetype(0)));
    QCOMPARE(JudgeDecisionDetailView::utf16Range(s, -1, 4), std::make_pair(qsizetype(0), qsizetype(0)));
}

void TestJudgeDecisionView::showsTheFirstCallWithItsSpanHighlighted()
{
    JudgeDecisionView view;
    QAbstractItemModelTester tester(view.filter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openAndWait(view, m_path, m_run));
    QTRY_COMPARE(view.currentDecisionId(), qint64(1));
    QCOMPARE(view.countLabel()->text(), QString("21 calls"));
    QVERIFY(view.detail()->hasDecision());

    // The reply of decision 1 is "回答を評価します。\n```json\n{…}\n```": its verdict's span
    // is in bytes, so the object starts 36 bytes in but 18 UTF-16 units in.
    const store::StoredJudgeDecision &d = view.detail()->content().decision;
    const auto span = nlohmann::json::parse(d.decision.verdict).at("span");
    const size_t begin = span.at("begin"), end = span.at("end");
    QCOMPARE(span.at("form").get<std::string>(), std::string("fenced"));
    QCOMPARE(begin, size_t(36));
    const QString object = QString::fromStdString(d.decision.reply.substr(begin, end - begin));
    QVERIFY(object.startsWith('{') && object.endsWith('}'));
    QCOMPARE(highlighted(view.detail()->browser()->document(), QColor(JudgeDecisionDetailView::kSpanColour)),
             QStringList({object}));
    const QString text = view.detail()->plainText();
    QVERIFY(text.contains("回答を評価します。"));
    QVERIFY(text.contains(QString("bytes 36–%1, in a code fence").arg(end)));
    // The parsed fields, the agreement with the grader, the prompt messages.
    QVERIFY(text.contains("coverage_thought"));
    QVERIFY(text.contains("Reference grader: coverage 1 (full) — the judge agrees (full)"));
    QVERIFY(text.contains("System"));
    QVERIFY(text.contains("User"));
    QVERIFY(text.contains("綿雲製造業者が代表者を変更したときは"));
    QVERIFY(text.contains("response_format json_schema (legal_coverage_contradiction)"));
}

void TestJudgeDecisionView::walksTheFilteredList()
{
    JudgeDecisionView view;
    view.resize(1400, 800);
    view.show();
    view.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    QVERIFY(openAndWait(view, m_path, m_run));
    QTRY_COMPARE(view.currentDecisionId(), qint64(1));
    view.table()->setFocus();
    QTest::keyClick(view.table(), Qt::Key_Right);
    QCOMPARE(view.currentDecisionId(), qint64(2));
    QTest::keyClick(view.table(), Qt::Key_Right);
    QCOMPARE(view.currentDecisionId(), qint64(3));
    QTest::keyClick(view.table(), Qt::Key_Left);
    QCOMPARE(view.currentDecisionId(), qint64(2));
    // Alt+→ / Alt+← from the detail pane.
    view.detail()->browser()->setFocus();
    QTest::keyClick(view.detail()->browser(), Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(view.currentDecisionId(), qint64(3));
    QTest::keyClick(view.detail()->browser(), Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(view.currentDecisionId(), qint64(2));
    // The buttons, on a filtered list: coverage only (1, 6, 11, …).
    view.rewardCombo()->setCurrentText("coverage");
    QCOMPARE(view.filter()->rowCount(), 7);
    auto *next = view.findChild<QPushButton *>("nextDecision");
    auto *previous = view.findChild<QPushButton *>("previousDecision");
    QVERIFY(next && previous);
    view.selectDecision(1);
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(view.currentDecisionId(), qint64(6));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(view.currentDecisionId(), qint64(11));
    QTest::mouseClick(previous, Qt::LeftButton);
    QCOMPARE(view.currentDecisionId(), qint64(6));
    // The last row stays the last.
    view.selectDecision(21);
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(view.currentDecisionId(), qint64(21));
    QCOMPARE(view.countLabel()->text(), QString("7 of 21 calls"));
}

void TestJudgeDecisionView::filterBar()
{
    JudgeDecisionView view;
    QVERIFY(openAndWait(view, m_path, m_run));
    QTRY_VERIFY(view.rewardCombo()->count() == 5); // all + four rewards
    view.failuresCombo()->setCurrentIndex(2); // call failures
    QCOMPARE(view.filter()->rowCount(), 1);
    view.failuresCombo()->setCurrentIndex(3); // parse failures
    QCOMPARE(view.filter()->rowCount(), 2);
    view.failuresCombo()->setCurrentIndex(0);
    view.cacheCombo()->setCurrentIndex(1); // hits only
    QCOMPARE(view.filter()->rowCount(), 6);
    view.cacheCombo()->setCurrentIndex(0);
    view.latencySpin()->setValue(3.0); // 3.0 s, 3.5 s and the 90.5 s timeout
    QCOMPARE(view.filter()->rowCount(), 3);
    view.latencySpin()->setValue(0.0);
    view.textEdit()->setText("None");
    QTest::keyClick(view.textEdit(), Qt::Key_Return);
    QCOMPARE(view.filter()->rowCount(), 5);
    view.clearFilters();
    QCOMPARE(view.filter()->rowCount(), 21);
}

void TestJudgeDecisionView::matrixCellFilters()
{
    JudgeDecisionView view;
    view.resize(1400, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(openAndWait(view, m_path, m_run));
    QTRY_VERIFY(view.agreementTable("coverage") != nullptr);
    QVERIFY(view.agreementTable("consistency") != nullptr);
    QVERIFY(view.agreementTable("likert_simple") == nullptr);
    QTableView *matrix = view.agreementTable("coverage");
    QVERIFY(matrix->isVisible());
    const QString summary = view.agreementSummary("coverage")->text();
    QVERIFY2(summary.contains("Agreement <b>80.0%</b> of 5 · macro F1 0.82"), qPrintable(summary));
    QVERIFY(summary.contains("1 without a verdict (None)"));
    QVERIFY(summary.contains("1 without a reference grade"));
    QVERIFY(view.agreementSummary("consistency")->text().contains("Agreement <b>75.0%</b> of 4"));

    // Grader partial (row 1), judge full (column 2): rollout 2's coverage call.
    const QModelIndex cell = matrix->model()->index(1, 2);
    QCOMPARE(cell.data().toInt(), 1);
    QTest::mouseClick(matrix->viewport(), Qt::LeftButton, {}, matrix->visualRect(cell).center());
    QCOMPARE(view.filter()->rowCount(), 1);
    QCOMPARE(view.currentDecisionId(), qint64(6));
    QVERIFY(view.scopeLabel()->isVisible());
    QVERIFY(view.scopeLabel()->text().contains("grader partial and judge full"));
    QVERIFY(view.detail()->plainText().contains("the judge disagrees: full"));
    // A total cell: everything the judge called full that was graded.
    const QModelIndex total = matrix->model()->index(3, 2);
    QTest::mouseClick(matrix->viewport(), Qt::LeftButton, {}, matrix->visualRect(total).center());
    QCOMPARE(view.filter()->rowCount(), 3);
    // "show all" clears it.
    Q_EMIT view.scopeLabel()->linkActivated("#clear-cell");
    QCOMPARE(view.filter()->rowCount(), 21);
    QVERIFY(!view.scopeLabel()->isVisible());
}

void TestJudgeDecisionView::oneRollout()
{
    JudgeDecisionView view;
    QVERIFY(openAndWait(view, m_path, m_run));
    view.showRollout(2);
    QCOMPARE(view.filter()->rowCount(), 5);
    QCOMPARE(view.currentDecisionId(), qint64(6));
    QVERIFY(view.scopeLabel()->text().contains("rollout 2"));
    // Asked before the decisions are read: the first of them once they come.
    JudgeDecisionView early;
    QSignalSpy finished(early.model(), &JudgeDecisionModel::loadingFinished);
    QVERIFY(rwbtest::showRun(early, m_path, m_run));
    early.showRollout(4);
    QVERIFY(finished.wait(rwbtest::scaledMs(20000)));
    QTRY_COMPARE(early.currentDecisionId(), qint64(14));
    QCOMPARE(early.filter()->rowCount(), 3);
}

void TestJudgeDecisionView::rubricItems()
{
    JudgeDecisionView view;
    QVERIFY(openAndWait(view, m_path, m_run));
    // Rollout 1, per item: met (3), met (2), pitfall not met (−2): 3/5 + 2/5 = 1.
    view.selectDecision(4);
    QString text = view.detail()->plainText();
    QVERIFY(text.contains("Rubric items"));
    QVERIFY(text.contains("States deadline: 14日以内"));
    QVERIFY(text.contains("essential"));
    QVERIFY(text.contains("pitfall"));
    QVERIFY(text.contains("0.600")); // the first item's contribution
    QVERIFY(text.contains("0.400"));
    QVERIFY2(text.contains("Total (Σ of the items' contributions, clamped to 0–1)\n1.000"), qPrintable(text));
    // Rollout 2: the first item's call timed out — no total.
    view.selectDecision(8);
    text = view.detail()->plainText();
    QVERIFY(text.contains("The call failed, so the reward is None for this rollout"));
    QVERIFY(text.contains("timed out after 3 attempts"));
    QVERIFY(text.contains("No reply: the call failed."));
    QVERIFY(text.contains("None: an item has no verdict"));
    // Rollout 3, all items in one call: authority (2/5) and pitfall (−2/5) met → 0.
    view.selectDecision(13);
    text = view.detail()->plainText();
    QVERIFY(text.contains("✓ met"));
    QVERIFY(text.contains("✗ not met"));
    QVERIFY(text.contains("-0.400"));
    QVERIFY(text.contains("clamped to 0–1)\n0.000"));
}

void TestJudgeDecisionView::rolloutJudged()
{
    JudgeDecisionView view;
    QVERIFY(openAndWait(view, m_path, m_run));
    view.selectDecision(17); // rollout 5's unreadable reply
    const QString text = view.detail()->plainText();
    QVERIFY(text.contains("The reply could not be read, so the reward is None for this rollout"));
    QVERIFY(text.contains("The answer seems fine to me."));
    QVERIFY(text.contains("The rollout judged"));
    QVERIFY(text.contains("14日以内に気象資材局長へ届け出ます。"));
    QVERIFY2(text.contains("None (consistency None, coverage None)"), qPrintable(text));
    QSignalSpy requested(&view, &JudgeDecisionView::rolloutRequested);
    Q_EMIT view.detail()->browser()->anchorClicked(QUrl("#rollout"));
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.first().first().toLongLong(), qint64(5));
    // The evaluation's call: the prediction judged.
    view.selectDecision(21);
    QVERIFY(view.detail()->plainText().contains("The evaluation prediction judged"));
    QVERIFY(view.detail()->plainText().contains("evaluation example q01-c1"));
}

void TestJudgeDecisionView::badRun()
{
    JudgeDecisionView view;
    QString error;
    QVERIFY(!rwbtest::showRun(view, m_path, 42, &error));
    QVERIFY(error.contains("run 42"));
    QVERIFY(!rwbtest::showRun(view, m_dir.path() + "/nothing.sqlite", 1, &error));
    QVERIFY(error.contains("nothing.sqlite"));
}

void TestJudgeDecisionView::demoStore()
{
    const QByteArray path = qgetenv("RWB_JUDGE_DEMO_STORE");
    if (path.isEmpty())
        QSKIP("RWB_JUDGE_DEMO_STORE is not set");
    QFile::remove(QString::fromLocal8Bit(path));
    store::RunStore s(path.toStdString());
    const int steps = qEnvironmentVariableIntValue("RWB_JUDGE_DEMO_STEPS");
    const qint64 run = rwbtest::writeDemoJudgeRun(s, RWB_RESOURCES_DIR, steps > 0 ? steps : 6);
    qInfo("wrote run %lld to %s", static_cast<long long>(run), path.constData());
}

QTEST_MAIN(TestJudgeDecisionView)
#include "tst_judgedecisionview.moc"
