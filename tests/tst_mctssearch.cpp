// The multi-hop task, format-aware SFT's mask and the tree search on a model the test
// makes itself: a tiny knowledge base, its BM25 index, the gold chains annotated with
// their retrievals, a byte-level tokenizer with the step tags as added tokens, and a
// one-layer model (random, and over-fitted on one question).

#include "data/jsonl.h"
#include "engine/mctsrun.h"
#include "mcts/search.h"
#include "model/causallm.h"
#include "rwbprocess.h"
#include "store/runstore.h"
#include "tasks/multihop/multihoptask.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "engine/job.h"
#include "reward/registry.h"
#include "task/catalog.h"
#include "train/environmentrollout.h"
#include "train/evaluation.h"
#include "train/grpo.h"
#include "train/sft.h"
#include "train/processrewardmodel.h"
#include "train/rft.h"
#include "tasks/multihop/multihopformat.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>

using namespace rwb;

namespace {

const char *const kTags[] = {"<step>",      "</step>",      "<subquery>", "</subquery>", "<retrieval>",
                             "</retrieval>", "<subanswer>", "</subanswer>", "<answer>",   "</answer>"};

double maxAbs(const std::vector<float> &v)
{
    double m = 0;
    for (float x : v)
        m = std::max(m, std::abs(static_cast<double>(x)));
    return m;
}

double maxAbsDiff(const std::vector<float> &a, const std::vector<float> &b)
{
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i)
        m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
    return m;
}

} // namespace

class TestMctsSearch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void taskReadsAndScores();
    void sftTargetMasksTheRetrievals();
    void maskedSequenceHasThePairsGradient();
    void rolloutStopsRetrievesAndResumes();
    void grpoRolloutRetrievesAndResumes();
    void grpoTrainsOnMultihop();
    void rejectionSamplingKeepsRightTrajectories();
    void grpoWithProcessRewards();
    void grpoWithReferenceStepScores();
    void processRewardsInTwoProcesses();
    void searchIsDeterministicAndStored();
    void badInput();

private:
    QTemporaryDir m_dir;
    QString d;
    // Dual-granularity GRPO on the fixture: the SFT policy with LoRA, the fresh PRM prm0
    // (β 0.3, format bonus 0.2), retrieval from the index, 2 groups of 4 a step.
    train::GrpoConfig processRewardConfig(int steps, double learningRate) const;
    std::vector<task::Record> m_records;
    task::MultihopTask m_task;
};

void TestMctsSearch::initTestCase()
{
    QVERIFY(m_dir.isValid());
    d = m_dir.path();
    QVERIFY(rwbtest::runRwb({"data", "synth", "--task", "multihop", "--n", "4", "--seed", "3", "--split", "train",
                             "--out", d + "/q.jsonl", "--corpus-out", d + "/kb.jsonl", "--people", "12",
                             "--organizations", "6", "--cities", "4", "--countries", "2"}));
    QVERIFY(rwbtest::runRwb({"retrieve", "index", "--corpus", d + "/kb.jsonl", "--out", d + "/index.sqlite"}));
    QVERIFY(rwbtest::runRwb({"retrieve", "annotate", "--index", d + "/index.sqlite", "--input", d + "/q.jsonl",
                             "--query-field", "question", "--k", "1", "--chain", "--out", d + "/qa.jsonl"}));
    m_records = m_task.read((d + "/qa.jsonl").toStdString(), {});
    QCOMPARE(m_records.size(), size_t(4));
    {
        // The tokenizer learns from the passages and the gold trajectories.
        std::ofstream corpus((d + "/corpus.txt").toStdString());
        corpus << data::readTextFile((d + "/kb.jsonl").toStdString());
        for (const task::Record &r : m_records)
            corpus << r.example->id() << " " << m_task.sftTarget(*r.example, false) << "\n";
    }
    QStringList train{"tokenizer", "train", "--input", d + "/corpus.txt", "--vocab-size", "700", "--out", d + "/tok"};
    for (const char *t : kTags) // <answer> and </answer> are among the default added tokens
        if (std::string_view(t).find("answer>") == std::string_view::npos || std::string_view(t).find("sub") != std::string_view::npos)
            train << "--added-token" << t;
    QVERIFY(rwbtest::runRwb(train));
    QVERIFY(rwbtest::runRwb({"model", "init", "--tokenizer", d + "/tok", "--out", d + "/tiny", "--layers", "1", "--seed", "1"}));

    // Over-fit the first question so that greedy decoding writes the step format.
    QFile one(d + "/one.jsonl");
    QVERIFY(one.open(QIODevice::WriteOnly));
    one.write(QByteArray::fromStdString(data::readTextFile((d + "/qa.jsonl").toStdString()).substr(
        0, data::readTextFile((d + "/qa.jsonl").toStdString()).find('\n') + 1)));
    one.close();
    train::SftConfig c;
    c.model = (d + "/tiny").toStdString();
    c.output = (d + "/sft").toStdString();
    c.trainData = (d + "/one.jsonl").toStdString();
    c.task = "multihop";
    c.lora = false;
    c.learningRate = 5e-3;
    c.warmupRatio = 0;
    c.batchSize = 1;
    c.gradientAccumulation = 1;
    c.epochs = 120;
    c.maxLength = 4096;
    c.threads = 1;
    double last = 0;
    train::runSft(c, [&](const train::SftProgress &p) {
        last = p.loss;
        return p.loss > 0.002; // memorized
    });
    QVERIFY2(last < 0.05, qPrintable(QString::number(last)));
}

