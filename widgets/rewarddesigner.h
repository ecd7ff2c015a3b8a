#pragma once

#include "reward/rewardconfig.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QVector>

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
    static QVector<QPair<QString, QString>> bundledPresets();

    // Selects a row of the sample table (a proxy row) and shows it in the detail panel.
    void selectRow(int proxyRow);

    // File dialogs with error messages, for menus and buttons.
    void openSamplesDialog();
    void openConfigDialog();
    void saveConfigDialog();

Q_SIGNALS:
    void samplesLoaded(const QString &path, int count);
    void configLoaded(const QString &path);
    // A user-visible message for the status bar.
    void statusMessage(const QString &message);

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
