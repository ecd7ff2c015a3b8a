#pragma once

// A user's task, made from a description (tasks/user/taskdescription.h) instead of code:
// its records are the user's JSON lines in the shapes TRL, verl and OpenRLHF read, every
// column kept (task::RecordExample) for the generic reward components and the user's
// Python functions; its prompt is the record's prompt in the model's chat format; its
// answer is what the description's extractor finds; its metrics and failure categories
// are components of the reward library. It has no reward components of its own: a reward
// config for it uses the generic ones (reward/library/library.h).

#include "task/task.h"
#include "tasks/user/taskdescription.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::reward {
class Reward;
}
namespace rwb::text {
class Regex;
}

namespace rwb::task {

class UserExample : public Example, public RecordExample, public JudgedExample {
public:
    struct Message {
        std::string role;
        std::string content;
    };
    UserExample(std::string id, std::string recordJson, std::vector<Message> messages, bool conversational,
                std::string reference, std::string sftTarget);

    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_reference; }
    // The record as read (its completion left out).
    std::string metaJson() const override { return m_record; }

    const std::string &recordJson() const override { return m_record; }
    std::optional<std::string> column(std::string_view path) const override;
    std::string promptJson() const override;

    // The last user message, and the reference.
    std::string judgeQuestion() const override;
    std::string judgeReference() const override { return m_reference; }

    // The prompt's messages, the description's system message first when it gives one.
    const std::vector<Message> &messages() const { return m_messages; }
    bool conversational() const { return m_conversational; }
    const std::string &sftTarget() const { return m_sftTarget; }

private:
    std::string m_id;
    std::string m_record;
    std::vector<Message> m_messages;
    bool m_conversational = false;
    std::string m_reference;
    std::string m_sftTarget;
};

class UserCompletion : public Completion {
public:
    UserCompletion(std::string text, std::string answer, bool found);
    const std::string &text() const override { return m_text; }
    // What the extractor found ("" when it found nothing).
    const std::string &answer() const override { return m_answer; }
    // {"answer_found": bool}
    std::string detailsJson() const override;
    bool answerFound() const { return m_found; }

private:
    std::string m_text;
    std::string m_answer;
    bool m_found = false;
};

class UserTask : public Task {
public:
    // Throws data::InputException naming `description`'s source and field when a metric's
    // component cannot be made.
    explicit UserTask(TaskDescription description);
    ~UserTask() override;

    const TaskDescription &taskDescription() const { return m_d; }

    std::string_view name() const override { return m_d.name; }
    std::string_view description() const override;
    Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                    bool requireCompletion) const override;
    std::string prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const override;
    std::string sftTarget(const Example &example, bool thinking) const override;
    std::unique_ptr<Completion> parse(const Example &example, std::string completion, bool thinking) const override;
    std::unique_ptr<MetricSet> metrics() const override;
    std::string predictionLine(const Example &example, const std::string &completion) const override;
    std::string_view headlineMetric() const override { return m_d.metrics.front().name; }
    std::shared_ptr<const Example> exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                    const std::string &source) const override;
    std::vector<FailureCategory> failureCategories() const override;
    size_t failureCategory(const Example &example, const Completion &completion) const override;

    // The answer the description's extractor finds in `text`; none when it finds none.
    std::optional<std::string> extract(std::string_view text) const;
    // The value of each metric for one prediction, in the description's order.
    std::vector<double> metricValues(const Example &example, const Completion &completion) const;

private:
    // Whether a listed failure catches every prediction the headline metric calls wrong;
    // when none does, an "other" category comes last.
    bool headlineHasCategory() const;

    TaskDescription m_d;
    std::vector<std::unique_ptr<reward::Reward>> m_metrics;
    std::shared_ptr<const text::Regex> m_regex; // the regex extractor's, compiled once
};

// Reads a description, makes its task and installs it in the process's catalog
// (task::Catalog::install) unless a task of that name with the same description is there;
// returns the description as stored (TaskDescription::toJson). What the reward configs'
// "task" descriptions go through (reward::setTaskDescriptionHandler; tasks/catalog.cpp).
// Throws data::InputException naming `source` and the field; also when the name is a
// built-in task's.
std::string installUserTask(const std::string &descriptionJson, const std::string &baseDir, const std::string &source);

// The task named `name` in the process's catalog; when there is none, the user's task a
// stored config describes (a run's GRPO config, whose "reward_config" holds its "task"
// description, or a reward config version holding it), installed first: how a run of a
// user's task opens wherever the store goes. Null when none of `configJsons` describes it
// (or a description does not read: the views then show the run without its task).
const Task *findOrInstallTask(const std::string &name, const std::vector<std::string> &configJsons);

} // namespace rwb::task
