// rwb serve (an OpenAI-compatible server over our engine) and rwb bench serve (its
// requests/s and tokens/s with concurrent clients, batching on and off).

#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "embed/embedderfactory.h"
#include "model/threads.h"
#include "net/httpjsonclient.h"
#include "serve/chatengine.h"
#include "serve/openaiserver.h"
#include "serve/rewardservice.h"
#include "task/catalog.h"
#include "util/boundedjson.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

namespace rwb::cli {

namespace {

using Clock = std::chrono::steady_clock;

const char *const kServeHelp = R"(rwb serve — an OpenAI-compatible HTTP server over the engine

Usage: rwb serve [--model DIR] [--embed hf:DIR ...] [--reward-config C.json
                 [--reward-data D.jsonl] [--store S.sqlite [--run-name N] [--step-gap S | --step-rollouts N]]
                 [--no-cache]] [--host 127.0.0.1] [--port 8000]
                 [--api-key-env NAME | --api-key KEY] [--max-batch 32] [--max-queue 256] [--threads N]
                 [--name ID] [--dtype auto|float32|bfloat16] [--device auto|cpu|cuda]
                 [--http-threads N] [--allow-host NAME ...] [--allow-origin O ...] [--quiet]

  --model DIR        a model folder the engine loads (Qwen3 / Qwen2 / Llama, Hugging Face
                     layout); its chat format from the tokenizer (ChatML or plain).
                     Needed unless --reward-config is given
  --reward-config C  serve this reward config to other trainers: POST /reward (OpenRLHF),
                     /reward/verl, /reward/trl (docs/handoff.md)
  --reward-data D    a dataset of the config's task: requests may name its records by id
  --store S.sqlite   log every scored rollout to this run store, as a run of kind
                     "external" the workbench follows like its own
  --run-name N       that run's name (default "served rewards")
  --step-gap S       without step numbers from the trainer, a pause of S seconds between
                     requests starts a new step (default 5)
  --step-rollouts N  without step numbers, a step is N rollouts instead, pauses or not
                     (asynchronous trainers: OpenRLHF --train.async_enable; N = rollout
                     batch size × samples per prompt)
  --no-cache         the judge's cache file is neither read nor written
  --embed hf:DIR     also serve /v1/embeddings with this encoder folder (repeatable; the
                     first is the default model)
  --host H           the address to listen on (default 127.0.0.1: this machine only)
  --port P           default 8000; 0 picks a free port
  --api-key-env NAME require "Authorization: Bearer <key>" on /v1 and /reward with the
                     key in $NAME. Without a key, anything on this machine (any user, any
                     program) that reaches the port is answered
  --api-key KEY      the same with the key itself (visible to other users in ps: prefer
                     --api-key-env)
  --max-batch N      completions decoded together (continuous batching; 1: one at a time)
  --max-queue N      requests waiting for the batch at most; one more gets 503 with
                     Retry-After (default 256; 0: no bound)
  --threads N        libtorch CPU threads of the decoder (default: auto — $RWB_THREADS, or 1 or every core by a timed check)
  --name ID          the chat model's id (default: the folder's name)
  --http-threads N   HTTP worker threads (default 2 × max batch + 8)
  --allow-host NAME  also answer requests whose Host header is NAME (repeatable). By
                     default only IP addresses and localhost are: a guard against DNS
                     rebinding (a web page reaching this server through a name of its own)
  --allow-origin O   accept requests from web pages of origin O ("https://a.example";
                     repeatable; "*": any). By default any request with an Origin header
                     (a browser's) gets 403
  --quiet            no line per request on stderr

Endpoints: POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models, GET /health;
with --reward-config POST /reward (also /get_reward), /reward/verl and /reward/trl.
Prints one JSON line on standard output when the model is loaded ({"url", "model", …});
answers 503 while loading. SIGINT or SIGTERM stops it (requests in flight get 503).
stream: true answers server-sent events. No constrained decoding (response_format is
accepted, not enforced), no tools. See docs/serve.md.
)";

const char *const kBenchServeHelp = R"(rwb bench serve — requests/s and tokens/s of rwb serve with concurrent clients

Usage: rwb bench serve --model DIR [--clients 1,8,32] [--requests N] [--max-tokens M]
                       [--max-batch 32[,1]] [--threads N] [--temperature T] [--dtype D]

Starts the server in-process on a free loopback port and, for each --max-batch value and
each number of clients, sends N chat requests (default 64) from that many client threads
at once, each asking for M tokens (default 32) at temperature T (default 1, a seed per
request). One JSON line per (max_batch, clients): requests/s, completion tokens/s,
latency (mean, p50, p95), the mean rows per decode step (how full the batch was), the
shares of the wall time the scheduler spent prefilling and decoding, and the client's
retries (a kept-alive connection closed as a request was sent).
)";

