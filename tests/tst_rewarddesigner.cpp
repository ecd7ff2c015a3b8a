// widgets: the Reward Designer (model, proxy, weight editor, detail view, presets).
// Expected totals are worked out by hand from the reward definitions; tolerance 1e-9.
#include "componentweightseditor.h"
#include "rewarddesigner.h"
#include "sampledetailview.h"
#include "samplefilterproxy.h"
#include "samplescoremodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QSlider>
#include <QTableView>
#include <QTemporaryDir>
#include <QComboBox>
#include <QPushButton>
#include <QtTest>

namespace {
constexpr double kTol = 1e-9;

// Three completions of one e-mail whose gold is 株式会社きらめき商事:
//   s1 "株式会社きらめき商事": partial 1, marker 1, exist 1
//   s2 "きらめき商事":         partial 12/16 = 0.75, marker 1, exist 1
//   s3 "東和物産株式会社":     the recipient; LCS 株式会社 (4): partial 8/18 = 4/9;
//                              marker: 東和物産 vs きらめき商事 share nothing: 0; exist 1
QByteArray sampleJsonl()
{
    const char *email = R"(東和物産株式会社\n佐藤様\n\n株式会社 きらめき 商事の山田です。)";
    QByteArray out;
    const char *completions[][3] = {{"s1", "株式会社きらめき商事", "correct"},
                                    {"s2", "きらめき商事", "marker_only"},
                                    {"s3", "東和物産株式会社", "recipient"}};
    for (const auto &c : completions)
        out += QStringLiteral(R"({"id":"%1","task":"company_extraction","sender_email":"山田 <yamada@kirameki.co.jp>","email_text":"%2","completion":"%3","gold":"株式会社きらめき商事","kind":"%4"})")
                   .arg(QString::fromUtf8(c[0]), QString::fromUtf8(email), QString::fromUtf8(c[1]), QString::fromUtf8(c[2]))
                   .toUtf8() +
               "\n";
    return out;
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return path;
}

int rowOf(const SampleScoreModel *m, const char *id)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->record(r).example->id() == id)
            return r;
    return -1;
}
} // namespace

class TestRewardDesigner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelsPassTester();
    void weightChangeUpdatesTotals();
    void sliderAndShares();
    void filterAndSort();
    void detailExplains();
    void legalSamples();
    void presetsLoadAndSave();
    void editedPresetAndRestart();
    void badInputKeepsState();
    void thinkingMode();
    void weightsDuringRun();
    void thousandSamples();

private:
    QTemporaryDir m_dir;
    QString m_samples;
};

void TestRewardDesigner::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_samples = writeFile(m_dir, "s.jsonl", sampleJsonl());
}

void TestRewardDesigner::modelsPassTester()
{
    RewardDesigner d;
    QAbstractItemModelTester t1(d.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(d.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(d.loadSamples(m_samples, &error), qPrintable(error));
    QVERIFY(d.loadConfig(":/presets/table1_partial50_marker50.json", &error));
    d.weightsEditor()->editWeight(2, 10);
    d.proxy()->setText("s2");
    d.proxy()->setText({});
    d.table()->sortByColumn(d.model()->totalColumn(), Qt::DescendingOrder);
    QVERIFY(d.loadSamples(":/samples/company_samples.jsonl", &error));
    QCOMPARE(d.model()->rowCount(), 210);
}

void TestRewardDesigner::weightChangeUpdatesTotals()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY2(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error), qPrintable(error));
    SampleScoreModel *m = d.model();
    const int s2 = rowOf(m, "s2");
    const int s3 = rowOf(m, "s3");
    QCOMPARE(m->componentNames(), (QStringList{"partial", "marker", "exist", "format", "domain"}));
    QVERIFY(std::abs(m->componentValue(s2, 0) - 0.75) < kTol);
    QVERIFY(std::abs(m->componentValue(s3, 0) - 4.0 / 9.0) < kTol);
    QCOMPARE(m->componentValue(s3, 1), 0.0);
    QCOMPARE(m->componentValue(s3, 2), 1.0);
    // 20·0.75 + 80·1 over 100.
    QVERIFY(std::abs(m->total(s2) - 0.95) < kTol);

    QSignalSpy changed(m, &QAbstractItemModel::dataChanged);
    // The user moves marker to 0: s2's total is partial alone.
    d.weightsEditor()->editWeight(1, 0);
    QVERIFY(!changed.isEmpty());
    QVERIFY(std::abs(m->total(s2) - 0.75) < kTol);
    // exist to 60: s3 = (20·4/9 + 60·1) / 80.
    d.weightsEditor()->editWeight(2, 60);
    QVERIFY(std::abs(m->total(s3) - (20.0 * 4.0 / 9.0 + 60.0) / 80.0) < kTol);
    // The cell the table shows follows.
    QCOMPARE(m->index(s3, m->totalColumn()).data().toString(), QString::number((20.0 * 4.0 / 9.0 + 60.0) / 80.0, 'f', 3));
    // The config the designer would save has the new weights.
    const auto c = d.currentConfig();
    QCOMPARE(c.components.size(), size_t(2));
    QCOMPARE(c.components[0].reward, std::string("partial"));
    QCOMPARE(c.components[1].reward, std::string("exist"));
    QCOMPARE(c.components[1].weight, 60.0);
}

