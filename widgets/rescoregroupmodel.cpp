#include "rescoregroupmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace rwb::widgets {

RescoreGroupModel::RescoreGroupModel(QObject *parent) : QAbstractTableModel(parent) {}

void RescoreGroupModel::setResult(std::shared_ptr<const train::RescoreResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int RescoreGroupModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->groups.size());
}

int RescoreGroupModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RescoreGroupModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_result)
        return {};
    const train::RescoredGroup &g = groupAt(index.row());
    const int c = index.column();
    auto value = [&]() -> QVariant {
        switch (c) {
        case Step: return qint64(g.step);
        case Group: return g.group;
        case Rollouts: return qint64(g.rows);
        case OldMean: return g.oldMean;
        case NewMean: return g.rescored ? QVariant(g.newMean) : QVariant();
        case OldBest: return g.oldBestSample;
        case NewBest: return g.newBestSample;
        case Flips: return g.flips;
        default: return {};
        }
    };
    switch (role) {
    case Qt::DisplayRole:
        if (!g.rescored && (c == NewMean || c == NewBest || c == Flips))
            return QStringLiteral("—");
        if (c == OldMean || c == NewMean)
            return QString::number(value().toDouble(), 'f', 3);
        if ((c == OldBest || c == NewBest) && value().toInt() < 0)
            return QStringLiteral("—");
        if (c == NewBest && g.bestChanged)
            return tr("%1 (changed)").arg(g.newBestSample);
        return value();
    case Qt::UserRole:
        return value();
    case Qt::ToolTipRole:
        if (!g.rescored)
            return tr("A rollout of this group could not be re-scored: no new advantages");
        return {};
    case Qt::ForegroundRole:
        if ((c == NewBest && g.bestChanged) || (c == Flips && g.flips > 0))
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (!g.rescored)
            return QBrush(Qt::gray);
        return {};
    case Qt::FontRole:
        if (c == NewBest && g.bestChanged) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant RescoreGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Step: return tr("Step");
    case Group: return tr("Group");
    case Rollouts: return tr("Rollouts");
    case OldMean: return tr("Stored mean");
    case NewMean: return tr("New mean");
    case OldBest: return tr("Best before");
    case NewBest: return tr("Best after");
    case Flips: return tr("Sign flips");
    default: return {};
    }
}

void RescoreGroupModel::retranslate()
{
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

} // namespace rwb::widgets
