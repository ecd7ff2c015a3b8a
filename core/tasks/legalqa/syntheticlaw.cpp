#include "tasks/legalqa/syntheticlaw.h"

#include "tasks/legalqa/legalphrases.h"
#include "text/placeholders.h"
#include "util/rng.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <stdexcept>
#include <tuple>

namespace rwb::data {

namespace {

using util::Rng;
namespace lp = legalphrases;

// Stream tags: every random decision draws from its own stream, so that, e.g., the size of
// one statute never shifts the words of another.
constexpr uint64_t kThemeStream = 0x4C41570001ULL;   // which fields of law, in which order
constexpr uint64_t kStatuteStream = 0x4C41570002ULL; // one statute's sections (b = statute index)
constexpr uint64_t kCodeStream = 0x4C41570003ULL;    // the law codes
constexpr uint64_t kQuestionStream = 0x4C41570100ULL; // + split; b = question index
// The first law code; codes are a permutation of kFirstCode … kFirstCode + sections − 1.
constexpr int64_t kFirstCode = 101;
// Attempts at a question before giving up (the single pattern always succeeds, so this
// bound is never reached with the bundled phrase table).
constexpr int kQuestionAttempts = 200;
// Share of sections (percent) that get an exception (ただし…この限りでない) when their kind
// allows one and they have no near-duplicate.
constexpr uint64_t kExceptionPercent = 40;

using Vars = std::map<std::string, std::string>;

// Replaces every {name} in `tmpl` by vars[name]. An unknown name is a bug in the phrase
// table: std::logic_error naming it.
std::string expand(const std::string &tmpl, const Vars &vars)
{
    return text::expandPlaceholders(
        tmpl,
        [&](const std::string &name) {
            const auto it = vars.find(name);
            if (it == vars.end())
                throw std::logic_error("legal phrase table: unknown placeholder {" + name + "} in \"" + tmpl + "\"");
            return it->second;
        },
        "legal phrase table");
}

// The placeholder names of a template, in order, without repeats.
std::vector<std::string> placeholders(const std::string &tmpl)
{
    std::vector<std::string> out;
    size_t i = 0;
    while ((i = tmpl.find('{', i)) != std::string::npos) {
        const size_t close = tmpl.find('}', i);
        if (close == std::string::npos)
            break;
        std::string name = tmpl.substr(i + 1, close - i - 1);
        if (std::find(out.begin(), out.end(), name) == out.end())
            out.push_back(std::move(name));
        i = close + 1;
    }
    return out;
}

const lp::Slot *findSlot(const std::string &name)
{
    for (const lp::Slot &s : lp::slots())
        if (name == s.name)
            return &s;
    return nullptr;
}

// The fact slot a body placeholder fills, or "" when it is no fact ({op}, {trigger}, …).
std::string factSlotOf(const std::string &placeholder)
{
    if (placeholder == "auth")
        return "authority";
    if (placeholder == "party")
        return "party";
    return findSlot(placeholder) ? placeholder : std::string();
}

bool endsWith(const std::string &s, const std::string &suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The value with every run of digits (and commas) replaced by '#': "30日以内" → "#日以内".
std::string shapeOf(const std::string &value)
{
    std::string out;
    for (char c : value) {
        const bool digit = (c >= '0' && c <= '9') || c == ',';
        if (!digit)
            out.push_back(c);
        else if (out.empty() || out.back() != '#')
            out.push_back('#');
    }
    return out;
}

// {q:deadline}: the question word for a deadline of this unit.
std::string deadlineQuestionWord(const std::string &value)
{
    return endsWith(value, "か月以内") ? "何か月以内" : "何日以内";
}

Vars themeVars(const lp::Theme &t)
{
    return {{"statute", t.statute}, {"act", t.act},   {"op", t.op},       {"lic", t.lic},     {"fac", t.fac},
            {"rec", t.rec},         {"user", t.user}, {"staff", t.staff}, {"chief", t.chief}, {"eq", t.eq},
            {"goods", t.goods},     {"assoc", t.assoc}, {"purpose", t.purpose}};
}

// A partial Fisher–Yates shuffle: the first k of 0 … n-1 in a random order.
std::vector<size_t> drawOrder(Rng &rng, size_t n, size_t k)
{
    std::vector<size_t> idx(n);
    for (size_t i = 0; i < n; ++i)
        idx[i] = i;
    k = std::min(k, n);
    for (size_t i = 0; i < k; ++i) {
        const size_t j = i + static_cast<size_t>(rng.below(n - i));
        std::swap(idx[i], idx[j]);
    }
    idx.resize(k);
    return idx;
}

std::string sectionRef(int number)
{
    return "第" + std::to_string(number) + "条";
}

enum class Role { Purpose, Rule, Special, Penalty };

} // namespace

struct SyntheticLawGenerator::Plan {
    struct Section {
        Role role = Role::Rule;
        const lp::RuleKind *kind = nullptr; // Purpose and Rule
        size_t statute = 0;
        int number = 0;
        int64_t code = 0;
        Vars vars;                          // theme words, slot values, trigger, refs
        std::vector<std::string> factSlots; // in text order (authority as "authority")
        std::string exception;              // "" when none
        std::string heading;
        std::vector<size_t> refs;      // Special: {base}; Penalty: obligations (plan indices)
        std::vector<size_t> specials;  // Rule: special sections that amend it
        std::vector<size_t> penalties; // Rule: penalty sections that cover it
        int group = -1;                // near-duplicate group (same kind, several triggers)
    };
    struct Statute {
        const lp::Theme *theme = nullptr;
        std::string id;
        DataSplit split = DataSplit::Train;
        std::vector<size_t> sections;            // plan indices, in order
        std::vector<std::vector<size_t>> groups; // near-duplicate groups of two or more
    };

