// rwb import: verl's rollout dumps, TRL's completions table (JSONL, CSV, a wandb table) and
// OpenRLHF's samples into a run of the store. Test files under tests/data/import are
// written from each trainer's documented schema (verl's _dump_generations, TRL's
// log_completions table, OpenRLHF's batch_inference output). Expected values worked by hand.
#include "data/jsonl.h"
#include "store/rolloutimport.h"
#include "store/runstore.h"
#include "testtime.h"

#include <QProcess>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace rwb;
using json = nlohmann::json;

namespace {

const std::string kData = RWB_TEST_DATA "/import";

std::vector<store::StoredRollout> rolloutsOf(const store::RunStore &st, int64_t runId)
{
    store::RolloutFilter f;
    f.runId = runId;
    return st.rollouts(f, 0, 1000).rows;
}

double metricAt(const store::RunStore &st, int64_t runId, const std::string &name, int64_t step)
{
    for (const store::MetricPoint &m : st.metrics(runId, name))
        if (m.step == step)
            return m.value;
    return std::nan("");
}

const store::FieldMapping *mappingOf(const std::vector<store::FieldMapping> &list, const std::string &field)
{
    for (const store::FieldMapping &m : list)
        if (m.field == field)
            return &m;
    return nullptr;
}

void writeFile(const QString &path, const std::string &text)
{
    std::ofstream(path.toStdString(), std::ios::binary) << text;
}

} // namespace

class TestRolloutImport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void verlDump();
    void verlValidationDump();
    void trlTables();
    void openRlhfSamples();
    void groupSizeAndWeights();
    void badInput_data();
    void badInput();
    void command();
};

void TestRolloutImport::verlDump()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {kData + "/verl"}, {});
    QCOMPARE(r.format, store::DumpFormat::Verl);
    QCOMPARE(r.files.size(), size_t(2));
    QVERIFY(r.files[0].size() > 7 && r.files[0].substr(r.files[0].size() - 7) == "1.jsonl");
    QCOMPARE(r.steps, int64_t(2));
    QCOMPARE(r.rollouts, int64_t(8));
    QCOMPARE(r.groups, int64_t(4));
    QCOMPARE(r.runName, std::string("verl"));

    // What each field became.
    QCOMPARE(mappingOf(r.mapped, "input")->target, std::string("prompt"));
    QCOMPARE(mappingOf(r.mapped, "output")->target, std::string("completion"));
    QCOMPARE(mappingOf(r.mapped, "score")->target, std::string("reward"));
    QCOMPARE(mappingOf(r.mapped, "gts")->target, std::string("gold answer"));
    QCOMPARE(mappingOf(r.mapped, "pred")->target, std::string("answer"));
    QCOMPARE(mappingOf(r.mapped, "acc")->target, std::string("reward component"));
    QCOMPARE(mappingOf(r.mapped, "acc")->rows, int64_t(8));
    QVERIFY(mappingOf(r.unmapped, "note"));
    QCOMPARE(mappingOf(r.unmapped, "note")->rows, int64_t(4));
    bool advantagesComputed = false;
    for (const std::string &c : r.computed)
        advantagesComputed = advantagesComputed || c.rfind("advantages: GRPO", 0) == 0;
    QVERIFY(advantagesComputed);

    const store::RunInfo run = st.run(r.runId);
    QCOMPARE(run.kind, std::string("external"));
    QCOMPARE(run.status, std::string("finished"));
    QCOMPARE(run.steps, int64_t(2));
    QCOMPARE(json::parse(run.configJson)["imported"]["format"], json("verl"));

    // Step 1: rewards 1, 0 | 0.5, 1. Mean 0.625; over the four (Bessel, as TRL's
    // reward_std) √(0.6875 / 3) = 0.478714; group stds √0.5 = 0.707107 and √0.125 =
    // 0.353553, their mean 0.530330 (group_reward_std); acc 1, 0, 0, 1 → 0.5.
    QVERIFY(std::abs(metricAt(st, r.runId, "reward", 1) - 0.625) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "reward_std", 1) - 0.478714) < 1e-6);
    QVERIFY(std::abs(metricAt(st, r.runId, "group_reward_std", 1) - 0.530330) < 1e-6);
    QVERIFY(std::abs(metricAt(st, r.runId, "rewards/acc/mean", 1) - 0.5) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "frac_reward_zero_std", 2) - 0.5) < 1e-9); // mail 3: 1, 1
    // No token counts in a verl dump: no length curve of zeros.
    QVERIFY(st.metrics(r.runId, "completions/mean_length").empty());

    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(8));
    // (1 − 0.5) / (0.707107 + 1e-4) = 0.707007; (0.5 − 0.75) / (0.353553 + 1e-4) = −0.706907.
    QCOMPARE(rows[0].rollout.completion, std::string("<answer>Acme</answer>"));
    QCOMPARE(rows[0].rollout.answer, std::string("Acme"));
    QCOMPARE(rows[0].gold, std::string("Acme"));
    QVERIFY(std::abs(rows[0].rollout.advantage - 0.707007) < 1e-5);
    QVERIFY(std::abs(rows[1].rollout.advantage + 0.707007) < 1e-5);
    QVERIFY(std::abs(rows[2].rollout.advantage + 0.706907) < 1e-5);
    QCOMPARE(rows[2].gold, std::string(R"({"target":["Gamma","Gamma KK"]})"));
    QCOMPARE(rows[0].rollout.groupIndex, 0);
    QCOMPARE(rows[2].rollout.groupIndex, 1);
    QCOMPARE(rows[3].rollout.sampleIndex, 1);
    QCOMPARE(json::parse(rows[1].rollout.rewardsJson), json::parse(R"({"acc":0.0})"));
    QCOMPARE(json::parse(rows[6].rollout.detailsJson), json::parse(R"({"note":"no answer tag"})"));
    QCOMPARE(rows[6].step, int64_t(2));
}

