#pragma once

#include <cstddef>
#include <vector>

// The word lists and sentence templates of the synthetic legal corpus (SyntheticLawGenerator).
// Plain data, in the order the generator draws from it: changing an entry changes the
// corpus of every seed, so treat edits as a new corpus (and update the fingerprint in
// tests/tst_legalqa.cpp and the figures in docs/data.md).
//
// Templates are UTF-8 with placeholders the generator fills in.
//   Statute words (Theme): {statute} {act} {op} {lic} {fac} {rec} {user} {staff} {chief}
//     {eq} {goods} {assoc} {purpose}; {auth} the authority the section names.
//   Slot values (see slots()): {deadline} {notice} {fee} {deposit} {fine} {validity}
//     {retention} {interval} {count} {capacity} {age} {rate} {ratio} {closing_time}
//     {opening_time} {duration} {distance} {temperature} {party} {authority} {exception}.
//     {auth} is the authority slot's value.
//   {trigger}: the situation of a rule with triggers (itself a template of statute words).
//   Questions only: {q:deadline} 何日以内 / 何か月以内, as the value's unit asks.
//   Contrast questions: {trigger1} {trigger2} {trigger3}.
namespace rwb::data::legalphrases {

// One fictional field of regulation: the vocabulary of one statute.
struct Theme {
    const char *statute;   // 浮島観光事業法
    const char *act;       // the regulated activity: 浮島観光事業
    const char *op;        // who carries it on: 浮島観光事業者
    const char *authority; // the statute's authority: 浮島管理局長
    const char *lic;       // 登録 / 許可 / 認可
    const char *fac;       // the facility: 発着場
    const char *rec;       // the record book: 運航日誌
    const char *user;      // the public it serves: 乗客
    const char *staff;     // its workers: 案内人
    const char *chief;     // the qualified person in charge: 運航管理者
    const char *eq;        // equipment that is inspected: 浮遊船
    const char *goods;     // goods that are stored: 浮遊石
    const char *assoc;     // the association of operators: 浮島観光協会
    const char *purpose;   // 浮島観光の健全な発展
};

// The statutes a corpus draws from (at least 20).
const std::vector<Theme> &themes();

// An authority every statute may name besides its own (所在地の市町村長).
const char *localAuthority();

// The values a slot takes. Numbers are Arabic digits, as the corpus writes them.
struct Slot {
    const char *name;
    std::vector<const char *> values;
};
const std::vector<Slot> &slots();

// A situation that triggers a rule, with the heading of the section it makes.
struct Trigger {
    const char *text;    // {trigger}: "代表者を変更した" (before とき / 場合)
    const char *heading; // "代表者の変更の届出"
};

// One thing a question can ask about a section, and how the reference answer says it.
struct Ask {
    std::vector<const char *> slots;     // the facts the answer states, in order
    std::vector<const char *> questions; // question templates (one is drawn)
    const char *answer;                  // the reference answer (one sentence)
    const char *topic;                   // a noun phrase for combined questions; nullptr: none
};

// A kind of rule: how a section of that kind reads and what can be asked about it.
struct RuleKind {
    const char *key;     // "change_notice"
    const char *heading; // the heading when the kind has no triggers
    int rank;            // the order of kinds within a statute
    const char *family;  // kinds of one family in one statute are near-duplicates (similar_to)
    std::vector<const char *> bodies;     // section templates (one is drawn)
    std::vector<Trigger> triggers;        // empty: the kind has none
    unsigned minCopies, maxCopies;        // sections of this kind in a statute that has it
    std::vector<const char *> exceptions; // ただし clauses it may have; empty: never
    std::vector<Ask> asks;
    const char *specialSlot;   // the slot a special rule (特例) may change; nullptr: none
    const char *violation;     // "{op}が{trigger}ときに届出をしなかった"; nullptr: no penalty
    // Contrast questions over near-duplicates (kinds with triggers): the questions for two
    // and three sections, one item per section ("{trigger}ときは{deadline}"), and the end.
    const char *contrast2;
    const char *contrast3;
    const char *contrastItem;
    const char *contrastEnd;
    // Slot values are drawn from the first valueLimit entries of each slot's list (the
    // shortest deadlines for accident reports); 0: from all of them.
    size_t valueLimit = 0;
};

// Every statute starts with these two (目的, then the licence), in this order.
const RuleKind &purposeKind();
const RuleKind &registrationKind();
// The other kinds, by rank.
const std::vector<RuleKind> &ruleKinds();

// Places a special rule (特例) applies to: "離島".
const std::vector<const char *> &specialPlaces();
// Penalty sections: one obligation, and two.
const char *penaltyBody1(); // 第{a}条の規定に違反した者は、{fine}に処する。…
const char *penaltyBody2(); // 第{a}条又は第{b}条の規定に違反した者は、{fine}に処する。…
// Special rules: 「{place}に主たる事務所を有する{op}についての第{a}条の規定の適用については、…」
const char *specialBody();

} // namespace rwb::data::legalphrases
