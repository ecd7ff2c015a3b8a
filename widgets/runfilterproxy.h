#pragma once

#include <QSortFilterProxyModel>
#include <QString>
#include <QStringList>

namespace rwb::widgets {

// Filters a RunListModel by what a person types: every word of the text (separated by
// blanks) must be found, case-insensitively, in the run's name, one of its tags or its
// kind ("sweep grpo": GRPO runs tagged or named "sweep"). An empty text shows every run.
// Keeps the source's order (by id). GUI thread only.
class RunFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunFilterProxy(QObject *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_words.join(QLatin1Char(' ')); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QStringList m_words;
};

} // namespace rwb::widgets
