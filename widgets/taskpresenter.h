#pragma once

#include "reward/reward.h"

#include <QString>

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

    // "Failure category: wrong citation — why" for a completion of `task`, translated
    // when the key is known (failureCategoryName).
    static QString categoryHtml(const task::Task &task, const task::Example &example,
                                const task::Completion &completion);
    // The translated name and explanation of a task's failure category, by key; `fallback`
    // (the task's English) for a key this build has no translation of.
    static QString failureCategoryName(const QString &key, const QString &fallback);
    static QString failureCategoryExplanation(const QString &key, const QString &fallback);
};

} // namespace rwb::widgets
