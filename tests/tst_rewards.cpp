// core/reward: the five rewards of the first paper and the weighted composite.
// Expected values are worked out by hand from the definitions in issue 2; tolerance 1e-9.
#include "data/jsonl.h"
#include "task/catalog.h"
#include "tasks/extraction/companyrewards.h"
#include "reward/compositereward.h"
#include "tasks/extraction/extraction.h"
#include "reward/registry.h"

#include <QtTest>

using namespace rwb::reward;

namespace {
// Absolute tolerance for reward values.
constexpr double kTol = 1e-9;
// The e-mail most cases use: the sender's company appears as "株式会社 きらめき 商事" (with spaces).
const char *const kSender = "山田 太郎 <yamada@kirameki.co.jp>";
const char *const kEmail = "東和物産株式会社\n佐藤様\n\nいつもお世話になっております。\n株式会社 きらめき 商事の山田です。\n"
                           "ＡＢＣソリューションズ様の件でご連絡しました。";

double run(const Reward &r, const char *sender, const char *email, const QString &completion, const QString &gold,
           bool thinking)
{
    const ExtractionPrompt p(sender, email, gold.toStdString());
    const ExtractionAnswer a(completion.toStdString(), thinking);
    const double v = r.score(p, a);
    // explain() must agree with score().
    const Explanation e = r.explain(p, a);
    if (std::abs(e.value - v) > kTol)
        qWarning("explain() %f differs from score() %f", e.value, v);
    return v;
}
} // namespace

class TestRewards : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void similarity_data();
    void similarity();
    void exist_data();
    void exist();
    void format_data();
    void format();
    void answerExtraction_data();
    void answerExtraction();
    void domain_data();
    void domain();
    void domainSynonyms();
    void domainExplanation();
    void senderDomain_data();
    void senderDomain();
    void explanationSpans();
    void composite();
    void compositeWeightsChange();
    void registryNames();
};

// partial and marker share their inputs.
void TestRewards::similarity_data()
{
    QTest::addColumn<QString>("completion");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<bool>("thinking");
    QTest::addColumn<double>("partial");
    QTest::addColumn<double>("marker");
    const QString kirameki = QString::fromUtf8("株式会社きらめき商事");
    QTest::newRow("exact") << kirameki << kirameki << false << 1.0 << 1.0;
    // |N(ans)| 6, |N(gold)| 10, LCS 6: 12/16; stripped both are きらめき商事.
    QTest::newRow("marker missing") << QString::fromUtf8("きらめき商事") << kirameki << false << 0.75 << 1.0;
    // (株)きらめき商事: 9 code points, LCS 6: 12/19.
    QTest::newRow("(株) abbreviation") << QString::fromUtf8("(株)きらめき商事") << kirameki << false << 12.0 / 19.0 << 1.0;
    QTest::newRow("㈱ folds to (株)") << QString::fromUtf8("㈱きらめき商事") << kirameki << false << 12.0 / 19.0 << 1.0;
    QTest::newRow("（株） folds to (株)") << QString::fromUtf8("（株）きらめき商事") << kirameki << false << 12.0 / 19.0 << 1.0;
    // marker after the name: LCS きらめき商事 6 of 10 + 10.
    QTest::newRow("marker after") << QString::fromUtf8("きらめき商事株式会社") << kirameki << false << 0.6 << 1.0;
    QTest::newRow("both 不明") << QString::fromUtf8("不明") << QString::fromUtf8("不明") << false << 1.0 << 1.0;
    QTest::newRow("不明 vs company") << QString::fromUtf8("不明") << kirameki << false << 0.0 << 0.0;
    QTest::newRow("empty answer") << "" << kirameki << false << 0.0 << 0.0;
    QTest::newRow("both empty") << "" << "" << false << 1.0 << 1.0;
    // both only markers: marker falls back to partial of the unstripped strings.
    QTest::newRow("only markers, same") << QString::fromUtf8("株式会社") << QString::fromUtf8("株式会社") << false << 1.0 << 1.0;
    // 株式会社 vs 有限会社: LCS 会社 = 2, 4/8.
    QTest::newRow("only markers, different") << QString::fromUtf8("株式会社") << QString::fromUtf8("有限会社") << false << 0.5 << 0.5;
    // answer is only a marker, gold is not: stripped "" vs "きらめき" → 0; partial LCS 4: 8/12.
    QTest::newRow("only a marker") << QString::fromUtf8("株式会社") << QString::fromUtf8("株式会社きらめき") << false << 8.0 / 12.0 << 0.0;
    QTest::newRow("full-width letters") << QString::fromUtf8("ＡＢＣソリューションズ") << QString::fromUtf8("ABCソリューションズ") << false << 1.0 << 1.0;
    QTest::newRow("white space ignored") << QString::fromUtf8("  株式会社 きらめき\u3000商事\n") << kirameki << false << 1.0 << 1.0;
    QTest::newRow("case kept") << "abc" << "ABC" << false << 0.0 << 0.0;
    // きらめき vs きらめき商事: LCS 4, 8/10 both ways (no markers).
    QTest::newRow("truncated") << QString::fromUtf8("きらめき") << QString::fromUtf8("きらめき商事") << false << 0.8 << 0.8;
    // 株式会社きらめき vs 株式会社きらめき商事: partial LCS 8 → 16/18; marker きらめき vs きらめき商事 → 8/10.
    QTest::newRow("truncated with marker") << QString::fromUtf8("株式会社きらめき") << kirameki << false << 16.0 / 18.0 << 0.8;
    QTest::newRow("thinking: answer block")
        << QString::fromUtf8("<thinking>署名に会社名がある</thinking><answer>株式会社きらめき商事</answer>") << kirameki << true
        << 1.0 << 1.0;
    QTest::newRow("thinking: no answer block → empty") << kirameki << kirameki << true << 0.0 << 0.0;
}

