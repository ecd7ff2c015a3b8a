// judge/rubric, judge/verdict, judge/judgeprompts: rubric parsing and aggregation, JSON
// extraction from judge replies, field readers, G-Eval, and each judge kind's prompt and
// parser. Expected values are worked by hand in the comments.
//
// Tolerance: 1e-12 for every computed score (all are a few exact additions, one division,
// or exp(log p) of the G-Eval test, whose rounding is far below that).
#include "judge/judgeprompts.h"
#include "judge/rubric.h"
#include "judge/verdict.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace rwb::judge;
using nlohmann::json;

namespace {

// Tolerance of every computed score (see the file comment).
constexpr double kTol = 1e-12;

bool near(double a, double b)
{
    return std::abs(a - b) <= kTol;
}

QString num(double v)
{
    return QString::number(v, 'g', 17);
}

// The message of the E that f throws; a null QString when it throws nothing. An exception
// of another type propagates and fails the test.
template <class E, class F>
QString thrownMessage(F f)
{
    try {
        f();
    } catch (const E &e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

// E5 (essential), I3 (important), O1 (optional), P−2 (pitfall), in RaR's form.
const char *kRaRRubric = R"([
  {"title": "Period", "description": "Essential Criteria: States that the period is 30 days.", "weight": 5},
  {"title": "Basis", "description": "Important Criteria: Cites the article.", "weight": 3},
  {"title": "Tone", "description": "Optional Criteria: Is concise.", "weight": 1},
  {"title": "Wrong period", "description": "Pitfall Criteria: States that the period is 5 years.", "weight": -2}
])";

Rubric raRRubric()
{
    return parseRubricText(kRaRRubric, "test");
}

TokenLogprob token(std::string text, double p = 1.0, std::vector<TopLogprob> top = {})
{
    return {std::move(text), std::log(p), std::move(top)};
}

TopLogprob alt(std::string text, double p)
{
    return {std::move(text), std::log(p)};
}

const char *kStrictLegal = R"({"point_thought": "Both talk about the period.",
  "student_points": ["The period is 30 days."],
  "reference_points": ["The period is 30 days.", "It runs from notice."],
  "coverage": {"thought": "One of two points.", "score": "partial-coverage"},
  "contradiction": {"thought": "Nothing conflicts.", "score": "no-contradiction"}})";

} // namespace

class TestRubric : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // aggregation
    void explicitBinary_data();
    void explicitBinary();
    void explicitContinuous();
    void explicitClampAtZeroAndOne();
    void explicitBreakdown();
    void explicitMissingVerdict();
    void explicitRefusesBadInput();
    void likert_data();
    void likert();
    void likertNaN();

    // rubric parsing and writing
    void categoryStrings();
    void parseRaR();
    void parseHealthBench();
    void pitfallSign();
    void containers();
    void parseErrors_data();
    void parseErrors();
    void nonFiniteWeight();
    void validateBuiltRubric();
    void roundTripRaR();
    void roundTripHealthBench();
    void roundTripAcrossForms();

    // JSON extraction and field readers
    void extract_data();
    void extract();
    void extractErrors_data();
    void extractErrors();
    void readBool_data();
    void readBool();
    void readNumberAndString();
    void pathMessages();

    // G-Eval
    void gevalWeighted();
    void gevalNoAlternatives();
    void gevalAfterKey();
    void gevalEdgeCases();

    // judge kinds
    void itemBinary();
    void itemContinuous();
    void itemErrors_data();
    void itemErrors();
    void allItemsStrict();
    void allItemsFallback();
    void allItemsErrors_data();
    void allItemsErrors();
    void rating();
    void ratingErrors_data();
    void ratingErrors();
    void legalStrict();
    void legalCoverageFallback_data();
    void legalCoverageFallback();
    void legalContradictionFallback_data();
    void legalContradictionFallback();
    void legalKeySpellings();
    void legalErrors_data();
    void legalErrors();
    void promptsDeterministicWithInputs();
    void promptNotes();
    void promptArgumentsRefused();
    void schemas();
};

// ---- Aggregation --------------------------------------------------------------------------

void TestRubric::explicitBinary_data()
{
    QTest::addColumn<QList<double>>("c"); // verdicts on E5, I3, O1, P−2
    QTest::addColumn<double>("expected");
    // Σ_{w>0} w = 5 + 3 + 1 = 9 in every row.
    QTest::newRow("pitfall met") << QList<double>{1, 0, 1, 1} << (5.0 + 1.0 - 2.0) / 9.0; // 4/9
    QTest::newRow("pitfall avoided") << QList<double>{1, 0, 1, 0} << 6.0 / 9.0;
    QTest::newRow("all earned, pitfall avoided") << QList<double>{1, 1, 1, 0} << 1.0;
    QTest::newRow("all earned, pitfall met") << QList<double>{1, 1, 1, 1} << 7.0 / 9.0;
    QTest::newRow("nothing") << QList<double>{0, 0, 0, 0} << 0.0;
    QTest::newRow("only the pitfall met: -2/9 clamped") << QList<double>{0, 0, 0, 1} << 0.0;
}

void TestRubric::explicitBinary()
{
    QFETCH(QList<double>, c);
    QFETCH(double, expected);
    std::vector<std::optional<double>> verdicts(c.begin(), c.end());
    const auto score = explicitScore(raRRubric(), verdicts);
    QVERIFY(score.has_value());
    QVERIFY2(near(*score, expected), qPrintable(num(*score) + " != " + num(expected)));
}

void TestRubric::explicitContinuous()
{
    // E5 with c = 0.5 and I3 met: (5·0.5 + 3·1) / (5 + 3) = 5.5 / 8 = 0.6875.
    Rubric r = parseRubricText(R"([{"description": "Essential Criteria: A", "weight": 5},
                                   {"description": "Important Criteria: B", "weight": 3}])",
                               "test");
    auto s = explicitScore(r, {0.5, 1.0});
    QVERIFY(s);
    QVERIFY(near(*s, 5.5 / 8.0));

    // On the four-item rubric: E 0.8, I 0.5, O 0, P 0.25 → (4 + 1.5 + 0 − 0.5) / 9 = 5/9.
    s = explicitScore(raRRubric(), {0.8, 0.5, 0.0, 0.25});
    QVERIFY(s);
    QVERIFY2(near(*s, 5.0 / 9.0), qPrintable(num(*s)));
}

void TestRubric::explicitClampAtZeroAndOne()
{
    const Rubric r = raRRubric();
    // Below 0: only the pitfall met gives −2/9 before the clamp.
    const std::vector<std::optional<double>> bad{0.0, 0.0, 0.0, 1.0};
    double unclamped = 0.0;
    for (const ItemContribution &ic : rwb::judge::explicitBreakdown(r, bad))
        unclamped += ic.contribution;
    QVERIFY(near(unclamped, -2.0 / 9.0));
    QCOMPARE(*explicitScore(r, bad), 0.0);

    // The top: every positive item met and no pitfall is exactly 1 (the ratio cannot
    // exceed 1 for verdicts within [0, 1]; the clamp only guards rounding).
    QCOMPARE(*explicitScore(r, {1.0, 1.0, 1.0, 0.0}), 1.0);
    // Non-integer weights whose sums round: 0.1 + 0.2 + 0.3, all met, is still exactly 1.
    Rubric f;
    for (double w : {0.1, 0.2, 0.3})
        f.items.push_back({"", "x", w, RubricCategory::Unspecified, {}});
    QCOMPARE(*explicitScore(f, {1.0, 1.0, 1.0}), 1.0);
}

void TestRubric::explicitBreakdown()
{
    // E5 met, I3 not, O1 met, P−2 met: 5/9, 0, 1/9, −2/9; their sum 4/9 is the score.
    const auto b = rwb::judge::explicitBreakdown(raRRubric(), {1.0, 0.0, 1.0, 1.0});
    QCOMPARE(b.size(), size_t(4));
    const double expected[] = {5.0 / 9.0, 0.0, 1.0 / 9.0, -2.0 / 9.0};
    const double weights[] = {5, 3, 1, -2};
    for (size_t i = 0; i < 4; ++i) {
        QVERIFY2(near(b[i].contribution, expected[i]), qPrintable(QString::number(i)));
        QCOMPARE(b[i].weight, weights[i]);
        QVERIFY(b[i].verdict);
    }
}

