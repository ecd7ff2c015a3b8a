// core/retrieval and core/embed: the passage corpus reader, the BM25 index (both
// tokenizers), the lexical embedder, dense and hybrid retrieval, retrieval metrics.
//
// Expected values are worked out by hand in the comments from the formulas in
// bm25index.h, lexicalembedder.h, hybridretriever.h and retrievalmetrics.h (the decimals
// there are rounded to 1e-9; the code evaluates the same closed forms in double).
// Tolerances: BM25 scores 1e-9 (SQLite computes them in double), fused scores and
// metrics 1e-12, cosines 1e-6 (dense vectors are float32).
#include "data/jsonl.h"
#include "embed/lexicalembedder.h"
#include "retrieval/bm25index.h"
#include "retrieval/corpus.h"
#include "retrieval/denseretriever.h"
#include "retrieval/hybridretriever.h"
#include "retrieval/retrievalmetrics.h"
#include "text/normalize.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace rwb;
using namespace rwb::retrieval;
using embed::LexicalEmbedder;

namespace {

// Absolute tolerances (see the header comment).
constexpr double kScoreTol = 1e-9;
constexpr double kFusedTol = 1e-12;
constexpr double kCosTol = 1e-6;
// FTS5's bm25 constants and IDF floor.
constexpr double kK1 = 1.2;
constexpr double kB = 0.75;
constexpr double kFloor = 1e-6;

// The BM25 tf part: f·(k1 + 1) / (f + k1·(1 − b + b·|D|/avgdl)).
double tfPart(double f, double docLength, double avgdl)
{
    return f * (kK1 + 1.0) / (f + kK1 * (1.0 - kB + kB * docLength / avgdl));
}

// Five short passages; d5 alone has a title, and its text has an ideographic space that
// normalization removes ("違法な行為").
Corpus bm25Corpus()
{
    return Corpus({
        {"d1", "", "不法行為", "{}"},
        {"d2", "", "不法占有", "{}"},
        {"d3", "", "行為能力", "{}"},
        {"d4", "", "債務履行", "{}"},
        {"d5", "違法行為", "違法な\u3000行為", R"({"law":"民法"})"},
    });
}

struct Expected {
    const char *id;
    double score;
};

// "" when `hits` are exactly `expected` (ids, order, ranks 1…n, scores within tol),
// else what differs.
QString compareHits(const std::vector<Hit> &hits, const std::vector<Expected> &expected, double tol)
{
    if (hits.size() != expected.size())
        return QString("got %1 hits, expected %2").arg(hits.size()).arg(expected.size());
    for (size_t i = 0; i < hits.size(); ++i) {
        if (hits[i].id != expected[i].id)
            return QString("rank %1: got %2, expected %3")
                .arg(i + 1)
                .arg(QString::fromStdString(hits[i].id), QString::fromUtf8(expected[i].id));
        if (hits[i].rank != static_cast<int>(i) + 1)
            return QString("hit %1 has rank %2").arg(i + 1).arg(hits[i].rank);
        if (std::abs(hits[i].score - expected[i].score) > tol)
            return QString("%1: score %2, expected %3")
                .arg(QString::fromUtf8(expected[i].id))
                .arg(hits[i].score, 0, 'g', 17)
                .arg(expected[i].score, 0, 'g', 17);
    }
    return {};
}

void writeFile(const std::string &path, const std::string &content)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
}

// Runs SQL on a file with plain SQLite (to forge files that are not indexes).
bool runSql(const std::string &path, const char *sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK &&
              sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

// A retriever that returns a fixed list (for the fusion) and remembers the k asked.
class FixedRetriever : public Retriever {
public:
    explicit FixedRetriever(std::vector<Hit> hits) : m_hits(std::move(hits)) {}
    std::string name() const override { return "fixed"; }
    std::vector<Hit> search(const std::string &, int k) const override
    {
        m_lastK = k;
        return m_hits;
    }
    mutable int m_lastK = 0;

private:
    std::vector<Hit> m_hits;
};

} // namespace

class TestRetrieval : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void corpusReadsFields();
    void corpusErrors_data();
    void corpusErrors();
    void queryTerms();
    void bm25Trigram();
    void bm25Bigram();
    void bm25DuplicateQueryNgrams();
    void indexKeepsPassages();
    void indexReplacedAtomically();
    void nonIndexRefused();
    void searchFromThreads();
    void lexicalUnitNorm();
    void lexicalIdenticalAndDisjoint();
    void lexicalHandWorked();
    void lexicalMatchesReference();
    void lexicalState();
    void lexicalThreadsAndSpeed();
    void denseTopK();
    void denseStoredInIndex();
    void hybridFuseByHand();
    void hybridRetrieverCandidates();
    void hybridOfBothTokenizers();
    void metricsByHand();
};

void TestRetrieval::corpusReadsFields()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("p.jsonl").toStdString();
    writeFile(path, "{\"id\": 12, \"title\": null, \"text\": \"本文\", \"meta\": {\"b\": 1, \"a\": 2}, \"law_codes\": [\"709\"]}\n"
                    "\n"
                    "{\"id\": \"x-1\", \"title\": \"題\", \"text\": \"\"}\r\n");
    const Corpus c = Corpus::readJsonl(path);
    QCOMPARE(c.size(), size_t(2));
    const Passage &p = c.passages()[0];
    QCOMPARE(p.id, std::string("12")); // an integer id keeps its digits
    QCOMPARE(p.title, std::string(""));
    QCOMPARE(p.text, std::string("本文"));
    // meta's own fields first, in their order, then the unknown top-level field.
    QCOMPARE(p.meta, std::string(R"({"b":1,"a":2,"law_codes":["709"]})"));
    QCOMPARE(c.passages()[1].meta, std::string("{}"));
    QCOMPARE(c.passages()[1].text, std::string(""));
    QVERIFY(c.find("x-1") == &c.passages()[1]);
    QVERIFY(c.find("nope") == nullptr);
    QCOMPARE(Corpus::embeddingText(c.passages()[1]), std::string("題\n"));
}

