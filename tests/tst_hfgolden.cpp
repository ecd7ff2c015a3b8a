// Our decoders and tokenizers against Hugging Face's, on golden files that
// tests/data/hf/make_golden.py made with transformers and tokenizers (versions in
// tests/data/hf/versions.json): random-weight Qwen3, Qwen2, Llama and Llama-3-RoPE folders
// saved by transformers, loaded by our loader, give transformers' float64 logits; byte-level
// BPE and Unigram tokenizer.json files trained by tokenizers encode and decode as it does.
//
// Tolerances: float64 against float64, max |Δlogit| / max |logit| ≤ 1e-10 (the same
// products summed in another order: about 1e-15 expected); float32 ≤ 1e-5 (float32's
// rounding through two layers: about 1e-7 expected). Token ids and texts exactly.
#include "data/jsonl.h"
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/transformer.h"
#include "tokenizer/tokenizer.h"

#include <QDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace rwb;

namespace {

QString goldenRoot()
{
    const QByteArray env = qgetenv("RWB_HF_GOLDEN");
    return env.isEmpty() ? QStringLiteral(RWB_TEST_DATA "/hf") : QString::fromLocal8Bit(env);
}

nlohmann::json readGolden(const QString &folder)
{
    return nlohmann::json::parse(data::readTextFile((folder + "/golden.json").toStdString()));
}

void addFolders(const QString &kind)
{
    QTest::addColumn<QString>("folder");
    const QDir dir(goldenRoot() + "/" + kind);
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        QTest::newRow(qPrintable(name)) << dir.filePath(name);
}

// The model's logits [B, L, V] for `ids`, as f64 on the CPU.
torch::Tensor logitsOf(const QString &folder, const std::string &dtype, const torch::Tensor &ids)
{
    model::ModelOptions o;
    o.dtype = dtype;
    o.device = "cpu";
    o.threads = 1;
    auto lm = model::CausalLM::load(folder.toStdString(), o);
    torch::NoGradGuard noGrad;
    auto &m = lm->internals().module;
    const torch::Tensor mask = torch::ones_like(ids);
    return m->logits(m->hidden(ids, model::positionsFromMask(mask), mask, nullptr)).to(torch::kFloat64);
}

} // namespace

class TestHfGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void goldenFilesArePresent();
    void decoderMatchesTransformers_data() { addFolders("models"); }
    void decoderMatchesTransformers();
    void tokenizerMatchesTokenizers_data() { addFolders("tokenizers"); }
    void tokenizerMatchesTokenizers();
};

void TestHfGolden::goldenFilesArePresent()
{
    // The four decoders and two tokenizers make_golden.py writes: a part that failed to be
    // made must not pass as nothing to check.
    for (const char *name : {"models/qwen3", "models/qwen2", "models/llama", "models/llama3_rope",
                             "tokenizers/byte_level_bpe", "tokenizers/unigram"})
        QVERIFY2(QFile::exists(goldenRoot() + "/" + name + "/golden.json"), name);
}

void TestHfGolden::decoderMatchesTransformers()
{
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    std::vector<int64_t> flat;
    const auto &rows = golden.at("input_ids");
    for (const auto &row : rows)
        for (const auto &id : row)
            flat.push_back(id.get<int64_t>());
    const int64_t b = static_cast<int64_t>(rows.size());
    const torch::Tensor ids = torch::tensor(flat, torch::kLong).view({b, -1});
    std::vector<double> values;
    for (const auto &row : golden.at("logits"))
        for (const auto &pos : row)
            for (const auto &x : pos)
                values.push_back(x.get<double>());
    const torch::Tensor want = torch::tensor(values, torch::kFloat64).view({b, ids.size(1), -1});
    const double scale = want.abs().max().item<double>();
    QVERIFY(scale > 0.0);
    for (const auto &[dtype, tolerance] : {std::pair{"float64", 1e-10}, {"float32", 1e-5}}) {
        const torch::Tensor got = logitsOf(folder, dtype, ids);
        QCOMPARE(got.sizes(), want.sizes());
        const double rel = (got - want).abs().max().item<double>() / scale;
        qInfo("%s in %s: max |Δlogit| / max |logit| = %.3g", qPrintable(QDir(folder).dirName()), dtype, rel);
        QVERIFY2(rel <= tolerance, qPrintable(QString("%1: %2 > %3").arg(dtype).arg(rel).arg(tolerance)));
    }
}

void TestHfGolden::tokenizerMatchesTokenizers()
{
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    const auto tokenizer = tokenizer::loadTokenizer(folder.toStdString());
    int checked = 0;
    for (const auto &item : golden.at("encode")) {
        const std::string text = item.at("text").get<std::string>();
        const std::vector<int32_t> want = item.at("ids").get<std::vector<int32_t>>();
        const std::vector<int32_t> got = tokenizer->encode(text);
        QVERIFY2(got == want, qPrintable(QString("encode(%1)").arg(QString::fromStdString(nlohmann::json(text).dump()))));
        QCOMPARE(QString::fromStdString(tokenizer->decode(want)), QString::fromStdString(item.at("decoded").get<std::string>()));
        ++checked;
    }
    for (const auto &item : golden.at("decode")) {
        const std::vector<int32_t> ids = item.at("ids").get<std::vector<int32_t>>();
        QCOMPARE(QString::fromStdString(tokenizer->decode(ids)), QString::fromStdString(item.at("text").get<std::string>()));
        ++checked;
    }
    QVERIFY(checked > 50);
}

QTEST_APPLESS_MAIN(TestHfGolden)
#include "tst_hfgolden.moc"
