#include "rescoretablemodel.h"

#include "rewardvalue.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <cmath>
#include <limits>

namespace rwb::widgets {

namespace {
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
// Advantage colours (as the rollout detail view's).
const QColor kPositive(0x1a, 0x7f, 0x37);
const QColor kNegative(0xc6, 0x28, 0x28);

QString number(double v)
{
    return std::isnan(v) ? RewardValue::noneText() : QString::number(v, 'f', 3);
}
} // namespace

RescoreTableModel::RescoreTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void RescoreTableModel::setResult(std::shared_ptr<const train::RescoreResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int RescoreTableModel::errorColumn() const
{
    return FirstComponent + 2 * (m_result ? static_cast<int>(m_result->components.size()) : 0);
}

int RescoreTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->rows.size());
}

int RescoreTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : errorColumn() + 1;
}

QVariant RescoreTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !m_result)
        return {};
    const train::RescoredRollout &r = rolloutAt(index.row());
    const int c = index.column();
    // The cell's number (NaN when it has none).
    auto value = [&]() -> double {
        switch (c) {
        case Step: return double(r.step);
        case Group: return r.group;
        case Sample: return r.sample;
        case StoredTotal: return r.oldTotal;
        case NewTotal: return r.rescored ? r.newTotal : kNan;
        case OldAdvantage: return r.oldAdvantage;
        case NewAdvantage: return r.newAdvantage;
        case Flip: return r.flipped ? 1.0 : 0.0;
        default: break;
        }
        if (c >= FirstComponent && c < errorColumn()) {
            const size_t k = static_cast<size_t>((c - FirstComponent) / 2);
            return (c - FirstComponent) % 2 == 0 ? r.oldComponents[k] : (r.rescored ? r.newComponents[k] : kNan);
        }
        return kNan;
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (c) {
        case Step: return QString::number(r.step);
        case Group: return r.group;
        case Sample: return r.sample;
        case Answer: return QString::fromStdString(r.answer);
        case Flip: return r.flipped ? tr("flips") : QString();
        case Best:
            return r.oldBest && r.newBest ? QStringLiteral("★ → ★")
                   : r.oldBest            ? QStringLiteral("★ → ")
                   : r.newBest            ? QStringLiteral(" → ★")
                                          : QString();
        default: break;
        }
        if (c == errorColumn())
            return QString::fromStdString(r.error);
        if ((c == NewTotal || c == NewAdvantage || c >= FirstComponent) && !r.rescored)
            return QStringLiteral("—");
        return number(value());
    case Qt::UserRole:
        if (c == Answer || c == Best || c == errorColumn())
            return {};
        return value();
    case Qt::ToolTipRole:
        if (c == OldAdvantage)
            return tr("Recomputed from the stored totals with the run's advantage settings (stored: %1)")
                .arg(QString::number(r.storedAdvantage, 'f', 4));
        if (c == Best)
            return tr("★ before the arrow: among the group's best by stored total; after it: its best by new total");
        if (!r.error.empty())
            return QString::fromStdString(r.error);
        return {};
    case Qt::ForegroundRole:
        if (c == OldAdvantage || c == NewAdvantage) {
            const double v = value();
            return !std::isnan(v) && v > 0 ? QBrush(kPositive) : !std::isnan(v) && v < 0 ? QBrush(kNegative) : QVariant();
        }
        if (c == Flip || (c == errorColumn() && !r.error.empty()))
            return QBrush(kNegative);
        return {};
    case Qt::BackgroundRole:
        if (r.flipped)
            return QBrush(QColor(0xff, 0xf3, 0xcd));
        return {};
    case Qt::FontRole:
        if (c == Flip || (c == NewTotal && r.newBest)) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (c == Answer || c == errorColumn())
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant RescoreTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Step: return tr("Step");
    case Group: return tr("Group");
    case Sample: return tr("Sample");
    case Answer: return tr("Answer");
    case StoredTotal: return tr("Stored total");
    case NewTotal: return tr("New total");
    case OldAdvantage: return tr("Old advantage");
    case NewAdvantage: return tr("New advantage");
    case Flip: return tr("Sign");
    case Best: return tr("Best");
    default: break;
    }
    if (section == errorColumn())
        return tr("Error");
    const size_t k = static_cast<size_t>((section - FirstComponent) / 2);
    const QString name = QString::fromStdString(m_result->components[k]);
    return (section - FirstComponent) % 2 == 0 ? tr("%1 (stored)").arg(name) : tr("%1 (new)").arg(name);
}

void RescoreTableModel::retranslate()
{
    if (columnCount() > 0)
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

} // namespace rwb::widgets
