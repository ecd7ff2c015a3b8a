// File ▸ New task from data (widgets/newtaskdialog.h): a TRL-shaped and a verl-shaped JSONL
// drafted into a description; the preview shows the first records' prompts as the model
// sees them (plain, and ChatML from a model folder) with their references; bad JSON, a
// description that names a column a record lacks and a bad name each stop Create with a
// message naming the place, the user's text untouched; Create writes the description and
// a starter reward config that both read back, and asks before overwriting.
#include "designeractions.h"
#include "linenumberededit.h"
#include "newtaskdialog.h"
#include "rewarddesigner.h"
#include "samplescoremodel.h"

#include "reward/rewardconfig.h"
#include "task/catalog.h"
#include "tasks/user/taskdescription.h"
#include "util/jsoncomments.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <nlohmann/json.hpp>

namespace {

void writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(text), text.size());
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// TRL's standard shape: a text prompt and a numeric solution (the draft guesses boxed +
// numeric). Four records, the fourth never shown with the default count of 3.
const QByteArray kTrl = R"({"prompt": "What is 2+3? Apples and pears.", "solution": "5", "id": "q1"}
{"prompt": "What is 7*6?", "solution": "42", "id": "q2"}

{"prompt": "What is 10-4?", "solution": "6", "id": "q3"}
{"prompt": "What is 9/3?", "solution": "3", "id": "q4"}
)";

// verl's rows as JSONL: "prompt" messages, the reference in reward_model.ground_truth.
const QByteArray kVerl =
    R"({"data_source": "gsm8k", "prompt": [{"role": "user", "content": "Natalia sold 48 clips. How many?"}], "reward_model": {"style": "rule", "ground_truth": "72"}, "extra_info": {"index": 0}}
{"data_source": "gsm8k", "prompt": [{"role": "user", "content": "Weng earns 12 an hour."}], "reward_model": {"style": "rule", "ground_truth": "10"}, "extra_info": {"index": 1}}
)";

} // namespace

class TestNewTaskDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void draftsTrl();
    void draftsVerl();
    void previewFollowsEdits();
    void badJsonNamesTheLine();
    void missingColumnNamesFileAndLine();
    void nameIsChecked();
    void modelFolderFormat();
    void createWritesBothFiles();
    void createAsksBeforeOverwriting();
    void designerLoadsTheNewTask();
};

void TestNewTaskDialog::draftsTrl()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("Math-Problems.jsonl"));
    writeFile(data, kTrl);
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    dialog.show();

    // The name from the file's, the shape and columns from the records.
    QCOMPARE(dialog.taskName(), QStringLiteral("math_problems"));
    const QString text = dialog.descriptionText();
    QVERIFY(text.startsWith(QStringLiteral("//"))); // the draft's comments are there
    const rwb::task::TaskDescription d =
        rwb::task::parseTaskDescription(rwb::util::withoutJsonComments(text.toStdString()), "t", dir.path().toStdString());
    QCOMPARE(d.name, std::string("math_problems"));
    QVERIFY(!d.recordsAuto);
    QCOMPARE(d.records, rwb::task::RecordShape::Trl);
    QCOMPARE(d.prompt, std::string("prompt"));
    QCOMPARE(d.reference, std::string("solution"));
    QCOMPARE(d.answer.kind, rwb::task::AnswerExtractor::Kind::Boxed); // every reference a number
    QCOMPARE(d.metrics.front().reward, std::string("numeric"));
    QVERIFY(!dialog.notes().isEmpty());
    QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("draftNotes"))->text().contains(QStringLiteral("TRL")));

    // The preview: the first records' prompts in the plain format (the draft's system
    // message first, the plain ending last), their references and SFT targets.
    QVERIFY2(dialog.canCreate(), qPrintable(dialog.problem()));
    // Return in the name field writes nothing.
    QVERIFY(!dialog.createButton()->isDefault());
    QSignalSpy created(&dialog, &NewTaskDialog::created);
    QTest::keyClick(dialog.nameEdit(), Qt::Key_Return);
    QCOMPARE(created.count(), 0);
    QVERIFY(dialog.isVisible());
    const QString preview = dialog.preview()->toPlainText();
    QVERIFY2(preview.contains(QStringLiteral("What is 2+3? Apples and pears.")), qPrintable(preview));
    QVERIFY(preview.contains(QStringLiteral("### 応答:")));
    QVERIFY(preview.contains(QStringLiteral("\\boxed{5}"))); // the SFT target
    QVERIFY(preview.contains(QStringLiteral("What is 10-4?")));  // the third record (after a blank line)
    QVERIFY(!preview.contains(QStringLiteral("What is 9/3?"))); // the fourth is not shown
    QVERIFY(preview.contains(QStringLiteral("line 4")));         // the third record's line
    dialog.recordCount()->setValue(4);
    QVERIFY(dialog.preview()->toPlainText().contains(QStringLiteral("What is 9/3?")));
    // Where Create writes: beside the data.
    QCOMPARE(dialog.taskPath(), dir.filePath(QStringLiteral("math_problems.task.json")));
    QCOMPARE(dialog.rewardConfigPath(), dir.filePath(QStringLiteral("math_problems.reward.json")));
}

