// The legal-QA task's data and grading: the output parser (eval::parseLegalOutput), citation
// precision / recall / F1 (eval::CitationScorer), the exact reference grader
// (eval::LegalReferenceGrader) and the joint score, the synthetic body of law and its
// questions (data::SyntheticLawGenerator), and the JSONL readers with their file:line
// errors; and what a perfect rubric or rating judge replies for an answer (the targets of
// `rwb judge data --kinds`, judge::legalRubricTruth). Expected metric values are worked
// out by hand from the definitions in the headers; tolerance 1e-12.
#include "tasks/legalqa/legalcorpus.h"
#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/syntheticlaw.h"
#include "tasks/legalqa/citationmetrics.h"
#include "tasks/legalqa/legalgrader.h"
#include "tasks/legalqa/legaljudgedata.h"
#include "tasks/legalqa/legaloutput.h"
#include "tasks/legalqa/legalrubric.h"
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "tasks/legalqa/legalqametrics.h"
#include "util/rng.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace rwb;
using data::DataSplit;

namespace {

// Absolute tolerance for metric values.
constexpr double kTol = 1e-12;
// FNV-1a of the corpus JSONL and the JSONL of train questions 1–200, seed 1, default
// sizes: the data is the same on every platform and compiler. When the phrase table or
// the generator change on purpose, the data changes: update this value and the figures in
// docs/data.md together. (Changed when questions gained "slot_values".)
constexpr uint64_t kDataFingerprint = 0x6a134fc22e7cf3eaULL;
// Questions per split for the property checks.
constexpr size_t kTrainQuestions = 3000;
constexpr size_t kHeldOutQuestions = 1000;

std::vector<int64_t> codesOf(const QString &list)
{
    std::vector<int64_t> out;
    for (const QString &part : list.split(',', Qt::SkipEmptyParts))
        out.push_back(part.trimmed().toLongLong());
    return out;
}

std::string corpusJsonl(const data::LegalCorpus &corpus)
{
    std::ostringstream out;
    data::writeLegalCorpusJsonl(corpus, out);
    return out.str();
}

std::string questionsJsonl(const data::SyntheticLawGenerator &g, DataSplit split, size_t n)
{
    std::ostringstream out;
    data::writeLegalQuestionsJsonl(g, split, n, out);
    return out.str();
}

const data::SyntheticLawGenerator &seedOne()
{
    static const data::SyntheticLawGenerator g(data::LegalSynthOptions{});
    return g;
}

// The grader's universe for the hand-worked cases.
const data::SlotUniverse &handUniverse()
{
    static const data::SlotUniverse u = {
        {"deadline", {"14日以内", "2か月以内", "30日以内"}},
        {"validity", {"3年", "5年"}},
        {"retention", {"5年", "7年"}},
        {"fee", {"1,000円", "2,000円"}},
        {"deposit", {"300万円"}},
        {"fine", {"30万円以下の過料"}},
        {"authority", {"所在地の市町村長", "浮島管理局長"}},
        {"exception", {"災害その他やむを得ない事由がある場合"}},
    };
    return u;
}

// "slot=value;slot=value" → facts (law code 1).
std::vector<data::LegalFact> factsOf(const QString &list)
{
    std::vector<data::LegalFact> out;
    for (const QString &part : list.split(';', Qt::SkipEmptyParts)) {
        const QStringList kv = part.split('=');
        out.push_back({1, kv[0].toStdString(), kv[1].toStdString()});
    }
    return out;
}

QString verdicts(const eval::LegalGrade &g)
{
    QString s;
    for (const eval::FactGrade &f : g.facts)
        s += f.verdict == eval::FactVerdict::Stated ? 'S' : f.verdict == eval::FactVerdict::Missing ? 'M' : 'C';
    return s;
}

std::string slice(const std::string &s, eval::ByteSpan span)
{
    return s.substr(span.begin, span.end - span.begin);
}

// A question with two facts for the rubric judges' targets. rubricFromFacts gives it:
//   0  Essential  5  回答は期限を「30日以内」と述べている。   (law 12, the first gold section)
//   1  Important  3  回答は届出先を「甲局長」と述べている。   (law 30)
//   2  Pitfall   −2  回答は期限を「14日以内」と述べている。   (after 30日以内, wrapping)
//   3  Pitfall   −2  回答は届出先を「乙局長」と述べている。   (after 甲局長, wrapping)
// so Σ w⁺ = 8.
data::LegalQuestion twoFactQuestion()
{
    data::LegalQuestion q;
    q.id = "q2f";
    q.question = "届出はいつまでに、どこにする必要がありますか。";
    q.referenceAnswer = "30日以内に、甲局長に届け出なければなりません。";
    q.lawCodes = {12, 30};
    q.facts = {{12, "deadline", "30日以内"}, {30, "authority", "甲局長"}};
    q.slotValues = {{"deadline", {"14日以内", "30日以内"}}, {"authority", {"乙局長", "甲局長"}}};
    return q;
}

} // namespace

class TestLegalQa : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Output parser.
    void parser_data();
    void parser();
    void parserSpans();
    // Citation metrics.
    void citation_data();
    void citation();
    void citationAggregate();
    // Reference grader.
    void grader_data();
    void grader();
    void graderSpans();
    void jointAndScorer();
    // What a perfect rubric or rating judge replies.
    void rubricTruth_data();
    void rubricTruth();
    void rubricJudgeExamples();
    void rubricPitfallsNameNoRightValue();
    void rubricOnTheQuestionLine();
    // Generator.
    void determinism();
    void seedsDiffer();
    void prefixStable();
    void splitsDisjoint();
    void goldAndFactsInCorpus();
    void referenceAnswersGradePerfect();
    void nearDuplicatesAndAmendments();
    void corpusShape();
    void questionMix();
    void sizeOptions();
    void badOptions();
    // Readers.
    void roundTrip();
    void questionErrors_data();
    void questionErrors();
    void questionErrorLineAndSkip();
    void corpusErrors_data();
    void corpusErrors();
};

// ---------------------------------------------------------------------------------------
// Output parser

