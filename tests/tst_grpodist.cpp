// Data-parallel GRPO (rwb grpo --nproc 2, c10d over Gloo on loopback) against one process:
// the same prompts, completions, rewards, advantages and metrics at every step, and the
// same parameters after 3 steps, for each loss type's normalizer, dynamic sampling,
// μ = 2, LoRA with dropout and a reference policy, and a step whose groups do not split
// evenly; a rank killed mid-step stops rank 0 with an error that says so and leaves the
// store whole with the steps before; ranks that loaded different models refuse to train.
#include "rwbprocess.h"
#include "tinygrpo.h"

#include "model/safetensors.h"
#include "store/runstore.h"
#include "testtime.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <csignal>

#include <arpa/inet.h>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>

using json = nlohmann::json;

namespace {

struct Finished {
    int exitCode = -1;
    QString out, err;
};

Finished runRwbWith(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(RWB_BINARY, args);
    Finished f;
    if (!p.waitForFinished(rwbtest::scaledMs(300000))) {
        p.kill();
        p.waitForFinished();
        f.err = "timed out: " + args.join(' ');
        return f;
    }
    f.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    f.out = QString::fromUtf8(p.readAllStandardOutput());
    f.err = QString::fromUtf8(p.readAllStandardError());
    return f;
}

// The largest |a − b| over every tensor of two safetensors files with the same names.
double maxAbsDifference(const std::string &a, const std::string &b, double *largest = nullptr)
{
    const auto fa = rwb::model::SafetensorsModel::open(a);
    const auto fb = rwb::model::SafetensorsModel::open(b);
    double worst = 0.0, big = 0.0;
    for (const std::string &name : fa.names()) {
        const auto &ta = fa.require(name);
        const auto &tb = fb.require(name);
        if (ta.bytes != tb.bytes)
            return INFINITY;
        const size_t n = ta.bytes / sizeof(float);
        for (size_t i = 0; i < n; ++i) {
            float x, y;
            std::memcpy(&x, ta.data + i * sizeof(float), sizeof x);
            std::memcpy(&y, tb.data + i * sizeof(float), sizeof y);
            worst = std::max(worst, std::abs(static_cast<double>(x) - y));
            big = std::max(big, std::abs(static_cast<double>(x)));
        }
    }
    if (largest)
        *largest = big;
    return worst;
}

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

} // namespace

class TestGrpoDist : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void twoProcessesTrainAsOne_data();
    void twoProcessesTrainAsOne();
    void killedRankStopsTheGroup();
    void ranksWithDifferentModelsRefuse();
    void controlFileSteersTheGroup();
    void sigtermStopsTheGroup();

private:
    // A config file for the tiny workspace with `extra` keys over tinyGrpoConfig's, its
    // store and output named `name`; returns its path.
    QString writeConfig(const QString &name, int steps, const json &extra);
    QTemporaryDir m_dir;
};

void TestGrpoDist::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_dir.path(), 60, 4, 3));
}

QString TestGrpoDist::writeConfig(const QString &name, int steps, const json &extra)
{
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), name, steps, 5);
    c.promptsPerStep = 4;      // 4 groups of 4: 16 rows a step
    c.microBatch = 4;          // 4 micro-batches, 2 a rank
    c.precision = "fp32";      // the same on every CPU (bf16 is chosen only where fast)
    c.learningRate = 1e-3;     // steps large enough to see
    json j = json::parse(rwb::train::toJson(c));
    j.update(extra);
    const QString path = m_dir.path() + "/" + name + ".json";
    std::ofstream(path.toStdString()) << j.dump(2);
    return path;
}

