#include "failureexplorer.h"

#include "failurecategorymodel.h"
#include "failureexamplemodel.h"
#include "failuretransitionmodel.h"
#include "taskpresenter.h"

#include "eval/failureanalysis.h"
#include "task/catalog.h"
#include "task/task.h"

#include <QEvent>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

#include <exception>

namespace rwb::widgets {

namespace {

// The example list shows the examples of one A → B cell of the matrix.
constexpr int kTransitionFilter = 200;

QString q(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

FailureExplorer::FailureExplorer(QWidget *parent)
    : QWidget(parent)
    , m_categories(new FailureCategoryModel(this))
    , m_examples(new FailureExampleModel(this))
    , m_transitions(new FailureTransitionModel(this))
    , m_comboA(new QComboBox(this))
    , m_comboB(new QComboBox(this))
    , m_labelA(new QLabel(this))
    , m_labelB(new QLabel(this))
    , m_status(new QLabel(this))
    , m_categoryView(new QTableView(this))
    , m_compareSummary(new QLabel(this))
    , m_transitionLabel(new QLabel(this))
    , m_transitionView(new QTableView(this))
    , m_listTitle(new QLabel(this))
    , m_exampleView(new QTableView(this))
    , m_legend(new QLabel(this))
    , m_emailView(new QTextBrowser(this))
    , m_explanation(new QLabel(this))
{
    m_comboA->setObjectName("failureCheckpointA");
    m_comboB->setObjectName("failureCheckpointB");
    m_categoryView->setObjectName("failureCategories");
    m_transitionView->setObjectName("failureTransitions");
    m_exampleView->setObjectName("failureExamples");
    m_emailView->setObjectName("failureEmail");
    m_explanation->setObjectName("failureExplanation");
    m_compareSummary->setObjectName("failureCompareSummary");
    retranslate();

    auto *top = new QHBoxLayout;
    top->addWidget(m_labelA);
    top->addWidget(m_comboA);
    top->addSpacing(12);
    top->addWidget(m_labelB);
    top->addWidget(m_comboB);
    top->addSpacing(12);
    top->addWidget(m_status, 1);
    m_status->setWordWrap(true);

    for (QTableView *v : {m_categoryView, m_exampleView, m_transitionView}) {
        v->setSelectionBehavior(QAbstractItemView::SelectRows);
        v->setSelectionMode(QAbstractItemView::SingleSelection);
        v->setEditTriggers(QAbstractItemView::NoEditTriggers);
        v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
    }
    m_transitionView->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_categoryView->setModel(m_categories);
    m_categoryView->verticalHeader()->hide();
    m_categoryView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_categoryView->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_exampleView->setModel(m_examples);
    m_exampleView->verticalHeader()->hide();
    m_exampleView->setAlternatingRowColors(true);
    m_exampleView->horizontalHeader()->setStretchLastSection(true);
    m_transitionView->setModel(m_transitions);
    m_transitionView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_transitionView->horizontalHeader()->setMinimumSectionSize(24);
    m_transitionView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_compareSummary->setWordWrap(true);
    m_transitionLabel->setWordWrap(true);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_categoryView, 3);
    leftLayout->addWidget(m_compareSummary);
    leftLayout->addWidget(m_transitionLabel);
    leftLayout->addWidget(m_transitionView, 4);

    auto *middle = new QWidget(this);
    auto *middleLayout = new QVBoxLayout(middle);
    middleLayout->setContentsMargins(0, 0, 0, 0);
    middleLayout->addWidget(m_listTitle);
    middleLayout->addWidget(m_exampleView);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    m_explanation->setWordWrap(true);
    m_explanation->setTextFormat(Qt::RichText);
    m_explanation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rightLayout->addWidget(m_legend);
    rightLayout->addWidget(m_emailView, 1);
    rightLayout->addWidget(m_explanation);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(middle);
    splitter->addWidget(right);
    // Categories and matrix | e-mails | the e-mail, which gets the most; the panes grow
    // and shrink together with the window (the matrix scrolls when narrow).
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 2);
    splitter->setStretchFactor(2, 3);
    splitter->setSizes({340, 240, 420});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_comboA, qOverload<int>(&QComboBox::activated), this,
            [this](int i) { showCheckpoint(m_comboA->itemData(i).toLongLong()); });
    connect(m_comboB, qOverload<int>(&QComboBox::activated), this,
            [this](int i) { compareWith(m_comboB->itemData(i).toLongLong()); });
    connect(m_categoryView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) { categoryClicked(index); });
    connect(m_transitionView, &QTableView::clicked, this, [this](const QModelIndex &index) { transitionClicked(index); });
    connect(m_exampleView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) { exampleClicked(index); });
    close();
}

