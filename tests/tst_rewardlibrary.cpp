// core/reward/library: the twelve generic reward components. Every expected value is worked
// out by hand from the definitions in docs/rewards.md, the working in a comment beside the
// row; tolerance 1e-9. Each score is checked against explain() (value, key, args, name) and
// the workbench's sentence for its key (widgets/rewardtext.cpp) against core's English.
#include "data/jsonl.h"
#include "reward/compositereward.h"
#include "reward/library/libraryreward.h"
#include "reward/library/library.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "rewardtext.h"
#include "task/catalog.h"
#include "text/regex.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace rwb;
using namespace rwb::reward;

namespace {

// Absolute tolerance for reward values.
constexpr double kTol = 1e-9;

// An example built in code: only its gold.
class PlainExample : public task::Example {
public:
    explicit PlainExample(std::string gold, std::string id = "plain-1") : m_id(std::move(id)), m_gold(std::move(gold)) {}
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    std::string metaJson() const override { return "{}"; }

private:
    std::string m_id;
    std::string m_gold;
};

// An example of a user's task: a record whose fields are columns (dotted paths reach into
// objects; a string as it is, anything else as its JSON text).
class RecordExampleForTest : public task::Example, public task::RecordExample {
public:
    RecordExampleForTest(const char *recordJson, std::string gold)
        : m_record(nlohmann::json::parse(recordJson)), m_recordText(m_record.dump()), m_gold(std::move(gold))
    {
    }
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    std::string metaJson() const override { return "{}"; }
    const std::string &recordJson() const override { return m_recordText; }
    std::optional<std::string> column(std::string_view path) const override
    {
        const nlohmann::json *at = &m_record;
        size_t start = 0;
        while (true) {
            const size_t dot = path.find('.', start);
            const std::string key(path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
            if (!at->is_object() || !at->contains(key))
                return std::nullopt;
            at = &(*at)[key];
            if (dot == std::string_view::npos)
                break;
            start = dot + 1;
        }
        return at->is_string() ? at->get<std::string>() : at->dump();
    }
    std::string promptJson() const override { return "\"\""; }

private:
    std::string m_id = "rec-7";
    nlohmann::json m_record;
    std::string m_recordText;
    std::string m_gold;
};

class TestCompletion : public task::Completion {
public:
    TestCompletion(std::string text, std::string answer) : m_text(std::move(text)), m_answer(std::move(answer)) {}
    const std::string &text() const override { return m_text; }
    const std::string &answer() const override { return m_answer; }

private:
    std::string m_text;
    std::string m_answer;
};

const Registry &libraryRegistry()
{
    static const Registry r = [] {
        Registry registry;
        addLibraryRewards(registry);
        return registry;
    }();
    return r;
}

std::unique_ptr<Reward> make(const std::string &name, const std::string &options = {}, const std::string &label = {},
                             const std::string &baseDir = {})
{
    RewardOptions o;
    o.componentOptions = options;
    o.label = label;
    o.baseDir = baseDir;
    return libraryRegistry().create(name, o);
}

// What one scoring gave, and what did not hold between score() and explain() ("" = all did).
struct Scored {
    double value = 0.0;
    Explanation x;
    std::string problem;
};

Scored run(const Reward &r, const task::Example &e, const std::string &text, const std::string &answer)
{
    const TestCompletion c(text, answer);
    Scored s;
    s.value = r.score(e, c);
    s.x = r.explain(e, c);
    const bool same = isNone(s.value) ? isNone(s.x.value) : std::abs(s.x.value - s.value) <= kTol;
    if (!same)
        s.problem = "explain() " + std::to_string(s.x.value) + " differs from score() " + std::to_string(s.value);
    else if (s.x.reason != Reason::Library || s.x.reward != r.name() || s.x.key.empty())
        s.problem = "explain() lacks Reason::Library, the reward's name or a key";
    else if (s.x.detail != libraryDetail(s.x.key, s.x.args))
        s.problem = "detail is not the key's sentence";
    else if (RewardText::explanation(s.x).toStdString() != s.x.detail)
        s.problem = "the workbench's sentence for " + s.x.key + " differs from core's: " +
                    RewardText::explanation(s.x).toStdString();
    return s;
}

std::string optionError(const std::string &name, const std::string &options, const std::string &baseDir = {})
{
    try {
        make(name, options, {}, baseDir);
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return "(no error)";
}

QStringList toList(const std::vector<std::string> &v)
{
    QStringList out;
    for (const std::string &s : v)
        out << QString::fromStdString(s);
    return out;
}

QString u(const char *utf8)
{
    return QString::fromUtf8(utf8);
}

} // namespace

class TestRewardLibrary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void exactMatch_data();
    void exactMatch() { checkRow("exact_match"); }
    void contains_data();
    void contains() { checkRow("contains"); }
    void regex_data();
    void regex() { checkRow("regex"); }
    void numeric_data();
    void numeric() { checkRow("numeric"); }
    void f1_data();
    void f1() { checkRow("f1"); }
    void jsonValid_data();
    void jsonValid() { checkRow("json_valid"); }
    void jsonSchema_data();
    void jsonSchema() { checkRow("json_schema"); }
    void jsonFields_data();
    void jsonFields() { checkRow("json_fields"); }
    void tagFormat_data();
    void tagFormat() { checkRow("tag_format"); }
    void length_data();
    void length() { checkRow("length"); }
    void language_data();
    void language() { checkRow("language"); }
    void repetition_data();
    void repetition() { checkRow("repetition"); }

    void f1PrecisionRecall();
    void regexGivesUp();
    void schemaFile();
    void columns();
    void goldFallback();
    void checkExample();
    void label();
    void badOptions_data();
    void badOptions();
    void registry();
    void throughConfig();
    void sentences();

private:
    void checkRow(const char *reward);
};

// Every component's table: options (JSON), the completion's text and parsed answer, the
// gold; the value; the sentence's key and, when listed, its args.
static void columnsOfRows()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("gold");
    QTest::addColumn<double>("expected");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("args"); // empty: not checked
}

void TestRewardLibrary::checkRow(const char *reward)
{
    QFETCH(QString, options);
    QFETCH(QString, text);
    QFETCH(QString, answer);
    QFETCH(QString, gold);
    QFETCH(double, expected);
    QFETCH(QString, key);
    QFETCH(QStringList, args);
    const auto r = make(reward, options.toStdString());
    const PlainExample e(gold.toStdString());
    const Scored s = run(*r, e, text.toStdString(), answer.toStdString());
    QVERIFY2(s.problem.empty(), s.problem.c_str());
    if (isNone(expected))
        QVERIFY2(isNone(s.value), qPrintable(QString::number(s.value)));
    else
        QVERIFY2(std::abs(s.value - expected) <= kTol,
                 qPrintable(QStringLiteral("%1, expected %2").arg(s.value, 0, 'g', 17).arg(expected, 0, 'g', 17)));
    QCOMPARE(QString::fromStdString(s.x.key), key);
    if (!args.isEmpty())
        QCOMPARE(toList(s.x.args), args);
}

// ---- exact_match: NFKC, trim, collapse white space, strip trailing . and 。, lower case.
void TestRewardLibrary::exactMatch_data()
{
    columnsOfRows();
    const QString eq = "exact_match.equal", ne = "exact_match.different";
    QTest::newRow("case and final dot") << "" << "" << "Paris" << "paris." << 1.0 << eq << QStringList{"paris", "paris"};
    QTest::newRow("white space") << "" << "" << "  New \t  York\n" << "new york" << 1.0 << eq << QStringList{"new york", "new york"};
    QTest::newRow("NFKC full width") << "" << "" << u("ＡＢＣ１") << "abc1" << 1.0 << eq << QStringList{"abc1", "abc1"};
    QTest::newRow("ideographic full stop") << "" << "" << u("東京。") << u("東京") << 1.0 << eq << QStringList{u("東京"), u("東京")};
    QTest::newRow("dots and spaces at the end") << "" << "" << "42 . ." << "42" << 1.0 << eq << QStringList{"42", "42"};
    QTest::newRow("different") << "" << "" << "Paris" << "London" << 0.0 << ne << QStringList{"paris", "london"};
    QTest::newRow("case_sensitive") << R"({"case_sensitive": true})" << "" << "Paris" << "paris" << 0.0 << ne
                                    << QStringList{"Paris", "paris"};
    // normalize off: compared as is, but still lower-cased (case_sensitive is false).
    QTest::newRow("normalize off keeps spaces") << R"({"normalize": false})" << "" << " paris" << "paris" << 0.0 << ne
                                                << QStringList{" paris", "paris"};
    QTest::newRow("normalize off folds case") << R"({"normalize": false})" << "" << "PARIS" << "paris" << 1.0 << eq
                                              << QStringList{"paris", "paris"};
    QTest::newRow("target text") << R"({"target": "text"})" << "Paris" << "x" << "paris" << 1.0 << eq << QStringList{};
    QTest::newRow("both empty") << "" << "" << "" << "" << 1.0 << eq << QStringList{"", ""};
}

