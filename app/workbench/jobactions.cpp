#include "jobactions.h"

#include "jobform.h"
#include "jobrunner.h"
#include "jobview.h"
#include "runsession.h"

#include "store/runstore.h"
#include "train/evaluation.h"
#include "train/grpo.h"
#include "train/sft.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>
#include <QToolButton>

#include <utility>

using namespace rwb::widgets;

JobActions::JobActions(QWidget *window, std::function<const std::optional<Workspace> &()> workspace,
                       std::function<RunSession *()> session)
    : QObject(window)
    , m_window(window)
    , m_workspace(std::move(workspace))
    , m_session(std::move(session))
    , m_jobs(new JobRunner(this))
    , m_synthesize(new QAction(this))
    , m_trainTokenizer(new QAction(this))
    , m_initModel(new QAction(this))
    , m_sft(new QAction(this))
    , m_evaluate(new QAction(this))
    , m_cancel(new QAction(QApplication::style()->standardIcon(QStyle::SP_DialogCancelButton), QString(), this))
    , m_status(new QLabel(window))
    , m_progress(new QProgressBar(window))
    , m_cancelButton(new QToolButton(window))
    , m_view(new JobView(m_jobs, window))
{
    for (auto *kinds : {&mctsJobKinds, &prmJobKinds, &judgeEvalJobKinds, &importJobKinds})
        for (JobKind &k : (*kinds)())
            m_kinds.push_back(std::move(k));
    for (const JobKind &k : m_kinds) {
        auto *a = new QAction(this);
        a->setObjectName(QStringLiteral("job-") + k.id);
        const QString id = k.id;
        connect(a, &QAction::triggered, this, [this, id] { openForm(id); });
        m_kindActions << a;
    }
    m_openers.notice = [this](const QString &title, const QString &text) { Q_EMIT notice(title, text); };
    connect(m_jobs, &JobRunner::started, this, [this] { m_runningRunId = 0; });
    connect(m_jobs, &JobRunner::progressData, this, [this](const QJsonObject &p) {
        if (const qint64 run = p.value(QStringLiteral("run_id")).toInteger(); run > 0)
            m_runningRunId = run;
        if (!m_kindJobRunning || !m_form)
            return;
        if (const JobKind *k = kind(m_formKind); k && k->progress)
            k->progress(p, *m_form, m_openers);
    });
    connect(m_synthesize, &QAction::triggered, this, &JobActions::synthesizeDialog);
    connect(m_trainTokenizer, &QAction::triggered, this, &JobActions::trainTokenizerDialog);
    connect(m_initModel, &QAction::triggered, this, &JobActions::initModelDialog);
    connect(m_sft, &QAction::triggered, this, &JobActions::sftDialog);
    connect(m_evaluate, &QAction::triggered, this, &JobActions::evaluateDialog);
    connect(m_cancel, &QAction::triggered, m_jobs, &JobRunner::cancel);
    m_progress->setObjectName(QStringLiteral("jobProgress"));
    m_progress->setMaximumWidth(160);
    m_cancelButton->setDefaultAction(m_cancel);
    m_cancelButton->setAutoRaise(true);
    for (QWidget *w : statusWidgets())
        w->hide();
    connect(m_jobs, &JobRunner::started, this, &JobActions::onJobStarted);
    connect(m_jobs, &JobRunner::progress, this, &JobActions::onJobProgress);
    connect(m_jobs, &JobRunner::finished, this, &JobActions::onJobFinished);
    retranslate();
}

QList<QAction *> JobActions::actions() const
{
    return {m_synthesize, m_trainTokenizer, m_initModel, m_sft, m_evaluate, m_cancel};
}

QList<QWidget *> JobActions::statusWidgets() const
{
    return {m_status, m_progress, m_cancelButton};
}

