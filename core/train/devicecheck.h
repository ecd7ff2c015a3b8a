#pragma once

// Whether this build of the engine computes the decoder and its gradients right on a
// device: `rwb model check`. Users who build against another libtorch (a CUDA one, see
// docs/gpu.md) run it once on the new machine; every figure is measured against a
// reference worked out another way (the CPU in float64, the full sequence without a
// cache, finite differences), so nothing has to be trusted from the device itself.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace rwb::train {

struct DeviceCheckOptions {
    std::string device = "auto";   // "cpu", "cuda" or "auto"
    std::string dtype = "float32"; // the forward checks' dtype: float32, bfloat16 or float64
    // A Hugging Face model folder to check the forward on; empty: tiny random Qwen3, Qwen2
    // and Llama decoders. The gradient checks always use a tiny random Qwen3 with LoRA.
    std::string modelDir;
    int threads = 0;               // CPU threads (0: auto, model/threads.h)
    uint64_t seed = 1;
};

struct DeviceCheckResult {
    std::string check;     // logits, kv_cache, left_padding, greedy, seeded_sampling, gradient, gradient_vs_cpu
    std::string model;     // "qwen3 (random)" or the folder
    std::string measure;   // what `value` is, in words
    double value = 0.0;
    double tolerance = 0.0; // passed: value ≤ tolerance
    bool passed = false;
    double seconds = 0.0;
};

struct DeviceCheckReport {
    std::string device; // "cpu" or "cuda:0"
    std::string dtype;
    std::vector<DeviceCheckResult> results;
    bool passed() const;
};

// Runs every check; `each` sees each result as it is made. Throws data::InputException
// for a model folder that cannot be loaded, std::runtime_error for a device that is not
// there ("cuda" without a GPU) or a dtype it does not know.
DeviceCheckReport checkDevice(const DeviceCheckOptions &options,
                              const std::function<void(const DeviceCheckResult &)> &each = {});

// The tolerance of the forward checks for a compute dtype: the largest relative
// difference (max |Δlogit| / max |logit|) a correct decoder shows in it (measured on the
// tiny random decoders: 4e-7 in float32, 0.010 in bf16, 7e-16 in float64; tolerances
// 1e-4, 0.05 and 1e-10).
double forwardTolerance(const std::string &dtype);
// The tolerance of gradient_vs_cpu: the worst relative error of a LoRA tensor's gradient
// as training takes it in `dtype` (measured on a correct build: 5e-7 in float32, 0.023 in
// bf16; tolerances 1e-4 and 0.1).
double gradientTolerance(const std::string &dtype);

} // namespace rwb::train
