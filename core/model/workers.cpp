#include "model/workers.h"

#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>
#include <torch/csrc/autograd/anomaly_mode.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace rwb::model {

WorkerBlock workerBlock(size_t n, int workers, int w)
{
    const auto W = static_cast<size_t>(std::max(1, workers));
    const auto k = static_cast<size_t>(std::max(0, w));
    return {n * k / W, n * (k + 1) / W};
}

namespace {

// min(workers, n) blocks of equal counts (workerBlock's).
std::vector<WorkerBlock> equalBlocks(size_t n, int workers)
{
    const int W = static_cast<int>(std::min<size_t>(static_cast<size_t>(std::max(1, workers)), n));
    std::vector<WorkerBlock> blocks;
    for (int w = 0; w < W; ++w)
        blocks.push_back(workerBlock(n, W, w));
    return blocks;
}

} // namespace

std::vector<WorkerBlock> balancedBlocks(size_t n, int workers, const std::function<double(size_t first, size_t last)> &cost)
{
    const size_t B = std::min<size_t>(static_cast<size_t>(std::max(1, workers)), n);
    std::vector<WorkerBlock> blocks(B);
    if (B == 0)
        return blocks;
    const auto costOf = [&](size_t first, size_t last) {
        const double c = cost(first, last);
        return std::isfinite(c) ? std::max(0.0, c) : 0.0;
    };
    const double whole = costOf(0, n);
    if (!(whole > 0.0))
        return equalBlocks(n, workers);
    // Each block as long as `limit` allows, leaving one piece for every block after it; the
    // last takes the rest. Whether it fits too says if `limit` is reachable.
    const auto cut = [&](double limit) {
        size_t k = 0;
        for (size_t b = 0; b + 1 < B; ++b) {
            blocks[b].first = k++;
            while (n - k > B - 1 - b && costOf(blocks[b].first, k + 1) <= limit)
                ++k;
            blocks[b].last = k;
        }
        blocks[B - 1] = {k, n};
        return costOf(k, n) <= limit;
    };
    double lo = 0.0, hi = whole; // the largest piece alone is a least bound; the whole, a reachable one
    for (size_t k = 0; k < n; ++k)
        lo = std::max(lo, costOf(k, k + 1));
    if (cut(lo))
        return blocks;
    for (int i = 0; i < 64 && hi - lo > 1e-12 * whole; ++i) {
        const double mid = 0.5 * (lo + hi);
        (cut(mid) ? hi : lo) = mid;
    }
    cut(hi);
    return blocks;
}

std::vector<WorkerBlock> balancedBlocks(const std::vector<double> &costs, int workers)
{
    std::vector<double> prefix(costs.size() + 1, 0.0);
    for (size_t k = 0; k < costs.size(); ++k)
        prefix[k + 1] = prefix[k] + (std::isfinite(costs[k]) ? std::max(0.0, costs[k]) : 0.0);
    return balancedBlocks(costs.size(), workers, [&](size_t first, size_t last) { return prefix[last] - prefix[first]; });
}

int batchWorkers(const std::string &threadSplit, const torch::Device &device)
{
    return threadSplit == "batches" && device.is_cpu() ? std::max(1, at::get_num_threads()) : 1;
}

