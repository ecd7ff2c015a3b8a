// core/reward/python: a user's Python reward function run in a worker process (the
// `python` component), and core/util/subprocess under it. Each case writes its Python file
// to a temporary folder and runs it with the system's python3 (skipped without one).
// Expected values are worked out by hand from the functions below; tolerance 1e-12 (they
// cross the pipe as JSON numbers, which keep a double exactly).
#include "reward/python/pythonreward.h"
#include "reward/python/pythonworker.h"
#include "reward/registry.h"
#include "task/task.h"
#include "util/subprocess.h"
#include "testtime.h"

#include <QtTest>

#include "recorditem.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <thread>

using namespace rwb::reward;
using nlohmann::json;

namespace {

// Absolute tolerance for values.
constexpr double kTol = 1e-12;

// An example of a built-in task: only its gold.
class GoldItem : public rwb::task::Example {
public:
    explicit GoldItem(std::string gold)
        : m_gold(std::move(gold))
    {
    }
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    std::string metaJson() const override { return "{}"; }

private:
    std::string m_id = "gold-1";
    std::string m_gold;
};

class Text : public rwb::task::Completion {
public:
    explicit Text(std::string text)
        : m_text(std::move(text))
    {
    }
    const std::string &text() const override { return m_text; }
    const std::string &answer() const override { return m_text; }

private:
    std::string m_text;
};

// A batch: examples and completions side by side, owned.
struct Batch {
    std::vector<std::unique_ptr<rwb::task::Example>> owned;
    std::vector<std::unique_ptr<Text>> texts;
    std::vector<const rwb::task::Example *> examples;
    std::vector<const rwb::task::Completion *> completions;

    void add(std::unique_ptr<rwb::task::Example> example, const std::string &completion)
    {
        examples.push_back(example.get());
        owned.push_back(std::move(example));
        texts.push_back(std::make_unique<Text>(completion));
        completions.push_back(texts.back().get());
    }
    // A record {"solution": …, plus `extra`} with a plain-text prompt.
    void addRecord(const std::string &completion, json record = json::object(), json prompt = "Q?")
    {
        add(std::make_unique<RecordItem>("r" + std::to_string(examples.size()), std::move(record), std::move(prompt)),
            completion);
    }
    std::vector<double> score(const Reward &reward) const
    {
        std::vector<double> out;
        reward.scoreBatch(examples, completions, out);
        return out;
    }
};

bool haveSubstring(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

// A log_metric value by name; NaN when the batch has none.
double metric(const PythonBatchResult &r, const std::string &name)
{
    for (const auto &[n, v] : r.metrics)
        if (n == name)
            return v;
    return std::nan("");
}

} // namespace

class TestPythonReward : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void subprocessBasics();
    void subprocessSigpipe();
    void trlBatch();
    void batchOption();
    void columnsArrive();
    void completionsOnly();
    void conversational();
    void goldOnlyExamples();
    void noneAndNan();
    void nonNumber();
    void wrongLength();
    void exception();
    void timeout();
    void workerDies();
    void syntaxError();
    void missingFunction();
    void missingFile();
    void badOptions_data();
    void badOptions();
    void interpreterFromEnvironment();
    void printsDoNotBreakProtocol();
    void verlDict();
    void verlColumns();
    void sharedWorker();
    void threads();
    void explain();
    void registry();

private:
    // Writes `text` to NAME in the temporary folder; returns its path.
    std::string write(const QString &name, const QString &text);
    std::unique_ptr<PythonReward> make(const std::string &file, const std::string &function, json extra = json::object(),
                                       const std::string &label = {});

    QTemporaryDir m_dir;
};

void TestPythonReward::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (QStandardPaths::findExecutable("python3").isEmpty() && qEnvironmentVariableIsEmpty("RWB_PYTHON"))
        QSKIP("no python3 on PATH");
}

std::string TestPythonReward::write(const QString &name, const QString &text)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(text.toUtf8());
    return path.toStdString();
}

std::unique_ptr<PythonReward> TestPythonReward::make(const std::string &file, const std::string &function, json extra,
                                                     const std::string &label)
{
    json o = std::move(extra);
    o["file"] = file;
    o["function"] = function;
    return std::make_unique<PythonReward>(parsePythonRewardOptions(o.dump(), {}), label);
}

