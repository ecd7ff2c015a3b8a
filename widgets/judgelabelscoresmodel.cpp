#include "judgelabelscoresmodel.h"

#include <cmath>

namespace rwb::widgets {

JudgeLabelScoresModel::JudgeLabelScoresModel(QObject *parent) : QAbstractTableModel(parent) {}

void JudgeLabelScoresModel::setMatrix(GradedQuantity quantity, const eval::ConfusionMatrix &matrix)
{
    beginResetModel();
    m_quantity = quantity;
    m_matrix = matrix;
    endResetModel();
}

int JudgeLabelScoresModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_matrix.labels();
}

int JudgeLabelScoresModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JudgeLabelScoresModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const int label = index.row();
    QVariant value;
    switch (index.column()) {
    case LabelColumn:
        value = JudgeAgreement::labelName(m_quantity, label);
        break;
    case PrecisionColumn:
        value = m_matrix.precision(label);
        break;
    case RecallColumn:
        value = m_matrix.recall(label);
        break;
    case F1Column:
        value = m_matrix.f1(label);
        break;
    case SupportColumn:
        value = m_matrix.referenceTotal(label);
        break;
    case JudgedColumn:
        value = m_matrix.judgedTotal(label);
        break;
    default:
        break;
    }
    switch (role) {
    case ValueRole:
        return value;
    case Qt::DisplayRole:
        if (value.typeId() == QMetaType::Double)
            return std::isnan(value.toDouble()) ? QStringLiteral("—") : QString::number(value.toDouble(), 'f', 3);
        return value;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == LabelColumn ? Qt::AlignLeft | Qt::AlignVCenter
                                                                 : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        const QString name = JudgeAgreement::labelName(m_quantity, label);
        switch (index.column()) {
        case PrecisionColumn:
            return tr("Of the %1 requests the judge called %2, the share the reference grader called %2 too")
                .arg(m_matrix.judgedTotal(label))
                .arg(name);
        case RecallColumn:
            return tr("Of the %1 requests the reference grader called %2, the share the judge called %2 too")
                .arg(m_matrix.referenceTotal(label))
                .arg(name);
        case F1Column:
            return tr("The harmonic mean of precision and recall");
        default:
            return {};
        }
    }
    default:
        return {};
    }
}

QVariant JudgeLabelScoresModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LabelColumn: return tr("Label");
    case PrecisionColumn: return tr("Precision");
    case RecallColumn: return tr("Recall");
    case F1Column: return tr("F1");
    case SupportColumn: return tr("Support");
    case JudgedColumn: return tr("Judged");
    default: return {};
    }
}

} // namespace rwb::widgets
