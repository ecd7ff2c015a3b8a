#pragma once

#include <QSortFilterProxyModel>
#include <QString>

namespace rwb::widgets {

// Filters and sorts an MctsTreeListModel: a text found (case-insensitively) in the
// question's id, the question, the gold answer or the best path's answer, and "wrong
// only" (the most visited path's answer is not right). Sorts by the model's SortRole,
// numbers as numbers. GUI thread only.
class MctsTreeFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit MctsTreeFilter(QObject *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }
    void setWrongOnly(bool wrongOnly);
    bool wrongOnly() const { return m_wrongOnly; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    bool m_wrongOnly = false;
};

} // namespace rwb::widgets
