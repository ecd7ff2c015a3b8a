#pragma once

#include "judgeagreement.h"

#include "tasks/legalqa/legaljudgeagreement.h"

#include <QJsonObject>
#include <QString>
#include <QWidget>

#include <vector>

class QComboBox;
class QGroupBox;
class QLabel;
class QTabWidget;
class QTableView;

namespace rwb::widgets {

class JudgeConfusionModel;
class JudgeEvalItemModel;
class JudgeEvalSliceModel;
class JudgeLabelScoresModel;

// The result of a judge's evaluation (`rwb judge eval --json --out R.jsonl`; the Jobs
// menu's judge evaluation shows it in the Jobs dock): what it cost (requests, failures,
// cache hits, tokens, time), a slice picker (all requests, a kind of answer, a number of
// reference facts), and for the slice picked the agreement table of each graded quantity,
// coverage and contradiction: the confusion matrix (rows: the reference grader, columns:
// the judge) beside each label's precision, recall, F1 and support. The Slices tab
// compares the slices' agreement; the Requests tab lists the slice's requests, or those
// of a matrix cell clicked. The slices are counted from R.jsonl's lines with
// judge::countAgreementItem, as the command counts them. GUI thread only.
class JudgeEvalView : public QWidget {
    Q_OBJECT
public:
    explicit JudgeEvalView(QWidget *parent = nullptr);

    // Reads the lines `rwb judge eval --out` wrote. False with *error naming the file and
    // line when one cannot be read.
    static bool readItems(const QString &path, std::vector<judge::AgreementItem> *items, QString *error);
    // Shows `result` (the command's JSON: backend, requests, failed, cache_hits, tokens,
    // seconds) and the requests of its --out file. False with *error when that file
    // cannot be read (the view then shows the error).
    bool load(const QJsonObject &result, const QString &itemsPath, QString *error);
    void setItems(const QJsonObject &result, std::vector<judge::AgreementItem> items);

    // The slice picker's entries are JudgeEvalSliceModel's rows.
    QComboBox *slicePicker() const { return m_picker; }
    void setSlice(int index);
    int currentSlice() const;
    JudgeEvalSliceModel *slices() const { return m_slices; }
    // The slice's matrix and per-label figures of Coverage or Consistency.
    JudgeConfusionModel *matrix(GradedQuantity quantity) const;
    JudgeLabelScoresModel *scores(GradedQuantity quantity) const;
    // The requests listed: the slice's, or those of the cell showCell() picked.
    JudgeEvalItemModel *requests() const { return m_items; }
    // Lists the slice's requests whose `quantity` labels are `reference` and `judged`
    // (−1: any; a failed request has no judged label); GradedQuantity::None lists them all.
    void showCell(GradedQuantity quantity, int reference, int judged);
    QString summaryText() const;
    // "Coverage: agreement 0.800, macro F1 0.650 (n 10)": the title of a quantity's table.
    QString tableTitle(GradedQuantity quantity) const;

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Table {
        QGroupBox *box = nullptr;
        QLabel *title = nullptr; // tableTitle()
        JudgeConfusionModel *matrix = nullptr;
        JudgeLabelScoresModel *scores = nullptr;
    };
    Table makeTable(GradedQuantity quantity, QWidget *parent);
    void fillPicker();
    void showSlice(int index);
    void retranslate();

    QJsonObject m_result;
    std::vector<judge::AgreementItem> m_all;
    QLabel *m_summary;
    QLabel *m_sliceLabel;
    QComboBox *m_picker;
    QTabWidget *m_tabs;
    Table m_coverage;
    Table m_consistency;
    JudgeEvalSliceModel *m_slices;
    QTableView *m_sliceTable;
    JudgeEvalItemModel *m_items;
    QLabel *m_itemsTitle;
    GradedQuantity m_cellQuantity = GradedQuantity::None;
    int m_cellReference = -1;
    int m_cellJudged = -1;
};

} // namespace rwb::widgets
