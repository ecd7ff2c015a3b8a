// A user's task from a JSON description (tasks/user/): each record shape read (TRL
// standard and conversational, verl, OpenRLHF) with every column kept; each answer
// extractor; the metrics and failure categories; a reward config whose "task" is a
// description (inline or a file) installs the task, keeps the description and checks its
// components; bad descriptions and bad records named by file, line and field. Expected
// values are worked out by hand beside each case.
#include "data/jsonl.h"
#include "reward/compositereward.h"
#include "reward/rewardconfig.h"
#include "task/catalog.h"
#include "tasks/user/usertask.h"
#include "tokenizer/promptformat.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <fstream>

using namespace rwb;

namespace {

task::UserTask makeTask(const std::string &description)
{
    return task::UserTask(task::parseTaskDescription(description, "test.json", "/tmp"));
}

// The message of the InputException `f` throws ("" when it throws none).
template <class F>
std::string inputError(F &&f)
{
    try {
        f();
    } catch (const data::InputException &e) {
        return e.error().toString();
    }
    return {};
}

const task::UserExample &userExample(const task::Record &r)
{
    return dynamic_cast<const task::UserExample &>(*r.example);
}

} // namespace

class TestUserTask : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trlStandard();
    void trlConversational();
    void verlRecord();
    void openRlhfRecord();
    void autoShapePerLine();
    void extractors_data();
    void extractors();
    void promptInTheModelsFormat();
    void sftTargetTemplate();
    void metricsAndFailures();
    void predictionLineAndStore();
    void badDescriptions_data();
    void badDescriptions();
    void badRecords_data();
    void badRecords();
    void otherCategory();
    void referenceNamedCompletion();
    void componentNames_data();
    void componentNames();
    void rewardConfigInstallsTheTask();
    void rewardConfigNamesADescriptionFile();
    void semanticAndJudgesServeAUsersTask();
    void builtinNameRefused();
};

void TestUserTask::trlStandard()
{
    const task::UserTask t = makeTask(R"({"name": "arith", "records": "trl"})");
    const task::Record r = t.readLine(R"({"prompt": "2+3?", "solution": "5", "difficulty": 1, "meta": {"src": "gen"}})",
                                      "d.jsonl", 4, false);
    const task::UserExample &e = userExample(r);
    QCOMPARE(e.goldText(), std::string("5"));           // the first of solution, answer, … present
    QCOMPARE(e.id(), std::string("line-4"));            // no id column: the line
    QCOMPARE(e.column("difficulty").value(), std::string("1")); // a number as its JSON
    QCOMPARE(e.column("meta.src").value(), std::string("gen"));  // a dotted path, a string as is
    QVERIFY(!e.column("nope"));
    // A list's index, as the python component reads columns.
    const task::Record listed = t.readLine(R"({"prompt": "p", "solution": "5", "answers": ["a", "b"]})", "d.jsonl", 5, false);
    QCOMPARE(userExample(listed).column("answers.1").value(), std::string("b"));
    QVERIFY(!userExample(listed).column("answers.2"));
    QCOMPARE(e.promptJson(), std::string(R"("2+3?")")); // standard: the text as a JSON string
    QVERIFY(!e.conversational());
    QVERIFY(!r.hasCompletion);
    const nlohmann::json columns = nlohmann::json::parse(e.recordJson());
    QCOMPARE(columns.size(), size_t(4)); // every column kept
}

void TestUserTask::trlConversational()
{
    const task::UserTask t = makeTask(R"({"name": "chatty", "records": "trl", "reference": "answer"})");
    const task::Record r = t.readLine(
        R"({"id": 7, "prompt": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Capital of France?"}],)"
        R"( "answer": "Paris", "completion": [{"role": "assistant", "content": "Paris."}]})",
        "d.jsonl", 1, true);
    const task::UserExample &e = userExample(r);
    QCOMPARE(e.id(), std::string("7"));
    QVERIFY(e.conversational());
    QCOMPARE(e.messages().size(), size_t(2));
    QCOMPARE(e.judgeQuestion(), std::string("Capital of France?"));
    QCOMPARE(nlohmann::json::parse(e.promptJson())[1]["content"].get<std::string>(), std::string("Capital of France?"));
    QVERIFY(r.hasCompletion);
    QCOMPARE(r.completion, std::string("Paris.")); // the assistant message's content
    QVERIFY(!nlohmann::json::parse(e.recordJson()).contains("completion")); // the completion is not a column
}

