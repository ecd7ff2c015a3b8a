// Our decoders and tokenizers against Hugging Face's, on golden files that
// tests/reference/make_golden.py made with transformers and tokenizers (versions in
// tests/data/hf/versions.json): random-weight Qwen3, Qwen2 (q/k/v biases), Llama and
// Llama-3-RoPE folders (tied and untied embeddings, grouped-query attention, Llama saved in
// four shards) saved by transformers, loaded by our loader, give transformers' float64
// logits and per-token log-probs, and greedy decoding of a left-padded batch through the KV
// cache gives transformers' generate() ids; byte-level BPE, two Unigram and a WordPiece
// tokenizer.json trained by tokenizers encode and decode as it does.
//
// Tolerances: float64 against float64, max |Δlogit| / max |logit| ≤ 1e-10 (the same
// products summed in another order: about 1e-15 expected); float32 ≤ 1e-5 (float32's
// rounding through two layers: about 1e-7 expected). Log-probs are computed in float32
// (scoreTokens, generate): |Δ| ≤ 1e-5. Token ids and texts exactly. The last cases perturb
// one weight and drop one merge and check that the compares then fail.
//
// TRL (tests/reference/make_trl_golden.py, trl/golden.json): TRL's GRPOTrainer on one fixed
// batch with a PEFT LoRA on the Qwen3 folder, float64, ten cases over loss_type,
// scale_rewards, β and μ. Ours: groupAdvantages, util::rewardStats and policyLossBackward
// (the trainer's path, in three micro-batches of one group each; BNPO's in one, as TRL
// ran it). TRL keeps rewards in float32: advantages and reward statistics |Δ| ≤ 1e-6
// (float32's rounding); the loss, given TRL's advantages, and its metrics |Δ| ≤ 1e-10, each
// LoRA gradient ‖Δg‖ / ‖g_TRL‖ ≤ 1e-9 (float64 against float64).
#include "data/jsonl.h"
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/transformer.h"
#include "text/utf8.h"
#include "tokenizer/hfnormalizer.h"
#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/advantages.h"
#include "train/policygradient.h"
#include "train/sftloss.h"
#include "util/stats.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <algorithm>
#include <map>
#include <set>

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

// A model folder loaded on the CPU, one thread, in `dtype`.
std::unique_ptr<model::CausalLM> cpuModel(const QString &folder, const std::string &dtype)
{
    model::ModelOptions o;
    o.dtype = dtype;
    o.device = "cpu";
    o.threads = 1;
    return model::CausalLM::load(folder.toStdString(), o);
}

// The golden's "input_ids" as a [B, L] tensor.
torch::Tensor goldenIds(const nlohmann::json &golden)
{
    std::vector<int64_t> flat;
    const auto &rows = golden.at("input_ids");
    for (const auto &row : rows)
        for (const auto &id : row)
            flat.push_back(id.get<int64_t>());
    return torch::tensor(flat, torch::kLong).view({static_cast<int64_t>(rows.size()), -1});
}

// The golden's "logits" as a [B, L, V] float64 tensor.
torch::Tensor goldenLogits(const nlohmann::json &golden)
{
    std::vector<double> values;
    int64_t b = 0, l = 0;
    for (const auto &row : golden.at("logits")) {
        ++b;
        l = static_cast<int64_t>(row.size());
        for (const auto &pos : row)
            for (const auto &x : pos)
                values.push_back(x.get<double>());
    }
    return torch::tensor(values, torch::kFloat64).view({b, l, -1});
}

// The model's logits [B, L, V] for `ids` (no padding), as f64.
torch::Tensor logitsOf(model::CausalLM &lm, const torch::Tensor &ids)
{
    torch::NoGradGuard noGrad;
    auto &m = lm.internals().module;
    const torch::Tensor mask = torch::ones_like(ids);
    return m->logits(m->hidden(ids, model::positionsFromMask(mask), mask, nullptr)).to(torch::kFloat64);
}

// max |Δlogit| / max |logit| of the folder's model in `dtype` against its golden.json
// (which may lie in another folder: a perturbed copy is checked against the original's).
double logitMismatch(const QString &modelFolder, const nlohmann::json &golden, const std::string &dtype)
{
    const torch::Tensor want = goldenLogits(golden);
    const torch::Tensor got = logitsOf(*cpuModel(modelFolder, dtype), goldenIds(golden));
    if (got.sizes() != want.sizes())
        return INFINITY;
    return (got - want).abs().max().item<double>() / want.abs().max().item<double>();
}

// Our float64 logits for the golden's ids from the base folder with the adapter loaded.
torch::Tensor adaptedLogits(const QString &base, const QString &adapter, const nlohmann::json &golden)
{
    auto lm = cpuModel(base, "float64");
    lm->loadAdapter(adapter.toStdString());
    return logitsOf(*lm, goldenIds(golden));
}

// Adds `delta` to the first element of a float32 tensor in a safetensors file, in place.
void perturbFirstElement(const QString &path, const std::string &tensor, float delta)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    uint64_t headerLen = 0;
    std::memcpy(&headerLen, bytes.constData(), 8);
    const auto header = nlohmann::json::parse(bytes.mid(8, static_cast<qsizetype>(headerLen)).toStdString());
    QCOMPARE(QString::fromStdString(header.at(tensor).at("dtype").get<std::string>()), QStringLiteral("F32"));
    const qsizetype at = 8 + static_cast<qsizetype>(headerLen) + header.at(tensor).at("data_offsets").at(0).get<qsizetype>();
    float x = 0;
    std::memcpy(&x, bytes.constData() + at, 4);
    x += delta;
    std::memcpy(bytes.data() + at, &x, 4);
    f.seek(0);
    QCOMPARE(f.write(bytes), bytes.size());
}

