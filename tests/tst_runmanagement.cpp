// Run management in the Runs dock, on a small store made here: RunListModel renames (its
// Name column through setData), tags and deletes through the store document's writable
// connection; RunFilterProxy filters by name, tag and kind; RunTableView asks before a
// delete (naming the run and what goes with it), refuses a run still being written, and
// says which run went; RunConfigDiffModel flattens configs to key paths and lists where two
// differ, shown by RunConfigDialog. Every model under QAbstractItemModelTester; expected
// values worked out by hand from the configs and rows written below.
#include "languagemanager.h"
#include "mainwindow.h"
#include "runconfigdialog.h"
#include "runconfigdiffmodel.h"
#include "runfilterproxy.h"
#include "runlistmodel.h"
#include "runtableview.h"
#include "storedocument.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace rwb;
using rwb::widgets::RunConfigDialog;
using rwb::widgets::RunConfigDiffModel;
using rwb::widgets::RunFilterProxy;
using rwb::widgets::RunListModel;
using rwb::widgets::RunTableView;

namespace {

// The two configs compared below. Their union has 7 paths (beta, group, lr,
// reward.weights.format, reward.weights.marker, reward.weights.partial, seed), of which 4
// differ: beta and reward.weights.format (only in B), lr (1e-05 vs 2e-05) and
// reward.weights.partial (only in A).
constexpr const char *kConfigA = R"({"lr":1e-05,"group":8,"reward":{"weights":{"marker":0.8,"partial":0.2}},"seed":1})";
constexpr const char *kConfigB =
    R"({"seed":1,"beta":0.04,"lr":2e-05,"group":8,"reward":{"weights":{"format":0.1,"marker":0.8}}})";

store::Rollout rollout(int sample)
{
    store::Rollout r;
    r.promptId = "p0";
    r.sampleIndex = sample;
    r.completion = "<answer>株式会社きらめき商事</answer>";
    r.reward = 1.0;
    return r;
}

} // namespace

class TestRunManagement : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void renameAndTags();
    void filter();
    void deleteRuns();
    void flatten();
    void configDiff();
    void compareDialog();
    void deleteShownRun();

private:
    // Runs a ("grpo-baseline", kConfigA, finished, 2 steps of 2 rollouts each), b
    // ("grpo-lr", kConfigB, finished, 1 step), c ("sft-warmup", SFT, running, just
    // written) in a new store; the list opened on it.
    void makeStore();

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
    int64_t m_a = 0, m_b = 0, m_c = 0;
    std::unique_ptr<RunListModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestRunManagement::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("RewardWorkbenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_runmanagement"));
    QSettings().clear();
}

void TestRunManagement::init()
{
    m_tester.reset();
    m_model.reset();
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    makeStore();
}

void TestRunManagement::makeStore()
{
    m_path = m_dir->filePath(QStringLiteral("runs.sqlite"));
    store::RunStore writer(m_path.toStdString());
    const std::vector<store::Prompt> prompts{{"p0", "送信者の会社名は？", "株式会社きらめき商事", "{}"}};
    m_a = writer.beginRun("grpo-baseline", store::RunKind::Grpo, kConfigA, "company_extraction");
    writer.writeStep(m_a, 1, {{"reward", 0.5}}, {rollout(0), rollout(1)}, prompts);
    writer.writeStep(m_a, 2, {{"reward", 0.75}}, {rollout(0), rollout(1)});
    writer.addCheckpoint(m_a, 2, "/tmp/checkpoint-2");
    writer.finishRun(m_a, store::RunStatus::Finished);
    m_b = writer.beginRun("grpo-lr", store::RunKind::Grpo, kConfigB, "company_extraction");
    writer.writeStep(m_b, 1, {{"reward", 0.25}}, {rollout(0)}, prompts);
    writer.finishRun(m_b, store::RunStatus::Finished);
    m_c = writer.beginRun("sft-warmup", store::RunKind::Sft, "{}", "company_extraction");
    writer.writeStep(m_c, 1, {{"loss", 2.0}}, {});

    m_model = std::make_unique<RunListModel>();
    m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(),
                                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(m_model->open(m_path, &error), qPrintable(error));
    QCOMPARE(m_model->rowCount(), 3);
}

