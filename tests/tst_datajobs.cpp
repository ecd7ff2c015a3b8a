// The Jobs menu's data jobs (issue 43), driven from their forms to their results in the
// main window: Judge evaluation (`rwb judge eval` against a scripted loopback judge; its
// agreement tables and slices in the Jobs dock) and Import rollouts (`rwb import`; the
// dump's trainer, mapping and first rows previewed in the form, the run opened in the
// views). Expected values are worked out from the data by hand or by the test's own count,
// not by the code under test.
#include "importmappingmodel.h"
#include "importpreviewmodel.h"
#include "importpreviewpanel.h"
#include "jobactions.h"
#include "jobform.h"
#include "jobrunner.h"
#include "jobview.h"
#include "judgeconfusionmodel.h"
#include "judgeevalitemmodel.h"
#include "judgeevalslicemodel.h"
#include "judgeevalview.h"
#include "judgelabelscoresmodel.h"
#include "languagemanager.h"
#include "mainwindow.h"
#include "rolloutbrowser.h"
#include "rollouttablemodel.h"
#include "store/runstore.h"

#include "loopbackserver.h"
#include "testtime.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTableView>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <map>
#include <set>

using namespace rwb::widgets;
using Tester = QAbstractItemModelTester;

namespace {

// A job of these runs in seconds; the limit leaves room for a loaded machine.
constexpr int kJobTimeoutMs = 60000;

const QString kImportData = QStringLiteral(RWB_TEST_DATA "/import");

void writeText(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// The scripted judge's verdict on a request, from its user message's length L in bytes:
// coverage none / partial / full for L mod 3 = 0 / 1 / 2, a contradiction when (L / 3) is
// odd, and no reply (HTTP 500) when L mod 7 = 5. The test counts what it expects from
// the data's own messages with the same rule.
struct Verdict {
    bool fails = false;
    int coverage = 0;          // 0 none, 1 partial, 2 full
    bool contradiction = false;
};

Verdict verdictFor(const std::string &user)
{
    const size_t n = user.size();
    return {n % 7 == 5, static_cast<int>(n % 3), (n / 3) % 2 == 1};
}

const char *const kCoverageScores[] = {"no-coverage", "partial-coverage", "full-coverage"};

void answer(const rwbtest::SeenRequest &req, httplib::Response &res)
{
    const std::string user = req.body["messages"].back()["content"].get<std::string>();
    const Verdict v = verdictFor(user);
    if (v.fails) {
        res.status = 500;
        res.set_content(R"({"error": {"message": "scripted failure"}})", "application/json");
        return;
    }
    const nlohmann::json content = {{"point_thought", "p"},
                                    {"student_points", nlohmann::json::array()},
                                    {"reference_points", nlohmann::json::array()},
                                    {"coverage", {{"thought", "t"}, {"score", kCoverageScores[v.coverage]}}},
                                    {"contradiction", {{"thought", "t"}, {"score", v.contradiction ? "contradiction" : "no-contradiction"}}}};
    res.set_content(nlohmann::json{{"model", "scripted-judge"},
                                   {"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content.dump()}}}}}},
                                   {"usage", {{"prompt_tokens", 12}, {"completion_tokens", 4}}}}
                        .dump(),
                    "application/json");
}

// One line of `rwb judge data`, as the test reads it.
struct Labelled {
    QString kind;
    int facts = 0;
    int coverage = 0;  // the reference grader's label: 0 none, 1 partial, 2 full
    int consistency = 0; // 0 contradiction, 1 consistent
    std::string user;    // the request's user message
};

// What the test expects of a slice: the matrices over the replies read, the failures, and
// the agreements with a failure counted as a disagreement.
struct Expected {
    int coverage[3][3] = {};
    int consistency[2][2] = {};
    int n = 0, failed = 0, coverageAgrees = 0, consistencyAgrees = 0;
    void add(const Labelled &l)
    {
        ++n;
        const Verdict v = verdictFor(l.user);
        if (v.fails) {
            ++failed;
            return;
        }
        const int judgedConsistency = v.contradiction ? 0 : 1;
        ++coverage[l.coverage][v.coverage];
        ++consistency[l.consistency][judgedConsistency];
        coverageAgrees += l.coverage == v.coverage ? 1 : 0;
        consistencyAgrees += l.consistency == judgedConsistency ? 1 : 0;
    }
};

// The Jobs dock's job finished: its (ok, message).
QList<QVariant> waitFinished(QSignalSpy &spy)
{
    if (spy.isEmpty() && !spy.wait(rwbtest::scaledMs(kJobTimeoutMs)))
        return {};
    return spy.takeFirst();
}

int rowOf(const QAbstractItemModel *m, int column, const QString &text)
{
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, column).data().toString() == text)
            return r;
    return -1;
}

} // namespace