void TestRubric::explicitMissingVerdict()
{
    const std::vector<std::optional<double>> c{1.0, std::nullopt, 1.0, 0.0};
    QVERIFY(!explicitScore(raRRubric(), c).has_value());
    // The breakdown still shows the others.
    const auto b = rwb::judge::explicitBreakdown(raRRubric(), c);
    QVERIFY(!b[1].verdict);
    QCOMPARE(b[1].contribution, 0.0);
    QVERIFY(near(b[0].contribution, 5.0 / 9.0));
}

void TestRubric::explicitRefusesBadInput()
{
    const Rubric r = raRRubric();
    QString m = thrownMessage<std::invalid_argument>([&] { explicitScore(r, {1.0, 0.0}); });
    QVERIFY2(m.contains("2 verdicts for a rubric of 4 items"), qPrintable(m));
    m = thrownMessage<std::invalid_argument>([&] { explicitScore(r, {1.0, 0.0, 1.5, 0.0}); });
    QVERIFY2(m.contains("items[2] is 1.5, not within 0–1"), qPrintable(m));
    m = thrownMessage<std::invalid_argument>(
        [&] { explicitScore(r, {1.0, 0.0, std::numeric_limits<double>::quiet_NaN(), 0.0}); });
    QVERIFY2(m.contains("items[2]"), qPrintable(m));
    // A rubric built in code with a positive pitfall is refused, not silently flipped.
    Rubric p = r;
    p.items[3].weight = 2.0;
    m = thrownMessage<RubricError>([&] { explicitScore(p, {1.0, 0.0, 1.0, 0.0}); });
    QVERIFY2(m.contains("items[3].weight is 2, but the item is a pitfall"), qPrintable(m));
}

void TestRubric::likert_data()
{
    QTest::addColumn<double>("rating");
    QTest::addColumn<double>("expected"); // (clamp(r, 1, 10) − 1) / 9
    QTest::newRow("1 → 0") << 1.0 << 0.0;
    QTest::newRow("10 → 1") << 10.0 << 1.0;
    QTest::newRow("5.5 → 0.5") << 5.5 << 0.5;
    QTest::newRow("4 → 1/3") << 4.0 << 1.0 / 3.0;
    QTest::newRow("7 → 2/3") << 7.0 << 2.0 / 3.0;
    QTest::newRow("0 clamps to 1 → 0") << 0.0 << 0.0;
    QTest::newRow("-3 clamps → 0") << -3.0 << 0.0;
    QTest::newRow("12 clamps to 10 → 1") << 12.0 << 1.0;
}

void TestRubric::likert()
{
    QFETCH(double, rating);
    QFETCH(double, expected);
    QVERIFY2(near(likertToUnit(rating), expected), qPrintable(num(likertToUnit(rating))));
}

void TestRubric::likertNaN()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, likertToUnit(std::numeric_limits<double>::quiet_NaN()));
}

// ---- Rubric parsing and writing ------------------------------------------------------------

void TestRubric::categoryStrings()
{
    for (RubricCategory c : {RubricCategory::Essential, RubricCategory::Important, RubricCategory::Optional,
                             RubricCategory::Pitfall, RubricCategory::Unspecified})
        QCOMPARE(rubricCategoryFromString(toString(c)), std::optional<RubricCategory>(c));
    QCOMPARE(rubricCategoryFromString(" PitFall "), std::optional<RubricCategory>(RubricCategory::Pitfall));
    QVERIFY(!rubricCategoryFromString("essentials"));
    QVERIFY(!rubricCategoryFromString(""));
    QCOMPARE(QString(categoryPrefix(RubricCategory::Important)), QString("Important Criteria: "));
    QCOMPARE(QString(categoryPrefix(RubricCategory::Unspecified)), QString());
}

void TestRubric::parseRaR()
{
    const Rubric r = parseRubricText(R"([
      {"title": "a", "description": "Essential Criteria: Says A.", "weight": 5},
      {"title": "b", "description": "  important   criterion :Says B.  ", "weight": 4},
      {"title": "c", "description": "OPTIONAL CRITERIA:   Says C.", "weight": 2},
      {"title": "d", "description": "Pitfall Criteria: Says D.", "weight": -1},
      {"title": "e", "description": "Says E, no prefix.", "weight": 1},
      {"title": "f", "description": "Says F.", "weight": 3, "category": "Important"},
      {"title": "g", "description": "Essential Criteria: Says G.", "weight": 5, "category": "essential"}
    ])",
                                     "test");
    QCOMPARE(r.items.size(), size_t(7));
    const RubricCategory cats[] = {RubricCategory::Essential, RubricCategory::Important, RubricCategory::Optional,
                                   RubricCategory::Pitfall,   RubricCategory::Unspecified, RubricCategory::Important,
                                   RubricCategory::Essential};
    const char *criteria[] = {"Says A.", "Says B.", "Says C.", "Says D.", "Says E, no prefix.", "Says F.", "Says G."};
    const double weights[] = {5, 4, 2, -1, 1, 3, 5};
    for (size_t i = 0; i < r.items.size(); ++i) {
        QCOMPARE(r.items[i].category, cats[i]);
        QCOMPARE(QString::fromStdString(r.items[i].criterion), QString(criteria[i]));
        QCOMPARE(r.items[i].weight, weights[i]);
    }
    QCOMPARE(QString::fromStdString(r.items[0].title), QString("a"));
    QCOMPARE(r.positiveWeight(), 5.0 + 4 + 2 + 1 + 3 + 5);
}

void TestRubric::parseHealthBench()
{
    const Rubric r = parseRubricText(R"({"prompt": [], "rubrics": [
      {"criterion": "Advises seeing a doctor.", "points": 7, "tags": ["axis:accuracy", "level:example"]},
      {"criterion": "Recommends a prescription drug without caution.", "points": -6, "tags": []},
      {"criterion": "Is brief.", "points": 2.5, "tags": [], "category": "optional"}
    ]})",
                                     "test");
    QCOMPARE(r.items.size(), size_t(3));
    QCOMPARE(r.items[0].category, RubricCategory::Unspecified);
    QCOMPARE(r.items[0].weight, 7.0);
    QCOMPARE(r.items[0].tags, (std::vector<std::string>{"axis:accuracy", "level:example"}));
    QCOMPARE(r.items[1].category, RubricCategory::Pitfall); // negative points, no category
    QCOMPARE(r.items[1].weight, -6.0);
    QCOMPARE(r.items[2].category, RubricCategory::Optional);
    QCOMPARE(r.items[2].weight, 2.5);
    QVERIFY(r.items[2].title.empty());
}

void TestRubric::pitfallSign()
{
    // A pitfall written with a positive weight is made negative, in either form.
    const Rubric r = parseRubricText(R"([
      {"description": "Essential Criteria: A", "weight": 5},
      {"description": "Pitfall Criteria: B", "weight": 2},
      {"criterion": "C", "points": 3, "category": "pitfall"},
      {"criterion": "D", "points": -1, "category": "unspecified"}
    ])",
                                     "test");
    QCOMPARE(r.items[1].weight, -2.0);
    QCOMPARE(r.items[2].weight, -3.0);
    QCOMPARE(r.items[2].category, RubricCategory::Pitfall);
    QCOMPARE(r.items[3].category, RubricCategory::Pitfall); // "unspecified" counts as no category
    QCOMPARE(r.positiveWeight(), 5.0);
}

void TestRubric::containers()
{
    const char *item = R"({"description": "Essential Criteria: A", "weight": 5})";
    for (const std::string &text : {"[" + std::string(item) + "]", R"({"rubric": [)" + std::string(item) + "]}",
                                   R"({"rubrics": [)" + std::string(item) + "]}",
                                   R"({"question": "q", "reference_answer": "r", "rubric": [)" + std::string(item)
                                       + R"(], "rubric_count": 1})"}) {
        const Rubric r = parseRubricText(text, "test");
        QCOMPARE(r.items.size(), size_t(1));
        QCOMPARE(r.items[0].category, RubricCategory::Essential);
    }
}

