// The synthetic e-mail corpus (data::SyntheticEmailGenerator) and the gold rule
// (data::goldRuleViolation): determinism, disjoint splits, golds that occur verbatim
// and are the most detailed form (checked here independently of the generator's own
// check, with text::normalize and the markers), the share of 不明, distractors, lengths,
// variety and the JSONL lines.
#include "tasks/extraction/companycatalog.h"
#include "tasks/extraction/extractionrecord.h"
#include "tasks/extraction/goldrule.h"
#include "tasks/extraction/syntheticemails.h"
#include "text/markers.h"
#include "text/normalize.h"
#include "text/utf8.h"
#include "util/rng.h"

#include <QtTest>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace rwb;
using data::DataSplit;
using data::SyntheticEmail;
using data::SyntheticEmailGenerator;

namespace {

// E-mails per split for the split and property checks.
constexpr size_t kTrainEmails = 3000;
constexpr size_t kHeldOutEmails = 1500;
// E-mails in which every variety feature must show up at least kMinFeatureCount times.
constexpr size_t kFeatureEmails = 1000;
constexpr int kMinFeatureCount = 5;
// Kinds of organization (医療法人, 信用金庫, …) are rarer: each at least this often.
constexpr int kMinOrganizationCount = 3;
// FNV-1a of the JSONL of e-mails 1–200, seed 1, train: the corpus is the same on every
// platform and compiler (GCC and Clang, libstdc++ and libc++ give these bytes). When the
// word lists, templates or catalogue change on purpose, the corpus changes: update this
// value and the figures in docs/data.md together.
constexpr uint64_t kCorpusFingerprint = 0x4aae84978077de4cULL;

std::vector<SyntheticEmail> generate(uint64_t seed, DataSplit split, size_t n,
                                     size_t maxChars = SyntheticEmailGenerator::kDefaultMaxChars)
{
    return SyntheticEmailGenerator(seed, split, maxChars).generate(n);
}

std::string jsonl(const std::vector<SyntheticEmail> &emails)
{
    std::string out;
    for (const SyntheticEmail &e : emails)
        out += data::toJsonLine(e.record, /*withCompletion=*/false) + "\n";
    return out;
}

// The gold's name as the rewards compare it: normalized, markers removed.
std::u32string strippedName(const std::string &s)
{
    return text::stripMarkers(text::normalize32(s)).text;
}

bool isUnknown(const data::ExtractionRecord &r)
{
    return r.gold == "不明";
}

size_t codePoints(const std::string &s)
{
    return text::decodeUtf8(s).size();
}

std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        const size_t nl = text.find('\n', start);
        out.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
        if (nl == std::string::npos)
            return out;
        start = nl + 1;
    }
}

bool anyLineStartsWith(const std::string &text, std::initializer_list<const char *> prefixes)
{
    for (const std::string &line : linesOf(text))
        for (const char *p : prefixes)
            if (line.rfind(p, 0) == 0)
                return true;
    return false;
}

bool endsWith(const std::u32string &s, const std::u32string &tail)
{
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool startsWith(const std::u32string &s, const std::u32string &head)
{
    return s.compare(0, head.size(), head) == 0;
}

QByteArray describe(const SyntheticEmail &e)
{
    return QByteArray::fromStdString(e.record.id + " (" + e.scene + "), gold \"" + e.record.gold + "\"\n" +
                                     e.record.senderEmail + "\n" + e.record.emailText);
}

} // namespace

class TestSyntheticEmails : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();

    void sameSeedSameBytes();
    void corpusFingerprint();
    void differentSeedOrSplitDiffers();
    void prefixIsStable();
    void idsAreSequential();

    void splitsShareNoStem();
    void stemsBelongToTheirSplit();
    void heldOutGoldsNeverInTrain();
    void everySplitHasManyStems();

    void goldOccursVerbatim();
    void goldIsMostDetailedForm();
    void goldRuleViolation_data();
    void goldRuleViolation();

    void unknownShare();
    void unknownEmailsHaveNoSenderMention();
    void recipientDiffersFromGold();
    void lengthsUnderCap();
    void smallerCapIsKept();
    void varietyFeatures();
    void linesParse();
    void templatedReasoningLeadsToTheGold();

private:
    std::vector<SyntheticEmail> m_train;
    std::vector<SyntheticEmail> m_val;
    std::vector<SyntheticEmail> m_test;
};

