#include "judgeconfusionmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

namespace rwb::widgets {

namespace {
// Cell tints at full strength (a cell holding every pair); lighter for fewer.
const QColor kAgreeColour(76, 175, 80);
const QColor kDisagreeColour(229, 57, 53);
const QColor kTotalColour(238, 238, 238);

QColor tint(const QColor &full, double share)
{
    const double t = 0.12 + 0.6 * std::min(1.0, std::max(0.0, share));
    return QColor::fromRgbF(1.0 - t * (1.0 - full.redF()), 1.0 - t * (1.0 - full.greenF()), 1.0 - t * (1.0 - full.blueF()));
}
} // namespace

JudgeConfusionModel::JudgeConfusionModel(QObject *parent) : QAbstractTableModel(parent) {}

void JudgeConfusionModel::setMatrix(GradedQuantity quantity, const ConfusionMatrix &matrix)
{
    beginResetModel();
    m_quantity = quantity;
    m_matrix = matrix;
    endResetModel();
}

int JudgeConfusionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_matrix.labels() == 0 ? 0 : m_matrix.labels() + 1;
}

int JudgeConfusionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || m_matrix.labels() == 0 ? 0 : m_matrix.labels() + 1;
}

QVariant JudgeConfusionModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int k = m_matrix.labels();
    const int reference = index.row() < k ? index.row() : -1;
    const int judged = index.column() < k ? index.column() : -1;
    int count = 0;
    if (reference >= 0 && judged >= 0)
        count = m_matrix.count(reference, judged);
    else if (reference >= 0)
        count = m_matrix.referenceTotal(reference);
    else if (judged >= 0)
        count = m_matrix.judgedTotal(judged);
    else
        count = m_matrix.total();
    switch (role) {
    case Qt::DisplayRole:
    case CountRole:
        return count;
    case ReferenceLabelRole:
        return reference;
    case JudgedLabelRole:
        return judged;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignCenter);
    case Qt::BackgroundRole:
        if (reference < 0 || judged < 0)
            return QBrush(kTotalColour);
        if (count == 0)
            return {};
        return QBrush(tint(reference == judged ? kAgreeColour : kDisagreeColour,
                           static_cast<double>(count) / std::max(1, m_matrix.referenceTotal(reference))));
    case Qt::FontRole:
        if (reference >= 0 && reference == judged) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole: {
        const QString r = reference >= 0 ? JudgeAgreement::labelName(m_quantity, reference) : tr("any");
        const QString j = judged >= 0 ? JudgeAgreement::labelName(m_quantity, judged) : tr("any");
        if (count == 1)
            return tr("Grader %1, judge %2: 1 call. Click to list it.").arg(r, j);
        return tr("Grader %1, judge %2: %3 calls. Click to list them.").arg(r, j).arg(count);
    }
    default:
        return {};
    }
}

QVariant JudgeConfusionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    const int k = m_matrix.labels();
    if (section < 0 || section > k)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        if (section == k)
            return tr("Total");
        return JudgeAgreement::labelName(m_quantity, section);
    }
    if (role == Qt::ToolTipRole && section < k)
        return orientation == Qt::Horizontal ? tr("The judge said %1").arg(JudgeAgreement::labelName(m_quantity, section))
                                             : tr("The reference grader said %1").arg(JudgeAgreement::labelName(m_quantity, section));
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace rwb::widgets
