#include "train/advantages.h"

namespace rwb::train {

std::optional<ScaleRewards> scaleRewardsFromString(std::string_view name)
{
    if (name == "group")
        return ScaleRewards::Group;
    if (name == "batch")
        return ScaleRewards::Batch;
    if (name == "none")
        return ScaleRewards::None;
    return std::nullopt;
}

std::string toString(ScaleRewards scale)
{
    switch (scale) {
    case ScaleRewards::Group: return "group";
    case ScaleRewards::Batch: return "batch";
    case ScaleRewards::None: return "none";
    }
    return "group";
}

namespace {

// Bessel-corrected std along `dim`, 0 where there is a single element (torch gives NaN).
torch::Tensor besselStd(const torch::Tensor &x, int64_t dim)
{
    if (x.size(dim) < 2)
        return torch::zeros_like(x.select(dim, 0));
    return x.std(/*dim=*/{dim}, /*unbiased=*/true, /*keepdim=*/false);
}

// x / d, and 0 where d is 0 (only reachable with eps = 0 and a zero-std group).
torch::Tensor safeDivide(const torch::Tensor &x, const torch::Tensor &d)
{
    return torch::where(d > 0, x / d, torch::zeros_like(x));
}

} // namespace

GroupAdvantages groupAdvantages(const torch::Tensor &rewards, int64_t groupSize, ScaleRewards scale, double eps)
{
    TORCH_CHECK(rewards.defined() && rewards.dim() == 1, "groupAdvantages: rewards must be 1-D [R]");
    TORCH_CHECK(rewards.is_floating_point(), "groupAdvantages: rewards must be floating point, got ",
                rewards.scalar_type());
    TORCH_CHECK(groupSize >= 1, "groupAdvantages: groupSize must be ≥ 1, got ", groupSize);
    const int64_t rows = rewards.size(0);
    TORCH_CHECK(rows > 0 && rows % groupSize == 0, "groupAdvantages: ", rows,
                " rewards are not a positive multiple of the group size ", groupSize);
    TORCH_CHECK(eps >= 0.0, "groupAdvantages: eps must be ≥ 0, got ", eps);
    const torch::Tensor valid = ~rewards.detach().isnan(); // [R] bool: not None
    TORCH_CHECK((rewards.detach().isfinite() | ~valid).all().item<bool>(),
                "groupAdvantages: rewards contain an infinite value");

    const int64_t groups = rows / groupSize;
    GroupAdvantages out;
    torch::Tensor a; // [B, G]
    if (valid.all().item<bool>()) {
        const torch::Tensor r = rewards.detach();
        const torch::Tensor grouped = r.view({groups, groupSize}); // [B, G]
        out.groupMean = grouped.mean(/*dim=*/{1});   // [B]
        out.groupStd = besselStd(grouped, /*dim=*/1); // [B]
        out.batchStd = besselStd(r, /*dim=*/0).item<double>();
        const torch::Tensor centred = grouped - out.groupMean.unsqueeze(1); // [B, G]
        switch (scale) {
        case ScaleRewards::Group: a = safeDivide(centred, out.groupStd.unsqueeze(1) + eps); break;
        case ScaleRewards::Batch: a = safeDivide(centred, torch::full_like(centred, out.batchStd + eps)); break;
        case ScaleRewards::None: a = centred; break;
        }
    } else {
        // None rewards: every statistic over the group's other rows; a None row gets 0.
        const torch::Tensor r = torch::where(valid, rewards.detach(), torch::zeros_like(rewards));
        const torch::Tensor grouped = r.view({groups, groupSize});          // [B, G]
        const torch::Tensor mask = valid.view({groups, groupSize});         // [B, G]
        const torch::Tensor m = mask.to(r.scalar_type());
        const torch::Tensor count = m.sum(/*dim=*/{1});                     // [B]
        out.groupMean = grouped.sum(/*dim=*/{1}) / count.clamp_min(1.0);    // [B]; 0 for an all-None group
        const torch::Tensor centred = (grouped - out.groupMean.unsqueeze(1)) * m; // [B, G], 0 at None
        out.groupStd = torch::where(count >= 2.0,
                                    (centred.pow(2).sum(/*dim=*/{1}) / (count - 1.0).clamp_min(1.0)).sqrt(),
                                    torch::zeros_like(count));
        const torch::Tensor kept = rewards.detach().masked_select(valid);
        out.batchStd = kept.numel() < 2 ? 0.0 : besselStd(kept, /*dim=*/0).item<double>();
        switch (scale) {
        case ScaleRewards::Group: a = safeDivide(centred, out.groupStd.unsqueeze(1) + eps); break;
        case ScaleRewards::Batch: a = safeDivide(centred, torch::full_like(centred, out.batchStd + eps)); break;
        case ScaleRewards::None: a = centred; break;
        }
        a = a * m;
    }
    out.zeroStd = out.groupStd <= kZeroStdTolerance; // [B] bool
    out.fracRewardZeroStd = out.zeroStd.to(torch::kFloat64).mean().item<double>();
    // Exactly 0, not the mean's rounding: three rewards of 0.7 have the mean
    // 0.6999999999999998 in f64, whose ±2e-16 over std + eps is an advantage of ±2e-12 that
    // the clip ratios count as A > 0 (found against TRL, tst_hfgolden).
    a = torch::where(out.zeroStd.unsqueeze(1), torch::zeros_like(a), a);
    out.advantages = a.reshape({rows}); // [R]
    return out;
}

} // namespace rwb::train