void TestRewardDesigner::sliderAndShares()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    ComponentWeightsEditor *w = d.weightsEditor();
    QCOMPARE(w->shareText(0), QString("20.0 %"));
    QCOMPARE(w->shareText(1), QString("80.0 %"));
    QCOMPARE(w->slider(1)->value(), 80);
    QSignalSpy spy(w, &ComponentWeightsEditor::weightsChanged);
    w->slider(0)->setValue(60); // partial 60, marker 80: 42.9 % / 57.1 %
    QCOMPARE(spy.count(), 1);
    QCOMPARE(w->spinBox(0)->value(), 60.0);
    QCOMPARE(w->shareText(0), QString("42.9 %"));
    QCOMPARE(w->shareText(1), QString("57.1 %"));
    // A weight above the slider's range keeps the typed value.
    w->editWeight(1, 250);
    QCOMPARE(w->slider(1)->value(), 100);
    QCOMPARE(w->spinBox(1)->value(), 250.0);
    // All zero: no shares.
    w->editWeight(0, 0);
    w->editWeight(1, 0);
    QCOMPARE(w->shareText(0), QString("—"));
}

void TestRewardDesigner::filterAndSort()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    SampleFilterProxy *p = d.proxy();
    // marker < 0.5: only s3.
    p->setCondition(d.model()->componentColumn(1), SampleFilterProxy::Comparison::Less, 0.5);
    QCOMPARE(p->rowCount(), 1);
    QCOMPARE(p->index(0, SampleScoreModel::IdColumn).data().toString(), QString("s3"));
    // total ≥ 0.95: s1 (1.0) and s2 (0.95).
    p->setCondition(d.model()->totalColumn(), SampleFilterProxy::Comparison::GreaterOrEqual, 0.95);
    QCOMPARE(p->rowCount(), 2);
    p->setCondition(-1, SampleFilterProxy::Comparison::Less, 0);
    p->setText("marker_only");
    QCOMPARE(p->rowCount(), 1);
    p->setText({});
    // Sorted by total, ascending: s3, s2, s1.
    d.table()->sortByColumn(d.model()->totalColumn(), Qt::AscendingOrder);
    QCOMPARE(p->index(0, 0).data().toString(), QString("s3"));
    QCOMPARE(p->index(2, 0).data().toString(), QString("s1"));
    // A weight change re-sorts: with only exist weighted all are 1, ties keep a stable order;
    // with partial alone, s3 (4/9) stays first and s1 last.
    d.weightsEditor()->setWeights({1, 0, 0, 0, 0});
    d.model()->setWeights({1, 0, 0, 0, 0});
    QCOMPARE(p->index(0, 0).data().toString(), QString("s3"));
    QCOMPARE(p->index(1, 0).data().toString(), QString("s2"));
}

void TestRewardDesigner::detailExplains()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    d.table()->sortByColumn(SampleScoreModel::IdColumn, Qt::AscendingOrder);
    d.selectRow(1); // s2
    const QString html = d.detailView()->html();
    // The common substring きらめき商事 is highlighted in the normalized gold,
    const QRegularExpression common(QString::fromUtf8("株式会社</span><span style=\"[^\"]*background-color:#ffe08a;\">きらめき商事</span>"));
    QVERIFY(html.contains(common));
    // the removed marker is listed, and the contribution of marker is 0.8.
    QVERIFY(html.contains(QString::fromUtf8("株式会社")));
    QVERIFY(html.contains("0.800"));
    QVERIFY(html.contains("0.950"));
    // The domain candidates are shown with their romaji.
    // (kirameki is highlighted as the part shared with the domain, then shouji follows.)
    QVERIFY(html.contains(QRegularExpression("background-color:#ffe08a;\">kirameki</span><span[^>]*>shouji")));
}

