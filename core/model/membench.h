#pragma once

namespace rwb::model {

// Memory bandwidth as libtorch sees it on this machine: the bytes per second of a
// multi-threaded read (sum) and copy over buffers far larger than the caches.
struct MemoryBandwidth {
    double readBytesPerSecond = 0.0;
    double copyBytesPerSecond = 0.0; // bytes read + written
    int threads = 0;
    double bufferBytes = 0.0;
};

// Runs for about `seconds` per kind. Uses libtorch's thread pool (at::get_num_threads()).
MemoryBandwidth measureMemoryBandwidth(double seconds = 1.0, double bufferBytes = 1024.0 * 1024 * 1024);

// libtorch's CPU thread count (0: every core), for callers that do not include libtorch.
void setTorchThreads(int threads);
int torchThreads();

} // namespace rwb::model