void TestNewTaskDialog::draftsVerl()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("gsm8k_verl.jsonl"));
    writeFile(data, kVerl);
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    const rwb::task::TaskDescription d = rwb::task::parseTaskDescription(
        rwb::util::withoutJsonComments(dialog.descriptionText().toStdString()), "t", dir.path().toStdString());
    QCOMPARE(d.name, std::string("gsm8k_verl"));
    QCOMPARE(d.records, rwb::task::RecordShape::Verl);
    QCOMPARE(d.reference, std::string("reward_model.ground_truth"));
    QVERIFY2(dialog.canCreate(), qPrintable(dialog.problem()));
    const QString preview = dialog.preview()->toPlainText();
    QVERIFY2(preview.contains(QStringLiteral("Natalia sold 48 clips. How many?")), qPrintable(preview));
    QVERIFY(preview.contains(QStringLiteral("72")));
    QVERIFY(preview.contains(QStringLiteral("Weng earns 12 an hour.")));
    QVERIFY(preview.contains(QStringLiteral("Record 0"))); // the id: extra_info.index
}

void TestNewTaskDialog::previewFollowsEdits()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("trl.jsonl"));
    writeFile(data, kTrl);
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    dialog.show();
    // A system message typed into the description reaches the preview after the pause.
    QString text = dialog.descriptionText();
    text.replace(QStringLiteral("Think step by step"), QStringLiteral("Count carefully"));
    dialog.setDescriptionText(text);
    QVERIFY(!dialog.preview()->toPlainText().contains(QStringLiteral("Count carefully"))); // not at once
    QTRY_VERIFY_WITH_TIMEOUT(dialog.preview()->toPlainText().contains(QStringLiteral("Count carefully")), 2000);
    // Once edited, another data file keeps the user's text.
    const QString other = dir.filePath(QStringLiteral("other.jsonl"));
    writeFile(other, kTrl);
    dialog.setDataFile(other);
    QCOMPARE(dialog.taskName(), QStringLiteral("other")); // a name not chosen follows the file's
    text.replace(QStringLiteral("\"name\": \"trl\""), QStringLiteral("\"name\": \"other\""));
    QCOMPARE(dialog.descriptionText(), text); // … into the text too, the rest kept
    // "Draft again" asks before replacing the edits.
    int asked = 0;
    dialog.setConfirmationHandler([&](const QString &, const QString &) { ++asked; return false; });
    dialog.draftAgain();
    QCOMPARE(asked, 1);
    QCOMPARE(dialog.descriptionText(), text);
    dialog.setConfirmationHandler([&](const QString &, const QString &) { ++asked; return true; });
    dialog.draftAgain();
    QCOMPARE(asked, 2);
    QVERIFY(dialog.descriptionText().contains(QStringLiteral("Think step by step")));
    // A fresh draft closes without asking; edits are not dropped without asking.
    dialog.setDescriptionText(text);
    dialog.setConfirmationHandler([&](const QString &, const QString &) { ++asked; return false; });
    dialog.reject();
    QCOMPARE(asked, 3);
    QVERIFY(dialog.isVisible());
    QCOMPARE(dialog.descriptionText(), text);
    dialog.setConfirmationHandler([&](const QString &, const QString &) { ++asked; return true; });
    dialog.reject();
    QCOMPARE(asked, 4);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(dialog.result(), int(QDialog::Rejected));
}

