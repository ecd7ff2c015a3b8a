#include "train/gradientcheck.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace rwb::train {

double worstRelativeError(const std::vector<torch::Tensor> &params, const std::vector<torch::Tensor> &grads,
                          const std::function<double()> &f, int perTensor, double h, uint64_t seed, std::string *where)
{
    std::mt19937_64 rng(seed);
    double worst = 0.0;
    for (size_t k = 0; k < params.size(); ++k) {
        torch::Tensor flat = params[k].detach().view({-1});
        const torch::Tensor g = grads[k].detach().reshape({-1}).to(torch::kCPU, torch::kFloat64);
        std::uniform_int_distribution<int64_t> pick(0, flat.numel() - 1);
        double diff2 = 0.0, norm2 = 0.0;
        for (int s = 0; s < perTensor; ++s) {
            const int64_t i = pick(rng);
            const double x = flat[i].item<double>();
            auto at = [&](double dx) {
                flat[i].fill_(x + dx);
                return f();
            };
            const double fd = (8.0 * (at(h) - at(-h)) - (at(2.0 * h) - at(-2.0 * h))) / (12.0 * h);
            flat[i].fill_(x);
            const double an = g[i].item<double>();
            diff2 += (an - fd) * (an - fd);
            norm2 += fd * fd;
        }
        if (norm2 <= 0.0)
            continue;
        const double rel = std::sqrt(diff2) / std::sqrt(norm2);
        if (rel > worst) {
            worst = rel;
            if (where) {
                char text[96];
                std::snprintf(text, sizeof text, "tensor %zu (‖g_fd‖ = %.3g)", k, std::sqrt(norm2));
                *where = text;
            }
        }
    }
    return worst;
}

} // namespace rwb::train
