// widgets/RolloutTableModel: rollouts paged from the run store under
// QAbstractItemModelTester — first page, fetchMore to the end, values as written, a
// component condition and a full-text search counted independently, live appends with
// poll(), a bad search that leaves the table as it was, and every run's rows within a
// row limit.
#include "rollouttablemodel.h"
#include "runsessions.h"
#include "store/runstore.h"
#include "store/storeerror.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>

using namespace rwb;
using rwb::widgets::RolloutTableModel;

namespace {

constexpr int kPerStep = 64;

// Rollout i of the run: partial (i % 10) / 10, marker (i % 7) / 6, a completion with
// 株式会社 when i % 3 == 0, truncated when i % 11 == 0.
store::Rollout makeRollout(int i)
{
    store::Rollout r;
    r.promptId = "p" + std::to_string((i / 8) % 16);
    r.groupIndex = (i % kPerStep) / 8;
    r.sampleIndex = i % 8;
    const double partial = (i % 10) / 10.0, marker = (i % 7) / 6.0;
    r.completion = (i % 3 == 0 ? "株式会社サンプル" : "不明") + std::string(" #") + std::to_string(i);
    r.answer = r.completion;
    r.reward = 0.2 * partial + 0.8 * marker;
    r.rewardsJson = "{\"partial\":" + std::to_string(partial) + ",\"marker\":" + std::to_string(marker) + "}";
    r.advantage = (i % 5) - 2.0;
    r.tokenIds = {1, 2, 3};
    r.completionTokens = 3;
    r.truncated = i % 11 == 0;
    return r;
}

void writeSteps(store::RunStore &s, int64_t run, int from, int to)
{
    for (int step = from; step < to; ++step) {
        std::vector<store::Prompt> prompts;
        for (int p = 0; p < 16; ++p)
            prompts.push_back({"p" + std::to_string(p), "prompt " + std::to_string(p), "gold " + std::to_string(p), "{}"});
        std::vector<store::Rollout> rows;
        for (int k = 0; k < kPerStep; ++k)
            rows.push_back(makeRollout((step - 1) * kPerStep + k));
        s.writeStep(run, step, {{"reward", 0.5}}, rows, prompts);
    }
}

} // namespace

class TestRolloutTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pagesThroughEveryRollout();
    void filtersAndSearch();
    void pollAppendsLiveRows();
    void everyRunWithinALimit();
};

void TestRolloutTableModel::pagesThroughEveryRollout()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore s(path.toStdString());
        run = s.beginRun("r", store::RunKind::Grpo, "{}", "company_extraction");
        s.recordRewardConfig(run, 1, R"({"components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]})");
        writeSteps(s, run, 1, 31); // 1,920 rollouts
    }
    RolloutTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPageSize(500);
    model.open(rwbtest::openSession(model, path, run)->store(), run);
    QCOMPARE(model.rowCount(), 500);
    QCOMPARE(model.componentNames(), QStringList({"partial", "marker"}));
    QCOMPARE(model.columnCount(), 6 + 2 + 5); // run … advantage, the components, answer … completion
    QVERIFY(model.canFetchMore({}));
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), 1920);
    // Row i is rollout i as written.
    for (int i : {0, 1, 499, 500, 1919}) {
        const store::Rollout expected = makeRollout(i);
        QCOMPARE(model.data(model.index(i, RolloutTableModel::StepColumn), RolloutTableModel::ValueRole).toDouble(),
                 double(i / kPerStep + 1));
        QCOMPARE(model.data(model.index(i, RolloutTableModel::GroupColumn)).toString(), QString::number(expected.groupIndex));
        QCOMPARE(model.data(model.index(i, RolloutTableModel::RewardColumn), RolloutTableModel::ValueRole).toDouble(),
                 expected.reward);
        QCOMPARE(model.componentValue(i, 0), (i % 10) / 10.0);
        QCOMPARE(model.componentValue(i, 1), std::stod(std::to_string((i % 7) / 6.0)));
        QCOMPARE(model.data(model.index(i, model.completionColumn())).toString(), QString::fromStdString(expected.completion));
        QCOMPARE(model.data(model.index(i, model.goldColumn())).toString(),
                 QString("gold %1").arg((i / 8) % 16));
        QCOMPARE(model.data(model.index(i, model.truncatedColumn()), RolloutTableModel::ValueRole).toBool(), i % 11 == 0);
        QVERIFY(model.data(model.index(i, 0), RolloutTableModel::RolloutIdRole).toLongLong() > 0);
    }
    QCOMPARE(model.headerData(RolloutTableModel::RewardColumn, Qt::Horizontal).toString(), QString("Reward"));
    QCOMPARE(model.headerData(model.componentColumn(1), Qt::Horizontal).toString(), QString("marker"));
}

