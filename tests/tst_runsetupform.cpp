// widgets/RunSetupForm: the GRPO config form. Its defaults are the paper's table 4
// values (G 8, B 8, temperature 1.0, top-p 1.0, LoRA on with r 8, α 32, dropout 0.05,
// learning rate 3e-5, ε 0.2, β 0, loss grpo, scale_rewards group); a bad value is reported
// with the core parser's message and marks its widget (and only it); two bad values are
// both found; files that are not there are named; config() round trips through
// toJson / parseGrpoConfig; save and load; the demo preset; validityChanged.
#include "task/catalog.h"
#include "runsetupform.h"
#include "tinygrpo.h"
#include "workspace.h"

#include "judge/judgeclient.h"
#include "judge/judgeconfig.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "train/grpo.h"
#include "testtime.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using rwb::widgets::RunSetupForm;

namespace {

QString textOf(RunSetupForm &form, const char *key)
{
    QWidget *w = form.fieldWidget(QString::fromLatin1(key));
    if (auto *line = qobject_cast<QLineEdit *>(w))
        return line->text();
    if (auto *combo = qobject_cast<QComboBox *>(w))
        return combo->currentText();
    return QStringLiteral("<no text field %1>").arg(QLatin1String(key));
}

void setText(RunSetupForm &form, const char *key, const QString &text)
{
    QWidget *w = form.fieldWidget(QString::fromLatin1(key));
    if (auto *line = qobject_cast<QLineEdit *>(w))
        line->setText(text);
    else if (auto *combo = qobject_cast<QComboBox *>(w))
        combo->setEditText(text);
    else
        QFAIL(key);
}

bool invalidMark(RunSetupForm &form, const char *key)
{
    return form.fieldWidget(QString::fromLatin1(key))->property("invalid").toBool();
}

} // namespace

class TestRunSetupForm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void paperDefaults();
    void badValueNamesItsField();
    void missingFilesAreNamed();
    void configRoundTrip();
    void saveAndLoad();
    void demoPreset();
    void validityChanged();
    void judgeSettings();
    void screenshot();

private:
    // The form with the fixture's model, data and reward config: valid.
    void fill(RunSetupForm &form);
    QTemporaryDir m_dir;
    std::optional<rwb::widgets::Workspace> m_ws;
};

void TestRunSetupForm::initTestCase()
{
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_dir.path(), 20, 4, 2));
    QString error;
    m_ws = rwb::widgets::Workspace::create(m_dir.path() + "/ws", &error);
    QVERIFY2(m_ws, qPrintable(error));
}

void TestRunSetupForm::fill(RunSetupForm &form)
{
    form.setWorkspace(*m_ws);
    setText(form, "model", m_dir.path() + "/tiny");
    setText(form, "train_data", m_dir.path() + "/train.jsonl");
    form.setRewardConfigPath(m_dir.path() + "/reward.json");
}

