#pragma once

// The task interface: what GRPO, SFT, evaluation, the run store and the workbench's views
// need to know about a task, and nothing else. A task reads its dataset records, builds
// prompts, parses completions, holds its gold, names its evaluation metrics and tells the
// store what to keep; its reward components are registered by name with the task's name
// (reward/registry.h). The first paper's company extraction is one task
// (tasks/extraction/extractiontask.h); a user's own task implements these classes and is added to a
// task::Catalog (task/catalog.h). See docs/development.md, "Tasks".
//
// Every object here is immutable after construction and safe to read from several threads.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

namespace rwb::tokenizer {
class PromptFormat;
}
namespace rwb::data {
struct InputError;
}
namespace rwb::judge {
struct Rubric;
}
namespace rwb::reward {
class Registry;
}

namespace rwb::task {

class Environment;
struct EnvironmentOptions;

// One dataset record, read and prepared once: what the prompt is built from, the gold,
// and whatever the task's rewards precompute. Shared by every completion scored against
// it (a GRPO group shares one).
class Example {
public:
    virtual ~Example() = default;
    // The record's id ("train-000001"), unique within its dataset; "" when built in code.
    virtual const std::string &id() const = 0;
    // The gold as one line of text: the run store's `gold` column and what views show.
    virtual std::string goldText() const = 0;
    // What the store keeps beside the prompt text (prompts.meta_json): a JSON object.
    virtual std::string metaJson() const = 0;
};

// What an LLM judge is shown of an example (the judge rewards, reward/judgerewards.h):
// implemented, beside Example, by the examples of tasks whose answers judges grade.
class JudgedExample {
public:
    virtual ~JudgedExample() = default;
    // The question as a judge sees it (without retrieved context).
    virtual std::string judgeQuestion() const = 0;
    // The reference answer; "" when there is none.
    virtual std::string judgeReference() const = 0;
    // The example's own rubric; null when it has none (a rubric file may then serve).
    virtual const judge::Rubric *judgeRubric() const { return nullptr; }
};

// What the generic reward components (reward/library/) and a user's Python reward
// functions (reward/python/) read of an example beyond its gold: the dataset record's own
// fields. Implemented, beside Example, by the examples of tasks read from the user's own
// records (tasks/user/); a component given an example without it compares against the
// gold (Example::goldText) and sees no other column.
class RecordExample {
public:
    virtual ~RecordExample() = default;
    // The record's fields as a JSON object's text, as read (a completion field excluded):
    // what a TRL reward function gets as its keyword columns.
    virtual const std::string &recordJson() const = 0;
    // A field by name or dotted path ("reward_model.ground_truth"): a string as it is,
    // any other value as its JSON text. None when the record has no such field.
    virtual std::optional<std::string> column(std::string_view path) const = 0;
    // The prompt as a TRL reward function gets it (`prompts`), as JSON: the record's
    // prompt text as a JSON string, or its messages as a JSON array (conversational).
    virtual std::string promptJson() const = 0;
};

// One completion, parsed once by its task and shared by every reward component.
class Completion {
public:
    virtual ~Completion() = default;
    // The completion as generated (decoded, without the stop token).
    virtual const std::string &text() const = 0;
    // The parsed answer: the run store's `answer` column, what collapse metrics compare.
    virtual const std::string &answer() const = 0;
    // What the task parsed beyond the answer (citations, tags, format), as a JSON object
    // for rollouts.details_json; "" when there is nothing.
    virtual std::string detailsJson() const { return {}; }
};

// A task's evaluation metrics, accumulated one prediction at a time. Not thread-safe.
class MetricSet {
public:
    virtual ~MetricSet() = default;
    virtual void add(const Example &example, const Completion &completion) = 0;
    // Whether one prediction counts as right (eval_predictions.correct).
    virtual bool correct(const Example &example, const Completion &completion) const = 0;
    // The metrics over what was added, in a fixed order, without a prefix ("precision",
    // "recall", "f1"); GRPO stores them as "eval/<name>".
    virtual std::vector<std::pair<std::string, double>> result() const = 0;
    // Counts behind the metrics, for reports ("n_tp", …); none by default.
    virtual std::vector<std::pair<std::string, int64_t>> counts() const { return {}; }
};

// A failure category of a task: what the failure explorer groups predictions by. Exactly
// one category applies to a prediction; the first of a task's list is the right answer.
struct FailureCategory {
    std::string key;         // stable, for JSON, tests and translations ("wrong_citation")
    std::string name;        // English label ("wrong citation"); views translate it by key
    std::string explanation; // one English sentence: what puts a prediction here
};

// A byte range [begin, end) of a completion.
struct TextSpan {
    size_t begin = 0;
    size_t end = 0;
    bool operator==(const TextSpan &) const = default;
};

// A dataset line: its example and, when the line has one, a completion to score.
struct Record {
    std::shared_ptr<const Example> example;
    bool hasCompletion = false;
    std::string completion;
    std::string kind;  // an optional label of bundled samples ("correct", "recipient", …)
    size_t line = 0;   // 1-based line in the file
};

struct ReadOptions {
    bool requireCompletion = false; // a line without "completion" is an error
    size_t limit = 0;               // > 0: the first N records only
    // When set, a bad line is reported here and skipped instead of thrown.
    std::vector<data::InputError> *skipped = nullptr;
};

// What a tree search over steps keeps of an example (mcts/searchrecord.h).
struct StepQuestion {
    std::string id;
    std::string question;
    std::string goldAnswer;
    std::vector<std::string> goldSources; // what the answer rests on (passage ids), for views
    int hops = 0;                         // the steps a gold trajectory takes (0: unknown)
};

// How a task's completions divide into reasoning steps, for a task that has them (the
// multi-hop task's hops). Dual-granularity GRPO scores each step with a process reward
// model (train/grpo.h, "prm"), which reads the example's question beside the steps; the
// tree search (mcts/search.h) takes one step as one action.
class Steps {
public:
    virtual ~Steps() = default;
    // The text that ends a step ("</subanswer>"): one token of the policy's tokenizer, so
    // that a rollout's tokens divide into steps without decoding them.
    virtual std::string_view stepEnd() const = 0;
    // What a process reward model is shown of the example besides the steps.
    virtual std::string stepQuestion(const Example &example) const = 0;
    // Whether one step (a completion's text up to and including a stepEnd(), or its last,
    // final piece) is well formed: the step format's indicator, I_step.
    virtual bool stepWellFormed(std::string_view step) const = 0;
    // The steps of a completion's text, in order, as rejection sampling scores them with
    // the PRM (train/rft.h): concatenated they give the text back, but for white space
    // at the end. Never throws.
    virtual std::vector<std::string> split(std::string_view completion) const = 0;
    // An example that holds only a question (what stepQuestion() gives), for a process
    // reward model's input built from stored step pairs (train/processrewardmodel.h): its
    // prompt is the one the policy saw.
    virtual std::shared_ptr<const Example> questionExample(const std::string &question) const = 0;
    // A dataset line of the task that trains SFT on `completion` (a sampled trajectory
    // of `example`) under the id `id`, the steps listed in `contextSteps` (indexes into
    // split(completion)) kept as context with no loss: what rejection sampling writes of
    // a trajectory it keeps, and what Task::noLossSpans then reads.
    virtual std::string keptTrajectoryLine(const Example &example, const std::string &id, const std::string &completion,
                                           const std::vector<int> &contextSteps) const = 0;
    // The reference score in [0, 1] of `step` after `history` (the steps before it,
    // joined), where the example carries what a reference judge needs to judge it (a
    // synthetic question's gold chain); none otherwise. GRPO's "prm_reference" takes it as
    // an oracle process reward, to tell the mechanism of process rewards apart from how
    // well a PRM learns them (docs/grpo.md, "Process rewards").
    virtual std::optional<double> referenceStepScore(const Example &example, std::string_view history,
                                                     std::string_view step) const = 0;