class TestDataJobs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void judgeEvalViewCountsSlices();
    void judgeEvalFromTheForm();
    void judgeEvalCancelled();
    void judgeEvalEveryReplyFailed();
    void importFromTheForm();
    void importCancelled();
    void importTargetsInJapanese();

private:
    QTemporaryDir m_dir;
};

void TestDataJobs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("RewardWorkbenchTest");
    QCoreApplication::setApplicationName("tst_datajobs");
    QSettings().clear();
    qputenv("RWB_PROGRAM", RWB_BINARY);
    QVERIFY(m_dir.isValid());
    // Without a workspace the jobs write under the current folder.
    QVERIFY(QDir::setCurrent(m_dir.path()));
    // Labelled requests for six bundled questions (25 lines: facts 1 and 2; kinds right,
    // vague, wrong, wrong_vague, other), as tst_cli makes them.
    QProcess p;
    p.start(RWB_BINARY, {"judge", "data", "--input", RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl", "--out",
                         m_dir.filePath("judge_test.jsonl"), "--limit", "6"});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(kJobTimeoutMs)));
    QCOMPARE(p.exitCode(), 0);
}

void TestDataJobs::judgeEvalViewCountsSlices()
{
    // Five results worked by hand: coverage (reference → judge) full→full, full→partial,
    // none→none, partial→failed, none→full; contradiction (reference → judge)
    // consistent→consistent, consistent→consistent, contradiction→consistent, –,
    // contradiction→contradiction. Kinds right, right, wrong, vague, wrong; facts 2, 2,
    // 1, 2, 0 (unknown).
    const auto item = [](const char *kind, int facts, double cov, bool contra, bool ok, double jcov, bool jcontra) {
        rwb::judge::AgreementItem i;
        i.id = kind;
        i.kind = kind;
        i.facts = facts;
        i.referenceCoverage = cov;
        i.referenceContradiction = contra;
        i.ok = ok;
        i.judgedCoverage = jcov;
        i.judgedContradiction = jcontra;
        if (!ok)
            i.error = "HTTP 500";
        return i;
    };
    std::vector<rwb::judge::AgreementItem> items = {
        item("right", 2, 1.0, false, true, 1.0, false), item("right", 2, 1.0, false, true, 0.5, false),
        item("wrong", 1, 0.0, true, true, 0.0, false),  item("vague", 2, 0.5, false, false, 0, false),
        item("wrong", 0, 0.0, true, true, 1.0, true)};
    JudgeEvalView view;
    Tester t1(view.slices(), Tester::FailureReportingMode::QtTest);
    Tester t2(view.matrix(GradedQuantity::Coverage), Tester::FailureReportingMode::QtTest);
    Tester t3(view.scores(GradedQuantity::Coverage), Tester::FailureReportingMode::QtTest);
    Tester t4(view.scores(GradedQuantity::Consistency), Tester::FailureReportingMode::QtTest);
    Tester t5(view.requests(), Tester::FailureReportingMode::QtTest);
    view.setItems(QJsonObject{{"backend", "b"}, {"requests", 5}, {"failed", 1}}, items);
    // All; kinds right, vague, wrong; facts 1, 2, unknown.
    QCOMPARE(view.slicePicker()->count(), 7);
    QStringList titles;
    for (int r = 0; r < view.slices()->rowCount(); ++r)
        titles << view.slices()->index(r, JudgeEvalSliceModel::SliceColumn).data().toString();
    QCOMPARE(titles, (QStringList{"All requests", "Answer kind: right", "Answer kind: vague", "Answer kind: wrong",
                                  "Reference facts: 1", "Reference facts: 2", "Reference facts: unknown"}));
    QCOMPARE(view.slicePicker()->itemText(0), QString("All requests (n 5)"));
    // All: coverage full→full 1, full→partial 1, none→none 1, none→full 1 (the failure left out).
    const rwb::eval::ConfusionMatrix &cov = view.matrix(GradedQuantity::Coverage)->matrix();
    QCOMPARE(cov.total(), 4);
    QCOMPARE(cov.count(2, 2), 1);
    QCOMPARE(cov.count(2, 1), 1);
    QCOMPARE(cov.count(0, 0), 1);
    QCOMPARE(cov.count(0, 2), 1);
    // Per label: full precision 1/2 (judged full twice, once right), recall 1/2; partial
    // precision 0/1, recall — (never the reference's); none precision 1/1, recall 1/2.
    const auto score = [&](GradedQuantity q, int label, int column) {
        return view.scores(q)->index(label, column).data(JudgeLabelScoresModel::ValueRole).toDouble();
    };
    QCOMPARE(score(GradedQuantity::Coverage, 2, JudgeLabelScoresModel::PrecisionColumn), 0.5);
    QCOMPARE(score(GradedQuantity::Coverage, 2, JudgeLabelScoresModel::RecallColumn), 0.5);
    QCOMPARE(score(GradedQuantity::Coverage, 1, JudgeLabelScoresModel::PrecisionColumn), 0.0);
    QVERIFY(std::isnan(score(GradedQuantity::Coverage, 1, JudgeLabelScoresModel::RecallColumn)));
    QCOMPARE(view.scores(GradedQuantity::Coverage)->index(1, JudgeLabelScoresModel::RecallColumn).data().toString(), QString("—"));
    QCOMPARE(score(GradedQuantity::Coverage, 0, JudgeLabelScoresModel::PrecisionColumn), 1.0);
    QCOMPARE(score(GradedQuantity::Coverage, 0, JudgeLabelScoresModel::RecallColumn), 0.5);
    QCOMPARE(score(GradedQuantity::Coverage, 0, JudgeLabelScoresModel::SupportColumn), 2.0);
    // Contradiction: the reference's contradictions 2 (judged 1 of them), consistent 2 (both).
    QCOMPARE(score(GradedQuantity::Consistency, 0, JudgeLabelScoresModel::RecallColumn), 0.5);
    QCOMPARE(score(GradedQuantity::Consistency, 0, JudgeLabelScoresModel::PrecisionColumn), 1.0);
    QCOMPARE(score(GradedQuantity::Consistency, 1, JudgeLabelScoresModel::PrecisionColumn), 2.0 / 3.0);
    QVERIFY(view.tableTitle(GradedQuantity::Coverage).startsWith("Coverage: agreement 0.500, "));
    // The slices' agreement counts the failure as a disagreement: coverage 2/5, contradiction 3/5.
    QCOMPARE(view.slices()->index(0, JudgeEvalSliceModel::CoverageColumn).data().toString(), QString("0.400 (2/5)"));
    QCOMPARE(view.slices()->index(0, JudgeEvalSliceModel::ContradictionColumn).data().toString(), QString("0.600 (3/5)"));
    QCOMPARE(view.slices()->index(2, JudgeEvalSliceModel::FailedColumn).data().toInt(), 1); // vague
    // Picking "Reference facts: 2": right, right, vague (failed): coverage full→full, full→partial.
    view.setSlice(5);
    QCOMPARE(view.matrix(GradedQuantity::Coverage)->matrix().total(), 2);
    QCOMPARE(view.matrix(GradedQuantity::Coverage)->matrix().count(2, 1), 1);
    QCOMPARE(view.requests()->rowCount(), 3);
    // A cell: the slice's requests with reference full and judged partial.
    view.showCell(GradedQuantity::Coverage, 2, 1);
    QCOMPARE(view.requests()->rowCount(), 1);
    QCOMPARE(view.requests()->index(0, JudgeEvalItemModel::CoverageColumn).data().toString(), QString("full → partial"));
    view.setSlice(0);
    view.showCell(GradedQuantity::Consistency, 0, -1); // every read reply the grader called a contradiction
    QCOMPARE(view.requests()->rowCount(), 2);
}

