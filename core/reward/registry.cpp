#include "reward/registry.h"

#include <algorithm>
#include <stdexcept>

namespace rwb::reward {

void Registry::add(Entry entry)
{
    if (find(entry.name))
        throw std::invalid_argument("reward \"" + entry.name + "\" is registered twice");
    m_entries.push_back(std::move(entry));
}

const Registry::Entry *Registry::find(std::string_view name) const
{
    for (const Entry &e : m_entries)
        if (e.name == name)
            return &e;
    return nullptr;
}

std::vector<std::string> Registry::names(std::string_view task) const
{
    std::vector<std::string> out;
    for (const Entry &e : m_entries)
        if (!e.task.empty() && e.task == task)
            out.push_back(e.name);
    for (const Entry &e : m_entries)
        if (e.task.empty())
            out.push_back(e.name);
    for (const Entry &e : m_entries)
        if (e.anyTask && !e.task.empty() && e.task != task)
            out.push_back(e.name);
    return out;
}

std::string Registry::defaultTask() const
{
    if (!m_defaultTask.empty())
        return m_defaultTask;
    for (const Entry &e : m_entries)
        if (!e.task.empty())
            return e.task;
    return {};
}

void Registry::addTask(const std::string &task)
{
    if (!task.empty() && std::find(m_tasks.begin(), m_tasks.end(), task) == m_tasks.end())
        m_tasks.push_back(task);
}

std::vector<std::string> Registry::tasks() const
{
    std::vector<std::string> out = m_tasks;
    for (const Entry &e : m_entries)
        if (!e.task.empty() && std::find(out.begin(), out.end(), e.task) == out.end())
            out.push_back(e.task);
    return out;
}

std::unique_ptr<Reward> Registry::create(std::string_view name, const RewardOptions &options) const
{
    const Entry *e = find(name);
    if (!e) {
        std::vector<std::string> all;
        for (const Entry &x : m_entries)
            all.push_back(x.name);
        throw std::invalid_argument("unknown reward \"" + std::string(name) + "\" (allowed: " + joinNames(all) + ")");
    }
    return e->make(options);
}

std::string joinNames(const std::vector<std::string> &names)
{
    std::string s;
    for (const std::string &n : names) {
        if (!s.empty())
            s += ", ";
        s += n;
    }
    return s;
}

} // namespace rwb::reward
