// The synthetic multi-hop QA data (tasks/multihop/multihop.h): determinism, chains that the
// knowledge base states, question wording, disjoint splits, the hop mix, options, and
// that the local retriever finds a hop's passage from its sub-query.

#include "tasks/multihop/multihop.h"
#include "task/catalog.h"
#include "tasks/multihop/multihoprewards.h"
#include "reward/registry.h"
#include "tasks/multihop/multihoptask.h"
#include "retrieval/bm25index.h"
#include "tasks/multihop/multihopformat.h"
#include "retrieval/corpus.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

using namespace rwb;
using data::DataSplit;
using data::MultihopGenerator;
using data::MultihopOptions;
using data::MultihopQuestion;

namespace {

std::string corpusText(const MultihopGenerator &g)
{
    std::ostringstream out;
    data::writeMultihopCorpusJsonl(g, out);
    return out.str();
}

const data::KbEntity *byName(const MultihopGenerator &g, const std::string &name)
{
    for (const data::KbEntity &e : g.entities())
        if (e.name == name)
            return &e;
    return nullptr;
}

size_t indexOf(const MultihopGenerator &g, const data::KbEntity *e)
{
    return static_cast<size_t>(e - g.entities().data());
}

} // namespace

class TestMultihop : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void determinism();
    void chainsFollowTheKnowledgeBase();
    void wording();
    void splitsStartApart();
    void hopMix();
    void namesAndNearDuplicates();
    void badOptions();
    void retrieverFindsEachHop();
    void trajectoryWellFormed();
    void trajectoryProblems();
    void answerMetrics();
    void rewards();
};

void TestMultihop::determinism()
{
    const MultihopGenerator a(MultihopOptions{}), b(MultihopOptions{});
    QCOMPARE(corpusText(a), corpusText(b));
    for (uint64_t i : {0ULL, 7ULL, 123ULL})
        QCOMPARE(data::toJsonLine(a.question(DataSplit::Train, i)), data::toJsonLine(b.question(DataSplit::Train, i)));
    // Question i does not depend on what came before it: 5 lines are the first 5 of 20.
    std::ostringstream five, twenty;
    data::writeMultihopQuestionsJsonl(a, DataSplit::Test, 5, five);
    data::writeMultihopQuestionsJsonl(a, DataSplit::Test, 20, twenty);
    QVERIFY(twenty.str().rfind(five.str(), 0) == 0);
    // Another seed, another base.
    MultihopOptions other;
    other.seed = 2;
    QVERIFY(corpusText(MultihopGenerator(other)) != corpusText(a));
}

void TestMultihop::chainsFollowTheKnowledgeBase()
{
    // Every hop's value is what its passage states for that relation; hop k+1 looks up
    // hop k's value; no entity is visited twice; the answer is the last value; the gold
    // passages are the hops' passages.
    const MultihopGenerator g(MultihopOptions{});
    for (DataSplit split : {DataSplit::Train, DataSplit::Val, DataSplit::Test}) {
        for (uint64_t i = 0; i < 300; ++i) {
            const MultihopQuestion q = g.question(split, i);
            QVERIFY(q.hops >= 2 && q.hops <= 4);
            QCOMPARE(int(q.chain.size()), q.hops);
            std::set<std::string> visited;
            for (size_t k = 0; k < q.chain.size(); ++k) {
                const data::MultihopStep &s = q.chain[k];
                const data::KbEntity *e = byName(g, s.entity);
                QVERIFY2(e, s.entity.c_str());
                QVERIFY2(visited.insert(s.entity).second, q.id.c_str());
                const data::KbFact *f = e->fact(s.relation);
                QVERIFY(f);
                QCOMPARE(f->value, s.value);
                QCOMPARE(s.passageId, e->passageId());
                QVERIFY(g.passageText(indexOf(g, e)).find(s.value) != std::string::npos);
                QCOMPARE(s.subquery, s.entity + " " + s.relation);
                QCOMPARE(s.subanswer, s.entity + "の" + s.relation + "は" + s.value + "です。");
                if (k + 1 < q.chain.size()) {
                    QCOMPARE(q.chain[k + 1].entity, s.value); // the next hop looks up this value
                    QVERIFY(f->target >= 0);
                }
            }
            QVERIFY(visited.count(q.answer) == 0); // the answer is not an entity already passed
            QCOMPARE(q.answer, q.chain.back().value);
            std::vector<std::string> passages;
            for (const data::MultihopStep &s : q.chain)
                passages.push_back(s.passageId);
            QCOMPARE(q.goldPassages, passages); // distinct entities: distinct passages
        }
    }
}