FailureExplorer::~FailureExplorer() = default;

bool FailureExplorer::setSession(RunSession *session, QString *error)
{
    if (m_session)
        disconnect(m_session, nullptr, this, nullptr);
    m_session = nullptr;
    if (!session) {
        close();
        return true;
    }
    m_session = session;
    // The evaluations a run stores come at its checkpoints and at its end: read again then.
    connect(session, &RunSession::ended, this, [this] {
        QString e;
        if (m_session)
            loadSession(&e);
    });
    return loadSession(error);
}

bool FailureExplorer::loadSession(QString *error)
{
    const QString storePath = m_session->storePath();
    const qint64 runId = m_session->runId();
    try {
        auto data = std::make_unique<eval::FailureData>(
            eval::loadRunFailures(m_session->store(), QFile::encodeName(storePath).toStdString(), runId));
        if (data->checkpoints.empty()) {
            close();
            if (error)
                *error = tr("%1: run %2 has no stored evaluations").arg(storePath).arg(runId);
            return false;
        }
        std::map<qint64, QString> labels;
        for (const auto &[step, preds] : data->checkpoints)
            labels[step] = tr("step %1").arg(step);
        adopt(std::move(data), std::move(labels), tr("run %1 of %2").arg(runId).arg(QFileInfo(storePath).fileName()));
        return true;
    } catch (const std::exception &e) {
        close();
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool FailureExplorer::openPredictions(const QString &jsonl, const QString &compareJsonl, QString *error)
{
    try {
        auto data = std::make_unique<eval::FailureData>(
            eval::loadPredictionFailures(jsonl.toStdString(), compareJsonl.toStdString()));
        std::map<qint64, QString> labels{{0, QFileInfo(jsonl).fileName()}};
        if (!compareJsonl.isEmpty())
            labels[1] = QFileInfo(compareJsonl).fileName();
        adopt(std::move(data), std::move(labels), QFileInfo(jsonl).fileName());
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

void FailureExplorer::adopt(std::unique_ptr<eval::FailureData> data, std::map<qint64, QString> labels,
                            const QString &source)
{
    m_data = std::move(data);
    m_labels = std::move(labels);
    m_stepA = m_data->checkpoints.begin()->first;
    m_stepB = m_data->checkpoints.size() > 1 ? m_data->checkpoints.rbegin()->first : -1;
    m_filter = 0; // the right category
    m_currentId.clear();
    const TaskPresenter &presenter = TaskPresenter::forTask(m_data->task);
    m_categories->setCategories(m_data->categories, presenter);
    m_transitions->setCategories(m_data->categories, presenter);
    const QString legend = presenter.failureLegendHtml();
    m_legend->setText(legend);
    m_legend->setVisible(!legend.isEmpty());
    std::vector<const task::Example *> examples;
    for (const auto &[id, example] : m_data->examples)
        examples.push_back(example.get());
    QString status = presenter.failureStatus(source, m_data->task, examples);
    if (m_data->withoutExample)
        status += tr("; %n prediction(s) left out: their id is not in %1", nullptr, static_cast<int>(m_data->withoutExample))
                      .arg(QFileInfo(q(m_data->examplesPath)).fileName());
    m_status->setText(status);
    m_status->setToolTip(q(m_data->examplesPath));
    fillCombos();
    refresh();
    selectCategory(m_filter);
}

void FailureExplorer::retranslate()
{
    m_comboA->setToolTip(tr("The checkpoint whose predictions are grouped (A)"));
    m_comboB->setToolTip(tr("A second checkpoint to compare with (B)"));
    m_labelA->setText(tr("Checkpoint A:"));
    m_labelB->setText(tr("compare with B:"));
    m_transitionLabel->setText(tr("Category at A (rows) → at B (columns); click a cell for its e-mails"));
}

void FailureExplorer::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        if (!m_data) {
            m_status->setText(tr("No evaluation open."));
        } else {
            // The categories' names and the legend come from the task's presenter, in the
            // language of the moment; refresh() keeps the category, list and example shown.
            const TaskPresenter &presenter = TaskPresenter::forTask(m_data->task);
            m_categories->setCategories(m_data->categories, presenter);
            m_transitions->setCategories(m_data->categories, presenter);
            m_legend->setText(presenter.failureLegendHtml());
            if (m_comboB->count() > 0)
                m_comboB->setItemText(0, tr("(none)"));
            refresh();
        }
    }
    QWidget::changeEvent(event);
}

void FailureExplorer::close()
{
    m_data.reset();
    m_labels.clear();
    m_stepA = m_stepB = -1;
    m_currentId.clear();
    m_categories->clear();
    m_examples->clear();
    m_transitions->clear();
    m_comboA->clear();
    m_comboB->clear();
    m_status->setText(tr("No evaluation open."));
    m_compareSummary->clear();
    m_transitionLabel->hide();
    m_transitionView->hide();
    m_compareSummary->hide();
    m_listTitle->clear();
    m_emailView->clear();
    m_explanation->clear();
}

QList<qint64> FailureExplorer::checkpointSteps() const
{
    QList<qint64> steps;
    if (m_data)
        for (const auto &[step, preds] : m_data->checkpoints)
            steps.append(step);
    return steps;
}

void FailureExplorer::fillCombos()
{
    const QSignalBlocker ba(m_comboA), bb(m_comboB);
    m_comboA->clear();
    m_comboB->clear();
    m_comboB->addItem(tr("(none)"), qint64(-1));
    for (const auto &[step, label] : m_labels) {
        m_comboA->addItem(label, step);
        m_comboB->addItem(label, step);
    }
    m_comboA->setCurrentIndex(m_comboA->findData(m_stepA));
    m_comboB->setCurrentIndex(m_comboB->findData(m_stepB));
}

void FailureExplorer::showCheckpoint(qint64 step)
{
    if (!m_data || !m_data->checkpoints.count(step) || step == m_stepA)
        return;
    m_stepA = step;
    if (m_stepB == m_stepA)
        m_stepB = -1;
    fillCombos();
    refresh();
}

void FailureExplorer::compareWith(qint64 step)
{
    if (!m_data || (step >= 0 && !m_data->checkpoints.count(step)) || step == m_stepB)
        return;
    m_stepB = step;
    fillCombos();
    refresh();
}

void FailureExplorer::refresh()
{
    if (!m_data)
        return;
    const auto &a = m_data->checkpoints.at(m_stepA);
    const bool compare = m_stepB >= 0;
    if (compare) {
        const auto &b = m_data->checkpoints.at(m_stepB);
        const size_t n = m_data->categories.size();
        const eval::FailureComparison c = eval::compareFailures(a, b, n, m_data->graderCategory());
        m_categories->setCounts(eval::countFailures(a, n), eval::countFailures(b, n), c);
        m_transitions->setComparison(c);
        QString summary = tr("<b>%1</b> → <b>%2</b>: <span style=\"color:#1e8449\">fixed %3</span> (wrong at A, right at B), "
                             "<span style=\"color:#c0392b\">broke %4</span> (right at A, wrong at B), of %5 examples in both.")
                              .arg(m_labels[m_stepA].toHtmlEscaped(), m_labels[m_stepB].toHtmlEscaped())
                              .arg(c.fixed)
                              .arg(c.broke)
                              .arg(c.joined);
        if (c.onlyA || c.onlyB)
            summary += QLatin1Char(' ') + tr("Only at A: %1, only at B: %2.").arg(c.onlyA).arg(c.onlyB);
        m_compareSummary->setText(summary);
    } else {
        m_categories->setCounts(eval::countFailures(a, m_data->categories.size()));
        m_transitions->clear();
        if (m_filter == FailureCategoryModel::FixedFilter || m_filter == FailureCategoryModel::BrokeFilter ||
            m_filter == kTransitionFilter)
            m_filter = 0;
    }
    m_compareSummary->setVisible(compare);
    m_transitionLabel->setVisible(compare);
    m_transitionView->setVisible(compare);
    const QString keep = m_currentId;
    fillExamples();
    if (m_filter != kTransitionFilter) {
        const QSignalBlocker block(m_categoryView->selectionModel());
        m_categoryView->selectRow(m_categories->rowOf(m_filter));
    }
    if (!keep.isEmpty() && !selectExample(keep))
        showExample(keep); // not in this list any more: still show it
}

bool FailureExplorer::selectCategory(int filter)
{
    const int row = m_categories->rowOf(filter);
    if (row < 0)
        return false;
    m_filter = filter;
    m_categoryView->selectRow(row);
    fillExamples();
    return true;
}

void FailureExplorer::categoryClicked(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    m_filter = m_categories->data(index, FailureCategoryModel::FilterRole).toInt();
    m_transitionView->clearSelection();
    fillExamples();
}

void FailureExplorer::transitionClicked(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    m_filter = kTransitionFilter;
    m_transitionA = index.row();
    m_transitionB = index.column();
    {
        const QSignalBlocker block(m_categoryView->selectionModel());
        m_categoryView->clearSelection();
    }
    fillExamples();
}

void FailureExplorer::fillExamples()
{
    if (!m_data) {
        m_examples->clear();
        return;
    }
    const auto &a = m_data->checkpoints.at(m_stepA);
    const bool compare = m_stepB >= 0;
    std::map<std::string, const eval::AnalyzedPrediction *> atB;
    if (compare)
        for (const eval::AnalyzedPrediction &p : m_data->checkpoints.at(m_stepB))
            atB[p.exampleId] = &p;
    std::vector<FailureExampleModel::Row> rows;
    for (const eval::AnalyzedPrediction &p : a) {
        const auto bIt = atB.find(p.exampleId);
        const eval::AnalyzedPrediction *b = bIt == atB.end() ? nullptr : bIt->second;
        const int ca = static_cast<int>(p.category);
        const int cb = b ? static_cast<int>(b->category) : -1;
        bool take = false;
        if (m_filter == FailureCategoryModel::FixedFilter)
            take = b && ca != 0 && cb == 0;
        else if (m_filter == FailureCategoryModel::BrokeFilter)
            take = b && ca == 0 && cb != 0;
        else if (m_filter == kTransitionFilter)
            take = b && ca == m_transitionA && cb == m_transitionB;
        else
            take = ca == m_filter;
        if (!take)
            continue;
        FailureExampleModel::Row r;
        r.id = q(p.exampleId);
        r.gold = q(m_data->goldOf(p.exampleId));
        r.answerA = q(p.answer);
        r.categoryA = m_categories->name(ca);
        if (b) {
            r.answerB = q(b->answer);
            r.categoryB = m_categories->name(cb);
        }
        rows.push_back(std::move(r));
    }
    const int n = static_cast<int>(rows.size());
    m_examples->setRows(std::move(rows), compare);
    QString what;
    if (m_filter == FailureCategoryModel::FixedFilter)
        what = tr("Fixed (wrong at A, right at B)");
    else if (m_filter == FailureCategoryModel::BrokeFilter)
        what = tr("Broke (right at A, wrong at B)");
    else if (m_filter == kTransitionFilter)
        what = tr("%1 at A → %2 at B").arg(m_categories->name(m_transitionA), m_categories->name(m_transitionB));
    else
        what = m_categories->name(m_filter);
    m_listTitle->setText(TaskPresenter::forTask(m_data->task).failureListTitle(what, n));
    m_exampleView->resizeColumnsToContents();
    for (int c = 0; c < m_examples->columnCount(); ++c)
        m_exampleView->setColumnWidth(c, std::min(m_exampleView->columnWidth(c), 220));
}

bool FailureExplorer::selectExample(const QString &exampleId)
{
    const int row = m_examples->rowOf(exampleId);
    if (row < 0)
        return false;
    m_exampleView->selectRow(row);
    m_exampleView->scrollTo(m_examples->index(row, 0));
    if (m_currentId != exampleId)
        showExample(exampleId);
    return true;
}

void FailureExplorer::exampleClicked(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    showExample(m_examples->data(index, FailureExampleModel::IdRole).toString());
}

void FailureExplorer::showExample(const QString &id)
{
    if (!m_data)
        return;
    const std::string key = id.toStdString();
    const auto example = m_data->examples.find(key);
    const task::Task *task = task::Catalog::builtin().find(m_data->task);
    if (example == m_data->examples.end() || !task) {
        m_emailView->clear();
        m_explanation->clear();
        m_currentId.clear();
        return;
    }
    const task::Example &e = *example->second;
    const eval::AnalyzedPrediction *a = prediction(m_stepA, key);
    const eval::AnalyzedPrediction *b = prediction(m_stepB, key);
    const auto parse = [&](const eval::AnalyzedPrediction *p) -> std::unique_ptr<task::Completion> {
        return p ? task->parse(e, p->completion, m_data->thinkingFor(p->completion)) : nullptr;
    };
    const std::unique_ptr<task::Completion> parsedA = parse(a), parsedB = parse(b);
    const TaskPresenter &presenter = TaskPresenter::forTask(m_data->task);
    // The example as the task presents it, against prediction A (and B).
    m_emailView->setHtml(presenter.failureHtml(e, parsedA.get(), parsedB.get(), m_data->thinking == 1));
    m_emailView->moveCursor(QTextCursor::Start);

    QStringList lines;
    lines << tr("<b>Gold:</b> %1").arg(q(e.goldText()).toHtmlEscaped());
    const auto describe = [&](const QString &label, const eval::AnalyzedPrediction &p, const task::Completion &parsed) {
        const int c = static_cast<int>(p.category);
        QString line = tr("<b>%1:</b> %2 — <i>%3</i>")
                           .arg(label, p.answer.empty() ? tr("(empty)") : q(p.answer).toHtmlEscaped(),
                                m_categories->name(c).toHtmlEscaped());
        const QString note = presenter.failureCategoryNote(e, parsed, m_categories->key(c));
        if (!note.isEmpty())
            line += tr(" (%1)").arg(note);
        lines << line << m_categories->explanation(c).toHtmlEscaped();
        if (!p.graderError.empty()) // why its grader gave no reward, as stored
            lines << tr("<b>Grader error:</b> %1").arg(q(p.graderError).toHtmlEscaped());
        else
            lines << presenter.failureNotes(e, parsed);
    };
    if (a)
        describe(b || m_stepB >= 0 ? tr("Prediction A") : tr("Prediction"), *a, *parsedA);
    if (b)
        describe(tr("Prediction B"), *b, *parsedB);
    lines << presenter.failureExampleNotes(e);
    m_explanation->setText(lines.join(QStringLiteral("<br>")));
    const bool changed = m_currentId != id;
    m_currentId = id;
    if (changed)
        Q_EMIT exampleSelected(id);
}

const eval::AnalyzedPrediction *FailureExplorer::prediction(qint64 step, const std::string &exampleId) const
{
    if (step < 0 || !m_data || !m_data->checkpoints.count(step))
        return nullptr;
    for (const eval::AnalyzedPrediction &p : m_data->checkpoints.at(step))
        if (p.exampleId == exampleId)
            return &p;
    return nullptr;
}

} // namespace rwb::widgets
