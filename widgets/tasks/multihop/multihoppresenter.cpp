// What the views show of a multi-hop example beyond the generic presenter's answer
// against gold, completion and stored input: its failure categories in the user's language.
#include "tasks/presenters.h"

#include "taskpresenter.h"

#include <QCoreApplication>

namespace rwb::widgets::tasks {

namespace {

class MultihopPresenter : public TaskPresenter {
public:
    QString categoryName(const QString &key, const QString &fallback) const override
    {
        if (key == QLatin1String("right"))
            return QCoreApplication::translate("TaskPresenter", "Right");
        if (key == QLatin1String("format"))
            return QCoreApplication::translate("TaskPresenter", "Format");
        if (key == QLatin1String("partial"))
            return QCoreApplication::translate("TaskPresenter", "Partial answer");
        if (key == QLatin1String("wrong"))
            return QCoreApplication::translate("TaskPresenter", "Wrong answer");
        return fallback;
    }

    QString categoryExplanation(const QString &key, const QString &fallback) const override
    {
        if (key == QLatin1String("right"))
            return QCoreApplication::translate("TaskPresenter", "The answer equals the gold answer (after normalization).");
        if (key == QLatin1String("format"))
            return QCoreApplication::translate("TaskPresenter", "The completion does not follow the step format to an <answer>.");
        if (key == QLatin1String("partial"))
            return QCoreApplication::translate("TaskPresenter", "The answer shares some characters with the gold answer but is not it.");
        if (key == QLatin1String("wrong"))
            return QCoreApplication::translate("TaskPresenter", "The answer shares no character with the gold answer.");
        return fallback;
    }
};

} // namespace

std::shared_ptr<const TaskPresenter> makeMultihopPresenter()
{
    return std::make_shared<const MultihopPresenter>();
}

} // namespace rwb::widgets::tasks