void TestMctsSearch::taskReadsAndScores()
{
    const auto &e = task::as<task::MultihopExample>(*m_records[0].example);
    QVERIFY(!e.question().answer.empty());
    QVERIFY(e.question().chain.size() >= 2);
    QCOMPARE(e.question().chain[0].retrieved.size(), size_t(1)); // --k 1 --chain
    // The gold trajectory parses as one, and its answer is right.
    const std::string gold = m_task.sftTarget(e, false);
    const auto completion = m_task.parse(e, gold, false);
    const auto &c = task::as<task::MultihopCompletion>(*completion);
    QVERIFY2(c.trajectory().wellFormed, c.trajectory().problem.c_str());
    QCOMPARE(c.trajectory().hops.size(), e.question().chain.size());
    QCOMPARE(c.em(), 1.0);
    QCOMPARE(m_task.failureCategory(e, *completion), size_t(0));
    auto metrics = m_task.metrics();
    metrics->add(e, *completion);
    const auto wrong = m_task.parse(e, "<step>x</step><answer>" + e.question().answer + "の隣</answer>", false);
    metrics->add(e, *wrong);
    // EM (1 + 0) / 2; F1 of the wrong one: answer + 2 extra tokens (の 隣), P = n / (n + 2), R = 1.
    const auto result = metrics->result();
    QCOMPARE(result[0].first, std::string("em"));
    QCOMPARE(result[0].second, 0.5);
    const double n = static_cast<double>(task::answerTokens(e.question().answer).size());
    const double p = n / (n + 2);
    QVERIFY(std::abs(result[1].second - (1.0 + 2 * p / (p + 1)) / 2) < 1e-12);
    QCOMPARE(m_task.failureCategories()[m_task.failureCategory(e, *wrong)].key, std::string("partial"));
    // A terminal's value (the search's): the gold trajectory with another answer, against
    // gold "1975年". F1 of "1974年": tokens {1974, 年} against {1975, 年}, P = R = 0.5, so
    // 0.5 (as characters it was 0.8); exact match 0; the same year 1 under both; a
    // trajectory without an answer 0.
    std::string other = gold;
    const std::string goldAnswerTag = "<answer>" + e.question().answer + "</answer>";
    QVERIFY(other.find(goldAnswerTag) != std::string::npos);
    other.replace(other.find(goldAnswerTag), goldAnswerTag.size(), "<answer>1974年</answer>");
    const task::Steps &steps = *m_task.steps();
    const auto withGold = [&](const std::string &answer) {
        data::MultihopQuestion q = e.question();
        q.answer = answer;
        return task::MultihopExample(q);
    };
    const task::MultihopExample e1975 = withGold("1975年"), e1974 = withGold("1974年");
    QVERIFY(std::abs(mcts::trajectoryValue(steps, e1975, other) - 0.5) < 1e-12);
    QCOMPARE(mcts::trajectoryValue(steps, e1975, other, "em"), 0.0);
    QCOMPARE(mcts::trajectoryValue(steps, e1974, other, "em"), 1.0);
    QCOMPARE(mcts::trajectoryValue(steps, e1974, other, "f1"), 1.0);
    QCOMPARE(mcts::trajectoryValue(steps, e, gold.substr(0, gold.find("<answer>"))), 0.0);
    // What a step's answer and a search record's question are.
    QCOMPARE(steps.answerEnd(), std::string_view("</answer>"));
    QCOMPARE(steps.stepAnswer("<step>so</step><answer>1975年</answer>"), std::string("1975年"));
    QCOMPARE(steps.stepAnswer("<step>so</step>"), std::string());
    const task::StepQuestion sq = steps.stepQuestionRecord(e);
    QCOMPARE(sq.id, e.id());
    QCOMPARE(sq.goldAnswer, e.question().answer);
    QCOMPARE(sq.hops, e.question().hops);
    // The store's copy rebuilds the example.
    const auto back = m_task.exampleFromStore(e.metaJson(), e.goldText(), "store");
    QCOMPARE(task::as<task::MultihopExample>(*back).question().chain.size(), e.question().chain.size());
}

void TestMctsSearch::sftTargetMasksTheRetrievals()
{
    const std::string target = "<step>a</step><subquery>q</subquery><retrieval>P1\nP2</retrieval><subanswer>s</subanswer>"
                               "<step>b</step><answer>x</answer>";
    const std::vector<task::TextSpan> spans = m_task.environmentSpans(target);
    QCOMPARE(spans.size(), size_t(1));
    QCOMPARE(target.substr(spans[0].begin, spans[0].end - spans[0].begin), std::string("<retrieval>P1\nP2</retrieval>"));
    // An unclosed block runs to the end (a rollout cut inside it).
    QCOMPARE(m_task.environmentSpans("<step>a</step><retrieval>P").front().end, size_t(26));

    // In an SFT sequence the zero-weight tokens are exactly the retrieval blocks.
    const auto tok = tokenizer::loadTokenizer((d + "/tiny").toStdString());
    const auto format = tokenizer::PromptFormat::forModel((d + "/tiny").toStdString(), *tok);
    train::SftConfig c;
    c.controlTags.assign(std::begin(kTags), std::end(kTags));
    c.controlTokenWeight = 2.0;
    const auto &e = *m_records[1].example;
    const train::SftSequence s = train::sftSequence(m_task, e, *tok, format, c);
    std::vector<int32_t> env;
    std::string expected;
    const std::string gold = m_task.sftTarget(e, false);
    for (const task::TextSpan &span : m_task.environmentSpans(gold))
        expected += gold.substr(span.begin, span.end - span.begin);
    size_t controls = 0;
    for (size_t i = 0; i < s.target.size(); ++i) {
        if (s.weights[i] == 0.0f)
            env.push_back(s.target[i]);
        controls += s.weights[i] == 2.0f ? 1 : 0;
    }
    QCOMPARE(tok->decode(env), expected);
    QCOMPARE(s.policyTokens, s.target.size() - env.size());
    // Every tag the policy writes weighs λ: per hop <step></step><subquery></subquery>
    // <subanswer></subanswer>, then <step></step><answer></answer>. The retrieval tags
    // are the environment's.
    const size_t hops = task::as<task::MultihopExample>(e).question().chain.size();
    QCOMPARE(controls, 6 * hops + 4);
}

