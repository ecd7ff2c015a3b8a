#include "judgedecisionview.h"

#include "arrowsteps.h"

#include "judgeconfusionmodel.h"
#include "judgedecisiondetailview.h"
#include "judgedecisionfilter.h"
#include "judgedecisionmodel.h"
#include "rewardvalue.h"

#include "store/runstore.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QTabBar>
#include <QTabWidget>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rwb::widgets {

namespace {

// A text filter applies this long after the last keystroke (Enter applies at once).
constexpr int kDebounceMs = 300;
// Pages arriving from the reader are shown together at most this often (STYLE: 40 ms).
constexpr int kRowsCoalesceMs = 40;
// Initial widths of the table's columns, in average character widths.
constexpr int kColumnChars[] = {5, 11, 15, 8, 7, 24, 8, 7, 8, 6, 5, 30};
// Least width of a confusion-matrix cell, in average character widths.
constexpr int kMatrixCellChars = 6;
// The agreement panel asks for at most this height, in pixels (more scrolls).
constexpr int kAgreementMaxHeight = 380;

QString percent(double v)
{
    return std::isnan(v) ? QStringLiteral("—") : QStringLiteral("%1%").arg(100.0 * v, 0, 'f', 1);
}

QString ratio(double v)
{
    return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 2);
}

} // namespace

JudgeDecisionView::JudgeDecisionView(QWidget *parent) : QWidget(parent)
{
    m_model = new JudgeDecisionModel(this);
    m_filter = new JudgeDecisionFilter(this);
    m_filter->setSourceModel(m_model);
    buildUi();
    retranslate();
    resetFilterBar();
    updateCount();
}

JudgeDecisionView::~JudgeDecisionView() = default;

