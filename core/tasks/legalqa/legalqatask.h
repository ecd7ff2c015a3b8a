#pragma once

// The legal-QA task of the third paper (GRPO with citation and semantic rewards): answer a
// question from the statute sections a retriever put in the prompt and cite them, in the
// format of its appendix D.2. Data: tasks/legalqa/legalquestion.h (`rwb data synth --task
// legal_qa`, sections added by `rwb retrieve annotate`); parsing: tasks/legalqa/legaloutput.h;
// grading: tasks/legalqa/legalgrader.h and tasks/legalqa/legalqametrics.h; rewards: tasks/legalqa/legalrewards.h.

#include "tasks/legalqa/legalquestion.h"
#include "tasks/legalqa/legalgrader.h"
#include "tasks/legalqa/legaloutput.h"
#include "task/task.h"

#include <memory>
#include <optional>
#include <set>

namespace rwb::task {

// A question with its retrieved sections and its reference grader, prepared once.
class LegalQaExample : public Example, public JudgedExample {
public:
    explicit LegalQaExample(data::LegalQuestion question);
    ~LegalQaExample() override;

    const std::string &id() const override { return m_question.id; }
    // "[17, 22] reference answer": the gold codes, then the reference answer.
    std::string goldText() const override;
    // The question's dataset line (data::toJsonLine, without a completion): the retrieved
    // sections, facts and slot values the rollout detail shows and rebuilds the example from.
    std::string metaJson() const override;

    const data::LegalQuestion &question() const { return m_question; }
    const std::vector<int64_t> &gold() const { return m_question.lawCodes; }
    // The law codes of the sections in the prompt.
    const std::set<int64_t> &retrievedCodes() const { return m_retrieved; }
    const eval::LegalReferenceGrader &grader() const { return *m_grader; }

    // What a judge sees: the question (without the sections), the reference answer, and
    // the line's rubric when it has one.
    std::string judgeQuestion() const override { return m_question.question; }
    std::string judgeReference() const override { return m_question.referenceAnswer; }
    const judge::Rubric *judgeRubric() const override { return m_rubric.get(); }

private:
    data::LegalQuestion m_question;
    std::set<int64_t> m_retrieved;
    std::unique_ptr<eval::LegalReferenceGrader> m_grader;
    std::unique_ptr<judge::Rubric> m_rubric;
};

// A completion taken apart (D.2) and graded against the question's reference facts.
class LegalQaCompletion : public Completion {
public:
    LegalQaCompletion(const LegalQaExample &example, std::string text);

    const std::string &text() const override { return m_text; }
    // The <answer> block's text (trimmed; "" when there is none).
    const std::string &answer() const override { return m_output.answerText; }
    // {"format", "cited", "duplicate_citations", "invalid_codes", "coverage",
    //  "consistency", "facts": [{"law_code", "slot", "value", "verdict"}]}
    std::string detailsJson() const override;

    const eval::LegalOutput &output() const { return m_output; }
    const eval::LegalGrade &grade() const { return m_grade; }
    // The answer's true rubric score s* under its question's rubric from facts, from the
    // grade above (legalRubricTruth); none when the question has no facts.
    std::optional<double> rubricScore() const { return m_rubricScore; }

private:
    std::string m_text;
    eval::LegalOutput m_output;
    eval::LegalGrade m_grade;
    std::optional<double> m_rubricScore;
};

class LegalQaTask : public Task {
public:
    std::string_view name() const override;
    std::string_view description() const override;
    // data::readLegalQuestions: field-named file:line errors.
    Record readLine(std::string_view line, const std::string &source, size_t lineNo,
                    bool requireCompletion) const override;
    // D.1: the question, then 関連条文 with each retrieved section as
    // <law_code>N</law_code><context>title：text</context>, in the model's instruction format.
    std::string prompt(const Example &example, const tokenizer::PromptFormat &format, bool thinking) const override;
    // D.2: <reasoning>…</reasoning>\n<answer>reference</answer>\n<citation>the gold codes
    // that are in the prompt</citation> (all gold codes when the line has no sections).
    std::string sftTarget(const Example &example, bool thinking) const override;
    std::unique_ptr<Completion> parse(const Example &example, std::string completion, bool thinking) const override;
    // The paper's table 1: citation P / R / F1 (macro, and micro), coverage, consistency,
    // joint, the share of outputs in format, and citation_f1_bound (the F1 of citing
    // exactly the gold sections in the prompt: the retriever's bound). Right: joint 1.
    std::unique_ptr<MetricSet> metrics() const override;
    // The question's line (data::toJsonLine) with "completion".
    std::string predictionLine(const Example &example, const std::string &completion) const override;
    // the joint score (mean of citation F1, coverage, consistency)
    std::string_view headlineMetric() const override { return "joint"; }
    // the paper's table 1: citation precision, recall, F1 (macro), coverage, consistency, joint
    std::vector<std::string> summaryMetrics() const override
    {
        return {"citation_precision", "citation_recall", "citation_f1", "coverage", "consistency", "joint"};
    }
    // The meta is a dataset line: parsed as one (data::parseLegalQuestionLine).
    std::shared_ptr<const Example> exampleFromStore(const std::string &metaJson, const std::string &gold,
                                                    const std::string &source) const override;
    void addRewards(reward::Registry &registry) const override;
    // right, format, hallucinated_citation, missing_citation, wrong_citation, contradiction,
    // incomplete: the first that fits, in this order. "Gold" here is the gold sections in
    // the prompt (the ones a model can cite): a completion citing exactly those, stating
    // every reference fact and contradicting none is right even when the retriever missed
    // a gold section.
    std::vector<FailureCategory> failureCategories() const override;
    size_t failureCategory(const Example &example, const Completion &completion) const override;
};

} // namespace rwb::task
