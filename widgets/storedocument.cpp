#include "storedocument.h"

#include "store/runstore.h"

#include <QFile>
#include <QFileInfo>

#include <exception>
#include <map>

namespace rwb::widgets {

namespace {

std::string nativePath(const QString &path)
{
    return QFile::encodeName(path).toStdString();
}

// The open documents by absolute path (GUI thread).
std::map<QString, std::weak_ptr<StoreDocument>> &openDocuments()
{
    static std::map<QString, std::weak_ptr<StoreDocument>> documents;
    return documents;
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
    const QString key = QFileInfo(path).absoluteFilePath();
    auto &documents = openDocuments();
    if (auto it = documents.find(key); it != documents.end()) {
        // A file deleted since (and perhaps made again) is a new document.
        if (std::shared_ptr<StoreDocument> d = it->second.lock(); d && QFileInfo::exists(path))
            return d;
        documents.erase(it);
    }
    const std::string file = nativePath(path);
    if (missing == Missing::Create && !QFileInfo::exists(path))
        store::RunStore(file, store::RunStore::OpenMode::ReadWrite); // makes the file and its schema
    auto reader = std::make_unique<store::RunStore>(file, store::RunStore::OpenMode::ReadOnly);
    std::shared_ptr<StoreDocument> d(new StoreDocument(path, std::move(reader)));
    documents[key] = d;
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
    if (!m_writer)
        m_writer = std::make_unique<store::RunStore>(nativePath(m_path), store::RunStore::OpenMode::ReadWrite);
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
