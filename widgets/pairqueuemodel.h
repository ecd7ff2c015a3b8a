#pragma once

#include "prm/preference.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>

#include <map>
#include <vector>

namespace rwb::widgets {

// The pairs of a pair set with their labels, one row a pair: its id, the question, the
// step's place (1 + the steps before it), the tree's label, the judges' (one, or "2 of 3"
// when several judges disagree), the annotator's own, how many people labelled it, and
// whether its labels disagree. Labels change in place (setLabel / removeLabel) without
// a reset, so the selection survives. The annotation view's queue. GUI thread only.
class PairQueueModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, QuestionColumn, StepColumn, TreeColumn, JudgeColumn, MineColumn, PeopleColumn,
                  StatusColumn, ColumnCount };
    enum Role {
        PairIdRole = Qt::UserRole + 1, // qint64
        MineRole,                      // bool: the annotator labelled it (a skip counts)
        DisagreementRole,              // bool: two of its labels (any source) differ
        QuestionIdRole,                // QString
    };

    explicit PairQueueModel(QObject *parent = nullptr);

    void setPairs(std::vector<prm::StepPair> pairs, const std::vector<prm::Label> &labels);
    // Whose labels "You" shows and "unlabelled" means.
    void setAnnotator(const QString &name);
    QString annotator() const { return m_annotator; }

    const std::vector<prm::StepPair> &pairs() const { return m_pairs; }
    const prm::StepPair &pair(int row) const { return m_pairs.at(static_cast<size_t>(row)); }
    int rowOf(qint64 pairId) const;
    // Every label of a pair (none: empty).
    const std::vector<prm::Label> &labelsOf(qint64 pairId) const;
    std::vector<prm::Label> allLabels() const;
    // The annotator's label of a pair, null when none.
    const prm::Label *mine(qint64 pairId) const;
    // Pairs the annotator labelled (skips included) and pairs in all.
    int labelledByMe() const;

    // Replaces the label of the same pair, source and annotator (or adds it).
    void setLabel(const prm::Label &label);
    void removeLabel(qint64 pairId, prm::Source source, const std::string &annotator);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "A", "B", "tie", "skip" as the queue writes them (translated).
    static QString choiceText(prm::Choice choice);

private:
    void rowChanged(qint64 pairId);

    std::vector<prm::StepPair> m_pairs;
    std::map<qint64, std::vector<prm::Label>> m_labels;
    std::map<qint64, int> m_rows;
    QString m_annotator;
};

// The queue's filters: everything, the pairs the annotator has not labelled, or those
// whose labels disagree; a text the question must hold; and two raters who must both have
// labelled a pair and differ on it (a cell of the agreement matrix). Sorted by the
// model's display text, the id numerically.
class PairQueueFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Mode { All, Unlabelled, Disagreements };

    explicit PairQueueFilter(QObject *parent = nullptr);

    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    void setQuestionText(const QString &text);
    // Raters as prm::raterName writes them ("tree", "judge: m", "human: ann", or
    // prm::kHumanMajority); empty names: no rater filter.
    void setRaters(const QString &first, const QString &second);
    QString firstRater() const { return m_first; }
    QString secondRater() const { return m_second; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    Mode m_mode = Mode::All;
    QString m_text;
    QString m_first, m_second;
};

} // namespace rwb::widgets
