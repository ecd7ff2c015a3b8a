// core/model: the safetensors reader and writer, model folders (single file and sharded
// index), and the 16-bit float conversions.
// Expected bytes and values are worked out by hand from the format description
// (8-byte little-endian header length, JSON header, data section) and IEEE 754;
// every comparison is bit-exact (no tolerance).
#include "data/jsonl.h"
#include "model/safetensors.h"

#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

using namespace rwb::model;
using rwb::data::InputException;

namespace {

std::string le64(uint64_t v)
{
    std::string s(8, '\0');
    for (int i = 0; i < 8; ++i)
        s[i] = static_cast<char>(v >> (8 * i));
    return s;
}

// A file exactly as the format lays it out, with no help from writeSafetensors().
std::string makeFile(const std::string &header, const std::string &data)
{
    return le64(header.size()) + header + data;
}

void writeBytes(const std::string &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        qFatal("cannot write %s", path.c_str());
}

std::string readBytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string join(const QTemporaryDir &dir, const char *name)
{
    return dir.filePath(QString::fromUtf8(name)).toStdString();
}

// Deterministic bytes that differ from tensor to tensor.
std::vector<uint8_t> patternBytes(size_t n, uint32_t seed)
{
    std::vector<uint8_t> v(n);
    std::mt19937 rng(seed);
    for (auto &b : v)
        b = static_cast<uint8_t>(rng());
    return v;
}

// The message of the InputException that `fn` throws, or a failure note when it throws none.
template<typename Fn>
QString inputError(Fn fn)
{
    try {
        fn();
    } catch (const InputException &e) {
        return QString::fromStdString(e.what());
    }
    return "(no InputException)";
}

const DType kAllDTypes[] = {DType::F64, DType::F32, DType::F16,  DType::BF16,    DType::I64,     DType::I32,
                            DType::I16, DType::I8,  DType::U8,   DType::BOOL,    DType::F8_E4M3, DType::F8_E5M2};
} // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void dtypeTable();
    void roundTrip_data();
    void roundTrip();
    void roundTripAllDTypesOneFile();
    void writerHeaderBytes();
    void handBuilt();
    void corruption_data();
    void corruption();
    void notAFile();
    void writerErrors();
    void writerReplacesAtomically();
    void modelSingleFile();
    void modelSharded();
    void modelShardedErrors_data();
    void modelShardedErrors();
    void modelFolderErrors();
    void bf16ToFloatValues_data();
    void bf16ToFloatValues();
    void floatToBf16Values_data();
    void floatToBf16Values();
    void f16ToFloatValues_data();
    void f16ToFloatValues();
    void floatToF16Values_data();
    void floatToF16Values();
    void halfRoundTripsExhaustive();
    void fuzz();
};

