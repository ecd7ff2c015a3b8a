// core/eval: the failure categories, their priority, the recipient / third-party heuristic,
// the optional fields of synthetic data, span positions, checkpoint comparison and loading.
// Every expected category and offset below was worked out by hand from the e-mail text.
#include "tasks/extraction/syntheticemails.h"
#include "eval/failureanalysis.h"
#include "tasks/extraction/emailfailures.h"
#include "store/runstore.h"
#include "text/normalize.h"
#include "text/utf8.h"
#include "testtime.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <chrono>
#include <fstream>

using namespace rwb;
using eval::FailureCategory;
using eval::PredictionSource;

Q_DECLARE_METATYPE(FailureCategory)
Q_DECLARE_METATYPE(PredictionSource)

namespace {

// A business e-mail: recipient 三伸化学株式会社 (addressee block), third party
// 弘栄電子株式会社, sender 株式会社ミハル包装.
data::ExtractionRecord business()
{
    data::ExtractionRecord r;
    r.id = "b1";
    r.senderEmail = "中島 拓也 <nakajima@miharu.co.jp>";
    r.emailText = "三伸化学株式会社 制作部\n"
                  "浜口様\n"
                  "\n"
                  "いつもお世話になっております。\n"
                  "株式会社ミハル包装の中島です。\n"
                  "弘栄電子株式会社様にもご協賛いただく予定です。\n"
                  "\n"
                  "中島 拓也\n"
                  "株式会社ミハル包装 マーケティング部";
    r.gold = "株式会社ミハル包装";
    return r;
}

// A customer's e-mail to a company: gold 不明, recipient ナツメ株式会社.
data::ExtractionRecord customer()
{
    data::ExtractionRecord r;
    r.id = "c1";
    r.senderEmail = "中川信也 <nakagawa.shinya@gmail.com>";
    r.emailText = "ナツメ株式会社\n"
                  "お客様相談室 御中\n"
                  "\n"
                  "はじめまして。中川と申します。\n"
                  "先日購入した加湿器について、お問い合わせいたします。\n"
                  "\n"
                  "中川 信也";
    r.gold = "不明";
    return r;
}

std::string tempPath(const QTemporaryDir &dir, const char *name)
{
    return dir.filePath(name).toStdString();
}

void writeFile(const std::string &path, const std::string &text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}

} // namespace

class TestFailureAnalysis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void categories_data();
    void categories();
    void priority();
    void heuristicRecipient_data();
    void heuristicRecipient();
    void heuristicOthers();
    void fieldsBeatHeuristic();
    void recordFields();
    void syntheticFields();
    void spans();
    void compare();
    void loadRun();
    void loadRunMissingEmails();
    void loadPredictions();
    void addPredictionsFile();
    void cli();
    void synthWritesParties();
};

void TestFailureAnalysis::categories_data()
{
    QTest::addColumn<int>("email"); // 0 business, 1 customer
    QTest::addColumn<QString>("answer");
    QTest::addColumn<FailureCategory>("category");
    QTest::addColumn<PredictionSource>("source");
    QTest::newRow("exact") << 0 << "株式会社ミハル包装" << FailureCategory::Exact << PredictionSource::Gold;
    QTest::newRow("exact, ideographic space") << 0 << "株式会社　ミハル包装" << FailureCategory::Exact << PredictionSource::Gold;
    QTest::newRow("marker dropped") << 0 << "ミハル包装" << FailureCategory::MarkerOnly << PredictionSource::Gold;
    QTest::newRow("marker abbreviated") << 0 << "ミハル包装㈱" << FailureCategory::MarkerOnly << PredictionSource::Gold;
    QTest::newRow("empty") << 0 << "" << FailureCategory::NoAnswer << PredictionSource::None;
    QTest::newRow("missed") << 0 << "不明" << FailureCategory::Missed << PredictionSource::None;
    QTest::newRow("recipient") << 0 << "三伸化学株式会社" << FailureCategory::Recipient << PredictionSource::Recipient;
    QTest::newRow("recipient, no marker") << 0 << "三伸化学" << FailureCategory::Recipient << PredictionSource::Recipient;
    QTest::newRow("third party") << 0 << "弘栄電子株式会社" << FailureCategory::ThirdParty << PredictionSource::ThirdParty;
    QTest::newRow("invented") << 0 << "株式会社アオバ物産" << FailureCategory::Invented << PredictionSource::NotInText;
    QTest::newRow("department") << 0 << "マーケティング部" << FailureCategory::OtherWrong << PredictionSource::InText;
    QTest::newRow("partial") << 0 << "ミハル" << FailureCategory::OtherWrong << PredictionSource::Gold;
    QTest::newRow("gold plus department") << 0 << "株式会社ミハル包装 マーケティング部" << FailureCategory::OtherWrong
                                          << PredictionSource::Gold;
    QTest::newRow("domain") << 0 << "miharu" << FailureCategory::OtherWrong << PredictionSource::InText;
    QTest::newRow("不明 right") << 1 << "不明" << FailureCategory::Exact << PredictionSource::None;
    QTest::newRow("named recipient where 不明") << 1 << "ナツメ株式会社" << FailureCategory::NamedWhereUnknown
                                               << PredictionSource::Recipient;
    QTest::newRow("invented where 不明") << 1 << "株式会社ミハル" << FailureCategory::NamedWhereUnknown
                                        << PredictionSource::NotInText;
    QTest::newRow("empty where 不明") << 1 << "" << FailureCategory::NoAnswer << PredictionSource::None;
}

