// widgets: the Reward Designer's judge rewards — scored in the background through a
// scripted loopback judge (tests/scriptedjudge.h), a weight change that sends nothing,
// an edited rubric that re-sends only the calls whose request changed, Cancel that stops
// sending, a judge that does not answer, and the calls logged to a run store that the
// Judge tab's model reads.
//
// The samples are five completions: four of question q1, whose rubric is E5 "30日以内",
// I3 "届出", P−2 "14日以内" (Σw⁺ = 8), and one of question q2, which has no rubric. The
// scripted judge grades as the rubric means (see scriptedjudge.h), so by hand:
//                      coverage  rubric_explicit            (per item: E, I, P)
//   q1-right "30日以内に届出"   1   (5 + 3) / 8 = 1           met, met, not met
//   q1-wrong "14日以内に届出"   0   (3 − 2) / 8 = 0.125       not, met, met
//   q1-bare  "30日以内です"     1   5 / 8 = 0.625             met, not, not
//   q1-worse "14日以内です"     0   −2 / 8 → 0                not, not, met
//   q2-plain "30日以内です"     1   — (no rubric: not asked)
// xml_format is 1 for all. Tolerance 1e-12.
//
// With RWB_RUBRIC_DEMO_DIR=<dir>, demoFiles writes the rubric editor's screenshot files
// there (scripts/screenshots.sh, RWB_SHOTS=rubric) and nothing else is checked; otherwise
// it is skipped.
#include "componentweightseditor.h"
#include "runsessions.h"
#include "judgesettingswidget.h"
#include "judgedecisionmodel.h"
#include "judgescorer.h"
#include "rewarddesigner.h"
#include "rubriceditor.h"
#include "rubricmodel.h"
#include "sampledetailview.h"
#include "samplescoremodel.h"

#include "tasks/legalqa/legalquestion.h"
#include "judge/judgeconfig.h"
#include "judge/rubricgen.h"
#include "tasks/legalqa/legalrubric.h"
#include "reward/judgerewards.h"
#include "store/runstore.h"
#include "tasks/legalqa/legalqatask.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QTableView>
#include <QTextDocument>
#include <QTemporaryDir>
#include <QtTest>

#include "judgestore.h"
#include "loopbackserver.h"
#include "scriptedjudge.h"
#include "testtime.h"

#include <cmath>
#include <set>

using namespace rwb;
using rwbtest::ScriptedServer;
using rwbtest::SeenRequest;
using CellState = SampleScoreModel::CellState;
using json = nlohmann::json;

namespace {

constexpr double kTol = 1e-12;

// Components of the legal-QA task, in registry order.
enum Component { XmlFormat, NonHallucination, CitationF1, Semantic, Coverage, Consistency, RubricExplicit,
                 RubricImplicit, LikertSimple, LikertReference };

QString writeSamples(const QTemporaryDir &dir)
{
    const QString path = dir.filePath("samples.jsonl");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    const std::pair<const char *, const char *> q1[] = {{"right", "30日以内に届出が必要です。"},
                                                        {"wrong", "14日以内に届出が必要です。"},
                                                        {"bare", "30日以内です。"},
                                                        {"worse", "14日以内です。"}};
    for (const auto &[label, answer] : q1) {
        data::LegalQuestion q = rwbtest::question();
        q.id = std::string("q1-") + label;
        q.label = label;
        q.hasCompletion = true;
        q.completion = rwbtest::output(answer);
        f.write(QByteArray::fromStdString(data::toJsonLine(q)) + "\n");
    }
    data::LegalQuestion q2 = rwbtest::question(/*withRubric=*/false);
    q2.id = "q2-plain";
    q2.question = "期限を教えてください。";
    q2.label = "plain";
    q2.hasCompletion = true;
    q2.completion = rwbtest::output("30日以内です。");
    f.write(QByteArray::fromStdString(data::toJsonLine(q2)) + "\n");
    return path;
}

// xml_format 1, coverage 1, rubric_explicit 2, with a judge at `url`.
QString writeConfig(const QTemporaryDir &dir, const std::string &url, int concurrency = 4, const char *name = "judged.json")
{
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    const json config = {{"task", "legal_qa"},
                         {"components",
                          json::array({{{"reward", "xml_format"}, {"weight", 1}},
                                       {{"reward", "coverage"}, {"weight", 1}},
                                       {{"reward", "rubric_explicit"}, {"weight", 2}}})},
                         {"judge",
                          {{"url", url},
                           {"model", "scripted"},
                           {"retries", 0},
                           {"breaker_threshold", 0},
                           {"concurrency", concurrency}}}};
    f.write(QByteArray::fromStdString(config.dump(2)));
    return path;
}

int rowOf(const SampleScoreModel *m, const std::string &id)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->record(r).example->id() == id)
            return r;
    return -1;
}

