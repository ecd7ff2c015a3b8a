// The Jobs menu's PRM jobs (app/workbench/prmjobs.cpp), driven from their forms in the main
// window to their results: preference pairs with the reference judge's labels after them
// (JobKind::next) and the annotation view on the set, PRM training with its curves and its
// held-out table, RFT's before / after, a form's invalid fields, and cancelling a training.
#include "jobactions.h"
#include "jobform.h"
#include "jobrunner.h"
#include "jobview.h"
#include "languagemanager.h"
#include "mainwindow.h"
#include "pairqueuemodel.h"
#include "preferenceannotator.h"
#include "rewarddesigner.h"
#include "runsetupform.h"
#include "trainingcontroller.h"
#include "workspace.h"

#include "data/jsonl.h"
#include "mcts/searchrecord.h"
#include "prm/preference.h"
#include "rwbprocess.h"
#include "store/runstore.h"
#include "tasks/multihop/multihopformat.h"
#include "tasks/multihop/multihoptask.h"
#include "train/processrewardmodel.h"
#include "train/prmtraining.h"
#include "train/grpo.h"
#include "train/sft.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace rwb;
using rwb::widgets::JobForm;

class TestPrmJobs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void pairsThenJudgeLabels();
    void trainsAPrm();
    void formsNameTheirInvalidFields();
    void fineTunesWithRft();
    void cancelsATraining();
    void cancelsAnRft();
    void cancelledPairsDoNotGoOnToTheJudge();
    void dualGranularityGrpoFromTheForm();

private:
    // Starts the form's job and waits for the whole job (every command of it) to end.
    static bool run(MainWindow &w, JobForm *form, bool *ok);

    QTemporaryDir m_dir;
    QString d, m_ws, m_store;
    qint64 m_mctsRun = 0;
    task::MultihopTask m_task;
};

// A step with its sub-answer replaced.
static std::string withSubanswer(std::string step, const std::string &text)
{
    const size_t open = step.find("<subanswer>") + 11, close = step.find("</subanswer>");
    step.replace(open, close - open, text);
    return step;
}