void TestMultihop::wording()
{
    // The question is the start, each relation joined by の, then the question word for
    // what the last hop gives.
    const MultihopGenerator g(MultihopOptions{});
    std::map<std::string, int> words;
    for (uint64_t i = 0; i < 400; ++i) {
        const MultihopQuestion q = g.question(DataSplit::Train, i);
        std::string phrase = q.chain.front().entity;
        for (const data::MultihopStep &s : q.chain)
            phrase += "の" + s.relation;
        const std::string &last = q.chain.back().relation;
        const data::KbEntity *answer = byName(g, q.answer);
        const char *word = answer ? (answer->kind == data::EntityKind::Person ? "誰" : "どこ")
                           : (last == "生年" || last == "設立年") ? "何年"
                           : last == "人口"                      ? "どのくらい"
                                                                : "何";
        QCOMPARE(q.question, phrase + "は" + word + "ですか。");
        ++words[word];
    }
    QVERIFY(words["誰"] > 0 && words["どこ"] > 0 && words["何年"] > 0 && words["何"] > 0);
    // One worked example, checked by hand against the passages it cites.
    const MultihopQuestion q = g.question(DataSplit::Train, 0);
    QVERIFY(!q.question.empty() && q.id == "train-000001");
}

void TestMultihop::splitsStartApart()
{
    const MultihopGenerator g(MultihopOptions{});
    std::map<DataSplit, std::set<std::string>> starts;
    for (DataSplit split : {DataSplit::Train, DataSplit::Val, DataSplit::Test})
        for (uint64_t i = 0; i < 500; ++i) {
            const MultihopQuestion q = g.question(split, i);
            QCOMPARE(q.split, split);
            starts[split].insert(q.chain.front().entity);
        }
    for (const std::string &s : starts[DataSplit::Test]) {
        QVERIFY(starts[DataSplit::Train].count(s) == 0);
        QVERIFY(starts[DataSplit::Val].count(s) == 0);
    }
    for (const std::string &s : starts[DataSplit::Val])
        QVERIFY(starts[DataSplit::Train].count(s) == 0);
    // 160 people and 48 organizations, 15 % each held out for test: 24 + 7 starts at most.
    QVERIFY(starts[DataSplit::Test].size() <= 31);
    QVERIFY(starts[DataSplit::Train].size() > 100);
}

void TestMultihop::hopMix()
{
    // Hops are drawn 40 / 35 / 25 % for 2 / 3 / 4: on 1,000 questions each share is within
    // 5 points (about 3.4 standard deviations of a binomial share at n = 1,000).
    const MultihopGenerator g(MultihopOptions{});
    std::map<int, int> n;
    for (uint64_t i = 0; i < 1000; ++i)
        ++n[g.question(DataSplit::Train, i).hops];
    QVERIFY2(std::abs(n[2] - 400) <= 50, qPrintable(QString::number(n[2])));
    QVERIFY2(std::abs(n[3] - 350) <= 50, qPrintable(QString::number(n[3])));
    QVERIFY2(std::abs(n[4] - 250) <= 50, qPrintable(QString::number(n[4])));
}