// How many of the golden's encodings the folder's tokenizer gets wrong.
int encodeMismatches(const QString &tokenizerFolder, const nlohmann::json &golden)
{
    const auto tokenizer = tokenizer::loadTokenizer(tokenizerFolder.toStdString());
    int wrong = 0;
    for (const auto &item : golden.at("encode"))
        wrong += tokenizer->encode(item.at("text").get<std::string>()) != item.at("ids").get<std::vector<int32_t>>();
    return wrong;
}

// ---- TRL's GRPO loss

nlohmann::json trlGolden()
{
    return nlohmann::json::parse(data::readTextFile((goldenRoot() + "/trl/golden.json").toStdString()));
}

std::vector<std::vector<int32_t>> idRows(const nlohmann::json &rows)
{
    std::vector<std::vector<int32_t>> out;
    for (const auto &r : rows)
        out.push_back(r.get<std::vector<int32_t>>());
    return out;
}

// Rows of log-probs of the completions' lengths, right-padded with 0 to [R, width].
torch::Tensor paddedRows(const nlohmann::json &rows, int64_t width)
{
    torch::Tensor t = torch::zeros({static_cast<int64_t>(rows.size()), width}, torch::kFloat64);
    for (size_t r = 0; r < rows.size(); ++r)
        for (size_t i = 0; i < rows[r].size(); ++i)
            t[static_cast<int64_t>(r)][static_cast<int64_t>(i)] = rows[r][i].get<double>();
    return t;
}

// How far ours is from TRL's on one golden case: the worst |Δ| of advantages, loss and
// each metric we compute, the worst relative gradient error over the LoRA tensors, and
// the metrics side by side for the note.
struct TrlDifference {
    double advantages = 0.0, rewardMetrics = 0.0, loss = 0.0, metrics = 0.0, gradients = 0.0;
    std::map<std::string, std::pair<double, double>> metricPairs; // name → (TRL's, ours)
    std::string worstRewardMetric, worstMetric, worstTensor;
};

