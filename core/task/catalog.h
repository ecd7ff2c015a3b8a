#pragma once

// The tasks a run can name, and their reward components. The built-in catalog (company
// extraction, legal QA, chat, multi-hop QA) is defined in tasks/catalog.cpp, the one place
// that lists them, each a folder of core/tasks/. A program (or a test) copies it, adds its
// own task and rewards, and hands the copy to the trainers (train/grpo.h, train/sft.h,
// train/evaluation.h), which know nothing else about the task.

#include "reward/registry.h"
#include "task/task.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::task {

// The task a JSONL text is of: the "task" of its first JSON object line; "" (a catalog's
// default task, Catalog::find) when that line names none or there is no object line.
std::string taskOfJsonl(std::string_view text);

class Catalog {
public:
    // A catalog with no task, its registry holding the generic rewards
    // (reward/library/library.h) that score every task.
    Catalog();

    // The process's catalog: the built-in tasks and their rewards (tasks/catalog.cpp),
    // and what the program installed (install()). What the views and the CLI's generic
    // commands look tasks up in.
    static const Catalog &builtin();
    // Changes builtin() for the whole process: `edit` gets a copy to add tasks and rewards
    // to, which replaces it when `edit` returns (nothing changes when it throws). For a
    // program's own tasks (a plug-in, a test), at start: not while another thread reads
    // the catalog, and a reference into its registry taken before does not see the change.
    static void install(const std::function<void(Catalog &)> &edit);

    // Adds a task and, when no task of its name was here, its rewards
    // (Task::addRewards); a task of the same name is replaced, its rewards kept, and the
    // replaced one kept alive (pointers to it stay valid). The
    // first task added is the default one (find("")), for the registry's reward configs
    // too. Throws std::invalid_argument, changing nothing, when one of the task's rewards
    // has the name of a reward already registered.
    void addTask(std::shared_ptr<const Task> task);
    reward::Registry &rewards() { return m_rewards; }
    const reward::Registry &rewards() const { return m_rewards; }

    // The task named `name`; "" names the default task, the first added (the task of a
    // config, a file or a run that names none). Null when there is none.
    const Task *find(std::string_view name) const;
    // The task named `name` ("" the default task); throws data::InputException naming `source` and `field`, and
    // the tasks there are, when there is none. A name ending in ".json" is a user's task
    // description file (tasks/user/usertask.h): read, and installed in the process's
    // catalog (Catalog::install), whose task it then returns.
    const Task &get(std::string_view name, const std::string &source, const std::string &field) const;
    // The task named `name` that declares process steps (Task::steps); "" names the first
    // such task. Throws data::InputException naming `source` and `field` when there is no
    // such task or it has no steps, with the tasks that have them.
    const Task &getWithSteps(std::string_view name, const std::string &source, const std::string &field) const;
    std::vector<std::string> names() const;

private:
    std::vector<std::shared_ptr<const Task>> m_tasks; // in the order added
    std::vector<std::shared_ptr<const Task>> m_replaced; // tasks addTask replaced, kept alive for the pointers to them
    std::map<std::string, size_t, std::less<>> m_index; // name → position in m_tasks
    reward::Registry m_rewards;
};

} // namespace rwb::task