void TestUserTask::verlRecord()
{
    const task::UserTask t = makeTask(R"({"name": "gsm", "answer": "boxed"})"); // records: auto
    const task::Record r = t.readLine(
        R"({"data_source": "openai/gsm8k", "prompt": [{"role": "user", "content": "Tom has 3 apples…"}], "ability": "math",)"
        R"( "reward_model": {"style": "rule", "ground_truth": "72"}, "extra_info": {"split": "train", "index": 12}})",
        "gsm.jsonl", 2, false);
    const task::UserExample &e = userExample(r);
    QCOMPARE(e.goldText(), std::string("72"));          // reward_model.ground_truth
    QCOMPARE(e.id(), std::string("12"));                // extra_info.index
    QCOMPARE(e.column("data_source").value(), std::string("openai/gsm8k"));
    QCOMPARE(e.column("extra_info.split").value(), std::string("train"));
    QCOMPARE(e.column("extra_info").value(), std::string(R"({"index":12,"split":"train"})"));
}

void TestUserTask::openRlhfRecord()
{
    const task::UserTask t = makeTask(R"({"name": "orl", "records": "openrlhf"})");
    const task::Record r = t.readLine(R"({"input": "Say hi", "label": "hi"})", "o.jsonl", 1, false);
    QCOMPARE(userExample(r).goldText(), std::string("hi"));
    QCOMPARE(userExample(r).messages().front().content, std::string("Say hi"));
    // Its own key names, as OpenRLHF's --input_key / --label_key.
    const task::UserTask named = makeTask(R"({"name": "orl2", "records": "openrlhf", "prompt": "q", "reference": "a"})");
    QCOMPARE(userExample(named.readLine(R"({"q": "x", "a": "y"})", "o.jsonl", 1, false)).goldText(), std::string("y"));
}

void TestUserTask::autoShapePerLine()
{
    const task::UserTask t = makeTask(R"({"name": "mixed"})");
    QCOMPARE(userExample(t.readLine(R"({"prompt": "a", "answer": "1"})", "m.jsonl", 1, false)).goldText(), std::string("1"));
    QCOMPARE(userExample(t.readLine(R"({"input": "a", "label": "2"})", "m.jsonl", 2, false)).goldText(), std::string("2"));
    QCOMPARE(userExample(t.readLine(R"({"prompt": [{"role": "user", "content": "a"}], "reward_model": {"ground_truth": "3"}})",
                                    "m.jsonl", 3, false))
                 .goldText(),
             std::string("3"));
}

void TestUserTask::extractors_data()
{
    QTest::addColumn<QString>("answer");
    QTest::addColumn<QString>("reply");
    QTest::addColumn<bool>("found");
    QTest::addColumn<QString>("expected");
    QTest::newRow("whole") << R"({"extract": "whole"})" << "  42 \n" << true << "42";
    QTest::newRow("whole, empty") << R"({"extract": "whole"})" << " \n" << false << "";
    // The last \boxed{}, its braces balanced.
    QTest::newRow("boxed") << R"({"extract": "boxed"})" << R"(first \boxed{1}, then \boxed{\frac{1}{2}} done)" << true
                           << R"(\frac{1}{2})";
    QTest::newRow("boxed, unclosed") << R"({"extract": "boxed"})" << R"(\boxed{12)" << false << "";
    QTest::newRow("boxed, none") << R"({"extract": "boxed"})" << "12" << false << "";
    QTest::newRow("tag") << R"({"extract": "tag", "tag": "answer"})" << "<think>x</think><answer> 7 </answer>" << true << "7";
    QTest::newRow("tag, last") << R"({"extract": "tag"})" << "<answer>1</answer> <answer>2</answer>" << true << "2";
    QTest::newRow("tag, open only") << R"({"extract": "tag"})" << "<answer>1" << false << "";
    QTest::newRow("regex, group") << R"j({"extract": "regex", "pattern": "Total: (\\d+)", "group": 1})j"
                                  << "Total: 12\nTotal: 30" << true << "30";
    QTest::newRow("regex, whole match") << R"({"extract": "regex", "pattern": "\\d+"})" << "a 5 b 66" << true << "66";
    QTest::newRow("regex, none") << R"({"extract": "regex", "pattern": "\\d+"})" << "none" << false << "";
    QTest::newRow("json field") << R"({"extract": "json_field", "field": "total"})"
                                << "Here: {\"vendor\": \"Acme\", \"total\": 12.5}" << true << "12.5";
    QTest::newRow("json field, fenced") << R"({"extract": "json_field", "field": "a.b"})"
                                        << "```json\n{\"a\": {\"b\": \"x\"}}\n```" << true << "x";
    QTest::newRow("json field, missing") << R"({"extract": "json_field", "field": "total"})" << "{\"vendor\": 1}" << false
                                         << "";
    QTest::newRow("json field, no json") << R"({"extract": "json_field", "field": "total"})" << "total 5" << false << "";
}

