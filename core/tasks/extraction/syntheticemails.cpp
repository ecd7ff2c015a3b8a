#include "tasks/extraction/syntheticemails.h"

#include "tasks/extraction/companycatalog.h"
#include "tasks/extraction/goldrule.h"
#include "tasks/extraction/syntheticphrases.h"
#include "text/normalize.h"
#include "text/placeholders.h"
#include "text/utf8.h"
#include "util/rng.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace rwb::data {

namespace {

using util::Rng;
namespace ph = phrases;

// The answer for "no sender company" (the first paper's 不明).
const char *const kUnknown = "不明";

// A place where the sender's company is named. The generator writes the marker byte
// plus one kind letter while it composes an e-mail, and decides at the end which form
// each place gets (resolveSlots): one place gets the gold form, the others a form no
// more detailed than the gold.
constexpr char kSlot = '\x01';
enum SlotKind : char {
    kHeaderSlot = 'H',    // the display name of the sender header
    kIntroSlot = 'I',     // the self-introduction
    kBodySlot = 'B',      // the body ("会場：{S} 本社")
    kSignatureSlot = 'G', // the signature
    kQuotedSlot = 'Q',    // somebody else addressing the sender in a quoted or forwarded block
};

// An organization of the e-mail and how this e-mail writes it.
struct Party {
    CompanyName name;
    NameStyle style;
    std::string domain; // its mail domain ("kirameki-shoji.co.jp")

    std::string render(NameForm form) const { return name.render(form, style); }
};

struct Person {
    std::string surname, surnameRomaji, given, givenRomaji;
};

// The day of the week of y-m-d, 0 = Sunday (Sakamoto's method).
int weekday(int y, int m, int d)
{
    static const int t[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    if (m < 3)
        y -= 1;
    return (y + y / 4 - y / 100 + y / 400 + t[m - 1] + d) % 7;
}

const char *const kWeekdaysJa[] = {"日", "月", "火", "水", "木", "金", "土"};
const char *const kWeekdaysEn[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
const char *const kMonthsEn[] = {"January", "February", "March",     "April",   "May",      "June",
                                 "July",    "August",   "September", "October", "November", "December"};
constexpr int kYear = 2025;

struct Date {
    int month = 1, day = 1;
};

std::string str(long long v)
{
    return std::to_string(v);
}

std::string twoDigits(int v)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02d", v);
    return buf;
}

// 250000 → "250,000".
std::string withCommas(long long v)
{
    std::string digits = str(v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

size_t codePoints(const std::string &s)
{
    size_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80)
            ++n;
    return n;
}

std::string joinLines(const std::vector<std::string> &lines)
{
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i)
            out.push_back('\n');
        out += lines[i];
    }
    return out;
}

void append(std::vector<std::string> &lines, const std::vector<std::string> &more)
{
    lines.insert(lines.end(), more.begin(), more.end());
}

const std::vector<const char *> &customerItems()
{
    static const std::vector<const char *> v = {"ダイニングテーブル", "ソファ", "電気ケトル", "ランニングシューズ",
                                                "浴室リフォーム", "二世帯住宅", "ワイヤレスイヤホン", "羽毛布団",
                                                "ベビーカー", "オフィスチェア"};
    return v;
}

// Builds one e-mail from one random stream.
//
// Each statement draws at most once, or in an order the language fixes (nested calls,
// ?:, braced lists): the operands of + and the arguments of a call are evaluated in an
// unspecified order, and GCC and Clang choose differently.
//
// A build can fail the final checks (the gold
// rule after normalization, the length cap); the caller then builds again from where
// the stream stands, so the result is still a pure function of the stream's seed.
class EmailBuilder {
public:
    EmailBuilder(Rng &rng, DataSplit split) : m_rng(rng), m_split(split) {}

    SyntheticEmail build();
    void nameParties(SyntheticEmail &email) const;

private:
    // Scenes: the sender's company is stated.
    void businessScene();
    void replyScene();
    void inlineScene();
    void forwardScene();
    void announcementScene();
    void recruitingScene();
    void casualScene();
    // Scenes: no sender company (gold 不明).
    void customerScene();
    void internalScene();
    void personalForwardScene();
    void friendScene();

    // Parties and people.
    Party newParty(CompanyCatalog::Draw what);
    const Party &third(size_t i);
    Person newPerson();
    std::string fullName(const Person &p);
    std::string romanName(const Person &p);
    std::string domainFor(const CompanyName &name);
    std::string personalAddress(const Person &p, const std::string &domain);
    std::string freeMailAddress(const Person &p);
    std::string senderHeader(bool companyInDisplay, bool freeMail);

    // Text.
    std::string expand(const std::string &tmpl);
    std::string placeholderValue(const std::string &key);
    std::string mentionOf(const Party &p, unsigned fullWeight, unsigned abbrevWeight, unsigned shortWeight);
    std::string slot(SlotKind kind) const { return std::string{kSlot, static_cast<char>(kind)}; }
    std::string dateText(const Date &d);
    std::string timeText();
    std::string datedHeaderJa(const Date &d);
    std::string datedHeaderEn(const Date &d);
    std::string phone();
    std::vector<std::string> greeting(bool allowAnonymous);
    std::vector<std::string> openingAndIntro(bool withCompany, const std::vector<const char *> &openings);
    std::vector<std::string> topicBody(const ph::Topic &topic, size_t maxDetails);
    std::vector<std::string> privateBody(const ph::PrivateTopic &topic, size_t maxDetails);
    void appendDetails(std::vector<std::string> &lines, const std::vector<const char *> &details, size_t maxDetails);
    std::vector<std::string> signature(bool withCompany);
    std::vector<std::string> forwardedBlock(const Party &from, const std::string &toAddress,
                                            const std::string &addressee);
    const ph::Topic &drawTopic(const std::vector<std::string> &only = {});
    // A uniformly drawn template that does not contain `unwanted`.
    const char *pickWithout(const std::vector<const char *> &templates, std::string_view unwanted);

    // Decides the form of every sender slot and returns the gold.
    std::string resolveSlots(std::string &header, std::string &body);
    NameForm drawGoldForm(const CompanyName &name);
    NameForm drawSlotForm(char kind, NameForm gold, const CompanyName &name);

    Rng &m_rng;
    DataSplit m_split;
    std::vector<std::string> m_stems;