void TestSyntheticEmails::initTestCase()
{
    m_train = generate(1, DataSplit::Train, kTrainEmails);
    m_val = generate(1, DataSplit::Val, kHeldOutEmails);
    m_test = generate(2, DataSplit::Test, kHeldOutEmails);
    QCOMPARE(m_train.size(), kTrainEmails);
}

void TestSyntheticEmails::sameSeedSameBytes()
{
    const std::string a = jsonl(generate(42, DataSplit::Train, 300));
    const std::string b = jsonl(generate(42, DataSplit::Train, 300));
    QVERIFY(!a.empty());
    QVERIFY2(a == b, "two runs with seed 42 gave different bytes");
    // A second generator object, e-mail by e-mail.
    const SyntheticEmailGenerator g(42, DataSplit::Train);
    std::string c;
    for (size_t i = 0; i < 300; ++i)
        c += data::toJsonLine(g.email(i).record, /*withCompletion=*/false) + "\n";
    QVERIFY(a == c);
}

void TestSyntheticEmails::corpusFingerprint()
{
    const std::vector<SyntheticEmail> first(m_train.begin(), m_train.begin() + 200);
    const uint64_t fingerprint = util::fnv1a64(jsonl(first));
    QVERIFY2(fingerprint == kCorpusFingerprint,
             qPrintable(QString("the corpus changed: fingerprint 0x%1 (see kCorpusFingerprint)")
                            .arg(fingerprint, 16, 16, QLatin1Char('0'))));
}

void TestSyntheticEmails::differentSeedOrSplitDiffers()
{
    const std::vector<SyntheticEmail> a = generate(42, DataSplit::Train, 200);
    const std::vector<SyntheticEmail> b = generate(43, DataSplit::Train, 200);
    QVERIFY(jsonl(a) != jsonl(b));
    // Not just one e-mail: almost all differ.
    size_t same = 0;
    for (size_t i = 0; i < a.size(); ++i)
        same += a[i].record.emailText == b[i].record.emailText;
    QVERIFY2(same < 5, qPrintable(QString("%1 of 200 e-mails equal across seeds").arg(same)));
    // The same seed in another split is another corpus too.
    QVERIFY(jsonl(generate(42, DataSplit::Val, 50)) != jsonl(generate(42, DataSplit::Test, 50)));
}

void TestSyntheticEmails::prefixIsStable()
{
    // Asking for fewer e-mails gives the first ones of a longer run.
    const std::vector<SyntheticEmail> longer = generate(7, DataSplit::Val, 120);
    const std::vector<SyntheticEmail> shorter = generate(7, DataSplit::Val, 40);
    QCOMPARE(shorter.size(), size_t(40));
    for (size_t i = 0; i < shorter.size(); ++i)
        QCOMPARE(data::toJsonLine(shorter[i].record), data::toJsonLine(longer[i].record));
    // The progress callback can stop early.
    size_t calls = 0;
    const auto stopped = SyntheticEmailGenerator(7, DataSplit::Val).generate(2500, [&](size_t done, size_t total) {
        ++calls;
        return done < 1000 && total == 2500;
    });
    QCOMPARE(stopped.size(), size_t(1000));
    QCOMPARE(calls, size_t(1));
}

void TestSyntheticEmails::idsAreSequential()
{
    QCOMPARE(m_train.front().record.id, std::string("train-000001"));
    QCOMPARE(m_train[41].record.id, std::string("train-000042"));
    QCOMPARE(m_val.back().record.id, std::string("val-001500"));
    QCOMPARE(m_test.front().record.id, std::string("test-000001"));
    QCOMPARE(SyntheticEmailGenerator::idFor(DataSplit::Train, 1234566), std::string("train-1234567"));
    for (const SyntheticEmail &e : m_train)
        QCOMPARE(e.record.task, std::string(data::kCompanyExtractionTask));
}

void TestSyntheticEmails::splitsShareNoStem()
{
    auto stemsOf = [](const std::vector<SyntheticEmail> &emails) {
        std::set<std::string> s;
        for (const SyntheticEmail &e : emails)
            s.insert(e.stems.begin(), e.stems.end());
        return s;
    };
    const std::set<std::string> train = stemsOf(m_train), val = stemsOf(m_val), test = stemsOf(m_test);
    QVERIFY2(train.size() > 500, qPrintable(QString("%1 train stems").arg(train.size())));
    QVERIFY2(val.size() > 50 && test.size() > 50, qPrintable(QString("%1 val, %2 test").arg(val.size()).arg(test.size())));
    for (const auto &[a, b, what] : {std::tuple{&train, &val, "train/val"}, std::tuple{&train, &test, "train/test"},
                                     std::tuple{&val, &test, "val/test"}}) {
        for (const std::string &s : *a)
            QVERIFY2(!b->count(s), qPrintable(QString("%1 share the stem %2").arg(what, QString::fromStdString(s))));
    }
}

