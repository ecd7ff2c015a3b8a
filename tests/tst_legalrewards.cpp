// The legal-QA task (tasks/legalqa/legalqatask.h) and its four rewards (tasks/legalqa/legalrewards.h):
// every value worked out by hand from the third paper's definitions (§3: f1 format, f2
// non-hallucination 0.5, f3 citation F1; the semantic reward's cosine), tolerance 1e-12;
// the prompt and SFT target of appendix D; the task's metrics; and bad lines named. Also
// how a rubric or rating judge is measured on `rwb judge data --kinds` lines
// (tasks/legalqa/legaljudgeranking.h): the requests are the judge rewards' own, and the
// metrics of scripted judges are worked out by hand.
#include "data/jsonl.h"
#include "embed/lexicalembedder.h"
#include "judge/judgeclient.h"
#include "judge/rubric.h"
#include "reward/judgekind.h"
#include "reward/judgerewards.h"
#include "tasks/legalqa/legaljudgedata.h"
#include "tasks/legalqa/legaljudgeranking.h"
#include "tasks/legalqa/legalrubric.h"
#include "reward/compositereward.h"
#include "tasks/legalqa/legalrewards.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "task/catalog.h"
#include "tasks/legalqa/legalqatask.h"
#include "tokenizer/promptformat.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>

using namespace rwb;

namespace {

// Absolute tolerance for reward and metric values.
constexpr double kTol = 1e-12;

// A question with gold {12, 30}, sections 12, 7 and 99 in the prompt (30 was not retrieved),
// one fact of section 12 (a deadline of 30日以内, the corpus knowing 14日以内 too).
data::LegalQuestion question()
{
    data::LegalQuestion q;
    q.id = "q1";
    q.question = "届出はいつまでに必要ですか。";
    q.referenceAnswer = "30日以内に届け出なければなりません。";
    q.lawCodes = {12, 30};
    q.facts = {{12, "deadline", "30日以内"}};
    q.reasoning = "第3条が関係する。";
    q.slotValues = {{"deadline", {"14日以内", "30日以内"}}};
    q.retrieved = {{12, "甲法 第3条（届出）", "30日以内に届け出る。", 2.5},
                   {7, "甲法 第1条（目的）", "目的とする。", 1.0},
                   {99, "", "乙法の条文。", 0.5}};
    return q;
}

std::string output(const std::string &answer, const std::string &citation)
{
    return "<reasoning>r</reasoning>\n<answer>" + answer + "</answer>\n<citation>" + citation + "</citation>";
}

double score(const reward::Reward &r, const task::LegalQaExample &e, const std::string &completion)
{
    const task::LegalQaCompletion c(e, completion);
    const double v = r.score(e, c);
    if (std::abs(r.explain(e, c).value - v) > kTol)
        qWarning("explain() differs from score()");
    return v;
}

// Two questions and seven answers for the rubric and rating judges, each answer's truth
// worked out by hand (legalRubricTruth):
//   qa (two facts; rubric 5, 3, −2 "14日以内", −2 "乙局長"; Σ w⁺ 8):
//     right  30日以内 + 甲局長         c* 1100  s* 1                 r* 10
//     wrong  14日以内 + 甲局長         c* 0110  s* (3 − 2)/8 = 0.125  r* 1 + round(1.125) = 2
//     vague  所定の期間 + 甲局長       c* 0100  s* 3/8 = 0.375        r* 1 + round(3.375) = 4
//     other  another question's answer c* 0000  s* 0                 r* 1
//   qb (one fact; rubric 5 "5,000円", −2 "3,000円"; Σ w⁺ 5):
//     right  5,000円                   c* 10    s* 1                  r* 10
//     wrong  3,000円                   c* 01    s* −2/5 → 0           r* 1
//     vague  所定の額                  c* 00    s* 0                  r* 1
// Pairs (two answers to one question whose s* differ): qa all 6, qb 2 (wrong and vague tie
// at 0): 8 pairs over 2 questions.
struct RankingAnswer {
    const char *question, *kind, *text;
};

data::LegalQuestion rankingQuestion(const std::string &id)
{
    data::LegalQuestion q;
    q.id = id;
    if (id == "qa") {
        q.question = "届出はいつまでに、どこにする必要がありますか。";
        q.referenceAnswer = "30日以内に、甲局長に届け出なければなりません。";
        q.lawCodes = {12, 30};
        q.facts = {{12, "deadline", "30日以内"}, {30, "authority", "甲局長"}};
        q.slotValues = {{"deadline", {"14日以内", "30日以内"}}, {"authority", {"乙局長", "甲局長"}}};
    } else {
        q.question = "手数料はいくらですか。";
        q.referenceAnswer = "手数料は5,000円です。";
        q.lawCodes = {7};
        q.facts = {{7, "fee", "5,000円"}};
        q.slotValues = {{"fee", {"3,000円", "5,000円"}}};
    }
    return q;
}

const std::vector<RankingAnswer> &rankingAnswers()
{
    static const std::vector<RankingAnswer> answers{
        {"qa", "right", "30日以内に、甲局長に届け出なければなりません。"},
        {"qa", "wrong", "14日以内に、甲局長に届け出なければなりません。"},
        {"qa", "vague", "所定の期間内に、甲局長に届け出なければなりません。"},
        {"qa", "other", "手数料は5,000円です。"},
        {"qb", "right", "手数料は5,000円です。"},
        {"qb", "wrong", "手数料は3,000円です。"},
        {"qb", "vague", "手数料は所定の額です。"},
    };
    return answers;
}

// Every kind's lines for the seven answers, in rwb judge data's order (per answer, then
// per kind).
std::vector<judge::RubricJudgeExample> rankingExamples()
{
    std::vector<judge::RubricJudgeExample> out;
    for (const RankingAnswer &a : rankingAnswers()) {
        judge::JudgeExample e;
        e.id = std::string(a.question) + "-" + a.kind;
        e.kind = a.kind;
        e.answer = a.text;
        for (const char *kind : {"rubric_explicit", "rubric_implicit", "likert_simple", "likert_reference"})
            for (judge::RubricJudgeExample &x : judge::legalRubricJudgeExamples(rankingQuestion(a.question), e, kind))
                out.push_back(std::move(x));
    }
    return out;
}

// A judge in-process: the reply to each request by its user message; none for a request
// it was not given (a backend error).
class ScriptedJudge final : public judge::ChatBackend {
public:
    explicit ScriptedJudge(std::map<std::string, std::string> replies) : m_replies(std::move(replies)) {}
    std::string identity() const override { return "scripted"; }
    std::string model() const override { return "scripted"; }
    judge::ChatReply complete(const judge::ChatRequest &request, int &attempts) const override
    {
        attempts = 1;
        const auto it = m_replies.find(request.messages.back().content);
        if (it == m_replies.end())
            throw judge::BackendError("scripted: no reply for this request", 1);
        judge::ChatReply reply;
        reply.model = "scripted";
        reply.choices.push_back({it->second, "stop", {}});
        return reply;
    }

private:
    std::map<std::string, std::string> m_replies;
};

// `examples` written as rwb judge data writes them and read back as rwb judge eval reads them.
judge::JudgeDataFile writeAndRead(const QTemporaryDir &dir, const std::vector<judge::RubricJudgeExample> &examples)
{
    const std::string path = dir.filePath("ranking.jsonl").toStdString();
    {
        std::ofstream out(path);
        for (const judge::RubricJudgeExample &e : examples)
            out << judge::rubricJudgeLine(e) << "\n";
    }
    return judge::readJudgeData(path);
}

judge::JudgeRanking measure(const std::vector<judge::RubricJudgeExample> &examples,
                            const std::vector<judge::RankedRequest> &requests,
                            const std::function<std::string(const judge::RubricJudgeExample &)> &reply)
{
    std::map<std::string, std::string> replies;
    for (const judge::RubricJudgeExample &e : examples)
        replies[e.messages.back().content] = reply(e);
    judge::JudgeOptions o;
    o.model = "scripted";
    const judge::JudgeClient client(o, std::make_shared<ScriptedJudge>(std::move(replies)));
    return judge::measureJudgeRanking(client, requests, 5);
}

const judge::KindRanking &kindOf(const judge::JudgeRanking &r, const std::string &name)
{
    for (const judge::KindRanking &k : r.kinds)
        if (k.judgeKind == name)
            return k;
    throw std::logic_error("no judge kind " + name);
}

bool near(double a, double b)
{
    return std::abs(a - b) < kTol;
}

} // namespace