void TestFailureAnalysis::categories()
{
    QFETCH(int, email);
    QFETCH(QString, answer);
    QFETCH(FailureCategory, category);
    QFETCH(PredictionSource, source);
    const data::ExtractionRecord r = email == 0 ? business() : customer();
    const eval::EmailParties parties = eval::partiesOf(r);
    QVERIFY(!parties.fromData);
    const eval::FailureCase f = eval::categorize(r, answer.toStdString(), parties);
    QCOMPARE(eval::categoryKey(f.category), eval::categoryKey(category));
    QCOMPARE(eval::sourceKey(f.source), eval::sourceKey(source));
}

// When several categories fit, the documented order decides.
void TestFailureAnalysis::priority()
{
    data::ExtractionRecord r = business();
    r.partiesKnown = true;
    // The sender's company also listed as a third party and as the recipient: the
    // marker-only difference to the gold comes first.
    r.recipientCompany = "弘栄電子株式会社";
    r.otherCompanies = {"ミハル包装株式会社", "弘栄電子株式会社"};
    eval::EmailParties p = eval::partiesOf(r);
    QVERIFY(p.fromData);
    QCOMPARE(eval::categorize(r, "ミハル包装", p).category, FailureCategory::MarkerOnly);
    // Recipient before third party.
    QCOMPARE(eval::categorize(r, "弘栄電子", p).category, FailureCategory::Recipient);
    // A listed recipient counts even when the text does not name it (before invented).
    r.recipientCompany = "株式会社アオバ物産";
    p = eval::partiesOf(r);
    QCOMPARE(eval::categorize(r, "アオバ物産", p).category, FailureCategory::Recipient);
    // 不明 gold: "named a company" comes before recipient.
    data::ExtractionRecord c = customer();
    QCOMPARE(eval::categorize(c, "ナツメ", eval::partiesOf(c)).category, FailureCategory::NamedWhereUnknown);
    // Missed before everything but exact and empty, whatever the parties.
    QCOMPARE(eval::categorize(r, " 不明 ", p).category, FailureCategory::Missed);
    // 一般 goes with 社団法人: the name without it differs by the marker only.
    data::ExtractionRecord assoc = customer();
    assoc.gold = "一般社団法人明宝振興会";
    assoc.emailText += "\n一般社団法人明宝振興会 事務局";
    QCOMPARE(eval::categorize(assoc, "明宝振興会", eval::partiesOf(assoc)).category, FailureCategory::MarkerOnly);
}

