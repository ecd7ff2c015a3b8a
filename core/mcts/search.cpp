#include "mcts/search.h"

#include "data/jsonl.h"
#include "model/batchdecoder.h"
#include "model/causallm.h"
#include "task/environment.h"
#include "task/task.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "util/rng.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace rwb::mcts {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool endsWith(const std::string &s, std::string_view tail)
{
    return s.size() >= tail.size() && std::string_view(s).substr(s.size() - tail.size()) == tail;
}

// A sampling stream of (seed, a, b): util::Rng's stream derivation.
uint64_t streamSeed(uint64_t seed, uint64_t a, uint64_t b)
{
    return util::Rng::forStream(seed, a, b).next();
}

} // namespace

void SearchStats::add(const SearchStats &o)
{
    generation += o.generation;
    retrieval += o.retrieval;
    tree += o.tree;
    total += o.total;
    prefilledTokens += o.prefilledTokens;
    decodedTokens += o.decodedTokens;
    expansions += o.expansions;
    simulatedSteps += o.simulatedSteps;
}

struct StepPolicy::Impl {
    PolicyOptions options;
    const task::Task *task = nullptr;
    const task::Steps *steps = nullptr;
    std::shared_ptr<const tokenizer::Tokenizer> tok;
    std::unique_ptr<tokenizer::PromptFormat> format;
    std::unique_ptr<model::CausalLM> lm;
    // The task's environment by passages a reply (made at the first search with that topK).
    mutable std::map<int, std::unique_ptr<task::Environment>> environments;
    mutable bool noEnvironment = false; // the task has none
    std::set<int32_t> stopIds;

    // One row of a generation: the action it is writing and those it finished.
    struct Row {
        int handle = -1;
        std::string prefixText;        // the trajectory's text before the action
        StepBlock block;
        std::vector<int32_t> phaseIds; // the policy's tokens since the last boundary
        int phase = 0;                 // 0: until a pause or the answer's end; 1: until the step's end
        std::vector<StepBlock> done;
        bool finished = false;
    };

    const task::Environment *environment(int topK) const
    {
        if (noEnvironment)
            return nullptr;
        auto it = environments.find(topK);
        if (it == environments.end()) {
            task::EnvironmentOptions o;
            o.index = options.index;
            o.topK = topK;
            o.source = options.source;
            std::unique_ptr<task::Environment> env = task->environment(o);
            if (!env) {
                noEnvironment = true;
                return nullptr;
            }
            it = environments.emplace(topK, std::move(env)).first;
        }
        return it->second.get();
    }

    void finishAction(Row &r, bool terminal, int maxActions)
    {
        r.prefixText += r.block.text; // the next action's environment reads the trajectory so far
        r.block.terminal = terminal;
        r.done.push_back(std::move(r.block));
        r.block = StepBlock();
        r.phaseIds.clear();
        r.phase = 0;
        if (terminal || static_cast<int>(r.done.size()) >= maxActions)
            r.finished = true;
    }

    // Takes one sampled token of a row; the environment's reply may feed the row more and
    // sample again.
    void accept(model::BatchDecoder &decoder, const task::Example &example, Row &r, model::SampledToken t,
                int maxActions, const SearchParams &params, SearchStats &stats)
    {
        const int64_t context = decoder.contextLength();
        const task::Environment *env = environment(params.topK);
        for (;;) {
            if (stopIds.count(t.id)) { // the end of the completion: no answer after it
                r.block.text += tok->decode(r.phaseIds);
                finishAction(r, true, maxActions);
                return;
            }
            r.block.tokens.push_back(t.id);
            r.block.fromEnvironment.push_back(0);
            r.block.policyTokens += 1;
            r.block.logProb += t.logProb;
            r.phaseIds.push_back(t.id);
            const std::string text = tok->decode(r.phaseIds);
            if (r.phase == 0 && endsWith(text, steps->answerEnd())) {
                r.block.text += text;
                r.block.answer = steps->stepAnswer(text);
                finishAction(r, true, maxActions);
                return;
            }
            const bool paused = r.phase == 0 && env &&
                                std::any_of(env->pauses().begin(), env->pauses().end(),
                                            [&](const std::string &p) { return endsWith(text, p); });
            if (paused) {
                r.block.text += text;
                const auto t0 = Clock::now();
                task::EnvironmentReply reply = env->respond(example, r.prefixText + r.block.text);
                const std::vector<int32_t> envTokens = tok->encode(reply.text);
                stats.retrieval += since(t0);
                if (context > 0 && decoder.length(r.handle) + static_cast<int64_t>(envTokens.size()) + 2 >= context) {
                    r.block.ranOut = true;
                    finishAction(r, true, maxActions);
                    return;
                }
                r.block.text += reply.text;
                r.block.retrieved = std::move(reply.sources);
                r.block.tokens.insert(r.block.tokens.end(), envTokens.begin(), envTokens.end());
                r.block.fromEnvironment.insert(r.block.fromEnvironment.end(), envTokens.size(), 1);
                r.phase = 1;
                r.phaseIds.clear();
                const auto g0 = Clock::now();
                t = decoder.extend(r.handle, envTokens);
                stats.generation += since(g0);
                stats.prefilledTokens += static_cast<int64_t>(envTokens.size()) + 1;
                continue;
            }
            // After the environment's reply, or in a task without an environment.
            if ((r.phase == 1 || !env) && endsWith(text, steps->stepEnd())) {
                r.block.text += text;
                finishAction(r, false, maxActions);
                return;
            }
            if (r.block.policyTokens >= params.maxStepTokens ||
                (context > 0 && decoder.length(r.handle) + 1 >= context)) {
                r.block.text += text;
                r.block.ranOut = true;
                finishAction(r, true, maxActions);
            }
            return;
        }
    }