void TestRetrieval::corpusErrors_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("reason");
    const QString ok = R"({"id": "a", "text": "x"})";
    QTest::newRow("missing text") << ok + "\n" + R"({"id": "b", "title": "t"})" << 2 << R"(field "text": missing)";
    QTest::newRow("text not a string") << R"({"id": "a", "text": 5})" << 1 << R"(field "text": must be a string)";
    QTest::newRow("missing id") << R"({"text": "x"})" << 1 << R"(field "id": missing)";
    QTest::newRow("empty id") << R"({"id": "", "text": "x"})" << 1 << R"(field "id": empty)";
    QTest::newRow("fractional id") << R"({"id": 1.5, "text": "x"})" << 1 << R"(field "id": must be a string or an integer)";
    // Blank lines count in line numbers.
    QTest::newRow("duplicate id") << ok + "\n\n" + R"({"id": "b", "text": "y"})" + "\n" + ok << 4
                                  << R"(field "id": duplicate id "a" (first on line 1))";
    QTest::newRow("integer id equals string id") << R"({"id": 7, "text": "x"})" "\n" R"({"id": "7", "text": "y"})" << 2
                                                 << R"(field "id": duplicate id "7")";
    QTest::newRow("bad JSON") << ok + "\n" + R"({"id": "b", "text": "y")" << 2 << "invalid JSON";
    QTest::newRow("not an object") << R"(["a", "b"])" << 1 << "expected a JSON object";
    QTest::newRow("title not a string") << R"({"id": "a", "text": "x", "title": ["t"]})" << 1
                                        << R"(field "title": must be a string)";
    QTest::newRow("meta not an object") << R"({"id": "a", "text": "x", "meta": "m"})" << 1
                                        << R"(field "meta": must be an object)";
    QTest::newRow("field twice") << R"({"id": "a", "text": "x", "law": "1", "meta": {"law": "2"}})" << 1
                                 << R"(field "law": is both a top-level field and a field of meta)";
    QTest::newRow("no passages") << "\n  \n" << 0 << "no passages";
}

void TestRetrieval::corpusErrors()
{
    QFETCH(QString, content);
    QFETCH(int, line);
    QFETCH(QString, reason);
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("bad.jsonl").toStdString();
    writeFile(path, content.toStdString());
    try {
        Corpus::readJsonl(path);
        QFAIL("expected an InputException");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().file, path);
        QCOMPARE(int(e.error().line), line);
        QVERIFY2(QString::fromStdString(e.error().reason).contains(reason), e.what());
        // what() reads "file:line: reason".
        QVERIFY(std::string(e.what()).rfind(path + (line > 0 ? ":" + std::to_string(line) : "") + ": ", 0) == 0);
    }
}

void TestRetrieval::queryTerms()
{
    using T = Bm25Index::Tokenizer;
    // NFKC folds the full-width letters, the ideographic space is removed, A–Z lower-cased.
    QCOMPARE(Bm25Index::queryTerms("ＡＢＣ\u3000ｄ", T::Trigram), (std::vector<std::string>{"abc", "bcd"}));
    // Bigrams with punctuation are dropped; the repeated 東京 counts once.
    QCOMPARE(Bm25Index::queryTerms("東京、東京！AB", T::Bigram), (std::vector<std::string>{"東京", "ab"}));
    QCOMPARE(Bm25Index::indexedText("東京、東京！AB", T::Bigram), std::string("東京 東京 ab"));
    QCOMPARE(Bm25Index::indexedText("不法 行為", T::Trigram), std::string("不法行為"));
    // Katakana with the prolonged sound mark (Lm) stays a word.
    QCOMPARE(Bm25Index::queryTerms("データ", T::Bigram), (std::vector<std::string>{"デー", "ータ"}));
    QVERIFY(Bm25Index::queryTerms("不法", T::Trigram).empty());
    QCOMPARE(Bm25Index::parseTokenizer("bigram").value(), T::Bigram);
    QVERIFY(!Bm25Index::parseTokenizer("Trigram"));
}

