#include "jobrunner.h"

#include "tasks/extraction/extractionrecord.h"
#include "data/jsonl.h"
#include "tasks/extraction/syntheticemails.h"
#include "model/initmodel.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/promptformat.h"
#include "train/evaluation.h"
#include "train/sft.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <utility>

namespace rwb::widgets {

namespace {

// The shortest time between two progress signals (20 a second at most).
constexpr std::chrono::milliseconds kProgressInterval{50};

// Thrown inside a job when cancel() was asked for.
struct Cancelled {};

// Writes `n` e-mails of one split to DIR/<split>.jsonl as `rwb data synth --out` does
// (through a .part file renamed when complete).
void writeSplit(const QString &dir, data::DataSplit split, size_t n, quint64 seed, int maxChars,
                const std::function<bool(size_t)> &onEmail)
{
    const std::string path = QDir(dir).filePath(QString::fromUtf8(data::splitName(split).data(), static_cast<qsizetype>(data::splitName(split).size())) + ".jsonl").toStdString();
    const std::string part = path + ".part";
    std::ofstream file(part, std::ios::binary | std::ios::trunc);
    if (!file)
        throw data::InputException({path, 0, "cannot write"});
    const data::SyntheticEmailGenerator generator(seed, split, static_cast<size_t>(maxChars));
    bool stopped = false;
    data::writeSyntheticJsonl(
        generator, n, file,
        [&](size_t done, size_t) {
            stopped = !onEmail(done);
            return !stopped;
        },
        /*every=*/10);
    file.close();
    if (stopped) {
        std::filesystem::remove(part);
        throw Cancelled{};
    }
    if (!file)
        throw data::InputException({path, 0, "write failed (disk full?)"});
    std::filesystem::rename(part, path);
}

} // namespace

JobRunner::JobRunner(QObject *parent) : QObject(parent) {}

JobRunner::~JobRunner()
{
    if (m_thread) {
        m_cancel = true;
        m_thread->wait();
        delete m_thread;
    }
    if (m_process) {
        // Ask it to stop as Ctrl-C would (it keeps what it did); kill what does not.
        m_process->disconnect(this);
        m_process->terminate();
        if (!m_process->waitForFinished(10000)) {
            m_process->kill();
            m_process->waitForFinished(2000);
        }
        delete m_process;
    }
}

bool JobRunner::isRunning() const
{
    return m_thread != nullptr || m_process != nullptr;
}

void JobRunner::cancel()
{
    if (m_thread)
        m_cancel = true;
    if (!m_process)
        return;
    if (!m_cancelled) {
        // As Ctrl-C: the command stops at its next boundary and keeps what it did.
        m_cancelled = true;
        m_process->terminate();
        m_killTimer->start(kStopGraceMs);
    } else {
        // Asked twice: at once.
        m_process->kill();
    }
}

bool JobRunner::start(const QString &title, Work work)
{
    if (isRunning())
        return false;
    m_result = {};
    m_commandLine.clear();
    m_cancel = false;
    m_ok = false;
    m_message.clear();
    m_title = title;
    m_thread = QThread::create([this, work = std::move(work)] {
        using Clock = std::chrono::steady_clock;
        Clock::time_point last{};
        const Report report = [this, &last](qint64 done, qint64 total, const QString &detail) {
            const Clock::time_point now = Clock::now();
            if ((total > 0 && done >= total) || now - last >= kProgressInterval) {
                last = now;
                QMetaObject::invokeMethod(
                    this, [this, done, total, detail] { Q_EMIT progress(done, total, detail); }, Qt::QueuedConnection);
            }
            return !m_cancel.load();
        };
        try {
            m_message = work(report);
            m_ok = !m_cancel.load();
            if (!m_ok)
                m_message = tr("cancelled");
        } catch (const Cancelled &) {
            m_message = tr("cancelled");
        } catch (const data::InputException &e) {
            m_message = QString::fromStdString(e.error().toString());
        } catch (const std::exception &e) {
            m_message = QString::fromStdString(e.what());
        } catch (...) {
            m_message = tr("unknown error");
        }
    });
    connect(m_thread, &QThread::finished, this, &JobRunner::threadDone);
    Q_EMIT started(title);
    m_thread->start();
    return true;
}

void JobRunner::threadDone()
{
    if (!m_thread)
        return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    Q_EMIT finished(m_ok, m_message);
}

bool JobRunner::synthesize(const QString &outDir, int train, int val, int test, quint64 seed, int maxChars)
{
    if (train < 0 || val < 0 || test < 0 || maxChars < 300)
        return false;
    const QString title = tr("Synthesizing %1 e-mails").arg(train + val + test);
    return start(title, [=](const Report &report) {
        if (!QDir().mkpath(outDir))
            throw data::InputException({outDir.toStdString(), 0, "cannot create the folder"});
        const qint64 total = qint64(train) + val + test;
        qint64 before = 0;
        const std::pair<data::DataSplit, int> splits[] = {
            {data::DataSplit::Train, train}, {data::DataSplit::Val, val}, {data::DataSplit::Test, test}};
        for (const auto &[split, n] : splits) {
            const QString name = QString::fromUtf8(data::splitName(split).data(), static_cast<qsizetype>(data::splitName(split).size()));
            writeSplit(outDir, split, static_cast<size_t>(n), seed, maxChars, [&](size_t done) {
                return report(before + static_cast<qint64>(done), total, name);
            });
            before += n;
        }
        return tr("%1 train, %2 validation and %3 test e-mails in %4").arg(train).arg(val).arg(test).arg(outDir);
    });
}

bool JobRunner::synthesize(const QString &outDir, int count, quint64 seed)
{
    if (count < 0)
        return false;
    const int held = count / 10;
    return synthesize(outDir, count - 2 * held, held, held, seed);
}

bool JobRunner::trainTokenizer(const QString &corpusJsonl, const QString &outDir, int vocabSize, bool thinking)
{
    return start(tr("Training a tokenizer of %1 tokens").arg(vocabSize), [=](const Report &report) {
        data::ExtractionReadOptions ro;
        ro.requireCompletion = false;
        const std::vector<data::ExtractionRecord> records =
            data::readExtractionJsonl(corpusJsonl.toStdString(), ro).records;
        // The text of `rwb data corpus`: prompt and gold answer of every line.
        std::string corpus;
        for (const data::ExtractionRecord &r : records)
            corpus += tokenizer::PromptFormat::corpusEntry(r.senderEmail, r.emailText, r.gold, thinking);
        tokenizer::BpeTrainerOptions options;
        options.vocabSize = vocabSize;
        std::unique_ptr<tokenizer::BpeTrainer> trainer;
        try {
            trainer = std::make_unique<tokenizer::BpeTrainer>(options);
        } catch (const std::invalid_argument &e) {
            throw data::InputException({outDir.toStdString(), 0, std::string("vocabulary size: ") + e.what()});
        }
        trainer->addText(corpus);
        const bool done = trainer->train([&](const tokenizer::BpeTrainingProgress &p) {
            return report(static_cast<qint64>(p.merges), static_cast<qint64>(p.target),
                          tr("last pair seen %1 times").arg(p.lastCount));
        });
        if (!done)
            throw Cancelled{};
        trainer->save(outDir.toStdString());
        return tr("%1 tokens learned from %2 e-mails, written to %3")
            .arg(trainer->vocab().size() - 256)
            .arg(records.size())
            .arg(outDir);
    });
}

bool JobRunner::trainSft(const train::SftConfig &config)
{
    return start(tr("Supervised fine-tuning"), [this, config](const Report &report) {
        const train::SftResult r = train::runSft(config, [&](const train::SftProgress &p) {
            return report(p.step, p.totalSteps,
                          tr("loss %1, %2 tokens/s").arg(p.loss, 0, 'f', 4).arg(p.tokensPerSecond, 0, 'f', 0));
        });
        if (m_cancel.load())
            throw Cancelled{};
        return tr("%1 steps, final loss %2, written to %3")
            .arg(r.steps)
            .arg(r.finalLoss, 0, 'f', 4)
            .arg(QString::fromStdString(config.output));
    });
}

bool JobRunner::evaluate(const train::EvaluationOptions &options)
{
    return start(tr("Evaluating %1").arg(QString::fromStdString(options.model)), [options](const Report &report) {
        const train::EvaluationResult r = train::runEvaluation(options, [&](const train::EvaluationProgress &p) {
            return report(static_cast<qint64>(p.done), static_cast<qint64>(p.total), {});
        });
        if (r.stopped)
            throw Cancelled{};
        QJsonObject j;
        for (const auto &[name, value] : r.metrics)
            j.insert(QString::fromStdString(name), value);
        for (const auto &[name, value] : r.counts)
            j.insert(QString::fromStdString(name), static_cast<qint64>(value));
        j.insert(QStringLiteral("examples"), static_cast<qint64>(r.examples));
        j.insert(QStringLiteral("mean_output_tokens"), r.meanOutputTokens);
        return QString::fromUtf8(QJsonDocument(j).toJson(QJsonDocument::Compact));
    });
}

bool JobRunner::initModel(const QString &tokenizerDir, const QString &outDir, const QString &shape, quint64 seed)
{
    return start(tr("Creating a %1 model").arg(shape), [=](const Report &report) {
        report(0, 1, {});
        model::InitModelOptions o;
        o.tokenizerDir = tokenizerDir.toStdString();
        o.out = outDir.toStdString();
        o.shape = shape.toStdString();
        o.seed = seed;
        const model::InitModelResult r = model::initModelFolder(o);
        report(1, 1, {});
        return tr("%1 parameters, written to %2").arg(r.parameters).arg(outDir);
    });
}

QString JobRunner::rwbProgram()
{
    const QString fromEnv = qEnvironmentVariable("RWB_PROGRAM");
    if (!fromEnv.isEmpty())
        return QFileInfo(fromEnv).isExecutable() ? fromEnv : QString();
    const QDir here(QCoreApplication::applicationDirPath());
    // Installed side by side; the build tree's app/workbench and app/rwb; a test in
    // build/tests.
    for (const QString &candidate : {here.filePath(QStringLiteral("rwb")), here.filePath(QStringLiteral("../rwb/rwb")),
                                     here.filePath(QStringLiteral("../app/rwb/rwb"))}) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("rwb"));
}