void TestPrmJobs::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("RewardWorkbenchTest");
    QCoreApplication::setApplicationName("tst_prmjobs");
    QSettings().clear();
    qputenv("RWB_PROGRAM", RWB_BINARY);
    QVERIFY(m_dir.isValid());
    d = m_dir.path();
    // A workspace: the forms' defaults (its store, models and data) and its jobs folder.
    m_ws = d + "/ws";
    QString error;
    const std::optional<widgets::Workspace> ws = widgets::Workspace::create(m_ws, &error);
    QVERIFY2(ws, qPrintable(error));
    const QString data = ws->dataDir(), models = ws->modelsDir();
    QVERIFY(QDir().mkpath(data) && QDir().mkpath(models));
    m_store = ws->storePath();

    // 16 questions of a small knowledge base, its index, a tokenizer and a 1-layer model.
    QVERIFY(rwbtest::runRwb({"data", "synth", "--task", "multihop", "--n", "16", "--seed", "3", "--split", "train", "--out",
                             d + "/q.jsonl", "--corpus-out", d + "/kb.jsonl", "--people", "12", "--organizations", "6",
                             "--cities", "4", "--countries", "2"}));
    QVERIFY(rwbtest::runRwb({"retrieve", "index", "--corpus", d + "/kb.jsonl", "--out", data + "/index.sqlite"}));
    QVERIFY(rwbtest::runRwb({"retrieve", "annotate", "--index", data + "/index.sqlite", "--input", d + "/q.jsonl",
                             "--query-field", "question", "--k", "1", "--chain", "--out", data + "/questions.jsonl"}));
    const std::vector<task::Record> records = m_task.read((data + "/questions.jsonl").toStdString(), {});
    QCOMPARE(records.size(), size_t(16));
    {
        std::ofstream corpus((d + "/corpus.txt").toStdString());
        corpus << data::readTextFile((d + "/kb.jsonl").toStdString());
        for (const task::Record &r : records)
            corpus << r.example->id() << " " << m_task.sftTarget(*r.example, false) << "\n";
    }
    QStringList tokenizer{"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "700", "--out", d + "/tok"};
    for (const char *t : {"<step>", "</step>", "<subquery>", "</subquery>", "<retrieval>", "</retrieval>", "<subanswer>",
                          "</subanswer>"})
        tokenizer << "--added-token" << t;
    QVERIFY(rwbtest::runRwb(tokenizer));
    QVERIFY(rwbtest::runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", models + "/tiny", "--layers", "1", "--seed",
                             "1"}));

    // The SFT policy for RFT: the first question over-fitted, so that greedy decoding and
    // most samples answer it; and a fresh PRM on it (its scores are what they are: RFT's
    // threshold goes under all of them).
    const std::string all = data::readTextFile((data + "/questions.jsonl").toStdString());
    data::writeFileAtomically((data + "/one.jsonl").toStdString(), all.substr(0, all.find('\n') + 1));
    train::SftConfig sft;
    sft.model = (models + "/tiny").toStdString();
    sft.output = (models + "/sft").toStdString();
    sft.trainData = (data + "/one.jsonl").toStdString();
    sft.task = "multihop";
    sft.lora = false;
    sft.learningRate = 5e-3;
    sft.warmupRatio = 0;
    sft.batchSize = 1;
    sft.gradientAccumulation = 1;
    sft.epochs = 120;
    sft.maxLength = 4096;
    sft.threads = 1;
    double last = 0;
    train::runSft(sft, [&](const train::SftProgress &p) {
        last = p.loss;
        return p.loss > 0.002;
    });
    QVERIFY2(last < 0.05, qPrintable(QString::number(last)));
    model::ModelOptions mo;
    mo.threads = 1;
    train::ProcessRewardModel::fromPolicy(sft.output, mo, 5, *task::Catalog::builtin().find("multihop"))
        ->save((models + "/prm0").toStdString(), sft.output);

    store::RunStore s(m_store.toStdString());
    // An MCTS run of two trees, the first two questions' (the values by hand):
    //   root ─ 1 gold hop 1 (N 4, Q .8) ─ 4 gold hop 2 (N 3, Q .9)
    //        │                          ├ 5 hop 2, nothing found (N 1, Q .5)
    //        │                          └ 6 hop 2, unknown (N 1, Q 0)
    //        ├ 2 hop 1, nothing found (N 2, Q .1)
    //        └ 3 hop 1, unknown (N 0: never visited)
    // Default pairs (margin .2, 2 per state): (1, 2) at the root, (4, 6) and (5, 6) under 1
    // — 3 a tree. With margin .45 and 1 per state: (1, 2) and (4, 6) — 2 a tree.
    m_mctsRun = s.beginRun("mcts fixture", store::RunKind::Mcts, "{}", "multihop");
    for (size_t q = 0; q < 2; ++q) {
        const auto &e = task::as<task::MultihopExample>(*records[q].example);
        const std::vector<std::string> steps = task::stepBlocks(m_task.sftTarget(e, false));
        QVERIFY(steps.size() >= 3);
        mcts::SearchRecord r;
        r.questionId = e.id();
        r.question = e.question().question;
        r.goldAnswer = e.question().answer;
        r.hops = static_cast<int>(e.question().chain.size());
        const int n1 = r.tree.addChild(0, steps[0], 0.4, 1);
        const int n2 = r.tree.addChild(0, withSubanswer(steps[0], "わかりません。"), 0.3, 1);
        r.tree.addChild(0, withSubanswer(steps[0], "不明です。"), 0.3, 1);
        const int n4 = r.tree.addChild(n1, steps[1], 0.4, 2);
        const int n5 = r.tree.addChild(n1, withSubanswer(steps[1], "わかりません。"), 0.3, 2);
        const int n6 = r.tree.addChild(n1, withSubanswer(steps[1], "不明です。"), 0.3, 2);
        r.tree.setStatistics(0, 6, 3.4);
        r.tree.setStatistics(n1, 4, 3.2);
        r.tree.setStatistics(n2, 2, 0.2);
        r.tree.setStatistics(n4, 3, 2.7);
        r.tree.setStatistics(n5, 1, 0.5);
        r.tree.setStatistics(n6, 1, 0.0);
        s.writeMctsTree(m_mctsRun, r);
    }
    s.finishRun(m_mctsRun, store::RunStatus::Finished);

    // A pair set to train on: at each of the first two hops of every question, the gold
    // step against the same step whose sub-answer says it found nothing (the tree's label:
    // gold), the gold step in A half the time.
    std::vector<prm::StepPair> pairs;
    for (size_t i = 0; i < records.size(); ++i) {
        const auto &e = task::as<task::MultihopExample>(*records[i].example);
        const std::vector<std::string> steps = task::stepBlocks(m_task.sftTarget(e, false));
        for (size_t hop = 0; hop < 2; ++hop) {
            const std::string bad = withSubanswer(steps[hop], "わかりません。");
            prm::StepPair p;
            p.set = "cue";
            p.questionId = e.id();
            p.question = e.question().question;
            p.history.assign(steps.begin(), steps.begin() + static_cast<long>(hop));
            const bool goodInA = (i + hop) % 2 == 0;
            p.stepA = goodInA ? steps[hop] : bad;
            p.stepB = goodInA ? bad : steps[hop];
            p.valueA = goodInA ? 1.0 : 0.0;
            p.valueB = goodInA ? 0.0 : 1.0;
            p.visitsA = p.visitsB = 3;
            pairs.push_back(p);
        }
    }
    QCOMPARE(s.addPairs(pairs), size_t(32));
    std::vector<prm::Label> labels;
    for (const prm::StepPair &p : pairs)
        labels.push_back(prm::treeLabel(p, 0.2));
    s.setLabels(labels);
    // The split the training tests use (holdout .25, seed 1) holds some questions out.
    int held = 0;
    for (const task::Record &r : records)
        held += train::heldOut(r.example->id(), 0.25, 1) ? 1 : 0;
    QVERIFY2(held >= 1 && held <= 12, qPrintable(QString::number(held)));
}

