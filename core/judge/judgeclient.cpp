#include "judge/judgeclient.h"
#include "util/sha256.h"
#include "util/duration.h"

#include "judge/judgecache.h"
#include "llm/chatjson.h"
#include "net/httpjsonclient.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <condition_variable>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

namespace rwb::judge {

namespace {

using json = nlohmann::json;
using util::Clock;

// Replies kept in a client's memory (beyond them the memo starts over; the persistent
// cache still has them).
constexpr size_t kMaxMemo = 20000;
// How long a failed request is answered with its failure instead of being sent again.
constexpr double kFailureMemoSeconds = 60.0;

using util::secondsSince;


} // namespace

std::string cacheKey(const std::string &backendIdentity, const ChatRequest &request, const std::string &model)
{
    return util::sha256Hex(backendIdentity + "\n" + llm::requestJson(request, model));
}

llm::BackendOptions JudgeOptions::backendOptions() const
{
    llm::BackendOptions o;
    o.backend = backend;
    o.server = server;
    o.model = model;
    o.folder = folder;
    o.who = "judge";
    o.tokenLimitField = tokenLimitField;
    // Every call the client has in flight, with all its choices, at once.
    o.parallel = std::max(1, concurrency) * std::max(1, sampling.n);
    return o;
}

std::shared_ptr<const llm::ChatBackend> makeBackend(const JudgeOptions &options)
{
    return llm::makeBackend(options.backendOptions());
}

JudgeClient::JudgeClient(JudgeOptions options) : JudgeClient(options, makeBackend(options)) {}

JudgeClient::JudgeClient(JudgeOptions options, std::shared_ptr<const ChatBackend> backend)
    : m_options(std::move(options)), m_backend(std::move(backend))
{
    if (!m_backend)
        throw std::invalid_argument("judge: no backend");
    if (m_options.concurrency < 1)
        throw std::invalid_argument("judge: concurrency must be at least 1, not " +
                                    std::to_string(m_options.concurrency));
    if (!(m_options.cacheExpiryDays >= 0.0) || !std::isfinite(m_options.cacheExpiryDays))
        throw std::invalid_argument("judge: cache_expiry_days must be 0 (never) or more");
    if (!(m_options.pricePromptPerMillion >= 0.0) || !(m_options.priceCompletionPerMillion >= 0.0))
        throw std::invalid_argument("judge: prices must be 0 or more");
    if (!m_options.noCache && !m_options.cachePath.empty())
        m_cache = std::make_unique<JudgeCache>(m_options.cachePath);
}

JudgeClient::~JudgeClient() = default;

JudgeStats JudgeClient::stats() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_stats;
}

JudgeCall JudgeClient::callOne(const ChatRequest &request, const std::string &key) const
{
    JudgeCall call;
    call.request = request;
    call.key = key;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        const auto it = m_options.memo ? m_memo.find(key) : m_memo.end();
        if (it != m_memo.end()) {
            call.reply = it->second;
            call.cacheHit = true;
        } else if (const auto f = m_failed.find(key); f != m_failed.end()) {
            const double age = secondsSince(f->second.second);
            if (age < kFailureMemoSeconds) {
                // The same request failed moments ago (coverage's call, now asked by
                // consistency): not sent again.
                call.error = f->second.first;
                ++m_stats.calls;
                ++m_stats.failures;
                return call;
            }
            m_failed.erase(f);
        }
    }
    if (!call.reply && m_cache) {
        if (std::optional<ChatReply> cached = m_cache->get(key, m_options.cacheExpiryDays * 86400.0)) {
            call.reply = std::move(cached);
            call.cacheHit = true;
        }
    }
    bool cacheWriteFailed = false;
    if (!call.reply) {
        const Clock::time_point start = Clock::now();
        try {
            const SlotGuard slot(*this); // at most `concurrency` calls in flight, across run()s
            if (!slot.held()) {          // cancelSending(): not sent, not remembered
                call.error = kCancelledError;
                call.cancelled = true;
                std::lock_guard<std::mutex> lock(m_mutex);
                ++m_stats.calls;
                return call;
            }
            call.reply = m_backend->complete(request, call.attempts);
            call.cost = (m_options.pricePromptPerMillion * static_cast<double>(call.reply->promptTokens) +
                         m_options.priceCompletionPerMillion * static_cast<double>(call.reply->completionTokens)) /
                        1e6;
            // A reply cut off by max_tokens is not kept: asked again with more room (or
            // another time) it may be whole.
            const bool cut = std::any_of(call.reply->choices.begin(), call.reply->choices.end(),
                                         [](const ChatChoice &c) { return c.finishReason == "length"; });
            if (m_cache && !cut)
                cacheWriteFailed = !m_cache->put(key, *call.reply);
        } catch (const BackendError &e) {
            call.attempts = e.attempts;
            if (e.cancelled) { // cut short by cancelSending(): not a failure, not remembered
                call.error = kCancelledError;
                call.cancelled = true;
                call.latencySeconds = secondsSince(start);
                std::lock_guard<std::mutex> lock(m_mutex);
                ++m_stats.calls;
                m_stats.attempts += static_cast<uint64_t>(call.attempts);
                return call;
            }
            call.error = e.what();
        } catch (const std::exception &e) { // a local backend's engine error
            call.error = std::string("judge ") + m_backend->identity() + ": " + e.what();
        }
        call.latencySeconds = secondsSince(start);
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    ++m_stats.calls;
    m_stats.attempts += static_cast<uint64_t>(call.attempts);
    m_stats.cacheWriteFailures += cacheWriteFailed ? 1 : 0;
    if (call.cacheHit) {
        ++m_stats.cacheHits;
    } else if (call.reply) {
        m_stats.promptTokens += static_cast<uint64_t>(call.reply->promptTokens);
        m_stats.completionTokens += static_cast<uint64_t>(call.reply->completionTokens);
        m_stats.cost += call.cost;
        const bool cut = std::any_of(call.reply->choices.begin(), call.reply->choices.end(),
                                     [](const ChatChoice &c) { return c.finishReason == "length"; });
        if (!cut && m_options.memo) {
            if (m_memo.size() >= kMaxMemo)
                m_memo.clear();
            m_memo.emplace(key, *call.reply);
        }
    } else {
        ++m_stats.failures;
        if (m_failed.size() >= kMaxMemo)
            m_failed.clear();
        m_failed[key] = {call.error, Clock::now()};
    }
    return call;
}

