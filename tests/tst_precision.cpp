// model/precision: the rule that picks bf16 or fp32 from what the CPU has (and, for
// AVX512-BF16 without AMX, from a timing), on made-up CPUs, so that every branch is
// checked whatever CPU runs the test; and /proc/cpuinfo's parsing on a fixture.
#include "model/precision.h"
#include "model/threads.h"
#include "util/machinecache.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <iterator>
#include <thread>

using namespace rwb::model;

namespace {

CpuFeatures cpu(bool avx512bf16, bool amx, const char *name = "Test CPU")
{
    CpuFeatures c;
    c.modelName = name;
    c.avx2 = true;
    c.avx512f = avx512bf16 || amx;
    c.avx512bf16 = avx512bf16;
    c.amxbf16 = amx;
    return c;
}

} // namespace

class TestPrecision : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void autoRule_data();
    void autoRule();
    void explicitChoiceSaysWhatItCosts();
    void readsCpuInfo();
    void missingCpuInfoHasNoFeatures();
    void librariesHeldBelowTheCpu_data();
    void librariesHeldBelowTheCpu();
    void fp32IsKeptOnThisMachine();
    void dtypes();
    void threadRule_data();
    void threadRule();
    void threadCheckIsCachedPerMachine();
    void machineCacheReadsOnlyItsKeyAndNumbers();
};

void TestPrecision::autoRule_data()
{
    QTest::addColumn<bool>("avx512bf16");
    QTest::addColumn<bool>("amx");
    QTest::addColumn<double>("bf16Ms"); // < 0: no timing
    QTest::addColumn<double>("fp32Ms");
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<QString>("reasonHas");
    // The issue's AMD EPYC: AVX2 only, bf16 emulated (49 ms against 3.6 ms).
    QTest::newRow("AVX2 only") << false << false << -1.0 << 0.0 << false << "about 14x slower: fp32";
    QTest::newRow("AVX2 only, even if timed") << false << false << 0.1 << 1.0 << false << "fp32";
    QTest::newRow("AMX") << true << true << -1.0 << 0.0 << true << "AMX-BF16: bf16";
    // This machine's AMD EPYC (Zen 4): AVX512-BF16 without AMX, 0.25 ms against 0.55 ms.
    QTest::newRow("AVX512-BF16, bf16 faster") << true << false << 0.25 << 0.55 << true << "bf16 0.25 ms, fp32 0.55 ms): bf16";
    // 0.8 × fp32 is the bar: 0.44 ms here.
    QTest::newRow("AVX512-BF16, at the bar") << true << false << 0.44 << 0.55 << true << ": bf16";
    QTest::newRow("AVX512-BF16, not enough") << true << false << 0.45 << 0.55 << false << ": fp32";
    QTest::newRow("AVX512-BF16, untimed") << true << false << -1.0 << 0.0 << false << "was not timed: fp32";
}

void TestPrecision::autoRule()
{
    QFETCH(bool, avx512bf16);
    QFETCH(bool, amx);
    QFETCH(double, bf16Ms);
    QFETCH(double, fp32Ms);
    QFETCH(bool, bf16);
    QFETCH(QString, reasonHas);
    std::optional<PrecisionTiming> timing;
    if (bf16Ms >= 0.0)
        timing = PrecisionTiming{bf16Ms, fp32Ms};
    const PrecisionChoice c = choosePrecision("auto", cpu(avx512bf16, amx), timing);
    QCOMPARE(c.bf16, bf16);
    QCOMPARE(QString::fromStdString(c.name()), QString(bf16 ? "bf16" : "fp32"));
    QVERIFY2(QString::fromStdString(c.reason).contains(reasonHas), c.reason.c_str());
    QVERIFY(QString::fromStdString(c.reason).startsWith("auto: Test CPU"));
}

void TestPrecision::explicitChoiceSaysWhatItCosts()
{
    PrecisionChoice c = choosePrecision("bf16", cpu(false, false), std::nullopt);
    QVERIFY(c.bf16);
    QVERIFY2(QString::fromStdString(c.reason).contains("emulated, about 14x slower than fp32"), c.reason.c_str());
    c = choosePrecision("bf16", cpu(true, false), PrecisionTiming{0.6, 0.5});
    QVERIFY(c.bf16);
    QVERIFY2(QString::fromStdString(c.reason).contains("slower than fp32"), c.reason.c_str());
    c = choosePrecision("fp32", cpu(true, true), std::nullopt);
    QVERIFY(!c.bf16);
    QVERIFY2(QString::fromStdString(c.reason).contains("bf16 would be faster"), c.reason.c_str());
    c = choosePrecision("fp32", cpu(false, false), std::nullopt);
    QCOMPARE(QString::fromStdString(c.reason), QString("fp32 as asked"));
}

