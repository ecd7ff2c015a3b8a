#pragma once

// The built-in tasks' presenters (widgets/taskpresenter.h), one folder each beside this
// file; presenters.cpp is the one place that lists them by task name.

#include <memory>

namespace rwb::widgets {
class TaskPresenter;
}

namespace rwb::widgets::tasks {

std::shared_ptr<const TaskPresenter> makeExtractionPresenter();
std::shared_ptr<const TaskPresenter> makeLegalQaPresenter();
std::shared_ptr<const TaskPresenter> makeChatPresenter();
std::shared_ptr<const TaskPresenter> makeMultihopPresenter();

} // namespace rwb::widgets::tasks