    std::string m_scene;
    bool m_senderStated = false;
    std::optional<Party> m_sender;
    Person m_senderPerson;
    std::string m_senderDept;
    std::string m_senderAddress;
    std::optional<Party> m_recipient;
    Person m_recipientPerson;
    std::string m_recipientDept;
    std::string m_recipientCompany; // as the greeting writes it
    std::vector<Party> m_thirds;
    std::optional<Party> m_carrier; // {C}
    size_t m_thirdOffset = 0; // {T} is third(m_thirdOffset), {U} the next one
    char m_senderSlotKind = kIntroSlot;
    std::string m_item;
    std::string m_event, m_brand; // one event and one brand per e-mail
    int64_t m_unit = 0, m_unit2 = 0; // a unit price and its revision
    Date m_date, m_date2;
    std::vector<std::string> m_lines; // the body being composed
    std::string m_header;
};

Party EmailBuilder::newParty(CompanyCatalog::Draw what)
{
    Party p;
    p.name = CompanyCatalog::builtin().draw(m_rng, m_split, what, m_stems);
    m_stems.push_back(p.name.stem);
    NameStyle &s = p.style;
    s.glyph = static_cast<AbbrevGlyph>(m_rng.weighted({30, 45, 25}));
    const bool hasAscii = std::any_of(p.name.stem.begin(), p.name.stem.end(),
                                      [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); });
    s.fullWidthLatin = hasAscii && m_rng.chance(0.35);
    if (p.name.kind == OrgKind::University)
        s.space = static_cast<MarkerSpace>(m_rng.weighted({40, 50, 10}));
    else if (p.name.script == StemScript::Latin && p.name.markerAfter && p.name.industry.empty())
        s.space = static_cast<MarkerSpace>(m_rng.weighted({50, 45, 5}));
    else
        s.space = static_cast<MarkerSpace>(m_rng.weighted({88, 8, 4}));
    p.domain = domainFor(p.name);
    return p;
}

const Party &EmailBuilder::third(size_t i)
{
    // Mostly businesses; now and then a school, a hospital, an association, …
    while (m_thirds.size() <= i)
        m_thirds.push_back(newParty(m_rng.chance(0.85) ? CompanyCatalog::Draw::Business : CompanyCatalog::Draw::Any));
    return m_thirds[i];
}

Person EmailBuilder::newPerson()
{
    const ph::Name &s = m_rng.pick(ph::surnames());
    const ph::Name &g = m_rng.pick(ph::givenNames());
    return {s.text, s.romaji, g.text, g.romaji};
}

std::string EmailBuilder::fullName(const Person &p)
{
    static const char *const spaces[] = {" ", "　", ""};
    return p.surname + spaces[m_rng.weighted({55, 35, 10})] + p.given;
}

std::string EmailBuilder::romanName(const Person &p)
{
    auto cap = [](std::string s) {
        if (!s.empty())
            s[0] = static_cast<char>(s[0] - 'a' + 'A');
        return s;
    };
    if (m_rng.chance(0.8))
        return cap(p.givenRomaji) + " " + cap(p.surnameRomaji);
    std::string upper = p.surnameRomaji;
    for (char &c : upper)
        c = static_cast<char>(c - 'a' + 'A');
    return upper + " " + cap(p.givenRomaji);
}

std::string EmailBuilder::domainFor(const CompanyName &name)
{
    const std::vector<CompanyName::DomainLabel> labels = name.domainLabels();
    std::vector<uint32_t> weights;
    for (const auto &l : labels)
        weights.push_back(l.weight);
    const std::string label = labels[m_rng.weighted(weights)].label;
    std::string tld;
    const bool modern = name.script == StemScript::Katakana || name.script == StemScript::KatakanaEnglish ||
                        name.script == StemScript::Latin;
    switch (name.kind) {
    case OrgKind::Business: {
        static const char *const t[] = {"co.jp", "jp", "com", "net", "io"};
        tld = t[m_rng.weighted({45, 20, 20, 7, modern ? 8u : 0u})];
        break;
    }
    case OrgKind::Medical:
    case OrgKind::Association:
    case OrgKind::Foundation:
        tld = m_rng.chance(0.7) ? "or.jp" : "jp";
        break;
    case OrgKind::School: {
        static const char *const t[] = {"ac.jp", "ed.jp", "jp"};
        tld = t[m_rng.weighted({50, 20, 30})];
        break;
    }
    case OrgKind::University:
        tld = "ac.jp";
        break;
    case OrgKind::ShinkinBank:
    case OrgKind::CreditUnion: {
        static const char *const t[] = {"co.jp", "jp", "or.jp"};
        tld = t[m_rng.weighted({40, 40, 20})];
        break;
    }
    case OrgKind::Audit:
    case OrgKind::Professional: {
        static const char *const t[] = {"jp", "com", "or.jp"};
        tld = t[m_rng.weighted({60, 25, 15})];
        break;
    }
    case OrgKind::MutualInsurance:
        tld = "co.jp";
        break;
    }
    std::string domain = label + "." + tld;
    // Now and then a subdomain: footnote 4 of the paper then reads "mail" as the domain.
    if (m_rng.chance(0.03)) {
        static const char *const subs[] = {"mail", "sales", "eng", "jp"};
        domain = std::string(m_rng.pick(subs)) + "." + domain;
    }
    return domain;
}

std::string EmailBuilder::personalAddress(const Person &p, const std::string &domain)
{
    const std::string &s = p.surnameRomaji;
    const std::string &g = p.givenRomaji;
    switch (m_rng.weighted({30, 20, 15, 10, 8, 17})) {
    case 0:
        return s + "@" + domain;
    case 1:
        return std::string(1, g[0]) + "." + s + "@" + domain;
    case 2:
        return g + "." + s + "@" + domain;
    case 3:
        return s + "." + g + "@" + domain;
    case 4:
        return g + "_" + s + "@" + domain;
    default:
        return std::string(m_rng.pick(ph::roleMailboxes())) + "@" + domain;
    }
}

std::string EmailBuilder::freeMailAddress(const Person &p)
{
    const std::string domain = m_rng.pick(ph::freeMailDomains());
    const std::string &s = p.surnameRomaji;
    const std::string &g = p.givenRomaji;
    switch (m_rng.weighted({30, 25, 25, 20})) {
    case 0:
        return g + "." + s + str(m_rng.between(1, 99)) + "@" + domain;
    case 1:
        return s + "." + g + "@" + domain;
    case 2:
        return s + g + str(m_rng.between(1960, 2005)) + "@" + domain;
    default:
        return g + "_" + s + "." + str(m_rng.between(1, 9999)) + "@" + domain;
    }
}

// The sender header for the current sender. With `companyInDisplay` the display name
// names the company (a header slot).
std::string EmailBuilder::senderHeader(bool companyInDisplay, bool freeMail)
{
    const Person &p = m_senderPerson;
    const std::string &addr = m_senderAddress;
    if (companyInDisplay) {
        switch (m_rng.weighted({50, 35, 15})) {
        case 0:
            return slot(kHeaderSlot) + " " + p.surname + " <" + addr + ">";
        case 1:
            return slot(kHeaderSlot) + " " + m_senderDept + " <" + addr + ">";
        default:
            return slot(kHeaderSlot) + " " + m_senderDept + " " + p.surname + " <" + addr + ">";
        }
    }
    switch (m_rng.weighted({32, 8, freeMail ? 14u : 10u, 3, 5, 4, 25})) {
    case 0:
        return p.surname + " " + p.given + " <" + addr + ">";
    case 1:
        return p.surname + p.given + " <" + addr + ">";
    case 2:
        return romanName(p) + " <" + addr + ">";
    case 3:
        return p.surname + " <" + addr + ">";
    case 4:
        return m_senderDept + " " + p.surname + " <" + addr + ">";
    case 5:
        if (m_senderDept.find(' ') == std::string::npos)
            return m_senderDept + "担当 <" + addr + ">";
        return m_senderDept + " <" + addr + ">";
    default:
        return addr;
    }
}

