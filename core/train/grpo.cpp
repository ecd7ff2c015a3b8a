#include "train/grpo.h"

#include "data/configreader.h"
#include "data/extractionrecord.h"
#include "data/jsonl.h"
#include "engine/job.h"
#include "eval/extractionmetrics.h"
#include "model/causallminternals.h"
#include "model/precision.h"
#include "reward/compositereward.h"
#include "reward/extraction.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/advantages.h"
#include "train/collapsemetrics.h"
#include "train/dynamicsampling.h"
#include "train/grpoloss.h"
#include "train/overlongpenalty.h"
#include "train/policygradient.h"
#include "train/sft.h"
#include "train/trainingcommon.h"
#include "util/rng.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

// Shape legend: B = groups (prompts) trained on, G = group size, R = B·G rows,
// T = the longest completion of a micro-batch, L = prompt + completion tokens, padded.

namespace rwb::train {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t)
{
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Stream tags of the run's seed, so that every random draw of step s depends on (seed, s)
// alone: a resumed run draws what an uninterrupted one would.
enum Stream : uint64_t { kShuffle = 1, kSampling = 2, kDropout = 3, kLoraInit = 4 };

uint64_t streamSeed(uint64_t seed, uint64_t stream, uint64_t index)
{
    return util::Rng::forStream(seed, stream, index).next();
}

// The prompts in a deterministic order: epoch e is a Fisher–Yates shuffle seeded by
// (seed, e); position p of the run is item order(p / N)[p % N].
class PromptOrder {
public:
    PromptOrder(size_t n, uint64_t seed) : m_n(n), m_seed(seed) {}
    size_t at(uint64_t position)
    {
        const uint64_t epoch = position / m_n;
        if (epoch != m_epoch || m_order.empty()) {
            m_order.resize(m_n);
            for (size_t i = 0; i < m_n; ++i)
                m_order[i] = i;
            util::Rng rng(streamSeed(m_seed, kShuffle, epoch));
            for (size_t i = m_n; i > 1; --i)
                std::swap(m_order[i - 1], m_order[static_cast<size_t>(rng.below(i))]);
            m_epoch = epoch;
        }
        return m_order[position % m_n];
    }

private:
    size_t m_n;
    uint64_t m_seed;
    uint64_t m_epoch = std::numeric_limits<uint64_t>::max();
    std::vector<size_t> m_order;
};

// A prompt of the task, encoded and prepared for the rewards once.
struct Item {
    data::ExtractionRecord record;
    std::string promptText;
    std::vector<int32_t> promptIds;
    std::unique_ptr<reward::ExtractionPrompt> prepared;
};

std::vector<Item> loadItems(const std::string &path, int limit, const tokenizer::Tokenizer &tok,
                            const tokenizer::PromptFormat &format, bool thinking)
{
    data::ExtractionReadOptions ro;
    ro.requireCompletion = false;
    std::vector<Item> items;
    for (auto &r : data::readExtractionJsonl(path, ro).records) {
        if (limit > 0 && static_cast<int>(items.size()) >= limit)
            break;
        Item it;
        it.promptText = format.extractionPrompt(r.senderEmail, r.emailText, thinking);
        it.promptIds = tok.encode(it.promptText);
        it.prepared = std::make_unique<reward::ExtractionPrompt>(r.senderEmail, r.emailText, r.gold);
        it.record = std::move(r);
        items.push_back(std::move(it));
    }
    if (items.empty())
        throw data::InputException({path, 0, "no example"});
    return items;
}

// One sampled completion and what the rewards made of it.
struct Sample {
    size_t item = 0;
    std::vector<int32_t> tokens; // with the stop token when it stopped
    std::vector<float> samplingLogProbs;
    bool truncated = false;
    std::string completion; // decoded, without the stop token
    std::string answer;
    std::vector<double> components;
    double overlong = 0.0;
    double reward = 0.0; // the weighted composite (+ the over-long penalty), what is optimized
};

// {"partial": 0.8, "marker": 1, ("overlong": −0.25)}: each component's value, as stored.
std::string rewardsJson(const reward::CompositeReward &composite, const std::vector<double> &components,
                        const double *overlong = nullptr)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (size_t c = 0; c < composite.size(); ++c)
        j[composite.componentName(c)] = components[c];
    if (overlong)
        j["overlong"] = *overlong;
    return j.dump();
}

double meanOf(const std::vector<double> &v)
{
    double s = 0.0;
    for (double x : v)
        s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

// Sample standard deviation (Bessel-corrected, as torch.std), 0 for fewer than 2 values.
double stdOf(const std::vector<double> &v)
{
    if (v.size() < 2)
        return 0.0;
    const double m = meanOf(v);
    double s = 0.0;
    for (double x : v)
        s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
}

std::vector<store::Metric> toStored(const std::vector<std::pair<std::string, double>> &metrics)
{
    std::vector<store::Metric> out;
    for (const auto &[name, value] : metrics)
        out.push_back({name, value});
    return out;
}

struct TrainerState {
    int step = 0;           // the last step done
    uint64_t cursor = 0;    // prompts consumed
    int64_t runId = 0;
    std::string rewardConfigJson;
    double numTokens = 0.0; // TRL's num_tokens so far
};

TrainerState readState(const std::string &dir)
{
    const std::string path = (fs::path(dir) / "trainer_state.json").string();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(data::readTextFile(path));
        TrainerState s;
        s.step = j.at("step").get<int>();
        s.cursor = j.at("cursor").get<uint64_t>();
        s.runId = j.at("run_id").get<int64_t>();
        s.rewardConfigJson = j.at("reward_config").get<std::string>();
        s.numTokens = j.value("num_tokens", 0.0);
        return s;
    } catch (const data::InputException &) {
        throw;
    } catch (const std::exception &e) {
        throw data::InputException({path, 0, std::string("not a GRPO checkpoint state: ") + e.what()});
    }
}

