#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "model/causallm.h"
#include "model/initmodel.h"
#include "model/membench.h"
#include "model/modelconfig.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/devicecheck.h"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

namespace fs = std::filesystem;

const char *const kGenerateHelp = R"(rwb generate — sample completions from a model by hand

Usage: rwb generate --model DIR [--adapter DIR] (--prompt TEXT | --sender S --email TEXT)
                    [-n G] [--max-new-tokens N] [--temperature T] [--top-p P] [--top-k K]
                    [--min-p M] [--seed S] [--thinking] [--raw] [--dtype D] [--device D] [--threads N]

  --model DIR        a Hugging Face model folder (config.json, model.safetensors or an index,
                     tokenizer.json or tokenizer.model)
  --adapter DIR      a LoRA adapter in the PEFT layout (adapter_config.json, adapter_model.safetensors)
  --prompt TEXT      the user's message, wrapped in the model's prompt format (see --raw)
  --sender, --email  build the first paper's extraction prompt (fig. 2; fig. 3 with --thinking)
  --raw              send --prompt as it is, without the prompt format
  -n, --samples G    completions to sample (default 1): the prompt is prefilled once
  --max-new-tokens   default 64; sampling stops earlier at the format's stop tokens
  --temperature      default 1.0; 0 is greedy
  --top-p, --top-k, --min-p   default 1.0, 0 (off), 0 (off)
  --seed             default 0; the same seed gives the same completions
  --dtype            auto (the config's), float32 or bfloat16
  --device           auto, cpu or cuda
  --threads          CPU threads (default: auto — $RWB_THREADS, or 1 or every core by a timed check)

Prints one JSON line per sample: {"sample", "text", "tokens", "truncated", "logprob"},
then a line on stderr with the prefill and decode speed.
)";

const char *const kModelHelp = R"(rwb model — model folders

Subcommands:
  init   write a new model with random weights (the tiny default or Qwen3-0.6B's shape)
  info   what a model folder holds: family, shape, parameters, tokenizer, prompt format
  check  whether this build computes the decoder and its gradients right on a device
Run "rwb model <subcommand> --help" for its options.
)";

const char *const kCheckHelp = R"(rwb model check — does this build compute right on this device?

Usage: rwb model check [--device D] [--dtype D] [--model DIR] [--threads N] [--seed S]

Runs the decoder on the device and compares it with references worked out another way:
  logits           the device's logits against float64 on the CPU, same weights
  kv_cache         decoding one token at a time through the KV cache against the whole sequence
  left_padding     a left-padded row of a batch against the row alone
  greedy           greedy decoding picks the largest logit at every step
  seeded_sampling  one seed samples the same tokens twice
  gradient         GRPO's loss gradient (LoRA, β > 0, clipped ratios) in float64 on the
                   device against five-point finite differences
  gradient_vs_cpu  that gradient as training takes it in --dtype against float64 on the CPU
  gradient_padded  the same with both groups in one micro-batch, the shorter prompt
                   left-padded (a NaN there fails it)
Run it once on a new machine or after building against another libtorch (docs/gpu.md).

  --device   auto (CUDA when there is a GPU), cpu or cuda
  --dtype    float32 (default), bfloat16 (forward: bf16 weights; gradient: float32 weights
             with bf16 products, as training runs) or float64
  --model    check the forward checks on this model folder instead of tiny random Qwen3,
             Qwen2 and Llama decoders (it is also loaded in float64 on the CPU: 8 bytes a
             parameter); the gradient checks always use a tiny random model
  --threads  CPU threads (default: auto — $RWB_THREADS, or 1 or every core by a timed check)
  --seed     default 1

Prints one JSON line per check: {"check", "model", "value", "tolerance", "passed",
"seconds", "measure"}; exits 1 when any check fails.
)";

const char *const kInitHelp = R"(rwb model init — a new model folder with random weights

Usage: rwb model init --tokenizer DIR --out DIR [--shape tiny|qwen3-0.6b] [--layers N] [--seed S]
                      [--dtype D]

Writes DIR/config.json and DIR/model.safetensors in the Hugging Face layout and copies
the tokenizer files (tokenizer.json or tokenizer.model, tokenizer_config.json) from
--tokenizer. The vocabulary size, eos and bos come from the tokenizer. "tiny" (the
default) is the demo's policy: a Qwen3-architecture decoder of a few million parameters
(hidden 256, 4 layers, 4 / 2 heads of 64, FFN 768, tied embeddings) that the SFT stage
trains from scratch. --layers N gives the shape N decoder layers instead of its own
(docs/training.md compares the tiny model with 2 and with 4).
)";

const char *const kInfoHelp = R"(rwb model info — describe a model folder