TrlDifference compareWithTrl(const nlohmann::json &golden, const nlohmann::json &k,
                             const std::function<void(train::PolicyStepOptions &)> &tweak = {})
{
    using namespace rwb::train;
    const int G = golden.at("group_size").get<int>();
    auto lm = cpuModel(goldenRoot() + "/" + QString::fromStdString(golden.at("base").get<std::string>()), "float64");
    lm->loadAdapter((goldenRoot() + "/" + QString::fromStdString(golden.at("adapter").get<std::string>())).toStdString());
    auto &d = lm->internals();
    d.module->train(); // dropout is 0: train mode changes nothing but is what the trainer runs

    TrlDifference diff;
    // TRL keeps rewards in float32 (its _calculate_rewards), whatever the model's dtype:
    // the advantages are compared in float32, and the loss is given TRL's own advantages so
    // that it is compared in float64 alone.
    const auto rewards = golden.at("rewards").get<std::vector<double>>();
    const GroupAdvantages ga = groupAdvantages(torch::tensor(rewards, torch::kFloat64).to(torch::kFloat32), G,
                                               *scaleRewardsFromString(k.at("scale_rewards").get<std::string>()));
    const auto trlAdvantages = k.at("advantages").get<std::vector<double>>();
    for (size_t r = 0; r < trlAdvantages.size(); ++r)
        diff.advantages = std::max(diff.advantages,
                                   std::abs(ga.advantages[static_cast<int64_t>(r)].item<double>() - trlAdvantages[r]));

    PolicyBatch b;
    b.groupPrompts = idRows(golden.at("prompts"));
    b.completions = idRows(golden.at("completions"));
    b.advantages = trlAdvantages;
    const int64_t width = golden.at("max_completion_length").get<int64_t>();
    if (!k.at("old_logps").is_null())
        b.oldLogProbs = paddedRows(k.at("old_logps"), width);
    if (!k.at("ref_logps").is_null())
        b.refLogProbs = paddedRows(k.at("ref_logps"), width);
    PolicyStepOptions o;
    o.loss.lossType = *lossTypeFromString(k.at("loss_type").get<std::string>());
    o.loss.epsLow = k.at("epsilon_low").get<double>();
    o.loss.epsHigh = k.at("epsilon_high").get<double>();
    o.loss.beta = k.at("beta").get<double>();
    o.loss.maxCompletionLength = width;
    o.groupSize = G;
    // One group a micro-batch: the trainer's weighting, against TRL's one batch. BNPO
    // normalises each micro-batch by its own tokens, as TRL does each accumulation step:
    // TRL's one batch is our one micro-batch there.
    o.microRows = o.loss.lossType == LossType::Bnpo ? static_cast<int>(b.completions.size()) : G;
    o.withEntropy = true;
    if (tweak)
        tweak(o);

    auto params = d.trainableParameters();
    for (auto &p : params)
        if (p.grad().defined())
            p.grad().zero_();
    // The trainer's aggregation of the micro-batches (grpoupdate.cpp): token-weighted means,
    // the rows' extremes.
    double n = 0.0, low = 0.0, high = 0.0, region = 0.0, kl = 0.0, entropy = 0.0;
    double lowMin = INFINITY, highMax = -INFINITY;
    const double loss = policyLossBackward(d, b, o, [&](const MicroBatch &mb) {
        const double t = static_cast<double>(mb.loss.activeTokens);
        n += t;
        low += mb.loss.clipRatioLow * t;
        high += mb.loss.clipRatioHigh * t;
        region += mb.loss.clipRatioRegion * t;
        kl += mb.loss.kl.value_or(0.0) * t;
        entropy += mb.loss.entropy.value_or(0.0) * t;
        lowMin = std::min(lowMin, mb.loss.clipRatioLowMin);
        highMax = std::max(highMax, mb.loss.clipRatioHighMax);
    });
    diff.loss = std::abs(loss - k.at("loss").get<double>());

    std::vector<std::vector<double>> groups; // float32, as TRL's
    for (size_t r = 0; r < rewards.size(); ++r) {
        if (r % static_cast<size_t>(G) == 0)
            groups.emplace_back();
        groups.back().push_back(static_cast<float>(rewards[r]));
    }
    const util::RewardStats rs = util::rewardStats(groups);
    std::map<std::string, double> mine{{"reward", rs.mean},
                                       {"reward_std", rs.std},
                                       {"entropy", entropy / n},
                                       {"clip_ratio/low_mean", low / n},
                                       {"clip_ratio/high_mean", high / n},
                                       {"clip_ratio/region_mean", region / n},
                                       {"clip_ratio/low_min", lowMin},
                                       {"clip_ratio/high_max", highMax}};
    if (o.loss.beta > 0.0)
        mine["kl"] = kl / n;
    // TRL counts zero-std rows of the std it divides by: the batch's under
    // scale_rewards=batch; ours always counts groups (docs/grpo.md).
    if (k.at("scale_rewards") != "batch")
        mine["frac_reward_zero_std"] = rs.fracZeroStd;
    const nlohmann::json &theirs = k.at("metrics");
    for (const auto &[name, value] : mine) {
        const double want = theirs.at(name).get<double>();
        diff.metricPairs[name] = {want, value};
        // The reward statistics are float32 sums in TRL: compared at float32's precision.
        const bool fromRewards = name == "reward" || name == "reward_std" || name == "frac_reward_zero_std";
        double &worst = fromRewards ? diff.rewardMetrics : diff.metrics;
        std::string &worstName = fromRewards ? diff.worstRewardMetric : diff.worstMetric;
        if (std::abs(value - want) >= worst) {
            worst = std::abs(value - want);
            worstName = name;
        }
    }
    diff.metricPairs["frac_reward_zero_std (ours: groups)"] = {theirs.at("frac_reward_zero_std").get<double>(),
                                                               rs.fracZeroStd};

    const nlohmann::json &grads = k.at("grads");
    size_t seen = 0;
    for (auto &[name, t] : d.loraTensors()) {
        if (!grads.contains(name))
            continue;
        ++seen;
        const torch::Tensor want = torch::tensor(grads.at(name).get<std::vector<double>>(), torch::kFloat64);
        const torch::Tensor got = t.grad().detach().flatten().to(torch::kFloat64);
        const double rel = got.sizes() == want.sizes() ? (got - want).norm().item<double>() / want.norm().item<double>()
                                                       : INFINITY;
        if (rel >= diff.gradients) {
            diff.gradients = rel;
            diff.worstTensor = name;
        }
    }
    if (seen != grads.size())
        diff.gradients = INFINITY; // a tensor TRL trained that we do not have
    return diff;
}

void addTrlCases()
{
    QTest::addColumn<int>("index");
    const nlohmann::json golden = trlGolden();
    for (size_t i = 0; i < golden.at("cases").size(); ++i)
        QTest::newRow(golden["cases"][i].at("name").get<std::string>().c_str()) << static_cast<int>(i);
}

// "N differences<what>:" and each difference on its own line: every one is listed, not
// only the first, so that one look shows the pattern.
QString listDifferences(const std::vector<std::string> &differences, const char *what)
{
    QString list = QString::number(differences.size()) + " differences" + what + ":";
    for (const std::string &d : differences)
        list += "\n  " + QString::fromStdString(d);
    return list;
}

} // namespace

class TestHfGolden : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void goldenFilesArePresent();
    void decoderMatchesTransformers_data() { addFolders("models"); }
    void decoderMatchesTransformers();
    void logProbsMatchTransformers_data() { addFolders("models"); }
    void logProbsMatchTransformers();
    void greedyBatchMatchesGenerate_data() { addFolders("models"); }
    void greedyBatchMatchesGenerate();
    void shardedFolderIsSharded();
    void peftAdapterMatchesPeftOrIsRefused_data() { addFolders("peft"); }
    void peftAdapterMatchesPeftOrIsRefused();
    void adapterWeWriteIsTheOnePeftChecked();
    void chatTemplateIsTheOneTransformersChecked();
    void perturbedWeightFailsTheCompare();
    void droppedMergeFailsTheCompare();
    void perturbedUnigramFailsTheCompare();
    void precompiledMapMatchesTokenizers();
    void tokenizerMatchesTokenizers_data() { addFolders("tokenizers"); }
    void tokenizerMatchesTokenizers();
    void grpoLossMatchesTrl_data() { addTrlCases(); }
    void grpoLossMatchesTrl();
    void perturbedLossTermFailsTheTrlCompare();
    void sftLossMatchesTrl();
};

