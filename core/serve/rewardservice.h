#pragma once

// rwb serve's reward endpoints: our reward configs (rules, embeddings, judges, rubrics)
// computed for other trainers over HTTP, in the shapes they call — OpenRLHF's remote
// reward model, verl's compute_score and TRL's reward functions — and, when asked, every
// scored rollout logged to a run store as a run of kind "external" (store/externalrun.h).
// Without Qt; the HTTP side is openaiserver.cpp. See docs/handoff.md.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace rwb::reward {
class CompositeReward;
struct RewardConfig;
}
namespace rwb::task {
class Catalog;
class Task;
class Example;
}
namespace rwb::store {
class RunStore;
struct ExternalSample;
class PendingLog;
}

namespace rwb::serve {

struct RewardServiceOptions {
    std::string configPath; // a reward config (docs/config.md); its task reads the records
    // A dataset of the config's task whose ids a request may name instead of sending the
    // record itself ("" = none).
    std::string dataPath;
    // Where scored rollouts go ("" = nowhere): a run of kind "external" named runName.
    std::string storePath;
    std::string runName = "served rewards";
    // Without step numbers from the trainer, a pause this long between requests starts a
    // new step (OpenRLHF sends one request per sample, verl and TRL one per batch).
    double stepGapSeconds = 5.0;
    // > 0: without step numbers, a step is this many rollouts instead (a request is never
    // split, so a step of batch requests may hold more), and pauses are not steps: for
    // trainers that score the next step while the last trains (OpenRLHF's
    // --train.async_enable, verl's fully asynchronous trainers). rollout batch × samples.
    int64_t stepRollouts = 0;
    bool noCache = false; // the judge's cache file is neither read nor written
    // Told what went wrong with the store (the trainer still gets its rewards) and each
    // step written; called with the store's lock held. Empty: nothing said.
    std::function<void(const std::string &)> log;
};

// Which trainer's call a request is: the request and response shapes differ.
enum class RewardProtocol { OpenRlhf, Verl, Trl };

// One scored rollout of a request.
struct RewardOutcome {
    double total = 0.0;              // NaN: None (a judge gave no verdict)
    std::vector<double> components;  // in the config's order; NaN: None
};

// Thread-safe: requests are scored on the HTTP threads at the same time.
class RewardService {
public:
    // Loads the config, the task, the dataset and opens the store (beginning the run).
    // Throws data::InputException / std::runtime_error naming the file and field.
    explicit RewardService(RewardServiceOptions options, const task::Catalog &catalog);
    ~RewardService(); // writes the step in memory and finishes the run
    RewardService(const RewardService &) = delete;
    RewardService &operator=(const RewardService &) = delete;

    const std::string &configName() const;
    const std::string &taskName() const;
    std::vector<std::string> componentNames() const;
    int64_t runId() const { return m_runId; } // 0 without a store

    // Answers one request body of `protocol`: the JSON to send back. Throws
    // serve::ApiError (400 naming the field: "labels[3]", "extra_infos[0].record.id")
    // for a request it cannot score; nothing of such a request is logged.
    std::string handle(RewardProtocol protocol, const std::string &body);

    // Writes the rollouts held for the current step now (the server stops; a test).
    void flush();

private:
    struct Item;
    std::vector<RewardOutcome> score(std::vector<Item> &items, std::optional<int64_t> step);
    std::shared_ptr<const task::Example> example(const std::string &recordOrId, const std::string &field) const;
    void log(std::vector<Item> &items, const std::vector<RewardOutcome> &outcomes, std::optional<int64_t> step);
    void writePendingLocked();
    void flusherLoop();

    RewardServiceOptions m_options;
    std::unique_ptr<reward::RewardConfig> m_config;
    std::unique_ptr<reward::CompositeReward> m_reward;
    const task::Task *m_task = nullptr;
    std::unordered_map<std::string, std::shared_ptr<const task::Example>> m_byId;

    // The run store side: one step held in memory until the trainer moves on.
    std::unique_ptr<store::RunStore> m_store;
    std::unique_ptr<store::PendingLog> m_pendingLog; // m_pending on the disk, before each answer
    int64_t m_runId = 0;
    std::mutex m_storeMutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::vector<store::ExternalSample> m_pending;
    std::optional<int64_t> m_pendingStep; // the trainer's step of m_pending, when it sent one
    int64_t m_nextStep = 0;               // the first step number not written yet
    std::chrono::steady_clock::time_point m_lastRequest;
    std::thread m_flusher;
};

} // namespace rwb::serve
