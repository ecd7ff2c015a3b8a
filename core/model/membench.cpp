#include "model/membench.h"

#include "model/causallminternals.h"
#include "model/fusedops.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <torch/torch.h>

namespace rwb::model {

namespace {

// The seconds of the fastest of `op`'s passes, run for at least `seconds` and `passes`
// passes (noise only ever slows a pass).
template <typename Op>
double fastestPass(Op &&op, double seconds, int passes)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    double best = 1e300;
    int done = 0;
    do {
        const auto t0 = Clock::now();
        op();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
        ++done;
    } while (done < passes || std::chrono::duration<double>(Clock::now() - start).count() < seconds);
    return best;
}

} // namespace

MemoryBandwidth measureMemoryBandwidth(double seconds, double bufferBytes, const std::string &device)
{
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
    auto run = [&](auto &&op) { return 1.0 / fastestPass(op, seconds, 3); };
    const double bySum = run([&] { sink = a.sum().item<float>(); }) * m.bufferBytes;
    const int64_t cols = 1024;
    const torch::Tensor matrix = a.narrow(0, 0, n / cols * cols).view({n / cols, cols});
    const torch::Tensor vec = torch::rand({cols}, a.options());
    const double byMv = run([&] { sink = torch::mv(matrix, vec)[0].item<float>(); }) * static_cast<double>(matrix.numel()) * sizeof(float);
    m.readBytesPerSecond = std::max(bySum, byMv);
    m.readMethod = byMv > bySum ? "mv" : "sum";
    m.copyBytesPerSecond = run([&] {
        b.copy_(a);
        settle();
    }) * 2.0 * m.bufferBytes;
    (void)sink;
    return m;
}

double measurePeakFlops(const std::string &dtype, double seconds, const std::string &device)
{
    torch::NoGradGuard noGrad;
    const torch::Device where = pickDevice(device);
    const auto options = torch::TensorOptions().device(where).dtype(dtype == "bfloat16" ? torch::kBFloat16 : torch::kFloat32);
    const int64_t n = 1024;
    const torch::Tensor a = torch::randn({n, n}, options), b = torch::randn({n, n}, options);
    torch::Tensor c = torch::mm(a, b); // warm-up: kernels, pages
    const double best = fastestPass(
        [&] {
            torch::mm_out(c, a, b);
            if (where.is_cuda())
                torch::cuda::synchronize();
        },
        seconds, 3);
    return 2.0 * static_cast<double>(n * n * n) / best;
}

const char *decodeKernel(const std::string &dtype)
{
    return fewRowsKernel(dtype == "bfloat16" ? torch::kBFloat16 : torch::kFloat32);
}

std::vector<FewRowsMeasurement> measureFewRows(const std::string &dtype, const std::vector<int> &rows, int passes)
{
    torch::NoGradGuard noGrad;
    const torch::Dtype dt = dtype == "bfloat16" ? torch::kBFloat16 : torch::kFloat32;
    struct Shape {
        int64_t out, in, count;
    };
    // Qwen3-0.6B's: 28 layers' gate and up (3072 × 1024, 56) and down (1024 × 3072, 28)
    // projections, and the tied head (151,936 × 1024).
    const Shape shapes[] = {{3072, 1024, 56}, {1024, 3072, 28}, {151936, 1024, 1}};
    std::vector<FewRowsMeasurement> out;
    for (const Shape &shape : shapes) {
        std::vector<torch::Tensor> weights;
        for (int64_t i = 0; i < shape.count; ++i)
            weights.push_back(torch::randn({shape.out, shape.in}).to(dt));
        const double bytes = static_cast<double>(shape.out * shape.in * shape.count) * (dt == torch::kBFloat16 ? 2 : 4);
        for (int m : rows) {
            const torch::Tensor x = torch::randn({m, shape.in}).to(dt);
            auto fastest = [&](auto &&product) {
                return bytes / fastestPass(
                                    [&] {
                                        for (const torch::Tensor &w : weights)
                                            product(w);
                                    },
                                    0.0, passes);
            };
            FewRowsMeasurement r;
            r.dtype = dtype;
            r.out = shape.out;
            r.in = shape.in;
            r.count = shape.count;
            r.rows = m;
            r.kernel = decodeKernel(dtype);
            r.atenOp = m == 1 ? "mv" : "linear";
            r.oursBytesPerSecond = fastest([&](const torch::Tensor &w) { return fewRowsLinear(x, w); });
            r.atenBytesPerSecond = fastest([&](const torch::Tensor &w) {
                return m == 1 ? torch::mv(w, x.view({-1})) : torch::nn::functional::linear(x, w);
            });
            out.push_back(r);
        }
    }
    return out;
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