// ---- contains: required share × (no forbidden string); case folded unless case_sensitive.
void TestRewardLibrary::contains_data()
{
    columnsOfRows();
    const QString cats = R"({"strings": ["cat", "dog"]})";
    // "the cat sat": cat yes, dog no → 1/2.
    QTest::newRow("all: one of two") << cats << "The Cat sat" << "" << "" << 0.5 << "contains.all"
                                     << QStringList{"1", "2", "\"dog\"", "0.5"};
    QTest::newRow("all: both") << cats << "cat and dog" << "" << "" << 1.0 << "contains.all"
                               << QStringList{"2", "2", u("—"), "1"};
    QTest::newRow("any: found") << R"({"strings": ["cat", "dog"], "mode": "any"})" << "a dog" << "" << "" << 1.0
                                << "contains.any_found" << QStringList{"\"dog\"", "2"};
    QTest::newRow("any: none") << R"({"strings": ["cat", "dog"], "mode": "any"})" << "a bird" << "" << "" << 0.0
                               << "contains.any_missing" << QStringList{"2", "\"cat\", \"dog\""};
    QTest::newRow("forbidden wins") << R"({"strings": ["cat"], "forbidden": ["sorry"]})" << "Sorry, the cat" << "" << ""
                                    << 0.0 << "contains.forbidden" << QStringList{"\"sorry\""};
    QTest::newRow("case_sensitive") << R"({"strings": ["Cat"], "case_sensitive": true})" << "the cat" << "" << "" << 0.0
                                    << "contains.all" << QStringList{"0", "1", "\"Cat\"", "0"};
    QTest::newRow("only forbidden, absent") << R"({"forbidden": ["as an ai"]})" << "hello" << "" << "" << 1.0
                                            << "contains.nothing_forbidden" << QStringList{"\"as an ai\""};
    QTest::newRow("target answer") << R"({"strings": ["cat"], "target": "answer"})" << "cat" << "dog" << "" << 0.0
                                   << "contains.all" << QStringList{};
    // Japanese: substring search works on code points of any script.
    QTest::newRow("japanese") << u(R"({"strings": ["東京", "大阪"]})") << u("東京都です") << "" << "" << 0.5
                              << "contains.all" << QStringList{"1", "2", u("\"大阪\""), "0.5"};
}

// ---- regex: Python syntax; search, or the whole target with full.
void TestRewardLibrary::regex_data()
{
    columnsOfRows();
    QTest::newRow("search") << R"({"pattern": "\\d{3}-\\d{4}"})" << "call 555-1234 now" << "" << "" << 1.0 << "regex.match"
                            << QStringList{R"(\d{3}-\d{4})", "555-1234"};
    QTest::newRow("no match") << R"({"pattern": "\\d{3}-\\d{4}"})" << "call me" << "" << "" << 0.0 << "regex.no_match"
                              << QStringList{R"(\d{3}-\d{4})"};
    QTest::newRow("full: only part") << R"({"pattern": "\\d{3}-\\d{4}", "full": true})" << "call 555-1234" << "" << ""
                                     << 0.0 << "regex.no_full_match" << QStringList{R"(\d{3}-\d{4})"};
    QTest::newRow("full: whole") << R"({"pattern": "\\d+", "full": true})" << "123" << "" << "" << 1.0 << "regex.full_match"
                                 << QStringList{R"(\d+)"};
    // Python's fullmatch: a final line break is not matched by \d+ (unlike $).
    QTest::newRow("full: final line break") << R"({"pattern": "\\d+", "full": true})" << "123\n" << "" << "" << 0.0
                                            << "regex.no_full_match" << QStringList{};
    // The first alternative matches only "a": fullmatch must still find "ab".
    QTest::newRow("full: later alternative") << R"({"pattern": "a|ab", "full": true})" << "ab" << "" << "" << 1.0
                                             << "regex.full_match" << QStringList{};
    // A verbose pattern ending in a comment.
    QTest::newRow("full: (?x) comment") << R"({"pattern": "(?x) \\d+  # digits", "full": true})" << "123" << "" << ""
                                        << 1.0 << "regex.full_match" << QStringList{};
    QTest::newRow("named group and back reference") << R"j({"pattern": "(?P<w>ab)(?P=w)"})j" << "xabab" << "" << "" << 1.0
                                                    << "regex.match" << QStringList{"(?P<w>ab)(?P=w)", "abab"};
    QTest::newRow("inline flag") << R"({"pattern": "(?i)hello"})" << "HELLO there" << "" << "" << 1.0 << "regex.match"
                                 << QStringList{"(?i)hello", "HELLO"};
    QTest::newRow("target answer") << R"({"pattern": "^\\d+$", "target": "answer"})" << "the answer is 42" << "42" << ""
                                   << 1.0 << "regex.match" << QStringList{"^\\d+$", "42"};
    QTest::newRow("unicode") << u(R"({"pattern": "[ぁ-ん]+"})") << u("漢字とかな") << "" << "" << 1.0 << "regex.match"
                             << QStringList{u("[ぁ-ん]+"), u("とかな")};
}

// ---- numeric: the last number of each; |a − b| ≤ max(tolerance, relative·|b|).
void TestRewardLibrary::numeric_data()
{
    columnsOfRows();
    const QString eq = "numeric.equal", ne = "numeric.different";
    // args: a, b, |a − b|, the allowed difference (1e-6 written shortest: "1e-06").
    QTest::newRow("thousands and final dot") << "" << "" << "The answer is 1,234." << "1234" << 1.0 << eq
                                             << QStringList{"1234", "1234", "0", "1e-06"};
    QTest::newRow("fraction") << "" << "" << "3/4" << "0.75" << 1.0 << eq << QStringList{"0.75", "0.75", "0", "1e-06"};
    QTest::newRow("minus sign U+2212") << "" << "" << "-5" << u("−5") << 1.0 << eq << QStringList{"-5", "-5", "0", "1e-06"};
    QTest::newRow("full-width digits") << "" << "" << u("１２個") << "12" << 1.0 << eq << QStringList{};
    QTest::newRow("currency") << "" << "" << "$1,000,000" << "#### 1000000" << 1.0 << eq << QStringList{};
    QTest::newRow("percent") << "" << "" << "50%" << "50" << 1.0 << eq << QStringList{};
    QTest::newRow("exponent and unit") << "" << "" << "1.5e3 km" << "1500" << 1.0 << eq << QStringList{};
    QTest::newRow("leading decimal point") << "" << "" << "about .5" << "0.5" << 1.0 << eq << QStringList{};
    // "1,23" is no thousands group: 1 and 23, the last 23.
    QTest::newRow("comma list") << "" << "" << "1,23" << "23" << 1.0 << eq << QStringList{};
    // "1.2.3": 1.2, then 3 (not .3).
    QTest::newRow("version") << "" << "" << "v1.2.3" << "3" << 1.0 << eq << QStringList{};
    // A '-' after a letter or digit is no sign: "x-5" and "3-5" read 5.
    QTest::newRow("hyphen after letter") << "" << "" << "x-5" << "5" << 1.0 << eq << QStringList{};
    QTest::newRow("range") << "" << "" << "3-5" << "5" << 1.0 << eq << QStringList{};
    QTest::newRow("last of several") << "" << "" << "2 + 3 = 5" << "5" << 1.0 << eq << QStringList{};
    // |3.14 − 3.14159| = 0.00159 ≤ 0.01.
    QTest::newRow("tolerance") << R"({"tolerance": 0.01})" << "" << "3.14" << "3.14159" << 1.0 << eq << QStringList{};
    QTest::newRow("default tolerance") << "" << "" << "3.14" << "3.14159" << 0.0 << ne << QStringList{};
    // relative 0.05 of |100| = 5: |98 − 100| = 2 ≤ 5; |90 − 100| = 10 > 5.
    QTest::newRow("relative within") << R"({"relative": 0.05})" << "" << "98" << "100" << 1.0 << eq
                                     << QStringList{"98", "100", "2", "5"};
    QTest::newRow("relative outside") << R"({"relative": 0.05})" << "" << "90" << "100" << 0.0 << ne
                                      << QStringList{"90", "100", "10", "5"};
    QTest::newRow("no number in the reply") << "" << "" << "no idea" << "7" << 0.0 << "numeric.no_answer_number"
                                            << QStringList{"7"};
    QTest::newRow("no number in the gold") << "" << "" << "7" << "unknown" << kNone << "numeric.no_gold_number"
                                           << QStringList{};
    QTest::newRow("target text") << R"({"target": "text"})" << "so 8" << "" << "8" << 1.0 << eq << QStringList{};
}

