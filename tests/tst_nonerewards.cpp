// None rewards (a judge that gave no verdict: NaN, NULL in the store, null in
// rewards_json) shown honestly wherever the workbench shows a reward, on the hand-worked
// judge run of tests/judgestore.h (rollout 5's reward and both its components are None)
// and a step written here: the translated "None" ("なし" in Japanese), the rollout table's
// reward and component cells (a component the rollout lacks stays empty), the group
// advantage model's mean and std over the other samples as the trainer computes them
// (worked out below), flat groups with fewer than two rewards, the group view's summary,
// and the rollout detail view's header, component table and "judge calls" link — with
// judge components explained from their stored decisions, never by calling the judge.
// The token view's title is checked in tst_tokenview.
#include "groupadvantagemodel.h"
#include "runsessions.h"
#include "groupadvantageview.h"
#include "judgestore.h"
#include "rewardhtml.h"
#include "rewardvalue.h"
#include "rolloutdetailview.h"
#include "rollouttablemodel.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTranslator>
#include <QUrl>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace rwb;
using rwb::widgets::GroupAdvantageModel;
using rwb::widgets::GroupAdvantageView;
using rwb::widgets::RolloutDetailView;
using rwb::widgets::RolloutTableModel;

namespace {
constexpr double kTol = 1e-12;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
} // namespace

class TestNoneRewards : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void noneText();
    void rolloutTable();
    void groupStatisticsLeaveNoneOut();
    void allNoneGroup();
    void rolloutDetail();
    void componentTable();

private:
    QTemporaryDir m_dir;
    QString m_path;
    qint64 m_run = 0;
};

void TestNoneRewards::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.path() + "/runs.sqlite";
    store::RunStore s(m_path.toStdString());
    m_run = rwbtest::writeKnownJudgeRun(s, RWB_RESOURCES_DIR);
}

void TestNoneRewards::noneText()
{
    QCOMPARE(RewardValue::noneText(), QString("None"));
    QCOMPARE(RewardValue::format(kNaN, 3), QString("None"));
    QCOMPARE(RewardValue::format(0.25, 3), QString("0.250"));
    QTranslator ja;
    QVERIFY(ja.load(":/i18n/reward-workbench_ja.qm"));
    QCoreApplication::installTranslator(&ja);
    QCOMPARE(RewardValue::noneText(), QString::fromUtf8("なし"));
    RolloutTableModel model;
    model.open(rwbtest::openSession(model, m_path, m_run)->store(), m_run);
    QCOMPARE(model.index(4, RolloutTableModel::RewardColumn).data().toString(), QString::fromUtf8("なし"));
    QCoreApplication::removeTranslator(&ja);
    QCOMPARE(RewardValue::noneText(), QString("None"));
}

void TestNoneRewards::rolloutTable()
{
    RolloutTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.open(rwbtest::openSession(model, m_path, m_run)->store(), m_run);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.componentNames(), QStringList({"coverage", "consistency", "rubric_explicit", "likert_simple"}));
    // Rollout 1: coverage 1, consistency 1, total 1. Rollout 5: None throughout.
    QCOMPARE(model.index(0, RolloutTableModel::RewardColumn).data().toString(), QString("1.000"));
    QCOMPARE(model.index(4, RolloutTableModel::RewardColumn).data().toString(), QString("None"));
    QVERIFY(std::isnan(model.index(4, RolloutTableModel::RewardColumn).data(RolloutTableModel::ValueRole).toDouble()));
    QVERIFY(model.index(4, RolloutTableModel::RewardColumn).data(Qt::ToolTipRole).toString().contains("None"));
    QVERIFY(model.index(0, RolloutTableModel::RewardColumn).data(Qt::ToolTipRole).isNull());
    for (int c = 0; c < 2; ++c) {
        QCOMPARE(model.index(4, model.componentColumn(c)).data().toString(), QString("None"));
        QVERIFY(model.componentRecorded(4, c));
        QVERIFY(std::isnan(model.componentValue(4, c)));
    }
    // Rollout 3: coverage 0.5, consistency 0 (not None: a verdict of contradiction).
    QCOMPARE(model.index(2, model.componentColumn(0)).data().toString(), QString("0.500"));
    QCOMPARE(model.index(2, model.componentColumn(1)).data().toString(), QString("0.000"));
    QCOMPARE(model.componentValue(2, 1), 0.0);
    // The rubric and Likert components weigh 0 and are not in rewards_json: empty, not None.
    QCOMPARE(model.index(0, model.componentColumn(2)).data().toString(), QString());
    QVERIFY(!model.componentRecorded(0, 2));
}

