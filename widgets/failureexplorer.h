#pragma once

#include "runsession.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QTableView;
class QTextBrowser;
class QModelIndex;

namespace rwb::eval {
struct FailureData;
struct AnalyzedPrediction;
}
namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

class FailureCategoryModel;
class FailureExampleModel;
class FailureTransitionModel;

// The failure explorer: an evaluated checkpoint's predictions grouped by what went
// wrong — the task's failure categories (task::Task::failureCategories; extraction:
// exact, marker only, recipient, third party, invented, …; legal QA: right, format,
// hallucinated / missing / wrong citation, contradiction, incomplete answer) — with counts
// and shares; the examples of a category; and one example as the task's presenter draws
// it (TaskPresenter::failureHtml: extraction's e-mail with the gold, the predictions, the
// recipient's company and the third parties highlighted under a legend; legal QA's
// citations against gold and facts against the reference) with the category's
// explanation. With a second checkpoint B: A, B and B − A per category, fixed / broke
// counts and the A → B transition matrix; clicking a cell lists its examples. The detail
// pane follows the list: when the list changes (another category, cell, A or B), the
// example stays shown, drawn again, while the list holds it, and the pane is cleared
// when it does not.
//
// A or B may be any of the run's stored evaluations ("step 40") or a predictions file
// evaluated here for one of its checkpoints (Training ▸ Evaluate a checkpoint…:
// openEvaluation(), "run 3 · step 40 (evaluated here)"), as `rwb eval failures
// --against` compares two files. Such a file goes by a key of its own (≤ -2,
// checkpointKeys()), never by a step, and is kept for as long as the explorer lives:
// whenever the explorer shows its run again, it is there beside the stored evaluations.
//
// Loading runs on the GUI thread: a few milliseconds per hundred predictions. Failures
// are returned as messages (open…() false), never thrown.
class FailureExplorer : public QWidget, public RunView {
    Q_OBJECT
public:
    explicit FailureExplorer(QWidget *parent = nullptr);
    ~FailureExplorer() override;

    // The session's stored evaluations (every checkpoint step with predictions), read
    // again when the run ends (null: none). The examples come from the run config's
    // "eval_data" JSONL (joined by id; relative paths resolve against the store file's
    // folder). Shows the first step as A and, when there are two or more, the last as B.
    // False with `error` set (naming the file) when there is nothing to show.
    bool setSession(RunSession *session, QString *error = nullptr) override;
    // Predictions files as `rwb eval run --output` writes them (the completion is the
    // model's output): `jsonl` as step 0, `compareJsonl` (optional) as step 1 and B.
    bool openPredictions(const QString &jsonl, const QString &compareJsonl = {}, QString *error = nullptr);
    // A predictions file that Training ▸ Evaluate a checkpoint… wrote for checkpoint `step`
    // of run `runId` of the store at `storePath`, labelled "run 3 · step 40 (evaluated
    // here)" and remembered (a file evaluated again replaces its predictions). Shown with
    // the run's stored evaluations when the explorer's session is that run (read again),
    // else with the files evaluated here for that run only. It becomes A, and B the stored
    // evaluation of the same step when there is one. False with `error` naming the file
    // when it cannot be read (the explorer then shows what it showed), or when its
    // predictions are of another task than the run's (the run then shows without it).
    bool openEvaluation(const QString &jsonl, const QString &storePath, qint64 runId, qint64 step,
                        QString *error = nullptr);
    void close();
    // The stored checkpoints' steps (openPredictions(): 0 and 1), in order; the files
    // evaluated here are not among them.
    QList<qint64> checkpointSteps() const;
    // Every set of predictions that can be A or B, as the combo boxes list them: the
    // steps, then the files evaluated here (their keys, ≤ -2) in the order they came.
    QList<qint64> checkpointKeys() const;
    // What the combo boxes call `key` ("step 40", "run 3 · step 40 (evaluated here)", a
    // file's name); "" for none.
    QString checkpointLabel(qint64 key) const;
    // The key of A and of B (-1: no comparison).
    qint64 checkpointA() const { return m_stepA; }
    qint64 checkpointB() const { return m_stepB; }
    // The status line above the lists, as shown.
    QString statusText() const;

