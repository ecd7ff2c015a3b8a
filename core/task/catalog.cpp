#include "task/catalog.h"

#include "reward/library/library.h"
#include "reward/rewardconfig.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

namespace rwb::task {

Catalog::Catalog()
{
    reward::addLibraryRewards(m_rewards);
}

void Catalog::addTask(std::shared_ptr<const Task> task)
{
    std::string name(task->name());
    if (const auto it = m_index.find(name); it != m_index.end()) {
        // The task it replaces lives on: views, a trainer and metric sets hold plain
        // pointers to it (a user's task read again from another description).
        m_replaced.push_back(std::exchange(m_tasks[it->second], std::move(task)));
        return;
    }
    reward::Registry rewards = m_rewards; // all of the task's rewards, or none (a name taken throws)
    task->addRewards(rewards);
    rewards.addTask(name);
    if (m_tasks.empty())
        rewards.setDefaultTask(name);
    m_rewards = std::move(rewards);
    m_index.emplace(std::move(name), m_tasks.size());
    m_tasks.push_back(std::move(task));
}

const Task *Catalog::find(std::string_view name) const
{
    if (name.empty())
        return m_tasks.empty() ? nullptr : m_tasks.front().get();
    const auto it = m_index.find(name);
    return it == m_index.end() ? nullptr : m_tasks[it->second].get();
}

const Task &Catalog::get(std::string_view name, const std::string &source, const std::string &field) const
{
    if (reward::isTaskDescriptionPath(std::string(name))) {
        // A user's task described in a file (tasks/user/): installed in the process's
        // catalog, which this is when a program hands it to a trainer.
        const std::string stored = reward::installTaskDescriptionFile(std::string(name));
        const std::string taskName = util::parseJson(stored).at("name").get<std::string>();
        if (const Task *t = find(taskName))
            return *t;
        throw data::InputException({source, 0, field + ": the task \"" + taskName + "\" of " + std::string(name) +
                                                   " is in the process's catalog, not in this one"});
    }
    if (const Task *t = find(name))
        return *t;
    throw data::InputException(
        {source, 0, field + ": unknown task \"" + std::string(name) + "\" (allowed: " + reward::joinNames(names()) + ")"});
}

const Task &Catalog::getWithSteps(std::string_view name, const std::string &source, const std::string &field) const
{
    std::vector<std::string> withSteps;
    for (const auto &t : m_tasks)
        if (t->steps())
            withSteps.emplace_back(t->name());
    const std::string allowed = withSteps.empty() ? std::string("none") : reward::joinNames(withSteps);
    if (name.empty()) {
        if (withSteps.empty())
            throw data::InputException({source, 0, field + ": no task with process steps in this build"});
        return *find(withSteps.front());
    }
    const Task &t = get(name, source, field);
    if (!t.steps())
        throw data::InputException({source, 0,
                                    field + ": the task \"" + std::string(name) +
                                        "\" has no process steps (tasks with them: " + allowed + ")"});
    return t;
}

std::vector<std::string> Catalog::names() const
{
    std::vector<std::string> out;
    for (const auto &t : m_tasks)
        out.emplace_back(t->name());
    return out;
}

std::string taskOfJsonl(std::string_view text)
{
    for (size_t pos = 0; pos < text.size();) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        const nlohmann::json line = util::parseJsonOrDiscarded(text.substr(pos, end - pos));
        pos = end + 1;
        if (line.is_object()) {
            if (auto t = line.find("task"); t != line.end() && t->is_string())
                return t->get<std::string>();
            break;
        }
    }
    return {};
}

} // namespace rwb::task