std::string EmailBuilder::mentionOf(const Party &p, unsigned fullWeight, unsigned abbrevWeight, unsigned shortWeight)
{
    const bool abbrev = p.name.hasForm(NameForm::Abbreviated);
    const size_t i = m_rng.weighted({fullWeight, abbrev ? abbrevWeight : 0u, shortWeight});
    return p.render(i == 0 ? NameForm::Full : i == 1 ? NameForm::Abbreviated : NameForm::Short);
}

std::string EmailBuilder::dateText(const Date &d)
{
    const std::string wd = kWeekdaysJa[weekday(kYear, d.month, d.day)];
    switch (m_rng.weighted({45, 25, 15, 15})) {
    case 0:
        return str(d.month) + "月" + str(d.day) + "日（" + wd + "）";
    case 1:
        return str(d.month) + "月" + str(d.day) + "日";
    case 2:
        return str(d.month) + "/" + str(d.day) + "（" + wd + "）";
    default:
        return str(d.month) + "/" + str(d.day) + "(" + wd + ")";
    }
}

std::string EmailBuilder::timeText()
{
    const int h = static_cast<int>(m_rng.between(9, 17));
    switch (m_rng.weighted({30, 30, 20, 20})) {
    case 0:
        return str(h) + "時";
    case 1:
        return str(h) + ":" + (m_rng.chance(0.5) ? "00" : "30") + "〜";
    case 2:
        return str(h) + ":00〜" + str(h + 1) + ":00";
    default:
        return str(h) + "時から";
    }
}

std::string EmailBuilder::datedHeaderJa(const Date &d)
{
    // One draw per statement: the operands of + are evaluated in an unspecified order.
    const int hour = static_cast<int>(m_rng.between(8, 19));
    const int minute = static_cast<int>(m_rng.between(0, 59));
    return str(kYear) + "年" + str(d.month) + "月" + str(d.day) + "日(" + kWeekdaysJa[weekday(kYear, d.month, d.day)] +
           ") " + str(hour) + ":" + twoDigits(minute);
}

std::string EmailBuilder::datedHeaderEn(const Date &d)
{
    const int hour = static_cast<int>(m_rng.between(1, 12));
    const int minute = static_cast<int>(m_rng.between(0, 59));
    const char *half = m_rng.chance(0.5) ? " AM" : " PM";
    return std::string(kWeekdaysEn[weekday(kYear, d.month, d.day)]) + ", " + kMonthsEn[d.month - 1] + " " +
           str(d.day) + ", " + str(kYear) + " " + str(hour) + ":" + twoDigits(minute) + half;
}

std::string EmailBuilder::phone()
{
    static const char *const areas[] = {"03", "06", "045", "052", "092", "011", "022", "082", "078", "0120"};
    const std::string area = m_rng.pick(areas);
    const int middleDigits = area.size() == 2 ? 4 : area.size() == 3 ? 3 : 3;
    std::string middle;
    for (int i = 0; i < middleDigits; ++i)
        middle.push_back(static_cast<char>('0' + m_rng.below(10)));
    std::string last;
    for (int i = 0; i < 4; ++i)
        last.push_back(static_cast<char>('0' + m_rng.below(10)));
    return area + "-" + middle + "-" + last;
}

// Fills {placeholders}; an unknown one is a bug in the phrase tables.
std::string EmailBuilder::expand(const std::string &tmpl)
{
    return text::expandPlaceholders(
        tmpl, [this](const std::string &key) { return placeholderValue(key); }, "synthetic e-mails");
}

// The text of one placeholder; values drawn here come from the e-mail's random stream in
// the order the template names them.
std::string EmailBuilder::placeholderValue(const std::string &key)
{
    std::string out;
    if (key == "S") {
        if (!m_sender || !m_senderStated)
            throw std::logic_error("synthetic e-mails: {S} in an e-mail without a stated sender company");
        out += slot(static_cast<SlotKind>(m_senderSlotKind));
    } else if (key == "R") {
        out += m_recipient ? mentionOf(*m_recipient, 50, 10, 40) : std::string("弊社");
    } else if (key == "T") {
        out += mentionOf(third(m_thirdOffset), 65, 15, 20);
    } else if (key == "U") {
        out += mentionOf(third(m_thirdOffset + 1), 65, 15, 20);
    } else if (key == "C") {
        if (!m_carrier)
            m_carrier = newParty(CompanyCatalog::Draw::Carrier);
        out += mentionOf(*m_carrier, 65, 15, 20);
    } else if (key == "sp") {
        out += m_senderPerson.surname;
    } else if (key == "rp") {
        out += m_recipientPerson.surname;
    } else if (key == "op") {
        out += m_rng.pick(ph::surnames()).text;
    } else if (key == "dept") {
        out += m_senderDept;
    } else if (key == "date") {
        out += dateText(m_date);
    } else if (key == "date2") {
        out += dateText(m_date2);
    } else if (key == "time") {
        out += timeText();
    } else if (key == "item") {
        out += m_item;
    } else if (key == "qty") {
        out += m_rng.pick(ph::quantities());
    } else if (key == "price") {
        out += withCommas(m_rng.between(3, 900) * 1000);
    } else if (key == "price2") {
        out += withCommas(m_rng.between(3, 900) * 1000);
    } else if (key == "num") {
        for (int part = 0; part < 3; ++part)
            out += (part ? "-" : "") + str(m_rng.between(1000, 9999));
    } else if (key == "count") {
        out += withCommas(m_rng.between(2, 30) * 100);
    } else if (key == "n") {
        out += str(m_rng.between(2, 9));
    } else if (key == "event") {
        if (m_event.empty())
            m_event = m_rng.pick(ph::events());
        out += m_event;
    } else if (key == "brand") {
        if (m_brand.empty())
            m_brand = m_rng.pick(ph::brands());
        out += m_brand;
    } else if (key == "unit" || key == "unit2") {
        if (m_unit == 0) {
            m_unit = m_rng.between(40, 3000);
            m_unit2 = m_unit + std::max<int64_t>(1, m_unit * m_rng.between(3, 15) / 100);
        }
        out += withCommas(key == "unit" ? m_unit : m_unit2);
    } else if (key == "place") {
        out += m_rng.pick(ph::places());
    } else if (key == "address") {
        const int64_t chome = m_rng.between(1, 5);
        const int64_t block = m_rng.between(1, 20);
        const int64_t house = m_rng.between(1, 30);
        out += "中央" + str(chome) + "丁目" + str(block) + "-" + str(house);
    } else {
        throw std::logic_error("synthetic e-mails: unknown placeholder {" + key + "}");
    }
    return out;
}

