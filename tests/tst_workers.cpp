// core/model/workers: pieces of work side by side on worker threads — which worker takes
// which piece, what each worker's thread looks like (one intra-op thread, the caller's
// grad mode), what the caller gets back (its thread count, the first failure), the
// gradient sums (backwardOnWorkers against one backward after another), and generation
// split into blocks of prompts against the whole batch at once.
#include "model/causallm.h"
#include "model/modelconfig.h"
#include "model/workers.h"
#include "torchtest.h"

#include <QtTest>

#include <ATen/Parallel.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

using namespace rwb::model;
using rwbtest::ThreadCount;
using rwbtest::tinyConfig;

class TestWorkers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void blocksAreContiguousAndCoverAll();
    void workersRunSideBySideWithOneThreadEach();
    void balancedBlocksEvenTheCosts();
    void workersTakeBlocksCutByCost();
    void oneWorkerRunsInlineInOrder();
    void lowestFailureIsRethrownAfterAllFinish();
    void backwardSumsMatchOneAfterAnother();
    void generationInBlocksMatchesTheWholeBatch();
    void batchWorkersFollowThreadSplit();
};

void TestWorkers::blocksAreContiguousAndCoverAll()
{
    // n = 5 over 2 workers: [0, 2) and [2, 5); over 3: [0, 1), [1, 3), [3, 5).
    QCOMPARE(workerBlock(5, 2, 0).first, size_t(0));
    QCOMPARE(workerBlock(5, 2, 0).last, size_t(2));
    QCOMPARE(workerBlock(5, 2, 1).first, size_t(2));
    QCOMPARE(workerBlock(5, 2, 1).last, size_t(5));
    QCOMPARE(workerBlock(5, 3, 1).first, size_t(1));
    QCOMPARE(workerBlock(5, 3, 1).last, size_t(3));
    for (size_t n : {1, 2, 7, 64})
        for (int W : {1, 2, 3, 8}) {
            size_t next = 0;
            for (int w = 0; w < W; ++w) {
                const WorkerBlock b = workerBlock(n, W, w);
                QCOMPARE(b.first, next);
                QVERIFY(b.last >= b.first);
                next = b.last;
            }
            QCOMPARE(next, n);
        }
}

void TestWorkers::workersRunSideBySideWithOneThreadEach()
{
    const ThreadCount two(2);
    std::mutex mutex;
    std::vector<std::thread::id> thread(6);
    std::vector<int> intraOp(6, 0);
    std::vector<bool> grad(6, true);
    std::atomic<int> inside{0}, mostInside{0};
    {
        torch::NoGradGuard noGrad; // the caller's thread-local state reaches the workers
        runOnWorkers(2, 6, [&](size_t k) {
            const int now = ++inside;
            for (int seen = mostInside.load(); now > seen && !mostInside.compare_exchange_weak(seen, now);) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20)); // time for the other to be inside
            {
                std::lock_guard<std::mutex> lock(mutex);
                thread[k] = std::this_thread::get_id();
                intraOp[k] = at::get_num_threads();
                grad[k] = torch::GradMode::is_enabled();
            }
            --inside;
        });
    }
    QCOMPARE(mostInside.load(), 2);
    // Block [0, 3) on one thread, [3, 6) on another, neither the caller.
    QCOMPARE(thread[0], thread[1]);
    QCOMPARE(thread[1], thread[2]);
    QCOMPARE(thread[3], thread[4]);
    QCOMPARE(thread[4], thread[5]);
    QVERIFY(thread[0] != thread[3]);
    QVERIFY(thread[0] != std::this_thread::get_id());
    for (size_t k = 0; k < 6; ++k) {
        QCOMPARE(intraOp[k], 1);
        QVERIFY(!grad[k]);
    }
    QCOMPARE(at::get_num_threads(), 2); // the caller's count, given back
    QVERIFY(torch::GradMode::is_enabled());
}

