#include "reward/remote/remotereward.h"
#include "util/sha256.h"

#include "reward/library/componentoptions.h"
#include "reward/registry.h"
#include "sqlite/connection.h"
#include "sqlite/statement.h"
#include "sqlite/transaction.h"
#include "util/boundedjson.h"
#include "util/duration.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iomanip>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace rwb::reward {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

// Values kept in a component's memory; beyond them the memory starts over (the cache
// file, when there is one, still has them).
constexpr size_t kMaxMemo = 100000;
// The longest timeout or deadline (a week) and backoff (an hour) accepted.
constexpr double kMaxDeadlineSeconds = 7 * 86400.0;
constexpr double kMaxTimeoutSeconds = 86400.0;
constexpr double kMaxBackoffSeconds = 3600.0;
// The keys of "options", in the order the error message lists them. The seconds go by
// the judge's names (docs/judges.md); their "_s" spellings (the python component's
// timeout_s, the http embedder's) are accepted too.
const std::vector<std::string> kKeys = {
    "url",      "api_key_env", "ca_cert",     "query",     "labels",           "field",
    "batch",    "concurrency", "cache",       "cache_file", "timeout",         "timeout_s",
    "deadline", "deadline_s",  "retries",     "backoff",   "backoff_s",        "backoff_max",
    "backoff_max_s", "breaker_threshold", "breaker_cooldown", "breaker_cooldown_s"};

std::string resolve(const std::string &path, const std::string &baseDir)
{
    if (path.empty())
        return path;
    fs::path p(path);
    if (p.is_relative() && !baseDir.empty())
        p = fs::path(baseDir) / p;
    std::error_code ec;
    const fs::path abs = fs::absolute(p, ec);
    return (ec ? p : abs).lexically_normal().string();
}

// A field of a reply by name or dotted path ("data.rewards"); null when it has none.
const json *findPath(const json &reply, const std::string &path)
{
    if (!reply.is_object())
        return nullptr;
    if (auto it = reply.find(path); it != reply.end())
        return &*it; // a field whose name has a dot
    const json *at = &reply;
    size_t start = 0;
    while (true) {
        const size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!at->is_object())
            return nullptr;
        auto it = at->find(part);
        if (it == at->end())
            return nullptr;
        at = &*it;
        if (dot == std::string::npos)
            return at;
        start = dot + 1;
    }
}

// The body with the bare NaN, Infinity and -Infinity that Python's json.dumps writes
// (Flask's jsonify, a hand-written server) outside strings turned into the strings
// "NaN", "Infinity", "-Infinity": JSON has no such numbers, and one item's NaN must make
// that item None, not the whole answer unreadable.
std::string nonFiniteAsStrings(const std::string &body)
{
    std::string out;
    out.reserve(body.size() + 16);
    bool inString = false;
    for (size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < body.size())
                out += body[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
            continue;
        }
        bool replaced = false;
        for (const std::string_view word : {"NaN", "Infinity", "-Infinity"})
            if (body.compare(i, word.size(), word) == 0) {
                out += "\"" + std::string(word) + "\"";
                i += word.size() - 1;
                replaced = true;
                break;
            }
        if (!replaced)
            out += c;
    }
    return out;
}

// A prompt as a text: a string as it is; a message list's contents (a content given as
// parts: its text parts), one message per line, as `rwb serve` reads TRL's.
std::string promptText(const std::string &promptJson)
{
    const json p = util::parseJsonOrDiscarded(promptJson);
    if (p.is_discarded())
        return promptJson;
    if (p.is_string())
        return p.get<std::string>();
    if (!p.is_array())
        return p.is_null() ? std::string() : p.dump(-1, ' ', false, json::error_handler_t::replace);
    std::string out;
    for (const json &m : p) {
        std::string text;
        const json content = m.is_object() ? m.value("content", json()) : m;
        if (content.is_string()) {
            text = content.get<std::string>();
        } else if (content.is_array()) {
            for (const json &part : content)
                if (part.is_object() && part.value("text", json()).is_string())
                    text += part["text"].get<std::string>();
        }
        out += (out.empty() ? "" : "\n") + text;
    }
    return out;
}