void TestUserTask::extractors()
{
    QFETCH(QString, answer);
    QFETCH(QString, reply);
    QFETCH(bool, found);
    QFETCH(QString, expected);
    const task::UserTask t = makeTask(R"({"name": "x", "answer": )" + answer.toStdString() + "}");
    const task::Record r = t.readLine(R"({"prompt": "p", "answer": "a"})", "d.jsonl", 1, false);
    const auto c = t.parse(*r.example, reply.toStdString(), false);
    const auto &uc = dynamic_cast<const task::UserCompletion &>(*c);
    QCOMPARE(uc.answerFound(), found);
    QCOMPARE(QString::fromStdString(c->answer()), expected);
    QCOMPARE(c->text(), reply.toStdString());
}

void TestUserTask::promptInTheModelsFormat()
{
    const task::UserTask t = makeTask(R"({"name": "x", "system": "Answer with a number."})");
    const task::Record r = t.readLine(R"({"prompt": "2+3?", "answer": "5"})", "d.jsonl", 1, false);
    // ChatML: the system message first, the user's, then the generation prompt.
    QCOMPARE(t.prompt(*r.example, tokenizer::PromptFormat(tokenizer::PromptFormat::Kind::ChatMl), false),
             std::string("<|im_start|>system\nAnswer with a number.<|im_end|>\n<|im_start|>user\n2+3?<|im_end|>\n"
                         "<|im_start|>assistant\n"));
    // Plain: the contents joined by a blank line, then the plain templates' ending.
    QCOMPARE(t.prompt(*r.example, tokenizer::PromptFormat(tokenizer::PromptFormat::Kind::Plain), false),
             std::string("Answer with a number.\n\n2+3?\n\n### 応答:\n"));
}

void TestUserTask::sftTargetTemplate()
{
    const task::UserTask t = makeTask(R"({"name": "x", "sft_target": "The answer is \\boxed{{solution}}."})");
    const task::Record r = t.readLine(R"({"prompt": "p", "solution": "5"})", "d.jsonl", 1, false);
    QCOMPARE(t.sftTarget(*r.example, false), std::string("The answer is \\boxed{5}."));
    const task::UserTask byColumn = makeTask(R"({"name": "y", "sft_target": "worked"})");
    QCOMPARE(byColumn.sftTarget(*byColumn.readLine(R"({"prompt": "p", "solution": "5", "worked": "2+3=5"})", "d", 1, false)
                                     .example,
                                false),
             std::string("2+3=5"));
    // A record without the column the description names for it: named, with the line.
    const std::string error = inputError([&] { byColumn.readLine(R"({"prompt": "p", "solution": "5"})", "d.jsonl", 9, false); });
    QCOMPARE(error, std::string("d.jsonl:9: worked: the sft_target column is missing (columns: prompt, solution)"));
}

