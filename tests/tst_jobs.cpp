// The Jobs menu's machinery: JobRunner::runCommand's protocol (JSON progress lines,
// warnings, the result, failures, cancel), JobForm's validation, the Jobs dock, and the
// MCTS search driven from its form to the search-trees window, cancel included.

#include "jobactions.h"
#include "jobform.h"
#include "jobrunner.h"
#include "jobview.h"
#include "languagemanager.h"
#include "mainwindow.h"
#include "mctstreelistmodel.h"
#include "mctsviewer.h"

#include "data/jsonl.h"
#include "store/runstore.h"

#include "rewarddesigner.h"
#include "runsetupform.h"
#include "trainingactions.h"
#include "trainingcontroller.h"

#include "rwbprocess.h"
#include "testtime.h"
#include "tinygrpo.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace rwb::widgets;

class TestJobs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void commandProgressAndResult();
    void commandFailureSaysWhy();
    void commandCancelKeepsWhatItPrinted();
    void commandWithoutProgram();
    void formMarksWhatTheParserNames();
    void mctsFromFormToTrees();
    void mctsCancelled();
    void grpoInTwoProcessesFromTheForm();
    void grpoInTwoProcessesStopped();
    void dualGranularityFieldsInTheForm();
    void runFromAFileShowsItsFreshFolder();

private:
    // An executable shell script standing in for rwb.
    QString script(const QString &name, const QString &body);
    // Waits for the runner's finished(); returns its arguments.
    static QList<QVariant> waitFinished(JobRunner *runner, int ms);
    QTemporaryDir m_dir;
    QString d;
};

QString TestJobs::script(const QString &name, const QString &body)
{
    const QString path = d + QLatin1Char('/') + name;
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write("#!/bin/sh\n" + body.toUtf8());
    f.close();
    f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
    return path;
}

QList<QVariant> TestJobs::waitFinished(JobRunner *runner, int ms)
{
    QSignalSpy spy(runner, &JobRunner::finished);
    if (!spy.wait(rwbtest::scaledMs(ms)))
        return {};
    return spy.takeFirst();
}

void TestJobs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    d = m_dir.path();
}

void TestJobs::commandProgressAndResult()
{
    // Two progress lines (the first with metrics), a warning, a terminal's \r line, then
    // the result on stdout.
    qputenv("RWB_PROGRAM", script("ok.sh", R"(
echo "RWB_PROGRESS=$RWB_PROGRESS args: $*" >&2
echo '{"progress": {"done": 1, "total": 4, "detail": "first", "metrics": {"loss": 0.5}, "run_id": 7}}' >&2
echo 'warning: something to know' >&2
echo '{"progress": {"done": 4, "total": 4, "detail": "last", "metrics": {"loss": 0.25}}}' >&2
echo '{"questions": 2, "mcts": {"f1": 0.5}}'
)")
                                .toUtf8());
    JobRunner runner;
    JobView view(&runner);
    view.setCurves(QStringLiteral("loss"));
    QSignalSpy progress(&runner, &JobRunner::progress);
    QSignalSpy data(&runner, &JobRunner::progressData);
    QSignalSpy log(&runner, &JobRunner::logLine);
    QVERIFY(runner.runCommand(QStringLiteral("A job"), {QStringLiteral("mcts"), QStringLiteral("run"), QStringLiteral("a b")}));
    QVERIFY(runner.isRunning());
    QVERIFY(!runner.runCommand(QStringLiteral("Another"), {})); // one at a time
    QCOMPARE(runner.commandLine(), QStringLiteral("rwb mcts run 'a b'"));
    const QList<QVariant> end = waitFinished(&runner, 20000);
    QVERIFY(!end.isEmpty());
    QVERIFY2(end.at(0).toBool(), qPrintable(end.at(1).toString()));
    QCOMPARE(runner.result().value(QStringLiteral("questions")).toInt(), 2);
    QCOMPARE(progress.size(), 2);
    QCOMPARE(progress.at(0).at(0).toLongLong(), 1);
    QCOMPARE(progress.at(1).at(1).toLongLong(), 4);
    QCOMPARE(progress.at(1).at(2).toString(), QStringLiteral("last"));
    QCOMPARE(data.at(0).at(0).toJsonObject().value(QStringLiteral("run_id")).toInt(), 7);
    // The program saw RWB_PROGRESS=json and its arguments; both plain lines reached the log.
    QCOMPARE(log.size(), 2);
    QCOMPARE(log.at(0).at(0).toString(), QStringLiteral("RWB_PROGRESS=json args: mcts run a b"));
    QCOMPARE(log.at(1).at(0).toString(), QStringLiteral("warning: something to know"));
    // The dock: the loss curve over the progress count, the result's keys flattened.
    QCOMPARE(view.seriesNames(), QStringList{QStringLiteral("loss")});
    QCOMPARE(view.series(QStringLiteral("loss")), (QVector<QPointF>{{1, 0.5}, {4, 0.25}}));
    // (in the order of their names: QJsonObject's)
    QCOMPARE(view.resultLines(), (QStringList{QStringLiteral("mcts/f1 = 0.5"), QStringLiteral("questions = 2")}));
    QVERIFY2(view.statusText().startsWith(QStringLiteral("Finished in")), qPrintable(view.statusText()));
}

