#include "mctsviewer.h"

#include "train/processrewardmodel.h"

#include "mctsnodedetail.h"
#include "mctssiblingsview.h"
#include "mctstreefilter.h"
#include "mctstreelistmodel.h"
#include "mctstreesource.h"

#include <QAction>
#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QShortcut>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rwb::widgets {

namespace {

// Follow polls the source this often.
constexpr int kPollMs = 1000;
// The search runs this long after the last keystroke (Enter runs it at once).
constexpr int kSearchDebounceMs = 200;
// Jumping to a match zooms in to at least this scale (a match a pixel wide helps no one).
constexpr double kMatchZoom = 1.0;
// Initial widths of the list's columns, in average character widths.
constexpr int kColumnChars[] = {12, 28, 5, 14, 6, 6, 6, 6, 6};

QString pathText(const std::vector<int> &path)
{
    QStringList parts;
    for (int id : path)
        parts << QString::number(id);
    return parts.join(QStringLiteral(" → "));
}

QString idList(const std::vector<int> &ids)
{
    QStringList parts;
    for (int id : ids)
        parts << QStringLiteral("#%1").arg(id);
    return parts.join(QStringLiteral(", "));
}

} // namespace

MctsViewer::MctsViewer(QWidget *parent) : QWidget(parent)
{
    m_model = new MctsTreeListModel(this);
    m_filter = new MctsTreeFilter(this);
    m_filter->setSourceModel(m_model);
    buildUi();
    retranslate();
}

MctsViewer::~MctsViewer() = default;