// Trigram, query 不法行為 → 不法行, 法行為:
//   passage  title trigrams   text trigrams          |D|
//   d1       —                不法行 法行為            2
//   d2       —                不法占 法占有            2
//   d3       —                行為能 為能力            2
//   d4       —                債務履 務履行            2
//   d5       違法行 法行為     違法な 法な行 な行為     5
//   N = 5, Σ|D| = 13, avgdl = 2.6
//   n(不法行) = 1 (d1):              IDF = ln(4.5 / 1.5) = ln 3   = 1.098612289
//   n(法行為) = 2 (d1, d5's title):  IDF = ln(3.5 / 2.5) = ln 1.4 = 0.336472237
//   K(|D|) = 1.2 · (0.25 + 0.75 · |D| / 2.6): K(2) = 0.992307692, K(5) = 2.030769231
//   d1: (ln 3 + ln 1.4) · 2.2 / (1 + K(2)) = 1.435084525 · 1.104247104 = 1.584687931
//   d5: ln 1.4 · 2.2 / (1 + K(5))          = 0.336472237 · 0.725888325 = 0.244241268
//   d2, d3, d4 hold no query trigram: not hits.
// With title weight 2, d5's f(法行為) = 2 · 1:
//   d5: ln 1.4 · 2 · 2.2 / (2 + K(5)) = 0.336472237 · 1.091603053 = 0.367294121; d1 unchanged.
void TestRetrieval::bm25Trigram()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("tri.sqlite").toStdString();
    Bm25Index::BuildOptions options;
    options.tokenizer = Bm25Index::Tokenizer::Trigram;
    QVERIFY(Bm25Index::build(bm25Corpus(), path, options));
    Bm25Index index(path);
    QCOMPARE(index.tokenizer(), Bm25Index::Tokenizer::Trigram);
    QCOMPARE(index.passageCount(), size_t(5));
    const double avgdl = 13.0 / 5.0;
    const double d1 = (std::log(3.0) + std::log(1.4)) * tfPart(1, 2, avgdl);
    const double d5 = std::log(1.4) * tfPart(1, 5, avgdl);
    QVERIFY(std::abs(d1 - 1.584687931) < 1e-9 && std::abs(d5 - 0.244241268) < 1e-9); // the comment's arithmetic
    QString diff = compareHits(index.search("不法行為", 10), {{"d1", d1}, {"d5", d5}}, kScoreTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // k cuts the list.
    diff = compareHits(index.search("不法行為", 1), {{"d1", d1}}, kScoreTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(index.search("不法行為", 0).empty());
    // Under 3 code points there is no trigram: nothing found.
    QVERIFY(index.search("不法", 5).empty());

    index.setTitleWeight(2.0);
    const double d5Title2 = std::log(1.4) * tfPart(2, 5, avgdl);
    QVERIFY(std::abs(d5Title2 - 0.367294121) < 1e-9);
    diff = compareHits(index.search("不法行為", 10), {{"d1", d1}, {"d5", d5Title2}}, kScoreTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, index.setTitleWeight(-1.0));
}

// Bigram, query 不法行為 → 不法, 法行, 行為:
//   passage  title bigrams    text bigrams           |D|
//   d1       —                不法 法行 行為           3
//   d2       —                不法 法占 占有           3
//   d3       —                行為 為能 能力           3
//   d4       —                債務 務履 履行           3
//   d5       違法 法行 行為    違法 法な な行 行為      7
//   N = 5, Σ|D| = 19, avgdl = 3.8
//   n(不法) = 2 (d1, d2): IDF = ln 1.4 = 0.336472237
//   n(法行) = 2 (d1, d5): IDF = ln 1.4
//   n(行為) = 3 (d1, d3, d5): ln(2.5 / 3.5) < 0, so FTS5's floor: IDF = 1e-6
//   K(3) = 1.2 · (0.25 + 0.75 · 3 / 3.8) = 1.010526316, K(7) = 1.957894737
//   g(f, |D|) = 2.2 f / (f + K): g(1, 3) = 1.094240838, g(1, 7) = 0.743772242, g(2, 7) = 1.111702128
//   d1: (ln 1.4 + ln 1.4 + 1e-6) · g(1, 3)     = 0.736364418
//   d2: ln 1.4 · g(1, 3)                      = 0.368181662
//   d5: ln 1.4 · g(1, 7) + 1e-6 · g(2, 7)     = 0.250259822  (行為 in the title and the text)
//   d3: 1e-6 · g(1, 3)                        = 0.000001094
//   d4: no query bigram: not a hit.
void TestRetrieval::bm25Bigram()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("bi.sqlite").toStdString();
    Bm25Index::BuildOptions options;
    options.tokenizer = Bm25Index::Tokenizer::Bigram;
    QVERIFY(Bm25Index::build(bm25Corpus(), path, options));
    const Bm25Index index(path);
    QCOMPARE(index.tokenizer(), Bm25Index::Tokenizer::Bigram);
    const double avgdl = 19.0 / 5.0;
    const double ln14 = std::log(1.4);
    const double d1 = (2 * ln14 + kFloor) * tfPart(1, 3, avgdl);
    const double d2 = ln14 * tfPart(1, 3, avgdl);
    const double d5 = ln14 * tfPart(1, 7, avgdl) + kFloor * tfPart(2, 7, avgdl);
    const double d3 = kFloor * tfPart(1, 3, avgdl);
    QVERIFY(std::abs(d1 - 0.736364418) < 1e-9 && std::abs(d2 - 0.368181662) < 1e-9 &&
            std::abs(d5 - 0.250259822) < 1e-9 && std::abs(d3 - 0.000001094) < 1e-9);
    const QString diff = compareHits(index.search("不法行為", 10), {{"d1", d1}, {"d2", d2}, {"d5", d5}, {"d3", d3}}, kScoreTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // A one-character query has no bigram.
    QVERIFY(index.search("不", 5).empty());
}

// 不法行為不法行為 repeats 不法行 and 法行為 (trigram) and 不法, 法行, 行為 (bigram); the new
// n-grams 行為不, 為不法 / 為不 occur nowhere and add 0. Counted once, the scores equal
// those for 不法行為; counted twice, d1 would double.
void TestRetrieval::bm25DuplicateQueryNgrams()
{
    QTemporaryDir tmp;
    for (const Bm25Index::Tokenizer t : {Bm25Index::Tokenizer::Trigram, Bm25Index::Tokenizer::Bigram}) {
        const std::string path = tmp.filePath(QString::fromStdString(Bm25Index::tokenizerName(t))).toStdString();
        Bm25Index::BuildOptions options;
        options.tokenizer = t;
        QVERIFY(Bm25Index::build(bm25Corpus(), path, options));
        const Bm25Index index(path);
        const std::vector<Hit> once = index.search("不法行為", 10);
        const std::vector<Hit> twice = index.search("不法行為不法行為", 10);
        QCOMPARE(twice.size(), once.size());
        for (size_t i = 0; i < once.size(); ++i) {
            QCOMPARE(twice[i].id, once[i].id);
            QVERIFY(std::abs(twice[i].score - once[i].score) < kScoreTol);
        }
    }
}

void TestRetrieval::indexKeepsPassages()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("i.sqlite").toStdString();
    QVERIFY(Bm25Index::build(bm25Corpus(), path, {}));
    const Corpus stored = Bm25Index(path).passages();
    const Corpus original = bm25Corpus();
    QCOMPARE(stored.size(), original.size());
    for (size_t i = 0; i < stored.size(); ++i) {
        QCOMPARE(stored.passages()[i].id, original.passages()[i].id);
        QCOMPARE(stored.passages()[i].title, original.passages()[i].title);
        QCOMPARE(stored.passages()[i].text, original.passages()[i].text); // as read, not normalized
        QCOMPARE(stored.passages()[i].meta, original.passages()[i].meta);
    }
    QVERIFY(!std::filesystem::exists(path + ".part"));
}