void TestLegalQa::parser_data()
{
    QTest::addColumn<QString>("completion");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("codes");
    QTest::addColumn<int>("duplicates");
    QTest::addColumn<int>("invalid");
    QTest::addColumn<QString>("answer");

    const QString r = "<reasoning>第8条が関係する。</reasoning>";
    const QString a = "<answer>30日以内です。</answer>";
    const QString c = "<citation><law_code>17</law_code><law_code>22</law_code></citation>";
    QTest::newRow("good, one line") << r + a + c << "ok" << "17,22" << 0 << 0 << "30日以内です。";
    QTest::newRow("good, D.2 layout")
        << "<reasoning>\n第8条が関係する。\n</reasoning>\n<answer>\n30日以内です。\n</answer>\n<citation>\n"
           "<law_code>2</law_code>\n<law_code>5</law_code>\n</citation>\n"
        << "ok" << "2,5" << 0 << 0 << "30日以内です。";
    QTest::newRow("ideographic space between blocks") << r + "\u3000" + a + "\u3000" + c << "ok" << "17,22" << 0 << 0
                                                      << "30日以内です。";
    QTest::newRow("spaces inside law_code") << r + a + "<citation><law_code> 17 </law_code></citation>" << "ok"
                                            << "17" << 0 << 0 << "30日以内です。";
    QTest::newRow("empty citation") << r + a + "<citation></citation>" << "ok" << "" << 0 << 0 << "30日以内です。";
    QTest::newRow("duplicate citations")
        << r + a + "<citation><law_code>17</law_code><law_code>3</law_code><law_code>17</law_code></citation>"
        << "ok" << "17,3" << 1 << 0 << "30日以内です。";
    QTest::newRow("empty answer holds the format") << r + "<answer></answer>" + c << "ok" << "17,22" << 0 << 0 << "";
    QTest::newRow("empty completion") << "" << "missing_reasoning" << "" << 0 << 0 << "";
    QTest::newRow("missing reasoning") << a + c << "missing_reasoning" << "17,22" << 0 << 0 << "30日以内です。";
    QTest::newRow("missing </answer>") << r + "<answer>30日以内です。" + c << "missing_answer" << "17,22" << 0 << 0
                                      << "30日以内です。";
    QTest::newRow("missing citation") << r + a << "missing_citation" << "" << 0 << 0 << "30日以内です。";
    QTest::newRow("truncated citation") << r + a + "<citation><law_code>5</law_code>" << "missing_citation" << "5"
                                        << 0 << 0 << "30日以内です。";
    QTest::newRow("wrong order: answer first")
        << a + r + c << "wrong_order" << "17,22" << 0 << 0 << "30日以内です。";
    QTest::newRow("wrong order: citation before answer")
        << r + c + a << "wrong_order" << "17,22" << 0 << 0 << "30日以内です。";
    QTest::newRow("closing tag before opening tag")
        << r + "</answer>30日以内です。<answer>" + c << "wrong_order" << "17,22" << 0 << 0 << "";
    QTest::newRow("trailing text") << r + a + c + "\n以上です。" << "text_outside_blocks" << "17,22" << 0 << 0
                                   << "30日以内です。";
    QTest::newRow("leading text") << "はい。" + r + a + c << "text_outside_blocks" << "17,22" << 0 << 0
                                  << "30日以内です。";
    QTest::newRow("text between blocks") << r + "そして" + a + c << "text_outside_blocks" << "17,22" << 0 << 0
                                         << "30日以内です。";
    QTest::newRow("nested: citation inside answer")
        << r + "<answer>30日以内です。" + c + "</answer>" << "nested_tag" << "17,22" << 0 << 0 << "30日以内です。";
    QTest::newRow("nested: reasoning inside answer")
        << "<answer>x<reasoning>r</reasoning>y</answer>" + c << "nested_tag" << "17,22" << 0 << 0 << "x";
    QTest::newRow("law_code inside answer")
        << r + "<answer>第<law_code>9</law_code>条</answer>" + c << "nested_tag" << "17,22" << 0 << 0
        << "第<law_code>9</law_code>条";
    QTest::newRow("duplicate answer")
        << r + a + a + c << "duplicate_tag" << "17,22" << 0 << 0 << "30日以内です。";
    QTest::newRow("non-integer code") << r + a + "<citation><law_code>abc</law_code></citation>"
                                      << "non_integer_code" << "" << 0 << 1 << "30日以内です。";
    QTest::newRow("negative code") << r + a + "<citation><law_code>-3</law_code><law_code>4</law_code></citation>"
                                   << "non_integer_code" << "4" << 0 << 1 << "30日以内です。";
    QTest::newRow("fraction") << r + a + "<citation><law_code>1.5</law_code></citation>" << "non_integer_code" << ""
                              << 0 << 1 << "30日以内です。";
    QTest::newRow("full-width digits") << r + a + "<citation><law_code>１７</law_code></citation>"
                                       << "non_integer_code" << "" << 0 << 1 << "30日以内です。";
    QTest::newRow("empty law_code") << r + a + "<citation><law_code></law_code></citation>" << "non_integer_code"
                                    << "" << 0 << 1 << "30日以内です。";
    QTest::newRow("too many digits") << r + a + "<citation><law_code>1234567890123456789</law_code></citation>"
                                     << "non_integer_code" << "" << 0 << 1 << "30日以内です。";
    QTest::newRow("text in citation") << r + a + "<citation>第17条<law_code>17</law_code></citation>"
                                      << "malformed_citation" << "17" << 0 << 0 << "30日以内です。";
    QTest::newRow("unpaired law_code") << r + a + "<citation><law_code>17</citation>" << "malformed_citation" << ""
                                       << 0 << 0 << "30日以内です。";
    QTest::newRow("first citation problem wins: text")
        << r + a + "<citation>x<law_code>a</law_code></citation>" << "malformed_citation" << "" << 0 << 1
        << "30日以内です。";
    QTest::newRow("first citation problem wins: code")
        << r + a + "<citation><law_code>a</law_code>x</citation>" << "non_integer_code" << "" << 0 << 1
        << "30日以内です。";
    QTest::newRow("other tags are text in the answer")
        << r + "<answer>a < b <b>太字</b></answer>" + c << "ok" << "17,22" << 0 << 0 << "a < b <b>太字</b>";
    QTest::newRow("tags are case-sensitive") << r + "<Answer>x</Answer>" + c << "missing_answer" << "17,22" << 0 << 0
                                             << "";
}

void TestLegalQa::parser()
{
    QFETCH(QString, completion);
    QFETCH(QString, format);
    QFETCH(QString, codes);
    QFETCH(int, duplicates);
    QFETCH(int, invalid);
    QFETCH(QString, answer);
    const eval::LegalOutput out = eval::parseLegalOutput(completion.toStdString());
    QCOMPARE(QString::fromUtf8(eval::legalFormatName(out.format).data()), format);
    QCOMPARE(out.formatOk(), format == "ok");
    QCOMPARE(out.citedCodes, codesOf(codes));
    QCOMPARE(static_cast<int>(out.duplicateCitations), duplicates);
    QCOMPARE(out.citations.size(), out.citedCodes.size() + out.duplicateCitations);
    QCOMPARE(static_cast<int>(out.invalidCodes.size()), invalid);
    QCOMPARE(QString::fromStdString(out.answerText), answer);
}

void TestLegalQa::parserSpans()
{
    const std::string s = "<reasoning> 理由 </reasoning>\n<answer>答え</answer>\n<citation><law_code>7</law_code>"
                          "<law_code>7</law_code></citation>";
    const eval::LegalOutput out = eval::parseLegalOutput(s);
    QVERIFY(out.formatOk());
    QCOMPARE(slice(s, out.reasoning.inner), std::string(" 理由 "));
    QCOMPARE(out.reasoningText, std::string("理由"));
    QCOMPARE(slice(s, out.reasoning.outer), std::string("<reasoning> 理由 </reasoning>"));
    QCOMPARE(slice(s, out.answer.inner), std::string("答え"));
    QCOMPARE(slice(s, out.citation.inner), std::string("<law_code>7</law_code><law_code>7</law_code>"));
    QCOMPARE(out.citations.size(), size_t(2));
    QCOMPARE(slice(s, out.citations[0].span), std::string("<law_code>7</law_code>"));
    QVERIFY(!out.citations[0].duplicate);
    QVERIFY(out.citations[1].duplicate);
    QCOMPARE(out.citations[1].span.begin, out.citations[0].span.end);

    // Where the format breaks: the trailing text, the duplicate tag, the bad element.
    const std::string trailing = s + " 以上";
    QCOMPARE(slice(trailing, eval::parseLegalOutput(trailing).problem), std::string(" 以上"));
    const std::string twice = "<reasoning>r</reasoning><answer>a</answer><answer>b</answer><citation></citation>";
    QCOMPARE(eval::parseLegalOutput(twice).problem.begin, twice.find("<answer>b"));
    const std::string bad = "<reasoning>r</reasoning><answer>a</answer><citation><law_code>x</law_code></citation>";
    const eval::LegalOutput badOut = eval::parseLegalOutput(bad);
    QCOMPARE(slice(bad, badOut.problem), std::string("<law_code>x</law_code>"));
    QCOMPARE(slice(bad, badOut.invalidCodes.at(0)), std::string("<law_code>x</law_code>"));
}

// ---------------------------------------------------------------------------------------
// Citation metrics