void TestUserTask::metricsAndFailures()
{
    // Metrics: exact_match (the answer against the reference), then contains on the whole text.
    const task::UserTask t = makeTask(R"({"name": "m", "answer": "boxed",
        "metrics": [{"reward": "exact_match", "name": "accuracy"},
                    {"reward": "contains", "name": "shows_work", "options": {"strings": ["="]}}]})");
    QCOMPARE(std::string(t.headlineMetric()), std::string("accuracy"));
    const task::Record r = t.readLine(R"({"prompt": "2+3?", "answer": "5"})", "d.jsonl", 1, false);
    const auto right = t.parse(*r.example, "2+3=5 so \\boxed{5}", false);
    const auto noWork = t.parse(*r.example, "\\boxed{5}", false);
    const auto wrong = t.parse(*r.example, "2+3=6 \\boxed{6}", false);
    const auto none = t.parse(*r.example, "I think 5", false);
    // Default failures: no_answer (an extractor other than whole), then one per metric.
    const std::vector<task::FailureCategory> cats = t.failureCategories();
    QCOMPARE(cats.size(), size_t(4));
    QCOMPARE(cats[0].key, std::string("right"));
    QCOMPARE(cats[1].key, std::string("no_answer"));
    QCOMPARE(cats[2].key, std::string("accuracy"));
    QCOMPARE(cats[3].key, std::string("shows_work"));
    QCOMPARE(t.failureCategory(*r.example, *right), size_t(0));
    QCOMPARE(t.failureCategory(*r.example, *none), size_t(1));
    QCOMPARE(t.failureCategory(*r.example, *wrong), size_t(2));
    QCOMPARE(t.failureCategory(*r.example, *noWork), size_t(3));

    const auto metrics = t.metrics();
    for (const auto *c : {right.get(), noWork.get(), wrong.get(), none.get()})
        metrics->add(*r.example, *c);
    // accuracy: 1, 1, 0, 0 → 0.5; shows_work: 1, 0, 1, 0 → 0.5.
    const auto result = metrics->result();
    QCOMPARE(result.size(), size_t(2));
    QCOMPARE(result[0].first, std::string("accuracy"));
    QCOMPARE(result[0].second, 0.5);
    QCOMPARE(result[1].second, 0.5);
    QVERIFY(metrics->correct(*r.example, *noWork)); // the headline metric decides
    QVERIFY(!metrics->correct(*r.example, *wrong));
}

void TestUserTask::predictionLineAndStore()
{
    const task::UserTask t = makeTask(R"({"name": "p"})");
    const task::Record r = t.readLine(R"({"prompt": "q", "answer": "a", "topic": "geo"})", "d.jsonl", 1, false);
    const nlohmann::json line = nlohmann::json::parse(t.predictionLine(*r.example, "b"));
    QCOMPARE(line["completion"].get<std::string>(), std::string("b"));
    QCOMPARE(line["topic"].get<std::string>(), std::string("geo"));
    // What the store keeps gives the example back.
    const auto back = t.exampleFromStore(r.example->metaJson(), r.example->goldText(), "store");
    QCOMPARE(back->goldText(), std::string("a"));
    QCOMPARE(dynamic_cast<const task::RecordExample &>(*back).column("topic").value(), std::string("geo"));
}