// Blocks cut by cost, each worked out by hand: the least largest block among contiguous
// cuts, ties going to the cut where each block ends latest.
void TestWorkers::balancedBlocksEvenTheCosts()
{
    const auto cuts = [](const std::vector<WorkerBlock> &blocks) {
        std::vector<std::pair<size_t, size_t>> out;
        for (const WorkerBlock &b : blocks)
            out.emplace_back(b.first, b.last);
        return out;
    };
    using Cuts = std::vector<std::pair<size_t, size_t>>;
    // One long piece first: alone (5) against the five short ones (5); at equal counts 7 | 3.
    QCOMPARE(cuts(balancedBlocks({5, 1, 1, 1, 1, 1}, 2)), (Cuts{{0, 1}, {1, 6}}));
    QCOMPARE(cuts(balancedBlocks({1, 1, 1, 1, 1, 5}, 2)), (Cuts{{0, 5}, {5, 6}}));
    QCOMPARE(cuts(balancedBlocks({3, 3, 3, 3}, 2)), (Cuts{{0, 2}, {2, 4}}));
    QCOMPARE(cuts(balancedBlocks({2, 1, 1, 2}, 3)), (Cuts{{0, 1}, {1, 3}, {3, 4}}));
    // Largest 1 either way: the first block ends as late as it can.
    QCOMPARE(cuts(balancedBlocks({1, 0, 0, 1}, 2)), (Cuts{{0, 3}, {3, 4}}));
    // Nothing to go by: equal counts, as workerBlock.
    QCOMPARE(cuts(balancedBlocks({0, 0, 0, 0, 0}, 2)), (Cuts{{0, 2}, {2, 5}}));
    // Fewer pieces than workers: one each; none at all: no block.
    QCOMPARE(cuts(balancedBlocks({1, 2}, 4)), (Cuts{{0, 1}, {1, 2}}));
    QVERIFY(balancedBlocks(std::vector<double>{}, 2).empty());
    // Never an empty block, even where a piece costs nothing: 9 | 0 0 would be as even.
    QCOMPARE(cuts(balancedBlocks({9, 0, 0}, 3)), (Cuts{{0, 1}, {1, 2}, {2, 3}}));
    // Padded cost (SFT's pieces): sequences longest first, a block costs its count × its
    // first (longest). Cuts after 1, 2, 3, 4 give max(10, 63), max(20, 30), max(30, 25),
    // max(40, 16): 30 at 2 and at 3, and 3 ends the first block later.
    const std::vector<double> lengths{10, 9, 5, 5, 4, 4, 4, 4};
    const auto padded = [&](size_t first, size_t last) { return static_cast<double>(last - first) * lengths[first]; };
    QCOMPARE(cuts(balancedBlocks(lengths.size(), 2, padded)), (Cuts{{0, 3}, {3, 8}}));
    // Over 3: [10 9] 20, [5 5 4 4] 20, [4 4] 8 — the least largest (a first block of [10]
    // leaves 25 at best: [9 5] 18, [5 4 4 4 4] 25); the second block ends as late as 20 allows.
    QCOMPARE(cuts(balancedBlocks(lengths.size(), 3, padded)), (Cuts{{0, 2}, {2, 6}, {6, 8}}));
}

// With costs, each worker runs the block balancedBlocks gives it: one piece of 6 on one
// thread, six of 1 on the other.
void TestWorkers::workersTakeBlocksCutByCost()
{
    const ThreadCount two(2);
    std::mutex mutex;
    std::vector<std::thread::id> thread(7);
    runOnWorkers(2, 7, [&](size_t k) {
        std::lock_guard<std::mutex> lock(mutex);
        thread[k] = std::this_thread::get_id();
    }, {6, 1, 1, 1, 1, 1, 1});
    for (size_t k = 2; k < 7; ++k)
        QCOMPARE(thread[k], thread[1]);
    QVERIFY(thread[0] != thread[1]);
    // One cost per piece, or none.
    QVERIFY_THROWS_EXCEPTION(c10::Error, runOnWorkers(2, 3, [](size_t) {}, {1.0, 2.0}));
}

void TestWorkers::oneWorkerRunsInlineInOrder()
{
    const ThreadCount two(2);
    std::vector<size_t> order;
    runOnWorkers(1, 4, [&](size_t k) {
        QCOMPARE(std::this_thread::get_id(), std::this_thread::get_id());
        QCOMPARE(at::get_num_threads(), 2); // as it is: nothing changed
        order.push_back(k);
    });
    QCOMPARE(order, (std::vector<size_t>{0, 1, 2, 3}));
    order.clear();
    runOnWorkers(4, 1, [&](size_t k) { order.push_back(k); }); // one piece: inline too
    QCOMPARE(order, (std::vector<size_t>{0}));
}

void TestWorkers::lowestFailureIsRethrownAfterAllFinish()
{
    std::mutex mutex;
    std::set<size_t> ran;
    QString message;
    try {
        // Worker 0 has [0, 3), worker 1 [3, 6): 4 fails first in time, 1 later; the
        // lowest, 1, is what the caller sees; each worker stops at its own failure.
        runOnWorkers(2, 6, [&](size_t k) {
            if (k == 1)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            {
                std::lock_guard<std::mutex> lock(mutex);
                ran.insert(k);
            }
            if (k == 1 || k == 4)
                throw std::runtime_error("piece " + std::to_string(k));
        });
    } catch (const std::runtime_error &e) {
        message = e.what();
    }
    QCOMPARE(message, QString("piece 1"));
    QCOMPARE(ran, (std::set<size_t>{0, 1, 3, 4}));
}