void TestMultihop::namesAndNearDuplicates()
{
    const MultihopOptions o;
    const MultihopGenerator g(o);
    QCOMPARE(g.entities().size(), o.people + o.organizations + o.cities + o.countries);
    std::set<std::string> names, ids;
    std::map<std::string, int> orgStems, familyNames;
    for (const data::KbEntity &e : g.entities()) {
        QVERIFY2(names.insert(e.name).second, e.name.c_str());
        QVERIFY(ids.insert(e.id).second);
        if (e.kind == data::EntityKind::Organization)
            ++orgStems[e.name.substr(0, e.name.size() - 6)]; // the suffixes are 2 characters
        if (e.kind == data::EntityKind::Person)
            ++familyNames[e.name.substr(0, e.name.find(' '))];
    }
    int sharedStems = 0, sharedFamilies = 0;
    for (const auto &[stem, count] : orgStems)
        sharedStems += count > 1 ? 1 : 0;
    for (const auto &[family, count] : familyNames)
        sharedFamilies += count > 1 ? 1 : 0;
    QVERIFY(sharedStems >= 5);    // ミナト精機 beside ミナト精工
    QVERIFY(sharedFamilies >= 10);
    // The corpus: one passage per entity, in the retrieval corpus format.
    QTemporaryDir dir;
    const QString path = dir.filePath("kb.jsonl");
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(corpusText(g)));
    }
    const retrieval::Corpus corpus = retrieval::Corpus::readJsonl(path.toStdString());
    QCOMPARE(corpus.size(), g.entities().size());
    QVERIFY(corpus.find("kb-P000") && corpus.find("kb-N000"));
}

void TestMultihop::badOptions()
{
    const auto message = [](MultihopOptions o) -> std::string {
        try {
            MultihopGenerator g(o);
        } catch (const std::invalid_argument &e) {
            return e.what();
        }
        return {};
    };
    MultihopOptions o;
    o.countries = 1;
    QVERIFY(message(o).find("countries") != std::string::npos);
    o = MultihopOptions{};
    o.cities = 4; // fewer than the 8 countries
    QVERIFY(message(o).find("cities") != std::string::npos);
    o = MultihopOptions{};
    o.people = 2;
    QVERIFY(message(o).find("people") != std::string::npos);
    o = MultihopOptions{};
    o.valPercent = 40;
    o.testPercent = 40;
    QVERIFY(message(o).find("percent") != std::string::npos);
}

void TestMultihop::retrieverFindsEachHop()
{
    // The environment of the step format retrieves with the hop's sub-query
    // ("ミナト精機 創業者"): with the gold sub-queries BM25 (bigram) must rank the passage
    // that answers each hop first at least 90 % of the time (measured: all 589 hops of 200
    // questions), so that a wrong hop in a search is the policy's sub-query, not the data.
    const MultihopGenerator g(MultihopOptions{});
    QTemporaryDir dir;
    const QString kb = dir.filePath("kb.jsonl");
    {
        QFile f(kb);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(corpusText(g)));
    }
    const std::string index = dir.filePath("kb.sqlite").toStdString();
    QVERIFY(retrieval::Bm25Index::build(retrieval::Corpus::readJsonl(kb.toStdString()), index, {}));
    const retrieval::Bm25Index bm25(index);
    int hops = 0, first = 0, top3 = 0;
    for (uint64_t i = 0; i < 200; ++i)
        for (const data::MultihopStep &s : g.question(DataSplit::Val, i).chain) {
            const std::vector<retrieval::Hit> hits = bm25.search(s.subquery, 3);
            ++hops;
            first += !hits.empty() && hits[0].id == s.passageId ? 1 : 0;
            for (const retrieval::Hit &h : hits)
                top3 += h.id == s.passageId ? 1 : 0;
        }
    qInfo("BM25 on %d hops: first %.3f, top-3 %.3f", hops, double(first) / hops, double(top3) / hops);
    QVERIFY2(first >= 0.9 * hops, qPrintable(QString::number(double(first) / hops)));
    QVERIFY(top3 >= first);
}

void TestMultihop::trajectoryWellFormed()
{
    const std::string text = "<step>まず創業者を調べる。</step>\n<subquery>ミナト精機 創業者</subquery>\n"
                             "<retrieval>ミナト精機は、1971年に朝霧 玲奈が設立した。</retrieval>\n"
                             "<subanswer>創業者は朝霧 玲奈です。</subanswer>\n"
                             "<step>次に出身地。</step><subquery>朝霧 玲奈 出身地</subquery>"
                             "<retrieval>朝霧 玲奈は澄川市の出身。</retrieval><subanswer> 澄川市です。 </subanswer>"
                             "<step>答えは澄川市。</step><answer>澄川市</answer>\n";
    const task::Trajectory t = task::parseTrajectory(text);
    QVERIFY2(t.wellFormed, t.problem.c_str());
    QCOMPARE(t.hops.size(), size_t(2));
    QCOMPARE(t.hops[0].subquery, std::string("ミナト精機 創業者"));
    QCOMPARE(t.hops[0].retrieval, std::string("ミナト精機は、1971年に朝霧 玲奈が設立した。"));
    QCOMPARE(t.hops[1].subanswer, std::string("澄川市です。")); // trimmed
    QCOMPARE(t.finalStep, std::string("答えは澄川市。"));
    QCOMPARE(*t.answer, std::string("澄川市"));
    // An answer without hops is a trajectory too.
    const task::Trajectory direct = task::parseTrajectory("<step>知っている。</step><answer>42</answer>");
    QVERIFY(direct.wellFormed && direct.hops.empty() && *direct.answer == "42");
}

