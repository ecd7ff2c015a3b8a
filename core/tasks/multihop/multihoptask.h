#pragma once

// The multi-hop QA task of the fourth paper (ProRAG §3.1): answer a question by chained
// retrieval in the step format (tasks/multihop/multihopformat.h). The prompt is the question; the
// policy writes <step> and <subquery>, the environment appends <retrieval> (the top-k
// passages of the local retriever for the sub-query), the policy writes <subanswer>, and
// so on to <step> and <answer>. Data: tasks/multihop/multihop.h (`rwb data synth --task multihop`,
// per-hop retrievals added by `rwb retrieve annotate --chain`); search: mcts/search.h.
//
// Metrics (the paper's): exact match and F1 of the answer (multihopformat.h's
// answer form), the share of completions in format, and the mean number of hops.

#include "tasks/multihop/multihop.h"
#include "task/environment.h"
#include "tasks/multihop/multihopformat.h"
#include "task/task.h"

namespace rwb::task {

class MultihopExample : public Example {
public:
    explicit MultihopExample(data::MultihopQuestion question) : m_question(std::move(question)) {}
    const std::string &id() const override { return m_question.id; }
    // The gold answer.
    std::string goldText() const override { return m_question.answer; }
    // The question's dataset line (without a completion).
    std::string metaJson() const override;
    const data::MultihopQuestion &question() const { return m_question; }

private:
    data::MultihopQuestion m_question;
};

class MultihopCompletion : public Completion {
public:
    MultihopCompletion(const MultihopExample &example, std::string text);
    const std::string &text() const override { return m_text; }
    // The <answer> block (trimmed; "" when there is none).
    const std::string &answer() const override { return m_answer; }
    // {"format": "ok" or the problem, "hops", "subqueries", "em", "f1"}
    std::string detailsJson() const override;

    const Trajectory &trajectory() const { return m_trajectory; }
    double em() const { return m_em; }
    double f1() const { return m_f1; }

private:
    std::string m_text;
    Trajectory m_trajectory;
    std::string m_answer;
    double m_em = 0, m_f1 = 0;
};

// The text of one retrieval block's content: each passage as "title：text", one per line.
std::string retrievalText(const std::vector<data::RetrievedPassage> &passages);
// The <step> text of hop i of a gold chain and of the final step (SFT targets).
std::string goldHopStep(const data::MultihopStep &step);
std::string goldFinalStep(const data::MultihopQuestion &question);

// The multi-hop task's environment: a rollout pauses at </subquery>, the sub-query (the
// text of the last <subquery> block) goes to the BM25 index, and its top-k passages come
// back as "<retrieval>" + retrievalText(passages) + "</retrieval>" — the same block the
// SFT targets hold (with the gold chain's frozen retrievals).
class MultihopEnvironment : public Environment {
public:
    // Throws data::InputException naming the file when it is missing or not an index.
    MultihopEnvironment(const std::string &indexPath, int topK);
    ~MultihopEnvironment() override;
    const std::vector<std::string> &pauses() const override;
    EnvironmentReply respond(const Example &example, std::string_view completion) const override;
    // The reply to one sub-query with the `topK` best passages.
    EnvironmentReply retrieve(const std::string &subquery, int topK) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_d;
};

// The hops of the step format: a step ends at </subanswer>; the PRM reads the question;
// a step is well formed when it is one hop or the final step (stepFormatOk).
class MultihopSteps : public Steps {
public:
    std::string_view stepEnd() const override { return "</subanswer>"; }
    std::string stepQuestion(const Example &example) const override;
    bool stepWellFormed(std::string_view step) const override;
    // stepBlocks: each hop up to </subanswer>, the final step up to </answer>.
    std::vector<std::string> split(std::string_view completion) const override;
    std::shared_ptr<const Example> questionExample(const std::string &question) const override;
    // The question's line with the new id, "target" and "context_steps".
    std::string keptTrajectoryLine(const Example &example, const std::string &id, const std::string &completion,
                                   const std::vector<int> &contextSteps) const override;
    std::optional<double> referenceStepScore(const Example &example, std::string_view history,
                                             std::string_view step) const override;
    std::string_view answerEnd() const override { return "</answer>"; }
    // The text after the last <answer>, without the closing tag (not trimmed).
    std::string stepAnswer(std::string_view finalStep) const override;
    // parseTrajectory's answer of a well-formed trajectory.
    std::optional<std::string> trajectoryAnswer(std::string_view trajectory) const override;
    // answerF1 ("f1") or exactMatch ("em") against the question's answer.
    double answerScore(const Example &example, std::string_view answer, std::string_view metric) const override;
    // The question's id, text, answer, gold passages and hops.
    StepQuestion stepQuestionRecord(const Example &example) const override;
};

// I_step of the fourth paper's eq. 5: the block is one hop (<step>, <subquery>,
// <retrieval>, <subanswer>, nothing else) or the final step (<step> then <answer>), well
// formed.
bool stepFormatOk(std::string_view block);

class MultihopTask : public Task {
public:
    std::string_view name() const override;
    std::string_view description() const override;
    // data::readMultihopQuestions: field-named file:line errors; a line without "answer"
    // is one.
    Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                    bool requireCompletion) const override;
    // The question in the model's instruction format.
    std::string prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const override;
    // The gold chain as a trajectory: per hop <step>, <subquery>, <retrieval> (the hop's
    // frozen retrievals), <subanswer>; then <step> and <answer>. Throws
    // data::InputException naming the question when a hop has no retrievals (run `rwb
    // retrieve annotate --chain`) or the line has no chain.
    std::string sftTarget(const Example &example, bool thinking) const override;
    // The <retrieval> blocks, tags included: the environment writes them.
    std::vector<TextSpan> environmentSpans(std::string_view completion) const override;
    // The retrievals and, for a line with "target" and "context_steps", those step blocks.
    std::vector<TextSpan> noLossSpans(const Example &example, std::string_view target) const override;
    // The retriever (MultihopEnvironment). Throws data::InputException naming the
    // options' source and "retrieval_index" when none is given, and the file when it is
    // not an index.
    std::unique_ptr<Environment> environment(const EnvironmentOptions &options) const override;
    std::unique_ptr<Completion> parse(const Example &example, std::string completion, bool thinking) const override;
    const Steps *steps() const override { return &m_steps; }
    // em, f1, format, hops (mean hops of the completions). Right: exact match.
    std::unique_ptr<MetricSet> metrics() const override;
    std::string predictionLine(const Example &example, const std::string &completion) const override;
    std::string_view headlineMetric() const override { return "f1"; }
    std::vector<std::string> summaryMetrics() const override { return {"em", "f1", "format"}; }
    std::shared_ptr<const Example> exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                    const std::string &source) const override;
    void addRewards(reward::Registry &registry) const override;
    // right (exact match), format (not the step format), partial (some characters of the
    // gold: 0 < F1 < 1), wrong (F1 0).
    std::vector<FailureCategory> failureCategories() const override;
    size_t failureCategory(const Example &example, const Completion &completion) const override;

private:
    MultihopSteps m_steps;
};

} // namespace rwb::task