void TestHfGolden::goldenFilesArePresent()
{
    // The four decoders and six tokenizers make_golden.py writes: a part that failed to be
    // made must not pass as nothing to check.
    for (const char *name : {"models/qwen3", "models/qwen2", "models/llama", "models/llama3_rope",
                             "tokenizers/byte_level_bpe", "tokenizers/unigram", "tokenizers/unigram_metaspace",
                             "tokenizers/unigram_converted", "tokenizers/unigram_steps", "tokenizers/wordpiece"})
        QVERIFY2(QFile::exists(goldenRoot() + "/" + name + "/golden.json"), name);
}

void TestHfGolden::decoderMatchesTransformers()
{
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    for (const auto &[dtype, tolerance] : {std::pair{"float64", 1e-10}, {"float32", 1e-5}}) {
        const double rel = logitMismatch(folder, golden, dtype);
        qInfo("%s in %s: max |Δlogit| / max |logit| = %.3g", qPrintable(QDir(folder).dirName()), dtype, rel);
        QVERIFY2(rel <= tolerance, qPrintable(QString("%1: %2 > %3").arg(dtype).arg(rel).arg(tolerance)));
    }
}

void TestHfGolden::logProbsMatchTransformers()
{
    // scoreTokens (what GRPO's old and reference log-probs and SFT's loss go through) on
    // each row as a prompt of `prompt_tokens` ids and the rest as the completion.
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    const int prompt = golden.at("prompt_tokens").get<int>();
    std::vector<std::vector<int32_t>> prompts, completions;
    for (const auto &row : golden.at("input_ids")) {
        const auto ids = row.get<std::vector<int32_t>>();
        prompts.emplace_back(ids.begin(), ids.begin() + prompt);
        completions.emplace_back(ids.begin() + prompt, ids.end());
    }
    for (const char *dtype : {"float64", "float32"}) {
        auto lm = cpuModel(folder, dtype);
        const auto scores = lm->scoreTokens(prompts, completions);
        QCOMPARE(scores.size(), prompts.size());
        double worst = 0;
        for (size_t r = 0; r < scores.size(); ++r) {
            const auto want = golden.at("token_logprobs").at(r).get<std::vector<double>>();
            QCOMPARE(scores[r].logProbs.size(), want.size());
            for (size_t i = 0; i < want.size(); ++i)
                worst = std::max(worst, std::abs(scores[r].logProbs[i] - want[i]));
        }
        qInfo("%s in %s: max |Δ log p| = %.3g", qPrintable(QDir(folder).dirName()), dtype, worst);
        QVERIFY2(worst <= 1e-5, qPrintable(QString("%1: %2").arg(dtype).arg(worst)));
    }
}

void TestHfGolden::greedyBatchMatchesGenerate()
{
    // Prompts of 6 and 4 ids decode together: the shorter is left-padded, positions come
    // from the mask, and every step after the prefill goes through the KV cache.
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    std::vector<std::vector<int32_t>> prompts;
    for (const auto &row : golden.at("greedy"))
        prompts.push_back(row.at("prompt").get<std::vector<int32_t>>());
    auto lm = cpuModel(folder, "float64");
    model::SamplingOptions s;
    s.temperature = 0;
    s.maxNewTokens = static_cast<int>(golden.at("greedy").at(0).at("ids").size());
    s.padToken = 0;
    const model::Generation g = lm->generate(prompts, 1, s);
    QCOMPARE(g.tokens.size(), prompts.size());
    double worst = 0;
    for (size_t r = 0; r < prompts.size(); ++r) {
        const auto &want = golden.at("greedy").at(r);
        QCOMPARE(g.tokens[r], want.at("ids").get<std::vector<int32_t>>());
        const auto lp = want.at("logprobs").get<std::vector<double>>();
        for (size_t i = 0; i < lp.size(); ++i)
            worst = std::max(worst, std::abs(g.logProbs[r][i] - lp[i]));
    }
    qInfo("%s: greedy ids equal, max |Δ log p| = %.3g", qPrintable(QDir(folder).dirName()), worst);
    QVERIFY(worst <= 1e-5);
}

void TestHfGolden::shardedFolderIsSharded()
{
    // The Llama folder was saved in shards: the loader's index path is what read it above.
    const QDir dir(goldenRoot() + "/models/llama");
    QVERIFY(dir.exists("model.safetensors.index.json"));
    QVERIFY(!dir.exists("model.safetensors"));
    QVERIFY(dir.entryList({"model-*-of-*.safetensors"}, QDir::Files).size() >= 2);
}

