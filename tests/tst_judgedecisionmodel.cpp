// widgets/JudgeDecisionModel, JudgeDecisionFilter, ConfusionMatrix, JudgeVerdictSummary and
// JudgeConfusionModel on the hand-worked judge run of tests/judgestore.h (six legal-QA
// rollouts with known grader and judge labels, rubric and Likert calls, an evaluation):
// every decision read back through the worker in pages under QAbstractItemModelTester,
// the verdict summaries, None values, every filter counted by hand, sorting with None
// last, live appends with refresh(), and the agreement of coverage and consistency with
// the reference grader as exact confusion matrices, precision, recall and F1 (worked out
// below; tolerance 1e-12).
#include "eval/confusionmatrix.h"
#include "reward/judgekind.h"
#include "reward/judgerewards.h"
#include "runsessions.h"
#include "judgeconfusionmodel.h"
#include "judgedecisionfilter.h"
#include "judgedecisionmodel.h"
#include "judgestore.h"
#include "rewardvalue.h"
#include "store/runstore.h"
#include "store/storeerror.h"
#include "testtime.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rwb;
using rwb::eval::ConfusionMatrix;
using rwb::widgets::GradedQuantity;
using rwb::widgets::JudgeConfusionModel;
using rwb::widgets::JudgeDecisionFilter;
using rwb::widgets::JudgeDecisionModel;
using rwb::widgets::JudgeDecisionRow;
using rwb::widgets::JudgeVerdictSummary;

namespace {

constexpr double kTol = 1e-12;

// Opens `run` of `path` and waits for the worker to read every decision.
bool load(JudgeDecisionModel &model, const QString &path, qint64 run)
{
    QSignalSpy finished(&model, &JudgeDecisionModel::loadingFinished);
    model.open(*rwbtest::openSession(model, path, run));
    return finished.wait(rwbtest::scaledMs(20000));
}

QStringList column(const QAbstractItemModel &m, int col)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, col).data().toString();
    return out;
}

QList<qint64> ids(const QAbstractItemModel &m)
{
    QList<qint64> out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, 0).data(JudgeDecisionModel::DecisionIdRole).toLongLong();
    return out;
}

} // namespace

class TestJudgeDecisionModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void confusionMatrix();
    void verdictSummaries_data();
    void verdictSummaries();
    void aKindsOwnVerdictLine();
    void readsEveryDecisionInPages();
    void filters();
    void sortsNoneLast();
    void agreement();
    void confusionModel();
    void refreshAppendsLiveDecisions();
    void badStore();
    void benchLargeStore();

private:
    QTemporaryDir m_dir;
    QString m_path;
    qint64 m_run = 0;
};

void TestJudgeDecisionModel::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_path = m_dir.path() + "/runs.sqlite";
    store::RunStore s(m_path.toStdString());
    m_run = rwbtest::writeKnownJudgeRun(s, RWB_RESOURCES_DIR);
    // The task's grader graded the answers as the table in judgestore.h says.
    const auto rows = s.stepRollouts(m_run, 1);
    QCOMPARE(rows.size(), size_t(6));
    const double coverage[] = {1, 0.5, 0.5, 0, 1}, consistency[] = {1, 1, 0, 1, 1};
    for (int i = 0; i < 5; ++i) {
        const auto details = nlohmann::json::parse(rows[static_cast<size_t>(i)].rollout.detailsJson);
        QCOMPARE(details.at("coverage").get<double>(), coverage[i]);
        QCOMPARE(details.at("consistency").get<double>(), consistency[i]);
    }
}