void TestSyntheticEmails::stemsBelongToTheirSplit()
{
    for (const auto &[emails, split] : {std::pair{&m_train, DataSplit::Train}, std::pair{&m_val, DataSplit::Val},
                                        std::pair{&m_test, DataSplit::Test}}) {
        for (const SyntheticEmail &e : *emails) {
            QVERIFY2(!e.stems.empty(), describe(e).constData()); // at least the recipient's
            for (const std::string &s : e.stems)
                QVERIFY2(data::CompanyCatalog::splitOfStem(s) == split, describe(e).constData());
        }
    }
}

// The same check on the text alone: no held-out gold names a company that a train gold names.
void TestSyntheticEmails::heldOutGoldsNeverInTrain()
{
    std::set<std::u32string> trainNames;
    for (const SyntheticEmail &e : m_train)
        if (!isUnknown(e.record))
            trainNames.insert(strippedName(e.record.gold));
    size_t checked = 0;
    for (const auto *emails : {&m_val, &m_test})
        for (const SyntheticEmail &e : *emails) {
            if (isUnknown(e.record))
                continue;
            QVERIFY2(!trainNames.count(strippedName(e.record.gold)), describe(e).constData());
            ++checked;
        }
    QVERIFY(checked > 2000);
}

void TestSyntheticEmails::everySplitHasManyStems()
{
    const data::CompanyCatalog &catalog = data::CompanyCatalog::builtin();
    const size_t train = catalog.stems(DataSplit::Train).size();
    const size_t val = catalog.stems(DataSplit::Val).size();
    const size_t test = catalog.stems(DataSplit::Test).size();
    QCOMPARE(train + val + test, catalog.stemCount());
    // About 80 / 10 / 10 % of the stems.
    QVERIFY2(val * 100 > catalog.stemCount() * 7 && test * 100 > catalog.stemCount() * 7,
             qPrintable(QString("train %1, val %2, test %3").arg(train).arg(val).arg(test)));
    QVERIFY(train * 100 > catalog.stemCount() * 75);
    QVERIFY(val >= 150 && test >= 150);
}

void TestSyntheticEmails::goldOccursVerbatim()
{
    size_t known = 0;
    for (const auto *emails : {&m_train, &m_val, &m_test})
        for (const SyntheticEmail &e : *emails) {
            const data::ExtractionRecord &r = e.record;
            QVERIFY2(!r.gold.empty(), describe(e).constData());
            if (isUnknown(r))
                continue;
            ++known;
            const std::string source = r.senderEmail + "\n" + r.emailText;
            QVERIFY2(source.find(r.gold) != std::string::npos, describe(e).constData());
            QVERIFY2(text::trimmed(r.gold) == r.gold, describe(e).constData());
        }
    QVERIFY(known > 4000);
}

// No mention of the sender's company is more detailed than the gold: the normalized
// e-mail never holds the normalized gold with a legal-entity marker added in front or
// behind, and an abbreviated gold ((株)X) never occurs spelled out (株式会社X).
void TestSyntheticEmails::goldIsMostDetailedForm()
{
    const std::pair<std::u32string, std::u32string> spelledOut[] = {
        {U"(株)", U"株式会社"}, {U"(有)", U"有限会社"}, {U"(合)", U"合同会社"}};
    size_t abbreviatedGolds = 0, bareGolds = 0;
    for (const auto *emails : {&m_train, &m_val, &m_test})
        for (const SyntheticEmail &e : *emails) {
            const data::ExtractionRecord &r = e.record;
            if (isUnknown(r))
                continue;
            const std::u32string gold = text::normalize32(r.gold);
            const std::u32string source = text::normalize32(r.senderEmail + "\n" + r.emailText);
            QVERIFY2(source.find(gold) != std::u32string::npos, describe(e).constData());
            for (const std::u32string &m : text::legalEntityMarkers()) {
                QVERIFY2(source.find(m + gold) == std::u32string::npos, describe(e).constData());
                QVERIFY2(source.find(gold + m) == std::u32string::npos, describe(e).constData());
            }
            for (const auto &[abbrev, full] : spelledOut) {
                const size_t at = gold.find(abbrev);
                if (at == std::u32string::npos)
                    continue;
                ++abbreviatedGolds;
                std::u32string longer = gold;
                longer.replace(at, abbrev.size(), full);
                QVERIFY2(source.find(longer) == std::u32string::npos, describe(e).constData());
            }
            if (text::stripMarkers(gold).removed.empty())
                ++bareGolds;
        }
    // The check must have had something to bite on.
    QVERIFY(abbreviatedGolds > 100);
    QVERIFY(bareGolds > 100);
}