class TestLegalRewards : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rewards_data();
    void rewards();
    void semanticByHand();
    void semanticBatchEqualsOneByOne();
    void promptAndTarget();
    void bundledSamplesCategories();
    void metrics();
    void rubricScoreMetric();
    void compositeFromConfig();
    void badLinesNamed_data();
    void badLinesNamed();
    // Rubric and rating judges measured against the truth.
    void rubricJudgeRequestsAreTheRewards();
    void judgeRankingOfThePerfectJudge();
    void judgeRankingOfAFlatJudge();
    void judgeDataBadLines_data();
    void judgeDataBadLines();
    void judgeDataLimitCutsAnswers();
    void judgeRankingIntervalOverQuestions();
    void judgeRankingRatingTies();
    void rankJudgeChecksItsInput();
};

void TestLegalRewards::rewards_data()
{
    QTest::addColumn<QString>("completion");
    QTest::addColumn<double>("format");
    QTest::addColumn<double>("nonHallucination");
    QTest::addColumn<double>("citationF1");
    const char *cite12 = "<law_code>12</law_code>";
    // Right: cites 12 (in the prompt, gold); F1 = 2·1 / (2·1 + 0 + 1) = 2/3 (30 missing).
    QTest::newRow("right, one of two gold") << QString::fromStdString(output("30日以内です。", cite12)) << 1.0 << 0.5 << 2.0 / 3.0;
    // Both gold codes: F1 1; 30 is not in the prompt, but 12 is, so f2 = 0.5.
    QTest::newRow("both gold") << QString::fromStdString(output("a", "<law_code>12</law_code><law_code>30</law_code>"))
                               << 1.0 << 0.5 << 1.0;
    // Wrong citation, retrieved: 7 is in the prompt (f2 0.5) but not gold: TP 0 → F1 0.
    QTest::newRow("wrong citation") << QString::fromStdString(output("a", "<law_code>7</law_code>")) << 1.0 << 0.5 << 0.0;
    // Hallucinated code 555: in neither the prompt nor the gold.
    QTest::newRow("hallucinated code") << QString::fromStdString(output("a", "<law_code>555</law_code>")) << 1.0 << 0.0 << 0.0;
    // 12 twice and 555: the set {12, 555}; TP 1, FP 1, FN 1 → F1 2/4 = 0.5; 12 is retrieved.
    QTest::newRow("duplicate and hallucinated")
        << QString::fromStdString(output("a", "<law_code>12</law_code><law_code>12</law_code><law_code>555</law_code>"))
        << 1.0 << 0.5 << 0.5;
    // Nothing cited while gold is {12, 30}: F1 0; no citation in the prompt: f2 0.
    QTest::newRow("empty citation") << QString::fromStdString(output("a", "")) << 1.0 << 0.0 << 0.0;
    // Broken format (text after the citation): f1 = f2 = 0, but the citation still reads as {12}.
    QTest::newRow("trailing text") << QString::fromStdString(output("a", cite12) + "以上") << 0.0 << 0.0 << 2.0 / 3.0;
    // Malformed XML: no closing </answer>; the lenient parser reads the citation block.
    QTest::newRow("no </answer>") << "<reasoning>r</reasoning><answer>a<citation><law_code>12</law_code></citation>"
                                  << 0.0 << 0.0 << 2.0 / 3.0;
    // A non-integer code breaks the format; the valid element still counts for F1.
    QTest::newRow("non-integer code") << QString::fromStdString(output("a", "<law_code>十二</law_code><law_code>30</law_code>"))
                                      << 0.0 << 0.0 << 2.0 / 3.0;
    QTest::newRow("no format at all") << "30日以内です。" << 0.0 << 0.0 << 0.0;
}

void TestLegalRewards::rewards()
{
    QFETCH(QString, completion);
    QFETCH(double, format);
    QFETCH(double, nonHallucination);
    QFETCH(double, citationF1);
    const task::LegalQaExample e(question());
    const std::string c = completion.toStdString();
    QVERIFY(std::abs(score(reward::XmlFormatReward(), e, c) - format) < kTol);
    QVERIFY(std::abs(score(reward::NonHallucinationReward(), e, c) - nonHallucination) < kTol);
    QVERIFY(std::abs(score(reward::CitationF1Reward(), e, c) - citationF1) < kTol);
}

