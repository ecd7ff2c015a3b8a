#pragma once

#include "reward/rewardconfig.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <QVector>
#include <memory>
#include <optional>

class ComponentWeightsEditor;
class QCheckBox;
class QGroupBox;
class QProgressBar;
class QSplitter;
class QTemporaryDir;
class QTimer;
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

namespace rwb::judge {
struct Rubric;
}
namespace rwb::widgets {
class JudgeSettingsWidget;
class RubricEditor;
} // namespace rwb::widgets

// The Reward Designer: compose a task's rewards with weights and see what each component
// gives on real samples, live.
//
// It owns the sample model and builds four panels that the main window places:
// the components panel (presets, thinking mode, one weight row per component, and for a
// task with judge rewards the judge's settings), the samples panel (filter bar, the
// judge's progress with Cancel, the sortable sample table), the detail panel (why the
// selected sample scored what it did) and, for a task with judge rewards, the rubric
// panel (the rubric editor). The panels are created without a parent; whoever puts them in a layout or a dock
// owns them, and the designer deletes those still without a parent when it is destroyed.
//
// Judge rewards are scored in the background (SampleScoreModel) when a judge is set up:
// from the loaded config's "judge" object, or the judge settings and "Use this judge".
// The rubric editor follows the selected sample while it has no unsaved edits; "Apply and
// re-score" gives the samples of that question (or every sample) the edited rubric.
// GUI thread only.
class RewardDesigner : public QObject {
    Q_OBJECT
public:
    explicit RewardDesigner(QObject *parent = nullptr);
    ~RewardDesigner() override;

    QWidget *componentsPanel() const { return m_componentsPanel; }
    QWidget *samplesPanel() const { return m_samplesPanel; }
    QWidget *detailPanel() const { return m_detailPanel; }
    // The rubric editor (hidden for a task without judge rewards).
    QWidget *rubricPanel() const { return m_rubricPanel; }

    SampleScoreModel *model() const { return m_model; }
    SampleFilterProxy *proxy() const { return m_proxy; }
    ComponentWeightsEditor *weightsEditor() const { return m_weights; }
    SampleDetailView *detailView() const { return m_detail; }
    QTableView *table() const { return m_table; }
    rwb::widgets::JudgeSettingsWidget *judgeSettings() const { return m_judgeSettings; }
    rwb::widgets::RubricEditor *rubricEditor() const { return m_rubric; }
    // The judge bar's line ("Judging: 12 of 40 scores…", what failed).
    QString judgeStatus() const;
    QPushButton *cancelJudgeButton() const { return m_cancelJudge; }

    // Takes the judge settings' values as the judge of the judge rewards (none when they
    // are empty); false with `error` when they are not valid. Re-scores the judge cells
    // unless only settings that change no request changed (concurrency, the cache, timeouts).
    bool useJudgeSettings(QString *error = nullptr);
    // The judge object in force (compact JSON, "" none) and the folder its paths are relative to.
    QString judgeJson() const { return m_judgeJson; }
    // Where each re-score's judge calls are logged (a run store; by default a file in a
    // temporary folder of this Designer); the Judge tab reads it.
    void setJudgeLogPath(const QString &storePath);
    // The rubric of the sample shown in the detail, opened in the rubric editor (asks before
    // dropping unsaved edits).
    void editSelectedRubric();

    // Loads any task's JSONL samples (a path or a ":/" resource; the first line's "task"
    // picks the task, task::taskOfJsonl). Malformed lines are
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
    // Takes a config as loadConfig does a file's (its task must be the samples'; `source`
    // names it in messages and in configLoaded, and becomes configPath() when it is a
    // file). False with `error` otherwise.
    bool setConfig(const rwb::reward::RewardConfig &config, const QString &source, QString *error);
    rwb::reward::RewardConfig currentConfig() const;
    QString configPath() const { return m_configPath; }

    // The bundled presets: (display name, resource path), in file-name order.
    // The bundled presets (name, resource path) of `task` ("": every task's).
    static QVector<QPair<QString, QString>> bundledPresets(const QString &task = {});