void TestSyntheticEmails::goldRuleViolation_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<bool>("ok");
    const QString header = "山田 太郎 <yamada@ksj.co.jp>";
    QTest::newRow("full form is gold") << header << "きらめき商事の山田です。\n株式会社きらめき商事\n山田"
                                       << "株式会社きらめき商事" << true;
    QTest::newRow("short form while the full one is there") << header << "きらめき商事の山田です。\n株式会社きらめき商事"
                                                             << "きらめき商事" << false;
    QTest::newRow("abbreviation while the full one is there") << header << "(株)きらめき商事\n株式会社きらめき商事"
                                                               << "(株)きらめき商事" << false;
    QTest::newRow("㈱ as the most detailed form") << header << "きらめき商事の山田です。\n㈱きらめき商事 山田"
                                                 << "㈱きらめき商事" << true;
    QTest::newRow("full-width gold, half-width text") << header << "株式会社ＳＯＲＡシステムズ" << "株式会社SORAシステムズ"
                                                     << false; // not verbatim
    QTest::newRow("joined across a line break") << header << "きらめき商事\n株式会社あおば電機 佐藤様"
                                                << "きらめき商事" << false; // normalizes to きらめき商事株式会社…
    QTest::newRow("marker after, spaced") << header << "Sansan 株式会社の山田です" << "Sansan 株式会社" << true;
    QTest::newRow("gold only in the header") << "北嶺運輸 配車センター <haisha@hokurei.co.jp>" << "石井です。"
                                            << "北嶺運輸" << true;
    QTest::newRow("not in the e-mail") << header << "株式会社あおば電機" << "株式会社きらめき商事" << false;
    QTest::newRow("不明 is not checked") << header << "株式会社あおば電機" << "不明" << true;
    QTest::newRow("only a marker") << header << "株式会社" << "株式会社" << false;
}

void TestSyntheticEmails::goldRuleViolation()
{
    QFETCH(QString, header);
    QFETCH(QString, body);
    QFETCH(QString, gold);
    QFETCH(bool, ok);
    const std::string why = data::goldRuleViolation(header.toStdString(), body.toStdString(), gold.toStdString());
    QVERIFY2(why.empty() == ok, why.empty() ? "accepted" : why.c_str());
}

void TestSyntheticEmails::unknownShare()
{
    const std::vector<SyntheticEmail> emails(m_train.begin(), m_train.begin() + 2000);
    size_t unknown = 0;
    for (const SyntheticEmail &e : emails)
        unknown += isUnknown(e.record);
    // About 15 %: 10–20 % over 2,000 e-mails (15 % ± 6 standard deviations).
    QVERIFY2(unknown >= 200 && unknown <= 400, qPrintable(QString("%1 of 2000 are 不明").arg(unknown)));
}

// An e-mail with gold 不明 must not name the sender's company anyway: nothing in it may
// be a form of the company its mail domain belongs to (internal e-mails), and its
// stems are those of other companies.
void TestSyntheticEmails::unknownEmailsHaveNoSenderMention()
{
    size_t n = 0;
    for (const SyntheticEmail &e : m_train) {
        if (!isUnknown(e.record))
            continue;
        ++n;
        QVERIFY2(e.scene == "customer" || e.scene == "internal" || e.scene == "personal_forward" ||
                     e.scene == "friend",
                 describe(e).constData());
        QVERIFY2(e.record.emailText.find('\x01') == std::string::npos, describe(e).constData());
    }
    QVERIFY(n > 0);
}

