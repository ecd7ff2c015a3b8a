#pragma once

#include "storedocument.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace rwb::widgets {

// A workspace: one folder holding everything of a project —
//   runs.sqlite      the run store (every run's config, metrics, rollouts, evaluations)
//   designer.sqlite  the Reward Designer's judge calls (written by the main window's Designer)
//   models/          model folders (Hugging Face layout), e.g. the tiny default and SFT outputs
//   data/            datasets (*.jsonl)
//   configs/         reward and training configs
//   workspace.json   {"name", "created", …}: the workspace's own settings, such as the last
//                    dataset, model and config used (free keys, kept as written)
//
// open() needs workspace.json (a JSON object). Missing sub-folders are made again, and a
// missing runs.sqlite is created empty (a workspace whose store was deleted opens with no
// runs); a runs.sqlite that is not a run store is an error naming it.
//
// A value type; cheap to copy (copies share the store's document). GUI thread (the
// document's); it caches nothing else but the folder.
class Workspace {
public:
    // Opens an existing workspace. On failure returns nullopt and sets *error (if given)
    // to a message naming the missing or bad file.
    static std::optional<Workspace> open(const QString &dir, QString *error);
    // Makes the layout in `dir` (created when missing) and returns the workspace. A folder
    // that already is a workspace is opened; a non-empty folder that is not one is refused.
    static std::optional<Workspace> create(const QString &dir, QString *error);
    // True when `dir` holds a workspace.json.
    static bool isWorkspace(const QString &dir);

    QString dir() const { return m_dir; }
    QString name() const;
    QString storePath() const;
    // The run store's document, open while the workspace is.
    const std::shared_ptr<StoreDocument> &store() const { return m_store; }
    QString modelsDir() const;
    QString dataDir() const;
    QString configsDir() const;
    QString settingsPath() const;

    // Absolute paths, sorted: sub-folders of models/ holding a config.json.
    QStringList models() const;
    // Absolute paths, sorted: *.jsonl files in data/.
    QStringList datasets() const;
    // Absolute paths, sorted: *.json files in configs/.
    QStringList configs() const;

    // workspace.json as it is on disk ({} when it cannot be read).
    QJsonObject settings() const;
    // Replaces workspace.json (written atomically). False with *error naming the file.
    bool saveSettings(const QJsonObject &settings, QString *error) const;

private:
    explicit Workspace(const QString &dir) : m_dir(dir) {}
    QString m_dir;
    std::shared_ptr<StoreDocument> m_store;
};

// Checks that a model folder can be loaded, without loading its weights: config.json
// parses as a model config, the weights are there (model.safetensors or a sharded
// index) and a tokenizer is there (tokenizer.json or tokenizer.model). Returns "" when
// it loads, else a message naming the file (and the field, for a bad config.json).
// Reads only config.json: quick enough for the GUI thread.
QString checkModelFolder(const QString &dir);

// A dataset JSONL of the extraction task: whether every line parses ("completion" not
// needed), how many records it holds, and the first bad line as "file:line: reason".
// Reads the whole file: call it off the GUI thread for a large one.
struct DatasetCheck {
    bool ok = false;
    qsizetype records = 0;
    QString message;
};
DatasetCheck checkDataset(const QString &path);

} // namespace rwb::widgets
