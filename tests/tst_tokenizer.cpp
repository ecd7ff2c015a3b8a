// core/tokenizer: byte-level BPE (tokenizer.json), sentencepiece (tokenizer.model read
// without libsentencepiece), the BPE trainer, the prompt formats and `rwb tokenizer`.
//
// Expected ids are worked out by hand (the arithmetic is in the comments) on:
// - tests/data/tokenizer/bpe_pairs and bpe_strings: one hand-made byte-level BPE, written
//   with merges as ["a", "b"] pairs and as "a b" strings (tools/make_bpe_fixtures.py).
//   The 256 byte characters have id = byte value ('a' 97, 'Ġ' = space 32, 'Ċ' = "\n" 10);
//   merge rank r makes token 256 + r:
//     r0 Ġ t→Ġt 256   r1 h e→he 257   r2 Ġt he→Ġthe 258   r3 l o→lo 259   r4 lo w→low 260
//     r5 e r→er 261   r6 low er→lower 262   r7 Ġ low→Ġlow 263   r8 ã ģ→ãģ 264
//     r9 ãģ ĵ→ãģĵ 265   r10 ã Ĥ→ãĤ 266   r11 ãĤ ĵ→ãĤĵ 267   r12 ãģ «→ãģ« 268
//     r13 ãģĵ ãĤĵ→ãģĵãĤĵ 269
//   added: <|endoftext|> 280, <|im_start|> 281, <|im_end|> 282 (special), <think> 283,
//   <think></think> 284 (not special). Ids 270-279 are holes.
//   Byte-level spelling of hiragana: こ E3 81 93 → "ãģĵ", ん E3 82 93 → "ãĤĵ",
//   に E3 81 AB → "ãģ«", ち E3 81 A1 → "ãģ¡", は E3 81 AF → "ãģ¯" (0x81 is the 36th of the
//   68 remapped bytes → U+0123 ģ; 0x82 → U+0124 Ĥ; 0x93 → U+0135 ĵ; 0xA1–0xAC stay).
// - sentencepiece models built in the tests from hand-scored pieces.
// - tests/data/tokenizer/spm_*: real sentencepiece models with ids from libsentencepiece
//   0.1.97 itself (tools/README.md), a check that our reader agrees with the library.
#include "data/jsonl.h"
#include "tokenizer/addedtokenmatcher.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/bytelevel.h"
#include "tokenizer/bytelevelbpetokenizer.h"
#include "tokenizer/hfnormalizer.h"
#include "tokenizer/jsonfieldreader.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/regexsplitter.h"
#include "tokenizer/sentencepiecemodel.h"
#include "tokenizer/sentencepiecetokenizer.h"
#include "tokenizer/tokenizer.h"
#include "text/unicodeform.h"
#include "testtime.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

using namespace rwb::tokenizer;
using Ids = std::vector<int32_t>;

namespace {

// Each rwb process gets this long before the test gives up on it.
constexpr int kProcessTimeoutMs = 120000;
// U+FFFD in UTF-8.
const char *const kReplacement = "\xEF\xBF\xBD";

QString dataDir(const char *name)
{
    return QStringLiteral(RWB_TEST_DATA "/tokenizer/") + QString::fromUtf8(name);
}

std::unique_ptr<Tokenizer> loadFixture(const char *name)
{
    return loadTokenizer(dataDir(name).toStdString());
}

QString show(const Ids &ids)
{
    QStringList parts;
    for (int32_t id : ids)
        parts << QString::number(id);
    return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
}

Ids toIds(const QList<int> &list)
{
    return Ids(list.begin(), list.end());
}

// Compares id sequences and shows both on failure.
#define COMPARE_IDS(actual, expected)                                                                                  \
    do {                                                                                                               \
        const Ids a_ = (actual);                                                                                       \
        const Ids e_ = (expected);                                                                                     \
        if (a_ != e_)                                                                                                  \
            QFAIL(qPrintable(QStringLiteral("ids %1, expected %2").arg(show(a_), show(e_))));                         \
    } while (false)

// The message of the data::InputException `f` throws, or "" when it throws none (another
// exception type is reported as such, so that the test fails with a reason).
template <typename F>
QString inputError(F &&f)
{
    try {
        f();
    } catch (const rwb::data::InputException &e) {
        return QString::fromUtf8(e.what());
    } catch (const std::exception &e) {
        return QStringLiteral("not an InputException: ") + QString::fromUtf8(e.what());
    }
    return {};
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(bytes);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

SentencePiece piece(const char *text, float score, PieceType type = PieceType::Normal)
{
    return SentencePiece{text, score, type};
}

// The hand-scored Unigram model most sentencepiece cases use (no dummy prefix, identity):
//   0 <unk>  1 <s>  2 </s>  3 a −2  4 b −2  5 c −2  6 ab −3  7 bc −3.5  8 abc −7
//   9 東 −3  10 京 −3  11 都 −3  12 東京 −4  13 京都 −3.5  14 <|im_start|> CONTROL
//   15 <sep> USER_DEFINED
// With byteFallback, 256 BYTE pieces <0x00>…<0xFF> follow as ids 16…271 (id = 16 + byte).
SentencePieceModel handUnigram(bool byteFallback)
{
    SentencePieceModel m;
    m.pieces = {piece("<unk>", 0, PieceType::Unknown),
                piece("<s>", 0, PieceType::Control),
                piece("</s>", 0, PieceType::Control),
                piece("a", -2),
                piece("b", -2),
                piece("c", -2),
                piece("ab", -3),
                piece("bc", -3.5f),
                piece("abc", -7),
                piece("東", -3),
                piece("京", -3),
                piece("都", -3),
                piece("東京", -4),
                piece("京都", -3.5f),
                piece("<|im_start|>", 0, PieceType::Control),
                piece("<sep>", 0, PieceType::UserDefined)};
    if (byteFallback) {
        for (int b = 0; b < 256; ++b) {
            char name[8];
            std::snprintf(name, sizeof name, "<0x%02X>", b);
            m.pieces.push_back(piece(name, 0, PieceType::Byte));
        }
    }
    m.options.algorithm = SentencePieceAlgorithm::Unigram;
    m.options.byteFallback = byteFallback;
    m.options.normalizerName = "identity";
    m.options.addDummyPrefix = false;
    return m;
}

// The id of byte `b` in handUnigram(true).
int32_t byteId(int b)
{
    return 16 + b;
}

std::string nfc(const std::string &s)
{
    return rwb::text::toUnicodeForm(s, rwb::text::UnicodeForm::NFC);
}

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run runRwb(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(RWB_BINARY), args);
    Run r;
    if (!p.waitForStarted(rwbtest::scaledMs(kProcessTimeoutMs)) || !p.waitForFinished(rwbtest::scaledMs(kProcessTimeoutMs))) {
        p.kill();
        p.waitForFinished();
        r.err = "rwb did not run to the end";
        return r;
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

// Every e-mail body of the bundled sample set, each once: Japanese business text.
std::vector<std::string> sampleEmails()
{
    std::vector<std::string> out;
    QFile f(QStringLiteral(RWB_RESOURCES_DIR "/samples/company_samples.jsonl"));
    if (!f.open(QIODevice::ReadOnly))
        return out;
    while (!f.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
        const std::string text = o.value(QLatin1String("email_text")).toString().toStdString();
        if (!text.empty() && std::find(out.begin(), out.end(), text) == out.end())
            out.push_back(text);
    }
    return out;
}

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void byteLevelAlphabet();
    void qwenRegexSplit_data();
    void qwenRegexSplit();

    void bpeEncode_data();
    void bpeEncode();
    void mergeFormatsAgree();
    void addedTokenIdGapIsNoted();
    void hfNormalizerSteps();
    void addedTokensLeftmostLongest_data();
    void addedTokensLeftmostLongest();
    void addedTokenStripAndSingleWord_data();
    void addedTokenStripAndSingleWord();
    void encodeOrdinaryIgnoresAddedTokens();
    void nfcBeforeBpe();
    void byteLevelPreTokenizerOptions();
    void roundTrip_data();
    void roundTrip();
    void decodeInvalidBytes();
    void decodeAnyIdsNeverFails();
    void decodeSkipSpecial();
    void vocabularyLookups();
    void malformedTokenizerJson_data();
    void malformedTokenizerJson();
    void mutatedTokenizerJsonNeverCrashes();
    void loaderChoosesTheFile();
    void tokenizerConfig();
    void tokenizerConfigErrors_data();
    void tokenizerConfigErrors();
    void concurrentEncode();

    void spmUnigramViterbi_data();
    void spmUnigramViterbi();
    void spmByteFallback();
    void spmControlPiecesNeedAddedTokens();
    void spmDummyPrefixAndWhiteSpace();
    void spmBpeMergesByScore();
    void spmGolden_data();
    void spmGolden();
    void spmRoundTrip();
    void spmWriterRoundTrip();
    void spmTruncatedModel();
    void spmMalformedModel_data();
    void spmMalformedModel();
    void spmMutatedModelsNeverCrash();

    void trainerHandWorked();
    void trainerTieBreak();
    void trainerMinCount();
    void trainerRoundTripAndReload();
    void trainerCancel();
    void trainerRejectsBadOptions();

    void paperPromptPlain();
    void paperPromptThinking();
    void chatMl();
    void promptFormatOfModelFolder();

    void cliTrainEncodeDecode();
    void cliBadInput();
};

void TestTokenizer::byteLevelAlphabet()
{
    QCOMPARE(byteToChar(' '), char32_t(0x120));  // Ġ: 0x20 is the 33rd remapped byte (n = 32)
    QCOMPARE(byteToChar('\n'), char32_t(0x10A)); // Ċ: n = 10
    QCOMPARE(byteToChar(0x00), char32_t(0x100));
    QCOMPARE(byteToChar(0x7F), char32_t(0x121)); // n = 33, after the 33 bytes 0x00–0x20
    QCOMPARE(byteToChar(0x81), char32_t(0x123)); // n = 35
    QCOMPARE(byteToChar(0xA0), char32_t(0x142)); // n = 66
    QCOMPARE(byteToChar(0xAD), char32_t(0x143)); // n = 67, the last of 68
    QCOMPARE(byteToChar('!'), char32_t('!'));
    QCOMPARE(byteToChar(0xE3), char32_t(0xE3));
    QCOMPARE(charToByte(0x144), -1);
    for (int b = 0; b < 256; ++b)
        QCOMPARE(charToByte(byteToChar(static_cast<uint8_t>(b))), b);
    // こ = E3 81 93 → ã ģ ĵ
    QCOMPARE(QString::fromStdString(bytesToByteLevel("こ")), QString::fromUtf8("ãģĵ"));
    QCOMPARE(byteLevelToBytes("ãģĵ"), std::string("こ"));
}

void TestTokenizer::qwenRegexSplit_data()
{
    // Pieces joined by "|". The alternatives, in order: contractions | one non-letter,
    // non-digit, non-newline then letters | one digit | an optional space then punctuation
    // and trailing newlines | spaces ending in newlines | spaces not followed by a non-space
    // | spaces.
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("pieces");
    QTest::newRow("words") << QByteArray("Hello world") << QByteArray("Hello| world");
    // "  b": \s+(?!\S) cannot take both spaces (b follows), so it takes one; " b" follows.
    QTest::newRow("two spaces") << QByteArray("a  b") << QByteArray("a| | b");
    QTest::newRow("trailing spaces") << QByteArray("a  ") << QByteArray("a|  ");
    QTest::newRow("newlines") << QByteArray("x\n\n y") << QByteArray("x|\n\n| y");
    QTest::newRow("contraction, any case") << QByteArray("I'M") << QByteArray("I|'M");
    QTest::newRow("digits one by one") << QByteArray("a123") << QByteArray("a|1|2|3");
    QTest::newRow("punctuation with newline") << QByteArray("end.\nNext") << QByteArray("end|.\n|Next");
    // 、 (U+3001) is punctuation: it leads the letters after it. U+3000 is white space
    // for \s and also a valid lead of the letters.
    QTest::newRow("Japanese punctuation") << QByteArray("東京、大阪。") << QByteArray("東京|、大阪|。");
    QTest::newRow("ideographic space") << QByteArray("a\u3000b") << QByteArray("a|\u3000b");
    QTest::newRow("letters beyond ASCII") << QByteArray("ÄÖ ñ") << QByteArray("ÄÖ| ñ");
}

void TestTokenizer::qwenRegexSplit()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, pieces);
    const RegexSplitter splitter(kQwenSplitRegex);
    const std::string input = text.toStdString(); // the pieces point into it
    QByteArrayList got;
    for (std::string_view p : splitter.splitIsolated(input))
        got << QByteArray(p.data(), static_cast<qsizetype>(p.size()));
    QCOMPARE(got.join('|'), pieces);
}

