#pragma once

// The libtorch side of CausalLM, for core code that trains or saves models. Includes libtorch.

#include "model/causallm.h"
#include "model/safetensors.h"
#include "model/transformer.h"

#include <string>

namespace rwb::model {

// The device ModelOptions::device names ("cpu", "cuda", "auto"); throws when CUDA is
// asked for and not there.
torch::Device pickDevice(const std::string &name);
// libtorch's CPU threads: n > 0, or 0 for auto (model/threads.h).
void applyThreads(int threads);

class CausalLmInternals {
public:
    Transformer module{nullptr};
    torch::Device device{torch::kCPU};
    torch::Dtype dtype = torch::kFloat32;
    LoraOptions lora;
    bool hasLora = false;
    std::string sourceFolder; // the folder load() read (PEFT's base_model_name_or_path); empty for random()

    // Every LoRA tensor with its PEFT key ("base_model.model.<module>.lora_A.weight").
    std::vector<std::pair<std::string, torch::Tensor>> loraTensors();
    std::vector<torch::Tensor> trainableParameters();

    // Right-padded batch of prompt + completion: ids [B, L], mask [B, L], and for each row the
    // index of its first completion token and the completion length.
    struct Batch {
        torch::Tensor ids;
        torch::Tensor mask;
        std::vector<int64_t> completionStart;
        std::vector<int64_t> completionLength;
    };
    Batch makeBatch(const std::vector<std::vector<int32_t>> &prompts,
                    const std::vector<std::vector<int32_t>> &completions, int32_t padToken) const;

    // log p(ids[:, t+1] | ids[:, ≤t]) for t in [0, L−1): [B, L−1] fp32 (and entropy [B, L−1] when
    // `entropy` is given, without gradient), computed in chunks of `chunk` positions.
    // Differentiable. With `needed` ([B, L−1] bool), only the marked positions are computed
    // and the others are 0 (an SFT loss on the target alone needs a few percent of them).
    torch::Tensor sequenceLogProbs(const Batch &batch, double temperature, int64_t chunk, torch::Tensor *entropy,
                                   const torch::Tensor &needed = {});

    // The completions' log-probs when every prompt has `groupSize` completions (row b·G + g
    // belongs to prompt b): each prompt runs once and its keys and values are shared by its
    // G completions, so a GRPO group costs |prompt| + G·|completion| positions instead of
    // G·(|prompt| + |completion|). Returns [B·G, T] fp32, T = the longest completion, with
    // log p(completion[r][t] | prompt, completion[r][<t]) under softmax(logits / temperature)
    // and 0 past a row's end; `mask` gets [B·G, T] float (1 on real tokens) and `entropy`
    // the entropies (without gradient) when given. Differentiable; equal to sequenceLogProbs on the
    // concatenations (tst_transformer).
    torch::Tensor groupedCompletionLogProbs(const std::vector<std::vector<int32_t>> &prompts,
                                            const std::vector<std::vector<int32_t>> &completions, int64_t groupSize,
                                            int32_t padToken, double temperature, torch::Tensor *mask,
                                            torch::Tensor *entropy);
};

// Copies a stored tensor into a parameter, converting its dtype (F32, F16, BF16 or F64
// stored); checks the shape. Throws data::InputException naming `source` and the
// tensor: "tensor X has shape [a, b], <shapeSource> needs [c, d]". Used by the decoder's
// loader (modelio.cpp) and the encoders' (textencoder.cpp).
void copyStoredTensor(torch::Tensor &param, const TensorView &view, const std::string &source,
                      const std::string &shapeSource = "the config");

} // namespace rwb::model
