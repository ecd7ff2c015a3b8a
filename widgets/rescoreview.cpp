#include "rescoreview.h"

#include "rescoregroupmodel.h"
#include "rescorerunner.h"
#include "rescoretablemodel.h"

#include "store/runstore.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::widgets {

namespace {

// The window's size when opened (it fits a 1280 × 800 screen).
constexpr int kWindowWidth = 1180;
constexpr int kWindowHeight = 720;
// The answer column's widest when sized to its contents (the components come after it).
constexpr int kAnswerWidth = 280;

QString correlation(double v)
{
    return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 3);
}

QTableView *makeTable(QWidget *parent, const QString &name)
{
    auto *t = new QTableView(parent);
    t->setObjectName(name);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setAlternatingRowColors(true);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    return t;
}

} // namespace

RescoreView::RescoreView(QWidget *parent)
    : QWidget(parent)
    , m_runner(new RescoreRunner(this))
    , m_rows(new RescoreTableModel(this))
    , m_groups(new RescoreGroupModel(this))
{
    setObjectName(QStringLiteral("rescoreView"));
    auto *layout = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("rescoreTitle"));
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_settings = new QLabel(this);
    m_settings->setObjectName(QStringLiteral("rescoreSettings"));
    m_settings->setWordWrap(true);
    m_settings->setStyleSheet(QStringLiteral("color: gray"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("rescoreSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *bar = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("rescoreProgress"));
    m_cancel = new QPushButton(this);
    m_cancel->setObjectName(QStringLiteral("rescoreCancel"));
    m_save = new QPushButton(this);
    m_save->setObjectName(QStringLiteral("rescoreSave"));
    m_save->setEnabled(false);
    bar->addWidget(m_progress, 1);
    bar->addStretch(); // the buttons keep their size when the bar hides
    bar->addWidget(m_cancel);
    bar->addWidget(m_save);
    layout->addWidget(m_title);
    layout->addWidget(m_settings);
    layout->addLayout(bar);
    layout->addWidget(m_summary);

    auto *split = new QSplitter(Qt::Vertical, this);
    // A label over a table of `model`, one pane of the splitter.
    const auto pane = [&](QLabel *&label, QTableView *&table, const QString &name, QAbstractItemModel *model) {
        auto *w = new QWidget(split);
        auto *l = new QVBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
        label = new QLabel(w);
        table = makeTable(w, name);
        table->setModel(model);
        l->addWidget(label);
        l->addWidget(table);
        split->addWidget(w);
    };
    pane(m_groupsLabel, m_groupTable, QStringLiteral("rescoreGroups"), m_groups);
    pane(m_rowsLabel, m_rowTable, QStringLiteral("rescoreRollouts"), m_rows);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_cancel, &QPushButton::clicked, this, &RescoreView::cancel);
    connect(m_save, &QPushButton::clicked, this, &RescoreView::saveAsEvaluation);
    connect(m_runner, &RescoreRunner::progress, this, [this](qint64 done, qint64 total) {
        m_progress->setRange(0, int(std::max<qint64>(total, 1)));
        m_progress->setValue(int(done));
    });
    connect(m_runner, &RescoreRunner::finished, this, &RescoreView::done);
    // A group's row shows its rollouts; a rollout's row opens it.
    connect(m_groupTable, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const train::RescoredGroup &g = m_groups->groupAt(index.row());
        m_rowTable->scrollTo(m_rows->index(int(g.firstRow), 0), QAbstractItemView::PositionAtTop);
        m_rowTable->selectRow(int(g.firstRow));
    });
    connect(m_rowTable, &QTableView::activated, this,
            [this](const QModelIndex &index) { Q_EMIT rolloutActivated(m_rows->rolloutAt(index.row()).rolloutId); });
    retranslate();
}

RescoreView::~RescoreView() = default;

RescoreView *RescoreView::openWindow(QWidget *parent, std::shared_ptr<StoreDocument> document,
                                     train::RescoreScope scope, reward::RewardConfig config, const QString &scopeText)
{
    auto *view = new RescoreView(parent);
    view->setWindowFlag(Qt::Window);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->resize(kWindowWidth, kWindowHeight);
    view->start(std::move(document), std::move(scope), std::move(config), scopeText);
    view->show();
    return view;
}

bool RescoreView::start(std::shared_ptr<StoreDocument> document, train::RescoreScope scope,
                        reward::RewardConfig config, const QString &scopeText)
{
    if (m_runner->isRunning() || !document)
        return false;
    m_document = std::move(document);
    m_runId = scope.filter.runId; // the run the scope was taken from (the browser's)
    m_config = config;
    m_scopeText = scopeText;
    m_result.reset();
    m_message.clear();
    m_savedRun = 0;
    m_rows->setResult(nullptr);
    m_groups->setResult(nullptr);
    // The task on this thread: finding a user's task installs it in the catalog, which the
    // worker reads.
    const task::Task *task = nullptr;
    try {
        if (m_runId <= 0)
            throw std::invalid_argument("the scope names no run");
        task = train::rescoreTaskOf(m_document->store(), m_runId);
    } catch (const std::exception &e) {
        m_message = tr("The re-score failed: %1").arg(QString::fromStdString(e.what()));
        m_progress->hide();
        m_cancel->setEnabled(false);
        m_save->setEnabled(false);
        retranslate();
        return false;
    }
    m_progress->setRange(0, 0); // busy until the first progress
    m_progress->show();
    m_cancel->setEnabled(true);
    m_save->setEnabled(false);
    const QString source = config.name.empty() ? QStringLiteral("the Designer's reward config")
                                               : QString::fromStdString(config.name);
    m_runner->start(m_document->reader(), std::move(scope), task, std::move(config), source);
    retranslate();
    return true;
}