void TestSyntheticEmails::recipientDiffersFromGold()
{
    size_t withRecipient = 0;
    for (const SyntheticEmail &e : m_train) {
        if (e.recipientCompany.empty())
            continue;
        ++withRecipient;
        const std::vector<std::string> lines = linesOf(e.record.emailText);
        // The greeting is at the top (after a subject line at most).
        bool inGreeting = false;
        for (size_t i = 0; i < lines.size() && i < 4; ++i)
            inGreeting = inGreeting || lines[i].find(e.recipientCompany) != std::string::npos;
        QVERIFY2(inGreeting, describe(e).constData());
        if (!isUnknown(e.record)) {
            QVERIFY2(strippedName(e.recipientCompany) != strippedName(e.record.gold), describe(e).constData());
            QVERIFY2(e.record.gold.find(e.recipientCompany) == std::string::npos, describe(e).constData());
        }
    }
    // The distractor is common: most e-mails name the recipient's company.
    QVERIFY2(withRecipient * 100 > m_train.size() * 55,
             qPrintable(QString("%1 of %2 name a recipient company").arg(withRecipient).arg(m_train.size())));
}

void TestSyntheticEmails::lengthsUnderCap()
{
    size_t longest = 0;
    for (const auto *emails : {&m_train, &m_val, &m_test})
        for (const SyntheticEmail &e : *emails) {
            const size_t n = codePoints(e.record.emailText);
            longest = std::max(longest, n);
            QVERIFY2(n <= SyntheticEmailGenerator::kDefaultMaxChars, describe(e).constData());
            QVERIFY2(n >= 40, describe(e).constData());
        }
    QVERIFY(longest > 400); // the cap is not trivially far away
}

void TestSyntheticEmails::smallerCapIsKept()
{
    for (const SyntheticEmail &e : generate(5, DataSplit::Train, 300, /*maxChars=*/300))
        QVERIFY2(codePoints(e.record.emailText) <= 300, describe(e).constData());
}

void TestSyntheticEmails::varietyFeatures()
{
    const std::regex english(R"(Co\., Ltd\.|Inc\.|Corporation|K\.K\.|LLC)");
    const std::regex freeMail(R"(@(gmail\.com|yahoo\.co\.jp|outlook\.jp|hotmail\.co\.jp|icloud\.com|docomo\.ne\.jp|ezweb\.ne\.jp|nifty\.com))");
    std::map<QString, int> counts, organizations;
    std::set<std::string> scenes;
    for (size_t i = 0; i < kFeatureEmails; ++i) {
        const SyntheticEmail &e = m_train[i];
        const data::ExtractionRecord &r = e.record;
        const std::string all = r.senderEmail + "\n" + r.emailText;
        scenes.insert(e.scene);
        counts["forwarded block"] += anyLineStartsWith(r.emailText, {"From:", "差出人:"});
        counts["quoted lines"] += anyLineStartsWith(r.emailText, {">", "＞"});
        counts["㈱"] += all.find("㈱") != std::string::npos;
        counts["(株)"] += all.find("(株)") != std::string::npos;
        counts["（株）"] += all.find("（株）") != std::string::npos;
        counts["(有)/㈲"] += all.find("(有)") != std::string::npos || all.find("㈲") != std::string::npos;
        bool fullWidth = false;
        for (char32_t c : text::decodeUtf8(all))
            fullWidth = fullWidth || (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF10 && c <= 0xFF19);
        counts["full-width letters"] += fullWidth;
        counts["English name"] += std::regex_search(all, english);
        counts["bare address header"] += r.senderEmail.find('<') == std::string::npos;
        counts["free-mail sender"] += std::regex_search(r.senderEmail, freeMail) && !isUnknown(r);
        counts["gold 不明"] += isUnknown(r);
        counts["third party"] += e.stems.size() >= 3;
        for (const char *kind : {"医療法人", "学校法人", "信用金庫", "社団法人", "財団法人", "監査法人", "合同会社", "有限会社"})
            organizations[QString::fromUtf8(kind)] += all.find(kind) != std::string::npos;
        if (isUnknown(r))
            continue;
        const std::u32string gold = text::normalize32(r.gold);
        bool before = false, after = false;
        for (const std::u32string &m : text::legalEntityMarkers()) {
            before = before || startsWith(gold, m);
            after = after || endsWith(gold, m);
        }
        counts["marker before the name"] += before;
        counts["marker after the name"] += after;
        counts["gold without marker"] += !before && !after && text::stripMarkers(gold).removed.empty();
        counts["gold in the header"] += r.senderEmail.find(r.gold) != std::string::npos;
        counts["gold spaced"] += r.gold.find(' ') != std::string::npos || r.gold.find("　") != std::string::npos;
    }
    for (const auto &[feature, n] : counts)
        QVERIFY2(n >= kMinFeatureCount,
                 qPrintable(QString("%1: %2 of %3 e-mails").arg(feature).arg(n).arg(kFeatureEmails)));
    for (const auto &[kind, n] : organizations)
        QVERIFY2(n >= kMinOrganizationCount,
                 qPrintable(QString("%1: %2 of %3 e-mails").arg(kind).arg(n).arg(kFeatureEmails)));
    QVERIFY2(counts["third party"] * 100 > int(kFeatureEmails) * 50, qPrintable(QString::number(counts["third party"])));
    for (const char *scene : {"business", "reply", "inline", "forward", "announcement", "recruiting", "casual",
                              "customer", "internal", "personal_forward", "friend"})
        QVERIFY2(scenes.count(scene), scene);
    // Many distinct e-mails, not a handful repeated.
    std::set<std::string> bodies;
    for (size_t i = 0; i < kFeatureEmails; ++i)
        bodies.insert(m_train[i].record.emailText);
    QCOMPARE(bodies.size(), kFeatureEmails);
}