class GrpoTrainer {
public:
    GrpoTrainer(const GrpoConfig &c, engine::JobControl &control, engine::EventSink &sink)
        : c(c), m_control(control), m_sink(sink)
    {
    }
    engine::JobOutcome run(GrpoRunResult *result);

private:
    void setUp();
    std::vector<Sample> sampleGroups(int step, int round, std::vector<size_t> items);
    void scoreSamples(std::vector<Sample> &samples) const;
    // The rows as the policy-gradient step takes them (policygradient.h).
    PolicyBatch policyBatch(const std::vector<const Sample *> &rows, const std::vector<double> &advantages) const;
    PolicyStepOptions policyOptions() const;
    // Rows per forward / backward: micro_batch rounded down to whole groups (at least one).
    int microRows() const { return std::max(1, c.microBatch / c.groupSize) * c.groupSize; }
    std::vector<std::pair<std::string, double>> evaluate(int step);
    void saveCheckpoint(int step);
    void step(int stepIndex, std::vector<std::pair<std::string, double>> &metrics,
             std::vector<store::Rollout> &rollouts, std::vector<store::Prompt> &prompts);

    const GrpoConfig &c;
    engine::JobControl &m_control;
    engine::EventSink &m_sink;

    std::unique_ptr<tokenizer::Tokenizer> m_tok;
    tokenizer::PromptFormat m_format;
    std::unique_ptr<reward::CompositeReward> m_reward;
    std::vector<Item> m_train;
    std::vector<Item> m_eval;
    std::unique_ptr<PromptOrder> m_order;
    std::unique_ptr<model::CausalLM> m_lm;
    std::unique_ptr<model::CausalLM> m_ref; // full fine-tuning with beta > 0 only
    std::unique_ptr<torch::optim::AdamW> m_optimizer;
    std::vector<torch::Tensor> m_params;
    std::unique_ptr<store::RunStore> m_store;
    std::set<std::string> m_storedPrompts;
    LossType m_lossType = LossType::Grpo;
    ScaleRewards m_scale = ScaleRewards::Group;
    bool m_thinking = false;
    int32_t m_pad = 0;
    model::SamplingOptions m_sampling;
    TrainerState m_state;
    model::PrecisionChoice m_precision;
    GrpoTimings m_timings;
    double m_tokensThisRun = 0.0;
};

void GrpoTrainer::setUp()
{
    m_lossType = *lossTypeFromString(c.lossType);
    m_scale = *scaleRewardsFromString(c.scaleRewards);
    if (!fs::exists(c.rewardConfig))
        throw data::InputException({c.rewardConfig, 0, "reward_config: the file does not exist"});
    reward::RewardConfig rc = reward::loadRewardConfig(c.rewardConfig, reward::Registry::builtin());
    if (!c.resumeFrom.empty()) {
        m_state = readState(c.resumeFrom);
        // The weights in force at the checkpoint win over the file's.
        rc = reward::parseRewardConfig(m_state.rewardConfigJson, c.resumeFrom + "/trainer_state.json",
                                       reward::Registry::builtin());
        rc.baseDir = fs::path(c.rewardConfig).parent_path().string();
    }
    m_thinking = rc.thinking;
    m_reward = std::make_unique<reward::CompositeReward>(rc, c.rewardConfig);

    m_tok = tokenizer::loadTokenizer(c.model);
    m_format = tokenizer::PromptFormat::forModel(c.model, *m_tok);
    m_pad = m_tok->padId().value_or(m_tok->eosId().value_or(0));
    m_train = loadItems(c.trainData, 0, *m_tok, m_format, m_thinking);
    if (!c.evalData.empty())
        m_eval = loadItems(c.evalData, c.evalLimit, *m_tok, m_format, m_thinking);
    m_order = std::make_unique<PromptOrder>(m_train.size(), c.seed);

    m_sampling.temperature = c.temperature;
    m_sampling.topP = c.topP;
    m_sampling.topK = c.topK;
    m_sampling.maxNewTokens = c.maxNewTokens;
    m_sampling.stopTokens = m_format.stopTokenIds(*m_tok);
    m_sampling.padToken = m_pad;
    m_sampling.vocabLimit = m_tok->vocabSize();

    model::ModelOptions mo;
    mo.dtype = c.dtype;
    mo.device = c.device;
    mo.threads = c.threads;
    m_precision = model::resolvePrecision(c.precision, c.device);
    m_sink.log("precision " + m_precision.name() + ": " + m_precision.reason);
    const std::string weights = (!c.lora && !c.resumeFrom.empty()) ? c.resumeFrom : c.model;
    m_lm = model::CausalLM::load(weights, mo);
    if (!c.initAdapter.empty() && (c.lora || c.resumeFrom.empty())) {
        m_lm->loadAdapter(c.initAdapter);
        m_lm->mergeLora();
    }
    if (c.lora) {
        if (!c.resumeFrom.empty()) {
            m_lm->loadAdapter(c.resumeFrom);
        } else {
            torch::manual_seed(static_cast<int64_t>(streamSeed(c.seed, kLoraInit, 0) >> 1));
            m_lm->addLora(c.loraOptions);
        }
    } else if (c.beta > 0.0) {
        m_ref = model::CausalLM::load(c.model, mo);
        if (!c.initAdapter.empty()) {
            m_ref->loadAdapter(c.initAdapter);
            m_ref->mergeLora();
        }
    }
    if (!c.lora) // a merged init adapter left the base frozen
        for (auto &p : m_lm->internals().module->parameters())
            p.requires_grad_(true);
    m_params = m_lm->internals().trainableParameters();
    m_optimizer = std::make_unique<torch::optim::AdamW>(
        m_params, torch::optim::AdamWOptions(c.learningRate).weight_decay(c.weightDecay));
    if (!c.resumeFrom.empty()) {
        const fs::path opt = fs::path(c.resumeFrom) / "optimizer.pt";
        try {
            torch::load(*m_optimizer, opt.string());
        } catch (const c10::Error &e) {
            throw data::InputException({opt.string(), 0, "cannot read the optimizer state: " +
                                                             std::string(e.what_without_backtrace())});
        }
    }

    fs::create_directories(c.output);
    m_store = std::make_unique<store::RunStore>(c.store);
    if (c.resumeFrom.empty()) {
        const std::string name = c.runName.empty() ? fs::path(c.output).filename().string() : c.runName;
        m_state.runId = m_store->beginRun(name, store::RunKind::Grpo, toJson(c));
        m_store->recordRewardConfig(m_state.runId, 1, reward::toJson(m_reward->config()));
    } else {
        m_store->discardAfter(m_state.runId, m_state.step);
        m_sink.log("resuming run " + std::to_string(m_state.runId) + " after step " + std::to_string(m_state.step));
    }
}

