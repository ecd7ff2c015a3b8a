// rwb store info / sql and rwb bench store: the run store from the command line.
#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "store/runstore.h"
#include "store/storeerror.h"
#include "task/catalog.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <random>
#include <time.h>
#include <unistd.h>

namespace rwb::cli {

namespace {

// The target of issue 4: rollouts inserted per second.
constexpr double kStoreTarget = 50000.0;

const char *const kStoreHelp = R"(rwb store — look into a run store (SQLite)

Subcommands:
  info   the runs in a store with their step and rollout counts
  sql    run one read-only SQL query, one JSON object per row
  index  bring the store's full-text search index up to date
Run "rwb store <subcommand> --help" for its options. The schema: docs/store.md.
)";

const char *const kInfoHelp = R"(rwb store info — what a run store holds

Usage: rwb store info --store F.sqlite

Prints one JSON object: the file, its schema version and, per run, its id, name,
kind, task, status, message, created / finished times, steps written, the last step,
rollouts, metric names and checkpoints, and how many prompts and rollouts the
file's search index lacks ("search_index_pending"). Opens the store read-only (safe
while a trainer writes to it).
)";

const char *const kIndexHelp = R"(rwb store index — bring the search index up to date

Usage: rwb store index --store F.sqlite

Trainers do not index completion and prompt text as they write (it would slow every
step down); a finished run is indexed by finishRun(), and a search through Reward
Workbench indexes whatever is missing itself. Run this for a run whose process was
killed, or before querying rollouts_fts / prompts_fts with your own SQL. Safe while
a trainer writes the store: it indexes in short batches, and the trainer waits at
most one batch. Prints {"store": …, "indexed": rows, "seconds": …}.
)";

const char *const kSqlHelp = R"(rwb store sql — a read-only SQL query on a run store

Usage: rwb store sql --store F.sqlite --query "SELECT …"

Runs one statement on a read-only connection (nothing can be written; a trainer
writing the store is never blocked) and prints one JSON object per result row,
keyed by column name. BLOBs are printed as base64 strings; NULL as null. Use the
stable views (v_runs, v_metrics, v_rollouts, v_reward_configs, v_eval_predictions).
Example: rwb store sql --store run.sqlite --query "SELECT step, value FROM v_metrics WHERE name = 'reward'"
)";

const char *const kBenchStoreHelp = R"(rwb bench store — rollouts inserted per second

Usage: rwb bench store [--rollouts N] [--group G] [--per-step S] [--tokens T] [--store F.sqlite]

  --rollouts N   rollouts to write in all (default 200000)
  --group G      samples per prompt (default 8)
  --per-step S   rollouts per step, one writeStep each (default 64: 8 prompts × G 8)
  --tokens T     mean tokens per completion (default 40): each completion has T/2 to
                 3T/2 tokens, each with its token id, three log-probs and an advantage
                 (5 × 4 bytes per token), and text to match
  --store F      write there instead of a temporary file (must not exist; kept)

Writes N rollouts as a GRPO trainer does — each step's metrics (the TRL names),
new prompts (≈ 400-character Japanese e-mails) and rollouts (Japanese completions,
per-token arrays, rewards JSON) in one transaction — and prints one JSON object.
Only writeStep() is timed; preparing the data is not. "cpu_seconds" is the writing
thread's CPU time in writeStep() (unlike wall time, not inflated by other processes
on the same cores). Then the search index is brought up to date (indexPending(),
which finishRun() would otherwise do), timed apart: "index_seconds";
"rollouts_per_second_with_index" counts both.
Target: 50,000 rollouts/s.
)";

