#pragma once

// Fused CPU kernels for the decoder's small element-wise operations, each one pass forward
// and one pass backward where ATen's composition takes several, with fewer temporaries
// (docs/results.md, "Forward + backward against plain PyTorch"). The tiny models this
// project trains spend a third of a step in such passes over [tokens, hidden] rows.
//
// Every function computes the same function as the composition it replaces: on fp32 and
// f64 CPU tensors through its own kernels (the gradient checks run them in f64), on any
// other dtype or device through ATen's operations. tst_fusedops holds the kernels to the
// compositions, values and gradients.

#include <torch/torch.h>

namespace rwb::model {

// weight · x / sqrt(mean(x², last dim) + eps): Qwen's and Llama's RMSNorm, in x's dtype.
torch::Tensor rmsNorm(const torch::Tensor &x, const torch::Tensor &weight, double eps);

// Rotary embedding of x [B, T, H, D] (any strides) at the angles cos, sin [B or 1, 1, T, D]
// (Rope::cosSin): x·cos + rotate_half(x)·sin, returned as [B, H, T, D] (contiguous on the
// fused path) — the layout attention reads.
torch::Tensor rope(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin);

// Inverted dropout: x · keep / (1 − p) with keep ~ Bernoulli(1 − p) per element. The fused
// path draws one seed from the default CPU generator (so torch::manual_seed reproduces it)
// and the mask from a counter-based hash of (seed, element), one pass each way, never
// stored: the backward recomputes it. ATen's dropout draws a Bernoulli per element through
// the generator, writes the mask, and scales it, three passes.
torch::Tensor dropout(const torch::Tensor &x, double p);

// While one lives, dropout() on its thread draws from a generator of its own, seeded
// `seed`, instead of torch's default one; both paths then give what torch::manual_seed(seed)
// followed by dropout() gives. So micro-batches computed at once on several threads each
// reproduce their masks. Scopes nest (the innermost applies); not movable.
class DropoutGeneratorScope {
public:
    explicit DropoutGeneratorScope(uint64_t seed);
    ~DropoutGeneratorScope();
    DropoutGeneratorScope(const DropoutGeneratorScope &) = delete;
    DropoutGeneratorScope &operator=(const DropoutGeneratorScope &) = delete;

private:
    at::Generator m_generator;
    at::Generator *m_outer;
};

// SwiGLU's product silu(gate) · up. Forward: ATen's vectorised sigmoid and one pass;
// backward: the sigmoid again and one pass for both gradients, where autograd takes three
// passes and keeps silu(gate) alive from the forward.
torch::Tensor swiGlu(const torch::Tensor &gate, const torch::Tensor &up);

// The most rows fewRowsLinear takes for weights of this dtype on this CPU (more:
// F::linear): 64 where its AVX-512 or AVX2 kernels run, 16 elsewhere. At 32 rows a worker,
// a GRPO step's generation, MKL's product spent nearly as long packing W at every call as
// multiplying (perf): ours made the tiny model's generation there 1.2–1.3× faster, 1.13–
// 1.17× held to AVX2 (with 3 rows of x a pass there; with 2 it was 0.75× MKL's), and the
// 0.6B shape's at 32 rows 2.1× (fp32) and 1.3× (bf16) (docs/results.md).
int64_t fewRowsMax(torch::ScalarType dtype);

// input [m, in] · weightᵀ for decoding's few rows (m ≤ fewRowsMax) without gradients, on the CPU,
// through kernels of our own that read each weight once for all m rows: fp32 on AVX-512
// or AVX2 + FMA (the widest the CPU has and ATEN_CPU_CAPABILITY allows), bf16 on
// AVX512-BF16's vdpbf16ps. On a 2-core Zen 4 they read W at 30–48 GB/s for 1–2 rows and
// 24–34 for 8, where ATen's mv and linear read 5–19 (docs/results.md). Where no kernel
// applies: ATen's mv (one row) or W·xᵀ (bf16), or a plain vectorised loop (fp32 without
// AVX2). With gradients, more rows or other dtypes: F::linear.
torch::Tensor fewRowsLinear(const torch::Tensor &input, const torch::Tensor &weight);

// Attention of one new token per row (decoding), without gradients, on the CPU: q
// [R, N, 1, D]; the rows' own keys and values k, v [R, K, L, D]; optionally a prefix
// [R/G, K, P, D] that groups of G consecutive rows share ahead of their own
// (KvCache::shareRows; undefined tensors: none); bias [R, 1, 1, P + L], 0 or −inf, fp32.
// Keys and values may be views (a cache's first columns): only their last dimension must
// be contiguous. Returns the heads' outputs side by side, [R, 1, N·D] in q's dtype — what
// o_proj reads. One task per (group, KV head): the group's G·N/K queries read the prefix
// once, 16 queries to a vector (no horizontal sums), and each row's own keys serve its
// N/K queries; scores, softmax and sums in fp32, bf16 keys and values read as they are.
// No output depends on how many threads run. ATen's composition of the same was ~15
// operations a layer, each one's dispatch costing more than its arithmetic for the tiny
// model's few hundred keys (docs/results.md). Returns an undefined tensor where it does
// not apply (gradients, T > 1, other devices, dtypes other than fp32 and bf16, or q, keys
// and values of different dtypes): the caller composes ATen's.
torch::Tensor decodeAttention(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v,
                              const torch::Tensor &prefixKeys, const torch::Tensor &prefixValues, int64_t groupSize,
                              const torch::Tensor &bias);

// Sampling's softmax of one row of n fp32 logits at temperature T > 0, in two passes the
// vectoriser widens: e[i] = exp(x[i]/T − m), m = max x / T, and the return value
// m + log Σ e, so that log p(i) = x[i]/T − it and p(i) ∝ e[i]. A −inf logit gives 0.
// ATen's division, log_softmax, exp and gather took five passes and four allocations a
// step; in a GRPO step's generation sampling was 6.5 % of the time (perf).
float temperedExp(const float *x, int64_t n, double temperature, float *e);

// Which kernel fewRowsLinear runs for rows of this dtype on this CPU: "avx512bf16",
// "avx512", "avx2", "baseline" (our own) or "aten". For benchmarks' and tests' output.
const char *fewRowsKernel(torch::ScalarType dtype);

// Whether the fused kernels run on x (fp32 or f64 on CPU). For tests.
bool fusedKernelsApply(const torch::Tensor &x);

} // namespace rwb::model
