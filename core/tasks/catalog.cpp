// The built-in catalog: the one place that lists the built-in tasks.
#include "task/catalog.h"

#include "tasks/chat/chattask.h"
#include "tasks/extraction/extractiontask.h"
#include "tasks/legalqa/legalqatask.h"
#include "tasks/multihop/multihoptask.h"
#include "tasks/user/usertask.h"

#include "reward/rewardconfig.h"

namespace rwb::task {

namespace {

// A reward config's task description ("task": {…} or "task": "mine.json") makes a user's
// task and installs it here (tasks/user/usertask.h).
[[maybe_unused]] const bool kTaskDescriptionsInstalled = (reward::setTaskDescriptionHandler(&installUserTask), true);

Catalog &processCatalog()
{
    static Catalog catalog = [] {
        Catalog c;
        c.addTask(std::make_shared<ExtractionTask>());
        c.addTask(std::make_shared<LegalQaTask>());
        c.addTask(std::make_shared<ChatTask>());
        c.addTask(std::make_shared<MultihopTask>());
        return c;
    }();
    return catalog;
}

} // namespace

const Catalog &Catalog::builtin()
{
    return processCatalog();
}

void Catalog::install(const std::function<void(Catalog &)> &edit)
{
    Catalog copy = processCatalog();
    edit(copy);
    processCatalog() = std::move(copy);
}

} // namespace rwb::task
