#include "runtableview.h"

#include "runconfigdialog.h"
#include "runfilterproxy.h"
#include "runlistmodel.h"

#include "store/runstore.h"

#include <QAction>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace rwb::widgets {

namespace {
// The widest a column grows by itself when a rename or new tags make its text longer (px).
constexpr int kMaxGrownColumnWidth = 320;
} // namespace

RunTableView::RunTableView(QWidget *parent)
    : QWidget(parent)
    , m_proxy(new RunFilterProxy(this))
    , m_filter(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_rename(new QAction(this))
    , m_editTags(new QAction(this))
    , m_showConfig(new QAction(this))
    , m_compare(new QAction(this))
    , m_delete(new QAction(this))
    , m_separator(new QAction(this))
{
    m_filter->setObjectName(QStringLiteral("runFilter"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &RunFilterProxy::setText);

    m_table->setObjectName(QStringLiteral("runTableView"));
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection); // two runs to compare
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // A double click opens the run (activated); F2 or Rename… edits its name.
    m_table->setEditTriggers(QAbstractItemView::EditKeyPressed);
    m_table->setWordWrap(false); // many tags elide rather than make a tall row
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (m_model && index.isValid())
            Q_EMIT activated(m_proxy->mapToSource(index));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunTableView::updateActions);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this, &RunTableView::updateActions);

    m_rename->setObjectName(QStringLiteral("renameRun"));
    connect(m_rename, &QAction::triggered, this, &RunTableView::renameCurrentRun);
    m_editTags->setObjectName(QStringLiteral("editRunTags"));
    connect(m_editTags, &QAction::triggered, this, &RunTableView::editTagsOfCurrentRun);
    m_showConfig->setObjectName(QStringLiteral("showRunConfig"));
    connect(m_showConfig, &QAction::triggered, this, &RunTableView::showConfigOfCurrentRun);
    m_compare->setObjectName(QStringLiteral("compareRunConfigs"));
    connect(m_compare, &QAction::triggered, this, &RunTableView::compareSelectedRuns);
    m_delete->setObjectName(QStringLiteral("deleteRun"));
    m_delete->setShortcut(QKeySequence::Delete);
    m_delete->setShortcutContext(Qt::WidgetShortcut); // the table's focus only, not its cell editor's
    connect(m_delete, &QAction::triggered, this, &RunTableView::deleteCurrentRun);
    m_separator->setSeparator(true);
    m_table->addActions({m_rename, m_editTags, m_showConfig, m_compare, m_delete, m_separator});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    retranslate();
    updateActions();
}

RunTableView::~RunTableView() = default;

void RunTableView::setModel(RunListModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_proxy->setSourceModel(model);
    if (model) {
        // Columns fit what they show whenever the list is read again (a few runs: cheap).
        connect(model, &QAbstractItemModel::modelReset, m_table, &QTableView::resizeColumnsToContents);
        connect(model, &QAbstractItemModel::rowsInserted, m_table, &QTableView::resizeColumnsToContents);
        // A longer name or more tags widen their column (never narrow it: a width the user
        // set stays), up to a limit.
        connect(model, &QAbstractItemModel::dataChanged, this, [this] {
            for (const int column : {int(RunListModel::NameColumn), int(RunListModel::TagsColumn)}) {
                const int wanted = std::min(static_cast<const QAbstractItemView *>(m_table)->sizeHintForColumn(column), kMaxGrownColumnWidth);
                if (wanted > m_table->columnWidth(column))
                    m_table->setColumnWidth(column, wanted);
            }
        });
        connect(model, &QAbstractItemModel::modelReset, this, &RunTableView::updateActions);
        connect(model, &QAbstractItemModel::rowsRemoved, this, &RunTableView::updateActions);
        connect(model, &RunListModel::editFailed, this,
                [this](const QString &message) { Q_EMIT notice(tr("Rename run"), message); });
    }
    updateActions();
}

