#pragma once

// The judge asks in the chat layer's vocabulary (llm/chat.h), by the same names.

#include "llm/chat.h"

namespace rwb::judge {

using llm::ChatChoice;
using llm::ChatMessage;
using llm::ChatReply;
using llm::ChatRequest;
using llm::ResponseFormat;
using llm::SamplingParams;
using llm::TokenLogprob;
using llm::TopLogprob;

} // namespace rwb::judge