std::vector<Sample> GrpoTrainer::sampleGroups(int stepIndex, int round, std::vector<size_t> items)
{
    std::vector<std::vector<int32_t>> prompts;
    for (size_t i : items)
        prompts.push_back(m_train[i].promptIds);
    model::SamplingOptions so = m_sampling;
    so.seed = streamSeed(c.seed, kSampling, static_cast<uint64_t>(stepIndex) * 64 + static_cast<uint64_t>(round));
    m_lm->internals().module->eval();
    const model::Generation g = m_lm->generate(prompts, c.groupSize, so);
    std::vector<Sample> out(g.tokens.size());
    for (size_t r = 0; r < out.size(); ++r) {
        Sample &s = out[r];
        s.item = items[r / static_cast<size_t>(c.groupSize)];
        s.tokens = g.tokens[r];
        s.samplingLogProbs = g.logProbs[r];
        s.truncated = g.truncated[r];
        std::vector<int32_t> text = s.tokens;
        if (!text.empty() && !s.truncated)
            text.pop_back();
        s.completion = m_tok->decode(text, /*skipSpecial=*/true);
        m_tokensThisRun += static_cast<double>(m_train[s.item].promptIds.size() + s.tokens.size());
    }
    return out;
}

void GrpoTrainer::scoreSamples(std::vector<Sample> &samples) const
{
    for (Sample &s : samples) {
        const reward::ExtractionAnswer answer(s.completion, m_thinking);
        s.answer = answer.answer();
        s.reward = m_reward->score(*m_train[s.item].prepared, answer, s.components);
    }
    if (c.overlongPenalty) {
        std::vector<double> lengths;
        for (const Sample &s : samples)
            lengths.push_back(static_cast<double>(s.tokens.size()));
        const torch::Tensor p = overlongPenalty(torch::tensor(lengths, torch::kFloat64), c.maxNewTokens, c.overlongCache);
        for (size_t i = 0; i < samples.size(); ++i) {
            samples[i].overlong = p[static_cast<int64_t>(i)].item<double>();
            samples[i].reward += samples[i].overlong;
        }
    }
}

PolicyBatch GrpoTrainer::policyBatch(const std::vector<const Sample *> &rows, const std::vector<double> &advantages) const
{
    PolicyBatch b;
    for (size_t r = 0; r < rows.size(); ++r) {
        if (r % static_cast<size_t>(c.groupSize) == 0)
            b.groupPrompts.push_back(m_train[rows[r]->item].promptIds);
        b.completions.push_back(rows[r]->tokens);
        if (c.maskTruncated)
            b.masked.push_back(rows[r]->truncated);
    }
    b.advantages = advantages;
    return b;
}

PolicyStepOptions GrpoTrainer::policyOptions() const
{
    PolicyStepOptions o;
    o.loss.lossType = m_lossType;
    o.loss.epsLow = c.epsLow;
    o.loss.epsHigh = c.epsHigh;
    o.loss.beta = c.beta;
    o.loss.maxCompletionLength = c.maxNewTokens;
    o.groupSize = c.groupSize;
    o.microRows = microRows();
    o.padToken = m_pad;
    o.temperature = c.temperature;
    o.bf16 = m_precision.bf16;
    return o;
}

