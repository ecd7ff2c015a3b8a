#pragma once

#include "reward/reward.h"
#include "task/task.h"
#include "text/markers.h"

#include <string>
#include <string_view>

namespace rwb::reward {

// The answer that means "the sender's company is not stated" (the first paper's 「不明」).
inline constexpr std::string_view kUnknownAnswer = "不明";

// The tags of the thinking format, exactly as the parser matches them (views that
// highlight them use these, so they mark what the rewards see).
inline constexpr std::string_view kThinkingOpenTag = "<thinking>";
inline constexpr std::string_view kThinkingCloseTag = "</thinking>";
inline constexpr std::string_view kAnswerOpenTag = "<answer>";
inline constexpr std::string_view kAnswerCloseTag = "</answer>";

// Why a completion does or does not have the thinking format.
enum class FormatCheck {
    Ok,
    NoThinkingOpen,   // does not start with <thinking> (after white space)
    NoThinkingClose,  // no </thinking>
    NoAnswerOpen,     // </thinking> is not followed (after white space) by <answer>
    NoAnswerClose,    // no </answer>
    TrailingText,     // something other than white space after </answer>
    NestedTag,        // a <thinking> or <answer> tag inside a block
};

// The thinking format of the first paper (fig. 3): the whole completion is
// <thinking>…</thinking> followed by <answer>…</answer>, with only white space
// around and between the two blocks. A block may not hold another opening tag.
FormatCheck checkThinkingFormat(std::string_view completion);

// The extracted answer: in plain mode the completion with white space trimmed; in
// thinking mode the trimmed text of the first <answer>…</answer>, or "" when there is none.
std::string extractAnswer(std::string_view completion, bool thinking);

// Where extractAnswer() takes the answer from, in bytes of `completion`, before
// trimming: the whole completion in plain mode; in thinking mode the text between the
// first <answer> and the next </answer> (found is false when there is no such block).
struct AnswerBlock {
    bool found = false;
    size_t begin = 0;
    size_t length = 0;
};
AnswerBlock answerBlock(std::string_view completion, bool thinking);

// The part of the sender's address between '@' and the next '.', lower-cased
// (the first paper's footnote 4: "@sansan.com" → "sansan"). The header may be a bare
// address or "Name <address>". Empty, with hasAt false, when there is no '@'.
struct SenderDomain {
    bool hasAt = false;
    std::string domain;
};
SenderDomain senderDomain(std::string_view senderHeader);

// One e-mail of the extraction task, prepared once and shared by every completion
// scored against it (a GRPO group shares one). Immutable after construction; safe
// to read from several threads.
class ExtractionPrompt : public task::Example {
public:
    ExtractionPrompt(std::string senderEmail, std::string emailText, std::string gold, std::string id = {});

    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    // {"sender_email": …, "email_text": …}
    std::string metaJson() const override;

    const std::string &senderEmail() const { return m_senderEmail; }
    const std::string &emailText() const { return m_emailText; }
    const std::string &gold() const { return m_gold; }
    // normalize(gold)
    const std::u32string &goldNormalized() const { return m_goldNormalized; }
    // the normalized gold with legal-entity markers stripped
    const text::StrippedText &goldStripped() const { return m_goldStripped; }
    bool goldUnknown() const { return m_goldUnknown; }
    // normalize(sender header + "\n" + e-mail body)
    const std::u32string &sourceNormalized() const { return m_sourceNormalized; }
    const SenderDomain &domain() const { return m_domain; }

private:
    std::string m_id;
    std::string m_senderEmail;
    std::string m_emailText;
    std::string m_gold;
    std::u32string m_goldNormalized;
    text::StrippedText m_goldStripped;
    bool m_goldUnknown = false;
    std::u32string m_sourceNormalized;
    SenderDomain m_domain;
};

// One completion, prepared once and shared by every reward component.
class ExtractionAnswer : public task::Completion {
public:
    ExtractionAnswer(std::string completion, bool thinking);

    const std::string &text() const override { return m_completion; }
    const std::string &completion() const { return m_completion; }
    bool thinking() const { return m_thinking; }
    // extractAnswer(completion, thinking)
    const std::string &answer() const override { return m_answer; }
    const std::u32string &normalized() const { return m_normalized; }
    const text::StrippedText &stripped() const { return m_stripped; }
    bool isUnknown() const { return m_unknown; }

private:
    std::string m_completion;
    bool m_thinking = false;
    std::string m_answer;
    std::u32string m_normalized;
    text::StrippedText m_stripped;
    bool m_unknown = false;
};

// The base of the extraction task's reward components.
using ExtractionReward = TaskReward<ExtractionPrompt, ExtractionAnswer>;

} // namespace rwb::reward