void TestTokenizer::bpeEncode_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<int>>("ids");

    // " the" is one piece: Ġ t h e. Lowest rank first: r0 (Ġ,t) → [Ġt h e]; r1 (h,e) →
    // [Ġt he]; r2 (Ġt,he) → [Ġthe] 258.
    QTest::newRow("rank order: Ġthe") << QByteArray(" the") << QList<int>{258};
    // "hello": pairs (h,e) r1, (e,l) —, (l,l) —, (l,o) r3. r1 → [he l l o]; then (l,o) r3 →
    // [he l lo]; (he,l), (l,lo) are no merges: 257 108 259.
    QTest::newRow("hello") << QByteArray("hello") << QList<int>{257, 108, 259};
    // "lower": (l,o) r3 → [lo w e r]; (lo,w) r4 → [low e r]; (e,r) r5 → [low er];
    // (low,er) r6 → [lower] 262.
    QTest::newRow("lower") << QByteArray("lower") << QList<int>{262};
    // " lower": … → [Ġ low er]; candidates (Ġ,low) r7 and (low,er) r6: r6 wins → [Ġ lower];
    // (Ġ,lower) is no merge: 32 262. Merging leftmost first would give Ġlow er (263 261).
    QTest::newRow("lower rank beats leftmost") << QByteArray(" lower") << QList<int>{32, 262};
    // "Hello world": the regex gives "Hello" and " world". "Hello": only (l,o) r3 applies
    // (capital H has no merge with e) → H e l lo = 72 101 108 259. " world": Ġ w o r l d,
    // no merge → 32 119 111 114 108 100.
    QTest::newRow("two pieces") << QByteArray("Hello world")
                                << QList<int>{72, 101, 108, 259, 32, 119, 111, 114, 108, 100};
    // Digits one at a time (\p{N}): "2024" → 50 48 50 52, each its own piece.
    QTest::newRow("digits") << QByteArray("2024") << QList<int>{50, 48, 50, 52};
    // Contractions: "don't" → "don" + "'t": 100 111 110 | 39 116.
    QTest::newRow("contraction") << QByteArray("don't") << QList<int>{100, 111, 110, 39, 116};
    // "\n\n" is one piece (\s*[\r\n]+): Ċ Ċ = 10 10.
    QTest::newRow("newlines") << QByteArray("\n\n") << QList<int>{10, 10};
    // こんにちは is one \p{L}+ piece of 15 byte characters
    //   ã ģ ĵ | ã Ĥ ĵ | ã ģ « | ã ģ ¡ | ã ģ ¯
    // r8 (ã,ģ) at the four places it occurs → [ãģ ĵ ã Ĥ ĵ ãģ « ãģ ¡ ãģ ¯];
    // r9 (ãģ,ĵ) → [ãģĵ ã Ĥ ĵ …]; r10 (ã,Ĥ) → [ãģĵ ãĤ ĵ …]; r11 (ãĤ,ĵ) → [ãģĵ ãĤĵ ãģ « …];
    // r12 (ãģ,«) → [ãģĵ ãĤĵ ãģ« ãģ ¡ ãģ ¯]; r13 (ãģĵ,ãĤĵ) → [ãģĵãĤĵ ãģ« ãģ ¡ ãģ ¯]
    // = 269 268 264 161(¡ = 0xA1) 264 175(¯ = 0xAF).
    QTest::newRow("Japanese bytes → merges") << QByteArray("こんにちは") << QList<int>{269, 268, 264, 161, 264, 175};
    // "はい": ã ģ ¯ ã ģ Ħ (い = E3 81 84; 0x84 → n = 38 → Ħ, id 132): r8 twice → 264 175 264 132.
    QTest::newRow("Japanese, two kana") << QByteArray("はい") << QList<int>{264, 175, 264, 132};
}

void TestTokenizer::bpeEncode()
{
    QFETCH(QByteArray, text);
    QFETCH(QList<int>, ids);
    for (const char *fixture : {"bpe_pairs", "bpe_strings"}) {
        const auto tok = loadFixture(fixture);
        COMPARE_IDS(tok->encode(text.toStdString()), toIds(ids));
    }
}

void TestTokenizer::mergeFormatsAgree()
{
    const auto pairs = loadFixture("bpe_pairs");
    const auto strings = loadFixture("bpe_strings");
    QCOMPARE(static_cast<ByteLevelBpeTokenizer *>(pairs.get())->mergeCount(), size_t(14));
    QCOMPARE(static_cast<ByteLevelBpeTokenizer *>(strings.get())->mergeCount(), size_t(14));
    QCOMPARE(pairs->vocabSize(), 285);
    for (const char *text : {"the lower hello", "こんにちは、世界！", "<|im_start|>user\nhi<|im_end|>", " \t \n x"})
        COMPARE_IDS(pairs->encode(text), strings->encode(text));
}

// bpe_pairs leaves 270-279 unused between its 270 model tokens and its added tokens at
// 280-284. tokenizers 0.23.3 gives them 270-274 (checked with Tokenizer.from_file and
// get_added_tokens_decoder); we keep 280-284 and say so, once per token.
void TestTokenizer::addedTokenIdGapIsNoted()
{
    const auto tok = loadFixture("bpe_pairs");
    QCOMPARE(tok->tokenToId("<|endoftext|>"), std::optional<int32_t>(280));
    const std::vector<std::string> notes = tok->notes();
    QCOMPARE(notes.size(), size_t(5));
    QCOMPARE(QString::fromStdString(notes[0]),
             QString("added token \"<|endoftext|>\" has id 280, after unused ids: tokenizers and transformers would "
                     "renumber it to 270; this engine keeps 280, the embedding row the file names"));
    QVERIFY(QString::fromStdString(notes[4]).startsWith("added token \"<think></think>\" has id 284"));
    QVERIFY(QString::fromStdString(notes[4]).contains("renumber it to 274;"));
    // No gap: the golden byte-level BPE's added tokens follow its vocabulary.
    const auto plain = loadTokenizer(RWB_TEST_DATA "/hf/tokenizers/byte_level_bpe");
    QVERIFY(!plain->addedTokens().empty());
    QVERIFY(plain->notes().empty());
}

// The tokenizer.json normalizer steps the Unigram goldens do not use, by hand.
void TestTokenizer::hfNormalizerSteps()
{
    const JsonFieldReader r("tokenizer.json");
    auto run = [&](const nlohmann::json &n, const std::string &text, bool *keepsStart = nullptr) {
        return HfNormalizer::fromJson(r, &n).apply(text, keepsStart);
    };
    auto error = [&](const nlohmann::json &n) {
        try {
            HfNormalizer::fromJson(r, &n);
        } catch (const rwb::data::InputException &e) {
            return QString::fromStdString(e.what());
        }
        return QString();
    };
    // é as e + U+0301: NFC composes it, NFD of "é" decomposes it, StripAccents drops the mark.
    QCOMPARE(run({{"type", "NFC"}}, "e\u0301"), std::string("\u00e9"));
    QCOMPARE(run({{"type", "NFD"}}, "\u00e9"), std::string("e\u0301"));
    QCOMPARE(run({{"type", "NFKD"}}, "\uFB01"), std::string("fi"));
    QCOMPARE(run({{"type", "Sequence"}, {"normalizers", {{{"type", "NFD"}}, {{"type", "StripAccents"}}}}}, "caf\u00e9"),
             std::string("cafe"));
    QCOMPARE(run({{"type", "Lowercase"}}, "\u0130stanbul ABC"), std::string("i\u0307stanbul abc"));
    // Prepend: only in front of a text that is not empty.
    QCOMPARE(run({{"type", "Prepend"}, {"prepend", "\u2581"}}, "ab"), std::string("\u2581ab"));
    QCOMPARE(run({{"type", "Prepend"}, {"prepend", "\u2581"}}, ""), std::string());
    // Strip one side; U+3000 is White_Space.
    bool kept = true;
    QCOMPARE(run({{"type", "Strip"}, {"strip_left", false}, {"strip_right", true}}, " a \u3000", &kept), std::string(" a"));
    QVERIFY(kept);
    QCOMPARE(run({{"type", "Strip"}}, "\u3000a ", &kept), std::string("a"));
    QVERIFY(!kept); // the text no longer starts where the raw text did
    // Replace: every non-overlapping match, left to right.
    QCOMPARE(run({{"type", "Replace"}, {"pattern", {{"String", "ab"}}}, {"content", "x"}}, "ababa c"), std::string("xxa c"));
    QCOMPARE(run({{"type", "Replace"}, {"pattern", {{"Regex", "^ +"}}}, {"content", ""}}, "  a  b", &kept),
             std::string("a  b"));
    QVERIFY(!kept);
    QCOMPARE(run({{"type", "Replace"}, {"pattern", {{"Regex", " +"}}}, {"content", "_"}}, "  a  b", &kept),
             std::string("_a_b"));
    QVERIFY(kept); // replaced, not removed
    // Refused, naming the field.
    QVERIFY(error({{"type", "Replace"}, {"pattern", {{"Regex", "(a"}}}, {"content", ""}})
                .contains("tokenizer.json: normalizer.pattern.Regex: does not compile"));
    QVERIFY(error({{"type", "Sequence"}, {"normalizers", {{{"type", "NFC"}}, {{"type", "BertNormalizer"}}}}})
                .contains("normalizer.normalizers[1].type: normalizer \"BertNormalizer\" is not supported here"));
    QVERIFY(error({{"type", "Precompiled"}, {"precompiled_charsmap", "AAAA"}}).contains("not a sentencepiece character map"));
}