// util::Subprocess alone: lines both ways, stderr kept, exit codes, a kill.
void TestPythonReward::subprocessBasics()
{
    using rwb::util::Subprocess;
    const auto deadline = [] { return Subprocess::Clock::now() + std::chrono::seconds(30); };
    {
        Subprocess::Options o;
        o.argv = {"sh", "-c", "read x; echo \"got $x in $PWD with $RWB_T\"; echo err >&2; exit 7"};
        o.env = {{"RWB_T", "tee"}};
        o.workingDir = m_dir.path().toStdString();
        Subprocess p(o);
        QCOMPARE(p.writeLine("hi", deadline()), Subprocess::Io::Ok);
        std::string line;
        QCOMPARE(p.readLine(line, deadline()), Subprocess::Io::Ok);
        QCOMPARE(line, "got hi in " + QDir(m_dir.path()).canonicalPath().toStdString() + " with tee");
        QCOMPARE(p.readLine(line, deadline()), Subprocess::Io::Closed);
        QVERIFY(p.waitForExit(deadline()));
        QVERIFY(!p.running());
        QVERIFY(p.exitStatus()->exited);
        QCOMPARE(p.exitStatus()->code, 7);
        QCOMPARE(p.exitStatus()->describe(), std::string("exit code 7"));
        QCOMPARE(p.stderrTail(), std::string("err\n"));
    }
    {
        // A deadline passes; kill() ends the whole group (the sleep started by the shell too).
        Subprocess::Options o;
        o.argv = {"sh", "-c", "sleep 30 & wait"};
        Subprocess p(o);
        std::string line;
        const auto t0 = Subprocess::Clock::now();
        QCOMPARE(p.readLine(line, t0 + std::chrono::milliseconds(200)), Subprocess::Io::Timeout);
        QVERIFY(p.running());
        const rwb::util::ExitStatus s = p.kill();
        QVERIFY(!s.exited);
        QCOMPARE(s.signal, SIGKILL);
        QVERIFY(haveSubstring(s.describe(), "killed by signal 9"));
        QVERIFY(!p.running());
    }
    // No such program: an exception that names it.
    Subprocess::Options o;
    o.argv = {"rwb-no-such-program"};
    try {
        Subprocess p(o);
        QFAIL("started a program that does not exist");
    } catch (const std::runtime_error &e) {
        QVERIFY2(haveSubstring(e.what(), "cannot start rwb-no-such-program"), e.what());
    }
}

// Writing to a child that has ended is an error, not a SIGPIPE that ends the test.
void TestPythonReward::subprocessSigpipe()
{
    using rwb::util::Subprocess;
    Subprocess::Options o;
    o.argv = {"sh", "-c", "exec 0<&-; exit 0"};
    Subprocess p(o);
    QVERIFY(p.waitForExit(Subprocess::Clock::now() + std::chrono::seconds(30)));
    const std::string big(1 << 20, 'x');
    QCOMPARE(p.write(big, Subprocess::Clock::now() + std::chrono::seconds(30)), Subprocess::Io::Closed);
}

// A TRL function over a batch of 5, called once for the batch.
void TestPythonReward::trlBatch()
{
    const std::string file = write("trl_batch.py", R"(
calls = 0

def exact(prompts, completions, completion_ids, **kwargs):
    global calls
    calls += 1
    kwargs["log_metric"]("calls", calls)
    assert completion_ids is None
    out = []
    for c, s in zip(completions, kwargs["solution"]):
        out.append(1.0 if c == s else 0.5 if c.lower() == s.lower() else 0.0)
    return out
)");
    auto r = make(file, "exact");
    QCOMPARE(r->name(), std::string_view("python"));
    Batch b;
    const char *completions[] = {"Paris", "paris", "Lyon", "ROME", "Rome"};
    const char *solutions[] = {"Paris", "Paris", "Paris", "Rome", "Rome"};
    for (int i = 0; i < 5; ++i)
        b.addRecord(completions[i], {{"solution", solutions[i]}});
    const std::vector<double> v = b.score(*r);
    const std::vector<double> expected{1.0, 0.5, 0.0, 0.5, 1.0};
    QCOMPARE(v.size(), expected.size());
    for (size_t i = 0; i < v.size(); ++i)
        QVERIFY2(std::abs(v[i] - expected[i]) < kTol, qPrintable(QString::number(i)));
    const PythonBatchResult last = r->lastBatch();
    QCOMPARE(last.requests, size_t(1));
    QCOMPARE(last.metrics.size(), size_t(1));
    QCOMPARE(metric(last, "calls"), 1.0);
    QVERIFY2(last.error.empty(), last.error.c_str());
    for (const std::string &e : last.errors)
        QVERIFY(e.empty());
    // A second batch is the function's second call: the process stays.
    b.score(*r);
    QCOMPARE(metric(r->lastBatch(), "calls"), 2.0);
    QCOMPARE(r->score(*b.examples[1], *b.completions[1]), 0.5);
}