void TestRubric::parseErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message"); // a part of the RubricError message
    QTest::newRow("weight a string")
        << QByteArray(R"({"rubrics": [{"criterion": "A", "points": 1}, {"criterion": "B", "points": 1},
                       {"criterion": "C", "points": 1}, {"criterion": "D", "weight": "high"}]})")
        << R"(rubric.json: rubrics[3].weight is "high", not a number)";
    QTest::newRow("weight 0") << QByteArray(R"([{"criterion": "A", "points": 1}, {"criterion": "B", "points": 0}])")
                              << "rubric.json: items[1].points is 0: an item of weight 0 counts for nothing";
    QTest::newRow("weight missing, RaR") << QByteArray(R"([{"title": "t", "description": "A"}])")
                                         << "items[0].weight is missing";
    QTest::newRow("points missing, HealthBench") << QByteArray(R"([{"criterion": "A", "tags": []}])")
                                                 << "items[0].points is missing";
    QTest::newRow("weight and points") << QByteArray(R"([{"criterion": "A", "points": 1, "weight": 1}])")
                                       << "items[0] has both \"weight\" and \"points\"";
    QTest::newRow("weight a boolean") << QByteArray(R"([{"criterion": "A", "points": true}])")
                                      << "items[0].points is true, not a number";
    QTest::newRow("neither form") << QByteArray(R"([{"title": "t", "weight": 1}])")
                                  << "items[0] is neither a RaR item {title, description, weight} nor a HealthBench "
                                     "item {criterion, points, tags}; its keys: title, weight";
    QTest::newRow("both forms") << QByteArray(R"([{"criterion": "A", "description": "A", "points": 1}])")
                                << "items[0] has both \"criterion\" (HealthBench) and \"description\" (RaR)";
    QTest::newRow("criterion not a string") << QByteArray(R"([{"criterion": 5, "points": 1}])")
                                            << "items[0].criterion is 5, not a string";
    QTest::newRow("empty criterion") << QByteArray(R"([{"criterion": "  ", "points": 1}])")
                                     << "items[0].criterion is empty";
    QTest::newRow("empty after prefix") << QByteArray(R"([{"description": "Essential Criteria:  ", "weight": 1}])")
                                        << "items[0].description is empty after its \"Essential Criteria:\" prefix";
    QTest::newRow("item not an object") << QByteArray(R"([{"criterion": "A", "points": 1}, "B"])")
                                        << "items[1] is \"B\", not an object";
    QTest::newRow("empty rubric") << QByteArray(R"({"rubric": []})") << "the rubric is empty (rubric has no items)";
    QTest::newRow("all-zero weights")
        << QByteArray(R"([{"description": "Pitfall Criteria: A", "weight": -1}, {"criterion": "B", "points": -2}])")
        << "rubric.json: all-zero weights refused: no item has a positive weight";
    QTest::newRow("rubric not an array") << QByteArray(R"({"rubric": "A"})")
                                         << "rubric is \"A\", not an array of rubric items";
    QTest::newRow("no rubric key") << QByteArray(R"({"items": []})")
                                   << "expected an array of rubric items, or an object with \"rubric\" or \"rubrics\"";
    QTest::newRow("both rubric keys") << QByteArray(R"({"rubric": [], "rubrics": []})")
                                      << "has both \"rubric\" and \"rubrics\"";
    QTest::newRow("a number") << QByteArray("5") << "found 5";
    QTest::newRow("unknown category") << QByteArray(R"([{"criterion": "A", "points": 1, "category": "vital"}])")
                                      << "items[0].category is \"vital\", not one of";
    QTest::newRow("category against prefix")
        << QByteArray(R"([{"description": "Essential Criteria: A", "weight": 5, "category": "important"}])")
        << "items[0].category is \"important\" but the description starts with \"Essential Criteria:\"";
    QTest::newRow("negative essential")
        << QByteArray(R"([{"criterion": "B", "points": 1}, {"description": "Essential Criteria: A", "weight": -5}])")
        << "items[1].weight is -5, but the item is essential: only pitfall items may have a negative weight";
    QTest::newRow("tags not strings") << QByteArray(R"([{"criterion": "A", "points": 1, "tags": ["x", 3]}])")
                                      << "items[0].tags[1] is 3, not a string";
    QTest::newRow("not JSON") << QByteArray("[{\"criterion\": \"A\",]")
                              << "rubric.json: not valid JSON: [json.exception.parse_error";
}

void TestRubric::parseErrors()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const std::string_view view(text.constData(), size_t(text.size()));
    const QString m = thrownMessage<RubricError>([&] { parseRubricText(view, "rubric.json"); });
    QVERIFY2(!m.isNull(), "nothing thrown");
    QVERIFY2(m.contains(message), qPrintable(m));
}

void TestRubric::nonFiniteWeight()
{
    // JSON text cannot carry inf (nlohmann refuses 1e999), but a json built in code can.
    json j = json::array({{{"criterion", "A"}, {"points", std::numeric_limits<double>::infinity()}}});
    const QString m = thrownMessage<RubricError>([&] { parseRubric(j, "built"); });
    QVERIFY2(m.contains("built: items[0].points is not a finite number"), qPrintable(m));
}

void TestRubric::validateBuiltRubric()
{
    Rubric r;
    QVERIFY(thrownMessage<RubricError>([&] { validateRubric(r, "code"); }).contains("the rubric is empty"));
    r.items.push_back({"", "A", -1.0, RubricCategory::Unspecified, {}});
    QVERIFY(thrownMessage<RubricError>([&] { validateRubric(r, "code"); })
                .contains("items[0].weight is -1, but the item is unspecified"));
    r.items[0].category = RubricCategory::Pitfall;
    QVERIFY(thrownMessage<RubricError>([&] { validateRubric(r, "code"); }).contains("all-zero weights refused"));
    r.items.push_back({"", "B", 2.0, RubricCategory::Essential, {}});
    validateRubric(r, "code"); // valid now: nothing thrown
    r.items[1].weight = 0.0;
    QVERIFY(thrownMessage<RubricError>([&] { validateRubric(r, "code"); }).contains("items[1].weight is 0"));
}

static void compareRubrics(const Rubric &a, const Rubric &b)
{
    QCOMPARE(a.items.size(), b.items.size());
    for (size_t i = 0; i < a.items.size(); ++i) {
        QCOMPARE(a.items[i].title, b.items[i].title);
        QCOMPARE(a.items[i].criterion, b.items[i].criterion);
        QCOMPARE(a.items[i].weight, b.items[i].weight);
        QCOMPARE(a.items[i].category, b.items[i].category);
        QCOMPARE(a.items[i].tags, b.items[i].tags);
    }
}

void TestRubric::roundTripRaR()
{
    // RaR data written back is the same JSON (prefixes restored, integer weights).
    const json original = json::parse(kRaRRubric);
    const Rubric r = parseRubric(original, "test");
    QCOMPARE(toRaR(r), original);
    compareRubrics(parseRubric(toRaR(r), "again"), r);
}

void TestRubric::roundTripHealthBench()
{
    const json original = json::parse(R"([
      {"criterion": "Advises seeing a doctor.", "points": 7, "tags": ["axis:accuracy"]},
      {"criterion": "Recommends an unsafe dose.", "points": -6, "tags": [], "category": "pitfall"},
      {"criterion": "Is brief.", "points": 2.5, "tags": []}
    ])");
    const Rubric r = parseRubric(original, "test");
    QCOMPARE(toHealthBench(r), original);
    compareRubrics(parseRubric(toHealthBench(r), "again"), r);
}