void TestGrpoDist::twoProcessesTrainAsOne_data()
{
    QTest::addColumn<QByteArray>("extra");
    QTest::addColumn<QString>("weights");
    // Full fine-tuning with DAPO's global token count, dynamic sampling (rounds until 4
    // groups differ, which every rank must agree on) and μ = 2 (old log-probs).
    QTest::newRow("dapo, dynamic sampling, μ 2")
        << QByteArray(R"({"lora": false, "loss_type": "dapo", "dynamic_sampling": true, "max_sampling_rounds": 3,
                          "num_iterations": 2})")
        << "model.safetensors";
    // BNPO divides by the number of micro-batches; LoRA with dropout 0.1 (each micro-batch
    // draws its own masks) and β = 0.04 against the adapter-free reference.
    QTest::newRow("bnpo, LoRA dropout 0.1, beta 0.04")
        << QByteArray(R"({"lora": true, "lora_dropout": 0.1, "beta": 0.04, "loss_type": "bnpo"})")
        << "adapter_model.safetensors";
    // GRPO's row mean with 3 groups: rank 0 samples 1 group, rank 1 two; 12 rows are
    // 3 micro-batches, 1 and 2. Evaluations (4 e-mails in batches of 1: 2 a rank) and
    // rank 0's checkpoints on the way.
    QTest::newRow("grpo, 3 groups, eval and checkpoints")
        << QByteArray(R"({"lora": false, "prompts_per_step": 3, "eval_every": 2, "eval_batch": 1, "checkpoint_every": 2})")
        << "model.safetensors";
    QTest::newRow("dr_grpo") << QByteArray(R"({"lora": false, "loss_type": "dr_grpo", "micro_batch": 8})")
                             << "model.safetensors";
}