void JudgeDecisionView::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto *bar = new QHBoxLayout;
    m_rewardLabel = new QLabel(this);
    m_reward = new QComboBox(this);
    m_reward->setObjectName(QStringLiteral("judgeRewardFilter"));
    m_reward->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_textLabel = new QLabel(this);
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("judgeTextFilter"));
    m_text->setClearButtonEnabled(true);
    m_failuresLabel = new QLabel(this);
    m_failures = new QComboBox(this);
    m_failures->setObjectName(QStringLiteral("judgeFailureFilter"));
    m_failures->addItems({QString(), QString(), QString(), QString(), QString()});
    m_cacheLabel = new QLabel(this);
    m_cache = new QComboBox(this);
    m_cache->setObjectName(QStringLiteral("judgeCacheFilter"));
    m_cache->addItems({QString(), QString(), QString()});
    m_latencyLabel = new QLabel(this);
    m_latency = new QDoubleSpinBox(this);
    m_latency->setObjectName(QStringLiteral("judgeLatencyFilter"));
    m_latency->setRange(0.0, 3600.0);
    m_latency->setDecimals(1);
    m_latency->setSingleStep(0.5);
    m_latency->setKeyboardTracking(false);
    m_previous = new QPushButton(this);
    m_next = new QPushButton(this);
    m_previous->setObjectName(QStringLiteral("previousDecision"));
    m_next->setObjectName(QStringLiteral("nextDecision"));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("decisionCount"));
    bar->addWidget(m_rewardLabel);
    bar->addWidget(m_reward);
    bar->addSpacing(8);
    bar->addWidget(m_textLabel);
    bar->addWidget(m_text, 1);
    bar->addSpacing(8);
    bar->addWidget(m_failuresLabel);
    bar->addWidget(m_failures);
    bar->addSpacing(8);
    bar->addWidget(m_cacheLabel);
    bar->addWidget(m_cache);
    bar->addSpacing(8);
    bar->addWidget(m_latencyLabel);
    bar->addWidget(m_latency);
    layout->addLayout(bar);

    // Second row: what the list is narrowed to (one rollout, one agreement cell), the count
    // and the buttons.
    auto *row2 = new QHBoxLayout;
    m_scope = new QLabel(this);
    m_scope->setObjectName(QStringLiteral("judgeScope"));
    m_scope->setTextFormat(Qt::RichText);
    m_scope->hide();
    connect(m_scope, &QLabel::linkActivated, this, &JudgeDecisionView::scopeLinkActivated);
    row2->addWidget(m_scope);
    row2->addStretch(1);
    row2->addWidget(m_count);
    row2->addWidget(m_previous);
    row2->addWidget(m_next);
    layout->addLayout(row2);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("judgeError"));
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_leftSplitter = new QSplitter(Qt::Vertical, m_splitter);
    m_table = new QTableView(m_leftSplitter);
    m_table->setObjectName(QStringLiteral("judgeDecisionTable"));
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setAlternatingRowColors(true);
    // The order they were written until a header is clicked (a third click returns to it).
    m_table->horizontalHeader()->setSortIndicatorClearable(true);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->installEventFilter(this);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { currentRowChanged(current); });

    // The agreement panel: one confusion matrix per graded reward, side by side.
    auto *scroll = new QScrollArea(m_leftSplitter);
    m_agreementScroll = scroll;
    scroll->setObjectName(QStringLiteral("judgeAgreementPanel"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the title wraps; the pages fit
    m_agreementPanel = new QWidget(scroll);
    auto *panelLayout = new QVBoxLayout(m_agreementPanel);
    panelLayout->setContentsMargins(0, 4, 0, 0);
    m_agreementTitle = new QLabel(m_agreementPanel);
    m_agreementTitle->setWordWrap(true);
    panelLayout->addWidget(m_agreementTitle);
    m_agreementTabs = new QTabWidget(m_agreementPanel);
    m_agreementTabs->setObjectName(QStringLiteral("judgeAgreementTabs"));
    m_agreementTabs->setDocumentMode(true);
    panelLayout->addWidget(m_agreementTabs);
    panelLayout->addStretch(1);
    scroll->setWidget(m_agreementPanel);
    m_leftSplitter->addWidget(m_table);
    m_leftSplitter->addWidget(scroll);
    m_leftSplitter->setStretchFactor(0, 3);
    m_leftSplitter->setStretchFactor(1, 1);
    scroll->hide();

    m_detail = new JudgeDecisionDetailView(m_splitter);
    connect(m_detail, &JudgeDecisionDetailView::rolloutRequested, this, &JudgeDecisionView::rolloutRequested);
    m_splitter->addWidget(m_leftSplitter);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    layout->addWidget(m_splitter, 1);

    m_textDebounce = new QTimer(this);
    m_textDebounce->setSingleShot(true);
    m_textDebounce->setInterval(kDebounceMs);
    connect(m_textDebounce, &QTimer::timeout, this, &JudgeDecisionView::applyFilterBar);
    m_rowsTimer = new QTimer(this);
    m_rowsTimer->setSingleShot(true);
    m_rowsTimer->setInterval(kRowsCoalesceMs);
    connect(m_rowsTimer, &QTimer::timeout, this, &JudgeDecisionView::rowsChanged);

    connect(m_reward, &QComboBox::currentIndexChanged, this, &JudgeDecisionView::applyFilterBar);
    connect(m_failures, &QComboBox::currentIndexChanged, this, &JudgeDecisionView::applyFilterBar);
    connect(m_cache, &QComboBox::currentIndexChanged, this, &JudgeDecisionView::applyFilterBar);
    connect(m_latency, &QDoubleSpinBox::valueChanged, this, &JudgeDecisionView::applyFilterBar);
    connect(m_text, &QLineEdit::textEdited, m_textDebounce, qOverload<>(&QTimer::start));
    connect(m_text, &QLineEdit::returnPressed, this, &JudgeDecisionView::applyFilterBar);
    connect(m_previous, &QPushButton::clicked, this, &JudgeDecisionView::previous);
    connect(m_next, &QPushButton::clicked, this, &JudgeDecisionView::next);

    // Alt+← / Alt+→ anywhere in the view (← / → alone belong to the list).
    auto *back = new QShortcut(QKeySequence(Qt::ALT | Qt::Key_Left), this);
    auto *forward = new QShortcut(QKeySequence(Qt::ALT | Qt::Key_Right), this);
    back->setContext(Qt::WidgetWithChildrenShortcut);
    forward->setContext(Qt::WidgetWithChildrenShortcut);
    connect(back, &QShortcut::activated, this, &JudgeDecisionView::previous);
    connect(forward, &QShortcut::activated, this, &JudgeDecisionView::next);

    connect(m_model, &QAbstractItemModel::rowsInserted, m_rowsTimer, qOverload<>(&QTimer::start));
    connect(m_model, &QAbstractItemModel::modelReset, m_rowsTimer, qOverload<>(&QTimer::start));
    connect(m_model, &JudgeDecisionModel::loadingFinished, this, &JudgeDecisionView::loadingFinished);
    connect(m_model, &JudgeDecisionModel::loadingFailed, this, [this](const QString &message) {
        m_error->setText(tr("Reading the judge decisions stopped: %1").arg(message));
        m_error->show();
        loadingFinished();
    });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &JudgeDecisionView::updateCount);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &JudgeDecisionView::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &JudgeDecisionView::updateCount);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, &JudgeDecisionView::updateCount);
}

