#include "model/precision.h"

#include "model/causallminternals.h"
#include "util/machinecache.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

namespace rwb::model {

namespace fs = std::filesystem;

namespace {

// bf16 is taken when its timed product costs at most this share of fp32's.
constexpr double kBf16Margin = 0.8;

std::string fixed2(double v)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(2);
    s << v;
    return s.str();
}

std::string cpuName(const CpuFeatures &cpu)
{
    const std::string name = cpu.modelName.empty() ? std::string("this CPU") : cpu.modelName;
    return cpu.heldBy.empty() ? name : name + " (held by " + cpu.heldBy + ")";
}

std::string upper(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

void dropAvx512(CpuFeatures &cpu)
{
    cpu.avx512f = cpu.avx512bf16 = cpu.amxbf16 = false;
}

// Median milliseconds of a [64, 256] × [256, 768] linear forward + backward in `dtype` on
// `device`, one thread on CPU (two threads fight the other core's load and time that).
double timeLinear(torch::Dtype dtype, const torch::Device &device)
{
    torch::manual_seed(0);
    const auto opts = torch::TensorOptions().dtype(dtype).device(device);
    const torch::Tensor x = torch::randn({64, 256}, opts).requires_grad_(true);
    const torch::Tensor w = torch::randn({768, 256}, opts).requires_grad_(true);
    auto once = [&] {
        torch::nn::functional::linear(x, w).sum().backward();
        (void)w.grad().sum().item<double>(); // waits for a GPU
    };
    for (int i = 0; i < 3; ++i)
        once();
    std::vector<double> ms;
    for (int i = 0; i < 9; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        once();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::nth_element(ms.begin(), ms.begin() + 4, ms.end());
    return ms[4];
}

PrecisionTiming timeBoth(const torch::Device &device)
{
    const int threads = at::get_num_threads();
    if (device.is_cpu())
        at::set_num_threads(1);
    PrecisionTiming t;
    t.fp32Ms = timeLinear(torch::kFloat32, device);
    t.bf16Ms = timeLinear(torch::kBFloat16, device);
    if (device.is_cpu())
        at::set_num_threads(threads);
    return t;
}

fs::path cachePath()
{
    return util::machineCachePath("RWB_PRECISION_CACHE", "precision.json");
}

// The timing cached for this CPU and libtorch, or a new one written to the cache.
PrecisionTiming cachedCpuTiming(const CpuFeatures &cpu, bool *fromCache)
{
    const std::string key = cpu.modelName + " | " + describeFlags(cpu) + " | libtorch " + TORCH_VERSION;
    if (const auto cached = util::readMachineCache(cachePath(), key, {"bf16_ms", "fp32_ms"})) {
        *fromCache = true;
        return {(*cached)[0], (*cached)[1]};
    }
    *fromCache = false;
    const PrecisionTiming t = timeBoth(torch::kCPU);
    util::writeMachineCache(cachePath(), key, {{"bf16_ms", t.bf16Ms}, {"fp32_ms", t.fp32Ms}});
    return t;
}

} // namespace

CpuFeatures readCpuFeatures(const std::string &path)
{
    CpuFeatures cpu;
    std::ifstream in(path);
    std::string line;
    bool haveFlags = false;
    while (std::getline(in, line)) {
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string key = line.substr(0, colon);
        key.erase(key.find_last_not_of(" \t") + 1);
        const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : std::string();
        if (key == "model name" && cpu.modelName.empty()) {
            cpu.modelName = value;
        } else if (key == "flags" && !haveFlags) {
            haveFlags = true;
            std::istringstream words(value);
            for (std::string w; words >> w;) {
                cpu.avx2 = cpu.avx2 || w == "avx2";
                cpu.avx512f = cpu.avx512f || w == "avx512f";
                cpu.avx512bf16 = cpu.avx512bf16 || w == "avx512_bf16";
                cpu.amxbf16 = cpu.amxbf16 || w == "amx_bf16";
            }
        }
    }
    return cpu;
}

CpuFeatures limitToLibraries(CpuFeatures cpu, const char *atenCapability, const char *onednnMaxIsa)
{
    const CpuFeatures before = cpu;
    std::string held;
    if (atenCapability && *atenCapability) {
        // ATen's dispatch reads this once and only ever lowers the capability.
        const std::string v = upper(atenCapability);
        if (v == "DEFAULT" || v == "AVX2") {
            dropAvx512(cpu);
            if (v == "DEFAULT")
                cpu.avx2 = false;
            held = "ATEN_CPU_CAPABILITY=" + std::string(atenCapability);
        }
    }
    if (onednnMaxIsa && *onednnMaxIsa) {
        const std::string v = upper(onednnMaxIsa);
        const bool amx = v == "ALL" || v.find("AMX") != std::string::npos;
        const bool bf16 = amx || v.find("BF16") != std::string::npos || v.find("FP16") != std::string::npos ||
                          v.rfind("AVX10", 0) == 0;
        const bool avx512 = bf16 || v.rfind("AVX512", 0) == 0;
        const bool known = amx || bf16 || avx512 || v.rfind("AVX", 0) == 0 || v.rfind("SSE", 0) == 0;
        if (known) {
            const bool lowered = (!amx && before.amxbf16) || (!bf16 && before.avx512bf16) || (!avx512 && before.avx512f);
            cpu.amxbf16 = cpu.amxbf16 && amx;
            cpu.avx512bf16 = cpu.avx512bf16 && bf16;
            cpu.avx512f = cpu.avx512f && avx512;
            if (lowered)
                held += (held.empty() ? "" : ", ") + std::string("ONEDNN_MAX_CPU_ISA=") + onednnMaxIsa;
        }
    }
    const bool changed = before.avx2 != cpu.avx2 || before.avx512f != cpu.avx512f ||
                         before.avx512bf16 != cpu.avx512bf16 || before.amxbf16 != cpu.amxbf16;
    if (changed)
        cpu.heldBy = held;
    return cpu;
}

CpuFeatures cpuAsLibrariesUseIt()
{
    const char *onednn = std::getenv("ONEDNN_MAX_CPU_ISA");
    if (!onednn || !*onednn)
        onednn = std::getenv("DNNL_MAX_CPU_ISA");
    return limitToLibraries(readCpuFeatures(), std::getenv("ATEN_CPU_CAPABILITY"), onednn);
}

std::string describeFlags(const CpuFeatures &cpu)
{
    std::string s;
    for (const auto &[on, name] : {std::pair{cpu.avx2, "avx2"}, std::pair{cpu.avx512f, "avx512f"},
                                   std::pair{cpu.avx512bf16, "avx512_bf16"}, std::pair{cpu.amxbf16, "amx_bf16"}})
        if (on)
            s += (s.empty() ? "" : " ") + std::string(name);
    return s.empty() ? "none of avx2, avx512f, avx512_bf16, amx_bf16" : s;
}

PrecisionChoice choosePrecision(const std::string &requested, const CpuFeatures &cpu,
                                const std::optional<PrecisionTiming> &timing)
{
    const bool nativeBf16 = cpu.amxbf16 || cpu.avx512bf16;
    const std::string timed = timing ? " (timed linear forward + backward: bf16 " + fixed2(timing->bf16Ms) +
                                           " ms, fp32 " + fixed2(timing->fp32Ms) + " ms)"
                                     : std::string();
    PrecisionChoice c;
    if (requested == "fp32") {
        c.reason = "fp32 as asked";
        if (cpu.amxbf16 || (timing && timing->bf16Ms <= kBf16Margin * timing->fp32Ms))
            c.reason += "; bf16 would be faster on " + cpuName(cpu) + timed;
        return c;
    }
    if (requested == "bf16") {
        c.bf16 = true;
        c.reason = "bf16 as asked";
        if (!nativeBf16)
            c.reason += "; " + cpuName(cpu) + " has no AVX512-BF16 or AMX, so bf16 products are emulated, "
                        "about 14x slower than fp32";
        else if (timing && timing->bf16Ms > kBf16Margin * timing->fp32Ms)
            c.reason += "; slower than fp32 on " + cpuName(cpu) + timed;
        return c;
    }
    if (cpu.amxbf16) {
        c.bf16 = true;
        c.reason = "auto: " + cpuName(cpu) + " has AMX-BF16: bf16";
    } else if (!cpu.avx512bf16) {
        c.reason = "auto: " + cpuName(cpu) + " has no AVX512-BF16 or AMX (" + describeFlags(cpu) +
                   "), where bf16 products are emulated and about 14x slower: fp32";
    } else if (!timing) {
        c.reason = "auto: " + cpuName(cpu) + " has AVX512-BF16 without AMX and was not timed: fp32";
    } else {
        c.bf16 = timing->bf16Ms <= kBf16Margin * timing->fp32Ms;
        c.reason = "auto: " + cpuName(cpu) + " has AVX512-BF16 without AMX" + timed + ": " + c.name();
    }
    return c;
}

PrecisionChoice resolvePrecision(const std::string &requested, const std::string &device)
{
    static std::mutex mutex;
    static std::map<std::pair<std::string, std::string>, PrecisionChoice> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const torch::Device dev = pickDevice(device);
    const auto key = std::make_pair(requested, dev.str());
    if (auto it = known.find(key); it != known.end())
        return it->second;
    PrecisionChoice c;
    if (dev.is_cuda()) {
        const PrecisionTiming t = timeBoth(dev);
        const bool fast = t.bf16Ms <= kBf16Margin * t.fp32Ms;
        const std::string timed = " (timed: bf16 " + fixed2(t.bf16Ms) + " ms, fp32 " + fixed2(t.fp32Ms) + " ms)";
        if (requested == "fp32")
            c = {false, "fp32 as asked on CUDA" + timed};
        else if (requested == "bf16")
            c = {true, "bf16 as asked on CUDA" + timed};
        else
            c = {fast, std::string("auto: CUDA ") + (fast ? "runs bf16 fast" : "runs bf16 no faster than fp32") + timed +
                           ": " + (fast ? "bf16" : "fp32")};
    } else {
        const CpuFeatures cpu = cpuAsLibrariesUseIt();
        std::optional<PrecisionTiming> timing;
        bool fromCache = false;
        if (cpu.avx512bf16 && !cpu.amxbf16)
            timing = cachedCpuTiming(cpu, &fromCache);
        c = choosePrecision(requested, cpu, timing);
        if (timing)
            c.reason += fromCache ? " [timing cached in " + cachePath().string() + "]" : " [timed now]";
    }
    known[key] = c;
    return c;
}

std::string resolveDtype(const std::string &requested, const std::string &configDtype, const std::string &device)
{
    const std::string want = requested == "auto" ? configDtype : requested;
    if (want == "float64" || want == "double")
        return "float64";
    if (want == "bfloat16" || want == "bf16")
        return requested == "auto" && !resolvePrecision("auto", device).bf16 ? "float32" : "bfloat16";
    return "float32";
}

} // namespace rwb::model
