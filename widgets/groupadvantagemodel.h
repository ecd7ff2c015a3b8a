#pragma once

#include <QAbstractTableModel>
#include <vector>

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

// One GRPO step's groups as rows: the group, its prompt and gold, the mean and the
// (Bessel-corrected) standard deviation of its G rewards, whether they are all equal
// (such a group has zero advantages and teaches nothing), then one column per sample —
// all G of them — with its reward (AdvantageRole: the advantage used for it;
// RolloutIdRole: the row in the store, to open it). The prompt shows as text on one line
// (line breaks as ⏎), from the first line where the step's prompts differ ("… " before
// it: a task's instructions, the same in every prompt, are left out); its tooltip holds
// the prompt id and the whole text, ValueRole the prompt id. Reads through a read-only
// RunStore the caller owns. GUI thread.
//
// A reward may be None (a judge gave no verdict; NaN, NULL in the store). As the trainer
// does (core/train/advantages.h), the mean and std of a group are taken over its other
// samples (std 0 with fewer than two, mean None with none), a None sample's advantage is
// 0, and a group with fewer than two rewards teaches nothing (flat). None shows as "None"
// (RewardValue); ValueRole gives NaN.
class GroupAdvantageModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { GroupColumn, PromptColumn, GoldColumn, MeanColumn, StdColumn, FlatColumn, FirstSampleColumn };
    static constexpr int ValueRole = Qt::UserRole + 1;     // the number behind a cell
    static constexpr int AdvantageRole = Qt::UserRole + 2; // sample cells: the advantage (double)
    static constexpr int RolloutIdRole = Qt::UserRole + 3; // sample cells: the rollout's id (qint64)

    explicit GroupAdvantageModel(QObject *parent = nullptr);

    // Shows `step` of `runId` (an empty table when the step has no rollouts). Throws
    // store::StoreError when the store cannot be read.
    void load(const rwb::store::RunStore &store, qint64 runId, qint64 step);
    // No step: an empty table (step() -1).
    void clear();
    qint64 step() const { return m_step; }
    int groupSize() const { return m_groupSize; }
    // Groups whose rewards are all equal (std ≤ 1e-8, as the trainer decides).
    int flatGroups() const;
    // The step's rewards over every sample that has one: lowest, highest, mean, and how
    // many (0: none); and how many samples are None (left out of the others).
    struct RewardStats {
        double min = 0.0, max = 0.0, mean = 0.0;
        int count = 0;
        int none = 0;
    };
    RewardStats rewardStats() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Sample {
        double reward = 0.0;
        double advantage = 0.0;
        qint64 rolloutId = 0;
        bool present = false;
    };
    struct Group {
        int index = 0;
        QString promptId;
        QString prompt; // the whole text
        QString shown;  // on one line, from where the step's prompts differ
        QString gold;
        double mean = 0.0;   // over the samples whose reward is not None (NaN when none is)
        double std = 0.0;    // likewise; 0 with fewer than two
        int rewarded = 0;    // samples whose reward is not None
        bool flat = false;
        std::vector<Sample> samples;
    };
    std::vector<Group> m_groups;
    qint64 m_step = -1;
    int m_groupSize = 0;
};

} // namespace rwb::widgets
