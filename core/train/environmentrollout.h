#pragma once

// Rollouts as GRPO and evaluation take them: completions of B prompts × G samples, and for
// a task with an environment (task/environment.h) multi-step ones — generation pauses when
// a row's text ends with one of the environment's pause tags, the environment's reply is
// tokenized, fed to that row with its KV cache kept (BatchDecoder::extend) and marked,
// and the row samples on from after it. No libtorch in this header.
//
// Limits: maxNewTokens counts the policy's tokens only (the environment's do not use it
// up); a row whose next pause would be reply maxTurns + 1 or comes with its last allowed
// token, whose policy writes more than maxTurnTokens (> 0) in one stretch (from the
// start or from a reply to the next pause or the end), or that would outgrow the model's
// context ends there, truncated (no stop token, no answer after it).
//
// A pause is seen when the decoded text of the row's newest tokens ends with the pause
// tag: with the tags as added tokens (the demo's tokenizers) that is the tag's own token;
// a tokenizer that merges the tag's ">" with what follows would miss it and the policy
// would write on (SFT's targets, encoded span by span, teach the tag on its own).

#include "model/causallm.h"
#include "task/environment.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rwb::task {
class Example;
}
namespace rwb::tokenizer {
class Tokenizer;
}

namespace rwb::train {

// One completion.
struct RolloutRow {
    // Every token after the prompt, the policy's and the environment's in order; with
    // the stop token last when the row stopped.
    std::vector<int32_t> tokens;
    // Per token: the sampled token's log-probability (SamplingOptions' convention,
    // softmax(logits / T)); 0 on the environment's tokens.
    std::vector<float> logProbs;
    // Per token: 1 where the environment wrote it. Empty without an environment.
    std::vector<uint8_t> fromEnvironment;
    // The completion's text without the stop token: the policy's text decoded (special
    // tokens skipped) with the replies' text verbatim between.
    std::string text;
    bool truncated = false; // ended without a stop token
    int turns = 0;          // replies of the environment
    int policyTokens = 0;   // tokens the policy sampled (the stop token included)
};

struct RolloutOptions {
    model::SamplingOptions sampling;              // maxNewTokens counts policy tokens
    const task::Environment *environment = nullptr; // null: the policy writes alone
    int maxTurns = 6;                             // task::EnvironmentOptions' limits
    int maxTurnTokens = 0;
};

struct RolloutStats {
    double generationSeconds = 0.0;  // prefill and decoding
    double environmentSeconds = 0.0; // the environment's replies and their tokenization
    int64_t environmentTokens = 0;   // tokens the environment inserted
};

// Row b·G + g is sample g of prompt b; `examples[b]` is what the environment answers
// about. Without an environment this is CausalLM::generate (one static batch); with one,
// a BatchDecoder whose row r samples with the seed stream (sampling.seed, r). Throws
// std::invalid_argument for sizes that disagree and what the model throws; the
// environment's std::runtime_error propagates.
std::vector<RolloutRow> generateRollouts(model::CausalLM &lm, const tokenizer::Tokenizer &tokenizer,
                                         const std::vector<const task::Example *> &examples,
                                         const std::vector<std::vector<int32_t>> &prompts, int samplesPerPrompt,
                                         const RolloutOptions &options, RolloutStats *stats = nullptr);

} // namespace rwb::train
