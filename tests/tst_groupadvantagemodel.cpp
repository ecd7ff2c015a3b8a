// widgets/GroupAdvantageModel: one step's groups with their mean, Bessel-corrected std,
// the all-equal flag and each sample's reward and advantage, under
// QAbstractItemModelTester. Expected values worked out by hand below.
#include "groupadvantagemodel.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace rwb;
using rwb::widgets::GroupAdvantageModel;

class TestGroupAdvantageModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void groupsOfAStep();
    void onePromptInTwoGroupsOfAStep();
};

void TestGroupAdvantageModel::groupsOfAStep()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/runs.sqlite").toStdString();
    store::RunStore writer(path);
    const int64_t run = writer.beginRun("g", store::RunKind::Grpo, "{}", "company_extraction");
    // Group 0: 1, 0, 0.5, 0.5 → mean 0.5, std √((0.25 + 0.25) / 3) = 0.408248.
    // Group 1: 0.3 × 4 → flat.  Group 2: 0.2, 0.4, 0.6, 0.8 → mean 0.5, std √(0.2 / 3) = 0.258199.
    const double rewards[3][4] = {{1, 0, 0.5, 0.5}, {0.3, 0.3, 0.3, 0.3}, {0.2, 0.4, 0.6, 0.8}};
    const double stds[3] = {std::sqrt(0.5 / 3), 0.0, std::sqrt(0.2 / 3)};
    std::vector<store::Prompt> prompts;
    std::vector<store::Rollout> rows;
    for (int g = 0; g < 3; ++g) {
        prompts.push_back({"p" + std::to_string(g), "prompt", "gold " + std::to_string(g), "{}"});
        for (int j = 0; j < 4; ++j) {
            store::Rollout r;
            r.promptId = "p" + std::to_string(g);
            r.groupIndex = g;
            r.sampleIndex = j;
            r.completion = "c";
            r.reward = rewards[g][j];
            r.advantage = stds[g] > 0 ? (rewards[g][j] - 0.5 + (g == 1 ? 0.2 : 0.0)) / (stds[g] + 1e-4) : 0.0;
            r.completionTokens = 1;
            rows.push_back(r);
        }
    }
    writer.writeStep(run, 1, {}, rows, prompts);

    store::RunStore reader(path, store::RunStore::OpenMode::ReadOnly);
    GroupAdvantageModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.load(reader, run, 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.groupSize(), 4);
    QCOMPARE(model.columnCount(), 6 + 4);
    QCOMPARE(model.flatGroups(), 1);
    auto value = [&](int row, int col, int role = GroupAdvantageModel::ValueRole) {
        return model.data(model.index(row, col), role);
    };
    QCOMPARE(value(0, GroupAdvantageModel::MeanColumn).toDouble(), 0.5);
    QVERIFY(std::abs(value(0, GroupAdvantageModel::StdColumn).toDouble() - 0.408248) < 1e-6);
    QVERIFY(std::abs(value(2, GroupAdvantageModel::StdColumn).toDouble() - 0.258199) < 1e-6);
    QCOMPARE(value(1, GroupAdvantageModel::FlatColumn).toBool(), true);
    QCOMPARE(value(0, GroupAdvantageModel::FlatColumn).toBool(), false);
    QCOMPARE(value(1, GroupAdvantageModel::FlatColumn, Qt::DisplayRole).toString(), QString("all equal"));
    QCOMPARE(value(2, GroupAdvantageModel::GoldColumn).toString(), QString("gold 2"));
    // The prompt: its text (the same in every group: nothing left out), its id behind it.
    QCOMPARE(value(2, GroupAdvantageModel::PromptColumn, Qt::DisplayRole).toString(), QString("prompt"));
    QCOMPARE(value(2, GroupAdvantageModel::PromptColumn).toString(), QString("p2"));
    QVERIFY(value(2, GroupAdvantageModel::PromptColumn, Qt::ToolTipRole).toString().contains("Prompt p2"));
    // Sample 3 of group 2: reward 0.8, advantage (0.8 − 0.5) / (0.258199 + 1e-4) = 1.161440.
    const int s3 = GroupAdvantageModel::FirstSampleColumn + 3;
    QCOMPARE(value(2, s3).toDouble(), 0.8);
    QVERIFY(std::abs(value(2, s3, GroupAdvantageModel::AdvantageRole).toDouble() - 1.161440) < 1e-5);
    QCOMPARE(value(2, s3, Qt::DisplayRole).toString(), QString("0.80 (+1.16)"));
    QVERIFY(value(2, s3, GroupAdvantageModel::RolloutIdRole).toLongLong() > 0);
    QCOMPARE(model.headerData(s3, Qt::Horizontal).toString(), QString("Sample 3"));
    // A step without rollouts: an empty table.
    model.load(reader, run, 7);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 6);
}

// A step that straddles an epoch may draw one prompt twice (the quick demo draws 16 of
// 120 e-mails a step): its two groups are two samples of G completions each, with their
// own statistics. A group is (run, step, group_index): the model and v_rollouts keep the
// two apart although they share the prompt id and the sample indices.
void TestGroupAdvantageModel::onePromptInTwoGroupsOfAStep()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/runs.sqlite").toStdString();
    store::RunStore writer(path);
    const int64_t run = writer.beginRun("twice", store::RunKind::Grpo, "{}", "company_extraction");
    // Group 0 of "p": 1, 0 → mean 0.5, std √0.5; group 1 of "p": 0.2, 0.2 → flat.
    const double rewards[2][2] = {{1, 0}, {0.2, 0.2}};
    std::vector<store::Rollout> rows;
    for (int g = 0; g < 2; ++g)
        for (int j = 0; j < 2; ++j) {
            store::Rollout r;
            r.promptId = "p";
            r.groupIndex = g;
            r.sampleIndex = j;
            r.completion = "c";
            r.reward = rewards[g][j];
            r.completionTokens = 1;
            rows.push_back(r);
        }
    writer.writeStep(run, 1, {}, rows, {{"p", "prompt", "gold", "{}"}});

    store::RunStore reader(path, store::RunStore::OpenMode::ReadOnly);
    GroupAdvantageModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.load(reader, run, 1);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.flatGroups(), 1);
    QCOMPARE(model.data(model.index(0, GroupAdvantageModel::MeanColumn), GroupAdvantageModel::ValueRole).toDouble(), 0.5);
    QVERIFY(std::abs(model.data(model.index(0, GroupAdvantageModel::StdColumn), GroupAdvantageModel::ValueRole).toDouble() -
                     std::sqrt(0.5)) < 1e-9);
    QCOMPARE(model.data(model.index(1, GroupAdvantageModel::MeanColumn), GroupAdvantageModel::ValueRole).toDouble(), 0.2);
    // What a reader of the documented view groups by.
    std::vector<std::pair<int64_t, int64_t>> groups;
    reader.query("SELECT group_index, count(*) FROM v_rollouts WHERE run_id = " + std::to_string(run) +
                     " AND step = 1 AND prompt_id = 'p' GROUP BY group_index ORDER BY group_index",
                 [&](const std::vector<std::string> &, const std::vector<store::SqlValue> &v) {
                     groups.emplace_back(v.at(0).integer, v.at(1).integer);
                     return true;
                 });
    QCOMPARE(groups, (std::vector<std::pair<int64_t, int64_t>>{{0, 2}, {1, 2}}));
}

QTEST_MAIN(TestGroupAdvantageModel)
#include "tst_groupadvantagemodel.moc"
