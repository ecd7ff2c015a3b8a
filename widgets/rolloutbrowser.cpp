#include "rolloutbrowser.h"

#include "arrowsteps.h"

#include "rescorebutton.h"
#include "rolloutcondition.h"
#include "rolloutdetailview.h"
#include "rollouttablemodel.h"
#include "store/runstore.h"

#include <QComboBox>
#include <QDoubleValidator>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace rwb::widgets {

namespace {

// A filter applies this long after the last keystroke (Enter applies at once).
constexpr int kDebounceMs = 400;
// The step spin boxes' "any" value (their minimum, shown as specialValueText).
constexpr int kAnyStep = -1;
// Initial widths of the table's columns, in average character widths.
constexpr int kNumberChars = 8;
constexpr int kIndexChars = 6;
constexpr int kTextChars = 18;

} // namespace

RolloutBrowser::RolloutBrowser(QWidget *parent) : QWidget(parent)
{
    m_model = new RolloutTableModel(this);
    buildUi();
    retranslate();
    resetFilterBar();
    updateCount();
}

RolloutBrowser::~RolloutBrowser() = default;

void RolloutBrowser::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // Filter bar, two rows.
    auto *row1 = new QHBoxLayout;
    m_stepLabel = new QLabel(this);
    m_stepFrom = new QSpinBox(this);
    m_stepTo = new QSpinBox(this);
    for (QSpinBox *s : {m_stepFrom, m_stepTo}) {
        s->setRange(kAnyStep, 1'000'000'000);
        s->setKeyboardTracking(false);
        connect(s, &QSpinBox::valueChanged, this, &RolloutBrowser::scheduleApply);
    }
    m_rewardLabel = new QLabel(this);
    m_rewardMin = new QLineEdit(this);
    m_rewardMax = new QLineEdit(this);
    for (QLineEdit *e : {m_rewardMin, m_rewardMax}) {
        auto *v = new QDoubleValidator(e);
        v->setLocale(QLocale::c());
        e->setValidator(v);
        e->setMaximumWidth(fontMetrics().averageCharWidth() * 10);
    }
    m_truncatedLabel = new QLabel(this);
    m_truncated = new QComboBox(this);
    m_truncated->addItems({QString(), QString(), QString()});
    connect(m_truncated, &QComboBox::currentIndexChanged, this, [this] { applyFilter(); });
    m_previous = new QPushButton(this);
    m_next = new QPushButton(this);
    m_previous->setObjectName(QStringLiteral("previousRollout"));
    m_next->setObjectName(QStringLiteral("nextRollout"));
    connect(m_previous, &QPushButton::clicked, this, &RolloutBrowser::previous);
    connect(m_next, &QPushButton::clicked, this, &RolloutBrowser::next);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("rolloutCount"));
    connect(m_count, &QLabel::linkActivated, this, [this] {
        if (m_model->canFetchMore({}))
            m_model->fetchMore({});
    });
    row1->addWidget(m_stepLabel);
    row1->addWidget(m_stepFrom);
    row1->addWidget(new QLabel(QStringLiteral("–"), this));
    row1->addWidget(m_stepTo);
    row1->addSpacing(8);
    row1->addWidget(m_rewardLabel);
    row1->addWidget(m_rewardMin);
    row1->addWidget(new QLabel(QStringLiteral("–"), this));
    row1->addWidget(m_rewardMax);
    row1->addSpacing(8);
    row1->addWidget(m_truncatedLabel);
    row1->addWidget(m_truncated);
    row1->addStretch(1);
    row1->addWidget(m_count);
    row1->addWidget(m_previous);
    row1->addWidget(m_next);
    m_rescore = new RescoreButton(this);
    m_rescore->setCurrentAvailable(true);
    connect(m_rescore, &RescoreButton::requested, this, &RolloutBrowser::requestRescore);
    layout->addLayout(row1);

    auto *row2 = new QHBoxLayout;
    m_conditionLabel = new QLabel(this);
    m_condition = new QLineEdit(this);
    m_condition->setObjectName(QStringLiteral("componentCondition"));
    m_condition->setClearButtonEnabled(true);
    m_searchLabel = new QLabel(this);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("rolloutSearch"));
    m_search->setClearButtonEnabled(true);
    m_searchIn = new QComboBox(this);
    m_searchIn->addItems({QString(), QString()});
    connect(m_searchIn, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_search->text().trimmed().isEmpty())
            applyFilter();
    });
    m_scope = new QComboBox(this);
    m_scope->setObjectName(QStringLiteral("searchScope"));
    m_scope->addItems({QString(), QString()});
    connect(m_scope, &QComboBox::currentIndexChanged, this, [this] { applyFilter(); });
    for (QLineEdit *e : {m_rewardMin, m_rewardMax, m_condition, m_search}) {
        connect(e, &QLineEdit::textEdited, this, &RolloutBrowser::scheduleApply);
        connect(e, &QLineEdit::returnPressed, this, [this] { applyFilter(); });
    }
    row2->addWidget(m_conditionLabel);
    row2->addWidget(m_condition, 2);
    row2->addSpacing(8);
    row2->addWidget(m_searchLabel);
    row2->addWidget(m_search, 2);
    row2->addWidget(m_searchIn);
    row2->addWidget(m_scope);
    // On the second row, where the text fields give way: the first holds the window's
    // width at 1280 px already (tst_windowsize).
    row2->addWidget(m_rescore);
    layout->addLayout(row2);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("filterError"));
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_table = new QTableView(m_splitter);
    m_table->setObjectName(QStringLiteral("rolloutTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->installEventFilter(this);
    m_table->setColumnHidden(RolloutTableModel::RunColumn, true); // until a search across runs
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { currentRowChanged(current.isValid() ? current.row() : -1); });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) { rowActivated(index.row()); });
    m_detail = new RolloutDetailView(m_splitter);
    connect(m_detail, &RolloutDetailView::judgeCallsRequested, this, &RolloutBrowser::judgeCallsRequested);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(m_detail);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    layout->addWidget(m_splitter, 1);

    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    connect(m_debounce, &QTimer::timeout, this, [this] { applyFilter(); });

    connect(m_model, &QAbstractItemModel::modelReset, this, &RolloutBrowser::updateCount);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &RolloutBrowser::updateCount);
}

