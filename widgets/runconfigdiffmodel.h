#pragma once

#include <QAbstractTableModel>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace rwb::widgets {

// Run configs (runs.config_json) flattened to key paths, one row per path and one value
// column per config: "grpo.learning_rate" | 1e-05 | 2e-05. With two configs it is their
// diff: by default only the paths whose values differ (a path one config lacks counts as
// different), or every path with the differing ones marked (setShowAll). With one config it
// lists every path. Paths sort by key, array elements by index (`a.b[2].c`); values are
// JSON text (strings quoted, numbers as stored). A config that is not JSON shows as one
// row holding its text. GUI thread only.
class RunConfigDiffModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, FirstValueColumn };       // then one value column per config
    static constexpr int DifferentRole = Qt::UserRole + 1; // bool: the configs differ at this path

    struct Config {
        QString title; // the column's header, e.g. "#3 baseline"
        std::string json;
    };

    explicit RunConfigDiffModel(QObject *parent = nullptr);
    ~RunConfigDiffModel() override;

    // One config (a listing) or two (a comparison); more are compared all together.
    void setConfigs(std::vector<Config> configs);
    void setShowAll(bool showAll);
    bool showAll() const { return m_showAll; }
    // Paths in the union of the configs, and how many of them differ.
    int pathCount() const { return static_cast<int>(m_rows.size()); }
    int differenceCount() const;
    // The path of a shown row ("" out of range), and the value of config `config` there
    // (nullopt when that config lacks the path).
    QString path(int row) const;
    std::optional<QString> value(int row, int config) const;

    // One config as (path, value as JSON text) pairs in path order; false (and the text
    // as one pair with an empty path) when it is not JSON.
    static bool flatten(const std::string &json, std::vector<std::pair<QString, QString>> *out);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString path;
        std::vector<std::optional<QString>> values; // one per config
        bool different = false;
    };
    void rebuildShown();

    std::vector<Config> m_configs;
    std::vector<Row> m_rows;  // every path, in order
    std::vector<int> m_shown; // indexes into m_rows
    bool m_showAll = false;
};

} // namespace rwb::widgets
