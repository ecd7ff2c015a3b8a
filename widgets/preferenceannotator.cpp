#include "preferenceannotator.h"

#include "agreementmatrixmodel.h"
#include "pairqueuemodel.h"
#include "rewardhtml.h"
#include "stepdiff.h"

#include "prm/agreement.h"
#include "store/runstore.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QShortcut>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace rwb::widgets {

namespace {

QString num(double v, int decimals = 2)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
}

} // namespace

PreferenceAnnotator::PreferenceAnnotator(QWidget *parent) : QWidget(parent)
{
    m_queue = new PairQueueModel(this);
    m_filter = new PairQueueFilter(this);
    m_filter->setSourceModel(m_queue);
    m_filter->setSortRole(Qt::DisplayRole);
    m_matrix = new AgreementMatrixModel(this);
    buildUi();
    retranslate();
    render();
}

PreferenceAnnotator::~PreferenceAnnotator() = default;

void PreferenceAnnotator::buildUi()
{
    auto *root = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setStyleSheet(QStringLiteral("font-weight:600"));
    m_annotatorLabel = new QLabel(this);
    m_changeAnnotator = new QPushButton(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(false);
    m_progressLabel = new QLabel(this);
    top->addWidget(m_title);
    top->addStretch(1);
    top->addWidget(m_annotatorLabel);
    top->addWidget(m_changeAnnotator);
    top->addSpacing(12);
    top->addWidget(m_progress);
    top->addWidget(m_progressLabel);
    root->addLayout(top);
    m_error = new QLabel(this);
    m_error->setStyleSheet(QStringLiteral("color:#b03020"));
    m_error->setWordWrap(true);
    m_error->hide();
    root->addWidget(m_error);

    auto *split = new QSplitter(Qt::Horizontal, this);
    m_split = split;
    root->addWidget(split, 1);

    // The queue.
    auto *left = new QWidget(split);
    auto *ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    auto *filters = new QHBoxLayout;
    m_mode = new QComboBox(left);
    m_mode->addItems({QString(), QString(), QString()});
    m_questionFilter = new QLineEdit(left);
    m_questionFilter->setClearButtonEnabled(true);
    filters->addWidget(m_mode);
    filters->addWidget(m_questionFilter, 1);
    ll->addLayout(filters);
    auto *raters = new QHBoxLayout;
    m_raterFilter = new QLabel(left);
    m_raterFilter->setWordWrap(true);
    m_clearRaters = new QToolButton(left);
    raters->addWidget(m_raterFilter, 1);
    raters->addWidget(m_clearRaters);
    m_raterFilter->hide();
    m_clearRaters->hide();
    ll->addLayout(raters);
    m_queueView = new QTableView(left);
    m_queueView->setModel(m_filter);
    m_queueView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_queueView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_queueView->setSortingEnabled(true);
    m_queueView->sortByColumn(PairQueueModel::IdColumn, Qt::AscendingOrder);
    m_queueView->verticalHeader()->hide();
    m_queueView->horizontalHeader()->setStretchLastSection(true);
    m_queueView->setColumnWidth(PairQueueModel::IdColumn, 46);
    m_queueView->setColumnWidth(PairQueueModel::QuestionColumn, 130);
    for (int c : {PairQueueModel::StepColumn, PairQueueModel::TreeColumn, PairQueueModel::JudgeColumn,
                  PairQueueModel::MineColumn, PairQueueModel::PeopleColumn})
        m_queueView->setColumnWidth(c, 46);
    ll->addWidget(m_queueView, 1);

    // The pair.
    auto *centre = new QWidget(split);
    auto *cl = new QVBoxLayout(centre);
    cl->setContentsMargins(0, 0, 0, 0);
    m_question = new QLabel(centre);
    m_question->setWordWrap(true);
    m_question->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_question->setStyleSheet(QStringLiteral("font-size:15px;font-weight:600;padding:4px"));
    cl->addWidget(m_question);
    m_historyToggle = new QToolButton(centre);
    m_historyToggle->setCheckable(true);
    m_historyToggle->setChecked(true);
    m_historyToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_historyToggle->setAutoRaise(true);
    cl->addWidget(m_historyToggle);
    m_history = new QTextBrowser(centre);
    m_history->setMaximumHeight(180);
    cl->addWidget(m_history);
    connect(m_historyToggle, &QToolButton::toggled, this, [this](bool on) {
        m_history->setVisible(on);
        m_historyToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    m_historyToggle->setArrowType(Qt::DownArrow);
    auto *steps = new QSplitter(Qt::Horizontal, centre);
    for (int side = 0; side < 2; ++side) {
        auto *box = new QWidget(steps);
        auto *bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        QLabel *&title = side == 0 ? m_stepATitle : m_stepBTitle;
        QTextBrowser *&browser = side == 0 ? m_stepA : m_stepB;
        title = new QLabel(box);
        title->setStyleSheet(QStringLiteral("font-weight:600;padding:2px"));
        title->setWordWrap(true);
        browser = new QTextBrowser(box);
        bl->addWidget(title);
        bl->addWidget(browser, 1);
    }
    cl->addWidget(steps, 1);
    m_others = new QLabel(centre);
    m_others->setWordWrap(true);
    m_others->setTextFormat(Qt::RichText);
    cl->addWidget(m_others);
    auto *keys = new QHBoxLayout;
    for (int i = 0; i < 7; ++i) {
        m_buttons[i] = new QPushButton(centre);
        m_buttons[i]->setFocusPolicy(Qt::NoFocus);
        keys->addWidget(m_buttons[i]);
        if (i == 3)
            keys->addSpacing(16);
    }
    cl->addLayout(keys);
    m_reason = new QLineEdit(centre);
    m_reason->setClearButtonEnabled(true);
    cl->addWidget(m_reason);
    m_keysHint = new QLabel(centre);
    m_keysHint->setStyleSheet(QStringLiteral("color:#666"));
    m_keysHint->setWordWrap(true); // lets the pair give width to the agreement matrix
    cl->addWidget(m_keysHint);

    // Agreement and guidelines.
    auto *tabs = new QTabWidget(split);
    m_rightTabs = tabs;
    auto *agreement = new QWidget(tabs);
    auto *al = new QVBoxLayout(agreement);
    m_matrixView = new QTableView(agreement);
    m_matrixView->setModel(m_matrix);
    m_matrixView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_matrixView->setWordWrap(true);
    al->addWidget(m_matrixView, 1);
    m_alpha = new QLabel(agreement);
    m_alpha->setWordWrap(true);
    al->addWidget(m_alpha);
    m_matrixHint = new QLabel(agreement);
    m_matrixHint->setWordWrap(true);
    m_matrixHint->setStyleSheet(QStringLiteral("color:#666"));
    al->addWidget(m_matrixHint);
    tabs->addTab(agreement, QString());
    auto *guide = new QWidget(tabs);
    auto *gl = new QVBoxLayout(guide);
    m_guidelines = new QPlainTextEdit(guide);
    gl->addWidget(m_guidelines, 1);
    auto *gb = new QHBoxLayout;
    m_guidelinesStatus = new QLabel(guide);
    m_guidelinesStatus->setWordWrap(true);
    m_saveGuidelines = new QPushButton(guide);
    gb->addWidget(m_guidelinesStatus, 1);
    gb->addWidget(m_saveGuidelines);
    gl->addLayout(gb);
    tabs->addTab(guide, QString());

    // The queue and the matrix keep their width; the pair takes the rest.
    left->setMinimumWidth(400);
    tabs->setMinimumWidth(400);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 0);
    split->setSizes({440, 720, 440});

    connect(m_queueView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PreferenceAnnotator::currentRowChanged);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_filter->setMode(static_cast<PairQueueFilter::Mode>(i));
        if (currentProxyRow() < 0)
            selectProxyRow(0);
    });
    connect(m_questionFilter, &QLineEdit::textChanged, this, [this](const QString &t) {
        m_filter->setQuestionText(t);
        if (currentProxyRow() < 0)
            selectProxyRow(0);
    });
    connect(m_clearRaters, &QToolButton::clicked, this, &PreferenceAnnotator::clearRaterFilter);
    connect(m_matrixView, &QTableView::clicked, this,
            [this](const QModelIndex &i) { filterByRaters(i.row(), i.column()); });
    connect(m_changeAnnotator, &QPushButton::clicked, this, &PreferenceAnnotator::chooseAnnotator);
    connect(m_saveGuidelines, &QPushButton::clicked, this, &PreferenceAnnotator::saveGuidelines);
    connect(m_guidelines, &QPlainTextEdit::modificationChanged, this, [this](bool changed) {
        m_saveGuidelines->setEnabled(changed);
    });
    connect(m_reason, &QLineEdit::returnPressed, this, [this] { m_stepA->setFocus(); });
    const auto choice = [this](prm::Choice c) { return [this, c] { label(c); }; };
    connect(m_buttons[0], &QPushButton::clicked, this, choice(prm::Choice::A));
    connect(m_buttons[1], &QPushButton::clicked, this, choice(prm::Choice::B));
    connect(m_buttons[2], &QPushButton::clicked, this, choice(prm::Choice::Tie));
    connect(m_buttons[3], &QPushButton::clicked, this, choice(prm::Choice::Skip));
    connect(m_buttons[4], &QPushButton::clicked, this, &PreferenceAnnotator::undo);
    connect(m_buttons[5], &QPushButton::clicked, this, &PreferenceAnnotator::previous);
    connect(m_buttons[6], &QPushButton::clicked, this, &PreferenceAnnotator::next);

    // The keys, anywhere in the view but a text field (a line edit keeps its letters and
    // arrows: it takes the shortcut-override event for them).
    const auto shortcut = [this](const QKeySequence &keys, auto slot) {
        auto *s = new QShortcut(keys, this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    shortcut(QKeySequence(Qt::Key_A), choice(prm::Choice::A));
    shortcut(QKeySequence(Qt::Key_B), choice(prm::Choice::B));
    shortcut(QKeySequence(Qt::Key_T), choice(prm::Choice::Tie));
    shortcut(QKeySequence(Qt::Key_S), choice(prm::Choice::Skip));
    shortcut(QKeySequence(Qt::Key_U), [this] { undo(); });
    shortcut(QKeySequence(Qt::Key_Left), [this] { previous(); });
    shortcut(QKeySequence(Qt::Key_Right), [this] { next(); });
    shortcut(QKeySequence(Qt::Key_R), [this] { m_reason->setFocus(); });
}

void PreferenceAnnotator::retranslate()
{
    m_changeAnnotator->setText(tr("Change…"));
    const QStringList modes{tr("All pairs"), tr("Unlabelled by you"), tr("Disagreements")};
    for (int i = 0; i < modes.size(); ++i)
        m_mode->setItemText(i, modes[i]);
    m_questionFilter->setPlaceholderText(tr("Filter by question"));
    m_clearRaters->setText(tr("Clear"));
    m_reason->setPlaceholderText(tr("Reason (optional; R to type, Enter to go back to the keys)"));
    const QString texts[] = {tr("A is better (A)"), tr("B is better (B)"), tr("Tie (T)"), tr("Skip (S)"),
                             tr("Undo (U)"),        tr("← Previous"),      tr("Next →")};
    for (int i = 0; i < 7; ++i)
        m_buttons[i]->setText(texts[i]);
    m_keysHint->setText(tr("Which step is the better next step for answering the question, given the history? "
                           "Judge the reasoning, not the length. Marked characters differ between the two steps."));
    auto *tabs = static_cast<QTabWidget *>(m_rightTabs);
    tabs->setTabText(0, tr("Agreement"));
    tabs->setTabText(1, tr("Guidelines"));
    m_matrixHint->setText(tr("Each cell: the share of the pairs both raters labelled with the same label, Cohen's κ "
                             "and the pairs. Click a cell to list the pairs those two disagree on."));
    m_saveGuidelines->setText(tr("Save guidelines"));
    render();
    updateProgress();
    updateAgreement();
}

void PreferenceAnnotator::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void PreferenceAnnotator::showError(const QString &message)
{
    m_error->setText(message);
    m_error->setVisible(!message.isEmpty());
}

bool PreferenceAnnotator::open(const QString &storePath, const QString &set, QString *error)
{
    QString why;
    std::shared_ptr<StoreDocument> document = StoreDocument::open(storePath, &why);
    if (!document) {
        showError(why);
        if (error)
            *error = why;
        return false;
    }
    return open(std::move(document), set, error);
}

bool PreferenceAnnotator::open(std::shared_ptr<StoreDocument> document, const QString &set, QString *error)
{
    const QString storePath = document->path();
    try {
        // Read-write to label; a store this user cannot write is still shown, read-only.
        QString readOnlyWhy;
        try {
            document->writable();
        } catch (const std::exception &e) {
            readOnlyWhy = QString::fromUtf8(e.what());
        }
        const store::RunStore *s = &document->store();
        std::string name = set.toStdString();
        if (name.empty()) {
            const auto sets = s->pairSets();
            if (sets.empty())
                throw std::runtime_error(
                    tr("%1 has no preference pairs yet (rwb prm pairs makes them from a tree search run).")
                        .arg(storePath)
                        .toStdString());
            name = sets.front().name;
        }
        std::vector<prm::StepPair> pairs = s->pairs(name);
        if (pairs.empty())
            throw std::runtime_error(tr("%1 has no pair set \"%2\".").arg(storePath, QString::fromStdString(name)).toStdString());
        const std::vector<prm::Label> labels = s->labels(name);
        m_document = std::move(document);
        m_set = QString::fromStdString(name);
        m_undo.clear();
        m_pairId = -1;
        m_queue->setPairs(std::move(pairs), labels);
        m_guidelinesPath = QFileInfo(storePath).absoluteDir().filePath(QStringLiteral("annotation-guidelines.md"));
        loadGuidelines();
        m_readOnly = !readOnlyWhy.isEmpty();
        showError(m_readOnly ? tr("Opened read-only, labels cannot be saved: %1").arg(readOnlyWhy) : QString());
        updateProgress();
        updateAgreement();
        selectProxyRow(0);
        render();
        return true;
    } catch (const std::exception &e) {
        const QString message = QString::fromUtf8(e.what());
        showError(message);
        if (error)
            *error = message;
        return false;
    }
}

QStringList PreferenceAnnotator::sets() const
{
    QStringList out;
    if (m_document)
        for (const auto &s : m_document->store().pairSets())
            out << QString::fromStdString(s.name);
    return out;
}

void PreferenceAnnotator::setAnnotator(const QString &name)
{
    m_queue->setAnnotator(name.trimmed());
    m_filter->invalidate();
    updateProgress();
    render();
}

QString PreferenceAnnotator::annotator() const { return m_queue->annotator(); }

bool PreferenceAnnotator::chooseAnnotator()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Annotator"),
                                               tr("Your name (your labels are stored under it, beside other people's):"),
                                               QLineEdit::Normal, annotator(), &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return false;
    setAnnotator(name);
    return true;
}

int PreferenceAnnotator::currentProxyRow() const
{
    const QModelIndex i = m_queueView->selectionModel()->currentIndex();
    return i.isValid() ? i.row() : -1;
}

void PreferenceAnnotator::selectProxyRow(int row)
{
    const int n = m_filter->rowCount();
    if (n == 0) {
        m_queueView->selectionModel()->clearCurrentIndex();
        m_queueView->clearSelection();
        m_pairId = -1;
        render();
        return;
    }
    row = std::clamp(row, 0, n - 1);
    const QModelIndex i = m_filter->index(row, PairQueueModel::IdColumn);
    m_queueView->selectionModel()->setCurrentIndex(i, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_queueView->scrollTo(i);
    currentRowChanged();
}

void PreferenceAnnotator::currentRowChanged()
{
    const int row = currentProxyRow();
    const qint64 id = row < 0 ? -1 : m_filter->index(row, 0).data(PairQueueModel::PairIdRole).toLongLong();
    if (id != m_pairId) {
        m_pairId = id;
        const prm::Label *mine = id >= 0 ? m_queue->mine(id) : nullptr;
        m_reason->setText(mine ? QString::fromStdString(mine->reason) : QString());
    }
    render();
}

bool PreferenceAnnotator::showPair(qint64 pairId)
{
    const int source = m_queue->rowOf(pairId);
    if (source < 0)
        return false;
    QModelIndex i = m_filter->mapFromSource(m_queue->index(source, 0));
    if (!i.isValid()) {
        m_mode->setCurrentIndex(0);
        m_questionFilter->clear();
        clearRaterFilter();
        i = m_filter->mapFromSource(m_queue->index(source, 0));
    }
    selectProxyRow(i.row());
    return true;
}

void PreferenceAnnotator::render()
{
    const int source = m_pairId >= 0 ? m_queue->rowOf(m_pairId) : -1;
    m_title->setText(m_set.isEmpty() ? tr("Preference pairs") : tr("Preference pairs — %1").arg(m_set));
    m_annotatorLabel->setText(annotator().isEmpty() ? tr("Annotator: (none chosen)")
                                                    : tr("Annotator: %1").arg(annotator()));
    for (QPushButton *b : m_buttons)
        b->setEnabled(source >= 0);
    for (int i = 0; i < 4; ++i)
        m_buttons[i]->setEnabled(source >= 0 && !m_readOnly);
    m_buttons[4]->setEnabled(!m_undo.empty() && !m_readOnly);
    if (source < 0) {
        m_question->setText(m_set.isEmpty() ? tr("Open a run store's pair set to annotate it.")
                                            : tr("No pair in the queue with these filters."));
        m_history->clear();
        m_stepA->clear();
        m_stepB->clear();
        m_others->clear();
        m_stepATitle->setText(tr("Step A"));
        m_stepBTitle->setText(tr("Step B"));
        m_historyToggle->setText(tr("History"));
        return;
    }
    const prm::StepPair &p = m_queue->pair(source);
    m_question->setText(tr("Pair %1 · question %2: %3")
                            .arg(p.id)
                            .arg(QString::fromStdString(p.questionId), QString::fromStdString(p.question)));
    m_historyToggle->setText(tr("History: %n step(s) before", nullptr, static_cast<int>(p.history.size())));
    QString history;
    for (size_t i = 0; i < p.history.size(); ++i)
        history += QStringLiteral("<p style=\"margin:6px 0 0 0;color:#444\"><b>%1</b></p>").arg(tr("Step %1").arg(i + 1)) +
                   stepBlockHtml(p.history[i], {}, false);
    if (p.history.empty())
        history = QStringLiteral("<p style=\"color:#666\">%1</p>").arg(tr("None: the steps compared are the first."));
    m_history->setHtml(history);
    m_stepA->setHtml(stepBlockHtml(p.stepA, p.stepB, true));
    m_stepB->setHtml(stepBlockHtml(p.stepB, p.stepA, true));
    const prm::Label *mine = m_queue->mine(p.id);
    const auto title = [&](const QString &name, prm::Choice side, double q, int n) {
        QString t = name;
        if (n > 0)
            t += QStringLiteral("  ·  ") + tr("Q %1, N %2 in the tree").arg(num(q, 3)).arg(n);
        if (mine && mine->choice == side)
            t += QStringLiteral("  ·  ") + tr("your choice");
        return t;
    };
    m_stepATitle->setText(title(tr("Step A"), prm::Choice::A, p.valueA, p.visitsA));
    m_stepBTitle->setText(title(tr("Step B"), prm::Choice::B, p.valueB, p.visitsB));
    for (QLabel *t : {m_stepATitle, m_stepBTitle})
        t->setStyleSheet(QStringLiteral("font-weight:600;padding:2px"));
    if (mine && (mine->choice == prm::Choice::A || mine->choice == prm::Choice::B))
        (mine->choice == prm::Choice::A ? m_stepATitle : m_stepBTitle)
            ->setStyleSheet(QStringLiteral("font-weight:600;padding:2px;background:#c8e6c9"));
    QStringList others;
    for (const prm::Label &l : m_queue->labelsOf(p.id)) {
        QString who = AgreementMatrixModel::displayName(QString::fromStdString(prm::raterName(l)));
        if (l.source == prm::Source::Human && l.annotator == annotator().toStdString())
            who = tr("you");
        QString line = QStringLiteral("<b>%1</b>: %2").arg(RewardHtml::escape(who), PairQueueModel::choiceText(l.choice));
        if (!l.reason.empty())
            line += QStringLiteral(" — <i>%1</i>").arg(RewardHtml::escape(QString::fromStdString(l.reason)));
        others << line;
    }
    m_others->setText(others.isEmpty() ? tr("No label yet.") : tr("Labels: %1").arg(others.join(QStringLiteral(" · "))));
}

void PreferenceAnnotator::updateProgress()
{
    const int total = static_cast<int>(m_queue->pairs().size());
    const int done = m_queue->labelledByMe();
    m_progress->setRange(0, std::max(1, total));
    m_progress->setValue(done);
    m_progressLabel->setText(annotator().isEmpty() ? tr("%n pair(s)", nullptr, total)
                                                   : tr("%1 of %2 labelled by you").arg(done).arg(total));
}

void PreferenceAnnotator::updateAgreement()
{
    m_matrix->setTable(prm::agreementTable(m_queue->allLabels()));
    m_matrixView->resizeRowsToContents();
    m_matrixView->resizeColumnsToContents();
    fitAgreementPane();
    const prm::AgreementTable &t = m_matrix->table();
    m_alpha->setText(tr("Krippendorff's α: among the people %1 (%2 pairs labelled by two or more), among every rater "
                        "%3 (%4 pairs).")
                         .arg(num(t.alphaHumans, 3))
                         .arg(t.humanUnits)
                         .arg(num(t.alphaAll, 3))
                         .arg(t.allUnits));
}

void PreferenceAnnotator::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    // After the first layout: the splitter's and the matrix's sizes are real only then.
    QTimer::singleShot(0, this, [this] {
        m_matrixView->resizeColumnsToContents();
        fitAgreementPane();
    });
}

void PreferenceAnnotator::fitAgreementPane()
{
    // Grow the right-hand pane (once per new rater) until the whole matrix shows, taking
    // the width from the pair in the middle, never below half of it.
    if (!m_split || m_split->count() < 3 || !isVisible())
        return;
    const QHeaderView *vh = m_matrixView->verticalHeader();
    const int want = vh->width() + m_matrixView->horizontalHeader()->length() + 2 * m_matrixView->frameWidth() +
                     m_matrixView->verticalScrollBar()->sizeHint().width() + 24;
    QList<int> sizes = m_split->sizes();
    if (sizes.at(2) >= want)
        return;
    const int give = std::min(want - sizes.at(2), sizes.at(1) / 2);
    if (give <= 0)
        return;
    sizes[1] -= give;
    sizes[2] += give;
    m_split->setSizes(sizes);
}

bool PreferenceAnnotator::write(const prm::Label &label)
{
    try {
        std::vector<prm::Label> ls{label};
        m_document->writable().setLabels(ls);
        m_queue->setLabel(ls.front());
        showError({});
        return true;
    } catch (const std::exception &e) {
        showError(tr("The label was not saved: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

void PreferenceAnnotator::label(prm::Choice choice)
{
    if (m_pairId < 0 || !m_document || m_readOnly)
        return;
    if (annotator().isEmpty() && !chooseAnnotator()) {
        showError(tr("Choose your name first: labels are stored under it."));
        return;
    }
    const int row = currentProxyRow();
    // The pair to go on to, noted before the write: a sorted queue may move the labelled row.
    const qint64 nextPair = row + 1 < m_filter->rowCount()
                                ? m_filter->index(row + 1, 0).data(PairQueueModel::PairIdRole).toLongLong()
                                : -1;
    const prm::Label *before = m_queue->mine(m_pairId);
    UndoEntry undo{m_pairId, annotator().toStdString(), before ? std::optional<prm::Label>(*before) : std::nullopt};
    prm::Label l;
    l.pairId = m_pairId;
    l.source = prm::Source::Human;
    l.annotator = annotator().toStdString();
    l.choice = choice;
    l.reason = m_reason->text().trimmed().toStdString();
    const qint64 labelledPair = m_pairId;
    if (!write(l))
        return;
    m_undo.push_back(std::move(undo));
    m_reason->clear();
    updateProgress();
    updateAgreement();
    // On to the pair that followed it in the queue (when the filter took the labelled
    // pair away, that pair now sits at its row).
    const int nextRow = nextPair >= 0 ? m_filter->mapFromSource(m_queue->index(m_queue->rowOf(nextPair), 0)).row() : -1;
    if (nextRow >= 0)
        selectProxyRow(nextRow);
    else
        selectProxyRow(m_filter->mapFromSource(m_queue->index(m_queue->rowOf(labelledPair), 0)).isValid() ? row + 1 : row);
    Q_EMIT labelled(labelledPair);
}

void PreferenceAnnotator::undo()
{
    if (m_undo.empty() || !m_document || m_readOnly)
        return;
    const UndoEntry e = m_undo.back();
    try {
        const std::string &me = e.annotator; // whose label it was, whoever annotates now
        if (e.previous) {
            std::vector<prm::Label> ls{*e.previous};
            m_document->writable().setLabels(ls);
            m_queue->setLabel(ls.front());
        } else {
            m_document->writable().removeLabel(e.pairId, prm::Source::Human, me);
            m_queue->removeLabel(e.pairId, prm::Source::Human, me);
        }
    } catch (const std::exception &ex) {
        showError(tr("The label could not be undone: %1").arg(QString::fromUtf8(ex.what())));
        return;
    }
    m_undo.pop_back();
    updateProgress();
    updateAgreement();
    showPair(e.pairId);
    const prm::Label *mine = m_queue->mine(e.pairId);
    m_reason->setText(mine ? QString::fromStdString(mine->reason) : QString());
    render();
}

void PreferenceAnnotator::next() { selectProxyRow(currentProxyRow() + 1); }

void PreferenceAnnotator::previous() { selectProxyRow(std::max(0, currentProxyRow() - 1)); }

void PreferenceAnnotator::filterByRaters(int i, int j)
{
    if (i == j || i < 0 || j < 0) {
        clearRaterFilter();
        return;
    }
    const QString a = m_matrix->rater(i), b = m_matrix->rater(j);
    m_filter->setRaters(a, b);
    m_raterFilter->setText(tr("Pairs where %1 and %2 disagree")
                               .arg(AgreementMatrixModel::displayName(a), AgreementMatrixModel::displayName(b)));
    m_raterFilter->show();
    m_clearRaters->show();
    selectProxyRow(0);
}

void PreferenceAnnotator::clearRaterFilter()
{
    m_filter->setRaters({}, {});
    m_raterFilter->clear();
    m_raterFilter->hide();
    m_clearRaters->hide();
    if (currentProxyRow() < 0)
        selectProxyRow(0);
}

void PreferenceAnnotator::loadGuidelines()
{
    QFile f(m_guidelinesPath);
    if (f.open(QIODevice::ReadOnly)) {
        m_guidelines->setPlainText(QString::fromUtf8(f.readAll()));
        m_guidelinesStatus->setText(tr("From %1").arg(QDir::toNativeSeparators(m_guidelinesPath)));
    } else {
        m_guidelines->setPlainText(
            tr("# Guidelines for step preferences\n\n"
               "Prefer the step that moves the answer forward correctly given the history:\n\n"
               "- The sub-query asks for what the question needs next (the right entity and relation).\n"
               "- The sub-answer says what the retrieved passages say — a name or number that is not in them is an "
               "error, however plausible.\n"
               "- A final answer must follow from what was found.\n"
               "- Length and wording do not matter; correctness does.\n\n"
               "Tie: both steps are equally right or equally wrong. Skip: you cannot tell without more context.\n"));
        m_guidelinesStatus->setText(tr("Not saved yet: Save writes %1").arg(QDir::toNativeSeparators(m_guidelinesPath)));
    }
    m_guidelines->document()->setModified(false);
    m_saveGuidelines->setEnabled(false);
}

bool PreferenceAnnotator::saveGuidelines()
{
    if (m_guidelinesPath.isEmpty())
        return false;
    QSaveFile f(m_guidelinesPath);
    if (!f.open(QIODevice::WriteOnly) || f.write(m_guidelines->toPlainText().toUtf8()) < 0 || !f.commit()) {
        showError(tr("The guidelines were not saved to %1: %2").arg(m_guidelinesPath, f.errorString()));
        return false;
    }
    m_guidelines->document()->setModified(false);
    m_guidelinesStatus->setText(tr("Saved to %1").arg(QDir::toNativeSeparators(m_guidelinesPath)));
    return true;
}

} // namespace rwb::widgets