void TestFailureAnalysis::heuristicRecipient_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("recipient");
    QTest::newRow("company line, person line") << "三伸化学株式会社 制作部\n浜口様\n\nいつもお世話になっております。"
                                               << "三伸化学株式会社";
    QTest::newRow("marker apart, one line 御中") << "株式会社 三伸化学 営業部 御中\n\nお世話になります。"
                                                << "株式会社 三伸化学";
    QTest::newRow("no marker, 御中") << "三伸化学 営業部 御中\nお世話になります。" << "三伸化学";
    QTest::newRow("Dear form") << "Dear 浜口様（三伸化学 営業部）,\n\nお世話になっております。" << "三伸化学";
    QTest::newRow("Dear form, (株) inside") << "Dear 森様（(株)ミナモシステムズ 資材課）,\n\nご無沙汰しております。"
                                           << "(株)ミナモシステムズ";
    QTest::newRow("after a subject line") << "件名：サンプル発送のお知らせ\n\n金紘電機株式会社 青木様\n\nご無沙汰しております。"
                                          << "金紘電機株式会社";
    QTest::newRow("after a 【】 subject") << "【ご連絡】着工日確定のご連絡\n\n株式会社ツバメデザイン\n前田様\n\nご無沙汰しております。"
                                         << "株式会社ツバメデザイン";
    QTest::newRow("greeting ends the block") << "三伸化学\nいつもお世話になっております。\n浜口です。" << "";
    QTest::newRow("person only") << "浜口 太郎様\n\nお世話になっております。" << "";
    QTest::newRow("さん") << "加藤さん\n\nこの前の件です。" << "";
    QTest::newRow("one line, two words, no marker (missed)") << "三伸化学 浜口様\n\nいつもお世話になります。" << "";
    QTest::newRow("greeting first") << "お疲れ様です。\n営業部の中島です。" << "";
}

void TestFailureAnalysis::heuristicRecipient()
{
    QFETCH(QString, body);
    QFETCH(QString, recipient);
    const eval::EmailParties p = eval::guessParties("a <a@b.jp>", body.toStdString(), "不明");
    QCOMPARE(QString::fromStdString(p.recipient), recipient);
}

void TestFailureAnalysis::heuristicOthers()
{
    const data::ExtractionRecord r = business();
    const eval::EmailParties p = eval::guessParties(r.senderEmail, r.emailText, r.gold);
    QCOMPARE(QString::fromStdString(p.recipient), QString("三伸化学株式会社"));
    // The two mentions of the gold and the recipient are left out; one third party is left.
    QCOMPARE(p.others.size(), size_t(1));
    QCOMPARE(QString::fromStdString(p.others[0]), QString("弘栄電子株式会社"));
    // Markers before and after, (株) in brackets, a marker apart from the name, in the header too.
    const eval::EmailParties q =
        eval::guessParties("ヤマト運輸(株) <a@b.jp>", "本件は㈱ミナト物流と有限会社 サクラ工務店にも共有しました。", "不明");
    QCOMPARE(q.recipient, std::string());
    QCOMPARE(q.others.size(), size_t(3));
    QCOMPARE(QString::fromStdString(q.others[0]), QString("ヤマト運輸(株)"));
    QCOMPARE(QString::fromStdString(q.others[1]), QString("(株)ミナト物流"));
    QCOMPARE(QString::fromStdString(q.others[2]), QString("有限会社 サクラ工務店"));
    // Hiragana stems, before and after the marker, without the particles around them.
    const eval::EmailParties h = eval::guessParties(
        "a <a@b.jp>", "配送業務はひなた商事株式会社にて、運賃は株式会社こがね運輸の改定どおりです。\n"
                      "仕入先である株式会社八昌企画からの通知です。", "不明");
    QCOMPARE(h.others.size(), size_t(3));
    QCOMPARE(QString::fromStdString(h.others[0]), QString("ひなた商事株式会社"));
    QCOMPARE(QString::fromStdString(h.others[1]), QString("株式会社こがね運輸"));
    QCOMPARE(QString::fromStdString(h.others[2]), QString("株式会社八昌企画")); // not "ある株式会社"
}

// The record's own fields win over the heuristic: 三伸化学 is not found by it here.
void TestFailureAnalysis::fieldsBeatHeuristic()
{
    data::ExtractionRecord r = business();
    r.emailText = "三伸化学 浜口様\n\nいつもお世話になっております。\n株式会社ミハル包装の中島です。";
    QCOMPARE(eval::categorize(r, "三伸化学", eval::partiesOf(r)).category, FailureCategory::OtherWrong);
    r.partiesKnown = true;
    r.recipientCompany = "三伸化学株式会社";
    QCOMPARE(eval::categorize(r, "三伸化学", eval::partiesOf(r)).category, FailureCategory::Recipient);
}