void TestJudgeDecisionModel::confusionMatrix()
{
    // Reference × judged over 3 labels:
    //   [2 1 0]
    //   [0 3 1]
    //   [1 0 2]   n = 10, diagonal 7.
    ConfusionMatrix m(3);
    const int pairs[][3] = {{0, 0, 2}, {0, 1, 1}, {1, 1, 3}, {1, 2, 1}, {2, 0, 1}, {2, 2, 2}};
    for (const auto &p : pairs)
        for (int k = 0; k < p[2]; ++k)
            QVERIFY(m.add(p[0], p[1]));
    QVERIFY(!m.add(3, 0));
    QVERIFY(!m.add(0, -1));
    QCOMPARE(m.total(), 10);
    QCOMPARE(m.count(1, 2), 1);
    QCOMPARE(m.referenceTotal(1), 4);
    QCOMPARE(m.judgedTotal(0), 3);
    QVERIFY(std::abs(m.agreement() - 0.7) < kTol);
    // precision: 2/3, 3/4, 2/3; recall: 2/3, 3/4, 2/3; F1 = 2·n(l,l) / (judged + reference).
    QVERIFY(std::abs(m.precision(0) - 2.0 / 3.0) < kTol);
    QVERIFY(std::abs(m.precision(1) - 0.75) < kTol);
    QVERIFY(std::abs(m.recall(2) - 2.0 / 3.0) < kTol);
    QVERIFY(std::abs(m.f1(0) - 4.0 / 6.0) < kTol);
    QVERIFY(std::abs(m.f1(1) - 6.0 / 8.0) < kTol);
    QVERIFY(std::abs(m.f1(2) - 4.0 / 6.0) < kTol);
    QVERIFY(std::abs(m.macroF1() - (2.0 / 3.0 + 0.75 + 2.0 / 3.0) / 3.0) < kTol);
    // A label never judged: precision undefined, F1 0 when it was referenced.
    ConfusionMatrix n(2);
    n.add(0, 1);
    n.add(1, 1);
    QVERIFY(std::isnan(n.precision(0)));
    QCOMPARE(n.recall(0), 0.0);
    QCOMPARE(n.f1(0), 0.0);
    QVERIFY(std::isnan(ConfusionMatrix(2).agreement()));
    QVERIFY(std::isnan(ConfusionMatrix(2).f1(0)));
}

void TestJudgeDecisionModel::verdictSummaries_data()
{
    QTest::addColumn<QString>("verdict");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("begin");
    QTest::addColumn<qint64>("end");
    using K = JudgeVerdictSummary::Kind;
    QTest::newRow("legal") << R"({"coverage":0.5,"contradiction":true,"fallback":false,"span":{"form":"bare","begin":0,"end":40}})"
                           << int(K::Legal) << "partial / contradiction" << qint64(0) << qint64(40);
    QTest::newRow("legal full fallback") << R"({"coverage":1,"contradiction":false,"fallback":true})" << int(K::Legal)
                                         << "full / no contradiction (fallback)" << qint64(-1) << qint64(-1);
    QTest::newRow("item met") << R"({"criterion":"x","c":1,"met":true,"span":{"form":"fenced","begin":28,"end":70}})"
                              << int(K::RubricItem) << "met" << qint64(28) << qint64(70);
    QTest::newRow("item score") << R"({"criterion":"x","c":0.75,"score":7.5})" << int(K::RubricItem) << "score 7.5/10"
                                << qint64(-1) << qint64(-1);
    QTest::newRow("all items") << R"({"items":[{"c":1},{"c":0},{"c":1}],"score":0.4})" << int(K::RubricAllItems)
                               << "2 of 3 met" << qint64(-1) << qint64(-1);
    QTest::newRow("rating") << R"({"rating":7,"unit":0.6667})" << int(K::Rating) << "rating 7" << qint64(-1) << qint64(-1);
    QTest::newRow("geval") << R"({"rating":7,"geval":6.82,"unit":0.646})" << int(K::Rating) << "rating 7 (G-Eval 6.82)"
                           << qint64(-1) << qint64(-1);
    QTest::newRow("missing") << "" << int(K::Missing) << "" << qint64(-1) << qint64(-1);
    QTest::newRow("not json") << "{oops" << int(K::Missing) << "" << qint64(-1) << qint64(-1);
    QTest::newRow("other") << R"({"label":"good"})" << int(K::Other) << R"({"label":"good"})" << qint64(-1) << qint64(-1);
}

void TestJudgeDecisionModel::verdictSummaries()
{
    QFETCH(QString, verdict);
    QFETCH(int, kind);
    QFETCH(QString, text);
    QFETCH(qint64, begin);
    QFETCH(qint64, end);
    const JudgeVerdictSummary s = JudgeVerdictSummary::read(verdict.toStdString());
    QCOMPARE(int(s.kind), kind);
    QCOMPARE(s.text(), text);
    QCOMPARE(s.spanBegin, begin);
    QCOMPARE(s.spanEnd, end);
}