// ---- f1: SQuAD tokens (or characters), multiset overlap.
void TestRewardLibrary::f1_data()
{
    columnsOfRows();
    // {cat, sat} against {cat, sat, down}: 2 shared, P 2/2, R 2/3, F1 2·1·(2/3)/(1 + 2/3) = 0.8.
    QTest::newRow("articles dropped") << "" << "" << "the cat sat" << "a cat sat down" << 0.8 << "f1.tokens"
                                      << QStringList{"2", "2", "3", "1", "0.667", "0.8"};
    QTest::newRow("punctuation and case") << "" << "" << "Cat, sat!" << "cat sat" << 1.0 << "f1.tokens" << QStringList{};
    QTest::newRow("nothing shared") << "" << "" << "dog" << "cat" << 0.0 << "f1.tokens"
                                    << QStringList{"0", "1", "1", "0", "0", "0"};
    // {x, x, y} against {x, y, y}: min(2, 1) + min(1, 2) = 2 shared; P = R = 2/3, F1 2/3.
    QTest::newRow("multiset") << "" << "" << "x x y" << "x y y" << 2.0 / 3.0 << "f1.tokens" << QStringList{};
    QTest::newRow("both only articles") << "" << "" << "the" << "a" << 1.0 << "f1.both_empty" << QStringList{};
    QTest::newRow("empty reply") << "" << "" << "" << "cat" << 0.0 << "f1.reply_empty" << QStringList{};
    QTest::newRow("empty reference") << "" << "" << "cat" << "" << 0.0 << "f1.reference_empty" << QStringList{};
    // 東京都 against 京都: 2 shared; P 2/3, R 1, F1 2·(2/3)/(5/3) = 0.8.
    QTest::newRow("char") << R"({"unit": "char"})" << "" << u("東京都") << u("京都") << 0.8 << "f1.chars"
                          << QStringList{"2", "3", "2", "0.667", "1", "0.8"};
    QTest::newRow("char ignores white space and punctuation") << R"({"unit": "char"})" << "" << u("京 都。") << u("京都")
                                                              << 1.0 << "f1.chars" << QStringList{};
}

// ---- json_valid
void TestRewardLibrary::jsonValid_data()
{
    columnsOfRows();
    QTest::newRow("object") << "" << "" << R"({"a": 1})" << "" << 1.0 << "json_valid.ok" << QStringList{"object"};
    QTest::newRow("fenced") << "" << "" << "```json\n{\"a\": [1, 2]}\n```" << "" << 1.0 << "json_valid.ok"
                            << QStringList{"object"};
    QTest::newRow("fence amid text") << "" << "" << "Here:\n```\n[1]\n```\nDone." << "" << 1.0 << "json_valid.ok"
                                     << QStringList{"array"};
    QTest::newRow("fences off") << R"({"fences": false})" << "" << "```json\n{}\n```" << "" << 0.0 << "json.invalid"
                                << QStringList{};
    QTest::newRow("truncated") << "" << "" << R"({"a": 1)" << "" << 0.0 << "json.invalid" << QStringList{};
    QTest::newRow("empty") << "" << "" << "" << "" << 0.0 << "json.invalid" << QStringList{};
    QTest::newRow("a number is JSON") << "" << "" << "42" << "" << 1.0 << "json_valid.ok" << QStringList{"integer"};
    QTest::newRow("wrong type") << R"({"type": "object"})" << "" << "[1]" << "" << 0.0 << "json_valid.wrong_type"
                                << QStringList{"array", "an object"};
    QTest::newRow("array wanted") << R"({"type": "array"})" << "" << "[]" << "" << 1.0 << "json_valid.ok"
                                  << QStringList{"array"};
    QTest::newRow("target text") << R"({"target": "text"})" << "{}" << "not json" << "" << 1.0 << "json_valid.ok"
                                 << QStringList{"object"};
}

// ---- json_schema: the first violation, the value's own keywords before its members'.
void TestRewardLibrary::jsonSchema_data()
{
    columnsOfRows();
    const QString person =
        R"({"schema": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 2}},
            "required": ["name", "age"], "additionalProperties": false, "title": "a person"}})";
    QTest::newRow("valid") << person << "" << R"({"name": "Ann", "age": 30})" << "" << 1.0 << "json_schema.ok"
                           << QStringList{};
    QTest::newRow("integer 30.0") << person << "" << R"({"name": "Ann", "age": 30.0})" << "" << 1.0 << "json_schema.ok"
                                  << QStringList{};
    QTest::newRow("required") << person << "" << R"({"name": "Ann"})" << "" << 0.0 << "json_schema.required"
                              << QStringList{"#", "age"};
    QTest::newRow("integer") << person << "" << R"({"name": "Ann", "age": 30.5})" << "" << 0.0 << "json_schema.type"
                             << QStringList{"#/age", "number", "integer"};
    QTest::newRow("minimum") << person << "" << R"({"name": "Ann", "age": -1})" << "" << 0.0 << "json_schema.minimum"
                             << QStringList{"#/age", "-1", "0"};
    QTest::newRow("maximum") << person << "" << R"({"name": "Ann", "age": 151})" << "" << 0.0 << "json_schema.maximum"
                             << QStringList{"#/age", "151", "150"};
    QTest::newRow("minLength") << person << "" << R"({"name": "", "age": 1})" << "" << 0.0 << "json_schema.min_length"
                               << QStringList{"#/name", "0", "1"};
    QTest::newRow("additionalProperties") << person << "" << R"({"name": "A", "age": 1, "x": 1})" << "" << 0.0
                                          << "json_schema.additional" << QStringList{"#", "x"};
    QTest::newRow("pattern") << person << "" << R"({"name": "A", "age": 1, "tags": ["ok", "Bad"]})" << "" << 0.0
                             << "json_schema.pattern" << QStringList{"#/tags/1", "^[a-z]+$"};
    QTest::newRow("maxItems") << person << "" << R"({"name": "A", "age": 1, "tags": ["a", "b", "c"]})" << "" << 0.0
                              << "json_schema.max_items" << QStringList{"#/tags", "3", "2"};
    QTest::newRow("root type") << person << "" << "[1]" << "" << 0.0 << "json_schema.type"
                               << QStringList{"#", "array", "object"};
    QTest::newRow("not JSON") << person << "" << "name: Ann" << "" << 0.0 << "json.invalid" << QStringList{};
    QTest::newRow("fenced") << person << "" << "```json\n{\"name\": \"A\", \"age\": 2}\n```" << "" << 1.0
                            << "json_schema.ok" << QStringList{};
    const QString colors = R"({"schema": {"enum": ["red", "green"]}})";
    QTest::newRow("enum") << colors << "" << R"("blue")" << "" << 0.0 << "json_schema.enum"
                          << QStringList{"#", "\"blue\"", R"(["red","green"])"};
    QTest::newRow("enum ok") << colors << "" << R"("red")" << "" << 1.0 << "json_schema.ok" << QStringList{};
    QTest::newRow("const 3 is 3.0") << R"({"schema": {"const": 3}})" << "" << "3.0" << "" << 1.0 << "json_schema.ok"
                                    << QStringList{};
    QTest::newRow("const object, keys in any order") << R"({"schema": {"const": {"a": 1, "b": 2}}})" << ""
                                                     << R"({"b": 2, "a": 1})" << "" << 1.0 << "json_schema.ok"
                                                     << QStringList{};
    QTest::newRow("const") << R"({"schema": {"const": 3}})" << "" << "4" << "" << 0.0 << "json_schema.const"
                           << QStringList{"#", "4", "3"};
    QTest::newRow("exclusiveMaximum") << R"({"schema": {"type": "number", "exclusiveMaximum": 10}})" << "" << "10" << ""
                                      << 0.0 << "json_schema.exclusive_maximum" << QStringList{"#", "10", "10"};
    QTest::newRow("exclusiveMinimum") << R"({"schema": {"exclusiveMinimum": 0}})" << "" << "0.5" << "" << 1.0
                                      << "json_schema.ok" << QStringList{};
    QTest::newRow("type list") << R"({"schema": {"type": ["string", "null"]}})" << "" << "null" << "" << 1.0
                               << "json_schema.ok" << QStringList{};
    QTest::newRow("type list broken") << R"({"schema": {"type": ["string", "null"]}})" << "" << "1" << "" << 0.0
                                      << "json_schema.type" << QStringList{"#", "integer", "string or null"};
    QTest::newRow("pointer escaping") << R"({"schema": {"properties": {"a/b~": {"type": "string"}}}})" << ""
                                      << R"({"a/b~": 1})" << "" << 0.0 << "json_schema.type"
                                      << QStringList{"#/a~1b~0", "integer", "string"};
    QTest::newRow("false schema") << R"({"schema": {"properties": {"x": false}}})" << "" << R"({"x": 1})" << "" << 0.0
                                  << "json_schema.false" << QStringList{"#/x"};
    // maxLength counts code points: 日本語 is 3.
    QTest::newRow("maxLength code points") << R"({"schema": {"maxLength": 3}})" << "" << u(R"("日本語")") << "" << 1.0
                                           << "json_schema.ok" << QStringList{};
    QTest::newRow("minItems") << R"({"schema": {"minItems": 2}})" << "" << "[1]" << "" << 0.0 << "json_schema.min_items"
                              << QStringList{"#", "1", "2"};
}