int wholeNumber(const Args &args, const std::string &name, int fallback, int low, int high)
{
    const double v = args.number(name, fallback);
    if (v < low || v > high || v != static_cast<int>(v))
        throw UsageError{"--" + name + " must be a whole number from " + std::to_string(low) + " to " +
                         std::to_string(high)};
    return static_cast<int>(v);
}

serve::ChatEngineOptions engineOptions(const Args &args)
{
    serve::ChatEngineOptions o;
    o.model.dtype = args.value("dtype", "auto");
    o.model.device = args.value("device", "auto");
    if (o.model.dtype != "auto" && o.model.dtype != "float32" && o.model.dtype != "bfloat16")
        throw UsageError{"--dtype must be auto, float32 or bfloat16"};
    if (o.model.device != "auto" && o.model.device != "cpu" && o.model.device != "cuda")
        throw UsageError{"--device must be auto, cpu or cuda"};
    o.scheduler.threads = wholeNumber(args, "threads", 0, 0, 1024);
    o.model.threads = o.scheduler.threads;
    return o;
}

bool isLoopback(const std::string &host)
{
    return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

int runServe(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "embed", "host", "port", "api-key-env", "api-key", "max-batch", "threads", "name",
                            "dtype", "device", "http-threads", "reward-config", "reward-data", "store", "run-name",
                            "step-gap", "step-rollouts", "allow-host", "allow-origin", "max-queue"},
                           {"quiet", "no-cache", "help"}});
    if (args.has("help")) {
        std::cout << kServeHelp;
        return kExitOk;
    }
    serve::RewardServiceOptions rewardOptions;
    rewardOptions.configPath = args.value("reward-config");
    const std::string folder = rewardOptions.configPath.empty() ? args.required("model") : args.value("model");
    for (const char *option : {"reward-data", "store", "run-name", "step-gap", "step-rollouts", "no-cache"})
        if (args.has(option) && rewardOptions.configPath.empty())
            throw UsageError{"--" + std::string(option) + " goes with --reward-config"};
    if (args.has("run-name") && !args.has("store"))
        throw UsageError{"--run-name names the run of --store: give --store too"};
    rewardOptions.dataPath = args.value("reward-data");
    rewardOptions.storePath = args.value("store");
    rewardOptions.runName = args.value("run-name", rewardOptions.runName);
    rewardOptions.stepGapSeconds = args.number("step-gap", rewardOptions.stepGapSeconds);
    if (!(rewardOptions.stepGapSeconds > 0.0 && rewardOptions.stepGapSeconds <= 86400.0))
        throw UsageError{"--step-gap must be more than 0 and at most 86400 seconds"};
    if (args.has("step-rollouts") && args.has("step-gap"))
        throw UsageError{"--step-rollouts and --step-gap both say where a step ends: give one"};
    if (args.has("step-rollouts") && !args.has("store"))
        throw UsageError{"--step-rollouts splits the run of --store into steps: give --store too"};
    rewardOptions.stepRollouts = args.has("step-rollouts") ? wholeNumber(args, "step-rollouts", 0, 1, 100000000) : 0;
    rewardOptions.noCache = args.has("no-cache");
    serve::ChatEngineOptions engine = engineOptions(args);
    engine.scheduler.maxBatch = wholeNumber(args, "max-batch", 32, 1, 4096);
    engine.scheduler.maxQueued = wholeNumber(args, "max-queue", 256, 0, 1000000);
    engine.name = args.value("name");
    std::vector<std::string> embedFolders;
    for (const std::string &spec : args.values("embed")) {
        if (spec.rfind("hf:", 0) != 0 || spec.size() <= 3)
            throw UsageError{"--embed takes hf:DIR (a Hugging Face encoder folder), not \"" + spec + "\""};
        embedFolders.push_back(spec);
    }
    if (args.has("api-key") && args.has("api-key-env"))
        throw UsageError{"give --api-key-env or --api-key, not both"};
    serve::ServerOptions server;
    server.host = args.value("host", "127.0.0.1");
    server.port = wholeNumber(args, "port", 8000, 0, 65535);
    server.threads = wholeNumber(args, "http-threads", 2 * engine.scheduler.maxBatch + 8, 1, 100000);
    server.allowedHosts = args.values("allow-host");
    server.allowedOrigins = args.values("allow-origin");
    if (args.has("api-key-env")) {
        const std::string name = args.value("api-key-env");
        const char *key = std::getenv(name.c_str());
        if (!key || !*key)
            throw UsageError{"--api-key-env " + name + ": the environment variable is not set or empty"};
        server.apiKey = key;
    } else if (args.has("api-key")) {
        server.apiKey = args.value("api-key");
        if (server.apiKey.empty())
            throw UsageError{"--api-key is empty"};
    }
    auto logMutex = std::make_shared<std::mutex>();
    if (!args.has("quiet"))
        server.log = [logMutex](const std::string &line) {
            std::lock_guard<std::mutex> lock(*logMutex);
            std::cerr << "rwb serve: " << line << std::endl;
        };

    // SIGINT and SIGTERM are taken by sigtimedwait() below: blocked here, before any
    // thread starts, so that every thread inherits the mask.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    signal(SIGPIPE, SIG_IGN);

    serve::OpenAiServer http(server);
    http.start();
    {
        std::lock_guard<std::mutex> lock(*logMutex);
        std::cerr << "rwb serve: listening on " << http.baseUrl() << (server.apiKey.empty() ? "" : " (API key required)")
                  << "; loading " << (folder.empty() ? rewardOptions.configPath : folder) << std::endl;
        if (!isLoopback(server.host) && server.apiKey.empty())
            std::cerr << "rwb serve: warning: listening on " << server.host
                      << " without an API key: anyone who can reach this machine can use the model" << std::endl;
    }

    // The models load on their own thread, so that /health answers 503 meanwhile.
    std::shared_ptr<serve::ChatEngine> chat;
    std::exception_ptr loadError;
    std::atomic<bool> loadDone{false};
    if (!rewardOptions.configPath.empty() && !args.has("quiet"))
        rewardOptions.log = [logMutex](const std::string &line) {
            std::lock_guard<std::mutex> lock(*logMutex);
            std::cerr << "rwb serve: " << line << std::endl;
        };
    std::shared_ptr<serve::RewardService> rewards;
    std::thread loader([&] {
        try {
            if (!rewardOptions.configPath.empty())
                rewards = std::make_shared<serve::RewardService>(rewardOptions, task::Catalog::builtin());
            auto engineLoaded = folder.empty() ? nullptr : std::make_shared<serve::ChatEngine>(folder, engine);
            std::vector<serve::EmbeddingModel> embedders;
            for (const std::string &spec : embedFolders) {
                embed::EmbedderContext ctx;
                ctx.source = "--embed " + spec;
                ctx.options = R"({"document_prefix": ""})"; // the client's text as it is
                std::shared_ptr<const embed::Embedder> e = embed::makeEmbedder(spec, ctx);
                std::string name = e->name();
                if (name.rfind("hf:", 0) == 0)
                    name = name.substr(3);
                embedders.push_back({name, e});
            }
            chat = engineLoaded;
            http.setModels(engineLoaded, embedders, rewards);
            nlohmann::ordered_json ready;
            ready["url"] = http.baseUrl();
            ready["model"] = engineLoaded ? nlohmann::json(engineLoaded->name()) : nlohmann::json();
            ready["embedding_models"] = nlohmann::json::array();
            for (const auto &e : embedders)
                ready["embedding_models"].push_back(e.name);
            if (engineLoaded) {
                ready["max_batch"] = engineLoaded->maxBatch();
                ready["context"] = engineLoaded->contextLength();
            }
            if (rewards) {
                const std::string root = http.baseUrl().substr(0, http.baseUrl().size() - 3); // without "/v1"
                ready["reward_url"] = root + "/reward";
                ready["reward_config"] = rewards->configName();
                ready["task"] = rewards->taskName();
                ready["rewards"] = rewards->componentNames();
                if (rewards->runId() > 0)
                    ready["run_id"] = rewards->runId();
            }
            std::cout << ready.dump() << std::endl;
            std::lock_guard<std::mutex> lock(*logMutex);
            if (engineLoaded)
                std::cerr << "rwb serve: ready: " << engineLoaded->name() << " (" << engineLoaded->description() << ")"
                          << std::endl;
            if (rewards)
                std::cerr << "rwb serve: ready: rewards of " << rewards->configName() << " (task " << rewards->taskName()
                          << ")" << (rewards->runId() > 0 ? ", logged to " + rewardOptions.storePath + " run " +
                                                                std::to_string(rewards->runId())
                                                          : std::string())
                          << std::endl;
        } catch (...) {
            loadError = std::current_exception();
        }
        loadDone = true;
    });

    int signalNumber = 0;
    while (signalNumber <= 0) {
        const timespec wait{0, 200 * 1000 * 1000};
        signalNumber = sigtimedwait(&stopSignals, nullptr, &wait);
        if (loadDone && loadError)
            break;
    }
    if (signalNumber > 0) {
        std::lock_guard<std::mutex> lock(*logMutex);
        std::cerr << "rwb serve: " << (signalNumber == SIGINT ? "SIGINT" : "SIGTERM") << ": stopping" << std::endl;
    }
    loader.join(); // a load in progress finishes first
    if (chat)
        chat->shutdown(); // requests in flight end with 503
    http.stop();
    rewards.reset(); // the step held in memory is written, the run finished
    if (loadError)
        std::rethrow_exception(loadError); // guarded() turns it into a message and an exit code
    return kExitOk;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const size_t i = static_cast<size_t>(std::min<double>(static_cast<double>(v.size() - 1),
                                                          std::floor(p * static_cast<double>(v.size() - 1) + 0.5)));
    return v[i];
}