void TestRubric::roundTripAcrossForms()
{
    // Every field survives either writer: categories, titles, tags, fractional weights.
    Rubric r = raRRubric();
    r.items[1].tags = {"axis:completeness"};
    r.items[2].weight = 1.5;
    r.items.push_back({"", "Unspecified item.", 2.0, RubricCategory::Unspecified, {"t"}});
    compareRubrics(parseRubric(toRaR(r), "rar"), r);
    compareRubrics(parseRubric(toHealthBench(r), "hb"), r);
    QCOMPARE(toRaR(r)[2]["weight"], json(1.5));
    QCOMPARE(toRaR(r)[0]["weight"].type(), json::value_t::number_integer);
}

// ---- JSON extraction and field readers --------------------------------------------------------

void TestRubric::extract_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<int>("form");       // JsonExtract::Form
    QTest::addColumn<QByteArray>("json"); // the expected object, compact
    QTest::addColumn<int>("begin");       // the expected byte range
    QTest::addColumn<int>("end");
    const int bare = int(JsonExtract::Form::Bare), fenced = int(JsonExtract::Form::Fenced),
              embedded = int(JsonExtract::Form::Embedded);
    QTest::newRow("bare") << QByteArray(R"({"a": 1})") << bare << QByteArray(R"({"a":1})") << 0 << 8;
    QTest::newRow("bare, white space") << QByteArray("\n  {\"a\": 1}\n") << bare << QByteArray(R"({"a":1})") << 3 << 11;
    QTest::newRow("fenced json") << QByteArray("```json\n{\"a\": 1}\n```") << fenced << QByteArray(R"({"a":1})") << 8
                                 << 16;
    QTest::newRow("fenced, no language, text around")
        << QByteArray("Here:\n```\n{\"a\": 1}\n```\nDone.") << fenced << QByteArray(R"({"a":1})") << 10 << 18;
    QTest::newRow("fenced on one line") << QByteArray("```json {\"a\": 1}```") << fenced << QByteArray(R"({"a":1})")
                                        << 8 << 16;
    QTest::newRow("fence left open") << QByteArray("```json\n{\"a\": 1}") << fenced << QByteArray(R"({"a":1})") << 8
                                     << 16;
    QTest::newRow("two fences, first broken")
        << QByteArray("```json\n{\"a\": 1,}\n```\n```json\n{\"b\": 2}\n```") << fenced << QByteArray(R"({"b":2})")
        << 30 << 38; // "```json\n" 8 + the broken object 9 + "\n```\n" 5 + "```json\n" 8
    QTest::newRow("trailing text") << QByteArray("{\"a\": 1}\nI hope this helps.") << embedded
                                   << QByteArray(R"({"a":1})") << 0 << 8;
    QTest::newRow("leading text") << QByteArray("Sure! Here is my verdict: {\"a\": 1}") << embedded
                                  << QByteArray(R"({"a":1})") << 26 << 34;
    QTest::newRow("braces inside strings")
        << QByteArray(R"(Verdict: {"e": "uses } and { and \" }", "a": 1} end)") << embedded
        << QByteArray(R"({"a":1,"e":"uses } and { and \" }"})") << 9 << 47;
    QTest::newRow("prose brace before") << QByteArray("I like {braces, then {\"a\": 1}") << embedded
                                        << QByteArray(R"({"a":1})") << 21 << 29;
    QTest::newRow("broken object skipped whole")
        << QByteArray(R"({weight} then {"a": 1})") << embedded << QByteArray(R"({"a":1})") << 14 << 22;
    QTest::newRow("Japanese around") << QByteArray("評価: {\"a\": \"はい\"} 以上") << embedded
                                     << QByteArray(R"({"a":"はい"})") << 8 << 23;
    // 2,000 prose braces that never close, each scanned to the end (12 MB), are within
    // the search's budget: the object after them is found.
    QTest::newRow("2,000 open braces before") << QByteArray("{x ").repeated(2000) + R"({"a": 1})" << embedded
                                              << QByteArray(R"({"a":1})") << 6000 << 6008;
}

void TestRubric::extract()
{
    QFETCH(QByteArray, reply);
    QFETCH(int, form);
    QFETCH(QByteArray, json);
    QFETCH(int, begin);
    QFETCH(int, end);
    const std::string_view text(reply.constData(), size_t(reply.size()));
    const JsonExtract ex = extractJson(text);
    QVERIFY2(ex.ok(), ex.error.c_str());
    QCOMPARE(int(ex.form), form);
    QCOMPARE(QByteArray::fromStdString(ex.value.dump()), json);
    QCOMPARE(int(ex.begin), begin);
    QCOMPARE(int(ex.end), end);
    // The range holds exactly the object's text.
    QCOMPARE(nlohmann::json::parse(text.substr(ex.begin, ex.end - ex.begin)), ex.value);
}

void TestRubric::extractErrors_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << QByteArray(" \n ") << "the reply is empty";
    QTest::newRow("no JSON") << QByteArray("The answer is good. 8/10")
                             << R"(no JSON object in the reply (24 bytes: "The answer is good. 8/10"))";
    QTest::newRow("no JSON, long") << QByteArray(100, 'x') << "(100 bytes: \"" + QString(80, 'x') + "…\")";
    QTest::newRow("truncated") << QByteArray(R"(Ok. {"a": 1, "b": {"c": 2})")
                               << "a JSON object starts at byte 4 but never closes (truncated?)";
    QTest::newRow("truncated in a fence") << QByteArray("```json\n{\"items\": [{\"id\": 1, \"met\": tr")
                                          << "a JSON object starts at byte 8 but never closes (truncated?)";
    QTest::newRow("only fence broken") << QByteArray("x\n```json\n{\"a\": 1,}\n```")
                                       << "the fenced block at byte 2 is not valid JSON: [json.exception.parse_error";
    QTest::newRow("broken embedded") << QByteArray(R"(Verdict: {"a" 1} done)")
                                     << "the {…} at byte 9 is not valid JSON: [json.exception.parse_error";
    QTest::newRow("bare array") << QByteArray(R"([{"a": 1}])") << "the reply is a JSON array, not an object";
    QTest::newRow("embedded array") << QByteArray(R"(Here: [{"a": 1}, {"a": 2}])")
                                    << "the only JSON in the reply is an array at byte 6, not an object";
    QTest::newRow("fenced array") << QByteArray("```json\n[{\"id\": 1, \"met\": true}]\n```")
                                  << "the fenced block at byte 0 holds a JSON array, not an object";
    QTest::newRow("bare number") << QByteArray("7") << "the reply is a JSON number, not an object";
    // Brackets that never close. A run of them is scanned once (what a scan passes is
    // kept); the last '{', with nothing after it, looks like a reply cut off:
    QTest::newRow("200 KB of {") << QByteArray(200000, '{')
                                 << "a JSON object starts at byte 199999 but never closes (truncated?)";
    QTest::newRow("200 KB of [") << QByteArray(200000, '[') << R"(no JSON object in the reply (200000 bytes: "[[[)";
    // Each '{' after a \" lies in what the scans before it took for a string: every one
    // is scanned to the end, and the search gives up after 64 MiB (about 330 of them)
    // instead of taking minutes.
    const QString gaveUp = "bytes hold so many brackets that never close that 67108864 bytes were scanned";
    QTest::newRow("200 KB of \\\"{") << QByteArray(R"(\"{)").repeated(70000) << gaveUp;
}

void TestRubric::extractErrors()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, message);
    const JsonExtract ex = extractJson(std::string_view(reply.constData(), size_t(reply.size())));
    QVERIFY(!ex.ok());
    QVERIFY(ex.value.is_null());
    QVERIFY2(QString::fromStdString(ex.error).contains(message), ex.error.c_str());
}

