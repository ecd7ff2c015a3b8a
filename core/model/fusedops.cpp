#include "model/fusedops.h"

#include "model/transformer.h"

#include <ATen/Parallel.h>
#include <ATen/CPUGeneratorImpl.h>

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <mutex>
#include <type_traits>
#include <vector>

namespace rwb::model {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::tensor_list;

// Rows per task of at::parallel_for: a few hundred keep the threads' share of a tiny
// model's [tokens, 256] tensors above the cost of waking them.
constexpr int64_t kRowGrain = 256;
constexpr int64_t kElementGrain = 1 << 15;

// The gradient of an input that has none: a number (eps, a seed, p) or a tensor the caller
// does not differentiate (RoPE's angles). libtorch reads an undefined tensor so.
const torch::Tensor kNoGradient;

bool fusable(const torch::Tensor &x)
{
    return x.defined() && x.device().is_cpu() && (x.scalar_type() == torch::kFloat32 || x.scalar_type() == torch::kFloat64)
        && !x.is_sparse();
}

// ---- RMSNorm ------------------------------------------------------------------------------

template <typename T>
void rmsForward(const T *x, const T *w, T *y, T *rstd, int64_t rows, int64_t d, double eps)
{
    at::parallel_for(0, rows, kRowGrain, [&](int64_t from, int64_t to) {
        for (int64_t r = from; r < to; ++r) {
            const T *xr = x + r * d;
            T *yr = y + r * d;
            T ss = 0;
#pragma omp simd reduction(+ : ss)
            for (int64_t i = 0; i < d; ++i)
                ss += xr[i] * xr[i];
            const T inv = static_cast<T>(1.0 / std::sqrt(static_cast<double>(ss) / static_cast<double>(d) + eps));
            rstd[r] = inv;
#pragma omp simd
            for (int64_t i = 0; i < d; ++i)
                yr[i] = (xr[i] * inv) * w[i];
        }
    });
}

// gx = rstd · (g·w − x̂ · mean(g·w·x̂)), x̂ = x · rstd; gw = Σ_rows g · x̂ (when wanted).
template <typename T>
void rmsBackward(const T *g, const T *x, const T *w, const T *rstd, T *gx, T *gw, int64_t rows, int64_t d)
{
    const int threads = at::get_num_threads();
    std::vector<double> partial(gw ? static_cast<size_t>(threads) * static_cast<size_t>(d) : 0, 0.0);
    at::parallel_for(0, rows, kRowGrain, [&](int64_t from, int64_t to) {
        double *acc = gw ? partial.data() + static_cast<size_t>(at::get_thread_num()) * static_cast<size_t>(d) : nullptr;
        for (int64_t r = from; r < to; ++r) {
            const T *gr = g + r * d, *xr = x + r * d;
            const T inv = rstd[r];
            T dot = 0;
#pragma omp simd reduction(+ : dot)
            for (int64_t i = 0; i < d; ++i)
                dot += gr[i] * w[i] * xr[i];
            const T c = dot * inv * inv / static_cast<T>(d); // mean(g·w·x̂) · rstd, x̂ = x · rstd
            T *gxr = gx + r * d;
#pragma omp simd
            for (int64_t i = 0; i < d; ++i)
                gxr[i] = inv * (gr[i] * w[i] - xr[i] * c);
            if (acc)
                for (int64_t i = 0; i < d; ++i)
                    acc[i] += static_cast<double>(gr[i]) * static_cast<double>(xr[i] * inv);
        }
    });
    if (gw) {
        for (int64_t i = 0; i < d; ++i) {
            double s = 0.0;
            for (int t = 0; t < threads; ++t)
                s += partial[static_cast<size_t>(t) * static_cast<size_t>(d) + static_cast<size_t>(i)];
            gw[i] = static_cast<T>(s);
        }
    }
}

struct RmsNormFunction : torch::autograd::Function<RmsNormFunction> {
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &input, const torch::Tensor &weight, double eps)
    {
        const torch::Tensor x = input.contiguous();
        const torch::Tensor w = weight.contiguous();
        const int64_t d = x.size(-1);
        const int64_t rows = d > 0 ? x.numel() / d : 0;
        torch::Tensor y = torch::empty_like(x);
        torch::Tensor rstd = torch::empty({rows}, x.options());
        AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rwb_rms_norm", [&] {
            rmsForward<scalar_t>(x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
                                 rstd.data_ptr<scalar_t>(), rows, d, eps);
        });
        ctx->save_for_backward({x, w, rstd});
        return y;
    }

    static tensor_list backward(AutogradContext *ctx, tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &x = saved[0], &w = saved[1], &rstd = saved[2];
        const torch::Tensor g = grads[0].contiguous();
        const int64_t d = x.size(-1);
        const int64_t rows = d > 0 ? x.numel() / d : 0;
        torch::Tensor gx = torch::empty_like(x);
        torch::Tensor gw = ctx->needs_input_grad(1) ? torch::empty_like(w) : kNoGradient;
        AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rwb_rms_norm_backward", [&] {
            rmsBackward<scalar_t>(g.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), w.data_ptr<scalar_t>(),
                                  rstd.data_ptr<scalar_t>(), gx.data_ptr<scalar_t>(),
                                  gw.defined() ? gw.data_ptr<scalar_t>() : nullptr, rows, d);
        });
        return {gx, gw, kNoGradient};
    }
};

// ---- RoPE ---------------------------------------------------------------------------------

// out[b, h, t] = x[b, t, h]·c + rotate_half(x[b, t, h])·s, c and s the row (b mod cb, t).
// With `inverse`, the transpose: from g [B, H, T, D] to gx [B, T, H, D], which is the same
// rotation by −angle (c, −s) read from the other layout.
template <typename T>
void ropeKernel(const T *in, const T *c, const T *s, T *out, int64_t b, int64_t tn, int64_t h, int64_t d, int64_t cb,
                bool inverse)
{
    const int64_t half = d / 2;
    at::parallel_for(0, b * tn, std::max<int64_t>(1, kRowGrain / std::max<int64_t>(1, h)), [&](int64_t from, int64_t to) {
        for (int64_t bt = from; bt < to; ++bt) {
            const int64_t bi = bt / tn, ti = bt % tn;
            const T *cr = c + ((bi % cb) * tn + ti) * d;
            const T *sr = s + ((bi % cb) * tn + ti) * d;
            for (int64_t hi = 0; hi < h; ++hi) {
                const int64_t btLayout = ((bi * tn + ti) * h + hi) * d; // [B, T, H, D]
                const int64_t bhLayout = ((bi * h + hi) * tn + ti) * d; // [B, H, T, D]
                const T *xr = in + (inverse ? bhLayout : btLayout);
                T *o = out + (inverse ? btLayout : bhLayout);
                if (!inverse) {
#pragma omp simd
                    for (int64_t i = 0; i < half; ++i) {
                        o[i] = xr[i] * cr[i] - xr[i + half] * sr[i];
                        o[i + half] = xr[i + half] * cr[i + half] + xr[i] * sr[i + half];
                    }
                } else {
#pragma omp simd
                    for (int64_t i = 0; i < half; ++i) {
                        o[i] = xr[i] * cr[i] + xr[i + half] * sr[i + half];
                        o[i + half] = xr[i + half] * cr[i + half] - xr[i] * sr[i];
                    }
                }
            }
        }
    });
}