double value(const SampleScoreModel *m, const std::string &id, int component)
{
    return m->componentValue(rowOf(m, id), component);
}

// Waits for the Designer's re-score to finish (the scorer's signal), false on a timeout.
bool waitForJudge(RewardDesigner &d, int ms = 20000)
{
    QSignalSpy done(d.model(), &SampleScoreModel::judgingFinished);
    return d.model()->isJudging() ? done.wait(ms) : true;
}

// The scripted judge, 0.2 s an answer: slow enough to act while a re-score runs.
void slowJudgeScript(int n, const SeenRequest &req, httplib::Response &res)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    rwbtest::judgeScript(n, req, res);
}

// Loads the samples and a config with a one-call-at-a-time judge at `url` into `d`; the
// re-score it starts is still running.
bool openSlow(RewardDesigner &d, const QString &samples, const QTemporaryDir &dir, const std::string &url,
              const char *name)
{
    QString error;
    if (!d.loadSamples(samples, &error) || !d.loadConfig(writeConfig(dir, url, /*concurrency=*/1, name), &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

// Loads the samples and a config into `d` and waits for the judge's first re-score.
bool openJudged(RewardDesigner &d, const QString &samples, const QString &config)
{
    QString error;
    if (!d.loadSamples(samples, &error) || !d.loadConfig(config, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return waitForJudge(d);
}

// The proxy row of a sample.
int proxyRow(RewardDesigner &d, const std::string &id)
{
    const QModelIndex source = d.model()->index(rowOf(d.model(), id), 0);
    return static_cast<QSortFilterProxyModel *>(d.table()->model())->mapFromSource(source).row();
}

// The judge of the screenshots: answers the legal-QA judge rewards' requests as the
// reference grader grades each answer (coverage, contradiction) and as the rubric's
// facts read (an item "回答は…を「value」と述べている。" is met when the answer has the value),
// under the identity and model of tests/judgestore.h's judge, so that the Designer pointed
// at that URL finds every reply in the cache.
class DemoJudge final : public judge::ChatBackend {
public:
    explicit DemoJudge(std::map<std::string, eval::LegalGrade> grades) : m_grades(std::move(grades)) {}
    std::string identity() const override { return rwbtest::kChatBackend; }
    std::string model() const override { return rwbtest::kJudgeModel; }
    judge::ChatReply complete(const judge::ChatRequest &request, int &attempts) const override
    {
        attempts = 1;
        const std::string user = request.messages.back().content;
        std::string content;
        if (request.sampling.schemaName == judge::legalSchema().name) {
            const std::string answer = rwbtest::section(user, "student_answer");
            const auto g = m_grades.find(answer);
            const double coverage = g == m_grades.end() ? 0.0 : g->second.coverage;
            const bool contradiction = g != m_grades.end() && g->second.consistency == 0.0;
            content = rwbtest::wrapReply(rwbtest::legalReplyObject(coverage, contradiction, {answer},
                                                                   {rwbtest::section(user, "reference_answer")}),
                                         rwbtest::ReplyForm::Fenced);
        } else {
            const std::string item = rwbtest::section(user, "rubric_item");
            const size_t open = item.find("「");
            const size_t close = item.find("」", open);
            const std::string value = open == std::string::npos || close == std::string::npos
                                          ? item
                                          : item.substr(open + 3, close - open - 3);
            const bool met = rwbtest::section(user, "response").find(value) != std::string::npos;
            content = json{{"explanation", met ? "回答はこの値を述べている。" : "回答にこの値は書かれていない。"},
                           {"criteria_met", met}}
                          .dump();
        }
        judge::ChatReply reply;
        reply.model = model();
        reply.promptTokens = 420;
        reply.completionTokens = 60;
        reply.choices.push_back({content, "stop", {}});
        return reply;
    }

private:
    std::map<std::string, eval::LegalGrade> m_grades; // by answer
};

} // namespace

class TestDesignerJudge : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void judgeColumnsFillInBackground();
    void weightChangeSendsNothing();
    void editedRubricResendsOnlyChangedItems();
    void cancelStopsSending();
    void weightToZeroStopsAsking();
    void judgeThatDoesNotAnswer();
    void closingDoesNotWaitForTheJudge();
    void callsLoggedForTheJudgeTab();
    void noJudgeNoCalls();
    void useJudgeSettings();
    void demoFiles();

private:
    QTemporaryDir m_dir;
    QString m_samples;
};

void TestDesignerJudge::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_samples = writeSamples(m_dir);
}

void TestDesignerJudge::judgeColumnsFillInBackground()
{
    ScriptedServer server(rwbtest::judgeScript, false, rwbtest::kJudgePath);
    RewardDesigner d;
    QAbstractItemModelTester tester(d.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    QVERIFY2(d.loadSamples(m_samples, &error), qPrintable(error));
    QVERIFY2(d.loadConfig(writeConfig(m_dir, server.url()), &error), qPrintable(error));
    SampleScoreModel *m = d.model();
    QCOMPARE(m->componentNames().size(), 10);
    QVERIFY(m->isJudgeComponent(Coverage) && !m->isJudgeComponent(XmlFormat));
    // At once: the rule values; the weighted judge cells wait, the others are not sent.
    const int right = rowOf(m, "q1-right");
    QCOMPARE(m->componentValue(right, XmlFormat), 1.0);
    QCOMPARE(m->cellState(right, Coverage), CellState::Pending);
    QCOMPARE(m->index(right, m->componentColumn(Coverage)).data().toString(), QString("…"));
    QCOMPARE(m->totalState(right), CellState::Pending);
    QCOMPARE(m->cellState(right, Consistency), CellState::NotScored);
    QVERIFY(m->cellNote(right, Consistency).startsWith("weight 0"));
    QVERIFY(waitForJudge(d));

    QCOMPARE(value(m, "q1-right", Coverage), 1.0);
    QCOMPARE(value(m, "q1-wrong", Coverage), 0.0);
    QCOMPARE(value(m, "q1-bare", Coverage), 1.0);
    QCOMPARE(value(m, "q1-worse", Coverage), 0.0);
    QCOMPARE(value(m, "q2-plain", Coverage), 1.0);
    QVERIFY(std::abs(value(m, "q1-right", RubricExplicit) - 1.0) < kTol);
    QVERIFY(std::abs(value(m, "q1-wrong", RubricExplicit) - 0.125) < kTol);
    QVERIFY(std::abs(value(m, "q1-bare", RubricExplicit) - 0.625) < kTol);
    QVERIFY(std::abs(value(m, "q1-worse", RubricExplicit) - 0.0) < kTol);
    // q2 has no rubric: not asked, and said why.
    const int plain = rowOf(m, "q2-plain");
    QCOMPARE(m->cellState(plain, RubricExplicit), CellState::NotApplicable);
    QVERIFY2(m->cellNote(plain, RubricExplicit).contains("has no rubric"), qPrintable(m->cellNote(plain, RubricExplicit)));
    // Totals over weights 1, 1, 2 (Σ 4): right (1 + 1 + 2) / 4; wrong (1 + 0 + 0.25) / 4;
    // bare (1 + 1 + 1.25) / 4; worse 1 / 4; q2 has a weighted score without a value.
    QVERIFY(std::abs(m->total(right) - 1.0) < kTol);
    QVERIFY(std::abs(m->total(rowOf(m, "q1-wrong")) - 0.3125) < kTol);
    QVERIFY(std::abs(m->total(rowOf(m, "q1-bare")) - 0.8125) < kTol);
    QVERIFY(std::abs(m->total(rowOf(m, "q1-worse")) - 0.25) < kTol);
    QCOMPARE(m->totalState(plain), CellState::NotScored);
    QCOMPARE(m->index(plain, m->totalColumn()).data().toString(), QString("—"));
    // 5 coverage calls and 4 × 3 item calls.
    QCOMPARE(server.requests().size(), size_t(17));
    QVERIFY2(d.judgeStatus().contains("up to date"), qPrintable(d.judgeStatus()));

    // The detail explains a judge score from the calls already made (nothing is sent).
    d.selectRow(proxyRow(d, "q1-wrong"));
    QTextDocument doc;
    doc.setHtml(d.detailView()->html());
    const QString text = doc.toPlainText();
    QVERIFY2(text.contains("The judge's verdict gives 0.125 (3 call"), qPrintable(text.left(2000)));
    QCOMPARE(server.requests().size(), size_t(17));
}

void TestDesignerJudge::weightChangeSendsNothing()
{
    ScriptedServer server(rwbtest::judgeScript, false, rwbtest::kJudgePath);
    RewardDesigner d;
    QVERIFY(openJudged(d, m_samples, writeConfig(m_dir, server.url())));
    QCOMPARE(server.requests().size(), size_t(17));
    SampleScoreModel *m = d.model();
    // coverage 1 → 3: weights 1, 3, 2 (Σ 6). wrong: (1 + 0 + 0.25) / 6.
    d.weightsEditor()->editWeight(Coverage, 3);
    QVERIFY(!m->isJudging());
    QVERIFY(std::abs(m->total(rowOf(m, "q1-wrong")) - 1.25 / 6.0) < kTol);
    QTest::qWait(50);
    QCOMPARE(server.requests().size(), size_t(17));
    // likert_simple 0 → 1: only its five calls. Ratings 9 and 2: 8/9 and 1/9.
    d.weightsEditor()->editWeight(LikertSimple, 1);
    QCOMPARE(m->cellState(rowOf(m, "q1-right"), LikertSimple), CellState::Pending);
    QCOMPARE(m->cellState(rowOf(m, "q1-right"), Coverage), CellState::Value);
    QVERIFY(waitForJudge(d));
    QCOMPARE(server.requests().size(), size_t(17 + 5));
    QVERIFY(std::abs(value(m, "q1-right", LikertSimple) - 8.0 / 9.0) < kTol);
    QVERIFY(std::abs(value(m, "q1-worse", LikertSimple) - 1.0 / 9.0) < kTol);
    // Back to 0 and up again: the values stayed, nothing is sent.
    d.weightsEditor()->editWeight(LikertSimple, 0);
    d.weightsEditor()->editWeight(LikertSimple, 2);
    QVERIFY(waitForJudge(d));
    QCOMPARE(server.requests().size(), size_t(17 + 5));
}

void TestDesignerJudge::editedRubricResendsOnlyChangedItems()
{
    ScriptedServer server(rwbtest::judgeScript, false, rwbtest::kJudgePath);
    RewardDesigner d;
    QVERIFY(openJudged(d, m_samples, writeConfig(m_dir, server.url())));
    SampleScoreModel *m = d.model();
    widgets::RubricEditor *editor = d.rubricEditor();

    // Selecting q1-bare opens its question's rubric with its verdicts: met, not met, not
    // met; the explicit score 5 / 8.
    d.selectRow(proxyRow(d, "q1-bare"));
    QCOMPARE(editor->sampleId(), QString("q1-bare"));
    widgets::RubricModel *items = editor->model();
    QAbstractItemModelTester tester(items, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(items->rowCount(), 3);
    QCOMPARE(items->verdict(0), std::optional<double>(1.0));
    QCOMPARE(items->verdict(1), std::optional<double>(0.0));
    QCOMPARE(items->verdict(2), std::optional<double>(0.0));
    QVERIFY(std::abs(*items->score() - 0.625) < kTol);

    // The Important item 3 → 1: its verdict goes (its request changes), the others stay.
    QVERIFY(items->setData(items->index(1, widgets::RubricModel::WeightColumn), 1.0));
    QVERIFY(items->isModified());
    QVERIFY(!items->verdict(1));
    QCOMPARE(items->verdict(0), std::optional<double>(1.0));
    QVERIFY(!items->score());
    QVERIFY(editor->apply());
    QVERIFY(!items->isModified());
    QVERIFY(waitForJudge(d));
    // Only the edited item's four requests were sent again (E and P, coverage: memory).
    QCOMPARE(server.requests().size(), size_t(17 + 4));
    // E5, I1, P−2 (Σw⁺ = 6): right (5 + 1) / 6 = 1; wrong (1 − 2) / 6 → 0; bare 5 / 6; worse → 0.
    QVERIFY(std::abs(value(m, "q1-right", RubricExplicit) - 1.0) < kTol);
    QVERIFY(std::abs(value(m, "q1-wrong", RubricExplicit) - 0.0) < kTol);
    QVERIFY(std::abs(value(m, "q1-bare", RubricExplicit) - 5.0 / 6.0) < kTol);
    QVERIFY(std::abs(value(m, "q1-worse", RubricExplicit) - 0.0) < kTol);
    QVERIFY(m->hasRubricOverride(rowOf(m, "q1-right")) && !m->hasRubricOverride(rowOf(m, "q2-plain")));
    // The editor shows the new verdicts of q1-bare and the score (5·1 + 1·0 − 2·0) / 6.
    QTest::qWait(200); // the detail's coalescing timer
    QCOMPARE(items->verdict(1), std::optional<double>(0.0));
    QVERIFY(std::abs(*items->score() - 5.0 / 6.0) < kTol);
    // The records keep their own rubric: the Important item still weighs 3.
    const auto *own = dynamic_cast<const task::JudgedExample *>(m->record(rowOf(m, "q1-bare")).example.get());
    QCOMPARE(own->judgeRubric()->items[1].weight, 3.0);

    // Unsaved edits are not dropped silently: another sample's rubric asks first.
    QVERIFY(items->setData(items->index(0, widgets::RubricModel::CriterionColumn), "States 30日以内 as the deadline."));
    int asked = 0;
    editor->setDiscardHandler([&] {
        ++asked;
        return false; // keep them
    });
    d.selectRow(proxyRow(d, "q2-plain")); // the selection does not replace edits
    QCOMPARE(asked, 0);
    QCOMPARE(editor->sampleId(), QString("q1-bare"));
    d.editSelectedRubric(); // asked for: the user keeps the edits
    QCOMPARE(asked, 1);
    QCOMPARE(editor->sampleId(), QString("q1-bare"));
    QCOMPARE(items->index(0, widgets::RubricModel::CriterionColumn).data().toString(),
             QString("States 30日以内 as the deadline."));
    editor->setDiscardHandler([&] {
        ++asked;
        return true;
    });
    d.editSelectedRubric();
    QCOMPARE(asked, 2);
    QCOMPARE(editor->sampleId(), QString("q2-plain"));
    QCOMPARE(items->rowCount(), 0); // q2 has no rubric

    // A rubric for q2, applied to its question: now rubric_explicit scores it.
    const int added = items->appendItem();
    QVERIFY(items->setData(items->index(added, widgets::RubricModel::CriterionColumn), "States that the deadline is 30日以内."));
    QVERIFY(items->setData(items->index(added, widgets::RubricModel::CategoryColumn), int(judge::RubricCategory::Essential)));
    QVERIFY(editor->apply());
    QVERIFY(waitForJudge(d));
    QCOMPARE(m->cellState(rowOf(m, "q2-plain"), RubricExplicit), CellState::Value);
    QCOMPARE(value(m, "q2-plain", RubricExplicit), 1.0);
}

void TestDesignerJudge::cancelStopsSending()
{
    // Each answer takes 0.2 s; one call at a time: Cancel after the first request keeps
    // the others from being sent.
    std::atomic<int> seen{0};
    ScriptedServer server(
        [&](int n, const SeenRequest &req, httplib::Response &res) {
            ++seen;
            slowJudgeScript(n, req, res);
        },
        false, rwbtest::kJudgePath);
    RewardDesigner d;
    QVERIFY(openSlow(d, m_samples, m_dir, server.url(), "slow.json"));
    QSignalSpy finished(d.model(), &SampleScoreModel::judgingFinished);
    QTRY_VERIFY_WITH_TIMEOUT(seen.load() >= 1, rwbtest::scaledMs(5000));
    QVERIFY(d.model()->isJudging());
    QVERIFY(d.cancelJudgeButton()->isEnabled());
    d.cancelJudgeButton()->click();
    QVERIFY(finished.wait(rwbtest::scaledMs(5000)));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QTest::qWait(500);
    QVERIFY2(seen.load() <= 2, qPrintable(QString::number(seen.load()))); // the one in flight (and one racing it)
    SampleScoreModel *m = d.model();
    int notScored = 0;
    for (int r = 0; r < m->rowCount(); ++r)
        for (int c : {Coverage, RubricExplicit})
            if (m->cellState(r, c) == CellState::NotScored) {
                ++notScored;
                QVERIFY(m->cellNote(r, c).startsWith("cancelled"));
            }
    QVERIFY(notScored >= 8);
    QVERIFY2(d.judgeStatus().startsWith("Cancelled"), qPrintable(d.judgeStatus()));
    // Re-score asks for the rest; what came back before is answered from memory, and a
    // call cut short by Cancel is asked again: 17 distinct requests, each answered once.
    const int beforeRescore = seen.load();
    m->rescoreJudges();
    QVERIFY(waitForJudge(d, 30000));
    std::set<std::string> distinct;
    for (const SeenRequest &r : server.requests())
        distinct.insert(r.body.dump());
    QCOMPARE(distinct.size(), size_t(17));
    QVERIFY2(seen.load() - beforeRescore >= 15 && seen.load() <= 19, qPrintable(QString::number(seen.load())));
    QVERIFY(std::abs(value(m, "q1-wrong", RubricExplicit) - 0.125) < kTol);
}

void TestDesignerJudge::weightToZeroStopsAsking()
{
    // One call at a time, 0.2 s each: rubric_explicit set to 0 while its first sample is
    // being judged is not asked for any more; coverage goes on to the end.
    ScriptedServer server(slowJudgeScript, false, rwbtest::kJudgePath);
    RewardDesigner d;
    QVERIFY(openSlow(d, m_samples, m_dir, server.url(), "zero.json"));
    QTRY_VERIFY_WITH_TIMEOUT(!server.requests().empty(), rwbtest::scaledMs(5000));
    d.weightsEditor()->editWeight(RubricExplicit, 0);
    QVERIFY(waitForJudge(d, 30000));
    SampleScoreModel *m = d.model();
    int items = 0;
    for (const SeenRequest &r : server.requests())
        items += r.body["response_format"]["json_schema"]["name"] == "rubric_item_verdict" ? 1 : 0;
    QVERIFY2(items <= 1, qPrintable(QString::number(items))); // at most the one in flight
    for (int r = 0; r < m->rowCount(); ++r) {
        QCOMPARE(m->cellState(r, Coverage), CellState::Value);
        QVERIFY(m->cellState(r, RubricExplicit) == CellState::NotScored ||
                m->cellState(r, RubricExplicit) == CellState::NotApplicable);
    }
    QVERIFY(std::abs(m->total(rowOf(m, "q1-right")) - 1.0) < kTol); // (1 + 1) / 2
}

void TestDesignerJudge::judgeThatDoesNotAnswer()
{
    const std::string url = "http://127.0.0.1:" + std::to_string(rwbtest::closedPort()) + "/v1";
    RewardDesigner d;
    QVERIFY(openJudged(d, m_samples, writeConfig(m_dir, url, 4, "nowhere.json")));
    SampleScoreModel *m = d.model();
    const int right = rowOf(m, "q1-right");
    // None, shown as such, with the error naming the URL; the total is None.
    QCOMPARE(m->cellState(right, Coverage), CellState::Value);
    QVERIFY(std::isnan(m->componentValue(right, Coverage)));
    QCOMPARE(m->index(right, m->componentColumn(Coverage)).data().toString(), QString("None"));
    QVERIFY2(m->cellNote(right, Coverage).contains(QString::fromStdString(url)), qPrintable(m->cellNote(right, Coverage)));
    QVERIFY(std::isnan(m->total(right)));
    QCOMPARE(m->index(right, m->totalColumn()).data().toString(), QString("None"));
    const QString status = d.judgeStatus();
    QVERIFY2(status.contains("are None") && status.contains(QString::fromStdString(url)), qPrintable(status));
    // The rule scores are all there.
    QCOMPARE(m->componentValue(right, XmlFormat), 1.0);
}

void TestDesignerJudge::closingDoesNotWaitForTheJudge()
{
    // A judge that takes the requests and never answers (a server busy for minutes), with
    // the default attempt timeout (60 s) and deadline (300 s): closing the Designer while
    // its re-score waits cuts the calls short instead of waiting them out. 5 s leaves room
    // for a busy machine; without the cut it would take 60 s.
    rwbtest::RawServer silent(rwbtest::RawServer::Mode::Silent);
    QVERIFY(silent.ok());
    auto d = std::make_unique<RewardDesigner>();
    QVERIFY(openSlow(*d, m_samples, m_dir, silent.url(), "silent.json"));
    QTRY_VERIFY_WITH_TIMEOUT(silent.connections() >= 1, rwbtest::scaledMs(5000));
    QVERIFY(d->model()->isJudging());
    QElapsedTimer t;
    t.start();
    d.reset();
    QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
}

void TestDesignerJudge::callsLoggedForTheJudgeTab()
{
    ScriptedServer server(rwbtest::judgeScript, false, rwbtest::kJudgePath);
    RewardDesigner d;
    const QString store = m_dir.filePath("designer.sqlite");
    d.setJudgeLogPath(store);
    QSignalSpy logged(&d, &RewardDesigner::judgeCallsLogged);
    QVERIFY(openJudged(d, m_samples, writeConfig(m_dir, server.url())));
    QVERIFY(logged.count() >= 1);
    const qint64 run = logged.last().at(1).toLongLong();
    QCOMPARE(logged.last().at(0).toString(), store);
    // The Judge tab's model reads the Designer's calls as it reads a run's: 5 coverage
    // and 12 item calls, on the samples' ids.
    widgets::JudgeDecisionModel decisions;
    QSignalSpy loaded(&decisions, &widgets::JudgeDecisionModel::loadingFinished);
    decisions.open(*rwbtest::openSession(decisions, store, run));
    QVERIFY(loaded.wait(rwbtest::scaledMs(5000)));
    QCOMPARE(decisions.rowCount(), 17);
    QCOMPARE(decisions.rewards(), (QStringList{"coverage", "rubric_explicit"}));
    QStringList targets;
    for (int r = 0; r < decisions.rowCount(); ++r)
        targets << decisions.index(r, widgets::JudgeDecisionModel::TargetColumn).data().toString();
    QVERIFY2(targets.join(' ').contains("q1-wrong") && targets.join(' ').contains("q2-plain"), qPrintable(targets.join(' ')));
    // Stored as an evaluation run "Designer" of the task, one step per re-score.
    const store::RunStore s(store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(s.run(run).name, std::string("Designer"));
    QCOMPARE(s.run(run).task, std::string("legal_qa"));
    store::JudgeDecisionFilter f;
    f.evaluation = true;
    f.step = 1;
    QCOMPARE(s.judgeDecisions(run, f).size(), size_t(17));
    // A weight raised from 0 is the second re-score: likert_simple's 5 calls, step 2.
    d.weightsEditor()->editWeight(LikertSimple, 1);
    QVERIFY(waitForJudge(d));
    f.step = 2;
    QCOMPARE(s.judgeDecisions(run, f).size(), size_t(5));
}

void TestDesignerJudge::noJudgeNoCalls()
{
    // A config with judge components and no judge: the rule scores as always, the judge
    // cells say there is no judge, the total of a weighted judge component is unknown.
    const QString path = m_dir.filePath("nojudge.json");
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1}, {"reward": "coverage", "weight": 1}]})");
    }
    RewardDesigner d;
    QString error;
    QVERIFY(d.loadSamples(m_samples, &error));
    QVERIFY2(d.loadConfig(path, &error), qPrintable(error));
    SampleScoreModel *m = d.model();
    QVERIFY(!m->isJudging());
    const int right = rowOf(m, "q1-right");
    QCOMPARE(m->cellState(right, Coverage), CellState::NoJudge);
    QVERIFY(m->cellNote(right, Coverage).startsWith("no judge"));
    QCOMPARE(m->totalState(right), CellState::NotScored);
    QVERIFY2(d.judgeStatus().startsWith("No judge"), qPrintable(d.judgeStatus()));
    // The detail says so instead of an explanation.
    d.selectRow(proxyRow(d, "q1-right"));
    QVERIFY(d.detailView()->html().contains("no judge is set up"));
    // Saved, the config keeps its components and has no judge.
    QVERIFY(d.saveConfig(m_dir.filePath("saved-nojudge.json"), &error));
    QFile saved(m_dir.filePath("saved-nojudge.json"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const json j = json::parse(saved.readAll().toStdString());
    QCOMPARE(j["components"].size(), size_t(2));
    QVERIFY(!j.contains("judge"));
}

void TestDesignerJudge::useJudgeSettings()
{
    ScriptedServer server(rwbtest::judgeScript, false, rwbtest::kJudgePath);
    RewardDesigner d;
    QVERIFY(openJudged(d, m_samples, writeConfig(m_dir, server.url())));
    QCOMPARE(server.requests().size(), size_t(17));
    SampleScoreModel *m = d.model();
    QSignalSpy changed(&d, &RewardDesigner::judgeChanged);
    widgets::JudgeSettingsWidget *settings = d.judgeSettings();
    // Another concurrency asks nothing: the scores stay.
    qobject_cast<QSpinBox *>(settings->field("concurrency"))->setValue(2);
    QString error;
    QVERIFY2(d.useJudgeSettings(&error), qPrintable(error));
    QCOMPARE(changed.count(), 1);
    QVERIFY(!m->isJudging());
    QCOMPARE(m->cellState(rowOf(m, "q1-right"), Coverage), CellState::Value);
    QCOMPARE(server.requests().size(), size_t(17));
    // Another model is another request: everything is asked again, of that model.
    auto *model = qobject_cast<QLineEdit *>(settings->field("model"));
    model->setText("scripted-2");
    QVERIFY(d.useJudgeSettings(&error));
    QCOMPARE(m->cellState(rowOf(m, "q1-right"), Coverage), CellState::Pending);
    QVERIFY(waitForJudge(d));
    QCOMPARE(server.requests().size(), size_t(34));
    QCOMPARE(server.requests().back().body["model"].get<std::string>(), std::string("scripted-2"));
    QVERIFY(std::abs(value(m, "q1-wrong", RubricExplicit) - 0.125) < kTol);
    // Settings the engine refuses are not used; the judge in force stays.
    settings->setJudgeJson(QString::fromStdString(json{{"url", server.url()}, {"temperature", 9}}.dump()));
    QVERIFY(!d.useJudgeSettings(&error));
    QVERIFY2(error.startsWith("judge.temperature"), qPrintable(error));
    QCOMPARE(m->cellState(rowOf(m, "q1-right"), Coverage), CellState::Value);
    // No URL: no judge.
    settings->setJudgeJson("");
    QVERIFY(d.useJudgeSettings(&error));
    QVERIFY(d.judgeJson().isEmpty());
    QCOMPARE(m->cellState(rowOf(m, "q1-right"), Coverage), CellState::NoJudge);
    QCOMPARE(changed.count(), 3);
}

void TestDesignerJudge::demoFiles()
{
    const QByteArray out = qgetenv("RWB_RUBRIC_DEMO_DIR");
    if (out.isEmpty())
        QSKIP("RWB_RUBRIC_DEMO_DIR is not set");
    const QDir dir(QString::fromLocal8Bit(out));
    QVERIFY(dir.mkpath("."));
    // The bundled legal-QA samples, each with the rubric `rwb rubric generate --from-facts`
    // gives its question.
    const QString samples = dir.filePath("samples.jsonl");
    {
        QFile in(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile f(samples);
        QVERIFY(f.open(QIODevice::WriteOnly));
        size_t n = 0;
        while (!in.atEnd()) {
            const QByteArray line = in.readLine().trimmed();
            if (line.isEmpty())
                continue;
            data::LegalQuestion q = data::parseLegalQuestionLine(line.toStdString(), "samples", ++n, true);
            q.rubric = judge::toRaR(judge::rubricFromFacts(q)).dump();
            f.write(QByteArray::fromStdString(data::toJsonLine(q)) + "\n");
        }
    }
    // Format, citations, the two NitiBench judges and the rubric; the judge of
    // tests/judgestore.h with a cache beside the config.
    const json judgeObject = {{"backend", "http"}, {"url", "http://127.0.0.1:8000/v1"}, {"model", rwbtest::kJudgeModel},
                              {"temperature", 0}, {"seed", 1}, {"cache", "judge_cache.sqlite"}};
    const json config = {{"name", "legal QA: judged with a rubric"},
                         {"task", "legal_qa"},
                         {"components",
                          json::array({{{"reward", "xml_format"}, {"weight", 1}},
                                       {{"reward", "citation_f1"}, {"weight", 1}},
                                       {{"reward", "coverage"}, {"weight", 1}},
                                       {{"reward", "consistency"}, {"weight", 1}},
                                       {{"reward", "rubric_explicit"}, {"weight", 2}}})},
                         {"judge", judgeObject}};
    {
        QFile f(dir.filePath("reward.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(config.dump(2)));
    }
    // Every reply the Designer will ask for, in the cache: each sample's coverage and
    // consistency call and its rubric items, asked as the Designer asks them.
    QFile::remove(dir.filePath("judge_cache.sqlite"));
    const task::LegalQaTask task;
    const std::vector<task::Record> records = task.read(samples.toStdString(), {});
    std::vector<std::shared_ptr<const task::Completion>> completions;
    std::vector<const task::Example *> examples;
    std::vector<const task::Completion *> parsed;
    std::map<std::string, eval::LegalGrade> grades;
    for (const task::Record &r : records) {
        completions.push_back(task.parse(*r.example, r.completion, false));
        examples.push_back(r.example.get());
        parsed.push_back(completions.back().get());
        grades[completions.back()->answer()] = dynamic_cast<const task::LegalQaCompletion &>(*completions.back()).grade();
    }
    const judge::JudgeOptions options = judge::parseJudgeOptions(judgeObject.dump(), "demo", dir.path().toStdString());
    const auto client = std::make_shared<const judge::JudgeClient>(options, std::make_shared<DemoJudge>(grades));
    for (const char *name : {"coverage", "consistency", "rubric_explicit"}) {
        std::vector<double> values;
        reward::makeJudgeReward(name, client, reward::parseJudgeRewardOptions(name, "", ""))->scoreBatch(examples, parsed, values);
        QVERIFY(std::none_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }));
    }
    QVERIFY(client->stats().calls > records.size());
}

QTEST_MAIN(TestDesignerJudge)
#include "tst_designerjudge.moc"