void TestSafetensors::dtypeTable()
{
    // Names as in the file, and sizes, from the format description.
    const std::pair<const char *, size_t> expected[] = {{"F64", 8}, {"F32", 4}, {"F16", 2},    {"BF16", 2},
                                                        {"I64", 8}, {"I32", 4}, {"I16", 2},    {"I8", 1},
                                                        {"U8", 1},  {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
    for (size_t i = 0; i < std::size(kAllDTypes); ++i) {
        QCOMPARE(std::string(dtypeName(kAllDTypes[i])), std::string(expected[i].first));
        QCOMPARE(dtypeSize(kAllDTypes[i]), expected[i].second);
        QCOMPARE(parseDType(expected[i].first), std::optional<DType>(kAllDTypes[i]));
    }
    QVERIFY(!parseDType("f32"));  // case-sensitive, as the format
    QVERIFY(!parseDType("F8_E4M3FN"));
    QVERIFY(!parseDType(""));
}

void TestSafetensors::roundTrip_data()
{
    QTest::addColumn<int>("dtype");
    for (DType t : kAllDTypes)
        QTest::newRow(std::string(dtypeName(t)).c_str()) << static_cast<int>(t);
}

// Three tensors of one dtype (a matrix, a scalar, an empty one) and metadata survive
// writing and reading bit for bit.
void TestSafetensors::roundTrip()
{
    QFETCH(int, dtype);
    const auto t = static_cast<DType>(dtype);
    const size_t size = dtypeSize(t);
    const auto matrix = patternBytes(2 * 3 * size, dtype);
    const auto scalar = patternBytes(size, 100 + dtype);
    const std::vector<TensorToWrite> tensors = {
        {"layers.0.weight", t, {2, 3}, matrix.data(), matrix.size()},
        {"scale", t, {}, scalar.data(), scalar.size()},
        {"empty", t, {0, 5}, nullptr, 0},
    };
    const std::map<std::string, std::string> metadata = {{"format", "pt"}, {"note", "日本語 ok"}};
    QTemporaryDir dir;
    const std::string path = join(dir, "t.safetensors");
    writeSafetensors(path, tensors, metadata);

    const SafetensorsFile f = SafetensorsFile::open(path);
    QCOMPARE(f.path(), path);
    QCOMPARE(f.metadata(), metadata);
    QCOMPARE(f.tensors().size(), size_t(3));
    for (size_t i = 0; i < tensors.size(); ++i) {
        const TensorView &v = f.tensors()[i]; // written in order, so offset order is the given order
        QCOMPARE(v.name, tensors[i].name);
        QCOMPARE(v.dtype, t);
        QCOMPARE(v.shape, tensors[i].shape);
        QCOMPARE(v.bytes, tensors[i].bytes);
        QCOMPARE(size_t(v.numel()) * size, v.bytes);
        QVERIFY(v.bytes == 0 || std::memcmp(v.data, tensors[i].data, v.bytes) == 0);
        QCOMPARE(f.find(tensors[i].name), &v);
    }
    QCOMPARE(f.find("scale")->numel(), int64_t(1));
    QCOMPARE(f.find("empty")->numel(), int64_t(0));
    QVERIFY(f.find("missing") == nullptr);

    // The data section starts on an 8-byte boundary (header padded).
    const std::string bytes = readBytes(path);
    uint64_t n = 0;
    std::memcpy(&n, bytes.data(), 8);
    QCOMPARE(n % 8, uint64_t(0));
    QCOMPARE(bytes.size(), size_t(8 + n + matrix.size() + scalar.size()));
}

void TestSafetensors::roundTripAllDTypesOneFile()
{
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<TensorToWrite> tensors;
    for (DType t : kAllDTypes) {
        buffers.push_back(patternBytes(4 * 5 * dtypeSize(t), static_cast<uint32_t>(t)));
        tensors.push_back({"t." + std::string(dtypeName(t)), t, {4, 5}, buffers.back().data(), buffers.back().size()});
    }
    QTemporaryDir dir;
    const std::string path = join(dir, "all.safetensors");
    writeSafetensors(path, tensors);
    SafetensorsFile f = SafetensorsFile::open(path);
    QVERIFY(f.metadata().empty());
    QCOMPARE(f.tensors().size(), tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
        const TensorView &v = f.tensors()[i];
        QCOMPARE(v.name, tensors[i].name);
        QCOMPARE(v.dtype, tensors[i].dtype);
        QCOMPARE(v.shape, tensors[i].shape);
        QCOMPARE(v.bytes, tensors[i].bytes);
        QVERIFY(std::memcmp(v.data, tensors[i].data, v.bytes) == 0);
    }
    // Moving keeps the views valid (they point into the mapping, which moves with the object).
    const SafetensorsFile moved = std::move(f);
    QVERIFY(std::memcmp(moved.find("t.F64")->data, buffers[0].data(), buffers[0].size()) == 0);
}

// The header is byte for byte what the reference writer produces: compact JSON,
// "__metadata__" first, padded with spaces to a multiple of 8.
void TestSafetensors::writerHeaderBytes()
{
    const float values[] = {1.0f, -2.5f};
    QTemporaryDir dir;
    const std::string path = join(dir, "h.safetensors");
    writeSafetensors(path, {{"a", DType::F32, {2}, values, sizeof values}}, {{"format", "pt"}});
    // 85 bytes of JSON + 3 spaces = 88 = 0x58.
    const std::string header = R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    QCOMPARE(header.size(), size_t(85));
    const std::string expected = std::string("\x58\0\0\0\0\0\0\0", 8) + header + "   "
                                 + std::string("\x00\x00\x80\x3F\x00\x00\x20\xC0", 8);
    QCOMPARE(readBytes(path), expected);
}

// A file built by hand from the format description: JSON keys in another order than the
// data, no padding, a scalar and an empty tensor.
void TestSafetensors::handBuilt()
{
    const std::string header = R"({"c":{"dtype":"BOOL","shape":[],"data_offsets":[12,13]},)"
                               R"("a":{"dtype":"F32","shape":[2],"data_offsets":[4,12]},)"
                               R"("__metadata__":{"format":"pt","source":"hand"},)"
                               R"("e":{"dtype":"BF16","shape":[0,3],"data_offsets":[13,13]},)"
                               R"("b":{"dtype":"I16","shape":[1,2],"data_offsets":[0,4]}})";
    // b: 0x0102 = 258 and -1 as little-endian I16; a: 1.0f = 0x3F800000, -2.5f = 0xC0200000; c: true.
    const std::string data("\x02\x01\xFF\xFF"
                           "\x00\x00\x80\x3F\x00\x00\x20\xC0"
                           "\x01",
                           13);
    QTemporaryDir dir;
    const std::string path = join(dir, "hand.safetensors");
    writeBytes(path, makeFile(header, data));

    const SafetensorsFile f = SafetensorsFile::open(path);
    const std::map<std::string, std::string> metadata = {{"format", "pt"}, {"source", "hand"}};
    QCOMPARE(f.metadata(), metadata);
    QCOMPARE(f.tensors().size(), size_t(4));
    // Data-offset order: b [0,4], a [4,12], c [12,13], e [13,13].
    QCOMPARE(f.tensors()[0].name, std::string("b"));
    QCOMPARE(f.tensors()[1].name, std::string("a"));
    QCOMPARE(f.tensors()[2].name, std::string("c"));
    QCOMPARE(f.tensors()[3].name, std::string("e"));

    const TensorView *b = f.find("b");
    QVERIFY(b);
    QCOMPARE(b->dtype, DType::I16);
    QCOMPARE(b->shape, (std::vector<int64_t>{1, 2}));
    QCOMPARE(b->bytes, size_t(4));
    int16_t i16[2];
    std::memcpy(i16, b->data, 4);
    QCOMPARE(i16[0], int16_t(258));
    QCOMPARE(i16[1], int16_t(-1));

    const TensorView *a = f.find("a");
    QVERIFY(a);
    QCOMPARE(a->dtype, DType::F32);
    QCOMPARE(a->numel(), int64_t(2));
    QCOMPARE(a->data, b->data + 4);
    float f32[2];
    std::memcpy(f32, a->data, 8);
    QCOMPARE(f32[0], 1.0f);
    QCOMPARE(f32[1], -2.5f);

    const TensorView *c = f.find("c");
    QVERIFY(c);
    QCOMPARE(c->shape, std::vector<int64_t>{});
    QCOMPARE(c->numel(), int64_t(1));
    QCOMPARE(c->data[0], uint8_t(1));

    const TensorView *e = f.find("e");
    QVERIFY(e);
    QCOMPARE(e->dtype, DType::BF16);
    QCOMPARE(e->numel(), int64_t(0));
    QCOMPARE(e->bytes, size_t(0));
    QVERIFY(!f.find("d"));
}

void TestSafetensors::corruption_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<int>("dataBytes");
    QTest::addColumn<qint64>("prefix");   // -1: the header's real length
    QTest::addColumn<int>("truncateTo");  // -1: keep the whole file
    QTest::addColumn<QString>("tensor");  // "" when no single tensor is at fault
    QTest::addColumn<QString>("message");

    const QByteArray ok = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    auto w = [](const char *fields) { return QByteArray(R"({"w":{)") + fields + "}}"; };
    const char *const kFields = R"("dtype":"F32","shape":[2],"data_offsets":[0,8])";

    QTest::newRow("shorter than 8 bytes") << ok << 8 << qint64(-1) << 5 << "" << "file is 5 bytes, shorter than the 8-byte header length";
    QTest::newRow("empty file") << ok << 8 << qint64(-1) << 0 << "" << "file is 0 bytes";
    QTest::newRow("header beyond the file") << ok << 8 << qint64(1000) << -1 << "" << "header length 1000 is larger than the rest of the file";
    QTest::newRow("truncated in the header") << ok << 8 << qint64(-1) << 30 << "" << "is larger than the rest of the file (22 bytes)";
    QTest::newRow("header over 100 MB") << ok << 8 << qint64(200'000'000) << -1 << "" << "header length 200000000 exceeds the limit of 100 MB";
    QTest::newRow("length prefix all ones") << ok << 8 << qint64(-2) << -1 << "" << "header length 18446744073709551614 exceeds the limit";
    QTest::newRow("not JSON") << QByteArray(R"({"w":{"dtype":"F32",)") << 8 << qint64(-1) << -1 << "" << "header is not valid JSON: ";
    QTest::newRow("not UTF-8") << QByteArray("{\"w\xFF\":{}}") << 8 << qint64(-1) << -1 << "" << "header is not valid JSON: ";
    QTest::newRow("number out of range") << QByteArray(R"({"w":{"dtype":"F32","shape":[1e400],"data_offsets":[0,8]}})") << 8 << qint64(-1) << -1 << "" << "header is not valid JSON: parse error at byte 30: number overflow parsing '1e400'";
    // Nesting is limited so that nothing recursive (printing a value for a message) can
    // overflow the stack; a million levels once crashed the message formatting.
    QTest::newRow("nested too deep") << QByteArray(R"({"w":)") + QByteArray(1'000'000, '[') + QByteArray(1'000'000, ']') + "}" << 8 << qint64(-1) << -1 << "" << "header nests JSON deeper than 64 levels";
    QTest::newRow("nested 64 levels") << QByteArray(R"({"w":)") + QByteArray(63, '[') + QByteArray(63, ']') + "}" << 8 << qint64(-1) << -1 << "w" << "entry must be an object";
    QTest::newRow("not an object") << QByteArray("[1,2]") << 8 << qint64(-1) << -1 << "" << "header must be a JSON object, not [1,2]";
    QTest::newRow("entry not an object") << QByteArray(R"({"w":[0,8]})") << 8 << qint64(-1) << -1 << "w" << "entry must be an object";
    QTest::newRow("missing dtype") << w(R"("shape":[2],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "missing \"dtype\"";
    QTest::newRow("missing shape") << w(R"("dtype":"F32","data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "missing \"shape\"";
    QTest::newRow("missing data_offsets") << w(R"("dtype":"F32","shape":[2])") << 8 << qint64(-1) << -1 << "w" << "missing \"data_offsets\"";
    QTest::newRow("dtype not a string") << w(R"("dtype":4,"shape":[2],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "\"dtype\" must be a string, not 4";
    QTest::newRow("unknown dtype") << w(R"("dtype":"F33","shape":[2],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "unknown dtype \"F33\"";
    QTest::newRow("shape not an array") << w(R"("dtype":"F32","shape":"2","data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "\"shape\" must be an array of integers";
    QTest::newRow("shape of floats") << w(R"("dtype":"F32","shape":[2.0],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "\"shape\" must be an array of integers";
    QTest::newRow("negative dimension") << w(R"("dtype":"F32","shape":[-2,-1],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "negative dimension -2";
    QTest::newRow("dimension over int64") << w(R"("dtype":"U8","shape":[9223372036854775808],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "dimension 9223372036854775808 in \"shape\" is too large";
    QTest::newRow("numel overflows") << w(R"("dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "shape [4294967296, 4294967296] of F32 overflows";
    QTest::newRow("bytes overflow") << w(R"("dtype":"F64","shape":[4611686018427387904],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "overflows (numel × 8 bytes)";
    QTest::newRow("offsets not an array") << w(R"("dtype":"F32","shape":[2],"data_offsets":"0-8")") << 8 << qint64(-1) << -1 << "w" << "\"data_offsets\" must be [begin, end]";
    QTest::newRow("offsets one number") << w(R"("dtype":"F32","shape":[2],"data_offsets":[8])") << 8 << qint64(-1) << -1 << "w" << "\"data_offsets\" must be [begin, end]";
    QTest::newRow("offsets three numbers") << w(R"("dtype":"F32","shape":[2],"data_offsets":[0,8,8])") << 8 << qint64(-1) << -1 << "w" << "\"data_offsets\" must be [begin, end]";
    QTest::newRow("offset negative") << w(R"("dtype":"F32","shape":[2],"data_offsets":[-8,0])") << 8 << qint64(-1) << -1 << "w" << "\"data_offsets\" must be [begin, end] with non-negative integers";
    QTest::newRow("offset a string") << w(R"("dtype":"F32","shape":[2],"data_offsets":[0,"8"])") << 8 << qint64(-1) << -1 << "w" << "\"data_offsets\" must be [begin, end]";
    QTest::newRow("begin after end") << w(R"("dtype":"F32","shape":[2],"data_offsets":[8,0])") << 8 << qint64(-1) << -1 << "w" << "data_offsets [8, 0]: begin is after end";
    QTest::newRow("end beyond the data") << w(R"("dtype":"F32","shape":[4],"data_offsets":[0,16])") << 8 << qint64(-1) << -1 << "w" << "data_offsets [0, 16]: end is beyond the data section (8 bytes)";
    QTest::newRow("truncated data") << ok << 8 << qint64(-1) << int(8 + ok.size() + 5) << "w" << "end is beyond the data section (5 bytes)";
    QTest::newRow("size mismatch") << w(R"("dtype":"F32","shape":[3],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "data_offsets [0, 8] hold 8 bytes but F32 [3] needs 12";
    QTest::newRow("dtype mismatch") << w(R"("dtype":"F64","shape":[2],"data_offsets":[0,8])") << 8 << qint64(-1) << -1 << "w" << "hold 8 bytes but F64 [2] needs 16";
    QTest::newRow("overlap")
        << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})")
        << 12 << qint64(-1) << -1 << "b" << "data_offsets [4, 12] overlap tensor a [0, 8]";
    QTest::newRow("same offsets")
        << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"I32","shape":[2],"data_offsets":[0,8]}})")
        << 8 << qint64(-1) << -1 << "b" << "overlap tensor a [0, 8]";
    QTest::newRow("empty tensor inside another")
        << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"z":{"dtype":"F32","shape":[0],"data_offsets":[4,4]}})")
        << 8 << qint64(-1) << -1 << "z" << "overlap tensor a";
    QTest::newRow("gap between tensors")
        << QByteArray(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})")
        << 16 << qint64(-1) << -1 << "b" << "bytes 8 to 12 of the data section belong to no tensor (before tensor b)";
    QTest::newRow("gap at the start") << w(R"("dtype":"F32","shape":[1],"data_offsets":[4,8])") << 8 << qint64(-1) << -1 << "w" << "bytes 0 to 4 of the data section belong to no tensor";
    QTest::newRow("bytes after the last tensor") << ok << 12 << qint64(-1) << -1 << "" << "bytes 8 to 12 at the end of the data section belong to no tensor";
    QTest::newRow("metadata not an object") << QByteArray(R"({"__metadata__":["pt"],"w":{)") + kFields + "}}" << 8 << qint64(-1) << -1 << "" << "\"__metadata__\" must be an object of strings, not [\"pt\"]";
    QTest::newRow("metadata value not a string") << QByteArray(R"({"__metadata__":{"format":"pt","epoch":3},"w":{)") + kFields + "}}" << 8 << qint64(-1) << -1 << "" << "\"__metadata__\": value of \"epoch\" must be a string, not 3";
}

// Each corruption is rejected with an InputException that starts with the file's path,
// names the tensor at fault and says what is wrong.
void TestSafetensors::corruption()
{
    QFETCH(QByteArray, header);
    QFETCH(int, dataBytes);
    QFETCH(qint64, prefix);
    QFETCH(int, truncateTo);
    QFETCH(QString, tensor);
    QFETCH(QString, message);

    std::string bytes = makeFile(header.toStdString(), std::string(size_t(dataBytes), '\x11'));
    if (prefix != -1)
        bytes.replace(0, 8, le64(static_cast<uint64_t>(prefix)));
    if (truncateTo >= 0)
        bytes.resize(size_t(truncateTo));
    QTemporaryDir dir;
    const std::string path = join(dir, "bad.safetensors");
    writeBytes(path, bytes);

    const QString what = inputError([&] { SafetensorsFile::open(path); });
    QVERIFY2(what.startsWith(QString::fromStdString(path) + ": "), qPrintable(what));
    QVERIFY2(what.contains(message), qPrintable(what));
    if (!tensor.isEmpty())
        QVERIFY2(what.contains("tensor " + tensor), qPrintable(what));
}

void TestSafetensors::notAFile()
{
    QTemporaryDir dir;
    const std::string missing = join(dir, "none.safetensors");
    QCOMPARE(inputError([&] { SafetensorsFile::open(missing); }),
             QString::fromStdString(missing + ": cannot open: No such file or directory"));
    const std::string folder = dir.path().toStdString();
    QCOMPARE(inputError([&] { SafetensorsFile::open(folder); }), QString::fromStdString(folder + ": not a regular file"));
}

void TestSafetensors::writerErrors()
{
    QTemporaryDir dir;
    const std::string path = join(dir, "w.safetensors");
    const float four[4] = {1, 2, 3, 4};
    auto invalid = [&](const std::vector<TensorToWrite> &tensors, const std::map<std::string, std::string> &metadata,
                       const char *needle) {
        try {
            writeSafetensors(path, tensors, metadata);
        } catch (const std::invalid_argument &e) {
            const QString what = e.what();
            return what.contains(QString::fromStdString(path)) && what.contains(needle);
        }
        return false;
    };
    QVERIFY(invalid({{"a", DType::F32, {3}, four, 16}}, {}, "tensor a: 16 bytes given but F32 [3] needs 12"));
    QVERIFY(invalid({{"a", DType::F16, {4}, four, 16}}, {}, "F16 [4] needs 8"));
    QVERIFY(invalid({{"a", DType::F32, {2}, four, 8}, {"a", DType::F32, {2}, four + 2, 8}}, {}, "tensor a: listed twice"));
    QVERIFY(invalid({{"__metadata__", DType::F32, {1}, four, 4}}, {}, "\"__metadata__\" is reserved"));
    QVERIFY(invalid({{"a", DType::F32, {-1, 4}, four, 16}}, {}, "tensor a: negative dimension"));
    QVERIFY(invalid({{"a", DType::F32, {4}, nullptr, 16}}, {}, "tensor a: no data"));
    QVERIFY(invalid({{"a\xFF", DType::F32, {4}, four, 16}}, {}, "not valid UTF-8"));
    QVERIFY(invalid({{"a", DType::F32, {4}, four, 16}}, {{"k", "\xC3"}}, "not valid UTF-8"));
    // Nothing was written by any of them.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList());

    const std::string noFolder = join(dir, "no/such/folder/w.safetensors");
    try {
        writeSafetensors(noFolder, {{"a", DType::F32, {4}, four, 16}});
        QFAIL("expected std::runtime_error");
    } catch (const std::invalid_argument &) {
        QFAIL("expected std::runtime_error, got invalid_argument");
    } catch (const std::runtime_error &e) {
        const QString what = e.what();
        QVERIFY2(what.startsWith(QString::fromStdString(noFolder) + ": "), qPrintable(what));
        QVERIFY2(what.contains("No such file or directory"), qPrintable(what));
    }
}

// Writing over an existing file replaces it whole, and leaves no temporary file behind.
void TestSafetensors::writerReplacesAtomically()
{
    QTemporaryDir dir;
    const std::string path = join(dir, "r.safetensors");
    const int32_t first[3] = {1, 2, 3};
    const int64_t second[2] = {-7, 1LL << 40};
    writeSafetensors(path, {{"x", DType::I32, {3}, first, sizeof first}});
    // Keep the old file open (mapped) while it is replaced: its views stay valid.
    const SafetensorsFile old = SafetensorsFile::open(path);
    writeSafetensors(path, {{"y", DType::I64, {2}, second, sizeof second}}, {{"v", "2"}});
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"r.safetensors"});

    const SafetensorsFile now = SafetensorsFile::open(path);
    QCOMPARE(now.tensors().size(), size_t(1));
    QCOMPARE(now.tensors()[0].name, std::string("y"));
    QVERIFY(std::memcmp(now.tensors()[0].data, second, sizeof second) == 0);
    QCOMPARE(now.metadata().at("v"), std::string("2"));
    QVERIFY(std::memcmp(old.find("x")->data, first, sizeof first) == 0);
}

void TestSafetensors::modelSingleFile()
{
    QTemporaryDir dir;
    const float w[6] = {1, 2, 3, 4, 5, 6};
    const float n[3] = {1, 1, 1};
    const std::string file = join(dir, "model.safetensors");
    writeSafetensors(file, {{"model.embed_tokens.weight", DType::F32, {2, 3}, w, sizeof w},
                            {"model.norm.weight", DType::F32, {3}, n, sizeof n}});

    const SafetensorsModel m = SafetensorsModel::open(dir.path().toStdString());
    QCOMPARE(m.names(), (std::vector<std::string>{"model.embed_tokens.weight", "model.norm.weight"}));
    const TensorView &e = m.require("model.embed_tokens.weight");
    QCOMPARE(e.shape, (std::vector<int64_t>{2, 3}));
    QVERIFY(std::memcmp(e.data, w, sizeof w) == 0);
    QVERIFY(m.find("lm_head.weight") == nullptr);
    QCOMPARE(inputError([&] { m.require("lm_head.weight"); }), QString::fromStdString(file + ": tensor lm_head.weight missing"));

    // The path of a .safetensors file works as well.
    const SafetensorsModel direct = SafetensorsModel::open(file);
    QCOMPARE(direct.names(), m.names());
}

namespace {
// Two shards in `dir` the way transformers splits a model, and their index.
void writeShards(const QTemporaryDir &dir, const std::vector<float> &a, const std::vector<uint16_t> &b,
                 const std::vector<float> &c)
{
    writeSafetensors(join(dir, "model-00001-of-00002.safetensors"),
                     {{"model.layers.0.mlp.up_proj.weight", DType::F32, {2, 2}, a.data(), a.size() * 4},
                      {"model.layers.0.mlp.down_proj.weight", DType::BF16, {2, 2}, b.data(), b.size() * 2}},
                     {{"format", "pt"}});
    writeSafetensors(join(dir, "model-00002-of-00002.safetensors"),
                     {{"model.norm.weight", DType::F32, {2}, c.data(), c.size() * 4},
                      {"stray.not_in_index", DType::F32, {2}, c.data(), c.size() * 4}},
                     {{"format", "pt"}});
}

const char *const kIndex = R"({
  "metadata": {"total_size": 32},
  "weight_map": {
    "model.layers.0.mlp.up_proj.weight": "model-00001-of-00002.safetensors",
    "model.layers.0.mlp.down_proj.weight": "model-00001-of-00002.safetensors",
    "model.norm.weight": "model-00002-of-00002.safetensors"
  }
})";
} // namespace

