// Jobs ▸ Judge evaluation: `rwb judge eval` from a form (docs/judges.md, "How far to trust
// a judge"); its agreement tables and their slices open in the Jobs dock when it ends.

#include "jobkinds.h"

#include "judgeevalview.h"

#include "data/jsonl.h"
#include "judge/judgeconfig.h"
#include "tasks/legalqa/legaljudgeagreement.h"
#include "util/boundedjson.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHash>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

using rwb::widgets::JobField;
using rwb::widgets::JobForm;
using K = JobField::Kind;

namespace {

class JudgeEvalJob {
    Q_DECLARE_TR_FUNCTIONS(JudgeEvalJob)
public:
    static JobForm *form(const JobContext &c, const JobOpeners &openers, QWidget *parent);
    static QString title(const JobForm &form);
    static void finished(bool ok, const QJsonObject &result, const JobForm &form, const JobOpeners &openers);
};

// A file's judge, as `rwb judge eval --config` reads it (the CLI's loadJudge): its
// "judge" when it is a reward config, else the file itself. Throws data::InputException.
void checkJudgeFile(const std::string &path)
{
    const std::string text = rwb::data::readTextFile(path);
    const nlohmann::json j = rwb::util::parseJsonOrDiscarded(text);
    if (!j.is_object())
        throw rwb::data::InputException({path, 0, "not a JSON object (a reward config with \"judge\", or a judge object)"});
    if (j.contains("components") && !j.contains("judge"))
        throw rwb::data::InputException({path, 0, "a reward config without a \"judge\" object (docs/judges.md)"});
    rwb::judge::parseJudgeOptions(j.contains("judge") ? j["judge"].dump() : text, path,
                                  std::filesystem::path(path).parent_path().string());
}

// True when the file names a judge (for the form's default): a reward config with one, or
// a judge object.
bool namesAJudge(const QString &path)
{
    try {
        checkJudgeFile(path.toStdString());
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

// A check of a file, remembered while the file stays the same (the form validates as the
// user types).
class FileChecks {
public:
    QString check(const QString &path, const std::function<void(const std::string &)> &fn)
    {
        const QFileInfo f(path);
        const QString key = path + QLatin1Char('|') + QString::number(f.size()) + QLatin1Char('|')
                            + QString::number(f.lastModified().toMSecsSinceEpoch());
        if (auto it = m_results.constFind(key); it != m_results.constEnd())
            return *it;
        QString problem;
        try {
            fn(path.toStdString());
        } catch (const std::exception &e) {
            problem = QString::fromUtf8(e.what());
        }
        m_results.insert(key, problem);
        return problem;
    }

private:
    QHash<QString, QString> m_results;
};

JobForm *JudgeEvalJob::form(const JobContext &c, const JobOpeners &, QWidget *parent)
{
    auto *form = new JobForm(tr("Judge evaluation"),
                             tr("How far to trust a judge, as rwb judge eval measures it (docs/judges.md): the judge "
                                "grades every labelled request through the same client, cache and reading as the "
                                "coverage and consistency rewards, and its labels are counted against the reference "
                                "grader's: per label precision and recall, and the agreement per kind of answer and "
                                "per number of reference facts. The tables open in the Jobs dock when it ends."),
                             parent);
    // Defaults: the workspace's first config that names a judge, and its judge data
    // (rwb judge data's output), the test split first.
    QString config;
    if (c.workspace)
        for (const QString &f : c.workspace->configs())
            if (namesAJudge(f)) {
                config = f;
                break;
            }
    QString data;
    if (c.workspace) {
        for (const QString &f : c.workspace->datasets()) {
            const QString name = QFileInfo(f).fileName();
            if (!name.contains(QLatin1String("judge"), Qt::CaseInsensitive))
                continue;
            if (data.isEmpty() || name.contains(QLatin1String("test"), Qt::CaseInsensitive))
                data = f;
        }
    }

    form->addGroup(tr("Judge and data"));
    form->addField({"config", K::File, tr("Judge config"),
                    tr("A reward config with a \"judge\" object, or a file holding just that object (docs/judges.md)"),
                    config, 0, 0, 0, {}, tr("Judge or reward configs (*.json)")});
    form->addField({"data", K::File, tr("Labelled requests"),
                    tr("Lines of rwb judge data: each request with the reference grader's coverage and contradiction; "
                       "answers the judge did not train on"),
                    data, 0, 0, 0, {}, tr("Judge data (*.jsonl)")});
    form->addField({"limit", K::Int, tr("Requests (0: all)"), tr("Grade only the first N requests"), 0, 0, 100000000});
    form->addField({"no_cache", K::Check, tr("Without the cache"),
                    tr("Neither read nor write the judge's cache file: every request goes to the judge"), false});
    // The command writes its --out file at the end, into a folder that must be there.
    QDir().mkpath(c.jobsDir());
    form->addGroup(tr("Output"));
    form->addField({"out", K::SaveFile, tr("Each request's result"),
                    tr("One JSON line per request: the labels, the judge's, the raw reply or error (rwb judge eval "
                       "--out); the tables' slices are counted from it"),
                    c.freshPath(QStringLiteral("judge-eval"), QStringLiteral(".jsonl")), 0, 0, 0, {},
                    tr("JSON lines (*.jsonl)")});

    // The judge as the command reads it, and the data's first request.
    auto checks = std::make_shared<FileChecks>();
    form->setValidator([checks](const JobForm &f) {
        QStringList problems;
        const QString config = f.text(QStringLiteral("config"));
        if (QFileInfo(config).isFile())
            if (const QString p = checks->check(config, checkJudgeFile); !p.isEmpty())
                problems << QStringLiteral("config: ") + p;
        const QString data = f.text(QStringLiteral("data"));
        if (QFileInfo(data).isFile())
            if (const QString p = checks->check(data, [](const std::string &path) { rwb::judge::readLabelledRequests(path, 1); });
                !p.isEmpty())
                problems << QStringLiteral("data: ") + p;
        const QString out = f.text(QStringLiteral("out"));
        if (!out.isEmpty() && !QFileInfo(QFileInfo(out).absolutePath()).isDir())
            problems << QStringLiteral("out: ") + tr("no such folder: %1").arg(QFileInfo(out).absolutePath());
        return problems;
    });
    form->setCommand([](const JobForm &f, const QString &) {
        QStringList args{QStringLiteral("judge"), QStringLiteral("eval"),  QStringLiteral("--config"),
                         f.text(QStringLiteral("config")), QStringLiteral("--data"), f.text(QStringLiteral("data")),
                         QStringLiteral("--json"), QStringLiteral("--out"), f.text(QStringLiteral("out"))};
        if (f.integer(QStringLiteral("limit")) > 0)
            args << QStringLiteral("--limit") << QString::number(f.integer(QStringLiteral("limit")));
        if (f.checked(QStringLiteral("no_cache")))
            args << QStringLiteral("--no-cache");
        return args;
    });
    return form;
}

QString JudgeEvalJob::title(const JobForm &form)
{
    return tr("Judge evaluation on %1").arg(QFileInfo(form.text(QStringLiteral("data"))).fileName());
}

void JudgeEvalJob::finished(bool, const QJsonObject &result, const JobForm &form, const JobOpeners &openers)
{
    // A cancelled evaluation writes no --out file: nothing to show. One whose every reply
    // failed exits 1 but writes it: its Requests tab says why each failed.
    const QString out = form.text(QStringLiteral("out"));
    if (!openers.resultView || !result.contains(QStringLiteral("requests")) || !QFileInfo::exists(out))
        return;
    auto *view = new rwb::widgets::JudgeEvalView;
    QString error;
    if (!view->load(result, out, &error) && openers.notice)
        openers.notice(tr("Judge evaluation"), error);
    openers.resultView(view);
}

} // namespace

std::vector<JobKind> judgeEvalJobKinds()
{
    JobKind k;
    k.id = QStringLiteral("judge-eval");
    k.menuText = [] { return JudgeEvalJob::tr("&Judge evaluation…"); };
    k.form = JudgeEvalJob::form;
    k.title = JudgeEvalJob::title;
    k.finished = JudgeEvalJob::finished;
    return {k};
}
