// rwb import: verl's rollout dumps, TRL's completions table (its parquet files, written by
// TRL itself through tests/reference/make_trl_completions.py; JSONL, CSV, a wandb table),
// OpenRLHF's samples (batch_inference's, its wandb table, its agent executor's results),
// prime-rl's episodes and NeMo-RL's train data into a run of the store. Test files under
// tests/data/import are written from each trainer's schema (verl's _dump_generations, TRL's
// log_completions table, OpenRLHF's batch_inference output; the README beside the newer ones
// names the source files and commits). Expected values worked by hand.
#include "data/jsonl.h"
#include "store/parquetreader.h"
#include "store/rolloutimport.h"
#include "store/runstore.h"
#include "testtime.h"
#include "tokenizer/bpetrainer.h"

#include <QProcess>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QStandardPaths>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <tuple>
#include <cerrno>
#include <cmath>
#include <csignal>
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

// The Python that reads the parquet files: the clone's .venv (tests/reference/setup.sh
// installs pyarrow there, with datasets), or $RWB_VENV's. Empty when it has no pyarrow.
QString pyarrowPython()
{
    const QString venv = qEnvironmentVariableIsEmpty("RWB_VENV") ? QStringLiteral(RWB_SOURCE_DIR "/.venv")
                                                                 : qEnvironmentVariable("RWB_VENV");
    const QString python = venv + "/bin/python";
    if (!QFileInfo(python).isExecutable())
        return {};
    QProcess p;
    p.start(python, {"-c", "import pyarrow"});
    if (!p.waitForFinished(rwbtest::scaledMs(120000)) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    return python;
}

} // namespace

class TestRolloutImport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void verlDump();
    void verlValidationDump();
    void trlTables();
    void trlParquet();
    void trlStepAsText();
    void trlToolCalls_data();
    void trlToolCalls();
    void parquetWithoutReader();
    void openRlhfSamples();
    void groupSizeAndWeights();
    void badInput_data();
    void badInput();
    void command();
    // prime-rl, NeMo-RL and OpenRLHF's newer dumps (issue 42).
    void primeRlEpisodes();
    void primeRlAllAndEval();
    void nemoRlTrainData();
    void openRlhfWandbTable();
    void openRlhfAgentRows();
    void wandbTablesFromTheLoggers();
    void badTokenInput_data();
    void badTokenInput();
    void badTokenizerAndTable();
    // Steps and eval rows.
    void trlModeColumnOverState();
    void stepFolderAboveInput();
    // The parquet reader's interpreter: tests that never need pyarrow (a stand-in Python
    // that speaks the reader's line protocol, or python3 with a made-up pyarrow).
    void fakeParquetReader_data();
    void fakeParquetReader();
    void fakeParquetImport();
    void fakeParquetReaderHangs();
    void parquetLimits();
    void parquetReaderIgnoresWorkingDir();
    void pyarrowVersionRefused();
    // The workbench's import form (issue 43): a bounded preview through the import's own
    // reading code, and a cancelled import that leaves nothing behind.
    void previewMatchesTheImport();
    void previewIsBounded();
    void previewLeavesParquetToTheImport();
    void previewFindsBadRowsItReads();
    void cancelledImportLeavesNothing();
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

// TRL's own tables (tests/data/import/trl_parquet, written by TRL 1.13's GRPOTrainer through
// tests/reference/make_trl_completions.py): 3 steps of 2 prompts × 3 completions, reward
// functions "digits" and "upper" (None for some completions), a log_extra column
// "upper_note", and an evaluation at step 3 whose rows TRL wrote over step 3's table
// (checkpoint-3/trainer_state.json logs it). The expected values are what that script
// prints after reading the files back with pyarrow: its totals are TRL's rule (nansum of
// the functions, None when all are None), its means and Bessel stds over the non-None
// totals, in double precision, as ours: compared within 1e-9. TRL's own logged metrics
// (in float32) agree with them within 1e-6.
void TestRolloutImport::trlParquet()
{
    const QString python = pyarrowPython();
    if (python.isEmpty())
        QSKIP("no Python with pyarrow in .venv (tests/reference/setup.sh installs it) or $RWB_VENV");
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    store::ImportOptions o;
    o.python = python.toStdString();
    const store::ImportReport r = store::importRollouts(st, {kData + "/trl_parquet/completions"}, o);
    QCOMPARE(r.format, store::DumpFormat::Trl);
    QCOMPARE(r.files.size(), size_t(2)); // completions_00001 and 00002; 00003 holds eval rows
    QCOMPARE(r.steps, int64_t(2));
    QCOMPARE(r.rollouts, int64_t(12));
    QCOMPARE(r.groups, int64_t(4));
    bool evalSkipped = false;
    for (const std::string &s : r.skipped)
        evalSkipped = evalSkipped
                      || (s.find("completions_00003.parquet: 6 eval rows") != std::string::npos
                          && s.find("checkpoint-3/trainer_state.json logs an evaluation at step 3") != std::string::npos
                          && s.find("--include-eval") != std::string::npos);
    QVERIFY(evalSkipped);
    QCOMPARE(mappingOf(r.mapped, "digits")->target, std::string("reward function"));
    QCOMPARE(mappingOf(r.mapped, "upper")->target, std::string("reward function"));
    QCOMPARE(mappingOf(r.mapped, "advantage")->target, std::string("advantage"));
    QCOMPARE(mappingOf(r.mapped, "step")->rows, int64_t(18)); // every row's step is read, the eval rows' too
    QCOMPARE(mappingOf(r.unmapped, "upper_note")->target, std::string("details"));

    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(12));
    // Step 1, row 1: digits None, upper 0.6000000238418579 (float32's 0.6): the total.
    QCOMPARE(rows[0].step, int64_t(1));
    QCOMPARE(rows[0].prompt, std::string("Q3:8-6="));
    QCOMPARE(rows[0].rollout.completion, std::string("YR\"urG"));
    QVERIFY(std::abs(rows[0].rollout.reward - 0.6000000238418579) < 1e-9);
    QVERIFY(std::abs(rows[0].rollout.advantage - 0.7066072821617126) < 1e-9); // TRL's, as logged
    QVERIFY(json::parse(rows[0].rollout.rewardsJson)["digits"].is_null());
    QCOMPARE(json::parse(rows[0].rollout.detailsJson), json::parse(R"({"upper_note": "scored"})"));
    // Row 3: both functions None: TRL (≥ 1.6) leaves its reward None and its advantage 0.
    QVERIFY(std::isnan(rows[2].rollout.reward));
    QCOMPARE(rows[2].rollout.advantage, 0.0);
    // Step 2, row 2: 0.1666666716337204 + 0.6666666865348816.
    QCOMPARE(rows[7].step, int64_t(2));
    QCOMPARE(rows[7].rollout.completion, std::string("X6<j'F"));
    QVERIFY(std::abs(rows[7].rollout.reward - 0.833333358168602) < 1e-9);
    // A completion whose last byte alone is no UTF-8 (token 95, byte 0xA1) comes as TRL
    // decoded it, with U+FFFD.
    QCOMPARE(rows[8].rollout.completion, std::string("SIh^\xEF\xBF\xBD="));

    QVERIFY(std::abs(metricAt(st, r.runId, "reward", 1) - 0.34666667580604554) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "reward", 1) - 0.3466666340827942) < 1e-6); // TRL's logged reward
    QVERIFY(std::abs(metricAt(st, r.runId, "reward_std", 1) - 0.1834847925863535) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "reward_std", 1) - 0.1834847778081894) < 1e-6); // TRL's
    QVERIFY(std::abs(metricAt(st, r.runId, "reward", 2) - 0.5133333444595337) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "reward_std", 2) - 0.2545147973614404) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "rewards/upper/mean", 1) - 0.3916666768491268) < 1e-9);
    QVERIFY(std::abs(metricAt(st, r.runId, "rewards/digits/mean", 2) - 0.1666666716337204) < 1e-9);

    // With --include-eval, step 3 is the evaluation's rows, marked so in their details.
    o.includeEval = true;
    const store::ImportReport withEval = store::importRollouts(st, {kData + "/trl_parquet/completions"}, o);
    QCOMPARE(withEval.steps, int64_t(3));
    QCOMPARE(withEval.rollouts, int64_t(18));
    const auto all = rolloutsOf(st, withEval.runId);
    QCOMPARE(all.size(), size_t(18));
    QCOMPARE(all[12].step, int64_t(3));
    QCOMPARE(all[12].prompt, std::string("E1:6*7="));
    QCOMPARE(json::parse(all[12].rollout.detailsJson)["mode"], json("eval"));
    QVERIFY(!json::parse(all[0].rollout.detailsJson).contains("mode"));
    QVERIFY(std::abs(metricAt(st, withEval.runId, "reward", 3) - 0.4333333472410838) < 1e-9);
    QVERIFY(std::abs(metricAt(st, withEval.runId, "reward", 3) - 0.4333333671092987) < 1e-6); // TRL's eval_reward

    // The output folder itself: its checkpoint's trainer_state.json is read for the
    // evaluation steps, and is not taken for a dump.
    o.includeEval = false;
    const store::ImportReport whole = store::importRollouts(st, {kData + "/trl_parquet"}, o);
    QCOMPARE(whole.rollouts, int64_t(12));
}

// TRL before 0.28 logs the step as text (str(global_step)), in the wandb table and in any
// JSONL made from it.
void TestRolloutImport::trlStepAsText()
{
    QTemporaryDir dir;
    const QString dump = dir.path() + "/completions";
    QVERIFY(QDir().mkpath(dump));
    writeFile(dump + "/completions_12_ab12.table.json",
              R"({"columns": ["step", "prompt", "completion", "acc", "advantage"],)"
              R"( "data": [["12", "q", "a", 1.0, 0.7], ["12", "q", "b", 0.0, -0.7]]})");
    writeFile(dump + "/completions_00013.jsonl", R"({"step": "13", "prompt": "q", "completion": "c", "acc": 1.0})" "\n");
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {dump.toStdString()}, {});
    QCOMPARE(r.steps, int64_t(2));
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(3));
    QCOMPARE(rows[0].step, int64_t(12));
    QCOMPARE(rows[2].step, int64_t(13));
    QCOMPARE(mappingOf(r.mapped, "step")->target, std::string("step"));
}