std::vector<std::pair<std::string, double>> GrpoTrainer::evaluate(int stepIndex)
{
    const auto t0 = Clock::now();
    model::SamplingOptions so = m_sampling;
    so.temperature = 0.0;
    so.maxNewTokens = c.evalMaxNewTokens > 0 ? c.evalMaxNewTokens : c.maxNewTokens;
    m_lm->internals().module->eval();
    eval::ExtractionScorer scorer;
    std::vector<store::EvalPrediction> predictions;
    std::vector<double> rewards;
    double outputTokens = 0.0;
    std::vector<double> components;
    for (size_t from = 0; from < m_eval.size(); from += static_cast<size_t>(c.evalBatch)) {
        const size_t to = std::min(m_eval.size(), from + static_cast<size_t>(c.evalBatch));
        std::vector<std::vector<int32_t>> prompts;
        for (size_t i = from; i < to; ++i)
            prompts.push_back(m_eval[i].promptIds);
        const model::Generation g = m_lm->generate(prompts, 1, so);
        for (size_t i = from; i < to; ++i) {
            std::vector<int32_t> ids = g.tokens[i - from];
            outputTokens += static_cast<double>(ids.size());
            if (!ids.empty() && !g.truncated[i - from])
                ids.pop_back();
            const reward::ExtractionAnswer answer(m_tok->decode(ids, true), m_thinking);
            scorer.add(answer.answer(), m_eval[i].record.gold);
            const double total = m_reward->score(*m_eval[i].prepared, answer, components);
            rewards.push_back(total);
            store::EvalPrediction p;
            p.exampleId = m_eval[i].record.id;
            p.prediction = answer.completion();
            p.gold = m_eval[i].record.gold;
            eval::ExtractionScorer one; // right: the gold, or 不明 for 不明
            one.add(answer.answer(), p.gold);
            const eval::ExtractionMetrics om = one.result();
            p.correct = om.nTp == 1 || (om.nExist == 0 && om.nOutput == 0);
            p.rewardsJson = rewardsJson(*m_reward, components);
            predictions.push_back(std::move(p));
        }
    }
    m_store->writeEvalPredictions(m_state.runId, stepIndex, predictions);
    const eval::ExtractionMetrics m = scorer.result();
    const double n = static_cast<double>(std::max<size_t>(1, m_eval.size()));
    m_timings.eval += since(t0);
    return {{"eval/precision", m.precision},
            {"eval/recall", m.recall},
            {"eval/f1", m.f1},
            {"eval/reward", meanOf(rewards)},
            {"eval/mean_output_tokens", outputTokens / n},
            {"eval/seconds_per_sample", since(t0) / n}};
}

void GrpoTrainer::saveCheckpoint(int stepIndex)
{
    const auto t0 = Clock::now();
    const fs::path dir = fs::path(c.output) / ("checkpoint-" + std::to_string(stepIndex));
    const fs::path tmp = fs::path(c.output) / ("checkpoint-" + std::to_string(stepIndex) + ".part");
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    if (c.lora) {
        m_lm->saveAdapter(tmp.string());
    } else {
        m_lm->save(tmp.string());
        for (const char *f : {"tokenizer.json", "tokenizer.model", "tokenizer_config.json", "special_tokens_map.json"})
            if (fs::exists(fs::path(c.model) / f))
                fs::copy_file(fs::path(c.model) / f, tmp / f, fs::copy_options::overwrite_existing);
    }
    torch::save(*m_optimizer, (tmp / "optimizer.pt").string());
    nlohmann::ordered_json j;
    j["step"] = stepIndex;
    j["cursor"] = m_state.cursor;
    j["run_id"] = m_state.runId;
    j["seed"] = c.seed;
    j["num_tokens"] = m_state.numTokens;
    j["reward_config"] = reward::toJson(m_reward->config());
    j["note"] = "every random draw of step s is seeded by (seed, s); cursor = prompts consumed";
    std::ofstream(tmp / "trainer_state.json") << j.dump(2) << '\n';
    fs::remove_all(dir);
    fs::rename(tmp, dir);
    m_store->addCheckpoint(m_state.runId, stepIndex, fs::absolute(dir).string());
    m_timings.checkpoint += since(t0);
}