void TestGrpoDist::twoProcessesTrainAsOne()
{
    QFETCH(QByteArray, extra);
    QFETCH(QString, weights);
    json e = json::parse(extra.toStdString());
    if (e.contains("eval_every"))
        e["eval_data"] = (m_dir.path() + "/val.jsonl").toStdString();
    const QString tag = QString::fromUtf8(QTest::currentDataTag()).replace(QRegularExpression("[^a-z0-9]+"), "_");
    const QString one = writeConfig("one_" + tag, 3, e);
    const QString two = writeConfig("two_" + tag, 3, e);

    const Finished a = runRwbWith({"grpo", "--config", one, "--quiet"});
    QVERIFY2(a.exitCode == 0, qPrintable(a.err));
    QElapsedTimer timer;
    timer.start();
    const Finished b = runRwbWith({"grpo", "--config", two, "--quiet", "--nproc", "2"});
    QVERIFY2(b.exitCode == 0, qPrintable(b.err));
    qInfo("2 processes: %.1f s", timer.elapsed() / 1000.0);
    // Rank 0 alone prints the result.
    QCOMPARE(b.out.count('\n'), 1);
    const json ra = json::parse(a.out.toStdString()), rb = json::parse(b.out.toStdString());
    QCOMPARE(rb["status"], json("finished"));
    QCOMPARE(rb["steps"], json(3));

    // The same rollouts, step by step: rows are drawn from their own streams, so the
    // ranks' shares sample what one process samples.
    const rwb::store::RunStore sa((m_dir.path() + "/one_" + tag + ".sqlite").toStdString(),
                                  rwb::store::RunStore::OpenMode::ReadOnly);
    const rwb::store::RunStore sb((m_dir.path() + "/two_" + tag + ".sqlite").toStdString(),
                                  rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(sb.runs().size(), size_t(1));
    QCOMPARE(sb.run(1).status, std::string("finished"));
    for (int step = 1; step <= 3; ++step) {
        const auto ka = sa.stepRollouts(1, step), kb = sb.stepRollouts(1, step);
        QCOMPARE(kb.size(), ka.size());
        QVERIFY(!ka.empty());
        for (size_t i = 0; i < ka.size(); ++i) {
            QCOMPARE(kb[i].rollout.promptId, ka[i].rollout.promptId);
            QCOMPARE(kb[i].rollout.completion, ka[i].rollout.completion);
            QCOMPARE(kb[i].rollout.reward, ka[i].rollout.reward);
            QVERIFY(std::abs(kb[i].rollout.advantage - ka[i].rollout.advantage) < 1e-12);
        }
    }
    // Every metric but the clocks the same (the loss, the KL, the clip ratios and the
    // entropy summed over the ranks): within 1e-5 relative, the float rounding of adding
    // micro-batch gradients in another order.
    const auto ma = sa.metrics(1), mb = sb.metrics(1);
    QCOMPARE(mb.size(), ma.size());
    for (size_t i = 0; i < ma.size(); ++i) {
        QCOMPARE(mb[i].name, ma[i].name);
        if (ma[i].name.find("time") != std::string::npos || ma[i].name.find("seconds") != std::string::npos)
            continue;
        const double x = ma[i].value, y = mb[i].value;
        QVERIFY2(std::abs(x - y) <= 1e-5 * std::max(1.0, std::abs(x)) || (std::isnan(x) && std::isnan(y)),
                 qPrintable(QString("step %1 %2: %3 vs %4").arg(ma[i].step).arg(QString::fromStdString(ma[i].name)).arg(x).arg(y)));
    }

    // The same parameters after 3 steps. Tolerance 1e-5 absolute (parameters ≤ about 1):
    // the ranks' gradients are summed in another order than one process accumulates its
    // micro-batches (float32 rounding, ~1e-7 relative), which AdamW at lr 1e-3 carries
    // into the weights; measured at most 1.2e-6. Training moved them by far more.
    const std::string fa = QString(m_dir.path() + "/one_" + tag + "/final/" + weights).toStdString();
    const std::string fb = QString(m_dir.path() + "/two_" + tag + "/final/" + weights).toStdString();
    double largest = 0.0;
    const double diff = maxAbsDifference(fa, fb, &largest);
    qInfo("max |one − two| = %.3g (largest parameter %.3g)", diff, largest);
    QVERIFY2(diff <= 1e-5, qPrintable(QString::number(diff)));
    if (weights == "model.safetensors") {
        const double moved = maxAbsDifference(fa, (m_dir.path() + "/tiny/model.safetensors").toStdString());
        QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
    }
    QVERIFY(ra.contains("metrics"));
    if (e.contains("checkpoint_every")) { // rank 0's checkpoints, and both ranks' evaluations
        QCOMPARE(sb.checkpoints(1).size(), sa.checkpoints(1).size());
        const auto pa = sa.evalPredictions(1), pb = sb.evalPredictions(1);
        QCOMPARE(pb.size(), pa.size());
        QCOMPARE(pa.size(), size_t(4 * 3)); // steps 0, 2 and 3
        for (size_t i = 0; i < pa.size(); ++i) {
            QCOMPARE(pb[i].prediction.exampleId, pa[i].prediction.exampleId);
            QCOMPARE(pb[i].prediction.prediction, pa[i].prediction.prediction);
            QCOMPARE(pb[i].prediction.correct, pa[i].prediction.correct);
            QCOMPARE(pb[i].prediction.rewardsJson, pa[i].prediction.rewardsJson);
        }
    }
}

void TestGrpoDist::killedRankStopsTheGroup()
{
    // Rank 1 kills itself (SIGKILL) in the middle of step 2, after sampling and before
    // the update's all-reduce.
    const QString config = writeConfig("killed", 4, json{{"lora", false}, {"checkpoint_every", 1}});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("RWB_DEBUG_KILL_AT", "1:2");
    env.insert("RWB_DIST_TIMEOUT", "120");
    QElapsedTimer timer;
    timer.start();
    const Finished f = runRwbWith({"grpo", "--config", config, "--quiet", "--nproc", "2"}, env);
    const double seconds = timer.elapsed() / 1000.0;
    QCOMPARE(f.exitCode, 1);
    QVERIFY2(f.err.contains("rank 1 was killed by signal 9"), qPrintable(f.err));
    QVERIFY2(f.err.contains("rank 0 of 2"), qPrintable(f.err));
    QVERIFY2(f.err.contains("another process of the group stopped"), qPrintable(f.err));
    // Seen at once (the closed connection), not at the 120 s timeout.
    QVERIFY2(seconds < 60, qPrintable(QString::number(seconds)));
    const json r = json::parse(f.out.toStdString());
    QCOMPARE(r["status"], json("failed"));
    QCOMPARE(r["steps"], json(1));

    // The store is whole: step 1 with its 16 rollouts and checkpoint, the run marked failed
    // with rank 0's message; nothing of step 2.
    const rwb::store::RunStore store((m_dir.path() + "/killed.sqlite").toStdString(),
                                     rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(store.integrityCheck(), std::string("ok"));
    const rwb::store::RunInfo info = store.run(1);
    QCOMPARE(info.status, std::string("failed"));
    QCOMPARE(info.lastStep, int64_t(1));
    QVERIFY2(info.message.find("rank 0 of 2") != std::string::npos, info.message.c_str());
    QCOMPARE(store.stepRollouts(1, 1).size(), size_t(16));
    QVERIFY(store.stepRollouts(1, 2).empty());
    QCOMPARE(store.checkpoints(1).size(), size_t(1));
    QVERIFY(QFileInfo::exists(m_dir.path() + "/killed/checkpoint-1/trainer_state.json"));
}

void TestGrpoDist::ranksWithDifferentModelsRefuse()
{
    // Two ranks started by hand (as torchrun would), rank 1's config naming another
    // model folder of the same shapes: both stop before the first step, naming it.
    QVERIFY(rwbtest::runRwb({"model", "init", "--tokenizer", m_dir.path() + "/tok", "--out", m_dir.path() + "/tiny2",
                             "--seed", "2"}));
    const QString a = writeConfig("mismatch_a", 2, json{{"lora", false}});
    const QString b = writeConfig("mismatch_b", 2, json{{"lora", false}, {"model", (m_dir.path() + "/tiny2").toStdString()}});
    const QString port = QString::number(freePort());
    QProcess ranks[2];
    for (int k = 0; k < 2; ++k) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("RANK", QString::number(k));
        env.insert("WORLD_SIZE", "2");
        env.insert("MASTER_ADDR", "127.0.0.1");
        env.insert("MASTER_PORT", port);
        env.insert("RWB_DIST_TIMEOUT", "60");
        ranks[k].setProcessEnvironment(env);
        ranks[k].start(RWB_BINARY, {"grpo", "--config", k == 0 ? a : b, "--quiet"});
    }
    for (QProcess &p : ranks)
        QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
    const QString err0 = QString::fromUtf8(ranks[0].readAllStandardError());
    const QString err1 = QString::fromUtf8(ranks[1].readAllStandardError());
    QCOMPARE(ranks[0].exitCode(), 1);
    QCOMPARE(ranks[1].exitCode(), 1);
    for (const QString &err : {err0, err1}) {
        QVERIFY2(err.contains("rank 1's model (" + m_dir.path() + "/tiny2) has other weights than rank 0's (" +
                              m_dir.path() + "/tiny)"),
                 qPrintable(err));
    }
    // Nothing was trained or written.
    QVERIFY(!QFileInfo::exists(m_dir.path() + "/mismatch_a.sqlite"));
}

namespace {
// Writes `text` to `path` whole: a temporary file renamed into place.
void writeWhole(const QString &path, const QByteArray &text)
{
    QFile f(path + ".tmp");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    QVERIFY(std::rename((path + ".tmp").toLocal8Bit().constData(), path.toLocal8Bit().constData()) == 0);
}

// Waits (up to a minute) until `done` holds on a fresh read-only view of the store.
bool waitForStore(const QString &store, const std::function<bool(const rwb::store::RunStore &)> &done)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000) {
        try {
            if (QFile::exists(store)) {
                const rwb::store::RunStore s(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
                if (!s.runs().empty() && done(s))
                    return true;
            }
        } catch (const std::exception &) { // not created yet
        }
        QThread::msleep(100);
    }
    return false;
}
} // namespace

