// core/text romanize(): KAKASI, lower-case, only ASCII letters and digits.
#include "text/romanize.h"

#include <QtTest>

#include <thread>
#include <vector>

using rwb::text::romanize;

class TestRomanize : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cases_data();
    void cases();
    void threads();
};

void TestRomanize::cases_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::newRow("katakana") << QString::fromUtf8("サンサン") << "sansan";
    QTest::newRow("hiragana + kanji") << QString::fromUtf8("きらめき商事") << "kiramekishouji";
    QTest::newRow("long vowel mark dropped") << QString::fromUtf8("ソニー") << "soni";
    QTest::newRow("ascii lower-cased") << "ABC-Corp" << "abccorp";
    QTest::newRow("full-width folded") << QString::fromUtf8("ＡＢＣ") << "abc";
    QTest::newRow("digits kept") << "Tech24" << "tech24";
    QTest::newRow("empty") << "" << "";
    QTest::newRow("not in EUC-JP dropped") << QString::fromUtf8("A\U0001F600B") << "ab";
}

void TestRomanize::cases()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(romanize(input.toStdString())), expected);
}

void TestRomanize::threads()
{
    // KAKASI has global state; romanize() must serialize it.
    std::vector<std::thread> ts;
    std::vector<std::string> out(8);
    for (int i = 0; i < 8; ++i)
        ts.emplace_back([&out, i] {
            for (int k = 0; k < 200; ++k)
                out[i] = romanize(i % 2 ? "サンサン" : "きらめき商事");
        });
    for (auto &t : ts)
        t.join();
    for (int i = 0; i < 8; ++i)
        QCOMPARE(out[i], std::string(i % 2 ? "sansan" : "kiramekishouji"));
}

QTEST_APPLESS_MAIN(TestRomanize)
#include "tst_romanize.moc"
