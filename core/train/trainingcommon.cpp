#include "train/trainingcommon.h"

#include <cmath>

namespace rwb::train {

AutocastScope::AutocastScope(bool enabled, const torch::Device &device) : m_cuda(device.is_cuda())
{
    m_wasEnabled = m_cuda ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
    if (!enabled)
        return;
    if (m_cuda) {
        at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
        at::autocast::set_enabled(true);
    } else {
        at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
        at::autocast::set_cpu_enabled(true);
    }
}

AutocastScope::~AutocastScope()
{
    if (m_cuda)
        at::autocast::set_enabled(m_wasEnabled);
    else
        at::autocast::set_cpu_enabled(m_wasEnabled);
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
