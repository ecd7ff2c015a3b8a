// core/eval: precision, recall and F1 with 不明 (the first paper's §2.4). Tolerance 1e-9.
#include "tasks/extraction/extractionmetrics.h"

#include <QtTest>

using namespace rwb::eval;

class TestMetrics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void handWorked();
    void cases_data();
    void cases();
};

void TestMetrics::handWorked()
{
    ExtractionScorer s;
    s.add("株式会社A", "株式会社A");   // output, exist, tp
    s.add("株式会社 A", "株式会社A");  // output, exist, tp (white space ignored)
    s.add("不明", "株式会社B");        // exist
    s.add("株式会社C", "不明");        // output
    s.add("不明", "不明");             // neither
    s.add("", "株式会社D");            // output (empty counts), exist
    s.add("ＡＢＣ", "ABC");            // output, exist, tp (NFKC)
    s.add("abc", "ABC");               // output, exist (case kept)
    s.add("不明", "株式会社E");        // exist
    const ExtractionMetrics m = s.result();
    QCOMPARE(int(m.nOutput), 6);
    QCOMPARE(int(m.nExist), 7);
    QCOMPARE(int(m.nTp), 3);
    QCOMPARE(int(m.count), 9);
    QVERIFY(std::abs(m.precision - 0.5) < 1e-9);
    QVERIFY(std::abs(m.recall - 3.0 / 7.0) < 1e-9);
    QVERIFY(std::abs(m.f1 - 6.0 / 13.0) < 1e-9);
}

void TestMetrics::cases_data()
{
    QTest::addColumn<QStringList>("preds");
    QTest::addColumn<QStringList>("golds");
    QTest::addColumn<double>("precision");
    QTest::addColumn<double>("recall");
    QTest::addColumn<double>("f1");
    QTest::newRow("nothing") << QStringList{} << QStringList{} << 0.0 << 0.0 << 0.0;
    QTest::newRow("all 不明 predicted") << QStringList{"不明", "不明"} << QStringList{"A", "B"} << 0.0 << 0.0 << 0.0;
    QTest::newRow("all golds 不明") << QStringList{"A", "不明"} << QStringList{"不明", "不明"} << 0.0 << 0.0 << 0.0;
    QTest::newRow("perfect") << QStringList{"A", "不明"} << QStringList{"A", "不明"} << 1.0 << 1.0 << 1.0;
    // 1 tp of 2 outputs, 1 exist: P 0.5, R 1, F1 2/3.
    QTest::newRow("one false positive") << QStringList{"A", "B"} << QStringList{"A", "不明"} << 0.5 << 1.0 << 2.0 / 3.0;
    QTest::newRow("不明 is not a match") << QStringList{"不明"} << QStringList{"不明"} << 0.0 << 0.0 << 0.0;
}

void TestMetrics::cases()
{
    QFETCH(QStringList, preds);
    QFETCH(QStringList, golds);
    QFETCH(double, precision);
    QFETCH(double, recall);
    QFETCH(double, f1);
    ExtractionScorer s;
    for (int i = 0; i < preds.size(); ++i)
        s.add(preds[i].toStdString(), golds[i].toStdString());
    const ExtractionMetrics m = s.result();
    QVERIFY(std::abs(m.precision - precision) < 1e-9);
    QVERIFY(std::abs(m.recall - recall) < 1e-9);
    QVERIFY(std::abs(m.f1 - f1) < 1e-9);
}

QTEST_APPLESS_MAIN(TestMetrics)
#include "tst_metrics.moc"