void TestTokenizer::addedTokensLeftmostLongest_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<int>>("ids");
    // The chat markers are cut out first; "Hi", "user\nこんにちは" are encoded on their own:
    // "user" → u s (e,r)r5 = 117 115 261; "\n" → 10; こんにちは as above.
    QTest::newRow("ChatML turn") << QByteArray("Hi<|im_start|>user\nこんにちは<|im_end|>")
                                 << QList<int>{72, 105, 281, 117, 115, 261, 10, 269, 268, 264, 161, 264, 175, 282};
    // <think> and <think></think> both start at the same place: the longer wins.
    QTest::newRow("longest at one place") << QByteArray("x<think></think>y") << QList<int>{120, 284, 121};
    QTest::newRow("shorter when the longer is not there") << QByteArray("x<think>y") << QList<int>{120, 283, 121};
    // The leftmost match is taken even when a longer one starts later.
    QTest::newRow("leftmost first") << QByteArray("<think><think></think>") << QList<int>{283, 284};
    // Text before a marker is its own stretch: " the" → 258, then the marker.
    QTest::newRow("text around") << QByteArray(" the<|endoftext|> the") << QList<int>{258, 280, 258};
    // An unfinished marker is plain text: < | e n d (all single bytes: no merge applies).
    QTest::newRow("partial marker") << QByteArray("<|end") << QList<int>{60, 124, 101, 110, 100};
    QTest::newRow("only markers") << QByteArray("<|im_end|><|im_end|>") << QList<int>{282, 282};
}

void TestTokenizer::addedTokensLeftmostLongest()
{
    QFETCH(QByteArray, text);
    QFETCH(QList<int>, ids);
    const auto tok = loadFixture("bpe_pairs");
    COMPARE_IDS(tok->encode(text.toStdString()), toIds(ids));
    QCOMPARE(QByteArray::fromStdString(tok->decode(toIds(ids))), text);
}

void TestTokenizer::addedTokenStripAndSingleWord_data()
{
    // Tokens: "<m>" (id 1) lstrip + rstrip; "ab" (id 2) single_word; "abc" (id 3) single_word
    // and "bc" (id 4), to see that a rejected match stays plain. Segments are "begin-end"
    // in bytes, ":id" for an added token; worked out by hand from Hugging Face's rules
    // (White_Space either side for lstrip / rstrip; Rust regex's \w for single_word).
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("segments");
    QTest::newRow("ascii spaces") << QByteArray("a \t<m> \nb") << "0-1 3-6:1 8-9";
    // U+3000 (3 bytes), U+00A0 (2), U+2009 (3) before; U+202F (3), U+2028 (3), U+0085 (2) after.
    QTest::newRow("ideographic space") << QByteArray("a\u3000<m>b") << "0-1 4-7:1 7-8";
    QTest::newRow("nbsp and thin space") << QByteArray("x\u00A0\u2009<m>") << "0-1 6-9:1";
    QTest::newRow("after: nnbsp, line sep, nel")
        << QByteArray("<m>\u202F\u2028\u0085y") << "0-3:1 11-12";
    // Not white space: U+200B (zero width space), U+3001, a lone continuation byte A0.
    QTest::newRow("zero width space stays") << QByteArray("a\u200B<m>") << "0-4 4-7:1";
    QTest::newRow("ill-formed byte stays") << QByteArray("a\xA0<m>") << "0-2 2-5:1";
    QTest::newRow("all white space") << QByteArray("\u3000 <m>\u00A0") << "4-7:1";
    QTest::newRow("single word alone") << QByteArray("ab cd") << "0-2:2 2-5";
    QTest::newRow("single word, punctuation") << QByteArray("(ab).") << "0-1 1-3:2 3-5";
    QTest::newRow("inside a word") << QByteArray("xab") << "0-3";
    QTest::newRow("before underscore") << QByteArray("ab_") << "0-3";
    QTest::newRow("after a letter: e acute") << QByteArray("\u00E9ab") << "0-4";
    QTest::newRow("after an Arabic-Indic digit") << QByteArray("\u0661ab") << "0-4";
    QTest::newRow("after a combining mark") << QByteArray("ab\u0301") << "0-4";
    QTest::newRow("after a joiner") << QByteArray("\u200Dab") << "0-5";
    QTest::newRow("after circled digit (No)") << QByteArray("\u2461ab") << "0-3 3-5:2";
    QTest::newRow("after superscript two") << QByteArray("ab\u00B2") << "0-2:2 2-4";
    QTest::newRow("rejected match stays plain") << QByteArray("xabc") << "0-4";
    QTest::newRow("shorter token after it") << QByteArray("abc bc") << "0-3:3 3-4 4-6:4";
}

void TestTokenizer::addedTokenStripAndSingleWord()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, segments);
    const AddedTokenMatcher matcher({{"<m>", 1, true, true, false},
                                     {"ab", 2, false, false, true},
                                     {"abc", 3, false, false, true},
                                     {"bc", 4, false, false, false}});
    QStringList got;
    for (const AddedTokenMatcher::Segment &s : matcher.split(std::string_view(text.constData(), size_t(text.size()))))
        got << QStringLiteral("%1-%2").arg(s.begin).arg(s.end) + (s.id >= 0 ? QStringLiteral(":%1").arg(s.id) : QString());
    QCOMPARE(got.join(' '), segments);
}

void TestTokenizer::encodeOrdinaryIgnoresAddedTokens()
{
    const auto tok = loadFixture("bpe_pairs");
    // "<|im_end|>" as text: < | (punctuation run "<|") … the regex gives "<|", "im", "_", "end", "|>".
    const Ids ids = tok->encodeOrdinary("<|im_end|>");
    QVERIFY(std::find(ids.begin(), ids.end(), 282) == ids.end());
    QCOMPARE(tok->decode(ids), std::string("<|im_end|>"));
    COMPARE_IDS(tok->encode("<|im_end|>"), (Ids{282}));
}

void TestTokenizer::nfcBeforeBpe()
{
    const auto tok = loadFixture("bpe_pairs");
    // が written as か + U+3099 (combining voiced mark) becomes NFC が = E3 81 8C = ã ģ Į
    // (0x8C → n = 46 → U+012E); r8 → ãģ Į = 264 140. Without NFC it would be 6 bytes.
    COMPARE_IDS(tok->encode("か\u3099"), (Ids{264, 140}));
    COMPARE_IDS(tok->encode("が"), (Ids{264, 140}));
}

void TestTokenizer::byteLevelPreTokenizerOptions()
{
    // Bytes (id = byte value), then "12" 256 and "Ġ1" 257; merges r0 (1,2), r1 (Ġ,1).
    std::unordered_map<std::string, int32_t> vocab;
    for (int b = 0; b < 256; ++b)
        vocab.emplace(bytesToByteLevel(std::string(1, static_cast<char>(b))), b);
    vocab.emplace("12", 256);
    vocab.emplace("Ġ1", 257);
    vocab.emplace("hello", 258);
    const std::vector<std::pair<std::string, std::string>> merges = {{"1", "2"}, {"Ġ", "1"}};

    // Qwen's regex takes digits one at a time: "a 123" → a | " " | 1 | 2 | 3; no pair of
    // one piece can merge → 97 32 49 50 51.
    const ByteLevelBpeTokenizer qwen(vocab, merges, ByteLevelBpeTokenizer::qwenOptions());
    COMPARE_IDS(qwen.encode("a 123"), (Ids{97, 32, 49, 50, 51}));

    // A plain ByteLevel pre-tokenizer with GPT-2's own regex keeps " 123" whole:
    // Ġ 1 2 3 → r0 (1,2) → Ġ 12 3 → (Ġ,12) is no merge → 32 256 51.
    ByteLevelBpeTokenizer::Options gpt2;
    gpt2.normalizer.clear();
    gpt2.preTokenizer = {ByteLevelBpeTokenizer::PreTokenizerStep::byteLevel(/*useRegex=*/true)};
    const ByteLevelBpeTokenizer plain(vocab, merges, gpt2);
    COMPARE_IDS(plain.encode("a 123"), (Ids{97, 32, 256, 51}));

    // add_prefix_space: "1" becomes " 1" → Ġ 1 → r1 → 257.
    gpt2.preTokenizer.front().addPrefixSpace = true;
    const ByteLevelBpeTokenizer prefixed(vocab, merges, gpt2);
    COMPARE_IDS(prefixed.encode("1"), (Ids{257}));

    // ignore_merges: a piece that is itself a token is taken whole, without merging.
    COMPARE_IDS(plain.encode("hello"), (Ids{104, 101, 108, 108, 111}));
    gpt2.preTokenizer.front().addPrefixSpace = false;
    gpt2.ignoreMerges = true;
    const ByteLevelBpeTokenizer whole(vocab, merges, gpt2);
    COMPARE_IDS(whole.encode("hello"), (Ids{258}));

    // No ByteLevel step: not a byte-level BPE.
    ByteLevelBpeTokenizer::Options none;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ByteLevelBpeTokenizer(vocab, merges, none));
}