void TestLegalRewards::semanticByHand()
{
    // Fitted on no text: every n-gram has idf ln(1/1) + 1 = 1, so a text is its character
    // 1–3-grams with weight 1 + ln tf. "あいう" has あ い う あい いう あいう; "あいえ" has
    // あ い え あい いえ あいえ: 3 shared of 6 and 6 → cos = 3 / (√6·√6) = 0.5.
    auto lex = std::make_shared<const embed::LexicalEmbedder>(std::vector<std::string>{});
    const reward::SemanticReward semantic(lex);
    data::LegalQuestion q = question();
    q.referenceAnswer = "あいえ";
    const task::LegalQaExample e(q);
    QVERIFY(std::abs(score(semantic, e, output("あいう", "")) - 0.5) < kTol);
    QVERIFY(std::abs(score(semantic, e, output("あいえ", "")) - 1.0) < 1e-9);
    QVERIFY(std::abs(score(semantic, e, output("かき", "")) - 0.0) < kTol); // nothing shared
    QCOMPARE(score(semantic, e, output("", "")), 0.0);                      // empty answer
    // "ああ": あ with tf 2 (weight 1 + ln 2) and ああ (1); against "あいえ" only あ is shared:
    // cos = (1 + ln 2) / (√((1 + ln 2)² + 1) · √6).
    const double w = 1.0 + std::log(2.0);
    QVERIFY(std::abs(score(semantic, e, output("ああ", "")) - w / (std::sqrt(w * w + 1.0) * std::sqrt(6.0))) < 1e-12);
    const task::LegalQaCompletion c(e, output("あいう", ""));
    const reward::Explanation x = semantic.explain(e, c);
    QCOMPARE(x.reason, reward::Reason::SemanticCompared);
    QCOMPARE(x.embedder, std::string("lexical"));
}

void TestLegalRewards::semanticBatchEqualsOneByOne()
{
    auto lex = std::make_shared<const embed::LexicalEmbedder>(std::vector<std::string>{"30日以内に届け出る。", "目的とする。"});
    const reward::SemanticReward semantic(lex);
    const task::LegalQaExample e(question());
    std::vector<std::unique_ptr<task::LegalQaCompletion>> cs;
    for (const char *a : {"30日以内に届け出なければなりません。", "14日以内です。", "", "届け出ます"})
        cs.push_back(std::make_unique<task::LegalQaCompletion>(e, output(a, "")));
    std::vector<const task::Example *> es(cs.size(), &e);
    std::vector<const task::Completion *> ps;
    for (const auto &c : cs)
        ps.push_back(c.get());
    std::vector<double> batch;
    semantic.scoreBatch(es, ps, batch);
    QCOMPARE(batch.size(), cs.size());
    for (size_t i = 0; i < cs.size(); ++i)
        QCOMPARE(batch[i], semantic.score(e, *cs[i]));
    QVERIFY(std::abs(batch[0] - 1.0) < 1e-9); // the reference itself
    QVERIFY(batch[1] > 0.0 && batch[1] < batch[0]);
}

void TestLegalRewards::promptAndTarget()
{
    const task::Catalog &catalog = task::Catalog::builtin();
    const task::Task &t = catalog.get("legal_qa", "x", "task");
    const task::LegalQaExample e(question());
    const tokenizer::PromptFormat plain;
    // D.1: the question, then the sections as <law_code>N</law_code><context>title：text</context>.
    QCOMPARE(t.prompt(e, plain, false),
             std::string("届出はいつまでに必要ですか。\n\n関連条文\n"
                         "<law_code>12</law_code><context>甲法 第3条（届出）：30日以内に届け出る。</context>\n"
                         "<law_code>7</law_code><context>甲法 第1条（目的）：目的とする。</context>\n"
                         "<law_code>99</law_code><context>乙法の条文。</context>\n\n### 応答:\n"));
    // D.2: only the gold code that is in the prompt is cited (30 was not retrieved).
    QCOMPARE(t.sftTarget(e, false), std::string("<reasoning>第3条が関係する。</reasoning>\n<answer>30日以内に届け出なければなりません。"
                                                "</answer>\n<citation><law_code>12</law_code></citation>"));
    // The target parses in format, and grades 1 / 1 against its own facts.
    const auto parsed = t.parse(e, t.sftTarget(e, false), false);
    const auto &p = dynamic_cast<const task::LegalQaCompletion &>(*parsed);
    QVERIFY(p.output().formatOk());
    QCOMPARE(p.grade().coverage, 1.0);
    QCOMPARE(p.grade().consistency, 1.0);
    QCOMPARE(e.goldText(), std::string("[12, 30] 30日以内に届け出なければなりません。"));
    QVERIFY(QString::fromStdString(p.detailsJson()).contains(R"("cited":[12])"));
    // The meta is the question's dataset line, and the store rebuilds the example from it.
    QVERIFY(QString::fromStdString(e.metaJson()).contains(R"("retrieved":[{"id":"12")"));
    const auto back = t.exampleFromStore(e.metaJson(), e.goldText(), "store");
    QCOMPARE(back->metaJson(), e.metaJson());
    QCOMPARE(back->goldText(), e.goldText());
    QVERIFY_THROWS_EXCEPTION(data::InputException, t.exampleFromStore(R"({"question": "q"})", "", "store"));
}