void TestRetrieval::indexReplacedAtomically()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("a.sqlite").toStdString();
    const Corpus two({{"old1", "", "古い文書", "{}"}, {"old2", "", "古い記録", "{}"}});
    QVERIFY(Bm25Index::build(two, path, {}));

    // While the new index is being written, the old file is untouched and complete.
    Bm25Index::BuildOptions failing;
    size_t seenDuringBuild = 0;
    bool partExisted = false;
    failing.extend = [&](const std::string &part) {
        partExisted = part == path + ".part" && std::filesystem::exists(part);
        seenDuringBuild = Bm25Index(path).passageCount();
        throw std::runtime_error("disk full (simulated)");
    };
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, Bm25Index::build(bm25Corpus(), path, failing));
    QVERIFY(partExisted);
    QCOMPARE(seenDuringBuild, size_t(2));
    QCOMPARE(Bm25Index(path).passageCount(), size_t(2)); // the failed build left it as it was
    QVERIFY(!std::filesystem::exists(path + ".part"));

    // A cancelled build leaves it too.
    Bm25Index::BuildOptions cancelled;
    cancelled.progress = [](size_t, size_t) { return false; };
    QVERIFY(!Bm25Index::build(bm25Corpus(), path, cancelled));
    QCOMPARE(Bm25Index(path).passageCount(), size_t(2));
    QVERIFY(!std::filesystem::exists(path + ".part"));

    // A stale PATH.part from a killed build is overwritten; a finished build replaces the file.
    writeFile(path + ".part", "garbage from a killed build");
    QVERIFY(Bm25Index::build(bm25Corpus(), path, {}));
    QCOMPARE(Bm25Index(path).passageCount(), size_t(5));
    QCOMPARE(Bm25Index(path).search("古い文書", 5).size(), size_t(0));
    QVERIFY(!std::filesystem::exists(path + ".part"));
}

void TestRetrieval::nonIndexRefused()
{
    QTemporaryDir tmp;
    auto refused = [&](const std::string &path, const QString &reason) -> QString {
        try {
            Bm25Index index(path);
        } catch (const data::InputException &e) {
            if (e.error().file != path)
                return "the error names " + QString::fromStdString(e.error().file);
            if (!QString::fromStdString(e.error().reason).contains(reason))
                return "reason: " + QString::fromStdString(e.error().reason);
            return {};
        }
        return "opened " + QString::fromStdString(path);
    };
    const std::string text = tmp.filePath("notes.txt").toStdString();
    writeFile(text, "This is not a database, but it is long enough to look like a header of one.\n");
    QString r = refused(text, "not a retrieval index");
    QVERIFY2(r.isEmpty(), qPrintable(r));

    const std::string other = tmp.filePath("other.sqlite").toStdString();
    QVERIFY(runSql(other, "CREATE TABLE t(x)"));
    r = refused(other, "not a retrieval index");
    QVERIFY2(r.isEmpty(), qPrintable(r));

    const std::string wrongFormat = tmp.filePath("wrong.sqlite").toStdString();
    QVERIFY(runSql(wrongFormat, "CREATE TABLE meta(key TEXT, value TEXT); INSERT INTO meta VALUES ('format', 'runstore')"));
    r = refused(wrongFormat, "meta.format");
    QVERIFY2(r.isEmpty(), qPrintable(r));

    const std::string newer = tmp.filePath("newer.sqlite").toStdString();
    QVERIFY(Bm25Index::build(bm25Corpus(), newer, {}));
    QVERIFY(runSql(newer, "UPDATE meta SET value = '2' WHERE key = 'version'"));
    r = refused(newer, "newer version");
    QVERIFY2(r.isEmpty(), qPrintable(r));

    r = refused(tmp.filePath("missing.sqlite").toStdString(), "cannot open");
    QVERIFY2(r.isEmpty(), qPrintable(r));
    QVERIFY(!std::filesystem::exists(tmp.filePath("missing.sqlite").toStdString())); // read-only: not created
}

void TestRetrieval::searchFromThreads()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("t.sqlite").toStdString();
    Bm25Index::BuildOptions options;
    options.tokenizer = Bm25Index::Tokenizer::Bigram;
    QVERIFY(Bm25Index::build(bm25Corpus(), path, options));
    const Bm25Index index(path);
    const std::vector<Hit> expected = index.search("不法行為", 10);
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 50; ++i) {
                const std::vector<Hit> hits = index.search("不法行為", 10);
                if (hits.size() != expected.size() || hits[0].id != expected[0].id || hits[0].score != expected[0].score)
                    ++mismatches;
            }
        });
    for (std::thread &t : threads)
        t.join();
    QCOMPARE(mismatches.load(), 0);
}