void TestDataJobs::judgeEvalFromTheForm()
{
    const QString data = m_dir.filePath("judge_test.jsonl");
    std::vector<Labelled> lines;
    std::set<std::string> users;
    {
        QFile f(data);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            Labelled l;
            l.kind = o.value("label").toString();
            l.facts = o.value("facts").toInt();
            const double c = o.value("coverage").toDouble();
            l.coverage = c == 0.0 ? 0 : c == 1.0 ? 2 : 1;
            l.consistency = o.value("contradiction").toBool() ? 0 : 1;
            l.user = o.value("messages").toArray().last().toObject().value("content").toString().toStdString();
            users.insert(l.user);
            lines.push_back(l);
        }
    }
    QCOMPARE(lines.size(), size_t(25));
    Expected all;
    std::map<QString, Expected> byKind;
    std::map<int, Expected> byFacts;
    for (const Labelled &l : lines) {
        all.add(l);
        byKind[l.kind].add(l);
        byFacts[l.facts].add(l);
    }
    QVERIFY2(all.failed > 0 && all.failed < 25, "the rule should fail some requests and answer the others");

    rwbtest::ScriptedServer server([](int, const rwbtest::SeenRequest &req, httplib::Response &res) { answer(req, res); },
                                   false, "/v1/chat/completions");
    const QString judge = m_dir.filePath("judge.json");
    writeText(judge, QByteArray::fromStdString(nlohmann::json{{"url", server.url()}, {"retries", 0}}.dump()));
    const QString notAJudge = m_dir.filePath("reward.json");
    writeText(notAJudge, R"({"components": [{"name": "xml_format", "weight": 1}]})");

    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm("judge-eval");
    QVERIFY(form);
    // A missing file keeps Start disabled and names its field; so does a config without a judge.
    form->setValue("config", judge);
    form->setValue("data", m_dir.filePath("missing.jsonl"));
    QStringList problems;
    QVERIFY(!form->validate(&problems));
    QVERIFY(!form->startButton()->isEnabled());
    QCOMPARE(form->invalidFields(), QStringList{"data"});
    QVERIFY2(problems.join('\n').contains("data: no such file: " + m_dir.filePath("missing.jsonl")), qPrintable(problems.join('\n')));
    form->setValue("data", data);
    form->setValue("config", notAJudge);
    QVERIFY(!form->validate(&problems));
    QCOMPARE(form->invalidFields(), QStringList{"config"});
    QVERIFY2(problems.join('\n').contains("a reward config without a \"judge\" object"), qPrintable(problems.join('\n')));
    form->setValue("config", judge);
    form->setValue("no_cache", true);
    form->setValue("out", m_dir.filePath("no-such-folder/eval.jsonl"));
    QVERIFY(!form->validate(&problems));
    QCOMPARE(form->invalidFields(), QStringList{"out"});
    const QString out = m_dir.filePath("eval.jsonl");
    form->setValue("out", out);
    QVERIFY2(form->validate(&problems), qPrintable(problems.join('\n')));
    QVERIFY(form->startButton()->isEnabled());
    QCOMPARE(form->arguments(), (QStringList{"judge", "eval", "--config", judge, "--data", data, "--json", "--out", out,
                                             "--no-cache"}));

    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QSignalSpy progress(w.jobs(), &JobRunner::progressData);
    QVERIFY(w.jobActions()->startForm(form));
    const QList<QVariant> end = waitFinished(finished);
    QVERIFY2(!end.isEmpty() && end.at(0).toBool(), qPrintable(end.value(1).toString()));
    // The progress bar's lines: the last counts every request.
    QVERIFY(!progress.isEmpty());
    const QJsonObject last = progress.last().at(0).toJsonObject();
    QCOMPARE(last.value("done").toInt(), 25);
    QCOMPARE(last.value("total").toInt(), 25);
    // The judge saw the data's own requests (the rule's input).
    for (const rwbtest::SeenRequest &r : server.requests())
        QVERIFY(users.count(r.body["messages"].back()["content"].get<std::string>()));
    const QJsonObject result = w.jobs()->result();
    QCOMPARE(result.value("requests").toInt(), 25);
    QCOMPARE(result.value("failed").toInt(), all.failed);

    // The dock shows the agreement tables.
    auto *view = qobject_cast<JudgeEvalView *>(w.jobActions()->view()->resultView());
    QVERIFY(view);
    Tester t1(view->slices(), Tester::FailureReportingMode::QtTest);
    Tester t2(view->matrix(GradedQuantity::Coverage), Tester::FailureReportingMode::QtTest);
    Tester t3(view->matrix(GradedQuantity::Consistency), Tester::FailureReportingMode::QtTest);
    Tester t4(view->scores(GradedQuantity::Coverage), Tester::FailureReportingMode::QtTest);
    Tester t5(view->requests(), Tester::FailureReportingMode::QtTest);
    QVERIFY2(view->summaryText().contains("on 25 requests: " + QString::number(all.failed) + " failed"), qPrintable(view->summaryText()));
    const auto compareSlice = [&](const Expected &e) {
        const rwb::eval::ConfusionMatrix &cov = view->matrix(GradedQuantity::Coverage)->matrix();
        const rwb::eval::ConfusionMatrix &con = view->matrix(GradedQuantity::Consistency)->matrix();
        for (int r = 0; r < 3; ++r)
            for (int j = 0; j < 3; ++j)
                if (cov.count(r, j) != e.coverage[r][j])
                    return false;
        for (int r = 0; r < 2; ++r)
            for (int j = 0; j < 2; ++j)
                if (con.count(r, j) != e.consistency[r][j])
                    return false;
        return cov.total() == e.n - e.failed;
    };
    QCOMPARE(view->currentSlice(), 0);
    QVERIFY(compareSlice(all));
    // The view's All agrees with the command's own JSON.
    const QJsonArray counts = result.value("coverage").toObject().value("counts").toArray();
    for (int r = 0; r < 3; ++r)
        for (int j = 0; j < 3; ++j)
            QCOMPARE(view->matrix(GradedQuantity::Coverage)->matrix().count(r, j), counts.at(r).toArray().at(j).toInt());
    // Per label: precision and recall of "full" from the expected matrix.
    const int judgedFull = all.coverage[0][2] + all.coverage[1][2] + all.coverage[2][2];
    const int referenceFull = all.coverage[2][0] + all.coverage[2][1] + all.coverage[2][2];
    const QModelIndex precision = view->scores(GradedQuantity::Coverage)->index(2, JudgeLabelScoresModel::PrecisionColumn);
    const QModelIndex recall = view->scores(GradedQuantity::Coverage)->index(2, JudgeLabelScoresModel::RecallColumn);
    QVERIFY(judgedFull > 0 && referenceFull > 0);
    QVERIFY(std::abs(precision.data(JudgeLabelScoresModel::ValueRole).toDouble() - double(all.coverage[2][2]) / judgedFull) < 1e-12);
    QVERIFY(std::abs(recall.data(JudgeLabelScoresModel::ValueRole).toDouble() - double(all.coverage[2][2]) / referenceFull) < 1e-12);

    // The slice picker: 1 + 5 kinds + 2 numbers of facts; each slice's counts.
    QCOMPARE(view->slicePicker()->count(), 1 + int(byKind.size()) + int(byFacts.size()));
    for (const auto &[kind, e] : byKind) {
        const int row = rowOf(view->slices(), JudgeEvalSliceModel::SliceColumn, "Answer kind: " + kind);
        QVERIFY2(row > 0, qPrintable(kind));
        view->setSlice(row);
        QVERIFY2(compareSlice(e), qPrintable(kind));
        QCOMPARE(view->slices()->index(row, JudgeEvalSliceModel::RequestsColumn).data().toInt(), e.n);
        QCOMPARE(view->slices()->index(row, JudgeEvalSliceModel::FailedColumn).data().toInt(), e.failed);
        QCOMPARE(view->requests()->rowCount(), e.n);
    }
    for (const auto &[facts, e] : byFacts) {
        const int row = rowOf(view->slices(), JudgeEvalSliceModel::SliceColumn, "Reference facts: " + QString::number(facts));
        QVERIFY(row > 0);
        view->setSlice(row);
        QVERIFY(compareSlice(e));
        QCOMPARE(view->slices()->index(row, JudgeEvalSliceModel::CoverageColumn).data(JudgeEvalSliceModel::ShareRole).toDouble(),
                 double(e.coverageAgrees) / e.n);
        QCOMPARE(view->slices()->index(row, JudgeEvalSliceModel::ContradictionColumn).data(JudgeEvalSliceModel::ShareRole).toDouble(),
                 double(e.consistencyAgrees) / e.n);
    }
}

