#include "judgeevalslicemodel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>
#include <cmath>
#include <map>

namespace rwb::widgets {

namespace {
// A share below this is tinted: the slice a policy trained against the judge would find.
constexpr double kLowShare = 0.7;
const QColor kLowColour(255, 224, 178);
} // namespace

JudgeEvalSliceModel::JudgeEvalSliceModel(QObject *parent) : QAbstractTableModel(parent) {}

std::vector<JudgeEvalSlice> JudgeEvalSliceModel::slicesOf(const std::vector<judge::AgreementItem> &items)
{
    JudgeEvalSlice all;
    std::map<std::string, JudgeEvalSlice> kinds;
    std::map<int, JudgeEvalSlice> facts;
    for (const judge::AgreementItem &item : items) {
        judge::countAgreementItem(all.agreement, item);
        JudgeEvalSlice &k = kinds[item.kind];
        k.by = JudgeEvalSlice::By::Kind;
        k.key = QString::fromStdString(item.kind);
        judge::countAgreementItem(k.agreement, item);
        JudgeEvalSlice &f = facts[item.facts];
        f.by = JudgeEvalSlice::By::Facts;
        f.key = QString::number(item.facts);
        judge::countAgreementItem(f.agreement, item);
    }
    std::vector<JudgeEvalSlice> out{std::move(all)};
    for (auto &[kind, slice] : kinds)
        out.push_back(std::move(slice));
    for (auto &[n, slice] : facts)
        if (n > 0)
            out.push_back(std::move(slice));
    if (auto it = facts.find(0); it != facts.end())
        out.push_back(std::move(it->second));
    return out;
}

QString JudgeEvalSliceModel::title(const JudgeEvalSlice &slice)
{
    switch (slice.by) {
    case JudgeEvalSlice::By::All:
        return tr("All requests");
    case JudgeEvalSlice::By::Kind:
        return tr("Answer kind: %1").arg(slice.key.isEmpty() ? tr("(none)") : slice.key);
    case JudgeEvalSlice::By::Facts:
        return tr("Reference facts: %1").arg(slice.key == QLatin1String("0") ? tr("unknown") : slice.key);
    }
    return {};
}

void JudgeEvalSliceModel::setSlices(std::vector<JudgeEvalSlice> slices)
{
    beginResetModel();
    m_slices = std::move(slices);
    endResetModel();
}

int JudgeEvalSliceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_slices.size());
}

int JudgeEvalSliceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JudgeEvalSliceModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const JudgeEvalSlice &s = slice(index.row());
    judge::KindAgreement agreed; // the slice's agreement, failures counted as disagreements
    for (const auto &[kind, k] : s.agreement.byKind) {
        agreed.n += k.n;
        agreed.coverageAgrees += k.coverageAgrees;
        agreed.consistencyAgrees += k.consistencyAgrees;
    }
    const double share = index.column() == CoverageColumn        ? agreed.coverageShare()
                         : index.column() == ContradictionColumn ? agreed.consistencyShare()
                                                                 : std::nan("");
    const size_t agrees = index.column() == CoverageColumn ? agreed.coverageAgrees : agreed.consistencyAgrees;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SliceColumn:
            return title(s);
        case RequestsColumn:
            return static_cast<qulonglong>(s.agreement.requests);
        case FailedColumn:
            return static_cast<qulonglong>(s.agreement.failed);
        default:
            if (std::isnan(share))
                return QStringLiteral("—");
            return QStringLiteral("%1 (%2/%3)").arg(QString::number(share, 'f', 3)).arg(agrees).arg(agreed.n);
        }
    case ShareRole:
        return index.column() == CoverageColumn || index.column() == ContradictionColumn ? QVariant(share) : QVariant();
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == SliceColumn ? Qt::AlignLeft | Qt::AlignVCenter
                                                                 : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
        if (!std::isnan(share) && share < kLowShare)
            return QBrush(kLowColour);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == CoverageColumn || index.column() == ContradictionColumn)
            return tr("The share of the slice's requests on which the judge gave the reference grader's label; "
                      "a failed or unreadable reply counts as a disagreement");
        return {};
    default:
        return {};
    }
}

QVariant JudgeEvalSliceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SliceColumn: return tr("Slice");
    case RequestsColumn: return tr("Requests");
    case FailedColumn: return tr("Failed");
    case CoverageColumn: return tr("Coverage agrees");
    case ContradictionColumn: return tr("Contradiction agrees");
    default: return {};
    }
}

} // namespace rwb::widgets
