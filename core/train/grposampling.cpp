// GRPO's sampling: which prompts a step takes, and G completions for each
// (grpotrainer.h). With dynamic sampling (DAPO) a step samples more rounds until B groups
// have rewards that differ.

#include "train/grpotrainer.h"

#include "tokenizer/tokenizer.h"
#include "train/dynamicsampling.h"
#include "train/environmentrollout.h"
#include "util/rng.h"

namespace rwb::train::grpo {

size_t PromptOrder::at(uint64_t position)
{
    const uint64_t epoch = position / m_n;
    if (epoch != m_epoch || m_order.empty()) {
        m_order.resize(m_n);
        for (size_t i = 0; i < m_n; ++i)
            m_order[i] = i;
        util::Rng rng(streamSeed(m_seed, kShuffle, epoch));
        for (size_t i = m_n; i > 1; --i)
            std::swap(m_order[i - 1], m_order[static_cast<size_t>(rng.below(i))]);
        m_epoch = epoch;
    }
    return m_order[position % m_n];
}

std::vector<Sample> Trainer::sampleGroups(int stepIndex, int round, const std::vector<size_t> &items, uint64_t firstRow)
{
    std::vector<std::vector<int32_t>> prompts;
    std::vector<const task::Example *> examples;
    for (size_t i : items) {
        prompts.push_back(m_train[i].promptIds);
        examples.push_back(m_train[i].example.get());
    }
    RolloutOptions ro = rolloutOptions();
    ro.sampling.seed = streamSeed(c.seed, kSampling, static_cast<uint64_t>(stepIndex) * 64 + static_cast<uint64_t>(round));
    ro.sampling.firstRow = firstRow;
    m_lm->internals().module->eval();
    std::vector<RolloutRow> rows = generateRollouts(*m_lm, *m_tok, examples, prompts, c.groupSize, ro);
    std::vector<Sample> out(rows.size());
    for (size_t r = 0; r < out.size(); ++r) {
        Sample &s = out[r];
        RolloutRow &row = rows[r];
        s.item = items[r / static_cast<size_t>(c.groupSize)];
        s.tokens = std::move(row.tokens);
        s.samplingLogProbs = std::move(row.logProbs);
        s.fromEnvironment = std::move(row.fromEnvironment);
        s.policyTokens = row.policyTokens;
        s.truncated = row.truncated;
        s.decoded = std::move(row.text);
    }
    return out;
}

RolloutOptions Trainer::rolloutOptions(bool evaluation) const
{
    RolloutOptions ro;
    ro.sampling = m_sampling;
    ro.environment = evaluation && m_evalEnv ? m_evalEnv.get() : m_env.get();
    ro.maxTurns = c.environment.maxTurns;
    ro.maxTurnTokens = c.environment.maxTurnTokens;
    return ro;
}

SampledStep Trainer::sample(int stepIndex)
{
    const int G = c.groupSize;
    SampledStep out;
    for (;;) {
        std::vector<size_t> items;
        for (int b = 0; b < c.promptsPerStep; ++b)
            items.push_back(m_order->at(m_state.cursor++));
        // This rank's share of the groups (all of them alone): its rows keep the numbers
        // they have in the whole round, and so their sampling streams.
        const auto [first, last] = groupShare(items.size());
        const std::vector<size_t> mine(items.begin() + static_cast<long>(first), items.begin() + static_cast<long>(last));
        std::vector<Sample> more;
        auto t = Clock::now();
        if (!mine.empty())
            more = sampleGroups(stepIndex, out.rounds, mine, static_cast<uint64_t>(first) * static_cast<uint64_t>(G));
        m_timings.generate += secondsSince(t);
        t = Clock::now();
        if (!more.empty())
            score(more, &out.rewardMetrics);
        out.rewardSeconds += secondsSince(t);
        m_timings.reward += secondsSince(t);
        t = Clock::now();
        more = shareSamples(std::move(more));
        m_timings.communicate += secondsSince(t);
        for (const Sample &s : more)
            m_tokensThisRun += static_cast<double>(m_train[s.item].promptIds.size() + s.tokens.size());
        const size_t firstGroup = out.samples.size() / static_cast<size_t>(G);
        out.samples.insert(out.samples.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
        ++out.rounds;
        if (!c.dynamicSampling) {
            out.trainedGroups.clear();
            for (size_t g = 0; g < out.samples.size() / static_cast<size_t>(G); ++g)
                out.trainedGroups.push_back(g);
            return out;
        }
        std::vector<double> r;
        for (size_t i = firstGroup * G; i < out.samples.size(); ++i)
            r.push_back(out.samples[i].reward);
        const GroupSelection sel = informativeGroups(torch::tensor(r, torch::kFloat64), G);
        for (int64_t g : sel.keptGroups)
            if (static_cast<int>(out.trainedGroups.size()) < c.promptsPerStep)
                out.trainedGroups.push_back(firstGroup + static_cast<size_t>(g));
        if (static_cast<int>(out.trainedGroups.size()) >= c.promptsPerStep || out.rounds >= c.maxSamplingRounds)
            return out;
    }
}

} // namespace rwb::train::grpo