void TestRunSetupForm::paperDefaults()
{
    RunSetupForm form;
    QCOMPARE(textOf(form, "num_generations"), QStringLiteral("8"));
    QCOMPARE(textOf(form, "prompts_per_step"), QStringLiteral("8"));
    QCOMPARE(textOf(form, "temperature"), QStringLiteral("1"));
    QCOMPARE(textOf(form, "top_p"), QStringLiteral("1"));
    QCOMPARE(textOf(form, "lora_r"), QStringLiteral("8"));
    QCOMPARE(textOf(form, "lora_alpha"), QStringLiteral("32"));
    QCOMPARE(textOf(form, "lora_dropout"), QStringLiteral("0.05"));
    QCOMPARE(textOf(form, "learning_rate"), QStringLiteral("3e-05"));
    QCOMPARE(textOf(form, "epsilon"), QStringLiteral("0.2"));
    QCOMPARE(textOf(form, "beta"), QStringLiteral("0"));
    QCOMPARE(textOf(form, "loss_type"), QStringLiteral("grpo"));
    QCOMPARE(textOf(form, "scale_rewards"), QStringLiteral("group"));
    QVERIFY(qobject_cast<QCheckBox *>(form.fieldWidget("lora"))->isChecked());

    // Without model, data, reward config and output the form is not valid, and says so.
    QStringList problems;
    QVERIFY(!form.validate(&problems));
    QVERIFY2(problems.first().startsWith("model: missing"), qPrintable(problems.join('\n')));

    fill(form);
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    const rwb::train::GrpoConfig c = form.config();
    QCOMPARE(c.groupSize, 8);
    QCOMPARE(c.promptsPerStep, 8);
    QCOMPARE(c.loraOptions.rank, 8);
    QCOMPARE(c.loraOptions.alpha, 32.0);
    QCOMPARE(c.learningRate, 3e-5);
    QCOMPARE(c.beta, 0.0);
    QCOMPARE(c.store, (m_ws->dir() + "/runs.sqlite").toStdString());
    QCOMPARE(c.output, (m_ws->dir() + "/runs/grpo").toStdString());
    QCOMPARE(c.model, (m_dir.path() + "/tiny").toStdString());

    // "Paper defaults" puts changed values back and keeps the paths.
    setText(form, "num_generations", "4");
    setText(form, "learning_rate", "0.01");
    form.applyPaperDefaults();
    QCOMPARE(textOf(form, "num_generations"), QStringLiteral("8"));
    QCOMPARE(textOf(form, "learning_rate"), QStringLiteral("3e-05"));
    QCOMPARE(textOf(form, "model"), m_dir.path() + "/tiny");
}

void TestRunSetupForm::badValueNamesItsField()
{
    RunSetupForm form;
    fill(form);
    setText(form, "top_p", "1.5");
    QStringList problems;
    QVERIFY(!form.validate(&problems));
    QCOMPARE(problems, QStringList({"top_p: must be between 0.0001 and 1"}));
    QCOMPARE(form.invalidFields(), QStringList({"top_p"}));
    QVERIFY(invalidMark(form, "top_p"));
    QVERIFY(!invalidMark(form, "temperature"));
    QCOMPARE(form.fieldWidget("top_p")->toolTip(), QStringLiteral("top_p: must be between 0.0001 and 1"));

    // Two problems: both found, in the parser's order (top_p before lora_r), each marked.
    setText(form, "lora_r", "0");
    QVERIFY(!form.validate(&problems));
    QCOMPARE(problems.size(), 2);
    QVERIFY2(problems[0].startsWith("top_p: ") && problems[1].startsWith("lora_r: "), qPrintable(problems.join('\n')));
    QCOMPARE(form.invalidFields(), QStringList({"top_p", "lora_r"}));

    // Not a number at all.
    setText(form, "top_p", "abc");
    setText(form, "lora_r", "8");
    QVERIFY(!form.validate(&problems));
    QCOMPARE(problems, QStringList({"top_p: must be a number, found string"}));

    // Fixed: valid again, marks gone.
    setText(form, "top_p", "0.9");
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    QVERIFY(!invalidMark(form, "top_p"));
    QCOMPARE(form.config().topP, 0.9);

    // A rule across fields: eval_every needs eval_data.
    setText(form, "eval_every", "10");
    QVERIFY(!form.validate(&problems));
    QCOMPARE(problems, QStringList({"eval_every: needs eval_data"}));
    QVERIFY(invalidMark(form, "eval_every"));
    setText(form, "eval_data", m_dir.path() + "/val.jsonl");
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
}

void TestRunSetupForm::missingFilesAreNamed()
{
    RunSetupForm form;
    fill(form);
    setText(form, "model", m_dir.path() + "/nomodel");
    setText(form, "train_data", m_dir.path() + "/none.jsonl");
    QStringList problems;
    QVERIFY(!form.validate(&problems));
    QCOMPARE(problems.size(), 2);
    QVERIFY2(problems[0].startsWith("model: ") && problems[0].contains(m_dir.path() + "/nomodel"),
             qPrintable(problems[0]));
    QVERIFY2(problems[1].startsWith("train_data: ") && problems[1].contains(m_dir.path() + "/none.jsonl"),
             qPrintable(problems[1]));
    QCOMPARE(form.invalidFields(), QStringList({"model", "train_data"}));
}