// "0.75", "1", "-2.5e-07"
std::string formatValue(double v)
{
    std::ostringstream out;
    out << std::setprecision(6) << v;
    return out.str();
}

std::string firstLine(const std::string &text)
{
    return text.substr(0, text.find('\n'));
}

// Seconds under the judge's name `key` or its "_s" spelling (not both), within [lo, hi].
void readSeconds(const ComponentOptions &o, const std::string &key, double lo, double hi, double &out)
{
    const std::string alias = key + "_s";
    if (o.has(key.c_str()) && o.has(alias.c_str()))
        ComponentOptions::fail(alias, "give " + key + " or " + alias + ", not both");
    const std::string &given = o.has(key.c_str()) ? key : alias;
    const std::optional<double> v = o.number(given.c_str(), lo);
    if (!v)
        return;
    if (*v > hi)
        ComponentOptions::fail(given, "must be within " + formatValue(lo) + "–" + formatValue(hi) + " seconds, found " +
                                          o.value(given.c_str())->dump());
    out = *v;
}

} // namespace

// ---- options

RemoteRewardOptions parseRemoteRewardOptions(const std::string &text, const std::string &baseDir)
{
    const ComponentOptions o(text, kKeys);
    RemoteRewardOptions r;

    const std::optional<std::string> url = o.string("url");
    if (!url)
        ComponentOptions::fail("url", "missing: the reward server's endpoint, for example "
                                      "\"http://127.0.0.1:5000/get_reward\" (OpenRLHF) or "
                                      "\"http://127.0.0.1:8000/reward\" (rwb serve)");
    const net::Url parsed = net::parseUrl(*url, "options.url"); // throws "options.url: URL … "
    if (parsed.path.empty())
        ComponentOptions::fail("url", "\"" + net::redacted(*url) +
                                          "\" has no path: give the whole endpoint (…/get_reward, …/reward)");
    r.server.url = *url;
    r.server.apiKeyEnv = o.string("api_key_env").value_or("");
    r.server.caCertPath = resolve(o.string("ca_cert").value_or(""), baseDir);

    r.query = o.choice("query", "prompt+completion", {"prompt+completion", "completion"}) == "completion"
                  ? RemoteQuery::Completion
                  : RemoteQuery::PromptAndCompletion;
    if (const std::optional<std::string> labels = o.string("labels")) {
        if (*labels == "$gold") {
            r.labels = RemoteLabels::Gold;
        } else if (*labels == "$id") {
            r.labels = RemoteLabels::Id;
        } else if (*labels == "$record") {
            r.labels = RemoteLabels::Record;
        } else if ((*labels)[0] == '$') {
            ComponentOptions::fail("labels", "unknown value \"" + *labels +
                                                 "\" (allowed: a column, \"$gold\", \"$id\", \"$record\")");
        } else {
            r.labels = RemoteLabels::Column;
            r.labelColumn = *labels;
        }
    }
    r.field = o.string("field").value_or("rewards");
    if (const std::optional<int64_t> batch = o.integer("batch", 0))
        r.batch = static_cast<size_t>(*batch);
    if (const std::optional<int64_t> c = o.integer("concurrency", 1)) {
        if (*c > 1024)
            ComponentOptions::fail("concurrency", "must be at most 1024, found " + std::to_string(*c));
        r.concurrency = static_cast<int>(*c);
    }
    r.cache = o.boolean("cache", true);
    r.cacheFile = resolve(o.string("cache_file").value_or(""), baseDir);
    if (!r.cacheFile.empty() && !r.cache)
        ComponentOptions::fail("cache_file", "set, but \"cache\" is false: leave one of them out");

    net::RetryOptions &retry = r.server.retry;
    readSeconds(o, "timeout", 1e-3, kMaxTimeoutSeconds, retry.timeoutSeconds);
    readSeconds(o, "deadline", 1e-3, kMaxDeadlineSeconds, retry.deadlineSeconds);
    readSeconds(o, "backoff", 0.0, kMaxBackoffSeconds, retry.backoffSeconds);
    readSeconds(o, "backoff_max", 0.0, kMaxBackoffSeconds, retry.backoffMaxSeconds);
    readSeconds(o, "breaker_cooldown", 0.0, kMaxTimeoutSeconds, r.server.breaker.cooldownSeconds);
    if (const std::optional<int64_t> n = o.integer("retries", 0)) {
        if (*n > 100)
            ComponentOptions::fail("retries", "must be at most 100, found " + std::to_string(*n));
        retry.maxRetries = static_cast<int>(*n);
    }
    if (const std::optional<int64_t> n = o.integer("breaker_threshold", 0)) {
        if (*n > 1000000)
            ComponentOptions::fail("breaker_threshold", "must be at most 1000000, found " + std::to_string(*n));
        r.server.breaker.threshold = static_cast<int>(*n);
    }
    return r;
}

