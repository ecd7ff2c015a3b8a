#pragma once

#include "tasks/extraction/extractionrecord.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace rwb::data {

// What an e-mail contains, found from its text alone (so it works on any dataset).
struct EmailFeatures {
    bool forwarded = false;      // a forwarded or original-message block: a line "From: …" / "差出人: …"
                                 // or a "Forwarded message" / "Original Message" / 転送メッセージ line
    bool quoted = false;         // a line that starts with ">" or "＞"
    bool circledKabu = false;    // ㈱ or ㈲
    bool parenKabu = false;      // (株) or （株）
    bool abbreviatedMarker = false; // any of ㈱ ㈲ (株) （株） (有) （有） (合) （合）
    bool fullWidthLatin = false; // a full-width letter or digit (Ａ–Ｚ, ａ–ｚ, ０–９)
    bool englishName = false;    // an English company suffix: "Co., Ltd.", "Inc.", "Corporation", "K.K.", "LLC"
};

// Features of header + "\n" + body.
EmailFeatures detectEmailFeatures(std::string_view senderHeader, std::string_view emailText);

// Summary figures of an extraction dataset, for `rwb data stats` and docs/data.md.
// Lengths are of email_text, in Unicode code points; lines count every line, blank ones
// too. Quantiles use the nearest-rank method (the value at rank ⌈q·n⌉ of the sorted list).
struct EmailStatsSummary {
    size_t count = 0;
    size_t unknown = 0; // gold 不明 after normalization
    struct Quantiles {
        size_t min = 0, median = 0, p90 = 0, max = 0;
        double mean = 0.0;
    };
    Quantiles chars, lines;
    // Shares of all e-mails (0 … 1).
    double forwardedShare = 0, quotedShare = 0, circledKabuShare = 0, parenKabuShare = 0,
           abbreviatedMarkerShare = 0, fullWidthLatinShare = 0, englishNameShare = 0;
    // Shares of the golds that are not 不明: with a full marker (株式会社, 医療法人, …), with
    // an abbreviated one ((株) …), without any; and with the marker after the name.
    double goldFullMarkerShare = 0, goldAbbreviatedMarkerShare = 0, goldNoMarkerShare = 0, goldMarkerAfterShare = 0;
    // Lines whose gold breaks the first paper's rule (goldRuleViolation), by id.
    std::vector<std::string> goldRuleViolations;
};

// Accumulates records one by one. Not thread-safe.
class EmailStats {
public:
    void add(const ExtractionRecord &record);
    EmailStatsSummary summary() const;

private:
    std::vector<size_t> m_chars, m_lines;
    size_t m_unknown = 0, m_forwarded = 0, m_quoted = 0, m_circled = 0, m_paren = 0, m_abbreviated = 0,
           m_fullWidth = 0, m_english = 0;
    size_t m_goldFull = 0, m_goldAbbreviated = 0, m_goldNone = 0, m_goldAfter = 0;
    std::vector<std::string> m_violations;
};

} // namespace rwb::data