void TestJobs::commandFailureSaysWhy()
{
    // The command's own message, not its exit code, is what the user reads.
    qputenv("RWB_PROGRAM", script("bad.sh", R"(
echo 'loading…' >&2
echo 'rwb: mcts.json: questions: no such file: /nowhere/q.jsonl' >&2
exit 2
)")
                               .toUtf8());
    JobRunner runner;
    QVERIFY(runner.runCommand(QStringLiteral("A job"), {}));
    const QList<QVariant> end = waitFinished(&runner, 20000);
    QVERIFY(!end.isEmpty());
    QVERIFY(!end.at(0).toBool());
    QCOMPARE(end.at(1).toString(), QStringLiteral("rwb: mcts.json: questions: no such file: /nowhere/q.jsonl"));
    // Without an "rwb:" line: its last lines and the exit code.
    qputenv("RWB_PROGRAM", script("silent.sh", "exit 3\n").toUtf8());
    QVERIFY(runner.runCommand(QStringLiteral("A job"), {QStringLiteral("x")}));
    const QList<QVariant> end2 = waitFinished(&runner, 20000);
    QVERIFY(!end2.isEmpty());
    QVERIFY(!end2.at(0).toBool());
    QVERIFY2(end2.at(1).toString().contains(QStringLiteral("exit code 3")), qPrintable(end2.at(1).toString()));
}

void TestJobs::commandCancelKeepsWhatItPrinted()
{
    // A command that stops at SIGTERM as rwb's long commands do, printing what it kept.
    qputenv("RWB_PROGRAM", script("long.sh", R"(
trap 'echo "{\"stopped\": true, \"steps\": 3}"; exit 0' TERM
echo '{"progress": {"done": 1, "total": 1000, "detail": "going"}}' >&2
while true; do sleep 0.05; done
)")
                                .toUtf8());
    JobRunner runner;
    QSignalSpy progress(&runner, &JobRunner::progress);
    QVERIFY(runner.runCommand(QStringLiteral("A long job"), {}));
    QVERIFY(progress.wait(rwbtest::scaledMs(20000)));
    QElapsedTimer clock;
    clock.start();
    runner.cancel();
    const QList<QVariant> end = waitFinished(&runner, 20000);
    QVERIFY(!end.isEmpty());
    QVERIFY(!end.at(0).toBool());
    QCOMPARE(end.at(1).toString(), QStringLiteral("cancelled"));
    QCOMPARE(runner.result().value(QStringLiteral("steps")).toInt(), 3);
    QVERIFY2(clock.elapsed() < rwbtest::scaledMs(10000), qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!runner.isRunning());
}

void TestJobs::commandWithoutProgram()
{
    qputenv("RWB_PROGRAM", QByteArray(d.toUtf8() + "/no-such-program"));
    QCOMPARE(JobRunner::rwbProgram(), QString());
    JobRunner runner;
    QSignalSpy started(&runner, &JobRunner::started);
    QVERIFY(runner.runCommand(QStringLiteral("A job"), {}));
    QCOMPARE(started.size(), 1);
    const QList<QVariant> end = waitFinished(&runner, 20000);
    QVERIFY(!end.isEmpty());
    QVERIFY(!end.at(0).toBool());
    QVERIFY2(end.at(1).toString().contains(QStringLiteral("RWB_PROGRAM")), qPrintable(end.at(1).toString()));
    qputenv("RWB_PROGRAM", RWB_BINARY);
}