void TestLegalQa::citation_data()
{
    QTest::addColumn<QString>("cited");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<double>("precision");
    QTest::addColumn<double>("recall");
    QTest::addColumn<double>("f1");
    QTest::newRow("exact") << "1,2" << "1,2" << 1.0 << 1.0 << 1.0;
    // TP 1, FP 1, FN 1.
    QTest::newRow("one right, one wrong") << "1,3" << "1,2" << 0.5 << 0.5 << 0.5;
    // TP 1, FP 2, FN 0: P 1/3, R 1, F1 2/(2+2) = 0.5.
    QTest::newRow("superset") << "1,2,3" << "1" << 1.0 / 3.0 << 1.0 << 0.5;
    QTest::newRow("code not in gold") << "9" << "1" << 0.0 << 0.0 << 0.0;
    // Repeats count once: TP 1, FP 0, FN 1: P 1, R 1/2, F1 2/3.
    QTest::newRow("repeated citation") << "1,1" << "1,2" << 1.0 << 0.5 << 2.0 / 3.0;
    QTest::newRow("nothing cited") << "" << "4" << 0.0 << 0.0 << 0.0;
    QTest::newRow("nothing cited, nothing due") << "" << "" << 1.0 << 1.0 << 1.0;
    QTest::newRow("cited, nothing due") << "4" << "" << 0.0 << 0.0 << 0.0;
}

void TestLegalQa::citation()
{
    QFETCH(QString, cited);
    QFETCH(QString, gold);
    QFETCH(double, precision);
    QFETCH(double, recall);
    QFETCH(double, f1);
    const eval::CitationScore s = eval::scoreCitations(codesOf(cited), codesOf(gold));
    QVERIFY2(std::abs(s.precision - precision) < kTol, qPrintable(QString::number(s.precision)));
    QVERIFY2(std::abs(s.recall - recall) < kTol, qPrintable(QString::number(s.recall)));
    QVERIFY2(std::abs(s.f1 - f1) < kTol, qPrintable(QString::number(s.f1)));
}

void TestLegalQa::citationAggregate()
{
    eval::CitationScorer scorer;
    QCOMPARE(scorer.result().macroF1, 0.0);
    QCOMPARE(scorer.result().microF1, 0.0);
    scorer.add({1, 2}, {1, 2}); // P 1, R 1, F1 1            TP 2
    scorer.add({1, 3}, {1});    // P 1/2, R 1, F1 2/3        TP 1, FP 1
    scorer.add({}, {4});        // 0, 0, 0                   FN 1
    scorer.add({}, {});         // 1, 1, 1
    const eval::CitationMetrics m = scorer.result();
    QCOMPARE(m.count, size_t(4));
    QCOMPARE(m.emptyCited, size_t(2));
    QCOMPARE(m.tp, size_t(3));
    QCOMPARE(m.fp, size_t(1));
    QCOMPARE(m.fn, size_t(1));
    QVERIFY(std::abs(m.macroPrecision - 2.5 / 4.0) < kTol);
    QVERIFY(std::abs(m.macroRecall - 3.0 / 4.0) < kTol);
    QVERIFY(std::abs(m.macroF1 - (1.0 + 2.0 / 3.0 + 0.0 + 1.0) / 4.0) < kTol);
    // Pooled: P 3/4, R 3/4, F1 6/8.
    QVERIFY(std::abs(m.microPrecision - 0.75) < kTol);
    QVERIFY(std::abs(m.microRecall - 0.75) < kTol);
    QVERIFY(std::abs(m.microF1 - 0.75) < kTol);

    // Pooled sets empty on both sides: 1; a wrong code only: 0.
    eval::CitationScorer empty;
    empty.add({}, {});
    QCOMPARE(empty.result().microF1, 1.0);
    eval::CitationScorer wrong;
    wrong.add({5}, {});
    QCOMPARE(wrong.result().microPrecision, 0.0);
    QCOMPARE(wrong.result().microF1, 0.0);
}

// ---------------------------------------------------------------------------------------
// Reference grader

void TestLegalQa::grader_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("facts");
    QTest::addColumn<double>("coverage");
    QTest::addColumn<double>("consistency");
    QTest::addColumn<QString>("verdicts");

    const QString two = "deadline=30日以内;authority=浮島管理局長";
    QTest::newRow("full") << "代表者を変更したときは、30日以内に浮島管理局長に届け出なければなりません。" << two << 1.0
                          << 1.0 << "SS";
    QTest::newRow("partial") << "30日以内に届け出なければなりません。" << two << 0.5 << 1.0 << "SM";
    QTest::newRow("none") << "届け出なければなりません。" << two << 0.0 << 1.0 << "MM";
    QTest::newRow("empty answer") << "" << two << 0.0 << 1.0 << "MM";
    QTest::newRow("contradiction") << "14日以内に浮島管理局長に届け出なければなりません。" << two << 0.5 << 0.0
                                   << "CS";
    QTest::newRow("wrong authority") << "30日以内に所在地の市町村長に届け出ます。" << two << 0.5 << 0.0 << "SC";
    QTest::newRow("a number outside the universe, same shape") << "31日以内に届け出ます。" << "deadline=30日以内"
                                                               << 0.0 << 0.0 << "C";
    QTest::newRow("stated and contradicted") << "30日以内又は14日以内です。" << "deadline=30日以内" << 1.0 << 0.0
                                             << "C";
    QTest::newRow("digit boundary: 130日以内 is not 30日以内") << "130日以内です。" << "deadline=30日以内" << 0.0
                                                               << 0.0 << "C";
    // 5年 is a value of validity too, but it is the value of a reference fact: no contradiction.
    QTest::newRow("a value shared by two slots") << "有効期間は3年、帳簿は5年間保存しなければなりません。"
                                                 << "validity=3年;retention=5年" << 1.0 << 1.0 << "SS";
    // 3年 has the shape of a retention value and is no reference value.
    QTest::newRow("a shared value that contradicts") << "帳簿は5年間保存し、有効期間は3年です。" << "retention=5年"
                                                     << 1.0 << 0.0 << "C";
    // 30万円 has the deposit shape but lies inside the fine 30万円以下の過料.
    QTest::newRow("inside a longer value") << "300万円を供託し、違反すると30万円以下の過料です。" << "deposit=300万円"
                                           << 1.0 << 1.0 << "S";
    QTest::newRow("slot not asked is not checked") << "30日以内です。有効期間は3年です。" << "deadline=30日以内"
                                                   << 1.0 << 1.0 << "S";
    QTest::newRow("full-width digits, no comma") << "手数料は１０００円です。" << "fee=1,000円" << 1.0 << 1.0 << "S";
    QTest::newRow("wrong fee with comma") << "手数料は2,000円です。" << "fee=1,000円" << 0.0 << 0.0 << "C";
    QTest::newRow("ヶ月 reads as か月") << "2ヶ月以内に届け出ます。" << "deadline=2か月以内" << 1.0 << 1.0 << "S";
    QTest::newRow("white space ignored") << "30 日 以内に届け出ます。" << "deadline=30日以内" << 1.0 << 1.0 << "S";
    QTest::newRow("exception stated") << "14日以内です。ただし、災害その他やむを得ない事由がある場合は、この限りではありません。"
                                      << "deadline=14日以内;exception=災害その他やむを得ない事由がある場合" << 1.0 << 1.0
                                      << "SS";
    QTest::newRow("exception left out") << "14日以内です。"
                                        << "deadline=14日以内;exception=災害その他やむを得ない事由がある場合" << 0.5
                                        << 1.0 << "SM";
    QTest::newRow("no reference facts") << "何でも。" << "" << 1.0 << 1.0 << "";
}

void TestLegalQa::grader()
{
    QFETCH(QString, answer);
    QFETCH(QString, facts);
    QFETCH(double, coverage);
    QFETCH(double, consistency);
    QFETCH(QString, verdicts);
    const eval::LegalReferenceGrader grader(handUniverse());
    const eval::LegalGrade g = grader.grade(answer.toStdString(), factsOf(facts));
    QCOMPARE(g.coverage, coverage);
    QCOMPARE(g.consistency, consistency);
    QCOMPARE(::verdicts(g), verdicts);
}

