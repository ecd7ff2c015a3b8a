#include "train/overlongpenalty.h"

namespace rwb::train {

torch::Tensor overlongPenalty(const torch::Tensor &lengths, int64_t maxLen, int64_t cacheLen)
{
    TORCH_CHECK(lengths.defined() && lengths.dim() == 1, "overlongPenalty: lengths must be 1-D [R]");
    TORCH_CHECK(maxLen >= 1, "overlongPenalty: maxLen must be ≥ 1, got ", maxLen);
    TORCH_CHECK(cacheLen >= 0 && cacheLen <= maxLen, "overlongPenalty: cacheLen must be in [0, maxLen = ",
                maxLen, "], got ", cacheLen);
    const torch::Tensor len = lengths.scalar_type() == torch::kFloat64 ? lengths : lengths.to(torch::kFloat32); // [R]
    TORCH_CHECK(!len.isnan().any().item<bool>(), "overlongPenalty: lengths contain NaN");
    TORCH_CHECK((len >= 0).all().item<bool>(), "overlongPenalty: lengths must be ≥ 0");

    const double start = static_cast<double>(maxLen - cacheLen); // last length without penalty
    if (cacheLen == 0)
        return torch::where(len > static_cast<double>(maxLen), torch::full_like(len, -1.0), torch::zeros_like(len));
    const torch::Tensor ramp = (start - len) / static_cast<double>(cacheLen); // [R], ≤ 0 past start
    return ramp.clamp(/*min=*/-1.0, /*max=*/0.0);
}

} // namespace rwb::train