void TestNewTaskDialog::badJsonNamesTheLine()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("trl.jsonl"));
    writeFile(data, kTrl);
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    QVERIFY(dialog.canCreate());
    // A comma dropped after "name" (the draft's 4th line): the parser stops in the next
    // line, at the key after it.
    const QString good = dialog.descriptionText();
    QCOMPARE(good.split(QLatin1Char('\n')).value(3), QStringLiteral("  \"name\": \"trl\","));
    const QString bad = QString(good).replace(QStringLiteral("\"name\": \"trl\","), QStringLiteral("\"name\": \"trl\""));
    dialog.setDescriptionText(bad);
    dialog.refresh();
    QVERIFY(!dialog.canCreate());
    QVERIFY(!dialog.createButton()->isEnabled());
    QVERIFY2(dialog.problem().contains(QStringLiteral("trl.task.json:5: column ")), qPrintable(dialog.problem()));
    QVERIFY(dialog.problem().contains(QStringLiteral("not valid JSON")));
    QCOMPARE(dialog.descriptionText(), bad); // the text stays as typed
    QCOMPARE(dialog.descriptionEdit()->markedLine(), 5); // and the line is marked in it
    // A field that does not read is named.
    dialog.setDescriptionText(QString(good).replace(QStringLiteral("\"records\": \"trl\""), QStringLiteral("\"records\": \"csv\"")));
    dialog.refresh();
    QVERIFY(!dialog.canCreate());
    QVERIFY2(dialog.problem().contains(QStringLiteral("trl.task.json: records: \"csv\" is not a record shape")),
             qPrintable(dialog.problem()));
    // Fixed: Create again.
    dialog.setDescriptionText(good);
    dialog.refresh();
    QVERIFY2(dialog.canCreate(), qPrintable(dialog.problem()));
    QVERIFY(dialog.problem().isEmpty());
    QCOMPARE(dialog.descriptionEdit()->markedLine(), 0);
}

void TestNewTaskDialog::missingColumnNamesFileAndLine()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("mixed.jsonl"));
    // The second record has its prompt under another column.
    writeFile(data, R"({"prompt": "What is 2+3?", "solution": "5"}
{"question": "What is 7*6?", "solution": "42"}
)");
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    QVERIFY(!dialog.canCreate());
    QVERIFY2(dialog.problem().contains(QStringLiteral("mixed.jsonl:2: prompt: the prompt column is missing")),
             qPrintable(dialog.problem()));
    // What did read is still shown, and the message in its place.
    const QString preview = dialog.preview()->toPlainText();
    QVERIFY(preview.contains(QStringLiteral("What is 2+3?")));
    QVERIFY(preview.contains(QStringLiteral("mixed.jsonl:2: prompt")));
    // The user's text is what was drafted; naming the prompt column per line is not
    // possible, so the data is fixed instead and the dialog reads it again.
    const QString text = dialog.descriptionText();
    writeFile(data, R"({"prompt": "What is 2+3?", "solution": "5"}
{"prompt": "What is 7*6?", "solution": "42"}
)");
    dialog.refresh();
    QVERIFY2(dialog.canCreate(), qPrintable(dialog.problem()));
    QCOMPARE(dialog.descriptionText(), text);
}

void TestNewTaskDialog::nameIsChecked()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("trl.jsonl"));
    writeFile(data, kTrl);
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    // A good name goes into the description's "name" too.
    dialog.setTaskName(QStringLiteral("sums_v2"));
    QVERIFY(dialog.descriptionText().contains(QStringLiteral("\"name\": \"sums_v2\"")));
    dialog.refresh();
    QVERIFY2(dialog.canCreate(), qPrintable(dialog.problem()));
    QCOMPARE(dialog.taskPath(), dir.filePath(QStringLiteral("sums_v2.task.json")));
    // Not lower-case letters, digits and "_" starting with a letter.
    for (const QString &bad : {QStringLiteral("Sums"), QStringLiteral("2sums"), QStringLiteral("my sums")}) {
        dialog.setTaskName(bad);
        dialog.refresh();
        QVERIFY2(!dialog.canCreate(), qPrintable(bad));
        QVERIFY2(dialog.problem().contains(bad), qPrintable(dialog.problem()));
    }
    dialog.setTaskName(QString());
    dialog.refresh();
    QVERIFY(!dialog.canCreate());
    // A built-in task's name is refused.
    dialog.setTaskName(QString::fromStdString(std::string(rwb::task::Catalog::builtin().find("")->name())));
    dialog.refresh();
    QVERIFY(!dialog.canCreate());
    QVERIFY2(dialog.problem().contains(QStringLiteral("built-in")), qPrintable(dialog.problem()));
    // A name the user changed in the text but not in the field: the mismatch is named.
    dialog.setTaskName(QStringLiteral("sums"));
    dialog.setDescriptionText(dialog.descriptionText().replace(QStringLiteral("\"name\": \"sums\""), QStringLiteral("\"name\": \"totals\"")));
    dialog.refresh();
    QVERIFY(!dialog.canCreate());
    QVERIFY2(dialog.problem().contains(QStringLiteral("totals")), qPrintable(dialog.problem()));
}