void TestLegalRewards::bundledSamplesCategories()
{
    // The Designer's hand-written samples: each label lands in the failure category it
    // names (partial and extra citations are wrong citations; a repeated right code is
    // still right), and every category of the task occurs.
    const task::Task &t = task::Catalog::builtin().get("legal_qa", "x", "task");
    task::ReadOptions o;
    o.requireCompletion = true;
    const auto records = t.read(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl", o);
    QVERIFY(records.size() >= 150);
    const std::map<std::string, std::string> expected{
        {"right", "right"},
        {"bad_xml", "format"},
        {"hallucinated_code", "hallucinated_citation"},
        {"missing_citation", "missing_citation"},
        {"wrong_citation", "wrong_citation"},
        {"partial_citation", "wrong_citation"},
        {"contradiction", "contradiction"},
        {"incomplete", "incomplete"},
        {"duplicate_citation", "right"},
    };
    const auto categories = t.failureCategories();
    std::set<std::string> seen, questions;
    for (const task::Record &r : records) {
        const auto c = t.parse(*r.example, r.completion, false);
        const std::string &key = categories.at(t.failureCategory(*r.example, *c)).key;
        QVERIFY2(expected.count(r.kind), r.kind.c_str());
        QVERIFY2(key == expected.at(r.kind), (r.example->id() + ": " + r.kind + " → " + key).c_str());
        seen.insert(key);
        questions.insert(r.example->goldText());
    }
    QCOMPARE(seen.size(), categories.size());
    QVERIFY(questions.size() >= 40);
}

void TestLegalRewards::metrics()
{
    const task::Task &t = task::Catalog::builtin().get("legal_qa", "x", "task");
    const task::LegalQaExample e(question());
    auto m = t.metrics();
    // 1: cites {12} (P 1, R 1/2, F1 2/3), states 30日以内 (coverage 1, consistent).
    const auto a = t.parse(e, output("30日以内です。", "<law_code>12</law_code>"), false);
    // 2: cites {12, 30} (F1 1), states 14日以内 — the other deadline: coverage 0, contradiction.
    const auto b = t.parse(e, output("14日以内です。", "<law_code>12</law_code><law_code>30</law_code>"), false);
    m->add(e, *a);
    m->add(e, *b);
    QVERIFY(!m->correct(e, *a)); // citation F1 2/3
    QVERIFY(!m->correct(e, *b));
    std::map<std::string, double> r;
    for (const auto &[k, v] : m->result())
        r[k] = v;
    // macro F1 = (2/3 + 1) / 2 = 5/6; micro: TP 3, FP 0, FN 1 → F1 6/7.
    QVERIFY(std::abs(r.at("citation_f1") - 5.0 / 6.0) < kTol);
    QVERIFY(std::abs(r.at("citation_micro_f1") - 6.0 / 7.0) < kTol);
    QVERIFY(std::abs(r.at("coverage") - 0.5) < kTol);
    QVERIFY(std::abs(r.at("consistency") - 0.5) < kTol);
    // joint = mean of the examples' (F1 + coverage + consistency) / 3: (8/3 / 3 + 1 / 3) / 2 = 11/18.
    QVERIFY(std::abs(r.at("joint") - 11.0 / 18.0) < kTol);
    // Citing exactly the gold codes in the prompt ({12}) gives F1 2/3 on each: the bound.
    QVERIFY(std::abs(r.at("citation_f1_bound") - 2.0 / 3.0) < kTol);
    const auto right = t.parse(e, output("30日以内です。", "<law_code>12</law_code><law_code>30</law_code>"), false);
    QVERIFY(m->correct(e, *right));
}

void TestLegalRewards::rubricScoreMetric()
{
    // The question's rubric from facts: 30日以内 Essential (weight 5, the first gold
    // section's fact) and its Pitfall 14日以内 (−2, the slot's next value), so by hand
    // s* = clamp(Σ w·c* / 5, 0, 1).
    const task::Task &t = task::Catalog::builtin().get("legal_qa", "x", "task");
    const task::LegalQaExample e(question());
    data::LegalQuestion bare = question();
    bare.id = "q2";
    bare.facts.clear(); // no facts: no rubric, not counted
    const task::LegalQaExample noFacts(bare);
    auto m = t.metrics();
    m->add(e, *t.parse(e, output("30日以内です。", "<law_code>12</law_code>"), false));              // 5/5 = 1
    m->add(e, *t.parse(e, output("30日以内または14日以内です。", "<law_code>12</law_code>"), false)); // (5 − 2)/5
    m->add(e, *t.parse(e, output("14日以内です。", "<law_code>12</law_code>"), false));              // −2/5 → 0
    m->add(noFacts, *t.parse(noFacts, output("30日以内です。", "<law_code>12</law_code>"), false));
    std::map<std::string, double> r;
    for (const auto &[k, v] : m->result())
        r[k] = v;
    std::map<std::string, int64_t> n;
    for (const auto &[k, v] : m->counts())
        n[k] = v;
    QCOMPARE(n.at("examples"), int64_t{4});
    QCOMPARE(n.at("rubric_scored"), int64_t{3});
    QVERIFY2(std::abs(r.at("rubric_score") - (1.0 + 0.6 + 0.0) / 3.0) < kTol, std::to_string(r.at("rubric_score")).c_str());
    // Without any question with facts the score is 0 over 0 questions: rubric_scored says so.
    auto empty = t.metrics();
    empty->add(noFacts, *t.parse(noFacts, output("30日以内です。", ""), false));
    for (const auto &[k, v] : empty->counts())
        if (k == "rubric_scored")
            QCOMPARE(v, int64_t{0});
}

void TestLegalRewards::compositeFromConfig()
{
    const task::Catalog &catalog = task::Catalog::builtin();
    QTemporaryDir dir;
    {
        std::ofstream corpus(dir.filePath("corpus.jsonl").toStdString());
        corpus << R"({"id": 12, "title": "甲法 第3条", "text": "30日以内に届け出る。"})" << '\n';
    }
    const std::string path = dir.filePath("reward.json").toStdString();
    {
        std::ofstream f(path);
        f << R"({"task": "legal_qa", "embedding": "lexical", "embedding_corpus": "corpus.jsonl", "components": [
              {"reward": "xml_format", "weight": 1}, {"reward": "non_hallucination", "weight": 1},
              {"reward": "citation_f1", "weight": 1}, {"reward": "semantic", "weight": 1}]})";
    }
    const reward::RewardConfig rc = reward::loadRewardConfig(path, catalog.rewards());
    const reward::CompositeReward composite(rc, path, catalog.rewards());
    const task::LegalQaExample e(question());
    const task::LegalQaCompletion c(e, output("30日以内に届け出なければなりません。", "<law_code>12</law_code>"));
    std::vector<double> parts;
    const double total = composite.score(e, c, parts);
    // format 1, f2 0.5, F1 2/3, semantic 1 (the answer is the reference): (1 + 0.5 + 2/3 + 1) / 4.
    QCOMPARE(parts.size(), size_t(4));
    QVERIFY(std::abs(parts[3] - 1.0) < 1e-9);
    QVERIFY(std::abs(total - (1.0 + 0.5 + 2.0 / 3.0 + parts[3]) / 4.0) < kTol);
    // Extraction rewards are not legal-QA rewards, and a backend that does not exist is named.
    QVERIFY_THROWS_EXCEPTION(data::InputException,
                             reward::parseRewardConfig(R"({"task": "legal_qa", "components": [{"reward": "partial", "weight": 1}]})",
                                                       "r.json", catalog.rewards()));
    try {
        reward::parseRewardConfig(R"({"task": "legal_qa", "embedding": "bge", "components": [{"reward": "semantic", "weight": 1}]})",
                                  "r.json", catalog.rewards());
        QFAIL("expected an error");
    } catch (const data::InputException &ex) {
        QVERIFY2(QString::fromStdString(ex.error().toString()).contains("embedding"), ex.what());
    }
}