void JudgeDecisionView::retranslate()
{
    m_rewardLabel->setText(tr("Reward"));
    m_textLabel->setText(tr("Value / verdict"));
    m_text->setPlaceholderText(tr("e.g. None, full, not met, rating 3, timed out"));
    m_text->setToolTip(tr("Shows the calls whose value, verdict, part or error contains this text"));
    m_failuresLabel->setText(tr("Failures"));
    m_failures->setItemText(0, tr("any"));
    m_failures->setItemText(1, tr("call or parse failures"));
    m_failures->setItemText(2, tr("call failures"));
    m_failures->setItemText(3, tr("parse failures"));
    m_failures->setItemText(4, tr("no failure"));
    m_cacheLabel->setText(tr("Cache"));
    m_cache->setItemText(0, tr("any"));
    m_cache->setItemText(1, tr("hits only"));
    m_cache->setItemText(2, tr("misses only"));
    m_latencyLabel->setText(tr("Latency ≥"));
    m_latency->setSuffix(tr(" s"));
    m_latency->setSpecialValueText(tr("any"));
    m_latency->setToolTip(tr("Shows the calls that took at least this long (retries included)"));
    m_previous->setText(tr("← Previous"));
    m_next->setText(tr("Next →"));
    m_previous->setToolTip(tr("Previous call of the filtered list (← on the list, Alt+← anywhere)"));
    m_next->setToolTip(tr("Next call of the filtered list (→ on the list, Alt+→ anywhere)"));
    m_agreementTitle->setText(
        tr("<b>Agreement with the reference grader</b><br>Rows: the grader's label; columns: the judge's. "
           "Click a cell to list its calls."));
    if (m_reward->count() > 0)
        m_reward->setItemText(0, tr("all"));
    updateCount();
    updateScope();
    updateAgreement();
}

void JudgeDecisionView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void JudgeDecisionView::resetFilterBar()
{
    m_updatingBar = true;
    m_reward->clear();
    m_reward->addItem(tr("all"));
    m_text->clear();
    m_failures->setCurrentIndex(0);
    m_cache->setCurrentIndex(0);
    m_latency->setValue(0.0);
    m_textDebounce->stop();
    m_updatingBar = false;
    m_filter->clearConditions();
    m_error->hide();
    updateScope();
}

bool JudgeDecisionView::setSession(RunSession *session, QString *error)
{
    close();
    if (!session)
        return true;
    try {
        m_model->open(*session);
    } catch (const std::exception &e) {
        if (error)
            *error = tr("Cannot show the judge decisions of run %1 in %2: %3")
                         .arg(session->runId())
                         .arg(session->storePath(), QString::fromUtf8(e.what()));
        return false;
    }
    m_session = session;
    m_store = &session->store();
    m_storePath = session->storePath();
    m_runId = session->runId();
    connect(session, &RunSession::rowsAdded, this, &JudgeDecisionView::refresh);
    connect(session, &QObject::destroyed, this, [this] { close(); });
    m_currentId = 0;
    m_pendingId = 0;
    m_selectFirst = true;
    m_detail->clear();
    resetFilterBar();
    for (auto &[reward, box] : m_agreement)
        delete box.box;
    m_agreement.clear();
    updateAgreement();
    if (!m_columnsSized) {
        sizeColumns();
        m_columnsSized = true;
    }
    updateCount();
    return true;
}

void JudgeDecisionView::close()
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = nullptr;
    m_model->close();
    m_store = nullptr;
    m_storePath.clear();
    m_runId = 0;
    m_currentId = 0;
    m_pendingId = 0;
    m_detail->clear();
    resetFilterBar();
    for (auto &[reward, box] : m_agreement)
        delete box.box;
    m_agreement.clear();
    updateAgreement();
    updateCount();
}

void JudgeDecisionView::refresh()
{
    m_model->refresh();
}