// A conversational completion whose assistant message is only tool calls (TRL's message
// format: {"type": "function", "function": {"name", "arguments"}}, no "content"), made by
// hand (TRL's own table holds decoded text) by tests/reference/make_trl_completions.py, as
// JSON lines and as pandas' parquet (where every message has every field, null where it
// lacks one).
void TestRolloutImport::trlToolCalls_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("jsonl") << "completions_00005.jsonl";
    QTest::newRow("parquet") << "completions_00005.parquet";
}

void TestRolloutImport::trlToolCalls()
{
    QFETCH(QString, file);
    store::ImportOptions o;
    if (file.endsWith(".parquet")) {
        const QString python = pyarrowPython();
        if (python.isEmpty())
            QSKIP("no Python with pyarrow in .venv (tests/reference/setup.sh installs it) or $RWB_VENV");
        o.python = python.toStdString();
    }
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {kData + "/trl_tool_calls/" + file.toStdString()}, o);
    QCOMPARE(r.rollouts, int64_t(3));
    QVERIFY(mappingOf(r.mapped, "completion")->target.find("tool calls") != std::string::npos);
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(3));
    QCOMPARE(rows[0].prompt, std::string("user: Who sent mail 3?"));
    // The call, the tool's reply and the answer, one message a line.
    const std::string &first = rows[0].rollout.completion;
    QVERIFY2(first.rfind("assistant: <tool_call>", 0) == 0, first.c_str());
    QVERIFY2(first.find("\"name\":\"lookup_sender\"") != std::string::npos, first.c_str());
    QVERIFY2(first.find("\"mail_id\":3") != std::string::npos, first.c_str());
    QVERIFY2(first.find("</tool_call>\ntool: Acme Corp\nassistant: <answer>Acme</answer>") != std::string::npos,
             first.c_str());
    // The messages themselves are kept in the details.
    const json details = json::parse(rows[0].rollout.detailsJson);
    QCOMPARE(details["completion"][0]["tool_calls"][0]["function"]["name"], json("lookup_sender"));
    QCOMPARE(details["completion"][1]["content"], json("Acme Corp"));
    // Only the call, and no content at all.
    QVERIFY2(rows[1].rollout.completion.rfind("assistant: <tool_call>", 0) == 0, rows[1].rollout.completion.c_str());
    QVERIFY(rows[1].rollout.completion.find('\n') == std::string::npos);
    QCOMPARE(rows[1].rollout.reward, 1.0); // correctness None + tool 1
    // A plain answer is as before, with nothing added to the details.
    QCOMPARE(rows[2].rollout.completion, std::string("assistant: <answer>Beta</answer>"));
    QVERIFY(!json::parse(rows[2].rollout.detailsJson).contains("completion"));
}

// A parquet file without a Python that can read it: the message names the file, the
// interpreter and what to do, and the store is left as it was.
void TestRolloutImport::parquetWithoutReader()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const std::string table = kData + "/trl_parquet/completions/completions_00001.parquet";
    store::ImportOptions o;
    o.python = (dir.path() + "/no-such-python").toStdString();
    try {
        store::importRollouts(st, {table}, o);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.rfind(table + ": parquet is read with Python's pyarrow", 0) == 0, message.c_str());
        QVERIFY2(message.find("cannot start " + o.python) != std::string::npos, message.c_str());
        QVERIFY2(message.find("pip install pyarrow") != std::string::npos, message.c_str());
        QVERIFY2(message.find("--python") != std::string::npos && message.find("RWB_PYTHON") != std::string::npos,
                 message.c_str());
    }
    QVERIFY(st.runs().empty());

    // A Python without pyarrow: python3 with no site-packages (-S).
    const QString python3 = QStandardPaths::findExecutable("python3");
    if (!python3.isEmpty()) {
        const QString wrapper = dir.path() + "/python-without-site";
        writeFile(wrapper, "#!/bin/sh\nexec " + python3.toStdString() + " -S \"$@\"\n");
        QFile::setPermissions(wrapper, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        o.python = wrapper.toStdString();
        try {
            store::importRollouts(st, {table}, o);
            QFAIL("no error");
        } catch (const data::InputException &e) {
            const std::string message = e.error().toString();
            QVERIFY2(message.rfind(table + ": parquet is read with Python's pyarrow, which ", 0) == 0, message.c_str());
            QVERIFY2(message.find("cannot import (ModuleNotFoundError: No module named 'pyarrow')") != std::string::npos,
                     message.c_str());
            QVERIFY2(message.find("pip install pyarrow") != std::string::npos, message.c_str());
        }
        QVERIFY(st.runs().empty());
    }

    // The command says the same and exits 2.
    QProcess p;
    p.start(RWB_BINARY, {"import", "--input", QString::fromStdString(table), "--store", dir.path() + "/cli.sqlite",
                         "--python", dir.path() + "/no-such-python"});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(60000)));
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QString::fromStdString(table) + ": parquet is read with Python's pyarrow"), qPrintable(err));

    // A file pyarrow cannot read: its reason, and the reader still reads the next ones.
    const QString python = pyarrowPython();
    if (python.isEmpty())
        QSKIP("no Python with pyarrow in .venv (tests/reference/setup.sh installs it) or $RWB_VENV");
    const QString bad = dir.path() + "/completions_00004.parquet";
    writeFile(bad, "PAR1 not a table");
    o.python = python.toStdString();
    try {
        store::importRollouts(st, {table, bad.toStdString()}, o);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.rfind(bad.toStdString() + ": pyarrow cannot read it as parquet (", 0) == 0, message.c_str());
    }
    QVERIFY(st.runs().empty());
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
    QTest::newRow("a step that is text but no number")
        << "c.jsonl" << R"({"prompt": "q", "completion": "a", "step": "twelve"})" << "auto"
        << "c.jsonl:1: field \"step\" must be an integer or its text (TRL before 0.28 logs it as text), not \"twelve\"";
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
    const std::string path = format == "weights" ? (dumpDir + "/" + name).toStdString() : dumpDir.toStdString();
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
    QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("--format: \"ray\" is not auto, verl, trl, openrlhf, prime-rl or nemo-rl"));

    // --tokenizer: a folder that is not there exits 2 naming it; the store keeps its one run.
    const QString noModel = dir.path() + "/no-model";
    p.start(RWB_BINARY, {"import", "--input", QString::fromStdString(kData + "/prime_rl"), "--store", storePath,
                         "--format", "prime-rl", "--tokenizer", noModel});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(60000)));
    QCOMPARE(p.exitCode(), 2);
    const QString tokErr = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(tokErr.contains(noModel + ": --tokenizer: no such folder"), qPrintable(tokErr));
    QCOMPARE(store::RunStore(storePath.toStdString(), store::RunStore::OpenMode::ReadOnly).runs().size(), size_t(1));
}

// ---- prime-rl, NeMo-RL and OpenRLHF's newer dumps (issue 42): per-token values. Floats
// go through the store as float32: per-token values are compared within 1e-6.

namespace {

constexpr double kTokenTol = 1e-6;

bool sameFloats(const std::vector<float> &got, const std::vector<double> &want)
{
    if (got.size() != want.size())
        return false;
    for (size_t i = 0; i < got.size(); ++i)
        if (std::abs(got[i] - want[i]) > kTokenTol)
            return false;
    return true;
}

// Every rollout of a run with its token arrays (a page of rollouts leaves them out).
std::vector<store::StoredRollout> withTokens(const store::RunStore &st, int64_t runId)
{
    std::vector<store::StoredRollout> out;
    for (const store::StoredRollout &r : rolloutsOf(st, runId))
        out.push_back(st.rollout(r.id));
    return out;
}

bool anyStartsWith(const std::vector<std::string> &lines, const std::string &prefix)
{
    return std::any_of(lines.begin(), lines.end(), [&](const std::string &l) { return l.rfind(prefix, 0) == 0; });
}

bool anyContains(const std::vector<std::string> &lines, const std::string &part)
{
    return std::any_of(lines.begin(), lines.end(), [&](const std::string &l) { return l.find(part) != std::string::npos; });
}

// A byte-level tokenizer whose ids 0–255 are the bytes (tst_tokenview trains the same).
std::string trainByteTokenizer(const QString &dir)
{
    tokenizer::BpeTrainerOptions o;
    o.vocabSize = 256 + 3 + 8;
    o.minPairCount = 1;
    tokenizer::BpeTrainer trainer(o);
    trainer.addText("ab ab ab abc");
    if (!trainer.train())
        return {};
    trainer.save(dir.toStdString());
    return dir.toStdString();
}

} // namespace

