// GRPO's update: group-relative advantages over the groups trained on, the old (μ > 1) and
// reference (β > 0) log-probs without gradients, then μ clipped policy-gradient steps
// (policygradient.h, grpoloss.h; docs/grpo.md has the formulas).

#include "train/grpotrainer.h"

#include "data/jsonl.h"
#include "dist/processgroup.h"
#include "train/trainingcommon.h"
#include "tokenizer/tokenizer.h"
#include "train/processadvantages.h"

#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

namespace rwb::train::grpo {

namespace {

// ": NAME (k of n values), …" for the trainable parameters whose gradient holds a NaN or an
// infinity, the first three: where a non-finite gradient norm came from.
std::string nonFiniteGradients(model::CausalLmInternals &d)
{
    std::string out;
    int named = 0, more = 0;
    for (const auto &item : d.module->named_parameters()) {
        const torch::Tensor &g = item.value().grad();
        if (!g.defined())
            continue;
        const int64_t bad = g.isfinite().logical_not().sum().item<int64_t>();
        if (bad == 0)
            continue;
        if (named == 3) {
            ++more;
            continue;
        }
        out += std::string(named++ == 0 ? ": " : ", ") + item.key() + " (" + std::to_string(bad) + " of " +
               std::to_string(g.numel()) + " values)";
    }
    if (more > 0)
        out += " and " + std::to_string(more) + " more";
    return out;
}

} // namespace

namespace {

// A row's first `len` values of a [rows, T] tensor, as floats.
std::vector<float> rowValues(const torch::Tensor &cpu, int64_t r, int64_t len)
{
    const torch::Tensor row = cpu[r].narrow(0, 0, len).to(torch::kFloat32).contiguous();
    return std::vector<float>(row.data_ptr<float>(), row.data_ptr<float>() + len);
}

} // namespace

PolicyStepOptions Trainer::policyOptions() const
{
    PolicyStepOptions o;
    o.loss.lossType = m_lossType;
    o.loss.epsLow = c.epsLow;
    o.loss.epsHigh = c.epsHigh;
    o.loss.beta = c.beta;
    o.loss.klBiasCorrection = c.klBiasCorrection;
    o.loss.maxCompletionLength = c.maxNewTokens;
    o.groupSize = c.groupSize;
    o.microRows = microRows();
    o.padToken = m_pad;
    o.temperature = c.temperature;
    o.bf16 = m_precision.bf16;
    o.workers = m_sampling.workers; // micro-batches side by side as prompts are (thread_split)
    return o;
}

void Trainer::processAdvantages(UpdateResult &u)
{
    const auto t = Clock::now();
    const size_t R = u.rows.size();
    // Each row's steps: its tokens cut after every </subanswer>, each piece decoded (the
    // retrieval's tokens give back its text), so that the steps the PRM scores are the
    // tokens the advantages go to. A last piece that is only the stop token joins the
    // step before it.
    std::vector<std::vector<std::string>> blocks(R);
    std::vector<std::vector<int>> steps(R);
    std::vector<PrmInput> inputs(R);
    for (size_t r = 0; r < R; ++r) {
        const Sample &s = *u.rows[r];
        steps[r] = tokenSteps(s.tokens, m_stepEnd);
        const int pieces = steps[r].empty() ? 0 : steps[r].back() + 1;
        std::vector<std::vector<int32_t>> ids(static_cast<size_t>(pieces));
        for (size_t k = 0; k < s.tokens.size(); ++k)
            ids[static_cast<size_t>(steps[r][k])].push_back(s.tokens[k]);
        for (int p = 0; p < pieces; ++p)
            blocks[r].push_back(m_tok->decodeBytes(ids[static_cast<size_t>(p)], /*skipSpecial=*/true, /*atStart=*/p == 0));
        if (blocks[r].size() >= 2 && blocks[r].back().find_first_not_of(" \t\r\n") == std::string::npos) {
            blocks[r].pop_back();
            for (int &k : steps[r])
                k = std::min(k, static_cast<int>(blocks[r].size()) - 1);
        }
        if (m_prm)
            inputs[r] = m_prm->input(m_task->steps()->stepQuestion(*m_train[s.item].example), blocks[r]);
    }
    std::vector<std::vector<double>> scores(R);
    if (m_prm) {
        // Each rank scores the rows it trains (whole micro-batches of whole groups); every
        // rank then has every row's scores, and computes the same advantages from them.
        const auto [from, to] = rowShare(R);
        const std::vector<PrmInput> mine(inputs.begin() + static_cast<std::ptrdiff_t>(from),
                                         inputs.begin() + static_cast<std::ptrdiff_t>(to));
        scores = shareRowScores(mine.empty() ? std::vector<std::vector<double>>{} : m_prm->score(mine, c.processBatch),
                                from, R);
    } else {
        // prm_reference: the task's reference score of each step given the steps before
        // it (an oracle, cheap: every rank computes every row's).
        for (size_t r = 0; r < R; ++r) {
            const task::Example &example = *m_train[u.rows[r]->item].example;
            std::string history;
            for (const std::string &block : blocks[r]) {
                const std::optional<double> s = m_task->steps()->referenceStepScore(example, history, block);
                if (!s)
                    throw data::InputException({c.trainData, 0, "prm_reference: example " + example.id() +
                                                                    " has no reference to score its steps with"});
                scores[r].push_back(*s);
                history += block;
            }
        }
    }
    // Eq. 5, then eq. 7 per step position within each group.
    std::vector<std::vector<double>> stepRewards(R);
    double scoreSum = 0, rewardSum = 0, stepCount = 0;
    for (size_t r = 0; r < R; ++r)
        for (size_t k = 0; k < blocks[r].size(); ++k) {
            // The reference's scores are already in [0, 1]: no sigmoid.
            const double rs = stepReward(scores[r][k], m_task->steps()->stepWellFormed(blocks[r][k]),
                                         c.processSigmoid && !c.processReference, c.processFormatBonus);
            stepRewards[r].push_back(rs);
            scoreSum += scores[r][k];
            rewardSum += rs;
            stepCount += 1;
        }
    const std::vector<std::vector<double>> process =
        train::processAdvantages(stepRewards, c.groupSize, m_scale != ScaleRewards::None, kDefaultStdEpsilon);
    u.tokenAdvantages.resize(R);
    u.processJson.resize(R);
    double absSum = 0;
    for (size_t r = 0; r < R; ++r) {
        u.tokenAdvantages[r] = tokenAdvantages(u.advantages[r], process[r], steps[r], c.processBeta);
        for (double a : process[r])
            absSum += std::abs(a);
        u.processJson[r] = nlohmann::ordered_json{{"scores", scores[r]},
                                                  {"step_rewards", stepRewards[r]},
                                                  {"advantages", process[r]},
                                                  {"beta", c.processBeta}}
                               .dump();
    }
    u.prmScoreMean = stepCount > 0 ? scoreSum / stepCount : 0.0;
    u.stepRewardMean = stepCount > 0 ? rewardSum / stepCount : 0.0;
    u.stepsPerRow = R > 0 ? stepCount / static_cast<double>(R) : 0.0;
    u.processAdvantageAbsMean = stepCount > 0 ? absSum / stepCount : 0.0;
    m_timings.prm += secondsSince(t);
}

UpdateResult Trainer::update(int stepIndex, const SampledStep &step)
{
    const int G = c.groupSize;
    UpdateResult u;
    // ---- advantages over the groups trained on
    std::vector<double> trainedRewards;
    for (size_t g : step.trainedGroups)
        for (int j = 0; j < G; ++j) {
            u.rows.push_back(&step.samples[g * G + static_cast<size_t>(j)]);
            trainedRewards.push_back(u.rows.back()->reward);
        }
    const size_t R = u.rows.size();
    u.advantages.assign(R, 0.0);
    u.oldLogProbs.resize(R);
    u.newLogProbs.resize(R);
    u.refLogProbs.resize(R);
    u.entropies.resize(R);
    if (R == 0)
        return u;
    // None rewards (a grader failed): left out of their group's statistics, or 0 (c.noneRewards).
    const GroupAdvantages adv =
        groupAdvantages(torch::tensor(advantageRewards(std::move(trainedRewards), m_none), torch::kFloat64), G, m_scale);
    for (size_t i = 0; i < R; ++i)
        u.advantages[i] = adv.advantages[static_cast<int64_t>(i)].item<double>();

    PolicyBatch batch;
    int64_t width = 1;
    for (size_t r = 0; r < R; ++r) {
        const Sample &s = *u.rows[r];
        if (r % static_cast<size_t>(G) == 0)
            batch.groupPrompts.push_back(m_train[s.item].promptIds);
        batch.completions.push_back(s.tokens);
        if (m_env)
            batch.environment.push_back(s.fromEnvironment);
        if (c.maskTruncated)
            batch.masked.push_back(s.truncated);
        width = std::max<int64_t>(width, static_cast<int64_t>(s.tokens.size()));
    }
    batch.advantages = u.advantages;
    if (m_prm || c.processReference) {
        processAdvantages(u);
        batch.tokenAdvantages = u.tokenAdvantages;
    }
    PolicyStepOptions po = policyOptions();
    // This rank's rows (every row alone): whole micro-batches, with the batch's normalizers.
    const auto [from, to] = rowShare(R);
    po.rowsFrom = from;
    po.rowsTo = to;
    model::CausalLmInternals &d = m_lm->internals();

    // ---- old (μ > 1) and reference (β > 0) log-probs, without gradients
    auto t = Clock::now();
    if (c.iterations > 1) {
        d.module->eval();
        batch.oldLogProbs = noGradLogProbs(d, batch, po, width);
    }
    if (c.beta > 0.0) {
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
    m_timings.logprobs += secondsSince(t);

    // ---- μ updates
    for (int it = 0; it < c.iterations; ++it) {
        // Each micro-batch's dropout from (seed, step, iteration, micro-batch): the same
        // masks whichever rank computes it.
        po.dropoutSeed = streamSeed(c.seed, kDropout, static_cast<uint64_t>(stepIndex) * 64 + it);
        d.module->train();
        m_optimizer->zero_grad();
        t = Clock::now();
        po.withEntropy = it == 0; // the first update's forward pass gives the entropies
        po.poisonLoss = c.debugNanStep == stepIndex;
        double iterationLoss = 0.0;
        std::string failure; // a loss that is not finite, here or on another rank
        try {
            if (from < to)
                iterationLoss = policyLossBackward(d, batch, po, [&](const MicroBatch &mb) {
            const GrpoLossResult &res = mb.loss;
            const double n = static_cast<double>(res.activeTokens);
            u.clipLow += res.clipRatioLow * n;
            u.clipHigh += res.clipRatioHigh * n;
            u.clipRegion += res.clipRatioRegion * n;
            u.kl += res.kl.value_or(0.0) * n;
            u.updateTokens += n;
            if (res.activeTokens > 0) {
                u.clipLowMin = std::min(u.clipLowMin, res.clipRatioLowMin);
                u.clipHighMax = std::max(u.clipHighMax, res.clipRatioHighMax);
            }
            if (it != 0)
                return;
            u.entropy += res.entropy.value_or(0.0) * n;
            u.tokens += n;
            const torch::Tensor lpCpu = mb.rows.logProbs.detach().to(torch::kCPU);
            const torch::Tensor entCpu = mb.rows.entropy.to(torch::kCPU);
            const torch::Tensor refCpu = batch.refLogProbs.defined() ? batch.refLogProbs.to(torch::kCPU) : torch::Tensor();
            for (size_t r = mb.from; r < mb.to; ++r) {
                const auto len = static_cast<int64_t>(u.rows[r]->tokens.size());
                const auto local = static_cast<int64_t>(r - mb.from);
                u.newLogProbs[r] = rowValues(lpCpu, local, len);
                u.entropies[r] = rowValues(entCpu, local, len);
                if (refCpu.defined())
                    u.refLogProbs[r] = rowValues(refCpu, static_cast<int64_t>(r), len);
            }
        });
        } catch (const NonFiniteLoss &e) {
            failure = e.what();
        }
        m_timings.backward += secondsSince(t);
        t = Clock::now();
        if (worldSize() > 1) {
            // Every rank learns that one failed, and which, rather than waiting for it.
            std::vector<double> failed(static_cast<size_t>(worldSize()), 0.0);
            failed[static_cast<size_t>(rank())] = failure.empty() ? 0.0 : 1.0;
            failed = m_group->sumValues(failed);
            const std::string ofN = " of " + std::to_string(worldSize()) + ": ";
            if (!failure.empty())
                failure = "rank " + std::to_string(rank()) + ofN + failure;
            for (size_t k = 0; k < failed.size() && failure.empty(); ++k)
                if (failed[k] > 0.0)
                    failure = "rank " + std::to_string(k) + ofN + "the policy loss is not finite";
        }
        if (!failure.empty())
            throw NonFiniteLoss(failure);
        allReduceGradients();
        m_timings.communicate += secondsSince(t);
        t = Clock::now();
        u.gradNorm = torch::nn::utils::clip_grad_norm_(m_params, c.maxGradNorm > 0.0 ? c.maxGradNorm : 1e30);
        if (!std::isfinite(u.gradNorm))
            throw NonFiniteLoss("the gradient norm is not finite" + nonFiniteGradients(d));
        u.learningRate = scheduledLearningRate(c.learningRate, c.schedule, c.warmupRatio, stepIndex - 1, c.maxSteps);
        setLearningRate(*m_optimizer, u.learningRate);
        m_optimizer->step();
        m_timings.optimizer += secondsSince(t);
        if (it == 0)
            u.policyLoss = iterationLoss;
    }
    if (batch.oldLogProbs.defined()) {
        const torch::Tensor oldCpu = batch.oldLogProbs.to(torch::kCPU);
        for (size_t r = from; r < to; ++r)
            u.oldLogProbs[r] = rowValues(oldCpu, static_cast<int64_t>(r), static_cast<int64_t>(u.rows[r]->tokens.size()));
    }
    t = Clock::now();
    gatherUpdate(u, from, to);
    m_timings.communicate += secondsSince(t);
    return u;
}

} // namespace rwb::train::grpo
