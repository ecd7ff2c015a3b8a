#include "importpreviewmodel.h"

#include <QFileInfo>

#include <cmath>

namespace rwb::widgets {

namespace {
// A cell shows this many characters of a long text; the tooltip holds it whole.
constexpr int kCellChars = 120;

QString oneLine(const std::string &text)
{
    QString s = QString::fromStdString(text);
    s.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
    s = s.simplified();
    return s.size() > kCellChars ? s.left(kCellChars) + QStringLiteral("…") : s;
}

QString number(double v)
{
    return QString::number(v, 'g', 6);
}
} // namespace

ImportPreviewModel::ImportPreviewModel(QObject *parent) : QAbstractTableModel(parent) {}

void ImportPreviewModel::setRows(std::vector<store::ImportPreviewRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int ImportPreviewModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ImportPreviewModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImportPreviewModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const store::ImportPreviewRow &r = row(index.row());
    const store::ExternalSample &s = r.sample;
    if (role == ValueRole) {
        if (index.column() == RewardColumn)
            return s.reward;
        if (index.column() == AdvantageColumn)
            return s.advantage ? *s.advantage : std::nan("");
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool tip = role == Qt::ToolTipRole;
    switch (index.column()) {
    case WhereColumn: {
        const QString file = tip ? QString::fromStdString(r.file) : QFileInfo(QString::fromStdString(r.file)).fileName();
        return r.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(r.line)
                          : QStringLiteral("%1, %2").arg(file, QString::fromStdString(r.where));
    }
    case StepColumn:
        return static_cast<qlonglong>(r.step);
    case PromptColumn:
        return tip ? QString::fromStdString(s.prompt) : oneLine(s.prompt);
    case CompletionColumn:
        return tip ? QString::fromStdString(s.completion) : oneLine(s.completion);
    case RewardColumn:
        if (std::isnan(s.reward))
            return tip ? tr("None: the dump gives this rollout no reward") : tr("None");
        return number(s.reward);
    case AdvantageColumn:
        if (!s.advantage)
            return tip ? tr("Not in the dump: GRPO's, from the group's rewards, is worked out on import")
                       : tr("(computed)");
        return number(*s.advantage);
    case ComponentsColumn: {
        QStringList parts;
        for (const auto &[name, value] : s.components)
            parts << QStringLiteral("%1 %2").arg(QString::fromStdString(name),
                                                 std::isnan(value) ? tr("None") : number(value));
        return parts.join(tip ? QStringLiteral("\n") : QStringLiteral(", "));
    }
    case GoldColumn:
        return tip ? QString::fromStdString(s.gold) : oneLine(s.gold);
    case GroupColumn:
        return QString::fromStdString(s.group);
    default:
        return {};
    }
}

QVariant ImportPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case WhereColumn: return tr("From");
    case StepColumn: return tr("Step");
    case PromptColumn: return tr("Prompt");
    case CompletionColumn: return tr("Completion");
    case RewardColumn: return tr("Reward");
    case AdvantageColumn: return tr("Advantage");
    case ComponentsColumn: return tr("Reward components");
    case GoldColumn: return tr("Gold");
    case GroupColumn: return tr("Group");
    default: return {};
    }
}

} // namespace rwb::widgets