void TestSafetensors::modelSharded()
{
    QTemporaryDir dir;
    const std::vector<float> a = {1.0f, -2.5f, 3.0f, 0.5f};
    const std::vector<uint16_t> b = {0x3F80, 0xC020, 0x0000, 0x7F80};
    const std::vector<float> c = {0.25f, 4.0f};
    writeShards(dir, a, b, c);
    const std::string index = join(dir, "model.safetensors.index.json");
    writeBytes(index, kIndex);

    SafetensorsModel opened = SafetensorsModel::open(dir.path().toStdString());
    const SafetensorsModel m = std::move(opened); // views survive a move
    QCOMPARE(m.names(), (std::vector<std::string>{"model.layers.0.mlp.down_proj.weight", "model.layers.0.mlp.up_proj.weight",
                                                  "model.norm.weight"}));
    const TensorView &up = m.require("model.layers.0.mlp.up_proj.weight");
    QCOMPARE(up.dtype, DType::F32);
    QVERIFY(std::memcmp(up.data, a.data(), 16) == 0);
    const TensorView &down = m.require("model.layers.0.mlp.down_proj.weight");
    QCOMPARE(down.dtype, DType::BF16);
    QCOMPARE(down.shape, (std::vector<int64_t>{2, 2}));
    QVERIFY(std::memcmp(down.data, b.data(), 8) == 0);
    QVERIFY(std::memcmp(m.require("model.norm.weight").data, c.data(), 8) == 0);
    // The index decides what the model holds: a tensor only in a shard is not visible.
    QVERIFY(m.find("stray.not_in_index") == nullptr);
    QCOMPARE(inputError([&] { m.require("lm_head.weight"); }), QString::fromStdString(index + ": tensor lm_head.weight missing"));

    // The index wins over a model.safetensors beside it.
    writeSafetensors(join(dir, "model.safetensors"), {{"other", DType::F32, {2}, c.data(), 8}});
    QCOMPARE(SafetensorsModel::open(dir.path().toStdString()).names().size(), size_t(3));
}