// What verl's validation dump and rwb serve's verl route put in a row (issue 42): the
// score repeated as "reward", "pred": null, rwb serve's reward_none and Python's bare NaN.
void TestRolloutImport::verlValidationDump()
{
    QTemporaryDir dir;
    const QString dump = dir.path() + "/val";
    QVERIFY(QDir().mkpath(dump));
    QFile f(dump + "/0.jsonl");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"input": "q1", "output": "a", "gts": "a", "score": 1.0, "reward": 1.0, "pred": "a", "acc": 1.0, "step": 0}
{"input": "q1", "output": "b", "gts": "a", "score": 0.0, "reward": 0.0, "pred": null, "acc": 0.0, "step": 0}
{"input": "q2", "output": "c", "gts": "d", "score": 0.0, "reward": 0.0, "reward_none": 1, "acc": NaN, "step": 0}
{"input": "q2", "output": "d", "gts": "d", "score": NaN, "reward": NaN, "acc": -Infinity, "note": "NaN in text", "step": 0}
)");
    f.close();
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {dump.toStdString()}, {});
    QCOMPARE(r.format, store::DumpFormat::Verl);
    QCOMPARE(r.rollouts, int64_t(4));
    // Neither the repeated score, nor the None marker, nor a null pred is a component: acc only.
    QVERIFY(!mappingOf(r.mapped, "reward") || mappingOf(r.mapped, "reward")->target != "reward component");
    QVERIFY(!mappingOf(r.mapped, "pred") || mappingOf(r.mapped, "pred")->target == "answer");
    QCOMPARE(mappingOf(r.mapped, "acc")->target, std::string("reward component"));
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(4));
    for (const auto &row : rows)
        QCOMPARE(json::parse(row.rollout.rewardsJson).size(), size_t(1)); // {"acc": …}
    QCOMPARE(rows[0].rollout.answer, std::string("a"));
    QCOMPARE(rows[1].rollout.answer, std::string(""));
    QVERIFY(std::isnan(rows[2].rollout.reward)); // reward_none 1: None, not 0
    QVERIFY(std::isnan(rows[3].rollout.reward)); // a bare NaN score: None
    QVERIFY(json::parse(rows[3].rollout.rewardsJson)["acc"].is_null());
    QCOMPARE(json::parse(rows[3].rollout.detailsJson)["note"], json("NaN in text")); // a string stays as it is
}

