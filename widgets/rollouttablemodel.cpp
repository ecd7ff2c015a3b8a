#include "rollouttablemodel.h"
#include "rewardvalue.h"
#include "storedrewardconfig.h"

#include "store/runstore.h"

#include <QBrush>
#include <QColor>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>
#include <cmath>
#include <limits>

namespace rwb::widgets {

namespace {
// The colour of a None reward.
const char *const kNoneColour = "#c62828";
} // namespace

RolloutTableModel::RolloutTableModel(QObject *parent) : QAbstractTableModel(parent) {}

RolloutTableModel::~RolloutTableModel() = default;

void RolloutTableModel::open(const store::RunStore &store, qint64 runId, store::RolloutFilter filter)
{
    const store::RunStore *s = &store;
    s->run(runId); // throws when there is no such run
    QStringList names;
    for (const auto &version : s->rewardConfigs(runId))
        for (const QString &name : readStoredRewardConfig(version.configJson).names)
            if (!name.isEmpty() && !names.contains(name))
                names.append(name);
    filter.runId = runId;
    bool limited = false;
    store::RolloutPage first = readPage(*s, filter, 0, 0, &limited);
    resetTo(std::move(filter), std::move(first), limited, [&] {
        m_store = s;
        m_components = names;
    });
}

void RolloutTableModel::close()
{
    resetTo({}, {}, false, [&] {
        m_store = nullptr;
        m_components.clear();
    });
}

void RolloutTableModel::setFilter(store::RolloutFilter filter)
{
    if (!m_store)
        return;
    filter.runId = m_filter.runId;
    bool limited = false;
    store::RolloutPage first = readPage(*m_store, filter, 0, 0, &limited); // throws before any change
    resetTo(std::move(filter), std::move(first), limited);
}

store::RolloutPage RolloutTableModel::readPage(const store::RunStore &store, const store::RolloutFilter &filter,
                                               int64_t afterId, size_t shown, bool *limited) const
{
    *limited = false;
    if (m_rowLimit == 0)
        return store.rollouts(filter, afterId, m_pageSize);
    const size_t limit = static_cast<size_t>(m_rowLimit);
    const size_t room = limit - std::min(shown, limit);
    if (room == 0)
        return {};
    if (room > static_cast<size_t>(m_pageSize))
        return store.rollouts(filter, afterId, m_pageSize);
    // The last page the limit allows: one row more says whether more match.
    store::RolloutPage page = store.rollouts(filter, afterId, static_cast<int>(room) + 1);
    if (page.rows.size() > room) {
        page.rows.resize(room);
        page.nextAfterId = page.rows.back().id;
        *limited = true;
    }
    page.more = false;
    return page;
}

void RolloutTableModel::resetTo(store::RolloutFilter filter, store::RolloutPage first, bool limited,
                                const std::function<void()> &alsoChange)
{
    beginResetModel();
    m_changing = true;
    if (alsoChange)
        alsoChange();
    m_filter = std::move(filter);
    m_rows.clear();
    m_afterId = 0;
    m_more = false;
    m_limitReached = limited;
    appendPage(std::move(first));
    endResetModel();
    m_changing = false;
}

RolloutTableModel::Row RolloutTableModel::makeRow(store::StoredRollout r) const
{
    Row row;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(r.rollout.rewardsJson)).object();
    for (const QString &name : m_components) {
        if (!o.contains(name))
            row.components.push_back(std::nullopt);
        else // null: None (the trainer writes a None component's NaN as null)
            row.components.push_back(o.value(name).isDouble() ? o.value(name).toDouble()
                                                              : std::numeric_limits<double>::quiet_NaN());
    }
    // The table shows neither the prompt nor the raw JSON (the detail pane reads the
    // rollout again), so a page does not keep them: ~1 KB less per row of a long run.
    r.prompt.clear();
    r.prompt.shrink_to_fit();
    r.rollout.rewardsJson.clear();
    r.rollout.rewardsJson.shrink_to_fit();
    row.stored = std::move(r);
    return row;
}

void RolloutTableModel::appendPage(store::RolloutPage page)
{
    for (store::StoredRollout &r : page.rows)
        m_rows.push_back(makeRow(std::move(r)));
    if (!page.rows.empty())
        m_afterId = page.nextAfterId;
    m_more = page.more;
}

