#include "tasks/extraction/companyname.h"

#include "text/utf8.h"

#include <cctype>

namespace rwb::data {

namespace {

std::string glyphFor(const std::string &abbrev, AbbrevGlyph glyph)
{
    if (glyph == AbbrevGlyph::Circled) {
        // U+3231 ㈱ and U+3232 ㈲ exist; 合 has no parenthesized ideograph.
        if (abbrev == "株")
            return "㈱";
        if (abbrev == "有")
            return "㈲";
        glyph = AbbrevGlyph::Paren;
    }
    return glyph == AbbrevGlyph::Paren ? "(" + abbrev + ")" : "（" + abbrev + "）";
}

// Markers may be set off by a space only where people do so: in front of or after a
// business name, and in front of the names of schools, hospitals and associations.
bool spaceAllowed(const CompanyName &n)
{
    switch (n.kind) {
    case OrgKind::Business:
    case OrgKind::Medical:
    case OrgKind::School:
    case OrgKind::University:
    case OrgKind::Association:
    case OrgKind::Foundation:
        return true;
    default:
        return false;
    }
}

std::string spaceString(const CompanyName &n, MarkerSpace space)
{
    if (!spaceAllowed(n))
        return {};
    switch (space) {
    case MarkerSpace::None:
        return {};
    case MarkerSpace::Half:
        return " ";
    case MarkerSpace::Ideographic:
        return "　";
    }
    return {};
}

std::string lowerAlnum(const std::string &s)
{
    std::string out;
    for (unsigned char c : s)
        if (std::isalnum(c))
            out.push_back(static_cast<char>(std::tolower(c)));
    return out;
}

std::string join(const std::string &marker, const std::string &core, bool after, const std::string &space)
{
    return after ? core + space + marker : marker + space + core;
}

} // namespace

std::string toFullWidthAscii(const std::string &text)
{
    std::u32string cps = text::decodeUtf8(text);
    for (char32_t &c : cps)
        if ((c >= U'0' && c <= U'9') || (c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z'))
            c = c - 0x21 + 0xFF01;
    return text::encodeUtf8(cps);
}

NameForm CompanyName::mostDetailedForm() const
{
    return marker.empty() ? NameForm::Short : NameForm::Full;
}

bool CompanyName::hasForm(NameForm form) const
{
    switch (form) {
    case NameForm::Short:
        return !alwaysFull;
    case NameForm::Abbreviated:
        return !marker.empty() && !abbrev.empty();
    case NameForm::Full:
        return true;
    }
    return false;
}

std::string CompanyName::core(const NameStyle &style) const
{
    return (style.fullWidthLatin ? toFullWidthAscii(stem) : stem) + industry;
}

std::string CompanyName::render(NameForm form, const NameStyle &style) const
{
    const std::string space = spaceString(*this, style.space);
    if (form == NameForm::Short && !alwaysFull) {
        if (!shortAlias.empty())
            return (style.fullWidthLatin ? toFullWidthAscii(stem) : stem) + shortAlias;
        return core(style);
    }
    if (form == NameForm::Abbreviated && hasForm(NameForm::Abbreviated))
        return join(glyphFor(abbrev, style.glyph), core(style), markerAfter, space);
    if (marker.empty())
        return core(style);
    return join(marker, core(style), markerAfter, space);
}

std::string CompanyName::englishName() const
{
    if (englishSuffix.empty())
        return {};
    std::string out = stemEnglish;
    if (!industryEnglish.empty())
        out += " " + industryEnglish;
    return out + " " + englishSuffix;
}

std::vector<CompanyName::DomainLabel> CompanyName::domainLabels() const
{
    const std::string &r = stemRomaji;
    std::vector<DomainLabel> out;
    switch (kind) {
    case OrgKind::Business:
    case OrgKind::Professional: {
        out.push_back({r, 30});
        if (!industryRomaji.empty()) {
            out.push_back({r + "-" + industryRomaji, 20});
            out.push_back({r + industryRomaji, 8});
        }
        if (!industryAbbr.empty())
            out.push_back({r + "-" + industryAbbr, 12});
        const std::string acronym = stemInitials + industryInitials;
        if (acronym.size() >= 2 && acronym != r)
            out.push_back({acronym, 15});
        const std::string en = lowerAlnum(stemEnglish);
        if (!industryEnglish.empty() && !en.empty())
            out.push_back({en + "-" + lowerAlnum(industryEnglish), 8});
        else if (!en.empty() && en != r)
            out.push_back({en, 8});
        break;
    }
    case OrgKind::Medical:
        out = {{r + "kai", 30}, {r + "-med", 20}, {r, 15}};
        break;
    case OrgKind::School:
        out = {{r + "-gakuen", 30}, {r + "gakuen", 15}, {r, 15}};
        break;
    case OrgKind::University:
        out = {{r + "-u", 40}, {r, 15}};
        break;
    case OrgKind::ShinkinBank:
        out = {{r + "-shinkin", 40}, {r + "shinkin", 20}, {stemInitials + "shinkin", 10}};
        break;
    case OrgKind::CreditUnion:
        out = {{r + "-shinkumi", 40}, {r + "shinkumi", 20}};
        break;
    case OrgKind::Association:
        out = {{r + "-kyokai", 30}, {r, 20}};
        break;
    case OrgKind::Foundation:
        out = {{r + "-f", 30}, {r + "-zaidan", 30}};
        break;
    case OrgKind::Audit:
        out = {{r + "-audit", 40}, {stemInitials + "-audit", 20}};
        break;
    case OrgKind::MutualInsurance:
        out = {{r + "-life", 40}, {r + "seimei", 20}};
        break;
    }
    return out;
}

} // namespace rwb::data
