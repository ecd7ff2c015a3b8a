#pragma once

#include <QSortFilterProxyModel>
#include <QString>

namespace rwb::widgets {

// Filters and sorts a JudgeDecisionModel. Every condition set narrows the list (AND):
// the reward; a text found (case-insensitively) in the value, the verdict, the part or the
// error as shown ("None", "full", "met", "rating 7", "timed out"); failures (call or parse
// failures, either, or none); cache hits or misses; a latency at or above a threshold; one
// rollout (the rollout detail view's "judge calls"); and one cell of an agreement matrix
// (a reward, the grader's label and the judge's, −1 for any). Sorting uses the model's
// ValueRole with None after every number (RewardValue::lessThan). GUI thread only.
class JudgeDecisionFilter : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class Failures { Any, Failed, CallFailed, ParseFailed, NotFailed };
    enum class Cache { Any, Hits, Misses };
    struct AgreementCell {
        QString reward;          // "" = no agreement condition
        int referenceLabel = -1; // the grader's label, −1 = any
        int judgedLabel = -1;    // the judge's label, −1 = any
        bool operator==(const AgreementCell &o) const
        {
            return reward == o.reward && referenceLabel == o.referenceLabel && judgedLabel == o.judgedLabel;
        }
    };

    explicit JudgeDecisionFilter(QObject *parent = nullptr);

    void setReward(const QString &reward); // "" = any
    QString reward() const { return m_reward; }
    void setText(const QString &text);
    QString text() const { return m_text; }
    void setFailures(Failures f);
    Failures failures() const { return m_failures; }
    void setCache(Cache c);
    Cache cache() const { return m_cache; }
    void setMinLatency(double seconds); // ≤ 0 = any
    double minLatency() const { return m_minLatency; }
    void setRolloutId(qint64 rolloutId); // 0 = any
    qint64 rolloutId() const { return m_rolloutId; }
    void setAgreementCell(const AgreementCell &cell);
    const AgreementCell &agreementCell() const { return m_cell; }
    // Every condition off.
    void clearConditions();

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_reward;
    QString m_text;
    Failures m_failures = Failures::Any;
    Cache m_cache = Cache::Any;
    double m_minLatency = 0.0;
    qint64 m_rolloutId = 0;
    AgreementCell m_cell;
};

} // namespace rwb::widgets