// ---- json_fields: share of the reference's fields the reply has equal.
void TestRewardLibrary::jsonFields_data()
{
    columnsOfRows();
    const QString ann = R"({"name": "Ann", "age": 30, "city": "Paris"})";
    // name: "ann" = "Ann" in comparison form; age: 30.0 = 30; city differs → 2/3.
    QTest::newRow("two of three") << "" << "" << R"({"name": "ann", "age": 30.0, "city": "London"})" << ann << 2.0 / 3.0
                                  << "json_fields.compared" << QStringList{"2", "3", "name, age", "city", "0.667"};
    QTest::newRow("normalize off") << R"({"normalize": false})" << "" << R"({"name": "ann", "age": 30, "city": "x"})"
                                   << ann << 1.0 / 3.0 << "json_fields.compared"
                                   << QStringList{"1", "3", "age", "name, city", "0.333"};
    QTest::newRow("missing field") << "" << "" << R"({"name": "Ann"})" << ann << 1.0 / 3.0 << "json_fields.compared"
                                   << QStringList{"1", "3", "name", "age, city", "0.333"};
    QTest::newRow("a string is not a number") << "" << "" << R"({"name": "Ann", "age": "30", "city": "Paris"})" << ann
                                              << 2.0 / 3.0 << "json_fields.compared" << QStringList{};
    QTest::newRow("fields") << R"({"fields": ["name"]})" << "" << R"({"name": "Ann", "age": 1})" << ann << 1.0
                            << "json_fields.compared" << QStringList{"1", "1", "name", u("—"), "1"};
    // zip is in neither: it agrees.
    QTest::newRow("field in neither") << R"({"fields": ["name", "zip"]})" << "" << R"({"name": "Ann"})" << ann << 1.0
                                      << "json_fields.compared" << QStringList{"2", "2", "name, zip", u("—"), "1"};
    QTest::newRow("field only in the reply") << R"({"fields": ["name", "zip"]})" << "" << R"({"name": "Ann", "zip": 1})"
                                             << ann << 0.5 << "json_fields.compared" << QStringList{};
    QTest::newRow("nested") << "" << "" << R"({"a": {"y": [1.0, "b."], "x": 1}})" << R"({"a": {"x": 1, "y": [1, "B"]}})"
                            << 1.0 << "json_fields.compared" << QStringList{"1", "1", "a", u("—"), "1"};
    QTest::newRow("reply not an object") << "" << "" << "[1]" << ann << 0.0 << "json_fields.not_object"
                                         << QStringList{"array"};
    QTest::newRow("reply not JSON") << "" << "" << "Ann, 30" << ann << 0.0 << "json.invalid" << QStringList{};
    QTest::newRow("gold not JSON") << "" << "" << "{}" << "Ann" << kNone << "json_fields.gold_not_object" << QStringList{};
    QTest::newRow("gold without fields") << "" << "" << "{}" << "{}" << kNone << "json_fields.no_fields" << QStringList{};
}

// ---- tag_format: each block once, in order; exact: nothing else; partial: share of checks.
void TestRewardLibrary::tagFormat_data()
{
    columnsOfRows();
    const QString ta = u("<think>, <answer>");
    QTest::newRow("ok") << "" << "<think>a</think>\n<answer>b</answer>" << "" << "" << 1.0 << "tag_format.ok"
                        << QStringList{ta};
    QTest::newRow("text around, not exact") << "" << "Sure. <think>a</think><answer>b</answer> Bye" << "" << "" << 1.0
                                            << "tag_format.ok" << QStringList{ta};
    QTest::newRow("missing") << "" << "<answer>b</answer>" << "" << "" << 0.0 << "tag_format.missing"
                             << QStringList{"think", "0"};
    // partial: think fails, answer holds → 1/2.
    QTest::newRow("missing, partial") << R"({"partial": true})" << "<answer>b</answer>" << "" << "" << 0.5
                                      << "tag_format.missing" << QStringList{"think", "0.5"};
    // think (first listed) is in place at 18; answer opens at 0, before </think> → out of order.
    QTest::newRow("order") << "" << "<answer>b</answer><think>a</think>" << "" << "" << 0.0 << "tag_format.order"
                           << QStringList{"answer", "think", "0"};
    QTest::newRow("order, partial") << R"({"partial": true})" << "<answer>b</answer><think>a</think>" << "" << "" << 0.5
                                    << "tag_format.order" << QStringList{"answer", "think", "0.5"};
    QTest::newRow("nested") << "" << "<think>a<answer>b</answer></think>" << "" << "" << 0.0 << "tag_format.order"
                            << QStringList{"answer", "think", "0"};
    QTest::newRow("repeated") << "" << "<think>a</think><think>b</think><answer>c</answer>" << "" << "" << 0.0
                              << "tag_format.repeated" << QStringList{"think", "2", "0"};
    QTest::newRow("unclosed") << "" << "<think>a<answer>b</answer>" << "" << "" << 0.0 << "tag_format.unclosed"
                              << QStringList{"think", "0"};
    QTest::newRow("repeated close") << "" << "<think>a</think></think><answer>b</answer>" << "" << "" << 0.0
                                    << "tag_format.repeated_close" << QStringList{"think", "2", "0"};
    QTest::newRow("close first") << "" << "</think>a<think><answer>b</answer>" << "" << "" << 0.0
                                 << "tag_format.close_first" << QStringList{"think", "0"};
    QTest::newRow("exact ok") << R"({"exact": true})" << "\n<think>a</think>\n<answer>b</answer>\n" << "" << "" << 1.0
                              << "tag_format.ok_exact" << QStringList{ta};
    QTest::newRow("exact: text before") << R"({"exact": true})" << "Sure! <think>a</think><answer>b</answer>" << "" << ""
                                        << 0.0 << "tag_format.outside" << QStringList{"Sure!", "0"};
    // partial with exact: 3 checks (two tags, nothing outside), 2 pass → 2/3.
    QTest::newRow("exact and partial") << R"({"exact": true, "partial": true})"
                                       << "<think>a</think> and <answer>b</answer>" << "" << "" << 2.0 / 3.0
                                       << "tag_format.outside" << QStringList{"and", "0.667"};
    // partial: no tag at all, and the text outside: 0 of 3.
    QTest::newRow("nothing, partial") << R"({"exact": true, "partial": true})" << "hello" << "" << "" << 0.0
                                      << "tag_format.missing" << QStringList{"think", "0"};
    QTest::newRow("own tags") << R"({"tags": ["reasoning", "answer", "citation"]})"
                              << "<reasoning>r</reasoning><answer>a</answer><citation>1</citation>" << "" << "" << 1.0
                              << "tag_format.ok" << QStringList{u("<reasoning>, <answer>, <citation>")};
    QTest::newRow("reads the text, not the answer") << "" << "<think>a</think><answer>b</answer>" << "b" << "" << 1.0
                                                    << "tag_format.ok" << QStringList{};
}