// ---- the cache

// Values by key: this component's memory and, optionally, an SQLite file
//   remote_reward_cache(key TEXT PRIMARY KEY, value REAL, extra TEXT, created REAL)
// that several processes may share (WAL, a busy timeout). Only values are kept, never
// a None. Thread-safe.
class RemoteReward::Cache {
public:
    struct Entry {
        double value = 0.0;
        std::string extra; // a JSON object's text
    };

    explicit Cache(const std::string &path)
    {
        if (path.empty())
            return;
        sqlite::Connection::Options options;
        options.busyTimeoutMs = 10000;
        options.shared = true;
        try {
            m_db = std::make_unique<sqlite::Connection>(path, sqlite::Connection::Mode::Create, options);
            m_db->exec("PRAGMA journal_mode=WAL;"
                       "CREATE TABLE IF NOT EXISTS remote_reward_cache(key TEXT PRIMARY KEY, value REAL NOT NULL, "
                       "extra TEXT NOT NULL, created REAL NOT NULL)",
                       "creating the remote reward cache");
        } catch (const std::exception &e) {
            m_db.reset();
            throw std::invalid_argument(std::string("options.cache_file: ") + e.what() +
                                        " (is it a SQLite file? give another path)");
        }
    }

    std::optional<Entry> get(const std::string &key) const
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (auto it = m_memo.find(key); it != m_memo.end())
            return it->second;
        if (!m_db)
            return std::nullopt;
        try {
            sqlite::Statement q(*m_db, "SELECT value, extra FROM remote_reward_cache WHERE key = ?");
            q.bindTextCopy(1, key);
            if (!q.step() || q.isNull(0))
                return std::nullopt;
            Entry e{q.columnDouble(0), q.columnText(1)};
            if (!std::isfinite(e.value))
                return std::nullopt;
            remember(key, e);
            return e;
        } catch (const std::exception &) {
            return std::nullopt; // an unreadable entry is a miss; the fresh value replaces it
        }
    }

    // Stores every pair; a file that cannot take them (a full disk) is not the scoring's
    // failure: the memory still has them.
    void put(const std::vector<std::pair<std::string, Entry>> &entries) const
    {
        if (entries.empty())
            return;
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const auto &[key, entry] : entries)
            remember(key, entry);
        if (!m_db)
            return;
        try {
            sqlite::Transaction t(m_db->handle(), m_db->path());
            const double now =
                std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
            sqlite::Statement q(*m_db, "INSERT OR REPLACE INTO remote_reward_cache(key, value, extra, created) "
                                       "VALUES (?, ?, ?, ?)");
            for (const auto &[key, entry] : entries) {
                q.reset();
                q.bindTextCopy(1, key);
                q.bind(2, entry.value);
                q.bindTextCopy(3, entry.extra);
                q.bind(4, now);
                q.run();
            }
            t.commit();
        } catch (const std::exception &) {
        }
    }

