// Jobs ▸ Import rollouts: `rwb import` from a form that detects the trainer of the dump
// chosen and shows what maps to what, and its first rows, before importing
// (ImportPreviewPanel over store::previewImport); the imported run opens in the views.

#include "jobkinds.h"

#include "importpreviewpanel.h"

#include "store/rolloutimport.h"
#include "task/catalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QPushButton>

using rwb::widgets::ImportPreviewPanel;
using rwb::widgets::JobField;
using rwb::widgets::JobForm;
using K = JobField::Kind;

namespace {

class ImportJob {
    Q_DECLARE_TR_FUNCTIONS(ImportJob)
public:
    static JobForm *form(const JobContext &c, const JobOpeners &openers, QWidget *parent);
    static QString title(const JobForm &form);
    static void finished(bool ok, const QJsonObject &result, const JobForm &form, const JobOpeners &openers);
    // The paths of the input field: separated by ";", blanks trimmed, empty ones left out.
    static QStringList inputs(const JobForm &form);
    // The options the form names, as the command will read them.
    static rwb::store::ImportOptions options(const JobForm &form);
};

// Paths in the input field are separated by this.
const QString kSeparator = QStringLiteral(";");

QStringList ImportJob::inputs(const JobForm &form)
{
    QStringList out;
    for (const QString &p : form.text(QStringLiteral("input")).split(kSeparator))
        if (!p.trimmed().isEmpty()) // absolute: the command runs in the jobs folder
            out << QDir::cleanPath(QFileInfo(p.trimmed()).absoluteFilePath());
    return out;
}

rwb::store::ImportOptions ImportJob::options(const JobForm &form)
{
    rwb::store::ImportOptions o;
    o.format = rwb::store::parseDumpFormat(form.text(QStringLiteral("format")).toStdString()).value_or(rwb::store::DumpFormat::Auto);
    o.runName = form.text(QStringLiteral("run_name")).toStdString();
    o.task = form.text(QStringLiteral("task")).toStdString();
    o.groupSize = form.integer(QStringLiteral("group_size"));
    o.includeEval = form.checked(QStringLiteral("include_eval"));
    o.tokenizerDir = form.text(QStringLiteral("tokenizer")).toStdString();
    return o;
}

JobForm *ImportJob::form(const JobContext &c, const JobOpeners &, QWidget *parent)
{
    auto *form = new JobForm(tr("Import rollouts"),
                             tr("Another trainer's rollouts (verl, TRL, OpenRLHF, prime-rl, NeMo-RL) into a run of the "
                                "store, as rwb import does (docs/handoff.md): the curves, groups, the rollout browser, "
                                "the token view and the failure explorer then work on it. Choose the dump: the trainer "
                                "is detected and what maps to what shows below before anything is imported."),
                             parent);
    form->addGroup(tr("Dump"));
    form->addField({"input", K::Text, tr("Files or folders"),
                    tr("The dump: files (.jsonl, .json, .csv, .parquet) or folders searched for them, one step per "
                       "file; several separated by \";\""),
                    QString()});
    // Browse: files or a folder, added to the field.
    auto *browse = new QWidget(form);
    auto *row = new QHBoxLayout(browse);
    row->setContentsMargins(0, 0, 0, 0);
    auto *addFiles = new QPushButton(tr("Add files…"), browse);
    addFiles->setObjectName(QStringLiteral("importAddFiles"));
    auto *addFolder = new QPushButton(tr("Add a folder…"), browse);
    addFolder->setObjectName(QStringLiteral("importAddFolder"));
    row->addWidget(addFiles);
    row->addWidget(addFolder);
    row->addStretch(1);
    form->addWidget(browse);
    const auto append = [form](const QStringList &paths) {
        QStringList all = inputs(*form);
        for (const QString &p : paths)
            if (!all.contains(p))
                all << p;
        form->setValue(QStringLiteral("input"), all.join(kSeparator));
    };
    const QString start = c.workspace ? c.workspace->dataDir() : QString();
    QObject::connect(addFiles, &QPushButton::clicked, form, [form, append, start] {
        append(QFileDialog::getOpenFileNames(form, tr("Import rollouts: the dump's files"), start,
                                             tr("Rollout dumps (*.jsonl *.json *.csv *.parquet);;All files (*)")));
    });
    QObject::connect(addFolder, &QPushButton::clicked, form, [form, append, start] {
        const QString dir = QFileDialog::getExistingDirectory(form, tr("Import rollouts: the dump's folder"), start);
        if (!dir.isEmpty())
            append({dir});
    });
    QStringList formats;
    for (auto f : {rwb::store::DumpFormat::Auto, rwb::store::DumpFormat::Verl, rwb::store::DumpFormat::Trl,
                   rwb::store::DumpFormat::OpenRlhf, rwb::store::DumpFormat::PrimeRl, rwb::store::DumpFormat::NemoRl})
        formats << QString::fromLatin1(rwb::store::dumpFormatName(f));
    form->addField({"format", K::Choice, tr("Trainer"),
                    tr("auto: from the first row's fields; or the trainer that wrote the dump"), formats.first(), 0, 0, 0,
                    formats});
    JobField groupSize{"group_size", K::Int, tr("Group size (0: by prompt)"),
                       tr("Each step's rollouts form groups of this many, in the order of the dump; 0: the rollouts of "
                          "a step with the same prompt (or the same uid / group field) form a group"),
                       0, 0, 100000};
    form->addField(groupSize);
    form->addField({"include_eval", K::Check, tr("Also eval rows"),
                    tr("TRL: also the rows of its evaluation steps; prime-rl: also its eval episodes"), false});

    form->addGroup(tr("What maps to what"));
    auto *preview = new ImportPreviewPanel(form);
    form->addWidget(preview);

    form->addGroup(tr("Run"));
    form->addField({"store", K::SaveFile, tr("Run store"), tr("The store the run goes to (created when missing)"),
                    c.storePath.isEmpty() ? QDir(c.jobsDir()).filePath(QStringLiteral("runs.sqlite")) : c.storePath, 0,
                    0, 0, {}, tr("Run stores (*.sqlite)")});
    JobField name{"run_name", K::Text, tr("Run name"), tr("Empty: the first input's file or folder name"), QString()};
    name.optional = true;
    form->addField(name);
    QStringList tasks{QString()};
    for (const std::string &t : rwb::task::Catalog::builtin().names())
        tasks << QString::fromStdString(t);
    form->addField({"task", K::Choice, tr("Task"),
                    tr("The task the rollouts are for, recorded with the run (empty: none)"), QString(), 0, 0, 0, tasks});
    JobField tokenizer{"tokenizer", K::Folder, tr("Tokenizer"),
                       tr("The policy's tokenizer folder (tokenizer.json or tokenizer.model): the token view shows the "
                          "tokens' text; it also decodes completions a dump holds only as token ids"),
                       QString()};
    tokenizer.optional = true;
    form->addField(tokenizer);

    // Each path must be there; then the preview reads the dump's first rows as the import
    // will, and its error (file, line, field) is the form's.
    form->setValidator([preview](const JobForm &f) {
        QStringList problems;
        const QString store = f.text(QStringLiteral("store"));
        if (!store.isEmpty() && !QFileInfo(QFileInfo(store).absolutePath()).isDir())
            problems << QStringLiteral("store: ") + tr("no such folder: %1").arg(QFileInfo(store).absolutePath());
        const QStringList paths = inputs(f);
        for (const QString &p : paths)
            if (!QFileInfo::exists(p))
                problems << QStringLiteral("input: ") + tr("no such file or folder: %1").arg(p);
        if (paths.isEmpty() || !problems.isEmpty()) {
            preview->clear(paths.isEmpty() ? QString() : tr("Every file or folder must be there to preview the dump."));
            return problems;
        }
        const QString tokenizer = f.text(QStringLiteral("tokenizer"));
        if (!tokenizer.isEmpty() && !QFileInfo(tokenizer).isDir()) {
            preview->clear(tr("The tokenizer folder must be there to preview the dump."));
            return problems;
        }
        const QString error = preview->refresh(paths, options(f));
        if (!error.isEmpty())
            problems << (error.contains(QLatin1String("--tokenizer")) ? QStringLiteral("tokenizer: ")
                                                                      : QStringLiteral("input: "))
                            + error;
        return problems;
    });
    form->setCommand([](const JobForm &f, const QString &) {
        QStringList args{QStringLiteral("import")};
        for (const QString &p : inputs(f))
            args << QStringLiteral("--input") << p;
        args << QStringLiteral("--store") << f.text(QStringLiteral("store"));
        if (f.text(QStringLiteral("format")) != QLatin1String("auto"))
            args << QStringLiteral("--format") << f.text(QStringLiteral("format"));
        for (const char *key : {"run_name", "task", "tokenizer"})
            if (!f.text(QLatin1String(key)).isEmpty())
                args << QStringLiteral("--") + QString::fromLatin1(key).replace(QLatin1Char('_'), QLatin1Char('-'))
                     << f.text(QLatin1String(key));
        if (f.integer(QStringLiteral("group_size")) > 0)
            args << QStringLiteral("--group-size") << QString::number(f.integer(QStringLiteral("group_size")));
        if (f.checked(QStringLiteral("include_eval")))
            args << QStringLiteral("--include-eval");
        return args;
    });
    form->resize(900, 760);
    return form;
}

QString ImportJob::title(const JobForm &form)
{
    const QStringList paths = inputs(form);
    return tr("Import of %1").arg(paths.isEmpty() ? QString() : QFileInfo(paths.first()).fileName());
}

void ImportJob::finished(bool, const QJsonObject &result, const JobForm &form, const JobOpeners &openers)
{
    // The run, when the import wrote it (also when a cancel came after its end); a
    // cancelled import deletes what it began.
    const qint64 runId = result.value(QStringLiteral("run_id")).toInteger();
    if (runId <= 0 || !openers.run)
        return;
    QString error;
    if (!openers.run(form.text(QStringLiteral("store")), runId, &error) && openers.notice)
        openers.notice(tr("Import rollouts"), error);
}

} // namespace

std::vector<JobKind> importJobKinds()
{
    JobKind k;
    k.id = QStringLiteral("import");
    k.menuText = [] { return ImportJob::tr("&Import rollouts…"); };
    k.form = ImportJob::form;
    k.title = ImportJob::title;
    k.finished = ImportJob::finished;
    return {k};
}