void TestRolloutImport::trlTables()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(
        st, {kData + "/trl_jsonl", kData + "/trl_csv", kData + "/trl_wandb"}, {});
    QCOMPARE(r.format, store::DumpFormat::Trl);
    // completions_00002 repeats 00001's rows (a second optimizer step on the same batch);
    // 00003's eval row is left out.
    QCOMPARE(r.files.size(), size_t(4));
    QCOMPARE(r.steps, int64_t(4)); // 1, 3, 4, 7
    QCOMPARE(r.rollouts, int64_t(4 + 2 + 2 + 2));
    bool repeatSkipped = false, evalSkipped = false;
    for (const std::string &s : r.skipped) {
        repeatSkipped = repeatSkipped || s.find("completions_00002.jsonl: the same rollouts as") != std::string::npos;
        evalSkipped = evalSkipped || s.rfind("1 eval rows", 0) == 0;
    }
    QVERIFY(repeatSkipped);
    QVERIFY(evalSkipped);
    QCOMPARE(mappingOf(r.mapped, "correctness_reward")->target, std::string("reward function"));
    QCOMPARE(mappingOf(r.mapped, "advantage")->target, std::string("advantage"));
    QCOMPARE(mappingOf(r.unmapped, "tool")->target, std::string("details"));

    const std::vector<int64_t> steps = [&] {
        std::vector<int64_t> out;
        for (const store::MetricPoint &m : st.metrics(r.runId, "reward"))
            out.push_back(m.step);
        return out;
    }();
    QCOMPARE(steps, (std::vector<int64_t>{1, 3, 4, 7}));

    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(10));
    // The total is TRL's nansum of the functions (weights 1): 1 + 1 = 2; 0 + None = 0.
    QCOMPARE(rows[0].rollout.reward, 2.0);
    QCOMPARE(rows[1].rollout.reward, 0.0);
    // The trainer's advantage is kept as it logged it.
    QCOMPARE(rows[0].rollout.advantage, 0.7071);
    QCOMPARE(rows[2].rollout.advantage, 0.0);
    // None stays None in the components.
    QVERIFY(json::parse(rows[1].rollout.rewardsJson)["format_reward"].is_null());
    QCOMPARE(rows[4].rollout.reward, 1.5);
    QCOMPARE(json::parse(rows[4].rollout.detailsJson), json::parse(R"({"tool":"none"})"));
    // The CSV row's quoted completion: a CRLF, a comma and a doubled quote inside.
    QCOMPARE(rows[6].rollout.completion,
             std::string("<think>first line\r\nsecond, with a comma and a \"quote\"</think><answer>Eta</answer>"));
    QCOMPARE(rows[6].step, int64_t(4));
    QCOMPARE(rows[7].rollout.reward, 0.0); // 0.0 + None
    QCOMPARE(rows[7].rollout.advantage, -1.0);
    QCOMPARE(rows[8].prompt, std::string("Who sent mail 6?"));
    QCOMPARE(rows[9].rollout.reward, 0.0);
    QCOMPARE(rows[9].step, int64_t(7));
    // Step 1's reward: (2 + 0 + 2 + 2) / 4 = 1.5; format_reward's mean leaves the None out.
    QCOMPARE(metricAt(st, r.runId, "reward", 1), 1.5);
    QCOMPARE(metricAt(st, r.runId, "rewards/format_reward/mean", 1), 1.0);
}

