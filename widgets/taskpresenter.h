#pragma once

#include "reward/reward.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::task {
class Example;
class Completion;
class Task;
} // namespace rwb::task

namespace rwb::widgets {

// What the detail panes (the Reward Designer's SampleDetailView, the rollout browser's
// RolloutDetailView) show of one task's example and completion, beside what every task
// shares (the component table, the header, the prompt). One presenter per task, found by
// the task's name; a task without its own gets the generic one (the answer against the
// gold text, the completion as text, the example's stored fields). A task adds its presenter
// (TaskPresenter::add, or widgets/tasks/ for a built-in one) and nothing else in the views. GUI thread only (tr()).
class TaskPresenter {
public:
    virtual ~TaskPresenter();

    // The presenter of the task named `task` (the generic one when it has none): the
    // built-in tasks' (widgets/tasks/presenters.cpp) and those add() was given.
    static const TaskPresenter &forTask(std::string_view task);
    // Makes `presenter` the one of the task named `task` (a program's own task).
    static void add(std::string task, std::shared_ptr<const TaskPresenter> presenter);

    // What the completion got right and wrong against the gold, with a legend
    // (extraction: answer against gold; legal QA: the citations against the gold
    // sections, the answer's facts against the reference's). `explanations` are the
    // reward components' (empty when they could not be computed).
    virtual QString outcomeHtml(const task::Example &example, const task::Completion &completion,
                                const std::vector<reward::Explanation> &explanations) const;
    // The comparisons the reward components made, beyond their one-line reasons
    // (extraction: the common substring, the markers removed, the romanized candidates).
    virtual QString componentDetailHtml(const std::vector<reward::Explanation> &explanations) const;
    // The completion's text with the task's tags and blocks marked.
    virtual QString completionHtml(const task::Example &example, const task::Completion &completion,
                                   bool thinking) const;
    // The input the completion answered, with what matters marked (extraction: the e-mail
    // with the answer and the gold; legal QA: the question and the sections in the prompt).
    virtual QString inputHtml(const task::Example &example, const task::Completion &completion) const;

    // The reward config (a resource path) the Designer opens for this task's samples when
    // none is chosen; "" when the task has none of its own.
    virtual QString defaultPreset() const { return {}; }

    // A failure category's name and explanation as the views show them, translated; the
    // task's English (`fallback`) for a key the presenter has no translation of (the
    // generic presenter's case). By default looked up in categoryTexts(). The short name
    // heads a column of the failure explorer's transition matrix (by default the name).
    virtual QString categoryName(const QString &key, const QString &fallback) const;
    virtual QString categoryExplanation(const QString &key, const QString &fallback) const;
    virtual QString categoryShortName(const QString &key, const QString &name) const;

    // What the failure explorer (failureexplorer.h) shows of the task's evaluation.
    // Its status line: where the examples came from (`source`, "run 3 of runs.sqlite") and
    // what they are; by default "<source> — <task>: n example(s)".
    virtual QString failureStatus(const QString &source, std::string_view task,
                                  const std::vector<const task::Example *> &examples) const;
    // The example list's title: `what` (a category, "Fixed", a transition) and the count.
    virtual QString failureListTitle(const QString &what, int count) const;
    // A legend above the example view; "" (the default) for none.
    virtual QString failureLegendHtml() const { return {}; }
    // The example against prediction A and (optional, may be null) B, both parsed by the
    // task: by default each one's outcome and completion, then the input.
    virtual QString failureHtml(const task::Example &example, const task::Completion *a, const task::Completion *b,
                                bool thinking) const;
    // What the explanation adds after a prediction's category name (extraction: where a
    // named company came from), "" for nothing; and lines after the category's explanation.
    virtual QString failureCategoryNote(const task::Example &example, const task::Completion &completion,
                                        const QString &categoryKey) const;
    virtual QStringList failureNotes(const task::Example &example, const task::Completion &completion) const;
    // Lines after the predictions, about the example (extraction: whether its parties came
    // from the data); none by default.
    virtual QStringList failureExampleNotes(const task::Example &example) const;

    // A task's failure categories in the words of the views: the English marked with
    // QT_TRANSLATE_NOOP("TaskPresenter", …), translated when shown.
    struct CategoryText {
        const char *key;
        const char *name;
        const char *explanation;
    };
    // The presenter's category texts; none by default.
    virtual std::vector<CategoryText> categoryTexts() const { return {}; }

    // "Failure category: wrong citation — why" for a completion of `task`, in the words of
    // the task's presenter.
    static QString categoryHtml(const task::Task &task, const task::Example &example,
                                const task::Completion &completion);
};

} // namespace rwb::widgets
