// core/model: loading and saving model folders (Hugging Face layout) and LoRA adapters (PEFT layout).
#include "data/jsonl.h"
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/safetensors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace rwb::model;

namespace {
ModelConfig tiny()
{
    ModelConfig c = tinyDefaultConfig(64);
    c.numLayers = 2;
    c.hiddenSize = 32;
    c.intermediateSize = 48;
    c.headDim = 8;
    return c;
}

torch::Tensor logitsOf(CausalLM &lm, const torch::Tensor &ids)
{
    torch::NoGradGuard g;
    Transformer &m = lm.internals().module;
    const torch::Tensor mask = torch::ones_like(ids);
    return m->logits(m->hidden(ids, positionsFromMask(mask), mask, nullptr)).to(torch::kFloat32);
}

// The tiny random model (seed 13), saved into `folder`.
std::unique_ptr<CausalLM> savedTinyModel(const QTemporaryDir &folder)
{
    ModelOptions o;
    o.seed = 13;
    auto lm = CausalLM::random(tiny(), o);
    lm->save(folder.path().toStdString());
    return lm;
}

std::string readAll(const QString &path)
{
    std::ifstream in(path.toStdString());
    return std::string(std::istreambuf_iterator<char>(in), {});
}
} // namespace

class TestModelIo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void saveLoadRoundTrip();
    void bf16RoundTrip();
    void untiedHead();
    void mismatchesAreNamed();
    void adapterRoundTrip();
    void adapterConfigsThatWouldComputeSomethingElseAreRefused_data();
    void adapterConfigsThatWouldComputeSomethingElseAreRefused();
};

void TestModelIo::saveLoadRoundTrip()
{
    QTemporaryDir dir;
    ModelOptions o;
    o.seed = 11;
    auto lm = CausalLM::random(tiny(), o);
    lm->save(dir.path().toStdString());
    QVERIFY(QFile::exists(dir.filePath("config.json")));
    QVERIFY(QFile::exists(dir.filePath("model.safetensors")));
    auto back = CausalLM::load(dir.path().toStdString());
    QCOMPARE(back->config().numLayers, int64_t(2));
    const torch::Tensor ids = torch::randint(0, 64, {2, 9}, torch::kLong);
    QVERIFY(torch::equal(logitsOf(*lm, ids), logitsOf(*back, ids))); // bit-exact in f32
    // Tied: no lm_head tensor in the file.
    const SafetensorsModel st = SafetensorsModel::open(dir.path().toStdString());
    QVERIFY(st.find("lm_head.weight") == nullptr);
    QVERIFY(st.find("model.layers.1.self_attn.q_norm.weight") != nullptr);
}

void TestModelIo::bf16RoundTrip()
{
    QTemporaryDir dir;
    ModelOptions o;
    o.seed = 12;
    o.dtype = "bfloat16";
    auto lm = CausalLM::random(tiny(), o);
    QCOMPARE(QString::fromStdString(lm->dtypeName()), QString("bfloat16"));
    lm->save(dir.path().toStdString());
    QVERIFY(readAll(dir.filePath("config.json")).find("\"torch_dtype\": \"bfloat16\"") != std::string::npos);
    const SafetensorsModel st = SafetensorsModel::open(dir.path().toStdString());
    QVERIFY(st.require("model.embed_tokens.weight").dtype == DType::BF16);
    // Loaded as f32: every weight is its bf16 value exactly.
    ModelOptions f32;
    f32.dtype = "float32";
    auto back = CausalLM::load(dir.path().toStdString(), f32);
    const auto a = lm->internals().module->named_parameters();
    const auto b = back->internals().module->named_parameters();
    for (const auto &p : a)
        QVERIFY(torch::equal(p.value().to(torch::kFloat32), b[p.key()]));
}

void TestModelIo::untiedHead()
{
    QTemporaryDir dir;
    ModelConfig c = tiny();
    c.family = Family::Llama;
    c.qkNorm = false;
    c.tieWordEmbeddings = false;
    auto lm = CausalLM::random(c);
    lm->save(dir.path().toStdString());
    const SafetensorsModel st = SafetensorsModel::open(dir.path().toStdString());
    QVERIFY(st.find("lm_head.weight") != nullptr);
    auto back = CausalLM::load(dir.path().toStdString());
    const torch::Tensor ids = torch::randint(0, 64, {1, 5}, torch::kLong);
    QVERIFY(torch::equal(logitsOf(*lm, ids), logitsOf(*back, ids)));
}

