#include "cli.h"
#include "commands.h"

#include "tasks/extraction/extractionrecord.h"
#include "model/causallm.h"
#include "model/membench.h"
#include "model/modelconfig.h"
#include "model/precision.h"
#include "model/threads.h"
#include "reward/compositereward.h"
#include "tasks/extraction/extraction.h"
#include "task/catalog.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

// The target of issue 2: component evaluations per second on one thread.
constexpr double kRewardsTarget = 500000.0;

const char *const kBenchHelp = R"(rwb bench — benchmarks of the engine

Subcommands:
  rewards    component evaluations per second of partial + marker + exist, one thread
  generate   prefill and decode tokens/s of the decoder, batch 1 and G, f32 and bf16
  membw      the machine's memory bandwidth as libtorch sees it
  few-rows   decoding's products of 1–16 rows by the 0.6B shape's weights: GB/s of W
             through our kernels and through ATen
  store      rollouts inserted per second into the SQLite run store
  grpo-step  where the time of one GRPO step goes (generate, reward, …, store)
  embed      texts/s of an embedding backend, and the semantic reward's cost per pair
  serve      requests/s and tokens/s of rwb serve at several numbers of concurrent clients
  mcts       simulations/s of the tree search, where the time goes, and what sharing a
             parent's prefill saves
Run "rwb bench <subcommand> --help" for its options.
)";

const char *const kRewardsHelp = R"(rwb bench rewards — reward throughput on one thread

Usage: rwb bench rewards [--input I.jsonl] [--seconds S]

  --input I.jsonl   completions to score (default: the bundled sample set)
  --seconds S       how long to measure each mode (default 2)

Scores every line with the composite partial + marker + exist, over and over, and
prints one JSON object. "evaluations_per_second" counts component evaluations
(3 per completion) with each e-mail prepared once and shared by its completions, as
in a GRPO group; every completion is extracted, normalized and stripped each time.
"uncached_evaluations_per_second" prepares the e-mail again for every completion.
Target: 500,000 evaluations per second.
)";

int rewards(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "seconds"}, {"help"}});
    if (args.has("help")) {
        std::cout << kRewardsHelp;
        return kExitOk;
    }
    std::string input = args.value("input");
    if (input.empty()) {
        input = findResource("samples/company_samples.jsonl");
        if (input.empty())
            throw UsageError{"the bundled sample set was not found; pass --input"};
    }
    const double seconds = args.number("seconds", 2.0);
    if (!(seconds > 0.0))
        throw UsageError{"--seconds must be > 0"};
    const std::vector<data::ExtractionRecord> records = data::readExtractionJsonl(input).records;
    if (records.empty())
        throw data::InputException({input, 0, "no completions to score"});

    reward::RewardConfig config;
    config.components = {{"partial", 1.0, {}}, {"marker", 1.0, {}}, {"exist", 1.0, {}}};
    const reward::CompositeReward composite(config, "bench", task::Catalog::builtin().rewards());

    // One prepared prompt per e-mail, shared by its completions.
    std::vector<std::shared_ptr<reward::ExtractionPrompt>> prompts;
    for (const auto &r : records) {
        if (prompts.empty() || prompts.back()->emailText() != r.emailText ||
            prompts.back()->senderEmail() != r.senderEmail || prompts.back()->gold() != r.gold)
            prompts.push_back(std::make_shared<reward::ExtractionPrompt>(r.senderEmail, r.emailText, r.gold));
        else
            prompts.push_back(prompts.back());
    }

    using Clock = std::chrono::steady_clock;
    volatile double sink = 0.0;
    std::vector<double> values;
    auto measure = [&](bool cachedPrompts) {
        size_t completions = 0;
        const auto start = Clock::now();
        double elapsed = 0.0;
        do {
            for (size_t i = 0; i < records.size(); ++i) {
                const auto &r = records[i];
                const reward::ExtractionAnswer answer(r.completion, false);
                if (cachedPrompts) {
                    sink = sink + composite.score(*prompts[i], answer, values);
                } else {
                    const reward::ExtractionPrompt prompt(r.senderEmail, r.emailText, r.gold);
                    sink = sink + composite.score(prompt, answer, values);
                }
            }
            completions += records.size();
            elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        } while (elapsed < seconds);
        return std::make_pair(completions, elapsed);
    };
    const auto [n, t] = measure(true);
    const auto [nu, tu] = measure(false);
    const double perSecond = 3.0 * static_cast<double>(n) / t;
    nlohmann::ordered_json j;
    j["benchmark"] = "rewards";
    j["components"] = {"partial", "marker", "exist"};
    j["input"] = input;
    j["completions"] = records.size();
    j["threads"] = 1;
    j["evaluations"] = 3 * n;
    j["seconds"] = t;
    j["evaluations_per_second"] = perSecond;
    j["completions_per_second"] = static_cast<double>(n) / t;
    j["uncached_evaluations_per_second"] = 3.0 * static_cast<double>(nu) / tu;
    j["target"] = kRewardsTarget;
    j["meets_target"] = perSecond >= kRewardsTarget;
    std::cout << j.dump(2) << std::endl;
    return kExitOk;
}

