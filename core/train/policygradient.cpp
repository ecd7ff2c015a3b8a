#include "train/policygradient.h"

#include "model/fusedops.h"
#include "model/workers.h"
#include "train/trainingcommon.h"
#include "util/rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

// Shape legend: B = groups, G = group size, R = B·G rows, T = the longest completion of a
// micro-batch, W = the width of stored old / reference log-probs (≥ every T).

namespace rwb::train {

RowTensors groupLogProbs(model::CausalLmInternals &d, const PolicyBatch &batch, size_t from, size_t to,
                         const PolicyStepOptions &o, bool withEntropy)
{
    const size_t G = static_cast<size_t>(o.groupSize);
    TORCH_CHECK(from % G == 0 && to % G == 0 && to > from, "groupLogProbs: rows [", from, ", ", to,
                ") are not whole groups of ", G);
    const std::vector<std::vector<int32_t>> prompts(batch.groupPrompts.begin() + static_cast<long>(from / G),
                                                    batch.groupPrompts.begin() + static_cast<long>(to / G));
    const std::vector<std::vector<int32_t>> completions(batch.completions.begin() + static_cast<long>(from),
                                                        batch.completions.begin() + static_cast<long>(to));
    RowTensors out;
    const AutocastScope autocast(o.bf16, d.device);
    out.logProbs = d.groupedCompletionLogProbs(prompts, completions, o.groupSize, o.padToken, o.temperature, &out.mask,
                                               withEntropy ? &out.entropy : nullptr);
    if (out.entropy.defined())
        out.entropy = out.entropy.detach();
    return out;
}

namespace {

// What each micro-batch of rows [first, last) costs the workers (model/workers.h): the
// positions its forward runs, each group's prompt once and every completion token.
std::vector<double> microBatchCosts(const PolicyBatch &batch, size_t first, size_t last, size_t micro, size_t G)
{
    std::vector<double> costs;
    for (size_t from = first; from < last; from += micro) {
        const size_t to = std::min(last, from + micro);
        double positions = 0.0;
        for (size_t g = from / G; g < (to + G - 1) / G; ++g)
            positions += static_cast<double>(batch.groupPrompts[g].size());
        for (size_t r = from; r < to; ++r)
            positions += static_cast<double>(batch.completions[r].size());
        costs.push_back(positions);
    }
    return costs;
}

} // namespace

torch::Tensor noGradLogProbs(model::CausalLmInternals &d, const PolicyBatch &batch, const PolicyStepOptions &o,
                             int64_t width)
{
    torch::NoGradGuard noGrad;
    const size_t rows = batch.completions.size();
    const size_t first = std::min(rows, o.rowsFrom), last = std::min(rows, o.rowsTo);
    const auto micro = static_cast<size_t>(o.microRows);
    std::vector<torch::Tensor> parts(last > first ? (last - first + micro - 1) / micro : 0);
    model::runOnWorkers(o.workers, parts.size(), [&](size_t k) {
        const size_t from = first + k * micro, to = std::min(last, from + micro);
        const torch::Tensor lp = groupLogProbs(d, batch, from, to, o, false).logProbs;
        parts[k] = torch::nn::functional::pad(lp, torch::nn::functional::PadFuncOptions({0, width - lp.size(1)}));
    }, microBatchCosts(batch, first, last, micro, static_cast<size_t>(o.groupSize)));
    if (first == 0 && last == rows && !parts.empty())
        return torch::cat(parts, 0);
    // A share of the rows: the others stay 0 (another process computes them).
    const torch::TensorOptions options = parts.empty() ? torch::TensorOptions().dtype(torch::kFloat32).device(d.device)
                                                       : parts[0].options();
    torch::Tensor out = torch::zeros({static_cast<int64_t>(rows), width}, options);
    if (!parts.empty())
        out.slice(0, static_cast<int64_t>(first), static_cast<int64_t>(last)).copy_(torch::cat(parts, 0));
    return out;
}

double policyLossBackward(model::CausalLmInternals &d, const PolicyBatch &batch, const PolicyStepOptions &o,
                          const std::function<void(const MicroBatch &)> &each)
{
    const int64_t R = static_cast<int64_t>(batch.completions.size());
    TORCH_CHECK(R > 0 && o.groupSize > 0 && R % o.groupSize == 0 &&
                    static_cast<int64_t>(batch.groupPrompts.size()) * o.groupSize == R &&
                    static_cast<int64_t>(batch.advantages.size()) == R,
                "policyLossBackward: ", R, " rows, ", batch.groupPrompts.size(), " prompts × G ", o.groupSize, ", ",
                batch.advantages.size(), " advantages");
    TORCH_CHECK(o.microRows >= o.groupSize && o.microRows % o.groupSize == 0,
                "policyLossBackward: micro-batches of ", o.microRows, " rows are not whole groups of ", o.groupSize);
    TORCH_CHECK(batch.environment.empty() || static_cast<int64_t>(batch.environment.size()) == R,
                "policyLossBackward: ", batch.environment.size(), " environment masks for ", R, " rows");
    TORCH_CHECK(batch.tokenAdvantages.empty() || static_cast<int64_t>(batch.tokenAdvantages.size()) == R,
                "policyLossBackward: ", batch.tokenAdvantages.size(), " rows of token advantages for ", R, " rows");
    const auto isMasked = [&](size_t r) { return !batch.masked.empty() && batch.masked[r]; };
    const auto environmentTokens = [&](size_t r) {
        if (batch.environment.empty())
            return 0.0;
        const std::vector<uint8_t> &e = batch.environment[r];
        TORCH_CHECK(e.empty() || e.size() == batch.completions[r].size(), "policyLossBackward: row ", r, " has ",
                    batch.completions[r].size(), " tokens but ", e.size(), " environment marks");
        return static_cast<double>(std::count(e.begin(), e.end(), uint8_t{1}));
    };
    double activeTokens = 0.0;
    for (size_t r = 0; r < batch.completions.size(); ++r)
        if (!isMasked(r))
            activeTokens += static_cast<double>(batch.completions[r].size()) - environmentTokens(r);
    GrpoLossOptions lo = o.loss;
    lo.dapoGlobalTokens = std::max(1.0, activeTokens);
    const int64_t micro = (R + o.microRows - 1) / o.microRows;
    const int64_t first = std::min<int64_t>(R, static_cast<int64_t>(std::min<size_t>(o.rowsFrom, R)));
    const int64_t last = std::min<int64_t>(R, static_cast<int64_t>(std::min<size_t>(o.rowsTo, R)));
    TORCH_CHECK(first % o.microRows == 0 && (last % o.microRows == 0 || last == R),
                "policyLossBackward: rows [", first, ", ", last, ") are not whole micro-batches of ", o.microRows);

    // Micro-batch k: its rows, log-probs, loss (still to differentiate) and metrics.
    const auto compute = [&](int64_t from) {
        const int64_t to = std::min(last, from + static_cast<int64_t>(o.microRows));
        MicroBatch mb;
        mb.from = static_cast<size_t>(from);
        mb.to = static_cast<size_t>(to);
        std::optional<model::DropoutGeneratorScope> dropout;
        if (o.dropoutSeed)
            dropout.emplace(util::Rng::forStream(*o.dropoutSeed, static_cast<uint64_t>(from / o.microRows), 0).next() >> 1);
        mb.rows = groupLogProbs(d, batch, mb.from, mb.to, o, o.withEntropy);
        const torch::Tensor &lp = mb.rows.logProbs;
        const int64_t w = lp.size(1);
        GrpoLossInputs in;
        in.newLogProbs = lp;
        in.oldLogProbs = batch.oldLogProbs.defined() ? batch.oldLogProbs.slice(0, from, to).narrow(1, 0, w).to(lp.device())
                                                     : lp.detach();
        if (batch.refLogProbs.defined())
            in.refLogProbs = batch.refLogProbs.slice(0, from, to).narrow(1, 0, w).to(lp.device());
        if (batch.tokenAdvantages.empty()) {
            const std::vector<double> adv(batch.advantages.begin() + from, batch.advantages.begin() + to);
            in.advantages = torch::tensor(adv, torch::kFloat64).to(lp.device()); // [n]
        } else {
            // [n, w]: each token its own; past a row's end 0 (masked anyway).
            std::vector<double> adv(static_cast<size_t>((to - from) * w), 0.0);
            for (int64_t r = from; r < to; ++r) {
                const std::vector<double> &a = batch.tokenAdvantages[static_cast<size_t>(r)];
                const int64_t len = std::min<int64_t>(w, static_cast<int64_t>(a.size()));
                for (int64_t t = 0; t < len; ++t)
                    adv[static_cast<size_t>((r - from) * w + t)] = a[static_cast<size_t>(t)];
            }
            in.advantages = torch::tensor(adv, torch::kFloat64).view({to - from, w}).to(lp.device());
        }
        torch::Tensor mask = mb.rows.mask;
        if (!batch.masked.empty()) {
            std::vector<double> keep;
            for (int64_t r = from; r < to; ++r)
                keep.push_back(isMasked(static_cast<size_t>(r)) ? 0.0 : 1.0);
            mask = mask * torch::tensor(keep, torch::kFloat64).to(mask.options()).unsqueeze(1);
        }
        if (!batch.environment.empty()) {
            // The policy's tokens only: 0 where the environment wrote the token.
            std::vector<double> policy(static_cast<size_t>((to - from) * w), 1.0);
            for (int64_t r = from; r < to; ++r) {
                const std::vector<uint8_t> &e = batch.environment[static_cast<size_t>(r)];
                for (size_t t = 0; t < e.size() && static_cast<int64_t>(t) < w; ++t)
                    if (e[t])
                        policy[static_cast<size_t>((r - from) * w) + t] = 0.0;
            }
            mask = mask * torch::tensor(policy, torch::kFloat64).view({to - from, w}).to(mask.options());
        }
        in.mask = mask;
        if (mb.rows.entropy.defined())
            in.entropy = mb.rows.entropy;
        mb.loss = grpoLoss(in, lo);
        double share = 1.0; // the micro-batch's share of the whole batch's loss
        switch (lo.lossType) {
        case LossType::Grpo:   // a mean over rows: weigh by the rows here
        case LossType::DrGrpo: // divided by the rows here × L_max
            share = static_cast<double>(to - from) / static_cast<double>(R);
            break;
        case LossType::Bnpo: // TRL: the micro-batch's token mean over the accumulation steps
            share = 1.0 / static_cast<double>(micro);
            break;
        case LossType::Dapo: // already divided by the whole batch's tokens
            share = 1.0;
            break;
        }
        torch::Tensor loss = mb.loss.loss * share;
        if (o.poisonLoss)
            loss = loss * std::numeric_limits<double>::quiet_NaN();
        mb.weightedLoss = loss.item<double>();
        if (!std::isfinite(mb.weightedLoss))
            throw NonFiniteLoss("the policy loss is " + std::string(std::isnan(mb.weightedLoss) ? "NaN" : "infinite"));
        return std::make_pair(std::move(mb), loss);
    };

    // Micro-batches in order on this thread, or several at once (o.workers); `each`
    // sees them in order on this thread either way.
    const auto count = static_cast<size_t>(last > first ? (last - first + o.microRows - 1) / o.microRows : 0);
    std::vector<MicroBatch> done(count);
    model::backwardOnWorkers(o.workers, count, d.trainableParameters(), [&](size_t k) {
        auto [mb, loss] = compute(first + static_cast<int64_t>(k) * o.microRows);
        // What `each` reads, without the graph (the backward frees it).
        mb.rows.logProbs = mb.rows.logProbs.detach();
        mb.loss.loss = mb.loss.loss.detach();
        if (mb.loss.perTokenLoss.defined())
            mb.loss.perTokenLoss = mb.loss.perTokenLoss.detach();
        done[k] = std::move(mb);
        return loss;
    }, microBatchCosts(batch, static_cast<size_t>(first), static_cast<size_t>(last), static_cast<size_t>(o.microRows),
                       static_cast<size_t>(o.groupSize)));
    double total = 0.0;
    for (const MicroBatch &mb : done) {
        total += mb.weightedLoss;
        if (each)
            each(mb);
    }
    return total;
}

} // namespace rwb::train