void TestRolloutImport::primeRlEpisodes()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {kData + "/prime_rl"}, {});
    QCOMPARE(r.format, store::DumpFormat::PrimeRl);
    // step_3/eval/ and step_3/train/all/ (beside effective/) are skipped.
    QCOMPARE(r.files.size(), size_t(2));
    QVERIFY(anyContains(r.skipped, "eval/effective/traces.jsonl: prime-rl's eval episodes"));
    QVERIFY(anyContains(r.skipped, "train/all/traces.jsonl: every finished episode, before advantages"));
    QCOMPARE(r.steps, int64_t(2));
    QCOMPARE(r.rollouts, int64_t(4));
    QCOMPARE(r.groups, int64_t(2));
    QCOMPARE(mappingOf(r.mapped, "group.id")->target, std::string("group"));
    QCOMPARE(mappingOf(r.mapped, "traces[].nodes[].advantages")->target, std::string("per-token advantages"));
    QCOMPARE(mappingOf(r.mapped, "traces[].nodes[].advantages")->rows, int64_t(4));
    QCOMPARE(mappingOf(r.mapped, "traces[].nodes[].reference_logprobs")->rows, int64_t(2)); // step 3's only
    QCOMPARE(mappingOf(r.mapped, "traces[].info.advantage")->target, std::string("advantage"));
    QVERIFY(mappingOf(r.unmapped, "run.work.step"));
    QVERIFY(anyStartsWith(r.computed, "steps: the step_N folders"));
    QVERIFY(!anyStartsWith(r.computed, "advantages: GRPO"));
    QVERIFY(!anyStartsWith(r.computed, "completion lengths in tokens"));
    QVERIFY(!json::parse(st.run(r.runId).configJson).contains("model"));

    const auto rows = withTokens(st, r.runId);
    QCOMPARE(rows.size(), size_t(4));
    // Step 3, group g-31: "Acme" (reward 1) and "Beta Corp" (0); prime-rl's advantages
    // reward − mean = ±0.5 on every sampled token.
    const store::Rollout &a1 = rows[0].rollout;
    QCOMPARE(rows[0].step, int64_t(3));
    QCOMPARE(rows[0].prompt, std::string("user: Who sent mail 1? Answer with the company."));
    QCOMPARE(rows[0].gold, std::string("Acme"));
    QCOMPARE(a1.completion, std::string("Acme"));
    QCOMPARE(a1.tokenIds, (std::vector<int32_t>{20, 21, 3})); // the scaffold token 2 (mask false) left out
    QVERIFY(sameFloats(a1.logprobsOld, {-0.1, -0.2, -0.05}));
    QVERIFY(sameFloats(a1.logprobsRef, {-0.15, -0.25, -0.05}));
    QVERIFY(sameFloats(a1.advantages, {0.5, 0.5, 0.5}));
    QVERIFY(a1.logprobsNew.empty() && a1.entropies.empty());
    QCOMPARE(a1.advantage, 0.5);
    QCOMPARE(a1.reward, 1.0);
    QCOMPARE(a1.completionTokens, 3);
    QCOMPARE(json::parse(a1.rewardsJson), json::parse(R"({"correct": 1.0})"));
    const json d1 = json::parse(a1.detailsJson);
    QCOMPARE(d1["episode"], json("e-a1"));
    QCOMPARE(d1["dispatch_step"], json(2));
    QCOMPARE(d1["metrics"]["num_turns"], json(1.0));
    QCOMPARE(rows[1].rollout.advantage, -0.5);
    QCOMPARE(rows[1].rollout.groupIndex, 0);
    QCOMPARE(rows[1].rollout.tokenIds.size(), size_t(4));
    // Step 4, group g-41: a tool call, the tool's answer, the reply; reward 1 + 0.2 × 0.5.
    const store::Rollout &b1 = rows[2].rollout;
    QCOMPARE(rows[2].step, int64_t(4));
    QCOMPARE(b1.completion, std::string("assistant: [tool call search({\"q\": \"mail 4\"})]\ntool: From: Delta\nassistant: Delta"));
    QCOMPARE(b1.tokenIds, (std::vector<int32_t>{40, 41, 3, 60, 3})); // the model's tokens only
    QVERIFY(sameFloats(b1.logprobsOld, {-0.3, -0.4, -0.02, -0.01, -0.02}));
    QVERIFY(sameFloats(b1.advantages, {0.45, 0.45, 0.45, 0.45, 0.45}));
    QVERIFY(b1.logprobsRef.empty());
    QVERIFY(std::abs(b1.reward - 1.1) < 1e-12);
    QCOMPARE(json::parse(b1.rewardsJson), json::parse(R"({"correct": 1.0, "format": 0.5})"));
    QCOMPARE(json::parse(b1.detailsJson)["reward_weights"], json::parse(R"({"format": 0.2})"));
    QVERIFY(!b1.truncated);
    // The reply cut by the length limit: finish_reason "length".
    QVERIFY(rows[3].rollout.truncated);
    QVERIFY(std::abs(rows[3].rollout.reward - 0.2) < 1e-12);
    QCOMPARE(rows[3].rollout.advantage, -0.45);
    // Step 4's mean reward (1.1 + 0.2) / 2; lengths from the sampled tokens (5 and 2).
    QVERIFY(std::abs(metricAt(st, r.runId, "reward", 4) - 0.65) < 1e-12);
    QCOMPARE(metricAt(st, r.runId, "completions/mean_length", 4), 3.5);
}

void TestRolloutImport::primeRlAllAndEval()
{
    // The "all" file alone: no advantages (logged on arrival), a failed episode without a trace.
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r =
        store::importRollouts(st, {kData + "/prime_rl/rollouts/step_3/train/all/traces.jsonl"}, {});
    QCOMPARE(r.rollouts, int64_t(2));
    QVERIFY(anyStartsWith(r.skipped, "1 episodes without a trace"));
    QVERIFY(anyStartsWith(r.computed, "advantages: GRPO"));
    const auto rows = withTokens(st, r.runId);
    QCOMPARE(rows[0].step, int64_t(3));
    // (1 − 0.5) / (√0.5 + 1e-4) = 0.707007
    QVERIFY(std::abs(rows[0].rollout.advantage - 0.707007) < 1e-5);
    QVERIFY(rows[0].rollout.advantages.empty());
    QVERIFY(sameFloats(rows[0].rollout.logprobsOld, {-0.1, -0.2, -0.05}));

    // --include-eval: the eval episode too (step 3, a group of its own).
    store::ImportOptions o;
    o.includeEval = true;
    const store::ImportReport e = store::importRollouts(st, {kData + "/prime_rl"}, o);
    QCOMPARE(e.rollouts, int64_t(5));
    QCOMPARE(e.groups, int64_t(3));
}

void TestRolloutImport::nemoRlTrainData()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {kData + "/nemo_rl"}, {});
    QCOMPARE(r.format, store::DumpFormat::NemoRl);
    QCOMPARE(r.steps, int64_t(2));
    QCOMPARE(r.rollouts, int64_t(6));
    QCOMPARE(r.groups, int64_t(3)); // by prompt text: mail 1, mail 2, mail 3
    QCOMPARE(mappingOf(r.mapped, "generation_logprobs")->target,
             std::string("log-probs old (the inference engine's, at sampling)"));
    QCOMPARE(mappingOf(r.mapped, "prev_logprobs")->rows, int64_t(6));
    QCOMPARE(mappingOf(r.unmapped, "idx")->target, std::string("not imported (the row's number in the file)"));
    QVERIFY(anyStartsWith(r.computed, "steps: from the file names"));
    QVERIFY(anyStartsWith(r.computed, "prompt of a multi-turn row"));
    QVERIFY(anyContains(r.skipped, "val_data_step0.jsonl: NeMo-RL's validation samples"));
    QVERIFY(!anyStartsWith(r.computed, "advantages: GRPO"));

    const auto rows = withTokens(st, r.runId);
    QCOMPARE(rows.size(), size_t(6));
    const store::Rollout &r0 = rows[0].rollout;
    QCOMPARE(rows[0].step, int64_t(1));
    QCOMPARE(rows[0].prompt, std::string("<|im_start|>user\nWho sent mail 1?<|im_end|>\n<|im_start|>assistant\n"));
    QCOMPARE(r0.completion, std::string("Acme<|im_end|>"));
    // token_loss_mask 1 at positions 4 and 5 (of 6 before the padding).
    QCOMPARE(r0.tokenIds, (std::vector<int32_t>{21, 2}));
    QVERIFY(sameFloats(r0.logprobsOld, {-0.25, -0.05}));
    QVERIFY(sameFloats(r0.logprobsNew, {-0.3, -0.05}));
    QVERIFY(sameFloats(r0.advantages, {1.0, 1.0}));
    QCOMPARE(r0.advantage, 1.0);
    QCOMPARE(r0.reward, 1.0);
    QCOMPARE(json::parse(r0.detailsJson), json::parse(R"({"sample_loss_mask": 1.0})"));
    QCOMPARE(rows[1].rollout.tokenIds, (std::vector<int32_t>{22, 23, 2}));
    QCOMPARE(rows[1].rollout.advantage, -1.0);
    QCOMPARE(rows[1].rollout.groupIndex, 0);
    QCOMPARE(rows[2].rollout.groupIndex, 1);
    QCOMPARE(rows[3].rollout.advantage, 0.0);
    // Step 1: rewards 1, 0, 1, 1 → 0.75; lengths 2, 3, 2, 2 → 2.25.
    QCOMPARE(metricAt(st, r.runId, "reward", 1), 0.75);
    QCOMPARE(metricAt(st, r.runId, "completions/mean_length", 1), 2.25);
    // Step 2's two-turn row: two runs of generated tokens (4–6 and 10–11), so the last three
    // messages are the completion; the tool answer's tokens (7–9) are not the model's.
    const store::Rollout &m = rows[4].rollout;
    QCOMPARE(rows[4].prompt, std::string("<|im_start|>user\nFind who sent mail 3.<|im_end|>\n<|im_start|>assistant\n"));
    QCOMPARE(m.completion, std::string("<tool_call>search(\"mail 3\")</tool_call><|im_end|>\n<|im_start|>user\n"
                                       "<tool_response>From: Delta</tool_response><|im_end|>\n<|im_start|>assistant\n"
                                       "Delta<|im_end|>"));
    QCOMPARE(m.tokenIds, (std::vector<int32_t>{30, 31, 2, 25, 2}));
    QVERIFY(sameFloats(m.logprobsOld, {-0.2, -0.3, -0.01, -0.4, -0.02}));
    QVERIFY(sameFloats(m.logprobsNew, {-0.25, -0.3, -0.01, -0.45, -0.02}));
    QCOMPARE(rows[5].rollout.groupIndex, rows[4].rollout.groupIndex); // the same prompt

    // prev_logprobs all 0 (force_on_policy_ratio skipped the trainer's pass): not stored.
    const QString skipped = dir.path() + "/train_data_step5.jsonl";
    writeFile(skipped, R"({"content": [["q", "a"]], "rewards": [1.0], "input_lengths": [3], "token_ids": [[1, 5, 6]], )"
                       R"("token_loss_mask": [[0, 1, 1]], "sample_loss_mask": [1.0], "advantages": [[0.5, 0.5, 0.5]], )"
                       R"("generation_logprobs": [[0.0, -0.1, -0.2]], "prev_logprobs": [[0.0, 0.0, 0.0]], "idx": 0})" "\n"
                       // The environment's answer after the model's one turn (tokens 3–4 not generated).
                       R"({"content": [["q", "a", "env"]], "rewards": [0.0], "input_lengths": [5], "token_ids": [[1, 5, 6, 7, 8, 0]], )"
                       R"("token_loss_mask": [[0, 1, 1, 0, 0, 0]], "sample_loss_mask": [1.0], "advantages": [[-0.5, -0.5, -0.5, -0.5, -0.5, -0.5]], )"
                       R"("generation_logprobs": [[0.0, -0.3, -0.4, 0.0, 0.0, 0.0]], "prev_logprobs": [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]], "idx": 1})" "\n");
    const store::ImportReport z = store::importRollouts(st, {skipped.toStdString()}, {});
    QVERIFY(anyStartsWith(z.computed, "prev_logprobs: all 0"));
    const auto zr = withTokens(st, z.runId);
    QCOMPARE(zr[0].step, int64_t(5));
    QVERIFY(zr[0].rollout.logprobsNew.empty());
    QVERIFY(sameFloats(zr[0].rollout.logprobsOld, {-0.1, -0.2}));
    QCOMPARE(zr[1].prompt, std::string("q"));
    QCOMPARE(zr[1].rollout.completion, std::string("aenv"));
    QCOMPARE(zr[1].rollout.tokenIds, (std::vector<int32_t>{5, 6}));

    // With --include-eval, the validation file too: its message dicts' texts, no tokens.
    store::ImportOptions o;
    o.includeEval = true;
    const store::ImportReport v = store::importRollouts(st, {kData + "/nemo_rl"}, o);
    QCOMPARE(v.rollouts, int64_t(7));
    const auto vr = withTokens(st, v.runId);
    QCOMPARE(vr[0].step, int64_t(0));
    QCOMPARE(vr[0].prompt, std::string("<|im_start|>user\nWho sent mail 5?<|im_end|>\n<|im_start|>assistant\n"));
    QCOMPARE(vr[0].rollout.completion, std::string("Zeta<|im_end|>"));
    QVERIFY(vr[0].rollout.tokenIds.empty());
}

