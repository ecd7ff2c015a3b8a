#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <functional>

class QAction;
class QLineEdit;
class QModelIndex;
class QTableView;

namespace rwb::widgets {

class RunConfigDialog;
class RunFilterProxy;
class RunListModel;

// The Runs dock: the runs of a store (a RunListModel) in a table under a filter field
// (name, tag or kind: RunFilterProxy), with the run management actions in the table's
// context menu: Rename (the Name cell edits in place; F2 too), Edit tags…, Show config…,
// Compare configs… (two selected runs, RunConfigDialog) and Delete… (a confirmation that
// names the run and what goes with it). The window adds its own actions (addRunActions)
// and hears which run is activated and which was deleted. Questions go through handlers a
// test may replace. GUI thread only.
class RunTableView : public QWidget {
    Q_OBJECT
public:
    explicit RunTableView(QWidget *parent = nullptr);
    ~RunTableView() override;

    // The runs shown (not owned; outlives the view or is cleared with setModel(nullptr)).
    void setModel(RunListModel *model);
    RunListModel *model() const { return m_model; }
    RunFilterProxy *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    // Appended to the context menu after a separator.
    void addRunActions(const QList<QAction *> &actions);

    // The current run (0: none) and the selected runs, in the table's order.
    qint64 currentRunId() const;
    QList<qint64> selectedRunIds() const;
    // Makes a run current and selected (clearing a filter that hides it); false when the
    // list does not have it.
    bool selectRun(qint64 runId);

    // The actions, on the current or the selected runs. Each reports a failure through
    // notice(); delete and tags return whether the store changed.
    void renameCurrentRun();
    bool editTagsOfCurrentRun();
    bool deleteCurrentRun();
    RunConfigDialog *showConfigOfCurrentRun();
    RunConfigDialog *compareSelectedRuns();

    // Asked before a delete (title, text): true goes ahead. Default: a Yes/No message box.
    void setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler);
    // Asks for a line of text (title, label, the text to start from and the answer): false
    // when cancelled. Default: QInputDialog.
    void setTextPrompt(std::function<bool(const QString &, const QString &, QString *)> prompt);
    // Whether this program is writing a run itself (its own training): such a run is not
    // deleted.
    void setRunInUse(std::function<bool(qint64)> inUse);

Q_SIGNALS:
    // A row was activated (double click, Enter): the index is the RunListModel's.
    void activated(const QModelIndex &sourceIndex);
    // A run was deleted from the store at `storePath` (a window showing it closes it).
    void runDeleted(const QString &storePath, qint64 runId);
    // Something the user should read: a refusal or a failure.
    void notice(const QString &title, const QString &text);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void updateActions();
    int sourceRow(const QModelIndex &proxyIndex) const;
    bool confirm(const QString &title, const QString &text);

    RunListModel *m_model = nullptr;
    RunFilterProxy *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_table;
    QAction *m_rename;
    QAction *m_editTags;
    QAction *m_showConfig;
    QAction *m_compare;
    QAction *m_delete;
    QAction *m_separator;
    std::function<bool(const QString &, const QString &)> m_confirm;
    std::function<bool(const QString &, const QString &, QString *)> m_prompt;
    std::function<bool(qint64)> m_inUse;
};

} // namespace rwb::widgets
