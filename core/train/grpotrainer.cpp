#include "train/grpotrainer.h"

#include "model/workers.h"

#include "data/jsonl.h"
#include "engine/job.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "tokenizer/tokenizer.h"
#include "util/cputime.h"
#include "util/rng.h"

#include <csignal>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace rwb::train::grpo {

namespace fs = std::filesystem;

namespace {

std::vector<store::Metric> toStored(const Metrics &metrics)
{
    std::vector<store::Metric> out;
    for (const auto &[name, value] : metrics)
        out.push_back({name, value});
    return out;
}

std::vector<Item> loadItems(const task::Task &task, const std::string &path, int limit, const tokenizer::Tokenizer &tok,
                            const tokenizer::PromptFormat &format, bool thinking)
{
    task::ReadOptions ro;
    ro.limit = limit > 0 ? static_cast<size_t>(limit) : 0;
    std::vector<Item> items;
    for (task::Record &r : task.read(path, ro)) {
        Item it;
        it.promptText = task.prompt(*r.example, format, thinking);
        it.promptIds = tok.encode(it.promptText);
        it.example = std::move(r.example);
        items.push_back(std::move(it));
    }
    return items;
}

} // namespace

uint64_t streamSeed(uint64_t seed, uint64_t stream, uint64_t index)
{
    return util::Rng::forStream(seed, stream, index).next();
}

Trainer::Trainer(const GrpoConfig &c, const task::Catalog &catalog, engine::JobControl &control,
                 engine::EventSink &sink, dist::ProcessGroup *group)
    : c(c), m_catalog(catalog), m_control(control), m_sink(sink), m_group(group)
{
    if (const char *kill = std::getenv("RWB_DEBUG_KILL_AT"); kill && group) {
        // "RANK:STEP": that rank kills itself in the middle of that step (tst_grpodist).
        int r = -1, s = -1;
        if (std::sscanf(kill, "%d:%d", &r, &s) == 2 && r == rank())
            m_killAtStep = s;
    }
}

int Trainer::threads() const
{
    if (c.threads > 0 || worldSize() == 1)
        return c.threads;
    // Ranks on one machine share its cores (LOCAL_WORLD_SIZE, as torchrun and --nproc set it).
    const char *local = std::getenv("LOCAL_WORLD_SIZE");
    const int ranksHere = local ? std::max(1, std::atoi(local)) : 1;
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / ranksHere);
}

Trainer::~Trainer() = default;