void TestMctsSearch::maskedSequenceHasThePairsGradient()
{
    // ProRAG trains on pairs (history with frozen retrievals → the next block the policy
    // writes). One sequence with the retrievals weighted 0 must follow the same gradient
    // as those pairs together: no loss and no gradient comes from a retrieved token, while
    // the retrievals still condition what follows them.
    const auto tok = tokenizer::loadTokenizer((d + "/tiny").toStdString());
    const auto format = tokenizer::PromptFormat::forModel((d + "/tiny").toStdString(), *tok);
    model::ModelOptions mo;
    mo.dtype = "float32";
    mo.threads = 1;
    auto lm = model::CausalLM::load((d + "/tiny").toStdString(), mo);
    const int32_t pad = tok->padId().value_or(tok->eosId().value_or(0));
    train::SftConfig c;
    const train::SftSequence full = train::sftSequence(m_task, *m_records[2].example, *tok, format, c);
    // The pairs: each run of policy tokens, after everything before it as the prompt.
    std::vector<train::SftSequence> pairs;
    for (size_t i = 0; i < full.target.size();) {
        if (full.weights[i] == 0.0f) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < full.target.size() && full.weights[j] != 0.0f)
            ++j;
        train::SftSequence p;
        p.prompt = full.prompt;
        p.prompt.insert(p.prompt.end(), full.target.begin(), full.target.begin() + static_cast<long>(i));
        p.target.assign(full.target.begin() + static_cast<long>(i), full.target.begin() + static_cast<long>(j));
        p.weights.assign(j - i, 1.0f);
        pairs.push_back(std::move(p));
        i = j;
    }
    const size_t hops = task::as<task::MultihopExample>(*m_records[2].example).question().chain.size();
    QCOMPARE(pairs.size(), hops + 1);
    const double n = static_cast<double>(full.policyTokens);
    const train::SftGradient masked = train::sftGradient(*lm, {full}, n, pad);
    const train::SftGradient byPairs = train::sftGradient(*lm, pairs, n, pad);
    QCOMPARE(masked.gradient.size(), byPairs.gradient.size());
    const double scale = maxAbs(masked.gradient);
    QVERIFY(scale > 0);
    QVERIFY2(std::abs(masked.loss - byPairs.loss) < 1e-5 * std::abs(masked.loss),
             qPrintable(QString("%1 vs %2").arg(masked.loss).arg(byPairs.loss)));
    QVERIFY2(maxAbsDiff(masked.gradient, byPairs.gradient) < 1e-4 * scale,
             qPrintable(QString::number(maxAbsDiff(masked.gradient, byPairs.gradient) / scale)));
    // Without the mask the retrieved tokens pull the gradient elsewhere.
    train::SftSequence unmasked = full;
    std::fill(unmasked.weights.begin(), unmasked.weights.end(), 1.0f);
    const train::SftGradient leaky = train::sftGradient(*lm, {unmasked}, n, pad);
    QVERIFY(maxAbsDiff(leaky.gradient, masked.gradient) > 1e-2 * scale);
}

void TestMctsSearch::rolloutStopsRetrievesAndResumes()
{
    mcts::PolicyOptions po;
    po.model = (d + "/sft").toStdString();
    po.index = (d + "/index.sqlite").toStdString();
    po.threads = 1;
    mcts::StepPolicy policy(po, m_task);
    const auto &e = task::as<task::MultihopExample>(*m_records[0].example);
    mcts::SearchParams params;
    params.topK = 1;
    params.maxStepTokens = 96;
    mcts::SearchStats stats;
    const std::vector<int32_t> prompt = policy.promptTokens(e);
    const std::vector<mcts::StepBlock> blocks = policy.rollout(e, prompt, std::string(), 10, 0.0, 0, params, stats);
    // The memorized trajectory: every hop stopped at </subquery>, the environment
    // retrieved for the sub-query, the policy went on to </subanswer>; then the answer.
    std::string text;
    for (const mcts::StepBlock &b : blocks)
        text += b.text;
    QCOMPARE(text, m_task.sftTarget(e, false));
    QCOMPARE(blocks.size(), e.question().chain.size() + 1);
    for (size_t h = 0; h + 1 < blocks.size(); ++h) {
        QCOMPARE(blocks[h].retrieved.size(), size_t(1));
        QCOMPARE(blocks[h].retrieved[0], e.question().chain[h].retrieved[0].id);
        QVERIFY(!blocks[h].terminal);
    }
    QVERIFY(blocks.back().terminal);
    QCOMPARE(blocks.back().answer, e.question().answer);
    QVERIFY(stats.retrieval > 0);

    // The log-probabilities the stop-and-resume rollout reported equal one uninterrupted
    // forward of the same tokens, at the policy's positions.
    std::vector<int32_t> all;
    std::vector<uint8_t> env;
    double reported = 0;
    for (const mcts::StepBlock &b : blocks) {
        all.insert(all.end(), b.tokens.begin(), b.tokens.end());
        env.insert(env.end(), b.fromEnvironment.begin(), b.fromEnvironment.end());
        reported += b.logProb;
    }
    QCOMPARE(env.size(), all.size());
    model::ModelOptions mo;
    mo.dtype = "float32";
    mo.threads = 1;
    auto lm = model::CausalLM::load((d + "/sft").toStdString(), mo);
    const auto scores = lm->scoreTokens({prompt}, {all});
    double forward = 0;
    size_t policyTokens = 0;
    for (size_t i = 0; i < all.size(); ++i)
        if (!env[i]) {
            forward += scores[0].logProbs[i];
            ++policyTokens;
        }
    QVERIFY2(std::abs(forward - reported) < 1e-4 * static_cast<double>(policyTokens),
             qPrintable(QString("%1 vs %2").arg(forward).arg(reported)));

    // The greedy baseline scores it.
    mcts::SearchStats gs;
    const mcts::GreedyResult g = mcts::greedyRollout(policy, e, params, gs);
    QCOMPARE(g.em, 1.0);
    QVERIFY(g.wellFormed);
}