void TestLegalRewards::badLinesNamed_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing question") << R"({"id": "q", "reference_answer": "a", "law_codes": [1]})"
                                      << R"(q.jsonl:2: missing field "question")";
    QTest::newRow("codes not integers") << R"({"id": "q", "question": "x", "reference_answer": "a", "law_codes": ["1"]})"
                                        << "q.jsonl:2: field \"law_codes[0]\"";
    QTest::newRow("retrieved without text")
        << R"({"id": "q", "question": "x", "reference_answer": "a", "law_codes": [1], "retrieved": [{"id": "1"}]})"
        << R"(q.jsonl:2: missing field "text")";
    QTest::newRow("retrieved id not a code")
        << R"({"id": "q", "question": "x", "reference_answer": "a", "law_codes": [1], "retrieved": [{"id": "x1", "text": "t"}]})"
        << "q.jsonl:2: field \"retrieved[0].id\"";
}

void TestLegalRewards::badLinesNamed()
{
    QFETCH(QString, line);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const std::string path = dir.filePath("q.jsonl").toStdString();
    {
        std::ofstream f(path);
        f << R"({"id": "ok", "question": "x", "reference_answer": "a", "law_codes": [1]})" << '\n' << line.toStdString() << '\n';
    }
    try {
        task::Catalog::builtin().get("legal_qa", "x", "task").read(path, {});
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        const QString got = QString::fromStdString(e.error().toString());
        QVERIFY2(got.contains(message), qPrintable(got));
    }
}

// The lines of rwb judge data --kinds are the requests the judge rewards send for the same
// answer on the legal-QA task whose line carries the rubric from facts (so rwb judge eval
// finds the rewards' cached verdicts): the same messages and the same reply schema.
void TestLegalRewards::rubricJudgeRequestsAreTheRewards()
{
    data::LegalQuestion q = rankingQuestion("qa");
    q.rubric = judge::toRaR(judge::rubricFromFacts(q)).dump(); // rwb rubric generate --from-facts
    const task::LegalQaExample example(q);
    judge::JudgeExample answer;
    answer.id = "qa-wrong";
    answer.kind = "wrong";
    answer.answer = "14日以内に、甲局長に届け出なければなりません。";
    const task::LegalQaCompletion completion(example, output(answer.answer, "<law_code>12</law_code>"));
    const reward::JudgeRewardOptions options; // per item, binary: what the lines ask
    for (const char *kind : {"rubric_explicit", "rubric_implicit", "likert_simple", "likert_reference"}) {
        const std::vector<reward::JudgeAsk> asks = reward::findJudgeKind(kind)->asks(example, completion, options, q.id);
        const std::vector<judge::RubricJudgeExample> lines = judge::legalRubricJudgeExamples(q, answer, kind);
        QCOMPARE(lines.size(), asks.size()); // explicit: 4 items; a rating: 1
        for (size_t i = 0; i < asks.size(); ++i) {
            QCOMPARE(lines[i].messages.size(), asks[i].messages.size());
            for (size_t m = 0; m < asks[i].messages.size(); ++m) {
                QCOMPARE(lines[i].messages[m].role, asks[i].messages[m].role);
                QCOMPARE(lines[i].messages[m].content, asks[i].messages[m].content);
            }
            const judge::JudgeSchema schema = std::string(kind) == "rubric_explicit"
                                                  ? judge::rubricItemSchema(judge::ItemMode::Binary)
                                                  : judge::ratingSchema();
            QCOMPARE(asks[i].schema.name, schema.name);
            QCOMPARE(asks[i].schema.schema, schema.schema);
        }
    }
}

// A judge that replies every request's own target: Spearman 1 and pairwise accuracy 1 for
// every kind (the seven answers' ratings r* keep every s* apart). Mean absolute error:
// explicit 0; a rating |(r* − 1)/9 − s*|: qa-wrong |1/9 − 1/8| = 1/72, qa-vague |3/9 − 3/8|
// = 1/24, the others 0 → (1/72 + 3/72) / 7 = 1/126. Every difference 0.
void TestLegalRewards::judgeRankingOfThePerfectJudge()
{
    QTemporaryDir dir;
    const std::vector<judge::RubricJudgeExample> examples = rankingExamples();
    QCOMPARE(examples.size(), size_t(7 * 3 + 4 * 4 + 3 * 2)); // ratings 3 per answer; qa 4 items, qb 2
    const judge::JudgeDataFile file = writeAndRead(dir, examples);
    QVERIFY(file.coverage.empty());
    QCOMPARE(file.ranked.size(), examples.size());
    QCOMPARE(file.cutAnswers, size_t(0));
    const judge::JudgeRanking r =
        measure(examples, file.ranked, [](const judge::RubricJudgeExample &e) { return e.target; });
    QCOMPARE(r.requests, examples.size());
    QCOMPARE(r.failed, size_t(0));
    QCOMPARE(r.kinds.size(), size_t(4));
    const std::vector<std::string> order{"rubric_explicit", "rubric_implicit", "likert_reference", "likert_simple"};
    for (size_t i = 0; i < order.size(); ++i) {
        const judge::KindRanking &k = r.kinds[i];
        QCOMPARE(k.judgeKind, order[i]);
        QCOMPARE(k.answers, size_t(7));
        QCOMPARE(k.scored, size_t(7));
        QCOMPARE(k.pairs, size_t(8));
        QCOMPARE(k.questions, size_t(2));
        QCOMPARE(k.failed, size_t(0));
        QVERIFY2(near(k.spearman, 1.0), qPrintable(QString::number(k.spearman, 'g', 17)));
        QCOMPARE(k.pairwiseAccuracy, 1.0);
        QCOMPARE(k.pairwiseInterval.low, 1.0);
        QCOMPARE(k.pairwiseInterval.high, 1.0);
        QCOMPARE(k.targetPairwiseAccuracy, 1.0);
        const double mae = i == 0 ? 0.0 : 1.0 / 126.0;
        QVERIFY2(near(k.meanAbsoluteError, mae), qPrintable(QString::number(k.meanAbsoluteError, 'g', 17)));
    }
    // The explicit values are s* itself: qa-wrong Σ w·c / Σ w⁺ = (3 − 2)/8.
    QCOMPARE(r.kinds[0].answerValues[1].answerId, std::string("qa-wrong"));
    QCOMPARE(r.kinds[0].answerValues[1].value, 0.125);
    QCOMPARE(r.kinds[0].answerValues[1].truth, 0.125);
    QCOMPARE(r.kinds[1].answerValues[1].value, 1.0 / 9.0); // r* 2
    QCOMPARE(r.differences.size(), size_t(6));
    for (const judge::RankingDifference &d : r.differences) {
        QCOMPARE(d.answers, size_t(7));
        QCOMPARE(d.pairs, size_t(8));
        QCOMPARE(d.difference.estimate, 0.0);
        QCOMPARE(d.difference.low, 0.0);
        QCOMPARE(d.difference.high, 0.0);
    }
    QCOMPARE(r.differences[2].a, std::string("rubric_explicit"));
    QCOMPARE(r.differences[2].b, std::string("likert_simple"));
}

