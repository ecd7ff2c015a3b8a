#include "llm/backend.h"

#include "llm/chatjson.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <map>
#include <mutex>
#include <string_view>

namespace rwb::llm {

namespace {

using json = nlohmann::json;

// Whether a call's error is a 400 (or FastAPI's 422) that refuses `field` by name:
// OpenAI's reasoning models ("Unsupported parameter: 'max_tokens' is not supported with
// this model. Use 'max_completion_tokens' instead."), Azure's older API versions
// ("Unrecognized request argument supplied: max_completion_tokens"), strict servers
// ("Extra inputs are not permitted"). A 400 that names it for another reason (vLLM's
// "'max_tokens' or 'max_completion_tokens' is too large") is not.
bool refusesField(const std::string &error, TokenLimitField field)
{
    std::string lower = error;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    const bool refused = lower.find("http 400") != std::string::npos || lower.find("http 422") != std::string::npos;
    const std::string name = tokenLimitFieldName(field);
    if (!refused || lower.find(name) == std::string::npos)
        return false;
    // FastAPI / pydantic name each refused field by its location, and may echo the whole
    // body (with the field in it) beside another field's refusal: only the location counts.
    if (lower.find("\"loc\"") != std::string::npos) {
        std::string compact;
        for (char c : lower)
            if (!std::isspace(static_cast<unsigned char>(c)))
                compact += c;
        return compact.find("\"body\",\"" + name + "\"]") != std::string::npos &&
               (compact.find("extra") != std::string::npos || compact.find("notpermitted") != std::string::npos);
    }
    // Elsewhere the refusal words stand near the field's name (within 100 characters).
    constexpr size_t kNear = 100;
    for (size_t at = lower.find(name); at != std::string::npos; at = lower.find(name, at + 1)) {
        const size_t from = at > kNear ? at - kNear : 0;
        const std::string_view near = std::string_view(lower).substr(from, at - from + name.size() + kNear);
        for (const char *refusal : {"unsupported", "not supported", "unrecognized", "unknown", "extra", "not permitted",
                                    "not allowed"})
            if (near.find(refusal) != std::string_view::npos)
                return true;
    }
    return false;
}

// An OpenAI-compatible /v1/chat/completions endpoint.
class HttpBackend final : public ChatBackend {
public:
    explicit HttpBackend(const BackendOptions &o)
        : m_model(o.model), m_auto(o.tokenLimitField == TokenLimitField::Auto),
          m_field(m_auto ? TokenLimitField::MaxTokens : o.tokenLimitField)
    {
        m_client = std::make_unique<net::JsonHttpClient>(net::clientOptions(o.server, o.who, "chat/completions"));
    }
    std::string identity() const override { return "http " + m_client->endpoint(); }
    std::string model() const override { return m_model; }
    TokenLimitField tokenLimitField() const override { return m_field.load(); }
    ChatReply complete(const ChatRequest &request, int &attempts) const override
    {
        const TokenLimitField field = m_field.load();
        try {
            return post(request, field, attempts);
        } catch (const BackendError &e) {
            if (!m_auto || e.cancelled || !refusesField(e.what(), field))
                throw;
            // Once more with the other field; the one that works is kept for later calls.
            const TokenLimitField other =
                field == TokenLimitField::MaxTokens ? TokenLimitField::MaxCompletionTokens : TokenLimitField::MaxTokens;
            int more = 0;
            try {
                ChatReply reply = post(request, other, more);
                attempts = e.attempts + more;
                m_field.store(other);
                return reply;
            } catch (const BackendError &again) {
                attempts = e.attempts + more;
                throw BackendError(std::string(again.what()) + " (sent with " + tokenLimitFieldName(other) +
                                       " after the server refused " + tokenLimitFieldName(field) + ")",
                                   attempts, again.cancelled);
            }
        }
    }
    void cancel() const override { m_client->cancel(); }
    void resume() const override { m_client->resume(); }

private:
    // One call with the token limit in `field`; throws BackendError.
    ChatReply post(const ChatRequest &request, TokenLimitField field, int &attempts) const
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
            const net::CallResult r = m_client->post(requestJson(request, m_model, field), check);
            attempts = r.attempts;
        } catch (const net::CallError &e) {
            attempts = e.attempts;
            throw BackendError(e.what(), e.attempts, e.cancelled);
        }
        return reply;
    }

    std::string m_model;
    bool m_auto = false;
    mutable std::atomic<TokenLimitField> m_field; // the field sent now (learnt in auto mode)
    std::unique_ptr<net::JsonHttpClient> m_client;
};

struct Registry {
    std::mutex mutex;
    std::map<std::string, BackendFactory> factories;
};

Registry &registry()
{
    static Registry *r = [] {
        auto *out = new Registry;
        out->factories["http"] = [](const BackendOptions &o) -> std::shared_ptr<const ChatBackend> {
            if (o.server.url.empty())
                throw std::invalid_argument(o.who + ": backend \"http\" needs a url (the server's base URL, e.g. "
                                            "http://127.0.0.1:8000/v1)");
            return std::make_shared<HttpBackend>(o);
        };
        return out;
    }();
    return *r;
}

} // namespace

void registerBackend(const std::string &name, BackendFactory factory)
{
    Registry &r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    r.factories[name] = std::move(factory);
}

std::shared_ptr<const ChatBackend> makeBackend(const BackendOptions &options)
{
    BackendFactory factory;
    {
        Registry &r = registry();
        const std::lock_guard<std::mutex> lock(r.mutex);
        if (auto it = r.factories.find(options.backend); it != r.factories.end())
            factory = it->second;
    }
    if (!factory) {
        std::string names;
        for (const std::string &n : backendNames())
            names += (names.empty() ? "" : ", ") + n;
        throw std::invalid_argument(options.who + ": backend \"" + options.backend +
                                    "\" is unknown or not part of this program (allowed: " + names + ")");
    }
    return factory(options);
}

std::vector<std::string> backendNames()
{
    Registry &r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> out;
    for (const auto &[name, f] : r.factories)
        out.push_back(name);
    return out;
}

} // namespace rwb::llm