// Standard base64 of bytes.
std::string base64(const std::string &bytes)
{
    static const char *const kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
        for (int k = 3; k >= 0; --k)
            out += kAlphabet[(v >> (6 * k)) & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = uint8_t(bytes[i]) << 16;
        if (i + 1 < bytes.size())
            v |= uint8_t(bytes[i + 1]) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// A store error as bad input naming the file ("path: reason").
data::InputException badStore(const std::string &path, const store::StoreError &e)
{
    return data::InputException({path, 0, std::string(e.what()).substr(path.size() + 2)});
}

// Opens an existing store; a missing file or a file that is not a store is bad input.
std::unique_ptr<store::RunStore> openStore(const std::string &path,
                                           store::RunStore::OpenMode mode = store::RunStore::OpenMode::ReadOnly)
{
    if (!std::filesystem::exists(path))
        throw data::InputException({path, 0, "no such file"});
    try {
        return std::make_unique<store::RunStore>(path, mode);
    } catch (const store::StoreError &e) {
        throw badStore(path, e);
    }
}

int info(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store"}, {"help"}});
    if (args.has("help")) {
        std::cout << kInfoHelp;
        return kExitOk;
    }
    const std::string path = args.required("store");
    const auto store = openStore(path);
    nlohmann::ordered_json j;
    j["store"] = path;
    j["schema_version"] = store->schemaVersion();
    j["search_index_pending"] = store->pendingIndexRows();
    j["runs"] = nlohmann::ordered_json::array();
    for (const store::RunInfo &r : store->runs()) {
        nlohmann::ordered_json run;
        run["id"] = r.id;
        run["name"] = r.name;
        run["kind"] = r.kind;
        run["task"] = r.task;
        run["tags"] = r.tags;
        run["status"] = r.status;
        run["message"] = r.message;
        run["created"] = r.created;
        run["finished"] = r.finished.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.finished);
        run["steps"] = r.steps;
        run["last_step"] = r.lastStep < 0 ? nlohmann::ordered_json() : nlohmann::ordered_json(r.lastStep);
        int64_t rollouts = 0;
        store->query("SELECT count(*) FROM rollouts WHERE run_id = " + std::to_string(r.id),
                     [&](const auto &, const std::vector<store::SqlValue> &v) {
                         rollouts = v[0].integer;
                         return false;
                     });
        run["rollouts"] = rollouts;
        run["metrics"] = store->metricNames(r.id);
        run["checkpoints"] = store->checkpoints(r.id).size();
        j["runs"].push_back(std::move(run));
    }
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return kExitOk;
}

int sql(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store", "query"}, {"help"}});
    if (args.has("help")) {
        std::cout << kSqlHelp;
        return kExitOk;
    }
    const std::string path = args.required("store");
    const std::string query = args.required("query");
    const auto store = openStore(path);
    try {
        store->query(query, [](const std::vector<std::string> &columns, const std::vector<store::SqlValue> &values) {
            nlohmann::ordered_json row = nlohmann::ordered_json::object();
            for (size_t c = 0; c < columns.size(); ++c) {
                const store::SqlValue &v = values[c];
                switch (v.type) {
                case store::SqlValue::Type::Null: row[columns[c]] = nullptr; break;
                case store::SqlValue::Type::Integer: row[columns[c]] = v.integer; break;
                case store::SqlValue::Type::Real: row[columns[c]] = v.real; break;
                case store::SqlValue::Type::Text: row[columns[c]] = v.bytes; break;
                case store::SqlValue::Type::Blob: row[columns[c]] = base64(v.bytes); break;
                }
            }
            std::cout << row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
            return static_cast<bool>(std::cout);
        });
    } catch (const store::StoreError &e) {
        throw badStore(path, e);
    }
    std::cout.flush();
    return kExitOk;
}

// CPU time of the calling thread (s): unlike wall time, not inflated by other processes
// sharing the cores.
double threadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

int index(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"store"}, {"help"}});
    if (args.has("help")) {
        std::cout << kIndexHelp;
        return kExitOk;
    }
    const std::string path = args.required("store");
    const auto start = std::chrono::steady_clock::now();
    int64_t indexed = 0;
    try {
        indexed = openStore(path, store::RunStore::OpenMode::ReadWrite)->indexPending();
    } catch (const store::StoreError &e) {
        throw badStore(path, e);
    }
    nlohmann::ordered_json j;
    j["store"] = path;
    j["indexed"] = indexed;
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

// Removes a store file and its WAL companions.
void removeStore(const std::string &path)
{
    std::error_code ignored;
    for (const char *suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix, ignored);
}

} // namespace

