#include "tasks/multihop/multihopformat.h"

#include "text/normalize.h"
#include "text/utf8.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace rwb::task {

namespace {

bool isPunctuation(char32_t c)
{
    if (c < 0x80)
        return std::ispunct(static_cast<int>(c)) != 0;
    if (c >= 0x3000 && c <= 0x303F)
        return c < 0x3005 || c > 0x3007; // 々 〆 〇 are letters
    return c == 0x30FB /* ・ */ || c == 0x2018 || c == 0x2019 || c == 0x201C || c == 0x201D || c == 0x2026 /* … */;
}

// The tag at `at` ("<step>" or "</step>"), or "" when there is none.
struct Tag {
    std::string name;
    bool closing = false;
    size_t length = 0;
};

Tag tagAt(std::string_view text, size_t at)
{
    if (at >= text.size() || text[at] != '<')
        return {};
    const bool closing = at + 1 < text.size() && text[at + 1] == '/';
    const size_t nameStart = at + (closing ? 2 : 1);
    const size_t end = text.find('>', nameStart);
    if (end == std::string_view::npos)
        return {};
    const std::string_view name = text.substr(nameStart, end - nameStart);
    for (const char *t : kStepTags)
        if (name == t)
            return {std::string(name), closing, end + 1 - at};
    return {};
}

std::string excerptAt(std::string_view text, size_t at)
{
    if (at >= text.size())
        return "the end of the text";
    std::string s(text.substr(at, 24));
    // Not in the middle of a UTF-8 sequence.
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80)
        s.pop_back();
    if (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0xC0)
        s.pop_back();
    return "\"" + s + (at + 24 < text.size() ? "…\"" : "\"");
}

} // namespace

Trajectory parseTrajectory(std::string_view text)
{
    Trajectory t;
    size_t at = 0;
    const auto skipSpace = [&] {
        while (at < text.size() && text::isAsciiSpace(text[at]))
            ++at;
    };
    const auto fail = [&](const std::string &expected) {
        t.wellFormed = false;
        t.problem = "expected " + expected + " at byte " + std::to_string(at) + ", found " + excerptAt(text, at);
        // An <answer> anywhere still counts as the answer (the metrics read it).
        if (!t.answer) {
            const size_t open = text.find("<answer>");
            if (open != std::string_view::npos) {
                const size_t from = open + 8;
                const size_t close = text.find("</answer>", from);
                t.answer = text::trimmed(text.substr(from, close == std::string_view::npos ? text.size() - from
                                                                                           : close - from));
            }
        }
        return t;
    };
    // Reads <name>…</name> at `at` into `out`; false (nothing consumed) when it is not there.
    std::string problemTag;
    const auto block = [&](const char *name, std::string &out) -> bool {
        skipSpace();
        const Tag open = tagAt(text, at);
        if (open.name != name || open.closing)
            return false;
        const size_t from = at + open.length;
        const std::string close = std::string("</") + name + ">";
        const size_t end = text.find(close, from);
        if (end == std::string_view::npos) {
            problemTag = close;
            at = text.size();
            return false;
        }
        // No other control tag inside a block.
        for (size_t i = text.find('<', from); i != std::string_view::npos && i < end; i = text.find('<', i + 1))
            if (!tagAt(text, i).name.empty()) {
                problemTag = close;
                at = i;
                return false;
            }
        out = text::trimmed(text.substr(from, end - from));
        at = end + close.size();
        return true;
    };
    for (;;) {
        std::string step;
        if (!block("step", step))
            return fail(problemTag.empty() ? "<step>" : problemTag);
        std::string answer;
        if (block("answer", answer)) {
            t.finalStep = std::move(step);
            t.answer = std::move(answer);
            skipSpace();
            if (at != text.size())
                return fail("nothing after </answer>");
            t.wellFormed = true;
            return t;
        }
        if (!problemTag.empty())
            return fail(problemTag);
        TrajectoryHop hop;
        hop.step = std::move(step);
        if (!block("subquery", hop.subquery))
            return fail(problemTag.empty() ? "<subquery> or <answer>" : problemTag);
        if (!block("retrieval", hop.retrieval))
            return fail(problemTag.empty() ? "<retrieval>" : problemTag);
        if (!block("subanswer", hop.subanswer))
            return fail(problemTag.empty() ? "<subanswer>" : problemTag);
        t.hops.push_back(std::move(hop));
    }
}

std::u32string answerForm(std::string_view text)
{
    std::u32string out;
    for (char32_t c : text::decodeUtf8(text::nfkc(text))) {
        if (text::isWhiteSpace(c) || isPunctuation(c))
            continue;
        out.push_back(c < 0x80 ? static_cast<char32_t>(std::tolower(static_cast<int>(c))) : c);
    }
    return out;
}

double exactMatch(std::string_view prediction, std::string_view gold)
{
    return answerForm(prediction) == answerForm(gold) ? 1.0 : 0.0;
}

std::vector<std::u32string> answerTokens(std::string_view text)
{
    std::vector<std::u32string> out;
    std::u32string run; // letters and digits of ASCII
    const auto flush = [&] {
        if (!run.empty())
            out.push_back(std::move(run));
        run.clear();
    };
    for (char32_t c : text::decodeUtf8(text::nfkc(text))) {
        if (c < 0x80 && std::isalnum(static_cast<int>(c))) {
            run.push_back(static_cast<char32_t>(std::tolower(static_cast<int>(c))));
            continue;
        }
        flush();
        if (text::isWhiteSpace(c) || isPunctuation(c))
            continue;
        out.push_back(std::u32string(1, c));
    }
    flush();
    return out;
}

AnswerOverlap answerOverlap(std::string_view prediction, std::string_view gold)
{
    const std::vector<std::u32string> p = answerTokens(prediction), g = answerTokens(gold);
    AnswerOverlap o;
    if (p.empty() && g.empty()) {
        o.f1 = 1.0;
        return o;
    }
    if (p.empty() || g.empty())
        return o;
    std::map<std::u32string, int> counts;
    for (const std::u32string &t : g)
        ++counts[t];
    int overlap = 0;
    for (const std::u32string &c : p) {
        auto it = counts.find(c);
        if (it != counts.end() && it->second > 0) {
            --it->second;
            ++overlap;
        }
    }
    if (overlap == 0)
        return o;
    o.precision = static_cast<double>(overlap) / static_cast<double>(p.size());
    o.recall = static_cast<double>(overlap) / static_cast<double>(g.size());
    o.f1 = 2.0 * o.precision * o.recall / (o.precision + o.recall);
    return o;
}

double answerF1(std::string_view prediction, std::string_view gold)
{
    return answerOverlap(prediction, gold).f1;
}

std::vector<std::string> stepBlocks(std::string_view text)
{
    std::vector<std::string> blocks;
    size_t from = 0;
    while (from < text.size()) {
        const size_t sub = text.find("</subanswer>", from), ans = text.find("</answer>", from);
        const size_t end = std::min(sub == std::string_view::npos ? text.size() : sub + 12,
                                    ans == std::string_view::npos ? text.size() : ans + 9);
        const std::string_view block = text.substr(from, end - from);
        if (block.find_first_not_of(" \t\r\n") != std::string_view::npos)
            blocks.emplace_back(block);
        from = end;
    }
    return blocks;
}

} // namespace rwb::task