namespace {

// runOnWorkers with W ≥ 2 and n ≥ 2, telling each task which worker runs it: worker w
// the pieces of blocks[w] (W = blocks.size()).
void runBlocks(const std::vector<WorkerBlock> &blocks, size_t n, const std::function<void(size_t k, int worker)> &task)
{
    const int W = static_cast<int>(blocks.size());
    const at::ThreadLocalState state; // this thread's grad mode, autocast, …
    const int callerThreads = at::get_num_threads();
    // The first failure of each worker, with the k it came from.
    std::vector<std::exception_ptr> failure(static_cast<size_t>(W));
    std::vector<size_t> failedAt(static_cast<size_t>(W), n);
    std::vector<std::thread> threads;
    threads.reserve(static_cast<size_t>(W));
    for (int w = 0; w < W; ++w)
        threads.emplace_back([&, w] {
            const at::ThreadLocalStateGuard guard(state);
            // OpenMP's thread count is per thread (this worker's alone); MKL's is set
            // thread-locally by at::set_num_threads.
            at::set_num_threads(1);
            const WorkerBlock &block = blocks[static_cast<size_t>(w)];
            for (size_t k = block.first; k < block.last; ++k) {
                try {
                    task(k, w);
                } catch (...) {
                    failure[static_cast<size_t>(w)] = std::current_exception();
                    failedAt[static_cast<size_t>(w)] = k;
                    return;
                }
            }
        });
    for (std::thread &t : threads)
        t.join();
    // at::set_num_threads also keeps the count for threads libtorch starts later: give it back.
    at::set_num_threads(callerThreads);
    const auto first = std::min_element(failedAt.begin(), failedAt.end());
    if (*first < n)
        std::rethrow_exception(failure[static_cast<size_t>(first - failedAt.begin())]);
}

std::vector<WorkerBlock> blocksFor(int workers, size_t n, const std::vector<double> &costs)
{
    if (costs.empty())
        return equalBlocks(n, workers);
    TORCH_CHECK(costs.size() == n, "runOnWorkers: ", costs.size(), " costs for ", n, " pieces");
    return balancedBlocks(costs, workers);
}

} // namespace

void runOnWorkers(int workers, size_t n, const std::function<void(size_t k)> &task, const std::vector<double> &costs)
{
    if (workers <= 1 || n <= 1) {
        for (size_t k = 0; k < n; ++k)
            task(k);
        return;
    }
    runBlocks(blocksFor(workers, n, costs), n, [&](size_t k, int) { task(k); });
}

void backwardOnWorkers(int workers, size_t n, const std::vector<torch::Tensor> &params,
                       const std::function<torch::Tensor(size_t k)> &lossOf, const std::vector<double> &costs)
{
    // RWB_DETECT_ANOMALY=1: autograd checks every backward function's output and names the
    // first that returns a NaN (docs/cli.md, Environment); slow, for finding one.
    static const bool anomaly = [] {
        const char *v = std::getenv("RWB_DETECT_ANOMALY");
        return v != nullptr && std::string(v) == "1";
    }();
    std::optional<torch::autograd::DetectAnomalyGuard> detect;
    if (anomaly)
        detect.emplace();
    if (workers <= 1 || n <= 1) {
        for (size_t k = 0; k < n; ++k)
            lossOf(k).backward();
        return;
    }
    const std::vector<WorkerBlock> blocks = blocksFor(workers, n, costs);
    std::vector<std::vector<torch::Tensor>> sums(blocks.size(), std::vector<torch::Tensor>(params.size()));
    runBlocks(blocks, n, [&](size_t k, int w) {
        const torch::Tensor loss = lossOf(k);
        const std::vector<torch::Tensor> grads =
            torch::autograd::grad({loss}, params, {}, /*retain_graph=*/false, /*create_graph=*/false,
                                  /*allow_unused=*/true);
        std::vector<torch::Tensor> &sum = sums[static_cast<size_t>(w)];
        for (size_t i = 0; i < params.size(); ++i) {
            if (!grads[i].defined())
                continue;
            if (sum[i].defined())
                sum[i].add_(grads[i]);
            else // a tensor of its own: autograd may hand out a view or an expanded one
                sum[i] = grads[i].is_view() || !grads[i].is_contiguous() ? grads[i].contiguous().clone() : grads[i];
        }
    });
    torch::NoGradGuard noGrad;
    for (const std::vector<torch::Tensor> &sum : sums)
        for (size_t i = 0; i < sum.size(); ++i)
            if (sum[i].defined()) {
                torch::Tensor p = params[i];
                torch::Tensor &g = p.mutable_grad();
                if (g.defined())
                    g.add_(sum[i]);
                else
                    g = sum[i];
            }
}

} // namespace rwb::model