void TestHfGolden::peftAdapterMatchesPeftOrIsRefused()
{
    // Adapters PEFT saved: plain LoRA, every projection, rank-stabilized, rank and alpha
    // patterns and a regex of target modules give PEFT's float64 logits; DoRA, saved
    // modules, trained biases and lora_B biases are refused with the field named.
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    const QString base = goldenRoot() + "/" + QString::fromStdString(golden.at("base").get<std::string>());
    if (!golden.at("refused_field").is_null()) {
        const std::string field = golden.at("refused_field").get<std::string>();
        try {
            adaptedLogits(base, folder, golden);
            QFAIL(qPrintable(QString("loaded although %1 is set").arg(QString::fromStdString(field))));
        } catch (const data::InputException &e) {
            const std::string message = e.what();
            qInfo("%s: %s", qPrintable(QDir(folder).dirName()), message.c_str());
            QVERIFY2(message.find("adapter_config.json") != std::string::npos, message.c_str());
            QVERIFY2(message.find(field + ":") != std::string::npos, message.c_str());
        }
        return;
    }
    const torch::Tensor want = goldenLogits(golden);
    const torch::Tensor got = adaptedLogits(base, folder, golden);
    QCOMPARE(got.sizes(), want.sizes());
    const double rel = (got - want).abs().max().item<double>() / want.abs().max().item<double>();
    // The adapter must matter: PEFT's logits differ from the base model's.
    const torch::Tensor plain = goldenLogits(readGolden(base));
    const double effect = (plain - want).abs().max().item<double>() / want.abs().max().item<double>();
    qInfo("%s: max |Δlogit| / max |logit| = %.3g (the adapter moves them by %.3g)", qPrintable(QDir(folder).dirName()),
          rel, effect);
    QVERIFY(effect > 1e-3);
    QVERIFY2(rel <= 1e-10, qPrintable(QString::number(rel)));
}

void TestHfGolden::adapterWeWriteIsTheOnePeftChecked()
{
    // An adapter written by saveAdapter (rank 3, α 7, rank-stabilized, patterns, every
    // projection) with weights from an integer formula. tests/reference/check_peft.py loads the
    // committed copy in PEFT (PeftModel and AutoPeftModelForCausalLM) and compares its
    // logits with ours (rwb_logits.json); here we check that what saveAdapter writes today
    // is that committed copy, and that it names the base folder for AutoPeftModel.
    // RWB_HF_GOLDEN_WRITE=DIR writes the copy into DIR instead (tests/reference/regenerate.sh).
    const QString base = goldenRoot() + "/models/qwen3";
    auto lm = cpuModel(base, "float64");
    model::LoraOptions lora;
    lora.rank = 3;
    lora.alpha = 7;
    lora.dropout = 0;
    lora.targetModules = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
    lora.rslora = true;
    lora.rankPattern = {{"down_proj", 2}};
    lora.alphaPattern = {{"q_proj", 5.0}};
    lm->addLora(lora);
    {
        torch::NoGradGuard noGrad;
        int index = 0;
        for (auto &[name, t] : lm->internals().loraTensors()) {
            // Multiples of 1/64 from integer arithmetic: the same bits on every CPU and
            // libtorch (a sin() here differed in its last bits between libtorch 1.13 and 2.13).
            const torch::Tensor k = torch::arange(t.numel(), torch::kFloat64).view(t.sizes());
            t.copy_(((torch::fmod(7.0 * k + 13.0 * ++index, 29.0) - 14.0) / 64.0).to(t.scalar_type()));
        }
    }
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QByteArray writeTo = qgetenv("RWB_HF_GOLDEN_WRITE");
    const QString out = writeTo.isEmpty() ? tmp.path() : QString::fromLocal8Bit(writeTo);
    lm->saveAdapter(out.toStdString());
    const nlohmann::json golden = readGolden(base);
    const torch::Tensor ours = adaptedLogits(base, out, golden);
    nlohmann::json logits = {{"made_by", "tests/tst_hfgolden.cpp adapterWeWriteIsTheOnePeftChecked"},
                             {"base", "models/qwen3"}, {"input_ids", golden.at("input_ids")}, {"logits_dtype", "float64"}};
    logits["logits"] = nlohmann::json::array();
    const auto acc = ours.accessor<double, 3>();
    for (int64_t b = 0; b < ours.size(0); ++b) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t t = 0; t < ours.size(1); ++t) {
            nlohmann::json pos = nlohmann::json::array();
            for (int64_t v = 0; v < ours.size(2); ++v)
                pos.push_back(acc[b][t][v]);
            row.push_back(pos);
        }
        logits["logits"].push_back(row);
    }
    const nlohmann::json config = nlohmann::json::parse(data::readTextFile((out + "/adapter_config.json").toStdString()));
    QCOMPARE(QString::fromStdString(config.at("base_model_name_or_path").get<std::string>()),
             QDir(base).absolutePath());
    if (!writeTo.isEmpty()) {
        QFile f(out + "/rwb_logits.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(logits.dump(1) + "\n"));
        QSKIP("written to RWB_HF_GOLDEN_WRITE");
    }
    const QString committed = goldenRoot() + "/peft_rwb";
    QFile a(out + "/adapter_model.safetensors"), b(committed + "/adapter_model.safetensors");
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QVERIFY2(a.readAll() == b.readAll(), "saveAdapter's weights differ from tests/data/hf/peft_rwb: regenerate");
    nlohmann::json committedConfig =
        nlohmann::json::parse(data::readTextFile((committed + "/adapter_config.json").toStdString()));
    nlohmann::json writtenConfig = config;
    committedConfig.erase("base_model_name_or_path");
    writtenConfig.erase("base_model_name_or_path");
    QCOMPARE(QString::fromStdString(writtenConfig.dump()), QString::fromStdString(committedConfig.dump()));
    const torch::Tensor want =
        goldenLogits(nlohmann::json::parse(data::readTextFile((committed + "/rwb_logits.json").toStdString())));
    QVERIFY((ours - want).abs().max().item<double>() <= 1e-12 * want.abs().max().item<double>());
}