void TestRolloutImport::openRlhfWandbTable()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {kData + "/openrlhf_wandb"}, {});
    QCOMPARE(r.format, store::DumpFormat::OpenRlhf);
    // The step-3 table repeats the step-2 table's two rows.
    QCOMPARE(r.rollouts, int64_t(3));
    QCOMPARE(r.steps, int64_t(3));
    QVERIFY(anyStartsWith(r.skipped, "2 rows an earlier wandb table already held"));
    QVERIFY(anyStartsWith(r.computed, "prompts: none in OpenRLHF's wandb table"));
    QCOMPARE(mappingOf(r.mapped, "global_step")->target, std::string("step"));
    const auto rows = withTokens(st, r.runId);
    QCOMPARE(rows[0].step, int64_t(1));
    QCOMPARE(rows[0].rollout.completion,
             std::string("system\nYou are a helpful assistant.\nuser\nWho sent mail 1?\nassistant\nAcme"));
    QCOMPARE(rows[0].prompt, std::string());
    QCOMPARE(rows[2].step, int64_t(3));
    QCOMPARE(rows[2].rollout.reward, -0.25);
    QCOMPARE(rows[2].rollout.advantage, 0.0); // one sample a step: a group of one
}

// W&B tables as the trainers' own loggers and wandb itself write them (offline; made by
// tests/reference/make_wandb_tables.py): verl's ValidationGenerationsLogger and
// OpenRLHF's WandbLogger. Before, verl's val/generations table (samples side by side,
// input_i / output_i / score_i) was refused: "cannot tell which trainer wrote this".
void TestRolloutImport::wandbTablesFromTheLoggers()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    // verl: two tables (both named generations_0_…: wandb's own step), the second
    // repeating the first's row; validations at steps 0 and 10 of three samples each.
    const store::ImportReport v = store::importRollouts(st, {kData + "/wandb/verl"}, {});
    QCOMPARE(v.format, store::DumpFormat::Verl);
    QCOMPARE(v.steps, int64_t(2));
    QCOMPARE(v.rollouts, int64_t(6));
    QVERIFY(anyStartsWith(v.skipped, "3 samples an earlier wandb table already held"));
    QVERIFY(anyStartsWith(v.computed, "samples: verl's val/generations table"));
    QCOMPARE(mappingOf(v.mapped, "input")->target, std::string("prompt"));
    QCOMPARE(mappingOf(v.unmapped, "sample")->rows, int64_t(6));
    const auto rows = withTokens(st, v.runId);
    QCOMPARE(rows.size(), size_t(6));
    // The values make_wandb_tables.py logs: step 0 (0.5, 0.0, 0.8), step 10 (1.0, 1.0, 0.8).
    const std::vector<std::tuple<int64_t, std::string, double>> want = {
        {0, "みどり製作所", 0.5},           {0, "不明", 0.0},
        {0, "さくら運送", 0.8},             {10, "株式会社みどり製作所", 1.0},
        {10, "株式会社あおぞら商会", 1.0}, {10, "さくら運送", 0.8}};
    for (size_t i = 0; i < want.size(); ++i) {
        QCOMPARE(rows[i].step, std::get<0>(want[i]));
        QCOMPARE(rows[i].rollout.completion, std::get<1>(want[i]));
        QCOMPARE(rows[i].rollout.reward, std::get<2>(want[i]));
        QCOMPARE(rows[i].rollout.advantage, 0.0); // one sample of each prompt: groups of one
        QCOMPARE(json::parse(rows[i].rollout.detailsJson)["sample"].get<int>(), int(i % 3) + 1);
        QCOMPARE(rows[i].rollout.rewardsJson, std::string("{}"));
    }
    QCOMPARE(rows[1].prompt, std::string("Who sent this mail? 差出人: info@aozora.jp"));

    // OpenRLHF: three tables (wandb's steps 0, 2, 4: log_train logs twice a step), each
    // holding the rows before; global_step 1, 2, 3 with rewards 0, 0.5, 1.
    const store::ImportReport o = store::importRollouts(st, {kData + "/wandb/openrlhf"}, {});
    QCOMPARE(o.format, store::DumpFormat::OpenRlhf);
    QCOMPARE(o.steps, int64_t(3));
    QCOMPARE(o.rollouts, int64_t(3));
    QVERIFY(anyStartsWith(o.skipped, "3 rows an earlier wandb table already held"));
    const auto orows = withTokens(st, o.runId);
    QCOMPARE(orows[0].step, int64_t(1));
    QCOMPARE(orows[1].rollout.reward, 0.5);
    QCOMPARE(orows[2].step, int64_t(3));
    QCOMPARE(orows[2].rollout.completion,
             std::string("user\nWho sent this mail? 差出人: sato@sakura-unso.jp\nassistant\n有限会社さくら運送"));
}

void TestRolloutImport::openRlhfAgentRows()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const std::string file = kData + "/openrlhf_agent/agent_samples.jsonl";
    const store::ImportReport r = store::importRollouts(st, {file}, {});
    QCOMPARE(r.format, store::DumpFormat::OpenRlhf);
    QCOMPARE(r.rollouts, int64_t(2));
    QCOMPARE(r.groups, int64_t(1));
    QVERIFY(anyStartsWith(r.computed, "completion text: not in the agent executor's rows"));
    QVERIFY(anyStartsWith(r.computed, "advantages: GRPO"));
    QCOMPARE(mappingOf(r.unmapped, "images")->target, std::string("not imported (images)"));
    auto rows = withTokens(st, r.runId);
    // The prompt is 23 bytes; the model's span [23, 27) is "Acme".
    QCOMPARE(rows[0].rollout.tokenIds, (std::vector<int32_t>{'A', 'c', 'm', 'e'}));
    QVERIFY(sameFloats(rows[0].rollout.logprobsOld, {-0.5, -0.1, -0.2, -0.05}));
    QCOMPARE(rows[0].rollout.completion, std::string());
    QCOMPARE(rows[0].gold, std::string("Acme"));
    QCOMPARE(json::parse(rows[0].rollout.rewardsJson), json::parse(R"({"scores": 1.0, "acc": 1.0})"));
    QVERIFY(std::abs(rows[0].rollout.advantage - 0.707007) < 1e-5);
    // Two turns: [23, 37) "search(mail 7)" and [49, 53) "Beta"; the tool's answer between is not the model's.
    const store::Rollout &m = rows[1].rollout;
    QCOMPARE(m.tokenIds.size(), size_t(14 + 4));
    QCOMPARE(m.tokenIds.front(), int32_t('s'));
    QCOMPARE(m.tokenIds[14], int32_t('B'));
    QCOMPARE(m.logprobsOld[13], -0.3f);
    QCOMPARE(m.logprobsOld[14], -1.5f);
    QVERIFY(m.truncated);
    QCOMPARE(m.completionTokens, 18);

    // With the tokenizer: the completion decoded from the first span on, and recorded as the model.
    const std::string tok = trainByteTokenizer(dir.path() + "/tok");
    QVERIFY(!tok.empty());
    store::ImportOptions o;
    o.tokenizerDir = tok;
    const store::ImportReport t = store::importRollouts(st, {file}, o);
    QVERIFY(anyStartsWith(t.computed, "completion text: observation_tokens from the first action_ranges start"));
    QCOMPARE(json::parse(st.run(t.runId).configJson)["model"], json(QDir(dir.path() + "/tok").absolutePath().toStdString()));
    rows = withTokens(st, t.runId);
    QCOMPARE(rows[0].rollout.completion, std::string("Acme"));
    QCOMPARE(rows[1].rollout.completion, std::string("search(mail 7)\nFrom: Beta\nBeta"));
}