void TestLegalQa::graderSpans()
{
    const eval::LegalReferenceGrader grader(handUniverse());
    // The spans are bytes of the answer as written, full-width digits and all.
    const std::string answer = "期限は１４日以内、届出先は浮島管理局長です。";
    const eval::LegalGrade g = grader.grade(answer, factsOf("deadline=30日以内;authority=浮島管理局長"));
    QCOMPARE(g.contradictions.size(), size_t(1));
    QCOMPARE(g.contradictions[0].slot, std::string("deadline"));
    QCOMPARE(g.contradictions[0].value, std::string("14日以内"));
    QCOMPARE(slice(answer, g.contradictions[0].span), std::string("１４日以内"));
    QCOMPARE(g.facts[0].contradictions.size(), size_t(1));
    QVERIFY(g.facts[1].stated);
    QCOMPARE(slice(answer, g.facts[1].span), std::string("浮島管理局長"));
    // A comma the comparison drops still lies inside the span.
    const std::string fee = "手数料は1,000円。";
    const eval::LegalGrade f = grader.grade(fee, factsOf("fee=1,000円"));
    QCOMPARE(slice(fee, f.facts[0].span), std::string("1,000円"));
}

// ---------------------------------------------------------------------------------------
// The rubric and rating judges' targets (twoFactQuestion's rubric: items 5, 3, −2, −2)

void TestLegalQa::rubricTruth_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("met"); // c* per item, "1" met
    QTest::addColumn<double>("score");
    QTest::addColumn<int>("rating");
    // Both facts, no wrong value: (5 + 3) / 8 = 1 → 1 + round(9) = 10.
    QTest::newRow("right") << "30日以内に、甲局長に届け出なければなりません。" << "1100" << 1.0 << 10;
    // The deadline changed to the pitfall's value: 3 − 2 = 1 → 1/8 = 0.125 → 1 + round(1.125) = 2.
    QTest::newRow("wrong, the pitfall's value") << "14日以内に、甲局長に届け出なければなりません。" << "0110" << 0.125
                                                << 2;
    // The deadline changed to a value the pitfall does not name: only item 1, 3/8 = 0.375 →
    // 1 + round(3.375) = 4.
    QTest::newRow("wrong, another value") << "60日以内に、甲局長に届け出なければなりません。" << "0100" << 0.375 << 4;
    // The authority changed (its pitfall's value): 5 − 2 = 3 → 0.375 → 4.
    QTest::newRow("wrong authority") << "30日以内に、乙局長に届け出なければなりません。" << "1001" << 0.375 << 4;
    // The deadline left vague: 3/8 → 4.
    QTest::newRow("vague") << "所定の期間内に、甲局長に届け出なければなりません。" << "0100" << 0.375 << 4;
    // Both changed to the pitfalls' values: −4/8 clamped to 0 → 1.
    QTest::newRow("both wrong") << "14日以内に、乙局長に届け出なければなりません。" << "0011" << 0.0 << 1;
    // Another question's answer: nothing of either fact → 0 → 1.
    QTest::newRow("other question's answer") << "手数料は5,000円です。" << "0000" << 0.0 << 1;
    // The right value and the pitfall's both stated: 5 + 3 − 2 = 6 → 0.75 → 1 + round(6.75) = 8.
    QTest::newRow("right and wrong value") << "30日以内（14日以内ではありません）に、甲局長に届け出なければなりません。"
                                           << "1110" << 0.75 << 8;
    // Full-width digits are the same values for the grader (its comparison form).
    QTest::newRow("full-width digits") << "１４日以内に、甲局長に届け出なければなりません。" << "0110" << 0.125 << 2;
}

void TestLegalQa::rubricTruth()
{
    QFETCH(QString, answer);
    QFETCH(QString, met);
    QFETCH(double, score);
    QFETCH(int, rating);
    const judge::RubricTruth t = judge::legalRubricTruth(twoFactQuestion(), answer.toStdString());
    QString got;
    for (bool m : t.met)
        got += m ? '1' : '0';
    QCOMPARE(got, met);
    QVERIFY2(std::abs(t.score - score) < kTol, qPrintable(QString::number(t.score, 'g', 17)));
    QCOMPARE(t.rating, rating);
    QCOMPARE(judge::targetRating(score), rating);
}

// The requests of each kind for one answer are the builders' (with the rubric as the
// legal-QA task reads it back from its line), and each target reads back, through the
// rewards' parsers, to the truth.
void TestLegalQa::rubricJudgeExamples()
{
    const data::LegalQuestion q = twoFactQuestion();
    // The rubric as a question line carries it (rwb rubric generate --from-facts) and the
    // task parses it: the same items, so the same requests.
    const judge::Rubric asRead = judge::parseRubricText(judge::toRaR(judge::rubricFromFacts(q)).dump(), "line");
    QCOMPARE(asRead.items.size(), size_t(4));
    QCOMPARE(asRead.items[3].criterion, std::string("回答は届出先を「乙局長」と述べている。"));
    QCOMPARE(asRead.items[3].weight, -2.0);

    judge::JudgeExample wrong;
    wrong.id = "q2f-wrong";
    wrong.kind = "wrong";
    wrong.answer = "14日以内に、甲局長に届け出なければなりません。"; // c* 0110, s* 0.125, r* 2

    const std::vector<judge::RubricJudgeExample> items = judge::legalRubricJudgeExamples(q, wrong, "rubric_explicit");
    QCOMPARE(items.size(), size_t(4));
    const std::vector<bool> met{false, true, true, false};
    const std::vector<double> weights{5.0, 3.0, -2.0, -2.0};
    for (size_t k = 0; k < items.size(); ++k) {
        const judge::RubricJudgeExample &e = items[k];
        QCOMPARE(e.id, "q2f-wrong-rubric_explicit-" + std::to_string(k));
        QCOMPARE(e.answerId, std::string("q2f-wrong"));
        QCOMPARE(e.questionId, std::string("q2f"));
        QCOMPARE(e.kind, std::string("wrong"));
        QCOMPARE(e.item, int(k));
        QCOMPARE(e.items, 4);
        QCOMPARE(e.weight, weights[k]);
        QCOMPARE(e.met, bool(met[k]));
        QCOMPARE(e.score, 0.125);
        const auto sent = judge::rubricItemMessages(q.question, wrong.answer, asRead.items[k], judge::ItemMode::Binary,
                                                    q.referenceAnswer);
        QCOMPARE(e.messages.size(), sent.size());
        QCOMPARE(e.messages[1].content, sent[1].content);
        QCOMPARE(judge::parseRubricItemReply(e.target, judge::ItemMode::Binary).c, met[k] ? 1.0 : 0.0);
    }
    // The line: every field to regroup the items per answer and to train on.
    const nlohmann::json line = nlohmann::json::parse(judge::rubricJudgeLine(items[2]));
    QCOMPARE(line["task"].get<std::string>(), std::string("chat"));
    QCOMPARE(line["judge_kind"].get<std::string>(), std::string("rubric_explicit"));
    QCOMPARE(line["answer_id"].get<std::string>(), std::string("q2f-wrong"));
    QCOMPARE(line["question_id"].get<std::string>(), std::string("q2f"));
    QCOMPARE(line["kind"].get<std::string>(), std::string("wrong"));
    QCOMPARE(line["label"].get<std::string>(), std::string("wrong"));
    QCOMPARE(line["item"].get<int>(), 2);
    QCOMPARE(line["items"].get<int>(), 4);
    QCOMPARE(line["weight"].get<double>(), -2.0);
    QCOMPARE(line["met"].get<bool>(), true);
    QCOMPARE(line["score"].get<double>(), 0.125);
    QCOMPARE(line["completion"].get<std::string>(), items[2].target);
    QCOMPARE(line["messages"].size(), size_t(2));
    QVERIFY(!line.contains("rating"));

    // The rating kinds: one request each, the builders', target r* = 2 for all three.
    const std::map<std::string, std::vector<judge::ChatMessage>> built{
        {"rubric_implicit", judge::rubricImplicitMessages(q.question, wrong.answer, asRead)},
        {"likert_simple", judge::likertSimpleMessages(q.question, wrong.answer)},
        {"likert_reference", judge::likertReferenceMessages(q.question, q.referenceAnswer, wrong.answer)}};
    for (const auto &[kind, sent] : built) {
        const std::vector<judge::RubricJudgeExample> r = judge::legalRubricJudgeExamples(q, wrong, kind);
        QCOMPARE(r.size(), size_t(1));
        QCOMPARE(r[0].id, "q2f-wrong-" + kind);
        QCOMPARE(r[0].item, -1);
        QCOMPARE(r[0].rating, 2);
        QCOMPARE(r[0].messages[1].content, sent[1].content);
        QCOMPARE(judge::parseRatingReply(r[0].target).rating, 2.0);
        const nlohmann::json l = nlohmann::json::parse(judge::rubricJudgeLine(r[0]));
        QCOMPARE(l["rating"].get<int>(), 2);
        QVERIFY(!l.contains("item"));
    }

    // Neither coverage (its lines are JudgeExample's) nor an unknown kind; nor a question
    // without facts.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::legalRubricJudgeExamples(q, wrong, "coverage"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::legalRubricJudgeExamples(q, wrong, "likert"));
    data::LegalQuestion noFacts = q;
    noFacts.facts.clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::legalRubricJudgeExamples(noFacts, wrong, "likert_simple"));
}