void TestTokenizer::roundTrip_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("Japanese") << QByteArray("株式会社きらめき商事の山田でございます。\nいつもお世話になっております。");
    QTest::newRow("mixed") << QByteArray("Re: 産業用LED照明（型番：KL-4200）の件 — 300台, 4月18日 😀 don't");
    QTest::newRow("white space") << QByteArray("  a\t\tb \r\n\r\n  c   ");
    QTest::newRow("markers inside") << QByteArray("<|im_start|>assistant\n<think>\n\n</think>\n\n答え<|im_end|>\n");
    QTest::newRow("full-width and ㈱") << QByteArray("ＡＢＣソリューションズ様 ㈱テスト　全角スペース");
}

void TestTokenizer::roundTrip()
{
    QFETCH(QByteArray, text);
    const std::string s = text.toStdString();
    for (const char *fixture : {"bpe_pairs", "spm_unigram", "spm_bpe_nfkc"}) {
        const auto tok = loadFixture(fixture);
        const std::string decoded = tok->decode(tok->encode(s));
        if (std::string(fixture) == "bpe_pairs") {
            QCOMPARE(QByteArray::fromStdString(decoded), QByteArray::fromStdString(nfc(s)));
        } else {
            // sentencepiece keeps no extra white space and, with nmt_nfkc, folds width:
            // the round trip is exact on what its normalizer leaves.
            QVERIFY2(!decoded.empty(), fixture);
            QCOMPARE(tok->decode(tok->encode(decoded)), decoded);
        }
    }
}

void TestTokenizer::decodeInvalidBytes()
{
    const auto tok = loadFixture("bpe_pairs");
    // Token 264 "ãģ" is the bytes E3 81: the start of a kana, not a character.
    QCOMPARE(tok->decodeBytes({264}), std::string("\xE3\x81"));
    QCOMPARE(tok->decode({264}), std::string(kReplacement));
    // Joined before the repair, the pieces make こ (E3 81 | 93 = id 147).
    QCOMPARE(tok->decodeBytes({264}) + tok->decodeBytes({147}, false, /*atStart=*/false), std::string("こ"));
    QCOMPARE(tok->decode({264, 147}), std::string("こ"));
    // A lone continuation byte, a lone 0xFF, a cut-off kana before ASCII.
    QCOMPARE(tok->decode({0x81}), std::string(kReplacement));
    QCOMPARE(tok->decode({0xFF, 'a'}), std::string(kReplacement) + "a");
    QCOMPARE(tok->decode({264, 'a'}), std::string(kReplacement) + "a");
    // One U+FFFD per maximal subpart, as Hugging Face's decoder (String::from_utf8_lossy)
    // gives: ED A1 is two (A1 cannot follow ED), C0 82 two, F5 99 BD 50 three and "P".
    const std::string r2 = std::string(kReplacement) + kReplacement;
    QCOMPARE(tok->decodeBytes({0xED, 0xA1}), std::string("\xED\xA1"));
    QCOMPARE(tok->decode({0xED, 0xA1}), r2);
    QCOMPARE(tok->decode({0xC0, 0x82}), r2);
    QCOMPARE(tok->decode({0xF5, 0x99, 0xBD, 'P'}), r2 + kReplacement + "P");
    // The same repair runs on text before encoding: ED A1 encodes as two U+FFFD (EF BF BD each).
    QCOMPARE(tok->encode("\xED\xA1"), tok->encode(r2));
}

void TestTokenizer::decodeAnyIdsNeverFails()
{
    std::vector<std::unique_ptr<Tokenizer>> toks;
    toks.push_back(loadFixture("bpe_pairs"));
    toks.push_back(loadFixture("spm_unigram"));
    toks.push_back(loadFixture("spm_bpe_nfkc"));
    // Out of range and holes (270 in bpe_pairs) become U+FFFD.
    QCOMPARE(toks[0]->decode({-5, 99999, 270, 72}), std::string(kReplacement) + kReplacement + kReplacement + "H");
    std::mt19937 rng(12345);
    for (const auto &tok : toks) {
        std::uniform_int_distribution<int32_t> pick(-3, tok->vocabSize() + 3);
        for (int round = 0; round < 300; ++round) {
            Ids ids(rng() % 20);
            for (int32_t &id : ids)
                id = pick(rng);
            const std::string text = tok->decode(ids, round % 2 == 0);
            QVERIFY(rwb::text::isValidUtf8(text));
        }
    }
}

void TestTokenizer::decodeSkipSpecial()
{
    const auto tok = loadFixture("bpe_pairs");
    const Ids ids = tok->encode("<|im_start|>assistant\n<think>x<|im_end|>");
    QCOMPARE(tok->decode(ids), std::string("<|im_start|>assistant\n<think>x<|im_end|>"));
    // <think> is not special: it stays.
    QCOMPARE(tok->decode(ids, /*skipSpecial=*/true), std::string("assistant\n<think>x"));
    QVERIFY(tok->isSpecial(282));
    QVERIFY(!tok->isSpecial(283));
    QVERIFY(!tok->isSpecial(97));
}

void TestTokenizer::vocabularyLookups()
{
    const auto tok = loadFixture("bpe_pairs");
    QCOMPARE(tok->tokenToId("Ġthe"), std::optional<int32_t>(258));
    QCOMPARE(tok->tokenToId("<|im_end|>"), std::optional<int32_t>(282));
    QCOMPARE(tok->tokenToId("nope"), std::optional<int32_t>());
    QCOMPARE(tok->idToToken(269), std::string("ãģĵãĤĵ"));
    QCOMPARE(tok->idToToken(281), std::string("<|im_start|>"));
    QCOMPARE(tok->idToToken(275), std::string());
    QCOMPARE(tok->idToToken(-1), std::string());
    QCOMPARE(tok->kind(), std::string("byte-level BPE"));
    // tokenizer.json alone names no eos.
    QVERIFY(!tok->eosId().has_value());
    QVERIFY(!tok->addsBos());
}

void TestTokenizer::malformedTokenizerJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("expected"); // substrings of the message

    const QByteArray ok = readFile(dataDir("bpe_strings/tokenizer.json"));
    QVERIFY(!ok.isEmpty());
    auto replaced = [&](const char *from, const char *to) {
        QByteArray b = ok;
        Q_ASSERT(b.contains(from));
        return b.replace(from, to);
    };
    // The syntax error is on line 3 (the fixture has one key per line).
    QTest::newRow("syntax") << replaced("\"truncation\": null,", "\"truncation\": nul,")
                            << QStringList{"tokenizer.json:3:", "not valid JSON"};
    QTest::newRow("truncated file") << ok.left(ok.size() / 2) << QStringList{"tokenizer.json:", "not valid JSON"};
    QTest::newRow("merge with no space") << replaced("\"l o\"", "\"lo\"")
                                         << QStringList{"tokenizer.json", "model.merges[3]", "two tokens"};
    QTest::newRow("merge of unknown token") << replaced("\"lo w\"", "\"lo q9\"")
                                            << QStringList{"tokenizer.json", "merges[4]", "q9"};
    QTest::newRow("merge not a string") << replaced("\"e r\"", "17") << QStringList{"model.merges[5]"};
    QTest::newRow("model type") << replaced("\"type\": \"BPE\"", "\"type\": \"WordPiece\"")
                                << QStringList{"model.type", "WordPiece"};
    QTest::newRow("vocab id far too large") << replaced("\"Ġthe\": 258", "\"Ġthe\": 2000000000")
                                            << QStringList{"model", "2000000000", "far beyond"};
    QTest::newRow("vocab id not a number") << replaced("\"Ġthe\": 258", "\"Ġthe\": \"x\"")
                                           << QStringList{"model.vocab[\"Ġthe\"]", "integer"};
    QTest::newRow("unsupported normalizer") << replaced("\"type\": \"NFC\"", "\"type\": \"Lowercase\"")
                                            << QStringList{"normalizer.type", "Lowercase"};
    QTest::newRow("unsupported pre-tokenizer") << replaced("\"type\": \"Split\"", "\"type\": \"Metaspace\"")
                                               << QStringList{"pre_tokenizer.pretokenizers[0].type", "Metaspace"};
    QTest::newRow("bad regex") << replaced("\"Regex\": \"(?i:", "\"Regex\": \"((?i:")
                               << QStringList{"pre_tokenizer.pretokenizers[0].pattern.Regex", "regex"};
    QTest::newRow("split behaviour") << replaced("\"Isolated\"", "\"MergedWithPrevious\"")
                                     << QStringList{"pretokenizers[0].behavior"};
    QTest::newRow("added token without id") << replaced("\"id\": 280,", "")
                                            << QStringList{"added_tokens[0].id", "missing"};
    QTest::newRow("added token id taken twice") << replaced("\"id\": 281,", "\"id\": 280,")
                                                << QStringList{"added_tokens", "280"};
    QTest::newRow("no model") << QByteArray("{\"pre_tokenizer\": {\"type\": \"ByteLevel\"}}")
                              << QStringList{"tokenizer.json", "model: missing"};
    QTest::newRow("not an object") << QByteArray("[1, 2]") << QStringList{"tokenizer.json", "expected an object"};
}

void TestTokenizer::malformedTokenizerJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("tokenizer.json")), json);
    const QString message = inputError([&] { loadTokenizer(dir.path().toStdString()); });
    QVERIFY2(!message.isEmpty(), "no error");
    for (const QString &part : expected)
        QVERIFY2(message.contains(part), qPrintable(message + QLatin1String(" lacks ") + part));
}