const char *const kGenerateHelp = R"(rwb bench generate — how fast the decoder prefills and decodes

Usage: rwb bench generate [--shape tiny|qwen3-0.6b|all] [--dtype auto|float32|bfloat16|all]
                          [--samples G] [--prompts B] [--prompt-tokens P] [--new-tokens N]
                          [--threads T] [--device auto|cpu|cuda]

  --shape          tiny: the demo's default policy (Qwen3 architecture, ~4M parameters,
                   vocab 4096); qwen3-0.6b: Qwen3-0.6B's shape with random weights;
                   all (default): both
  --dtype          weights and activations; auto (default): what the engine runs a bf16
                   checkpoint in on this machine (bfloat16 where the CPU or GPU does bf16
                   fast, else float32; the reason is printed); all: both
  --samples G      the group size decoded together after one prefill (default 8)
  --prompts B      prompts of G samples each in the second run (default 1). With B > 1 on
                   the CPU and more than one thread, the prompts go in blocks to one worker
                   thread each, as `rwb grpo` generates with thread_split "batches": B 8
                   is a GRPO step's generation (8 prompts × G 8)
  --prompt-tokens  prompt length (default 64)
  --new-tokens     tokens decoded per row (default 32); no stop token, so every row decodes them all
  --threads        libtorch CPU threads (default: auto — $RWB_THREADS, or 1 or every core by a timed check)
  --device         auto (default: CUDA where libtorch sees a GPU), cpu or cuda; the
                   bandwidth bound is then that device's memory

Prints one JSON object: the device, the precision chosen and why, the memory bandwidth
(the faster of a sum and a matrix-vector product over 1 GiB, fastest pass), the fastest
1024³ product per dtype ("peak_gflops_…"), the kernel decoding's few rows run through,
and per shape, dtype and batch (1 and B × G) prefill and decode tokens/s. A decode step
reads every weight once for all its rows, so its memory bound is batch × bandwidth /
weight bytes ("of_bound"); its compute bound is peak operations/s ÷ operations per token
(2 per weight, and attention's products over the context; "of_compute_bound").
Targets (issue 39): on the 0.6B shape, batch-1 decode ≥ 85 % and G = 8 ≥ 75 % of the
memory bound; the tiny model (its weights sit in the caches) ≥ 50 % of its compute bound.
)";

const char *const kMembwHelp = R"(rwb bench membw — memory bandwidth

Usage: rwb bench membw [--seconds S] [--threads T]

Reads (sum) and copies a 1 GiB buffer with libtorch's threads for S seconds each
(default 2) and prints {"read_gb_per_s", "copy_gb_per_s", "threads"}. Copy counts the
bytes read and written.
)";

void setThreadsOption(const Args &args)
{
    model::setTorchThreads(0);
    if (args.has("threads")) {
        const int t = static_cast<int>(args.number("threads", 0));
        if (t < 1)
            throw UsageError{"--threads must be ≥ 1"};
        model::setTorchThreads(t);
    }
}

// Why the threads setThreadsOption left are the ones they are (--threads, $RWB_THREADS or
// the timed check), for every bench's output.
std::string threadsReason(const Args &args)
{
    return model::resolveThreads(args.has("threads") ? static_cast<int>(args.number("threads", 0)) : 0).reason;
}

