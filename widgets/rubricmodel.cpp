#include "rubricmodel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <cmath>
#include <limits>

namespace rwb::widgets {

using rwb::judge::RubricCategory;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A new item: the middle importance, RaR's usual weight for it.
rwb::judge::RubricItem defaultItem()
{
    rwb::judge::RubricItem item;
    item.category = RubricCategory::Important;
    item.weight = 3.0;
    return item;
}

double positiveWeight(const std::vector<rwb::judge::RubricItem> &items)
{
    double sum = 0.0;
    for (const auto &i : items)
        if (i.weight > 0.0)
            sum += i.weight;
    return sum;
}

} // namespace

RubricModel::RubricModel(QObject *parent) : QAbstractTableModel(parent) {}

QString RubricModel::categoryName(RubricCategory category)
{
    switch (category) {
    case RubricCategory::Essential: return tr("Essential");
    case RubricCategory::Important: return tr("Important");
    case RubricCategory::Optional: return tr("Optional");
    case RubricCategory::Pitfall: return tr("Pitfall");
    case RubricCategory::Unspecified: return tr("Unspecified");
    }
    return {};
}

void RubricModel::setRubric(const rwb::judge::Rubric &rubric)
{
    beginResetModel();
    m_items = rubric.items;
    m_verdicts.assign(m_items.size(), std::nullopt);
    endResetModel();
    setModified(false);
    Q_EMIT changed();
}

rwb::judge::Rubric RubricModel::rubric() const
{
    rwb::judge::Rubric r;
    r.items = m_items;
    return r;
}

QString RubricModel::problem() const
{
    try {
        rwb::judge::validateRubric(rubric(), "rubric");
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void RubricModel::setModified(bool modified)
{
    if (modified == m_modified)
        return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

void RubricModel::setVerdicts(const std::vector<std::optional<double>> &verdicts)
{
    if (verdicts.size() == m_items.size())
        m_verdicts = verdicts;
    else
        m_verdicts.assign(m_items.size(), std::nullopt);
    if (!m_items.empty())
        Q_EMIT dataChanged(index(0, VerdictColumn), index(rowCount() - 1, ContributionColumn));
    Q_EMIT changed();
}

std::optional<double> RubricModel::verdict(int row) const
{
    return row >= 0 && static_cast<size_t>(row) < m_verdicts.size() ? m_verdicts[static_cast<size_t>(row)] : std::nullopt;
}

std::optional<double> RubricModel::score() const
{
    if (m_items.empty() || !problem().isEmpty())
        return std::nullopt;
    return rwb::judge::explicitScore(rubric(), m_verdicts); // nullopt when one is missing
}

int RubricModel::appendItem()
{
    const int row = rowCount();
    insertRows(row, 1);
    return row;
}

int RubricModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_items.size());
}

int RubricModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RubricModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const auto &item = m_items[static_cast<size_t>(index.row())];
    const std::optional<double> c = m_verdicts[static_cast<size_t>(index.row())];
    const bool pitfall = item.category == RubricCategory::Pitfall;
    const double positive = positiveWeight(m_items);
    switch (index.column()) {
    case CategoryColumn:
        if (role == Qt::DisplayRole)
            return categoryName(item.category);
        if (role == Qt::EditRole || role == ValueRole)
            return static_cast<int>(item.category);
        if (role == Qt::ForegroundRole && pitfall)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        break;
    case WeightColumn:
        if (role == Qt::DisplayRole)
            return QString::number(item.weight, 'g', 6);
        if (role == Qt::EditRole || role == ValueRole)
            return item.weight;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ToolTipRole)
            return pitfall ? tr("A pitfall's weight is negative: a met pitfall subtracts |w|.")
                           : tr("The most this item earns; the score divides by the sum of the positive weights (%1).")
                                 .arg(positive);
        break;
    case TitleColumn:
        if (role == Qt::DisplayRole || role == Qt::EditRole || role == ValueRole)
            return QString::fromStdString(item.title);
        break;
    case CriterionColumn:
        if (role == Qt::DisplayRole || role == Qt::EditRole || role == ValueRole || role == Qt::ToolTipRole)
            return QString::fromStdString(item.criterion);
        if (role == Qt::BackgroundRole && item.criterion.empty())
            return QBrush(QColor(0xfd, 0xec, 0xea));
        break;
    case VerdictColumn:
        if (role == Qt::DisplayRole) {
            if (!c)
                return QStringLiteral("—");
            if (*c == 1.0)
                return tr("met");
            if (*c == 0.0)
                return tr("not met");
            return QString::number(*c, 'f', 2);
        }
        if (role == ValueRole)
            return c ? *c : kNaN;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignCenter);
        if (role == Qt::ToolTipRole) {
            if (!c)
                return tr("No verdict of the judge on this item as written (re-score to ask).");
            return pitfall ? tr("A pitfall is “met” when the answer makes the mistake it describes.")
                           : tr("Whether the answer meets the criterion, as the judge read it.");
        }
        if (role == Qt::ForegroundRole && c && pitfall && *c > 0.0)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        break;
    case ContributionColumn:
        if (role == Qt::DisplayRole)
            return c && positive > 0.0 ? QString::number(item.weight * *c / positive, 'f', 3) : QStringLiteral("—");
        if (role == ValueRole)
            return c && positive > 0.0 ? item.weight * *c / positive : kNaN;
        if (role == Qt::TextAlignmentRole)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ToolTipRole)
            return tr("w·c / Σw⁺: the item's part of the explicit score");
        break;
    default:
        break;
    }
    return {};
}

