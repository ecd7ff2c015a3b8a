// core/data: the extraction JSONL reader and its error messages; the atomic file write
// every writer of whole files goes through.
#include "data/jsonl.h"
#include "tasks/extraction/extractionrecord.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <ostream>

using namespace rwb::data;

class TestExtractionRecord : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesLines();
    void errors_data();
    void errors();
    void skipInvalid();
    void roundTrip();
    void reasoningIsOptional();
    void missingFile();
    void writeFileAtomically();
};

void TestExtractionRecord::parsesLines()
{
    const std::string text = "\xEF\xBB\xBF{\"id\": 7, \"sender_email\": \"a@b.c\", \"email_text\": \"x\", \"completion\": \"A\", \"gold\": \"A\"}\r\n"
                             "\n"
                             "{\"id\": \"e2\", \"task\": \"company_extraction\", \"sender_email\": \"s\", \"email_text\": \"y\", "
                             "\"completion\": \"B\", \"gold\": \"不明\", \"kind\": \"invented\", \"extra\": 1}\n";
    const ExtractionReadResult r = parseExtractionJsonl(text, "in.jsonl");
    QCOMPARE(r.records.size(), size_t(2));
    QCOMPARE(r.records[0].id, std::string("7"));
    QCOMPARE(r.records[0].task, std::string("company_extraction"));
    QCOMPARE(int(r.records[1].line), 3);
    QCOMPARE(r.records[1].kind, std::string("invented"));
    QCOMPARE(r.records[1].gold, std::string("不明"));
}

void TestExtractionRecord::errors_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << "{\"id\": 1," << "in.jsonl:2: not valid JSON at column";
    QTest::newRow("array") << "[1]" << "in.jsonl:2: expected a JSON object, found array";
    QTest::newRow("missing gold") << R"({"id": 1, "sender_email": "s", "email_text": "t", "completion": "c"})"
                                  << "in.jsonl:2: missing field \"gold\"";
    QTest::newRow("gold not string") << R"({"id": 1, "sender_email": "s", "email_text": "t", "completion": "c", "gold": 3})"
                                     << "in.jsonl:2: field \"gold\" must be a string, not number";
    QTest::newRow("id object") << R"({"id": {}, "sender_email": "s", "email_text": "t", "completion": "c", "gold": "g"})"
                               << "in.jsonl:2: field \"id\" must be a string or an integer";
    QTest::newRow("reasoning not string") << R"({"id": 1, "sender_email": "s", "email_text": "t", "completion": "c", "gold": "g", "reasoning": 2})"
                                          << "in.jsonl:2: field \"reasoning\" must be a string, not number";
    QTest::newRow("unknown task") << R"({"id": 1, "task": "qa", "sender_email": "s", "email_text": "t", "completion": "c", "gold": "g"})"
                                  << "in.jsonl:2: unknown task \"qa\" (allowed: company_extraction)";
}

void TestExtractionRecord::errors()
{
    QFETCH(QString, line);
    QFETCH(QString, message);
    const std::string text = std::string(R"({"id": 0, "sender_email": "s", "email_text": "t", "completion": "c", "gold": "g"})") +
                             "\n" + line.toStdString() + "\n";
    try {
        parseExtractionJsonl(text, "in.jsonl");
        QFAIL("expected an error");
    } catch (const InputException &e) {
        QVERIFY2(QString::fromStdString(e.what()).startsWith(message), e.what());
        QCOMPARE(int(e.error().line), 2);
    }
}

void TestExtractionRecord::skipInvalid()
{
    const std::string text = "{bad\n" R"({"id": 1, "sender_email": "s", "email_text": "t", "completion": "c", "gold": "g"})" "\n[]\n";
    ExtractionReadOptions o;
    o.skipInvalid = true;
    const ExtractionReadResult r = parseExtractionJsonl(text, "f", o);
    QCOMPARE(r.records.size(), size_t(1));
    QCOMPARE(r.skipped.size(), size_t(2));
    QCOMPARE(int(r.skipped[0].line), 1);
    QCOMPARE(int(r.skipped[1].line), 3);
}

void TestExtractionRecord::roundTrip()
{
    ExtractionRecord r;
    r.id = "x1";
    r.senderEmail = "山田 <a@b.jp>";
    r.emailText = "本文\n\"引用\"";
    r.completion = "株式会社A";
    r.gold = "不明";
    const ExtractionRecord back = parseExtractionLine(toJsonLine(r), "f", 1);
    QCOMPARE(back.emailText, r.emailText);
    QCOMPARE(back.senderEmail, r.senderEmail);
    QCOMPARE(back.gold, r.gold);
}

void TestExtractionRecord::reasoningIsOptional()
{
    // Without one nothing is written; with one it comes back as it was.
    ExtractionRecord r;
    r.id = "x1";
    r.senderEmail = "s";
    r.emailText = "t";
    r.gold = "g";
    QVERIFY(toJsonLine(r, false).find("reasoning") == std::string::npos);
    r.reasoning = "署名に「g」とある。";
    const ExtractionRecord back = parseExtractionLine(toJsonLine(r, false), "f", 1, false);
    QCOMPARE(back.reasoning, r.reasoning);
    QVERIFY(parseExtractionLine(R"({"id": 1, "sender_email": "s", "email_text": "t", "gold": "g"})", "f", 1, false)
                .reasoning.empty());
}

void TestExtractionRecord::missingFile()
{
    try {
        readExtractionJsonl("/nonexistent/x.jsonl");
        QFAIL("expected an error");
    } catch (const InputException &e) {
        QVERIFY(QString::fromStdString(e.what()).startsWith("/nonexistent/x.jsonl: cannot open"));
    }
}

void TestExtractionRecord::writeFileAtomically()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/out.txt").toStdString();
    rwb::data::writeFileAtomically(path, "first\n");
    QCOMPARE(readTextFile(path), std::string("first\n"));
    // A writer that fails half-way: the old file stays whole, no .part is left.
    try {
        rwb::data::writeFileAtomically(path, [](std::ostream &out) {
            out << "half";
            throw std::runtime_error("stopped");
        });
        QFAIL("expected the writer's exception");
    } catch (const std::runtime_error &e) {
        QCOMPARE(std::string(e.what()), std::string("stopped"));
    }
    QCOMPARE(readTextFile(path), std::string("first\n"));
    QVERIFY(!std::filesystem::exists(path + ".part"));
    // A folder that does not exist: an InputException naming the file.
    try {
        rwb::data::writeFileAtomically("/nonexistent/dir/out.txt", "x");
        QFAIL("expected an error");
    } catch (const InputException &e) {
        QVERIFY2(QString::fromStdString(e.what()).startsWith("/nonexistent/dir/out.txt: cannot write"), e.what());
    }
}

QTEST_APPLESS_MAIN(TestExtractionRecord)
#include "tst_extractionrecord.moc"