    // ---- the tree search (mcts/search.h)
    // The text that ends a final step, the one that gives the answer ("</answer>"). A
    // step ends at stepEnd() after the environment's reply when the task has an
    // environment (the policy's text before the reply is the step's query), at stepEnd()
    // or answerEnd() otherwise.
    virtual std::string_view answerEnd() const = 0;
    // The answer a final step's text gives: what its last answer block holds up to
    // answerEnd() ("" when it has none).
    virtual std::string stepAnswer(std::string_view finalStep) const = 0;
    // The answer of a whole trajectory (its steps' texts joined) when the trajectory is
    // well formed and ends with one; none otherwise. Never throws.
    virtual std::optional<std::string> trajectoryAnswer(std::string_view trajectory) const = 0;
    // How close `answer` comes to the example's gold answer by `metric`: "f1" or "em",
    // in [0, 1].
    virtual double answerScore(const Example &example, std::string_view answer, std::string_view metric) const = 0;
    // What a search record keeps of the example.
    virtual StepQuestion stepQuestionRecord(const Example &example) const = 0;
};

class Task {
public:
    virtual ~Task() = default;
    // The name configs and JSONL lines use: lower case, words joined by "_".
    virtual std::string_view name() const = 0;
    // One English line for lists and logs.
    virtual std::string_view description() const = 0;

    // One dataset line (a JSON object's text): what read() makes of each line of a file,
    // and of a record that arrives on its own (a reward server's request). Throws
    // data::InputException naming `source`, `lineNo` and the field.
    virtual Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                            bool requireCompletion) const = 0;
    // Reads a JSONL dataset of the task. Throws data::InputException naming the file, the
    // line and the field for a bad line, and (line 0) for a file with no record. By
    // default every non-blank line through readLine(); a task whose files need more (a
    // shared header, another format) overrides it.
    virtual std::vector<Record> read(const std::string &path, const ReadOptions &options) const;

