// widgets: the failure explorer and its three models (categories, examples, A → B
// transitions) on hand-made predictions, the highlighted e-mail (UTF-16 positions with a
// character outside the BMP), opening a run store (and its missing e-mails file), a
// checkpoint evaluated here beside the run's stored evaluations (either as A or B), the
// detail pane following the list, and the status line following the language.
#include "failurecategorymodel.h"
#include "runsessions.h"
#include "failureexamplemodel.h"
#include "failureexplorer.h"
#include "failuretransitionmodel.h"
#include "presenterhtml.h"
#include "taskpresenter.h"

#include "tasks/extraction/emailfailures.h"
#include "tasks/extraction/extractionrecord.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTranslator>
#include <QtTest>

#include <fstream>

using namespace rwb;
using rwb::eval::FailureCategory;
using rwb::widgets::FailureCategoryModel;
using rwb::widgets::FailureExplorer;

namespace {

data::ExtractionRecord record(const char *id, const char *sender, const char *body, const char *gold,
                              const char *completion)
{
    data::ExtractionRecord r;
    r.id = id;
    r.senderEmail = sender;
    r.emailText = body;
    r.gold = gold;
    r.completion = completion;
    return r;
}

// b1: recipient 三伸化学株式会社; c1: gold 不明, recipient ナツメ株式会社;
// u1: 𠮷 (two UTF-16 units) before the gold.
const char *const kB1 = "三伸化学株式会社 制作部\n浜口様\n\nいつもお世話になっております。\n株式会社ミハル包装の中島です。";
const char *const kC1 = "ナツメ株式会社\nお客様相談室 御中\n\nはじめまして。中川と申します。\n加湿器についてお問い合わせします。";
const char *const kU1 = "𠮷田様\n\nいつもお世話になっております。\n株式会社ミハル包装の中島です。";

void writeLines(const QString &path, const std::vector<data::ExtractionRecord> &records)
{
    std::ofstream f(path.toStdString(), std::ios::binary);
    for (const data::ExtractionRecord &r : records)
        f << data::toJsonLine(r) << '\n';
}

int countAt(const QAbstractItemModel *m, int row, int column)
{
    return m->index(row, column).data().toString().toInt();
}

// A store in `dir` whose run 1 evaluated b1 and c1 at steps 0 and 20 (its e-mails in
// test.jsonl beside it): b1 invented then exact, c1 exact twice.
QString writeEvaluatedRun(const QTemporaryDir &dir)
{
    {
        std::ofstream f(dir.filePath("test.jsonl").toStdString(), std::ios::binary);
        f << data::toJsonLine(record("b1", "中島 <n@miharu.jp>", kB1, "株式会社ミハル包装", ""), false) << '\n'
          << data::toJsonLine(record("c1", "中川 <n@gmail.com>", kC1, "不明", ""), false) << '\n';
    }
    const QString storePath = dir.filePath("runs.sqlite");
    store::RunStore st(storePath.toStdString());
    const int64_t run = st.beginRun("r", store::RunKind::Grpo, R"({"eval_data": "test.jsonl"})", "company_extraction");
    st.writeEvalPredictions(run, 0, {{"b1", "ナツメ株式会社", "株式会社ミハル包装", false, "{}"},
                                     {"c1", "不明", "不明", true, "{}"}});
    st.writeEvalPredictions(run, 20, {{"b1", "株式会社ミハル包装", "株式会社ミハル包装", true, "{}"},
                                      {"c1", "不明", "不明", true, "{}"}});
    st.finishRun(run, store::RunStatus::Finished);
    return storePath;
}

QStringList comboTexts(const QComboBox *combo)
{
    QStringList texts;
    for (int i = 0; i < combo->count(); ++i)
        texts << combo->itemText(i);
    return texts;
}

} // namespace