void TestNoneRewards::groupStatisticsLeaveNoneOut()
{
    store::RunStore reader(m_path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    GroupAdvantageModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.load(reader, m_run, 1);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.groupSize(), 4);
    auto value = [&](int row, int col, int role = GroupAdvantageModel::ValueRole) {
        return model.data(model.index(row, col), role);
    };
    // Group 0: rollouts 1–4, rewards (cov + cons) / 2 = 1, 0.5, 0.25, 0.5 → mean 0.5625,
    // std √((0.4375² + 0.0625² + 0.3125² + 0.0625²) / 3) = √(0.296875 / 3).
    QVERIFY(std::abs(value(0, GroupAdvantageModel::MeanColumn).toDouble() - 0.5625) < kTol);
    QVERIFY(std::abs(value(0, GroupAdvantageModel::StdColumn).toDouble() - std::sqrt(0.296875 / 3.0)) < kTol);
    // Group 1: rollout 5 (None) and 6 (0.75): over the one reward, mean 0.75, std 0, flat.
    QCOMPARE(value(1, GroupAdvantageModel::MeanColumn).toDouble(), 0.75);
    QCOMPARE(value(1, GroupAdvantageModel::StdColumn).toDouble(), 0.0);
    QCOMPARE(value(1, GroupAdvantageModel::FlatColumn).toBool(), true);
    QCOMPARE(value(1, GroupAdvantageModel::FlatColumn, Qt::DisplayRole).toString(), QString("one reward"));
    QVERIFY(value(1, GroupAdvantageModel::MeanColumn, Qt::ToolTipRole).toString().contains("None rewards are left out"));
    const int sample0 = GroupAdvantageModel::FirstSampleColumn;
    QCOMPARE(value(1, sample0, Qt::DisplayRole).toString(), QString("None (+0.00)"));
    QVERIFY(std::isnan(value(1, sample0).toDouble()));
    QVERIFY(value(1, sample0, Qt::ToolTipRole).toString().contains("left out of the group's mean and std"));
    QCOMPARE(value(1, sample0 + 1, Qt::DisplayRole).toString(), QString("0.75 (+0.00)"));
    // The step: five rewards (mean 3 / 5) and one None.
    const GroupAdvantageModel::RewardStats st = model.rewardStats();
    QCOMPARE(st.count, 5);
    QCOMPARE(st.none, 1);
    QVERIFY(std::abs(st.mean - 0.6) < kTol);
    QCOMPARE(st.min, 0.25);
    QCOMPARE(st.max, 1.0);
    QCOMPARE(model.flatGroups(), 1);

    GroupAdvantageView view;
    QVERIFY(rwbtest::showRun(view, m_path, m_run));
    view.showStep(1);
    QVERIFY2(view.summaryText().contains("mean reward 0.600"), qPrintable(view.summaryText()));
    QVERIFY(view.summaryText().contains("1 None reward (a judge gave no verdict) left out of the means."));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.grab(); // the delegate paints a None sample and a group without ±std
}

void TestNoneRewards::allNoneGroup()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/none.sqlite").toStdString();
    store::RunStore writer(path);
    const int64_t run = writer.beginRun("n", store::RunKind::Grpo, "{}", "company_extraction");
    // Group 0: None, None → no mean; group 1: 0.2, None, 0.6 → mean 0.4, std √0.08.
    const double rewards[2][3] = {{kNaN, kNaN, kNaN}, {0.2, kNaN, 0.6}};
    std::vector<store::Rollout> rows;
    for (int g = 0; g < 2; ++g)
        for (int j = 0; j < (g == 0 ? 2 : 3); ++j) {
            store::Rollout r;
            r.promptId = "p" + std::to_string(g);
            r.groupIndex = g;
            r.sampleIndex = j;
            r.completion = "c";
            r.reward = rewards[g][j];
            rows.push_back(r);
        }
    writer.writeStep(run, 1, {}, rows, {{"p0", "a", "", "{}"}, {"p1", "b", "", "{}"}});
    GroupAdvantageModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.load(writer, run, 1);
    QCOMPARE(model.index(0, GroupAdvantageModel::MeanColumn).data().toString(), QString("None"));
    QVERIFY(std::isnan(model.index(0, GroupAdvantageModel::MeanColumn).data(GroupAdvantageModel::ValueRole).toDouble()));
    QCOMPARE(model.index(0, GroupAdvantageModel::StdColumn).data().toString(), QString("0.000"));
    QCOMPARE(model.index(0, GroupAdvantageModel::FlatColumn).data().toString(), QString("all None"));
    QVERIFY(std::abs(model.index(1, GroupAdvantageModel::MeanColumn).data(GroupAdvantageModel::ValueRole).toDouble() - 0.4) < kTol);
    QVERIFY(std::abs(model.index(1, GroupAdvantageModel::StdColumn).data(GroupAdvantageModel::ValueRole).toDouble() -
                     std::sqrt(0.08)) < kTol);
    QCOMPARE(model.index(1, GroupAdvantageModel::FlatColumn).data().toString(), QString());
    QCOMPARE(model.rewardStats().count, 2);
    QCOMPARE(model.rewardStats().none, 3);
    QCOMPARE(model.flatGroups(), 1);
}