// A judge kind with a verdict of its own (reward/judgekind.h) gives the line the views show
// of it; the same verdict under a reward that is no kind shows as its JSON.
void TestJudgeDecisionModel::aKindsOwnVerdictLine()
{
    class Labelled final : public reward::JudgeKind {
    public:
        std::string_view name() const override { return "labelled"; }
        std::vector<std::string_view> options() const override { return {}; }
        void check(const task::JudgedExample &, const reward::JudgeRewardOptions &, const std::string &) const override {}
        std::vector<reward::JudgeAsk> asks(const task::JudgedExample &, const task::Completion &,
                                           const reward::JudgeRewardOptions &, const std::string &) const override
        {
            return {};
        }
        reward::ReadReply read(const reward::JudgeAsk &, const judge::ChatChoice &,
                               const reward::JudgeRewardOptions &) const override
        {
            return {};
        }
        std::string verdictLine(const std::string &verdictJson) const override
        {
            return verdictJson.find("\"good\"") != std::string::npos ? "labelled good" : "labelled otherwise";
        }
    };
    reward::registerJudgeKind(std::make_shared<Labelled>());
    const JudgeVerdictSummary own = JudgeVerdictSummary::read(R"({"label":"good"})", "labelled");
    QCOMPARE(own.kind, JudgeVerdictSummary::Kind::Other);
    QCOMPARE(own.text(), QString("labelled good"));
    QCOMPARE(JudgeVerdictSummary::read(R"({"label":"good"})", "unknown").text(), QString(R"({"label":"good"})"));
    // A built-in shape stays the views' own, translated reading.
    QCOMPARE(JudgeVerdictSummary::read(R"({"rating": 7, "unit": 0.6667})", "labelled").text(), QString("rating 7"));
}

void TestJudgeDecisionModel::readsEveryDecisionInPages()
{
    JudgeDecisionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPageSize(4); // 21 decisions: six pages
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QVERIFY(load(model, m_path, m_run));
    QCOMPARE(model.rowCount(), 21);
    QCOMPARE(inserted.count(), 6);
    QCOMPARE(model.columnCount(), int(JudgeDecisionModel::ColumnCount));
    QList<qint64> expectedIds;
    for (qint64 i = 1; i <= 21; ++i)
        expectedIds << i;
    QCOMPARE(ids(model), expectedIds);
    QCOMPARE(model.rewards(), QStringList({"coverage", "consistency", "rubric_explicit", "likert_simple"}));
    QCOMPARE(model.gradedRewards(), QStringList({"coverage", "consistency"}));

    // Decision 1: rollout 1's coverage, full, fenced reply, sent (1.0 s, 420 + 90 tokens).
    auto cell = [&](int row, int col, int role = Qt::DisplayRole) { return model.index(row, col).data(role); };
    QCOMPARE(cell(0, JudgeDecisionModel::StepColumn).toString(), QString("1"));
    QCOMPARE(cell(0, JudgeDecisionModel::TargetColumn).toString(), QString("1 · g0 s0"));
    QCOMPARE(cell(0, JudgeDecisionModel::RewardColumn).toString(), QString("coverage"));
    QCOMPARE(cell(0, JudgeDecisionModel::ValueColumn).toString(), QString("1.000"));
    QCOMPARE(cell(0, JudgeDecisionModel::VerdictColumn).toString(), QString("full / no contradiction"));
    QCOMPARE(cell(0, JudgeDecisionModel::LatencyColumn).toString(), QString("1.00"));
    QCOMPARE(cell(0, JudgeDecisionModel::TokensColumn).toString(), QString("510"));
    QCOMPARE(cell(0, JudgeDecisionModel::CostColumn, JudgeDecisionModel::ValueRole).toDouble(), (0.15 * 420 + 0.6 * 90) / 1e6);
    QCOMPARE(cell(0, JudgeDecisionModel::CacheColumn).toString(), QString());
    QCOMPARE(cell(0, JudgeDecisionModel::AttemptsColumn).toString(), QString("1"));
    QVERIFY(model.decision(0).verdict.spanBegin > 0); // after "回答を評価します。\n```json\n"
    // Decision 2: its consistency, a cache hit.
    QCOMPARE(cell(1, JudgeDecisionModel::CacheColumn).toString(), QString("hit"));
    QCOMPARE(cell(1, JudgeDecisionModel::TokensColumn).toString(), QString("0"));
    QCOMPARE(cell(1, JudgeDecisionModel::ValueColumn).toString(), QString("1.000"));
    // Decisions 17 and 18: rollout 5's unreadable reply, None.
    QCOMPARE(cell(16, JudgeDecisionModel::ValueColumn).toString(), QString("None"));
    QVERIFY(std::isnan(cell(16, JudgeDecisionModel::ValueColumn, JudgeDecisionModel::ValueRole).toDouble()));
    QCOMPARE(cell(16, JudgeDecisionModel::VerdictColumn).toString(), QString("unreadable reply"));
    QVERIFY(cell(16, JudgeDecisionModel::ErrorColumn).toString().startsWith("the reply could not be read"));
    QCOMPARE(model.decision(16).failure(), JudgeDecisionRow::Failure::Parse);
    QCOMPARE(cell(17, JudgeDecisionModel::ValueColumn).toString(), QString("None"));
    // Decisions 3–5: rollout 1's rubric items; 8–10: rollout 2's, the first timed out.
    QCOMPARE(cell(2, JudgeDecisionModel::PartColumn).toString(), QString("items[0]"));
    const QStringList verdicts = column(model, JudgeDecisionModel::VerdictColumn);
    QCOMPARE(verdicts.mid(2, 3), QStringList({"met", "met", "not met"}));
    QCOMPARE(verdicts.mid(7, 3), QStringList({"call failed", "met", "not met"}));
    QCOMPARE(model.decision(7).failure(), JudgeDecisionRow::Failure::Call);
    QCOMPARE(cell(7, JudgeDecisionModel::AttemptsColumn).toString(), QString("3"));
    QCOMPARE(cell(7, JudgeDecisionModel::ValueColumn).toString(), QString("None"));
    // 13: all items of rollout 3 (authority and pitfall met); 16: rating 7; 21: the evaluation.
    QCOMPARE(cell(12, JudgeDecisionModel::VerdictColumn).toString(), QString("2 of 3 met"));
    QCOMPARE(cell(12, JudgeDecisionModel::ValueColumn).toString(), QString("0.000")); // (2 − 2) / 5
    QCOMPARE(cell(15, JudgeDecisionModel::VerdictColumn).toString(), QString("rating 7"));
    QCOMPARE(cell(15, JudgeDecisionModel::ValueColumn).toString(), QString("0.667")); // (7 − 1) / 9
    QCOMPARE(cell(20, JudgeDecisionModel::TargetColumn).toString(), QString("q01-c1"));
    QCOMPARE(cell(20, JudgeDecisionModel::RolloutIdRole).toLongLong(), 0);
    QCOMPARE(model.rowOfDecision(21), 20);
    QCOMPARE(model.rowOfDecision(99), -1);
}