void TestRunManagement::renameAndTags()
{
    RunListModel &model = *m_model;
    QCOMPARE(model.columnCount(), 10);
    QCOMPARE(model.headerData(RunListModel::TagsColumn, Qt::Horizontal).toString(), QStringLiteral("Tags"));
    // Only the name is editable.
    QVERIFY(model.flags(model.index(0, RunListModel::NameColumn)).testFlag(Qt::ItemIsEditable));
    QVERIFY(!model.flags(model.index(0, RunListModel::TagsColumn)).testFlag(Qt::ItemIsEditable));
    QVERIFY(!model.setData(model.index(0, RunListModel::KindColumn), QStringLiteral("x")));

    // Renamed through setData: trimmed, in the store, and the row changed in place.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy failed(&model, &RunListModel::editFailed);
    const QModelIndex name = model.index(model.rowOfRun(m_a), RunListModel::NameColumn);
    QCOMPARE(name.data(Qt::EditRole).toString(), QStringLiteral("grpo-baseline"));
    QVERIFY(model.setData(name, QStringLiteral("  ベースライン lr 1e-5  ")));
    QCOMPARE(name.data().toString(), QStringLiteral("ベースライン lr 1e-5"));
    QCOMPARE(store::RunStore(m_path.toStdString(), store::RunStore::OpenMode::ReadOnly).run(m_a).name,
             std::string("ベースライン lr 1e-5"));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).toModelIndex().row(), name.row());
    QCOMPARE(model.index(model.rowOfRun(m_b), RunListModel::NameColumn).data().toString(), QStringLiteral("grpo-lr"));
    // A blank name: refused, said why, the name kept.
    QVERIFY(!model.setData(name, QStringLiteral("   ")));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.first().at(0).toString().contains(QString::number(m_a)), qPrintable(failed.first().at(0).toString()));
    QCOMPARE(name.data().toString(), QStringLiteral("ベースライン lr 1e-5"));
    QString error;
    QVERIFY(!model.renameRun(999, QStringLiteral("x"), &error));
    QVERIFY2(error.contains(QStringLiteral("999")), qPrintable(error));

    // Tags as typed: commas (ASCII, 、 and ，), blanks and a repeat.
    const QStringList typed = RunListModel::parseTags(QStringLiteral(" sweep, lr=1e-5、ベースライン，sweep ,, "));
    QCOMPARE(typed, (QStringList{"sweep", "lr=1e-5", "ベースライン"}));
    QVERIFY2(model.setRunTags(m_a, typed, &error), qPrintable(error));
    const int row = model.rowOfRun(m_a);
    // In the store's order (bytes: ASCII before kana).
    QCOMPARE(model.index(row, RunListModel::TagsColumn).data().toString(), QStringLiteral("lr=1e-5, sweep, ベースライン"));
    QCOMPARE(model.index(row, RunListModel::IdColumn).data(RunListModel::TagsRole).toStringList(),
             (QStringList{"lr=1e-5", "sweep", "ベースライン"}));
    QCOMPARE(store::RunStore(m_path.toStdString(), store::RunStore::OpenMode::ReadOnly).run(m_a).tags,
             (std::vector<std::string>{"lr=1e-5", "sweep", "ベースライン"}));
    QVERIFY(model.index(model.rowOfRun(m_b), RunListModel::TagsColumn).data().toString().isEmpty());

    // Through the view: the prompt starts from the tags, its answer replaces them.
    RunTableView view;
    view.setModel(&model);
    QString asked;
    view.setTextPrompt([&](const QString &, const QString &, QString *text) {
        asked = *text;
        *text = QStringLiteral("best, sweep");
        return true;
    });
    QVERIFY(view.selectRun(m_a));
    QCOMPARE(view.currentRunId(), m_a);
    QVERIFY(view.editTagsOfCurrentRun());
    QCOMPARE(asked, QStringLiteral("lr=1e-5, sweep, ベースライン"));
    QCOMPARE(model.index(row, RunListModel::TagsColumn).data().toString(), QStringLiteral("best, sweep"));
    // Cancelled: nothing changes.
    view.setTextPrompt([](const QString &, const QString &, QString *text) {
        *text = QStringLiteral("lost");
        return false;
    });
    QVERIFY(!view.editTagsOfCurrentRun());
    QCOMPARE(model.index(row, RunListModel::TagsColumn).data().toString(), QStringLiteral("best, sweep"));
    // Emptied: no tags.
    QVERIFY(model.setRunTags(m_a, {}, &error));
    QVERIFY(model.index(row, RunListModel::TagsColumn).data().toString().isEmpty());
}