void TestFailureAnalysis::recordFields()
{
    const std::string base = R"({"id":"x","sender_email":"s","email_text":"t","gold":"g")";
    // Old lines: no fields, not known, and written back without them.
    data::ExtractionRecord old = data::parseExtractionLine(base + "}", "f", 1, false);
    QVERIFY(!old.partiesKnown);
    QVERIFY(data::toJsonLine(old, false).find("recipient_company") == std::string::npos);
    // New lines round-trip.
    data::ExtractionRecord r = data::parseExtractionLine(
        base + R"x(,"recipient_company":"三伸化学","other_companies":["A社","B(株)"]})x", "f", 1, false);
    QVERIFY(r.partiesKnown);
    QCOMPARE(r.recipientCompany, std::string("三伸化学"));
    QCOMPARE(r.otherCompanies, (std::vector<std::string>{"A社", "B(株)"}));
    QCOMPARE(data::toJsonLine(r, false),
             std::string(R"({"id":"x","task":"company_extraction","sender_email":"s","email_text":"t","gold":"g",)"
                         R"x("recipient_company":"三伸化学","other_companies":["A社","B(株)"]})x"));
    // Only one of them is enough; an empty recipient is kept as "none".
    r = data::parseExtractionLine(base + R"(,"other_companies":[]})", "f", 1, false);
    QVERIFY(r.partiesKnown);
    QVERIFY(r.recipientCompany.empty());
    // Wrong types are named.
    const auto error = [&](const std::string &tail) {
        try {
            data::parseExtractionLine(base + tail, "in.jsonl", 4, false);
        } catch (const data::InputException &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    QCOMPARE(error(R"(,"recipient_company":3})"), std::string("in.jsonl:4: field \"recipient_company\" must be a string, not number"));
    QCOMPARE(error(R"(,"other_companies":"A"})"),
             std::string("in.jsonl:4: field \"other_companies\" must be an array of strings, not string"));
    QCOMPARE(error(R"(,"other_companies":["A",1]})"),
             std::string("in.jsonl:4: field \"other_companies[1]\" must be a string, not number"));
}

// Generated e-mails carry exact parties: the gold is exact, the recipient is categorized
// as the recipient, every other company as a third party, and each listed name's core
// is in the text.
void TestFailureAnalysis::syntheticFields()
{
    const data::SyntheticEmailGenerator g(7, data::DataSplit::Test);
    size_t withRecipient = 0, withOthers = 0;
    for (size_t i = 0; i < 300; ++i) {
        const data::SyntheticEmail e = g.email(i);
        const data::ExtractionRecord r = e.datasetRecord();
        // The dataset record parses back with its fields.
        const data::ExtractionRecord back = data::parseExtractionLine(data::toJsonLine(r, false), "s", 1, false);
        QVERIFY(back.partiesKnown);
        QCOMPARE(back.recipientCompany, r.recipientCompany);
        QCOMPARE(back.otherCompanies, r.otherCompanies);
        // The record itself is what it was (the corpus fingerprint is unchanged).
        QVERIFY(!e.record.partiesKnown);
        const eval::EmailParties p = eval::partiesOf(r);
        QCOMPARE(eval::categorize(r, r.gold, p).category, FailureCategory::Exact);
        const bool goldUnknown = r.gold == "不明";
        if (!e.recipientCompany.empty())
            QVERIFY2(!r.recipientCompany.empty(), r.id.c_str()); // the greeting names it
        if (!r.recipientCompany.empty()) {
            ++withRecipient;
            const FailureCategory c = eval::categorize(r, r.recipientCompany, p).category;
            QVERIFY2(c == (goldUnknown ? FailureCategory::NamedWhereUnknown : FailureCategory::Recipient),
                     (r.id + " " + r.recipientCompany + " " + eval::categoryKey(c)).c_str());
        }
        for (const std::string &o : r.otherCompanies) {
            ++withOthers;
            const FailureCategory c = eval::categorize(r, o, p).category;
            QVERIFY2(c == (goldUnknown ? FailureCategory::NamedWhereUnknown : FailureCategory::ThirdParty),
                     (r.id + " " + o + " " + eval::categoryKey(c)).c_str());
        }
    }
    // Most e-mails address a company; many mention others.
    QVERIFY2(withRecipient > 150, qPrintable(QString::number(withRecipient)));
    QVERIFY2(withOthers > 100, qPrintable(QString::number(withOthers)));
}

// Code-point ranges in the original text, across NFKC changes and a non-BMP character.
void TestFailureAnalysis::spans()
{
    // 𠮷 (U+20BB7) is one code point; ㈱ folds to the three code points (株).
    const std::string body = "𠮷野家㈱の件\n株式会社 ミハル包装 御中";
    // Line 1: 𠮷 野 家 ㈱ の 件 = code points 0–5, \n = 6, 株 starts at 7;
    // "株式会社 ミハル包装" is 4 + 1 + 5 = 10 code points: [7, 17).
    auto found = eval::findNormalized(body, "株式会社ミハル包装");
    QCOMPARE(found.size(), size_t(1));
    QCOMPARE(found[0], (eval::CodePointRange{7, 17}));
    found = eval::findNormalized(body, "(株)");
    QCOMPARE(found.size(), size_t(1));
    QCOMPARE(found[0], (eval::CodePointRange{3, 4}));
    QVERIFY(eval::findNormalized(body, "").empty());
    QVERIFY(eval::findNormalized(body, "アオバ").empty());

    // Every role of the business e-mail. Line starts (code points, each line's length
    // plus its \n): 0 三伸化学株式会社 制作部 (12), 13 浜口様 (3), 17 (blank),
    // 18 いつもお世話になっております。 (15), 34 株式会社ミハル包装の中島です。 (15),
    // 50 弘栄電子株式会社様にもご協賛いただく予定です。 (23), 74 (blank), 75 中島 拓也 (5),
    // 81 株式会社ミハル包装 マーケティング部.
    const data::ExtractionRecord r = business();
    const auto spans = eval::highlightSpans(r, eval::partiesOf(r), "三伸化学", "ミハル包装");
    const auto of = [&](eval::SpanRole role) {
        std::vector<eval::CodePointRange> v;
        for (const eval::HighlightSpan &s : spans)
            if (s.role == role && s.field == eval::SpanField::Body)
                v.push_back(s.range);
        return v;
    };
    QCOMPARE(of(eval::SpanRole::Gold), (std::vector<eval::CodePointRange>{{34, 43}, {81, 90}}));
    QCOMPARE(of(eval::SpanRole::Recipient), (std::vector<eval::CodePointRange>{{0, 8}}));
    QCOMPARE(of(eval::SpanRole::ThirdParty), (std::vector<eval::CodePointRange>{{50, 58}}));
    QCOMPARE(of(eval::SpanRole::Prediction), (std::vector<eval::CodePointRange>{{0, 4}}));
    QCOMPARE(of(eval::SpanRole::ComparedPrediction), (std::vector<eval::CodePointRange>{{38, 43}, {85, 90}}));
    // Cross-check the hand-counted offsets against the text itself.
    const std::u32string cps = text::decodeUtf8(r.emailText);
    QCOMPARE(text::encodeUtf8(cps.substr(34, 9)), r.gold);
    QCOMPARE(text::encodeUtf8(cps.substr(50, 8)), std::string("弘栄電子株式会社"));
    // Nothing in the sender line but the domain-free display name: no spans there.
    for (const eval::HighlightSpan &s : spans)
        QVERIFY(s.field == eval::SpanField::Body);
    // 不明 and empty predictions have no span.
    const auto none = eval::highlightSpans(r, eval::partiesOf(r), "不明");
    for (const eval::HighlightSpan &s : none)
        QVERIFY(s.role != eval::SpanRole::Prediction);
}

void TestFailureAnalysis::compare()
{
    const auto p = [](const char *id, FailureCategory c) {
        eval::AnalyzedPrediction a;
        a.exampleId = id;
        a.category = static_cast<size_t>(c);
        return a;
    };
    const std::vector<eval::AnalyzedPrediction> a = {p("e1", FailureCategory::Exact), p("e2", FailureCategory::Missed),
                                                     p("e3", FailureCategory::Exact), p("e4", FailureCategory::Recipient)};
    const std::vector<eval::AnalyzedPrediction> b = {p("e2", FailureCategory::Exact), p("e1", FailureCategory::Recipient),
                                                     p("e3", FailureCategory::Exact), p("e5", FailureCategory::Invented)};
    const eval::FailureComparison c = eval::compareFailures(a, b, eval::kFailureCategoryCount);
    QCOMPARE(c.joined, size_t(3));
    QCOMPARE(c.fixed, size_t(1));  // e2
    QCOMPARE(c.broke, size_t(1));  // e1
    QCOMPARE(c.onlyA, size_t(1));  // e4
    QCOMPARE(c.onlyB, size_t(1));  // e5
    const auto t = [&](FailureCategory x, FailureCategory y) {
        return c.transitions[static_cast<size_t>(x)][static_cast<size_t>(y)];
    };
    QCOMPARE(t(FailureCategory::Exact, FailureCategory::Recipient), size_t(1));
    QCOMPARE(t(FailureCategory::Missed, FailureCategory::Exact), size_t(1));
    QCOMPARE(t(FailureCategory::Exact, FailureCategory::Exact), size_t(1));
    size_t sum = 0;
    for (const auto &row : c.transitions)
        for (size_t v : row)
            sum += v;
    QCOMPARE(sum, size_t(3));
    const eval::FailureCounts counts = eval::countFailures(a, eval::kFailureCategoryCount);
    QCOMPARE(counts.total, size_t(4));
    QCOMPARE(counts.of(size_t(FailureCategory::Exact)), size_t(2));
    QCOMPARE(counts.of(size_t(FailureCategory::Missed)), size_t(1));
    QCOMPARE(counts.of(size_t(FailureCategory::Recipient)), size_t(1));
}

// A run store whose config names its e-mails relative to the store's folder; thinking
// comes from the inline reward config.
void TestFailureAnalysis::loadRun()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeFile(tempPath(dir, "emails.jsonl"),
              data::toJsonLine(business(), false) + "\n" + data::toJsonLine(customer(), false) + "\n");
    const std::string storePath = tempPath(dir, "runs.sqlite");
    {
        store::RunStore st(storePath);
        const int64_t run = st.beginRun(
            "r", store::RunKind::Grpo, R"({"eval_data": "emails.jsonl", "reward_config": {"thinking": true}})", "company_extraction");
        st.writeEvalPredictions(run, 0,
                                {{"b1", "<thinking>x</thinking><answer>三伸化学株式会社</answer>", "株式会社ミハル包装", false, "{}"},
                                 {"c1", "<thinking>x</thinking><answer>不明</answer>", "不明", true, "{}"},
                                 {"zz", "<answer>不明</answer>", "不明", true, "{}"}});
        st.writeEvalPredictions(run, 20,
                                {{"b1", "<thinking>x</thinking><answer>株式会社ミハル包装</answer>", "株式会社ミハル包装", true, "{}"},
                                 {"c1", "株式会社ミハル包装", "不明", false, "{}"}});
        st.finishRun(run, store::RunStatus::Finished);
    }
    const eval::FailureData d = eval::loadRunFailures(storePath, 1);
    QCOMPARE(d.task, std::string("company_extraction"));
    QCOMPARE(d.examples.size(), size_t(2));
    QCOMPARE(d.withoutExample, size_t(1)); // "zz"
    QCOMPARE(d.thinking, 1);
    QCOMPARE(d.checkpoints.size(), size_t(2));
    const auto &s0 = d.checkpoints.at(0);
    QCOMPARE(s0.size(), size_t(2));
    QCOMPARE(s0[0].exampleId, std::string("b1"));
    QCOMPARE(s0[0].answer, std::string("三伸化学株式会社"));
    QCOMPARE(s0[0].detailsJson, std::string(R"({"source":"recipient"})"));
    QCOMPARE(s0[0].category, size_t(FailureCategory::Recipient));
    QCOMPARE(s0[1].category, size_t(FailureCategory::Exact));
    const auto &s20 = d.checkpoints.at(20);
    QCOMPARE(s20[0].category, size_t(FailureCategory::Exact));
    // Thinking mode: no <answer> block means no answer.
    QCOMPARE(s20[1].answer, std::string());
    QCOMPARE(s20[1].category, size_t(FailureCategory::NoAnswer));
    const eval::FailureComparison c = eval::compareFailures(s0, s20, d.categories.size());
    QCOMPARE(c.fixed, size_t(1));
    QCOMPARE(c.broke, size_t(1));
    // No such run.
    QVERIFY_THROWS_EXCEPTION(data::InputException, eval::loadRunFailures(storePath, 9));
}

void TestFailureAnalysis::loadRunMissingEmails()
{
    QTemporaryDir dir;
    const std::string storePath = tempPath(dir, "runs.sqlite");
    {
        store::RunStore st(storePath);
        st.beginRun("r", store::RunKind::Grpo, R"({"eval_data": "gone/test.jsonl"})", "company_extraction");
        st.beginRun("s", store::RunKind::Grpo, R"({"train_data": "x.jsonl"})", "company_extraction");
    }
    try {
        eval::loadRunFailures(storePath, 1);
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).contains(dir.filePath("gone/test.jsonl")), e.what());
    }
    try {
        eval::loadRunFailures(storePath, 2);
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).contains("eval_data"), e.what());
    }
}