void TestJobs::formMarksWhatTheParserNames()
{
    JobForm form(QStringLiteral("A job"), QString());
    form.addGroup(QStringLiteral("Group"));
    form.addField({"data", JobField::Kind::File, QStringLiteral("Data"), QString(), d + QStringLiteral("/none.jsonl")});
    form.addField({"steps", JobField::Kind::Int, QStringLiteral("Steps"), QString(), 10, 0, 1000});
    form.addField({"rate", JobField::Kind::Double, QStringLiteral("Rate"), QString(), 0.5, 0, 10});
    // The engine's parser: one problem at a time, each "key: …".
    form.setConfigParser([](const QJsonObject &c) {
        if (c.value(QStringLiteral("steps")).toInt() == 0)
            throw rwb::data::InputException({"job.json", 0, "steps: must be at least 1"});
        if (c.value(QStringLiteral("rate")).toDouble() > 1)
            throw rwb::data::InputException({"job.json", 0, "rate: at most 1"});
    });
    form.setCommand([](const JobForm &f, const QString &config) {
        return QStringList{QStringLiteral("x"), QStringLiteral("--config"), config, QStringLiteral("--steps"),
                           QString::number(f.integer(QStringLiteral("steps")))};
    },
                    d + QStringLiteral("/job.json"));
    QStringList problems;
    QVERIFY(!form.validate(&problems));
    QCOMPARE(form.invalidFields(), QStringList{QStringLiteral("data")});
    QVERIFY(!form.startButton()->isEnabled());
    // Two problems at once: the parser's first is noted and the check goes on past it.
    form.setValue(QStringLiteral("steps"), 0);
    form.setValue(QStringLiteral("rate"), 2.0);
    QVERIFY(!form.validate(&problems));
    QCOMPARE(problems.size(), 3);
    QVERIFY(problems.contains(QStringLiteral("steps: must be at least 1")));
    QVERIFY(problems.contains(QStringLiteral("rate: at most 1")));
    QStringList invalid = form.invalidFields();
    invalid.sort();
    QCOMPARE(invalid, (QStringList{QStringLiteral("data"), QStringLiteral("rate"), QStringLiteral("steps")}));
    QCOMPARE(form.field(QStringLiteral("rate"))->toolTip(), QStringLiteral("rate: at most 1"));
    // Fixed: valid, Start enabled, the config written as the command will read it.
    QFile(d + QStringLiteral("/data.jsonl")).open(QIODevice::WriteOnly);
    form.setValue(QStringLiteral("data"), d + QStringLiteral("/data.jsonl"));
    form.setValue(QStringLiteral("steps"), 5);
    form.setValue(QStringLiteral("rate"), 0.25);
    QVERIFY(form.validate(&problems));
    QVERIFY(form.invalidFields().isEmpty());
    QVERIFY(form.startButton()->isEnabled());
    QCOMPARE(form.commandLine(), QStringLiteral("rwb x --config %1/job.json --steps 5").arg(d));
    QString error;
    QVERIFY(form.writeConfig(&error));
    QFile written(d + QStringLiteral("/job.json"));
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QJsonObject config = QJsonDocument::fromJson(written.readAll()).object();
    QCOMPARE(config.value(QStringLiteral("steps")).toInt(), 5);
    QCOMPARE(config.value(QStringLiteral("rate")).toDouble(), 0.25);
    QCOMPARE(config.value(QStringLiteral("data")).toString(), d + QStringLiteral("/data.jsonl"));
}