void TestSafetensors::modelShardedErrors_data()
{
    QTest::addColumn<QString>("index");
    QTest::addColumn<QString>("message");
    QTest::newRow("shard missing") << R"({"weight_map": {"model.norm.weight": "model-00002-of-00002.safetensors",
                                          "lm_head.weight": "model-00003-of-00003.safetensors"}})"
                                   << "shard model-00003-of-00003.safetensors (listed for tensor lm_head.weight) does not exist";
    QTest::newRow("tensor not in its shard")
        << R"({"weight_map": {"model.norm.weight": "model-00001-of-00002.safetensors"}})"
        << "tensor model.norm.weight is listed for shard model-00001-of-00002.safetensors but that shard does not hold it";
    QTest::newRow("not JSON") << R"({"weight_map": {)" << "not valid JSON: ";
    QTest::newRow("not an object") << "[]" << "must be a JSON object with \"weight_map\"";
    QTest::newRow("nested too deep") << QString(R"({"weight_map": {"a": )") + QString(100'000, '[') + QString(100'000, ']') + "}}"
                                     << "JSON nests deeper than 64 levels";
    QTest::newRow("no weight_map") << R"({"metadata": {}})" << "missing \"weight_map\"";
    QTest::newRow("weight_map not an object") << R"({"weight_map": ["a"]})" << "\"weight_map\" must be an object {tensor: shard file}";
    QTest::newRow("shard not a string") << R"({"weight_map": {"a": 1}})" << "weight_map: shard of tensor a must be a file name, not 1";
    QTest::newRow("shard outside the folder") << R"({"weight_map": {"a": "../model.safetensors"}})"
                                              << "weight_map: shard \"../model.safetensors\" of tensor a must be a file name in the model folder";
}