private:
    void remember(const std::string &key, const Entry &entry) const
    {
        if (m_memo.size() >= kMaxMemo)
            m_memo.clear();
        m_memo[key] = entry;
    }

    std::unique_ptr<sqlite::Connection> m_db;
    mutable std::mutex m_mutex; // the memo and the connection
    mutable std::unordered_map<std::string, Entry> m_memo;
};

// ---- the component

// One item as it is sent.
struct RemoteReward::Item {
    std::string query;
    std::string prompt;
    std::string label;
    std::string key; // the cache key; "" without a cache
};

RemoteReward::RemoteReward(RemoteRewardOptions options, std::string label)
    : m_options(std::move(options))
    , m_name(label.empty() ? "remote" : std::move(label))
{
    const std::string who = m_name == "remote" ? "remote reward" : "remote reward " + m_name;
    net::ClientOptions client;
    client.who = who;
    client.target = net::parseUrl(m_options.server.url, who); // the endpoint as given, no /v1 added
    client.apiKeyEnv = m_options.server.apiKeyEnv;
    client.caCertPath = m_options.server.caCertPath;
    client.retry = m_options.server.retry;
    client.breaker = m_options.server.breaker;
    m_client = std::make_unique<net::JsonHttpClient>(std::move(client)); // checks the retries' ranges
    m_prefix = who + " " + m_client->endpoint() + ": ";
    if (m_options.cache)
        m_cache = std::make_unique<Cache>(m_options.cacheFile);
}

RemoteReward::~RemoteReward() = default;

const std::string &RemoteReward::endpoint() const
{
    return m_client->endpoint();
}

net::ClientStats RemoteReward::clientStats() const
{
    return m_client->stats();
}

RemoteBatchResult RemoteReward::lastBatch() const
{
    std::lock_guard<std::mutex> lock(m_lastMutex);
    return m_last;
}

bool RemoteReward::label(const task::Example &example, std::string &out, std::string &why) const
{
    const auto *record = dynamic_cast<const task::RecordExample *>(&example);
    switch (m_options.labels) {
    case RemoteLabels::Gold:
        out = example.goldText();
        return true;
    case RemoteLabels::Id:
        if (example.id().empty()) {
            why = "the example has no id (\"labels\": \"$id\")";
            return false;
        }
        out = example.id();
        return true;
    case RemoteLabels::Record:
        if (!record) {
            why = "example \"" + example.id() +
                  "\" has no record (it is not a record of a user's task; \"labels\": \"$record\")";
            return false;
        }
        out = record->recordJson();
        return true;
    case RemoteLabels::Column:
        if (!record) {
            why = "example \"" + example.id() + "\" has no columns, so the column \"" + m_options.labelColumn +
                  "\" cannot be read (\"labels\")";
            return false;
        }
        if (std::optional<std::string> v = record->column(m_options.labelColumn)) {
            out = std::move(*v);
            return true;
        }
        why = "example \"" + example.id() + "\" has no column \"" + m_options.labelColumn + "\" (\"labels\")";
        return false;
    }
    return false;
}

void RemoteReward::checkExample(const task::Example &example) const
{
    std::string text, why;
    if (!label(example, text, why))
        throw std::invalid_argument(m_name + ": " + why);
}

