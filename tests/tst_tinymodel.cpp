// The demo's default model end to end, through the rwb binary and the core API:
// synthetic e-mails → tokenizer corpus → BPE tokenizer → tiny Qwen3 model in the Hugging
// Face layout → loaded by the same loader as a real model → sampled with the paper's prompt.
#include "tasks/extraction/extractionrecord.h"
#include "data/jsonl.h"
#include "model/causallm.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "testtime.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace rwb;

namespace {
QJsonObject runRwb(const QStringList &args)
{
    QProcess p;
    p.start(RWB_BINARY, args);
    if (!p.waitForFinished(rwbtest::scaledMs(120000)) || p.exitCode() != 0) {
        qWarning("rwb %s failed: %s", qPrintable(args.join(' ')), p.readAllStandardError().constData());
        return {};
    }
    const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
    return QJsonDocument::fromJson(lines.last()).object();
}
} // namespace

class TestTinyModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pipeline();
};

void TestTinyModel::pipeline()
{
    QTemporaryDir dir;
    const QString d = dir.path();
    QVERIFY(!runRwb({"data", "synth", "--task", "company_extraction", "--n", "300", "--seed", "5", "--split", "train",
                     "--out", d + "/train.jsonl"}).isEmpty() || QFile::exists(d + "/train.jsonl"));
    const QJsonObject corpus = runRwb({"data", "corpus", "--input", d + "/train.jsonl", "--out", d + "/corpus.txt"});
    QCOMPARE(corpus.value("examples").toInt(), 300);
    const QJsonObject tok = runRwb({"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "1024", "--out", d + "/tok"});
    QVERIFY(tok.value("vocab_size").toInt() > 512);
    const QJsonObject init = runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny", "--seed", "1"});
    QCOMPARE(init.value("family").toString(), QString("qwen3"));
    // "A few million parameters": 4 layers of 256 + 1024 × 256 tied embeddings = 3.41 M.
    const double params = init.value("parameters").toDouble();
    QVERIFY2(params > 1e6 && params < 10e6, qPrintable(QString::number(params)));
    for (const char *f : {"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"})
        QVERIFY2(QFile::exists(d + "/tiny/" + f), f);

    // --layers 2 (the quick demo's model): two decoder layers fewer; the embeddings and the
    // final norm stay. One layer of the tiny shape (hidden 256, 4 query heads and 2 KV heads
    // of 64, FFN 768), by hand:
    constexpr double kHidden = 256, kQ = 4 * 64, kKv = 2 * 64, kHeadDim = 64, kFfn = 768;
    constexpr double kLayerParams = kHidden * kQ          // q_proj
                                    + 2 * kHidden * kKv   // k_proj, v_proj
                                    + kQ * kHidden        // o_proj
                                    + 3 * kHidden * kFfn  // gate, up, down
                                    + 2 * kHeadDim        // q_norm, k_norm
                                    + 2 * kHidden;        // input and post-attention RMS norms
    static_assert(kLayerParams == 787072);
    const QJsonObject two =
        runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny2", "--seed", "1", "--layers", "2"});
    QCOMPARE(params - two.value("parameters").toDouble(), 2 * kLayerParams);
    QCOMPARE(model::CausalLM::load((d + "/tiny2").toStdString())->config().numLayers, int64_t(2));
    QVERIFY(runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/bad", "--layers", "0"}).isEmpty());
    QVERIFY(!QFile::exists(d + "/bad/model.safetensors"));
    // The 4-layer weights under a config that says 2 layers: refused, naming both files,
    // instead of running the first two layers and dropping the rest.
    QVERIFY(QFile::copy(d + "/tiny/model.safetensors", d + "/tiny2/model.safetensors.4") &&
            QFile::remove(d + "/tiny2/model.safetensors") &&
            QFile::rename(d + "/tiny2/model.safetensors.4", d + "/tiny2/model.safetensors"));
    try {
        model::CausalLM::load((d + "/tiny2").toStdString());
        QFAIL("a config with fewer layers than its weights loaded");
    } catch (const data::InputException &e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.contains("model.layers.2.") && what.contains("num_hidden_layers 2") &&
                     what.contains("config.json") && what.contains("model.safetensors"),
                 qPrintable(what));
    }

    // The same loader as for Qwen3-0.6B.
    auto lm = model::CausalLM::load((d + "/tiny").toStdString());
    const auto tokenizer = tokenizer::loadTokenizer((d + "/tiny").toStdString());
    const auto format = tokenizer::PromptFormat::forModel((d + "/tiny").toStdString(), *tokenizer);
    QCOMPARE(lm->config().vocabSize, int64_t(tokenizer->vocabSize()));
    QCOMPARE(double(lm->parameterCount()), params);
    const auto records = data::readExtractionJsonl((d + "/train.jsonl").toStdString(), {false, false}).records;
    const std::string prompt = format.extractionPrompt(records[0].senderEmail, records[0].emailText, false);
    const std::vector<int32_t> ids = tokenizer->encode(prompt);
    QCOMPARE(QString::fromStdString(tokenizer->decode(ids)), QString::fromStdString(prompt));
    // The template and e-mail stay short for the tiny model: a few hundred tokens.
    QVERIFY2(ids.size() > 50 && ids.size() < 600, qPrintable(QString::number(ids.size())));
    model::SamplingOptions so;
    so.maxNewTokens = 8;
    so.stopTokens = format.stopTokenIds(*tokenizer);
    so.vocabLimit = tokenizer->vocabSize();
    so.seed = 2;
    const model::Generation g = lm->generate({ids}, 4, so);
    QCOMPARE(g.tokens.size(), size_t(4));
    for (const auto &row : g.tokens)
        for (int32_t t : row)
            QVERIFY(t >= 0 && t < tokenizer->vocabSize());
}

QTEST_APPLESS_MAIN(TestTinyModel)
#include "tst_tinymodel.moc"