std::vector<std::string> EmailBuilder::greeting(bool allowAnonymous)
{
    const std::string rp = m_recipientPerson.surname;
    const std::string rdept = m_recipientDept;
    const size_t layout = m_rng.weighted({22, 12, 12, 10, 6, 6, 6, 4, 3, 4, 2, allowAnonymous ? 12u : 0u});
    if (layout == 11) {
        m_recipientCompany.clear();
        return {rp + (m_rng.chance(0.3) ? " " + m_recipientPerson.given : std::string()) + "様"};
    }
    const bool useShort = layout == 4 || layout == 9;
    const NameForm form = useShort                                                   ? NameForm::Short
                          : m_recipient->name.hasForm(NameForm::Abbreviated) && m_rng.chance(0.15) ? NameForm::Abbreviated
                                                                                     : NameForm::Full;
    const std::string rc = m_recipient->render(form);
    m_recipientCompany = rc;
    switch (layout) {
    case 0:
        return {rc, rdept + " " + rp + "様"};
    case 1:
        return {rc + " " + rdept, rp + "様"};
    case 2:
        return {rc, rp + "様"};
    case 3:
        return {rc + " " + rp + "様"};
    case 4:
        return {rc + " " + rdept, rp + "様"};
    case 5:
        return {rc, rdept + " 御中"};
    case 6:
        return {rc, rdept + " ご担当者様"};
    case 7:
        return {rc + " " + rdept + " 御中"};
    case 8:
        return {rc, rdept + " 部長 " + rp + "様"};
    case 9:
        return {rc, rp + "様"};
    default:
        return {"Dear " + rp + "様（" + rc + " " + rdept + "）,"};
    }
}

std::vector<std::string> EmailBuilder::openingAndIntro(bool withCompany, const std::vector<const char *> &openings)
{
    m_senderSlotKind = kIntroSlot;
    const std::string opening = m_rng.pick(openings);
    const std::string intro =
        expand(withCompany ? m_rng.pick(ph::introductionsWithCompany()) : m_rng.pick(ph::introductionsWithoutCompany()));
    if (m_rng.chance(0.35))
        return {opening + intro};
    return {opening, intro};
}

const ph::Topic &EmailBuilder::drawTopic(const std::vector<std::string> &only)
{
    const unsigned kindBit = 1u << static_cast<unsigned>(m_sender->name.kind);
    std::vector<uint32_t> weights;
    for (const ph::Topic &t : ph::topics()) {
        bool ok = (t.senders & kindBit) != 0;
        if (ok && !only.empty())
            ok = std::find(only.begin(), only.end(), t.name) != only.end();
        // Recruiting mail goes to a person, not a company: only the recruiting scene writes it.
        if (ok && only.empty() && t.name == std::string("recruiting"))
            ok = false;
        // Topics of the organization's own kind are likelier than generic ones.
        const bool own = t.senders == kindBit;
        weights.push_back(ok ? (own ? 6u : 2u) : 0u);
    }
    if (std::all_of(weights.begin(), weights.end(), [](uint32_t w) { return w == 0; }))
        return ph::topics()[2]; // "meeting" fits every kind
    const ph::Topic &t = ph::topics()[m_rng.weighted(weights)];
    m_item = m_rng.pick(t.items);
    return t;
}

const char *EmailBuilder::pickWithout(const std::vector<const char *> &templates, std::string_view unwanted)
{
    std::vector<const char *> ok;
    for (const char *t : templates)
        if (std::string_view(t).find(unwanted) == std::string_view::npos)
            ok.push_back(t);
    if (ok.empty())
        throw std::logic_error("synthetic e-mails: every template contains " + std::string(unwanted));
    return m_rng.pick(ok);
}

// Lead, up to `maxDetails` details (in table order, so bullets stay together), ask.
void EmailBuilder::appendDetails(std::vector<std::string> &lines, const std::vector<const char *> &details,
                                 size_t maxDetails)
{
    // Between 2 (or all, when fewer) and maxDetails distinct details, in table order.
    const size_t want = static_cast<size_t>(m_rng.between(std::min<int64_t>(2, details.size()),
                                                          static_cast<int64_t>(std::min(maxDetails, details.size()))));
    std::vector<size_t> chosen;
    while (chosen.size() < want) {
        const size_t i = m_rng.below(details.size());
        if (std::find(chosen.begin(), chosen.end(), i) == chosen.end())
            chosen.push_back(i);
    }
    std::sort(chosen.begin(), chosen.end());
    for (size_t i : chosen)
        lines.push_back(expand(details[i]));
}

std::vector<std::string> EmailBuilder::topicBody(const ph::Topic &topic, size_t maxDetails)
{
    m_senderSlotKind = kBodySlot;
    std::vector<std::string> lines;
    lines.push_back(expand(m_rng.pick(topic.leads)));
    const bool blank = m_rng.chance(0.6);
    if (blank)
        lines.emplace_back();
    appendDetails(lines, topic.details, maxDetails);
    if (blank || m_rng.chance(0.3))
        lines.emplace_back();
    lines.push_back(expand(m_rng.pick(topic.asks)));
    m_senderSlotKind = kIntroSlot;
    return lines;
}

std::vector<std::string> EmailBuilder::privateBody(const ph::PrivateTopic &topic, size_t maxDetails)
{
    std::vector<std::string> lines;
    lines.push_back(expand(m_rng.pick(topic.leads)));
    appendDetails(lines, topic.details, maxDetails);
    if (m_rng.chance(0.5))
        lines.emplace_back();
    lines.push_back(expand(m_rng.pick(topic.asks)));
    return lines;
}

// The sender's signature; with `withCompany` it names the company (a signature slot).
std::vector<std::string> EmailBuilder::signature(bool withCompany)
{
    const std::string name = fullName(m_senderPerson);
    const std::string dept = m_senderDept;
    std::vector<std::string> lines;
    if (!withCompany) {
        switch (m_rng.weighted({40, 25, 15, 20})) {
        case 0:
            return {name};
        case 1:
            return {dept + " " + name};
        case 2:
            return {"--", name, "TEL " + phone()};
        default:
            return {m_senderPerson.surname};
        }
    }
    const std::string co = slot(kSignatureSlot);
    const std::string english = m_sender->name.englishName();
    const bool withEnglish = !english.empty() && m_rng.chance(0.35);
    const std::string sep = m_rng.pick(ph::separators());
    switch (m_rng.weighted({26, 16, 14, 12, 12, 12, english.empty() ? 0u : 8u})) {
    case 0: // a box
        lines.push_back(sep);
        lines.push_back(co);
        if (withEnglish)
            lines.push_back(english);
        lines.push_back(dept);
        lines.push_back(name);
        if (m_rng.chance(0.2)) {
            const int64_t zip1 = m_rng.between(100, 999);
            const int64_t zip2 = m_rng.between(1000, 9999);
            const std::string city = m_rng.pick(ph::places());
            lines.push_back("〒" + str(zip1) + "-" + str(zip2) + " " + city + "市" + expand("{address}"));
        }
        if (m_rng.chance(0.75))
            lines.push_back("TEL: " + phone());
        if (m_rng.chance(0.2))
            lines.push_back("FAX: " + phone());
        if (m_rng.chance(0.4))
            lines.push_back("Mail: " + m_senderAddress);
        lines.push_back(sep);
        break;
    case 1:
        lines = {"--", co + " " + dept, name};
        if (withEnglish)
            lines.insert(lines.begin() + 2, english);
        break;
    case 2:
        lines = {name, co + " " + dept};
        break;
    case 3:
        lines = {co, dept + " " + name};
        if (withEnglish)
            lines.insert(lines.begin() + 1, english);
        break;
    case 4:
        lines = {co + " " + dept, name};
        if (m_rng.chance(0.5)) {
            const std::string label = m_rng.chance(0.5) ? "TEL " : "携帯 ";
            lines.push_back(label + phone());
        }
        break;
    case 5:
        if (withEnglish)
            lines = {co + (m_rng.chance(0.5) ? "（" + english + "）" : " / " + english), dept, name};
        else
            lines = {co, dept, name};
        if (m_rng.chance(0.3))
            lines.push_back("https://www." + m_senderAddress.substr(m_senderAddress.find('@') + 1) + "/");
        break;
    default: // English first
        lines = {"Best regards,", romanName(m_senderPerson) + " / " + name, english, co + " " + dept};
        break;
    }
    return lines;
}