void TestUserTask::badDescriptions_data()
{
    QTest::addColumn<QString>("description");
    QTest::addColumn<QString>("message");
    QTest::newRow("not JSON") << "{\n  \"name\": }" << "test.json:2: column 11: not valid JSON";
    QTest::newRow("no name") << "{}" << "test.json: name: missing";
    QTest::newRow("bad name") << R"({"name": "My Task"})" << "test.json: name: \"My Task\" is not lower-case";
    QTest::newRow("unknown key") << R"({"name": "x", "promt": "q"})" << "test.json: promt: unknown key (allowed: name,";
    QTest::newRow("records") << R"({"name": "x", "records": "hf"})"
                             << "test.json: records: \"hf\" is not a record shape (allowed: auto, trl, verl, openrlhf)";
    QTest::newRow("extractor") << R"({"name": "x", "answer": {"extract": "last_line"}})"
                               << "test.json: answer.extract: \"last_line\" is not an extractor";
    QTest::newRow("regex without pattern") << R"({"name": "x", "answer": {"extract": "regex"}})"
                                           << "test.json: answer.pattern: missing";
    QTest::newRow("metric") << R"({"name": "x", "metrics": [{"reward": "accuracy"}]})"
                            << "metrics[0].reward: unknown reward \"accuracy\"";
    QTest::newRow("regex does not compile") << R"({"name": "x", "answer": {"extract": "regex", "pattern": "(a"}})"
                                            << "test.json: answer.pattern: ";
    QTest::newRow("regex group") << R"j({"name": "x", "answer": {"extract": "regex", "pattern": "a(b)", "group": 2}})j"
                                 << "test.json: answer.group: 2 is more than the pattern's 1 group(s)";
    QTest::newRow("metric named no_answer") << R"({"name": "x", "metrics": [{"reward": "exact_match", "name": "no_answer"}]})"
                                            << "test.json: metrics[0].name: \"no_answer\" names a failure category";
    QTest::newRow("failure when") << R"({"name": "x", "failures": [{"key": "w", "when": "accuracy"}]})"
                                  << "test.json: failures[0].when: \"accuracy\" is no metric of this task (allowed: no_answer, exact_match)";
}

void TestUserTask::badDescriptions()
{
    QFETCH(QString, description);
    QFETCH(QString, message);
    const std::string error = inputError([&] { makeTask(description.toStdString()); });
    QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
}

void TestUserTask::badRecords_data()
{
    QTest::addColumn<QString>("description");
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("message");
    QTest::newRow("no prompt") << R"({"name": "x"})" << R"({"question": "q", "answer": "a"})"
                               << "data.jsonl:3: prompt: the record has no prompt (TRL's and verl's \"prompt\", OpenRLHF's "
                                  "\"input\"; columns: answer, question)";
    QTest::newRow("named prompt missing") << R"({"name": "x", "records": "trl", "prompt": "question"})"
                                          << R"({"prompt": "q", "answer": "a"})"
                                          << "data.jsonl:3: question: the prompt column is missing (columns: answer, prompt)";
    QTest::newRow("no reference") << R"({"name": "x"})" << R"({"prompt": "q"})"
                                  << "data.jsonl:3: reference: the record has none of the columns solution, answer";
    QTest::newRow("named reference missing") << R"({"name": "x", "reference": "gold"})" << R"({"prompt": "q", "answer": "a"})"
                                             << "data.jsonl:3: gold: the reference column is missing (columns: answer, prompt)";
    QTest::newRow("bad message") << R"({"name": "x"})" << R"({"prompt": [{"role": "user"}], "answer": "a"})"
                                 << "data.jsonl:3: prompt[0].content: missing or not text";
    QTest::newRow("bad role") << R"({"name": "x"})" << R"({"prompt": [{"role": "tool", "content": "c"}], "answer": "a"})"
                              << "data.jsonl:3: prompt[0].role: \"tool\" (allowed: system, user, assistant)";
    QTest::newRow("not an object") << R"({"name": "x"})" << "[1]" << "data.jsonl:3: a record is a JSON object, found array";
    QTest::newRow("not JSON") << R"({"name": "x"})" << "{\"prompt\": " << "data.jsonl:3: not valid JSON";
}

void TestUserTask::badRecords()
{
    QFETCH(QString, description);
    QFETCH(QString, line);
    QFETCH(QString, message);
    const task::UserTask t = makeTask(description.toStdString());
    const std::string error = inputError([&] { t.readLine(line.toStdString(), "data.jsonl", 3, false); });
    QVERIFY2(QString::fromStdString(error).startsWith(message), error.c_str());
}

void TestUserTask::otherCategory()
{
    // Only no_answer listed: a wrong answer is not "right" but "other" (the headline says wrong).
    const task::UserTask t = makeTask(R"({"name": "o", "answer": "boxed", "failures": [{"key": "none", "when": "no_answer"}]})");
    const std::vector<task::FailureCategory> cats = t.failureCategories();
    QCOMPARE(cats.size(), size_t(3));
    QCOMPARE(cats[2].key, std::string("other"));
    const task::Record r = t.readLine(R"({"prompt": "p", "answer": "5"})", "d.jsonl", 1, false);
    QCOMPARE(t.failureCategory(*r.example, *t.parse(*r.example, "\\boxed{5}", false)), size_t(0));
    QCOMPARE(t.failureCategory(*r.example, *t.parse(*r.example, "5", false)), size_t(1));
    QCOMPARE(t.failureCategory(*r.example, *t.parse(*r.example, "\\boxed{6}", false)), size_t(2));
}

void TestUserTask::referenceNamedCompletion()
{
    // TRL's prompt-completion shape named as the reference: the value is read before the
    // line's completion is taken out of its columns.
    const task::UserTask t = makeTask(R"({"name": "pc", "reference": "completion"})");
    const task::Record r = t.readLine(R"({"prompt": "2+2?", "completion": "4"})", "d.jsonl", 1, false);
    QCOMPARE(r.example->goldText(), std::string("4"));
    QVERIFY(r.hasCompletion);
}

void TestUserTask::componentNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("message");
    QTest::newRow("a slash") << "a/b" << "components[0].name: \"a/b\" must be letters, digits";
    QTest::newRow("GRPO's metric") << "overlong" << "components[0].name: \"overlong\" names one of GRPO's own metrics";
    QTest::newRow("another reward") << "exact_match" << "components[0].name: \"exact_match\" is the name of another reward";
    QTest::newRow("fine") << "my-check_2" << "";
}