// Index errors name the index (and the shard and tensor where one is at fault).
void TestSafetensors::modelShardedErrors()
{
    QFETCH(QString, index);
    QFETCH(QString, message);
    QTemporaryDir dir;
    writeShards(dir, {1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2});
    const std::string indexPath = join(dir, "model.safetensors.index.json");
    writeBytes(indexPath, index.toStdString());
    const QString what = inputError([&] { SafetensorsModel::open(dir.path().toStdString()); });
    QVERIFY2(what.startsWith(QString::fromStdString(indexPath) + ": "), qPrintable(what));
    QVERIFY2(what.contains(message), qPrintable(what));
}

void TestSafetensors::modelFolderErrors()
{
    QTemporaryDir dir;
    const std::string folder = dir.path().toStdString();
    QCOMPARE(inputError([&] { SafetensorsModel::open(folder); }),
             QString::fromStdString(folder + ": no model.safetensors or model.safetensors.index.json in the model folder"));
    const std::string none = join(dir, "nowhere");
    QCOMPARE(inputError([&] { SafetensorsModel::open(none); }),
             QString::fromStdString(none + ": no such model folder or .safetensors file"));

    // A corrupt shard is reported against the shard itself.
    writeShards(dir, {1, 2, 3, 4}, {1, 2, 3, 4}, {1, 2});
    writeBytes(join(dir, "model.safetensors.index.json"), kIndex);
    const std::string shard = join(dir, "model-00002-of-00002.safetensors");
    std::string bytes = readBytes(shard);
    bytes.resize(bytes.size() - 1);
    writeBytes(shard, bytes);
    const QString what = inputError([&] { SafetensorsModel::open(folder); });
    QVERIFY2(what.startsWith(QString::fromStdString(shard) + ": tensor "), qPrintable(what));
    QVERIFY2(what.contains("end is beyond the data section"), qPrintable(what));

    // So is a corrupt model.safetensors.
    QTemporaryDir single;
    writeBytes(join(single, "model.safetensors"), "short");
    QCOMPARE(inputError([&] { SafetensorsModel::open(single.path().toStdString()); }),
             QString::fromStdString(join(single, "model.safetensors") + ": file is 5 bytes, shorter than the 8-byte header length"));
}

