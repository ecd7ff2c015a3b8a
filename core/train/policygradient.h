#pragma once

// The gradient of one GRPO update, as the trainer takes it: the rows of a generation
// batch (whole groups), their log-probs with each prompt run once for its G completions,
// the clipped loss of grpoloss.h and its backward pass, micro-batch by micro-batch, each
// micro-batch weighted so that the accumulated gradient is that of the whole batch's loss.
// Internal to core (includes libtorch). Split from the trainer so that tests check this
// exact path against finite differences (tst_gradcheck) in f64.

#include "model/causallminternals.h"
#include "train/grpoloss.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

namespace rwb::train {

// Thrown when the loss or the gradient stops being finite.
struct NonFiniteLoss : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Rows come in whole groups: row b·G + g is completion g of prompt b.
struct PolicyBatch {
    std::vector<std::vector<int32_t>> groupPrompts; // [B]
    std::vector<std::vector<int32_t>> completions;  // [R = B·G], each non-empty
    std::vector<double> advantages;                 // [R]
    // [R] per token of each completion (dual-granularity GRPO: A_out + β·A_proc of the
    // token's step); empty: every token takes its row's `advantages`. A row's values past
    // its completion are ignored.
    std::vector<std::vector<double>> tokenAdvantages;
    std::vector<bool> masked;                       // [R] rows without gradient (truncated, when masked); may be empty
    // [R] per token of each completion: 1 where the environment wrote it (a multi-step
    // task's retrievals): no loss, no gradient, not counted among the active tokens. May
    // be empty (no environment); a row's may be empty (none of its tokens).
    std::vector<std::vector<uint8_t>> environment;
    torch::Tensor oldLogProbs;                      // [R, ≥ T] μ > 1: the sampling policy's; undefined: new.detach()
    torch::Tensor refLogProbs;                      // [R, ≥ T] β > 0: the reference policy's
};

struct PolicyStepOptions {
    GrpoLossOptions loss;  // dapoGlobalTokens is filled in from the batch
    int groupSize = 1;     // G
    int microRows = 16;    // rows per forward / backward, whole groups
    int32_t padToken = 0;
    double temperature = 1.0;
    bool bf16 = false;     // autocast the forward to bf16
    bool withEntropy = false;
    bool poisonLoss = false; // tests of the NaN stop: the loss is made NaN
    // The rows this process computes, [rowsFrom, rowsTo): whole micro-batches of the
    // batch (a data-parallel rank's share). Every normalizer (rows, micro-batches, DAPO's
    // tokens) is still the whole batch's, so that the ranks' gradients sum to the one
    // process's. Default: every row.
    size_t rowsFrom = 0;
    size_t rowsTo = static_cast<size_t>(-1);
    // Set: micro-batch k of the batch (counted from row 0) draws its dropout from torch's
    // generator seeded by (dropoutSeed, k), so that its masks do not depend on which
    // process computes it nor on the micro-batches before it.
    std::optional<uint64_t> dropoutSeed;
    // Micro-batches computed at once, each on a thread of its own with one intra-op thread
    // (model/workers.h); 1: one after the other on this thread. Each worker sums its
    // micro-batches' gradients, and the sums go into .grad worker by worker: a run is
    // reproducible for a given count, and differs from another count by rounding only.
    // Activation memory grows with it: `workers` micro-batches are alive at once.
    int workers = 1;
};

// The completions' log-probs [rows, T] (compute dtype), their mask, and entropies when asked.
struct RowTensors {
    torch::Tensor logProbs;
    torch::Tensor entropy;
    torch::Tensor mask;
};

// Log-probs of rows [from, to) of the batch (whole groups), differentiable unless grad mode is off.
RowTensors groupLogProbs(model::CausalLmInternals &d, const PolicyBatch &batch, size_t from, size_t to,
                         const PolicyStepOptions &o, bool withEntropy);

// Every row's log-probs without gradients, padded to `width` columns (the old or the
// reference policy: whatever the module computes now); rows outside [o.rowsFrom,
// o.rowsTo) are not computed and left 0.
torch::Tensor noGradLogProbs(model::CausalLmInternals &d, const PolicyBatch &batch, const PolicyStepOptions &o,
                             int64_t width);

struct MicroBatch {
    size_t from = 0, to = 0;  // rows
    RowTensors rows;
    GrpoLossResult loss;      // the micro-batch's own loss and metrics
    double weightedLoss = 0.0; // its share of the batch's loss
};

// Forward + backward of the batch's loss over rows [o.rowsFrom, o.rowsTo); the
// parameters' gradients accumulate (zero them before). Returns those rows' share of the
// batch's loss. `each` sees every micro-batch computed. Throws NonFiniteLoss.
double policyLossBackward(model::CausalLmInternals &d, const PolicyBatch &batch, const PolicyStepOptions &o,
                          const std::function<void(const MicroBatch &)> &each = {});

} // namespace rwb::train