void TestUserTask::componentNames()
{
    QFETCH(QString, name);
    QFETCH(QString, message);
    const std::string config = R"({"task": "chat", "components": [{"reward": "contains", "name": ")" + name.toStdString() +
                               R"(", "weight": 1, "options": {"strings": ["x"]}}]})";
    const std::string error = inputError([&] { reward::parseRewardConfig(config, "c.json", task::Catalog::builtin().rewards()); });
    if (message.isEmpty())
        QVERIFY2(error.empty(), error.c_str());
    else
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
}

void TestUserTask::rewardConfigInstallsTheTask()
{
    const std::string config = R"({"task": {"name": "inline_task", "answer": "boxed"},
        "components": [{"reward": "exact_match", "weight": 3}, {"reward": "contains", "name": "says_so", "weight": 1,
                        "options": {"strings": ["so"]}}]})";
    const reward::RewardConfig c = reward::readRewardConfigJson(config, "cfg.json", "/data");
    QCOMPARE(c.task, std::string("inline_task"));
    const task::Task *t = task::Catalog::builtin().find("inline_task");
    QVERIFY(t);
    QVERIFY(dynamic_cast<const task::UserTask *>(t));
    // The description is kept (its folder made absolute) and written back with the config.
    const nlohmann::json stored = nlohmann::json::parse(c.taskDescription);
    QCOMPARE(stored["base_dir"].get<std::string>(), std::string("/data"));
    QCOMPARE(stored["answer"]["extract"].get<std::string>(), std::string("boxed"));
    const nlohmann::json written = nlohmann::json::parse(reward::toJson(c));
    QCOMPARE(written["task"]["name"].get<std::string>(), std::string("inline_task"));
    QCOMPARE(written["components"][1]["name"].get<std::string>(), std::string("says_so"));
    // … and read again: the same task, no second install.
    const reward::RewardConfig again = reward::readRewardConfigJson(reward::toJson(c), "stored", "");
    QCOMPARE(again.taskDescription, c.taskDescription);
    QCOMPARE(task::Catalog::builtin().find("inline_task"), t);

    // The generic components score it: 3·1 + 1·1 over 4 for "so \boxed{5}" against 5.
    reward::CompositeReward composite(c, "cfg.json", task::Catalog::builtin().rewards());
    QCOMPARE(composite.componentName(1), std::string("says_so"));
    const task::Record r = t->readLine(R"({"prompt": "p", "answer": "5"})", "d.jsonl", 1, false);
    const auto completion = t->parse(*r.example, "so \\boxed{5}", false);
    QCOMPARE(composite.score(*r.example, *completion).total, 1.0);
    const auto wrong = t->parse(*r.example, "\\boxed{4}", false);
    QCOMPARE(composite.score(*r.example, *wrong).total, 0.0);

    // A component listed twice needs a name of its own.
    const std::string twice = R"({"task": {"name": "inline_task", "answer": "boxed"},
        "components": [{"reward": "contains", "weight": 1, "options": {"strings": ["a"]}},
                       {"reward": "contains", "weight": 1, "options": {"strings": ["b"]}}]})";
    const std::string error = inputError([&] {
        reward::parseRewardConfig(twice, "cfg.json", task::Catalog::builtin().rewards());
    });
    QVERIFY2(QString::fromStdString(error).contains("components[1].reward: \"contains\" is listed twice"), error.c_str());
}

