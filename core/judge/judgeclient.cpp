#include "judge/judgeclient.h"
#include "util/duration.h"

#include "judge/judgecache.h"
#include "net/httpjsonclient.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

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

std::string sha256Hex(const std::string &text)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
    static const char *hex = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
        out += hex[digest[i] >> 4];
        out += hex[digest[i] & 15];
    }
    return out;
}


// Reads an optional non-negative integer field of usage.
int64_t usageField(const json &usage, const char *key)
{
    const auto it = usage.find(key);
    return it != usage.end() && it->is_number_integer() && it->get<int64_t>() >= 0 ? it->get<int64_t>() : 0;
}

struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<TokenLogprob> readLogprobs(const json &logprobs, const std::string &field)
{
    std::vector<TokenLogprob> out;
    if (logprobs.is_null())
        return out;
    if (!logprobs.is_object())
        throw Malformed(field + " is " + logprobs.type_name() + ", not an object");
    const auto content = logprobs.find("content");
    if (content == logprobs.end() || content->is_null())
        return out;
    if (!content->is_array())
        throw Malformed(field + ".content is " + content->type_name() + ", not an array");
    for (size_t k = 0; k < content->size(); ++k) {
        const json &t = (*content)[k];
        const std::string f = field + ".content[" + std::to_string(k) + "]";
        if (!t.is_object() || !t.contains("token") || !t["token"].is_string() || !t.contains("logprob") ||
            !t["logprob"].is_number())
            throw Malformed(f + " is not {\"token\": string, \"logprob\": number}");
        TokenLogprob tl;
        tl.token = t["token"].get<std::string>();
        tl.logprob = t["logprob"].get<double>();
        const auto top = t.find("top_logprobs");
        if (top != t.end() && top->is_array())
            for (size_t m = 0; m < top->size(); ++m) {
                const json &a = (*top)[m];
                if (!a.is_object() || !a.contains("token") || !a["token"].is_string() || !a.contains("logprob") ||
                    !a["logprob"].is_number())
                    throw Malformed(f + ".top_logprobs[" + std::to_string(m) +
                                    "] is not {\"token\": string, \"logprob\": number}");
                tl.top.push_back({a["token"].get<std::string>(), a["logprob"].get<double>()});
            }
        out.push_back(std::move(tl));
    }
    return out;
}

// An OpenAI-compatible /v1/chat/completions endpoint.
class HttpBackend final : public JudgeBackend {
public:
    explicit HttpBackend(const JudgeOptions &o) : m_model(o.model)
    {
        m_client = std::make_unique<net::JsonHttpClient>(net::clientOptions(o.server, "judge", "chat/completions"));
    }
    std::string identity() const override { return "http " + m_client->endpoint(); }
    std::string model() const override { return m_model; }
    ChatReply complete(const ChatRequest &request, int &attempts) const override
    {
        ChatReply reply;
        // A body that is not JSON (cut short, an HTML page from a proxy) is retried: a
        // restarting server or a flaky proxy behind it is worth another try. A JSON that
        // is not a chat completion is a wrong server: not retried.
        const auto check = [&](const std::string &body, int) {
            const json j = util::parseJsonOrDiscarded(body);
            if (j.is_discarded())
                throw net::BadAnswer("the answer is not JSON (" + std::to_string(body.size()) + " bytes: \"" +
                                         net::excerpt(body) + "\")",
                                     /*retry=*/true);
            try {
                reply = parseChatReply(body);
            } catch (const std::runtime_error &e) {
                throw net::BadAnswer(std::string("the answer is not a chat completion: ") + e.what());
            }
        };
        try {
            const net::CallResult r = m_client->post(requestJson(request, m_model), check);
            attempts = r.attempts;
        } catch (const net::CallError &e) {
            attempts = e.attempts;
            throw BackendError(e.what(), e.attempts, e.cancelled);
        }
        return reply;
    }
    void cancel() const override { m_client->cancel(); }
    void resume() const override { m_client->resume(); }

private:
    std::string m_model;
    std::unique_ptr<net::JsonHttpClient> m_client;
};

} // namespace