// ---------------------------------------------------------------------------------------
// 16-bit floats. Values worked out by hand from the bit layouts:
// bf16 = sign | 8 exponent bits (bias 127) | 7 mantissa bits, the top half of a float;
// f16  = sign | 5 exponent bits (bias 15)  | 10 mantissa bits, subnormals m × 2^-24.

void TestSafetensors::bf16ToFloatValues_data()
{
    QTest::addColumn<quint16>("bf16");
    QTest::addColumn<quint32>("floatBits");
    QTest::newRow("1.0") << quint16(0x3F80) << quint32(0x3F800000);
    QTest::newRow("-2.5") << quint16(0xC020) << quint32(0xC0200000); // -1.25 × 2^1
    QTest::newRow("+0") << quint16(0x0000) << quint32(0x00000000);
    QTest::newRow("-0") << quint16(0x8000) << quint32(0x80000000);
    QTest::newRow("smallest subnormal 2^-133") << quint16(0x0001) << quint32(0x00010000);
    QTest::newRow("largest finite") << quint16(0x7F7F) << quint32(0x7F7F0000);
    QTest::newRow("inf") << quint16(0x7F80) << quint32(0x7F800000);
    QTest::newRow("-inf") << quint16(0xFF80) << quint32(0xFF800000);
    QTest::newRow("nan") << quint16(0x7FC0) << quint32(0x7FC00000);
}

void TestSafetensors::bf16ToFloatValues()
{
    QFETCH(quint16, bf16);
    QFETCH(quint32, floatBits);
    QCOMPARE(std::bit_cast<uint32_t>(bf16ToFloat(bf16)), floatBits);
}

void TestSafetensors::floatToBf16Values_data()
{
    QTest::addColumn<quint32>("floatBits");
    QTest::addColumn<quint16>("bf16");
    QTest::newRow("1.0") << quint32(0x3F800000) << quint16(0x3F80);
    QTest::newRow("-2.5") << quint32(0xC0200000) << quint16(0xC020);
    QTest::newRow("-0") << quint32(0x80000000) << quint16(0x8000);
    // 1 + 2^-8 lies halfway between 0x3F80 and 0x3F81: ties go to the even one.
    QTest::newRow("tie down to even") << quint32(0x3F808000) << quint16(0x3F80);
    // 1 + 3·2^-8 lies halfway between 0x3F81 and 0x3F82.
    QTest::newRow("tie up to even") << quint32(0x3F818000) << quint16(0x3F82);
    QTest::newRow("just above half") << quint32(0x3F808001) << quint16(0x3F81);
    QTest::newRow("just below half") << quint32(0x3F807FFF) << quint16(0x3F80);
    // 0.1f = 0x3DCCCCCD: the dropped half 0xCCCD is more than half.
    QTest::newRow("0.1") << quint32(0x3DCCCCCD) << quint16(0x3DCD);
    // FLT_MAX is past the midpoint between bf16's largest finite and 2^128: it rounds to inf.
    QTest::newRow("FLT_MAX to inf") << quint32(0x7F7FFFFF) << quint16(0x7F80);
    QTest::newRow("below the midpoint stays finite") << quint32(0x7F7F7FFF) << quint16(0x7F7F);
    QTest::newRow("inf") << quint32(0x7F800000) << quint16(0x7F80);
    QTest::newRow("-inf") << quint32(0xFF800000) << quint16(0xFF80);
    QTest::newRow("quiet nan") << quint32(0x7FC00000) << quint16(0x7FC0);
    // A signalling NaN whose payload sits in the low half must not become inf.
    QTest::newRow("signalling nan stays nan") << quint32(0x7F800001) << quint16(0x7FC0);
    QTest::newRow("negative nan") << quint32(0xFFC00000) << quint16(0xFFC0);
}

void TestSafetensors::floatToBf16Values()
{
    QFETCH(quint32, floatBits);
    QFETCH(quint16, bf16);
    QCOMPARE(floatToBf16(std::bit_cast<float>(floatBits)), bf16);
}

void TestSafetensors::f16ToFloatValues_data()
{
    QTest::addColumn<quint16>("f16");
    QTest::addColumn<quint32>("floatBits");
    QTest::newRow("1.0") << quint16(0x3C00) << quint32(0x3F800000);
    QTest::newRow("-2.5") << quint16(0xC100) << quint32(0xC0200000); // exponent 16 = 2^1, mantissa .01
    QTest::newRow("65504 largest") << quint16(0x7BFF) << quint32(0x477FE000);
    QTest::newRow("2^-24 smallest subnormal") << quint16(0x0001) << quint32(0x33800000);
    QTest::newRow("1023·2^-24 largest subnormal") << quint16(0x03FF) << quint32(0x387FC000);
    QTest::newRow("2^-14 smallest normal") << quint16(0x0400) << quint32(0x38800000);
    QTest::newRow("-2^-24") << quint16(0x8001) << quint32(0xB3800000);
    QTest::newRow("0x3555") << quint16(0x3555) << quint32(0x3EAAA000); // 2^-2 × (1 + 0x155/1024)
    QTest::newRow("+0") << quint16(0x0000) << quint32(0x00000000);
    QTest::newRow("-0") << quint16(0x8000) << quint32(0x80000000);
    QTest::newRow("inf") << quint16(0x7C00) << quint32(0x7F800000);
    QTest::newRow("-inf") << quint16(0xFC00) << quint32(0xFF800000);
    QTest::newRow("nan") << quint16(0x7E00) << quint32(0x7FC00000);
}

