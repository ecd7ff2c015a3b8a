#include "train/grpoloss.h"

#include <cmath>
#include <string>

namespace rwb::train {

std::optional<LossType> lossTypeFromString(std::string_view name)
{
    if (name == "grpo")
        return LossType::Grpo;
    if (name == "bnpo")
        return LossType::Bnpo;
    if (name == "dr_grpo")
        return LossType::DrGrpo;
    if (name == "dapo")
        return LossType::Dapo;
    return std::nullopt;
}

std::string toString(LossType type)
{
    switch (type) {
    case LossType::Grpo: return "grpo";
    case LossType::Bnpo: return "bnpo";
    case LossType::DrGrpo: return "dr_grpo";
    case LossType::Dapo: return "dapo";
    }
    return "grpo";
}

namespace {

// Shape legend: R = rows, T = completion tokens.

void checkShape(const torch::Tensor &x, const char *name, const torch::Tensor &like)
{
    TORCH_CHECK(x.defined(), "grpoLoss: ", name, " is missing");
    TORCH_CHECK(x.sizes() == like.sizes(), "grpoLoss: ", name, " has shape ", x.sizes(),
                ", expected [R, T] = ", like.sizes());
}

// Names the tensor and the first NaN's position: "grpoLoss: oldLogProbs is NaN at [1, 2]".
void checkNoNan(const torch::Tensor &x, const char *name)
{
    const torch::Tensor nan = x.detach().isnan();
    if (!nan.any().item<bool>())
        return;
    const torch::Tensor first = nan.nonzero()[0].to(torch::kCPU); // [x.dim()]
    std::string where;
    for (int64_t d = 0; d < first.size(0); ++d)
        where += (d ? ", " : "") + std::to_string(first[d].item<int64_t>());
    TORCH_CHECK(false, "grpoLoss: ", name, " is NaN at [", where, "] (", nan.sum().item<int64_t>(),
                " NaN values in all)");
}

} // namespace

GrpoLossResult grpoLoss(const GrpoLossInputs &in, const GrpoLossOptions &options)
{
    const torch::Tensor &logp = in.newLogProbs; // [R, T]
    TORCH_CHECK(logp.defined() && logp.dim() == 2, "grpoLoss: newLogProbs must be [R, T]");
    TORCH_CHECK(logp.is_floating_point(), "grpoLoss: newLogProbs must be floating point");
    const int64_t rows = logp.size(0);
    checkShape(in.oldLogProbs, "oldLogProbs", logp);
    checkShape(in.mask, "mask", logp);
    TORCH_CHECK(in.advantages.defined(), "grpoLoss: advantages are missing");
    TORCH_CHECK((in.advantages.dim() == 1 && in.advantages.size(0) == rows) ||
                    (in.advantages.dim() == 2 && in.advantages.sizes() == logp.sizes()),
                "grpoLoss: advantages have shape ", in.advantages.sizes(), ", expected [R] = [", rows,
                "] or [R, T] = ", logp.sizes());
    const bool haveRef = in.refLogProbs.defined();
    if (haveRef)
        checkShape(in.refLogProbs, "refLogProbs", logp);
    if (in.entropy.defined())
        checkShape(in.entropy, "entropy", logp);
    TORCH_CHECK(options.beta >= 0.0, "grpoLoss: beta must be ≥ 0, got ", options.beta);
    TORCH_CHECK(options.beta == 0.0 || haveRef, "grpoLoss: beta = ", options.beta,
                " > 0 needs refLogProbs (the reference policy's log-probs)");
    TORCH_CHECK(options.epsLow >= 0.0 && options.epsLow < 1.0, "grpoLoss: epsLow must be in [0, 1), got ",
                options.epsLow);
    TORCH_CHECK(options.epsHigh >= 0.0, "grpoLoss: epsHigh must be ≥ 0, got ", options.epsHigh);
    TORCH_CHECK(options.lossType != LossType::DrGrpo || options.maxCompletionLength > 0,
                "grpoLoss: dr_grpo needs maxCompletionLength > 0 (the generation limit)");
    TORCH_CHECK(options.dapoGlobalTokens >= 0.0, "grpoLoss: dapoGlobalTokens must be ≥ 0");

    checkNoNan(logp, "newLogProbs");
    checkNoNan(in.oldLogProbs, "oldLogProbs");
    checkNoNan(in.advantages, "advantages");
    if (haveRef)
        checkNoNan(in.refLogProbs, "refLogProbs");
    if (in.entropy.defined())
        checkNoNan(in.entropy, "entropy");

    const auto dtype = logp.scalar_type();
    const torch::Tensor m = in.mask.to(dtype);                                     // [R, T]
    const torch::Tensor adv = in.advantages.to(dtype).detach();                    // [R] or [R, T]
    const torch::Tensor a = adv.dim() == 1 ? adv.unsqueeze(1) : adv;               // [R, 1] or [R, T]
    TORCH_CHECK(a.isfinite().all().item<bool>(), "grpoLoss: advantages contain an infinite value");
    const torch::Tensor old = in.oldLogProbs.to(dtype).detach();                   // [R, T]

    // Inactive tokens may hold anything but NaN (padding, −inf): their log-ratio is replaced by 0
    // before exp, so neither the loss nor the gradient sees them (a mask multiply alone would
    // turn inf·0 into NaN).
    const torch::Tensor active = m > 0;                                             // [R, T] bool
    const torch::Tensor zeros = torch::zeros_like(old);                             // [R, T]
    const torch::Tensor ratio = torch::exp(torch::where(active, logp - old, zeros)); // [R, T]
    const torch::Tensor clipped = ratio.clamp(1.0 - options.epsLow, 1.0 + options.epsHigh); // [R, T]
    torch::Tensor perToken = -torch::min(ratio * a, clipped * a);                   // [R, T]

    std::optional<double> klMean;
    const torch::Tensor tokenCount = m.sum();                                       // [] N
    const torch::Tensor countClamped = tokenCount.clamp_min(1.0);
    auto maskedMean = [&](const torch::Tensor &x) { return ((x.detach().to(dtype) * m).sum() / countClamped).item<double>(); };
    if (haveRef) {
        const torch::Tensor d = torch::where(active, in.refLogProbs.to(dtype).detach() - logp, zeros); // [R, T] log ρ
        torch::Tensor kl = torch::exp(d) - d - 1.0;                                 // [R, T] k3 ≥ 0
        if (options.klBiasCorrection)
            kl = kl * ratio;
        if (options.beta != 0.0)
            perToken = perToken + options.beta * kl;
        klMean = maskedMean(kl);
    }
    perToken = perToken * m;                                                        // [R, T]

    torch::Tensor loss; // []
    switch (options.lossType) {
    case LossType::Grpo:
        loss = (perToken.sum(/*dim=*/{1}) / m.sum(/*dim=*/{1}).clamp_min(1.0)).mean();
        break;
    case LossType::Bnpo:
        loss = perToken.sum() / countClamped;
        break;
    case LossType::DrGrpo:
        loss = perToken.sum() / static_cast<double>(rows * options.maxCompletionLength);
        break;
    case LossType::Dapo:
        loss = options.dapoGlobalTokens > 0.0 ? perToken.sum() / options.dapoGlobalTokens
                                              : perToken.sum() / countClamped;
        break;
    }
    TORCH_CHECK(std::isfinite(loss.item<double>()), "grpoLoss: the ", toString(options.lossType),
                " loss is not finite (", loss.item<double>(),
                "): an infinite log-prob or advantage among the active tokens?");

    GrpoLossResult out;
    out.loss = loss;
    out.perTokenLoss = perToken;
    out.activeTokens = static_cast<int64_t>(tokenCount.item<double>());
    {
        torch::NoGradGuard noGrad;
        const torch::Tensor r = ratio.detach();
        const torch::Tensor low = (r < 1.0 - options.epsLow).logical_and(a < 0);   // [R, T]
        const torch::Tensor high = (r > 1.0 + options.epsHigh).logical_and(a > 0); // [R, T]
        out.clipRatioLow = maskedMean(low);
        out.clipRatioHigh = maskedMean(high);
        out.clipRatioRegion = maskedMean(low.logical_or(high));
        // Per row, over its active tokens; rows without one are left out (TRL's nanmin/nanmax).
        const torch::Tensor perRow = m.sum(/*dim=*/{1});                             // [R]
        const torch::Tensor withTokens = perRow > 0;                                 // [R]
        if (withTokens.any().item<bool>()) {
            const torch::Tensor lowRow = (low.to(dtype) * m).sum(/*dim=*/{1}) / perRow.clamp_min(1.0);
            const torch::Tensor highRow = (high.to(dtype) * m).sum(/*dim=*/{1}) / perRow.clamp_min(1.0);
            out.clipRatioLowMin = lowRow.masked_select(withTokens).min().item<double>();
            out.clipRatioHighMax = highRow.masked_select(withTokens).max().item<double>();
        }
        out.kl = klMean;
        if (in.entropy.defined())
            out.entropy = maskedMean(in.entropy);
    }
    return out;
}

} // namespace rwb::train
