#include "groupadvantagemodel.h"

#include "colourscale.h"
#include "rewardvalue.h"

#include "store/runstore.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace rwb::widgets {

namespace {
constexpr double kZeroStd = 1e-8; // the trainer's test for "all rewards equal" (core/train/advantages.h)

// Where the prompts of a step start to differ, at a line's start: the length of the lines
// they all begin with (0 with fewer than two different prompts).
qsizetype sharedLines(const std::vector<QString> &prompts)
{
    if (prompts.size() < 2)
        return 0;
    const QString &first = prompts.front();
    qsizetype common = first.size();
    bool different = false;
    for (const QString &p : prompts) {
        different = different || p != first;
        qsizetype i = 0;
        const qsizetype n = std::min(common, p.size());
        while (i < n && p[i] == first[i])
            ++i;
        common = i;
    }
    if (!different)
        return 0;
    // Back to the start of the line where they differ.
    const qsizetype lineBreak = common > 0 ? first.lastIndexOf(QLatin1Char('\n'), common - 1) : -1;
    return lineBreak + 1;
}
} // namespace

GroupAdvantageModel::GroupAdvantageModel(QObject *parent) : QAbstractTableModel(parent) {}

void GroupAdvantageModel::load(const store::RunStore &store, qint64 runId, qint64 step)
{
    const std::vector<store::StoredRollout> rows = store.stepRollouts(runId, step);
    std::map<int, Group> byIndex;
    int groupSize = 0;
    for (const store::StoredRollout &r : rows) {
        Group &g = byIndex[r.rollout.groupIndex];
        g.index = r.rollout.groupIndex;
        g.promptId = QString::fromStdString(r.rollout.promptId);
        g.prompt = QString::fromStdString(r.prompt);
        g.gold = QString::fromStdString(r.gold);
        const auto j = static_cast<size_t>(r.rollout.sampleIndex);
        if (g.samples.size() <= j)
            g.samples.resize(j + 1);
        g.samples[j] = {r.rollout.reward, r.rollout.advantage, r.id, true};
        groupSize = std::max(groupSize, r.rollout.sampleIndex + 1);
    }
    std::vector<QString> prompts;
    for (const auto &[index, g] : byIndex)
        prompts.push_back(g.prompt);
    const qsizetype shared = sharedLines(prompts);
    std::vector<Group> groups;
    for (auto &[index, g] : byIndex) {
        g.shown = g.prompt.mid(shared).trimmed();
        g.shown.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
        if (shared > 0)
            g.shown.prepend(QStringLiteral("… "));
        g.samples.resize(static_cast<size_t>(groupSize));
        // None rewards are left out, as the trainer leaves them out of its statistics.
        double sum = 0.0;
        int n = 0;
        for (const Sample &s : g.samples)
            if (s.present && !RewardValue::isNone(s.reward)) {
                sum += s.reward;
                ++n;
            }
        g.rewarded = n;
        g.mean = n > 0 ? sum / n : std::numeric_limits<double>::quiet_NaN();
        double sq = 0.0;
        for (const Sample &s : g.samples)
            if (s.present && !RewardValue::isNone(s.reward))
                sq += (s.reward - g.mean) * (s.reward - g.mean);
        g.std = n > 1 ? std::sqrt(sq / (n - 1)) : 0.0;
        g.flat = g.std <= kZeroStd;
        groups.push_back(std::move(g));
    }
    beginResetModel();
    m_groups = std::move(groups);
    m_step = step;
    m_groupSize = groupSize;
    endResetModel();
}

void GroupAdvantageModel::clear()
{
    beginResetModel();
    m_groups.clear();
    m_step = -1;
    m_groupSize = 0;
    endResetModel();
}

GroupAdvantageModel::RewardStats GroupAdvantageModel::rewardStats() const
{
    RewardStats st;
    double sum = 0.0;
    for (const Group &g : m_groups)
        for (const Sample &sample : g.samples) {
            if (!sample.present)
                continue;
            if (RewardValue::isNone(sample.reward)) {
                ++st.none;
                continue;
            }
            st.min = st.count == 0 ? sample.reward : std::min(st.min, sample.reward);
            st.max = st.count == 0 ? sample.reward : std::max(st.max, sample.reward);
            sum += sample.reward;
            ++st.count;
        }
    st.mean = st.count > 0 ? sum / st.count : 0.0;
    return st;
}