    // n rows from `prefix`, each writing up to maxActions actions.
    std::vector<std::vector<StepBlock>> generate(const task::Example &example, const std::vector<int32_t> &prefix,
                                                 const std::string &prefixText, int n, int maxActions,
                                                 double temperature, uint64_t seed, const SearchParams &params,
                                                 SearchStats &stats)
    {
        std::vector<Row> rows(static_cast<size_t>(n));
        for (Row &r : rows)
            r.prefixText = prefixText;
        if (maxActions <= 0)
            return std::vector<std::vector<StepBlock>>(static_cast<size_t>(n));
        model::BatchDecoder decoder(*lm, tok->vocabSize());
        const auto sampling = [&](int i) {
            model::RowSampling s;
            s.temperature = temperature;
            s.seed = streamSeed(seed, static_cast<uint64_t>(i), 0);
            return s;
        };
        std::vector<model::SampledToken> first;
        auto g0 = Clock::now();
        if (options.sharePrefill) {
            std::vector<model::RowSampling> all;
            for (int i = 0; i < n; ++i)
                all.push_back(sampling(i));
            first = decoder.add(prefix, all);
            stats.prefilledTokens += static_cast<int64_t>(prefix.size());
        } else {
            for (int i = 0; i < n; ++i) {
                const auto one = decoder.add(prefix, {sampling(i)});
                first.push_back(one.front());
                stats.prefilledTokens += static_cast<int64_t>(prefix.size());
            }
        }
        stats.generation += since(g0);
        const auto rowOf = [&](int handle) -> Row & {
            for (Row &r : rows)
                if (r.handle == handle)
                    return r;
            throw std::logic_error("step policy: unknown row");
        };
        for (size_t i = 0; i < first.size(); ++i)
            rows[i].handle = first[i].row;
        const auto sweep = [&](const std::vector<model::SampledToken> &tokens) {
            for (const model::SampledToken &t : tokens) {
                Row &r = rowOf(t.row);
                if (!r.finished)
                    accept(decoder, example, r, t, maxActions, params, stats);
            }
            std::vector<int> gone;
            for (Row &r : rows)
                if (r.finished && r.handle >= 0) {
                    gone.push_back(r.handle);
                    r.handle = -2 - static_cast<int>(&r - rows.data()); // no longer a decoder row
                }
            if (!gone.empty())
                decoder.remove(gone);
        };
        sweep(first);
        while (decoder.rows() > 0) {
            g0 = Clock::now();
            const std::vector<model::SampledToken> tokens = decoder.step();
            stats.generation += since(g0);
            stats.decodedTokens += static_cast<int64_t>(tokens.size());
            sweep(tokens);
        }
        std::vector<std::vector<StepBlock>> out;
        for (Row &r : rows)
            out.push_back(std::move(r.done));
        return out;
    }
};