// Four losses of a small f64 network: their gradient sum by two workers is the sum of
// four backward() calls to rounding (1e-13 relative), the same to the bit on every run,
// and adds to a gradient already there.
void TestWorkers::backwardSumsMatchOneAfterAnother()
{
    torch::manual_seed(3);
    const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);
    torch::Tensor w1 = torch::randn({16, 8}, f64).requires_grad_(true);
    torch::Tensor w2 = torch::randn({1, 16}, f64).requires_grad_(true);
    torch::Tensor unused = torch::randn({3}, f64).requires_grad_(true); // gets no gradient
    std::vector<torch::Tensor> inputs;
    for (int k = 0; k < 4; ++k)
        inputs.push_back(torch::randn({32, 8}, f64));
    const std::vector<torch::Tensor> params{w1, w2, unused};
    const auto lossOf = [&](size_t k) {
        return torch::tanh(torch::matmul(inputs[k], w1.t())).matmul(w2.t()).pow(2).mean();
    };
    const auto run = [&](int workers, bool startAtOne) {
        for (torch::Tensor p : params)
            p.mutable_grad() = startAtOne ? torch::ones_like(p) : torch::Tensor();
        backwardOnWorkers(workers, 4, params, lossOf);
        std::vector<torch::Tensor> out;
        for (const torch::Tensor &p : params)
            out.push_back(p.grad().defined() ? p.grad().clone() : torch::Tensor());
        return out;
    };
    const std::vector<torch::Tensor> one = run(1, true), two = run(2, true), twoAgain = run(2, true);
    for (size_t i = 0; i < 2; ++i) {
        const double scale = (one[i] - 1.0).abs().max().item<double>();
        QVERIFY(scale > 1e-3);
        QVERIFY((one[i] - two[i]).abs().max().item<double>() <= 1e-13 * scale);
        QVERIFY(torch::equal(two[i], twoAgain[i]));
    }
    QVERIFY(torch::equal(two[2], torch::ones_like(unused))); // untouched
    // From no gradient at all: the sum alone.
    const std::vector<torch::Tensor> fresh = run(2, false);
    QVERIFY((fresh[0] - (one[0] - 1.0)).abs().max().item<double>() <= 1e-12);
    QVERIFY(!unused.grad().defined());
}

// Four prompts × G 3, sampled at temperature 1 from an f64 model: split over two workers,
// each row samples what it samples in the whole batch (its stream is firstRow + r), with
// the same log-probs (1e-10).
void TestWorkers::generationInBlocksMatchesTheWholeBatch()
{
    ModelOptions o;
    o.dtype = "float64";
    o.device = "cpu";
    o.threads = 1;
    o.seed = 5;
    auto lm = CausalLM::random(tinyConfig(), o);
    const std::vector<std::vector<int32_t>> prompts{{3, 4, 5}, {7, 8}, {9, 10, 11, 12}, {13}};
    SamplingOptions s;
    s.maxNewTokens = 12;
    s.stopTokens = {2};
    s.seed = 77;
    s.firstRow = 5;
    const Generation whole = lm->generate(prompts, 3, s);
    s.workers = 2;
    const Generation split = lm->generate(prompts, 3, s);
    QCOMPARE(split.tokens.size(), size_t(12));
    QCOMPARE(split.tokens, whole.tokens);
    QCOMPARE(split.truncated, whole.truncated);
    QCOMPARE(split.generatedTokens, whole.generatedTokens);
    QCOMPARE(split.promptTokens, whole.promptTokens);
    for (size_t r = 0; r < whole.logProbs.size(); ++r)
        for (size_t t = 0; t < whole.logProbs[r].size(); ++t)
            QVERIFY(std::abs(split.logProbs[r][t] - whole.logProbs[r][t]) < 1e-10);
    // Rows differ from one another: the comparison is not of empty or constant rows.
    QVERIFY(whole.tokens[0] != whole.tokens[1] || whole.tokens[3] != whole.tokens[4]);
}

void TestWorkers::batchWorkersFollowThreadSplit()
{
    const ThreadCount two(2);
    QCOMPARE(batchWorkers("batches", torch::Device(torch::kCPU)), 2);
    QCOMPARE(batchWorkers("operations", torch::Device(torch::kCPU)), 1);
    QCOMPARE(batchWorkers("batches", torch::Device(torch::kCUDA)), 1);
}

QTEST_APPLESS_MAIN(TestWorkers)
#include "tst_workers.moc"
