#pragma once

// Data parallelism inside one process: independent pieces of work (a step's micro-batches,
// its groups of rollouts) run at once on several threads, each with one intra-op thread,
// where libtorch would otherwise spread every operation over the cores. The tiny models
// this project trains on a CPU run operations too short for that: at 2 intra-op threads
// a quarter of a GRPO step waited in OpenMP's barriers (docs/results.md, "Where the second
// core goes"), while two micro-batches side by side keep both cores busy.
//
// Internal to core (includes libtorch).

#include <torch/torch.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace rwb::model {

// Runs task(k) for k = 0 … n−1. With workers ≤ 1 or n ≤ 1: in order, on this thread, as
// it is. Otherwise on min(workers, n) threads at once: worker w takes the contiguous block
// [w·n/W, (w+1)·n/W) in order, so which thread computes k depends only on (n, W), never on
// timing, and sums a worker keeps are reproducible. Each worker has this thread's
// thread-local state (grad mode, autocast, inference mode; at::ThreadLocalState) and one
// intra-op thread; this thread's count is as before when it returns. A task that throws
// ends its own worker's block there (the others finish theirs), and the exception of the
// lowest such k is rethrown.
//
// With `costs` (one per k, ≥ 0: what k takes, in any unit): the blocks are still
// contiguous and in order, but cut where the costs' sums come out most even
// (balancedBlocks) rather than at equal counts — pieces of unequal length (prompts,
// micro-batches) otherwise leave one worker waiting for the other. Which thread computes k
// then depends only on (costs, W).
void runOnWorkers(int workers, size_t n, const std::function<void(size_t k)> &task,
                  const std::vector<double> &costs = {});

// The gradients of lossOf(0) + … + lossOf(n−1) added to `params`' .grad, the losses
// computed on runOnWorkers(workers, n). One worker: each loss's backward() in turn, as
// ever. Several: each worker sums its own losses' gradients in order (autograd::grad, not
// into .grad, where the threads' additions would race for the order), and the workers'
// sums then go into .grad worker by worker: the same sum on every run with this many
// workers, another by rounding only with another count. `params` are the leaves that
// take gradients (every one that can get one; others stay as they are).
// `costs` as for runOnWorkers.
void backwardOnWorkers(int workers, size_t n, const std::vector<torch::Tensor> &params,
                       const std::function<torch::Tensor(size_t k)> &lossOf, const std::vector<double> &costs = {});

// The workers a training job runs on `device` with its config's `thread_split`:
// "batches" on the CPU takes libtorch's intra-op thread count (set from `threads` when the
// model loaded) as workers, each with one thread; "operations", or any other device: 1.
int batchWorkers(const std::string &threadSplit, const torch::Device &device);

// The workers block w (of W) takes among n: [first, last).
struct WorkerBlock {
    size_t first = 0, last = 0;
};
WorkerBlock workerBlock(size_t n, int workers, int w);

// min(workers, n) contiguous blocks covering 0 … n−1 in order, none empty, whose largest
// cost is the least any such cut has, to a relative 1e-12 (ties: each block ends as late
// as it can). `cost(first, last)` is what the block [first, last) takes: ≥ 0, and never
// less for a longer block. A whole that costs 0: workerBlock's equal counts.
std::vector<WorkerBlock> balancedBlocks(size_t n, int workers, const std::function<double(size_t first, size_t last)> &cost);

// The same with a block's cost the sum of its pieces' (n = costs.size()).
std::vector<WorkerBlock> balancedBlocks(const std::vector<double> &costs, int workers);

} // namespace rwb::model
