#pragma once

// The first paper's task: extract the sender's company from a Japanese e-mail
// (tasks/extraction/extractionrecord.h for its JSONL, tasks/extraction/extraction.h for its parsing,
// tasks/extraction/companyrewards.h for its five rewards, tasks/extraction/extractionmetrics.h for its metrics).

#include "tasks/extraction/extractionrecord.h"
#include "tasks/extraction/emailfailures.h"
#include "tasks/extraction/extraction.h"
#include "task/task.h"

#include <mutex>

namespace rwb::task {

// An e-mail of a dataset: the prepared prompt the rewards read, and the line it came from.
class ExtractionExample : public reward::ExtractionPrompt {
public:
    explicit ExtractionExample(data::ExtractionRecord record);
    const data::ExtractionRecord &record() const { return m_record; }
    // The recipient's company and the third parties (eval::partiesOf), worked out on the
    // first call (from any thread) and kept.
    const eval::EmailParties &parties() const;

private:
    data::ExtractionRecord m_record;
    mutable std::once_flag m_partiesOnce;
    mutable eval::EmailParties m_parties;
};

class ExtractionTask : public Task {
public:
    std::string_view name() const override;
    std::string_view description() const override;
    Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                    bool requireCompletion) const override;
    // PromptFormat::extractionPrompt(): the paper's fig. 2, or fig. 3 with thinking.
    std::string prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const override;
    // The gold, or "<thinking></thinking><answer>gold</answer>" with thinking.
    std::string sftTarget(const Example &example, bool thinking) const override;
    // An reward::ExtractionAnswer.
    std::unique_ptr<Completion> parse(const Example &example, std::string completion, bool thinking) const override;
    // precision, recall, f1 (§2.4, with 不明); a prediction is right when it equals the gold
    // after normalization, or both are 不明.
    std::unique_ptr<MetricSet> metrics() const override;
    // The dataset line (data::toJsonLine) with "completion".
    std::string predictionLine(const Example &example, const std::string &completion) const override;
    // F1 (§2.4)
    std::string_view headlineMetric() const override { return "f1"; }
    // precision, recall, f1
    std::vector<std::string> summaryMetrics() const override { return {"precision", "recall", "f1"}; }
    // {"sender_email", "email_text"} and the gold.
    std::shared_ptr<const Example> exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                    const std::string &source) const override;
    // The e-mail left empty: the rewards that look at it see none.
    std::shared_ptr<const Example> exampleFromGold(const std::string &gold) const override;
    void addRewards(reward::Registry &registry) const override;
    // eval::FailureCategory, in its order (tasks/extraction/emailfailures.h): exact,
    // no_answer, missed, marker_only, named_where_unknown, recipient, third_party,
    // invented, other_wrong; the parties guessed from the e-mail when the example has none.
    std::vector<FailureCategory> failureCategories() const override;
    size_t failureCategory(const Example &example, const Completion &completion) const override;
    // {"source": eval::sourceKey}: where the answer came from.
    std::string failureDetailsJson(const Example &example, const Completion &completion) const override;
    // {"parties_from_data": bool}: the record's own parties, or guessed.
    std::string failureExampleJson(const Example &example) const override;
};

} // namespace rwb::task