// A forwarded message from `from` (a company) to `addressee`, e.g. "{S} 木村様" or "桜井 亮 様".
std::vector<std::string> EmailBuilder::forwardedBlock(const Party &from, const std::string &toAddress,
                                                      const std::string &addressee)
{
    const Person person = newPerson();
    const std::string dept = m_rng.pick(ph::departments(from.name.kind));
    const std::string fromFull = from.render(NameForm::Full);
    std::vector<std::string> lines;
    lines.push_back(m_rng.pick(ph::forwardHeaders()));
    const std::string addr = personalAddress(person, from.domain);
    lines.push_back("From: " + (m_rng.chance(0.6) ? fromFull + " " + dept : fullName(person)) + " <" + addr + ">");
    Date d{m_date.month, std::max(1, m_date.day - static_cast<int>(m_rng.between(1, 3)))};
    lines.push_back("Date: " + datedHeaderJa(d));
    // A topic the writer's kind of organization writes about.
    const unsigned kindBit = 1u << static_cast<unsigned>(from.name.kind);
    std::vector<uint32_t> weights;
    for (const ph::Topic &t : ph::topics())
        weights.push_back((t.senders & kindBit) && t.name != std::string("recruiting") ? 1u : 0u);
    const ph::Topic &topic = ph::topics()[m_rng.weighted(weights)];
    const std::string savedItem = m_item;
    m_item = m_rng.pick(topic.items);
    lines.push_back("Subject: " + expand(m_rng.pick(topic.subjects)));
    if (!toAddress.empty() && m_rng.chance(0.4))
        lines.push_back("To: <" + toAddress + ">");
    lines.emplace_back();
    lines.push_back(addressee);
    // In the forwarded message, {T} is a company other than the one that wrote it.
    const size_t savedOffset = m_thirdOffset;
    m_thirdOffset = savedOffset + 1;
    // ({S} there would be the writer's own company, not the sender's: leave such lines out.)
    lines.push_back(expand(pickWithout(topic.leads, "{S}")));
    if (m_rng.chance(0.5))
        lines.push_back(expand(pickWithout(topic.details, "{S}")));
    m_thirdOffset = savedOffset;
    m_item = savedItem;
    lines.push_back(fromFull + " " + dept + " " + person.surname);
    return lines;
}

// ---------------------------------------------------------------- scenes

void EmailBuilder::businessScene()
{
    m_scene = "business";
    const ph::Topic &topic = drawTopic();
    const bool companyInIntro = m_rng.chance(0.7);
    const bool companyInSignature = !companyInIntro || m_rng.chance(0.82);
    if (m_rng.chance(0.06)) {
        m_lines.push_back(m_rng.chance(0.5) ? "【ご連絡】" + expand(m_rng.pick(topic.subjects))
                                            : "件名：" + expand(m_rng.pick(topic.subjects)));
        m_lines.emplace_back();
    }
    if (m_rng.chance(0.9)) {
        append(m_lines, greeting(true));
        m_lines.emplace_back();
    }
    const bool firstContact = topic.name == std::string("introduction") && m_rng.chance(0.6);
    append(m_lines, openingAndIntro(companyInIntro, firstContact ? ph::firstContactOpenings() : ph::formalOpenings()));
    if (!firstContact && m_rng.chance(0.35))
        m_lines.push_back(m_rng.pick(ph::courtesies()));
    m_lines.emplace_back();
    append(m_lines, topicBody(topic, 4));
    if (m_rng.chance(0.4))
        m_lines.push_back(expand(m_rng.pick(ph::preClosings())));
    if (m_rng.chance(0.6))
        m_lines.push_back(m_rng.pick(ph::closings()));
    m_lines.emplace_back();
    append(m_lines, signature(companyInSignature));
}

void EmailBuilder::replyScene()
{
    m_scene = "reply";
    const ph::Topic &topic = drawTopic();
    if (m_rng.chance(0.8)) {
        append(m_lines, greeting(true));
        m_lines.emplace_back();
    }
    append(m_lines, openingAndIntro(m_rng.chance(0.6), ph::formalOpenings()));
    m_senderSlotKind = kBodySlot;
    const size_t first = m_rng.below(topic.replies.size());
    m_lines.push_back(expand(topic.replies[first]));
    if (topic.replies.size() > 1 && m_rng.chance(0.5))
        m_lines.push_back(expand(topic.replies[(first + 1) % topic.replies.size()]));
    m_senderSlotKind = kIntroSlot;
    m_lines.emplace_back();
    append(m_lines, signature(true));
    m_lines.emplace_back();

    // The recipient's message, below.
    const std::string raddr = personalAddress(m_recipientPerson, m_recipient->domain);
    std::vector<std::string> quoted;
    const bool english = m_rng.chance(0.5);
    m_lines.push_back(m_rng.pick(ph::originalMessageHeaders()));
    m_lines.push_back((english ? "From: " : "差出人: ") + m_recipientPerson.surname + " " + m_recipientPerson.given +
                      " <" + raddr + ">");
    const Date d{m_date.month, std::max(1, m_date.day - 2)};
    m_lines.push_back(english ? "Sent: " + datedHeaderEn(d) : "送信日時: " + datedHeaderJa(d));
    m_lines.push_back((english ? "Subject: " : "件名: ") + expand(m_rng.pick(topic.subjects)));
    m_lines.emplace_back();
    m_senderSlotKind = kQuotedSlot;
    quoted.push_back(slot(kQuotedSlot) + " " + m_senderPerson.surname + "様");
    const std::string rc = mentionOf(*m_recipient, 70, 10, 20);
    quoted.push_back(m_rng.chance(0.5) ? rc + "の" + m_recipientPerson.surname + "です。"
                                       : "お世話になっております。" + rc + "の" + m_recipientPerson.surname + "です。");
    quoted.push_back(expand(m_rng.pick(topic.leads)));
    if (m_rng.chance(0.5))
        quoted.push_back(rc + " " + m_recipientDept + " " + m_recipientPerson.surname);
    m_senderSlotKind = kIntroSlot;
    const bool prefix = m_rng.chance(0.4);
    for (const std::string &q : quoted)
        m_lines.push_back(prefix ? "> " + q : q);
}