class TestFailureExplorer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void compareTwoFiles();
    void highlightedEmail();
    void singleCheckpoint();
    void legalQaPredictions();
    void openRun();
    void openRunMissingEmails();
    void evaluatedHereBesideStored();
    void evaluatedHereAlone();
    void detailFollowsTheList();
    void statusFollowsTheLanguage();
    // Manual check, skipped unless RWB_FAILURES_DEMO_STORE names a run store: opens run 1,
    // compares its first and last checkpoints, prints the counts and saves a screenshot to
    // RWB_FAILURES_DEMO_PNG.
    void demoScreenshot();

private:
    QTemporaryDir m_dir;
    QString m_a, m_b;
};

void TestFailureExplorer::init()
{
    QVERIFY(m_dir.isValid());
    m_a = m_dir.filePath("a.jsonl");
    m_b = m_dir.filePath("b.jsonl");
    // A: b1 recipient, c1 exact (不明), u1 marker only.
    writeLines(m_a, {record("b1", "中島 <n@miharu.jp>", kB1, "株式会社ミハル包装", "三伸化学株式会社"),
                     record("c1", "中川 <n@gmail.com>", kC1, "不明", "不明"),
                     record("u1", "中島 <n@miharu.jp>", kU1, "株式会社ミハル包装", "ミハル包装")});
    // B: b1 exact (fixed), c1 named a company (broke), u1 exact (fixed).
    writeLines(m_b, {record("b1", "中島 <n@miharu.jp>", kB1, "株式会社ミハル包装", "株式会社ミハル包装"),
                     record("c1", "中川 <n@gmail.com>", kC1, "不明", "ナツメ株式会社"),
                     record("u1", "中島 <n@miharu.jp>", kU1, "株式会社ミハル包装", "株式会社ミハル包装")});
}

void TestFailureExplorer::compareTwoFiles()
{
    FailureExplorer explorer;
    QAbstractItemModelTester t1(explorer.categoryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(explorer.exampleModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(explorer.transitionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(explorer.openPredictions(m_a, m_b, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointSteps(), (QList<qint64>{0, 1}));
    QCOMPARE(explorer.checkpointA(), qint64(0));
    QCOMPARE(explorer.checkpointB(), qint64(1));

    // Categories: 9 rows + fixed + broke; columns category, A, B, B − A.
    const QAbstractItemModel *cats = explorer.categoryModel();
    QCOMPARE(cats->rowCount(), 11);
    QCOMPARE(cats->columnCount(), 4);
    const int exact = static_cast<int>(FailureCategory::Exact);
    QCOMPARE(countAt(cats, exact, 1), 1); // c1
    QCOMPARE(countAt(cats, exact, 2), 2); // b1, u1
    QCOMPARE(cats->index(exact, 3).data().toString(), QString("+1"));
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Recipient), 1), 1);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::MarkerOnly), 1), 1);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::NamedWhereUnknown), 2), 1);
    QCOMPARE(cats->index(9, 0).data(FailureCategoryModel::CountRole).toLongLong(), 2); // fixed
    QCOMPARE(countAt(cats, 9, 1), 2);
    QCOMPARE(countAt(cats, 10, 1), 1); // broke

    // Transitions: recipient → exact, marker → exact, exact → named where 不明.
    const QAbstractItemModel *trans = explorer.transitionModel();
    QCOMPARE(trans->rowCount(), 9);
    const auto cell = [&](FailureCategory a, FailureCategory b) {
        return trans->index(static_cast<int>(a), static_cast<int>(b)).data(widgets::FailureTransitionModel::CountRole).toLongLong();
    };
    QCOMPARE(cell(FailureCategory::Recipient, FailureCategory::Exact), 1);
    QCOMPARE(cell(FailureCategory::MarkerOnly, FailureCategory::Exact), 1);
    QCOMPARE(cell(FailureCategory::Exact, FailureCategory::NamedWhereUnknown), 1);
    QCOMPARE(cell(FailureCategory::Exact, FailureCategory::Exact), 0);

    // Fixed lists b1 and u1 with both predictions.
    QVERIFY(explorer.selectCategory(FailureCategoryModel::FixedFilter));
    const QAbstractItemModel *ex = explorer.exampleModel();
    QCOMPARE(ex->rowCount(), 2);
    QCOMPARE(ex->columnCount(), 5);
    QCOMPARE(ex->index(0, 0).data().toString(), QString("b1"));
    QCOMPARE(ex->index(0, 1).data().toString(), QString("三伸化学株式会社"));
    QCOMPARE(ex->index(0, 2).data().toString(), QString("株式会社ミハル包装"));
    QCOMPARE(ex->index(1, 0).data().toString(), QString("u1"));
    QVERIFY(explorer.selectCategory(FailureCategoryModel::BrokeFilter));
    QCOMPARE(ex->rowCount(), 1);
    QCOMPARE(ex->index(0, 0).data().toString(), QString("c1"));

    // A transition cell lists its e-mails.
    auto *matrix = explorer.findChild<QTableView *>("failureTransitions");
    QVERIFY(matrix);
    QVERIFY(!matrix->isHidden());
    QSignalSpy selected(&explorer, &FailureExplorer::exampleSelected);
    QMetaObject::invokeMethod(matrix, "clicked", Q_ARG(QModelIndex, trans->index(static_cast<int>(FailureCategory::MarkerOnly),
                                                                             static_cast<int>(FailureCategory::Exact))));
    QCOMPARE(ex->rowCount(), 1);
    QCOMPARE(ex->index(0, 0).data().toString(), QString("u1"));
    QVERIFY(explorer.selectExample("u1"));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toString(), QString("u1"));
    QVERIFY(!explorer.selectExample("b1")); // not in this list

    // No comparison: the matrix goes, fixed/broke rows go.
    explorer.compareWith(-1);
    QCOMPARE(cats->rowCount(), 9);
    QCOMPARE(cats->columnCount(), 3);
    QVERIFY(matrix->isHidden());
    QCOMPARE(trans->rowCount(), 0);
    QCOMPARE(ex->columnCount(), 4);
}