void TestNewTaskDialog::modelFolderFormat()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("trl.jsonl"));
    writeFile(data, kTrl);
    // A model folder whose tokenizer_config.json says ChatML (tokenizer.json from the test data).
    const QString model = dir.filePath(QStringLiteral("model"));
    QVERIFY(QDir().mkpath(model));
    QVERIFY(QFile::copy(QStringLiteral(RWB_TEST_DATA "/hf/tokenizers/byte_level_bpe/tokenizer.json"),
                        model + QStringLiteral("/tokenizer.json")));
    writeFile(model + QStringLiteral("/tokenizer_config.json"), R"({"rwb_prompt_format": "chatml"})");
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    QVERIFY(!dialog.preview()->toPlainText().contains(QStringLiteral("<|im_start|>")));
    dialog.setModelFolder(model);
    QVERIFY2(dialog.preview()->toPlainText().contains(QStringLiteral("<|im_start|>user\nWhat is 2+3? Apples and pears.<|im_end|>")),
             qPrintable(dialog.preview()->toPlainText()));
    QVERIFY(dialog.canCreate());
    // A folder that does not load: said beside it, the preview plain, Create still possible.
    dialog.setModelFolder(dir.filePath(QStringLiteral("nothing")));
    QVERIFY(!dialog.preview()->toPlainText().contains(QStringLiteral("<|im_start|>")));
    QVERIFY(dialog.preview()->toPlainText().contains(QStringLiteral("### 応答:")));
    QVERIFY(dialog.canCreate());
}

void TestNewTaskDialog::createWritesBothFiles()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("data/invoices.jsonl"));
    QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("data"))));
    writeFile(data, R"({"prompt": "Vendor and total as JSON.", "solution": "{\"vendor\": \"Oak Ltd\", \"total\": \"12.50\"}"}
{"prompt": "Vendor and total as JSON, again.", "solution": "{\"vendor\": \"Pine Inc\", \"total\": \"3.00\"}"}
)");
    // The workspace folder given: the files go there, not beside the data.
    const QString out = dir.filePath(QStringLiteral("workspace"));
    NewTaskDialog dialog(out);
    dialog.setDataFile(data);
    QCOMPARE(dialog.taskName(), QStringLiteral("invoices"));
    // Two metrics, the second with options: two components.
    QString text = dialog.descriptionText();
    const QString metrics = QStringLiteral("\"metrics\": [{\"reward\": \"json_fields\", \"name\": \"accuracy\"}]");
    QVERIFY2(text.contains(metrics), qPrintable(text));
    text.replace(metrics, QStringLiteral("\"metrics\": [{\"reward\": \"json_fields\", \"name\": \"accuracy\"},\n"
                                         "              {\"reward\": \"json_valid\", \"name\": \"valid\", \"options\": {\"type\": \"object\"}}]"));
    dialog.setDescriptionText(text);
    int asked = 0;
    dialog.setConfirmationHandler([&](const QString &, const QString &) { ++asked; return false; });
    QSignalSpy created(&dialog, &NewTaskDialog::created);
    dialog.show();
    QTest::mouseClick(dialog.createButton(), Qt::LeftButton);
    QCOMPARE(asked, 0); // nothing to overwrite
    QCOMPARE(created.count(), 1);
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const QString taskFile = out + QStringLiteral("/invoices.task.json");
    const QString configFile = out + QStringLiteral("/invoices.reward.json");
    QCOMPARE(created.at(0).at(0).toString(), taskFile);
    QCOMPARE(created.at(0).at(1).toString(), configFile);

    // The description as edited, comments kept; it reads.
    QCOMPARE(QString::fromUtf8(readFile(taskFile)), text);
    const rwb::task::TaskDescription d =
        rwb::task::parseTaskDescription(rwb::util::withoutJsonComments(readFile(taskFile).toStdString()), taskFile.toStdString(),
                                        out.toStdString());
    QCOMPARE(d.name, std::string("invoices"));
    QCOMPARE(d.metrics.size(), size_t(2));
    // The reward config: the task by its file, one component per metric, weight 1.
    const nlohmann::json j = nlohmann::json::parse(readFile(configFile).toStdString());
    QCOMPARE(j.at("task").get<std::string>(), std::string("invoices.task.json"));
    QCOMPARE(j.at("name").get<std::string>(), std::string("invoices"));
    rwb::reward::RewardConfig c;
    try {
        c = rwb::reward::loadRewardConfig(configFile.toStdString(), rwb::task::Catalog::builtin().rewards());
    } catch (const std::exception &e) {
        QFAIL(e.what());
    }
    QCOMPARE(c.task, std::string("invoices"));
    QVERIFY(!c.taskDescription.empty());
    QCOMPARE(c.components.size(), size_t(2));
    QCOMPARE(c.components[0].reward, std::string("json_fields"));
    QCOMPARE(c.components[0].label(), std::string("accuracy"));
    QCOMPARE(c.components[0].weight, 1.0);
    QCOMPARE(c.components[1].reward, std::string("json_valid"));
    QCOMPARE(c.components[1].label(), std::string("valid"));
    QCOMPARE(c.components[1].weight, 1.0);
    QCOMPARE(nlohmann::json::parse(c.components[1].options), nlohmann::json::parse(R"({"type": "object"})"));
}

