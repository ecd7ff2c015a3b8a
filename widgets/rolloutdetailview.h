#pragma once

#include "reward/reward.h"
#include "store/storetypes.h"

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

class QTextBrowser;
class QUrl;

namespace rwb::store {
class RunStore;
}
namespace rwb::task {
class Example;
class Completion;
} // namespace rwb::task

namespace rwb::widgets {

// Everything about one rollout of a run, read-only and selectable: where it belongs
// (run, step, group, sample), its weighted reward and advantage, its failure category,
// the outcome against the gold as the run's task presents it (widgets/taskpresenter.h:
// for extraction the answer against the gold, common part green, extra in the answer
// red, missing orange; for legal QA the citations against the gold sections and the
// answer's facts against the reference), every component of the reward config in force
// at its step with the stored value, weight and core's explanation, the completion with
// the task's tags marked, the input (the e-mail; the question and its sections) and the
// prompt (shortened until "show all" is clicked). GUI thread only.
class RolloutDetailView : public QWidget {
    Q_OBJECT
public:
    explicit RolloutDetailView(QWidget *parent = nullptr);

    struct Component {
        QString name;
        double storedValue = 0.0; // as the trainer recorded it (NaN: not recorded, or None)
        bool storedNone = false;  // recorded as None (null): its judge gave no verdict
        double weight = 0.0;
        bool explained = false;   // explanation holds core's explain() for this rollout
        reward::Explanation explanation;
    };
    struct Content {
        store::StoredRollout rollout;    // with its token arrays
        QString runName;
        std::string task;                // the run's task's name
        // The example rebuilt from the prompt's metadata and the completion parsed by the
        // task (null when the task or the metadata could not be read: Content::problem).
        std::shared_ptr<const task::Example> example;
        std::shared_ptr<const task::Completion> completion;
        QString categoryHtml;            // the failure category line ("" when unknown)
        bool thinking = false;           // the config's thinking format
        int64_t configStep = -1;         // the reward-config version in force (-1: none recorded)
        std::vector<Component> components;
        int judgeCalls = 0;              // judge decisions stored with the rollout
        QString problem;                 // why explanations are missing or partial ("" when none)
    };
    // Reads rollout `rolloutId` (token arrays included), its prompt's metadata and the
    // reward config in force at its step from `store`, and explains each component with
    // core's rewards (judge components from their stored decisions, without calling the
    // judge). Throws store::StoreError when there is no such rollout; a reward config that
    // cannot be built only leaves the explanations out (Content::problem).
    static Content load(const store::RunStore &store, int64_t rolloutId);

    void showRollout(const Content &content);
    void clear();
    bool hasRollout() const { return m_hasContent; }
    qint64 rolloutId() const { return m_hasContent ? m_content.rollout.id : 0; }
    const Content &content() const { return m_content; }

    // The HTML given to the text browser (for tests), and what it shows as plain text.
    QString sourceHtml() const { return m_html; }
    QString plainText() const;
    QTextBrowser *browser() const { return m_browser; }

Q_SIGNALS:
    // The "judge calls" link: list the judge decisions of this rollout.
    void judgeCallsRequested(qint64 rolloutId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void render();
    void anchorClicked(const QUrl &url);
    QString headerHtml() const;
    std::vector<reward::Explanation> explanations() const;
    QString answerHtml() const;
    QString componentsHtml() const;
    // Dual-granularity GRPO's process rewards of the rollout's steps ("" without them).
    QString processHtml() const;
    QString rewardNotesHtml() const;
    QString completionHtml() const;
    QString inputHtml() const;
    QString promptHtml() const;

    QTextBrowser *m_browser = nullptr;
    Content m_content;
    bool m_hasContent = false;
    bool m_promptExpanded = false;
    QString m_html;
};

} // namespace rwb::widgets