// A pitfall names a wrong value only: the value after the right one in slot_values is
// skipped when the grader reads it as a reference fact's value (comparisonForm).
void TestLegalQa::rubricPitfallsNameNoRightValue()
{
    // The same fee written otherwise. slot_values sorted: "5,000円" < "5000円" (',' 0x2C <
    // '0' 0x30); after "5,000円" comes "5000円", whose comparison form "5000円" is the fact's
    // own: no pitfall, so the rubric is the Essential item alone.
    data::LegalQuestion fee;
    fee.id = "qfee";
    fee.question = "手数料はいくらですか。";
    fee.referenceAnswer = "手数料は5,000円です。";
    fee.lawCodes = {7};
    fee.facts = {{7, "fee", "5,000円"}};
    fee.slotValues = {{"fee", {"5,000円", "5000円"}}};
    QCOMPARE(eval::comparisonForm("5000円"), eval::comparisonForm("5,000円"));
    const std::vector<judge::FactRubricItem> feeItems = judge::factRubricItems(fee);
    QCOMPARE(feeItems.size(), size_t(1));
    QCOMPARE(feeItems[0].pitfall, false);
    const judge::Rubric feeRubric = judge::rubricFromFacts(fee);
    QCOMPARE(feeRubric.items.size(), size_t(1));
    QCOMPARE(feeRubric.items[0].weight, 5.0);
    // Stating the fee either way meets the one item: s* 5/5 = 1.
    QCOMPARE(judge::legalRubricTruth(fee, "手数料は5000円です。").score, 1.0);

    // Another fact's value. deadline 30日以内 (law 12, Essential 5) and notice 14日以内
    // (law 30, Important 3); slot_values deadline {14日以内, 30日以内}, notice {14日以内,
    // 7日以内} ('1' < '7'). The deadline's next value wraps to 14日以内, the notice's own
    // value: skipped. The notice's next is 7日以内: kept. Items: 5, 3, −2 (notice 7日以内).
    data::LegalQuestion two;
    two.id = "qtwo";
    two.question = "届出と通知はいつまでに必要ですか。";
    two.referenceAnswer = "30日以内に届け出て、14日以内に通知しなければなりません。";
    two.lawCodes = {12, 30};
    two.facts = {{12, "deadline", "30日以内"}, {30, "notice", "14日以内"}};
    two.slotValues = {{"deadline", {"14日以内", "30日以内"}}, {"notice", {"14日以内", "7日以内"}}};
    const judge::Rubric r = judge::rubricFromFacts(two);
    QCOMPARE(r.items.size(), size_t(3));
    QCOMPARE(r.items[0].weight, 5.0);
    QCOMPARE(r.items[1].weight, 3.0);
    QCOMPARE(r.items[2].weight, -2.0);
    QCOMPARE(r.items[2].criterion, std::string("回答は通知の期限を「7日以内」と述べている。"));
    // The reference answer: both facts, no pitfall: (5 + 3) / 8 = 1 → r* 10.
    const judge::RubricTruth t = judge::legalRubricTruth(two, two.referenceAnswer);
    QCOMPARE(t.met, (std::vector<bool>{true, true, false}));
    QCOMPARE(t.score, 1.0);
    QCOMPARE(t.rating, 10);
}

// A question line that carries a rubric: the facts' own passes; any other stops rwb judge
// data naming the file, the line and the question (the targets are the facts' rubric's).
void TestLegalQa::rubricOnTheQuestionLine()
{
    data::LegalQuestion q = twoFactQuestion();
    q.line = 7;
    judge::JudgeExample right;
    right.id = "q2f-right";
    right.kind = "right";
    right.answer = q.referenceAnswer;
    judge::requireRubricFromFacts(q, "q.jsonl"); // no rubric: nothing to check
    const nlohmann::json own = judge::toRaR(judge::rubricFromFacts(q));
    q.rubric = own.dump(); // rwb rubric generate --from-facts
    judge::requireRubricFromFacts(q, "q.jsonl");
    QCOMPARE(judge::legalRubricJudgeExamples(q, right, "rubric_explicit").size(), size_t(4));

    const auto messageOf = [&](const data::LegalQuestion &x) {
        try {
            judge::requireRubricFromFacts(x, "q.jsonl");
        } catch (const data::InputException &e) {
            return QString::fromStdString(e.error().toString());
        }
        return QString();
    };
    // Item 1 weighted 4 instead of 3.
    nlohmann::json reweighted = own;
    reweighted[1]["weight"] = 4;
    q.rubric = reweighted.dump();
    const QString m = messageOf(q);
    QVERIFY2(m.startsWith(R"(q.jsonl:7: question q2f: item 1 of its "rubric" is )"), qPrintable(m));
    QVERIFY2(m.contains("rubric from facts"), qPrintable(m));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, judge::legalRubricJudgeExamples(q, right, "likert_simple"));
    // The last pitfall left out: 3 items against 4.
    nlohmann::json shorter = own;
    shorter.erase(3);
    q.rubric = shorter.dump();
    QVERIFY2(messageOf(q).startsWith(R"(q.jsonl:7: question q2f: its "rubric" has 3 items, its rubric from facts 4)"),
             qPrintable(messageOf(q)));
    // A question without facts gets no rubric lines: nothing to check.
    data::LegalQuestion noFacts = q;
    noFacts.facts.clear();
    QCOMPARE(messageOf(noFacts), QString());
}

void TestLegalQa::jointAndScorer()
{
    QVERIFY(std::abs(eval::legalJointScore(0.5, 0.5, 1.0) - 2.0 / 3.0) < kTol);

    const eval::LegalReferenceGrader grader(handUniverse());
    const std::vector<data::LegalFact> facts = factsOf("deadline=30日以内");
    eval::LegalQaScorer scorer;
    // Right answer and citation: 1, 1, 1 → joint 1.
    const eval::LegalOutput good = eval::parseLegalOutput(
        "<reasoning>r</reasoning><answer>30日以内です。</answer><citation><law_code>1</law_code></citation>");
    QCOMPARE(scorer.add(good, {1}, grader.grade(good.answerText, facts)).joint, 1.0);
    // Wrong deadline, half the citation (F1 2/3), bad format: joint (2/3 + 0 + 0)/3.
    const eval::LegalOutput bad = eval::parseLegalOutput(
        "<answer>14日以内です。</answer><citation><law_code>1</law_code></citation>");
    const eval::LegalQaExampleScore b = scorer.add(bad, {1, 2}, grader.grade(bad.answerText, facts));
    QVERIFY(std::abs(b.citation.f1 - 2.0 / 3.0) < kTol);
    QCOMPARE(b.coverage, 0.0);
    QCOMPARE(b.consistency, 0.0);
    QVERIFY(std::abs(b.joint - 2.0 / 9.0) < kTol);
    QVERIFY(!b.formatOk);
    const eval::LegalQaMetrics m = scorer.result();
    QCOMPARE(m.count, size_t(2));
    QVERIFY(std::abs(m.joint - (1.0 + 2.0 / 9.0) / 2.0) < kTol);
    QVERIFY(std::abs(m.joint - (m.citation.macroF1 + m.coverage + m.consistency) / 3.0) < kTol);
    QCOMPARE(m.formatOk, 0.5);
    QCOMPARE(m.coverageFull, size_t(1));
    QCOMPARE(m.coverageNone, size_t(1));
    QCOMPARE(m.contradicted, size_t(1));
    const auto values = m.values();
    QCOMPARE(QString::fromStdString(values.front().first), QString("citation_f1"));
    QCOMPARE(values.front().second, m.citation.macroF1);
}

