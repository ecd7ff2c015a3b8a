// core/text: normalization, longest common substring, legal-entity markers, UTF-8.
#include "text/lcs.h"
#include "text/markers.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <QtTest>

using namespace rwb::text;

class TestText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void normalizeCases_data();
    void normalizeCases();
    void normalizeKeepsCase();
    void invalidUtf8();
    void maximalSubparts_data();
    void maximalSubparts();
    void whiteSpace();
    void trimming();
    void lcs_data();
    void lcs();
    void markerList();
    void strip_data();
    void strip();
};

void TestText::normalizeCases_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ascii spaces") << "ABC Corp\tLtd\n" << "ABCCorpLtd";
    QTest::newRow("ideographic space") << QString::fromUtf8("株式会社\u3000サンサン") << QString::fromUtf8("株式会社サンサン");
    QTest::newRow("full-width letters and digits") << QString::fromUtf8("ＡＢＣ１２３") << "ABC123";
    QTest::newRow("circled kabu") << QString::fromUtf8("㈱きらめき") << QString::fromUtf8("(株)きらめき");
    QTest::newRow("full-width parens kabu") << QString::fromUtf8("（株）きらめき") << QString::fromUtf8("(株)きらめき");
    QTest::newRow("yuugen circled") << QString::fromUtf8("㈲山川") << QString::fromUtf8("(有)山川");
    QTest::newRow("half-width kana composes") << QString::fromUtf8("ｶﾌﾞｼｷ") << QString::fromUtf8("カブシキ");
    QTest::newRow("no-break space") << QString::fromUtf8("a\u00A0b") << "ab";
    QTest::newRow("line and paragraph separators") << QString::fromUtf8("a\u2028b\u2029c\u0085d") << "abcd";
    QTest::newRow("empty") << "" << "";
    QTest::newRow("only white space") << QString::fromUtf8(" \u3000\n") << "";
}

void TestText::normalizeCases()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(normalize(input.toStdString())), expected);
}

void TestText::normalizeKeepsCase()
{
    QCOMPARE(normalize("Sansan"), std::string("Sansan"));
    QCOMPARE(normalize("ｓａｎｓａｎ"), std::string("sansan"));
}

void TestText::invalidUtf8()
{
    // A lone continuation byte and a truncated 3-byte sequence each become U+FFFD.
    const std::u32string d = decodeUtf8(std::string("a\x80" "b\xE3\x81", 5));
    QCOMPARE(d.size(), size_t(4));
    QCOMPARE(static_cast<unsigned>(d[1]), 0xFFFDu);
    QCOMPARE(static_cast<unsigned>(d[3]), 0xFFFDu);
    // Overlong encoding of '/' is rejected.
    QCOMPARE(static_cast<unsigned>(decodeUtf8("\xC0\xAF")[0]), 0xFFFDu);
    QCOMPARE(normalize(std::string("\xFF" "A", 2)), std::string("\xEF\xBF\xBD" "A"));
    QCOMPARE(encodeUtf8(U"株"), std::string("株"));
}

void TestText::maximalSubparts_data()
{
    // Each ill-formed stretch costs one U+FFFD per maximal subpart (Unicode 15, §3.9 and
    // table 3-7 for the second byte's range); expected code points worked out by hand.
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected"); // code points in hex, space-separated
    QTest::newRow("surrogate lead ED A1") << QByteArray("\xED\xA1") << "FFFD FFFD";
    QTest::newRow("surrogate ED A0 80") << QByteArray("\xED\xA0\x80") << "FFFD FFFD FFFD";
    QTest::newRow("last before surrogates") << QByteArray("\xED\x9F\xBF") << "D7FF";
    QTest::newRow("C0 never leads") << QByteArray("\xC0\x82") << "FFFD FFFD";
    QTest::newRow("F5 never leads") << QByteArray("\xF5\x99\xBD\x50") << "FFFD FFFD FFFD 50";
    QTest::newRow("overlong E0 80") << QByteArray("\xE0\x80\x41") << "FFFD FFFD 41";
    QTest::newRow("overlong F0 80 80 80") << QByteArray("\xF0\x80\x80\x80") << "FFFD FFFD FFFD FFFD";
    QTest::newRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << "FFFD FFFD FFFD FFFD";
    QTest::newRow("U+10FFFF") << QByteArray("\xF4\x8F\xBF\xBF") << "10FFFF";
    QTest::newRow("truncated at end") << QByteArray("\x41\xE3\x81") << "41 FFFD";
    QTest::newRow("truncated 4-byte") << QByteArray("\xF0\x9F\x98\x41") << "FFFD 41";
    // The standard's own example (Unicode 15, table 3-8).
    QTest::newRow("table 3-8") << QByteArray("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64")
                               << "61 FFFD FFFD FFFD 62 FFFD 63 FFFD FFFD 64";
}