// rwb grpo --control: a 2-process run steered from outside, as the workbench would steer it.
// A file that is not JSON is reported and ignored; new weights apply at the next step
// boundary on every rank (recorded with that step); stop ends the run after the step in
// flight, well before its 40 steps.
void TestGrpoDist::controlFileSteersTheGroup()
{
    const QString config = writeConfig("steered", 40, json{{"lora", false}});
    const QString store = m_dir.path() + "/steered.sqlite";
    const QString control = m_dir.path() + "/steered.control.json";
    QProcess p;
    p.start(RWB_BINARY, {"grpo", "--config", config, "--quiet", "--nproc", "2", "--control", control});
    QVERIFY(p.waitForStarted());
    auto stepsDone = [](int n) {
        return [n](const rwb::store::RunStore &s) { return !s.stepRollouts(1, n).empty(); };
    };
    QVERIFY2(waitForStore(store, stepsDone(1)), "step 1 never reached the store");
    writeWhole(control, "{\"weights\": [1, 2"); // cut short: reported, nothing changes
    QString err;
    auto waitForError = [&](const QString &text) { // the run reports it on stderr within a minute
        QElapsedTimer t;
        t.start();
        while (!err.contains(text) && t.elapsed() < 60000) {
            p.waitForReadyRead(200);
            err += QString::fromUtf8(p.readAllStandardError());
        }
    };
    waitForError("not valid JSON");
    QVERIFY2(err.contains(control + ": not valid JSON (byte 18); ignored, the run goes on"), qPrintable(err));
    writeWhole(control, R"({"weights": [1, 2, 3]})"); // one too many
    waitForError("3 numbers");
    QVERIFY2(err.contains(control + ": weights: 3 numbers for 2 components (partial, marker); ignored"), qPrintable(err));
    writeWhole(control, R"({"weights": [5, 95]})");
    QVERIFY2(waitForStore(store, [](const rwb::store::RunStore &s) { return s.rewardConfigs(1).size() == 2; }),
             "the new weights were never recorded");
    writeWhole(control, R"({"weights": [5, 95], "stop": true})");
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    err += QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(err.contains(control + ": stopping after the step in flight"), qPrintable(err));
    const json result = json::parse(out.toStdString());
    QCOMPARE(result["status"], json("stopped"));
    const int steps = result["steps"].get<int>();
    QVERIFY2(steps >= 2 && steps < 40, qPrintable(QString::number(steps)));

    const rwb::store::RunStore s(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
    const auto versions = s.rewardConfigs(1);
    QCOMPARE(versions.size(), size_t(2));
    QVERIFY(versions[1].step >= 2 && versions[1].step <= steps);
    const json changed = json::parse(versions[1].configJson);
    QCOMPARE(changed["components"][0]["weight"].get<double>(), 5.0);
    QCOMPARE(changed["components"][1]["weight"].get<double>(), 95.0);
    QCOMPARE(json::parse(versions[0].configJson)["components"][1]["weight"].get<double>(), 80.0);
    QCOMPARE(s.run(1).status, std::string("stopped"));
}

// kill -TERM of rwb grpo --nproc 2 (the launcher, rank 0: what kill, systemd and Slurm
// reach first) stops the whole group after the step in flight, as Ctrl-C does: status
// stopped, both ranks gone, exit 0 (issue 38: SIGTERM killed rank 0 and left the run running).
void TestGrpoDist::sigtermStopsTheGroup()
{
    const QString config = writeConfig("terminated", 40, json{{"lora", false}});
    const QString store = m_dir.path() + "/terminated.sqlite";
    QProcess p;
    p.start(RWB_BINARY, {"grpo", "--config", config, "--quiet", "--nproc", "2"});
    QVERIFY(p.waitForStarted());
    QVERIFY2(waitForStore(store, [](const rwb::store::RunStore &s) { return !s.stepRollouts(1, 1).empty(); }),
             "step 1 never reached the store");
    ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 0, qPrintable(err));
    QVERIFY2(err.contains("SIGTERM: stopping after the step in flight"), qPrintable(err));
    const json result = json::parse(p.readAllStandardOutput().toStdString());
    QCOMPARE(result["status"], json("stopped"));
    const int steps = result["steps"].get<int>();
    QVERIFY2(steps >= 1 && steps < 40, qPrintable(QString::number(steps)));
    const rwb::store::RunStore s(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(QString::fromStdString(s.run(1).status), QString("stopped"));
    QCOMPARE(QString::fromStdString(s.integrityCheck()), QString("ok"));
}

QTEST_GUILESS_MAIN(TestGrpoDist)
#include "tst_grpodist.moc"