void TestRolloutTableModel::filtersAndSearch()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t run = 0;
    {
        store::RunStore s(path.toStdString());
        run = s.beginRun("r", store::RunKind::Grpo, "{}", "company_extraction");
        s.recordRewardConfig(run, 1, R"({"components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]})");
        writeSteps(s, run, 1, 11); // 640 rollouts
    }
    // Expected counts, from the generator: marker < 0.5 ⇔ i % 7 ∈ {0, 1, 2}; 株式会社 ⇔ i % 3 == 0.
    int lowMarker = 0, company = 0, lowMarkerSteps3to5 = 0, truncatedCompany = 0;
    for (int i = 0; i < 640; ++i) {
        lowMarker += i % 7 <= 2;
        company += i % 3 == 0;
        lowMarkerSteps3to5 += (i % 7 <= 2) && i / kPerStep + 1 >= 3 && i / kPerStep + 1 <= 5;
        truncatedCompany += i % 3 == 0 && i % 11 == 0;
    }
    RolloutTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPageSize(100);
    store::RolloutFilter f;
    f.components.push_back({"marker", store::ComponentCondition::Op::Less, 0.5});
    model.open(rwbtest::openSession(model, path, run)->store(), run, f);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), lowMarker);
    f.stepMin = 3;
    f.stepMax = 5;
    model.setFilter(f);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), lowMarkerSteps3to5);

    store::RolloutFilter search;
    search.completionMatch = "株式会社";
    model.setFilter(search);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), company);
    search.truncated = true;
    model.setFilter(search);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), truncatedCompany);

    // A bad FTS query throws and changes nothing.
    store::RolloutFilter bad;
    bad.completionMatch = "\"unterminated";
    QVERIFY_THROWS_EXCEPTION(store::StoreError, model.setFilter(bad));
    QCOMPARE(model.rowCount(), truncatedCompany);
}

void TestRolloutTableModel::pollAppendsLiveRows()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    store::RunStore writer(path.toStdString());
    const int64_t run = writer.beginRun("live", store::RunKind::Grpo, "{}", "company_extraction");
    writer.recordRewardConfig(run, 1, R"({"components": [{"reward": "partial", "weight": 1}]})");
    writeSteps(writer, run, 1, 3); // 128
    RolloutTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPageSize(1000);
    model.open(rwbtest::openSession(model, path, run)->store(), run);
    QCOMPARE(model.rowCount(), 128);
    QCOMPARE(model.poll(), 0);
    writeSteps(writer, run, 3, 5); // the trainer goes on: 128 more
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QCOMPARE(model.poll(), 128);
    QCOMPARE(model.rowCount(), 256);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(model.data(model.index(255, RolloutTableModel::StepColumn), RolloutTableModel::ValueRole).toDouble(), 4.0);
}

// filter.allRuns with a row limit: both runs' rows (the Run column names each), read page
// by page up to the limit and no further; limitReached() only when more matched.
void TestRolloutTableModel::everyRunWithinALimit()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    int64_t first = 0, second = 0;
    {
        store::RunStore s(path.toStdString());
        first = s.beginRun("a", store::RunKind::Grpo, "{}", "company_extraction");
        writeSteps(s, first, 1, 3); // ids 1–128
        second = s.beginRun("b", store::RunKind::Grpo, "{}", "company_extraction");
        writeSteps(s, second, 1, 2); // ids 129–192
    }
    RolloutTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPageSize(50);
    model.setRowLimit(150);
    model.open(rwbtest::openSession(model, path, first)->store(), first);
    QCOMPARE(model.headerData(RolloutTableModel::RunColumn, Qt::Horizontal).toString(), QString("Run"));
    // This run: 128 rows, under the limit.
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), 128);
    QVERIFY(!model.limitReached());
    // Every run: 192 rows match; pages of 50 up to 150, then no more.
    store::RolloutFilter all;
    all.allRuns = true;
    model.setFilter(all);
    QCOMPARE(model.rowCount(), 50);
    QVERIFY(!model.limitReached());
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), 150);
    QVERIFY(model.limitReached());
    QCOMPARE(model.index(127, RolloutTableModel::RunColumn).data(RolloutTableModel::ValueRole).toDouble(), double(first));
    QCOMPARE(model.index(128, RolloutTableModel::RunColumn).data(RolloutTableModel::ValueRole).toDouble(), double(second));
    QCOMPARE(model.rollout(149).id, qint64(150));
    QCOMPARE(model.poll(), 0); // bounded: live rows wait for a new filter
    // 株式会社 across runs: i % 3 == 0 of 0 … 127 and of 0 … 63: 43 + 22 = 65, under the limit.
    all.completionMatch = "株式会社";
    model.setFilter(all);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), 65);
    QVERIFY(!model.limitReached());
    // A limit of exactly what matches: not reached.
    model.setRowLimit(65);
    model.setFilter(all);
    while (model.canFetchMore({}))
        model.fetchMore({});
    QCOMPARE(model.rowCount(), 65);
    QVERIFY(!model.limitReached());
}

QTEST_MAIN(TestRolloutTableModel)
#include "tst_rollouttablemodel.moc"