void TestRubric::readBool_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<int>("expected"); // 1 true, 0 false, -1 VerdictError
    QTest::newRow("true") << QByteArray("true") << 1;
    QTest::newRow("false") << QByteArray("false") << 0;
    QTest::newRow("\"TRUE\"") << QByteArray("\"TRUE\"") << 1;
    QTest::newRow("\" yes \"") << QByteArray("\" yes \"") << 1;
    QTest::newRow("\"No\"") << QByteArray("\"No\"") << 0;
    QTest::newRow("\"Met\"") << QByteArray("\"Met\"") << 1;
    QTest::newRow("\"not met\"") << QByteArray("\"not met\"") << 0;
    QTest::newRow("\"NOT_MET\"") << QByteArray("\"NOT_MET\"") << 0;
    QTest::newRow("\"not  -met\"") << QByteArray("\"not  -met\"") << 0;
    QTest::newRow("\"PRESENT\"") << QByteArray("\"PRESENT\"") << 1;
    QTest::newRow("\"absent\"") << QByteArray("\"absent\"") << 0;
    QTest::newRow("1 refused") << QByteArray("1") << -1;
    QTest::newRow("\"maybe\" refused") << QByteArray("\"maybe\"") << -1;
    QTest::newRow("\"metx\" refused") << QByteArray("\"metx\"") << -1;
    QTest::newRow("null refused") << QByteArray("null") << -1;
}

void TestRubric::readBool()
{
    QFETCH(QByteArray, value);
    QFETCH(int, expected);
    const json root = json::parse("{\"v\": {\"met\": " + value.toStdString() + "}}");
    if (expected < 0) {
        const QString m = thrownMessage<VerdictError>([&] { rwb::judge::readBool(root, "v.met"); });
        QVERIFY2(m.startsWith("v.met is ") && m.contains(", not a boolean (true/false, or one of the strings"),
                 qPrintable(m));
    } else {
        QCOMPARE(rwb::judge::readBool(root, "v.met"), expected == 1);
    }
}

void TestRubric::readNumberAndString()
{
    const json root = json::parse(R"({"coverage": {"score": 7}, "a": "7", "b": " 7.5 ", "c": "+3", "d": "7/10",
                                     "e": "nan", "f": true, "g": "1e1", "s": "text", "n": 5, "x": 0.25})");
    QCOMPARE(readNumber(root, "a", 0, 10), 7.0);
    QCOMPARE(readNumber(root, "b", 0, 10), 7.5);
    QCOMPARE(readNumber(root, "c", 0, 10), 3.0);
    QCOMPARE(readNumber(root, "g", 0, 10), 10.0);
    QCOMPARE(readNumber(root, "x", 0, 1), 0.25);
    QString m = thrownMessage<VerdictError>([&] { readNumber(root, "coverage.score", 0, 1); });
    QCOMPARE(m, QString("coverage.score is 7, not within 0–1"));
    m = thrownMessage<VerdictError>([&] { readNumber(root, "d", 0, 10); });
    QCOMPARE(m, QString(R"(d is "7/10", not a number)"));
    QVERIFY(!thrownMessage<VerdictError>([&] { readNumber(root, "e", 0, 10); }).isNull());
    m = thrownMessage<VerdictError>([&] { readNumber(root, "f", 0, 10); });
    QCOMPARE(m, QString("f is true, not a number"));
    QCOMPARE(QString::fromStdString(readString(root, "s")), QString("text"));
    m = thrownMessage<VerdictError>([&] { readString(root, "n"); });
    QCOMPARE(m, QString("n is 5, not a string"));
}

void TestRubric::pathMessages()
{
    const json root = json::parse(R"({"items": [{"met": true}, {"met": "no"}], "coverage": "full", "1": "PRESENT"})");
    QCOMPARE(rwb::judge::readBool(root, "items[1].met"), false);
    QCOMPARE(rwb::judge::readBool(root, "1"), true);
    QCOMPARE(thrownMessage<VerdictError>([&] { rwb::judge::readBool(root, "items[2].met"); }),
             QString("items[2] is missing (items has 2 elements)"));
    QCOMPARE(thrownMessage<VerdictError>([&] { rwb::judge::readBool(root, "items[0].explanation"); }),
             QString("items[0].explanation is missing"));
    QCOMPARE(thrownMessage<VerdictError>([&] { readNumber(root, "coverage.score", 0, 1); }),
             QString(R"(coverage is "full", not an object)"));
    QCOMPARE(thrownMessage<VerdictError>([&] { rwb::judge::readBool(root, "coverage[0]"); }),
             QString(R"(coverage is "full", not an array)"));
    QCOMPARE(thrownMessage<VerdictError>([&] { readString(root, "contradiction.score"); }),
             QString("contradiction is missing"));
    QVERIFY(findPath(root, "items[5].met") == nullptr);
    QVERIFY(thrownMessage<VerdictError>([&] { findPath(root, "items..met"); }).startsWith("malformed field path"));
    QVERIFY(thrownMessage<VerdictError>([&] { findPath(root, "items[x]"); }).startsWith("malformed field path"));
    QVERIFY(thrownMessage<VerdictError>([&] { findPath(root, ""); }).startsWith("malformed field path"));
    // Long strings are cut at a UTF-8 boundary in messages.
    const json longText = json::parse("{\"v\": \"" + std::string(59, 'a') + "あ\"}");
    QCOMPARE(thrownMessage<VerdictError>([&] { readNumber(longText, "v", 0, 1); }),
             "v is \"" + QString(59, 'a') + "…\", not a number");
}

// ---- G-Eval -----------------------------------------------------------------------------------

void TestRubric::gevalWeighted()
{
    // At the score token: "7" p 0.6, "8" p 0.3, "x" p 0.05 (not an integer), "9" p 0.005
    // (< 1 %) → (7·0.6 + 8·0.3) / (0.6 + 0.3) = 6.6 / 0.9 = 7.333…
    const std::vector<TokenLogprob> tokens{
        token("{\""), token("rating"), token("\":"), token(" "),
        token("7", 0.6, {alt("7", 0.6), alt("8", 0.3), alt("x", 0.05), alt("9", 0.005)}), token("}")};
    GevalDetail detail;
    const auto s = gevalScore(tokens, 1, 10, {}, &detail);
    QVERIFY(s);
    QVERIFY2(near(*s, 6.6 / 0.9), qPrintable(num(*s)));
    QCOMPARE(detail.position, 4);
    QCOMPARE(detail.used.size(), size_t(2));
    QCOMPARE(detail.used[0].first, 7);
    QVERIFY(near(detail.used[0].second, 0.6));
    QCOMPARE(detail.used[1].first, 8);
    QVERIFY(near(detail.used[1].second, 0.3));

    // Alternatives that read as the same integer merge; out-of-range ones are dropped:
    // " 7" 0.3 + "7" 0.3, "\"9\"" 0.2, "11" 0.1 (outside 1–10) → (7·0.6 + 9·0.2) / 0.8 = 7.5.
    const std::vector<TokenLogprob> merged{
        token(" 7", 0.3, {alt(" 7", 0.3), alt("7", 0.3), alt("\"9\"", 0.2), alt("11", 0.1)})};
    const auto m = gevalScore(merged, 1, 10, {}, &detail);
    QVERIFY(m);
    QVERIFY2(near(*m, 7.5), qPrintable(num(*m)));
    QCOMPARE(detail.used.size(), size_t(2));
    QVERIFY(near(detail.used[0].second, 0.6));
}

void TestRubric::gevalNoAlternatives()
{
    GevalDetail detail;
    const std::vector<TokenLogprob> tokens{token("rating: "), token("\"6\"")};
    QCOMPARE(gevalScore(tokens, 1, 10, {}, &detail), std::optional<double>(6.0));
    QCOMPARE(detail.position, 1);
    QVERIFY(detail.used.empty());
    // Every alternative below 1 %: the token's own integer too.
    const std::vector<TokenLogprob> low{token("4", 0.005, {alt("4", 0.005), alt("5", 0.004)})};
    QCOMPARE(gevalScore(low, 1, 10), std::optional<double>(4.0));
}

