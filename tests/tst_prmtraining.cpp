// The process reward model (core/train/processrewardmodel.h, prmtraining.h): eq. 4's loss
// and gradient on three pairs worked out by hand, one forward scoring every step as
// separate forwards would, the folder's round trip, training that learns a planted cue and
// generalises to held-out questions, and the errors a user meets.
#include "data/jsonl.h"
#include "prm/preference.h"
#include "rwbprocess.h"
#include "store/runstore.h"
#include "tasks/multihop/multihopformat.h"
#include "tasks/multihop/multihoptask.h"
#include "train/processrewardmodel.h"
#include "train/prmtraining.h"
#include "train/rft.h"
#include "train/sft.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace rwb;

class TestPrmTraining : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void rankingLossByHand();
    void oneForwardScoresEveryStep();
    void learnsAPlantedCue();
    void heldOutSetIsMeasuredNotTrained();
    void rftKeepsStepsAboveTheThreshold();
    void badInput();

private:
    QTemporaryDir m_dir;
    QString d;
    std::vector<task::Record> m_records;
    task::MultihopTask m_task;
};

void TestPrmTraining::initTestCase()
{
    QVERIFY(m_dir.isValid());
    d = m_dir.path();
    QVERIFY(rwbtest::runRwb({"data", "synth", "--task", "multihop", "--n", "40", "--seed", "5", "--split", "train",
                             "--out", d + "/q.jsonl", "--corpus-out", d + "/kb.jsonl"}));
    QVERIFY(rwbtest::runRwb({"retrieve", "index", "--corpus", d + "/kb.jsonl", "--out", d + "/index.sqlite"}));
    QVERIFY(rwbtest::runRwb({"retrieve", "annotate", "--index", d + "/index.sqlite", "--input", d + "/q.jsonl",
                             "--query-field", "question", "--k", "1", "--chain", "--out", d + "/qa.jsonl"}));
    m_records = m_task.read((d + "/qa.jsonl").toStdString(), {});
    QCOMPARE(m_records.size(), size_t(40));
    {
        std::ofstream corpus((d + "/corpus.txt").toStdString());
        corpus << data::readTextFile((d + "/kb.jsonl").toStdString());
        for (const task::Record &r : m_records)
            corpus << m_task.sftTarget(*r.example, false) << "\n";
    }
    QStringList train{"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "700", "--out", d + "/tok"};
    for (const char *t : {"<step>", "</step>", "<subquery>", "</subquery>", "<retrieval>", "</retrieval>",
                          "<subanswer>", "</subanswer>"})
        train << "--added-token" << t;
    QVERIFY(rwbtest::runRwb(train));
    QVERIFY(rwbtest::runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny", "--layers", "1", "--seed", "1"}));

    // A pair set: at each of the first two hops of every question, the gold step against
    // the same step whose sub-answer says it found nothing. Half the pairs put the gold
    // step in A. Labels: the tree's (gold preferred).
    store::RunStore s((d + "/runs.sqlite").toStdString());
    std::vector<prm::StepPair> pairs;
    for (size_t i = 0; i < m_records.size(); ++i) {
        const auto &e = task::as<task::MultihopExample>(*m_records[i].example);
        const std::vector<std::string> steps = task::stepBlocks(m_task.sftTarget(e, false));
        QVERIFY(steps.size() >= 3);
        for (size_t hop = 0; hop < 2; ++hop) {
            std::string bad = steps[hop];
            const size_t open = bad.find("<subanswer>") + 11, close = bad.find("</subanswer>");
            bad.replace(open, close - open, "わかりません。");
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
    s.addPairs(pairs);
    std::vector<prm::Label> labels;
    for (const prm::StepPair &p : pairs)
        labels.push_back(prm::treeLabel(p, 0.2));
    s.setLabels(labels);
}

void TestPrmTraining::rankingLossByHand()
{
    // Pairs (r₁, r₂, w, tie): (2, 0.5, 1, no), (−1, 0, 2, no), (0.3, −0.2, 1, tie).
    //   ℓ₁ = log(1 + e^−1.5) = 0.2014132779827524
    //   ℓ₂ = log(1 + e)      = 1.3132616875182228
    //   ℓ₃ = ½(log(1 + e^−0.5) + log(1 + e^0.5)) = 0.7240769841801067
    //   L = (ℓ₁ + 2ℓ₂ + ℓ₃) / 4 = 0.8880034092998261
    // dL/dr₁ = −w·σ(−d)/Σw for a preference, w·(σ(d) − ½)/Σw for a tie; dL/dr₂ = −dL/dr₁:
    //   −σ(−1.5)/4 = −0.04560638095158909, −2σ(1)/4 = −0.36552928931500245,
    //   (σ(0.5) − ½)/4 = 0.03061483280046365.
    const train::RankingLoss l = train::rankingLoss({2.0, -1.0, 0.3}, {0.5, 0.0, -0.2}, {1, 2, 1}, {false, false, true});
    QVERIFY(std::abs(l.loss - 0.8880034092998261) < 1e-12);
    const double expected[] = {-0.04560638095158909, -0.36552928931500245, 0.03061483280046365};
    for (int i = 0; i < 3; ++i) {
        QVERIFY(std::abs(l.dFirst[static_cast<size_t>(i)] - expected[i]) < 1e-12);
        QVERIFY(std::abs(l.dSecond[static_cast<size_t>(i)] + expected[i]) < 1e-12);
    }
    // A tie is at its minimum when both steps score alike.
    const train::RankingLoss t = train::rankingLoss({0.7}, {0.7}, {1}, {true});
    QVERIFY(std::abs(t.dFirst[0]) < 1e-15);
    QVERIFY(std::abs(t.loss - std::log(2.0)) < 1e-12);
}

void TestPrmTraining::oneForwardScoresEveryStep()
{
    model::ModelOptions o;
    o.threads = 1;
    const auto prm = train::ProcessRewardModel::fromPolicy((d + "/tiny").toStdString(), o, 3, *task::Catalog::builtin().find("multihop"));
    const auto &e = task::as<task::MultihopExample>(*m_records[0].example);
    const std::vector<std::string> steps = task::stepBlocks(m_task.sftTarget(e, false));
    const train::PrmInput all = prm->input(e.question().question, steps);
    QCOMPARE(all.ends.size(), steps.size());
    // The ends are each step's last token: the prompt's tokens, then each step's.
    const train::PrmInput prompt = prm->input(e.question().question, {});
    // The prompt is the one the policy sees for the question (the task's, in the model's format).
    QCOMPARE(prompt.tokens, prm->tokenizer().encode(m_task.prompt(e, prm->format(), false)));
    QCOMPARE(prm->task().name(), std::string_view("multihop"));
    size_t at = prompt.tokens.size();
    for (size_t k = 0; k < steps.size(); ++k) {
        at += prm->tokenizer().encode(steps[k]).size();
        QCOMPARE(all.ends[k], int64_t(at - 1));
    }
    // One forward over the whole trajectory = a forward per prefix (causal attention),
    // also batched with a shorter input beside it (padding changes nothing).
    std::vector<train::PrmInput> prefixes;
    for (size_t k = 1; k <= steps.size(); ++k) {
        train::PrmInput p = prm->input(e.question().question, {steps.begin(), steps.begin() + static_cast<long>(k)});
        p.ends = {p.ends.back()};
        prefixes.push_back(p);
    }
    const std::vector<std::vector<double>> whole = prm->score({all});
    const std::vector<std::vector<double>> separate = prm->score(prefixes, 2);
    for (size_t k = 0; k < steps.size(); ++k)
        QVERIFY2(std::abs(whole[0][k] - separate[k][0]) < 1e-4,
                 qPrintable(QString("step %1: %2 vs %3").arg(k).arg(whole[0][k]).arg(separate[k][0])));
    // The head is not zero: the steps score differently.
    QVERIFY(std::abs(whole[0][0] - whole[0][1]) > 1e-6);

    // A search tree's steps, scored per leaf path: the same as scoring each node's prefix.
    mcts::SearchRecord rec;
    rec.question = e.question().question;
    const int n1 = rec.tree.addChild(0, steps[0], 0.5, 1), n2 = rec.tree.addChild(n1, steps[1], 0.5, 1),
              n3 = rec.tree.addChild(n1, steps.back(), 0.5, 1);
    const std::map<int, double> tree = train::scoreTree(*prm, rec, 1);
    QCOMPARE(tree.size(), size_t(3));
    QVERIFY(std::abs(tree.at(n1) - separate[0][0]) < 1e-4);
    QVERIFY(std::abs(tree.at(n2) - separate[1][0]) < 1e-4);
    const train::PrmInput answerFirst = prm->input(e.question().question, {steps[0], steps.back()});
    QVERIFY(std::abs(tree.at(n3) - prm->score({answerFirst})[0][1]) < 1e-4);

    // Saved and loaded back: the same scores; the folder is a model folder with the head.
    prm->save((d + "/fresh_prm").toStdString(), (d + "/tiny").toStdString());
    QVERIFY(train::isPrmFolder((d + "/fresh_prm").toStdString()));
    QVERIFY(QFile::exists(d + "/fresh_prm/config.json"));
    QVERIFY(QFile::exists(d + "/fresh_prm/tokenizer.json"));
    const auto back = train::ProcessRewardModel::load((d + "/fresh_prm").toStdString(), o);
    const std::vector<std::vector<double>> again = back->score({all});
    for (size_t k = 0; k < steps.size(); ++k)
        QVERIFY(std::abs(again[0][k] - whole[0][k]) < 1e-5);
    // prm.json names the task whose prompts it reads; a task the build lacks, or one
    // without steps, is an error that names the file.
    const std::string metaPath = (d + "/fresh_prm/prm.json").toStdString();
    nlohmann::json meta = nlohmann::json::parse(data::readTextFile(metaPath));
    QCOMPARE(meta.value("task", std::string()), std::string("multihop"));
    for (const auto &[task, expected] : {std::pair<const char *, const char *>{"company_extraction", "has no process steps"},
                                         std::pair<const char *, const char *>{"nope", "unknown task"}}) {
        meta["task"] = task;
        data::writeFileAtomically(metaPath, meta.dump());
        try {
            train::ProcessRewardModel::load((d + "/fresh_prm").toStdString(), o);
            QFAIL("expected an error");
        } catch (const data::InputException &x) {
            QVERIFY2(QString(x.what()).contains(QString::fromStdString(metaPath)) && QString(x.what()).contains(expected),
                     x.what());
        }
    }
}

void TestPrmTraining::learnsAPlantedCue()
{
    train::PrmTrainConfig c;
    c.model = (d + "/tiny").toStdString();
    c.output = (d + "/prm").toStdString();
    c.store = (d + "/runs.sqlite").toStdString();
    c.set = "cue";
    c.holdout = 0.25;
    c.epochs = 12;
    c.batchSize = 8;
    c.learningRate = 3e-3;
    c.warmupRatio = 0;
    c.precision = "fp32";
    c.threads = 1;
    int steps = 0;
    double firstLoss = 0, lastLoss = 0;
    const train::PrmTrainResult r = train::runPrmTraining(c, [&](const train::PrmTrainProgress &p) {
        if (steps++ == 0)
            firstLoss = p.loss;
        lastLoss = p.loss;
        return true;
    });
    QCOMPARE(r.trainPairs + r.heldOutPairs, size_t(80));
    QVERIFY(r.heldOutPairs >= 8 && r.heldOutPairs <= 36); // about a quarter of 40 questions, 2 pairs each
    QCOMPARE(r.heldOutPairs % 2, size_t(0));            // questions are split, not pairs
    QCOMPARE(r.labelsBySource.at("tree"), r.trainPairs); // the labels trained on
    QCOMPARE(r.steps, 12 * static_cast<int>((r.trainPairs + 7) / 8));
    QVERIFY2(lastLoss < 0.5 * firstLoss, qPrintable(QString("%1 → %2").arg(firstLoss).arg(lastLoss)));
    QVERIFY2(r.trainAfter.accuracy() == 1.0, qPrintable(QString::number(r.trainAfter.accuracy())));
    QCOMPARE(r.heldOutAfter.size(), size_t(1));
    QCOMPARE(r.heldOutAfter[0].source, std::string("tree"));
    QCOMPARE(r.heldOutAfter[0].pairs, r.heldOutPairs);
    // The cue generalises to questions it never saw.
    QVERIFY2(r.heldOutAfter[0].accuracy() >= 0.9, qPrintable(QString::number(r.heldOutAfter[0].accuracy())));
    // The folder scores the gold step above the empty one on a held-out question.
    const auto prm = train::ProcessRewardModel::load(c.output);
    for (const task::Record &rec : m_records) {
        const auto &e = task::as<task::MultihopExample>(*rec.example);
        if (!train::heldOut(e.id(), c.holdout, c.seed))
            continue;
        std::vector<std::string> steps = task::stepBlocks(m_task.sftTarget(e, false));
        std::string bad = steps[0];
        bad.replace(bad.find("<subanswer>") + 11, bad.find("</subanswer>") - bad.find("<subanswer>") - 11, "わかりません。");
        const auto s = prm->score({prm->input(e.question().question, {steps[0]}), prm->input(e.question().question, {bad})});
        QVERIFY(s[0][0] > s[1][0]);
        break;
    }
    const nlohmann::json meta = nlohmann::json::parse(data::readTextFile(c.output + "/prm.json"));
    QCOMPARE(meta["format"].get<std::string>(), std::string("rwb-prm"));
    QCOMPARE(meta["trained"]["train_pairs"].get<size_t>(), r.trainPairs);
}

// held_out_set: every pair of a second set is held out (measured before and after, with
// its own labels) and none trained on; with holdout 0 every pair of the set trains.
void TestPrmTraining::heldOutSetIsMeasuredNotTrained()
{
    store::RunStore s((d + "/runs.sqlite").toStdString());
    std::vector<prm::StepPair> other = s.pairs("cue");
    other.resize(20);
    for (prm::StepPair &p : other) {
        p.id = 0;
        p.set = "cue-other";
    }
    s.addPairs(other);
    std::vector<prm::Label> labels;
    for (const prm::StepPair &p : other)
        labels.push_back(prm::treeLabel(p, 0.2));
    s.setLabels(labels);

    train::PrmTrainConfig c;
    c.model = (d + "/tiny").toStdString();
    c.output = (d + "/prm-other").toStdString();
    c.store = (d + "/runs.sqlite").toStdString();
    c.set = "cue";
    c.heldOutSet = "cue-other";
    c.holdout = 0;
    c.epochs = 1;
    c.batchSize = 16;
    c.precision = "fp32";
    c.threads = 1;
    const train::PrmTrainResult r = train::runPrmTraining(c);
    QCOMPARE(r.trainPairs, size_t(80));
    QCOMPARE(r.heldOutPairs, size_t(20));
    QCOMPARE(r.labelsBySource.at("tree"), size_t(80));
    QCOMPARE(r.heldOutBefore.size(), size_t(1));
    QCOMPARE(r.heldOutAfter[0].source, std::string("tree"));
    QCOMPARE(r.heldOutAfter[0].pairs, size_t(20));
    QCOMPARE(r.steps, 5); // 80 pairs in batches of 16

    try {
        train::parsePrmTrainConfig(R"({"model": "m", "output": "o", "store": "s", "set": "x", "held_out_set": "x"})", "prm.json");
        QFAIL("parsed");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).contains("held_out_set"), e.what());
    }
    c.heldOutSet = "none such";
    try {
        train::runPrmTraining(c);
        QFAIL("trained");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).contains("held_out_set: no pair set \"none such\""), e.what());
    }
}