void TestRetrieval::lexicalUnitNorm()
{
    const LexicalEmbedder e({"民法第七百九条", "故意又は過失によって他人の権利を侵害した者", "契約の解除"});
    QCOMPARE(e.dimension(), 65536);
    const auto vs = e.embed({"故意又は過失", "未知の語ばかりＸＹＺ", "", " \u3000\n"}, embed::EmbedRole::Document);
    QCOMPARE(vs.size(), size_t(4));
    for (int i = 0; i < 2; ++i) {
        double n2 = 0.0;
        for (float x : vs[i])
            n2 += double(x) * x;
        QVERIFY2(std::abs(std::sqrt(n2) - 1.0) < kCosTol, qPrintable(QString::number(std::sqrt(n2), 'g', 12)));
    }
    // No features (empty, white space only): the zero vector.
    for (int i = 2; i < 4; ++i) {
        QCOMPARE(vs[i].size(), size_t(65536));
        QVERIFY(std::all_of(vs[i].begin(), vs[i].end(), [](float x) { return x == 0.0f; }));
    }
    QVERIFY(e.embedSparse("").keys.empty());
    QCOMPARE(embed::cosine(vs[0], vs[2]), 0.0);
}

void TestRetrieval::lexicalIdenticalAndDisjoint()
{
    const LexicalEmbedder e({"東京都庁", "大阪府庁", "京都府庁"});
    const std::string text = "故意又は過失によって他人の権利又は法律上保護される利益を侵害した者は、これによって生じた損害を賠償する責任を負う。";
    QVERIFY(std::abs(e.similarity(text, text) - 1.0) < kCosTol);
    // Normalization first: full-width spaces and width variants do not matter.
    QVERIFY(std::abs(e.similarity("東京　都庁", "東京都庁") - 1.0) < kCosTol);
    const auto v = e.embed({text, text, "東京", "大阪"}, embed::EmbedRole::Query);
    QVERIFY(std::abs(embed::cosine(v[0], v[1]) - 1.0) < kCosTol);
    // No shared n-gram: exactly 0 on the sparse path, and 0 in 2^16 buckets (no collision
    // between these six features).
    QCOMPARE(e.similarity("東京", "大阪"), 0.0);
    QVERIFY(std::abs(embed::cosine(v[2], v[3])) < kCosTol);
    // Through the Embedder interface: the exact sparse similarity, pair by pair, its
    // fitted state to store beside vectors, no tokenizer and no model.
    const embed::Embedder &any = e;
    QVERIFY(any.pairwise());
    QCOMPARE(any.similarity("東京", "大阪"), 0.0);
    QVERIFY(std::abs(any.similarity("東京　都庁", "東京都庁") - 1.0) < kCosTol);
    QCOMPARE(any.state(), e.state());
    QVERIFY(!any.state().empty());
    QCOMPARE(any.tokenCount("東京", embed::EmbedRole::Document), int64_t(-1));
    QVERIFY(!any.model().has_value());
}

// Fitted on {東京, 京都} (N = 2), n = 1..3:
//   df: 東 1, 京 2, 都 1, 東京 1, 京都 1
//   idf = ln((1 + N) / (1 + df)) + 1: df 1 → 1 + ln 1.5 = a = 1.405465108, df 2 → 1, unseen → 1 + ln 3 = 2.098612289
//   東京 = (東 a, 京 1, 東京 a), 京都 = (京 1, 都 a, 京都 a); they share 京 only:
//   cos(東京, 京都) = 1 / (1 + 2a²) = 1 / 4.950664401 = 0.201993092
//   東東 = (東: tf 2 → (1 + ln 2) · a = 2.379659285, 東東: unseen → 2.098612289)
//   cos(東東, 東京) = 2.379659285 · a / (√(2.379659285² + 2.098612289²) · √(2a² + 1)) = 0.473755333
void TestRetrieval::lexicalHandWorked()
{
    const LexicalEmbedder e({"東京", "京都"});
    QCOMPARE(e.documentCount(), uint64_t(2));
    QCOMPARE(e.vocabularySize(), size_t(5));
    const double a = 1.0 + std::log(1.5);
    QVERIFY(std::abs(e.idf("東") - a) < 1e-12);
    QVERIFY(std::abs(e.idf("京") - 1.0) < 1e-12);
    QVERIFY(std::abs(e.idf("大") - (1.0 + std::log(3.0))) < 1e-12);
    QVERIFY(std::abs(e.idf("東京都") - (1.0 + std::log(3.0))) < 1e-12); // never seen

    const double expected1 = 1.0 / (1.0 + 2 * a * a);
    QVERIFY(std::abs(expected1 - 0.201993092) < 1e-9);
    QVERIFY(std::abs(e.similarity("東京", "京都") - expected1) < kCosTol);
    const double w = (1.0 + std::log(2.0)) * a, u = 1.0 + std::log(3.0);
    const double expected2 = w * a / (std::sqrt(w * w + u * u) * std::sqrt(2 * a * a + 1));
    QVERIFY(std::abs(expected2 - 0.473755333) < 1e-9);
    QVERIFY(std::abs(e.similarity("東東", "東京") - expected2) < kCosTol);
    // The hashed dense vectors give the same cosines (no two of these features share a bucket).
    const auto v = e.embed({"東京", "京都", "東東"}, embed::EmbedRole::Document);
    QVERIFY(std::abs(embed::cosine(v[0], v[1]) - expected1) < kCosTol);
    QVERIFY(std::abs(embed::cosine(v[2], v[0]) - expected2) < kCosTol);
}

