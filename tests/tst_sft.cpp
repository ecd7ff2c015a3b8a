// core/train SFT: the weighted loss of ProRAG eq. 1, config validation, and a run that
// overfits four examples of the tiny default model (full) and trains a LoRA adapter.
#include "data/jsonl.h"
#include "train/sft.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "rwbprocess.h"

using namespace rwb;
using rwbtest::runRwb;

class TestSft : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void weightedLoss();
    void configErrors_data();
    void configErrors();
    void overfitsFourExamples();
    void loraAdapter();
    void threadSplitKeepsTheRun();

private:
    QTemporaryDir m_dir;
};

void TestSft::initTestCase()
{
    const QString d = m_dir.path();
    QVERIFY(runRwb({"data", "synth", "--task", "company_extraction", "--n", "60", "--seed", "3", "--split", "train",
                    "--out", d + "/train.jsonl"}));
    QVERIFY(runRwb({"data", "corpus", "--input", d + "/train.jsonl", "--out", d + "/corpus.txt"}));
    QVERIFY(runRwb({"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "600", "--out", d + "/tok"}));
    QVERIFY(runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny", "--seed", "1"}));
}

void TestSft::weightedLoss()
{
    // −(1·(−1) + 3·(−2) + 1·(−0.5)) / 3 = 7.5 / 3 = 2.5: λ = 3 on the middle (control) token.
    QCOMPARE(train::weightedNll({-1.f, -2.f, -0.5f}, {1.f, 3.f, 1.f}), 2.5);
    // λ = 1 is the plain mean NLL.
    QCOMPARE(train::weightedNll({-1.f, -3.f}, {1.f, 1.f}), 2.0);
    QCOMPARE(train::weightedNll({}, {}), 0.0);
    // Weight 0 marks what the environment wrote (retrieved passages): neither in the sum
    // nor in N. −(−1 − 2) / 2 = 1.5.
    QCOMPARE(train::weightedNll({-1.f, -9.f, -2.f}, {1.f, 0.f, 1.f}), 1.5);
}

void TestSft::configErrors_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing model") << R"({"output": "o", "train_data": "t"})" << "model: missing";
    QTest::newRow("unknown key") << R"({"model": "m", "output": "o", "train_data": "t", "lr": 1})" << "lr: unknown key";
    QTest::newRow("schedule") << R"({"model": "m", "output": "o", "train_data": "t", "schedule": "linear"})"
                              << "schedule: must be one of constant_with_warmup, cosine";
    QTest::newRow("module") << R"({"model": "m", "output": "o", "train_data": "t", "lora_target_modules": ["qproj"]})"
                            << "lora_target_modules: \"qproj\" is not a module";
    QTest::newRow("batch") << R"({"model": "m", "output": "o", "train_data": "t", "batch_size": 0})" << "batch_size: must be between";
    QTest::newRow("prompt weight") << R"({"model": "m", "output": "o", "train_data": "t", "prompt_loss_weight": -1})"
                                   << "prompt_loss_weight: must be between";
    QTest::newRow("precision") << R"({"model": "m", "output": "o", "train_data": "t", "precision": "fp16"})"
                               << "precision: must be one of auto, bf16, fp32";
    QTest::newRow("thread split") << R"({"model": "m", "output": "o", "train_data": "t", "thread_split": "rows"})"
                                  << "thread_split: must be one of batches, operations";
}

void TestSft::configErrors()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    try {
        train::parseSftConfig(json.toStdString(), "run/sft.json");
        QFAIL("expected an error");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).startsWith("run/sft.json") && QString(e.what()).contains(message), e.what());
    }
    // Relative paths resolve against the config's folder.
    const train::SftConfig c = train::parseSftConfig(R"({"model": "m", "output": "o", "train_data": "../t.jsonl"})",
                                                     "run/sub/sft.json");
    // … and are made absolute, so that the config stored with a run can be read from anywhere.
    const QString cwd = QDir::currentPath();
    QCOMPARE(QString::fromStdString(c.model), cwd + "/run/sub/m");
    QCOMPARE(QString::fromStdString(c.trainData), cwd + "/run/t.jsonl");
    // PEFT's and TRL's use_rslora: α / √r; off unless asked.
    QVERIFY(!c.loraOptions.rslora);
    QVERIFY(train::parseSftConfig(R"({"model": "m", "output": "o", "train_data": "t", "use_rslora": true})", "sft.json")
                .loraOptions.rslora);
}