void EmailBuilder::inlineScene()
{
    m_scene = "inline";
    if (m_rng.chance(0.85)) {
        append(m_lines, greeting(false));
        m_lines.emplace_back();
    }
    append(m_lines, openingAndIntro(m_rng.chance(0.75), ph::formalOpenings()));
    m_lines.push_back(m_rng.chance(0.5) ? "以下、インラインにて回答いたします。" : "ご質問の件、以下のとおり回答いたします。");
    m_lines.emplace_back();
    const std::string mark = m_rng.chance(0.8) ? "> " : "＞";
    const size_t n = static_cast<size_t>(m_rng.between(2, 3));
    std::vector<size_t> chosen;
    while (chosen.size() < n) {
        const size_t i = m_rng.below(ph::quotedExchanges().size());
        if (std::find(chosen.begin(), chosen.end(), i) == chosen.end())
            chosen.push_back(i);
    }
    m_date2 = m_date;
    for (size_t i : chosen) {
        const ph::QuotedExchange &q = ph::quotedExchanges()[i];
        m_lines.push_back(mark + expand(q.question));
        m_lines.push_back(expand(q.answer));
        m_lines.emplace_back();
    }
    if (m_recipient && m_rng.chance(0.3)) {
        m_lines.insert(m_lines.end() - 1, mark + m_recipient->render(NameForm::Full) + " " + m_recipientPerson.surname);
    }
    m_lines.push_back(m_rng.pick(ph::closings()));
    m_lines.emplace_back();
    append(m_lines, signature(true));
}

void EmailBuilder::forwardScene()
{
    m_scene = "forward";
    if (m_rng.chance(0.85)) {
        append(m_lines, greeting(true));
        m_lines.emplace_back();
    }
    const bool companyInIntro = m_rng.chance(0.7);
    append(m_lines, openingAndIntro(companyInIntro, ph::formalOpenings()));
    m_lines.push_back(expand(m_rng.pick(ph::forwardLeads())));
    if (m_rng.chance(0.4))
        m_lines.push_back(m_rng.chance(0.5) ? "取り急ぎ共有まで。" : "内容をご確認いただけますと幸いです。");
    m_lines.emplace_back();
    m_senderSlotKind = kQuotedSlot;
    const std::string addressee = slot(kQuotedSlot) + " " + m_senderPerson.surname + "様";
    std::vector<std::string> block = forwardedBlock(third(0), m_senderAddress, addressee);
    m_senderSlotKind = kIntroSlot;
    std::vector<std::string> sig = signature(!companyInIntro || m_rng.chance(0.85));
    if (m_rng.chance(0.6)) {
        append(m_lines, sig);
        m_lines.emplace_back();
        append(m_lines, block);
    } else {
        append(m_lines, block);
        m_lines.emplace_back();
        append(m_lines, sig);
    }
}

void EmailBuilder::announcementScene()
{
    m_scene = "announcement";
    const ph::Topic &topic = drawTopic({"holiday", "relocation", "seminar", "price", "personnel", "maintenance",
                                        "sponsorship", "grant"});
    static const char *const audiences[] = {"お取引先各位", "関係者各位", "各位", "お客様各位", "会員各位"};
    m_lines.push_back(m_rng.pick(audiences));
    m_recipientCompany.clear();
    m_lines.emplace_back();
    append(m_lines, openingAndIntro(m_rng.chance(0.6), ph::formalOpenings()));
    m_lines.emplace_back();
    append(m_lines, topicBody(topic, 3));
    m_lines.emplace_back();
    append(m_lines, signature(true));
}

void EmailBuilder::recruitingScene()
{
    m_scene = "recruiting";
    const ph::Topic &topic = drawTopic({"recruiting"});
    if (topic.name != std::string("recruiting")) { // universities and associations do not recruit here
        m_lines.clear();
        businessScene();
        return;
    }
    m_recipientCompany.clear();
    m_lines.push_back(m_recipientPerson.surname + (m_rng.chance(0.5) ? " " + m_recipientPerson.given : "") + "様");
    m_lines.emplace_back();
    m_senderDept = m_rng.chance(0.5) ? "人事部 採用担当" : "採用担当";
    m_senderSlotKind = kIntroSlot;
    m_lines.push_back(expand(m_rng.pick(topic.leads)));
    m_lines.push_back(expand(m_rng.chance(0.8) ? "{S} {dept}の{sp}です。" : "{dept}の{sp}です。"));
    m_lines.emplace_back();
    const size_t want = static_cast<size_t>(m_rng.between(1, 3));
    for (size_t i = 0; i < want; ++i)
        m_lines.push_back(expand(topic.details[(i * 2 + m_rng.below(2)) % topic.details.size()]));
    m_lines.emplace_back();
    m_lines.push_back(expand(m_rng.pick(topic.asks)));
    m_lines.emplace_back();
    append(m_lines, signature(true));
}

void EmailBuilder::casualScene()
{
    m_scene = "casual";
    const ph::Topic &topic = drawTopic();
    if (m_rng.chance(0.6)) {
        m_recipientCompany = m_recipient->render(NameForm::Short);
        m_lines.push_back(m_recipientCompany + " " + m_recipientPerson.surname + "さん");
    } else {
        m_recipientCompany.clear();
        m_lines.push_back(m_recipientPerson.surname + "さん");
    }
    m_lines.emplace_back();
    m_senderSlotKind = kIntroSlot;
    const std::string opening = m_rng.pick(ph::casualOpenings());
    m_lines.push_back(opening + expand("{S}の{sp}です。"));
    m_lines.emplace_back();
    m_senderSlotKind = kBodySlot;
    m_lines.push_back(expand(m_rng.pick(topic.leads)));
    m_lines.push_back(expand(m_rng.pick(topic.details)));
    m_senderSlotKind = kIntroSlot;
    m_lines.emplace_back();
    m_lines.push_back(m_rng.pick(ph::casualClosings()));
    m_lines.emplace_back();
    if (m_rng.chance(0.6))
        m_lines.push_back(slot(kSignatureSlot) + "　" + fullName(m_senderPerson));
    else
        m_lines.push_back(fullName(m_senderPerson));
}

void EmailBuilder::customerScene()
{
    m_scene = "customer";
    m_item = m_rng.pick(customerItems());
    static const char *const desks[] = {"カスタマーサポート", "お客様相談室", "ご担当者", "予約係", "オンラインショップ"};
    const std::string rc = m_recipient->render(m_rng.chance(0.85) ? NameForm::Full : NameForm::Short);
    m_recipientCompany = rc;
    switch (m_rng.weighted({40, 30, 30})) {
    case 0:
        m_lines = {rc, std::string(m_rng.pick(desks)) + " 御中"};
        break;
    case 1:
        m_lines = {rc + " " + m_rng.pick(desks) + " 御中"};
        break;
    default:
        m_lines = {rc, m_recipientPerson.surname + "様"};
        break;
    }
    m_lines.emplace_back();
    static const char *const openings[] = {"お世話になります。{sp}と申します。", "はじめまして。{sp}と申します。",
                                           "突然のメール失礼いたします。{sp}と申します。"};
    m_lines.push_back(expand(m_rng.pick(openings)));
    m_lines.emplace_back();
    append(m_lines, privateBody(m_rng.pick(ph::customerTopics()), 3));
    m_lines.emplace_back();
    m_lines.push_back(fullName(m_senderPerson));
}