bool TestPrmJobs::run(MainWindow &w, JobForm *form, bool *ok)
{
    QSignalSpy finished(w.jobActions(), &JobActions::jobFinished);
    if (!w.jobActions()->startForm(form))
        return false;
    if (!finished.wait(rwbtest::scaledMs(90000)))
        return false;
    *ok = finished.first().first().toBool();
    return true;
}

// Pairs with the form's margin and pairs per state, then the reference judge's labels as
// the job's second command; the annotation view opens on the set.
void TestPrmJobs::pairsThenJudgeLabels()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    w.annotator()->setAnnotator("tester"); // no name dialog when it opens
    JobForm *form = w.jobActions()->openForm("prm-pairs");
    QVERIFY(form);
    QVERIFY2(form->startButton()->isEnabled(), qPrintable(form->invalidFields().join(", ")));
    // Defaults: the workspace's store, its (last) MCTS run and the CLI's set name for it.
    QCOMPARE(form->text("store"), m_store);
    QCOMPARE(form->text("run"), QString("#%1 · mcts fixture").arg(m_mctsRun));
    QCOMPARE(form->text("set"), QString("mcts run %1").arg(m_mctsRun));
    QVERIFY(!form->isFieldVisible("reference_judge")); // no judge yet
    QVERIFY2(form->validate(), qPrintable(form->invalidFields().join(", ")));
    QVERIFY(form->startButton()->isEnabled());

    form->setValue("set", "jobs pairs");
    form->setValue("margin", 0.45);
    form->setValue("max_per_parent", 1);
    qobject_cast<QComboBox *>(form->field("judge"))->setCurrentIndex(1); // the reference judge
    QVERIFY(form->isFieldVisible("reference_judge"));
    QVERIFY(!form->isFieldVisible("judge_config"));
    form->setValue("reference_judge", m_ws + "/data/questions.jsonl");
    form->setValue("both_orders", true);
    QVERIFY2(form->validate(), qPrintable(form->invalidFields().join(", ")));
    QCOMPARE(form->arguments().mid(0, 2), QStringList({"prm", "pairs"}));
    QVERIFY(form->arguments().join(' ').contains("--margin 0.45 --min-visits 1 --max-per-parent 1"));
    // The judge's command is shown under the form's.
    const QString then = form->findChild<QLabel *>("prmJudgeCommand")->text();
    QVERIFY2(then.contains("rwb prm judge") && then.contains("--reference-judge") && then.contains("--both-orders"),
             qPrintable(then));

    QSignalSpy started(w.jobs(), &widgets::JobRunner::started);
    bool ok = false;
    QVERIFY(run(w, form, &ok));
    QVERIFY2(ok, qPrintable(w.jobActions()->view()->statusText()));
    // Two commands, one job: the dock took the judge's title; its result is the judge's.
    QCOMPARE(started.count(), 2);
    QCOMPARE(started.at(0).first().toString(), QString("Preference pairs of jobs pairs"));
    QCOMPARE(started.at(1).first().toString(), QString("Judge labels of jobs pairs"));
    QVERIFY(w.jobs()->commandLine().startsWith("rwb prm judge"));
    const QJsonObject result = w.jobs()->result();
    QCOMPARE(result.value("pairs").toInt(), 4);
    QCOMPARE(result.value("labelled").toInt(), 4);

    // 2 pairs a tree (worked out above), each with the tree's and the judge's label.
    store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(s.pairs("jobs pairs").size(), size_t(4));
    int tree = 0, judge = 0;
    for (const prm::Label &l : s.labels("jobs pairs")) {
        tree += l.source == prm::Source::Tree ? 1 : 0;
        judge += l.source == prm::Source::Judge && l.annotator == "reference" ? 1 : 0;
    }
    QCOMPARE(tree, 4);
    QCOMPARE(judge, 4);
    // The annotation view shows the set.
    QVERIFY(w.annotator()->isVisible());
    QCOMPARE(w.annotator()->set(), QString("jobs pairs"));
    QCOMPARE(w.annotator()->queue()->rowCount(), 4);

    // A margin no pair clears: nothing to judge, and a notice says why.
    form = w.jobActions()->openForm("prm-pairs");
    QVERIFY(form);
    form->setValue("set", "none clear");
    form->setValue("margin", 1.0);
    qobject_cast<QComboBox *>(form->field("judge"))->setCurrentIndex(1);
    form->setValue("reference_judge", m_ws + "/data/questions.jsonl");
    started.clear();
    QVERIFY(run(w, form, &ok));
    QVERIFY(ok);
    QCOMPARE(started.count(), 1);
    QStringList notices;
    for (const QMessageBox *box : w.findChildren<QMessageBox *>())
        notices << box->text();
    QVERIFY2(notices.contains("No pair: no two sibling steps of the run's 2 tree(s), both visited often enough, differ in Q by "
                              "the margin or more."),
             qPrintable(notices.join('\n')));
    QCOMPARE(w.annotator()->set(), QString("jobs pairs"));
}

