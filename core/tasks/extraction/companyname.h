#pragma once

#include <string>
#include <vector>

namespace rwb::data {

// The script a company's stem is written in.
enum class StemScript {
    Kanji,           // 北栄
    Hiragana,        // きらめき
    Katakana,        // ウミネコ, ステラ
    KatakanaEnglish, // ブルーウェーブ (a transcribed English compound: "Blue Wave")
    Latin,           // SORA, KD (written half- or full-width in an e-mail)
};

// What kind of organization a name belongs to: it decides the legal-entity marker,
// the short forms people write and the mail domains.
enum class OrgKind {
    Business,        // 株式会社 / 有限会社 / 合同会社 / 合資会社 / 合名会社, or none
    Medical,         // 医療法人X会
    School,          // 学校法人X学園
    University,      // 国立大学法人 X大学
    ShinkinBank,     // X信用金庫 (short: X信金)
    CreditUnion,     // X信用組合 (short: X信組)
    Association,     // 一般社団法人X協会
    Foundation,      // 公益財団法人X財団
    Audit,           // X監査法人 (always written in full)
    MutualInsurance, // X生命保険相互会社 (short: X生命)
    Professional,    // X法律事務所, X会計事務所, … (no marker at all)
};

// How much of a name a mention writes, from least to most detailed. The first paper's
// gold rule (§2.4) takes the most detailed form that an e-mail contains.
enum class NameForm {
    Short = 0,       // きらめき商事
    Abbreviated = 1, // ㈱きらめき商事, きらめき商事(有)
    Full = 2,        // 株式会社きらめき商事
};

// How an abbreviated marker is written: ㈱ (one code point), (株) or （株）.
// NFKC folds all three to "(株)".
enum class AbbrevGlyph { Circled, Paren, WideParen };

// What separates a marker from the name: nothing, " " or the ideographic space "　".
enum class MarkerSpace { None, Half, Ideographic };

// How one e-mail writes one company: every mention in the e-mail uses the same style,
// so the most detailed form is a single string.
struct NameStyle {
    AbbrevGlyph glyph = AbbrevGlyph::Paren;
    bool fullWidthLatin = false; // ASCII letters and digits of the stem as ＡＢＣ / ３
    MarkerSpace space = MarkerSpace::None;
};

// A fictional organization's name, built from parts. The stem identifies it: data
// splits are decided by the stem, so that no stem is shared between splits.
struct CompanyName {
    std::string stem;          // きらめき, 北栄, SORA (always stored half-width)
    std::string stemRomaji;    // kirameki, hokuei, sora
    std::string stemEnglish;   // Kirameki, Hokuei, Blue Wave, SORA
    std::string stemInitials;  // k, he, bw, sora
    StemScript script = StemScript::Kanji;
    OrgKind kind = OrgKind::Business;
    std::string industry;      // 商事 (may be empty: 株式会社グリーンポット)
    std::string industryRomaji;   // shoji
    std::string industryEnglish;  // Trading
    std::string industryAbbr;     // sj: for domains such as kirameki-sj
    std::string industryInitials; // sj: for acronym domains such as ksj
    std::string shortAlias;    // the short form's ending instead of industry + marker (信金); "" for none
    std::string marker;        // 株式会社, 医療法人, …; "" for none
    std::string abbrev;        // 株, 有, 合: the marker's abbreviation; "" when it has none
    bool markerAfter = false;  // X株式会社 rather than 株式会社X
    bool alwaysFull = false;   // no short form is ever written (あけぼの監査法人)
    std::string englishSuffix; // Co., Ltd. / Inc. / LLC; "" when the name has no English form

    // Full when there is a marker, else Short.
    NameForm mostDetailedForm() const;
    // Whether `form` exists for this name (Abbreviated needs an abbreviation; Short
    // does not exist for alwaysFull names).
    bool hasForm(NameForm form) const;
    // The name as written in `form` and `style`; a form the name lacks falls back to
    // the nearest one it has (Abbreviated → Full, Short of an alwaysFull name → Full).
    std::string render(NameForm form, const NameStyle &style) const;
    // "Kirameki Trading Co., Ltd."; "" when the name has no English form.
    std::string englishName() const;
    // The part of the name without marker as written in `style` (the short form, or for
    // names with a short alias the stem plus the industry).
    std::string core(const NameStyle &style) const;

    // A label a mail domain could use, with a relative weight.
    struct DomainLabel {
        std::string label;
        unsigned weight;
    };
    // Romanizations, abbreviations and acronyms of the name (kirameki, kirameki-shoji,
    // ksj, kirameki-trading, …), each lower-case ASCII.
    std::vector<DomainLabel> domainLabels() const;
};

// ASCII letters and digits as their full-width forms (A → Ａ, 3 → ３); the rest unchanged.
std::string toFullWidthAscii(const std::string &text);

} // namespace rwb::data