void TestRunSetupForm::configRoundTrip()
{
    rwb::train::GrpoConfig c;
    c.model = (m_dir.path() + "/tiny").toStdString();
    c.trainData = (m_dir.path() + "/train.jsonl").toStdString();
    c.evalData = (m_dir.path() + "/val.jsonl").toStdString();
    c.rewardConfig = (m_dir.path() + "/reward.json").toStdString();
    c.store = (m_dir.path() + "/s.sqlite").toStdString();
    c.output = (m_dir.path() + "/out").toStdString();
    c.runName = "round trip";
    c.groupSize = 4;
    c.promptsPerStep = 3;
    c.temperature = 0.7;
    c.topP = 0.95;
    c.topK = 20;
    c.maxNewTokens = 40;
    c.lora = false;
    c.loraOptions.rank = 16;
    c.loraOptions.alpha = 8;
    c.loraOptions.targetModules = {"q_proj", "v_proj"}; // not in the form: kept
    c.learningRate = 5e-4;
    c.schedule = "cosine";
    c.warmupRatio = 0.1;
    c.maxSteps = 7;
    c.lossType = "dapo";
    c.scaleRewards = "none";
    c.epsLow = 0.1;
    c.epsHigh = 0.28;
    c.beta = 0.04;
    c.iterations = 2;
    c.maskTruncated = true;
    c.overlongPenalty = true;
    c.overlongCache = 10;
    c.dynamicSampling = true;
    c.evalEvery = 5;
    c.evalLimit = 17;
    c.checkpointEvery = 3;
    c.seed = 123456789;
    c.precision = "fp32";
    c.device = "cpu";
    c.threads = 2;
    RunSetupForm form;
    form.setConfig(c);
    QStringList problems;
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    QCOMPARE(QString::fromStdString(rwb::train::toJson(form.config())),
             QString::fromStdString(rwb::train::toJson(c)));
}

void TestRunSetupForm::saveAndLoad()
{
    RunSetupForm form;
    fill(form);
    setText(form, "num_generations", "6");
    setText(form, "run_name", "saved");
    const QString path = m_dir.path() + "/grpo.json";
    QString error;
    QVERIFY2(form.saveFile(path, &error), qPrintable(error));

    RunSetupForm other;
    QVERIFY2(other.loadFile(path, &error), qPrintable(error));
    QVERIFY(other.validate());
    QCOMPARE(other.config().groupSize, 6);
    QCOMPARE(QString::fromStdString(rwb::train::toJson(other.config())),
             QString::fromStdString(rwb::train::toJson(form.config())));

    // A file with a bad value loads and shows it marked.
    QFile f(m_dir.path() + "/bad.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"model": "tiny", "train_data": "train.jsonl", "reward_config": "reward.json",
                "store": "s.sqlite", "output": "o", "loss_type": "ppo"})");
    f.close();
    QVERIFY2(other.loadFile(f.fileName(), &error), qPrintable(error));
    QStringList problems;
    QVERIFY(!other.validate(&problems));
    QCOMPARE(problems.size(), 1);
    QVERIFY2(problems[0].startsWith("loss_type: must be one of"), qPrintable(problems[0]));
    QCOMPARE(textOf(other, "loss_type"), QStringLiteral("ppo"));
    // Relative paths came back relative to the file's folder.
    QCOMPARE(textOf(other, "model"), m_dir.path() + "/tiny");

    QVERIFY(!other.loadFile(m_dir.path() + "/nothing.json", &error));
    QVERIFY2(error.contains(m_dir.path() + "/nothing.json"), qPrintable(error));
    QVERIFY(!other.loadFile(m_dir.path() + "/train.jsonl", &error)); // JSONL, not one object
    QVERIFY2(error.contains("train.jsonl"), qPrintable(error));
}