// A judge that answers every item with its target but every rating with 5, and one
// likert_simple request (qb-wrong's) with no JSON:
//   explicit: as the perfect judge.
//   rubric_implicit, likert_reference: every value 4/9, so every pair is a tie: pairwise
//     accuracy 8 × ½ / 8 = 0.5 on every resample; Spearman undefined (NaN: one value);
//     MAE Σ|4/9 − s*| / 7: the two right answers 5/9 each, qa-wrong |32/72 − 9/72| = 23/72,
//     qa-vague |32/72 − 27/72| = 5/72, the three at 0 4/9 each → (10/9 + 28/72 + 12/9) / 7
//     = (51/18) / 7 = 17/42.
//   likert_simple: 1 failed, so qb-wrong is not scored: 6 answers, 7 pairs (qa 6, qb right
//     and vague 1), accuracy 0.5; MAE (51/18 − 4/9) / 6 = (43/18) / 6 = 43/108.
//   Differences: explicit − a rating kind 1 − 0.5 = +0.5 (on every resample: each question
//   gives half its pairs' credit more), ratings − ratings 0; with likert_simple on the 6
//   answers both scored and their 7 pairs.
void TestLegalRewards::judgeRankingOfAFlatJudge()
{
    QTemporaryDir dir;
    const std::vector<judge::RubricJudgeExample> examples = rankingExamples();
    const judge::JudgeDataFile file = writeAndRead(dir, examples);
    const judge::JudgeRanking r = measure(examples, file.ranked, [](const judge::RubricJudgeExample &e) {
        if (e.item >= 0)
            return e.target;
        if (e.judgeKind == "likert_simple" && e.answerId == "qb-wrong")
            return std::string("I would rather not say.");
        return std::string(R"({"rating": 5})");
    });
    QCOMPARE(r.failed, size_t(1));
    const judge::KindRanking &ex = kindOf(r, "rubric_explicit");
    QCOMPARE(ex.pairwiseAccuracy, 1.0);
    QVERIFY(near(ex.spearman, 1.0));
    QCOMPARE(ex.meanAbsoluteError, 0.0);
    for (const char *name : {"rubric_implicit", "likert_reference"}) {
        const judge::KindRanking &k = kindOf(r, name);
        QCOMPARE(k.scored, size_t(7));
        QCOMPARE(k.pairs, size_t(8));
        QCOMPARE(k.pairwiseAccuracy, 0.5);
        QCOMPARE(k.pairwiseInterval.low, 0.5);
        QCOMPARE(k.pairwiseInterval.high, 0.5);
        QVERIFY(std::isnan(k.spearman));
        QVERIFY2(near(k.meanAbsoluteError, 17.0 / 42.0), qPrintable(QString::number(k.meanAbsoluteError, 'g', 17)));
        QCOMPARE(k.targetPairwiseAccuracy, 1.0);
    }
    const judge::KindRanking &simple = kindOf(r, "likert_simple");
    QCOMPARE(simple.requests, size_t(7));
    QCOMPARE(simple.failed, size_t(1));
    QCOMPARE(simple.answers, size_t(7));
    QCOMPARE(simple.scored, size_t(6));
    QCOMPARE(simple.pairs, size_t(7));
    QCOMPARE(simple.pairwiseAccuracy, 0.5);
    QVERIFY2(near(simple.meanAbsoluteError, 43.0 / 108.0), qPrintable(QString::number(simple.meanAbsoluteError, 'g', 17)));
    // The failure is the reply's, named; the request's outcome kept.
    const auto failed = std::find_if(r.items.begin(), r.items.end(), [](const judge::RankedItem &i) { return !i.ok; });
    QVERIFY(failed != r.items.end());
    QVERIFY2(failed->error.find("could not be read") != std::string::npos, failed->error.c_str());
    QCOMPARE(failed->reply, std::string("I would rather not say."));

    QCOMPARE(r.differences.size(), size_t(6));
    for (const judge::RankingDifference &d : r.differences) {
        const bool withSimple = d.b == "likert_simple";
        const double expected = d.a == "rubric_explicit" ? 0.5 : 0.0;
        QCOMPARE(d.answers, withSimple ? size_t(6) : size_t(7));
        QCOMPARE(d.pairs, withSimple ? size_t(7) : size_t(8));
        QVERIFY2(near(d.difference.estimate, expected), qPrintable(QString::fromStdString(d.a + " − " + d.b)));
        QVERIFY(near(d.difference.low, expected));
        QVERIFY(near(d.difference.high, expected));
    }
}