void TestNewTaskDialog::createAsksBeforeOverwriting()
{
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("trl.jsonl"));
    writeFile(data, kTrl);
    const QString taskFile = dir.filePath(QStringLiteral("trl.task.json"));
    const QString configFile = dir.filePath(QStringLiteral("trl.reward.json"));
    writeFile(configFile, "old");
    NewTaskDialog dialog;
    dialog.setDataFile(data);
    QStringList asked;
    bool answer = false;
    dialog.setConfirmationHandler([&](const QString &, const QString &text) {
        asked << text;
        return answer;
    });
    QSignalSpy created(&dialog, &NewTaskDialog::created);
    // Declined: nothing written, the dialog stays.
    QVERIFY(!dialog.create());
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(QStringLiteral("trl.reward.json")), qPrintable(asked.first()));
    QVERIFY(!asked.first().contains(QStringLiteral("trl.task.json"))); // only what exists
    QCOMPARE(readFile(configFile), QByteArray("old"));
    QVERIFY(!QFile::exists(taskFile));
    QCOMPARE(created.count(), 0);
    QVERIFY(dialog.canCreate());
    // Accepted: both written.
    answer = true;
    QVERIFY(dialog.create());
    QCOMPARE(asked.size(), 2);
    QCOMPARE(created.count(), 1);
    QVERIFY(readFile(configFile).contains("\"task\": \"trl.task.json\""));
    QCOMPARE(QString::fromUtf8(readFile(taskFile)), dialog.descriptionText());
}

void TestNewTaskDialog::designerLoadsTheNewTask()
{
    // File ▸ New task from data as the main window has it: the files go to the workspace
    // folder, and the Designer then shows the task's metrics as its components.
    QTemporaryDir dir;
    const QString data = dir.filePath(QStringLiteral("sums.jsonl"));
    writeFile(data, kTrl);
    const QString workspace = dir.filePath(QStringLiteral("ws"));
    QWidget window;
    RewardDesigner designer;
    QString error;
    QVERIFY2(designer.loadSamples(QStringLiteral(":/samples/company_samples.jsonl"), &error), qPrintable(error));
    DesignerActions actions(&window, &designer, [&] { return workspace; });
    QVERIFY(actions.configActions().contains(actions.newTaskAction()));
    QSignalSpy status(&actions, &DesignerActions::statusMessage);
    QSignalSpy notice(&actions, &DesignerActions::notice);
    QPointer<NewTaskDialog> dialog = actions.openNewTaskDialog(data);
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->taskName(), QStringLiteral("sums"));
    QVERIFY2(dialog->create(), qPrintable(dialog->problem()));
    QTRY_VERIFY(!dialog); // closed, and deleted
    QCOMPARE(notice.count(), 0);
    QCOMPARE(designer.model()->task().name(), std::string_view("sums"));
    QCOMPARE(designer.model()->componentNames(), QStringList{QStringLiteral("accuracy")});
    QCOMPARE(designer.configPath(), workspace + QStringLiteral("/sums.reward.json"));
    QCOMPARE(status.count(), 1);
    QVERIFY2(status.at(0).at(0).toString().contains(QStringLiteral("sums.task.json")), qPrintable(status.at(0).at(0).toString()));
}

QTEST_MAIN(TestNewTaskDialog)
#include "tst_newtaskdialog.moc"
