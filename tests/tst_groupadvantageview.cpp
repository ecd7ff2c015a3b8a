// widgets/GroupAdvantageView: opens a run at its last step, shows the step the curves'
// cursor picks, follows newly written steps only while "follow latest" is on, emits the
// stored rollout id when a sample cell is clicked, flags (greys) groups whose rewards are
// all equal, fits all G = 8 samples in the width (scrolling when too narrow) and shows the
// prompt's text. The store is written here, so every figure is known by hand.
#include "groupadvantagemodel.h"
#include "runsessions.h"
#include "groupadvantageview.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace rwb;
using rwb::widgets::GroupAdvantageModel;
using rwb::widgets::GroupAdvantageView;

namespace {

// Writes one step: group g gets rewards[g] (G = 4), advantages as the trainer would give
// them are irrelevant here, so each is reward − 0.5. Rollout ids follow the write order.
void writeStep(store::RunStore &store, int64_t run, int64_t step, const std::vector<std::vector<double>> &rewards)
{
    std::vector<store::Prompt> prompts;
    std::vector<store::Rollout> rows;
    for (size_t g = 0; g < rewards.size(); ++g) {
        const std::string id = "s" + std::to_string(step) + "p" + std::to_string(g);
        prompts.push_back({id, "prompt " + id, "gold", "{}"});
        for (size_t j = 0; j < rewards[g].size(); ++j) {
            store::Rollout r;
            r.promptId = id;
            r.groupIndex = static_cast<int>(g);
            r.sampleIndex = static_cast<int>(j);
            r.completion = "c";
            r.reward = rewards[g][j];
            r.advantage = rewards[g][j] - 0.5;
            r.completionTokens = 1;
            rows.push_back(r);
        }
    }
    store.writeStep(run, step, {{"reward", 0.0}}, rows, prompts);
}

} // namespace

class TestGroupAdvantageView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void opensAtTheLastStep();
    void showStepChangesTheTable();
    void followsOnlyWhenFollowing();
    void clickOpensTheSample();
    void flatGroupsAreFlagged();
    void everySampleAndThePrompt();
    void badRunsAreNamed();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    std::unique_ptr<store::RunStore> m_writer;
    int64_t m_run = 0;
};

void TestGroupAdvantageView::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_path = m_dir->path() + "/runs.sqlite";
    m_writer = std::make_unique<store::RunStore>(m_path.toStdString());
    m_run = m_writer->beginRun("g", store::RunKind::Grpo, "{}", "company_extraction");
    // Step 1 (ids 1–8): group 0 rewards 1, 0, 0.5, 0.5 (mean 0.5); group 1 flat at 0.3.
    writeStep(*m_writer, m_run, 1, {{1, 0, 0.5, 0.5}, {0.3, 0.3, 0.3, 0.3}});
    // Step 2 (ids 9–20): group 0 0.2 … 0.8 (mean 0.5); groups 1 and 2 flat at 1 and 0.
    writeStep(*m_writer, m_run, 2, {{0.2, 0.4, 0.6, 0.8}, {1, 1, 1, 1}, {0, 0, 0, 0}});
}

void TestGroupAdvantageView::opensAtTheLastStep()
{
    GroupAdvantageView view;
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&view, &GroupAdvantageView::stepChanged);
    QString error;
    QVERIFY2(rwbtest::showRun(view, m_path, m_run, &error), qPrintable(error));
    QCOMPARE(view.step(), qint64(2));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toLongLong(), qint64(2));
    QCOMPARE(view.table()->model(), view.model());
    QCOMPARE(view.model()->rowCount(), 3);
    QCOMPARE(view.model()->groupSize(), 4);
    QCOMPARE(view.findChild<QSpinBox *>()->minimum(), 1);
    QCOMPARE(view.findChild<QSpinBox *>()->maximum(), 2);
    // Mean reward (0.2 + 0.4 + 0.6 + 0.8 + 4 · 1 + 4 · 0) / 12 = 6 / 12 = 0.5.
    const QString summary = view.summaryText();
    QVERIFY2(summary.contains("G = 4"), qPrintable(summary));
    QVERIFY2(summary.contains("3 group(s)"), qPrintable(summary));
    QVERIFY2(summary.contains("mean reward 0.500"), qPrintable(summary));
    QVERIFY2(summary.contains("2 of 3 groups all equal — they teach nothing"), qPrintable(summary));
    view.close();
    QCOMPARE(view.model()->rowCount(), 0);
    QCOMPARE(view.step(), qint64(-1));
}