void TestRolloutImport::openRlhfSamples()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    store::ImportOptions o;
    o.runName = "rm-sampling";
    const store::ImportReport r = store::importRollouts(st, {kData + "/openrlhf/samples.jsonl"}, o);
    QCOMPARE(r.format, store::DumpFormat::OpenRlhf);
    QCOMPARE(r.runName, std::string("rm-sampling"));
    QCOMPARE(r.steps, int64_t(1));
    QCOMPARE(r.groups, int64_t(2));
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(3));
    QCOMPARE(rows[0].step, int64_t(1)); // no step in the file or its name: the first file is step 1
    // (2.5 − 0.5) / (2√2 + 1e-4) = 2 / 2.828527 = 0.707082
    QVERIFY(std::abs(rows[0].rollout.advantage - 0.707082) < 1e-5);
    QCOMPARE(rows[2].rollout.advantage, 0.0); // a group of one
    QCOMPARE(rows[2].rollout.reward, 0.25);
}

void TestRolloutImport::groupSizeAndWeights()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    store::ImportOptions o;
    o.groupSize = 4;
    o.weights = {{"correctness_reward", 2.0}};
    const store::ImportReport r =
        store::importRollouts(st, {kData + "/trl_jsonl/completions/completions_00001.jsonl"}, o);
    QCOMPARE(r.groups, int64_t(1));
    const auto rows = rolloutsOf(st, r.runId);
    // Only the named function counts, twice: 2, 0, 2, 2.
    QCOMPARE(rows[0].rollout.reward, 2.0);
    QCOMPARE(rows[1].rollout.reward, 0.0);
    QCOMPARE(rows[3].rollout.groupIndex, 0);
    QCOMPARE(rows[3].rollout.sampleIndex, 3);
}

void TestRolloutImport::badInput_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    // verl's rows, or TRL's where the case is about a TRL file.
    const std::string ok = R"({"input": "q", "output": "a", "score": 1.0, "step": 1})";
    QTest::newRow("a score that is text") << "3.jsonl"
                                          << QString::fromStdString(ok + "\n" + R"({"input": "q", "output": "a", "score": "high", "step": 1})")
                                          << "auto" << "3.jsonl:2: field \"score\" must be a number or null, not string";
    QTest::newRow("not JSON") << "3.jsonl" << QString::fromStdString(ok + "\n\n" + R"({"input": "q", "output")")
                              << "auto" << "3.jsonl:3: not valid JSON at column";
    // 100,000 levels (200 KB) crashed rwb import (issue 38).
    QTest::newRow("a field nested too deep")
        << "3.jsonl"
        << QString::fromStdString(ok + "\n" + R"({"input": "q", "output": "a", "score": 1, "extra": )" +
                                  std::string(100'000, '[') + std::string(100'000, ']') + "}")
        << "auto" << "3.jsonl:2: JSON nests deeper than 128 levels";
    QTest::newRow("a line that is no object") << "3.jsonl" << QString::fromStdString(ok + "\n[1, 2]") << "auto"
                                              << "3.jsonl:2: expected a JSON object, found array";
    QTest::newRow("an unknown trainer") << "3.jsonl" << R"({"question": "q", "answer": "a"})" << "auto"
                                        << "3.jsonl:1: cannot tell which trainer wrote this (fields: question, answer)";
    QTest::newRow("verl without output") << "3.jsonl" << QString::fromStdString(ok + "\n" + R"({"input": "q", "score": 1})")
                                         << "verl" << "3.jsonl:2: missing field \"output\"";
    QTest::newRow("a fractional step") << "3.jsonl" << R"({"input": "q", "output": "a", "score": 1, "step": 1.5})"
                                       << "auto" << "3.jsonl:1: field \"step\" must be an integer, not a fraction";
    QTest::newRow("a prompt that is a number") << "c.jsonl" << R"({"prompt": 7, "completion": "a"})" << "auto"
                                               << "c.jsonl:1: field \"prompt\" must be a string or a list of messages, not number";
    QTest::newRow("a CSV row short of fields") << "c.csv" << "step,prompt,completion\n1,q,a\n2,q\n" << "auto"
                                               << "c.csv:3: has 2 fields where the header has 3";
    QTest::newRow("a CSV quote never closed") << "c.csv" << "step,prompt,completion\n1,q,\"a\n2,q,b\n" << "auto"
                                              << "c.csv:2: a quoted field opened here is never closed";
    QTest::newRow("a wandb table's short row") << "t.json" << R"({"columns": ["prompt", "completion"], "data": [["q", "a"], ["q"]]})"
                                               << "auto" << "t.json: row 2: field \"data[1]\" must be an array of 2 values";
    QTest::newRow("parquet") << "completions_00001.parquet" << "PAR1" << "auto"
                             << "completions_00001.parquet: parquet is not read";
    QTest::newRow("weights naming no column") << "c.jsonl" << R"({"prompt": "q", "completion": "a", "acc": 1})" << "weights"
                                              << "--weights names \"length\", which no column of the dump has";
}