void TestHfGolden::chatTemplateIsTheOneTransformersChecked()
{
    // The chat_template model folders carry (PromptFormat::chatTemplate) and what our
    // renderer makes of three conversations, with and without the generation prompt, for
    // each format. tests/reference/check_chat_template.py renders the committed template
    // with transformers' apply_chat_template and compares; here we check that today's
    // template and renderer are the committed ones. RWB_HF_GOLDEN_WRITE=DIR writes them.
    using tokenizer::ChatMessage;
    using tokenizer::PromptFormat;
    const std::vector<std::vector<ChatMessage>> conversations = {
        {{"user", "差出人の会社名を答えてください。\n\n本文: ACME株式会社の田中です。"}},
        {{"system", "You are terse."}, {"user", "It's 12:30 — who's \"it\"?"}, {"assistant", "Nobody."},
         {"user", "<tool_call> stays text"}},
        {{"user", ""}},
    };
    nlohmann::ordered_json doc = nlohmann::ordered_json::object();
    for (const auto &[name, format] : {std::pair{"plain", PromptFormat(PromptFormat::Kind::Plain)},
                                       {"chatml", PromptFormat(PromptFormat::Kind::ChatMl)},
                                       {"chatml_qwen3", PromptFormat(PromptFormat::Kind::ChatMl, true)}}) {
        nlohmann::ordered_json cases = nlohmann::ordered_json::array();
        for (const auto &messages : conversations) {
            nlohmann::ordered_json m = nlohmann::ordered_json::array();
            for (const ChatMessage &message : messages)
                m.push_back({{"role", message.role}, {"content", message.content}});
            cases.push_back({{"messages", m},
                             {"with_generation_prompt", format.chatPrompt(messages)},
                             {"without_generation_prompt", format.chat(messages, false)}});
        }
        doc[name] = {{"chat_template", format.chatTemplate()}, {"cases", cases}};
    }
    const std::string text = doc.dump(1) + "\n";
    const QByteArray writeTo = qgetenv("RWB_HF_GOLDEN_WRITE");
    if (!writeTo.isEmpty()) {
        QFile f(QString::fromLocal8Bit(writeTo) + "/chat_templates.json");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(text));
        QSKIP("written to RWB_HF_GOLDEN_WRITE");
    }
    const std::string committed = data::readTextFile((goldenRoot() + "/peft_rwb/chat_templates.json").toStdString());
    QVERIFY2(text == committed, "PromptFormat's chat template or rendering differs from tests/data/hf/peft_rwb: regenerate");
}

void TestHfGolden::perturbedWeightFailsTheCompare()
{
    // One weight of one layer moved by 0.01: the float64 compare must fail, the float32
    // one too (the logits' scale is about 1).
    const QString original = goldenRoot() + "/models/qwen3";
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    for (const QString &name : QDir(original).entryList(QDir::Files))
        QVERIFY(QFile::copy(original + "/" + name, tmp.filePath(name)));
    perturbFirstElement(tmp.filePath("model.safetensors"), "model.layers.1.mlp.down_proj.weight", 0.01f);
    const nlohmann::json golden = readGolden(original);
    QVERIFY(logitMismatch(original, golden, "float64") <= 1e-10);
    const double rel = logitMismatch(tmp.path(), golden, "float64");
    qInfo("one weight + 0.01: max |Δlogit| / max |logit| = %.3g", rel);
    QVERIFY(rel > 1e-5);
}

void TestHfGolden::droppedMergeFailsTheCompare()
{
    const QString original = goldenRoot() + "/tokenizers/byte_level_bpe";
    nlohmann::json doc = nlohmann::json::parse(data::readTextFile((original + "/tokenizer.json").toStdString()));
    auto &merges = doc.at("model").at("merges");
    QVERIFY(merges.size() > 100);
    merges.erase(merges.begin() + 50);  // one merge of the middle of the rank list
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QFile out(tmp.filePath("tokenizer.json"));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(doc.dump()));
    out.close();
    const nlohmann::json golden = readGolden(original);
    QCOMPARE(encodeMismatches(original, golden), 0);
    const int wrong = encodeMismatches(tmp.path(), golden);
    qInfo("merge 50 dropped: %d of %zu encodings differ", wrong, golden.at("encode").size());
    QVERIFY(wrong > 0);
}

// The converted sentencepiece Unigram: the piece of two or more characters the golden uses
// most made unattractive
// (score −100), or the Precompiled character map left out, must each break encodings.
void TestHfGolden::perturbedUnigramFailsTheCompare()
{
    const QString original = goldenRoot() + "/tokenizers/unigram_converted";
    const nlohmann::json golden = readGolden(original);
    QCOMPARE(encodeMismatches(original, golden), 0);
    const nlohmann::json doc = nlohmann::json::parse(data::readTextFile((original + "/tokenizer.json").toStdString()));
    std::map<int32_t, int> uses;
    for (const auto &item : golden.at("encode"))
        for (int32_t id : item.at("ids").get<std::vector<int32_t>>())
            if (id > 3 && static_cast<size_t>(id) < doc.at("model").at("vocab").size() &&
                text::decodeUtf8(doc.at("model").at("vocab").at(static_cast<size_t>(id)).at(0).get<std::string>()).size() > 1)
                ++uses[id];
    QVERIFY(!uses.empty());
    const int32_t most = std::max_element(uses.begin(), uses.end(), [](auto &a, auto &b) { return a.second < b.second; })->first;
    auto mismatchesWith = [&](const nlohmann::json &changed) {
        QTemporaryDir tmp;
        QFile out(tmp.filePath("tokenizer.json"));
        if (!out.open(QIODevice::WriteOnly))
            return -1;
        out.write(QByteArray::fromStdString(changed.dump()));
        out.close();
        return encodeMismatches(tmp.path(), golden);
    };
    nlohmann::json rescored = doc;
    rescored["model"]["vocab"][static_cast<size_t>(most)][1] = -100.0;
    const int wrongScore = mismatchesWith(rescored);
    nlohmann::json unmapped = doc;
    unmapped["normalizer"]["normalizers"].erase(0); // the Precompiled step
    const int wrongMap = mismatchesWith(unmapped);
    qInfo("piece %d (%s) scored -100: %d of %zu encodings differ; without the character map: %d", most,
          doc.at("model").at("vocab").at(static_cast<size_t>(most)).at(0).get<std::string>().c_str(), wrongScore,
          golden.at("encode").size(), wrongMap);
    QVERIFY(wrongScore > 0);
    QVERIFY(wrongMap > 0);
}

