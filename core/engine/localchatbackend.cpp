// The chat layer's "local" backend: a model folder run in-process by our engine, through
// the same ChatEngine and continuous-batching scheduler as rwb serve, so that a judge
// client's concurrent calls decode together.
#include "engine/localchatbackend.h"

#include "llm/backend.h"
#include "serve/apierror.h"
#include "serve/chatengine.h"
#include "text/utf8.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace rwb::engine {

using namespace llm;

namespace {

class LocalBackend final : public ChatBackend {
public:
    explicit LocalBackend(const BackendOptions &o) : m_who(o.who)
    {
        serve::ChatEngineOptions options;
        options.name = o.model; // "" → the folder's name
        // Every request in flight, with all its choices, fits in one batch.
        options.scheduler.maxBatch = std::max(1, o.parallel);
        m_engine = std::make_shared<serve::ChatEngine>(o.folder, options);
        m_identity = "local " + o.folder;
    }
    std::string identity() const override { return m_identity; }
    std::string model() const override { return m_engine->name(); }
    ChatReply complete(const ChatRequest &request, int &attempts) const override
    {
        attempts = 1;
        serve::ChatCompletion c;
        try {
            c = m_engine->complete(request);
        } catch (const serve::ApiError &e) {
            throw BackendError(m_who + " " + m_identity + ": " + e.what(), 1);
        }
        ChatReply reply;
        reply.model = c.model;
        reply.promptTokens = c.promptTokens;
        reply.completionTokens = c.completionTokens;
        for (serve::CompletionChoice &choice : c.choices) {
            ChatChoice out;
            out.content = std::move(choice.text);
            out.finishReason = choice.finishReason;
            for (const serve::CompletionLogprob &lp : choice.logprobs) {
                TokenLogprob t;
                t.token = text::encodeUtf8(text::decodeUtf8(lp.token.bytes));
                t.logprob = lp.token.logprob;
                for (const serve::CompletionToken &a : lp.top)
                    t.top.push_back({text::encodeUtf8(text::decodeUtf8(a.bytes)), a.logprob});
                out.logprobs.push_back(std::move(t));
            }
            reply.choices.push_back(std::move(out));
        }
        return reply;
    }

private:
    std::string m_who;
    std::shared_ptr<serve::ChatEngine> m_engine;
    std::string m_identity;
};

} // namespace

void installLocalChatBackend()
{
    registerBackend("local", [](const BackendOptions &options) -> std::shared_ptr<const ChatBackend> {
        if (options.folder.empty())
            throw std::invalid_argument(options.who + ": backend \"local\" needs a folder (a Hugging Face model folder)");
        return std::make_shared<LocalBackend>(options);
    });
}

} // namespace rwb::engine