torch::Tensor ropeRun(const torch::Tensor &in, const torch::Tensor &cos, const torch::Tensor &sin, int64_t b, int64_t tn,
                      int64_t h, int64_t d, bool inverse)
{
    const torch::Tensor x = in.contiguous();
    const torch::Tensor c = cos.contiguous(), s = sin.contiguous();
    const int64_t cb = c.size(0);
    torch::Tensor out = inverse ? torch::empty({b, tn, h, d}, x.options()) : torch::empty({b, h, tn, d}, x.options());
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rwb_rope", [&] {
        ropeKernel<scalar_t>(x.data_ptr<scalar_t>(), c.data_ptr<scalar_t>(), s.data_ptr<scalar_t>(),
                             out.data_ptr<scalar_t>(), b, tn, h, d, cb, inverse);
    });
    return out;
}

struct RopeFunction : torch::autograd::Function<RopeFunction> {
    // x [B, T, H, D]; cos, sin [cb, T, D].
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &x, const torch::Tensor &cos,
                                 const torch::Tensor &sin)
    {
        ctx->save_for_backward({cos, sin});
        return ropeRun(x, cos, sin, x.size(0), x.size(1), x.size(2), x.size(3), false);
    }

    static tensor_list backward(AutogradContext *ctx, tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &g = grads[0]; // [B, H, T, D]
        return {ropeRun(g, saved[0], saved[1], g.size(0), g.size(2), g.size(1), g.size(3), true), kNoGradient,
                kNoGradient};
    }
};

// ---- SwiGLU ------------------------------------------------------------------------------

template <typename T>
void swiGluForward(const T *g, const T *u, T *y, int64_t n)
{
    at::parallel_for(0, n, kElementGrain, [&](int64_t from, int64_t to) {
#pragma omp simd
        for (int64_t i = from; i < to; ++i)
            y[i] = g[i] * y[i] * u[i]; // y holds sigmoid(g)
    });
}

// d/dg [g·σ(g)·u] = u·σ(g)·(1 + g·(1 − σ(g))); d/du = g·σ(g). `s` holds σ(g) and is
// overwritten with the gate's gradient.
template <typename T>
void swiGluBackward(const T *go, const T *g, const T *u, T *s, T *gu, int64_t n)
{
    at::parallel_for(0, n, kElementGrain, [&](int64_t from, int64_t to) {
#pragma omp simd
        for (int64_t i = from; i < to; ++i) {
            const T sg = s[i];
            const T silu = g[i] * sg;
            if (gu)
                gu[i] = go[i] * silu;
            s[i] = go[i] * u[i] * (sg + silu * (T(1) - sg));
        }
    });
}

struct SwiGluFunction : torch::autograd::Function<SwiGluFunction> {
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &gate, const torch::Tensor &up)
    {
        const torch::Tensor g = gate.contiguous(), u = up.contiguous();
        torch::Tensor y = torch::sigmoid(g);
        AT_DISPATCH_FLOATING_TYPES(g.scalar_type(), "rwb_swiglu", [&] {
            swiGluForward<scalar_t>(g.data_ptr<scalar_t>(), u.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), g.numel());
        });
        ctx->save_for_backward({g, u});
        return y;
    }

    static tensor_list backward(AutogradContext *ctx, tensor_list grads)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &g = saved[0], &u = saved[1];
        const torch::Tensor go = grads[0].contiguous();
        torch::Tensor gg = torch::sigmoid(g);
        torch::Tensor gu = ctx->needs_input_grad(1) ? torch::empty_like(u) : kNoGradient;
        AT_DISPATCH_FLOATING_TYPES(g.scalar_type(), "rwb_swiglu_backward", [&] {
            swiGluBackward<scalar_t>(go.data_ptr<scalar_t>(), g.data_ptr<scalar_t>(), u.data_ptr<scalar_t>(),
                                     gg.data_ptr<scalar_t>(), gu.defined() ? gu.data_ptr<scalar_t>() : nullptr,
                                     g.numel());
        });
        return {ctx->needs_input_grad(0) ? gg : kNoGradient, gu};
    }
};

// ---- dropout ------------------------------------------------------------------------------

inline uint32_t mix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

// y = x · scale where the hash of (seed, i) clears the threshold, 0 elsewhere: the
// murmur3 finaliser twice over the element's index and the seed's halves, 24 bits of it
// against p · 2²⁴.
template <typename T>
void dropoutKernel(const T *x, T *y, int64_t n, uint64_t seed, uint32_t threshold, T scale)
{
    const uint32_t lo = static_cast<uint32_t>(seed), hi = static_cast<uint32_t>(seed >> 32);
    at::parallel_for(0, n, kElementGrain, [&](int64_t from, int64_t to) {
        const uint32_t top = static_cast<uint32_t>(static_cast<uint64_t>(from) >> 32) * 0x27d4eb2fu;
#pragma omp simd
        for (int64_t i = from; i < to; ++i) {
            const uint32_t h = mix32(mix32(static_cast<uint32_t>(i) * 0x9e3779b1u ^ lo) ^ hi ^ top);
            y[i] = (h >> 8) >= threshold ? x[i] * scale : T(0);
        }
    });
}

torch::Tensor dropoutRun(const torch::Tensor &in, uint64_t seed, double p)
{
    const torch::Tensor x = in.contiguous();
    torch::Tensor y = torch::empty_like(x);
    const auto threshold = static_cast<uint32_t>(std::llround(p * 16777216.0));
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rwb_dropout", [&] {
        dropoutKernel<scalar_t>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), x.numel(), seed, threshold,
                                static_cast<scalar_t>(1.0 / (1.0 - p)));
    });
    return y;
}

struct DropoutFunction : torch::autograd::Function<DropoutFunction> {
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &x, int64_t seed, double p)
    {
        ctx->saved_data["seed"] = seed;
        ctx->saved_data["p"] = p;
        return dropoutRun(x, static_cast<uint64_t>(seed), p);
    }

    static tensor_list backward(AutogradContext *ctx, tensor_list grads)
    {
        // The same mask on the gradient: the elements the forward kept, scaled alike.
        const auto seed = static_cast<uint64_t>(ctx->saved_data["seed"].toInt());
        return {dropoutRun(grads[0], seed, ctx->saved_data["p"].toDouble()), kNoGradient, kNoGradient};
    }
};

// The generator of this thread's innermost DropoutGeneratorScope; none: the default one.
thread_local at::Generator *tlsDropoutGenerator = nullptr;

at::Generator dropoutGenerator()
{
    return tlsDropoutGenerator ? *tlsDropoutGenerator : at::detail::getDefaultCPUGenerator();
}

uint64_t drawSeed()
{
    at::Generator gen = dropoutGenerator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    return gen.get<at::CPUGeneratorImpl>()->random64();
}