    // The example shown ("" for none).
    QString currentExample() const { return m_currentId; }
    // Selects the category row of `filter` (a category index, or
    // FailureCategoryModel::FixedFilter / BrokeFilter); false when there is no such row.
    bool selectCategory(int filter);
    // Shows an example of the current list; false when it is not listed.
    bool selectExample(const QString &exampleId);

    FailureCategoryModel *categoryModel() const { return m_categories; }
    FailureExampleModel *exampleModel() const { return m_examples; }
    FailureTransitionModel *transitionModel() const { return m_transitions; }

public Q_SLOTS:
    // A and B by key (a step, or a file's key from checkpointKeys()).
    void showCheckpoint(qint64 step); // A
    void compareWith(qint64 step);    // B (-1: no comparison)

Q_SIGNALS:
    // The example in the detail pane; "" when the pane is cleared.
    void exampleSelected(const QString &exampleId);

protected:
    void changeEvent(QEvent *event) override; // LanguageChange: retranslate()

private:
    // Where a set of predictions came from: what its label says.
    struct Side {
        enum class Kind { Stored, File, EvaluatedHere };
        Kind kind = Kind::Stored;
        qint64 runId = 0;
        qint64 step = 0;
        QString path; // File, EvaluatedHere
    };
    // A file evaluated here, under its key.
    struct Evaluated {
        qint64 key = 0;
        QString path;
        QString storePath;
        qint64 runId = 0;
        qint64 step = 0;
    };

    void retranslate();
    bool loadSession(QString *error);
    // Run `runId` of `storePath`: its stored evaluations (read through `store`; null: none)
    // and the files evaluated here for it (one that no longer reads is forgotten). A and B
    // as adopt() takes them. False with `error` when there is nothing to show, or when A
    // is a file evaluated here that could not join (the rest is shown).
    bool loadRun(const rwb::store::RunStore *store, const QString &storePath, qint64 runId, qint64 a, qint64 b,
                 QString *error);
    // Shows `data`; `a` / `b` (-1: the first and the last stored step, else the first file).
    void adopt(std::unique_ptr<rwb::eval::FailureData> data, std::map<qint64, Side> sides, qint64 a = -1, qint64 b = -1);
    void updateStatus();
    void fillCombos();
    void refresh();
    void fillExamples();
    void showExample(const QString &id);
    void clearExample();
    // The prediction of `exampleId` at checkpoint `step` (a key; null: none).
    const rwb::eval::AnalyzedPrediction *prediction(qint64 step, const std::string &exampleId) const;
    void categoryClicked(const QModelIndex &index);
    void transitionClicked(const QModelIndex &index);
    void exampleClicked(const QModelIndex &index);

    QPointer<RunSession> m_session;
    std::unique_ptr<rwb::eval::FailureData> m_data;
    std::map<qint64, Side> m_sides; // key → where its predictions came from
    std::vector<Evaluated> m_evaluated;
    qint64 m_nextEvaluatedKey = -2;
    // What the status line names: run m_sourceRun of m_sourceStore, else m_sourceFile.
    QString m_sourceStore, m_sourceFile;
    qint64 m_sourceRun = 0;
    qint64 m_stepA = -1;
    qint64 m_stepB = -1;
    // What the example list shows: a category index, Fixed / Broke, or a transition.
    int m_filter = 0;
    int m_transitionA = -1, m_transitionB = -1;
    QString m_currentId;

    FailureCategoryModel *m_categories;
    FailureExampleModel *m_examples;
    FailureTransitionModel *m_transitions;
    QComboBox *m_comboA;
    QComboBox *m_comboB;
    QLabel *m_labelA;
    QLabel *m_labelB;
    QLabel *m_status;
    QTableView *m_categoryView;
    QLabel *m_compareSummary;
    QLabel *m_transitionLabel;
    QTableView *m_transitionView;
    QLabel *m_listTitle;
    QTableView *m_exampleView;
    QLabel *m_legend;
    QTextBrowser *m_emailView;
    QLabel *m_explanation;
};

} // namespace rwb::widgets
