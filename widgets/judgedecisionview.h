#pragma once

#include <QString>
#include "runsession.h"

#include <QPointer>
#include <QWidget>

#include <map>
#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;
class QTimer;

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

class JudgeConfusionModel;
class JudgeDecisionDetailView;
class JudgeDecisionFilter;
class JudgeDecisionModel;

// Every judge call of one run, to see why a judge gave what it gave and how far to trust
// it: a filter bar (reward, a text in the value or verdict, call or parse failures, cache
// hits or misses, a latency threshold), the decisions (JudgeDecisionModel, filled from a
// worker thread page by page; sortable, None after numbers) and the detail of the current
// one (JudgeDecisionDetailView). ← / → on the list, Alt+← / Alt+→ anywhere in the view, or
// the buttons step through the filtered list. Where a reward can be checked against the
// reference grader (the legal-QA judges' coverage and consistency), a confusion matrix per
// reward (a tab each) with per-label precision, recall and F1 and the overall agreement;
// clicking one of its cells lists the decisions behind it. The rollout detail view's
// "judge calls" link shows one rollout's calls (showRollout). GUI thread only.
class JudgeDecisionView : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit JudgeDecisionView(QWidget *parent = nullptr);
    ~JudgeDecisionView() override;

    // Shows the session's judge decisions (null: none), read on a worker thread, and the
    // new ones as the session adds rows. False with `error` naming the run and the file.
    bool setSession(RunSession *session, QString *error = nullptr) override;
    void close();
    qint64 runId() const { return m_runId; }
    QString storePath() const { return m_storePath; }

    JudgeDecisionModel *model() const { return m_model; }
    JudgeDecisionFilter *filter() const { return m_filter; }
    QTableView *table() const { return m_table; }
    JudgeDecisionDetailView *detail() const { return m_detail; }
    qint64 currentDecisionId() const { return m_currentId; }
    // The filter bar's widgets and the agreement panel (for tests and the main window).
    QComboBox *rewardCombo() const { return m_reward; }
    QLineEdit *textEdit() const { return m_text; }
    QComboBox *failuresCombo() const { return m_failures; }
    QComboBox *cacheCombo() const { return m_cache; }
    QDoubleSpinBox *latencySpin() const { return m_latency; }
    QLabel *countLabel() const { return m_count; }
    QLabel *scopeLabel() const { return m_scope; }
    // The confusion matrix of a graded reward (null when the run has none for it).
    QTableView *agreementTable(const QString &reward) const;
    QLabel *agreementSummary(const QString &reward) const;
    // Recomputes the agreement panel now (it follows the rows with a short delay).
    void updateAgreement();

public Q_SLOTS:
    // Lists only the calls made for rollout `rolloutId` (the other conditions cleared) and
    // shows the first.
    void showRollout(qint64 rolloutId);
    // Lists only the decisions of one agreement cell (labels −1: any) and shows the first.
    void showAgreementCell(const QString &reward, int referenceLabel, int judgedLabel);
    // Every condition off.
    void clearFilters();
    // Shows decision `id` (selecting its row when it passes the filter; once loaded when it
    // has not been read yet).
    void selectDecision(qint64 id);
    // A live run: reads the decisions written since.
    void refresh();
    void next();
    void previous();

Q_SIGNALS:
    void decisionSelected(qint64 decisionId);
    // The detail's "open in the rollout browser".
    void rolloutRequested(qint64 rolloutId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct AgreementBox {
        QWidget *box = nullptr; // its tab
        QTableView *table = nullptr;
        QLabel *summary = nullptr;
        JudgeConfusionModel *model = nullptr;
    };

    void buildUi();
    void retranslate();
    void resetFilterBar();
    void applyFilterBar();
    void updateRewards();
    void updateCount();
    void updateScope();
    void scopeLinkActivated(const QString &link);
    void sizeColumns();
    void rowsChanged();
    void loadingFinished();
    void currentRowChanged(const QModelIndex &current);
    void showDetail(qint64 decisionId);
    void selectProxyRow(int row);
    void selectFirstRow();
    QString agreementSummaryHtml(const QString &reward) const;

    JudgeDecisionModel *m_model = nullptr;
    JudgeDecisionFilter *m_filter = nullptr;
    QPointer<RunSession> m_session;
    const store::RunStore *m_store = nullptr; // the session's, for the detail (request, reply, rollout)
    QString m_storePath;
    qint64 m_runId = 0;
    qint64 m_currentId = 0;
    qint64 m_pendingId = 0;     // selectDecision() before its row was read
    bool m_selectFirst = false; // select the first row once there is one
    bool m_updatingBar = false;

    QLabel *m_rewardLabel = nullptr, *m_textLabel = nullptr, *m_failuresLabel = nullptr, *m_cacheLabel = nullptr,
           *m_latencyLabel = nullptr;
    QComboBox *m_reward = nullptr;
    QLineEdit *m_text = nullptr;
    QComboBox *m_failures = nullptr;
    QComboBox *m_cache = nullptr;
    QDoubleSpinBox *m_latency = nullptr;
    QPushButton *m_previous = nullptr, *m_next = nullptr;
    QLabel *m_count = nullptr;
    QLabel *m_scope = nullptr;
    QLabel *m_error = nullptr;
    QTableView *m_table = nullptr;
    JudgeDecisionDetailView *m_detail = nullptr;
    QSplitter *m_splitter = nullptr;
    QSplitter *m_leftSplitter = nullptr;
    QWidget *m_agreementScroll = nullptr; // the panel's scroll area, hidden when no reward is graded
    QWidget *m_agreementPanel = nullptr;
    QTabWidget *m_agreementTabs = nullptr; // one tab per graded reward
    QLabel *m_agreementTitle = nullptr;
    std::map<QString, AgreementBox> m_agreement;
    QTimer *m_textDebounce = nullptr;
    QTimer *m_rowsTimer = nullptr; // coalesces the pages arriving into one update
    bool m_columnsSized = false;
};

} // namespace rwb::widgets