void TestMultihop::trajectoryProblems()
{
    struct Case {
        const char *text;
        const char *problem; // the start of Trajectory::problem
        size_t hops;
        const char *answer;  // nullptr: none
    };
    const std::vector<Case> cases{
        {"", "expected <step> at byte 0, found the end of the text", 0, nullptr},
        {"<step>a</step><subquery>b", "expected </subquery> at byte 25", 0, nullptr},
        {"<step>a</step>hello<answer>x</answer>", "expected <subquery> or <answer> at byte 14, found \"hello", 0, "x"},
        {"<step>s</step><answer>x</answer> more", "expected nothing after </answer> at byte 33", 0, "x"},
        {"<step>a<subquery>b</step>", "expected </step> at byte 7", 0, nullptr},
        {"<step>a</step><subquery>b</subquery><subanswer>c</subanswer>", "expected <retrieval> at byte 36", 0,
         nullptr},
        {"<step>a</step><subquery>b</subquery><retrieval>r</retrieval><subanswer>c</subanswer><step>d</step>",
         "expected <subquery> or <answer> at byte 98", 1, nullptr},
    };
    for (const Case &c : cases) {
        const task::Trajectory t = task::parseTrajectory(c.text);
        QVERIFY2(!t.wellFormed, c.text);
        QVERIFY2(t.problem.rfind(c.problem, 0) == 0, (std::string(c.text) + " → " + t.problem).c_str());
        QCOMPARE(t.hops.size(), c.hops);
        QCOMPARE(t.answer.has_value(), c.answer != nullptr);
        if (c.answer)
            QCOMPARE(*t.answer, std::string(c.answer));
    }
}

void TestMultihop::answerMetrics()
{
    // Exact match on the answer form: spaces, punctuation, width and ASCII case do not count.
    QCOMPARE(task::exactMatch("天城雫", "天城 雫"), 1.0);
    QCOMPARE(task::exactMatch("１９１５年", "1915年"), 1.0);
    QCOMPARE(task::exactMatch("灯浜市。", "灯浜市"), 1.0);
    QCOMPARE(task::exactMatch("「灯浜市」", "灯浜市"), 1.0);
    QCOMPARE(task::exactMatch("ABC", "abc"), 1.0);
    QCOMPARE(task::exactMatch("ルミナー", "ルミナ"), 0.0); // ー is a letter
    QCOMPARE(task::exactMatch("佐々木", "佐木"), 0.0);     // so is 々
    // F1, worked by hand: 天城零 / 天城雫 share 天 城: P = R = 2/3.
    QVERIFY(std::abs(task::answerF1("天城 零", "天城 雫") - 2.0 / 3.0) < 1e-12);
    // ああい / あい: あ counts once in the gold, so overlap 2; P 2/3, R 1, F1 0.8.
    QVERIFY(std::abs(task::answerF1("ああい", "あい") - 0.8) < 1e-12);
    // 澄川市 / 澄川市の市長: overlap 3 (市 once in the prediction); P 1, R 3/6, F1 2/3.
    QVERIFY(std::abs(task::answerF1("澄川市", "澄川市の市長") - 2.0 / 3.0) < 1e-12);
    QCOMPARE(task::answerF1("", ""), 1.0);
    QCOMPARE(task::answerF1("", "x"), 0.0);
    QCOMPARE(task::answerF1("xyz", "abc"), 0.0);
    QCOMPARE(task::answerF1("、。", "x"), 0.0); // nothing left of the prediction
    // Numbers and Latin words are whole tokens: 2050年 / 2005年 share only 年: P = R = 1/2
    // (as characters they were the same multiset, F1 1).
    QVERIFY(std::abs(task::answerF1("2050年", "2005年") - 0.5) < 1e-12);
    QVERIFY(std::abs(task::answerF1("1974年", "1975年") - 0.5) < 1e-12);
    // 約 43 万 人 / 約 34 万 人: 3 of 4 tokens, 0.75.
    QVERIFY(std::abs(task::answerF1("約43万人", "約34万人") - 0.75) < 1e-12);
    QCOMPARE(task::answerF1("１９７５年", "1975年"), 1.0); // NFKC: full-width digits
    // City 45 / City 4: {city, 45} / {city, 4}: 1 of 2.
    QVERIFY(std::abs(task::answerF1("City 45", "City 4") - 0.5) < 1e-12);
    QCOMPARE(task::answerF1("Ｃｉｔｙ-4", "city 4"), 1.0); // punctuation separates like a space
    QCOMPARE(task::answerTokens("約43万人"), (std::vector<std::u32string>{U"約", U"43", U"万", U"人"}));
}

