#pragma once

// DAPO's soft over-long punishment (Yu et al. 2025, eq. 13), a reward term added to each
// completion's reward before the advantages. Internal to core (includes libtorch). A pure
// function on tensors; any thread may call it.
//
// Shape legend: R = rows (completions).
//
// Formula, with L = completion length in tokens, L_max = maxLen, L_cache = cacheLen:
//   penalty(L) = 0                                  if L ≤ L_max − L_cache
//              = ((L_max − L_cache) − L) / L_cache  if L_max − L_cache < L ≤ L_max
//              = −1                                 if L > L_max
// i.e. 0 up to L_max − L_cache, then a straight line down to −1 at L_max, clipped at −1.
// With L_cache = 0 it is a step: 0 up to L_max, −1 beyond.

#include <torch/torch.h>

namespace rwb::train {

// lengths: [R] integer or floating. Returns [R] float32 (float64 when lengths are float64).
// Throws c10::Error (TORCH_CHECK) when lengths is not 1-D, a length is negative or NaN,
// maxLen < 1, or cacheLen is outside [0, maxLen].
torch::Tensor overlongPenalty(const torch::Tensor &lengths, int64_t maxLen, int64_t cacheLen);

} // namespace rwb::train