// The definition evaluated the slow way, with n-grams as strings (no hashing, no
// sorting tricks), on texts long enough (> 64 n-grams) for the embedder's radix sort.
void TestRetrieval::lexicalMatchesReference()
{
    const std::vector<std::string> corpus = {
        "故意又は過失によって他人の権利又は法律上保護される利益を侵害した者は、これによって生じた損害を賠償する責任を負う。",
        "債務者がその債務の本旨に従った履行をしないとき又は債務の履行が不能であるときは、債権者は、これによって生じた損害の賠償を請求することができる。",
        "詐欺又は強迫による意思表示は、取り消すことができる。",
        "ＡＢＣ株式会社　第３条",
    };
    auto grams = [](const std::string &t) {
        const std::u32string cps = text::normalize32(t);
        std::map<std::u32string, int> counts;
        for (size_t n = 1; n <= 3; ++n)
            for (size_t i = 0; i + n <= cps.size(); ++i)
                ++counts[cps.substr(i, n)];
        return counts;
    };
    std::map<std::u32string, int> df;
    for (const std::string &t : corpus)
        for (const auto &g : grams(t))
            ++df[g.first];
    auto weights = [&](const std::string &t) {
        std::map<std::u32string, double> w;
        double norm2 = 0.0;
        for (const auto &[g, tf] : grams(t)) {
            const auto d = df.find(g);
            const double idf = std::log((1.0 + corpus.size()) / (1.0 + (d == df.end() ? 0 : d->second))) + 1.0;
            w[g] = (1.0 + std::log(double(tf))) * idf;
            norm2 += w[g] * w[g];
        }
        for (auto &x : w)
            x.second /= std::sqrt(norm2);
        return w;
    };
    auto reference = [&](const std::string &a, const std::string &b) {
        const auto wa = weights(a), wb = weights(b);
        double dot = 0.0;
        for (const auto &[g, x] : wa)
            if (const auto y = wb.find(g); y != wb.end())
                dot += x * y->second;
        return dot;
    };
    const LexicalEmbedder e(corpus);
    const std::string answer = "過失によって他人の権利を侵害した者は、生じた損害を賠償する責任を負う。損害の賠償を請求することができる。損害、損害。";
    QVERIFY(grams(answer).size() > 64);
    for (const std::string &ref : corpus) {
        const double expected = reference(answer, ref);
        QVERIFY2(std::abs(e.similarity(answer, ref) - expected) < 1e-12,
                 qPrintable(QString("%1 vs %2").arg(e.similarity(answer, ref)).arg(expected)));
    }
    QVERIFY(reference(answer, corpus[0]) > 0.3); // a real overlap, not a trivial 0
    QCOMPARE(e.embedSparse(answer).keys.size(), grams(answer).size());
}

void TestRetrieval::lexicalState()
{
    const std::vector<std::string> texts = {"民法第七百九条", "故意又は過失", "契約の解除", "損害賠償"};
    const LexicalEmbedder e(texts);
    // Deterministic: fitting again gives the same bytes.
    QCOMPARE(LexicalEmbedder(texts).state(), e.state());
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("lexical.bin").toStdString();
    e.save(path);
    const LexicalEmbedder back = LexicalEmbedder::load(path);
    QCOMPARE(back.state(), e.state());
    QCOMPARE(back.documentCount(), e.documentCount());
    QCOMPARE(back.similarity("故意の過失", "過失"), e.similarity("故意の過失", "過失"));
    // Not a state: an error naming the source.
    const std::string bad = tmp.filePath("bad.bin").toStdString();
    writeFile(bad, "rwblex01 but then nothing useful");
    try {
        LexicalEmbedder::load(bad);
        QFAIL("expected an InputException");
    } catch (const data::InputException &ex) {
        QCOMPARE(ex.error().file, bad);
    }
    std::string truncated = e.state();
    truncated.pop_back();
    QVERIFY_THROWS_EXCEPTION(data::InputException, LexicalEmbedder::fromState(truncated, "x"));
    LexicalEmbedder::Options options;
    options.maxN = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LexicalEmbedder(texts, options));
}

void TestRetrieval::lexicalThreadsAndSpeed()
{
    // A reward's workload: 128 answer/reference pairs of ~40-80 characters.
    std::vector<std::string> corpus;
    for (int i = 0; i < 300; ++i)
        corpus.push_back("第" + std::to_string(i) + "条 故意又は過失によって他人の権利又は法律上保護される利益を侵害した者は" +
                         std::to_string(i * 7) + "円の損害を賠償する責任を負う。");
    const LexicalEmbedder e(corpus);
    std::vector<std::pair<std::string, std::string>> pairs;
    for (int i = 0; i < 128; ++i)
        pairs.emplace_back("回答" + std::to_string(i) + "：過失により権利を侵害した者は損害を賠償する責任を負います。",
                           corpus[static_cast<size_t>(i)]);
    std::vector<double> serial;
    QElapsedTimer timer;
    timer.start();
    for (const auto &[answer, reference] : pairs)
        serial.push_back(e.similarity(answer, reference));
    const double ms = timer.nsecsElapsed() / 1e6;
    qInfo("lexical similarity: 128 pairs in %.2f ms (this build's optimization level)", ms);
    for (double s : serial)
        QVERIFY(s > 0.0 && s < 1.0);
    // Concurrent calls give the same values.
    std::vector<std::vector<double>> results(4);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&, t] {
            for (const auto &[answer, reference] : pairs)
                results[t].push_back(e.similarity(answer, reference));
        });
    for (std::thread &t : threads)
        t.join();
    for (const std::vector<double> &r : results)
        QCOMPARE(r, serial);
}