QString JobRunner::shellQuoted(const QString &program, const QStringList &args)
{
    QStringList words{program};
    for (const QString &a : args) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=,+@%-]+$"));
        if (plain.match(a).hasMatch())
            words << a;
        else
            words << QLatin1Char('\'') + QString(a).replace(QLatin1String("'"), QLatin1String("'\\''")) + QLatin1Char('\'');
    }
    return words.join(QLatin1Char(' '));
}

bool JobRunner::runCommand(const QString &title, const QStringList &args, const QString &workingDir)
{
    if (isRunning())
        return false;
    const QString program = rwbProgram();
    m_title = title;
    m_result = {};
    m_errorLines.clear();
    m_stderrBuffer.clear();
    m_cancelled = false;
    m_startFailed = false;
    m_ok = false;
    m_message.clear();
    m_commandLine = shellQuoted(QStringLiteral("rwb"), args);
    m_process = new QProcess(this);
    if (!m_killTimer) {
        m_killTimer = new QTimer(this);
        m_killTimer->setSingleShot(true);
        connect(m_killTimer, &QTimer::timeout, this, [this] {
            if (m_process)
                m_process->kill();
        });
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("RWB_PROGRESS"), QStringLiteral("json"));
    m_process->setProcessEnvironment(env);
    if (!workingDir.isEmpty())
        m_process->setWorkingDirectory(workingDir);
    connect(m_process, &QProcess::readyReadStandardError, this, [this] { readStderr(false); });
    connect(m_process, &QProcess::finished, this, &JobRunner::processDone);
    // Queued: QProcess may report a failed start inside start(), before the caller has
    // seen runCommand return; every job ends from the event loop.
    connect(
        m_process, &QProcess::errorOccurred, this,
        [this](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart)
                processDone();
        },
        Qt::QueuedConnection);
    Q_EMIT started(title);
    if (program.isEmpty()) {
        // Finished from the event loop, after started() was handled, as every job does.
        m_startFailed = true;
        m_errorLines << tr("the rwb program was not found beside the workbench or on PATH (set RWB_PROGRAM)");
        QTimer::singleShot(0, this, &JobRunner::processDone);
        return true;
    }
    m_process->start(program, args);
    return true;
}