int runServeBench(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "clients", "requests", "max-tokens", "max-batch", "threads", "temperature", "dtype"},
                           {"help"}});
    if (args.has("help")) {
        std::cout << kBenchServeHelp;
        return kExitOk;
    }
    const std::string folder = args.required("model");
    const std::vector<int> clientCounts = positiveList(args.value("clients", "1,8,32"), "clients");
    const std::vector<int> batches = positiveList(args.value("max-batch", "32"), "max-batch");
    const int requests = wholeNumber(args, "requests", 64, 1, 1000000);
    const int maxTokens = wholeNumber(args, "max-tokens", 32, 1, 1000000);
    const double temperature = args.number("temperature", 1.0);
    if (!(temperature >= 0.0 && temperature <= 2.0))
        throw UsageError{"--temperature must be 0 to 2"};
    serve::ChatEngineOptions engine = engineOptions(args);
    const int mostClients = *std::max_element(clientCounts.begin(), clientCounts.end());

    for (const int maxBatch : batches) {
        engine.scheduler.maxBatch = maxBatch;
        auto chat = std::make_shared<serve::ChatEngine>(folder, engine);
        serve::ServerOptions so;
        so.port = 0;
        so.threads = 2 * std::max(mostClients, maxBatch) + 8;
        serve::OpenAiServer http(so);
        http.start();
        http.setModels(chat, {});

        net::ClientOptions co;
        co.who = "bench";
        co.target = net::endpointUrl(net::parseUrl(http.baseUrl(), "bench"), "chat/completions");
        // Like any client, retry a request whose kept-alive connection the server closed
        // just as it was sent (counted in "retries").
        co.retry.maxRetries = 2;
        co.retry.backoffSeconds = 0.01;
        co.retry.timeoutSeconds = 600;
        co.retry.deadlineSeconds = 3600;
        const net::JsonHttpClient client(co);
        const auto body = [&](int i) {
            nlohmann::json j;
            j["model"] = chat->name();
            j["messages"] = {{{"role", "user"},
                              {"content", "Request " + std::to_string(i) + ": write a short note about item " +
                                              std::to_string(i * 7 % 97) + "."}}};
            j["max_tokens"] = maxTokens;
            j["temperature"] = temperature;
            j["seed"] = i;
            return j.dump();
        };
        const auto completionTokens = [](const std::string &answer) {
            const nlohmann::json j = util::parseJsonOrDiscarded(answer);
            return j.is_discarded() ? int64_t(0) : j["usage"].value("completion_tokens", int64_t(0));
        };
        client.post(body(-1), {}); // warm-up: the first forward passes build kernels

        for (const int clients : clientCounts) {
            std::atomic<int> next{0};
            std::atomic<int64_t> tokens{0};
            std::vector<double> latencies(static_cast<size_t>(requests), 0.0);
            std::exception_ptr failure;
            std::mutex failureMutex;
            const serve::SchedulerStats before = chat->stats();
            const uint64_t retriesBefore = client.stats().retries;
            const Clock::time_point start = Clock::now();
            std::vector<std::thread> pool;
            for (int c = 0; c < clients; ++c)
                pool.emplace_back([&] {
                    for (int i = next++; i < requests; i = next++) {
                        const Clock::time_point t0 = Clock::now();
                        try {
                            tokens += completionTokens(client.post(body(i), {}).body);
                        } catch (...) {
                            std::lock_guard<std::mutex> lock(failureMutex);
                            failure = std::current_exception();
                        }
                        latencies[static_cast<size_t>(i)] = std::chrono::duration<double>(Clock::now() - t0).count();
                    }
                });
            for (std::thread &t : pool)
                t.join();
            const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
            if (failure)
                std::rethrow_exception(failure);
            const serve::SchedulerStats after = chat->stats();
            double mean = 0.0;
            for (double l : latencies)
                mean += l / static_cast<double>(latencies.size());
            const int64_t steps = after.steps - before.steps;
            nlohmann::ordered_json j;
            j["model"] = chat->name();
            j["max_batch"] = maxBatch;
            const model::ThreadsChoice threads = model::resolveThreads(engine.scheduler.threads);
            j["threads"] = threads.threads;
            j["threads_reason"] = threads.reason;
            j["clients"] = clients;
            j["requests"] = requests;
            j["max_tokens"] = maxTokens;
            j["completion_tokens"] = tokens.load();
            j["seconds"] = seconds;
            j["requests_per_second"] = requests / seconds;
            j["tokens_per_second"] = static_cast<double>(tokens.load()) / seconds;
            j["latency_mean_s"] = mean;
            j["latency_p50_s"] = percentile(latencies, 0.5);
            j["latency_p95_s"] = percentile(latencies, 0.95);
            j["mean_rows_per_step"] =
                steps > 0 ? static_cast<double>(after.decodedTokens - before.decodedTokens) / static_cast<double>(steps) : 0.0;
            j["prefill_share"] = (after.prefillSeconds - before.prefillSeconds) / seconds;
            j["decode_share"] = (after.decodeSeconds - before.decodeSeconds) / seconds;
            j["retries"] = client.stats().retries - retriesBefore;
            std::cout << j.dump() << std::endl;
        }
        chat->shutdown();
        http.stop();
    }
    return kExitOk;
}

} // namespace

int serveCommand(const std::vector<std::string> &args)
{
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << kServeHelp;
        return kExitOk;
    }
    return guarded("serve", [&] { return runServe(args); });
}

int serveBench(const std::vector<std::string> &args)
{
    return runServeBench(args);
}

} // namespace rwb::cli