void TestRewards::similarity()
{
    QFETCH(QString, completion);
    QFETCH(QString, gold);
    QFETCH(bool, thinking);
    QFETCH(double, partial);
    QFETCH(double, marker);
    QVERIFY(std::abs(run(PartialReward(), kSender, kEmail, completion, gold, thinking) - partial) < kTol);
    QVERIFY(std::abs(run(MarkerReward(), kSender, kEmail, completion, gold, thinking) - marker) < kTol);
}

void TestRewards::exist_data()
{
    QTest::addColumn<QString>("completion");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<double>("expected");
    const QString kirameki = QString::fromUtf8("株式会社きらめき商事");
    QTest::newRow("in body, spaces differ") << kirameki << kirameki << 1.0;
    QTest::newRow("part of the name") << QString::fromUtf8("きらめき") << kirameki << 1.0;
    QTest::newRow("marker after: not in the text") << QString::fromUtf8("きらめき商事株式会社") << kirameki << 0.0;
    QTest::newRow("recipient's company is in the text") << QString::fromUtf8("東和物産株式会社") << kirameki << 1.0;
    QTest::newRow("invented") << QString::fromUtf8("株式会社ひかり商事") << kirameki << 0.0;
    QTest::newRow("full-width in text, ascii answer") << QString::fromUtf8("ABCソリューションズ") << kirameki << 1.0;
    QTest::newRow("in the sender header only") << QString::fromUtf8("山田太郎") << kirameki << 1.0;
    QTest::newRow("across header and body") << QString::fromUtf8("jp>東和") << kirameki << 1.0;
    QTest::newRow("empty") << "" << kirameki << 0.0;
    QTest::newRow("不明 when a company exists") << QString::fromUtf8("不明") << kirameki << 0.0;
    QTest::newRow("both 不明") << QString::fromUtf8("不明") << QString::fromUtf8("不明") << 1.0;
    QTest::newRow("gold 不明, answer in text") << QString::fromUtf8("東和物産") << QString::fromUtf8("不明") << 1.0;
}

void TestRewards::exist()
{
    QFETCH(QString, completion);
    QFETCH(QString, gold);
    QFETCH(double, expected);
    QCOMPARE(run(ExistReward(), kSender, kEmail, completion, gold, false), expected);
}