void TestGroupAdvantageView::showStepChangesTheTable()
{
    GroupAdvantageView view;
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(view, m_path, m_run));
    QSignalSpy changed(&view, &GroupAdvantageView::stepChanged);
    view.showStep(1);
    QCOMPARE(view.step(), qint64(1));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).toLongLong(), qint64(1));
    QCOMPARE(view.model()->rowCount(), 2);
    QCOMPARE(view.findChild<QSpinBox *>()->value(), 1);
    // Step 1's group 0: mean 0.5, sample 1's reward 0; group 1 flat.
    const auto value = [&](int row, int col, int role = GroupAdvantageModel::ValueRole) {
        return view.model()->index(row, col).data(role);
    };
    QCOMPARE(value(0, GroupAdvantageModel::MeanColumn).toDouble(), 0.5);
    QCOMPARE(value(0, GroupAdvantageModel::FirstSampleColumn + 1).toDouble(), 0.0);
    QCOMPARE(value(1, GroupAdvantageModel::FlatColumn).toBool(), true);
    QVERIFY(view.summaryText().contains("1 of 2 groups all equal"));
    // Choosing an older step stops following the latest.
    QVERIFY(!view.followLatest());
    // The spin box is the same chooser.
    view.findChild<QSpinBox *>()->setValue(2);
    QCOMPARE(view.step(), qint64(2));
    QCOMPARE(view.model()->rowCount(), 3);
    QCOMPARE(changed.size(), 2);
    // A step without rollouts: an empty table that says so.
    view.showStep(7);
    QCOMPARE(view.model()->rowCount(), 0);
    QVERIFY2(view.summaryText().contains("no rollouts"), qPrintable(view.summaryText()));
}

void TestGroupAdvantageView::followsOnlyWhenFollowing()
{
    GroupAdvantageView view;
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(view, m_path, m_run));
    QVERIFY(view.followLatest()); // the default
    // Step 3 (ids 21–24): one group 0, 0, 0, 1.
    writeStep(*m_writer, m_run, 3, {{0, 0, 0, 1}});
    view.stepWritten(3);
    QCOMPARE(view.step(), qint64(3));
    QCOMPARE(view.model()->rowCount(), 1);
    QCOMPARE(view.model()->index(0, GroupAdvantageModel::MeanColumn).data(GroupAdvantageModel::ValueRole).toDouble(),
             0.25);
    // Not following: the range grows, the table stays.
    view.setFollowLatest(false);
    writeStep(*m_writer, m_run, 4, {{1, 1, 0, 0}, {0, 1, 0, 1}});
    view.stepWritten(4);
    QCOMPARE(view.step(), qint64(3));
    QCOMPARE(view.lastStep(), qint64(4));
    QCOMPARE(view.findChild<QSpinBox *>()->maximum(), 4);
    QCOMPARE(view.model()->rowCount(), 1);
    // Following again jumps to the latest.
    view.setFollowLatest(true);
    QCOMPARE(view.step(), qint64(4));
    QCOMPARE(view.model()->rowCount(), 2);
    // A resumed run writes step 4 again (three groups now): read again.
    m_writer->discardAfter(m_run, 3);
    writeStep(*m_writer, m_run, 4, {{1, 1, 0, 0}, {0, 1, 0, 1}, {1, 1, 1, 1}});
    view.stepWritten(4);
    QCOMPARE(view.model()->rowCount(), 3);
    QCOMPARE(view.model()->flatGroups(), 1);
}

void TestGroupAdvantageView::clickOpensTheSample()
{
    GroupAdvantageView view;
    view.resize(1100, 400);
    QVERIFY(rwbtest::showRun(view, m_path, m_run));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy activated(&view, &GroupAdvantageView::rolloutActivated);
    QTableView *table = view.table();
    // Step 2, group 0, sample 3: the 4th row written at step 2, id 8 + 4 = 12.
    const QModelIndex sample = view.model()->index(0, GroupAdvantageModel::FirstSampleColumn + 3);
    table->scrollTo(sample);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(sample).center());
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), qint64(12));
    // Group 2, sample 0: id 8 + 2 · 4 + 1 = 17.
    const QModelIndex other = view.model()->index(2, GroupAdvantageModel::FirstSampleColumn);
    table->scrollTo(other);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(other).center());
    QCOMPARE(activated.size(), 2);
    QCOMPARE(activated.at(1).at(0).toLongLong(), qint64(17));
    // Return on the current sample opens it too: group 1, sample 2 is id 8 + 4 + 3 = 15.
    table->setFocus();
    table->setCurrentIndex(view.model()->index(1, GroupAdvantageModel::FirstSampleColumn + 2));
    QTest::keyClick(table, Qt::Key_Return);
    QCOMPARE(activated.size(), 3);
    QCOMPARE(activated.at(2).at(0).toLongLong(), qint64(15));
    activated.clear();
    // A cell that is not a sample opens nothing.
    const QModelIndex mean = view.model()->index(0, GroupAdvantageModel::MeanColumn);
    table->scrollTo(mean);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(mean).center());
    QCOMPARE(activated.size(), 0);
}

