#include "rewarddesigner.h"

#include "componentweightseditor.h"
#include "judgescorer.h"
#include "judgesettingswidget.h"
#include "judgesetup.h"
#include "rubriceditor.h"
#include "rubricmodel.h"
#include "tasks/extraction/extractionrecord.h"
#include "data/jsonl.h"
#include "judge/judgeconfig.h"
#include "judge/rubric.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "reward/synonymtable.h"
#include "sampledetailview.h"
#include "samplefilterproxy.h"
#include "samplescoremodel.h"
#include "task/catalog.h"
#include "tasks/user/usertask.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

// Reads a file or a Qt resource as UTF-8 bytes; false with a message when it cannot.
bool readAll(const QString &path, std::string &out, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = RewardDesigner::tr("%1: cannot open: %2").arg(path, f.errorString());
        return false;
    }
    const QByteArray bytes = f.readAll();
    out.assign(bytes.constData(), static_cast<size_t>(bytes.size()));
    return true;
}

// The keys of a judge object that change neither a request nor the judge's identity:
// changing only these keeps the verdicts already in the table.
const char *const kKeysThatAskNothing[] = {"concurrency", "cache", "cache_expiry_days", "timeout", "deadline",
                                           "retries", "backoff", "backoff_max", "breaker_threshold",
                                           "breaker_cooldown", "price", "api_key_env", "ca_cert",
                                           "token_limit_field"}; // the same limit, under another name

QJsonObject askingPart(const QString &json)
{
    QJsonObject j = QJsonDocument::fromJson(json.toUtf8()).object();
    for (const char *k : kKeysThatAskNothing)
        j.remove(QLatin1String(k));
    return j;
}

// "http://127.0.0.1:8000/v1 · judge-0.5b": where a judge object points.
QString judgeLabel(const QString &json)
{
    const QJsonObject j = QJsonDocument::fromJson(json.toUtf8()).object();
    const QString where = j.value(QStringLiteral("backend")).toString() == QLatin1String("local")
                              ? j.value(QStringLiteral("folder")).toString()
                              : j.value(QStringLiteral("url")).toString();
    const QString model = j.value(QStringLiteral("model")).toString();
    return model.isEmpty() ? where : where + QStringLiteral(" · ") + model;
}

// The components panel's minimum width at most (pixels): it scrolls sideways below its content's.
constexpr int kComponentsMaxMinimumWidth = 320;

bool sameRubric(const rwb::judge::Rubric &a, const rwb::judge::Rubric &b)
{
    return rwb::judge::toHealthBench(a) == rwb::judge::toHealthBench(b);
}

} // namespace

RewardDesigner::RewardDesigner(QObject *parent) : QObject(parent)
{
    m_model = new SampleScoreModel(this);
    m_proxy = new SampleFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    buildComponentsPanel();
    buildSamplesPanel();
    m_detail = new SampleDetailView;
    m_detail->setObjectName(QStringLiteral("sampleDetailPanel"));
    m_detailPanel = m_detail;
    m_componentsPanel->installEventFilter(this);
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(100);
    connect(m_refreshTimer, &QTimer::timeout, this, &RewardDesigner::showCurrent);
    // A judge batch that touches the sample shown refreshes its detail and the rubric's verdicts.
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &from, const QModelIndex &to) {
        const int row = currentRow();
        if (row >= from.row() && row <= to.row() && to.column() >= SampleScoreModel::FirstComponentColumn)
            m_refreshTimer->start();
    });
    connect(m_model, &SampleScoreModel::judgingStarted, this, &RewardDesigner::onJudgingStarted);
    connect(m_model, &SampleScoreModel::judgingProgress, this, &RewardDesigner::onJudgingProgress);
    connect(m_model, &SampleScoreModel::judgingFinished, this, &RewardDesigner::onJudgingFinished);
    connect(m_model, &SampleScoreModel::judgeCallsLogged, this, &RewardDesigner::judgeCallsLogged);
    m_logDir = std::make_unique<QTemporaryDir>();
    if (m_logDir->isValid())
        m_model->setJudgeLog(m_logDir->filePath(QStringLiteral("designer-judge.sqlite")));
    retranslate();
    updateCount();
    updateJudgeUi();
}

RewardDesigner::~RewardDesigner()
{
    for (const QPointer<QWidget> &p : {m_componentsPanel, m_samplesPanel, m_detailPanel, m_rubricPanel})
        if (p && !p->parent())
            delete p.data();
}