int GroupAdvantageModel::flatGroups() const
{
    int n = 0;
    for (const Group &g : m_groups)
        n += g.flat ? 1 : 0;
    return n;
}

int GroupAdvantageModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_groups.size());
}

int GroupAdvantageModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FirstSampleColumn + m_groupSize;
}

QVariant GroupAdvantageModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Group &g = m_groups[static_cast<size_t>(index.row())];
    const int col = index.column();
    auto number = [&](double v, int decimals) -> QVariant {
        if (role == ValueRole)
            return v;
        if (role == Qt::DisplayRole)
            return RewardValue::format(v, decimals);
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    };
    switch (col) {
    case GroupColumn:
        return number(g.index, 0);
    case PromptColumn:
        if (role == Qt::DisplayRole)
            return g.shown;
        if (role == ValueRole)
            return g.promptId;
        if (role == Qt::ToolTipRole) // rich text: wrapped, line breaks kept
            return QStringLiteral("<p><b>%1</b></p><p>%2</p>")
                .arg(tr("Prompt %1").arg(g.promptId).toHtmlEscaped(),
                     g.prompt.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
        return {};
    case GoldColumn:
        return role == Qt::DisplayRole || role == ValueRole ? QVariant(g.gold) : QVariant();
    case MeanColumn:
        if (role == Qt::ToolTipRole && g.rewarded < static_cast<int>(g.samples.size()))
            return tr("Over the %1 samples with a reward; None rewards are left out, as in training.").arg(g.rewarded);
        return number(g.mean, 3);
    case StdColumn:
        if (role == Qt::ToolTipRole && g.rewarded < static_cast<int>(g.samples.size()))
            return tr("Over the %1 samples with a reward; None rewards are left out, as in training.").arg(g.rewarded);
        return number(g.std, 3);
    case FlatColumn:
        if (role == ValueRole)
            return g.flat;
        if (role == Qt::DisplayRole)
            return !g.flat ? QString() : g.rewarded == 0 ? tr("all None") : g.rewarded == 1 ? tr("one reward") : tr("all equal");
        if (role == Qt::ToolTipRole && g.flat)
            return g.rewarded < 2
                       ? tr("Fewer than two samples of this group have a reward (the others are None): its advantages "
                            "are 0 and it teaches nothing.")
                       : tr("Every sample of this group got the same reward: its advantages are 0 and it teaches nothing.");
        return {};
    default:
        break;
    }
    const Sample &s = g.samples[static_cast<size_t>(col - FirstSampleColumn)];
    if (!s.present)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1 (%2%3)")
            .arg(RewardValue::format(s.reward, 2))
            .arg(s.advantage >= 0 ? QStringLiteral("+") : QString())
            .arg(s.advantage, 0, 'f', 2);
    case ValueRole:
        return s.reward;
    case AdvantageRole:
        return s.advantage;
    case RolloutIdRole:
        return QVariant::fromValue<qint64>(s.rolloutId);
    case Qt::ToolTipRole:
        if (RewardValue::isNone(s.reward))
            return tr("reward None (a judge gave no verdict): left out of the group's mean and std, advantage %1")
                .arg(s.advantage, 0, 'f', 4);
        return tr("reward %1, advantage %2").arg(s.reward, 0, 'f', 4).arg(s.advantage, 0, 'f', 4);
    case Qt::BackgroundRole:
        // The group view's scale (blue above the group mean, red below), full at ±2 std.
        return QBrush(divergingColour(s.advantage / 2.0));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant GroupAdvantageModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case GroupColumn:
        return tr("Group");
    case PromptColumn:
        return tr("Prompt");
    case GoldColumn:
        return tr("Gold");
    case MeanColumn:
        return tr("Mean");
    case StdColumn:
        return tr("Std");
    case FlatColumn:
        return tr("Flat");
    default:
        return tr("Sample %1").arg(section - FirstSampleColumn);
    }
}

} // namespace rwb::widgets