// The e-mail of u1 at A ("ミハル包装") vs B (the gold), with every span where it belongs.
void TestFailureExplorer::highlightedEmail()
{
    FailureExplorer explorer;
    QVERIFY(explorer.openPredictions(m_a, m_b));
    QVERIFY(explorer.selectCategory(static_cast<int>(FailureCategory::MarkerOnly)));
    QVERIFY(explorer.selectExample("u1"));
    QCOMPARE(explorer.currentExample(), QString("u1"));
    auto *view = explorer.findChild<QTextBrowser *>("failureEmail");
    QVERIFY(view);
    QTextDocument *doc = view->document();
    // "From: " (6) + "中島 <n@miharu.jp>" (16 UTF-16 units) + "\n\n" → the body at 24.
    // Body code points: 𠮷 田 様 \n \n, いつもお世話になっております。 (15), \n, then
    // 株式会社ミハル包装 at code point 21 = UTF-16 unit 22 (𠮷 takes two): document 46–55.
    const QString text = doc->toPlainText();
    QCOMPARE(text.mid(46, 9), QString("株式会社ミハル包装"));
    QCOMPARE(rwb::widgets::presenterhtml::utf16Offset(QString::fromUtf8(kU1), 21), 22);
    const auto formatAt = [&](int pos) {
        QTextCursor c(doc);
        c.setPosition(pos + 1); // the format of the character before the cursor (not at a block start)
        return c.charFormat();
    };
    const QColor gold(0xc6, 0xef, 0xce);
    QCOMPARE(formatAt(46).background().color(), gold);
    QCOMPARE(formatAt(54).background().color(), gold);
    QVERIFY(formatAt(44).background().color() != gold); // 。 before the line break
    QVERIFY(formatAt(55).background().color() != gold);
    // Prediction A "ミハル包装": 46 + 4 = 50 … 54, underlined; B (the whole gold) overlined.
    QCOMPARE(formatAt(50).underlineStyle(), QTextCharFormat::SingleUnderline);
    QCOMPARE(formatAt(54).underlineStyle(), QTextCharFormat::SingleUnderline);
    QCOMPARE(formatAt(49).underlineStyle(), QTextCharFormat::NoUnderline);
    QVERIFY(formatAt(46).fontOverline());
    QVERIFY(formatAt(54).fontOverline());
    QVERIFY(!formatAt(55).fontOverline());
    QVERIFY(!formatAt(44).fontOverline());
    // The explanation names both categories.
    auto *expl = explorer.findChild<QLabel *>("failureExplanation");
    const auto &presenter = rwb::widgets::TaskPresenter::forTask("company_extraction");
    QVERIFY(expl->text().contains(presenter.categoryName("marker_only", {}).toHtmlEscaped()));
    QVERIFY(expl->text().contains(presenter.categoryName("exact", {}).toHtmlEscaped()));
    QVERIFY(!presenter.categoryName("marker_only", {}).isEmpty());

    // b1: the recipient (三伸化学株式会社, body 0–8) in blue, the first thing of the body.
    QVERIFY(explorer.selectCategory(FailureCategoryModel::FixedFilter));
    QVERIFY(explorer.selectExample("b1"));
    QCOMPARE(doc->toPlainText().mid(24, 8), QString("三伸化学株式会社"));
    QCOMPARE(formatAt(24).background().color(), QColor(0xc9, 0xdd, 0xfb));
    QCOMPARE(formatAt(31).background().color(), QColor(0xc9, 0xdd, 0xfb));
    QCOMPARE(formatAt(31).underlineStyle(), QTextCharFormat::SingleUnderline); // prediction A there too
    QVERIFY(formatAt(32).background().color() != QColor(0xc9, 0xdd, 0xfb));
}

