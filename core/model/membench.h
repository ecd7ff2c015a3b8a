#pragma once

#include <string>

namespace rwb::model {

// Memory bandwidth as libtorch sees it on this machine: the bytes per second of a
// multi-threaded read (sum) and copy over buffers far larger than the caches.
struct MemoryBandwidth {
    double readBytesPerSecond = 0.0;
    double copyBytesPerSecond = 0.0; // bytes read + written
    int threads = 0;
    double bufferBytes = 0.0;
};

// Runs for about `seconds` per kind. On the CPU it uses libtorch's thread pool
// (at::get_num_threads()); `device` "cuda" (or "auto" where there is a GPU) measures the
// GPU's memory instead, waiting for the device after every pass.
MemoryBandwidth measureMemoryBandwidth(double seconds = 1.0, double bufferBytes = 1024.0 * 1024 * 1024,
                                       const std::string &device = "cpu");

// libtorch's CPU thread count (0: every core), for callers that do not include libtorch.
void setTorchThreads(int threads);
int torchThreads();

} // namespace rwb::model