void TestRewards::format_data()
{
    QTest::addColumn<QString>("completion");
    QTest::addColumn<int>("check");
    QTest::newRow("ok") << "<thinking>t</thinking><answer>A</answer>" << int(FormatCheck::Ok);
    QTest::newRow("ok with white space") << QString::fromUtf8(" \n<thinking>t</thinking>\n\u3000<answer>A</answer>\n") << int(FormatCheck::Ok);
    QTest::newRow("ok, empty blocks") << "<thinking></thinking><answer></answer>" << int(FormatCheck::Ok);
    QTest::newRow("no thinking") << "<answer>A</answer>" << int(FormatCheck::NoThinkingOpen);
    QTest::newRow("text before") << "x<thinking>t</thinking><answer>A</answer>" << int(FormatCheck::NoThinkingOpen);
    QTest::newRow("thinking unclosed") << "<thinking>t<answer>A</answer>" << int(FormatCheck::NoThinkingClose);
    QTest::newRow("no answer") << "<thinking>t</thinking>" << int(FormatCheck::NoAnswerOpen);
    QTest::newRow("text between") << "<thinking>t</thinking>so<answer>A</answer>" << int(FormatCheck::NoAnswerOpen);
    QTest::newRow("answer unclosed") << "<thinking>t</thinking><answer>A" << int(FormatCheck::NoAnswerClose);
    QTest::newRow("text after") << "<thinking>t</thinking><answer>A</answer>." << int(FormatCheck::TrailingText);
    QTest::newRow("two answers") << "<thinking>t</thinking><answer>A</answer><answer>B</answer>" << int(FormatCheck::TrailingText);
    QTest::newRow("order swapped") << "<answer>A</answer><thinking>t</thinking>" << int(FormatCheck::NoThinkingOpen);
    QTest::newRow("answer inside thinking") << "<thinking><answer>A</answer></thinking><answer>A</answer>" << int(FormatCheck::NestedTag);
    QTest::newRow("plain answer") << QString::fromUtf8("株式会社A") << int(FormatCheck::NoThinkingOpen);
}

void TestRewards::format()
{
    QFETCH(QString, completion);
    QFETCH(int, check);
    QCOMPARE(int(checkThinkingFormat(completion.toStdString())), check);
    const double expected = check == int(FormatCheck::Ok) ? 1.0 : 0.0;
    QCOMPARE(run(FormatReward(), kSender, kEmail, completion, "A", true), expected);
    // format looks at the whole completion, whatever the mode.
    QCOMPARE(run(FormatReward(), kSender, kEmail, completion, "A", false), expected);
}

void TestRewards::answerExtraction_data()
{
    QTest::addColumn<QString>("completion");
    QTest::addColumn<bool>("thinking");
    QTest::addColumn<QString>("answer");
    QTest::newRow("plain trimmed") << QString::fromUtf8("\u3000 株式会社A \n") << false << QString::fromUtf8("株式会社A");
    QTest::newRow("plain keeps tags") << "<answer>A</answer>" << false << "<answer>A</answer>";
    QTest::newRow("thinking first answer") << "<thinking>t</thinking><answer> A </answer><answer>B</answer>" << true << "A";
    QTest::newRow("thinking none") << "A" << true << "";
    QTest::newRow("thinking unclosed") << "<answer>A" << true << "";
    QTest::newRow("thinking answer only") << "<answer>A</answer>" << true << "A";
}

void TestRewards::answerExtraction()
{
    QFETCH(QString, completion);
    QFETCH(bool, thinking);
    QFETCH(QString, answer);
    QCOMPARE(QString::fromStdString(extractAnswer(completion.toStdString(), thinking)), answer);
}

void TestRewards::domain_data()
{
    QTest::addColumn<QString>("sender");
    QTest::addColumn<QString>("completion");
    QTest::addColumn<double>("expected");
    // きらめき商事 → kiramekishouji (14) vs kirameki (8): LCS 8, 16/22.
    QTest::newRow("romanized prefix") << "yamada@kirameki.co.jp" << QString::fromUtf8("株式会社きらめき商事") << 16.0 / 22.0;
    QTest::newRow("katakana exact") << "Info <info@SANSAN.com>" << QString::fromUtf8("サンサン株式会社") << 1.0;
    QTest::newRow("ascii answer") << "a@sansan.com" << QString::fromUtf8("SANSAN株式会社") << 1.0;
    // ソニー → soni vs sony: LCS son 3, 6/8.
    QTest::newRow("long vowel") << "a@sony.example" << QString::fromUtf8("ソニー") << 0.75;
    QTest::newRow("no @") << QString::fromUtf8("山田 太郎") << QString::fromUtf8("サンサン") << 0.0;
    QTest::newRow("answer 不明") << "a@sansan.com" << QString::fromUtf8("不明") << 0.0;
    QTest::newRow("answer empty") << "a@sansan.com" << "" << 0.0;
    // no '.' after '@': the rest of the address is the domain.
    QTest::newRow("no dot") << "a@sansan" << QString::fromUtf8("サンサン") << 1.0;
    // answer only a marker: the candidate is "", 0 against a non-empty domain.
    QTest::newRow("only a marker") << "a@sansan.com" << QString::fromUtf8("株式会社") << 0.0;
    // an empty domain is no address: 0, even for an answer that romanizes to "".
    QTest::newRow("empty domain") << "x@.jp" << QString::fromUtf8("株式会社") << 0.0;
}