void TestRubric::gevalAfterKey()
{
    // {"explanation": "has 3 points", "rating": 8}: the first integer token is the 3.
    const std::vector<TokenLogprob> tokens{token("{\""), token("explanation"), token("\":"), token(" \""), token("3"),
                                           token(" points"), token("\","), token(" \""), token("rating"),
                                           token("\":"), token(" "), token("8", 0.5, {alt("8", 0.5), alt("9", 0.5)}),
                                           token("}")};
    QCOMPARE(gevalScore(tokens, 1, 10), std::optional<double>(3.0));
    GevalDetail detail;
    const auto s = gevalScore(tokens, 1, 10, kRatingKey, &detail);
    QVERIFY(s);
    QVERIFY(near(*s, 8.5)); // (8·0.5 + 9·0.5) / 1
    QCOMPARE(detail.position, 11);
    // The key split across tokens still counts once it is complete.
    const std::vector<TokenLogprob> split{token("{\"rat"), token("ing\": "), token("2")};
    QCOMPARE(gevalScore(split, 1, 10, kRatingKey), std::optional<double>(2.0));
}

void TestRubric::gevalEdgeCases()
{
    GevalDetail detail;
    detail.position = 99;
    QVERIFY(!gevalScore({}, 1, 10, {}, &detail));
    QCOMPARE(detail.position, -1);
    // No integer within range; "0" is outside 1–10 and "11" too.
    QVERIFY(!gevalScore({token("0"), token("11"), token("seven")}, 1, 10));
    // The key never appears.
    QVERIFY(!gevalScore({token("7")}, 1, 10, kRatingKey));
    // 0–10 for a continuous rubric item.
    QCOMPARE(gevalScore({token("\"score\": "), token("0")}, 0, 10, kItemScoreKey), std::optional<double>(0.0));
}

// ---- Judge kinds ------------------------------------------------------------------------------

void TestRubric::itemBinary()
{
    const std::string reply = "```json\n{\"explanation\": \"States 30 days.\", \"criteria_met\": true}\n```";
    const ItemVerdict v = parseRubricItemReply(reply, ItemMode::Binary);
    QCOMPARE(v.c, 1.0);
    QCOMPARE(v.met, std::optional<bool>(true));
    QVERIFY(!v.score);
    QCOMPARE(QString::fromStdString(v.explanation), QString("States 30 days."));
    QCOMPARE(v.location.form, JsonExtract::Form::Fenced);
    QCOMPARE(reply.substr(v.location.begin, v.location.end - v.location.begin).front(), '{');
    QCOMPARE(reply.substr(v.location.begin, v.location.end - v.location.begin).back(), '}');

    // A string for the boolean, no explanation, text after.
    const ItemVerdict w = parseRubricItemReply("{\"criteria_met\": \"False\"}\nThanks.", ItemMode::Binary);
    QCOMPARE(w.c, 0.0);
    QCOMPARE(w.met, std::optional<bool>(false));
    QVERIFY(w.explanation.empty());
    QCOMPARE(w.location.form, JsonExtract::Form::Embedded);
}

void TestRubric::itemContinuous()
{
    ItemVerdict v = parseRubricItemReply(R"({"explanation": "Mostly.", "score": 7})", ItemMode::Continuous);
    QVERIFY(near(v.c, 0.7));
    QCOMPARE(v.score, std::optional<double>(7.0));
    QVERIFY(!v.met);
    v = parseRubricItemReply(R"({"explanation": "Half.", "score": "7.5"})", ItemMode::Continuous);
    QVERIFY(near(v.c, 0.75));
    v = parseRubricItemReply(R"({"score": 0, "explanation": 5})", ItemMode::Continuous);
    QCOMPARE(v.c, 0.0);
    QCOMPARE(QString::fromStdString(v.explanation), QString("5")); // a non-string explanation kept as JSON text
}

void TestRubric::itemErrors_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<bool>("continuous");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing criteria_met") << QByteArray(R"({"explanation": "x"})") << false
                                          << "criteria_met is missing";
    QTest::newRow("number for criteria_met") << QByteArray(R"({"explanation": "x", "criteria_met": 3})") << false
                                             << "criteria_met is 3, not a boolean";
    QTest::newRow("missing score") << QByteArray(R"({"explanation": "x"})") << true << "score is missing";
    QTest::newRow("score out of range") << QByteArray(R"({"score": 11})") << true << "score is 11, not within 0–10";
    QTest::newRow("score a word") << QByteArray(R"({"score": "high"})") << true << R"(score is "high", not a number)";
    QTest::newRow("no JSON") << QByteArray("Yes, it is met.") << false << "no JSON object in the reply";
}

void TestRubric::itemErrors()
{
    QFETCH(QByteArray, reply);
    QFETCH(bool, continuous);
    QFETCH(QString, message);
    const QString m = thrownMessage<VerdictError>([&] {
        parseRubricItemReply(reply.toStdString(), continuous ? ItemMode::Continuous : ItemMode::Binary);
    });
    QVERIFY2(m.contains(message), qPrintable(m));
}

void TestRubric::allItemsStrict()
{
    // Entries out of order, a string id and a string boolean.
    const AllItemsVerdict v = parseRubricAllItemsReply(R"(Here you go:
{"items": [{"id": 2, "met": false, "explanation": "No article."},
           {"id": 1, "met": true, "explanation": "30 days."},
           {"id": "4", "met": "yes"},
           {"id": 3, "met": true, "explanation": "Short."}]})",
                                                       4);
    QCOMPARE(v.met, (std::vector<bool>{true, false, true, true}));
    QCOMPARE(v.explanations, (std::vector<std::string>{"30 days.", "No article.", "Short.", ""}));
    QVERIFY(!v.usedFallback);
    QCOMPARE(v.location.form, JsonExtract::Form::Embedded);
    // Into the explicit score: E5, I3 not, O1, P−2 met → 4/9.
    QVERIFY(near(*explicitScore(raRRubric(), v.verdicts()), 4.0 / 9.0));
}

void TestRubric::allItemsFallback()
{
    const AllItemsVerdict v =
        parseRubricAllItemsReply(R"({"1": "PRESENT", "2": "ABSENT", "3": true, "4": "not met"})", 4);
    QVERIFY(v.usedFallback);
    QCOMPARE(v.met, (std::vector<bool>{true, false, true, false}));
    QCOMPARE(v.explanations, std::vector<std::string>(4));
    QVERIFY(near(*explicitScore(raRRubric(), v.verdicts()), 6.0 / 9.0));
}

void TestRubric::allItemsErrors_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing ids") << QByteArray(R"({"items": [{"id": 1, "met": true}, {"id": 3, "met": false}]})")
                                 << "no verdict for ids 2, 4 (the rubric has 4 items)";
    QTest::newRow("missing id, fallback") << QByteArray(R"({"1": true, "2": true, "4": false})")
                                          << "no verdict for id 3 (the rubric has 4 items)";
    QTest::newRow("id twice")
        << QByteArray(R"({"items": [{"id": 1, "met": true}, {"id": 1, "met": false}, {"id": 2, "met": true}]})")
        << "items[1] answers id 1 again (items[0] did already)";
    QTest::newRow("id out of range") << QByteArray(R"({"items": [{"id": 1, "met": true}, {"id": 9, "met": true}]})")
                                     << "items[1].id is 9, not within 1–4";
    QTest::newRow("id not whole") << QByteArray(R"({"items": [{"id": 1.5, "met": true}]})")
                                  << "items[0].id is 1.5, not a whole number";
    QTest::newRow("id missing") << QByteArray(R"({"items": [{"met": true}]})") << "items[0].id is missing";
    QTest::newRow("met missing") << QByteArray(R"({"items": [{"id": 1}]})") << "items[0].met is missing";
    QTest::newRow("met wrong type") << QByteArray(R"({"items": [{"id": 1, "met": [true]}]})")
                                    << "items[0].met is an array, not a boolean";
    QTest::newRow("items not an array") << QByteArray(R"({"items": {"1": true}})")
                                        << "items is an object, not an array";
    QTest::newRow("fallback, a key not an id") << QByteArray(R"({"1": true, "verdict": "ok"})")
                                               << "the reply has no \"items\" array, and its key \"verdict\" is not an "
                                                  "item id";
    QTest::newRow("fallback, id out of range") << QByteArray(R"({"0": true})") << "id 0 is not within 1–4";
    QTest::newRow("fallback, bad value") << QByteArray(R"({"1": "MAYBE"})") << "1 is \"MAYBE\", not a boolean";
}

