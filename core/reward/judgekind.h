#pragma once

// A kind of judge reward as one registered unit (inspect_ai's model-graded scorers): what
// it asks a judge about one completion (the messages and the reply's schema), how it reads
// a reply (the value and the verdict JSON kept in judge_decisions.verdict, docs/store.md),
// how the parts of one completion add up, and which component options it reads.
// JudgeReward (judgerewards.h) runs any kind through the judge client. The built-in kinds
// are in reward/judgekinds/, one file per family; a program registers its own with
// registerJudgeKind before it makes rewards of it.

#include "judge/chat.h"
#include "judge/judgeprompts.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::judge {
struct Rubric;
}
namespace rwb::task {
class Completion;
class JudgedExample;
} // namespace rwb::task

namespace rwb::reward {

struct JudgeRewardOptions;
struct ReadReply;

// One request a judge reward makes for one completion.
struct JudgeAsk {
    std::string part; // "" for the whole answer, "items[3]" for one rubric item
    std::vector<judge::ChatMessage> messages;
    judge::JudgeSchema schema;
    size_t item = 0;                      // per item: the rubric item
    const judge::Rubric *rubric = nullptr; // the rubric asked about, when there is one
};

class JudgeKind {
public:
    virtual ~JudgeKind() = default;
    // The name a reward registers it under ("coverage", "rubric_explicit").
    virtual std::string_view name() const = 0;
    // The component options it reads, of "geval", "mode", "verdicts", "rubric_file".
    virtual std::vector<std::string_view> options() const = 0;
    // Throws std::invalid_argument ("example X has no reference answer") when the example
    // lacks what the kind asks about.
    virtual void check(const task::JudgedExample &example, const JudgeRewardOptions &options,
                       const std::string &id) const = 0;
    // The requests for one completion (they check the example first).
    virtual std::vector<JudgeAsk> asks(const task::JudgedExample &example, const task::Completion &completion,
                                       const JudgeRewardOptions &options, const std::string &id) const = 0;
    // Reads one reply; throws (judge::VerdictError) when it cannot be read.
    virtual ReadReply read(const JudgeAsk &ask, const judge::ChatChoice &choice, const JudgeRewardOptions &options) const = 0;
    // The completion's value from its parts' values (by default the one part's).
    virtual double aggregate(const std::vector<JudgeAsk> &asks, const std::vector<double> &values,
                             const JudgeRewardOptions &options) const;
    // How the views show one of its verdicts (read()'s JSON) in a line: "" (the default)
    // when its verdict has one of the built-in kinds' shapes, which the views read and
    // translate themselves (widgets/judgeverdictsummary.h); a kind with a verdict of its
    // own gives its line here (English), else the views show the verdict's JSON.
    virtual std::string verdictLine(const std::string &verdictJson) const;
};

// Registers (or replaces) a kind under its name. Not while rewards are being made on
// another thread.
void registerJudgeKind(std::shared_ptr<const JudgeKind> kind);
// The kind named `name`; null when there is none.
std::shared_ptr<const JudgeKind> findJudgeKind(std::string_view name);
// Every registered kind's name, sorted.
std::vector<std::string> judgeKindNames();

// The rubric a kind asks about for an example: its own, else the component's rubric_file.
// Throws std::invalid_argument naming the example when it has neither.
const judge::Rubric &rubricOf(const task::JudgedExample &example, const JudgeRewardOptions &options,
                              const std::string &id);

} // namespace rwb::reward