void TestSafetensors::f16ToFloatValues()
{
    QFETCH(quint16, f16);
    QFETCH(quint32, floatBits);
    QCOMPARE(std::bit_cast<uint32_t>(f16ToFloat(f16)), floatBits);
}

void TestSafetensors::floatToF16Values_data()
{
    QTest::addColumn<quint32>("floatBits");
    QTest::addColumn<quint16>("f16");
    QTest::newRow("1.0") << quint32(0x3F800000) << quint16(0x3C00);
    QTest::newRow("-2.5") << quint32(0xC0200000) << quint16(0xC100);
    QTest::newRow("65504") << quint32(0x477FE000) << quint16(0x7BFF);
    // 65519 is below the midpoint 65520 between 65504 and 65536: stays 65504.
    QTest::newRow("65519") << quint32(0x477FEF00) << quint16(0x7BFF);
    // 65520 is the midpoint and 65504's mantissa is odd: ties to even means inf.
    QTest::newRow("65520 to inf") << quint32(0x477FF000) << quint16(0x7C00);
    QTest::newRow("1e6 to inf") << quint32(0x49742400) << quint16(0x7C00);
    QTest::newRow("-1e6 to -inf") << quint32(0xC9742400) << quint16(0xFC00);
    QTest::newRow("2^-24") << quint32(0x33800000) << quint16(0x0001);
    QTest::newRow("-2^-24") << quint32(0xB3800000) << quint16(0x8001);
    // 2^-25 is halfway between 0 and the smallest subnormal: ties to even → 0.
    QTest::newRow("2^-25 tie to zero") << quint32(0x33000000) << quint16(0x0000);
    QTest::newRow("-2^-25 tie to -0") << quint32(0xB3000000) << quint16(0x8000);
    QTest::newRow("just above 2^-25") << quint32(0x33000001) << quint16(0x0001);
    QTest::newRow("2^-26 to zero") << quint32(0x32800000) << quint16(0x0000);
    // 3·2^-25 = 1.5 units of 2^-24: halfway between 1 and 2 → 2.
    QTest::newRow("3·2^-25 tie to 2") << quint32(0x33C00000) << quint16(0x0002);
    QTest::newRow("1023·2^-24") << quint32(0x387FC000) << quint16(0x03FF);
    // 1023.5·2^-24 is halfway between the largest subnormal and the smallest normal (even).
    QTest::newRow("subnormal tie into normal") << quint32(0x387FE000) << quint16(0x0400);
    QTest::newRow("2^-14") << quint32(0x38800000) << quint16(0x0400);
    // 1 + 2^-11 is halfway between 0x3C00 and 0x3C01.
    QTest::newRow("tie down to even") << quint32(0x3F801000) << quint16(0x3C00);
    // 1 + 3·2^-11 is halfway between 0x3C01 and 0x3C02.
    QTest::newRow("tie up to even") << quint32(0x3F803000) << quint16(0x3C02);
    QTest::newRow("just above half") << quint32(0x3F801001) << quint16(0x3C01);
    // 0.1f = 0x3DCCCCCD: exponent -4 → 11, mantissa 0x4CCCCD >> 13 = 0x266, rest 0x0CCD < half.
    QTest::newRow("0.1") << quint32(0x3DCCCCCD) << quint16(0x2E66);
    QTest::newRow("float subnormal to 0") << quint32(0x00000001) << quint16(0x0000);
    QTest::newRow("-0") << quint32(0x80000000) << quint16(0x8000);
    QTest::newRow("inf") << quint32(0x7F800000) << quint16(0x7C00);
    QTest::newRow("-inf") << quint32(0xFF800000) << quint16(0xFC00);
    QTest::newRow("quiet nan") << quint32(0x7FC00000) << quint16(0x7E00);
    QTest::newRow("signalling nan stays nan") << quint32(0x7F800001) << quint16(0x7E00);
}

void TestSafetensors::floatToF16Values()
{
    QFETCH(quint32, floatBits);
    QFETCH(quint16, f16);
    QCOMPARE(floatToF16(std::bit_cast<float>(floatBits)), f16);
}

// Every 16-bit pattern survives 16-bit → float → 16-bit unchanged (NaNs stay NaN, made quiet).
void TestSafetensors::halfRoundTripsExhaustive()
{
    for (uint32_t i = 0; i <= 0xFFFF; ++i) {
        const auto h = static_cast<uint16_t>(i);
        const float b = bf16ToFloat(h);
        const float f = f16ToFloat(h);
        if (std::isnan(b)) {
            QVERIFY(std::isnan(bf16ToFloat(floatToBf16(b))));
            QCOMPARE(floatToBf16(b), uint16_t(h | 0x0040));
        } else if (floatToBf16(b) != h) {
            QFAIL(qPrintable(QString("bf16 0x%1 does not round-trip").arg(i, 4, 16, QChar('0'))));
        }
        if (std::isnan(f)) {
            QCOMPARE(floatToF16(f), uint16_t(h | 0x0200));
        } else if (floatToF16(f) != h) {
            QFAIL(qPrintable(QString("f16 0x%1 does not round-trip").arg(i, 4, 16, QChar('0'))));
        }
    }
}

// ---------------------------------------------------------------------------------------
// A seeded mutation loop over a valid file: whatever the bytes, open() either accepts a
// file whose tensors all lie inside its data section, or throws InputException.

