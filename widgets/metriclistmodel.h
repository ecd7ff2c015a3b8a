#pragma once

#include <QAbstractListModel>
#include <QSet>
#include <QStringList>

namespace rwb::widgets {

// The metric picker's list (CurvePanel): every metric name a shown run has in the store
// (policy_loss, grad_norm, reward_metric/<component>/<name>, …), sorted, each checkable:
// a checked metric gets a plot of its own. A checked name stays listed while no run has
// it, so that its plot can be taken away. Note (ToolTipRole) says which of the fixed
// plots already shows a metric. GUI thread only.
class MetricListModel : public QAbstractListModel {
    Q_OBJECT
public:
    explicit MetricListModel(QObject *parent = nullptr);

    // The runs' metric names (any order, duplicates ignored); checked names are kept.
    void setMetrics(const QStringList &names);
    QStringList metrics() const { return m_names; }
    // Checked names, sorted.
    QStringList checkedMetrics() const;
    bool isChecked(const QString &name) const { return m_checked.contains(name); }
    // Checks or unchecks `name` (listing it when it is new); emits checkedChanged when it changes.
    void setChecked(const QString &name, bool checked);
    // The row of `name` (-1 when not listed).
    int rowOf(const QString &name) const { return static_cast<int>(m_names.indexOf(name)); }

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    // A note per metric (e.g. the fixed plot that shows it), for the tooltip; "" for none.
    void setNotes(const QHash<QString, QString> &notes);

Q_SIGNALS:
    void checkedChanged(const QString &name, bool checked);

private:
    QStringList m_names; // sorted, unique
    QSet<QString> m_checked;
    QHash<QString, QString> m_notes;
};

} // namespace rwb::widgets
