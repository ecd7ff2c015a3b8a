// widgets/JobRunner: each background job against the rwb command it stands for.
// Synthesis of 50 e-mails splits 40 / 5 / 5 (the 80 / 10 / 10 rule: val = test = 50 / 10)
// and writes the same bytes as `rwb data synth`, with progress reaching 50 / 50; cancel
// stops a long synthesis and leaves no file (so does destroying the runner); a bad folder
// fails naming it; the tokenizer, the new tiny model and the evaluation's predictions are
// byte for byte those of `rwb tokenizer train`, `rwb model init` and `rwb eval run`; SFT
// reports its 2 steps (8 examples, 4 a step).
#include "jobrunner.h"
#include "rwbprocess.h"

#include "train/evaluation.h"
#include "train/sft.h"
#include "testtime.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using rwb::widgets::JobRunner;

namespace {

QByteArray bytesOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable " + path.toUtf8() + ">");
}

int lineCount(const QString &path)
{
    return static_cast<int>(bytesOf(path).count('\n'));
}

// Waits for finished() (jobs of a tiny model take seconds).
bool waitFinished(QSignalSpy &finished, int ms = 120000)
{
    return finished.count() > 0 || finished.wait(ms);
}

} // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void synthesizeSplitsAndMatchesCli();
    void cancelStopsSynthesis();
    void badFolderFails();
    void pipelineMatchesCli();
};

void TestJobRunner::synthesizeSplitsAndMatchesCli()
{
    QTemporaryDir dir;
    JobRunner runner;
    QSignalSpy started(&runner, &JobRunner::started);
    QSignalSpy progress(&runner, &JobRunner::progress);
    QSignalSpy finished(&runner, &JobRunner::finished);
    QVERIFY(runner.synthesize(dir.path() + "/data", 50, 7));
    QVERIFY(runner.isRunning());
    QVERIFY(!runner.synthesize(dir.path() + "/other", 10, 7)); // one job at a time
    QCOMPARE(started.count(), 1);
    QVERIFY(waitFinished(finished));
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(!runner.isRunning());
    QVERIFY(progress.count() >= 1);
    qint64 previous = -1;
    for (const auto &p : progress) {
        QVERIFY(p.at(0).toLongLong() >= previous);
        previous = p.at(0).toLongLong();
        QCOMPARE(p.at(1).toLongLong(), 50);
    }
    QCOMPARE(progress.last().at(0).toLongLong(), 50);
    QCOMPARE(lineCount(dir.path() + "/data/train.jsonl"), 40);
    QCOMPARE(lineCount(dir.path() + "/data/val.jsonl"), 5);
    QCOMPARE(lineCount(dir.path() + "/data/test.jsonl"), 5);
    QVERIFY(rwbtest::runRwb({"data", "synth", "--task", "company_extraction", "--n", "40", "--seed", "7", "--split",
                             "train", "--out", dir.path() + "/cli-train.jsonl"}));
    QVERIFY(rwbtest::runRwb({"data", "synth", "--task", "company_extraction", "--n", "5", "--seed", "7", "--split",
                             "test", "--out", dir.path() + "/cli-test.jsonl"}));
    QCOMPARE(bytesOf(dir.path() + "/data/train.jsonl"), bytesOf(dir.path() + "/cli-train.jsonl"));
    QCOMPARE(bytesOf(dir.path() + "/data/test.jsonl"), bytesOf(dir.path() + "/cli-test.jsonl"));
}

