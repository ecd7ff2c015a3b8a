// translations/: the Japanese translation is complete, current, and loads.
#include <QDir>
#include <QDirIterator>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>
#include "testtime.h"

namespace {
struct TsFile {
    QSet<QString> sources;     // "context\x1fsource"
    QStringList unfinished;    // messages without a finished translation
};

TsFile readTs(const QString &path)
{
    TsFile ts;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return ts;
    QXmlStreamReader x(&f);
    QString context, source;
    bool finished = true, hasText = false;
    while (!x.atEnd()) {
        x.readNext();
        if (x.isStartElement()) {
            if (x.name() == QLatin1String("name"))
                context = x.readElementText();
            else if (x.name() == QLatin1String("message")) {
                finished = true;
                hasText = false;
            } else if (x.name() == QLatin1String("source"))
                source = x.readElementText();
            else if (x.name() == QLatin1String("translation")) {
                const auto type = x.attributes().value(QLatin1String("type"));
                finished = type.isEmpty();
                const QString text = x.readElementText(QXmlStreamReader::IncludeChildElements);
                hasText = !text.trimmed().isEmpty();
            }
        } else if (x.isEndElement() && x.name() == QLatin1String("message")) {
            ts.sources.insert(context + QChar(0x1f) + source);
            if (!finished || !hasText)
                ts.unfinished << context + ": " + source;
        }
    }
    return ts;
}
} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void complete();
    void currentWithSources();
    void loadsAndTranslates();
};

void TestTranslations::complete()
{
    const TsFile ts = readTs(RWB_TS_FILE);
    QVERIFY(ts.sources.size() > 100);
    QVERIFY2(ts.unfinished.isEmpty(), qPrintable(ts.unfinished.join('\n')));
}

void TestTranslations::currentWithSources()
{
    // lupdate over the same sources the build scans must find no string the .ts lacks.
    QTemporaryDir tmp;
    QStringList args;
    for (const char *dir : {"/widgets", "/app/workbench"}) {
        QDirIterator it(QStringLiteral(RWB_SOURCE_DIR) + dir, {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            args << it.next();
    }
    const QString out = tmp.filePath("fresh_ja.ts");
    args << "-no-obsolete" << "-locations" << "none" << "-silent" << "-ts" << out;
    QProcess p;
    p.start(RWB_LUPDATE, args);
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
    QCOMPARE(p.exitCode(), 0);
    const TsFile fresh = readTs(out);
    const TsFile committed = readTs(RWB_TS_FILE);
    QVERIFY(fresh.sources.size() > 100);
    QStringList missing;
    for (const QString &s : fresh.sources)
        if (!committed.sources.contains(s))
            missing << QString(s).replace(QChar(0x1f), ": ");
    QVERIFY2(missing.isEmpty(), qPrintable("not in the .ts (run the update_translations target and translate them in the .ts):\n" +
                                           missing.join('\n')));
    // And every string of the .ts is still found there: a string that moved where lupdate
    // cannot see it (a helper's argument, a numerus count it cannot parse) would be dropped
    // with its Japanese by the next update_translations.
    QStringList stale;
    for (const QString &s : committed.sources)
        if (!fresh.sources.contains(s))
            stale << QString(s).replace(QChar(0x1f), ": ");
    QVERIFY2(stale.isEmpty(), qPrintable("in the .ts but not found in the sources by lupdate:\n" + stale.join('\n')));
}

void TestTranslations::loadsAndTranslates()
{
    QTranslator t;
    QVERIFY(t.load(":/i18n/reward-workbench_ja.qm"));
    QCOMPARE(t.translate("MainWindow", "&File"), QString::fromUtf8("ファイル(&F)"));
    QCOMPARE(t.translate("SampleScoreModel", "Gold"), QString::fromUtf8("正解"));
    QCOMPARE(t.translate("DesignerActions", "%1 · %n sample(s)", nullptr, 3), QString::fromUtf8("%1 · %n 件のサンプル")); // %n is filled by QCoreApplication::translate
}

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