// Passages 東京, 東京都, 大阪, the embedder fitted on them (N = 3):
//   df 2: 東, 京, 東京 → idf b = 1 + ln(4/3) = 1.287682072
//   df 1: 都, 京都, 東京都, 大, 阪, 大阪 → idf a = 1 + ln 2 = 1.693147181
//   p1 = (東 b, 京 b, 東京 b), p2 = (東 b, 京 b, 東京 b, 都 a, 京都 a, 東京都 a), p3 shares nothing
//   query 東京 = p1: cos(q, p1) = 1
//   cos(q, p2) = 3b² / (√3 b · √(3b² + 3a²)) = b / √(a² + b²) = 0.605348508
//   cos(q, p3) = 0
void TestRetrieval::denseTopK()
{
    const Corpus corpus({{"p1", "", "東京", "{}"}, {"p2", "", "東京都", "{}"}, {"p3", "", "大阪", "{}"}});
    std::vector<std::string> texts;
    for (const Passage &p : corpus.passages())
        texts.push_back(Corpus::embeddingText(p));
    auto embedder = std::make_shared<LexicalEmbedder>(texts);
    const auto dense = DenseRetriever::build(embedder, corpus);
    QVERIFY(dense);
    QCOMPARE(dense->name(), std::string("dense:lexical"));
    const double a = 1.0 + std::log(2.0), b = 1.0 + std::log(4.0 / 3.0);
    const double p2 = b / std::sqrt(a * a + b * b);
    QVERIFY(std::abs(p2 - 0.605348508) < 1e-9);
    QString diff = compareHits(dense->search("東京", 3), {{"p1", 1.0}, {"p2", p2}, {"p3", 0.0}}, kCosTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    diff = compareHits(dense->search("東京", 2), {{"p1", 1.0}, {"p2", p2}}, kCosTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // Query 大阪: p3 = 1; p1 and p2 tie at 0 and keep corpus order.
    diff = compareHits(dense->search("大阪", 10), {{"p3", 1.0}, {"p1", 0.0}, {"p2", 0.0}}, kCosTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestRetrieval::denseStoredInIndex()
{
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("d.sqlite").toStdString();
    const Corpus corpus = bm25Corpus();
    std::vector<std::string> texts;
    for (const Passage &p : corpus.passages())
        texts.push_back(Corpus::embeddingText(p));
    auto embedder = std::make_shared<LexicalEmbedder>(texts);
    const auto built = DenseRetriever::build(embedder, corpus);
    QVERIFY_THROWS_EXCEPTION(data::InputException, DenseRetriever::stored(path + ".missing"));

    // An index without vectors: stored() is empty and load() refuses, naming the file.
    QVERIFY(Bm25Index::build(corpus, path, {}));
    QVERIFY(DenseRetriever::stored(path).empty());
    try {
        DenseRetriever::load(path, embedder);
        QFAIL("expected an InputException");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().file, path);
    }

    // Built with the vectors (as `rwb retrieve index --dense lexical` does).
    Bm25Index::BuildOptions options;
    options.extend = [&](const std::string &part) { built->save(part, embedder->state()); };
    QVERIFY(Bm25Index::build(corpus, path, options));
    const std::vector<DenseRetriever::StoredEmbedder> stored = DenseRetriever::stored(path);
    QCOMPARE(stored.size(), size_t(1));
    QCOMPARE(stored[0].name, std::string("lexical"));
    QCOMPARE(stored[0].dimension, 65536);
    QCOMPARE(stored[0].vectors, size_t(5));
    auto rebuilt = std::make_shared<LexicalEmbedder>(LexicalEmbedder::fromState(stored[0].state, path));
    const auto loaded = DenseRetriever::load(path, rebuilt);
    for (const char *q : {"不法行為", "違法な行為の例", "債務"}) {
        const std::vector<Hit> x = built->search(q, 5), y = loaded->search(q, 5);
        QCOMPARE(y.size(), x.size());
        for (size_t i = 0; i < x.size(); ++i) {
            QCOMPARE(y[i].id, x[i].id);
            QCOMPARE(y[i].score, x[i].score); // float32 stored bit for bit
        }
    }
    // A different embedder (other dimension) does not fit the stored vectors.
    LexicalEmbedder::Options small;
    small.dimensionBits = 8;
    auto other = std::make_shared<LexicalEmbedder>(texts, small);
    QVERIFY_THROWS_EXCEPTION(data::InputException, DenseRetriever::load(path, other));
}

// R1 (weight w1): A 10, B 6, C 2 → min-max: A 1, B 0.5, C 0
// R2 (weight w2): B 0.9, D 0.5, A 0.1 → B 1, D 0.5, A 0
// w = 0.5 / 0.5: A 0.5, B 0.5·0.5 + 0.5 = 0.75, C 0, D 0.25 → B, A, D, C
// w = 0.8 / 0.2: A 0.8, B 0.4 + 0.2 = 0.6, C 0, D 0.1     → A, B, D, C
void TestRetrieval::hybridFuseByHand()
{
    const std::vector<Hit> r1 = {{"A", 10, 1}, {"B", 6, 2}, {"C", 2, 3}};
    const std::vector<Hit> r2 = {{"B", 0.9, 1}, {"D", 0.5, 2}, {"A", 0.1, 3}};
    QString diff = compareHits(HybridRetriever::fuse({r1, r2}, {0.5, 0.5}, 10),
                               {{"B", 0.75}, {"A", 0.5}, {"D", 0.25}, {"C", 0.0}}, kFusedTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    diff = compareHits(HybridRetriever::fuse({r1, r2}, {0.8, 0.2}, 3), {{"A", 0.8}, {"B", 0.6}, {"D", 0.1}}, kFusedTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // One hit, or all scores equal: each normalizes to 1. An empty list adds nothing.
    diff = compareHits(HybridRetriever::fuse({{{"X", 3.0, 1}}, {{"Y", 2.0, 1}, {"X", 2.0, 2}}, {}}, {0.3, 0.6, 1.0}, 5),
                       {{"X", 0.9}, {"Y", 0.6}}, kFusedTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    // Ties: first seen reading the lists in order (C before E: both 0 from R1 / R3).
    diff = compareHits(HybridRetriever::fuse({r1, {{"E", 1.0, 1}, {"F", 0.0, 2}}}, {1.0, 0.0}, 10),
                       {{"A", 1.0}, {"B", 0.5}, {"C", 0.0}, {"E", 0.0}, {"F", 0.0}}, kFusedTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

void TestRetrieval::hybridRetrieverCandidates()
{
    auto r1 = std::make_shared<FixedRetriever>(std::vector<Hit>{{"A", 10, 1}, {"B", 6, 2}, {"C", 2, 3}});
    auto r2 = std::make_shared<FixedRetriever>(std::vector<Hit>{{"B", 0.9, 1}, {"D", 0.5, 2}, {"A", 0.1, 3}});
    const HybridRetriever hybrid({{r1, 0.5}, {r2, 0.5}}, /*candidates=*/20);
    const QString diff = compareHits(hybrid.search("q", 2), {{"B", 0.75}, {"A", 0.5}}, kFusedTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QCOMPARE(r1->m_lastK, 20); // max(k, candidates)
    hybrid.search("q", 30);
    QCOMPARE(r2->m_lastK, 30);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, HybridRetriever({{r1, -0.5}}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, HybridRetriever({}));
}

// Hybrid of the two BM25 indexes above (query 不法行為, weights 0.5 / 0.5):
//   trigram list d1 1.584687931, d5 0.244241268 → d1 1, d5 0
//   bigram list d1, d2, d5, d3 (scores in bm25Bigram), min = d3:
//     d2: (d2 − d3) / (d1 − d3) = (ln 1.4 − 1e-6) / (2 ln 1.4) = 0.499998514
//     d5: (d5 − d3) / (d1 − d3) = 0.339857675
//   fused: d1 1, d2 0.249999257, d5 0.169928837, d3 0
void TestRetrieval::hybridOfBothTokenizers()
{
    QTemporaryDir tmp;
    const std::string tri = tmp.filePath("tri.sqlite").toStdString(), bi = tmp.filePath("bi.sqlite").toStdString();
    Bm25Index::BuildOptions options;
    options.tokenizer = Bm25Index::Tokenizer::Trigram;
    QVERIFY(Bm25Index::build(bm25Corpus(), tri, options));
    options.tokenizer = Bm25Index::Tokenizer::Bigram;
    QVERIFY(Bm25Index::build(bm25Corpus(), bi, options));
    const HybridRetriever hybrid({{std::make_shared<Bm25Index>(tri), 0.5}, {std::make_shared<Bm25Index>(bi), 0.5}});
    const double ln14 = std::log(1.4), avgdl = 3.8;
    const double d1 = (2 * ln14 + kFloor) * tfPart(1, 3, avgdl), d3 = kFloor * tfPart(1, 3, avgdl);
    const double d5 = ln14 * tfPart(1, 7, avgdl) + kFloor * tfPart(2, 7, avgdl);
    const double n2 = (ln14 - kFloor) / (2 * ln14), n5 = (d5 - d3) / (d1 - d3);
    QVERIFY(std::abs(n2 - 0.499998514) < 1e-9 && std::abs(n5 - 0.339857675) < 1e-9);
    // The BM25 scores carry SQLite's rounding: compare the fused ones to 1e-9.
    const QString diff =
        compareHits(hybrid.search("不法行為", 10), {{"d1", 1.0}, {"d2", 0.5 * n2}, {"d5", 0.5 * n5}, {"d3", 0.0}}, kScoreTol);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
}

// q1 gold {A}, ranked B A C:       recall@1 0, recall@3 1, hit@1 0, hit@3 1, RR 1/2
// q2 gold {A, B}, ranked A C B:    recall@1 1/2, recall@3 1, hit@1 1, hit@3 1, RR 1
// q3 gold {Z}, ranked A B C:       all 0 (no gold found), RR 0
// q4 gold {}: skipped, not averaged
// q5 gold {A, A} (= {A}), ranked C: recall@1 0, recall@3 0, RR 0
// means over 4 questions: recall@1 = 1/8, recall@3 = 2/4 = 0.5, hit@1 = 1/4, hit@3 = 2/4,
// MRR = (1/2 + 1) / 4 = 0.375
void TestRetrieval::metricsByHand()
{
    const std::vector<RankedQuery> queries = {
        {{"A"}, {"B", "A", "C"}}, {{"A", "B"}, {"A", "C", "B"}}, {{"Z"}, {"A", "B", "C"}}, {{}, {"A"}}, {{"A", "A"}, {"C"}},
    };
    const RetrievalMetrics m = computeRetrievalMetrics(queries, {1, 3});
    QCOMPARE(m.queries, size_t(4));
    QCOMPARE(m.skipped, size_t(1));
    QCOMPARE(m.ks, (std::vector<int>{1, 3}));
    QVERIFY(std::abs(m.recall[0] - 0.125) < kFusedTol);
    QVERIFY(std::abs(m.recall[1] - 0.5) < kFusedTol);
    QVERIFY(std::abs(m.hit[0] - 0.25) < kFusedTol);
    QVERIFY(std::abs(m.hit[1] - 0.5) < kFusedTol);
    QVERIFY(std::abs(m.mrr - 0.375) < kFusedTol);
    // Only the multi-gold question, k = 2: one of two gold ids in the top 2.
    const RetrievalMetrics two = computeRetrievalMetrics({queries[1]}, {2});
    QVERIFY(std::abs(two.recall[0] - 0.5) < kFusedTol);
    QVERIFY(std::abs(two.hit[0] - 1.0) < kFusedTol);
    // No question with gold: zeros, not NaN.
    const RetrievalMetrics none = computeRetrievalMetrics({queries[3]}, {1});
    QCOMPARE(none.recall[0], 0.0);
    QCOMPARE(none.mrr, 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, computeRetrievalMetrics(queries, {0}));
}

QTEST_APPLESS_MAIN(TestRetrieval)
#include "tst_retrieval.moc"
