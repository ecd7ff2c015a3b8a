#pragma once

// The libtorch side of ProcessRewardModel, for the PRM trainer and its tests. Includes
// libtorch.

#include "model/causallminternals.h"
#include "train/processrewardmodel.h"

#include <memory>
#include <vector>

namespace rwb::tokenizer {
class PromptFormat;
class Tokenizer;
}

namespace rwb::task {
class Task;
}

namespace rwb::train {

struct ProcessRewardModel::Internals {
    std::unique_ptr<model::CausalLM> lm;
    std::unique_ptr<tokenizer::Tokenizer> tok;
    std::unique_ptr<tokenizer::PromptFormat> format;
    int32_t pad = 0;
    const task::Task *task = nullptr; // whose prompt the PRM reads (it declares steps)
    torch::Tensor headWeight; // [1, H], the compute dtype (fp32; f64 for a f64 model)
    torch::Tensor headBias;   // [1]

    // R at every end of `rows`, in row order then end order: [E] in the compute dtype.
    // Differentiable (the decoder's trainable parameters and the head) unless called
    // under NoGradGuard / InferenceMode.
    torch::Tensor forwardScores(const std::vector<const PrmInput *> &rows);

    std::vector<torch::Tensor> trainableParameters()
    {
        std::vector<torch::Tensor> p = lm->internals().trainableParameters();
        p.push_back(headWeight);
        p.push_back(headBias);
        return p;
    }
};

} // namespace rwb::train
