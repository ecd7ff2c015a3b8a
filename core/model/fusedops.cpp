#include "model/fusedops.h"

#include "model/transformer.h"

#include <ATen/Parallel.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <mutex>

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

// ---- Few rows times a large matrix (decoding): y[r] = W · x[r] for 2–16 rows.
//
// Decoding G rows reads each weight once per step: bound by memory. ATen's products of
// [8, 1024] by [1024, 3072]ᵀ read W at 16 GB/s in fp32 where one row's mv reads it at
// 40 (Xeon, 2 threads; docs/results.md): the product is tiled for large M. Here a tile
// of 4 output rows is dotted with two rows of x at a time, 8 sums in vector registers
// over the whole row; the tile comes from memory once and from L1 for the other rows of
// x. fp32 only (see fewRowsLinear for bf16). Built three times, for
// AVX-512, AVX2 + FMA and the baseline; the widest the CPU has and ATEN_CPU_CAPABILITY
// allows runs (so that capping ATen to AVX2 caps this too).

constexpr int64_t kSkinnyTile = 4;

#define RWB_SKINNY_BODY                                                                                     \
    for (int64_t o = begin; o < end; o += kSkinnyTile) {                                                    \
        const int64_t tile = std::min<int64_t>(kSkinnyTile, end - o);                                       \
        const float *w0 = w + o * in;                                                                       \
        const float *w1 = w + (o + std::min<int64_t>(1, tile - 1)) * in;                                    \
        const float *w2 = w + (o + std::min<int64_t>(2, tile - 1)) * in;                                    \
        const float *w3 = w + (o + std::min<int64_t>(3, tile - 1)) * in;                                    \
        for (int64_t r = 0; r < m; r += 2) {                                                                \
            const float *x0 = x + r * in;                                                                   \
            const float *x1 = x + std::min<int64_t>(r + 1, m - 1) * in;                                     \
            float s00 = 0.0f, s01 = 0.0f, s10 = 0.0f, s11 = 0.0f, s20 = 0.0f, s21 = 0.0f, s30 = 0.0f,       \
                  s31 = 0.0f;                                                                               \
            _Pragma("omp simd reduction(+ : s00, s01, s10, s11, s20, s21, s30, s31)") for (int64_t k = 0;   \
                                                                                           k < in; ++k)     \
            {                                                                                               \
                const float a = x0[k], b = x1[k];                                                           \
                const float v0 = w0[k], v1 = w1[k], v2 = w2[k], v3 = w3[k];                                 \
                s00 += v0 * a;                                                                              \
                s01 += v0 * b;                                                                              \
                s10 += v1 * a;                                                                              \
                s11 += v1 * b;                                                                              \
                s20 += v2 * a;                                                                              \
                s21 += v2 * b;                                                                              \
                s30 += v3 * a;                                                                              \
                s31 += v3 * b;                                                                              \
            }                                                                                               \
            const float sums[4][2] = {{s00, s01}, {s10, s11}, {s20, s21}, {s30, s31}};                      \
            for (int64_t i = 0; i < tile; ++i) {                                                            \
                y[r * out + o + i] = sums[i][0];                                                            \
                if (r + 1 < m)                                                                              \
                    y[(r + 1) * out + o + i] = sums[i][1];                                                  \
            }                                                                                               \
        }                                                                                                   \
    }

__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) void skinnyAvx512(const float *w, const float *x,
                                                                          float *y, int64_t m, int64_t in,
                                                                          int64_t out, int64_t begin, int64_t end)
{
    RWB_SKINNY_BODY
}

__attribute__((target("avx2,fma"))) void skinnyAvx2(const float *w, const float *x, float *y, int64_t m,
                                                    int64_t in, int64_t out, int64_t begin, int64_t end)
{
    RWB_SKINNY_BODY
}

void skinnyBaseline(const float *w, const float *x, float *y, int64_t m, int64_t in, int64_t out,
                    int64_t begin, int64_t end)
{
    RWB_SKINNY_BODY
}

#undef RWB_SKINNY_BODY

// 2: AVX-512, 1: AVX2 + FMA, 0: neither — what the CPU has, capped as ATen caps itself.
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

void skinnyRun(const float *w, const float *x, float *y, int64_t m, int64_t in, int64_t out)
{
    const int level = skinnyLevel();
    // Tasks of whole tiles, about 64 KB of W each.
    const int64_t tilesPerTask = std::max<int64_t>(1, 65536 / (in * static_cast<int64_t>(sizeof(float))) / kSkinnyTile);
    at::parallel_for(0, (out + kSkinnyTile - 1) / kSkinnyTile, tilesPerTask, [&](int64_t b, int64_t e) {
        const int64_t begin = b * kSkinnyTile, end = std::min(out, e * kSkinnyTile);
        if (level == 2)
            skinnyAvx512(w, x, y, m, in, out, begin, end);
        else if (level == 1)
            skinnyAvx2(w, x, y, m, in, out, begin, end);
        else
            skinnyBaseline(w, x, y, m, in, out, begin, end);
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

torch::Tensor fewRowsLinear(const torch::Tensor &input, const torch::Tensor &weight)
{
    const bool differentiable = torch::GradMode::is_enabled() && (input.requires_grad() || weight.requires_grad());
    const bool fits = input.dim() == 2 && weight.dim() == 2 && weight.size(1) == input.size(1) &&
                      input.size(0) >= 1 && input.size(0) <= 16 && !differentiable && input.device().is_cpu() &&
                      weight.device().is_cpu() && weight.is_contiguous() && input.scalar_type() == weight.scalar_type() &&
                      (weight.scalar_type() == torch::kFloat32 || weight.scalar_type() == torch::kBFloat16);
    if (!fits)
        return torch::nn::functional::linear(input, weight);
    const int64_t m = input.size(0), in = input.size(1), out = weight.size(0);
    if (weight.scalar_type() == torch::kBFloat16) {
        // bf16 → fp32 on the fly makes the kernel compute-bound (6 GB/s of W on one
        // core); ATen's W·xᵀ reads bf16 W at 21–25 GB/s on 2 threads, F::linear at 14–18.
        return torch::mm(weight, input.t()).t();
    }
    const torch::Tensor x = input.contiguous();
    torch::Tensor y = torch::empty({m, out}, x.options());
    skinnyRun(weight.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), m, in, out);
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