void RewardDesigner::buildComponentsPanel()
{
    auto *panel = new QWidget;
    panel->setObjectName(QStringLiteral("rewardComponents"));
    auto *layout = new QVBoxLayout(panel);

    m_presetLabel = new QLabel(panel);
    m_presets = new QComboBox(panel);
    m_presets->setObjectName(QStringLiteral("presets"));
    m_presetLabel->setBuddy(m_presets);
    for (const auto &[name, path] : bundledPresets(QString::fromStdString(std::string(m_model->task().name()))))
        m_presets->addItem(name, path);
    connect(m_presets, &QComboBox::activated, this, &RewardDesigner::onPresetChosen);

    auto *buttons = new QHBoxLayout;
    m_loadButton = new QPushButton(panel);
    m_saveButton = new QPushButton(panel);
    connect(m_loadButton, &QPushButton::clicked, this, &RewardDesigner::openConfigDialog);
    connect(m_saveButton, &QPushButton::clicked, this, &RewardDesigner::saveConfigDialog);
    buttons->addWidget(m_loadButton);
    buttons->addWidget(m_saveButton);

    m_configLabel = new QLabel(panel);
    m_configLabel->setWordWrap(true);
    m_configLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_thinking = new QCheckBox(panel);
    m_thinking->setObjectName(QStringLiteral("thinking"));
    connect(m_thinking, &QCheckBox::toggled, this, &RewardDesigner::onThinkingToggled);
    m_thinkingHint = new QLabel(panel);
    m_thinkingHint->setWordWrap(true);
    m_thinkingHint->setTextFormat(Qt::PlainText);
    m_thinkingHint->setForegroundRole(QPalette::PlaceholderText);

    m_weights = new ComponentWeightsEditor(m_model->componentNames(), panel);
    connect(m_weights, &ComponentWeightsEditor::weightsChanged, this, &RewardDesigner::onWeightsChanged);

    layout->addWidget(m_presetLabel);
    layout->addWidget(m_presets);
    layout->addLayout(buttons);
    layout->addWidget(m_configLabel);
    layout->addSpacing(6);
    layout->addWidget(m_thinking);
    layout->addWidget(m_thinkingHint);
    layout->addSpacing(6);
    layout->addWidget(m_weights);

    // The judge of the judge rewards (a task that has some).
    m_judgeBox = new QGroupBox(panel);
    m_judgeBox->setObjectName(QStringLiteral("judgeBox"));
    auto *judgeLayout = new QVBoxLayout(m_judgeBox);
    m_judgeHint = new QLabel(m_judgeBox);
    m_judgeHint->setWordWrap(true);
    m_judgeHint->setTextFormat(Qt::PlainText);
    m_judgeHint->setForegroundRole(QPalette::PlaceholderText);
    m_judgeSettings = new rwb::widgets::JudgeSettingsWidget(m_judgeBox);
    m_judgeSettings->setObjectName(QStringLiteral("designerJudge"));
    m_useJudge = new QPushButton(m_judgeBox);
    m_useJudge->setObjectName(QStringLiteral("useJudge"));
    connect(m_useJudge, &QPushButton::clicked, this, [this] {
        QString error;
        if (!useJudgeSettings(&error))
            QMessageBox::warning(m_componentsPanel, tr("Judge"), error);
    });
    connect(m_judgeSettings, &rwb::widgets::JudgeSettingsWidget::edited, this, &RewardDesigner::updateJudgeUi);
    judgeLayout->addWidget(m_judgeHint);
    judgeLayout->addWidget(m_judgeSettings);
    judgeLayout->addWidget(m_useJudge, 0, Qt::AlignLeft);
    layout->addSpacing(6);
    layout->addWidget(m_judgeBox);

    // Shown while a training run is in progress: its weights, and whether ours differ.
    m_runBar = new QFrame(panel);
    m_runBar->setObjectName(QStringLiteral("runBar"));
    static_cast<QFrame *>(m_runBar)->setFrameShape(QFrame::StyledPanel);
    auto *runLayout = new QVBoxLayout(m_runBar);
    m_runLabel = new QLabel(m_runBar);
    m_runLabel->setWordWrap(true);
    m_runLabel->setTextFormat(Qt::PlainText);
    auto *runButtons = new QHBoxLayout;
    m_applyToRun = new QPushButton(m_runBar);
    m_applyToRun->setObjectName(QStringLiteral("applyToRun"));
    m_revertToRun = new QPushButton(m_runBar);
    m_revertToRun->setObjectName(QStringLiteral("revertToRun"));
    connect(m_applyToRun, &QPushButton::clicked, this, &RewardDesigner::requestApplyToRun);
    connect(m_revertToRun, &QPushButton::clicked, this, &RewardDesigner::revertToRun);
    runButtons->addWidget(m_applyToRun);
    runButtons->addWidget(m_revertToRun);
    runLayout->addWidget(m_runLabel);
    runLayout->addLayout(runButtons);
    m_runBar->hide();
    layout->addSpacing(6);
    layout->addWidget(m_runBar);
    layout->addStretch(1);
    // The panel scrolls in a short dock: a task with judge rewards has ten weight rows and
    // the judge's settings.
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("rewardComponentsPanel"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setWidget(panel);
    m_componentsInner = panel;
    m_componentsPanel = scroll;
    fitComponentsWidth();
}

void RewardDesigner::fitComponentsWidth()
{
    // As wide as the panel needs, up to a third of a laptop's screen: a task with the
    // judge's settings scrolls sideways in a narrower dock rather than widen the window.
    auto *scroll = qobject_cast<QScrollArea *>(m_componentsPanel.data());
    if (scroll && m_componentsInner)
        scroll->setMinimumWidth(std::min(kComponentsMaxMinimumWidth,
                                         m_componentsInner->minimumSizeHint().width() +
                                             scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth()));
}


void RewardDesigner::showComponentColumn(const QString &component)
{
    const int c = static_cast<int>(m_model->componentNames().indexOf(component));
    if (c < 0 || m_proxy->rowCount() == 0)
        return;
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    m_table->scrollTo(m_proxy->index(current.isValid() ? current.row() : 0, m_model->componentColumn(c)),
                      QAbstractItemView::PositionAtCenter);
}

void RewardDesigner::buildSamplesPanel()
{
    auto *panel = new QWidget;
    panel->setObjectName(QStringLiteral("samplesPanel"));
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *bar = new QHBoxLayout;
    m_search = new QLineEdit(panel);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setClearButtonEnabled(true);
    m_conditionColumn = new QComboBox(panel);
    m_conditionColumn->setObjectName(QStringLiteral("conditionColumn"));
    // Ten components' names and a translated "no filter": as wide as a short one, the
    // list opens wide enough.
    m_conditionColumn->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_conditionColumn->setMinimumContentsLength(12);
    m_comparison = new QComboBox(panel);
    m_comparison->setObjectName(QStringLiteral("comparison"));
    m_comparison->addItems({QStringLiteral("<"), QStringLiteral("≤"), QStringLiteral(">"), QStringLiteral("≥")});
    m_threshold = new QDoubleSpinBox(panel);
    m_threshold->setObjectName(QStringLiteral("threshold"));
    m_threshold->setRange(0.0, 1.0);
    m_threshold->setSingleStep(0.05);
    m_threshold->setDecimals(3);
    m_threshold->setValue(0.5);
    m_count = new QLabel(panel);
    m_search->setMinimumWidth(120);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_conditionColumn);
    bar->addWidget(m_comparison);
    bar->addWidget(m_threshold);
    bar->addWidget(m_count);
    connect(m_search, &QLineEdit::textChanged, this, &RewardDesigner::updateFilter);
    connect(m_conditionColumn, &QComboBox::currentIndexChanged, this, &RewardDesigner::updateFilter);
    connect(m_comparison, &QComboBox::currentIndexChanged, this, &RewardDesigner::updateFilter);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &RewardDesigner::updateFilter);

    m_table = new QTableView(panel);
    m_table->setObjectName(QStringLiteral("sampleTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(false);
    m_table->verticalHeader()->setVisible(false);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setWordWrap(false);
    m_table->sortByColumn(SampleScoreModel::IdColumn, Qt::AscendingOrder);
    fitColumns();
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RewardDesigner::showCurrent);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &RewardDesigner::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &RewardDesigner::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &RewardDesigner::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &RewardDesigner::updateCount);

    // The judge's progress: judge columns fill in batch by batch while the rest stays live.
    m_judgeBar = new QWidget(panel);
    m_judgeBar->setObjectName(QStringLiteral("judgeBar"));
    auto *judgeBar = new QHBoxLayout(m_judgeBar);
    judgeBar->setContentsMargins(0, 0, 0, 0);
    m_judgeStatus = new QLabel(m_judgeBar);
    m_judgeStatus->setObjectName(QStringLiteral("judgeStatus"));
    m_judgeStatus->setTextFormat(Qt::PlainText);
    m_judgeStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_judgeStatus->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_judgeProgress = new QProgressBar(m_judgeBar);
    m_judgeProgress->setObjectName(QStringLiteral("judgeProgress"));
    m_judgeProgress->setMaximumWidth(160);
    m_judgeProgress->setTextVisible(false);
    m_cancelJudge = new QPushButton(m_judgeBar);
    m_cancelJudge->setObjectName(QStringLiteral("cancelJudge"));
    m_rescoreJudge = new QPushButton(m_judgeBar);
    m_rescoreJudge->setObjectName(QStringLiteral("rescoreJudge"));
    m_judgeCalls = new QPushButton(m_judgeBar);
    m_judgeCalls->setObjectName(QStringLiteral("judgeCalls"));
    judgeBar->addWidget(m_judgeStatus, 1);
    judgeBar->addWidget(m_judgeProgress);
    judgeBar->addWidget(m_cancelJudge);
    judgeBar->addWidget(m_rescoreJudge);
    judgeBar->addWidget(m_judgeCalls);
    connect(m_cancelJudge, &QPushButton::clicked, m_model, &SampleScoreModel::cancelJudging);
    connect(m_rescoreJudge, &QPushButton::clicked, m_model, &SampleScoreModel::rescoreJudges);
    connect(m_judgeCalls, &QPushButton::clicked, this, [this] {
        if (m_model->judgeLogRun() > 0)
            Q_EMIT judgeCallsRequested(m_model->judgeLogPath(), m_model->judgeLogRun());
    });

    // The rubric editor: a panel of its own (a task with judge rewards), placed under the
    // samples and the detail, as wide as both: criteria are sentences.
    m_rubric = new rwb::widgets::RubricEditor;
    m_rubric->setObjectName(QStringLiteral("rubricEditor"));
    m_rubricPanel = m_rubric;
    connect(m_rubric, &rwb::widgets::RubricEditor::sampleRubricRequested, this, &RewardDesigner::editSelectedRubric);
    connect(m_rubric, &rwb::widgets::RubricEditor::applyRequested, this,
            [this](const rwb::judge::Rubric &rubric, rwb::widgets::RubricEditor::Scope scope) {
                applyRubric(rubric, static_cast<int>(scope));
            });
    layout->addLayout(bar);
    layout->addWidget(m_judgeBar);
    layout->addWidget(m_table, 1);
    m_samplesPanel = panel;
}

