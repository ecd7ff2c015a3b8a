#include "tasks/catalog.h"

#include "data/jsonl.h"
#include "tasks/chat/chattask.h"
#include "tasks/extraction/extractiontask.h"
#include "tasks/legalqa/legalqatask.h"
#include "tasks/multihop/multihoptask.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace rwb::task {

const Catalog &Catalog::builtin()
{
    static const Catalog catalog = [] {
        Catalog c;
        c.addTask(std::make_shared<ExtractionTask>());
        c.addTask(std::make_shared<LegalQaTask>());
        c.addTask(std::make_shared<ChatTask>());
        c.addTask(std::make_shared<MultihopTask>());
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
    reward::Registry rewards = m_rewards; // all of the task's rewards, or none (a name taken throws)
    task->addRewards(rewards);
    if (m_tasks.empty())
        rewards.setDefaultTask(std::string(task->name()));
    m_rewards = std::move(rewards);
    m_tasks.push_back(std::move(task));
}

const Task *Catalog::find(std::string_view name) const
{
    if (name.empty())
        return m_tasks.empty() ? nullptr : m_tasks.front().get();
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
    return std::string(Catalog::builtin().find("")->name());
}

} // namespace rwb::task