void TestRewards::domain()
{
    QFETCH(QString, sender);
    QFETCH(QString, completion);
    QFETCH(double, expected);
    const DomainReward r(std::make_shared<SynonymTable>());
    const std::string s = sender.toStdString();
    QVERIFY2(std::abs(run(r, s.c_str(), kEmail, completion, "x", false) - expected) < kTol,
             qPrintable(QString::number(run(r, s.c_str(), kEmail, completion, "x", false))));
}

void TestRewards::domainSynonyms()
{
    const auto table = std::make_shared<SynonymTable>(
        SynonymTable::parse("# comment\n\nきらめき商事\tKirameki Trading\tKRM\n", "test.tsv"));
    QCOMPARE(table->groupCount(), size_t(1));
    const DomainReward r(table);
    // Candidates: きらめき商事 (16/22 vs kirameki), kiramekitrading (LCS 8: 16/23), krm (0): max 16/22.
    QVERIFY(std::abs(run(r, "a@kirameki.co.jp", kEmail, QString::fromUtf8("株式会社きらめき商事"), "x", false) - 16.0 / 22.0) < kTol);
    // krm is exact for this domain.
    QCOMPARE(run(r, "a@krm.co.jp", kEmail, QString::fromUtf8("きらめき商事株式会社"), "x", false), 1.0);
    // Without the table the same answer scores low: kiramekishouji vs krm shares "k": 2/17.
    const DomainReward bare(std::make_shared<SynonymTable>());
    QVERIFY(std::abs(run(bare, "a@krm.co.jp", kEmail, QString::fromUtf8("きらめき商事"), "x", false) - 2.0 / 17.0) < kTol);
    // A bad table names the file and line.
    try {
        SynonymTable::parse("a\tb\nonly-one\n", "syn.tsv");
        QFAIL("expected an error");
    } catch (const rwb::data::InputException &e) {
        QCOMPARE(QString::fromStdString(e.error().file), "syn.tsv");
        QCOMPARE(int(e.error().line), 2);
    }
}

void TestRewards::domainExplanation()
{
    const auto table = std::make_shared<SynonymTable>(SynonymTable::parse("きらめき商事\tKRM\n", "t"));
    const DomainReward r(table);
    const ExtractionPrompt p("a@krm.co.jp", kEmail, "x");
    const ExtractionAnswer a("株式会社きらめき商事", false);
    const Explanation e = r.explain(p, a);
    QCOMPARE(e.domain, std::string("krm"));
    QCOMPARE(e.candidates.size(), size_t(2));
    QCOMPARE(e.candidates[0].name, std::string("きらめき商事"));
    QCOMPARE(e.candidates[0].romaji, std::string("kiramekishouji"));
    QCOMPARE(e.candidates[1].romaji, std::string("krm"));
    QCOMPARE(e.candidates[1].value, 1.0);
    QCOMPARE(e.value, 1.0);
}

void TestRewards::senderDomain_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<bool>("hasAt");
    QTest::addColumn<QString>("domain");
    QTest::newRow("bare") << "taro@Sansan.com" << true << "sansan";
    QTest::newRow("display name") << QString::fromUtf8("山田 <taro@mail.abc-corp.co.jp>") << true << "mail";
    QTest::newRow("hyphen kept") << "taro@abc-corp.co.jp" << true << "abc-corp";
    QTest::newRow("no at") << "taro" << false << "";
}