// ---- Few rows times a large matrix (decoding): y[r] = W · x[r] for 1–64 rows.
//
// Decoding G rows reads each weight once per step: bound by memory. ATen's products of
// [8, 1024] by [1024, 3072]ᵀ are tiled for many rows and read W at half the speed of
// memory or less (docs/results.md), and one row's mv runs on one thread. Here a tile of 4
// weight rows is dotted with up to 4 rows of x at a time (3 on AVX2: 16 registers), the
// sums in vector registers over the whole row; the tile comes from memory once and from
// L1 for the other rows of x. While a tile is computed, the next one is prefetched into
// L2, its lines spread over all the passes over this tile: with the prefetch in the first
// pass only, memory sat idle during the others (bf16 at 8 rows: 15 → 23 GB/s on a Zen 4,
// 2 threads). Three kernels: fp32 on AVX-512 and on AVX2 + FMA, and bf16 on
// AVX512-BF16's vdpbf16ps (32 bf16 pairs into 16 fp32 sums: products exact in fp32 and
// fp32 sums, as in ATen's bf16 products, rounded to bf16 once; converting bf16 to fp32 on
// the fly made the loop compute-bound). The widest the CPU has and ATEN_CPU_CAPABILITY
// allows runs (capping ATen to AVX2 caps this too); elsewhere a plain loop the compiler
// vectorises (fp32) or ATen (bf16).

constexpr int64_t kSkinnyTile = 4;

// Where the next tile's weights are while this one is computed: its 4 rows (null: none),
// `lines` 64-byte lines each. Pass `pass` of `passes` over this tile, `steps` k-steps a
// pass, fetches its share, one k-step at a time.
struct NextTile {
    const char *rows[kSkinnyTile] = {};
    int64_t lines = 0;
    int64_t steps = 1;
    int pass = 0;
    int passes = 1;
};

// The prefetches of one tile kernel call: total / steps lines a step, kept as a running
// remainder (no division in the loop).
class Prefetcher
{
public:
    explicit Prefetcher(const NextTile &next)
        : m_next(next), m_total(kSkinnyTile * next.lines), m_steps(next.passes * next.steps)
    {
        const int64_t first = next.pass * next.steps * m_total / m_steps;
        m_row = first / next.lines;
        m_col = first % next.lines;
        m_due = next.pass * next.steps * m_total % m_steps;
    }
    void step()
    {
        if (!m_next.rows[0])
            return;
        for (m_due += m_total; m_due >= m_steps && m_row < kSkinnyTile; m_due -= m_steps) {
            _mm_prefetch(m_next.rows[m_row] + 64 * m_col, _MM_HINT_T1);
            if (++m_col == m_next.lines) {
                m_col = 0;
                ++m_row;
            }
        }
    }

private:
    const NextTile &m_next;
    int64_t m_total, m_steps, m_row, m_col, m_due;
};

// The 16 sums of a 4 × 4 tile of AVX-512 accumulators, acc[4i + j] (weight row i, row of
// x j), without 16 horizontal sums: a tree of shuffles and adds halves the vectors 4 times
// (45 instructions where _mm512_reduce_add_ps took about 160). out[4j + i] = Σ acc[4i + j].
// Measured on a Zen 4: the tiny model's generation +2 %, 8 rows of the 0.6B shape's
// matrices +3 % — the tile is bound by its multiply-adds, not by these sums.
__attribute__((target("avx512f"))) inline void reduceTile16(const __m512 *acc, float *out)
{
    __m512 c[8], e[4], g[2];
    for (int k = 0; k < 8; ++k) // c[k]: acc[2k]'s 8 partial sums in the low half, acc[2k + 1]'s in the high
        c[k] = _mm512_add_ps(_mm512_shuffle_f32x4(acc[2 * k], acc[2 * k + 1], 0x44),
                             _mm512_shuffle_f32x4(acc[2 * k], acc[2 * k + 1], 0xEE));
    for (int m = 0; m < 4; ++m) // e[m]: 128-bit block b holds acc[4m + b]'s 4 partial sums
        e[m] = _mm512_add_ps(_mm512_shuffle_f32x4(c[2 * m], c[2 * m + 1], 0x88),
                             _mm512_shuffle_f32x4(c[2 * m], c[2 * m + 1], 0xDD));
    for (int n = 0; n < 2; ++n) // g[n], block b: 2 partials of acc[8n + b], then 2 of acc[8n + 4 + b]
        g[n] = _mm512_add_ps(_mm512_shuffle_ps(e[2 * n], e[2 * n + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm512_shuffle_ps(e[2 * n], e[2 * n + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    // block b: acc[b], acc[4 + b], acc[8 + b], acc[12 + b]
    _mm512_storeu_ps(out, _mm512_add_ps(_mm512_shuffle_ps(g[0], g[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                        _mm512_shuffle_ps(g[0], g[1], _MM_SHUFFLE(3, 1, 3, 1))));
}

// sums[i][j] = Σ acc[i][j]: by the tree for a 4 × 4 tile, else one horizontal sum each.
template <int NX>
__attribute__((target("avx512f"))) inline void storeSums(const __m512 (&acc)[4][NX], float (*sums)[NX])
{
    if constexpr (NX == 4) {
        float out[16];
        reduceTile16(&acc[0][0], out);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                sums[i][j] = out[4 * j + i];
    } else {
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < NX; ++j)
                sums[i][j] = _mm512_reduce_add_ps(acc[i][j]);
    }
}

struct F32Avx512 {
    using T = float;
    static constexpr int kMaxRows = 4, kStep = 16;
    template <int NX>
    __attribute__((target("avx512f,avx512bw,avx512vl,fma"))) static void tile(const float *const *wr, const float *x,
                                                                              int64_t in, float sums[4][NX],
                                                                              const NextTile &next)
    {
        Prefetcher fetch(next);
        __m512 acc[4][NX];
        for (auto &row : acc)
            for (auto &a : row)
                a = _mm512_setzero_ps();
        int64_t k = 0;
        for (; k + 16 <= in; k += 16) {
            fetch.step();
            __m512 xv[NX];
            for (int j = 0; j < NX; ++j)
                xv[j] = _mm512_loadu_ps(x + j * in + k);
            for (int i = 0; i < 4; ++i) {
                const __m512 wv = _mm512_loadu_ps(wr[i] + k);
                for (int j = 0; j < NX; ++j)
                    acc[i][j] = _mm512_fmadd_ps(wv, xv[j], acc[i][j]);
            }
        }
        if (k < in) {
            fetch.step();
            const __mmask16 mask = static_cast<__mmask16>((1u << (in - k)) - 1);
            __m512 xv[NX];
            for (int j = 0; j < NX; ++j)
                xv[j] = _mm512_maskz_loadu_ps(mask, x + j * in + k);
            for (int i = 0; i < 4; ++i) {
                const __m512 wv = _mm512_maskz_loadu_ps(mask, wr[i] + k);
                for (int j = 0; j < NX; ++j)
                    acc[i][j] = _mm512_fmadd_ps(wv, xv[j], acc[i][j]);
            }
        }
        storeSums<NX>(acc, sums);
    }
};

struct F32Avx2 {
    using T = float;
    // 4 × 3 sums, 3 rows of x and one weight vector: AVX2's 16 registers.
    static constexpr int kMaxRows = 3, kStep = 8;
    template <int NX>
    __attribute__((target("avx2,fma"))) static void tile(const float *const *wr, const float *x, int64_t in,
                                                         float sums[4][NX], const NextTile &next)
    {
        Prefetcher fetch(next);
        __m256 acc[4][NX];
        for (auto &row : acc)
            for (auto &a : row)
                a = _mm256_setzero_ps();
        alignas(32) static constexpr int32_t kLanes[8] = {0, 1, 2, 3, 4, 5, 6, 7};
        const __m256i lanes = _mm256_load_si256(reinterpret_cast<const __m256i *>(kLanes));
        int64_t k = 0;
        for (; k + 8 <= in; k += 8) {
            fetch.step();
            __m256 xv[NX];
            for (int j = 0; j < NX; ++j)
                xv[j] = _mm256_loadu_ps(x + j * in + k);
            for (int i = 0; i < 4; ++i) {
                const __m256 wv = _mm256_loadu_ps(wr[i] + k);
                for (int j = 0; j < NX; ++j)
                    acc[i][j] = _mm256_fmadd_ps(wv, xv[j], acc[i][j]);
            }
        }
        if (k < in) {
            fetch.step();
            const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int32_t>(in - k)), lanes);
            __m256 xv[NX];
            for (int j = 0; j < NX; ++j)
                xv[j] = _mm256_maskload_ps(x + j * in + k, mask);
            for (int i = 0; i < 4; ++i) {
                const __m256 wv = _mm256_maskload_ps(wr[i] + k, mask);
                for (int j = 0; j < NX; ++j)
                    acc[i][j] = _mm256_fmadd_ps(wv, xv[j], acc[i][j]);
            }
        }
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < NX; ++j) {
                const __m128 h = _mm_add_ps(_mm256_castps256_ps128(acc[i][j]), _mm256_extractf128_ps(acc[i][j], 1));
                const __m128 q = _mm_add_ps(h, _mm_movehl_ps(h, h));
                sums[i][j] = _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, 1)));
            }
    }
};