QVector<QPair<QString, QString>> RewardDesigner::bundledPresets(const QString &task)
{
    QVector<QPair<QString, QString>> out;
    const QDir dir(QStringLiteral(":/presets"));
    for (const QString &file : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(file);
        std::string text;
        if (!readAll(path, text, nullptr))
            continue;
        try {
            const auto c = rwb::reward::parseRewardConfig(text, path.toStdString(), rwb::task::Catalog::builtin().rewards());
            if (!task.isEmpty() && QString::fromStdString(c.task) != task)
                continue;
            out.push_back({QString::fromStdString(c.name.empty() ? file.toStdString() : c.name), path});
        } catch (const std::exception &) {
            // A bundled preset that does not parse is a build error caught by the tests.
        }
    }
    return out;
}

bool RewardDesigner::loadSamples(const QString &path, QString *error, QStringList *problems)
{
    std::string text;
    if (!readAll(path, text, error))
        return false;
    // The samples' task: the "task" of the first line that has one (extraction without).
    const rwb::task::Catalog &catalog = rwb::task::Catalog::builtin();
    const std::string taskName = rwb::task::taskOfJsonl(text);
    // A user's records name no task: they are of the user's task in force (its config
    // opened first), when one is.
    // (A user's record may have a "task" column of its own, "math": one no catalog knows.)
    const bool userTaskInForce = dynamic_cast<const rwb::task::UserTask *>(&m_model->task()) != nullptr;
    const rwb::task::Task *task =
        userTaskInForce && (taskName.empty() || !catalog.find(taskName)) ? &m_model->task() : catalog.find(taskName);
    if (!task) {
        if (error)
            *error = tr("%1: the samples are of the task \"%2\", which this build does not have").arg(path, QString::fromStdString(taskName));
        return false;
    }
    // Resources (":/…") are read through a temporary copy: tasks read files.
    QTemporaryFile copy;
    std::string file = path.toStdString();
    if (path.startsWith(QLatin1String(":/"))) {
        if (!copy.open() || copy.write(text.data(), static_cast<qint64>(text.size())) < 0 || !copy.flush()) {
            if (error)
                *error = tr("%1: cannot copy to a temporary file").arg(path);
            return false;
        }
        file = copy.fileName().toStdString();
    }
    std::vector<rwb::data::InputError> skipped;
    std::vector<rwb::task::Record> records;
    try {
        rwb::task::ReadOptions options;
        options.requireCompletion = true;
        options.skipped = &skipped;
        records = task->read(file, options);
    } catch (const std::exception &e) {
        if (error)
            *error = skipped.empty() ? QString::fromStdString(e.what()).replace(QString::fromStdString(file), path)
                                     : tr("%1: no valid sample line (%n malformed line(s))", nullptr, static_cast<int>(skipped.size())).arg(path);
        if (problems) {
            problems->clear();
            for (const auto &p : skipped)
                *problems << QString::fromStdString(p.toString()).replace(QString::fromStdString(file), path);
        }
        return false;
    }
    if (problems) {
        problems->clear();
        for (const auto &p : skipped)
            *problems << QString::fromStdString(p.toString()).replace(QString::fromStdString(file), path);
    }
    const int count = static_cast<int>(records.size());
    const bool taskChanged = task != &m_model->task();
    m_model->setSamples(*task, std::move(records));
    if (taskChanged)
        rebuildForTask();
    updateJudgeColumns();
    m_samplesPath = path;
    m_detail->clear();
    fitColumns();
    updateCount();
    Q_EMIT samplesLoaded(path, count);
    return true;
}

