#include "tasks/extraction/extraction.h"

#include "text/normalize.h"
#include "text/utf8.h"

#include <nlohmann/json.hpp>

namespace rwb::reward {

namespace {

constexpr std::string_view kThinkOpen = kThinkingOpenTag;
constexpr std::string_view kThinkClose = kThinkingCloseTag;
constexpr std::string_view kAnswerOpen = kAnswerOpenTag;
constexpr std::string_view kAnswerClose = kAnswerCloseTag;

const std::u32string &unknownNormalized()
{
    static const std::u32string u = text::normalize32(kUnknownAnswer);
    return u;
}

// Skips leading Unicode white space; returns the rest.
std::string_view skipWhiteSpace(std::string_view s)
{
    const std::u32string cps = text::decodeUtf8(s);
    size_t bytes = 0;
    for (char32_t c : cps) {
        if (!text::isWhiteSpace(c))
            break;
        bytes += text::encodeUtf8(std::u32string(1, c)).size();
    }
    return s.substr(bytes);
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

} // namespace

FormatCheck checkThinkingFormat(std::string_view completion)
{
    std::string_view s = skipWhiteSpace(completion);
    if (!startsWith(s, kThinkOpen))
        return FormatCheck::NoThinkingOpen;
    s.remove_prefix(kThinkOpen.size());
    const size_t thinkEnd = s.find(kThinkClose);
    if (thinkEnd == std::string_view::npos)
        return FormatCheck::NoThinkingClose;
    const std::string_view thinking = s.substr(0, thinkEnd);
    if (thinking.find(kThinkOpen) != std::string_view::npos || thinking.find(kAnswerOpen) != std::string_view::npos)
        return FormatCheck::NestedTag;
    s = skipWhiteSpace(s.substr(thinkEnd + kThinkClose.size()));
    if (!startsWith(s, kAnswerOpen))
        return FormatCheck::NoAnswerOpen;
    s.remove_prefix(kAnswerOpen.size());
    const size_t answerEnd = s.find(kAnswerClose);
    if (answerEnd == std::string_view::npos)
        return FormatCheck::NoAnswerClose;
    const std::string_view answer = s.substr(0, answerEnd);
    if (answer.find(kAnswerOpen) != std::string_view::npos || answer.find(kThinkOpen) != std::string_view::npos ||
        answer.find(kThinkClose) != std::string_view::npos)
        return FormatCheck::NestedTag;
    if (!skipWhiteSpace(s.substr(answerEnd + kAnswerClose.size())).empty())
        return FormatCheck::TrailingText;
    return FormatCheck::Ok;
}

AnswerBlock answerBlock(std::string_view completion, bool thinking)
{
    if (!thinking)
        return {true, 0, completion.size()};
    const size_t open = completion.find(kAnswerOpen);
    if (open == std::string_view::npos)
        return {};
    const size_t begin = open + kAnswerOpen.size();
    const size_t close = completion.find(kAnswerClose, begin);
    if (close == std::string_view::npos)
        return {};
    return {true, begin, close - begin};
}

std::string extractAnswer(std::string_view completion, bool thinking)
{
    const AnswerBlock block = answerBlock(completion, thinking);
    return block.found ? text::trimmed(completion.substr(block.begin, block.length)) : std::string();
}

SenderDomain senderDomain(std::string_view header)
{
    SenderDomain out;
    // "Name <address>": look inside the last angle brackets.
    const size_t lt = header.rfind('<');
    if (lt != std::string_view::npos) {
        const size_t gt = header.find('>', lt);
        header = header.substr(lt + 1, gt == std::string_view::npos ? std::string_view::npos : gt - lt - 1);
    }
    const size_t at = header.find('@');
    if (at == std::string_view::npos)
        return out;
    out.hasAt = true;
    std::string_view rest = header.substr(at + 1);
    const size_t end = rest.find_first_of(". \t\r\n>,;");
    rest = rest.substr(0, end);
    out.domain.reserve(rest.size());
    for (char c : rest)
        out.domain.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c);
    return out;
}

ExtractionPrompt::ExtractionPrompt(std::string senderEmail, std::string emailText, std::string gold, std::string id)
    : m_id(std::move(id))
    , m_senderEmail(std::move(senderEmail))
    , m_emailText(std::move(emailText))
    , m_gold(std::move(gold))
    , m_goldNormalized(text::normalize32(m_gold))
    , m_goldStripped(text::stripMarkers(m_goldNormalized))
    , m_goldUnknown(m_goldNormalized == unknownNormalized())
    , m_sourceNormalized(text::normalize32(m_senderEmail + "\n" + m_emailText))
    , m_domain(senderDomain(m_senderEmail))
{
}

std::string ExtractionPrompt::metaJson() const
{
    nlohmann::ordered_json meta;
    meta["sender_email"] = m_senderEmail;
    meta["email_text"] = m_emailText;
    return meta.dump();
}

ExtractionAnswer::ExtractionAnswer(std::string completion, bool thinking)
    : m_completion(std::move(completion))
    , m_thinking(thinking)
    , m_answer(extractAnswer(m_completion, thinking))
    , m_normalized(text::normalize32(m_answer))
    , m_stripped(text::stripMarkers(m_normalized))
    , m_unknown(m_normalized == unknownNormalized())
{
}

} // namespace rwb::reward