void TestRolloutImport::badInput()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    QFETCH(QString, format);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString dumpDir = dir.path() + "/dump";
    QVERIFY(QDir().mkpath(dumpDir));
    // A good file of the same trainer before the bad one: nothing of it may reach the store.
    const bool trl = text.contains("prompt") || name.endsWith(".csv");
    writeFile(dumpDir + "/1.jsonl", trl ? R"({"prompt": "q", "completion": "a", "step": 1})" "\n"
                                        : R"({"input": "q", "output": "a", "score": 1.0, "step": 1})" "\n");
    writeFile(dumpDir + "/" + name, text.toStdString());
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    store::ImportOptions o;
    if (format == "verl")
        o.format = store::DumpFormat::Verl;
    if (format == "weights")
        o.weights = {{"length", 1.0}};
    const std::string path = name.endsWith(".parquet") ? (dumpDir + "/" + name).toStdString()
                             : format == "weights"     ? (dumpDir + "/" + name).toStdString()
                                                       : dumpDir.toStdString();
    try {
        store::importRollouts(st, {path}, o);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find(dumpDir.toStdString()) != std::string::npos || format == "weights", message.c_str());
    }
    QVERIFY(st.runs().empty());
}

void TestRolloutImport::command()
{
    QTemporaryDir dir;
    const QString storePath = dir.path() + "/runs.sqlite";
    QProcess p;
    p.start(RWB_BINARY, {"import", "--input", QString::fromStdString(kData + "/verl"), "--store", storePath,
                         "--run-name", "cluster-run"});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(60000)));
    QCOMPARE(p.exitCode(), 0);
    const json report = json::parse(p.readAllStandardOutput().toStdString());
    QCOMPARE(report["format"], json("verl"));
    QCOMPARE(report["rollouts"], json(8));
    QCOMPARE(report["run_name"], json("cluster-run"));
    QCOMPARE(report["unmapped"][0]["field"], json("note"));

    // A bad file: exit 2, its place on stderr, the store as it was (one run).
    const QString bad = dir.path() + "/bad.jsonl";
    writeFile(bad, "{\"input\": \"q\", \"output\": \"a\", \"score\": [1]}\n");
    p.start(RWB_BINARY, {"import", "--input", bad, "--store", storePath});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(60000)));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(bad + ":1: field \"score\" must be a number or null, not array"), qPrintable(err));
    store::RunStore st(storePath.toStdString(), store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(st.runs().size(), size_t(1));

    p.start(RWB_BINARY, {"import", "--input", bad, "--store", storePath, "--format", "ray"});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(60000)));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("--format: \"ray\" is not auto, verl, trl or openrlhf"));
}

QTEST_APPLESS_MAIN(TestRolloutImport)
#include "tst_rolloutimport.moc"