void TestRunManagement::filter()
{
    RunListModel &model = *m_model;
    QString error;
    QVERIFY(model.setRunTags(m_b, {"sweep", "lr"}, &error));
    QVERIFY(model.setRunTags(m_c, {"Warmup"}, &error));
    RunTableView view;
    view.setModel(&model);
    RunFilterProxy &proxy = *view.proxy();
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto shown = [&] {
        QList<qint64> ids;
        for (int r = 0; r < proxy.rowCount(); ++r)
            ids << proxy.index(r, RunListModel::IdColumn).data(RunListModel::RunIdRole).toLongLong();
        return ids;
    };
    QCOMPARE(shown(), (QList<qint64>{m_a, m_b, m_c}));
    view.filterEdit()->setText(QStringLiteral("grpo")); // the kind of a and b (and both names)
    QCOMPARE(shown(), (QList<qint64>{m_a, m_b}));
    view.filterEdit()->setText(QStringLiteral("SWEEP")); // b's tag, any case
    QCOMPARE(shown(), (QList<qint64>{m_b}));
    view.filterEdit()->setText(QStringLiteral("sft warmup")); // c's kind and its tag (and name): every word
    QCOMPARE(shown(), (QList<qint64>{m_c}));
    view.filterEdit()->setText(QStringLiteral("grpo\u3000baseline")); // a's kind and name, an ideographic blank
    QCOMPARE(shown(), (QList<qint64>{m_a}));
    view.filterEdit()->setText(QStringLiteral("grpo warmup"));
    QVERIFY(shown().isEmpty());
    // A rename makes a run pass.
    QVERIFY(model.renameRun(m_c, QStringLiteral("grpo warmup"), &error));
    QCOMPARE(shown(), (QList<qint64>{m_c}));
    // Selecting a run the filter hides clears the filter.
    QVERIFY(view.selectRun(m_a));
    QVERIFY(view.filterEdit()->text().isEmpty());
    QCOMPARE(shown().size(), 3);
    QCOMPARE(view.currentRunId(), m_a);
    QVERIFY(!view.selectRun(999));
}

void TestRunManagement::deleteRuns()
{
    RunListModel &model = *m_model;
    RunTableView view;
    view.setModel(&model);
    QStringList asked;
    bool answer = false;
    view.setConfirmationHandler([&](const QString &, const QString &text) {
        asked << text;
        return answer;
    });
    QSignalSpy deleted(&view, &RunTableView::runDeleted);
    QSignalSpy notices(&view, &RunTableView::notice);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    // Declined: asked, naming the run, its file and what goes: 2 steps, 4 rollouts, 1
    // checkpoint row (its folder kept). Nothing deleted.
    QVERIFY(view.selectRun(m_a));
    QVERIFY(!view.deleteCurrentRun());
    QCOMPARE(asked.size(), 1);
    const QString &text = asked.first();
    for (const QString &part : {QStringLiteral("Delete run %1 “grpo-baseline” from runs.sqlite?").arg(m_a),
                                QStringLiteral("2 step(s) and their metrics"), QStringLiteral("4 rollout(s)"),
                                QStringLiteral("1 checkpoint record(s) (the checkpoint folders on disk are kept)"),
                                QStringLiteral("its config, reward configs and tags")})
        QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in:\n") + text));
    QVERIFY2(!text.contains(QStringLiteral("evaluation")), qPrintable(text)); // none: not listed
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(deleted.count(), 0);

    // Confirmed: the run goes from the store and its row from the list (removed, not reset),
    // and the view says which run of which store.
    answer = true;
    QVERIFY(view.deleteCurrentRun());
    QCOMPARE(deleted.count(), 1);
    QCOMPARE(deleted.first().at(0).toString(), m_model->storePath());
    QCOMPARE(deleted.first().at(1).toLongLong(), m_a);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOfRun(m_a), -1);
    QCOMPARE(model.runId(0), m_b);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(reset.count(), 0);
    {
        const store::RunStore reader(m_path.toStdString(), store::RunStore::OpenMode::ReadOnly);
        QCOMPARE(reader.runs().size(), size_t(2));
        int64_t rollouts = -1;
        reader.query("SELECT count(*) FROM rollouts", [&](const auto &, const auto &v) {
            rollouts = v.at(0).integer;
            return false;
        });
        QCOMPARE(rollouts, int64_t(1)); // b's one
    }

    // c is running and wrote just now: refused with a notice, not asked.
    asked.clear();
    QVERIFY(view.selectRun(m_c));
    QVERIFY(!view.deleteCurrentRun());
    QCOMPARE(asked.size(), 0);
    QCOMPARE(notices.count(), 1);
    QVERIFY2(notices.first().at(1).toString().contains(QStringLiteral("running")),
             qPrintable(notices.first().at(1).toString()));
    QCOMPARE(model.rowCount(), 2);
    // The model's own call is refused by the store alike.
    QString error;
    QVERIFY(!model.deleteRun(m_c, &error));
    QVERIFY2(error.contains(QStringLiteral("running")), qPrintable(error));

    // A run this program trains is not deleted either, whatever its state.
    view.setRunInUse([&](qint64 id) { return id == m_b; });
    QVERIFY(view.selectRun(m_b));
    QVERIFY(!view.deleteCurrentRun());
    QCOMPARE(asked.size(), 0);
    QCOMPARE(notices.count(), 2);
    view.setRunInUse({});
    QVERIFY(view.deleteCurrentRun());
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.runId(0), m_c);
    QCOMPARE(deleted.count(), 2);
    QCOMPARE(deleted.last().at(1).toLongLong(), m_b);
}

