#pragma once

// Pieces shared by the SFT and GRPO trainers. Internal to core (includes libtorch).

#include <ATen/autocast_mode.h>
#include <string>
#include <torch/torch.h>

namespace rwb::train {

// Autocast to bf16 for the forward pass while alive (CPU or CUDA), restored after.
class AutocastScope {
public:
    AutocastScope(bool enabled, const torch::Device &device);
    ~AutocastScope();
    AutocastScope(const AutocastScope &) = delete;
    AutocastScope &operator=(const AutocastScope &) = delete;

private:
    bool m_cuda;
    bool m_wasEnabled = false;
};

// The learning rate of optimizer step `step` (0-based) of `totalSteps`: a linear warm-up
// over ceil(warmupRatio · totalSteps) steps, then constant ("constant_with_warmup") or a
// cosine to 0 at the last step ("cosine").
double scheduledLearningRate(double base, const std::string &schedule, double warmupRatio, int step, int totalSteps);

void setLearningRate(torch::optim::AdamW &optimizer, double lr);

} // namespace rwb::train
