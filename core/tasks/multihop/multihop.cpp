#include "tasks/multihop/multihop.h"

#include "data/jsonfields.h"
#include "util/rng.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <ostream>
#include <set>
#include <stdexcept>

namespace rwb::data {

namespace {

// Name parts. Every combination is fictional; a few parts are shared on purpose, so that
// names look alike (ミナト精機 / ミナト精工, people sharing a family name).
constexpr std::array kFamilyNames{"朝霧", "真砂", "水城", "鷹野", "白鳥", "雪村", "葛城", "椎名", "氷室", "久遠",
                                  "月岡", "榊原", "日向", "東雲", "柊",   "楠木", "御影", "霧生", "早瀬", "夏目",
                                  "小鳥遊", "七瀬", "天城", "深山", "若菜"};
constexpr std::array kGivenNames{"玲奈", "拓真", "美咲", "颯太", "千尋", "湊",   "紗季", "蒼",   "陽葵", "律",
                                 "結衣", "悠真", "詩織", "樹",   "琴音", "大和", "灯",   "朔",   "雫",   "迅"};
constexpr std::array kOrgStems{"ミナト", "アオバ", "ホシノ", "北辰", "白鷺", "青嶺", "カナメ", "ツバサ",
                               "紫苑", "翠光", "ハルカ", "暁星", "銀杏", "コトブキ", "瑞穂", "蒼天"};
constexpr std::array kOrgSuffixes{"精機", "精工", "商事", "製薬", "物産", "電機", "海運", "書房", "食品", "建設"};
constexpr std::array kBusiness{"精密機器", "医薬品", "海運", "出版", "食品", "電子部品", "建設", "繊維",
                               "化学", "造船"};
constexpr std::array kCityHeads{"澄", "星", "鈴", "雪", "霞", "朱", "月", "琴", "風", "白", "花", "銀",
                                "潮", "緋", "藍", "宵", "柚", "鏡", "萩", "灯", "青", "紅", "鳴", "霧"};
constexpr std::array kCityTails{"川", "野", "浜", "坂", "原", "台", "森", "崎", "見", "沢"};
constexpr std::array kCountryStems{"ルミナ", "ザルカ", "オルテア", "ヴェスタ", "カリム", "ノルディア",
                                   "エルバ", "トラシア", "ミランダ", "セレス", "アルヴァ", "ケルン"};
constexpr std::array kCountrySuffixes{"共和国", "王国", "連邦"};
constexpr std::array kOccupations{"技師", "医師", "建築家", "弁護士", "料理人", "研究者", "作家", "教師",
                                  "会計士", "写真家"};

// Relations and attributes, as questions write them.
constexpr const char *kBirthplace = "出身地";
constexpr const char *kEmployer = "勤務先";
constexpr const char *kBirthYear = "生年";
constexpr const char *kOccupation = "職業";
constexpr const char *kFounder = "創業者";
constexpr const char *kRepresentative = "代表者";
constexpr const char *kHeadOffice = "本社所在地";
constexpr const char *kFounded = "設立年";
constexpr const char *kBusinessLine = "業種";
constexpr const char *kCountry = "所属国";
constexpr const char *kMayor = "市長";
constexpr const char *kPopulation = "人口";
constexpr const char *kCapital = "首都";
constexpr const char *kLanguage = "公用語";

// The question word for what the last hop gives.
const char *questionWord(const std::string &relation, int target, const std::vector<KbEntity> &entities)
{
    if (target >= 0)
        return entities[static_cast<size_t>(target)].kind == EntityKind::Person ? "誰" : "どこ";
    if (relation == kBirthYear || relation == kFounded)
        return "何年";
    if (relation == kPopulation)
        return "どのくらい";
    return "何";
}

// How many of `total` fall in a split's block: val and test at least one each.
struct Blocks {
    size_t train = 0, val = 0, test = 0;
};

Blocks blocks(size_t total, unsigned valPercent, unsigned testPercent)
{
    Blocks b;
    b.val = std::max<size_t>(1, (total * valPercent + 50) / 100);
    b.test = std::max<size_t>(1, (total * testPercent + 50) / 100);
    b.train = total - b.val - b.test;
    return b;
}

} // namespace

const char *toString(EntityKind kind)
{
    switch (kind) {
    case EntityKind::Person:
        return "person";
    case EntityKind::Organization:
        return "organization";
    case EntityKind::City:
        return "city";
    case EntityKind::Country:
        return "country";
    }
    return "?";
}

const KbFact *KbEntity::fact(std::string_view relation) const
{
    for (const KbFact &f : facts)
        if (f.relation == relation)
            return &f;
    return nullptr;
}

struct MultihopGenerator::Impl {
    MultihopOptions options;
    std::vector<KbEntity> entities;
    // Index ranges of each kind in `entities`.
    size_t firstPerson = 0, firstOrg = 0, firstCity = 0, firstCountry = 0;
    Blocks personBlocks, orgBlocks;