Usage: rwb model info --model DIR
Prints one JSON object: family, shape, parameters, dtype, tokenizer kind and size,
prompt format and stop tokens, and tokenizer_notes (what to know about how the
tokenizer files were read).
)";

model::ModelOptions modelOptions(const Args &args)
{
    model::ModelOptions o;
    o.dtype = args.value("dtype", "auto");
    o.device = args.value("device", "auto");
    o.threads = static_cast<int>(args.number("threads", 0));
    if (o.dtype != "auto" && o.dtype != "float32" && o.dtype != "bfloat16")
        throw UsageError{"--dtype must be auto, float32 or bfloat16"};
    if (o.device != "auto" && o.device != "cpu" && o.device != "cuda")
        throw UsageError{"--device must be auto, cpu or cuda"};
    return o;
}

int generate(const std::vector<std::string> &rawArgs)
{
    std::vector<std::string> argv = rawArgs;
    for (auto &a : argv)
        if (a == "-n")
            a = "--samples";
    const Args args(argv, {{"model", "adapter", "prompt", "sender", "email", "samples", "max-new-tokens", "temperature",
                            "top-p", "top-k", "min-p", "seed", "dtype", "device", "threads"},
                           {"thinking", "raw", "help"}});
    if (args.has("help")) {
        std::cout << kGenerateHelp;
        return kExitOk;
    }
    const std::string dir = args.required("model");
    const bool fromEmail = args.has("sender") || args.has("email");
    if (fromEmail == args.has("prompt"))
        throw UsageError{"give either --prompt or --sender with --email"};
    const int g = static_cast<int>(args.number("samples", 1));
    if (g < 1)
        throw UsageError{"-n must be ≥ 1"};

    const auto tokenizer = tokenizer::loadTokenizer(dir);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(dir, *tokenizer);
    std::string prompt;
    if (fromEmail)
        prompt = format.extractionPrompt(args.required("sender"), args.required("email"), args.has("thinking"));
    else if (args.has("raw"))
        prompt = args.value("prompt");
    else
        prompt = format.chat({{"user", args.value("prompt")}}, /*addGenerationPrompt=*/true);

    auto lm = model::CausalLM::load(dir, modelOptions(args));
    if (args.has("adapter"))
        lm->loadAdapter(args.value("adapter"));

    model::SamplingOptions so;
    so.temperature = args.number("temperature", 1.0);
    so.topP = args.number("top-p", 1.0);
    so.topK = static_cast<int>(args.number("top-k", 0));
    so.minP = args.number("min-p", 0.0);
    so.maxNewTokens = static_cast<int>(args.number("max-new-tokens", 64));
    so.seed = static_cast<uint64_t>(args.number("seed", 0));
    so.stopTokens = format.stopTokenIds(*tokenizer);
    so.padToken = tokenizer->padId().value_or(tokenizer->eosId().value_or(0));
    so.vocabLimit = tokenizer->vocabSize();
    if (so.topP <= 0.0 || so.topP > 1.0)
        throw UsageError{"--top-p must be in (0, 1]"};

    const std::vector<int32_t> ids = tokenizer->encode(prompt);
    if (ids.empty())
        throw UsageError{"the prompt encodes to no token"};
    const model::Generation gen = lm->generate({ids}, g, so);
    for (size_t i = 0; i < gen.tokens.size(); ++i) {
        std::vector<int32_t> shown = gen.tokens[i];
        if (!shown.empty() && !gen.truncated[i])
            shown.pop_back(); // the stop token
        double logprob = 0.0;
        for (float lp : gen.logProbs[i])
            logprob += lp;
        nlohmann::ordered_json j;
        j["sample"] = i;
        j["text"] = tokenizer->decode(shown, /*skipSpecial=*/true);
        j["tokens"] = gen.tokens[i].size();
        j["truncated"] = static_cast<bool>(gen.truncated[i]);
        j["logprob"] = logprob;
        std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    }
    const double decoded = static_cast<double>(gen.generatedTokens) - static_cast<double>(gen.tokens.size());
    std::cerr << "prompt " << ids.size() << " tokens, prefill " << static_cast<int>(gen.promptTokens / gen.prefillSeconds)
              << " tok/s; decoded " << gen.generatedTokens << " tokens at "
              << static_cast<int>(gen.decodeSeconds > 0 ? decoded / gen.decodeSeconds : 0) << " tok/s ("
              << lm->deviceName() << ", " << lm->dtypeName() << ")" << std::endl;
    return kExitOk;
}