void TestUserTask::rewardConfigNamesADescriptionFile()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/arith.task.json";
    std::ofstream(path) << R"({"name": "file_task", "description": "from a file"})";
    std::ofstream(dir.path().toStdString() + "/reward.json")
        << R"({"task": "arith.task.json", "components": [{"reward": "exact_match", "weight": 1}]})";
    const reward::RewardConfig c =
        reward::loadRewardConfig(dir.path().toStdString() + "/reward.json", task::Catalog::builtin().rewards());
    QCOMPARE(c.task, std::string("file_task"));
    QVERIFY(task::Catalog::builtin().find("file_task"));
    QCOMPARE(nlohmann::json::parse(c.taskDescription)["base_dir"].get<std::string>(), dir.path().toStdString());
    // A description file that is not there, or not JSON: named, with the line.
    std::ofstream(dir.path().toStdString() + "/bad.json") << "{\"task\": \"missing.json\", \"components\": []}";
    std::string error = inputError([&] {
        reward::loadRewardConfig(dir.path().toStdString() + "/bad.json", task::Catalog::builtin().rewards());
    });
    QVERIFY2(QString::fromStdString(error).contains("task: the task description " + dir.path() + "/missing.json does not exist"),
             error.c_str());
    std::ofstream(dir.path().toStdString() + "/broken.task.json") << "{\"name\": \"b\",\n \"answer\": }";
    std::ofstream(dir.path().toStdString() + "/bad2.json") << "{\"task\": \"broken.task.json\", \"components\": []}";
    error = inputError([&] {
        reward::loadRewardConfig(dir.path().toStdString() + "/bad2.json", task::Catalog::builtin().rewards());
    });
    QVERIFY2(QString::fromStdString(error).startsWith(dir.path() + "/broken.task.json:2: column"), error.c_str());
}

void TestUserTask::semanticAndJudgesServeAUsersTask()
{
    // semantic (the config's embedding) compares a user's record's answer with its reference.
    const std::string config = R"({"task": {"name": "sem_task"},
        "components": [{"reward": "semantic", "weight": 1}]})";
    const reward::RewardConfig c = reward::parseRewardConfig(config, "cfg.json", task::Catalog::builtin().rewards());
    reward::CompositeReward composite(c, "cfg.json", task::Catalog::builtin().rewards());
    const task::Task *t = task::Catalog::builtin().find("sem_task");
    QVERIFY(t);
    const task::Record r = t->readLine(R"({"prompt": "p", "answer": "the red fox"})", "d.jsonl", 1, false);
    // The same text: cosine 1; no word in common: 0 (the lexical backend's n-grams).
    QCOMPARE(composite.score(*r.example, *t->parse(*r.example, "the red fox", false)).total, 1.0);
    QCOMPARE(composite.score(*r.example, *t->parse(*r.example, "zzz", false)).total, 0.0);
    // The judge rewards are offered to it (they need the config's judge to be made).
    const std::string judged = R"({"task": {"name": "sem_task"},
        "components": [{"reward": "likert_reference", "weight": 1}]})";
    QCOMPARE(reward::parseRewardConfig(judged, "cfg.json", task::Catalog::builtin().rewards()).components.size(), size_t(1));
    const std::vector<std::string> names = task::Catalog::builtin().rewards().names("sem_task");
    QVERIFY(std::find(names.begin(), names.end(), "rubric_explicit") != names.end());
    // … but not NitiBench's legal prompts.
    QVERIFY(std::find(names.begin(), names.end(), "coverage") == names.end());
}

void TestUserTask::builtinNameRefused()
{
    const std::string error = inputError([] {
        reward::readRewardConfigJson(R"({"task": {"name": "chat"}, "components": []})", "cfg.json", "/");
    });
    QVERIFY2(QString::fromStdString(error).contains("\"chat\" is a built-in task's name"), error.c_str());
}

QTEST_APPLESS_MAIN(TestUserTask)
#include "tst_usertask.moc"
