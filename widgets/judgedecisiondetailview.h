#pragma once

#include "store/storetypes.h"

#include <QString>
#include <QWidget>

#include <limits>
#include <vector>

class QTextBrowser;
class QUrl;

namespace rwb::store {
class RunStore;
}

namespace rwb::widgets {

struct JudgeDecisionRow;

// Everything about one judge call, read-only and selectable: what it judged (run, step,
// rollout or evaluated example, reward, part), what it gave (value, verdict, or why
// nothing: the call or parse error in red), what it cost (latency, tokens, cost, cache hit,
// attempts, backend), the reference grader's grade beside the judge's where one exists,
// the parsed verdict's fields, for rubrics the per-item verdicts as a table with weight,
// category, verdict and contribution and the total (one call for all items, or the
// rollout's per-item calls with this one marked), the raw reply with the JSON object the
// verdict was read from highlighted, the prompt messages rendered from the stored request,
// and the rollout (or evaluation prediction) judged, with a link that opens it in the
// rollout browser (rolloutRequested). GUI thread only.
class JudgeDecisionDetailView : public QWidget {
    Q_OBJECT
public:
    explicit JudgeDecisionDetailView(QWidget *parent = nullptr);

    struct Content {
        store::StoredJudgeDecision decision; // the call shown, request and reply included
        // Every call of the same reward on the same rollout (or evaluated example), in id
        // order, this one included: a per-item rubric's items.
        std::vector<store::StoredJudgeDecision> siblings;
        bool hasRollout = false;
        store::StoredRollout rollout;        // the rollout judged (without token arrays)
        bool hasPrediction = false;
        store::EvalPrediction prediction;    // the evaluation prediction judged
        // The reference grader's grades stored with the rollout (NaN: none).
        double referenceCoverage = std::numeric_limits<double>::quiet_NaN();
        double referenceConsistency = std::numeric_limits<double>::quiet_NaN();
    };
    // Reads decision `row.id` with its siblings, and the rollout or evaluation prediction it
    // judged, from `store`. Throws store::StoreError (or std::runtime_error when the
    // decision is no longer there).
    static Content load(const store::RunStore &store, qint64 runId, const JudgeDecisionRow &row);

    // The UTF-16 range [first, second) of QString::fromStdString(utf8) that holds the
    // bytes [byteBegin, byteEnd) of `utf8` (the verdicts' spans are byte offsets into the
    // UTF-8 reply). Offsets are clamped to the text and moved back to a character's first
    // byte; an empty range when byteBegin ≥ byteEnd or either is negative.
    static std::pair<qsizetype, qsizetype> utf16Range(const std::string &utf8, qint64 byteBegin, qint64 byteEnd);

    void showDecision(const Content &content);
    void clear();
    bool hasDecision() const { return m_hasContent; }
    qint64 decisionId() const { return m_hasContent ? m_content.decision.id : 0; }
    const Content &content() const { return m_content; }

    // The HTML given to the text browser (for tests), and what it shows as plain text.
    QString sourceHtml() const { return m_html; }
    QString plainText() const;
    QTextBrowser *browser() const { return m_browser; }

    // The highlight colour of the verdict's JSON in the reply.
    static constexpr const char *kSpanColour = "#ffe08a";

Q_SIGNALS:
    void rolloutRequested(qint64 rolloutId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    void anchorClicked(const QUrl &url);
    QString headerHtml() const;
    QString agreementHtml() const;
    QString fieldsHtml() const;
    QString itemsHtml() const;
    QString replyHtml() const;
    QString promptHtml() const;
    QString judgedHtml() const;

    QTextBrowser *m_browser = nullptr;
    Content m_content;
    bool m_hasContent = false;
    bool m_completionExpanded = false;
    QString m_html;
};

} // namespace rwb::widgets
