#include "jobrunner.h"

#include "tasks/extraction/extractionrecord.h"
#include "data/jsonl.h"
#include "tasks/extraction/syntheticemails.h"
#include "model/initmodel.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/promptformat.h"
#include "train/evaluation.h"
#include "train/sft.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>
#include <QThread>
#include <chrono>
#include <filesystem>
#include <fstream>

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
}

bool JobRunner::isRunning() const
{
    return m_thread != nullptr;
}

void JobRunner::cancel()
{
    if (m_thread)
        m_cancel = true;
}

bool JobRunner::start(const QString &title, Work work)
{
    if (m_thread)
        return false;
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

} // namespace rwb::widgets
