#include "storedocument.h"

#include "store/runstore.h"

#include <QFile>
#include <QFileInfo>

#include <sys/stat.h>

#include <exception>
#include <map>

namespace rwb::widgets {

namespace {

std::string nativePath(const QString &path)
{
    return QFile::encodeName(path).toStdString();
}

// The open documents by canonical path (GUI thread).
std::map<QString, std::weak_ptr<StoreDocument>> &openDocuments()
{
    static std::map<QString, std::weak_ptr<StoreDocument>> documents;
    return documents;
}

// Which file a path is now (device and inode; {0, 0} when there is none), so that a file
// deleted and made again, or replaced, is told from the one a document has open.
std::pair<quint64, quint64> fileIdentity(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return {0, 0};
    return {static_cast<quint64>(st.st_dev), static_cast<quint64>(st.st_ino)};
}

} // namespace

std::shared_ptr<StoreDocument> StoreDocument::open(const QString &path, QString *error, Missing missing)
{
    try {
        return get(path, missing);
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return nullptr;
    }
}

std::shared_ptr<StoreDocument> StoreDocument::get(const QString &path, Missing missing)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const auto keyOf = [&] {
        const QString canonical = QFileInfo(absolute).canonicalFilePath(); // one key for every spelling
        return canonical.isEmpty() ? absolute : canonical;
    };
    auto &documents = openDocuments();
    if (auto it = documents.find(keyOf()); it != documents.end()) {
        // A file deleted since, made again or replaced, is a new document.
        if (std::shared_ptr<StoreDocument> d = it->second.lock(); d && d->m_identity == fileIdentity(absolute))
            return d;
        documents.erase(it);
    }
    const std::string file = nativePath(absolute);
    if (missing == Missing::Create && !QFileInfo::exists(absolute))
        store::RunStore(file, store::RunStore::OpenMode::ReadWrite); // makes the file and its schema
    auto reader = std::make_unique<store::RunStore>(file, store::RunStore::OpenMode::ReadOnly);
    std::shared_ptr<StoreDocument> d(new StoreDocument(absolute, std::move(reader)));
    d->m_identity = fileIdentity(absolute);
    documents[keyOf()] = d;
    return d;
}

StoreDocument::StoreDocument(QString path, std::unique_ptr<store::RunStore> reader)
    : m_path(std::move(path))
    , m_reader(std::move(reader))
{
}

StoreDocument::~StoreDocument() = default;

store::RunStore &StoreDocument::writable()
{
    if (!m_writer) {
        m_writer = std::make_unique<store::RunStore>(nativePath(m_path), store::RunStore::OpenMode::ReadWrite);
        // Opening for writing upgrades an older file's schema: the reader, which read the
        // version once when it opened, must see the new one.
        if (m_writer->schemaVersion() != m_reader->schemaVersion())
            m_reader = std::make_unique<store::RunStore>(nativePath(m_path), store::RunStore::OpenMode::ReadOnly);
    }
    return *m_writer;
}

StoreDocument::Connection StoreDocument::reader() const
{
    return [file = nativePath(m_path)] {
        return std::make_unique<store::RunStore>(file, store::RunStore::OpenMode::ReadOnly);
    };
}

StoreDocument::Connection StoreDocument::writer() const
{
    return [file = nativePath(m_path)] {
        return std::make_unique<store::RunStore>(file, store::RunStore::OpenMode::ReadWrite);
    };
}

} // namespace rwb::widgets