void TestText::maximalSubparts()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QStringList got;
    for (char32_t c : decodeUtf8(std::string_view(bytes.constData(), size_t(bytes.size()))))
        got << QString::number(uint(c), 16).toUpper();
    QCOMPARE(got.join(' '), expected);
}

void TestText::whiteSpace()
{
    QVERIFY(isWhiteSpace(U'\u3000'));
    QVERIFY(isWhiteSpace(U'\n'));
    QVERIFY(isWhiteSpace(U'\u200A'));
    QVERIFY(!isWhiteSpace(U'\u200B')); // zero-width space is not White_Space
    QVERIFY(!isWhiteSpace(U'a'));
}

void TestText::trimming()
{
    QCOMPARE(trimmed("\u3000 株式会社A \n"), std::string("株式会社A"));
    QCOMPARE(trimmed("A B"), std::string("A B"));
    QCOMPARE(trimmed("  "), std::string());
}

void TestText::lcs_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("posA");
    QTest::addColumn<int>("posB");
    QTest::newRow("middle") << "abcde" << "xbcdy" << 3 << 1 << 1;
    QTest::newRow("none") << "abc" << "xyz" << 0 << 0 << 0;
    QTest::newRow("empty a") << "" << "abc" << 0 << 0 << 0;
    QTest::newRow("tie: first in a") << "abXcd" << "cdYab" << 2 << 0 << 3;
    QTest::newRow("whole") << "abc" << "abc" << 3 << 0 << 0;
    QTest::newRow("japanese") << QString::fromUtf8("株式会社きらめき商事") << QString::fromUtf8("きらめき商事株式会社") << 6 << 4 << 0;
}

void TestText::lcs()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, length);
    QFETCH(int, posA);
    QFETCH(int, posB);
    const CommonSubstring cs = longestCommonSubstring(decodeUtf8(a.toStdString()), decodeUtf8(b.toStdString()));
    QCOMPARE(int(cs.length), length);
    if (length > 0) {
        QCOMPARE(int(cs.posA), posA);
        QCOMPARE(int(cs.posB), posB);
    }
}

void TestText::markerList()
{
    const auto &m = legalEntityMarkers();
    QCOMPARE(m.size(), size_t(19));
    QCOMPARE(m.front().size(), size_t(6)); // 信用保険会社 and 国立大学法人 first
    for (size_t i = 1; i < m.size(); ++i)
        QVERIFY(m[i - 1].size() >= m[i].size());
    // (株) is stored normalized, with ASCII parentheses.
    bool found = false;
    for (const auto &x : m)
        found = found || encodeUtf8(x) == "(株)";
    QVERIFY(found);
}

void TestText::strip_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("removed");
    QTest::newRow("before") << QString::fromUtf8("株式会社きらめき商事") << QString::fromUtf8("きらめき商事") << 1;
    QTest::newRow("after") << QString::fromUtf8("きらめき商事株式会社") << QString::fromUtf8("きらめき商事") << 1;
    QTest::newRow("abbreviations") << QString::fromUtf8("(株)A(有)B(合)") << "AB" << 3;
    QTest::newRow("longest first") << QString::fromUtf8("国立大学法人東都大学") << QString::fromUtf8("東都大学") << 1;
    QTest::newRow("insurance") << QString::fromUtf8("信用保険会社まもり") << QString::fromUtf8("まもり") << 1;
    QTest::newRow("nested brings one together") << QString::fromUtf8("株式株式会社会社") << "" << 2;
    QTest::newRow("only marker") << QString::fromUtf8("有限会社") << "" << 1;
    QTest::newRow("none") << QString::fromUtf8("きらめき商事") << QString::fromUtf8("きらめき商事") << 0;
    QTest::newRow("company is not a marker") << QString::fromUtf8("会社") << QString::fromUtf8("会社") << 0;
}

void TestText::strip()
{
    QFETCH(QString, input);
    QFETCH(QString, expected);
    QFETCH(int, removed);
    const StrippedText s = stripMarkers(normalize32(input.toStdString()));
    QCOMPARE(QString::fromStdString(encodeUtf8(s.text)), expected);
    QCOMPARE(int(s.removed.size()), removed);
}

QTEST_APPLESS_MAIN(TestText)
#include "tst_text.moc"