void JobActions::retranslate()
{
    m_synthesize->setText(tr("S&ynthesize e-mails…"));
    m_trainTokenizer->setText(tr("Train a &tokenizer…"));
    m_initModel->setText(tr("New tiny &model…"));
    m_sft->setText(tr("S&FT from a config…"));
    m_evaluate->setText(tr("&Evaluate a checkpoint…"));
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Cancel the background job"));
    for (int i = 0; i < m_kindActions.size(); ++i)
        m_kindActions[i]->setText(m_kinds[static_cast<size_t>(i)].menuText());
}

const JobKind *JobActions::kind(const QString &id) const
{
    for (const JobKind &k : m_kinds)
        if (k.id == id)
            return &k;
    return nullptr;
}

JobContext JobActions::context() const
{
    JobContext c;
    c.workspace = m_workspace();
    if (RunSession *s = m_session()) {
        c.storePath = s->storePath();
        c.runId = s->runId();
        try {
            c.runKind = QString::fromStdString(s->info().kind);
            c.runConfigJson = QString::fromStdString(s->info().configJson);
        } catch (const std::exception &) {
        }
    } else if (c.workspace) {
        c.storePath = c.workspace->storePath();
    }
    return c;
}

JobForm *JobActions::openForm(const QString &id)
{
    const JobKind *k = kind(id);
    if (!k)
        return nullptr;
    if (m_jobs->isRunning()) {
        Q_EMIT notice(k->menuText().remove(QLatin1Char('&')).remove(QStringLiteral("…")),
                      tr("Another background job is running: cancel it first or wait for it (Jobs dock)."));
        return nullptr;
    }
    JobForm *form = k->form(context(), m_openers, m_window);
    if (!form)
        return nullptr;
    form->setProperty("jobKind", id);
    form->setAttribute(Qt::WA_DeleteOnClose, false);
    connect(form, &QDialog::accepted, this, [this, form] { startForm(form); });
    connect(form, &QDialog::rejected, form, &QObject::deleteLater);
    form->validate();
    form->show();
    return form;
}

bool JobActions::startForm(JobForm *form)
{
    const QString id = form->property("jobKind").toString();
    const JobKind *k = kind(id);
    if (!k)
        return false;
    // A form that does not start stays open with what the user typed (Start hid it).
    const auto refuse = [this, form](const QString &why) {
        form->show();
        form->raise();
        Q_EMIT notice(form->windowTitle(), why);
        return false;
    };
    if (m_jobs->isRunning())
        return refuse(tr("Another background job is running: cancel it first or wait for it (Jobs dock)."));
    QStringList problems;
    if (!form->validate(&problems))
        return refuse(problems.join(QLatin1Char('\n')));
    QString error;
    if (!form->writeConfig(&error))
        return refuse(error);
    const QString title = k->title ? k->title(*form) : form->windowTitle();
    m_view->setCurves(k->curvesTitle ? k->curvesTitle() : QString(), k->curvePrefixes);
    m_view->setDescriber(k->describe);
    // The command runs in the jobs folder, which a job without a config may be the first to use.
    const QString jobsDir = context().jobsDir();
    QDir().mkpath(jobsDir);
    // The job's state is set before it starts: its end may come before runCommand returns.
    if (m_form && m_form != form)
        m_form->deleteLater();
    m_form = form;
    m_formKind = id;
    m_kindJobRunning = true;
    m_commandsRun = 1;
    if (!m_jobs->runCommand(title, form->arguments(), jobsDir)) {
        m_kindJobRunning = false;
        return refuse(tr("Another background job is running."));
    }
    form->hide();
    Q_EMIT log(m_jobs->commandLine());
    return true;
}

void JobActions::onJobStarted(const QString &title)
{
    m_status->setText(title);
    m_progress->setRange(0, 0);
    for (QWidget *w : std::initializer_list<QWidget *>{m_status, m_progress, m_cancelButton})
        w->show();
    Q_EMIT log(title);
}