void RolloutBrowser::retranslate()
{
    m_stepLabel->setText(tr("Steps"));
    m_stepFrom->setSpecialValueText(tr("any"));
    m_stepTo->setSpecialValueText(tr("any"));
    m_stepFrom->setToolTip(tr("First step shown (any: from the start)"));
    m_stepTo->setToolTip(tr("Last step shown (any: to the end)"));
    m_rewardLabel->setText(tr("Reward"));
    m_rewardMin->setPlaceholderText(tr("min"));
    m_rewardMax->setPlaceholderText(tr("max"));
    m_truncatedLabel->setText(tr("Truncated"));
    m_truncated->setItemText(0, tr("any"));
    m_truncated->setItemText(1, tr("yes"));
    m_truncated->setItemText(2, tr("no"));
    m_conditionLabel->setText(tr("Components"));
    m_condition->setPlaceholderText(tr("e.g. marker < 0.5 and partial >= 0.8"));
    m_condition->setToolTip(tr("Conditions on reward components, joined by \"and\": name, one of < <= > >= == !=, a number."));
    m_searchLabel->setText(tr("Search"));
    m_search->setPlaceholderText(tr("full-text search (SQLite FTS5, 3+ characters)"));
    m_searchIn->setItemText(0, tr("in completions"));
    m_searchIn->setItemText(1, tr("in prompts"));
    m_scope->setItemText(ThisRun, tr("this run"));
    m_scope->setItemText(AllRuns, tr("all runs of the store"));
    m_scope->setToolTip(tr("Where the filter looks: the run shown, or every run of its store (the first %1 rollouts "
                           "found; double-click one of another run to open that run)")
                            .arg(m_allRunsRows));
    m_previous->setText(tr("← Previous"));
    m_next->setText(tr("Next →"));
    m_previous->setToolTip(tr("Previous rollout of the filtered table (←)"));
    m_next->setToolTip(tr("Next rollout of the filtered table (→)"));
    updateCount();
}