void TestRunManagement::flatten()
{
    std::vector<std::pair<QString, QString>> out;
    QVERIFY(RunConfigDiffModel::flatten(
        R"({"b":{"y":[1,{"z":"京都"}],"x":true},"a":1e-05,"e":[],"o":{},"n":null,"l":[0,1,2,3,4,5,6,7,8,9,10]})", &out));
    const std::vector<std::pair<QString, QString>> expected{
        {"a", "1e-05"},       {"b.x", "true"},   {"b.y[0]", "1"},   {"b.y[1].z", "\"京都\""}, {"e", "[]"},
        {"l[0]", "0"},        {"l[1]", "1"},     {"l[2]", "2"},     {"l[3]", "3"},            {"l[4]", "4"},
        {"l[5]", "5"},        {"l[6]", "6"},     {"l[7]", "7"},     {"l[8]", "8"},            {"l[9]", "9"},
        {"l[10]", "10"},      {"n", "null"},     {"o", "{}"}};
    QCOMPARE(out, expected);
    // Not JSON: its text, under no path.
    QVERIFY(!RunConfigDiffModel::flatten("{oops", &out));
    QCOMPARE(out, (std::vector<std::pair<QString, QString>>{{QString(), "{oops"}}));
}

void TestRunManagement::configDiff()
{
    RunConfigDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setConfigs({{"#1 a", kConfigA}, {"#2 b", kConfigB}});
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(RunConfigDiffModel::KeyColumn, Qt::Horizontal).toString(), QStringLiteral("Setting"));
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("#1 a"));
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("#2 b"));
    QCOMPARE(model.pathCount(), 7);
    QCOMPARE(model.differenceCount(), 4);
    // The differences only, by path.
    QCOMPARE(model.rowCount(), 4);
    const QStringList paths{"beta", "lr", "reward.weights.format", "reward.weights.partial"};
    for (int r = 0; r < 4; ++r) {
        QCOMPARE(model.path(r), paths[r]);
        QCOMPARE(model.index(r, RunConfigDiffModel::KeyColumn).data().toString(), paths[r]);
        QVERIFY(model.index(r, 0).data(RunConfigDiffModel::DifferentRole).toBool());
    }
    QVERIFY(!model.value(0, 0).has_value()); // beta: only in B
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("(absent)"));
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("0.04"));
    QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("1e-05"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("2e-05"));
    QCOMPARE(model.index(2, 2).data().toString(), QStringLiteral("0.1"));
    QCOMPARE(model.index(3, 1).data().toString(), QStringLiteral("0.2"));
    QVERIFY(!model.value(3, 1).has_value()); // partial: only in A
    QVERIFY(!model.index(1, 1).data(Qt::BackgroundRole).isValid()); // nothing to mark: all differ

    // Every path, the differing ones marked.
    model.setShowAll(true);
    QCOMPARE(model.rowCount(), 7);
    const QStringList all{"beta", "group", "lr", "reward.weights.format", "reward.weights.marker",
                          "reward.weights.partial", "seed"};
    const QList<bool> differs{true, false, true, true, false, true, false};
    for (int r = 0; r < 7; ++r) {
        QCOMPARE(model.path(r), all[r]);
        QCOMPARE(model.index(r, 0).data(RunConfigDiffModel::DifferentRole).toBool(), differs[r]);
        QCOMPARE(model.index(r, 1).data(Qt::BackgroundRole).isValid(), differs[r]);
    }
    QCOMPARE(model.index(1, 1).data().toString(), QStringLiteral("8"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("8"));
    model.setShowAll(false);
    QCOMPARE(model.rowCount(), 4);

    // The same config twice: nothing differs; one config: every path, one value column.
    model.setConfigs({{"x", kConfigA}, {"y", kConfigA}});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.differenceCount(), 0);
    model.setConfigs({{"#1 a", kConfigA}});
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(model.rowCount(), 5); // group, lr, reward.weights.marker, reward.weights.partial, seed
    QCOMPARE(model.path(2), QStringLiteral("reward.weights.marker"));
    QCOMPARE(model.index(2, 1).data().toString(), QStringLiteral("0.8"));
    model.setConfigs({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 1);
}

