#include "model/workers.h"

#include <ATen/Parallel.h>
#include <ATen/ThreadLocalState.h>

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace rwb::model {

WorkerBlock workerBlock(size_t n, int workers, int w)
{
    const auto W = static_cast<size_t>(std::max(1, workers));
    const auto k = static_cast<size_t>(std::max(0, w));
    return {n * k / W, n * (k + 1) / W};
}

int batchWorkers(const std::string &threadSplit, const torch::Device &device)
{
    return threadSplit == "batches" && device.is_cpu() ? std::max(1, at::get_num_threads()) : 1;
}

namespace {

// runOnWorkers with W ≥ 2 and n ≥ 2, telling each task which worker runs it.
void runBlocks(int W, size_t n, const std::function<void(size_t k, int worker)> &task)
{
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
            const WorkerBlock block = workerBlock(n, W, w);
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

} // namespace

void runOnWorkers(int workers, size_t n, const std::function<void(size_t k)> &task)
{
    if (workers <= 1 || n <= 1) {
        for (size_t k = 0; k < n; ++k)
            task(k);
        return;
    }
    runBlocks(static_cast<int>(std::min<size_t>(static_cast<size_t>(workers), n)), n,
              [&](size_t k, int) { task(k); });
}

void backwardOnWorkers(int workers, size_t n, const std::vector<torch::Tensor> &params,
                       const std::function<torch::Tensor(size_t k)> &lossOf)
{
    if (workers <= 1 || n <= 1) {
        for (size_t k = 0; k < n; ++k)
            lossOf(k).backward();
        return;
    }
    const int W = static_cast<int>(std::min<size_t>(static_cast<size_t>(workers), n));
    std::vector<std::vector<torch::Tensor>> sums(static_cast<size_t>(W), std::vector<torch::Tensor>(params.size()));
    runBlocks(W, n, [&](size_t k, int w) {
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