void TestJudgeDecisionModel::filters()
{
    JudgeDecisionModel model;
    QVERIFY(load(model, m_path, m_run));
    JudgeDecisionFilter filter;
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    QCOMPARE(filter.rowCount(), 21);

    filter.setReward("coverage");
    QCOMPARE(ids(filter), QList<qint64>({1, 6, 11, 14, 17, 19, 21}));
    filter.setReward({});

    // Failures: the timed-out item (8), rollout 5's two unreadable replies (17, 18).
    filter.setFailures(JudgeDecisionFilter::Failures::Failed);
    QCOMPARE(ids(filter), QList<qint64>({8, 17, 18}));
    filter.setFailures(JudgeDecisionFilter::Failures::ParseFailed);
    QCOMPARE(ids(filter), QList<qint64>({17, 18}));
    filter.setFailures(JudgeDecisionFilter::Failures::CallFailed);
    QCOMPARE(ids(filter), QList<qint64>({8}));
    filter.setFailures(JudgeDecisionFilter::Failures::NotFailed);
    QCOMPARE(filter.rowCount(), 18);
    filter.setFailures(JudgeDecisionFilter::Failures::Any);

    // Cache: every consistency call of a rollout is a hit.
    filter.setCache(JudgeDecisionFilter::Cache::Hits);
    QCOMPARE(ids(filter), QList<qint64>({2, 7, 12, 15, 18, 20}));
    filter.setCache(JudgeDecisionFilter::Cache::Misses);
    QCOMPARE(filter.rowCount(), 15);
    filter.setCache(JudgeDecisionFilter::Cache::Any);

    // Latency ≥ 2 s: the timeout (8: 90.5 s), coverage of rollouts 3–6 (11, 14, 17, 19:
    // 2.0, 2.5, 3.0, 3.5 s), the all-items call (13: 2.0 s).
    filter.setMinLatency(2.0);
    QCOMPARE(ids(filter), QList<qint64>({8, 11, 13, 14, 17, 19}));
    filter.setMinLatency(0.0);

    // Text: "none" is in the value "None" (8, 17, 18) and the verdict "none / no
    // contradiction" (rollout 4: 14, 15).
    filter.setText("none");
    QCOMPARE(ids(filter), QList<qint64>({8, 14, 15, 17, 18}));
    filter.setText("rating 7");
    QCOMPARE(ids(filter), QList<qint64>({16}));
    filter.setText("0.500"); // the value of partial coverage: rollouts 3 and 6
    QCOMPARE(ids(filter), QList<qint64>({11, 19}));
    filter.setText({});

    // One rollout: rollout 1's coverage, consistency and three rubric items.
    filter.setRolloutId(1);
    QCOMPARE(ids(filter), QList<qint64>({1, 2, 3, 4, 5}));
    filter.setRolloutId(0);

    // An agreement cell: coverage, grader partial, judge full → rollout 2's call.
    filter.setAgreementCell({"coverage", 1, 2});
    QCOMPARE(ids(filter), QList<qint64>({6}));
    filter.setAgreementCell({"coverage", -1, 2}); // everything the judge called full and the grader graded
    QCOMPARE(ids(filter), QList<qint64>({1, 6, 21}));
    filter.setAgreementCell({"consistency", 0, -1});
    QCOMPARE(ids(filter), QList<qint64>({12}));

    // Conditions combine (AND), and clear.
    filter.setAgreementCell({});
    filter.setReward("consistency");
    filter.setCache(JudgeDecisionFilter::Cache::Hits);
    filter.setFailures(JudgeDecisionFilter::Failures::NotFailed);
    QCOMPARE(ids(filter), QList<qint64>({2, 7, 12, 15, 20}));
    filter.clearConditions();
    QCOMPARE(filter.rowCount(), 21);
}

