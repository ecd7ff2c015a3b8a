#pragma once

// Which precision the products run in, chosen from what the machine does fast.
//
// libtorch 1.13's bf16 matrix products go through oneDNN: on a CPU with AMX-BF16 or
// AVX512-BF16 they are several times faster than fp32; on an AVX2-only CPU they are
// emulated and about 14× slower (a 64×256 · 256×768 linear, forward + backward: 49 ms
// against 3.6 ms in fp32, measured on an AMD EPYC without AVX-512). So "auto":
//   CUDA                         bf16 when a timed bf16 product beats fp32 (Ampere and later)
//   CPU with AMX-BF16            bf16
//   CPU without AVX512-BF16/AMX  fp32, untimed
//   (the flags are those ATEN_CPU_CAPABILITY and ONEDNN_MAX_CPU_ISA leave, see limitToLibraries)
//   CPU with AVX512-BF16 only    a timed check (bf16 chosen when at most 0.8× fp32's time),
//                                cached per machine in $XDG_CACHE_HOME/reward-workbench
// docs/results.md has the figures of each kind of CPU measured.

#include <optional>
#include <string>

namespace rwb::model {

struct CpuFeatures {
    std::string modelName; // /proc/cpuinfo's "model name"
    bool avx2 = false;
    bool avx512f = false;
    bool avx512bf16 = false;
    bool amxbf16 = false;
    // Set when an environment variable holds ATen or oneDNN below what the CPU has:
    // "ATEN_CPU_CAPABILITY=avx2", for messages.
    std::string heldBy;
};

// Reads /proc/cpuinfo (or `path`); a file that cannot be read gives no features.
CpuFeatures readCpuFeatures(const std::string &path = "/proc/cpuinfo");
// `cpu` as ATen and oneDNN will use it: ATEN_CPU_CAPABILITY ("default", "avx2") and
// ONEDNN_MAX_CPU_ISA (or DNNL_MAX_CPU_ISA: "AVX2", "AVX512_CORE", "AVX512_CORE_BF16", …)
// hold them below the CPU's flags, and then bf16 is emulated however /proc/cpuinfo reads.
// Pure: the values are passed in (null or empty: not set); an unknown value limits nothing.
CpuFeatures limitToLibraries(CpuFeatures cpu, const char *atenCapability, const char *onednnMaxIsa);
// This machine's CPU as its libraries will use it: readCpuFeatures() limited by
// $ATEN_CPU_CAPABILITY and $ONEDNN_MAX_CPU_ISA (or $DNNL_MAX_CPU_ISA).
CpuFeatures cpuAsLibrariesUseIt();
// "avx2 avx512f avx512_bf16" — what of the above the CPU has, for messages and cache keys.
std::string describeFlags(const CpuFeatures &cpu);

// One timed check: milliseconds of a bf16 and an fp32 linear forward + backward.
struct PrecisionTiming {
    double bf16Ms = 0.0;
    double fp32Ms = 0.0;
};

struct PrecisionChoice {
    bool bf16 = false;
    std::string reason; // one line: what was asked, what the machine has, what was chosen and why
    std::string name() const { return bf16 ? "bf16" : "fp32"; }
};

// The rule above for a CPU, given its features and (for AVX512-BF16 without AMX) a
// timing; pure, so that every branch is testable on any machine. `requested` is "auto",
// "bf16" or "fp32"; an explicit choice is kept and its reason says what it costs here.
// Without a timing where one is needed, fp32.
PrecisionChoice choosePrecision(const std::string &requested, const CpuFeatures &cpu,
                                const std::optional<PrecisionTiming> &timing);

// choosePrecision on this machine for `device` ("cpu", "cuda" or "auto", as ModelOptions
// says), running (and caching) the timed check when the rule needs it. Thread-safe; the
// result is kept for the life of the process.
PrecisionChoice resolvePrecision(const std::string &requested, const std::string &device = "auto");

// The compute dtype of a model's weights: `requested` ("float32", "bfloat16", "float64"
// or "auto") with "auto" taking the config's torch_dtype, except that bf16 weights
// compute in float32 where resolvePrecision("auto") says bf16 is slow. float16 becomes
// float32 (not implemented on CPU in 1.13).
std::string resolveDtype(const std::string &requested, const std::string &configDtype, const std::string &device);

} // namespace rwb::model