int storeBench(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"rollouts", "group", "per-step", "tokens", "store"}, {"help"}});
    if (args.has("help")) {
        std::cout << kBenchStoreHelp;
        return kExitOk;
    }
    const auto total = static_cast<int64_t>(args.number("rollouts", 200000));
    const int group = static_cast<int>(args.number("group", 8));
    const int perStep = static_cast<int>(args.number("per-step", 64));
    const int tokens = static_cast<int>(args.number("tokens", 40));
    if (total < 1 || group < 1 || perStep < group || perStep % group != 0 || tokens < 2)
        throw UsageError{"need --rollouts ≥ 1, --group ≥ 1, --per-step a multiple of --group, --tokens ≥ 2"};
    const bool keep = args.has("store");
    const std::string path =
        keep ? args.value("store")
             : (std::filesystem::temp_directory_path() / ("rwb-bench-store-" + std::to_string(getpid()) + ".sqlite"))
                   .string();
    if (keep && std::filesystem::exists(path))
        throw UsageError{"--store " + path + " exists; give a new file"};
    removeStore(path);

    struct Cleanup {
        std::string path;
        bool keep;
        ~Cleanup()
        {
            if (!keep)
                removeStore(path);
        }
    } cleanup{path, keep};

    std::mt19937 rng(42);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    const std::vector<std::string> companies{"株式会社きらめき商事", "東和物産株式会社", "ひまわり電機株式会社",
                                             "合同会社みなと技研", "株式会社ＡＢＣソリューションズ"};
    // Reasoning a policy writes before its answer, about 10 characters (≈ 7 tokens) each.
    const std::vector<std::string> thoughts{"メールの署名を確認します。", "差出人は営業部の山田さん。",
                                            "本文に会社名があります。", "署名の会社名が答えです。",
                                            "株式会社が前に付きます。", "件名には社名がありません。"};
    const std::string emailBody =
        "いつもお世話になっております。先日ご依頼いただいた件につきまして、見積書を添付いたします。"
        "ご確認のほどよろしくお願いいたします。納期につきましては来月末を予定しております。"
        "ご不明な点がございましたら、お気軽にお問い合わせください。";
    const std::vector<std::string> metricNames{
        "reward", "reward_std", "rewards/partial/mean", "rewards/partial/std", "rewards/marker/mean",
        "rewards/marker/std", "frac_reward_zero_std", "kl", "entropy", "clip_ratio/low_mean",
        "clip_ratio/high_mean", "clip_ratio/region_mean", "completions/mean_length", "completions/min_length",
        "completions/max_length", "completions/clipped_ratio", "policy_loss", "grad_norm", "learning_rate",
        "step_time", "num_tokens"};

    store::RunStore store(path);
    const int64_t run = store.beginRun("bench", store::RunKind::Grpo, R"({"benchmark":"store"})",
                                      std::string(task::Catalog::builtin().find("")->name()));
    store.recordRewardConfig(run, 0, R"({"components":[{"reward":"partial","weight":20},{"reward":"marker","weight":80}]})");

    using Clock = std::chrono::steady_clock;
    double seconds = 0.0;
    double cpuSeconds = 0.0;
    int64_t written = 0;
    int64_t promptCounter = 0;
    int64_t steps = 0;
    std::vector<store::Rollout> rollouts(static_cast<size_t>(perStep));
    for (int64_t step = 0; written < total; ++step) {
        const int n = static_cast<int>(std::min<int64_t>(perStep, total - written));
        std::vector<store::Prompt> prompts;
        for (int i = 0; i < n; ++i) {
            if (i % group == 0) {
                const std::string &company = companies[promptCounter % companies.size()];
                prompts.push_back({"email-" + std::to_string(promptCounter),
                                   "次のメールの送信者の会社名を答えてください。\n\n" + company + "\n営業部 山田 太郎\n\n" +
                                       emailBody + "\n\n" + company + " 山田",
                                   company, R"({"split":"train"})"});
                ++promptCounter;
            }
            store::Rollout &r = rollouts[static_cast<size_t>(i)];
            const std::string &answer = companies[(promptCounter + static_cast<int64_t>(rng())) % companies.size()];
            r.promptId = prompts.back().promptId;
            r.groupIndex = i / group;
            r.sampleIndex = i % group;
            // T/2 … 3T/2 tokens: the answer and its tags take about 12, the thoughts the rest.
            const int n = tokens / 2 + static_cast<int>(rng() % static_cast<uint32_t>(tokens + 1));
            r.completion = "<think>";
            for (int k = 0; k < std::max(1, (n - 12) / 7); ++k)
                r.completion += thoughts[rng() % thoughts.size()];
            r.completion += "</think><answer>" + answer + "</answer>";
            r.answer = answer;
            r.tokenIds.resize(static_cast<size_t>(n));
            r.logprobsOld.resize(r.tokenIds.size());
            r.logprobsNew.resize(r.tokenIds.size());
            r.logprobsRef.resize(r.tokenIds.size());
            r.advantages.resize(r.tokenIds.size());
            const float advantage = unit(rng) * 2.0f - 1.0f;
            for (size_t t = 0; t < r.tokenIds.size(); ++t) {
                r.tokenIds[t] = static_cast<int32_t>(rng() % 151643);
                r.logprobsOld[t] = -5.0f * unit(rng);
                r.logprobsNew[t] = r.logprobsOld[t] + 0.01f * unit(rng);
                r.logprobsRef[t] = r.logprobsOld[t] - 0.01f * unit(rng);
                r.advantages[t] = advantage;
            }
            const double partial = unit(rng), marker = unit(rng) < 0.5 ? 0.0 : 1.0;
            r.reward = 0.2 * partial + 0.8 * marker;
            r.rewardsJson = nlohmann::json{{"partial", partial}, {"marker", marker}}.dump();
            r.advantage = advantage;
            r.completionTokens = n;
            r.truncated = unit(rng) < 0.05f;
        }
        std::vector<store::Metric> metrics;
        for (const std::string &name : metricNames)
            metrics.push_back({name, unit(rng)});
        rollouts.resize(static_cast<size_t>(n));

        const auto start = Clock::now();
        const double cpuStart = threadCpuSeconds();
        store.writeStep(run, step, metrics, rollouts, prompts);
        cpuSeconds += threadCpuSeconds() - cpuStart;
        seconds += std::chrono::duration<double>(Clock::now() - start).count();
        written += n;
        ++steps;
    }
    const auto indexStart = Clock::now();
    const int64_t indexed = store.indexPending();
    const double indexSeconds = std::chrono::duration<double>(Clock::now() - indexStart).count();
    store.finishRun(run, store::RunStatus::Finished);

    std::error_code ignored;
    const auto bytes = std::filesystem::file_size(path, ignored) + std::filesystem::file_size(path + "-wal", ignored);
    const double perSecond = static_cast<double>(written) / seconds;
    nlohmann::ordered_json j;
    j["benchmark"] = "store";
    j["store"] = keep ? nlohmann::ordered_json(path) : nlohmann::ordered_json("temporary");
    j["rollouts"] = written;
    j["steps"] = steps;
    j["rollouts_per_step"] = perStep;
    j["group"] = group;
    j["tokens_per_completion"] = tokens; // the mean
    j["tokens_per_completion_range"] = {tokens / 2, tokens / 2 + tokens};
    j["metrics_per_step"] = metricNames.size();
    j["seconds"] = seconds;
    j["rollouts_per_second"] = perSecond;
    j["cpu_seconds"] = cpuSeconds;
    j["rollouts_per_cpu_second"] = static_cast<double>(written) / cpuSeconds;
    j["steps_per_second"] = static_cast<double>(steps) / seconds;
    j["milliseconds_per_step"] = 1000.0 * seconds / static_cast<double>(steps);
    j["indexed_rows"] = indexed;
    j["index_seconds"] = indexSeconds;
    j["indexed_rollouts_per_second"] = static_cast<double>(written) / indexSeconds;
    // Everything a run's rollouts cost the writer, search index included.
    j["rollouts_per_second_with_index"] = static_cast<double>(written) / (seconds + indexSeconds);
    j["file_bytes"] = bytes;
    j["bytes_per_rollout"] = static_cast<double>(bytes) / static_cast<double>(written);
    j["target"] = kStoreTarget;
    j["meets_target"] = perSecond >= kStoreTarget;
    std::cout << j.dump(2) << std::endl;
    return kExitOk;
}

int storeCommand(const std::vector<std::string> &args)
{
    return dispatch("store", kStoreHelp, args, {{"info", info}, {"sql", sql}, {"index", index}});
}

} // namespace rwb::cli
