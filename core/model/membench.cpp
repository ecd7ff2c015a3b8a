#include "model/membench.h"

#include "model/causallminternals.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <torch/torch.h>

namespace rwb::model {

MemoryBandwidth measureMemoryBandwidth(double seconds, double bufferBytes, const std::string &device)
{
    using Clock = std::chrono::steady_clock;
    torch::NoGradGuard noGrad;
    const torch::Device where = pickDevice(device);
    const int64_t n = static_cast<int64_t>(bufferBytes / sizeof(float));
    torch::Tensor a = torch::rand({n}, torch::TensorOptions().device(where));
    torch::Tensor b = torch::empty_like(a);
    // item() waits for the device; a copy needs an explicit wait.
    auto settle = [&] {
        if (where.is_cuda())
            torch::cuda::synchronize();
    };
    MemoryBandwidth m;
    m.threads = at::get_num_threads();
    m.bufferBytes = static_cast<double>(n) * sizeof(float);
    volatile float sink = a.sum().item<float>(); // warm the pages
    auto run = [&](auto &&op) {
        int iterations = 0;
        const auto start = Clock::now();
        double elapsed = 0.0;
        do {
            op();
            ++iterations;
            elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        } while (elapsed < seconds || iterations < 3);
        return iterations / elapsed;
    };
    m.readBytesPerSecond = run([&] { sink = a.sum().item<float>(); }) * m.bufferBytes;
    m.copyBytesPerSecond = run([&] {
        b.copy_(a);
        settle();
    }) * 2.0 * m.bufferBytes;
    (void)sink;
    return m;
}

void setTorchThreads(int threads)
{
    applyThreads(threads);
}

int torchThreads()
{
    return at::get_num_threads();
}

} // namespace rwb::model