void TestRolloutImport::badTokenInput_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("good");
    QTest::addColumn<QString>("bad");
    QTest::addColumn<QString>("expected");
    // Each case: a good row of the same trainer on line 1, the bad one on line 2.
    const QString prime = R"({"task": {"type": "T", "data": {}}, "traces": [{"nodes": [)"
                          R"({"message": {"role": "user", "content": "q"}, "token_ids": [1], "mask": [false], "logprobs": []}, )"
                          R"({"parent": 0, "message": {"role": "assistant", "content": "a"}, "sampled": true, "token_ids": [5, 6], )"
                          R"("mask": [true, true], "logprobs": [-0.1, -0.2]}], "rewards": {"r": {"score": 1.0, "weight": 1.0}}}]})";
    const QString nemo = R"({"content": [["q", "a"]], "rewards": [1.0], "input_lengths": [3], "token_ids": [[1, 5, 6]], )"
                         R"("token_loss_mask": [[0, 1, 1]], "advantages": [[0.5, 0.5, 0.5]], )"
                         R"("generation_logprobs": [[0.0, -0.1, -0.2]], "prev_logprobs": [[-1.0, -0.1, -0.2]], "idx": 0})";
    const QString agent = R"({"prompt": "q", "label": "a", "observation_tokens": [1, 5, 6], "action_ranges": [[1, 3]], )"
                          R"("rollout_log_probs": [0.0, -0.1, -0.2], "reward": 1.0, "scores": 1.0, "truncated": false, "extra_logs": {}})";
    auto bad = [](const QString &row, const QString &from, const QString &to) {
        QString b = row;
        b.replace(from, to);
        Q_ASSERT(b != row);
        return b;
    };
    QTest::newRow("prime-rl: fewer log-probs than sampled tokens")
        << "traces.jsonl" << prime << bad(prime, "[-0.1, -0.2]", "[-0.1]")
        << "traces.jsonl:2: field \"traces[0].nodes[1].logprobs\" has 1 values for 2 sampled tokens";
    QTest::newRow("prime-rl: a mask shorter than the token ids")
        << "traces.jsonl" << prime << bad(prime, "[true, true]", "[true]")
        << "traces.jsonl:2: field \"traces[0].nodes[1].mask\" has 1 values for 2 token_ids";
    QTest::newRow("prime-rl: a token id that is text")
        << "traces.jsonl" << prime << bad(prime, "[5, 6]", "[5, \"x\"]")
        << "traces.jsonl:2: field \"traces[0].nodes[1].token_ids[1]\" must be a token id";
    QTest::newRow("prime-rl: a parent after the node")
        << "traces.jsonl" << prime << bad(prime, "\"parent\": 0", "\"parent\": 5")
        << "traces.jsonl:2: field \"traces[0].nodes[1].parent\" must be the index of an earlier node";
    QTest::newRow("prime-rl: a score that is text")
        << "traces.jsonl" << prime << bad(prime, "\"score\": 1.0", "\"score\": \"high\"")
        << "traces.jsonl:2: field \"traces[0].rewards.r.score\" must be a number";
    QTest::newRow("prime-rl: traces that are no list")
        << "traces.jsonl" << prime << R"({"task": {"type": "T"}, "traces": {}})"
        << "traces.jsonl:2: field \"traces\" must be an array, not object";
    QTest::newRow("NeMo-RL: advantages shorter than the tokens")
        << "train_data_step1.jsonl" << nemo << bad(nemo, "[[0.5, 0.5, 0.5]]", "[[0.5, 0.5]]")
        << "train_data_step1.jsonl:2: field \"advantages\" has 2 values for 3 tokens";
    QTest::newRow("NeMo-RL: an input length past the tokens")
        << "train_data_step1.jsonl" << nemo << bad(nemo, "\"input_lengths\": [3]", "\"input_lengths\": [4]")
        << "train_data_step1.jsonl:2: field \"input_lengths\" is 4, more than the 3 tokens of \"token_loss_mask\"";
    QTest::newRow("NeMo-RL: a message that is a number")
        << "train_data_step1.jsonl" << nemo << bad(nemo, "[[\"q\", \"a\"]]", "[[\"q\", 5]]")
        << "train_data_step1.jsonl:2: field \"content[1]\" must be a message's text (a string), not number";
    QTest::newRow("NeMo-RL: a reward that is text")
        << "train_data_step1.jsonl" << nemo << bad(nemo, "\"rewards\": [1.0]", "\"rewards\": [\"x\"]")
        << "train_data_step1.jsonl:2: field \"rewards\" must be a number or null, not string";
    QTest::newRow("NeMo-RL: a mask value that is text")
        << "train_data_step1.jsonl" << nemo << bad(nemo, "[[0, 1, 1]]", "[[0, \"y\", 1]]")
        << "train_data_step1.jsonl:2: field \"token_loss_mask[1]\" must be a boolean or 0/1, not string";
    QTest::newRow("OpenRLHF agent: a span past the tokens")
        << "agent.jsonl" << agent << bad(agent, "[[1, 3]]", "[[1, 4]]")
        << "agent.jsonl:2: field \"action_ranges[0]\" must lie within the 3 observation_tokens";
    QTest::newRow("OpenRLHF agent: log-probs for fewer tokens")
        << "agent.jsonl" << agent << bad(agent, "[0.0, -0.1, -0.2]", "[0.0, -0.1]")
        << "agent.jsonl:2: field \"rollout_log_probs\" has 2 values for 3 observation_tokens";
    QTest::newRow("OpenRLHF agent: truncated as text")
        << "agent.jsonl" << agent << bad(agent, "\"truncated\": false", "\"truncated\": \"no\"")
        << "agent.jsonl:2: field \"truncated\" must be a boolean, not string";
}

void TestRolloutImport::badTokenInput()
{
    QFETCH(QString, name);
    QFETCH(QString, good);
    QFETCH(QString, bad);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const QString path = dir.path() + "/" + name;
    writeFile(path, (good + "\n" + bad + "\n").toStdString());
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    try {
        store::importRollouts(st, {path.toStdString()}, {});
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find(dir.path().toStdString()) != std::string::npos, message.c_str());
    }
    QVERIFY(st.runs().empty()); // the good row on line 1 was not written either
}

void TestRolloutImport::badTokenizerAndTable()
{
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    // A wandb table row whose reward is text: the file, the row and the field.
    const QString table = dir.path() + "/generated_samples_2_ab.table.json";
    writeFile(table, R"({"columns": ["global_step", "text", "reward"], "data": [[1, "t", 0.5], [2, "t2", "high"]]})");
    try {
        store::importRollouts(st, {table.toStdString()}, {});
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.find(table.toStdString() + ": row 2: field \"reward\" must be a number or null, not string")
                     != std::string::npos,
                 message.c_str());
    }
    // A tokenizer folder that does not exist, or holds no tokenizer.
    store::ImportOptions o;
    o.tokenizerDir = (dir.path() + "/no-such-model").toStdString();
    try {
        store::importRollouts(st, {kData + "/openrlhf_agent"}, o);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.find(o.tokenizerDir + ": --tokenizer: no such folder") != std::string::npos, message.c_str());
    }
    QVERIFY(QDir(dir.path()).mkpath("empty-model"));
    o.tokenizerDir = (dir.path() + "/empty-model").toStdString();
    try {
        store::importRollouts(st, {kData + "/openrlhf_agent"}, o);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.find(o.tokenizerDir + ": --tokenizer: cannot read a tokenizer") != std::string::npos, message.c_str());
    }
    QVERIFY(st.runs().empty());
}

// A table with a "mode" column is trusted over trainer_state.json: at a step the state logs
// an evaluation at, the rows marked "train" are imported and those marked "eval" skipped.
void TestRolloutImport::trlModeColumnOverState()
{
    QTemporaryDir dir;
    const QString dump = dir.path() + "/completions";
    QVERIFY(QDir().mkpath(dump));
    writeFile(dump + "/completions_00002.jsonl",
              R"({"step": 2, "prompt": "q", "completion": "a", "acc": 1.0, "mode": "train"})" "\n"
              R"({"step": 2, "prompt": "q", "completion": "b", "acc": 0.0, "mode": "train"})" "\n"
              R"({"step": 2, "prompt": "e", "completion": "c", "acc": 1.0, "mode": "eval"})" "\n");
    // Beside the completions folder, as TRL's output folder holds it: an evaluation at step 2.
    writeFile(dir.path() + "/trainer_state.json",
              R"({"global_step": 2, "log_history": [{"step": 2, "loss": 0.1}, {"step": 2, "eval_reward": 0.5}]})");
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, {dump.toStdString()}, {});
    QCOMPARE(r.steps, int64_t(1));
    QCOMPARE(r.rollouts, int64_t(2));
    QVERIFY(anyStartsWith(r.skipped, "1 eval rows (\"mode\": \"eval\""));
    QVERIFY(!anyContains(r.skipped, "logs an evaluation at step 2"));
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0].rollout.completion, std::string("a"));
    QCOMPARE(rows[1].rollout.completion, std::string("b"));
    QVERIFY(!json::parse(rows[0].rollout.detailsJson).contains("mode"));

    // --include-eval: the eval row too, marked so; the train rows are not.
    store::ImportOptions o;
    o.includeEval = true;
    const store::ImportReport all = store::importRollouts(st, {dump.toStdString()}, o);
    QCOMPARE(all.rollouts, int64_t(3));
    const auto withEval = rolloutsOf(st, all.runId);
    QCOMPARE(withEval.size(), size_t(3));
    QVERIFY(!json::parse(withEval[0].rollout.detailsJson).contains("mode"));
    QCOMPARE(json::parse(withEval[2].rollout.detailsJson)["mode"], json("eval"));
}

// The step of a file without a number in its name or a step field comes from a step_N
// folder inside the folder searched, never from one above it (a checkpoint's
// global_step_500/samples/ holds the dumps of several steps).
void TestRolloutImport::stepFolderAboveInput()
{
    QTemporaryDir dir;
    const QString ckpt = dir.path() + "/ckpt";
    const QString samples = ckpt + "/global_step_500/samples";
    QVERIFY(QDir().mkpath(samples));
    writeFile(samples + "/a.jsonl", R"({"input": "q1", "output": "a", "score": 1.0})" "\n");
    writeFile(samples + "/b.jsonl", R"({"input": "q2", "output": "b", "score": 0.0})" "\n");
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    auto stepsOf = [&](const store::ImportReport &r) {
        std::vector<int64_t> out;
        for (const store::StoredRollout &row : rolloutsOf(st, r.runId))
            out.push_back(row.step);
        return out;
    };

    // The folder itself: its files in the order of their names, steps 1 and 2.
    const store::ImportReport r = store::importRollouts(st, {samples.toStdString()}, {});
    QCOMPARE(r.steps, int64_t(2));
    QCOMPARE(stepsOf(r), (std::vector<int64_t>{1, 2}));
    QVERIFY(anyStartsWith(r.computed, "steps: from the file names"));
    // With a trailing slash, as a shell completes it.
    QCOMPARE(stepsOf(store::importRollouts(st, {samples.toStdString() + "/"}, {})), (std::vector<int64_t>{1, 2}));
    // A file named: step 1, not 500.
    QCOMPARE(stepsOf(store::importRollouts(st, {(samples + "/b.jsonl").toStdString()}, {})), (std::vector<int64_t>{1}));
    // A folder above it: global_step_500 is inside the search, so both files are step 500.
    const store::ImportReport above = store::importRollouts(st, {ckpt.toStdString()}, {});
    QCOMPARE(above.steps, int64_t(1));
    QCOMPARE(stepsOf(above), (std::vector<int64_t>{500, 500}));

    // prime-rl's layout, named as a file or found in a folder searched below the step folder.
    const QString prime = ckpt + "/global_step_500/rollouts/step_7/train/effective";
    QVERIFY(QDir().mkpath(prime));
    QVERIFY(QFile::copy(QString::fromStdString(kData + "/prime_rl/rollouts/step_4/train/effective/traces.jsonl"),
                        prime + "/traces.jsonl"));
    store::ImportOptions o;
    o.format = store::DumpFormat::PrimeRl;
    QCOMPARE(stepsOf(store::importRollouts(st, {(prime + "/traces.jsonl").toStdString()}, o)),
             (std::vector<int64_t>{7, 7}));
    QCOMPARE(stepsOf(store::importRollouts(st, {(ckpt + "/global_step_500/rollouts/step_7/train").toStdString()}, o)),
             (std::vector<int64_t>{7, 7}));
}