void RunTableView::addRunActions(const QList<QAction *> &actions)
{
    m_table->addActions(actions);
}

int RunTableView::sourceRow(const QModelIndex &proxyIndex) const
{
    return proxyIndex.isValid() ? m_proxy->mapToSource(proxyIndex).row() : -1;
}

qint64 RunTableView::currentRunId() const
{
    return m_model ? m_model->runId(sourceRow(m_table->selectionModel()->currentIndex())) : 0;
}

QList<qint64> RunTableView::selectedRunIds() const
{
    QList<qint64> ids;
    if (!m_model)
        return ids;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &i : rows)
        if (const qint64 id = m_model->runId(sourceRow(i)); id > 0)
            ids << id;
    return ids;
}

bool RunTableView::selectRun(qint64 runId)
{
    if (!m_model)
        return false;
    const int row = m_model->rowOfRun(runId);
    if (row < 0)
        return false;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) { // hidden by the filter
        m_filter->clear();
        index = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    m_table->selectRow(index.row());
    m_table->scrollTo(index);
    return true;
}

void RunTableView::renameCurrentRun()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!m_model || !current.isValid())
        return;
    m_table->edit(m_proxy->index(current.row(), RunListModel::NameColumn));
}

bool RunTableView::editTagsOfCurrentRun()
{
    const qint64 id = currentRunId();
    const store::RunInfo *run = m_model ? m_model->run(m_model->rowOfRun(id)) : nullptr;
    if (!run)
        return false;
    QStringList tags;
    for (const std::string &t : run->tags)
        tags << QString::fromStdString(t);
    QString text = tags.join(QStringLiteral(", "));
    const QString name = QString::fromStdString(run->name);
    if (!m_prompt) {
        bool ok = false;
        text = QInputDialog::getText(this, tr("Edit tags"),
                                     tr("Tags of run %1 “%2”, separated by commas:").arg(QString::number(id), name),
                                     QLineEdit::Normal, text, &ok);
        if (!ok)
            return false;
    } else if (!m_prompt(tr("Edit tags"), tr("Tags of run %1 “%2”, separated by commas:").arg(QString::number(id), name),
                         &text)) {
        return false;
    }
    QString error;
    if (!m_model->setRunTags(id, RunListModel::parseTags(text), &error)) {
        Q_EMIT notice(tr("Edit tags"), error);
        return false;
    }
    return true;
}

bool RunTableView::deleteCurrentRun()
{
    const qint64 id = currentRunId();
    const store::RunInfo *info = m_model ? m_model->run(m_model->rowOfRun(id)) : nullptr;
    if (!info || !m_model->document())
        return false;
    const store::RunInfo run = *info; // the list may change under a message box
    const QString name = QString::fromStdString(run.name);
    const QString title = tr("Delete run");
    if (m_inUse && m_inUse(id)) {
        Q_EMIT notice(title, tr("Run %1 “%2” is being trained in this window: stop the training before deleting it.")
                                 .arg(QString::number(id), name));
        return false;
    }
    store::RunContents c;
    try {
        c = m_model->document()->store().runContents(id);
    } catch (const std::exception &e) {
        Q_EMIT notice(title, tr("Run %1 was not deleted: %2").arg(QString::number(id), QString::fromUtf8(e.what())));
        return false;
    }
    if (run.status == "running" && c.secondsSinceWrite < static_cast<double>(store::RunStore::kStaleRunSeconds)) {
        const int minutes = static_cast<int>(c.secondsSinceWrite / 60.0);
        Q_EMIT notice(title, tr("Run %1 “%2” is marked running and last wrote %n minute(s) ago: a trainer may still be "
                                "writing it. Stop it first. A run whose process was killed can be deleted once it "
                                "has written nothing for an hour.",
                                nullptr, minutes)
                                 .arg(QString::number(id), name));
        return false;
    }
    QStringList lost;
    if (c.steps > 0)
        lost << tr("%n step(s) and their metrics", nullptr, static_cast<int>(c.steps));
    if (c.rollouts > 0)
        lost << tr("%n rollout(s)", nullptr, static_cast<int>(c.rollouts));
    if (c.evalPredictions > 0)
        lost << tr("%n evaluation prediction(s)", nullptr, static_cast<int>(c.evalPredictions));
    if (c.judgeDecisions > 0)
        lost << tr("%n judge call(s)", nullptr, static_cast<int>(c.judgeDecisions));
    if (c.searchTrees > 0)
        lost << tr("%n search tree(s)", nullptr, static_cast<int>(c.searchTrees));
    if (c.checkpoints > 0)
        lost << tr("%n checkpoint record(s) (the checkpoint folders on disk are kept)", nullptr,
                   static_cast<int>(c.checkpoints));
    lost << tr("its config, reward configs and tags");
    const QString text = tr("Delete run %1 “%2” from %3?").arg(QString::number(id), name,
                                                             QFileInfo(m_model->storePath()).fileName()) +
                         QStringLiteral("\n\n") + tr("This cannot be undone. Deleted with it:") +
                         QStringLiteral("\n• ") + lost.join(QStringLiteral("\n• "));
    if (!confirm(title, text))
        return false;
    const QString storePath = m_model->storePath();
    QString error;
    if (!m_model->deleteRun(id, &error)) {
        Q_EMIT notice(title, error);
        return false;
    }
    Q_EMIT runDeleted(storePath, id);
    return true;
}