    // Selects a row of the sample table (a proxy row) and shows it in the detail panel.
    void selectRow(int proxyRow);
    // Scrolls the sample table sideways to a component's column.
    void showComponentColumn(const QString &component);

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
    // The weights the run was sent (after its confirmation), not yet applied at a step:
    // "Apply to the run…" is not offered again for them until the weights change.
    void setWeightsSentToRun(const QVector<double> &runWeights);

    // Whether the weights or the thinking mode differ from the config last loaded: the
    // config's label and the preset then say "edited".
    bool isEdited() const;
    // The edits as a settings value (each component's weight, and "thinking"; empty when
    // not edited), and back onto the config loaded: components it does not have are
    // ignored. The main window keeps them between sessions with the config's path.
    QVariantMap edits() const;
    void restoreEdits(const QVariantMap &edits);

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
    // The user put another judge in force ("Use this judge"; a loaded config says
    // configLoaded()).
    void judgeChanged(const QString &json);
    // "Judge calls": show the Designer's judge calls (run `runId` of the store) in the Judge tab.
    void judgeCallsRequested(const QString &storePath, qint64 runId);
    // A re-score's judge calls were written to the log store.
    void judgeCallsLogged(const QString &storePath, qint64 runId);

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
    void rebuildWeightsEditor();
    void updateRunBar();
    void updateEdited();
    void updateJudgeUi();
    void updateJudgeColumns();
    void fitComponentsWidth();
    void fitColumns();
    void onJudgingStarted(int cells);
    void onJudgingProgress(int done, int total);
    void onJudgingFinished(bool cancelled, int failures, const QString &message);
    void applyRubric(const rwb::judge::Rubric &rubric, int scope);
    // Puts a judge in force; true when it differs from the one before.
    bool setJudge(const QString &json, const QString &baseDir, bool rescore);
    void followRubric(int row);
    int currentRow() const;
    bool eventFilter(QObject *watched, QEvent *event) override;

    SampleScoreModel *m_model = nullptr;
    SampleFilterProxy *m_proxy = nullptr;

    QPointer<QWidget> m_componentsPanel; // a scroll area around m_componentsInner
    QWidget *m_componentsInner = nullptr;
    QPointer<QWidget> m_samplesPanel;
    QPointer<QWidget> m_detailPanel;
    QPointer<QWidget> m_rubricPanel;

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
    std::optional<QVector<double>> m_sentToRun; // sent to the run, not applied yet
    rwb::reward::RewardConfig m_loaded; // the last config loaded (what the Designer does not edit)

    QLineEdit *m_search = nullptr;
    QComboBox *m_conditionColumn = nullptr;
    QComboBox *m_comparison = nullptr;
    QDoubleSpinBox *m_threshold = nullptr;
    QLabel *m_count = nullptr;
    QTableView *m_table = nullptr;
    SampleDetailView *m_detail = nullptr;

    QGroupBox *m_judgeBox = nullptr;
    rwb::widgets::JudgeSettingsWidget *m_judgeSettings = nullptr;
    QPushButton *m_useJudge = nullptr;
    QLabel *m_judgeHint = nullptr;
    QWidget *m_judgeBar = nullptr;
    QLabel *m_judgeStatus = nullptr;
    QProgressBar *m_judgeProgress = nullptr;
    QPushButton *m_cancelJudge = nullptr;
    QPushButton *m_rescoreJudge = nullptr;
    QPushButton *m_judgeCalls = nullptr;
    rwb::widgets::RubricEditor *m_rubric = nullptr;
    QTimer *m_refreshTimer = nullptr; // coalesces the judge's batches into one refresh of the detail
    QString m_judgeJson;    // the judge in force
    QString m_judgeBaseDir; // what its relative paths resolve against
    std::unique_ptr<QTemporaryDir> m_logDir; // the default log store's folder
    enum class JudgeStatus { Idle, Running, Done } m_judgeState = JudgeStatus::Idle;
    QString m_judgeMessage; // the last re-score's outcome, as shown

    QString m_samplesPath;
    QString m_configPath;
    QString m_configName;
    QString m_editedPreset; // the preset in force before its weights were edited
};