int RolloutTableModel::insertNextPage()
{
    bool limited = false;
    store::RolloutPage page = readPage(*m_store, m_filter, m_afterId, m_rows.size(), &limited);
    m_limitReached = m_limitReached || limited;
    const int count = static_cast<int>(page.rows.size());
    if (count == 0)
        return 0;
    const int first = static_cast<int>(m_rows.size());
    m_changing = true;
    beginInsertRows({}, first, first + count - 1);
    appendPage(std::move(page));
    endInsertRows();
    m_changing = false;
    return count;
}

int RolloutTableModel::poll()
{
    if (!m_store || m_more || m_changing || m_limitReached)
        return 0;
    return insertNextPage();
}

double RolloutTableModel::componentValue(int row, int component) const
{
    return m_rows[static_cast<size_t>(row)].components[static_cast<size_t>(component)].value_or(
        std::numeric_limits<double>::quiet_NaN());
}

bool RolloutTableModel::componentRecorded(int row, int component) const
{
    return m_rows[static_cast<size_t>(row)].components[static_cast<size_t>(component)].has_value();
}

int RolloutTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RolloutTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : completionColumn() + 1;
}

bool RolloutTableModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_store && m_more;
}

void RolloutTableModel::fetchMore(const QModelIndex &parent)
{
    // Not from inside a reset's or an insert's notification: views ask again once it is over.
    if (!canFetchMore(parent) || m_changing)
        return;
    if (insertNextPage() == 0)
        m_more = false;
}

QVariant RolloutTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const Row &row = m_rows[static_cast<size_t>(index.row())];
    const store::Rollout &r = row.stored.rollout;
    const int col = index.column();
    if (role == RolloutIdRole)
        return QVariant::fromValue<qint64>(row.stored.id);
    auto number = [&](double v, int decimals) -> QVariant {
        if (role == ValueRole)
            return v;
        if (role == Qt::DisplayRole)
            return RewardValue::format(v, decimals);
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        if (role == Qt::ForegroundRole && RewardValue::isNone(v))
            return QBrush(QColor(QLatin1String(kNoneColour)));
        if (role == Qt::ToolTipRole && RewardValue::isNone(v))
            return tr("None: a judge gave no verdict, so GRPO left this rollout out of its group (advantage 0).");
        return {};
    };
    auto text = [&](const std::string &s) -> QVariant {
        if (role == Qt::DisplayRole || role == ValueRole) {
            QString t = QString::fromStdString(s);
            if (role == Qt::DisplayRole)
                t.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
            return t;
        }
        if (role == Qt::ToolTipRole)
            return QString::fromStdString(s);
        return {};
    };
    switch (col) {
    case RunColumn:
        if (role == Qt::ToolTipRole)
            return tr("Run %1 of the store").arg(row.stored.runId);
        return number(static_cast<double>(row.stored.runId), 0);
    case StepColumn:
        return number(static_cast<double>(row.stored.step), 0);
    case GroupColumn:
        return number(r.groupIndex, 0);
    case SampleColumn:
        return number(r.sampleIndex, 0);
    case RewardColumn:
        return number(r.reward, 3);
    case AdvantageColumn:
        return number(r.advantage, 3);
    default:
        break;
    }
    if (col < answerColumn()) {
        const std::optional<double> &v = row.components[static_cast<size_t>(col - FirstComponentColumn)];
        if (!v) // not a component of this rollout's config
            return role == ValueRole ? QVariant(std::numeric_limits<double>::quiet_NaN()) : QVariant();
        return number(*v, 3);
    }
    if (col == answerColumn())
        return text(r.answer);
    if (col == goldColumn())
        return text(row.stored.gold);
    if (col == tokensColumn())
        return number(r.completionTokens, 0);
    if (col == truncatedColumn()) {
        if (role == ValueRole)
            return r.truncated;
        if (role == Qt::DisplayRole)
            return r.truncated ? tr("yes") : QString();
        return {};
    }
    return text(r.completion);
}

QVariant RolloutTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case RunColumn:
        return tr("Run");
    case StepColumn:
        return tr("Step");
    case GroupColumn:
        return tr("Group");
    case SampleColumn:
        return tr("Sample");
    case RewardColumn:
        return tr("Reward");
    case AdvantageColumn:
        return tr("Advantage");
    default:
        break;
    }
    if (section < answerColumn())
        return m_components[section - FirstComponentColumn];
    if (section == answerColumn())
        return tr("Answer");
    if (section == goldColumn())
        return tr("Gold");
    if (section == tokensColumn())
        return tr("Tokens");
    if (section == truncatedColumn())
        return tr("Truncated");
    return tr("Completion");
}

} // namespace rwb::widgets
