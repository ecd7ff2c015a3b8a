#pragma once

#include "runsession.h"

#include <QPointer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QLabel;
class QModelIndex;
class QSlider;
class QSpinBox;
class QTableView;

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

class GroupAdvantageModel;
class SampleBarDelegate;

// One GRPO step's groups, a row each: the prompt's text (its tooltip the whole prompt),
// the G samples drawn as bars whose length is the reward and whose colour is the advantage
// (blue above the group's mean, red below), the group's mean and ±std marked in every
// sample cell, and groups whose rewards are all equal greyed and flagged (their
// advantages are 0: they teach nothing). The columns fit the width: all G samples show
// (narrower cells give the reward alone) while the table is wide enough, and it scrolls
// sideways when it is not. A step chooser
// (spin box, slider, "follow latest") and a summary line sit above the table. Clicking a
// sample emits rolloutActivated() with its row id in the store.
//
// Reads the run through its session's connection (RunSession); one step is a few dozen
// rows, read on the GUI thread. GUI thread only.
class GroupAdvantageView : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit GroupAdvantageView(QWidget *parent = nullptr);
    ~GroupAdvantageView() override;

    // Shows the session's run at its last step and each step it adds (null: nothing).
    bool setSession(RunSession *session, QString *error = nullptr) override;
    // Shows nothing and lets the session go.
    void close();

    GroupAdvantageModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    // The step shown (-1 when none).
    qint64 step() const;
    // The last step written as far as this view knows (-1 when none).
    qint64 lastStep() const { return m_lastStep; }
    // Whether a newly written step is shown as it arrives (default true). Choosing any
    // other step than the latest turns it off.
    bool followLatest() const;
    void setFollowLatest(bool follow);
    // The summary line above the table, as shown.
    QString summaryText() const;

public Q_SLOTS:
    // Shows `step` (an empty table when it has no rollouts), e.g. from the curves' step cursor.
    void showStep(qint64 step);
    // A new step was committed: extends the step range and, when following, shows it.
    void stepWritten(qint64 step);

Q_SIGNALS:
    void rolloutActivated(qint64 rolloutId);
    void stepChanged(qint64 step);

protected:
    // Enter or Return on a sample cell opens it, as a click does.
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override; // LanguageChange: retranslate()

private:
    void retranslate();
    void load(qint64 step);
    void updateRange();
    void updateSummary();
    // Widths for every column: all G samples on screen when the table is wide enough.
    void fitColumns();
    void sampleClicked(const QModelIndex &index);

    QPointer<RunSession> m_session;
    const rwb::store::RunStore *m_store = nullptr; // the session's
    qint64 m_runId = 0;
    qint64 m_firstStep = 0;
    qint64 m_lastStep = -1;
    QString m_loadError;

    GroupAdvantageModel *m_model = nullptr;
    SampleBarDelegate *m_delegate = nullptr;
    QTableView *m_table = nullptr;
    QSpinBox *m_spin = nullptr;
    QSlider *m_slider = nullptr;
    QCheckBox *m_follow = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_stepLabel = nullptr;
    QLabel *m_key = nullptr;
};

} // namespace rwb::widgets