QTEST_APPLESS_MAIN(TestMultihop)
void TestMultihop::rewards()
{
    // The multi-hop task's rewards, worked by hand against the gold answer 2005年.
    const reward::Registry &registry = task::Catalog::builtin().rewards();
    const std::vector<std::string> names = registry.names("multihop"); // its own, then the generic ones
    QCOMPARE(std::vector<std::string>(names.begin(), names.begin() + std::min<size_t>(3, names.size())),
             (std::vector<std::string>{"answer_f1", "answer_em", "step_format"}));
    data::MultihopQuestion q;
    q.id = "q1";
    q.question = "いつ？";
    q.answer = "2005年";
    const task::MultihopExample e(q);
    const reward::AnswerF1Reward f1;
    const reward::AnswerEmReward em;
    const reward::StepFormatReward format;
    const std::string hop = "<step>年を調べる</step><subquery>設立</subquery><retrieval>P：2005年</retrieval>"
                            "<subanswer>2005年</subanswer>";

    // A wrong year in the step format: tokens {2050, 年} against {2005, 年}: P = R = 1/2.
    const task::MultihopCompletion wrongYear(e, hop + "<step>答える</step><answer>2050年</answer>");
    QCOMPARE(f1.score(e, wrongYear), 0.5);
    const reward::Explanation x = f1.explain(e, wrongYear);
    QCOMPARE(x.reason, reward::Reason::AnswerF1);
    QCOMPARE(x.precision, 0.5);
    QCOMPARE(x.recall, 0.5);
    QCOMPARE(x.answer, std::string("2050年"));
    QCOMPARE(em.score(e, wrongYear), 0.0);
    QCOMPARE(format.score(e, wrongYear), 1.0);
    QCOMPARE(format.explain(e, wrongYear).hops, 1);
    QCOMPARE(format.explain(e, wrongYear).reason, reward::Reason::StepFormatOk);

    // The right answer without a retrieval: the answer counts, the format does not.
    const task::MultihopCompletion noHop(e, "<step>答える</step><answer>２００５年</answer>");
    QCOMPARE(f1.score(e, noHop), 1.0);
    QCOMPARE(em.score(e, noHop), 1.0);
    QCOMPARE(format.score(e, noHop), 0.0);
    QCOMPARE(format.explain(e, noHop).formatName, std::string("no retrieval hop before the answer"));

    // Text outside the tags: the answer is read where it stands, the format is broken.
    const task::MultihopCompletion junk(e, "えーと" + hop + "<step>答える</step><answer>2005年</answer>");
    QCOMPARE(f1.score(e, junk), 1.0);
    QCOMPARE(format.score(e, junk), 0.0);
    QCOMPARE(format.explain(e, junk).reason, reward::Reason::StepFormatBad);
    QVERIFY(!format.explain(e, junk).formatName.empty());

    // No answer at all: 0 with the reason.
    const task::MultihopCompletion none(e, hop);
    QCOMPARE(f1.score(e, none), 0.0);
    QCOMPARE(em.score(e, none), 0.0);
    QCOMPARE(f1.explain(e, none).reason, reward::Reason::NoAnswer);
    QCOMPARE(format.score(e, none), 0.0);
}

#include "tst_multihop.moc"
