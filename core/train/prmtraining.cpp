// P = pairs in a batch; R = 2P rows (the chosen, or first, step's input, then the other's).
#include "train/prmtraining.h"

#include "data/configreader.h"
#include "data/jsonl.h"
#include "model/precision.h"
#include "prm/agreement.h"
#include "store/runstore.h"
#include "train/processrewardmodelinternals.h"
#include "train/sft.h"
#include "train/trainingcommon.h"
#include "util/rng.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <set>

namespace rwb::train {

namespace {

// One training pair: the two inputs (each ends at its step's last token), the weight and
// whether it is a tie.
struct TrainPair {
    PrmInput first, second;
    double weight = 1;
    bool tie = false;
    const prm::StepPair *pair = nullptr;
    bool firstIsA = true; // first is step A
};

// Eq. 4 (and the tie term) on score tensors [P]; the weights' mean normalises.
torch::Tensor rankingLossTensor(const torch::Tensor &first, const torch::Tensor &second, const torch::Tensor &weights,
                                const torch::Tensor &ties)
{
    const torch::Tensor d = first - second;                                              // [P]
    const torch::Tensor preference = -torch::log_sigmoid(d);                             // [P]
    const torch::Tensor equal = 0.5 * (-torch::log_sigmoid(d) - torch::log_sigmoid(-d)); // [P]
    const torch::Tensor l = torch::where(ties, equal, preference);
    return (weights * l).sum() / weights.sum();
}

} // namespace

bool heldOut(const std::string &questionId, double share, uint64_t seed)
{
    if (share <= 0)
        return false;
    const uint64_t h = util::fnv1a64(std::to_string(seed) + '\x1f' + questionId);
    return static_cast<double>(h % 1000000) < share * 1000000.0;
}

RankingLoss rankingLoss(const std::vector<double> &first, const std::vector<double> &second,
                        const std::vector<double> &weights, const std::vector<bool> &ties)
{
    const auto f64 = torch::TensorOptions().dtype(torch::kFloat64);
    torch::Tensor a = torch::tensor(first, f64).set_requires_grad(true);
    torch::Tensor b = torch::tensor(second, f64).set_requires_grad(true);
    std::vector<uint8_t> t(ties.begin(), ties.end());
    const torch::Tensor tie = torch::tensor(std::vector<int64_t>(t.begin(), t.end())).to(torch::kBool);
    const torch::Tensor loss = rankingLossTensor(a, b, torch::tensor(weights, f64), tie);
    loss.backward();
    RankingLoss out;
    out.loss = loss.item<double>();
    out.dFirst.assign(a.grad().data_ptr<double>(), a.grad().data_ptr<double>() + a.numel());
    out.dSecond.assign(b.grad().data_ptr<double>(), b.grad().data_ptr<double>() + b.numel());
    return out;
}

PrmTrainConfig parsePrmTrainConfig(std::string_view text, const std::string &source)
{
    const data::ConfigReader r(text, source,
                               {"model", "output", "store", "set", "task", "sources", "source_weights", "ties", "holdout", "held_out_set", "lora",
                                "lora_r", "lora_alpha", "lora_dropout", "lora_target_modules", "use_rslora", "learning_rate",
                                "weight_decay", "max_grad_norm", "schedule", "warmup_ratio", "epochs", "batch_size",
                                "max_length", "seed", "dtype", "precision", "device", "threads", "limit", "eval_every"});
    PrmTrainConfig c;
    c.model = r.path("model", true);
    c.output = r.path("output", true);
    c.task = std::string(task::Catalog::builtin().getWithSteps(r.text("task", ""), source, "task").name());
    c.store = r.path("store", true);
    c.set = r.text("set", "");
    if (c.set.empty())
        r.fail("set", "is required: the pair set to train on (rwb prm pairs names one)");
    if (r.has("sources")) {
        c.sources.clear();
        for (const std::string &s : r.strings("sources", {})) {
            prm::Source src;
            if (!prm::parseSource(s, src))
                r.fail("sources", "\"" + s + "\" is not human, judge, tree or import");
            c.sources.push_back(src);
        }
        if (c.sources.empty())
            r.fail("sources", "names no source");
    }
    if (r.has("source_weights")) {
        const nlohmann::json w = util::parseJsonOrDiscarded(r.raw("source_weights"));
        if (!w.is_object())
            r.fail("source_weights", "must be an object such as {\"human\": 2, \"judge\": 1}");
        for (const auto &[key, value] : w.items()) {
            prm::Source src;
            if (!prm::parseSource(key, src))
                r.fail("source_weights." + key, "is not human, judge, tree or import");
            if (!value.is_number() || value.get<double>() < 0 || !std::isfinite(value.get<double>()))
                r.fail("source_weights." + key, "must be a number ≥ 0");
            c.sourceWeights[src] = value.get<double>();
        }
    }
    c.ties = r.choice("ties", c.ties, {"drop", "equal"});
    c.holdout = r.number("holdout", c.holdout, 0, 0.9);
    c.heldOutSet = r.text("held_out_set", "");
    if (!c.heldOutSet.empty() && c.heldOutSet == c.set)
        r.fail("held_out_set", "is the set trained on (\"" + c.set + "\"): name another set");
    readTrainerKeys(r, c);
    c.epochs = r.integer("epochs", c.epochs, 1, 1000);
    c.batchSize = r.integer("batch_size", c.batchSize, 1, 4096);
    c.maxLength = r.integer("max_length", c.maxLength, 8, 1 << 20);
    c.seed = static_cast<uint64_t>(r.number("seed", 1, 0, 9.0e15));
    c.dtype = r.choice("dtype", c.dtype, {"float32", "bfloat16", "float64", "auto"});
    c.precision = r.choice("precision", c.precision, {"auto", "bf16", "fp32"});
    c.device = r.choice("device", c.device, {"auto", "cpu", "cuda"});
    c.threads = r.integer("threads", 0, 0, 1024);
    c.limit = r.integer("limit", 0, 0, 1000000000);
    c.evalEvery = r.integer("eval_every", 0, 0, 1000000000);
    return c;
}

PrmTrainConfig loadPrmTrainConfig(const std::string &path)
{
    return parsePrmTrainConfig(data::readTextFile(path), path);
}

PrmTrainResult runPrmTraining(const PrmTrainConfig &c, const PrmTrainCallback &callback)
{
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    PrmTrainResult result;

    if (!std::filesystem::exists(c.store))
        throw data::InputException({c.store, 0, "no such run store"});
    const store::RunStore store(c.store, store::RunStore::OpenMode::ReadOnly);
    const std::vector<prm::StepPair> pairs = store.pairs(c.set);
    if (pairs.empty())
        throw data::InputException({c.store, 0, "no pair set \"" + c.set + "\" (rwb prm pairs makes one)"});
    std::vector<prm::Label> labels = store.labels(c.set);
    const std::map<int64_t, prm::Label> chosen = prm::resolveLabels(labels, c.sources);
    // held_out_set: every pair of it is measured, none trained on (its ids differ from the
    // set's: one store numbers all pairs).
    std::vector<prm::StepPair> heldOutPairs;
    std::set<int64_t> inHeldOutSet;
    if (!c.heldOutSet.empty()) {
        heldOutPairs = store.pairs(c.heldOutSet);
        if (heldOutPairs.empty())
            throw data::InputException({c.store, 0, "held_out_set: no pair set \"" + c.heldOutSet + "\""});
        for (const prm::StepPair &p : heldOutPairs)
            inHeldOutSet.insert(p.id);
        for (prm::Label &l : store.labels(c.heldOutSet))
            labels.push_back(std::move(l));
    }

    model::ModelOptions mo;
    mo.dtype = c.dtype;
    mo.device = c.device;
    mo.threads = c.threads;
    mo.seed = c.seed;
    const model::PrecisionChoice precision = model::resolvePrecision(c.precision, c.device);
    result.precision = precision.name();
    std::unique_ptr<ProcessRewardModel> prm =
        isPrmFolder(c.model)
            ? ProcessRewardModel::load(c.model, mo)
            : ProcessRewardModel::fromPolicy(c.model, mo, c.seed, task::Catalog::builtin().getWithSteps(c.task, c.output, "task"));
    ProcessRewardModel::Internals &d = prm->internals();

    // The pairs with a label, as inputs; a held-out question's pairs are all held out.
    std::set<int64_t> labelledAB; // pairs any source labelled A or B
    for (const prm::Label &l : labels)
        if (l.choice == prm::Choice::A || l.choice == prm::Choice::B)
            labelledAB.insert(l.pairId);
    const auto questionKey = [](const prm::StepPair &p) { return p.questionId.empty() ? p.question : p.questionId; };
    const auto inputs = [&](const prm::StepPair &p, bool aFirst, TrainPair &t) {
        std::vector<std::string> steps = p.history;
        steps.push_back(aFirst ? p.stepA : p.stepB);
        t.first = prm->input(p.question, steps);
        steps.back() = aFirst ? p.stepB : p.stepA;
        t.second = prm->input(p.question, steps);
        t.first.ends = {t.first.ends.back()};
        t.second.ends = {t.second.ends.back()};
        return static_cast<int>(std::max(t.first.tokens.size(), t.second.tokens.size())) <= c.maxLength;
    };
    std::vector<TrainPair> train, held;
    std::vector<const prm::StepPair *> all;
    for (const prm::StepPair &p : pairs)
        all.push_back(&p);
    for (const prm::StepPair &p : heldOutPairs)
        all.push_back(&p);
    for (const prm::StepPair *pp : all) {
        const prm::StepPair &p = *pp;
        const bool fromHeldOutSet = inHeldOutSet.count(p.id) > 0;
        if (!fromHeldOutSet && c.limit > 0 && static_cast<int>(result.labelledPairs) >= c.limit)
            continue;
        const bool isHeld = fromHeldOutSet || heldOut(questionKey(p), c.holdout, c.seed);
        const auto it = chosen.find(p.id);
        if (it != chosen.end())
            ++result.labelledPairs;
        if (isHeld) {
            // Measured against every source that labelled it A or B, trained on by none.
            TrainPair t;
            t.pair = &p;
            if (!labelledAB.count(p.id))
                continue;
            if (!inputs(p, true, t)) {
                ++result.skippedTooLong;
                continue;
            }
            held.push_back(std::move(t));
            continue;
        }
        if (it == chosen.end())
            continue;
        const prm::Label &l = it->second;
        const bool tie = l.choice == prm::Choice::Tie;
        if (tie && c.ties == "drop") {
            ++result.droppedTies;
            continue;
        }
        TrainPair t;
        t.pair = &p;
        t.tie = tie;
        t.firstIsA = l.choice != prm::Choice::B;
        const auto weight = c.sourceWeights.find(l.source);
        t.weight = weight == c.sourceWeights.end() ? 1.0 : weight->second;
        if (t.weight <= 0)
            continue;
        if (!inputs(p, t.firstIsA, t)) {
            ++result.skippedTooLong;
            continue;
        }
        ++result.labelsBySource[prm::sourceName(l.source)];
        train.push_back(std::move(t));
    }
    result.trainPairs = train.size();
    result.heldOutPairs = held.size();
    if (train.empty())
        throw data::InputException(
            {c.store, 0,
             "pair set \"" + c.set + "\": no pair to train on (" + std::to_string(result.labelledPairs) +
                 " labelled by the sources asked for, " + std::to_string(result.droppedTies) + " ties dropped, " +
                 std::to_string(result.skippedTooLong) + " longer than max_length, " + std::to_string(held.size()) +
                 " held out)"});

    // Held-out accuracy per label source: score both steps of every held-out pair (first
    // is step A there).
    const auto measure = [&](std::vector<PairAccuracy> &out) {
        std::vector<PrmInput> in;
        for (const TrainPair &t : held) {
            in.push_back(t.first);
            in.push_back(t.second);
        }
        const std::vector<std::vector<double>> s = prm->score(in, std::max(2, c.batchSize * 2));
        std::map<int64_t, std::pair<double, double>> byPair; // pair id → (R(A), R(B))
        for (size_t i = 0; i < held.size(); ++i)
            byPair[held[i].pair->id] = {s[2 * i][0], s[2 * i + 1][0]};
        out.clear();
        for (const prm::Source source : {prm::Source::Human, prm::Source::Judge, prm::Source::Tree, prm::Source::Import}) {
            PairAccuracy a;
            a.source = prm::sourceName(source);
            for (const auto &[pairId, l] : prm::resolveLabels(labels, {source})) {
                const auto it = byPair.find(pairId);
                if (it == byPair.end() || (l.choice != prm::Choice::A && l.choice != prm::Choice::B))
                    continue;
                ++a.pairs;
                const double diff = it->second.first - it->second.second;
                a.correct += (l.choice == prm::Choice::A ? diff > 0 : diff < 0) ? 1 : 0;
            }
            if (a.pairs > 0)
                out.push_back(a);
        }
    };
    if (!held.empty())
        measure(result.heldOutBefore);

    model::CausalLmInternals &li = prm->lm().internals();
    if (c.lora)
        prm->lm().addLora(c.loraOptions);
    li.module->train();
    std::vector<torch::Tensor> params = d.trainableParameters();
    torch::optim::AdamW optimizer(params, torch::optim::AdamWOptions(c.learningRate).weight_decay(c.weightDecay));
    const int stepsPerEpoch = static_cast<int>((train.size() + static_cast<size_t>(c.batchSize) - 1) /
                                               static_cast<size_t>(c.batchSize));
    const int totalSteps = stepsPerEpoch * c.epochs;
    util::Rng rng(c.seed);
    std::vector<size_t> order(train.size());
    const torch::Dtype compute = model::computeDtype(li.dtype);
    const auto fopts = torch::TensorOptions().dtype(compute).device(li.device);
    int step = 0;
    bool stop = false;
    for (int epoch = 0; epoch < c.epochs && !stop; ++epoch) {
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        for (size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[static_cast<size_t>(rng.below(i))]);
        for (int s = 0; s < stepsPerEpoch && !stop; ++s) {
            const size_t from = static_cast<size_t>(s) * static_cast<size_t>(c.batchSize);
            const size_t to = std::min(order.size(), from + static_cast<size_t>(c.batchSize));
            std::vector<const PrmInput *> rows;
            std::vector<double> weights;
            std::vector<int64_t> ties;
            for (size_t k = from; k < to; ++k) {
                const TrainPair &t = train[order[k]];
                rows.push_back(&t.first);
                rows.push_back(&t.second);
                weights.push_back(t.weight);
                ties.push_back(t.tie ? 1 : 0);
            }
            torch::Tensor scores; // [R]: first, second, first, second, …
            {
                AutocastScope autocast(precision.bf16, li.device);
                scores = d.forwardScores(rows);
            }
            scores = scores.to(compute).view({-1, 2}); // [P, 2]
            const torch::Tensor first = scores.select(1, 0), second = scores.select(1, 1);
            const torch::Tensor tieMask = torch::tensor(ties).to(li.device).to(torch::kBool);
            const torch::Tensor loss = rankingLossTensor(first, second, torch::tensor(weights, fopts.dtype(torch::kFloat64)).to(fopts), tieMask);
            const double value = loss.item<double>();
            if (!std::isfinite(value))
                throw std::runtime_error("PRM step " + std::to_string(step + 1) + ": the loss is " +
                                         (std::isnan(value) ? "NaN" : "infinite") + "; nothing was saved");
            loss.backward();
            const double gradNorm = torch::nn::utils::clip_grad_norm_(params, c.maxGradNorm > 0 ? c.maxGradNorm : 1e30);
            const double lr = scheduledLearningRate(c.learningRate, c.schedule, c.warmupRatio, step, totalSteps);
            setLearningRate(optimizer, lr);
            optimizer.step();
            optimizer.zero_grad();
            ++step;
            result.finalLoss = value;
            if (callback) {
                const torch::Tensor diff = (first - second).detach();
                const torch::Tensor notTie = tieMask.logical_not();
                const int64_t n = notTie.sum().item<int64_t>();
                PrmTrainProgress p;
                p.step = step;
                p.totalSteps = totalSteps;
                p.epoch = epoch;
                p.loss = value;
                p.accuracy = n ? static_cast<double>(((diff > 0).logical_and(notTie)).sum().item<int64_t>()) /
                                     static_cast<double>(n)
                               : 0.0;
                p.learningRate = lr;
                p.gradNorm = gradNorm;
                p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - start).count();
                // Held-out accuracy every eval_every steps (0: at each epoch's end).
                const bool evalNow = !held.empty() && (c.evalEvery > 0 ? step % c.evalEvery == 0 || step == totalSteps
                                                                        : s + 1 == stepsPerEpoch);
                if (evalNow) {
                    li.module->eval();
                    measure(p.heldOut);
                    li.module->train();
                }
                stop = !callback(p);
            }
        }
    }
    result.steps = step;
    li.module->eval();
    if (!held.empty())
        measure(result.heldOutAfter);
    {
        std::vector<PrmInput> inputs;
        std::vector<const TrainPair *> ranked;
        for (const TrainPair &t : train)
            if (!t.tie) {
                inputs.push_back(t.first);
                inputs.push_back(t.second);
                ranked.push_back(&t);
            }
        const std::vector<std::vector<double>> s = prm->score(inputs, std::max(2, c.batchSize * 2));
        result.trainAfter.source = "training label";
        for (size_t i = 0; i < ranked.size(); ++i) {
            ++result.trainAfter.pairs;
            result.trainAfter.correct += s[2 * i][0] > s[2 * i + 1][0] ? 1 : 0;
        }
    }
    nlohmann::ordered_json meta;
    meta["store"] = c.store;
    meta["set"] = c.set;
    meta["train_pairs"] = result.trainPairs;
    meta["held_out_pairs"] = result.heldOutPairs;
    meta["steps"] = result.steps;
    meta["ties"] = c.ties;
    nlohmann::ordered_json acc = nlohmann::ordered_json::object();
    for (const PairAccuracy &a : result.heldOutAfter)
        acc[a.source] = {{"pairs", a.pairs}, {"accuracy", a.accuracy()}};
    meta["held_out_accuracy"] = acc;
    prm->save(c.output, c.model, meta.dump());
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

} // namespace rwb::train