RemoteBatchResult RemoteReward::run(const std::vector<const task::Example *> &examples,
                                    const std::vector<const task::Completion *> &completions) const
{
    if (examples.size() != completions.size())
        throw std::invalid_argument(m_name + ": " + std::to_string(examples.size()) + " examples but " +
                                    std::to_string(completions.size()) + " completions");
    const auto started = util::Clock::now();
    const size_t n = examples.size();
    RemoteBatchResult r;
    r.values.assign(n, kNone);
    r.errors.assign(n, {});
    r.extra.assign(n, "{}");

    // ---- the items, the cache, the duplicates
    const std::string identity = m_client->endpoint() + "\n" + m_options.field + "\n";
    std::vector<Item> items(n);
    std::vector<size_t> toSend;                       // items asked, in order
    std::vector<size_t> sameAs(n, SIZE_MAX);          // a duplicate's item that is asked
    std::unordered_map<std::string, size_t> askedFor; // key → the item asked
    for (size_t i = 0; i < n; ++i) {
        Item &it = items[i];
        std::string why;
        if (!label(*examples[i], it.label, why)) {
            r.errors[i] = m_prefix + why;
            continue;
        }
        if (const auto *record = dynamic_cast<const task::RecordExample *>(examples[i]))
            it.prompt = promptText(record->promptJson());
        const std::string &text = completions[i]->text();
        it.query = m_options.query == RemoteQuery::PromptAndCompletion ? it.prompt + text : text;
        if (m_cache) {
            it.key = util::sha256Hex(identity + json::array({it.query, it.prompt, it.label})
                                              .dump(-1, ' ', false, json::error_handler_t::replace));
            if (const std::optional<Cache::Entry> hit = m_cache->get(it.key)) {
                r.values[i] = hit->value;
                r.extra[i] = hit->extra;
                ++r.cacheHits;
                continue;
            }
            auto [at, added] = askedFor.try_emplace(it.key, i);
            if (!added) {
                sameAs[i] = at->second;
                continue;
            }
        }
        toSend.push_back(i);
    }

    // ---- the requests: one per `batch` items asked, at most `concurrency` at once
    const size_t step = m_options.batch > 0 ? m_options.batch : std::max<size_t>(toSend.size(), 1);
    const size_t requests = (toSend.size() + step - 1) / step;
    struct Answer {
        std::vector<double> values;
        std::vector<std::string> errors;
        std::vector<json> extra;
        std::map<std::string, double> metrics;
    };
    std::vector<Answer> answers(requests);
    const auto ask = [&](size_t q) {
        const size_t begin = q * step;
        const size_t end = std::min(toSend.size(), begin + step);
        const size_t count = end - begin;
        Answer &a = answers[q];
        a.values.assign(count, kNone);
        a.errors.assign(count, {});
        a.extra.assign(count, json::object());
        json query = json::array(), prompts = json::array(), labels = json::array();
        for (size_t k = begin; k < end; ++k) {
            const Item &it = items[toSend[k]];
            query.push_back(it.query);
            prompts.push_back(it.prompt);
            labels.push_back(it.label);
        }
        const json request = {{"query", std::move(query)}, {"prompts", std::move(prompts)}, {"labels", std::move(labels)}};
        const std::string body = request.dump(-1, ' ', false, json::error_handler_t::replace);

        // The answer, checked on each attempt: a body that is not JSON may be a proxy's
        // page or cut short (retried); JSON without the rewards, or with the wrong number,
        // is a wrong URL or server (not retried).
        json reply;
        const auto check = [&](const std::string &text, int status) {
            bool tooDeep = false;
            json j = util::parseJsonOrDiscarded(text, &tooDeep);
            if (j.is_discarded() && !tooDeep)
                j = util::parseJsonOrDiscarded(nonFiniteAsStrings(text));
            if (j.is_discarded())
                throw net::BadAnswer("the answer is not JSON (HTTP " + std::to_string(status) + ", " +
                                         std::to_string(text.size()) + " bytes: \"" + net::excerpt(text) + "\")",
                                     /*retry=*/true);
            const json *list = nullptr;
            std::string name; // what the messages call the rewards' list
            if (j.is_array()) {
                list = &j;
                name = "the answer";
            } else if (j.is_object()) {
                list = findPath(j, m_options.field);
                name = "\"" + m_options.field + "\"";
                if (!list)
                    throw net::BadAnswer("the answer has no " + name + " (\"field\"): \"" + net::excerpt(text) + "\"");
            } else {
                throw net::BadAnswer("the answer is a JSON " + std::string(j.type_name()) + ", not an object with " +
                                     "\"" + m_options.field + "\"");
            }
            if (!list->is_array())
                throw net::BadAnswer(name + " is a " + std::string(list->type_name()) + ", not a list");
            if (list->size() != count)
                throw net::BadAnswer(name + " has " + std::to_string(list->size()) + " rewards for " +
                                     std::to_string(count) + (count == 1 ? " item" : " items"));
            reply = std::move(j);
        };
        try {
            m_client->post(body, check);
        } catch (const net::CallError &e) {
            for (std::string &error : a.errors)
                error = e.what();
            return;
        }
        // A bare list is the rewards themselves (check() saw the field in an object).
        const json &rewards = reply.is_array() ? reply : *findPath(reply, m_options.field);
        const std::string listName = reply.is_array() ? "item" : m_options.field;
        for (size_t k = 0; k < count; ++k) {
            const json &v = rewards[k];
            const std::string where = listName + "[" + std::to_string(k) + "]";
            if (v.is_number()) {
                const double d = v.get<double>();
                if (std::isfinite(d))
                    a.values[k] = d;
                else
                    a.errors[k] = m_prefix + where + " is " + formatValue(d) + ", not a finite number";
            } else if (v.is_string() && (v == "NaN" || v == "Infinity" || v == "-Infinity")) {
                a.errors[k] = m_prefix + where + " is " + v.get<std::string>() + ", not a finite number";
            } else if (v.is_null()) {
                a.errors[k] = m_prefix + where + " is null, not a number";
            } else {
                a.errors[k] = m_prefix + where + " is " + net::excerpt(v.dump(-1, ' ', false, json::error_handler_t::replace)) +
                              " (" + v.type_name() + "), not a number";
            }
        }
        // extra_logs: a list of one value per item is each item's; one number, the request's
        // (a metric). rwb serve's reward_none marks the values it sent as 0 for None.
        const json extraLogs = reply.is_object() ? reply.value("extra_logs", json()) : json();
        if (!extraLogs.is_object())
            return;
        for (auto e = extraLogs.begin(); e != extraLogs.end(); ++e) {
            if (e.key() == "reward_none" && e->is_array() && e->size() == count) {
                for (size_t k = 0; k < count; ++k) {
                    const json &flag = (*e)[k];
                    if ((flag.is_boolean() && flag.get<bool>()) || (flag.is_number() && flag.get<double>() != 0.0)) {
                        a.values[k] = kNone;
                        a.errors[k] = m_prefix + "the server marked the value None (extra_logs.reward_none = " +
                                      flag.dump() + "; " + listName + "[" + std::to_string(k) + "] is a stand-in)";
                    }
                }
            } else if (e->is_array() && e->size() == count) {
                for (size_t k = 0; k < count; ++k)
                    a.extra[k][e.key()] = (*e)[k];
            } else if (e->is_number() && std::isfinite(e->get<double>())) {
                a.metrics[e.key()] = e->get<double>();
            }
        }
    };
    // What the client does not turn into a CallError (out of memory) fails the request's
    // items, not the process: a worker thread must not throw.
    const auto askSafely = [&](size_t q) {
        try {
            ask(q);
        } catch (const std::exception &e) {
            for (std::string &error : answers[q].errors)
                error = m_prefix + e.what();
            std::fill(answers[q].values.begin(), answers[q].values.end(), kNone);
        }
    };
    const size_t workers = std::min<size_t>(static_cast<size_t>(std::max(1, m_options.concurrency)), requests);
    if (workers <= 1) {
        for (size_t q = 0; q < requests; ++q)
            askSafely(q);
    } else {
        std::atomic<size_t> next{0};
        const auto work = [&] {
            for (size_t q; (q = next.fetch_add(1)) < requests;)
                askSafely(q);
        };
        std::vector<std::thread> threads;
        for (size_t w = 1; w < workers; ++w)
            threads.emplace_back(work);
        work();
        for (std::thread &t : threads)
            t.join();
    }
    r.requests = requests;

    // ---- the answers to the items, the cache, the duplicates
    std::vector<std::pair<std::string, Cache::Entry>> fresh;
    std::map<std::string, std::pair<double, size_t>> metricSums;
    for (size_t q = 0; q < requests; ++q) {
        Answer &a = answers[q];
        for (size_t k = 0; k < a.values.size(); ++k) {
            const size_t i = toSend[q * step + k];
            r.values[i] = a.values[k];
            r.errors[i] = std::move(a.errors[k]);
            r.extra[i] = a.extra[k].dump(-1, ' ', false, json::error_handler_t::replace);
            if (m_cache && !isNone(r.values[i]))
                fresh.emplace_back(items[i].key, Cache::Entry{r.values[i], r.extra[i]});
        }
        for (const auto &[metric, value] : a.metrics) {
            auto &[sum, calls] = metricSums[metric];
            sum += value;
            calls += 1;
        }
    }
    if (m_cache)
        m_cache->put(fresh);
    for (size_t i = 0; i < n; ++i)
        if (sameAs[i] != SIZE_MAX) {
            r.values[i] = r.values[sameAs[i]];
            r.errors[i] = r.errors[sameAs[i]];
            r.extra[i] = r.extra[sameAs[i]];
            if (!isNone(r.values[i]))
                ++r.cacheHits;
        }
    for (const auto &[metric, sumCalls] : metricSums)
        r.metrics.emplace_back(metric, sumCalls.first / static_cast<double>(sumCalls.second));
    r.seconds = util::secondsSince(started);
    {
        std::lock_guard<std::mutex> lock(m_lastMutex);
        m_last = r;
    }
    return r;
}

