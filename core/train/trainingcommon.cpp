#include "train/trainingcommon.h"

#include <torch/version.h>

#include <cmath>

namespace rwb::train {

// libtorch 2.4 made autocast's C++ switches take the device type and deprecated the
// per-device ones (set_autocast_gpu_dtype, set_cpu_enabled …), due to go; Debian's 1.13
// has only those. The build against a CUDA libtorch (docs/gpu.md) takes the new ones.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
namespace {
c10::DeviceType autocastType(bool cuda)
{
    return cuda ? c10::DeviceType::CUDA : c10::DeviceType::CPU;
}
bool autocastEnabled(bool cuda)
{
    return at::autocast::is_autocast_enabled(autocastType(cuda));
}
void setAutocast(bool cuda, bool enabled)
{
    if (enabled)
        at::autocast::set_autocast_dtype(autocastType(cuda), at::kBFloat16);
    at::autocast::set_autocast_enabled(autocastType(cuda), enabled);
}
} // namespace
#else
namespace {
bool autocastEnabled(bool cuda)
{
    return cuda ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}
void setAutocast(bool cuda, bool enabled)
{
    if (cuda) {
        if (enabled)
            at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
        at::autocast::set_enabled(enabled);
    } else {
        if (enabled)
            at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
        at::autocast::set_cpu_enabled(enabled);
    }
}
} // namespace
#endif

AutocastScope::AutocastScope(bool enabled, const torch::Device &device) : m_cuda(device.is_cuda())
{
    m_wasEnabled = autocastEnabled(m_cuda);
    if (enabled)
        setAutocast(m_cuda, true);
}

AutocastScope::~AutocastScope()
{
    setAutocast(m_cuda, m_wasEnabled);
    at::autocast::clear_cache();
}

double scheduledLearningRate(double base, const std::string &schedule, double warmupRatio, int step, int totalSteps)
{
    const int warmup = static_cast<int>(std::ceil(warmupRatio * totalSteps));
    if (step < warmup)
        return base * static_cast<double>(step + 1) / static_cast<double>(warmup);
    if (schedule == "cosine" && totalSteps > warmup) {
        const double progress = static_cast<double>(step - warmup) / static_cast<double>(totalSteps - warmup);
        return base * 0.5 * (1.0 + std::cos(M_PI * progress));
    }
    return base;
}

void setLearningRate(torch::optim::AdamW &optimizer, double lr)
{
    for (auto &group : optimizer.param_groups())
        static_cast<torch::optim::AdamWOptions &>(group.options()).lr(lr);
}

} // namespace rwb::train