void JobRunner::readStderr(bool flush)
{
    if (!m_process)
        return;
    if (m_process->isOpen())
        m_stderrBuffer += m_process->readAllStandardError();
    qsizetype end = 0;
    for (;;) {
        qsizetype nl = m_stderrBuffer.indexOf('\n', end);
        const bool last = nl < 0;
        if (last && !(flush && end < m_stderrBuffer.size()))
            break;
        if (last)
            nl = m_stderrBuffer.size();
        const QByteArray line = m_stderrBuffer.mid(end, nl - end).trimmed();
        end = nl + 1;
        if (line.isEmpty())
            continue;
        if (line.startsWith("{\"progress\"")) {
            const QJsonObject p = QJsonDocument::fromJson(line).object().value(QStringLiteral("progress")).toObject();
            if (!p.isEmpty()) {
                Q_EMIT progressData(p);
                Q_EMIT progress(p.value(QStringLiteral("done")).toInteger(), p.value(QStringLiteral("total")).toInteger(),
                                p.value(QStringLiteral("detail")).toString());
                continue;
            }
        }
        // A terminal's carriage-return line, or a warning: the log's.
        const QString text = QString::fromUtf8(line).section(QLatin1Char('\r'), -1).trimmed();
        if (text.isEmpty())
            continue;
        m_errorLines << text;
        if (m_errorLines.size() > 20)
            m_errorLines.removeFirst();
        Q_EMIT logLine(text);
    }
    m_stderrBuffer.remove(0, std::min(end, m_stderrBuffer.size()));
    // A line without an end that grows without bound is not a progress line.
    if (m_stderrBuffer.size() > (1 << 20))
        m_stderrBuffer.clear();
}

