#pragma once

#include "reward/rewardconfig.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

class ComponentWeightsEditor;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QWidget;
class SampleDetailView;
class SampleFilterProxy;
class SampleScoreModel;

// The Reward Designer: compose the extraction rewards with weights and see what each
// component gives on real samples, live.
//
// It owns the sample model and builds three panels that the main window places:
// the components panel (presets, thinking mode, one weight row per component), the
// samples panel (filter bar and the sortable sample table) and the detail panel
// (why the selected sample scored what it did). The panels are created without a
// parent; whoever puts them in a layout or a dock owns them, and the designer deletes
// those still without a parent when it is destroyed. GUI thread only.
class RewardDesigner : public QObject {
    Q_OBJECT
public:
    explicit RewardDesigner(QObject *parent = nullptr);
    ~RewardDesigner() override;

    QWidget *componentsPanel() const { return m_componentsPanel; }
    QWidget *samplesPanel() const { return m_samplesPanel; }
    QWidget *detailPanel() const { return m_detailPanel; }

    SampleScoreModel *model() const { return m_model; }
    SampleFilterProxy *proxy() const { return m_proxy; }
    ComponentWeightsEditor *weightsEditor() const { return m_weights; }
    SampleDetailView *detailView() const { return m_detail; }
    QTableView *table() const { return m_table; }

    // Loads an extraction JSONL file (a path or a ":/" resource). Malformed lines are
    // skipped and listed in `problems` ("file:line: reason"); nothing is changed when
    // the file cannot be read or holds no valid line (returns false, `error` says why).
    bool loadSamples(const QString &path, QString *error, QStringList *problems = nullptr);
    QString samplesPath() const { return m_samplesPath; }

    // Loads a reward config (a path or a ":/" resource); on failure nothing changes and
    // `error` names the file and field.
    bool loadConfig(const QString &path, QString *error);
    // Saves the current weights and mode as a reward config; components with weight 0 are left out.
    bool saveConfig(const QString &path, QString *error) const;
    void applyConfig(const rwb::reward::RewardConfig &config);
    rwb::reward::RewardConfig currentConfig() const;
    QString configPath() const { return m_configPath; }

    // The bundled presets: (display name, resource path), in file-name order.
    // The bundled presets (name, resource path) of `task` ("": every task's).
    static QVector<QPair<QString, QString>> bundledPresets(const QString &task = {});

    // Selects a row of the sample table (a proxy row) and shows it in the detail panel.
    void selectRow(int proxyRow);

    // The reward config of the training run in progress (nullopt: none). While one is set,
    // weight edits still re-score the samples at once, but reach the run only through
    // applyToRunRequested(), which the "Apply to the run…" button emits after the main
    // window's confirmation; a bar says whether the weights differ from the run's.
    void setRunningConfig(const std::optional<rwb::reward::RewardConfig> &config);
    const std::optional<rwb::reward::RewardConfig> &runningConfig() const { return m_running; }
    // The current weights in the running config's component order, or nullopt with
    // `problem` saying why they cannot go to the run (a component or the thinking mode
    // that the run does not have: only weights change during a run).
    std::optional<QVector<double>> weightsForRun(QString *problem = nullptr) const;
    // True when a run is set and the current weights differ from its weights.
    bool differsFromRun() const;
    // Puts the running config's weights back into the editor.
    void revertToRun();
    // Emits applyToRunRequested() when the weights can go to the run (as the button does).
    void requestApplyToRun();

    // File dialogs with error messages, for menus and buttons.
    void openSamplesDialog();
    void openConfigDialog();
    void saveConfigDialog();

Q_SIGNALS:
    void samplesLoaded(const QString &path, int count);
    void configLoaded(const QString &path);
    // A user-visible message for the status bar.
    void statusMessage(const QString &message);
    // The user asks for these weights (in the running config's order) to go to the run.
    void applyToRunRequested(const QVector<double> &weights);

private:
    void buildComponentsPanel();
    void buildSamplesPanel();
    void onWeightsChanged(const QVector<double> &weights);
    void onThinkingToggled(bool thinking);
    void onPresetChosen(int index);
    void updateFilter();
    void updateCount();
    void showCurrent();
    void retranslate();
    void rebuildForTask();
    void updateRunBar();
    bool eventFilter(QObject *watched, QEvent *event) override;

    SampleScoreModel *m_model = nullptr;
    SampleFilterProxy *m_proxy = nullptr;

    QPointer<QWidget> m_componentsPanel;
    QPointer<QWidget> m_samplesPanel;
    QPointer<QWidget> m_detailPanel;

    QLabel *m_presetLabel = nullptr;
    QComboBox *m_presets = nullptr;
    QPushButton *m_loadButton = nullptr;
    QPushButton *m_saveButton = nullptr;
    QCheckBox *m_thinking = nullptr;
    QLabel *m_thinkingHint = nullptr;
    QLabel *m_configLabel = nullptr;
    ComponentWeightsEditor *m_weights = nullptr;
    QWidget *m_runBar = nullptr;
    QLabel *m_runLabel = nullptr;
    QPushButton *m_applyToRun = nullptr;
    QPushButton *m_revertToRun = nullptr;
    std::optional<rwb::reward::RewardConfig> m_running;

    QLineEdit *m_search = nullptr;
    QComboBox *m_conditionColumn = nullptr;
    QComboBox *m_comparison = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QLabel *m_count = nullptr;
    QTableView *m_table = nullptr;
    SampleDetailView *m_detail = nullptr;

    QString m_samplesPath;
    QString m_configPath;
    QString m_configName;
};