// ---- length: within [min, max] 1; above: max(0, 1 − over/slack); below: len/min.
void TestRewardLibrary::length_data()
{
    columnsOfRows();
    const QString w35 = R"({"min": 3, "max": 5})";
    QTest::newRow("within") << w35 << "one two three four" << "" << "" << 1.0 << "length.words_within"
                            << QStringList{"4", "[3, 5]"};
    // 7 words: 2 over, slack = max = 5: 1 − 2/5 = 0.6.
    QTest::newRow("above") << w35 << "a b c d e f g" << "" << "" << 0.6 << "length.words_above"
                           << QStringList{"7", "2", "5", "5", "0.6"};
    // 12 words: 1 − 7/5 < 0 → 0.
    QTest::newRow("far above") << w35 << "a b c d e f g h i j k l" << "" << "" << 0.0 << "length.words_above"
                               << QStringList{"12", "7", "5", "5", "0"};
    QTest::newRow("below") << w35 << "one" << "" << "" << 1.0 / 3.0 << "length.words_below"
                           << QStringList{"1", "3", "0.333"};
    QTest::newRow("empty") << w35 << "" << "" << "" << 0.0 << "length.words_below" << QStringList{"0", "3", "0"};
    // slack 10: 1 − 2/10 = 0.8.
    QTest::newRow("slack") << R"({"min": 3, "max": 5, "slack": 10})" << "a b c d e f g" << "" << "" << 0.8
                           << "length.words_above" << QStringList{"7", "2", "5", "10", "0.8"};
    QTest::newRow("only min") << R"({"min": 3})" << "a b c d e f g" << "" << "" << 1.0 << "length.words_within"
                              << QStringList{"7", u("≥ 3")};
    QTest::newRow("chars within") << R"({"unit": "chars", "max": 5})" << u("日本語です") << "" << "" << 1.0
                                  << "length.chars_within" << QStringList{"5", u("≤ 5")};
    // "abcdefg" (white space at the ends not counted): 7, 2 over, slack 5 → 0.6.
    QTest::newRow("chars above") << R"({"unit": "chars", "max": 5})" << "  abcdefg \n" << "" << "" << 0.6
                                 << "length.chars_above" << QStringList{"7", "2", "5", "5", "0.6"};
    QTest::newRow("target answer") << R"({"max": 1, "target": "answer"})" << "a b c" << "x" << "" << 1.0
                                   << "length.words_within" << QStringList{};
}

// ---- language: share of the letters in the language's scripts.
void TestRewardLibrary::language_data()
{
    columnsOfRows();
    const QString jaScripts = "Hiragana, Katakana, Han";
    QTest::newRow("en") << R"({"language": "en"})" << "Hello, world!" << "" << "" << 1.0 << "language.all"
                        << QStringList{"10", "en", "Latin"};
    // こ れ は 日 本 語 で す: 8 letters (。 is punctuation).
    QTest::newRow("ja") << R"({"language": "ja"})" << u("これは日本語です。") << "" << "" << 1.0 << "language.all"
                        << QStringList{"8", "ja", jaScripts};
    // コ ヒ are Katakana; ー is a letter of no one script, counted in neither share.
    QTest::newRow("ja long vowel mark") << R"({"language": "ja"})" << u("コーヒー") << "" << "" << 1.0 << "language.all"
                                        << QStringList{"2", "ja", jaScripts};
    // 3 Hiragana + 4 Latin: 3/7.
    QTest::newRow("ja with English") << R"({"language": "ja"})" << u("これはtest") << "" << "" << 3.0 / 7.0
                                     << "language.share" << QStringList{"3", "7", "ja", jaScripts, "Latin", "4", "0.429"};
    QTest::newRow("zh") << R"({"language": "zh"})" << u("这是中文") << "" << "" << 1.0 << "language.all"
                        << QStringList{"4", "zh", "Han"};
    // 中 文 Han, こ れ は Hiragana: kana are not Chinese → 2/5.
    QTest::newRow("zh against kana") << R"({"language": "zh"})" << u("これは中文") << "" << "" << 0.4 << "language.share"
                                     << QStringList{"2", "5", "zh", "Han", "Hiragana", "3", "0.4"};
    // Привет 6 Cyrillic, world 5 Latin: 6/11.
    QTest::newRow("ru") << R"({"language": "ru"})" << u("Привет, world") << "" << "" << 6.0 / 11.0 << "language.share"
                        << QStringList{"6", "11", "ru", "Cyrillic", "Latin", "5", "0.545"};
    QTest::newRow("ko") << R"({"language": "ko"})" << u("안녕하세요") << "" << "" << 1.0 << "language.all"
                        << QStringList{"5", "ko", "Hangul"};
    QTest::newRow("ar") << R"({"language": "ar"})" << u("مرحبا") << "" << "" << 1.0 << "language.all"
                        << QStringList{"5", "ar", "Arabic"};
    // न म स त are letters; the virama ् and the vowel sign े are marks: 4.
    QTest::newRow("hi") << R"({"language": "hi"})" << u("नमस्ते") << "" << "" << 1.0 << "language.all"
                        << QStringList{"4", "hi", "Devanagari"};
    // ส ว ส ด letters; ั and ี marks: 4.
    QTest::newRow("th") << R"({"language": "th"})" << u("สวัสดี") << "" << "" << 1.0 << "language.all"
                        << QStringList{"4", "th", "Thai"};
    QTest::newRow("el") << R"({"language": "el"})" << u("Γειά") << "" << "" << 1.0 << "language.all"
                        << QStringList{"4", "el", "Greek"};
    QTest::newRow("he") << R"({"language": "he"})" << u("שלום") << "" << "" << 1.0 << "language.all"
                        << QStringList{"4", "he", "Hebrew"};
    QTest::newRow("en against Japanese") << R"({"language": "en"})" << u("OK です") << "" << "" << 0.5
                                         << "language.share" << QStringList{"2", "4", "en", "Latin", "Hiragana", "2", "0.5"};
    QTest::newRow("no letters") << R"({"language": "en"})" << "123 !!!" << "" << "" << 0.0 << "language.no_letters"
                                << QStringList{};
    QTest::newRow("target answer") << R"({"language": "en", "target": "answer"})" << u("日本") << "Japan" << "" << 1.0
                                   << "language.all" << QStringList{};
}

