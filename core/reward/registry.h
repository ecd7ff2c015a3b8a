#pragma once

#include "reward/reward.h"
#include "reward/synonymtable.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::embed {
class Embedder;
}
namespace rwb::judge {
class JudgeClient;
}

namespace rwb::reward {

// What a reward may need besides its name.
struct RewardOptions {
    // For `domain`; the bundled table when null.
    std::shared_ptr<const SynonymTable> synonyms;
    // For embedding-based rewards (`semantic`): the config's embedding backend.
    std::shared_ptr<const embed::Embedder> embedder;
    // For judge rewards (judgerewards.h): the config's judge client.
    std::shared_ptr<const judge::JudgeClient> judge;
    // The component's "options" (a JSON object, "" when none), and the config's folder
    // that relative paths in them are resolved against.
    std::string componentOptions;
    std::string baseDir;
    // The component's name in the config (RewardComponent::label): what a generic reward
    // listed under a name of its own ("accuracy" for a `python` function) reports as its
    // name(). "" = the reward's own name.
    std::string label;
};

// Rewards by name, each for one task or for every task. A task brings its own
// (task::Task::addRewards); the generic library (reward/library/library.h: exact_match,
// regex, python, …) scores any task's completions against its gold or its record's
// columns. tasks::Catalog::builtin().rewards() holds both.
class Registry {
public:
    using Factory = std::function<std::unique_ptr<Reward>(const RewardOptions &)>;
    struct Entry {
        std::string name;
        std::string task;        // the name of the task it scores; "" for every task (a generic component)
        std::string description; // one English line
        Factory make;
        bool needsEmbedder = false; // make() wants RewardOptions::embedder
        bool needsJudge = false;    // make() wants RewardOptions::judge
        // A task's reward that also scores every other task's completions (an LLM judge's
        // rewards, `semantic`: any task::JudgedExample, else the gold): listed among its
        // task's own, and offered to the others after the generic ones.
        bool anyTask = false;
    };

    void add(Entry entry);
    const std::vector<Entry> &entries() const { return m_entries; }
    const Entry *find(std::string_view name) const;
    // Whether `entry` may score the completions of `task`: its own, or a generic one.
    static bool serves(const Entry &entry, std::string_view task)
    {
        return entry.task.empty() || entry.task == task || entry.anyTask;
    }
    // The names of every reward for `task` (its own, then the generic ones, then other
    // tasks' that serve any task), in registration order.
    std::vector<std::string> names(std::string_view task) const;
    // The task of a reward config that names none: the one set (a catalog sets its first
    // task), else the task of the first reward registered ("" when there is none).
    std::string defaultTask() const;
    void setDefaultTask(std::string task) { m_defaultTask = std::move(task); }
    // Makes `task` known, with or without rewards of its own (a catalog adds each of
    // its tasks): a config may name it and use the generic rewards.
    void addTask(const std::string &task);
    // The tasks known: those added (addTask) and those that have rewards of their own,
    // in the order of their first appearance.
    std::vector<std::string> tasks() const;
    // Throws std::invalid_argument listing the allowed names when `name` is unknown.
    std::unique_ptr<Reward> create(std::string_view name, const RewardOptions &options = {}) const;

private:
    std::vector<Entry> m_entries;
    std::vector<std::string> m_tasks; // addTask's, in order
    std::string m_defaultTask;
};

// "a, b, c"
std::string joinNames(const std::vector<std::string> &names);

} // namespace rwb::reward