void TestRewardDesigner::legalSamples()
{
    // The bundled legal-QA samples switch the Designer to that task: its four rule
    // components and its six judge components (scored only with a judge, see
    // tst_designerjudge), its two presets, and a config of the other task is refused with
    // both names.
    RewardDesigner d;
    QString error;
    QVERIFY2(d.loadSamples(":/samples/legal_qa_samples.jsonl", &error), qPrintable(error));
    QAbstractItemModelTester tester(d.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(std::string(d.model()->task().name()), std::string("legal_qa"));
    QCOMPARE(d.model()->componentNames(),
             (QStringList{"xml_format", "non_hallucination", "citation_f1", "semantic", "coverage", "consistency",
                          "rubric_explicit", "rubric_implicit", "likert_simple", "likert_reference"}));
    QCOMPARE(d.weightsEditor()->weights().size(), 10);
    QVERIFY(d.model()->rowCount() >= 150);
    auto *box = d.componentsPanel()->findChild<QComboBox *>(QStringLiteral("presets"));
    QCOMPARE(box->count(), 2);
    QVERIFY(!d.loadConfig(":/presets/table1_partial.json", &error));
    QVERIFY2(error.contains("company_extraction") && error.contains("legal_qa"), qPrintable(error));
    QVERIFY2(d.loadConfig(":/presets/legal_citation_only.json", &error), qPrintable(error));
    QCOMPARE(d.weightsEditor()->weights(), (QVector<double>{1, 1, 1, 0, 0, 0, 0, 0, 0, 0}));

    // q01-c1 is right: format 1, one retrieved code cited (0.5), citation F1 1; the total
    // over the three weighted components is (1 + 0.5 + 1) / 3.
    const int right = rowOf(d.model(), "q01-c1");
    QVERIFY(right >= 0);
    QCOMPARE(d.model()->record(right).kind, std::string("right"));
    QCOMPARE(d.model()->componentValue(right, 0), 1.0);
    QCOMPARE(d.model()->componentValue(right, 1), 0.5);
    QCOMPARE(d.model()->componentValue(right, 2), 1.0);
    QVERIFY(std::abs(d.model()->total(right) - 2.5 / 3.0) < 1e-12);

    // A hallucinated code: the detail names the category and marks the code as not in the prompt.
    int hallucinated = -1;
    for (int r = 0; r < d.model()->rowCount() && hallucinated < 0; ++r)
        if (d.model()->record(r).kind == "hallucinated_code")
            hallucinated = r;
    QVERIFY(hallucinated >= 0);
    QCOMPARE(d.model()->componentValue(hallucinated, 1), 0.0);
    d.table()->sortByColumn(SampleScoreModel::IdColumn, Qt::AscendingOrder);
    const QModelIndex source = d.model()->index(hallucinated, 0);
    d.table()->setCurrentIndex(static_cast<QSortFilterProxyModel *>(d.table()->model())->mapFromSource(source));
    const QString html = d.detailView()->html();
    QVERIFY2(html.contains("Hallucinated citation"), qPrintable(html.left(2000)));
    QVERIFY(html.contains("not in the prompt: a hallucinated code"));
    QVERIFY(html.contains("Citations against gold"));
    QVERIFY(html.contains("The answer's facts against the reference"));

    // Back to the extraction samples: five components again.
    QVERIFY(d.loadSamples(":/samples/company_samples.jsonl", &error));
    QCOMPARE(d.model()->componentNames().size(), 5);
    QCOMPARE(box->count(), 13);
}

void TestRewardDesigner::presetsLoadAndSave()
{
    QCOMPARE(RewardDesigner::bundledPresets().size(), 15);
    const auto presets = RewardDesigner::bundledPresets("company_extraction");
    QCOMPARE(presets.size(), 13);
    QCOMPARE(RewardDesigner::bundledPresets("legal_qa").size(), 2);
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadConfig(":/presets/table2_dagger_format50_partial10_marker40.json", &error));
    QVERIFY(d.model()->thinking());
    QCOMPARE(d.weightsEditor()->weights(), (QVector<double>{10, 40, 0, 50, 0}));
    const QString path = m_dir.filePath("saved.json");
    QVERIFY2(d.saveConfig(path, &error), qPrintable(error));
    RewardDesigner e;
    QVERIFY(e.loadConfig(path, &error));
    QCOMPARE(e.weightsEditor()->weights(), (QVector<double>{10, 40, 0, 50, 0}));
    QVERIFY(e.model()->thinking());
    // The preset box names the preset in force: the bundled one, a copy of it on disk
    // (found by its name), and nothing for a config that is none of the presets.
    auto *dBox = d.componentsPanel()->findChild<QComboBox *>(QStringLiteral("presets"));
    auto *eBox = e.componentsPanel()->findChild<QComboBox *>(QStringLiteral("presets"));
    QVERIFY(dBox && eBox);
    QVERIFY(dBox->currentData().toString().endsWith("table2_dagger_format50_partial10_marker40.json"));
    QCOMPARE(eBox->currentIndex(), dBox->currentIndex());
    const QString custom = writeFile(m_dir, "custom.json", R"({"components": [{"reward": "exist", "weight": 1}]})");
    QVERIFY2(e.loadConfig(custom, &error), qPrintable(error));
    QCOMPARE(eBox->currentIndex(), -1);
}