void JudgeDecisionView::sizeColumns()
{
    const int ch = fontMetrics().averageCharWidth();
    QHeaderView *h = m_table->horizontalHeader();
    for (int c = 0; c < JudgeDecisionModel::ColumnCount; ++c) {
        const int header = fontMetrics().horizontalAdvance(m_model->headerData(c, Qt::Horizontal).toString()) + 4 * ch;
        h->resizeSection(c, std::max(kColumnChars[c] * ch, header));
    }
}

void JudgeDecisionView::applyFilterBar()
{
    if (m_updatingBar)
        return;
    m_textDebounce->stop();
    m_filter->setReward(m_reward->currentIndex() > 0 ? m_reward->currentText() : QString());
    m_filter->setText(m_text->text());
    m_filter->setFailures(static_cast<JudgeDecisionFilter::Failures>(m_failures->currentIndex()));
    m_filter->setCache(static_cast<JudgeDecisionFilter::Cache>(m_cache->currentIndex()));
    m_filter->setMinLatency(m_latency->value());
    updateCount();
    // Keep the call in the detail selected when it is still listed.
    if (m_currentId > 0) {
        const int source = m_model->rowOfDecision(m_currentId);
        const QModelIndex proxy = source >= 0 ? m_filter->mapFromSource(m_model->index(source, 0)) : QModelIndex();
        if (proxy.isValid())
            selectProxyRow(proxy.row());
    }
}

void JudgeDecisionView::updateRewards()
{
    const QStringList rewards = m_model->rewards();
    if (m_reward->count() - 1 == rewards.size())
        return;
    m_updatingBar = true;
    for (int i = m_reward->count() - 1; i < rewards.size(); ++i)
        m_reward->addItem(rewards[i]);
    m_updatingBar = false;
}

void JudgeDecisionView::updateCount()
{
    const int shown = m_filter->rowCount();
    const int all = m_model->rowCount();
    QString text = shown != all ? tr("%1 of %2 calls").arg(shown).arg(all) : all == 1 ? tr("1 call") : tr("%1 calls").arg(all);
    if (m_model->isLoading())
        text += QLatin1Char(' ') + tr("(reading…)");
    m_count->setText(text);
    m_previous->setEnabled(shown > 0);
    m_next->setEnabled(shown > 0);
}

void JudgeDecisionView::updateScope()
{
    QStringList parts;
    if (m_filter->rolloutId() > 0)
        parts << tr("Only the calls for rollout %1 (<a href=\"#clear-rollout\">show all</a>)").arg(m_filter->rolloutId());
    const JudgeDecisionFilter::AgreementCell &cell = m_filter->agreementCell();
    if (!cell.reward.isEmpty()) {
        const JudgeDecisionRow *any = nullptr;
        for (int r = 0; r < m_model->rowCount() && !any; ++r)
            if (m_model->decision(r).reward == cell.reward && m_model->decision(r).graded != GradedQuantity::None)
                any = &m_model->decision(r);
        const GradedQuantity q = any ? any->graded : GradedQuantity::None;
        const QString ref = cell.referenceLabel >= 0 ? JudgeAgreement::labelName(q, cell.referenceLabel) : tr("any");
        const QString judged = cell.judgedLabel >= 0 ? JudgeAgreement::labelName(q, cell.judgedLabel) : tr("any");
        parts << tr("Only %1 calls with grader %2 and judge %3 (<a href=\"#clear-cell\">show all</a>)")
                     .arg(cell.reward.toHtmlEscaped(), ref, judged);
    }
    m_scope->setText(parts.join(QStringLiteral(" · ")));
    m_scope->setVisible(!parts.isEmpty());
}

void JudgeDecisionView::scopeLinkActivated(const QString &link)
{
    if (link == QLatin1String("#clear-rollout"))
        m_filter->setRolloutId(0);
    else if (link == QLatin1String("#clear-cell"))
        m_filter->setAgreementCell({});
    updateScope();
    updateCount();
    applyFilterBar();
}

void JudgeDecisionView::rowsChanged()
{
    updateRewards();
    updateCount();
    updateAgreement();
    if (m_pendingId > 0 && m_model->rowOfDecision(m_pendingId) >= 0) {
        const qint64 id = m_pendingId;
        m_pendingId = 0;
        selectDecision(id);
    } else if (m_selectFirst && m_pendingId == 0 && m_filter->rowCount() > 0 && m_currentId == 0) {
        selectFirstRow();
    }
}

void JudgeDecisionView::loadingFinished()
{
    m_rowsTimer->stop();
    rowsChanged();
    m_pendingId = 0;
}