// ---------------------------------------------------------------------------------------
// Generator

void TestLegalQa::determinism()
{
    const data::SyntheticLawGenerator a(data::LegalSynthOptions{}), b(data::LegalSynthOptions{});
    const std::string bytes = corpusJsonl(a.corpus()) + questionsJsonl(a, DataSplit::Train, 200);
    QCOMPARE(bytes, corpusJsonl(b.corpus()) + questionsJsonl(b, DataSplit::Train, 200));
    for (DataSplit split : {DataSplit::Val, DataSplit::Test})
        QCOMPARE(questionsJsonl(a, split, 100), questionsJsonl(b, split, 100));
    const uint64_t fingerprint = util::fnv1a64(bytes);
    if (fingerprint != kDataFingerprint)
        qWarning("data fingerprint 0x%016llx", static_cast<unsigned long long>(fingerprint));
    QCOMPARE(fingerprint, kDataFingerprint);
}

void TestLegalQa::seedsDiffer()
{
    data::LegalSynthOptions other;
    other.seed = 2;
    const data::SyntheticLawGenerator b(other);
    QVERIFY(corpusJsonl(seedOne().corpus()) != corpusJsonl(b.corpus()));
    QVERIFY(questionsJsonl(seedOne(), DataSplit::Train, 50) != questionsJsonl(b, DataSplit::Train, 50));
    // Within one seed, the splits differ and question i depends on i.
    QVERIFY(seedOne().question(DataSplit::Train, 0).question != seedOne().question(DataSplit::Train, 1).question ||
            seedOne().question(DataSplit::Train, 0).lawCodes != seedOne().question(DataSplit::Train, 1).lawCodes);
}

void TestLegalQa::prefixStable()
{
    const std::vector<data::LegalQuestion> shortRun = seedOne().questions(DataSplit::Val, 30);
    const std::vector<data::LegalQuestion> longRun = seedOne().questions(DataSplit::Val, 120);
    for (size_t i = 0; i < shortRun.size(); ++i)
        QCOMPARE(data::toJsonLine(shortRun[i]), data::toJsonLine(longRun[i]));
    QCOMPARE(shortRun[0].id, std::string("val-000001"));
}

void TestLegalQa::splitsDisjoint()
{
    const data::SyntheticLawGenerator &g = seedOne();
    const data::LegalCorpus &corpus = g.corpus();
    std::map<DataSplit, std::set<std::string>> statutes;
    for (DataSplit split : {DataSplit::Train, DataSplit::Val, DataSplit::Test})
        for (const std::string &id : corpus.statuteIds(split))
            statutes[split].insert(id);
    // 16 statutes: round(2.4) = 2 val, 2 test, 12 train; train statutes come first.
    QCOMPARE(statutes[DataSplit::Train].size(), size_t(12));
    QCOMPARE(statutes[DataSplit::Val].size(), size_t(2));
    QCOMPARE(statutes[DataSplit::Test].size(), size_t(2));
    QCOMPARE(g.splitOfStatute("S12"), DataSplit::Train);
    QCOMPARE(g.splitOfStatute("S13"), DataSplit::Val);
    QCOMPARE(g.splitOfStatute("S16"), DataSplit::Test);

    std::map<DataSplit, std::set<int64_t>> cited;
    for (DataSplit split : {DataSplit::Train, DataSplit::Val, DataSplit::Test}) {
        const size_t n = split == DataSplit::Train ? kTrainQuestions : kHeldOutQuestions;
        for (const data::LegalQuestion &q : g.questions(split, n)) {
            QCOMPARE(q.statutes.size(), size_t(1));
            QVERIFY(statutes[split].count(q.statutes[0]));
            for (int64_t code : q.lawCodes) {
                const data::LegalSection *s = corpus.find(code);
                QVERIFY(s);
                QCOMPARE(s->split, std::optional<DataSplit>(split));
                QCOMPARE(s->statuteId, q.statutes[0]);
                cited[split].insert(code);
            }
        }
    }
    for (int64_t code : cited[DataSplit::Train]) {
        QVERIFY(!cited[DataSplit::Val].count(code));
        QVERIFY(!cited[DataSplit::Test].count(code));
    }
    // The held-out splits use most of their statutes' sections.
    QVERIFY(cited[DataSplit::Test].size() >= 20);
}

void TestLegalQa::goldAndFactsInCorpus()
{
    const data::SyntheticLawGenerator &g = seedOne();
    for (DataSplit split : {DataSplit::Train, DataSplit::Val, DataSplit::Test}) {
        for (const data::LegalQuestion &q : g.questions(split, kHeldOutQuestions)) {
            QVERIFY(!q.lawCodes.empty());
            QCOMPARE(q.kind, std::string(q.lawCodes.size() == 1 ? "single" : "multi"));
            QVERIFY(!q.facts.empty());
            std::set<int64_t> factCodes;
            for (const data::LegalFact &f : q.facts) {
                const data::LegalSection *s = g.corpus().find(f.lawCode);
                QVERIFY2(s, q.id.c_str());
                QVERIFY(std::find(q.lawCodes.begin(), q.lawCodes.end(), f.lawCode) != q.lawCodes.end());
                // Stated in the cited section's text, and listed among its facts.
                QVERIFY2(s->text.find(f.value) != std::string::npos, (q.id + " " + f.value).c_str());
                bool listed = false;
                for (const data::LegalFact &sf : s->facts)
                    listed = listed || (sf.slot == f.slot && sf.value == f.value);
                QVERIFY2(listed, (q.id + " " + f.slot).c_str());
                QVERIFY(q.referenceAnswer.find(f.value) != std::string::npos);
                factCodes.insert(f.lawCode);
            }
            // Gold codes in statute order.
            for (size_t i = 1; i < q.lawCodes.size(); ++i)
                QVERIFY(g.corpus().find(q.lawCodes[i - 1])->section < g.corpus().find(q.lawCodes[i])->section);
        }
    }
}

void TestLegalQa::referenceAnswersGradePerfect()
{
    const data::SyntheticLawGenerator &g = seedOne();
    const eval::LegalReferenceGrader grader(g.slotUniverse());
    for (DataSplit split : {DataSplit::Train, DataSplit::Test}) {
        for (const data::LegalQuestion &q : g.questions(split, kHeldOutQuestions)) {
            const eval::LegalGrade grade = grader.grade(q.referenceAnswer, q.facts);
            QVERIFY2(grade.coverage == 1.0 && grade.consistency == 1.0, q.id.c_str());
            const eval::LegalOutput out = eval::parseLegalOutput(data::legalTargetCompletion(q));
            QVERIFY(out.formatOk());
            QCOMPARE(out.answerText, q.referenceAnswer);
            QCOMPARE(out.citedCodes, q.lawCodes);
        }
    }
    // And a wrong answer is caught: swap the first fact's value for another of its slot.
    const data::LegalQuestion q = g.question(DataSplit::Test, 0);
    const std::vector<std::string> &values = g.slotUniverse().at(q.facts[0].slot);
    const std::string other = values[0] == q.facts[0].value ? values[1] : values[0];
    std::string wrong = q.referenceAnswer;
    wrong.replace(wrong.find(q.facts[0].value), q.facts[0].value.size(), other);
    QCOMPARE(grader.grade(wrong, q.facts).consistency, 0.0);
}