namespace {

// A multi-hop fixture: 3 questions, their knowledge base's index, a tokenizer and a
// 1-layer random model (the search's steps are noise; the job's plumbing is what is tested).
bool makeMultihopFixture(const QString &d)
{
    if (!rwbtest::runRwb({"data", "synth", "--task", "multihop", "--n", "3", "--seed", "3", "--split", "train", "--out",
                          d + "/q.jsonl", "--corpus-out", d + "/kb.jsonl", "--people", "12", "--organizations", "6",
                          "--cities", "4", "--countries", "2"}))
        return false;
    if (!rwbtest::runRwb({"retrieve", "index", "--corpus", d + "/kb.jsonl", "--out", d + "/index.sqlite"}))
        return false;
    {
        std::ofstream corpus((d + "/corpus.txt").toStdString());
        corpus << rwb::data::readTextFile((d + "/kb.jsonl").toStdString());
        corpus << rwb::data::readTextFile((d + "/q.jsonl").toStdString());
    }
    QStringList train{"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "500", "--out", d + "/tok"};
    for (const char *t : {"<step>", "</step>", "<subquery>", "</subquery>", "<retrieval>", "</retrieval>", "<subanswer>",
                          "</subanswer>"})
        train << "--added-token" << t;
    return rwbtest::runRwb(train) &&
           rwbtest::runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny", "--layers", "1", "--seed", "1"});
}

void fillMctsForm(JobForm *form, const QString &d, int limit, int simulations)
{
    form->setValue(QStringLiteral("model"), d + "/tiny");
    form->setValue(QStringLiteral("questions"), d + "/q.jsonl");
    form->setValue(QStringLiteral("index"), d + "/index.sqlite");
    form->setValue(QStringLiteral("store"), d + "/runs.sqlite");
    form->setValue(QStringLiteral("limit"), limit);
    form->setValue(QStringLiteral("simulations"), simulations);
    form->setValue(QStringLiteral("expansions"), 2);
    form->setValue(QStringLiteral("max_depth"), 2);
    form->setValue(QStringLiteral("max_step_tokens"), 12);
    form->setValue(QStringLiteral("greedy"), false);
    form->setValue(QStringLiteral("threads"), 1);
}

} // namespace

void TestJobs::mctsFromFormToTrees()
{
    qputenv("RWB_PROGRAM", RWB_BINARY);
    QVERIFY(makeMultihopFixture(d));
    LanguageManager lang;
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm(QStringLiteral("mcts"));
    QVERIFY(form);
    QVERIFY(form->isVisible());
    // No model yet: the form names the field and will not start.
    form->setValue(QStringLiteral("model"), d + "/missing");
    QVERIFY(!form->validate());
    QVERIFY(form->invalidFields().contains(QStringLiteral("model")));
    QVERIFY(!w.jobActions()->startForm(form));
    // The preset fills the three numbers it stands for (ProRAG §4.3's 200, 5, 10).
    form->setValue(QStringLiteral("preset"), QStringLiteral("paper"));
    QCOMPARE(form->integer(QStringLiteral("simulations")), 200);
    QCOMPARE(form->integer(QStringLiteral("expansions")), 5);
    QCOMPARE(form->integer(QStringLiteral("max_depth")), 10);
    // A value the engine refuses: its message, on its field.
    fillMctsForm(form, d, 2, 6);
    QVERIFY(form->validate());
    QVERIFY2(form->commandLine().startsWith(QStringLiteral("rwb mcts run --config ")), qPrintable(form->commandLine()));

    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    QVERIFY(!form->isVisible());
    // While it runs, the search-trees window follows the run from its first line.
    QVERIFY(finished.wait(rwbtest::scaledMs(120000)));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    const qint64 runId = w.jobs()->result().value(QStringLiteral("run_id")).toInteger();
    QVERIFY(runId > 0);
    QCOMPARE(w.jobs()->result().value(QStringLiteral("questions")).toInt(), 2);
    MctsViewer *trees = w.searchTrees();
    QVERIFY(trees->isVisible());
    QCOMPARE(trees->model()->rowCount(), 2);
    // The store has the run, finished, with its two trees.
    const rwb::store::RunStore store((d + "/runs.sqlite").toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(store.run(runId).status, std::string("finished"));
    QCOMPARE(store.mctsTrees(runId).size(), size_t(2));
    // The dock shows the job ended and its result.
    QVERIFY2(w.jobActions()->view()->statusText().startsWith(QStringLiteral("Finished")),
             qPrintable(w.jobActions()->view()->statusText()));
    QVERIFY(w.jobActions()->view()->resultLines().contains(QStringLiteral("questions = 2")));
    // The config the job wrote is where the command line says.
    QVERIFY(QFileInfo::exists(w.jobActions()->currentForm()->configPath()));
}

void TestJobs::mctsCancelled()
{
    qputenv("RWB_PROGRAM", RWB_BINARY);
    if (!QFileInfo::exists(d + "/tiny/config.json"))
        QVERIFY(makeMultihopFixture(d));
    LanguageManager lang;
    MainWindow w(&lang);
    JobForm *form = w.jobActions()->openForm(QStringLiteral("mcts"));
    QVERIFY(form);
    fillMctsForm(form, d, 3, 5000); // minutes of search: cancelled after the first tree
    form->setValue(QStringLiteral("run_name"), QStringLiteral("to cancel"));
    QSignalSpy progress(w.jobs(), &JobRunner::progressData);
    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    QVERIFY(progress.wait(rwbtest::scaledMs(60000)));
    const qint64 runId = progress.at(0).at(0).toJsonObject().value(QStringLiteral("run_id")).toInteger();
    QVERIFY(runId > 0);
    // Followed live: the trees window shows the run while it is written.
    QTRY_VERIFY_WITH_TIMEOUT(w.searchTrees()->isVisible(), rwbtest::scaledMs(10000));
    QElapsedTimer clock;
    clock.start();
    w.jobActions()->actions().constLast()->trigger(); // Jobs ▸ Cancel
    QVERIFY(finished.wait(rwbtest::scaledMs(60000)));
    QCOMPARE(finished.at(0).at(1).toString(), QStringLiteral("cancelled"));
    // The command stopped after the iteration in flight and marked the run stopped.
    QVERIFY2(clock.elapsed() < rwbtest::scaledMs(30000), qPrintable(QString::number(clock.elapsed())));
    const rwb::store::RunStore store((d + "/runs.sqlite").toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(store.run(runId).status, std::string("stopped"));
    QCOMPARE(w.jobs()->result().value(QStringLiteral("run_id")).toInteger(), runId);
}

void TestJobs::grpoInTwoProcessesFromTheForm()
{
    // The training setup's Processes field: 2 runs `rwb grpo --nproc 2 --control F` in the
    // background; the window shows its run and the Designer's weights reach it through F.
    qputenv("RWB_PROGRAM", RWB_BINARY);
    const QString g = d + "/grpo";
    QVERIFY(QDir().mkpath(g));
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(g, 16, 8, 1));
    LanguageManager lang;
    MainWindow w(&lang);
    w.openInitialFiles({}, ":/presets/table1_partial50_marker50.json");
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(g, "two", 6, 3);
    c.checkpointEvery = 0;
    w.runForm()->setConfig(c);
    w.runForm()->setProcesses(2);
    QCOMPARE(w.runForm()->processes(), 2);
    QVERIFY(!w.runForm()->json().contains(QStringLiteral("nproc"))); // not a config key
    QStringList problems;
    QVERIFY2(w.runForm()->validate(&problems), qPrintable(problems.join('\n')));

    QSignalSpy progress(w.jobs(), &JobRunner::progressData);
    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QAction *start = w.findChild<QAction *>("startTraining");
    start->trigger();
    TrainingActions *training = w.findChild<TrainingActions *>();
    QVERIFY(training);
    QVERIFY(training->isExternalRunning());
    QVERIFY(!start->isEnabled());
    QVERIFY2(w.jobs()->commandLine().contains(QStringLiteral("--nproc 2 --control ")), qPrintable(w.jobs()->commandLine()));
    // The run's id comes with its first line: the views open it.
    QTRY_VERIFY_WITH_TIMEOUT(training->externalRunId() > 0, rwbtest::scaledMs(120000));
    // New weights from the Designer (confirmed by the test's answer) go into the control file.
    const QString control = training->controlPath();
    w.setConfirmationHandler([](const QString &, const QString &) { return true; });
    Q_EMIT w.designer()->applyToRunRequested(QVector<double>{20.0, 80.0});
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(control), 5000);
    {
        QFile f(control);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(j.value(QStringLiteral("weights")).toArray(), (QJsonArray{20.0, 80.0}));
        QCOMPARE(j.value(QStringLiteral("pause")).toBool(), false);
    }
    QVERIFY(finished.wait(rwbtest::scaledMs(240000)));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    QVERIFY(!training->isExternalRunning());
    QVERIFY(start->isEnabled());
    const qint64 runId = training->externalRunId();
    const rwb::store::RunStore store(c.store, rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(store.run(runId).status, std::string("finished"));
    // The weights sent were stored with the step they started at (after the first).
    const auto versions = store.rewardConfigs(runId);
    QVERIFY2(versions.size() >= 2, qPrintable(QString::number(versions.size())));
    QVERIFY(versions.back().step > 0);
}

void TestJobs::grpoInTwoProcessesStopped()
{
    // Training ▸ Stop reaches a run of two processes through its control file: it stops
    // after the step in flight, the run is marked stopped, and Start is offered again.
    qputenv("RWB_PROGRAM", RWB_BINARY);
    const QString g = d + "/grpo";
    if (!QFileInfo::exists(g + "/tiny/config.json")) {
        QVERIFY(QDir().mkpath(g));
        QVERIFY(rwbtest::makeTinyGrpoWorkspace(g, 16, 8, 1));
    }
    LanguageManager lang;
    MainWindow w(&lang);
    w.openInitialFiles({}, ":/presets/table1_partial50_marker50.json");
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(g, "two-stopped", 500, 3);
    c.checkpointEvery = 0;
    w.runForm()->setConfig(c);
    w.runForm()->setProcesses(2);
    QVERIFY(w.runForm()->validate());
    QSignalSpy finished(w.jobs(), &JobRunner::finished);
    QAction *start = w.findChild<QAction *>("startTraining");
    start->trigger();
    TrainingActions *training = w.findChild<TrainingActions *>();
    QVERIFY(training->isExternalRunning());
    QTRY_VERIFY_WITH_TIMEOUT(training->externalRunId() > 0, rwbtest::scaledMs(120000));
    QAction *stop = w.findChild<QAction *>("stopTraining");
    QVERIFY(stop);
    QTRY_VERIFY_WITH_TIMEOUT(stop->isEnabled(), 5000);
    stop->trigger();
    QVERIFY(!stop->isEnabled()); // asked once: the run is stopping
    QVERIFY(finished.wait(rwbtest::scaledMs(120000)));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(1).toString()));
    const rwb::store::RunStore store(c.store, rwb::store::RunStore::OpenMode::ReadOnly);
    const rwb::store::RunInfo run = store.run(training->externalRunId());
    QCOMPARE(run.status, std::string("stopped"));
    QVERIFY(start->isEnabled());
    QVERIFY(!training->isExternalRunning());
}

