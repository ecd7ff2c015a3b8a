#include "tasks/legalqa/legaloutput.h"

#include "text/utf8.h"

#include <algorithm>
#include <array>
#include <optional>

namespace rwb::eval {

namespace {

enum TagType { kReasoningOpen, kReasoningClose, kAnswerOpen, kAnswerClose, kCitationOpen, kCitationClose,
               kCodeOpen, kCodeClose, kTagTypes };

const std::array<std::string_view, kTagTypes> kTagText = {
    "<reasoning>", "</reasoning>", "<answer>", "</answer>", "<citation>", "</citation>", "<law_code>", "</law_code>"};

struct Tag {
    TagType type;
    size_t begin, end;
};

// The longest law code read as an integer; 18 digits always fit in int64_t.
constexpr size_t kMaxCodeDigits = 18;

std::vector<Tag> findTags(std::string_view s)
{
    std::vector<Tag> tags;
    for (size_t i = s.find('<'); i != std::string_view::npos; i = s.find('<', i + 1))
        for (int t = 0; t < kTagTypes; ++t)
            if (s.compare(i, kTagText[t].size(), kTagText[t]) == 0) {
                tags.push_back({static_cast<TagType>(t), i, i + kTagText[t].size()});
                break;
            }
    return tags;
}

bool onlyWhiteSpace(std::string_view s)
{
    for (char32_t c : text::decodeUtf8(s))
        if (!text::isWhiteSpace(c))
            return false;
    return true;
}

// The code of an element's content, white space trimmed, when it is 1–18 ASCII digits.
std::optional<int64_t> integerCode(std::string_view content)
{
    const std::string t = text::trimmed(content);
    if (t.empty() || t.size() > kMaxCodeDigits)
        return std::nullopt;
    int64_t v = 0;
    for (char c : t) {
        if (c < '0' || c > '9')
            return std::nullopt;
        v = v * 10 + (c - '0');
    }
    return v;
}

struct Block {
    const Tag *open = nullptr;
    const Tag *close = nullptr; // the first closing tag after open
    size_t innerEnd = 0;
};

// Lenient extraction of block `b` (0 reasoning, 1 answer, 2 citation).
Block locate(const std::vector<Tag> &tags, int b, size_t textSize)
{
    Block block;
    const TagType openType = static_cast<TagType>(2 * b), closeType = static_cast<TagType>(2 * b + 1);
    for (const Tag &t : tags)
        if (t.type == openType) {
            block.open = &t;
            break;
        }
    if (!block.open)
        return block;
    block.innerEnd = textSize;
    for (const Tag &t : tags) {
        if (t.begin < block.open->end)
            continue;
        if (t.type == closeType) {
            block.close = &t;
            block.innerEnd = t.begin;
            break;
        }
        const bool otherOpen = (t.type == kReasoningOpen || t.type == kAnswerOpen || t.type == kCitationOpen) &&
                               t.type != openType;
        if (otherOpen) {
            block.innerEnd = t.begin;
            break;
        }
    }
    return block;
}

LegalBlock toLegalBlock(const Block &b)
{
    LegalBlock out;
    if (!b.open)
        return out;
    out.found = true;
    out.inner = {b.open->end, b.innerEnd};
    out.outer = {b.open->begin, b.close ? b.close->end : b.innerEnd};
    return out;
}

} // namespace

std::string_view legalFormatName(LegalFormat format)
{
    switch (format) {
    case LegalFormat::Ok:
        return "ok";
    case LegalFormat::MissingReasoning:
        return "missing_reasoning";
    case LegalFormat::MissingAnswer:
        return "missing_answer";
    case LegalFormat::MissingCitation:
        return "missing_citation";
    case LegalFormat::DuplicateTag:
        return "duplicate_tag";
    case LegalFormat::WrongOrder:
        return "wrong_order";
    case LegalFormat::NestedTag:
        return "nested_tag";
    case LegalFormat::TextOutsideBlocks:
        return "text_outside_blocks";
    case LegalFormat::MalformedCitation:
        return "malformed_citation";
    case LegalFormat::NonIntegerCode:
        return "non_integer_code";
    }
    return "ok";
}

LegalOutput parseLegalOutput(std::string_view s)
{
    LegalOutput out;
    const std::vector<Tag> tags = findTags(s);
    const Block r = locate(tags, 0, s.size()), a = locate(tags, 1, s.size()), c = locate(tags, 2, s.size());
    out.reasoning = toLegalBlock(r);
    out.answer = toLegalBlock(a);
    out.citation = toLegalBlock(c);
    if (r.open)
        out.reasoningText = text::trimmed(s.substr(out.reasoning.inner.begin, out.reasoning.inner.end - out.reasoning.inner.begin));
    if (a.open)
        out.answerText = text::trimmed(s.substr(out.answer.inner.begin, out.answer.inner.end - out.answer.inner.begin));

    // Codes of the citation block, and whether its content is well-formed (rule 8).
    std::optional<LegalFormat> citationProblem;
    ByteSpan citationProblemAt;
    auto citationFails = [&](LegalFormat f, ByteSpan at) {
        if (!citationProblem) {
            citationProblem = f;
            citationProblemAt = at;
        }
    };
    if (c.open) {
        const size_t begin = c.open->end, end = c.innerEnd;
        size_t pos = begin;
        const Tag *pendingOpen = nullptr;
        for (const Tag &t : tags) {
            if (t.begin < begin || t.end > end)
                continue;
            if (t.type != kCodeOpen && t.type != kCodeClose) {
                citationFails(LegalFormat::MalformedCitation, {t.begin, t.end});
                continue;
            }
            if (t.type == kCodeOpen) {
                if (pendingOpen)
                    citationFails(LegalFormat::MalformedCitation, {t.begin, t.end});
                else if (!onlyWhiteSpace(s.substr(pos, t.begin - pos)))
                    citationFails(LegalFormat::MalformedCitation, {pos, t.begin});
                pendingOpen = &t;
                continue;
            }
            // A closing tag.
            if (!pendingOpen) {
                citationFails(LegalFormat::MalformedCitation, {t.begin, t.end});
                pos = t.end;
                continue;
            }
            const ByteSpan element{pendingOpen->begin, t.end};
            if (const auto code = integerCode(s.substr(pendingOpen->end, t.begin - pendingOpen->end))) {
                const bool repeat =
                    std::find(out.citedCodes.begin(), out.citedCodes.end(), *code) != out.citedCodes.end();
                out.citations.push_back({*code, element, repeat});
                if (repeat)
                    ++out.duplicateCitations;
                else
                    out.citedCodes.push_back(*code);
            } else {
                out.invalidCodes.push_back(element);
                citationFails(LegalFormat::NonIntegerCode, element);
            }
            pendingOpen = nullptr;
            pos = t.end;
        }
        if (pendingOpen)
            citationFails(LegalFormat::MalformedCitation, {pendingOpen->begin, pendingOpen->end});
        else if (!onlyWhiteSpace(s.substr(pos, end - pos)))
            citationFails(LegalFormat::MalformedCitation, {pos, end});
    }

    auto fail = [&](LegalFormat f, ByteSpan at) {
        out.format = f;
        out.problem = at;
        return out;
    };

    // 1. Missing blocks.
    size_t count[kTagTypes] = {};
    const Tag *second[kTagTypes] = {};
    for (const Tag &t : tags)
        if (++count[t.type] == 2)
            second[t.type] = &t;
    const LegalFormat missing[3] = {LegalFormat::MissingReasoning, LegalFormat::MissingAnswer,
                                    LegalFormat::MissingCitation};
    for (int b = 0; b < 3; ++b)
        if (count[2 * b] == 0 || count[2 * b + 1] == 0)
            return fail(missing[b], {s.size(), s.size()});
    // 2. Duplicates.
    for (int t = 0; t < kCodeOpen; ++t)
        if (count[t] > 1)
            return fail(LegalFormat::DuplicateTag, {second[t]->begin, second[t]->end});
    // Each block tag occurs once now: its open and close.
    const Tag *open[3], *close[3];
    for (const Tag &t : tags)
        if (t.type < kCodeOpen)
            (t.type % 2 == 0 ? open : close)[t.type / 2] = &t;
    // 3. A closing tag before its opening tag.
    for (int b = 0; b < 3; ++b)
        if (close[b]->begin < open[b]->begin)
            return fail(LegalFormat::WrongOrder, {close[b]->begin, close[b]->end});
    // 4. A block starting inside another.
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 3; ++y)
            if (x != y && open[y]->begin > open[x]->begin && open[y]->begin < close[x]->begin)
                return fail(LegalFormat::NestedTag, {open[y]->begin, open[y]->end});
    // 5. Order.
    if (!(close[0]->end <= open[1]->begin && close[1]->end <= open[2]->begin))
        return fail(LegalFormat::WrongOrder, {open[0]->begin, close[2]->end});
    // 6. <law_code> outside the citation.
    for (const Tag &t : tags)
        if ((t.type == kCodeOpen || t.type == kCodeClose) && (t.begin < open[2]->end || t.end > close[2]->begin))
            return fail(LegalFormat::NestedTag, {t.begin, t.end});
    // 7. Text outside the blocks.
    const ByteSpan gaps[4] = {{0, open[0]->begin},
                              {close[0]->end, open[1]->begin},
                              {close[1]->end, open[2]->begin},
                              {close[2]->end, s.size()}};
    for (const ByteSpan &g : gaps)
        if (!onlyWhiteSpace(s.substr(g.begin, g.end - g.begin)))
            return fail(LegalFormat::TextOutsideBlocks, g);
    // 8. The citation's content.
    if (citationProblem)
        return fail(*citationProblem, citationProblemAt);
    return out;
}

} // namespace rwb::eval
