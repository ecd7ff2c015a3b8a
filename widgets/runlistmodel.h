#pragma once

#include "storedocument.h"
#include "store/storetypes.h"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace rwb::widgets {

// The runs of one run store as a table, read through its document's read-only connection
// (a trainer writing the same file is never blocked). refresh() reads the run list again
// (and is called when a writer in this process announces a change through the document):
// rows of known runs update in place, rows of deleted runs are removed, new runs are
// appended, and a list that changed otherwise resets the model. Lives on the GUI thread;
// a refresh is one small query (the runs table, not their rollouts).
//
// Run management writes through the document's read-write connection (renameRun,
// setRunTags, deleteRun; the Name column is editable through setData) and announces the
// change, so that every model of the document reads it again.
//
// Columns: id, name, tags, kind, status, steps, last step, created, finished, message.
class RunListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        NameColumn,
        TagsColumn,
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
    static constexpr int TagsRole = Qt::UserRole + 3;   // the run's tags (QStringList), every column

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

    // ---- run management: each writes the store, then refreshes every list of it ----
    // False with *error (translated, naming the run and the store's reason) when the store
    // refuses: no store open, no such run, the file cannot be written.
    // The name is trimmed; a blank one is refused.
    bool renameRun(qint64 runId, const QString &name, QString *error);
    // Replaces the run's tags (trimmed; blanks dropped; each once).
    bool setRunTags(qint64 runId, const QStringList &tags, QString *error);
    // Deletes the run and everything of it (store::RunStore::deleteRun: a running run that
    // wrote within the last hour is refused).
    bool deleteRun(qint64 runId, QString *error);
    // Tags as a person types them: separated by commas (",", "、" or "，"), trimmed, blanks
    // dropped, each once in the order given.
    static QStringList parseTags(const QString &text);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    // The Name column is editable (a rename) while a store is open.
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;

Q_SIGNALS:
    // An edit through setData() that the store refused (translated, for the user).
    void editFailed(const QString &message);

private:
    QString statusText(const std::string &status) const;

    std::shared_ptr<StoreDocument> m_document;
    std::vector<store::RunInfo> m_runs; // by id
};

} // namespace rwb::widgets
