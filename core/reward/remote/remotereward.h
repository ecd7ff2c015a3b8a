#pragma once

// The generic reward component `remote`: any OpenRLHF-style remote reward server —
// OpenRLHF's own `serve_rm` (POST /get_reward), a server of the user's, or our own
// `rwb serve --reward-config` (POST /reward, serve/rewardservice.h). One request per
// `batch` items:
//   {"query": [prompt + completion], "prompts": [prompt], "labels": [label]}
// answered by
//   {"rewards": [number, …], "scores": […]?, "extra_logs": {name: [one per item] | number}?}
// (or by a bare list of numbers). docs/rewards.md, "remote", has the options and examples.
//
// The HTTP side is the engine's client (net/httpjsonclient.h): keep-alive connections, an
// API key from an environment variable, timeouts, retries with backoff, the circuit
// breaker (20 failed calls in a row by default, as the judge's). Values are kept per item
// in this component's memory (and, with `cache_file`, in an SQLite file) keyed by the
// SHA-256 of the URL, the reply field and the item's (query, prompt, label): an item
// asked before is not sent again, nor are duplicates within a batch.
//
// A value the server does not give — no answer after the retries, an open breaker, an
// answer that is not JSON, has the wrong number of rewards, or gives an item null, NaN, a
// string, or `extra_logs.reward_none` 1 (what `rwb serve` sends for None) — is None
// (kNone), never 0, with an error that names the URL; nothing here throws for what the
// server does. Values are passed on as the server gives them: not clipped to [0, 1].

#include "net/httpjsonclient.h"
#include "reward/reward.h"

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace rwb::reward {

class Registry;

// What goes in a request's "query" for an item.
enum class RemoteQuery {
    PromptAndCompletion, // "prompt+completion": the prompt text, then the completion (OpenRLHF's)
    Completion,          // "completion": the completion alone
};

// What goes in a request's "labels" for an item.
enum class RemoteLabels {
    Gold,   // the example's gold (Example::goldText); the default
    Column, // a column of the example's record (RemoteRewardOptions::labelColumn)
    Id,     // "$id": the example's id (rwb serve with --reward-data)
    Record, // "$record": the example's whole record as JSON text (rwb serve)
};

// The component's options (RewardComponent::options), strict: an unknown key is an error.
struct RemoteRewardOptions {
    // url (required: the full endpoint, http(s)://host[:port]/path), api_key_env, ca_cert
    // (absolute after parsing), and the retries and breaker under the judge's names
    // (docs/judges.md): timeout, deadline, retries, backoff, backoff_max,
    // breaker_threshold, breaker_cooldown. The breaker's threshold is 20 unless set.
    net::EndpointOptions server = defaultServer();
    RemoteQuery query = RemoteQuery::PromptAndCompletion;
    RemoteLabels labels = RemoteLabels::Gold;
    std::string labelColumn;     // RemoteLabels::Column: a field name or dotted path
    size_t batch = 0;            // items per request; 0 = the whole batch
    int concurrency = 4;         // requests of one scoreBatch in flight at once
    bool cache = true;           // keep each item's value in memory (and in cacheFile)
    std::string cacheFile;       // cache_file: an SQLite file shared by runs; "" none (absolute)
    std::string field = "rewards"; // where the rewards are in the reply (a dotted path)

    static net::EndpointOptions defaultServer()
    {
        net::EndpointOptions o;
        o.breaker.threshold = 20;
        return o;
    }
};

// Reads the options JSON; relative paths (ca_cert, cache_file) are taken from baseDir.
// Throws std::invalid_argument "options.<key>: …" for an unknown key, a wrong type or
// value, a missing or malformed `url`.
RemoteRewardOptions parseRemoteRewardOptions(const std::string &json, const std::string &baseDir);

// What one scoring call (scoreBatch, score, explain) produced besides the values.
struct RemoteBatchResult {
    std::vector<double> values;      // per item; kNone for None
    // Per item: "" or why its value is None: "<who> <URL>: <what>" (who is "remote reward"
    // or "remote reward <label>").
    std::vector<std::string> errors;
    // Per item: its extra_logs values as a JSON object's text; "{}" when none.
    std::vector<std::string> extra;
    // extra_logs values that are one number per request (OpenRLHF's math_accuracy),
    // averaged over the requests, sorted by name.
    std::vector<std::pair<std::string, double>> metrics;
    size_t requests = 0;             // requests for the items not in the cache (each with its retries)
    size_t cacheHits = 0;            // items answered from the cache (or a duplicate's answer)
    double seconds = 0.0;            // wall time of the whole call
};

class RemoteReward : public Reward {
public:
    // Makes the HTTP client and opens options.cacheFile (creating it); contacts no server.
    // `label` is the component's name in the config ("" = "remote"). Throws
    // std::invalid_argument for options out of range, and for a cache file that cannot be
    // opened ("options.cache_file: …").
    RemoteReward(RemoteRewardOptions options, std::string label = {});
    ~RemoteReward() override;
    RemoteReward(const RemoteReward &) = delete;
    RemoteReward &operator=(const RemoteReward &) = delete;

    std::string_view name() const override { return m_name; }
    double score(const task::Example &example, const task::Completion &completion) const override;
    // Scores one item (from the cache when it was scored before): reason Library, key
    // "remote.value" (args: the URL, the value) or "remote.none" (args: the URL, why),
    // detail in English, error the whole message.
    Explanation explain(const task::Example &example, const task::Completion &completion) const override;
    // One request per options.batch items not in the cache (all of them when 0), at most
    // options.concurrency at once. Never throws for what the server does. `log`, when
    // given, gets a note per item with an error or extra values, and each per-request
    // extra_logs number as "reward_metric/<name>/<key>".
    void scoreBatch(const std::vector<const task::Example *> &examples,
                    const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                    ScoreLog *log = nullptr) const override;
    // labels from a column, "$id" or "$record": throws std::invalid_argument naming the
    // component and the example when it has no such column, no id, or no record.
    void checkExample(const task::Example &example) const override;

    // What the most recent call on this component (from any thread) produced.
    RemoteBatchResult lastBatch() const;
    const RemoteRewardOptions &options() const { return m_options; }
    // The endpoint as messages show it.
    const std::string &endpoint() const;
    net::ClientStats clientStats() const;

private:
    class Cache;
    struct Item;
    RemoteBatchResult run(const std::vector<const task::Example *> &examples,
                          const std::vector<const task::Completion *> &completions) const;
    // The label of `example`; false with `why` set when it has none.
    bool label(const task::Example &example, std::string &out, std::string &why) const;

    RemoteRewardOptions m_options;
    std::string m_name;
    std::string m_prefix; // "<who> <URL>: ", what every error starts with
    std::unique_ptr<net::JsonHttpClient> m_client;
    std::unique_ptr<Cache> m_cache; // null without options.cache
    mutable std::mutex m_lastMutex;
    mutable RemoteBatchResult m_last;
};

// Registers `remote` as a generic component (for every task).
void addRemoteRewards(Registry &registry);

} // namespace rwb::reward