void TestJudgeDecisionModel::sortsNoneLast()
{
    JudgeDecisionModel model;
    QVERIFY(load(model, m_path, m_run));
    JudgeDecisionFilter filter;
    filter.setSourceModel(&model);
    filter.setReward("coverage");
    // Values: 1, 1, 0.5, 0, None, 0.5, 1 (ids 1, 6, 11, 14, 17, 19, 21).
    filter.sort(JudgeDecisionModel::ValueColumn, Qt::AscendingOrder);
    QCOMPARE(column(filter, JudgeDecisionModel::ValueColumn),
             QStringList({"0.000", "0.500", "0.500", "1.000", "1.000", "1.000", "None"}));
    filter.sort(JudgeDecisionModel::ValueColumn, Qt::DescendingOrder);
    QCOMPARE(column(filter, JudgeDecisionModel::ValueColumn),
             QStringList({"1.000", "1.000", "1.000", "0.500", "0.500", "0.000", "None"}));
    // The target column: rollouts by id, then evaluated examples.
    filter.sort(JudgeDecisionModel::TargetColumn, Qt::AscendingOrder);
    QCOMPARE(column(filter, JudgeDecisionModel::TargetColumn).last(), QString("q01-c1"));
    // Back to the order written.
    filter.sort(-1);
    QCOMPARE(ids(filter), QList<qint64>({1, 6, 11, 14, 17, 19, 21}));
    // RewardValue::lessThan directly.
    const QVariant nan(std::nan("")), one(1.0), two(2.0);
    QVERIFY(RewardValue::lessThan(one, nan, Qt::AscendingOrder));
    QVERIFY(!RewardValue::lessThan(nan, one, Qt::AscendingOrder));
    QVERIFY(RewardValue::lessThan(nan, one, Qt::DescendingOrder)); // inverted by the proxy: None last
    QVERIFY(!RewardValue::lessThan(nan, nan, Qt::AscendingOrder));
    QVERIFY(RewardValue::lessThan(one, two, Qt::DescendingOrder));
}

