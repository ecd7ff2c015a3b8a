#include "model/threads.h"

#include "model/causallminternals.h"
#include "model/precision.h"
#include "util/machinecache.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

namespace rwb::model {

namespace fs = std::filesystem;

namespace {

// Every core is chosen when the check takes at most this share of its 1-thread time: a
// second thread that gains less than that is lost to the other jobs of a shared machine.
constexpr double kThreadsMargin = 0.8;

std::string fixed2(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

int positive(const char *text)
{
    if (!text || !*text)
        return 0;
    char *end = nullptr;
    const long n = std::strtol(text, &end, 10);
    return end && *end == '\0' && n > 0 && n <= 1024 ? static_cast<int>(n) : 0;
}

// Median milliseconds of the tiny default decoder layer's products on a batch of 16 rows of
// 64 tokens (hidden 256, MLP 768, 4 heads of 64), forward and backward, fp32: the shapes
// the demo's SFT and GRPO steps are made of.
double timeLayer(int threads)
{
    const int before = at::get_num_threads();
    at::set_num_threads(threads);
    torch::manual_seed(0);
    const int64_t rows = 16 * 64, hidden = 256, inner = 768, heads = 4, len = 64, dim = 64;
    const torch::Tensor x = torch::randn({rows, hidden}).requires_grad_(true);
    const torch::Tensor wq = torch::randn({hidden, hidden}) * 0.05;
    const torch::Tensor wg = torch::randn({inner, hidden}) * 0.05;
    const torch::Tensor wu = torch::randn({inner, hidden}) * 0.05;
    const torch::Tensor wd = torch::randn({hidden, inner}) * 0.05;
    auto once = [&] {
        namespace F = torch::nn::functional;
        const torch::Tensor q = F::linear(x, wq).view({16, len, heads, dim}).transpose(1, 2);
        const torch::Tensor att = torch::softmax(torch::matmul(q, q.transpose(-1, -2)) * 0.125, -1);
        const torch::Tensor h = x + torch::matmul(att, q).transpose(1, 2).reshape({rows, hidden});
        const torch::Tensor y = h + F::linear(F::silu(F::linear(h, wg)) * F::linear(h, wu), wd);
        y.pow(2).mean().backward();
    };
    for (int i = 0; i < 2; ++i)
        once();
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        once();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    at::set_num_threads(before);
    std::nth_element(ms.begin(), ms.begin() + 3, ms.end());
    return ms[3];
}

fs::path cachePath()
{
    return util::machineCachePath("RWB_THREADS_CACHE", "threads.json");
}

std::string machineKey(int cores)
{
    const CpuFeatures cpu = cpuAsLibrariesUseIt();
    const char *mkl = std::getenv("MKL_ENABLE_INSTRUCTIONS");
    return cpu.modelName + " | " + describeFlags(cpu) + (mkl && *mkl ? std::string(" mkl ") + mkl : "") + " | " +
           std::to_string(cores) + " cores | libtorch " + TORCH_VERSION;
}

ThreadsTiming cachedTiming(int cores, bool *fromCache)
{
    const std::string key = machineKey(cores);
    if (const auto cached = util::readMachineCache(cachePath(), key, {"one_thread_ms", "all_cores_ms"})) {
        *fromCache = true;
        return {(*cached)[0], (*cached)[1]};
    }
    *fromCache = false;
    ThreadsTiming t;
    t.oneMs = timeLayer(1);
    t.allMs = timeLayer(cores);
    util::writeMachineCache(cachePath(), key, {{"one_thread_ms", t.oneMs}, {"all_cores_ms", t.allMs}});
    return t;
}

} // namespace

ThreadsChoice chooseThreads(int requested, const char *envThreads, int cores, const std::optional<ThreadsTiming> &timing)
{
    if (requested > 0)
        return {requested, std::to_string(requested) + (requested == 1 ? " thread" : " threads") + " as asked"};
    if (const int env = positive(envThreads))
        return {env, std::to_string(env) + (env == 1 ? " thread" : " threads") + " from RWB_THREADS"};
    cores = std::max(1, cores);
    if (cores == 1)
        return {1, "auto: 1 thread (one core)"};
    if (!timing)
        return {1, "auto: 1 thread (no timing of " + std::to_string(cores) + " cores)"};
    const bool all = timing->allMs <= kThreadsMargin * timing->oneMs;
    const std::string timed = " (timed decoder layer forward + backward: 1 thread " + fixed2(timing->oneMs) + " ms, " +
                              std::to_string(cores) + " threads " + fixed2(timing->allMs) + " ms)";
    if (all)
        return {cores, "auto: " + std::to_string(cores) + " threads" + timed};
    return {1, "auto: 1 thread: " + std::to_string(cores) + " threads take more than " + fixed2(kThreadsMargin) +
                   " of its time" + timed};
}

ThreadsChoice resolveThreads(int requested)
{
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const char *env = std::getenv("RWB_THREADS");
    if (requested > 0 || positive(env) || cores == 1)
        return chooseThreads(requested, env, cores, std::nullopt);
    static std::mutex mutex;
    static std::optional<ThreadsChoice> known;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!known) {
        bool fromCache = false;
        const ThreadsTiming t = cachedTiming(cores, &fromCache);
        known = chooseThreads(0, nullptr, cores, t);
        known->reason += fromCache ? " [timing cached in " + cachePath().string() + "]" : " [timed now]";
    }
    return *known;
}

} // namespace rwb::model