// A PRM trained from its form: the folder written, the dock's curves (loss and the
// held-out accuracy of the tree's labels, every second step), and the held-out table.
void TestPrmJobs::trainsAPrm()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    JobForm *form = w.jobActions()->openForm("prm-train");
    QVERIFY(form);
    QVERIFY2(form->startButton()->isEnabled(), qPrintable(form->invalidFields().join(", ")));
    // Defaults: the workspace's store and SFT policy, the set with the most labels, a fresh
    // output under the jobs folder, and eval_every giving about ten points: 32 pairs, 80 %
    // training, 8 a batch, 2 epochs = 2 × ⌈25.6 / 8⌉ = 8 steps → 1.
    QCOMPARE(form->text("store"), m_store);
    QCOMPARE(form->text("model"), m_ws + "/models/sft");
    QCOMPARE(form->text("set"), QString("cue"));
    QVERIFY(form->text("output").startsWith(m_ws + "/jobs/prm-"));
    QCOMPARE(form->integer("eval_every"), 1);
    form->setValue("epochs", 20); // 80 steps → 8
    QCOMPARE(form->integer("eval_every"), 8);
    form->setValue("eval_every", 3); // the user's value stays
    form->setValue("epochs", 30);
    QCOMPARE(form->integer("eval_every"), 3);

    const QString output = d + "/prm-job";
    form->setValue("model", m_ws + "/models/tiny");
    form->setValue("output", output);
    form->setValue("holdout", 0.25);
    form->setValue("epochs", 1);
    form->setValue("batch_size", 4);
    form->setValue("learning_rate", 3e-3);
    form->setValue("eval_every", 2);
    form->setValue("threads", 1);
    QVERIFY2(form->validate(), qPrintable(form->invalidFields().join(", ")));
    // The config is the engine's: sources as a list, weights as an object.
    const QJsonObject config = form->config();
    QCOMPARE(config.value("sources").toArray().size(), 4);
    QCOMPARE(config.value("source_weights").toObject().value("human").toDouble(), 2.0);
    QCOMPARE(config.value("eval_every").toInt(), 2);

    bool ok = false;
    QVERIFY(run(w, form, &ok));
    QVERIFY2(ok, qPrintable(w.jobActions()->view()->statusText()));
    QVERIFY(train::isPrmFolder(output.toStdString()));
    const QJsonObject result = w.jobs()->result();
    const int steps = result.value("steps").toInt();
    const QJsonObject tree = result.value("held_out").toObject().value("tree").toObject();
    QVERIFY(steps >= 4);
    QVERIFY(tree.value("pairs").toInt() > 0);

    // The curves: the loss at every step, the held-out accuracy every second step and at
    // the last; not the other metrics of the progress lines.
    widgets::JobView *view = w.jobActions()->view();
    QVERIFY2(view->seriesNames() == QStringList({"held_out/tree", "loss"}), qPrintable(view->seriesNames().join(", ")));
    QCOMPARE(view->series("loss").size(), steps);
    QCOMPARE(view->series("held_out/tree").size(), (steps + 1) / 2);
    QCOMPARE(view->series("held_out/tree").last().x(), double(steps));
    QCOMPARE(view->series("held_out/tree").last().y(), tree.value("after").toDouble());

    // The held-out table: the tree's labels, before and after.
    auto *table = view->resultView() ? view->resultView()->findChild<QTableWidget *>("prmHeldOutTable") : nullptr;
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 0)->text(), QString("tree"));
    QCOMPARE(table->item(0, 1)->text(), QString::number(tree.value("pairs").toInt()));
    QCOMPARE(table->item(0, 2)->text(), QString::number(tree.value("before").toDouble(), 'f', 3));
    QCOMPARE(table->item(0, 3)->text(), QString::number(tree.value("after").toDouble(), 'f', 3));
    QVERIFY(view->resultLines().contains(QString("train_pairs = %1").arg(result.value("train_pairs").toInt())));
}