bool RescoreView::isRunning() const
{
    return m_runner->isRunning();
}

void RescoreView::cancel()
{
    m_runner->cancel();
    m_cancel->setEnabled(false);
}

void RescoreView::done(bool ok, bool cancelled, const QString &message)
{
    m_cancel->setEnabled(false);
    m_progress->hide();
    if (ok) {
        m_result = m_runner->result();
        m_rows->setResult(m_result);
        m_groups->setResult(m_result);
        m_groupTable->resizeColumnsToContents();
        m_rowTable->resizeColumnsToContents();
        m_rowTable->setColumnWidth(RescoreTableModel::Answer,
                                   std::min(m_rowTable->columnWidth(RescoreTableModel::Answer), kAnswerWidth));
        m_save->setEnabled(true);
    } else {
        m_message = cancelled ? tr("Cancelled: nothing was re-scored.") : tr("The re-score failed: %1").arg(message);
    }
    retranslate();
    Q_EMIT finished(ok);
}

bool RescoreView::saveAsEvaluation()
{
    if (!m_result || !m_document)
        return false;
    const std::string name = "What-if: " + (m_config.name.empty() ? std::string("Designer") : m_config.name) +
                             " on run " + std::to_string(m_runId);
    try {
        m_savedRun = train::saveRescoreAsEvaluation(m_document->writable(), *m_result, m_config, name);
    } catch (const std::exception &e) {
        m_message = tr("The re-score could not be saved: %1").arg(QString::fromStdString(e.what()));
        retranslate();
        return false;
    }
    m_message = tr("Saved as evaluation run %1 “%2” of this store.").arg(m_savedRun).arg(QString::fromStdString(name));
    m_save->setEnabled(false);
    m_document->announceChange();
    retranslate();
    Q_EMIT saved(m_document->path(), m_savedRun);
    return true;
}

QString RescoreView::settingsText() const
{
    return m_settings->text();
}

QString RescoreView::summaryText() const
{
    return m_summary->text();
}

void RescoreView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        m_rows->retranslate();
        m_groups->retranslate();
    }
    QWidget::changeEvent(event);
}

void RescoreView::retranslate()
{
    setWindowTitle(tr("What-if re-score"));
    const QString config = m_config.name.empty() ? tr("the Designer's reward config") : QString::fromStdString(m_config.name);
    m_title->setText(tr("Run %1, %2, re-scored with %3").arg(m_runId).arg(m_scopeText, config));
    m_cancel->setText(tr("Cancel"));
    m_save->setText(tr("Save as evaluation"));
    m_save->setToolTip(tr("Store the new scores as an evaluation run of this store; the run itself is not changed"));
    m_groupsLabel->setText(tr("Groups"));
    m_rowsLabel->setText(tr("Rollouts (a group's rows all come, whatever the scope asked for)"));
    if (m_result) {
        const train::AdvantageSettings &s = m_result->settings;
        QString settings = tr("Advantages recomputed as the run computed them: scale_rewards = %1, none_rewards = %2, ε = %3.")
                               .arg(QString::fromStdString(s.scaleRewards), QString::fromStdString(s.noneRewards))
                               .arg(s.epsilon);
        if (!s.fromConfig)
            settings += QLatin1Char(' ') + tr("The run's config names none of them: GRPO's defaults.");
        if (s.scaleRewards == "batch")
            settings += QLatin1Char(' ') + tr("The batch std is the step's: whole steps were re-scored.");
        if (s.dualGranularity)
            settings += QLatin1Char(' ') + tr("Dual-granularity run: the process advantages (β = %1) come from the PRM and "
                                              "do not change with the reward; the outcome advantages are compared.")
                                               .arg(s.processBeta);
        for (const std::string &note : m_result->notes)
            settings += QLatin1Char(' ') + QString::fromStdString(note);
        m_settings->setText(settings);
        const train::RescoreSummary &m = m_result->summary;
        QString summary =
            tr("%n rollout(s) in %1 group(s): %2 re-scored, %3 skipped, %4 with a None total.", nullptr, m.rollouts)
                .arg(m.groups)
                .arg(m.rollouts - m.skipped)
                .arg(m.skipped)
                .arg(m.newNone);
        summary += QLatin1Char(' ') + tr("The best completion changes in %1 of %2 group(s); %n advantage(s) flip sign.",
                                         nullptr, m.flips)
                                          .arg(m.bestChanged)
                                          .arg(m.groupsRescored);
        summary += QLatin1Char(' ') + tr("Old against new advantage: Pearson %1, Spearman %2 (%3 rollouts).")
                                          .arg(correlation(m.pearson), correlation(m.spearman))
                                          .arg(m.correlatedRows);
        summary += QLatin1Char(' ') + tr("Mean change of the total: %1.").arg(m.meanTotalChange, 0, 'f', 3);
        if (!m_message.isEmpty())
            summary += QLatin1Char(' ') + m_message;
        m_summary->setText(summary);
    } else {
        m_settings->setText(QString());
        m_summary->setText(m_runner->isRunning() ? tr("Re-scoring…") : m_message);
    }
}

} // namespace rwb::widgets
