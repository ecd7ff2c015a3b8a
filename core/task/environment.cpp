#include "task/environment.h"

#include "task/task.h"

namespace rwb::task {

std::unique_ptr<Environment> Task::environment(const EnvironmentOptions &) const
{
    return nullptr;
}

} // namespace rwb::task