void TestPrmTraining::rftKeepsStepsAboveTheThreshold()
{
    // Step mode: below-threshold steps become context; none above: dropped.
    QCOMPARE(train::rftSteps({0.5, -0.2, 0.1}, 0.0, "step"), (std::vector<uint8_t>{1, 0, 1}));
    QVERIFY(train::rftSteps({-0.5, -0.2}, 0.0, "step").empty());
    QVERIFY(train::rftSteps({0.5, 0.0}, 0.0, "step") == (std::vector<uint8_t>{1, 0})); // ProRAG: R > 0
    // Trajectory mode: every step must clear.
    QVERIFY(train::rftSteps({0.5, -0.2, 0.1}, 0.0, "trajectory").empty());
    QCOMPARE(train::rftSteps({0.5, 0.3}, 0.0, "trajectory"), (std::vector<uint8_t>{1, 1}));
    QVERIFY(train::rftSteps({}, 0.0, "step").empty());

    // A kept line's context steps carry no loss in SFT, nor do retrievals.
    const auto &e = task::as<task::MultihopExample>(*m_records[0].example);
    data::MultihopQuestion q = e.question();
    const std::vector<std::string> steps = task::stepBlocks(m_task.sftTarget(e, false));
    q.target = steps[0] + steps[1] + steps.back();
    q.contextSteps = {1};
    const task::MultihopExample kept(q);
    QCOMPARE(m_task.sftTarget(kept, false), q.target);
    const auto tok = tokenizer::loadTokenizer((d + "/tiny").toStdString());
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel((d + "/tiny").toStdString(), *tok);
    train::SftConfig sc;
    const train::SftSequence seq = train::sftSequence(m_task, kept, *tok, format, sc);
    // Expected by hand: step 0 and the answer step train but for their retrievals; step 1
    // does not at all; the end-of-completion marker does.
    const auto policyTokens = [&](const std::string &block) {
        size_t n = tok->encode(block).size();
        const size_t a = block.find("<retrieval>"), b = block.find("</retrieval>");
        if (a != std::string::npos)
            n -= tok->encode(block.substr(a, b + 12 - a)).size();
        return n;
    };
    const size_t eoc = tok->encode(format.endOfCompletion(*tok)).size();
    QCOMPARE(seq.policyTokens, policyTokens(steps[0]) + policyTokens(steps.back()) + eoc);
    const size_t first = tok->encode(steps[0]).size(), second = tok->encode(steps[1]).size();
    for (size_t i = first; i < first + second; ++i)
        QCOMPARE(seq.weights[i], 0.0f);
    QCOMPARE(seq.weights[0], 1.0f); // "<step>" with control weight 1 (SftConfig's default λ)
    // Without context steps the same target trains on step 1 too.
    q.contextSteps.clear();
    const task::MultihopExample all(q);
    QCOMPARE(train::sftSequence(m_task, all, *tok, format, sc).policyTokens,
             seq.policyTokens + policyTokens(steps[1]));
}

