#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::tokenizer {

class Tokenizer;

// One turn of a conversation.
struct ChatMessage {
    std::string role; // "system", "user", "assistant"
    std::string content;
};

// How a model expects its prompts: the first paper's plain template (its fig. 2, and
// fig. 3 with thinking) or ChatML (Qwen). A model folder says which in
// tokenizer_config.json ("rwb_prompt_format": "plain" | "chatml"); without it, a
// tokenizer that has <|im_start|> is ChatML and any other is plain.
//
// A value type; every member is const and thread-safe.
class PromptFormat {
public:
    enum class Kind { Plain, ChatMl };

    // `qwen3NoThinking`: append Qwen3's empty thinking block ("<think>\n\n</think>\n\n")
    // after the generation prompt, so a Qwen3 model answers without thinking first.
    explicit PromptFormat(Kind kind = Kind::Plain, bool qwen3NoThinking = false);

    // The format of a model folder, read as described above; qwen3NoThinking is set for
    // ChatML when the tokenizer has both <think> and </think>. Throws data::InputException
    // naming tokenizer_config.json and the field when the file or the value is bad.
    static PromptFormat forModel(const std::string &modelDir, const Tokenizer &tokenizer);
    // "plain" / "chatml" → the kind; anything else → nullopt.
    static std::optional<Kind> kindFromName(std::string_view name);

    Kind kind() const { return m_kind; }
    std::string name() const;
    bool qwen3NoThinking() const { return m_qwen3NoThinking; }

    // The first paper's prompt (appendix A.1), fig. 2 or, with `thinking`, fig. 3, with
    // {sender_email} and {email_text} filled in; it ends after "### 応答:\n", where the
    // model's completion starts. The values are inserted as they are (no placeholder in
    // them is expanded).
    static std::string paperPrompt(std::string_view senderEmail, std::string_view emailText, bool thinking);
    // The completion the paper's templates expect: the answer, or with thinking
    // "<thinking>{thinking}</thinking><answer>{answer}</answer>".
    static std::string paperCompletion(std::string_view answer, std::string_view thinking, bool thinkingMode);
    // One entry of a tokenizer-training corpus (`rwb data corpus`): the paper's prompt and
    // the gold completion of an e-mail, then a blank line.
    static std::string corpusEntry(std::string_view senderEmail, std::string_view emailText, std::string_view gold,
                                   bool thinking);

    // The company-extraction prompt in this format. Plain: paperPrompt(). ChatML: one user
    // turn holding paperPrompt() up to the e-mail text (without "\n\n### 応答:\n"), then
    // the generation prompt.
    std::string extractionPrompt(std::string_view senderEmail, std::string_view emailText, bool thinking) const;

    // A one-turn instruction prompt of any task: plain, `body` then "\n\n### 応答:\n" (the
    // paper's templates' ending, where the completion starts); ChatML, one user turn
    // holding `body`, then the generation prompt.
    std::string instructionPrompt(std::string_view body) const;

    // ChatML: "<|im_start|>{role}\n{content}<|im_end|>\n" per message, then, with
    // `addGenerationPrompt`, "<|im_start|>assistant\n" (and the empty thinking block when
    // qwen3NoThinking). Plain: the contents joined with "\n\n" (roles are dropped).
    std::string chat(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const;

    // A conversation ready for the model's next turn (what rwb serve and the local judge
    // send to a model; docs/serve.md). ChatML: chat(messages, true), every role as given.
    // Plain: the contents joined with "\n\n" (roles dropped), then "\n\n### 応答:\n",
    // the ending the plain templates train on, so that one user message renders as
    // instructionPrompt() of its content.
    std::string chatPrompt(const std::vector<ChatMessage> &messages) const;
    // The same rendering as a Hugging Face chat template (Jinja, tokenizer_config.json's
    // "chat_template"), so that transformers' apply_chat_template, TRL and verl render
    // what this engine trains on: with add_generation_prompt it gives chatPrompt(), without
    // it chat(messages, false) (tests/reference/check_chat_template.py checks both).
    std::string chatTemplate() const;
    // chatPrompt() as token ids, with each message's role and content tokenized as plain
    // text (Tokenizer::encodeOrdinary): a "<|im_end|>" that a client writes in a message is
    // text, not the end of its turn. Equal to tokenizer.encode(chatPrompt(messages)) when
    // no message holds an added token (for byte-level BPE tokenizers). No BOS is added,
    // as in training.
    std::vector<int32_t> chatPromptIds(const std::vector<ChatMessage> &messages, const Tokenizer &tokenizer) const;

    // Token ids that end a completion, in increasing order. Plain: the tokenizer's eos
    // and <|endoftext|>. ChatML: <|im_end|>, <|endoftext|> and the eos. Tokens the
    // tokenizer does not have are left out.
    std::vector<int32_t> stopTokenIds(const Tokenizer &tokenizer) const;
    // The text that ends a completion in a training target: ChatML "<|im_end|>", plain
    // the eos token's text ("" when the tokenizer has none).
    std::string endOfCompletion(const Tokenizer &tokenizer) const;

private:
    Kind m_kind;
    bool m_qwen3NoThinking;
};

} // namespace rwb::tokenizer
