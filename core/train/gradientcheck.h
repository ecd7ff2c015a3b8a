#pragma once

// Analytic gradients against finite differences: the check tst_gradcheck makes of every
// loss and `rwb model check` makes on a device. Internal to core (includes libtorch).

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rwb::train {

// The worst relative error ‖g − g_fd‖ / ‖g_fd‖ over the tensors of `params`, each taken at
// `perTensor` elements drawn with `seed`, where g_fd is the five-point stencil of `f` with
// step h (truncation O(h⁴); rounding about ε·|f| / h). `grads[k]` is params[k]'s analytic
// gradient, flattened. `f` evaluates the loss at the parameters' current values; the
// elements are restored after each probe. Tensors whose probed differences are all 0 are
// skipped. `where` (when given) names the worst tensor: "tensor 3 (‖g_fd‖ = 0.012)".
double worstRelativeError(const std::vector<torch::Tensor> &params, const std::vector<torch::Tensor> &grads,
                          const std::function<double()> &f, int perTensor, double h, uint64_t seed,
                          std::string *where = nullptr);

} // namespace rwb::train