// ---- repetition: distinct n-grams / n-grams.
void TestRewardLibrary::repetition_data()
{
    columnsOfRows();
    QTest::newRow("no repetition") << "" << "a b c d" << "" << "" << 1.0 << "repetition.words_distinct"
                                   << QStringList{"2", "3"};
    // 6 words, 5 bigrams: the cat ×3, cat the ×2 → 2 distinct / 5.
    QTest::newRow("bigrams") << R"({"n": 2})" << "the cat the cat the cat" << "" << "" << 0.4 << "repetition.words"
                             << QStringList{"2", "5", "2", "the cat", "3", "0.4"};
    QTest::newRow("too short") << "" << "a b" << "" << "" << 1.0 << "repetition.words_short" << QStringList{"2", "3"};
    // aaaa: aa ×3 → 1/3.
    QTest::newRow("chars") << R"({"n": 2, "unit": "chars"})" << "aaaa" << "" << "" << 1.0 / 3.0 << "repetition.chars"
                           << QStringList{"1", "3", "2", "aa", "3", "0.333"};
    // white space is no unit: a b a b → ab, ba, ab → 2/3.
    QTest::newRow("chars skip white space") << R"({"n": 2, "unit": "chars"})" << "ab ab" << "" << "" << 2.0 / 3.0
                                            << "repetition.chars" << QStringList{"2", "3", "2", "ab", "2", "0.667"};
    // unigrams x y x: 2 distinct / 3.
    QTest::newRow("n 1") << R"({"n": 1})" << "x y x" << "" << "" << 2.0 / 3.0 << "repetition.words"
                         << QStringList{"2", "3", "1", "x", "2", "0.667"};
    QTest::newRow("japanese chars") << R"({"unit": "chars"})" << u("ですです") << "" << "" << 1.0
                                    << "repetition.chars_distinct" << QStringList{"2", "3"};
}

// ---- beyond the tables

void TestRewardLibrary::f1PrecisionRecall()
{
    const auto r = make("f1");
    const Scored s = run(*r, PlainExample("a cat sat down"), "", "the cat sat");
    QVERIFY2(s.problem.empty(), s.problem.c_str());
    QVERIFY(std::abs(s.x.precision - 1.0) <= kTol);
    QVERIFY(std::abs(s.x.recall - 2.0 / 3.0) <= kTol);
    QCOMPARE(s.x.answer, std::string("cat sat"));
    QCOMPARE(s.x.gold, std::string("cat sat down"));
}

void TestRewardLibrary::regexGivesUp()
{
    // (a+)+$ against 30 a's and a '!': exponential backtracking, cut off by the retry limit.
    const std::string text = std::string(30, 'a') + "!";
    const auto r = make("regex", R"({"pattern": "(a+)+$"})");
    QElapsedTimer t;
    t.start();
    const Scored s = run(*r, PlainExample(""), text, "");
    QVERIFY2(s.problem.empty(), s.problem.c_str());
    QVERIFY(isNone(s.value));
    QCOMPARE(s.x.key, std::string("regex.gave_up"));
    QVERIFY2(s.x.error.find("too much backtracking") != std::string::npos, s.x.error.c_str());
    QVERIFY(t.elapsed() < 2000);
    // The same in a schema's pattern.
    const auto schema = make("json_schema", R"({"schema": {"pattern": "(a+)+$"}})");
    const Scored v = run(*schema, PlainExample(""), "", "\"" + text + "\"");
    QVERIFY(isNone(v.value));
    QCOMPARE(v.x.key, std::string("json_schema.gave_up"));
    QCOMPARE(toList(v.x.args), (QStringList{"#", "(a+)+$"}));
    // And the wrapper alone.
    const text::Regex regex("(x+x+)+y");
    QVERIFY_THROWS_EXCEPTION(text::RegexLimitError, regex.search(std::string(40, 'x')));
}

void TestRewardLibrary::schemaFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string base = dir.path().toStdString();
    {
        std::ofstream(base + "/person.json") << R"({"type": "object", "required": ["name"]})";
        std::ofstream(base + "/broken.json") << "{\n  \"type\": \"object\",\n  \"required\": [\"name\"\n}\n";
        std::ofstream(base + "/unsupported.json") << R"({"type": "string", "format": "email"})";
    }
    // Relative to the config's folder.
    const auto r = make("json_schema", R"({"schema_file": "person.json"})", {}, base);
    const Scored ok = run(*r, PlainExample(""), "", R"({"name": "A"})");
    QCOMPARE(ok.value, 1.0);
    const Scored bad = run(*r, PlainExample(""), "", R"({})");
    QCOMPARE(bad.x.key, std::string("json_schema.required"));
    QCOMPARE(optionError("json_schema", R"({"schema_file": "nope.json"})", base),
             "options.schema_file: " + base + "/nope.json: no such file");
    // The syntax error is on line 4, where "}" comes instead of "]".
    const std::string broken = optionError("json_schema", R"({"schema_file": "broken.json"})", base);
    QVERIFY2(broken.rfind("options.schema_file: " + base + "/broken.json:4: not valid JSON (column ", 0) == 0,
             broken.c_str());
    const std::string unsupported = optionError("json_schema", R"({"schema_file": "unsupported.json"})", base);
    QVERIFY2(unsupported.rfind("options.schema_file: " + base +
                                   "/unsupported.json: the keyword \"format\" is not supported (supported: type, ",
                               0) == 0,
             unsupported.c_str());
}

void TestRewardLibrary::columns()
{
    const RecordExampleForTest e(
        R"({"answer": "Paris", "meta": {"n": 42}, "list": ["cat", "dog"], "obj": {"a": 1, "b": "x"}, "empty": ""})",
        "Berlin");
    // The column, not the gold (Berlin).
    Scored s = run(*make("exact_match", R"({"column": "answer"})"), e, "", "paris");
    QVERIFY2(s.problem.empty(), s.problem.c_str());
    QCOMPARE(s.value, 1.0);
    QCOMPARE(s.x.gold, std::string("paris"));
    // A dotted path; a number column comes as its JSON text.
    s = run(*make("numeric", R"({"column": "meta.n"})"), e, "", "42 apples");
    QCOMPARE(s.value, 1.0);
    // A column holding a list gives each string: dog found, cat not → 1/2.
    s = run(*make("contains", R"({"column": "list"})"), e, "a dog", "");
    QCOMPARE(s.value, 0.5);
    QCOMPARE(toList(s.x.args), (QStringList{"1", "2", "\"cat\"", "0.5"}));
    s = run(*make("contains", R"({"column": "empty"})"), e, "a dog", "");
    QVERIFY(isNone(s.value));
    QCOMPARE(s.x.key, std::string("contains.empty_column"));
    // An object column.
    s = run(*make("json_fields", R"({"column": "obj"})"), e, "", R"({"a": 1, "b": "X"})");
    QCOMPARE(s.value, 1.0);
    s = run(*make("f1", R"({"column": "answer"})"), e, "", "paris france");
    QVERIFY(std::abs(s.value - 2.0 / 3.0) <= kTol); // P 1/2, R 1: F1 2/3
    // A column the record lacks: None, naming it — for every component that takes one.
    for (const char *name : {"exact_match", "contains", "numeric", "f1", "json_fields"}) {
        s = run(*make(name, R"({"column": "nope"})"), e, "x", "x");
        QVERIFY2(s.problem.empty(), s.problem.c_str());
        QVERIFY2(isNone(s.value), name);
        QCOMPARE(s.x.key, std::string("column.missing"));
        QCOMPARE(toList(s.x.args), QStringList{"nope"});
        QCOMPARE(s.x.detail, std::string("The example has no column \"nope\": None."));
    }
    // An example that is no record has no columns.
    s = run(*make("exact_match", R"({"column": "answer"})"), PlainExample("Paris"), "", "Paris");
    QVERIFY(isNone(s.value));
    QCOMPARE(s.x.key, std::string("column.not_a_record"));
    QCOMPARE(toList(s.x.args), QStringList{"answer"});
    s = run(*make("numeric", R"({"column": "answer"})"), e, "", "1");
    QVERIFY(isNone(s.value));
    QCOMPARE(s.x.key, std::string("numeric.no_column_number"));
    QCOMPARE(toList(s.x.args), QStringList{"answer"});
}