// A bad value keeps Start disabled and names its field, in each form.
void TestPrmJobs::formsNameTheirInvalidFields()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    const QString empty = d + "/empty.sqlite";
    store::RunStore{empty.toStdString()};

    JobForm *train = w.jobActions()->openForm("prm-train");
    QVERIFY(train);
    QVERIFY2(train->validate(), qPrintable(train->invalidFields().join(", ")));
    // A source the engine does not know: its parser's message marks the field.
    train->setValue("sources", "human, crowd");
    QStringList problems;
    QVERIFY(!train->validate(&problems));
    QCOMPARE(train->invalidFields(), QStringList({"sources"}));
    QVERIFY2(problems.join('\n').contains("sources: \"crowd\" is not human, judge, tree or import"),
             qPrintable(problems.join('\n')));
    QVERIFY(!train->startButton()->isEnabled());
    QVERIFY(!w.jobActions()->startForm(train));
    QVERIFY(!w.jobs()->isRunning());
    // And a store without pair sets.
    train->setValue("sources", "judge tree");
    train->setValue("store", empty);
    QVERIFY(!train->validate(&problems));
    QCOMPARE(train->invalidFields(), QStringList({"set"}));
    train->setValue("store", m_store);
    QVERIFY(train->validate());
    QCOMPARE(train->config().value("sources").toArray(), QJsonArray({"judge", "tree"}));
    train->close();

    JobForm *pairs = w.jobActions()->openForm("prm-pairs");
    QVERIFY(pairs);
    pairs->setValue("store", empty);
    QVERIFY(!pairs->validate(&problems));
    // No run, so no set name after it either.
    QCOMPARE(pairs->invalidFields(), QStringList({"run", "set"}));
    QVERIFY2(problems.contains("run: the store has no MCTS run (Jobs ▸ MCTS search makes one)"),
             qPrintable(problems.join('\n')));
    QVERIFY(!pairs->startButton()->isEnabled());
    pairs->setValue("store", m_store);
    QCOMPARE(pairs->text("run"), QString("#%1 · mcts fixture").arg(m_mctsRun));
    // An LLM judge's config the judge client cannot read.
    QFile bad(d + "/judge.json");
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(R"({"model": "m", "timeout": "soon"})");
    bad.close();
    qobject_cast<QComboBox *>(pairs->field("judge"))->setCurrentIndex(2);
    pairs->setValue("judge_config", bad.fileName());
    QVERIFY(!pairs->validate(&problems));
    QCOMPARE(pairs->invalidFields(), QStringList({"judge_config"}));
    pairs->close();

    JobForm *rft = w.jobActions()->openForm("prm-rft");
    QVERIFY(rft);
    QCOMPARE(rft->text("policy"), m_ws + "/models/sft");
    QCOMPARE(rft->text("prm"), m_ws + "/models/prm0");
    rft->setValue("questions", m_ws + "/data/one.jsonl");
    QVERIFY2(rft->validate(), qPrintable(rft->invalidFields().join(", ")));
    // A policy folder is no PRM.
    rft->setValue("prm", m_ws + "/models/tiny");
    QVERIFY(!rft->validate(&problems));
    QCOMPARE(rft->invalidFields(), QStringList({"prm"}));
    rft->setValue("prm", m_ws + "/models/prm0");
    // SFT's keys are checked by SFT's parser and named as the form names them.
    rft->setValue("sft.max_length", 8);
    rft->setValue("answer", "f1");
    QVERIFY(rft->isFieldVisible("min_f1"));
    QVERIFY(rft->validate());
    QCOMPARE(rft->config().value("sft").toObject().value("max_length").toInt(), 8);
    rft->close();
}