void JudgeDecisionView::selectFirstRow()
{
    m_selectFirst = false;
    if (m_filter->rowCount() > 0)
        selectProxyRow(0);
}

QString JudgeDecisionView::agreementSummaryHtml(const QString &reward) const
{
    const JudgeAgreementCounts a = m_model->agreement(reward);
    const ConfusionMatrix &m = a.matrix;
    QString h = QStringLiteral("<table cellspacing=0 cellpadding=2><tr><th align=left>%1</th><th>%2</th><th>%3</th>"
                               "<th>%4</th><th>%5</th></tr>")
                    .arg(tr("label"), tr("precision"), tr("recall"), tr("F1"), tr("n"));
    for (int l = 0; l < m.labels(); ++l)
        h += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td>"
                            "<td align=right>%5</td></tr>")
                 .arg(JudgeAgreement::labelName(a.quantity, l), ratio(m.precision(l)), ratio(m.recall(l)), ratio(m.f1(l)))
                 .arg(m.referenceTotal(l));
    h += QStringLiteral("</table>");
    h += QStringLiteral("<p>%1</p>")
             .arg(tr("Agreement <b>%1</b> of %2 · macro F1 %3").arg(percent(m.agreement())).arg(m.total()).arg(ratio(m.macroF1())));
    QStringList left;
    if (a.noVerdict > 0)
        left << tr("%1 without a verdict (None)").arg(a.noVerdict);
    if (a.noReference > 0)
        left << tr("%1 without a reference grade").arg(a.noReference);
    if (!left.isEmpty())
        h += QStringLiteral("<p style=\"color:gray\">%1</p>").arg(tr("Left out: %1").arg(left.join(QStringLiteral(", "))));
    return h;
}

void JudgeDecisionView::updateAgreement()
{
    const QStringList graded = m_model->gradedRewards();
    for (const QString &reward : graded) {
        if (m_agreement.count(reward))
            continue;
        AgreementBox b;
        b.box = new QWidget(m_agreementTabs);
        b.box->setObjectName(QStringLiteral("agreement_") + reward);
        // The matrix, and its figures beside it.
        auto *l = new QHBoxLayout(b.box);
        l->setContentsMargins(6, 4, 6, 4);
        b.model = new JudgeConfusionModel(b.box);
        b.table = new QTableView(b.box);
        b.table->setObjectName(QStringLiteral("agreementMatrix_") + reward);
        b.table->setModel(b.model);
        b.table->setSelectionMode(QAbstractItemView::SingleSelection);
        b.table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        b.table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        b.table->horizontalHeader()->setDefaultSectionSize(fontMetrics().averageCharWidth() * kMatrixCellChars);
        b.table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        b.table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
        b.table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
        b.table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        b.table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        connect(b.table, &QTableView::clicked, this, [this, reward](const QModelIndex &index) {
            showAgreementCell(reward, index.data(JudgeConfusionModel::ReferenceLabelRole).toInt(),
                              index.data(JudgeConfusionModel::JudgedLabelRole).toInt());
        });
        b.summary = new QLabel(b.box);
        b.summary->setObjectName(QStringLiteral("agreementSummary_") + reward);
        b.summary->setTextFormat(Qt::RichText);
        l->addWidget(b.table, 0, Qt::AlignTop);
        l->addSpacing(12);
        l->addWidget(b.summary, 0, Qt::AlignTop);
        l->addStretch(1);
        m_agreementTabs->addTab(b.box, reward);
        m_agreement[reward] = b;
    }
    for (auto &[reward, b] : m_agreement) {
        const JudgeAgreementCounts a = m_model->agreement(reward);
        m_agreementTabs->setTabToolTip(m_agreementTabs->indexOf(b.box),
                                       tr("%1: the judge against the reference grader").arg(reward));
        b.model->setMatrix(a.quantity, a.matrix);
        b.summary->setText(agreementSummaryHtml(reward));
        b.table->resizeColumnsToContents();
        int width = b.table->verticalHeader()->width() + 4;
        for (int c = 0; c < b.model->columnCount(); ++c) {
            b.table->setColumnWidth(c, std::max(b.table->columnWidth(c), fontMetrics().averageCharWidth() * kMatrixCellChars));
            width += b.table->columnWidth(c);
        }
        b.table->setFixedWidth(width);
        b.table->setFixedHeight(b.table->horizontalHeader()->height() + 4 +
                                b.model->rowCount() * b.table->verticalHeader()->defaultSectionSize());
    }
    // Room for the matrices and their figures, the decisions taking the rest.
    int pageHeight = 0;
    for (const auto &[reward, b] : m_agreement)
        pageHeight = std::max(pageHeight, b.box->sizeHint().height());
    const int wanted = m_agreementTitle->sizeHint().height() * 2 + m_agreementTabs->tabBar()->sizeHint().height() +
                       pageHeight + 16;
    m_agreementScroll->setMinimumHeight(std::min(wanted, kAgreementMaxHeight));
    m_agreementScroll->setVisible(!m_agreement.empty());
}