struct Bf16Avx512 {
    using T = uint16_t;
    static constexpr int kMaxRows = 4, kStep = 32;
    template <int NX>
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))) static void
    tile(const uint16_t *const *wr, const uint16_t *x, int64_t in, float sums[4][NX], const NextTile &next)
    {
        Prefetcher fetch(next);
        __m512 acc[4][NX];
        for (auto &row : acc)
            for (auto &a : row)
                a = _mm512_setzero_ps();
        int64_t k = 0;
        for (; k + 32 <= in; k += 32) {
            fetch.step();
            __m512i xv[NX];
            for (int j = 0; j < NX; ++j)
                xv[j] = _mm512_loadu_si512(x + j * in + k);
            for (int i = 0; i < 4; ++i) {
                const __m512i wv = _mm512_loadu_si512(wr[i] + k);
                for (int j = 0; j < NX; ++j)
                    acc[i][j] = _mm512_dpbf16_ps(acc[i][j], (__m512bh)wv, (__m512bh)xv[j]);
            }
        }
        if (k < in) {
            fetch.step();
            const __mmask32 mask = static_cast<__mmask32>((uint64_t{1} << (in - k)) - 1);
            __m512i xv[NX];
            for (int j = 0; j < NX; ++j)
                xv[j] = _mm512_maskz_loadu_epi16(mask, x + j * in + k);
            for (int i = 0; i < 4; ++i) {
                const __m512i wv = _mm512_maskz_loadu_epi16(mask, wr[i] + k);
                for (int j = 0; j < NX; ++j)
                    acc[i][j] = _mm512_dpbf16_ps(acc[i][j], (__m512bh)wv, (__m512bh)xv[j]);
            }
        }
        storeSums<NX>(acc, sums);
    }
};

// y [m, out] = x [m, in] · W [out, in]ᵀ with kernel K, tasks of whole tiles (~64 KB of W).
template <typename K, typename Out>
void runTiles(const typename K::T *w, const typename K::T *x, Out *y, int64_t m, int64_t in, int64_t out)
{
    using T = typename K::T;
    const int64_t rowBytes = in * static_cast<int64_t>(sizeof(T));
    const int64_t tilesPerTask = std::max<int64_t>(1, 65536 / rowBytes / kSkinnyTile);
    const int passes = static_cast<int>(m / K::kMaxRows + (m % K::kMaxRows) / 2 + (m % K::kMaxRows) % 2);
    at::parallel_for(0, (out + kSkinnyTile - 1) / kSkinnyTile, tilesPerTask, [&](int64_t b, int64_t e) {
        const int64_t begin = b * kSkinnyTile, end = std::min(out, e * kSkinnyTile);
        for (int64_t o = begin; o < end; o += kSkinnyTile) {
            const int64_t tile = std::min<int64_t>(kSkinnyTile, end - o);
            const T *wr[kSkinnyTile];
            NextTile next;
            for (int64_t i = 0; i < kSkinnyTile; ++i) {
                wr[i] = w + (o + std::min<int64_t>(i, tile - 1)) * in;
                if (o + kSkinnyTile < out) // the next tile, which the next task may compute
                    next.rows[i] = reinterpret_cast<const char *>(w + std::min(o + kSkinnyTile + i, out - 1) * in);
            }
            next.lines = (rowBytes + 63) / 64;
            next.steps = (in + K::kStep - 1) / K::kStep;
            next.passes = passes;
            auto rows = [&](auto nx, int64_t r) {
                constexpr int NX = decltype(nx)::value;
                float sums[4][NX];
                K::template tile<NX>(wr, x + r * in, in, sums, next);
                for (int j = 0; j < NX; ++j)
                    for (int64_t i = 0; i < tile; ++i)
                        y[(r + j) * out + o + i] = Out(sums[i][j]);
                ++next.pass;
            };
            int64_t r = 0;
            if constexpr (K::kMaxRows > 2)
                for (; r + K::kMaxRows <= m; r += K::kMaxRows)
                    rows(std::integral_constant<int, K::kMaxRows>{}, r);
            for (; r + 2 <= m; r += 2)
                rows(std::integral_constant<int, 2>{}, r);
            if (r < m)
                rows(std::integral_constant<int, 1>{}, r);
        }
    });
}

// Without AVX2: the loop the compiler vectorises for the baseline ISA, 4 weight rows × 2
// rows of x, no prefetch.
void skinnyBaseline(const float *w, const float *x, float *y, int64_t m, int64_t in, int64_t out)
{
    at::parallel_for(0, (out + kSkinnyTile - 1) / kSkinnyTile, 1, [&](int64_t b, int64_t e) {
        for (int64_t o = b * kSkinnyTile; o < std::min(out, e * kSkinnyTile); o += kSkinnyTile) {
            const int64_t tile = std::min<int64_t>(kSkinnyTile, out - o);
            const float *w0 = w + o * in;
            const float *w1 = w + (o + std::min<int64_t>(1, tile - 1)) * in;
            const float *w2 = w + (o + std::min<int64_t>(2, tile - 1)) * in;
            const float *w3 = w + (o + std::min<int64_t>(3, tile - 1)) * in;
            for (int64_t r = 0; r < m; r += 2) {
                const float *x0 = x + r * in;
                const float *x1 = x + std::min<int64_t>(r + 1, m - 1) * in;
                float s[4][2] = {};
#pragma omp simd reduction(+ : s[:4][:2])
                for (int64_t k = 0; k < in; ++k) {
                    s[0][0] += w0[k] * x0[k];
                    s[0][1] += w0[k] * x1[k];
                    s[1][0] += w1[k] * x0[k];
                    s[1][1] += w1[k] * x1[k];
                    s[2][0] += w2[k] * x0[k];
                    s[2][1] += w2[k] * x1[k];
                    s[3][0] += w3[k] * x0[k];
                    s[3][1] += w3[k] * x1[k];
                }
                for (int64_t i = 0; i < tile; ++i) {
                    y[r * out + o + i] = s[i][0];
                    if (r + 1 < m)
                        y[(r + 1) * out + o + i] = s[i][1];
                }
            }
        }
    });
}