void TestRewardDesigner::editedPresetAndRestart()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    auto *box = d.componentsPanel()->findChild<QComboBox *>(QStringLiteral("presets"));
    QVERIFY(box);
    const QString preset = box->currentText();
    QVERIFY(box->currentIndex() >= 0);
    QVERIFY(!d.isEdited());
    QVERIFY(d.edits().isEmpty());
    // An edit: the preset is no longer in force, and the box says which one was edited.
    const int marker = d.model()->componentNames().indexOf("marker");
    d.weightsEditor()->editWeight(marker, 50);
    QVERIFY(d.isEdited());
    QCOMPARE(box->currentIndex(), -1);
    QCOMPARE(box->placeholderText(), preset + " (edited)");
    // What the window keeps between sessions, put back on the same config.
    const QVariantMap edits = d.edits();
    RewardDesigner e;
    QVERIFY(e.loadSamples(m_samples, &error));
    QVERIFY(e.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    e.restoreEdits(edits);
    QCOMPARE(e.weightsEditor()->weights(), d.weightsEditor()->weights());
    QVERIFY(e.isEdited());
    // The edit undone: the preset is back.
    d.weightsEditor()->editWeight(marker, 80);
    QVERIFY(!d.isEdited());
    QCOMPARE(box->currentText(), preset);
}

void TestRewardDesigner::badInputKeepsState()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    // A config with an unknown reward: refused, named, nothing changed.
    const QString bad = writeFile(m_dir, "bad.json", R"({"components": [{"reward": "parital", "weight": 1}]})");
    QVERIFY(!d.loadConfig(bad, &error));
    QVERIFY(error.contains("bad.json"));
    QVERIFY(error.contains("components[0].reward"));
    QCOMPARE(d.weightsEditor()->weights(), (QVector<double>{20, 80, 0, 0, 0}));
    // Samples with a malformed line: the others load, the line is reported.
    QByteArray mixed = sampleJsonl();
    mixed.insert(0, "{not json\n");
    const QString mixedPath = writeFile(m_dir, "mixed.jsonl", mixed);
    QStringList problems;
    QVERIFY(d.loadSamples(mixedPath, &error, &problems));
    QCOMPARE(d.model()->rowCount(), 3);
    QCOMPARE(problems.size(), 1);
    QVERIFY(problems[0].contains("mixed.jsonl:1:"));
    // A file with no valid line: refused, the old samples stay.
    const QString junk = writeFile(m_dir, "junk.jsonl", "nope\n");
    QVERIFY(!d.loadSamples(junk, &error));
    QCOMPARE(d.model()->rowCount(), 3);
    QVERIFY(!d.loadSamples(m_dir.filePath("missing.jsonl"), &error));
    QVERIFY(error.contains("missing.jsonl"));
    // Saving with every weight 0 is refused with the reason.
    d.weightsEditor()->setWeights({0, 0, 0, 0, 0});
    QVERIFY(!d.saveConfig(m_dir.filePath("zero.json"), &error));
    QVERIFY(error.contains("components"));
}