void TestRunSetupForm::demoPreset()
{
    RunSetupForm form;
    fill(form);
    setText(form, "eval_data", m_dir.path() + "/val.jsonl");
    form.applyDemoPreset();
    QStringList problems;
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    const rwb::train::GrpoConfig c = form.config();
    // scripts/demo.sh --quick's grpo.json: a short run, not the full demo's 600 steps.
    QCOMPARE(c.groupSize, 8);
    QCOMPARE(c.promptsPerStep, 16);
    QCOMPARE(c.maxNewTokens, 24);
    QCOMPARE(c.temperature, 0.8);
    QCOMPARE(c.learningRate, 2e-3);
    QCOMPARE(c.schedule, std::string("cosine"));
    QCOMPARE(c.warmupRatio, 0.03);
    QCOMPARE(c.loraOptions.rank, 16);
    QCOMPARE(c.maxSteps, 60);
    QCOMPARE(c.evalEvery, 20);
    QCOMPARE(c.evalLimit, 64);
    QCOMPARE(c.checkpointEvery, 20);
    QCOMPARE(c.seed, uint64_t(1));
    QCOMPARE(c.loraOptions.alpha, 32.0); // the rest stays at the paper's values
}

void TestRunSetupForm::validityChanged()
{
    RunSetupForm form;
    QSignalSpy spy(&form, &RunSetupForm::validityChanged);
    fill(form);
    QVERIFY(spy.count() >= 1);
    QCOMPARE(spy.last().at(0).toBool(), true);
    const int before = spy.count();
    setText(form, "top_p", "1.5"); // validated after a short delay
    QVERIFY(spy.wait(rwbtest::scaledMs(2000)));
    QCOMPARE(spy.count(), before + 1);
    QCOMPARE(spy.last().at(0).toBool(), false);
}