void TestRunManagement::compareDialog()
{
    RunTableView view;
    view.setModel(m_model.get());
    QSignalSpy notices(&view, &RunTableView::notice);
    // One run selected: nothing to compare.
    QVERIFY(view.selectRun(m_a));
    QVERIFY(!view.compareSelectedRuns());
    QCOMPARE(notices.count(), 1);
    // Two: their configs side by side, the differences only until "Show all settings".
    QItemSelectionModel *selection = view.table()->selectionModel();
    selection->select(view.proxy()->index(m_model->rowOfRun(m_b), 0),
                      QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QCOMPARE(view.selectedRunIds(), (QList<qint64>{m_a, m_b}));
    QPointer<RunConfigDialog> dialog = view.compareSelectedRuns();
    QVERIFY(dialog);
    QAbstractItemModelTester tester(dialog->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->table()->model(), dialog->model());
    QCOMPARE(dialog->model()->headerData(1, Qt::Horizontal).toString(), QStringLiteral("#%1 grpo-baseline").arg(m_a));
    QCOMPARE(dialog->model()->headerData(2, Qt::Horizontal).toString(), QStringLiteral("#%1 grpo-lr").arg(m_b));
    QCOMPARE(dialog->model()->rowCount(), 4);
    QCOMPARE(dialog->summary(), QStringLiteral("4 of 7 setting(s) differ."));
    QVERIFY(!dialog->showAllBox()->isHidden());
    dialog->showAllBox()->setChecked(true);
    QCOMPARE(dialog->model()->rowCount(), 7);
    QVERIFY(dialog->summary().startsWith(QStringLiteral("4 of 7 setting(s) differ.")));
    dialog->close(); // deletes itself
    QTRY_VERIFY(dialog.isNull());

    // One run's config: every setting, no toggle.
    QVERIFY(view.selectRun(m_b));
    QPointer<RunConfigDialog> one = view.showConfigOfCurrentRun();
    QVERIFY(one);
    QCOMPARE(one->model()->columnCount(), 2);
    QCOMPARE(one->model()->rowCount(), 6); // beta, group, lr, reward.weights.format, reward.weights.marker, seed
    QVERIFY(one->showAllBox()->isHidden());
    QCOMPARE(one->summary(), QStringLiteral("6 setting(s)."));
    delete one.data();
}

void TestRunManagement::deleteShownRun()
{
    // The main window shows a run; deleting it from the Runs dock closes it in the views.
    LanguageManager lang;
    lang.setChoice(QStringLiteral("en"));
    MainWindow w(&lang);
    QStringList asked;
    w.setConfirmationHandler([&](const QString &, const QString &text) {
        asked << text;
        return true;
    });
    QString error;
    QVERIFY2(w.openRun(m_path, m_b, &error), qPrintable(error));
    QCOMPARE(w.runId(), m_b);
    auto *runs = w.findChild<RunTableView *>(QStringLiteral("runTable"));
    QVERIFY(runs);
    QCOMPARE(runs->currentRunId(), m_b); // openRun selects it
    QCOMPARE(w.runList()->rowCount(), 3);
    QVERIFY(runs->deleteCurrentRun());
    QCOMPARE(asked.size(), 1); // through the window's confirmation
    QCOMPARE(w.runId(), 0);
    QCOMPARE(w.runList()->rowOfRun(m_b), -1);
    QCOMPARE(w.runList()->rowCount(), 2);
    // Another run opens as before.
    QVERIFY2(w.openRun(m_path, m_a, &error), qPrintable(error));
    QCOMPARE(w.runId(), m_a);
    QCOMPARE(runs->currentRunId(), m_a);
}

QTEST_MAIN(TestRunManagement)
#include "tst_runmanagement.moc"