void GrpoTrainer::step(int stepIndex, std::vector<std::pair<std::string, double>> &metrics,
                      std::vector<store::Rollout> &rollouts, std::vector<store::Prompt> &prompts)
{
    const int G = c.groupSize;
    // ---- sample (and, with dynamic sampling, sample more until B groups teach something)
    std::vector<Sample> samples;
    std::vector<size_t> trainedGroups; // indices into the groups of `samples`
    int rounds = 0;
    for (;;) {
        std::vector<size_t> items;
        for (int b = 0; b < c.promptsPerStep; ++b)
            items.push_back(m_order->at(m_state.cursor++));
        auto t = Clock::now();
        std::vector<Sample> more = sampleGroups(stepIndex, rounds, items);
        m_timings.generate += since(t);
        t = Clock::now();
        scoreSamples(more);
        m_timings.reward += since(t);
        const size_t firstGroup = samples.size() / static_cast<size_t>(G);
        samples.insert(samples.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
        ++rounds;
        if (!c.dynamicSampling) {
            trainedGroups.clear();
            for (size_t g = 0; g < samples.size() / static_cast<size_t>(G); ++g)
                trainedGroups.push_back(g);
            break;
        }
        std::vector<double> r;
        for (size_t i = firstGroup * G; i < samples.size(); ++i)
            r.push_back(samples[i].reward);
        const GroupSelection sel = informativeGroups(torch::tensor(r, torch::kFloat64), G);
        for (int64_t g : sel.keptGroups)
            if (static_cast<int>(trainedGroups.size()) < c.promptsPerStep)
                trainedGroups.push_back(firstGroup + static_cast<size_t>(g));
        if (static_cast<int>(trainedGroups.size()) >= c.promptsPerStep || rounds >= c.maxSamplingRounds)
            break;
    }
    const size_t groups = samples.size() / static_cast<size_t>(G);

    // ---- advantages over the groups trained on
    std::vector<const Sample *> rows;
    std::vector<double> trainedRewards;
    for (size_t g : trainedGroups)
        for (int j = 0; j < G; ++j) {
            rows.push_back(&samples[g * G + static_cast<size_t>(j)]);
            trainedRewards.push_back(rows.back()->reward);
        }
    std::vector<double> rowAdvantage(rows.size(), 0.0);
    if (!rows.empty()) {
        const GroupAdvantages adv = groupAdvantages(torch::tensor(trainedRewards, torch::kFloat64), G, m_scale);
        for (size_t i = 0; i < rows.size(); ++i)
            rowAdvantage[i] = adv.advantages[static_cast<int64_t>(i)].item<double>();
    }
    const int64_t R = static_cast<int64_t>(rows.size());
    int64_t width = 1;
    for (const Sample *s : rows)
        width = std::max<int64_t>(width, static_cast<int64_t>(s->tokens.size()));
    PolicyBatch batch = policyBatch(rows, rowAdvantage);
    PolicyStepOptions po = policyOptions();
    model::CausalLmInternals &d = m_lm->internals();

    // ---- old (μ > 1) and reference (β > 0) log-probs, without gradients
    auto t = Clock::now();
    if (R > 0 && c.iterations > 1) {
        d.module->eval();
        batch.oldLogProbs = noGradLogProbs(d, batch, po, width);
    }
    if (R > 0 && c.beta > 0.0) {
        if (m_ref) {
            m_ref->internals().module->eval();
            batch.refLogProbs = noGradLogProbs(m_ref->internals(), batch, po, width);
        } else {
            d.module->eval();
            m_lm->setAdaptersEnabled(false);
            batch.refLogProbs = noGradLogProbs(d, batch, po, width);
            m_lm->setAdaptersEnabled(true);
        }
    }
    m_timings.logprobs += since(t);

    // ---- μ updates
    std::vector<std::vector<float>> newLogProbs(rows.size()), refLogProbs(rows.size()), entropies(rows.size());
    double policyLoss = 0.0, gradNorm = 0.0, lr = 0.0;
    double clipLow = 0.0, clipHigh = 0.0, clipRegion = 0.0, klSum = 0.0, entropySum = 0.0, tokenCount = 0.0;
    // A row's first `len` values of a [rows, T] tensor, as floats.
    auto rowValues = [](const torch::Tensor &cpu, int64_t r, int64_t len) {
        const torch::Tensor row = cpu[r].narrow(0, 0, len).to(torch::kFloat32).contiguous();
        return std::vector<float>(row.data_ptr<float>(), row.data_ptr<float>() + len);
    };
    for (int it = 0; R > 0 && it < c.iterations; ++it) {
        torch::manual_seed(static_cast<int64_t>(streamSeed(c.seed, kDropout, static_cast<uint64_t>(stepIndex) * 64 + it) >> 1));
        d.module->train();
        m_optimizer->zero_grad();
        t = Clock::now();
        po.withEntropy = it == 0; // the first update's forward pass gives the entropies
        po.poisonLoss = c.debugNanStep == stepIndex;
        const double iterationLoss = policyLossBackward(d, batch, po, [&](const MicroBatch &mb) {
            if (it != 0)
                return;
            const GrpoLossResult &res = mb.loss;
            const double n = static_cast<double>(res.activeTokens);
            clipLow += res.clipRatioLow * n;
            clipHigh += res.clipRatioHigh * n;
            clipRegion += res.clipRatioRegion * n;
            klSum += res.kl.value_or(0.0) * n;
            entropySum += res.entropy.value_or(0.0) * n;
            tokenCount += n;
            const torch::Tensor lpCpu = mb.rows.logProbs.detach().to(torch::kCPU);
            const torch::Tensor entCpu = mb.rows.entropy.to(torch::kCPU);
            const torch::Tensor refCpu = batch.refLogProbs.defined() ? batch.refLogProbs.to(torch::kCPU) : torch::Tensor();
            for (size_t r = mb.from; r < mb.to; ++r) {
                const auto len = static_cast<int64_t>(rows[r]->tokens.size());
                const auto local = static_cast<int64_t>(r - mb.from);
                newLogProbs[r] = rowValues(lpCpu, local, len);
                entropies[r] = rowValues(entCpu, local, len);
                if (refCpu.defined())
                    refLogProbs[r] = rowValues(refCpu, static_cast<int64_t>(r), len);
            }
        });
        m_timings.backward += since(t);
        t = Clock::now();
        gradNorm = torch::nn::utils::clip_grad_norm_(m_params, c.maxGradNorm > 0.0 ? c.maxGradNorm : 1e30);
        if (!std::isfinite(gradNorm))
            throw NonFiniteLoss("the gradient norm is not finite");
        lr = scheduledLearningRate(c.learningRate, c.schedule, c.warmupRatio, stepIndex - 1, c.maxSteps);
        setLearningRate(*m_optimizer, lr);
        m_optimizer->step();
        m_timings.optimizer += since(t);
        if (it == 0)
            policyLoss = iterationLoss;
    }

    // ---- metrics, TRL's names (over every group sampled this step)
    t = Clock::now();
    std::vector<double> all, lengths;
    std::vector<std::vector<double>> perComponent(m_reward->size());
    double clipped = 0.0, zeroStdGroups = 0.0;
    std::vector<double> groupStds;
    for (size_t g = 0; g < groups; ++g) {
        std::vector<double> gr;
        for (int j = 0; j < G; ++j) {
            const Sample &s = samples[g * G + static_cast<size_t>(j)];
            gr.push_back(s.reward);
            all.push_back(s.reward);
            lengths.push_back(static_cast<double>(s.tokens.size()));
            clipped += s.truncated ? 1.0 : 0.0;
            for (size_t k = 0; k < m_reward->size(); ++k)
                perComponent[k].push_back(s.components[k]);
        }
        groupStds.push_back(stdOf(gr));
        zeroStdGroups += groupStds.back() <= kZeroStdTolerance ? 1.0 : 0.0;
    }
    metrics.emplace_back("reward", meanOf(all));
    metrics.emplace_back("reward_std", meanOf(groupStds));
    for (size_t k = 0; k < m_reward->size(); ++k) {
        metrics.emplace_back("rewards/" + m_reward->componentName(k) + "/mean", meanOf(perComponent[k]));
        metrics.emplace_back("rewards/" + m_reward->componentName(k) + "/std", stdOf(perComponent[k]));
    }
    metrics.emplace_back("frac_reward_zero_std", zeroStdGroups / static_cast<double>(std::max<size_t>(1, groups)));
    const double tc = std::max(1.0, tokenCount);
    if (c.beta > 0.0)
        metrics.emplace_back("kl", klSum / tc);
    metrics.emplace_back("entropy", entropySum / tc);
    metrics.emplace_back("clip_ratio/low_mean", clipLow / tc);
    metrics.emplace_back("clip_ratio/high_mean", clipHigh / tc);
    metrics.emplace_back("clip_ratio/region_mean", clipRegion / tc);
    metrics.emplace_back("completions/mean_length", meanOf(lengths));
    metrics.emplace_back("completions/min_length", *std::min_element(lengths.begin(), lengths.end()));
    metrics.emplace_back("completions/max_length", *std::max_element(lengths.begin(), lengths.end()));
    metrics.emplace_back("completions/clipped_ratio", clipped / static_cast<double>(lengths.size()));
    // Collapse: how many different answers a group gives, and the step's most common wrong
    // answer's share (collapsemetrics.h).
    {
        std::vector<std::string> answers;
        std::vector<double> rewards;
        answers.reserve(samples.size());
        rewards.reserve(samples.size());
        for (const auto &s : samples) {
            answers.push_back(s.answer);
            rewards.push_back(s.reward);
        }
        const CollapseMetrics cm = collapseMetrics(answers, rewards, G);
        metrics.emplace_back("completions/distinct_answers_per_group", cm.distinctAnswersPerGroup);
        metrics.emplace_back("completions/top_answer_share", cm.topAnswerShare);
    }
    metrics.emplace_back("policy_loss", policyLoss);
    metrics.emplace_back("grad_norm", gradNorm);
    metrics.emplace_back("learning_rate", lr);
    if (c.overlongPenalty) {
        std::vector<double> pen;
        for (const Sample &s : samples)
            pen.push_back(s.overlong);
        metrics.emplace_back("rewards/overlong/mean", meanOf(pen));
    }
    if (c.dynamicSampling) {
        metrics.emplace_back("dynamic_sampling/rounds", rounds);
        metrics.emplace_back("dynamic_sampling/groups_trained", static_cast<double>(trainedGroups.size()));
    }

    // ---- the rows for the store: every sampled group, trained or dropped
    std::vector<int> rowOf(samples.size(), -1);
    for (size_t i = 0; i < rows.size(); ++i)
        rowOf[static_cast<size_t>(rows[i] - samples.data())] = static_cast<int>(i);
    for (size_t i = 0; i < samples.size(); ++i) {
        const Sample &s = samples[i];
        const Item &item = m_train[s.item];
        if (m_storedPrompts.insert(item.record.id).second) {
            store::Prompt p;
            p.promptId = item.record.id;
            p.text = item.promptText;
            p.gold = item.record.gold;
            nlohmann::ordered_json meta;
            meta["sender_email"] = item.record.senderEmail;
            meta["email_text"] = item.record.emailText;
            p.metaJson = meta.dump();
            prompts.push_back(std::move(p));
        }
        store::Rollout r;
        r.promptId = item.record.id;
        r.groupIndex = static_cast<int>(i / static_cast<size_t>(G));
        r.sampleIndex = static_cast<int>(i % static_cast<size_t>(G));
        r.completion = s.completion;
        r.answer = s.answer;
        r.tokenIds = s.tokens;
        r.logprobsOld = s.samplingLogProbs;
        r.reward = s.reward;
        r.rewardsJson = rewardsJson(*m_reward, s.components, c.overlongPenalty ? &s.overlong : nullptr);
        r.completionTokens = static_cast<int>(s.tokens.size());
        r.truncated = s.truncated;
        if (rowOf[i] >= 0) {
            const auto k = static_cast<size_t>(rowOf[i]);
            if (batch.oldLogProbs.defined())
                r.logprobsOld = rowValues(batch.oldLogProbs.to(torch::kCPU), static_cast<int64_t>(k),
                                          static_cast<int64_t>(s.tokens.size()));
            r.logprobsNew = std::move(newLogProbs[k]);
            r.logprobsRef = std::move(refLogProbs[k]);
            r.entropies = std::move(entropies[k]);
            r.advantage = rowAdvantage[k];
        }
        rollouts.push_back(std::move(r));
    }
    m_timings.store += since(t);
}

engine::JobOutcome GrpoTrainer::run(GrpoRunResult *result)
{
    setUp();
    engine::JobOutcome outcome;
    outcome.runId = m_state.runId;
    outcome.lastStep = m_state.step;
    m_sink.started(m_state.runId, c.maxSteps);
    const auto start = Clock::now();
    int stepsThisRun = 0;
    auto report = [&](int stepIndex, std::vector<std::pair<std::string, double>> metrics, int written) {
        engine::StepReport rep;
        rep.runId = m_state.runId;
        rep.step = stepIndex;
        rep.totalSteps = c.maxSteps;
        rep.metrics = std::move(metrics);
        rep.rolloutsWritten = written;
        rep.elapsedSeconds = since(start);
        rep.tokensPerSecond = m_tokensThisRun / std::max(1e-9, rep.elapsedSeconds);
        rep.etaSeconds = stepsThisRun > 0 ? rep.elapsedSeconds / stepsThisRun * (c.maxSteps - stepIndex) : 0.0;
        m_sink.step(rep);
    };
    try {
        if (c.evalEvery > 0 && !m_eval.empty() && m_state.step == 0) {
            auto metrics = evaluate(0);
            m_store->writeStep(m_state.runId, 0, toStored(metrics), {});
            report(0, metrics, 0);
        }
        for (int s = m_state.step + 1; s <= c.maxSteps; ++s) {
            if (!m_control.waitAtBoundary([&] { m_sink.paused(s - 1); })) {
                outcome.status = engine::JobStatus::Stopped;
                outcome.message = "stopped by the user after step " + std::to_string(s - 1);
                break;
            }
            if (auto w = m_control.takeRewardWeights()) {
                try {
                    m_reward->setWeights(*w);
                    m_store->recordRewardConfig(m_state.runId, s, reward::toJson(m_reward->config()));
                    m_sink.weightsChanged(s, *w);
                } catch (const std::invalid_argument &e) {
                    m_sink.log(std::string("reward weights not changed: ") + e.what());
                }
            }
            const auto stepStart = Clock::now();
            std::vector<std::pair<std::string, double>> metrics;
            std::vector<store::Rollout> rollouts;
            std::vector<store::Prompt> prompts;
            const double tokensBefore = m_tokensThisRun;
            try {
                step(s, metrics, rollouts, prompts);
            } catch (const NonFiniteLoss &e) {
                throw std::runtime_error("GRPO step " + std::to_string(s) + ": " + e.what() +
                                         "; training stopped, steps 1–" + std::to_string(s - 1) + " are kept");
            } catch (const c10::Error &e) {
                throw std::runtime_error("GRPO step " + std::to_string(s) + ": " + e.what_without_backtrace());
            }
            m_state.numTokens += m_tokensThisRun - tokensBefore;
            metrics.emplace_back("num_tokens", m_state.numTokens);
            if (c.evalEvery > 0 && !m_eval.empty() && (s % c.evalEvery == 0 || s == c.maxSteps)) {
                auto ev = evaluate(s);
                metrics.insert(metrics.end(), ev.begin(), ev.end());
            }
            metrics.emplace_back("step_time", since(stepStart));
            const auto t = Clock::now();
            m_store->writeStep(m_state.runId, s, toStored(metrics), rollouts, prompts);
            m_timings.store += since(t);
            m_state.step = s;
            ++stepsThisRun;
            ++m_timings.steps;
            outcome.lastStep = s;
            if (c.checkpointEvery > 0 && (s % c.checkpointEvery == 0 || s == c.maxSteps))
                saveCheckpoint(s);
            report(s, metrics, static_cast<int>(rollouts.size()));
        }
        if (outcome.status == engine::JobStatus::Stopped && c.checkpointEvery > 0 && m_state.step > 0 &&
            m_state.step % c.checkpointEvery != 0)
            saveCheckpoint(m_state.step); // so that a stopped run can be resumed where it stopped
        if (outcome.status == engine::JobStatus::Finished) {
            const fs::path final = fs::path(c.output) / "final";
            fs::create_directories(final);
            if (c.lora)
                m_lm->saveAdapter(final.string());
            else
                m_lm->save(final.string());
        }
        m_store->finishRun(m_state.runId,
                           outcome.status == engine::JobStatus::Finished ? store::RunStatus::Finished
                                                                          : store::RunStatus::Stopped,
                           outcome.message);
    } catch (const std::exception &e) {
        outcome.status = engine::JobStatus::Failed;
        outcome.message = e.what();
        m_sink.error(outcome.message);
        try {
            m_store->finishRun(m_state.runId, store::RunStatus::Failed, outcome.message);
        } catch (const std::exception &) {
        }
    }
    if (result) {
        result->runId = m_state.runId;
        result->lastStep = m_state.step;
        result->timings = m_timings;
    }
    return outcome;
}

} // namespace