void RolloutBrowser::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RolloutBrowser::resetFilterBar()
{
    const QSignalBlocker b1(m_stepFrom), b2(m_stepTo), b3(m_truncated), b4(m_searchIn), b5(m_scope);
    m_stepFrom->setValue(kAnyStep);
    m_stepTo->setValue(kAnyStep);
    m_rewardMin->clear();
    m_rewardMax->clear();
    m_condition->clear();
    m_truncated->setCurrentIndex(0);
    m_search->clear();
    m_searchIn->setCurrentIndex(0);
    m_scope->setCurrentIndex(ThisRun);
    m_error->hide();
    m_debounce->stop();
}

bool RolloutBrowser::setSession(RunSession *session, QString *error)
{
    // A search across the runs of the store stays when another run of that store comes
    // (one of its rollouts was opened, most likely): the rows found are what is looked at.
    const bool keepSearch = session && m_session && m_scope->currentIndex() == AllRuns &&
                            QFileInfo(m_session->storePath()) == QFileInfo(session->storePath());
    const QString search = m_search->text();
    const int searchIn = m_searchIn->currentIndex();
    close();
    if (!session)
        return true;
    try {
        m_model->open(session->store(), session->runId());
    } catch (const std::exception &e) {
        if (error)
            *error = tr("Cannot show the rollouts of run %1 in %2: %3")
                         .arg(session->runId())
                         .arg(session->storePath(), QString::fromUtf8(e.what()));
        return false;
    }
    m_session = session;
    m_store = &session->store();
    m_runId = session->runId();
    connect(session, &RunSession::rowsAdded, this, &RolloutBrowser::refresh);
    connect(session, &QObject::destroyed, this, [this] { close(); });
    m_currentId = 0;
    m_detail->clear();
    resetFilterBar();
    m_condition->setToolTip(tr("Conditions on reward components, joined by \"and\": name, one of < <= > >= == !=, a number. "
                               "Components of this run: %1")
                                .arg(m_model->componentNames().join(QStringLiteral(", "))));
    sizeColumns();
    m_table->setColumnHidden(RolloutTableModel::RunColumn, true);
    if (keepSearch) {
        {
            const QSignalBlocker b1(m_searchIn), b2(m_scope);
            m_search->setText(search);
            m_searchIn->setCurrentIndex(searchIn);
            m_scope->setCurrentIndex(AllRuns);
        }
        applyFilter();
    }
    updateCount();
    return true;
}

void RolloutBrowser::close()
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = nullptr;
    m_model->close();
    m_store = nullptr;
    m_runId = 0;
    m_currentId = 0;
    m_detail->clear();
    resetFilterBar();
    m_model->setRowLimit(0);
    m_table->setColumnHidden(RolloutTableModel::RunColumn, true);
    updateCount();
}

void RolloutBrowser::sizeColumns()
{
    const int ch = fontMetrics().averageCharWidth();
    QHeaderView *h = m_table->horizontalHeader();
    for (int c = 0; c < m_model->columnCount(); ++c) {
        int chars = kNumberChars;
        if (c == RolloutTableModel::GroupColumn || c == RolloutTableModel::SampleColumn || c == RolloutTableModel::StepColumn ||
            c == RolloutTableModel::RunColumn)
            chars = kIndexChars;
        else if (c == m_model->answerColumn() || c == m_model->goldColumn())
            chars = kTextChars;
        const int header = fontMetrics().horizontalAdvance(m_model->headerData(c, Qt::Horizontal).toString()) + 3 * ch;
        h->resizeSection(c, std::max(chars * ch, header));
    }
}

void RolloutBrowser::scheduleApply()
{
    m_debounce->start();
}

void RolloutBrowser::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