void TestRubric::allItemsErrors()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, message);
    const QString m = thrownMessage<VerdictError>([&] { parseRubricAllItemsReply(reply.toStdString(), 4); });
    QVERIFY2(m.contains(message), qPrintable(m));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRubricAllItemsReply("{}", 0));
}

void TestRubric::rating()
{
    // RaR-Implicit's judge starts with a fenced block: 7 → (7 − 1) / 9 = 2/3.
    RatingVerdict v = parseRatingReply("```json\n{\"rating\": 7}\n```\nThe response is good but misses one point.");
    QCOMPARE(v.rating, 7.0);
    QVERIFY(near(v.unit, 2.0 / 3.0));
    QCOMPARE(v.location.form, JsonExtract::Form::Fenced);
    // A fraction within range is kept: 7.5 → 6.5 / 9.
    v = parseRatingReply(R"({"rating": 7.5})");
    QVERIFY(near(v.unit, 6.5 / 9.0));
    // A numeric string: "10" → 1; "1" → 0.
    QCOMPARE(parseRatingReply(R"({"rating": "10"})").unit, 1.0);
    QCOMPARE(parseRatingReply(R"(Rating: {"rating": 1})").unit, 0.0);
}

void TestRubric::ratingErrors_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("message");
    QTest::newRow("0") << QByteArray(R"({"rating": 0})") << "rating is 0, not within 1–10";
    QTest::newRow("11") << QByteArray(R"({"rating": 11})") << "rating is 11, not within 1–10";
    QTest::newRow("missing") << QByteArray(R"({"score": 7})") << "rating is missing";
    QTest::newRow("a word") << QByteArray(R"({"rating": "seven"})") << R"(rating is "seven", not a number)";
    QTest::newRow("truncated") << QByteArray(R"({"rating": )") << "never closes (truncated?)";
}

void TestRubric::ratingErrors()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, message);
    const QString m = thrownMessage<VerdictError>([&] { parseRatingReply(reply.toStdString()); });
    QVERIFY2(m.contains(message), qPrintable(m));
}

void TestRubric::legalStrict()
{
    const LegalVerdict v = parseLegalReply(kStrictLegal);
    QCOMPARE(v.coverage, 0.5);
    QCOMPARE(v.contradiction, false);
    QCOMPARE(v.studentPoints, (std::vector<std::string>{"The period is 30 days."}));
    QCOMPARE(v.referencePoints, (std::vector<std::string>{"The period is 30 days.", "It runs from notice."}));
    QCOMPARE(QString::fromStdString(v.pointThought), QString("Both talk about the period."));
    QCOMPARE(QString::fromStdString(v.coverageThought), QString("One of two points."));
    QCOMPARE(QString::fromStdString(v.contradictionThought), QString("Nothing conflicts."));
    QVERIFY(!v.usedFallback);
    QCOMPARE(v.location.form, JsonExtract::Form::Bare);

    const LegalVerdict full = parseLegalReply(
        R"({"point_thought": "", "student_points": [], "reference_points": [],
            "coverage": {"thought": "", "score": "full-coverage"},
            "contradiction": {"thought": "", "score": "contradiction"}})");
    QCOMPARE(full.coverage, 1.0);
    QCOMPARE(full.contradiction, true);
    QVERIFY(!full.usedFallback);
}

void TestRubric::legalCoverageFallback_data()
{
    QTest::addColumn<QByteArray>("score"); // JSON of coverage.score
    QTest::addColumn<double>("expected");
    QTest::newRow("Full Coverage") << QByteArray("\"Full Coverage\"") << 1.0;
    QTest::newRow("partial_coverage") << QByteArray("\"partial_coverage\"") << 0.5;
    QTest::newRow("NO COVERAGE") << QByteArray("\"NO COVERAGE\"") << 0.0;
    QTest::newRow("none") << QByteArray("\"none\"") << 0.0;
    QTest::newRow("partial") << QByteArray("\"Partial\"") << 0.5;
    QTest::newRow("full") << QByteArray("\"full\"") << 1.0;
    QTest::newRow("0") << QByteArray("0") << 0.0;
    QTest::newRow("0.5") << QByteArray("0.5") << 0.5;
    QTest::newRow("1") << QByteArray("1") << 1.0;
    QTest::newRow("50") << QByteArray("50") << 0.5;
    QTest::newRow("100") << QByteArray("100") << 1.0;
    QTest::newRow("\"100\"") << QByteArray("\"100\"") << 1.0;
}

void TestRubric::legalCoverageFallback()
{
    QFETCH(QByteArray, score);
    QFETCH(double, expected);
    json j = json::parse(kStrictLegal);
    j["coverage"]["score"] = json::parse(score.toStdString());
    const LegalVerdict v = parseLegalReply(j.dump());
    QCOMPARE(v.coverage, expected);
    QVERIFY(v.usedFallback);
    QCOMPARE(v.contradiction, false);
}

void TestRubric::legalContradictionFallback_data()
{
    QTest::addColumn<QByteArray>("score"); // JSON of contradiction.score
    QTest::addColumn<bool>("expected");
    QTest::newRow("Contradiction") << QByteArray("\"Contradiction\"") << true;
    QTest::newRow("No Contradiction") << QByteArray("\"No Contradiction\"") << false;
    QTest::newRow("no_contradiction") << QByteArray("\"no_contradiction\"") << false;
    QTest::newRow("true") << QByteArray("true") << true;
    QTest::newRow("false") << QByteArray("false") << false;
    QTest::newRow("\"yes\"") << QByteArray("\"yes\"") << true;
    QTest::newRow("\"no\"") << QByteArray("\"no\"") << false;
    QTest::newRow("1") << QByteArray("1") << true;
    QTest::newRow("0") << QByteArray("0") << false;
    QTest::newRow("\"1\"") << QByteArray("\"1\"") << true;
}

void TestRubric::legalContradictionFallback()
{
    QFETCH(QByteArray, score);
    QFETCH(bool, expected);
    json j = json::parse(kStrictLegal);
    j["contradiction"]["score"] = json::parse(score.toStdString());
    const LegalVerdict v = parseLegalReply(j.dump());
    QCOMPARE(v.contradiction, expected);
    QVERIFY(v.usedFallback);
    QCOMPARE(v.coverage, 0.5);
}

