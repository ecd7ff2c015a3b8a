#include "llm/backend.h"

#include "llm/chatjson.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <mutex>

namespace rwb::llm {

namespace {

using json = nlohmann::json;

// An OpenAI-compatible /v1/chat/completions endpoint.
class HttpBackend final : public ChatBackend {
public:
    explicit HttpBackend(const BackendOptions &o) : m_model(o.model)
    {
        m_client = std::make_unique<net::JsonHttpClient>(net::clientOptions(o.server, o.who, "chat/completions"));
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
