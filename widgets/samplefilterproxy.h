#pragma once

#include <QSortFilterProxyModel>

// Sorts the sample table by value (numbers as numbers) and filters it by a text
// (matched in id, kind, answer and gold) and by one numeric condition on a score
// column ("marker < 0.5", "total ≥ 0.9"). GUI thread only.
class SampleFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Comparison { Less, LessOrEqual, Greater, GreaterOrEqual };

    explicit SampleFilterProxy(QObject *parent = nullptr);

    void setText(const QString &text);
    // column < 0 turns the condition off.
    void setCondition(int column, Comparison comparison, double threshold);
    int conditionColumn() const { return m_column; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_text;
    int m_column = -1;
    Comparison m_comparison = Comparison::Less;
    double m_threshold = 0.0;
};