void Trainer::setUp()
{
    m_lossType = *lossTypeFromString(c.lossType);
    m_scale = *scaleRewardsFromString(c.scaleRewards);
    m_none = *noneRewardsFromString(c.noneRewards);
    const reward::Registry &registry = m_catalog.rewards();
    const std::string rewardSource = rewardConfigSource(c);
    reward::RewardConfig rc = rewardConfigOf(c, registry);
    if (!c.resumeFrom.empty()) {
        m_state = readState(c.resumeFrom);
        // The weights in force at the checkpoint win over the config's.
        const std::string baseDir = rc.baseDir;
        rc = reward::parseRewardConfig(m_state.rewardConfigJson, c.resumeFrom + "/trainer_state.json", registry);
        rc.baseDir = baseDir;
    }
    m_task = &m_catalog.get(rc.task, rewardSource, "task");
    m_thinking = rc.thinking;
    m_env = m_task->environment(c.environment);
    if (m_env && !c.evalRetrievalIndex.empty() && !c.evalData.empty()) {
        task::EnvironmentOptions eval = c.environment;
        eval.index = c.evalRetrievalIndex;
        m_evalEnv = m_task->environment(eval);
    }
    m_reward = std::make_unique<reward::CompositeReward>(rc, rewardSource, registry);
    for (const reward::RewardComponent &component : rc.components)
        if (const reward::Registry::Entry *e = registry.find(component.reward); e && e->needsJudge)
            m_judged = true;

    m_tok = tokenizer::loadTokenizer(c.model);
    m_format = tokenizer::PromptFormat::forModel(c.model, *m_tok);
    m_pad = m_tok->padId().value_or(m_tok->eosId().value_or(0));
    if (!c.processRewardModel.empty() || c.processReference) {
        const std::string &source = c.environment.source;
        const task::Steps *steps = m_task->steps();
        if (!steps)
            throw data::InputException({source, 0, "prm: process rewards need a task whose completions are steps; task \"" +
                                                    std::string(m_task->name()) + "\" has none"});
        const std::string stepEnd(steps->stepEnd());
        const std::optional<int32_t> end = m_tok->tokenToId(stepEnd);
        if (!end)
            throw data::InputException({c.model, 0, "prm: the policy's tokenizer has no single token for " + stepEnd +
                                                    " (train it with --added-token \"" + stepEnd +
                                                    "\"): its steps cannot be told apart"});
        m_stepEnd = *end;
        if (!c.processReference) {
            model::ModelOptions mo;
            mo.device = c.device;
            mo.threads = threads();
            m_prm = ProcessRewardModel::load(c.processRewardModel, mo, m_catalog);
        }
    }
    m_train = loadItems(*m_task, c.trainData, 0, *m_tok, m_format, m_thinking);
    if (!c.evalData.empty())
        m_eval = loadItems(*m_task, c.evalData, c.evalLimit, *m_tok, m_format, m_thinking);
    {
        // Every example the rewards will see can be scored (a judge reward's rubric and
        // reference answer): found now, not at the step that first samples it.
        std::vector<const task::Example *> train, eval;
        for (const Item &item : m_train)
            train.push_back(item.example.get());
        for (const Item &item : m_eval)
            eval.push_back(item.example.get());
        m_reward->checkExamples(train, rewardSource + " on " + c.trainData);
        m_reward->checkExamples(eval, rewardSource + " on " + c.evalData);
    }
    m_order = std::make_unique<PromptOrder>(m_train.size(), c.seed);

    m_sampling.temperature = c.temperature;
    m_sampling.topP = c.topP;
    m_sampling.topK = c.topK;
    m_sampling.maxNewTokens = c.maxNewTokens;
    m_sampling.stopTokens = m_format.stopTokenIds(*m_tok);
    m_sampling.padToken = m_pad;
    m_sampling.vocabLimit = m_tok->vocabSize();

    loadModel();
    syncModel();
    m_sampling.workers = model::batchWorkers(c.threadSplit, m_lm->internals().device);
    if (m_sampling.workers > 1)
        m_sink.log("threads: " + std::to_string(m_sampling.workers) + " micro-batches (and blocks of prompts) side by side, " +
                   "one thread each (thread_split \"batches\")");
    if (rank() != 0)
        return; // rank 0 keeps the store and the output folder

    fs::create_directories(c.output);
    m_store = std::make_unique<store::RunStore>(c.store);
    if (c.resumeFrom.empty()) {
        const std::string name = c.runName.empty() ? fs::path(c.output).filename().string() : c.runName;
        m_state.runId = m_store->beginRun(name, store::RunKind::Grpo, toJson(c), std::string(m_task->name()));
        m_store->recordRewardConfig(m_state.runId, 1, reward::toJson(reward::withAbsolutePaths(m_reward->config())));
    } else {
        m_store->discardAfter(m_state.runId, m_state.step);
        m_sink.log("resuming run " + std::to_string(m_state.runId) + " after step " + std::to_string(m_state.step));
    }
}

void Trainer::loadModel()
{
    model::ModelOptions mo;
    mo.dtype = c.dtype;
    mo.device = c.device;
    mo.threads = threads();
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
}

