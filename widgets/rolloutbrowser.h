#pragma once

#include "runsession.h"

#include "train/rescore.h"

#include <QPointer>
#include <QString>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTableView;
class QTimer;

namespace rwb::store {
class RunStore;
struct RolloutFilter;
}

namespace rwb::widgets {

class RolloutDetailView;
class RescoreButton;
class RolloutTableModel;

// The rollouts of one run: a filter bar (steps, reward range, component conditions
// like "marker < 0.5", truncated, a full-text search over completions and prompts),
// the paged table (RolloutTableModel) and the detail pane of the current rollout
// (RolloutDetailView). ← / → (keys on the table, or the buttons) step through the
// filtered rows. A filter applies on Enter or after a short pause in typing; a bad one
// shows a red message and leaves the table as it was. Reads the store through its run
// session's connection (RunSession). GUI thread only.
//
// The scope "all runs of the store" filters (and searches) every run of the file: a Run
// column shows, at most kAllRunsRows rows are read ("first N shown" says when more
// matched), and a rollout of another run shows in the detail pane like any other;
// activating it (double-click, Enter) asks for its run (runRequested). When another run
// of the same store is shown next, such a search stays: scope, text and where it looks.
class RolloutBrowser : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit RolloutBrowser(QWidget *parent = nullptr);
    ~RolloutBrowser() override;

    // Shows the session's run (null: nothing) with an empty filter bar, refreshed as the
    // session adds rows. On failure returns false with a message naming the file and the
    // run in `error`, and shows nothing.
    bool setSession(RunSession *session, QString *error = nullptr) override;
    void close();

    RolloutTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    RolloutDetailView *detail() const { return m_detail; }
    qint64 currentRolloutId() const { return m_currentId; }

    // The filter bar's widgets (for tests and the main window's shortcuts).
    QLineEdit *conditionEdit() const { return m_condition; }
    QLineEdit *searchEdit() const { return m_search; }
    QLabel *countLabel() const { return m_count; }
    QLabel *errorLabel() const { return m_error; }
    // The scope: this run (0) or every run of the store (1).
    QComboBox *scopeBox() const { return m_scope; }
    enum Scope { ThisRun, AllRuns };
    // The most rows a search across runs reads (kAllRunsRows unless set).
    static constexpr int kAllRunsRows = 1000;
    void setAllRunsLimit(int rows) { m_allRunsRows = rows > 0 ? rows : kAllRunsRows; }
    // Reads the filter bar and applies it now (what Enter does). Returns false, with the
    // table unchanged and the red message shown, for a bad condition or search.
    bool applyFilter();
    // Sets the filter bar's step range to [fromStep, toStep] (the other filters stay) and
    // applies it; what applyFilter() returns.
    bool showSteps(qint64 fromStep, qint64 toStep);

public Q_SLOTS:
    // Shows the rollout in the detail pane; selects its row when it passes the filter
    // (fetching pages as needed).
    void selectRollout(qint64 rolloutId);
    // Live runs: appends rollouts committed since (model()->poll()).
    void refresh();
    // The next / previous row of the filtered table (fetching the next page at the end).
    void next();
    void previous();

Q_SIGNALS:
    void rolloutSelected(qint64 rolloutId);
    // The detail pane's "judge calls" link for a rollout.
    void judgeCallsRequested(qint64 rolloutId);
    // "Re-score…" (what if): re-score `scope` of the run with the Designer's config;
    // `scopeText` says what it is ("step 3"). Always of the run shown.
    void rescoreRequested(const rwb::train::RescoreScope &scope, const QString &scopeText);
    // A rollout of another run, activated in a search across runs: show run `runId` of the
    // store at `storePath`, then rollout `rolloutId`. (Emitted from the table's own event:
    // connect it queued when the slot replaces the browser's session.)
    void runRequested(const QString &storePath, qint64 runId, qint64 rolloutId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void buildUi();
    void retranslate();
    void resetFilterBar();
    void scheduleApply();
    void showError(const QString &message);
    void updateCount();
    void sizeColumns();
    void currentRowChanged(int row);
    void showDetail(qint64 rolloutId);
    int rowOf(qint64 rolloutId) const;
    void selectRow(int row);
    void requestRescore(int scope);
    void rowActivated(int row);

    RolloutTableModel *m_model = nullptr;
    QPointer<RunSession> m_session;
    const store::RunStore *m_store = nullptr; // the session's, for the detail pane (full rollouts)
    qint64 m_runId = 0;
    qint64 m_currentId = 0;
    bool m_selecting = false; // selectRow() in progress: the row change is ours

    QTableView *m_table = nullptr;
    RolloutDetailView *m_detail = nullptr;
    QSplitter *m_splitter = nullptr;
    QLabel *m_stepLabel = nullptr, *m_rewardLabel = nullptr, *m_conditionLabel = nullptr, *m_truncatedLabel = nullptr,
           *m_searchLabel = nullptr;
    QSpinBox *m_stepFrom = nullptr, *m_stepTo = nullptr;
    QLineEdit *m_rewardMin = nullptr, *m_rewardMax = nullptr;
    QLineEdit *m_condition = nullptr;
    QComboBox *m_truncated = nullptr;
    QLineEdit *m_search = nullptr;
    QComboBox *m_searchIn = nullptr;
    QComboBox *m_scope = nullptr;
    int m_allRunsRows = kAllRunsRows;
    QPushButton *m_previous = nullptr, *m_next = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_error = nullptr;
    RescoreButton *m_rescore = nullptr;
    QTimer *m_debounce = nullptr;
};

} // namespace rwb::widgets
