#include "designeractions.h"

#include "newtaskdialog.h"
#include "rewarddesigner.h"
#include "samplescoremodel.h"
#include "taskpresenter.h"

#include "task/catalog.h"

#include <QJsonValue>
#include <QJsonObject>
#include <QJsonDocument>
#include <QFile>
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>

namespace {

// Whether a reward config file's "task" is a user's task description (an object, or a
// .json file) rather than a task's name.
bool describesUserTask(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QJsonValue task = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("task"));
    return task.isObject() || (task.isString() && task.toString().endsWith(QLatin1String(".json")));
}

// The bundled sample sets: the default task's, opened on a first start, and legal QA's.
const char *const kBundledSamples = ":/samples/company_samples.jsonl";
const char *const kBundledLegalSamples = ":/samples/legal_qa_samples.jsonl";

// The catalog's default task: the bundled samples' task.
std::string_view defaultTask()
{
    return rwb::task::Catalog::builtin().find("")->name();
}

// The preset the Designer falls back to for the samples' task: the task's own (its
// presenter's), else the default task's.
QString defaultPresetFor(std::string_view task)
{
    const QString own = rwb::widgets::TaskPresenter::forTask(task).defaultPreset();
    return own.isEmpty() ? rwb::widgets::TaskPresenter::forTask(defaultTask()).defaultPreset() : own;
}

} // namespace

DesignerActions::DesignerActions(QWidget *window, RewardDesigner *designer, std::function<QString()> workspaceDir)
    : QObject(window)
    , m_window(window)
    , m_designer(designer)
    , m_workspaceDir(std::move(workspaceDir))
    , m_openSamples(new QAction(this))
    , m_openBundled(new QAction(this))
    , m_openBundledLegal(new QAction(this))
    , m_newTask(new QAction(this))
    , m_loadConfig(new QAction(this))
    , m_saveConfig(new QAction(this))
    , m_samplesStatus(new QLabel(window))
{
    m_openSamples->setShortcut(QKeySequence::Open);
    connect(m_openSamples, &QAction::triggered, m_designer, &RewardDesigner::openSamplesDialog);
    connect(m_openBundled, &QAction::triggered, this, &DesignerActions::openBundledSamples);
    connect(m_openBundledLegal, &QAction::triggered, this, [this] {
        QString error;
        if (!m_designer->loadSamples(QString::fromLatin1(kBundledLegalSamples), &error) ||
            !m_designer->loadConfig(defaultPresetFor(m_designer->model()->task().name()), &error))
            Q_EMIT notice(tr("Open samples"), error);
        m_designer->selectRow(0);
    });
    connect(m_newTask, &QAction::triggered, this, [this] { openNewTaskDialog(); });
    m_loadConfig->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_loadConfig, &QAction::triggered, m_designer, &RewardDesigner::openConfigDialog);
    m_saveConfig->setShortcut(QKeySequence::Save);
    connect(m_saveConfig, &QAction::triggered, m_designer, &RewardDesigner::saveConfigDialog);
    connect(m_designer, &RewardDesigner::samplesLoaded, this, &DesignerActions::updateSamplesStatus);
    retranslate();
}

QList<QAction *> DesignerActions::sampleActions() const
{
    return {m_openSamples, m_openBundled, m_openBundledLegal};
}

QList<QAction *> DesignerActions::configActions() const
{
    return {m_newTask, m_loadConfig, m_saveConfig};
}

void DesignerActions::retranslate()
{
    m_openSamples->setText(tr("&Open samples…"));
    m_openBundled->setText(tr("Open the &bundled samples"));
    m_openBundledLegal->setText(tr("Open the bundled &legal-QA samples"));
    m_newTask->setText(tr("New tas&k from data…"));
    m_newTask->setStatusTip(tr("Make your own task from your JSONL records: a task description and a starter reward config, no code"));
    m_loadConfig->setText(tr("&Load reward config…"));
    m_saveConfig->setText(tr("&Save reward config as…"));
    updateSamplesStatus();
}

void DesignerActions::updateSamplesStatus()
{
    const QString path = m_designer->model() ? m_designer->samplesPath() : QString();
    if (path.isEmpty()) {
        m_samplesStatus->clear();
        return;
    }
    const QString name = path.startsWith(QLatin1String(":/")) ? tr("bundled samples") : QFileInfo(path).fileName();
    m_samplesStatus->setText(tr("%1 · %n sample(s)", nullptr, m_designer->model()->rowCount(QModelIndex())).arg(name));
}