void RewardDesigner::rebuildWeightsEditor()
{
    // A new weights editor, for the model's components, in the old one's place.
    auto *old = m_weights;
    m_weights = new ComponentWeightsEditor(m_model->componentNames(), m_componentsInner);
    connect(m_weights, &ComponentWeightsEditor::weightsChanged, this, &RewardDesigner::onWeightsChanged);
    if (old) {
        delete m_componentsInner->layout()->replaceWidget(old, m_weights);
        old->disconnect(this);
        old->hide();
        old->deleteLater();
    }
    fitColumns();
    fitComponentsWidth();
}

void RewardDesigner::fitColumns()
{
    // The scores and the total as wide as their headers; the answer and the gold share
    // what is left, so that every score stays in view in a narrow table (they elide) and
    // a wide one has no empty strip on the right. (A model reset forgets per-section
    // modes: called again whenever the columns change.)
    QHeaderView *h = m_table->horizontalHeader();
    const QFontMetrics fm = m_table->fontMetrics();
    const int minimum = fm.horizontalAdvance(QStringLiteral("株式会社")) + 16;
    h->setMinimumSectionSize(std::min(h->minimumSectionSize(), minimum));
    m_table->setColumnWidth(SampleScoreModel::IdColumn, fm.horizontalAdvance(QStringLiteral("e00-c00")) + 24);
    m_table->setColumnWidth(SampleScoreModel::KindColumn, fm.horizontalAdvance(QStringLiteral("marker_only")) + 16);
    for (int c : {static_cast<int>(SampleScoreModel::AnswerColumn), static_cast<int>(SampleScoreModel::GoldColumn)})
        h->setSectionResizeMode(c, QHeaderView::Stretch);
    for (int c = SampleScoreModel::FirstComponentColumn; c < m_model->columnCount(); ++c) {
        const QString header = m_model->headerData(c, Qt::Horizontal).toString();
        m_table->setColumnWidth(c, std::max(fm.horizontalAdvance(header), fm.horizontalAdvance(QStringLiteral("0.000"))) + 22);
    }
}

void RewardDesigner::rebuildForTask()
{
    m_loaded = {}; // another task's config says nothing of this one
    // A user's task finds its answer with its description's extractor: the thinking
    // switch (the built-in tasks' <answer> parsing) does nothing there.
    const bool userTask = dynamic_cast<const rwb::task::UserTask *>(&m_model->task()) != nullptr;
    m_thinking->setVisible(!userTask);
    m_thinkingHint->setVisible(!userTask);
    // The components are the task's.
    rebuildWeightsEditor();
    // The presets of this task only.
    {
        const QSignalBlocker b(m_presets);
        m_presets->clear();
        for (const auto &[name, path] : bundledPresets(QString::fromStdString(std::string(m_model->task().name()))))
            m_presets->addItem(name, path);
        m_presets->setCurrentIndex(-1);
    }
    m_configName.clear();
    m_configPath.clear();
    m_editedPreset.clear();
    retranslate();
    updateRunBar();
    updateJudgeUi();
    updateJudgeColumns();
    fitComponentsWidth();
}