    void build();
};

void MultihopGenerator::Impl::build()
{
    const MultihopOptions &o = options;
    util::Rng rng = util::Rng::forStream(o.seed, 0x4D484B42 /* "MHKB" */, 0);
    std::set<std::string> used;
    // A name not used yet from `make` (retried with new draws; the pools are sized so that
    // this ends).
    const auto uniqueName = [&](auto make) {
        for (int tries = 0; tries < 1000000; ++tries) {
            std::string name = make();
            if (used.insert(name).second)
                return name;
        }
        throw std::logic_error("multihop: the name pools are too small for the options"); // checked in the constructor
    };
    const auto add = [&](EntityKind kind, char letter, size_t index, std::string name) {
        KbEntity e;
        char id[16];
        std::snprintf(id, sizeof id, "%c%03zu", letter, index);
        e.id = id;
        e.kind = kind;
        e.name = std::move(name);
        entities.push_back(std::move(e));
    };
    firstCountry = entities.size();
    for (size_t i = 0; i < o.countries; ++i)
        add(EntityKind::Country, 'N', i, uniqueName([&] {
                return std::string(rng.pick(kCountryStems)) + rng.pick(kCountrySuffixes);
            }));
    firstCity = entities.size();
    for (size_t i = 0; i < o.cities; ++i)
        add(EntityKind::City, 'C', i, uniqueName([&] {
                return std::string(rng.pick(kCityHeads)) + rng.pick(kCityTails) + "市";
            }));
    firstOrg = entities.size();
    for (size_t i = 0; i < o.organizations; ++i)
        add(EntityKind::Organization, 'O', i,
            uniqueName([&] { return std::string(rng.pick(kOrgStems)) + rng.pick(kOrgSuffixes); }));
    firstPerson = entities.size();
    for (size_t i = 0; i < o.people; ++i)
        add(EntityKind::Person, 'P', i,
            uniqueName([&] { return std::string(rng.pick(kFamilyNames)) + " " + rng.pick(kGivenNames); }));

    const auto pickOf = [&](size_t first, size_t count) { return static_cast<int>(first + rng.below(count)); };
    const auto link = [&](KbEntity &e, const char *relation, int target) {
        e.facts.push_back({relation, entities[static_cast<size_t>(target)].name, target});
    };
    const auto attribute = [&](KbEntity &e, const char *relation, std::string value) {
        e.facts.push_back({relation, std::move(value), -1});
    };
    // Countries: a capital among their cities (set below, once cities have countries).
    for (size_t i = 0; i < o.cities; ++i) {
        KbEntity &c = entities[firstCity + i];
        // The first `countries` cities give each country at least one city.
        const int country = i < o.countries ? static_cast<int>(firstCountry + i) : pickOf(firstCountry, o.countries);
        link(c, kCountry, country);
        link(c, kMayor, pickOf(firstPerson, o.people));
        attribute(c, kPopulation, "約" + std::to_string(rng.between(3, 95)) + "万人");
    }
    for (size_t i = 0; i < o.countries; ++i) {
        KbEntity &n = entities[firstCountry + i];
        std::vector<int> own;
        for (size_t c = 0; c < o.cities; ++c)
            if (entities[firstCity + c].facts[0].target == static_cast<int>(firstCountry + i))
                own.push_back(static_cast<int>(firstCity + c));
        link(n, kCapital, own[rng.below(own.size())]);
        std::string stem = n.name; // the name without its 共和国 / 王国 / 連邦
        for (std::string_view suffix : kCountrySuffixes)
            if (stem.size() > suffix.size() && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
                stem.erase(stem.size() - suffix.size());
        attribute(n, kLanguage, stem + "語");
    }
    for (size_t i = 0; i < o.organizations; ++i) {
        KbEntity &e = entities[firstOrg + i];
        const int founder = pickOf(firstPerson, o.people);
        int representative = pickOf(firstPerson, o.people);
        while (representative == founder)
            representative = pickOf(firstPerson, o.people);
        link(e, kFounder, founder);
        link(e, kRepresentative, representative);
        link(e, kHeadOffice, pickOf(firstCity, o.cities));
        attribute(e, kFounded, std::to_string(rng.between(1890, 2015)) + "年");
        attribute(e, kBusinessLine, rng.pick(kBusiness));
    }
    for (size_t i = 0; i < o.people; ++i) {
        KbEntity &e = entities[firstPerson + i];
        link(e, kBirthplace, pickOf(firstCity, o.cities));
        link(e, kEmployer, pickOf(firstOrg, o.organizations));
        attribute(e, kBirthYear, std::to_string(rng.between(1940, 1999)) + "年");
        attribute(e, kOccupation, rng.pick(kOccupations));
    }
    personBlocks = blocks(o.people, o.valPercent, o.testPercent);
    orgBlocks = blocks(o.organizations, o.valPercent, o.testPercent);
}

MultihopGenerator::MultihopGenerator(const MultihopOptions &options) : m_d(std::make_unique<Impl>())
{
    const auto check = [](bool ok, const std::string &what) {
        if (!ok)
            throw std::invalid_argument("multihop: " + what);
    };
    check(options.countries >= 2 && options.countries <= 24, "countries must be within 2–24");
    // At most 2/3 of each name pool, so that drawing unique names ends quickly.
    check(options.cities >= options.countries && options.cities <= 160,
          "cities must be at least the number of countries and at most 160");
    check(options.organizations >= 6 && options.organizations <= 100, "organizations must be within 6–100");
    check(options.people >= 6 && options.people <= 330, "people must be within 6–330");
    check(options.valPercent + options.testPercent <= 60, "val and test percent together must be at most 60");
    m_d->options = options;
    m_d->build();
}

MultihopGenerator::~MultihopGenerator() = default;

const MultihopOptions &MultihopGenerator::options() const
{
    return m_d->options;
}

const std::vector<KbEntity> &MultihopGenerator::entities() const
{
    return m_d->entities;
}

std::string MultihopGenerator::passageTitle(size_t i) const
{
    return m_d->entities.at(i).name;
}

std::string MultihopGenerator::passageText(size_t i) const
{
    const KbEntity &e = m_d->entities.at(i);
    const auto v = [&](const char *relation) { return e.fact(relation)->value; };
    switch (e.kind) {
    case EntityKind::Person:
        return e.name + "は、" + v(kBirthYear) + "生まれの" + v(kOccupation) + "である。" + v(kBirthplace) +
               "の出身で、" + v(kEmployer) + "に勤務している。";
    case EntityKind::Organization:
        return e.name + "は、" + v(kFounded) + "に" + v(kFounder) + "が設立した" + v(kBusinessLine) +
               "の会社である。本社は" + v(kHeadOffice) + "にあり、現在の代表者は" + v(kRepresentative) + "である。";
    case EntityKind::City:
        return e.name + "は" + v(kCountry) + "の都市である。人口は" + v(kPopulation) + "で、市長は" + v(kMayor) +
               "が務めている。";
    case EntityKind::Country:
        return e.name + "は、" + v(kCapital) + "を首都とする国である。公用語は" + v(kLanguage) + "である。";
    }
    return {};
}

MultihopQuestion MultihopGenerator::question(DataSplit split, uint64_t index) const
{
    const Impl &d = *m_d;
    util::Rng rng = util::Rng::forStream(d.options.seed, 0x4D485100 + static_cast<uint64_t>(split), index);
    // The starting entities of the split: a block of the people or of the organizations.
    const auto range = [&](const Blocks &b, size_t first) -> std::pair<size_t, size_t> {
        switch (split) {
        case DataSplit::Train:
            return {first, b.train};
        case DataSplit::Val:
            return {first + b.train, b.val};
        case DataSplit::Test:
            break;
        }
        return {first + b.train + b.val, b.test};
    };
    const int hops = static_cast<int>(2 + rng.weighted({40, 35, 25}));
    for (;;) { // a walk that gets stuck (every relation leads back) is drawn again
        const bool fromPerson = rng.chance(0.5);
        const auto [first, count] = fromPerson ? range(d.personBlocks, d.firstPerson) : range(d.orgBlocks, d.firstOrg);
        size_t at = first + rng.below(count);
        std::set<size_t> visited{at};
        MultihopQuestion q;
        q.hops = hops;
        q.split = split;
        std::string phrase = d.entities[at].name;
        bool stuck = false;
        for (int h = 0; h < hops; ++h) {
            const KbEntity &e = d.entities[at];
            const bool last = h + 1 == hops;
            std::vector<const KbFact *> options;
            for (const KbFact &f : e.facts)
                if (f.target >= 0 ? visited.count(static_cast<size_t>(f.target)) == 0 : last)
                    options.push_back(&f);
            if (options.empty()) {
                stuck = true;
                break;
            }
            const KbFact &f = *options[rng.below(options.size())];
            MultihopStep s;
            s.entity = e.name;
            s.relation = f.relation;
            s.subquery = e.name + " " + f.relation;
            s.passageId = e.passageId();
            s.value = f.value;
            s.subanswer = e.name + "の" + f.relation + "は" + f.value + "です。";
            q.chain.push_back(s);
            if (std::find(q.goldPassages.begin(), q.goldPassages.end(), s.passageId) == q.goldPassages.end())
                q.goldPassages.push_back(s.passageId);
            phrase += "の" + f.relation;
            if (last) {
                q.answer = f.value;
                q.question = phrase + "は" + questionWord(f.relation, f.target, d.entities) + "ですか。";
            } else {
                at = static_cast<size_t>(f.target);
                visited.insert(at);
            }
        }
        if (stuck)
            continue;
        char id[32];
        std::snprintf(id, sizeof id, "%s-%06llu", std::string(splitName(split)).c_str(),
                      static_cast<unsigned long long>(index + 1));
        q.id = id;
        return q;
    }
}

size_t writeMultihopCorpusJsonl(const MultihopGenerator &generator, std::ostream &out)
{
    const std::vector<KbEntity> &entities = generator.entities();
    for (size_t i = 0; i < entities.size(); ++i) {
        nlohmann::ordered_json j;
        j["id"] = entities[i].passageId();
        j["title"] = generator.passageTitle(i);
        j["text"] = generator.passageText(i);
        j["meta"] = {{"kind", toString(entities[i].kind)}, {"entity", entities[i].id}, {"name", entities[i].name}};
        out << j.dump() << "\n";
    }
    return entities.size();
}

std::string toJsonLine(const MultihopQuestion &q)
{
    nlohmann::ordered_json j;
    j["id"] = q.id;
    j["task"] = kMultihopTask;
    j["question"] = q.question;
    j["answer"] = q.answer;
    j["hops"] = q.hops;
    nlohmann::ordered_json chain = nlohmann::ordered_json::array();
    for (const MultihopStep &s : q.chain) {
        nlohmann::ordered_json o{{"entity", s.entity},         {"relation", s.relation},   {"subquery", s.subquery},
                                 {"passage", s.passageId},     {"subanswer", s.subanswer}, {"value", s.value}};
        if (!s.retrieved.empty()) {
            nlohmann::ordered_json r = nlohmann::ordered_json::array();
            for (const RetrievedPassage &p : s.retrieved)
                r.push_back({{"id", p.id}, {"title", p.title}, {"text", p.text}});
            o["retrieved"] = std::move(r);
        }
        chain.push_back(std::move(o));
    }
    j["chain"] = std::move(chain);
    j["gold_passages"] = q.goldPassages;
    j["split"] = std::string(splitName(q.split));
    if (q.hasCompletion)
        j["completion"] = q.completion;
    if (!q.target.empty()) {
        j["target"] = q.target;
        j["context_steps"] = q.contextSteps;
    }
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

MultihopQuestion parseMultihopQuestionLine(std::string_view line, const std::string &source, size_t lineNo)
{
    namespace jf = jsonfields;
    const jf::Place place{source, lineNo};
    const nlohmann::json obj = jf::parseObject(line, place);
    MultihopQuestion q;
    q.line = lineNo;
    q.id = jf::requireId(obj, place);
    if (const auto t = obj.find("task"); t != obj.end()) {
        const std::string task = jf::asString(*t, "task", place);
        if (task != kMultihopTask)
            jf::fail(place, "unknown task \"" + task + "\" (allowed: multihop)");
    }
    q.question = jf::asString(jf::require(obj, "question", place), "question", place);
    if (q.question.find_first_not_of(" \t\r\n") == std::string::npos)
        jf::fail(place, "field \"question\" is empty");
    if (!obj.contains("answer"))
        jf::fail(place, "missing field \"answer\" (the gold answer that search values and metrics compare against)");
    q.answer = jf::asString(obj["answer"], "answer", place);
    if (q.answer.find_first_not_of(" \t\r\n") == std::string::npos)
        jf::fail(place, "field \"answer\" is empty (the gold answer that search values and metrics compare against)");
    if (const auto c = obj.find("chain"); c != obj.end()) {
        if (!c->is_array())
            jf::fail(place, "field \"chain\" must be an array of steps");
        for (size_t i = 0; i < c->size(); ++i) {
            const nlohmann::json &o = (*c)[i];
            const std::string path = "chain[" + std::to_string(i) + "]";
            if (!o.is_object())
                jf::fail(place, "field \"" + path + "\" must be an object");
            MultihopStep s;
            const auto str = [&](const char *key, std::string &out, bool required) {
                const auto it = o.find(key);
                if (it == o.end()) {
                    if (required)
                        jf::fail(place, "missing field \"" + path + "." + key + "\"");
                    return;
                }
                out = jf::asString(*it, path + "." + key, place);
            };
            str("entity", s.entity, false);
            str("relation", s.relation, false);
            str("subquery", s.subquery, true);
            str("passage", s.passageId, false);
            str("subanswer", s.subanswer, true);
            str("value", s.value, false);
            if (const auto r = o.find("retrieved"); r != o.end()) {
                if (!r->is_array())
                    jf::fail(place, "field \"" + path + ".retrieved\" must be an array of passages");
                for (size_t k = 0; k < r->size(); ++k) {
                    const nlohmann::json &p = (*r)[k];
                    const std::string pp = path + ".retrieved[" + std::to_string(k) + "]";
                    if (!p.is_object())
                        jf::fail(place, "field \"" + pp + "\" must be an object {id, title, text}");
                    RetrievedPassage passage;
                    passage.id = jf::asString(jf::require(p, "id", place), pp + ".id", place);
                    if (const auto t = p.find("title"); t != p.end())
                        passage.title = jf::asString(*t, pp + ".title", place);
                    passage.text = jf::asString(jf::require(p, "text", place), pp + ".text", place);
                    s.retrieved.push_back(std::move(passage));
                }
            }
            q.chain.push_back(std::move(s));
        }
    }
    if (const auto g = obj.find("gold_passages"); g != obj.end())
        q.goldPassages = jf::asStringArray(*g, "gold_passages", place);
    if (const auto h = obj.find("hops"); h != obj.end())
        q.hops = static_cast<int>(jf::asInteger(*h, "hops", place));
    else
        q.hops = static_cast<int>(q.chain.size());
    if (const auto sp = obj.find("split"); sp != obj.end()) {
        const std::string name = jf::asString(*sp, "split", place);
        const auto split = parseSplit(name);
        if (!split)
            jf::fail(place, "field \"split\" must be train, val or test, not \"" + name + "\"");
        q.split = *split;
    }
    if (const auto c = obj.find("completion"); c != obj.end()) {
        q.completion = jf::asString(*c, "completion", place);
        q.hasCompletion = true;
    }
    if (const auto t = obj.find("target"); t != obj.end())
        q.target = jf::asString(*t, "target", place);
    if (const auto c = obj.find("context_steps"); c != obj.end())
        for (int64_t i : jf::asIntegerArray(*c, "context_steps", place)) {
            if (i < 0)
                jf::fail(place, "field \"context_steps\" holds " + std::to_string(i) + ": step indexes are ≥ 0");
            q.contextSteps.push_back(static_cast<int>(i));
        }
    return q;
}

std::vector<MultihopQuestion> readMultihopQuestions(const std::string &path, std::vector<InputError> *skipped)
{
    std::vector<MultihopQuestion> out;
    forEachRecordLine(readTextFile(path), skipped, [&](size_t lineNo, std::string_view line) {
        out.push_back(parseMultihopQuestionLine(line, path, lineNo));
    });
    return out;
}

size_t writeMultihopQuestionsJsonl(const MultihopGenerator &generator, DataSplit split, size_t n, std::ostream &out)
{
    for (size_t i = 0; i < n; ++i)
        out << toJsonLine(generator.question(split, i)) << "\n";
    return n;
}

} // namespace rwb::data