void TestJudgeDecisionModel::agreement()
{
    JudgeDecisionModel model;
    QVERIFY(load(model, m_path, m_run));

    // Coverage, grader × judge over none / partial / full (judgestore.h's table; the
    // evaluation's call is full against a grade of 1; rollout 5 has no verdict, rollout 6
    // no grade):
    //   [1 0 0]
    //   [0 1 1]
    //   [0 0 2]   n = 5, agreement 4/5
    // precision 1, 1, 2/3; recall 1, 1/2, 1; F1 1, 2/3, 4/5; macro (1 + 2/3 + 4/5) / 3.
    const rwb::widgets::JudgeAgreementCounts c = model.agreement("coverage");
    QCOMPARE(int(c.quantity), int(GradedQuantity::Coverage));
    QCOMPARE(c.decisions, 7);
    QCOMPARE(c.noVerdict, 1);
    QCOMPARE(c.noReference, 1);
    const int coverage[3][3] = {{1, 0, 0}, {0, 1, 1}, {0, 0, 2}};
    for (int r = 0; r < 3; ++r)
        for (int j = 0; j < 3; ++j)
            QCOMPARE(c.matrix.count(r, j), coverage[r][j]);
    QCOMPARE(c.matrix.total(), 5);
    QVERIFY(std::abs(c.matrix.agreement() - 0.8) < kTol);
    QVERIFY(std::abs(c.matrix.precision(0) - 1.0) < kTol);
    QVERIFY(std::abs(c.matrix.precision(1) - 1.0) < kTol);
    QVERIFY(std::abs(c.matrix.precision(2) - 2.0 / 3.0) < kTol);
    QVERIFY(std::abs(c.matrix.recall(1) - 0.5) < kTol);
    QVERIFY(std::abs(c.matrix.recall(2) - 1.0) < kTol);
    QVERIFY(std::abs(c.matrix.f1(0) - 1.0) < kTol);
    QVERIFY(std::abs(c.matrix.f1(1) - 2.0 / 3.0) < kTol);
    QVERIFY(std::abs(c.matrix.f1(2) - 0.8) < kTol);
    QVERIFY(std::abs(c.matrix.macroF1() - (1.0 + 2.0 / 3.0 + 0.8) / 3.0) < kTol);

    // Consistency, grader × judge over contradiction / consistent (rollouts 1–4):
    //   [1 0]
    //   [1 2]   n = 4, agreement 3/4
    // precision 1/2, 1; recall 1, 2/3; F1 2/3, 4/5.
    const rwb::widgets::JudgeAgreementCounts k = model.agreement("consistency");
    QCOMPARE(int(k.quantity), int(GradedQuantity::Consistency));
    QCOMPARE(k.matrix.count(0, 0), 1);
    QCOMPARE(k.matrix.count(0, 1), 0);
    QCOMPARE(k.matrix.count(1, 0), 1);
    QCOMPARE(k.matrix.count(1, 1), 2);
    QVERIFY(std::abs(k.matrix.agreement() - 0.75) < kTol);
    QVERIFY(std::abs(k.matrix.precision(0) - 0.5) < kTol);
    QVERIFY(std::abs(k.matrix.recall(1) - 2.0 / 3.0) < kTol);
    QVERIFY(std::abs(k.matrix.f1(0) - 2.0 / 3.0) < kTol);
    QVERIFY(std::abs(k.matrix.f1(1) - 0.8) < kTol);

    // Rewards the grader cannot check have no matrix.
    QCOMPARE(int(model.agreement("likert_simple").quantity), int(GradedQuantity::None));
    QCOMPARE(model.agreement("likert_simple").matrix.total(), 0);
}

void TestJudgeDecisionModel::confusionModel()
{
    JudgeDecisionModel decisions;
    QVERIFY(load(decisions, m_path, m_run));
    JudgeConfusionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto a = decisions.agreement("coverage");
    model.setMatrix(a.quantity, a.matrix);
    QCOMPARE(model.rowCount(), 4); // three labels and the total
    QCOMPARE(model.columnCount(), 4);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("partial"));
    QCOMPARE(model.headerData(3, Qt::Vertical).toString(), QString("Total"));
    QCOMPARE(model.index(1, 2).data().toInt(), 1);
    QCOMPARE(model.index(2, 2).data().toInt(), 2);
    QCOMPARE(model.index(1, 3).data().toInt(), 2); // graded partial
    QCOMPARE(model.index(3, 2).data().toInt(), 3); // judged full
    QCOMPARE(model.index(3, 3).data().toInt(), 5);
    QCOMPARE(model.index(1, 2).data(JudgeConfusionModel::ReferenceLabelRole).toInt(), 1);
    QCOMPARE(model.index(1, 2).data(JudgeConfusionModel::JudgedLabelRole).toInt(), 2);
    QCOMPARE(model.index(3, 0).data(JudgeConfusionModel::ReferenceLabelRole).toInt(), -1);
    model.setMatrix(GradedQuantity::None, ConfusionMatrix());
    QCOMPARE(model.rowCount(), 0);
}