bool RewardDesigner::loadConfig(const QString &path, QString *error)
{
    std::string text;
    if (!readAll(path, text, error))
        return false;
    rwb::reward::RewardConfig config;
    try {
        config = rwb::reward::parseRewardConfig(text, path.toStdString(), rwb::task::Catalog::builtin().rewards());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    config.baseDir = path.startsWith(QLatin1String(":/")) ? std::string() : QFileInfo(path).absolutePath().toStdString();
    return setConfig(config, path, error);
}

bool RewardDesigner::setConfig(const rwb::reward::RewardConfig &config, const QString &source, QString *error)
{
    try {
        const rwb::task::Task *configTask = rwb::task::Catalog::builtin().find(config.task);
        if (config.task != m_model->task().name() && configTask && !config.taskDescription.empty()) {
            // A user's task (its description came with the config): its samples are the
            // user's own records, opened next (they name no task).
            m_model->setSamples(*configTask, {});
            rebuildForTask();
            m_samplesPath.clear();
            updateCount();
        }
        if (config.task != m_model->task().name()) {
            if (error)
                *error = tr("%1: the config is for the task \"%2\"; the samples are of \"%3\". Open samples of that task first.")
                             .arg(source, QString::fromStdString(config.task), QString::fromStdString(std::string(m_model->task().name())));
            return false;
        }
        if (!config.synonyms.empty())
            m_model->setSynonyms(std::make_shared<const rwb::reward::SynonymTable>(
                rwb::reward::SynonymTable::load(config.resolvedSynonyms())));
        else
            m_model->setSynonyms(nullptr);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // A file (or a bundled preset) is what the Designer reopens next time; a config given
    // as a value (a stored run's) leaves the last file in place.
    if (source.startsWith(QLatin1String(":/")) || QFileInfo(source).isFile())
        m_configPath = source;
    // What the Designer does not edit (description, synonyms, embedding) goes on with the config.
    m_loaded = config;
    // The columns: the task's own rewards, then what else the config lists (generic
    // components, a component under a name of its own), each with the config's options.
    {
        std::vector<SampleScoreModel::Component> columns = SampleScoreModel::taskComponents(m_model->task());
        // Their files (a Python function's, a schema) absolute: the model has no folder.
        const rwb::reward::RewardConfig absolute = rwb::reward::withAbsolutePaths(config);
        for (const auto &c : absolute.components) {
            const QString label = QString::fromStdString(c.label());
            const auto same = std::find_if(columns.begin(), columns.end(), [&](const auto &x) { return x.label == label; });
            if (same == columns.end())
                columns.push_back({label, c.reward, c.options});
            else
                same->options = c.options;
        }
        bool changed = static_cast<int>(columns.size()) != m_model->componentNames().size();
        for (size_t i = 0; !changed && i < columns.size(); ++i)
            changed = columns[i].label != m_model->componentNames()[static_cast<int>(i)] ||
                      columns[i].reward != m_model->componentReward(static_cast<int>(i));
        if (changed) {
            m_model->setComponents(columns);
            rebuildWeightsEditor();
        } else {
            for (size_t i = 0; i < columns.size(); ++i)
                m_model->setComponentOptions(static_cast<int>(i), QString::fromStdString(columns[i].options));
        }
    }
    m_judgeSettings->setBaseDir(QString::fromStdString(config.baseDir));
    m_judgeSettings->setJudgeJson(QString::fromStdString(config.judge));
    setJudge(m_judgeSettings->judgeJson(), QString::fromStdString(config.baseDir), /*rescore=*/false);
    m_editedPreset.clear();
    applyConfig(config);
    // The bundled preset this is (by path, or by name for a copy of one on disk); none
    // (an empty choice) for any other config, rather than a preset that is not in force.
    int preset = m_presets->findData(source);
    if (preset < 0 && !config.name.empty())
        preset = m_presets->findText(QString::fromStdString(config.name));
    m_presets->setCurrentIndex(preset);
    updateEdited();
    Q_EMIT configLoaded(source);
    return true;
}

void RewardDesigner::applyConfig(const rwb::reward::RewardConfig &config)
{
    QVector<double> w(m_model->componentNames().size(), 0.0);
    for (const auto &c : config.components) {
        const int i = m_model->componentNames().indexOf(QString::fromStdString(c.label()));
        if (i >= 0)
            w[i] = c.weight;
    }
    m_configName = QString::fromStdString(config.name);
    {
        const QSignalBlocker b(m_thinking);
        m_thinking->setChecked(config.thinking);
    }
    m_model->setThinking(config.thinking);
    m_weights->setWeights(w);
    m_model->setWeights(w);
    updateJudgeColumns();
    retranslate();
    showCurrent();
}

rwb::reward::RewardConfig RewardDesigner::currentConfig() const
{
    rwb::reward::RewardConfig c;
    c.description = m_loaded.description;
    c.synonyms = m_loaded.synonyms;
    c.embedding = m_loaded.embedding;
    c.embeddingCorpus = m_loaded.embeddingCorpus;
    c.embeddingOptions = m_loaded.embeddingOptions;
    c.baseDir = m_loaded.baseDir;
    c.name = m_configName.toStdString();
    c.task = std::string(m_model->task().name());
    c.thinking = m_model->thinking();
    const QVector<double> w = m_weights->weights();
    if (!m_loaded.taskDescription.empty() && m_loaded.task == c.task)
        c.taskDescription = m_loaded.taskDescription; // a user's task goes on with its config
    for (int i = 0; i < w.size(); ++i)
        if (w[i] > 0.0) {
            const std::string label = m_model->componentNames()[i].toStdString();
            const std::string &reward = m_model->componentReward(i);
            c.components.push_back({reward, w[i], m_model->componentOptions(i).toStdString(),
                                    label == reward ? std::string() : label});
        }
    // The judge in force, its paths absolute: the config may be saved in another folder.
    if (!m_judgeJson.isEmpty())
        c.judge = rwb::judge::judgeWithAbsolutePaths(m_judgeJson.toStdString(), m_judgeBaseDir.toStdString());
    return c;
}

bool RewardDesigner::saveConfig(const QString &path, QString *error) const
{
    // Its paths absolute: it may be saved in another folder than the one it came from.
    rwb::reward::RewardConfig c = rwb::reward::withAbsolutePaths(currentConfig());
    if (c.name.empty())
        c.name = QFileInfo(path).completeBaseName().toStdString();
    try {
        rwb::reward::validateRewardConfig(c, path.toStdString(), rwb::task::Catalog::builtin().rewards());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    QSaveFile f(path);
    const std::string json = rwb::reward::toJson(c);
    if (!f.open(QIODevice::WriteOnly) || f.write(json.data(), static_cast<qint64>(json.size())) < 0 || !f.commit()) {
        if (error)
            *error = tr("%1: cannot write: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

void RewardDesigner::openSamplesDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_samplesPanel, tr("Open samples"), QString(),
                                                      tr("Samples (*.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    QStringList problems;
    if (!loadSamples(path, &error, &problems)) {
        QMessageBox::warning(m_samplesPanel, tr("Open samples"), error);
        return;
    }
    if (!problems.isEmpty()) {
        QMessageBox box(QMessageBox::Warning, tr("Open samples"),
                        tr("%n malformed line(s) were skipped; the other lines are loaded. The file was not changed.",
                           nullptr, static_cast<int>(problems.size())),
                        QMessageBox::Ok, m_samplesPanel);
        box.setDetailedText(problems.join(QLatin1Char('\n')));
        box.exec();
    }
}

void RewardDesigner::openConfigDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_componentsPanel, tr("Load reward config"), QString(),
                                                      tr("Reward configs (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!loadConfig(path, &error))
        QMessageBox::warning(m_componentsPanel, tr("Load reward config"), error);
}

void RewardDesigner::saveConfigDialog()
{
    const QString path = QFileDialog::getSaveFileName(m_componentsPanel, tr("Save reward config"), QString(),
                                                      tr("Reward configs (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveConfig(path, &error))
        QMessageBox::warning(m_componentsPanel, tr("Save reward config"), error);
    else
        Q_EMIT statusMessage(tr("Saved %1").arg(path));
}

void RewardDesigner::updateJudgeColumns()
{
    // A judge component of weight 0 is not sent to the judge: its column would be all "—".
    for (int c = 0; c < m_model->componentNames().size(); ++c)
        m_table->setColumnHidden(m_model->componentColumn(c),
                                 m_model->isJudgeComponent(c) && !(m_model->weights().value(c) > 0.0));
}

void RewardDesigner::onWeightsChanged(const QVector<double> &weights)
{
    m_model->setWeights(weights);
    updateJudgeColumns();
    showCurrent();
    updateRunBar();
    updateEdited();
}

bool RewardDesigner::isEdited() const
{
    if (m_model->thinking() != m_loaded.thinking)
        return true;
    const QVector<double> w = m_weights->weights();
    for (int i = 0; i < w.size(); ++i) {
        double loaded = 0.0;
        for (const auto &c : m_loaded.components)
            if (c.label() == m_model->componentNames()[i].toStdString())
                loaded = c.weight;
        if (std::abs(loaded - w[i]) > 1e-9)
            return true;
    }
    return false;
}

QVariantMap RewardDesigner::edits() const
{
    QVariantMap out;
    if (!isEdited())
        return out;
    QVariantMap weights;
    const QVector<double> w = m_weights->weights();
    for (int i = 0; i < w.size(); ++i)
        weights.insert(m_model->componentNames()[i], w[i]);
    out.insert(QStringLiteral("task"), QString::fromStdString(std::string(m_model->task().name())));
    out.insert(QStringLiteral("weights"), weights);
    out.insert(QStringLiteral("thinking"), m_model->thinking());
    return out;
}

void RewardDesigner::restoreEdits(const QVariantMap &edits)
{
    if (edits.isEmpty() || edits.value(QStringLiteral("task")).toString() !=
                               QString::fromStdString(std::string(m_model->task().name())))
        return;
    const QVariantMap weights = edits.value(QStringLiteral("weights")).toMap();
    QVector<double> w = m_weights->weights();
    for (int i = 0; i < w.size(); ++i) {
        bool ok = false;
        const double v = weights.value(m_model->componentNames()[i]).toDouble(&ok);
        if (ok && std::isfinite(v) && v >= 0.0)
            w[i] = std::min(v, ComponentWeightsEditor::kMaxWeight);
    }
    const bool thinking = edits.value(QStringLiteral("thinking"), m_model->thinking()).toBool();
    {
        const QSignalBlocker b(m_thinking);
        m_thinking->setChecked(thinking);
    }
    m_model->setThinking(thinking);
    m_weights->setWeights(w);
    onWeightsChanged(w);
}

void RewardDesigner::updateEdited()
{
    if (!m_configLabel)
        return;
    const bool edited = isEdited();
    const QString name = m_configName.isEmpty() ? tr("(unsaved)") : m_configName;
    m_configLabel->setText(edited ? tr("Config: %1 — edited, not saved").arg(name)
                           : m_configName.isEmpty() ? tr("Config: (unsaved)")
                                                    : tr("Config: %1").arg(m_configName));
    // A preset whose weights were edited is no longer that preset: the box says so (its
    // item chosen again loads the preset as it was); edits undone bring it back.
    const QSignalBlocker b(m_presets);
    if (edited && m_presets->currentIndex() >= 0) {
        m_editedPreset = m_presets->currentText();
        m_presets->setCurrentIndex(-1);
    } else if (!edited && !m_editedPreset.isEmpty()) {
        m_presets->setCurrentIndex(m_presets->findText(m_editedPreset));
        m_editedPreset.clear();
    }
    m_presets->setPlaceholderText(edited && !m_editedPreset.isEmpty() ? tr("%1 (edited)").arg(m_editedPreset)
                                                                      : QString());
}

void RewardDesigner::setRunningConfig(const std::optional<rwb::reward::RewardConfig> &config)
{
    m_running = config;
    m_sentToRun.reset(); // applied (the run's weights now), or no run
    updateRunBar();
}

std::optional<QVector<double>> RewardDesigner::weightsForRun(QString *problem) const
{
    if (!m_running) {
        if (problem)
            *problem = tr("No training run is in progress.");
        return std::nullopt;
    }
    if (m_running->thinking != m_model->thinking()) {
        if (problem)
            *problem = m_running->thinking
                           ? tr("The run was started in thinking mode; the mode cannot change during a run.")
                           : tr("The run was started without thinking mode; the mode cannot change during a run.");
        return std::nullopt;
    }
    const QVector<double> w = m_weights->weights();
    QVector<double> out;
    for (const auto &c : m_running->components) {
        const int i = m_model->componentNames().indexOf(QString::fromStdString(c.label()));
        out.push_back(i >= 0 ? w[i] : 0.0);
    }
    for (int i = 0; i < w.size(); ++i) {
        const std::string name = m_model->componentNames()[i].toStdString();
        const bool inRun = std::any_of(m_running->components.begin(), m_running->components.end(),
                                       [&](const auto &c) { return c.label() == name; });
        if (w[i] > 0.0 && !inRun) {
            if (problem)
                *problem = tr("“%1” is not a component of the running config; only the weights of its components "
                              "can change during a run.")
                               .arg(m_model->componentNames()[i]);
            return std::nullopt;
        }
    }
    if (std::all_of(out.begin(), out.end(), [](double v) { return v <= 0.0; })) {
        if (problem)
            *problem = tr("All weights are 0: give at least one component a weight.");
        return std::nullopt;
    }
    return out;
}

bool RewardDesigner::differsFromRun() const
{
    if (!m_running)
        return false;
    if (m_running->thinking != m_model->thinking())
        return true;
    const QVector<double> w = m_weights->weights();
    for (int i = 0; i < w.size(); ++i) {
        double running = 0.0;
        for (const auto &c : m_running->components)
            if (c.label() == m_model->componentNames()[i].toStdString())
                running = c.weight;
        if (std::abs(running - w[i]) > 1e-9)
            return true;
    }
    return false;
}

void RewardDesigner::revertToRun()
{
    if (!m_running)
        return;
    const QString name = m_configName;
    applyConfig(*m_running);
    m_configName = name;
    retranslate();
    updateRunBar();
}

void RewardDesigner::requestApplyToRun()
{
    QString problem;
    const auto w = weightsForRun(&problem);
    if (!w) {
        QMessageBox::warning(m_componentsPanel, tr("Apply to the run"), problem);
        return;
    }
    Q_EMIT applyToRunRequested(*w);
}

void RewardDesigner::setWeightsSentToRun(const QVector<double> &runWeights)
{
    m_sentToRun = runWeights;
    updateRunBar();
}

void RewardDesigner::updateRunBar()
{
    if (!m_runBar)
        return;
    m_runBar->setVisible(m_running.has_value());
    if (!m_running)
        return;
    QStringList parts;
    for (const auto &c : m_running->components)
        parts << QStringLiteral("%1 %2").arg(QString::fromStdString(c.label())).arg(c.weight);
    const bool differs = differsFromRun();
    // Weights sent and not yet applied at a step are not offered again.
    const bool sent = differs && m_sentToRun && weightsForRun() == m_sentToRun;
    m_runLabel->setText(sent      ? tr("The training run uses %1. Your weights were sent to it: they apply from its next step.")
                                        .arg(parts.join(QStringLiteral(" · ")))
                        : differs ? tr("The training run uses %1. Your weights differ: they re-score the samples here "
                                       "and reach the run only when you apply them (from its next step).")
                                        .arg(parts.join(QStringLiteral(" · ")))
                                  : tr("The training run uses these weights (%1).").arg(parts.join(QStringLiteral(" · "))));
    m_applyToRun->setEnabled(differs && !sent);
    m_revertToRun->setEnabled(differs);
}

void RewardDesigner::onThinkingToggled(bool thinking)
{
    m_model->setThinking(thinking);
    showCurrent();
    updateRunBar();
    updateEdited();
}

void RewardDesigner::onPresetChosen(int index)
{
    const QString path = m_presets->itemData(index).toString();
    QString error;
    if (!loadConfig(path, &error))
        QMessageBox::warning(m_componentsPanel, tr("Load reward config"), error);
}

void RewardDesigner::updateFilter()
{
    m_proxy->setText(m_search->text());
    const int column = m_conditionColumn->currentData().toInt();
    m_proxy->setCondition(column, static_cast<SampleFilterProxy::Comparison>(m_comparison->currentIndex()),
                          m_threshold->value());
    const bool on = column >= 0;
    m_comparison->setEnabled(on);
    m_threshold->setEnabled(on);
    updateCount();
}

void RewardDesigner::updateCount()
{
    if (m_count)
        m_count->setText(tr("%1 of %2 samples").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}

void RewardDesigner::selectRow(int proxyRow)
{
    if (proxyRow < 0 || proxyRow >= m_proxy->rowCount())
        return;
    m_table->selectionModel()->setCurrentIndex(m_proxy->index(proxyRow, 0),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    showCurrent();
}

void RewardDesigner::showCurrent()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid()) {
        m_detail->clear();
        return;
    }
    const int row = m_proxy->mapToSource(current).row();
    SampleDetailView::Content c;
    c.task = &m_model->task();
    c.record = m_model->record(row);
    c.completion = c.task->parse(*c.record.example, c.record.completion, m_model->thinking());
    c.explanations = m_model->explain(row);
    c.weights = m_model->weights();
    for (int k = 0; k < m_model->componentNames().size(); ++k)
        c.notes << (m_model->cellState(row, k) == SampleScoreModel::CellState::Value ? QString()
                                                                                      : m_model->cellNote(row, k));
    c.total = m_model->total(row);
    c.thinking = m_model->thinking();
    m_detail->showSample(c);
    followRubric(row);
}

int RewardDesigner::currentRow() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? m_proxy->mapToSource(current).row() : -1;
}

void RewardDesigner::followRubric(int row)
{
    if (!m_model->hasJudgeComponents() || row < 0)
        return;
    const QString id = QString::fromStdString(m_model->record(row).example->id());
    // The editor follows the selection while nothing in it would be lost.
    const bool follow = !m_rubric->model()->isModified() && m_rubric->filePath().isEmpty();
    if (follow && m_rubric->sampleId() != id)
        m_rubric->openSampleRubric(m_model->rubric(row), id, static_cast<int>(m_model->questionRows(row).size()));
    // The judge's verdicts on the items, when the row is judged with the rubric shown.
    const auto rubric = m_model->rubric(row);
    if (rubric && !m_rubric->model()->isModified() && sameRubric(*rubric, m_rubric->model()->rubric()))
        m_rubric->showVerdicts(id, m_model->rubricVerdicts(row));
    else
        m_rubric->showVerdicts(QString(), {});
}

void RewardDesigner::editSelectedRubric()
{
    const int row = currentRow();
    if (row < 0) {
        Q_EMIT statusMessage(tr("Select a sample first."));
        return;
    }
    const QString id = QString::fromStdString(m_model->record(row).example->id());
    if (m_rubric->openSampleRubric(m_model->rubric(row), id, static_cast<int>(m_model->questionRows(row).size())))
        followRubric(row);
}

void RewardDesigner::applyRubric(const rwb::judge::Rubric &rubric, int scope)
{
    std::vector<int> rows;
    if (static_cast<rwb::widgets::RubricEditor::Scope>(scope) == rwb::widgets::RubricEditor::Scope::Question) {
        for (int r = 0; r < m_model->rowCount(); ++r)
            if (QString::fromStdString(m_model->record(r).example->id()) == m_rubric->sampleId()) {
                rows = m_model->questionRows(r);
                break;
            }
    } else {
        for (int r = 0; r < m_model->rowCount(); ++r)
            rows.push_back(r);
    }
    if (rows.empty()) {
        Q_EMIT statusMessage(tr("The rubric's sample is not among the samples any more."));
        return;
    }
    m_model->setRubricOverride(rows, std::make_shared<const rwb::judge::Rubric>(rubric));
    const int explicitColumn = static_cast<int>(m_model->componentNames().indexOf(QStringLiteral("rubric_explicit")));
    const int implicitColumn = static_cast<int>(m_model->componentNames().indexOf(QStringLiteral("rubric_implicit")));
    const auto weighted = [this](int c) { return c >= 0 && m_model->weights().value(c) > 0.0; };
    if (m_judgeJson.isEmpty())
        Q_EMIT statusMessage(tr("The rubric is set for %n sample(s); set up a judge to score them.", nullptr,
                                static_cast<int>(rows.size())));
    else if (!weighted(explicitColumn) && !weighted(implicitColumn))
        Q_EMIT statusMessage(tr("The rubric is set for %n sample(s); give rubric_explicit or rubric_implicit a weight "
                                "to judge them with it.",
                                nullptr, static_cast<int>(rows.size())));
    else
        Q_EMIT statusMessage(tr("Re-scoring %n sample(s) with the edited rubric.", nullptr, static_cast<int>(rows.size())));
}

bool RewardDesigner::setJudge(const QString &json, const QString &baseDir, bool rescore)
{
    const auto object = [](const QString &text) { return QJsonDocument::fromJson(text.toUtf8()).object(); };
    if (!rescore && object(json) == object(m_judgeJson) && baseDir == m_judgeBaseDir &&
        (json.isEmpty() || m_model->judge())) {
        updateJudgeUi(); // the same judge: its client and what it remembers stay
        return false;
    }
    const bool same = !json.isEmpty() && !m_judgeJson.isEmpty() && baseDir == m_judgeBaseDir &&
                      askingPart(json) == askingPart(m_judgeJson);
    const bool changed = object(json) != object(m_judgeJson) || baseDir != m_judgeBaseDir;
    m_judgeJson = json;
    m_judgeBaseDir = baseDir;
    m_model->setJudge(json.isEmpty() ? nullptr
                                     : std::make_shared<const rwb::widgets::JudgeSetup>(
                                           json.toStdString(), baseDir.toStdString(),
                                           m_configPath.isEmpty() ? std::string("judge") : m_configPath.toStdString()),
                      rescore || !same);
    updateJudgeUi();
    return changed;
}

bool RewardDesigner::useJudgeSettings(QString *error)
{
    QString problem;
    if (!m_judgeSettings->isEmpty() && !m_judgeSettings->parse(nullptr, &problem)) {
        if (error)
            *error = problem;
        return false;
    }
    if (setJudge(m_judgeSettings->judgeJson(), m_judgeSettings->baseDir(), /*rescore=*/false))
        Q_EMIT judgeChanged(m_judgeJson);
    return true;
}

void RewardDesigner::setJudgeLogPath(const QString &storePath)
{
    m_model->setJudgeLog(storePath);
}

QString RewardDesigner::judgeStatus() const
{
    return m_judgeStatus ? m_judgeStatus->text() : QString();
}

void RewardDesigner::onJudgingStarted(int cells)
{
    m_judgeState = cells > 0 ? JudgeStatus::Running : JudgeStatus::Idle;
    m_judgeProgress->setRange(0, std::max(1, cells));
    m_judgeProgress->setValue(0);
    m_judgeMessage = tr("Asking the judge: 0 of %1 scores…").arg(cells);
    updateJudgeUi();
}

void RewardDesigner::onJudgingProgress(int done, int total)
{
    m_judgeProgress->setRange(0, std::max(1, total));
    m_judgeProgress->setValue(done);
    m_judgeMessage = tr("Asking the judge: %1 of %2 scores…").arg(done).arg(total);
    updateJudgeUi();
}

void RewardDesigner::onJudgingFinished(bool cancelled, int failures, const QString &message)
{
    m_judgeState = JudgeStatus::Done;
    if (cancelled)
        m_judgeMessage = tr("Cancelled: the scores still missing are left unscored; Re-score asks for them.");
    else if (failures > 0)
        m_judgeMessage = tr("%n score(s) are None: the judge gave no verdict. %1", nullptr, failures).arg(message);
    else if (!message.isEmpty())
        m_judgeMessage = message; // a log store that could not be written
    else
        m_judgeMessage = tr("Judge scores are up to date.");
    updateJudgeUi();
}

void RewardDesigner::updateJudgeUi()
{
    if (!m_judgeBox || !m_judgeBar)
        return;
    const bool judged = m_model->hasJudgeComponents();
    m_judgeBox->setVisible(judged);
    m_judgeBar->setVisible(judged);
    m_rubric->setVisible(judged);
    if (!judged)
        return;
    const bool running = m_model->isJudging();
    m_judgeProgress->setVisible(running);
    m_cancelJudge->setVisible(running);
    m_cancelJudge->setEnabled(running);
    m_rescoreJudge->setEnabled(!running && !m_judgeJson.isEmpty());
    m_judgeCalls->setEnabled(m_model->judgeLogRun() > 0);
    QString status;
    if (m_judgeJson.isEmpty())
        status = tr("No judge set up: the judge rewards are not scored.");
    else if (m_judgeState == JudgeStatus::Idle)
        status = tr("Judge: %1").arg(judgeLabel(m_judgeJson));
    else
        status = m_judgeMessage;
    m_judgeStatus->setText(status);
    m_judgeStatus->setToolTip(status);
    const auto object = [](const QString &json) { return QJsonDocument::fromJson(json.toUtf8()).object(); };
    m_useJudge->setEnabled(object(m_judgeSettings->judgeJson()) != object(m_judgeJson) ||
                           m_judgeSettings->baseDir() != m_judgeBaseDir);
}

bool RewardDesigner::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_componentsPanel && event->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(watched, event);
}

void RewardDesigner::retranslate()
{
    m_presetLabel->setText(tr("&Preset (the paper's configurations):"));
    m_loadButton->setText(tr("Load…"));
    m_loadButton->setToolTip(tr("Load a reward config (JSON)"));
    m_saveButton->setText(tr("Save as…"));
    m_saveButton->setToolTip(tr("Save the weights and the mode as a reward config (JSON)"));
    m_thinking->setText(tr("Thinking mode"));
    m_applyToRun->setText(tr("Apply to the run…"));
    m_applyToRun->setToolTip(tr("Send these weights to the training run; they apply from its next step"));
    m_revertToRun->setText(tr("Revert to the run's"));
    updateRunBar();
    m_thinkingHint->setText(tr("The answer is the text inside the first <answer>…</answer> of the completion."));
    updateEdited();
    m_search->setPlaceholderText(tr("Search id, kind, answer, gold…"));
    m_judgeBox->setTitle(tr("Judge"));
    m_judgeHint->setText(tr("The LLM judge of the judge rewards (coverage, rubric_explicit, …). Only components "
                            "with a weight above 0 are sent to it."));
    m_useJudge->setText(tr("Use this judge"));
    m_useJudge->setToolTip(tr("Score the judge rewards with these settings; verdicts already in stay when no "
                              "request changes"));
    m_cancelJudge->setText(tr("Cancel"));
    m_cancelJudge->setToolTip(tr("Stop asking the judge: calls not sent yet are not sent"));
    m_rescoreJudge->setText(tr("Re-score"));
    m_rescoreJudge->setToolTip(tr("Ask the judge again for every weighted judge score (answers already in come from "
                                  "the cache)"));
    m_judgeCalls->setText(tr("Judge calls"));
    m_judgeCalls->setToolTip(tr("Show the Designer's judge calls in the Judge tab"));
    updateJudgeUi();

    const int selected = m_conditionColumn->currentData().isValid() ? m_conditionColumn->currentData().toInt() : -1;
    {
        const QSignalBlocker b(m_conditionColumn);
        m_conditionColumn->clear();
        m_conditionColumn->addItem(tr("No score filter"), -1);
        for (int i = 0; i < m_model->componentNames().size(); ++i)
            m_conditionColumn->addItem(m_model->componentNames()[i], m_model->componentColumn(i));
        m_conditionColumn->addItem(tr("Total"), m_model->totalColumn());
        m_conditionColumn->setCurrentIndex(std::max(0, m_conditionColumn->findData(selected)));
    }
    m_conditionColumn->setToolTip(tr("Show only samples whose score meets the condition"));
    updateFilter();
}
