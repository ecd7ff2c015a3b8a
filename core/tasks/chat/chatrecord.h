#pragma once

// A chat dataset line (the "chat" task, tasks/chat/chattask.h): a conversation in the OpenAI
// messages shape and the assistant reply it should get —
//   {"id": "train-000001-right", "task": "chat",
//    "messages": [{"role": "system", "content": "…"}, {"role": "user", "content": "…"}],
//    "completion": "{\"coverage\": …}", "label": "right", …}
// `rwb judge data` writes them (a judge's requests with the verdicts it should reply);
// any other fields are kept as they are and written back with a prediction. A line
// without "completion" whose last message is the assistant's takes that message as its
// completion. docs/config.md, "Chat data".

#include "data/jsonl.h"
#include "tokenizer/promptformat.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::data {

inline constexpr std::string_view kChatTask = "chat";

struct ChatRecord {
    std::string id;
    std::vector<tokenizer::ChatMessage> messages; // at least one; the prompt
    bool hasCompletion = false;
    std::string completion; // the assistant's reply (the SFT target, the gold)
    std::string label;      // optional "label": a kind for views and counts
    nlohmann::json line;    // the whole line as read (extra fields included)
    size_t lineNumber = 0;
};

// One line. Throws InputException {source, line, reason} naming the field: a missing or
// empty "messages", a message that is not {"role", "content"} strings, a role other than
// system / user / assistant, a "task" other than "chat", a missing completion when
// `requireCompletion`.
ChatRecord parseChatLine(std::string_view line, const std::string &source, size_t lineNumber,
                         bool requireCompletion);

// The line of a record with `completion` as its completion (the record's other fields
// kept): what evaluation writes for a prediction.
std::string chatLineWithCompletion(const ChatRecord &record, const std::string &completion);

} // namespace rwb::data
