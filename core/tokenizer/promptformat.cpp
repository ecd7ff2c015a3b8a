#include "tokenizer/promptformat.h"

#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/tokenizer.h"

#include <algorithm>
#include <filesystem>

namespace rwb::tokenizer {

namespace {

// The first paper's appendix A.1, fig. 2 (no thinking): the text before {sender_email}.
constexpr std::string_view kPlainHead =
    "### 指示:\n"
    "送信者のメールヘッダとメール本文を使って、メール送信者の会社名を応答に出力してください。\n"
    "送信者の会社名が記述されていない場合は、「不明」と出力してください。\n"
    "\n"
    "### 送信者のメールヘッダ:\n";
// Fig. 3 (thinking): the text before {sender_email}.
constexpr std::string_view kThinkingHead =
    "### 指示:\n"
    "送信者のメールヘッダとメール本文を使って、<thinking>と</thinking>の間に送信者の会社名を推論するための"
    "論理的な思考過程を記載し、<answer>と</answer>の間に送信者の会社名を出力してください。\n"
    "送信者の会社名が記述されていない場合は、「不明」と出力してください。\n"
    "\n"
    "### 送信者のメールヘッダ:\n";
// Both figures: between {sender_email} and {email_text}.
constexpr std::string_view kBetween = "\n\n### メール本文:\n";
// Both figures: after {email_text}, up to where the completion starts.
constexpr std::string_view kTail = "\n\n### 応答:\n";

constexpr std::string_view kImStart = "<|im_start|>";
constexpr std::string_view kImEnd = "<|im_end|>";
constexpr std::string_view kEndOfText = "<|endoftext|>";
// What Qwen3's chat template writes after the generation prompt when thinking is off.
constexpr std::string_view kEmptyThinking = "<think>\n\n</think>\n\n";

} // namespace

PromptFormat::PromptFormat(Kind kind, bool qwen3NoThinking) : m_kind(kind), m_qwen3NoThinking(qwen3NoThinking) {}

std::optional<PromptFormat::Kind> PromptFormat::kindFromName(std::string_view name)
{
    if (name == "plain")
        return Kind::Plain;
    if (name == "chatml")
        return Kind::ChatMl;
    return std::nullopt;
}

PromptFormat PromptFormat::forModel(const std::string &modelDir, const Tokenizer &tokenizer)
{
    const bool hasThink = tokenizer.tokenToId("<think>").has_value() && tokenizer.tokenToId("</think>").has_value();
    const std::string configPath = (std::filesystem::path(modelDir) / "tokenizer_config.json").string();
    std::error_code ec;
    if (std::filesystem::exists(configPath, ec)) {
        const JsonFieldReader r(configPath);
        const nlohmann::json doc = r.parseFile();
        if (const nlohmann::json *v = r.optional(doc, "rwb_prompt_format")) {
            const std::string name = r.string(*v, "rwb_prompt_format");
            const std::optional<Kind> kind = kindFromName(name);
            if (!kind)
                r.fail("rwb_prompt_format", "\"" + name + "\" is not \"plain\" or \"chatml\"");
            return PromptFormat(*kind, *kind == Kind::ChatMl && hasThink);
        }
    }
    if (tokenizer.tokenToId(kImStart).has_value())
        return PromptFormat(Kind::ChatMl, hasThink);
    return PromptFormat(Kind::Plain);
}

std::string PromptFormat::name() const
{
    return m_kind == Kind::ChatMl ? "chatml" : "plain";
}

std::string PromptFormat::paperPrompt(std::string_view senderEmail, std::string_view emailText, bool thinking)
{
    std::string s(thinking ? kThinkingHead : kPlainHead);
    s += senderEmail;
    s += kBetween;
    s += emailText;
    s += kTail;
    return s;
}

std::string PromptFormat::paperCompletion(std::string_view answer, std::string_view thinking, bool thinkingMode)
{
    if (!thinkingMode)
        return std::string(answer);
    std::string s = "<thinking>";
    s += thinking;
    s += "</thinking><answer>";
    s += answer;
    s += "</answer>";
    return s;
}

std::string PromptFormat::corpusEntry(std::string_view senderEmail, std::string_view emailText, std::string_view gold,
                                      bool thinking)
{
    return paperPrompt(senderEmail, emailText, thinking) + paperCompletion(gold, "", thinking) + "\n\n";
}

std::string PromptFormat::extractionPrompt(std::string_view senderEmail, std::string_view emailText,
                                           bool thinking) const
{
    std::string prompt = paperPrompt(senderEmail, emailText, thinking);
    if (m_kind == Kind::Plain)
        return prompt;
    prompt.resize(prompt.size() - kTail.size());
    return chat({{"user", prompt}}, /*addGenerationPrompt=*/true);
}

std::string PromptFormat::instructionPrompt(std::string_view body) const
{
    if (m_kind == Kind::Plain)
        return std::string(body) + std::string(kTail);
    return chat({{"user", std::string(body)}}, /*addGenerationPrompt=*/true);
}

std::string PromptFormat::chat(const std::vector<ChatMessage> &messages, bool addGenerationPrompt) const
{
    std::string s;
    if (m_kind == Kind::Plain) {
        for (size_t i = 0; i < messages.size(); ++i) {
            if (i > 0)
                s += "\n\n";
            s += messages[i].content;
        }
        return s;
    }
    for (const ChatMessage &m : messages) {
        s += kImStart;
        s += m.role;
        s += '\n';
        s += m.content;
        s += kImEnd;
        s += '\n';
    }
    if (addGenerationPrompt) {
        s += kImStart;
        s += "assistant\n";
        if (m_qwen3NoThinking)
            s += kEmptyThinking;
    }
    return s;
}

std::string PromptFormat::chatPrompt(const std::vector<ChatMessage> &messages) const
{
    if (m_kind == Kind::ChatMl)
        return chat(messages, /*addGenerationPrompt=*/true);
    return chat(messages, /*addGenerationPrompt=*/false) + std::string(kTail);
}

std::string PromptFormat::chatTemplate() const
{
    // Jinja string literals: the markers and endings as they are, "\n" written as an escape.
    const auto literal = [](std::string_view text) {
        std::string s = "'";
        for (char c : text)
            s += c == '\n' ? std::string("\\n") : c == '\'' ? std::string("\\'") : std::string(1, c);
        return s + "'";
    };
    if (m_kind == Kind::Plain)
        return "{%- for message in messages %}{%- if not loop.first %}{{ '\\n\\n' }}{%- endif %}"
               "{{ message['content'] }}{%- endfor %}"
               "{%- if add_generation_prompt %}{{ " + literal(kTail) + " }}{%- endif %}";
    return "{%- for message in messages %}{{ " + literal(kImStart) + " + message['role'] + '\\n' + "
           "message['content'] + " + literal(kImEnd) + " + '\\n' }}{%- endfor %}"
           "{%- if add_generation_prompt %}{{ " + literal(std::string(kImStart) + "assistant\n" +
                                                           std::string(m_qwen3NoThinking ? kEmptyThinking : "")) +
           " }}{%- endif %}";
}

std::vector<int32_t> PromptFormat::chatPromptIds(const std::vector<ChatMessage> &messages,
                                                 const Tokenizer &tokenizer) const
{
    std::vector<int32_t> ids;
    const auto plain = [&](std::string_view text) {
        const std::vector<int32_t> piece = tokenizer.encodeOrdinary(text);
        ids.insert(ids.end(), piece.begin(), piece.end());
    };
    if (m_kind == Kind::Plain) {
        plain(chatPrompt(messages));
        return ids;
    }
    // encode() would cut the rendering at the markers and tokenize each stretch between
    // them on its own: "{role}\n{content}" and the "\n" between two turns. The same
    // stretches here, with the markers as their ids (or as text when the tokenizer lacks them).
    const auto marker = [&](std::string_view text) {
        if (const std::optional<int32_t> id = tokenizer.tokenToId(text))
            ids.push_back(*id);
        else
            plain(text);
    };
    for (const ChatMessage &m : messages) {
        marker(kImStart);
        plain(m.role + "\n" + m.content);
        marker(kImEnd);
        plain("\n");
    }
    marker(kImStart);
    plain("assistant\n");
    if (m_qwen3NoThinking) {
        const std::vector<int32_t> thinking = tokenizer.encode(kEmptyThinking);
        ids.insert(ids.end(), thinking.begin(), thinking.end());
    }
    return ids;
}

std::vector<int32_t> PromptFormat::stopTokenIds(const Tokenizer &tokenizer) const
{
    std::vector<int32_t> ids;
    auto add = [&](std::optional<int32_t> id) {
        if (id && std::find(ids.begin(), ids.end(), *id) == ids.end())
            ids.push_back(*id);
    };
    if (m_kind == Kind::ChatMl)
        add(tokenizer.tokenToId(kImEnd));
    add(tokenizer.tokenToId(kEndOfText));
    add(tokenizer.eosId());
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::string PromptFormat::endOfCompletion(const Tokenizer &tokenizer) const
{
    if (m_kind == Kind::ChatMl)
        return std::string(kImEnd);
    if (const std::optional<int32_t> eos = tokenizer.eosId())
        return tokenizer.idToToken(*eos);
    return {};
}

} // namespace rwb::tokenizer