void JudgeClient::forget(const std::string &key) const
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_memo.erase(key);
    }
    if (m_cache)
        m_cache->remove(key);
}

JudgeClient::SlotGuard::SlotGuard(const JudgeClient &client) : m_client(client)
{
    std::unique_lock<std::mutex> lock(client.m_slotMutex);
    client.m_slotFree.wait(lock, [&] {
        return client.m_cancelled.load() || client.m_inFlight < client.m_options.concurrency;
    });
    if (client.m_cancelled.load())
        return;
    ++client.m_inFlight;
    m_held = true;
}

JudgeClient::SlotGuard::~SlotGuard()
{
    if (!m_held)
        return;
    {
        std::lock_guard<std::mutex> lock(m_client.m_slotMutex);
        --m_client.m_inFlight;
    }
    m_client.m_slotFree.notify_one();
}

void JudgeClient::cancelSending() const
{
    {
        // Under the slot mutex, so that no waiter checks the flag between the store and
        // the notification and then sleeps through it.
        std::lock_guard<std::mutex> lock(m_slotMutex);
        m_cancelled = true;
    }
    m_slotFree.notify_all();
    m_backend->cancel();
}

void JudgeClient::resumeSending() const
{
    m_backend->resume();
    m_cancelled = false;
}

std::vector<JudgeCall> JudgeClient::run(const std::vector<ChatRequest> &requests) const
{
    const Clock::time_point start = Clock::now();
    std::vector<JudgeCall> calls(requests.size());
    std::vector<std::string> keys(requests.size());
    const std::string identity = m_backend->identity();
    const std::string model = m_backend->model();
    // The first request of each key is called; later ones with the same key copy it
    // (with the memo off, every request is called).
    std::unordered_map<std::string, size_t> first;
    std::vector<size_t> unique;
    for (size_t i = 0; i < requests.size(); ++i) {
        keys[i] = cacheKey(identity, requests[i], model);
        if (first.emplace(keys[i], i).second || !m_options.memo)
            unique.push_back(i);
    }
    std::atomic<size_t> next{0};
    const auto work = [&] {
        for (size_t k = next++; k < unique.size(); k = next++)
            calls[unique[k]] = callOne(requests[unique[k]], keys[unique[k]]);
    };
    const size_t threads = std::min(unique.size(), static_cast<size_t>(m_options.concurrency));
    if (threads <= 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        for (size_t t = 0; t < threads; ++t)
            pool.emplace_back(work);
        for (std::thread &t : pool)
            t.join();
    }
    for (size_t i = 0; i < requests.size(); ++i) {
        const size_t f = first[keys[i]];
        if (f == i || !m_options.memo)
            continue;
        JudgeCall copy = calls[f];
        copy.request = requests[i];
        copy.cacheHit = copy.ok(); // a copy: nothing was sent for it
        copy.attempts = 0;
        copy.latencySeconds = 0.0;
        copy.cost = 0.0;
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_stats.calls;
        if (copy.ok())
            ++m_stats.cacheHits;
        else if (!copy.cancelled)
            ++m_stats.failures;
        calls[i] = std::move(copy);
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    m_stats.seconds += secondsSince(start);
    return calls;
}

CheckResult checkJudge(const JudgeClient &client)
{
    ChatRequest r;
    r.messages = {{"system", "You are a test of a grading service. Reply with JSON only."},
                  {"user", "Reply with {\"ok\": true}."}};
    r.sampling = client.options().sampling;
    r.sampling.responseFormat = ResponseFormat::JsonObject;
    r.sampling.maxTokens = 16;
    r.sampling.logprobs = false;
    r.sampling.topLogprobs = 0;
    r.sampling.n = 1;
    CheckResult out;
    const Clock::time_point start = Clock::now();
    try {
        const ChatReply reply = client.backend().complete(r, out.attempts);
        out.ok = true;
        out.model = reply.model;
        out.reply = reply.choices.front().content;
        out.promptTokens = reply.promptTokens;
        out.completionTokens = reply.completionTokens;
    } catch (const std::exception &e) {
        out.error = e.what();
    }
    out.seconds = secondsSince(start);
    return out;
}

JudgeCall JudgeClient::run(const ChatRequest &request) const
{
    return run(std::vector<ChatRequest>{request}).front();
}

} // namespace rwb::judge
