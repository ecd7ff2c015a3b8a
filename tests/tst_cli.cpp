// The rwb CLI, run as a process: reward score / list / compare, eval score, bench
// rewards, --help, bad input and exit codes. Expected numbers are worked out by hand
// from the definitions of issue 2 (see the comments); the tolerance is 1e-9.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QMap>
#include <QTemporaryDir>
#include <QThread>

#include "loopbackserver.h"
#include "mcts/searchrecord.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "testtime.h"
#include <QtTest>

#include <cmath>
#include <map>

namespace {

// Each rwb process gets this long before the test gives up on it.
constexpr int kProcessTimeoutMs = 60000;
// Tolerance for numbers compared with hand-computed values.
constexpr double kTolerance = 1e-9;

// A scripted judge's reply: one choice holding `content`, with the model and the usage a
// server reports.
void setChatReply(httplib::Response &res, const std::string &content)
{
    res.set_content(nlohmann::json{{"model", "scripted-judge"},
                                   {"choices", {{{"index", 0}, {"message", {{"role", "assistant"},
                                                                            {"content", content}}}}}},
                                   {"usage", {{"prompt_tokens", 12}, {"completion_tokens", 4}}}}
                        .dump(),
                    "application/json");
}

struct Result {
    int exitCode = -1;
    QString out;
    QString err;
};

QString dataPath(const QString &name)
{
    return QStringLiteral(RWB_TEST_DATA "/") + name;
}

QString resourcePath(const QString &name)
{
    return QStringLiteral(RWB_RESOURCES_DIR "/") + name;
}

// Runs rwb with `args`; a crash or a time-out is reported as exit code -1.
Result runRwb(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(RWB_BINARY), args);
    Result r;
    if (!p.waitForStarted(rwbtest::scaledMs(kProcessTimeoutMs))) {
        r.err = QStringLiteral("rwb did not start: ") + p.errorString();
        return r;
    }
    if (!p.waitForFinished(rwbtest::scaledMs(kProcessTimeoutMs))) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("rwb timed out");
        return r;
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

// Non-empty lines of a text.
QStringList linesOf(const QString &text)
{
    return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QJsonObject parseObject(const QString &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        qWarning("not a JSON object (%s): %s", qPrintable(error.errorString()), qPrintable(text));
    return doc.object();
}

bool near(double a, double b)
{
    return std::abs(a - b) <= kTolerance;
}

QString describe(const Result &r)
{
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3").arg(r.exitCode).arg(r.out, r.err);
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();

    void rewardScore_data();
    void rewardScore();
    void rewardScoreOneLinePerInputInOrder();
    void rewardScoreToOutputFile();
    void rewardScoreExplain();

    void malformedLineStops();
    void skipInvalidGoesOn();

    void badConfig_data();
    void badConfig();

    void evalScore();
    void evalScoreThinking();
    void evalScoreUnknownTask();
    void evalCompare();
    void mctsTablePairsTheSearchWithGreedy();
    void evalCompareBadInput();
    void grpoTablePairsF1AsCounts();

    void help_data();
    void help();
    void usageErrors_data();
    void usageErrors();

    void rewardScoreLegalQa();
    void embed();
    void benchRewards();
    void rewardList();
    void judgeCheckAndRubricGenerate();
    void judgeDataKindsAndRanking();
    void judgeDataAnswerKinds();
    void rewardCompare();

    void dataSynth();
    void modelCheck();
    void benchGrpoStepPrintsOneObject();
    void dataSynthToStdout();
    void dataStats();
};

void TestCli::initTestCase()
{
    QVERIFY2(QFile::exists(QStringLiteral(RWB_BINARY)), RWB_BINARY);
    QVERIFY(QFile::exists(dataPath("cli_input.jsonl")));
}

// tests/data/cli_input.jsonl scored with tests/data/cli_config.json (partial 20 + marker 80):
// total = (20·partial + 80·marker) / 100. N = NFKC, then white space removed; |x| counts code points.
void TestCli::rewardScore_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("partial");
    QTest::addColumn<double>("marker");
    QTest::addColumn<double>("total");

    // Exact answer: N(ans) = N(gold) = 株式会社みどり製作所 (10). partial = 2·10/20 = 1.
    // Markers stripped: みどり製作所 vs みどり製作所 → 1. total = (20 + 80)/100 = 1.
    QTest::newRow("c1 exact") << "c1" << 1.0 << 1.0 << 1.0;
    // Truncated: ans みどり製作 (5), gold 株式会社みどり製作所 (10), LCS みどり製作 = 5:
    // partial = 2·5/15 = 2/3. Stripped: みどり製作 (5) vs みどり製作所 (6), LCS 5: marker = 10/11.
    // total = (20·2/3 + 80·10/11)/100 = (440/33 + 2400/33)/100 = 2840/3300 = 142/165.
    QTest::newRow("c2 truncated") << "c2" << 2.0 / 3.0 << 10.0 / 11.0 << 142.0 / 165.0;
    // Full-width letters: gold ＳＫＹネット株式会社 → N = SKYネット株式会社 (10); ans SKYネット (6); LCS 6:
    // partial = 12/16 = 0.75. Stripping 株式会社 leaves SKYネット on both sides: marker = 1.
    // total = (20·0.75 + 80)/100 = 95/100 = 0.95.
    QTest::newRow("c3 full-width") << "c3" << 0.75 << 1.0 << 0.95;
    // Other marker: ans （株）さくら運送 → N = (株)さくら運送 (8); gold 有限会社さくら運送 (9);
    // LCS さくら運送 = 5: partial = 10/17. Stripping (株) and 有限会社 leaves さくら運送 on both: marker = 1.
    // total = (20·10/17 + 80)/100 = (200 + 1360)/1700 = 78/85.
    QTest::newRow("c4 (株) vs 有限会社") << "c4" << 10.0 / 17.0 << 1.0 << 78.0 / 85.0;
    // Recipient's company: ans 株式会社ひまわり工業 (10), gold 株式会社あおぞら商会 (10), LCS 株式会社 = 4:
    // partial = 8/20 = 0.4. Stripped: ひまわり工業 vs あおぞら商会 share no code point: marker = 0.
    // total = (20·0.4 + 0)/100 = 0.08.
    QTest::newRow("c5 recipient") << "c5" << 0.4 << 0.0 << 0.08;
}

void TestCli::rewardScore()
{
    QFETCH(QString, id);
    QFETCH(double, partial);
    QFETCH(double, marker);
    QFETCH(double, total);

    const Result r = runRwb({"reward", "score", "--config", dataPath("cli_config.json"), "--input",
                             dataPath("cli_input.jsonl")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QJsonObject line;
    for (const QString &l : linesOf(r.out)) {
        const QJsonObject o = parseObject(l);
        if (o.value("id").toString() == id)
            line = o;
    }
    QVERIFY2(!line.isEmpty(), qPrintable("no output line for " + id + "\n" + r.out));
    const QJsonObject components = line.value("components").toObject();
    QCOMPARE(components.keys(), (QStringList{"marker", "partial"}));
    const double gotPartial = components.value("partial").toDouble(-1);
    const double gotMarker = components.value("marker").toDouble(-1);
    const double gotTotal = line.value("total").toDouble(-1);
    QVERIFY2(near(gotPartial, partial), qPrintable(QString("partial %1, expected %2").arg(gotPartial, 0, 'g', 17).arg(partial, 0, 'g', 17)));
    QVERIFY2(near(gotMarker, marker), qPrintable(QString("marker %1, expected %2").arg(gotMarker, 0, 'g', 17).arg(marker, 0, 'g', 17)));
    QVERIFY2(near(gotTotal, total), qPrintable(QString("total %1, expected %2").arg(gotTotal, 0, 'g', 17).arg(total, 0, 'g', 17)));
}

void TestCli::rewardScoreOneLinePerInputInOrder()
{
    const Result r = runRwb({"reward", "score", "--config", dataPath("cli_config.json"), "--input",
                             dataPath("cli_input.jsonl")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    const QStringList lines = linesOf(r.out);
    QCOMPARE(lines.size(), 5);
    QStringList ids;
    for (const QString &l : lines) {
        const QJsonObject o = parseObject(l);
        QCOMPARE(o.keys(), (QStringList{"components", "id", "total"}));
        ids << o.value("id").toString();
    }
    QCOMPARE(ids, (QStringList{"c1", "c2", "c3", "c4", "c5"}));
}

void TestCli::rewardScoreToOutputFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString output = dir.filePath("scores.jsonl");
    const Result r = runRwb({"reward", "score", "--config", dataPath("cli_config.json"), "--input",
                             dataPath("cli_input.jsonl"), "--output", output});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QFile f(output);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = linesOf(QString::fromUtf8(f.readAll()));
    QCOMPARE(lines.size(), 5);
    QCOMPARE(parseObject(lines[0]).value("id").toString(), QString("c1"));
    QCOMPARE(parseObject(lines[4]).value("id").toString(), QString("c5"));
    // c5: 0.08, as in rewardScore().
    QVERIFY(near(parseObject(lines[4]).value("total").toDouble(-1), 0.08));
    // The temporary "<output>.part" is renamed, not left behind.
    QVERIFY(!QFile::exists(output + ".part"));
}

void TestCli::rewardScoreExplain()
{
    const Result r = runRwb({"reward", "score", "--config", dataPath("cli_config.json"), "--input",
                             dataPath("cli_input.jsonl"), "--explain"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QStringList lines = linesOf(r.out);
    QCOMPARE(lines.size(), 5);
    for (const QString &l : lines) {
        const QJsonObject ex = parseObject(l).value("explanations").toObject();
        QCOMPARE(ex.keys(), (QStringList{"marker", "partial"}));
        QVERIFY(!ex.value("partial").toString().isEmpty());
    }
    // c2: partial compares みどり製作 (5) with 株式会社みどり製作所 (10), LCS 5.
    QCOMPARE(parseObject(lines[1]).value("explanations").toObject().value("partial").toString(),
             QString("LCS 5 of 5 + 10 code points"));
}

// tests/data/cli_bad.jsonl: line 3 is cut-off JSON, line 5 has no "gold"; lines 1, 2, 4, 6 are good.
void TestCli::malformedLineStops()
{
    const QString input = dataPath("cli_bad.jsonl");
    const Result r = runRwb({"reward", "score", "--config", dataPath("cli_config.json"), "--input", input});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.startsWith(input + ":3: "), qPrintable(r.err));
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
}

void TestCli::skipInvalidGoesOn()
{
    const QString input = dataPath("cli_bad.jsonl");
    const Result r =
        runRwb({"reward", "score", "--config", dataPath("cli_config.json"), "--input", input, "--skip-invalid"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QStringList ids;
    for (const QString &l : linesOf(r.out))
        ids << parseObject(l).value("id").toString();
    QCOMPARE(ids, (QStringList{"c1", "c2", "c3", "c5"}));
    const QStringList errors = linesOf(r.err);
    QVERIFY2(errors.size() >= 2, qPrintable(r.err));
    QVERIFY2(errors[0].startsWith(input + ":3: "), qPrintable(r.err));
    QVERIFY2(errors[1].startsWith(input + ":5: ") && errors[1].contains("\"gold\""), qPrintable(r.err));
}

void TestCli::badConfig_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("mustContain");

    // The task's own rewards, then the generic ones (docs/rewards.md).
    const QString allowed = "(allowed: partial, marker, exist, format, domain, exact_match, contains";
    QTest::newRow("unknown reward") << "cli_config_unknown.json"
                                    << QStringList{": components[0].reward: ", "\"parital\"", allowed};
    QTest::newRow("negative weight") << "cli_config_negative.json" << QStringList{": components[1].weight: ", "≥ 0"};
    QTest::newRow("all-zero weights") << "cli_config_zero.json" << QStringList{": components: ", "sum to 0"};
    // The missing comma is on line 5.
    QTest::newRow("syntax error") << "cli_config_syntax.json" << QStringList{":5: column ", "not valid JSON"};
}

void TestCli::badConfig()
{
    QFETCH(QString, file);
    QFETCH(QStringList, mustContain);
    const QString config = dataPath(file);
    const Result r = runRwb({"reward", "score", "--config", config, "--input", dataPath("cli_input.jsonl")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    QVERIFY2(r.err.startsWith(config + ":"), qPrintable(r.err));
    for (const QString &part : mustContain)
        QVERIFY2(r.err.contains(part), qPrintable("missing \"" + part + "\" in: " + r.err));
}

// tests/data/cli_eval.jsonl, prediction = the trimmed completion, N = normalize:
//   v1  株式会社みどり製作所 / 株式会社みどり製作所         output, exist, tp
//   v2  "SKY ネット　株式会社" / ＳＫＹネット株式会社        output, exist, tp (white space, full width)
//   v3  "(株) さくら運送" / ㈱さくら運送                     output, exist, tp (㈱ → (株))
//   v4  不明 / 不明                                         —
//   v5  株式会社みどり製作所 / 不明                          output
//   v6  有限会社さくら運送 / " 不明\n"                       output (the gold normalizes to 不明)
//   v7  "不 明" / 株式会社あおぞら商会                       exist (the prediction normalizes to 不明)
//   v8  "" / 株式会社あおぞら商会                            output (an empty prediction counts), exist
//   v9  株式会社ひまわり工業 / 株式会社あおぞら商会          output, exist
//   v10 みどり製作所 / 株式会社みどり製作所                  output, exist (not equal: marker missing)
// n_output = v1 v2 v3 v5 v6 v8 v9 v10 = 8; n_exist = v1 v2 v3 v7 v8 v9 v10 = 7; n_tp = v1 v2 v3 = 3.
// P = 3/8 = 0.375, R = 3/7, F1 = 2PR/(P+R) = 2·3/(8+7) = 0.4.
void TestCli::evalScore()
{
    const Result r =
        runRwb({"eval", "score", "--task", "company_extraction", "--input", dataPath("cli_eval.jsonl")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(linesOf(r.out).size(), 1);
    const QJsonObject o = parseObject(r.out);
    QCOMPARE(o.keys(), (QStringList{"f1", "n_exist", "n_output", "n_tp", "precision", "recall"}));
    QCOMPARE(o.value("n_output").toInt(-1), 8);
    QCOMPARE(o.value("n_exist").toInt(-1), 7);
    QCOMPARE(o.value("n_tp").toInt(-1), 3);
    QVERIFY2(near(o.value("precision").toDouble(-1), 3.0 / 8.0), qPrintable(r.out));
    QVERIFY2(near(o.value("recall").toDouble(-1), 3.0 / 7.0), qPrintable(r.out));
    QVERIFY2(near(o.value("f1").toDouble(-1), 0.4), qPrintable(r.out));
}

// tests/data/cli_eval_thinking.jsonl with --thinking (the answer is the trimmed text of the
// first <answer>…</answer>, "" when there is none):
//   t1  <thinking>…</thinking><answer>株式会社みどり製作所</answer> / same gold   output, exist, tp
//   t2  <thinking>…</thinking>\n<answer> 不明 </answer> / 不明                    —
//   t3  株式会社みどり製作所 (no tags → "") / 株式会社みどり製作所                output, exist
//   t4  <answer>株式会社ひまわり工業</answer> / 株式会社あおぞら商会               output, exist
//   t5  <thinking>…</thinking><answer>不明</answer> / 株式会社あおぞら商会         exist
//   t6  …<answer>株式会社あおぞら商会</answer><answer>不明</answer> / same gold    output, exist, tp (first tag)
// n_output = 4 (t1 t3 t4 t6), n_exist = 5 (t1 t3 t4 t5 t6), n_tp = 2 (t1 t6):
// P = 2/4 = 0.5, R = 2/5 = 0.4, F1 = 2·2/(4+5) = 4/9.
// Without --thinking the whole trimmed completion is the answer: only t3 equals its gold and every
// completion is an output (none is exactly 不明): n_output = 6, n_exist = 5, n_tp = 1,
// P = 1/6, R = 1/5, F1 = 2·1/(6+5) = 2/11.
void TestCli::evalScoreThinking()
{
    const QString input = dataPath("cli_eval_thinking.jsonl");
    const Result r = runRwb({"eval", "score", "--task", "company_extraction", "--input", input, "--thinking"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QJsonObject o = parseObject(r.out);
    QCOMPARE(o.value("n_output").toInt(-1), 4);
    QCOMPARE(o.value("n_exist").toInt(-1), 5);
    QCOMPARE(o.value("n_tp").toInt(-1), 2);
    QVERIFY2(near(o.value("precision").toDouble(-1), 0.5), qPrintable(r.out));
    QVERIFY2(near(o.value("recall").toDouble(-1), 0.4), qPrintable(r.out));
    QVERIFY2(near(o.value("f1").toDouble(-1), 4.0 / 9.0), qPrintable(r.out));

    const Result plain = runRwb({"eval", "score", "--task", "company_extraction", "--input", input});
    QVERIFY2(plain.exitCode == 0, qPrintable(describe(plain)));
    const QJsonObject p = parseObject(plain.out);
    QCOMPARE(p.value("n_output").toInt(-1), 6);
    QCOMPARE(p.value("n_exist").toInt(-1), 5);
    QCOMPARE(p.value("n_tp").toInt(-1), 1);
    QVERIFY2(near(p.value("f1").toDouble(-1), 2.0 / 11.0), qPrintable(plain.out));
}

// rwb grpo table's paired comparison, start → last evaluation: the mean reward, and F1
// resampled as counts for a task whose metrics report n_output, n_exist and n_tp
// (extraction), none for one whose do not (legal QA). Worked out by hand:
//   step 0:  e1 "X" (gold A) wrong, e2 B right, e3 不明 (gold C: no output), e4 D right
//            output 3, exist 4, tp 2 → F1 = 2·2 / (3 + 4) = 0.5714
//   step 10: all four right → F1 = 1; difference +0.429
//   partial reward 0, 1, 0, 1 → 0.5, then 1 → 1; difference +0.500
void TestCli::grpoTablePairsF1AsCounts()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    {
        rwb::store::RunStore st(path);
        const int64_t run = st.beginRun("ext", rwb::store::RunKind::Grpo, "{}", "company_extraction");
        st.recordRewardConfig(run, 1, R"({"task": "company_extraction", "components": [{"reward": "partial", "weight": 1}]})");
        const auto r = [](double v) { return "{\"partial\": " + std::to_string(v) + "}"; };
        st.writeStep(run, 0, {{"eval/precision", 2.0 / 3}, {"eval/recall", 0.5}, {"eval/f1", 4.0 / 7}, {"eval/reward", 0.5}}, {});
        st.writeEvalPredictions(run, 0, {{"e1", "X", "A", false, r(0)}, {"e2", "B", "B", true, r(1)},
                                         {"e3", "不明", "C", false, r(0)}, {"e4", "D", "D", true, r(1)}});
        st.writeStep(run, 10, {{"eval/precision", 1.0}, {"eval/recall", 1.0}, {"eval/f1", 1.0}, {"eval/reward", 1.0}}, {});
        st.writeEvalPredictions(run, 10, {{"e1", "A", "A", true, r(1)}, {"e2", "B", "B", true, r(1)},
                                          {"e3", "C", "C", true, r(1)}, {"e4", "D", "D", true, r(1)}});
        const int64_t legal = st.beginRun("legal", rwb::store::RunKind::Grpo, "{}", "legal_qa");
        st.recordRewardConfig(legal, 1, R"({"task": "legal_qa", "components": [{"reward": "citation_f1", "weight": 1}]})");
        const auto c = [](double v) { return "{\"citation_f1\": " + std::to_string(v) + "}"; };
        st.writeStep(legal, 0, {{"eval/reward", 0.25}}, {});
        st.writeEvalPredictions(legal, 0, {{"q1", "a", "g", false, c(0)}, {"q2", "a", "g", false, c(0.5)}});
        st.writeStep(legal, 10, {{"eval/reward", 0.75}}, {});
        st.writeEvalPredictions(legal, 10, {{"q1", "a", "g", true, c(1)}, {"q2", "a", "g", false, c(0.5)}});
    }
    const Result r = runRwb({"grpo", "table", "--store", QString::fromStdString(path)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("ext: step 0 → 10 on 4 examples: reward +0.500 ["), qPrintable(r.out));
    QVERIFY2(r.out.contains("], F1 +0.429 ["), qPrintable(r.out));
    // Legal QA: the reward's difference (0.25 → 0.75), no F1 of counts.
    QVERIFY2(r.out.contains("legal: step 0 → 10 on 2 examples: reward +0.500 ["), qPrintable(r.out));
    const qsizetype legalLine = r.out.indexOf("legal: step 0");
    QVERIFY(!r.out.mid(legalLine, r.out.indexOf('\n', legalLine) - legalLine).contains("F1"));
}

namespace {

// A predictions file of four e-mails (gold A, B, C, D) whose answers are right where
// `right` has a 1: every answer names a company, so precision = recall = F1 = the share
// right. `extra` adds an e-mail the others lack; `duplicate` writes that example twice.
QString writePredictions(const QTemporaryDir &dir, const QString &name, const QString &right, bool extra = false,
                         int duplicate = -1)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    const QStringList golds{"株式会社A商事", "B工業株式会社", "有限会社C運送", "D製作所株式会社"};
    int lines = 0;
    for (int i = 0; i < 4; ++i) {
        const QString answer = right[i] == '1' ? golds[i] : QStringLiteral("株式会社ちがう");
        QJsonObject o{{"id", QStringLiteral("e%1").arg(i)}, {"task", "company_extraction"},
                      {"sender_email", "x@example.jp"}, {"email_text", "本文"}, {"gold", golds[i]}, {"completion", answer}};
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n");
        ++lines;
        if (i == duplicate)
            f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n");
    }
    if (extra)
        f.write(R"({"id": "e9", "sender_email": "x@example.jp", "email_text": "本文", "gold": "E", "completion": "E"})" "\n");
    return f.fileName();
}

} // namespace

void TestCli::evalCompare()
{
    QTemporaryDir dir;
    // One file a side: A right on 1 of 4, B on 3 of 4 → F1 0.25 → 0.75, +0.5.
    Result r = runRwb({"eval", "compare", "--a", writePredictions(dir, "a.jsonl", "1000"), "--b",
                       writePredictions(dir, "b.jsonl", "1110", true), "--effect", "0.1", "--examples", "400"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(j["task"].toString(), QStringLiteral("company_extraction"));
    QCOMPARE(j["joined"].toInt(), 4);
    QCOMPARE(j["dropped"].toInt(), 1); // B's e9
    QVERIFY(std::abs(j["a"].toObject()["f1"].toDouble() - 0.25) < kTolerance);
    QVERIFY(std::abs(j["b"].toObject()["f1"].toDouble() - 0.75) < kTolerance);
    QJsonObject f1 = j["difference"].toObject()["f1"].toObject();
    QVERIFY(std::abs(f1["estimate"].toDouble() - 0.5) < kTolerance);
    QVERIFY(std::abs(j["difference"].toObject()["correct"].toObject()["estimate"].toDouble() - 0.5) < kTolerance);
    // Each example's difference is 0 or +1, so no resample leaves [0, 1].
    QVERIFY(f1["low"].toDouble() >= 0.0 && f1["high"].toDouble() <= 1.0);
    // Power from the reported standard error: 2.8016 · se on the 4 examples, half of it on 400 / 4 = 100 times as many
    // (√100 = 10); examples for 0.1: 4 · (2.8016 · se / 0.1)², rounded up.
    const double se = f1["se"].toDouble();
    QVERIFY(se > 0.1 && se < 0.4); // the sd of a share of 4 at p = 0.5 is 0.25
    QVERIFY(std::abs(f1["detectable"].toDouble() - 2.801585 * se) < 1e-5);
    QVERIFY(std::abs(f1["detectable_on_examples"].toDouble() - 2.801585 * se / 10) < 1e-5);
    QCOMPARE(j["needed"].toObject()["f1"].toInt(), static_cast<int>(std::ceil(4 * std::pow(2.801585 * se / 0.1, 2) - 1e-6)));
    QVERIFY(!j.contains("per_seed"));

    // Two seeds a side, pooled: A right on 1 + 2 of 8, B on 3 + 4 of 8 → 0.375 → 0.875; per seed +0.5 and +0.5.
    r = runRwb({"eval", "compare", "--a", writePredictions(dir, "a1.jsonl", "1000"), "--a",
                writePredictions(dir, "a2.jsonl", "1100"), "--b", writePredictions(dir, "b1.jsonl", "1110"), "--b",
                writePredictions(dir, "b2.jsonl", "1111")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(std::abs(j["a"].toObject()["f1"].toDouble() - 0.375) < kTolerance);
    QVERIFY(std::abs(j["b"].toObject()["f1"].toDouble() - 0.875) < kTolerance);
    QCOMPARE(j["per_seed"].toArray().size(), 2);
    QVERIFY(std::abs(j["per_seed"].toArray()[0].toObject()["f1"].toDouble() - 0.5) < kTolerance);
    QVERIFY(std::abs(j["per_seed"].toArray()[1].toObject()["f1"].toDouble() - 0.5) < kTolerance);

    // All wrong → all right: every resample differs by exactly 1, standard error 0.
    r = runRwb({"eval", "compare", "--a", writePredictions(dir, "none.jsonl", "0000"), "--b",
                writePredictions(dir, "all.jsonl", "1111"), "--markdown", "--label-a", "SFT", "--label-b", "GRPO"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("| metric | SFT | GRPO | GRPO − SFT [95 % interval] |"), qPrintable(r.out));
    // No resample differs from another: power is not estimable, and the table says so.
    QVERIFY2(r.out.contains("| f1 | 0.000 | 1.000 | +1.000 [+1.000, +1.000] | no variation |"), qPrintable(r.out));
    QVERIFY2(r.out.contains("4 examples joined"), qPrintable(r.out));

    // A model with thinking against one without: B's answers are read from <answer>…</answer>.
    QFile thinking(dir.filePath("thinking.jsonl"));
    thinking.open(QIODevice::WriteOnly);
    const QStringList golds{"株式会社A商事", "B工業株式会社", "有限会社C運送", "D製作所株式会社"};
    for (int i = 0; i < 4; ++i) {
        QJsonObject o{{"id", QStringLiteral("e%1").arg(i)}, {"sender_email", "x@example.jp"}, {"email_text", "本文"},
                      {"gold", golds[i]}, {"completion", "<thinking>署名にある。</thinking><answer>" + golds[i] + "</answer>"}};
        thinking.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n");
    }
    thinking.close();
    r = runRwb({"eval", "compare", "--a", dir.filePath("a.jsonl"), "--b", thinking.fileName(), "--thinking-b"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(std::abs(j["b"].toObject()["f1"].toDouble() - 1.0) < kTolerance);
    QVERIFY(std::abs(j["difference"].toObject()["f1"].toObject()["estimate"].toDouble() - 0.75) < kTolerance);
    // Read without --thinking-b the whole completion is the answer, and none is right.
    r = runRwb({"eval", "compare", "--a", dir.filePath("a.jsonl"), "--b", thinking.fileName()});
    j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QVERIFY(std::abs(j["b"].toObject()["f1"].toDouble()) < kTolerance);
}

void TestCli::mctsTablePairsTheSearchWithGreedy()
{
    // Three 2-hop questions: greedy F1 0, 0.5, 1 and EM 0, 0, 1; the search's path F1 1, 0.5, 1
    // and EM 1, 0, 1. Paired differences {1, 0, 0} for both: mean +0.333. A resample of 3
    // has all three the 1 with chance 1/27 (above 2.5 %) and none with 8/27: [0, 1].
    QTemporaryDir dir;
    const std::string path = dir.filePath("runs.sqlite").toStdString();
    {
        rwb::store::RunStore st(path);
        const int64_t run = st.beginRun("search", rwb::store::RunKind::Mcts, "{}", "multihop");
        const double greedyF1[] = {0.0, 0.5, 1.0}, greedyEm[] = {0, 0, 1}, f1[] = {1.0, 0.5, 1.0}, em[] = {1, 0, 1};
        for (int i = 0; i < 3; ++i) {
            rwb::mcts::SearchRecord r;
            r.questionId = "q" + std::to_string(i);
            r.question = "Q?";
            r.goldAnswer = "A";
            r.hops = 2;
            st.writeMctsTree(run, r);
            st.writeStep(run, i + 1,
                         {{"greedy/f1", greedyF1[i]}, {"greedy/em", greedyEm[i]}, {"mcts/best_f1", f1[i]},
                          {"mcts/best_em", em[i]}, {"mcts/found_f1", f1[i]}},
                         {});
        }
    }
    const Result r = runRwb({"mcts", "table", "--store", QString::fromStdString(path), "--markdown"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("| **all** | 3 | 0.333 | 0.500 | 0.667 | 0.833 | 0.833 |"), qPrintable(r.out));
    QVERIFY2(r.out.contains("MCTS − greedy SFT, paired over 3 questions (95 % bootstrap interval, 2,000 resamples): "
                            "EM +0.333 [+0.000, +1.000], F1 +0.333 [+0.000, +1.000]"),
             qPrintable(r.out));
}

void TestCli::evalCompareBadInput()
{
    QTemporaryDir dir;
    const QString a = writePredictions(dir, "a.jsonl", "1000");
    // Bad input exits 2 (cli.md). An id predicted twice: the file and the line of the second.
    Result r = runRwb({"eval", "compare", "--a", a, "--b", writePredictions(dir, "dup.jsonl", "1000", false, 1)});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("dup.jsonl:3") && r.err.contains("\"e1\" predicted twice"), qPrintable(r.err));
    // The same ids for other e-mails (generated sets number their ids the same way): refused,
    // naming the file and line where the example differs.
    QFile shifted(dir.filePath("shifted.jsonl"));
    shifted.open(QIODevice::WriteOnly);
    shifted.write(R"({"id": "e0", "sender_email": "x@example.jp", "email_text": "別の本文", "gold": "株式会社A商事", "completion": "X"})" "\n");
    shifted.close();
    r = runRwb({"eval", "compare", "--a", a, "--b", shifted.fileName()});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("shifted.jsonl:1") && r.err.contains("another example than at") && r.err.contains("a.jsonl:1"),
             qPrintable(r.err));
    // No id in common.
    QFile other(dir.filePath("other.jsonl"));
    other.open(QIODevice::WriteOnly);
    other.write(R"({"id": "z1", "sender_email": "x@example.jp", "email_text": "本文", "gold": "E", "completion": "E"})" "\n");
    other.close();
    r = runRwb({"eval", "compare", "--a", a, "--b", other.fileName()});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("other.jsonl") && r.err.contains("no example id in common"), qPrintable(r.err));
    // Usage errors name the option.
    r = runRwb({"eval", "compare", "--a", a});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--a and --b"), qPrintable(r.err));
    r = runRwb({"eval", "compare", "--a", a, "--b", a, "--effect", "0"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--effect"), qPrintable(r.err));
    for (const QStringList &bad : {QStringList{"--examples", "inf"}, QStringList{"--resamples", "nan"},
                                   QStringList{"--seed", "-1"}, QStringList{"--resamples", "1e300"}}) {
        r = runRwb(QStringList{"eval", "compare", "--a", a, "--b", a} + bad);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(bad[0]), qPrintable(r.err));
    }
    // A line without its completion.
    QFile bare(dir.filePath("bare.jsonl"));
    bare.open(QIODevice::WriteOnly);
    bare.write(R"({"id": "e0", "sender_email": "x@example.jp", "email_text": "本文", "gold": "E"})" "\n");
    bare.close();
    r = runRwb({"eval", "compare", "--a", a, "--b", bare.fileName()});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("bare.jsonl:1") && r.err.contains("completion"), qPrintable(r.err));
}

void TestCli::evalScoreUnknownTask()
{
    // A task the catalog does not have: a usage error listing the ones it has.
    Result r = runRwb({"eval", "score", "--task", "no_such_task", "--input", dataPath("cli_eval.jsonl")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("unknown task \"no_such_task\"") && r.err.contains("company_extraction") &&
                 r.err.contains("legal_qa"),
             qPrintable(r.err));
    // Another task's lines: its reader refuses them, naming the file and the line.
    r = runRwb({"eval", "score", "--task", "legal_qa", "--input", dataPath("cli_eval.jsonl")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("cli_eval.jsonl:1"), qPrintable(r.err));
    // Any task of the catalog scores its own lines: the bundled legal-QA samples, one
    // JSON object with exactly the task's metrics and counts, in their order — the same
    // figures as the task's MetricSet fed here, in the test, with the same lines (188).
    const std::string legalPath = resourcePath("samples/legal_qa_samples.jsonl").toStdString();
    r = runRwb({"eval", "score", "--task", "legal_qa", "--input", QString::fromStdString(legalPath)});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const rwb::task::Task &legal = rwb::task::Catalog::builtin().get("legal_qa", "test", "task");
    rwb::task::ReadOptions all;
    all.requireCompletion = true;
    const std::unique_ptr<rwb::task::MetricSet> expected = legal.metrics();
    for (const rwb::task::Record &rec : legal.read(legalPath, all))
        expected->add(*rec.example, *legal.parse(*rec.example, rec.completion, false));
    QStringList keys;
    for (const auto &[name, value] : expected->result()) {
        keys << QString::fromStdString(name);
        QCOMPARE(o.value(keys.back()).toDouble(), value); // JSON carries the double exactly
    }
    for (const auto &[name, value] : expected->counts()) {
        keys << QString::fromStdString(name);
        QCOMPARE(o.value(keys.back()).toInteger(), value);
    }
    QCOMPARE(o.keys().size(), keys.size());
    QCOMPARE(o.value("examples").toInteger(), qint64(188));
    // A line without the model's completion is an error, as it was for extraction.
    QTemporaryDir dir;
    const QString noCompletion = dir.filePath("no_completion.jsonl");
    QFile f(noCompletion);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"id": "a", "task": "company_extraction", "sender_email": "x@y.jp", "email_text": "t", "gold": "A"})"
            "\n");
    f.close();
    r = runRwb({"eval", "score", "--task", "company_extraction", "--input", noCompletion});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("no_completion.jsonl:1") && r.err.contains("completion"), qPrintable(r.err));
}

void TestCli::help_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("rwb --help") << QStringList{"--help"}
                                << QStringList{"reward score", "reward compare", "reward list", "eval score",
                                               "bench rewards", "data synth", "data stats", "Exit codes"};
    QTest::newRow("reward score") << QStringList{"reward", "score", "--help"}
                                  << QStringList{"--config", "--input", "--output", "--skip-invalid", "--explain",
                                                 "--summary"};
    QTest::newRow("reward compare") << QStringList{"reward", "compare", "--help"}
                                    << QStringList{"--config", "--input", "--skip-invalid"};
    QTest::newRow("reward list") << QStringList{"reward", "list", "--help"} << QStringList{"rwb reward list"};
    QTest::newRow("eval score") << QStringList{"eval", "score", "--help"}
                                << QStringList{"--task", "--input", "--thinking", "--skip-invalid", "n_output"};
    QTest::newRow("eval compare") << QStringList{"eval", "compare", "--help"}
                                  << QStringList{"--a", "--b", "--effect", "--examples", "--markdown", "2.80"};
    QTest::newRow("bench rewards") << QStringList{"bench", "rewards", "--help"}
                                   << QStringList{"--input", "--seconds", "evaluations_per_second"};
    QTest::newRow("bench few-rows") << QStringList{"bench", "few-rows", "--help"}
                                    << QStringList{"--dtype", "--rows", "--passes", "avx512bf16", "mv"};
    QTest::newRow("data synth") << QStringList{"data", "synth", "--help"}
                                << QStringList{"--task", "--n", "--seed", "--split", "--out", "--max-chars", "不明"};
    QTest::newRow("data stats") << QStringList{"data", "stats", "--help"}
                                << QStringList{"--input", "--skip-invalid", "median", "p90"};
}

void TestCli::help()
{
    QFETCH(QStringList, args);
    QFETCH(QStringList, mentions);
    const Result r = runRwb(args);
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    for (const QString &m : mentions)
        QVERIFY2(r.out.contains(m), qPrintable("missing \"" + m + "\" in:\n" + r.out));
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::newRow("unknown command") << QStringList{"frobnicate"};
    QTest::newRow("unknown subcommand") << QStringList{"reward", "frobnicate"};
    QTest::newRow("unknown option") << QStringList{"reward", "score", "--frobnicate"};
    QTest::newRow("unknown eval option") << QStringList{"eval", "score", "--task", "company_extraction", "--nope"};
    QTest::newRow("missing --config") << QStringList{"reward", "score", "--input", dataPath("cli_input.jsonl")};
    QTest::newRow("option without value") << QStringList{"reward", "score", "--config"};
    QTest::newRow("missing input file") << QStringList{"reward", "score", "--config", dataPath("cli_config.json"),
                                                       "--input", dataPath("no_such_file.jsonl")};
    QTest::newRow("few-rows: 0 rows") << QStringList{"bench", "few-rows", "--rows", "1,0"};
    QTest::newRow("few-rows: 17 rows") << QStringList{"bench", "few-rows", "--rows", "17"};
    QTest::newRow("few-rows: rows not a list") << QStringList{"bench", "few-rows", "--rows", "1,,2"};
    QTest::newRow("few-rows: unknown dtype") << QStringList{"bench", "few-rows", "--dtype", "fp8"};
    const QStringList synth{"data", "synth", "--task", "company_extraction"};
    QTest::newRow("synth: unknown split") << synth + QStringList{"--n", "3", "--seed", "1", "--split", "dev"};
    QTest::newRow("synth: n not a number") << synth + QStringList{"--n", "ten", "--seed", "1", "--split", "train"};
    QTest::newRow("synth: negative seed") << synth + QStringList{"--n", "3", "--seed", "-1", "--split", "train"};
    QTest::newRow("synth: seed too large") << synth + QStringList{"--n", "3", "--seed", "18446744073709551616",
                                                                  "--split", "train"};
    QTest::newRow("synth: missing --seed") << synth + QStringList{"--n", "3", "--split", "train"};
    QTest::newRow("synth: unknown task") << QStringList{"data", "synth", "--task", "summarization", "--n", "3",
                                                        "--seed", "1", "--split", "train"};
    QTest::newRow("synth: legal_qa, too few statutes")
        << QStringList{"data", "synth", "--task", "legal_qa", "--n", "3", "--seed", "1", "--split", "train",
                       "--statutes", "2"};
    QTest::newRow("synth: --max-chars with legal_qa")
        << QStringList{"data", "synth", "--task", "legal_qa", "--n", "3", "--seed", "1", "--split", "train",
                       "--max-chars", "400"};
    QTest::newRow("synth: --corpus-out with company_extraction")
        << synth + QStringList{"--n", "3", "--seed", "1", "--split", "train", "--corpus-out", "c.jsonl"};
    QTest::newRow("synth: cap too small") << synth + QStringList{"--n", "3", "--seed", "1", "--split", "train",
                                                                 "--max-chars", "100"};
    const QStringList multihop{"data", "synth", "--task", "multihop", "--n", "3", "--seed", "1", "--split", "train"};
    QTest::newRow("synth: multihop, --statutes") << multihop + QStringList{"--statutes", "4"};
    QTest::newRow("synth: multihop, one country") << multihop + QStringList{"--countries", "1"};
    QTest::newRow("synth: multihop, fewer cities than countries") << multihop + QStringList{"--cities", "3"};
    QTest::newRow("synth: --people with legal_qa")
        << QStringList{"data", "synth", "--task", "legal_qa", "--n", "3", "--seed", "1", "--split", "train",
                       "--people", "20"};
    QTest::newRow("model check: float16") << QStringList{"model", "check", "--dtype", "float16"};
    QTest::newRow("model check: unknown device") << QStringList{"model", "check", "--device", "tpu"};
    QTest::newRow("model check: missing model folder")
        << QStringList{"model", "check", "--device", "cpu", "--model", dataPath("no_such_model")};
    QTest::newRow("stats: missing input file") << QStringList{"data", "stats", "--input", dataPath("no_such_file.jsonl")};
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, args);
    const Result r = runRwb(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(!r.err.isEmpty(), "an error must be explained on stderr");
}

void TestCli::rewardScoreLegalQa()
{
    // The reward config names the task; the legal-QA line is read, parsed and scored by it.
    QTemporaryDir dir;
    QFile config(dir.filePath("legal.json"));
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1},
                    {"reward": "non_hallucination", "weight": 1}, {"reward": "citation_f1", "weight": 2}]})");
    config.close();
    QFile input(dir.filePath("q.jsonl"));
    QVERIFY(input.open(QIODevice::WriteOnly));
    input.write(R"({"id": "q1", "question": "x", "reference_answer": "a", "law_codes": [12, 30], "retrieved": [{"id": "12", "text": "t"}], "completion": "<reasoning></reasoning><answer>a</answer><citation><law_code>12</law_code></citation>"})"
                "\n");
    input.close();
    const Result r = runRwb({"reward", "score", "--config", config.fileName(), "--input", input.fileName(), "--explain"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QJsonObject o = parseObject(linesOf(r.out).value(0));
    // format 1, non-hallucination 0.5 (12 is in the prompt), citation F1 2/3 (30 missing):
    // (1 + 0.5 + 2 · 2/3) / 4.
    QVERIFY(std::abs(o.value("total").toDouble() - (1.0 + 0.5 + 4.0 / 3.0) / 4.0) < 1e-12);
    QVERIFY(std::abs(o.value("components").toObject().value("citation_f1").toDouble() - 2.0 / 3.0) < 1e-12);
    QVERIFY(o.value("explanations").toObject().value("citation_f1").toString().contains("TP 1, FP 0, FN 1"));
}

void TestCli::embed()
{
    QTemporaryDir dir;
    const QString input = dir.filePath("texts.jsonl");
    QFile f(input);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"text\": \"30日以内に届け出る\"}\n{\"text\": \"30日以内に届け出る\"}\n");
    f.close();
    // Two equal texts: unit vectors whose dot product is 1.
    Result r = runRwb({"embed", "--input", input});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QStringList lines = linesOf(r.out);
    QCOMPARE(lines.size(), 2);
    const QJsonArray a = parseObject(lines[0]).value("embedding").toArray(), b = parseObject(lines[1]).value("embedding").toArray();
    QCOMPARE(a.size(), 65536);
    double dot = 0.0, norm = 0.0;
    for (int i = 0; i < a.size(); ++i) {
        dot += a[i].toDouble() * b[i].toDouble();
        norm += a[i].toDouble() * a[i].toDouble();
    }
    QVERIFY(std::abs(norm - 1.0) < 1e-5 && std::abs(dot - 1.0) < 1e-5);
    // A bad line is named; a server that refuses is named by its URL; hf: is not here yet.
    QVERIFY(f.open(QIODevice::Append));
    f.write("{\"txt\": 1}\n");
    f.close();
    r = runRwb({"embed", "--input", input});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("texts.jsonl:3: field \"text\" missing or not a string"), qPrintable(r.err));
    r = runRwb({"embed", "--model", "http:http://127.0.0.1:9/v1", "--options", R"({"retries": 0})", "--input",
                dataPath("cli_input.jsonl"), "--field", "completion"});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("http://127.0.0.1:9/v1/embeddings") && r.err.contains("could not connect"), qPrintable(r.err));
    r = runRwb({"bench", "embed", "--seconds", "0.2"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QVERIFY(parseObject(linesOf(r.out).value(0)).value("microseconds_per_pair").toDouble() > 0.0);
}

void TestCli::benchRewards()
{
    // Speed is a benchmark (docs/cli.md), not a test: only check that it runs and reports.
    const Result r = runRwb({"bench", "rewards", "--seconds", "0.2"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QJsonObject o = parseObject(r.out);
    QCOMPARE(o.value("benchmark").toString(), QString("rewards"));
    QVERIFY2(o.value("evaluations_per_second").toDouble(0) > 0.0, qPrintable(r.out));
    QCOMPARE(o.value("components").toArray().size(), 3);
    QCOMPARE(o.value("threads").toInt(), 1);
}

// rwb judge check against a scripted judge (and one that is down), and rwb rubric generate
// from facts and from a judge whose reply for one question has too few items.
void TestCli::judgeCheckAndRubricGenerate()
{
    QTemporaryDir dir;
    rwbtest::ScriptedServer server([](int, const rwbtest::SeenRequest &req, httplib::Response &res) {
        const std::string user = req.body["messages"].back()["content"].get<std::string>();
        nlohmann::json content;
        if (user.find("<student_answer>") != std::string::npos) { // a legal grade: always full, consistent
            content = {{"point_thought", "p"}, {"student_points", nlohmann::json::array()},
                       {"reference_points", nlohmann::json::array()},
                       {"coverage", {{"thought", "t"}, {"score", "full-coverage"}}},
                       {"contradiction", {{"thought", "t"}, {"score", "no-contradiction"}}}};
        } else if (user.find("rubric items") != std::string::npos) {
            nlohmann::json items = nlohmann::json::array();
            const int n = user.find("30日以内") != std::string::npos ? 2 : 7; // too few for one question
            for (int i = 0; i < n; ++i)
                items.push_back({{"title", "t" + std::to_string(i)},
                                 {"description", i == 0 ? "Pitfall Criteria: 誤った期限を述べている。"
                                                        : "Essential Criteria: 項目" + std::to_string(i)},
                                 {"weight", i == 0 ? -2 : 5}});
            content = {{"rubric", items}};
        } else {
            content = {{"ok", true}};
        }
        setChatReply(res, content.dump());
    }, false, "/v1/chat/completions");
    const QString judgeFile = dir.filePath("judge.json");
    {
        QFile f(judgeFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(nlohmann::json{{"url", server.url()}, {"retries", 0}}.dump()));
    }
    const Result ok = runRwb({"judge", "check", "--config", judgeFile});
    QVERIFY2(ok.exitCode == 0, qPrintable(ok.err));
    const QJsonObject o = parseObject(linesOf(ok.out).at(0));
    QCOMPARE(o.value("ok").toBool(), true);
    QCOMPARE(o.value("model").toString(), QString("scripted-judge"));
    QCOMPARE(o.value("prompt_tokens").toInt(), 12);
    QCOMPARE(o.value("reply").toString(), QString(R"({"ok":true})"));

    // A judge nobody answers: exit 1, the URL and the reason on stderr.
    const QString downFile = dir.filePath("down.json");
    {
        QFile f(downFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(nlohmann::json{
            {"url", "http://127.0.0.1:" + std::to_string(rwbtest::closedPort()) + "/v1"}, {"retries", 0}}.dump()));
    }
    const Result down = runRwb({"judge", "check", "--config", downFile});
    QCOMPARE(down.exitCode, 1);
    QVERIFY2(down.err.contains("could not connect"), qPrintable(down.err));

    // rwb judge data on two bundled questions, then rwb judge eval of a judge that always
    // says full coverage and no contradiction: every coverage label "full" the data holds is
    // recalled, precision is their share; contradiction is never found (recall 0).
    const Result data = runRwb({"judge", "data", "--input", resourcePath("samples/legal_qa_samples.jsonl"), "--out",
                                dir.filePath("jd.jsonl"), "--limit", "2"});
    QVERIFY2(data.exitCode == 0, qPrintable(data.err));
    int n = 0, full = 0, contradictions = 0;
    std::map<int, int> byFacts; // the data's lines by the reference's number of facts
    {
        QFile f(dir.filePath("jd.jsonl"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject l = QJsonDocument::fromJson(line).object();
            QCOMPARE(l.value("task").toString(), QString("chat"));
            ++n;
            full += l.value("coverage").toDouble() >= 1.0 ? 1 : 0;
            contradictions += l.value("contradiction").toBool() ? 1 : 0;
            QVERIFY(l.value("facts").toInt() >= 1);
            ++byFacts[l.value("facts").toInt()];
        }
    }
    QVERIFY(n >= 4 && full >= 1 && contradictions >= 1);
    const Result agree = runRwb({"judge", "eval", "--config", judgeFile, "--data", dir.filePath("jd.jsonl"), "--json"});
    QVERIFY2(agree.exitCode == 0, qPrintable(agree.err));
    const QJsonObject a = parseObject(linesOf(agree.out).at(0));
    QCOMPARE(a.value("requests").toInt(), n);
    QCOMPARE(a.value("failed").toInt(), 0);
    const QJsonObject fullLabel = a.value("coverage").toObject().value("labels").toArray().at(2).toObject();
    QCOMPARE(fullLabel.value("label").toString(), QString("full"));
    QCOMPARE(fullLabel.value("recall").toDouble(), 1.0);
    QVERIFY(std::abs(fullLabel.value("precision").toDouble() - double(full) / n) < 1e-12);
    const QJsonObject contra = a.value("contradiction").toObject().value("labels").toArray().at(0).toObject();
    QCOMPARE(contra.value("support").toInt(), contradictions);
    QCOMPARE(contra.value("recall").toDouble(), 0.0);
    QVERIFY(contra.value("precision").isNull()); // never judged: nothing to divide by
    // By number of facts: the same counts as the data's lines, and "always consistent"
    // agrees on consistency exactly where the data says no contradiction.
    const QJsonObject perFacts = a.value("by_facts").toObject();
    QCOMPARE(perFacts.size(), int(byFacts.size()));
    int consistentAgrees = 0;
    for (const auto &[k, count] : byFacts) {
        QCOMPARE(perFacts.value(QString::number(k)).toObject().value("n").toInt(), count);
        consistentAgrees += perFacts.value(QString::number(k)).toObject().value("consistency_agrees").toInt();
    }
    QCOMPARE(consistentAgrees, n - contradictions);
    const Result table = runRwb({"judge", "eval", "--config", judgeFile, "--data", dir.filePath("jd.jsonl")});
    QVERIFY2(table.out.contains("coverage (n " + QString::number(n) + "; rows: reference, columns: judge)"),
             qPrintable(table.out));

    // From facts: every bundled sample gets a rubric; a line without facts is reported.
    const QString samples = resourcePath("samples/legal_qa_samples.jsonl");
    const Result facts = runRwb({"rubric", "generate", "--input", samples, "--out", dir.filePath("r.jsonl"),
                                 "--from-facts", "--limit", "3"});
    QVERIFY2(facts.exitCode == 0, qPrintable(facts.err));
    QFile out(dir.filePath("r.jsonl"));
    QVERIFY(out.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = out.readAll().split('\n');
    QCOMPARE(lines.size(), 4); // 3 lines and the final newline
    const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
    const QJsonArray rubric = first.value("rubric").toArray();
    QVERIFY(rubric.size() >= 2);
    QVERIFY(rubric.at(0).toObject().value("description").toString().startsWith("Essential Criteria: 回答は"));

    // From a judge: two questions, one answered with 2 items (< 7) → written without a rubric.
    const QString two = dir.filePath("two.jsonl");
    {
        QFile f(two);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"id": "a", "question": "届出はいつまでに必要ですか。", "reference_answer": "30日以内です。", "law_codes": [1]}
{"id": "b", "question": "手数料はいくらですか。", "reference_answer": "5,000円です。", "law_codes": [2]}
)");
    }
    const Result judged = runRwb({"rubric", "generate", "--input", two, "--out", dir.filePath("j.jsonl"), "--judge",
                                  judgeFile});
    QCOMPARE(judged.exitCode, 1);
    QVERIFY2(judged.err.contains("(a): no rubric: the generated rubric has 2 items, not 7–20"), qPrintable(judged.err));
    QVERIFY2(judged.err.contains("rubrics: 1 of 2 questions, 1 failed"), qPrintable(judged.err));
    QFile j(dir.filePath("j.jsonl"));
    QVERIFY(j.open(QIODevice::ReadOnly));
    const QList<QByteArray> jl = j.readAll().split('\n');
    QVERIFY(!QJsonDocument::fromJson(jl[0]).object().contains("rubric"));
    const QJsonArray generated = QJsonDocument::fromJson(jl[1]).object().value("rubric").toArray();
    QCOMPARE(generated.size(), 7);
    QCOMPARE(generated.at(0).toObject().value("weight").toInt(), -2);
}

// rwb judge data --kinds and rwb judge eval of rubric and rating judges: an unknown kind is
// a usage error naming it; --kinds coverage writes the default's lines byte for byte, and
// with the other kinds the same coverage lines among theirs; a scripted judge that replies
// every request with its line's own completion orders the answers exactly as their true
// scores (pairwise accuracy 1 and Spearman 1 for every kind: the bundled samples' ratings
// 1 + round(9·s*) keep their scores apart), so every difference between kinds is 0; a
// line without its score stops eval with the file, line and field.
// rwb judge data --answers: the named kinds only, each line of a kind byte for byte the
// default's (the golden file's right and wrong lines), terse added with the grader's
// labels (full, consistent); an unknown kind is a usage error naming it, writing nothing.
void TestCli::judgeDataAnswerKinds()
{
    QTemporaryDir dir;
    const Result r = runRwb({"judge", "data", "--input", dataPath("judge_data_two.jsonl"), "--out",
                             dir.filePath("a.jsonl"), "--answers", "terse,wrong,right"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QFile golden(dataPath("judge_data_two_coverage.jsonl"));
    QVERIFY(golden.open(QIODevice::ReadOnly));
    QList<QByteArray> expected;
    for (const QByteArray &line : golden.readAll().split('\n'))
        if (line.contains("\"label\":\"right\"") || line.contains("\"label\":\"wrong\""))
            expected.append(line);
    QFile made(dir.filePath("a.jsonl"));
    QVERIFY(made.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = made.readAll().split('\n');
    lines.removeAll(QByteArray());
    QList<QByteArray> kept, terse;
    for (const QByteArray &line : lines)
        (line.contains("\"label\":\"terse\"") ? terse : kept).append(line);
    QCOMPARE(kept, expected);
    QCOMPARE(terse.size(), 2); // one a question, both questions have facts
    for (const QByteArray &line : terse) {
        const QJsonObject j = QJsonDocument::fromJson(line).object();
        QCOMPARE(j.value("coverage").toDouble(), 1.0);
        QCOMPARE(j.value("contradiction").toBool(true), false);
    }
    const Result bad = runRwb({"judge", "data", "--input", dataPath("judge_data_two.jsonl"), "--out",
                               dir.filePath("b.jsonl"), "--answers", "right,short"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("--answers: unknown answer kind \"short\"") && bad.err.contains("terse"),
             qPrintable(bad.err));
    QVERIFY(!QFile::exists(dir.filePath("b.jsonl")));
}

void TestCli::judgeDataKindsAndRanking()
{
    QTemporaryDir dir;
    const QString samples = resourcePath("samples/legal_qa_samples.jsonl");
    const Result unknown = runRwb({"judge", "data", "--input", samples, "--out", dir.filePath("x.jsonl"), "--kinds",
                                   "coverage,likert"});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--kinds: unknown judge kind \"likert\""), qPrintable(unknown.err));
    QVERIFY(!QFile::exists(dir.filePath("x.jsonl")));

    const auto readAll = [](const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const Result plain =
        runRwb({"judge", "data", "--input", samples, "--out", dir.filePath("plain.jsonl"), "--limit", "4"});
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
    const Result coverage = runRwb({"judge", "data", "--input", samples, "--out", dir.filePath("coverage.jsonl"),
                                    "--limit", "4", "--kinds", "coverage"});
    QVERIFY2(coverage.exitCode == 0, qPrintable(coverage.err));
    QVERIFY(!readAll(dir.filePath("plain.jsonl")).isEmpty());
    QCOMPARE(readAll(dir.filePath("coverage.jsonl")), readAll(dir.filePath("plain.jsonl")));
    // Against a golden file: the default's lines for the first two bundled questions
    // (tests/data/judge_data_two.jsonl, seed 1) as the committed rwb judge data writes them
    // (its coverage path — legalJudgeExamples, the grader's labels, the line's fields in
    // this order — is unchanged), so a change to the coverage lines fails here.
    for (const QStringList &kindsArg : {QStringList{}, QStringList{"--kinds", "coverage"}}) {
        const Result golden = runRwb(QStringList{"judge", "data", "--input", dataPath("judge_data_two.jsonl"), "--out",
                                                 dir.filePath("golden.jsonl")} + kindsArg);
        QVERIFY2(golden.exitCode == 0, qPrintable(golden.err));
        QCOMPARE(readAll(dir.filePath("golden.jsonl")), readAll(dataPath("judge_data_two_coverage.jsonl")));
    }

    const QString allPath = dir.filePath("all.jsonl");
    const Result all = runRwb({"judge", "data", "--input", samples, "--out", allPath, "--limit", "4", "--kinds",
                               "coverage,rubric_explicit,rubric_implicit,likert_simple,likert_reference"});
    QVERIFY2(all.exitCode == 0, qPrintable(all.err));
    QByteArray coverageLines;
    std::map<std::string, std::string> replies; // the scripted judge's: each request's completion
    std::map<QString, int> byKind;
    QList<QByteArray> rubricLines;
    for (const QByteArray &line : readAll(allPath).split('\n')) {
        if (line.isEmpty())
            continue;
        const QJsonObject l = QJsonDocument::fromJson(line).object();
        QCOMPARE(l.value("task").toString(), QString("chat"));
        const QJsonArray messages = l.value("messages").toArray();
        replies[messages.last().toObject().value("content").toString().toStdString()] =
            l.value("completion").toString().toStdString();
        if (!l.contains("judge_kind")) {
            coverageLines += line + '\n';
            continue;
        }
        rubricLines.push_back(line);
        const QString kind = l.value("judge_kind").toString();
        ++byKind[kind];
        for (const char *field : {"answer_id", "question_id", "kind", "score"})
            QVERIFY2(l.contains(field), field);
        if (kind == "rubric_explicit")
            QVERIFY(l.contains("item") && l.contains("items") && l.contains("weight") && l.contains("met"));
        else
            QCOMPARE(l.value("rating").toInt(), 1 + int(std::floor(9.0 * l.value("score").toDouble() + 0.5)));
    }
    QCOMPARE(coverageLines, readAll(dir.filePath("plain.jsonl")));
    QCOMPARE(byKind.size(), size_t(4));
    const int answers = byKind["likert_simple"]; // one line per answer
    QVERIFY(answers >= 4);
    QCOMPARE(byKind["rubric_implicit"], answers);
    QCOMPARE(byKind["likert_reference"], answers);
    QVERIFY(byKind["rubric_explicit"] >= 2 * answers); // at least one fact and its pitfall each

    rwbtest::ScriptedServer server([&](int, const rwbtest::SeenRequest &req, httplib::Response &res) {
        const auto it = replies.find(req.body["messages"].back()["content"].get<std::string>());
        if (it == replies.end()) {
            res.status = 400;
            return;
        }
        setChatReply(res, it->second);
    }, false, "/v1/chat/completions");
    const QString judgeFile = dir.filePath("judge.json");
    {
        QFile f(judgeFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(nlohmann::json{{"url", server.url()}, {"retries", 0}}.dump()));
    }
    const Result eval = runRwb({"judge", "eval", "--config", judgeFile, "--data", allPath, "--json", "--no-cache"});
    QVERIFY2(eval.exitCode == 0, qPrintable(eval.err));
    const QJsonObject o = parseObject(linesOf(eval.out).at(0));
    QCOMPARE(o.value("failed").toInt(), 0);
    QCOMPARE(o.value("requests").toInt(), int(rubricLines.size()) + int(coverageLines.count('\n')));
    QCOMPARE(o.value("coverage").toObject().value("agreement").toDouble(), 1.0);
    const QJsonObject ranking = o.value("ranking").toObject();
    const QJsonArray judges = ranking.value("judges").toArray();
    QCOMPARE(judges.size(), 4);
    const QStringList order{"rubric_explicit", "rubric_implicit", "likert_reference", "likert_simple"};
    for (int i = 0; i < judges.size(); ++i) {
        const QJsonObject k = judges.at(i).toObject();
        QCOMPARE(k.value("judge_kind").toString(), order[i]);
        QCOMPARE(k.value("answers").toInt(), answers);
        QCOMPARE(k.value("scored").toInt(), answers);
        QVERIFY(k.value("pairs").toInt() > 0);
        QCOMPARE(k.value("pairwise_accuracy").toDouble(), 1.0);
        QCOMPARE(k.value("pairwise_interval").toArray().at(0).toDouble(), 1.0);
        QVERIFY2(std::abs(k.value("spearman").toDouble() - 1.0) < 1e-12, qPrintable(order[i]));
        QCOMPARE(k.value("failed").toInt(), 0);
    }
    QCOMPARE(judges.at(0).toObject().value("mae").toDouble(), 0.0); // explicit: s* itself
    const QJsonArray differences = ranking.value("differences").toArray();
    QCOMPARE(differences.size(), 6);
    for (const QJsonValue &d : differences)
        QCOMPARE(d.toObject().value("difference").toDouble(), 0.0);
    // The table names each difference.
    const Result table = runRwb({"judge", "eval", "--config", judgeFile, "--data", allPath, "--no-cache"});
    QVERIFY2(table.exitCode == 0, qPrintable(table.err));
    QVERIFY2(table.out.contains("rubric_implicit − likert_simple"), qPrintable(table.out));
    QVERIFY2(table.out.contains("coverage (n "), qPrintable(table.out));

    // A question line whose own rubric is not its rubric from facts stops the rubric kinds
    // (the targets are the facts' rubric's) with the file, the line and the question: the
    // second of two bundled questions with its last rubric item dropped.
    {
        const Result facts = runRwb({"rubric", "generate", "--input", dataPath("judge_data_two.jsonl"), "--out",
                                     dir.filePath("with_rubric.jsonl"), "--from-facts"});
        QVERIFY2(facts.exitCode == 0, qPrintable(facts.err));
        const QList<QByteArray> two = readAll(dir.filePath("with_rubric.jsonl")).split('\n');
        QJsonObject second = QJsonDocument::fromJson(two.at(1)).object();
        QJsonArray rubric = second.value("rubric").toArray();
        QVERIFY(rubric.size() >= 2);
        rubric.removeLast();
        second.insert("rubric", rubric);
        {
            QFile q(dir.filePath("own_rubric.jsonl"));
            QVERIFY(q.open(QIODevice::WriteOnly));
            q.write(two.at(0) + '\n' + QJsonDocument(second).toJson(QJsonDocument::Compact) + '\n');
        }
        const Result own = runRwb({"judge", "data", "--input", dir.filePath("own_rubric.jsonl"), "--out",
                                   dir.filePath("own.jsonl"), "--kinds", "coverage,likert_simple"});
        QCOMPARE(own.exitCode, 2);
        QVERIFY2(own.err.contains("own_rubric.jsonl:2: question " + second.value("id").toString() +
                                  ": its \"rubric\" has " + QString::number(rubric.size()) + " items"),
                 qPrintable(own.err));
        QVERIFY(!QFile::exists(dir.filePath("own.jsonl")));
        // The facts' own rubric on the line passes; coverage alone never looks at it.
        const Result asGenerated = runRwb({"judge", "data", "--input", dir.filePath("with_rubric.jsonl"), "--out",
                                           dir.filePath("own.jsonl"), "--kinds", "likert_simple"});
        QVERIFY2(asGenerated.exitCode == 0, qPrintable(asGenerated.err));
        const Result coverageOnly = runRwb({"judge", "data", "--input", dir.filePath("own_rubric.jsonl"), "--out",
                                            dir.filePath("own2.jsonl")});
        QVERIFY2(coverageOnly.exitCode == 0, qPrintable(coverageOnly.err));
    }

    // A rubric line without its score: the file, the line and the field.
    const QString badPath = dir.filePath("bad.jsonl");
    {
        QFile f(badPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QJsonObject second = QJsonDocument::fromJson(rubricLines.at(1)).object();
        second.remove("score");
        f.write(rubricLines.at(0) + '\n' + QJsonDocument(second).toJson(QJsonDocument::Compact) + '\n');
    }
    const Result bad = runRwb({"judge", "eval", "--config", judgeFile, "--data", badPath});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("bad.jsonl:2: missing field \"score\""), qPrintable(bad.err));
}

void TestCli::rewardList()
{
    const Result r = runRwb({"reward", "list"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QStringList names;
    for (const QString &l : linesOf(r.out)) {
        const QJsonObject o = parseObject(l);
        QVERIFY(!o.value("description").toString().isEmpty());
        names << o.value("task").toString() + ":" + o.value("name").toString();
    }
    // The generic components first ("any": they score every task, docs/rewards.md), then each task's own.
    QCOMPARE(names, (QStringList{"any:exact_match", "any:contains", "any:regex", "any:numeric", "any:f1", "any:json_valid",
                                 "any:json_schema", "any:json_fields", "any:tag_format", "any:length", "any:language",
                                 "any:repetition", "any:python", "any:remote", "company_extraction:partial", "company_extraction:marker", "company_extraction:exist",
                                 "company_extraction:format", "company_extraction:domain", "legal_qa:xml_format",
                                 "legal_qa:non_hallucination", "legal_qa:citation_f1", "legal_qa:semantic",
                                 "legal_qa:coverage", "legal_qa:consistency", "legal_qa:rubric_explicit",
                                 "legal_qa:rubric_implicit", "legal_qa:likert_simple", "legal_qa:likert_reference",
                                 "multihop:answer_f1", "multihop:answer_em", "multihop:step_format"}));
}

void TestCli::rewardCompare()
{
    const Result r = runRwb({"reward", "compare", "--input", resourcePath("samples/company_samples.jsonl"),
                             "--config", resourcePath("presets/table2_star_partial20_marker80.json"), "--config",
                             resourcePath("presets/table1_partial20_exist80.json")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QStringList lines = linesOf(r.out);
    // A title, the header and one row per config.
    QCOMPARE(lines.size(), 4);
    const QString header = lines[1];
    for (const char *word : {"config", "all", "correct", "marker_only", "recipient", "third_party", "unknown"})
        QVERIFY2(header.contains(QLatin1String(word)), qPrintable(header));
    QVERIFY2(lines[2].startsWith("* partial 20 + marker 80"), qPrintable(lines[2]));
    QVERIFY2(lines[3].startsWith("partial 20 + exist 80"), qPrintable(lines[3]));
    // Every "correct" completion equals its gold, so their mean total is 1 under both configs.
    const int correctColumn = header.split(' ', Qt::SkipEmptyParts).indexOf("correct");
    QVERIFY(correctColumn > 0);
    for (int row = 2; row < 4; ++row) {
        // The config name holds spaces: count columns from the right.
        const QStringList cells = lines[row].split(' ', Qt::SkipEmptyParts);
        const QStringList headerCells = header.split(' ', Qt::SkipEmptyParts);
        const int fromRight = headerCells.size() - correctColumn;
        QCOMPARE(cells[cells.size() - fromRight], QString("1.000"));
    }
}

// rwb data synth writes the same bytes for the same arguments, one parseable line per
// e-mail with ids in order and no completion.
void TestCli::dataSynth()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QByteArray bytes[2];
    for (int run = 0; run < 2; ++run) {
        const QString out = dir.filePath(QString("synth%1.jsonl").arg(run));
        const Result r = runRwb({"data", "synth", "--task", "company_extraction", "--n", "50", "--seed", "9",
                                 "--split", "val", "--out", out});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY(!QFile::exists(out + ".part"));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        bytes[run] = f.readAll();
    }
    QVERIFY(!bytes[0].isEmpty());
    QCOMPARE(bytes[0], bytes[1]);
    const QStringList lines = linesOf(QString::fromUtf8(bytes[0]));
    QCOMPARE(lines.size(), 50);
    for (int i = 0; i < lines.size(); ++i) {
        const QJsonObject o = parseObject(lines[i]);
        QCOMPARE(o.value("id").toString(), QString("val-%1").arg(i + 1, 6, 10, QLatin1Char('0')));
        QCOMPARE(o.value("task").toString(), QString("company_extraction"));
        QVERIFY(!o.value("sender_email").toString().isEmpty());
        QVERIFY(!o.value("email_text").toString().isEmpty());
        QVERIFY(!o.value("gold").toString().isEmpty());
        QVERIFY(!o.contains("completion"));
    }
    // Another seed, other bytes.
    const Result other = runRwb({"data", "synth", "--task", "company_extraction", "--n", "50", "--seed", "10",
                                 "--split", "val"});
    QVERIFY2(other.exitCode == 0, qPrintable(describe(other)));
    QVERIFY(other.out.toUtf8() != bytes[0]);
}

void TestCli::dataSynthToStdout()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("synth.jsonl");
    const QStringList args{"data", "synth", "--task", "company_extraction", "--n", "20", "--seed", "3", "--split", "test"};
    const Result toFile = runRwb(args + QStringList{"--out", out});
    QVERIFY2(toFile.exitCode == 0, qPrintable(describe(toFile)));
    const Result toStdout = runRwb(args);
    QVERIFY2(toStdout.exitCode == 0, qPrintable(describe(toStdout)));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(toStdout.out.toUtf8(), f.readAll());
    // --n 0 writes an empty file.
    const Result none = runRwb({"data", "synth", "--task", "company_extraction", "--n", "0", "--seed", "3", "--split",
                                "test"});
    QVERIFY2(none.exitCode == 0 && none.out.isEmpty(), qPrintable(describe(none)));
}

void TestCli::dataStats()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("synth.jsonl");
    Result r = runRwb({"data", "synth", "--task", "company_extraction", "--n", "400", "--seed", "1", "--split",
                       "train", "--out", out});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    r = runRwb({"data", "stats", "--input", out});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QJsonObject o = parseObject(r.out);
    QCOMPARE(o.value("count").toInt(), 400);
    const double unknownShare = o.value("unknown_share").toDouble(-1);
    QVERIFY2(unknownShare > 0.08 && unknownShare < 0.22, qPrintable(r.out));
    // Rounded to 4 decimals.
    QVERIFY(std::abs(unknownShare - o.value("unknown").toInt() / 400.0) < 1e-4);
    const QJsonObject chars = o.value("chars").toObject();
    QVERIFY(chars.value("min").toInt() <= chars.value("median").toInt());
    QVERIFY(chars.value("median").toInt() <= chars.value("p90").toInt());
    QVERIFY(chars.value("p90").toInt() <= chars.value("max").toInt());
    QVERIFY(chars.value("max").toInt() <= 600);
    for (const char *key : {"forwarded_share", "quoted_share", "circled_kabu_share", "paren_kabu_share",
                            "full_width_latin_share", "english_name_share"}) {
        const double v = o.value(key).toDouble(-1);
        QVERIFY2(v > 0.0 && v < 1.0, key);
    }
    QCOMPARE(o.value("gold_rule_violations").toInt(-1), 0);

    // A hand-made file with known figures: lengths 3, 6, 9, 14 (code points), one 不明, one
    // gold that is not the most detailed form, one forwarded block, one ㈱.
    const QString hand = dir.filePath("hand.jsonl");
    QFile f(hand);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"id":"a","sender_email":"a@x.jp","email_text":"あいう","gold":"不明"}
{"id":"b","sender_email":"b@x.jp","email_text":"㈱ABCです","gold":"㈱ABC"}
{"id":"c","sender_email":"c@x.jp","email_text":"ABC株式会社です","gold":"ABC"}
{"id":"d","sender_email":"d@x.jp","email_text":"From: x\nX商事です。","gold":"X商事"}
)");
    f.close();
    r = runRwb({"data", "stats", "--input", hand});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QJsonObject h = parseObject(r.out);
    QCOMPARE(h.value("count").toInt(), 4);
    QCOMPARE(h.value("unknown_share").toDouble(), 0.25);
    const QJsonObject hc = h.value("chars").toObject();
    // Sorted 3, 6, 9, 14: nearest-rank median = rank ⌈0.5·4⌉ = 2 → 6, p90 = rank ⌈0.9·4⌉ = 4 → 14.
    QCOMPARE(hc.value("min").toInt(), 3);
    QCOMPARE(hc.value("median").toInt(), 6);
    QCOMPARE(hc.value("p90").toInt(), 14);
    QCOMPARE(hc.value("max").toInt(), 14);
    QCOMPARE(h.value("forwarded_share").toDouble(), 0.25);
    QCOMPARE(h.value("circled_kabu_share").toDouble(), 0.25);
    QCOMPARE(h.value("gold_rule_violations").toInt(), 1);
    QCOMPARE(h.value("gold_rule_violation_ids").toArray().first().toString(), QString("c"));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"

// rwb model check on the CPU: one JSON line per check, all passed, exit 0, and a summary
// on stderr. (The figures themselves are tst_gradcheck's.)
void TestCli::modelCheck()
{
    const Result r = runRwb({"model", "check", "--device", "cpu", "--threads", "1"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    const QStringList lines = linesOf(r.out);
    QCOMPARE(lines.size(), 18);
    // The checks in their order, each with the float32 tolerance docs/cli.md gives it.
    QStringList expected;
    for (const char *family : {"qwen3", "qwen2", "llama"})
        for (const char *check : {"logits", "kv_cache", "left_padding", "greedy", "seeded_sampling"})
            expected << QString("%1 %2 (random)").arg(check, family);
    expected << "gradient qwen3 + LoRA (random)" << "gradient_vs_cpu qwen3 + LoRA (random)"
             << "gradient_padded qwen3 + LoRA (random)";
    const QMap<QString, double> tolerance{{"logits", 1e-4}, {"kv_cache", 1e-4}, {"left_padding", 1e-4},
                                          {"greedy", 1e-4}, {"seeded_sampling", 0.0}, {"gradient", 1e-6},
                                          {"gradient_vs_cpu", 1e-4}, {"gradient_padded", 1e-4}};
    for (int i = 0; i < lines.size(); ++i) {
        const QJsonObject j = parseObject(lines[i]);
        const QString check = j.value("check").toString();
        QCOMPARE(check + " " + j.value("model").toString(), expected[i]);
        QCOMPARE(j.value("tolerance").toDouble(), tolerance.value(check));
        QVERIFY2(j.value("passed").toBool(), qPrintable(lines[i]));
    }
    QVERIFY2(r.err.contains("18 of 18 checks passed on cpu in float32"), qPrintable(r.err));
}

// rwb bench grpo-step makes its own set-up (data, tokenizer, tiny model) and prints one
// JSON object, with nothing of the set-up's output before it.
void TestCli::benchGrpoStepPrintsOneObject()
{
    QTemporaryDir dir;
    const Result r = runRwb({"bench", "grpo-step", "--steps", "1", "--work", dir.path(), "--precision", "fp32"});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    QCOMPARE(linesOf(r.out).size(), 1);
    const QJsonObject j = parseObject(r.out);
    QCOMPARE(j.value("processes").toInt(), 1);
    QCOMPARE(j.value("steps").toInt(), 1);
    QCOMPARE(j.value("precision").toString(), QString("fp32"));
    // The demo's set-up: 8 prompts a step, G = 8 completions each; no process reward model.
    QCOMPARE(j.value("rows_per_step").toInt(), 64);
    QCOMPARE(j.value("thread_split").toString(), QString("batches"));
    const QJsonObject seconds = j.value("seconds").toObject(), share = j.value("share").toObject();
    QCOMPARE(seconds.value("prm").toDouble(), 0.0);
    // The phases make up the step, and their shares of it sum to 1.
    double phases = 0.0, shares = 0.0;
    for (const QString &phase : seconds.keys()) {
        phases += seconds.value(phase).toDouble();
        shares += share.value(phase).toDouble();
    }
    const double step = j.value("seconds_per_step").toDouble();
    QVERIFY2(std::abs(phases - step) <= 1e-6 * step, qPrintable(QString("%1 vs %2").arg(phases).arg(step)));
    QVERIFY2(std::abs(shares - 1.0) <= 1e-9, qPrintable(QString::number(shares)));
    QVERIFY(std::abs(j.value("reward_and_store_share").toDouble() -
                     (share.value("reward").toDouble() + share.value("store").toDouble())) <= 1e-12);
    // The step's CPU time: some was spent, and no more than every core of the machine
    // could give over the step's wall time (5 % for the clocks' granularity).
    const double cpu = j.value("cpu_seconds_per_step").toDouble(), wall = j.value("wall_seconds_per_step").toDouble();
    const int cores = std::max(1, QThread::idealThreadCount());
    QVERIFY2(cpu > 0.0 && cpu <= 1.05 * cores * wall + 0.01,
             qPrintable(QString("cpu %1 s, wall %2 s, %3 cores").arg(cpu).arg(wall).arg(cores)));
}
