#pragma once

// An example as a judge sees it with another rubric: how the workbench's rubric editor
// re-scores samples with an edited rubric without touching their records. It is a
// task::Example (the original's id, gold and meta) and a task::JudgedExample (the
// original's question and reference answer, the given rubric), so the judge rewards
// (reward/judgerewards.h) score it as they would the original with that rubric. The
// task's other rewards need the task's own example type and refuse it (task::as): give
// them the original. Immutable; safe to read from several threads.

#include "task/task.h"

#include <memory>
#include <string>

namespace rwb::task {

class RubricOverrideExample final : public Example, public JudgedExample {
public:
    // Shares `original` and `rubric`. Throws std::invalid_argument when either is null or
    // `original` is not a JudgedExample (its task gives a judge nothing).
    RubricOverrideExample(std::shared_ptr<const Example> original, std::shared_ptr<const judge::Rubric> rubric);

    const std::string &id() const override { return m_original->id(); }
    std::string goldText() const override { return m_original->goldText(); }
    std::string metaJson() const override { return m_original->metaJson(); }

    std::string judgeQuestion() const override { return m_judged->judgeQuestion(); }
    std::string judgeReference() const override { return m_judged->judgeReference(); }
    const judge::Rubric *judgeRubric() const override { return m_rubric.get(); }

    const std::shared_ptr<const Example> &original() const { return m_original; }

private:
    std::shared_ptr<const Example> m_original;
    const JudgedExample *m_judged = nullptr; // m_original, seen as judged
    std::shared_ptr<const judge::Rubric> m_rubric;
};

} // namespace rwb::task