void TestFailureExplorer::singleCheckpoint()
{
    FailureExplorer explorer;
    QAbstractItemModelTester t1(explorer.categoryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(explorer.openPredictions(m_a));
    QCOMPARE(explorer.checkpointB(), qint64(-1));
    const QAbstractItemModel *cats = explorer.categoryModel();
    QCOMPARE(cats->rowCount(), 9);
    // 1 of 3 in each of exact, recipient, marker only.
    QCOMPARE(cats->index(static_cast<int>(FailureCategory::Exact), 2).data().toString(), QString("33.3 %"));
    QCOMPARE(cats->index(static_cast<int>(FailureCategory::Invented), 2).data().toString(), QString("0.0 %"));
    QVERIFY(!explorer.selectCategory(FailureCategoryModel::FixedFilter));
    QVERIFY(explorer.selectCategory(static_cast<int>(FailureCategory::Recipient)));
    QCOMPARE(explorer.exampleModel()->rowCount(), 1);
    explorer.close();
    QCOMPARE(cats->rowCount(), 0);
    QVERIFY(explorer.checkpointSteps().isEmpty());
    // A missing file: false, the message names it, nothing crashes.
    QString error;
    QVERIFY(!explorer.openPredictions(m_dir.filePath("nope.jsonl"), {}, &error));
    QVERIFY2(error.contains("nope.jsonl"), qPrintable(error));
}

void TestFailureExplorer::legalQaPredictions()
{
    // The bundled legal-QA samples read as one checkpoint's predictions: the legal task's
    // seven categories, counted from the labels (right 45 + duplicate_citation 12; format
    // = bad_xml 22; wrong citation = wrong_citation 22 + partial_citation 16; …).
    FailureExplorer explorer;
    QString error;
    QVERIFY2(explorer.openPredictions(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl", {}, &error), qPrintable(error));
    FailureCategoryModel *m = explorer.categoryModel();
    QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m->rowCount(), 7);
    const QStringList names{"Right", "Format", "Hallucinated citation", "Missing citation", "Wrong citation",
                            "Contradiction", "Incomplete answer"};
    const QList<qlonglong> counts{57, 22, 16, 13, 38, 26, 16};
    for (int r = 0; r < 7; ++r) {
        QCOMPARE(m->index(r, 0).data().toString(), names[r]);
        QCOMPARE(m->index(r, 0).data(FailureCategoryModel::CountRole).toLongLong(), counts[r]);
    }
    QVERIFY(explorer.selectCategory(2));
    QCOMPARE(explorer.exampleModel()->rowCount(), 16);
    const QString id = explorer.exampleModel()->row(0).id;
    QVERIFY(explorer.selectExample(id));
    auto *view = explorer.findChild<QTextBrowser *>("failureEmail");
    QVERIFY(view->toPlainText().contains("not in the prompt: a hallucinated code"));
    QVERIFY(view->toPlainText().contains("Sections in the prompt"));
    auto *expl = explorer.findChild<QLabel *>("failureExplanation");
    QVERIFY2(expl->text().contains("Hallucinated citation"), qPrintable(expl->text()));
}

void TestFailureExplorer::openRun()
{
    QTemporaryDir dir;
    {
        std::ofstream f(dir.filePath("test.jsonl").toStdString(), std::ios::binary);
        f << data::toJsonLine(record("b1", "中島 <n@miharu.jp>", kB1, "株式会社ミハル包装", ""), false) << '\n'
          << data::toJsonLine(record("c1", "中川 <n@gmail.com>", kC1, "不明", ""), false) << '\n';
    }
    const QString storePath = dir.filePath("runs.sqlite");
    {
        store::RunStore st(storePath.toStdString());
        const int64_t run = st.beginRun("r", store::RunKind::Grpo, R"({"eval_data": "test.jsonl"})", "company_extraction");
        st.writeEvalPredictions(run, 0, {{"b1", "ナツメ株式会社", "株式会社ミハル包装", false, "{}"},
                                         {"c1", "不明", "不明", true, "{}"}});
        st.writeEvalPredictions(run, 20, {{"b1", "株式会社ミハル包装", "株式会社ミハル包装", true, "{}"},
                                          {"c1", "不明", "不明", true, "{}"}});
        st.finishRun(run, store::RunStatus::Finished);
    }
    FailureExplorer explorer;
    QString error;
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointSteps(), (QList<qint64>{0, 20}));
    QCOMPARE(explorer.checkpointB(), qint64(20));
    // b1 at step 0 named the other e-mail's company: not in b1's text → invented.
    QCOMPARE(countAt(explorer.categoryModel(), static_cast<int>(FailureCategory::Invented), 1), 1);
    QCOMPARE(countAt(explorer.categoryModel(), 9, 1), 1); // fixed
    QCOMPARE(countAt(explorer.categoryModel(), 10, 1), 0); // broke
    QVERIFY(!rwbtest::showRun(explorer, storePath, 7, &error));
    QVERIFY2(error.contains("run 7"), qPrintable(error));
}

void TestFailureExplorer::openRunMissingEmails()
{
    QTemporaryDir dir;
    const QString storePath = dir.filePath("runs.sqlite");
    {
        store::RunStore st(storePath.toStdString());
        const int64_t run = st.beginRun("r", store::RunKind::Grpo, R"({"eval_data": "data/test.jsonl"})", "company_extraction");
        st.writeEvalPredictions(run, 0, {{"b1", "x", "y", false, "{}"}});
    }
    FailureExplorer explorer;
    QString error;
    QVERIFY(!rwbtest::showRun(explorer, storePath, 1, &error));
    QVERIFY2(error.contains(dir.filePath("data/test.jsonl")), qPrintable(error));
}

// Training ▸ Evaluate a checkpoint… on step 20: the file, labelled by run and step, beside
// the run's stored evaluations; A is the file, B the stored step 20, and any of them can be
// either side.
void TestFailureExplorer::evaluatedHereBesideStored()
{
    QTemporaryDir dir;
    const QString storePath = writeEvaluatedRun(dir);
    // Evaluated here: b1 the recipient's company (三伸化学), c1 named a company.
    const QString predictions = dir.filePath("predictions.jsonl");
    writeLines(predictions, {record("b1", "中島 <n@miharu.jp>", kB1, "株式会社ミハル包装", "三伸化学株式会社"),
                             record("c1", "中川 <n@gmail.com>", kC1, "不明", "ナツメ株式会社")});
    FailureExplorer explorer;
    QAbstractItemModelTester t1(explorer.categoryModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(explorer.exampleModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(explorer.transitionModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    QVERIFY2(explorer.openEvaluation(predictions, storePath, 1, 20, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointSteps(), (QList<qint64>{0, 20}));
    const QList<qint64> keys = explorer.checkpointKeys();
    QCOMPARE(keys.size(), 3);
    const qint64 here = keys.last();
    QVERIFY(here <= -2);
    QCOMPARE(explorer.checkpointLabel(here), QString("run 1 · step 20 (evaluated here)"));
    QCOMPARE(explorer.checkpointLabel(20), QString("step 20"));
    QCOMPARE(explorer.checkpointA(), here);
    QCOMPARE(explorer.checkpointB(), qint64(20));
    auto *comboA = explorer.findChild<QComboBox *>("failureCheckpointA");
    auto *comboB = explorer.findChild<QComboBox *>("failureCheckpointB");
    QCOMPARE(comboTexts(comboA), (QStringList{"step 0", "step 20", "run 1 · step 20 (evaluated here)"}));
    QCOMPARE(comboTexts(comboB), (QStringList{"(none)", "step 0", "step 20", "run 1 · step 20 (evaluated here)"}));
    QCOMPARE(comboA->currentText(), QString("run 1 · step 20 (evaluated here)"));
    QCOMPARE(comboA->itemData(2, Qt::ToolTipRole).toString(), predictions);
    // A (here): b1 recipient, c1 named where 不明; B (stored 20): both exact.
    const QAbstractItemModel *cats = explorer.categoryModel();
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Recipient), 1), 1);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::NamedWhereUnknown), 1), 1);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Exact), 2), 2);
    QCOMPARE(countAt(cats, 9, 1), 2); // fixed
    auto *summary = explorer.findChild<QLabel *>("failureCompareSummary");
    QVERIFY2(summary->text().contains("run 1 · step 20 (evaluated here)"), qPrintable(summary->text()));
    // The file as B against the stored step 0 (b1 invented → recipient: neither fixed nor broke).
    explorer.showCheckpoint(0);
    explorer.compareWith(here);
    QCOMPARE(explorer.checkpointA(), qint64(0));
    QCOMPARE(explorer.checkpointB(), here);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Invented), 1), 1);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Recipient), 2), 1);
    QCOMPARE(countAt(cats, 10, 1), 1); // broke: c1
    QCOMPARE(comboB->currentText(), QString("run 1 · step 20 (evaluated here)"));
    // Opened again (the run ended, or another session of it): the file is still there.
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointKeys(), keys);
    QCOMPARE(explorer.checkpointA(), qint64(0));
    QCOMPARE(explorer.checkpointB(), qint64(20));
    // Evaluated again: the same entry, its predictions read anew (b1 exact now).
    writeLines(predictions, {record("b1", "中島 <n@miharu.jp>", kB1, "株式会社ミハル包装", "株式会社ミハル包装")});
    QVERIFY2(explorer.openEvaluation(predictions, storePath, 1, 20, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointKeys(), keys);
    QCOMPARE(explorer.checkpointA(), here);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Exact), 1), 1);
    QCOMPARE(countAt(cats, static_cast<int>(FailureCategory::Recipient), 1), 0);
    // A file that cannot be read: false, naming it, and the explorer as it was.
    QVERIFY(!explorer.openEvaluation(dir.filePath("gone.jsonl"), storePath, 1, 0, &error));
    QVERIFY2(error.contains("gone.jsonl"), qPrintable(error));
    QCOMPARE(explorer.checkpointKeys(), keys);
}