// batch: 2 over 5 items is 3 requests (calls 1, 2, 3; the metric averages them as TRL does).
void TestPythonReward::batchOption()
{
    const std::string file = write("batch_option.py", R"(
calls = 0

def counted(completions, log_extra, log_metric, **kwargs):
    global calls
    calls += 1
    log_metric("calls", calls)
    log_extra("call", [calls] * len(completions))
    log_extra("size", [len(completions)] * len(completions))
    return [float(len(c)) for c in completions]
)");
    auto r = make(file, "counted", {{"batch", 2}});
    Batch b;
    for (const char *c : {"a", "bb", "ccc", "dddd", "eeeee"})
        b.addRecord(c);
    const std::vector<double> v = b.score(*r);
    QCOMPARE(v, (std::vector<double>{1, 2, 3, 4, 5}));
    const PythonBatchResult last = r->lastBatch();
    QCOMPARE(last.requests, size_t(3));
    QCOMPARE(metric(last, "calls"), (1.0 + 2.0 + 3.0) / 3.0);
    const int calls[] = {1, 1, 2, 2, 3};
    const int sizes[] = {2, 2, 2, 2, 1};
    for (size_t i = 0; i < 5; ++i) {
        const json extra = json::parse(last.extra[i]);
        QCOMPARE(extra["call"].get<int>(), calls[i]);
        QCOMPARE(extra["size"].get<int>(), sizes[i]);
    }
}

// Every record column arrives as a keyword list; log_extra comes back per item.
void TestPythonReward::columnsArrive()
{
    const std::string file = write("columns.py", R"(
def by_column(prompts, completions, **kwargs):
    kwargs["log_extra"]("topic", [t.upper() for t in kwargs["topic"]])
    kwargs["log_extra"]("answer_len", [len(a["text"]) for a in kwargs["meta"]])
    state = kwargs["trainer_state"]
    assert state.global_step is None
    return [d * 10 + (1 if p == "Q?" else 0) for d, p in zip(kwargs["difficulty"], prompts)]
)");
    auto r = make(file, "by_column");
    Batch b;
    b.addRecord("x", {{"difficulty", 0.25}, {"topic", "geo"}, {"meta", {{"text", "abc"}}}});
    b.addRecord("y", {{"difficulty", 2}, {"topic", "math"}, {"meta", {{"text", ""}}}}, "other");
    const std::vector<double> v = b.score(*r);
    QVERIFY2(r->lastBatch().error.empty(), r->lastBatch().error.c_str());
    // 0.25·10 + 1 and 2·10 + 0.
    QCOMPARE(v, (std::vector<double>{3.5, 20.0}));
    const PythonBatchResult last = r->lastBatch();
    QCOMPARE(json::parse(last.extra[0]), json({{"topic", "GEO"}, {"answer_len", 3}}));
    QCOMPARE(json::parse(last.extra[1]), json({{"topic", "MATH"}, {"answer_len", 0}}));
}

// A function that declares only (completions, **kwargs); and one without **kwargs gets
// only what it names.
void TestPythonReward::completionsOnly()
{
    const std::string file = write("completions_only.py", R"(
def length(completions, **kwargs):
    return [len(c) / 10 for c in completions]

def strict(completions, solution):
    return [float(c == s) for c, s in zip(completions, solution)]
)");
    Batch b;
    b.addRecord("abcd", {{"solution", "abcd"}});
    b.addRecord("ab", {{"solution", "x"}});
    QCOMPARE(b.score(*make(file, "length")), (std::vector<double>{0.4, 0.2}));
    QCOMPARE(b.score(*make(file, "strict")), (std::vector<double>{1.0, 0.0}));
}

// A prompt of messages: the completion arrives as [{"role": "assistant", "content": …}].
void TestPythonReward::conversational()
{
    const std::string file = write("conversational.py", R"(
def conv(prompts, completions, **kwargs):
    out = []
    for p, c in zip(prompts, completions):
        if isinstance(p, list):
            assert c[0]["role"] == "assistant"
            out.append(len(p) + len(c[0]["content"]) / 100)
        else:
            out.append(-len(c))
    return out
)");
    Batch b;
    const json messages = json::array({{{"role", "system"}, {"content", "be brief"}}, {{"role", "user"}, {"content", "hi"}}});
    b.addRecord("hello", json::object(), messages);
    b.addRecord("abc");
    QCOMPARE(b.score(*make(file, "conv")), (std::vector<double>{2.05, -3.0}));
}