void TestRewardDesigner::thinkingMode()
{
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(":/samples/company_samples_thinking.jsonl", &error));
    QVERIFY(d.loadConfig(":/presets/table2_dagger_format50_partial10_marker40.json", &error));
    SampleScoreModel *m = d.model();
    int ok = 0;
    for (int r = 0; r < m->rowCount(); ++r) {
        const double format = m->componentValue(r, 3);
        QCOMPARE(format, m->record(r).kind == "bad_format" ? 0.0 : 1.0);
        ok += format == 1.0;
    }
    QVERIFY(ok > 0);
}

void TestRewardDesigner::weightsDuringRun()
{
    // A run uses partial 20 + marker 80. Edits re-score the samples at once but reach the
    // run only through applyToRunRequested, in the running config's component order.
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    const QStringList names = d.model()->componentNames();
    const int partial = names.indexOf("partial"), marker = names.indexOf("marker"), exist = names.indexOf("exist");
    QVERIFY(partial >= 0 && marker >= 0 && exist >= 0);
    QWidget *bar = d.componentsPanel()->findChild<QWidget *>("runBar");
    QVERIFY(bar);
    QVERIFY(bar->isHidden());
    QVERIFY(!d.weightsForRun());

    d.setRunningConfig(d.currentConfig());
    QVERIFY(!bar->isHidden());
    QVERIFY(!d.differsFromRun());
    QSignalSpy spy(&d, &RewardDesigner::applyToRunRequested);
    d.weightsEditor()->editWeight(marker, 50);
    QVERIFY(d.differsFromRun());
    // s2 (partial 0.75, marker 1) under 20/50: (20·0.75 + 50·1)/70 = 65/70, already in the table.
    QCOMPARE_LE(std::abs(d.model()->total(1) - 65.0 / 70.0), kTol);
    const auto w = d.weightsForRun();
    QVERIFY(w);
    QCOMPARE(*w, (QVector<double>{20.0, 50.0}));
    d.requestApplyToRun();
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<QVector<double>>(), (QVector<double>{20.0, 50.0}));
    // Sent (after the window's confirmation): not offered again until the weights change.
    auto *apply = d.componentsPanel()->findChild<QPushButton *>("applyToRun");
    QVERIFY(apply && apply->isEnabled());
    d.setWeightsSentToRun(spy.at(0).at(0).value<QVector<double>>());
    QVERIFY(!apply->isEnabled());
    d.weightsEditor()->editWeight(marker, 60);
    QVERIFY(apply->isEnabled());
    d.weightsEditor()->editWeight(marker, 50);
    QVERIFY(!apply->isEnabled());

    // A component the run does not have cannot be added during the run.
    d.weightsEditor()->editWeight(exist, 10);
    QString problem;
    QVERIFY(!d.weightsForRun(&problem));
    QVERIFY2(problem.contains("exist"), qPrintable(problem));

    // Revert puts the run's weights back.
    d.revertToRun();
    QVERIFY(!d.differsFromRun());
    QCOMPARE(d.weightsEditor()->weights()[marker], 80.0);
    QCOMPARE(d.weightsEditor()->weights()[exist], 0.0);
    d.setRunningConfig(std::nullopt);
    QVERIFY(bar->isHidden());
}

void TestRewardDesigner::thousandSamples()
{
    // 1,000 samples; a weight change recomputes only the totals. The time is reported,
    // not asserted (speed is a benchmark's job): see docs/results.md.
    std::vector<rwb::task::Record> records;
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(":/samples/company_samples.jsonl", &error));
    for (int i = 0; records.size() < 1000; ++i)
        records.push_back(d.model()->record(i % d.model()->rowCount()));
    d.model()->setSamples(d.model()->task(), records);
    QVERIFY(d.loadConfig(":/presets/table2_star_partial20_marker80.json", &error));
    d.table()->sortByColumn(d.model()->totalColumn(), Qt::DescendingOrder);
    QElapsedTimer t;
    t.start();
    d.weightsEditor()->editWeight(2, 50);
    const qint64 ns = t.nsecsElapsed();
    qInfo("weight change on 1000 samples, sorted by total: %.2f ms", ns / 1e6);
    const int row = 17;
    const double expected = (20 * d.model()->componentValue(row, 0) + 80 * d.model()->componentValue(row, 1) +
                             50 * d.model()->componentValue(row, 2)) / 150.0;
    QVERIFY(std::abs(d.model()->total(row) - expected) < kTol);
}

QTEST_MAIN(TestRewardDesigner)
#include "tst_rewarddesigner.moc"