void TestFailureAnalysis::loadPredictions()
{
    QTemporaryDir dir;
    data::ExtractionRecord b = business();
    data::ExtractionRecord c = customer();
    b.completion = "ミハル包装";
    c.completion = "ナツメ株式会社";
    writeFile(tempPath(dir, "a.jsonl"), data::toJsonLine(b) + "\n" + data::toJsonLine(c) + "\n");
    b.completion = "株式会社ミハル包装";
    c.completion = "不明";
    writeFile(tempPath(dir, "b.jsonl"), data::toJsonLine(b) + "\n" + data::toJsonLine(c) + "\n");
    const eval::FailureData d = eval::loadPredictionFailures(tempPath(dir, "a.jsonl"), tempPath(dir, "b.jsonl"));
    QCOMPARE(d.checkpoints.size(), size_t(2));
    QCOMPARE(d.checkpoints.at(0)[0].category, size_t(FailureCategory::MarkerOnly));
    QCOMPARE(d.checkpoints.at(0)[1].category, size_t(FailureCategory::NamedWhereUnknown));
    const eval::FailureComparison cmp = eval::compareFailures(d.checkpoints.at(0), d.checkpoints.at(1), d.categories.size());
    QCOMPARE(cmp.fixed, size_t(2));
    QCOMPARE(cmp.broke, size_t(0));
    QVERIFY_THROWS_EXCEPTION(data::InputException, eval::loadPredictionFailures(tempPath(dir, "none.jsonl")));
}

