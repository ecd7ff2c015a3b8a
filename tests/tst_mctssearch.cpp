// The multi-hop task, format-aware SFT's mask and the tree search on a model the test
// makes itself: a tiny knowledge base, its BM25 index, the gold chains annotated with
// their retrievals, a byte-level tokenizer with the step tags as added tokens, and a
// one-layer model (random, and over-fitted on one question).

#include "data/jsonl.h"
#include "mcts/mctsrun.h"
#include "mcts/search.h"
#include "model/causallm.h"
#include "rwbprocess.h"
#include "store/runstore.h"
#include "task/multihoptask.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "train/sft.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

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
    void searchIsDeterministicAndStored();
    void badInput();

private:
    QTemporaryDir m_dir;
    QString d;
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
    QVERIFY(std::abs(mcts::trajectoryValue(other, "1975年") - 0.5) < 1e-12);
    QCOMPARE(mcts::trajectoryValue(other, "1975年", "em"), 0.0);
    QCOMPARE(mcts::trajectoryValue(other, "1974年", "em"), 1.0);
    QCOMPARE(mcts::trajectoryValue(other, "1974年", "f1"), 1.0);
    QCOMPARE(mcts::trajectoryValue(gold.substr(0, gold.find("<answer>")), e.question().answer), 0.0);
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
    mcts::StepPolicy policy(po);
    const auto &e = task::as<task::MultihopExample>(*m_records[0].example);
    mcts::SearchParams params;
    params.topK = 1;
    params.maxStepTokens = 96;
    mcts::SearchStats stats;
    const std::vector<int32_t> prompt = policy.promptTokens(e);
    const std::vector<mcts::StepBlock> blocks = policy.rollout(prompt, 10, 0.0, 0, params, stats);
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

void TestMctsSearch::searchIsDeterministicAndStored()
{
    mcts::PolicyOptions po;
    po.model = (d + "/sft").toStdString();
    po.index = (d + "/index.sqlite").toStdString();
    po.threads = 1;
    mcts::StepPolicy policy(po);
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
        mcts::StepPolicy policy(po);
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
}

QTEST_APPLESS_MAIN(TestMctsSearch)
#include "tst_mctssearch.moc"