void TestPrecision::readsCpuInfo()
{
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/cpuinfo").toStdString();
    std::ofstream(path) << "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9R14\n"
                           "flags\t\t: fpu sse2 avx2 avx512f avx512_bf16 vaes\n\n"
                           "processor\t: 1\nmodel name\t: AMD EPYC 9R14\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16 vaes\n";
    const CpuFeatures c = readCpuFeatures(path);
    QCOMPARE(QString::fromStdString(c.modelName), QString("AMD EPYC 9R14"));
    QVERIFY(c.avx2 && c.avx512f && c.avx512bf16 && !c.amxbf16);
    QCOMPARE(QString::fromStdString(describeFlags(c)), QString("avx2 avx512f avx512_bf16"));
    // avx512_bf16 is a word: avx512_bf16x would not count, nor amx_bf16 inside another word.
    std::ofstream(path) << "model name\t: X\nflags\t\t: avx2 avx512_bf16x xamx_bf16\n";
    const CpuFeatures d = readCpuFeatures(path);
    QVERIFY(d.avx2 && !d.avx512bf16 && !d.amxbf16);
}

void TestPrecision::missingCpuInfoHasNoFeatures()
{
    const CpuFeatures c = readCpuFeatures("/nonexistent/cpuinfo");
    QVERIFY(c.modelName.empty() && !c.avx2 && !c.avx512bf16 && !c.amxbf16);
    const PrecisionChoice p = choosePrecision("auto", c, std::nullopt);
    QVERIFY(!p.bf16);
    QVERIFY2(QString::fromStdString(p.reason).contains("this CPU has no AVX512-BF16 or AMX"), p.reason.c_str());
}

void TestPrecision::librariesHeldBelowTheCpu_data()
{
    QTest::addColumn<QString>("aten");
    QTest::addColumn<QString>("onednn");
    QTest::addColumn<QString>("flags"); // describeFlags of a Sapphire Rapids-like CPU once held
    QTest::addColumn<QString>("heldBy");
    QTest::addColumn<bool>("bf16");     // "auto" without a timing
    // The docs' way of measuring the AVX2 case on an AVX-512 machine: both held.
    QTest::newRow("both to AVX2") << "avx2" << "AVX2" << "avx2" << "ATEN_CPU_CAPABILITY=avx2, ONEDNN_MAX_CPU_ISA=AVX2" << false;
    QTest::newRow("ATen alone") << "avx2" << "" << "avx2" << "ATEN_CPU_CAPABILITY=avx2" << false;
    QTest::newRow("ATen default") << "DEFAULT" << "" << "none of avx2, avx512f, avx512_bf16, amx_bf16"
                                  << "ATEN_CPU_CAPABILITY=DEFAULT" << false;
    QTest::newRow("oneDNN alone") << "" << "avx2" << "avx2" << "ONEDNN_MAX_CPU_ISA=avx2" << false;
    QTest::newRow("oneDNN AVX-512 core") << "" << "AVX512_CORE" << "avx2 avx512f" << "ONEDNN_MAX_CPU_ISA=AVX512_CORE" << false;
    // AVX512-BF16 left without AMX: the rule wants a timing, and without one says fp32.
    QTest::newRow("oneDNN BF16") << "" << "AVX512_CORE_BF16" << "avx2 avx512f avx512_bf16"
                                 << "ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16" << false;
    // Limits at or above the CPU hold nothing back.
    QTest::newRow("oneDNN AMX") << "" << "AVX512_CORE_AMX" << "avx2 avx512f avx512_bf16 amx_bf16" << "" << true;
    QTest::newRow("oneDNN ALL") << "" << "ALL" << "avx2 avx512f avx512_bf16 amx_bf16" << "" << true;
    QTest::newRow("ATen avx512") << "avx512" << "" << "avx2 avx512f avx512_bf16 amx_bf16" << "" << true;
    QTest::newRow("unset") << "" << "" << "avx2 avx512f avx512_bf16 amx_bf16" << "" << true;
    QTest::newRow("unknown values") << "neon" << "RISCV" << "avx2 avx512f avx512_bf16 amx_bf16" << "" << true;
}