void JobRunner::processDone()
{
    if (!m_process)
        return;
    m_killTimer->stop();
    readStderr(true); // what is left in the pipe
    QProcess *process = std::exchange(m_process, nullptr);
    // The result: stdout as one JSON object (indented or not), else its last line that is one.
    const QByteArray out = process->isOpen() ? process->readAllStandardOutput() : QByteArray();
    m_result = QJsonDocument::fromJson(out).object();
    if (m_result.isEmpty()) {
        const QList<QByteArray> lines = out.split('\n');
        for (auto it = lines.rbegin(); it != lines.rend() && m_result.isEmpty(); ++it)
            if (!it->trimmed().isEmpty())
                m_result = QJsonDocument::fromJson(it->trimmed()).object();
    }
    const bool ran = !m_startFailed && process->error() != QProcess::FailedToStart;
    const bool exitedOk = ran && process->exitStatus() == QProcess::NormalExit && process->exitCode() == 0;
    bool ok = false;
    QString message;
    if (m_cancelled) {
        message = tr("cancelled");
    } else if (exitedOk) {
        ok = true;
        message = QString::fromUtf8(QJsonDocument(m_result).toJson(QJsonDocument::Compact));
    } else {
        // The command's own messages ("rwb: FILE:LINE: …") say what went wrong.
        QStringList errors;
        for (const QString &l : std::as_const(m_errorLines))
            if (l.startsWith(QLatin1String("rwb:")))
                errors << l;
        if (errors.isEmpty() && !m_errorLines.isEmpty())
            errors << m_errorLines.mid(std::max<qsizetype>(0, m_errorLines.size() - 3));
        if (process->error() == QProcess::FailedToStart)
            errors << tr("%1 could not be started: %2").arg(process->program(), process->errorString());
        else if (process->exitStatus() == QProcess::CrashExit)
            errors << tr("%1 crashed").arg(m_commandLine.section(QLatin1Char(' '), 0, 2));
        else if (errors.isEmpty() && !m_startFailed)
            errors << tr("%1 ended with exit code %2").arg(m_commandLine.section(QLatin1Char(' '), 0, 2)).arg(process->exitCode());
        message = errors.join(QLatin1Char('\n'));
    }
    process->deleteLater();
    Q_EMIT finished(ok, message);
}

} // namespace rwb::widgets