GrpoConfig parseGrpoConfig(std::string_view json, const std::string &source)
{
    const data::ConfigReader r(
        json, source,
        {"model", "init_adapter", "train_data", "eval_data", "reward_config", "store", "output", "run_name",
         "num_generations", "prompts_per_step", "temperature", "top_p", "top_k", "max_completion_length", "lora",
         "lora_r", "lora_alpha", "lora_dropout", "lora_target_modules", "learning_rate", "weight_decay",
         "max_grad_norm", "schedule", "warmup_ratio", "max_steps", "micro_batch", "loss_type", "scale_rewards",
         "epsilon", "epsilon_high", "beta", "num_iterations", "mask_truncated_completions", "overlong_penalty",
         "overlong_cache", "dynamic_sampling", "max_sampling_rounds", "eval_every", "eval_limit", "eval_batch",
         "eval_max_completion_length", "checkpoint_every", "seed", "resume_from", "dtype", "precision", "device",
         "threads", "debug_nan_step"});
    GrpoConfig c;
    c.model = r.path("model", true);
    c.initAdapter = r.path("init_adapter", false);
    c.trainData = r.path("train_data", true);
    c.evalData = r.path("eval_data", false);
    c.rewardConfig = r.path("reward_config", true);
    c.store = r.path("store", true);
    c.output = r.path("output", true);
    c.runName = r.text("run_name", "");
    c.groupSize = r.integer("num_generations", c.groupSize, 2, 1024);
    c.promptsPerStep = r.integer("prompts_per_step", c.promptsPerStep, 1, 4096);
    c.temperature = r.number("temperature", c.temperature, 0.01, 100);
    c.topP = r.number("top_p", c.topP, 0.0001, 1);
    c.topK = r.integer("top_k", c.topK, 0, 1 << 30);
    c.maxNewTokens = r.integer("max_completion_length", c.maxNewTokens, 1, 1 << 20);
    c.lora = r.boolean("lora", c.lora);
    c.loraOptions = readLoraOptions(r, c.loraOptions);
    c.learningRate = r.number("learning_rate", c.learningRate, 0, 10);
    c.weightDecay = r.number("weight_decay", c.weightDecay, 0, 10);
    c.maxGradNorm = r.number("max_grad_norm", c.maxGradNorm, 0, 1e9);
    c.schedule = r.choice("schedule", c.schedule, {"constant_with_warmup", "cosine"});
    c.warmupRatio = r.number("warmup_ratio", c.warmupRatio, 0, 1);
    c.maxSteps = r.integer("max_steps", c.maxSteps, 1, 100000000);
    c.microBatch = r.integer("micro_batch", c.microBatch, 1, 65536);
    c.lossType = r.choice("loss_type", c.lossType, {"grpo", "bnpo", "dr_grpo", "dapo"});
    c.scaleRewards = r.choice("scale_rewards", c.scaleRewards, {"group", "batch", "none"});
    c.epsLow = r.number("epsilon", c.epsLow, 0, 0.999);
    c.epsHigh = r.number("epsilon_high", c.epsLow, 0, 100);
    c.beta = r.number("beta", c.beta, 0, 1000);
    c.iterations = r.integer("num_iterations", c.iterations, 1, 64);
    c.maskTruncated = r.boolean("mask_truncated_completions", c.maskTruncated);
    c.overlongPenalty = r.boolean("overlong_penalty", c.overlongPenalty);
    c.overlongCache = r.integer("overlong_cache", c.overlongCache, 0, 1 << 20);
    if (c.overlongCache > c.maxNewTokens)
        r.fail("overlong_cache", "must not exceed max_completion_length (" + std::to_string(c.maxNewTokens) + ")");
    c.dynamicSampling = r.boolean("dynamic_sampling", c.dynamicSampling);
    c.maxSamplingRounds = r.integer("max_sampling_rounds", c.maxSamplingRounds, 1, 1000);
    c.evalEvery = r.integer("eval_every", c.evalEvery, 0, 100000000);
    c.evalLimit = r.integer("eval_limit", c.evalLimit, 0, 100000000);
    c.evalBatch = r.integer("eval_batch", c.evalBatch, 1, 65536);
    c.evalMaxNewTokens = r.integer("eval_max_completion_length", c.evalMaxNewTokens, 0, 1 << 20);
    c.checkpointEvery = r.integer("checkpoint_every", c.checkpointEvery, 0, 100000000);
    c.seed = static_cast<uint64_t>(r.number("seed", 0, 0, 9.0e15));
    c.resumeFrom = r.path("resume_from", false);
    c.dtype = r.choice("dtype", c.dtype, {"float32", "bfloat16", "auto"});
    c.precision = r.choice("precision", c.precision, {"auto", "bf16", "fp32"});
    c.device = r.choice("device", c.device, {"auto", "cpu", "cuda"});
    c.threads = r.integer("threads", 0, 0, 1024);
    c.debugNanStep = r.integer("debug_nan_step", 0, 0, 100000000);
    if (c.evalEvery > 0 && c.evalData.empty())
        r.fail("eval_every", "needs eval_data");
    return c;
}