// A file evaluated outside the run (the workbench's "Evaluate a checkpoint") joins the
// run's stored evaluations under its own key, parsed in the run's thinking mode; an
// example the run's data lacks comes from the file.
void TestFailureAnalysis::addPredictionsFile()
{
    QTemporaryDir dir;
    writeFile(tempPath(dir, "emails.jsonl"), data::toJsonLine(business(), false) + "\n");
    const std::string storePath = tempPath(dir, "runs.sqlite");
    {
        store::RunStore st(storePath);
        const int64_t run = st.beginRun(
            "r", store::RunKind::Grpo, R"({"eval_data": "emails.jsonl", "reward_config": {"thinking": true}})", "company_extraction");
        st.writeEvalPredictions(run, 40, {{"b1", "<thinking>x</thinking><answer>三伸化学株式会社</answer>", "株式会社ミハル包装", false, "{}"}});
    }
    eval::FailureData d = eval::loadRunFailures(storePath, 1);
    QCOMPARE(d.examples.size(), size_t(1));
    data::ExtractionRecord b = business();
    data::ExtractionRecord c = customer();
    b.gold = "別の会社株式会社"; // the run's own example (its gold) is kept
    b.completion = "<thinking>y</thinking><answer>株式会社ミハル包装</answer>"; // exact
    c.completion = "株式会社ミハル包装"; // no <answer> block in thinking mode: no answer
    writeFile(tempPath(dir, "predictions.jsonl"), data::toJsonLine(b) + "\n" + data::toJsonLine(c) + "\n");
    eval::addPredictionsFile(d, tempPath(dir, "predictions.jsonl"), -2);
    QCOMPARE(d.checkpoints.size(), size_t(2));
    QCOMPARE(d.examples.size(), size_t(2)); // c1 from the file
    QCOMPARE(d.examples.at("b1")->goldText(), std::string("株式会社ミハル包装"));
    QVERIFY(d.goldOf("c1") == "不明");
    const auto &here = d.checkpoints.at(-2);
    QCOMPARE(here.size(), size_t(2));
    QCOMPARE(here[0].exampleId, std::string("b1"));
    QCOMPARE(here[0].category, size_t(FailureCategory::Exact));
    QCOMPARE(here[1].category, size_t(FailureCategory::NoAnswer));
    const eval::FailureComparison cmp = eval::compareFailures(d.checkpoints.at(40), here, d.categories.size());
    QCOMPARE(cmp.joined, size_t(1));
    QCOMPARE(cmp.fixed, size_t(1)); // b1: recipient → exact
    QCOMPARE(cmp.onlyB, size_t(1));
    // The same key again replaces it.
    writeFile(tempPath(dir, "again.jsonl"), data::toJsonLine(b) + "\n");
    eval::addPredictionsFile(d, tempPath(dir, "again.jsonl"), -2);
    QCOMPARE(d.checkpoints.at(-2).size(), size_t(1));
    // Another task's predictions, or no file: refused, the data as it was.
    QVERIFY_THROWS_EXCEPTION(data::InputException,
                             eval::addPredictionsFile(d, RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl", -3));
    QVERIFY_THROWS_EXCEPTION(data::InputException, eval::addPredictionsFile(d, tempPath(dir, "none.jsonl"), -3));
    QCOMPARE(d.checkpoints.size(), size_t(2));
    QCOMPARE(d.examples.size(), size_t(2));
}

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runRwb(const QStringList &args)
{
    QProcess p;
    p.start(RWB_BINARY, args);
    p.waitForFinished(rwbtest::scaledMs(120000));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

// rwb eval failures: the counts of A, of B, fixed / broke and the transitions as JSON.
void TestFailureAnalysis::cli()
{
    QTemporaryDir dir;
    data::ExtractionRecord b = business();
    data::ExtractionRecord c = customer();
    b.completion = "弘栄電子株式会社"; // third party
    c.completion = "不明";           // exact
    writeFile(tempPath(dir, "a.jsonl"), data::toJsonLine(b) + "\n" + data::toJsonLine(c) + "\n");
    b.completion = "株式会社ミハル包装"; // fixed
    c.completion = "";                   // broke: no answer
    writeFile(tempPath(dir, "b.jsonl"), data::toJsonLine(b) + "\n" + data::toJsonLine(c) + "\n");
    const Run r = runRwb({"eval", "failures", "--predictions", dir.filePath("a.jsonl"), "--against", dir.filePath("b.jsonl")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value("total").toInt(), 2);
    QCOMPARE(o.value("counts").toObject().value("third_party").toInt(), 1);
    QCOMPARE(o.value("counts").toObject().value("exact").toInt(), 1);
    QCOMPARE(o.value("against").toObject().value("counts").toObject().value("no_answer").toInt(), 1);
    QCOMPARE(o.value("fixed").toInt(), 1);
    QCOMPARE(o.value("broke").toInt(), 1);
    QCOMPARE(o.value("transitions").toObject().value("third_party->exact").toInt(), 1);
    QCOMPARE(o.value("transitions").toObject().value("exact->no_answer").toInt(), 1);
    QCOMPARE(o.value("parties_from_data").toInt(), 0);
    // A missing file: exit 2, the file named.
    const Run bad = runRwb({"eval", "failures", "--predictions", dir.filePath("none.jsonl")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("none.jsonl"), bad.err.constData());
}

// rwb data synth writes the optional fields on every line.
void TestFailureAnalysis::synthWritesParties()
{
    const Run r = runRwb({"data", "synth", "--task", "company_extraction", "--n", "20", "--seed", "1", "--split", "test"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 20);
    int withRecipient = 0;
    for (const QByteArray &line : lines) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        QVERIFY2(o.value("recipient_company").isString(), line.constData());
        QVERIFY2(o.value("other_companies").isArray(), line.constData());
        withRecipient += o.value("recipient_company").toString().isEmpty() ? 0 : 1;
        // They load as known parties.
        QVERIFY(data::parseExtractionLine(line.toStdString(), "synth", 1, false).partiesKnown);
    }
    QVERIFY(withRecipient > 0);
}

QTEST_APPLESS_MAIN(TestFailureAnalysis)
#include "tst_failureanalysis.moc"
