#include "task/catalog.h"

#include "data/jsonl.h"
#include "task/extractiontask.h"
#include "task/legalqatask.h"

namespace rwb::task {

const Catalog &Catalog::builtin()
{
    static const Catalog catalog = [] {
        Catalog c;
        c.m_rewards = reward::Registry::builtin();
        c.addTask(std::make_shared<ExtractionTask>());
        c.addTask(std::make_shared<LegalQaTask>());
        return c;
    }();
    return catalog;
}

void Catalog::addTask(std::shared_ptr<const Task> task)
{
    for (auto &t : m_tasks)
        if (t->name() == task->name()) {
            t = std::move(task);
            return;
        }
    m_tasks.push_back(std::move(task));
}

const Task *Catalog::find(std::string_view name) const
{
    for (const auto &t : m_tasks)
        if (t->name() == name)
            return t.get();
    return nullptr;
}

const Task &Catalog::get(std::string_view name, const std::string &source, const std::string &field) const
{
    if (const Task *t = find(name))
        return *t;
    throw data::InputException(
        {source, 0, field + ": unknown task \"" + std::string(name) + "\" (allowed: " + reward::joinNames(names()) + ")"});
}

std::vector<std::string> Catalog::names() const
{
    std::vector<std::string> out;
    for (const auto &t : m_tasks)
        out.emplace_back(t->name());
    return out;
}

} // namespace rwb::task