void TestLegalQa::nearDuplicatesAndAmendments()
{
    const data::LegalCorpus &corpus = seedOne().corpus();
    std::map<std::string, int> sameKindPairs, amendments;
    for (const data::LegalSection &s : corpus.sections()) {
        for (int64_t code : s.similarTo) {
            const data::LegalSection *o = corpus.find(code);
            QVERIFY(o);
            QCOMPARE(o->statuteId, s.statuteId);
            // similar_to is symmetric.
            QVERIFY(std::find(o->similarTo.begin(), o->similarTo.end(), s.code) != o->similarTo.end());
            if (o->kind == s.kind && s.kind != "special")
                ++sameKindPairs[s.statuteId];
        }
        if (s.kind == "special") {
            QCOMPARE(s.refersTo.size(), size_t(1));
            const data::LegalSection *base = corpus.find(s.refersTo[0]);
            QVERIFY(base);
            QVERIFY(std::find(s.similarTo.begin(), s.similarTo.end(), base->code) != s.similarTo.end());
            // 「…第8条の規定の適用については、同条中「30日以内」とあるのは、「60日以内」とする。」
            QVERIFY(s.text.find("第" + std::to_string(base->section) + "条") != std::string::npos);
            const size_t open = s.text.find("「"), close = s.text.find("」");
            const std::string old = s.text.substr(open + 3, close - open - 3);
            QVERIFY2(base->text.find(old) != std::string::npos, s.text.c_str());
            QVERIFY(s.text.find("「" + s.facts.at(0).value + "」") != std::string::npos);
            QVERIFY(old != s.facts.at(0).value);
            ++amendments[s.statuteId];
        }
        if (s.kind == "penalty")
            for (int64_t code : s.refersTo)
                QVERIFY(s.text.find("第" + std::to_string(corpus.find(code)->section) + "条") != std::string::npos);
    }
    // Every statute has near-duplicates (two or three 変更の届出) and at least one amendment.
    for (const std::string &id : corpus.statuteIds()) {
        QVERIFY2(sameKindPairs[id] >= 2, id.c_str());
        QVERIFY2(amendments[id] >= 1, id.c_str());
    }
}

void TestLegalQa::corpusShape()
{
    const data::SyntheticLawGenerator &g = seedOne();
    const data::LegalCorpus &corpus = g.corpus();
    const data::LegalSynthOptions options;
    std::map<std::string, std::vector<int>> numbers;
    std::set<int64_t> codes;
    for (const data::LegalSection &s : corpus.sections()) {
        QVERIFY(codes.insert(s.code).second);
        numbers[s.statuteId].push_back(s.section);
        QCOMPARE(s.title, s.statute + " 第" + std::to_string(s.section) + "条（" + s.heading + "）");
        QVERIFY(s.text.find('{') == std::string::npos && s.text.find('}') == std::string::npos);
        QVERIFY(s.text.size() >= 3 && s.text.compare(s.text.size() - 3, 3, "。") == 0);
        for (const data::LegalFact &f : s.facts) {
            QCOMPARE(f.lawCode, s.code);
            QVERIFY2(s.text.find(f.value) != std::string::npos, s.title.c_str());
        }
    }
    QVERIFY(corpus.size() >= options.statutes * options.minSections);
    QVERIFY(corpus.size() <= options.statutes * options.maxSections);
    QCOMPARE(numbers.size(), options.statutes);
    for (const auto &[id, ns] : numbers) {
        QVERIFY(ns.size() >= options.minSections && ns.size() <= options.maxSections);
        for (size_t i = 0; i < ns.size(); ++i)
            QCOMPARE(ns[i], static_cast<int>(i + 1)); // 第1条 … 第N条, in order
    }
    // Law codes are 101 … 100 + N.
    QCOMPARE(*codes.begin(), int64_t(101));
    QCOMPARE(*codes.rbegin(), static_cast<int64_t>(100 + corpus.size()));
}

void TestLegalQa::questionMix()
{
    std::map<std::string, int> patterns;
    int multi = 0, three = 0;
    for (const data::LegalQuestion &q : seedOne().questions(DataSplit::Train, kTrainQuestions)) {
        ++patterns[q.pattern];
        multi += q.kind == "multi";
        three += q.lawCodes.size() == 3;
        QVERIFY(q.question.find('{') == std::string::npos && q.referenceAnswer.find('{') == std::string::npos);
        const bool asks = q.question.size() > 6 && (q.question.compare(q.question.size() - 6, 6, "か。") == 0 ||
                                                    q.question.compare(q.question.size() - 6, 6, "い。") == 0);
        QVERIFY2(asks, q.question.c_str());
    }
    for (const char *p : {"single", "special", "penalty", "obligation_penalty", "contrast", "combo", "special_penalty"})
        QVERIFY2(patterns[p] > 0, p);
    // About 57 % single, 43 % multi (38 % two sections, 5 % three).
    QVERIFY(multi > 0.35 * kTrainQuestions && multi < 0.5 * kTrainQuestions);
    QVERIFY(three > 0.02 * kTrainQuestions);
}

void TestLegalQa::sizeOptions()
{
    data::LegalSynthOptions small;
    small.seed = 7;
    small.statutes = 5;
    small.minSections = 12;
    small.maxSections = 12;
    const data::SyntheticLawGenerator g(small);
    QCOMPARE(g.corpus().size(), size_t(60));
    QCOMPARE(g.corpus().statuteIds(DataSplit::Train).size(), size_t(3));
    QCOMPARE(g.corpus().statuteIds(DataSplit::Val).size(), size_t(1));
    QCOMPARE(g.corpus().statuteIds(DataSplit::Test).size(), size_t(1));
    QCOMPARE(g.questions(DataSplit::Test, 50).size(), size_t(50));

    data::LegalSynthOptions big;
    big.statutes = data::SyntheticLawGenerator::maxStatutes();
    big.minSections = 30;
    big.maxSections = 30;
    QCOMPARE(data::SyntheticLawGenerator(big).corpus().size(), 30 * data::SyntheticLawGenerator::maxStatutes());
}

void TestLegalQa::badOptions()
{
    auto with = [](auto change) {
        data::LegalSynthOptions o;
        change(o);
        return o;
    };
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             data::SyntheticLawGenerator(with([](auto &o) { o.statutes = 2; })));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             data::SyntheticLawGenerator(with([](auto &o) { o.statutes = 99; })));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             data::SyntheticLawGenerator(with([](auto &o) { o.minSections = 11; })));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             data::SyntheticLawGenerator(with([](auto &o) { o.maxSections = 31; })));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::SyntheticLawGenerator(with([](auto &o) {
                                 o.minSections = 20;
                                 o.maxSections = 19;
                             })));
    // 4 statutes, 40 % + 40 %: two val and two test leave none for train.
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, data::SyntheticLawGenerator(with([](auto &o) {
                                 o.statutes = 4;
                                 o.valPercent = 40;
                                 o.testPercent = 40;
                             })));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             data::SyntheticLawGenerator(with([](auto &o) { o.testPercent = 41; })));
}

// ---------------------------------------------------------------------------------------
// Readers

void TestLegalQa::roundTrip()
{
    const data::SyntheticLawGenerator &g = seedOne();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string corpusPath = dir.filePath("corpus.jsonl").toStdString();
    const std::string questionsPath = dir.filePath("q.jsonl").toStdString();
    {
        std::ofstream c(corpusPath), q(questionsPath);
        data::writeLegalCorpusJsonl(g.corpus(), c);
        data::writeLegalQuestionsJsonl(g, DataSplit::Val, 100, q);
    }
    const data::LegalCorpus corpus = data::readLegalCorpus(corpusPath);
    QCOMPARE(corpusJsonl(corpus), corpusJsonl(g.corpus()));
    QCOMPARE(corpus.slotUniverse(), g.slotUniverse());
    const data::LegalQuestionReadResult read = data::readLegalQuestions(questionsPath);
    QCOMPARE(read.questions.size(), size_t(100));
    QVERIFY(read.skipped.empty());
    for (size_t i = 0; i < 100; ++i) {
        QCOMPARE(data::toJsonLine(read.questions[i]), data::toJsonLine(g.question(DataSplit::Val, i)));
        QCOMPARE(read.questions[i].line, i + 1);
    }
    // A completion survives the round trip; without one, none is written.
    data::LegalQuestion q = read.questions[0];
    QVERIFY(data::toJsonLine(q).find("completion") == std::string::npos);
    q.hasCompletion = true;
    q.completion = "<reasoning>r</reasoning>";
    const data::LegalQuestion back = data::parseLegalQuestionLine(data::toJsonLine(q), "x", 1, true);
    QVERIFY(back.hasCompletion);
    QCOMPARE(back.completion, q.completion);
    QVERIFY_THROWS_EXCEPTION(data::InputException,
                             data::parseLegalQuestionLine(data::toJsonLine(read.questions[0]), "x", 1, true));
}