void TestJobRunner::cancelStopsSynthesis()
{
    QTemporaryDir dir;
    JobRunner runner;
    QSignalSpy progress(&runner, &JobRunner::progress);
    QSignalSpy finished(&runner, &JobRunner::finished);
    // 10 million e-mails would take hours: the test passes only if cancel stops it.
    QVERIFY(runner.synthesize(dir.path(), 10'000'000, 0, 0, 1));
    QVERIFY(progress.wait(rwbtest::scaledMs(30000)));
    runner.cancel();
    QVERIFY(waitFinished(finished, 30000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("cancelled"));
    QVERIFY(progress.last().at(0).toLongLong() < 10'000'000);
    QVERIFY(!QFile::exists(dir.path() + "/train.jsonl"));
    QVERIFY(!QFile::exists(dir.path() + "/train.jsonl.part"));

    // Destroying a runner with a job in flight cancels it and waits: no file, no crash.
    auto *doomed = new JobRunner;
    QSignalSpy doomedProgress(doomed, &JobRunner::progress);
    QVERIFY(doomed->synthesize(dir.path() + "/doomed", 10'000'000, 0, 0, 1));
    QVERIFY(doomedProgress.wait(rwbtest::scaledMs(30000)));
    delete doomed;
    QVERIFY(!QFile::exists(dir.path() + "/doomed/train.jsonl"));
    QVERIFY(!QFile::exists(dir.path() + "/doomed/train.jsonl.part"));
}

void TestJobRunner::badFolderFails()
{
    QTemporaryDir dir;
    QFile file(dir.path() + "/plain-file");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    const QString bad = dir.path() + "/plain-file/data"; // a folder under a file
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    QVERIFY(runner.synthesize(bad, 10, 1));
    QVERIFY(waitFinished(finished));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(finished.first().at(1).toString().contains(bad), qPrintable(finished.first().at(1).toString()));

    finished.clear();
    QVERIFY(runner.trainTokenizer(dir.path() + "/missing.jsonl", dir.path() + "/tok", 600));
    QVERIFY(waitFinished(finished));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY2(finished.first().at(1).toString().contains(dir.path() + "/missing.jsonl"),
             qPrintable(finished.first().at(1).toString()));
}

void TestJobRunner::pipelineMatchesCli()
{
    QTemporaryDir dir;
    const QString d = dir.path();
    JobRunner runner;
    QSignalSpy progress(&runner, &JobRunner::progress);
    QSignalSpy finished(&runner, &JobRunner::finished);
    auto expectOk = [&] {
        if (!waitFinished(finished))
            return false;
        const bool ok = finished.first().at(0).toBool();
        if (!ok)
            qWarning() << finished.first().at(1).toString();
        return ok;
    };

    QVERIFY(runner.synthesize(d + "/data", 60, 3));
    QVERIFY(expectOk());

    // Tokenizer: the same files as rwb data corpus + rwb tokenizer train.
    finished.clear();
    progress.clear();
    QVERIFY(runner.trainTokenizer(d + "/data/train.jsonl", d + "/tok", 600));
    QVERIFY(expectOk());
    QVERIFY(!progress.isEmpty());
    QCOMPARE(progress.last().at(0), progress.last().at(1)); // done == total at the end
    QVERIFY(rwbtest::runRwb({"data", "corpus", "--input", d + "/data/train.jsonl", "--out", d + "/corpus.txt"}));
    QVERIFY(rwbtest::runRwb({"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "600", "--out",
                             d + "/cli-tok"}));
    QCOMPARE(bytesOf(d + "/tok/tokenizer.json"), bytesOf(d + "/cli-tok/tokenizer.json"));
    QCOMPARE(bytesOf(d + "/tok/tokenizer_config.json"), bytesOf(d + "/cli-tok/tokenizer_config.json"));

    // The tiny model: the same weights as rwb model init with the same seed.
    finished.clear();
    QVERIFY(runner.initModel(d + "/tok", d + "/tiny", "tiny", 1));
    QVERIFY(expectOk());
    QVERIFY(rwbtest::runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/cli-tiny", "--seed", "1"}));
    QCOMPARE(bytesOf(d + "/tiny/model.safetensors"), bytesOf(d + "/cli-tiny/model.safetensors"));
    QCOMPARE(bytesOf(d + "/tiny/config.json"), bytesOf(d + "/cli-tiny/config.json"));

    // Evaluation: the same predictions as rwb eval run (greedy, one thread).
    rwb::train::EvaluationOptions o;
    o.model = (d + "/tiny").toStdString();
    o.data = (d + "/data/val.jsonl").toStdString();
    o.limit = 5;
    o.batch = 2;
    o.maxNewTokens = 8;
    o.threads = 1;
    o.output = (d + "/predictions.jsonl").toStdString();
    finished.clear();
    progress.clear();
    QVERIFY(runner.evaluate(o));
    QVERIFY(expectOk());
    QCOMPARE(progress.last().at(0).toLongLong(), 5);
    QCOMPARE(progress.last().at(1).toLongLong(), 5);
    const QJsonObject metrics = QJsonDocument::fromJson(finished.first().at(1).toString().toUtf8()).object();
    QCOMPARE(metrics.value("examples").toInt(), 5);
    QVERIFY(rwbtest::runRwb({"eval", "run", "--model", d + "/tiny", "--data", d + "/data/val.jsonl", "--limit", "5",
                             "--batch", "2", "--max-new-tokens", "8", "--threads", "1", "--output",
                             d + "/cli-predictions.jsonl"}));
    QCOMPARE(lineCount(d + "/predictions.jsonl"), 5);
    QCOMPARE(bytesOf(d + "/predictions.jsonl"), bytesOf(d + "/cli-predictions.jsonl"));

    // SFT: 8 examples, 4 a step, one epoch = 2 optimizer steps.
    rwb::train::SftConfig sft;
    sft.model = o.model;
    sft.output = (d + "/sft").toStdString();
    sft.trainData = (d + "/data/train.jsonl").toStdString();
    sft.lora = false;
    sft.limit = 8;
    sft.batchSize = 4;
    sft.gradientAccumulation = 1;
    sft.maxLength = 2048;
    sft.threads = 1;
    sft.precision = "fp32";
    finished.clear();
    progress.clear();
    QVERIFY(runner.trainSft(sft));
    QVERIFY(expectOk());
    QCOMPARE(progress.last().at(0).toLongLong(), 2);
    QCOMPARE(progress.last().at(1).toLongLong(), 2);
    QVERIFY(progress.last().at(2).toString().startsWith("loss "));
    QVERIFY(QFile::exists(d + "/sft/model.safetensors"));
}

QTEST_MAIN(TestJobRunner)
#include "tst_jobrunner.moc"
