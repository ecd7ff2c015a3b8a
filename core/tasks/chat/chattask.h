#pragma once

// The chat task: a conversation in the OpenAI messages shape and the reply it should get
// (tasks/chat/chatrecord.h). The prompt is the model's chat prompt of the messages
// (PromptFormat::chatPrompt, what rwb serve sends the model), the SFT target the reply —
// so `rwb sft` distils a judge from `rwb judge data`'s requests and verdicts, and `rwb
// eval run` measures how close a model's replies come. It has no reward components of its
// own.
//
// Metrics, over the predictions:
//   exact_match  the reply equals the gold (both trimmed of white space)
//   json_valid   of the golds that are a JSON object, the share of replies that are one too
//   field_match  of the golds that are a JSON object, the mean share of the gold's
//                top-level fields the reply has with an equal value (0 for a reply that is
//                not a JSON object) — for a judge, how many parts of its verdict agree
// A prediction is right when it matches exactly.

#include "tasks/chat/chatrecord.h"
#include "task/task.h"

namespace rwb::task {

class ChatExample : public Example {
public:
    explicit ChatExample(data::ChatRecord record);

    const std::string &id() const override { return m_record.id; }
    // The gold reply.
    std::string goldText() const override { return m_record.completion; }
    // The line without its completion.
    std::string metaJson() const override;

    const data::ChatRecord &record() const { return m_record; }

private:
    data::ChatRecord m_record;
};

class ChatCompletion : public Completion {
public:
    explicit ChatCompletion(std::string text);
    const std::string &text() const override { return m_text; }
    // The reply trimmed of white space.
    const std::string &answer() const override { return m_answer; }

private:
    std::string m_text;
    std::string m_answer;
};

class ChatTask : public Task {
public:
    std::string_view name() const override;
    std::string_view description() const override;
    Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                    bool requireCompletion) const override;
    std::string prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const override;
    std::string sftTarget(const Example &example, bool thinking) const override;
    std::unique_ptr<Completion> parse(const Example &example, std::string completion, bool thinking) const override;
    std::unique_ptr<MetricSet> metrics() const override;
    std::string predictionLine(const Example &example, const std::string &completion) const override;
    std::string_view headlineMetric() const override { return "field_match"; }
    std::shared_ptr<const Example> exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                    const std::string &source) const override;
    std::vector<FailureCategory> failureCategories() const override;
    size_t failureCategory(const Example &example, const Completion &completion) const override;
};

} // namespace rwb::task