void TestMctsSearch::grpoRolloutRetrievesAndResumes()
{
    // GRPO's and evaluation's rollouts (train/environmentrollout.h) on the memorized question.
    const std::string model = (d + "/sft").toStdString();
    const auto tok = tokenizer::loadTokenizer(model);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(model, *tok);
    model::ModelOptions mo;
    mo.dtype = "float32";
    mo.threads = 1;
    auto lm = model::CausalLM::load(model, mo);
    const task::MultihopEnvironment env((d + "/index.sqlite").toStdString(), 1);
    const auto &e = task::as<task::MultihopExample>(*m_records[0].example);
    const std::vector<int32_t> prompt = tok->encode(m_task.prompt(e, format, false));
    train::RolloutOptions ro;
    ro.sampling.temperature = 0.0;
    ro.sampling.maxNewTokens = 400;
    ro.sampling.stopTokens = format.stopTokenIds(*tok);
    ro.sampling.vocabLimit = tok->vocabSize();
    ro.environment = &env;
    ro.maxTurns = 6;
    train::RolloutStats stats;
    const std::vector<train::RolloutRow> rows = train::generateRollouts(*lm, *tok, {&e}, {prompt}, 1, ro, &stats);
    QCOMPARE(rows.size(), size_t(1));
    const train::RolloutRow &r = rows[0];
    // Paused at every </subquery>, the index answered with the gold chain's retrieval
    // (top 1), the policy went on: the gold trajectory, stopped by the stop token.
    QCOMPARE(r.text, m_task.sftTarget(e, false));
    QCOMPARE(r.turns, static_cast<int>(e.question().chain.size()));
    QVERIFY(!r.truncated);
    QVERIFY(stats.environmentSeconds > 0);
    // The marks cover exactly the retrieval blocks' tokens, encoded block by block.
    QCOMPARE(r.fromEnvironment.size(), r.tokens.size());
    QCOMPARE(r.logProbs.size(), r.tokens.size());
    std::vector<int32_t> marked, expected;
    int policy = 0;
    for (size_t i = 0; i < r.tokens.size(); ++i) {
        if (r.fromEnvironment[i]) {
            marked.push_back(r.tokens[i]);
            QCOMPARE(r.logProbs[i], 0.0f);
        } else {
            ++policy;
        }
    }
    QCOMPARE(r.policyTokens, policy);
    for (const task::TextSpan &span : m_task.environmentSpans(r.text)) {
        const std::vector<int32_t> ids = tok->encode(r.text.substr(span.begin, span.end - span.begin));
        expected.insert(expected.end(), ids.begin(), ids.end());
    }
    QCOMPARE(stats.environmentTokens, static_cast<int64_t>(expected.size()));
    QVERIFY(marked == expected);
    // Stop and resume with the KV cache kept gives what one uninterrupted forward of the
    // same tokens gives, at every token the policy wrote.
    const auto scores = lm->scoreTokens({prompt}, {r.tokens});
    double worst = 0;
    for (size_t i = 0; i < r.tokens.size(); ++i)
        if (!r.fromEnvironment[i])
            worst = std::max(worst, std::abs(static_cast<double>(scores[0].logProbs[i]) - r.logProbs[i]));
    QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));

    // Runaway rollouts end: one turn allowed, so the second pause ends the row there;
    // a per-turn budget of 4 policy tokens ends it inside the first step.
    ro.maxTurns = 1;
    const train::RolloutRow one = train::generateRollouts(*lm, *tok, {&e}, {prompt}, 1, ro).front();
    QVERIFY(one.truncated);
    QCOMPARE(one.turns, 1);
    QVERIFY(QString::fromStdString(one.text).endsWith("</subquery>"));
    QCOMPARE(QString::fromStdString(one.text).count("<retrieval>"), 1);
    QVERIFY(m_task.sftTarget(e, false).rfind(one.text, 0) == 0); // a prefix of the gold trajectory
    ro.maxTurns = 6;
    ro.maxTurnTokens = 4;
    const train::RolloutRow budget = train::generateRollouts(*lm, *tok, {&e}, {prompt}, 1, ro).front();
    QVERIFY(budget.truncated);
    QCOMPARE(budget.turns, 0);
    QCOMPARE(budget.policyTokens, 4);
    ro.maxTurnTokens = 0;
    // max_completion_length counts the policy's tokens only.
    ro.sampling.maxNewTokens = r.policyTokens - 1;
    const train::RolloutRow shorter = train::generateRollouts(*lm, *tok, {&e}, {prompt}, 1, ro).front();
    QVERIFY(shorter.truncated);
    QCOMPARE(shorter.policyTokens, r.policyTokens - 1);
    QVERIFY(shorter.tokens.size() > static_cast<size_t>(shorter.policyTokens));

    // Sampled groups: a seed gives the same rows; every row's marks agree with its text.
    ro.sampling.maxNewTokens = 200;
    ro.sampling.temperature = 1.0;
    ro.sampling.topK = 50;
    ro.sampling.seed = 7;
    const auto &e2 = task::as<task::MultihopExample>(*m_records[1].example);
    const std::vector<int32_t> prompt2 = tok->encode(m_task.prompt(e2, format, false));
    const auto a = train::generateRollouts(*lm, *tok, {&e, &e2}, {prompt, prompt2}, 3, ro);
    const auto b = train::generateRollouts(*lm, *tok, {&e, &e2}, {prompt, prompt2}, 3, ro);
    QCOMPARE(a.size(), size_t(6));
    for (size_t i = 0; i < a.size(); ++i) {
        QVERIFY(a[i].tokens == b[i].tokens);
        QCOMPARE(a[i].text, b[i].text);
        const size_t envTokens = static_cast<size_t>(std::count(a[i].fromEnvironment.begin(), a[i].fromEnvironment.end(), 1));
        QCOMPARE(envTokens + static_cast<size_t>(a[i].policyTokens), a[i].tokens.size());
        QCOMPARE(m_task.environmentSpans(a[i].text).size(), static_cast<size_t>(a[i].turns));
    }
}