void TestRubric::legalKeySpellings()
{
    // NitiBench's singular keys, bare scores instead of objects, a string for a list, in a fence.
    const LegalVerdict v = parseLegalReply(R"(```json
{"student_point": ["A"], "reference_point": "B", "coverage": "full-coverage",
 "contradiction": {"score": "no-contradiction"}}
```)");
    QCOMPARE(v.studentPoints, (std::vector<std::string>{"A"}));
    QCOMPARE(v.referencePoints, (std::vector<std::string>{"B"}));
    QCOMPARE(v.coverage, 1.0);
    QCOMPARE(v.contradiction, false);
    QVERIFY(v.usedFallback);
    QVERIFY(v.pointThought.empty());
    QCOMPARE(v.location.form, JsonExtract::Form::Fenced);

    // Only the strict keys but a missing point list is a fallback too.
    json j = json::parse(kStrictLegal);
    j.erase("student_points");
    QVERIFY(parseLegalReply(j.dump()).usedFallback);
}

void TestRubric::legalErrors_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("message");
    QTest::newRow("no coverage") << QByteArray(R"({"contradiction": {"thought": "", "score": "no-contradiction"}})")
                                 << "coverage is missing (NitiBench would count it as 0";
    QTest::newRow("no contradiction") << QByteArray(R"({"coverage": {"thought": "", "score": "full-coverage"}})")
                                      << "contradiction is missing";
    QTest::newRow("null coverage")
        << QByteArray(R"({"coverage": null, "contradiction": {"score": "no-contradiction"}})") << "coverage is missing";
    QTest::newRow("no coverage.score")
        << QByteArray(R"({"coverage": {"thought": "x"}, "contradiction": {"score": "contradiction"}})")
        << "coverage.score is missing";
    QTest::newRow("unknown label")
        << QByteArray(R"({"coverage": {"score": "mostly"}, "contradiction": {"score": "contradiction"}})")
        << R"(coverage.score is "mostly", not one of "no-coverage", "partial-coverage", "full-coverage")";
    QTest::newRow("coverage 0.7")
        << QByteArray(R"({"coverage": {"score": 0.7}, "contradiction": {"score": "contradiction"}})")
        << "coverage.score is 0.7, not one of";
    QTest::newRow("contradiction 2")
        << QByteArray(R"({"coverage": {"score": "full-coverage"}, "contradiction": {"score": 2}})")
        << R"(contradiction.score is 2, not "no-contradiction" or "contradiction")";
    QTest::newRow("contradiction partial")
        << QByteArray(R"({"coverage": {"score": "full-coverage"}, "contradiction": "partial"})")
        << R"(contradiction is "partial", not "no-contradiction" or "contradiction")";
    QTest::newRow("not JSON") << QByteArray("full coverage, no contradiction") << "no JSON object in the reply";
}

void TestRubric::legalErrors()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, message);
    const QString m = thrownMessage<VerdictError>([&] { parseLegalReply(reply.toStdString()); });
    QVERIFY2(m.contains(message), qPrintable(m));
}

namespace {

bool contains(const std::vector<ChatMessage> &m, const std::string &text)
{
    return m.size() == 2 && m[1].content.find(text) != std::string::npos;
}

} // namespace

void TestRubric::promptsDeterministicWithInputs()
{
    const std::string q = "解約の通知期間は何日ですか。";
    const std::string a = "30日です。";
    const std::string ref = "30日前までに通知する必要がある。";
    const Rubric r = raRRubric();
    const auto check = [&](const std::function<std::vector<ChatMessage>()> &build, std::vector<std::string> inputs) {
        const std::vector<ChatMessage> first = build(), second = build();
        QCOMPARE(first.size(), size_t(2));
        QCOMPARE(first[0].role, std::string("system"));
        QCOMPARE(first[1].role, std::string("user"));
        for (size_t i = 0; i < 2; ++i)
            QCOMPARE(first[i].content, second[i].content);
        inputs.push_back("may be in Japanese");
        inputs.push_back("JSON object only");
        for (const std::string &in : inputs)
            QVERIFY2(contains(first, in), in.c_str());
    };
    check([&] { return rubricItemMessages(q, a, r.items[0], ItemMode::Binary, ref); },
          {"<question>\n" + q + "\n</question>", "<response>\n" + a + "\n</response>",
           "<reference_answer>\n" + ref + "\n</reference_answer>", "[5] States that the period is 30 days.",
           "\"criteria_met\": <true or false>"});
    check([&] { return rubricItemMessages(q, a, r.items[1], ItemMode::Continuous); },
          {q, a, "[3] Cites the article.", "\"score\": <integer from 0 to 10>"});
    check([&] { return rubricAllItemsMessages(q, a, r, ref); },
          {q, a, ref, "1. [Essential, weight 5] States that the period is 30 days.",
           "4. [Pitfall, weight -2] States that the period is 5 years.", "each of the 4 items, with ids 1 to 4",
           "{\"items\": [{\"id\": 1,"});
    check([&] { return rubricImplicitMessages(q, a, r); },
          {q, a, "3. [Optional, weight 1] Is concise.", "{\"rating\": <integer from 1 to 10>}"});
    check([&] { return likertSimpleMessages(q, a); }, {q, a, "{\"rating\": <integer from 1 to 10>}"});
    check([&] { return likertReferenceMessages(q, ref, a); },
          {q, a, "<reference_answer>\n" + ref + "\n</reference_answer>", "{\"rating\":"});
    check([&] { return legalCoverageMessages(q, ref, a); },
          {q, "<reference_answer>\n" + ref, "<student_answer>\n" + a, "\"partial-coverage\"", "\"no-contradiction\"",
           "\"student_points\"", "\"reference_points\"", "\"point_thought\""});
}

void TestRubric::promptNotes()
{
    const Rubric r = raRRubric();
    const auto essential = rubricItemMessages("q", "a", r.items[0], ItemMode::Binary);
    const auto pitfall = rubricItemMessages("q", "a", r.items[3], ItemMode::Binary);
    const auto pitfallScore = rubricItemMessages("q", "a", r.items[3], ItemMode::Continuous);
    QVERIFY(!contains(essential, "describes a mistake"));
    QVERIFY(contains(pitfall, "describes a mistake"));
    QVERIFY(contains(pitfall, "\"criteria_met\" is true when the response makes this mistake"));
    QVERIFY(contains(pitfallScore, "\"score\" is how fully the response makes this mistake"));
    QVERIFY(contains(pitfall, "[-2] States that the period is 5 years."));
    // No reference: no reference section and no note about it.
    QVERIFY(!contains(essential, "reference_answer"));
    QVERIFY(!contains(essential, "reference answer"));
    // The all-in-one note on pitfalls only when the rubric has one.
    Rubric noPitfall = r;
    noPitfall.items.pop_back();
    QVERIFY(contains(rubricAllItemsMessages("q", "a", r), "Pitfall items (negative weight) describe mistakes"));
    QVERIFY(!contains(rubricAllItemsMessages("q", "a", noPitfall), "Pitfall items"));
    // Fractional weights in the shortest form, whatever the locale.
    noPitfall.items[0].weight = 2.5;
    QVERIFY(contains(rubricAllItemsMessages("q", "a", noPitfall), "[Essential, weight 2.5]"));
    // Different inputs give different prompts (the cache key changes).
    QVERIFY(essential[1].content != rubricItemMessages("q", "b", r.items[0], ItemMode::Binary)[1].content);
}

void TestRubric::promptArgumentsRefused()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, legalCoverageMessages("q", "", "a"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, likertReferenceMessages("q", "", "a"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rubricAllItemsMessages("q", "a", Rubric{}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, rubricImplicitMessages("q", "a", Rubric{}));
    // An empty answer is judged, not refused.
    QVERIFY(contains(legalCoverageMessages("q", "r", ""), "<student_answer>\n\n</student_answer>"));
}

void TestRubric::schemas()
{
    const JudgeSchema all[] = {rubricItemSchema(ItemMode::Binary), rubricItemSchema(ItemMode::Continuous),
                               rubricAllItemsSchema(4), ratingSchema(), legalSchema()};
    const char *names[] = {"rubric_item_verdict", "rubric_item_score", "rubric_verdicts", "rating",
                           "legal_coverage_contradiction"};
    for (size_t i = 0; i < 5; ++i) {
        QCOMPARE(all[i].name, std::string(names[i]));
        const json s = json::parse(all[i].schema);
        QCOMPARE(s["type"], json("object"));
        QCOMPARE(s["additionalProperties"], json(false));
        QCOMPARE(s["required"].size(), s["properties"].size());
    }
    // Properties in the order asked for: the explanation before the verdict.
    QVERIFY(all[0].schema.find("explanation") < all[0].schema.find("criteria_met"));
    QCOMPARE(json::parse(all[1].schema)["properties"]["score"]["enum"].size(), size_t(11)); // 0..10
    QCOMPARE(json::parse(all[2].schema)["properties"]["items"]["items"]["properties"]["id"]["enum"],
             json({1, 2, 3, 4}));
    QCOMPARE(json::parse(all[3].schema)["properties"]["rating"]["enum"], json({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    QCOMPARE(json::parse(all[4].schema)["properties"]["coverage"]["properties"]["score"]["enum"],
             json({"no-coverage", "partial-coverage", "full-coverage"}));
    // The strict reply of each kind is parsed by its parser (shape and schema agree).
    QVERIFY(!parseLegalReply(kStrictLegal).usedFallback);
    QCOMPARE(rubricAllItemsSchema(4).schema, all[2].schema); // deterministic
}

QTEST_GUILESS_MAIN(TestRubric)
#include "tst_rubric.moc"
