#include "tasks/extraction/emailfailures.h"

#include "tasks/extraction/extraction.h"
#include "text/markers.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <algorithm>

namespace rwb::eval {

namespace {

const std::u32string &unknown32()
{
    static const std::u32string u = text::normalize32(reward::kUnknownAnswer);
    return u;
}

// The normalized name without legal-entity markers. 一般 / 公益 before 社団法人 and
// 財団法人 go with the marker (一般社団法人明宝振興会 → 明宝振興会), which the 19 markers
// alone would leave as 一般明宝振興会.
std::u32string coreOf(const std::u32string &normalized)
{
    std::u32string s = normalized;
    for (std::u32string_view m : {U"一般社団法人", U"公益社団法人", U"一般財団法人", U"公益財団法人"})
        for (size_t p = s.find(m); p != std::u32string::npos; p = s.find(m, p))
            s.erase(p, 2); // the 一般 / 公益; stripMarkers takes the rest
    std::u32string core = text::stripMarkers(s).text;
    return core.empty() ? normalized : core;
}

bool contains(const std::u32string &hay, const std::u32string &needle)
{
    return !needle.empty() && hay.find(needle) != std::u32string::npos;
}

// The normalized form of a text with, for every normalized code point, the index of the
// original code point it came from.
struct MappedText {
    std::u32string norm;
    std::vector<size_t> from;
};

MappedText mapNormalized(std::string_view utf8)
{
    MappedText m;
    const std::u32string cps = text::decodeUtf8(utf8);
    m.norm.reserve(cps.size());
    m.from.reserve(cps.size());
    for (size_t i = 0; i < cps.size(); ++i) {
        const char32_t c = cps[i];
        if (c < 0x80) {
            if (!text::isWhiteSpace(c)) {
                m.norm.push_back(c);
                m.from.push_back(i);
            }
            continue;
        }
        for (char32_t n : text::normalize32(text::encodeUtf8(std::u32string(1, c)))) {
            m.norm.push_back(n);
            m.from.push_back(i);
        }
    }
    return m;
}

std::vector<CodePointRange> findIn(const MappedText &m, const std::u32string &needle)
{
    std::vector<CodePointRange> out;
    if (needle.empty())
        return out;
    for (size_t p = m.norm.find(needle); p != std::u32string::npos; p = m.norm.find(needle, p + needle.size()))
        out.push_back({m.from[p], m.from[p + needle.size() - 1] + 1});
    return out;
}

// ---- the heuristic ----

std::vector<std::u32string> words(const std::u32string &line)
{
    std::vector<std::u32string> out;
    std::u32string cur;
    for (char32_t c : line) {
        if (text::isWhiteSpace(c)) {
            if (!cur.empty())
                out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty())
        out.push_back(std::move(cur));
    return out;
}

bool isMarker(const std::u32string &word)
{
    const std::u32string n = text::normalize32(text::encodeUtf8(word));
    for (const std::u32string &m : text::legalEntityMarkers())
        if (n == m)
            return true;
    return false;
}

bool holdsMarker(const std::u32string &word)
{
    return text::stripMarkers(text::normalize32(text::encodeUtf8(word))).removed.size() > 0;
}

// The first word of a line, a marker standing alone joined with its neighbour.
std::u32string firstName(const std::vector<std::u32string> &w)
{
    if (w.empty())
        return {};
    if (isMarker(w[0]) && w.size() > 1)
        return w[0] + U" " + w[1];
    if (w.size() > 1 && isMarker(w[1]))
        return w[0] + U" " + w[1];
    return w[0];
}

bool endsWith(const std::u32string &s, std::u32string_view tail)
{
    return s.size() >= tail.size() && std::u32string_view(s).substr(s.size() - tail.size()) == tail;
}

bool endsWithHonorific(const std::u32string &line)
{
    for (std::u32string_view h : {U"様", U"御中", U"さん", U"殿", U"各位", U"へ", U"様,", U"様、"})
        if (endsWith(line, h))
            return true;
    return false;
}

bool isGreeting(const std::u32string &line)
{
    for (std::u32string_view g : {U"お世話に", U"お疲れ", U"おつかれ", U"はじめまして", U"初めまして", U"突然",
                                  U"いつも", U"Dear", U"拝啓", U"こんにちは", U"久しぶり"})
        if (line.find(g) != std::u32string::npos)
            return true;
    return false;
}

std::u32string trimmed32(const std::u32string &s)
{
    size_t a = 0, b = s.size();
    while (a < b && text::isWhiteSpace(s[a]))
        ++a;
    while (b > a && text::isWhiteSpace(s[b - 1]))
        --b;
    return s.substr(a, b - a);
}

std::string guessRecipient(std::string_view emailText)
{
    const std::u32string body = text::decodeUtf8(text::nfkc(emailText));
    std::vector<std::u32string> lines;
    size_t start = 0;
    while (start <= body.size()) {
        size_t end = body.find(U'\n', start);
        if (end == std::u32string::npos)
            end = body.size();
        lines.push_back(trimmed32(body.substr(start, end - start)));
        start = end + 1;
    }
    // Leading blank lines, and a subject line (件名：…, 【…】, Subject: …) with the blank
    // lines after it, come before the addressee.
    size_t first = 0;
    const auto skipBlank = [&] {
        while (first < lines.size() && lines[first].empty())
            ++first;
    };
    skipBlank();
    if (first < lines.size() && (lines[first].rfind(U"件名", 0) == 0 || lines[first].rfind(U"【", 0) == 0 ||
                                 lines[first].rfind(U"Subject", 0) == 0)) {
        ++first;
        skipBlank();
    }
    std::vector<std::u32string> block;
    for (size_t i = first; i < lines.size(); ++i) {
        const std::u32string &l = lines[i];
        if (l.empty() || block.size() == 4)
            break;
        if (l.rfind(U"Dear", 0) == 0) {
            // "Dear 浜口様(三伸化学 営業部)," (NFKC turned the brackets to ASCII; the
            // company may hold brackets itself: "((株)ミナモ 資材課)")
            const size_t sama = l.find(U"様(");
            const size_t close = l.rfind(U')');
            if (sama != std::u32string::npos && close != std::u32string::npos && close > sama + 2)
                return text::encodeUtf8(firstName(words(l.substr(sama + 2, close - sama - 2))));
            break;
        }
        if (isGreeting(l))
            break;
        block.push_back(l);
    }
    if (block.empty())
        return {};
    // Only a block with an addressee line (one that ends with an honorific) counts.
    if (std::none_of(block.begin(), block.end(), endsWithHonorific))
        return {};
    if (block.size() >= 2 && !endsWithHonorific(block[0]))
        return text::encodeUtf8(firstName(words(block[0])));
    const std::vector<std::u32string> w = words(block[0]);
    if (w.size() >= 2 && (w.size() >= 3 || endsWith(block[0], U"御中") || holdsMarker(w[0]) || isMarker(w[1])))
        return text::encodeUtf8(firstName(w));
    return {};
}

bool isHiragana(char32_t c)
{
    return c >= 0x3041 && c <= 0x309F;
}

bool isParticle(char32_t c)
{
    return std::u32string_view(U"はがをにでとのもへや").find(c) != std::u32string_view::npos;
}

bool isNameChar(char32_t c)
{
    return (c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z') ||
           (c >= 0x30A0 && c <= 0x30FF) || // katakana, ー, ・
           (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || c == U'&' || c == U'々';
}

// Company-like spans: a marker plus the run of name characters after it (or before it).
std::vector<std::string> companyLikeSpans(std::string_view utf8)
{
    const std::u32string t = text::decodeUtf8(text::nfkc(utf8));
    std::vector<std::string> out;
    const auto &markers = text::legalEntityMarkers();
    for (size_t i = 0; i < t.size();) {
        size_t len = 0;
        for (const std::u32string &m : markers)
            if (t.compare(i, m.size(), m) == 0) {
                len = m.size();
                break;
            }
        if (len == 0) {
            ++i;
            continue;
        }
        // After: 株式会社ミハル包装 (one space allowed right after the marker).
        size_t a = i + len;
        if (a < t.size() && text::isWhiteSpace(t[a]) && t[a] != U'\n')
            ++a;
        // A hiragana stem may come first (株式会社こがね運輸); hiragana after other
        // characters is a particle (…運輸の).
        size_t e = a;
        while (e < t.size() && isHiragana(t[e]))
            ++e;
        while (e < t.size() && isNameChar(t[e]))
            ++e;
        // Before: 弘栄電子株式会社 (one space allowed right before the marker).
        size_t b = i;
        if (b > 0 && text::isWhiteSpace(t[b - 1]) && t[b - 1] != U'\n')
            --b;
        size_t s = b;
        while (s > 0 && isNameChar(t[s - 1]))
            --s;
        // A hiragana stem before the rest of the name (ひなた商事株式会社), up to a particle
        // that follows a word (配送業務は|ひなた商事), at most 6 characters; never hiragana
        // alone (…である株式会社).
        if (s < b) {
            size_t h = s;
            while (h > 0 && isHiragana(t[h - 1]) && s - h < 7 &&
                   !(isParticle(t[h - 1]) && h >= 2 && isNameChar(t[h - 2])))
                --h;
            if (s - h <= 6 && (h == 0 || !isHiragana(t[h - 1]) || isParticle(t[h - 1])))
                s = h;
        }
        std::u32string span;
        if (s < b)
            span = t.substr(s, i + len - s);
        else if (e > a)
            span = t.substr(i, e - i);
        if (!span.empty())
            out.push_back(text::encodeUtf8(trimmed32(span)));
        i += len;
    }
    return out;
}

} // namespace

const char *categoryKey(FailureCategory c)
{
    switch (c) {
    case FailureCategory::Exact: return "exact";
    case FailureCategory::NoAnswer: return "no_answer";
    case FailureCategory::Missed: return "missed";
    case FailureCategory::MarkerOnly: return "marker_only";
    case FailureCategory::NamedWhereUnknown: return "named_where_unknown";
    case FailureCategory::Recipient: return "recipient";
    case FailureCategory::ThirdParty: return "third_party";
    case FailureCategory::Invented: return "invented";
    case FailureCategory::OtherWrong: return "other_wrong";
    }
    return "other_wrong";
}

const char *sourceKey(PredictionSource s)
{
    switch (s) {
    case PredictionSource::None: return "none";
    case PredictionSource::Gold: return "gold";
    case PredictionSource::Recipient: return "recipient";
    case PredictionSource::ThirdParty: return "third_party";
    case PredictionSource::InText: return "in_text";
    case PredictionSource::NotInText: return "not_in_text";
    }
    return "none";
}

EmailParties guessParties(std::string_view senderEmail, std::string_view emailText, std::string_view gold)
{
    EmailParties p;
    p.recipient = guessRecipient(emailText);
    const std::u32string goldNorm = text::normalize32(gold);
    const bool goldUnknown = goldNorm == unknown32() || goldNorm.empty();
    std::vector<std::u32string> seen;
    for (std::string_view part : {senderEmail, emailText}) {
        for (const std::string &span : companyLikeSpans(part)) {
            if (!goldUnknown && namesCompany(span, gold))
                continue;
            if (!p.recipient.empty() && namesCompany(span, p.recipient))
                continue;
            const std::u32string c = coreOf(text::normalize32(span));
            if (std::find(seen.begin(), seen.end(), c) != seen.end())
                continue;
            seen.push_back(c);
            p.others.push_back(span);
        }
    }
    return p;
}

EmailParties partiesOf(const data::ExtractionRecord &r)
{
    if (!r.partiesKnown)
        return guessParties(r.senderEmail, r.emailText, r.gold);
    EmailParties p;
    p.fromData = true;
    p.recipient = r.recipientCompany;
    p.others = r.otherCompanies;
    return p;
}

namespace {

// Two names without their markers name the same company: equal, or one holds the other
// (at least 2 code points).
bool coresMatch(const std::u32string &a, const std::u32string &b)
{
    if (a.empty() || b.empty())
        return false;
    if (a == b)
        return true;
    const std::u32string &shorter = a.size() < b.size() ? a : b;
    const std::u32string &longer = a.size() < b.size() ? b : a;
    return shorter.size() >= 2 && longer.find(shorter) != std::u32string::npos;
}

} // namespace

bool namesCompany(std::string_view prediction, std::string_view company)
{
    return coresMatch(coreOf(text::normalize32(prediction)), coreOf(text::normalize32(company)));
}

namespace {

// categorize() with the e-mail's normalized gold and source computed once for all its
// predictions.
struct PreparedEmail {
    std::u32string gold;
    std::u32string source;
};

PreparedEmail prepare(const data::ExtractionRecord &r)
{
    return {text::normalize32(r.gold), text::normalize32(r.senderEmail + "\n" + r.emailText)};
}

FailureCase categorizePrepared(const PreparedEmail &e, std::string_view answer, const EmailParties &parties);

} // namespace

FailureCase categorize(const data::ExtractionRecord &r, std::string_view answer, const EmailParties &parties)
{
    return categorizePrepared(prepare(r), answer, parties);
}

FailureCase categorize(const reward::ExtractionPrompt &email, std::string_view answer, const EmailParties &parties)
{
    return categorizePrepared({email.goldNormalized(), email.sourceNormalized()}, answer, parties);
}

namespace {

FailureCase categorizePrepared(const PreparedEmail &e, std::string_view answer, const EmailParties &parties)
{
    FailureCase f;
    const std::u32string pred = text::normalize32(answer);
    const std::u32string &gold = e.gold;
    const bool predUnknown = pred == unknown32();
    const bool goldUnknown = gold == unknown32();
    const std::u32string &source = e.source;
    const std::u32string predCore = coreOf(pred);

    const bool named = !pred.empty() && !predUnknown;
    const bool namesGold = named && !goldUnknown && coresMatch(predCore, coreOf(gold));
    const bool namesRecipient = named && coresMatch(predCore, coreOf(text::normalize32(parties.recipient)));
    const bool namesThird = named && std::any_of(parties.others.begin(), parties.others.end(), [&](const std::string &o) {
                                return coresMatch(predCore, coreOf(text::normalize32(o)));
                            });
    if (named) {
        if (namesGold)
            f.source = PredictionSource::Gold;
        else if (namesRecipient)
            f.source = PredictionSource::Recipient;
        else if (namesThird)
            f.source = PredictionSource::ThirdParty;
        else if (contains(source, pred) || contains(source, predCore))
            f.source = PredictionSource::InText;
        else
            f.source = PredictionSource::NotInText;
    }

    // A partial overlap with the gold that also names the recipient or a third party is
    // listed under them.
    if (pred == gold)
        f.category = FailureCategory::Exact;
    else if (pred.empty())
        f.category = FailureCategory::NoAnswer;
    else if (predUnknown)
        f.category = FailureCategory::Missed;
    else if (!goldUnknown && predCore == coreOf(gold))
        f.category = FailureCategory::MarkerOnly;
    else if (goldUnknown)
        f.category = FailureCategory::NamedWhereUnknown;
    else if (namesRecipient)
        f.category = FailureCategory::Recipient;
    else if (namesThird)
        f.category = FailureCategory::ThirdParty;
    else if (f.source == PredictionSource::NotInText)
        f.category = FailureCategory::Invented;
    else
        f.category = FailureCategory::OtherWrong;
    return f;
}

} // namespace

std::vector<CodePointRange> findNormalized(std::string_view text, std::string_view needle)
{
    return findIn(mapNormalized(text), text::normalize32(needle));
}

std::vector<HighlightSpan> highlightSpans(const data::ExtractionRecord &r, const EmailParties &parties,
                                          std::string_view answer, std::string_view compared)
{
    const MappedText fields[2] = {mapNormalized(r.senderEmail), mapNormalized(r.emailText)};
    std::vector<HighlightSpan> out;
    // The normalized name where it occurs; else (for names of two or more code points)
    // its core.
    const auto add = [&](SpanRole role, std::string_view name) {
        const std::u32string n = text::normalize32(name);
        if (n.empty() || n == unknown32())
            return;
        const std::u32string core = coreOf(n);
        for (int f = 0; f < 2; ++f) {
            std::vector<CodePointRange> found = findIn(fields[f], n);
            if (found.empty() && core.size() >= 2)
                found = findIn(fields[f], core);
            for (const CodePointRange &range : found)
                out.push_back({role, f == 0 ? SpanField::Sender : SpanField::Body, range});
        }
    };
    add(SpanRole::Gold, r.gold);
    add(SpanRole::Recipient, parties.recipient);
    for (const std::string &o : parties.others)
        add(SpanRole::ThirdParty, o);
    add(SpanRole::Prediction, answer);
    if (!compared.empty())
        add(SpanRole::ComparedPrediction, compared);
    return out;
}

} // namespace rwb::eval