void JobActions::onJobProgress(qint64 done, qint64 total, const QString &detail)
{
    if (total > 0) {
        // QProgressBar counts in int; scale large totals.
        const double scale = total > 1000000 ? 1000000.0 / static_cast<double>(total) : 1.0;
        m_progress->setRange(0, static_cast<int>(static_cast<double>(total) * scale));
        m_progress->setValue(static_cast<int>(static_cast<double>(done) * scale));
    }
    if (!detail.isEmpty())
        m_progress->setToolTip(detail);
}

void JobActions::onJobFinished(bool ok, const QString &message)
{
    // The kind's next command, as the same job (Cancel ended the chain: ok is false then).
    if (m_kindJobRunning && ok && m_form)
        if (const JobKind *k = kind(m_formKind); k && k->next)
            if (const std::optional<JobFollowUp> next = k->next(m_commandsRun, m_jobs->result(), *m_form)) {
                Q_EMIT log(message);
                m_view->setCurves(k->curvesTitle ? k->curvesTitle() : QString(), k->curvePrefixes);
                m_view->setDescriber(k->describe);
                m_view->continueJob();
                if (m_jobs->runCommand(next->title, next->arguments, context().jobsDir())) {
                    ++m_commandsRun;
                    Q_EMIT log(m_jobs->commandLine());
                    return;
                }
            }
    for (QWidget *w : std::initializer_list<QWidget *>{m_status, m_progress, m_cancelButton})
        w->hide();
    Q_EMIT log(message);
    const bool kindJob = m_kindJobRunning;
    if (std::exchange(m_kindJobRunning, false) && m_form) {
        // The kind opens its output: also after a cancel, what the job kept.
        m_openers.resultView = [this](QWidget *view) { m_view->setResultView(view); };
        if (const JobKind *k = kind(m_formKind); k && k->finished)
            k->finished(ok, m_jobs->result(), *m_form, m_openers);
    }
    if (!ok)
        Q_EMIT notice(tr("Background job"), message);
    else // a command's result is its JSON (in the log and the Jobs dock): the bar names the job
        Q_EMIT statusMessage(kindJob ? tr("%1: finished").arg(m_jobs->title()) : message);
    Q_EMIT jobFinished(ok);
    // An evaluation's predictions, for the failure explorer.
    const QString predictions = std::exchange(m_pendingPredictions, QString());
    if (ok && !predictions.isEmpty())
        Q_EMIT predictionsWritten(predictions, m_pendingStore, m_pendingRun, m_pendingStep);
}

bool JobActions::needWorkspace(const QString &title)
{
    if (!m_workspace())
        Q_EMIT notice(title, tr("Open or create a workspace first: data, models and configs go into its folders."));
    return m_workspace().has_value();
}

void JobActions::synthesizeDialog()
{
    if (!needWorkspace(tr("Synthesize e-mails")))
        return;
    bool ok = false;
    const int count = QInputDialog::getInt(m_window, tr("Synthesize e-mails"), tr("How many e-mails (split into train, "
                                                                             "validation and test):"),
                                           2000, 10, 1000000, 100, &ok);
    if (ok && !m_jobs->synthesize(m_workspace()->dataDir(), count, 42))
        Q_EMIT notice(tr("Synthesize e-mails"), tr("Another background job is running."));
}

void JobActions::trainTokenizerDialog()
{
    const QString title = tr("Train a tokenizer");
    if (!needWorkspace(title))
        return;
    const QString data = QFileDialog::getOpenFileName(m_window, tr("Train a tokenizer: the training data"),
                                                      m_workspace()->dataDir(), tr("Extraction data (*.jsonl)"));
    if (data.isEmpty())
        return;
    bool ok = false;
    const int vocab = QInputDialog::getInt(m_window, title, tr("Vocabulary size:"), 2048, 300, 262144, 256, &ok);
    if (ok && !m_jobs->trainTokenizer(data, QDir(m_workspace()->modelsDir()).filePath(QStringLiteral("tokenizer")), vocab))
        Q_EMIT notice(title, tr("Another background job is running."));
}

