// What the views show of a chat example beyond the generic presenter's answer against
// gold, completion and stored input: its failure categories in the user's language.
#include "tasks/presenters.h"

#include "taskpresenter.h"

#include <QCoreApplication>

namespace rwb::widgets::tasks {

namespace {

class ChatPresenter : public TaskPresenter {
public:
    std::vector<CategoryText> categoryTexts() const override
    {
        return {
            {"exact", QT_TRANSLATE_NOOP("TaskPresenter", "Exact match"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The reply is the gold reply (white space at the ends aside).")},
            {"not_json", QT_TRANSLATE_NOOP("TaskPresenter", "Not JSON"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The gold reply is a JSON object and the reply is not one.")},
            {"field_mismatch", QT_TRANSLATE_NOOP("TaskPresenter", "Field mismatch"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Both are JSON objects, but a field of the gold has another value or is missing.")},
            {"different", QT_TRANSLATE_NOOP("TaskPresenter", "Different"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The gold reply is not a JSON object and the reply differs from it.")},
        };
    }
};

} // namespace

std::shared_ptr<const TaskPresenter> makeChatPresenter()
{
    return std::make_shared<const ChatPresenter>();
}

} // namespace rwb::widgets::tasks