void TestSafetensors::fuzz()
{
    // Iterations of the loop; the seed is fixed so a failure reproduces. For a longer run by
    // hand (under sanitizers, say), RWB_FUZZ_ITERATIONS and RWB_FUZZ_SEED override them.
    const int kIterations = qEnvironmentVariableIsSet("RWB_FUZZ_ITERATIONS")
                                ? qEnvironmentVariableIntValue("RWB_FUZZ_ITERATIONS")
                                : 3000;
    const uint64_t kSeed = qEnvironmentVariableIsSet("RWB_FUZZ_SEED") ? qgetenv("RWB_FUZZ_SEED").toULongLong()
                                                                      : 0x5AFE7E45;

    std::vector<std::vector<uint8_t>> buffers;
    std::vector<TensorToWrite> tensors;
    const std::pair<DType, std::vector<int64_t>> specs[] = {
        {DType::F64, {3}}, {DType::F32, {2, 3}}, {DType::BF16, {4}}, {DType::F16, {1, 1, 2}},
        {DType::I64, {}},  {DType::U8, {5}},     {DType::BOOL, {0}}, {DType::F8_E4M3, {2, 2}},
    };
    for (const auto &[dtype, shape] : specs) {
        size_t n = dtypeSize(dtype);
        for (int64_t d : shape)
            n *= size_t(d);
        buffers.push_back(patternBytes(n, uint32_t(buffers.size())));
        tensors.push_back({"model.t" + std::to_string(tensors.size()) + ".weight", dtype, shape, buffers.back().data(), n});
    }
    QTemporaryDir dir;
    const std::string basePath = join(dir, "base.safetensors");
    writeSafetensors(basePath, tensors, {{"format", "pt"}, {"k", "v"}});
    const std::string base = readBytes(basePath);
    uint64_t baseN = 0;
    std::memcpy(&baseN, base.data(), 8);

    // Pieces of header text that steer the mutations towards the validator's corners.
    const char *const kTokens[] = {
        "{", "}", "[", "]", ",", ":", "\"", "-1", "0", "1", "8", "4294967296", "18446744073709551615",
        "9223372036854775807", "1e309", "2.5", "null", "true", "\"F32\"", "\"BF16\"", "\"F99\"", "\"dtype\"",
        "\"shape\"", "\"data_offsets\"", "\"__metadata__\"", "[0,0]", "[]", "{}", "[8,0]", "\\u0000", "\xFF",
        "\"x\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0]},",
    };
    std::mt19937_64 rng(kSeed);
    auto below = [&](size_t n) { return n == 0 ? size_t(0) : size_t(rng() % n); };
    const std::string path = join(dir, "fuzz.safetensors");
    int accepted = 0, rejected = 0;

    for (int iter = 0; iter < kIterations; ++iter) {
        std::string f = base;
        uint64_t headerLen = baseN;
        const int mutations = 1 + int(below(3));
        for (int m = 0; m < mutations; ++m) {
            switch (below(8)) {
            case 0: // flip bits anywhere
                for (size_t k = 1 + below(4); k > 0 && !f.empty(); --k)
                    f[below(f.size())] ^= char(1 << below(8));
                break;
            case 1: // random bytes inside the header
                for (size_t k = 1 + below(4); k > 0 && f.size() > 8; --k)
                    f[8 + below(std::min<size_t>(headerLen, f.size() - 8))] = char(rng());
                break;
            case 2: // truncate
                f.resize(below(f.size() + 1));
                break;
            case 3: { // overwrite the length prefix
                uint64_t v;
                switch (below(3)) {
                case 0: v = headerLen + below(33) - 16; break;
                case 1: v = below(f.size() + 16); break;
                default: v = rng(); break;
                }
                if (f.size() >= 8)
                    f.replace(0, 8, le64(v));
                break;
            }
            case 4: { // splice a token into the header text, keeping the prefix honest or not
                if (f.size() < 8)
                    break;
                const size_t headerEnd = 8 + std::min<size_t>(headerLen, f.size() - 8);
                const size_t at = 8 + below(headerEnd - 8 + 1);
                const size_t len = std::min(below(9), headerEnd - at);
                const std::string token = kTokens[below(std::size(kTokens))];
                f.replace(at, len, token);
                headerLen = headerLen + token.size() - len;
                if (below(4) != 0)
                    f.replace(0, 8, le64(headerLen));
                break;
            }
            case 5: { // change a digit of the header (offsets and shapes)
                std::vector<size_t> digits;
                for (size_t i = 8; i < std::min<size_t>(8 + headerLen, f.size()); ++i)
                    if (f[i] >= '0' && f[i] <= '9')
                        digits.push_back(i);
                if (!digits.empty())
                    f[digits[below(digits.size())]] = char('0' + below(10));
                break;
            }
            case 6: // change the data section only: still a valid file
                if (f.size() > 8 + headerLen)
                    f[8 + headerLen + below(f.size() - 8 - headerLen)] = char(rng());
                break;
            default: // append bytes
                f.append(below(24), char(rng()));
                break;
            }
        }
        writeBytes(path, f);

        try {
            const SafetensorsFile sf = SafetensorsFile::open(path);
            // Accepted: the tensors tile the data section exactly and read the file's bytes.
            uint64_t n = 0;
            QVERIFY(f.size() >= 8);
            std::memcpy(&n, f.data(), 8);
            QVERIFY(n <= f.size() - 8);
            const size_t dataBytes = f.size() - 8 - size_t(n);
            const uint8_t *first = sf.tensors().empty() ? nullptr : sf.tensors().front().data;
            size_t total = 0;
            for (const TensorView &v : sf.tensors()) {
                QVERIFY(v.data >= first);
                const size_t offset = size_t(v.data - first);
                QVERIFY2(offset <= dataBytes && v.bytes <= dataBytes - offset, v.name.c_str());
                QCOMPARE(size_t(v.numel()) * dtypeSize(v.dtype), v.bytes);
                QVERIFY(v.bytes == 0 || std::memcmp(v.data, f.data() + 8 + n + offset, v.bytes) == 0);
                QCOMPARE(sf.find(v.name), &v);
                total += v.bytes;
            }
            QCOMPARE(total, dataBytes);
            ++accepted;
        } catch (const InputException &e) {
            if (!QString::fromStdString(e.what()).startsWith(QString::fromStdString(path) + ": "))
                QFAIL(e.what());
            ++rejected;
        } catch (const std::exception &e) {
            QFAIL(qPrintable(QString("iteration %1: not an InputException: %2").arg(iter).arg(e.what())));
        }
    }
    qInfo("fuzz (seed %llu): %d accepted, %d rejected of %d", static_cast<unsigned long long>(kSeed), accepted,
          rejected, kIterations);
    // Both outcomes must occur, or the loop tests nothing.
    QVERIFY(accepted > kIterations / 15);
    QVERIFY(rejected > kIterations / 3);
}

QTEST_APPLESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