RunConfigDialog *RunTableView::showConfigOfCurrentRun()
{
    const qint64 id = currentRunId();
    const store::RunInfo *run = m_model ? m_model->run(m_model->rowOfRun(id)) : nullptr;
    return run ? RunConfigDialog::showRun(window(), *run) : nullptr;
}

RunConfigDialog *RunTableView::compareSelectedRuns()
{
    const QList<qint64> ids = selectedRunIds();
    const store::RunInfo *first = ids.size() == 2 ? m_model->run(m_model->rowOfRun(ids[0])) : nullptr;
    const store::RunInfo *second = ids.size() == 2 ? m_model->run(m_model->rowOfRun(ids[1])) : nullptr;
    if (!first || !second) {
        Q_EMIT notice(tr("Compare configs"), tr("Select two runs to compare their configs."));
        return nullptr;
    }
    return RunConfigDialog::compareRuns(window(), *first, *second);
}

void RunTableView::setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler)
{
    m_confirm = std::move(handler);
}

void RunTableView::setTextPrompt(std::function<bool(const QString &, const QString &, QString *)> prompt)
{
    m_prompt = std::move(prompt);
}

void RunTableView::setRunInUse(std::function<bool(qint64)> inUse)
{
    m_inUse = std::move(inUse);
}

bool RunTableView::confirm(const QString &title, const QString &text)
{
    if (m_confirm)
        return m_confirm(title, text);
    return QMessageBox::question(this, title, text, QMessageBox::Yes | QMessageBox::No, QMessageBox::No) ==
           QMessageBox::Yes;
}

void RunTableView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RunTableView::retranslate()
{
    m_filter->setPlaceholderText(tr("Filter by name, tag or kind"));
    m_filter->setToolTip(tr("Shows the runs whose name, tags or kind contain every word typed."));
    m_rename->setText(tr("Rename…"));
    m_editTags->setText(tr("Edit tags…"));
    m_showConfig->setText(tr("Show config…"));
    m_compare->setText(tr("Compare configs…"));
    m_compare->setToolTip(tr("Select two runs to compare their configs"));
    m_delete->setText(tr("Delete…"));
}

void RunTableView::updateActions()
{
    const bool one = currentRunId() > 0 && m_model && m_model->document();
    for (QAction *a : {m_rename, m_editTags, m_showConfig, m_delete})
        a->setEnabled(one);
    m_compare->setEnabled(selectedRunIds().size() == 2);
}

} // namespace rwb::widgets
