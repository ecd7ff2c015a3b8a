#pragma once

#include "reward/registry.h"
#include "reward/reward.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rwb::reward {

class ComponentOptions;

// What a generic component reads of a completion (option "target"): its parsed answer
// (task::Completion::answer) or its whole text.
enum class LibraryTarget { Answer, Text };

// The base of the generic components (library.h). A component works out its value and the
// sentence that explains it in one function, evaluate(), so that score() and explain()
// cannot disagree; explain() adds the component's name, Reason::Library and the English
// sentence (libraryDetail). Immutable after construction; safe to call from several
// threads.
class LibraryReward : public Reward {
public:
    // RewardOptions::label when the config gave the component a name, else the registered one.
    std::string_view name() const final { return m_name; }
    double score(const task::Example &example, const task::Completion &completion) const final;
    Explanation explain(const task::Example &example, const task::Completion &completion) const final;
    // For a component that reads a column (option "column"): throws std::invalid_argument
    // naming the component, the column and the example when the example has no such column
    // or no columns at all (it is no task::RecordExample).
    void checkExample(const task::Example &example) const override;

protected:
    // `registeredName`: the name the component is registered under.
    LibraryReward(std::string_view registeredName, const RewardOptions &options);

    // The value with its key and args (and, where they apply, answer / gold, precision /
    // recall, error); the rest explain() fills in.
    virtual Explanation evaluate(const task::Example &example, const task::Completion &completion) const = 0;

    // Read by the constructors of the components that take these options.
    void readTarget(const ComponentOptions &options, LibraryTarget fallback);
    void readColumn(const ComponentOptions &options);

    const std::string &target(const task::Completion &completion) const;
    // The option "column"; "" when the reference is the gold.
    const std::string &column() const { return m_column; }
    // The reference: the column's value, or the gold (task::Example::goldText) when no
    // column is set. None when the example lacks the column; `why` is then the None
    // explanation that names it.
    std::optional<std::string> reference(const task::Example &example, Explanation &why) const;

    // An explanation with `value`, `key` and `args` set.
    static Explanation said(double value, std::string key, std::vector<std::string> args = {});

private:
    std::string m_name;
    std::string m_column;
    LibraryTarget m_target = LibraryTarget::Answer;
};

// The English sentence of `key` with %1, %2, … filled from `args` in one pass (an argument
// that holds "%2" itself stays as it is). Throws std::logic_error for a key that has no
// sentence (a bug: every key a component sets is in librarySentences()).
std::string libraryDetail(std::string_view key, const std::vector<std::string> &args);
// Every key the components set, with its English sentence: what the workbench's table
// (widgets/rewardtext.cpp) translates, sentence for sentence.
const std::vector<std::pair<std::string_view, std::string_view>> &librarySentences();

} // namespace rwb::reward
