// widgets/RunListModel under QAbstractItemModelTester: runs written by the test (one
// finished, one failed with its message, one running with two steps) shown with their
// status, steps and last step; refresh() updating a row in place, appending a new run,
// and a store that is not there reported by name. The store's document (StoreDocument):
// one per file, a run written through it shown in the list without a refresh, a missing
// or foreign file named in the error, a missing file made when asked to.
#include "runlistmodel.h"
#include "storedocument.h"
#include "store/runstore.h"

#include <sqlite3.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace rwb;
using rwb::widgets::RunListModel;

class TestRunListModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsRunsAndRefreshes();
    void missingStore();
    void storeDocument();
};

void TestRunListModel::showsRunsAndRefreshes()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    store::RunStore writer(path.toStdString());
    const int64_t a = writer.beginRun("sft-a", store::RunKind::Sft, "{}", "company_extraction");
    writer.writeStep(a, 1, {{"loss", 1.0}}, {});
    writer.finishRun(a, store::RunStatus::Finished);
    const int64_t b = writer.beginRun("grpo-b", store::RunKind::Grpo, "{}", "company_extraction");
    writer.finishRun(b, store::RunStatus::Failed, "step 3: the loss is NaN");
    const int64_t c = writer.beginRun("grpo-c", store::RunKind::Grpo, "{}", "company_extraction");
    writer.writeStep(c, 1, {{"reward", 0.1}}, {});
    writer.writeStep(c, 2, {{"reward", 0.2}}, {});

    RunListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(model.open(path, &error), qPrintable(error));
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 10);
    auto cell = [&](int row, int column) { return model.index(row, column).data(); };
    QCOMPARE(model.runId(0), a);
    QCOMPARE(model.runId(2), c);
    QCOMPARE(model.runId(3), 0);
    QCOMPARE(cell(0, RunListModel::NameColumn).toString(), QStringLiteral("sft-a"));
    QCOMPARE(cell(0, RunListModel::KindColumn).toString(), QStringLiteral("sft"));
    QCOMPARE(cell(0, RunListModel::StatusColumn).toString(), QStringLiteral("finished"));
    QCOMPARE(cell(0, RunListModel::StepsColumn).toLongLong(), 1);
    QVERIFY(!cell(0, RunListModel::FinishedColumn).toString().isEmpty());
    QCOMPARE(cell(1, RunListModel::StatusColumn).toString(), QStringLiteral("failed"));
    QCOMPARE(cell(1, RunListModel::MessageColumn).toString(), QStringLiteral("step 3: the loss is NaN"));
    QCOMPARE(cell(1, RunListModel::StepsColumn).toLongLong(), 0);
    QCOMPARE(cell(1, RunListModel::LastStepColumn).toString(), QString()); // no step
    QCOMPARE(cell(2, RunListModel::StatusColumn).toString(), QStringLiteral("running"));
    QCOMPARE(cell(2, RunListModel::StepsColumn).toLongLong(), 2);
    QCOMPARE(cell(2, RunListModel::LastStepColumn).toLongLong(), 2);
    QCOMPARE(cell(2, RunListModel::FinishedColumn).toString(), QString());
    QCOMPARE(model.index(2, 0).data(RunListModel::RunIdRole).toLongLong(), c);
    QCOMPARE(model.index(1, 0).data(RunListModel::StatusRole).toString(), QStringLiteral("failed"));
    QCOMPARE(model.headerData(RunListModel::LastStepColumn, Qt::Horizontal).toString(), QStringLiteral("Last step"));

    // The running run takes a step and finishes; a new run begins.
    writer.writeStep(c, 3, {{"reward", 0.3}}, {});
    writer.finishRun(c, store::RunStatus::Stopped, "stopped by the user");
    const int64_t d = writer.beginRun("eval-d", store::RunKind::Eval, "{}", "company_extraction");
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QVERIFY(model.refresh());
    QCOMPARE(changed.count(), 1); // row 2 only
    QCOMPARE(changed.first().at(0).toModelIndex().row(), 2);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(cell(2, RunListModel::StatusColumn).toString(), QStringLiteral("stopped"));
    QCOMPARE(cell(2, RunListModel::LastStepColumn).toLongLong(), 3);
    QCOMPARE(model.runId(3), d);
    QCOMPARE(model.rowOfRun(d), 3);
    QCOMPARE(cell(3, RunListModel::KindColumn).toString(), QStringLiteral("eval"));

    // Nothing changed: nothing emitted.
    changed.clear();
    QVERIFY(model.refresh());
    QCOMPARE(changed.count(), 0);
}

