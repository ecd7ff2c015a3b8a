#include "runlistmodel.h"

#include "store/runstore.h"

#include <QBrush>
#include <QColor>
#include <QRegularExpression>
#include <algorithm>
#include <exception>
#include <unordered_set>

namespace rwb::widgets {

RunListModel::RunListModel(QObject *parent) : QAbstractTableModel(parent) {}

RunListModel::~RunListModel() = default;

bool RunListModel::open(std::shared_ptr<StoreDocument> document, QString *error)
{
    close();
    m_document = std::move(document);
    connect(m_document.get(), &StoreDocument::changed, this, [this] { refresh(); });
    return refresh(error);
}

bool RunListModel::open(const QString &storePath, QString *error)
{
    std::shared_ptr<StoreDocument> document = StoreDocument::open(storePath, error);
    if (!document) {
        close();
        return false;
    }
    return open(std::move(document), error);
}

void RunListModel::close()
{
    if (!m_runs.empty()) {
        beginResetModel();
        m_runs.clear();
        endResetModel();
    }
    if (m_document)
        disconnect(m_document.get(), nullptr, this, nullptr);
    m_document.reset();
}

bool RunListModel::refresh(QString *error)
{
    if (!m_document)
        return true;
    std::vector<store::RunInfo> runs;
    try {
        runs = m_document->store().runs();
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    // Runs deleted since: their rows go, a block of neighbours at a time, from the bottom up.
    std::unordered_set<int64_t> ids;
    for (const store::RunInfo &r : runs)
        ids.insert(r.id);
    for (int last = rowCount() - 1; last >= 0;) {
        if (ids.count(m_runs[static_cast<size_t>(last)].id) != 0) {
            --last;
            continue;
        }
        int first = last;
        while (first > 0 && ids.count(m_runs[static_cast<size_t>(first - 1)].id) == 0)
            --first;
        beginRemoveRows({}, first, last);
        m_runs.erase(m_runs.begin() + first, m_runs.begin() + last + 1);
        endRemoveRows();
        last = first - 1;
    }
    // RunStore::runs() is in id order. The old rows must be the first new ones, in order; otherwise start again.
    bool prefix = runs.size() >= m_runs.size();
    for (size_t i = 0; prefix && i < m_runs.size(); ++i)
        prefix = runs[i].id == m_runs[i].id;
    if (!prefix) {
        beginResetModel();
        m_runs = std::move(runs);
        endResetModel();
        return true;
    }
    for (size_t i = 0; i < m_runs.size(); ++i) {
        const store::RunInfo &a = m_runs[i];
        const store::RunInfo &b = runs[i];
        if (a.name != b.name || a.status != b.status || a.steps != b.steps || a.lastStep != b.lastStep ||
            a.finished != b.finished || a.message != b.message || a.kind != b.kind || a.created != b.created ||
            a.tags != b.tags || a.configJson != b.configJson || a.task != b.task) {
            m_runs[i] = b;
            const int row = static_cast<int>(i);
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        }
    }
    if (runs.size() > m_runs.size()) {
        beginInsertRows({}, static_cast<int>(m_runs.size()), static_cast<int>(runs.size()) - 1);
        m_runs.insert(m_runs.end(), runs.begin() + static_cast<std::ptrdiff_t>(m_runs.size()), runs.end());
        endInsertRows();
    }
    return true;
}

qint64 RunListModel::runId(int row) const
{
    return row >= 0 && row < rowCount() ? m_runs[static_cast<size_t>(row)].id : 0;
}

int RunListModel::rowOfRun(qint64 id) const
{
    for (size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id)
            return static_cast<int>(i);
    return -1;
}

const store::RunInfo *RunListModel::run(int row) const
{
    return row >= 0 && row < rowCount() ? &m_runs[static_cast<size_t>(row)] : nullptr;
}

bool RunListModel::renameRun(qint64 runId, const QString &name, QString *error)
{
    const QString trimmed = name.trimmed();
    QString why;
    if (!m_document)
        why = tr("no run store is open");
    else if (trimmed.isEmpty())
        why = tr("a run's name cannot be blank");
    if (why.isEmpty()) {
        if (const store::RunInfo *r = run(rowOfRun(runId)); r && QString::fromStdString(r->name) == trimmed)
            return true; // nothing to write
        try {
            m_document->writable().renameRun(runId, trimmed.toStdString());
        } catch (const std::exception &e) {
            why = QString::fromUtf8(e.what());
        }
    }
    if (!why.isEmpty()) {
        if (error)
            *error = tr("Run %1 was not renamed: %2").arg(runId).arg(why);
        return false;
    }
    m_document->announceChange();
    return true;
}

bool RunListModel::setRunTags(qint64 runId, const QStringList &tags, QString *error)
{
    QString why;
    if (!m_document) {
        why = tr("no run store is open");
    } else {
        std::vector<std::string> clean;
        for (const QString &t : tags)
            if (!t.trimmed().isEmpty())
                clean.push_back(t.trimmed().toStdString());
        try {
            m_document->writable().setRunTags(runId, clean);
        } catch (const std::exception &e) {
            why = QString::fromUtf8(e.what());
        }
    }
    if (!why.isEmpty()) {
        if (error)
            *error = tr("The tags of run %1 were not changed: %2").arg(runId).arg(why);
        return false;
    }
    m_document->announceChange();
    return true;
}

bool RunListModel::deleteRun(qint64 runId, QString *error)
{
    QString why;
    if (!m_document) {
        why = tr("no run store is open");
    } else {
        try {
            m_document->writable().deleteRun(runId);
        } catch (const std::exception &e) {
            why = QString::fromUtf8(e.what());
        }
    }
    if (!why.isEmpty()) {
        if (error)
            *error = tr("Run %1 was not deleted: %2").arg(runId).arg(why);
        return false;
    }
    m_document->announceChange();
    return true;
}

QStringList RunListModel::parseTags(const QString &text)
{
    static const QRegularExpression separators(QStringLiteral("[,\\x{3001}\\x{ff0c}]"));
    QStringList tags;
    for (const QString &part : text.split(separators)) {
        const QString t = part.trimmed();
        if (!t.isEmpty() && !tags.contains(t))
            tags << t;
    }
    return tags;
}

int RunListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunListModel::statusText(const std::string &status) const
{
    if (status == "running")
        return tr("running");
    if (status == "finished")
        return tr("finished");
    if (status == "failed")
        return tr("failed");
    if (status == "stopped")
        return tr("stopped");
    return QString::fromStdString(status);
}

QVariant RunListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const store::RunInfo &r = m_runs[static_cast<size_t>(index.row())];
    if (role == RunIdRole)
        return static_cast<qint64>(r.id);
    if (role == StatusRole)
        return QString::fromStdString(r.status);
    if (role == TagsRole) {
        QStringList tags;
        for (const std::string &t : r.tags)
            tags << QString::fromStdString(t);
        return tags;
    }
    if (role == Qt::EditRole && index.column() == NameColumn)
        return QString::fromStdString(r.name);
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        if (r.status == "failed")
            return QBrush(QColor(0xc0, 0x20, 0x20));
        if (r.status == "running")
            return QBrush(QColor(0x20, 0x60, 0xc0));
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case IdColumn:
        case StepsColumn:
        case LastStepColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == MessageColumn && !r.message.empty())
        return QString::fromStdString(r.message);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case IdColumn:
        return static_cast<qint64>(r.id);
    case NameColumn:
        return QString::fromStdString(r.name);
    case TagsColumn: {
        QStringList tags;
        for (const std::string &t : r.tags)
            tags << QString::fromStdString(t);
        return tags.join(QStringLiteral(", "));
    }
    case KindColumn:
        return QString::fromStdString(r.kind);
    case StatusColumn:
        return statusText(r.status);
    case StepsColumn:
        return static_cast<qint64>(r.steps);
    case LastStepColumn:
        return r.lastStep < 0 ? QVariant(QString()) : QVariant(static_cast<qint64>(r.lastStep));
    case CreatedColumn:
        return QString::fromStdString(r.created);
    case FinishedColumn:
        return QString::fromStdString(r.finished);
    case MessageColumn:
        return QString::fromStdString(r.message);
    default:
        return {};
    }
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn:
        return tr("Id");
    case NameColumn:
        return tr("Name");
    case TagsColumn:
        return tr("Tags");
    case KindColumn:
        return tr("Kind");
    case StatusColumn:
        return tr("Status");
    case StepsColumn:
        return tr("Steps");
    case LastStepColumn:
        return tr("Last step");
    case CreatedColumn:
        return tr("Created");
    case FinishedColumn:
        return tr("Finished");
    case MessageColumn:
        return tr("Message");
    default:
        return {};
    }
}

Qt::ItemFlags RunListModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == NameColumn && m_document)
        f |= Qt::ItemIsEditable;
    return f;
}

bool RunListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::EditRole || index.column() != NameColumn ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    QString error;
    if (!renameRun(runId(index.row()), value.toString(), &error)) {
        Q_EMIT editFailed(error);
        return false;
    }
    return true;
}

} // namespace rwb::widgets
