#include "agreementmatrixmodel.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace rwb::widgets {

AgreementMatrixModel::AgreementMatrixModel(QObject *parent) : QAbstractTableModel(parent) {}

void AgreementMatrixModel::setTable(prm::AgreementTable table)
{
    const bool sameRaters = table.raters == m_table.raters;
    if (!sameRaters)
        beginResetModel();
    m_table = std::move(table);
    if (!sameRaters)
        endResetModel();
    else if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

QString AgreementMatrixModel::rater(int i) const
{
    return i >= 0 && i < rowCount() ? QString::fromStdString(m_table.raters[static_cast<size_t>(i)]) : QString();
}

QString AgreementMatrixModel::displayName(const QString &rater)
{
    if (rater == QLatin1String(prm::kHumanMajority))
        return tr("people (majority)");
    if (rater == QLatin1String("tree"))
        return tr("tree");
    if (rater.startsWith(QLatin1String("human: ")))
        return rater.mid(7);
    if (rater.startsWith(QLatin1String("judge: ")))
        return tr("judge: %1").arg(rater.mid(7));
    if (rater.startsWith(QLatin1String("import: ")))
        return tr("import: %1").arg(rater.mid(8));
    return rater;
}

int AgreementMatrixModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_table.raters.size());
}

int AgreementMatrixModel::columnCount(const QModelIndex &parent) const { return rowCount(parent); }

QVariant AgreementMatrixModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const size_t r = static_cast<size_t>(index.row()), c = static_cast<size_t>(index.column());
    const prm::PairwiseAgreement &a = m_table.matrix[r][c];
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignCenter);
    if (r == c) {
        if (role == Qt::DisplayRole)
            return tr("%n pair(s)", nullptr, static_cast<int>(m_table.labels.at(m_table.raters[r]).size()));
        if (role == Qt::BackgroundRole)
            return QBrush(QColor(0xee, 0xee, 0xee));
        return {};
    }
    if (role == Qt::DisplayRole) {
        if (a.n == 0)
            return QStringLiteral("–");
        return tr("%1 % · κ %2\n%n pair(s)", nullptr, static_cast<int>(a.n))
            .arg(100.0 * a.observed, 0, 'f', 0)
            .arg(std::isfinite(a.kappa) ? QString::number(a.kappa, 'f', 2) : QStringLiteral("–"));
    }
    if (role == Qt::ToolTipRole) {
        if (a.n == 0)
            return tr("No pair labelled by both.");
        return tr("%1 and %2 both labelled %3 pair(s) and gave the same label on %4 (%5 %); Cohen's κ %6. Click to "
                  "show the pairs they disagree on.")
            .arg(displayName(rater(index.row())), displayName(rater(index.column())))
            .arg(a.n)
            .arg(a.agree)
            .arg(100.0 * a.observed, 0, 'f', 0)
            .arg(std::isfinite(a.kappa) ? QString::number(a.kappa, 'f', 3) : tr("undefined"));
    }
    if (role == Qt::BackgroundRole && a.n > 0 && std::isfinite(a.kappa)) {
        // κ ≤ 0 red, 0.4 amber, ≥ 0.8 green (Landis and Koch's "moderate" and "almost perfect").
        const double k = std::clamp(a.kappa, 0.0, 0.8) / 0.8;
        const QColor low(0xf4, 0xc7, 0xc3), mid(0xfc, 0xe8, 0xb2), high(0xc8, 0xe6, 0xc9);
        const auto mix = [](const QColor &x, const QColor &y, double t) {
            return QColor::fromRgbF(float(x.redF() + (y.redF() - x.redF()) * t), float(x.greenF() + (y.greenF() - x.greenF()) * t),
                                    float(x.blueF() + (y.blueF() - x.blueF()) * t));
        };
        return QBrush(k < 0.5 ? mix(low, mid, k * 2) : mix(mid, high, (k - 0.5) * 2));
    }
    return {};
}

QVariant AgreementMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole || section < 0 || section >= rowCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    // Column titles wrap after "judge:" and before "(majority)", so that a matrix of five or
    // six raters fits beside the pair without scrolling; the rows keep the name on one line.
    QString name = displayName(rater(section));
    if (orientation == Qt::Horizontal) {
        name.replace(QStringLiteral(": "), QStringLiteral(":\n"));
        name.replace(QStringLiteral(" ("), QStringLiteral("\n("));
    }
    return name;
}

} // namespace rwb::widgets