void TestRunSetupForm::judgeSettings()
{
    // The fixture's reward config has no judge reward: no Judge group, the file as it is.
    RunSetupForm form;
    fill(form);
    QStringList problems;
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    QVERIFY(!form.needsJudge());
    auto *group = form.findChild<QGroupBox *>("judgeGroup");
    QVERIFY(group && !group->isVisibleTo(&form));
    QCOMPARE(QString::fromStdString(form.config().rewardConfig), m_dir.path() + "/reward.json");
    QVERIFY(!form.config().reward);

    // coverage needs a judge: the group shows, and without one the form is not valid.
    const QString judged = m_dir.path() + "/judged.json";
    {
        QFile f(judged);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"task": "legal_qa", "components": [{"reward": "xml_format", "weight": 1}, {"reward": "coverage", "weight": 1}]})");
    }
    form.setRewardConfigPath(judged);
    QVERIFY(!form.validate(&problems));
    QVERIFY(form.needsJudge());
    QVERIFY(group->isVisibleTo(&form));
    QVERIFY2(problems.join('\n').contains("judge: the reward config has a judge reward"), qPrintable(problems.join('\n')));
    QCOMPARE(form.judgeSummary(), QString("No judge is set up."));

    // The Designer's config, as a value: a judge the engine refuses is named by its field.
    rwb::reward::RewardConfig designer =
        rwb::reward::loadRewardConfig(judged.toStdString(), rwb::task::Catalog::builtin().rewards());
    designer.name = "judged";
    designer.judge = R"({"url": "http://127.0.0.1:8000/v1", "temperature": 9})";
    form.setRewardConfig(designer);
    QVERIFY(!form.validate(&problems));
    QVERIFY2(problems.join('\n').contains("judge.temperature: must be within"), qPrintable(problems.join('\n')));
    // A judge it accepts: valid. The run gets the config itself (no file), every path
    // absolute (the cache relative to the config's folder), and the form says which judge.
    designer.judge = R"({"url": "http://127.0.0.1:8000/v1", "model": "judge-0.5b", "concurrency": 8, "cache": "judge_cache.sqlite"})";
    form.setRewardConfig(designer);
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    QCOMPARE(form.judgeSummary(), QString("judge-0.5b at http://127.0.0.1:8000/v1, 8 calls at a time."));
    auto *field = qobject_cast<QLineEdit *>(form.fieldWidget("reward_config"));
    QVERIFY(field->isReadOnly());
    QCOMPARE(field->text(), QString("judged, as in the Reward Designer"));
    QVERIFY(form.json().value("reward_config").isObject());
    const rwb::train::GrpoConfig run = form.config();
    QVERIFY(run.reward.has_value());
    QVERIFY(run.rewardConfig.empty());
    QCOMPARE(run.reward->components.size(), size_t(2));
    QCOMPARE(run.reward->components[1].reward, std::string("coverage"));
    const rwb::judge::JudgeOptions o = rwb::judge::parseJudgeOptions(run.reward->judge, "judge", run.reward->baseDir);
    QCOMPARE(o.server.url, std::string("http://127.0.0.1:8000/v1"));
    QCOMPARE(o.model, std::string("judge-0.5b"));
    QCOMPARE(o.concurrency, 8);
    QCOMPARE(QString::fromStdString(o.cachePath), m_dir.path() + "/judge_cache.sqlite");
    // The trainer reads the same value: it round trips through the config's JSON (what a run stores).
    const rwb::train::GrpoConfig stored = rwb::train::parseGrpoConfig(rwb::train::toJson(run), "/elsewhere/grpo.json");
    QVERIFY(stored.reward.has_value());
    QCOMPARE(rwb::reward::toJson(*stored.reward), rwb::reward::toJson(*run.reward));
    // Saved and loaded again, the config holds it inline.
    const QString saved = m_dir.path() + "/inline-grpo.json";
    QString error;
    QVERIFY2(form.saveFile(saved, &error), qPrintable(error));
    RunSetupForm again;
    QVERIFY2(again.loadFile(saved, &error), qPrintable(error));
    QVERIFY2(again.validate(&problems), qPrintable(problems.join('\n')));
    QCOMPARE(qobject_cast<QLineEdit *>(again.fieldWidget("reward_config"))->text(), QString("judged, written in the config (no file)"));
    QCOMPARE(again.judgeSummary(), form.judgeSummary());
    // A bad weight inside the inline config marks the reward_config field.
    QJsonObject j = again.json();
    QJsonObject inlineReward = j.value("reward_config").toObject();
    QJsonArray components = inlineReward.value("components").toArray();
    QJsonObject first = components[0].toObject();
    first.insert("weight", -1);
    components[0] = first;
    inlineReward.insert("components", components);
    j.insert("reward_config", inlineReward);
    QFile bad(saved);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QJsonDocument(j).toJson());
    bad.close();
    QVERIFY(again.loadFile(saved, &error));
    QVERIFY(!again.validate(&problems));
    QVERIFY2(problems.join('\n').contains("reward_config: components[0].weight"), qPrintable(problems.join('\n')));
    QVERIFY(again.invalidFields().contains("reward_config"));

    // A config file with its own judge: the run reads that file as is.
    const QString own = m_dir.path() + "/own.json";
    {
        QFile f(own);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"task": "legal_qa", "components": [{"reward": "coverage", "weight": 1}],
                    "judge": {"url": "http://127.0.0.1:9000/v1", "model": "m", "max_tokens": 256}})");
    }
    form.setRewardConfigPath(own);
    QVERIFY2(form.validate(&problems), qPrintable(problems.join('\n')));
    QVERIFY(!field->isReadOnly());
    QCOMPARE(form.judgeSummary(), QString("m at http://127.0.0.1:9000/v1, 4 calls at a time."));
    QCOMPARE(QString::fromStdString(form.config().rewardConfig), own);
    QVERIFY(!form.config().reward);
}

void TestRunSetupForm::screenshot()
{
    const QByteArray out = qgetenv("RWB_SCREENSHOT");
    if (out.isEmpty())
        QSKIP("set RWB_SCREENSHOT=file.png to write the form's picture");
    RunSetupForm form;
    fill(form);
    setText(form, "eval_data", m_dir.path() + "/val.jsonl");
    form.applyDemoPreset();
    setText(form, "top_p", "1.5");
    form.validate();
    form.resize(1280, 760);
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    QVERIFY(form.grab().save(QString::fromLocal8Bit(out)));
}

QTEST_MAIN(TestRunSetupForm)
#include "tst_runsetupform.moc"
