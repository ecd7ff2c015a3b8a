#pragma once

#include "tasks/legalqa/legaljudgeagreement.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace rwb::widgets {

// One slice of a judge's evaluation (`rwb judge eval`): all its requests, those of one
// kind of answer, or those whose reference answer has a number of facts; with the
// slice's own counts (matrices, failures, agreement).
struct JudgeEvalSlice {
    enum class By { All, Kind, Facts };
    By by = By::All;
    QString key; // the kind ("" for none), or the number of facts ("0": unknown); "" for All
    judge::LegalAgreement agreement;
};

// The slices of a judge's evaluation, one a row, as `rwb judge eval` prints its tables:
// the requests, how many failed, and the share on which the judge agreed with the
// reference grader on coverage and on contradiction (a failed reply counts as a
// disagreement). Low shares are tinted. GUI thread only.
class JudgeEvalSliceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SliceColumn, RequestsColumn, FailedColumn, CoverageColumn, ContradictionColumn, ColumnCount };
    // CoverageColumn, ContradictionColumn: the share as a double (NaN for an empty slice).
    static constexpr int ShareRole = Qt::UserRole + 1;

    explicit JudgeEvalSliceModel(QObject *parent = nullptr);

    // All the requests, then one slice per kind of answer (by name), then one per number
    // of reference facts (ascending; 0, unknown, last), each counted with
    // judge::countAgreementItem.
    static std::vector<JudgeEvalSlice> slicesOf(const std::vector<judge::AgreementItem> &items);
    // "All requests", "Answer kind: wrong", "Reference facts: 2" (translated).
    static QString title(const JudgeEvalSlice &slice);

    void setSlices(std::vector<JudgeEvalSlice> slices);
    const std::vector<JudgeEvalSlice> &slices() const { return m_slices; }
    const JudgeEvalSlice &slice(int row) const { return m_slices.at(static_cast<size_t>(row)); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<JudgeEvalSlice> m_slices;
};

} // namespace rwb::widgets