void TestRewards::senderDomain()
{
    QFETCH(QString, header);
    QFETCH(bool, hasAt);
    QFETCH(QString, domain);
    const SenderDomain d = rwb::reward::senderDomain(header.toStdString());
    QCOMPARE(d.hasAt, hasAt);
    QCOMPARE(QString::fromStdString(d.domain), domain);
}

void TestRewards::explanationSpans()
{
    const ExtractionPrompt p(kSender, kEmail, "株式会社きらめき商事");
    const ExtractionAnswer a("(株)きらめき商事", false);
    const Explanation e = PartialReward().explain(p, a);
    QCOMPARE(e.reason, Reason::Compared);
    QCOMPARE(e.answer, std::string("(株)きらめき商事"));
    QCOMPARE(int(e.answerSpan.begin), 3);
    QCOMPARE(int(e.answerSpan.length), 6);
    QCOMPARE(int(e.goldSpan.begin), 4);
    const Explanation m = MarkerReward().explain(p, a);
    QCOMPARE(m.markersRemovedFromAnswer, std::vector<std::string>{"(株)"});
    QCOMPARE(m.markersRemovedFromGold, std::vector<std::string>{"株式会社"});
    QCOMPARE(m.answer, std::string("きらめき商事"));
    const Explanation x = ExistReward().explain(p, a);
    QCOMPARE(x.reason, Reason::NotInSource);
    const ExtractionAnswer found("きらめき商事", false);
    const Explanation y = ExistReward().explain(p, found);
    QCOMPARE(y.reason, Reason::FoundInSource);
    QVERIFY(y.sourcePosition != std::string::npos);
}

void TestRewards::composite()
{
    RewardConfig c;
    c.components = {{"partial", 20, {}}, {"marker", 80, {}}};
    const CompositeReward r(c, "reward config", rwb::task::Catalog::builtin().rewards());
    const ExtractionPrompt p(kSender, kEmail, "株式会社きらめき商事");
    // partial 12/19, marker 1: (20·12/19 + 80·1) / 100.
    const auto s = r.score(p, ExtractionAnswer("(株)きらめき商事", false));
    QVERIFY(std::abs(s.total - (0.2 * 12.0 / 19.0 + 0.8)) < kTol);
    QCOMPARE(s.components.size(), size_t(2));
    // partial 0.75, marker 1: 0.95.
    QVERIFY(std::abs(r.score(p, ExtractionAnswer("きらめき商事", false)).total - 0.95) < kTol);
    // A zero-weight component is scored but adds nothing.
    RewardConfig z;
    z.components = {{"partial", 0, {}}, {"exist", 3, {}}};
    const CompositeReward rz(z, "reward config", rwb::task::Catalog::builtin().rewards());
    const auto sz = rz.score(p, ExtractionAnswer("きらめき商事", false));
    QCOMPARE(sz.total, 1.0);
    QCOMPARE(sz.components[0], 0.75);
}

void TestRewards::compositeWeightsChange()
{
    RewardConfig c;
    c.components = {{"partial", 1, {}}, {"marker", 1, {}}};
    CompositeReward r(c, "reward config", rwb::task::Catalog::builtin().rewards());
    QCOMPARE(r.combine({0.5, 1.0}), 0.75);
    r.setWeights({3, 1});
    QCOMPARE(r.combine({0.5, 1.0}), 0.625);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.setWeights({0, 0}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.setWeights({-1, 2}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, r.setWeights({1}));
    QCOMPARE(r.weight(0), 3.0); // unchanged after the failures
}

void TestRewards::registryNames()
{
    // The task's own rewards, then the generic ones (reward/library/library.h) that serve every task.
    const std::vector<std::string> own{"partial", "marker", "exist", "format", "domain"};
    const std::vector<std::string> names = rwb::task::Catalog::builtin().rewards().names("company_extraction");
    QVERIFY(names.size() > own.size());
    QCOMPARE(std::vector<std::string>(names.begin(), names.begin() + own.size()), own);
    QCOMPARE(names[own.size()], std::string("exact_match"));
    try {
        rwb::task::Catalog::builtin().rewards().create("parital");
        QFAIL("expected an error");
    } catch (const std::invalid_argument &e) {
        QVERIFY(std::string(e.what()).find("partial, marker, exist, format, domain") != std::string::npos);
    }
}

QTEST_APPLESS_MAIN(TestRewards)
#include "tst_rewards.moc"
