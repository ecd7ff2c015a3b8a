#pragma once

// SFT's loss on one micro-batch (ProRAG eq. 1, docs/training.md): internal to core
// (includes libtorch). Split from the trainer so that tests check this exact path
// against finite differences (tst_gradcheck).

#include "model/causallminternals.h"

#include <vector>

namespace rwb::train {

// −( Σ_t w_t · log p(y_t | prompt, y_<t) ) / targetTokens over the micro-batch, where the
// target tokens weigh `targetWeights` (1, or λ on control tags) and, when
// promptLossWeight > 0, every prompt token but the first weighs promptLossWeight.
// targetTokens is the optimizer step's count (all its micro-batches), so that the
// micro-batches' losses add up to the step's. Differentiable; log-probs in the compute
// dtype (fp32, or f64 for a f64 model), the forward autocast to bf16 when asked.
torch::Tensor sftLoss(model::CausalLmInternals &d, const std::vector<std::vector<int32_t>> &prompts,
                      const std::vector<std::vector<int32_t>> &targets,
                      const std::vector<std::vector<float>> &targetWeights, double promptLossWeight,
                      double targetTokens, int32_t padToken, bool bf16);

} // namespace rwb::train
