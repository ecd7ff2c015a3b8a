#include "failurecategorymodel.h"

#include <QBrush>
#include <QColor>

#include "taskpresenter.h"
#include "tasks/extraction/extractionrecord.h"
#include "tasks/catalog.h"

namespace rwb::widgets {

using eval::FailureCategory;
using eval::PredictionSource;

FailureCategoryModel::FailureCategoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    setCategories(task::Catalog::builtin().find("")->failureCategories());
}

void FailureCategoryModel::setCategories(const std::vector<task::FailureCategory> &categories)
{
    beginResetModel();
    m_keys.clear();
    m_names.clear();
    m_explanations.clear();
    for (const task::FailureCategory &c : categories) {
        const QString key = QString::fromStdString(c.key);
        m_keys << key;
        m_names << TaskPresenter::failureCategoryName(key, QString::fromStdString(c.name));
        m_explanations << TaskPresenter::failureCategoryExplanation(key, QString::fromStdString(c.explanation));
    }
    endResetModel();
}

void FailureCategoryModel::setCounts(const eval::FailureCounts &a, const std::optional<eval::FailureCounts> &b,
                                     const eval::FailureComparison &comparison)
{
    beginResetModel();
    m_a = a;
    m_b = b;
    m_comparison = comparison;
    m_empty = false;
    endResetModel();
}

void FailureCategoryModel::clear()
{
    beginResetModel();
    m_a = {};
    m_b.reset();
    m_comparison = {};
    m_empty = true;
    endResetModel();
}

int FailureCategoryModel::rowOf(int filter) const
{
    if (m_empty)
        return -1;
    if (filter >= 0 && filter < categoryCount())
        return filter;
    if (!m_b)
        return -1;
    if (filter == FixedFilter)
        return categoryCount();
    if (filter == BrokeFilter)
        return categoryCount() + 1;
    return -1;
}

QString FailureCategoryModel::categoryName(FailureCategory c)
{
    switch (c) {
    case FailureCategory::Exact: return tr("Exact");
    case FailureCategory::NoAnswer: return tr("No answer");
    case FailureCategory::Missed: return tr("Missed (said 不明)");
    case FailureCategory::MarkerOnly: return tr("Legal-entity marker only");
    case FailureCategory::NamedWhereUnknown: return tr("Named a company where the answer is 不明");
    case FailureCategory::Recipient: return tr("Recipient's company");
    case FailureCategory::ThirdParty: return tr("Third party's company");
    case FailureCategory::Invented: return tr("Invented (not in the input)");
    case FailureCategory::OtherWrong: return tr("Other wrong span");
    }
    return {};
}

QString FailureCategoryModel::categoryExplanation(FailureCategory c)
{
    switch (c) {
    case FailureCategory::Exact:
        return tr("The prediction equals the gold after normalization (NFKC, white space removed). 不明 for 不明 counts here.");
    case FailureCategory::NoAnswer:
        return tr("The prediction is empty: the model wrote nothing, or in thinking mode no <answer> block.");
    case FailureCategory::Missed:
        return tr("The model answered 不明 although the e-mail states the sender's company.");
    case FailureCategory::MarkerOnly:
        return tr("Right company, but the legal-entity markers differ (株式会社, (株), … added, dropped or changed).");
    case FailureCategory::NamedWhereUnknown:
        return tr("The e-mail does not state the sender's company (gold 不明), but the model named one.");
    case FailureCategory::Recipient:
        return tr("The model picked the company the e-mail is addressed to, not the sender's.");
    case FailureCategory::ThirdParty:
        return tr("The model picked another company the e-mail mentions (neither sender nor recipient).");
    case FailureCategory::Invented:
        return tr("Neither the prediction nor its name without markers occurs in the e-mail or its sender line.");
    case FailureCategory::OtherWrong:
        return tr("The prediction is in the e-mail but is none of the above: a partial or overlapping span, a department, a person.");
    }
    return {};
}

QString FailureCategoryModel::sourceName(PredictionSource s)
{
    switch (s) {
    case PredictionSource::None: return tr("no company");
    case PredictionSource::Gold: return tr("overlaps the gold");
    case PredictionSource::Recipient: return tr("the recipient's company");
    case PredictionSource::ThirdParty: return tr("a third party's company");
    case PredictionSource::InText: return tr("elsewhere in the e-mail");
    case PredictionSource::NotInText: return tr("not in the e-mail");
    }
    return {};
}

int FailureCategoryModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || m_empty)
        return 0;
    return categoryCount() + (m_b ? 2 : 0);
}

int FailureCategoryModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return m_b ? 4 : 3;
}

QVariant FailureCategoryModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const int row = index.row();
    const int n = categoryCount();
    if (row >= n) {
        const bool fixed = row == n;
        const size_t count = fixed ? m_comparison.fixed : m_comparison.broke;
        switch (role) {
        case Qt::DisplayRole:
            if (index.column() == 0)
                return fixed ? tr("Fixed (wrong at A, right at B)") : tr("Broke (right at A, wrong at B)");
            if (index.column() == 1)
                return QString::number(count);
            return {};
        case FilterRole:
            return fixed ? FixedFilter : BrokeFilter;
        case CountRole:
            return static_cast<qlonglong>(count);
        case Qt::TextAlignmentRole:
            return index.column() == 0 ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
        case Qt::ForegroundRole:
            return QBrush(fixed ? QColor(0x1e, 0x84, 0x49) : QColor(0xc0, 0x39, 0x2b));
        case Qt::ToolTipRole:
            return tr("%1 of %2 examples evaluated at both checkpoints").arg(count).arg(m_comparison.joined);
        default:
            return {};
        }
    }
    const size_t a = m_a.of(static_cast<size_t>(row));
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case 0:
            return name(row);
        case 1:
            return QString::number(a);
        case 2:
            if (m_b)
                return QString::number(m_b->of(static_cast<size_t>(row)));
            return m_a.total ? QString::number(100.0 * static_cast<double>(a) / static_cast<double>(m_a.total), 'f', 1) +
                                   QLatin1String(" %")
                             : QString();
        case 3: {
            const long long d = static_cast<long long>(m_b->of(static_cast<size_t>(row))) - static_cast<long long>(a);
            return d > 0 ? QStringLiteral("+%1").arg(d) : QString::number(d);
        }
        default:
            return {};
        }
    case Qt::TextAlignmentRole:
        return index.column() == 0 ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ToolTipRole:
        return explanation(row);
    case FilterRole:
        return row;
    case CountRole:
        return static_cast<qlonglong>(a);
    default:
        return {};
    }
}

QVariant FailureCategoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case 0:
        return tr("Category");
    case 1:
        return m_b ? tr("A") : tr("Count");
    case 2:
        return m_b ? tr("B") : tr("Share");
    case 3:
        return tr("B − A");
    default:
        return {};
    }
}

} // namespace rwb::widgets