void TestMctsSearch::grpoTrainsOnMultihop()
{
    // Two GRPO steps on the multi-hop task with retrieval in the loop, through the trainer.
    QFile rc(d + "/reward_mh.json");
    QVERIFY(rc.open(QIODevice::WriteOnly));
    rc.write(R"({"task": "multihop", "components": [{"reward": "answer_f1", "weight": 1}, {"reward": "step_format", "weight": 0.5}]})");
    rc.close();
    train::GrpoConfig c;
    c.model = (d + "/sft").toStdString();
    c.trainData = (d + "/qa.jsonl").toStdString();
    c.evalData = (d + "/one.jsonl").toStdString();
    c.evalEvery = 2;
    c.rewardConfig = (d + "/reward_mh.json").toStdString();
    c.store = (d + "/grpo_mh.sqlite").toStdString();
    c.output = (d + "/grpo_mh").toStdString();
    c.groupSize = 3;
    c.promptsPerStep = 2;
    c.maxNewTokens = 160;
    c.maxSteps = 2;
    c.lora = true;
    c.learningRate = 1e-4;
    c.threads = 1;
    c.seed = 5;
    c.environment.topK = 1;
    c.environment.source = "grpo_mh.json";
    {
        // No index: the run does not start, and the message names the config and the field.
        engine::JobControl control;
        engine::EventSink sink;
        try {
            train::runGrpo(c, control, sink);
            QFAIL("a multihop run without an index started");
        } catch (const data::InputException &ex) {
            QCOMPARE(ex.error().file, std::string("grpo_mh.json"));
            QVERIFY2(ex.error().reason.rfind("retrieval_index", 0) == 0, ex.what());
        }
    }
    c.environment.index = (d + "/index.sqlite").toStdString();
    engine::JobControl control;
    engine::EventSink sink;
    const engine::JobOutcome out = train::runGrpo(c, control, sink);
    QCOMPARE(engine::toString(out.status), "finished");
    QCOMPARE(out.lastStep, int64_t(2));

    store::RunStore s(c.store, store::RunStore::OpenMode::ReadOnly);
    store::RolloutFilter f;
    f.runId = out.runId;
    const store::RolloutPage page = s.rollouts(f);
    QCOMPARE(page.rows.size(), size_t(12));
    const task::MultihopEnvironment env(c.environment.index, 1);
    int retrievals = 0;
    for (const store::StoredRollout &sr : page.rows) {
        const store::Rollout full = s.rollout(sr.id).rollout;
        const std::string &text = full.completion;
        // Every <retrieval> block is the index's answer to the sub-query before it.
        const task::Trajectory t = task::parseTrajectory(text);
        for (const task::TrajectoryHop &h : t.hops) {
            QCOMPARE("<retrieval>" + h.retrieval + "</retrieval>", env.retrieve(h.subquery, 1).text);
            ++retrievals;
        }
        // The stored rewards are the components of the text.
        const auto rewards = nlohmann::json::parse(full.rewardsJson);
        const task::Example *example = nullptr;
        for (const task::Record &rec : m_records)
            if (rec.example->id() == full.promptId)
                example = rec.example.get();
        QVERIFY(example);
        const task::MultihopCompletion parsed(task::as<task::MultihopExample>(*example), text);
        QCOMPARE(rewards.at("answer_f1").get<double>(), parsed.trajectory().answer ? parsed.f1() : 0.0);
        QCOMPARE(rewards.at("step_format").get<double>(),
                 parsed.trajectory().wellFormed && parsed.trajectory().answer && !t.hops.empty() ? 1.0 : 0.0);
        QCOMPARE(full.tokenIds.size(), full.logprobsNew.size());
    }
    QVERIFY2(retrievals > 0, "no rollout retrieved");
    // The evaluation ran with retrieval too: the memorized question is answered.
    const auto predictions = s.evalPredictions(out.runId, 0);
    QCOMPARE(predictions.size(), size_t(1));
    QVERIFY(predictions[0].prediction.correct);
}

void TestMctsSearch::rejectionSamplingKeepsRightTrajectories()
{
    // A PRM on the memorising policy (a fresh head: its scores are what they are), a
    // threshold under every score so that the PRM keeps what is right; the policy samples
    // the memorised question 4 times at T 1.
    model::ModelOptions mo;
    mo.threads = 1;
    const auto prm = train::ProcessRewardModel::fromPolicy((d + "/sft").toStdString(), mo, 5, *task::Catalog::builtin().find("multihop"));
    prm->save((d + "/prm0").toStdString(), (d + "/sft").toStdString());
    QFile cfg(d + "/rft.json");
    QVERIFY(cfg.open(QIODevice::WriteOnly));
    cfg.write(R"({"policy": "sft", "prm": "prm0", "questions": "one.jsonl", "index": "index.sqlite", "output": "rft",
                  "samples": 4, "temperature": 1.0, "max_completion_length": 200, "retrieval_top_k": 1,
                  "threshold": -1e9, "threads": 1, "seed": 3,
                  "sft": {"learning_rate": 1e-4, "epochs": 1, "batch_size": 2, "gradient_accumulation": 1,
                          "max_length": 4096, "warmup_ratio": 0},
                  "eval_questions": "one.jsonl"})");
    cfg.close();
    const train::RftConfig c = train::loadRftConfig((d + "/rft.json").toStdString());
    QCOMPARE(c.dataOutput, (d + "/rft.rft.jsonl").toStdString());
    QCOMPARE(c.sft.task, std::string("multihop"));
    QVERIFY(!c.sft.lora);
    const train::RftResult r = train::runRft(c);
    QCOMPARE(r.questions, size_t(1));
    QCOMPARE(r.sampled, size_t(4));
    QVERIFY2(r.right >= 1, qPrintable(QString::number(r.right))); // the memorised answer, mostly
    QCOMPARE(r.kept + r.duplicates + r.droppedByPrm, r.right);
    QCOMPARE(r.droppedByPrm, size_t(0));
    QCOMPARE(r.contextSteps, size_t(0));
    QCOMPARE(r.questionsKept, size_t(1));
    QVERIFY(r.evaluated);
    QCOMPARE(r.emBefore, 1.0); // greedy decoding answers the memorised question
    QVERIFY(r.sft.steps >= 1);
    QVERIFY(QFile::exists(d + "/rft/model.safetensors"));
    // Every kept line is a right trajectory of the question, as SFT reads it.
    const std::vector<task::Record> kept = m_task.read((d + "/rft.rft.jsonl").toStdString(), {});
    QCOMPARE(kept.size(), r.kept);
    for (const task::Record &rec : kept) {
        const auto &e = task::as<task::MultihopExample>(*rec.example);
        QVERIFY(e.id().rfind(m_records[0].example->id() + "#", 0) == 0);
        const std::string target = m_task.sftTarget(e, false);
        QCOMPARE(target, e.question().target);
        const task::Trajectory t = task::parseTrajectory(target);
        QVERIFY(t.answer);
        QCOMPARE(task::exactMatch(*t.answer, e.question().answer), 1.0);
    }
    // A threshold no step clears keeps nothing: the error gives the counts.
    train::RftConfig none = c;
    none.threshold = 1e9;
    none.evalQuestions.clear();
    try {
        train::runRft(none);
        QFAIL("fine-tuned on nothing");
    } catch (const data::InputException &e) {
        QVERIFY2(QString::fromStdString(e.what()).contains("no trajectory kept"), e.what());
    }
}