namespace {

// The stand-in for the Python that reads parquet files: a shell script that speaks the
// reader's line protocol. It writes its process id to <dir>/pid and each path it is asked
// for (in hex, as the reader sends it) to <dir>/asked, says `hello`, and answers each path
// with `answer`, or runs `respond` (shell, where $D is `dir`) where one is given.
QString fakePython(const QString &dir, const QByteArray &hello, const QByteArray &answer,
                   const QByteArray &respond = {})
{
    writeFile(dir + "/hello", hello.toStdString() + "\n");
    writeFile(dir + "/answer", answer.toStdString());
    const std::string d = dir.toStdString();
    const QString script = dir + "/fake-python";
    writeFile(script, "#!/bin/sh\n"
                      "D='" + d + "'\n"
                      "echo $$ > \"$D/pid\"\n"
                      "cat \"$D/hello\"\n"
                      "while read -r hex; do\n"
                      "  echo \"$hex\" >> \"$D/asked\"\n"
                      "  " + (respond.isEmpty() ? std::string("cat \"$D/answer\"") : respond.toStdString()) + "\n"
                      "done\n");
    QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return script;
}

// The process id a stand-in wrote to `file`; 0 when none.
pid_t pidIn(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return static_cast<pid_t>(f.readAll().trimmed().toLongLong());
}

// Whether the process has ended and been reaped: no such process any more (a zombie,
// ended but not reaped, still answers).
bool reaped(pid_t pid)
{
    return pid > 0 && ::kill(pid, 0) == -1 && errno == ESRCH;
}

// Whether the process has ended (reaped, or a zombie its parent, not us, is to reap).
bool ended(pid_t pid)
{
    if (reaped(pid))
        return true;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close >= 0 && s.mid(close + 2, 1) == "Z";
}

const QByteArray kHello = R"({"rwb_parquet": 1, "python": "/opt/fake/python", "version": "3.11.0", "pyarrow": "15.0.0"})";
const QByteArray kHead = R"({"columns": ["step", "prompt", "completion", "acc"], "rows": 2})" "\n";
const QByteArray kRow1 = R"([3, "q", "a", 1.0])" "\n";
const QByteArray kRow2 = R"([3, "q", "b", null])" "\n";

} // namespace

// The reader against a stand-in: how it reads a table, and what it says (naming the file)
// and does with the interpreter when the interpreter writes something wrong. `killed`: the
// interpreter is ended and reaped at once (what is left of the table is still in its
// pipe); otherwise it is kept for the next file. Either way the reader's end ends it.
void TestRolloutImport::fakeParquetReader_data()
{
    QTest::addColumn<QByteArray>("hello");
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<QByteArray>("respond");
    QTest::addColumn<int>("rows");       // read, where no error
    QTest::addColumn<QString>("error");  // a part of the message; "" none
    QTest::addColumn<bool>("killed");
    QTest::addColumn<qulonglong>("maxRows");  // 0: ParquetLimits' own
    QTest::addColumn<qulonglong>("maxBytes"); // 0: ParquetLimits' own

    QTest::newRow("a table") << kHello << kHead + kRow1 + kRow2 << QByteArray() << 2 << "" << false << 0ull << 0ull;
    QTest::newRow("a short row") << kHello << kHead + kRow1 + R"([3, "q", "b"])" "\n" << QByteArray() << 0
                                 << "row 2: not one value per column" << true << 0ull << 0ull;
    QTest::newRow("a row that is no JSON") << kHello << kHead + kRow1 + "[3, \"q\n" << QByteArray() << 0
                                           << "row 2: " << true << 0ull << 0ull;
    QTest::newRow("ends in the rows") << kHello << kHead + kRow1 << QByteArray("cat \"$D/answer\"; exit 0")
                                      << 0 << "ended while reading its rows" << true << 0ull << 0ull;
    QTest::newRow("something else") << kHello << QByteArray("Traceback (most recent call last):\n") << QByteArray()
                                    << 0 << "wrote something else: \"Traceback" << true << 0ull << 0ull;
    QTest::newRow("pyarrow's error") << kHello << QByteArray(R"({"error": "ArrowInvalid: Parquet magic bytes not found"})" "\n")
                                     << QByteArray() << 0 << "pyarrow cannot read it as parquet (ArrowInvalid: Parquet magic bytes not found)"
                                     << false << 0ull << 0ull;
    // A row group that cannot be read after the first rows went out (the rows stream).
    QTest::newRow("pyarrow's error in the rows")
        << kHello << kHead + kRow1 + R"({"error": "OSError: Corrupt snappy compressed data."})" "\n" << QByteArray() << 0
        << "pyarrow cannot read it as parquet (OSError: Corrupt snappy compressed data.)" << false << 0ull << 0ull;
    // A row of more than Subprocess::kMaxLine (256 MiB) bytes without a newline.
    QTest::newRow("a row too long")
        << kHello << kHead
        << QByteArray("cat \"$D/answer\"; head -c 270000000 /dev/zero | tr '\\0' x; echo")
        << 0 << "a line of more than 256 MiB while reading its rows" << true << 0ull << 0ull;
    // A count no table has: refused, never reserved.
    QTest::newRow("rows past the cap") << kHello << QByteArray(R"({"columns": ["a"], "rows": 18446744073709551615})" "\n")
                                       << QByteArray() << 0 << "18446744073709551615 rows, more than the 5000000" << true << 0ull << 0ull;
    // The interpreter's own checks of the file's metadata against the caps.
    QTest::newRow("too many rows") << kHello << QByteArray(R"({"limit": "rows", "rows": 7000000})" "\n") << QByteArray()
                                   << 0 << "7000000 rows, more than the 5000000" << false << 0ull << 0ull;
    QTest::newRow("too many bytes") << kHello << QByteArray(R"({"limit": "bytes", "bytes": 9000000000})" "\n")
                                    << QByteArray() << 0 << "9000000000 bytes" << false << 0ull << 0ull;
    // The caps checked as the rows come (a Python that does not check them): the count, and
    // the JSON text: [3, "q", "a", 1.0] and its newline are 19 bytes, [3, "q", "b", null] 20.
    QTest::newRow("rows past a cap of 1") << kHello << kHead + kRow1 + kRow2 << QByteArray() << 0
                                          << "the table has 2 rows, more than the 1 rwb import reads from one table" << true
                                          << 1ull << 0ull;
    QTest::newRow("bytes past a cap of 20") << kHello << kHead + kRow1 + kRow2 << QByteArray() << 0
                                            << "the table's rows come to more than 20 bytes as JSON text (by row 2)" << true
                                            << 0ull << 20ull;
    QTest::newRow("bytes at a cap of 39") << kHello << kHead + kRow1 + kRow2 << QByteArray() << 2 << "" << false << 0ull
                                          << 39ull;
    // pyarrow 0.14 to 14.0.0 runs code a crafted file carries (CVE-2023-47248), unless
    // pyarrow_hotfix is imported.
    QByteArray old = kHello;
    old.replace("15.0.0", "14.0.0");
    QTest::newRow("pyarrow 14.0.0") << old << kHead + kRow1 + kRow2 << QByteArray() << 0
                                    << "pyarrow 14.0.0, which runs code a crafted parquet file carries (CVE-2023-47248)"
                                    << true << 0ull << 0ull;
    QByteArray hotfixed = kHello;
    hotfixed.replace(R"("15.0.0")", R"("0.17.1", "hotfix": true)");
    QTest::newRow("pyarrow 0.17.1 and pyarrow_hotfix") << hotfixed << kHead + kRow1 + kRow2 << QByteArray() << 2 << ""
                                                        << false << 0ull << 0ull;
    QByteArray fixed = kHello;
    fixed.replace("15.0.0", "14.0.1");
    QTest::newRow("pyarrow 14.0.1") << fixed << kHead + kRow1 + kRow2 << QByteArray() << 2 << "" << false << 0ull << 0ull;
    QByteArray unknown = kHello;
    unknown.replace(R"(, "pyarrow": "15.0.0")", "");
    QTest::newRow("pyarrow of no version") << unknown << kHead + kRow1 + kRow2 << QByteArray() << 0
                                           << "pyarrow of an unknown version" << true << 0ull << 0ull;
}

void TestRolloutImport::fakeParquetReader()
{
    QFETCH(QByteArray, hello);
    QFETCH(QByteArray, answer);
    QFETCH(QByteArray, respond);
    QFETCH(int, rows);
    QFETCH(QString, error);
    QFETCH(bool, killed);
    QFETCH(qulonglong, maxRows);
    QFETCH(qulonglong, maxBytes);
    QTemporaryDir dir;
    const QString python = fakePython(dir.path(), hello, answer, respond);
    const std::string table = (dir.path() + "/completions_00003.parquet").toStdString();
    store::ParquetLimits limits;
    if (maxRows > 0)
        limits.maxRows = maxRows;
    if (maxBytes > 0)
        limits.maxBytes = maxBytes;
    pid_t pid = 0;
    {
        store::ParquetReader reader(python.toStdString(), limits);
        try {
            const store::ParquetReader::Table t = reader.read(table);
            QVERIFY2(error.isEmpty(), "no error");
            QCOMPARE(t.columns, (std::vector<std::string>{"step", "prompt", "completion", "acc"}));
            QCOMPARE(t.rows.size(), size_t(rows));
            QCOMPARE(t.rows[1], nlohmann::ordered_json::parse(R"([3, "q", "b", null])"));
        } catch (const data::InputException &e) {
            const std::string message = e.error().toString();
            QVERIFY2(!error.isEmpty(), message.c_str());
            QVERIFY2(message.rfind(table + ": ", 0) == 0, message.c_str());
            QVERIFY2(message.find(error.toStdString()) != std::string::npos, message.c_str());
        }
        pid = pidIn(dir.path() + "/pid");
        QVERIFY(pid > 0);
        QCOMPARE(reaped(pid), killed);
    }
    QVERIFY(reaped(pid));
}