void TestTokenizer::mutatedTokenizerJsonNeverCrashes()
{
    // A seeded mutation loop over the fixture's text and over a tokenizer_config.json:
    // characters replaced by JSON-significant ones, inserted, deleted. Each result loads
    // or throws InputException (any other exception fails the test).
    const QByteArray json = readFile(dataDir("bpe_strings/tokenizer.json"));
    const QByteArray config = R"({"added_tokens_decoder": {"280": {"content": "<|endoftext|>", "special": true}},
        "eos_token": {"content": "<|im_end|>"}, "pad_token": "<|endoftext|>", "add_bos_token": false,
        "additional_special_tokens": ["<|im_start|>"]})";
    const char alphabet[] = "{}[]\",:0123456789-aeltrunfNBPE ";
    std::mt19937 rng(4242);
    auto mutate = [&](QByteArray b) {
        const int edits = 1 + static_cast<int>(rng() % 3);
        for (int e = 0; e < edits; ++e) {
            const auto at = static_cast<qsizetype>(rng() % static_cast<uint32_t>(b.size()));
            const char c = alphabet[rng() % (sizeof alphabet - 1)];
            switch (rng() % 3) {
            case 0: b[at] = c; break;
            case 1: b.insert(at, c); break;
            default: b.remove(at, 1 + static_cast<qsizetype>(rng() % 6));
            }
        }
        return b;
    };
    QTemporaryDir dir;
    int loaded = 0, rejected = 0;
    for (int round = 0; round < 400; ++round) {
        const bool mutateConfig = round % 4 == 3;
        writeFile(dir.filePath(QStringLiteral("tokenizer.json")), mutateConfig ? json : mutate(json));
        writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")), mutateConfig ? mutate(config) : config);
        try {
            const auto tok = loadTokenizer(dir.path().toStdString());
            QVERIFY(rwb::text::isValidUtf8(tok->decode(tok->encode("こんにちは the lower <|im_end|>"))));
            ++loaded;
        } catch (const rwb::data::InputException &) {
            ++rejected;
        } catch (const std::exception &e) {
            QFAIL(qPrintable(QStringLiteral("round %1: not an InputException: %2").arg(round).arg(QString::fromUtf8(e.what()))));
        }
    }
    QVERIFY(loaded > 0);
    QVERIFY(rejected > 0);
}

void TestTokenizer::loaderChoosesTheFile()
{
    QTemporaryDir dir;
    // Nothing there.
    QString message = inputError([&] { loadTokenizer(dir.path().toStdString()); });
    QVERIFY2(message.contains(QLatin1String("no tokenizer.json or tokenizer.model")), qPrintable(message));
    QVERIFY2(message.contains(dir.path()), qPrintable(message));
    message = inputError([&] { loadTokenizer(dir.filePath(QStringLiteral("missing")).toStdString()); });
    QVERIFY2(message.contains(QLatin1String("not a folder")), qPrintable(message));

    // A tokenizer.json that is not byte-level BPE, alone: read as what it is (Unigram here,
    // tst_hfencoder has the cases), and the field at fault is named.
    const QByteArray unigramJson = R"({"model": {"type": "Unigram", "vocab": []}, "pre_tokenizer": {"type": "Metaspace"}})";
    writeFile(dir.filePath(QStringLiteral("tokenizer.json")), unigramJson);
    message = inputError([&] { loadTokenizer(dir.path().toStdString()); });
    QVERIFY2(message.contains(QLatin1String("tokenizer.json")) && message.contains(QLatin1String("model.vocab: empty")),
             qPrintable(message));

    // … with a tokenizer.model beside it: the sentencepiece model is read.
    QFile::copy(dataDir("spm_unigram/tokenizer.model"), dir.filePath(QStringLiteral("tokenizer.model")));
    const auto tok = loadTokenizer(dir.path().toStdString());
    QCOMPARE(tok->kind(), std::string("sentencepiece unigram"));

    // A byte-level tokenizer.json wins over a tokenizer.model.
    QFile::remove(dir.filePath(QStringLiteral("tokenizer.json")));
    QFile::copy(dataDir("bpe_pairs/tokenizer.json"), dir.filePath(QStringLiteral("tokenizer.json")));
    QCOMPARE(loadTokenizer(dir.path().toStdString())->kind(), std::string("byte-level BPE"));
}

void TestTokenizer::tokenizerConfig()
{
    QTemporaryDir dir;
    QFile::copy(dataDir("bpe_pairs/tokenizer.json"), dir.filePath(QStringLiteral("tokenizer.json")));
    // Qwen's layout: the markers again in added_tokens_decoder, one more token (300) only
    // here, eos / pad by content (a string or an object), bos null.
    writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")), R"({
      "add_bos_token": false,
      "added_tokens_decoder": {
        "280": {"content": "<|endoftext|>", "lstrip": false, "normalized": false, "rstrip": false, "single_word": false, "special": true},
        "282": {"content": "<|im_end|>", "special": true},
        "300": {"content": "<tool>", "special": false}
      },
      "additional_special_tokens": ["<|im_start|>", "<|im_end|>"],
      "bos_token": null,
      "eos_token": "<|im_end|>",
      "pad_token": {"content": "<|endoftext|>", "__type": "AddedToken"},
      "unk_token": null
    })");
    const auto tok = loadTokenizer(dir.path().toStdString());
    QCOMPARE(tok->eosId(), std::optional<int32_t>(282));
    QCOMPARE(tok->padId(), std::optional<int32_t>(280));
    QCOMPARE(tok->bosId(), std::optional<int32_t>());
    QCOMPARE(tok->vocabSize(), 301);
    // <tool> is matched in the text and is not special.
    COMPARE_IDS(tok->encode("a<tool>b"), (Ids{97, 300, 98}));
    QVERIFY(!tok->isSpecial(300));
    QCOMPARE(tok->decode({300}), std::string("<tool>"));

    // A sentencepiece model: the config turns its CONTROL piece into a token matched in
    // the text, and replaces the model's eos.
    QTemporaryDir spm;
    writeSentencePieceModel(spm.filePath(QStringLiteral("tokenizer.model")).toStdString(), handUnigram(false).pieces,
                            handUnigram(false).options);
    writeFile(spm.filePath(QStringLiteral("tokenizer_config.json")),
              R"({"added_tokens_decoder": {"14": {"content": "<|im_start|>", "special": true}},
                  "eos_token": "<|im_start|>", "add_bos_token": false})");
    const auto sp = loadTokenizer(spm.path().toStdString());
    QCOMPARE(sp->eosId(), std::optional<int32_t>(14));
    QCOMPARE(sp->bosId(), std::optional<int32_t>(1)); // trainer_spec.bos_id
    QVERIFY(!sp->addsBos());
    COMPARE_IDS(sp->encode("<|im_start|>abc"), (Ids{14, 6, 5}));
}

void TestTokenizer::tokenizerConfigErrors_data()
{
    QTest::addColumn<QByteArray>("config");
    QTest::addColumn<QString>("field");
    QTest::newRow("syntax") << QByteArray("{\"eos_token\": }") << QStringLiteral("tokenizer_config.json:1:");
    QTest::newRow("eos not in vocabulary") << QByteArray(R"({"eos_token": "<nope>"})") << QStringLiteral("eos_token");
    QTest::newRow("eos wrong type") << QByteArray(R"({"eos_token": 5})") << QStringLiteral("eos_token");
    QTest::newRow("decoder key not an id") << QByteArray(R"({"added_tokens_decoder": {"x": {"content": "a"}}})")
                                           << QStringLiteral("added_tokens_decoder.x");
    QTest::newRow("decoder without content") << QByteArray(R"({"added_tokens_decoder": {"7": {"special": true}}})")
                                             << QStringLiteral("added_tokens_decoder.7.content");
    QTest::newRow("decoder id clash") << QByteArray(R"({"added_tokens_decoder": {"282": {"content": "<other>"}}})")
                                      << QStringLiteral("added_tokens_decoder");
    QTest::newRow("additional not in vocabulary") << QByteArray(R"({"additional_special_tokens": ["<a>"]})")
                                                  << QStringLiteral("additional_special_tokens[0]");
    QTest::newRow("add_bos_token not a bool") << QByteArray(R"({"add_bos_token": "yes"})")
                                              << QStringLiteral("add_bos_token");
}

void TestTokenizer::tokenizerConfigErrors()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, field);
    QTemporaryDir dir;
    QFile::copy(dataDir("bpe_pairs/tokenizer.json"), dir.filePath(QStringLiteral("tokenizer.json")));
    writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")), config);
    const QString message = inputError([&] { loadTokenizer(dir.path().toStdString()); });
    QVERIFY2(message.contains(QLatin1String("tokenizer_config.json")), qPrintable(message));
    QVERIFY2(message.contains(field), qPrintable(message));
}

void TestTokenizer::concurrentEncode()
{
    const auto tok = loadFixture("bpe_pairs");
    const std::vector<std::string> emails = sampleEmails();
    QVERIFY(emails.size() > 10);
    std::vector<Ids> expected;
    for (const std::string &e : emails)
        expected.push_back(tok->encode(e));
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int round = 0; round < 3; ++round)
                for (size_t i = 0; i < emails.size(); ++i)
                    if (tok->encode(emails[i]) != expected[i])
                        ++mismatches;
        });
    for (std::thread &t : threads)
        t.join();
    QCOMPARE(mismatches.load(), 0);
}

// ---------------------------------------------------------------------------------------
// sentencepiece

void TestTokenizer::spmUnigramViterbi_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<int>>("ids");
    // "abc": a|b|c = −2−2−2 = −6; ab|c = −3−2 = −5; a|bc = −2−3.5 = −5.5; abc = −7.
    // Best: ab|c → 6 5.
    QTest::newRow("abc") << QByteArray("abc") << QList<int>{6, 5};
    // "bc": b|c = −4; bc = −3.5 → 7.
    QTest::newRow("bc") << QByteArray("bc") << QList<int>{7};
    // 東京都: 東|京|都 = −9; 東京|都 = −4−3 = −7; 東|京都 = −3−3.5 = −6.5 → 9 13.
    QTest::newRow("東京都") << QByteArray("東京都") << QList<int>{9, 13};
    // 東京: 東京 = −4 beats 東|京 = −6 → 12.
    QTest::newRow("東京") << QByteArray("東京") << QList<int>{12};
    // X has no piece: an unknown node scores min(score) − 10 = −7 − 10 = −17: a|<unk>|b.
    QTest::newRow("unknown character") << QByteArray("aXb") << QList<int>{3, 0, 4};
    // Consecutive unknown characters share one <unk>.
    QTest::newRow("unknown run") << QByteArray("XYZa") << QList<int>{0, 3};
    // The USER_DEFINED <sep> is cut out first, whole: ab | <sep> | c.
    QTest::newRow("user-defined piece") << QByteArray("ab<sep>c") << QList<int>{6, 15, 5};
}

void TestTokenizer::spmUnigramViterbi()
{
    QFETCH(QByteArray, text);
    QFETCH(QList<int>, ids);
    const SentencePieceTokenizer tok(handUnigram(false), "hand.model");
    COMPARE_IDS(tok.encode(text.toStdString()), toIds(ids));
}