// RFT from its form: the over-fitted policy's right samples, fine-tuned on, and EM / F1
// before and after in the dock's result table; the progress names the phase.
void TestPrmJobs::fineTunesWithRft()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    JobForm *form = w.jobActions()->openForm("prm-rft");
    QVERIFY(form);
    const QString output = d + "/rft-job";
    form->setValue("questions", m_ws + "/data/one.jsonl");
    form->setValue("index", m_ws + "/data/index.sqlite");
    form->setValue("output", output);
    form->setValue("samples", 4);
    form->setValue("max_completion_length", 200);
    form->setValue("retrieval_top_k", 1);
    form->setValue("threshold", -1e9);
    form->setValue("seed", 3);
    form->setValue("sft.learning_rate", 1e-4);
    form->setValue("sft.batch_size", 2);
    form->setValue("sft.max_length", 4096);
    form->setValue("threads", 1);
    form->setValue("eval_questions", m_ws + "/data/one.jsonl");
    QVERIFY2(form->validate(), qPrintable(form->invalidFields().join(", ")));
    QCOMPARE(form->config().value("threshold").toDouble(), -1e9);

    QSignalSpy progress(w.jobs(), &widgets::JobRunner::progressData);
    // The dock names each phase in the user's language, not with the command's word.
    bool samplingNamed = false;
    connect(w.jobs(), &widgets::JobRunner::progressData, this, [&](const QJsonObject &p) {
        if (p.value("phase").toString() == "sampling")
            samplingNamed = samplingNamed || w.jobActions()->view()->statusText().contains("sampling and scoring trajectories");
    });
    bool ok = false;
    QVERIFY(run(w, form, &ok));
    QVERIFY(samplingNamed);
    QVERIFY2(ok, qPrintable(w.jobActions()->view()->statusText()));
    QSet<QString> phases;
    for (const QList<QVariant> &p : progress)
        phases.insert(p.first().toJsonObject().value("phase").toString());
    QVERIFY2(phases.contains("sampling") && phases.contains("training"), qPrintable(QStringList(phases.values()).join(", ")));
    QVERIFY(QFile::exists(output + "/model.safetensors"));
    const QStringList lines = w.jobActions()->view()->resultLines();
    QVERIFY2(lines.contains("before/em = 1"), qPrintable(lines.join('\n'))); // greedy decoding answers it
    for (const char *key : {"before/f1 = ", "after/em = ", "after/f1 = ", "kept = "})
        QVERIFY2(!lines.filter(QRegularExpression(QString("^") + QRegularExpression::escape(key))).isEmpty(), key);
}