int membw(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"seconds", "threads"}, {"help"}});
    if (args.has("help")) {
        std::cout << kMembwHelp;
        return kExitOk;
    }
    setThreadsOption(args);
    const model::MemoryBandwidth m = model::measureMemoryBandwidth(args.number("seconds", 2.0));
    nlohmann::ordered_json j;
    j["benchmark"] = "membw";
    j["read_gb_per_s"] = m.readBytesPerSecond / 1e9;
    j["copy_gb_per_s"] = m.copyBytesPerSecond / 1e9;
    j["threads"] = m.threads;
    j["threads_reason"] = threadsReason(args);
    j["buffer_bytes"] = m.bufferBytes;
    std::cout << j.dump(2) << std::endl;
    return kExitOk;
}

const char *const kFewRowsHelp = R"(rwb bench few-rows — decoding's few-rows products

Usage: rwb bench few-rows [--dtype float32|bfloat16|all] [--rows 1,2,8,16] [--passes P] [--threads T]

Multiplies R rows (each of --rows; default 1,2,8,16) by every weight matrix of the
Qwen3-0.6B shape's kind (56 of 3072 × 1024, 28 of 1024 × 3072, the 151,936 × 1024 head;
random values, far larger than the caches) and prints the bytes of W read per second,
the fastest of P passes (default 5): through the kernel decoding uses (model/fusedops.h;
"kernel" names it: avx512bf16, avx512, avx2, baseline or aten) and through ATen (mv for
one row, linear for more). Prints one JSON object, with the memory bandwidth measured
first to compare with; a table on stderr. --dtype default all.
)";

int fewRowsBench(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"dtype", "rows", "passes", "threads"}, {"help"}});
    if (args.has("help")) {
        std::cout << kFewRowsHelp;
        return kExitOk;
    }
    const std::string dtype = args.value("dtype", "all");
    if (dtype != "float32" && dtype != "bfloat16" && dtype != "all")
        throw UsageError{"--dtype must be float32, bfloat16 or all"};
    const std::vector<int> rows = positiveList(args.value("rows", "1,2,8,16"), "rows", 16);
    const int passes = static_cast<int>(args.number("passes", 5));
    if (passes < 1)
        throw UsageError{"--passes must be ≥ 1"};
    setThreadsOption(args);
    std::cerr << "measuring memory bandwidth…" << std::endl;
    const model::MemoryBandwidth bw = model::measureMemoryBandwidth(1.0);
    nlohmann::ordered_json out;
    out["benchmark"] = "few-rows";
    out["threads"] = bw.threads;
    out["threads_reason"] = threadsReason(args);
    out["read_gb_per_s"] = bw.readBytesPerSecond / 1e9;
    out["read_method"] = bw.readMethod;
    out["runs"] = nlohmann::ordered_json::array();
    std::fprintf(stderr, "%-9s %-16s %5s %4s %-10s %10s %10s %8s\n", "dtype", "matrix", "count", "rows", "kernel",
                 "ours GB/s", "ATen GB/s", "of read");
    for (const std::string &dt : {std::string("float32"), std::string("bfloat16")}) {
        if (dtype != "all" && dtype != dt)
            continue;
        for (const model::FewRowsMeasurement &m : model::measureFewRows(dt, rows, passes)) {
            nlohmann::ordered_json r;
            r["dtype"] = m.dtype;
            r["out"] = m.out;
            r["in"] = m.in;
            r["count"] = m.count;
            r["rows"] = m.rows;
            r["kernel"] = m.kernel;
            r["ours_gb_per_s"] = m.oursBytesPerSecond / 1e9;
            r["aten_op"] = m.atenOp;
            r["aten_gb_per_s"] = m.atenBytesPerSecond / 1e9;
            r["of_read_bandwidth"] = m.oursBytesPerSecond / bw.readBytesPerSecond;
            out["runs"].push_back(r);
            const std::string matrix = std::to_string(m.out) + " x " + std::to_string(m.in);
            std::fprintf(stderr, "%-9s %-16s %5lld %4d %-10s %10.1f %10.1f %7.0f%%\n", m.dtype.c_str(), matrix.c_str(),
                         static_cast<long long>(m.count), m.rows, m.kernel.c_str(), m.oursBytesPerSecond / 1e9,
                         m.atenBytesPerSecond / 1e9, 100.0 * m.oursBytesPerSecond / bw.readBytesPerSecond);
        }
    }
    std::cout << out.dump(2) << std::endl;
    return kExitOk;
}