void MctsViewer::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("mctsError"));
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);

    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("mctsSplitter"));

    // Left: the trees.
    auto *left = new QWidget(m_splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    m_filterEdit = new QLineEdit(left);
    m_filterEdit->setObjectName(QStringLiteral("mctsTreeFilter"));
    m_filterEdit->setClearButtonEnabled(true);
    m_wrongOnly = new QCheckBox(left);
    m_wrongOnly->setObjectName(QStringLiteral("mctsWrongOnly"));
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_wrongOnly);
    leftLayout->addLayout(filterRow);
    m_problems = new QLabel(left);
    m_problems->setObjectName(QStringLiteral("mctsProblems"));
    m_problems->setStyleSheet(QStringLiteral("color: #8a5a00"));
    m_problems->setWordWrap(true);
    m_problems->hide();
    leftLayout->addWidget(m_problems);
    m_table = new QTableView(left);
    m_table->setObjectName(QStringLiteral("mctsTreeTable"));
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSortIndicatorClearable(true);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->setSortingEnabled(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    for (int c = 0; c < MctsTreeListModel::ColumnCount; ++c)
        m_table->setColumnWidth(c, fontMetrics().averageCharWidth() * kColumnChars[c]);
    leftLayout->addWidget(m_table, 1);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { currentRowChanged(); });

    // Right: the question, the replay, the tree, the node.
    auto *right = new QWidget(m_splitter);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(3);
    m_question = new QLabel(right);
    m_question->setObjectName(QStringLiteral("mctsQuestion"));
    m_question->setWordWrap(true);
    m_question->setTextFormat(Qt::RichText);
    m_question->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rightLayout->addWidget(m_question);

    auto *replay = new QHBoxLayout;
    const auto button = [right](const QString &name, const QString &text) {
        auto *b = new QToolButton(right);
        b->setObjectName(name);
        b->setText(text);
        b->setAutoRaise(true);
        return b;
    };
    // The style's media icons: the ⏮ ⏭ glyphs are missing from many fonts.
    const auto iconButton = [&](const QString &name, QStyle::StandardPixmap icon) {
        QToolButton *b = button(name, QString());
        b->setIcon(style()->standardIcon(icon));
        return b;
    };
    m_first = iconButton(QStringLiteral("mctsFirstIteration"), QStyle::SP_MediaSkipBackward);
    m_previous = iconButton(QStringLiteral("mctsPreviousIteration"), QStyle::SP_MediaSeekBackward);
    m_next = iconButton(QStringLiteral("mctsNextIteration"), QStyle::SP_MediaSeekForward);
    m_last = iconButton(QStringLiteral("mctsLastIteration"), QStyle::SP_MediaSkipForward);
    m_slider = new QSlider(Qt::Horizontal, right);
    m_slider->setObjectName(QStringLiteral("mctsIterationSlider"));
    m_slider->setRange(0, 0);
    m_slider->setPageStep(10);
    m_iterationLabel = new QLabel(right);
    m_iterationLabel->setObjectName(QStringLiteral("mctsIterationLabel"));
    m_iterationLabel->setMinimumWidth(fontMetrics().averageCharWidth() * 22);
    m_follow = new QCheckBox(right);
    m_follow->setObjectName(QStringLiteral("mctsFollow"));
    replay->addWidget(m_first);
    replay->addWidget(m_previous);
    replay->addWidget(m_slider, 1);
    replay->addWidget(m_next);
    replay->addWidget(m_last);
    replay->addWidget(m_iterationLabel);
    replay->addWidget(m_follow);
    rightLayout->addLayout(replay);
    m_info = new QLabel(right);
    m_info->setObjectName(QStringLiteral("mctsIterationInfo"));
    m_info->setWordWrap(true);
    m_info->setTextFormat(Qt::PlainText);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rightLayout->addWidget(m_info);

    auto *tools = new QHBoxLayout;
    m_search = new QLineEdit(right);
    m_search->setObjectName(QStringLiteral("mctsNodeSearch"));
    m_search->setClearButtonEnabled(true);
    m_searchCount = new QLabel(right);
    m_searchCount->setObjectName(QStringLiteral("mctsSearchCount"));
    m_zoomOut = button(QStringLiteral("mctsZoomOut"), QStringLiteral("−"));
    m_zoomIn = button(QStringLiteral("mctsZoomIn"), QStringLiteral("+"));
    m_fit = button(QStringLiteral("mctsFit"), QString());
    m_export = button(QStringLiteral("mctsExport"), QString());
    m_export->setPopupMode(QToolButton::InstantPopup);
    auto *exportMenu = new QMenu(m_export);
    m_exportVisiblePng = exportMenu->addAction(QString());
    m_exportWholePng = exportMenu->addAction(QString());
    m_exportVisibleSvg = exportMenu->addAction(QString());
    m_exportWholeSvg = exportMenu->addAction(QString());
    m_export->setMenu(exportMenu);
    tools->addWidget(m_search, 1);
    tools->addWidget(m_searchCount);
    tools->addSpacing(12);
    tools->addWidget(m_zoomOut);
    tools->addWidget(m_zoomIn);
    tools->addWidget(m_fit);
    tools->addWidget(m_export);
    m_prmButton = button(QStringLiteral("mctsPrm"), QString());
    tools->addWidget(m_prmButton);
    rightLayout->addLayout(tools);

    auto *vertical = new QSplitter(Qt::Vertical, right);
    vertical->setObjectName(QStringLiteral("mctsTreeSplitter"));
    auto *horizontal = new QSplitter(Qt::Horizontal, vertical);
    m_view = new MctsTreeView(horizontal);
    m_view->setObjectName(QStringLiteral("mctsTreeView"));
    m_detail = new MctsNodeDetail(horizontal);
    m_detail->setObjectName(QStringLiteral("mctsNodeDetail"));
    horizontal->addWidget(m_view);
    horizontal->addWidget(m_detail);
    horizontal->setStretchFactor(0, 3);
    horizontal->setStretchFactor(1, 2);
    // The split by the stretch factors from the start (the size hints would give the
    // text browser nearly all of it); setSizes scales these to the room there is.
    horizontal->setSizes({600, 400});
    m_siblings = new MctsSiblingsView(vertical);
    m_siblings->setObjectName(QStringLiteral("mctsSiblings"));
    vertical->addWidget(horizontal);
    vertical->addWidget(m_siblings);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({600, 200});
    rightLayout->addWidget(vertical, 1);

    m_splitter->addWidget(left);
    m_splitter->addWidget(right);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 4);
    m_splitter->setSizes({300, 1200});
    layout->addWidget(m_splitter, 1);

    m_poll = new QTimer(this);
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &MctsViewer::refresh);
    m_searchDebounce = new QTimer(this);
    m_searchDebounce->setSingleShot(true);
    m_searchDebounce->setInterval(kSearchDebounceMs);
    connect(m_searchDebounce, &QTimer::timeout, this, &MctsViewer::runSearch);

    connect(m_filterEdit, &QLineEdit::textChanged, m_filter, &MctsTreeFilter::setText);
    connect(m_wrongOnly, &QCheckBox::toggled, m_filter, &MctsTreeFilter::setWrongOnly);
    connect(m_slider, &QSlider::valueChanged, this, &MctsViewer::setIteration);
    connect(m_first, &QToolButton::clicked, this, [this] { setIteration(0); });
    connect(m_previous, &QToolButton::clicked, this, [this] { stepIteration(-1); });
    connect(m_next, &QToolButton::clicked, this, [this] { stepIteration(1); });
    connect(m_last, &QToolButton::clicked, this, [this] { setIteration(m_view->iterationCount()); });
    connect(m_follow, &QCheckBox::toggled, this, &MctsViewer::setFollow);
    connect(m_search, &QLineEdit::textEdited, m_searchDebounce, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_searchDebounce->isActive()) {
            m_searchDebounce->stop();
            runSearch();
        }
        findNext();
    });
    connect(m_zoomOut, &QToolButton::clicked, m_view, &MctsTreeView::zoomOut);
    connect(m_zoomIn, &QToolButton::clicked, m_view, &MctsTreeView::zoomIn);
    connect(m_fit, &QToolButton::clicked, m_view, &MctsTreeView::zoomToFit);
    connect(m_prmButton, &QToolButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("A process reward model's folder"), m_prmFolder);
        QString error;
        setProcessRewardModel(folder, &error); // the red line says what went wrong
    });
    connect(m_exportVisiblePng, &QAction::triggered, this, [this] { exportDialog(MctsTreeView::ExportScope::Visible, false); });
    connect(m_exportWholePng, &QAction::triggered, this, [this] { exportDialog(MctsTreeView::ExportScope::Whole, false); });
    connect(m_exportVisibleSvg, &QAction::triggered, this, [this] { exportDialog(MctsTreeView::ExportScope::Visible, true); });
    connect(m_exportWholeSvg, &QAction::triggered, this, [this] { exportDialog(MctsTreeView::ExportScope::Whole, true); });
    connect(m_view, &MctsTreeView::iterationChanged, this, &MctsViewer::iterationShown);
    connect(m_view, &MctsTreeView::nodeSelected, this, &MctsViewer::nodeShown);
    connect(m_view, &MctsTreeView::problem, this, &MctsViewer::showError);
    connect(m_siblings, &MctsSiblingsView::compareRequested, this,
            [this](int a, int b) { Q_EMIT compareSiblings(m_treeId, a, b); });
    connect(m_siblings, &MctsSiblingsView::nodeActivated, this, [this](int id) {
        selectNode(id);
        m_view->centreOnNode(id);
    });

    // ← / → anywhere in the viewer but a text field (a line edit keeps its arrows).
    const auto shortcut = [this](const QKeySequence &keys, auto slot) {
        auto *s = new QShortcut(keys, this);
        s->setContext(Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    shortcut(QKeySequence(Qt::Key_Left), [this] { stepIteration(-1); });
    shortcut(QKeySequence(Qt::Key_Right), [this] { stepIteration(1); });
    shortcut(QKeySequence(Qt::Key_Home), [this] { setIteration(0); });
    shortcut(QKeySequence(Qt::Key_End), [this] { setIteration(m_view->iterationCount()); });
    shortcut(QKeySequence::Find, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    shortcut(QKeySequence(Qt::Key_F3), [this] { findNext(); });
    shortcut(QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { findPrevious(); });
}

void MctsViewer::retranslate()
{
    m_filterEdit->setPlaceholderText(tr("Filter: id, question or answer"));
    m_wrongOnly->setText(tr("Wrong only"));
    m_wrongOnly->setToolTip(tr("Only the trees whose most visited path does not end in the right answer"));
    m_first->setToolTip(tr("Before the first iteration (Home)"));
    m_previous->setToolTip(tr("Previous iteration (←)"));
    m_next->setToolTip(tr("Next iteration (→)"));
    m_last->setToolTip(tr("Last iteration (End)"));
    m_slider->setToolTip(tr("The iteration shown: the tree as it stood after it"));
    m_follow->setText(tr("Follow"));
    m_follow->setToolTip(tr("Read the source again every second: new trees appear, and a tree that grew shows its last "
                            "iteration"));
    m_search->setPlaceholderText(tr("Find in the nodes' texts (Enter: next match)"));
    m_zoomOut->setToolTip(tr("Zoom out (−, Ctrl+wheel)"));
    m_zoomIn->setToolTip(tr("Zoom in (+, Ctrl+wheel)"));
    m_fit->setText(tr("Fit"));
    m_fit->setToolTip(tr("The whole tree in the view (0)"));
    m_export->setText(tr("Export"));
    m_prmButton->setText(m_prm ? tr("PRM: %1").arg(QFileInfo(m_prmFolder).fileName()) : tr("PRM scores…"));
    m_prmButton->setToolTip(tr("Score every step with a process reward model (rwb prm train's folder): R beside Q in the "
                               "node and the siblings. Click again to choose another, or cancel to turn it off."));
    m_exportVisiblePng->setText(tr("What is shown, as PNG…"));
    m_exportWholePng->setText(tr("The whole tree, as PNG…"));
    m_exportVisibleSvg->setText(tr("What is shown, as SVG…"));
    m_exportWholeSvg->setText(tr("The whole tree, as SVG…"));
    updateQuestion();
    updateProblems();
    if (m_record)
        iterationShown(m_view->iteration());
    else
        m_iterationLabel->setText(tr("No tree"));
}

void MctsViewer::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void MctsViewer::showError(const QString &message)
{
    m_error->setText(message);
    m_error->show();
}

void MctsViewer::clearError()
{
    m_error->clear();
    m_error->hide();
}

bool MctsViewer::setSource(std::shared_ptr<MctsTreeSource> source, QString *error)
{
    m_source = std::move(source);
    m_treeId = -1;
    m_record.reset();
    m_nodeText.clear();
    m_view->clear();
    m_detail->clear();
    m_siblings->clear();
    m_model->setTrees({});
    m_listError = false;
    clearError();
    updateQuestion();
    if (!m_source)
        return true;
    if (!refresh()) {
        if (error)
            *error = m_error->text();
        return false;
    }
    if (m_treeId < 0 && m_model->rowCount() == 0 && error && !m_source->problems().empty())
        *error = m_problems->toolTip();
    return true;
}

bool MctsViewer::refresh()
{
    if (!m_source)
        return false;
    std::vector<mcts::TreeSummary> trees;
    try {
        trees = m_source->trees();
    } catch (const std::exception &e) {
        showError(tr("Cannot read the search trees: %1").arg(QString::fromUtf8(e.what())));
        m_listError = true;
        return false;
    }
    if (m_listError) { // the source reads again (a folder that was being replaced)
        m_listError = false;
        clearError();
    }
    // Follow keeps up with the search: when the tree shown was the newest and a newer one
    // appeared (the search went on to the next question), it shows that one. A tree the
    // user picked among the older ones stays.
    const qint64 newestBefore = m_model->rowCount() > 0 ? m_model->tree(m_model->rowCount() - 1).treeId : -1;
    const qint64 newest = trees.empty() ? -1 : trees.back().treeId;
    const bool moveOn = follow() && m_treeId >= 0 && m_treeId == newestBefore && newest != newestBefore;
    m_model->setTrees(std::move(trees));
    updateProblems();
    if (moveOn && m_model->rowOf(newest) >= 0) {
        showTree(newest);
        return true;
    }
    if (m_treeId < 0) {
        if (m_filter->rowCount() > 0) {
            showTree(m_filter->index(0, 0).data(MctsTreeListModel::TreeIdRole).toLongLong());
        }
        return true;
    }
    selectTreeRow(m_treeId); // its row again after a reset (a file that was being rewritten)
    const int row = m_model->rowOf(m_treeId);
    if (row >= 0 && m_record) {
        // A tree that grew (a live search): read it again, at its last iteration.
        const mcts::TreeSummary &s = m_model->tree(row);
        if (s.iterations != static_cast<int>(m_record->iterations.size()) ||
            s.nodes != static_cast<int>(m_record->tree.nodes().size()))
            showTree(m_treeId);
    }
    return true;
}

bool MctsViewer::showTree(qint64 treeId, QString *error)
{
    if (!m_source)
        return false;
    std::shared_ptr<const mcts::SearchRecord> record;
    try {
        record = std::make_shared<const mcts::SearchRecord>(m_source->record(treeId));
    } catch (const std::exception &e) {
        const QString message = tr("Cannot read the search tree: %1").arg(QString::fromUtf8(e.what()));
        showError(message);
        if (error)
            *error = message;
        return false;
    }
    m_listError = false;
    clearError();
    const bool same = treeId == m_treeId && m_record;
    m_treeId = treeId;
    m_record = record;
    m_nodeText.clear();
    m_view->setRecord(record, -1, same);
    if (!same) // open on the answer the search recommends
        m_view->selectNode(m_view->tree().mostVisitedPath().back());
    selectTreeRow(treeId);
    updateQuestion();
    runSearch();
    scoreWithPrm();
    nodeShown(m_view->selectedNode());
    Q_EMIT treeShown(treeId);
    return true;
}

bool MctsViewer::setProcessRewardModel(const QString &folder, QString *error)
{
    if (folder.isEmpty()) {
        m_prm.reset();
        m_prmFolder.clear();
    } else {
        try {
            m_prm = train::ProcessRewardModel::load(folder.toStdString());
            m_prmFolder = folder;
        } catch (const std::exception &e) {
            const QString message = tr("Cannot load the process reward model: %1").arg(QString::fromUtf8(e.what()));
            showError(message);
            if (error)
                *error = message;
            return false;
        }
    }
    retranslate();
    scoreWithPrm();
    nodeShown(m_view->selectedNode());
    return true;
}

void MctsViewer::scoreWithPrm()
{
    m_prmScores.clear();
    if (m_prm && m_record) {
        try {
            m_prmScores = train::scoreTree(*m_prm, *m_record);
        } catch (const std::exception &e) {
            showError(tr("The process reward model could not score this tree: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    m_detail->setPrmScores(m_prmScores);
    m_siblings->setPrmScores(m_prmScores);
}

void MctsViewer::selectTreeRow(qint64 treeId)
{
    const int row = m_model->rowOf(treeId);
    if (row < 0)
        return;
    const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    if (!index.isValid() || m_table->currentIndex().row() == index.row())
        return;
    m_selectingRow = true;
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index);
    m_selectingRow = false;
}

void MctsViewer::currentRowChanged()
{
    if (m_selectingRow)
        return;
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return;
    const qint64 id = current.data(MctsTreeListModel::TreeIdRole).toLongLong();
    if (id != m_treeId)
        showTree(id);
}

bool MctsViewer::follow() const
{
    return m_poll->isActive();
}

void MctsViewer::setFollow(bool follow)
{
    {
        const QSignalBlocker block(m_follow);
        m_follow->setChecked(follow);
    }
    if (follow) {
        m_poll->start();
        refresh();
    } else {
        m_poll->stop();
    }
}

void MctsViewer::setPollInterval(int ms)
{
    m_poll->setInterval(std::max(10, ms));
}

void MctsViewer::setIteration(int iteration)
{
    m_view->setIteration(iteration);
}

void MctsViewer::stepIteration(int delta)
{
    m_view->setIteration(m_view->iteration() + delta);
}

void MctsViewer::selectNode(int id)
{
    m_view->selectNode(id);
}

void MctsViewer::iterationShown(int iteration)
{
    const int count = m_view->iterationCount();
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, count);
        m_slider->setValue(iteration);
    }
    m_iterationLabel->setText(m_record ? tr("Iteration %1 / %2").arg(iteration).arg(count) : tr("No tree"));
    m_info->setText(m_record ? iterationText(*m_record, iteration) : QString());
    m_first->setEnabled(iteration > 0);
    m_previous->setEnabled(iteration > 0);
    m_next->setEnabled(iteration < count);
    m_last->setEnabled(iteration < count);
    if (!m_search->text().trimmed().isEmpty())
        runSearch();
    nodeShown(m_view->selectedNode());
}

void MctsViewer::nodeShown(int id)
{
    if (!m_record || id < 0) {
        m_detail->clear();
        m_siblings->clear();
        return;
    }
    m_detail->showNode(m_record, m_view->tree(), m_view->iteration(), id);
    m_siblings->showSiblings(m_record, m_view->tree(), m_view->selectionTree(), m_view->iteration(), id);
}

QString MctsViewer::iterationText(const mcts::SearchRecord &record, int i)
{
    if (record.iterations.empty())
        return tr("No iteration log: the final tree is shown.");
    if (i <= 0)
        return tr("Before the first iteration: only the root.");
    const mcts::Iteration &it = record.iterations.at(static_cast<size_t>(i - 1));
    QStringList parts;
    parts << tr("Iteration %1: selected %2").arg(i).arg(pathText(it.selected));
    if (it.expanded >= 0)
        parts << tr("expanded #%1 into %2").arg(it.expanded).arg(idList(it.created));
    else
        parts << tr("nothing expanded (a terminal leaf or the depth limit)");
    if (!it.backedUp.empty()) {
        const int evaluated = it.backedUp.size() > it.selected.size() ? it.backedUp.back() : -1;
        if (evaluated >= 0)
            parts << tr("evaluated #%1").arg(evaluated);
        parts << tr("backed up %1 from depth %2 (γ %3)")
                     .arg(QString::number(it.value, 'f', 3))
                     .arg(it.terminalDepth)
                     .arg(QString::number(record.params.gamma, 'g', 4));
    }
    if (!it.simulationAnswer.empty())
        parts << tr("the simulation answered %1").arg(QString::fromStdString(it.simulationAnswer));
    else if (!it.simulation.empty())
        parts << tr("the simulation gave no answer");
    if (it.seconds > 0)
        parts << tr("%1 s").arg(QString::number(it.seconds, 'f', 2));
    return parts.join(QStringLiteral(" · "));
}

void MctsViewer::updateQuestion()
{
    if (!m_record) {
        // With no source, how to get one: run a search, then open what it wrote.
        m_question->setText(m_source ? tr("<i>No search tree to show.</i>")
                                     : tr("<i>No source of search trees.</i>") + QStringLiteral("<br>") +
                                           tr("Start a search from <b>Jobs ▸ MCTS search…</b>: this window follows it as "
                                              "it grows. Or run <code>rwb mcts run --config mcts.json</code> (docs/mcts.md) "
                                              "and open its run store (File ▸ Open run store…, or "
                                              "<code>reward-workbench --mcts runs.sqlite</code>) or a tree record "
                                              "(File ▸ Open a search tree record…)."));
        return;
    }
    const mcts::SearchRecord &r = *m_record;
    const mcts::TreeSummary s = mcts::summarize(r);
    QString html = QStringLiteral("<b>%1</b> %2").arg(QString::fromStdString(r.questionId).toHtmlEscaped(),
                                                       QString::fromStdString(r.question).toHtmlEscaped());
    const QString best = s.bestAnswer.empty() ? tr("none") : QString::fromStdString(s.bestAnswer);
    html += QStringLiteral("<br><span style=\"color:#455a64\">%1</span>")
                .arg(tr("Gold answer: %1 · best path's answer: %2 (value %3) · best found %4 · c_puct %5 · γ %6 · "
                        "%7 nodes, depth %8")
                         .arg(QString::fromStdString(r.goldAnswer), best, QString::number(s.bestValue, 'f', 2),
                              QString::number(s.foundValue, 'f', 2), QString::number(r.params.cPuct, 'g', 4),
                              QString::number(r.params.gamma, 'g', 4))
                         .arg(s.nodes)
                         .arg(s.depth)
                         .toHtmlEscaped());
    m_question->setText(html);
}

void MctsViewer::updateProblems()
{
    const std::vector<std::string> problems = m_source ? m_source->problems() : std::vector<std::string>();
    if (problems.empty()) {
        m_problems->hide();
        m_problems->setToolTip(QString());
        return;
    }
    QStringList all;
    for (const std::string &p : problems)
        all << QString::fromStdString(p);
    m_problems->setText(
        tr("%n file(s) could not be read and are not listed: %1", nullptr, static_cast<int>(all.size())).arg(all.first()));
    m_problems->setToolTip(all.join(QLatin1Char('\n')));
    m_problems->show();
}

void MctsViewer::runSearch()
{
    m_searchDebounce->stop();
    m_matches.clear();
    m_matchIndex = -1;
    const QString text = m_search->text().trimmed();
    if (m_record && !text.isEmpty()) {
        if (m_nodeText.empty()) {
            for (const mcts::Node &n : m_record->tree.nodes()) {
                std::string all = n.step + '\n' + n.answer;
                for (const std::string &id : n.retrieved)
                    all += '\n' + id;
                m_nodeText.push_back(QString::fromStdString(all));
            }
        }
        for (int id = 0; id < m_view->shownCount(); ++id)
            if (m_nodeText[static_cast<size_t>(id)].contains(text, Qt::CaseInsensitive))
                m_matches.push_back(id);
    }
    m_view->setMarkedNodes(m_matches);
    m_searchCount->setText(text.isEmpty() ? QString()
                                          : tr("%n match(es)", nullptr, static_cast<int>(m_matches.size())));
}

void MctsViewer::jumpToMatch(int step)
{
    if (m_matches.empty())
        runSearch();
    if (m_matches.empty())
        return;
    const int n = static_cast<int>(m_matches.size());
    m_matchIndex = m_matchIndex < 0 ? (step > 0 ? 0 : n - 1) : ((m_matchIndex + step) % n + n) % n;
    const int id = m_matches[static_cast<size_t>(m_matchIndex)];
    m_view->selectNode(id);
    if (m_view->zoom() < kMatchZoom)
        m_view->setZoom(kMatchZoom);
    m_view->centreOnNode(id);
    m_searchCount->setText(tr("match %1 of %2").arg(m_matchIndex + 1).arg(n));
}

void MctsViewer::findNext()
{
    jumpToMatch(1);
}

void MctsViewer::findPrevious()
{
    jumpToMatch(-1);
}

void MctsViewer::exportDialog(MctsTreeView::ExportScope scope, bool svg)
{
    if (!m_record)
        return;
    const QString suffix = svg ? QStringLiteral("svg") : QStringLiteral("png");
    const QString name = QStringLiteral("%1.%2").arg(
        m_record->questionId.empty() ? QStringLiteral("tree") : QString::fromStdString(m_record->questionId), suffix);
    QString path = QFileDialog::getSaveFileName(this, tr("Export the tree"), name,
                                                svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0)
        path += QLatin1Char('.') + suffix;
    QString error;
    if (!m_view->exportImage(path, scope, &error))
        QMessageBox::warning(this, tr("Export the tree"), error);
}

} // namespace rwb::widgets