int init(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"tokenizer", "out", "shape", "layers", "seed", "dtype"}, {"help"}});
    if (args.has("help")) {
        std::cout << kInitHelp;
        return kExitOk;
    }
    model::InitModelOptions o;
    o.tokenizerDir = args.required("tokenizer");
    o.out = args.required("out");
    o.shape = args.value("shape", "tiny");
    o.seed = static_cast<uint64_t>(args.number("seed", 0));
    o.dtype = args.value("dtype", "float32");
    if (o.shape != "tiny" && o.shape != "qwen3-0.6b")
        throw UsageError{"--shape must be tiny or qwen3-0.6b"};
    if (args.has("layers")) {
        const double layers = args.number("layers", 0);
        if (layers < 1 || layers > 128 || layers != static_cast<int>(layers))
            throw UsageError{"--layers must be a whole number from 1 to 128"};
        o.layers = static_cast<int>(layers);
    }
    const model::InitModelResult r = model::initModelFolder(o);
    nlohmann::ordered_json j;
    j["model"] = o.out;
    j["family"] = model::familyName(r.config.family);
    j["parameters"] = r.parameters;
    j["vocab_size"] = r.config.vocabSize;
    j["dtype"] = r.dtype;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int check(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"device", "dtype", "model", "threads", "seed"}, {"help"}});
    if (args.has("help")) {
        std::cout << kCheckHelp;
        return kExitOk;
    }
    train::DeviceCheckOptions o;
    o.device = args.value("device", "auto");
    o.dtype = args.value("dtype", "float32");
    o.modelDir = args.value("model", "");
    o.threads = static_cast<int>(args.number("threads", 0));
    o.seed = static_cast<uint64_t>(args.number("seed", 1));
    if (o.device != "auto" && o.device != "cpu" && o.device != "cuda")
        throw UsageError{"--device must be auto, cpu or cuda"};
    if (o.dtype != "float32" && o.dtype != "bfloat16" && o.dtype != "float64")
        throw UsageError{"--dtype must be float32, bfloat16 or float64"};
    const train::DeviceCheckReport report = train::checkDevice(o, [](const train::DeviceCheckResult &r) {
        nlohmann::ordered_json j;
        j["check"] = r.check;
        j["model"] = r.model;
        j["value"] = r.value;
        j["tolerance"] = r.tolerance;
        j["passed"] = r.passed;
        j["seconds"] = r.seconds;
        j["measure"] = r.measure;
        std::cout << j.dump() << std::endl;
    });
    size_t passed = 0;
    for (const train::DeviceCheckResult &r : report.results)
        passed += r.passed ? 1 : 0;
    std::cerr << "rwb model check: " << passed << " of " << report.results.size() << " checks passed on "
              << report.device << " in " << report.dtype << std::endl;
    for (const train::DeviceCheckResult &r : report.results)
        if (!r.passed)
            std::cerr << "  failed: " << r.check << " on " << r.model << ": " << r.value << " > " << r.tolerance
                      << " (" << r.measure << ")" << std::endl;
    return report.passed() ? kExitOk : kExitFailure;
}

int info(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model"}, {"help"}});
    if (args.has("help")) {
        std::cout << kInfoHelp;
        return kExitOk;
    }
    const std::string dir = args.required("model");
    const model::ModelConfig c = model::loadModelConfig(dir);
    const auto tokenizer = tokenizer::loadTokenizer(dir);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(dir, *tokenizer);
    nlohmann::ordered_json j;
    j["family"] = model::familyName(c.family);
    j["parameters"] = c.parameterCount();
    j["vocab_size"] = c.vocabSize;
    j["hidden_size"] = c.hiddenSize;
    j["layers"] = c.numLayers;
    j["heads"] = c.numHeads;
    j["kv_heads"] = c.numKvHeads;
    j["head_dim"] = c.headDim;
    j["tied_embeddings"] = c.tieWordEmbeddings;
    j["dtype"] = c.torchDtype;
    j["tokenizer"] = tokenizer->kind();
    j["tokenizer_vocab_size"] = tokenizer->vocabSize();
    j["prompt_format"] = format.name();
    j["stop_tokens"] = format.stopTokenIds(*tokenizer);
    if (tokenizer->vocabSize() > c.vocabSize)
        j["warning"] = "the tokenizer has more tokens than the model's embeddings";
    j["tokenizer_notes"] = tokenizer->notes();
    std::cout << j.dump(2) << std::endl;
    return kExitOk;
}

} // namespace

int generateCommand(const std::vector<std::string> &args)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << kGenerateHelp;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    return guarded("generate", [&] { return generate(args); });
}

int modelCommand(const std::vector<std::string> &args)
{
    return dispatch("model", kModelHelp, args, {{"init", init}, {"info", info}, {"check", check}});
}

} // namespace rwb::cli