int generate(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"shape", "dtype", "samples", "prompts", "prompt-tokens", "new-tokens", "threads", "device"}, {"help"}});
    if (args.has("help")) {
        std::cout << kGenerateHelp;
        return kExitOk;
    }
    const std::string shape = args.value("shape", "all");
    std::string dtype = args.value("dtype", "auto");
    if (shape != "tiny" && shape != "qwen3-0.6b" && shape != "all")
        throw UsageError{"--shape must be tiny, qwen3-0.6b or all"};
    if (dtype != "auto" && dtype != "float32" && dtype != "bfloat16" && dtype != "all")
        throw UsageError{"--dtype must be auto, float32, bfloat16 or all"};
    const int g = static_cast<int>(args.number("samples", 8));
    const int promptCount = static_cast<int>(args.number("prompts", 1));
    const int promptTokens = static_cast<int>(args.number("prompt-tokens", 64));
    const int newTokens = static_cast<int>(args.number("new-tokens", 32));
    if (g < 1 || promptCount < 1 || promptTokens < 1 || newTokens < 1)
        throw UsageError{"--samples, --prompts, --prompt-tokens and --new-tokens must be ≥ 1"};
    const std::string device = args.value("device", "auto");
    if (device != "auto" && device != "cpu" && device != "cuda")
        throw UsageError{"--device must be auto, cpu or cuda"};
    setThreadsOption(args);
    const model::PrecisionChoice precision = model::resolvePrecision("auto", device);
    std::cerr << "precision " << precision.name() << ": " << precision.reason << std::endl;
    if (dtype == "auto")
        dtype = model::resolveDtype("auto", "bfloat16", device);

    std::cerr << "measuring memory bandwidth…" << std::endl;
    const model::MemoryBandwidth bw = model::measureMemoryBandwidth(1.0, 1024.0 * 1024 * 1024, device);
    nlohmann::ordered_json out;
    out["benchmark"] = "generate";
    out["device"] = device; // the device's name once a model is on it ("cuda:0")
    out["precision"] = precision.name();
    out["precision_reason"] = precision.reason;
    out["threads"] = bw.threads;
    out["threads_reason"] = threadsReason(args);
    out["read_gb_per_s"] = bw.readBytesPerSecond / 1e9;
    out["read_method"] = bw.readMethod;
    out["prompt_tokens"] = promptTokens;
    out["new_tokens"] = newTokens;
    out["samples"] = g;
    out["prompts"] = promptCount;
    out["runs"] = nlohmann::ordered_json::array();

    std::vector<std::pair<std::string, model::ModelConfig>> shapes;
    if (shape != "qwen3-0.6b")
        shapes.emplace_back("tiny", model::tinyDefaultConfig(4096));
    if (shape != "tiny")
        shapes.emplace_back("qwen3-0.6b", model::qwen3_0_6bConfig());
    std::vector<std::string> dtypes;
    if (dtype != "bfloat16")
        dtypes.push_back("float32");
    if (dtype != "float32")
        dtypes.push_back("bfloat16");

    std::map<std::string, double> peakFlops;
    for (const std::string &dt : dtypes) {
        std::cerr << "measuring " << dt << " products (compute bound)…" << std::endl;
        peakFlops[dt] = model::measurePeakFlops(dt, 0.5, device);
        out["peak_gflops_" + dt] = peakFlops[dt] / 1e9;
        out["few_rows_kernel_" + dt] = model::decodeKernel(dt);
    }
    std::fprintf(stderr, "%-11s %-9s %5s %14s %14s %12s %12s %9s %9s\n", "shape", "dtype", "batch", "prefill tok/s",
                 "decode tok/s", "memory tok/s", "compute tok/s", "of mem", "of comp");
    for (const auto &[name, config] : shapes) {
        for (const std::string &dt : dtypes) {
            model::ModelOptions mo;
            mo.dtype = dt;
            mo.device = device;
            mo.threads = bw.threads;
            auto lm = model::CausalLM::random(config, mo);
            out["device"] = lm->deviceName();
            // Bytes read per decode step: every weight but the input embedding table (only
            // its rows are read), which is also the head when tied and then read in full.
            double bytesPerStep = static_cast<double>(lm->weightBytes());
            if (!config.tieWordEmbeddings)
                bytesPerStep -= static_cast<double>(config.vocabSize * config.hiddenSize) * (dt == "bfloat16" ? 2 : 4);
            const double boundTokensPerSecond = bw.readBytesPerSecond / bytesPerStep;
            // Operations per decoded token: a multiply-add per weight read, and attention's
            // two products over the context (prompt and half the new tokens, on average).
            const double context = promptTokens + newTokens / 2.0;
            const double flopsPerToken = 2.0 * bytesPerStep / (dt == "bfloat16" ? 2 : 4) +
                                         4.0 * static_cast<double>(config.numLayers * config.numHeads * config.headDim) * context;
            const double computeBound = peakFlops[dt] / flopsPerToken;
            std::mt19937 rng(7);
            std::vector<std::vector<int32_t>> prompts(static_cast<size_t>(promptCount),
                                                      std::vector<int32_t>(static_cast<size_t>(promptTokens)));
            for (auto &p : prompts)
                for (auto &t : p)
                    t = static_cast<int32_t>(rng() % static_cast<uint32_t>(config.vocabSize));
            const std::vector<int32_t> &prompt = prompts.front();
            model::SamplingOptions so;
            so.maxNewTokens = newTokens;
            so.seed = 1;
            {
                model::SamplingOptions warm = so;
                warm.maxNewTokens = 2;
                lm->generate({prompt}, 1, warm); // warm-up: oneDNN kernels, page faults
            }
            double single = 0.0;
            for (int batch : {1, g * promptCount}) {
                // B prompts in blocks on worker threads, as `rwb grpo` with thread_split "batches"
                const int workers = batch > 1 && promptCount > 1 && lm->deviceName() == "cpu" ? bw.threads : 1;
                model::SamplingOptions runOptions = so;
                runOptions.workers = workers;
                const model::Generation r = batch == 1 ? lm->generate({prompt}, 1, so) : lm->generate(prompts, g, runOptions);
                const double prefill = static_cast<double>(r.promptTokens) / r.prefillSeconds;
                // The first token of each row comes from the prefill's logits.
                const double decoded = static_cast<double>(r.generatedTokens - batch);
                const double decode = decoded / r.decodeSeconds;
                if (batch == 1)
                    single = decode;
                nlohmann::ordered_json run;
                run["shape"] = name;
                run["dtype"] = dt;
                run["parameters"] = lm->parameterCount();
                run["weight_bytes"] = lm->weightBytes();
                run["batch"] = batch;
                run["prompts"] = batch == 1 ? 1 : promptCount;
                run["workers"] = workers;
                run["prefill_tokens_per_s"] = prefill;
                run["decode_tokens_per_s"] = decode;
                run["decode_ms_per_step"] = 1000.0 * r.decodeSeconds / static_cast<double>(newTokens - 1);
                run["bound_tokens_per_s"] = boundTokensPerSecond * batch;
                run["of_bound"] = decode / (boundTokensPerSecond * batch);
                run["flops_per_token"] = flopsPerToken;
                run["compute_bound_tokens_per_s"] = computeBound;
                run["of_compute_bound"] = decode / computeBound;
                if (batch != 1)
                    run["speedup_over_batch_1"] = decode / single;
                out["runs"].push_back(run);
                std::fprintf(stderr, "%-11s %-9s %5d %14.1f %14.1f %12.1f %12.1f %8.0f%% %8.0f%%\n", name.c_str(),
                             dt.c_str(), batch, prefill, decode, boundTokensPerSecond * batch, computeBound,
                             100.0 * decode / (boundTokensPerSecond * batch), 100.0 * decode / computeBound);
                if (batch == g * promptCount)
                    break;
            }
        }
    }
    std::cout << out.dump(2) << std::endl;
    return kExitOk;
}

} // namespace

int benchCommand(const std::vector<std::string> &args)
{
    return dispatch("bench", kBenchHelp, args, {{"rewards", rewards}, {"generate", generate}, {"membw", membw}, {"few-rows", fewRowsBench}, {"store", storeBench}, {"grpo-step", grpoStepBench}, {"embed", embedBench}, {"serve", serveBench}, {"mcts", mctsBench}});
}

} // namespace rwb::cli