StepPolicy::StepPolicy(const PolicyOptions &options, const task::Task &task) : m_d(std::make_unique<Impl>())
{
    m_d->options = options;
    m_d->task = &task;
    m_d->steps = task.steps();
    if (!m_d->steps)
        throw data::InputException({options.model, 0, "the task \"" + std::string(task.name()) +
                                                           "\" has no reasoning steps: the tree search needs a task that declares them"});
    // The environment first: a missing index is named before a model loads.
    (void)m_d->environment(options.topK);
    m_d->tok = tokenizer::loadTokenizer(options.model);
    m_d->format = std::make_unique<tokenizer::PromptFormat>(tokenizer::PromptFormat::forModel(options.model, *m_d->tok));
    for (int32_t id : m_d->format->stopTokenIds(*m_d->tok))
        m_d->stopIds.insert(id);
    model::ModelOptions mo;
    mo.device = options.device;
    mo.dtype = options.dtype;
    mo.threads = options.threads;
    m_d->lm = model::CausalLM::load(options.model, mo);
}

StepPolicy::~StepPolicy() = default;

const PolicyOptions &StepPolicy::options() const
{
    return m_d->options;
}

const task::Task &StepPolicy::task() const
{
    return *m_d->task;
}

const task::Steps &StepPolicy::steps() const
{
    return *m_d->steps;
}

std::vector<int32_t> StepPolicy::promptTokens(const task::Example &example) const
{
    return m_d->tok->encode(m_d->task->prompt(example, *m_d->format, false));
}

std::vector<StepBlock> StepPolicy::sample(const task::Example &example, const std::vector<int32_t> &prefix,
                                          const std::string &prefixText, int n, double temperature, uint64_t seed,
                                          const SearchParams &params, SearchStats &stats)
{
    std::vector<StepBlock> out;
    for (auto &row : m_d->generate(example, prefix, prefixText, n, 1, temperature, seed, params, stats))
        out.push_back(row.empty() ? StepBlock{} : std::move(row.front()));
    return out;
}

std::vector<StepBlock> StepPolicy::rollout(const task::Example &example, const std::vector<int32_t> &prefix,
                                           const std::string &prefixText, int maxActions, double temperature,
                                           uint64_t seed, const SearchParams &params, SearchStats &stats)
{
    return std::move(
        m_d->generate(example, prefix, prefixText, 1, maxActions, temperature, seed, params, stats).front());
}

const task::Environment *StepPolicy::environment(int topK) const
{
    return m_d->environment(topK);
}

std::string StepPolicy::decode(const std::vector<int32_t> &tokens) const
{
    return m_d->tok->decode(tokens);
}

int64_t StepPolicy::contextLength() const
{
    return m_d->lm->config().maxPositions;
}

double trajectoryValue(const task::Steps &steps, const task::Example &example, const std::string &trajectory,
                       const std::string &metric)
{
    const std::optional<std::string> answer = steps.trajectoryAnswer(trajectory);
    return answer ? steps.answerScore(example, *answer, metric) : 0.0;
}