std::string requestJson(const ChatRequest &request, const std::string &model)
{
    const SamplingParams &s = request.sampling;
    json j = json::object();
    if (!model.empty())
        j["model"] = model;
    json messages = json::array();
    for (const ChatMessage &m : request.messages)
        messages.push_back({{"role", m.role}, {"content", m.content}});
    j["messages"] = std::move(messages);
    j["temperature"] = s.temperature;
    j["top_p"] = s.topP;
    j["max_tokens"] = s.maxTokens;
    j["n"] = s.n;
    if (s.seed)
        j["seed"] = *s.seed;
    if (!s.stop.empty())
        j["stop"] = s.stop;
    if (s.responseFormat == ResponseFormat::JsonObject) {
        j["response_format"] = {{"type", "json_object"}};
    } else if (s.responseFormat == ResponseFormat::JsonSchema) {
        json schema = util::parseJsonOrDiscarded(s.schema);
        if (schema.is_discarded())
            schema = json::object();
        j["response_format"] = {{"type", "json_schema"},
                                {"json_schema",
                                 {{"name", s.schemaName.empty() ? "verdict" : s.schemaName},
                                  {"schema", std::move(schema)},
                                  {"strict", true}}}};
    }
    if (s.logprobs) {
        j["logprobs"] = true;
        if (s.topLogprobs > 0)
            j["top_logprobs"] = s.topLogprobs;
    }
    // Invalid UTF-8 in a message becomes U+FFFD rather than an exception.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string cacheKey(const std::string &backendIdentity, const ChatRequest &request, const std::string &model)
{
    return sha256Hex(backendIdentity + "\n" + requestJson(request, model));
}

ChatReply parseChatReply(const std::string &body)
{
    const json j = util::parseJsonOrDiscarded(body);
    if (j.is_discarded())
        throw Malformed("not JSON");
    if (!j.is_object())
        throw Malformed(std::string("a JSON ") + j.type_name() + ", not an object");
    ChatReply reply;
    if (j.contains("model") && j["model"].is_string())
        reply.model = j["model"].get<std::string>();
    const auto usage = j.find("usage");
    if (usage != j.end() && usage->is_object()) {
        reply.promptTokens = usageField(*usage, "prompt_tokens");
        reply.completionTokens = usageField(*usage, "completion_tokens");
    }
    const auto choices = j.find("choices");
    if (choices == j.end())
        throw Malformed(j.contains("error") ? "an error object instead of \"choices\": " + net::excerpt(j["error"].dump())
                                            : std::string("no \"choices\""));
    if (!choices->is_array() || choices->empty())
        throw Malformed("\"choices\" is not a non-empty array");
    std::vector<ChatChoice> ordered(choices->size());
    std::vector<bool> seen(choices->size(), false);
    for (size_t i = 0; i < choices->size(); ++i) {
        const json &c = (*choices)[i];
        const std::string field = "choices[" + std::to_string(i) + "]";
        if (!c.is_object())
            throw Malformed(field + " is not an object");
        size_t index = i;
        if (c.contains("index")) {
            if (!c["index"].is_number_unsigned() || c["index"].get<size_t>() >= choices->size())
                throw Malformed(field + ".index is " + c["index"].dump() + ", not 0 to " +
                                std::to_string(choices->size() - 1));
            index = c["index"].get<size_t>();
        }
        if (seen[index])
            throw Malformed(field + ".index " + std::to_string(index) + " repeats");
        seen[index] = true;
        const auto message = c.find("message");
        if (message == c.end() || !message->is_object())
            throw Malformed(field + ".message is missing or not an object");
        const auto content = message->find("content");
        if (content == message->end() || content->is_null())
            throw Malformed(field + ".message.content is " + (content == message->end() ? "missing" : "null") +
                            (message->contains("refusal") ? " (the model refused: " +
                                                                net::excerpt(message->at("refusal").dump()) + ")"
                                                          : std::string()));
        if (!content->is_string())
            throw Malformed(field + ".message.content is " + content->type_name() + ", not a string");
        ChatChoice choice;
        choice.content = content->get<std::string>();
        if (c.contains("finish_reason") && c["finish_reason"].is_string())
            choice.finishReason = c["finish_reason"].get<std::string>();
        if (c.contains("logprobs"))
            choice.logprobs = readLogprobs(c["logprobs"], field + ".logprobs");
        ordered[index] = std::move(choice);
    }
    reply.choices = std::move(ordered);
    return reply;
}

std::string chatReplyJson(const ChatReply &reply)
{
    json choices = json::array();
    for (size_t i = 0; i < reply.choices.size(); ++i) {
        const ChatChoice &c = reply.choices[i];
        json choice = {{"index", i},
                       {"message", {{"role", "assistant"}, {"content", c.content}}},
                       {"finish_reason", c.finishReason.empty() ? json(nullptr) : json(c.finishReason)}};
        if (!c.logprobs.empty()) {
            json content = json::array();
            for (const TokenLogprob &t : c.logprobs) {
                json top = json::array();
                for (const TopLogprob &a : t.top)
                    top.push_back({{"token", a.token}, {"logprob", a.logprob}});
                content.push_back({{"token", t.token}, {"logprob", t.logprob}, {"top_logprobs", std::move(top)}});
            }
            choice["logprobs"] = {{"content", std::move(content)}};
        }
        choices.push_back(std::move(choice));
    }
    json j = {{"object", "chat.completion"},
              {"model", reply.model},
              {"choices", std::move(choices)},
              {"usage",
               {{"prompt_tokens", reply.promptTokens},
                {"completion_tokens", reply.completionTokens},
                {"total_tokens", reply.promptTokens + reply.completionTokens}}}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The "local" backend: core/engine/localjudge.cpp (rwb serve's engine, in-process).
std::shared_ptr<const JudgeBackend> makeLocalBackend(const JudgeOptions &options);

std::shared_ptr<const JudgeBackend> makeBackend(const JudgeOptions &options)
{
    if (options.backend == "http") {
        if (options.server.url.empty())
            throw std::invalid_argument("judge: backend \"http\" needs a url (the server's base URL, e.g. "
                                        "http://127.0.0.1:8000/v1)");
        return std::make_shared<HttpBackend>(options);
    }
    if (options.backend == "local")
        return makeLocalBackend(options);
    throw std::invalid_argument("judge: backend \"" + options.backend + "\" is unknown (allowed: http, local)");
}

JudgeClient::JudgeClient(JudgeOptions options) : JudgeClient(options, makeBackend(options)) {}

JudgeClient::JudgeClient(JudgeOptions options, std::shared_ptr<const JudgeBackend> backend)
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
        const auto it = m_memo.find(key);
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
        if (!cut) {
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
    // The first request of each key is called; later ones with the same key copy it.
    std::unordered_map<std::string, size_t> first;
    std::vector<size_t> unique;
    for (size_t i = 0; i < requests.size(); ++i) {
        keys[i] = cacheKey(identity, requests[i], model);
        if (first.emplace(keys[i], i).second)
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
        if (f == i)
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