QVariant RubricModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (role == Qt::DisplayRole) {
        switch (section) {
        case CategoryColumn: return tr("Category");
        case WeightColumn: return tr("Weight");
        case TitleColumn: return tr("Title");
        case CriterionColumn: return tr("Criterion");
        case VerdictColumn: return tr("Verdict");
        case ContributionColumn: return tr("Contribution");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case CategoryColumn: return tr("Essential, Important, Optional or Pitfall (a mistake: negative weight)");
        case TitleColumn: return tr("A short label (optional)");
        case CriterionColumn: return tr("What the judge checks, written so that it can be judged alone");
        case VerdictColumn: return tr("The judge's verdict on the item for the selected sample");
        default: return {};
        }
    }
    return {};
}

Qt::ItemFlags RubricModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() <= CriterionColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

bool RubricModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.row() >= rowCount())
        return false;
    auto &item = m_items[static_cast<size_t>(index.row())];
    const rwb::judge::RubricItem before = item;
    switch (index.column()) {
    case CategoryColumn: {
        bool ok = false;
        const int c = value.toInt(&ok);
        if (!ok || c < static_cast<int>(RubricCategory::Essential) || c > static_cast<int>(RubricCategory::Unspecified))
            return false;
        item.category = static_cast<RubricCategory>(c);
        if (item.category == RubricCategory::Pitfall)
            item.weight = -std::abs(item.weight);
        else
            item.weight = std::abs(item.weight);
        break;
    }
    case WeightColumn: {
        bool ok = false;
        const double w = value.toDouble(&ok);
        if (!ok || !std::isfinite(w) || w == 0.0)
            return false;
        item.weight = w;
        if (w < 0.0)
            item.category = RubricCategory::Pitfall;
        else if (item.category == RubricCategory::Pitfall)
            item.weight = -w; // a pitfall keeps −|w|, whatever sign is typed
        break;
    }
    case TitleColumn:
        item.title = value.toString().trimmed().toStdString();
        break;
    case CriterionColumn:
        item.criterion = value.toString().trimmed().toStdString();
        break;
    default:
        return false;
    }
    const bool asked = item.category != before.category || item.weight != before.weight ||
                       item.criterion != before.criterion;
    if (!asked && item.title == before.title)
        return true;
    if (asked)
        m_verdicts[static_cast<size_t>(index.row())].reset();
    edited(index.row());
    return true;
}

void RubricModel::edited(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    // Σw⁺ may have changed: every contribution follows.
    if (!m_items.empty())
        Q_EMIT dataChanged(index(0, ContributionColumn), index(rowCount() - 1, ContributionColumn));
    setModified(true);
    Q_EMIT changed();
}

bool RubricModel::insertRows(int row, int count, const QModelIndex &parent)
{
    if (parent.isValid() || row < 0 || row > rowCount() || count < 1)
        return false;
    beginInsertRows(parent, row, row + count - 1);
    m_items.insert(m_items.begin() + row, static_cast<size_t>(count), defaultItem());
    m_verdicts.insert(m_verdicts.begin() + row, static_cast<size_t>(count), std::nullopt);
    endInsertRows();
    setModified(true);
    Q_EMIT changed();
    return true;
}

bool RubricModel::removeRows(int row, int count, const QModelIndex &parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > rowCount())
        return false;
    beginRemoveRows(parent, row, row + count - 1);
    m_items.erase(m_items.begin() + row, m_items.begin() + row + count);
    m_verdicts.erase(m_verdicts.begin() + row, m_verdicts.begin() + row + count);
    endRemoveRows();
    if (!m_items.empty())
        Q_EMIT dataChanged(index(0, ContributionColumn), index(rowCount() - 1, ContributionColumn));
    setModified(true);
    Q_EMIT changed();
    return true;
}

bool RubricModel::moveRows(const QModelIndex &sourceParent, int sourceRow, int count,
                           const QModelIndex &destinationParent, int destinationChild)
{
    if (sourceParent.isValid() || destinationParent.isValid() || count < 1 || sourceRow < 0 ||
        sourceRow + count > rowCount() || destinationChild < 0 || destinationChild > rowCount() ||
        (destinationChild >= sourceRow && destinationChild <= sourceRow + count))
        return false;
    if (!beginMoveRows(sourceParent, sourceRow, sourceRow + count - 1, destinationParent, destinationChild))
        return false;
    const auto move = [&](auto &v) {
        auto first = v.begin() + sourceRow;
        auto last = first + count;
        if (destinationChild < sourceRow)
            std::rotate(v.begin() + destinationChild, first, last);
        else
            std::rotate(first, last, v.begin() + destinationChild);
    };
    move(m_items);
    move(m_verdicts);
    endMoveRows();
    setModified(true);
    Q_EMIT changed();
    return true;
}

} // namespace rwb::widgets
