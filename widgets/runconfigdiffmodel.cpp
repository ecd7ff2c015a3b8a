#include "runconfigdiffmodel.h"

#include "util/boundedjson.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPalette>

#include <map>
#include <tuple>

namespace rwb::widgets {

namespace {

// A path's step: an array index or an object key. An index sorts before a key and
// indexes as numbers, so `a[2]` comes before `a[10]` and both before `a.b`.
struct Step {
    bool isKey = false;
    size_t index = 0;
    std::string key;
    bool operator<(const Step &o) const { return std::tie(isKey, index, key) < std::tie(o.isKey, o.index, o.key); }
};
using Path = std::vector<Step>;

QString pathText(const Path &path)
{
    QString out;
    for (const Step &s : path) {
        if (!s.isKey) {
            out += QLatin1Char('[') + QString::number(s.index) + QLatin1Char(']');
        } else {
            if (!out.isEmpty())
                out += QLatin1Char('.');
            out += QString::fromStdString(s.key);
        }
    }
    return out;
}

// Leaves of `j` (scalars, and empty arrays and objects) by path.
void collect(const nlohmann::json &j, Path &path, std::map<Path, QString> &out)
{
    if (j.is_object() && !j.empty()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            path.push_back({/*isKey=*/true, 0, it.key()});
            collect(it.value(), path, out);
            path.pop_back();
        }
    } else if (j.is_array() && !j.empty()) {
        for (size_t i = 0; i < j.size(); ++i) {
            path.push_back({/*isKey=*/false, i, {}});
            collect(j[i], path, out);
            path.pop_back();
        }
    } else {
        out[path] = QString::fromStdString(j.dump(-1, ' ', /*ensure_ascii=*/false,
                                                  nlohmann::json::error_handler_t::replace));
    }
}

// The config by path; false (and its text under the empty path) when it is not JSON.
bool leaves(const std::string &json, std::map<Path, QString> &out)
{
    const nlohmann::json j = util::parseJsonOrDiscarded(json);
    if (j.is_discarded()) {
        out[Path{}] = QString::fromStdString(json);
        return false;
    }
    Path path;
    collect(j, path, out);
    return true;
}

} // namespace

RunConfigDiffModel::RunConfigDiffModel(QObject *parent) : QAbstractTableModel(parent) {}

RunConfigDiffModel::~RunConfigDiffModel() = default;

bool RunConfigDiffModel::flatten(const std::string &json, std::vector<std::pair<QString, QString>> *out)
{
    std::map<Path, QString> byPath;
    const bool ok = leaves(json, byPath);
    if (out) {
        out->clear();
        for (const auto &[path, value] : byPath)
            out->emplace_back(pathText(path), value);
    }
    return ok;
}

void RunConfigDiffModel::setConfigs(std::vector<Config> configs)
{
    beginResetModel();
    m_configs = std::move(configs);
    std::vector<std::map<Path, QString>> each(m_configs.size());
    std::map<Path, Row> rows;
    for (size_t c = 0; c < m_configs.size(); ++c) {
        leaves(m_configs[c].json, each[c]);
        for (const auto &[path, value] : each[c]) {
            Row &row = rows[path];
            row.values.resize(m_configs.size());
            row.values[c] = value;
        }
    }
    m_rows.clear();
    for (auto &[path, row] : rows) {
        row.path = pathText(path);
        for (const std::optional<QString> &v : row.values)
            if (v != row.values.front())
                row.different = true;
        m_rows.push_back(std::move(row));
    }
    rebuildShown();
    endResetModel();
}

void RunConfigDiffModel::setShowAll(bool showAll)
{
    if (showAll == m_showAll)
        return;
    beginResetModel();
    m_showAll = showAll;
    rebuildShown();
    endResetModel();
}

void RunConfigDiffModel::rebuildShown()
{
    m_shown.clear();
    const bool all = m_showAll || m_configs.size() < 2;
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (all || m_rows[i].different)
            m_shown.push_back(static_cast<int>(i));
}

int RunConfigDiffModel::differenceCount() const
{
    int n = 0;
    for (const Row &r : m_rows)
        n += r.different ? 1 : 0;
    return n;
}

QString RunConfigDiffModel::path(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[static_cast<size_t>(m_shown[static_cast<size_t>(row)])].path
                                        : QString();
}

std::optional<QString> RunConfigDiffModel::value(int row, int config) const
{
    if (row < 0 || row >= rowCount() || config < 0 || config >= static_cast<int>(m_configs.size()))
        return std::nullopt;
    return m_rows[static_cast<size_t>(m_shown[static_cast<size_t>(row)])].values[static_cast<size_t>(config)];
}

int RunConfigDiffModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_shown.size());
}

int RunConfigDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstValueColumn + static_cast<int>(m_configs.size());
}

QVariant RunConfigDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[static_cast<size_t>(m_shown[static_cast<size_t>(index.row())])];
    if (role == DifferentRole)
        return r.different;
    // Every path differs in a comparison of differences only: marked when all are shown.
    if (role == Qt::BackgroundRole && r.different && m_showAll && m_configs.size() > 1)
        return QBrush(QColor(0xff, 0xf3, 0xcd));
    if (index.column() == KeyColumn) {
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return r.path.isEmpty() ? tr("(the whole config)") : r.path;
        return {};
    }
    const std::optional<QString> &v = r.values[static_cast<size_t>(index.column() - FirstValueColumn)];
    switch (role) {
    case Qt::DisplayRole:
        return v ? *v : tr("(absent)");
    case Qt::ToolTipRole:
        return v ? *v : tr("This config has no such setting.");
    case Qt::ForegroundRole:
        return v ? QVariant() : QVariant(QPalette().brush(QPalette::Disabled, QPalette::Text));
    case Qt::FontRole:
        if (!v) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    default:
        return {};
    }
}

QVariant RunConfigDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == KeyColumn)
        return tr("Setting");
    const int c = section - FirstValueColumn;
    if (c >= 0 && c < static_cast<int>(m_configs.size()))
        return m_configs[static_cast<size_t>(c)].title;
    return {};
}

} // namespace rwb::widgets