void TestTokenizer::spmByteFallback()
{
    const SentencePieceTokenizer tok(handUnigram(true), "hand.model");
    // ぬ = E3 81 AC has no piece: its bytes <0xE3> <0x81> <0xAC> (ids 16 + byte).
    COMPARE_IDS(tok.encode("ぬ"), (Ids{byteId(0xE3), byteId(0x81), byteId(0xAC)}));
    QCOMPARE(tok.idToToken(byteId(0xE3)), std::string("<0xE3>"));
    // a, ぬ's bytes, then 東京 (12).
    const Ids ids = tok.encode("aぬ東京");
    COMPARE_IDS(ids, (Ids{3, byteId(0xE3), byteId(0x81), byteId(0xAC), 12}));
    QCOMPARE(tok.decode(ids), std::string("aぬ東京"));
    // Two of the three bytes: not a character.
    QCOMPARE(tok.decode({byteId(0xE3), byteId(0x81)}), std::string(kReplacement));
    QCOMPARE(tok.decodeBytes({byteId(0xE3), byteId(0x81)}), std::string("\xE3\x81"));
}

void TestTokenizer::spmControlPiecesNeedAddedTokens()
{
    SentencePieceTokenizer tok(handUnigram(false), "hand.model");
    // Plain text never gives the CONTROL piece 14: "<|im_st" and "rt|>" have no pieces
    // (one <unk> each), "a" is piece 3.
    COMPARE_IDS(tok.encode("<|im_start|>"), (Ids{0, 3, 0}));
    QVERIFY(tok.isSpecial(14));
    QVERIFY(tok.isSpecial(0));
    QVERIFY(!tok.isSpecial(3));
    // Declared as an added token (tokenizer_config.json does that), it is cut out first.
    tok.addAddedToken({14, "<|im_start|>", true, false, false});
    COMPARE_IDS(tok.encode("<|im_start|>abc"), (Ids{14, 6, 5}));
    QCOMPARE(tok.decode({14, 6, 5}), std::string("<|im_start|>abc"));
    QCOMPARE(tok.decode({1, 14, 6, 5, 2}, /*skipSpecial=*/true), std::string("abc"));
}

void TestTokenizer::spmDummyPrefixAndWhiteSpace()
{
    // 0 <unk>  1 ▁ −1  2 ▁a −2  3 b −2  4 ▁b −1.5  5 a −3
    SentencePieceModel m;
    m.pieces = {piece("<unk>", 0, PieceType::Unknown), piece("▁", -1),  piece("▁a", -2),
                piece("b", -2),                        piece("▁b", -1.5f), piece("a", -3)};
    m.options.bosId = -1;
    m.options.eosId = -1;
    m.options.normalizerName = "identity";
    const SentencePieceTokenizer tok(m, "prefix.model");
    // "  a  b " → extra white space removed → "a b" → dummy prefix → " a b" → "▁a▁b".
    // ▁a|▁b = −2 − 1.5 = −3.5; ▁|a|▁b = −1 − 3 − 1.5 = −5.5; ▁a|▁|b = −2 − 1 − 2 = −5 → 2 4.
    COMPARE_IDS(tok.encode("  a  b "), (Ids{2, 4}));
    // The dummy prefix's space is dropped at the start of a decoding, kept in a continuation.
    QCOMPARE(tok.decode({2, 4}), std::string("a b"));
    QCOMPARE(tok.decodeBytes({4}, false, /*atStart=*/false), std::string(" b"));
}

void TestTokenizer::spmBpeMergesByScore()
{
    // 0 <unk>  1 a  2 b  3 c  4 d (0 each)  5 bc −1  6 ab −2  7 cd −3  8 bcd −5
    SentencePieceModel m;
    m.pieces = {piece("<unk>", 0, PieceType::Unknown), piece("a", 0), piece("b", 0), piece("c", 0), piece("d", 0),
                piece("bc", -1), piece("ab", -2), piece("cd", -3), piece("bcd", -5)};
    m.options.algorithm = SentencePieceAlgorithm::Bpe;
    m.options.normalizerName = "identity";
    m.options.addDummyPrefix = false;
    m.options.bosId = m.options.eosId = -1;
    const SentencePieceTokenizer tok(m, "bpe.model");
    // "abcd": candidates ab −2, bc −1, cd −3 → bc (highest) → [a bc d]; abc is no piece,
    // bcd −5 → [a bcd]; abcd is no piece → 1 8. (Leftmost-first would give ab cd.)
    COMPARE_IDS(tok.encode("abcd"), (Ids{1, 8}));
    // "dab": da is no piece, ab −2 → [d ab] → 4 6.
    COMPARE_IDS(tok.encode("dab"), (Ids{4, 6}));
    // "abe": e has no piece and there is no byte fallback → ab <unk>.
    COMPARE_IDS(tok.encode("abe"), (Ids{6, 0}));
    QCOMPARE(tok.kind(), std::string("sentencepiece BPE"));
}

void TestTokenizer::spmGolden_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("unigram, identity, byte fallback, no dummy prefix") << QStringLiteral("spm_unigram");
    QTest::newRow("BPE, nmt_nfkc, byte fallback, dummy prefix") << QStringLiteral("spm_bpe_nfkc");
    QTest::newRow("unigram, nmt_nfkc, no byte fallback") << QStringLiteral("spm_unigram_nfkc");
}

void TestTokenizer::spmGolden()
{
    QFETCH(QString, model);
    const QJsonObject golden = QJsonDocument::fromJson(readFile(dataDir("spm_golden.json"))).object();
    const QJsonArray samples = golden.value(QLatin1String("samples")).toArray();
    const QJsonObject expected = golden.value(QLatin1String("models")).toObject().value(model).toObject();
    const QJsonArray ids = expected.value(QLatin1String("ids")).toArray();
    const QJsonArray decoded = expected.value(QLatin1String("decoded")).toArray();
    QVERIFY(samples.size() >= 10);
    QCOMPARE(ids.size(), samples.size());
    const auto tok = loadTokenizer(dataDir(model.toUtf8().constData()).toStdString());
    for (qsizetype i = 0; i < samples.size(); ++i) {
        const std::string text = samples[i].toString().toStdString();
        Ids want;
        for (const QJsonValue &v : ids[i].toArray())
            want.push_back(v.toInt());
        const Ids got = tok->encode(text);
        if (got != want)
            QFAIL(qPrintable(QStringLiteral("%1: %2 gives %3, libsentencepiece %4")
                                 .arg(model, samples[i].toString(), show(got), show(want))));
        // sentencepiece writes an unknown piece as " ⁇ ", we write its text.
        QString reference = decoded[i].toString();
        reference.replace(QStringLiteral(" \u2047 "), QStringLiteral("<unk>"));
        QCOMPARE(QString::fromStdString(tok->decode(want)), reference);
    }
}

void TestTokenizer::spmRoundTrip()
{
    // Identity normalizer and byte fallback: every text without extra spaces comes back.
    const auto tok = loadFixture("spm_unigram");
    for (const std::string &email : sampleEmails()) {
        std::string text = email;
        // The model removes runs of spaces and leading / trailing ones.
        std::string squeezed;
        for (char c : text)
            if (!(c == ' ' && (squeezed.empty() || squeezed.back() == ' ')))
                squeezed.push_back(c);
        while (!squeezed.empty() && squeezed.back() == ' ')
            squeezed.pop_back();
        QCOMPARE(tok->decode(tok->encode(squeezed)), squeezed);
    }
    const std::string rare = "龘😀ゐゑ";
    QCOMPARE(tok->decode(tok->encode(rare)), rare);
}

void TestTokenizer::spmWriterRoundTrip()
{
    SentencePieceModel m = handUnigram(true);
    m.options.padId = -1;
    m.options.bosId = 1;
    m.options.eosId = 2;
    m.options.removeExtraWhitespaces = false;
    m.options.escapeWhitespaces = true;
    const std::string bytes = serializeSentencePieceModel(m.pieces, m.options);
    const SentencePieceModel back = parseSentencePieceModel(bytes, "memory.model");
    QCOMPARE(back.pieces.size(), m.pieces.size());
    for (size_t i = 0; i < m.pieces.size(); ++i) {
        QCOMPARE(back.pieces[i].piece, m.pieces[i].piece);
        QCOMPARE(back.pieces[i].score, m.pieces[i].score);
        QCOMPARE(back.pieces[i].type, m.pieces[i].type);
    }
    QCOMPARE(back.options.padId, -1); // written as a 10-byte varint
    QCOMPARE(back.options.byteFallback, true);
    QCOMPARE(back.options.addDummyPrefix, false);
    QCOMPARE(back.options.removeExtraWhitespaces, false);
    QCOMPARE(back.options.normalizerName, std::string("identity"));
    QCOMPARE(back.options.algorithm, SentencePieceAlgorithm::Unigram);
}

void TestTokenizer::spmTruncatedModel()
{
    // A small model cut at every length: an InputException naming the file, or (cut
    // between two fields) a shorter model that still loads. Never a crash.
    const SentencePieceModel m = handUnigram(false);
    const std::string bytes = serializeSentencePieceModel(m.pieces, m.options);
    int rejected = 0;
    for (size_t n = 0; n < bytes.size(); ++n) {
        try {
            SentencePieceTokenizer tok(parseSentencePieceModel(std::string_view(bytes).substr(0, n), "cut.model"),
                                       "cut.model");
            tok.encode("abc東京");
        } catch (const rwb::data::InputException &e) {
            QVERIFY2(std::string(e.what()).rfind("cut.model", 0) == 0, e.what());
            ++rejected;
        }
    }
    QVERIFY(rejected > static_cast<int>(bytes.size()) / 2);

    // The real fixture cut inside its last field, through the loader: named and "truncated".
    QTemporaryDir dir;
    const QByteArray model = readFile(dataDir("spm_unigram/tokenizer.model"));
    QVERIFY(model.size() > 1000);
    writeFile(dir.filePath(QStringLiteral("tokenizer.model")), model.left(model.size() - 3));
    const QString message = inputError([&] { loadTokenizer(dir.path().toStdString()); });
    QVERIFY2(message.contains(QLatin1String("tokenizer.model")) && message.contains(QLatin1String("truncated")),
             qPrintable(message));
    writeFile(dir.filePath(QStringLiteral("tokenizer.model")), model.left(model.size() / 2));
    QVERIFY(inputError([&] { loadTokenizer(dir.path().toStdString()); }).contains(QLatin1String("truncated")));
    writeFile(dir.filePath(QStringLiteral("tokenizer.model")), QByteArray());
    QVERIFY(inputError([&] { loadTokenizer(dir.path().toStdString()); }).contains(QLatin1String("empty")));
}