void TestRunListModel::missingStore()
{
    QTemporaryDir dir;
    RunListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY(!model.open(dir.path() + "/none.sqlite", &error));
    QVERIFY2(error.contains(dir.path() + "/none.sqlite"), qPrintable(error));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.refresh()); // no store: nothing to do
}

QTEST_MAIN(TestRunListModel)
void TestRunListModel::storeDocument()
{
    using rwb::widgets::StoreDocument;
    QTemporaryDir dir;
    const QString path = dir.path() + "/runs.sqlite";
    QString error;
    // Missing: an error naming the file, unless the document is to make it.
    QVERIFY(!StoreDocument::open(path, &error));
    QVERIFY2(error.contains(path), qPrintable(error));
    QVERIFY(!QFileInfo::exists(path));
    const std::shared_ptr<StoreDocument> doc = StoreDocument::open(path, &error, StoreDocument::Missing::Create);
    QVERIFY2(doc, qPrintable(error));
    QVERIFY(QFileInfo(path).isFile());
    QCOMPARE(doc->store().runs().size(), size_t(0));
    // One document per file, however the path is spelled.
    QCOMPARE(StoreDocument::open(dir.path() + "/./runs.sqlite", &error).get(), doc.get());

    // A run written through the document reaches the list without a refresh.
    RunListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY2(model.open(doc, &error), qPrintable(error));
    QCOMPARE(model.rowCount(), 0);
    const int64_t run = doc->writable().beginRun("imported", store::RunKind::Grpo, "{}", "company_extraction");
    QCOMPARE(model.rowCount(), 0);
    doc->announceChange();
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.runId(0), run);
    // A worker thread's connections read and write the same file.
    const std::unique_ptr<store::RunStore> reader = doc->reader()();
    QCOMPARE(reader->run(run).name, std::string("imported"));
    doc->writer()()->finishRun(run, store::RunStatus::Finished);
    QCOMPARE(doc->store().run(run).status, std::string("finished"));

    // Not a run store: the error names the file.
    const QString garbage = dir.path() + "/notes.sqlite";
    {
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not SQLite, just text");
    }
    QVERIFY(!StoreDocument::open(garbage, &error, StoreDocument::Missing::Create));
    QVERIFY2(error.contains(garbage), qPrintable(error));

    // A store deleted and made again is a new document, not the old one's connections.
    const QString again = dir.path() + "/again.sqlite";
    std::shared_ptr<StoreDocument> first = StoreDocument::open(again, &error, StoreDocument::Missing::Create);
    QVERIFY2(first, qPrintable(error));
    first->writable().beginRun("before", store::RunKind::Grpo, "{}", "company_extraction");
    QVERIFY(QFile::remove(again));
    QVERIFY(QFile::remove(again + "-wal") || !QFileInfo::exists(again + "-wal"));
    QFile::remove(again + "-shm");
    { store::RunStore made(again.toStdString()); }
    const std::shared_ptr<StoreDocument> second = StoreDocument::open(again, &error);
    QVERIFY2(second, qPrintable(error));
    QVERIFY(second.get() != first.get());
    QCOMPARE(second->store().runs().size(), size_t(0));

    // An older file: the first write upgrades it, and the document's reader sees the new
    // schema (a version 6 file has no preference pairs; after the upgrade they read).
    const QString old = dir.path() + "/old.sqlite";
    { store::RunStore made(old.toStdString()); }
    sqlite3 *db = nullptr;
    QCOMPARE(sqlite3_open(old.toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, "DROP VIEW v_prm_labels; DROP VIEW v_prm_pairs; DROP TABLE prm_labels; "
                              "DROP TABLE prm_pairs; DROP TABLE run_tags; DROP TABLE deleted_runs; PRAGMA user_version = 6",
                          nullptr, nullptr, nullptr),
             SQLITE_OK);
    sqlite3_close(db);
    const std::shared_ptr<StoreDocument> oldDoc = StoreDocument::open(old, &error);
    QVERIFY2(oldDoc, qPrintable(error));
    QCOMPARE(oldDoc->store().schemaVersion(), 6);
    const int current = oldDoc->writable().schemaVersion();
    QVERIFY(current > 6);
    QCOMPARE(oldDoc->store().schemaVersion(), current);
    QCOMPARE(oldDoc->store().pairSets().size(), size_t(0));
}

#include "tst_runlistmodel.moc"
