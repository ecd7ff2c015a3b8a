#include "tasks/extraction/goldrule.h"

#include "text/markers.h"
#include "text/normalize.h"
#include "text/utf8.h"

namespace rwb::data {

namespace {

// Marker text directly around [begin, end) of `s`, absorbing adjacent markers repeatedly.
size_t markerLengthAround(const std::u32string &s, size_t begin, size_t end)
{
    size_t total = 0;
    bool grew = true;
    while (grew) {
        grew = false;
        for (const std::u32string &m : text::legalEntityMarkers()) {
            if (begin >= m.size() && s.compare(begin - m.size(), m.size(), m) == 0) {
                begin -= m.size();
                total += m.size();
                grew = true;
                break;
            }
            if (end + m.size() <= s.size() && s.compare(end, m.size(), m) == 0) {
                end += m.size();
                total += m.size();
                grew = true;
                break;
            }
        }
    }
    return total;
}

} // namespace

std::string goldRuleViolation(std::string_view senderHeader, std::string_view emailText, std::string_view gold)
{
    const std::string goldTrimmed = text::trimmed(gold);
    if (text::normalize(goldTrimmed) == "不明")
        return {};
    if (goldTrimmed.empty())
        return "the gold is empty";
    if (senderHeader.find(goldTrimmed) == std::string_view::npos && emailText.find(goldTrimmed) == std::string_view::npos)
        return "the gold \"" + goldTrimmed + "\" does not occur verbatim in the sender header or the body";

    const text::StrippedText stripped = text::stripMarkers(text::normalize32(goldTrimmed));
    size_t goldMarkers = 0;
    for (const std::u32string &m : stripped.removed)
        goldMarkers += m.size();
    const std::u32string &core = stripped.text;
    if (core.empty())
        return "the gold \"" + goldTrimmed + "\" is only a legal-entity marker";

    const std::string source = std::string(senderHeader) + "\n" + std::string(emailText);
    const std::u32string src = text::normalize32(source);
    for (size_t pos = src.find(core); pos != std::u32string::npos; pos = src.find(core, pos + 1)) {
        const size_t around = markerLengthAround(src, pos, pos + core.size());
        if (around > goldMarkers) {
            // Show the more detailed form as it reads after normalization.
            size_t from = pos >= around ? pos - around : 0;
            const size_t to = std::min(src.size(), pos + core.size() + around);
            return "a more detailed form than the gold \"" + goldTrimmed + "\" occurs near \"" +
                   text::encodeUtf8(src.substr(from, to - from)) + "\" (after normalization)";
        }
    }
    return {};
}

} // namespace rwb::data