// An example that is not a record: prompt "", and one column, gold.
void TestPythonReward::goldOnlyExamples()
{
    const std::string file = write("gold_only.py", R"(
def gold(prompts, completions, **kwargs):
    assert prompts == [""] * len(completions)
    assert sorted(k for k in kwargs if k not in ("trainer_state", "log_extra", "log_metric", "completion_ids")) == ["gold"]
    return [float(c == g) for c, g in zip(completions, kwargs["gold"])]
)");
    Batch b;
    b.add(std::make_unique<GoldItem>("東京"), "東京");
    b.add(std::make_unique<GoldItem>("大阪"), "京都");
    QCOMPARE(b.score(*make(file, "gold")), (std::vector<double>{1.0, 0.0}));
}

// None and NaN are None (kNone, never 0); infinity too, with an error.
void TestPythonReward::noneAndNan()
{
    const std::string file = write("nones.py", R"(
def nones(completions, **kwargs):
    return [None, float("nan"), 0.25, float("inf"), 0]
)");
    auto r = make(file, "nones");
    Batch b;
    for (int i = 0; i < 5; ++i)
        b.addRecord("c");
    const std::vector<double> v = b.score(*r);
    QVERIFY(isNone(v[0]));
    QVERIFY(isNone(v[1]));
    QCOMPARE(v[2], 0.25);
    QVERIFY(isNone(v[3]));
    QCOMPARE(v[4], 0.0);
    const PythonBatchResult last = r->lastBatch();
    QVERIFY(last.errors[0].empty());
    QVERIFY(last.errors[1].empty());
    QVERIFY2(haveSubstring(last.errors[3], "reward 3 is inf"), last.errors[3].c_str());
}

// A value that is not a number: that item None, naming its index and type; the others kept.
void TestPythonReward::nonNumber()
{
    const std::string file = write("non_number.py", R"(
def mixed(completions, **kwargs):
    return [0.5, "high", [1], True, 1]
)");
    auto r = make(file, "mixed");
    Batch b;
    for (int i = 0; i < 5; ++i)
        b.addRecord("c");
    const std::vector<double> v = b.score(*r);
    QCOMPARE(v[0], 0.5);
    QVERIFY(isNone(v[1]));
    QVERIFY(isNone(v[2]));
    QVERIFY(isNone(v[3]));
    QCOMPARE(v[4], 1.0);
    const PythonBatchResult last = r->lastBatch();
    QVERIFY2(haveSubstring(last.errors[1], "reward 1 is a str ('high')"), last.errors[1].c_str());
    QVERIFY2(haveSubstring(last.errors[2], "reward 2 is a list"), last.errors[2].c_str());
    QVERIFY2(haveSubstring(last.errors[3], "reward 3 is a bool"), last.errors[3].c_str());
    QVERIFY(last.errors[0].empty());
    QVERIFY(haveSubstring(last.error, "reward 1 is a str"));
}

// The wrong number of values: the whole batch None, with a clear error.
void TestPythonReward::wrongLength()
{
    const std::string file = write("wrong_length.py", R"(
def short(completions, **kwargs):
    return [1.0]
)");
    auto r = make(file, "short");
    Batch b;
    for (int i = 0; i < 3; ++i)
        b.addRecord("c");
    const std::vector<double> v = b.score(*r);
    for (double x : v)
        QVERIFY(isNone(x));
    for (const std::string &e : r->lastBatch().errors)
        QVERIFY2(haveSubstring(e, "short returned 1 rewards for 3 completions"), e.c_str());
}

// An exception: every value None, the traceback kept (file, line, exception text).
void TestPythonReward::exception()
{
    const std::string file = write("raises.py", "import os\n"
                                                "\n"
                                                "def raises(completions, **kwargs):\n"
                                                "    table = {}\n"
                                                "    return [table['missing key'] for c in completions]\n");
    auto r = make(file, "raises");
    Batch b;
    b.addRecord("a");
    b.addRecord("b");
    const std::vector<double> v = b.score(*r);
    QVERIFY(isNone(v[0]) && isNone(v[1]));
    const PythonBatchResult last = r->lastBatch();
    for (const std::string &e : last.errors) {
        QVERIFY2(haveSubstring(e, "KeyError: 'missing key'"), e.c_str());
        QVERIFY2(haveSubstring(e, "raises.py\", line 5"), e.c_str());
        QVERIFY2(haveSubstring(e, "Traceback"), e.c_str());
        // The worker's own frames are not shown.
        QVERIFY2(!haveSubstring(e, "rwb_reward_worker"), e.c_str());
    }
    QVERIFY(haveSubstring(last.error, "line 5"));
    // The worker lives on.
    QVERIFY(r->workerPid() > 0);
}