GrpoConfig loadGrpoConfig(const std::string &path)
{
    return parseGrpoConfig(data::readTextFile(path), path);
}

std::string toJson(const GrpoConfig &c)
{
    nlohmann::ordered_json j;
    j["model"] = c.model;
    if (!c.initAdapter.empty())
        j["init_adapter"] = c.initAdapter;
    j["train_data"] = c.trainData;
    if (!c.evalData.empty())
        j["eval_data"] = c.evalData;
    j["reward_config"] = c.rewardConfig;
    j["store"] = c.store;
    j["output"] = c.output;
    if (!c.runName.empty())
        j["run_name"] = c.runName;
    j["num_generations"] = c.groupSize;
    j["prompts_per_step"] = c.promptsPerStep;
    j["temperature"] = c.temperature;
    j["top_p"] = c.topP;
    j["top_k"] = c.topK;
    j["max_completion_length"] = c.maxNewTokens;
    j["lora"] = c.lora;
    j["lora_r"] = c.loraOptions.rank;
    j["lora_alpha"] = c.loraOptions.alpha;
    j["lora_dropout"] = c.loraOptions.dropout;
    j["lora_target_modules"] = c.loraOptions.targetModules;
    j["learning_rate"] = c.learningRate;
    j["weight_decay"] = c.weightDecay;
    j["max_grad_norm"] = c.maxGradNorm;
    j["schedule"] = c.schedule;
    j["warmup_ratio"] = c.warmupRatio;
    j["max_steps"] = c.maxSteps;
    j["micro_batch"] = c.microBatch;
    j["loss_type"] = c.lossType;
    j["scale_rewards"] = c.scaleRewards;
    j["epsilon"] = c.epsLow;
    j["epsilon_high"] = c.epsHigh;
    j["beta"] = c.beta;
    j["num_iterations"] = c.iterations;
    j["mask_truncated_completions"] = c.maskTruncated;
    j["overlong_penalty"] = c.overlongPenalty;
    j["overlong_cache"] = c.overlongCache;
    j["dynamic_sampling"] = c.dynamicSampling;
    j["max_sampling_rounds"] = c.maxSamplingRounds;
    j["eval_every"] = c.evalEvery;
    j["eval_limit"] = c.evalLimit;
    j["eval_batch"] = c.evalBatch;
    j["eval_max_completion_length"] = c.evalMaxNewTokens;
    j["checkpoint_every"] = c.checkpointEvery;
    j["seed"] = c.seed;
    j["dtype"] = c.dtype;
    j["precision"] = c.precision;
    j["device"] = c.device;
    j["threads"] = c.threads;
    return j.dump(2);
}

engine::JobOutcome runGrpo(const GrpoConfig &config, engine::JobControl &control, engine::EventSink &sink,
                           GrpoRunResult *result)
{
    GrpoTrainer trainer(config, control, sink);
    return trainer.run(result);
}

} // namespace rwb::train