void TestLegalQa::questionErrors_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("error");
    const QString ok = R"("id": "a", "question": "q", "reference_answer": "r")";
    QTest::newRow("not JSON") << "{\"id\": " << "q.jsonl:4: not valid JSON at column";
    QTest::newRow("not an object") << "[1, 2]" << "q.jsonl:4: expected a JSON object, found array";
    QTest::newRow("missing question") << R"({"id": "a", "reference_answer": "r", "law_codes": [1]})"
                                      << "q.jsonl:4: missing field \"question\"";
    QTest::newRow("empty question") << R"({"id": "a", "question": " ", "reference_answer": "r", "law_codes": [1]})"
                                    << "q.jsonl:4: field \"question\" is empty";
    QTest::newRow("question not a string") << R"({"id": "a", "question": 5, "reference_answer": "r", "law_codes": [1]})"
                                           << "q.jsonl:4: field \"question\" must be a string, not number";
    QTest::newRow("missing reference_answer") << R"({"id": "a", "question": "q", "law_codes": [1]})"
                                              << "q.jsonl:4: missing field \"reference_answer\"";
    QTest::newRow("missing law_codes") << "{" + ok + "}" << "q.jsonl:4: missing field \"law_codes\"";
    QTest::newRow("law_codes not an array") << "{" + ok + R"(, "law_codes": "17"})"
                                            << "q.jsonl:4: field \"law_codes\" must be an array of integers, not string";
    QTest::newRow("law code a string") << "{" + ok + R"(, "law_codes": [17, "22"]})"
                                       << "q.jsonl:4: field \"law_codes[1]\" must be an integer, not string";
    QTest::newRow("law code a fraction") << "{" + ok + R"(, "law_codes": [1.5]})"
                                         << "q.jsonl:4: field \"law_codes[0]\" must be an integer, not a fraction";
    QTest::newRow("law code repeated") << "{" + ok + R"(, "law_codes": [17, 17]})"
                                       << "q.jsonl:4: field \"law_codes\" lists 17 twice";
    QTest::newRow("facts not an array") << "{" + ok + R"(, "law_codes": [1], "facts": {}})"
                                        << "q.jsonl:4: field \"facts\" must be an array of objects, not object";
    QTest::newRow("fact without slot") << "{" + ok + R"(, "law_codes": [1], "facts": [{"law_code": 1, "value": "v"}]})"
                                       << "q.jsonl:4: missing field \"facts[0].slot\"";
    QTest::newRow("fact value not a string")
        << "{" + ok + R"(, "law_codes": [1], "facts": [{"law_code": 1, "slot": "s", "value": 3}]})"
        << "q.jsonl:4: field \"facts[0].value\" must be a string, not number";
    QTest::newRow("fact of an uncited section")
        << "{" + ok + R"(, "law_codes": [1], "facts": [{"law_code": 9, "slot": "s", "value": "v"}]})"
        << "q.jsonl:4: field \"facts[0].law_code\" is 9, which \"law_codes\" does not list";
    QTest::newRow("unknown task") << R"({"id": "a", "task": "company_extraction", "question": "q"})"
                                  << "q.jsonl:4: unknown task \"company_extraction\" (allowed: legal_qa)";
    QTest::newRow("id a boolean") << R"({"id": true})" << "q.jsonl:4: field \"id\" must be a string or an integer";
    QTest::newRow("statutes not strings") << "{" + ok + R"(, "law_codes": [1], "statutes": [3]})"
                                          << "q.jsonl:4: field \"statutes[0]\" must be a string, not number";
}

void TestLegalQa::questionErrors()
{
    QFETCH(QString, line);
    QFETCH(QString, error);
    try {
        data::parseLegalQuestionLine(line.toStdString(), "q.jsonl", 4);
        QFAIL("no exception");
    } catch (const data::InputException &e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(error), e.what());
        QCOMPARE(e.error().line, size_t(4));
        QCOMPARE(e.error().file, std::string("q.jsonl"));
    }
}

void TestLegalQa::questionErrorLineAndSkip()
{
    const std::string good = R"({"id": 1, "question": "q", "reference_answer": "r", "law_codes": [101]})";
    const std::string text = good + "\n\n" + R"({"id": 2, "question": "q", "reference_answer": "r"})" + "\n" + good +
                             "\n";
    try {
        data::parseLegalQuestions(text, "data/q.jsonl");
        QFAIL("no exception");
    } catch (const data::InputException &e) {
        QCOMPARE(QString::fromUtf8(e.what()), QString("data/q.jsonl:3: missing field \"law_codes\""));
    }
    data::LegalQuestionReadOptions skip;
    skip.skipInvalid = true;
    const data::LegalQuestionReadResult r = data::parseLegalQuestions(text, "data/q.jsonl", skip);
    QCOMPARE(r.questions.size(), size_t(2));
    QCOMPARE(r.questions[0].id, std::string("1"));
    QCOMPARE(r.questions[1].line, size_t(4));
    QCOMPARE(r.skipped.size(), size_t(1));
    QCOMPARE(r.skipped[0].line, size_t(3));
    QVERIFY_THROWS_EXCEPTION(data::InputException, data::readLegalQuestions("/nonexistent/q.jsonl"));
}

void TestLegalQa::corpusErrors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    const QString one = R"({"id": 5, "title": "t", "text": "x"})";
    QTest::newRow("law code defined twice") << one + "\n" + one
                                            << "c.jsonl:2: field \"id\": law code 5 is already defined on line 1";
    QTest::newRow("id not an integer") << R"({"id": "5", "title": "t", "text": "x"})"
                                       << "c.jsonl:1: field \"id\" must be an integer, not string";
    QTest::newRow("missing text") << R"({"id": 5, "title": "t"})" << "c.jsonl:1: missing field \"text\"";
    QTest::newRow("meta not an object") << R"({"id": 5, "title": "t", "text": "x", "meta": []})"
                                        << "c.jsonl:1: field \"meta\" must be an object, not array";
    QTest::newRow("fact value not a string")
        << R"({"id": 5, "title": "t", "text": "x", "meta": {"facts": [{"slot": "a", "value": 1}]}})"
        << "c.jsonl:1: field \"meta.facts[0].value\" must be a string, not number";
    QTest::newRow("similar_to not integers")
        << R"({"id": 5, "title": "t", "text": "x", "meta": {"similar_to": ["6"]}})"
        << "c.jsonl:1: field \"meta.similar_to[0]\" must be an integer, not string";
    QTest::newRow("unknown split") << R"({"id": 5, "title": "t", "text": "x", "meta": {"split": "dev"}})"
                                   << "c.jsonl:1: field \"meta.split\" is \"dev\" (allowed: train, val, test)";
    QTest::newRow("no sections") << "\n  \n" << "c.jsonl: no sections";
}

void TestLegalQa::corpusErrors()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    try {
        data::parseLegalCorpus(text.toStdString(), "c.jsonl");
        QFAIL("no exception");
    } catch (const data::InputException &e) {
        QCOMPARE(QString::fromUtf8(e.what()), error);
    }
}

QTEST_APPLESS_MAIN(TestLegalQa)
#include "tst_legalqa.moc"