void TestPrmTraining::badInput()
{
    // A policy folder is not a PRM folder.
    try {
        train::ProcessRewardModel::load((d + "/tiny").toStdString());
        QFAIL("loaded");
    } catch (const data::InputException &e) {
        QVERIFY(QString::fromStdString(e.what()).contains("prm_head.safetensors"));
    }
    // Config errors name the key.
    const auto fails = [](const char *json, const char *key) {
        try {
            train::parsePrmTrainConfig(json, "prm.json");
        } catch (const data::InputException &e) {
            return QString::fromStdString(e.what()).contains(key);
        }
        return false;
    };
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s"})", "set"));
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s", "set": "x", "sources": ["crowd"]})", "sources"));
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s", "set": "x", "source_weights": {"human": -1}})",
                  "source_weights.human"));
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s", "set": "x", "ties": "half"})", "ties"));
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s", "set": "x", "epoch": 2})", "epoch"));
    // The task: one with process steps (the first such by default).
    QCOMPARE(train::parsePrmTrainConfig(R"({"model": "m", "output": "o", "store": "s", "set": "x"})", "prm.json").task,
             std::string("multihop"));
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s", "set": "x", "task": "chat"})", "has no process steps"));
    QVERIFY(fails(R"({"model": "m", "output": "o", "store": "s", "set": "x", "task": "nope"})", "unknown task"));
    try {
        train::parseRftConfig(R"({"policy": "p", "prm": "r", "questions": "q", "index": "i", "output": "o", "task": "legal_qa"})",
                              "rft.json");
        QFAIL("parsed");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).contains("rft.json") && QString(e.what()).contains("has no process steps"), e.what());
    }
    QCOMPARE(train::parseRftConfig(R"({"policy": "p", "prm": "r", "questions": "q", "index": "i", "output": "o"})", "rft.json")
                 .sft.task,
             std::string("multihop"));
    // An unknown set, and a set with no label from the sources asked for.
    train::PrmTrainConfig c;
    c.model = (d + "/tiny").toStdString();
    c.output = (d + "/never").toStdString();
    c.store = (d + "/runs.sqlite").toStdString();
    c.set = "nothing";
    QVERIFY_THROWS_EXCEPTION(data::InputException, train::runPrmTraining(c));
    c.set = "cue";
    c.sources = {prm::Source::Human};
    try {
        train::runPrmTraining(c);
        QFAIL("trained");
    } catch (const data::InputException &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains("no pair to train on (0 labelled"), e.what());
    }
    QVERIFY(!QFile::exists(d + "/never"));
}

QTEST_APPLESS_MAIN(TestPrmTraining)
#include "tst_prmtraining.moc"