void TestNoneRewards::rolloutDetail()
{
    store::RunStore reader(m_path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    // The config names a judge at 127.0.0.1:8000 that does not exist: explaining must not
    // call it (a call would fail after retries and timeouts, and block the GUI).
    QElapsedTimer timer;
    timer.start();
    const RolloutDetailView::Content c = RolloutDetailView::load(reader, 5);
    QVERIFY(timer.elapsed() < 5000);
    QCOMPARE(c.judgeCalls, 2);
    QVERIFY2(c.problem.isEmpty(), qPrintable(c.problem));
    QCOMPARE(c.components.size(), size_t(4));
    const RolloutDetailView::Component &coverage = c.components[0];
    QCOMPARE(coverage.name, QString("coverage"));
    QVERIFY(coverage.storedNone);
    QVERIFY(std::isnan(coverage.storedValue));
    QVERIFY(coverage.explained);
    QCOMPARE(coverage.explanation.reason, reward::Reason::JudgeFailed);
    QCOMPARE(coverage.explanation.decisions.size(), size_t(1));
    QVERIFY(QString::fromStdString(coverage.explanation.detail).startsWith("the reply could not be read"));
    QVERIFY(!c.components[2].storedNone); // rubric_explicit: not recorded at all

    RolloutDetailView view;
    view.showRollout(c);
    const QString text = view.plainText();
    QVERIFY2(text.contains("Reward (weighted total)\nNone"), qPrintable(text));
    QVERIFY(text.contains("coverage\nNone\n1\nNone"));
    QVERIFY(text.contains("The judge gave no verdict, so the reward is None"));
    QVERIFY(text.contains("Total\nNone"));
    QVERIFY(text.contains("Judge calls (2)"));
    QSignalSpy judge(&view, &RolloutDetailView::judgeCallsRequested);
    Q_EMIT view.browser()->anchorClicked(QUrl("#judge"));
    QCOMPARE(judge.count(), 1);
    QCOMPARE(judge.first().first().toLongLong(), qint64(5));

    // Rollout 1: the judge's values and their calls (coverage, consistency, three items).
    const RolloutDetailView::Content one = RolloutDetailView::load(reader, 1);
    QCOMPARE(one.judgeCalls, 5);
    QCOMPARE(one.components[0].explanation.reason, reward::Reason::JudgeVerdict);
    QCOMPARE(one.components[0].explanation.value, 1.0);
    QCOMPARE(one.components[2].explanation.decisions.size(), size_t(3));
    view.showRollout(one);
    QVERIFY(view.plainText().contains("Reward (weighted total)\n1.000"));
}

void TestNoneRewards::componentTable()
{
    // Not recorded "—", None "None" (its contribution too when it weighs), the total None.
    RewardHtml::ComponentRow recorded{"a", 0.5, 1.0, ""};
    RewardHtml::ComponentRow missing{"b", kNaN, 1.0, ""};
    RewardHtml::ComponentRow none{"c", kNaN, 2.0, ""};
    none.none = true;
    QTextDocument doc;
    doc.setHtml(RewardHtml::componentTable({recorded, missing, none}, kNaN));
    const QString text = doc.toPlainText();
    QVERIFY2(text.contains("a\n0.500\n1\n0.125"), qPrintable(text));
    QVERIFY(text.contains("b\n—\n1\n—"));
    QVERIFY(text.contains("c\nNone\n2\nNone"));
    QVERIFY(text.contains("Total\nNone"));
}

QTEST_MAIN(TestNoneRewards)
#include "tst_nonerewards.moc"