void TestDataJobs::judgeEvalCancelled()
{
    // A judge that does not answer until released: the evaluation is cancelled while it
    // waits, and ends "cancelled" with no result file, whole or part.
    std::atomic<bool> release{false};
    rwbtest::ScriptedServer server(
        [&release](int, const rwbtest::SeenRequest &req, httplib::Response &res) {
            for (int i = 0; i < 3000 && !release; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            answer(req, res);
        },
        false, "/v1/chat/completions");
    const QString judge = m_dir.filePath("slow-judge.json");
    writeText(judge, QByteArray::fromStdString(nlohmann::json{{"url", server.url()}, {"retries", 0}}.dump()));
    const QString data = m_dir.filePath("judge_test.jsonl"); // initTestCase's

    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm("judge-eval");
    QVERIFY(form);
    const QString out = m_dir.filePath("cancelled-eval.jsonl");
    form->setValue("config", judge);
    form->setValue("data", data);
    form->setValue("no_cache", true);
    form->setValue("out", out);
    QVERIFY(form->validate());
    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    QTRY_VERIFY_WITH_TIMEOUT(!server.requests().empty(), rwbtest::scaledMs(kJobTimeoutMs));
    w.jobs()->cancel();
    const QList<QVariant> end = waitFinished(finished);
    release = true;
    QVERIFY(!end.isEmpty());
    QCOMPARE(end.at(0).toBool(), false);
    QCOMPARE(end.at(1).toString(), QString("cancelled"));
    QVERIFY(!QFileInfo::exists(out));
    QVERIFY(!QFileInfo::exists(out + ".part"));
    QVERIFY(!w.jobActions()->view()->resultView());
}

void TestDataJobs::judgeEvalEveryReplyFailed()
{
    // A judge that only fails: the command exits 1 but writes each request's error, and
    // the dock lists them (the first 3 requests: --limit).
    rwbtest::ScriptedServer server([](int, const rwbtest::SeenRequest &, httplib::Response &res) { res.status = 503; },
                                   false, "/v1/chat/completions");
    const QString judge = m_dir.filePath("down-judge.json");
    writeText(judge, QByteArray::fromStdString(nlohmann::json{{"url", server.url()}, {"retries", 0}}.dump()));
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm("judge-eval");
    QVERIFY(form);
    form->setValue("config", judge);
    form->setValue("data", m_dir.filePath("judge_test.jsonl"));
    form->setValue("limit", 3);
    form->setValue("no_cache", true);
    form->setValue("out", m_dir.filePath("failed-eval.jsonl"));
    QVERIFY(form->validate());
    QVERIFY(form->arguments().join(' ').contains("--limit 3"));
    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    const QList<QVariant> end = waitFinished(finished);
    QVERIFY(!end.isEmpty());
    QCOMPARE(end.at(0).toBool(), false);
    auto *view = qobject_cast<JudgeEvalView *>(w.jobActions()->view()->resultView());
    QVERIFY(view);
    QCOMPARE(view->slices()->index(0, JudgeEvalSliceModel::RequestsColumn).data().toInt(), 3);
    QCOMPARE(view->slices()->index(0, JudgeEvalSliceModel::FailedColumn).data().toInt(), 3);
    QCOMPARE(view->matrix(GradedQuantity::Coverage)->matrix().total(), 0);
    QCOMPARE(view->requests()->rowCount(), 3);
    QCOMPARE(view->requests()->index(0, JudgeEvalItemModel::CoverageColumn).data().toString().section(" → ", 1), QString("failed"));
    QVERIFY(!view->requests()->index(0, JudgeEvalItemModel::ReplyColumn).data().toString().isEmpty()); // why
}

void TestDataJobs::importFromTheForm()
{
    // TRL's completions as JSON lines (tests/data/import/trl_jsonl/completions): 00001 has
    // four rows of step 1, 00002 the same four again (a second optimizer step on the same
    // batch: skipped), 00003 two train rows of step 3 and an eval row (skipped).
    const QString dump = kImportData + "/trl_jsonl";
    const QString store = m_dir.filePath("imported.sqlite");
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm("import");
    QVERIFY(form);
    auto *preview = form->findChild<ImportPreviewPanel *>();
    QVERIFY(preview);
    Tester t1(preview->mapping(), Tester::FailureReportingMode::QtTest);
    Tester t2(preview->rows(), Tester::FailureReportingMode::QtTest);
    QStringList problems;
    // Nothing chosen yet: Start waits for the input.
    QVERIFY(!form->validate(&problems));
    QVERIFY(!form->startButton()->isEnabled());
    QVERIFY(form->invalidFields().contains("input"));
    // A missing file names the field.
    form->setValue("input", m_dir.filePath("no-such-dump.jsonl"));
    QVERIFY(!form->validate(&problems));
    QVERIFY(!form->startButton()->isEnabled());
    QCOMPARE(form->invalidFields(), QStringList{"input"});
    QVERIFY2(problems.contains("input: no such file or folder: " + m_dir.filePath("no-such-dump.jsonl")),
             qPrintable(problems.join('\n')));
    QCOMPARE(preview->rows()->rowCount(), 0);

    form->setValue("input", dump);
    // A store in a folder that is not there.
    form->setValue("store", m_dir.filePath("no-such-folder/runs.sqlite"));
    QVERIFY(!form->validate(&problems));
    QCOMPARE(form->invalidFields(), QStringList{"store"});
    form->setValue("store", store);
    QVERIFY2(form->validate(&problems), qPrintable(problems.join('\n')));
    QVERIFY(form->startButton()->isEnabled());
    // Detected, and what maps to what, by hand from the files.
    QVERIFY2(preview->summaryText().startsWith("TRL's completions table, detected from the first row. 3 file(s) to import."),
             qPrintable(preview->summaryText()));
    const std::map<QString, QString> mapping = {
        {"step", "step"},
        {"prompt", "prompt"},
        {"completion", "completion"},
        {"advantage", "advantage"},
        {"correctness_reward", "reward function"},
        {"format_reward", "reward function"},
        {"mode", "train or eval (eval rows skipped unless --include-eval)"},
        {"tool", "details"},
    };
    QCOMPARE(preview->mapping()->rowCount(), int(mapping.size()));
    for (const auto &[field, target] : mapping)
        QCOMPARE(preview->mapping()->target(field), target);
    const int tool = rowOf(preview->mapping(), ImportMappingModel::FieldColumn, "tool");
    QCOMPARE(preview->mapping()->index(tool, 0).data(ImportMappingModel::MappedRole).toBool(), false); // only in the details
    QCOMPARE(preview->mapping()->index(tool, ImportMappingModel::RowsColumn).data().toInt(), 2);
    // The first rows as they will be read: 00001's four, 00003's two train rows.
    const ImportPreviewModel *rows = preview->rows();
    QCOMPARE(rows->rowCount(), 6);
    const auto cell = [rows](int r, int c) { return rows->index(r, c).data().toString(); };
    QCOMPARE(cell(0, ImportPreviewModel::WhereColumn), QString("completions_00001.jsonl:1"));
    QCOMPARE(cell(0, ImportPreviewModel::StepColumn), QString("1"));
    QCOMPARE(cell(0, ImportPreviewModel::PromptColumn), QString("Who sent mail 1?"));
    QCOMPARE(cell(0, ImportPreviewModel::CompletionColumn), QString("<answer>Acme</answer>"));
    QCOMPARE(cell(0, ImportPreviewModel::RewardColumn), QString("2")); // 1 + 1, TRL's weights of 1
    QCOMPARE(cell(0, ImportPreviewModel::AdvantageColumn), QString("0.7071"));
    QCOMPARE(cell(1, ImportPreviewModel::RewardColumn), QString("0")); // 0 + None
    QCOMPARE(cell(1, ImportPreviewModel::ComponentsColumn), QString("correctness_reward 0, format_reward None"));
    QCOMPARE(cell(4, ImportPreviewModel::WhereColumn), QString("completions_00003.jsonl:1"));
    QCOMPARE(cell(4, ImportPreviewModel::StepColumn), QString("3"));
    QCOMPARE(cell(4, ImportPreviewModel::RewardColumn), QString("1.5"));
    QVERIFY2(preview->notesText().contains("Skipped: 1 eval rows"), qPrintable(preview->notesText()));
    QVERIFY2(preview->notesText().contains("completions_00002.jsonl: the same rollouts as"), qPrintable(preview->notesText()));

    // A trainer named that the rows are not of: the preview's error names the file and line.
    form->setValue("format", "verl");
    QVERIFY(!form->validate(&problems));
    QCOMPARE(form->invalidFields(), QStringList{"input"});
    QVERIFY2(problems.join('\n').contains("completions_00001.jsonl:1: missing field \"input\""), qPrintable(problems.join('\n')));
    QVERIFY(!form->startButton()->isEnabled());
    form->setValue("format", "trl");
    form->setValue("run_name", "trl from the form");
    QVERIFY2(form->validate(&problems), qPrintable(problems.join('\n')));
    QCOMPARE(form->arguments(), (QStringList{"import", "--input", dump, "--store", store, "--format", "trl", "--run-name",
                                             "trl from the form"}));

    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QSignalSpy progress(w.jobs(), &JobRunner::progressData);
    QVERIFY(w.jobActions()->startForm(form));
    const QList<QVariant> end = waitFinished(finished);
    QVERIFY2(!end.isEmpty() && end.at(0).toBool(), qPrintable(end.value(1).toString()));
    // Progress: 3 files read, then 2 steps written.
    QVERIFY(!progress.isEmpty());
    const QJsonObject last = progress.last().at(0).toJsonObject();
    QCOMPARE(last.value("done").toInt(), 5);
    QCOMPARE(last.value("total").toInt(), 5);
    const qint64 runId = w.jobs()->result().value("run_id").toInteger();
    QVERIFY(runId > 0);
    QCOMPARE(w.jobs()->result().value("rollouts").toInt(), 6);
    // The run is open in the views.
    QTRY_COMPARE(w.runId(), runId);
    QCOMPARE(w.storePath(), store);
    QTRY_COMPARE(w.rollouts()->model()->rowCount(), 6);
    const rwb::store::RunStore st(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(st.run(runId).name, std::string("trl from the form"));
    QCOMPARE(st.run(runId).kind, std::string("external"));
}

void TestDataJobs::importCancelled()
{
    // Cancelled at once, the import ends "cancelled" while it reads: nothing in the store
    // (the file may not even be made), and no run opened.
    const QString store = m_dir.filePath("cancelled.sqlite");
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm("import");
    QVERIFY(form);
    form->setValue("input", kImportData + "/prime_rl/rollouts");
    form->setValue("store", store);
    QStringList problems;
    QVERIFY2(form->validate(&problems), qPrintable(problems.join('\n')));
    auto *preview = form->findChild<ImportPreviewPanel *>();
    QVERIFY2(preview->summaryText().startsWith("prime-rl's episodes"), qPrintable(preview->summaryText()));
    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    w.jobs()->cancel();
    const QList<QVariant> end = waitFinished(finished);
    QVERIFY(!end.isEmpty());
    QCOMPARE(end.at(0).toBool(), false);
    QCOMPARE(end.at(1).toString(), QString("cancelled"));
    if (QFileInfo::exists(store)) {
        const rwb::store::RunStore st(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        QVERIFY(st.runs().empty());
    }
    QCOMPARE(w.runId(), qint64(0));
}

// The preview's "Becomes" column in the user's language: the import's English targets,
// looked up (a TRL conversation column's tool-call note too); one it does not know, as is.
void TestDataJobs::importTargetsInJapanese()
{
    LanguageManager lang;
    lang.setChoice("ja");
    QCOMPARE(rwb::widgets::ImportMappingModel::translatedTarget("reward function"), QString::fromUtf8("報酬関数"));
    QCOMPARE(rwb::widgets::ImportMappingModel::translatedTarget("train or eval (eval rows skipped unless --include-eval)"),
             QString::fromUtf8("学習か評価か(--include-eval がなければ評価の行は飛ばす)"));
    QCOMPARE(rwb::widgets::ImportMappingModel::translatedTarget(
                 "completion (tool calls as <tool_call> text; the messages also in the details)"),
             QString::fromUtf8("出力。ツール呼び出しは <tool_call> テキストとして、メッセージは詳細にも"));
    QCOMPARE(rwb::widgets::ImportMappingModel::translatedTarget("something new"), QString("something new"));
    lang.setChoice("en");
    QCOMPARE(rwb::widgets::ImportMappingModel::translatedTarget("reward function"), QString("reward function"));
}

QTEST_MAIN(TestDataJobs)
#include "tst_datajobs.moc"
