// Jobs ▸ MCTS search: `rwb mcts run` from a form; the trees window follows the run live.

#include "jobkinds.h"

#include "engine/mctsrun.h"
#include "store/runstore.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

using rwb::widgets::JobField;
using rwb::widgets::JobForm;
using K = JobField::Kind;

namespace {

// The context of this file's strings.
class MctsJob {
    Q_DECLARE_TR_FUNCTIONS(MctsJob)
};

// The first of `files` whose name contains one of `words` ("" when none).
QString firstNamed(const QStringList &files, const QStringList &words)
{
    for (const QString &w : words)
        for (const QString &f : files)
            if (QFileInfo(f).fileName().contains(w, Qt::CaseInsensitive))
                return f;
    return {};
}

JobForm *mctsForm(const JobContext &c, const JobOpeners &, QWidget *parent)
{
    auto *form = new JobForm(MctsJob::tr("MCTS search"),
                             MctsJob::tr("Searches every question of a question set with the policy and its retrieval "
                                "environment, as rwb mcts run does (docs/mcts.md). Every tree goes to the run store "
                                "as it grows; the search-trees window follows it live."),
                             parent);
    // Defaults: the MCTS run shown (search again with other settings), else the workspace's
    // models and data by name.
    QJsonObject shown;
    if (c.runKind == QLatin1String("mcts")) {
        shown = QJsonDocument::fromJson(c.runConfigJson.toUtf8()).object();
    } else if (!c.storePath.isEmpty() && QFileInfo(c.storePath).isFile()) {
        // The store's last search: the same policy, questions and index are the likely next.
        try {
            const rwb::store::RunStore store(c.storePath.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
            if (const int64_t last = store.lastRun(rwb::store::RunKind::Mcts))
                shown = QJsonDocument::fromJson(QByteArray::fromStdString(store.run(last).configJson)).object();
        } catch (const std::exception &) {
        }
    }
    const QStringList data = c.workspace ? c.workspace->datasets() : QStringList();
    const QString dataDir = c.workspace ? c.workspace->dataDir() : QString();
    QStringList indexes;
    if (!dataDir.isEmpty())
        for (const QFileInfo &f : QDir(dataDir).entryInfoList({QStringLiteral("*.sqlite")}, QDir::Files, QDir::Name))
            indexes << f.absoluteFilePath();
    const auto pick = [&](const char *key, const QString &fallback) {
        const QString v = shown.value(QLatin1String(key)).toString();
        return v.isEmpty() ? fallback : v;
    };
    const rwb::mcts::SearchParams small = rwb::mcts::presetParams("small");
    // Question sets, not knowledge bases (kb_*.jsonl) or corpora.
    QStringList questionSets;
    for (const QString &f : data) {
        const QString name = QFileInfo(f).fileName();
        if (!name.startsWith(QLatin1String("kb_")) && !name.contains(QLatin1String("corpus")))
            questionSets << f;
    }
    // The index of the questions' knowledge base: kb_X.sqlite for X.jsonl or q_X.jsonl.
    const auto indexFor = [&](const QString &questions) {
        QString stem = QFileInfo(questions).completeBaseName();
        if (stem.startsWith(QLatin1String("q_")))
            stem = stem.mid(2);
        for (const QString &i : std::as_const(indexes))
            if (QFileInfo(i).completeBaseName() == QLatin1String("kb_") + stem)
                return i;
        return indexes.value(0);
    };

    form->addGroup(MctsJob::tr("Policy and questions"));
    form->addField({"model", K::Folder, MctsJob::tr("Policy model"),
                    MctsJob::tr("The SFT policy's folder (config.json, weights, tokenizer) that proposes each step"),
                    pick("model", firstNamed(c.models(), {QStringLiteral("sft"), QStringLiteral("multihop")}))});
    form->addField({"questions", K::File, MctsJob::tr("Questions"),
                    MctsJob::tr("The task's JSONL with gold answers (rwb data synth --task multihop)"),
                    pick("questions", firstNamed(questionSets, {QStringLiteral("test"), QStringLiteral("question"),
                                                                QStringLiteral("multihop")})),
                    0, 0, 0, {}, MctsJob::tr("Question sets (*.jsonl)")});
    JobField index{"index", K::File, MctsJob::tr("Retrieval index"),
                   MctsJob::tr("BM25 index of the questions' knowledge base (rwb retrieve index); the multi-hop task needs it"),
                   pick("index", QString()), 0, 0, 0, {}, MctsJob::tr("Retrieval indexes (*.sqlite)")};
    index.optional = true;
    if (index.value.toString().isEmpty())
        index.value = indexFor(form->text(QStringLiteral("questions")));
    form->addField(index);
    form->addField({"store", K::SaveFile, MctsJob::tr("Run store"), MctsJob::tr("Where the trees go (a run of kind \"mcts\")"),
                    c.storePath.isEmpty() ? QDir(c.jobsDir()).filePath(QStringLiteral("runs.sqlite")) : c.storePath,
                    0, 0, 0, {}, MctsJob::tr("Run stores (*.sqlite)")});
    JobField name{"run_name", K::Text, MctsJob::tr("Run name"), MctsJob::tr("Empty: \"mcts <questions file>\""), QString()};
    name.optional = true;
    form->addField(name);
    form->addField({"limit", K::Int, MctsJob::tr("Questions (0: all)"), MctsJob::tr("Search only the first N questions"),
                    shown.value(QStringLiteral("limit")).toInt(5), 0, 1000000});

    form->addGroup(MctsJob::tr("Search"));
    form->addField({"preset", K::Choice, MctsJob::tr("Preset"),
                    MctsJob::tr("small: 24 simulations, K 3, depth 6 (a tiny model on 2 cores); paper: ProRAG §4.3's 200 "
                       "simulations, K 5, depth 10. Choosing one sets the three fields below"),
                    pick("preset", QStringLiteral("small")), 0, 0, 0, {QStringLiteral("small"), QStringLiteral("paper")}});
    // A search parameter: the shown run's, else the small preset's.
    const auto num = [&](const char *key, double preset) { return shown.value(QLatin1String(key)).toDouble(preset); };
    form->addField({"simulations", K::Int, MctsJob::tr("Simulations"), MctsJob::tr("Iterations of select, expand, simulate, back up per question"),
                    static_cast<int>(num("simulations", small.simulations)), 1, 100000});
    form->addField({"expansions", K::Int, MctsJob::tr("Children per expansion (K)"), MctsJob::tr("Steps sampled when a node is expanded"),
                    static_cast<int>(num("expansions", small.expansions)), 1, 64});
    form->addField({"max_depth", K::Int, MctsJob::tr("Maximum depth"), MctsJob::tr("Steps before a trajectory is cut"),
                    static_cast<int>(num("max_depth", small.maxDepth)), 1, 64});
    form->addField({"c_puct", K::Double, MctsJob::tr("Exploration (c_puct)"), MctsJob::tr("PUCT's exploration weight (ProRAG: 2.5)"),
                    num("c_puct", small.cPuct), 0, 1000, 2});
    form->addField({"temperature", K::Double, MctsJob::tr("Temperature"), MctsJob::tr("Sampling temperature of the expansions"),
                    num("temperature", small.temperature), 0.01, 10, 2});
    form->addField({"max_step_tokens", K::Int, MctsJob::tr("Tokens per step"), MctsJob::tr("The longest step the policy may write"),
                    static_cast<int>(num("max_step_tokens", small.maxStepTokens)), 4, 4096});
    form->addField({"top_k", K::Int, MctsJob::tr("Passages retrieved"), MctsJob::tr("Passages a retrieval step returns"),
                    static_cast<int>(num("top_k", small.topK)), 1, 20});
    form->addField({"seed", K::Int, MctsJob::tr("Seed"), MctsJob::tr("The search's random seed"), static_cast<int>(num("seed", 1)), 0, 1 << 30});
    form->addField({"greedy", K::Check, MctsJob::tr("Greedy baseline"), MctsJob::tr("Also decode each question greedily, to compare"),
                    shown.value(QStringLiteral("greedy")).toBool(true)});
    form->addField({"threads", K::Int, MctsJob::tr("Threads (0: auto)"), MctsJob::tr("libtorch's CPU threads"), 0, 0, 1024});

    // A preset sets the three numbers it stands for.
    if (auto *preset = qobject_cast<QComboBox *>(form->field(QStringLiteral("preset"))))
        QObject::connect(preset, &QComboBox::currentTextChanged, form, [form](const QString &name) {
            const rwb::mcts::SearchParams p = rwb::mcts::presetParams(name.toStdString());
            form->setValue(QStringLiteral("simulations"), p.simulations);
            form->setValue(QStringLiteral("expansions"), p.expansions);
            form->setValue(QStringLiteral("max_depth"), p.maxDepth);
        });

    const QString configPath = c.freshPath(QStringLiteral("mcts"), QStringLiteral(".json"));
    form->setConfigParser([configPath](const QJsonObject &json) {
        rwb::mcts::parseMctsRunConfig(QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString(),
                                      configPath.toStdString());
    });
    form->setCommand(
        [](const JobForm &, const QString &config) {
            return QStringList{QStringLiteral("mcts"), QStringLiteral("run"), QStringLiteral("--config"), config};
        },
        configPath);
    return form;
}

} // namespace

std::vector<JobKind> mctsJobKinds()
{
    JobKind k;
    k.id = QStringLiteral("mcts");
    k.menuText = [] { return MctsJob::tr("&MCTS search…"); };
    k.form = mctsForm;
    k.title = [](const JobForm &f) {
        return MctsJob::tr("MCTS search of %1").arg(QFileInfo(f.text(QStringLiteral("questions"))).fileName());
    };
    // The first line that names the run: the trees window follows it from the first tree.
    k.progress = [](const QJsonObject &p, const JobForm &f, const JobOpeners &o) {
        const qint64 runId = p.value(QStringLiteral("run_id")).toInteger();
        if (runId <= 0 || f.property("followedRun").toLongLong() == runId || !o.searchTreesRun)
            return;
        const_cast<JobForm &>(f).setProperty("followedRun", runId);
        QString error;
        if (!o.searchTreesRun(f.text(QStringLiteral("store")), runId, &error) && o.notice)
            o.notice(MctsJob::tr("MCTS search"), error);
    };
    k.finished = [](bool, const QJsonObject &result, const JobForm &f, const JobOpeners &o) {
        const qint64 runId = result.value(QStringLiteral("run_id")).toInteger(f.property("followedRun").toLongLong());
        if (runId <= 0 || !o.searchTreesRun)
            return;
        QString error;
        if (!o.searchTreesRun(f.text(QStringLiteral("store")), runId, &error) && o.notice)
            o.notice(MctsJob::tr("MCTS search"), error);
    };
    return {k};
}