// What the CPU has, capped as ATen caps itself: 2 AVX-512, 1 AVX2 + FMA, 0 neither.
int skinnyLevel()
{
    static const int level = [] {
        __builtin_cpu_init();
        int cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl")
                      ? 2
                      : (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0);
        if (const char *cap = std::getenv("ATEN_CPU_CAPABILITY")) {
            const std::string c(cap);
            if (c == "default")
                cpu = 0;
            else if (c == "avx2")
                cpu = std::min(cpu, 1);
        }
        return cpu;
    }();
    return level;
}

bool bf16DotAvailable()
{
    static const bool available = skinnyLevel() == 2 && __builtin_cpu_supports("avx512bf16"); // skinnyLevel ran __builtin_cpu_init
    return available;
}

// ---- Attention of one new token per row (decoding) ------------------------------------------

// Where q, keys, values, bias and output lie: element strides; the last dimension is
// contiguous. The prefix's rows are groups of `groupSize` rows (none when prefix is 0).
template <typename T>
struct DecodeAttentionArgs {
    const T *q = nullptr;
    int64_t qRow = 0, qHead = 0;
    const T *k = nullptr, *v = nullptr;
    int64_t kRow = 0, kHead = 0, kPos = 0, vRow = 0, vHead = 0, vPos = 0, own = 0;
    const T *pk = nullptr, *pv = nullptr;
    int64_t pkRow = 0, pkHead = 0, pkPos = 0, pvRow = 0, pvHead = 0, pvPos = 0, prefix = 0, groupSize = 1;
    const float *bias = nullptr;
    int64_t biasRow = 0, biasPos = 0;
    T *out = nullptr; // [R, N·D]
    int64_t rows = 0, heads = 0, kvHeads = 1, dim = 0;
    float scale = 1.0f;
};

[[gnu::always_inline]] inline float toFloat(float x)
{
    return x;
}

[[gnu::always_inline]] inline float toFloat(uint16_t x) // bf16's bits
{
    const uint32_t bits = static_cast<uint32_t>(x) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

[[gnu::always_inline]] inline void fromFloat(float x, float &out)
{
    out = x;
}

[[gnu::always_inline]] inline void fromFloat(float x, uint16_t &out) // rounded to nearest even, as c10::BFloat16
{
    out = c10::BFloat16(x).x;
}

// exp(x) for x ≤ 0 (a score minus its row's largest), in a form the vectoriser widens:
// x = n·ln 2 + r with |r| ≤ ln 2 / 2, exp(r) by Cephes' degree-6 polynomial (relative
// error ~2e-7), 2ⁿ put in the exponent's bits; 0 below −87.3 (fp32's smallest normal),
// and so for a padding's −inf. glibc's expf takes one value a call; alone, this changed
// no measured figure (docs/results.md), but it keeps the softmax's loops vectorised.
[[gnu::always_inline]] inline float expNonPositive(float x)
{
    constexpr float kLow = -87.33654f;
    const float clamped = x < kLow ? kLow : x;
    const float t = clamped * 1.44269504088896341f;
    const float n = (t + 12582912.0f) - 12582912.0f; // round to nearest: 1.5 · 2²³
    float r = clamped - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(n) + 127) << 23;
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return x < kLow ? 0.0f : p * scale;
}

// GCC's vector extensions: W floats (or their bf16 bits) in one register of the build's ISA.
template <int W> struct VecOf {
    typedef float F __attribute__((vector_size(4 * W), aligned(4), may_alias));
    typedef uint16_t B16 __attribute__((vector_size(2 * W), aligned(2), may_alias));
    typedef uint32_t B32 __attribute__((vector_size(4 * W), aligned(4)));
};
// These vectors cross no function boundary they are not inlined across: no ABI to keep.
#pragma GCC diagnostic ignored "-Wpsabi"
constexpr int64_t kLanes = 16;

// 16 floats as 16 / W vectors of W: one AVX-512 register (W 16), two AVX2 ones (W 8) or
// four SSE ones (W 4), so that each build holds them in registers (GCC spilled 64-byte
// vectors to the stack in the AVX2 build).
template <int W>
struct F16 {
    using Part = typename VecOf<W>::F;
    static constexpr int kParts = 16 / W;
    Part part[kParts];

    [[gnu::always_inline]] static F16 zero()
    {
        F16 v;
        for (int i = 0; i < kParts; ++i)
            v.part[i] = Part{};
        return v;
    }
    [[gnu::always_inline]] static F16 load(const float *p)
    {
        F16 v;
        for (int i = 0; i < kParts; ++i) // unaligned loads (memcpy went through the stack in 16-byte halves)
            v.part[i] = *reinterpret_cast<const Part *>(p + i * W);
        return v;
    }
    // 16 bf16 values as fp32: their bits widened into the high halves.
    [[gnu::always_inline]] static F16 load(const uint16_t *p)
    {
        F16 v;
        for (int i = 0; i < kParts; ++i) {
            const typename VecOf<W>::B16 bits = *reinterpret_cast<const typename VecOf<W>::B16 *>(p + i * W);
            const typename VecOf<W>::B32 wide = __builtin_convertvector(bits, typename VecOf<W>::B32) << 16;
            v.part[i] = (Part)wide; // the same bits (GCC's cast between vectors of one size)
        }
        return v;
    }
    [[gnu::always_inline]] void store(float *p) const
    {
        for (int i = 0; i < kParts; ++i)
            *reinterpret_cast<Part *>(p + i * W) = part[i];
    }
    [[gnu::always_inline]] F16 &operator+=(const F16 &o)
    {
        for (int i = 0; i < kParts; ++i)
            part[i] += o.part[i];
        return *this;
    }
    [[gnu::always_inline]] friend F16 operator+(F16 a, const F16 &b)
    {
        return a += b;
    }
    [[gnu::always_inline]] friend F16 operator*(const F16 &a, const F16 &b)
    {
        F16 v;
        for (int i = 0; i < kParts; ++i)
            v.part[i] = a.part[i] * b.part[i];
        return v;
    }
    [[gnu::always_inline]] friend F16 operator*(float s, const F16 &a)
    {
        F16 v;
        for (int i = 0; i < kParts; ++i)
            v.part[i] = s * a.part[i];
        return v;
    }
    // The sum of the 16 lanes: the parts added, then each half of a vector onto the other.
    [[gnu::always_inline]] float sum() const
    {
        Part t = part[0];
        for (int i = 1; i < kParts; ++i)
            t += part[i];
        float lanes[W];
        std::memcpy(lanes, &t, sizeof t);
        for (int width = W / 2; width >= 1; width /= 2)
            for (int l = 0; l < width; ++l)
                lanes[l] += lanes[l + width];
        return lanes[0];
    }
};