train::GrpoConfig TestMctsSearch::processRewardConfig(int steps, double learningRate) const
{
    train::GrpoConfig c;
    c.model = (d + "/sft").toStdString();
    c.trainData = (d + "/qa.jsonl").toStdString();
    c.rewardConfig = (d + "/reward_mh.json").toStdString();
    c.groupSize = 4;
    c.promptsPerStep = 2;
    c.maxNewTokens = 160;
    c.maxSteps = steps;
    c.lora = true;
    c.learningRate = learningRate;
    c.threads = 1;
    c.seed = 9;
    c.temperature = 2.0; // the memorising policy writes the same steps at T 1: here the rows differ
    c.environment.topK = 1;
    c.environment.index = (d + "/index.sqlite").toStdString();
    c.processRewardModel = (d + "/prm0").toStdString();
    c.processBeta = 0.3;
    c.processFormatBonus = 0.2;
    return c;
}

void TestMctsSearch::grpoWithProcessRewards()
{
    // Dual-granularity GRPO (ProRAG eq. 8) with the fresh PRM of the test before: every
    // stored rollout's advantages are per token, constant within a step (steps end at the
    // </subanswer> token), A_out + β·A_proc with A_proc normalised per step position in
    // each group: over the rows of a group that reach step t, the A_proc sum to 0.
    QVERIFY(QFile::exists(d + "/prm0/prm_head.safetensors"));
    train::GrpoConfig c = processRewardConfig(1, 1e-4);
    c.store = (d + "/grpo_prm.sqlite").toStdString();
    c.output = (d + "/grpo_prm").toStdString();
    c.environment.source = "grpo_prm.json";
    engine::JobControl control;
    engine::EventSink sink;
    const engine::JobOutcome out = train::runGrpo(c, control, sink);
    QCOMPARE(engine::toString(out.status), "finished");
    store::RunStore s(c.store, store::RunStore::OpenMode::ReadOnly);
    bool hasPrmMetric = false;
    for (const store::MetricPoint &m : s.metrics(out.runId)) {
        hasPrmMetric = hasPrmMetric || m.name == "prm/step_reward_mean";
    }
    QVERIFY(hasPrmMetric);
    const auto tok = tokenizer::loadTokenizer(c.model);
    const int32_t end = *tok->tokenToId("</subanswer>");
    // (group, step) → Σ A_proc; and whether any row's steps differ.
    std::map<std::pair<int, int>, double> sums;
    bool varies = false;
    int rows = 0;
    for (const store::StoredRollout &sr : s.stepRollouts(out.runId, 1)) {
        const store::Rollout r = s.rollout(sr.id).rollout;
        QCOMPARE(r.advantages.size(), r.tokenIds.size());
        // A last piece that decodes to white space only (a newline and the stop token after
        // the last </subanswer>) is not a step of its own: it joins the step before it.
        size_t lastEnd = r.tokenIds.size();
        for (size_t k = 0; k < r.tokenIds.size(); ++k)
            if (r.tokenIds[k] == end)
                lastEnd = k;
        bool blankTail = false;
        if (lastEnd + 1 < r.tokenIds.size()) {
            const std::vector<int32_t> tail(r.tokenIds.begin() + static_cast<std::ptrdiff_t>(lastEnd) + 1, r.tokenIds.end());
            blankTail = tok->decodeBytes(tail, /*skipSpecial=*/true, /*atStart=*/false).find_first_not_of(" \t\r\n") ==
                        std::string::npos;
        }
        int step = 0;
        double stepValue = r.advantages.empty() ? 0.0 : r.advantages[0];
        for (size_t k = 0; k < r.tokenIds.size(); ++k) {
            if (k > 0 && r.tokenIds[k - 1] == end && !(k - 1 == lastEnd && blankTail)) { // a new step starts
                sums[{r.groupIndex, step}] += (stepValue - r.advantage) / 0.3;
                ++step;
                varies = varies || std::abs(r.advantages[k] - stepValue) > 1e-6;
                stepValue = r.advantages[k];
            }
            QVERIFY2(std::abs(r.advantages[k] - stepValue) < 1e-6, "an advantage changes inside a step");
        }
        sums[{r.groupIndex, step}] += (stepValue - r.advantage) / 0.3;
        ++rows;
    }
    QCOMPARE(rows, 8);
    for (const auto &[key, sum] : sums)
        QVERIFY2(std::abs(sum) < 1e-4, qPrintable(QString("group %1 step %2: Σ A_proc %3").arg(key.first).arg(key.second).arg(sum)));
    QVERIFY2(varies, "no row's steps got different process advantages");
}