// A function that takes too long: None within about the timeout, and the next call works
// in a new worker.
void TestPythonReward::timeout()
{
    const std::string file = write("slow.py", R"(
import time

def slow(completions, **kwargs):
    if completions[0] == "sleep":
        time.sleep(60)
    return [1.0] * len(completions)
)");
    auto r = make(file, "slow", {{"timeout_s", 1}});
    const int pid = r->workerPid();
    Batch sleepy;
    sleepy.addRecord("sleep");
    QElapsedTimer t;
    t.start();
    const std::vector<double> v = sleepy.score(*r);
    QVERIFY(isNone(v[0]));
    QVERIFY2(t.elapsed() < rwbtest::scaledMs(10000), qPrintable(QString::number(t.elapsed())));
    const std::string error = r->lastBatch().errors[0];
    QVERIFY2(haveSubstring(error, "timed out after 1 s"), error.c_str());
    QCOMPARE(r->workerPid(), -1);
    Batch quick;
    quick.addRecord("fine");
    QCOMPARE(quick.score(*r), std::vector<double>{1.0});
    QVERIFY(r->workerPid() > 0);
    QVERIFY(r->workerPid() != pid);
}

// A worker that dies: that batch None with its exit code and last output; the next works.
void TestPythonReward::workerDies()
{
    const std::string file = write("dies.py", R"(
import os, sys

def dies(completions, **kwargs):
    if "die" in completions:
        print("about to go", file=sys.stderr)
        os._exit(3)
    return [0.75] * len(completions)
)");
    auto r = make(file, "dies");
    Batch dying;
    dying.addRecord("ok");
    dying.addRecord("die");
    const std::vector<double> v = dying.score(*r);
    QVERIFY(isNone(v[0]) && isNone(v[1]));
    const std::string error = r->lastBatch().errors[1];
    QVERIFY2(haveSubstring(error, "exit code 3"), error.c_str());
    QVERIFY2(haveSubstring(error, "about to go"), error.c_str());
    Batch fine;
    fine.addRecord("ok");
    QCOMPARE(fine.score(*r), std::vector<double>{0.75});

    // A crash in C code: the signal, and the Python traceback faulthandler leaves.
    const std::string crash = write("crashes.py", R"(
import ctypes

def crashes(completions, **kwargs):
    return [ctypes.string_at(0) and 1.0]
)");
    auto c = make(crash, "crashes");
    const std::vector<double> v2 = fine.score(*c);
    QVERIFY(isNone(v2[0]));
    const std::string error2 = c->lastBatch().errors[0];
    QVERIFY2(haveSubstring(error2, "killed by signal 11"), error2.c_str());
    QVERIFY2(haveSubstring(error2, "crashes.py\", line 5"), error2.c_str());
}

// A syntax error: construction throws, naming the file and the line.
void TestPythonReward::syntaxError()
{
    const std::string file = write("syntax.py", "import os\n\ndef f(:\n    return [1]\n");
    try {
        make(file, "f");
        QFAIL("a file with a syntax error loaded");
    } catch (const std::invalid_argument &e) {
        const std::string what = e.what();
        QVERIFY2(haveSubstring(what, "options.file: "), e.what());
        QVERIFY2(haveSubstring(what, file + ", line 3"), e.what());
        QVERIFY2(haveSubstring(what, "SyntaxError"), e.what());
    }
    // An import error names the file and its line too.
    const std::string imports = write("imports.py", "\nimport rwb_no_such_module\n");
    try {
        make(imports, "f");
        QFAIL("a file with an import error loaded");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(haveSubstring(e.what(), imports + ", line 2: ModuleNotFoundError"), e.what());
    }
}

// A function the file does not define: construction throws, naming it and the file.
void TestPythonReward::missingFunction()
{
    const std::string file = write("missing_function.py", "def present(completions, **kwargs):\n    return []\n");
    try {
        make(file, "absent");
        QFAIL("a missing function was accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(haveSubstring(e.what(), "options.function: " + file + " defines no function \"absent\""), e.what());
        QVERIFY2(haveSubstring(e.what(), "it defines: present"), e.what());
    }
    // A second component on the running worker is checked the same way.
    auto ok = make(file, "present");
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, make(file, "absent"));
}

// A file that does not exist: the options are refused, naming the path.
void TestPythonReward::missingFile()
{
    const std::string path = m_dir.filePath("nowhere/rewards.py").toStdString();
    try {
        make(path, "f");
        QFAIL("a missing file was accepted");
    } catch (const std::invalid_argument &e) {
        QCOMPARE(std::string(e.what()), "options.file: " + path + " does not exist");
    }
    // Relative to the config's folder.
    write("relative.py", "def f(completions, **kwargs):\n    return [1] * len(completions)\n");
    const PythonRewardOptions o =
        parsePythonRewardOptions(R"({"file": "relative.py", "function": "f"})", m_dir.path().toStdString());
    QCOMPARE(o.file, m_dir.filePath("relative.py").toStdString());
}