void TestSyntheticEmails::linesParse()
{
    size_t lineNo = 0;
    for (const SyntheticEmail &e : m_train) {
        const std::string line = data::toJsonLine(e.record, /*withCompletion=*/false);
        QVERIFY2(line.find("\"completion\"") == std::string::npos, line.c_str());
        QVERIFY2(line.find('\n') == std::string::npos, line.c_str());
        const data::ExtractionRecord r = data::parseExtractionLine(line, "synthetic", ++lineNo, /*requireCompletion=*/false);
        QCOMPARE(r.id, e.record.id);
        QCOMPARE(r.task, std::string(data::kCompanyExtractionTask));
        QCOMPARE(r.senderEmail, e.record.senderEmail);
        QCOMPARE(r.emailText, e.record.emailText);
        QCOMPARE(r.gold, e.record.gold);
        QVERIFY(r.completion.empty());
    }
    // Scoring needs a completion: such a line is rejected there with a clear reason.
    const std::string line = data::toJsonLine(m_train.front().record, /*withCompletion=*/false);
    QVERIFY_THROWS_EXCEPTION(data::InputException, data::parseExtractionLine(line, "synthetic", 1));
}

void TestSyntheticEmails::templatedReasoningLeadsToTheGold()
{
    // Written by hand from one e-mail's parts: the sender, the recipient's company and up
    // to two third parties ruled out, then where the gold is written (or that it is not).
    SyntheticEmail e;
    e.record.senderEmail = "田中 <tanaka@midori.jp>";
    e.record.gold = "株式会社みどり製作所";
    e.recipientNamed = "あおぞら商会";
    e.otherCompanies = {"ひかり運輸", "そら電機", "うみ食品"};
    QCOMPARE(e.templatedReasoning(),
             std::string("差出人は「田中 <tanaka@midori.jp>」。「あおぞら商会」は宛先の会社で、送信者の会社ではない。"
                         "「ひかり運輸」は本文に出てくる別の会社。「そら電機」は本文に出てくる別の会社。"
                         "送信者の会社名は「株式会社みどり製作所」と書かれている。答えは「株式会社みどり製作所」。"));
    e.record.gold = "不明";
    e.recipientNamed.clear();
    e.otherCompanies.clear();
    QCOMPARE(e.templatedReasoning(), std::string("差出人は「田中 <tanaka@midori.jp>」。本文にも署名にも送信者の会社名は書かれていない。"
                                                 "答えは「不明」。"));
    // Only with the option: the default lines keep their bytes (sameSeedSameBytes, corpusFingerprint).
    const SyntheticEmailGenerator g(1, DataSplit::Train, 300);
    for (size_t i = 0; i < 50; ++i) {
        const SyntheticEmail one = g.email(i);
        QVERIFY(one.datasetRecord().reasoning.empty());
        const data::ExtractionRecord r = one.datasetRecord(true);
        QCOMPARE(r.reasoning, one.templatedReasoning());
        // It ends with the gold, so SFT on it teaches the answer the trace reached.
        const std::string tail = "答えは「" + r.gold + "」。";
        QVERIFY2(r.reasoning.size() > tail.size() && r.reasoning.compare(r.reasoning.size() - tail.size(), tail.size(), tail) == 0,
                 describe(one).constData());
    }
}

QTEST_APPLESS_MAIN(TestSyntheticEmails)
#include "tst_syntheticemails.moc"