// Tasks [from, to) of (group, KV head) pairs, a group being the rows that share a prefix
// (one row when none is shared); its queries are its rows' N/K heads each, nq of them.
// The prefix's keys and values are read once for the whole group, 16 queries side by
// side in a vector's lanes (the queries transposed into scratch, [D, 16]): a key's 16
// scores are D multiply-adds of a broadcast key element by a vector of queries, and its
// value is added to 16 queries' sums at once, with no horizontal sums. A row's own keys
// serve only its N/K queries: dot products over D. The softmax spans both. Inlined into
// callers built for AVX-512, AVX2 or the baseline, whose vectorisers widen the loops.
template <typename T, typename V>
[[gnu::always_inline]] inline void decodeAttentionTasks(const DecodeAttentionArgs<T> &a, int64_t from, int64_t to,
                                                        std::vector<float> &scratch)
{
    const int64_t g = a.heads / a.kvHeads, d = a.dim, span = a.prefix + a.own, rowsPerTask = a.groupSize;
    const int64_t nq = rowsPerTask * g;
    const int64_t blocks = (nq + kLanes - 1) / kLanes; // of 16 queries
    // qf [nq, D]; qt [blocks, D, 16]; scores [nq, span]; prefix weights [blocks, P, 16];
    // one query's sums [D]; the prefix's sums [blocks, D, 16]
    scratch.resize(static_cast<size_t>(nq * d + blocks * d * kLanes + nq * span + blocks * a.prefix * kLanes + d +
                                       blocks * d * kLanes));
    float *qf = scratch.data(), *qt = qf + nq * d, *scores = qt + blocks * d * kLanes;
    float *pw = scores + nq * span, *sj = pw + blocks * a.prefix * kLanes, *st = sj + d;
    for (int64_t task = from; task < to; ++task) {
        const int64_t group = task / a.kvHeads, kh = task % a.kvHeads, first = group * rowsPerTask;
        std::fill(qt, qt + blocks * d * kLanes, 0.0f);
        for (int64_t rr = 0; rr < rowsPerTask; ++rr)
            for (int64_t j = 0; j < g; ++j) {
                const int64_t qi = rr * g + j;
                const T *qr = a.q + (first + rr) * a.qRow + (kh * g + j) * a.qHead;
                for (int64_t i = 0; i < d; ++i) {
                    const float x = toFloat(qr[i]);
                    qf[qi * d + i] = x;
                    qt[(qi / kLanes * d + i) * kLanes + qi % kLanes] = x;
                }
            }
        // The prefix's scores, 16 queries a vector; stored [nq, span].
        for (int64_t b = 0; b < blocks && a.prefix > 0; ++b) {
            const float *qb = qt + b * d * kLanes;
            const int64_t width = std::min(kLanes, nq - b * kLanes);
            for (int64_t p = 0; p < a.prefix; ++p) {
                const T *key = a.pk + group * a.pkRow + kh * a.pkHead + p * a.pkPos;
                V acc0 = V::zero(), acc1 = V::zero();
                int64_t i = 0;
                for (; i + 2 <= d; i += 2) {
                    acc0 += toFloat(key[i]) * V::load(qb + i * kLanes);
                    acc1 += toFloat(key[i + 1]) * V::load(qb + (i + 1) * kLanes);
                }
                if (i < d)
                    acc0 += toFloat(key[i]) * V::load(qb + i * kLanes);
                float lanes[kLanes];
                (acc0 + acc1).store(lanes);
                for (int64_t l = 0; l < width; ++l)
                    scores[(b * kLanes + l) * span + p] = lanes[l];
            }
        }
        // Each row's own keys, against its g queries: 4 keys at a time, 4 independent
        // sums in vectors, each summed by halves at the end. (One dot product at a time,
        // the vectoriser made one chain of dependent multiply-adds and summed its 16
        // lanes one by one through memory.)
        for (int64_t rr = 0; rr < rowsPerTask; ++rr) {
            const T *keys = a.k + (first + rr) * a.kRow + kh * a.kHead;
            for (int64_t j = 0; j < g; ++j) {
                const float *qj = qf + (rr * g + j) * d;
                float *out = scores + (rr * g + j) * span + a.prefix;
                int64_t p = 0;
                if (d % kLanes == 0)
                    for (; p + 4 <= a.own; p += 4) {
                        V acc[4] = {V::zero(), V::zero(), V::zero(), V::zero()};
                        for (int64_t i = 0; i < d; i += kLanes) {
                            const V qv = V::load(qj + i);
                            for (int k = 0; k < 4; ++k)
                                acc[k] += qv * V::load(keys + (p + k) * a.kPos + i);
                        }
                        for (int k = 0; k < 4; ++k)
                            out[p + k] = acc[k].sum();
                    }
                for (; p < a.own; ++p) {
                    const T *key = keys + p * a.kPos;
                    float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
                    for (int64_t i = 0; i < d; ++i)
                        dot += qj[i] * toFloat(key[i]);
                    out[p] = dot;
                }
            }
        }
        // Each query's softmax, scaled and biased; a −inf (padding) weighs 0. Every row
        // sees its own new key, so no row is all −inf.
        for (int64_t rr = 0; rr < rowsPerTask; ++rr) {
            const float *biasRow = a.bias + (first + rr) * a.biasRow;
            for (int64_t j = 0; j < g; ++j) {
                float *s = scores + (rr * g + j) * span;
                float top = -INFINITY;
#pragma omp simd reduction(max : top)
                for (int64_t p = 0; p < span; ++p) {
                    s[p] = s[p] * a.scale + biasRow[p * a.biasPos];
                    top = std::max(top, s[p]);
                }
                float total = 0.0f;
#pragma omp simd reduction(+ : total)
                for (int64_t p = 0; p < span; ++p) {
                    s[p] = expNonPositive(s[p] - top);
                    total += s[p];
                }
                const float inv = 1.0f / total;
#pragma omp simd
                for (int64_t p = 0; p < span; ++p)
                    s[p] *= inv;
            }
        }
        // The prefix's values: 16 queries' sums a vector, [blocks, D, 16].
        std::fill(st, st + blocks * d * kLanes, 0.0f);
        for (int64_t b = 0; b < blocks && a.prefix > 0; ++b) {
            const int64_t width = std::min(kLanes, nq - b * kLanes);
            float *wb = pw + b * a.prefix * kLanes;
            std::fill(wb, wb + a.prefix * kLanes, 0.0f);
            for (int64_t l = 0; l < width; ++l)
                for (int64_t p = 0; p < a.prefix; ++p)
                    wb[p * kLanes + l] = scores[(b * kLanes + l) * span + p];
            float *sb = st + b * d * kLanes;
            for (int64_t p = 0; p < a.prefix; ++p) {
                const T *value = a.pv + group * a.pvRow + kh * a.pvHead + p * a.pvPos;
                const V w = V::load(wb + p * kLanes);
                for (int64_t i = 0; i < d; ++i)
                    (V::load(sb + i * kLanes) + toFloat(value[i]) * w).store(sb + i * kLanes);
            }
        }
        // Each row's own values, then the prefix's part added.
        for (int64_t rr = 0; rr < rowsPerTask; ++rr) {
            const int64_t r = first + rr;
            for (int64_t j = 0; j < g; ++j) {
                const int64_t qi = rr * g + j;
                const float *fromPrefix = st + qi / kLanes * d * kLanes + qi % kLanes;
                for (int64_t i = 0; i < d; ++i)
                    sj[i] = fromPrefix[i * kLanes];
                const float *w = scores + qi * span + a.prefix;
                const T *values = a.v + r * a.vRow + kh * a.vHead;
                if (d % kLanes == 0) {
                    // Up to 128 columns of sums held in vectors while the keys go by:
                    // summed in memory, each key's sums waited for the last one's store.
                    for (int64_t c = 0; c < d; c += 8 * kLanes) {
                        const int64_t n = std::min<int64_t>(8, (d - c) / kLanes);
                        V acc[8];
                        for (int64_t u = 0; u < n; ++u)
                            acc[u] = V::load(sj + c + u * kLanes);
                        for (int64_t p = 0; p < a.own; ++p) {
                            const float x = w[p];
                            for (int64_t u = 0; u < n; ++u)
                                acc[u] += x * V::load(values + p * a.vPos + c + u * kLanes);
                        }
                        for (int64_t u = 0; u < n; ++u)
                            acc[u].store(sj + c + u * kLanes);
                    }
                } else {
                    for (int64_t p = 0; p < a.own; ++p) {
                        const T *value = values + p * a.vPos;
                        const float x = w[p];
#pragma omp simd
                        for (int64_t i = 0; i < d; ++i)
                            sj[i] += x * toFloat(value[i]);
                    }
                }
                T *o = a.out + r * a.heads * d + (kh * g + j) * d;
                for (int64_t i = 0; i < d; ++i)
                    fromFloat(sj[i], o[i]);
            }
        }
    }
}