void TestPythonReward::badOptions_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown key") << R"({"file": "x.py", "function": "f", "bogus": 1})" << "options.bogus: ";
    QTest::newRow("no function") << R"({"file": "x.py"})" << "options.function: missing";
    QTest::newRow("no file") << R"({"function": "f"})" << "options.file: missing";
    QTest::newRow("signature") << R"({"file": "x.py", "function": "f", "signature": "openai"})"
                               << "options.signature: must be \"trl\" or \"verl\"";
    QTest::newRow("timeout") << R"({"file": "x.py", "function": "f", "timeout_s": 0})" << "options.timeout_s: ";
    QTest::newRow("batch") << R"({"file": "x.py", "function": "f", "batch": -1})" << "options.batch: ";
    QTest::newRow("env") << R"({"file": "x.py", "function": "f", "env": {"A": 1}})" << "options.env.A: must be a string";
    QTest::newRow("columns for trl") << R"({"file": "x.py", "function": "f", "columns": {}})"
                                     << "options.columns: only for";
    QTest::newRow("verl column") << R"({"file": "x.py", "function": "f", "signature": "verl", "columns": {"x": "y"}})"
                                 << "options.columns.x: ";
}

void TestPythonReward::badOptions()
{
    QFETCH(QString, options);
    QFETCH(QString, error);
    write("x.py", "def f(completions, **kwargs):\n    return []\n");
    try {
        parsePythonRewardOptions(options.toStdString(), m_dir.path().toStdString());
        QFAIL("accepted");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(QString::fromStdString(e.what()).startsWith(error), e.what());
    }
}

// RWB_PYTHON names the interpreter when the options do not; one that cannot start is an
// error of options.python.
void TestPythonReward::interpreterFromEnvironment()
{
    const std::string file = write("env_python.py", "def f(completions, **kwargs):\n    return [1] * len(completions)\n");
    const QByteArray before = qgetenv("RWB_PYTHON");
    const bool wasSet = qEnvironmentVariableIsSet("RWB_PYTHON");
    qputenv("RWB_PYTHON", "rwb-no-such-python");
    PythonRewardOptions o;
    try {
        o = parsePythonRewardOptions(json({{"file", file}, {"function", "f"}}).dump(), {});
    } catch (...) {
    }
    if (wasSet)
        qputenv("RWB_PYTHON", before);
    else
        qunsetenv("RWB_PYTHON");
    QCOMPARE(o.python, std::string("rwb-no-such-python"));
    try {
        PythonReward r(o);
        QFAIL("started an interpreter that does not exist");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(haveSubstring(e.what(), "options.python: cannot start rwb-no-such-python"), e.what());
    }
    // A program that is not Python says so.
    o.python = "true";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PythonReward(o, "not python"));
}

// What the function prints — with print(), to fd 1 from below Python, even a line that
// looks like a reply — does not reach the protocol; it is kept as the batch's output.
void TestPythonReward::printsDoNotBreakProtocol()
{
    const std::string file = write("prints.py", R"(
import os, sys
print("loading prints.py")

def noisy(completions, **kwargs):
    print("scoring", len(completions))
    print('{"id": 1, "rewards": [0]}')
    sys.stdout.flush()
    os.write(1, b"raw bytes on fd 1\n")
    sys.stderr.write("on stderr\n")
    return [0.5] * len(completions)

def flood(completions, **kwargs):
    for i in range(10000):
        print("line %d of the flood, which is long enough to fill a pipe many times over" % i)
    return [float(len(c)) for c in completions]
)");
    auto r = make(file, "noisy");
    Batch b;
    b.addRecord("a");
    b.addRecord("b");
    QCOMPARE(b.score(*r), (std::vector<double>{0.5, 0.5}));
    QCOMPARE(b.score(*r), (std::vector<double>{0.5, 0.5}));
    std::string output = r->lastBatch().output;
    QVERIFY2(haveSubstring(output, "scoring 2"), output.c_str());
    QVERIFY2(haveSubstring(output, "raw bytes on fd 1"), output.c_str());
    QVERIFY2(haveSubstring(output, "on stderr"), output.c_str());
    QVERIFY2(!haveSubstring(output, "loading prints.py"), output.c_str());

    // Far more output than a pipe holds (64 KiB), and a request larger than one: read
    // while waiting, so neither side blocks; the last 64 KiB are kept.
    auto flood = make(file, "flood");
    Batch big;
    for (int i = 0; i < 200; ++i)
        big.addRecord(std::string(1000 + i, 'x'));
    const std::vector<double> v = big.score(*flood);
    QCOMPARE(v.size(), size_t(200));
    QCOMPARE(v[0], 1000.0);
    QCOMPARE(v[199], 1199.0);
    output = flood->lastBatch().output;
    QVERIFY(output.size() <= 64 * 1024 + 8);
    QVERIFY2(haveSubstring(output, "line 9999 of the flood"), output.substr(output.size() - 200).c_str());
}

