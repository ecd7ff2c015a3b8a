#pragma once

#include "model/modelconfig.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rwb::model {

// Where and how a model runs.
struct ModelOptions {
    std::string dtype = "auto";  // "float32", "bfloat16", or "auto": the config's (float16 → float32 on CPU)
    std::string device = "auto"; // "cpu", "cuda", or "auto": CUDA when libtorch has it and a GPU is there
    int threads = 0;             // CPU threads for libtorch; 0 = auto: $RWB_THREADS or a timed check (model/threads.h)
    uint64_t seed = 0;           // random initialisation (random() only)
};

struct SamplingOptions {
    double temperature = 1.0;    // 0 = greedy
    double topP = 1.0;
    int topK = 0;                // 0 = off
    double minP = 0.0;           // 0 = off
    int maxNewTokens = 64;
    std::vector<int32_t> stopTokens;
    int32_t padToken = 0;        // fills finished rows and left-pads prompts
    int64_t vocabLimit = 0;      // > 0: ids ≥ this are never sampled (embedding rows beyond the tokenizer)
    uint64_t seed = 0;
    // Row r of a call draws from stream firstRow + r under `seed` (model/rowdraw.h): a
    // share of a larger batch, given its first row, samples what it would in the whole.
    uint64_t firstRow = 0;
    // > 1: the prompts split in this many blocks, generated at once on threads of their own
    // with one intra-op thread each (model/workers.h); rows keep their streams, so only
    // rounding can differ from one block. Ignored when a progress callback is given.
    int workers = 1;
};

// The completions of B prompts × G samples, row b·G + g for sample g of prompt b.
struct Generation {
    std::vector<std::vector<int32_t>> tokens;  // each ends with its stop token when it stopped
    std::vector<std::vector<float>> logProbs;  // log p(token) under softmax(logits / T) (T = 1 when greedy)
    std::vector<bool> truncated;               // reached maxNewTokens without a stop token
    double prefillSeconds = 0.0;
    double decodeSeconds = 0.0;
    int64_t promptTokens = 0;                  // prefilled, without padding
    int64_t generatedTokens = 0;               // sampled, over all rows
};

// Per-token scores of a completion given its prompt (teacher forcing).
struct TokenScores {
    std::vector<float> logProbs; // log p(completion[i] | prompt, completion[<i]) under softmax(logits / T)
    std::vector<float> entropy;  // per position, when asked for
};

// LoRA as PEFT's LoraConfig defines it: a module gets adapters when its name (as
// transformers names it, "model.layers.0.self_attn.q_proj") is one of targetModules or
// ends with "." + one of them, or, when targetRegex is set, when the regex matches the
// whole name. Its rank and alpha are rankPattern's / alphaPattern's for the first key
// that matches the end of its name (PEFT: "(.*\.)?(key)$"), else rank / alpha; its scale
// is alpha / rank, or alpha / √rank with rslora (rank-stabilized LoRA).
struct LoraOptions {
    int rank = 8;
    double alpha = 32.0;
    double dropout = 0.05;
    // Module names as PEFT writes them: q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj.
    std::vector<std::string> targetModules{"q_proj", "k_proj", "v_proj", "o_proj"};
    std::string targetRegex;
    bool rslora = false;
    std::vector<std::pair<std::string, int>> rankPattern;
    std::vector<std::pair<std::string, double>> alphaPattern;
};

// Whether LoRA options put adapters on the module of that name.
bool loraTargets(const LoraOptions &options, const std::string &module);

// Called between decode steps with (tokens generated so far in the longest row, max);
// return false to stop early. Runs on the calling thread.
using GenerationProgress = std::function<bool(int step, int maxSteps)>;

class CausalLmInternals; // libtorch side, core/model/causallminternals.h

// Sets libtorch's CPU threads for the calling thread (OpenMP and MKL keep them per
// thread): n > 0, or 0 for auto (model/threads.h: $RWB_THREADS or a timed check). A thread that runs a model
// it did not load (a scheduler's) calls it first.
void useCpuThreads(int threads);

// A decoder language model of the Qwen3 / Qwen2 / Llama families, with optional LoRA
// adapters. Not thread-safe: one thread uses a model at a time. Errors are exceptions
// with context (data::InputException for bad files).
class CausalLM {
public:
    // Random weights (normal, std 0.02), seeded by options.seed.
    static std::unique_ptr<CausalLM> random(const ModelConfig &config, const ModelOptions &options = {});
    // A Hugging Face model folder: config.json and model.safetensors (or a sharded
    // index). F32, F16 and BF16 weights are converted to the compute dtype. Throws
    // data::InputException naming the file and tensor for anything that does not match
    // the config (a missing tensor, a wrong shape, an unsupported dtype).
    static std::unique_ptr<CausalLM> load(const std::string &folder, const ModelOptions &options = {});
    // Writes config.json and model.safetensors (in the current dtype; adapters not merged).
    void save(const std::string &folder) const;
    // LoRA adapters in the PEFT layout: adapter_config.json and adapter_model.safetensors.
    void saveAdapter(const std::string &folder) const;
    // Adds adapters as the folder describes and loads their weights.
    void loadAdapter(const std::string &folder);
    ~CausalLM();

    const ModelConfig &config() const;
    std::string deviceName() const; // "cpu" or "cuda:0"
    std::string dtypeName() const;  // "float32" or "bfloat16"
    int64_t parameterCount() const; // base weights
    int64_t weightBytes() const;    // base weights, in their dtype

    // Samples `samplesPerPrompt` completions of each prompt: each prompt is prefilled once
    // and its KV cache expanded to the samples, which then decode together.
    Generation generate(const std::vector<std::vector<int32_t>> &prompts, int samplesPerPrompt,
                        const SamplingOptions &options, const GenerationProgress &progress = {});

    // Teacher-forced per-token log-probs (logit[target] − logsumexp in fp32, in chunks of
    // `chunk` positions so memory stays bounded for large vocabularies).
    std::vector<TokenScores> scoreTokens(const std::vector<std::vector<int32_t>> &prompts,
                                         const std::vector<std::vector<int32_t>> &completions, double temperature = 1.0,
                                         bool withEntropy = false, int64_t chunk = 128);

    // LoRA: base weights frozen; adapters switched off, the model is the reference policy.
    void addLora(const LoraOptions &options);
    bool hasLora() const;
    void setAdaptersEnabled(bool enabled);
    void mergeLora();

    CausalLmInternals &internals();

private:
    CausalLM();
    std::unique_ptr<CausalLmInternals> m_d;
};

} // namespace rwb::model