// The converted model's precompiled_charsmap (the 240 KB nmt_nfkc map sentencepiece
// compiled: 44,800 trie units, 14,909 replacements) run alone, against tokenizers'
// Precompiled(map).normalize_str on every test string: ①②③ → 123, ㍿ → 株式会社, ﾊﾟﾝ →
// ハ + U+309A + ン (the half-width pair is mapped character by character, not composed).
void TestHfGolden::precompiledMapMatchesTokenizers()
{
    const QString folder = goldenRoot() + "/tokenizers/unigram_converted";
    const nlohmann::json golden = readGolden(folder);
    const nlohmann::json doc = nlohmann::json::parse(data::readTextFile((folder + "/tokenizer.json").toStdString()));
    const nlohmann::json &step = doc.at("normalizer").at("normalizers").at(0);
    QCOMPARE(QString::fromStdString(step.at("type").get<std::string>()), QString("Precompiled"));
    const tokenizer::JsonFieldReader r("tokenizer.json");
    const tokenizer::HfNormalizer map = tokenizer::HfNormalizer::fromJson(r, &step);
    int checked = 0, changed = 0;
    std::vector<std::string> differences;
    for (const auto &item : golden.at("normalize")) {
        const std::string text = item.at("text").get<std::string>(), want = item.at("normalized").get<std::string>();
        const std::string got = map.apply(text);
        if (got != want)
            differences.push_back(nlohmann::json(text).dump() + ": " + nlohmann::json(got).dump() + ", tokenizers " +
                                  nlohmann::json(want).dump());
        changed += want != text;
        ++checked;
    }
    QVERIFY2(differences.empty(), qPrintable(listDifferences(differences, "")));
    qInfo("precompiled_charsmap: %d strings equal to tokenizers', %d of them changed by the map", checked, changed);
    QVERIFY(checked > 100);
    QVERIFY(changed > 20);
}

void TestHfGolden::tokenizerMatchesTokenizers()
{
    QFETCH(QString, folder);
    const nlohmann::json golden = readGolden(folder);
    const auto tokenizer = tokenizer::loadTokenizer(folder.toStdString());
    auto shown = [](const auto &v) { return nlohmann::json(v).dump(); };
    // Every difference is listed, not only the first: one look shows the pattern.
    std::vector<std::string> differences;
    int checked = 0;
    for (const auto &item : golden.at("encode")) {
        const std::string text = item.at("text").get<std::string>();
        const std::vector<int32_t> want = item.at("ids").get<std::vector<int32_t>>();
        const std::vector<int32_t> got = tokenizer->encode(text);
        if (got != want)
            differences.push_back("encode(" + shown(text) + "): " + shown(got) + ", tokenizers " + shown(want));
        const std::string decoded = tokenizer->decode(want), wantDecoded = item.at("decoded").get<std::string>();
        if (decoded != wantDecoded)
            differences.push_back("decode(" + shown(want) + "): " + shown(decoded) + ", tokenizers " + shown(wantDecoded));
        ++checked;
    }
    for (const auto &item : golden.at("decode")) {
        const std::vector<int32_t> ids = item.at("ids").get<std::vector<int32_t>>();
        const std::string decoded = tokenizer->decode(ids), want = item.at("text").get<std::string>();
        if (decoded != want)
            differences.push_back("decode(" + shown(ids) + "): " + shown(decoded) + ", tokenizers " + shown(want));
        ++checked;
    }
    QVERIFY2(differences.empty(), qPrintable(listDifferences(differences, " from tokenizers")));
    qInfo("%s: %d encodings and decodings equal to tokenizers'", qPrintable(QDir(folder).dirName()), checked);
    QVERIFY(checked > 100);
}