void TestPrecision::librariesHeldBelowTheCpu()
{
    QFETCH(QString, aten);
    QFETCH(QString, onednn);
    QFETCH(QString, flags);
    QFETCH(QString, heldBy);
    QFETCH(bool, bf16);
    const QByteArray a = aten.toUtf8(), o = onednn.toUtf8();
    const CpuFeatures c = limitToLibraries(cpu(true, true, "Xeon"), a.constData(), o.constData());
    QCOMPARE(QString::fromStdString(describeFlags(c)), flags);
    QCOMPARE(QString::fromStdString(c.heldBy), heldBy);
    const PrecisionChoice p = choosePrecision("auto", c, std::nullopt);
    QCOMPARE(p.bf16, bf16);
    if (!heldBy.isEmpty())
        QVERIFY2(QString::fromStdString(p.reason).contains("Xeon (held by " + heldBy + ")"), p.reason.c_str());
}

void TestPrecision::fp32IsKeptOnThisMachine()
{
    const PrecisionChoice p = resolvePrecision("fp32", "cpu");
    QVERIFY(!p.bf16);
    QVERIFY(QString::fromStdString(p.reason).startsWith("fp32 as asked"));
}

void TestPrecision::dtypes()
{
    QCOMPARE(QString::fromStdString(resolveDtype("float32", "bfloat16", "cpu")), QString("float32"));
    QCOMPARE(QString::fromStdString(resolveDtype("bfloat16", "float32", "cpu")), QString("bfloat16")); // as asked
    QCOMPARE(QString::fromStdString(resolveDtype("auto", "float32", "cpu")), QString("float32"));
    QCOMPARE(QString::fromStdString(resolveDtype("auto", "float16", "cpu")), QString("float32"));
    QCOMPARE(QString::fromStdString(resolveDtype("float64", "bfloat16", "cpu")), QString("float64"));
    // A bf16 checkpoint on "auto" follows the machine: bfloat16 only where bf16 is fast.
    const bool fast = resolvePrecision("auto", "cpu").bf16;
    QCOMPARE(QString::fromStdString(resolveDtype("auto", "bfloat16", "cpu")), QString(fast ? "bfloat16" : "float32"));
}

// model/threads: 1 or every core, from what was asked, $RWB_THREADS or a timing.
void TestPrecision::threadRule_data()
{
    QTest::addColumn<int>("requested");
    QTest::addColumn<QString>("env");
    QTest::addColumn<int>("cores");
    QTest::addColumn<double>("oneMs"); // < 0: no timing
    QTest::addColumn<double>("allMs");
    QTest::addColumn<int>("threads");
    QTest::addColumn<QString>("reason");
    QTest::newRow("asked") << 3 << "2" << 2 << 10.0 << 5.0 << 3 << "3 threads as asked";
    QTest::newRow("asked one") << 1 << "" << 2 << 10.0 << 5.0 << 1 << "1 thread as asked";
    QTest::newRow("env") << 0 << "2" << 8 << 10.0 << 9.9 << 2 << "2 threads from RWB_THREADS";
    QTest::newRow("env not a number") << 0 << "two" << 2 << 10.0 << 5.0 << 2 << "auto: 2 threads";
    QTest::newRow("env zero") << 0 << "0" << 2 << 10.0 << 9.0 << 1 << "auto: 1 thread: 2 threads take more";
    QTest::newRow("one core") << 0 << "" << 1 << -1.0 << -1.0 << 1 << "auto: 1 thread (one core)";
    QTest::newRow("no timing") << 0 << "" << 2 << -1.0 << -1.0 << 1 << "auto: 1 thread (no timing";
    // Zen 3 with libtorch 1.13: the second thread made the step slower.
    QTest::newRow("slower on two") << 0 << "" << 2 << 10.0 << 17.0 << 1 << "auto: 1 thread: 2 threads take more";
    QTest::newRow("at the margin") << 0 << "" << 2 << 10.0 << 8.0 << 2 << "auto: 2 threads (timed";
    QTest::newRow("just past it") << 0 << "" << 2 << 10.0 << 8.01 << 1 << "auto: 1 thread: 2 threads take more";
    QTest::newRow("faster on four") << 0 << "" << 4 << 10.0 << 3.0 << 4 << "auto: 4 threads (timed";
}