void TestJobs::dualGranularityFieldsInTheForm()
{
    // β of eq. 8 and the PRM are fields of the training setup; a folder that is not a
    // PRM is named as such.
    RunSetupForm form;
    QVERIFY(form.fieldWidget(QStringLiteral("prm")));
    QVERIFY(form.fieldWidget(QStringLiteral("prm_beta")));
    QCOMPARE(form.json().value(QStringLiteral("prm_beta")).toDouble(), 0.3); // the paper's
    rwb::train::GrpoConfig set = rwbtest::tinyGrpoConfig(d, "prm", 2, 1);
    set.processRewardModel = d.toStdString();
    set.processBeta = 0.5;
    form.setConfig(set);
    QCOMPARE(form.json().value(QStringLiteral("prm_beta")).toDouble(), 0.5);
    QStringList problems;
    form.validate(&problems);
    QVERIFY(form.invalidFields().contains(QStringLiteral("prm")));
    QJsonObject j = form.json();
    for (const char *key : {"model", "train_data", "reward_config", "store", "output"}) // the required paths
        j.insert(QLatin1String(key), d + "/x");
    const rwb::train::GrpoConfig c =
        rwb::train::parseGrpoConfig(QJsonDocument(j).toJson(QJsonDocument::Compact).toStdString(), "form");
    QCOMPARE(c.processBeta, 0.5);
    QCOMPARE(QString::fromStdString(c.processRewardModel), d);
}