void TestModelIo::mismatchesAreNamed()
{
    QTemporaryDir dir;
    auto lm = CausalLM::random(tiny());
    lm->save(dir.path().toStdString());
    // A config that does not match the weights: the tensor and both shapes are named.
    ModelConfig wrong = tiny();
    wrong.intermediateSize = 40;
    {
        std::ofstream out(dir.filePath("config.json").toStdString());
        out << toJson(wrong);
    }
    try {
        CausalLM::load(dir.path().toStdString());
        QFAIL("expected an error");
    } catch (const rwb::data::InputException &e) {
        const QString what = e.what();
        QVERIFY2(what.contains("model.safetensors") && what.contains("mlp.gate_proj.weight") &&
                     what.contains("[48, 32]") && what.contains("[40, 32]"),
                 e.what());
    }
    // A family with tensors the file lacks (Qwen2 needs q/k/v biases).
    ModelConfig qwen2 = tiny();
    qwen2.family = Family::Qwen2;
    qwen2.qkNorm = false;
    qwen2.qkvBias = true;
    {
        std::ofstream out(dir.filePath("config.json").toStdString());
        out << toJson(qwen2);
    }
    try {
        CausalLM::load(dir.path().toStdString());
        QFAIL("expected an error");
    } catch (const rwb::data::InputException &e) {
        QVERIFY2(QString(e.what()).contains("q_proj.bias missing"), e.what());
    }
    // No weights at all.
    QFile::remove(dir.filePath("model.safetensors"));
    QVERIFY_THROWS_EXCEPTION(rwb::data::InputException, CausalLM::load(dir.path().toStdString()));
}

void TestModelIo::adapterRoundTrip()
{
    QTemporaryDir base;
    QTemporaryDir adapter;
    auto lm = savedTinyModel(base);
    LoraOptions lora;
    lora.rank = 4;
    lora.alpha = 8;
    lora.targetModules = {"q_proj", "v_proj", "down_proj"};
    lm->addLora(lora);
    for (auto &[name, t] : lm->internals().loraTensors())
        if (QString::fromStdString(name).contains("lora_B"))
            t.detach().normal_(0.0, 0.1);
    lm->saveAdapter(adapter.path().toStdString());
    // PEFT layout.
    const std::string cfg = readAll(adapter.filePath("adapter_config.json"));
    QVERIFY(cfg.find("\"peft_type\": \"LORA\"") != std::string::npos);
    QVERIFY(cfg.find("\"r\": 4") != std::string::npos);
    const SafetensorsFile st = SafetensorsFile::open(adapter.filePath("adapter_model.safetensors").toStdString());
    QCOMPARE(st.tensors().size(), size_t(2 * 3 * 2));
    QVERIFY(st.find("base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight") != nullptr);
    QCOMPARE(st.find("base_model.model.model.layers.1.mlp.down_proj.lora_B.weight")->shape,
             (std::vector<int64_t>{32, 4}));
    // A fresh base with the adapter loaded gives the same logits.
    auto again = CausalLM::load(base.path().toStdString());
    again->loadAdapter(adapter.path().toStdString());
    QVERIFY(again->hasLora());
    const torch::Tensor ids = torch::randint(0, 64, {2, 6}, torch::kLong);
    QVERIFY(torch::equal(logitsOf(*lm, ids), logitsOf(*again, ids)));
    // With adapters off it is the base again.
    auto plain = CausalLM::load(base.path().toStdString());
    again->setAdaptersEnabled(false);
    QVERIFY(torch::equal(logitsOf(*again, ids), logitsOf(*plain, ids)));
}

void TestModelIo::adapterConfigsThatWouldComputeSomethingElseAreRefused_data()
{
    // A field set in a written adapter's config, and what the message must say.
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("dora") << "use_dora" << "true" << "use_dora: DoRA";
    QTest::newRow("modules_to_save") << "modules_to_save" << "[\"lm_head\"]" << "modules_to_save:";
    QTest::newRow("bias") << "bias" << "\"lora_only\"" << "bias: only \"none\"";
    QTest::newRow("layers") << "layers_to_transform" << "[0]" << "layers_to_transform:";
    QTest::newRow("pissa") << "init_lora_weights" << "\"pissa\"" << "init_lora_weights: \"pissa\"";
    QTest::newRow("unknown option") << "use_future_trick" << "{\"k\": 2}" << "use_future_trick: an option this engine does not apply (set here to {\"k\":2})";
    QTest::newRow("bad regex") << "target_modules" << "\"(q_proj\"" << "target_modules: not a regular expression";
    QTest::newRow("regex matching nothing") << "target_modules" << "\"lm_head\"" << "target_modules: LoRA's target modules match no linear layer";
    QTest::newRow("bad pattern") << "rank_pattern" << "{\"q_proj\": 0}" << "rank_pattern.q_proj: must be an integer > 0";
    QTest::newRow("rslora not a bool") << "use_rslora" << "\"yes\"" << "use_rslora: must be true or false";
}

void TestModelIo::adapterConfigsThatWouldComputeSomethingElseAreRefused()
{
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, expected);
    QTemporaryDir base;
    QTemporaryDir adapter;
    auto lm = savedTinyModel(base);
    LoraOptions lora;
    lora.rank = 4;
    lora.targetModules = {"q_proj"};
    lm->addLora(lora);
    lm->saveAdapter(adapter.path().toStdString());
    const QString configPath = adapter.filePath("adapter_config.json");
    nlohmann::json config = nlohmann::json::parse(readAll(configPath));
    config[key.toStdString()] = nlohmann::json::parse(value.toStdString());
    std::ofstream(configPath.toStdString()) << config.dump(2);
    auto again = CausalLM::load(base.path().toStdString());
    try {
        again->loadAdapter(adapter.path().toStdString());
        QFAIL("loaded");
    } catch (const rwb::data::InputException &e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.startsWith(configPath + ": "), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
}

QTEST_APPLESS_MAIN(TestModelIo)
#include "tst_modelio.moc"