void TestPrecision::threadRule()
{
    QFETCH(int, requested);
    QFETCH(QString, env);
    QFETCH(int, cores);
    QFETCH(double, oneMs);
    QFETCH(double, allMs);
    QFETCH(int, threads);
    QFETCH(QString, reason);
    const std::optional<ThreadsTiming> timing =
        oneMs < 0 ? std::nullopt : std::optional<ThreadsTiming>(ThreadsTiming{oneMs, allMs});
    const QByteArray envBytes = env.toUtf8();
    const ThreadsChoice c = chooseThreads(requested, env.isEmpty() ? nullptr : envBytes.constData(), cores, timing);
    QCOMPARE(c.threads, threads);
    QVERIFY2(QString::fromStdString(c.reason).startsWith(reason), c.reason.c_str());
    if (timing)
        QVERIFY2(requested > 0 || env == "2" || QString::fromStdString(c.reason).contains("ms)"), c.reason.c_str());
}

// On this machine: the timed check runs once, writes its cache, and a second process
// (here: the same call, the cache read back) says where its timing came from.
void TestPrecision::threadCheckIsCachedPerMachine()
{
    QTemporaryDir dir;
    const QByteArray path = dir.filePath("threads.json").toUtf8();
    qputenv("RWB_THREADS_CACHE", path);
    qunsetenv("RWB_THREADS");
    const ThreadsChoice c = resolveThreads(0);
    QVERIFY(c.threads >= 1);
    QVERIFY2(QString::fromStdString(c.reason).startsWith("auto: "), c.reason.c_str());
    if (std::thread::hardware_concurrency() > 1) {
        QVERIFY2(QString::fromStdString(c.reason).contains("[timed now]"), c.reason.c_str());
        std::ifstream in(path.constData());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY2(text.find("\"one_thread_ms\"") != std::string::npos, text.c_str());
        QVERIFY2(text.find("cores | libtorch") != std::string::npos, text.c_str());
    }
    QCOMPARE(resolveThreads(2).threads, 2); // asked for: no check
    qputenv("RWB_THREADS", "1");
    QCOMPARE(resolveThreads(0).threads, 1);
    qunsetenv("RWB_THREADS");
}

// A cache for another machine, a hand-edited one with a string where a number goes, a
// truncated one or none at all reads as no cache (the check runs again), never a throw.
void TestPrecision::machineCacheReadsOnlyItsKeyAndNumbers()
{
    QTemporaryDir dir;
    const std::filesystem::path path = dir.filePath("c.json").toStdString();
    QVERIFY(!rwb::util::readMachineCache(path, "k", {"a"})); // no file
    rwb::util::writeMachineCache(path, "k", {{"a", 1.5}, {"b", 2.0}});
    const auto back = rwb::util::readMachineCache(path, "k", {"b", "a"});
    QVERIFY(back.has_value());
    QCOMPARE(*back, (std::vector<double>{2.0, 1.5}));
    QVERIFY(!rwb::util::readMachineCache(path, "other machine", {"a"}));
    QVERIFY(!rwb::util::readMachineCache(path, "k", {"a", "missing"}));
    const auto write = [&](const char *text) { std::ofstream(path) << text; };
    write(R"({"key": "k", "a": "1.5"})");
    QVERIFY(!rwb::util::readMachineCache(path, "k", {"a"}));
    write(R"({"key": 7, "a": 1})");
    QVERIFY(!rwb::util::readMachineCache(path, "k", {"a"}));
    write(R"({"key": "k", "a": 1)");
    QVERIFY(!rwb::util::readMachineCache(path, "k", {"a"}));
    write("[]");
    QVERIFY(!rwb::util::readMachineCache(path, "k", {"a"}));
    QCOMPARE(rwb::util::machineCachePath("RWB_NO_SUCH_VARIABLE_SET", "x.json").filename().string(),
             std::string(qEnvironmentVariableIsSet("XDG_CACHE_HOME") || qEnvironmentVariableIsSet("HOME") ? "x.json" : ""));
}

QTEST_APPLESS_MAIN(TestPrecision)
#include "tst_precision.moc"
