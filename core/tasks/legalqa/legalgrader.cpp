#include "tasks/legalqa/legalgrader.h"

#include "text/normalize.h"
#include "text/utf8.h"

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>

namespace rwb::eval {

namespace {

bool isDigit(char32_t c)
{
    return c >= U'0' && c <= U'9';
}

// Combining marks that attach to the character before them (Latin diacritics, the kana
// voicing marks and their half-width forms): normalized together with it.
bool isCombining(char32_t c)
{
    return (c >= 0x0300 && c <= 0x036F) || (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
           (c >= 0x20D0 && c <= 0x20FF) || (c >= 0xFE20 && c <= 0xFE2F) || c == 0x3099 || c == 0x309A ||
           c == 0xFF9E || c == 0xFF9F;
}

// Decodes one code point at s[i]; invalid or truncated sequences are one byte of U+FFFD.
char32_t decodeAt(std::string_view s, size_t i, size_t &len)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    len = 1;
    if (c < 0x80)
        return c;
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size())
        return 0xFFFD;
    char32_t cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80)
            return 0xFFFD;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    const char32_t min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0xFFFD;
    len = n;
    return cp;
}

// A string in comparison form, each code point with the bytes of the source it came from.
struct Folded {
    std::u32string text;
    std::vector<ByteSpan> source;
};

Folded fold(std::string_view s)
{
    Folded f;
    size_t i = 0;
    while (i < s.size()) {
        size_t len = 0;
        decodeAt(s, i, len);
        size_t end = i + len;
        while (end < s.size()) {
            size_t next = 0;
            if (!isCombining(decodeAt(s, end, next)))
                break;
            end += next;
        }
        for (char32_t c : text::normalize32(s.substr(i, end - i))) {
            f.text.push_back(c);
            f.source.push_back({i, end});
        }
        i = end;
    }
    // Commas between digits go; month counters read as か.
    Folded out;
    for (size_t k = 0; k < f.text.size(); ++k) {
        char32_t c = f.text[k];
        const bool afterDigit = !out.text.empty() && isDigit(out.text.back());
        if (c == U',' && afterDigit && k + 1 < f.text.size() && isDigit(f.text[k + 1]))
            continue;
        const bool beforeMonth = k + 1 < f.text.size() && f.text[k + 1] == U'月';
        if (afterDigit && beforeMonth && (c == U'ヶ' || c == U'ヵ' || c == U'カ' || c == U'ケ' || c == U'箇'))
            c = U'か';
        out.text.push_back(c);
        out.source.push_back(f.source[k]);
    }
    return out;
}

std::u32string foldValue(std::string_view value)
{
    return fold(value).text;
}

// A value pattern: literal runs and digit holes ("#日以内", "#分の#").
struct Shape {
    std::vector<std::u32string> parts; // literal parts; an empty part is a hole
};

// The shape of a folded value, when it contains digits.
bool shapeOf(const std::u32string &v, Shape &shape)
{
    bool digits = false;
    std::u32string lit;
    for (size_t i = 0; i < v.size();) {
        if (isDigit(v[i])) {
            digits = true;
            if (!lit.empty())
                shape.parts.push_back(lit);
            lit.clear();
            shape.parts.push_back(U"");
            while (i < v.size() && isDigit(v[i]))
                ++i;
        } else {
            lit.push_back(v[i++]);
        }
    }
    if (!lit.empty())
        shape.parts.push_back(lit);
    return digits;
}

// The end of a match of `shape` at `pos`, or npos.
size_t matchShape(const std::u32string &t, size_t pos, const Shape &shape)
{
    size_t i = pos;
    for (const std::u32string &part : shape.parts) {
        if (part.empty()) {
            const size_t start = i;
            while (i < t.size() && isDigit(t[i]))
                ++i;
            if (i == start)
                return std::u32string::npos;
        } else {
            if (t.compare(i, part.size(), part) != 0)
                return std::u32string::npos;
            i += part.size();
        }
    }
    return i;
}

// Whether a match [b, e) respects digit boundaries.
bool bounded(const std::u32string &t, size_t b, size_t e)
{
    if (e <= b)
        return false;
    if (isDigit(t[b]) && b > 0 && isDigit(t[b - 1]))
        return false;
    if (isDigit(t[e - 1]) && e < t.size() && isDigit(t[e]))
        return false;
    return true;
}

std::vector<size_t> occurrences(const std::u32string &t, const std::u32string &v)
{
    std::vector<size_t> out;
    if (v.empty())
        return out;
    for (size_t p = t.find(v); p != std::u32string::npos; p = t.find(v, p + 1))
        if (bounded(t, p, p + v.size()))
            out.push_back(p);
    return out;
}

struct Mention {
    std::string slot;
    size_t begin, end; // in the folded answer
};

} // namespace

