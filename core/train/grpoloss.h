#pragma once

// The clipped GRPO policy loss with every mainstream variant (GRPO, BNPO, Dr. GRPO, DAPO),
// clip-higher and the k3 KL penalty, plus the metrics TRL logs. Internal to core (includes
// libtorch). A pure function on tensors: no model, no I/O; any thread may call it.
//
// Shape legend: B = prompts, G = group size, R = B·G rows, T = completion tokens (padded).
//
// Per token (i = row, t = token), with m_{i,t} the completion mask (1 = counts):
//   r_{i,t}   = exp(new_{i,t} − old_{i,t})                          importance ratio
//   L_{i,t}   = −min( r·A_i, clip(r, 1 − eps_low, 1 + eps_high)·A_i ) + beta·kl_{i,t}
//   kl_{i,t}  = ρ − log ρ − 1,  ρ = exp(ref_{i,t} − new_{i,t})      k3 estimator of KL(π_θ‖π_ref), ≥ 0
//             · r_{i,t} with klBiasCorrection (TRL's use_bias_correction_kl, on by default
//               there and here): r is not detached, so even on-policy (r = 1) the KL gradient
//               gains kl·∇new — the unbiased reverse-KL gradient of DeepSeek-V3.2
// A_i may be per token (A_{i,t}) when advantages are [R, T].
// Aggregation, with |o_i| = Σ_t m_{i,t} and N = Σ_{i,t} m_{i,t}:
//   grpo    = (1/R) Σ_i (1/max(|o_i|, 1)) Σ_t m·L         mean per sequence, then over sequences
//   bnpo    = Σ_{i,t} m·L / max(N, 1)                     this call's active tokens
//   dr_grpo = Σ_{i,t} m·L / (R · maxCompletionLength)      a constant: no length normalisation
//   dapo    = Σ_{i,t} m·L / N_global                       N_global = dapoGlobalTokens, or N when 0
// BNPO vs DAPO in TRL: both divide the token sum by a token count, but TRL's bnpo counts the
// tokens of the micro-batch it is given (then divides by the gradient-accumulation steps),
// while dapo divides by num_items_in_batch, the active tokens of the whole generation batch
// across every accumulation step and process. On one call holding the whole batch they are
// equal; a trainer that splits the batch passes the whole batch's count as dapoGlobalTokens.
// A row with no active token counts as 0 in grpo's mean (TRL's clamp(min = 1)).
//
// Metrics (TRL names; means over active tokens, m-weighted, count clamped at 1):
//   clip_ratio/low_mean    = mean[ r < 1 − eps_low  ∧ A < 0 ]
//   clip_ratio/high_mean   = mean[ r > 1 + eps_high ∧ A > 0 ]
//   clip_ratio/region_mean = mean[ either ]
//   clip_ratio/low_min     = min over rows with an active token of the row's mean[ low ]
//   clip_ratio/high_max    = max over those rows of the row's mean[ high ]
//   kl                     = mean[ kl_{i,t} ]     (when ref log-probs are given; ·r with
//                            klBiasCorrection, as TRL logs it)
//   entropy                = mean[ H_{i,t} ]      (when an entropy tensor is given)
// With μ = 1 and old = new.detach(), r = 1 and ∇L equals the plain policy gradient
// −A_i ∇new_{i,t} weighted as the aggregation says (grpo: 1/(R·|o_i|) per token).

#include <optional>
#include <string>
#include <string_view>
#include <torch/torch.h>

namespace rwb::train {

enum class LossType { Grpo, Bnpo, DrGrpo, Dapo };

// "grpo" | "bnpo" | "dr_grpo" | "dapo"; nullopt for anything else.
std::optional<LossType> lossTypeFromString(std::string_view name);
std::string toString(LossType type);

struct GrpoLossOptions {
    LossType lossType = LossType::Grpo;
    double epsLow = 0.2;  // clip below at 1 − epsLow
    double epsHigh = 0.2; // clip above at 1 + epsHigh; DAPO's clip-higher uses 0.28
    double beta = 0.0;    // k3 KL weight; > 0 needs ref log-probs
    // dr_grpo's constant: the generation limit (max new tokens). Required for dr_grpo.
    int64_t maxCompletionLength = 0;
    // dapo's normaliser: active tokens of the whole generation batch; 0 = this call's count.
    double dapoGlobalTokens = 0.0;
    // The KL term weighted by the importance ratio (above); TRL 1.13's default.
    bool klBiasCorrection = true;
};

struct GrpoLossInputs {
    torch::Tensor newLogProbs;  // [R, T] float, differentiable (the current policy)
    torch::Tensor oldLogProbs;  // [R, T] the sampling policy's, no grad (new.detach() when μ = 1)
    torch::Tensor refLogProbs;  // [R, T] reference policy's; undefined when beta = 0 and no kl wanted
    torch::Tensor advantages;   // [R] per sequence, or [R, T] per token
    torch::Tensor mask;         // [R, T] bool or 0/1: 0 for padding and masked truncated completions
    torch::Tensor entropy;      // [R, T] optional, for the entropy metric only
};

struct GrpoLossResult {
    torch::Tensor loss;          // [] scalar, differentiable with respect to newLogProbs
    torch::Tensor perTokenLoss;  // [R, T] m·L_{i,t} (zero on inactive tokens), differentiable
    double clipRatioLow = 0.0;    // clip_ratio/low_mean
    double clipRatioHigh = 0.0;   // clip_ratio/high_mean
    double clipRatioRegion = 0.0; // clip_ratio/region_mean
    double clipRatioLowMin = 0.0;  // clip_ratio/low_min (0 when no row has an active token)
    double clipRatioHighMax = 0.0; // clip_ratio/high_max
    std::optional<double> kl;      // kl, when refLogProbs are given
    std::optional<double> entropy; // entropy, when an entropy tensor is given
    int64_t activeTokens = 0;      // N
};

// Throws c10::Error (TORCH_CHECK) with a message naming the argument when shapes disagree,
// an input is NaN (naming the tensor and the first [row, token]), beta > 0 without ref
// log-probs, eps_low ∉ [0, 1), eps_high < 0, dr_grpo without maxCompletionLength, or the
// resulting loss is not finite.
GrpoLossResult grpoLoss(const GrpoLossInputs &in, const GrpoLossOptions &options = {});

} // namespace rwb::train