void TestSft::overfitsFourExamples()
{
    train::SftConfig c;
    c.model = (m_dir.path() + "/tiny").toStdString();
    c.output = (m_dir.path() + "/full").toStdString();
    c.trainData = (m_dir.path() + "/train.jsonl").toStdString();
    c.lora = false;
    c.learningRate = 3e-3;
    c.warmupRatio = 0.0;
    c.batchSize = 4;
    c.gradientAccumulation = 1;
    c.epochs = 12;
    c.limit = 4;
    c.seed = 1;
    std::vector<double> losses;
    const train::SftResult r = train::runSft(c, [&](const train::SftProgress &p) {
        losses.push_back(p.loss);
        return true;
    });
    QCOMPARE(r.steps, 12);
    QCOMPARE(r.examples, 4);
    // A random model starts near ln(600) = 6.4 per token; twelve steps on the same four
    // answers must at least halve it.
    QVERIFY2(losses.front() > 5.0, qPrintable(QString::number(losses.front())));
    QVERIFY2(losses.back() < 0.5 * losses.front(), qPrintable(QString("%1 → %2").arg(losses.front()).arg(losses.back())));
    QVERIFY(QFile::exists(m_dir.path() + "/full/model.safetensors"));
    QVERIFY(QFile::exists(m_dir.path() + "/full/tokenizer.json"));
}

void TestSft::loraAdapter()
{
    train::SftConfig c;
    c.model = (m_dir.path() + "/tiny").toStdString();
    c.output = (m_dir.path() + "/adapter").toStdString();
    c.trainData = (m_dir.path() + "/train.jsonl").toStdString();
    c.learningRate = 5e-3;
    c.batchSize = 4;
    c.gradientAccumulation = 1;
    c.epochs = 3;
    c.limit = 4;
    c.controlTokenWeight = 2.0;
    const train::SftResult r = train::runSft(c);
    QCOMPARE(r.steps, 3);
    QVERIFY(std::isfinite(r.finalLoss));
    QVERIFY(QFile::exists(m_dir.path() + "/adapter/adapter_config.json"));
    QVERIFY(QFile::exists(m_dir.path() + "/adapter/adapter_model.safetensors"));
}

// On 2 threads, "batches" cuts each micro-batch of 4 in two pieces (longest sequences
// first, cut where their padded positions come out most even), one per worker
// thread; "operations" runs it whole on 2 intra-op threads; 1 thread runs it whole. The
// loss is a sum over sequences, so every step's loss is the same to fp32 rounding (1e-5
// relative) — full fine-tuning (tied embeddings) and LoRA with dropout (each piece's masks
// from (seed, step, piece): the same on every run with 2 threads, to the bit).
void TestSft::threadSplitKeepsTheRun()
{
    const auto run = [&](bool lora, int threads, const char *split) {
        train::SftConfig c;
        c.model = (m_dir.path() + "/tiny").toStdString();
        c.output = (m_dir.path() + "/split").toStdString();
        c.trainData = (m_dir.path() + "/train.jsonl").toStdString();
        c.lora = lora;
        c.loraOptions.dropout = 0.1;
        c.learningRate = 3e-3;
        c.warmupRatio = 0.0;
        c.batchSize = 4;
        c.gradientAccumulation = 1;
        c.epochs = 2;
        c.limit = 8;
        c.seed = 1;
        c.precision = "fp32";
        c.threads = threads;
        c.threadSplit = split;
        std::vector<double> losses;
        train::runSft(c, [&](const train::SftProgress &p) {
            losses.push_back(p.loss);
            return true;
        });
        return losses;
    };
    const std::vector<double> whole = run(false, 1, "batches"), pieces = run(false, 2, "batches"),
                              spread = run(false, 2, "operations");
    QCOMPARE(whole.size(), size_t(4));
    QCOMPARE(pieces.size(), whole.size());
    QCOMPARE(spread.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
        QVERIFY2(std::abs(pieces[i] - whole[i]) <= 1e-5 * whole[i], qPrintable(QString("step %1: %2 vs %3").arg(i + 1).arg(pieces[i]).arg(whole[i])));
        QVERIFY2(std::abs(spread[i] - whole[i]) <= 1e-5 * whole[i], qPrintable(QString("step %1: %2 vs %3").arg(i + 1).arg(spread[i]).arg(whole[i])));
    }
    QVERIFY(whole.back() < whole.front()); // it trained
    const std::vector<double> lora = run(true, 2, "batches"), loraAgain = run(true, 2, "batches");
    QCOMPARE(lora, loraAgain);
    QVERIFY(lora.back() < lora.front());
}

QTEST_APPLESS_MAIN(TestSft)
#include "tst_sft.moc"
