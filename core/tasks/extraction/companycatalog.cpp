#include "tasks/extraction/companycatalog.h"

#include "util/rng.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace rwb::data {

namespace {

constexpr unsigned bit(StemScript s)
{
    return 1u << static_cast<unsigned>(s);
}
constexpr unsigned K = bit(StemScript::Kanji);
constexpr unsigned H = bit(StemScript::Hiragana);
constexpr unsigned T = bit(StemScript::Katakana);
constexpr unsigned E = bit(StemScript::KatakanaEnglish);
constexpr unsigned L = bit(StemScript::Latin);

// Kanji stems are two characters: a first × a second, read on'yomi as in company
// names (北 + 栄 → 北栄, hokuei). Readings are written the way domains spell them
// (no long vowels: 東 to, 昭 sho).
struct Part {
    const char *text;
    const char *reading;
};
const Part kKanjiFirst[] = {
    {"北", "hoku"}, {"南", "nan"},  {"東", "to"},   {"西", "sei"},  {"中", "chu"},  {"大", "dai"},  {"新", "shin"},
    {"三", "san"},  {"日", "nichi"}, {"明", "mei"}, {"光", "ko"},   {"昭", "sho"},  {"富", "fu"},   {"平", "hei"},
    {"永", "ei"},   {"太", "tai"},  {"千", "sen"},  {"万", "man"},  {"共", "kyo"},  {"協", "kyo"},  {"丸", "maru"},
    {"金", "kin"},  {"星", "sei"},  {"朝", "cho"},  {"清", "sei"},  {"誠", "sei"},  {"泰", "tai"},  {"恒", "ko"},
    {"弘", "ko"},   {"双", "so"},   {"瑞", "zui"},  {"桜", "o"},    {"菱", "ryo"},  {"八", "hachi"}, {"九", "kyu"},
    {"興", "ko"},   {"国", "koku"}, {"鶴", "kaku"}, {"白", "haku"},
};
const Part kKanjiSecond[] = {
    {"和", "wa"},   {"栄", "ei"},   {"進", "shin"}, {"陽", "yo"},   {"洋", "yo"},   {"邦", "ho"},   {"成", "sei"},
    {"豊", "ho"},   {"信", "shin"}, {"輝", "ki"},   {"峰", "ho"},   {"泉", "sen"},  {"友", "yu"},   {"伸", "shin"},
    {"晃", "ko"},   {"昌", "sho"},  {"盛", "sei"},  {"宝", "ho"},   {"立", "ritsu"}, {"扇", "sen"}, {"鳳", "ho"},
    {"翔", "sho"},  {"亜", "a"},    {"拓", "taku"}, {"嶺", "rei"},  {"雄", "yu"},   {"秀", "shu"},  {"紘", "ko"},
};
// Combinations that are famous real companies (or read as one): left out.
const char *const kKanjiExcluded[] = {"日立", "三洋", "大成", "東邦", "日興", "東洋", "協和", "太陽", "明和", "大洋",
                                      "三栄", "日進", "新和", "光洋", "千代", "中央"};

struct Word {
    const char *text;
    const char *romaji;
    const char *english; // nullptr: the capitalized romaji
};
const Word kHiragana[] = {
    {"あおば", "aoba", nullptr},       {"きらめき", "kirameki", nullptr}, {"こがね", "kogane", nullptr},
    {"しおさい", "shiosai", nullptr},  {"ひので", "hinode", nullptr},     {"やまびこ", "yamabiko", nullptr},
    {"いろは", "iroha", nullptr},      {"みやび", "miyabi", nullptr},     {"さくら", "sakura", nullptr},
    {"ひまわり", "himawari", nullptr}, {"あさぎり", "asagiri", nullptr},  {"つばさ", "tsubasa", nullptr},
    {"かえで", "kaede", nullptr},      {"すずらん", "suzuran", nullptr},  {"ひばり", "hibari", nullptr},
    {"みずほ", "mizuho", nullptr},     {"あかね", "akane", nullptr},      {"なごみ", "nagomi", nullptr},
    {"ことぶき", "kotobuki", nullptr}, {"わかば", "wakaba", nullptr},     {"はるか", "haruka", nullptr},
    {"のぞみ", "nozomi", nullptr},     {"ひかり", "hikari", nullptr},     {"ふたば", "futaba", nullptr},
    {"みのり", "minori", nullptr},     {"あすなろ", "asunaro", nullptr},  {"こもれび", "komorebi", nullptr},
    {"せせらぎ", "seseragi", nullptr}, {"たちばな", "tachibana", nullptr}, {"つくし", "tsukushi", nullptr},
    {"なでしこ", "nadeshiko", nullptr}, {"ほたる", "hotaru", nullptr},    {"まほろば", "mahoroba", nullptr},
    {"ゆうなぎ", "yunagi", nullptr},   {"よつば", "yotsuba", nullptr},    {"あけぼの", "akebono", nullptr},
    {"いぶき", "ibuki", nullptr},      {"うらら", "urara", nullptr},      {"えにし", "enishi", nullptr},
    {"おおぞら", "ozora", nullptr},    {"かがやき", "kagayaki", nullptr}, {"きずな", "kizuna", nullptr},
    {"くすのき", "kusunoki", nullptr}, {"けやき", "keyaki", nullptr},     {"さざなみ", "sazanami", nullptr},
    {"しらかば", "shirakaba", nullptr}, {"すばる", "subaru", nullptr},    {"そよかぜ", "soyokaze", nullptr},
    {"たまゆら", "tamayura", nullptr}, {"ちとせ", "chitose", nullptr},    {"つむぎ", "tsumugi", nullptr},
    {"ともしび", "tomoshibi", nullptr}, {"なぎさ", "nagisa", nullptr},    {"にじいろ", "nijiiro", nullptr},
    {"のどか", "nodoka", nullptr},     {"はなみずき", "hanamizuki", nullptr}, {"ひいらぎ", "hiiragi", nullptr},
    {"ふじなみ", "fujinami", nullptr}, {"ほしぞら", "hoshizora", nullptr}, {"まどか", "madoka", nullptr},
    {"みなと", "minato", nullptr},     {"むつみ", "mutsumi", nullptr},    {"めぐみ", "megumi", nullptr},
    {"もえぎ", "moegi", nullptr},      {"やまと", "yamato", nullptr},     {"ゆずりは", "yuzuriha", nullptr},
    {"よしの", "yoshino", nullptr},    {"わかくさ", "wakakusa", nullptr}, {"あさひ", "asahi", nullptr},
    {"いずみ", "izumi", nullptr},      {"かすみ", "kasumi", nullptr},     {"こだま", "kodama", nullptr},
    {"しずく", "shizuku", nullptr},    {"たかね", "takane", nullptr},     {"はやぶさ", "hayabusa", nullptr},
    {"ひなた", "hinata", nullptr},     {"みさき", "misaki", nullptr},     {"りんどう", "rindo", nullptr},
    {"すみれ", "sumire", nullptr},     {"さつき", "satsuki", nullptr},    {"あやめ", "ayame", nullptr},
};
const Word kKatakana[] = {
    {"ウミネコ", "umineko", nullptr},   {"ルリカワ", "rurikawa", nullptr},  {"ハルカゼ", "harukaze", nullptr},
    {"ヤマネコ", "yamaneko", nullptr},  {"ホシカゲ", "hoshikage", nullptr}, {"カゼマチ", "kazemachi", nullptr},
    {"ハナブサ", "hanabusa", nullptr},  {"シラユキ", "shirayuki", nullptr}, {"ナナホシ", "nanahoshi", nullptr},
    {"ツキミ", "tsukimi", nullptr},     {"ヤマセ", "yamase", nullptr},      {"ハコニワ", "hakoniwa", nullptr},
    {"イナズマ", "inazuma", nullptr},   {"コハク", "kohaku", nullptr},      {"ミツワ", "mitsuwa", nullptr},
    {"キタヤマ", "kitayama", nullptr},  {"モリノ", "morino", nullptr},      {"ミソラ", "misora", nullptr},
    {"クモイ", "kumoi", nullptr},       {"アサツユ", "asatsuyu", nullptr},  {"フユノ", "fuyuno", nullptr},
    {"ユウヒ", "yuhi", nullptr},        {"カナメ", "kaname", nullptr},      {"イロドリ", "irodori", nullptr},
    {"ホタルビ", "hotarubi", nullptr},  {"ココノエ", "kokonoe", nullptr},   {"ミドリノ", "midorino", nullptr},
    {"ノハラ", "nohara", nullptr},      {"トモエ", "tomoe", nullptr},       {"ツツミ", "tsutsumi", nullptr},
    {"ミツバ", "mitsuba", nullptr},     {"アマネ", "amane", nullptr},       {"ハヤセ", "hayase", nullptr},
    {"フジミネ", "fujimine", nullptr},  {"カラマツ", "karamatsu", nullptr}, {"ヤマブキ", "yamabuki", nullptr},
    {"ムサシノ", "musashino", nullptr}, {"ハヤテ", "hayate", nullptr},      {"ツバメ", "tsubame", nullptr},
    {"カモメ", "kamome", nullptr},      {"ミハル", "miharu", nullptr},      {"サザンカ", "sazanka", nullptr},
    {"アオイ", "aoi", nullptr},         {"キキョウ", "kikyo", nullptr},     {"ナツメ", "natsume", nullptr},
    {"シオン", "shion", nullptr},       {"ミナモ", "minamo", nullptr},      {"ソヨギ", "soyogi", nullptr},
    {"ヒイロ", "hiiro", nullptr},       {"ユキマチ", "yukimachi", nullptr}, {"タマキ", "tamaki", nullptr},
    {"ルミエール", "lumiere", "Lumiere"}, {"コバルト", "cobalt", "Cobalt"}, {"インディゴ", "indigo", "Indigo"},
    {"ステラ", "stella", "Stella"},     {"ノヴァ", "nova", "Nova"},         {"アルファ", "alpha", "Alpha"},
    {"オリオン", "orion", "Orion"},     {"ベガ", "vega", "Vega"},           {"シリウス", "sirius", "Sirius"},
    {"アトラス", "atlas", "Atlas"},     {"ミネルバ", "minerva", "Minerva"}, {"フェニックス", "phoenix", "Phoenix"},
    {"ペガサス", "pegasus", "Pegasus"}, {"コスモス", "cosmos", "Cosmos"},   {"オリーブ", "olive", "Olive"},
    {"アカシア", "acacia", "Acacia"},   {"カシオペア", "cassiopeia", "Cassiopeia"}, {"ラベンダー", "lavender", "Lavender"},
    {"カナリア", "canaria", "Canaria"}, {"ルピナス", "lupinus", "Lupinus"}, {"エメラルド", "emerald", "Emerald"},
    {"サファイア", "sapphire", "Sapphire"}, {"ポラリス", "polaris", "Polaris"}, {"アクア", "aqua", "Aqua"},
    {"テラ", "terra", "Terra"},         {"ルナ", "luna", "Luna"},           {"アルタイル", "altair", "Altair"},
};
// Transcribed English compounds: first × second (ブルー + ウェーブ → ブルーウェーブ, Blue Wave).
const Word kCompoundFirst[] = {
    {"ブルー", "blue", "Blue"},     {"グリーン", "green", "Green"}, {"サン", "sun", "Sun"},
    {"スター", "star", "Star"},     {"ネクスト", "next", "Next"},   {"ファースト", "first", "First"},
    {"ユニ", "uni", "Uni"},         {"トップ", "top", "Top"},       {"ニュー", "new", "New"},
    {"ゴールド", "gold", "Gold"},   {"シルバー", "silver", "Silver"}, {"レッド", "red", "Red"},
    {"ホワイト", "white", "White"}, {"スマート", "smart", "Smart"}, {"クリア", "clear", "Clear"},
};
const Word kCompoundSecond[] = {
    {"ウェーブ", "wave", "Wave"},   {"リーフ", "leaf", "Leaf"},     {"ライン", "line", "Line"},
    {"リンク", "link", "Link"},     {"フィールド", "field", "Field"}, {"ゲート", "gate", "Gate"},
    {"ブリッジ", "bridge", "Bridge"}, {"ポート", "port", "Port"},   {"ロード", "road", "Road"},
    {"ウィング", "wing", "Wing"},   {"ポット", "pot", "Pot"},       {"ストーン", "stone", "Stone"},
    {"ベル", "bell", "Bell"},       {"ツリー", "tree", "Tree"},     {"スカイ", "sky", "Sky"},
};
const char *const kCompoundExcluded[] = {"スターリンク", "サンライン", "ニューライン"};
// Latin stems: words and letter pairs (acronyms).
const char *const kLatinWords[] = {"SORA", "AXIS", "NEXTA", "TERA", "ZEN",   "LUCE", "NOA",  "RISE", "ARC",
                                   "VIVO", "KAI",  "MIRAI", "EDGE", "PRISM", "QUEST", "ZETA", "NOVUS", "ORCA",
                                   "3D",   "5G",   "K2",    "A1",   "R2"};
const char kAcronymLetters[] = "ABCDEFGHJKMNPRSTWY";
// Pairs that are famous companies or read as something else (K.K., HD for holdings).
const char *const kAcronymExcluded[] = {"GE", "HP", "JR", "JT", "JA", "SB", "KK", "HD", "BP", "EY", "GM", "SK",
                                        "NG", "DM", "PR", "CM", "FM", "AM", "PM", "KY", "DK", "NHK", "WC", "SM"};

// Industry words: {text, romaji (for domains), English, domain abbreviation, acronym
// initials, kind, stem scripts that fit, weight}.
struct IndustryRow {
    const char *text, *romaji, *english, *abbr, *initials;
    OrgKind kind;
    unsigned scripts;
    unsigned weight;
};
const IndustryRow kIndustries[] = {
    {"商事", "shoji", "Trading", "sj", "sj", OrgKind::Business, K | H | T | E | L, 30},
    {"電機", "denki", "Electric", "dk", "dk", OrgKind::Business, K | H | T | L, 18},
    {"電子", "denshi", "Electronics", "ds", "ds", OrgKind::Business, K | T | L, 14},
    {"物流", "butsuryu", "Logistics", "logi", "b", OrgKind::Business, K | H | T | E | L, 16},
    {"運輸", "unyu", "Transport", "tp", "u", OrgKind::Business, K | H, 12},
    {"システムズ", "systems", "Systems", "sys", "s", OrgKind::Business, K | T | E | L, 16},
    {"製作所", "seisakusho", "Works", "ss", "s", OrgKind::Business, K | H, 14},
    {"工業", "kogyo", "Industries", "kg", "k", OrgKind::Business, K | H | T, 14},
    {"建設", "kensetsu", "Construction", "kensetsu", "k", OrgKind::Business, K | H, 12},
    {"工務店", "komuten", "Builders", "komuten", "k", OrgKind::Business, K | H, 6},
    {"食品", "shokuhin", "Foods", "foods", "s", OrgKind::Business, K | H | T, 12},
    {"製菓", "seika", "Confectionery", "seika", "s", OrgKind::Business, K | H, 6},
    {"印刷", "insatsu", "Printing", "p", "i", OrgKind::Business, K | H | T, 10},
    {"不動産", "fudosan", "Real Estate", "re", "f", OrgKind::Business, K | H | T, 10},
    {"精機", "seiki", "Precision", "sk", "s", OrgKind::Business, K | T, 10},
    {"化成", "kasei", "Chemical", "kasei", "k", OrgKind::Business, K | T, 8},
    {"薬品", "yakuhin", "Pharmaceutical", "pharma", "y", OrgKind::Business, K | H | T, 8},
    {"テック", "tech", "Tech", "tech", "t", OrgKind::Business, K | T | E | L, 12},
    {"ソリューションズ", "solutions", "Solutions", "sol", "s", OrgKind::Business, T | E | L, 8},
    {"デザイン", "design", "Design", "design", "d", OrgKind::Business, H | T | E | L, 8},
    {"企画", "kikaku", "Planning", "kikaku", "k", OrgKind::Business, K | H | T, 8},
    {"産業", "sangyo", "Industry", "sangyo", "s", OrgKind::Business, K, 8},
    {"技研", "giken", "Engineering", "giken", "g", OrgKind::Business, K | T, 8},
    {"広告", "kokoku", "Advertising", "ad", "k", OrgKind::Business, K | H | T | E, 6},
    {"出版", "shuppan", "Publishing", "pub", "s", OrgKind::Business, K | H | T, 6},
    {"観光", "kanko", "Tourism", "kanko", "k", OrgKind::Business, K | H, 6},
    {"ホーム", "home", "Home", "home", "h", OrgKind::Business, H | T | E, 6},
    {"フーズ", "foods", "Foods", "foods", "f", OrgKind::Business, H | T | E, 6},
    {"家具", "kagu", "Furniture", "kagu", "k", OrgKind::Business, K | H | T, 5},
    {"通信", "tsushin", "Communications", "net", "t", OrgKind::Business, K | T | L, 6},
    {"ネットワークス", "networks", "Networks", "net", "n", OrgKind::Business, T | E | L, 5},
    {"警備保障", "keibihosho", "Security", "sec", "kh", OrgKind::Business, K | H, 5},
    {"酒造", "shuzo", "Brewery", "sake", "s", OrgKind::Business, K | H, 5},
    {"水産", "suisan", "Fisheries", "suisan", "s", OrgKind::Business, K | H, 5},
    {"農産", "nosan", "Farms", "nosan", "n", OrgKind::Business, K | H, 4},
    {"化学", "kagaku", "Chemical", "chem", "k", OrgKind::Business, K, 5},
    {"包装", "hoso", "Packaging", "pack", "h", OrgKind::Business, K | T, 5},
    {"木材", "mokuzai", "Lumber", "mokuzai", "m", OrgKind::Business, K, 4},
    {"塗装", "toso", "Painting", "toso", "t", OrgKind::Business, K | H, 4},
    {"金型", "kanagata", "Mold", "kanagata", "k", OrgKind::Business, K | T, 4},
    {"商会", "shokai", "Shokai", "shokai", "s", OrgKind::Business, K | T, 4},
    {"商店", "shoten", "Shoten", "shoten", "s", OrgKind::Business, K | H, 4},
    {"ラボ", "lab", "Lab", "lab", "l", OrgKind::Business, T | E | L, 5},
    {"ホールディングス", "holdings", "Holdings", "hd", "hd", OrgKind::Business, K | T | E | L, 4},
    {"", "", "", "", "", OrgKind::Business, T | E | L, 24},
    // Organizations with their own markers.
    {"会", "", "", "", "", OrgKind::Medical, K | H, 7},
    {"学園", "", "", "", "", OrgKind::School, K | H, 6},
    {"大学", "", "", "", "", OrgKind::University, K, 5},
    {"", "", "", "", "", OrgKind::ShinkinBank, K | H, 8},
    {"", "", "", "", "", OrgKind::CreditUnion, K | H, 2},
    {"協会", "", "", "", "", OrgKind::Association, K | H | T, 4},
    {"観光協会", "", "", "", "", OrgKind::Association, K | H, 2},
    {"振興会", "", "", "", "", OrgKind::Association, K | H, 2},
    {"財団", "", "", "", "", OrgKind::Foundation, K | H, 2},
    {"文化財団", "", "", "", "", OrgKind::Foundation, K | H, 2},
    {"記念財団", "", "", "", "", OrgKind::Foundation, K | H, 1},
    {"", "", "", "", "", OrgKind::Audit, K | H, 3},
    {"生命保険", "", "", "", "", OrgKind::MutualInsurance, K | H, 2},
    {"法律事務所", "law", "", "law", "", OrgKind::Professional, K | H, 3},
    {"会計事務所", "kaikei", "", "tax", "", OrgKind::Professional, K | H | T, 3},
    {"特許事務所", "patent", "", "patent", "", OrgKind::Professional, K | H, 2},
    {"設計事務所", "sekkei", "", "arch", "", OrgKind::Professional, K | H | T, 2},
};

// Stem scripts, by weight, for a draw.
const StemScript kScripts[] = {StemScript::Kanji, StemScript::Hiragana, StemScript::Katakana,
                               StemScript::KatakanaEnglish, StemScript::Latin};
const unsigned kScriptWeights[] = {30, 20, 25, 12, 13};

std::string capitalized(std::string s)
{
    if (!s.empty())
        s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

std::string lower(std::string s)
{
    for (char &c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

const CompanyCatalog &CompanyCatalog::builtin()
{
    static const CompanyCatalog catalog;
    return catalog;
}

DataSplit CompanyCatalog::splitOfStem(std::string_view stem)
{
    // A fixed salt keeps the split independent of any other use of the hash.
    uint64_t h = util::fnv1a64("rwb-company-split:") ^ util::fnv1a64(stem);
    const uint64_t bucket = util::splitMix64(h) % 100;
    if (bucket < 80)
        return DataSplit::Train;
    return bucket < 90 ? DataSplit::Val : DataSplit::Test;
}

CompanyCatalog::CompanyCatalog()
{
    auto add = [&](std::string text, std::string romaji, std::string english, std::string initials, StemScript s) {
        m_stems.push_back({std::move(text), std::move(romaji), std::move(english), std::move(initials), s});
    };
    for (const Part &a : kKanjiFirst)
        for (const Part &b : kKanjiSecond) {
            const std::string text = std::string(a.text) + b.text;
            if (std::find(std::begin(kKanjiExcluded), std::end(kKanjiExcluded), text) != std::end(kKanjiExcluded))
                continue;
            const std::string romaji = std::string(a.reading) + b.reading;
            add(text, romaji, capitalized(romaji), std::string(1, a.reading[0]) + b.reading[0], StemScript::Kanji);
        }
    for (const Word &w : kHiragana)
        add(w.text, w.romaji, capitalized(w.romaji), std::string(1, w.romaji[0]), StemScript::Hiragana);
    for (const Word &w : kKatakana)
        add(w.text, w.romaji, w.english ? w.english : capitalized(w.romaji), std::string(1, w.romaji[0]),
            StemScript::Katakana);
    for (const Word &a : kCompoundFirst)
        for (const Word &b : kCompoundSecond) {
            const std::string text = std::string(a.text) + b.text;
            if (std::find(std::begin(kCompoundExcluded), std::end(kCompoundExcluded), text) !=
                std::end(kCompoundExcluded))
                continue;
            add(text, std::string(a.romaji) + b.romaji, std::string(a.english) + " " + b.english,
                std::string(1, a.romaji[0]) + b.romaji[0], StemScript::KatakanaEnglish);
        }
    for (const char *w : kLatinWords)
        add(w, lower(w), w, lower(w), StemScript::Latin);
    for (const char *a = kAcronymLetters; *a; ++a)
        for (const char *b = kAcronymLetters; *b; ++b) {
            if (*a == *b)
                continue;
            const std::string text{*a, *b};
            if (std::find(std::begin(kAcronymExcluded), std::end(kAcronymExcluded), text) != std::end(kAcronymExcluded))
                continue;
            add(text, lower(text), text, lower(text), StemScript::Latin);
        }
    for (size_t i = 0; i < m_stems.size(); ++i) {
        const int split = static_cast<int>(splitOfStem(m_stems[i].text));
        m_pools[split][static_cast<int>(m_stems[i].script)].push_back(i);
    }
    for (const IndustryRow &r : kIndustries)
        m_industries.push_back({r.text, r.romaji, r.english, r.abbr, r.initials, r.kind, r.scripts, r.weight});
}

std::vector<std::string> CompanyCatalog::stems(DataSplit split) const
{
    std::vector<size_t> all;
    for (const auto &pool : m_pools[static_cast<int>(split)])
        all.insert(all.end(), pool.begin(), pool.end());
    std::sort(all.begin(), all.end());
    std::vector<std::string> out;
    for (size_t i : all)
        out.push_back(m_stems[i].text);
    return out;
}

size_t CompanyCatalog::stemCount() const
{
    return m_stems.size();
}

const CompanyCatalog::Stem &CompanyCatalog::drawStem(util::Rng &rng, DataSplit split, StemScript script,
                                                     const std::vector<std::string> &avoidStems) const
{
    const std::vector<size_t> &pool = m_pools[static_cast<int>(split)][static_cast<int>(script)];
    if (pool.empty())
        throw std::runtime_error("company catalogue: no stem of this script in the split");
    for (int attempt = 0; attempt < 64; ++attempt) {
        const Stem &s = m_stems[rng.pick(pool)];
        if (std::find(avoidStems.begin(), avoidStems.end(), s.text) == avoidStems.end())
            return s;
    }
    throw std::runtime_error("company catalogue: no unused stem left in the split");
}

void CompanyCatalog::fillMarker(util::Rng &rng, CompanyName &n, const Industry &ind) const
{
    switch (ind.kind) {
    case OrgKind::Business: {
        // 株式会社 / 有限会社 / 合同会社 / 合資会社 / 合名会社 / none (a sole proprietor's trade name).
        const size_t m = rng.weighted({78, 9, 8, 1, 1, 3});
        static const char *const markers[] = {"株式会社", "有限会社", "合同会社", "合資会社", "合名会社", ""};
        static const char *const abbrevs[] = {"株", "有", "合", "", "", ""};
        static const unsigned afterPercent[] = {45, 20, 10, 0, 0, 0};
        n.marker = markers[m];
        n.abbrev = abbrevs[m];
        n.markerAfter = rng.below(100) < afterPercent[m];
        if (m == 0) {
            static const char *const suffixes[] = {"Co., Ltd.", "Inc.", "Corporation", "K.K.", ""};
            n.englishSuffix = suffixes[rng.weighted({45, 25, 15, 10, 5})];
        } else if (m == 1) {
            n.englishSuffix = rng.chance(0.6) ? "Co., Ltd." : "";
        } else if (m == 2) {
            n.englishSuffix = rng.chance(0.7) ? "LLC" : "";
        }
        break;
    }
    case OrgKind::Medical:
        n.marker = "医療法人";
        break;
    case OrgKind::School:
        n.marker = "学校法人";
        break;
    case OrgKind::University:
        n.marker = "国立大学法人";
        break;
    case OrgKind::ShinkinBank:
        n.marker = "信用金庫";
        n.markerAfter = true;
        n.shortAlias = "信金";
        break;
    case OrgKind::CreditUnion:
        n.marker = "信用組合";
        n.markerAfter = true;
        n.shortAlias = "信組";
        break;
    case OrgKind::Association:
        n.marker = rng.chance(0.8) ? "一般社団法人" : "公益社団法人";
        break;
    case OrgKind::Foundation:
        n.marker = rng.chance(0.7) ? "公益財団法人" : "一般財団法人";
        break;
    case OrgKind::Audit:
        n.marker = "監査法人";
        n.markerAfter = true;
        n.alwaysFull = true;
        break;
    case OrgKind::MutualInsurance:
        n.marker = "相互会社";
        n.markerAfter = true;
        n.shortAlias = "生命";
        break;
    case OrgKind::Professional:
        break;
    }
}

CompanyName CompanyCatalog::draw(util::Rng &rng, DataSplit split, Draw what,
                                 const std::vector<std::string> &avoidStems) const
{
    std::vector<uint32_t> weights;
    for (const Industry &ind : m_industries) {
        bool ok = true;
        if (what == Draw::Business)
            ok = ind.kind == OrgKind::Business;
        else if (what == Draw::Carrier)
            ok = ind.text == "物流" || ind.text == "運輸";
        weights.push_back(ok ? ind.weight : 0);
    }
    const Industry &ind = m_industries[rng.weighted(weights)];
    std::vector<uint32_t> scriptWeights;
    for (size_t i = 0; i < std::size(kScripts); ++i)
        scriptWeights.push_back((ind.scripts & bit(kScripts[i])) ? kScriptWeights[i] : 0);
    const StemScript script = kScripts[rng.weighted(scriptWeights)];
    const Stem &stem = drawStem(rng, split, script, avoidStems);

    CompanyName n;
    n.stem = stem.text;
    n.stemRomaji = stem.romaji;
    n.stemEnglish = stem.english;
    n.stemInitials = stem.initials;
    n.script = stem.script;
    n.kind = ind.kind;
    n.industry = ind.text;
    n.industryRomaji = ind.romaji;
    n.industryEnglish = ind.english;
    n.industryAbbr = ind.abbr;
    n.industryInitials = ind.initials;
    fillMarker(rng, n, ind);
    // A bare stem is no trade name ("KD", "ステラ"): such businesses are companies.
    if (n.kind == OrgKind::Business && n.marker.empty() && n.industry.empty()) {
        n.marker = "株式会社";
        n.abbrev = "株";
    }
    return n;
}

} // namespace rwb::data