    // The prompt text of an example in the model's format (it ends where the completion
    // starts). `thinking` is the reward config's output-format switch.
    virtual std::string prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const = 0;
    // The target completion SFT trains on (without the end-of-completion token).
    virtual std::string sftTarget(const Example &example, bool thinking) const = 0;
    // The byte ranges of a completion (or an SFT target) that the environment wrote, not
    // the policy: the retrieved passages a multi-step task inserts. SFT, GRPO and the PRM
    // put no loss and no gradient on their tokens; the completion's text is encoded span
    // by span, as a rollout feeds them. Sorted, disjoint; none by default.
    virtual std::vector<TextSpan> environmentSpans(std::string_view completion) const
    {
        (void)completion;
        return {};
    }
    // The spans of an example's SFT target that carry no loss: what the environment wrote
    // (environmentSpans) and, for a task that has them, parts the example marks as
    // context only (a rejection-sampled multi-hop trajectory's steps that the PRM scored
    // below the threshold). Sorted, disjoint. SFT encodes the target span by span and
    // weighs these 0.
    virtual std::vector<TextSpan> noLossSpans(const Example &example, std::string_view target) const
    {
        (void)example;
        return environmentSpans(target);
    }
    // The environment a rollout of this task runs in (task/environment.h), or null for a
    // task whose completions the policy writes alone (the default). Throws
    // data::InputException naming the option when `options` do not give what the task's
    // environment needs (a multi-step task without a retrieval index).
    virtual std::unique_ptr<Environment> environment(const EnvironmentOptions &options) const;
    // Parses a completion of `example`.
    virtual std::unique_ptr<Completion> parse(const Example &example, std::string completion, bool thinking) const = 0;
    // A new, empty accumulator of the task's evaluation metrics.
    virtual std::unique_ptr<MetricSet> metrics() const = 0;
    // An evaluation output line: the example's dataset line with the model's completion.
    virtual std::string predictionLine(const Example &example, const std::string &completion) const = 0;
    // The one metric of metrics() a progress line shows ("f1").
    virtual std::string_view headlineMetric() const = 0;
    // The metrics of metrics() a results table shows (`rwb grpo table`), in order; by
    // default every one.
    virtual std::vector<std::string> summaryMetrics() const
    {
        std::vector<std::string> out;
        for (const auto &[name, value] : metrics()->result())
            out.push_back(name);
        return out;
    }

    // Rebuilds an example from what the run store kept of it (Example::metaJson() and
    // goldText()), for the views that explain a stored rollout or prediction. Throws
    // data::InputException naming `source` and the field when `metaJson` lacks what the
    // task needs.
    virtual std::shared_ptr<const Example> exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                            const std::string &source) const = 0;

    // How its completions divide into steps; null (the default) for a task whose
    // completions are one piece. The object lives as long as the task.
    virtual const Steps *steps() const { return nullptr; }

    // Adds the task's reward components to `registry`, each under this task's name; a
    // catalog calls it when the task is added (task/catalog.h). None by default: a
    // program may register a task's rewards itself.
    virtual void addRewards(reward::Registry &registry) const { (void)registry; }

    // An example of which only the gold is known, for a stored rollout whose input the
    // store did not keep (an older store): the views explain its rewards without the
    // input. Null (the default) when the task cannot explain a completion without it.
    virtual std::shared_ptr<const Example> exampleFromGold(const std::string &gold) const
    {
        (void)gold;
        return nullptr;
    }

    // The failure categories, in the order views list them; the first is "right".
    virtual std::vector<FailureCategory> failureCategories() const = 0;
    // The index in failureCategories() of the one category of a completion.
    virtual size_t failureCategory(const Example &example, const Completion &completion) const = 0;
    // What the task says of a completion's failure beyond its category, as a flat JSON
    // object (extraction: {"source": "recipient"}, where a named company came from);
    // `rwb eval failures --examples` adds its fields to the prediction's line. "" (the
    // default) for nothing.
    virtual std::string failureDetailsJson(const Example &example, const Completion &completion) const
    {
        (void)example;
        (void)completion;
        return {};
    }
    // What the task says of an example for failure analysis, as a flat JSON object whose
    // numbers and booleans `rwb eval failures` sums over the examples (extraction:
    // {"parties_from_data": true}, whether the recipient and third parties came from the
    // record or were guessed). "" (the default) for nothing.
    virtual std::string failureExampleJson(const Example &example) const
    {
        (void)example;
        return {};
    }
};

// The example or completion as the task's own type; throws std::logic_error naming the
// type when it is another task's (a reward of one task given another task's data).
template <class T, class Base>
const T &as(const Base &object)
{
    if (const T *p = dynamic_cast<const T *>(&object))
        return *p;
    throw std::logic_error(std::string("a reward or metric was given data of another task (expected ") +
                           typeid(T).name() + ")");
}

} // namespace rwb::task
