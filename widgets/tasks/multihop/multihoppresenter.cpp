// What the views show of a multi-hop example beyond the generic presenter's answer
// against gold, completion and stored input: its failure categories in the user's language.
#include "tasks/presenters.h"

#include "taskpresenter.h"

#include <QCoreApplication>

namespace rwb::widgets::tasks {

namespace {

class MultihopPresenter : public TaskPresenter {
public:
    std::vector<CategoryText> categoryTexts() const override
    {
        return {
            {"right", QT_TRANSLATE_NOOP("TaskPresenter", "Right"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The answer equals the gold answer (after normalization).")},
            {"format", QT_TRANSLATE_NOOP("TaskPresenter", "Format"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The completion does not follow the step format to an <answer>.")},
            {"partial", QT_TRANSLATE_NOOP("TaskPresenter", "Partial answer"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The answer shares some characters with the gold answer but is not it.")},
            {"wrong", QT_TRANSLATE_NOOP("TaskPresenter", "Wrong answer"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The answer shares no character with the gold answer.")},
        };
    }
};

} // namespace

std::shared_ptr<const TaskPresenter> makeMultihopPresenter()
{
    return std::make_shared<const MultihopPresenter>();
}

} // namespace rwb::widgets::tasks