// verl: compute_score per item; a dict's "score" is the value, its other keys extra values.
void TestPythonReward::verlDict()
{
    const std::string file = write("verl_dict.py", R"(
def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    if solution_str == "boom":
        raise ValueError("cannot parse " + solution_str)
    if solution_str == "plain":
        return 0.25
    correct = solution_str.strip() == ground_truth
    return {"score": 1.0 if correct else 0.0, "acc": correct, "source": data_source,
            "split": (extra_info or {}).get("split")}
)");
    auto r = make(file, "compute_score", {{"signature", "verl"}});
    Batch b;
    b.add(std::make_unique<RecordItem>("a", json{{"data_source", "gsm8k"}, {"extra_info", {{"split", "train"}}}}, "Q",
                                       "42"),
          " 42 ");
    b.add(std::make_unique<RecordItem>("b", json{{"data_source", "math"}}, "Q", "7"), "8");
    b.add(std::make_unique<RecordItem>("c", json::object(), "Q", "1"), "boom");
    b.add(std::make_unique<GoldItem>("x"), "plain");
    const std::vector<double> v = b.score(*r);
    QCOMPARE(v[0], 1.0);
    QCOMPARE(v[1], 0.0);
    QVERIFY(isNone(v[2]));
    QCOMPARE(v[3], 0.25);
    const PythonBatchResult last = r->lastBatch();
    QCOMPARE(json::parse(last.extra[0]), json({{"acc", true}, {"source", "gsm8k"}, {"split", "train"}}));
    QCOMPARE(json::parse(last.extra[1]), json({{"acc", false}, {"source", "math"}, {"split", nullptr}}));
    // The keys are columns: an item without them has them as null.
    QCOMPARE(json::parse(last.extra[3]), json({{"acc", nullptr}, {"source", nullptr}, {"split", nullptr}}));
    QVERIFY2(haveSubstring(last.errors[2], "ValueError: cannot parse boom"), last.errors[2].c_str());
    QVERIFY2(haveSubstring(last.errors[2], "verl_dict.py\", line 4"), last.errors[2].c_str());
    QVERIFY(last.errors[0].empty() && last.errors[1].empty() && last.errors[3].empty());
}

// verl's arguments from named columns (a dotted path); a named column is checked.
void TestPythonReward::verlColumns()
{
    const std::string file = write("verl_columns.py", R"(
def compute_score(solution_str, ground_truth, method="strict"):
    return float(solution_str in ground_truth)
)");
    auto r = make(file, "compute_score",
                  {{"signature", "verl"}, {"columns", {{"ground_truth", "reward_model.ground_truth"}}}});
    Batch b;
    b.add(std::make_unique<RecordItem>("a", json{{"reward_model", {{"ground_truth", {"x", "y"}}}}}, "Q", "gold"), "y");
    b.add(std::make_unique<RecordItem>("b", json{{"reward_model", {{"ground_truth", {"x"}}}}}, "Q", "y"), "y");
    QCOMPARE(b.score(*r), (std::vector<double>{1.0, 0.0}));
    r->checkExample(*b.examples[0]);
    const RecordItem without("c", json::object(), "Q");
    try {
        r->checkExample(without);
        QFAIL("an example without the column passed");
    } catch (const std::invalid_argument &e) {
        QVERIFY2(haveSubstring(e.what(), "example \"c\" has no column \"reward_model.ground_truth\""), e.what());
    }
}

