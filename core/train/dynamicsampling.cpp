#include "train/dynamicsampling.h"

#include "train/advantages.h"

namespace rwb::train {

GroupSelection informativeGroups(const torch::Tensor &rewards, int64_t groupSize)
{
    const GroupAdvantages stats = groupAdvantages(rewards, groupSize, ScaleRewards::None);
    GroupSelection out;
    out.keepGroup = stats.zeroStd.logical_not();                             // [B]
    out.keepRow = out.keepGroup.unsqueeze(1).expand({-1, groupSize}).reshape({-1}); // [R]
    const torch::Tensor kept = out.keepGroup.nonzero().reshape({-1}).to(torch::kInt64).contiguous(); // [kept]
    out.keptGroups.assign(kept.data_ptr<int64_t>(), kept.data_ptr<int64_t>() + kept.numel());
    return out;
}

} // namespace rwb::train
