#include "judgeevalitemmodel.h"

#include "judgeagreement.h"

#include <QBrush>
#include <QColor>

namespace rwb::widgets {

namespace {
const QColor kDisagreeColour(255, 205, 210);
const QColor kFailedColour(238, 238, 238);
// A reply longer than this shows its start; the tooltip holds it whole.
constexpr int kReplyChars = 160;

int referenceLabel(const judge::AgreementItem &i, GradedQuantity q)
{
    return q == GradedQuantity::Coverage ? judge::coverageLabel(i.referenceCoverage)
                                         : judge::consistencyLabel(i.referenceContradiction ? 0.0 : 1.0);
}

int judgedLabel(const judge::AgreementItem &i, GradedQuantity q)
{
    if (!i.ok)
        return -1;
    return q == GradedQuantity::Coverage ? judge::coverageLabel(i.judgedCoverage)
                                         : judge::consistencyLabel(i.judgedContradiction ? 0.0 : 1.0);
}
} // namespace

JudgeEvalItemModel::JudgeEvalItemModel(QObject *parent) : QAbstractTableModel(parent) {}

void JudgeEvalItemModel::setItems(std::vector<judge::AgreementItem> items)
{
    beginResetModel();
    m_items = std::move(items);
    endResetModel();
}

int JudgeEvalItemModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_items.size());
}

int JudgeEvalItemModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JudgeEvalItemModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const judge::AgreementItem &i = item(index.row());
    const GradedQuantity q = index.column() == CoverageColumn        ? GradedQuantity::Coverage
                             : index.column() == ContradictionColumn ? GradedQuantity::Consistency
                                                                     : GradedQuantity::None;
    const QString reply = QString::fromStdString(i.ok ? i.reply : i.error);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return QString::fromStdString(i.id);
        case KindColumn:
            return QString::fromStdString(i.kind);
        case FactsColumn:
            return i.facts > 0 ? QVariant(i.facts) : QVariant(tr("unknown"));
        case CoverageColumn:
        case ContradictionColumn: {
            const QString judged = i.ok ? JudgeAgreement::labelName(q, judgedLabel(i, q)) : tr("failed");
            return tr("%1 → %2").arg(JudgeAgreement::labelName(q, referenceLabel(i, q)), judged);
        }
        case ReplyColumn: {
            QString line = reply.simplified();
            if (line.size() > kReplyChars)
                line = line.left(kReplyChars) + QStringLiteral("…");
            return line;
        }
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == ReplyColumn)
            return reply;
        if (q != GradedQuantity::None)
            return tr("The reference grader's label → the judge's");
        return {};
    case Qt::BackgroundRole:
        if (q == GradedQuantity::None)
            return {};
        if (!i.ok)
            return QBrush(kFailedColour);
        if (referenceLabel(i, q) != judgedLabel(i, q))
            return QBrush(kDisagreeColour);
        return {};
    default:
        return {};
    }
}

QVariant JudgeEvalItemModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn: return tr("Request");
    case KindColumn: return tr("Answer kind");
    case FactsColumn: return tr("Facts");
    case CoverageColumn: return tr("Coverage");
    case ContradictionColumn: return tr("Contradiction");
    case ReplyColumn: return tr("Reply or error");
    default: return {};
    }
}

} // namespace rwb::widgets