void TestRewardLibrary::goldFallback()
{
    // Without "column", a record's gold is the reference, even when it has columns.
    const RecordExampleForTest record(R"({"answer": "Paris"})", "Berlin");
    QCOMPARE(run(*make("exact_match"), record, "", "berlin").value, 1.0);
    QCOMPARE(run(*make("exact_match"), PlainExample("Berlin."), "", "berlin").value, 1.0);
    QCOMPARE(run(*make("json_fields"), PlainExample(R"({"a": 1})"), "", R"({"a": 1})").value, 1.0);
}

void TestRewardLibrary::checkExample()
{
    const RecordExampleForTest record(R"({"answer": "Paris", "obj": {"a": 1}})", "Berlin");
    make("exact_match", R"({"column": "answer"})")->checkExample(record); // does not throw
    make("exact_match")->checkExample(PlainExample("x"));                 // no column: any example
    const auto expectThrow = [](const Reward &r, const task::Example &e, const std::string &message) {
        try {
            r.checkExample(e);
        } catch (const std::invalid_argument &ex) {
            return std::string(ex.what()) == message ? std::string() : std::string(ex.what());
        }
        return std::string("(no error)");
    };
    std::string m = expectThrow(*make("numeric", R"({"column": "nope"})"), record,
                                "numeric: example \"rec-7\" has no column \"nope\"");
    QVERIFY2(m.empty(), m.c_str());
    m = expectThrow(*make("exact_match", R"({"column": "answer"})"), PlainExample("x", "train-3"),
                    "exact_match: the option \"column\": \"answer\" needs examples read from records (a user's task), "
                    "but example \"train-3\" has no columns");
    QVERIFY2(m.empty(), m.c_str());
    // json_fields also wants an object for a reference.
    make("json_fields", R"({"column": "obj"})")->checkExample(record);
    m = expectThrow(*make("json_fields", R"({"column": "answer"})"), record,
                    "json_fields: the column \"answer\" of example \"rec-7\" is not a JSON object");
    QVERIFY2(m.empty(), m.c_str());
    m = expectThrow(*make("json_fields"), PlainExample("Paris", "train-4"),
                    "json_fields: the gold of example \"train-4\" is not a JSON object");
    QVERIFY2(m.empty(), m.c_str());
}

void TestRewardLibrary::label()
{
    const auto r = make("exact_match", "", "accuracy");
    QCOMPARE(r->name(), std::string_view("accuracy"));
    const Scored s = run(*r, PlainExample("a"), "", "a");
    QCOMPARE(s.x.reward, std::string("accuracy"));
    QCOMPARE(make("exact_match")->name(), std::string_view("exact_match"));
}