void TestJudgeDecisionModel::refreshAppendsLiveDecisions()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/live.sqlite";
    qint64 run = 0;
    {
        store::RunStore s(path.toStdString());
        run = rwbtest::writeKnownJudgeRun(s, RWB_RESOURCES_DIR);
    }
    JudgeDecisionModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(load(model, path, run));
    QCOMPARE(model.rowCount(), 21);
    {
        // A second step of the same run: one rollout, its coverage and consistency.
        store::RunStore s(path.toStdString());
        const std::string line = rwbtest::legalQuestionLines(RWB_RESOURCES_DIR).at(0);
        const auto q = nlohmann::json::parse(line);
        store::Rollout r = rwbtest::legalRollout(line, "q01", 0, 0, "14日以内です。", 1296);
        const std::string reply = rwbtest::legalReplyObject(0.5, false, {"14日以内"}, {"a", "b"});
        r.judgeDecisions.push_back(rwbtest::legalDecision("coverage", q.at("question"), q.at("reference_answer"),
                                                          r.answer, reply, {}));
        r.judgeDecisions.push_back(rwbtest::legalDecision("consistency", q.at("question"), q.at("reference_answer"),
                                                          r.answer, reply, {0, 0, 0, true, 0}));
        rwbtest::setJudgeRewards(r, 0.5, 1.0);
        s.writeStep(run, 2, {}, {r});
    }
    QSignalSpy finished(&model, &JudgeDecisionModel::loadingFinished);
    model.refresh();
    QVERIFY(finished.wait(rwbtest::scaledMs(20000)));
    QCOMPARE(model.rowCount(), 23);
    QCOMPARE(model.index(21, JudgeDecisionModel::StepColumn).data().toString(), QString("2"));
    QCOMPARE(model.agreement("coverage").matrix.total(), 6); // the new one: partial against partial
    model.close();
    QCOMPARE(model.rowCount(), 0);
}

void TestJudgeDecisionModel::badStore()
{
    JudgeDecisionModel model;
    // The run's session does not open (a missing file, no such run): nothing to show.
    QVERIFY(!rwbtest::openSession(model, m_dir.path() + "/missing.sqlite", 1));
    QVERIFY(!rwbtest::openSession(model, m_path, 99));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.isLoading());
}

// With RWB_JUDGE_BENCH_STORE=<store>: how long the last run's decisions take to read,
// filter and sort (printed; nothing asserted beyond reading them all). Skipped otherwise.
void TestJudgeDecisionModel::benchLargeStore()
{
    const QString path = qEnvironmentVariable("RWB_JUDGE_BENCH_STORE");
    if (path.isEmpty())
        QSKIP("RWB_JUDGE_BENCH_STORE is not set");
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const qint64 run = s.runs().back().id;
    JudgeDecisionModel model;
    JudgeDecisionFilter filter;
    filter.setSourceModel(&model);
    int pages = 0;
    qint64 longestPageMs = 0;
    QElapsedTimer page;
    connect(&model, &QAbstractItemModel::rowsInserted, &model, [&] {
        ++pages;
        longestPageMs = std::max(longestPageMs, page.elapsed());
        page.restart();
    });
    QElapsedTimer t;
    t.start();
    page.start();
    QVERIFY(load(model, path, run));
    const qint64 loadMs = t.elapsed();
    t.restart();
    filter.setText("None");
    const qint64 textMs = t.elapsed();
    const int none = filter.rowCount();
    filter.setText({});
    t.restart();
    filter.sort(JudgeDecisionModel::ValueColumn);
    const qint64 sortMs = t.elapsed();
    t.restart();
    const auto a = model.agreement("coverage");
    const qint64 agreementMs = t.elapsed();
    qInfo("%d decisions in %d pages: read %lld ms (longest gap between pages %lld ms), text filter %lld ms (%d None), "
          "sort by value %lld ms, coverage agreement %lld ms (n = %d)",
          model.rowCount(), pages, loadMs, longestPageMs, textMs, none, sortMs, agreementMs, a.matrix.total());
}

QTEST_MAIN(TestJudgeDecisionModel)
#include "tst_judgedecisionmodel.moc"