void EmailBuilder::internalScene()
{
    m_scene = "internal";
    m_item = m_rng.pick(ph::topics()[m_rng.below(ph::topics().size())].items);
    m_recipientCompany.clear();
    const std::string rp = m_recipientPerson.surname;
    switch (m_rng.weighted({45, 30, 25})) {
    case 0:
        m_lines.push_back(rp + "さん");
        break;
    case 1:
        m_lines.push_back(rp + "様");
        break;
    default:
        m_lines.push_back(std::string(m_rng.pick(ph::departments(OrgKind::Business))) + "各位");
        break;
    }
    m_lines.emplace_back();
    if (m_rng.chance(0.5)) {
        m_lines.push_back("お疲れ様です、" + m_senderPerson.surname + "です。");
    } else {
        m_lines.push_back("お疲れ様です。");
        m_lines.push_back(m_senderDept + "の" + m_senderPerson.surname + "です。");
    }
    m_lines.emplace_back();
    append(m_lines, privateBody(m_rng.pick(ph::internalTopics()), 3));
    m_lines.emplace_back();
    if (m_rng.chance(0.5))
        m_lines.push_back(m_senderPerson.surname);
    else
        append(m_lines, {m_senderDept + " " + fullName(m_senderPerson), "内線 " + str(m_rng.between(1000, 8999))});
}

void EmailBuilder::personalForwardScene()
{
    m_scene = "personal_forward";
    m_recipientCompany.clear();
    static const char *const greetings[] = {"母さんへ", "父さんへ", "{rp}さん", "お疲れさま。"};
    m_lines.push_back(expand(m_rng.pick(greetings)));
    m_lines.emplace_back();
    const ph::PrivateTopic &family = ph::friendTopics()[1];
    m_lines.push_back(expand(family.leads[0])); // the quotation that is forwarded below
    m_lines.push_back(expand(family.details[0]));
    m_lines.push_back(expand(m_rng.pick(family.asks)));
    m_lines.emplace_back();
    m_lines.push_back(m_senderPerson.given);
    m_lines.emplace_back();
    const std::string addressee = m_senderPerson.surname + " " + m_senderPerson.given + " 様";
    append(m_lines, forwardedBlock(third(0), m_senderAddress, addressee));
}

void EmailBuilder::friendScene()
{
    m_scene = "friend";
    m_item = m_rng.pick(customerItems());
    m_recipientCompany.clear();
    static const char *const openings[] = {"よっ、久しぶり！{sp}です。", "{rp}へ", "{rp}さん、こんにちは。{sp}です。"};
    m_lines.push_back(expand(m_rng.pick(openings)));
    m_lines.emplace_back();
    append(m_lines, privateBody(ph::friendTopics()[0], 3));
    if (m_rng.chance(0.5)) {
        const std::string rc = m_recipient->render(NameForm::Full);
        m_lines.insert(m_lines.end() - 1, "お前のところ（" + rc + "）も最近忙しいって聞いたけど、来れそう？");
    }
    m_lines.emplace_back();
    m_lines.push_back(m_rng.chance(0.5) ? fullName(m_senderPerson) : m_senderPerson.given);
}

// ---------------------------------------------------------------- gold

NameForm EmailBuilder::drawGoldForm(const CompanyName &name)
{
    if (name.mostDetailedForm() == NameForm::Short)
        return NameForm::Short;
    const size_t i = m_rng.weighted({72, name.hasForm(NameForm::Abbreviated) ? 16u : 0u,
                                     name.hasForm(NameForm::Short) ? 10u : 0u});
    return i == 0 ? NameForm::Full : i == 1 ? NameForm::Abbreviated : NameForm::Short;
}

NameForm EmailBuilder::drawSlotForm(char kind, NameForm gold, const CompanyName &name)
{
    // Weights of Short, Abbreviated, Full by the place of the mention.
    uint32_t w[3] = {50, 8, 42};
    switch (kind) {
    case kHeaderSlot:
        w[0] = 85, w[1] = 0, w[2] = 15;
        break;
    case kBodySlot:
        w[0] = 40, w[1] = 10, w[2] = 50;
        break;
    case kSignatureSlot:
        w[0] = 5, w[1] = 5, w[2] = 90;
        break;
    case kQuotedSlot:
        w[0] = 45, w[1] = 35, w[2] = 20;
        break;
    default:
        break;
    }
    for (int f = 0; f < 3; ++f)
        if (f > static_cast<int>(gold) || !name.hasForm(static_cast<NameForm>(f)))
            w[f] = 0;
    if (w[0] + w[1] + w[2] == 0)
        return gold;
    return static_cast<NameForm>(m_rng.weighted({w[0], w[1], w[2]}));
}

std::string EmailBuilder::resolveSlots(std::string &header, std::string &body)
{
    struct Slot {
        std::string *text;
        size_t pos;
        char kind;
    };
    std::vector<Slot> slots;
    for (std::string *s : {&header, &body})
        for (size_t p = s->find(kSlot); p != std::string::npos; p = s->find(kSlot, p + 2))
            slots.push_back({s, p, (*s)[p + 1]});
    if (!m_senderStated) {
        if (!slots.empty())
            throw std::logic_error("synthetic e-mails: a sender slot in an e-mail without a sender company");
        return kUnknown;
    }
    // The gold goes to a signature if there is one, else to the introduction, the body,
    // the header; never only to what somebody else wrote in a quoted block.
    size_t goldIndex = slots.size();
    for (char kind : {kSignatureSlot, kIntroSlot, kBodySlot, kHeaderSlot}) {
        std::vector<size_t> of;
        for (size_t i = 0; i < slots.size(); ++i)
            if (slots[i].kind == kind)
                of.push_back(i);
        if (!of.empty()) {
            goldIndex = m_rng.pick(of);
            break;
        }
    }
    if (goldIndex == slots.size())
        return {}; // no place names the sender's company: build again
    const Party &sender = *m_sender;
    const NameForm goldForm = drawGoldForm(sender.name);
    const std::string gold = sender.render(goldForm);
    // Replace from the back so that earlier positions stay valid.
    for (size_t k = slots.size(); k-- > 0;) {
        const Slot &s = slots[k];
        std::string text;
        if (k == goldIndex) {
            text = gold;
        } else {
            const NameForm f = drawSlotForm(s.kind, goldForm, sender.name);
            NameStyle style = sender.style;
            // Somebody else may write the abbreviation their own way (㈱ for (株)).
            if (s.kind == kQuotedSlot && f == NameForm::Abbreviated && goldForm == NameForm::Full && m_rng.chance(0.5))
                style.glyph = static_cast<AbbrevGlyph>(m_rng.below(3));
            text = sender.name.render(f, style);
        }
        s.text->replace(s.pos, 2, text);
    }
    return gold;
}

