#pragma once

#include <string>
#include <vector>

namespace rwb::model {

// Memory bandwidth as libtorch sees it on this machine: the bytes per second of a
// multi-threaded read and copy over buffers far larger than the caches. The read is the
// faster of a sum and of a matrix-vector product over the buffer (decoding's own access:
// each weight once), each its fastest pass, so that a decode cannot read faster than its
// bound says.
struct MemoryBandwidth {
    double readBytesPerSecond = 0.0;
    std::string readMethod; // "sum" or "mv": the faster
    double copyBytesPerSecond = 0.0; // bytes read + written
    int threads = 0;
    double bufferBytes = 0.0;
};

// Runs for about `seconds` per kind. On the CPU it uses libtorch's thread pool
// (at::get_num_threads()); `device` "cuda" (or "auto" where there is a GPU) measures the
// GPU's memory instead, waiting for the device after every pass.
MemoryBandwidth measureMemoryBandwidth(double seconds = 1.0, double bufferBytes = 1024.0 * 1024 * 1024,
                                       const std::string &device = "cpu");

// The fastest of square products (1024 × 1024 · 1024 × 1024) in `dtype` ("float32" or
// "bfloat16") over about `seconds`, in floating-point operations per second (2 per
// multiply-add): a model's compute bound is this ÷ its operations per token.
double measurePeakFlops(const std::string &dtype, double seconds = 0.5, const std::string &device = "cpu");

// The kernel decoding's 1–64 rows run through for `dtype` ("float32" or "bfloat16") on
// this CPU (model/fusedops.h): "avx512bf16", "avx512", "avx2", "baseline" or "aten".
const char *decodeKernel(const std::string &dtype);

// Decoding's few-rows products in isolation: `rows` rows of x times each of `count`
// [out, in] weight matrices (the 0.6B shape's), the bytes of W read per second through
// fewRowsLinear (model/fusedops.h) and through ATen (mv for one row, F::linear for more),
// the fastest of `passes` passes over all the matrices (far larger than the caches).
struct FewRowsMeasurement {
    std::string dtype;
    int64_t out = 0, in = 0, count = 0;
    int rows = 0;
    std::string kernel;  // decodeKernel(dtype)
    std::string atenOp;  // "mv" or "linear"
    double oursBytesPerSecond = 0.0, atenBytesPerSecond = 0.0;
};
std::vector<FewRowsMeasurement> measureFewRows(const std::string &dtype, const std::vector<int> &rows, int passes = 5);

// libtorch's CPU thread count (0: every core), for callers that do not include libtorch.
void setTorchThreads(int threads);
int torchThreads();

} // namespace rwb::model