void TestJobs::runFromAFileShowsItsFreshFolder()
{
    // Training ▸ Start from a config file whose output already holds a run: the run writes
    // beside it (OUTPUT-2), and the form, which shows the config in force, says so.
    const QString g = d + "/grpo";
    if (!QFileInfo::exists(g + "/tiny/config.json")) {
        QVERIFY(QDir().mkpath(g));
        QVERIFY(rwbtest::makeTinyGrpoWorkspace(g, 16, 8, 1));
    }
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(g, "fromfile", 1, 3);
    QVERIFY(QDir().mkpath(g + "/fromfile/final"));
    QFile(g + "/fromfile/final/adapter.safetensors").open(QIODevice::WriteOnly);
    QFile file(g + "/fromfile.json");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(rwb::train::toJson(c)));
    file.close();
    LanguageManager lang;
    MainWindow w(&lang);
    QSignalSpy finished(w.controller(), &rwb::widgets::TrainingController::finished);
    QString error;
    QVERIFY2(w.startTrainingFromFile(g + "/fromfile.json", &error), qPrintable(error));
    QCOMPARE(w.runForm()->json().value(QStringLiteral("output")).toString(), g + "/fromfile-2");
    QVERIFY(finished.wait(rwbtest::scaledMs(120000)));
    QVERIFY(QFileInfo(g + "/fromfile-2/final").isDir());
}

QTEST_MAIN(TestJobs)
#include "tst_jobs.moc"