// Cancel after the first progress line: the training stops at once, finishes "cancelled",
// and the CLI has saved the PRM trained so far.
void TestPrmJobs::cancelsATraining()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    JobForm *form = w.jobActions()->openForm("prm-train");
    QVERIFY(form);
    const QString output = d + "/prm-cancelled";
    form->setValue("model", m_ws + "/models/tiny");
    form->setValue("output", output);
    form->setValue("epochs", 200); // about 1000 steps
    form->setValue("batch_size", 4);
    form->setValue("eval_every", 0);
    form->setValue("threads", 1);
    QVERIFY(form->validate());
    QSignalSpy progress(w.jobs(), &widgets::JobRunner::progressData);
    QSignalSpy finished(w.jobs(), &widgets::JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    QVERIFY(progress.wait(rwbtest::scaledMs(60000)));
    QVERIFY(finished.isEmpty());
    QElapsedTimer clock;
    clock.start();
    auto *cancel = w.jobActions()->view()->findChild<QPushButton *>("jobViewCancel");
    QVERIFY(cancel && cancel->isEnabled());
    cancel->click();
    QVERIFY(finished.wait(rwbtest::scaledMs(30000)));
    QVERIFY2(clock.elapsed() < rwbtest::scaledMs(15000), qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(finished.first().at(1).toString(), QString("cancelled"));
    QVERIFY(train::isPrmFolder(output.toStdString()));
    const int steps = w.jobs()->result().value("steps").toInt();
    QVERIFY2(steps >= 1 && steps < 1000, qPrintable(QString::number(steps)));
    // What it saved, measured: the held-out table of the PRM as it stopped.
    QVERIFY(w.jobActions()->view()->resultView());
}

// Cancel while sampling: RFT stops at the next question, and the job says "cancelled"
// (what the command kept, it printed: its result is in the dock).
void TestPrmJobs::cancelsAnRft()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    JobForm *form = w.jobActions()->openForm("prm-rft");
    QVERIFY(form);
    form->setValue("questions", m_ws + "/data/one.jsonl");
    form->setValue("index", m_ws + "/data/index.sqlite");
    form->setValue("output", d + "/rft-cancelled");
    form->setValue("samples", 64); // many samples of one question: minutes, cancelled after the first line
    form->setValue("max_completion_length", 200);
    form->setValue("retrieval_top_k", 1);
    form->setValue("threads", 1);
    QVERIFY2(form->validate(), qPrintable(form->invalidFields().join(", ")));
    QSignalSpy progress(w.jobs(), &widgets::JobRunner::progressData);
    QSignalSpy finished(w.jobs(), &widgets::JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    QVERIFY(progress.wait(rwbtest::scaledMs(60000)));
    if (!finished.isEmpty())
        QSKIP("the RFT ended before its first progress line was seen");
    QElapsedTimer clock;
    clock.start();
    w.jobActions()->actions().constLast()->trigger(); // Cancel
    QVERIFY(finished.wait(rwbtest::scaledMs(60000)));
    QVERIFY2(clock.elapsed() < rwbtest::scaledMs(30000), qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(finished.first().at(1).toString(), QString("cancelled"));
    QVERIFY(!w.jobs()->isRunning());
}

// Cancelled during the pairs: the job ends "cancelled" and its second command, the
// judge, never starts; the judge labels nothing.
void TestPrmJobs::cancelledPairsDoNotGoOnToTheJudge()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    JobForm *form = w.jobActions()->openForm("prm-pairs");
    QVERIFY(form);
    form->setValue("set", "cancelled pairs");
    qobject_cast<QComboBox *>(form->field("judge"))->setCurrentIndex(1); // the reference judge
    form->setValue("reference_judge", m_ws + "/data/questions.jsonl");
    QVERIFY2(form->validate(), qPrintable(form->invalidFields().join(", ")));
    QSignalSpy started(w.jobs(), &widgets::JobRunner::started);
    QSignalSpy finished(w.jobs(), &widgets::JobRunner::finished);
    QVERIFY(w.jobActions()->startForm(form));
    w.jobActions()->actions().constLast()->trigger(); // Cancel, at once
    QVERIFY(finished.wait(rwbtest::scaledMs(30000)));
    QTest::qWait(300); // a follow-up would start from the event loop
    QCOMPARE(finished.size(), 1);
    QCOMPARE(started.size(), 1);
    QCOMPARE(finished.first().at(1).toString(), QString("cancelled"));
    QVERIFY(!w.jobs()->isRunning());
    const store::RunStore s(m_store.toStdString(), store::RunStore::OpenMode::ReadOnly);
    for (const prm::Label &l : s.labels("cancelled pairs"))
        QVERIFY(l.source != prm::Source::Judge);
}

// GRPO with dual-granularity advantages from the training setup: the PRM and β are fields
// of the form; the run trains with them (its stored config has them, and its steps the
// PRM's metrics).
void TestPrmJobs::dualGranularityGrpoFromTheForm()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openWorkspace(m_ws, &error), qPrintable(error));
    {
        QFile rc(d + "/reward_mh.json");
        QVERIFY(rc.open(QIODevice::WriteOnly));
        rc.write(R"({"task": "multihop", "components": [{"reward": "answer_f1", "weight": 1}, {"reward": "step_format", "weight": 0.5}]})");
    }
    train::GrpoConfig c;
    c.model = (m_ws + "/models/sft").toStdString();
    c.trainData = (m_ws + "/data/questions.jsonl").toStdString();
    c.rewardConfig = (d + "/reward_mh.json").toStdString();
    c.store = (d + "/dual.sqlite").toStdString();
    c.output = (d + "/dual").toStdString();
    c.groupSize = 4;
    c.promptsPerStep = 1;
    c.maxNewTokens = 120;
    c.maxSteps = 1;
    c.lora = true;
    c.threads = 1;
    c.temperature = 2.0;
    c.environment.topK = 1;
    c.environment.index = (m_ws + "/data/index.sqlite").toStdString();
    c.processRewardModel = (m_ws + "/models/prm0").toStdString();
    c.processBeta = 0.5;
    w.runForm()->setConfig(c);
    QStringList problems;
    QVERIFY2(w.runForm()->validate(&problems), qPrintable(problems.join('\n')));
    QCOMPARE(w.runForm()->json().value("prm_beta").toDouble(), 0.5);
    // The run as the form holds it (its reward config the file the form names: the
    // Designer holds extraction samples, which a multi-hop config does not score).
    QSignalSpy finished(w.controller(), &widgets::TrainingController::finished);
    QVERIFY2(w.startTraining(w.runForm()->config(), &error), qPrintable(error));
    QVERIFY(finished.wait(rwbtest::scaledMs(240000)));
    QCOMPARE(finished.last().at(0).toString(), QString("finished"));
    const store::RunStore s(c.store, store::RunStore::OpenMode::ReadOnly);
    const std::vector<store::RunInfo> runs = s.runs();
    QCOMPARE(runs.size(), size_t(1));
    const QJsonObject stored = QJsonDocument::fromJson(QByteArray::fromStdString(runs[0].configJson)).object();
    QCOMPARE(stored.value("prm").toString(), m_ws + "/models/prm0");
    QCOMPARE(stored.value("prm_beta").toDouble(), 0.5);
    bool prmMetric = false;
    for (const store::MetricPoint &m : s.metrics(runs[0].id))
        prmMetric = prmMetric || m.name == "prm/process_advantage_abs_mean";
    QVERIFY(prmMetric);
}

QTEST_MAIN(TestPrmJobs)
#include "tst_prmjobs.moc"