struct LegalReferenceGrader::Impl {
    struct SlotValues {
        std::string slot;
        std::vector<std::u32string> values; // folded
        std::vector<Shape> shapes;          // distinct shapes of the numeric values
    };
    std::vector<SlotValues> slots;
};

LegalReferenceGrader::LegalReferenceGrader(const data::SlotUniverse &universe)
{
    auto impl = std::make_unique<Impl>();
    for (const auto &[slot, values] : universe) {
        Impl::SlotValues sv;
        sv.slot = slot;
        std::set<std::u32string> seenShapes;
        for (const std::string &v : values) {
            const std::u32string f = foldValue(v);
            if (f.empty())
                continue;
            sv.values.push_back(f);
            Shape shape;
            if (shapeOf(f, shape)) {
                std::u32string key;
                for (const std::u32string &p : shape.parts)
                    key += p.empty() ? U"\x01" : p;
                if (seenShapes.insert(key).second)
                    sv.shapes.push_back(std::move(shape));
            }
        }
        impl->slots.push_back(std::move(sv));
    }
    m_impl = std::move(impl);
}

LegalReferenceGrader::~LegalReferenceGrader() = default;

LegalGrade LegalReferenceGrader::grade(std::string_view answer, const std::vector<data::LegalFact> &reference) const
{
    const Folded a = fold(answer);
    const std::u32string &t = a.text;
    auto bytes = [&](size_t b, size_t e) { return ByteSpan{a.source[b].begin, a.source[e - 1].end}; };

    // Every mention of every value of every slot, and of every reference value.
    std::vector<Mention> mentions;
    for (const Impl::SlotValues &sv : m_impl->slots) {
        for (const std::u32string &v : sv.values)
            for (size_t p : occurrences(t, v))
                mentions.push_back({sv.slot, p, p + v.size()});
        for (const Shape &shape : sv.shapes)
            for (size_t p = 0; p < t.size(); ++p) {
                const size_t e = matchShape(t, p, shape);
                if (e != std::u32string::npos && bounded(t, p, e))
                    mentions.push_back({sv.slot, p, e});
            }
    }
    std::set<std::u32string> referenceValues;
    std::set<std::string> referenceSlots;
    std::vector<std::vector<size_t>> factOccurrences;
    for (const data::LegalFact &f : reference) {
        const std::u32string v = foldValue(f.value);
        referenceValues.insert(v);
        referenceSlots.insert(f.slot);
        factOccurrences.push_back(occurrences(t, v));
        for (size_t p : factOccurrences.back())
            mentions.push_back({f.slot, p, p + v.size()});
    }

    // Contradictions: mentions of a reference slot's value that is no reference value and
    // does not lie inside a longer mention.
    LegalGrade g;
    std::set<std::tuple<std::string, size_t, size_t>> seen;
    for (const Mention &m : mentions) {
        if (!referenceSlots.count(m.slot))
            continue;
        const std::u32string found = t.substr(m.begin, m.end - m.begin);
        if (referenceValues.count(found))
            continue;
        const bool inside = std::any_of(mentions.begin(), mentions.end(), [&](const Mention &o) {
            return o.begin <= m.begin && o.end >= m.end && o.end - o.begin > m.end - m.begin;
        });
        if (inside || !seen.insert({m.slot, m.begin, m.end}).second)
            continue;
        g.contradictions.push_back({m.slot, text::encodeUtf8(found), bytes(m.begin, m.end)});
    }
    std::sort(g.contradictions.begin(), g.contradictions.end(), [](const ValueMention &x, const ValueMention &y) {
        return x.span.begin != y.span.begin ? x.span.begin < y.span.begin : x.slot < y.slot;
    });

    for (size_t i = 0; i < reference.size(); ++i) {
        FactGrade fg;
        fg.fact = reference[i];
        const std::u32string v = foldValue(reference[i].value);
        if (!factOccurrences[i].empty()) {
            fg.stated = true;
            fg.span = bytes(factOccurrences[i][0], factOccurrences[i][0] + v.size());
            ++g.stated;
        }
        for (const ValueMention &c : g.contradictions)
            if (c.slot == reference[i].slot)
                fg.contradictions.push_back(c);
        fg.verdict = !fg.contradictions.empty() ? FactVerdict::Contradicted
                     : fg.stated                ? FactVerdict::Stated
                                                : FactVerdict::Missing;
        g.facts.push_back(std::move(fg));
    }
    g.coverage = reference.empty() || g.stated == reference.size() ? 1.0 : g.stated == 0 ? 0.0 : 0.5;
    g.consistency = g.contradictions.empty() ? 1.0 : 0.0;
    return g;
}

std::string comparisonForm(std::string_view text)
{
    return text::encodeUtf8(foldValue(text));
}

double legalJointScore(double citationF1, double coverage, double consistency)
{
    return (citationF1 + coverage + consistency) / 3.0;
}

} // namespace rwb::eval
