#include "judgedecisionmodel.h"

#include "rewardvalue.h"

#include "store/runstore.h"

#include <QBrush>
#include <QColor>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

namespace rwb::widgets {

namespace {

// The colour of None values and failures.
const char *const kFailureColour = "#c62828";

// Reads the decisions of `runId` with id > afterId in pages of `pageSize` and hands each
// page to `page`, until there are no more or `cancel` is set. Throws store::StoreError.
void readDecisions(const RunSession::Reader &reader, qint64 runId, qint64 afterId, int pageSize,
                   const std::atomic_bool &cancel, const std::function<void(std::vector<JudgeDecisionRow>)> &page)
{
    const std::unique_ptr<store::RunStore> store = reader();
    const store::RunStore &s = *store;
    qint64 after = afterId;
    while (!cancel.load()) {
        std::vector<JudgeDecisionRow> rows;
        rows.reserve(static_cast<size_t>(pageSize));
        for (const store::JudgeDecisionListing &d :
             s.judgeDecisionListing(runId, after, pageSize, [&cancel] { return !cancel.load(); })) {
            JudgeDecisionRow r;
            r.id = d.id;
            r.step = d.step;
            r.rolloutId = d.rolloutId;
            r.exampleId = QString::fromStdString(d.exampleId);
            r.reward = QString::fromStdString(d.reward);
            r.part = QString::fromStdString(d.part);
            r.verdict = JudgeVerdictSummary::read(d.verdict, d.reward);
            r.error = QString::fromStdString(d.error);
            r.value = d.value;
            r.latencySeconds = d.latencySeconds;
            r.promptTokens = d.promptTokens;
            r.completionTokens = d.completionTokens;
            r.cost = d.cost;
            r.cacheHit = d.cacheHit;
            r.attempts = d.attempts;
            r.hasReply = d.hasReply;
            r.graded = JudgeAgreement::quantity(r.reward, r.verdict, r.value);
            if (r.graded != GradedQuantity::None) {
                r.judgedLabel = r.error.isEmpty() ? JudgeAgreement::label(r.graded, r.value) : -1;
                r.referenceLabel =
                    JudgeAgreement::label(r.graded, r.graded == GradedQuantity::Coverage ? d.coverageGrade : d.consistencyGrade);
            }
            r.groupIndex = d.groupIndex;
            r.sampleIndex = d.sampleIndex;
            rows.push_back(std::move(r));
        }
        if (rows.empty() || cancel.load())
            return;
        after = rows.back().id;
        const bool full = static_cast<int>(rows.size()) >= pageSize;
        page(std::move(rows));
        if (!full)
            return;
    }
}

} // namespace

JudgeDecisionModel::JudgeDecisionModel(QObject *parent) : QAbstractTableModel(parent) {}

JudgeDecisionModel::~JudgeDecisionModel()
{
    stopWorker();
}

void JudgeDecisionModel::open(const RunSession &session)
{
    session.store().run(session.runId()); // throws when there is no such run
    stopWorker();
    beginResetModel();
    m_rows.clear();
    m_rewards.clear();
    m_path = session.storePath();
    m_reader = session.reader();
    m_runId = session.runId();
    endResetModel();
    startWorker(0);
}

void JudgeDecisionModel::close()
{
    stopWorker();
    beginResetModel();
    m_rows.clear();
    m_rewards.clear();
    m_path.clear();
    m_reader = nullptr;
    m_runId = 0;
    endResetModel();
}

void JudgeDecisionModel::refresh()
{
    if (m_thread || m_runId <= 0)
        return;
    startWorker(m_rows.empty() ? 0 : m_rows.back().id);
}

void JudgeDecisionModel::startWorker(qint64 afterId)
{
    const int generation = ++m_generation;
    auto cancel = std::make_shared<std::atomic_bool>(false);
    m_cancel = cancel;
    m_thread = QThread::create([this, cancel, generation, afterId, reader = m_reader, run = m_runId,
                                pageSize = m_pageSize] {
        QString error;
        try {
            readDecisions(reader, run, afterId, pageSize, *cancel, [&](std::vector<JudgeDecisionRow> rows) {
                auto page = std::make_shared<std::vector<JudgeDecisionRow>>(std::move(rows));
                QMetaObject::invokeMethod(
                    this, [this, generation, page] { appendRows(generation, page); }, Qt::QueuedConnection);
            });
        } catch (const std::exception &e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, generation, error] { workerDone(generation, error); }, Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("judgeDecisionReader"));
    m_thread->start(QThread::LowPriority);
}

void JudgeDecisionModel::stopWorker()
{
    ++m_generation; // pages still queued from the stopped worker are dropped
    if (!m_thread)
        return;
    m_cancel->store(true);
    m_thread->requestInterruption();
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

void JudgeDecisionModel::appendRows(int generation, std::shared_ptr<std::vector<JudgeDecisionRow>> rows)
{
    if (generation != m_generation || rows->empty())
        return;
    const int first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + static_cast<int>(rows->size()) - 1);
    for (JudgeDecisionRow &r : *rows) {
        if (!m_rewards.contains(r.reward))
            m_rewards.append(r.reward);
        m_rows.push_back(std::move(r));
    }
    endInsertRows();
}

void JudgeDecisionModel::workerDone(int generation, const QString &error)
{
    if (generation != m_generation)
        return;
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
    if (error.isEmpty())
        Q_EMIT loadingFinished(rowCount());
    else
        Q_EMIT loadingFailed(error);
}

int JudgeDecisionModel::rowOfDecision(qint64 id) const
{
    // Rows are in id order.
    auto it = std::lower_bound(m_rows.begin(), m_rows.end(), id,
                               [](const JudgeDecisionRow &r, qint64 v) { return r.id < v; });
    return it != m_rows.end() && it->id == id ? static_cast<int>(it - m_rows.begin()) : -1;
}

QStringList JudgeDecisionModel::gradedRewards() const
{
    QStringList graded;
    for (const JudgeDecisionRow &r : m_rows)
        if (r.graded != GradedQuantity::None && !graded.contains(r.reward))
            graded.append(r.reward);
    QStringList ordered;
    for (const QString &reward : m_rewards)
        if (graded.contains(reward))
            ordered.append(reward);
    return ordered;
}

JudgeAgreementCounts JudgeDecisionModel::agreement(const QString &reward) const
{
    JudgeAgreementCounts a;
    for (const JudgeDecisionRow &r : m_rows) {
        if (r.reward != reward || r.graded == GradedQuantity::None)
            continue;
        if (a.quantity == GradedQuantity::None) {
            a.quantity = r.graded;
            a.matrix = ConfusionMatrix(JudgeAgreement::labelCount(r.graded));
        }
        if (r.graded != a.quantity)
            continue;
        ++a.decisions;
        if (r.judgedLabel < 0)
            ++a.noVerdict;
        else if (r.referenceLabel < 0)
            ++a.noReference;
        else
            a.matrix.add(r.referenceLabel, r.judgedLabel);
    }
    return a;
}

int JudgeDecisionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int JudgeDecisionModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString JudgeDecisionModel::verdictText(const JudgeDecisionRow &row)
{
    switch (row.failure()) {
    case JudgeDecisionRow::Failure::Call: return tr("call failed");
    case JudgeDecisionRow::Failure::Parse: return tr("unreadable reply");
    case JudgeDecisionRow::Failure::None: break;
    }
    return row.verdict.text();
}

QVariant JudgeDecisionModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const JudgeDecisionRow &r = m_rows[static_cast<size_t>(index.row())];
    if (role == DecisionIdRole)
        return QVariant::fromValue<qint64>(r.id);
    if (role == RolloutIdRole)
        return QVariant::fromValue<qint64>(r.rolloutId);
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
    auto text = [&](const QString &t) -> QVariant {
        if (role == Qt::DisplayRole || role == ValueRole || (role == Qt::ToolTipRole && t.size() > 40))
            return t;
        return {};
    };
    switch (col) {
    case StepColumn:
        return number(static_cast<double>(r.step), 0);
    case TargetColumn:
        if (r.rolloutId > 0) {
            if (role == ValueRole)
                return static_cast<double>(r.rolloutId);
            if (role == Qt::DisplayRole)
                return r.groupIndex >= 0 ? QStringLiteral("%1 · g%2 s%3").arg(r.rolloutId).arg(r.groupIndex).arg(r.sampleIndex)
                                         : QString::number(r.rolloutId);
            if (role == Qt::ToolTipRole)
                return tr("Rollout %1 (group %2, sample %3)").arg(r.rolloutId).arg(r.groupIndex).arg(r.sampleIndex);
            return {};
        }
        if (role == Qt::ToolTipRole)
            return tr("Evaluation of checkpoint %1: example %2").arg(r.step).arg(r.exampleId);
        return text(r.exampleId);
    case RewardColumn:
        return text(r.reward);
    case PartColumn:
        return text(r.part);
    case ValueColumn:
        if (role == Qt::ForegroundRole && RewardValue::isNone(r.value))
            return QBrush(QColor(QLatin1String(kFailureColour)));
        if (role == Qt::ToolTipRole && RewardValue::isNone(r.value))
            return tr("None: the judge gave no verdict, so the reward gave no value for this rollout.");
        return number(r.value, 3);
    case VerdictColumn: {
        const QString t = verdictText(r);
        if (role == Qt::ForegroundRole && r.failure() != JudgeDecisionRow::Failure::None)
            return QBrush(QColor(QLatin1String(kFailureColour)));
        if (role == Qt::ToolTipRole && r.verdict.fallback)
            return tr("The reply was not in the shape asked for; a documented fallback read it.");
        return text(t);
    }
    case LatencyColumn:
        return number(r.latencySeconds, 2);
    case TokensColumn:
        if (role == Qt::ToolTipRole)
            return tr("prompt %1 + completion %2 tokens").arg(r.promptTokens).arg(r.completionTokens);
        return number(static_cast<double>(r.promptTokens + r.completionTokens), 0);
    case CostColumn:
        return number(r.cost, 5);
    case CacheColumn:
        if (role == ValueRole)
            return r.cacheHit;
        if (role == Qt::DisplayRole)
            return r.cacheHit ? tr("hit") : QString();
        return {};
    case AttemptsColumn:
        return number(r.attempts, 0);
    case ErrorColumn:
        if (role == Qt::ForegroundRole)
            return QBrush(QColor(QLatin1String(kFailureColour)));
        if (role == Qt::ToolTipRole && !r.error.isEmpty())
            return r.error;
        return text(r.error);
    default:
        return {};
    }
}

QVariant JudgeDecisionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TargetColumn: return tr("The rollout judged (its id, group and sample), or the evaluated example");
        case PartColumn: return tr("What of the rubric the call judged: one item, or all of it when empty");
        case ValueColumn: return tr("What the verdict gave this part of the reward (None: no verdict)");
        case LatencyColumn: return tr("Wall time of the call in seconds, retries included (0 for a cache hit)");
        case TokensColumn: return tr("Prompt and completion tokens (0 for a cache hit)");
        case CostColumn: return tr("Tokens × the judge's price table (0 for a cache hit)");
        case AttemptsColumn: return tr("HTTP attempts (0 for a cache hit)");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StepColumn: return tr("Step");
    case TargetColumn: return tr("Rollout / example");
    case RewardColumn: return tr("Reward");
    case PartColumn: return tr("Part");
    case ValueColumn: return tr("Value");
    case VerdictColumn: return tr("Verdict");
    case LatencyColumn: return tr("Latency (s)");
    case TokensColumn: return tr("Tokens");
    case CostColumn: return tr("Cost");
    case CacheColumn: return tr("Cache");
    case AttemptsColumn: return tr("Attempts");
    case ErrorColumn: return tr("Error");
    default: return {};
    }
}

} // namespace rwb::widgets
