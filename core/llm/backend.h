#pragma once

// What answers chat requests (ChatBackend), and the backends by name: "http" (an
// OpenAI-compatible server) is built in; "local" (a model folder run in-process by rwb
// serve's engine) registers itself when a program installs it
// (engine::installLocalChatBackend), so that nothing below the engine links the engine.

#include "llm/chat.h"
#include "llm/chatjson.h"
#include "net/httpjsonclient.h"

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace rwb::llm {

// A backend's failure: the message names the backend (its URL or folder) and what went
// wrong; `attempts` HTTP attempts were made (0: nothing was sent).
struct BackendError : std::runtime_error {
    BackendError(const std::string &what, int attempts, bool cancelled = false)
        : std::runtime_error(what), attempts(attempts), cancelled(cancelled)
    {
    }
    int attempts = 0;
    bool cancelled = false; // cut short by cancel(): no answer, and not the backend's failure
};

// What answers chat requests. Implementations are thread-safe.
class ChatBackend {
public:
    virtual ~ChatBackend() = default;
    // What identifies the backend in a cache key and in views: "http http://host/v1/chat/completions"
    // or "local /path/to/model". Not the API key.
    virtual std::string identity() const = 0;
    // The model named in requests (or the folder's name).
    virtual std::string model() const = 0;
    // Answers one request; throws BackendError. `attempts` gets the HTTP attempts made.
    virtual ChatReply complete(const ChatRequest &request, int &attempts) const = 0;
    // The field the token limit goes in now (http's auto mode learns it from the server):
    // the request as it was sent, for the judge's log.
    virtual TokenLimitField tokenLimitField() const { return TokenLimitField::MaxTokens; }
    // Cuts the calls in flight short (BackendError with `cancelled`) and refuses new ones
    // until resume(), where the backend can: http shuts its sockets down; local finishes
    // the generation it is in. Any thread.
    virtual void cancel() const {}
    virtual void resume() const {}
};

// What a backend is made from.
struct BackendOptions {
    std::string backend = "http"; // its registered name
    net::EndpointOptions server;  // http: the server
    std::string model;            // http: sent as "model"; local: its name ("" the folder's)
    std::string folder;           // local: the model folder
    std::string who = "chat";     // starts its messages ("judge")
    // http: the field the token limit is sent in. Auto sends max_tokens; when a server
    // answers 400 naming the field sent as unsupported or unrecognized (OpenAI's reasoning
    // models: "Unsupported parameter: 'max_tokens' …"), the call is made once more with
    // the other field, and the backend sends that one from then on.
    TokenLimitField tokenLimitField = TokenLimitField::Auto;
    int parallel = 1;             // requests × choices it should serve at once
};

// Makes a backend from its options; throws std::invalid_argument naming the field for bad
// options, or an unknown name (listing the registered ones). Contacts nothing.
using BackendFactory = std::function<std::shared_ptr<const ChatBackend>(const BackendOptions &)>;
// Registers (or replaces) the backend `name`. Thread-safe.
void registerBackend(const std::string &name, BackendFactory factory);
std::shared_ptr<const ChatBackend> makeBackend(const BackendOptions &options);
// The registered names, sorted.
std::vector<std::string> backendNames();

} // namespace rwb::llm