// A whole import through the stand-in: the table's rows become TRL's rollouts, and the
// path goes to the interpreter in hex (any bytes a file name may have).
void TestRolloutImport::fakeParquetImport()
{
    QTemporaryDir dir;
    const QString python = fakePython(dir.path(), kHello, kHead + kRow1 + kRow2);
    const QString table = dir.path() + "/completions_00003.parquet";
    writeFile(table, "PAR1");
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    store::ImportOptions o;
    o.python = python.toStdString();
    const store::ImportReport r = store::importRollouts(st, {table.toStdString()}, o);
    QCOMPARE(r.format, store::DumpFormat::Trl);
    QCOMPARE(r.rollouts, int64_t(2));
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0].step, int64_t(3));
    QCOMPARE(rows[0].rollout.completion, std::string("a"));
    QCOMPARE(rows[0].rollout.reward, 1.0);
    QVERIFY(std::isnan(rows[1].rollout.reward)); // its one function returned None
    QFile asked(dir.path() + "/asked");
    QVERIFY(asked.open(QIODevice::ReadOnly));
    QCOMPARE(asked.readAll(), table.toUtf8().toHex() + "\n");
    QVERIFY(reaped(pidIn(dir.path() + "/pid"))); // the import's end ended it
}

// The reader's Python never imports from the folder it runs in: `python -c` puts that
// folder first on sys.path, where a json.py or pyarrow.py of the user's would run.
void TestRolloutImport::parquetReaderIgnoresWorkingDir()
{
    QString python = pyarrowPython();
    const bool withPyarrow = !python.isEmpty();
    if (!withPyarrow)
        python = QStandardPaths::findExecutable("python3");
    if (python.isEmpty())
        QSKIP("no python3");
    QTemporaryDir dir;
    const QString marker = dir.path() + "/ran";
    for (const char *module : {"json", "pyarrow", "math"})
        writeFile(dir.path() + "/" + module + ".py",
                  "open(" + json(marker.toStdString()).dump() + ", 'a').write('" + module + "\\n')\nraise SystemExit(3)\n");
    const QString table = QString::fromStdString(kData + "/trl_parquet/completions/completions_00001.parquet");
    // The interpreter as it is (Python 3.11 and later leave the folder off sys.path for
    // PYTHONSAFEPATH, which the reader sets), and without PYTHONSAFEPATH, as an older
    // Python is: the script itself takes the folder out.
    const QString unsafe = dir.path() + "/python-unsafe-path";
    writeFile(unsafe, "#!/bin/sh\nunset PYTHONSAFEPATH\nexec " + python.toStdString() + " \"$@\"\n");
    QFile::setPermissions(unsafe, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    for (const QString &interpreter : {python, unsafe}) {
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(RWB_BINARY, {"import", "--input", table, "--store", dir.path() + "/runs.sqlite", "--python", interpreter});
        QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(!QFileInfo::exists(marker), qPrintable(interpreter + ": " + err));
        if (withPyarrow) {
            QCOMPARE(p.exitCode(), 0);
            QCOMPARE(json::parse(p.readAllStandardOutput().toStdString())["rollouts"], json(6));
        } else {
            QCOMPARE(p.exitCode(), 2);
            QVERIFY2(err.contains("cannot import (ModuleNotFoundError: No module named 'pyarrow')"), qPrintable(err));
        }
    }
}

// The reader's own Python script against python3 with a made-up pyarrow 13.0.0 (no
// pyarrow needed): refused, naming the file and what to install; with pyarrow_hotfix
// beside it, the script imports it (it writes a marker) and goes on.
void TestRolloutImport::pyarrowVersionRefused()
{
    const QString python3 = QStandardPaths::findExecutable("python3");
    if (python3.isEmpty())
        QSKIP("no python3");
    QTemporaryDir dir;
    const QString site = dir.path() + "/site";
    QVERIFY(QDir().mkpath(site + "/pyarrow"));
    writeFile(site + "/pyarrow/__init__.py", "__version__ = '13.0.0'\n");
    writeFile(site + "/pyarrow/parquet.py", "");
    const QString python = dir.path() + "/python-with-old-pyarrow";
    writeFile(python, "#!/bin/sh\nPYTHONPATH='" + site.toStdString() + "' exec " + python3.toStdString() + " \"$@\"\n");
    QFile::setPermissions(python, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const std::string table = (dir.path() + "/completions_00001.parquet").toStdString();
    {
        store::ParquetReader reader(python.toStdString());
        try {
            reader.read(table);
            QFAIL("no error");
        } catch (const data::InputException &e) {
            const std::string message = e.error().toString();
            QVERIFY2(message.rfind(table + ": parquet is read with Python's pyarrow, and ", 0) == 0, message.c_str());
            QVERIFY2(message.find("has pyarrow 13.0.0, which runs code a crafted parquet file carries (CVE-2023-47248)")
                         != std::string::npos,
                     message.c_str());
            QVERIFY2(message.find("pip install") != std::string::npos && message.find("pyarrow_hotfix") != std::string::npos,
                     message.c_str());
        }
        // Every later read says the same, without starting the interpreter again.
        QVERIFY_THROWS_EXCEPTION(data::InputException, reader.read(table));
    }

    const QString marker = dir.path() + "/hotfix-imported";
    writeFile(site + "/pyarrow_hotfix.py", "open(" + json(marker.toStdString()).dump() + ", 'w').write('yes')\n");
    store::ParquetReader reader(python.toStdString());
    try {
        reader.read(table); // the made-up pyarrow cannot read it: pq has no ParquetFile
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.rfind(table + ": pyarrow cannot read it as parquet (AttributeError", 0) == 0, message.c_str());
    }
    QVERIFY(QFileInfo::exists(marker));
}

// An interpreter that stays silent past the reader's time limit, as it starts or while it
// reads: the message says so, naming the file, and it is ended and reaped with what it
// started.
void TestRolloutImport::fakeParquetReaderHangs()
{
    QTemporaryDir dir;
    const std::string table = (dir.path() + "/completions_00003.parquet").toStdString();
    store::ParquetLimits limits;
    limits.startTimeout = std::chrono::seconds(1);
    limits.readTimeout = std::chrono::seconds(1);
    const QByteArray sleep = "sleep 600 & echo $! > \"$D/sleep-pid\"; wait";

    const QString reading = fakePython(dir.path(), kHello, {}, sleep);
    QElapsedTimer timer;
    timer.start();
    {
        store::ParquetReader reader(reading.toStdString(), limits);
        try {
            reader.read(table);
            QFAIL("no error");
        } catch (const data::InputException &e) {
            const std::string message = e.error().toString();
            QVERIFY2(message.rfind(table + ": " + reading.toStdString() + " (reading parquet with pyarrow) wrote nothing "
                                   "for 1 s while reading the file (killed by signal 9", 0) == 0,
                     message.c_str());
        }
        QVERIFY(reaped(pidIn(dir.path() + "/pid")));
        // The grandchild gets its SIGKILL with its group; on a loaded 2-core machine it can
        // still be exiting when read() returns (seen: 2 runs of 3 on an AMD EPYC, AVX2).
        const pid_t sleeper = pidIn(dir.path() + "/sleep-pid");
        QTRY_VERIFY_WITH_TIMEOUT(ended(sleeper), rwbtest::scaledMs(5000));
    }
    QVERIFY(timer.elapsed() < rwbtest::scaledMs(30000));

    const QString starting = dir.path() + "/silent-python";
    writeFile(starting, "#!/bin/sh\nD='" + dir.path().toStdString() + "'\necho $$ > \"$D/pid\"\n" + sleep.toStdString() + "\n");
    QFile::setPermissions(starting, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QFile::remove(dir.path() + "/pid");
    QFile::remove(dir.path() + "/sleep-pid");
    store::ParquetReader reader(starting.toStdString(), limits);
    try {
        reader.read(table);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.rfind(table + ": parquet is read with Python's pyarrow, and " + starting.toStdString()
                                   + " did not start within 1 s",
                               0) == 0,
                 message.c_str());
    }
    QVERIFY(reaped(pidIn(dir.path() + "/pid")));
    const pid_t sleeper = pidIn(dir.path() + "/sleep-pid");
    QTRY_VERIFY_WITH_TIMEOUT(ended(sleeper), rwbtest::scaledMs(5000));
}

// The reader's script with pyarrow: a table of several batches (1024 rows each) streamed
// whole, and the caps checked against the file's metadata before a row is read (the
// interpreter is kept for the next file).
void TestRolloutImport::parquetLimits()
{
    const QString python = pyarrowPython();
    if (python.isEmpty())
        QSKIP("no Python with pyarrow in .venv (tests/reference/setup.sh installs it) or $RWB_VENV");
    QTemporaryDir dir;
    const QString big = dir.path() + "/completions_00007.parquet";
    QProcess p;
    p.start(python, {"-c", "import sys, pyarrow as pa, pyarrow.parquet as pq\n"
                           "pq.write_table(pa.table({'step': [7] * 2500, 'i': list(range(2500))}), sys.argv[1],"
                           " row_group_size=1000)\n",
                     big});
    QVERIFY(p.waitForFinished(rwbtest::scaledMs(120000)));
    QCOMPARE(p.exitCode(), 0);
    {
        store::ParquetReader reader(python.toStdString());
        const store::ParquetReader::Table t = reader.read(big.toStdString());
        QCOMPARE(t.columns, (std::vector<std::string>{"step", "i"}));
        QCOMPARE(t.rows.size(), size_t(2500));
        QCOMPARE(t.rows[1024], nlohmann::ordered_json::parse("[7, 1024]"));
        QCOMPARE(t.rows[2499], nlohmann::ordered_json::parse("[7, 2499]"));
    }

    const std::string six = kData + "/trl_parquet/completions/completions_00001.parquet";
    const std::string three = kData + "/trl_tool_calls/completions_00005.parquet";
    store::ParquetLimits limits;
    limits.maxRows = 5;
    store::ParquetReader reader(python.toStdString(), limits);
    try {
        reader.read(six);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().toString(), six + ": the table has 6 rows, more than the 5 rwb import reads from one table: "
                                             "split it into smaller files");
    }
    QCOMPARE(reader.read(three).rows.size(), size_t(3));

    limits.maxRows = store::ParquetLimits::kMaxRows;
    limits.maxBytes = 100;
    store::ParquetReader small(python.toStdString(), limits);
    try {
        small.read(big.toStdString());
        QFAIL("no error");
    } catch (const data::InputException &e) {
        const std::string message = e.error().toString();
        QVERIFY2(message.rfind(big.toStdString() + ": the table has ", 0) == 0, message.c_str());
        QVERIFY2(message.find(" bytes of column data (uncompressed), more than the 100 rwb import reads") != std::string::npos,
                 message.c_str());
    }
}