void JobActions::initModelDialog()
{
    const QString title = tr("New tiny model");
    if (!needWorkspace(title))
        return;
    const QString tokenizer = QFileDialog::getExistingDirectory(
        m_window, tr("New tiny model: the tokenizer folder"), QDir(m_workspace()->modelsDir()).filePath(QStringLiteral("tokenizer")));
    if (tokenizer.isEmpty())
        return;
    if (!m_jobs->initModel(tokenizer, QDir(m_workspace()->modelsDir()).filePath(QStringLiteral("tiny"))))
        Q_EMIT notice(title, tr("Another background job is running."));
}

void JobActions::sftDialog()
{
    const QString title = tr("SFT from a config");
    const QString path = QFileDialog::getOpenFileName(m_window, tr("SFT: the config (JSON, as rwb sft takes)"),
                                                      m_workspace() ? m_workspace()->configsDir() : QString(),
                                                      tr("SFT configs (*.json)"));
    if (path.isEmpty())
        return;
    try {
        if (!m_jobs->trainSft(rwb::train::loadSftConfig(path.toStdString())))
            Q_EMIT notice(title, tr("Another background job is running."));
    } catch (const std::exception &e) {
        Q_EMIT notice(title, QString::fromUtf8(e.what()));
    }
}

void JobActions::evaluateDialog()
{
    // A checkpoint of the run shown, on its evaluation data, as the trainer evaluates.
    rwb::widgets::RunSession *session = m_session();
    if (!session) {
        Q_EMIT notice(tr("Evaluate a checkpoint"), tr("Open a GRPO run first (Runs, or File → Open run store)."));
        return;
    }
    const qint64 runId = session->runId();
    rwb::train::EvaluationOptions options;
    QStringList items;
    std::vector<rwb::store::Checkpoint> checkpoints;
    rwb::train::GrpoConfig config;
    try {
        const rwb::store::RunInfo &run = session->info();
        config = rwb::train::parseGrpoConfig(run.configJson, session->storePath().toStdString());
        if (!run.task.empty())
            options.task = run.task;
        checkpoints = session->store().checkpoints(runId);
    } catch (const std::exception &e) {
        Q_EMIT notice(tr("Evaluate a checkpoint"), QString::fromUtf8(e.what()));
        return;
    }
    if (checkpoints.empty()) {
        Q_EMIT notice(tr("Evaluate a checkpoint"), tr("Run %1 has no checkpoint.").arg(runId));
        return;
    }
    for (const auto &c : checkpoints)
        items << tr("step %1 — %2").arg(c.step).arg(QString::fromStdString(c.path));
    bool ok = false;
    const QString item = QInputDialog::getItem(m_window, tr("Evaluate a checkpoint"), tr("Checkpoint:"), items,
                                               static_cast<int>(items.size()) - 1, false, &ok);
    if (!ok)
        return;
    const auto &checkpoint = checkpoints[static_cast<size_t>(items.indexOf(item))];
    const QString dir = QString::fromStdString(checkpoint.path);
    if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("adapter_config.json")))) {
        options.model = config.model;
        options.adapter = checkpoint.path;
    } else {
        options.model = checkpoint.path;
    }
    options.data = config.evalData.empty() ? config.trainData : config.evalData;
    options.limit = config.evalLimit;
    options.maxNewTokens = config.maxNewTokens;
    // A multi-step task answers from the index its evaluations used.
    options.environment = config.environment;
    if (!config.evalData.empty() && !config.evalRetrievalIndex.empty())
        options.environment.index = config.evalRetrievalIndex;
    options.output = QDir(dir).filePath(QStringLiteral("predictions.jsonl")).toStdString();
    if (!m_jobs->evaluate(options)) {
        Q_EMIT notice(tr("Evaluate a checkpoint"), tr("Another background job is running."));
        return;
    }
    m_pendingPredictions = QString::fromStdString(options.output);
    m_pendingStore = session->storePath();
    m_pendingRun = runId;
    m_pendingStep = checkpoint.step;
}