void TestGroupAdvantageView::flatGroupsAreFlagged()
{
    GroupAdvantageView view;
    view.resize(1100, 400);
    QVERIFY(rwbtest::showRun(view, m_path, m_run));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const GroupAdvantageModel *m = view.model();
    QCOMPARE(m->flatGroups(), 2);
    QCOMPARE(m->index(0, GroupAdvantageModel::FlatColumn).data(GroupAdvantageModel::ValueRole).toBool(), false);
    QCOMPARE(m->index(1, GroupAdvantageModel::FlatColumn).data(GroupAdvantageModel::ValueRole).toBool(), true);
    QCOMPARE(m->index(2, GroupAdvantageModel::FlatColumn).data(Qt::DisplayRole).toString(), QString("all equal"));
    // Drawn greyed: a flat row's Prompt cell (right edge, away from its text) has the
    // disabled window colour; the first group's has the table's base colour.
    QTableView *table = view.table();
    const QImage image = table->viewport()->grab().toImage();
    const QColor grey = table->palette().color(QPalette::Disabled, QPalette::Window);
    const QColor base = table->palette().color(QPalette::Active, QPalette::Base);
    QVERIFY(grey != base);
    auto pixel = [&](int row) {
        const QRect r = table->visualRect(m->index(row, GroupAdvantageModel::PromptColumn));
        return image.pixelColor(QPoint(r.right() - 4, r.center().y()) * image.devicePixelRatio());
    };
    QCOMPARE(pixel(1), grey);
    QCOMPARE(pixel(2), grey);
    QCOMPARE(pixel(0), base);
}

// G = 8: every sample on screen in a table 900 px wide (the groups tab of a 1280 px
// window is wider), narrower cells giving the reward alone; sideways scrolling when even
// those do not fit. The prompt as text from the line where the prompts differ, whole in
// its tooltip.
void TestGroupAdvantageView::everySampleAndThePrompt()
{
    std::vector<store::Prompt> prompts;
    std::vector<store::Rollout> rows;
    for (int g = 0; g < 3; ++g) {
        const std::string id = "s5p" + std::to_string(g);
        prompts.push_back({id, "Extract the company of the sender.\nFrom: s" + std::to_string(g) +
                                   "@example.com\nBody of e-mail " + std::to_string(g) + "\n", "gold", "{}"});
        for (int j = 0; j < 8; ++j) {
            store::Rollout r;
            r.promptId = id;
            r.groupIndex = g;
            r.sampleIndex = j;
            r.completion = "c";
            r.reward = j / 8.0;
            r.advantage = j / 4.0 - 0.875;
            r.completionTokens = 1;
            rows.push_back(r);
        }
    }
    m_writer->writeStep(m_run, 5, {{"reward", 0.0}}, rows, prompts);

    GroupAdvantageView view;
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(900, 400);
    QVERIFY(rwbtest::showRun(view, m_path, m_run));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.step(), qint64(5));
    const GroupAdvantageModel *m = view.model();
    QCOMPARE(m->groupSize(), 8);
    QCOMPARE(m->columnCount(), GroupAdvantageModel::FirstSampleColumn + 8);
    QTableView *table = view.table();
    const QRect viewport = table->viewport()->rect();
    for (int col = 0; col < m->columnCount(); ++col) {
        const QRect cell = table->visualRect(m->index(0, col));
        QVERIFY2(viewport.contains(cell), qPrintable(QString("column %1 at %2–%3 of %4 px")
                                                         .arg(col)
                                                         .arg(cell.left())
                                                         .arg(cell.right())
                                                         .arg(viewport.width())));
    }
    QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
    QVERIFY(table->columnWidth(GroupAdvantageModel::PromptColumn) >= 100);

    // The prompt: from the line where the three differ; id and whole text in the tooltip.
    const QModelIndex prompt = m->index(1, GroupAdvantageModel::PromptColumn);
    QCOMPARE(prompt.data().toString(), QString("… From: s1@example.com ⏎ Body of e-mail 1"));
    QCOMPARE(prompt.data(GroupAdvantageModel::ValueRole).toString(), QString("s5p1"));
    const QString tip = prompt.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains("Prompt s5p1") && tip.contains("Extract the company of the sender.<br>From: s1@example.com"),
             qPrintable(tip));

    // Too narrow for eight: the table scrolls, and the last sample scrolls into view whole.
    view.resize(500, 400);
    QCoreApplication::processEvents();
    QVERIFY(table->horizontalScrollBar()->maximum() > 0);
    const QModelIndex last = m->index(2, GroupAdvantageModel::FirstSampleColumn + 7);
    table->scrollTo(last);
    QVERIFY(table->viewport()->rect().contains(table->visualRect(last)));
    QVERIFY(table->columnWidth(GroupAdvantageModel::FirstSampleColumn + 7) >= table->fontMetrics().horizontalAdvance("0.88"));
}

void TestGroupAdvantageView::badRunsAreNamed()
{
    GroupAdvantageView view;
    QString error;
    QVERIFY(!rwbtest::showRun(view, m_path, 42, &error));
    QVERIFY2(error.contains("42") && error.contains(m_path), qPrintable(error));
    const QString missing = m_dir->path() + "/nothing.sqlite";
    QVERIFY(!rwbtest::showRun(view, missing, 1, &error));
    QVERIFY2(error.contains(missing), qPrintable(error));
    QCOMPARE(view.model()->rowCount(), 0);
    QCOMPARE(view.step(), qint64(-1));
}

QTEST_MAIN(TestGroupAdvantageView)
#include "tst_groupadvantageview.moc"