void TestTokenizer::spmMalformedModel_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("field");
    const SentencePieceModel good = handUnigram(false);
    auto build = [&](auto change) {
        SentencePieceModel m = good;
        change(m);
        return QByteArray::fromStdString(serializeSentencePieceModel(m.pieces, m.options));
    };
    QTest::newRow("word model") << build([](SentencePieceModel &m) { m.options.algorithm = SentencePieceAlgorithm::Word; })
                                << QStringLiteral("trainer_spec.model_type");
    QTest::newRow("normalizer") << build([](SentencePieceModel &m) { m.options.normalizerName = "nmt_nfkc_cf"; })
                                << QStringLiteral("normalizer_spec.name");
    QTest::newRow("unk_id not UNKNOWN") << build([](SentencePieceModel &m) { m.options.unkId = 3; })
                                        << QStringLiteral("trainer_spec.unk_id");
    QTest::newRow("unk_id out of range") << build([](SentencePieceModel &m) { m.options.unkId = 999; })
                                         << QStringLiteral("trainer_spec.unk_id");
    QTest::newRow("eos_id out of range") << build([](SentencePieceModel &m) { m.options.eosId = 16; })
                                         << QStringLiteral("trainer_spec.eos_id");
    QTest::newRow("duplicate piece") << build([](SentencePieceModel &m) { m.pieces[5].piece = "a"; })
                                     << QStringLiteral("pieces[5].piece");
    QTest::newRow("empty piece") << build([](SentencePieceModel &m) { m.pieces[4].piece.clear(); })
                                 << QStringLiteral("pieces[4].piece");
    QTest::newRow("byte piece misspelled")
        << build([](SentencePieceModel &m) { m.pieces.push_back(piece("<0xZZ>", 0, PieceType::Byte)); })
        << QStringLiteral("pieces[16].piece");
    // Wire-level damage: field 1 with wire type 3 (a group), a varint of 11 bytes, a
    // piece type of 9, a score written as a varint.
    QTest::newRow("group wire type") << QByteArray("\x0B", 1) << QStringLiteral("wire type 3");
    QTest::newRow("varint too long") << QByteArray("\x20\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 12)
                                     << QStringLiteral("varint");
    QTest::newRow("piece type 9") << QByteArray("\x0A\x05\x0A\x01x\x18\x09", 7) << QStringLiteral("pieces[0]");
    QTest::newRow("score as varint") << QByteArray("\x0A\x05\x0A\x01x\x10\x01", 7) << QStringLiteral("score");
    QTest::newRow("field number 0") << QByteArray("\x02\x00", 2) << QStringLiteral("field number 0");
}

void TestTokenizer::spmMalformedModel()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, field);
    const QString message = inputError([&] {
        SentencePieceTokenizer tok(parseSentencePieceModel(bytes.toStdString(), "bad.model"), "bad.model");
    });
    QVERIFY2(message.startsWith(QLatin1String("bad.model")), qPrintable(message));
    QVERIFY2(message.contains(field), qPrintable(message));
}

void TestTokenizer::spmMutatedModelsNeverCrash()
{
    // A seeded mutation loop: flipped bytes, inserted and deleted bytes in the real
    // fixture. Each result loads (and encodes / decodes) or throws InputException.
    const std::string original = readFile(dataDir("spm_unigram/tokenizer.model")).toStdString();
    std::mt19937 rng(20240607);
    int rejected = 0;
    for (int round = 0; round < 300; ++round) {
        std::string bytes = original;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const size_t at = rng() % bytes.size();
            switch (rng() % 3) {
            case 0: bytes[at] = static_cast<char>(rng()); break;
            case 1: bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(rng())); break;
            default: bytes.erase(at, 1 + rng() % 8);
            }
        }
        try {
            SentencePieceTokenizer tok(parseSentencePieceModel(bytes, "mutated.model"), "mutated.model");
            const Ids ids = tok.encode("株式会社きらめき商事 abc 😀");
            QVERIFY(rwb::text::isValidUtf8(tok.decode(ids)));
        } catch (const rwb::data::InputException &) {
            ++rejected;
        }
    }
    QVERIFY(rejected > 0);
}

// ---------------------------------------------------------------------------------------
// The BPE trainer

void TestTokenizer::trainerHandWorked()
{
    // "ab ab ab abc" → pieces "ab", " ab", " ab", " abc" → words ab ×1, Ġab ×2, Ġabc ×1.
    // Pair counts: (a,b) 1+2+1 = 4, (Ġ,a) 2+1 = 3, (b,c) 1.
    // 1st merge a b → "ab" (256). Words: [ab] ×1, [Ġ ab] ×2, [Ġ ab c] ×1.
    //   Counts: (Ġ,ab) 3, (ab,c) 1.
    // 2nd merge Ġ ab → "Ġab" (257). Words: [ab], [Ġab] ×2, [Ġab c]. Counts: (Ġab,c) 1.
    // 3rd merge Ġab c → "Ġabc" (258). Vocabulary 256 + 3 = 259 = vocabSize, no added tokens.
    BpeTrainerOptions o;
    o.vocabSize = 259;
    o.addedTokens.clear();
    o.minPairCount = 1;
    BpeTrainer trainer(o);
    trainer.addText("ab ab ab abc");
    QVERIFY(trainer.train());
    using Merge = std::pair<std::string, std::string>;
    QCOMPARE(trainer.merges(), (std::vector<Merge>{{"a", "b"}, {"Ġ", "ab"}, {"Ġab", "c"}}));
    QCOMPARE(trainer.vocab().size(), size_t(259));
    QCOMPARE(trainer.vocab()[258], std::string("Ġabc"));
    QCOMPARE(trainer.wordCount(), uint64_t(4));
    QCOMPARE(trainer.uniqueWordCount(), size_t(3));
    // Encoding with what it learned: "ab" → 256, " abc" → 258, " ab" → 257.
    const auto tok = trainer.tokenizer();
    COMPARE_IDS(tok->encode("ab abc ab"), (Ids{256, 258, 257}));
}

void TestTokenizer::trainerTieBreak()
{
    // "cd ab": words cd and Ġab; pairs (c,d) = ids (99,100), (Ġ,a) = (32,97), (a,b) = (97,98),
    // seen once each. Ties go to the smaller ids: (32,97) → "Ġa" (256) first. The word is
    // then [Ġa b]: pairs (c,d) = (99,100) and (Ġa,b) = (256,98), once each: (99,100) wins.
    BpeTrainerOptions o;
    o.vocabSize = 258;
    o.addedTokens.clear();
    o.minPairCount = 1;
    BpeTrainer trainer(o);
    trainer.addText("cd ab");
    QVERIFY(trainer.train());
    using Merge = std::pair<std::string, std::string>;
    QCOMPARE(trainer.merges(), (std::vector<Merge>{{"Ġ", "a"}, {"c", "d"}}));
}

void TestTokenizer::trainerMinCount()
{
    // Same corpus as trainerHandWorked with the default minimum of 2: (Ġab,c) is seen once,
    // so training stops after two merges although 10 tokens were asked for.
    BpeTrainerOptions o;
    o.vocabSize = 256 + 10 + 8;
    BpeTrainer trainer(o);
    trainer.addText("ab ab ab abc");
    std::vector<BpeTrainingProgress> reports;
    QVERIFY(trainer.train([&](const BpeTrainingProgress &p) {
        reports.push_back(p);
        return true;
    }));
    QCOMPARE(trainer.merges().size(), size_t(2));
    // The added tokens follow the shorter vocabulary: ids 258 … 265.
    const std::vector<AddedToken> added = trainer.addedTokens();
    QCOMPARE(added.size(), size_t(8));
    QCOMPARE(added.front().id, 258);
    QCOMPARE(added.front().content, std::string("<|endoftext|>"));
    QCOMPARE(added.back().content, std::string("<pad>"));
    QVERIFY(!reports.empty());
    QCOMPARE(reports.back().merges, size_t(2));
    QCOMPARE(reports.back().target, size_t(10));
}

void TestTokenizer::trainerRoundTripAndReload()
{
    const std::vector<std::string> emails = sampleEmails();
    QVERIFY(emails.size() > 20);
    std::string corpus;
    for (const std::string &e : emails)
        corpus += e + "\n<|endoftext|>\n";
    BpeTrainerOptions o;
    o.vocabSize = 800;
    BpeTrainer trainer(o);
    trainer.addText(corpus);
    QVERIFY(trainer.train());
    QCOMPARE(trainer.vocab().size() + trainer.addedTokens().size(), size_t(800));
    // Merges spell tokens that are in the vocabulary, and no added token was learned from.
    for (const std::string &v : trainer.vocab())
        QVERIFY(v.find("<|endoftext|>") == std::string::npos);

    QTemporaryDir dir;
    trainer.save(dir.path().toStdString());
    const auto tok = loadTokenizer(dir.path().toStdString());
    QCOMPARE(tok->vocabSize(), 800);
    QCOMPARE(tok->tokenToId("<|endoftext|>"), std::optional<int32_t>(792));
    QCOMPARE(tok->tokenToId("<pad>"), std::optional<int32_t>(799));
    QCOMPARE(tok->eosId(), std::optional<int32_t>(792)); // plain format: <|endoftext|>
    QCOMPARE(tok->padId(), std::optional<int32_t>(799));
    QVERIFY(!tok->isSpecial(*tok->tokenToId("<thinking>")));
    // The training corpus round-trips exactly, and compresses.
    const Ids ids = tok->encode(corpus);
    QCOMPARE(tok->decode(ids), nfc(corpus));
    QVERIFY2(ids.size() * 2 < corpus.size(), qPrintable(QString::number(ids.size())));
    // The reloaded file encodes like the trainer's own tokenizer.
    COMPARE_IDS(tok->encode(emails[3]), trainer.tokenizer()->encode(emails[3]));
    // The paper's prompt format is the default.
    QCOMPARE(PromptFormat::forModel(dir.path().toStdString(), *tok).kind(), PromptFormat::Kind::Plain);

    // Deterministic: the same corpus gives the same file.
    BpeTrainer again(o);
    again.addText(corpus);
    QVERIFY(again.train());
    QCOMPARE(again.tokenizerJson(), trainer.tokenizerJson());
}

