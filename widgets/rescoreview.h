#pragma once

#include "storedocument.h"

#include "reward/rewardconfig.h"
#include "train/rescore.h"

#include <QString>
#include <QWidget>

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace rwb::widgets {

class RescoreGroupModel;
class RescoreRunner;
class RescoreTableModel;

// What-if re-scoring (issue 43): the rollouts of a run (a step, a group, the rollout
// browser's filter) scored again with an edited reward config (the Designer's), off the
// GUI thread (RescoreRunner) with a progress bar and Cancel. Shows the run's advantage
// settings, a summary line (groups whose best completion changes, sign flips, Pearson and
// Spearman correlation of old and new advantages, the mean change of the total), the
// groups (RescoreGroupModel) and the rollouts (RescoreTableModel) with stored and new
// totals, advantages and components. Nothing is written unless "Save as evaluation"
// stores the re-score as an evaluation run of the same store (the run stays as it was).
// GUI thread only.
class RescoreView : public QWidget {
    Q_OBJECT
public:
    explicit RescoreView(QWidget *parent = nullptr);
    ~RescoreView() override;

    // A top-level window (deleted when closed) re-scoring `scope` of `document` (the run
    // its filter.runId names: the rollout browser's) with `config`; `scopeText` says what
    // was asked for ("step 3"). Shown.
    static RescoreView *openWindow(QWidget *parent, std::shared_ptr<StoreDocument> document,
                                   train::RescoreScope scope, reward::RewardConfig config, const QString &scopeText);

    // Starts the re-score of the run scope.filter.runId names (one at a time: false while
    // one runs, and, with the reason shown, for a scope without a run or a store that
    // cannot be read). The run's task is resolved (installed when it is a user's) here,
    // on the GUI thread, before the worker starts.
    bool start(std::shared_ptr<StoreDocument> document, train::RescoreScope scope, reward::RewardConfig config,
               const QString &scopeText);
    bool isRunning() const;
    RescoreRunner *runner() const { return m_runner; }
    RescoreTableModel *rolloutModel() const { return m_rows; }
    RescoreGroupModel *groupModel() const { return m_groups; }
    QTableView *rolloutTable() const { return m_rowTable; }
    QString summaryText() const;
    QString settingsText() const;

public Q_SLOTS:
    void cancel();
    // Stores the finished re-score as an evaluation run named after the config and the
    // run; false with the reason shown when there is none or the store cannot be written.
    bool saveAsEvaluation();

Q_SIGNALS:
    // The re-score ended (ok false: failed or cancelled; the message is shown too).
    void finished(bool ok);
    // A rollout's row was activated: show it (the rollout browser).
    void rolloutActivated(qint64 rolloutId);
    // An evaluation run was saved in the store.
    void saved(const QString &storePath, qint64 runId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void done(bool ok, bool cancelled, const QString &message);
    void showResult();

    RescoreRunner *m_runner = nullptr;
    RescoreTableModel *m_rows = nullptr;
    RescoreGroupModel *m_groups = nullptr;
    std::shared_ptr<StoreDocument> m_document;
    std::shared_ptr<const train::RescoreResult> m_result;
    reward::RewardConfig m_config;
    qint64 m_runId = 0;
    QString m_scopeText;
    QString m_message; // the last failure, cancel or save
    qint64 m_savedRun = 0;

    QLabel *m_title = nullptr;
    QLabel *m_settings = nullptr;
    QLabel *m_summary = nullptr;
    QProgressBar *m_progress = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_save = nullptr;
    QLabel *m_groupsLabel = nullptr, *m_rowsLabel = nullptr;
    QTableView *m_groupTable = nullptr;
    QTableView *m_rowTable = nullptr;
};

} // namespace rwb::widgets
