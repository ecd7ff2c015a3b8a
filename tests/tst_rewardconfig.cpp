// core/reward RewardConfig: parsing, validation messages, round trip, bundled presets.
#include "data/jsonl.h"
#include "task/catalog.h"
#include "reward/compositereward.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"

#include <QDir>
#include <QtTest>

using namespace rwb::reward;

class TestRewardConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesIssueExample();
    void errors_data();
    void errors();
    void roundTrip();
    void presets();
    void synonymsPathResolved();
    void absolutePathsForTheStore();
};

void TestRewardConfig::absolutePathsForTheStore()
{
    // What a run store records: every path made absolute against the config's folder,
    // absolute paths and "lexical" left alone, the folder dropped.
    RewardConfig c = parseRewardConfig(
        R"({"task": "legal_qa", "embedding": "hf:../models/e5", "embedding_corpus": "../data/corpus.jsonl",
            "components": [{"reward": "semantic", "weight": 1}]})",
        "r.json", rwb::task::Catalog::builtin().rewards());
    c.baseDir = "/ws/configs";
    const RewardConfig a = withAbsolutePaths(c);
    QCOMPARE(a.embedding, std::string("hf:/ws/models/e5"));
    QCOMPARE(a.embeddingCorpus, std::string("/ws/data/corpus.jsonl"));
    QCOMPARE(a.resolvedEmbeddingCorpus(), std::string("/ws/data/corpus.jsonl"));
    QVERIFY(a.baseDir.empty());
    c.embedding = "lexical";
    c.embeddingCorpus = "/abs/corpus.jsonl";
    QCOMPARE(withAbsolutePaths(c).embedding, std::string("lexical"));
    QCOMPARE(withAbsolutePaths(c).embeddingCorpus, std::string("/abs/corpus.jsonl"));
}

void TestRewardConfig::parsesIssueExample()
{
    const RewardConfig c = parseRewardConfig(
        R"({"task": "company_extraction", "thinking": false, "components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]})",
        "c.json", rwb::task::Catalog::builtin().rewards());
    QCOMPARE(c.task, std::string("company_extraction"));
    QCOMPARE(c.thinking, false);
    QCOMPARE(c.components.size(), size_t(2));
    QCOMPARE(c.components[1].reward, std::string("marker"));
    QCOMPARE(c.components[1].weight, 80.0);
    QCOMPARE(c.weightSum(), 100.0);
}

void TestRewardConfig::errors_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message"); // a part the error must contain
    QTest::newRow("unknown reward") << R"({"components": [{"reward": "parital", "weight": 1}]})"
                                    << "components[0].reward: unknown reward \"parital\" (allowed: partial, marker, exist, format, domain, exact_match, ";
    QTest::newRow("negative weight") << R"({"components": [{"reward": "partial", "weight": 1}, {"reward": "marker", "weight": -2}]})"
                                     << "components[1].weight: must be a finite number ≥ 0";
    QTest::newRow("all zero") << R"({"components": [{"reward": "partial", "weight": 0}, {"reward": "marker", "weight": 0}]})"
                              << "components: the weights sum to 0";
    QTest::newRow("empty list") << R"({"components": []})" << "components: at least one component is needed (allowed rewards: partial, marker";
    QTest::newRow("missing components") << R"({"task": "company_extraction"})" << "components: missing";
    QTest::newRow("weight is a string") << R"({"components": [{"reward": "partial", "weight": "20"}]})"
                                        << "components[0].weight: must be a number, found string";
    QTest::newRow("duplicate") << R"({"components": [{"reward": "partial", "weight": 1}, {"reward": "partial", "weight": 2}]})"
                               << "components[1].reward: \"partial\" is listed twice";
    QTest::newRow("unknown key") << R"({"componets": []})"
                                 << "componets: unknown key (allowed: name, description, task, thinking, components, "
                                    "synonyms, embedding, embedding_corpus, embedding_options, judge)";
    QTest::newRow("unknown task") << R"({"task": "summarization", "components": [{"reward": "partial", "weight": 1}]})"
                                  << "task: unknown task \"summarization\" (allowed: company_extraction, legal_qa, chat, multihop)";
    QTest::newRow("another task's reward") << R"({"task": "legal_qa", "components": [{"reward": "partial", "weight": 1}]})"
                                           << "components[0].reward: unknown reward \"partial\" (allowed: xml_format, "
                                              "non_hallucination, citation_f1, semantic, coverage, consistency, rubric_explicit, "
                                              "rubric_implicit, likert_simple, likert_reference, exact_match, ";
    QTest::newRow("embedding backend") << R"({"task": "legal_qa", "embedding": "bge-m3", "components": [{"reward": "semantic", "weight": 1}]})"
                                       << "embedding: \"bge-m3\" is not an embedding backend (allowed: lexical, http:URL, hf:DIR)";
    QTest::newRow("embedding options") << R"({"task": "legal_qa", "embedding_options": [], "components": [{"reward": "semantic", "weight": 1}]})"
                                       << "embedding_options: must be an object, found array";
    QTest::newRow("thinking not bool") << R"({"thinking": "yes", "components": []})" << "thinking: must be true or false";
    QTest::newRow("not an object") << "[1, 2]" << "expected a JSON object";
    QTest::newRow("syntax, line 3") << "{\n  \"components\": [\n    {\"reward\": partial}\n]}" << "c.json:3: column";
    // nlohmann throws a number beyond a double as out_of_range, not parse_error: this ended
    // the program (found by fuzz_reward_config; fuzz/regressions/reward_config/).
    QTest::newRow("number beyond a double") << R"({"components": [{"reward": "partial", "weight": 1e999}]})"
                                            << "c.json:1: column 49: not valid JSON";
}

