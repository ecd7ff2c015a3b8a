#pragma once

#include "eval/failureanalysis.h"

#include <QAbstractTableModel>
#include <vector>

namespace rwb::widgets {

// The examples (e-mails, questions) of one failure category (or of Fixed / Broke / a transition A → B) as
// rows: id, prediction at A, (prediction at B,) gold and category. The predictions are
// the extracted answers; IdRole on any cell gives the example id. GUI thread.
class FailureExampleModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int IdRole = Qt::UserRole + 1; // QString
    enum Column { IdColumn, PredictionAColumn, PredictionBColumn, GoldColumn, CategoryColumn };

    struct Row {
        QString id;
        QString gold;
        QString answerA;
        QString categoryA; // the category's translated name
        QString answerB;   // compare mode
        QString categoryB;
    };

    explicit FailureExampleModel(QObject *parent = nullptr);

    // Without compare mode the B column is hidden (columnCount 4, columns shift left).
    void setRows(std::vector<Row> rows, bool compareMode);
    void clear();
    bool compareMode() const { return m_compare; }
    const Row &row(int r) const { return m_rows[static_cast<size_t>(r)]; }
    // The row of an id (-1: none).
    int rowOf(const QString &id) const;
    // Which Column a view column shows.
    Column columnKind(int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<Row> m_rows;
    bool m_compare = false;
};

} // namespace rwb::widgets