// A run the explorer does not show (another run is open, or none): the file on its own,
// still labelled by its run and step; with the run's other files evaluated here.
void TestFailureExplorer::evaluatedHereAlone()
{
    QTemporaryDir dir;
    const QString storePath = writeEvaluatedRun(dir);
    FailureExplorer explorer;
    QString error;
    QVERIFY2(explorer.openEvaluation(m_a, storePath, 1, 40, &error), qPrintable(error));
    QVERIFY(explorer.checkpointSteps().isEmpty());
    QCOMPARE(explorer.checkpointKeys().size(), 1);
    const qint64 first = explorer.checkpointKeys().first();
    QCOMPARE(explorer.checkpointA(), first);
    QCOMPARE(explorer.checkpointB(), qint64(-1)); // no stored step 40
    QCOMPARE(explorer.checkpointLabel(first), QString("run 1 · step 40 (evaluated here)"));
    QVERIFY2(explorer.statusText().contains("run 1 of runs.sqlite"), qPrintable(explorer.statusText()));
    QCOMPARE(explorer.categoryModel()->rowCount(), 9);
    QVERIFY2(explorer.openEvaluation(m_b, storePath, 1, 60, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointKeys().size(), 2);
    QCOMPARE(explorer.checkpointKeys().first(), first);
    const qint64 second = explorer.checkpointKeys().last();
    QCOMPARE(explorer.checkpointA(), second);
    explorer.compareWith(first);
    // From the second file to the first: c1 fixed (named a company → 不明), b1 and u1 broke.
    QCOMPARE(countAt(explorer.categoryModel(), 9, 1), 1);
    QCOMPARE(countAt(explorer.categoryModel(), 10, 1), 2);
    // The run opened afterwards: stored steps and both files.
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    QCOMPARE(explorer.checkpointKeys(), (QList<qint64>{0, 20, first, second}));
}

// The detail pane describes an example of the list: a list without it clears the pane
// (no stale e-mail), a list with it keeps it, drawn again for the A and B of the moment.
void TestFailureExplorer::detailFollowsTheList()
{
    FailureExplorer explorer;
    QVERIFY(explorer.openPredictions(m_a, m_b));
    auto *email = explorer.findChild<QTextBrowser *>("failureEmail");
    auto *expl = explorer.findChild<QLabel *>("failureExplanation");
    QSignalSpy selected(&explorer, &FailureExplorer::exampleSelected);
    QVERIFY(explorer.selectCategory(static_cast<int>(FailureCategory::MarkerOnly)));
    QVERIFY(explorer.selectExample("u1"));
    QVERIFY(!email->toPlainText().isEmpty());
    QVERIFY(expl->text().contains("Prediction B"));
    // Another category without u1: cleared.
    QVERIFY(explorer.selectCategory(static_cast<int>(FailureCategory::Recipient)));
    QCOMPARE(explorer.currentExample(), QString());
    QVERIFY(email->toPlainText().isEmpty());
    QVERIFY(expl->text().isEmpty());
    QCOMPARE(selected.size(), 2);
    QCOMPARE(selected.last().at(0).toString(), QString());
    // Fixed holds u1: it stays through a change of B that keeps it listed…
    QVERIFY(explorer.selectCategory(FailureCategoryModel::FixedFilter));
    QVERIFY(explorer.selectExample("u1"));
    explorer.compareWith(-1); // Fixed goes: the right category at A, which has no u1
    QCOMPARE(explorer.currentExample(), QString());
    QVERIFY(email->toPlainText().isEmpty());
    // … and with A at the second file, whose right category holds u1, it stays, drawn
    // without a B.
    explorer.showCheckpoint(1);
    QVERIFY(explorer.selectExample("u1"));
    QVERIFY(expl->text().contains("Prediction B") == false);
    explorer.compareWith(0);
    QVERIFY(explorer.selectCategory(static_cast<int>(FailureCategory::Exact))); // b1, u1 right at A (file 2)
    QCOMPARE(explorer.currentExample(), QString("u1"));
    QVERIFY2(expl->text().contains("Prediction B"), qPrintable(expl->text()));
    auto *list = explorer.findChild<QTableView *>("failureExamples");
    QCOMPARE(list->currentIndex().row(), explorer.exampleModel()->rowOf("u1"));
    // Opening other predictions clears it too.
    QVERIFY(explorer.openPredictions(m_b));
    QCOMPARE(explorer.currentExample(), QString());
    QVERIFY(email->toPlainText().isEmpty());
}

// Settings ▸ Language at run time: the status line (and the combo boxes) follow.
void TestFailureExplorer::statusFollowsTheLanguage()
{
    QTemporaryDir dir;
    const QString storePath = writeEvaluatedRun(dir);
    FailureExplorer explorer;
    QString error;
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    QVERIFY2(explorer.openEvaluation(m_a, storePath, 1, 20, &error), qPrintable(error));
    const QString english = explorer.statusText();
    // The run's two e-mails and u1, which only the file has.
    QVERIFY2(english.startsWith("run 1 of runs.sqlite — 3 e-mail(s); "), qPrintable(english));
    auto *comboA = explorer.findChild<QComboBox *>("failureCheckpointA");
    QTranslator ja;
    QVERIFY(ja.load(":/i18n/reward-workbench_ja.qm"));
    QCoreApplication::installTranslator(&ja);
    QCoreApplication::processEvents(); // the posted LanguageChange
    const QString japanese = explorer.statusText();
    QVERIFY2(japanese.startsWith(QString::fromUtf8("runs.sqlite の実行 1 — メール 3 通。")), qPrintable(japanese));
    QCOMPARE(comboA->itemText(0), QString::fromUtf8("ステップ 0"));
    QCOMPARE(comboA->currentText(), QString::fromUtf8("実行 1 · ステップ 20（ここで評価）"));
    QCoreApplication::removeTranslator(&ja);
    QCoreApplication::processEvents();
    QCOMPARE(explorer.statusText(), english);
    QCOMPARE(comboA->currentText(), QString("run 1 · step 20 (evaluated here)"));
}

void TestFailureExplorer::demoScreenshot()
{
    const QString storePath = qEnvironmentVariable("RWB_FAILURES_DEMO_STORE");
    if (storePath.isEmpty())
        QSKIP("set RWB_FAILURES_DEMO_STORE (and RWB_FAILURES_DEMO_PNG) to run");
    FailureExplorer explorer;
    explorer.resize(1500, 820);
    QString error;
    QElapsedTimer timer;
    timer.start();
    QVERIFY2(rwbtest::showRun(explorer, storePath, 1, &error), qPrintable(error));
    qInfo() << "openRun took" << timer.elapsed() << "ms";
    const QList<qint64> steps = explorer.checkpointSteps();
    explorer.showCheckpoint(steps.first());
    explorer.compareWith(steps.last());
    const QAbstractItemModel *cats = explorer.categoryModel();
    for (int r = 0; r < cats->rowCount(); ++r)
        qInfo().noquote() << cats->index(r, 0).data().toString() << cats->index(r, 1).data().toString()
                          << cats->index(r, 2).data().toString();
    const QString category = qEnvironmentVariable("RWB_FAILURES_DEMO_CATEGORY", "5");
    QVERIFY(explorer.selectCategory(category.toInt()));
    QVERIFY(explorer.exampleModel()->rowCount() > 0);
    const int pick = qEnvironmentVariableIntValue("RWB_FAILURES_DEMO_ROW");
    QVERIFY(explorer.selectExample(explorer.exampleModel()->index(pick, 0).data().toString()));
    const QString chosen = explorer.currentExample();
    explorer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&explorer));
    QCOMPARE(explorer.currentExample(), chosen);
    const QString png = qEnvironmentVariable("RWB_FAILURES_DEMO_PNG", "/tmp/failures_demo.png");
    QVERIFY(explorer.grab().save(png));
}

QTEST_MAIN(TestFailureExplorer)
#include "tst_failureexplorer.moc"
