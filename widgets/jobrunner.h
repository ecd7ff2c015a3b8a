#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>

class QProcess;
class QThread;
class QTimer;

namespace rwb::train {
struct SftConfig;
struct EvaluationOptions;
} // namespace rwb::train

namespace rwb::widgets {

// Runs one long job at a time (the window's own GRPO run has TrainingController). Two
// kinds: on its own thread, the core function the matching `rwb` command calls (data
// synthesis, tokenizer training, SFT, evaluation, a new model); or the `rwb` command
// itself as a child process (runCommand: the MCTS search, the PRM's jobs, a judge's
// evaluation, imports, multi-process GRPO), so the workbench and the CLI write the same
// files, and a crash in the job is the job's, not the window's. Progress reaches the thread the runner lives in as queued signals, at most 20
// a second (the last one, done == total, always comes); finished() comes once per job,
// after the last progress().
//
// cancel() asks the job to stop at its next progress point (an e-mail, a merge batch,
// an optimizer step, an evaluation batch); it then finishes with ok = false and the
// message "cancelled". A cancelled SFT still saves what it trained (runSft's rule).
//
// Threads: use a JobRunner from the thread it lives in. The destructor cancels a running
// job and waits for it.
class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject *parent = nullptr);
    ~JobRunner() override;

    bool isRunning() const;
    // The last job's title ("" before the first).
    QString title() const { return m_title; }

    // Each returns false (and emits nothing) while another job runs; otherwise started()
    // follows at once, then progress(), then finished().

    // Synthetic e-mails as `rwb data synth` writes them (same seed → same bytes):
    // OUTDIR/train.jsonl, val.jsonl and test.jsonl with train, val and test e-mails.
    // Progress counts e-mails over all three files.
    bool synthesize(const QString &outDir, int train, int val, int test, quint64 seed, int maxChars = 600);
    // `count` e-mails split 80 / 10 / 10: val = test = count / 10 (rounded down), train the rest.
    bool synthesize(const QString &outDir, int count, quint64 seed);
    // A byte-level BPE tokenizer (`rwb data corpus` + `rwb tokenizer train`, default added
    // tokens, min pair count 2) learned from the prompts and golds of an extraction JSONL:
    // OUTDIR/tokenizer.json and tokenizer_config.json. Progress counts learned tokens.
    bool trainTokenizer(const QString &corpusJsonl, const QString &outDir, int vocabSize, bool thinking = false);
    // `rwb sft`: progress counts optimizer steps; the detail shows loss and tokens/s.
    bool trainSft(const rwb::train::SftConfig &config);
    // `rwb eval run`: progress counts examples. The finished message is the metrics JSON
    // line the CLI prints (without seconds), e.g. {"precision":…,"f1":…,"examples":…}.
    bool evaluate(const rwb::train::EvaluationOptions &options);
    // `rwb model init`: a model with random weights and the tokenizer of `tokenizerDir`.
    bool initModel(const QString &tokenizerDir, const QString &outDir, const QString &shape = QStringLiteral("tiny"),
                   quint64 seed = 1);
    // `rwb ARGS` with RWB_PROGRESS=json (docs/cli.md): each JSON progress line on its
    // stderr becomes progress() and progressData(); other stderr lines become logLine().
    // It finishes ok when the command exits 0, with the command's JSON result (its stdout
    // as one object, or the last line that is one) as the message and in result(); otherwise with the command's "rwb: …"
    // lines (or how it ended) as the message. cancel() sends SIGTERM: the command stops at
    // its next boundary and keeps what it did (a run marked stopped, a model saved), then
    // finishes with "cancelled" and whatever result it printed; a command still running
    // kStopGraceMs later, or when cancel() is asked again, is killed.
    bool runCommand(const QString &title, const QStringList &args, const QString &workingDir = {});
    // The JSON object the last command job printed on stdout ({} when none or not a command).
    QJsonObject result() const { return m_result; }
    // The command line of the last command job, shell-quoted (for the log and "copy").
    QString commandLine() const { return m_commandLine; }
    // The `rwb` program the command jobs run: $RWB_PROGRAM; else `rwb` beside the
    // workbench's executable, or in the build tree's app/rwb beside app/workbench; else
    // `rwb` on PATH. "" when none is found.
    static QString rwbProgram();
    // ARGS as a shell would need them quoted, after the program.
    static QString shellQuoted(const QString &program, const QStringList &args);
    static constexpr int kStopGraceMs = 60000;

public Q_SLOTS:
    void cancel();

Q_SIGNALS:
    void started(const QString &title);
    // `total` 0: unknown. `detail` is a short human line ("loss 1.234, 3100 tok/s").
    void progress(qint64 done, qint64 total, const QString &detail);
    // ok false: `message` names the failing file or field, or says "cancelled".
    void finished(bool ok, const QString &message);
    // A command job's progress line as it came ({"done", "total", "detail", "metrics", …}).
    void progressData(const QJsonObject &progress);
    // A command job's other stderr lines (its warnings), one at a time.
    void logLine(const QString &line);

private:
    // Reports progress from the worker thread; returns false when the job should stop.
    using Report = std::function<bool(qint64 done, qint64 total, const QString &detail)>;
    // The work returns a message for finished(ok = true); it throws to fail.
    using Work = std::function<QString(const Report &)>;
    bool start(const QString &title, Work work);
    void threadDone();
    void readStderr(bool flush);
    void processDone();

    QProcess *m_process = nullptr;
    QTimer *m_killTimer = nullptr;
    QByteArray m_stderrBuffer;
    QStringList m_errorLines;   // the command's last non-progress stderr lines
    QJsonObject m_result;
    QString m_commandLine;
    bool m_cancelled = false;
    bool m_startFailed = false; // no program to start

    QThread *m_thread = nullptr;
    std::atomic<bool> m_cancel{false};
    QString m_title;
    // Written by the worker before its thread ends; read after.
    bool m_ok = false;
    QString m_message;
};

} // namespace rwb::widgets
