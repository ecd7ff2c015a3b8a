#include "tasks/extraction/companyrewards.h"

#include "tasks/extraction/extraction.h"
#include "text/romanize.h"
#include "text/utf8.h"

#include <cstdio>

namespace rwb::reward {

namespace {

std::vector<std::string> toUtf8(const std::vector<std::u32string> &v)
{
    std::vector<std::string> out;
    out.reserve(v.size());
    for (const auto &s : v)
        out.push_back(text::encodeUtf8(s));
    return out;
}

std::string fmt(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// Fills the comparison fields shared by partial and marker.
void explainComparison(Explanation &e, std::u32string_view a, std::u32string_view g)
{
    e.answer = text::encodeUtf8(a);
    e.gold = text::encodeUtf8(g);
    e.value = partialRatio(a, g, &e.answerSpan, &e.goldSpan);
    if (a.empty() && g.empty()) {
        e.reason = Reason::BothEmpty;
        e.detail = "both empty";
    } else if (a.empty() || g.empty()) {
        e.reason = Reason::OneEmpty;
        e.detail = a.empty() ? "the answer is empty" : "the gold is empty";
    } else {
        e.reason = Reason::Compared;
        e.detail = "LCS " + std::to_string(e.answerSpan.length) + " of " + std::to_string(a.size()) + " + " +
                   std::to_string(g.size()) + " code points";
    }
}

} // namespace

// ---- partial

double PartialReward::score(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    return partialRatio(a.normalized(), p.goldNormalized());
}

Explanation PartialReward::explain(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    Explanation e;
    e.reward = std::string(name());
    explainComparison(e, a.normalized(), p.goldNormalized());
    return e;
}

// ---- marker

double MarkerReward::score(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    const std::u32string &sa = a.stripped().text;
    const std::u32string &sg = p.goldStripped().text;
    if (sa.empty() && sg.empty())
        return partialRatio(a.normalized(), p.goldNormalized());
    return partialRatio(sa, sg);
}

Explanation MarkerReward::explain(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    Explanation e;
    e.reward = std::string(name());
    e.markersRemovedFromAnswer = toUtf8(a.stripped().removed);
    e.markersRemovedFromGold = toUtf8(p.goldStripped().removed);
    const std::u32string &sa = a.stripped().text;
    const std::u32string &sg = p.goldStripped().text;
    if (sa.empty() && sg.empty()) {
        explainComparison(e, a.normalized(), p.goldNormalized());
        if (!a.normalized().empty() || !p.goldNormalized().empty()) {
            e.reason = Reason::MarkersOnly;
            e.detail = "both are only markers; compared unstripped: " + e.detail;
        }
        return e;
    }
    explainComparison(e, sa, sg);
    return e;
}

// ---- exist

double ExistReward::score(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    if (p.goldUnknown() && a.isUnknown())
        return 1.0;
    if (a.normalized().empty())
        return 0.0;
    return p.sourceNormalized().find(a.normalized()) != std::u32string::npos ? 1.0 : 0.0;
}

Explanation ExistReward::explain(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    Explanation e;
    e.reward = std::string(name());
    e.answer = text::encodeUtf8(a.normalized());
    e.gold = text::encodeUtf8(p.goldNormalized());
    if (p.goldUnknown() && a.isUnknown()) {
        e.value = 1.0;
        e.reason = Reason::BothUnknown;
        e.detail = "gold and answer are both 不明";
    } else if (a.normalized().empty()) {
        e.reason = Reason::EmptyAnswer;
        e.detail = "the answer is empty";
    } else {
        e.sourcePosition = p.sourceNormalized().find(a.normalized());
        if (e.sourcePosition != std::u32string::npos) {
            e.value = 1.0;
            e.reason = Reason::FoundInSource;
            e.detail = "found in the e-mail at code point " + std::to_string(e.sourcePosition);
            e.answerSpan = {0, a.normalized().size()};
        } else {
            e.sourcePosition = std::string::npos;
            e.reason = Reason::NotInSource;
            e.detail = "not in the sender header or the e-mail body";
        }
    }
    return e;
}

// ---- format

double FormatReward::score(const ExtractionPrompt &, const ExtractionAnswer &a) const
{
    return checkThinkingFormat(a.completion()) == FormatCheck::Ok ? 1.0 : 0.0;
}

Explanation FormatReward::explain(const ExtractionPrompt &, const ExtractionAnswer &a) const
{
    Explanation e;
    e.reward = std::string(name());
    const FormatCheck check = checkThinkingFormat(a.completion());
    e.formatCheck = static_cast<int>(check);
    e.value = check == FormatCheck::Ok ? 1.0 : 0.0;
    e.reason = check == FormatCheck::Ok ? Reason::FormatOk : Reason::FormatBad;
    switch (check) {
    case FormatCheck::Ok: e.detail = "<thinking>…</thinking><answer>…</answer>"; break;
    case FormatCheck::NoThinkingOpen: e.detail = "does not start with <thinking>"; break;
    case FormatCheck::NoThinkingClose: e.detail = "no </thinking>"; break;
    case FormatCheck::NoAnswerOpen: e.detail = "</thinking> is not followed by <answer>"; break;
    case FormatCheck::NoAnswerClose: e.detail = "no </answer>"; break;
    case FormatCheck::TrailingText: e.detail = "text after </answer>"; break;
    case FormatCheck::NestedTag: e.detail = "a tag inside a block"; break;
    }
    return e;
}

// ---- domain

DomainReward::DomainReward(std::shared_ptr<const SynonymTable> synonyms) : m_synonyms(std::move(synonyms)) {}

double DomainReward::score(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    return explain(p, a).value;
}

Explanation DomainReward::explain(const ExtractionPrompt &p, const ExtractionAnswer &a) const
{
    Explanation e;
    e.reward = std::string(name());
    e.answer = text::encodeUtf8(a.normalized());
    e.domain = p.domain().domain;
    if (a.normalized().empty()) {
        e.reason = Reason::EmptyAnswer;
        e.detail = "the answer is empty";
        return e;
    }
    if (a.isUnknown()) {
        e.reason = Reason::UnknownAnswer;
        e.detail = "the answer is 不明";
        return e;
    }
    if (!p.domain().hasAt || p.domain().domain.empty()) {
        e.reason = Reason::NoAddress;
        e.detail = "the sender header has no '@' or nothing between '@' and '.'";
        return e;
    }
    std::vector<std::string> names{text::encodeUtf8(a.stripped().text)};
    if (m_synonyms)
        for (std::string &s : m_synonyms->synonymsOf(a.stripped().text))
            names.push_back(std::move(s));
    const std::u32string domain = text::decodeUtf8(e.domain);
    size_t best = 0;
    for (std::string &name : names) {
        Explanation::Candidate c;
        c.name = std::move(name);
        c.romaji = text::romanize(c.name);
        c.value = partialRatio(text::decodeUtf8(c.romaji), domain, &c.romajiSpan, &c.domainSpan);
        if (c.value > e.value) {
            e.value = c.value;
            best = e.candidates.size();
        }
        e.candidates.push_back(std::move(c));
    }
    e.reason = Reason::BestCandidate;
    e.detail = "best: \"" + e.candidates[best].romaji + "\" (" + e.candidates[best].name + ") vs \"" + e.domain +
               "\" = " + fmt(e.value);
    return e;
}

} // namespace rwb::reward