// prm_reference: the step scores are the reference judge's points / 4 given the steps
// before (an oracle in place of the PRM): each stored rollout's process scores are in
// {0, 0.25, …, 1}, and the reward gets no sigmoid. prm and prm_reference together are a
// config error naming both.
void TestMctsSearch::grpoWithReferenceStepScores()
{
    train::GrpoConfig c = processRewardConfig(1, 1e-4);
    c.processRewardModel.clear();
    c.processReference = true;
    c.processFormatBonus = 0.0;
    c.store = (d + "/grpo_ref.sqlite").toStdString();
    c.output = (d + "/grpo_ref").toStdString();
    c.environment.source = "grpo_ref.json";
    engine::JobControl control;
    engine::EventSink sink;
    const engine::JobOutcome out = train::runGrpo(c, control, sink);
    QCOMPARE(engine::toString(out.status), "finished");
    store::RunStore s(c.store, store::RunStore::OpenMode::ReadOnly);
    int rows = 0, scored = 0;
    for (const store::StoredRollout &sr : s.stepRollouts(out.runId, 1)) {
        const store::Rollout r = s.rollout(sr.id).rollout;
        const nlohmann::json details = nlohmann::json::parse(r.detailsJson);
        QVERIFY2(details.contains("process"), r.detailsJson.c_str());
        const std::vector<double> scores = details["process"]["scores"].get<std::vector<double>>();
        const std::vector<double> rewards = details["process"]["step_rewards"].get<std::vector<double>>();
        QCOMPARE(rewards.size(), scores.size());
        for (size_t k = 0; k < scores.size(); ++k) {
            QVERIFY2(scores[k] >= 0.0 && scores[k] <= 1.0 && std::abs(scores[k] * 4 - std::round(scores[k] * 4)) < 1e-12,
                     qPrintable(QString::number(scores[k])));
            QCOMPARE(rewards[k], scores[k]); // no sigmoid, no format bonus
            ++scored;
        }
        ++rows;
    }
    QCOMPARE(rows, 8);
    QVERIFY(scored >= rows);
    try {
        train::parseGrpoConfig(R"({"model": "m", "train_data": "t", "reward_config": "r", "store": "s", "output": "o",
                                   "prm": "p", "prm_reference": true})",
                               "grpo.json");
        QFAIL("parsed");
    } catch (const data::InputException &e) {
        QVERIFY2(QString(e.what()).contains("prm_reference"), e.what());
    }
}

// Dual-granularity GRPO data parallel: `rwb grpo --nproc 2` against one process, 2 steps.
// Each rank scores its own micro-batch's rows with the PRM and the scores are shared, so
// every row's per-token advantages (A_out + β·A_proc) are the one process's. Tolerance
// 1e-5: the PRM scores a row in a batch of other rows (other padding) than one process
// does, which moves its float32 score by rounding; the policy's gradients are summed in
// another order.
void TestMctsSearch::processRewardsInTwoProcesses()
{
    QVERIFY(QFile::exists(d + "/prm0/prm_head.safetensors"));
    train::GrpoConfig c = processRewardConfig(2, 1e-3);
    c.microBatch = 4; // two micro-batches of one group: one for each rank
    std::map<int, std::string> stores;
    for (int nproc : {1, 2}) {
        const QString tag = QString("grpo_prm_np%1").arg(nproc);
        c.store = (d + "/" + tag + ".sqlite").toStdString();
        c.output = (d + "/" + tag).toStdString();
        const QString config = d + "/" + tag + ".json";
        std::ofstream(config.toStdString()) << train::toJson(c);
        QVERIFY2(rwbtest::runRwb({"grpo", "--config", config, "--quiet", "--nproc", QString::number(nproc)}),
                 qPrintable(tag));
        stores[nproc] = c.store;
    }
    const store::RunStore one(stores[1], store::RunStore::OpenMode::ReadOnly);
    const store::RunStore two(stores[2], store::RunStore::OpenMode::ReadOnly);
    double worst = 0.0;
    bool perToken = false;
    for (int step = 1; step <= 2; ++step) {
        const auto a = one.stepRollouts(1, step), b = two.stepRollouts(1, step);
        QCOMPARE(a.size(), size_t(8));
        QCOMPARE(b.size(), a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            const store::Rollout ra = one.rollout(a[i].id).rollout, rb = two.rollout(b[i].id).rollout;
            QCOMPARE(rb.tokenIds, ra.tokenIds);
            QCOMPARE(rb.reward, ra.reward);
            QCOMPARE(rb.advantages.size(), ra.advantages.size());
            for (size_t k = 0; k < ra.advantages.size(); ++k) {
                worst = std::max(worst, std::abs(static_cast<double>(ra.advantages[k]) - rb.advantages[k]));
                perToken = perToken || std::abs(ra.advantages[k] - ra.advantage) > 1e-3;
            }
        }
    }
    qInfo("per-token advantages, one process against two: max |Δ| = %.3g", worst);
    QVERIFY2(worst <= 1e-5, qPrintable(QString::number(worst)));
    QVERIFY2(perToken, "the PRM moved no token's advantage away from its row's");
    for (const char *name : {"prm/score_mean", "prm/step_reward_mean", "policy_loss", "grad_norm"}) {
        std::vector<double> va, vb;
        for (const store::MetricPoint &m : one.metrics(1))
            if (m.name == name)
                va.push_back(m.value);
        for (const store::MetricPoint &m : two.metrics(1))
            if (m.name == name)
                vb.push_back(m.value);
        QCOMPARE(vb.size(), va.size());
        QVERIFY2(!va.empty(), name);
        for (size_t i = 0; i < va.size(); ++i)
            QVERIFY2(std::abs(va[i] - vb[i]) <= 1e-5 * std::max(1.0, std::abs(va[i])),
                     qPrintable(QString("%1: %2 vs %3").arg(name).arg(va[i]).arg(vb[i])));
    }
}

