#pragma once

#include "reward/reward.h"
#include "task/task.h"

#include <QStringList>
#include <QVector>
#include <QWidget>

#include <memory>
#include <vector>

class QTextBrowser;

// Why a sample got its score: every component's value, weight and explanation, its
// failure category, and what the sample's task presents (rwb::widgets::TaskPresenter):
// for extraction the normalized answer and gold with their common substring
// highlighted, the markers removed, the romanized domain candidates and the e-mail with
// the answer and the gold marked; for legal QA the citations against the gold sections,
// the answer's facts against the reference's, and the question with its sections.
// Read-only; GUI thread only.
class SampleDetailView : public QWidget {
    Q_OBJECT
public:
    explicit SampleDetailView(QWidget *parent = nullptr);

    struct Content {
        const rwb::task::Task *task = nullptr;              // the samples' task (a built-in one: never freed)
        rwb::task::Record record;                           // shares the example: the view outlives model resets
        std::shared_ptr<const rwb::task::Completion> completion; // the record's completion, parsed
        std::vector<rwb::reward::Explanation> explanations; // one per component
        QVector<double> weights;                           // one per component
        // Per component: why it has no value yet ("waiting for the judge", "weight 0: not
        // sent"), shown instead of its explanation; "" for a component with a value or None.
        QStringList notes;
        double total = 0.0;
        bool thinking = false;
    };
    void showSample(const Content &content);
    void clear();

    // The HTML shown (for tests).
    QString html() const;

protected:
    void changeEvent(QEvent *event) override;

private:
    QString render(const Content &c) const;

    QTextBrowser *m_browser = nullptr;
    Content m_last;
    bool m_hasContent = false;
};
