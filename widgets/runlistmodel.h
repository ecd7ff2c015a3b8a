#pragma once

#include "storedocument.h"
#include "store/storetypes.h"

#include <QAbstractTableModel>
#include <QString>
#include <memory>
#include <vector>

namespace rwb::widgets {

// The runs of one run store as a table, read through its document's read-only connection
// (a trainer writing the same file is never blocked). refresh() reads the run list again
// (and is called when a writer in this process announces runs through the document): rows of known runs update in place, new runs are appended, and a
// list that changed otherwise (runs deleted) resets the model. Lives on the GUI thread;
// a refresh is one small query (the runs table, not their rollouts).
//
// Columns: id, name, kind, status, steps, last step, created, finished, message.
class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        NameColumn,
        KindColumn,
        StatusColumn,
        StepsColumn,
        LastStepColumn,
        CreatedColumn,
        FinishedColumn,
        MessageColumn,
        ColumnCount
    };
    static constexpr int RunIdRole = Qt::UserRole + 1;  // the run's id (qint64), every column
    static constexpr int StatusRole = Qt::UserRole + 2; // "running" | "finished" | "failed" | "stopped"

    explicit RunListModel(QObject *parent = nullptr);
    ~RunListModel() override;

    // Shows the runs of the document's store. On failure returns false, sets *error (if
    // given) to a message naming the file, and shows no runs.
    bool open(std::shared_ptr<StoreDocument> document, QString *error);
    // The same, opening the store's document first.
    bool open(const QString &storePath, QString *error);
    void close();
    QString storePath() const { return m_document ? m_document->path() : QString(); }
    const std::shared_ptr<StoreDocument> &document() const { return m_document; }
    // Reads the run list again (no-op when no store is open). A store error keeps the
    // rows shown and returns false.
    bool refresh(QString *error = nullptr);

    qint64 runId(int row) const;          // 0 for a row out of range
    int rowOfRun(qint64 runId) const;     // -1 when not shown
    const store::RunInfo *run(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString statusText(const std::string &status) const;

    std::shared_ptr<StoreDocument> m_document;
    std::vector<store::RunInfo> m_runs; // by id
};

} // namespace rwb::widgets