bool RolloutBrowser::showSteps(qint64 fromStep, qint64 toStep)
{
    {
        const QSignalBlocker b1(m_stepFrom), b2(m_stepTo);
        m_stepFrom->setValue(static_cast<int>(std::clamp<qint64>(fromStep, 0, m_stepFrom->maximum())));
        m_stepTo->setValue(static_cast<int>(std::clamp<qint64>(toStep, 0, m_stepTo->maximum())));
    }
    return applyFilter();
}

bool RolloutBrowser::applyFilter()
{
    m_debounce->stop();
    if (m_runId == 0)
        return false;
    store::RolloutFilter f;
    if (m_stepFrom->value() != kAnyStep)
        f.stepMin = m_stepFrom->value();
    if (m_stepTo->value() != kAnyStep)
        f.stepMax = m_stepTo->value();
    auto number = [this](QLineEdit *e, const QString &what, std::optional<double> &out) {
        const QString t = e->text().trimmed();
        if (t.isEmpty())
            return true;
        bool ok = false;
        const double v = t.toDouble(&ok);
        if (!ok) {
            showError(tr("The %1 \"%2\" is not a number.").arg(what, t));
            return false;
        }
        out = v;
        return true;
    };
    if (!number(m_rewardMin, tr("minimum reward"), f.rewardMin) || !number(m_rewardMax, tr("maximum reward"), f.rewardMax))
        return false;
    QString message;
    const auto conditions = RolloutCondition::parse(m_condition->text(), m_model->componentNames(), &message);
    if (!conditions) {
        showError(tr("Components: %1").arg(message));
        return false;
    }
    f.components = *conditions;
    if (m_truncated->currentIndex() == 1)
        f.truncated = true;
    else if (m_truncated->currentIndex() == 2)
        f.truncated = false;
    const std::string query = m_search->text().trimmed().toStdString();
    if (m_searchIn->currentIndex() == 0)
        f.completionMatch = query;
    else
        f.promptMatch = query;
    // Across runs: bounded, so that a big store answers at once.
    f.allRuns = m_scope->currentIndex() == AllRuns;
    const int limit = m_model->rowLimit();
    m_model->setRowLimit(f.allRuns ? m_allRunsRows : 0);
    try {
        m_model->setFilter(f);
    } catch (const std::exception &e) {
        m_model->setRowLimit(limit);
        showError(tr("Search: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_table->setColumnHidden(RolloutTableModel::RunColumn, !f.allRuns);
    showError({});
    // Keep the rollout in the detail pane selected when it is still among the rows shown.
    const int row = rowOf(m_currentId);
    if (row >= 0)
        selectRow(row);
    return true;
}

void RolloutBrowser::updateCount()
{
    const int n = m_model->rowCount();
    QString text = n == 1 ? tr("1 rollout shown") : tr("%1 rollouts shown").arg(n);
    if (m_model->limitReached())
        text = tr("first %1 rollouts shown (more match: narrow the filter)").arg(n);
    else if (m_model->filter().allRuns)
        text = n == 1 ? tr("1 rollout of every run shown") : tr("%1 rollouts of every run shown").arg(n);
    if (m_model->canFetchMore({}))
        text += QStringLiteral(" <a href=\"#more\">%1</a>").arg(tr("more…"));
    m_count->setText(text);
    m_previous->setEnabled(n > 0);
    m_next->setEnabled(n > 0);
}

int RolloutBrowser::rowOf(qint64 rolloutId) const
{
    if (rolloutId <= 0)
        return -1;
    // Rows are in id order.
    int lo = 0, hi = m_model->rowCount();
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (m_model->rollout(mid).id < rolloutId)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m_model->rowCount() && m_model->rollout(lo).id == rolloutId ? lo : -1;
}

void RolloutBrowser::selectRow(int row)
{
    const QModelIndex index = m_model->index(row, 0);
    m_selecting = true;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_selecting = false;
    m_table->scrollTo(index);
    const qint64 id = m_model->rollout(row).id;
    if (id != m_currentId)
        showDetail(id);
}

void RolloutBrowser::currentRowChanged(int row)
{
    if (m_selecting || row < 0 || row >= m_model->rowCount())
        return;
    const qint64 id = m_model->rollout(row).id;
    if (id != m_currentId)
        showDetail(id);
}

void RolloutBrowser::showDetail(qint64 rolloutId)
{
    if (!m_store)
        return;
    try {
        m_detail->showRollout(RolloutDetailView::load(*m_store, rolloutId));
    } catch (const std::exception &e) {
        showError(tr("Rollout %1: %2").arg(rolloutId).arg(QString::fromUtf8(e.what())));
        return;
    }
    m_currentId = rolloutId;
    Q_EMIT rolloutSelected(rolloutId);
}

void RolloutBrowser::requestRescore(int scope)
{
    if (!m_store || m_runId == 0)
        return;
    train::RescoreScope s;
    s.filter.runId = m_runId;
    if (scope == RescoreButton::Filtered) {
        s.filter = m_model->filter();
        s.filter.runId = m_runId;
        // A search across runs re-scores this run's part: the config is this run's.
        const bool acrossRuns = std::exchange(s.filter.allRuns, false);
        Q_EMIT rescoreRequested(s, acrossRuns ? tr("the filtered rollouts of this run") : tr("the filtered rollouts"));
        return;
    }
    if (m_currentId == 0) {
        showError(tr("Select a rollout first: its group or step is re-scored."));
        return;
    }
    try {
        const store::StoredRollout r = m_store->rollout(m_currentId);
        if (scope == RescoreButton::Group) {
            s.rolloutIds = {m_currentId}; // a rollout brings its whole group
            Q_EMIT rescoreRequested(s, tr("step %1, group %2").arg(r.step).arg(r.rollout.groupIndex));
        } else {
            s.filter.stepMin = s.filter.stepMax = r.step;
            Q_EMIT rescoreRequested(s, tr("step %1").arg(r.step));
        }
    } catch (const std::exception &e) {
        showError(tr("Rollout %1: %2").arg(m_currentId).arg(QString::fromUtf8(e.what())));
    }
}

void RolloutBrowser::rowActivated(int row)
{
    if (row < 0 || row >= m_model->rowCount() || !m_session)
        return;
    const store::StoredRollout &r = m_model->rollout(row);
    if (r.runId != m_runId)
        Q_EMIT runRequested(m_session->storePath(), r.runId, r.id);
}

void RolloutBrowser::selectRollout(qint64 rolloutId)
{
    int row = rowOf(rolloutId);
    // Rows come in id order: fetch pages until one reaches the id.
    while (row < 0 && m_model->canFetchMore({}) &&
           (m_model->rowCount() == 0 || m_model->rollout(m_model->rowCount() - 1).id < rolloutId)) {
        m_model->fetchMore({});
        row = rowOf(rolloutId);
    }
    if (row >= 0) {
        selectRow(row);
        return;
    }
    // Not in the filtered table: show it all the same, with no row selected.
    m_table->selectionModel()->clearSelection();
    m_selecting = true;
    m_table->selectionModel()->setCurrentIndex({}, QItemSelectionModel::NoUpdate);
    m_selecting = false;
    if (rolloutId != m_currentId)
        showDetail(rolloutId);
}

void RolloutBrowser::refresh()
{
    m_model->poll();
}

void RolloutBrowser::next()
{
    const QModelIndex current = m_table->currentIndex();
    int row = current.isValid() ? current.row() : rowOf(m_currentId);
    const int target = row < 0 ? 0 : row + 1;
    if (target >= m_model->rowCount() && m_model->canFetchMore({}))
        m_model->fetchMore({});
    if (target < m_model->rowCount())
        selectRow(target);
}

void RolloutBrowser::previous()
{
    const QModelIndex current = m_table->currentIndex();
    const int row = current.isValid() ? current.row() : rowOf(m_currentId);
    if (row > 0)
        selectRow(row - 1);
}

bool RolloutBrowser::eventFilter(QObject *watched, QEvent *event)
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