void TestMctsSearch::searchIsDeterministicAndStored()
{
    mcts::PolicyOptions po;
    po.model = (d + "/sft").toStdString();
    po.index = (d + "/index.sqlite").toStdString();
    po.threads = 1;
    mcts::StepPolicy policy(po, m_task);
    const auto &e = task::as<task::MultihopExample>(*m_records[1].example);
    mcts::SearchParams params;
    params.simulations = 6;
    params.expansions = 3;
    params.maxDepth = 5;
    params.topK = 1;
    params.maxStepTokens = 48;
    params.temperature = 1.5; // a memorized policy needs heat to branch
    params.seed = 7;
    const auto stripped = [](mcts::SearchRecord r) {
        for (mcts::Iteration &it : r.iterations)
            it.seconds = 0;
        return mcts::toRecordJson(r).dump();
    };
    mcts::SearchStats s1, s2;
    int calls = 0;
    const mcts::SearchRecord a = mcts::runSearch(policy, e, params, s1, [&](const mcts::SearchRecord &) {
        ++calls;
        return true;
    });
    const mcts::SearchRecord b = mcts::runSearch(policy, e, params, s2);
    QCOMPARE(calls, 6);
    QCOMPARE(stripped(a), stripped(b));
    QCOMPARE(a.iterations.size(), size_t(6));
    QCOMPARE(a.tree.node(0).visits, 6);
    QVERIFY(a.tree.nodes().size() > 1);
    // Every iteration's log replays to the tree the search ended with.
    const mcts::SearchTree replayed = a.treeAt(6);
    for (size_t i = 0; i < a.tree.nodes().size(); ++i) {
        QCOMPARE(replayed.nodes()[i].visits, a.tree.nodes()[i].visits);
        QVERIFY(std::abs(replayed.nodes()[i].valueSum - a.tree.nodes()[i].valueSum) < 1e-12);
    }
    // Priors of each expansion sum to 1.
    for (const mcts::Iteration &it : a.iterations)
        if (!it.created.empty()) {
            double sum = 0;
            for (int c : it.created)
                sum += a.tree.node(c).prior;
            QVERIFY(std::abs(sum - 1.0) < 1e-9);
        }
    QVERIFY(s1.generation > 0);
    QVERIFY(s1.expansions >= 1);

    // The run store keeps it whole, and replaces it as it grows.
    store::RunStore store((d + "/runs.sqlite").toStdString());
    const int64_t run = store.beginRun("search", store::RunKind::Mcts, "{}", "multihop");
    mcts::SearchRecord partial = a;
    partial.iterations.resize(3);
    partial.tree = a.treeAt(3);
    const int64_t id = store.writeMctsTree(run, partial);
    QCOMPARE(store.mctsTrees(run).front().iterations, 3);
    QCOMPARE(store.writeMctsTree(run, a, id), id);
    const std::vector<mcts::TreeSummary> trees = store.mctsTrees(run);
    QCOMPARE(trees.size(), size_t(1));
    QCOMPARE(trees[0].iterations, 6);
    QCOMPARE(trees[0].nodes, static_cast<int>(a.tree.nodes().size()));
    QCOMPARE(trees[0].questionId, e.id());
    QCOMPARE(mcts::toRecordJson(store.mctsTree(id)).dump(), mcts::toRecordJson(a).dump());
    int rows = 0;
    store.query("SELECT count(*) FROM v_mcts_nodes WHERE tree_id = " + std::to_string(id),
                [&](const std::vector<std::string> &, const std::vector<store::SqlValue> &values) {
                    rows = static_cast<int>(values[0].integer);
                    return true;
                });
    QCOMPARE(rows, static_cast<int>(a.tree.nodes().size()));
}

void TestMctsSearch::badInput()
{
    // A missing index: the path and what to run.
    mcts::PolicyOptions po;
    po.model = (d + "/sft").toStdString();
    po.index = (d + "/no-index.sqlite").toStdString();
    try {
        mcts::StepPolicy policy(po, m_task);
        QFAIL("no index accepted");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().file, po.index);
        QVERIFY(e.error().reason.find("rwb retrieve index") != std::string::npos);
    }
    // A question without its gold answer: the file, the line, the field.
    QFile f(d + "/nogold.jsonl");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"id\": \"q1\", \"question\": \"A?\", \"answer\": \"B\"}\n{\"id\": \"q2\", \"question\": \"C?\"}\n");
    f.close();
    try {
        m_task.read((d + "/nogold.jsonl").toStdString(), {});
        QFAIL("no gold accepted");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().line, size_t(2));
        QVERIFY2(e.error().reason.find("missing field \"answer\"") != std::string::npos, e.error().reason.c_str());
    }
    // SFT on a chain without retrievals says what to run.
    const task::Record r = m_task.read((d + "/q.jsonl").toStdString(), {}).front();
    try {
        m_task.sftTarget(*r.example, false);
        QFAIL("no retrievals accepted");
    } catch (const data::InputException &e) {
        QVERIFY2(e.error().reason.find("rwb retrieve annotate --chain") != std::string::npos, e.error().reason.c_str());
    }
    // A config with an unknown key.
    try {
        mcts::parseMctsRunConfig(R"({"model": "m", "index": "i", "questions": "q", "store": "s", "sims": 3})", "mcts.json");
        QFAIL("unknown key accepted");
    } catch (const data::InputException &e) {
        QVERIFY2(e.error().reason.find("sims") != std::string::npos, e.error().reason.c_str());
    }
    // A task without reasoning steps: named, with the tasks that have them.
    try {
        mcts::parseMctsRunConfig(R"({"task": "company_extraction", "model": "m", "questions": "q", "store": "s"})",
                                 "mcts.json");
        QFAIL("a task without steps accepted");
    } catch (const data::InputException &e) {
        QCOMPARE(e.error().file, std::string("mcts.json"));
        QVERIFY2(e.error().reason.find("task") != std::string::npos && e.error().reason.find("multihop") != std::string::npos,
                 e.error().reason.c_str());
    }
    // No task: the first that declares steps.
    QCOMPARE(mcts::parseMctsRunConfig(R"({"model": "m", "index": "i", "questions": "q", "store": "s"})", "mcts.json").task,
             std::string());
}

QTEST_APPLESS_MAIN(TestMctsSearch)
#include "tst_mctssearch.moc"
