#include "runlistmodel.h"

#include "store/runstore.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <exception>

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
            a.finished != b.finished || a.message != b.message || a.kind != b.kind || a.created != b.created) {
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

} // namespace rwb::widgets
