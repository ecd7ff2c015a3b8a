#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <utility>

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

// A run store file as the workbench's document, and the one place in the GUI that opens
// connections to it. The GUI thread reads through one read-only connection (store()) and
// writes (labels, the Designer's judge log, imports) through one read-write connection
// opened at the first write (writable()). Worker threads ask for connections of their own
// (reader(), writer()): SQLite connections are not shared between threads. A writer that
// adds runs says so (announceChange(): an import does), so that the run list shows them
// without a poll. One document per file in the process: open() of a file already open,
// however its path is spelled, gives the same document; a file deleted and made again,
// or replaced, gets a new one. GUI thread.
class StoreDocument : public QObject {
    Q_OBJECT
public:
    enum class Missing {
        Fail,  // a file that does not exist is an error
        Create // a missing file is created, with the store's schema
    };
    // The document of the store at `path`; null with `error` naming the file when it does
    // not open (not a run store, a newer schema, missing with Missing::Fail).
    static std::shared_ptr<StoreDocument> open(const QString &path, QString *error, Missing missing = Missing::Fail);
    // The same, throwing store::StoreError (naming the file) instead.
    static std::shared_ptr<StoreDocument> get(const QString &path, Missing missing = Missing::Fail);
    ~StoreDocument() override;

    // The file's absolute path.
    QString path() const { return m_path; }
    // The GUI thread's read-only connection.
    const store::RunStore &store() const { return *m_reader; }
    // The GUI thread's read-write connection, opened at the first call. Throws
    // store::StoreError naming the file when it cannot be written.
    store::RunStore &writable();
    // What a worker thread calls to get a connection of its own; the functions may outlive
    // the document and throw store::StoreError.
    using Connection = std::function<std::unique_ptr<store::RunStore>()>;
    Connection reader() const;
    Connection writer() const;
    // Says that this process wrote to the store (changed()).
    void announceChange() { Q_EMIT changed(); }

Q_SIGNALS:
    void changed();

private:
    StoreDocument(QString path, std::unique_ptr<store::RunStore> reader);

    QString m_path;
    std::unique_ptr<store::RunStore> m_reader;
    std::unique_ptr<store::RunStore> m_writer;
    std::pair<quint64, quint64> m_identity; // the file's device and inode when opened
};

} // namespace rwb::widgets
