#include "tasks/extraction/emailstats.h"

#include "tasks/extraction/goldrule.h"
#include "text/markers.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <algorithm>

namespace rwb::data {

namespace {

bool contains(std::string_view s, std::string_view what)
{
    return s.find(what) != std::string_view::npos;
}

bool startsWith(std::string_view s, std::string_view what)
{
    return s.substr(0, what.size()) == what;
}

EmailStatsSummary::Quantiles quantiles(std::vector<size_t> v)
{
    EmailStatsSummary::Quantiles q;
    if (v.empty())
        return q;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    auto rank = [&](size_t percent) { return v[std::max<size_t>(1, (percent * n + 99) / 100) - 1]; };
    q.min = v.front();
    q.max = v.back();
    q.median = rank(50);
    q.p90 = rank(90);
    double sum = 0;
    for (size_t x : v)
        sum += static_cast<double>(x);
    q.mean = sum / static_cast<double>(n);
    return q;
}

} // namespace

EmailFeatures detectEmailFeatures(std::string_view senderHeader, std::string_view emailText)
{
    EmailFeatures f;
    const std::string all = std::string(senderHeader) + "\n" + std::string(emailText);
    f.circledKabu = contains(all, "㈱") || contains(all, "㈲");
    f.parenKabu = contains(all, "(株)") || contains(all, "（株）");
    f.abbreviatedMarker = f.circledKabu || f.parenKabu;
    for (const char *m : {"(有)", "（有）", "(合)", "（合）"})
        f.abbreviatedMarker = f.abbreviatedMarker || contains(all, m);
    for (const char *s : {"Co., Ltd.", "Inc.", "Corporation", "K.K.", "LLC"})
        f.englishName = f.englishName || contains(all, s);
    for (char32_t c : text::decodeUtf8(all))
        if ((c >= 0xFF10 && c <= 0xFF19) || (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A)) {
            f.fullWidthLatin = true;
            break;
        }
    size_t start = 0;
    while (start <= emailText.size()) {
        size_t end = emailText.find('\n', start);
        if (end == std::string_view::npos)
            end = emailText.size();
        const std::string line = text::trimmed(emailText.substr(start, end - start));
        if (startsWith(line, ">") || startsWith(line, "＞"))
            f.quoted = true;
        if (startsWith(line, "From:") || startsWith(line, "差出人:") || contains(line, "Forwarded message") ||
            contains(line, "Forwarded Message") || contains(line, "Original Message") || contains(line, "転送メッセージ") ||
            contains(line, "元のメッセージ"))
            f.forwarded = true;
        start = end + 1;
    }
    return f;
}

void EmailStats::add(const ExtractionRecord &r)
{
    size_t chars = 0;
    for (unsigned char c : r.emailText)
        if ((c & 0xC0) != 0x80)
            ++chars;
    m_chars.push_back(chars);
    m_lines.push_back(static_cast<size_t>(std::count(r.emailText.begin(), r.emailText.end(), '\n')) + 1);
    const EmailFeatures f = detectEmailFeatures(r.senderEmail, r.emailText);
    m_forwarded += f.forwarded;
    m_quoted += f.quoted;
    m_circled += f.circledKabu;
    m_paren += f.parenKabu;
    m_abbreviated += f.abbreviatedMarker;
    m_fullWidth += f.fullWidthLatin;
    m_english += f.englishName;

    const std::u32string gold = text::normalize32(r.gold);
    if (gold == U"不明") {
        ++m_unknown;
        return;
    }
    const text::StrippedText stripped = text::stripMarkers(gold);
    bool abbreviated = false;
    for (const std::u32string &m : stripped.removed)
        abbreviated = abbreviated || m.front() == U'(';
    if (stripped.removed.empty())
        ++m_goldNone;
    else if (abbreviated)
        ++m_goldAbbreviated;
    else
        ++m_goldFull;
    if (!stripped.removed.empty()) {
        for (const std::u32string &m : text::legalEntityMarkers())
            if (gold.size() > m.size() && gold.compare(gold.size() - m.size(), m.size(), m) == 0) {
                ++m_goldAfter;
                break;
            }
    }
    if (!goldRuleViolation(r.senderEmail, r.emailText, r.gold).empty())
        m_violations.push_back(r.id);
}

EmailStatsSummary EmailStats::summary() const
{
    EmailStatsSummary s;
    s.count = m_chars.size();
    s.unknown = m_unknown;
    s.chars = quantiles(m_chars);
    s.lines = quantiles(m_lines);
    if (s.count) {
        const double n = static_cast<double>(s.count);
        s.forwardedShare = m_forwarded / n;
        s.quotedShare = m_quoted / n;
        s.circledKabuShare = m_circled / n;
        s.parenKabuShare = m_paren / n;
        s.abbreviatedMarkerShare = m_abbreviated / n;
        s.fullWidthLatinShare = m_fullWidth / n;
        s.englishNameShare = m_english / n;
    }
    const size_t known = s.count - s.unknown;
    if (known) {
        const double k = static_cast<double>(known);
        s.goldFullMarkerShare = m_goldFull / k;
        s.goldAbbreviatedMarkerShare = m_goldAbbreviated / k;
        s.goldNoMarkerShare = m_goldNone / k;
        const size_t withMarker = m_goldFull + m_goldAbbreviated;
        s.goldMarkerAfterShare = withMarker ? m_goldAfter / static_cast<double>(withMarker) : 0.0;
    }
    s.goldRuleViolations = m_violations;
    return s;
}

} // namespace rwb::data