double RemoteReward::score(const task::Example &example, const task::Completion &completion) const
{
    return run({&example}, {&completion}).values[0];
}

void RemoteReward::scoreBatch(const std::vector<const task::Example *> &examples,
                              const std::vector<const task::Completion *> &completions, std::vector<double> &out,
                              ScoreLog *log) const
{
    RemoteBatchResult r = run(examples, completions);
    if (log) // each item's error and extra values (extra_logs), the per-request numbers
        logBatch(*log, m_name, r.errors, r.extra, r.metrics);
    out = std::move(r.values);
}

Explanation RemoteReward::explain(const task::Example &example, const task::Completion &completion) const
{
    const RemoteBatchResult r = run({&example}, {&completion});
    Explanation e;
    e.reward = m_name;
    e.value = r.values[0];
    e.reason = Reason::Library;
    const std::string &url = m_client->endpoint();
    if (isNone(e.value)) {
        std::string why = r.errors[0];
        if (why.rfind(m_prefix, 0) == 0) // the URL is the sentence's own argument
            why.erase(0, m_prefix.size());
        else if (const size_t at = why.find(url + ": "); at != std::string::npos)
            why.erase(0, at + url.size() + 2);
        why = firstLine(why);
        e.key = "remote.none";
        e.args = {url, why};
        e.detail = m_name + " (" + url + ") gave None: " + why;
        e.error = r.errors[0];
    } else {
        e.key = "remote.value";
        e.args = {url, formatValue(e.value)};
        e.detail = m_name + " (" + url + ") gave " + formatValue(e.value) + (r.cacheHits > 0 ? " (cached)" : "");
    }
    if (r.extra[0] != "{}")
        e.detail += "; extra values: " + r.extra[0];
    return e;
}

void addRemoteRewards(Registry &registry)
{
    Registry::Entry e;
    e.name = "remote";
    e.task = "";
    e.description = "an OpenRLHF-style remote reward server (POST {query, prompts, labels} → {rewards}), with "
                    "retries, a circuit breaker and a cache";
    e.make = [](const RewardOptions &options) -> std::unique_ptr<Reward> {
        return std::make_unique<RemoteReward>(parseRemoteRewardOptions(options.componentOptions, options.baseDir),
                                              options.label);
    };
    registry.add(std::move(e));
}

} // namespace rwb::reward