void TestHfGolden::grpoLossMatchesTrl()
{
    QFETCH(int, index);
    const nlohmann::json golden = trlGolden();
    const TrlDifference d = compareWithTrl(golden, golden.at("cases").at(static_cast<size_t>(index)));
    qInfo("advantages (float32) %.3g, reward metrics (float32) %.3g (%s), loss %.3g, loss metrics %.3g (%s), "
          "LoRA gradients %.3g (%s)", d.advantages, d.rewardMetrics, d.worstRewardMetric.c_str(), d.loss, d.metrics,
          d.worstMetric.c_str(), d.gradients, d.worstTensor.c_str());
    for (const auto &[name, pair] : d.metricPairs)
        qInfo("  %-40s TRL %.12g  ours %.12g", name.c_str(), pair.first, pair.second);
    QVERIFY2(d.advantages <= 1e-6, qPrintable(QString::number(d.advantages)));
    QVERIFY2(d.rewardMetrics <= 1e-6, qPrintable(QString::fromStdString(d.worstRewardMetric) + ": " +
                                                 QString::number(d.rewardMetrics)));
    QVERIFY2(d.loss <= 1e-10, qPrintable(QString::number(d.loss)));
    QVERIFY2(d.metrics <= 1e-10, qPrintable(QString::fromStdString(d.worstMetric) + ": " + QString::number(d.metrics)));
    QVERIFY2(d.gradients <= 1e-9, qPrintable(QString::fromStdString(d.worstTensor) + ": " + QString::number(d.gradients)));
}

// Each term of the loss matters to the compare: the KL without its ratio weighting, the
// upper clip bound moved by 0.02, and BNPO's normaliser in place of GRPO's each make it fail.
void TestHfGolden::perturbedLossTermFailsTheTrlCompare()
{
    const nlohmann::json golden = trlGolden();
    auto caseNamed = [&](const std::string &name) -> const nlohmann::json & {
        for (const auto &k : golden.at("cases"))
            if (k.at("name") == name)
                return k;
        throw std::runtime_error("no TRL case " + name);
    };
    const TrlDifference noRatio = compareWithTrl(golden, caseNamed("grpo group β=0.04 μ=2"),
                                                 [](train::PolicyStepOptions &o) { o.loss.klBiasCorrection = false; });
    qInfo("KL without the ratio: gradients %.3g, kl %.3g", noRatio.gradients, noRatio.metrics);
    QVERIFY(noRatio.gradients > 1e-4);
    const TrlDifference clip = compareWithTrl(golden, caseNamed("dapo group β=0 μ=2 clip-higher"),
                                              [](train::PolicyStepOptions &o) { o.loss.epsHigh -= 0.02; });
    qInfo("ε_high − 0.02: gradients %.3g, loss %.3g", clip.gradients, clip.loss);
    QVERIFY(clip.gradients > 1e-4 || clip.loss > 1e-6);
    const TrlDifference scale = compareWithTrl(golden, caseNamed("grpo batch β=0 μ=1"),
                                               [](train::PolicyStepOptions &o) { o.loss.lossType = train::LossType::Bnpo; });
    qInfo("bnpo for grpo: gradients %.3g", scale.gradients);
    QVERIFY(scale.gradients > 1e-4);
}

// TRL's SFTTrainer, completion-only loss, on the same prompts and completions: our
// sftLoss (weights 1, no prompt loss, normalised by the batch's completion tokens, as
// the trainer calls it) gives its loss and LoRA gradients.
void TestHfGolden::sftLossMatchesTrl()
{
    const nlohmann::json golden = trlGolden();
    const nlohmann::json &sft = golden.at("sft");
    auto lm = cpuModel(goldenRoot() + "/" + QString::fromStdString(golden.at("base").get<std::string>()), "float64");
    lm->loadAdapter((goldenRoot() + "/" + QString::fromStdString(golden.at("adapter").get<std::string>())).toStdString());
    auto &d = lm->internals();
    d.module->train();
    const auto groupPrompts = idRows(golden.at("prompts"));
    const auto targets = idRows(golden.at("completions"));
    const size_t G = golden.at("group_size").get<size_t>();
    std::vector<std::vector<int32_t>> prompts;
    std::vector<std::vector<float>> weights;
    double tokens = 0.0;
    for (size_t r = 0; r < targets.size(); ++r) {
        prompts.push_back(groupPrompts[r / G]);
        weights.emplace_back(targets[r].size(), 1.0f);
        tokens += static_cast<double>(targets[r].size());
    }
    // TRL's labels: −100 but on the completions, which are ours.
    size_t labelled = 0;
    for (const auto &row : sft.at("labels"))
        for (const auto &l : row)
            labelled += l.get<int>() != -100;
    QCOMPARE(static_cast<double>(labelled), tokens);
    const torch::Tensor loss = train::sftLoss(d, prompts, targets, weights, 0.0, tokens, 0, false);
    loss.backward();
    const double dl = std::abs(loss.item<double>() - sft.at("loss").get<double>());
    double worst = 0.0;
    std::string worstName;
    size_t seen = 0;
    for (auto &[name, t] : d.loraTensors()) {
        ++seen;
        const torch::Tensor want = torch::tensor(sft.at("grads").at(name).get<std::vector<double>>(), torch::kFloat64);
        const double rel = (t.grad().flatten() - want).norm().item<double>() / want.norm().item<double>();
        if (rel >= worst) {
            worst = rel;
            worstName = name;
        }
    }
    qInfo("SFT (TRL %s): loss %.15g, |Δ| %.3g; LoRA gradients %.3g (%s)", sft.at("loss_type").get<std::string>().c_str(),
          loss.item<double>(), dl, worst, worstName.c_str());
    QCOMPARE(seen, sft.at("grads").size());
    QVERIFY2(dl <= 1e-10, qPrintable(QString::number(dl)));
    QVERIFY2(worst <= 1e-9, qPrintable(QString::fromStdString(worstName) + ": " + QString::number(worst)));
}

QTEST_APPLESS_MAIN(TestHfGolden)
#include "tst_hfgolden.moc"
