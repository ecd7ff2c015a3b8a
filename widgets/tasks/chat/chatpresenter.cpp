// What the views show of a chat example beyond the generic presenter's answer against
// gold, completion and stored input: its failure categories in the user's language.
#include "tasks/presenters.h"

#include "taskpresenter.h"

#include <QCoreApplication>

namespace rwb::widgets::tasks {

namespace {

class ChatPresenter : public TaskPresenter {
public:
    QString categoryName(const QString &key, const QString &fallback) const override
    {
        if (key == QLatin1String("exact"))
            return QCoreApplication::translate("TaskPresenter", "Exact match");
        if (key == QLatin1String("not_json"))
            return QCoreApplication::translate("TaskPresenter", "Not JSON");
        if (key == QLatin1String("field_mismatch"))
            return QCoreApplication::translate("TaskPresenter", "Field mismatch");
        if (key == QLatin1String("different"))
            return QCoreApplication::translate("TaskPresenter", "Different");
        return fallback;
    }

    QString categoryExplanation(const QString &key, const QString &fallback) const override
    {
        if (key == QLatin1String("exact"))
            return QCoreApplication::translate("TaskPresenter", "The reply is the gold reply (white space at the ends aside).");
        if (key == QLatin1String("not_json"))
            return QCoreApplication::translate("TaskPresenter", "The gold reply is a JSON object and the reply is not one.");
        if (key == QLatin1String("field_mismatch"))
            return QCoreApplication::translate("TaskPresenter", "Both are JSON objects, but a field of the gold has another value or is missing.");
        if (key == QLatin1String("different"))
            return QCoreApplication::translate("TaskPresenter", "The gold reply is not a JSON object and the reply differs from it.");
        return fallback;
    }
};

} // namespace

std::shared_ptr<const TaskPresenter> makeChatPresenter()
{
    return std::make_shared<const ChatPresenter>();
}

} // namespace rwb::widgets::tasks