template <typename T>
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) void decodeAttentionAvx512(const DecodeAttentionArgs<T> &a,
                                                                                    int64_t from, int64_t to,
                                                                                    std::vector<float> &scratch)
{
    decodeAttentionTasks<T, F16<16>>(a, from, to, scratch);
}

template <typename T>
__attribute__((target("avx2,fma"))) void decodeAttentionAvx2(const DecodeAttentionArgs<T> &a, int64_t from, int64_t to,
                                                             std::vector<float> &scratch)
{
    decodeAttentionTasks<T, F16<8>>(a, from, to, scratch);
}

template <typename T>
void decodeAttentionBaseline(const DecodeAttentionArgs<T> &a, int64_t from, int64_t to, std::vector<float> &scratch)
{
    decodeAttentionTasks<T, F16<4>>(a, from, to, scratch);
}

// temperedExp's passes; inlined into callers built for AVX-512, AVX2 or the baseline.
[[gnu::always_inline]] inline float temperedExpRow(const float *x, int64_t n, float temperature, float *e)
{
    float top = -INFINITY;
#pragma omp simd reduction(max : top)
    for (int64_t i = 0; i < n; ++i)
        top = std::max(top, x[i]);
    const float m = top / temperature; // division by T > 0 keeps the order: the largest x / T
    float total = 0.0f;
#pragma omp simd reduction(+ : total)
    for (int64_t i = 0; i < n; ++i) {
        e[i] = expNonPositive(x[i] / temperature - m);
        total += e[i];
    }
    return m + std::log(total);
}

__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) float temperedExpAvx512(const float *x, int64_t n, float t,
                                                                                 float *e)
{
    return temperedExpRow(x, n, t, e);
}

__attribute__((target("avx2,fma"))) float temperedExpAvx2(const float *x, int64_t n, float t, float *e)
{
    return temperedExpRow(x, n, t, e);
}

float temperedExpBaseline(const float *x, int64_t n, float t, float *e)
{
    return temperedExpRow(x, n, t, e);
}

template <typename T>
void runDecodeAttention(const DecodeAttentionArgs<T> &a)
{
    const int level = skinnyLevel();
    const int64_t tasks = a.rows / a.groupSize * a.kvHeads;
    // A task is 2·G·(N/K)·(P + L)·D multiply-adds: a few thousand for the tiny models' single
    // rows, so a thread takes several, enough to be worth waking it.
    const int64_t work = 2 * a.groupSize * (a.heads / a.kvHeads) * (a.prefix + a.own) * a.dim;
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, work));
    at::parallel_for(0, tasks, grain, [&](int64_t from, int64_t to) {
        std::vector<float> scratch;
        if (level == 2)
            decodeAttentionAvx512(a, from, to, scratch);
        else if (level == 1)
            decodeAttentionAvx2(a, from, to, scratch);
        else
            decodeAttentionBaseline(a, from, to, scratch);
    });
}

} // namespace

bool fusedKernelsApply(const torch::Tensor &x)
{
    return fusable(x);
}

torch::Tensor rmsNorm(const torch::Tensor &x, const torch::Tensor &weight, double eps)
{
    if (fusable(x) && weight.scalar_type() == x.scalar_type() && weight.device() == x.device() && weight.dim() == 1
        && weight.size(0) == x.size(-1))
        return RmsNormFunction::apply(x, weight, eps);
    const torch::Tensor xf = x.to(computeDtype(x.scalar_type()));
    const torch::Tensor var = xf.pow(2).mean(/*dim=*/-1, /*keepdim=*/true);
    return weight * (xf * torch::rsqrt(var + eps)).to(x.scalar_type());
}

torch::Tensor rope(const torch::Tensor &x, const torch::Tensor &cos, const torch::Tensor &sin)
{
    // cos, sin [cb, 1, T, D] from Rope::cosSin.
    if (fusable(x) && cos.scalar_type() == x.scalar_type() && sin.scalar_type() == x.scalar_type() && x.dim() == 4
        && cos.dim() == 4 && cos.size(1) == 1 && cos.size(2) == x.size(1) && cos.size(3) == x.size(3)
        && x.size(3) % 2 == 0 && (cos.size(0) == x.size(0) || cos.size(0) == 1) && cos.sizes() == sin.sizes())
        return RopeFunction::apply(x, cos.squeeze(1), sin.squeeze(1));
    return applyRope(x.transpose(1, 2), cos, sin);
}

torch::Tensor swiGlu(const torch::Tensor &gate, const torch::Tensor &up)
{
    if (fusable(gate) && up.scalar_type() == gate.scalar_type() && up.device() == gate.device()
        && up.sizes() == gate.sizes())
        return SwiGluFunction::apply(gate, up);
    return torch::nn::functional::silu(gate) * up;
}

torch::Tensor dropout(const torch::Tensor &x, double p)
{
    if (p <= 0.0)
        return x;
    if (p >= 1.0)
        return x * 0.0;
    if (fusable(x))
        return DropoutFunction::apply(x, static_cast<int64_t>(drawSeed() >> 1), p);
    if (!tlsDropoutGenerator || x.device().type() != torch::kCPU)
        return torch::nn::functional::dropout(x, torch::nn::functional::DropoutFuncOptions().p(p).training(true));
    // ATen's own steps (at::native::dropout), with the scope's generator: the same mask as
    // the default generator seeded alike.
    torch::Tensor noise = torch::empty_like(x).bernoulli_(1.0 - p, *tlsDropoutGenerator);
    noise.div_(1.0 - p);
    return x * noise;
}