void TestTokenizer::trainerCancel()
{
    BpeTrainerOptions o;
    o.vocabSize = 1000;
    BpeTrainer trainer(o);
    for (const std::string &e : sampleEmails())
        trainer.addText(e);
    int calls = 0;
    QVERIFY(!trainer.train([&](const BpeTrainingProgress &) { return ++calls < 3; }));
    QCOMPARE(calls, 3);
    QVERIFY(trainer.merges().size() < 100);
}

void TestTokenizer::trainerRejectsBadOptions()
{
    BpeTrainerOptions o;
    o.vocabSize = 256 + 7; // below 256 + 8 added tokens
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BpeTrainer{o});
    o.vocabSize = 1000;
    o.addedTokens = {"<a>", "<a>"};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BpeTrainer{o});
    o.addedTokens = {""};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BpeTrainer{o});
    o.addedTokens = {};
    o.promptFormat = "alpaca";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BpeTrainer{o});
}

// ---------------------------------------------------------------------------------------
// Prompt formats

void TestTokenizer::paperPromptPlain()
{
    // The first paper, appendix A.1, fig. 2, up to and including "### 応答:\n".
    const std::string expected = "### 指示:\n"
                                 "送信者のメールヘッダとメール本文を使って、メール送信者の会社名を応答に出力してください。\n"
                                 "送信者の会社名が記述されていない場合は、「不明」と出力してください。\n"
                                 "\n"
                                 "### 送信者のメールヘッダ:\n"
                                 "山田 太郎 <yamada@kirameki.co.jp>\n"
                                 "\n"
                                 "### メール本文:\n"
                                 "お世話になっております。\n{email_text} はそのまま\n"
                                 "\n"
                                 "### 応答:\n";
    const std::string prompt = PromptFormat::paperPrompt("山田 太郎 <yamada@kirameki.co.jp>",
                                                         "お世話になっております。\n{email_text} はそのまま", false);
    QCOMPARE(QString::fromStdString(prompt), QString::fromStdString(expected));
    QCOMPARE(PromptFormat().extractionPrompt("a@b.jp", "本文", false), PromptFormat::paperPrompt("a@b.jp", "本文", false));
    QCOMPARE(PromptFormat::paperCompletion("株式会社きらめき商事", "", false), std::string("株式会社きらめき商事"));
}

void TestTokenizer::paperPromptThinking()
{
    // Fig. 3.
    const std::string expected =
        "### 指示:\n"
        "送信者のメールヘッダとメール本文を使って、<thinking>と</thinking>の間に送信者の会社名を推論するための論理的な思考過程を記載し、<answer>と</answer>の間に送信者の会社名を出力してください。\n"
        "送信者の会社名が記述されていない場合は、「不明」と出力してください。\n"
        "\n"
        "### 送信者のメールヘッダ:\n"
        "sato@example.jp\n"
        "\n"
        "### メール本文:\n"
        "本文です。\n"
        "\n"
        "### 応答:\n";
    QCOMPARE(QString::fromStdString(PromptFormat::paperPrompt("sato@example.jp", "本文です。", true)),
             QString::fromStdString(expected));
    QCOMPARE(PromptFormat::paperCompletion("不明", "署名に会社名がない", true),
             std::string("<thinking>署名に会社名がない</thinking><answer>不明</answer>"));
}

void TestTokenizer::chatMl()
{
    const PromptFormat chatml(PromptFormat::Kind::ChatMl);
    QCOMPARE(chatml.chat({{"system", "S"}, {"user", "こんにちは"}}, true),
             std::string("<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nこんにちは<|im_end|>\n<|im_start|>assistant\n"));
    QCOMPARE(chatml.chat({{"user", "u"}, {"assistant", "a"}}, false),
             std::string("<|im_start|>user\nu<|im_end|>\n<|im_start|>assistant\na<|im_end|>\n"));
    const PromptFormat qwen3(PromptFormat::Kind::ChatMl, /*qwen3NoThinking=*/true);
    QCOMPARE(qwen3.chat({{"user", "u"}}, true),
             std::string("<|im_start|>user\nu<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"));
    // The extraction prompt in ChatML: the paper's text without "\n### 応答:\n" as the user turn.
    const std::string paper = PromptFormat::paperPrompt("s@x.jp", "本文", false);
    const std::string user = paper.substr(0, paper.size() - std::string("\n\n### 応答:\n").size());
    QVERIFY(user.size() > 2 && user.substr(user.size() - 6) == "本文");
    QCOMPARE(chatml.extractionPrompt("s@x.jp", "本文", false),
             "<|im_start|>user\n" + user + "<|im_end|>\n<|im_start|>assistant\n");
    QCOMPARE(PromptFormat(PromptFormat::Kind::Plain).chat({{"user", "a"}, {"user", "b"}}, true), std::string("a\n\nb"));
}

void TestTokenizer::promptFormatOfModelFolder()
{
    // The fixture has <|im_start|> and no tokenizer_config.json: ChatML, no <think> → no suffix.
    const auto tok = loadFixture("bpe_pairs");
    const PromptFormat chatml = PromptFormat::forModel(dataDir("bpe_pairs").toStdString(), *tok);
    QCOMPARE(chatml.kind(), PromptFormat::Kind::ChatMl);
    QVERIFY(!chatml.qwen3NoThinking());
    // Stops: <|endoftext|> 280 and <|im_end|> 282.
    QCOMPARE(chatml.stopTokenIds(*tok), (Ids{280, 282}));
    QCOMPARE(chatml.endOfCompletion(*tok), std::string("<|im_end|>"));
    // The plain format stops on <|endoftext|> only (no eos is declared).
    QCOMPARE(PromptFormat(PromptFormat::Kind::Plain).stopTokenIds(*tok), (Ids{280}));

    QTemporaryDir dir;
    QFile::copy(dataDir("bpe_pairs/tokenizer.json"), dir.filePath(QStringLiteral("tokenizer.json")));
    writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")),
              R"({"rwb_prompt_format": "plain", "eos_token": "<|im_end|>"})");
    const auto configured = loadTokenizer(dir.path().toStdString());
    const PromptFormat plain = PromptFormat::forModel(dir.path().toStdString(), *configured);
    QCOMPARE(plain.kind(), PromptFormat::Kind::Plain);
    QCOMPARE(plain.stopTokenIds(*configured), (Ids{280, 282}));
    QCOMPARE(plain.endOfCompletion(*configured), std::string("<|im_end|>"));

    writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")), R"({"rwb_prompt_format": "alpaca"})");
    const QString message = inputError([&] { PromptFormat::forModel(dir.path().toStdString(), *configured); });
    QVERIFY2(message.contains(QLatin1String("tokenizer_config.json")) &&
                 message.contains(QLatin1String("rwb_prompt_format")),
             qPrintable(message));

    // A sentencepiece model without <|im_start|>: plain; its eos </s> (2) is the stop.
    QTemporaryDir spm;
    QFile::copy(dataDir("spm_bpe_nfkc/tokenizer.model"), spm.filePath(QStringLiteral("tokenizer.model")));
    const auto sp = loadTokenizer(spm.path().toStdString());
    const PromptFormat spFormat = PromptFormat::forModel(spm.path().toStdString(), *sp);
    QCOMPARE(spFormat.kind(), PromptFormat::Kind::Plain);
    QCOMPARE(spFormat.stopTokenIds(*sp), (Ids{2}));
    QVERIFY(sp->addsBos());
}

// ---------------------------------------------------------------------------------------
// rwb tokenizer

void TestTokenizer::cliTrainEncodeDecode()
{
    QTemporaryDir dir;
    std::string corpus;
    for (const std::string &e : sampleEmails())
        corpus += e + "\n";
    writeFile(dir.filePath(QStringLiteral("corpus.txt")), QByteArray::fromStdString(corpus));
    const QString out = dir.filePath(QStringLiteral("tok"));
    Run r = runRwb({"tokenizer", "train", "--input", dir.filePath(QStringLiteral("corpus.txt")), "--vocab-size", "600",
                    "--out", out, "--added-token", "<extra>"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject summary = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(summary.value(QLatin1String("vocab_size")).toInt(), 600);
    QCOMPARE(summary.value(QLatin1String("added_tokens")).toInt(), 9);
    QVERIFY(QFile::exists(out + QStringLiteral("/tokenizer.json")));
    QVERIFY(QFile::exists(out + QStringLiteral("/tokenizer_config.json")));

    r = runRwb({"tokenizer", "encode", "--model", out, "--text", "株式会社<extra>です"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject encoded = QJsonDocument::fromJson(r.out).object();
    const QJsonArray ids = encoded.value(QLatin1String("ids")).toArray();
    const QJsonArray tokens = encoded.value(QLatin1String("tokens")).toArray();
    QCOMPARE(tokens.size(), ids.size());
    QVERIFY(tokens.contains(QStringLiteral("<extra>")));
    QVERIFY(ids.contains(599)); // the last added token

    QStringList idList;
    for (const QJsonValue &v : ids)
        idList << QString::number(v.toInt());
    r = runRwb({"tokenizer", "decode", "--model", out, "--ids", idList.join(QLatin1Char(','))});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QLatin1String("text")).toString(),
             QStringLiteral("株式会社<extra>です"));

    r = runRwb({"tokenizer", "info", "--model", out});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject info = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(info.value(QLatin1String("prompt_format")).toString(), QStringLiteral("plain"));
    QCOMPARE(info.value(QLatin1String("vocab_size")).toInt(), 600);
}

void TestTokenizer::cliBadInput()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("tokenizer.json")), "{\"model\": ");
    Run r = runRwb({"tokenizer", "encode", "--model", dir.path(), "--text", "x"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("tokenizer.json:1:"), r.err.constData());
    r = runRwb({"tokenizer", "decode", "--model", dataDir("bpe_pairs"), "--ids", "1,x"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--ids"), r.err.constData());
    r = runRwb({"tokenizer", "train", "--input", dir.filePath(QStringLiteral("none.txt")), "--vocab-size", "300",
                "--out", dir.filePath(QStringLiteral("o"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("none.txt"), r.err.constData());
    r = runRwb({"tokenizer", "train", "--input", dir.filePath(QStringLiteral("tokenizer.json")), "--vocab-size", "100",
                "--out", dir.filePath(QStringLiteral("o"))});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("below 256"), r.err.constData());
    r = runRwb({"tokenizer", "frobnicate"});
    QCOMPARE(r.exitCode, 2);
}

QTEST_APPLESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
