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

QTEST_APPLESS_MAIN(TestSft)
#include "tst_sft.moc"
