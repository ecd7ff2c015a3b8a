#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QTimer;

namespace rwb::train {
struct GrpoConfig;
}
namespace rwb::reward {
struct RewardConfig;
}

namespace rwb::widgets {

class Workspace;

// The GRPO run's configuration as a form: every key of a GRPO config (docs/training.md)
// that a user tunes, grouped as Data & model / Sampling / Optimization / Loss /
// Evaluation & checkpoints, each with a tooltip and the paper's default (the first
// paper's table 4, as GrpoConfig's defaults hold them).
//
// Validation is the engine's own: the form builds the config's JSON and hands it to
// train::parseGrpoConfig; each field its message names is marked (property "invalid",
// red frame, the message as tooltip) and reported, and the check goes on with that field
// at its default to find the next problem. On top of the parser, the model folder must
// load (checkModelFolder) and the data and reward files must exist. Relative paths
// resolve against the workspace's folder (the current folder without a workspace).
//
// The reward config is a file (reward_config) or a value: in the workbench the run trains
// with the Reward Designer's config, handed in by setRewardConfig() and held inline in
// the config's JSON ("reward_config": {…}), so that no file is written for a run. When it
// has a component that needs an LLM judge (reward::Registry's needsJudge), a Judge group
// says which judge the run will call; the judge is edited in one place, the Designer
// (judgeEditRequested), and a judge the engine would refuse, or none, is a problem like
// any other.
//
// Lives on the GUI thread; validation reads only config.json of the model.
class RunSetupForm : public QWidget {
    Q_OBJECT
public:
    explicit RunSetupForm(QWidget *parent = nullptr);
    ~RunSetupForm() override;

    // Offers the workspace's models and datasets, and sets the store to its runs.sqlite
    // and an empty output to WORKSPACE/runs/<run name>.
    void setWorkspace(const Workspace &ws);
    // The reward config the run trains with, as a value (the Designer's, its paths and its
    // judge's resolved against its baseDir); none: the file reward_config names.
    void setRewardConfig(const std::optional<rwb::reward::RewardConfig> &config);
    // A reward config file instead (clears the value).
    void setRewardConfigPath(const QString &path);

    // Every problem as "field: message" (field = the config key); true when none.
    bool validate(QStringList *problems = nullptr) const;
    // The parsed config (paths absolute); the defaults when validate() fails.
    rwb::train::GrpoConfig config() const;
    void setConfig(const rwb::train::GrpoConfig &c);
    // The config's JSON as the form holds it (also when invalid).
    QJsonObject json() const;

    // Reads a GRPO config file into the form (false with *error naming the file when it
    // is not a JSON object; a config with bad values loads and shows them marked).
    bool loadFile(const QString &path, QString *error);
    // Writes the form's config (also when invalid) as JSON.
    bool saveFile(const QString &path, QString *error) const;

    // The widget editing a config key (nullptr for an unknown key), for tests and focus.
    QWidget *fieldWidget(const QString &key) const;
    // True when the reward config (as last validated) has a component that needs a judge.
    bool needsJudge() const { return m_needsJudge; }
    // The Judge group's line: which judge the run calls ("" when it needs none).
    QString judgeSummary() const;
    // The Processes field: `rwb grpo --nproc` (1: trained in this window's process).
    int processes() const;
    void setProcesses(int n);
    // Keys of the fields marked invalid by the last validation.
    QStringList invalidFields() const;

public Q_SLOTS:
    // The paper's table 4 values for everything but the paths and the run name.
    void applyPaperDefaults();
    // scripts/demo.sh --quick's GRPO values for the tiny model, a run of a few minutes on
    // 2 cores (G 8, 16 prompts, 24 tokens, temperature 0.8, LoRA r 16, learning rate 2e-3
    // on a cosine schedule, 60 steps, evaluation of 64 e-mails and checkpoints every 20
    // steps, seed 1).
    void applyDemoPreset();

Q_SIGNALS:
    void validityChanged(bool ok);
    // "Edit the judge": the judge is set up in the Reward Designer.
    void judgeEditRequested();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void build();
    // Three columns of groups when wide, one in a narrow dock.
    void arrangeGroups(int columns);
    void retranslate();
    void setValue(const QString &key, const QJsonValue &value);
    QJsonValue value(const QString &key) const;
    void setAll(const QJsonObject &json);
    void scheduleValidation();
    void runValidation();
    QString baseDir() const;
    // The problems of a config's JSON, the fields they are in, and the reward config the
    // run would read (none when it does not read).
    QStringList check(QJsonObject json, QStringList *fields, std::optional<reward::RewardConfig> *reward) const;
    // Whether the reward config needs a judge, and which; the judge's problems, if any.
    QStringList checkJudge(const std::optional<reward::RewardConfig> &config);
    // Shows the reward config field as its file or as the value it holds.
    void showRewardField();
    void mark(const QStringList &fields, const QStringList &problems);

    QHash<QString, QWidget *> m_editors;   // config key → editor
    QHash<QString, QLabel *> m_labels;     // config key → its label
    QStringList m_keys;                    // in form order
    QJsonObject m_hidden;                  // keys kept but not shown (lora_target_modules, …)
    QString m_workspaceDir;
    QLabel *m_problems = nullptr;
    QTimer *m_validateTimer = nullptr;
    QStringList m_invalid;
    bool m_lastValid = false;
    bool m_filling = false;
    bool m_needsJudge = false;
    std::optional<QJsonObject> m_rewardInline; // the reward config as a value (its JSON)
    bool m_rewardFromDesigner = false;         // … handed in by setRewardConfig
    QString m_judgeSummary;
    struct Ui;
    std::unique_ptr<Ui> m_ui;
};

} // namespace rwb::widgets
