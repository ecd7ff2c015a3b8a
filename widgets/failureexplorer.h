#pragma once

#include "runsession.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <string>

class QComboBox;
class QLabel;
class QTableView;
class QTextBrowser;
class QModelIndex;

namespace rwb::eval {
struct FailureData;
struct AnalyzedPrediction;
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
// counts and the A → B transition matrix; clicking a cell lists its examples.
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
    void close();
    QList<qint64> checkpointSteps() const;
    qint64 checkpointA() const { return m_stepA; }
    qint64 checkpointB() const { return m_stepB; }

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
    void showCheckpoint(qint64 step); // A
    void compareWith(qint64 step);    // B (-1: no comparison)

Q_SIGNALS:
    void exampleSelected(const QString &exampleId);

protected:
    void changeEvent(QEvent *event) override; // LanguageChange: retranslate()

private:
    void retranslate();
    bool loadSession(QString *error);
    void adopt(std::unique_ptr<rwb::eval::FailureData> data, std::map<qint64, QString> labels, const QString &source);
    void fillCombos();
    void refresh();
    void fillExamples();
    void showExample(const QString &id);
    // The prediction of `exampleId` at checkpoint `step` (null: none, or step < 0).
    const rwb::eval::AnalyzedPrediction *prediction(qint64 step, const std::string &exampleId) const;
    void categoryClicked(const QModelIndex &index);
    void transitionClicked(const QModelIndex &index);
    void exampleClicked(const QModelIndex &index);

    QPointer<RunSession> m_session;
    std::unique_ptr<rwb::eval::FailureData> m_data;
    std::map<qint64, QString> m_labels; // step → what the combo boxes show
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