// Two components on one file share one process; another environment is another process.
void TestPythonReward::sharedWorker()
{
    const std::string file = write("shared.py", R"(
import os

def first(completions, log_metric, **kwargs):
    log_metric("pid", os.getpid())
    return [1.0] * len(completions)

def second(completions, log_metric, **kwargs):
    log_metric("pid", os.getpid())
    log_metric("flag", float(os.environ.get("RWB_FLAG", "0")))
    return [2.0] * len(completions)
)");
    auto a = make(file, "first", json::object(), "accuracy");
    auto b = make(file, "second", json::object(), "format");
    auto c = make(file, "second", {{"env", {{"RWB_FLAG", "5"}}}});
    QCOMPARE(a->name(), std::string_view("accuracy"));
    QCOMPARE(b->name(), std::string_view("format"));
    Batch batch;
    batch.addRecord("x");
    QCOMPARE(batch.score(*a), std::vector<double>{1.0});
    QCOMPARE(batch.score(*b), std::vector<double>{2.0});
    QCOMPARE(batch.score(*c), std::vector<double>{2.0});
    const double pidA = metric(a->lastBatch(), "pid");
    const double pidB = metric(b->lastBatch(), "pid");
    const double pidC = metric(c->lastBatch(), "pid");
    QCOMPARE(pidA, pidB);
    QCOMPARE(static_cast<int>(pidA), a->workerPid());
    QVERIFY(pidC != pidA);
    QCOMPARE(metric(b->lastBatch(), "flag"), 0.0);
    QCOMPARE(metric(c->lastBatch(), "flag"), 5.0);
}

// Several threads on components that share a worker: requests serialize, none is mixed up.
void TestPythonReward::threads()
{
    const std::string file = write("threads.py", R"(
def echo(completions, **kwargs):
    return [float(c) for c in completions]

def twice(completions, **kwargs):
    return [2 * float(c) for c in completions]
)");
    auto a = make(file, "echo");
    auto b = make(file, "twice");
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            const PythonReward &r = t % 2 ? *b : *a;
            for (int i = 0; i < 10; ++i) {
                Batch batch;
                for (int k = 0; k < 3; ++k)
                    batch.addRecord(std::to_string(t * 100 + i * 3 + k));
                const std::vector<double> v = batch.score(r);
                for (int k = 0; k < 3; ++k)
                    if (v[k] != (t % 2 ? 2.0 : 1.0) * (t * 100 + i * 3 + k))
                        ++wrong;
            }
        });
    for (std::thread &t : threads)
        t.join();
    QCOMPARE(wrong.load(), 0);
}

// explain(): the value or why there is none, with the traceback.
void TestPythonReward::explain()
{
    const std::string file = write("explain.py", R"(
def half(completions, **kwargs):
    return [0.5 for c in completions]

def nothing(completions, **kwargs):
    return [None for c in completions]

def fails(completions, **kwargs):
    raise RuntimeError("no luck")
)");
    const RecordItem example("e", json::object(), "Q");
    const Text completion("text");
    Explanation e = make(file, "half", json::object(), "accuracy")->explain(example, completion);
    QCOMPARE(e.reward, std::string("accuracy"));
    QCOMPARE(e.value, 0.5);
    QCOMPARE(e.reason, Reason::Library);
    QCOMPARE(e.key, std::string("python.value"));
    QCOMPARE(e.args, std::vector<std::string>{"0.5"});
    QCOMPARE(e.detail, std::string("accuracy (explain.py:half) gave 0.5"));
    QVERIFY(e.error.empty());

    e = make(file, "nothing")->explain(example, completion);
    QVERIFY(isNone(e.value));
    QCOMPARE(e.key, std::string("python.none"));
    QCOMPARE(e.args, std::vector<std::string>{"the function returned None"});

    e = make(file, "fails")->explain(example, completion);
    QVERIFY(isNone(e.value));
    QCOMPARE(e.key, std::string("python.none"));
    QCOMPARE(e.args, std::vector<std::string>{"RuntimeError: no luck"});
    QVERIFY2(haveSubstring(e.error, "explain.py\", line 9, in fails"), e.error.c_str());
    QVERIFY2(haveSubstring(e.detail, "gave None: RuntimeError: no luck"), e.detail.c_str());
}

// Registered as a generic component; made through the registry with a config's label and folder.
void TestPythonReward::registry()
{
    Registry registry;
    addPythonRewards(registry);
    const Registry::Entry *e = registry.find("python");
    QVERIFY(e);
    QVERIFY(e->task.empty());
    QVERIFY(Registry::serves(*e, "any_task"));
    write("registry.py", "def acc(completions, **kwargs):\n    return [0.125] * len(completions)\n");
    RewardOptions o;
    o.baseDir = m_dir.path().toStdString();
    o.componentOptions = R"({"file": "registry.py", "function": "acc"})";
    o.label = "accuracy";
    const std::unique_ptr<Reward> r = registry.create("python", o);
    QCOMPARE(r->name(), std::string_view("accuracy"));
    const RecordItem example("e", json::object(), "Q");
    QCOMPARE(r->score(example, Text("x")), 0.125);
    o.componentOptions = R"({"file": "registry.py", "function": "acc", "typo": 1})";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, registry.create("python", o));
}

QTEST_APPLESS_MAIN(TestPythonReward)
#include "tst_pythonreward.moc"
