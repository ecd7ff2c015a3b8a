#include "failureexplorer.h"

#include "failurecategorymodel.h"
#include "failureexamplemodel.h"
#include "failuretransitionmodel.h"
#include "taskpresenter.h"

#include "eval/failureanalysis.h"
#include "store/runstore.h"
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

#include <algorithm>
#include <exception>

namespace rwb::widgets {

namespace {

// The example list shows the examples of one A → B cell of the matrix.
constexpr int kTransitionFilter = 200;
// checkpointB() when there is no comparison.
constexpr qint64 kNoCheckpoint = -1;

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
    return loadRun(&m_session->store(), m_session->storePath(), m_session->runId(), kNoCheckpoint, kNoCheckpoint, error);
}

bool FailureExplorer::loadRun(const store::RunStore *store, const QString &storePath, qint64 runId, qint64 a, qint64 b,
                              QString *error)
{
    std::unique_ptr<eval::FailureData> data;
    QString runError;
    QString wantedError; // why A, a file evaluated here, could not join the run's
    if (store) {
        try {
            data = std::make_unique<eval::FailureData>(
                eval::loadRunFailures(*store, QFile::encodeName(storePath).toStdString(), runId));
        } catch (const std::exception &e) {
            runError = QString::fromUtf8(e.what());
        }
    }
    std::map<qint64, Side> sides;
    if (data)
        for (const auto &[step, preds] : data->checkpoints)
            sides[step] = {Side::Kind::Stored, runId, step, {}};
    // The files evaluated here for this run, beside them (or on their own when the run
    // has none to show); one that cannot be read any more is forgotten.
    for (auto it = m_evaluated.begin(); it != m_evaluated.end();) {
        if (it->runId != runId || QFileInfo(it->storePath) != QFileInfo(storePath)) {
            ++it;
            continue;
        }
        try {
            const std::string path = QFile::encodeName(it->path).toStdString();
            if (!data) {
                data = std::make_unique<eval::FailureData>(eval::loadPredictionFailures(path));
                data->checkpoints[it->key] = std::move(data->checkpoints.at(0));
                data->checkpoints.erase(0);
            } else {
                eval::addPredictionsFile(*data, path, it->key);
            }
            sides[it->key] = {Side::Kind::EvaluatedHere, runId, it->step, it->path};
            ++it;
        } catch (const std::exception &e) {
            if (it->key == a)
                wantedError = QString::fromUtf8(e.what());
            if (runError.isEmpty())
                runError = QString::fromUtf8(e.what());
            it = m_evaluated.erase(it);
        }
    }
    if (!data || data->checkpoints.empty()) {
        close();
        if (error)
            *error = !runError.isEmpty() ? runError : tr("%1: run %2 has no stored evaluations").arg(storePath).arg(runId);
        return false;
    }
    m_sourceStore = storePath;
    m_sourceRun = runId;
    m_sourceFile.clear();
    adopt(std::move(data), std::move(sides), a, b);
    if (!wantedError.isEmpty() && error)
        *error = wantedError;
    return wantedError.isEmpty();
}

bool FailureExplorer::openPredictions(const QString &jsonl, const QString &compareJsonl, QString *error)
{
    try {
        auto data = std::make_unique<eval::FailureData>(
            eval::loadPredictionFailures(jsonl.toStdString(), compareJsonl.toStdString()));
        std::map<qint64, Side> sides{{0, {Side::Kind::File, 0, 0, jsonl}}};
        if (!compareJsonl.isEmpty())
            sides[1] = {Side::Kind::File, 0, 1, compareJsonl};
        m_sourceStore.clear();
        m_sourceRun = 0;
        m_sourceFile = jsonl;
        adopt(std::move(data), std::move(sides));
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
}

bool FailureExplorer::openEvaluation(const QString &jsonl, const QString &storePath, qint64 runId, qint64 step,
                                     QString *error)
{
    // Readable at all? Else nothing changes.
    try {
        eval::loadPredictionFailures(QFile::encodeName(jsonl).toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    const auto same = std::find_if(m_evaluated.begin(), m_evaluated.end(),
                                   [&](const Evaluated &e) { return QFileInfo(e.path) == QFileInfo(jsonl); });
    const qint64 key = same != m_evaluated.end() ? same->key : m_nextEvaluatedKey--;
    if (same != m_evaluated.end())
        m_evaluated.erase(same);
    m_evaluated.push_back({key, jsonl, storePath, runId, step});
    const bool shown = m_session && m_session->runId() == runId && QFileInfo(m_session->storePath()) == QFileInfo(storePath);
    // B: the stored evaluation of the same checkpoint, when the run has one (loadRun
    // leaves B out when it has not).
    return loadRun(shown ? &m_session->store() : nullptr, storePath, runId, key, step, error);
}

void FailureExplorer::adopt(std::unique_ptr<eval::FailureData> data, std::map<qint64, Side> sides, qint64 a, qint64 b)
{
    m_data = std::move(data);
    m_sides = std::move(sides);
    const QList<qint64> steps = checkpointSteps();
    const QList<qint64> keys = checkpointKeys();
    if (a == kNoCheckpoint || !m_data->checkpoints.count(a)) {
        // The first and the last stored evaluation; the first file when there is none.
        a = steps.isEmpty() ? keys.first() : steps.first();
        b = steps.size() > 1 ? steps.last() : kNoCheckpoint;
    }
    m_stepA = a;
    m_stepB = b != a && m_sides.count(b) ? b : kNoCheckpoint;
    m_filter = 0; // the right category
    clearExample();
    const TaskPresenter &presenter = TaskPresenter::forTask(m_data->task);
    m_categories->setCategories(m_data->categories, presenter);
    m_transitions->setCategories(m_data->categories, presenter);
    const QString legend = presenter.failureLegendHtml();
    m_legend->setText(legend);
    m_legend->setVisible(!legend.isEmpty());
    updateStatus();
    m_status->setToolTip(q(m_data->examplesPath));
    fillCombos();
    refresh();
    selectCategory(m_filter);
}

void FailureExplorer::updateStatus()
{
    if (!m_data) {
        m_status->setText(tr("No evaluation open."));
        return;
    }
    const QString source = m_sourceRun > 0 ? tr("run %1 of %2").arg(m_sourceRun).arg(QFileInfo(m_sourceStore).fileName())
                                           : QFileInfo(m_sourceFile).fileName();
    std::vector<const task::Example *> examples;
    for (const auto &[id, example] : m_data->examples)
        examples.push_back(example.get());
    // The presenter's words, in the language of the moment.
    QString status = TaskPresenter::forTask(m_data->task).failureStatus(source, m_data->task, examples);
    if (m_data->withoutExample)
        status += tr("; %n prediction(s) left out: their id is not in %1", nullptr, static_cast<int>(m_data->withoutExample))
                      .arg(QFileInfo(q(m_data->examplesPath)).fileName());
    m_status->setText(status);
}

QString FailureExplorer::statusText() const
{
    return m_status->text();
}

QString FailureExplorer::checkpointLabel(qint64 key) const
{
    const auto it = m_sides.find(key);
    if (it == m_sides.end())
        return {};
    const Side &side = it->second;
    switch (side.kind) {
    case Side::Kind::Stored:
        return tr("step %1").arg(side.step);
    case Side::Kind::File:
        return QFileInfo(side.path).fileName();
    case Side::Kind::EvaluatedHere:
        return tr("run %1 · step %2 (evaluated here)").arg(side.runId).arg(side.step);
    }
    return {};
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
        updateStatus();
        if (m_data) {
            // The categories' names and the legend come from the task's presenter, in the
            // language of the moment; refresh() keeps the category, list and example shown.
            const TaskPresenter &presenter = TaskPresenter::forTask(m_data->task);
            m_categories->setCategories(m_data->categories, presenter);
            m_transitions->setCategories(m_data->categories, presenter);
            m_legend->setText(presenter.failureLegendHtml());
            fillCombos();
            refresh();
        }
    }
    QWidget::changeEvent(event);
}

void FailureExplorer::close()
{
    m_data.reset();
    m_sides.clear();
    m_sourceStore.clear();
    m_sourceFile.clear();
    m_sourceRun = 0;
    m_stepA = m_stepB = kNoCheckpoint;
    clearExample();
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
}

QList<qint64> FailureExplorer::checkpointSteps() const
{
    QList<qint64> steps;
    for (const auto &[key, side] : m_sides)
        if (side.kind != Side::Kind::EvaluatedHere)
            steps.append(key);
    return steps;
}

QList<qint64> FailureExplorer::checkpointKeys() const
{
    QList<qint64> keys = checkpointSteps();
    // The files evaluated here: -2, -3, … in the order they came.
    for (auto it = m_sides.rbegin(); it != m_sides.rend(); ++it)
        if (it->second.kind == Side::Kind::EvaluatedHere)
            keys.append(it->first);
    return keys;
}

void FailureExplorer::fillCombos()
{
    const QSignalBlocker ba(m_comboA), bb(m_comboB);
    m_comboA->clear();
    m_comboB->clear();
    m_comboB->addItem(tr("(none)"), kNoCheckpoint);
    for (const qint64 key : checkpointKeys()) {
        const QString label = checkpointLabel(key);
        m_comboA->addItem(label, key);
        m_comboB->addItem(label, key);
        if (const QString &path = m_sides.at(key).path; !path.isEmpty()) {
            m_comboA->setItemData(m_comboA->count() - 1, path, Qt::ToolTipRole);
            m_comboB->setItemData(m_comboB->count() - 1, path, Qt::ToolTipRole);
        }
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
    if (!m_data || (step != kNoCheckpoint && !m_data->checkpoints.count(step)) || step == m_stepB)
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
    const bool compare = m_stepB != kNoCheckpoint;
    if (compare) {
        const auto &b = m_data->checkpoints.at(m_stepB);
        const size_t n = m_data->categories.size();
        const eval::FailureComparison c = eval::compareFailures(a, b, n, m_data->graderCategory());
        m_categories->setCounts(eval::countFailures(a, n), eval::countFailures(b, n), c);
        m_transitions->setComparison(c);
        QString summary = tr("<b>%1</b> → <b>%2</b>: <span style=\"color:#1e8449\">fixed %3</span> (wrong at A, right at B), "
                             "<span style=\"color:#c0392b\">broke %4</span> (right at A, wrong at B), of %5 examples in both.")
                              .arg(checkpointLabel(m_stepA).toHtmlEscaped(), checkpointLabel(m_stepB).toHtmlEscaped())
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
    fillExamples();
    if (m_filter != kTransitionFilter) {
        const QSignalBlocker block(m_categoryView->selectionModel());
        m_categoryView->selectRow(m_categories->rowOf(m_filter));
    }
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
    const bool compare = m_stepB != kNoCheckpoint;
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
    // The detail pane describes an example of this list: while the list holds it, it stays
    // selected and is drawn again (A or B may have changed); else the pane is cleared.
    if (m_currentId.isEmpty())
        return;
    const int row = m_examples->rowOf(m_currentId);
    if (row < 0) {
        clearExample();
        return;
    }
    {
        const QSignalBlocker block(m_exampleView->selectionModel());
        m_exampleView->selectRow(row);
    }
    m_exampleView->scrollTo(m_examples->index(row, 0));
    showExample(m_currentId);
}

void FailureExplorer::clearExample()
{
    m_emailView->clear();
    m_explanation->clear();
    if (m_currentId.isEmpty())
        return;
    m_currentId.clear();
    Q_EMIT exampleSelected(QString());
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
        clearExample();
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
        describe(b || m_stepB != kNoCheckpoint ? tr("Prediction A") : tr("Prediction"), *a, *parsedA);
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
    if (!m_data || !m_data->checkpoints.count(step))
        return nullptr;
    for (const eval::AnalyzedPrediction &p : m_data->checkpoints.at(step))
        if (p.exampleId == exampleId)
            return &p;
    return nullptr;
}

} // namespace rwb::widgets