void TestRewardLibrary::badOptions_data()
{
    QTest::addColumn<QString>("reward");
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("message"); // the whole message, or its start when it ends in "…"
    QTest::newRow("unknown key") << "exact_match" << R"({"colum": "x"})"
                                 << "options.colum: unknown option (allowed: column, target, normalize, case_sensitive)";
    QTest::newRow("not a boolean") << "exact_match" << R"({"normalize": "yes"})"
                                   << "options.normalize: must be true or false, found \"yes\" (allowed: true, false)";
    QTest::newRow("unknown target") << "exact_match" << R"({"target": "completion"})"
                                    << "options.target: unknown value \"completion\" (allowed: answer, text)";
    QTest::newRow("target not a string") << "f1" << R"({"target": 1})"
                                         << "options.target: must be a string, found 1 (allowed: answer, text)";
    QTest::newRow("options not an object") << "exact_match" << "[1]" << "options: must be a JSON object, found array";
    QTest::newRow("column empty") << "exact_match" << R"({"column": ""})"
                                  << "options.column: must be a non-empty string, found \"\"";
    QTest::newRow("contains: nothing") << "contains" << "{}"
                                       << "options.strings: missing: give strings (a list), column (the column that "
                                          "holds the string) or at least forbidden";
    QTest::newRow("contains: empty list") << "contains" << R"({"strings": []})"
                                          << "options.strings: must be a non-empty list of strings, found array";
    QTest::newRow("contains: empty string") << "contains" << R"({"strings": ["a", ""]})"
                                            << "options.strings[1]: must be a non-empty string, found \"\"";
    QTest::newRow("contains: both") << "contains" << R"({"strings": ["a"], "column": "c"})"
                                    << "options.column: give the required strings either in strings or from a column, "
                                       "not both";
    QTest::newRow("contains: mode") << "contains" << R"({"strings": ["a"], "mode": "most"})"
                                    << "options.mode: unknown value \"most\" (allowed: all, any)";
    QTest::newRow("regex: missing") << "regex" << "{}" << "options.pattern: missing (a regular expression in Python's syntax)";
    QTest::newRow("regex: does not compile") << "regex" << R"({"pattern": "a)("})"
                                             << "options.pattern: regex does not compile: unmatched close parenthesis";
    QTest::newRow("numeric: negative") << "numeric" << R"({"tolerance": -1})"
                                       << "options.tolerance: must be at least 0, found -1";
    QTest::newRow("numeric: string") << "numeric" << R"({"relative": "1"})"
                                     << "options.relative: must be a number, found \"1\"";
    QTest::newRow("f1: unit") << "f1" << R"({"unit": "word"})" << "options.unit: unknown value \"word\" (allowed: token, char)";
    QTest::newRow("json_valid: type") << "json_valid" << R"({"type": "string"})"
                                      << "options.type: unknown value \"string\" (allowed: any, object, array)";
    QTest::newRow("json_schema: none") << "json_schema" << "{}"
                                       << "options.schema: missing (give schema, a JSON Schema object, or schema_file, "
                                          "the path of one)";
    QTest::newRow("json_schema: both") << "json_schema" << R"({"schema": {}, "schema_file": "s.json"})"
                                       << "options.schema_file: give either schema or schema_file, not both";
    QTest::newRow("json_schema: not an object") << "json_schema" << R"({"schema": "object"})"
                                                << "options.schema: must be a JSON Schema object, found string";
    QTest::newRow("json_schema: unsupported") << "json_schema" << R"({"schema": {"type": "string", "format": "email"}})"
                                              << "options.schema: the keyword \"format\" is not supported (supported: "
                                                 "type, properties, required, additionalProperties, items, enum, const, "
                                                 "minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, "
                                                 "maxLength, pattern, minItems, maxItems; annotations: $schema, $id, "
                                                 "$comment, title, description, default, examples)";
    QTest::newRow("json_schema: unsupported, nested") << "json_schema"
                                                      << R"({"schema": {"properties": {"e": {"$ref": "#/x"}}}})"
                                                      << u("options.schema: the keyword \"$ref\" at #/properties/e is "
                                                           "not supported (supported: …");
    QTest::newRow("json_schema: additionalProperties schema")
        << "json_schema" << R"({"schema": {"additionalProperties": {"type": "string"}}})"
        << "options.schema: additionalProperties must be true or false (a schema as its value is not supported)";
    QTest::newRow("json_schema: items list") << "json_schema" << R"({"schema": {"items": [{}, {}]}})"
                                             << "options.schema: items must be one schema for every item (a list of "
                                                "schemas is not supported)";
    QTest::newRow("json_schema: type name") << "json_schema" << R"({"schema": {"properties": {"n": {"type": "int"}}}})"
                                            << "options.schema: type at #/properties/n must be a type name or a list of "
                                               "them (null, boolean, object, array, number, integer, string), found \"int\"";
    QTest::newRow("json_schema: minimum") << "json_schema" << R"({"schema": {"minimum": "0"}})"
                                          << "options.schema: minimum must be a number";
    QTest::newRow("json_schema: draft 4 exclusiveMinimum") << "json_schema" << R"({"schema": {"exclusiveMinimum": true}})"
                                                           << "options.schema: exclusiveMinimum must be a number (draft "
                                                              "4's true / false form is not supported)";
    QTest::newRow("json_schema: maxLength") << "json_schema" << R"({"schema": {"maxLength": -1}})"
                                            << u("options.schema: maxLength must be a whole number ≥ 0, found -1");
    QTest::newRow("json_schema: pattern") << "json_schema" << R"({"schema": {"pattern": "("}})"
                                          << "options.schema: pattern does not compile: regex does not compile: end "
                                             "pattern with unmatched parenthesis";
    QTest::newRow("json_fields: fields") << "json_fields" << R"({"fields": "name"})"
                                         << "options.fields: must be a non-empty list of strings, found \"name\"";
    QTest::newRow("tag_format: brackets") << "tag_format" << R"({"tags": ["<think>"]})"
                                          << "options.tags[0]: must be a tag's name without < > (letters, digits, _ - : "
                                             ".), found \"<think>\"";
    QTest::newRow("tag_format: twice") << "tag_format" << R"({"tags": ["a", "a"]})"
                                       << "options.tags[1]: \"a\" is listed twice";
    QTest::newRow("length: no bound") << "length" << "{}" << "options.min: missing: give min, max or both";
    QTest::newRow("length: max below min") << "length" << R"({"min": 5, "max": 3})"
                                           << "options.max: must be at least min (5), found 3";
    QTest::newRow("length: not whole") << "length" << R"({"min": 1.5})" << "options.min: must be a whole number, found 1.5";
    QTest::newRow("length: slack without max") << "length" << R"({"min": 3, "slack": 2})"
                                               << "options.slack: applies above max only: give max too";
    QTest::newRow("length: slack 0") << "length" << R"({"max": 3, "slack": 0})"
                                     << "options.slack: must be above 0, found 0";
    QTest::newRow("length: unit") << "length" << R"({"max": 3, "unit": "tokens"})"
                                  << "options.unit: unknown value \"tokens\" (allowed: words, chars)";
    QTest::newRow("language: missing") << "language" << "{}"
                                       << "options.language: missing (allowed: en, ja, zh, ko, ru, ar, hi, th, el, he)";
    QTest::newRow("language: unknown") << "language" << R"({"language": "fr"})"
                                       << "options.language: unknown value \"fr\" (allowed: en, ja, zh, ko, ru, ar, hi, "
                                          "th, el, he)";
    QTest::newRow("repetition: n 0") << "repetition" << R"({"n": 0})" << "options.n: must be at least 1, found 0";
    QTest::newRow("repetition: unknown key") << "repetition" << R"({"n": 2, "size": 3})"
                                             << "options.size: unknown option (allowed: n, unit, target)";
}

void TestRewardLibrary::badOptions()
{
    QFETCH(QString, reward);
    QFETCH(QString, options);
    QFETCH(QString, message);
    const QString got = QString::fromStdString(optionError(reward.toStdString(), options.toStdString()));
    if (message.endsWith(QChar(0x2026)))
        QVERIFY2(got.startsWith(message.chopped(1)), qPrintable(got));
    else
        QCOMPARE(got, message);
}

void TestRewardLibrary::registry()
{
    const std::vector<std::string> library{"exact_match", "contains",   "regex",      "numeric",
                                           "f1",          "json_valid", "json_schema", "json_fields",
                                           "tag_format",  "length",     "language",   "repetition"};
    const Registry &builtin = task::Catalog::builtin().rewards();
    // Every task, and a task no one registered, is served by all of them.
    std::vector<std::string> tasks = builtin.tasks();
    tasks.push_back("no_such_task");
    for (const std::string &t : tasks) {
        const std::vector<std::string> names = builtin.names(t);
        for (const std::string &n : library)
            QVERIFY2(std::find(names.begin(), names.end(), n) != names.end(), (t + " lacks " + n).c_str());
    }
    for (const std::string &n : library) {
        const Registry::Entry *e = builtin.find(n);
        QVERIFY(e);
        QVERIFY(e->task.empty());
        QVERIFY(!e->description.empty());
        QVERIFY(!e->needsEmbedder && !e->needsJudge);
        QVERIFY2(!RewardText::description(QString::fromStdString(n)).isEmpty(), n.c_str());
    }
    // … and `python` and `remote` (reward/python/, reward/remote/; their own tests), registered with them.
    QCOMPARE(libraryRegistry().entries().size(), library.size() + 2);
    QVERIFY(libraryRegistry().find("python"));
    QVERIFY(libraryRegistry().find("remote"));
}

void TestRewardLibrary::throughConfig()
{
    // In a reward config of a built-in task, under names of their own, with options.
    const Registry &builtin = task::Catalog::builtin().rewards();
    const char *json = R"({"task": "company_extraction", "components": [
        {"reward": "exact_match", "weight": 1},
        {"reward": "regex", "name": "has_digit", "weight": 1, "options": {"pattern": "\\d"}},
        {"reward": "regex", "name": "has_x", "weight": 2, "options": {"pattern": "x"}}]})";
    const CompositeReward c(parseRewardConfig(json, "lib.json", builtin), "lib.json", builtin);
    QCOMPARE(c.size(), size_t(3));
    QCOMPARE(c.component(1).name(), std::string_view("has_digit"));
    QCOMPARE(c.component(2).name(), std::string_view("has_x"));
    // exact_match 1, has_digit 1, has_x 0: (1·1 + 1·1 + 2·0) / 4 = 0.5.
    const CompositeReward::Scores s = c.score(PlainExample("a1"), TestCompletion("a1", "a1"));
    QCOMPARE(s.components, (std::vector<double>{1.0, 1.0, 0.0}));
    QVERIFY(std::abs(s.total - 0.5) <= kTol);
    QCOMPARE(c.explain(PlainExample("a1"), TestCompletion("a1", "a1"))[1].reward, std::string("has_digit"));
    // A bad option names the component.
    const char *bad = R"({"task": "company_extraction", "components": [
        {"reward": "contains", "weight": 1, "options": {"strings": ["a"], "mode": "most"}}]})";
    try {
        CompositeReward(parseRewardConfig(bad, "bad.json", builtin), "bad.json", builtin);
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        QVERIFY2(std::string(e.what()).find("components[0]: options.mode: unknown value \"most\" (allowed: all, any)") !=
                     std::string::npos,
                 e.what());
    }
    // A column no example has stops the run before it starts.
    const char *column = R"({"task": "company_extraction", "components": [
        {"reward": "numeric", "weight": 1, "options": {"column": "n"}}]})";
    const CompositeReward needsColumn(parseRewardConfig(column, "col.json", builtin), "col.json", builtin);
    const PlainExample e("1", "train-9");
    try {
        needsColumn.checkExamples({&e}, "train.jsonl");
        QFAIL("expected an error");
    } catch (const data::InputException &ex) {
        QVERIFY2(std::string(ex.what()).find("\"n\"") != std::string::npos &&
                     std::string(ex.what()).find("train-9") != std::string::npos,
                 ex.what());
    }
}

void TestRewardLibrary::sentences()
{
    // Every key's sentence, as the workbench shows it untranslated, is core's English with
    // the arguments in place.
    for (const auto &[key, sentence] : librarySentences()) {
        Explanation x;
        x.reason = Reason::Library;
        x.key = std::string(key);
        x.args = {"A1", "A2", "A3", "A4", "A5", "A6", "A7"};
        x.detail = libraryDetail(x.key, x.args);
        QVERIFY2(x.detail.find('%') == std::string::npos, (x.key + ": " + x.detail).c_str());
        QCOMPARE(RewardText::explanation(x).toStdString(), x.detail);
    }
    // The workbench translates every key core sets, and no other (an unknown key would
    // fall back to the English detail, which the comparison above cannot see).
    QStringList coreKeys;
    for (const auto &[key, sentence] : librarySentences())
        coreKeys << QString::fromLatin1(key.data(), static_cast<qsizetype>(key.size()));
    QStringList workbenchKeys = RewardText::librarySentenceKeys();
    coreKeys.sort();
    workbenchKeys.sort();
    QCOMPARE(workbenchKeys, coreKeys);
    // One pass: an argument that holds "%2" is not read as a marker.
    Explanation x;
    x.reason = Reason::Library;
    x.key = "exact_match.equal";
    x.args = {"a%2", "b"};
    x.detail = libraryDetail(x.key, x.args);
    QCOMPARE(x.detail, std::string("The reply \"a%2\" equals the reference \"b\": 1."));
    QCOMPARE(RewardText::explanation(x).toStdString(), x.detail);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, libraryDetail("no.such_key", {}));
}

QTEST_APPLESS_MAIN(TestRewardLibrary)
#include "tst_rewardlibrary.moc"