SyntheticEmail EmailBuilder::build()
{
    // Scenes: stated sender company (85 %) and none (15 %).
    const size_t scene = m_rng.weighted({500, 90, 70, 80, 50, 30, 30, 55, 45, 20, 30});
    m_senderStated = scene <= 6;

    m_recipient = newParty(scene == 7 ? CompanyCatalog::Draw::Business
                                      : (m_rng.chance(0.85) ? CompanyCatalog::Draw::Business : CompanyCatalog::Draw::Any));
    m_recipientPerson = newPerson();
    m_recipientDept = m_recipient->name.kind == OrgKind::Business ? m_rng.pick(ph::recipientDepartments())
                                                                  : m_rng.pick(ph::departments(m_recipient->name.kind));
    m_senderPerson = newPerson();
    m_date = {static_cast<int>(m_rng.between(1, 12)), static_cast<int>(m_rng.between(1, 24))};
    m_date2 = {m_date.month, m_date.day + static_cast<int>(m_rng.between(1, 4))};

    bool freeMail = false;
    if (m_senderStated || scene == 8) {
        m_sender = newParty(CompanyCatalog::Draw::Any);
        m_senderDept = m_rng.pick(ph::departments(m_sender->name.kind));
        // Small businesses write from free mail now and then (takano-komuten@gmail.com).
        freeMail = m_senderStated && m_rng.chance(m_sender->name.kind == OrgKind::Business ? 0.08 : 0.03);
        if (freeMail) {
            const std::string domain = m_rng.pick(ph::freeMailDomains());
            const auto labels = m_sender->name.domainLabels();
            m_senderAddress = m_rng.chance(0.5) ? labels[0].label + "@" + domain
                                                : freeMailAddress(m_senderPerson);
        } else {
            m_senderAddress = personalAddress(m_senderPerson, m_sender->domain);
        }
    } else {
        m_senderDept = m_rng.pick(ph::departments(OrgKind::Business));
        freeMail = true;
        m_senderAddress = freeMailAddress(m_senderPerson);
    }

    switch (scene) {
    case 0:
        businessScene();
        break;
    case 1:
        replyScene();
        break;
    case 2:
        inlineScene();
        break;
    case 3:
        forwardScene();
        break;
    case 4:
        announcementScene();
        break;
    case 5:
        recruitingScene();
        break;
    case 6:
        casualScene();
        break;
    case 7:
        customerScene();
        break;
    case 8:
        internalScene();
        break;
    case 9:
        personalForwardScene();
        break;
    default:
        friendScene();
        break;
    }
    // Drop trailing blank lines and double blank lines.
    std::vector<std::string> lines;
    for (const std::string &l : m_lines) {
        if (l.empty() && (lines.empty() || lines.back().empty()))
            continue;
        lines.push_back(l);
    }
    while (!lines.empty() && lines.back().empty())
        lines.pop_back();

    m_header = senderHeader(m_senderStated && m_rng.chance(0.18), freeMail);
    std::string body = joinLines(lines);
    SyntheticEmail email;
    email.record.gold = resolveSlots(m_header, body);
    email.record.senderEmail = m_header;
    email.record.emailText = body;
    email.stems = m_stems;
    email.recipientCompany = m_recipientCompany;
    email.scene = m_scene;
    return email;
}

// Which of the other parties the text of `email` (which build() made) names: its stem,
// which every form of the name contains, occurs in the normalized header and body. Done
// only for the attempt that is kept.
void EmailBuilder::nameParties(SyntheticEmail &email) const
{
    const std::u32string source = text::normalize32(email.record.senderEmail + "\n" + email.record.emailText);
    const auto named = [&](const Party &p) { return source.find(text::normalize32(p.name.stem)) != std::u32string::npos; };
    if (m_recipient && named(*m_recipient))
        email.recipientNamed = m_recipient->render(NameForm::Full);
    for (const Party &p : m_thirds)
        if (named(p))
            email.otherCompanies.push_back(p.render(NameForm::Full));
    if (m_carrier && named(*m_carrier))
        email.otherCompanies.push_back(m_carrier->render(NameForm::Full));
}

} // namespace

ExtractionRecord SyntheticEmail::datasetRecord(bool withReasoning) const
{
    ExtractionRecord r = record;
    r.partiesKnown = true;
    r.recipientCompany = recipientNamed;
    r.otherCompanies = otherCompanies;
    if (withReasoning)
        r.reasoning = templatedReasoning();
    return r;
}

std::string SyntheticEmail::templatedReasoning() const
{
    std::string s = "差出人は「" + record.senderEmail + "」。";
    if (!recipientNamed.empty())
        s += "「" + recipientNamed + "」は宛先の会社で、送信者の会社ではない。";
    // At most two third parties: the trace stays short, as the paper's thinking is a few
    // sentences, not a list.
    for (size_t i = 0; i < otherCompanies.size() && i < 2; ++i)
        s += "「" + otherCompanies[i] + "」は本文に出てくる別の会社。";
    if (record.gold == kUnknown)
        s += "本文にも署名にも送信者の会社名は書かれていない。";
    else
        s += "送信者の会社名は「" + record.gold + "」と書かれている。";
    s += "答えは「" + record.gold + "」。";
    return s;
}

SyntheticEmailGenerator::SyntheticEmailGenerator(uint64_t seed, DataSplit split, size_t maxChars)
    : m_seed(seed), m_split(split), m_maxChars(maxChars)
{
}

std::string SyntheticEmailGenerator::idFor(DataSplit split, size_t index)
{
    char digits[32];
    std::snprintf(digits, sizeof digits, "%06zu", index + 1);
    return std::string(splitName(split)) + "-" + digits;
}

SyntheticEmail SyntheticEmailGenerator::email(size_t index) const
{
    Rng rng = Rng::forStream(m_seed, static_cast<uint64_t>(m_split) + 1, index);
    std::string lastProblem;
    for (int attempt = 0; attempt < 200; ++attempt) {
        EmailBuilder builder(rng, m_split);
        SyntheticEmail e = builder.build();
        if (e.record.gold.empty()) {
            lastProblem = "no mention of the sender's company";
            continue;
        }
        if (codePoints(e.record.emailText) > m_maxChars) {
            lastProblem = "longer than " + std::to_string(m_maxChars) + " characters";
            continue;
        }
        if (std::string why = goldRuleViolation(e.record.senderEmail, e.record.emailText, e.record.gold); !why.empty()) {
            lastProblem = why;
            continue;
        }
        builder.nameParties(e);
        e.record.id = idFor(m_split, index);
        return e;
    }
    throw std::runtime_error("synthetic e-mail " + idFor(m_split, index) + ": no valid e-mail in 200 attempts (" +
                             lastProblem + ")");
}

std::vector<SyntheticEmail> SyntheticEmailGenerator::generate(size_t n,
                                                              const std::function<bool(size_t, size_t)> &progress) const
{
    std::vector<SyntheticEmail> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        out.push_back(email(i));
        if (progress && ((i + 1) % 1000 == 0 || i + 1 == n) && !progress(i + 1, n))
            break;
    }
    return out;
}

size_t writeSyntheticJsonl(const SyntheticEmailGenerator &generator, size_t n, std::ostream &out,
                           const std::function<bool(size_t, size_t)> &progress, size_t every, bool withReasoning)
{
    every = std::max<size_t>(1, every);
    for (size_t i = 0; i < n; ++i) {
        out << toJsonLine(generator.email(i).datasetRecord(withReasoning), /*withCompletion=*/false) << '\n';
        if (progress && ((i + 1) % every == 0 || i + 1 == n) && !progress(i + 1, n))
            return i + 1;
    }
    return n;
}

} // namespace rwb::data