SearchRecord runSearch(StepPolicy &policy, const task::Example &example, const SearchParams &params,
                       SearchStats &stats, const IterationCallback &callback)
{
    const task::Steps &steps = policy.steps();
    task::StepQuestion q = steps.stepQuestionRecord(example);
    SearchRecord record;
    record.questionId = std::move(q.id);
    record.question = std::move(q.question);
    record.goldAnswer = std::move(q.goldAnswer);
    record.goldPassages = std::move(q.goldSources);
    record.hops = q.hops;
    record.params = params;
    SearchTree &tree = record.tree;
    const std::vector<int32_t> prompt = policy.promptTokens(example);
    std::vector<std::vector<int32_t>> actionTokens{{}}; // per node; the root has none

    const auto pathTo = [&](int node) {
        std::vector<int> path;
        for (int n = node; n >= 0; n = tree.node(n).parent)
            path.push_back(n);
        std::reverse(path.begin(), path.end());
        return path;
    };
    const auto prefixOf = [&](int node) {
        std::vector<int32_t> prefix = prompt;
        for (int n : pathTo(node))
            prefix.insert(prefix.end(), actionTokens[static_cast<size_t>(n)].begin(),
                          actionTokens[static_cast<size_t>(n)].end());
        return prefix;
    };
    const auto textOf = [&](int node) {
        std::string text;
        for (int n : pathTo(node))
            text += tree.node(n).step;
        return text;
    };

    for (int it = 1; it <= params.simulations; ++it) {
        const auto t0 = Clock::now();
        SearchStats local;
        auto tt = Clock::now();
        Iteration rec;
        rec.index = it;
        rec.selected = tree.selectPath(params.cPuct);
        const int leaf = rec.selected.back();
        rec.backedUp = rec.selected;
        local.tree += since(tt);
        const Node &leafNode = tree.node(leaf);
        if (leafNode.terminal) {
            rec.value = leafNode.terminalValue;
            rec.terminalDepth = leafNode.depth;
        } else if (const std::vector<int32_t> prefix = prefixOf(leaf);
                   leafNode.depth >= params.maxDepth ||
                   static_cast<int64_t>(prefix.size()) + params.maxStepTokens >= policy.contextLength()) {
            rec.value = 0.0; // the depth limit (or the context) ends the trajectory without an answer
            rec.terminalDepth = leafNode.depth;
        } else {
            const uint64_t seed = streamSeed(params.seed, static_cast<uint64_t>(it), 1);
            std::vector<StepBlock> blocks = policy.sample(example, prefix, textOf(leaf), params.expansions,
                                                          params.temperature, seed, params, local);
            ++local.expansions;
            tt = Clock::now();
            // Identical actions are one child.
            std::vector<StepBlock> distinct;
            for (StepBlock &b : blocks)
                if (std::none_of(distinct.begin(), distinct.end(), [&](const StepBlock &d) { return d.text == b.text; }))
                    distinct.push_back(std::move(b));
            std::vector<double> means;
            for (const StepBlock &b : distinct)
                means.push_back(b.logProb / std::max(1, b.policyTokens));
            const double top = *std::max_element(means.begin(), means.end());
            double z = 0;
            for (double &m : means)
                z += (m = std::exp(m - top));
            const std::string before = textOf(leaf);
            rec.expanded = leaf;
            for (size_t i = 0; i < distinct.size(); ++i) {
                StepBlock &b = distinct[i];
                const int id = tree.addChild(leaf, b.text, std::clamp(means[i] / z, 0.0, 1.0), it);
                Node &n = tree.detail(id);
                n.tokens = b.policyTokens;
                n.logProb = b.logProb;
                n.retrieved = b.retrieved;
                n.answer = b.answer;
                actionTokens.push_back(std::move(b.tokens));
                if (b.terminal)
                    tree.setTerminal(id, b.ranOut ? 0.0 : trajectoryValue(steps, example, before + b.text, params.value));
                rec.created.push_back(id);
            }
            const int child = tree.selectChild(leaf, params.cPuct);
            rec.backedUp.push_back(child);
            local.tree += since(tt);
            const Node &c = tree.node(child);
            if (c.terminal) {
                rec.value = c.terminalValue;
                rec.terminalDepth = c.depth;
            } else {
                const uint64_t simSeed = streamSeed(params.seed, static_cast<uint64_t>(it), 2);
                const std::vector<StepBlock> sim =
                    policy.rollout(example, prefixOf(child), textOf(child), params.maxDepth - c.depth,
                                   params.temperature, simSeed, params, local);
                local.simulatedSteps += static_cast<int64_t>(sim.size());
                for (const StepBlock &b : sim)
                    rec.simulation += b.text;
                tt = Clock::now();
                rec.terminalDepth = c.depth + static_cast<int>(sim.size());
                const bool answered = !sim.empty() && sim.back().terminal && !sim.back().ranOut;
                rec.value = answered ? trajectoryValue(steps, example, textOf(child) + rec.simulation, params.value) : 0.0;
                if (!sim.empty())
                    rec.simulationAnswer = sim.back().answer;
                local.tree += since(tt);
            }
        }
        tt = Clock::now();
        tree.backup(rec.backedUp, rec.value, params.gamma, rec.terminalDepth);
        local.tree += since(tt);
        rec.seconds = since(t0);
        local.total = rec.seconds;
        stats.add(local);
        record.iterations.push_back(std::move(rec));
        if (callback && !callback(record))
            break;
    }
    return record;
}

GreedyResult greedyRollout(StepPolicy &policy, const task::Example &example, const SearchParams &params,
                           SearchStats &stats)
{
    const auto t0 = Clock::now();
    GreedyResult g;
    const std::vector<StepBlock> blocks =
        policy.rollout(example, policy.promptTokens(example), std::string(), params.maxDepth, 0.0, 0, params, stats);
    for (const StepBlock &b : blocks)
        g.text += b.text;
    g.actions = static_cast<int>(blocks.size());
    g.answer = policy.steps().trajectoryAnswer(g.text).value_or(std::string());
    const std::unique_ptr<task::MetricSet> metrics = policy.task().metrics();
    metrics->add(example, *policy.task().parse(example, g.text, false));
    g.metrics = metrics->result();
    for (const auto &[name, value] : g.metrics) {
        if (name == "em")
            g.em = value;
        else if (name == "f1")
            g.f1 = value;
        else if (name == "format")
            g.wellFormed = value > 0.5;
    }
    stats.total += std::chrono::duration<double>(Clock::now() - t0).count();
    return g;
}

} // namespace rwb::mcts