void TestLegalRewards::judgeDataBadLines_data()
{
    // Line 1 is always a good rating line of answer a1 (score 1); line 2 is this.
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("message");
    const QString m = R"("id": "l2", "messages": [{"role": "user", "content": "x"}])";
    QTest::newRow("no answer_id") << "{" + m + R"(, "judge_kind": "likert_simple", "question_id": "q", "score": 0.5})"
                                  << R"(d.jsonl:2: missing field "answer_id")";
    QTest::newRow("no score") << "{" + m + R"(, "judge_kind": "likert_simple", "answer_id": "a2", "question_id": "q"})"
                              << R"(d.jsonl:2: missing field "score")";
    QTest::newRow("unknown judge kind")
        << "{" + m + R"(, "judge_kind": "likert", "answer_id": "a2", "question_id": "q", "score": 0.5})"
        << R"(d.jsonl:2: field "judge_kind" must be one of coverage, rubric_explicit, rubric_implicit, likert_simple, likert_reference, not "likert")";
    QTest::newRow("score out of range")
        << "{" + m + R"(, "judge_kind": "likert_simple", "answer_id": "a2", "question_id": "q", "score": 1.5})"
        << R"(d.jsonl:2: field "score" must be a number within 0–1)";
    QTest::newRow("item without weight")
        << "{" + m + R"(, "judge_kind": "rubric_explicit", "answer_id": "a2", "question_id": "q", "score": 0.5, "item": 0, "items": 1})"
        << R"(d.jsonl:2: missing field "weight")";
    QTest::newRow("item past the items")
        << "{" + m + R"(, "judge_kind": "rubric_explicit", "answer_id": "a2", "question_id": "q", "score": 0.5, "item": 2, "items": 2, "weight": 5})"
        << R"(d.jsonl:2: field "item" must be a whole number within 0–1, not 2)";
    QTest::newRow("one answer, two scores")
        << "{" + m + R"(, "judge_kind": "rubric_implicit", "answer_id": "a1", "question_id": "q", "score": 0.5})"
        << "d.jsonl:2: answer a1 has score 0.5 here and 1.0 on line 1";
    QTest::newRow("an item missing")
        << "{" + m + R"(, "judge_kind": "rubric_explicit", "answer_id": "a2", "question_id": "q", "score": 0.5, "item": 0, "items": 2, "weight": 5})"
        << "d.jsonl:2: answer a2 has 1 of its 2 rubric_explicit items";
    // A rating kind has one line per answer: a second likert_simple line of a1.
    QTest::newRow("a rating line twice")
        << "{" + m + R"(, "judge_kind": "likert_simple", "answer_id": "a1", "question_id": "q", "score": 1.0})"
        << "d.jsonl:2: the likert_simple line of answer a1 is on line 1 already";
    QTest::newRow("a coverage line without its labels") << "{" + m + R"(, "coverage": 0.5})"
                                                        << R"(d.jsonl:2: missing field "contradiction")";
}

void TestLegalRewards::judgeDataBadLines()
{
    QFETCH(QString, line);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const std::string path = dir.filePath("d.jsonl").toStdString();
    {
        std::ofstream f(path);
        f << R"({"id": "l1", "messages": [{"role": "user", "content": "x"}], "judge_kind": "likert_simple", "answer_id": "a1", "question_id": "q", "score": 1.0})"
          << '\n'
          << line.toStdString() << '\n';
    }
    try {
        judge::readJudgeData(path);
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        const QString got = QString::fromStdString(e.error().toString());
        QVERIFY2(got.contains(message), qPrintable(got));
        QVERIFY2(got.contains("d.jsonl:2: "), qPrintable(got));
    }
}

// --limit in lines: an explicit answer whose items lie past it is left out whole, not
// measured on part of its rubric.
void TestLegalRewards::judgeDataLimitCutsAnswers()
{
    QTemporaryDir dir;
    const std::vector<judge::RubricJudgeExample> examples = rankingExamples(); // qa-right: 4 items, then 3 ratings
    const std::string path = dir.filePath("ranking.jsonl").toStdString();
    {
        std::ofstream out(path);
        for (const judge::RubricJudgeExample &e : examples)
            out << judge::rubricJudgeLine(e) << "\n";
    }
    // 9 lines: qa-right's 4 items and 3 ratings, then 2 of qa-wrong's 4 items.
    const judge::JudgeDataFile file = judge::readJudgeData(path, 9);
    QCOMPARE(file.cutAnswers, size_t(1));
    QCOMPARE(file.ranked.size(), size_t(7));
    QCOMPARE(file.ranked.back().answerId, std::string("qa-right"));
}

// Questions, not pairs, are what the bootstrap resamples. A likert_simple judge that
// orders qa's answers as s* does (it replies r*: 10, 2, 4, 1, all apart) and qb's the other
// way round (qb-right 1, qb-wrong and qb-vague 10); every other request gets its target.
// likert_simple: qa credit 6 of 6 pairs, qb 0 of 2 → accuracy 6/8 = 0.75. A resample of
// the 2 questions is {qa, qa} (probability ¼) 12/12 = 1, {qa, qb} or {qb, qa} (½) 6/8 =
// 0.75, {qb, qb} (¼) 0/4 = 0; with a quarter of the resamples at each end, the 2.5th and
// 97.5th percentiles are 0 and 1. (Resampling the 8 pairs instead, 6 of them right, would
// give Binomial(8, ¾)/8, whose 2.5th percentile is 3/8: P(X ≤ 3) = 0.027.)
// rubric_explicit − likert_simple per question: qa 6 − 6 = 0, qb 2 − 0 = 2 → 2/8 = 0.25;
// resamples {qa, qa} 0/12 = 0, mixed 2/8 = 0.25, {qb, qb} 4/4 = 1 → interval [0, 1].
void TestLegalRewards::judgeRankingIntervalOverQuestions()
{
    QTemporaryDir dir;
    const std::vector<judge::RubricJudgeExample> examples = rankingExamples();
    const judge::JudgeDataFile file = writeAndRead(dir, examples);
    const judge::JudgeRanking r = measure(examples, file.ranked, [](const judge::RubricJudgeExample &e) {
        if (e.judgeKind != "likert_simple" || e.questionId == "qa")
            return e.target;
        return std::string(e.kind == "right" ? R"({"rating": 1})" : R"({"rating": 10})");
    });
    QCOMPARE(r.failed, size_t(0));
    const judge::KindRanking &simple = kindOf(r, "likert_simple");
    QCOMPARE(simple.pairs, size_t(8));
    QCOMPARE(simple.questions, size_t(2));
    QVERIFY(near(simple.pairwiseAccuracy, 0.75));
    QVERIFY(near(simple.pairwiseInterval.estimate, 0.75));
    QVERIFY2(near(simple.pairwiseInterval.low, 0.0), qPrintable(QString::number(simple.pairwiseInterval.low)));
    QVERIFY2(near(simple.pairwiseInterval.high, 1.0), qPrintable(QString::number(simple.pairwiseInterval.high)));
    QCOMPARE(simple.targetPairwiseAccuracy, 1.0);
    const judge::KindRanking &reference = kindOf(r, "likert_reference");
    QCOMPARE(reference.pairwiseInterval.low, 1.0); // ordered right everywhere: every resample 1
    bool found = false;
    for (const judge::RankingDifference &d : r.differences)
        if (d.a == "rubric_explicit" && d.b == "likert_simple") {
            found = true;
            QCOMPARE(d.pairs, size_t(8));
            QCOMPARE(d.questions, size_t(2));
            QVERIFY(near(d.difference.estimate, 0.25));
            QVERIFY2(near(d.difference.low, 0.0), qPrintable(QString::number(d.difference.low)));
            QVERIFY2(near(d.difference.high, 1.0), qPrintable(QString::number(d.difference.high)));
        }
    QVERIFY(found);
}