engine::JobOutcome Trainer::run(GrpoRunResult *result)
{
    setUp();
    engine::JobOutcome outcome;
    outcome.runId = m_state.runId;
    outcome.lastStep = m_state.step;
    m_sink.started(m_state.runId, c.maxSteps);
    const auto start = Clock::now();
    int stepsThisRun = 0;
    auto report = [&](int stepIndex, Metrics metrics, int written) {
        engine::StepReport rep;
        rep.runId = m_state.runId;
        rep.step = stepIndex;
        rep.totalSteps = c.maxSteps;
        rep.metrics = std::move(metrics);
        rep.rolloutsWritten = written;
        rep.elapsedSeconds = secondsSince(start);
        rep.tokensPerSecond = m_tokensThisRun / std::max(1e-9, rep.elapsedSeconds);
        rep.etaSeconds = stepsThisRun > 0 ? rep.elapsedSeconds / stepsThisRun * (c.maxSteps - stepIndex) : 0.0;
        m_sink.step(rep);
    };
    try {
        if (c.evalEvery > 0 && !m_eval.empty() && m_state.step == 0) {
            auto metrics = evaluate(0); // every rank evaluates its share; rank 0 has the metrics
            if (rank() == 0) {
                m_store->writeStep(m_state.runId, 0, toStored(metrics), {});
                report(0, metrics, 0);
            }
        }
        for (int s = m_state.step + 1; s <= c.maxSteps; ++s) {
            StepCommand command = stepCommand(s); // rank 0's control decides for the group
            if (!command.go) {
                outcome.status = engine::JobStatus::Stopped;
                outcome.message = "stopped by the user after step " + std::to_string(s - 1);
                break;
            }
            if (auto &w = command.weights) {
                try {
                    m_reward->setWeights(*w);
                    if (m_store)
                        m_store->recordRewardConfig(m_state.runId, s,
                                                    reward::toJson(reward::withAbsolutePaths(m_reward->config())));
                    m_sink.weightsChanged(s, *w);
                } catch (const std::invalid_argument &e) {
                    m_sink.log(std::string("reward weights not changed: ") + e.what());
                }
            }
            const auto stepStart = Clock::now();
            const double cpuStart = util::processCpuSeconds();
            Metrics metrics;
            std::vector<store::Rollout> rollouts;
            std::vector<store::Prompt> prompts;
            const double tokensBefore = m_tokensThisRun;
            try {
                const SampledStep sampled = sample(s);
                if (s == m_killAtStep)
                    ::raise(SIGKILL);
                std::vector<double> sampledRewards;
                for (const Sample &x : sampled.samples)
                    sampledRewards.push_back(x.reward);
                if (stopsOnNone(sampledRewards, m_none, c.noneStopFraction)) {
                    // Too many grader failures: the step's rollouts are stored (the failure
                    // explorer and the rollout browser show their errors), not trained on.
                    const double frac = util::noneFraction(sampledRewards);
                    if (m_store) {
                        UpdateResult none;
                        storeRows(sampled, none, rollouts, prompts);
                        m_store->writeStep(m_state.runId, s, toStored(Metrics{{"reward_none_frac", frac}}), rollouts, prompts);
                    }
                    outcome.status = engine::JobStatus::Stopped;
                    char share[32];
                    std::snprintf(share, sizeof share, "%.0f %%", 100.0 * frac);
                    char limit[32];
                    std::snprintf(limit, sizeof limit, "%.0f %%", 100.0 * c.noneStopFraction);
                    outcome.message = "stopped at step " + std::to_string(s) + ": " + share +
                                      " of its rollouts have no reward (their grader failed; none_stop_fraction " +
                                      limit + "); the step's rollouts are stored, not trained on";
                    m_sink.log(outcome.message);
                    break;
                }
                UpdateResult updated = update(s, sampled);
                const auto t = Clock::now();
                metrics = stepMetrics(sampled, updated);
                if (m_store)
                    storeRows(sampled, updated, rollouts, prompts);
                m_timings.store += secondsSince(t);
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
            metrics.emplace_back("step_time", secondsSince(stepStart));
            m_timings.wall += metrics.back().second;
            m_timings.cpu += util::processCpuSeconds() - cpuStart;
            const auto t = Clock::now();
            if (m_store)
                m_store->writeStep(m_state.runId, s, toStored(metrics), rollouts, prompts);
            m_timings.store += secondsSince(t);
            m_state.step = s;
            ++stepsThisRun;
            ++m_timings.steps;
            outcome.lastStep = s;
            if (c.checkpointEvery > 0 && (s % c.checkpointEvery == 0 || s == c.maxSteps) && m_store)
                saveCheckpoint(s);
            report(s, metrics, static_cast<int>(rollouts.size()));
        }
        if (outcome.status == engine::JobStatus::Stopped && c.checkpointEvery > 0 && m_state.step > 0 &&
            m_state.step % c.checkpointEvery != 0 && m_store)
            saveCheckpoint(m_state.step); // so that a stopped run can be resumed where it stopped
        if (outcome.status == engine::JobStatus::Finished && m_store) {
            const fs::path final = fs::path(c.output) / "final";
            fs::create_directories(final);
            if (c.lora) {
                m_lm->saveAdapter(final.string());
            } else { // a model folder that loads on its own (rwb eval run --model …/final)
                m_lm->save(final.string());
                tokenizer::copyTokenizerFiles(c.model, final.string());
            }
        }
        if (m_store)
            m_store->finishRun(m_state.runId,
                           outcome.status == engine::JobStatus::Finished ? store::RunStatus::Finished
                                                                          : store::RunStatus::Stopped,
                           outcome.message);
    } catch (const std::exception &e) {
        outcome.status = engine::JobStatus::Failed;
        outcome.message = e.what();
        m_sink.error(outcome.message);
        try {
            if (m_store)
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

} // namespace rwb::train::grpo
