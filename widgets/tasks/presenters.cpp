// The presenters of the built-in tasks, by the task's name: the one place in the widgets
// that lists them. A program or test adds its own task's with TaskPresenter::add.
#include "tasks/presenters.h"

#include "taskpresenter.h"

#include "tasks/extraction/extractiontask.h"
#include "tasks/chat/chattask.h"
#include "tasks/legalqa/legalqatask.h"
#include "tasks/multihop/multihoptask.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace rwb::widgets {

namespace {

struct Presenters {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<const TaskPresenter>, std::less<>> byTask;
    // Presenters add() replaced: kept, since a view may still hold the reference forTask gave.
    std::vector<std::shared_ptr<const TaskPresenter>> replaced;
    std::shared_ptr<const TaskPresenter> generic = std::make_shared<const TaskPresenter>();

    Presenters()
    {
        byTask.emplace(std::string(task::ExtractionTask().name()), tasks::makeExtractionPresenter());
        byTask.emplace(std::string(task::LegalQaTask().name()), tasks::makeLegalQaPresenter());
        byTask.emplace(std::string(task::ChatTask().name()), tasks::makeChatPresenter());
        byTask.emplace(std::string(task::MultihopTask().name()), tasks::makeMultihopPresenter());
    }
};

Presenters &presenters()
{
    static Presenters p;
    return p;
}

} // namespace

const TaskPresenter &TaskPresenter::forTask(std::string_view task)
{
    Presenters &p = presenters();
    const std::lock_guard lock(p.mutex);
    const auto it = p.byTask.find(task);
    return it == p.byTask.end() ? *p.generic : *it->second;
}

void TaskPresenter::add(std::string task, std::shared_ptr<const TaskPresenter> presenter)
{
    Presenters &p = presenters();
    const std::lock_guard lock(p.mutex);
    auto &slot = p.byTask[std::move(task)];
    if (slot)
        p.replaced.push_back(std::move(slot));
    slot = std::move(presenter);
}

} // namespace rwb::widgets
