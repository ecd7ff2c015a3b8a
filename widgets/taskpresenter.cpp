#include "taskpresenter.h"

#include "rewardhtml.h"

#include "presenterhtml.h"

#include "task/task.h"
#include "tasks/user/usertask.h"

#include <nlohmann/json.hpp>

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

QString TaskPresenter::componentDetailHtml(const std::vector<reward::Explanation> &explanations) const
{
    // What a component failed with (a Python function's traceback, a remote reward's
    // error): its value is None, and this says why.
    QString h;
    for (const reward::Explanation &e : explanations) {
        if (e.error.empty())
            continue;
        h += QStringLiteral("<h4>%1</h4><pre>%2</pre>")
                 .arg(QCoreApplication::translate("TaskPresenter", "Why %1 gave no value").arg(escape(str(e.reward))),
                      escape(str(e.error)));
    }
    return h;
}

QString TaskPresenter::completionHtml(const task::Example &, const task::Completion &completion, bool) const
{
    return QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>")
        .arg(QCoreApplication::translate("TaskPresenter", "Completion"), completion.text().empty() ? QStringLiteral("<i>∅</i>") : escape(str(completion.text())));
}

QString TaskPresenter::inputHtml(const task::Example &example, const task::Completion &) const
{
    if (const auto *user = dynamic_cast<const task::UserExample *>(&example)) {
        // A user's record: the prompt's messages as the model saw them, then its columns.
        QString h = QStringLiteral("<h4>%1</h4><table cellpadding=2>").arg(QCoreApplication::translate("TaskPresenter", "Prompt"));
        for (const task::UserExample::Message &m : user->messages())
            h += QStringLiteral("<tr><td valign=top><b>%1</b></td><td><tt>%2</tt></td></tr>").arg(escape(str(m.role)), escape(str(m.content)));
        h += QStringLiteral("</table><h4>%1</h4><table cellpadding=2>").arg(QCoreApplication::translate("TaskPresenter", "Columns"));
        const nlohmann::json record = nlohmann::json::parse(user->recordJson(), nullptr, false);
        if (record.is_object())
            for (auto it = record.begin(); it != record.end(); ++it)
                h += QStringLiteral("<tr><td valign=top><b>%1</b></td><td><tt>%2</tt></td></tr>")
                         .arg(escape(str(it.key())), escape(str(it->is_string() ? it->get<std::string>() : it->dump())));
        return h + QStringLiteral("</table>");
    }
    const std::string meta = example.metaJson();
    if (meta.empty() || meta == "{}")
        return {};
    return QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>").arg(QCoreApplication::translate("TaskPresenter", "Input (as stored)"), escape(str(meta)));
}

namespace {

// The grader-failure category every task's failure analysis may append (eval/failureanalysis.h).
const TaskPresenter::CategoryText kGraderFailureText{
    "grader_failure", QT_TRANSLATE_NOOP("TaskPresenter", "grader failure (no reward)"),
    QT_TRANSLATE_NOOP("TaskPresenter",
                      "The grader gave no reward (a judge that failed or timed out, a Python reward that raised or "
                      "timed out, a remote reward that failed): the policy's answer was not judged.")};

} // namespace

QString TaskPresenter::categoryName(const QString &key, const QString &fallback) const
{
    if (key == QLatin1String(kGraderFailureText.key))
        return QCoreApplication::translate("TaskPresenter", kGraderFailureText.name);
    for (const CategoryText &t : categoryTexts())
        if (key == QLatin1String(t.key))
            return QCoreApplication::translate("TaskPresenter", t.name);
    return fallback;
}

QString TaskPresenter::categoryExplanation(const QString &key, const QString &fallback) const
{
    if (key == QLatin1String(kGraderFailureText.key))
        return QCoreApplication::translate("TaskPresenter", kGraderFailureText.explanation);
    for (const CategoryText &t : categoryTexts())
        if (key == QLatin1String(t.key))
            return QCoreApplication::translate("TaskPresenter", t.explanation);
    return fallback;
}

QString TaskPresenter::categoryShortName(const QString &, const QString &name) const
{
    return name;
}

QString TaskPresenter::failureStatus(const QString &source, std::string_view task,
                                     const std::vector<const task::Example *> &examples) const
{
    const int n = static_cast<int>(examples.size());
    return QCoreApplication::translate("rwb::widgets::FailureExplorer", "%1 — %2: %n example(s)", nullptr, n)
        .arg(source, QString::fromUtf8(task.data(), static_cast<qsizetype>(task.size())));
}

QString TaskPresenter::failureListTitle(const QString &what, int count) const
{
    return QCoreApplication::translate("rwb::widgets::FailureExplorer", "%1: %n example(s)", nullptr, count).arg(what);
}

QString TaskPresenter::failureHtml(const task::Example &example, const task::Completion *a, const task::Completion *b,
                                   bool thinking) const
{
    QString html;
    const task::Completion *first = a ? a : b;
    if (!first)
        return html;
    html += outcomeHtml(example, *first, {});
    html += completionHtml(example, *first, thinking);
    if (a && b) {
        html += QStringLiteral("<hr><h3>%1</h3>").arg(QCoreApplication::translate("rwb::widgets::FailureExplorer", "Prediction B"));
        html += outcomeHtml(example, *b, {});
        html += completionHtml(example, *b, thinking);
    }
    html += QStringLiteral("<hr>") + inputHtml(example, *first);
    return html;
}

QString TaskPresenter::failureCategoryNote(const task::Example &, const task::Completion &, const QString &) const
{
    return {};
}

QStringList TaskPresenter::failureNotes(const task::Example &, const task::Completion &) const
{
    return {};
}

QStringList TaskPresenter::failureExampleNotes(const task::Example &) const
{
    return {};
}

QString TaskPresenter::categoryHtml(const task::Task &task, const task::Example &example, const task::Completion &completion)
{
    const std::vector<task::FailureCategory> categories = task.failureCategories();
    const size_t i = task.failureCategory(example, completion);
    if (i >= categories.size())
        return {};
    const task::FailureCategory &c = categories[i];
    const QString key = str(c.key);
    const TaskPresenter &presenter = forTask(task.name());
    return QStringLiteral("<p>%1 <b>%2</b> — %3</p>")
        .arg(QCoreApplication::translate("TaskPresenter", "Failure category:"), escape(presenter.categoryName(key, str(c.name))),
             escape(presenter.categoryExplanation(key, str(c.explanation))));
}

} // namespace rwb::widgets
