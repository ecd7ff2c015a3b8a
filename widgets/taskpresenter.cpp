#include "taskpresenter.h"

#include "failurecategorymodel.h"
#include "rewardhtml.h"

#include "presenterhtml.h"

#include "eval/failureanalysis.h"
#include "task/task.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <set>

namespace rwb::widgets {

using namespace presenterhtml;

TaskPresenter::~TaskPresenter() = default;

QString TaskPresenter::outcomeHtml(const task::Example &example, const task::Completion &completion,
                                   const std::vector<reward::Explanation> &) const
{
    QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Answer against gold"));
    h += legendOfPair();
    h += QStringLiteral("<table cellpadding=2>");
    h += pairRows(QCoreApplication::translate("TaskPresenter", "Answer"), QCoreApplication::translate("TaskPresenter", "Gold"), markedPair(completion.answer(), example.goldText()));
    h += QStringLiteral("</table>");
    return h;
}

QString TaskPresenter::componentDetailHtml(const std::vector<reward::Explanation> &) const
{
    return {};
}

QString TaskPresenter::completionHtml(const task::Example &, const task::Completion &completion, bool) const
{
    return QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>")
        .arg(QCoreApplication::translate("TaskPresenter", "Completion"), completion.text().empty() ? QStringLiteral("<i>∅</i>") : escape(str(completion.text())));
}

QString TaskPresenter::inputHtml(const task::Example &example, const task::Completion &) const
{
    const std::string meta = example.metaJson();
    if (meta.empty() || meta == "{}")
        return {};
    return QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>").arg(QCoreApplication::translate("TaskPresenter", "Input (as stored)"), escape(str(meta)));
}

QString TaskPresenter::failureCategoryName(const QString &key, const QString &fallback)
{
    for (size_t i = 0; i < eval::kFailureCategoryCount; ++i)
        if (key == QLatin1String(eval::categoryKey(static_cast<eval::FailureCategory>(i))))
            return FailureCategoryModel::categoryName(static_cast<eval::FailureCategory>(i));
    if (key == QLatin1String("right"))
        return QCoreApplication::translate("TaskPresenter", "Right");
    if (key == QLatin1String("format"))
        return QCoreApplication::translate("TaskPresenter", "Format");
    if (key == QLatin1String("hallucinated_citation"))
        return QCoreApplication::translate("TaskPresenter", "Hallucinated citation");
    if (key == QLatin1String("missing_citation"))
        return QCoreApplication::translate("TaskPresenter", "Missing citation");
    if (key == QLatin1String("wrong_citation"))
        return QCoreApplication::translate("TaskPresenter", "Wrong citation");
    if (key == QLatin1String("contradiction"))
        return QCoreApplication::translate("TaskPresenter", "Contradiction");
    if (key == QLatin1String("incomplete"))
        return QCoreApplication::translate("TaskPresenter", "Incomplete answer");
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

QString TaskPresenter::failureCategoryExplanation(const QString &key, const QString &fallback)
{
    for (size_t i = 0; i < eval::kFailureCategoryCount; ++i)
        if (key == QLatin1String(eval::categoryKey(static_cast<eval::FailureCategory>(i))))
            return FailureCategoryModel::categoryExplanation(static_cast<eval::FailureCategory>(i));
    if (key == QLatin1String("right"))
        return QCoreApplication::translate("TaskPresenter", "Cites exactly the gold sections in the prompt, states every reference fact and contradicts none.");
    if (key == QLatin1String("format"))
        return QCoreApplication::translate("TaskPresenter", "The completion is not <reasoning>, <answer>, <citation> in that order and nothing else.");
    if (key == QLatin1String("hallucinated_citation"))
        return QCoreApplication::translate("TaskPresenter", "Cites a law code that is not among the sections in the prompt.");
    if (key == QLatin1String("missing_citation"))
        return QCoreApplication::translate("TaskPresenter", "Cites no law code.");
    if (key == QLatin1String("wrong_citation"))
        return QCoreApplication::translate("TaskPresenter", "Cites sections of the prompt, but not exactly the gold ones (a near-duplicate, one of two, an extra one).");
    if (key == QLatin1String("contradiction"))
        return QCoreApplication::translate("TaskPresenter", "Cites the right sections but states a reference fact with another value (a deadline, an amount, an authority).");
    if (key == QLatin1String("incomplete"))
        return QCoreApplication::translate("TaskPresenter", "Cites the right sections and contradicts nothing, but leaves out a reference fact.");
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

QString TaskPresenter::categoryHtml(const task::Task &task, const task::Example &example, const task::Completion &completion)
{
    const std::vector<task::FailureCategory> categories = task.failureCategories();
    const size_t i = task.failureCategory(example, completion);
    if (i >= categories.size())
        return {};
    const task::FailureCategory &c = categories[i];
    const QString key = str(c.key);
    return QStringLiteral("<p>%1 <b>%2</b> — %3</p>")
        .arg(QCoreApplication::translate("TaskPresenter", "Failure category:"), escape(failureCategoryName(key, str(c.name))),
             escape(failureCategoryExplanation(key, str(c.explanation))));
}

} // namespace rwb::widgets
