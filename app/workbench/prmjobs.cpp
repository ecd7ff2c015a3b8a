// Jobs ▸ Preference pairs and judge labels, PRM training, PRM-filtered fine-tuning: `rwb prm
// pairs` (then `rwb prm judge` when a judge is chosen), `rwb prm train` and `rwb prm rft`
// from forms (docs/prm.md). The pairs open in the annotation view; the PRM's held-out
// accuracy per label source is plotted as it trains and tabled before / after.

#include "jobkinds.h"

#include "jobrunner.h"

#include "data/jsonl.h"
#include "judge/judgeconfig.h"
#include "store/runstore.h"
#include "tasks/multihop/multihopreferencejudge.h"
#include "train/processrewardmodel.h"
#include "train/prmtraining.h"
#include "train/rft.h"
#include "util/boundedjson.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

using rwb::widgets::JobField;
using rwb::widgets::JobForm;
using K = JobField::Kind;

namespace {

// The label sources, in the engine's default order (prm/preference.h).
const QStringList kSources{QStringLiteral("human"), QStringLiteral("judge"), QStringLiteral("tree"),
                           QStringLiteral("import")};
// Curves a PRM training plots: the loss and the held-out accuracy of each label source.
const QStringList kPrmCurves{QStringLiteral("loss"), QStringLiteral("held_out/")};
// Points of held-out accuracy the training form's default eval_every aims at.
constexpr int kEvalPoints = 10;

// The judge choice of the pairs form, by index (its texts are translated).
enum JudgeChoice { kNoJudge = 0, kReferenceJudge = 1, kLlmJudge = 2 };

// The MCTS run a "#ID · name" choice names (0 when none).
qint64 choiceRunId(const QString &text)
{
    static const QRegularExpression id(QStringLiteral("^#(\\d+)"));
    const QRegularExpressionMatch m = id.match(text);
    return m.hasMatch() ? m.captured(1).toLongLong() : 0;
}

// The first of `folders` whose name contains one of `words` ("" when none).
QString firstNamed(const QStringList &folders, const QStringList &words)
{
    for (const QString &w : words)
        for (const QString &f : folders)
            if (QFileInfo(f).fileName().contains(w, Qt::CaseInsensitive))
                return f;
    return {};
}

bool isPrm(const QString &folder)
{
    return rwb::train::isPrmFolder(folder.toStdString());
}

// The config a form builds, in the engine's shape: each visible field under its key, a
// key "a.b" as {"a": {"b": …}}, `lists` (comma- or space-separated texts) as arrays,
// empty texts left out. Paths come absolute from the form (JobForm::value): the config is
// written elsewhere, where a relative path would resolve against its folder.
QJsonObject engineConfig(const JobForm &form, const QStringList &keys, const QStringList &lists = {})
{
    QJsonObject config;
    for (const QString &key : keys) {
        if (!form.field(key) || !form.isFieldVisible(key))
            continue;
        const QVariant v = form.value(key);
        QJsonValue value;
        if (v.typeId() == QMetaType::QString) {
            const QString text = v.toString();
            if (text.isEmpty())
                continue;
            if (lists.contains(key)) {
                QJsonArray items;
                for (const QString &item : text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
                    items.append(item);
                value = items;
            } else {
                value = text; // a path field's value is absolute already (JobForm::value)
            }
        } else {
            value = QJsonValue::fromVariant(v);
        }
        const qsizetype dot = key.indexOf(QLatin1Char('.'));
        if (dot < 0) {
            config.insert(key, value);
        } else {
            QJsonObject inner = config.value(key.left(dot)).toObject();
            inner.insert(key.mid(dot + 1), value);
            config.insert(key.left(dot), inner);
        }
    }
    return config;
}

// What JobForm's validation hands the parser again after a problem (the key at its start
// value, at the top level), put back in the engine's shape.
QJsonObject engineShape(QJsonObject json, const QStringList &lists)
{
    for (const QString &key : json.keys()) {
        const QJsonValue v = json.value(key);
        if (lists.contains(key) && v.isString()) {
            QJsonArray items;
            for (const QString &item : v.toString().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
                items.append(item);
            json.insert(key, items);
        }
        const qsizetype dot = key.indexOf(QLatin1Char('.'));
        if (dot > 0) {
            QJsonObject inner = json.value(key.left(dot)).toObject();
            inner.insert(key.mid(dot + 1), v);
            json.remove(key);
            json.insert(key.left(dot), inner);
        }
    }
    return json;
}

std::string compact(const QJsonObject &json)
{
    return QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString();
}

// The run store's MCTS runs and pair sets, read-only ({} when it cannot be read).
struct StoreListing {
    QStringList mctsRuns; // "#ID · name", oldest first
    QStringList sets;
    QVariantMap pairs; // per set: how many pairs
    QMap<QString, qint64> labels;
    QString error;
};

StoreListing listStore(const QString &path)
{
    StoreListing l;
    if (path.isEmpty() || !QFileInfo(path).isFile())
        return l;
    try {
        const rwb::store::RunStore s(path.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        for (const rwb::store::RunInfo &r : s.runs())
            if (r.kind == rwb::store::toString(rwb::store::RunKind::Mcts))
                l.mctsRuns << QStringLiteral("#%1 · %2").arg(r.id).arg(QString::fromStdString(r.name));
        for (const auto &set : s.pairSets()) {
            const QString name = QString::fromStdString(set.name);
            l.sets << name;
            l.pairs.insert(name, static_cast<qlonglong>(set.pairs));
            l.labels.insert(name, set.labels);
        }
    } catch (const std::exception &e) {
        l.error = QString::fromUtf8(e.what());
    }
    return l;
}

// A check that reads a file, remembered by the file's path and time (a form validates as
// the user types).
QString cachedCheck(const QString &path, const std::function<QString()> &check)
{
    static QMap<QString, QPair<QDateTime, QString>> cache;
    const QDateTime modified = QFileInfo(path).lastModified();
    const auto it = cache.constFind(path);
    if (it != cache.constEnd() && it->first == modified)
        return it->second;
    const QString problem = check();
    cache.insert(path, {modified, problem});
    return problem;
}

// The engine's message without the file it names ("FILE: reason" → "reason"): the form
// names the field.
QString reasonOf(const rwb::data::InputException &e)
{
    const QString reason = QString::fromStdString(e.error().reason);
    return reason.isEmpty() ? QString::fromUtf8(e.what()) : reason;
}

// The translation context of these jobs: tr() in its members is what lupdate reads.
class PrmJobs {
    Q_DECLARE_TR_FUNCTIONS(PrmJobs)
public:
    static std::vector<JobKind> kinds();

private:
    static JobForm *pairsForm(const JobContext &c, const JobOpeners &, QWidget *parent);
    static QStringList judgeArguments(const JobForm &f);
    static JobForm *trainForm(const JobContext &c, const JobOpeners &, QWidget *parent);
    static QWidget *heldOutView(const QJsonObject &result);
    static JobForm *rftForm(const JobContext &c, const JobOpeners &, QWidget *parent);
};

// ---- preference pairs and judge labels ----

QStringList PrmJobs::judgeArguments(const JobForm &f)
{
    const auto *judge = qobject_cast<const QComboBox *>(f.field(QStringLiteral("judge")));
    const int choice = judge ? judge->currentIndex() : kNoJudge;
    if (choice != kReferenceJudge && choice != kLlmJudge)
        return {};
    QStringList args{QStringLiteral("prm"), QStringLiteral("judge"), QStringLiteral("--store"),
                     f.text(QStringLiteral("store")), QStringLiteral("--set"),
                     f.text(QStringLiteral("set"))};
    if (choice == kReferenceJudge)
        args << QStringLiteral("--reference-judge") << f.text(QStringLiteral("reference_judge"));
    else
        args << QStringLiteral("--judge") << f.text(QStringLiteral("judge_config"));
    if (f.checked(QStringLiteral("both_orders")))
        args << QStringLiteral("--both-orders");
    if (f.integer(QStringLiteral("limit")) > 0)
        args << QStringLiteral("--limit") << QString::number(f.integer(QStringLiteral("limit")));
    return args;
}

JobForm *PrmJobs::pairsForm(const JobContext &c, const JobOpeners &, QWidget *parent)
{
    auto *form = new JobForm(tr("Preference pairs and judge labels"),
                             tr("Makes preference pairs of sibling steps from an MCTS run's trees, each with the tree's "
                                "label (the step with the larger Q), as rwb prm pairs does; then, when a judge is chosen, "
                                "labels them with it as rwb prm judge does (docs/prm.md). The annotation view opens on the "
                                "set at the end."),
                             parent);
    const StoreListing listing = listStore(c.storePath);
    // The MCTS run shown, else the store's last.
    QString run = listing.mctsRuns.value(listing.mctsRuns.size() - 1);
    if (c.runKind == QLatin1String("mcts"))
        for (const QString &r : listing.mctsRuns)
            if (choiceRunId(r) == c.runId)
                run = r;
    const QString autoSet = choiceRunId(run) > 0 ? QStringLiteral("mcts run %1").arg(choiceRunId(run)) : QString();

    form->addGroup(tr("Pairs"));
    form->addField({"store", K::File, tr("Run store"), tr("The run store holding the MCTS run; the pairs and labels go into it"),
                    c.storePath, 0, 0, 0, {}, tr("Run stores (*.sqlite)")});
    form->addField({"run", K::Choice, tr("MCTS run"), tr("The search whose trees give the pairs (Jobs ▸ MCTS search makes one)"),
                    run, 0, 0, 0, listing.mctsRuns});
    form->addField({"set", K::Text, tr("Pair set"),
                    tr("The set's name (default \"mcts run N\"); running again adds only the pairs it lacks"),
                    autoSet});
    form->setProperty("autoSet", autoSet);
    form->addField({"margin", K::Double, tr("Margin"), tr("The least difference of Q between the two steps of a pair"),
                    0.2, 0, 1, 2});
    form->addField({"min_visits", K::Int, tr("Minimum visits"),
                    tr("Both steps visited at least this often (an unvisited step's Q is no estimate)"), 1, 0, 1000000});
    form->addField({"max_per_parent", K::Int, tr("Pairs per state"),
                    tr("At most this many pairs under one state, the largest differences first"), 2, 1, 1000});
    form->addField({"seed", K::Int, tr("Seed"), tr("Orders steps A and B (the better step is not always A)"), 1, 0, 1 << 30});

    form->addGroup(tr("Judge labels"));
    const QStringList judges{tr("none"), tr("the reference judge (gold chains)"), tr("an LLM judge (a config file)")};
    form->addField({"judge", K::Choice, tr("Judge"),
                    tr("After the pairs: labels from a judge. The reference judge knows a synthetic question set's gold "
                       "chains and stands in where no LLM judge can be reached"),
                    judges.value(kNoJudge), 0, 0, 0, judges});
    const QStringList data = c.workspace ? c.workspace->datasets() : QStringList();
    form->addField({"reference_judge", K::File, tr("Questions with gold chains"),
                    tr("The question set the trees searched (rwb data synth --task multihop): the reference judge reads "
                       "its gold chains"),
                    firstNamed(data, {QStringLiteral("test"), QStringLiteral("question"), QStringLiteral("multihop")}), 0, 0,
                    0, {}, tr("Question sets (*.jsonl)")});
    form->addField({"judge_config", K::File, tr("Judge config"),
                    tr("A judge object, or a reward config with \"judge\" (docs/judges.md): its model labels the pairs"),
                    QString(), 0, 0, 0, {}, tr("Judge configs (*.json)")});
    form->addField({"both_orders", K::Check, tr("Both orders"),
                    tr("Ask twice, the steps swapped the second time; a verdict that follows the position becomes a tie"),
                    false});
    form->addField({"limit", K::Int, tr("Pairs to judge (0: all)"), tr("Judge only the first N pairs not judged yet"), 0, 0,
                    1000000});
    auto *then = new QLabel(form);
    then->setObjectName(QStringLiteral("prmJudgeCommand"));
    then->setWordWrap(true);
    then->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addWidget(then);

    // The judge's fields show with the judge chosen.
    const auto showJudge = [form, then] {
        const int choice = qobject_cast<QComboBox *>(form->field(QStringLiteral("judge")))->currentIndex();
        form->setFieldVisible(QStringLiteral("reference_judge"), choice == kReferenceJudge);
        form->setFieldVisible(QStringLiteral("judge_config"), choice == kLlmJudge);
        form->setFieldVisible(QStringLiteral("both_orders"), choice != kNoJudge);
        form->setFieldVisible(QStringLiteral("limit"), choice != kNoJudge);
        then->setVisible(choice != kNoJudge);
    };
    QObject::connect(qobject_cast<QComboBox *>(form->field(QStringLiteral("judge"))), &QComboBox::currentIndexChanged, form,
                     showJudge);
    showJudge();
    // The judge's command, under the form's own: it runs when the pairs are made.
    QObject::connect(form, &JobForm::validated, then, [form, then] {
        const QStringList args = judgeArguments(*form);
        then->setText(args.isEmpty() ? QString()
                                     : tr("Then: %1").arg(rwb::widgets::JobRunner::shellQuoted(QStringLiteral("rwb"), args)));
    });
    // Another store: its MCTS runs.
    auto *runBox = qobject_cast<QComboBox *>(form->field(QStringLiteral("run")));
    QObject::connect(qobject_cast<QLineEdit *>(form->field(QStringLiteral("store"))), &QLineEdit::textChanged, form,
                     [form, runBox] {
                         const StoreListing l = listStore(form->text(QStringLiteral("store")));
                         QStringList now;
                         for (int i = 0; i < runBox->count(); ++i)
                             now << runBox->itemText(i);
                         if (now == l.mctsRuns)
                             return;
                         runBox->clear();
                         runBox->addItems(l.mctsRuns);
                         runBox->setCurrentIndex(static_cast<int>(l.mctsRuns.size()) - 1);
                     });
    // Another run: the set's default name follows it (a name typed stays).
    QObject::connect(runBox, &QComboBox::currentTextChanged, form, [form](const QString &text) {
        const QString set = form->text(QStringLiteral("set"));
        const QString fresh = choiceRunId(text) > 0 ? QStringLiteral("mcts run %1").arg(choiceRunId(text)) : QString();
        if (set.isEmpty() || set == form->property("autoSet").toString())
            form->setValue(QStringLiteral("set"), fresh);
        form->setProperty("autoSet", fresh);
    });

    form->setValidator([](const JobForm &f) {
        QStringList problems;
        const QString store = f.text(QStringLiteral("store"));
        if (QFileInfo(store).isFile()) {
            const StoreListing l = listStore(store);
            if (!l.error.isEmpty())
                problems << QStringLiteral("store: ") + l.error;
            else if (l.mctsRuns.isEmpty())
                problems << QStringLiteral("run: ") + tr("the store has no MCTS run (Jobs ▸ MCTS search makes one)");
            else if (choiceRunId(f.text(QStringLiteral("run"))) <= 0)
                problems << QStringLiteral("run: ") + tr("choose an MCTS run");
        }
        const auto *judge = qobject_cast<const QComboBox *>(f.field(QStringLiteral("judge")));
        const QString questions = f.text(QStringLiteral("reference_judge"));
        if (judge && judge->currentIndex() == kReferenceJudge && QFileInfo(questions).isFile()) {
            const QString problem = cachedCheck(questions, [questions] {
                try {
                    rwb::prm::ReferencePairJudge check(questions.toStdString());
                } catch (const rwb::data::InputException &e) {
                    return reasonOf(e);
                } catch (const std::exception &e) {
                    return QString::fromUtf8(e.what());
                }
                return QString();
            });
            if (!problem.isEmpty())
                problems << QStringLiteral("reference_judge: ") + problem;
        }
        const QString judgeConfig = f.text(QStringLiteral("judge_config"));
        if (judge && judge->currentIndex() == kLlmJudge && QFileInfo(judgeConfig).isFile()) {
            // As rwb prm judge reads it (loadJudge): the file's "judge", or the file.
            const QString problem = cachedCheck(judgeConfig, [judgeConfig] {
                const std::string path = judgeConfig.toStdString();
                try {
                    const std::string text = rwb::data::readTextFile(path);
                    const nlohmann::json j = rwb::util::parseJsonOrDiscarded(text);
                    if (!j.is_object())
                        return tr("not a JSON object (a reward config with \"judge\", or a judge object)");
                    if (j.contains("components") && !j.contains("judge"))
                        return tr("a reward config without a \"judge\" object (docs/judges.md)");
                    rwb::judge::parseJudgeOptions(j.contains("judge") ? j["judge"].dump() : text, path,
                                                  std::filesystem::path(path).parent_path().string());
                } catch (const rwb::data::InputException &e) {
                    return reasonOf(e);
                } catch (const std::exception &e) {
                    return QString::fromUtf8(e.what());
                }
                return QString();
            });
            if (!problem.isEmpty())
                problems << QStringLiteral("judge_config: ") + problem;
        }
        return problems;
    });
    form->setCommand([](const JobForm &f, const QString &) {
        return QStringList{QStringLiteral("prm"),
                           QStringLiteral("pairs"),
                           QStringLiteral("--store"),
                           f.text(QStringLiteral("store")),
                           QStringLiteral("--run"),
                           QString::number(choiceRunId(f.text(QStringLiteral("run")))),
                           QStringLiteral("--set"),
                           f.text(QStringLiteral("set")),
                           QStringLiteral("--margin"),
                           QString::number(f.number(QStringLiteral("margin"))),
                           QStringLiteral("--min-visits"),
                           QString::number(f.integer(QStringLiteral("min_visits"))),
                           QStringLiteral("--max-per-parent"),
                           QString::number(f.integer(QStringLiteral("max_per_parent"))),
                           QStringLiteral("--seed"),
                           QString::number(f.integer(QStringLiteral("seed")))};
    });
    return form;
}

// ---- PRM training ----

JobForm *PrmJobs::trainForm(const JobContext &c, const JobOpeners &, QWidget *parent)
{
    auto *form = new JobForm(tr("PRM training"),
                             tr("Trains the process reward model on a pair set's labels with eq. 4, as rwb prm train does "
                                "(docs/prm.md): the SFT policy's decoder with a scalar head. The Jobs dock plots the loss "
                                "and the held-out pairwise accuracy of each label source as it trains."),
                             parent);
    const StoreListing listing = listStore(c.storePath);
    // The set with the most labels.
    QString set;
    for (const QString &s : listing.sets)
        if (set.isEmpty() || listing.labels.value(s) > listing.labels.value(set))
            set = s;
    QStringList policies;
    for (const QString &m : c.models())
        if (!isPrm(m))
            policies << m;
    const QString model = firstNamed(policies, {QStringLiteral("sft"), QStringLiteral("multihop")});
    const rwb::train::PrmTrainConfig defaults;

    form->addGroup(tr("Model and pairs"));
    form->addField({"model", K::Folder, tr("Policy model"),
                    tr("The SFT policy's folder whose decoder the PRM starts from (or a PRM folder to go on training)"),
                    model.isEmpty() ? policies.value(0) : model});
    form->addField({"output", K::SaveFolder, tr("PRM folder"), tr("Where the PRM is written (a model folder with the head)"),
                    c.freshPath(QStringLiteral("prm"))});
    form->addField({"store", K::File, tr("Run store"), tr("The run store holding the pair set"), c.storePath, 0, 0, 0, {},
                    tr("Run stores (*.sqlite)")});
    form->addField({"set", K::Choice, tr("Pair set"), tr("The labelled pairs to train on (Jobs ▸ Preference pairs makes them)"),
                    set, 0, 0, 0, listing.sets});
    form->setProperty("setPairs", listing.pairs);

    form->addGroup(tr("Labels"));
    form->addField({"sources", K::Text, tr("Label sources"),
                    tr("Each pair's label comes from the first of these that labelled it (people by majority): human, "
                       "judge, tree, import"),
                    kSources.join(QStringLiteral(", "))});
    for (const QString &source : kSources) {
        rwb::prm::Source s{};
        const bool known = rwb::prm::parseSource(source.toStdString(), s);
        const auto weight = known ? defaults.sourceWeights.find(s) : defaults.sourceWeights.end();
        form->addField({QStringLiteral("source_weights.") + source, K::Double, tr("Weight of %1 labels").arg(source),
                        tr("How much a pair labelled by this source counts in the loss (0 leaves them out)"),
                        weight == defaults.sourceWeights.end() ? 1.0 : weight->second, 0, 1000, 2});
    }
    form->addField({"ties", K::Choice, tr("Ties"),
                    tr("drop: a tie says nothing about which step is better; equal: pulls the two scores together"),
                    QString::fromStdString(defaults.ties), 0, 0, 0, {QStringLiteral("drop"), QStringLiteral("equal")}});
    form->addField({"holdout", K::Double, tr("Held-out questions"),
                    tr("The share of questions whose pairs are held out to measure pairwise accuracy"), defaults.holdout,
                    0, 0.9, 2});

    form->addGroup(tr("Training"));
    form->addField({"lora", K::Check, tr("LoRA"), tr("LoRA adapters on the decoder (merged when saved); the head trains in full"),
                    defaults.lora});
    form->addField({"learning_rate", K::Double, tr("Learning rate"), tr("AdamW's learning rate"), defaults.learningRate, 0, 10,
                    7});
    form->addField({"epochs", K::Int, tr("Epochs"), tr("Passes over the training pairs"), defaults.epochs, 1, 1000});
    form->addField({"batch_size", K::Int, tr("Batch size"), tr("Pairs per optimizer step (two sequences each)"),
                    defaults.batchSize, 1, 4096});
    form->addField({"max_length", K::Int, tr("Maximum length"),
                    tr("Tokens of a step's whole input; longer pairs are skipped and counted"), defaults.maxLength, 8,
                    1 << 20});
    form->addField({"seed", K::Int, tr("Seed"), tr("The head's start, the order of the pairs, the held-out split"), 1, 0,
                    1 << 30});
    form->addField({"eval_every", K::Int, tr("Evaluate every (steps)"),
                    tr("Held-out accuracy every N optimizer steps and at the last (0: at each epoch's end); the default "
                       "gives about ten points"),
                    1, 0, 1000000000});
    form->addField({"threads", K::Int, tr("Threads (0: auto)"), tr("libtorch's CPU threads"), 0, 0, 1024});

    // eval_every: about ten points over the steps the set, the split, the epochs and the
    // batch make, until the user sets it.
    const auto updateEvalEvery = [form] {
        const QVariantMap pairs = form->property("setPairs").toMap();
        const double train = pairs.value(form->text(QStringLiteral("set"))).toDouble() *
                             (1.0 - form->number(QStringLiteral("holdout")));
        const int batch = std::max(1, form->integer(QStringLiteral("batch_size")));
        const int steps = form->integer(QStringLiteral("epochs")) * static_cast<int>(std::ceil(train / batch));
        const int every = std::max(1, static_cast<int>(std::lround(static_cast<double>(steps) / kEvalPoints)));
        const int shown = form->integer(QStringLiteral("eval_every"));
        if (!form->property("autoEvalEvery").isValid() || shown == form->property("autoEvalEvery").toInt())
            form->setValue(QStringLiteral("eval_every"), every);
        form->setProperty("autoEvalEvery", every);
    };
    for (const char *key : {"epochs", "batch_size"})
        QObject::connect(qobject_cast<QSpinBox *>(form->field(QLatin1String(key))), &QSpinBox::valueChanged, form,
                         updateEvalEvery);
    QObject::connect(qobject_cast<QDoubleSpinBox *>(form->field(QStringLiteral("holdout"))), &QDoubleSpinBox::valueChanged,
                     form, updateEvalEvery);
    auto *setBox = qobject_cast<QComboBox *>(form->field(QStringLiteral("set")));
    QObject::connect(setBox, &QComboBox::currentTextChanged, form, updateEvalEvery);
    updateEvalEvery();
    // Another store: its pair sets.
    QObject::connect(qobject_cast<QLineEdit *>(form->field(QStringLiteral("store"))), &QLineEdit::textChanged, form,
                     [form, setBox] {
                         const StoreListing l = listStore(form->text(QStringLiteral("store")));
                         QStringList now;
                         for (int i = 0; i < setBox->count(); ++i)
                             now << setBox->itemText(i);
                         if (now == l.sets)
                             return;
                         form->setProperty("setPairs", l.pairs);
                         const QString current = setBox->currentText();
                         setBox->clear();
                         setBox->addItems(l.sets);
                         setBox->setCurrentText(l.sets.contains(current) ? current : l.sets.value(0));
                     });

    static const QStringList keys = [] {
        QStringList k{QStringLiteral("model"), QStringLiteral("output"), QStringLiteral("store"), QStringLiteral("set"),
                      QStringLiteral("sources")};
        for (const QString &s : kSources)
            k << QStringLiteral("source_weights.") + s;
        k << QStringLiteral("ties") << QStringLiteral("holdout") << QStringLiteral("lora") << QStringLiteral("learning_rate")
          << QStringLiteral("epochs") << QStringLiteral("batch_size") << QStringLiteral("max_length") << QStringLiteral("seed")
          << QStringLiteral("eval_every") << QStringLiteral("threads");
        return k;
    }();
    static const QStringList lists{QStringLiteral("sources")};
    form->setConfigBuilder([](const JobForm &f) { return engineConfig(f, keys, lists); });
    const QString configPath = c.freshPath(QStringLiteral("prm"), QStringLiteral(".json"));
    form->setConfigParser([configPath](const QJsonObject &json) {
        rwb::train::parsePrmTrainConfig(compact(engineShape(json, lists)), configPath.toStdString());
    });
    form->setValidator([](const JobForm &f) {
        QStringList problems;
        const QString model = f.text(QStringLiteral("model"));
        if (QFileInfo(model).isDir()) {
            const QString problem = rwb::widgets::checkModelFolder(model);
            if (!problem.isEmpty())
                problems << QStringLiteral("model: ") + problem;
        }
        const QString store = f.text(QStringLiteral("store"));
        if (QFileInfo(store).isFile()) {
            const StoreListing l = listStore(store);
            if (!l.error.isEmpty())
                problems << QStringLiteral("store: ") + l.error;
            else if (l.sets.isEmpty())
                problems << QStringLiteral("set: ") + tr("the store has no pair set (Jobs ▸ Preference pairs makes them)");
            else if (!l.sets.contains(f.text(QStringLiteral("set"))))
                problems << QStringLiteral("set: ") + tr("no pair set \"%1\" in the store").arg(f.text(QStringLiteral("set")));
        }
        return problems;
    });
    form->setCommand(
        [](const JobForm &, const QString &config) {
            return QStringList{QStringLiteral("prm"), QStringLiteral("train"), QStringLiteral("--config"), config};
        },
        configPath);
    return form;
}

QWidget *PrmJobs::heldOutView(const QJsonObject &result)
{
    const QJsonObject held = result.value(QStringLiteral("held_out")).toObject();
    if (held.isEmpty())
        return nullptr;
    auto *view = new QWidget;
    auto *layout = new QVBoxLayout(view);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *caption = new QLabel(tr("Held-out pairwise accuracy per label source (each source's own labels: the PRM scores the "
                                  "step the label prefers higher), before and after training"),
                               view);
    caption->setWordWrap(true);
    layout->addWidget(caption);
    auto *table = new QTableWidget(static_cast<int>(held.size()), 5, view);
    table->setObjectName(QStringLiteral("prmHeldOutTable"));
    table->setHorizontalHeaderLabels({tr("Label source"), tr("Held-out pairs"), tr("Before"), tr("After"), tr("Change")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    const auto cell = [](const QJsonValue &v) {
        return v.isDouble() ? QString::number(v.toDouble(), 'f', 3) : tr("not measured");
    };
    int row = 0;
    for (auto it = held.begin(); it != held.end(); ++it, ++row) {
        const QJsonObject s = it.value().toObject();
        const QJsonValue before = s.value(QStringLiteral("before")), after = s.value(QStringLiteral("after"));
        const QString change = before.isDouble() && after.isDouble()
                                   ? QString::asprintf("%+.3f", after.toDouble() - before.toDouble())
                                   : tr("not measured");
        const QStringList cells{it.key(), QString::number(s.value(QStringLiteral("pairs")).toInteger()), cell(before),
                                cell(after), change};
        for (int col = 0; col < cells.size(); ++col) {
            auto *item = new QTableWidgetItem(cells[col]);
            if (col > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(row, col, item);
        }
    }
    table->resizeColumnsToContents();
    layout->addWidget(table, 1);
    return view;
}

// ---- PRM-filtered fine-tuning ----

JobForm *PrmJobs::rftForm(const JobContext &c, const JobOpeners &, QWidget *parent)
{
    auto *form = new JobForm(tr("PRM-filtered fine-tuning (RFT)"),
                             tr("The SFT policy samples trajectories of the training questions, the right ones are scored "
                                "step by step by the PRM, and the policy is fine-tuned on what passes, as rwb prm rft does "
                                "(ProRAG §3.3, docs/prm.md). With held-out questions, EM and F1 before and after are in "
                                "the result."),
                             parent);
    // Defaults: the workspace's policy and data by name; the newest PRM of the jobs folder
    // or the models.
    QStringList policies, prms;
    for (const QFileInfo &f : QDir(c.jobsDir()).entryInfoList({QStringLiteral("prm-*")}, QDir::Dirs, QDir::Time))
        if (isPrm(f.absoluteFilePath()))
            prms << f.absoluteFilePath();
    for (const QString &m : c.models())
        (isPrm(m) ? prms : policies) << m;
    const QString policy = firstNamed(policies, {QStringLiteral("sft"), QStringLiteral("multihop")});
    const QStringList data = c.workspace ? c.workspace->datasets() : QStringList();
    const QString dataDir = c.workspace ? c.workspace->dataDir() : QString();
    QStringList indexes;
    if (!dataDir.isEmpty())
        for (const QFileInfo &f : QDir(dataDir).entryInfoList({QStringLiteral("*.sqlite")}, QDir::Files, QDir::Name))
            indexes << f.absoluteFilePath();
    const rwb::train::RftConfig defaults;
    const rwb::train::SftConfig sft;

    form->addGroup(tr("Models and questions"));
    form->addField({"policy", K::Folder, tr("Policy model"), tr("The SFT policy's folder: it samples, and is fine-tuned"),
                    policy.isEmpty() ? policies.value(0) : policy});
    form->addField({"prm", K::Folder, tr("PRM folder"), tr("The process reward model (Jobs ▸ PRM training writes one)"),
                    prms.value(0)});
    form->addField({"questions", K::File, tr("Training questions"),
                    tr("The task's JSONL with gold answers whose trajectories are sampled"),
                    firstNamed(data, {QStringLiteral("train"), QStringLiteral("question"), QStringLiteral("multihop")}), 0, 0,
                    0, {}, tr("Question sets (*.jsonl)")});
    form->addField({"index", K::File, tr("Retrieval index"), tr("BM25 index of the questions' knowledge base (rwb retrieve index)"),
                    indexes.value(0), 0, 0, 0, {}, tr("Retrieval indexes (*.sqlite)")});
    form->addField({"output", K::SaveFolder, tr("Fine-tuned policy"),
                    tr("Where the fine-tuned policy is written; the kept trajectories go beside it (.rft.jsonl)"),
                    c.freshPath(QStringLiteral("rft"))});
    form->addField({"limit", K::Int, tr("Questions (0: all)"), tr("Sample only the first N questions"), 0, 0, 1000000000});

    form->addGroup(tr("Sampling and filtering"));
    form->addField({"samples", K::Int, tr("Samples per question"), tr("Trajectories sampled per training question"),
                    defaults.samples, 1, 1024});
    form->addField({"temperature", K::Double, tr("Temperature"), tr("Sampling temperature"), defaults.temperature, 0.01, 10, 2});
    form->addField({"max_completion_length", K::Int, tr("Completion tokens"),
                    tr("The policy's tokens per trajectory (retrieved passages not counted)"),
                    defaults.maxCompletionLength, 1, 1 << 20});
    form->addField({"retrieval_top_k", K::Int, tr("Passages retrieved"), tr("Passages a sub-query's retrieval returns"),
                    defaults.retrievalTopK, 1, 100});
    form->addField({"answer", K::Choice, tr("Right answer"),
                    tr("em: the answer matches the gold; f1: its token F1 is at least the minimum below"),
                    QString::fromStdString(defaults.answer), 0, 0, 0, {QStringLiteral("em"), QStringLiteral("f1")}});
    form->addField({"min_f1", K::Double, tr("Minimum F1"), tr("With answer f1: the least F1 of a right answer"), defaults.minF1,
                    0, 1, 2});
    form->addField({"threshold", K::Double, tr("PRM threshold"),
                    tr("On the PRM's raw score: a step scoring above it trains (ProRAG keeps R > 0)"), defaults.threshold,
                    -1e9, 1e9, 3});
    form->addField({"filter", K::Choice, tr("Filter"),
                    tr("step: steps at or under the threshold stay as context only; trajectory: every step must clear"),
                    QString::fromStdString(defaults.filter), 0, 0, 0, {QStringLiteral("step"), QStringLiteral("trajectory")}});
    form->addField({"seed", K::Int, tr("Seed"), tr("The sampling's seed"), 1, 0, 1 << 30});

    form->addGroup(tr("Fine-tuning"));
    form->addField({"sft.learning_rate", K::Double, tr("Learning rate"), tr("SFT's learning rate on the kept trajectories"),
                    sft.learningRate, 0, 10, 7});
    form->addField({"sft.epochs", K::Int, tr("Epochs"), tr("Passes over the kept trajectories"), sft.epochs, 1, 1000});
    form->addField({"sft.batch_size", K::Int, tr("Batch size"), tr("Sequences per micro-batch"), sft.batchSize, 1, 4096});
    form->addField({"sft.max_length", K::Int, tr("Maximum length"),
                    tr("Prompt and trajectory tokens; longer trajectories are skipped and counted"), sft.maxLength, 8,
                    1 << 20});
    form->addField({"threads", K::Int, tr("Threads (0: auto)"), tr("libtorch's CPU threads"), 0, 0, 1024});

    form->addGroup(tr("Evaluation before and after"));
    JobField evalQuestions{"eval_questions", K::File, tr("Held-out questions"),
                           tr("Questions for greedy EM and F1 before and after (empty: none)"),
                           firstNamed(data, {QStringLiteral("test"), QStringLiteral("val")}), 0, 0, 0, {},
                           tr("Question sets (*.jsonl)")};
    evalQuestions.optional = true;
    form->addField(evalQuestions);
    JobField evalIndex{"eval_index", K::File, tr("Their retrieval index"),
                       tr("The held-out questions' index (empty: the training questions' index)"), QString(), 0, 0, 0, {},
                       tr("Retrieval indexes (*.sqlite)")};
    evalIndex.optional = true;
    form->addField(evalIndex);

    const auto showMinF1 = [form](const QString &answer) {
        form->setFieldVisible(QStringLiteral("min_f1"), answer == QLatin1String("f1"));
    };
    QObject::connect(qobject_cast<QComboBox *>(form->field(QStringLiteral("answer"))), &QComboBox::currentTextChanged, form,
                     showMinF1);
    showMinF1(form->text(QStringLiteral("answer")));

    static const QStringList keys{QStringLiteral("policy"),
                                  QStringLiteral("prm"),
                                  QStringLiteral("questions"),
                                  QStringLiteral("index"),
                                  QStringLiteral("output"),
                                  QStringLiteral("limit"),
                                  QStringLiteral("samples"),
                                  QStringLiteral("temperature"),
                                  QStringLiteral("max_completion_length"),
                                  QStringLiteral("retrieval_top_k"),
                                  QStringLiteral("answer"),
                                  QStringLiteral("min_f1"),
                                  QStringLiteral("threshold"),
                                  QStringLiteral("filter"),
                                  QStringLiteral("seed"),
                                  QStringLiteral("sft.learning_rate"),
                                  QStringLiteral("sft.epochs"),
                                  QStringLiteral("sft.batch_size"),
                                  QStringLiteral("sft.max_length"),
                                  QStringLiteral("threads"),
                                  QStringLiteral("eval_questions"),
                                  QStringLiteral("eval_index")};
    form->setConfigBuilder([](const JobForm &f) { return engineConfig(f, keys); });
    const QString configPath = c.freshPath(QStringLiteral("rft"), QStringLiteral(".json"));
    form->setConfigParser([configPath](const QJsonObject &json) {
        const std::string source = configPath.toStdString();
        try {
            rwb::train::parseRftConfig(compact(engineShape(json, {})), source);
        } catch (const rwb::data::InputException &e) {
            // SFT's own keys are checked as "PATH (sft)": the form's fields are "sft.KEY".
            if (e.error().file != source + " (sft)")
                throw;
            rwb::data::InputError error = e.error();
            error.file = source;
            error.reason = "sft." + error.reason;
            throw rwb::data::InputException(error);
        }
    });
    form->setValidator([](const JobForm &f) {
        QStringList problems;
        const QString policy = f.text(QStringLiteral("policy"));
        if (QFileInfo(policy).isDir()) {
            const QString problem = rwb::widgets::checkModelFolder(policy);
            if (!problem.isEmpty())
                problems << QStringLiteral("policy: ") + problem;
        }
        const QString prm = f.text(QStringLiteral("prm"));
        if (QFileInfo(prm).isDir() && !isPrm(prm))
            problems << QStringLiteral("prm: ") +
                            tr("not a PRM folder (no prm_head.safetensors): Jobs ▸ PRM training writes one");
        return problems;
    });
    form->setCommand(
        [](const JobForm &, const QString &config) {
            return QStringList{QStringLiteral("prm"), QStringLiteral("rft"), QStringLiteral("--config"), config};
        },
        configPath);
    return form;
}

std::vector<JobKind> PrmJobs::kinds()
{
    JobKind pairs;
    pairs.id = QStringLiteral("prm-pairs");
    pairs.menuText = [] { return tr("&Preference pairs and judge labels…"); };
    pairs.form = pairsForm;
    pairs.title = [](const JobForm &f) { return tr("Preference pairs of %1").arg(f.text(QStringLiteral("set"))); };
    // With a judge: its labels once the pairs are there.
    pairs.next = [](int ran, const QJsonObject &result, const JobForm &f) -> std::optional<JobFollowUp> {
        const_cast<JobForm &>(f).setProperty("pairsMade", true);
        const QStringList args = judgeArguments(f);
        if (ran != 1 || args.isEmpty() || result.value(QStringLiteral("pairs")).toInteger() == 0)
            return std::nullopt;
        return JobFollowUp{tr("Judge labels of %1").arg(f.text(QStringLiteral("set"))), args};
    };
    // The annotation view on the set: also when the judge failed or was cancelled, the
    // pairs are there.
    pairs.finished = [](bool ok, const QJsonObject &result, const JobForm &f, const JobOpeners &o) {
        if (ok && result.contains(QStringLiteral("trees")) && result.value(QStringLiteral("pairs")).toInteger() == 0) {
            if (o.notice)
                o.notice(tr("Preference pairs"),
                         tr("No pair: no two sibling steps of the run's %n tree(s), both visited often enough, differ in Q "
                            "by the margin or more.",
                            nullptr, result.value(QStringLiteral("trees")).toInt()));
            return;
        }
        if (!(ok || f.property("pairsMade").toBool()) || !o.annotator)
            return;
        QString error;
        if (!o.annotator(f.text(QStringLiteral("store")), f.text(QStringLiteral("set")), &error) && o.notice)
            o.notice(tr("Preference pairs"), error);
    };

    JobKind train;
    train.id = QStringLiteral("prm-train");
    train.menuText = [] { return tr("PRM &training…"); };
    train.form = trainForm;
    train.title = [](const JobForm &f) { return tr("PRM training on %1").arg(f.text(QStringLiteral("set"))); };
    train.curvesTitle = [] { return tr("loss, held-out pairwise accuracy"); };
    train.curvePrefixes = kPrmCurves;
    // Held-out accuracy per source, before and after (also what a cancelled training saved).
    train.finished = [](bool, const QJsonObject &result, const JobForm &, const JobOpeners &o) {
        if (QWidget *view = heldOutView(result); view && o.resultView)
            o.resultView(view);
    };

    JobKind rft;
    rft.id = QStringLiteral("prm-rft");
    rft.menuText = [] { return tr("PRM-filtered &fine-tuning (RFT)…"); };
    rft.form = rftForm;
    // rwb prm rft's phases, in the user's language.
    rft.describe = [](const QJsonObject &p) {
        const QString phase = p.value(QStringLiteral("phase")).toString();
        if (phase == QLatin1String("before"))
            return tr("evaluating the policy before");
        if (phase == QLatin1String("sampling"))
            return tr("sampling and scoring trajectories");
        if (phase == QLatin1String("training"))
            return tr("fine-tuning on what passed");
        if (phase == QLatin1String("after"))
            return tr("evaluating the policy after");
        return phase;
    };
    rft.title = [](const JobForm &f) {
        return tr("PRM-filtered fine-tuning of %1").arg(QFileInfo(f.text(QStringLiteral("policy"))).fileName());
    };
    return {pairs, train, rft};
}

} // namespace

std::vector<JobKind> prmJobKinds()
{
    return PrmJobs::kinds();
}