QTableView *JudgeDecisionView::agreementTable(const QString &reward) const
{
    const auto it = m_agreement.find(reward);
    return it == m_agreement.end() ? nullptr : it->second.table;
}

QLabel *JudgeDecisionView::agreementSummary(const QString &reward) const
{
    const auto it = m_agreement.find(reward);
    return it == m_agreement.end() ? nullptr : it->second.summary;
}

void JudgeDecisionView::showRollout(qint64 rolloutId)
{
    resetFilterBar();
    m_filter->setRolloutId(rolloutId);
    updateScope();
    updateCount();
    m_currentId = 0;
    m_detail->clear();
    m_selectFirst = true;
    selectFirstRow();
    m_selectFirst = m_currentId == 0; // still reading: the first that comes
}

void JudgeDecisionView::showAgreementCell(const QString &reward, int referenceLabel, int judgedLabel)
{
    m_filter->setAgreementCell({reward, referenceLabel, judgedLabel});
    updateScope();
    updateCount();
    selectFirstRow();
}

void JudgeDecisionView::clearFilters()
{
    resetFilterBar();
    updateRewards();
    updateCount();
}

void JudgeDecisionView::selectDecision(qint64 id)
{
    const int source = m_model->rowOfDecision(id);
    if (source < 0) {
        if (m_model->isLoading())
            m_pendingId = id;
        return;
    }
    const QModelIndex proxy = m_filter->mapFromSource(m_model->index(source, 0));
    if (proxy.isValid()) {
        selectProxyRow(proxy.row());
        return;
    }
    // Filtered out: shown all the same, with no row selected.
    m_table->selectionModel()->clearSelection();
    if (id != m_currentId)
        showDetail(id);
}

void JudgeDecisionView::selectProxyRow(int row)
{
    const QModelIndex index = m_filter->index(row, 0);
    if (!index.isValid())
        return;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    // Rows just inserted may not be laid out yet: scroll again once they are.
    QTimer::singleShot(0, m_table, [this] {
        if (m_table->currentIndex().isValid())
            m_table->scrollTo(m_table->currentIndex());
    });
    const qint64 id = index.data(JudgeDecisionModel::DecisionIdRole).toLongLong();
    if (id != m_currentId)
        showDetail(id);
}

void JudgeDecisionView::currentRowChanged(const QModelIndex &current)
{
    if (!current.isValid())
        return;
    const qint64 id = current.data(JudgeDecisionModel::DecisionIdRole).toLongLong();
    if (id != m_currentId)
        showDetail(id);
}

void JudgeDecisionView::showDetail(qint64 decisionId)
{
    const int source = m_model->rowOfDecision(decisionId);
    if (!m_store || source < 0)
        return;
    try {
        m_detail->showDecision(JudgeDecisionDetailView::load(*m_store, m_runId, m_model->decision(source)));
    } catch (const std::exception &e) {
        m_error->setText(tr("Judge call %1: %2").arg(decisionId).arg(QString::fromUtf8(e.what())));
        m_error->show();
        return;
    }
    m_currentId = decisionId;
    m_selectFirst = false;
    Q_EMIT decisionSelected(decisionId);
}

void JudgeDecisionView::next()
{
    const QModelIndex current = m_table->currentIndex();
    const int target = current.isValid() ? current.row() + 1 : 0;
    if (target < m_filter->rowCount())
        selectProxyRow(target);
}

void JudgeDecisionView::previous()
{
    const QModelIndex current = m_table->currentIndex();
    if (current.isValid() && current.row() > 0)
        selectProxyRow(current.row() - 1);
}

bool JudgeDecisionView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table) {
        if (const int step = arrowStep(event)) {
            step > 0 ? next() : previous();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace rwb::widgets