// A rating that ties two different s* of one question. A three-fact question's rubric
// from facts weighs 5, 3, 3 (and −2 per pitfall), Σ w⁺ 11; five of its answers:
//   nothing stated                          s* 0     r* 1 + round(0)     = 1
//   the second fact only                    s* 3/11  r* 1 + round(2.455) = 3
//   the first two, the third vague          s* 8/11  r* 1 + round(6.545) = 8
//   all three and the third's pitfall value s* 9/11  r* 1 + round(7.364) = 8
//   all three                               s* 1     r* 10
// A likert_reference judge replying r*: values (r − 1)/9 = 0, 2/9, 7/9, 7/9, 1. Of the
// 10 pairs (every s* differs) 9 are ordered right and one tied: pairwise accuracy and the
// target's 9.5/10 = 0.95. Spearman: s* ranks 1 2 3 4 5, value ranks 1 2 3.5 3.5 5;
// deviations from the mean 3: (−2 −1 0 1 2) and (−2 −1 .5 .5 2); Σxy = 4 + 1 + 0 + .5 + 4
// = 9.5, Σx² = 10, Σy² = 9.5 → ρ = 9.5 / √(10·9.5) = √0.95. MAE: |2/9 − 3/11| = 5/99,
// |7/9 − 8/11| = 5/99, |7/9 − 9/11| = 4/99, the others 0 → (14/99) / 5 = 14/495. One
// question: every resample is that question, so the interval is [0.95, 0.95].
void TestLegalRewards::judgeRankingRatingTies()
{
    const std::vector<double> truths{0.0, 3.0 / 11.0, 8.0 / 11.0, 9.0 / 11.0, 1.0};
    std::vector<judge::RankedRequest> requests;
    std::vector<judge::RankedItem> items;
    for (size_t a = 0; a < truths.size(); ++a) {
        judge::RankedRequest q;
        q.id = "q3-a" + std::to_string(a) + "-likert_reference";
        q.judgeKind = "likert_reference";
        q.answerId = "q3-a" + std::to_string(a);
        q.questionId = "q3";
        q.score = truths[a];
        requests.push_back(q);
        judge::RankedItem item;
        item.ok = true;
        item.judged = judge::targetRating(truths[a]);
        items.push_back(item);
    }
    QCOMPARE(items[2].judged, 8.0);
    QCOMPARE(items[3].judged, 8.0);
    const judge::JudgeRanking r = judge::rankJudge(requests, items);
    QCOMPARE(r.kinds.size(), size_t(1));
    const judge::KindRanking &k = r.kinds[0];
    QCOMPARE(k.pairs, size_t(10));
    QCOMPARE(k.questions, size_t(1));
    QVERIFY2(near(k.targetPairwiseAccuracy, 0.95), qPrintable(QString::number(k.targetPairwiseAccuracy, 'g', 17)));
    QVERIFY2(near(k.pairwiseAccuracy, 0.95), qPrintable(QString::number(k.pairwiseAccuracy, 'g', 17)));
    QVERIFY2(near(k.spearman, std::sqrt(0.95)), qPrintable(QString::number(k.spearman, 'g', 17)));
    QVERIFY2(near(k.meanAbsoluteError, 14.0 / 495.0), qPrintable(QString::number(k.meanAbsoluteError, 'g', 17)));
    QVERIFY(near(k.pairwiseInterval.low, 0.95));
    QVERIFY(near(k.pairwiseInterval.high, 0.95));
}

// rankJudge's preconditions (readJudgeData's guarantees) are checked: an explicit answer
// without a positive weight would make Σ w⁺ = 0 and its value NaN.
void TestLegalRewards::rankJudgeChecksItsInput()
{
    judge::RankedRequest pitfall;
    pitfall.id = "p";
    pitfall.judgeKind = "rubric_explicit";
    pitfall.answerId = "a";
    pitfall.questionId = "q";
    pitfall.item = 0;
    pitfall.items = 1;
    pitfall.weight = -2.0;
    judge::RankedItem met;
    met.ok = true;
    met.judged = 1.0;
    try {
        judge::rankJudge({pitfall}, {met});
        QFAIL("expected an error");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(std::string(e.what()).find("answer a have no positive weight") != std::string::npos, e.what());
    }
    judge::RankedRequest zero = pitfall;
    zero.weight = 0.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::rankJudge({zero}, {met}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::rankJudge({pitfall}, {}));
    // With a positive item beside it: (5·1 − 2·1) / 5 = 0.6, explicitScore's value.
    judge::RankedRequest essential = pitfall;
    essential.id = "e";
    essential.item = 1;
    essential.items = 2;
    essential.weight = 5.0;
    pitfall.items = 2;
    const judge::JudgeRanking r = judge::rankJudge({essential, pitfall}, {met, met});
    QVERIFY(near(r.kinds.at(0).answerValues.at(0).value, 0.6));
}

QTEST_APPLESS_MAIN(TestLegalRewards)
#include "tst_legalrewards.moc"