void DesignerActions::openInitialFiles(const QString &samples, const QString &config)
{
    QSettings s;
    QString samplesPath = samples.isEmpty() ? s.value(QStringLiteral("samples")).toString() : samples;
    QString configPath = config.isEmpty() ? s.value(QStringLiteral("config")).toString() : config;
    QString error;
    QStringList problems;
    if (!configPath.isEmpty() && describesUserTask(configPath)) {
        // A user's task comes with its config: the config first (it switches the Designer
        // to the task), then the samples, the user's records, which name no task.
        if (!m_designer->loadConfig(configPath, &error)) {
            Q_EMIT notice(tr("Load reward config"), error + QLatin1Char('\n') + tr("The paper's best preset is used instead."));
            configPath.clear();
        } else {
            if (!samplesPath.isEmpty() && !m_designer->loadSamples(samplesPath, &error, &problems))
                Q_EMIT notice(tr("Open samples"), error);
            else if (!problems.isEmpty())
                Q_EMIT statusMessage(tr("%n malformed line(s) skipped: %1", nullptr, static_cast<int>(problems.size()))
                                         .arg(problems.first()));
            m_designer->selectRow(0);
            return;
        }
    }
    if (samplesPath.isEmpty() || !m_designer->loadSamples(samplesPath, &error, &problems)) {
        if (!samplesPath.isEmpty())
            Q_EMIT notice(tr("Open samples"), error + QLatin1Char('\n') + tr("The bundled samples are shown instead."));
        m_designer->loadSamples(QString::fromLatin1(kBundledSamples), &error);
    } else if (!problems.isEmpty()) {
        Q_EMIT statusMessage(tr("%n malformed line(s) skipped: %1", nullptr, static_cast<int>(problems.size()))
                                 .arg(problems.first()));
    }
    if (configPath.isEmpty() || !m_designer->loadConfig(configPath, &error)) {
        if (!configPath.isEmpty())
            Q_EMIT notice(tr("Load reward config"), error + QLatin1Char('\n') + tr("The paper's best preset is used instead."));
        m_designer->loadConfig(defaultPresetFor(m_designer->model()->task().name()), &error);
    } else if (config.isEmpty()) {
        // The last session's config: with the weights edited then and not saved.
        m_designer->restoreEdits(s.value(QStringLiteral("configEdits")).toMap());
    }
    m_designer->selectRow(0);
}

void DesignerActions::openBundledSamples()
{
    QString error;
    const bool otherTask = &m_designer->model()->task() != rwb::task::Catalog::builtin().find("");
    if (!m_designer->loadSamples(QString::fromLatin1(kBundledSamples), &error) ||
        (otherTask && !m_designer->loadConfig(defaultPresetFor(defaultTask()), &error)))
        Q_EMIT notice(tr("Open samples"), error);
}

NewTaskDialog *DesignerActions::openNewTaskDialog(const QString &dataPath)
{
    auto *dialog = new NewTaskDialog(m_workspaceDir ? m_workspaceDir() : QString(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &NewTaskDialog::created, this, &DesignerActions::onTaskCreated);
    if (!dataPath.isEmpty()) {
        dialog->setDataFile(dataPath);
        dialog->nameEdit()->setFocus(); // the data chosen, the name comes next
    }
    dialog->open();
    return dialog;
}

void DesignerActions::onTaskCreated(const QString &taskPath, const QString &rewardConfigPath)
{
    QString error;
    const QString written = tr("Wrote %1 and %2 in %3")
                                .arg(QFileInfo(taskPath).fileName(), QFileInfo(rewardConfigPath).fileName(),
                                     QDir::toNativeSeparators(QFileInfo(taskPath).absolutePath()));
    if (!m_designer->loadConfig(rewardConfigPath, &error)) {
        Q_EMIT notice(tr("New task from data"), written + QLatin1Char('\n') + error);
        return;
    }
    m_designer->selectRow(0);
    Q_EMIT statusMessage(tr("%1; the Designer shows the task's components. Open samples of it (its records with a "
                            "\"completion\") to score them.")
                             .arg(written));
}
