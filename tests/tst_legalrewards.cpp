// The legal-QA task (tasks/legalqa/legalqatask.h) and its four rewards (tasks/legalqa/legalrewards.h):
// every value worked out by hand from the third paper's definitions (§3: f1 format, f2
// non-hallucination 0.5, f3 citation F1; the semantic reward's cosine), tolerance 1e-12;
// the prompt and SFT target of appendix D; the task's metrics; and bad lines named.
#include "data/jsonl.h"
#include "embed/lexicalembedder.h"
#include "reward/compositereward.h"
#include "tasks/legalqa/legalrewards.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "task/catalog.h"
#include "tasks/legalqa/legalqatask.h"
#include "tokenizer/promptformat.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <map>
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
    void compositeFromConfig();
    void badLinesNamed_data();
    void badLinesNamed();
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

QTEST_APPLESS_MAIN(TestLegalRewards)
#include "tst_legalrewards.moc"
