#include "workspace.h"

#include "tasks/extraction/extractionrecord.h"
#include "data/jsonl.h"
#include "model/modelconfig.h"
#include "store/runstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSaveFile>
#include <exception>

namespace rwb::widgets {

namespace {

// The files and folders of the layout.
const char *const kSettingsFile = "workspace.json";
const char *const kStoreFile = "runs.sqlite";
const char *const kSubfolders[] = {"models", "data", "configs"};

void setError(QString *error, const QString &message)
{
    if (error)
        *error = message;
}

// Makes the sub-folders when they are missing, and opens the store (made when missing).
std::shared_ptr<StoreDocument> completeLayout(const QString &dir, QString *error)
{
    for (const char *sub : kSubfolders) {
        const QString path = QDir(dir).filePath(QLatin1String(sub));
        if (!QDir().mkpath(path)) {
            setError(error, QCoreApplication::translate("Workspace", "%1: cannot create the folder").arg(path));
            return nullptr;
        }
    }
    const QString store = QDir(dir).filePath(QLatin1String(kStoreFile));
    QString why;
    std::shared_ptr<StoreDocument> document = StoreDocument::open(store, &why, StoreDocument::Missing::Create);
    if (!document)
        setError(error, QCoreApplication::translate("Workspace", "%1: not a run store (%2)").arg(store, why));
    return document;
}

QStringList sortedEntries(const QString &dir, const QStringList &filters, QDir::Filters kind)
{
    QStringList out;
    const QDir d(dir);
    for (const QFileInfo &fi : d.entryInfoList(filters, kind | QDir::NoDotAndDotDot, QDir::Name))
        out << fi.absoluteFilePath();
    return out;
}

} // namespace

std::optional<Workspace> Workspace::open(const QString &dir, QString *error)
{
    const QString abs = QFileInfo(dir).absoluteFilePath();
    if (!QFileInfo(abs).isDir()) {
        setError(error, QCoreApplication::translate("Workspace", "%1: no such folder").arg(abs));
        return std::nullopt;
    }
    const QString settingsPath = QDir(abs).filePath(QLatin1String(kSettingsFile));
    QFile f(settingsPath);
    if (!f.open(QIODevice::ReadOnly)) {
        setError(error, QCoreApplication::translate("Workspace", "%1: missing — not a workspace folder").arg(settingsPath));
        return std::nullopt;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        setError(error, QCoreApplication::translate("Workspace", "%1: not a JSON object (%2)")
                            .arg(settingsPath, pe.error != QJsonParseError::NoError ? pe.errorString()
                                                                                     : QCoreApplication::translate("Workspace", "top level")));
        return std::nullopt;
    }
    Workspace ws(abs);
    ws.m_store = completeLayout(abs, error);
    if (!ws.m_store)
        return std::nullopt;
    return ws;
}

std::optional<Workspace> Workspace::create(const QString &dir, QString *error)
{
    const QString abs = QFileInfo(dir).absoluteFilePath();
    if (isWorkspace(abs))
        return open(abs, error);
    const QFileInfo fi(abs);
    if (fi.exists() && !fi.isDir()) {
        setError(error, QCoreApplication::translate("Workspace", "%1: a file, not a folder").arg(abs));
        return std::nullopt;
    }
    if (fi.exists() && !QDir(abs).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System)) {
        setError(error, QCoreApplication::translate("Workspace",
                                                    "%1: the folder is not empty and is not a workspace (no %2)")
                            .arg(abs, QLatin1String(kSettingsFile)));
        return std::nullopt;
    }
    if (!QDir().mkpath(abs)) {
        setError(error, QCoreApplication::translate("Workspace", "%1: cannot create the folder").arg(abs));
        return std::nullopt;
    }
    Workspace ws(abs);
    QJsonObject settings;
    settings.insert(QStringLiteral("name"), QFileInfo(abs).fileName());
    settings.insert(QStringLiteral("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    if (!ws.saveSettings(settings, error))
        return std::nullopt;
    ws.m_store = completeLayout(abs, error);
    if (!ws.m_store)
        return std::nullopt;
    return ws;
}

bool Workspace::isWorkspace(const QString &dir)
{
    return QFileInfo(QDir(dir).filePath(QLatin1String(kSettingsFile))).isFile();
}

QString Workspace::name() const
{
    const QString n = settings().value(QStringLiteral("name")).toString();
    return n.isEmpty() ? QFileInfo(m_dir).fileName() : n;
}

QString Workspace::storePath() const
{
    return QDir(m_dir).filePath(QLatin1String(kStoreFile));
}

QString Workspace::modelsDir() const
{
    return QDir(m_dir).filePath(QStringLiteral("models"));
}

QString Workspace::dataDir() const
{
    return QDir(m_dir).filePath(QStringLiteral("data"));
}

QString Workspace::configsDir() const
{
    return QDir(m_dir).filePath(QStringLiteral("configs"));
}

QString Workspace::settingsPath() const
{
    return QDir(m_dir).filePath(QLatin1String(kSettingsFile));
}

QStringList Workspace::models() const
{
    QStringList out;
    for (const QString &d : sortedEntries(modelsDir(), {}, QDir::Dirs))
        if (QFileInfo(QDir(d).filePath(QStringLiteral("config.json"))).isFile())
            out << d;
    return out;
}

QStringList Workspace::datasets() const
{
    return sortedEntries(dataDir(), {QStringLiteral("*.jsonl")}, QDir::Files);
}

QStringList Workspace::configs() const
{
    return sortedEntries(configsDir(), {QStringLiteral("*.json")}, QDir::Files);
}

QJsonObject Workspace::settings() const
{
    QFile f(settingsPath());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

bool Workspace::saveSettings(const QJsonObject &settings, QString *error) const
{
    QSaveFile f(settingsPath());
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(settings).toJson()) < 0 || !f.commit()) {
        setError(error, QCoreApplication::translate("Workspace", "%1: cannot write (%2)").arg(settingsPath(), f.errorString()));
        return false;
    }
    return true;
}

QString checkModelFolder(const QString &dir)
{
    const QDir d(dir);
    if (!QFileInfo(dir).isDir())
        return QCoreApplication::translate("Workspace", "%1: no such folder").arg(dir);
    const QString config = d.filePath(QStringLiteral("config.json"));
    if (!QFileInfo(config).isFile())
        return QCoreApplication::translate("Workspace", "%1: missing (a model folder needs its config.json)").arg(config);
    try {
        model::loadModelConfig(dir.toStdString());
    } catch (const data::InputException &e) {
        return QString::fromStdString(e.error().toString());
    } catch (const std::exception &e) {
        return QStringLiteral("%1: %2").arg(config, QString::fromStdString(e.what()));
    }
    if (!QFileInfo(d.filePath(QStringLiteral("model.safetensors"))).isFile() &&
        !QFileInfo(d.filePath(QStringLiteral("model.safetensors.index.json"))).isFile())
        return QCoreApplication::translate("Workspace", "%1: no weights (model.safetensors or model.safetensors.index.json)")
            .arg(dir);
    if (!QFileInfo(d.filePath(QStringLiteral("tokenizer.json"))).isFile() &&
        !QFileInfo(d.filePath(QStringLiteral("tokenizer.model"))).isFile())
        return QCoreApplication::translate("Workspace", "%1: no tokenizer (tokenizer.json or tokenizer.model)").arg(dir);
    return {};
}

DatasetCheck checkDataset(const QString &path)
{
    DatasetCheck c;
    try {
        data::ExtractionReadOptions options;
        options.requireCompletion = false;
        c.records = static_cast<qsizetype>(data::readExtractionJsonl(path.toStdString(), options).records.size());
    } catch (const data::InputException &e) {
        c.message = QString::fromStdString(e.error().toString());
        return c;
    } catch (const std::exception &e) {
        c.message = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
        return c;
    }
    if (c.records == 0) {
        c.message = QCoreApplication::translate("Workspace", "%1: no records").arg(path);
        return c;
    }
    c.ok = true;
    const int n = static_cast<int>(c.records);
    c.message = QCoreApplication::translate("Workspace", "%n record(s)", nullptr, n);
    return c;
}

} // namespace rwb::widgets
