#pragma once

namespace rwb::engine {

// Registers the chat layer's "local" backend (llm/backend.h): a model folder run in this
// process by rwb serve's engine. A program that offers it (rwb, the workbench) calls this
// once at start; the chat layer below the engine never links the engine itself.
void installLocalChatBackend();

} // namespace rwb::engine