void TestRewardConfig::errors()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    try {
        parseRewardConfig(json.toStdString(), "c.json", rwb::task::Catalog::builtin().rewards());
        QFAIL("expected an error");
    } catch (const rwb::data::InputException &e) {
        const QString what = QString::fromStdString(e.what());
        QVERIFY2(what.contains(message), qPrintable(what));
        QVERIFY2(what.startsWith("c.json"), qPrintable(what));
    }
}

void TestRewardConfig::roundTrip()
{
    RewardConfig c;
    c.name = "mine";
    c.thinking = true;
    c.components = {{"format", 50, {}}, {"partial", 10.5, {}}, {"marker", 40, {}}};
    QVERIFY(c.task.empty()); // the registry's default task: company extraction, the first registered
    QVERIFY(toJson(c).find("\"task\"") == std::string::npos);
    QCOMPARE(parseRewardConfig(toJson(c), "x", rwb::task::Catalog::builtin().rewards()).task,
             std::string("company_extraction"));
    c.task = "company_extraction";
    const std::string json = toJson(c);
    QVERIFY(json.find("\"weight\": 50\n") != std::string::npos); // whole weights stay integers
    const RewardConfig back = parseRewardConfig(json, "x", rwb::task::Catalog::builtin().rewards());
    QCOMPARE(back.name, c.name);
    QCOMPARE(back.thinking, true);
    QCOMPARE(back.components.size(), size_t(3));
    QCOMPARE(back.components[1].weight, 10.5);
    QCOMPARE(toJson(back), json);
}

void TestRewardConfig::presets()
{
    // Every row of the paper's table 1 (10) and †, ‡ and * of table 2; and the legal-QA
    // paper's two reward sets.
    QDir dir(RWB_RESOURCES_DIR "/presets");
    const QStringList legal = dir.entryList({"legal_*.json"}, QDir::Files, QDir::Name);
    QCOMPARE(legal, (QStringList{"legal_citation_only.json", "legal_citation_semantic.json"}));
    for (const QString &f : legal) {
        const RewardConfig c = loadRewardConfig(dir.filePath(f).toStdString(), rwb::task::Catalog::builtin().rewards());
        QCOMPARE(c.task, std::string("legal_qa"));
        QCOMPARE(c.components.size(), f.contains("semantic") ? size_t(4) : size_t(3));
    }
    const QStringList files = dir.entryList({"table*.json"}, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 13);
    int thinking = 0;
    for (const QString &f : files) {
        const RewardConfig c = loadRewardConfig(dir.filePath(f).toStdString(), rwb::task::Catalog::builtin().rewards());
        QVERIFY(!c.name.empty());
        QVERIFY(c.weightSum() == 100.0 || c.components.size() == 1);
        thinking += c.thinking ? 1 : 0;
        CompositeReward r(c, f.toStdString(), rwb::task::Catalog::builtin().rewards());
        QVERIFY(r.size() >= 1);
    }
    QCOMPARE(thinking, 2); // † and ‡
    const RewardConfig dagger =
        loadRewardConfig(dir.filePath("table2_dagger_format50_partial10_marker40.json").toStdString(), rwb::task::Catalog::builtin().rewards());
    QCOMPARE(dagger.components[0].reward, std::string("format"));
    QCOMPARE(dagger.components[0].weight, 50.0);
    QCOMPARE(dagger.components[2].weight, 40.0);
}

void TestRewardConfig::synonymsPathResolved()
{
    QTemporaryDir tmp;
    QFile syn(tmp.filePath("syn.tsv"));
    QVERIFY(syn.open(QIODevice::WriteOnly));
    syn.write("きらめき商事\tKRM\n");
    syn.close();
    QFile cfg(tmp.filePath("c.json"));
    QVERIFY(cfg.open(QIODevice::WriteOnly));
    cfg.write(R"({"components": [{"reward": "domain", "weight": 1}], "synonyms": "syn.tsv"})");
    cfg.close();
    const RewardConfig c = loadRewardConfig(cfg.fileName().toStdString(), rwb::task::Catalog::builtin().rewards());
    QCOMPARE(QString::fromStdString(c.resolvedSynonyms()), tmp.filePath("syn.tsv"));
    CompositeReward r(c, "reward config", rwb::task::Catalog::builtin().rewards());
    QCOMPARE(r.size(), size_t(1));
    // A synonyms file that is missing is an error naming it.
    RewardConfig bad = c;
    bad.synonyms = "nope.tsv";
    try {
        CompositeReward x(bad, "reward config", rwb::task::Catalog::builtin().rewards());
        QFAIL("expected an error");
    } catch (const rwb::data::InputException &e) {
        QVERIFY(QString::fromStdString(e.what()).contains("nope.tsv"));
    }
}

QTEST_APPLESS_MAIN(TestRewardConfig)
#include "tst_rewardconfig.moc"