// A preview that reads the whole dump reports what the import reports: the same format,
// files, mapping and counts; its rows are the import's rollouts in the order read.
void TestRolloutImport::previewMatchesTheImport()
{
    const std::vector<std::string> paths = {kData + "/trl_jsonl"};
    const store::ImportPreview p = store::previewImport(paths, {}, 200);
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    const store::ImportReport r = store::importRollouts(st, paths, {});
    QCOMPARE(p.report.format, store::DumpFormat::Trl);
    QCOMPARE(p.report.runId, int64_t(0));
    QCOMPARE(p.report.runName, std::string("trl_jsonl"));
    QVERIFY(!p.partial);
    QVERIFY(p.notRead.empty());
    QCOMPARE(p.allFiles.size(), size_t(3)); // completions_00001, 00002 (a repeat), 00003
    QCOMPARE(p.report.files, r.files);
    QCOMPARE(p.report.skipped, r.skipped);
    QCOMPARE(p.report.computed, r.computed);
    QCOMPARE(p.report.steps, r.steps);
    QCOMPARE(p.report.rollouts, r.rollouts);
    QCOMPARE(p.report.groups, r.groups);
    const auto same = [](const std::vector<store::FieldMapping> &a, const std::vector<store::FieldMapping> &b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const store::FieldMapping &x, const store::FieldMapping &y) {
            return x.field == y.field && x.target == y.target && x.rows == y.rows;
        });
    };
    QVERIFY(same(p.report.mapped, r.mapped));
    QVERIFY(same(p.report.unmapped, r.unmapped));
    // By hand: 00001's four rows, 00002 skipped (the same rollouts), 00003's two train rows.
    QCOMPARE(p.rows.size(), size_t(6));
    QCOMPARE(p.rows[1].file, kData + "/trl_jsonl/completions/completions_00001.jsonl");
    QCOMPARE(p.rows[1].line, size_t(2));
    QCOMPARE(p.rows[1].step, int64_t(1));
    QCOMPARE(p.rows[1].sample.prompt, std::string("Who sent mail 1?"));
    QCOMPARE(p.rows[1].sample.completion, std::string("Acme, I think"));
    QCOMPARE(p.rows[1].sample.reward, 0.0); // 0 + None
    QCOMPARE(p.rows[1].sample.components.size(), size_t(2));
    QVERIFY(std::isnan(p.rows[1].sample.components[1].second)); // format_reward: None
    QCOMPARE(*p.rows[1].sample.advantage, -0.7071);
    QCOMPARE(p.rows[4].step, int64_t(3));
    QCOMPARE(p.rows[4].sample.reward, 1.5);
    const auto rows = rolloutsOf(st, r.runId);
    QCOMPARE(rows.size(), p.rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
        QCOMPARE(rows[i].rollout.completion, p.rows[i].sample.completion);
        QCOMPARE(rows[i].step, p.rows[i].step);
    }
}

// A preview reads the first rows only: of a JSON-lines file its first records, of a CSV
// file as many records, with a quoted field's line breaks, and then no further file.
void TestRolloutImport::previewIsBounded()
{
    const store::ImportPreview p = store::previewImport({kData + "/trl_jsonl"}, {}, 3);
    QVERIFY(p.partial);
    QCOMPARE(p.allFiles.size(), size_t(3));
    QCOMPARE(p.report.files.size(), size_t(1));
    QCOMPARE(p.rows.size(), size_t(3));
    QCOMPARE(p.report.rollouts, int64_t(3));
    QCOMPARE(p.rows[2].sample.completion, std::string("<answer>Beta</answer>"));

    // The CSV's first record spans two lines (a quoted line break): the preview reads on
    // (here to the end: the file is read whole) and lists one row.
    const store::ImportPreview csv = store::previewImport({kData + "/trl_csv"}, {}, 1);
    QCOMPARE(csv.report.format, store::DumpFormat::Trl);
    QVERIFY(!csv.partial);
    QCOMPARE(csv.report.rollouts, int64_t(2));
    QCOMPARE(csv.rows.size(), size_t(1));
    QCOMPARE(csv.rows[0].line, size_t(2));
    QCOMPARE(csv.rows[0].sample.completion,
             std::string("<think>first line\r\nsecond, with a comma and a \"quote\"</think><answer>Eta</answer>"));
    const store::ImportPreview whole = store::previewImport({kData + "/trl_csv"}, {}, 5);
    QVERIFY(!whole.partial);
    QCOMPARE(whole.rows.size(), size_t(2));
    QCOMPARE(whole.rows[1].line, size_t(4));
    QCOMPARE(whole.rows[1].sample.reward, 0.0); // 0.0 + None
}

void TestRolloutImport::previewLeavesParquetToTheImport()
{
    // Reading parquet starts Python: the preview lists the tables and reads none of them,
    // whatever Python there is; nothing it could read is no error.
    store::ImportOptions o;
    o.python = "/nonexistent/python3";
    const store::ImportPreview p = store::previewImport({kData + "/trl_parquet/completions"}, o, 200);
    QCOMPARE(p.notRead.size(), size_t(3));
    QVERIFY2(p.notRead[0].find("completions_00001.parquet: a parquet table") != std::string::npos, p.notRead[0].c_str());
    QVERIFY(p.rows.empty());
    QVERIFY(p.partial);
    QCOMPARE(p.report.format, store::DumpFormat::Auto);
    // Beside a JSON-lines file, that one is read and the parquet table listed.
    const store::ImportPreview mixed =
        store::previewImport({kData + "/trl_tool_calls/completions_00005.parquet", kData + "/trl_jsonl/completions/completions_00001.jsonl"}, o, 200);
    QCOMPARE(mixed.notRead.size(), size_t(1));
    QCOMPARE(mixed.rows.size(), size_t(4));
    QCOMPARE(mixed.report.format, store::DumpFormat::Trl);
}

void TestRolloutImport::previewFindsBadRowsItReads()
{
    // A bad row among those read is the import's error, file and line; one past the
    // preview's rows is left to the import.
    QTemporaryDir dir;
    const QString bad = dir.path() + "/3.jsonl";
    writeFile(bad, "{\"input\": \"q\", \"output\": \"a\", \"score\": 1}\n{\"input\": \"q\", \"output\": 2, \"score\": 1}\n");
    try {
        store::previewImport({bad.toStdString()}, {}, 200);
        QFAIL("no error");
    } catch (const data::InputException &e) {
        QCOMPARE(QString::fromStdString(e.error().toString()),
                 bad + ":2: field \"output\" must be a string or a list of messages, not number");
    }
    const store::ImportPreview first = store::previewImport({bad.toStdString()}, {}, 1);
    QCOMPARE(first.rows.size(), size_t(1));
    QCOMPARE(first.report.format, store::DumpFormat::Verl);
    // A format named that the rows do not have.
    store::ImportOptions o;
    o.format = store::DumpFormat::Trl;
    QVERIFY_THROWS_EXCEPTION(data::InputException, store::previewImport({bad.toStdString()}, o, 200));
}

void TestRolloutImport::cancelledImportLeavesNothing()
{
    // trl_jsonl: three files to read, then two steps (1 and 3) to write.
    QTemporaryDir dir;
    store::RunStore st((dir.path() + "/runs.sqlite").toStdString());
    std::vector<std::tuple<store::ImportPhase, int64_t, int64_t>> calls;
    store::ImportOptions o;
    o.progress = [&](store::ImportPhase phase, int64_t done, int64_t total) {
        calls.emplace_back(phase, done, total);
        return true;
    };
    const store::ImportReport r = store::importRollouts(st, {kData + "/trl_jsonl"}, o);
    using P = store::ImportPhase;
    QCOMPARE(calls, (std::vector<std::tuple<P, int64_t, int64_t>>{{P::Reading, 0, 3}, {P::Reading, 1, 3}, {P::Reading, 2, 3},
                                                                  {P::Reading, 3, 3}, {P::Writing, 0, 2}, {P::Writing, 1, 2},
                                                                  {P::Writing, 2, 2}}));
    QCOMPARE(st.runs().size(), size_t(1));

    // Stopped while reading, and after the first of the two steps is written: no run is
    // left of either.
    for (const auto &[phase, at] : {std::pair{P::Reading, int64_t(1)}, std::pair{P::Writing, int64_t(1)}}) {
        o.progress = [phase = phase, at = at](P p, int64_t done, int64_t) { return !(p == phase && done == at); };
        try {
            store::importRollouts(st, {kData + "/trl_jsonl"}, o);
            QFAIL("not cancelled");
        } catch (const store::ImportCancelled &e) {
            const std::string m = e.what();
            QVERIFY2(m.find(phase == P::Reading ? "cancelled while reading" : "cancelled after writing 1 of 2 steps")
                         != std::string::npos, m.c_str());
            QVERIFY2(m.find("nothing was imported") != std::string::npos, m.c_str());
        }
        QCOMPARE(st.runs().size(), size_t(1));
        QCOMPARE(st.runs().front().id, r.runId);
        QCOMPARE(rolloutsOf(st, r.runId).size(), size_t(6));
    }
}

QTEST_APPLESS_MAIN(TestRolloutImport)
#include "tst_rolloutimport.moc"