torch::Tensor decodeAttention(const torch::Tensor &q, const torch::Tensor &k, const torch::Tensor &v,
                              const torch::Tensor &prefixKeys, const torch::Tensor &prefixValues, int64_t groupSize,
                              const torch::Tensor &bias)
{
    const auto dtype = q.scalar_type();
    const bool withPrefix = prefixKeys.defined();
    auto fits = [&](const torch::Tensor &t) {
        return t.defined() && t.dim() == 4 && t.device().is_cpu() && t.scalar_type() == dtype && t.stride(3) == 1;
    };
    const bool differentiable =
        torch::GradMode::is_enabled() && (q.requires_grad() || k.requires_grad() || v.requires_grad());
    if (differentiable || (dtype != torch::kFloat32 && dtype != torch::kBFloat16) || !fits(q) || q.size(2) != 1 ||
        !fits(k) || !fits(v) || (withPrefix && (!fits(prefixKeys) || !fits(prefixValues))) || !bias.defined() ||
        bias.dim() != 4 || !bias.device().is_cpu() || bias.scalar_type() != torch::kFloat32)
        return {};
    const int64_t rows = q.size(0), heads = q.size(1), dim = q.size(3), kvHeads = k.size(1), own = k.size(2);
    const int64_t prefix = withPrefix ? prefixKeys.size(2) : 0;
    if (groupSize < 1 || kvHeads < 1 || heads % kvHeads != 0 || k.size(0) != rows || v.sizes() != k.sizes() ||
        k.size(3) != dim || bias.size(0) != rows || bias.size(2) != 1 || bias.size(3) != prefix + own ||
        (withPrefix && (prefixKeys.size(0) * groupSize != rows || prefixKeys.size(1) != kvHeads ||
                        prefixKeys.size(3) != dim || prefixValues.sizes() != prefixKeys.sizes())))
        return {};
    torch::Tensor out = torch::empty({rows, 1, heads * dim}, q.options());
    auto run = [&](auto tag) {
        using T = decltype(tag);
        auto ptr = [](const torch::Tensor &t) { return static_cast<const T *>(t.data_ptr()); };
        DecodeAttentionArgs<T> a;
        a.q = ptr(q);
        a.qRow = q.stride(0);
        a.qHead = q.stride(1);
        a.k = ptr(k);
        a.v = ptr(v);
        a.kRow = k.stride(0), a.kHead = k.stride(1), a.kPos = k.stride(2);
        a.vRow = v.stride(0), a.vHead = v.stride(1), a.vPos = v.stride(2);
        a.own = own;
        if (withPrefix) {
            a.pk = ptr(prefixKeys);
            a.pv = ptr(prefixValues);
            a.pkRow = prefixKeys.stride(0), a.pkHead = prefixKeys.stride(1), a.pkPos = prefixKeys.stride(2);
            a.pvRow = prefixValues.stride(0), a.pvHead = prefixValues.stride(1), a.pvPos = prefixValues.stride(2);
            a.prefix = prefix;
            a.groupSize = groupSize;
        }
        a.bias = bias.data_ptr<float>();
        a.biasRow = bias.stride(0);
        a.biasPos = bias.stride(3);
        a.out = static_cast<T *>(out.data_ptr());
        a.rows = rows, a.heads = heads, a.kvHeads = kvHeads, a.dim = dim;
        a.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dim)));
        runDecodeAttention(a);
    };
    if (dtype == torch::kFloat32)
        run(float{});
    else
        run(uint16_t{});
    return out;
}

float temperedExp(const float *x, int64_t n, double temperature, float *e)
{
    const float t = static_cast<float>(temperature); // as ATen divides a float tensor by a double
    switch (skinnyLevel()) {
    case 2:
        return temperedExpAvx512(x, n, t, e);
    case 1:
        return temperedExpAvx2(x, n, t, e);
    default:
        return temperedExpBaseline(x, n, t, e);
    }
}

int64_t fewRowsMax(torch::ScalarType dtype)
{
    const bool vectorKernel = dtype == torch::kBFloat16 ? bf16DotAvailable() : dtype == torch::kFloat32 && skinnyLevel() >= 1;
    return vectorKernel ? 64 : 16;
}

const char *fewRowsKernel(torch::ScalarType dtype)
{
    if (dtype == torch::kBFloat16)
        return bf16DotAvailable() ? "avx512bf16" : "aten";
    if (dtype != torch::kFloat32)
        return "aten";
    static const char *const names[] = {"baseline", "avx2", "avx512"};
    return names[skinnyLevel()];
}

torch::Tensor fewRowsLinear(const torch::Tensor &input, const torch::Tensor &weight)
{
    const bool differentiable = torch::GradMode::is_enabled() && (input.requires_grad() || weight.requires_grad());
    const bool fits = input.dim() == 2 && weight.dim() == 2 && weight.size(1) == input.size(1) &&
                      input.size(0) >= 1 && input.size(0) <= fewRowsMax(weight.scalar_type()) && !differentiable && input.device().is_cpu() &&
                      weight.device().is_cpu() && weight.is_contiguous() && input.scalar_type() == weight.scalar_type() &&
                      (weight.scalar_type() == torch::kFloat32 || weight.scalar_type() == torch::kBFloat16);
    if (!fits)
        return torch::nn::functional::linear(input, weight);
    const int64_t m = input.size(0), in = input.size(1), out = weight.size(0);
    const torch::Tensor x = input.contiguous();
    if (weight.scalar_type() == torch::kBFloat16) {
        if (!bf16DotAvailable()) // ATen's W·xᵀ reads bf16 W at 21–25 GB/s on 2 threads, F::linear at 14–18
            return m == 1 ? torch::mv(weight, x.view({-1})).unsqueeze(0) : torch::mm(weight, x.t()).t();
        torch::Tensor y = torch::empty({m, out}, x.options());
        runTiles<Bf16Avx512>(reinterpret_cast<const uint16_t *>(weight.data_ptr<at::BFloat16>()),
                             reinterpret_cast<const uint16_t *>(x.data_ptr<at::BFloat16>()),
                             y.data_ptr<at::BFloat16>(), m, in, out);
        return y;
    }
    torch::Tensor y = torch::empty({m, out}, x.options());
    const int level = skinnyLevel();
    if (level == 2)
        runTiles<F32Avx512>(weight.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), m, in, out);
    else if (level == 1)
        runTiles<F32Avx2>(weight.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), m, in, out);
    else if (m == 1)
        return torch::mv(weight, x.view({-1})).unsqueeze(0);
    else
        skinnyBaseline(weight.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), m, in, out);
    return y;
}

DropoutGeneratorScope::DropoutGeneratorScope(uint64_t seed)
    : m_generator(at::make_generator<at::CPUGeneratorImpl>(seed)), m_outer(tlsDropoutGenerator)
{
    tlsDropoutGenerator = &m_generator;
}

DropoutGeneratorScope::~DropoutGeneratorScope()
{
    tlsDropoutGenerator = m_outer;
}

} // namespace rwb::model