    LegalSynthOptions options;
    std::vector<Statute> statutes;
    std::vector<Section> sections;
    std::vector<size_t> statutesOfSplit[3];
    LegalCorpus corpus;
    SlotUniverse universe;

    void planStatute(size_t index, const lp::Theme &theme);
    void assignCodes();
    void buildCorpus();

    LegalQuestion makeQuestion(DataSplit split, size_t index) const;

    // Question patterns; each returns false when the statute has nothing to build it from.
    struct Draft {
        std::string question, answer, pattern;
        std::vector<size_t> sections; // plan indices of the gold sections
        std::vector<LegalFact> facts;
    };
    bool single(Rng &rng, const Statute &st, Draft &d) const;
    bool special(Rng &rng, const Statute &st, Draft &d) const;
    bool penalty(Rng &rng, const Statute &st, Draft &d) const;
    bool obligationPenalty(Rng &rng, const Statute &st, Draft &d) const;
    bool contrast(Rng &rng, const Statute &st, Draft &d) const;
    bool combo(Rng &rng, const Statute &st, size_t k, Draft &d) const;
    bool specialPenalty(Rng &rng, const Statute &st, Draft &d) const;

    // The value of a fact slot of a section.
    std::string value(const Section &s, const std::string &slot) const;
    // Facts of `slots` as section s states them; `override` replaces one slot's value and
    // attributes it to another section (a special rule).
    void addFacts(Draft &d, const Section &s, const std::vector<const char *> &slots,
                  const Section *overrideBy = nullptr) const;
    // The answer sentence of an ask (with the section's exception, if any).
    std::string answerOf(const Section &s, const lp::Ask &ask, const Vars &vars) const;
    std::vector<size_t> askable(const Statute &st, bool needTopic) const;
};

namespace {

// Question and answer templates of the patterns that combine sections (see Plan::Draft).
const char *const kExceptionAnswer = "ただし、{exception}は、この限りではありません。";
const char *const kPenaltyAnswer = "{ref}に違反するため、{fine}に処せられます。";
const char *const kPenaltyTail = "違反した場合は、{fine}に処せられます。";
const std::vector<const char *> kPenaltyQuestions = {"{violation}場合、どのような罰則がありますか。",
                                                     "{violation}場合の罰則を教えてください。"};
const char *const kObligationPenaltyQuestion = "{op}の{topic}と、これに違反した場合の罰則を教えてください。";
const char *const kSpecialPrefix = "{place}に主たる事務所がある場合、";
const char *const kSpecialPenaltyQuestion =
    "{place}に主たる事務所がある{op}について、{topic}と、これに違反した場合の罰則を教えてください。";
const char *const kCombo2Question = "{act}について、{topic1}と{topic2}を教えてください。";
const char *const kCombo3Question = "{act}について、{topic1}、{topic2}及び{topic3}を教えてください。";

// Question patterns and their weights (percent).
enum Pattern { kSingle, kSpecial, kPenalty, kObligationPenalty, kContrast, kCombo2, kCombo3, kSpecialPenalty };
const std::vector<uint32_t> kPatternWeights = {56, 8, 7, 7, 9, 6, 3, 4};

} // namespace

void SyntheticLawGenerator::Plan::planStatute(size_t index, const lp::Theme &theme)
{
    Rng rng = Rng::forStream(options.seed, kStatuteStream, index);
    Statute st;
    st.theme = &theme;
    char id[16];
    std::snprintf(id, sizeof id, "S%02zu", index + 1);
    st.id = id;

    const size_t total = static_cast<size_t>(
        rng.between(static_cast<int64_t>(options.minSections), static_cast<int64_t>(options.maxSections)));
    const size_t nSpecial = static_cast<size_t>(rng.between(1, 2));
    const size_t nPenalty = static_cast<size_t>(rng.between(1, 2));
    size_t budget = total - 2 - nSpecial - nPenalty; // rule sections besides 目的 and the licence

    // Which kinds, how many copies: change_notice always (with its near-duplicates), the
    // others in a random order until the budget is spent.
    const std::vector<lp::RuleKind> &kinds = lp::ruleKinds();
    std::vector<size_t> order;
    size_t changeNotice = 0;
    for (size_t k = 0; k < kinds.size(); ++k)
        if (std::string(kinds[k].key) == "change_notice")
            changeNotice = k;
    order.push_back(changeNotice);
    for (size_t k : drawOrder(rng, kinds.size(), kinds.size()))
        if (k != changeNotice)
            order.push_back(k);
    std::vector<std::pair<size_t, size_t>> chosen; // (kind, copies)
    for (size_t k : order) {
        if (budget == 0)
            break;
        const size_t copies = std::min<size_t>(
            budget, static_cast<size_t>(rng.between(kinds[k].minCopies, kinds[k].maxCopies)));
        chosen.emplace_back(k, copies);
        budget -= copies;
    }
    std::stable_sort(chosen.begin(), chosen.end(),
                     [&](const auto &a, const auto &b) { return kinds[a.first].rank < kinds[b.first].rank; });

    const Vars theme0 = themeVars(theme);
    auto newSection = [&](Role role, const lp::RuleKind *kind) -> Section & {
        sections.emplace_back();
        Section &s = sections.back();
        s.role = role;
        s.kind = kind;
        s.statute = index;
        s.vars = theme0;
        st.sections.push_back(sections.size() - 1);
        return s;
    };

    // Fills a rule section of `kind`: body, authority, trigger, slot values (distinct from
    // `used` for near-duplicates), exception.
    auto fillRule = [&](Section &s, const lp::RuleKind &kind, int trigger, bool nearDuplicate,
                        std::map<std::string, std::set<std::string>> &used) {
        const std::string body = kind.bodies[static_cast<size_t>(rng.below(kind.bodies.size()))];
        s.vars["body"] = body;
        const size_t authority = rng.weighted({3, 1});
        s.vars["auth"] = authority == 0 ? theme.authority : lp::localAuthority();
        const size_t party = rng.weighted({1, 1});
        s.vars["party"] = party == 0 ? theme.chief : theme.staff;
        if (trigger >= 0) {
            const lp::Trigger &t = kind.triggers[static_cast<size_t>(trigger)];
            s.vars["trigger"] = expand(t.text, theme0);
            s.heading = expand(t.heading, theme0);
        } else {
            s.heading = expand(kind.heading, theme0);
        }
        for (const std::string &name : placeholders(body)) {
            const std::string slot = factSlotOf(name);
            if (slot.empty())
                continue;
            s.factSlots.push_back(slot);
            const lp::Slot *def = findSlot(name);
            if (!def)
                continue; // authority and party are drawn above
            std::vector<const char *> allowed = def->values;
            if (kind.valueLimit > 0 && kind.valueLimit < allowed.size())
                allowed.resize(kind.valueLimit);
            std::vector<const char *> candidates;
            for (const char *v : allowed)
                if (!used[name].count(v))
                    candidates.push_back(v);
            if (candidates.empty())
                candidates = allowed;
            const std::string v = candidates[static_cast<size_t>(rng.below(candidates.size()))];
            s.vars[name] = v;
            used[name].insert(v);
        }
        if (!nearDuplicate && !kind.exceptions.empty() && rng.below(100) < kExceptionPercent) {
            s.exception = expand(kind.exceptions[static_cast<size_t>(rng.below(kind.exceptions.size()))], theme0);
            s.factSlots.push_back("exception");
        }
        s.vars["exception"] = s.exception;
    };

    std::map<std::string, std::set<std::string>> noneUsed;
    {
        Section &s = newSection(Role::Purpose, &lp::purposeKind());
        fillRule(s, lp::purposeKind(), -1, false, noneUsed);
    }
    {
        Section &s = newSection(Role::Rule, &lp::registrationKind());
        std::map<std::string, std::set<std::string>> used;
        fillRule(s, lp::registrationKind(), -1, false, used);
    }
    for (const auto &[k, copies] : chosen) {
        const lp::RuleKind &kind = kinds[k];
        const std::vector<size_t> triggers = drawOrder(rng, kind.triggers.size(), copies);
        std::map<std::string, std::set<std::string>> used;
        std::vector<size_t> group;
        for (size_t c = 0; c < copies; ++c) {
            Section &s = newSection(Role::Rule, &kind);
            const int trigger = kind.triggers.empty() ? -1 : static_cast<int>(triggers[c]);
            fillRule(s, kind, trigger, copies > 1, used);
            group.push_back(sections.size() - 1);
        }
        if (group.size() > 1) {
            for (size_t i : group)
                sections[i].group = static_cast<int>(st.groups.size());
            st.groups.push_back(group);
        }
    }

    // Special rules (特例): each amends one value of a distinct rule section.
    std::vector<size_t> bases;
    for (size_t i : st.sections)
        if (sections[i].role == Role::Rule && sections[i].kind->specialSlot)
            bases.push_back(i);
    for (size_t pick : drawOrder(rng, bases.size(), nSpecial)) {
        const size_t base = bases[pick];
        const std::string slot = sections[base].kind->specialSlot;
        const std::string old = sections[base].vars.at(slot);
        // Another value of the same unit ("30日以内" → "60日以内", never "1か月以内").
        std::vector<const char *> others;
        for (const char *v : findSlot(slot)->values)
            if (old != v && shapeOf(old) == shapeOf(v))
                others.push_back(v);
        if (others.empty())
            for (const char *v : findSlot(slot)->values)
                if (old != v)
                    others.push_back(v);
        const std::string place = lp::specialPlaces()[static_cast<size_t>(rng.below(lp::specialPlaces().size()))];
        const std::string fresh = others[static_cast<size_t>(rng.below(others.size()))];
        Section &s = newSection(Role::Special, nullptr);
        s.vars["place"] = place;
        s.vars["old"] = old;
        s.vars["new"] = fresh;
        s.vars["slot"] = slot;
        s.factSlots = {slot};
        s.heading = place + "における特例";
        s.refs = {base};
        sections[base].specials.push_back(sections.size() - 1);
    }
    // Keep special rules in the order of the sections they amend.
    std::stable_sort(st.sections.end() - static_cast<std::ptrdiff_t>(std::min(nSpecial, bases.size())), st.sections.end(),
                     [&](size_t a, size_t b) { return sections[a].refs[0] < sections[b].refs[0]; });

    // Penalties (罰則, 過料): each covers one or two obligations not yet covered.
    std::vector<size_t> obligations;
    for (size_t i : st.sections)
        if (sections[i].role == Role::Rule && sections[i].kind->violation)
            obligations.push_back(i);
    const std::vector<size_t> shuffled = drawOrder(rng, obligations.size(), obligations.size());
    const lp::Slot *fines = findSlot("fine");
    const std::vector<size_t> fineOrder = drawOrder(rng, fines->values.size(), nPenalty);
    size_t next = 0;
    for (size_t p = 0; p < nPenalty && next < shuffled.size(); ++p) {
        const size_t covers = std::min<size_t>(shuffled.size() - next, static_cast<size_t>(rng.between(1, 2)));
        std::vector<size_t> covered;
        for (size_t c = 0; c < covers; ++c)
            covered.push_back(obligations[shuffled[next++]]);
        std::sort(covered.begin(), covered.end());
        Section &s = newSection(Role::Penalty, nullptr);
        const std::string fine = fines->values[fineOrder[p]];
        s.vars["fine"] = fine;
        s.factSlots = {"fine"};
        s.heading = fine.find("過料") != std::string::npos ? "過料" : "罰則";
        s.refs = covered;
        for (size_t o : covered)
            sections[o].penalties.push_back(sections.size() - 1);
    }

    for (size_t n = 0; n < st.sections.size(); ++n)
        sections[st.sections[n]].number = static_cast<int>(n + 1);
    statutes.push_back(std::move(st));
}

void SyntheticLawGenerator::Plan::assignCodes()
{
    Rng rng = Rng::forStream(options.seed, kCodeStream, 0);
    const std::vector<size_t> perm = drawOrder(rng, sections.size(), sections.size());
    for (size_t i = 0; i < sections.size(); ++i)
        sections[i].code = kFirstCode + static_cast<int64_t>(perm[i]);
}

void SyntheticLawGenerator::Plan::buildCorpus()
{
    std::vector<LegalSection> out;
    for (const Statute &st : statutes) {
        for (size_t i : st.sections) {
            Section &p = sections[i];
            LegalSection s;
            s.code = p.code;
            s.statute = st.theme->statute;
            s.statuteId = st.id;
            s.section = p.number;
            s.heading = p.heading;
            s.split = st.split;
            s.title = s.statute + " " + sectionRef(p.number) + "（" + p.heading + "）";
            switch (p.role) {
            case Role::Purpose:
            case Role::Rule:
                s.kind = p.kind->key;
                s.text = expand(p.vars.at("body"), p.vars);
                // The exception qualifies the rule: it follows the first sentence.
                if (!p.exception.empty()) {
                    const size_t end = s.text.find("。");
                    s.text.insert(end == std::string::npos ? s.text.size() : end + std::string("。").size(),
                                  "ただし、" + p.exception + "は、この限りでない。");
                }
                break;
            case Role::Special: {
                const Section &base = sections[p.refs[0]];
                p.vars["a"] = std::to_string(base.number);
                s.kind = "special";
                s.text = expand(lp::specialBody(), p.vars);
                s.refersTo = {base.code};
                break;
            }
            case Role::Penalty:
                p.vars["a"] = std::to_string(sections[p.refs[0]].number);
                s.kind = "penalty";
                if (p.refs.size() == 1) {
                    s.text = expand(lp::penaltyBody1(), p.vars);
                } else {
                    p.vars["b"] = std::to_string(sections[p.refs[1]].number);
                    s.text = expand(lp::penaltyBody2(), p.vars);
                }
                for (size_t r : p.refs)
                    s.refersTo.push_back(sections[r].code);
                break;
            }
            for (const std::string &slot : p.factSlots)
                s.facts.push_back({p.code, slot, value(p, slot)});
            // Near-duplicates: rule sections of one family in one statute; special rules and
            // the sections they amend.
            for (size_t j : st.sections) {
                const Section &q = sections[j];
                if (j == i)
                    continue;
                const bool sameFamily = p.role == Role::Rule && q.role == Role::Rule &&
                                        std::string(p.kind->family) == q.kind->family;
                const bool amends = (p.role == Role::Special && p.refs[0] == j) ||
                                    (q.role == Role::Special && q.refs[0] == i);
                if (sameFamily || amends)
                    s.similarTo.push_back(q.code);
            }
            out.push_back(std::move(s));
        }
    }
    corpus = LegalCorpus(std::move(out));
    universe = corpus.slotUniverse();
}

std::string SyntheticLawGenerator::Plan::value(const Section &s, const std::string &slot) const
{
    if (slot == "authority")
        return s.vars.at("auth");
    if (slot == "exception")
        return s.exception;
    if (s.role == Role::Special)
        return s.vars.at("new");
    return s.vars.at(slot);
}

void SyntheticLawGenerator::Plan::addFacts(Draft &d, const Section &s, const std::vector<const char *> &slots,
                                           const Section *overrideBy) const
{
    for (const char *slot : slots) {
        if (overrideBy && overrideBy->vars.at("slot") == slot)
            d.facts.push_back({overrideBy->code, slot, overrideBy->vars.at("new")});
        else
            d.facts.push_back({s.code, slot, value(s, slot)});
    }
    if (!s.exception.empty())
        d.facts.push_back({s.code, "exception", s.exception});
}

std::string SyntheticLawGenerator::Plan::answerOf(const Section &s, const lp::Ask &ask, const Vars &vars) const
{
    std::string a = expand(ask.answer, vars);
    if (!s.exception.empty())
        a += expand(kExceptionAnswer, vars);
    return a;
}

std::vector<size_t> SyntheticLawGenerator::Plan::askable(const Statute &st, bool needTopic) const
{
    std::vector<size_t> out;
    for (size_t i : st.sections) {
        const Section &s = sections[i];
        if (s.role != Role::Rule || s.kind->asks.empty())
            continue;
        if (needTopic && !s.kind->asks[0].topic)
            continue;
        out.push_back(i);
    }
    return out;
}

namespace {

// Question variables of a section: its own, with {q:deadline} for its deadline.
Vars questionVars(const Vars &vars)
{
    Vars v = vars;
    if (auto it = v.find("deadline"); it != v.end())
        v["q:deadline"] = deadlineQuestionWord(it->second);
    return v;
}

const lp::Ask *askWithSlot(const lp::RuleKind &kind, const std::string &slot)
{
    for (const lp::Ask &a : kind.asks)
        for (const char *s : a.slots)
            if (slot == s)
                return &a;
    return nullptr;
}

} // namespace

bool SyntheticLawGenerator::Plan::single(Rng &rng, const Statute &st, Draft &d) const
{
    const std::vector<size_t> candidates = askable(st, false);
    if (candidates.empty())
        return false;
    const size_t si = candidates[static_cast<size_t>(rng.below(candidates.size()))];
    const Section &s = sections[si];
    const lp::Ask &ask = s.kind->asks[static_cast<size_t>(rng.below(s.kind->asks.size()))];
    const Vars v = questionVars(s.vars);
    d.question = expand(ask.questions[static_cast<size_t>(rng.below(ask.questions.size()))], v);
    d.answer = answerOf(s, ask, v);
    d.sections = {si};
    addFacts(d, s, ask.slots);
    d.pattern = "single";
    return true;
}

bool SyntheticLawGenerator::Plan::special(Rng &rng, const Statute &st, Draft &d) const
{
    std::vector<size_t> specials;
    for (size_t i : st.sections)
        if (sections[i].role == Role::Special)
            specials.push_back(i);
    if (specials.empty())
        return false;
    const size_t si = specials[static_cast<size_t>(rng.below(specials.size()))];
    const Section &sp = sections[si];
    const size_t bi = sp.refs[0];
    const Section &base = sections[bi];
    const lp::Ask *ask = askWithSlot(*base.kind, sp.vars.at("slot"));
    if (!ask)
        return false;
    Vars v = base.vars;
    v[sp.vars.at("slot")] = sp.vars.at("new");
    v["place"] = sp.vars.at("place");
    v = questionVars(v);
    const std::string prefix = expand(kSpecialPrefix, v);
    d.question = prefix + expand(ask->questions[static_cast<size_t>(rng.below(ask->questions.size()))], v);
    d.answer = prefix + answerOf(base, *ask, v);
    d.sections = {bi, si};
    addFacts(d, base, ask->slots, &sp);
    d.pattern = "special";
    return true;
}

bool SyntheticLawGenerator::Plan::penalty(Rng &rng, const Statute &st, Draft &d) const
{
    std::vector<size_t> penalties;
    for (size_t i : st.sections)
        if (sections[i].role == Role::Penalty)
            penalties.push_back(i);
    if (penalties.empty())
        return false;
    const size_t pi = penalties[static_cast<size_t>(rng.below(penalties.size()))];
    const Section &p = sections[pi];
    const size_t oi = p.refs[static_cast<size_t>(rng.below(p.refs.size()))];
    const Section &o = sections[oi];
    Vars v = p.vars;
    v["violation"] = expand(o.kind->violation, o.vars);
    v["ref"] = sectionRef(o.number);
    d.question = expand(kPenaltyQuestions[static_cast<size_t>(rng.below(kPenaltyQuestions.size()))], v);
    d.answer = expand(kPenaltyAnswer, v);
    d.sections = {oi, pi};
    d.facts.push_back({p.code, "fine", p.vars.at("fine")});
    d.pattern = "penalty";
    return true;
}

bool SyntheticLawGenerator::Plan::obligationPenalty(Rng &rng, const Statute &st, Draft &d) const
{
    std::vector<std::pair<size_t, size_t>> pairs; // (obligation, penalty)
    for (size_t i : st.sections)
        if (sections[i].role == Role::Penalty)
            for (size_t o : sections[i].refs)
                if (sections[o].kind->asks.size() && sections[o].kind->asks[0].topic)
                    pairs.emplace_back(o, i);
    if (pairs.empty())
        return false;
    const auto [oi, pi] = pairs[static_cast<size_t>(rng.below(pairs.size()))];
    const Section &o = sections[oi];
    const Section &p = sections[pi];
    const lp::Ask &ask = o.kind->asks[0];
    Vars v = questionVars(o.vars);
    v["topic"] = expand(ask.topic, v);
    v["fine"] = p.vars.at("fine");
    d.question = expand(kObligationPenaltyQuestion, v);
    d.answer = answerOf(o, ask, v) + expand(kPenaltyTail, v);
    d.sections = {oi, pi};
    addFacts(d, o, ask.slots);
    d.facts.push_back({p.code, "fine", p.vars.at("fine")});
    d.pattern = "obligation_penalty";
    return true;
}

bool SyntheticLawGenerator::Plan::contrast(Rng &rng, const Statute &st, Draft &d) const
{
    std::vector<size_t> groups;
    for (size_t g = 0; g < st.groups.size(); ++g)
        if (sections[st.groups[g][0]].kind->contrast2)
            groups.push_back(g);
    if (groups.empty())
        return false;
    const std::vector<size_t> &group = st.groups[groups[static_cast<size_t>(rng.below(groups.size()))]];
    const size_t k = group.size() >= 3 && rng.below(3) == 0 ? 3 : 2;
    std::vector<size_t> members;
    for (size_t m : drawOrder(rng, group.size(), k))
        members.push_back(group[m]);
    const lp::RuleKind &kind = *sections[members[0]].kind;
    Vars v = sections[members[0]].vars;
    std::string answer;
    for (size_t m = 0; m < members.size(); ++m) {
        const Section &s = sections[members[m]];
        v["trigger" + std::to_string(m + 1)] = s.vars.at("trigger");
        if (m)
            answer += "、";
        answer += expand(kind.contrastItem, s.vars);
        for (const std::string &name : placeholders(kind.contrastItem))
            if (const std::string slot = factSlotOf(name); !slot.empty())
                d.facts.push_back({s.code, slot, value(s, slot)});
    }
    d.question = expand(k == 3 ? kind.contrast3 : kind.contrast2, v);
    d.answer = answer + kind.contrastEnd;
    d.sections = members;
    d.pattern = "contrast";
    return true;
}

bool SyntheticLawGenerator::Plan::combo(Rng &rng, const Statute &st, size_t k, Draft &d) const
{
    // Three topics only from sections without an exception, to keep answers short.
    std::vector<size_t> candidates;
    for (size_t i : askable(st, true))
        if (k < 3 || sections[i].exception.empty())
            candidates.push_back(i);
    if (candidates.size() < k)
        return false;
    std::vector<size_t> picked;
    for (size_t m : drawOrder(rng, candidates.size(), k))
        picked.push_back(candidates[m]);
    std::sort(picked.begin(), picked.end());
    Vars v = themeVars(*st.theme);
    for (size_t m = 0; m < picked.size(); ++m) {
        const Section &s = sections[picked[m]];
        std::vector<const lp::Ask *> withTopic;
        for (const lp::Ask &a : s.kind->asks)
            if (a.topic)
                withTopic.push_back(&a);
        const lp::Ask &ask = *withTopic[static_cast<size_t>(rng.below(withTopic.size()))];
        const Vars sv = questionVars(s.vars);
        v["topic" + std::to_string(m + 1)] = expand(ask.topic, sv);
        d.answer += answerOf(s, ask, sv);
        addFacts(d, s, ask.slots);
    }
    d.question = expand(k == 3 ? kCombo3Question : kCombo2Question, v);
    d.sections = picked;
    d.pattern = "combo";
    return true;
}

bool SyntheticLawGenerator::Plan::specialPenalty(Rng &rng, const Statute &st, Draft &d) const
{
    std::vector<std::tuple<size_t, size_t, size_t>> triples; // (base, special, penalty)
    for (size_t i : st.sections) {
        const Section &b = sections[i];
        if (b.role != Role::Rule)
            continue;
        for (size_t s : b.specials)
            for (size_t p : b.penalties)
                if (const lp::Ask *a = askWithSlot(*b.kind, sections[s].vars.at("slot")); a && a->topic)
                    triples.emplace_back(i, s, p);
    }
    if (triples.empty())
        return false;
    const auto [bi, si, pi] = triples[static_cast<size_t>(rng.below(triples.size()))];
    const Section &base = sections[bi];
    const Section &sp = sections[si];
    const lp::Ask &ask = *askWithSlot(*base.kind, sp.vars.at("slot"));
    Vars v = base.vars;
    v[sp.vars.at("slot")] = sp.vars.at("new");
    v["place"] = sp.vars.at("place");
    v["fine"] = sections[pi].vars.at("fine");
    v = questionVars(v);
    v["topic"] = expand(ask.topic, v);
    d.question = expand(kSpecialPenaltyQuestion, v);
    d.answer = expand(kSpecialPrefix, v) + answerOf(base, ask, v) + expand(kPenaltyTail, v);
    d.sections = {bi, si, pi};
    addFacts(d, base, ask.slots, &sp);
    d.facts.push_back({sections[pi].code, "fine", sections[pi].vars.at("fine")});
    d.pattern = "special_penalty";
    return true;
}

LegalQuestion SyntheticLawGenerator::Plan::makeQuestion(DataSplit split, size_t index) const
{
    const std::vector<size_t> &pool = statutesOfSplit[static_cast<int>(split)];
    Rng rng = Rng::forStream(options.seed, kQuestionStream + static_cast<uint64_t>(split), index);
    std::vector<uint32_t> statuteWeights;
    for (size_t s : pool)
        statuteWeights.push_back(static_cast<uint32_t>(statutes[s].sections.size()));
    for (int attempt = 0; attempt < kQuestionAttempts; ++attempt) {
        const Statute &st = statutes[pool[rng.weighted(statuteWeights)]];
        const size_t pattern = rng.weighted(kPatternWeights);
        Draft d;
        bool ok = false;
        switch (pattern) {
        case kSingle:
            ok = single(rng, st, d);
            break;
        case kSpecial:
            ok = special(rng, st, d);
            break;
        case kPenalty:
            ok = penalty(rng, st, d);
            break;
        case kObligationPenalty:
            ok = obligationPenalty(rng, st, d);
            break;
        case kContrast:
            ok = contrast(rng, st, d);
            break;
        case kCombo2:
            ok = combo(rng, st, 2, d);
            break;
        case kCombo3:
            ok = combo(rng, st, 3, d);
            break;
        default:
            ok = specialPenalty(rng, st, d);
            break;
        }
        if (!ok)
            continue;
        std::sort(d.sections.begin(), d.sections.end(),
                  [&](size_t a, size_t b) { return sections[a].number < sections[b].number; });
        LegalQuestion q;
        q.id = idFor(split, index);
        q.question = d.question;
        q.referenceAnswer = d.answer;
        q.facts = d.facts;
        q.kind = d.sections.size() == 1 ? "single" : "multi";
        q.pattern = d.pattern;
        q.statutes = {st.id};
        std::string reasoning = st.theme->statute;
        for (size_t m = 0; m < d.sections.size(); ++m) {
            const Section &s = sections[d.sections[m]];
            q.lawCodes.push_back(s.code);
            if (m > 0)
                reasoning += m + 1 == d.sections.size() ? (d.sections.size() == 2 ? "と" : "及び") : "、";
            reasoning += sectionRef(s.number) + "（" + s.heading + "）";
        }
        q.reasoning = reasoning + "が関係する。";
        return q;
    }
    throw std::runtime_error("legal question " + idFor(split, index) + ": no question in " +
                             std::to_string(kQuestionAttempts) + " attempts");
}

size_t SyntheticLawGenerator::maxStatutes()
{
    return lp::themes().size();
}

SyntheticLawGenerator::SyntheticLawGenerator(const LegalSynthOptions &options)
{
    if (options.statutes < 3 || options.statutes > maxStatutes())
        throw std::invalid_argument("statutes must be between 3 and " + std::to_string(maxStatutes()));
    if (options.minSections < 12 || options.maxSections > 30 || options.minSections > options.maxSections)
        throw std::invalid_argument("sections per statute must satisfy 12 <= min <= max <= 30");
    if (options.valPercent > 40 || options.testPercent > 40)
        throw std::invalid_argument("val and test percent must be at most 40 each");

    auto plan = std::make_unique<Plan>();
    plan->options = options;
    const size_t n = options.statutes;
    const size_t nVal = std::max<size_t>(1, (n * options.valPercent + 50) / 100);
    const size_t nTest = std::max<size_t>(1, (n * options.testPercent + 50) / 100);
    if (nVal + nTest >= n)
        throw std::invalid_argument("val and test leave no statute for train");
    const size_t nTrain = n - nVal - nTest;

    Rng themeRng = Rng::forStream(options.seed, kThemeStream, 0);
    const std::vector<size_t> themeOrder = drawOrder(themeRng, lp::themes().size(), n);
    for (size_t k = 0; k < n; ++k) {
        plan->planStatute(k, lp::themes()[themeOrder[k]]);
        const DataSplit split = k < nTrain ? DataSplit::Train : k < nTrain + nVal ? DataSplit::Val : DataSplit::Test;
        plan->statutes[k].split = split;
        plan->statutesOfSplit[static_cast<int>(split)].push_back(k);
    }
    plan->assignCodes();
    plan->buildCorpus();
    m_plan = std::move(plan);
}

SyntheticLawGenerator::~SyntheticLawGenerator() = default;

const LegalSynthOptions &SyntheticLawGenerator::options() const
{
    return m_plan->options;
}

const LegalCorpus &SyntheticLawGenerator::corpus() const
{
    return m_plan->corpus;
}

const SlotUniverse &SyntheticLawGenerator::slotUniverse() const
{
    return m_plan->universe;
}

DataSplit SyntheticLawGenerator::splitOfStatute(const std::string &statuteId) const
{
    for (const Plan::Statute &st : m_plan->statutes)
        if (st.id == statuteId)
            return st.split;
    throw std::out_of_range("unknown statute \"" + statuteId + "\"");
}

LegalQuestion SyntheticLawGenerator::question(DataSplit split, size_t index) const
{
    LegalQuestion q = m_plan->makeQuestion(split, index);
    // The corpus's values of the question's slots: the grader recognises a wrong one.
    for (const LegalFact &f : q.facts) {
        const auto it = slotUniverse().find(f.slot);
        if (it != slotUniverse().end())
            q.slotValues[f.slot] = it->second;
    }
    return q;
}

std::vector<LegalQuestion> SyntheticLawGenerator::questions(DataSplit split, size_t n,
                                                            const std::function<bool(size_t, size_t)> &progress) const
{
    std::vector<LegalQuestion> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        out.push_back(question(split, i));
        if (progress && ((i + 1) % 1000 == 0 || i + 1 == n) && !progress(i + 1, n))
            break;
    }
    return out;
}

std::string SyntheticLawGenerator::idFor(DataSplit split, size_t index)
{
    char digits[32];
    std::snprintf(digits, sizeof digits, "%06zu", index + 1);
    return std::string(splitName(split)) + "-" + digits;
}

LegalCorpus generateLegalCorpus(const LegalSynthOptions &options)
{
    return SyntheticLawGenerator(options).corpus();
}

std::vector<LegalQuestion> generateLegalQuestions(const SyntheticLawGenerator &generator, DataSplit split, size_t n)
{
    return generator.questions(split, n);
}

size_t writeLegalCorpusJsonl(const LegalCorpus &corpus, std::ostream &out)
{
    for (const LegalSection &s : corpus.sections())
        out << toJsonLine(s) << '\n';
    return corpus.size();
}

size_t writeLegalQuestionsJsonl(const SyntheticLawGenerator &generator, DataSplit split, size_t n, std::ostream &out,
                                const std::function<bool(size_t, size_t)> &progress, size_t every)
{
    every = std::max<size_t>(1, every);
    for (size_t i = 0; i < n; ++i) {
        out << toJsonLine(generator.question(split, i)) << '\n';
        if (progress && ((i + 1) % every == 0 || i + 1 == n) && !progress(i + 1, n))
            return i + 1;
    }
    return n;
}

std::string legalTargetCompletion(const LegalQuestion &q)
{
    std::string out = "<reasoning>" + q.reasoning + "</reasoning>\n<answer>" + q.referenceAnswer +
                      "</answer>\n<citation>";
    for (int64_t code : q.lawCodes)
        out += "<law_code>" + std::to_string(code) + "</law_code>";
    return out + "</citation>";
}

} // namespace rwb::data
